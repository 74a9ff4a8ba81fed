//! One side of a match: the [`Player`] trait the runner drives, and its two kinds — the
//! drafti engine in this process ([`EnginePlayer`]: a [`Config`], optional endgame tables and
//! evaluation weights) and a Hub engine process ([`HubPlayer`], over [`HubEngine`]).
//!
//! A player that fails loses the game by [`Forfeit`]; the runner names the side and the
//! engine in the game's termination.

use crate::client::{ClientError, HubEngine};
use crate::engine::clock_target;
use crate::protocol::{line_string, position_string, HubMove, Message};
use drafti_engine::egtb::{EgtbError, Tables};
use drafti_engine::{Config, Engine, Limits, Score, Weights};
use drafti_rules::{DrawLaws, Game, Move, Position, Variant};
use std::fmt;
use std::sync::Arc;
use std::time::Duration;

/// What a player may spend on a move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Limit {
    /// This much time for the move.
    MoveTime(Duration),
    /// About this many nodes (deterministic for a deterministic engine).
    Nodes(u64),
    /// This depth.
    Depth(u32),
    /// A clock: `time` left, `inc` added before the move, `moves` to play in `time` before
    /// the next control (none: sudden death).
    Clock {
        /// The time left on this player's clock.
        time: Duration,
        /// Added before every move.
        inc: Duration,
        /// Moves to the next time control.
        moves: Option<u32>,
    },
}

/// The position a player is asked to move in.
#[derive(Clone, Copy, Debug)]
pub struct Turn<'a> {
    /// The rules.
    pub variant: Variant,
    /// Where the game started.
    pub start: &'a Position,
    /// The moves played from `start` (the opening's included).
    pub moves: &'a [Move],
    /// The game now: its position and the draw laws' counts.
    pub game: &'a Game,
    /// Hash keys of the positions before the current one, oldest first (repetitions).
    pub history: &'a [u64],
    /// What the move may cost.
    pub limit: Limit,
}

/// A player's move and what its search said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Reply {
    /// The move (legal in the turn's position).
    pub mv: Move,
    /// The score from the mover's side, if it gave one.
    pub score: Option<Score>,
    /// The depth reached, if known.
    pub depth: Option<u32>,
    /// The nodes searched, if known.
    pub nodes: Option<u64>,
    /// Wall time the move took.
    pub elapsed: Duration,
}

impl Reply {
    /// The evaluation as a PDN comment: `+0.35/9` (score/depth), `win in 7/12`, or just the
    /// score without a depth; `None` without a score.
    pub fn comment(&self) -> Option<String> {
        let score = self.score?;
        Some(match self.depth {
            Some(depth) => format!("{score}/{depth}"),
            None => score.to_string(),
        })
    }
}

/// How a player lost the game without the rules' help.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ForfeitKind {
    /// Out of time, or no answer within it.
    Time,
    /// An illegal or unreadable move, or a refusal to play.
    Rules,
    /// The engine could not start, or ended.
    Abandoned,
}

impl fmt::Display for ForfeitKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ForfeitKind::Time => "time forfeit",
            ForfeitKind::Rules => "rules infraction",
            ForfeitKind::Abandoned => "abandoned",
        })
    }
}

/// A player's failure: it loses the game.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{kind}: {reason}")]
pub struct Forfeit {
    /// Which kind of loss.
    pub kind: ForfeitKind,
    /// What happened, in a line.
    pub reason: String,
}

impl Forfeit {
    /// A forfeit of `kind` for `reason`.
    pub fn new(kind: ForfeitKind, reason: impl fmt::Display) -> Forfeit {
        Forfeit {
            kind,
            reason: reason.to_string(),
        }
    }
}

/// One side of a match. The runner makes a pair for each of its workers and plays one game
/// at a time with it.
pub trait Player: Send {
    /// A new game starts: forget the last one (and get ready, e.g. start a process).
    fn new_game(&mut self) -> Result<(), Forfeit>;
    /// The move to play in `turn`'s position (the game is not over there).
    fn play(&mut self, turn: &Turn<'_>) -> Result<Reply, Forfeit>;
    /// The match is over for this player (a process is asked to quit).
    fn close(&mut self) {}
}

/// The drafti engine in this process, keeping its transposition table within a game.
pub struct EnginePlayer {
    engine: Engine,
}

impl EnginePlayer {
    /// An engine for `variant` with `config`, `tt_mb` MiB of table and the variant's draw
    /// laws.
    pub fn new(variant: Variant, tt_mb: usize, config: Config) -> EnginePlayer {
        let engine = Engine::with_config(variant, tt_mb, DrawLaws::for_variant(variant), config);
        EnginePlayer::from_engine(engine)
    }

