//! Puzzles mined from real games: positions where the side to move has one move that wins,
//! usually right after the opponent's mistake, with the unique line that wins.
//!
//! ```text
//! ReplayedGame ──screen: one shallow search per position──▶ swings: the side to move at i
//!   is winning by the shallow search and was not at i−1 (the opponent's move looks like a
//!   mistake)
//!   ──mistake: i−1 searched at the mining budget, the solver not already winning there──▶
//!   ──solve at the mining budget (solve.rs): one move wins, every other clearly worse; the
//!     line goes on with the opponent's best defence and the solver's unique winning move
//!     until the gain is realised──▶
//!   ──verify (verify.rs): every solver move searched again at VERIFY_FACTOR × the budget──▶
//!   Puzzle: position, solution, gain, themes and difficulty (themes.rs)
//! ```
//! Duplicates (the same position from several games) are merged by [`Collection`].
//!
//! With endgame tables ([`PuzzleOptions::tables`]) every search probes them, and a position
//! they hold is judged by them (see [`solve`]): a puzzle that starts there "wins" when its
//! move is the only table win, and its solution's replies are the table's best defence.
//!
//! Every search is limited by nodes and starts from fresh tables (no game history: a puzzle
//! is its position alone), so a position's puzzle is the same in every game, on every thread
//! and when its PDN record is verified again.
//!
//! The gain is measured from a **reference**: the solver's material balance in the last
//! position, at or before the puzzle, where the side to move had nothing to capture. So a
//! puzzle that starts in the middle of an exchange must win a man more than the exchange
//! gives back.
//!
//! ```
//! use drafti_analysis::puzzles::{mine_game, PuzzleOptions};
//! use drafti_archive::replay::{replay, ReplayOptions};
//! // Black's last move d6-c5?? lets White give a man and take two.
//! let text = br#"[FEN "B:Wa1,c3,e3,g3:Bd6,f6,h6"] 1... d6-c5 *"#;
//! let record = drafti_pdn::parse_games(text).remove(0).unwrap();
//! let game = replay(record, &ReplayOptions::default());
//! let mined = mine_game(&game, &PuzzleOptions::default());
//! assert_eq!(mined.stats.positions, 2);
//! ```

mod collection;
pub mod readings;
pub mod solve;
pub mod themes;
pub mod verify;

pub use collection::{Collection, Entry, Source};
pub use readings::{other_reading, ReadingCheck};
pub use solve::End;
pub use themes::Themes;

use crate::selfplay::with_engine;
use drafti_archive::batch::GameJob;
use drafti_archive::replay::ReplayedGame;
use drafti_engine::egtb::{EgtbError, Tables};
use drafti_engine::{Engine, Limits, Score, StopFlag};
use drafti_rules::{DrawLaws, Move, Position, Variant};
use serde::Serialize;
use std::fmt;
use std::sync::Arc;

/// The default node budget of each search while mining.
pub const DEFAULT_NODES: u64 = 20_000;

/// Verification searches this many times the mining budget.
pub const VERIFY_FACTOR: u64 = 4;

/// The screen's depth (plies; captures to the end come free).
pub const SCREEN_DEPTH: u32 = 6;

/// The screen's node limit.
pub const SCREEN_NODES: u64 = 8_000;

/// The screen passes a position whose best shallow score is at least this…
pub const SCREEN_WINNING: i32 = 40;

/// …and at least this much better for the side to move than the position before it.
pub const SCREEN_SWING: i32 = 40;

/// At the mining budget the opponent's move must have cost at least this much (a man).
pub const SWING: i32 = 100;

/// How puzzles are mined.
#[derive(Clone)]
pub struct PuzzleOptions {
    /// The first filter, one search of every position.
    pub screen: Limits,
    /// Nodes of each search while mining.
    pub nodes: u64,
    /// Verification searches `verify_factor × nodes` nodes per solver move (0: no
    /// verification).
    pub verify_factor: u64,
    /// The longest solution, in plies.
    pub max_plies: usize,
    /// Transposition table of each worker's engine, MiB.
    pub tt_mb: usize,
    /// Endgame tables, at most one set per variant (see [`PuzzleOptions::add_tables`]).
    pub tables: Vec<Arc<Tables>>,
    /// Raised from another thread, the mining's searches stop at once (what is found then
    /// is meaningless): how a caller that goes away (Ctrl-C in Python) ends the work.
    pub stop: StopFlag,
}

