//! Analysis of whole games: every position searched, every move judged.
//!
//! ```text
//! ReplayedGame ──one search per position (positions 0..=n, rayon)──▶ best move, score, line
//!   move i: best = search(i); played ≈ −search(i+1)            (the "after" of i is free)
//!   if that flags the move: re-search the played move alone from i at the depth search(i)
//!   completed (search_moves), so best and played are scored alike ──▶ judge ──▶ GameAnalysis
//! ```
//! Work is spread over rayon's **current** pool as (game, position) tasks — call
//! [`analyse_games`] inside `pool.install` to choose the threads. Each task uses its
//! thread's engine; a search limited by depth or nodes does not depend on what the engine
//! searched before, so the result is the same whatever the threads and their scheduling.
//!
//! Repetitions and the count of draw law 2 are known to every search: it gets the hash keys
//! of the game's earlier positions and the running count.
//!
//! ```
//! use drafti_analysis::{analyse_game, AnalysisOptions};
//! use drafti_engine::Limits;
//! use drafti_archive::replay::{replay, ReplayOptions};
//! let record = drafti_pdn::parse_games(b"1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 *").remove(0).unwrap();
//! let game = replay(record, &ReplayOptions::default());
//! let options = AnalysisOptions { limits: Limits::depth(4), ..AnalysisOptions::default() };
//! let analysis = analyse_game(&game, &options);
//! assert_eq!(analysis.moves.len(), 5);
//! assert_eq!(analysis.positions, 6);
//! ```

use crate::judge::{
    self, game_accuracy, win_percent, Judgement, ProvenReason, SideSummary, Verdict,
};
use drafti_archive::replay::ReplayedGame;
use drafti_engine::egtb::{Tables, Value};
use drafti_engine::{Config, Engine, Limits, Score, SearchResult};
use drafti_pdn::{Comment, GameRecord, Nag};
use drafti_rules::{Color, Game, Move, Position, Variant};
use rayon::prelude::*;
use std::sync::Arc;

/// The pass: every position searched about this many nodes (the deepest completed
/// iteration, 8-9 plies in a middle game). A pass at depth 6 let 15% of the moves both deep
/// references drop by 0.45 or more go unflagged, because the shots it cannot see are never
/// re-searched (`docs/engine.md`, "Quality on master games").
pub const DEFAULT_PASS_NODES: u64 = 20_000;

/// The depth of `drafti selfplay`'s moves unless told (and of analyze's pass before it
/// searched by nodes: `--depth 6`).
pub const DEFAULT_DEPTH: u32 = 6;

/// The re-search of a nominated move: this many plies.
pub const DEFAULT_VERIFY_DEPTH: u32 = 10;

/// The node bound of a re-search (king endings, where a depth costs far more).
pub const DEFAULT_VERIFY_NODES: u64 = 1_000_000;

/// The confirmation of a re-searched move whose verdict is near the blunder threshold (see
/// [`DEFAULT_CONFIRM_BAND`]): this many plies.
pub const DEFAULT_CONFIRM_DEPTH: u32 = 16;

/// The node bound of a confirmation: most confirmations of middle-game positions complete
/// their depth well within it; the king endings that would not are left at the depth reached
/// (bounding them costs less precision than the time they take; `docs/engine.md`).
pub const DEFAULT_CONFIRM_NODES: u64 = 500_000;

/// A re-search's drop of winning chances in this range (around the blunder's 0.3, and up to
/// the drops of 0.5-0.7 that the fitted evaluation overstates at depth 10) sends the move to
/// the confirmation, as does a proven result; outside it the re-search's verdict stands
/// (`docs/engine.md`, "Quality on master games", has the measurements).
pub const DEFAULT_CONFIRM_BAND: (f64, f64) = (0.2, 0.7);

/// A move whose drop of winning chances in the pass reaches this is re-searched (a little
/// under the inaccuracy's 0.075, so a verdict near a threshold is checked).
pub const DEFAULT_NOMINATE_DROP: f64 = 0.05;

/// A re-searched move is a blunder only when its last search called it one at this many of
/// its deepest completed depths (from there on); one that became a blunder later is reported
/// as a mistake, [`MoveAnalysis::unsettled`]. On the master games a blunder that held at 4
/// depths or more is the deep reference's far more often than one that did not
/// (`docs/lab/verdict-quality-one-reference.md`, "Blunders that settle").
pub const DEFAULT_BLUNDER_DEPTHS: u32 = 4;

/// The table of each task's engine, MiB.
pub const DEFAULT_TT_MB: usize = 16;

/// A game longer than this many positions is cut into parts analysed in parallel.
pub const SEGMENT_POSITIONS: usize = 120;

/// How games are analysed.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// The pass: the search of every position (depth or nodes; never time, so results are
    /// reproducible).
    pub limits: Limits,
    /// The re-search of a nominated move (its position and the played move alone, to the
    /// same depth). `None`: the pass's verdicts are final.
    pub verify: Option<Limits>,
    /// The pass's drop of winning chances (0…2) from which a move is nominated.
    pub nominate_drop: f64,
    /// A second re-search, deeper, of a re-searched move whose verdict is near the blunder
    /// threshold (its drop within `confirm_band`) or rests on a proven result; its verdict
    /// replaces the first's. `None`: the first re-search's verdicts are final.
    pub confirm: Option<Limits>,
    /// The re-search's drops (from, below) that send a move to `confirm`.
    pub confirm_band: (f64, f64),
    /// A re-searched blunder must be the verdict of this many of its search's deepest
    /// completed depths, else it is reported as a mistake (1: every blunder stands).
    pub blunder_depths: u32,
    /// Transposition table of each task's engine, MiB.
    pub tt_mb: usize,
    /// Endgame tables: a position they hold is not searched but looked up, and the verdict on
    /// a move played there is exact; the searches probe them too.
    pub tables: EndgameTables,
    /// The engine's switches ([`drafti_engine::Config`]; the default is the engine as
    /// shipped): another setting is a candidate to measure (`drafti bench --quality
    /// --engine`), never the analysis's default.
    pub engine: Config,
}

/// The endgame tables of the analysis, at most one set per variant.
#[derive(Clone, Default)]
pub struct EndgameTables(Vec<Arc<Tables>>);

impl std::fmt::Debug for EndgameTables {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(
                self.0
                    .iter()
                    .map(|t| (t.variant(), t.max_pieces(), t.dir())),
            )
            .finish()
    }
}

