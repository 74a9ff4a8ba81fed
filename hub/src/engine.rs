//! The engine side of the Hub protocol: [`serve`] answers a GUI on any reader and writer
//! (`drafti hub` runs it on stdin and stdout).
//!
//! Three threads: one reads the GUI's lines, one searches (a fresh thread per `go`, which
//! takes the [`Engine`] and gives it back with the result), and the loop between them, which
//! answers every command, runs the clock (it raises the engine's [`StopFlag`] when the time is
//! up) and writes `done`. So `ping` and `stop` are answered while a search runs. The engine —
//! its transposition table — is allocated once at `init` and kept across the searches of a
//! game (`Engine::set_keep_table`); `new-game` clears it.
//!
//! What is refused, with an `error message="..."` line and the engine still running: a line
//! that is not a command, `go` before `init` or without a position, any refused `pos` — an
//! illegal move, a bad square or piece count, a man on its crowning row, a position that
//! cannot arise (the side that just moved has no pieces), a line too long — (the position
//! is then unset, so a following `go` is refused too), a line longer than [`MAX_LINE`] (not kept: its start is quoted), a bad parameter, and any command but `ping`, `ponder-hit`, `stop` and `quit` during a
//! search. A stray `stop` or `ponder-hit` after a search ended is ignored (it crossed `done`).
//!
//! The loop reads no environment and prints nothing of its own: endgame tables come from the
//! [`Host`]'s provider, and what a person should hear about (a table that cannot be used)
//! goes to its diagnostics.
//!
//! ```
//! use drafti_hub::{serve, Host, Settings};
//! use std::io::{BufRead, BufReader, Write};
//! use std::sync::Arc;
//!
//! let (from_gui, mut to_engine) = std::io::pipe()?;
//! let (from_engine, to_gui) = std::io::pipe()?;
//! let settings = Settings { hash_mb: 1, ..Settings::default() };
//! let engine = std::thread::spawn(move || {
//!     serve(BufReader::new(from_gui), to_gui, settings, Host::default())
//! });
//! writeln!(to_engine, "hub")?;
//! writeln!(to_engine, "init")?;
//! writeln!(to_engine, "pos pos=Wbbbbbbbbbbbbeeeeeeeewwwwwwwwwwww")?;
//! writeln!(to_engine, "level depth=3")?;
//! writeln!(to_engine, "go think")?;
//! let mut lines = BufReader::new(from_engine).lines();
//! let mut answers = Vec::new();
//! for line in &mut lines {
//!     let line = line?;
//!     let done = line.starts_with("done");
//!     answers.push(line);
//!     if done {
//!         break;
//!     }
//! }
//! assert!(answers[0].starts_with("id name=drafti"));
//! assert!(answers.contains(&"wait".to_string()) && answers.contains(&"ready".to_string()));
//! assert!(answers.iter().any(|l| l.starts_with("info depth=3")));
//! assert!(answers.last().unwrap().starts_with("done move="));
//! writeln!(to_engine, "quit")?;
//! engine.join().expect("the loop ends")?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::protocol::{
    excerpt, line_string, move_string, read_line_bounded, score_string, Command, GoMode, HubMove,
    Level, Message, MAX_LINE,
};
use drafti_engine::egtb::Tables;
use drafti_engine::{DepthInfo, Engine, Limits, SearchResult, StopFlag, DEFAULT_DEPTH, MAX_DEPTH};
use drafti_rules::{DrawLaws, Game, Outcome, Position, TzDraftCounts, Variant};
use std::io::{self, BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// The engine parameters (`param` lines of the handshake, changed by `set-param`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Rules: `tz`, `czech` or `russian`.
    pub variant: Variant,
    /// Transposition table in MiB.
    pub hash_mb: usize,
    /// A node limit on every search (whatever `level` says), if any.
    pub nodes: Option<u64>,
    /// A depth limit on every search, if any.
    pub depth: Option<u32>,
    /// Tanzanian draw law 2: the lone king's agreed count.
    pub king_count: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            variant: Variant::Tanzanian,
            hash_mb: 64,
            nodes: None,
            depth: None,
            king_count: DrawLaws::for_variant(Variant::Tanzanian).king_count,
        }
    }
}

