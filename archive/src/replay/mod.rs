//! Replay: a parsed [`GameRecord`] played through the rules core.
//!
//! ```text
//! GameRecord ──replay──▶ ReplayedGame { variant, start, moves, positions, outcome, problems }
//! ```
//! 1. **Variant**: `--variant` (the [`ReplayOptions::variant_override`]) wins; otherwise
//!    `GameType` 25 is Russian, 29 Czech (only the leading number of `25,W,8,8,A0,0` counts),
//!    `TZ` Tanzanian; a `Variant` tag is read by name; with neither tag the record is
//!    Tanzanian. An unknown GameType or Variant is an error that names it.
//! 2. **Start**: the `FEN` tag, or the standard start. In a Tanzanian record without a FEN
//!    either player may start: the first mover is the owner of the piece on the first move's
//!    start square.
//! 3. **Moves**: every move token must mean exactly one legal move: start and end squares
//!    match, every intermediate square written lies (in order) on the squares the piece
//!    passes over or lands on; a text that gives every landing square exactly picks that move.
//!    No match is an *illegal move* (with the legal moves listed), several an *ambiguous
//!    move* (with each candidate's full path). Replay of the mainline stops at its first
//!    error. Variations are replayed from their branch point (the position before the move
//!    they replace, with the draw-law count of that moment); their problems are marked
//!    [`Problem::in_variation`].
//! 4. **Game checks**: a move after the game ended (no legal move, or a Tanzanian draw law
//!    applied) is an error; so is a Result tag that disagrees with the movetext result, and a
//!    result that contradicts a finished final position. A draw law reached under a decisive
//!    result is a warning.
//! 5. **TzDraft's reading** (`tzdraft`, `[Variant "TzDraft"]`): the game is replayed under
//!    TzDraft's server rules, and each place where the article's rules would not have allowed
//!    it is a `tzdraft_only` warning with the position: a move only the server allows (naming
//!    the article's rule it breaks, [`article_breach`]), and the first move played after one
//!    of the article's draw laws had ended the game.
//!
//! Warnings never make a game invalid: a capture written with `-`, a move number that
//! contradicts the ply, an unreadable Result tag, and the parser's own warnings.
//!
//! Ply numbers in problems are 1-based: the first move of the game is ply 1.
//!
//! ```
//! use drafti_archive::replay::{replay, ReplayOptions};
//! let record = drafti_pdn::parse_games(b"1. c3-b4 f6-g5 2. b4-c5 b6xd4 *").remove(0).unwrap();
//! let game = replay(record, &ReplayOptions::default());
//! assert!(game.is_valid());
//! assert_eq!(game.moves.len(), 4);
//! assert_eq!(game.positions.len(), 5);
//! ```

mod article;
mod canonical;
mod check;
mod resolve;

pub use article::article_breach;
pub use canonical::{canonical_record, game_type_value, move_token, set_game_type, Notation};

use drafti_pdn::{GameRecord, GameResult, Span, WarningKind};
use drafti_rules::{Color, Move, Outcome, Position, Variant};
use serde::Serialize;

/// How to replay.
#[derive(Clone, Debug)]
pub struct ReplayOptions {
    /// Replay under this variant whatever the record's tags say (`--variant`).
    pub variant_override: Option<Variant>,
    /// Replay variations too (default `true`).
    pub variations: bool,
    /// The count of Tanzanian draw law 2 (three kings against one); default 12.
    pub king_count: u32,
    /// Replay only this many mainline plies (openings need the first 40): the moves after
    /// them are not checked, the game is not [complete](ReplayedGame::is_complete) and its
    /// result is not checked against the position. Default: the whole game.
    pub max_plies: Option<usize>,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            variant_override: None,
            variations: true,
            king_count: 12,
            max_plies: None,
        }
    }
}

/// How bad a [`Problem`] is: an error makes the game invalid, a warning does not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Severity {
    /// The record is wrong.
    Error,
    /// Worth knowing; the record is still valid.
    Warning,
}

