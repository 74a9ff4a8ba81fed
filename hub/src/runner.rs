//! A match between two [`Player`]s: games from openings, each opening twice with colours
//! swapped (game `2k` has the first player White, `2k + 1` the second), played by a number
//! of workers at once, each with its own pair of players; the games come back as data in
//! game order, whatever order the workers finish in.
//!
//! Adjudication, before every move: the rules' outcome (a side without a legal move loses;
//! the draw laws with law 2's count); with endgame tables, a position they hold ends the game
//! with their exact result, so a won ending counts as won whether or not a player converts
//! it; a position seen for the third time (a draw by the runner's rule, so two engines
//! shuffling kings do not play to the cap; it can be turned off); and the ply cap (a draw).
//! A player that fails ([`Forfeit`]) loses the game.
//!
//! ```
//! use drafti_engine::Config;
//! use drafti_hub::openings::even_material;
//! use drafti_hub::runner::{run, Adjudication, Control, MatchSettings};
//! use drafti_hub::{EnginePlayer, Player};
//! use drafti_rules::Variant;
//!
//! let variant = Variant::Tanzanian;
//! let settings = MatchSettings {
//!     variant,
//!     games: 2,
//!     openings: even_material(variant, 2).into_iter().take(1).collect(),
//!     control: Control::Nodes(500),
//!     adjudication: Adjudication { max_plies: 60, ..Adjudication::default() },
//!     concurrency: 1,
//!     names: ["plain".to_string(), "lmr=0".to_string()],
//! };
//! let mut lmr_off = Config::default();
//! lmr_off.set("lmr", "0")?;
//! let players = || -> [Box<dyn Player>; 2] {
//!     [
//!         Box::new(EnginePlayer::new(variant, 1, Config::default())),
//!         Box::new(EnginePlayer::new(variant, 1, lmr_off.clone())),
//!     ]
//! };
//! let mut games = Vec::new();
//! run(&settings, &players, |game| {
//!     games.push(game.clone());
//!     true // go on
//! });
//! assert_eq!(games.len(), 2);
//! assert_eq!((games[0].white, games[1].white), (0, 1));
//! assert!(games.iter().all(|g| g.moves.len() <= 60 && g.moves.len() >= 2));
//! assert_eq!(games[0].names, ["plain".to_string(), "lmr=0".to_string()]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::openings::Opening;
use crate::player::{Forfeit, ForfeitKind, Limit, Player, Reply, Turn};
use crate::stats::GameScore;
use drafti_engine::egtb::{Tables, Value};
use drafti_rules::{Color, DrawLaws, Game, Move, Outcome, Position, Variant};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

/// How long the players think.
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
        /// The time of a control.
        time: Duration,
        /// Added before every move.
        inc: Duration,
        /// Moves in a control (none: the whole game).
        moves: Option<u32>,
    },
}

/// Seconds as a real number (`10`, `0.1`), under 10^7.
fn clock_seconds(text: &str) -> Result<Duration, String> {
    text.trim()
        .parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s >= 0.0 && *s < 1e7)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("'{text}' is not a number of seconds"))
}

impl Control {
    /// Reads a clock: `SECONDS+INC` (sudden death with an increment, `10+0.1`), `SECONDS`,
    /// or `MOVES/SECONDS[+INC]` (`40/60`); the error names `--tc` as `drafti match` has it.
    ///
    /// ```
    /// use drafti_hub::Control;
    /// use std::time::Duration;
    /// assert_eq!(
    ///     Control::parse_clock("40/60"),
    ///     Ok(Control::Clock { time: Duration::from_secs(60), inc: Duration::ZERO, moves: Some(40) })
    /// );
    /// for bad in ["", "x", "0", "0/10", "10+", "-5", "40/"] {
    ///     assert!(Control::parse_clock(bad).is_err(), "{bad}");
    /// }
    /// ```
    pub fn parse_clock(text: &str) -> Result<Control, String> {
        let (moves, rest) = match text.split_once('/') {
            Some((moves, rest)) => {
                let moves: u32 = moves
                    .trim()
                    .parse()
                    .ok()
                    .filter(|&m| m > 0)
                    .ok_or_else(|| format!("--tc {text}: '{moves}' is not a number of moves"))?;
                (Some(moves), rest)
            }
            None => (None, text),
        };
        let (time, inc) = match rest.split_once('+') {
            Some((time, inc)) => (clock_seconds(time)?, clock_seconds(inc)?),
            None => (clock_seconds(rest)?, Duration::ZERO),
        };
        if time.is_zero() {
            return Err(format!("--tc {text}: the time must be more than 0"));
        }
        Ok(Control::Clock { time, inc, moves })
    }
}

