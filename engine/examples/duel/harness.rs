//! An in-process match between two players: balanced openings played twice with colours
//! swapped, games adjudicated by the rules core (`Game`: no legal move, the draw laws with
//! law 2's count) and a ply cap, W/D/L with Elo and its 95% interval from the pentanomial
//! distribution of game pairs, and an optional SPRT stop. With node or depth budgets the
//! match is deterministic for any number of parallel games. With endgame tables a position
//! they hold ends the game with their exact result (table adjudication, as engine matches
//! do), so drawn endings the players cannot end do not run to the ply cap.
//!
//! Kept free of the engine's internals behind [`Player`], so a program outside the
//! repository can pit another engine (an older commit) against this one with the same code.

use drafti_engine::egtb::{Tables, Value};
use drafti_engine::{Config, Engine, Limits};
use drafti_rules::{Color, DrawLaws, Game, Move, MoveList, Outcome, Position, Variant};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

/// What a player may spend on a move.
#[derive(Clone, Copy, Debug)]
pub enum Budget {
    /// About this many nodes (deterministic).
    Nodes(u64),
    /// This depth (deterministic).
    Depth(u32),
    /// This much wall-clock time.
    Movetime(Duration),
}

impl Budget {
    /// Parses `nodes=N`, `depth=D` or `ms=T`.
    pub fn parse(text: &str) -> Option<Budget> {
        let (kind, value) = text.split_once('=')?;
        let n: u64 = value.parse().ok()?;
        match kind {
            "nodes" => Some(Budget::Nodes(n)),
            "depth" => Some(Budget::Depth(n as u32)),
            "ms" => Some(Budget::Movetime(Duration::from_millis(n))),
            _ => None,
        }
    }

    /// The engine limits of this budget.
    pub fn limits(&self) -> Limits {
        match *self {
            Budget::Nodes(n) => Limits::nodes(n),
            Budget::Depth(d) => Limits::depth(d),
            Budget::Movetime(t) => Limits::movetime(t),
        }
    }

    /// Whether games under this budget are reproducible.
    pub fn deterministic(&self) -> bool {
        !matches!(self, Budget::Movetime(_))
    }
}

/// A move chosen and what the search said.
pub struct Choice {
    /// The move.
    pub mv: Move,
    /// Depth reached.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// One side of a match.
pub trait Player {
    /// A new game starts (forget the last one).
    fn new_game(&mut self);
    /// The move to play in `game`'s position; `history` holds the keys of the positions
    /// before it. `None` only if there is no legal move.
    fn choose(&mut self, game: &Game, history: &[u64], budget: &Budget) -> Option<Choice>;
}

/// This repository's engine with a [`Config`], keeping its table within a game.
pub struct ThisEngine {
    engine: Engine,
}

impl ThisEngine {
    /// An engine for `variant` with `config` and `tt_mb` MiB of table.
    pub fn new(variant: Variant, tt_mb: usize, config: Config) -> ThisEngine {
        let mut engine =
            Engine::with_config(variant, tt_mb, DrawLaws::for_variant(variant), config);
        engine.set_keep_table(true);
        ThisEngine { engine }
    }

    /// The same engine evaluating with `weights` (a trainer's fit) instead of the shipped ones.
    pub fn with_weights(mut self, weights: Option<&drafti_engine::Weights>) -> ThisEngine {
        if let Some(w) = weights {
            self.engine.set_weights(w);
        }
        self
    }

    /// The same engine probing `tables` in its search.
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>) -> ThisEngine {
        self.engine
            .set_tables(tables)
            .expect("tables for the match's variant");
        self
    }
}

impl Player for ThisEngine {
    fn new_game(&mut self) {
        self.engine.clear();
    }

    fn choose(&mut self, game: &Game, history: &[u64], budget: &Budget) -> Option<Choice> {
        let mut limits = budget.limits();
        limits.king_count = game.king_count();
        let result = self
            .engine
            .search(game.position(), &limits, history, |_| {});
        result.best.map(|mv| Choice {
            mv,
            depth: result.depth,
            nodes: result.nodes,
        })
    }
}

