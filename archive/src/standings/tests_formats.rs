//! The championship formats on small hand-made archives: group stages, groups then a
//! knock-out, the tege tie-break, Swiss results. Worked out by hand in the comments.

use super::*;
use drafti_rules::Color;

/// A match's games between `a` and `b`: each char of `outcomes` is a game, `a` or `b` its
/// winner, `d` a draw, `*` unfinished. Colours swap every game; the starter follows the
/// laws (winner starts; after a draw the other player), so no start-order warnings.
fn games(event: &str, a: &str, b: &str, outcomes: &str, group: Option<&str>) -> Vec<GameSummary> {
    let mut starter = a;
    let mut out = Vec::new();
    for (k, o) in outcomes.chars().enumerate() {
        let (white, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
        let winner = match o {
            'a' => Some(a),
            'b' => Some(b),
            _ => None,
        };
        let result = match (o, winner) {
            ('*', _) => GameOutcome::Unfinished,
            (_, None) => GameOutcome::Draw,
            (_, Some(w)) if w == white => GameOutcome::WhiteWin,
            _ => GameOutcome::BlackWin,
        };
        out.push(GameSummary {
            file: "t.pdn".into(),
            game: 0,
            event: Some(event.into()),
            round: Some(format!("{}", k + 1)),
            date: None,
            white: Some(white.into()),
            black: Some(black.into()),
            result,
            result_warning: None,
            first_mover: Some(if starter == white {
                Color::White
            } else {
                Color::Black
            }),
            king_appeared: Some(true),
            group: group.map(Into::into),
            stage: None,
        });
        starter = winner.unwrap_or(if starter == a { b } else { a });
    }
    out
}

fn numbered(list: Vec<Vec<GameSummary>>) -> Vec<GameSummary> {
    let mut all: Vec<GameSummary> = list.into_iter().flatten().collect();
    for (i, g) in all.iter_mut().enumerate() {
        g.game = i + 1;
    }
    all
}

fn with_format(format: Format) -> StandingsOptions {
    StandingsOptions {
        format: Some(format),
        ..StandingsOptions::BASIC
    }
}

const TEGE: StandingsOptions = StandingsOptions {
    tiebreak: Tiebreak::Tege,
    ..StandingsOptions::BASIC
};

/// The one match of `outcomes` under `options`: status, winner, decided after.
fn one_match(
    outcomes: &str,
    options: &StandingsOptions,
    group: Option<&str>,
) -> (MatchStatus, Option<String>, Option<usize>, Option<String>) {
    let g = numbered(vec![games("E", "Amina", "Bakari", outcomes, group)]);
    let m = compute(&g, options).events.remove(0).matches.remove(0);
    (m.status, m.winner, m.decided_after, m.undecided_reason)
}

#[test]
fn a_group_match_is_two_games_and_a_level_score_is_a_draw() {
    let groups = with_format(Format::Groups);
    let drawn = (MatchStatus::Drawn, None, Some(2), None);
    assert_eq!(one_match("ab", &groups, None), drawn);
    assert_eq!(one_match("dd", &groups, None), drawn);
    // A 1-0 with a draw wins a group match (it would go to limboti in a knockout).
    assert_eq!(
        one_match("ad", &groups, None),
        (MatchStatus::Decided, Some("Amina".into()), Some(2), None)
    );
    assert_eq!(
        one_match("a", &groups, None).3.as_deref(),
        Some("1 game played; a match is two games")
    );
    // A third game is not counted, and said so.
    let g = numbered(vec![games("E", "Amina", "Bakari", "abb", None)]);
    let e = compute(&g, &groups).events.remove(0);
    assert_eq!(e.format, Format::Groups);
    assert_eq!(e.matches[0].status, MatchStatus::Drawn);
    assert_eq!(e.matches[0].games[2].stage, Some("extra"));
    assert!(!e.matches[0].games[2].counted);
    assert_eq!(e.warnings.len(), 1);
    assert_eq!(
        e.warnings[0].message,
        "t.pdn game 3 (round 3): played after the group match Amina – Bakari was drawn; not \
         counted"
    );
    // Not finished (game 1 has no result): a third game is still not counted.
    let g = numbered(vec![games("E", "Amina", "Bakari", "*ab", None)]);
    let e = compute(&g, &groups).events.remove(0);
    assert_eq!(e.matches[0].status, MatchStatus::Undecided);
    assert_eq!(
        e.warnings
            .iter()
            .map(|w| w.message.as_str())
            .collect::<Vec<_>>(),
        [
            "t.pdn game 3 (round 3): a group match is two games: this game of Amina – Bakari is \
          not counted"
        ]
    );
    let e = compute(
        &numbered(vec![games("E", "Amina", "Bakari", "abb", None)]),
        &groups,
    )
    .events
    .remove(0);
    // The players' totals count the drawn match.
    assert_eq!(e.players[0].matches_drawn, 1);
    // One group of everyone (`all`): 1 pt each, 1-1.
    let table = &e.groups.as_ref().unwrap()[0];
    assert_eq!(table.group, "all");
    assert_eq!(
        (table.rows[0].points, table.rows[1].tiebreak),
        (1, Some(TieBreak::Shared))
    );
}

#[test]
fn the_tege_tie_break_decides_at_two_four_eight_games_or_a_golden_goal() {
    // 2-0, and 1-0 with a draw: decided after the two games (the leader wins).
    assert_eq!(one_match("aa", &TEGE, None).2, Some(2));
    assert_eq!(one_match("da", &TEGE, None).1.as_deref(), Some("Amina"));
    // 1-1, then the tie-break games 1-0 with a draw: decided after 4.
    assert_eq!(
        one_match("abbd", &TEGE, None),
        (MatchStatus::Decided, Some("Bakari".into()), Some(4), None)
    );
    // 1-1, 1-1, then tege 2-1 with a draw: after 8.
    assert_eq!(
        one_match(concat!("ab", "ab", "bdab"), &TEGE, None).2,
        Some(8)
    );
    // Level after 8, a drawn golden-goal game, then Bakari scores: after 10.
    let (status, winner, after, _) = one_match(concat!("dd", "ab", "abab", "db"), &TEGE, None);
    assert_eq!(
        (status, winner.as_deref(), after),
        (MatchStatus::Decided, Some("Bakari"), Some(10))
    );
    // Under way: what must follow.
    assert_eq!(
        one_match("ab", &TEGE, None).3.as_deref(),
        Some("1-1 after 2 games: two tie-break games must follow")
    );
    assert_eq!(
        one_match("ababab", &TEGE, None).3.as_deref(),
        Some("3-3 after 6 games: the four tege games must be played out")
    );
    assert_eq!(
        one_match("ababdddd", &TEGE, None).3.as_deref(),
        Some("2-2 after 8 games: a golden goal must follow: the next won game decides")
    );
    // The stages are written on the games; the article's limboti have none.
    let g = numbered(vec![games("E", "Amina", "Bakari", "ababababa", None)]);
    let m = compute(&g, &TEGE).events.remove(0).matches.remove(0);
    let stages: Vec<Option<&str>> = m.games.iter().map(|g| g.stage).collect();
    assert_eq!(
        stages,
        [
            None,
            None,
            Some("tie-break"),
            Some("tie-break"),
            Some("tege"),
            Some("tege"),
            Some("tege"),
            Some("tege"),
            Some("golden goal")
        ]
    );
    assert_eq!(m.law, MatchLaw::Tege);
    let m = compute(&g, &StandingsOptions::BASIC)
        .events
        .remove(0)
        .matches
        .remove(0);
    assert_eq!((m.decided_after, m.games[2].stage), (Some(3), None));
}

#[test]
fn groups_then_a_knock_out_with_its_tree_and_champion() {
    // Group A: Amina beats Bakari 2-0; Group B: Chausiku and Daudi draw 1-1 (shared first).
    // Knock-out (players of different groups): Amina beats Daudi 2-0 and Chausiku beats
    // Bakari 2-0 (round 1), then the final Amina – Chausiku, Chausiku wins 2-0.
    let g = numbered(vec![
        games("Cup", "Amina", "Bakari", "aa", None),
        games("Cup", "Chausiku", "Daudi", "ab", None),
        games("Cup", "Amina", "Daudi", "aa", None),
        games("Cup", "Chausiku", "Bakari", "aa", None),
        games("Cup", "Amina", "Chausiku", "bb", None),
    ]);
    let groups = Groups::parse("Group A: Amina, Bakari\nGroup B: Chausiku, Daudi\n", "g").unwrap();
    let s = compute_with_groups(&g, &with_format(Format::GroupsKnockout), Some(groups));
    let e = &s.events[0];
    assert_eq!(e.format, Format::GroupsKnockout);
    let tables = e.groups.as_ref().unwrap();
    let a: Vec<(&str, u32, bool)> = tables[0]
        .rows
        .iter()
        .map(|r| (r.name.as_str(), r.points, r.qualified))
        .collect();
    assert_eq!(a, [("Amina", 3, true), ("Bakari", 0, true)]);
    assert_eq!(tables[1].rows[1].tiebreak, Some(TieBreak::Shared));
    let b = e.bracket.as_ref().unwrap();
    let rounds: Vec<(&str, Vec<usize>)> = b
        .rounds
        .iter()
        .map(|r| {
            (
                r.name.as_str(),
                r.matches.iter().map(|m| m.number).collect(),
            )
        })
        .collect();
    assert_eq!(rounds, [("Semi-finals", vec![3, 4]), ("Final", vec![5])]);
    assert_eq!(b.champion.as_deref(), Some("Chausiku"));
    let rules = e.table_rules.as_ref().unwrap();
    assert_eq!((rules.qualifiers, rules.points.win), (2, 3));
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
}

#[test]
fn groups_from_tags_and_a_conflicting_tag() {
    // Group tags put Amina and Bakari in A, Chausiku and Daudi in B; a later game tags
    // Amina – Chausiku as group B: it is a knock-out match (different groups) and the tag is
    // a group_conflict for Amina (Chausiku is in B already).
    let g = numbered(vec![
        games("L", "Amina", "Bakari", "aa", Some("A")),
        games("L", "Chausiku", "Daudi", "aa", Some("B")),
        games("L", "Amina", "Chausiku", "aa", Some("B")),
    ]);
    let e = compute(&g, &with_format(Format::Groups)).events.remove(0);
    let names: Vec<&str> = e
        .groups
        .as_ref()
        .unwrap()
        .iter()
        .map(|t| t.group.as_str())
        .collect();
    assert_eq!(names, ["A", "B"]);
    assert_eq!(e.matches[2].law, MatchLaw::Limboti);
    assert_eq!(
        e.warnings.iter().map(|w| w.kind).collect::<Vec<_>>(),
        [WarningKind::GroupConflict, WarningKind::GroupConflict]
    );
    assert!(e.warnings[0].message.contains(
        "the Group tag puts Amina in group B, but an earlier game put them in group A; group A \
         is kept"
    ));
    // Without a format the tags make the groups, and say so.
    let e = compute(&g, &StandingsOptions::BASIC).events.remove(0);
    assert_eq!(e.format, Format::GroupsKnockout);
    assert_eq!(e.recognised.as_deref(), Some("the players are in groups"));
    // The article's matches read no groups: no tables, no group warnings.
    let e = compute(&g, &with_format(Format::Matches)).events.remove(0);
    assert!(e.groups.is_none() && e.warnings.is_empty());
}

#[test]
fn swiss_points_buchholz_and_cut_one() {
    // Y beats A and Z; A beats X; B draws P and Q; P draws Q. Points: Y 2; A, B, P, Q 1;
    // X, Z 0. Buchholz: A = X 0 + Y 2 = 2, cut-1 2; B = P 1 + Q 1 = 2, cut-1 1; P = B 1 +
    // Q 1 = 2, cut-1 1 (as Q): B, P, Q share 3rd. Z (Buchholz 2, Y) before X (1, A).
    let one = |w: &str, b: &str, r: &str| games("Open", w, b, r, None);
    let g = numbered(vec![
        one("Y", "A", "a"),
        one("Y", "Z", "a"),
        one("A", "X", "a"),
        one("B", "P", "d"),
        one("B", "Q", "d"),
        one("P", "Q", "d"),
    ]);
    let e = compute(&g, &with_format(Format::Swiss)).events.remove(0);
    assert_eq!(e.format, Format::Swiss);
    assert!(e.matches.is_empty());
    let rows: Vec<(usize, &str, String, String, Option<TieBreak>)> = e
        .swiss
        .as_ref()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r.rank,
                r.name.as_str(),
                r.buchholz.unwrap().to_string(),
                r.buchholz_cut1.unwrap().to_string(),
                r.tiebreak,
            )
        })
        .collect();
    use TieBreak::*;
    assert_eq!(
        rows,
        [
            (1, "Y", "1".into(), "1".into(), None),
            (2, "A", "2".into(), "2".into(), Some(Points)),
            (3, "B", "2".into(), "1".into(), Some(BuchholzCut1)),
            (3, "P", "2".into(), "1".into(), Some(Shared)),
            (3, "Q", "2".into(), "1".into(), Some(Shared)),
            (6, "Z", "2".into(), "0".into(), Some(Points)),
            (7, "X", "1".into(), "0".into(), Some(Buchholz)),
        ]
    );
    let p = &e.swiss.as_ref().unwrap()[3];
    assert_eq!((p.games, p.drawn, p.points), (2, 2, HalfPoints(2)));
}
