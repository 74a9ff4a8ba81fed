//! How games are analysed: the settings of the pass, the re-search and the confirmation
//! ([`AnalysisOptions`]), their defaults, the changes flags make ([`AnalysisOverrides`]) and
//! the label every output's header carries. The named sets of settings are [`crate::preset`].

use crate::tables::EndgameTables;
use drafti_engine::{Config, Limits, StopFlag};

/// The pass: every position searched within this many nodes (the deepest iteration that
/// finishes within them, 8-9 plies in a middle game: none is started that would not). A pass
/// at depth 6 let 15% of the moves both deep references drop by 0.45 or more go unflagged,
/// because the shots it cannot see are never re-searched (`docs/engine.md`, "Quality on
/// master games"). 25,000 rather than 20,000: against references that search with the endgame
/// tables it left 17 game-losing moves of 513 unflagged instead of 24, on each of the four
/// samples fewer, for 7% more nodes on the master games ("Endgame tables in the verdicts").
pub const DEFAULT_PASS_NODES: u64 = 25_000;

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

/// A re-search's drop of winning chances in this range (from a little under the blunder's
/// 0.3, and up to the drops of 0.5-0.7 that the fitted evaluation overstates at depth 10)
/// sends the move to the confirmation, as does a proven result; outside it the re-search's
/// verdict stands. From 0.25 rather than 0.2: the confirmations of drops of 0.2-0.25 cost 13%
/// of the default's nodes and seldom made a blunder, though without them more of those moves
/// stay mistakes that a deeper search would clear (`docs/engine.md`, "Quality on master
/// games", has the measurements).
pub const DEFAULT_CONFIRM_BAND: (f64, f64) = (0.25, 0.7);

/// A move whose drop of winning chances in the pass reaches this is re-searched (a little
/// under the inaccuracy's 0.075, so a verdict near a threshold is checked).
pub const DEFAULT_NOMINATE_DROP: f64 = 0.05;

/// A re-searched move is a blunder only when its last search called it one at this many of
/// its deepest completed depths (from there on); one that became a blunder later is reported
/// as a mistake, [`crate::MoveAnalysis::unsettled`]. On the master games a blunder that held at
/// several depths is the deep reference's far more often than one that did not
/// (`docs/lab/verdict-quality-one-reference.md`, "Blunders that settle"). 2 since the engine's
/// own references: against 3, recall 3 points higher on both halves of the master games and
/// both Tanzanian samples, at every preset, with the same false alarms
/// (`docs/lab/distilled-weights.md`, "Recall at 30,000 nodes").
pub const DEFAULT_BLUNDER_DEPTHS: u32 = 2;

/// A re-searched blunder whose drop of winning chances at its deepest depth reaches this
/// stands however few depths it held ([`AnalysisOptions::clear_blunder_drop`]). On the master
/// games' both halves 4 more settled blunders at the default and no sample, Tanzanian ones
/// included, gained a false alarm; from 0.4 down the Tanzanian sample does
/// (`docs/lab/distilled-weights.md`, "A clear blunder at the last depth").
pub const DEFAULT_CLEAR_BLUNDER_DROP: f64 = 0.45;

/// The table of each task's engine, MiB.
pub const DEFAULT_TT_MB: usize = 16;

/// How games are analysed.
#[derive(Clone, Debug)]
pub struct AnalysisOptions {
    /// The pass: the search of every position (depth or nodes; never time, so results are
    /// reproducible).
    pub limits: Limits,
    /// The re-search of a nominated move (its position and the played move alone, to the
    /// same depth). `None`: the pass's verdicts are final.
    pub verify: Option<Limits>,
    /// The re-search goes at least as deep as the pass's search of the move's position: a
    /// pass deeper than `verify`'s depth (`thorough`'s 400,000 nodes reach 12–16 plies) would
    /// otherwise be overruled by a shallower search. Off by default, where the pass and the
    /// re-search reach about the same depth (docs/lab/the-pass-budget-curve.md).
    pub verify_from_pass: bool,
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
    /// …unless its drop at the deepest depth reaches this (`None`: every blunder must hold).
    pub clear_blunder_drop: Option<f64>,
    /// Transposition table of each task's engine, MiB.
    pub tt_mb: usize,
    /// Endgame tables: a position they hold is not searched but looked up, and the verdict on
    /// a move played there is exact; the searches probe them too.
    pub tables: EndgameTables,
    /// The engine's switches ([`drafti_engine::Config`]; the default is the engine as
    /// shipped): another setting is a candidate to measure (`drafti-lab quality
    /// --engine`), never the analysis's default.
    pub engine: Config,
    /// Raised from another thread, every search of the analysis stops at once (its results
    /// are then meaningless): how a caller that goes away (Ctrl-C in Python) ends the work.
    pub stop: StopFlag,
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
            verify_from_pass: false,
            nominate_drop: DEFAULT_NOMINATE_DROP,
            confirm: Some(Limits {
                depth: Some(DEFAULT_CONFIRM_DEPTH),
                nodes: Some(DEFAULT_CONFIRM_NODES),
                ..Limits::default()
            }),
            confirm_band: DEFAULT_CONFIRM_BAND,
            blunder_depths: DEFAULT_BLUNDER_DEPTHS,
            clear_blunder_drop: Some(DEFAULT_CLEAR_BLUNDER_DROP),
            tt_mb: DEFAULT_TT_MB,
            tables: EndgameTables::default(),
            engine: Config::default(),
            stop: StopFlag::new(),
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
    /// The pass's nodes (see `depth`).
    pub nodes: Option<u64>,
    /// No re-search of nominated moves; else its depth and nodes.
    pub no_verify: bool,
    /// The re-search's depth.
    pub verify_depth: Option<u32>,
    /// The re-search's nodes.
    pub verify_nodes: Option<u64>,
    /// No confirmation; else its depth and nodes (from the default confirmation when the base
    /// has none).
    pub no_confirm: bool,
    /// The confirmation's depth.
    pub confirm_depth: Option<u32>,
    /// The confirmation's nodes.
    pub confirm_nodes: Option<u64>,
    /// The re-search's drops (from, below) that send a move to the confirmation.
    pub confirm_band: Option<(f64, f64)>,
    /// The pass's drop of winning chances (0…2) from which a move is nominated.
    pub nominate: Option<f64>,
    /// Of how many deepest completed depths a re-searched blunder must be the verdict.
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

