//! A group's football table: match points, games played, won, drawn, lost, goals for and
//! against, goal difference, ranked by points, goal difference, goals for, then head to head
//! (the mini-table of the matches among the tied players: its points, goal difference and
//! goals for), then a shared rank. Every tied set's mini-table comes from one pass over the
//! matches: a table is n log n in its players whatever the ties.

use super::{GroupTable, MatchPoints, TableRow, TieBreak};
use std::cmp::Reverse;

/// A finished group match, for the table: the players as indices into the group's members.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Played {
    pub(crate) players: [usize; 2],
    pub(crate) goals: [u32; 2],
    /// The winning side; `None` for a drawn match.
    pub(crate) winner: Option<usize>,
}

/// Points, goal difference and goals for of `count` players (indices) over the matches
/// `counted` keeps (by its two players).
fn totals(
    count: usize,
    matches: &[Played],
    points: &MatchPoints,
    counted: impl Fn(usize, usize) -> bool,
) -> Vec<TableRow> {
    let mut rows = vec![TableRow::default(); count];
    for m in matches {
        if !counted(m.players[0], m.players[1]) {
            continue;
        }
        for side in 0..2 {
            let r = &mut rows[m.players[side]];
            r.played += 1;
            r.goals_for += m.goals[side];
            r.goals_against += m.goals[1 - side];
            match m.winner {
                Some(w) if w == side => {
                    r.won += 1;
                    r.points += points.win;
                }
                Some(_) => {
                    r.lost += 1;
                    r.points += points.loss;
                }
                None => {
                    r.drawn += 1;
                    r.points += points.draw;
                }
            }
        }
    }
    for r in &mut rows {
        r.goal_difference = i64::from(r.goals_for) - i64::from(r.goals_against);
    }
    rows
}

/// The first three keys: points, goal difference, goals for (better first).
fn key(r: &TableRow) -> (Reverse<u32>, Reverse<i64>, Reverse<u32>) {
    (
        Reverse(r.points),
        Reverse(r.goal_difference),
        Reverse(r.goals_for),
    )
}

