//! `drafti match`'s runner: two Hub engines play games from openings, each opening twice with
//! colours swapped; the rules core adjudicates every position; the games come back as PDN
//! records with the engines' evaluations as comments, in game order.
//!
//! Adjudication, after every move: the rules' outcome (a side without a legal move loses;
//! the Tanzanian draw laws with the lone king's count), a position seen for the third time
//! (a draw by the runner's rule, so two engines shuffling kings do not play to the cap), and
//! the ply cap (a draw); with endgame tables (`--egtb`), a position they hold ends the game
//! with their exact result, so a won ending counts as won whether or not an engine converts it.
//! An engine that cannot start, exits, does not answer within its time and the margin, refuses the position (`error`) or plays a move that is not legal loses
//! the game; the `Termination` tag says which. It is started again for the next game.

pub mod openings;
pub mod stats;

use crate::hub::client::{ClientError, HubEngine, Thought};
use crate::hub::protocol::{line_string, position_string, HubMove, Message};
use drafti_engine::egtb::{Tables, Value};
use drafti_pdn::{Comment, GameRecord, GameResult, Line, ResultToken, Tag};
use drafti_rules::{Color, DrawLaws, Game, Move, Outcome, Position, Variant};
use openings::Opening;
use stats::GameScore;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// How long the engines think.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Control {
    /// A fixed time per move.
    MoveTime(Duration),
    /// A node limit per move (deterministic for deterministic engines).
    Nodes(u64),
    /// A depth limit per move.
    Depth(u32),
    /// A clock: `time` for the game (or for each `moves` moves), `inc` added before each move.
    Clock {
        time: Duration,
        inc: Duration,
        moves: Option<u32>,
    },
}

/// A match.
#[derive(Clone)]
pub struct Config {
    pub variant: Variant,
    /// The engines' command lines (run by `sh -c`).
    pub commands: [String; 2],
    /// How the PDN and the summary name them.
    pub names: [String; 2],
    pub games: usize,
    pub control: Control,
    pub openings: Vec<Opening>,
    pub max_plies: usize,
    /// Added to an engine's time before it forfeits.
    pub margin: Duration,
    /// The longest a move may take without a clock (node or depth limits).
    pub move_timeout: Duration,
    /// Games played at once (each with its own two engine processes).
    pub concurrency: usize,
    /// Squares as numbers in the PDN (22-18) instead of algebraic names.
    pub numeric: bool,
    /// Endgame tables that adjudicate the positions they hold.
    pub tables: Option<Arc<Tables>>,
}

/// How long an engine may take to start and answer `ready`.
const START_TIMEOUT: Duration = Duration::from_secs(20);

/// One finished game.
#[derive(Clone, Debug)]
pub struct Played {
    /// 0-based game number.
    pub index: usize,
    /// Which engine (0 or 1) had White.
    pub white: usize,
    pub result: GameResult,
    /// Why it ended.
    pub termination: String,
    pub plies: usize,
    pub record: GameRecord,
}

impl Played {
    /// The game's score for the first engine.
    pub fn first_engine_score(&self) -> GameScore {
        let first_white = self.white == 0;
        match (self.result, first_white) {
            (GameResult::WhiteWin, true) | (GameResult::BlackWin, false) => GameScore::Win,
            (GameResult::WhiteWin, false) | (GameResult::BlackWin, true) => GameScore::Loss,
            _ => GameScore::Draw,
        }
    }
}

/// An engine of a worker: started when first needed and again after it failed.
struct Player {
    command: String,
    engine: Option<HubEngine>,
}

impl Player {
    fn ready(&mut self, variant: Variant) -> Result<&mut HubEngine, ClientError> {
        if self.engine.is_none() {
            let params = [("variant".to_string(), variant.name().to_string())];
            self.engine = Some(HubEngine::start(&self.command, &params, START_TIMEOUT)?);
        }
        Ok(self.engine.as_mut().expect("just started"))
    }
}

/// Starts an engine once to learn its name (`id name=`).
pub fn engine_name(command: &str, variant: Variant) -> Result<String, ClientError> {
    let params = [("variant".to_string(), variant.name().to_string())];
    let engine = HubEngine::start(command, &params, START_TIMEOUT)?;
    let name = engine.name().to_string();
    engine.quit();
    Ok(name)
}

/// `side` loses the game, for `reason` (a forfeit, or a table loss).
fn lost_by(side: Color, reason: String) -> (GameResult, String) {
    let result = match side {
        Color::White => GameResult::BlackWin,
        Color::Black => GameResult::WhiteWin,
    };
    (result, reason)
}