impl PuzzleOptions {
    /// Adds the tables of one variant (replacing earlier ones of that variant); they must be
    /// built for the variant's own draw laws, the laws the puzzles are solved by.
    pub fn add_tables(&mut self, tables: Arc<Tables>) -> Result<(), EgtbError> {
        let laws = DrawLaws::for_variant(tables.variant());
        if tables.laws() != laws {
            return Err(EgtbError::WrongRules {
                path: tables.dir().to_path_buf(),
                reason: format!(
                    "tables for laws {:?}; puzzles of {} are solved by {laws:?}",
                    tables.laws(),
                    tables.variant()
                ),
            });
        }
        self.tables.retain(|t| t.variant() != tables.variant());
        self.tables.push(tables);
        Ok(())
    }

    /// The tables of `variant`, if any.
    pub fn tables_for(&self, variant: Variant) -> Option<Arc<Tables>> {
        self.tables.iter().find(|t| t.variant() == variant).cloned()
    }
}

/// Runs `f` with this thread's engine for `variant` and the endgame tables `tables` (taken
/// off again after: the engine is the thread's, shared with other work).
fn with_tables<R>(
    variant: Variant,
    tt_mb: usize,
    tables: Option<Arc<Tables>>,
    f: impl FnOnce(&mut Engine) -> R,
) -> R {
    with_engine(variant, tt_mb, |engine| {
        // add_tables checked the laws and the variant is the engine's: this cannot fail.
        let _ = engine.set_tables(tables);
        let result = f(engine);
        let _ = engine.set_tables(None);
        result
    })
}

impl Default for PuzzleOptions {
    fn default() -> Self {
        PuzzleOptions {
            screen: Limits {
                depth: Some(SCREEN_DEPTH),
                nodes: Some(SCREEN_NODES),
                ..Limits::default()
            },
            nodes: DEFAULT_NODES,
            verify_factor: VERIFY_FACTOR,
            max_plies: 24,
            tt_mb: 4,
            tables: Vec::new(),
            stop: StopFlag::new(),
        }
    }
}

/// Why a candidate is not a puzzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Failure {
    /// The solver was already winning before the opponent's move (it was no mistake).
    NoMistake,
    /// No move wins.
    NotWinning,
    /// A second move wins too, or is not clearly worse.
    Ambiguous,
    /// Only one move (or only landing squares of one capture) to choose from.
    Forced,
    /// The line stops being unique, or gets too long, before the gain is realised.
    Unrealised,
    /// Mined, but verification at the deeper budget disagrees.
    Refuted,
    /// Verification: the search prefers another move.
    OtherMove,
    /// Verification: a move of the line is not legal.
    IllegalMove,
}

impl Failure {
    /// The snake_case name.
    pub const fn as_str(self) -> &'static str {
        match self {
            Failure::NoMistake => "no_mistake",
            Failure::NotWinning => "not_winning",
            Failure::Ambiguous => "ambiguous",
            Failure::Forced => "forced",
            Failure::Unrealised => "unrealised",
            Failure::Refuted => "refuted",
            Failure::OtherMove => "other_move",
            Failure::IllegalMove => "illegal_move",
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Failure::NoMistake => "the solver was already winning before",
            Failure::NotWinning => "no move wins",
            Failure::Ambiguous => "another move wins too",
            Failure::Forced => "there is no choice",
            Failure::Unrealised => "the gain is not realised by a unique line",
            Failure::Refuted => "the verification at the deeper budget disagrees",
            Failure::OtherMove => "another move is the winning one",
            Failure::IllegalMove => "a move is not legal",
        })
    }
}

