//! The GUI side of the Hub protocol: one engine process driven over its pipes (a match's
//! [`crate::HubPlayer`] holds one).
//!
//! The engine's output is read on a thread into a bounded channel, so every wait has a
//! deadline, checked before each line: an engine that hangs, or floods lines past its time,
//! is noticed, killed and reported as [`ClientError::Timeout`]; one that exits as
//! [`ClientError::Exited`] (with the last lines it wrote to stderr), even when a child it left
//! behind still holds its output open. Every line read from the process (stdout and stderr)
//! is bounded by [`MAX_LINE`]: the rest of a longer one is dropped as it is read.
//!
//! The command runs under `sh -c` (so `cd dir && cmd` and `VAR=x cmd` work) in a process
//! group of its own (on Unix), and the whole group is killed at the end: no process an engine
//! started outlives its match.

use crate::protocol::{excerpt, parse_score, read_line_bounded, Message, MAX_LINE};
use drafti_engine::Score;
use std::collections::VecDeque;
use std::io::{self, BufReader, Write};
#[cfg(unix)]
use std::os::unix::process::CommandExt;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// What went wrong with an engine.
#[derive(Debug, thiserror::Error)]
pub enum ClientError {
    /// The process could not be started.
    #[error("cannot start '{command}': {source}")]
    Spawn {
        /// The command line.
        command: String,
        /// Why not.
        source: io::Error,
    },
    /// The process ended (or closed its input).
    #[error("the engine exited{status}{}", if stderr.is_empty() { String::new() } else { format!(" (stderr: {stderr})") })]
    Exited {
        /// ` with status N`, ` on a signal`, or empty when unknown.
        status: String,
        /// Its last lines on stderr, joined by ` / `.
        stderr: String,
    },
    /// No answer in time (the process was killed).
    #[error("no answer within {:.1} s", .0.as_secs_f64())]
    Timeout(Duration),
    /// The engine answered `error message=...`.
    #[error("the engine answered 'error {0}'")]
    Refused(String),
    /// An answer that breaks the protocol.
    #[error("unreadable answer '{0}'")]
    Protocol(String),
    /// `done` without a move: the engine takes the game for over.
    #[error("the engine answered 'done' with no move: it takes the game for over")]
    NoMove,
}

/// The engine's answer to a `go think`.
#[derive(Clone, Debug, Default)]
pub struct Thought {
    /// The move as the engine wrote it.
    pub mv: String,
    /// Its expected answer, if it gave one.
    pub ponder: Option<String>,
    /// The score of its last `info`, from its own side.
    pub score: Option<Score>,
    /// The depth of its last `info`.
    pub depth: Option<u32>,
    /// Wall time from `go` to `done`, as measured here.
    pub elapsed: Duration,
}

/// A running Hub engine.
pub struct HubEngine {
    name: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Arc<Mutex<VecDeque<String>>>,
}

/// How many of the engine's last stderr lines a report quotes, and how much of each.
const STDERR_LINES: usize = 5;
const STDERR_CHARS: usize = 200;

/// Lines read ahead of the client: an engine that writes faster than it is read waits
/// (its pipe fills) instead of filling this process's memory.
const QUEUED_LINES: usize = 256;

/// How often a wait looks whether the process has exited (its output may stay open in a
/// child it left behind).
const EXIT_POLL: Duration = Duration::from_millis(50);