/// The openings: every distinct position `plies` plies from the start (White first) with
/// equal material and no capture pending, in a fixed pseudo-random order (the same for
/// every match, whatever the engines).
pub fn openings(variant: Variant, plies: usize) -> Vec<Vec<Move>> {
    fn walk(
        pos: &Position,
        variant: Variant,
        left: usize,
        line: &mut Vec<Move>,
        seen: &mut std::collections::HashSet<u64>,
        out: &mut Vec<(u64, Vec<Move>)>,
    ) {
        if left == 0 {
            let even = pos.pieces(Color::White).count() == pos.pieces(Color::Black).count();
            if even && !pos.has_capture(variant) && seen.insert(pos.hash_key()) {
                out.push((pos.hash_key(), line.clone()));
            }
            return;
        }
        let mut list = MoveList::new();
        pos.generate_moves(variant, &mut list);
        for mv in list.as_slice() {
            line.push(*mv);
            walk(&pos.play(mv), variant, left - 1, line, seen, out);
            line.pop();
        }
    }
    let mut out = Vec::new();
    let mut seen = std::collections::HashSet::new();
    walk(
        &Position::start(Color::White),
        variant,
        plies,
        &mut Vec::new(),
        &mut seen,
        &mut out,
    );
    // A fixed shuffle: order by a mix of the position key.
    out.sort_by_key(|(key, _)| key.wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17));
    out.into_iter().map(|(_, line)| line).collect()
}

/// How a game ended, from player A's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameEnd {
    /// A won (B had no legal move).
    Win,
    /// B won.
    Loss,
    /// A draw law.
    LawDraw,
    /// The endgame tables' result: A wins.
    TableWin,
    /// The endgame tables' result: B wins.
    TableLoss,
    /// The endgame tables' result: a draw.
    TableDraw,
    /// The ply cap (scored as a draw).
    Capped,
}

impl GameEnd {
    /// A's points.
    pub fn points(self) -> f64 {
        match self {
            GameEnd::Win | GameEnd::TableWin => 1.0,
            GameEnd::Loss | GameEnd::TableLoss => 0.0,
            _ => 0.5,
        }
    }

    /// Whether the endgame tables ended the game.
    pub fn by_tables(self) -> bool {
        matches!(
            self,
            GameEnd::TableWin | GameEnd::TableLoss | GameEnd::TableDraw
        )
    }
}

/// One game's record.
pub struct GameRecord {
    /// Game number (2 per opening: A White, then A Black).
    pub number: usize,
    /// Whether A had White.
    pub a_white: bool,
    /// The moves from the start (the opening included).
    pub moves: Vec<Move>,
    /// The end.
    pub end: GameEnd,
    /// At ply 200 (if the game got there): the position.
    pub at_200: Option<Position>,
    /// Sum of depths and number of moves of A and B.
    pub depth_sum: [u64; 2],
    /// Moves searched by A and B.
    pub searches: [u64; 2],
    /// Nodes searched by A and B.
    pub nodes: [u64; 2],
}

/// Pieces of White minus pieces of Black (men and kings alike).
pub fn piece_difference(pos: &Position) -> i32 {
    pos.pieces(Color::White).count() as i32 - pos.pieces(Color::Black).count() as i32
}

/// Material as `3K1M-2K` (White first).
pub fn material(pos: &Position) -> String {
    let side = |c: Color| {
        let (k, m) = (pos.kings(c).count(), pos.men(c).count());
        let mut s = String::new();
        if k > 0 {
            s += &format!("{k}K");
        }
        if m > 0 {
            s += &format!("{m}M");
        }
        s
    };
    format!("{}-{}", side(Color::White), side(Color::Black))
}

