//! The championship formats' types: how an Event is run ([`Format`], the one list of them),
//! how a match is decided (its [`MatchLaw`]), and what the group tables, the knock-out tree,
//! the round-robin table and the Swiss ranking hold. The computations are in
//! [`super::table`], [`super::bracket`], [`super::round_robin`] and [`super::swiss`]; which
//! format an Event gets is decided in [`super::view`].

use serde::{Serialize, Serializer};

/// How an Event is run: what `--format` asks for, and what each Event of the standings is.
/// Adding a format is a variant here (its name and its line of help), its computation (a
/// module, called where the `view` module builds an Event) and its renderers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Three players or fewer: their matches by the article's laws.
    Matches,
    /// More than three players in matches: a knockout, the loser of a match out (the
    /// article's laws).
    Knockout,
    /// Every pair of players met equally often: games scored win 1, draw 1/2.
    RoundRobin,
    /// Round-robin groups of two-game matches, with a football table each.
    Groups,
    /// Groups, then a knock-out among the qualifiers.
    GroupsKnockout,
    /// Every game is a round's pairing: points, Buchholz.
    Swiss,
    /// TzDraft's tournaments: single elimination or round robin of matches that end after
    /// two losses in a row, or from the third game with a leader.
    Tzdraft,
}

impl Format {
    /// Every format, in the order `--format` lists them.
    pub const ALL: [Format; 7] = [
        Format::Matches,
        Format::Knockout,
        Format::RoundRobin,
        Format::Groups,
        Format::GroupsKnockout,
        Format::Swiss,
        Format::Tzdraft,
    ];

    /// The name as given to `--format` and written in the text output.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Matches => "matches",
            Format::Knockout => "knockout",
            Format::RoundRobin => "round-robin",
            Format::Groups => "groups",
            Format::GroupsKnockout => "groups+knockout",
            Format::Swiss => "swiss",
            Format::Tzdraft => "tzdraft",
        }
    }

    /// What the format is, in a few words (for `--format`'s help).
    pub const fn about(self) -> &'static str {
        match self {
            Format::Matches | Format::Knockout => {
                "matches by the article's laws, a knockout for more than three players"
            }
            Format::RoundRobin => "every pair meets equally often; games scored win 1, draw 1/2",
            Format::Groups => "round-robin groups of two-game matches, a football table each",
            Format::GroupsKnockout => "groups, then a knock-out among the qualifiers",
            Format::Swiss => "every game a round's pairing; points, then Buchholz",
            Format::Tzdraft => {
                "TzDraft's tournaments: single elimination or a round robin of matches that end \
                 after two losses in a row or, from the third game, with a leader; round robin \
                 ranked by match wins"
            }
        }
    }

    /// The format named `name`: one of [`Format::ALL`]'s names.
    pub fn from_name(name: &str) -> Option<Format> {
        Format::ALL.into_iter().find(|f| f.name() == name)
    }

    /// Whether the Event's players are in groups.
    pub const fn grouped(self) -> bool {
        matches!(self, Format::Groups | Format::GroupsKnockout)
    }
}

/// How a knock-out match that is level after its two games goes on.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Tiebreak {
    /// The article's sudden-death limboti.
    #[default]
    Limboti,
    /// The 2023 championship's rule: two more games, then four "tege" games, then a golden
    /// goal (the next won game decides).
    Tege,
}

impl Tiebreak {
    /// The rule named `name` (`limboti`, `tege`).
    pub fn from_name(name: &str) -> Option<Tiebreak> {
        match name {
            "limboti" => Some(Tiebreak::Limboti),
            "tege" => Some(Tiebreak::Tege),
            _ => None,
        }
    }
}

/// How one match is decided.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchLaw {
    /// Two games; unless one player won both, sudden-death limboti.
    #[default]
    Limboti,
    /// A group match: two games, no limboti; more games won wins, a level score is a drawn
    /// match.
    TwoGames,
    /// Two games; if level, two tie-break games, then four tege games, then a golden goal.
    Tege,
    /// TzDraft's match: two losses in a row by one player end it, and so does a leader after
    /// the third game or any later one; a draw never ends it.
    Tzdraft,
}

impl MatchLaw {
    /// Whether this is the article's law (then it is not written in JSON).
    pub fn is_limboti(&self) -> bool {
        *self == MatchLaw::Limboti
    }