impl Settings {
    /// The `param` lines of the handshake, with the current values (0 = no limit).
    fn declarations(&self) -> Vec<Message> {
        let names: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        vec![
            Message::new("param")
                .arg("name", "variant")
                .arg("value", self.variant.name())
                .arg("type", "enum")
                .arg("values", names.join(" ")),
            Message::new("param")
                .arg("name", "hash")
                .arg("value", self.hash_mb)
                .arg("type", "int")
                .arg("min", 1)
                .arg("max", MAX_HASH_MB),
            Message::new("param")
                .arg("name", "nodes")
                .arg("value", self.nodes.unwrap_or(0))
                .arg("type", "int")
                .arg("min", 0)
                .arg("max", u64::MAX),
            Message::new("param")
                .arg("name", "depth")
                .arg("value", self.depth.unwrap_or(0))
                .arg("type", "int")
                .arg("min", 0)
                .arg("max", MAX_DEPTH),
            Message::new("param")
                .arg("name", "king-count")
                .arg("value", self.king_count)
                .arg("type", "int")
                .arg("min", 1)
                .arg("max", 1000),
        ]
    }

    /// Applies `set-param`; the error says why not.
    fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let whole = |max: u64| {
            value
                .trim()
                .parse::<u64>()
                .ok()
                .filter(|n| *n <= max)
                .ok_or_else(|| format!("{name}: '{value}' is not a whole number up to {max}"))
        };
        match name {
            "variant" => self.variant = value.parse().map_err(|e| format!("variant: {e}"))?,
            "hash" => {
                let mb = whole(MAX_HASH_MB as u64)?;
                if mb == 0 {
                    return Err("hash: at least 1 MiB".to_string());
                }
                self.hash_mb = mb as usize;
            }
            "nodes" => self.nodes = Some(whole(u64::MAX)?).filter(|&n| n > 0),
            "depth" => self.depth = Some(whole(u64::from(MAX_DEPTH))? as u32).filter(|&d| d > 0),
            "king-count" => {
                let n = whole(1000)?;
                if n == 0 {
                    return Err("king-count: at least 1".to_string());
                }
                self.king_count = n as u32;
            }
            _ => {
                return Err(format!(
                    "unknown parameter '{name}' (variant, hash, nodes, depth, king-count)"
                ))
            }
        }
        Ok(())
    }

    fn laws(&self) -> DrawLaws {
        DrawLaws {
            king_count: self.king_count,
            ..DrawLaws::for_variant(self.variant)
        }
    }
}

/// The largest table `hash` accepts.
pub const MAX_HASH_MB: usize = 16_384;

/// Endgame tables for a variant: `Ok(None)` when there are none; an error says why the
/// tables there cannot be used.
pub type TableProvider =
    Box<dyn FnMut(Variant) -> Result<Option<Arc<Tables>>, String> + Send + 'static>;

/// What the engine loop needs from the program it runs in.
pub struct Host {
    /// Asked for tables each time `init` builds an engine (after a change of variant, too).
    pub tables: TableProvider,
    /// Receives one line for a person per thing that went wrong without stopping the loop
    /// (tables that could not be used).
    pub diagnostics: Box<dyn FnMut(&str) + Send + 'static>,
}

impl Default for Host {
    /// No endgame tables; diagnostics dropped.
    fn default() -> Host {
        Host {
            tables: Box::new(|_| Ok(None)),
            diagnostics: Box::new(|_| {}),
        }
    }
}

/// Why [`serve`] stopped before `quit` or the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// Writing to the GUI failed; [`ServeError::gui_gone`] tells a closed pipe apart.
    #[error(transparent)]
    Io(#[from] io::Error),
}

impl ServeError {
    /// Whether the GUI closed its end (the protocol's way to end the engine, not a failure).
    pub fn gui_gone(&self) -> bool {
        match self {
            ServeError::Io(e) => e.kind() == io::ErrorKind::BrokenPipe,
        }
    }
}

/// How the engine names itself in the handshake.
fn identity() -> Message {
    Message::new("id")
        .arg("name", "drafti")
        .arg("version", env!("CARGO_PKG_VERSION"))
}

/// Lines to the GUI, from the loop and from the search thread, one whole line at a time.
#[derive(Clone)]
struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    fn send(&self, message: &Message) -> io::Result<()> {
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(out, "{message}")?;
        out.flush()
    }

    fn error(&self, text: impl std::fmt::Display) -> io::Result<()> {
        self.send(&Message::new("error").arg("message", text))
    }
}

