//! Engine self-play: games between two search limits, with varied openings and a little
//! noise, deterministic from a seed.
//!
//! ```text
//! seed, game number ──▶ a few random opening plies ──▶ engine moves (search per ply; with
//! probability `noise` the 2nd or 3rd best of a 3-line search) ──▶ end by the rules, or at
//! the ply cap adjudicated by the last search score ──▶ SelfplayGame ──▶ GameRecord (PDN)
//! ```
//! A game depends only on the options and its number, never on threads or timing: the
//! engine is limited by depth or nodes, and the random choices come from a SplitMix64
//! generator seeded by `(seed, game number)`. [`play_games`] plays many games on rayon's
//! current pool and returns them in order.
//!
//! **Adjudication at the ply cap**: the side to move's score from the last search (or a
//! fresh one) decides: at least [`SelfplayOptions::adjudicate_cm`] hundredths of a man (or a
//! proven result) wins for the side ahead, anything less is a draw. The record says so in a
//! `Termination` tag.
//!
//! ```
//! use drafti_engine::Limits;
//! use drafti_analysis::selfplay::{play_game, SelfplayOptions};
//! let options = SelfplayOptions { max_plies: 20, ..SelfplayOptions::new(Limits::depth(2)) };
//! let a = play_game(&options, 0);
//! let b = play_game(&options, 0);
//! assert_eq!(a.moves, b.moves);
//! assert!(a.moves.len() <= 20);
//! let record = a.record(&options, 0);
//! assert_eq!(record.tag("White"), Some("drafti d2"));
//! ```

use drafti_archive::replay::move_token;
use drafti_engine::{Engine, Limits, Score};
use drafti_pdn::{GameRecord, GameResult, MoveNode, MoveNumber, Tag};
use drafti_rules::{Color, Game, Move, MoveList, Outcome, Position, Variant};
use rayon::prelude::*;
use std::cell::RefCell;

/// How self-play games are played.
#[derive(Clone, Debug)]
pub struct SelfplayOptions {
    /// The rules (default Tanzanian).
    pub variant: Variant,
    /// The search limits of the player with the white pieces.
    pub white: Limits,
    /// The search limits of the player with the black pieces.
    pub black: Limits,
    /// The seed: the same seed and options give the same games.
    pub seed: u64,
    /// Plies at the start chosen uniformly at random among the legal moves.
    pub opening_plies: usize,
    /// The probability that a move (after the opening) is the 2nd or 3rd best line of a
    /// 3-line search instead of the best: realistic mistakes. 0 plays the best move always.
    pub noise: f64,
    /// Stop a game after this many plies and adjudicate it.
    pub max_plies: usize,
    /// At the ply cap, a side this far ahead (hundredths of a man) is given the win.
    pub adjudicate_cm: i32,
    /// Games `2j` and `2j+1` share their opening, with the players' colours swapped (for
    /// matches between two limits).
    pub paired: bool,
    /// Who moves first (Czech and Russian: always White).
    pub first: Color,
    /// Transposition table of each engine, MiB.
    pub tt_mb: usize,
}

impl SelfplayOptions {
    /// Both sides searching with `limits`; Tanzanian, seed 0, 4 random opening plies, noise
    /// 0.1, a cap of 200 plies adjudicated at 1.5 men, White first.
    pub fn new(limits: Limits) -> SelfplayOptions {
        SelfplayOptions {
            variant: Variant::Tanzanian,
            white: limits.clone(),
            black: limits,
            seed: 0,
            opening_plies: 4,
            noise: 0.1,
            max_plies: 200,
            adjudicate_cm: 150,
            paired: false,
            first: Color::White,
            tt_mb: 4,
        }
    }

    /// The limits of the player with `color` in game `game_no` (swapped in odd games when
    /// [`SelfplayOptions::paired`]).
    pub fn limits_of(&self, color: Color, game_no: u64) -> &Limits {
        let swap = self.paired && game_no % 2 == 1;
        match (color, swap) {
            (Color::White, false) | (Color::Black, true) => &self.white,
            _ => &self.black,
        }
    }
}

/// How a self-play game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// By the rules: a side without a move, or a draw law.
    Rules(Outcome),
    /// At the ply cap, by the score (see the module docs).
    Adjudicated,
}