/// The result the endgame tables give `pos` (the side to move's value under the law count
/// `king_count`), with the `Termination` text: `adjudicated by the endgame tables: White wins
/// in 17 plies`.
fn table_result(
    tables: &Tables,
    pos: &Position,
    king_count: Option<u32>,
) -> Option<(GameResult, String)> {
    let side = pos.turn();
    let (loser, plies) = match tables.probe(pos, king_count)? {
        Value::Draw => {
            return Some((
                GameResult::Draw,
                "draw: adjudicated by the endgame tables".to_string(),
            ))
        }
        Value::Win(plies) => (side.other(), plies),
        Value::Loss(plies) => (side, plies),
    };
    let winner = loser.other();
    Some(lost_by(
        loser,
        format!("adjudicated by the endgame tables: {winner} wins in {plies} plies"),
    ))
}

/// Why an engine failed, for the `Termination` tag.
fn failure(side: Color, name: &str, error: &ClientError) -> String {
    let what = match error {
        ClientError::Timeout(_) => "time forfeit",
        ClientError::Refused(_) | ClientError::Protocol(_) => "rules infraction",
        ClientError::Spawn { .. } | ClientError::Exited { .. } => "abandoned",
    };
    format!("{what}: {side}'s engine {name}: {error}")
}

fn tag(name: &str, value: impl Into<String>) -> Tag {
    Tag {
        name: name.to_string(),
        value: value.into(),
        span: Default::default(),
    }
}

/// The score/depth comment of an engine's move: `+0.35/9`, `win in 7/12`.
fn evaluation(thought: &Thought) -> Option<String> {
    let score = thought.score?;
    Some(match thought.depth {
        Some(depth) => format!("{score}/{depth}"),
        None => score.to_string(),
    })
}

