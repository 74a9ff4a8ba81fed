//! The search engine: iterative-deepening principal-variation alpha-beta over the rules core.
//!
//! One [`Engine`] searches one position at a time; it owns its transposition table, killers
//! and history, and holds no global state, so many engines can run on many threads at once
//! (one per thread or per task). A search limited by depth or by nodes is deterministic: the
//! same position, limits and history give the same result on every run and every thread,
//! whatever the engine searched before (each search starts with fresh tables). Only
//! [`Limits::movetime`] reads the clock.
//!
//! The files, one concern each: [`score`](Score) (centi-men or win/loss in N plies),
//! `eval` (every evaluation term and weight), `laws` (the draw laws inside the search),
//! `tt` (transposition table), `order` (move ordering), `search` (the search itself),
//! `geometry` (board tables), `fingerprint` ([`Engine::fingerprint`]: a name of its behaviour),
//! [`nnue`] (the network evaluation behind [`Config::nnue`]).
//!
//! ```
//! use drafti_engine::{Engine, Limits};
//! use drafti_rules::{Position, Variant};
//! // White sacrifices one man and takes two: a forced win.
//! let pos = Position::from_fen("W:Wc3,e3:Bd6,f6").unwrap();
//! let mut engine = Engine::new(Variant::Tanzanian, 1);
//! let result = engine.search(&pos, &Limits::depth(8), &[], |_| {});
//! assert!(result.best.is_some());
//! assert!(result.nodes > 0);
//! ```

#![warn(missing_docs)]

mod clock;
mod config;
pub mod egtb;
mod endgame;
mod eval;
mod fingerprint;
mod geometry;
#[cfg(feature = "serde")]
pub mod json;
mod laws;
pub mod nnue;
mod order;
mod score;
mod search;
mod tt;
mod weights;

pub use config::{Config, ConfigError};
pub use endgame::{
    DRAWISH_DIVISOR, HOLD_DOUBLE, HOLD_MAIN, HOLD_TRIPLE, HOPELESS_DIVISOR, LONE_KING_FOUR,
    LONE_KING_MAN_RANK, LONE_KING_MOBILITY, LONE_KING_PIECE, LONE_KING_THREE, LONE_ON_DOUBLE,
    LONE_ON_MAIN, LONE_ON_TRIPLE, THREE_KINGS_WITH_COUNT,
};
pub use eval::{KING, MAN};
pub use score::Score;
pub use weights::{Weights, WeightsError};

use drafti_rules::{DrawLaws, Game, Move, Outcome, Position, TzDraftCounts, Variant};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The deepest nominal depth a search goes to.
pub const MAX_DEPTH: u32 = 100;

/// The depth searched when no limit is given.
pub const DEFAULT_DEPTH: u32 = 12;

/// When a search stops. With several limits, the first one reached stops it. Without any,
/// the search goes to [`DEFAULT_DEPTH`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration (plies, not counting capture sequences searched to quiescence).
    pub depth: Option<u32>,
    /// Stop once this many nodes have been searched; the result is that of the last
    /// completed iteration (depth 1 always completes). Deterministic.
    pub nodes: Option<u64>,
    /// Stop after this much wall-clock time (interactive use only: not deterministic).
    pub movetime: Option<Duration>,
    /// How many best moves to find, each with an exact score and line (0 counts as 1).
    pub multipv: usize,
    /// The running count of draw law 2 at the root (moves the lone king has made, as
    /// `drafti_rules::Game::king_count` gives it), when the caller knows it. Without it a
    /// root with three kings against one starts the count at 0 (or is drawn when none of
    /// the three is on the main diagonal).
    pub king_count: Option<u32>,
    /// TzDraft's server's counts at the root (as `drafti_rules::Game::tzdraft_counts` gives
    /// them), when the caller knows them: a TzDraft search counts on from them and draws
    /// where the game would. Without them it counts from zero, as a game from the root
    /// position would. Ignored by other variants.
    pub tzdraft_counts: Option<TzDraftCounts>,
    /// With a node limit, start no iteration that, at the growth of the last ones, would not
    /// finish within it: a search stopped by its nodes returns its last completed iteration,
    /// so such an iteration's nodes would be spent for nothing. Deterministic (counted in
    /// nodes); the result is that of the same last completed iteration, reached sooner,
    /// except where the estimate is too high and one more iteration would have finished.
    pub whole_iterations: bool,
}