/// Plays one game from `start` after `opening`: A has White when `a_white`; a position
/// `tables` hold ends the game with their result.
#[allow(clippy::too_many_arguments)]
pub fn play_from(
    a: &mut dyn Player,
    b: &mut dyn Player,
    variant: Variant,
    start: &Position,
    opening: &[Move],
    a_white: bool,
    budget: &Budget,
    max_plies: usize,
    tables: Option<&Tables>,
    number: usize,
) -> GameRecord {
    a.new_game();
    b.new_game();
    let mut game = Game::new(*start, variant);
    let mut history = Vec::new();
    let mut moves = Vec::new();
    let mut record = GameRecord {
        number,
        a_white,
        moves: Vec::new(),
        end: GameEnd::Capped,
        at_200: None,
        depth_sum: [0; 2],
        searches: [0; 2],
        nodes: [0; 2],
    };
    for mv in opening {
        history.push(game.position().hash_key());
        game.play(mv);
        moves.push(*mv);
    }
    let mut by_tables = None;
    while game.outcome().is_none() && moves.len() < max_plies {
        if let Some(value) = tables.and_then(|t| t.probe(game.position(), game.king_count())) {
            by_tables = Some(value);
            break;
        }
        if moves.len() == 200 {
            record.at_200 = Some(*game.position());
        }
        let white_to_move = game.position().turn() == Color::White;
        let a_to_move = white_to_move == a_white;
        let player: &mut dyn Player = if a_to_move { &mut *a } else { &mut *b };
        let Some(choice) = player.choose(&game, &history, budget) else {
            break;
        };
        let who = usize::from(!a_to_move);
        record.depth_sum[who] += u64::from(choice.depth);
        record.searches[who] += 1;
        record.nodes[who] += choice.nodes;
        assert!(
            game.position().legal_moves(variant).contains(&choice.mv),
            "an illegal move"
        );
        history.push(game.position().hash_key());
        game.play(&choice.mv);
        moves.push(choice.mv);
    }
    // The tables' value is the side to move's: A's when A is to move.
    let a_to_move = (game.position().turn() == Color::White) == a_white;
    record.end = match (by_tables, game.outcome()) {
        (Some(Value::Draw), _) => GameEnd::TableDraw,
        (Some(Value::Win(_)), _) if a_to_move => GameEnd::TableWin,
        (Some(Value::Loss(_)), _) if !a_to_move => GameEnd::TableWin,
        (Some(_), _) => GameEnd::TableLoss,
        (None, Some(Outcome::Win(c))) if (c == Color::White) == a_white => GameEnd::Win,
        (None, Some(Outcome::Win(_))) => GameEnd::Loss,
        (None, Some(Outcome::Draw(_))) => GameEnd::LawDraw,
        (None, None) => GameEnd::Capped,
    };
    record.moves = moves;
    record
}

/// Elo of an expected score.
pub fn elo(score: f64) -> f64 {
    let s = score.clamp(1e-6, 1.0 - 1e-6);
    -400.0 * (1.0 / s - 1.0).log10()
}

/// The result of a match so far, from A's side.
#[derive(Default, Clone)]
pub struct Tally {
    /// Wins, draws, losses.
    pub wdl: [u64; 3],
    /// Pairs scoring 0, ½, 1, 1½, 2.
    pub pentanomial: [u64; 5],
    /// Games that reached ply 200.
    pub reached_200: u64,
    /// Of them, with one side a piece or more up there.
    pub up_at_200: u64,
    /// Of those, with A the side ahead (the others have B ahead).
    pub a_up_at_200: u64,
    /// Games ended by the cap.
    pub capped: u64,
    /// Games ended by the endgame tables.
    pub by_tables: u64,
    /// Sum of plies.
    pub plies: u64,
    /// Depth sums and searches of A and B.
    pub depth_sum: [u64; 2],
    /// Searches by A and B.
    pub searches: [u64; 2],
    /// Nodes by A and B.
    pub nodes: [u64; 2],
}

