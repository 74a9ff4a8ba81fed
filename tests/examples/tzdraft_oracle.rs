//! The differential test of drafti's `tzdraft` rules against TzDraft's own server code, run
//! under node (the lab of `tests/oracle/tzdraft/`, whose README says how to set it up).
//!
//! Positions: distinct positions of seeded random games played under the `tzdraft` rules and
//! random legal setups rich in kings (where the readings differ). Each goes to
//! `tests/oracle/tzdraft/moves.cjs` as TzDraft's board snapshot (its square `n` is drafti's
//! `33 - n`); the SETS of moves are compared as (from, to, captured set). The summary says how
//! many positions and moves were compared, how many differ (with the first ones shown), and how
//! many positions TzDraft's moves differ from the article's (drafti's `tz`), so that a check
//! which cannot fail would show.
//!
//! ```text
//! cargo run --profile ci -p drafti-tests --example tzdraft_oracle -- \
//!     [--played N] [--setups N] [--seed S] [--record FILE]
//! ```
//! `--record FILE` writes the recorded cases `rules/tests/tzdraft_oracle.rs` checks: every
//! position where TzDraft's moves differ from the article's, and one in ten of the others,
//! one per line: `FEN<TAB>move move …` (moves as `from-to` or `fromxto[captured,…]`).
//!
//! `--games N` plays N random games through TzDraft's server (`games.cjs`: its make-move use
//! case and repositories) instead and replays each under drafti's `tzdraft` rules: every move
//! must be legal and drafti's [`Game`] must end the game where and as the server did (winner
//! and end reason); it also counts the games the article's rules (`tz`) would refuse.
//! `--save-games FILE` keeps the server's rows (JSON Lines).
#![allow(clippy::print_stdout, clippy::print_stderr)]

use drafti_rules::{Color, DrawReason, Game, Outcome, Position, SplitMix64, Square, Variant};
use serde_json::{json, Value};
use std::collections::{BTreeSet, HashSet};
use std::io::Write;
use std::process::{Command, ExitCode, Stdio};

type Key = String;

fn key(from: Square, to: Square, captured: &[Square]) -> Key {
    if captured.is_empty() {
        return format!("{from}-{to}");
    }
    let mut caps: Vec<String> = captured.iter().map(|s| s.to_string()).collect();
    caps.sort();
    format!("{from}x{to}[{}]", caps.join(","))
}

fn drafti_moves(pos: &Position, variant: Variant) -> BTreeSet<Key> {
    pos.legal_moves(variant)
        .iter()
        .map(|m| {
            key(
                m.from(),
                m.to(),
                &m.captured().into_iter().collect::<Vec<_>>(),
            )
        })
        .collect()
}

fn square(tz: i64) -> Square {
    Square::from_number((33 - tz) as u8).expect("TzDraft squares are 1-32")
}

fn snapshot(pos: &Position) -> Value {
    let mut pieces = Vec::new();
    for sq in Square::ALL {
        if let Some(piece) = pos.piece_at(sq) {
            pieces.push(json!({
                "p": 33 - i64::from(sq.number()),
                "c": if piece.color == Color::White { "WHITE" } else { "BLACK" },
                "k": piece.king,
            }));
        }
    }
    let turn = if pos.turn() == Color::White {
        "WHITE"
    } else {
        "BLACK"
    };
    json!({ "turn": turn, "pieces": pieces })
}

fn both_sides(pos: &Position) -> bool {
    !pos.pieces(Color::White).is_empty() && !pos.pieces(Color::Black).is_empty()
}

fn played(rng: &mut SplitMix64, count: usize, seen: &mut HashSet<Position>) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(Color::White);
        for _ in 0..200 {
            if !both_sides(&pos) {
                break;
            }
            if seen.insert(pos) {
                out.push(pos);
                if out.len() == count {
                    break;
                }
            }
            let moves = pos.legal_moves(Variant::TzDraft);
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len())]);
        }
    }
    out
}

