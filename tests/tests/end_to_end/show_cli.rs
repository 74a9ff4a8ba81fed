//! `drafti show FILE --game N --ply K`: the board of a stored game at a ply, as the rules
//! core replays it, and clear errors for games, plies and files that are not there.

use drafti_archive::replay::{replay, ReplayOptions};
use drafti_tests::drafti;

const SMALL: &str = "fixtures/report/small.pdn";

fn show(args: &[&str]) -> (i32, String, String) {
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("show")
        .args(args)
        .output()
        .expect("drafti runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).unwrap(),
        String::from_utf8(output.stderr).unwrap(),
    )
}

#[test]
fn a_game_at_a_ply_is_the_rules_cores_position() {
    let text = std::fs::read(format!("{}/{SMALL}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let record = drafti_pdn::parse_games(&text).remove(1).unwrap();
    let game = replay(record, &ReplayOptions::default());
    for ply in [0, 1, 17, 32, game.moves.len()] {
        let (code, stdout, stderr) = show(&[SMALL, "--game", "2", "--ply", &ply.to_string()]);
        assert_eq!(code, 0, "{stderr}");
        let fen = game.positions[ply].to_fen();
        assert!(
            stdout.lines().last().unwrap().ends_with(&fen),
            "ply {ply}: expected {fen}:\n{stdout}"
        );
        assert!(
            stdout.contains(&game.positions[ply].board_text()),
            "{stdout}"
        );
    }
    // The caption names the move that led there; no --ply: the last position.
    let (_, stdout, _) = show(&[SMALL, "--game", "2", "--ply", "32"]);
    assert!(
        stdout.starts_with("fixtures/report/small.pdn game 2, after 32 plies (16... c1xc7)"),
        "{stdout}"
    );
    let (_, stdout, _) = show(&[SMALL, "--game", "2"]);
    assert!(stdout.ends_with(&format!("{}\n", game.positions[game.moves.len()].to_fen())));
}

#[test]
fn the_svg_has_the_position_and_the_last_move() {
    let scratch = drafti_tests::temp_dir("show");
    let dir = scratch.path();
    let out = dir.join("board.svg");
    let (code, _, stderr) = show(&[
        SMALL,
        "--game",
        "1",
        "--ply",
        "1",
        "--svg",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    let svg = std::fs::read_to_string(&out).unwrap();
    // 24 pieces, one arrow (its head is the one polygon).
    assert_eq!(svg.matches("<circle").count(), 24, "{svg}");
    assert_eq!(svg.matches("<polygon").count(), 1);
}

#[test]
fn missing_games_plies_and_bad_records_are_clear_errors() {
    for (args, says) in [
        (
            vec![SMALL, "--game", "9"],
            "no game 9 (the file holds 6 games)",
        ),
        (
            vec![SMALL, "--game", "5", "--ply", "30"],
            "game 5 has 2 plies, not 30; the replay stopped at line 75",
        ),
        (vec![SMALL, "--game", "6"], "game 6: 82:7:"),
        (vec!["no-such.pdn", "--game", "1"], "no such file"),
        (vec!["W:W33"], "square 33"),
    ] {
        let (code, _, stderr) = show(&args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
    }
}