impl Tally {
    /// Adds a pair of games (same opening, colours swapped).
    pub fn add_pair(&mut self, games: &[GameRecord; 2]) {
        let mut points = 0.0;
        for g in games {
            let i = match g.end {
                GameEnd::Win | GameEnd::TableWin => 0,
                GameEnd::Loss | GameEnd::TableLoss => 2,
                _ => 1,
            };
            if g.end.by_tables() {
                self.by_tables += 1;
            }
            self.wdl[i] += 1;
            points += g.end.points();
            if let Some(pos) = &g.at_200 {
                self.reached_200 += 1;
                let white_ahead = piece_difference(pos);
                if white_ahead != 0 {
                    self.up_at_200 += 1;
                    if (white_ahead > 0) == g.a_white {
                        self.a_up_at_200 += 1;
                    }
                }
            }
            if g.end == GameEnd::Capped {
                self.capped += 1;
            }
            self.plies += g.moves.len() as u64;
            for k in 0..2 {
                self.depth_sum[k] += g.depth_sum[k];
                self.searches[k] += g.searches[k];
                self.nodes[k] += g.nodes[k];
            }
        }
        self.pentanomial[(points * 2.0).round() as usize] += 1;
    }

    /// Games played.
    pub fn games(&self) -> u64 {
        self.wdl.iter().sum()
    }

    fn pairs(&self) -> f64 {
        self.pentanomial.iter().sum::<u64>() as f64
    }

    /// Mean score and the standard error of the mean (from the pairs).
    pub fn score_and_error(&self) -> (f64, f64) {
        let n = self.pairs();
        if n == 0.0 {
            return (0.5, 0.0);
        }
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let mean: f64 = (0..5)
            .map(|i| values[i] * self.pentanomial[i] as f64)
            .sum::<f64>()
            / n;
        let var: f64 = (0..5)
            .map(|i| (values[i] - mean).powi(2) * self.pentanomial[i] as f64)
            .sum::<f64>()
            / n;
        (mean, (var / n).sqrt())
    }

    /// Elo and its 95% interval.
    pub fn elo_interval(&self) -> (f64, f64, f64) {
        let (s, se) = self.score_and_error();
        (elo(s), elo(s - 1.96 * se), elo(s + 1.96 * se))
    }

    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0), normal approximation on the
    /// pentanomial pair scores (as fishtest does).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.pairs();
        if n < 2.0 {
            return 0.0;
        }
        let (mean, se) = self.score_and_error();
        let var = se * se * n;
        if var <= 0.0 {
            return 0.0;
        }
        let s0 = 1.0 / (1.0 + 10f64.powf(-elo0 / 400.0));
        let s1 = 1.0 / (1.0 + 10f64.powf(-elo1 / 400.0));
        (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var / n)
    }

    /// The summary line.
    pub fn summary(&self) -> String {
        let (s, _) = self.score_and_error();
        let (e, lo, hi) = self.elo_interval();
        let per = |k: usize| {
            if self.searches[k] == 0 {
                (0.0, 0.0)
            } else {
                (
                    self.depth_sum[k] as f64 / self.searches[k] as f64,
                    self.nodes[k] as f64 / self.searches[k] as f64,
                )
            }
        };
        let ((da, na), (db, nb)) = (per(0), per(1));
        format!(
            "games {} W/D/L {}/{}/{} score {:.1}% Elo {:+.1} [{:+.1}, {:+.1}] pairs {:?} | ply200 {} (piece up {}: A {} B {}) capped {} tables {} avg plies {:.0} | depth A {:.1} B {:.1} nodes/move A {:.0} B {:.0}",
            self.games(),
            self.wdl[0],
            self.wdl[1],
            self.wdl[2],
            100.0 * s,
            e,
            lo,
            hi,
            self.pentanomial,
            self.reached_200,
            self.up_at_200,
            self.a_up_at_200,
            self.up_at_200 - self.a_up_at_200,
            self.capped,
            self.by_tables,
            self.plies as f64 / self.games().max(1) as f64,
            da,
            db,
            na,
            nb
        )
    }
}

/// How a match is played.
pub struct MatchOptions {
    /// The rules.
    pub variant: Variant,
    /// Openings (each played twice).
    pub openings: Vec<Vec<Move>>,
    /// Budget per move.
    pub budget: Budget,
    /// Games in parallel.
    pub jobs: usize,
    /// Ply cap (a draw).
    pub max_plies: usize,
    /// Stop early on these SPRT bounds (elo0, elo1), α = β = 0.05.
    pub sprt: Option<(f64, f64)>,
    /// Print a line every this many pairs (0: never).
    pub progress_every: usize,
    /// Endgame tables that adjudicate the positions they hold.
    pub tables: Option<Arc<Tables>>,
}

