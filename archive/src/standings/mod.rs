//! Matches and tournaments by the Tanzanian laws: groups an archive's games into matches,
//! decides each match, checks who started each game, scores goals ("supa") and ranks a
//! knockout tournament.
//!
//! # The flow
//! ```text
//! ReplayedGame ──GameSummary::from_replayed──▶ GameSummary (players, result, who started,
//!                                               whether a king appeared)
//! GameSummary ──Archive::push──▶ Archive (one 32-byte record a game, names interned)
//! Archive ──events──▶ EventView, one Event at a time: matches (score, winner), players,
//!                     for > 3 players the knockout ranking; the games of each match and
//!                     the warnings are rebuilt one by one as they are written
//! [GameSummary] ──compute──▶ Standings (every Event's whole report, for small archives)
//! ```
//! The library only reads [`GameSummary`] values, so it can be fed from anything (tests build
//! them by hand); [`GameSummary::from_replayed`] builds one from the replay. Memory grows
//! with the games by their compact records (32 bytes a game, plus 8 for the Event's and the
//! match's lists of game numbers) and with the warnings of one Event (about 20 bytes each);
//! each Event's summaries are let go once it is written.
//!
//! # The laws as implemented (RULES.md, "Matches and tournaments"; the article's
//! "Leyes ampliamente aceptadas" and "Reglas opcionales")
//! 1. **Match.** Two games. If one player won both, the match is over. Otherwise extra games,
//!    *limboti*, follow (the article lists the two-game scores 0-0, 1-0, 0-1 and 1-1 as the
//!    ones that lead to limboti).
//!    **Decision (limboti are sudden death):** after the first two games, the first game that
//!    has a winner decides the match for that winner; drawn limboti games are followed by
//!    another. The score of the first two games is not carried over: a 1-0 lead after two
//!    games is, by the article, not a match win, so a lead cannot be the criterion; the
//!    article's only criterion is "won by a single player", and the smallest reading of
//!    "extra games until one player has won" is the first won game.
//! 2. **Start order.** The winner of a game starts the next game of the match; after a draw,
//!    the player who did *not* start the drawn game starts. With
//!    [`loser_starts`](StandingsOptions::loser_starts) (the optional house rule) the loser
//!    starts after a win; the draw rule is the same. The first game of a match has no
//!    constraint ("the first time, anyone may start"). Who started a game is the colour that
//!    made its first move (Tanzanian records may start with either colour), mapped to a player
//!    by the `White` and `Black` tags. Violations are warnings naming both games.
//!    The law is not checked when it cannot be: after a game without a result (`*`) or a
//!    `0-0`, after a draw whose starter is unknown, or for a game without moves (reported as
//!    a `start_unknown` note, not a violation).
//! 3. **Supa** ([`supa`](StandingsOptions::supa), optional): a win in a game in which no king
//!    ever appeared, for either side, counts as 12 goals; every other win counts 1 goal.
//!    **Decision:** "no king appeared" is read from the replayed positions, the start position
//!    included (a FEN start with a king is never supa); a game without moves, or whose replay
//!    stopped at an illegal move, has an unknown king history and is never supa.
//!    Without `supa`, every win is 1 goal. Goals never decide a match; they are a score and
//!    the second key of the ranking.
//! 4. **Knockout.** An Event with more than three players is a knockout tournament: the loser
//!    of a decided match is eliminated by its winner; a player's points are the number of
//!    opponents they eliminated. An Event with three players or fewer is reported as its
//!    matches and a player table, with no knockout, points or ranking.
//!
//! # Championship formats ([`StandingsOptions::format`])
//! Groups (from [`Groups`] given to the archive, else the `Group`/`Section` tags) make the
//! matches between players of one group *group matches* ([`MatchLaw::TwoGames`]: two games,
//! a level score is a drawn match) and their football tables (module `table`: points, goal
//! difference, goals for, head to head, shared rank); every other match, and every game whose
//! `Stage` tag names a knock-out round, is a knock-out match under the article's limboti or
//! [`Tiebreak::Tege`], put in a tree by rounds (module `bracket`). A Swiss Event (module
//! `swiss`) scores games, ranked by points, Buchholz and cut-1; a round robin (module
//! `round_robin`) scores games, ranked by points, Sonneborn-Berger and wins. docs/guide.md
//! has the rules.
//!
//! # TzDraft's tournaments ([`Format::Tzdraft`], module `tzdraft`)
//! Games are grouped into matches by pair of players and tournament round (the `Round`
//! tag's first part: `2.3` is round 2). Each match is [`MatchLaw::Tzdraft`]: two losses in
//! a row by one player end it (a draw ends a run), so does a leader after the third game or
//! any later one; a draw never ends it; the article's start order is not checked (TzDraft's
//! server gives the colours). An Event with fewer pairs than players is a single
//! elimination (the tree by rounds, the knockout, who is still in), any other a round robin
//! ([`TzdraftRow`]s: match points, ranked by match wins, then points, then game
//! difference). A match its games leave undecided is an `unfinished_match` warning and is
//! not scored, unless [`deadline_passed`](StandingsOptions::deadline_passed) settles it as
//! TzDraft's server does at a round's deadline.
//!
//! # Which format an Event is (module `recognise`)
//! Given with [`StandingsOptions::format`], every Event is read in that format (`matches` and
//! `knockout` both mean the article's reading: a knockout for more than three players; an
//! Event whose pairings cannot be a knockout then gets a `not_a_knockout` warning naming the
//! format that fits). Not given, each Event's format is recognised:
//! 1. players in groups (a groups file, or `Group`/`Section` tags): `groups`, or
//!    `groups+knockout` when some games are outside the groups (a knock-out `Stage` tag, or
//!    players of different groups);
//! 2. three players or fewer: `matches`;
//! 3. at most one pair fewer than the players (a knockout of N players has N−1 matches):
//!    `knockout`;
//! 4. every pair of players met, each as often: `round-robin`;
//! 5. otherwise (more pairs than a knockout has, fewer than a round robin): `swiss`.
//!
//! The Event says why (`recognised`) when it is not read as the article's matches.
//!
//! # Decisions on reading archives
//! - **Grouping:** games are grouped by the `Event` tag (missing, empty or `?` is one
//!   unnamed event), then by the unordered pair of players (`White`/`Black` tags, trimmed,
//!   inner runs of spaces collapsed, compared exactly). All games of one pair within one
//!   Event are one match; games recorded after the match was decided are listed, not counted,
//!   and reported (`game_after_decision`). Record separate matches of the same two players
//!   under different Events. A game without both player names, or with the same name on both
//!   sides, is skipped with a warning.
//! - **Order** of the games of a match: by `Round`, then `Date`, then input order (file order
//!   as given, then game order in the file). A Round is compared part by part on `.`
//!   (`2.10` after `2.9`; numbers numerically, before text); Dates as written (`YYYY.MM.DD`).
//!   A missing value (absent, empty, or only `?`) sorts after every present one. Matches of
//!   an Event are ordered by their first game; Events by their first game in the input.
//! - **Results:** the `Result` tag, or the movetext terminator when the tag is missing or
//!   unreadable. If both are there and disagree, the game counts as unfinished and a
//!   `result_mismatch` warning says so. `1-0`/`2-0` White won; `0-1`/`0-2` Black won;
//!   `1/2-1/2`/`1-1` draw; `0-0` (both forfeited) is a game without a winner (it counts for
//!   the two-game law like a draw, but triggers no start-order rule); `*` or none: unfinished.
//! - **Unfinished games:** a match with an unfinished game among its counted games stays
//!   undecided from that game on (later games are counted in the score, but do not decide).
//! - **Knockout checks:** a player who plays a match that begins after the match that
//!   eliminated them is reported (`played_after_elimination`). The champion is the single
//!   player not eliminated, once every match of the Event is decided.
//! - **Ranking** (knockout): points (more first), then players still in before eliminated
//!   ones, then goals (more first); players equal on all three share a rank (1, 2, 2, 4);
//!   equal players are listed by name.
//!
//! ```
//! use drafti_archive::standings::{compute, GameOutcome, GameSummary, StandingsOptions};
//! use drafti_rules::Color;
//! let game = |n: usize, result| GameSummary {
//!     file: "club.pdn".into(),
//!     game: n,
//!     event: Some("Club".into()),
//!     round: Some(n.to_string()),
//!     date: None,
//!     white: Some("Amina".into()),
//!     black: Some("Bakari".into()),
//!     result,
//!     result_warning: None,
//!     first_mover: Some(Color::White),
//!     king_appeared: Some(false),
//!     group: None,
//!     stage: None,
//! };
//! let games = [game(1, GameOutcome::WhiteWin), game(2, GameOutcome::WhiteWin)];
//! let options = StandingsOptions { supa: true, ..StandingsOptions::default() };
//! let standings = compute(&games, &options);
//! let m = &standings.events[0].matches[0];
//! assert_eq!(m.winner.as_deref(), Some("Amina"));
//! assert_eq!(m.score, [2, 0]);
//! assert_eq!(m.goals, [24, 0]); // two supa wins
//! ```