    /// What game `number` of a match (from 1) is under this law, when it is more than one
    /// of the first two: `limboti`, `tie-break`, `tege`, `golden goal`, or `extra` (a group
    /// match has no third game; TzDraft's extra games are those after the third).
    pub const fn stage(self, number: usize) -> Option<&'static str> {
        match (self, number) {
            (_, 0..=2) | (MatchLaw::Tzdraft, 3) => None,
            (MatchLaw::Tzdraft, _) => Some("extra"),
            (MatchLaw::Limboti, _) => Some("limboti"),
            (MatchLaw::TwoGames, _) => Some("extra"),
            (MatchLaw::Tege, 3..=4) => Some("tie-break"),
            (MatchLaw::Tege, 5..=8) => Some("tege"),
            (MatchLaw::Tege, _) => Some("golden goal"),
        }
    }
}

/// Match points of the football table: a won, drawn and lost match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MatchPoints {
    /// A won match (3).
    pub win: u32,
    /// A drawn match (1).
    pub draw: u32,
    /// A lost match (0).
    pub loss: u32,
}

impl Default for MatchPoints {
    fn default() -> MatchPoints {
        MatchPoints {
            win: 3,
            draw: 1,
            loss: 0,
        }
    }
}

impl std::str::FromStr for MatchPoints {
    type Err = String;

    /// `W,D,L`, each a number up to 1000 (`3,1,0`).
    fn from_str(text: &str) -> Result<MatchPoints, String> {
        let parts: Vec<Option<u32>> = text
            .split(',')
            .map(|p| p.trim().parse::<u32>().ok().filter(|n| *n <= 1000))
            .collect();
        match parts.as_slice() {
            [Some(win), Some(draw), Some(loss)] => Ok(MatchPoints {
                win: *win,
                draw: *draw,
                loss: *loss,
            }),
            _ => Err("expected three numbers up to 1000: win,draw,loss (e.g. 3,1,0)".into()),
        }
    }
}

/// Why a row of a table is below the row above it: the first rule that tells them apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TieBreak {
    /// Fewer points.
    Points,
    /// Equal points, smaller goal difference.
    GoalDifference,
    /// Equal points and goal difference, fewer goals for.
    GoalsFor,
    /// Equal on all three: the matches among the tied players (their mini-table: points,
    /// then goal difference, then goals for).
    HeadToHead,
    /// Swiss: equal points, smaller Buchholz.
    Buchholz,
    /// Swiss: equal points and Buchholz, smaller Buchholz cut-1.
    BuchholzCut1,
    /// Round robin: equal points, smaller Sonneborn-Berger.
    SonnebornBerger,
    /// Round robin: equal points and Sonneborn-Berger, fewer games won.
    Wins,
    /// TzDraft: fewer matches won.
    MatchWins,
    /// TzDraft: equal match wins and points, smaller difference of games won and lost.
    GameDifference,
    /// Equal on every rule: the rank is shared (listed by name).
    Shared,
}

impl TieBreak {
    /// The snake_case name of JSON and CSV.
    pub const fn name(self) -> &'static str {
        match self {
            TieBreak::Points => "points",
            TieBreak::GoalDifference => "goal_difference",
            TieBreak::GoalsFor => "goals_for",
            TieBreak::HeadToHead => "head_to_head",
            TieBreak::Buchholz => "buchholz",
            TieBreak::BuchholzCut1 => "buchholz_cut1",
            TieBreak::SonnebornBerger => "sonneborn_berger",
            TieBreak::Wins => "wins",
            TieBreak::MatchWins => "match_wins",
            TieBreak::GameDifference => "game_difference",
            TieBreak::Shared => "shared",
        }
    }

    /// The rule in words.
    pub const fn words(self) -> &'static str {
        match self {
            TieBreak::Points => "points",
            TieBreak::GoalDifference => "goal difference",
            TieBreak::GoalsFor => "goals for",
            TieBreak::HeadToHead => "head to head",
            TieBreak::Buchholz => "Buchholz",
            TieBreak::BuchholzCut1 => "Buchholz cut-1",
            TieBreak::SonnebornBerger => "Sonneborn-Berger",
            TieBreak::Wins => "games won",
            TieBreak::MatchWins => "match wins",
            TieBreak::GameDifference => "game difference",
            TieBreak::Shared => "shared",
        }
    }
}

/// The tie-break order of the group tables, as stated in the output.
pub const GROUP_TIEBREAKS: [TieBreak; 4] = [
    TieBreak::Points,
    TieBreak::GoalDifference,
    TieBreak::GoalsFor,
    TieBreak::HeadToHead,
];

