//! Standings of small hand-made archives, worked out by hand in the comments.

use super::*;
use drafti_rules::Color;

const NO_OPTIONS: StandingsOptions = StandingsOptions::BASIC;
const SUPA: StandingsOptions = StandingsOptions {
    supa: true,
    ..StandingsOptions::BASIC
};

/// One game: `starter` is the player who made the first move ("" for a game without moves);
/// `result` as written; `king` whether a king appeared.
fn game(
    event: &str,
    round: &str,
    white: &str,
    black: &str,
    result: &str,
    starter: &str,
    king: bool,
) -> GameSummary {
    let result = match result {
        "1-0" => GameOutcome::WhiteWin,
        "0-1" => GameOutcome::BlackWin,
        "1/2-1/2" => GameOutcome::Draw,
        "0-0" => GameOutcome::NoWinner,
        _ => GameOutcome::Unfinished,
    };
    let first_mover = if starter == white {
        Some(Color::White)
    } else if starter == black {
        Some(Color::Black)
    } else {
        None
    };
    GameSummary {
        file: "t.pdn".into(),
        game: 0,
        event: Some(event.into()),
        round: Some(round.into()),
        date: None,
        white: Some(white.into()),
        black: Some(black.into()),
        result,
        result_warning: None,
        first_mover: first_mover.filter(|_| !starter.is_empty()),
        king_appeared: first_mover.map(|_| king),
        group: None,
        stage: None,
    }
}

/// Numbers the games 1, 2, … as a file would.
fn numbered(mut games: Vec<GameSummary>) -> Vec<GameSummary> {
    for (i, g) in games.iter_mut().enumerate() {
        g.game = i + 1;
    }
    games
}

fn kinds(e: &EventStandings) -> Vec<WarningKind> {
    e.warnings.iter().map(|w| w.kind).collect()
}

#[test]
fn two_nil_match_is_decided_after_two_games() {
    // Amina wins game 1 (she starts it, as anyone may) and so starts game 2 and wins it too:
    // 2-0 after two games, decided, no limboti, 2 goals, no warnings.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "2", "Bakari", "Amina", "0-1", "Amina", true),
    ]);
    let s = compute(&games, &NO_OPTIONS);
    let e = &s.events[0];
    assert_eq!(e.format, Format::Matches);
    assert!(e.knockout.is_none());
    let m = &e.matches[0];
    assert_eq!(m.players, ["Amina".to_string(), "Bakari".to_string()]);
    assert_eq!(m.status, MatchStatus::Decided);
    assert_eq!(m.score, [2, 0]);
    assert_eq!(m.goals, [2, 0]);
    assert_eq!(m.winner.as_deref(), Some("Amina"));
    assert_eq!(m.loser.as_deref(), Some("Bakari"));
    assert_eq!(m.decided_after, Some(2));
    assert_eq!(m.limboti, 0);
    assert!(e.warnings.is_empty());
    assert!(!s.has_violations());
    let amina = &e.players[0];
    assert_eq!(
        (amina.name.as_str(), amina.matches_won, amina.games_won),
        ("Amina", 1, 2)
    );
}