mod archive;
mod bracket;
mod event_matches;
mod format;
mod groups;
mod knockout;
mod matches;
mod order;
mod recognise;
mod round_robin;
mod scored;
mod stages;
mod summary;
mod swiss;
mod table;
#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_formats;
#[cfg(test)]
mod tests_tzdraft;
mod tzdraft;
mod view;
mod words;

pub use archive::Archive;
pub use format::{
    Bracket, BracketMatch, BracketRound, Format, GroupTable, HalfPoints, MatchLaw, MatchPoints,
    QuarterPoints, ScoreRow, TableRow, TableRules, TieBreak, Tiebreak, Tzdraft, TzdraftKind,
    TzdraftRow, GROUP_TIEBREAKS, ROUND_ROBIN_TIEBREAKS, SWISS_TIEBREAKS, TZDRAFT_TIEBREAKS,
};
pub use groups::{Groups, GroupsError, MAX_GROUPS_FILE, MAX_GROUPS_LINE};
pub use summary::{king_appeared, GameOutcome, GameSummary, Side};
pub use view::EventView;

use serde::Serialize;

/// Which optional laws apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct StandingsOptions {
    /// A win in which no king ever appeared counts 12 goals ("supa").
    pub supa: bool,
    /// The loser of a game starts the next one (instead of the winner).
    pub loser_starts: bool,
    /// Players swap colours after every game of a match: who had White has Black next.
    pub swap_colours: bool,
    /// How the Events are run; `None`: each Event's format is recognised from its
    /// pairings (see [`Format`] and the module docs).
    pub format: Option<Format>,
    /// How a knock-out match level after two games goes on.
    pub tiebreak: Tiebreak,
    /// Match points of the group tables.
    pub points: MatchPoints,
    /// Qualifiers per group for the knock-out (`groups+knockout`).
    pub qualifiers: u32,
    /// `tzdraft`: the round's deadline has passed, and a match its games left undecided is
    /// settled as TzDraft's server settles it then (a drawn match in a round robin; the
    /// player ahead in games in a single elimination).
    pub deadline_passed: bool,
}