impl Limits {
    /// These limits with the draw rules' running counts of `game` (law 2's count, TzDraft's
    /// server's counts), so that a search of its position draws where the game would.
    pub fn with_game_counts(self, game: &Game) -> Limits {
        Limits {
            king_count: game.king_count(),
            tzdraft_counts: game.tzdraft_counts(),
            ..self
        }
    }

    /// Search to `depth` plies.
    pub fn depth(depth: u32) -> Limits {
        Limits {
            depth: Some(depth),
            ..Limits::default()
        }
    }

    /// Search about `nodes` nodes (deepest completed iteration).
    pub fn nodes(nodes: u64) -> Limits {
        Limits {
            nodes: Some(nodes),
            ..Limits::default()
        }
    }

    /// Search for `movetime` of wall-clock time.
    pub fn movetime(movetime: Duration) -> Limits {
        Limits {
            movetime: Some(movetime),
            ..Limits::default()
        }
    }

    /// The same limits with `k` best moves.
    pub fn with_multipv(self, k: usize) -> Limits {
        Limits { multipv: k, ..self }
    }
}

/// A flag another thread raises to end a search early (a GUI's `stop`, a clock run out):
/// the search then returns the result of its last completed iteration (depth 1 always
/// completes). Clones share one flag. The engine never lowers it: whoever raised it lowers it
/// before the next search, so a stop sent just before a search starts is never lost.
///
/// ```
/// use drafti_engine::{Engine, Limits};
/// use drafti_rules::{Color, Position, Variant};
/// let mut engine = Engine::new(Variant::Tanzanian, 1);
/// let stop = engine.stop_flag();
/// stop.raise(); // e.g. from another thread, while the search runs
/// let result = engine.search(&Position::start(Color::White), &Limits::depth(30), &[], |_| {});
/// assert_eq!(result.depth, 1);
/// stop.lower();
/// ```
#[derive(Clone, Debug, Default)]
pub struct StopFlag(Arc<AtomicBool>);

impl StopFlag {
    /// A lowered flag.
    pub fn new() -> StopFlag {
        StopFlag::default()
    }

    /// Asks the searches watching this flag to stop.
    pub fn raise(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Lets the next search run.
    pub fn lower(&self) {
        self.0.store(false, Ordering::Relaxed);
    }

    /// Whether the flag is raised.
    #[inline]
    pub fn is_raised(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }
}

/// One root move with its score and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RootLine {
    /// The move.
    pub mv: Move,
    /// Its score, from the side to move at the root.
    pub score: Score,
    /// The principal variation, starting with `mv`.
    pub pv: Vec<Move>,
}

/// What a completed iteration found, as reported to the `on_depth` callback.
#[derive(Clone, Debug)]
pub struct DepthInfo {
    /// The iteration's depth.
    pub depth: u32,
    /// The longest line searched (plies, quiescence included).
    pub seldepth: u32,
    /// The best score.
    pub score: Score,
    /// Nodes searched so far in this search.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The best lines, best first (one unless multipv was asked for).
    pub lines: Vec<RootLine>,
}

impl DepthInfo {
    /// The principal variation of the best line.
    pub fn pv(&self) -> &[Move] {
        self.lines.first().map(|l| l.pv.as_slice()).unwrap_or(&[])
    }

