//! The warnings of an Event in words: each compact note becomes a [`Warning`] with its
//! message and the games it concerns when it is asked for.

use super::event_matches::EventMatches;
use super::matches::{Note, Why};
use super::stages::EventGroups;
use super::{GameRef, Warning, WarningKind};

/// A note of the Event whose matches are `matches` (and groups `groups`) in words.
pub(super) fn warning(
    matches: &EventMatches,
    groups: Option<&EventGroups>,
    note: &Note,
) -> Warning {
    let a = matches.archive;
    let players = |in_match: u32| matches.players(in_match as usize).map(|p| a.name(p));
    let why_words = |in_match: u32, why: Why| {
        let players = players(in_match);
        match why {
            Why::WinnerStarts(w) => format!(
                "{} won the previous game and the winner starts",
                players[w as usize]
            ),
            Why::LoserStarts(l) => format!(
                "{} lost the previous game and the loser starts",
                players[l as usize]
            ),
            Why::DrawStartedBy(s) => format!(
                "the previous game was drawn and {} started it, so the other player starts",
                players[s as usize]
            ),
        }
    };
    let (message, games) = match *note {
        Note::ResultMismatch { game } => (
            format!(
                "{}: {}; the game counts as unfinished",
                a.at(game),
                a.result_warning(game)
            ),
            vec![a.at(game)],
        ),
        Note::PlaysBothSides { game } => (
            format!(
                "{}: {} plays both sides; game skipped",
                a.at(game),
                a.name(a.records[game as usize].white)
            ),
            vec![a.at(game)],
        ),
        Note::NoPlayerName { game } => (
            format!(
                "{}: no White or Black player name; game skipped",
                a.at(game)
            ),
            vec![a.at(game)],
        ),
        Note::StartOrder {
            in_match,
            previous,
            game,
            started,
            expected,
            why,
        } => {
            let p = players(in_match);
            (
                format!(
                    "{}: {} started, but {} should have: {} ({})",
                    a.at(game),
                    p[started as usize],
                    p[expected as usize],
                    why_words(in_match, why),
                    a.at(previous)
                ),
                vec![a.at(previous), a.at(game)],
            )
        }
        Note::StartUnknown {
            in_match,
            previous,
            game,
            expected,
            why,
        } => (
            format!(
                "{}: no moves, so who started is unknown; {} should have: {} ({})",
                a.at(game),
                players(in_match)[expected as usize],
                why_words(in_match, why),
                a.at(previous)
            ),
            vec![a.at(previous), a.at(game)],
        ),
        Note::ColourOrder { previous, game } => {
            let g = &a.records[game as usize];
            let (white, black) = (a.name(g.white), a.name(g.black));
            (
                format!(
                    "{}: {white} has White again, but players swap colours after every \
                         game: {black} should have White ({} had {white} with White)",
                    a.at(game),
                    a.at(previous)
                ),
                vec![a.at(previous), a.at(game)],
            )
        }
        Note::GameAfterDecision {
            in_match,
            game,
            winner: 2,
            ..
        } => {
            let p = players(in_match);
            (
                format!(
                    "{}: played after the group match {} – {} was drawn; not counted",
                    a.at(game),
                    p[0],
                    p[1],
                ),
                vec![a.at(game)],
            )
        }
        Note::ExtraGroupGame { in_match, game } => {
            let p = players(in_match);
            (
                format!(
                    "{}: a group match is two games: this game of {} – {} is not counted",
                    a.at(game),
                    p[0],
                    p[1],
                ),
                vec![a.at(game)],
            )
        }
        Note::GroupConflict {
            game,
            player,
            group,
            first,
        } => (
            format!(
                "{}: the Group tag puts {} in group {}, but an earlier game put them in \
                     group {}; group {} is kept",
                a.at(game),
                a.name(player),
                a.name(group),
                a.name(first),
                a.name(first)
            ),
            vec![a.at(game)],
        ),
        Note::GameAfterDecision {
            in_match,
            game,
            winner,
            decided_after,
        } => {
            let p = players(in_match);
            (
                format!(
                    "{}: played after the match {} – {} was decided (won by {} after {} \
                         games); not counted",
                    a.at(game),
                    p[0],
                    p[1],
                    p[winner as usize],
                    decided_after
                ),
                vec![a.at(game)],
            )
        }
        Note::UnknownGroupPlayer { group, place } => {
            let (name, member) = groups
                .and_then(|g| g.groups.get(group as usize))
                .and_then(|(name, members)| Some((name, members.get(place as usize)?)))
                .map_or(("?", "?"), |(g, m)| (g.as_str(), m.as_str()));
            (
                format!(
                    "the groups file puts {member} in group {name}, but no game of this \
                         Event has that player (names are matched ignoring case; write a name \
                         with a comma in double quotes)"
                ),
                Vec::new(),
            )
        }
        Note::UngroupedPlayer { player, game } => (
            format!(
                "{} plays in this Event ({}) but is in no group of the groups file: their \
                     games are knock-out games",
                a.name(player),
                a.at(game)
            ),
            vec![a.at(game)],
        ),
        Note::NotAKnockout { players, pairs } => {
            let fits = if u64::from(pairs) == u64::from(players) * u64::from(players - 1) / 2 {
                "round-robin"
            } else {
                "swiss"
            };
            (
                format!(
                    "{pairs} pairs of the {players} players met, but a knockout of \
                         {players} players has at most {} matches: --format {fits} fits \
                         (without --format, each Event's format is recognised)",
                    players - 1
                ),
                Vec::new(),
            )
        }
        Note::UnfinishedMatch { in_match, last } => {
            let p = players(in_match);
            let m = matches.summary(in_match as usize, None);
            (
                format!(
                    "{} – {}: unfinished when its games ran out ({}): {}; not scored",
                    p[0],
                    p[1],
                    a.at(last),
                    m.undecided_reason().unwrap_or_default()
                ),
                match_games(matches, in_match),
            )
        }
        Note::SettledAtDeadline { in_match, last } => {
            let p = players(in_match);
            let m = matches.summary(in_match as usize, None);
            let verdict = match m.winner {
                Some(w) => format!(
                    "{} wins, ahead {}-{} in games",
                    p[w],
                    m.score[w],
                    m.score[1 - w]
                ),
                None => "a drawn match".to_string(),
            };
            (
                format!(
                    "{} – {}: undecided when its games ran out ({}), settled at the round's \
                     deadline: {verdict}",
                    p[0],
                    p[1],
                    a.at(last),
                ),
                match_games(matches, in_match),
            )
        }
        Note::PlayedAfterElimination {
            in_match,
            first,
            player,
            by,
            decided_at,
            ..
        } => {
            let p = players(in_match);
            let decided: GameRef = a.at(decided_at);
            (
                format!(
                    "{} plays {} – {} although {} eliminated them ({decided})",
                    a.name(player),
                    p[0],
                    p[1],
                    a.name(by)
                ),
                vec![decided, a.at(first)],
            )
        }
    };
    Warning {
        kind: kind(note),
        message,
        games,
    }
}