/// What ends a game besides the players.
#[derive(Clone)]
pub struct Adjudication {
    /// A game still going after this many plies (the opening's included) is a draw.
    pub max_plies: usize,
    /// A position seen for the third time is a draw.
    pub repetition: bool,
    /// Endgame tables that decide the positions they hold.
    pub tables: Option<Arc<Tables>>,
}

impl Default for Adjudication {
    /// 300 plies, repetitions, no tables.
    fn default() -> Adjudication {
        Adjudication {
            max_plies: 300,
            repetition: true,
            tables: None,
        }
    }
}

/// A match.
#[derive(Clone)]
pub struct MatchSettings {
    /// The rules.
    pub variant: Variant,
    /// How many games (game `i` starts from opening `i / 2`, taken round again if short).
    pub games: usize,
    /// The openings (at least one).
    pub openings: Vec<Opening>,
    /// How long the players think.
    pub control: Control,
    /// What ends a game besides the players.
    pub adjudication: Adjudication,
    /// Games played at once (each worker with its own pair of players).
    pub concurrency: usize,
    /// The players' names, for the games' records and forfeits.
    pub names: [String; 2],
}

/// Why a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Termination {
    /// The rules: a side without a legal move lost, or a draw law.
    Rules(Outcome),
    /// The endgame tables: a draw.
    TablesDraw,
    /// The endgame tables: a win for `winner` in `plies`.
    TablesWin {
        /// The side that wins.
        winner: Color,
        /// Plies to the win with best play.
        plies: u32,
    },
    /// The same position for the third time.
    Repetition,
    /// The ply cap.
    PlyCap(usize),
    /// A player failed and lost.
    Forfeit {
        /// The side that lost.
        loser: Color,
        /// Its engine's name.
        engine: String,
        /// What happened.
        forfeit: Forfeit,
    },
}

impl Termination {
    /// The side that won; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        match self {
            Termination::Rules(Outcome::Win(c)) => Some(*c),
            Termination::TablesWin { winner, .. } => Some(*winner),
            Termination::Forfeit { loser, .. } => Some(loser.other()),
            _ => None,
        }
    }
}

/// The text of the PDN `Termination` tag: `White wins: Black has no legal move`, `draw: the
/// position occurred three times`, `time forfeit: Black's engine x: ...`.
impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Termination::Rules(outcome) => write!(f, "{outcome}"),
            Termination::TablesDraw => f.write_str("draw: adjudicated by the endgame tables"),
            Termination::TablesWin { winner, plies } => write!(
                f,
                "adjudicated by the endgame tables: {winner} wins in {plies} plies"
            ),
            Termination::Repetition => f.write_str("draw: the position occurred three times"),
            Termination::PlyCap(plies) => {
                write!(f, "draw: adjudicated at the ply cap ({plies} plies)")
            }
            Termination::Forfeit {
                loser,
                engine,
                forfeit,
            } => write!(
                f,
                "{}: {loser}'s engine {engine}: {}",
                forfeit.kind, forfeit.reason
            ),
        }
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct PlayedGame {
    /// 0-based game number.
    pub index: usize,
    /// Which player (0 or 1) had White.
    pub white: usize,
    /// The players' names, White's first.
    pub names: [String; 2],
    /// Where the game started.
    pub start: Position,
    /// The moves from `start`; the first `opening_plies` are the opening's.
    pub moves: Vec<Move>,
    /// Plies of the opening.
    pub opening_plies: usize,
    /// For each move, the player's reply (`None` for the opening's moves).
    pub replies: Vec<Option<Reply>>,
    /// Why it ended (and so who won).
    pub termination: Termination,
}

impl PlayedGame {
    /// The side that won; `None` for a draw.
    pub fn winner(&self) -> Option<Color> {
        self.termination.winner()
    }

    /// The game's score for the first player.
    pub fn first_player_score(&self) -> GameScore {
        match self.winner() {
            None => GameScore::Draw,
            Some(c) if (c == Color::White) == (self.white == 0) => GameScore::Win,
            Some(_) => GameScore::Loss,
        }
    }