/// What the loop waits for.
enum Event {
    Line(String),
    /// A line over [`MAX_LINE`] bytes: its start and its length.
    TooLong {
        start: String,
        bytes: u64,
    },
    Eof,
    Finished(Box<Finished>),
}

struct Finished {
    /// `None` if the search panicked (the engine is gone; `init` makes a new one).
    engine: Option<Engine>,
    result: Option<SearchResult>,
    write_failed: bool,
}

/// The position to search, as `pos` set it.
struct Setup {
    position: Position,
    /// Keys of the positions before it, oldest first (repetitions).
    history: Vec<u64>,
    king_count: Option<u32>,
    /// TzDraft's server's counts (its games only).
    tzdraft_counts: Option<TzDraftCounts>,
    outcome: Option<Outcome>,
}

/// A search under way.
struct Running {
    mode: GoMode,
    stop: StopFlag,
    /// When the loop raises the stop flag.
    hard: Option<Instant>,
    /// After it, the search thread starts no new iteration.
    soft: Arc<Mutex<Option<Instant>>>,
}

/// Soft and hard time for a move under `level`, if it has a clock.
fn time_budget(level: &Level) -> Option<(Duration, Duration)> {
    if let Some(t) = level.move_time {
        return Some((t, t));
    }
    let (target, usable) = clock_target(level.time?, level.inc.unwrap_or_default(), level.moves);
    // An iteration costs about as much as all before it: none is started after half.
    Some((target / 2, (target * 3).min(usable)))
}

/// The time to aim at for one move on a clock with `time` left, `inc` added before the move
/// and `moves` to play in it (none: sudden death), and the most that may be used.
pub(crate) fn clock_target(
    time: Duration,
    inc: Duration,
    moves: Option<u32>,
) -> (Duration, Duration) {
    // The protocol adds the increment before the move.
    let available = time + inc;
    // Leave room for the GUI's and the pipe's overhead.
    let reserve = (available / 20).min(Duration::from_millis(300));
    let usable = available.saturating_sub(reserve);
    let moves_to_go = moves.unwrap_or(30).max(1);
    let target = (usable.saturating_sub(inc) / moves_to_go + inc).min(usable);
    (target, usable)
}

/// The engine's limits for a search under `level`, `settings`' caps and the game's count.
fn search_limits(
    level: Option<&Level>,
    mode: GoMode,
    settings: &Settings,
    king_count: Option<u32>,
) -> Limits {
    let default = Level::default();
    let level = level.unwrap_or(&default);
    let open = level.infinite || mode == GoMode::Ponder || time_budget(level).is_some();
    let mut depth = level.depth;
    if depth.is_none() && level.nodes.is_none() && (open || settings.nodes.is_none()) {
        // Analysis without a level runs until `stop`; a move without one at the usual depth.
        depth = Some(if open || mode == GoMode::Analyze {
            MAX_DEPTH
        } else {
            DEFAULT_DEPTH
        });
    }
    let nodes = match (level.nodes, settings.nodes) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    };
    let depth = match (depth, settings.depth) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (None, None) if nodes.is_none() => Some(DEFAULT_DEPTH),
        (a, b) => a.or(b),
    };
    Limits {
        depth: depth.map(|d| d.clamp(1, MAX_DEPTH)),
        nodes,
        king_count,
        ..Limits::default()
    }
}

/// `info depth=… seldepth=… score=… nodes=… time=… nps=… pv="…"` (nps in millions, as Scan).
fn info_message(info: &DepthInfo) -> Message {
    Message::new("info")
        .arg("depth", info.depth)
        .arg("seldepth", info.seldepth)
        .arg("score", score_string(info.score))
        .arg("nodes", info.nodes)
        .arg("time", format!("{:.3}", info.elapsed.as_secs_f64()))
        .arg("nps", format!("{:.2}", info.nps() as f64 / 1e6))
        .arg("pv", line_string(info.pv()))
}

/// What the loop does after a command.
#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// What `go` started.
enum Go {
    /// A search, which ends with `done move=…`.
    Searching,
    /// Nothing: the game is over at the position.
    Over,
}

struct Session {
    settings: Settings,
    host: Host,
    /// `None` before `init` and while a search holds it.
    engine: Option<Engine>,
    /// The settings `engine` was made with.
    built: Option<Settings>,
    setup: Option<Setup>,
    level: Option<Level>,
    search: Option<Running>,
    out: Output,
    events: Sender<Event>,
}