    /// Nodes per second so far.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move; `None` when the game is over at the root (no legal move, or a draw
    /// law applies) or no move was to be searched.
    pub best: Option<Move>,
    /// The score of the best move from the side to move (of the root when it is over), or
    /// of law 3's claim when that is better (see `claim`).
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The deepest completed iteration (0 when the game is over at the root).
    pub depth: u32,
    /// The longest line searched.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The best lines of the last completed iteration, best first.
    pub lines: Vec<RootLine>,
    /// Set when the game is already over at the root.
    pub outcome: Option<Outcome>,
    /// Tanzanian law 3 at the root: when the side to move may crown the opponent's man
    /// (its lone king against two kings and a man, a king on the main diagonal) and start
    /// law 2's count, the value of that claim (searched as deep as the moves). The claim is
    /// no move: `best` stays the best move, and `score` is the claim's value when that is
    /// better. `None` when there is no claim (or [`Config::law3`] is off, or only some
    /// moves were searched).
    pub claim: Option<Score>,
}

impl SearchResult {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        nodes_per_second(self.nodes, self.elapsed)
    }

    /// Whether law 3's claim scores above the best move.
    pub fn claim_is_best(&self) -> bool {
        self.claim
            .zip(self.lines.first())
            .is_some_and(|(c, l)| c > l.score)
    }
}

fn nodes_per_second(nodes: u64, elapsed: Duration) -> u64 {
    let secs = elapsed.as_secs_f64();
    if secs <= 0.0 {
        0
    } else {
        (nodes as f64 / secs) as u64
    }
}

/// Why [`Engine::search_moves`] could not search.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SearchError {
    /// A move to search is not legal in the position.
    #[error("move {0} is not legal in the position")]
    IllegalMove(String),
}

/// A search engine for one variant. `Send`: move it to a thread, or make one per task.
pub struct Engine {
    variant: Variant,
    laws: DrawLaws,
    config: Config,
    eval_tables: Arc<eval::Tables>,
    /// The network and the search path's accumulators, with `Config::nnue`.
    network: Option<(Arc<nnue::Network>, nnue::Stack)>,
    tt: tt::Table,
    order: order::Order,
    state: search::State,
    stop: StopFlag,
    /// Endgame tables: exact scores at the positions they hold.
    tables: Option<std::sync::Arc<egtb::Tables>>,
}

impl Engine {
    /// The draw laws' state at a search's root: TzDraft's server counts, else the laws'.
    fn root_law(&self, pos: &Position, limits: &Limits) -> laws::LawState {
        if self.variant == Variant::TzDraft {
            laws::LawState::tzdraft_root(pos, limits.tzdraft_counts.unwrap_or_default())
        } else {
            laws::LawState::at_root(&self.laws, pos, limits.king_count)
        }
    }

    /// An engine for `variant` (with its draw laws) with a transposition table of about
    /// `tt_mb` MiB (a small minimum when 0).
    pub fn new(variant: Variant, tt_mb: usize) -> Engine {
        Engine::with_laws(variant, tt_mb, DrawLaws::for_variant(variant))
    }

    /// An engine with explicit draw laws (e.g. another agreed count for law 2).
    pub fn with_laws(variant: Variant, tt_mb: usize, laws: DrawLaws) -> Engine {
        Engine::with_config(variant, tt_mb, laws, Config::default())
    }

    /// An engine with explicit draw laws and switches ([`Config`]; its default is the
    /// engine as shipped, other settings are for measuring its parts against each other).
    pub fn with_config(variant: Variant, tt_mb: usize, laws: DrawLaws, config: Config) -> Engine {
        // History by piece and counter-moves are live ideas of the `search-ideas` feature.
        #[cfg(feature = "search-ideas")]
        let order = order::Order::new(config.piece_history != 0, config.counter_moves != 0);
        #[cfg(not(feature = "search-ideas"))]
        let order = order::Order::new(false, false);
        let network = (config.nnue != 0 && nnue::has_shipped(variant)).then(|| {
            // The file is part of the build and its checks are tested; an error is a bug.
            let net = nnue::shipped().expect("engine/data/nnue-tz.bin is valid");
            let stack = nnue::Stack::new(net.hidden(), order::MAX_PLY + 1);
            (net, stack)
        });
        Engine {
            variant,
            laws,
            config,
            eval_tables: eval::shipped_tables(variant),
            network,
            tt: tt::Table::new(tt_mb),
            order,
            state: search::State::new(),
            stop: StopFlag::new(),
            tables: None,
        }
    }