/// One finished self-play game.
#[derive(Clone, Debug)]
pub struct SelfplayGame {
    /// The rules.
    pub variant: Variant,
    /// The start position.
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// For each ply, the score of the search that chose the move, from White's side
    /// (`None` for the random opening plies).
    pub scores: Vec<Option<Score>>,
    /// Whether the move of each ply was chosen by the noise (not the best line).
    pub noisy: Vec<bool>,
    /// The result.
    pub result: GameResult,
    /// How it ended.
    pub termination: Termination,
}

/// The generator of self-play and random games: [`SplitMix64`](drafti_rules::SplitMix64), the same on every platform,
/// so a seed means the same games (also those of `drafti selfplay --random`); a game's
/// stream is `Rng::stream(seed, game number)`.
pub use drafti_rules::SplitMix64 as Rng;

thread_local! {
    static ENGINES: RefCell<Vec<Engine>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with this thread's engine for `variant` (made on first use; results never
/// depend on what an engine searched before).
pub(crate) fn with_engine<R>(
    variant: Variant,
    tt_mb: usize,
    f: impl FnOnce(&mut Engine) -> R,
) -> R {
    ENGINES.with(|cell| {
        let mut engines = cell.borrow_mut();
        let i = match engines.iter().position(|e| e.variant() == variant) {
            Some(i) => i,
            None => {
                engines.push(Engine::new(variant, tt_mb));
                engines.len() - 1
            }
        };
        f(&mut engines[i])
    })
}

/// Plays game number `game_no` (0-based) of a series.
pub fn play_game(options: &SelfplayOptions, game_no: u64) -> SelfplayGame {
    with_engine(options.variant, options.tt_mb, |engine| {
        play_with(engine, options, game_no)
    })
}

/// Plays games `first..first + count` in parallel (rayon's current pool), in order.
pub fn play_games(options: &SelfplayOptions, first: u64, count: u64) -> Vec<SelfplayGame> {
    (first..first + count)
        .into_par_iter()
        .map(|i| play_game(options, i))
        .collect()
}

fn play_with(engine: &mut Engine, options: &SelfplayOptions, game_no: u64) -> SelfplayGame {
    let opening_no = if options.paired { game_no / 2 } else { game_no };
    let mut opening_rng = Rng::stream(options.seed, opening_no);
    let mut rng = Rng::stream(options.seed ^ 0x05EE_D0F4_015E, game_no);
    let variant = options.variant;
    let first = if variant == Variant::Tanzanian {
        options.first
    } else {
        Color::White
    };
    let start = Position::start(first);
    let mut game = Game::new(start, variant);
    let mut history: Vec<u64> = Vec::with_capacity(options.max_plies + 1);
    let mut moves = Vec::new();
    let mut scores = Vec::new();
    let mut noisy = Vec::new();
    let mut list = MoveList::new();
    let mut last_score: Option<Score> = None; // from White's side
    while game.outcome().is_none() && moves.len() < options.max_plies {
        let pos = *game.position();
        let white_view = |s: Score| if pos.turn() == Color::White { s } else { -s };
        let (mv, score, is_noisy) = if moves.len() < options.opening_plies {
            pos.generate_moves(variant, &mut list);
            (list[opening_rng.below(list.len())], None, false)
        } else {
            let mut limits = options
                .limits_of(pos.turn(), game_no)
                .clone()
                .with_game_counts(&game);
            let noise = options.noise > 0.0 && rng.unit() < options.noise;
            if noise {
                limits.multipv = 3;
            }
            let result = engine.search(&pos, &limits, &history, |_| {});
            let Some(best) = result.best else { break };
            if noise && result.lines.len() > 1 {
                let pick = 1 + rng.below(result.lines.len() - 1);
                let line = &result.lines[pick];
                (line.mv, Some(white_view(line.score)), true)
            } else {
                (best, Some(white_view(result.score)), false)
            }
        };
        if score.is_some() {
            last_score = score;
        }
        history.push(pos.hash_key());
        moves.push(mv);
        scores.push(score);
        noisy.push(is_noisy);
        game.play(&mv);
    }
    let (result, termination) = match game.outcome() {
        Some(Outcome::Win(Color::White)) => (
            GameResult::WhiteWin,
            Termination::Rules(Outcome::Win(Color::White)),
        ),
        Some(Outcome::Win(Color::Black)) => (
            GameResult::BlackWin,
            Termination::Rules(Outcome::Win(Color::Black)),
        ),
        Some(o @ Outcome::Draw(_)) => (GameResult::Draw, Termination::Rules(o)),
        None => {
            let score = last_score.unwrap_or(Score::DRAW);
            let ahead = |s: Score| {
                s.win_distance().is_some()
                    || s.as_centi_men()
                        .is_some_and(|cm| cm >= options.adjudicate_cm)
            };
            let result = if ahead(score) {
                GameResult::WhiteWin
            } else if ahead(-score) {
                GameResult::BlackWin
            } else {
                GameResult::Draw
            };
            (result, Termination::Adjudicated)
        }
    };
    SelfplayGame {
        variant,
        start,
        moves,
        scores,
        noisy,
        result,
        termination,
    }
}

/// A player's name for the tags: `drafti d6`, `drafti n20000`.
pub fn player_name(limits: &Limits) -> String {
    match (limits.depth, limits.nodes) {
        (Some(d), None) => format!("drafti d{d}"),
        (None, Some(n)) => format!("drafti n{n}"),
        (Some(d), Some(n)) => format!("drafti d{d} n{n}"),
        (None, None) => "drafti".to_string(),
    }
}

/// The move nodes of `moves` played from `start`, as PDN writes them: a move number before
/// every White move and before a first move by Black; captures short (`c3xg7`) unless another
/// legal capture shares start and end, then with every landing square.
pub fn mainline(
    start: &Position,
    variant: Variant,
    moves: &[Move],
    numeric: bool,
) -> Vec<MoveNode> {
    let mut nodes = Vec::with_capacity(moves.len());
    let mut pos = *start;
    let mut number = 1;
    let mut list = MoveList::new();
    for mv in moves {
        pos.generate_moves(variant, &mut list);
        let mut node = MoveNode::new(move_token(mv, &list, numeric, false));
        if pos.turn() == Color::White && !nodes.is_empty() {
            number += 1;
        }
        if pos.turn() == Color::White || nodes.is_empty() {
            node.number = Some(MoveNumber {
                number,
                ellipsis: pos.turn() == Color::Black,
                span: Default::default(),
            });
        }
        nodes.push(node);
        pos = pos.play(mv);
    }
    nodes
}

impl SelfplayGame {
    /// The game as a PDN record with tags: Event, Site, Date (`????.??.??`: self-play is
    /// reproducible, so no clock is read), Round, White, Black, Result, PlyCount, Variant or
    /// GameType, and Termination (`rules`, or `adjudicated at N plies`). Moves are written
    /// algebraically, with every landing square where two captures share start and end.
    pub fn record(&self, options: &SelfplayOptions, game_no: u64) -> GameRecord {
        let nodes = mainline(&self.start, self.variant, &self.moves, false);
        let termination = match self.termination {
            Termination::Rules(_) => "rules".to_string(),
            Termination::Adjudicated => format!("adjudicated at {} plies", self.moves.len()),
        };
        let mut tags = vec![
            Tag::new("Event", "drafti engine self-play"),
            Tag::new("Site", format!("drafti selfplay --seed {}", options.seed)),
            Tag::new("Date", "????.??.??"),
            Tag::new("Round", (game_no + 1).to_string()),
            Tag::new(
                "White",
                player_name(options.limits_of(Color::White, game_no)),
            ),
            Tag::new(
                "Black",
                player_name(options.limits_of(Color::Black, game_no)),
            ),
            Tag::new("Result", self.result.as_str()),
            Tag::new("PlyCount", self.moves.len().to_string()),
        ];
        let (name, value) = self.variant.pdn_tag();
        tags.push(Tag::new(name, value));
        tags.push(Tag::new("Termination", termination));
        GameRecord::new(tags, nodes, self.result)
    }
}

/// Who makes the first move of a random game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum First {
    /// White (the only choice in Czech and Russian games).
    White,
    /// Black (Tanzanian only: either player may start).
    Black,
    /// Chosen at random for each game (Tanzanian only).
    Random,
}