/// Runs the protocol on `input` and `output` until `quit` or the end of the input, starting
/// from `settings` (the GUI may change them with `set-param`); the module's example shows a
/// whole exchange.
pub fn serve(
    input: impl BufRead + Send + 'static,
    output: impl Write + Send + 'static,
    settings: Settings,
    host: Host,
) -> Result<(), ServeError> {
    let (events, inbox) = mpsc::channel();
    let reader_events = events.clone();
    thread::Builder::new()
        .name("hub-input".to_string())
        .spawn(move || read_lines(input, reader_events))?;
    let mut session = Session {
        settings,
        host,
        engine: None,
        built: None,
        setup: None,
        level: None,
        search: None,
        out: Output(Arc::new(Mutex::new(Box::new(output)))),
        events,
    };
    Ok(session.run(inbox)?)
}

/// Sends every input line (invalid UTF-8 replaced) to the loop, then `Eof`. A line longer
/// than [`MAX_LINE`] is not kept: its start goes to the loop as [`Event::TooLong`], the rest
/// is dropped as it is read.
fn read_lines(mut input: impl BufRead, events: Sender<Event>) {
    let mut buffer = Vec::new();
    while let Ok(Some(dropped)) = read_line_bounded(&mut input, MAX_LINE, &mut buffer) {
        let line = String::from_utf8_lossy(&buffer).into_owned();
        let event = if dropped == 0 {
            Event::Line(line)
        } else {
            Event::TooLong {
                start: excerpt(&line, 40),
                bytes: buffer.strip_suffix(b"\n").unwrap_or(&buffer).len() as u64 + dropped,
            }
        };
        if events.send(event).is_err() {
            return;
        }
    }
    let _ = events.send(Event::Eof);
}