#[test]
fn one_all_goes_to_limboti_and_the_first_won_limboti_decides() {
    // g1 Amina wins (Amina started); g2 Amina starts (winner starts), Bakari wins: 1-1 after
    // two games, so limboti. g3 Bakari starts (he won g2), drawn. g4: the player who did not
    // start the drawn g3 starts: Amina; she wins g4 -> Amina wins the match after 4 games,
    // score 2-1 with 1 draw, 2 limboti games; no warnings.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "2", "Bakari", "Amina", "1-0", "Amina", true),
        game("Club", "3", "Amina", "Bakari", "1/2-1/2", "Bakari", true),
        game("Club", "4", "Bakari", "Amina", "0-1", "Amina", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    let m = &e.matches[0];
    assert_eq!(m.status, MatchStatus::Decided);
    assert_eq!(m.winner.as_deref(), Some("Amina"));
    assert_eq!(m.score, [2, 1]);
    assert_eq!(m.draws, 1);
    assert_eq!(m.limboti, 2);
    assert_eq!(m.decided_after, Some(4));
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    // After only the first three games the match is undecided.
    let e = &compute(&games[..3], &NO_OPTIONS).events[0];
    assert_eq!(e.matches[0].status, MatchStatus::Undecided);
    assert_eq!(
        e.matches[0].undecided_reason.as_deref(),
        Some("1-1 after two games and 1 limboti, none won yet")
    );
}

#[test]
fn a_one_nil_lead_is_not_a_match_win_and_the_limboti_winner_takes_it() {
    // g1 Amina wins; g2 drawn (Amina started it, correctly) -> 1-0 after two games: not
    // decided (the article lists 1-0 among the limboti scores). g3: Bakari starts (Amina
    // started the drawn g2) and wins -> Bakari wins the match (sudden death), score 1-1.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "2", "Amina", "Bakari", "1/2-1/2", "Amina", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert_eq!(e.matches[0].status, MatchStatus::Undecided);
    assert_eq!(
        e.matches[0].undecided_reason.as_deref(),
        Some("1-0 after two games: limboti must follow")
    );
    let mut games = games;
    games.push(game("Club", "3", "Amina", "Bakari", "0-1", "Bakari", true));
    let e = &compute(&numbered(games), &NO_OPTIONS).events[0];
    let m = &e.matches[0];
    assert_eq!(m.winner.as_deref(), Some("Bakari"));
    assert_eq!(m.score, [1, 1]);
    assert_eq!(m.decided_after, Some(3));
    assert!(e.warnings.is_empty());
}

#[test]
fn after_a_draw_the_player_who_did_not_start_it_starts() {
    // g1 drawn, Amina (White) started it -> Bakari must start g2: he does (a Black-first
    // game, Bakari is Black) and wins. 0-1 after two games: undecided, no warnings.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1/2-1/2", "Amina", true),
        game("Club", "2", "Amina", "Bakari", "0-1", "Bakari", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert!(e.warnings.is_empty());
    assert_eq!(e.matches[0].games[1].started_by.as_deref(), Some("Bakari"));
    assert_eq!(e.matches[0].games[1].first_mover, Some(Side::Black));
    // Had Amina started g2 as well, that breaks the law.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1/2-1/2", "Amina", true),
        game("Club", "2", "Amina", "Bakari", "0-1", "Amina", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert_eq!(kinds(e), [WarningKind::StartOrder]);
    assert!(e.warnings[0]
        .message
        .contains("Amina started, but Bakari should have"));
}

#[test]
fn a_start_order_violation_names_both_games() {
    // g1 Amina wins -> Amina must start g2, but Bakari (White in g2) made the first move.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "2", "Bakari", "Amina", "0-1", "Bakari", true),
    ]);
    let s = compute(&games, &NO_OPTIONS);
    let e = &s.events[0];
    assert_eq!(kinds(e), [WarningKind::StartOrder]);
    let w = &e.warnings[0];
    assert_eq!(
        w.games.iter().map(|g| g.game).collect::<Vec<_>>(),
        [1, 2],
        "the game that set the rule and the game that broke it"
    );
    assert_eq!(
        w.message,
        "t.pdn game 2 (round 2): Bakari started, but Amina should have: Amina won the \
         previous game and the winner starts (t.pdn game 1 (round 1))"
    );
    assert!(s.has_violations());
    // The violation does not change the result: Amina still won 2-0.
    assert_eq!(e.matches[0].winner.as_deref(), Some("Amina"));
}

#[test]
fn loser_starts_house_rule() {
    // Same games: with --loser-starts, Bakari (who lost g1) must start g2, and he did.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "2", "Bakari", "Amina", "0-1", "Bakari", true),
    ]);
    let options = StandingsOptions {
        loser_starts: true,
        ..NO_OPTIONS
    };
    assert!(compute(&games, &options).events[0].warnings.is_empty());
    // The draw rule is unchanged by the house rule.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1/2-1/2", "Amina", true),
        game("Club", "2", "Amina", "Bakari", "1-0", "Amina", true),
    ]);
    assert_eq!(
        kinds(&compute(&games, &options).events[0]),
        [WarningKind::StartOrder]
    );
}

