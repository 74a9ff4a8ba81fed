use super::*;
use drafti_pdn::parse_games;

fn run(text: &str) -> ReplayedGame {
    let record = parse_games(text.as_bytes()).remove(0).expect("parses");
    replay(record, &ReplayOptions::default())
}

fn kinds(game: &ReplayedGame) -> Vec<ProblemKind> {
    game.problems.iter().map(|p| p.kind).collect()
}

#[test]
fn valid_game_keeps_moves_and_positions() {
    let game = run("1. c3-d4 d6-e5 2. d4xf6 g7xe5 *");
    assert!(game.is_valid(), "{:?}", game.problems);
    assert_eq!(game.moves.len(), 4);
    assert_eq!(game.positions.len(), 5);
    assert_eq!(game.positions[0], game.start);
    assert!(game.moves[2].is_capture());
}