impl EndgameTables {
    /// Adds the tables of one variant (replacing earlier ones of that variant). They must be
    /// built for the variant's own draw laws, the laws the analysis plays by.
    pub fn insert(&mut self, tables: Arc<Tables>) -> Result<(), drafti_engine::egtb::EgtbError> {
        let laws = drafti_rules::DrawLaws::for_variant(tables.variant());
        if tables.laws() != laws {
            return Err(drafti_engine::egtb::EgtbError::WrongRules {
                path: tables.dir().to_path_buf(),
                reason: format!(
                    "tables for laws {:?}; the analysis of {} plays by {laws:?}",
                    tables.laws(),
                    tables.variant()
                ),
            });
        }
        self.0.retain(|t| t.variant() != tables.variant());
        self.0.push(tables);
        Ok(())
    }

    /// The tables of `variant`, if any.
    pub fn get(&self, variant: Variant) -> Option<&Arc<Tables>> {
        self.0.iter().find(|t| t.variant() == variant)
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// `endgame tables: tz up to 5 pieces, russian up to 4 pieces`; `None` without tables.
    pub fn label(&self) -> Option<String> {
        self.sets().map(|sets| format!("endgame tables: {sets}"))
    }

    /// `tz up to 5 pieces, russian up to 4 pieces` (by variant name); `None` without tables.
    pub fn sets(&self) -> Option<String> {
        let mut sets: Vec<&Arc<Tables>> = self.0.iter().collect();
        sets.sort_by_key(|t| t.variant().name());
        (!sets.is_empty()).then(|| {
            let each: Vec<String> = sets
                .iter()
                .map(|t| format!("{} up to {} pieces", t.variant().name(), t.max_pieces()))
                .collect();
            each.join(", ")
        })
    }
}

impl Default for AnalysisOptions {
    fn default() -> Self {
        AnalysisOptions {
            limits: Limits {
                nodes: Some(DEFAULT_PASS_NODES),
                ..Limits::default()
            },
            verify: Some(Limits {
                depth: Some(DEFAULT_VERIFY_DEPTH),
                nodes: Some(DEFAULT_VERIFY_NODES),
                ..Limits::default()
            }),
            nominate_drop: DEFAULT_NOMINATE_DROP,
            confirm: Some(Limits {
                depth: Some(DEFAULT_CONFIRM_DEPTH),
                nodes: Some(DEFAULT_CONFIRM_NODES),
                ..Limits::default()
            }),
            confirm_band: DEFAULT_CONFIRM_BAND,
            blunder_depths: DEFAULT_BLUNDER_DEPTHS,
            tt_mb: DEFAULT_TT_MB,
            tables: EndgameTables::default(),
            engine: Config::default(),
        }
    }
}

/// Changes to an analysis's settings, as `drafti analyze`'s flags and the Python package's
/// keywords give them; each `None` (or `false`) keeps the base's value.
#[derive(Clone, Copy, Debug, Default)]
pub struct AnalysisOverrides {
    /// The pass's depth and nodes: either or both replace its limits (with both, whichever
    /// is reached first).
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    /// No re-search of nominated moves; else its depth and nodes.
    pub no_verify: bool,
    pub verify_depth: Option<u32>,
    pub verify_nodes: Option<u64>,
    /// No confirmation; else its depth and nodes (from the default confirmation when the base
    /// has none).
    pub no_confirm: bool,
    pub confirm_depth: Option<u32>,
    pub confirm_nodes: Option<u64>,
    pub confirm_band: Option<(f64, f64)>,
    pub nominate: Option<f64>,
    pub blunder_depths: Option<u32>,
}

impl AnalysisOverrides {
    /// `base` with these changes.
    ///
    /// ```
    /// use drafti_analysis::{AnalysisOptions, AnalysisOverrides};
    /// let options = AnalysisOverrides { depth: Some(3), no_verify: true, ..Default::default() }
    ///     .apply(AnalysisOptions::default());
    /// assert_eq!(options.limits.depth, Some(3));
    /// assert!(options.verify.is_none());
    /// assert_eq!(options.confirm, AnalysisOptions::default().confirm);
    /// ```
    pub fn apply(&self, base: AnalysisOptions) -> AnalysisOptions {
        let mut options = base;
        if self.depth.is_some() || self.nodes.is_some() {
            options.limits = Limits {
                depth: self.depth,
                nodes: self.nodes,
                ..Limits::default()
            };
        }
        if self.no_verify {
            options.verify = None;
        } else if let Some(verify) = options.verify.as_mut() {
            if let Some(d) = self.verify_depth {
                verify.depth = Some(d);
            }
            if let Some(n) = self.verify_nodes {
                verify.nodes = Some(n);
            }
        }
        if self.no_confirm {
            options.confirm = None;
        } else if self.confirm_depth.is_some() || self.confirm_nodes.is_some() {
            // Asked for: from the defaults' confirmation (the report has none by default).
            let confirm = options
                .confirm
                .get_or_insert_with(|| AnalysisOptions::default().confirm.unwrap_or_default());
            if let Some(d) = self.confirm_depth {
                confirm.depth = Some(d);
            }
            if let Some(n) = self.confirm_nodes {
                confirm.nodes = Some(n);
            }
        }
        if let Some(band) = self.confirm_band {
            options.confirm_band = band;
        }
        if let Some(drop) = self.nominate {
            options.nominate_drop = drop;
        }
        if let Some(n) = self.blunder_depths {
            options.blunder_depths = n;
        }
        options
    }
}

impl AnalysisOptions {
    /// The default options with the search of every position limited by `depth` and/or
    /// `nodes` (with both, whichever is reached first); neither: the default.
    pub fn from_limits(depth: Option<u32>, nodes: Option<u64>) -> AnalysisOptions {
        let limits = match (depth, nodes) {
            (None, None) => return AnalysisOptions::default(),
            (d, n) => Limits {
                depth: d,
                nodes: n,
                ..Limits::default()
            },
        };
        AnalysisOptions {
            limits,
            ..AnalysisOptions::default()
        }
    }