/// What a puzzle wins.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GainKind {
    /// Material by force: the line ends with the solver [`Puzzle::gain`] up on the reference.
    Material,
    /// A man through to be crowned: the line ends with a runaway man (see [`End::Runaway`]).
    Runaway,
    /// The game: the line ends with the opponent without a move, the first move is a
    /// proven win, or the puzzle's position is in the endgame tables (its move the only
    /// table win).
    Win,
}

/// One puzzle.
#[derive(Clone, Debug)]
pub struct Puzzle {
    /// The variant.
    pub variant: Variant,
    /// The position, the solver to move.
    pub position: Position,
    /// The solution: the solver's move, the opponent's reply, … ; every solver move the one
    /// that wins. It ends where the gain is realised, or at the last solver move before one
    /// with a second winning move.
    pub solution: Vec<Move>,
    /// In the second case, the engine's line from the end of the solution to where the gain
    /// is realised (the opponent's move first).
    pub continuation: Vec<Move>,
    /// What it wins.
    pub kind: GainKind,
    /// The material won at the end of the solution, in hundredths of a man (a king is 300),
    /// from the reference.
    pub gain: i32,
    /// A proven win for the solver: plies to the end.
    pub proven_win: Option<u32>,
    /// The first move's score at the verification budget.
    pub score: Score,
    /// The best other move's score there.
    pub second: Option<Score>,
    /// The search depth from which the first move is found and kept (plies).
    pub depth: u32,
    /// 1 (easiest) to 5 ([`themes::difficulty`] of `depth`).
    pub difficulty: u8,
    /// What the solution shows (its moves only, not the continuation's).
    pub themes: Themes,
    /// Judged by the endgame tables: the first move is the only one that wins, exactly.
    pub exact: bool,
    /// The solver's material balance the gain is measured from (see the module's doc).
    pub reference: i32,
    /// The solution verified again under the other reading of the Tanzanian rules
    /// ([`readings`]); `None` for Czech and Russian puzzles, or when not checked.
    pub other_reading: Option<ReadingCheck>,
}

impl Puzzle {
    /// Moves of the solver in the solution.
    pub fn solver_moves(&self) -> usize {
        self.solution.len().div_ceil(2)
    }

    /// The gain in whole men (rounded towards zero): a king counts 3.
    pub fn gain_men(&self) -> i32 {
        self.gain / drafti_engine::MAN
    }
}

/// A puzzle found in a game: where, and the puzzle.
#[derive(Clone, Debug)]
pub struct Found {
    /// The index of the puzzle's position in the game (`positions[ply]`, after `ply` moves):
    /// the solution's first move is the game's ply `ply + 1`.
    pub ply: usize,
    /// The puzzle.
    pub puzzle: Puzzle,
}

/// What the mining of some games did, stage by stage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stats {
    /// Positions screened.
    pub positions: u64,
    /// Positions the screen passed.
    pub candidates: u64,
    /// Candidates where the opponent's move was no mistake.
    pub no_mistake: u64,
    /// Candidates without a winning move at the mining budget.
    pub not_winning: u64,
    /// Candidates with a second winning move (or a forced one).
    pub ambiguous: u64,
    /// Candidates whose line did not realise the gain.
    pub unrealised: u64,
    /// Puzzles mined (before verification).
    pub mined: u64,
    /// Mined puzzles that failed verification.
    pub refuted: u64,
    /// Puzzles kept.
    pub puzzles: u64,
    /// Nodes searched by the screen.
    pub screen_nodes: u64,
    /// Nodes searched mining and verifying.
    pub mine_nodes: u64,
}

impl Stats {
    /// Adds `other`'s counts.
    pub fn add(&mut self, other: &Stats) {
        self.positions += other.positions;
        self.candidates += other.candidates;
        self.no_mistake += other.no_mistake;
        self.not_winning += other.not_winning;
        self.ambiguous += other.ambiguous;
        self.unrealised += other.unrealised;
        self.mined += other.mined;
        self.refuted += other.refuted;
        self.puzzles += other.puzzles;
        self.screen_nodes += other.screen_nodes;
        self.mine_nodes += other.mine_nodes;
    }