/// What kind of problem; the snake_case name ([`ProblemKind::as_str`]) is the stable `kind`
/// of `drafti validate --json`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ProblemKind {
    /// The game could not be parsed (used by the batch driver for a `ParseError`).
    Syntax,
    /// A GameType or Variant tag names a game drafti does not know.
    UnknownVariant,
    /// The FEN tag is not a position.
    BadFen,
    /// No legal move matches a move token.
    IllegalMove,
    /// Several legal moves match a move token.
    AmbiguousMove,
    /// A move after the game had ended.
    MoveAfterEnd,
    /// The Result tag and the movetext result disagree.
    ResultMismatch,
    /// The result contradicts a finished final position.
    ResultContradictsPosition,
    /// The PlyCount tag disagrees with the moves of the mainline (a record cut short).
    PlyCountMismatch,
    /// Warning: a capture written with `-`.
    CaptureWrittenAsQuiet,
    /// Warning: a quiet move written with `x` or `:`.
    QuietWrittenAsCapture,
    /// Warning: a move number that contradicts the ply.
    MoveNumber,
    /// Warning: a draw law applies to the final position but the result is decisive.
    DrawNotRecorded,
    /// Warning: the Result tag is not a result.
    BadResultTag,
    /// Warning (parser): no result token at the end of the movetext.
    MissingResult,
    /// Warning (parser): a tag or comment decoded from a legacy code page.
    LegacyEncoding,
    /// Warning (parser): moves written as `-` were skipped.
    MovesNotRecorded,
    /// Warning (parser): `1)`, `c3 - d4`, `A3-B4` or commas, read with a warning.
    NonstandardNotation,
    /// Warning (parser): no moves and a decisive result, read as a forfeit.
    Forfeit,
    /// Warning: in a game under TzDraft's reading (`tzdraft`), a move or a game going on that
    /// TzDraft's server allows and the article's rules do not.
    TzDraftOnly,
    /// An imported record's move numbers have a gap or a repeat.
    MoveOrder,
    /// Warning: an imported record's end reason that its final position contradicts.
    EndReason,
}

impl ProblemKind {
    /// The stable snake_case name, e.g. `illegal_move`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProblemKind::Syntax => "syntax",
            ProblemKind::UnknownVariant => "unknown_variant",
            ProblemKind::BadFen => "bad_fen",
            ProblemKind::IllegalMove => "illegal_move",
            ProblemKind::AmbiguousMove => "ambiguous_move",
            ProblemKind::MoveAfterEnd => "move_after_end",
            ProblemKind::ResultMismatch => "result_mismatch",
            ProblemKind::ResultContradictsPosition => "result_contradicts_position",
            ProblemKind::PlyCountMismatch => "ply_count_mismatch",
            ProblemKind::CaptureWrittenAsQuiet => "capture_written_as_quiet",
            ProblemKind::QuietWrittenAsCapture => "quiet_written_as_capture",
            ProblemKind::MoveNumber => "move_number",
            ProblemKind::DrawNotRecorded => "draw_not_recorded",
            ProblemKind::BadResultTag => "bad_result_tag",
            ProblemKind::MissingResult => "missing_result",
            ProblemKind::LegacyEncoding => "legacy_encoding",
            ProblemKind::MovesNotRecorded => "moves_not_recorded",
            ProblemKind::NonstandardNotation => "nonstandard_notation",
            ProblemKind::Forfeit => "forfeit",
            ProblemKind::TzDraftOnly => "tzdraft_only",
            ProblemKind::MoveOrder => "move_order",
            ProblemKind::EndReason => "end_reason",
        }
    }
}

impl std::fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One thing wrong (or worth a warning) in a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// Error or warning.
    pub severity: Severity,
    /// What kind.
    pub kind: ProblemKind,
    /// Where in the source (the move token, tag or result token).
    pub span: Span,
    /// The 1-based ply of the move concerned (the first move of the game is ply 1).
    pub ply: Option<usize>,
    /// The move as written.
    pub move_text: Option<String>,
    /// One line for people, e.g. `illegal move c3xe5 at ply 14 (White to move)`.
    pub message: String,
    /// The position before the move concerned, as FEN.
    pub fen: Option<String>,
    /// For an illegal move, the legal moves of the position; for an ambiguous one, the full
    /// path of every candidate.
    pub legal: Vec<String>,
    /// Found while replaying a variation, not the mainline.
    pub in_variation: bool,
}