    /// What the settings are, for reports: `20000 nodes; moves with a pass drop of 0.05
    /// re-searched to depth 10 (at most 1000000 nodes)`, …
    pub fn label(&self) -> String {
        let pass = limits_label(&self.limits);
        let mut label = match &self.verify {
            None => format!("{pass}; not re-searched"),
            Some(v) => format!(
                "{pass}; moves with a pass drop of {} re-searched to {}",
                self.nominate_drop,
                limits_label(v)
            ),
        };
        if let (Some(_), Some(c)) = (&self.verify, &self.confirm) {
            label.push_str(&format!(
                ", verdicts with a drop of {}-{} or a proven result confirmed at {}",
                self.confirm_band.0,
                self.confirm_band.1,
                limits_label(c)
            ));
        }
        if self.verify.is_some() && self.blunder_depths > 1 {
            label.push_str(&format!(
                "; a blunder only when it held at the last {} depths",
                self.blunder_depths
            ));
        }
        if let Some(tables) = self.tables.label() {
            label.push_str("; ");
            label.push_str(&tables);
        }
        if self.engine != Config::default() {
            label.push_str(&format!("; engine settings {}", self.engine));
        }
        label
    }
}

/// `depth 6`, `1000 nodes`, `depth 12 (at most 1000000 nodes)`.
fn limits_label(limits: &Limits) -> String {
    match (limits.depth, limits.nodes) {
        (Some(d), None) => format!("depth {d}"),
        (None, Some(n)) => format!("{n} nodes"),
        (Some(d), Some(n)) => format!("depth {d} (at most {n} nodes)"),
        (None, None) => format!("depth {}", drafti_engine::DEFAULT_DEPTH),
    }
}

/// The search of one position.
#[derive(Clone, Debug)]
pub struct PositionEval {
    /// The best move (`None` when the game is over there).
    pub best: Option<Move>,
    /// The best score, from the side to move.
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Looked up in the endgame tables, not searched: the score is exact (a draw is
    /// [`Score::DRAW`]), `depth` and `nodes` are 0.
    pub exact: bool,
}

impl From<SearchResult> for PositionEval {
    fn from(r: SearchResult) -> PositionEval {
        PositionEval {
            best: r.best,
            score: r.score,
            pv: r.pv,
            depth: r.depth,
            nodes: r.nodes,
            exact: false,
        }
    }
}

/// The plies of a line read from the endgame tables (the line to the end can be long).
const TABLE_LINE_PLIES: usize = 24;

/// A position of a game looked up in the endgame tables: its exact evaluation and every
/// legal move's value, when the tables hold the position, every position after it and its
/// line (a missing table leaves the position to the search, never a result).
fn table_eval(
    tables: &Tables,
    pos: &Position,
    king_count: Option<u32>,
) -> Option<(PositionEval, Vec<(Move, Value)>)> {
    if pos.occupied().count() > tables.max_pieces() {
        return None;
    }
    let value = tables.probe(pos, king_count)?;
    let moves = tables.rank_moves(pos, king_count).ok()?;
    let eval = PositionEval {
        best: moves.first().map(|m| m.0),
        score: value.score(),
        pv: tables.line(pos, king_count, TABLE_LINE_PLIES).ok()?,
        depth: 0,
        nodes: 0,
        exact: true,
    };
    Some((eval, moves))
}

/// One judged move of the mainline.
#[derive(Clone, Debug)]
pub struct MoveAnalysis {
    /// 1-based ply (the first move of the game is ply 1).
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The best move of the position before it.
    pub best: Option<Move>,
    /// The best move's score, from the mover's side.
    pub best_score: Score,
    /// The best line, starting with the best move.
    pub pv: Vec<Move>,
    /// The played move's score, from the mover's side.
    pub played_score: Score,
    /// Whether the played move is the best move.
    pub played_is_best: bool,
    /// The verdict (judgement, winning chances, accuracy).
    pub verdict: Verdict,
    /// The depth the scores come from (the re-search's when there was one).
    pub depth: u32,
    /// For a re-searched move: the shallowest depth from which every deeper completed depth
    /// of the re-search gave the same judgement. `None`: the pass's verdict.
    pub confirmed_depth: Option<u32>,
    /// The position before the move is in the endgame tables: both scores and the verdict
    /// are exact (`depth` is 0).
    pub exact: bool,
    /// The re-search's drop is a blunder's, but it became one at fewer than
    /// [`AnalysisOptions::blunder_depths`] of its deepest depths: judged a mistake.
    pub unsettled: bool,
}

impl MoveAnalysis {
    /// The judgement, if the move is flagged.
    pub fn judgement(&self) -> Option<Judgement> {
        self.verdict.judgement
    }

    /// Why a proven or exact result makes the move a blunder, with the distance:
    /// `win in 31 missed`, `draw thrown away: loss in 12`, `losing move: loss in 8`.
    pub fn reason_text(&self) -> Option<String> {
        let loss = self.played_score.loss_distance();
        Some(
            match (self.verdict.proven?, self.best_score.win_distance(), loss) {
                (ProvenReason::WinThrownAway, Some(d), _) => format!("win in {d} missed"),
                (ProvenReason::WinThrownAway, None, _) => "win thrown away".to_string(),
                (reason, _, Some(d)) => format!("{reason}: loss in {d}"),
                (reason, _, None) => reason.to_string(),
            },
        )
    }
}

/// A game's analysis.
#[derive(Clone, Debug, Default)]
pub struct GameAnalysis {
    /// Every mainline move, in order.
    pub moves: Vec<MoveAnalysis>,
    /// White's counts and accuracy.
    pub white: SideSummary,
    /// Black's counts and accuracy.
    pub black: SideSummary,
    /// Positions searched (plies + 1).
    pub positions: usize,
    /// Nodes searched in all (re-searches included).
    pub nodes: u64,
    /// Moves re-searched.
    pub verified: usize,
    /// The search of the last position (the game's end or where it stopped).
    pub final_eval: Option<PositionEval>,
}

impl GameAnalysis {
    /// The flagged moves.
    pub fn flagged(&self) -> impl Iterator<Item = &MoveAnalysis> {
        self.moves.iter().filter(|m| m.verdict.judgement.is_some())
    }

