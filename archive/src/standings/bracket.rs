//! The knock-out tree after the groups: its matches put in rounds, each match one round after
//! the latest round either player played in; rounds named from the end (`Final`,
//! `Semi-finals`, `Quarter-finals`, else `Round N`).

use super::{Bracket, BracketMatch, BracketRound};
use std::collections::HashMap;

/// The tree of the knock-out `matches` (in order of their first game); `players` of each
/// give where the rounds go.
pub(crate) fn bracket(matches: Vec<BracketMatch>) -> Bracket {
    let mut reached: HashMap<String, usize> = HashMap::new();
    let mut rounds: Vec<BracketRound> = Vec::new();
    for m in matches {
        let round = m
            .players
            .iter()
            .map(|p| reached.get(p).copied().unwrap_or(0))
            .max()
            .unwrap_or(0);
        for p in &m.players {
            reached.insert(p.clone(), round + 1);
        }
        if rounds.len() <= round {
            rounds.resize_with(round + 1, || BracketRound {
                name: String::new(),
                matches: Vec::new(),
            });
        }
        rounds[round].matches.push(m);
    }
    named(rounds)
}

/// The tree of matches already put in rounds (first to last, each in order of first game).
pub(crate) fn bracket_in_rounds(rounds: Vec<Vec<BracketMatch>>) -> Bracket {
    named(
        rounds
            .into_iter()
            .map(|matches| BracketRound {
                name: String::new(),
                matches,
            })
            .collect(),
    )
}

/// The rounds named from the end, and the champion: the winner of a final.
fn named(mut rounds: Vec<BracketRound>) -> Bracket {
    let last = rounds.len();
    for (i, r) in rounds.iter_mut().enumerate() {
        r.name = match (last - i, r.matches.len()) {
            (1, 1) => "Final".to_string(),
            (2, 2) => "Semi-finals".to_string(),
            (3, 4) => "Quarter-finals".to_string(),
            _ => format!("Round {}", i + 1),
        };
    }
    let champion = match rounds.last().map(|r| r.matches.as_slice()) {
        Some([only]) if rounds.last().is_some_and(|r| r.name == "Final") => only.winner.clone(),
        _ => None,
    };
    Bracket { rounds, champion }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(number: usize, a: &str, b: &str, winner: Option<&str>) -> BracketMatch {
        BracketMatch {
            number,
            players: [a.into(), b.into()],
            score: [0, 0],
            goals: [0, 0],
            winner: winner.map(Into::into),
            decided_after: None,
        }
    }

    #[test]
    fn rounds_follow_the_players_and_are_named_from_the_end() {
        let b = bracket(vec![
            m(1, "A1", "B2", Some("A1")),
            m(2, "B1", "A2", Some("A2")),
            m(3, "A1", "A2", Some("A2")),
        ]);
        let names: Vec<(&str, usize)> = b
            .rounds
            .iter()
            .map(|r| (r.name.as_str(), r.matches.len()))
            .collect();
        assert_eq!(names, [("Semi-finals", 2), ("Final", 1)]);
        assert_eq!(b.champion.as_deref(), Some("A2"));
        // Without its final, the tree has no champion and its rounds are numbered.
        let b = bracket(vec![m(1, "A1", "B2", None), m(2, "B1", "A2", Some("B1"))]);
        assert_eq!(b.rounds[0].name, "Round 1");
        assert_eq!(b.champion, None);
    }
}