impl Problem {
    /// A problem with only a kind, span and message.
    pub fn new(severity: Severity, kind: ProblemKind, span: Span, message: String) -> Problem {
        Problem {
            severity,
            kind,
            span,
            ply: None,
            move_text: None,
            message,
            fen: None,
            legal: Vec::new(),
            in_variation: false,
        }
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

/// A record played through the rules: everything later stages need, so they never replay or
/// re-parse.
#[derive(Clone, Debug)]
pub struct ReplayedGame {
    /// The parsed record (mainline move `i` is `record.moves.nodes[i]`).
    pub record: GameRecord,
    /// The rules it was replayed under.
    pub variant: Variant,
    /// The start position (FEN tag or standard start, with the first mover to move).
    pub start: Position,
    /// Who made the first move.
    pub first_mover: Color,
    /// The mainline's legal moves, up to (not including) its first error, or to
    /// [`ReplayOptions::max_plies`].
    pub moves: Vec<Move>,
    /// `positions[i]` is the position before `moves[i]`; `len == moves.len() + 1`.
    pub positions: Vec<Position>,
    /// The outcome by the rules of the last position reached, if it is finished.
    pub outcome: Option<Outcome>,
    /// Errors and warnings, in source order.
    pub problems: Vec<Problem>,
}

impl ReplayedGame {
    /// No errors (warnings allowed).
    pub fn is_valid(&self) -> bool {
        !self.problems.iter().any(Problem::is_error)
    }

    /// The whole mainline was replayed (no error stopped it).
    pub fn is_complete(&self) -> bool {
        self.moves.len() == self.record.moves.nodes.len()
    }

    /// The result the record states: the movetext result, else the Result tag.
    pub fn played_result(&self) -> Option<GameResult> {
        self.record
            .result
            .as_ref()
            .map(|r| r.result)
            .or_else(|| self.record.tag_result())
    }

    /// The last position reached.
    pub fn final_position(&self) -> &Position {
        self.positions.last().unwrap_or(&self.start)
    }

    /// The errors.
    pub fn errors(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| p.is_error())
    }

    /// The warnings.
    pub fn warnings(&self) -> impl Iterator<Item = &Problem> {
        self.problems.iter().filter(|p| !p.is_error())
    }
}

pub use resolve::illegal_reason;

/// Plays `record` through the rules; never fails: what is wrong is in
/// [`ReplayedGame::problems`].
pub fn replay(record: GameRecord, options: &ReplayOptions) -> ReplayedGame {
    replay_checked(record, options, true)
}

/// [`replay`] of what was read of a game before a syntax error (a
/// [`ParseError::record`](drafti_pdn::ParseError::record)): its moves are checked, but not
/// its result, whose moves are missing.
pub fn replay_partial(record: GameRecord, options: &ReplayOptions) -> ReplayedGame {
    replay_checked(record, options, false)
}

fn replay_checked(record: GameRecord, options: &ReplayOptions, whole: bool) -> ReplayedGame {
    let mut problems = Vec::new();
    for w in &record.warnings {
        let kind = match w.kind {
            WarningKind::LegacyEncoding => ProblemKind::LegacyEncoding,
            WarningKind::MissingResult => ProblemKind::MissingResult,
            WarningKind::MovesNotRecorded => ProblemKind::MovesNotRecorded,
            WarningKind::NonstandardNotation => ProblemKind::NonstandardNotation,
            WarningKind::Forfeit => ProblemKind::Forfeit,
        };
        problems.push(Problem::new(
            Severity::Warning,
            kind,
            w.span,
            w.message.clone(),
        ));
    }
    let setup = check::setup(&record, options);
    let (variant, start, first_mover, fen_given) = match setup {
        Ok(s) => s,
        Err((variant, problem)) => {
            problems.push(*problem);
            let start = Position::start(Color::White);
            return ReplayedGame {
                record,
                variant,
                start,
                first_mover: Color::White,
                moves: Vec::new(),
                positions: vec![start],
                outcome: None,
                problems,
            };
        }
    };
    let mut replayer = resolve::Replayer::new(variant, options, first_mover, fen_given, &record);
    let mut moves = Vec::with_capacity(record.moves.nodes.len());
    let mut positions = Vec::with_capacity(record.moves.nodes.len() + 1);
    let outcome = replayer.mainline(start, &record, &mut moves, &mut positions);
    problems.append(&mut replayer.problems);
    let mut game = ReplayedGame {
        record,
        variant,
        start,
        first_mover,
        moves,
        positions,
        outcome,
        problems,
    };
    if whole {
        check::result(&mut game);
        check::ply_count(&mut game);
    }
    game.problems.sort_by_key(|p| p.span.offset);
    game
}

#[cfg(test)]
mod tests;
