//! What the standings need to know about one game, and how to read it from a record.

use super::order::normalise_name;
use super::GameRef;
use crate::replay::ReplayedGame;
use drafti_pdn::{GameRecord, GameResult, WarningKind};
use drafti_rules::{Color, Position};
use serde::Serialize;

/// A colour, as written in reports (`"white"`, `"black"`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

/// The result of a game, as the standings use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum GameOutcome {
    /// `1-0` or `2-0`.
    WhiteWin,
    /// `0-1` or `0-2`.
    BlackWin,
    /// `1/2-1/2` or `1-1`.
    Draw,
    /// `0-0`: both sides lost (e.g. both forfeited): no winner.
    NoWinner,
    /// `*`, no result, or a result that contradicts itself.
    Unfinished,
}

impl GameOutcome {
    /// The winning colour, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            GameOutcome::WhiteWin => Some(Color::White),
            GameOutcome::BlackWin => Some(Color::Black),
            _ => None,
        }
    }

    /// `1-0`, `0-1`, `1/2-1/2`, `0-0` or `*`.
    pub const fn as_str(self) -> &'static str {
        match self {
            GameOutcome::WhiteWin => "1-0",
            GameOutcome::BlackWin => "0-1",
            GameOutcome::Draw => "1/2-1/2",
            GameOutcome::NoWinner => "0-0",
            GameOutcome::Unfinished => "*",
        }
    }

    /// The outcome a parsed result states.
    pub const fn from_result(result: GameResult) -> GameOutcome {
        match result {
            GameResult::WhiteWin => GameOutcome::WhiteWin,
            GameResult::BlackWin => GameOutcome::BlackWin,
            GameResult::Draw => GameOutcome::Draw,
            GameResult::BothLose => GameOutcome::NoWinner,
            GameResult::Unknown => GameOutcome::Unfinished,
        }
    }

    /// The outcome of a record: its `Result` tag, or the movetext terminator when the tag is
    /// missing or unreadable. When both are there and disagree, the game is
    /// [`Unfinished`](GameOutcome::Unfinished) and the second value says why.
    ///
    /// ```
    /// use drafti_archive::standings::GameOutcome;
    /// let game = drafti_pdn::parse_games(b"[Result \"1-0\"]\n1. c3-d4 0-1").remove(0).unwrap();
    /// let (outcome, why) = GameOutcome::of_record(&game);
    /// assert_eq!(outcome, GameOutcome::Unfinished);
    /// assert!(why.unwrap().contains("0-1"));
    /// ```
    pub fn of_record(record: &GameRecord) -> (GameOutcome, Option<String>) {
        let tag = record.tag_result();
        let token = record.result.as_ref().map(|t| t.result);
        match (tag, token) {
            (Some(t), Some(m)) if t != m => (
                GameOutcome::Unfinished,
                Some(format!(
                    "the Result tag says {} but the movetext ends with {}",
                    t.as_str(),
                    m.as_str()
                )),
            ),
            (Some(r), _) | (None, Some(r)) => (GameOutcome::from_result(r), None),
            (None, None) => (GameOutcome::Unfinished, None),
        }
    }
}

/// One game as the standings see it. Build it with [`GameSummary::from_record`] (or
/// [`GameSummary::from_replayed`]), or by hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSummary {
    /// The file (or `-` for standard input) the game came from.
    pub file: String,
    /// Its number in the file, from 1.
    pub game: usize,
    /// The `Event` tag.
    pub event: Option<String>,
    /// The `Round` tag.
    pub round: Option<String>,
    /// The `Date` tag.
    pub date: Option<String>,
    /// The `White` tag.
    pub white: Option<String>,
    /// The `Black` tag.
    pub black: Option<String>,
    /// The result.
    pub result: GameOutcome,
    /// Why the result is unusable, when the record contradicts itself.
    pub result_warning: Option<String>,
    /// The colour that made the first move; `None` for a game without (legal) moves.
    pub first_mover: Option<Color>,
    /// Whether a king was ever on the board (the start included); `None` when the record
    /// does not show it (no moves, or the replay stopped at an illegal move).
    pub king_appeared: Option<bool>,
    /// The `Group` tag, or the `Section` tag when there is no `Group` (the group both
    /// players play in, for `--format groups`).
    pub group: Option<String>,
    /// The `Stage` tag: in the group formats, a value that names a knock-out round (`Final`,
    /// `Semi-final`: anything but `Group…`, `Pool…`, `Kundi…`, `Round robin`, `League`)
    /// makes the game a knock-out game even between players of one group.
    pub stage: Option<String>,
}

