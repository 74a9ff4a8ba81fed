//! Conformance of `drafti hub` to Hub protocol version 2 (Scan's `protocol.txt`), command by
//! command: the handshake (`hub`, `set-param`, `init`), `pos` with moves, every form of
//! `level`, `go think|ponder|analyze`, `ponder-hit`, `stop` during a search, `ping` during
//! and between searches, `new-game`, `quit`, the end of the input; and what is refused with an
//! `error` line while the engine stays alive: garbage lines, `go` before `init` or `pos`, a
//! `pos` with an illegal move, bad parameters, commands during a search.
//!
//! Every move the engine sends is checked legal by the rules core, read by this file's own
//! reading of Hub moves (from, to, captured squares), not by drafti's.

use drafti_rules::{Color, Move, Position, Square, Variant};
use drafti_tests::drafti_command;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

const START: &str = "Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww";
const WAIT: Duration = Duration::from_secs(20);

/// `drafti hub` with its lines on a channel.
struct Hub {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Hub {
    fn start(args: &[&str]) -> Hub {
        let mut child = drafti_command()
            .arg("hub")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("drafti hub starts");
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Hub {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    fn next(&mut self) -> String {
        self.lines
            .recv_timeout(WAIT)
            .expect("drafti hub answers within 20 s")
    }

    /// Lines up to and including the first that starts with `word`.
    fn until(&mut self, word: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let line = self.next();
            let done = line.split_whitespace().next() == Some(word);
            out.push(line);
            if done {
                return out;
            }
        }
    }

    /// Nothing more arrives for a moment.
    fn quiet(&mut self) {
        if let Ok(line) = self.lines.recv_timeout(Duration::from_millis(150)) {
            panic!("unexpected line {line:?}");
        }
    }

    fn handshake(&mut self, variant: &str) {
        self.send("hub");
        let lines = self.until("wait");
        assert!(lines[0].starts_with("id name=drafti version="), "{lines:?}");
        assert!(
            lines.contains(
                &r#"param name=variant value=tz type=enum values="tz czech russian tzdraft""#
                    .to_string()
            ),
            "{lines:?}"
        );
        for name in ["hash", "nodes", "depth", "king-count"] {
            assert!(
                lines.iter().any(
                    |l| l.starts_with(&format!("param name={name} ")) && l.contains("type=int")
                ),
                "{name}: {lines:?}"
            );
        }
        self.send(&format!("set-param name=variant value={variant}"));
        self.send("set-param name=hash value=4");
        self.send("init");
        assert_eq!(self.until("ready"), ["ready"]);
    }

    fn ping(&mut self) {
        self.send("ping");
        assert_eq!(self.next(), "pong");
    }

    /// Waits for the process to end by itself.
    fn exits(mut self) -> std::process::ExitStatus {
        let until = Instant::now() + WAIT;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                let mut err = String::new();
                std::io::Read::read_to_string(self.child.stderr.as_mut().unwrap(), &mut err)
                    .unwrap();
                assert_eq!(err, "", "nothing on stderr");
                return status;
            }
            assert!(Instant::now() < until, "drafti hub did not exit");
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for Hub {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value of `name=` in a line (quotes removed).
fn field(line: &str, name: &str) -> Option<String> {
    let start = line.find(&format!(" {name}="))? + name.len() + 2;
    let rest = &line[start..];
    Some(match rest.strip_prefix('"') {
        Some(quoted) => quoted[..quoted.find('"').unwrap()].to_string(),
        None => rest.split_whitespace().next().unwrap_or("").to_string(),
    })
}

/// The legal move a Hub move names: `from-to`, or `from x to x captured…` (this file's own
/// reading, so drafti's is checked, not trusted).
fn legal(pos: &Position, variant: Variant, text: &str) -> Move {
    let capture = text.contains('x');
    let squares: Vec<Square> = text
        .split(['x', '-'])
        .map(|n| Square::from_number(n.parse().unwrap()).unwrap())
        .collect();
    let captured: u32 = squares[2..].iter().map(|s| 1u32 << s.index()).sum();
    let found: Vec<Move> = pos
        .legal_moves(variant)
        .into_iter()
        .filter(|m| {
            m.from() == squares[0]
                && m.to() == squares[1]
                && m.is_capture() == capture
                && (!capture || m.captured().0 == captured)
        })
        .collect();
    assert_eq!(found.len(), 1, "{text} in {}: {found:?}", pos.to_fen());
    found[0]
}

/// A search's `info` lines and its `done`: checks the fields and returns (move, ponder).
fn search_answer(lines: &[String]) -> (String, Option<String>) {
    let (done, infos) = lines.split_last().unwrap();
    assert!(done.starts_with("done move="), "{lines:?}");
    assert!(!infos.is_empty(), "info lines before done: {lines:?}");
    for info in infos {
        assert!(info.starts_with("info "), "{info}");
        for name in ["depth", "score", "nodes", "time", "pv"] {
            assert!(field(info, name).is_some(), "{name} in {info}");
        }
        let score: f64 = field(info, "score").unwrap().parse().unwrap();
        assert!(score.abs() < 100.0, "{info}");
    }
    (field(done, "move").unwrap(), field(done, "ponder"))
}

#[test]
fn a_game_of_commands() {
    let mut hub = Hub::start(&[]);
    hub.handshake("russian");
    hub.ping();
    let variant = Variant::Russian;
    let start = Position::start(Color::White);

    // A search from the start, to a depth.
    hub.send(&format!("pos pos={START}"));
    hub.send("level depth=5");
    hub.send("go think");
    let lines = hub.until("done");
    let (mv, ponder) = search_answer(&lines);
    let first = legal(&start, variant, &mv);
    assert_eq!(
        field(&lines[lines.len() - 2], "depth").as_deref(),
        Some("5")
    );
    let after = start.play(&first);
    let answer = legal(&after, variant, &ponder.expect("a ponder move"));

    // The moves played so far, with every other kind of level.
    let played = format!("{mv} {}", field(&lines[lines.len() - 1], "ponder").unwrap());
    let now = after.play(&answer);
    for level in [
        "level nodes=3000",
        "level move-time=0.05",
        "level time=2 inc=0.1",
        "level moves=10 time=1.5",
        "level time=0.3",
    ] {
        hub.send(&format!("pos pos={START} moves=\"{played}\""));
        hub.send(level);
        hub.send("go think");
        let (mv, _) = search_answer(&hub.until("done"));
        legal(&now, variant, &mv);
    }
    // A node limit gives the same move each time after new-game.
    let mut moves = Vec::new();
    for _ in 0..2 {
        hub.send("new-game");
        hub.send(&format!("pos pos={START} moves=\"{played}\""));
        hub.send("level nodes=5000");
        hub.send("go think");
        moves.push(search_answer(&hub.until("done")));
    }
    assert_eq!(moves[0], moves[1]);

    // Analysis until stop; ping answered during it.
    hub.send(&format!("pos pos={START}"));
    hub.send("level infinite");
    hub.send("go analyze");
    let first_info = hub.next();
    assert!(first_info.starts_with("info depth=1 "), "{first_info}");
    hub.send("ping");
    let mut seen = Vec::new();
    loop {
        let line = hub.next();
        if line == "pong" {
            break;
        }
        assert!(line.starts_with("info "), "{line}");
        seen.push(line);
    }
    let asked = Instant::now();
    hub.send("stop");
    let lines = hub.until("done");
    assert!(asked.elapsed() < Duration::from_secs(5));
    let (mv, _) = search_answer(&[vec![first_info], seen, lines].concat());
    legal(&start, variant, &mv);
    // A stop after done crossed it: ignored.
    hub.send("stop");
    hub.ping();

    // Ponder: no done before ponder-hit under a clock; then the clock runs.
    hub.send(&format!("pos pos={START} moves=\"{played}\""));
    hub.send("level move-time=0.2");
    hub.send("go ponder");
    let mut early = vec![hub.next()];
    assert!(early[0].starts_with("info depth=1 "));
    std::thread::sleep(Duration::from_millis(400));
    while let Ok(line) = hub.lines.try_recv() {
        early.push(line);
    }
    assert!(
        early.iter().all(|l| l.starts_with("info ")),
        "only info before ponder-hit: {early:?}"
    );
    hub.send("ponder-hit");
    let hit = Instant::now();
    // The iteration under way may not complete in the time left: `done` may follow at once.
    let (mv, _) = search_answer(&[early, hub.until("done")].concat());
    assert!(hit.elapsed() < Duration::from_secs(5));
    legal(&now, variant, &mv);

    hub.send("quit");
    assert!(hub.exits().success());
}

#[test]
fn refusals_keep_the_engine_alive() {
    let mut hub = Hub::start(&["--hash", "2"]);
    let error = |line: String| {
        assert!(line.starts_with("error message="), "{line}");
        line
    };
    // Before init: a position is read, a search refused.
    hub.send(&format!("pos pos={START}"));
    hub.send("go think");
    assert!(error(hub.next()).contains("init"));
    hub.send("hub");
    hub.until("wait");
    hub.send("set-param name=variant value=chess");
    error(hub.next());
    hub.send("set-param name=hash value=0");
    error(hub.next());
    hub.send("set-param name=colour value=red");
    error(hub.next());
    hub.send("set-param value=3");
    error(hub.next());
    hub.send("init");
    assert_eq!(hub.next(), "ready");

    // go before pos (a variant change unsets the position too).
    hub.send("set-param name=variant value=czech");
    hub.send("go think");
    assert!(error(hub.next()).contains("pos"));
    hub.send("init");
    assert_eq!(hub.next(), "ready");
    // A pos with an illegal move: refused, and the position is unset.
    hub.send(&format!("pos pos={START} moves=\"22-18 22-17\""));
    assert!(error(hub.next()).contains("move 2"));
    hub.send("go think");
    assert!(error(hub.next()).contains("pos"));
    // Malformed ones.
    for bad in [
        "pos pos=Wbbb",
        "pos moves=\"22-18\"",
        "pos pos=Xbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww",
        &format!("pos pos={START} moves=\"22-\""),
        &format!("pos pos={START} moves=\"22x18x40\""),
        "level",
        "level depth=deep",
        "level time=-3",
        "level moves=4",
        "go",
        "go fishing",
        "id name=\"unterminated",
        "=",
        "xyzzy",
    ] {
        hub.send(bad);
        error(hub.next());
    }
    // A finished game is not searched: the side to move has no piece left, or none can
    // move: `done` with no move, as the protocol answers for no legal move.
    for over in [
        "pos pos=Beeeeeeeeeeeeeeeeeeeeewwwwwwwwwww",
        "pos pos=B:WK1:B",
        "pos pos=W:W29:B25,22",
    ] {
        hub.send(over);
        hub.send("go think");
        assert_eq!(hub.next(), "done", "{over}");
    }
    // Issue 41: a position that cannot arise (the side that just moved has no pieces) was
    // played from; now it is refused and the position unset, as are men on their crowning
    // row and more than 12 pieces a side, in both forms of a position.
    for impossible in [
        "pos pos=W:WK1:B",
        "pos pos=WWeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee",
        "pos pos=W:W:B",
        "pos pos=Beeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeb",
        "pos pos=W:W1:B30",
        "pos pos=W:W13-26:B1",
        "pos pos=Wwbbbbbbbbbbbbeeeeeeewwwwwwwwwwww",
    ] {
        hub.send(&format!("pos pos={START}"));
        hub.send(impossible);
        let refused = error(hub.next());
        assert!(
            refused.contains("(position unset)"),
            "{impossible}: {refused}"
        );
        hub.send("go think");
        assert!(error(hub.next()).contains("no position"), "{impossible}");
    }
    hub.send("pos pos=W:WK1:B");
    assert!(
        error(hub.next()).contains("Black has no pieces but White is to move"),
        "the reason is given"
    );

    // Commands during a search are refused; ping and stop are read.
    hub.send(&format!("pos pos={START}"));
    hub.send("level infinite");
    hub.send("go think");
    assert!(hub.next().starts_with("info"));
    let pos = format!("pos pos={START}");
    for during in [
        pos.as_str(),
        "level depth=3",
        "go think",
        "new-game",
        "hub",
        "init",
    ] {
        hub.send(during);
    }
    hub.send("ping");
    let mut errors = 0;
    loop {
        let line = hub.next();
        if line == "pong" {
            break;
        }
        if line.starts_with("error") {
            assert!(line.contains("during a search"), "{line}");
            errors += 1;
        }
    }
    assert_eq!(errors, 6);
    hub.send("stop");
    let done = hub.until("done").pop().unwrap();
    legal(
        &Position::start(Color::White),
        Variant::Czech,
        &field(&done, "move").unwrap(),
    );
    hub.quiet();

    // Garbage: random bytes and mangled commands, never a panic or an exit.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        state.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    };
    let commands = [
        "hub",
        "init",
        "set-param name=hash value=3",
        "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww moves=\"22-18 11-15\"",
        "level depth=2",
        "level move-time=0.01",
        "go think",
        "go analyze",
        "new-game",
        "ping",
        "ponder-hit",
    ];
    hub.send("level depth=2");
    for i in 0..400 {
        let line: Vec<u8> = if i % 2 == 0 {
            let len = (next() % 120) as usize;
            (0..len)
                .map(|_| (next() % 256) as u8)
                .filter(|&b| b != b'\n')
                .collect()
        } else {
            let mut bytes = commands[(next() % commands.len() as u64) as usize]
                .as_bytes()
                .to_vec();
            for _ in 0..(next() % 4) {
                let at = (next() as usize) % bytes.len().max(1);
                match next() % 3 {
                    0 => bytes.truncate(at),
                    1 => bytes.insert(at, b"=\" x-9q"[(next() % 7) as usize]),
                    _ if !bytes.is_empty() => {
                        bytes.remove(at.min(bytes.len() - 1));
                    }
                    _ => {}
                }
            }
            bytes
        };
        // Only a quit could end it, and none is sent.
        if String::from_utf8_lossy(&line).split_whitespace().next() == Some("quit") {
            continue;
        }
        hub.send_bytes(&line);
    }
    hub.send("stop");
    hub.send("ping");
    let mut got_errors = 0;
    let until = Instant::now() + WAIT;
    loop {
        assert!(Instant::now() < until);
        let line = hub.next();
        if line.starts_with("error") {
            got_errors += 1;
        }
        if line == "pong" && got_errors >= 150 {
            break;
        }
    }
    // Still fully working (once a search the garbage may have started has ended).
    hub.send("stop");
    std::thread::sleep(Duration::from_millis(500));
    while hub.lines.try_recv().is_ok() {}
    hub.send("level depth=3");
    hub.send(&format!("pos pos={START}"));
    hub.send("go think");
    let lines = hub.until("done");
    legal(
        &Position::start(Color::White),
        Variant::Czech,
        &field(lines.last().unwrap(), "move").unwrap(),
    );
    // The end of the input during a search ends the engine at once.
    hub.send("level infinite");
    hub.send("go think");
    assert!(hub.next().starts_with("info"));
    hub.stdin = None;
    assert!(hub.exits().success());
}

/// Issue 27, item 3: a `pos` refused for what it says — a bad square in its moves, 13 men, a
/// man on its crowning row, a line cut off — unsets the position, so `go` is refused instead
/// of answered for the position before.
#[test]
fn a_refused_pos_unsets_the_position() {
    let mut hub = Hub::start(&[]);
    hub.handshake("tz");
    hub.send("level depth=2");
    let thirteen_men = "Wbbbbbbbbbbbbeeeeeeewwwwwwwwwwwww";
    let crowning_row = "Wweeeeeeeeeeeeeeeeeeeeeeeeeeeeeeb";
    for bad in [
        format!("pos pos={START} moves=\"99-1\""),
        format!("pos pos={thirteen_men}"),
        format!("pos pos={crowning_row}"),
        format!("pos pos={START} moves=\"22-18"),
        format!(
            "pos pos={START} moves=\"22-18 11-15\" {}",
            "x".repeat(70_000)
        ),
    ] {
        hub.send(&format!("pos pos={START}"));
        hub.send("go think");
        assert!(hub.until("done").last().unwrap().starts_with("done move="));
        hub.send(&bad);
        let refused = hub.next();
        assert!(
            refused.starts_with("error message=") && refused.ends_with(" (position unset)\""),
            "{bad:.80}: {refused}"
        );
        hub.send("go think");
        assert_eq!(
            hub.next(),
            r#"error message="go: no position: send pos first""#
        );
        hub.ping();
    }
    hub.send("quit");
    assert!(hub.exits().success());
}
