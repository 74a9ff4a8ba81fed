//! TzDraft's tournaments from their matches: a single elimination's tree by tournament
//! rounds, and a round robin's table of match points ranked by match wins.

use super::bracket::{bracket, bracket_in_rounds};
use super::event_matches::EventMatches;
use super::{Bracket, BracketMatch, StandingsOptions, TieBreak, TzdraftRow, TZDRAFT_TIEBREAKS};
use std::collections::{BTreeMap, HashMap};

/// The tree of a single elimination: its matches in their tournament rounds (the Round
/// tag's first part) when every match has one, else each match one round after the latest
/// round either player played in.
pub(super) fn tzdraft_bracket(matches: &EventMatches) -> Bracket {
    let name = |id: u32| matches.archive.name(id).to_string();
    let one = |n: usize| {
        let m = matches.summary(n, None);
        BracketMatch {
            number: n + 1,
            players: m.players.map(name),
            score: m.score,
            goals: m.goals,
            winner: m.winner.map(|w| name(m.players[w])),
            decided_after: m.decided_after,
        }
    };
    let rounds: Option<Vec<u32>> = (0..matches.len()).map(|n| matches.round_of(n)).collect();
    match rounds {
        Some(rounds) => {
            let mut by_round: BTreeMap<u32, Vec<BracketMatch>> = BTreeMap::new();
            for (n, round) in rounds.into_iter().enumerate() {
                by_round.entry(round).or_default().push(one(n));
            }
            bracket_in_rounds(by_round.into_values().collect())
        }
        None => bracket((0..matches.len()).map(one).collect()),
    }
}

/// A player's matches and games over the round robin.
#[derive(Default)]
struct Tally {
    won: u32,
    drawn: u32,
    lost: u32,
    unfinished: u32,
    games: [u32; 3],
}

/// The round-robin table: finished matches score `options.points`; ranked by match wins,
/// then points, then game difference, then a shared rank (listed by name).
pub(super) fn tzdraft_table(matches: &EventMatches, options: &StandingsOptions) -> Vec<TzdraftRow> {
    let mut tallies: HashMap<u32, Tally> = HashMap::new();
    for n in 0..matches.len() {
        let m = matches.summary(n, None);
        for side in 0..2 {
            let t = tallies.entry(m.players[side]).or_default();
            match m.winner {
                Some(w) if w == side => t.won += 1,
                Some(_) => t.lost += 1,
                None if m.drawn => t.drawn += 1,
                None => t.unfinished += 1,
            }
            t.games[0] += m.score[side];
            t.games[1] += m.draws;
            t.games[2] += m.score[1 - side];
        }
    }
    let p = options.points;
    let mut rows: Vec<TzdraftRow> = tallies
        .into_iter()
        .map(|(id, t)| TzdraftRow {
            rank: 0,
            name: matches.archive.name(id).to_string(),
            played: t.won + t.drawn + t.lost,
            won: t.won,
            drawn: t.drawn,
            lost: t.lost,
            unfinished: t.unfinished,
            games_won: t.games[0],
            games_drawn: t.games[1],
            games_lost: t.games[2],
            game_difference: i64::from(t.games[0]) - i64::from(t.games[2]),
            points: t.won * p.win + t.drawn * p.draw + t.lost * p.loss,
            tiebreak: None,
        })
        .collect();
    let keys = |r: &TzdraftRow| (r.won, r.points, r.game_difference);
    rows.sort_by(|a, b| keys(b).cmp(&keys(a)).then_with(|| a.name.cmp(&b.name)));
    for i in 0..rows.len() {
        let (rank, why) = match i.checked_sub(1).map(|j| (keys(&rows[j]), rows[j].rank)) {
            None => (1, None),
            Some((above, rank)) => {
                let here = keys(&rows[i]);
                if above.0 != here.0 {
                    (i + 1, Some(TZDRAFT_TIEBREAKS[0]))
                } else if above.1 != here.1 {
                    (i + 1, Some(TZDRAFT_TIEBREAKS[1]))
                } else if above.2 != here.2 {
                    (i + 1, Some(TZDRAFT_TIEBREAKS[2]))
                } else {
                    (rank, Some(TieBreak::Shared))
                }
            }
        };
        rows[i].rank = rank;
        rows[i].tiebreak = why;
    }
    rows
}