#[test]
fn swapped_colours_house_rule() {
    // g1 Amina (White) wins; in g2 the colours are swapped, Amina starts (as winner) with
    // Black and Bakari wins; g3, the limboti after 1-1, keeps g2's colours: a colour_order
    // warning, but only with the rule. Start order is kept throughout.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "2", "Bakari", "Amina", "1-0", "Amina", true),
        game("Club", "3", "Bakari", "Amina", "0-1", "Bakari", true),
    ]);
    assert!(compute(&games, &NO_OPTIONS).events[0].warnings.is_empty());
    let options = StandingsOptions {
        swap_colours: true,
        ..NO_OPTIONS
    };
    let event = &compute(&games, &options).events[0];
    assert_eq!(kinds(event), [WarningKind::ColourOrder]);
    let warning = &event.warnings[0];
    assert!(
        warning.message.contains("Bakari has White again")
            && warning.message.contains("Amina should have White"),
        "{}",
        warning.message
    );
    assert_eq!(warning.games.len(), 2);
    // The match itself is unchanged: 1-1, then Amina wins the limboti.
    assert_eq!(event.matches[0].winner.as_deref(), Some("Amina"));
}

#[test]
fn a_supa_win_counts_twelve_goals_only_with_supa() {
    // g1 Amina wins with no king ever on the board (supa); g2 Amina wins but a king
    // appeared. With --supa: 12 + 1 = 13 goals; without: 1 + 1 = 2. The match is 2-0 both
    // ways (goals never decide a match).
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", false),
        game("Club", "2", "Bakari", "Amina", "0-1", "Amina", true),
    ]);
    let with = compute(&games, &SUPA);
    let m = &with.events[0].matches[0];
    assert_eq!(m.goals, [13, 0]);
    assert_eq!(m.score, [2, 0]);
    assert_eq!((m.games[0].supa, m.games[0].goals), (true, 12));
    assert_eq!((m.games[1].supa, m.games[1].goals), (false, 1));
    assert_eq!(with.events[0].players[0].supa_wins, 1);
    let without = compute(&games, &NO_OPTIONS);
    assert_eq!(without.events[0].matches[0].goals, [2, 0]);
    assert_eq!(without.events[0].players[0].supa_wins, 1);
}

#[test]
fn a_game_without_moves_is_never_supa_and_its_starter_is_unknown() {
    // g1 Amina wins; g2 Amina wins by forfeit, no moves: not supa (no moves show the king
    // history), 1 goal even with --supa; the start-order law cannot be checked (a note, not
    // a violation).
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", false),
        game("Club", "2", "Amina", "Bakari", "1-0", "", false),
    ]);
    let s = compute(&games, &SUPA);
    let e = &s.events[0];
    assert_eq!(e.matches[0].goals, [13, 0]);
    assert_eq!(kinds(e), [WarningKind::StartUnknown]);
    assert!(!s.has_violations());
}