    /// The flag that stops this engine's searches from another thread (see [`StopFlag`]).
    pub fn stop_flag(&self) -> StopFlag {
        self.stop.clone()
    }

    /// Makes this engine watch `flag` instead of its own (one flag for many engines).
    pub fn set_stop_flag(&mut self, flag: StopFlag) {
        self.stop = flag;
    }

    /// The variant searched.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The draw laws applied.
    pub fn laws(&self) -> DrawLaws {
        self.laws
    }

    /// Evaluates with `weights` instead of the shipped ones (e.g. a trainer's new fit, to
    /// measure it in a match).
    pub fn set_weights(&mut self, weights: &Weights) {
        self.eval_tables = Arc::new(eval::Tables::new(weights));
    }

    /// Evaluates with `network` instead of the shipped one (with [`Config::nnue`] on; e.g. a
    /// trainer's new network, to measure it in a match), in any variant: a variant without a
    /// shipped network (Czech, Russian) gets one this way.
    pub fn set_network(&mut self, network: Arc<nnue::Network>) {
        let stack = nnue::Stack::new(network.hidden(), order::MAX_PLY + 1);
        if self.config.nnue != 0 {
            self.network = Some((network, stack));
        }
    }

    /// The switches the engine runs with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Whether the transposition table keeps what earlier searches found and uses it in later
    /// ones (off by default). On: a persistent engine between the moves of one game, or an
    /// analysis that searches a game's positions one after another, gets the earlier work for
    /// free; a search's result then depends on the searches before it (still deterministic
    /// with depth or node limits for the same sequence of searches). Call [`Engine::clear`]
    /// between games.
    pub fn set_keep_table(&mut self, keep: bool) {
        self.tt.set_keep(keep);
    }

    /// Endgame tables to use (`None`: none). The search then scores every position they hold
    /// exactly (a win or loss with its distance, or a draw), also right after a capture into
    /// them, so it converts won endings and never loses a drawn one. The tables must be for
    /// this engine's variant and draw laws.
    pub fn set_tables(
        &mut self,
        tables: Option<std::sync::Arc<egtb::Tables>>,
    ) -> Result<(), egtb::EgtbError> {
        if let Some(t) = &tables {
            if t.variant() != self.variant || t.laws() != self.laws {
                return Err(egtb::EgtbError::WrongRules {
                    path: t.dir().to_path_buf(),
                    reason: format!(
                        "tables for {} (laws {:?}), the engine plays {} (laws {:?})",
                        t.variant(),
                        t.laws(),
                        self.variant,
                        self.laws
                    ),
                });
            }
        }
        self.tables = tables;
        Ok(())
    }

    /// The endgame tables in use.
    pub fn tables(&self) -> Option<&egtb::Tables> {
        self.tables.as_deref()
    }

    /// The endgame tables in use, shared (to set them aside for a search without them and
    /// back).
    pub fn shared_tables(&self) -> Option<std::sync::Arc<egtb::Tables>> {
        self.tables.clone()
    }