/// The table of the group `name` with players `members` (names) and its finished matches.
pub(crate) fn group_table(
    name: &str,
    members: &[String],
    matches: &[Played],
    points: &MatchPoints,
    qualifiers: usize,
) -> GroupTable {
    let mut rows = totals(members.len(), matches, points, |_, _| true);
    for (r, m) in rows.iter_mut().zip(members) {
        r.name = m.clone();
    }
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| key(&rows[a]).cmp(&key(&rows[b])));
    // The runs of players level on the three keys: each player's run (its start in `order`).
    let mut run = vec![0usize; rows.len()];
    let mut runs: Vec<(usize, usize)> = Vec::new();
    let mut start = 0;
    while start < order.len() {
        let mut end = start + 1;
        while end < order.len() && key(&rows[order[end]]) == key(&rows[order[start]]) {
            end += 1;
        }
        for &p in &order[start..end] {
            run[p] = start;
        }
        if end - start > 1 {
            runs.push((start, end));
        }
        start = end;
    }
    // Every run's mini-table at once: the matches between two players of one run.
    let mini = totals(rows.len(), matches, points, |a, b| run[a] == run[b]);
    let h2h: Vec<_> = mini.iter().map(key).collect();
    for (start, end) in runs {
        order[start..end]
            .sort_by(|&a, &b| h2h[a].cmp(&h2h[b]).then(rows[a].name.cmp(&rows[b].name)));
    }
    let mut ranked: Vec<TableRow> = Vec::with_capacity(rows.len());
    for (i, &at) in order.iter().enumerate() {
        let mut row = rows[at].clone();
        row.rank = i + 1;
        if i > 0 {
            let (prev, above) = (order[i - 1], &rows[order[i - 1]]);
            row.tiebreak = Some(if above.points != row.points {
                TieBreak::Points
            } else if above.goal_difference != row.goal_difference {
                TieBreak::GoalDifference
            } else if above.goals_for != row.goals_for {
                TieBreak::GoalsFor
            } else if h2h[prev] != h2h[at] {
                TieBreak::HeadToHead
            } else {
                row.rank = ranked[i - 1].rank;
                TieBreak::Shared
            });
        }
        row.qualified = i < qualifiers;
        ranked.push(row);
    }
    let tie_at_cut = ranked
        .get(qualifiers)
        .is_some_and(|r| qualifiers > 0 && r.tiebreak == Some(TieBreak::Shared));
    if tie_at_cut {
        // The players sharing the last qualifying place: the table cannot say who goes.
        let shared = ranked[qualifiers].rank;
        for r in ranked.iter_mut().filter(|r| r.rank == shared) {
            r.qualified = false;
        }
    }
    let n = members.len() as u32;
    GroupTable {
        group: name.to_string(),
        rows: ranked,
        matches_played: matches.len() as u32,
        matches_scheduled: n * n.saturating_sub(1) / 2,
        tie_at_cut,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// A match `a` v `b` with goals `ga`-`gb`; the winner by goals, level is a draw.
    fn m(a: usize, b: usize, ga: u32, gb: u32) -> Played {
        Played {
            players: [a, b],
            goals: [ga, gb],
            winner: match ga.cmp(&gb) {
                std::cmp::Ordering::Greater => Some(0),
                std::cmp::Ordering::Less => Some(1),
                std::cmp::Ordering::Equal => None,
            },
        }
    }

    fn order(t: &GroupTable) -> Vec<(usize, &str, Option<TieBreak>)> {
        t.rows
            .iter()
            .map(|r| (r.rank, r.name.as_str(), r.tiebreak))
            .collect()
    }

    #[test]
    fn points_then_goal_difference_then_goals_for() {
        use TieBreak::*;
        let p = MatchPoints::default();
        // A beats B 2-0, C 2-1, D 1-0 (9 pts); B beats C and D 2-0 (6); C beats D 2-0 (3).
        let t = group_table(
            "A",
            &names(&["A", "B", "C", "D"]),
            &[
                m(0, 1, 2, 0),
                m(0, 2, 2, 1),
                m(0, 3, 1, 0),
                m(1, 2, 2, 0),
                m(1, 3, 2, 0),
                m(2, 3, 2, 0),
            ],
            &p,
            2,
        );
        assert_eq!(
            order(&t),
            [
                (1, "A", None),
                (2, "B", Some(Points)),
                (3, "C", Some(Points)),
                (4, "D", Some(Points))
            ]
        );
        assert_eq!((t.rows[1].goal_difference, t.rows[1].points), (2, 6));
        assert!(t.rows[1].qualified && !t.rows[2].qualified && !t.tie_at_cut);
        // B beats D 2-0, C beats D 2-1, B and C draw 1-1: both 4 pts; B +2, C +1.
        let t = group_table(
            "A",
            &names(&["B", "C", "D"]),
            &[m(0, 2, 2, 0), m(1, 2, 2, 1), m(0, 1, 1, 1)],
            &p,
            2,
        );
        assert_eq!(
            order(&t)[..2],
            [(1, "B", None), (2, "C", Some(GoalDifference))]
        );
        // B beats D 2-1, C beats D 1-0, B and C draw 1-1: both 4 pts and +1; B 3 goals, C 2.
        let t = group_table(
            "A",
            &names(&["B", "C", "D"]),
            &[m(0, 2, 2, 1), m(1, 2, 1, 0), m(0, 1, 1, 1)],
            &p,
            2,
        );
        assert_eq!(order(&t)[..2], [(1, "B", None), (2, "C", Some(GoalsFor))]);
    }

    #[test]
    fn head_to_head_between_two() {
        use TieBreak::*;
        // B beats C 2-1, D beats B 1-0, C beats D 1-0: all 3 pts and GD 0; B and C score 2,
        // D 1. B and C are level on the three keys; B won their match.
        let t = group_table(
            "A",
            &names(&["B", "C", "D"]),
            &[m(0, 1, 2, 1), m(2, 0, 1, 0), m(1, 2, 1, 0)],
            &MatchPoints::default(),
            1,
        );
        assert_eq!(
            order(&t),
            [
                (1, "B", None),
                (2, "C", Some(HeadToHead)),
                (3, "D", Some(GoalsFor))
            ]
        );
    }

    #[test]
    fn the_mini_table_of_three_then_a_shared_rank() {
        use TieBreak::*;
        // B beats C 2-1, C beats D 2-1, D beats B 1-0, and each beats X (B 2-1, C 1-0,
        // D 2-1): B, C and D have 6 pts, 4-3 each. Among the three: 3 pts each, GD 0, goals
        // for B 2, C 3, D 2: C first by head to head; B and D equal on everything: shared.
        let t = group_table(
            "A",
            &names(&["B", "C", "D", "X"]),
            &[
                m(0, 1, 2, 1),
                m(1, 2, 2, 1),
                m(2, 0, 1, 0),
                m(0, 3, 2, 1),
                m(1, 3, 1, 0),
                m(2, 3, 2, 1),
            ],
            &MatchPoints::default(),
            2,
        );
        assert_eq!(
            order(&t),
            [
                (1, "C", None),
                (2, "B", Some(HeadToHead)),
                (2, "D", Some(Shared)),
                (4, "X", Some(Points))
            ]
        );
        assert!(t.tie_at_cut, "the second place is shared by B and D");
        let qualified: Vec<bool> = t.rows.iter().map(|r| r.qualified).collect();
        assert_eq!(qualified, [true, false, false, false]);
        let c = &t.rows[0];
        assert_eq!((c.points, c.goals_for, c.goal_difference), (6, 4, 1));
        assert_eq!((t.matches_played, t.matches_scheduled), (6, 6));
        // A cycle of 1-0 wins among B, C, D (each beats X 1-0): nothing separates them.
        let t = group_table(
            "A",
            &names(&["X", "B", "C", "D"]),
            &[
                m(1, 3, 1, 0),
                m(2, 1, 1, 0),
                m(3, 2, 1, 0),
                m(1, 0, 1, 0),
                m(2, 0, 1, 0),
                m(3, 0, 1, 0),
            ],
            &MatchPoints::default(),
            2,
        );
        assert_eq!(
            order(&t),
            [
                (1, "B", None),
                (1, "C", Some(Shared)),
                (1, "D", Some(Shared)),
                (4, "X", Some(Points))
            ]
        );
    }

    #[test]
    fn points_are_configurable() {
        // Win 2, draw 1: A beats B 1-0 and draws C 0-0 (3); B and C draw 1-1 (B 1, C 2).
        let p = MatchPoints {
            win: 2,
            draw: 1,
            loss: 0,
        };
        let t = group_table(
            "G",
            &names(&["A", "B", "C"]),
            &[m(0, 1, 1, 0), m(1, 2, 1, 1), m(0, 2, 0, 0)],
            &p,
            2,
        );
        let pts: Vec<(&str, u32)> = t.rows.iter().map(|r| (r.name.as_str(), r.points)).collect();
        assert_eq!(pts, [("A", 3), ("C", 2), ("B", 1)]);
    }
}