/// Random legal setups: 1–8 pieces a side, about half kings, no man on its crowning row.
fn setups(rng: &mut SplitMix64, count: usize, seen: &mut HashSet<Position>) -> Vec<Position> {
    let mut out = Vec::new();
    while out.len() < count {
        let mut lists = [Vec::new(), Vec::new()];
        let mut used = 0u32;
        for (side, list) in lists.iter_mut().enumerate() {
            let n = 1 + rng.below(8);
            while list.len() < n {
                let i = rng.below(32) as u8;
                if used & (1 << i) != 0 {
                    continue;
                }
                let king = rng.below(2) == 0;
                let crowning = if side == 0 { i < 4 } else { i >= 28 };
                if crowning && !king {
                    continue;
                }
                used |= 1 << i;
                list.push(format!("{}{}", if king { "K" } else { "" }, i + 1));
            }
        }
        let turn = if rng.below(2) == 0 { "W" } else { "B" };
        let fen = format!("{turn}:W{}:B{}", lists[0].join(","), lists[1].join(","));
        let pos = Position::from_fen(&fen).expect("a legal setup");
        if seen.insert(pos) {
            out.push(pos);
        }
    }
    out
}

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1).cloned())
}

/// The server's end of a game as drafti's outcome names it.
fn server_end(row: &Value) -> Option<String> {
    let reason = row["endReason"].as_str()?;
    Some(match reason {
        "NO_MOVES" => format!("win {}", row["winner"].as_str()?),
        other => other.to_string(),
    })
}

fn drafti_end(outcome: Outcome) -> String {
    match outcome {
        Outcome::Win(Color::White) => "win WHITE".to_string(),
        Outcome::Win(Color::Black) => "win BLACK".to_string(),
        Outcome::Draw(DrawReason::TzDraftThirtyMoves) => "DRAW_30_MOVE".to_string(),
        Outcome::Draw(DrawReason::TzDraftThreeKings) => "DRAW_THREE_KINGS".to_string(),
        Outcome::Draw(DrawReason::TzDraftEndgame) => "DRAW_ENDGAME".to_string(),
        Outcome::Draw(DrawReason::TzDraftKingAgainstKing) => {
            "DRAW_INSUFFICIENT_MATERIAL".to_string()
        }
        Outcome::Draw(other) => format!("{other:?}"),
    }
}

/// Replays a server game under `variant`: the ply where it stops (an illegal move, or a move
/// after drafti's end), and drafti's end after the last move.
fn replay(row: &Value, variant: Variant) -> (Option<String>, Option<String>) {
    let mut game = Game::new(Position::start(Color::White), variant);
    for (i, m) in row["moves"].as_array().expect("moves").iter().enumerate() {
        if let Some(end) = game.outcome() {
            return (
                Some(format!("ply {}: a move after drafti's end ({end})", i + 1)),
                None,
            );
        }
        let from = square(m["fromSquare"].as_i64().expect("from"));
        let to = square(m["toSquare"].as_i64().expect("to"));
        let caps: Vec<Square> = m["capturedSquares"]
            .as_array()
            .expect("captured")
            .iter()
            .map(|c| square(c.as_i64().expect("a square")))
            .collect();
        let want = key(from, to, &caps);
        let legal = game.position().legal_moves(variant);
        let Some(mv) = legal.iter().find(|mv| {
            key(
                mv.from(),
                mv.to(),
                &mv.captured().into_iter().collect::<Vec<_>>(),
            ) == want
        }) else {
            return (
                Some(format!(
                    "ply {}: {want} is not legal in {}",
                    i + 1,
                    game.position().to_fen_algebraic()
                )),
                None,
            );
        };
        game.play(mv);
    }
    (None, game.outcome().map(drafti_end))
}

fn games(args: &[String], n: usize, seed: u64) -> bool {
    let lab = format!("{}/oracle/tzdraft", env!("CARGO_MANIFEST_DIR"));
    let output = Command::new("node")
        .args(["games.cjs", "random", &n.to_string(), &seed.to_string()])
        .current_dir(&lab)
        .output()
        .expect("node runs tests/oracle/tzdraft/games.cjs (see its README)");
    assert!(output.status.success(), "games.cjs failed");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    if let Some(path) = arg(args, "--save-games") {
        std::fs::write(&path, &text).expect("the games written");
    }
    let rows: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a row"))
        .collect();
    let (mut plies, mut article_refused, mut mismatches) = (0, 0, Vec::new());
    let mut ends = std::collections::BTreeMap::new();
    for row in &rows {
        plies += row["moves"].as_array().map_or(0, Vec::len);
        let server = server_end(row);
        *ends
            .entry(server.clone().unwrap_or_else(|| "unfinished".into()))
            .or_insert(0) += 1;
        let (stop, ours) = replay(row, Variant::TzDraft);
        if stop.is_some() || ours != server {
            mismatches.push(format!(
                "game {}: server {server:?}, drafti {ours:?} {}",
                row["id"],
                stop.unwrap_or_default()
            ));
        }
        if replay(row, Variant::Tanzanian).0.is_some() {
            article_refused += 1;
        }
    }
    println!(
        "{} server games, {plies} plies, ends {ends:?}: {} differ from drafti's tzdraft rules; \
         the article's rules refuse {article_refused}",
        rows.len(),
        mismatches.len()
    );
    for m in mismatches.iter().take(10) {
        println!("{m}");
    }
    mismatches.is_empty()
}

