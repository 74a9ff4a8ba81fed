//! TzDraft's tournaments (`Format::Tzdraft`) on small hand-made archives: every match-ending
//! rule game by game, matches told apart by tournament round, the round robin's table.

use super::*;

/// A match between Amina and Bakari in tournament round `round`: each char of `outcomes` is
/// a game, `a` or `b` its winner, `d` a draw, `*` unfinished; colours alternate.
fn games(a: &str, b: &str, round: u32, outcomes: &str) -> Vec<GameSummary> {
    outcomes
        .chars()
        .enumerate()
        .map(|(k, o)| {
            let (white, black) = if k % 2 == 0 { (a, b) } else { (b, a) };
            let result = match o {
                '*' => GameOutcome::Unfinished,
                'd' => GameOutcome::Draw,
                'a' if white == a => GameOutcome::WhiteWin,
                'b' if white == b => GameOutcome::WhiteWin,
                _ => GameOutcome::BlackWin,
            };
            GameSummary {
                file: "t.pdn".into(),
                game: 0,
                event: Some("Ligi".into()),
                round: Some(format!("{round}.{}", k + 1)),
                date: None,
                white: Some(white.into()),
                black: Some(black.into()),
                result,
                result_warning: None,
                first_mover: None,
                king_appeared: Some(true),
                group: None,
                stage: None,
            }
        })
        .collect()
}

fn numbered(list: Vec<Vec<GameSummary>>) -> Vec<GameSummary> {
    let mut all: Vec<GameSummary> = list.into_iter().flatten().collect();
    for (i, g) in all.iter_mut().enumerate() {
        g.game = i + 1;
    }
    all
}

const TZDRAFT: StandingsOptions = StandingsOptions {
    format: Some(Format::Tzdraft),
    ..StandingsOptions::BASIC
};

/// The one match of `outcomes`: its winner (`-` undecided) and after how many games, and how
/// many games it counted.
fn decide(outcomes: &str) -> (String, Option<usize>, usize) {
    let g = numbered(vec![games("Amina", "Bakari", 1, outcomes)]);
    let e = compute(&g, &TZDRAFT).events.remove(0);
    let m = &e.matches[0];
    let counted = m.games.iter().filter(|g| g.counted).count();
    (
        m.winner.clone().unwrap_or_else(|| "-".into()),
        m.decided_after,
        counted,
    )
}

#[test]
fn two_losses_in_a_row_end_a_match() {
    assert_eq!(decide("aa"), ("Amina".into(), Some(2), 2));
    assert_eq!(decide("bb"), ("Bakari".into(), Some(2), 2));
    // A game after the end is listed, not counted.
    assert_eq!(decide("aab"), ("Amina".into(), Some(2), 2));
    // One loss each: not yet.
    assert_eq!(decide("ab"), ("-".into(), None, 2));
}

#[test]
fn from_the_third_game_a_leader_ends_a_match() {
    assert_eq!(decide("aba"), ("Amina".into(), Some(3), 3));
    assert_eq!(decide("bab"), ("Bakari".into(), Some(3), 3));
    // A leader after two games is not enough: the third game decides.
    assert_eq!(decide("ad"), ("-".into(), None, 2));
    assert_eq!(decide("add"), ("Amina".into(), Some(3), 3));
    // Level after three: extra games until someone leads.
    assert_eq!(decide("abdd"), ("-".into(), None, 4));
    assert_eq!(decide("abddb"), ("Bakari".into(), Some(5), 5));
}

#[test]
fn a_draw_never_ends_a_match_and_breaks_a_run_of_losses() {
    assert_eq!(decide("ddd"), ("-".into(), None, 3));
    assert_eq!(decide("dddddd"), ("-".into(), None, 6));
    // D then two wins: two losses in a row, after three games.
    assert_eq!(decide("dbb"), ("Bakari".into(), Some(3), 3));
    // A draw between two losses: no run, but a leader after the third game.
    assert_eq!(decide("bdb"), ("Bakari".into(), Some(3), 3));
}

#[test]
fn an_unfinished_game_stops_the_match_and_games_running_out_are_warned() {
    let g = numbered(vec![games("Amina", "Bakari", 1, "a*a")]);
    let e = compute(&g, &TZDRAFT).events.remove(0);
    assert_eq!(e.matches[0].status, MatchStatus::Undecided);
    assert_eq!(
        e.matches[0].undecided_reason.as_deref(),
        Some("game 2 of the match has no result")
    );
    assert_eq!(e.warnings.len(), 1);
    assert_eq!(e.warnings[0].kind, WarningKind::UnfinishedMatch);
    assert!(!WarningKind::UnfinishedMatch.is_violation());
    assert_eq!(e.warnings[0].games.len(), 3);
}

#[test]
fn a_pair_meeting_in_two_rounds_plays_two_matches() {
    // Amina and Bakari meet in rounds 1 and 4: two matches, one won by each.
    let g = numbered(vec![
        games("Amina", "Bakari", 1, "aa"),
        games("Amina", "Chausiku", 2, "bb"),
        games("Bakari", "Chausiku", 3, "aba"),
        games("Amina", "Bakari", 4, "bb"),
    ]);
    let e = compute(&g, &TZDRAFT).events.remove(0);
    assert_eq!(e.matches.len(), 4);
    assert_eq!(e.matches[0].winner.as_deref(), Some("Amina"));
    assert_eq!(e.matches[3].winner.as_deref(), Some("Bakari"));
    let t = e.tzdraft.expect("tzdraft");
    assert_eq!(t.kind, TzdraftKind::RoundRobin);
    let rows: Vec<(usize, &str, u32, u32, Option<TieBreak>)> = t
        .table
        .as_ref()
        .expect("table")
        .iter()
        .map(|r| (r.rank, r.name.as_str(), r.won, r.points, r.tiebreak))
        .collect();
    // Bakari 2 match wins (6 points); Chausiku and Amina 1 (3), told apart by games:
    // Chausiku 3 won 2 lost (+1), Amina 2 won 4 lost (-2).
    assert_eq!(
        rows,
        [
            (1, "Bakari", 2, 6, None),
            (2, "Chausiku", 1, 3, Some(TieBreak::MatchWins)),
            (3, "Amina", 1, 3, Some(TieBreak::GameDifference)),
        ]
    );
}

#[test]
fn a_single_elimination_without_round_tags_is_put_in_rounds_by_its_players() {
    let mut g = numbered(vec![
        games("A", "B", 1, "aa"),
        games("C", "D", 1, "bb"),
        games("A", "D", 2, "ab*"),
    ]);
    for game in &mut g {
        game.round = None;
    }
    let e = compute(&g, &TZDRAFT).events.remove(0);
    let t = e.tzdraft.expect("tzdraft");
    assert_eq!(t.kind, TzdraftKind::SingleElimination);
    assert_eq!(t.still_in, Some(vec!["A".to_string(), "D".to_string()]));
    let b = e.bracket.expect("bracket");
    let names: Vec<&str> = b.rounds.iter().map(|r| r.name.as_str()).collect();
    assert_eq!(names, ["Semi-finals", "Final"]);
    assert_eq!(b.champion, None);
}