/// The tie-break order of a Swiss ranking.
pub const SWISS_TIEBREAKS: [TieBreak; 3] =
    [TieBreak::Points, TieBreak::Buchholz, TieBreak::BuchholzCut1];

/// The tie-break order of a round-robin table: Sonneborn-Berger (the points of the opponents
/// beaten, and half those of the opponents drawn with) rewards results against the strong, as
/// round robins usually rank (Buchholz, which a complete round robin makes the same for
/// players level on points, tells nothing there).
pub const ROUND_ROBIN_TIEBREAKS: [TieBreak; 3] =
    [TieBreak::Points, TieBreak::SonnebornBerger, TieBreak::Wins];

/// The ranking order of a TzDraft round robin: match wins, as TzDraft's standings sort
/// (its second key, game points, is never filled in by its server); then match points
/// (they differ only through drawn matches) and the difference of games won and lost.
pub const TZDRAFT_TIEBREAKS: [TieBreak; 3] = [
    TieBreak::MatchWins,
    TieBreak::Points,
    TieBreak::GameDifference,
];

/// Which of TzDraft's two tournament formats an Event is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TzdraftKind {
    /// Each match's loser is out; the winners meet in the next round.
    SingleElimination,
    /// Every pair of players plays a match; match points, ranked by match wins.
    RoundRobin,
}

impl TzdraftKind {
    /// In words: `single elimination`, `round robin`.
    pub const fn words(self) -> &'static str {
        match self {
            TzdraftKind::SingleElimination => "single elimination",
            TzdraftKind::RoundRobin => "round robin",
        }
    }
}

/// A line of a TzDraft round-robin table. Only finished matches score; games are those
/// counted in any match.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TzdraftRow {
    /// 1 for the best; players equal on every rule share a rank.
    pub rank: usize,
    /// The player.
    pub name: String,
    /// Matches finished (won, drawn or lost).
    pub played: u32,
    /// Matches won.
    pub won: u32,
    /// Matches drawn (only at a passed round deadline: a draw never ends a match).
    pub drawn: u32,
    /// Matches lost.
    pub lost: u32,
    /// Matches not finished when their games ran out (not scored).
    pub unfinished: u32,
    /// Counted games won.
    pub games_won: u32,
    /// Counted games drawn.
    pub games_drawn: u32,
    /// Counted games lost.
    pub games_lost: u32,
    /// Games won minus games lost.
    pub game_difference: i64,
    /// Match points (3 a win, 1 a draw, 0 a loss unless `--points` says otherwise).
    pub points: u32,
    /// Why the player is below the one above (`None` for the first).
    pub tiebreak: Option<TieBreak>,
}

/// A TzDraft tournament: which of its formats, and the round robin's table (a single
/// elimination's tree is the Event's `bracket`, its eliminations the `knockout`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Tzdraft {
    /// Single elimination or round robin, recognised from the pairings: a single
    /// elimination of N players has fewer than N pairs.
    pub kind: TzdraftKind,
    /// Match points for a win, a draw, a loss (round robin).
    pub points: MatchPoints,
    /// The ranking order (round robin).
    pub tiebreaks: Vec<TieBreak>,
    /// The round-robin table, best first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub table: Option<Vec<TzdraftRow>>,
    /// Single elimination: the players not eliminated, by name (one, once the final is
    /// decided).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub still_in: Option<Vec<String>>,
}

/// A line of a group's football table. Only finished group matches count (decided or
/// drawn); goals are games won (12 a supa win under `--supa`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct TableRow {
    /// 1 for the best; players equal on every rule share a rank.
    pub rank: usize,
    /// The player.
    pub name: String,
    /// Matches played (finished).
    pub played: u32,
    /// Matches won.
    pub won: u32,
    /// Matches drawn.
    pub drawn: u32,
    /// Matches lost.
    pub lost: u32,
    /// Goals for.
    pub goals_for: u32,
    /// Goals against.
    pub goals_against: u32,
    /// Goals for minus goals against.
    pub goal_difference: i64,
    /// Match points.
    pub points: u32,
    /// Why the player is below the one above (`None` for the first).
    pub tiebreak: Option<TieBreak>,
    /// Among the group's qualifiers for the knock-out.
    pub qualified: bool,
}

/// One group: its football table.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GroupTable {
    /// The group's name (`A`, or `all` when the Event has no groups).
    pub group: String,
    /// The rows, best first.
    pub rows: Vec<TableRow>,
    /// Group matches finished (decided or drawn).
    pub matches_played: u32,
    /// Group matches a full round robin has (each pair once).
    pub matches_scheduled: u32,
    /// The last qualifying place is a shared rank with a player below it: the tables cannot
    /// tell who goes through.
    pub tie_at_cut: bool,
}