    fn count(&mut self, failure: Failure) {
        match failure {
            Failure::NoMistake => self.no_mistake += 1,
            Failure::NotWinning => self.not_winning += 1,
            Failure::Ambiguous | Failure::Forced => self.ambiguous += 1,
            Failure::Refuted => self.refuted += 1,
            Failure::Unrealised | Failure::OtherMove | Failure::IllegalMove => self.unrealised += 1,
        }
    }
}

/// The puzzles of one game.
#[derive(Clone, Debug, Default)]
pub struct MinedGame {
    /// The puzzles, in the order of the game.
    pub found: Vec<Found>,
    /// The candidates the screen passed that are not puzzles: position index and why.
    pub rejected: Vec<(usize, Failure)>,
    /// The stages' counts.
    pub stats: Stats,
}

/// A score as hundredths of a man, proven results far out, for comparing swings.
fn centi_men(score: Score) -> i32 {
    match score.as_centi_men() {
        Some(c) => c,
        None if score.win_distance().is_some() => 10_000,
        None => -10_000,
    }
}

/// The reference of the gain at position `i`: the solver's balance in the last position, at
/// or before `i`, where the side to move had nothing to capture; and never less than the
/// balance at `i` itself (so the gain also holds from the puzzle's own diagram, as its PDN
/// record is verified).
fn reference(game: &ReplayedGame, i: usize) -> i32 {
    let solver = game.positions[i].turn();
    let quiet = (0..=i)
        .rev()
        .find(|&j| !game.positions[j].has_capture(game.variant))
        .unwrap_or(0);
    solve::balance(&game.positions[quiet], solver).max(solve::balance(&game.positions[i], solver))
}

/// One game of an archive mined, its puzzles with where they were found: what a worker of
/// `drafti puzzles` hands on ([`mine`]).
pub struct Mined {
    /// The game replayed without an error.
    pub valid: bool,
    /// The puzzles found, each with where it was found.
    pub found: Vec<(Puzzle, Source)>,
    /// What the mining counted.
    pub stats: Stats,
}

/// Mines the game of `job` for puzzles as `options` says (nothing for an unreadable game).
pub fn mine(job: &GameJob<'_>, options: &PuzzleOptions) -> Mined {
    let Ok(game) = &job.game else {
        return Mined {
            valid: false,
            found: Vec::new(),
            stats: Stats::default(),
        };
    };
    let mined = mine_game(game, options);
    Mined {
        valid: game.is_valid(),
        found: mined
            .found
            .into_iter()
            .map(|f| (f.puzzle, Source::of(job.file, job.raw.index, game, f.ply)))
            .collect(),
        stats: mined.stats,
    }
}

/// Mines one game on the calling thread (its engine is the thread's). The game's replayed
/// positions are mined, also those before an error that stopped the replay.
pub fn mine_game(game: &ReplayedGame, options: &PuzzleOptions) -> MinedGame {
    let tables = options.tables_for(game.variant);
    if options.stop.is_raised() {
        return MinedGame::default();
    }
    let mut mined = with_tables(game.variant, options.tt_mb, tables, |engine| {
        engine.set_stop_flag(options.stop.clone());
        let mined = mine_with(engine, game, options);
        // The engine is the thread's: later work has a flag of its own.
        engine.set_stop_flag(StopFlag::new());
        mined
    });
    // Each puzzle verified again under the other reading of its rules, at the verification
    // budget, on that reading's engine (after this game's: one engine at a time).
    let nodes = options.nodes.saturating_mul(options.verify_factor.max(1));
    for found in &mut mined.found {
        if let Some((check, searched)) = readings::check(&found.puzzle, nodes, options) {
            mined.stats.mine_nodes += searched;
            found.puzzle.other_reading = Some(check);
        }
    }
    mined
}