impl Session {
    fn run(&mut self, inbox: Receiver<Event>) -> io::Result<()> {
        loop {
            let deadline = self.search.as_ref().and_then(|s| s.hard);
            let event = match deadline {
                Some(deadline) => {
                    match inbox.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
                        Ok(event) => event,
                        Err(RecvTimeoutError::Timeout) => {
                            if let Some(search) = &mut self.search {
                                search.stop.raise();
                                search.hard = None;
                            }
                            continue;
                        }
                        Err(RecvTimeoutError::Disconnected) => return Ok(()),
                    }
                }
                None => match inbox.recv() {
                    Ok(event) => event,
                    Err(_) => return Ok(()),
                },
            };
            match event {
                Event::Line(line) => {
                    if self.line(&line)? == Flow::Quit {
                        return Ok(());
                    }
                }
                Event::TooLong { start, bytes } => {
                    // Refused like any unreadable line; a refused `pos` unsets the position.
                    let unset = self.refused(&start);
                    self.out.error(format!(
                        "a line of {bytes} bytes is longer than {MAX_LINE}: not read (it began \
                         '{start}'){unset}"
                    ))?;
                }
                // The GUI is gone: quit as directly as possible.
                Event::Eof => {
                    if let Some(search) = &self.search {
                        search.stop.raise();
                    }
                    return Ok(());
                }
                Event::Finished(finished) => self.finished(*finished)?,
            }
        }
    }

    fn line(&mut self, line: &str) -> io::Result<Flow> {
        let command = match Command::parse(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Ok(Flow::Continue),
            Err(e) => {
                let unset = self.refused(line);
                let reason = excerpt(&e.to_string(), 120);
                self.out
                    .error(format!("{reason} (in '{}'){unset}", excerpt(line, 40)))?;
                return Ok(Flow::Continue);
            }
        };
        if let Some(search) = &mut self.search {
            if matches!(command, Command::Pos { .. }) {
                // Refused below; the search's own position was copied when it started.
                self.setup = None;
            }
            match command {
                Command::Ping => self.out.send(&Message::new("pong"))?,
                Command::Stop => search.stop.raise(),
                Command::PonderHit if search.mode == GoMode::Ponder => {
                    search.mode = GoMode::Think;
                    if let Some((soft, hard)) = self.level.as_ref().and_then(time_budget) {
                        let now = Instant::now();
                        *search.soft.lock().unwrap_or_else(|e| e.into_inner()) = Some(now + soft);
                        search.hard = Some(now + hard);
                    } else if self.level.as_ref().is_some_and(|l| l.infinite) {
                        // Nothing to time: the search goes on until `stop`.
                    }
                }
                Command::PonderHit => {}
                Command::Quit => {
                    search.stop.raise();
                    return Ok(Flow::Quit);
                }
                other => self.out.error(format!(
                    "{} during a search: only ping, ponder-hit, stop and quit are read until done",
                    command_name(&other)
                ))?,
            }
            return Ok(Flow::Continue);
        }
        match command {
            Command::Hub => {
                self.out.send(&identity())?;
                for param in self.settings.declarations() {
                    self.out.send(&param)?;
                }
                self.out.send(&Message::new("wait"))?;
            }
            Command::SetParam { name, value } => {
                let before = self.settings.variant;
                match self.settings.set(&name, &value) {
                    Ok(()) if self.settings.variant != before => self.setup = None,
                    Ok(()) => {}
                    Err(e) => self.out.error(format!("set-param: {e}"))?,
                }
            }
            Command::Init => {
                self.init();
                self.out.send(&Message::new("ready"))?;
            }
            Command::Pos { position, moves } => {
                self.setup = None;
                match self.position(position, &moves) {
                    Ok(setup) => self.setup = Some(setup),
                    Err(e) => self.out.error(format!("pos: {e} (position unset)"))?,
                }
            }
            Command::Level(level) => self.level = Some(level),
            Command::Go(mode) => match self.go(mode) {
                Ok(Go::Searching) => {}
                // The game is over (no legal move, or a draw law): `done` with no move, as
                // the protocol answers when there is no legal move.
                Ok(Go::Over) => self.out.send(&Message::new("done"))?,
                Err(e) => self.out.error(format!("go: {e}"))?,
            },
            // Crossed the end of a search: nothing to stop.
            Command::PonderHit | Command::Stop => {}
            Command::NewGame => {
                if let Some(engine) = &mut self.engine {
                    engine.clear();
                }
            }
            Command::Ping => self.out.send(&Message::new("pong"))?,
            Command::Quit => return Ok(Flow::Quit),
        }
        Ok(Flow::Continue)
    }

    /// A line the loop refuses: when it is a `pos`, the position is unset (a `go` after it
    /// is refused rather than answered for the position before). What to add to the error.
    fn refused(&mut self, line: &str) -> &'static str {
        if line.split_whitespace().next() == Some("pos") {
            self.setup = None;
            " (position unset)"
        } else {
            ""
        }
    }

    /// Makes the engine for the current settings (kept if they did not change).
    fn init(&mut self) {
        if self.engine.is_some() && self.built.as_ref() == Some(&self.settings) {
            return;
        }
        self.engine = None; // free the old table before allocating the new one
        let mut engine = Engine::with_laws(
            self.settings.variant,
            self.settings.hash_mb,
            self.settings.laws(),
        );
        engine.set_keep_table(true);
        // Tables that do not fit (or could not be opened) are reported and the engine plays
        // without them.
        let unusable = match (self.host.tables)(self.settings.variant) {
            Ok(Some(tables)) => engine.set_tables(Some(tables)).err().map(|e| e.to_string()),
            Ok(None) => None,
            Err(e) => Some(e),
        };
        if let Some(e) = unusable {
            (self.host.diagnostics)(&format!("endgame tables not used: {e}"));
        }
        self.engine = Some(engine);
        self.built = Some(self.settings.clone());
    }

    /// The game from `position` after `moves`.
    fn position(&self, position: Position, moves: &[HubMove]) -> Result<Setup, String> {
        let variant = self.settings.variant;
        let mut game = Game::with_laws(position, variant, self.settings.laws());
        let mut history = Vec::with_capacity(moves.len());
        for (i, text) in moves.iter().enumerate() {
            let mv = text
                .resolve(game.position(), variant)
                .map_err(|e| format!("move {} of moves: {e} ({variant} rules)", i + 1))?;
            history.push(game.position().hash_key());
            game.play(&mv);
        }
        Ok(Setup {
            position: *game.position(),
            history,
            king_count: game.king_count(),
            tzdraft_counts: game.tzdraft_counts(),
            outcome: game.outcome(),
        })
    }

    fn go(&mut self, mode: GoMode) -> Result<Go, String> {
        if self.engine.is_none() {
            return Err("no engine yet: send init first (after hub and set-param)".to_string());
        }
        let Some(setup) = &self.setup else {
            return Err("no position: send pos first".to_string());
        };
        if setup.outcome.is_some() {
            return Ok(Go::Over);
        }
        let limits = Limits {
            tzdraft_counts: setup.tzdraft_counts,
            ..search_limits(self.level.as_ref(), mode, &self.settings, setup.king_count)
        };
        let now = Instant::now();
        let budget = match mode {
            GoMode::Ponder => None,
            _ => self.level.as_ref().and_then(time_budget),
        };
        let engine = self.engine.take().expect("checked above");
        let stop = engine.stop_flag();
        stop.lower();
        let soft = Arc::new(Mutex::new(budget.map(|(soft, _)| now + soft)));
        self.search = Some(Running {
            mode,
            stop: stop.clone(),
            hard: budget.map(|(_, hard)| now + hard),
            soft: Arc::clone(&soft),
        });
        let out = self.out.clone();
        let events = self.events.clone();
        let position = setup.position;
        let history = setup.history.clone();
        let spawned = thread::Builder::new()
            .name("hub-search".to_string())
            .spawn(move || {
                let mut write_failed = false;
                let mut engine = Some(engine);
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    let engine = engine.as_mut().expect("engine");
                    engine.search(&position, &limits, &history, |info| {
                        if out.send(&info_message(info)).is_err() {
                            write_failed = true;
                            stop.raise();
                        }
                        let soft = *soft.lock().unwrap_or_else(|e| e.into_inner());
                        if soft.is_some_and(|soft| Instant::now() >= soft) {
                            stop.raise();
                        }
                    })
                }));
                let finished = match outcome {
                    Ok(result) => Finished {
                        engine,
                        result: Some(result),
                        write_failed,
                    },
                    Err(_) => Finished {
                        engine: None,
                        result: None,
                        write_failed,
                    },
                };
                let _ = events.send(Event::Finished(Box::new(finished)));
            });
        if let Err(e) = spawned {
            self.search = None;
            return Err(format!("cannot start the search thread: {e}"));
        }
        Ok(Go::Searching)
    }

    fn finished(&mut self, finished: Finished) -> io::Result<()> {
        self.search = None;
        self.engine = finished.engine;
        if self.engine.is_none() {
            self.built = None;
        }
        if finished.write_failed {
            return Err(io::Error::new(
                io::ErrorKind::BrokenPipe,
                "the GUI stopped reading",
            ));
        }
        match finished
            .result
            .as_ref()
            .and_then(|r| r.best.map(|best| (r, best)))
        {
            Some((result, best)) => {
                let mut done = Message::new("done").arg("move", move_string(&best));
                if let Some(answer) = result.pv.get(1) {
                    done = done.arg("ponder", move_string(answer));
                }
                self.out.send(&done)
            }
            None if finished.result.is_none() => self
                .out
                .error("the search failed (internal error); send init to start again"),
            None => self.out.error("no move to play"),
        }
    }
}