    /// Which player (0 or 1) made move `ply` (0-based).
    pub fn player_of(&self, ply: usize) -> usize {
        let white_moved = (self.start.turn() == Color::White) == ply.is_multiple_of(2);
        if white_moved {
            self.white
        } else {
            1 - self.white
        }
    }

    /// A comment for each move: `opening` on the opening's last move, the player's
    /// evaluation ([`Reply::comment`]) on the others.
    pub fn comments(&self) -> Vec<Option<String>> {
        self.replies
            .iter()
            .enumerate()
            .map(|(ply, reply)| match reply {
                Some(reply) => reply.comment(),
                None if ply + 1 == self.opening_plies => Some("opening".to_string()),
                None => None,
            })
            .collect()
    }
}

/// The end the endgame tables give `pos` (the side to move's value under the law count
/// `king_count`).
fn table_end(tables: &Tables, pos: &Position, king_count: Option<u32>) -> Option<Termination> {
    let side = pos.turn();
    Some(match tables.probe(pos, king_count)? {
        Value::Draw => Termination::TablesDraw,
        Value::Win(plies) => Termination::TablesWin {
            winner: side,
            plies,
        },
        Value::Loss(plies) => Termination::TablesWin {
            winner: side.other(),
            plies,
        },
    })
}

/// Plays one game from `opening` with `players` (the first and the second player; the first
/// has White when `first_white`), under `settings`' rules, control and adjudication; `index`
/// is its number in the record. [`run`] plays every game of a match this way.
pub fn play_game(
    settings: &MatchSettings,
    players: &mut [Box<dyn Player>; 2],
    opening: &Opening,
    first_white: bool,
    index: usize,
) -> PlayedGame {
    let white = usize::from(!first_white);
    let player_of = |side: Color| {
        if side == Color::White {
            white
        } else {
            1 - white
        }
    };
    let variant = settings.variant;
    let rules = &settings.adjudication;
    let mut game = Game::with_laws(opening.start, variant, DrawLaws::for_variant(variant));
    let mut moves: Vec<Move> = Vec::new();
    let mut replies: Vec<Option<Reply>> = Vec::new();
    let mut history: Vec<u64> = Vec::new();
    let mut seen: HashMap<u64, u32> = HashMap::new();
    seen.insert(game.position().hash_key(), 1);
    for mv in &opening.moves {
        history.push(game.position().hash_key());
        game.play(mv);
        moves.push(*mv);
        replies.push(None);
        *seen.entry(game.position().hash_key()).or_default() += 1;
    }
    let mut clocks = [Duration::ZERO; 2];
    let mut moves_left = [0u32; 2];
    if let Control::Clock { time, moves, .. } = settings.control {
        clocks = [time; 2];
        moves_left = [moves.unwrap_or(0); 2];
    }
    let forfeit = |side: Color, forfeit: Forfeit| Termination::Forfeit {
        loser: side,
        engine: settings.names[player_of(side)].clone(),
        forfeit,
    };

    // Both players start the game fresh.
    let mut end: Option<Termination> = None;
    for side in [Color::White, Color::Black] {
        if let Err(e) = players[player_of(side)].new_game() {
            end = Some(forfeit(side, e));
            break;
        }
    }

    while end.is_none() {
        let pos = *game.position();
        if let Some(outcome) = game.outcome() {
            end = Some(Termination::Rules(outcome));
            break;
        }
        if let Some(by_tables) = rules
            .tables
            .as_deref()
            .and_then(|t| table_end(t, &pos, game.king_count()))
        {
            end = Some(by_tables);
            break;
        }
        if rules.repetition && seen.get(&pos.hash_key()).copied().unwrap_or(0) >= 3 {
            end = Some(Termination::Repetition);
            break;
        }
        if moves.len() >= rules.max_plies {
            end = Some(Termination::PlyCap(rules.max_plies));
            break;
        }
        let side = pos.turn();
        let who = player_of(side);
        let limit = match settings.control {
            Control::MoveTime(t) => Limit::MoveTime(t),
            Control::Nodes(n) => Limit::Nodes(n),
            Control::Depth(d) => Limit::Depth(d),
            Control::Clock { inc, moves, .. } => Limit::Clock {
                time: clocks[who],
                inc,
                moves: moves.map(|_| moves_left[who]),
            },
        };
        let turn = Turn {
            variant,
            start: &opening.start,
            moves: &moves,
            game: &game,
            history: &history,
            limit,
        };
        let reply = match players[who].play(&turn) {
            Ok(reply) => reply,
            Err(e) => {
                end = Some(forfeit(side, e));
                break;
            }
        };
        if let Control::Clock { time, inc, moves } = settings.control {
            clocks[who] = (clocks[who] + inc).saturating_sub(reply.elapsed);
            if let Some(moves) = moves {
                moves_left[who] = moves_left[who].saturating_sub(1);
                if moves_left[who] == 0 {
                    moves_left[who] = moves;
                    clocks[who] += time;
                }
            }
        }
        // A player's move is checked here too: a wrong one must not reach the record.
        if !pos.legal_moves(variant).contains(&reply.mv) {
            let text = reply.mv.notation(&pos.legal_moves(variant), false);
            end = Some(forfeit(
                side,
                Forfeit::new(
                    ForfeitKind::Rules,
                    format!("move {text} is not legal in the position"),
                ),
            ));
            break;
        }
        history.push(pos.hash_key());
        game.play(&reply.mv);
        moves.push(reply.mv);
        replies.push(Some(reply));
        *seen.entry(game.position().hash_key()).or_default() += 1;
    }
    let white_name = settings.names[white].clone();
    let black_name = settings.names[1 - white].clone();
    PlayedGame {
        index,
        white,
        names: [white_name, black_name],
        start: opening.start,
        opening_plies: opening.moves.len(),
        moves,
        replies,
        termination: end.unwrap_or(Termination::PlyCap(rules.max_plies)),
    }
}