/// How random games are played (`drafti selfplay --random`, the archive of `drafti bench`):
/// every move uniformly at random among the legal moves.
#[derive(Clone, Debug)]
pub struct RandomGames {
    /// The rules.
    pub variant: Variant,
    /// Who starts.
    pub first: First,
    /// The seed: the same seed gives the same games.
    pub seed: u64,
    /// Stop a game after this many plies (result `*`).
    pub max_plies: usize,
    /// Square numbers instead of algebraic names.
    pub numeric: bool,
}

/// Random game number `game_no` (0-based) as a record: the same for the same settings, on
/// every platform (see [`Rng`]).
///
/// ```
/// use drafti_analysis::selfplay::{random_game, First, RandomGames};
/// use drafti_rules::Variant;
/// let settings = RandomGames {
///     variant: Variant::Tanzanian,
///     first: First::White,
///     seed: 7,
///     max_plies: 40,
///     numeric: false,
/// };
/// let a = random_game(&settings, 3);
/// assert_eq!(a.tag("Round"), Some("4"));
/// assert_eq!(a.moves.nodes.len(), random_game(&settings, 3).moves.nodes.len());
/// ```
pub fn random_game(settings: &RandomGames, game_no: u64) -> GameRecord {
    let mut rng = Rng::stream(settings.seed, game_no);
    let first = match (settings.variant, settings.first) {
        (Variant::Tanzanian, First::Black) => Color::Black,
        (Variant::Tanzanian, First::Random) if rng.below(2) == 1 => Color::Black,
        _ => Color::White,
    };
    let start = Position::start(first);
    let mut game = Game::new(start, settings.variant);
    let mut list = MoveList::new();
    let mut moves = Vec::with_capacity(128);
    while game.outcome().is_none() && moves.len() < settings.max_plies {
        game.position().generate_moves(settings.variant, &mut list);
        let mv = list[rng.below(list.len())];
        moves.push(mv);
        game.play(&mv);
    }
    let nodes = mainline(&start, settings.variant, &moves, settings.numeric);
    let result = match game.outcome() {
        Some(Outcome::Win(Color::White)) => GameResult::WhiteWin,
        Some(Outcome::Win(Color::Black)) => GameResult::BlackWin,
        Some(Outcome::Draw(_)) => GameResult::Draw,
        None => GameResult::Unknown,
    };
    let mut tags = vec![
        Tag::new("Event", "drafti random self-play"),
        Tag::new(
            "Site",
            format!("drafti selfplay --random --seed {}", settings.seed),
        ),
        Tag::new("Round", (game_no + 1).to_string()),
        Tag::new("White", "random"),
        Tag::new("Black", "random"),
        Tag::new("Result", result.as_str()),
    ];
    let (name, value) = settings.variant.pdn_tag();
    tags.push(Tag::new(name, value));
    GameRecord::new(tags, nodes, result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_are_reproducible_and_varied() {
        let options = SelfplayOptions {
            max_plies: 30,
            ..SelfplayOptions::new(Limits::nodes(2_000))
        };
        let games = play_games(&options, 0, 4);
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.moves, play_game(&options, i as u64).moves);
            assert_eq!(g.moves.len(), g.scores.len());
            assert!(g.scores[..4].iter().all(Option::is_none));
        }
        assert!(
            games[0].moves[..4] != games[1].moves[..4]
                || games[1].moves[..4] != games[2].moves[..4]
        );
    }

    #[test]
    fn paired_games_share_the_opening_with_colours_swapped() {
        let options = SelfplayOptions {
            max_plies: 10,
            paired: true,
            noise: 0.0,
            black: Limits::depth(1),
            ..SelfplayOptions::new(Limits::depth(3))
        };
        let a = play_game(&options, 4);
        let b = play_game(&options, 5);
        assert_eq!(a.moves[..4], b.moves[..4]);
        let ra = a.record(&options, 4);
        let rb = b.record(&options, 5);
        assert_eq!(ra.tag("White"), Some("drafti d3"));
        assert_eq!(rb.tag("White"), Some("drafti d1"));
    }

    #[test]
    fn records_replay() {
        let options = SelfplayOptions {
            max_plies: 40,
            ..SelfplayOptions::new(Limits::depth(2))
        };
        let g = play_game(&options, 1);
        let text = drafti_pdn::write_game(&g.record(&options, 1));
        let record = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
        let replayed = drafti_archive::replay::replay(record, &Default::default());
        assert!(replayed.is_valid(), "{:?}", replayed.problems);
        assert_eq!(replayed.moves.len(), g.moves.len());
    }
}