impl GameSummary {
    /// A summary from a record and what its replay found: `file` names the source, the game
    /// number is `record.index + 1`; `first_mover` and `king_appeared` come from the replay
    /// (see [`king_appeared`]).
    pub fn from_record(
        record: &GameRecord,
        file: &str,
        first_mover: Option<Color>,
        king_appeared: Option<bool>,
    ) -> GameSummary {
        let tag = |name: &str| record.tag(name).map(str::to_string);
        let (result, result_warning) = GameOutcome::of_record(record);
        GameSummary {
            file: file.to_string(),
            game: record.index + 1,
            event: tag("Event"),
            round: tag("Round"),
            date: tag("Date"),
            white: tag("White"),
            black: tag("Black"),
            result,
            result_warning,
            first_mover,
            king_appeared,
            group: tag("Group").or_else(|| tag("Section")),
            stage: tag("Stage"),
        }
    }

    /// A summary from a replayed game that came from `file`: who started is the colour of
    /// the first legal move (none without moves); whether a king appeared is read from the
    /// replayed positions (unknown when the replay stopped at an error or the record says
    /// moves were not recorded).
    pub fn from_replayed(game: &ReplayedGame, file: &str) -> GameSummary {
        let first_mover = (!game.moves.is_empty()).then_some(game.first_mover);
        let complete = game.is_complete()
            && !game
                .record
                .warnings
                .iter()
                .any(|w| w.kind == WarningKind::MovesNotRecorded);
        let king = king_appeared(&game.positions, &game.moves, complete);
        GameSummary::from_record(&game.record, file, first_mover, king)
    }

    /// Where the game is, for reports.
    pub fn at(&self) -> GameRef {
        GameRef {
            file: self.file.clone(),
            game: self.game,
            round: self
                .round
                .as_deref()
                .map(str::trim)
                .filter(|r| !super::order::is_unknown(r))
                .map(str::to_string),
            date: self
                .date
                .as_deref()
                .map(str::trim)
                .filter(|d| !super::order::is_unknown(d))
                .map(str::to_string),
        }
    }

    /// The White player's name, normalised; `None` if missing, empty or `?`.
    pub fn white_name(&self) -> Option<String> {
        self.white.as_deref().and_then(normalise_name)
    }

    /// The Black player's name, normalised; `None` if missing, empty or `?`.
    pub fn black_name(&self) -> Option<String> {
        self.black.as_deref().and_then(normalise_name)
    }

    /// The name of the player who played `color`.
    pub fn player(&self, color: Color) -> Option<String> {
        match color {
            Color::White => self.white_name(),
            Color::Black => self.black_name(),
        }
    }
}

/// Whether a king stood on the board in any of `positions` or in the position after the last
/// of `moves` (replay layout: `positions[i]` is the position before `moves[i]`).
///
/// `complete` says whether the replay reached the end of the record; if it did not (an
/// illegal move stopped it) and no king was seen, the answer is unknown (`None`). A game
/// without moves is unknown too.
///
/// ```
/// use drafti_archive::standings::king_appeared;
/// use drafti_rules::{Color, Position, Variant};
/// let start = Position::start(Color::White);
/// let mv = start.parse_move(Variant::Tanzanian, "c3-d4").unwrap().remove(0);
/// assert_eq!(king_appeared(&[start], &[mv], true), Some(false));
/// assert_eq!(king_appeared(&[start], &[], true), None);
/// ```
pub fn king_appeared(
    positions: &[Position],
    moves: &[drafti_rules::Move],
    complete: bool,
) -> Option<bool> {
    let has_king =
        |p: &Position| !(p.kings(Color::White).is_empty() && p.kings(Color::Black).is_empty());
    let last = match (positions.get(moves.len().wrapping_sub(1)), moves.last()) {
        (Some(p), Some(m)) => Some(p.play(m)),
        _ => None,
    };
    if positions.iter().chain(last.as_ref()).any(has_king) {
        Some(true)
    } else if moves.is_empty() || !complete {
        None
    } else {
        Some(false)
    }
}