impl HubEngine {
    /// Starts `command` (run by `sh -c`, so it may hold arguments and quotes), does the
    /// handshake (`hub` … `wait`), sets `params` and initialises it (`init` … `ready`).
    pub fn start(
        command: &str,
        params: &[(String, String)],
        timeout: Duration,
    ) -> Result<HubEngine, ClientError> {
        let mut shell = Command::new("sh");
        shell
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        shell.process_group(0);
        let mut child = shell.spawn().map_err(|source| ClientError::Spawn {
            command: command.to_string(),
            source,
        })?;
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr_pipe = child.stderr.take().expect("piped stderr");
        let (sender, lines) = mpsc::sync_channel(QUEUED_LINES);
        thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buffer = Vec::new();
            // A line longer than MAX_LINE is no protocol line: skipped, its rest unread.
            while let Ok(Some(dropped)) = read_line_bounded(&mut reader, MAX_LINE, &mut buffer) {
                if dropped > 0 {
                    continue;
                }
                let line = String::from_utf8_lossy(&buffer).trim().to_string();
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr);
        thread::spawn(move || {
            let mut reader = BufReader::new(stderr_pipe);
            let mut buffer = Vec::new();
            while let Ok(Some(_)) = read_line_bounded(&mut reader, MAX_LINE, &mut buffer) {
                let line = excerpt(&String::from_utf8_lossy(&buffer), STDERR_CHARS);
                let mut tail = tail.lock().unwrap_or_else(|e| e.into_inner());
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let mut engine = HubEngine {
            name: String::new(),
            child,
            stdin,
            lines,
            stderr,
        };
        let deadline = Instant::now() + timeout;
        engine.send("hub")?;
        loop {
            let m = engine.receive(deadline, timeout)?;
            match m.command.as_str() {
                "id" => engine.name = m.get("name").unwrap_or_default().to_string(),
                "wait" => break,
                _ => {}
            }
        }
        for (name, value) in params {
            engine.send(
                &Message::new("set-param")
                    .arg("name", name)
                    .arg("value", value)
                    .to_string(),
            )?;
        }
        engine.send("init")?;
        loop {
            let m = engine.receive(deadline, timeout)?;
            match m.command.as_str() {
                "ready" => break,
                "error" => {
                    return Err(ClientError::Refused(
                        m.get("message").unwrap_or_default().to_string(),
                    ))
                }
                _ => {}
            }
        }
        Ok(engine)
    }

    /// The name the engine gave in its `id` line (empty if none).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Writes one line.
    pub fn send(&mut self, line: &str) -> Result<(), ClientError> {
        let written = writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush());
        written.map_err(|_| self.exited())
    }

    fn exited(&mut self) -> ClientError {
        // Give the process a moment to be reaped and the stderr reader to take the last words.
        let mut status = None;
        for _ in 0..20 {
            if let Ok(Some(s)) = self.child.try_wait() {
                status = Some(s);
                break;
            }
            thread::sleep(Duration::from_millis(5));
        }
        thread::sleep(Duration::from_millis(10));
        let tail = self.stderr.lock().unwrap_or_else(|e| e.into_inner());
        ClientError::Exited {
            status: match status.and_then(|s| s.code()) {
                Some(code) => format!(" with status {code}"),
                None if status.is_some() => " on a signal".to_string(),
                None => String::new(),
            },
            stderr: tail.iter().cloned().collect::<Vec<_>>().join(" / "),
        }
    }

    /// The next message (blank lines and unreadable ones skipped) before `deadline`: the
    /// deadline is checked before every line, so lines that keep coming do not put it off.
    fn receive(&mut self, deadline: Instant, timeout: Duration) -> Result<Message, ClientError> {
        loop {
            let now = Instant::now();
            if now >= deadline {
                self.kill();
                return Err(ClientError::Timeout(timeout));
            }
            let wait = (deadline - now).min(EXIT_POLL);
            match self.lines.recv_timeout(wait) {
                Ok(line) => {
                    if let Ok(Some(m)) = Message::parse(&line) {
                        return Ok(m);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    // Its output may be held open by a child it left: the exit is the news.
                    if let Ok(Some(_)) = self.child.try_wait() {
                        self.kill_group();
                        return Err(self.exited());
                    }
                }
                Err(RecvTimeoutError::Disconnected) => return Err(self.exited()),
            }
        }
    }

    /// `pos`, `level`, `go think`; waits for `done` until `deadline` (the engine is killed
    /// if it has not answered by then). An `error` answer fails at once (the engine will not
    /// send `done` for a search it refused).
    pub fn think(
        &mut self,
        pos: &str,
        level: &str,
        timeout: Duration,
    ) -> Result<Thought, ClientError> {
        self.send(pos)?;
        self.send(level)?;
        let start = Instant::now();
        self.send("go think")?;
        let deadline = start + timeout;
        let mut thought = Thought::default();
        loop {
            let m = self.receive(deadline, timeout)?;
            match m.command.as_str() {
                "info" => {
                    if let Some(score) = m.get("score").and_then(parse_score) {
                        thought.score = Some(score);
                    }
                    if let Some(depth) = m.get("depth").and_then(|d| d.parse().ok()) {
                        thought.depth = Some(depth);
                    }
                }
                "done" => {
                    thought.elapsed = start.elapsed();
                    thought.mv = match m.get("move") {
                        Some(mv) if !mv.is_empty() => mv.to_string(),
                        Some(_) => return Err(ClientError::Protocol(m.to_string())),
                        None => return Err(ClientError::NoMove),
                    };
                    thought.ponder = m.get("ponder").map(str::to_string);
                    return Ok(thought);
                }
                "error" => {
                    return Err(ClientError::Refused(
                        m.get("message").unwrap_or_default().to_string(),
                    ))
                }
                _ => {}
            }
        }
    }

    /// `new-game`, then `ping` until `pong` (the engine has cleared its table).
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), ClientError> {
        self.send("new-game")?;
        self.send("ping")?;
        let deadline = Instant::now() + timeout;
        while self.receive(deadline, timeout)?.command != "pong" {}
        Ok(())
    }

    /// Kills the engine and every process of its group.
    fn kill(&mut self) {
        self.kill_group();
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// Kills what is left of the engine's process group (children it started).
    fn kill_group(&self) {
        #[cfg(unix)]
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: a plain system call; the group is the one the engine was started in
            // (`process_group(0)`: its id is the engine's pid, still ours until reaped).
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
    }

    /// `quit`, a moment to exit, then kill.
    pub fn quit(mut self) {
        let _ = writeln!(self.stdin, "quit").and_then(|()| self.stdin.flush());
        let until = Instant::now() + Duration::from_millis(500);
        while Instant::now() < until {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            thread::sleep(Duration::from_millis(5));
        }
        self.kill();
    }
}

impl Drop for HubEngine {
    /// The engine and whatever it started end with it.
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            self.kill();
        } else {
            self.kill_group();
        }
    }
}