/// Plays the match; `make_a` and `make_b` build a player for each worker. Returns the tally
/// and the games in order.
pub fn play_match(
    options: &MatchOptions,
    make_a: &(dyn Fn() -> Box<dyn Player> + Sync),
    make_b: &(dyn Fn() -> Box<dyn Player> + Sync),
) -> (Tally, Vec<GameRecord>) {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(usize, [GameRecord; 2])>();
    let pairs = options.openings.len();
    let started = Instant::now();
    let bound = (0.95f64 / 0.05).ln();
    let mut tally = Tally::default();
    let mut games = Vec::new();
    std::thread::scope(|scope| {
        for _ in 0..options.jobs.max(1) {
            let tx = tx.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut a = make_a();
                let mut b = make_b();
                loop {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= pairs {
                        break;
                    }
                    let opening = &options.openings[i];
                    let g = |a_white: bool, a: &mut Box<dyn Player>, b: &mut Box<dyn Player>| {
                        play_from(
                            a.as_mut(),
                            b.as_mut(),
                            options.variant,
                            &Position::start(Color::White),
                            opening,
                            a_white,
                            &options.budget,
                            options.max_plies,
                            options.tables.as_deref(),
                            2 * i + usize::from(!a_white),
                        )
                    };
                    let first = g(true, &mut a, &mut b);
                    let second = g(false, &mut a, &mut b);
                    if tx.send((i, [first, second])).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Results in opening order, so an SPRT stop is the same for any number of jobs.
        let mut pending: std::collections::BTreeMap<usize, [GameRecord; 2]> = Default::default();
        let mut done = 0;
        for (i, pair) in rx {
            pending.insert(i, pair);
            while let Some(pair) = pending.remove(&done) {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                tally.add_pair(&pair);
                games.extend(pair);
                done += 1;
                if options.progress_every > 0 && done % options.progress_every == 0 {
                    eprintln!(
                        "[{:.0} s] {}",
                        started.elapsed().as_secs_f64(),
                        tally.summary()
                    );
                }
                if let Some((e0, e1)) = options.sprt {
                    let llr = tally.llr(e0, e1);
                    if llr >= bound || llr <= -bound {
                        eprintln!(
                            "SPRT [{e0}, {e1}] stops at LLR {llr:.2}: {}",
                            if llr > 0.0 { "H1 (A better)" } else { "H0" }
                        );
                        stop.store(true, Ordering::Relaxed);
                    }
                }
            }
        }
    });
    (tally, games)
}

/// The games as PDN (Tanzanian, from the standard start).
pub fn write_pdn(games: &[GameRecord], variant: Variant, a: &str, b: &str) -> String {
    let mut out = String::new();
    for g in games {
        let (white, black) = if g.a_white { (a, b) } else { (b, a) };
        let white_points = if g.a_white {
            g.end.points()
        } else {
            1.0 - g.end.points()
        };
        let result = match white_points {
            p if p > 0.75 => "1-0",
            p if p < 0.25 => "0-1",
            _ => "1/2-1/2",
        };
        out += &format!(
            "[Event \"duel\"]\n[Round \"{}\"]\n[White \"{white}\"]\n[Black \"{black}\"]\n[Result \"{result}\"]\n[Termination \"{:?}\"]\n",
            g.number + 1,
            g.end
        );
        let mut pos = Position::start(Color::White);
        let mut text = String::new();
        for (i, mv) in g.moves.iter().enumerate() {
            if i % 2 == 0 {
                text += &format!("{}. ", i / 2 + 1);
            }
            let legal = pos.legal_moves(variant);
            text += &mv.notation(&legal, false);
            text.push(' ');
            pos = pos.play(mv);
        }
        out += &text;
        out += result;
        out += "\n\n";
    }
    out
}