/// Starts where TzDraft's draw rules come into play (White to move: the server derives the
/// side to move from the number of moves).
const ENDGAME_STARTS: [&str; 8] = [
    "W:WKa1,Kc1,Ka3:BKh4",
    "W:WKa1,Kc1,Ka3,e3:BKh4",
    "W:WKa3,Kc1:BKh4,Kh6",
    "W:WKa3,Kc1:BKh6",
    "W:WKa3,c3:BKh6",
    "W:WKb2,Kd2,f2:BKg7,Kb8,c7",
    "W:WKe1,Kg1,c3,e3:BKb8,Kd8,f6",
    "W:WKa1,Kc1,Ka3:BKh4,Kf8,b6",
];

/// `--draws N`: N random games from each of [`ENDGAME_STARTS`], played by drafti under its
/// `tzdraft` rules until its [`Game`] ends them (or 300 plies; in every other game each side
/// avoids giving a capture where it can, so that the counting rules are reached), then
/// replayed through
/// TzDraft's server from the same board: the server must accept every move, end the game
/// after the same ply, with the same end.
fn draws(n: usize, seed: u64) -> bool {
    let mut rng = SplitMix64::new(seed);
    let mut specs = String::new();
    let mut ours = Vec::new();
    for fen in ENDGAME_STARTS {
        for g in 0..n {
            let start = Position::from_fen(fen).expect("a start");
            let mut game = Game::new(start, Variant::TzDraft);
            let mut moves = Vec::new();
            while game.outcome().is_none() && moves.len() < 300 {
                let legal = game.position().legal_moves(Variant::TzDraft);
                let safe: Vec<_> = legal
                    .iter()
                    .filter(|m| !game.position().play(m).has_capture(Variant::TzDraft))
                    .copied()
                    .collect();
                let pool = if g % 2 == 1 && !safe.is_empty() {
                    &safe
                } else {
                    &legal
                };
                let mv = pool[rng.below(pool.len())];
                let tz = |sq: Square| 33 - i64::from(sq.number());
                let path: Vec<i64> = if mv.is_capture() {
                    mv.path().skip(1).map(tz).collect()
                } else {
                    Vec::new()
                };
                moves.push(json!([tz(mv.from()), tz(mv.to()), path]));
                game.play(&mv);
            }
            let snap = snapshot(&start)["pieces"].clone();
            specs.push_str(&json!({ "snapshot": snap, "moves": moves }).to_string());
            specs.push('\n');
            ours.push((fen, moves.len(), game.outcome().map(drafti_end)));
        }
    }
    let lab = format!("{}/oracle/tzdraft", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("node")
        .args(["games.cjs", "replay"])
        .current_dir(&lab)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs tests/oracle/tzdraft/games.cjs");
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(specs.as_bytes()));
    let output = child.wait_with_output().expect("node's answers");
    writer.join().expect("writer").expect("games written");
    assert!(output.status.success(), "games.cjs failed");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let mut ends = std::collections::BTreeMap::new();
    let mut mismatches = Vec::new();
    for (line, (fen, plies, ours)) in text.lines().zip(&ours) {
        let row: Value = serde_json::from_str(line).expect("a row");
        let server = if row.get("rejected").is_some() {
            Some(format!(
                "rejected ply {}: {}",
                row["rejected"], row["message"]
            ))
        } else {
            server_end(&row)
        };
        *ends
            .entry(server.clone().unwrap_or_else(|| "unfinished".into()))
            .or_insert(0) += 1;
        if &server != ours {
            mismatches.push(format!(
                "from {fen}, {plies} plies: server {server:?}, drafti {ours:?}"
            ));
        }
    }
    println!(
        "{} games from {} endgame starts, ends {ends:?}: {} differ",
        ours.len(),
        ENDGAME_STARTS.len(),
        mismatches.len()
    );
    for m in mismatches.iter().take(10) {
        println!("{m}");
    }
    mismatches.is_empty()
}