impl StandingsOptions {
    /// The article's laws and nothing optional: each Event's format recognised from its
    /// pairings, sudden-death limboti, win 3 draw 1 loss 0 and two qualifiers a group for the
    /// formats that use them.
    pub const BASIC: StandingsOptions = StandingsOptions {
        supa: false,
        loser_starts: false,
        swap_colours: false,
        format: None,
        tiebreak: Tiebreak::Limboti,
        points: MatchPoints {
            win: 3,
            draw: 1,
            loss: 0,
        },
        qualifiers: 2,
        deadline_passed: false,
    };
}

impl Default for StandingsOptions {
    fn default() -> StandingsOptions {
        StandingsOptions::BASIC
    }
}

/// The goals a supa win counts.
pub const SUPA_GOALS: u32 = 12;

/// Standings of a whole archive: one entry per Event, in order of first appearance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Standings {
    /// The options the standings were computed with.
    pub options: StandingsOptions,
    /// The Events.
    pub events: Vec<EventStandings>,
}

impl Standings {
    /// Every warning of every Event.
    pub fn warnings(&self) -> impl Iterator<Item = &Warning> {
        self.events.iter().flat_map(|e| e.warnings.iter())
    }

    /// Whether some warning is a violation of the laws or a skipped game (see
    /// [`WarningKind::is_violation`]).
    pub fn has_violations(&self) -> bool {
        self.warnings().any(|w| w.kind.is_violation())
    }
}

/// The standings of one Event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EventStandings {
    /// The `Event` tag; empty when the games have none.
    pub event: String,
    /// How the Event is run.
    pub format: Format,
    /// Why the format was chosen, when it was recognised from the pairings (no `--format`)
    /// as other than the article's matches and knockout.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub recognised: Option<String>,
    /// The matches, in order of their first game.
    pub matches: Vec<MatchReport>,
    /// Every player of the Event, by name.
    pub players: Vec<PlayerTotals>,
    /// The knockout: eliminations, points and ranking (only for [`Format::Knockout`]).
    pub knockout: Option<Knockout>,
    /// Law violations and notes, in game order.
    pub warnings: Vec<Warning>,
    /// How the group tables are scored (group formats only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table_rules: Option<TableRules>,
    /// The group tables (group formats only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub groups: Option<Vec<GroupTable>>,
    /// The knock-out tree after the groups (`groups+knockout` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bracket: Option<Bracket>,
    /// The Swiss ranking (`swiss` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub swiss: Option<Vec<ScoreRow>>,
    /// The round-robin table (`round-robin` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round_robin: Option<Vec<ScoreRow>>,
    /// TzDraft's tournament (`tzdraft` only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tzdraft: Option<Tzdraft>,
}