    /// A player of `engine` as its caller set it up (weights, tables, laws).
    pub fn from_engine(mut engine: Engine) -> EnginePlayer {
        engine.set_keep_table(true);
        EnginePlayer { engine }
    }

    /// The same engine evaluating with `weights` instead of the shipped ones.
    pub fn with_weights(mut self, weights: &Weights) -> EnginePlayer {
        self.engine.set_weights(weights);
        self
    }

    /// The same engine probing `tables` in its search (`None`: none); an error if they are
    /// for other rules.
    pub fn with_tables(mut self, tables: Option<Arc<Tables>>) -> Result<EnginePlayer, EgtbError> {
        self.engine.set_tables(tables)?;
        Ok(self)
    }

    /// The search limits of `limit`, with the game's law count.
    fn limits(limit: Limit, game: &Game) -> Limits {
        let limits = match limit {
            Limit::Nodes(n) => Limits::nodes(n),
            Limit::Depth(d) => Limits::depth(d),
            Limit::MoveTime(t) => Limits::movetime(t),
            // The share of the clock the Hub engine aims at for this move.
            Limit::Clock { time, inc, moves } => Limits::movetime(clock_target(time, inc, moves).0),
        };
        limits.with_game_counts(game)
    }
}

impl Player for EnginePlayer {
    fn new_game(&mut self) -> Result<(), Forfeit> {
        self.engine.clear();
        Ok(())
    }

    fn play(&mut self, turn: &Turn<'_>) -> Result<Reply, Forfeit> {
        let limits = EnginePlayer::limits(turn.limit, turn.game);
        let result = self
            .engine
            .search(turn.game.position(), &limits, turn.history, |_| {});
        let mv = result.best.ok_or_else(|| {
            Forfeit::new(
                ForfeitKind::Rules,
                "the engine found no move in a game that is not over",
            )
        })?;
        Ok(Reply {
            mv,
            score: Some(result.score),
            depth: Some(result.depth),
            nodes: Some(result.nodes),
            elapsed: result.elapsed,
        })
    }
}

/// How long a Hub engine may take to start and answer `ready`, or to confirm a new game.
pub const START_TIMEOUT: Duration = Duration::from_secs(20);

/// A Hub engine process, started when first needed and again for the game after one in
/// which it failed.
pub struct HubPlayer {
    command: String,
    variant: Variant,
    margin: Duration,
    move_timeout: Duration,
    engine: Option<HubEngine>,
}

impl HubPlayer {
    /// The engine `command` (run by `sh -c`) playing `variant`. It forfeits when it exceeds
    /// its time by more than `margin`, or takes longer than `move_timeout` for a move without
    /// a clock (node or depth limits).
    pub fn new(
        command: &str,
        variant: Variant,
        margin: Duration,
        move_timeout: Duration,
    ) -> HubPlayer {
        HubPlayer {
            command: command.to_string(),
            variant,
            margin,
            move_timeout,
            engine: None,
        }
    }

    /// Starts `command` once to learn the name it gives (`id name=`; empty if none).
    pub fn engine_name(command: &str, variant: Variant) -> Result<String, ClientError> {
        let engine = HubEngine::start(command, &HubPlayer::params(variant), START_TIMEOUT)?;
        let name = engine.name().to_string();
        engine.quit();
        Ok(name)
    }

    /// The names of a match's two engines: the names they give, or when those are empty
    /// or alike, their command lines shortened (numbered `#1`, `#2` if still alike). The
    /// error says which engine could not be started.
    pub fn names(commands: &[String; 2], variant: Variant) -> Result<[String; 2], String> {
        let mut names = [String::new(), String::new()];
        for (name, command) in names.iter_mut().zip(commands) {
            *name = HubPlayer::engine_name(command, variant)
                .map_err(|e| format!("engine {command}: {e}"))?;
        }
        if names[0] == names[1] || names.iter().any(String::is_empty) {
            names = commands.clone().map(|c| short_command(&c));
            if names[0] == names[1] {
                names = [format!("{} #1", names[0]), format!("{} #2", names[1])];
            }
        }
        Ok(names)
    }