    /// Forgets everything searched so far (without [`Engine::set_keep_table`] results never
    /// depend on it anyway; this frees the table's contents, e.g. before another game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.order.clear();
    }

    /// The static evaluation of `pos` from the side to move (0 where a draw law applies).
    ///
    /// ```
    /// use drafti_engine::{Engine, Score};
    /// use drafti_rules::{Position, Variant};
    /// let engine = Engine::new(Variant::Tanzanian, 0);
    /// let start = Position::from_fen("W:W21-32:B1-12").unwrap();
    /// // Level but for the fitted side-to-move (tempo) term, a few centi-men.
    /// assert!(engine.evaluate(&start).raw().abs() <= 10);
    /// let two_kings_each = Position::from_fen("W:WK1,K2:BK29,K30").unwrap();
    /// assert_eq!(engine.evaluate(&two_kings_each), Score::DRAW);
    /// ```
    pub fn evaluate(&self, pos: &Position) -> Score {
        let state = self.root_law(pos, &Limits::default());
        Score::centi_men(match &self.network {
            Some((net, _)) => nnue::evaluate(pos, &self.laws, state, || net.evaluate(pos)),
            None => eval::evaluate(pos, &self.laws, state, &self.eval_tables),
        })
    }

    /// Searches `pos` within `limits`. `history` holds the hash keys
    /// ([`Position::hash_key`]) of the positions before it in the game, oldest first: a
    /// position repeated from them or along the search scores as a draw. `on_depth` is
    /// called after every completed iteration.
    pub fn search(
        &mut self,
        pos: &Position,
        limits: &Limits,
        history: &[u64],
        on_depth: impl FnMut(&DepthInfo),
    ) -> SearchResult {
        self.run(pos, limits, history, None, on_depth)
    }

    /// Like [`Engine::search`], but only the root moves in `only` are searched; with
    /// `limits.multipv` at least `only.len()`, each gets an exact score and line. This is how
    /// a played move is judged: search it alone, and compare with the best move's score.
    pub fn search_moves(
        &mut self,
        pos: &Position,
        limits: &Limits,
        history: &[u64],
        only: &[Move],
        on_depth: impl FnMut(&DepthInfo),
    ) -> Result<SearchResult, SearchError> {
        let legal = pos.legal_moves(self.variant);
        for mv in only {
            if !legal.iter().any(|m| m.same_move(mv)) {
                return Err(SearchError::IllegalMove(mv.full_notation(false)));
            }
        }
        Ok(self.run(pos, limits, history, Some(only), on_depth))
    }
}

/// What the Texel trainer (`lab/examples/texel.rs`) needs: the evaluation's features and
/// its parameter layout. Not for searching.
pub mod tuning {
    pub use super::weights::{
        group_of, Group, Weights, WeightsError, GROUPS, PARAMS, PATTERN, REGIONS, REGION_STATES,
        SHIPPED_TEXT, SHIPPED_TEXTS, UNIT,
    };
    use super::{endgame, eval, laws::LawState};
    use drafti_rules::{DrawLaws, Position};

    /// The linear evaluation's features of a position whose evaluation is (scaled) linear.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct Features {
        /// `(parameter, count)` from White's side, each parameter once, in order.
        pub counts: Vec<(u32, i32)>,
        /// Pieces on the board (capped at 24): the weight of the opening values is
        /// `pieces / 24`, of the endgame values the rest.
        pub pieces: i32,
        /// The linear score is divided by this (endgame knowledge; usually 1).
        pub divisor: i32,
    }

    struct Collect(Vec<(u32, i32)>);

    impl eval::Sink for Collect {
        fn add(&mut self, param: usize, count: i32) {
            self.0.push((param as u32, count));
        }
    }

    /// The features of `pos` (no draw law or special endgame score applying at the root of
    /// a search of it), or `None` when its evaluation does not depend on the weights.
    pub fn features(pos: &Position, laws: &DrawLaws) -> Option<Features> {
        let state = LawState::at_root(laws, pos, None);
        let divisor = match endgame::evaluate(pos, laws, state) {
            endgame::Verdict::Score(_) => return None,
            endgame::Verdict::Scaled(d) => d,
            endgame::Verdict::Linear => 1,
        };
        let mut collect = Collect(Vec::with_capacity(64));
        let pieces = eval::features(pos, &mut collect);
        let mut counts = collect.0;
        counts.sort_unstable_by_key(|&(p, _)| p);
        counts.dedup_by(|b, a| {
            if a.0 == b.0 {
                a.1 += b.1;
                true
            } else {
                false
            }
        });
        counts.retain(|&(_, c)| c != 0);
        Some(Features {
            counts,
            pieces,
            divisor,
        })
    }

    /// The linear evaluation of `pos` with `weights`, from White's side (hundredths of a man).
    pub fn linear(pos: &Position, weights: &Weights) -> i32 {
        eval::linear(pos, weights)
    }
}

#[cfg(test)]
mod tests;