/// Plays game `index` with `players` (engine 0 and 1).
fn play_game(config: &Config, players: &mut [Player; 2], index: usize) -> Played {
    let opening = &config.openings[(index / 2) % config.openings.len()];
    let white = index % 2;
    let engine_of = |side: Color| {
        if side == Color::White {
            white
        } else {
            1 - white
        }
    };
    let variant = config.variant;
    let mut game = Game::with_laws(opening.start, variant, DrawLaws::for_variant(variant));
    let mut played: Vec<Move> = Vec::new();
    let mut comments: Vec<Option<String>> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    seen.insert(game.position().hash_key(), 1);
    for mv in &opening.moves {
        game.play(mv);
        played.push(*mv);
        comments.push(None);
        *seen.entry(game.position().hash_key()).or_default() += 1;
    }
    if let Some(last) = comments.last_mut() {
        *last = Some("opening".to_string());
    }
    let mut clocks = [Duration::ZERO; 2];
    let mut moves_left = [0u32; 2];
    if let Control::Clock { time, moves, .. } = config.control {
        clocks = [time; 2];
        moves_left = [moves.unwrap_or(0); 2];
    }
    let start_line = position_string(&opening.start);

    // Both engines start the game fresh.
    let mut end: Option<(GameResult, String)> = None;
    for side in [Color::White, Color::Black] {
        let who = engine_of(side);
        let name = &config.names[who];
        let fresh = players[who]
            .ready(variant)
            .and_then(|e| e.new_game(START_TIMEOUT));
        if let Err(e) = fresh {
            players[who].engine = None;
            end = Some(lost_by(side, failure(side, name, &e)));
            break;
        }
    }

    while end.is_none() {
        let pos = *game.position();
        if let Some(outcome) = game.outcome() {
            let result = match outcome {
                Outcome::Win(Color::White) => GameResult::WhiteWin,
                Outcome::Win(Color::Black) => GameResult::BlackWin,
                Outcome::Draw(_) => GameResult::Draw,
            };
            end = Some((result, outcome.to_string()));
            break;
        }
        if let Some(end_by_table) = config
            .tables
            .as_deref()
            .and_then(|t| table_result(t, &pos, game.king_count()))
        {
            end = Some(end_by_table);
            break;
        }
        if seen.get(&pos.hash_key()).copied().unwrap_or(0) >= 3 {
            end = Some((
                GameResult::Draw,
                "draw: the position occurred three times".into(),
            ));
            break;
        }
        if played.len() >= config.max_plies {
            end = Some((
                GameResult::Draw,
                format!(
                    "draw: adjudicated at the ply cap ({} plies)",
                    config.max_plies
                ),
            ));
            break;
        }
        let side = pos.turn();
        let who = engine_of(side);
        let name = config.names[who].clone();
        let mut pos_message = Message::new("pos").arg("pos", &start_line);
        if !played.is_empty() {
            pos_message = pos_message.arg("moves", line_string(&played));
        }
        let (level, timeout) = match config.control {
            Control::MoveTime(t) => (
                Message::new("level").arg("move-time", format!("{:.3}", t.as_secs_f64())),
                t + config.margin,
            ),
            Control::Nodes(n) => (Message::new("level").arg("nodes", n), config.move_timeout),
            Control::Depth(d) => (Message::new("level").arg("depth", d), config.move_timeout),
            Control::Clock { inc, moves, .. } => {
                let mut level = Message::new("level");
                if moves.is_some() {
                    level = level.arg("moves", moves_left[who]);
                }
                level = level.arg("time", format!("{:.3}", clocks[who].as_secs_f64()));
                if !inc.is_zero() {
                    level = level.arg("inc", format!("{:.3}", inc.as_secs_f64()));
                }
                (level, clocks[who] + inc + config.margin)
            }
        };
        let answer = players[who]
            .ready(variant)
            .and_then(|engine| engine.think(&pos_message.to_string(), &level.to_string(), timeout));
        let thought = match answer {
            Ok(thought) => thought,
            Err(e) => {
                players[who].engine = None;
                end = Some(lost_by(side, failure(side, &name, &e)));
                break;
            }
        };
        if let Control::Clock { time, inc, moves } = config.control {
            clocks[who] = (clocks[who] + inc).saturating_sub(thought.elapsed);
            if let Some(moves) = moves {
                moves_left[who] = moves_left[who].saturating_sub(1);
                if moves_left[who] == 0 {
                    moves_left[who] = moves;
                    clocks[who] += time;
                }
            }
        }
        let mv = HubMove::parse(&thought.mv)
            .map_err(|e| e.to_string())
            .and_then(|text| text.resolve(&pos, variant).map_err(|e| e.to_string()));
        let mv = match mv {
            Ok(mv) => mv,
            Err(e) => {
                end = Some(lost_by(
                    side,
                    format!("rules infraction: {side}'s engine {name}: {e}"),
                ));
                break;
            }
        };
        game.play(&mv);
        played.push(mv);
        comments.push(evaluation(&thought));
        *seen.entry(game.position().hash_key()).or_default() += 1;
    }
    let (result, termination) = end.expect("the loop ends with a result");

    let mut nodes =
        drafti_analysis::selfplay::mainline(&opening.start, variant, &played, config.numeric);
    for (node, comment) in nodes.iter_mut().zip(comments) {
        if let Some(text) = comment {
            node.comments.push(Comment {
                text,
                span: Default::default(),
            });
        }
    }
    let mut tags = vec![
        tag("Event", "drafti match"),
        tag("Round", (index + 1).to_string()),
        tag("White", config.names[white].clone()),
        tag("Black", config.names[1 - white].clone()),
        tag("Result", result.as_str()),
        tag("Termination", termination.clone()),
        tag("PlyCount", played.len().to_string()),
    ];
    match variant.game_type() {
        Some(n) => tags.push(tag("GameType", n.to_string())),
        None => tags.push(tag("Variant", "Tanzanian")),
    }
    if opening.start != Position::start(Color::White) {
        tags.push(tag("SetUp", "1"));
        tags.push(tag("FEN", opening.start.to_fen()));
    }
    Played {
        index,
        white,
        result,
        termination,
        plies: played.len(),
        record: GameRecord {
            tags,
            moves: Line {
                nodes,
                leading_comments: Vec::new(),
            },
            result: Some(ResultToken::new(result)),
            ..GameRecord::default()
        },
    }
}

/// Plays the match; `on_game` gets every game in game order and says whether to go on (an
/// SPRT that has decided says no: the games already under way are finished, but neither
/// reported nor counted, so the verdict stands on the games it was reached on).
pub fn run(config: &Config, mut on_game: impl FnMut(&Played) -> bool) {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel::<Played>();
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.max(1) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut players = [0, 1].map(|i| Player {
                    command: config.commands[i].clone(),
                    engine: None,
                });
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= config.games {
                        break;
                    }
                    let played = play_game(config, &mut players, index);
                    if sender.send(played).is_err() {
                        break;
                    }
                }
                for player in players {
                    if let Some(engine) = player.engine {
                        engine.quit();
                    }
                }
            });
        }
        drop(sender);
        // Report in game order whatever order the workers finish in.
        let mut waiting: HashMap<usize, Played> = HashMap::new();
        let mut expected = 0;
        let mut going_on = true;
        for played in results {
            waiting.insert(played.index, played);
            while let Some(played) = waiting.remove(&expected) {
                expected += 1;
                if going_on && !on_game(&played) {
                    going_on = false;
                    stop.store(true, Ordering::Relaxed);
                }
            }
        }
    });
}