    fn params(variant: Variant) -> [(String, String); 1] {
        [("variant".to_string(), variant.name().to_string())]
    }

    fn ready(&mut self) -> Result<&mut HubEngine, ClientError> {
        match &mut self.engine {
            Some(engine) => Ok(engine),
            slot => {
                let params = HubPlayer::params(self.variant);
                Ok(slot.insert(HubEngine::start(&self.command, &params, START_TIMEOUT)?))
            }
        }
    }

    /// The forfeit of a client error; the process is dropped (started again next game).
    fn failed(&mut self, error: ClientError) -> Forfeit {
        self.engine = None;
        let kind = match error {
            ClientError::Timeout(_) => ForfeitKind::Time,
            ClientError::Refused(_) | ClientError::Protocol(_) | ClientError::NoMove => {
                ForfeitKind::Rules
            }
            ClientError::Spawn { .. } | ClientError::Exited { .. } => ForfeitKind::Abandoned,
        };
        Forfeit::new(kind, error)
    }

    /// The `level` line for `limit` and how long the engine may take.
    fn level(&self, limit: Limit) -> (Message, Duration) {
        match limit {
            Limit::MoveTime(t) => (
                Message::new("level").arg("move-time", format!("{:.3}", t.as_secs_f64())),
                t + self.margin,
            ),
            Limit::Nodes(n) => (Message::new("level").arg("nodes", n), self.move_timeout),
            Limit::Depth(d) => (Message::new("level").arg("depth", d), self.move_timeout),
            Limit::Clock { time, inc, moves } => {
                let mut level = Message::new("level");
                if let Some(moves) = moves {
                    level = level.arg("moves", moves);
                }
                level = level.arg("time", format!("{:.3}", time.as_secs_f64()));
                if !inc.is_zero() {
                    level = level.arg("inc", format!("{:.3}", inc.as_secs_f64()));
                }
                (level, time + inc + self.margin)
            }
        }
    }
}

impl Player for HubPlayer {
    fn new_game(&mut self) -> Result<(), Forfeit> {
        match self.ready().and_then(|e| e.new_game(START_TIMEOUT)) {
            Ok(()) => Ok(()),
            Err(e) => Err(self.failed(e)),
        }
    }

    fn play(&mut self, turn: &Turn<'_>) -> Result<Reply, Forfeit> {
        let mut pos = Message::new("pos").arg("pos", position_string(turn.start));
        if !turn.moves.is_empty() {
            pos = pos.arg("moves", line_string(turn.moves));
        }
        let (level, timeout) = self.level(turn.limit);
        let answer = self
            .ready()
            .and_then(|engine| engine.think(&pos.to_string(), &level.to_string(), timeout));
        let thought = match answer {
            Ok(thought) => thought,
            Err(e) => return Err(self.failed(e)),
        };
        // A bad move loses the game but the process may play the next one.
        let position = turn.game.position();
        let mv = HubMove::parse(&thought.mv)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                text.resolve(position, turn.variant)
                    .map_err(|e| e.to_string())
            })
            .map_err(|e| Forfeit::new(ForfeitKind::Rules, e))?;
        Ok(Reply {
            mv,
            score: thought.score,
            depth: thought.depth,
            nodes: None,
            elapsed: thought.elapsed,
        })
    }

    fn close(&mut self) {
        if let Some(engine) = self.engine.take() {
            engine.quit();
        }
    }
}

/// A short name for a command line: its program's file name and arguments.
///
/// ```
/// use drafti_hub::player::short_command;
/// assert_eq!(short_command("/a/b/drafti hub --nodes 5"), "drafti hub --nodes 5");
/// ```
pub fn short_command(command: &str) -> String {
    let mut words = command.split_whitespace();
    let program = words.next().unwrap_or_default();
    let program = program.rsplit('/').next().unwrap_or(program);
    std::iter::once(program)
        .chain(words)
        .collect::<Vec<_>>()
        .join(" ")
}