/// A game as it appears in a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRef {
    /// The file (or `-`) the game came from.
    pub file: String,
    /// Its number in the file, from 1.
    pub game: usize,
    /// The `Round` tag.
    pub round: Option<String>,
    /// The `Date` tag.
    pub date: Option<String>,
}

impl std::fmt::Display for GameRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} game {}", self.file, self.game)?;
        if let Some(r) = &self.round {
            write!(f, " (round {r})")?;
        }
        Ok(())
    }
}

/// Whether a match is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchStatus {
    /// One player won both of the first two games, or a limboti game.
    Decided,
    /// Not (yet) decided by the recorded games.
    Undecided,
    /// A group match whose two games left the players level (1-1, 0-0), or a TzDraft
    /// round-robin match settled as drawn at the round's deadline.
    Drawn,
}

/// One game of a match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchGame {
    /// Where the game is.
    #[serde(flatten)]
    pub at: GameRef,
    /// 1 and 2 are the match's two games; 3 and on are limboti.
    pub number: usize,
    /// The White player.
    pub white: String,
    /// The Black player.
    pub black: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `0-0` or `*`.
    pub result: String,
    /// The winner, if the game has one.
    pub winner: Option<String>,
    /// The colour that made the first move, if the game has moves.
    pub first_mover: Option<Side>,
    /// The player who started (made the first move).
    pub started_by: Option<String>,
    /// Whether a king ever appeared; `None` when unknown.
    pub king_appeared: Option<bool>,
    /// A win with no king ever on the board.
    pub supa: bool,
    /// Goals the winner scored with this game (1, or 12 for a supa under `--supa`; 0 if the
    /// game has no winner or is not counted).
    pub goals: u32,
    /// Whether the game counts for the match (false: played after the match was decided).
    pub counted: bool,
    /// What a game after the first two is under a law other than limboti: `tie-break`,
    /// `tege`, `golden goal`, `extra` (not written for limboti).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<&'static str>,
}

/// A match: the games of two players within one Event.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MatchReport {
    /// The two players: White of the first game, then Black of the first game.
    pub players: [String; 2],
    /// Counted games won by each player, in the order of `players`.
    pub score: [u32; 2],
    /// Counted drawn games (including `0-0`).
    pub draws: u32,
    /// Counted games without a result.
    pub unfinished: u32,
    /// Goals of each player, in the order of `players`.
    pub goals: [u32; 2],
    /// Decided or undecided.
    pub status: MatchStatus,
    /// The winner of a decided match.
    pub winner: Option<String>,
    /// The loser of a decided match.
    pub loser: Option<String>,
    /// How many games it took to decide the match.
    pub decided_after: Option<usize>,
    /// How many limboti (counted games after the first two) were played.
    pub limboti: usize,
    /// Why an undecided match is undecided.
    pub undecided_reason: Option<String>,
    /// `tzdraft`: settled by the round's deadline, not by its games (written only when so).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub settled_at_deadline: bool,
    /// How the match is decided (not written for the article's limboti).
    #[serde(skip_serializing_if = "MatchLaw::is_limboti")]
    pub law: MatchLaw,
    /// The games in match order (counted ones first; any played after the decision follow).
    pub games: Vec<MatchGame>,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// A player's totals over the matches of one Event (counted games only).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlayerTotals {
    /// The name as in the `White`/`Black` tags (spaces normalised).
    pub name: String,
    /// Matches played.
    pub matches: u32,
    /// Matches won.
    pub matches_won: u32,
    /// Matches lost.
    pub matches_lost: u32,
    /// Matches not decided.
    pub matches_undecided: u32,
    /// Group matches drawn (written only when there are some).
    #[serde(skip_serializing_if = "is_zero")]
    pub matches_drawn: u32,
    /// Counted games won.
    pub games_won: u32,
    /// Counted games drawn (including `0-0`).
    pub games_drawn: u32,
    /// Counted games lost.
    pub games_lost: u32,
    /// Goals (1 a win; 12 a supa win under `--supa`).
    pub goals: u32,
    /// Wins in which no king appeared (counted whether or not `--supa` is on).
    pub supa_wins: u32,
}

