//! TzDraft's records as its API and its database give them (serde types, every field
//! optional, camelCase or the database's snake_case columns), and its square numbering.

use drafti_rules::{Color, Move, Square};
use serde::de::IgnoredAny;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A TzDraft game record, as the API serves it or as a database row (see the module docs);
/// every field optional, each read under its camelCase name or its snake_case column.
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TzGame {
    /// TzDraft's id of the game (`[TzDraftId]`).
    pub id: Option<String>,
    /// The game's state on the server (`[TzDraftStatus]`).
    pub status: Option<String>,
    /// The kind of game, named in the `[Event]`; `AI`: against the engine (then Black's name).
    #[serde(alias = "game_type")]
    pub game_type: Option<String>,
    /// The server's rules version (`[TzDraftRuleVersion]`).
    #[serde(alias = "rule_version")]
    pub rule_version: Option<String>,
    /// Each side's starting time in milliseconds: the `[TimeControl]`.
    #[serde(alias = "initial_time_ms")]
    pub initial_time_ms: Option<Value>,
    /// White's user id: the name when the record has no player object.
    #[serde(alias = "white_player_id")]
    pub white_player_id: Option<String>,
    /// Black's user id (none in a game against the engine).
    #[serde(alias = "black_player_id")]
    pub black_player_id: Option<String>,
    /// White's rating when the game was played (`[WhiteElo]`).
    #[serde(alias = "white_elo")]
    pub white_elo: Option<Value>,
    /// Black's rating when the game was played (`[BlackElo]`).
    #[serde(alias = "black_elo")]
    pub black_elo: Option<Value>,
    /// The engine's level in a game against it (the engine player's name).
    #[serde(alias = "ai_level")]
    pub ai_level: Option<Value>,
    /// The invitation code the game was made with (`[TzDraftInviteCode]`).
    #[serde(alias = "invite_code")]
    pub invite_code: Option<String>,
    /// The colour the game's creator chose (`[TzDraftCreatorColor]`).
    #[serde(alias = "creator_color")]
    pub creator_color: Option<String>,
    /// `WHITE`, `BLACK` or `DRAW`: the `[Result]`.
    pub winner: Option<String>,
    /// How the game ended (`RESIGN`, `TIME`, `DRAW_REPETITION`…): the `[Termination]`.
    #[serde(alias = "end_reason")]
    pub end_reason: Option<String>,
    /// Whose move it was when the record was taken (`[TzDraftCurrentTurn]`).
    #[serde(alias = "current_turn")]
    pub current_turn: Option<String>,
    /// When the game was created: the `[Date]` when it has no start time.
    #[serde(alias = "created_at")]
    pub created_at: Option<String>,
    /// When play began: the `[Date]` and the moves' clock times.
    #[serde(alias = "started_at")]
    pub started_at: Option<String>,
    /// When the game ended (`[TzDraftEndedAt]`).
    #[serde(alias = "ended_at")]
    pub ended_at: Option<String>,
    /// The tournament match the game belongs to (`[TzDraftTournamentMatchGameId]`).
    #[serde(alias = "tournament_match_game_id")]
    pub tournament_match_game_id: Option<String>,
    /// The league game it belongs to (`[TzDraftLeagueGameId]`).
    #[serde(alias = "league_game_id")]
    pub league_game_id: Option<String>,
    /// `clockInfo` in the game entity's JSON, `clock` in a database row.
    #[serde(alias = "clockInfo", alias = "clock_info")]
    pub clock: Option<TzClock>,
    /// White's user record, when the API embeds it.
    #[serde(alias = "white_player")]
    pub white_player: Option<TzPlayer>,
    /// Black's user record, when the API embeds it.
    #[serde(alias = "black_player")]
    pub black_player: Option<TzPlayer>,
    /// The replay endpoint's players.
    pub players: Option<TzPlayers>,
    /// The moves; `None` when the record has no `moves` field at all (then it is no game).
    pub moves: Option<Vec<TzMove>>,
    /// The replay endpoint's `{game, players, moves}`.
    pub game: Option<Box<TzGame>>,
    /// The API's envelope `{success, data}`.
    pub data: Option<Box<TzGame>>,
    /// The envelope's `success` (false: an error answer, no game).
    pub success: Option<Value>,
    /// Fields that tell other rows apart (a puzzle, a move), to say what a record is when it
    /// is no game.
    pub solution: Option<IgnoredAny>,
    /// A puzzle row's field: a record that has it is no game.
    #[serde(alias = "side_to_move")]
    pub side_to_move: Option<IgnoredAny>,
    /// A move row's field: a record that has it is no game.
    #[serde(alias = "from_square")]
    pub from_square: Option<IgnoredAny>,
}

/// A game's clock (times left, in milliseconds).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TzClock {
    /// White's time left, in milliseconds.
    #[serde(alias = "white_time_ms")]
    pub white_time_ms: Option<Value>,
    /// Black's time left, in milliseconds.
    #[serde(alias = "black_time_ms")]
    pub black_time_ms: Option<Value>,
    /// When the last move was played (the clock's reference time).
    #[serde(alias = "last_move_at")]
    pub last_move_at: Option<String>,
}

/// A player (TzDraft's user record, of which only these fields are read).
#[derive(Debug, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TzPlayer {
    /// The user id.
    pub id: Option<String>,
    /// The login name: the player's name when there is no display name.
    pub username: Option<String>,
    /// The name shown on the site: the player's name in the PDN.
    #[serde(alias = "display_name")]
    pub display_name: Option<String>,
    /// The country code (`[TzDraftWhiteCountry]`, `[TzDraftBlackCountry]`).
    pub country: Option<String>,
}