/// The protocol word of a command, for messages.
fn command_name(command: &Command) -> &'static str {
    match command {
        Command::Hub => "hub",
        Command::SetParam { .. } => "set-param",
        Command::Init => "init",
        Command::Pos { .. } => "pos",
        Command::Level(_) => "level",
        Command::Go(_) => "go",
        Command::PonderHit => "ponder-hit",
        Command::Stop => "stop",
        Command::NewGame => "new-game",
        Command::Ping => "ping",
        Command::Quit => "quit",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(text: &str) -> Level {
        match Command::parse(text).unwrap() {
            Some(Command::Level(level)) => level,
            other => panic!("{other:?}"),
        }
    }

    /// The engine's answers to `input` (every line up to the end of its output).
    fn answers(input: &str) -> Vec<String> {
        #[derive(Clone, Default)]
        struct Shared(Arc<Mutex<Vec<u8>>>);
        impl Write for Shared {
            fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
                self.0.lock().unwrap().extend_from_slice(buf);
                Ok(buf.len())
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let settings = Settings {
            hash_mb: 1,
            ..Settings::default()
        };
        let out = Shared::default();
        let input = io::Cursor::new(input.as_bytes().to_vec());
        serve(input, out.clone(), settings, Host::default()).unwrap();
        let text = String::from_utf8(out.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn a_finished_game_is_answered_done_and_an_impossible_one_refused() {
        // Issue 41: `pos pos=W:WK1:B` (Black, who just moved, has no pieces) then `go`
        // answered a move. Now the position is refused; a finished game (a draw law, no
        // legal move) gets `done` with no move.
        let lines = answers(
            "hub\ninit\npos pos=W:WK1:BK30\ngo think\npos pos=W:W29:B25,22\ngo think\n\
             pos pos=W:WK1:B\ngo think\nquit\n",
        );
        let after_ready: Vec<&str> = lines
            .iter()
            .skip_while(|l| *l != "ready")
            .skip(1)
            .map(String::as_str)
            .collect();
        assert_eq!(after_ready.len(), 4, "{lines:?}");
        assert_eq!(after_ready[..2], ["done", "done"]);
        assert!(
            after_ready[2].starts_with("error message=\"pos: FEN: bad FEN: Black has no pieces")
                && after_ready[2].ends_with("(position unset)\""),
            "{}",
            after_ready[2]
        );
        assert_eq!(
            after_ready[3],
            "error message=\"go: no position: send pos first\""
        );
    }

    #[test]
    fn budgets() {
        assert_eq!(time_budget(&level("level depth=5")), None);
        let t = Duration::from_millis(250);
        assert_eq!(time_budget(&level("level move-time=0.25")), Some((t, t)));
        // Sudden death, 30 s: about a thirtieth of it per move.
        let (soft, hard) = time_budget(&level("level time=30")).unwrap();
        assert!(
            soft < hard && hard < Duration::from_secs(4),
            "{soft:?} {hard:?}"
        );
        assert!(soft > Duration::from_millis(300), "{soft:?}");
        // The last move before the control may use nearly all the time, never more.
        let (_, hard) = time_budget(&level("level moves=1 time=2")).unwrap();
        assert!(hard <= Duration::from_secs(2) && hard > Duration::from_millis(1500));
        // An increment is spent on top.
        let (with, _) = time_budget(&level("level time=10 inc=2")).unwrap();
        let (without, _) = time_budget(&level("level time=10")).unwrap();
        assert!(with > without + Duration::from_millis(900));
    }

    #[test]
    fn limits() {
        let settings = Settings::default();
        let think = search_limits(None, GoMode::Think, &settings, None);
        assert_eq!(think.depth, Some(DEFAULT_DEPTH));
        let analyze = search_limits(None, GoMode::Analyze, &settings, None);
        assert_eq!(analyze.depth, Some(MAX_DEPTH));
        let nodes = search_limits(
            Some(&level("level nodes=500")),
            GoMode::Think,
            &settings,
            Some(3),
        );
        assert_eq!(
            (nodes.depth, nodes.nodes, nodes.king_count),
            (None, Some(500), Some(3))
        );
        let timed = search_limits(Some(&level("level time=5")), GoMode::Think, &settings, None);
        assert_eq!((timed.depth, timed.nodes), (Some(MAX_DEPTH), None));
        let capped = Settings {
            nodes: Some(100),
            depth: Some(4),
            ..Settings::default()
        };
        let l = search_limits(
            Some(&level("level nodes=500 depth=9")),
            GoMode::Think,
            &capped,
            None,
        );
        assert_eq!((l.depth, l.nodes), (Some(4), Some(100)));
        let l = search_limits(
            None,
            GoMode::Think,
            &Settings {
                depth: None,
                ..capped
            },
            None,
        );
        assert_eq!((l.depth, l.nodes), (None, Some(100)));
    }

    #[test]
    fn params() {
        let mut s = Settings::default();
        assert!(s.set("variant", "russian").is_ok());
        assert_eq!(s.variant, Variant::Russian);
        assert!(s.set("variant", "chess").is_err());
        assert!(s.set("hash", "0").is_err());
        assert!(s.set("hash", "16").is_ok());
        assert!(s.set("nodes", "-3").is_err());
        assert!(s.set("nodes", "0").is_ok() && s.nodes.is_none());
        assert!(s.set("depth", "7").is_ok() && s.depth == Some(7));
        assert!(s.set("depth", "1000").is_err());
        assert!(s.set("colour", "red").is_err());
        let declared: Vec<String> = s.declarations().iter().map(|m| m.to_string()).collect();
        assert_eq!(
            declared[0],
            r#"param name=variant value=russian type=enum values="tz czech russian tzdraft""#
        );
    }
}