/// Plays the match: `new_players` makes the pair of players of each worker; `on_game` gets
/// every game in game order and says whether to go on (an SPRT that has decided says no: the
/// games already under way are finished, but not reported, so a verdict stands on the games
/// it was reached on). With no opening, no game is played.
pub fn run(
    settings: &MatchSettings,
    new_players: &(dyn Fn() -> [Box<dyn Player>; 2] + Sync),
    mut on_game: impl FnMut(&PlayedGame) -> bool,
) {
    if settings.openings.is_empty() {
        return;
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (sender, results) = mpsc::channel::<PlayedGame>();
    std::thread::scope(|scope| {
        for _ in 0..settings.concurrency.max(1) {
            let sender = sender.clone();
            let (next, stop) = (&next, &stop);
            scope.spawn(move || {
                let mut players = new_players();
                while !stop.load(Ordering::Relaxed) {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    if index >= settings.games {
                        break;
                    }
                    let opening = &settings.openings[(index / 2) % settings.openings.len()];
                    let played = play_game(settings, &mut players, opening, index % 2 == 0, index);
                    if sender.send(played).is_err() {
                        break;
                    }
                }
                for player in &mut players {
                    player.close();
                }
            });
        }
        drop(sender);
        // Report in game order whatever order the workers finish in.
        let mut waiting: HashMap<usize, PlayedGame> = HashMap::new();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::EnginePlayer;
    use drafti_engine::Config;

    /// Moves a king away and back (the reverse of its last move when it can), or fails as
    /// told.
    struct Shuffler {
        last: Option<Move>,
        fail_new_game: bool,
        illegal: bool,
    }

    impl Shuffler {
        fn new() -> Shuffler {
            Shuffler {
                last: None,
                fail_new_game: false,
                illegal: false,
            }
        }
    }

    impl Player for Shuffler {
        fn new_game(&mut self) -> Result<(), Forfeit> {
            self.last = None;
            if self.fail_new_game {
                return Err(Forfeit::new(ForfeitKind::Abandoned, "cannot start"));
            }
            Ok(())
        }

        fn play(&mut self, turn: &Turn<'_>) -> Result<Reply, Forfeit> {
            let pos = turn.game.position();
            let legal = pos.legal_moves(turn.variant);
            let back = self.last.and_then(|last| {
                legal
                    .iter()
                    .copied()
                    .find(|m| m.from() == last.to() && m.to() == last.from())
            });
            let king_move = legal
                .iter()
                .copied()
                .find(|m| pos.kings(pos.turn()).contains(m.from()));
            let mv = back.or(king_move).unwrap_or(legal[0]);
            self.last = Some(mv);
            // An "illegal" move here: a legal move of the other side's position.
            let mv = if self.illegal {
                pos.with_turn(pos.turn().other()).legal_moves(turn.variant)[0]
            } else {
                mv
            };
            Ok(Reply {
                mv,
                score: None,
                depth: None,
                nodes: None,
                elapsed: Duration::ZERO,
            })
        }
    }

    fn settings(start: &str, repetition: bool, max_plies: usize) -> MatchSettings {
        MatchSettings {
            variant: Variant::Tanzanian,
            games: 2,
            openings: vec![Opening::at(Position::from_fen(start).unwrap())],
            control: Control::Nodes(100),
            adjudication: Adjudication {
                max_plies,
                repetition,
                tables: None,
            },
            concurrency: 1,
            names: ["one".to_string(), "two".to_string()],
        }
    }

    fn pair(a: Shuffler, b: Shuffler) -> [Box<dyn Player>; 2] {
        [Box::new(a), Box::new(b)]
    }

    // Kings that can shuttle, men far apart so no law ends the game.
    const SHUFFLE: &str = "W:WK29,21:BK4,12";

    #[test]
    fn repetition_and_ply_cap() {
        let s = settings(SHUFFLE, true, 100);
        let mut players = pair(Shuffler::new(), Shuffler::new());
        let game = play_game(&s, &mut players, &s.openings[0], true, 0);
        assert_eq!(
            game.termination,
            Termination::Repetition,
            "{:?}",
            game.moves
        );
        // The third visit of a position: at least two round trips of both kings.
        assert!(game.moves.len() >= 8);
        assert_eq!(game.winner(), None);
        assert_eq!(game.first_player_score(), GameScore::Draw);
        let s = settings(SHUFFLE, false, 30);
        let game = play_game(&s, &mut players, &s.openings[0], false, 1);
        assert_eq!(game.termination, Termination::PlyCap(30));
        assert_eq!(game.moves.len(), 30);
        assert_eq!(game.white, 1);
        assert_eq!(game.names, ["two".to_string(), "one".to_string()]);
        assert_eq!(
            game.termination.to_string(),
            "draw: adjudicated at the ply cap (30 plies)"
        );
    }

    #[test]
    fn failing_players_forfeit() {
        let s = settings(SHUFFLE, true, 100);
        let broken = Shuffler {
            fail_new_game: true,
            ..Shuffler::new()
        };
        let mut players = pair(Shuffler::new(), broken);
        let game = play_game(&s, &mut players, &s.openings[0], true, 0);
        assert_eq!(game.winner(), Some(Color::White));
        assert_eq!(game.first_player_score(), GameScore::Win);
        assert_eq!(
            game.termination.to_string(),
            "abandoned: Black's engine two: cannot start"
        );
        let cheat = Shuffler {
            illegal: true,
            ..Shuffler::new()
        };
        let mut players = pair(cheat, Shuffler::new());
        let game = play_game(&s, &mut players, &s.openings[0], true, 0);
        assert!(game.moves.is_empty());
        assert_eq!(game.winner(), Some(Color::Black));
        assert!(game
            .termination
            .to_string()
            .starts_with("rules infraction: White's engine one: move "));
    }

    #[test]
    fn games_come_in_order_and_a_stop_is_kept() {
        let mut s = settings("W:W21-32:B1-12", true, 40);
        s.games = 6;
        s.concurrency = 2;
        s.openings = crate::openings::even_material(Variant::Tanzanian, 2);
        let players = || -> [Box<dyn Player>; 2] {
            [
                Box::new(EnginePlayer::new(Variant::Tanzanian, 1, Config::default())),
                Box::new(EnginePlayer::new(Variant::Tanzanian, 1, Config::default())),
            ]
        };
        let mut seen = Vec::new();
        run(&s, &players, |game| {
            seen.push(game.clone());
            game.index < 3
        });
        assert_eq!(
            seen.iter().map(|g| g.index).collect::<Vec<_>>(),
            [0, 1, 2, 3]
        );
        // Both games of a pair start from one opening; the engines' moves carry comments.
        assert_eq!(seen[0].moves[..2], seen[1].moves[..2]);
        let comments = seen[0].comments();
        assert_eq!(comments[1].as_deref(), Some("opening"));
        assert!(comments[2].as_deref().is_some_and(|c| c.contains('/')));
        // The same engines on one worker give the same games.
        s.concurrency = 1;
        let mut again = Vec::new();
        run(&s, &players, |game| {
            again.push(game.moves.clone());
            true
        });
        assert_eq!(again.len(), 6);
        assert!(seen.iter().zip(&again).all(|(a, b)| a.moves == *b));
    }
}