    /// The summary of `color`.
    pub fn side(&self, color: Color) -> &SideSummary {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

/// What each search of a game's positions needs besides the position: the earlier hash keys
/// (repetitions) and the running count of draw law 2.
pub struct Searcher<'a> {
    game: &'a ReplayedGame,
    /// The earlier keys a search can meet again, stretch after stretch of the game between
    /// irreversible moves: each stretch's distinct keys in the order they first occur.
    repeatable: Vec<u64>,
    /// Where position `i`'s earlier keys are in `repeatable`: (start, length).
    earlier: Vec<(usize, usize)>,
    king_counts: Vec<Option<u32>>,
}

impl<'a> Searcher<'a> {
    /// The keys and counts of every position of `game`.
    ///
    /// A search uses the earlier keys as a set (is a position on its path one of them?), and
    /// no position after a capture or a man move repeats one before it (men only move
    /// forward, and captured pieces do not come back): so each position gets the distinct
    /// keys since the last such move. The same answers as every earlier key, in time and
    /// memory linear in the game's length (a king shuffle of 160,000 plies handed each search
    /// all the keys before it: quadratic).
    pub fn new(game: &'a ReplayedGame) -> Searcher<'a> {
        let mut repeatable = Vec::new();
        let mut earlier = Vec::with_capacity(game.positions.len());
        let mut seen = std::collections::HashSet::new();
        let mut start = 0;
        for (i, pos) in game.positions.iter().enumerate() {
            earlier.push((start, repeatable.len() - start));
            let irreversible = game
                .moves
                .get(i)
                .is_some_and(|mv| mv.is_capture() || pos.men(pos.turn()).contains(mv.from()));
            if irreversible {
                start = repeatable.len();
                seen.clear();
            } else if seen.insert(pos.hash_key()) {
                repeatable.push(pos.hash_key());
            }
        }
        let mut rules = Game::new(game.start, game.variant);
        let mut king_counts = Vec::with_capacity(game.positions.len());
        king_counts.push(rules.king_count());
        for mv in &game.moves {
            rules.play(mv);
            king_counts.push(rules.king_count());
        }
        Searcher {
            game,
            repeatable,
            earlier,
            king_counts,
        }
    }

    /// The keys before position `i` that a search from it can meet again.
    fn history(&self, i: usize) -> &[u64] {
        let (start, len) = self.earlier[i];
        &self.repeatable[start..start + len]
    }

    /// Position `i` searched alone within `limits` (depth and nodes; multipv 1) by this
    /// thread's engine for the variant with a `tt_mb` table, fresh for the search.
    /// With `tables`, a position they hold is looked up instead (exact), and the search
    /// probes them.
    pub fn search_alone(
        &self,
        i: usize,
        limits: &Limits,
        tt_mb: usize,
        tables: &EndgameTables,
    ) -> PositionEval {
        let tables = tables.get(self.game.variant);
        if let Some((eval, _)) =
            tables.and_then(|t| table_eval(t, &self.game.positions[i], self.king_counts[i]))
        {
            return eval;
        }
        let limits = Limits {
            king_count: self.king_counts[i],
            multipv: 1,
            ..limits.clone()
        };
        with_sized_engine(self.game.variant, tt_mb, |engine| {
            engine.set_keep_table(false);
            use_tables(engine, tables);
            engine
                .search(&self.game.positions[i], &limits, self.history(i), |_| {})
                .into()
        })
    }
}

impl Searcher<'_> {
    /// Move `i` judged alone, as a re-search judges it: its position searched within
    /// `limits` by this thread's engine with a `tt_mb` table fresh for the move, then the
    /// played move alone to the same depth in that table (both moves searched alike). Exact
    /// when `tables` hold the position. Returns the analysis and the nodes spent.
    pub fn judge_alone(
        &self,
        i: usize,
        limits: &Limits,
        tt_mb: usize,
        tables: &EndgameTables,
    ) -> (MoveAnalysis, u64) {
        let tables = tables.get(self.game.variant);
        if let Some(m) = tables.and_then(|t| self.exact_move(t, i)) {
            return (m, 0);
        }
        with_sized_engine(self.game.variant, tt_mb, |engine| {
            engine.clear();
            engine.set_keep_table(true);
            use_tables(engine, tables);
            // The reference's verdict is its deepest depth's, settled or not.
            let judged = self.verify(engine, i, limits, 1);
            engine.set_keep_table(false);
            judged
        })
    }

    /// Move `i` judged from the endgame tables alone: exact, or `None` when they do not hold
    /// its position (nothing is searched).
    pub fn judge_from_tables(&self, i: usize, tables: &EndgameTables) -> Option<MoveAnalysis> {
        self.exact_move(tables.get(self.game.variant)?, i)
    }

    /// Every position of the game searched within `limits` as one sequence, from the last to
    /// the first, by this thread's engine with a `tt_mb` table kept from one search to the
    /// next (fresh for the game), as the analysis's pass does; results in the game's order.
    /// With `tables`, a position they hold is looked up instead (exact).
    pub fn search_in_sequence(
        &self,
        limits: &Limits,
        tt_mb: usize,
        tables: &EndgameTables,
    ) -> Vec<PositionEval> {
        let tables = tables.get(self.game.variant);
        with_sized_engine(self.game.variant, tt_mb, |engine| {
            engine.clear();
            engine.set_keep_table(true);
            use_tables(engine, tables);
            let mut evals: Vec<PositionEval> = (0..self.game.positions.len())
                .rev()
                .map(|i| self.search_position(engine, i, limits, tables))
                .collect();
            engine.set_keep_table(false);
            evals.reverse();
            evals
        })
    }
}

/// Gives `engine` the tables (or none). Tables that do not fit its rules (which
/// [`EndgameTables::insert`] rules out) are not used.
fn use_tables(engine: &mut Engine, tables: Option<&Arc<Tables>>) {
    if engine.set_tables(tables.cloned()).is_err() {
        let _ = engine.set_tables(None);
    }
}

thread_local! {
    /// This thread's engines, one per variant and table size (a table's size changes what
    /// a search finds, so it is part of what makes a result reproducible).
    static ENGINES: std::cell::RefCell<Vec<(usize, drafti_engine::Engine)>> =
        const { std::cell::RefCell::new(Vec::new()) };
}

fn with_sized_engine<R>(
    variant: Variant,
    tt_mb: usize,
    f: impl FnOnce(&mut drafti_engine::Engine) -> R,
) -> R {
    with_engine(variant, tt_mb, &Config::default(), f)
}

/// This thread's engine for `variant` with a `tt_mb` table and the switches `config`.
fn with_engine<R>(
    variant: Variant,
    tt_mb: usize,
    config: &Config,
    f: impl FnOnce(&mut drafti_engine::Engine) -> R,
) -> R {
    ENGINES.with(|cell| {
        let mut engines = cell.borrow_mut();
        let i = match engines
            .iter()
            .position(|(mb, e)| *mb == tt_mb && e.variant() == variant && e.config() == config)
        {
            Some(i) => i,
            None => {
                let laws = drafti_rules::DrawLaws::for_variant(variant);
                let engine =
                    drafti_engine::Engine::with_config(variant, tt_mb, laws, config.clone());
                engines.push((tt_mb, engine));
                engines.len() - 1
            }
        };
        f(&mut engines[i].1)
    })
}

/// A node bound on a re-search, as a multiple of its limit's node count: in simple king
/// endings a depth-limited search can go on for minutes.
const PLAYED_NODE_FACTOR: u64 = 4;

/// One task: positions `lo..hi` of game `game`, searched backwards by one engine.
#[derive(Clone, Copy, Debug)]
struct Segment {
    game: usize,
    lo: usize,
    hi: usize,
}

/// The segments of a game of `positions` positions: one for a game of up to
/// [`SEGMENT_POSITIONS`], else near-equal parts of at most that many. They depend only on the
/// game's length, so a game's analysis is the same alone, in an archive, and for any threads.
fn segments(game: usize, positions: usize) -> Vec<Segment> {
    let parts = positions.div_ceil(SEGMENT_POSITIONS).max(1);
    (0..parts)
        .map(|k| Segment {
            game,
            lo: k * positions / parts,
            hi: (k + 1) * positions / parts,
        })
        .collect()
}

/// What one segment's task found for its positions `lo..hi`.
struct SegmentResult {
    evals: Vec<PositionEval>,
    /// Move `i`'s analysis for every move `lo <= i < hi`.
    moves: Vec<MoveAnalysis>,
    nodes: u64,
}

/// The score of a move, from the mover's side, that leads to a position scored `after` (from
/// its side to move): negated, a proven result one ply further away.
///
/// ```
/// use drafti_engine::Score;
/// use drafti_analysis::move_score;
/// assert_eq!(move_score(Score::loss_in(4)), Score::win_in(5));
/// assert_eq!(move_score(Score::centi_men(-35)), Score::centi_men(35));
/// ```
pub fn move_score(after: Score) -> Score {
    match (after.win_distance(), after.loss_distance()) {
        (Some(d), _) => Score::loss_in(d + 1),
        (_, Some(d)) => Score::win_in(d + 1),
        _ => -after,
    }
}

/// The verdict of a pass: best and played scores from the searches of positions `i` and
/// `i + 1`.
fn pass_verdict(
    before: &PositionEval,
    after: &PositionEval,
    played: &Move,
) -> (Score, bool, Verdict) {
    let is_best = before.best.is_some_and(|b| b.same_move(played));
    let played_score = if is_best {
        before.score
    } else {
        move_score(after.score)
    };
    (
        played_score,
        is_best,
        judge::judge(before.score, played_score, is_best),
    )
}

impl Searcher<'_> {
    /// Position `i` in `engine` (its table as it is) within `limits`, or looked up in
    /// `tables` when they hold it.
    fn search_position(
        &self,
        engine: &mut Engine,
        i: usize,
        limits: &Limits,
        tables: Option<&Arc<Tables>>,
    ) -> PositionEval {
        let pos = &self.game.positions[i];
        if let Some((eval, _)) = tables.and_then(|t| table_eval(t, pos, self.king_counts[i])) {
            return eval;
        }
        engine
            .search(pos, &self.limits(i, limits), self.history(i), |_| {})
            .into()
    }