/// A match of the knock-out tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BracketMatch {
    /// The match's number among the Event's matches (from 1).
    pub number: usize,
    /// The two players, as in the match.
    pub players: [String; 2],
    /// Counted games won by each.
    pub score: [u32; 2],
    /// Goals of each (12 a supa win under `--supa`).
    pub goals: [u32; 2],
    /// The winner, once decided.
    pub winner: Option<String>,
    /// How many games it took.
    pub decided_after: Option<usize>,
}

/// A round of the knock-out tree.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BracketRound {
    /// `Final`, `Semi-finals`, `Quarter-finals`, or `Round N`.
    pub name: String,
    /// Its matches, in order of their first game.
    pub matches: Vec<BracketMatch>,
}

/// The knock-out stage after the groups.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Bracket {
    /// The rounds, first to last.
    pub rounds: Vec<BracketRound>,
    /// The winner of the final (a last round of one decided match).
    pub champion: Option<String>,
}

/// Points counted in halves (a drawn game is ½): written as a number (`2.5`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HalfPoints(pub u32);

impl Serialize for HalfPoints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(f64::from(self.0) / 2.0)
    }
}

impl std::fmt::Display for HalfPoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0 / 2)?;
        if self.0 % 2 == 1 {
            f.write_str(".5")?;
        }
        Ok(())
    }
}

/// Points counted in quarters (Sonneborn-Berger adds half the points of a drawn opponent,
/// who may have half points): written as a number (`7.25`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct QuarterPoints(pub u32);

impl Serialize for QuarterPoints {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_f64(f64::from(self.0) / 4.0)
    }
}

impl std::fmt::Display for QuarterPoints {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.0 / 4)?;
        f.write_str(["", ".25", ".5", ".75"][(self.0 % 4) as usize])
    }
}

/// A line of a ranking of games scored one by one, a win 1 point and a draw ½: a Swiss
/// event's (with Buchholz) or a round robin's (with Sonneborn-Berger).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ScoreRow {
    /// 1 for the best; players equal on points and both tie-breaks share a rank.
    pub rank: usize,
    /// The player.
    pub name: String,
    /// Games with a result.
    pub games: u32,
    /// Won.
    pub won: u32,
    /// Drawn (`1/2-1/2`).
    pub drawn: u32,
    /// Lost (a `0-0` is lost by both).
    pub lost: u32,
    /// Win 1, draw ½.
    pub points: HalfPoints,
    /// Swiss: the sum of the points of the opponent of every game.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buchholz: Option<HalfPoints>,
    /// Swiss: Buchholz without the lowest of those.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub buchholz_cut1: Option<HalfPoints>,
    /// Round robin: the points of every opponent beaten, and half those of every opponent
    /// drawn with.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sonneborn_berger: Option<QuarterPoints>,
    /// Why the player is below the one above (`None` for the first).
    pub tiebreak: Option<TieBreak>,
}

/// How the group stage is scored, as stated in the output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct TableRules {
    /// Match points for a win, a draw, a loss.
    pub points: MatchPoints,
    /// The tie-break order.
    pub tiebreaks: Vec<TieBreak>,
    /// Qualifiers per group (`groups+knockout`).
    pub qualifiers: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn half_points_are_written_as_numbers() {
        assert_eq!(HalfPoints(5).to_string(), "2.5");
        assert_eq!(HalfPoints(4).to_string(), "2");
        assert_eq!(QuarterPoints(29).to_string(), "7.25");
        assert_eq!(QuarterPoints(30).to_string(), "7.5");
        assert_eq!(serde_json::to_string(&QuarterPoints(3)).unwrap(), "0.75");
        assert_eq!(serde_json::to_string(&HalfPoints(1)).unwrap(), "0.5");
        assert_eq!(
            Format::from_name("groups+knockout"),
            Some(Format::GroupsKnockout)
        );
        for f in Format::ALL {
            assert_eq!(Format::from_name(f.name()), Some(f));
        }
        assert_eq!(MatchLaw::Tege.stage(9), Some("golden goal"));
        assert_eq!(
            "2, 1,0".parse::<MatchPoints>(),
            Ok(MatchPoints {
                win: 2,
                draw: 1,
                loss: 0
            })
        );
        assert!("3,1".parse::<MatchPoints>().is_err());
        assert!("3,1,1001".parse::<MatchPoints>().is_err());
    }
}
