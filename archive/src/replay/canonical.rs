//! Canonical movetext for `drafti fmt`: every move rewritten from the legal move it means.

use super::resolve::resolve;
use super::ReplayedGame;
use drafti_pdn::{GameRecord, Line, MoveNode, MoveNumber, MoveToken, ResultToken, Separator};
use drafti_rules::{Color, Move, MoveList, Position, Variant};

/// The `GameType` tag value that names `variant` (`25` Russian, `29` Czech, `TZ`
/// Tanzanian, `TzDraft` for Tanzanian as TzDraft's server plays it), as replay reads it.
pub fn game_type_value(variant: Variant) -> String {
    match (variant, variant.game_type()) {
        (_, Some(n)) => n.to_string(),
        (Variant::TzDraft, None) => "TzDraft".to_string(),
        (_, None) => "TZ".to_string(),
    }
}

/// Marks `record` as a game of `variant` with its `GameType` tag (replacing the one it had),
/// so that a file written under `--variant` reads back under the same rules without it.
///
/// ```
/// use drafti_archive::replay::{replay, set_game_type, ReplayOptions};
/// use drafti_rules::Variant;
///
/// let mut record = drafti_pdn::parse_games(b"1. c3-d4 *").remove(0).unwrap();
/// set_game_type(&mut record, Variant::Czech);
/// assert_eq!(record.tag("GameType"), Some("29"));
/// assert_eq!(replay(record, &ReplayOptions::default()).variant, Variant::Czech);
/// ```
pub fn set_game_type(record: &mut GameRecord, variant: Variant) {
    record.set_tag("GameType", game_type_value(variant));
}

/// Which square names to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Notation {
    /// As the record wrote them (numeric if its first move is numeric).
    #[default]
    Source,
    /// `c3-d4`.
    Algebraic,
    /// `22-18`.
    Numeric,
}

/// The record rewritten canonically: each move in the chosen notation, captures with `x`,
/// the short form `c3xg7` unless another legal move shares start and end (then the full
/// path, as PDN 3.0 requires) or `full_captures` asks for every landing square; move numbers
/// before every White move and before a Black move that starts a line; a result token (from
/// the Result tag, else `*`) when the movetext had none. Variations are rewritten as far as
/// their moves are legal; the rest keeps its text.
///
/// Returns `None` when the mainline could not be replayed to its end (the record has an
/// error in the mainline, its variant or its start).
pub fn canonical_record(
    game: &ReplayedGame,
    notation: Notation,
    full_captures: bool,
) -> Option<GameRecord> {
    if !game.is_complete() || game.positions.is_empty() {
        return None;
    }
    let numeric = match notation {
        Notation::Source => game
            .record
            .moves
            .nodes
            .first()
            .is_some_and(|n| n.mv.is_numeric()),
        Notation::Algebraic => false,
        Notation::Numeric => true,
    };
    let writer = Writer {
        variant: game.variant,
        numeric,
        full_captures,
        first_mover: game.first_mover,
        // Numbers never go below 0 (a FEN game numbered from `0.`), so none repeats.
        offset: number_offset(game).max(-(white_number(game.first_mover, 0) as i64)),
    };
    let mut record = game.record.clone();
    writer.line(&mut record.moves, game.start, 0, Some(&game.moves));
    if record.result.is_none() {
        let result = game
            .played_result()
            .unwrap_or(drafti_pdn::GameResult::Unknown);
        record.result = Some(ResultToken::new(result));
    }
    Some(record)
}

/// How far the written move numbers are from 1-based White numbering (FEN starts only).
fn number_offset(game: &ReplayedGame) -> i64 {
    if game.record.tag("FEN").is_none() {
        return 0;
    }
    game.record
        .moves
        .nodes
        .iter()
        .enumerate()
        .find_map(|(i, n)| {
            n.number
                .map(|num| i64::from(num.number) - white_number(game.first_mover, i) as i64)
        })
        .unwrap_or(0)
}

/// The move number of ply `ply` (0-based) when numbers count White's moves.
fn white_number(first: Color, ply: usize) -> usize {
    match first {
        Color::White => ply / 2 + 1,
        Color::Black => ply.div_ceil(2) + 1,
    }
}

struct Writer {
    variant: Variant,
    numeric: bool,
    full_captures: bool,
    first_mover: Color,
    offset: i64,
}

/// The canonical token of `mv` among the `legal` moves of its position: `c3-d4`; a capture
/// short (`c3xg7`) unless another legal capture shares start and end (or `full_captures`),
/// then with every landing square, as PDN 3.0 requires.
pub fn move_token(mv: &Move, legal: &[Move], numeric: bool, full_captures: bool) -> MoveToken {
    let separator = if mv.is_capture() {
        Separator::Capture('x')
    } else {
        Separator::Dash
    };
    if mv.is_capture() && (full_captures || mv.notation(legal, false).matches('x').count() > 1) {
        MoveToken::new(mv.path(), separator, numeric)
    } else {
        MoveToken::new([mv.from(), mv.to()], separator, numeric)
    }
}

impl Writer {
    fn token(&self, mv: &Move, legal: &[Move], old: &MoveToken) -> MoveToken {
        let mut token = move_token(mv, legal, self.numeric, self.full_captures);
        token.span = old.span;
        token
    }

    fn number(&self, ply: usize, turn: Color, starts_line: bool) -> Option<MoveNumber> {
        let n = (white_number(self.first_mover, ply) as i64 + self.offset).clamp(0, u32::MAX.into())
            as u32;
        match turn {
            Color::White => Some(MoveNumber {
                number: n,
                ellipsis: false,
                span: Default::default(),
            }),
            Color::Black if starts_line => Some(MoveNumber {
                number: n,
                ellipsis: true,
                span: Default::default(),
            }),
            Color::Black => None,
        }
    }

    /// Rewrites `line`, whose first move is ply `ply0` from `pos`. `known` holds the moves
    /// already resolved (the mainline's).
    fn line(&self, line: &mut Line, mut pos: Position, ply0: usize, known: Option<&[Move]>) {
        let mut starts_line = true;
        let mut list = MoveList::new();
        let mut legal_ok = true;
        for (j, node) in line.nodes.iter_mut().enumerate() {
            let ply = ply0 + j;
            for variation in &mut node.variations {
                if legal_ok {
                    self.line(variation, pos, ply, None);
                }
            }
            if !legal_ok {
                continue;
            }
            let mv = match known.and_then(|k| k.get(j)) {
                Some(mv) => *mv,
                None => match resolve(&pos, self.variant, &node.mv.squares) {
                    Ok(mv) => mv,
                    Err(_) => {
                        legal_ok = false;
                        continue;
                    }
                },
            };
            pos.generate_moves(self.variant, &mut list);
            node.mv = self.token(&mv, &list, &node.mv);
            node.number = self.number(ply, pos.turn(), starts_line);
            starts_line = after_breaks(node);
            pos = pos.play(&mv);
        }
    }
}

/// Whether the next move starts a new line of text (after comments or variations).
fn after_breaks(node: &MoveNode) -> bool {
    !node.comments.is_empty() || !node.variations.is_empty()
}