    fn limits(&self, i: usize, limits: &Limits) -> Limits {
        Limits {
            king_count: self.king_counts[i],
            multipv: 1,
            ..limits.clone()
        }
    }

    /// Re-searches move `i` deeper ([`verify_move`]) in `engine` (its table kept).
    fn verify(
        &self,
        engine: &mut Engine,
        i: usize,
        limits: &Limits,
        blunder_depths: u32,
    ) -> (MoveAnalysis, u64) {
        let m = MoveRef {
            pos: &self.game.positions[i],
            history: self.history(i),
            played: self.game.moves[i],
            king_count: self.king_counts[i],
            ply: i + 1,
        };
        verify_move(engine, &m, limits, blunder_depths)
    }

    /// Move `i` with what a search of it needs, owned: to judge it again later, apart from
    /// its game ([`recheck`]).
    pub fn move_to_check(&self, i: usize) -> MoveToCheck {
        MoveToCheck {
            variant: self.game.variant,
            position: self.game.positions[i],
            played: self.game.moves[i],
            history: self.history(i).to_vec(),
            king_count: self.king_counts[i],
            ply: i + 1,
        }
    }
}

/// One move of a game and what a search of it needs: the position before it, the earlier
/// positions' keys (repetitions) and the running count of draw law 2. Made from a replayed
/// game ([`Searcher::move_to_check`]), so its move is legal.
#[derive(Clone, Debug)]
pub struct MoveToCheck {
    /// The rules.
    variant: Variant,
    /// The position before the move.
    position: Position,
    /// The move played.
    played: Move,
    /// The hash keys before `position` in its game that a search can meet again.
    history: Vec<u64>,
    /// Law 2's running count at `position`.
    king_count: Option<u32>,
    /// The move's ply in its game, from 1.
    ply: usize,
}

/// Transposition table of a [`recheck`], MiB.
pub const RECHECK_TT_MB: usize = 16;

/// `m` judged again alone within `limits` (the position searched with a fresh table, then the
/// played move to the same depth), a blunder only when it is the verdict of the last
/// `blunder_depths` completed depths, as the analysis's re-search judges; exact when `tables`
/// hold the position. Deterministic: the same move and limits give the same verdict on any
/// thread.
pub fn recheck(
    m: &MoveToCheck,
    limits: &Limits,
    blunder_depths: u32,
    tables: &EndgameTables,
) -> MoveAnalysis {
    let tables = tables.get(m.variant);
    if let Some(t) = tables {
        if let Some((eval, moves)) = table_eval(t, &m.position, m.king_count) {
            if let Some(played_value) = moves.iter().find(|(mv, _)| mv.same_move(&m.played)) {
                let is_best = moves.first().is_some_and(|b| b.1 == played_value.1);
                let played_score = played_value.1.score();
                return MoveAnalysis {
                    ply: m.ply,
                    mover: m.position.turn(),
                    played: m.played,
                    best: eval.best,
                    best_score: eval.score,
                    pv: eval.pv,
                    played_score,
                    played_is_best: is_best,
                    verdict: judge::judge_exact(eval.score, played_score, is_best),
                    depth: 0,
                    confirmed_depth: None,
                    exact: true,
                    unsettled: false,
                };
            }
        }
    }
    with_sized_engine(m.variant, RECHECK_TT_MB, |engine| {
        engine.clear();
        engine.set_keep_table(true);
        use_tables(engine, tables);
        let (judged, _) = verify_move(engine, &m.as_ref(), limits, blunder_depths);
        engine.set_keep_table(false);
        judged
    })
}

impl MoveToCheck {
    /// The position before the move.
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// The rules.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    fn as_ref(&self) -> MoveRef<'_> {
        MoveRef {
            pos: &self.position,
            history: &self.history,
            played: self.played,
            king_count: self.king_count,
            ply: self.ply,
        }
    }
}

/// A move to re-search: its position, the keys before it, the move, law 2's count.
struct MoveRef<'a> {
    pos: &'a Position,
    history: &'a [u64],
    played: Move,
    king_count: Option<u32>,
    ply: usize,
}