#[test]
fn an_unfinished_game_keeps_the_match_undecided() {
    // g1 Amina wins, g2 `*`, g3 Amina wins: g2 has no result, so the match stays
    // undecided; the score still shows 2-0 with 1 unfinished.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "2", "Amina", "Bakari", "*", "Amina", true),
        game("Club", "3", "Amina", "Bakari", "1-0", "Amina", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    let m = &e.matches[0];
    assert_eq!(m.status, MatchStatus::Undecided);
    assert_eq!((m.score, m.unfinished), ([2, 0], 1));
    assert_eq!(
        m.undecided_reason.as_deref(),
        Some("game 2 of the match has no result")
    );
    // No start-order rule follows an unfinished game.
    assert!(e.warnings.is_empty());
}

#[test]
fn games_after_the_decision_are_listed_not_counted() {
    // 2-0 after two games; a third game (Bakari wins) is reported and not counted.
    let games = numbered(vec![
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "2", "Amina", "Bakari", "1-0", "Amina", true),
        game("Club", "3", "Amina", "Bakari", "0-1", "Amina", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    let m = &e.matches[0];
    assert_eq!((m.score, m.decided_after), ([2, 0], Some(2)));
    assert!(!m.games[2].counted);
    assert_eq!(kinds(e), [WarningKind::GameAfterDecision]);
}

#[test]
fn games_are_ordered_by_round_then_input() {
    // Written out of order: round 2 first. Sorted: round 1 (Amina wins, starts), round 2
    // (Amina starts and wins): 2-0, no warning.
    let games = numbered(vec![
        game("Club", "2", "Bakari", "Amina", "0-1", "Amina", true),
        game("Club", "1", "Amina", "Bakari", "1-0", "Amina", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert_eq!(e.matches[0].games[0].at.game, 2);
    assert!(e.warnings.is_empty());
}

#[test]
fn events_and_unusable_games() {
    // Two Events are separate; a game without a Black name is skipped with a warning; a game
    // whose result contradicts itself counts as unfinished with a warning.
    let mut games = vec![
        game("A", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("B", "1", "Amina", "Bakari", "0-1", "Amina", true),
        game("B", "2", "Amina", "?", "0-1", "Amina", true),
    ];
    games[1].result = GameOutcome::Unfinished;
    games[1].result_warning = Some("the Result tag says 0-1 but the movetext ends with 1-0".into());
    let s = compute(&numbered(games), &NO_OPTIONS);
    assert_eq!(s.events.len(), 2);
    assert_eq!(s.events[0].event, "A");
    assert!(s.events[0].warnings.is_empty());
    assert_eq!(
        kinds(&s.events[1]),
        [WarningKind::ResultMismatch, WarningKind::MissingPlayer]
    );
    assert_eq!(s.events[1].matches.len(), 1);
    assert_eq!(s.events[1].matches[0].unfinished, 1);
}

#[test]
fn three_players_are_matches_not_a_knockout() {
    // Amina, Bakari, Chausiku each play one match: no knockout, no ranking.
    let games = numbered(vec![
        game("Trio", "1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Trio", "2", "Amina", "Bakari", "1-0", "Amina", true),
        game("Trio", "1", "Bakari", "Chausiku", "1-0", "Bakari", true),
        game("Trio", "2", "Bakari", "Chausiku", "1-0", "Bakari", true),
        game("Trio", "1", "Chausiku", "Amina", "1-0", "Chausiku", true),
        game("Trio", "2", "Chausiku", "Amina", "1-0", "Chausiku", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert_eq!(e.format, Format::Matches);
    assert!(e.knockout.is_none());
    assert_eq!(e.matches.len(), 3);
    assert!(e
        .players
        .iter()
        .all(|p| p.matches_won == 1 && p.matches_lost == 1));
}

#[test]
fn knockout_of_four() {
    // Semifinals (round 1.x): Amina beats Bakari 2-0; Chausiku – Daudi 1-1 then Daudi wins
    // the first limboti (g3). Final (round 2.x): Amina beats Daudi 2-0.
    // Points: Amina 2 (Bakari, Daudi), Daudi 1 (Chausiku), Bakari 0, Chausiku 0.
    // Goals: Amina 4, Daudi 2, Chausiku 1, Bakari 0.
    // Ranking: 1 Amina, 2 Daudi, 3 Chausiku (0 points, 1 goal), 4 Bakari. Champion Amina.
    let games = numbered(vec![
        game("Cup", "1.1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Cup", "1.2", "Bakari", "Amina", "0-1", "Amina", true),
        game("Cup", "1.1", "Chausiku", "Daudi", "1-0", "Chausiku", true),
        game("Cup", "1.2", "Daudi", "Chausiku", "1-0", "Chausiku", true),
        game("Cup", "1.3", "Chausiku", "Daudi", "0-1", "Daudi", true),
        game("Cup", "2.1", "Amina", "Daudi", "1-0", "Amina", true),
        game("Cup", "2.2", "Daudi", "Amina", "0-1", "Amina", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert_eq!(e.format, Format::Knockout);
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    let ko = e.knockout.as_ref().unwrap();
    assert_eq!(ko.champion.as_deref(), Some("Amina"));
    let table: Vec<(usize, &str, u32, u32, Option<&str>)> = ko
        .ranking
        .iter()
        .map(|r| {
            (
                r.rank,
                r.name.as_str(),
                r.points,
                r.goals,
                r.eliminated_by.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        table,
        [
            (1, "Amina", 2, 4, None),
            (2, "Daudi", 1, 2, Some("Amina")),
            (3, "Chausiku", 0, 1, Some("Daudi")),
            (4, "Bakari", 0, 0, Some("Amina")),
        ]
    );
    assert_eq!(ko.ranking[0].eliminated, ["Bakari", "Daudi"]);
}

#[test]
fn knockout_of_eight() {
    // Quarterfinals (round 1.x):
    //   Amina – Baraka: Amina 2-0.
    //   Chausiku – Daudi: Daudi 2-0.
    //   Eliya – Fatuma: Eliya wins g1, Fatuma g2 (1-1), Fatuma wins limboti g3.
    //   Gimbi – Hamisi: two draws (0-0 after two), Gimbi wins limboti g3.
    // Semifinals (round 2.x): Amina beats Daudi 2-0; Gimbi beats Fatuma 2-0.
    // Final (round 3.x): Amina wins g1, Gimbi g2, g3 drawn, Gimbi wins limboti g4.
    // Points: Gimbi 3 (Hamisi, Fatuma, Amina), Amina 2, Daudi 1, Fatuma 1, the rest 0.
    // Goals: Gimbi 1+2+2 = 5, Amina 2+2+1 = 5, Daudi 2, Fatuma 2, Eliya 1, the rest 0.
    // Ranking: 1 Gimbi, 2 Amina, 3= Daudi and Fatuma (1 point, 2 goals), 5 Eliya,
    // 6= Baraka, Chausiku, Hamisi. Champion Gimbi.
    // Start order: each game below is started by the player the law names.
    let games = numbered(vec![
        game("Cup8", "1.1", "Amina", "Baraka", "1-0", "Amina", true),
        game("Cup8", "1.2", "Baraka", "Amina", "0-1", "Amina", true),
        game("Cup8", "1.1", "Chausiku", "Daudi", "0-1", "Chausiku", true),
        game("Cup8", "1.2", "Daudi", "Chausiku", "1-0", "Daudi", true),
        game("Cup8", "1.1", "Eliya", "Fatuma", "1-0", "Fatuma", true),
        game("Cup8", "1.2", "Fatuma", "Eliya", "1-0", "Eliya", true),
        game("Cup8", "1.3", "Eliya", "Fatuma", "0-1", "Fatuma", true),
        game("Cup8", "1.1", "Gimbi", "Hamisi", "1/2-1/2", "Gimbi", true),
        game("Cup8", "1.2", "Gimbi", "Hamisi", "1/2-1/2", "Hamisi", true),
        game("Cup8", "1.3", "Gimbi", "Hamisi", "1-0", "Gimbi", true),
        game("Cup8", "2.1", "Amina", "Daudi", "1-0", "Daudi", true),
        game("Cup8", "2.2", "Daudi", "Amina", "0-1", "Amina", true),
        game("Cup8", "2.1", "Fatuma", "Gimbi", "0-1", "Fatuma", true),
        game("Cup8", "2.2", "Gimbi", "Fatuma", "1-0", "Gimbi", true),
        game("Cup8", "3.1", "Amina", "Gimbi", "1-0", "Amina", true),
        game("Cup8", "3.2", "Gimbi", "Amina", "1-0", "Amina", true),
        game("Cup8", "3.3", "Amina", "Gimbi", "1/2-1/2", "Gimbi", true),
        game("Cup8", "3.4", "Gimbi", "Amina", "1-0", "Amina", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    assert_eq!(e.matches.len(), 7);
    let ko = e.knockout.as_ref().unwrap();
    assert_eq!(ko.champion.as_deref(), Some("Gimbi"));
    let table: Vec<(usize, &str, u32, u32)> = ko
        .ranking
        .iter()
        .map(|r| (r.rank, r.name.as_str(), r.points, r.goals))
        .collect();
    assert_eq!(
        table,
        [
            (1, "Gimbi", 3, 5),
            (2, "Amina", 2, 5),
            (3, "Daudi", 1, 2),
            (3, "Fatuma", 1, 2),
            (5, "Eliya", 0, 1),
            (6, "Baraka", 0, 0),
            (6, "Chausiku", 0, 0),
            (6, "Hamisi", 0, 0),
        ]
    );
    assert_eq!(ko.ranking[0].eliminated, ["Hamisi", "Fatuma", "Amina"]);
}

#[test]
fn knockout_reports_play_after_elimination_and_no_champion_while_undecided() {
    // Four players: Amina beats Bakari 2-0 (round 1), then Bakari plays Chausiku in round 2
    // although he is out; Daudi – Chausiku is 1-1 (undecided): no champion.
    let games = numbered(vec![
        game("Cup", "1.1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Cup", "1.2", "Amina", "Bakari", "1-0", "Amina", true),
        game("Cup", "1.1", "Chausiku", "Daudi", "1-0", "Chausiku", true),
        game("Cup", "1.2", "Chausiku", "Daudi", "0-1", "Chausiku", true),
        game("Cup", "2.1", "Bakari", "Chausiku", "1-0", "Bakari", true),
        game("Cup", "2.2", "Bakari", "Chausiku", "1-0", "Bakari", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert_eq!(kinds(e), [WarningKind::PlayedAfterElimination]);
    assert!(e.warnings[0]
        .message
        .starts_with("Bakari plays Bakari – Chausiku although Amina eliminated them"));
    let ko = e.knockout.as_ref().unwrap();
    assert_eq!(ko.champion, None);
}

#[test]
fn the_champion_ranks_above_an_eliminated_player_with_the_same_points() {
    // Five players with a bye: round 1 Amina beats Bakari 2-0; round 2 Amina beats Chausiku
    // 2-0 and Daudi beats Eliya 2-0; final: Amina wins g1, Daudi g2 and the limboti g3.
    // Amina 2 points and 2+2+1 = 5 goals; Daudi 2 points and 2+2 = 4 goals. Daudi is still
    // in, so he ranks first although Amina has more goals.
    let games = numbered(vec![
        game("Cup5", "1.1", "Amina", "Bakari", "1-0", "Amina", true),
        game("Cup5", "1.2", "Amina", "Bakari", "1-0", "Amina", true),
        game("Cup5", "2.1", "Amina", "Chausiku", "1-0", "Amina", true),
        game("Cup5", "2.2", "Amina", "Chausiku", "1-0", "Amina", true),
        game("Cup5", "2.1", "Daudi", "Eliya", "1-0", "Daudi", true),
        game("Cup5", "2.2", "Daudi", "Eliya", "1-0", "Daudi", true),
        game("Cup5", "3.1", "Amina", "Daudi", "1-0", "Amina", true),
        game("Cup5", "3.2", "Amina", "Daudi", "0-1", "Amina", true),
        game("Cup5", "3.3", "Amina", "Daudi", "0-1", "Daudi", true),
    ]);
    let e = &compute(&games, &NO_OPTIONS).events[0];
    assert!(e.warnings.is_empty(), "{:?}", e.warnings);
    let ko = e.knockout.as_ref().unwrap();
    assert_eq!(ko.champion.as_deref(), Some("Daudi"));
    let top: Vec<(usize, &str, u32, u32)> = ko.ranking[..2]
        .iter()
        .map(|r| (r.rank, r.name.as_str(), r.points, r.goals))
        .collect();
    assert_eq!(top, [(1, "Daudi", 2, 4), (2, "Amina", 2, 5)]);
}

#[test]
fn from_record_reads_tags_and_results() {
    let text = b"[Event \" Dar  Open \"]\n[Round \"1\"]\n[White \"Amina\"]\n[Black \"Bakari\"]\n\
                 [Result \"0-1\"]\n\n1... f6-g5 2. c3-d4 0-1\n";
    let record = drafti_pdn::parse_games(text).remove(0).unwrap();
    let g = GameSummary::from_record(&record, "x.pdn", Some(Color::Black), Some(false));
    assert_eq!((g.file.as_str(), g.game), ("x.pdn", 1));
    assert_eq!(g.result, GameOutcome::BlackWin);
    assert_eq!(g.player(Color::Black).as_deref(), Some("Bakari"));
    let s = compute(&[g], &NO_OPTIONS);
    assert_eq!(s.events[0].event, "Dar Open");
}

#[test]
fn from_replayed_reads_the_first_mover_and_the_king_history() {
    use crate::replay::{replay, ReplayOptions};
    let summary = |text: &str| {
        let record = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
        GameSummary::from_replayed(&replay(record, &ReplayOptions::default()), "r.pdn")
    };
    // A Black-first record: Black started; no king ever appeared.
    let g = summary("[White \"A\"]\n[Black \"B\"]\n1... f6-g5 2. c3-d4 g7-f6 0-1");
    assert_eq!(g.first_mover, Some(Color::Black));
    assert_eq!(g.player(Color::Black).as_deref(), Some("B"));
    assert_eq!(g.king_appeared, Some(false));
    // From a set-up position White crowns a man on move 1: a king appeared.
    let g = summary("[FEN \"W:W6,25,30:B3,12,20\"]\n1. c7-d8 h6-g5 1-0");
    assert_eq!(
        (g.first_mover, g.king_appeared),
        (Some(Color::White), Some(true))
    );
    // An illegal second move stops the replay: whether a king appeared later is unknown.
    let g = summary("1. c3-d4 d4-e5 1-0");
    assert_eq!((g.first_mover, g.king_appeared), (Some(Color::White), None));
    // No moves: nobody is known to have started, and the king history is unknown.
    let g = summary("[Result \"1-0\"]\n1-0");
    assert_eq!((g.first_mover, g.king_appeared), (None, None));
    assert_eq!(g.result, GameOutcome::WhiteWin);
}

#[test]
fn an_event_written_as_it_goes_is_its_whole_report() {
    // Every kind of warning, limboti, a knockout and an Event of matches: the Event written
    // piece by piece (serde over `EventView`) is byte for byte the serialised whole report.
    let mut mismatch = game("Cup", "1.1", "Amina", "Bakari", "1-0", "Amina", true);
    mismatch.result = GameOutcome::Unfinished;
    mismatch.result_warning = Some("the Result tag says 1-0 but the movetext ends with 0-1".into());
    let mut games = vec![
        game("Cup", "1.2", "Amina", "Bakari", "1-0", "Amina", false),
        mismatch,
        game("Cup", "1.3", "Amina", "Bakari", "1-0", "Bakari", false),
        game("Cup", "1.4", "Amina", "Bakari", "0-1", "", true),
        game("Cup", "1.1", "Chausiku", "Daudi", "1-0", "Chausiku", true),
        game("Cup", "1.2", "Chausiku", "Daudi", "1-0", "Chausiku", true),
        game("Cup", "1.3", "Chausiku", "Daudi", "1-0", "Chausiku", true),
        game("Cup", "2.1", "Daudi", "Eliya", "1/2-1/2", "Daudi", true),
        game("Cup", "2.2", "Eliya", "Daudi", "0-1", "Eliya", false),
        game("Cup", "2.3", "Daudi", "Eliya", "0-1", "Daudi", false),
        game("Cup", "?", "Amina", "Amina", "1-0", "Amina", true),
        game("Cup", "3", "", "Bakari", "1-0", "", true),
        game("Club", "1", "Fatuma", "Gimbi", "0-0", "Fatuma", true),
        game("Club", "2", "Fatuma", "Gimbi", "1/2-1/2", "Gimbi", true),
    ];
    games.push(game("", "", "Hamisi", "Fatuma", "*", "Hamisi", true));
    let games = numbered(games);
    let all = StandingsOptions {
        supa: true,
        loser_starts: true,
        swap_colours: true,
        ..NO_OPTIONS
    };
    for options in [NO_OPTIONS, SUPA, all] {
        let archive: Archive = games.iter().collect();
        let whole = compute(&games, &options);
        let streamed: Vec<String> = archive
            .events(&options)
            .map(|e| serde_json::to_string(&e).unwrap())
            .collect();
        let expected: Vec<String> = whole
            .events
            .iter()
            .map(|e| serde_json::to_string(e).unwrap())
            .collect();
        assert_eq!(streamed, expected);
        assert_eq!(whole.events.len(), 3);
        let kinds: std::collections::HashSet<WarningKind> =
            whole.warnings().map(|w| w.kind).collect();
        let mut expected_kinds = vec![
            WarningKind::ResultMismatch,
            WarningKind::MissingPlayer,
            WarningKind::StartOrder,
            WarningKind::StartUnknown,
            WarningKind::GameAfterDecision,
            WarningKind::PlayedAfterElimination,
        ];
        if options.swap_colours {
            expected_kinds.push(WarningKind::ColourOrder);
        }
        for kind in expected_kinds {
            assert!(kinds.contains(&kind), "{kind:?} missing with {options:?}");
        }
    }
}