/// The replay endpoint's `players`.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
pub struct TzPlayers {
    /// White's user record.
    pub white: Option<TzPlayer>,
    /// Black's user record.
    pub black: Option<TzPlayer>,
}

/// One move (one ply) of a TzDraft game, squares in TzDraft's numbering; camelCase or the
/// database's snake_case columns. A square that is missing is `None` (and named).
#[derive(Debug, Default, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TzMove {
    /// The ply's number from 1: the moves are put in this order (gaps and repeats are errors).
    #[serde(alias = "move_number")]
    pub move_number: Option<i64>,
    /// `WHITE` or `BLACK`: checked against the side to move.
    pub player: Option<String>,
    /// Where the piece starts, in TzDraft's numbering.
    #[serde(alias = "from_square")]
    pub from_square: Option<i64>,
    /// Where it ends, in TzDraft's numbering.
    #[serde(alias = "to_square")]
    pub to_square: Option<i64>,
    /// The squares of the pieces it takes, in TzDraft's numbering (empty for a plain move).
    #[serde(alias = "captured_squares")]
    pub captured_squares: Vec<i64>,
    /// Whether the move crowns a man: checked against the replay.
    #[serde(alias = "is_promotion")]
    pub is_promotion: Option<bool>,
    /// The server's text of the move: how errors about it name it.
    pub notation: Option<String>,
    /// Centipawn-like, from White's side (a man is 100).
    #[serde(alias = "engine_eval")]
    pub engine_eval: Option<i64>,
    /// When the server stored the move (ISO 8601).
    #[serde(alias = "created_at", skip_serializing_if = "Option::is_none")]
    pub created_at: Option<String>,
}

impl TzGame {
    /// The game itself, out of the API's envelopes (`data`, then `{game, players, moves}`).
    pub fn unwrapped(mut self) -> TzGame {
        if let Some(data) = self.data.take() {
            return data.unwrapped();
        }
        match self.game.take() {
            Some(game) => {
                let mut game = game.unwrapped();
                if game.moves.is_none() {
                    game.moves = self.moves.take();
                }
                if game.players.is_none() {
                    game.players = self.players.take();
                }
                game
            }
            None => self,
        }
    }

    /// Why this record is not a TzDraft game (it has no `moves`), in a few words; `None` for
    /// a game.
    pub fn not_a_game(&self) -> Option<String> {
        if self.moves.is_some() {
            return None;
        }
        let id = self.id.as_deref();
        Some(if self.success.as_ref() == Some(&Value::Bool(false)) {
            "an API answer with success: false, holding no game".to_string()
        } else if self.solution.is_some() || self.side_to_move.is_some() {
            format!(
                "a puzzle{}, not a game",
                id.map(|i| format!(" ({i})")).unwrap_or_default()
            )
        } else if self.from_square.is_some() {
            "a row of the moves table alone: give each game with its moves (a `moves` array)"
                .to_string()
        } else if let Some(id) = id.filter(|_| self.status.is_some() || self.winner.is_some()) {
            format!(
                "game {id} has no `moves` (a row of the games table alone: export each game \
                 with its moves)"
            )
        } else {
            "no `moves` field (a TzDraft game is {id, status, winner, …, moves: [...]})".to_string()
        })
    }
}

/// drafti's square for TzDraft's square `n` (1–32): `33 - n`.
///
/// ```
/// use drafti_archive::import::tzdraft::{square, tzdraft_number};
/// assert_eq!(square(1).unwrap().to_string(), "g1");
/// assert_eq!(square(32).unwrap().to_string(), "b8");
/// assert_eq!(tzdraft_number(square(9).unwrap()), 9);
/// assert!(square(0).is_none() && square(33).is_none());
/// ```
pub fn square(n: i64) -> Option<Square> {
    u8::try_from(33 - n)
        .ok()
        .filter(|_| (1..=32).contains(&n))
        .and_then(Square::from_number)
}

/// TzDraft's number of drafti's square `sq`.
pub fn tzdraft_number(sq: Square) -> u8 {
    33 - sq.number()
}

/// The TzDraft move of a legal move played by `player` (ply `ply`, 1-based), with its
/// notation as TzDraft writes it (`22x17x10`: from, each captured square, to).
pub fn tzdraft_move(mv: &Move, player: Color, ply: usize) -> TzMove {
    let from = i64::from(tzdraft_number(mv.from()));
    let to = i64::from(tzdraft_number(mv.to()));
    let captured: Vec<i64> = mv
        .captures()
        .map(|sq| i64::from(tzdraft_number(sq)))
        .collect();
    let notation = if captured.is_empty() {
        format!("{from}-{to}")
    } else {
        let mut path = vec![from];
        path.extend(&captured);
        path.push(to);
        let names: Vec<String> = path.iter().map(i64::to_string).collect();
        names.join("x")
    };
    TzMove {
        move_number: Some(ply as i64),
        player: Some(color_name(player).to_string()),
        from_square: Some(from),
        to_square: Some(to),
        captured_squares: captured,
        is_promotion: Some(mv.promotes()),
        notation: Some(notation),
        engine_eval: None,
        created_at: None,
    }
}

/// TzDraft's name of a side: `WHITE`, `BLACK`.
pub(super) fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "WHITE",
        Color::Black => "BLACK",
    }
}