fn mine_with(engine: &mut Engine, game: &ReplayedGame, options: &PuzzleOptions) -> MinedGame {
    let mut mined = MinedGame::default();
    let positions = &game.positions;
    let variant = game.variant;
    let screen = Limits {
        multipv: 1,
        ..options.screen.clone()
    };
    let mut scores: Vec<Option<Score>> = Vec::with_capacity(positions.len());
    for pos in positions {
        let playable = pos.has_legal_move(variant) && !solve::king_ending(pos);
        scores.push(playable.then(|| {
            let r = engine.search(pos, &screen, &[], |_| {});
            mined.stats.screen_nodes += r.nodes;
            r.score
        }));
    }
    mined.stats.positions = positions.len() as u64;
    let set_up = game.record.tag("FEN").is_some();
    for (i, pos) in positions.iter().enumerate() {
        let Some(score) = scores[i] else { continue };
        let now = centi_men(score);
        let before = match i {
            0 if set_up => None,
            0 => continue,
            _ => Some(scores[i - 1].map_or(0, |s| -centi_men(s))),
        };
        let passes = now >= SCREEN_WINNING
            && before.is_none_or(|b| b < solve::WINNING && now - b >= SCREEN_SWING)
            && pos.count_moves(variant) > 1;
        if !passes {
            continue;
        }
        mined.stats.candidates += 1;
        match mine_position(engine, game, i, options, &mut mined.stats) {
            Ok(puzzle) => {
                mined.stats.puzzles += 1;
                mined.found.push(Found { ply: i, puzzle });
            }
            Err(failure) => {
                mined.stats.count(failure);
                mined.rejected.push((i, failure));
            }
        }
    }
    mined
}

/// The deeper work on one candidate: the mistake, the solution, the verification.
fn mine_position(
    engine: &mut Engine,
    game: &ReplayedGame,
    i: usize,
    options: &PuzzleOptions,
    stats: &mut Stats,
) -> Result<Puzzle, Failure> {
    let pos = &game.positions[i];
    let prev = if i > 0 {
        let r = engine.search(
            &game.positions[i - 1],
            &solve::limits(options.nodes, 1),
            &[],
            |_| {},
        );
        stats.mine_nodes += r.nodes;
        Some(-r.score)
    } else {
        None
    };
    if prev.is_some_and(solve::winning) {
        return Err(Failure::NoMistake);
    }
    let reference = reference(game, i);
    let line = solve::solve(engine, pos, reference, options.nodes, options.max_plies);
    let line = match line {
        Ok(line) => {
            stats.mine_nodes += line.nodes;
            line
        }
        Err(f) => return Err(f),
    };
    if let Some(prev) = prev {
        if centi_men(line.first.score) - centi_men(prev) < SWING {
            return Err(Failure::NoMistake);
        }
    }
    stats.mined += 1;
    let verified = if options.verify_factor > 0 {
        let nodes = options.nodes.saturating_mul(options.verify_factor);
        match verify::verify(
            engine,
            pos,
            &line.moves,
            reference,
            nodes,
            options.max_plies,
        ) {
            Ok(v) => {
                stats.mine_nodes += v.nodes;
                v
            }
            Err(_) => return Err(Failure::Refuted),
        }
    } else {
        verify::Verified {
            first: line.first,
            continuation: line.continuation,
            end: line.end,
            nodes: 0,
        }
    };
    Ok(build(game.variant, pos, line.moves, &verified, reference))
}

/// The puzzle of a verified line.
fn build(
    variant: Variant,
    start: &Position,
    solution: Vec<Move>,
    verified: &verify::Verified,
    reference: i32,
) -> Puzzle {
    let (after, _) = solve::played(start, &solution);
    let (end, _) = solve::played(&after, &verified.continuation);
    let first = &verified.first;
    let kind = match verified.end {
        _ if first.exact => GainKind::Win,
        End::Material => GainKind::Material,
        End::Runaway => GainKind::Runaway,
        End::NoMoveLeft | End::ProvenWin => GainKind::Win,
    };
    Puzzle {
        variant,
        position: *start,
        // The solution's own themes: what the engine's continuation after it shows is not
        // the puzzle's (a line that captures nothing is no combination).
        themes: Themes::of(start, &solution),
        solution,
        continuation: verified.continuation.clone(),
        kind,
        gain: solve::balance(&end, start.turn()) - reference,
        proven_win: first.score.win_distance(),
        score: first.score,
        second: first.second,
        depth: first.depth_needed,
        difficulty: themes::difficulty(first.depth_needed),
        exact: first.exact,
        reference,
        other_reading: None,
    }
}

