//! A real client: pydraughts's `HubEngine` (PyPI `pydraughts`, driver script
//! `tests/oracle/hub_client.py`) drives `drafti hub` through a whole game of Russian
//! draughts — its handshake, `set-param`, `init`, `ping`, then for every ply `pos` (the
//! start as a Hub position string and the moves so far), `level` and `go think`, and its
//! parsing of `info` and `done`. White searches 20,000 nodes a move, Black 1 ply, so the game
//! ends (White wins) long before the ply cap. Every move drafti returns is checked legal by
//! the rules core here, and by pydraughts's own board there (after translating squares
//! into pydraughts's numbering, see the script).
//!
//! pydraughts must be installed (`pip install pydraughts`; the test command does it): without
//! it the test fails, it never skips.

use drafti_rules::{Color, Game, Move, Outcome, Position, Variant};
use drafti_tests::{drafti_path, isolate};
use serde_json::{json, Value};
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";

/// A move in Hub notation, written here (not by drafti): from-to, or from x to x captured….
fn hub_move(mv: &Move) -> String {
    if mv.is_capture() {
        let mut parts = vec![mv.from().number(), mv.to().number()];
        parts.extend(mv.captures().map(|s| s.number()));
        parts
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join("x")
    } else {
        format!("{}-{}", mv.from().number(), mv.to().number())
    }
}

/// A Hub move as (separator, from, to, captured squares in order).
fn squares(text: &str) -> (bool, Vec<u32>, Vec<u32>) {
    let capture = text.contains('x');
    let numbers: Vec<u32> = text
        .split(['x', '-'])
        .map(|n| n.parse().expect("a square number"))
        .collect();
    let mut captured = numbers[2..].to_vec();
    captured.sort_unstable();
    (capture, numbers[..2].to_vec(), captured)
}

#[test]
fn pydraughts_plays_a_whole_russian_game_against_drafti_hub() {
    let python = std::env::var("DRAFTI_PYTHON").unwrap_or_else(|_| "python3".to_string());
    let script = format!("{}/oracle/hub_client.py", env!("CARGO_MANIFEST_DIR"));
    // The driver runs drafti: isolated as the tests' other drafti runs are.
    let mut child = isolate(&mut Command::new(python))
        .arg(script)
        .arg(drafti_path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("python3 runs (pydraughts is missing: pip install pydraughts)");
    let mut to_python = child.stdin.take().unwrap();
    let mut from_python = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut read = || -> Value {
        let line = from_python
            .next()
            .expect("the driver answers (is pydraughts installed?)")
            .unwrap();
        serde_json::from_str(&line).unwrap_or_else(|_| panic!("JSON from the driver: {line}"))
    };

    let handshake = read();
    assert_eq!(handshake["id"]["name"], "drafti", "{handshake}");
    assert_eq!(
        handshake["variants"],
        json!(["czech", "russian", "tz", "tzdraft"])
    );
    for name in ["variant", "hash", "nodes", "depth"] {
        assert!(
            handshake["options"]
                .as_array()
                .unwrap()
                .contains(&json!(name)),
            "{handshake}"
        );
    }

    let variant = Variant::Russian;
    let mut game = Game::new(Position::start(Color::White), variant);
    let mut moves: Vec<String> = Vec::new();
    while game.outcome().is_none() {
        assert!(moves.len() < 300, "no result after 300 plies: {moves:?}");
        let limits = match game.position().turn() {
            Color::White => json!({"nodes": 20_000}),
            Color::Black => json!({"depth": 1}),
        };
        let request = json!({"pos": START, "moves": moves.join(" "), "limits": limits});
        writeln!(to_python, "{request}").unwrap();
        to_python.flush().unwrap();
        let answer = read();
        assert_eq!(answer["pydraughts_legal"], true, "{answer}");
        let text = answer["move"].as_str().unwrap().to_string();
        let pos = *game.position();
        let legal: Vec<Move> = pos
            .legal_moves(variant)
            .into_iter()
            // The captured squares may come in any order.
            .filter(|m| squares(&hub_move(m)) == squares(&text))
            .collect();
        assert_eq!(legal.len(), 1, "{text} in {}", pos.to_fen());
        // pydraughts read the info lines: depth, nodes and a score it understood.
        let info = &answer["info"];
        assert!(info["depth"].as_u64().unwrap() >= 1, "{answer}");
        assert!(info["nodes"].as_u64().unwrap() >= 1, "{answer}");
        assert!(info["score"].get("cp").is_some() || info["score"].get("win").is_some());
        // (pydraughts keeps the quotes of a quoted value.)
        let pv = info["pv"].as_str().unwrap().trim_matches('"');
        assert!(pv.starts_with(&text), "{answer}");
        game.play(&legal[0]);
        moves.push(text);
    }
    assert_eq!(
        game.outcome(),
        Some(Outcome::Win(Color::White)),
        "{moves:?}"
    );
    writeln!(to_python, "{}", json!({"quit": true})).unwrap();
    drop(to_python);
    assert!(child.wait().unwrap().success());
}