/// Re-searches a move deeper: the whole position and the played move alone, to the same
/// depth, in `engine` (its table kept). A blunder that is not the verdict of the last
/// `blunder_depths` completed depths is judged a mistake. Returns the analysis and the nodes
/// spent.
fn verify_move(
    engine: &mut Engine,
    m: &MoveRef<'_>,
    limits: &Limits,
    blunder_depths: u32,
) -> (MoveAnalysis, u64) {
    {
        let pos = m.pos;
        let history = m.history;
        let played = m.played;
        let limits_at = Limits {
            king_count: m.king_count,
            multipv: 1,
            ..limits.clone()
        };
        let mut best_by_depth: Vec<(u32, Score, Option<Move>, Vec<Move>)> = Vec::new();
        let mut full = engine.search(pos, &limits_at, history, |d| {
            best_by_depth.push((
                d.depth,
                d.score,
                d.lines.first().map(|l| l.mv),
                d.pv().to_vec(),
            ))
        });
        let played_limits = Limits {
            depth: Some(full.depth.max(1)),
            nodes: limits.nodes.map(|n| n.saturating_mul(PLAYED_NODE_FACTOR)),
            ..limits_at.clone()
        };
        let mut played_by_depth: Vec<(u32, Score)> = Vec::new();
        let alone = engine
            .search_moves(pos, &played_limits, history, &[played], |d| {
                played_by_depth.push((d.depth, d.score))
            })
            .expect("the played move is legal: the game replayed");
        // The played move's search stopped at its node bound before the full search's depth:
        // the best move and score of that same depth, so both are searched alike.
        if alone.depth < full.depth {
            if let Some((_, score, best, pv)) = best_by_depth
                .iter()
                .find(|b| b.0 == alone.depth && b.2.is_some())
            {
                (full.score, full.best, full.pv, full.depth) =
                    (*score, *best, pv.clone(), alone.depth);
            }
        }
        let is_best = full.best.is_some_and(|b| b.same_move(&played));
        let played_score = if is_best { full.score } else { alone.score };
        let verdict = judge::judge(full.score, played_score, is_best);
        // The shallowest depth from which every completed depth gives the final judgement.
        let mut confirmed = full.depth.min(alone.depth);
        for &(depth, best, best_move, _) in best_by_depth.iter().rev() {
            let Some(&(_, at_depth)) = played_by_depth.iter().find(|p| p.0 == depth) else {
                continue;
            };
            let best_here = best_move.is_some_and(|b| b.same_move(&played));
            let j = judge::judge(best, if best_here { best } else { at_depth }, best_here);
            if j.judgement != verdict.judgement {
                break;
            }
            confirmed = depth;
        }
        let depth = full.depth.min(alone.depth);
        // `confirmed` is at most `depth`: the depths from it on gave the final verdict.
        let unsettled =
            verdict.judgement == Some(Judgement::Blunder) && depth - confirmed + 1 < blunder_depths;
        let verdict = verdict.unsettled_if(unsettled);
        let analysis = MoveAnalysis {
            ply: m.ply,
            mover: pos.turn(),
            played,
            best: full.best,
            best_score: full.score,
            pv: full.pv,
            played_score,
            played_is_best: is_best,
            verdict,
            depth,
            confirmed_depth: Some(confirmed),
            exact: false,
            unsettled,
        };
        (analysis, full.nodes + alone.nodes)
    }
}

impl Searcher<'_> {
    /// Move `i` judged from the endgame tables, when they hold its position: the best value
    /// against the played move's, both exact; an equally good move counts as the best.
    fn exact_move(&self, tables: &Tables, i: usize) -> Option<MoveAnalysis> {
        let pos = &self.game.positions[i];
        let played = self.game.moves[i];
        let (eval, moves) = table_eval(tables, pos, self.king_counts[i])?;
        let played_value = moves.iter().find(|(m, _)| m.same_move(&played))?.1;
        let best_value = moves.first()?.1;
        let is_best = played_value == best_value;
        let played_score = played_value.score();
        Some(MoveAnalysis {
            ply: i + 1,
            mover: pos.turn(),
            played,
            best: eval.best,
            best_score: eval.score,
            pv: eval.pv,
            played_score,
            played_is_best: is_best,
            verdict: judge::judge_exact(eval.score, played_score, is_best),
            depth: 0,
            confirmed_depth: None,
            exact: true,
            unsettled: false,
        })
    }

    /// The task of one segment: its positions searched from the last to the first by one
    /// engine whose table is kept (fresh for the segment), each move nominated as soon as the
    /// positions before and after it are searched and, if nominated, re-searched deeper right
    /// away, so what the deep searches learned is in the table for the earlier positions.
    fn segment(
        &self,
        seg: Segment,
        options: &AnalysisOptions,
        progress: &(dyn Fn(u64) + Sync),
    ) -> SegmentResult {
        let n = self.game.positions.len();
        let tables = options.tables.get(self.game.variant);
        with_engine(
            self.game.variant,
            options.tt_mb,
            &options.engine,
            |engine| {
                engine.clear();
                engine.set_keep_table(true);
                use_tables(engine, tables);
                let mut nodes = 0;
                let search = |engine: &mut Engine, i: usize| -> PositionEval {
                    self.search_position(engine, i, &options.limits, tables)
                };
                // The position after the segment (the next segment's first): the played score of
                // the segment's last move.
                let mut after = (seg.hi < n).then(|| search(engine, seg.hi));
                nodes += after.as_ref().map_or(0, |e| e.nodes);
                let mut evals = Vec::with_capacity(seg.hi - seg.lo);
                let mut moves = Vec::with_capacity(seg.hi - seg.lo);
                for i in (seg.lo..seg.hi).rev() {
                    let eval = search(engine, i);
                    nodes += eval.nodes;
                    progress(1);
                    if let Some(next) = &after {
                        let played = self.game.moves[i];
                        if let Some(m) = tables.and_then(|t| self.exact_move(t, i)) {
                            moves.push(m);
                            after = Some(eval.clone());
                            evals.push(eval);
                            continue;
                        }
                        let (played_score, is_best, verdict) = pass_verdict(&eval, next, &played);
                        let nominated = !is_best
                            && (verdict.proven.is_some()
                                || verdict.drop >= options.nominate_drop
                                || eval.score.is_proven()
                                || next.score.is_proven());
                        let m = match (&options.verify, nominated) {
                            (Some(limits), true) => {
                                let (mut m, spent) =
                                    self.verify(engine, i, limits, options.blunder_depths);
                                nodes += spent;
                                if let Some(deeper) = options.confirm.as_ref().filter(|_| {
                                    m.verdict.proven.is_some()
                                        || (options.confirm_band.0..options.confirm_band.1)
                                            .contains(&m.verdict.drop)
                                }) {
                                    let (confirmed, spent) =
                                        self.verify(engine, i, deeper, options.blunder_depths);
                                    nodes += spent;
                                    m = confirmed;
                                }
                                m
                            }
                            _ => MoveAnalysis {
                                ply: i + 1,
                                mover: self.game.positions[i].turn(),
                                played,
                                best: eval.best,
                                best_score: eval.score,
                                pv: eval.pv.clone(),
                                played_score,
                                played_is_best: is_best,
                                verdict,
                                depth: eval.depth,
                                confirmed_depth: None,
                                exact: false,
                                unsettled: false,
                            },
                        };
                        moves.push(m);
                    }
                    after = Some(eval.clone());
                    evals.push(eval);
                }
                engine.set_keep_table(false);
                evals.reverse();
                moves.reverse();
                SegmentResult {
                    evals,
                    moves,
                    nodes,
                }
            },
        )
    }
}