/// Checks a puzzle given as a position and a solution (e.g. a record of `drafti puzzles
/// --pdn`) at `nodes` nodes per solver move: the reference is the position's own balance.
/// With `tables` (the variant's), the positions they hold are judged by them.
pub fn verify_puzzle(
    variant: Variant,
    start: &Position,
    solution: &[Move],
    nodes: u64,
    max_plies: usize,
    tt_mb: usize,
    tables: Option<Arc<Tables>>,
) -> Result<Puzzle, verify::Refuted> {
    with_tables(variant, tt_mb, tables, |engine| {
        let reference = solve::balance(start, start.turn());
        let verified = verify::verify(engine, start, solution, reference, nodes, max_plies)?;
        Ok(build(
            variant,
            start,
            solution.to_vec(),
            &verified,
            reference,
        ))
    })
}

/// A record of `drafti puzzles --pdn` checked again as a puzzle ([`check_record`]).
pub struct Checked {
    /// The file of the record.
    pub file: String,
    /// The record's 1-based number in its file.
    pub game: usize,
    /// The record's start position, when it could be read.
    pub fen: Option<String>,
    /// The puzzle as verified, or why the record is not one.
    pub outcome: Result<Puzzle, String>,
}

/// A record (a FEN tag and the solution as its moves) checked as a puzzle at `nodes` per
/// solver move, with `options`' limits and tables.
pub fn check_record(job: &GameJob<'_>, nodes: u64, options: &PuzzleOptions) -> Checked {
    let mut checked = Checked {
        file: job.file.to_string(),
        game: job.raw.index + 1,
        fen: None,
        outcome: Err(String::new()),
    };
    let game = match &job.game {
        Ok(g) => g,
        Err(e) => {
            checked.outcome = Err(format!("unreadable: {}", e.message));
            return checked;
        }
    };
    checked.fen = Some(game.start.to_fen());
    checked.outcome = if !game.is_valid() {
        Err("invalid record (run drafti validate)".to_string())
    } else if game.record.tag("FEN").is_none() {
        Err("no FEN tag: not a puzzle record".to_string())
    } else if game.moves.is_empty() {
        Err("no solution moves".to_string())
    } else {
        verify_puzzle(
            game.variant,
            &game.start,
            &game.moves,
            nodes,
            options.max_plies,
            options.tt_mb,
            options.tables_for(game.variant),
        )
        .map_err(|r| {
            let at = r.at.min(game.moves.len());
            if at < game.moves.len() {
                format!("refuted at ply {} of the solution: {}", at + 1, r.failure)
            } else {
                format!("refuted: {}", r.failure)
            }
        })
    };
    checked
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_archive::replay::{replay, ReplayOptions};

    fn game(text: &str) -> ReplayedGame {
        let record = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
        let game = replay(record, &ReplayOptions::default());
        assert!(game.is_valid(), "{:?}", game.problems);
        game
    }

    fn texts(start: &Position, moves: &[Move]) -> Vec<String> {
        let mut pos = *start;
        moves
            .iter()
            .map(|mv| {
                let text = mv.full_notation(false);
                pos = pos.play(mv);
                text
            })
            .collect()
    }

    /// Black's f6-e5?? lets White give c3 (e5xc3) and take three with d2, crowning on f8.
    const SHOT: &str = r#"[FEN "B:Wc3,d2,e1,e3:Bc5,f6,e7,g7,h6"] 1... f6-e5 *"#;

    #[test]
    fn a_known_shot_after_a_mistake_is_found_with_its_whole_solution() {
        let g = game(SHOT);
        let mined = mine_game(&g, &PuzzleOptions::default());
        let found: Vec<&Found> = mined.found.iter().filter(|f| f.ply == 1).collect();
        assert_eq!(found.len(), 1, "{:?}", mined.rejected);
        let p = &found[0].puzzle;
        assert_eq!(p.position, g.positions[1]);
        assert_eq!(
            texts(&p.position, &p.solution),
            ["c3-d4", "e5xc3", "d2xb4xd6xf8"]
        );
        assert!(p.continuation.is_empty());
        assert_eq!(p.kind, GainKind::Material);
        // Three men taken, one given, a man crowned: 3 − 1 + 2.
        assert_eq!(p.gain, 400);
        assert_eq!(p.themes.names(), ["sacrifice", "shot_3", "crowning"]);
        assert!(solve::winning(p.score));
        assert!(p.second.is_some_and(|s| solve::clearly_worse(p.score, s)));
        assert_eq!(p.solver_moves(), 2);
        assert!((1..=5).contains(&p.difficulty));
        assert_eq!(mined.stats.puzzles, mined.found.len() as u64);
    }

    #[test]
    fn a_position_with_two_winning_moves_is_rejected() {
        // a3xc5 and e3xg5 both win a man.
        let g = game(r#"[FEN "W:Wa3,e3,c1,g1:Bb4,f4,b8,h8"] 1. a3xc5 *"#);
        let mined = mine_game(&g, &PuzzleOptions::default());
        assert!(mined.found.is_empty());
        assert!(
            mined.rejected.contains(&(0, Failure::Ambiguous)),
            "{:?}",
            mined.rejected
        );
    }

    #[test]
    fn the_same_shot_after_a_forced_move_is_no_puzzle() {
        // Black's only move g7xe5 walks into the shot: Black was lost before it, so it is no
        // mistake and the position after it is not a puzzle…
        let g = game(r#"[FEN "B:Wc3,d2,e1,e3,f6:Bc5,e7,g7,g5,a7"] 1... g7xe5 *"#);
        assert_eq!(g.positions[0].legal_moves(g.variant).len(), 1);
        let mined = mine_game(&g, &PuzzleOptions::default());
        assert!(mined.found.iter().all(|f| f.ply != 1), "{:?}", mined.found);
        // …though the position itself, set up on its own, is one.
        let fen = g.positions[1].to_fen();
        let alone = game(&format!("[FEN \"{fen}\"] *"));
        let mined = mine_game(&alone, &PuzzleOptions::default());
        assert_eq!(mined.found.len(), 1, "{:?}", mined.rejected);
    }

    #[test]
    fn a_forced_move_is_no_puzzle() {
        let g = game(r#"[FEN "W:Wc3:Bd4,h8"] *"#);
        let mined = mine_game(&g, &PuzzleOptions::default());
        assert!(mined.found.is_empty());
    }

    #[test]
    fn a_puzzle_verifies_from_its_position_and_a_wrong_solution_does_not() {
        let g = game(SHOT);
        let start = g.positions[1];
        let solution: Vec<Move> = ["c3-d4", "e5xc3", "d2xf8"]
            .iter()
            .scan(start, |pos, text| {
                let mv = pos.parse_move(g.variant, text).unwrap()[0];
                *pos = pos.play(&mv);
                Some(mv)
            })
            .collect();
        let p = verify_puzzle(g.variant, &start, &solution, 80_000, 24, 4, None).unwrap();
        assert_eq!(p.gain, 400);
        // Another first move.
        let other = start.parse_move(g.variant, "e3-f4").unwrap();
        let refuted = verify_puzzle(g.variant, &start, &other, 80_000, 24, 4, None).unwrap_err();
        assert_eq!(refuted.at, 0);
        // The solution cut short of the capture: the sacrifice alone realises nothing, but
        // the engine's continuation does.
        let p = verify_puzzle(g.variant, &start, &solution[..1], 80_000, 24, 4, None).unwrap();
        assert_eq!(
            texts(&solution_end(&start, &solution[..1]), &p.continuation).len(),
            2
        );
    }

    fn solution_end(start: &Position, moves: &[Move]) -> Position {
        solve::played(start, moves).0
    }

    /// Tanzanian endgame tables of a king and a man, and of two kings, against two men (and
    /// of all they lead to), built once for the tests.
    fn tables() -> Arc<Tables> {
        use drafti_engine::egtb::{build_signatures, Signature};
        static TABLES: std::sync::OnceLock<(tempfile::TempDir, Arc<Tables>)> =
            std::sync::OnceLock::new();
        let (_, tables) = TABLES.get_or_init(|| {
            let dir = tempfile::tempdir().unwrap();
            let targets = ["KMvMM", "KKvMM"].map(|n| Signature::from_name(n).unwrap());
            let tables = build_signatures(dir.path(), Variant::Tanzanian, &targets, &|_| {});
            (dir, Arc::new(tables.unwrap()))
        });
        tables.clone()
    }

    fn with_tables() -> PuzzleOptions {
        let mut options = PuzzleOptions::default();
        options.add_tables(tables()).unwrap();
        options
    }

    #[test]
    fn in_the_tables_the_only_table_win_is_the_puzzle_and_the_replies_defend_best() {
        // g1-d4 is the only move that wins (in 7 plies); every other draws. Black's best
        // defence is a3-b2 (lost in 6), not b4-c3 (lost in 4); then d4xa1 wins the man.
        let g = game(r#"[FEN "W:W9,K32:B17,21"] *"#);
        let t = tables();
        let ranked = t.rank_moves(&g.positions[0], None).unwrap();
        assert_eq!(
            ranked
                .iter()
                .filter(|(_, v)| v.distance().is_some_and(|d| d % 2 == 1))
                .count(),
            1
        );
        let mined = mine_game(&g, &with_tables());
        assert_eq!(mined.found.len(), 1, "{:?}", mined.rejected);
        let p = &mined.found[0].puzzle;
        assert!(p.exact);
        assert_eq!(p.kind, GainKind::Win);
        assert_eq!(p.proven_win, Some(7));
        assert_eq!(texts(&p.position, &p.solution), ["g1-d4", "a3-b2", "d4xa1"]);
        let after_first = p.position.play(&p.solution[0]);
        assert_eq!(
            t.rank_moves(&after_first, None).unwrap()[0].0,
            p.solution[1]
        );
        // The record verifies with the tables; with another first move it does not.
        let v = verify_puzzle(
            g.variant,
            &p.position,
            &p.solution,
            80_000,
            24,
            4,
            Some(t.clone()),
        );
        assert!(v.unwrap().exact);
        let other = p.position.parse_move(g.variant, "g1-c5").unwrap();
        let refuted = verify_puzzle(g.variant, &p.position, &other, 80_000, 24, 4, Some(t));
        assert_eq!(refuted.unwrap_err().failure, Failure::OtherMove);
    }

    #[test]
    fn in_the_tables_two_winning_moves_are_no_puzzle() {
        // b8-e5 and d8-f6 both win in 7.
        let g = game(r#"[FEN "W:WK1,K2:B17,21"] *"#);
        let mined = mine_game(&g, &with_tables());
        assert!(mined.found.is_empty(), "{:?}", mined.found);
        assert!(
            mined.rejected.contains(&(0, Failure::Ambiguous)),
            "{:?}",
            mined.rejected
        );
    }

    #[test]
    fn the_reference_is_the_last_quiet_position() {
        // White's c3-d4 offers an exchange; after e5xc3 b2xd4 (quiet again) nothing is won.
        let g = game(r#"[FEN "W:Wa1,b2,c3,h2:Be5,h8"] 1. c3-d4 e5xc3 2. b2xd4 *"#);
        let solver = g.positions[2].turn();
        assert_eq!(solver, drafti_rules::Color::White);
        // Position 2 (White to recapture) is not quiet: the reference is position 0's balance.
        assert_eq!(
            reference(&g, 2),
            solve::balance(&g.positions[0], drafti_rules::Color::White)
        );
    }
}