/// The knockout of an Event with more than three players.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Knockout {
    /// The only player not eliminated, once every match is decided.
    pub champion: Option<String>,
    /// The final ranking.
    pub ranking: Vec<RankedPlayer>,
}

/// A line of a knockout ranking.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RankedPlayer {
    /// 1 for the best; equal players share a rank.
    pub rank: usize,
    /// The player.
    pub name: String,
    /// Opponents eliminated.
    pub points: u32,
    /// Whom they eliminated, in match order.
    pub eliminated: Vec<String>,
    /// Who eliminated them (the first to do so), if anyone.
    pub eliminated_by: Option<String>,
    /// Goals over the Event.
    pub goals: u32,
}

/// What a warning is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum WarningKind {
    /// The wrong player started a game (start-order law).
    StartOrder,
    /// A game was recorded after its match was decided; it is not counted.
    GameAfterDecision,
    /// In a knockout, a player played a match after being eliminated.
    PlayedAfterElimination,
    /// The `Result` tag and the movetext terminator disagree; the game counts as unfinished.
    ResultMismatch,
    /// A game lacks a `White` or `Black` name (or both are the same); it is skipped.
    MissingPlayer,
    /// The start-order law applies but the game has no moves, so who started is unknown.
    StartUnknown,
    /// With colours swapped after every game, a player kept the colour of the previous game.
    ColourOrder,
    /// A `Group` (or `Section`) tag puts a player in a second group of the Event.
    GroupConflict,
    /// The groups file names a player no game of the Event has (a typing slip, or a player
    /// who did not play): a row of nothing in the group's table.
    UnknownGroupPlayer,
    /// A player of the Event is in no group of the groups file: their games are knock-out
    /// games.
    UngroupedPlayer,
    /// `--format matches` (or `knockout`) for an Event whose pairings cannot be a knockout:
    /// more pairs of players met than a knockout of that many players has matches.
    NotAKnockout,
    /// `tzdraft`: a match whose games ran out before its ending rules decided it; it is
    /// not scored.
    UnfinishedMatch,
    /// `tzdraft` with `deadline_passed`: a match settled by the round's deadline, not by
    /// its games.
    SettledAtDeadline,
}

impl WarningKind {
    /// The snake_case name used in JSON and CSV.
    pub const fn name(self) -> &'static str {
        match self {
            WarningKind::StartOrder => "start_order",
            WarningKind::GameAfterDecision => "game_after_decision",
            WarningKind::PlayedAfterElimination => "played_after_elimination",
            WarningKind::ResultMismatch => "result_mismatch",
            WarningKind::MissingPlayer => "missing_player",
            WarningKind::StartUnknown => "start_unknown",
            WarningKind::ColourOrder => "colour_order",
            WarningKind::GroupConflict => "group_conflict",
            WarningKind::UnknownGroupPlayer => "unknown_group_player",
            WarningKind::UngroupedPlayer => "ungrouped_player",
            WarningKind::NotAKnockout => "not_a_knockout",
            WarningKind::UnfinishedMatch => "unfinished_match",
            WarningKind::SettledAtDeadline => "settled_at_deadline",
        }
    }

    /// A violation of the laws, or a record the standings could not use (everything but
    /// [`WarningKind::StartUnknown`], which only says a law could not be checked, and the
    /// notes on how a TzDraft match ended: a tournament under way has unfinished matches).
    pub const fn is_violation(self) -> bool {
        !matches!(
            self,
            WarningKind::StartUnknown
                | WarningKind::UnfinishedMatch
                | WarningKind::SettledAtDeadline
        )
    }
}

/// A law violation or a note, with the games it concerns.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Warning {
    /// What kind.
    pub kind: WarningKind,
    /// One line for people.
    pub message: String,
    /// The games concerned, in order.
    pub games: Vec<GameRef>,
}

/// Computes the standings of `games` (in input order: file order, then game order), every
/// game and warning in memory; [`Archive::events`] gives them an Event at a time, to be
/// written as they go.
///
/// Never panics; every oddity of the records becomes a [`Warning`].
pub fn compute(games: &[GameSummary], options: &StandingsOptions) -> Standings {
    compute_with_groups(games, options, None)
}

/// [`compute`], with the players' groups given (else they come from the games' `Group` or
/// `Section` tags).
pub fn compute_with_groups(
    games: &[GameSummary],
    options: &StandingsOptions,
    groups: Option<Groups>,
) -> Standings {
    let mut archive: Archive = games.iter().collect();
    if let Some(groups) = groups {
        archive.set_groups(groups);
    }
    Standings {
        options: *options,
        events: archive.events(options).map(|e| e.to_standings()).collect(),
    }
}