/// Where the games of match `in_match` are, in match order.
fn match_games(matches: &EventMatches, in_match: u32) -> Vec<GameRef> {
    matches
        .games(in_match as usize)
        .iter()
        .map(|&g| matches.archive.at(g))
        .collect()
}

/// What a note is about.
pub(super) fn kind(note: &Note) -> WarningKind {
    match note {
        Note::ResultMismatch { .. } => WarningKind::ResultMismatch,
        Note::PlaysBothSides { .. } | Note::NoPlayerName { .. } => WarningKind::MissingPlayer,
        Note::StartOrder { .. } => WarningKind::StartOrder,
        Note::StartUnknown { .. } => WarningKind::StartUnknown,
        Note::ColourOrder { .. } => WarningKind::ColourOrder,
        Note::GameAfterDecision { .. } | Note::ExtraGroupGame { .. } => {
            WarningKind::GameAfterDecision
        }
        Note::GroupConflict { .. } => WarningKind::GroupConflict,
        Note::UnknownGroupPlayer { .. } => WarningKind::UnknownGroupPlayer,
        Note::UngroupedPlayer { .. } => WarningKind::UngroupedPlayer,
        Note::NotAKnockout { .. } => WarningKind::NotAKnockout,
        Note::PlayedAfterElimination { .. } => WarningKind::PlayedAfterElimination,
        Note::UnfinishedMatch { .. } => WarningKind::UnfinishedMatch,
        Note::SettledAtDeadline { .. } => WarningKind::SettledAtDeadline,
    }
}