/// One move as `moves.cjs` gives it: from, to, captured squares in order, landing squares.
type Answer = (i64, i64, Vec<i64>, Vec<i64>);

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let number = |name: &str, default: usize| {
        arg(&args, name).map_or(default, |v| v.parse().expect("a number"))
    };
    let seed = number("--seed", 40) as u64;
    if let Some(n) = arg(&args, "--draws") {
        return exit(draws(n.parse().expect("a number"), seed));
    }
    if let Some(n) = arg(&args, "--games") {
        return exit(games(&args, n.parse().expect("a number"), seed));
    }
    let mut rng = SplitMix64::new(seed);
    let mut seen = HashSet::new();
    let mut positions = played(&mut rng, number("--played", 3000), &mut seen);
    positions.extend(setups(&mut rng, number("--setups", 3000), &mut seen));

    let lab = format!("{}/oracle/tzdraft", env!("CARGO_MANIFEST_DIR"));
    let mut child = Command::new("node")
        .arg("moves.cjs")
        .current_dir(&lab)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node runs tests/oracle/tzdraft/moves.cjs (see its README)");
    let input: String = positions
        .iter()
        .map(|p| snapshot(p).to_string() + "\n")
        .collect();
    let mut stdin = child.stdin.take().expect("stdin");
    let writer = std::thread::spawn(move || stdin.write_all(input.as_bytes()));
    let output = child.wait_with_output().expect("node's answers");
    writer.join().expect("writer").expect("positions written");
    assert!(output.status.success(), "moves.cjs failed");
    let text = String::from_utf8(output.stdout).expect("UTF-8");
    let answers: Vec<Vec<Answer>> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("a move list"))
        .collect();
    assert_eq!(answers.len(), positions.len(), "one answer per position");

    let (mut moves, mut captures, mut kings, mut routes) = (0, 0, 0, 0);
    let (mut differ_article, mut mismatches) = (0, Vec::new());
    let mut record = String::new();
    for (i, (pos, theirs)) in positions.iter().zip(&answers).enumerate() {
        routes += theirs.len();
        let theirs: BTreeSet<Key> = theirs
            .iter()
            .map(|(from, to, caps, _)| {
                let caps: Vec<Square> = caps.iter().map(|&c| square(c)).collect();
                key(square(*from), square(*to), &caps)
            })
            .collect();
        let ours = drafti_moves(pos, Variant::TzDraft);
        let article = drafti_moves(pos, Variant::Tanzanian);
        moves += ours.len();
        captures += pos.legal_moves(Variant::TzDraft)[..]
            .iter()
            .filter(|m| m.is_capture())
            .count();
        kings += usize::from(!pos.kings(pos.turn()).is_empty());
        if article != theirs {
            differ_article += 1;
        }
        if ours != theirs {
            mismatches.push(format!(
                "{}\n{}only drafti: {:?}\nonly TzDraft: {:?}",
                pos.to_fen_algebraic(),
                pos.board_text(),
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            ));
        }
        if article != theirs || i % 10 == 0 {
            let list: Vec<&str> = theirs.iter().map(String::as_str).collect();
            record.push_str(&format!("{}\t{}\n", pos.to_fen_algebraic(), list.join(" ")));
        }
    }
    println!(
        "compared {} positions ({kings} with a king to move): {moves} moves ({captures} \
         captures; TzDraft listed {routes} routes), {} positions differ from TzDraft's server; \
         TzDraft's moves differ from the article's in {differ_article} positions",
        positions.len(),
        mismatches.len()
    );
    for m in mismatches.iter().take(5) {
        println!("\n{m}");
    }
    if let Some(path) = arg(&args, "--record") {
        std::fs::write(&path, record).expect("the record written");
        println!("recorded cases written to {path}");
    }
    exit(mismatches.is_empty())
}

fn exit(ok: bool) -> ExitCode {
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
