//! The endgame tables in the analysis: the sets of each variant ([`EndgameTables`]), a
//! position looked up instead of searched, and a move judged exactly from them.

use crate::game::{MoveAnalysis, PositionEval};
use crate::judge;
use drafti_engine::egtb::{EgtbError, Tables, Value};
use drafti_engine::Engine;
use drafti_rules::{Color, Move, Position, Variant};
use std::sync::Arc;

/// The most pieces of the tables that the analyses a player reads (`drafti analyze` and
/// `drafti report`, the Python package's `analyze`) build in the default folder on first use
/// (`drafti_engine::egtb::build_on_first_use`): those the presets' verdicts were measured
/// with. With them the default's verdicts on 93 master games judged by deep searches that use
/// the same tables had 5 false alarms of 119 blunders and 5 clear misses of 98 game-losing
/// moves, against 12 and 10 with 4 pieces and 26 and 22 with none
/// (docs/lab/tables-in-the-verdicts.md). About 150 MB and half a minute to a minute of two
/// cores a variant.
pub const FIRST_USE_PIECES: u32 = crate::preset::TABLE_PIECES;

/// The environment variable that sets the most pieces of the tables built on first use
/// (`0`: none built; the tests' runs set it, so that no test builds tables it did not ask
/// for).
pub const FIRST_USE_VARIABLE: &str = "DRAFTI_FIRST_USE_TABLES";

/// [`FIRST_USE_VARIABLE`] set to something else than 0 to [`FIRST_USE_PIECES`].
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{FIRST_USE_VARIABLE}={value}: expected the most pieces of the endgame tables built on \
     first use, 0 (none) to {FIRST_USE_PIECES}"
)]
pub struct FirstUseVariableError {
    /// The variable's value (lossily decoded).
    pub value: String,
}

/// The most pieces of the tables built on first use: `value`, the value of
/// [`FIRST_USE_VARIABLE`], when it is set (one setting for the command line and the Python
/// package, which read it and pass it: the library reads no environment), else
/// [`FIRST_USE_PIECES`].
///
/// ```
/// use drafti_analysis::{first_use_pieces, FIRST_USE_PIECES};
/// use std::ffi::OsStr;
/// assert_eq!(first_use_pieces(None), Ok(FIRST_USE_PIECES));
/// assert_eq!(first_use_pieces(Some(OsStr::new(" 3 "))), Ok(3));
/// assert!(first_use_pieces(Some(OsStr::new("six"))).is_err());
/// assert!(first_use_pieces(Some(OsStr::new("9"))).is_err());
/// ```
pub fn first_use_pieces(value: Option<&std::ffi::OsStr>) -> Result<u32, FirstUseVariableError> {
    let Some(value) = value else {
        return Ok(FIRST_USE_PIECES);
    };
    value
        .to_str()
        .and_then(|v| v.trim().parse::<u32>().ok())
        .filter(|&n| n <= FIRST_USE_PIECES)
        .ok_or_else(|| FirstUseVariableError {
            value: value.to_string_lossy().into_owned(),
        })
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
    pub fn insert(&mut self, tables: Arc<Tables>) -> Result<(), EgtbError> {
        let laws = drafti_rules::DrawLaws::for_variant(tables.variant());
        if tables.laws() != laws {
            return Err(EgtbError::WrongRules {
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

/// The plies of a line read from the endgame tables (the line to the end can be long).
const TABLE_LINE_PLIES: usize = 24;

/// A position of a game looked up in the endgame tables: its exact evaluation and every
/// legal move's value, when the tables hold the position, every position after it and its
/// line (a missing table leaves the position to the search, never a result).
pub(crate) fn table_eval(
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

/// Gives `engine` the tables (or none). Tables that do not fit its rules (which
/// [`EndgameTables::insert`] rules out) are not used.
pub(crate) fn use_tables(engine: &mut Engine, tables: Option<&Arc<Tables>>) {
    if engine.set_tables(tables.cloned()).is_err() {
        let _ = engine.set_tables(None);
    }
}

/// The most pieces of an ending whose evaluated blunders [`doubted_king_ending`] doubts: the
/// size of the tables that measured the evaluation there.
pub const DOUBTED_ENDING_PIECES: u32 = 6;

/// Whether `pos` is an ending where the evaluation cannot tell a draw from a win, so that a
/// blunder it scores there (no proven result) is a blunder's drop not settled, judged a
/// mistake: Czech or Russian (no draw laws: the evaluation knows none of these endings), a
/// king on each side, at most [`DOUBTED_ENDING_PIECES`] pieces. Probed in the 6-piece tables,
/// most such endings are drawn where the evaluation gives one side men — two kings and a man
/// against a king and two men: 83% drawn, scored 1.4 men up on average, 2.4 in the master
/// games' false alarms and in their real blunders alike — and no rule of material separates
/// the drawn from the won (docs/lab/king-endings.md). Tanzanian evaluates them with its draw
/// laws (the same material: 93% drawn, scored +0.44) and TzDraft is unmeasured: neither is
/// doubted. A position the tables in use hold is judged exactly before this is asked.
pub fn doubted_king_ending(pos: &Position, variant: Variant) -> bool {
    matches!(variant, Variant::Czech | Variant::Russian)
        && !pos.kings(Color::White).is_empty()
        && !pos.kings(Color::Black).is_empty()
        && pos.occupied().count() <= DOUBTED_ENDING_PIECES
}

/// `m`, the analysis of a move from `pos`, judged a mistake, not settled, when it is a blunder
/// by the evaluation (no proven result) in an ending it cannot judge
/// ([`doubted_king_ending`]).
pub(crate) fn doubt_king_ending(
    mut m: MoveAnalysis,
    pos: &Position,
    variant: Variant,
) -> MoveAnalysis {
    let evaluated_blunder = m.verdict.judgement == Some(judge::Judgement::Blunder)
        && m.verdict.proven.is_none()
        && !m.exact;
    if evaluated_blunder && doubted_king_ending(pos, variant) {
        m.unsettled = true;
        m.verdict = m.verdict.unsettled_if(true);
    }
    m
}

/// The move `played` from `pos` (law 2's count `king_count`; ply `ply` of its game) judged
/// from the endgame tables, when they hold the position: the best value against the played
/// move's, both exact; an equally good move counts as the best.
pub(crate) fn exact_move(
    tables: &Tables,
    pos: &Position,
    king_count: Option<u32>,
    played: Move,
    ply: usize,
) -> Option<MoveAnalysis> {
    let (eval, moves) = table_eval(tables, pos, king_count)?;
    let played_value = moves.iter().find(|(m, _)| m.same_move(&played))?.1;
    let best_value = moves.first()?.1;
    let is_best = played_value == best_value;
    let played_score = played_value.score();
    Some(MoveAnalysis {
        ply,
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