    /// What the settings are, for reports: `25000 nodes; moves with a pass drop of 0.05
    /// re-searched to depth 10 (at most 1000000 nodes)`, …
    pub fn label(&self) -> String {
        let pass = limits_label(&self.limits);
        let mut label = match &self.verify {
            None => format!("{pass}; not re-searched"),
            Some(v) => format!(
                "{pass}; moves with a pass drop of {} re-searched to {}{}",
                self.nominate_drop,
                limits_label(v),
                if self.verify_from_pass {
                    ", no shallower than the pass"
                } else {
                    ""
                }
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
            if let Some(clear) = self.clear_blunder_drop {
                label.push_str(&format!(" or its drop reached {clear}"));
            }
        }
        if let Some(sets) = self.tables.sets() {
            label.push_str(TABLES_IN_LABEL);
            label.push_str(&sets);
        }
        if self.engine != Config::default() {
            label.push_str(&format!("; engine settings {}", self.engine));
        }
        label
    }
}

/// How [`AnalysisOptions::label`] names the endgame tables a run used, after its settings
/// (`…; endgame tables: tz up to 5 pieces`).
pub(crate) const TABLES_IN_LABEL: &str = "; endgame tables: ";

/// The most pieces of the smallest set of endgame tables an analysis's label names (`None`:
/// it names none): what its verdicts in endings can rely on.
///
/// ```
/// use drafti_analysis::{label_table_pieces, AnalysisOptions};
/// assert_eq!(label_table_pieces(&AnalysisOptions::default().label()), None);
/// assert_eq!(label_table_pieces("20000 nodes; endgame tables: tz up to 5 pieces"), Some(5));
/// let two = "20000 nodes; endgame tables: czech up to 5 pieces, russian up to 4 pieces";
/// assert_eq!(label_table_pieces(two), Some(4));
/// let changed = "20000 nodes; endgame tables: tz up to 5 pieces; engine settings lmr=0";
/// assert_eq!(label_table_pieces(changed), Some(5));
/// ```
pub fn label_table_pieces(label: &str) -> Option<u32> {
    label_table_sets(label).map(|(_, pieces)| pieces).min()
}

/// The sets of endgame tables an analysis's label names: each one's rules (`tz`, `czech`, …)
/// and most pieces.
fn label_table_sets(label: &str) -> impl Iterator<Item = (&str, u32)> {
    let sets = label
        .split_once(TABLES_IN_LABEL)
        .map(|(_, rest)| rest.split(';').next().unwrap_or(rest));
    sets.into_iter()
        .flat_map(|sets| sets.split(", "))
        .filter_map(|set| {
            let (rules, pieces) = set.split_once(" up to ")?;
            Some((rules, pieces.strip_suffix(" pieces")?.parse::<u32>().ok()?))
        })
}

/// Whether an analysis's label names Czech or Russian tables too small to hold the endings
/// whose blunders it doubts ([`crate::doubted_king_ending`]): its verdicts there are
/// estimates.
///
/// ```
/// use drafti_analysis::label_doubts_king_endings;
/// assert!(label_doubts_king_endings("25000 nodes; endgame tables: czech up to 5 pieces"));
/// let both = "25000 nodes; endgame tables: czech up to 6 pieces, russian up to 5 pieces";
/// assert!(label_doubts_king_endings(both));
/// assert!(!label_doubts_king_endings("25000 nodes; endgame tables: czech up to 6 pieces"));
/// assert!(!label_doubts_king_endings("25000 nodes; endgame tables: tz up to 5 pieces"));
/// assert!(!label_doubts_king_endings("25000 nodes"));
/// ```
pub fn label_doubts_king_endings(label: &str) -> bool {
    label_table_sets(label).any(|(rules, pieces)| {
        matches!(rules, "czech" | "russian") && pieces < crate::DOUBTED_ENDING_PIECES
    })
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