/// Analyses one game on the calling thread (the same result as [`analyse_games`]).
pub fn analyse_game(game: &ReplayedGame, options: &AnalysisOptions) -> GameAnalysis {
    let searcher = Searcher::new(game);
    let results: Vec<SegmentResult> = segments(0, game.positions.len())
        .into_iter()
        .map(|seg| searcher.segment(seg, options, &|_| {}))
        .collect();
    assemble(game, results)
}

/// Analyses many games, their segments spread over rayon's current pool; results in the
/// order of `games`, each the same as [`analyse_game`]'s. `progress` is called (from the
/// workers) with the number of positions just finished.
pub fn analyse_games(
    games: &[&ReplayedGame],
    options: &AnalysisOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<GameAnalysis> {
    let searchers: Vec<Searcher<'_>> = games.iter().map(|g| Searcher::new(g)).collect();
    let mut tasks: Vec<Segment> = games
        .iter()
        .enumerate()
        .flat_map(|(g, game)| segments(g, game.positions.len()))
        .collect();
    // Longest first, so a long game does not start last and keep one worker busy alone.
    let mut order: Vec<usize> = (0..tasks.len()).collect();
    order.sort_by_key(|&t| std::cmp::Reverse(tasks[t].hi - tasks[t].lo));
    let mut results: Vec<Option<SegmentResult>> = order
        .par_iter()
        .with_max_len(1)
        .map(|&t| Some(searchers[tasks[t].game].segment(tasks[t], options, progress)))
        .collect();
    // Back to task order (games in order, their segments in order).
    let mut by_task: Vec<Option<SegmentResult>> = (0..tasks.len()).map(|_| None).collect();
    for (&t, r) in order.iter().zip(results.iter_mut()) {
        by_task[t] = r.take();
    }
    let mut out = Vec::with_capacity(games.len());
    let mut it = by_task.into_iter();
    for (g, game) in games.iter().enumerate() {
        let parts = tasks.iter().filter(|s| s.game == g).count();
        let mine: Vec<SegmentResult> = it
            .by_ref()
            .take(parts)
            .map(|r| r.expect("every task ran"))
            .collect();
        out.push(assemble(game, mine));
    }
    tasks.clear();
    out
}

fn assemble(game: &ReplayedGame, results: Vec<SegmentResult>) -> GameAnalysis {
    let nodes = results.iter().map(|r| r.nodes).sum();
    let mut evals = Vec::with_capacity(game.positions.len());
    let mut moves = Vec::with_capacity(game.moves.len());
    for r in results {
        evals.extend(r.evals);
        moves.extend(r.moves);
    }
    GameAnalysis::from_moves(game, moves, evals.pop(), nodes)
}

impl GameAnalysis {
    /// A game's analysis from its judged moves and the search of its last position: the
    /// counts and accuracies of both sides worked out as the analysis does (for a report
    /// rebuilt from `drafti analyze --json`, whose moves carry these numbers).
    pub fn from_moves(
        game: &ReplayedGame,
        moves: Vec<MoveAnalysis>,
        final_eval: Option<PositionEval>,
        nodes: u64,
    ) -> GameAnalysis {
        let mut analysis = GameAnalysis {
            positions: game.positions.len(),
            nodes,
            moves,
            ..GameAnalysis::default()
        };
        for m in &analysis.moves {
            let side = match m.mover {
                Color::White => &mut analysis.white,
                Color::Black => &mut analysis.black,
            };
            side.count(m.verdict.judgement);
            analysis.verified += usize::from(m.confirmed_depth.is_some());
        }
        // White's win percentage in every position, for the volatility weights: the best score
        // of each move's position (the re-searched one where there was one), then the last.
        let white_win = |turn: Color, s: Score| {
            let s = if turn == Color::White { s } else { -s };
            win_percent(judge::winning_chances(s))
        };
        let mut white_wins: Vec<f64> = analysis
            .moves
            .iter()
            .map(|m| white_win(m.mover, m.best_score))
            .collect();
        if let (Some(last), Some(pos)) = (&final_eval, game.positions.last()) {
            white_wins.push(white_win(pos.turn(), last.score));
        }
        for color in [Color::White, Color::Black] {
            let moves: Vec<(usize, f64)> = analysis
                .moves
                .iter()
                .filter(|m| m.mover == color)
                .map(|m| (m.ply - 1, m.verdict.accuracy))
                .collect();
            let accuracy = game_accuracy(&white_wins, &moves);
            match color {
                Color::White => analysis.white.accuracy = accuracy,
                Color::Black => analysis.black.accuracy = accuracy,
            }
        }
        analysis.final_eval = final_eval;
        analysis
    }
}

/// The machine-readable evaluation of a position written into PDN comments, lichess's
/// `[%eval …]`: from White's side, in men with two decimals (`[%eval 0.35]`,
/// `[%eval -1.20]`), or `#N` / `#-N` for a proven win of White / Black in N plies.
pub fn eval_command(white_score: Score) -> String {
    match (white_score.win_distance(), white_score.loss_distance()) {
        (Some(n), _) => format!("[%eval #{n}]"),
        (_, Some(n)) => format!("[%eval #-{n}]"),
        _ => drafti_pdn::eval_command(white_score.raw()),
    }
}

/// The comment written on a flagged move by [`annotate`]: `-2.10 (best +0.35: d6-c5)`,
/// `draw thrown away: loss in 12; loss in 12 (best 0.00: Kb8-e5; endgame tables)`. Scores
/// are from the mover's side.
pub fn flag_comment(
    m: &MoveAnalysis,
    before: &Position,
    variant: Variant,
    numeric: bool,
) -> String {
    let best = m
        .best
        .map(|b| b.notation(&before.legal_moves(variant), numeric))
        .unwrap_or_default();
    let reason = m
        .reason_text()
        .map(|r| format!("{r}; "))
        .unwrap_or_default();
    let exact = if m.exact { "; endgame tables" } else { "" };
    let unsettled = if m.unsettled {
        "; a blunder's drop, not settled"
    } else {
        ""
    };
    format!(
        "{reason}{} (best {}: {best}{exact}{unsettled})",
        m.played_score, m.best_score
    )
}

/// Writes the analysis into `record`: on every mainline move a comment with the evaluation
/// after it ([`eval_command`]); on each flagged move also a NAG (`$6` ?!, `$2` ?, `$4` ??,
/// put first and replacing earlier move-strength NAGs; the writer prints the first NAG as
/// the move's suffix `?!`, `?`, `??`) and, in the same comment, [`flag_comment`]. `numeric`
/// chooses square numbers for the best moves.
pub fn annotate(
    record: &mut GameRecord,
    game: &ReplayedGame,
    analysis: &GameAnalysis,
    numeric: bool,
) {
    for m in &analysis.moves {
        let Some(node) = record.moves.nodes.get_mut(m.ply - 1) else {
            continue;
        };
        // The position after the move: a proven result one ply nearer than from before it.
        let after = match (
            m.played_score.win_distance(),
            m.played_score.loss_distance(),
        ) {
            (Some(d), _) => Score::win_in(d.saturating_sub(1)),
            (_, Some(d)) => Score::loss_in(d.saturating_sub(1)),
            _ => m.played_score,
        };
        let white_after = match m.mover {
            Color::White => after,
            Color::Black => -after,
        };
        let mut text = eval_command(white_after);
        if let Some(judgement) = m.judgement() {
            node.nags.retain(|n| !(1..=6).contains(&n.value));
            node.nags.insert(
                0,
                Nag {
                    value: judgement.nag(),
                    span: Default::default(),
                },
            );
            text.push(' ');
            text.push_str(&flag_comment(
                m,
                &game.positions[m.ply - 1],
                game.variant,
                numeric,
            ));
        }
        node.comments.push(Comment {
            text,
            span: Default::default(),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_archive::replay::{replay, ReplayOptions};

    fn game(text: &str) -> ReplayedGame {
        let record = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
        let g = replay(record, &ReplayOptions::default());
        assert!(g.is_valid(), "{:?}", g.problems);
        g
    }

    #[test]
    fn each_search_gets_the_keys_it_can_meet_again_in_linear_space() {
        // Issue 41: a king shuffle of N plies handed every search all the keys before it, so
        // analyse was quadratic in N. Now: the distinct keys since the last capture or man
        // move, which answer every repetition the same.
        let shuffle = ["30-26", "1-6", "26-30", "6-1"];
        let moves: Vec<&str> = (0..2_000).map(|i| shuffle[i % 4]).collect();
        let text = format!(
            "[GameType \"25\"]\n[FEN \"W:WK30:BK1\"]\n{} *",
            moves.join(" ")
        );
        let g = game(&text);
        let searcher = Searcher::new(&g);
        let lengths: Vec<usize> = (0..g.positions.len())
            .map(|i| searcher.history(i).len())
            .collect();
        assert_eq!(lengths[..6], [0, 1, 2, 3, 4, 4]);
        assert!(lengths.iter().all(|&n| n <= 4));
        assert_eq!(searcher.repeatable.len(), 4);
        // Every key before a position that can repeat is among its history; none twice.
        for i in 0..g.positions.len() {
            let history = searcher.history(i);
            for earlier in &g.positions[..i] {
                assert!(history.contains(&earlier.hash_key()), "{i}");
            }
            let distinct: std::collections::HashSet<_> = history.iter().collect();
            assert_eq!(distinct.len(), history.len());
        }
        // A man move or a capture starts again: nothing before it repeats.
        let g = game("1. c3-d4 f6-g5 2. d4-c5 b6xd4 3. e3xc5 d6xb4 4. a3xc5 *");
        let searcher = Searcher::new(&g);
        assert!((0..g.positions.len()).all(|i| searcher.history(i).is_empty()));
    }

    #[test]
    fn parallel_and_serial_agree() {
        let a = game("1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 c7-b6 4. d2-e3 h6-g5 5. f4xh6 d6-e5 6. g3-h4 c5-b4 7. a3xa7 f6-g5 8. h4xf6 e7xg5 *");
        let b =
            game("1. c3-b4 d6-e5 2. b2-c3 c7-d6 3. g3-f4 e5xg3 4. f2xh4 d6-c5 5. b4xd6 e7xc5 *");
        let options = AnalysisOptions {
            limits: Limits::depth(4),
            ..AnalysisOptions::default()
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let both = pool.install(|| analyse_games(&[&a, &b], &options, &|_| {}));
        for (g, par) in [&a, &b].iter().zip(&both) {
            let ser = analyse_game(g, &options);
            assert_eq!(ser.moves.len(), par.moves.len());
            for (x, y) in ser.moves.iter().zip(&par.moves) {
                assert_eq!(x.best, y.best);
                assert_eq!(x.best_score, y.best_score);
                assert_eq!(x.played_score, y.played_score);
                assert_eq!(x.verdict.judgement, y.verdict.judgement);
            }
            assert_eq!(ser.nodes, par.nodes);
        }
    }

    #[test]
    fn a_game_searched_in_sequence_is_reproducible_and_uses_what_it_learned() {
        let g =
            game("1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 c7-b6 4. d2-e3 h6-g5 5. f4xh6 d6-e5 *");
        let searcher = Searcher::new(&g);
        let limits = Limits::nodes(3_000);
        let tables = EndgameTables::default();
        let first = searcher.search_in_sequence(&limits, 4, &tables);
        assert_eq!(first.len(), g.positions.len());
        // Whatever this thread's engine searched before: the table is fresh for the game.
        let _ = searcher.search_alone(0, &Limits::nodes(20_000), 4, &tables);
        let again = searcher.search_in_sequence(&limits, 4, &tables);
        for (a, b) in first.iter().zip(&again) {
            assert_eq!(
                (a.score, a.best, a.depth, a.nodes),
                (b.score, b.best, b.depth, b.nodes)
            );
        }
        // The first position is searched last, with the later positions' results in the
        // table (the next one is its child): the same depth costs fewer nodes than alone.
        let depth = Limits::depth(8);
        let sequence = searcher.search_in_sequence(&depth, 4, &tables);
        let alone = searcher.search_alone(0, &depth, 4, &tables);
        assert_eq!(sequence[0].depth, alone.depth);
        assert!(
            sequence[0].nodes < alone.nodes,
            "{} >= {}",
            sequence[0].nodes,
            alone.nodes
        );
    }

    #[test]
    fn the_best_move_is_never_flagged() {
        let g = game("1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 *");
        let a = analyse_game(&g, &AnalysisOptions::default());
        for m in &a.moves {
            if m.played_is_best {
                assert_eq!(m.judgement(), None);
            }
        }
        // The forced capture is the only move.
        assert!(a.moves[2].played_is_best);
    }
}
