//! Texel tuning of the evaluation: self-play positions with their game results, and a
//! logistic regression of the result on the evaluation (`P(White scores) = 1 / (1 +
//! exp(-k · eval))`) that fits every weight of `engine/data/eval-weights.txt`.
//!
//! ```text
//! # the hand-set starting point (today's terms in the learned layout)
//! cargo run --release -p drafti-lab --example texel -- init > start.txt
//! # positions: GAMES self-play games at NODES nodes a move, seeded, on JOBS threads
//! cargo run --release -p drafti-lab --example texel -- gen --games 20000 --nodes 5000 \
//!     --seed 1 --jobs 2 [--weights W.txt] > positions.txt
//! # the fit (deterministic: a fixed split into chunks summed in order, whatever the threads)
//! cargo run --release -p drafti-lab --example texel -- fit --data positions.txt \
//!     --start start.txt --epochs 400 --jobs 2 > engine/data/eval-weights.txt
//! ```
//! `gen` writes one quiet position a line (`FEN<TAB>result`, the result 1, 0.5 or 0 for
//! White) from games that open with 6 to 12 random plies and then play the engine's best move,
//! or with probability 0.1 its second or third best; a game still running at ply 300 counts
//! as a draw, and so does one with `--no-progress N` plies in a row without a capture or a
//! man's move (off unless given; Czech and Russian self-play has no draw law). The random
//! plies' own positions are left out unless `--opening record` (each searched like a game
//! position) or `--opening only` (those alone, result `?`, the games not played: the same
//! seed's games, to join with an earlier run's results by game number). `--starts BOOK.tsv`
//! (an opening book in drafti's format, e.g. `db/data/fmjd-64.tsv`) opens game `i` with the
//! book's line `i mod n` and 0 to 2 random plies instead. `relabel --data F --nodes N
//! [--variant V --jobs J --weights W.txt]` writes `F` again with each position's score from a
//! deeper search of it alone (N nodes, a fresh table; result and game number kept), for labels deeper than the
//! games' own searches. `fit` fixes
//! `k` on the starting weights (Newton's method; `--k scores` takes the search scores' own
//! scale instead, so that weights fitted to deeper scores speak their units), then minimises the mean log-loss plus a
//! small L2 penalty towards the starting weights with full-batch Adam (the man's and the
//! king's base values stay at the nominal 1 and 3 men: the square terms carry the rest), and
//! reports the log-loss of every tenth position (held out) as it goes. Each distinct
//! position (with its result) counts once.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_engine::tuning::{self, Weights, GROUPS, PARAMS, REGIONS, REGION_STATES, UNIT};
use drafti_engine::{Engine, Limits, Score};
use drafti_rules::{Color, DrawLaws, Game, MoveList, Outcome, Position, Variant};
use std::io::{BufRead, BufWriter, Write};
use std::sync::Arc;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number = |name: &str, default: f64| -> f64 {
        value(name).map_or(default, |v| v.parse().expect("a number"))
    };
    let load = |path: &str| -> Weights {
        let text = std::fs::read_to_string(path).expect("reading a weights file");
        Weights::from_text(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
    };
    match args.first().map(String::as_str) {
        Some("init") => print!("{}", hand_set().to_text(HAND_HEADER)),
        Some("gen") => {
            let weights = value("--weights").map(|p| Arc::new(load(&p)));
            let variant: Variant = value("--variant")
                .map_or(Ok(Variant::Tanzanian), |v| v.parse())
                .expect("--variant tz|czech|russian");
            let settings = Generation {
                variant,
                from: number("--from", 0.0) as u64,
                games: number("--games", 1000.0) as u64,
                nodes: number("--nodes", 5000.0) as u64,
                balance: number("--balance", 60.0) as i32,
                no_progress: number("--no-progress", 0.0) as usize,
                seed: number("--seed", 1.0) as u64,
                jobs: number("--jobs", 2.0) as usize,
                starts: match value("--starts").map(|path| read_starts(&path, variant)) {
                    None => Vec::new(),
                    Some(Ok(lines)) => lines,
                    Some(Err(message)) => {
                        eprintln!("texel: {message}");
                        std::process::exit(2);
                    }
                },
                opening: match value("--opening").as_deref() {
                    None | Some("skip") => OpeningPlies::Skip,
                    Some("record") => OpeningPlies::Record,
                    Some("only") => OpeningPlies::Only,
                    Some(other) => panic!("--opening skip|record|only, not {other}"),
                },
            };
            generate(&settings, weights);
        }
        Some("relabel") => {
            let data = value("--data").expect("--data FILE");
            let nodes = number("--nodes", 100_000.0) as u64;
            let jobs = number("--jobs", 2.0) as usize;
            let variant: Variant = value("--variant")
                .map_or(Ok(Variant::Tanzanian), |v| v.parse())
                .expect("--variant tz|czech|russian");
            let weights = value("--weights").map(|p| Arc::new(load(&p)));
            if let Err(message) = relabel(&data, variant, nodes, jobs, weights.as_deref()) {
                eprintln!("texel: {message}");
                std::process::exit(2);
            }
        }
        Some("fit") => {
            let start = value("--start").map_or_else(hand_set, |p| load(&p));
            let settings = Fit {
                data: value("--data").expect("--data FILE[,FILE]"),
                variant: value("--variant")
                    .map_or(Ok(Variant::Tanzanian), |v| v.parse())
                    .expect("--variant tz|czech|russian"),
                epochs: number("--epochs", 400.0) as usize,
                rate: number("--rate", 1.0),
                l2: number("--l2", 1e-7),
                lambda: number("--lambda", 1.0),
                holdout: number("--holdout", 10.0) as u64,
                jobs: number("--jobs", 2.0) as usize,
                k: value("--k").map(|k| match k.as_str() {
                    "scores" => Scale::OfScores,
                    number => Scale::Given(number.parse().expect("--k a number or scores")),
                }),
                regions: number("--regions", REGIONS as f64) as usize,
            };
            fit(&settings, start);
        }
        _ => {
            eprintln!("usage: texel init | gen [--variant V --from N --games N --nodes N --seed S --jobs J --weights W --no-progress N --opening skip|record|only --starts BOOK.tsv] | relabel --data F [--nodes N --variant V --jobs J] | fit --data F [--start W --epochs N --rate R --l2 L --k K|scores --jobs J]");
            std::process::exit(2);
        }
    }
}

const HAND_HEADER: &str = "drafti evaluation weights: the hand-set starting point (texel init)";

/// Today's hand-set terms (before the fit) in the learned layout: material, advancement and
/// centre by square, king mobility, the main diagonal, runaway men.
fn hand_set() -> Weights {
    let mut w = Weights::zero();
    let mut set = |name: &str, i: usize, mg: i32, eg: i32| {
        let g = GROUPS.iter().find(|g| g.name == name).expect("a group");
        w.mg[g.offset + i] = mg * UNIT;
        w.eg[g.offset + i] = eg * UNIT;
    };
    set("man", 0, 100, 100);
    set("king", 0, 300, 300);
    set("king-extra", 0, 300, 300);
    set("king-mobility", 0, 3, 3);
    set("king-mobility-attacked", 0, 3, 3);
    set("main-diagonal", 0, 20, 20);
    set("main-diagonal-sole", 0, 20, 20);
    for steps in 1..=7 {
        let v = (180 - 25 * (steps as i32 - 1)).max(0);
        set("runaway", steps - 1, v, v);
    }
    let opening = [0, 0, 1, 3, 5, 7, 9, 0];
    let endgame = [0, 5, 10, 16, 24, 34, 48, 0];
    for sq in 0..32usize {
        let rank = 7 - sq / 4; // 0 = own home row
        let (mut mg, mut eg) = (opening[rank], endgame[rank]);
        // Own-side view: square index sq is White's square sq.
        let file = if (sq / 4) % 2 == 0 {
            2 * (sq % 4) + 1
        } else {
            2 * (sq % 4)
        };
        let at = |f: usize, r: usize| file == f && rank == r;
        if at(2, 4) || at(3, 3) || at(4, 4) || at(5, 3) {
            mg += 6;
            eg += 2;
        }
        if at(2, 2) || at(4, 2) {
            mg += 3;
        }
        if at(2, 0) || at(4, 0) {
            mg += 12;
        }
        if at(0, 0) || at(6, 0) {
            mg += 5;
        }
        set("man-square", sq, mg, eg);
    }
    w
}

/// SplitMix64, the same everywhere.
use drafti_rules::SplitMix64 as Rng;

/// A quiet position of a self-play game and the score the engine's search gave it (from
/// White's side), the label beside the game's result.
struct Labelled {
    pos: Position,
    score: Score,
}

/// The search score from White's side as the data file writes it: centi-men, or `w N` / `l N`
/// for a proven win or loss of White in N plies.
fn score_text(score: Score, turn: Color) -> String {
    let score = if turn == Color::White { score } else { -score };
    match (
        score.as_centi_men(),
        score.win_distance(),
        score.loss_distance(),
    ) {
        (Some(cp), _, _) => cp.to_string(),
        (None, Some(n), _) => format!("w{n}"),
        (None, _, Some(n)) => format!("l{n}"),
        _ => "0".to_string(),
    }
}

/// Random opening plies are redrawn (up to this many times) while a short search calls the
/// position lopsided, so the games start balanced.
const OPENING_TRIES: u32 = 20;
/// The short search that judges an opening's balance.
const OPENING_CHECK_NODES: u64 = 2_000;

/// A game is adjudicated drawn from this ply on once its searches have called it even
/// (within `DRAWN_MARGIN` centi-men) for `DRAWN_PLIES` plies in a row.
const DRAWN_FROM_PLY: usize = 100;
const DRAWN_PLIES: usize = 20;
const DRAWN_MARGIN: i32 = 10;

/// One self-play game: its quiet positions with their search scores, and White's result
/// (`None` when only the opening is wanted).
#[allow(clippy::too_many_arguments)]
fn play(
    engine: &mut Engine,
    variant: Variant,
    nodes: u64,
    balance: i32,
    no_progress: usize,
    seed: u64,
    number: u64,
    opening: OpeningPlies,
    starts: &[Vec<drafti_rules::Move>],
) -> (Vec<Labelled>, Option<f64>) {
    let mut rng = Rng::stream(seed, number);
    let mut list = MoveList::new();
    // The opening: the book's line (`--starts`), then random plies (6 to 12 without a book,
    // 0 to 2 after its line), drawn again while it is lopsided.
    let mut game;
    let mut history;
    let mut played;
    let mut tries = 0;
    loop {
        game = Game::new(Position::start(Color::White), variant);
        history = Vec::new();
        played = Vec::new();
        let line = (!starts.is_empty()).then(|| &starts[(number % starts.len() as u64) as usize]);
        for mv in line.into_iter().flatten() {
            let pos = *game.position();
            history.push(pos.hash_key());
            played.push(pos);
            game.play(mv);
        }
        let random_plies = if line.is_some() {
            rng.below(3)
        } else {
            6 + rng.below(7)
        };
        for _ in 0..random_plies {
            if game.outcome().is_some() {
                break;
            }
            let pos = *game.position();
            pos.generate_moves(variant, &mut list);
            history.push(pos.hash_key());
            played.push(pos);
            game.play(&list[rng.below(list.len())]);
        }
        tries += 1;
        if game.outcome().is_some() {
            continue;
        }
        engine.clear();
        let check = engine.search(
            game.position(),
            &Limits::nodes(OPENING_CHECK_NODES),
            &history,
            |_| {},
        );
        let even = check
            .score
            .as_centi_men()
            .is_some_and(|cp| cp.abs() <= balance);
        if even || tries >= OPENING_TRIES {
            break;
        }
    }
    let mut positions = Vec::new();
    if opening != OpeningPlies::Skip {
        // The opening's positions (the book line's and the random plies'), each searched as a
        // game position is (the rng is not drawn: the game that follows is the one a `skip`
        // run plays).
        engine.clear();
        for (ply, pos) in played.iter().enumerate() {
            if pos.has_capture(variant) {
                continue;
            }
            let result = engine.search(pos, &Limits::nodes(nodes), &history[..ply], |_| {});
            positions.push(Labelled {
                pos: *pos,
                score: result.score,
            });
        }
        if opening == OpeningPlies::Only {
            return (positions, None);
        }
    }
    engine.clear();
    // Plies in a row whose search called the game even (a drawn ending shuffling on), and
    // a side's proven win once the search has seen it.
    let mut even_plies = 0;
    // Plies since the last capture or man's move (`--no-progress`).
    let mut quiet_plies = 0;
    let mut adjudicated = None;
    for ply in 0..300 {
        if game.outcome().is_some() {
            break;
        }
        let pos = *game.position();
        let mut limits = Limits::nodes(nodes).with_game_counts(&game);
        let noisy = rng.unit() < 0.1;
        if noisy {
            limits.multipv = 3;
        }
        let result = engine.search(&pos, &limits, &history, |_| {});
        let Some(best) = result.best else { break };
        if !pos.has_capture(variant) {
            positions.push(Labelled {
                pos,
                score: result.score,
            });
        }
        // A proven result ends the game (as tables adjudicate engine matches), and so does
        // an even ending that stays even: their tails only repeat positions.
        if result.score.win_distance().is_some() {
            adjudicated = Some(if pos.turn() == Color::White { 1.0 } else { 0.0 });
            break;
        }
        if result.score.loss_distance().is_some() {
            adjudicated = Some(if pos.turn() == Color::White { 0.0 } else { 1.0 });
            break;
        }
        even_plies = match result.score.as_centi_men() {
            Some(cp) if cp.abs() <= DRAWN_MARGIN => even_plies + 1,
            _ => 0,
        };
        if ply >= DRAWN_FROM_PLY && even_plies >= DRAWN_PLIES {
            adjudicated = Some(0.5);
            break;
        }
        let mv = if noisy && result.lines.len() > 1 {
            result.lines[1 + rng.below(result.lines.len() - 1)].mv
        } else {
            best
        };
        quiet_plies = if mv.is_capture() || pos.men(pos.turn()).contains(mv.from()) {
            0
        } else {
            quiet_plies + 1
        };
        if no_progress > 0 && quiet_plies >= no_progress {
            adjudicated = Some(0.5);
            break;
        }
        history.push(pos.hash_key());
        game.play(&mv);
    }
    let result = adjudicated.unwrap_or(match game.outcome() {
        Some(Outcome::Win(Color::White)) => 1.0,
        Some(Outcome::Win(Color::Black)) => 0.0,
        _ => 0.5,
    });
    (positions, Some(result))
}

/// What `gen` writes of a game's random opening plies.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OpeningPlies {
    /// Nothing: the positions start after them (the data of every fit before 2026-12-05).
    Skip,
    /// Their quiet positions too, each searched at the game's nodes, then the game's.
    Record,
    /// Only their quiet positions, the game not played (result `?`): the same games' openings
    /// as a `skip` run of the same seed wrote, to join with its results by game number.
    Only,
}

/// What `gen` plays: games `from..from + games` of the seeded stream.
struct Generation {
    variant: Variant,
    from: u64,
    games: u64,
    nodes: u64,
    /// The largest opening imbalance (centi-men) kept.
    balance: i32,
    /// A game with this many plies in a row without a capture or a man's move ends, a draw
    /// (0: never). Czech and Russian games have no draw law in the rules core, so their
    /// king endings that the engine cannot convert shuffle on to ply 300 and fill the data.
    no_progress: usize,
    seed: u64,
    jobs: usize,
    opening: OpeningPlies,
    /// Opening lines (`--starts`): game `i` plays line `i mod n`, then 0 to 2 random plies
    /// instead of 6 to 12. Empty: random plies from the start.
    starts: Vec<Vec<drafti_rules::Move>>,
}

/// The lines of an opening book file (drafti's format: code, name, moves, tab-separated; `#`
/// comments and the header skipped), each played under `variant`'s rules. An error names the
/// file, the line and the move that is not one legal move of its position.
fn read_starts(path: &str, variant: Variant) -> Result<Vec<Vec<drafti_rules::Move>>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut lines = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.starts_with('#') || line.starts_with("code\t") || line.trim().is_empty() {
            continue;
        }
        let at = format!("{path}:{}", index + 1);
        let moves = line
            .split('\t')
            .nth(2)
            .ok_or_else(|| format!("{at}: expected code, name and moves separated by tabs"))?;
        let mut pos = Position::start(Color::White);
        let mut played = Vec::new();
        for word in moves.split_whitespace().filter(|w| !w.ends_with('.')) {
            let found = pos
                .parse_move(variant, word)
                .map_err(|e| format!("{at}: {word}: {e}"))?;
            let mv = match found.as_slice() {
                [mv] => *mv,
                [] => return Err(format!("{at}: {word} is not a legal {variant} move here")),
                _ => return Err(format!("{at}: {word} is ambiguous here")),
            };
            pos = pos.play(&mv);
            played.push(mv);
        }
        lines.push(played);
    }
    Ok(lines)
}

/// `relabel`: every line of a `gen` file again with its score from a deeper search of the
/// position alone (`nodes`, no game history), the result and game number kept; `jobs`
/// threads, each a contiguous share of the lines, written in the input's order.
fn relabel(
    path: &str,
    variant: Variant,
    nodes: u64,
    jobs: usize,
    weights: Option<&Weights>,
) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let lines: Vec<&str> = text.lines().collect();
    let mut parsed = Vec::with_capacity(lines.len());
    for (index, line) in lines.iter().enumerate() {
        let fen = line.split('\t').next().unwrap_or_default();
        let pos = Position::from_fen(fen).map_err(|e| format!("{path}:{}: {e}", index + 1))?;
        parsed.push((pos, *line));
    }
    let share = parsed.len().div_ceil(jobs.max(1)).max(1);
    let started = Instant::now();
    let relabelled: Vec<Vec<String>> = std::thread::scope(|scope| {
        let workers: Vec<_> = parsed
            .chunks(share)
            .map(|chunk| {
                scope.spawn(move || {
                    let mut engine = Engine::new(variant, 16);
                    if let Some(w) = weights {
                        engine.set_weights(w);
                    }
                    chunk
                        .iter()
                        .map(|(pos, line)| {
                            engine.clear();
                            let found = engine.search(pos, &Limits::nodes(nodes), &[], |_| {});
                            let mut fields: Vec<&str> = line.split('\t').collect();
                            let score = score_text(found.score, pos.turn());
                            if fields.len() > 2 {
                                fields[2] = &score;
                                fields.join("\t")
                            } else {
                                format!("{}\t{score}", fields.join("\t"))
                            }
                        })
                        .collect()
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().expect("a relabel worker"))
            .collect()
    });
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    for line in relabelled.iter().flatten() {
        writeln!(out, "{line}").map_err(|e| format!("stdout: {e}"))?;
    }
    eprintln!(
        "{} positions relabelled at {nodes} nodes in {:.0} s",
        parsed.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn generate(settings: &Generation, weights: Option<Arc<Weights>>) {
    let &Generation {
        variant,
        from,
        games,
        nodes,
        balance,
        no_progress,
        seed,
        jobs,
        opening,
        ref starts,
    } = settings;
    let started = Instant::now();
    let next = std::sync::atomic::AtomicU64::new(0);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            let tx = tx.clone();
            let next = &next;
            let weights = weights.clone();
            scope.spawn(move || {
                let mut engine = Engine::new(variant, 8);
                engine.set_keep_table(true);
                if let Some(w) = weights {
                    engine.set_weights(&w);
                }
                loop {
                    let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    if i >= games {
                        break;
                    }
                    let game = play(
                        &mut engine,
                        variant,
                        nodes,
                        balance,
                        no_progress,
                        seed,
                        from + i,
                        opening,
                        starts,
                    );
                    if tx.send((i, game)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // Written in game order, so the file is the same for any number of jobs.
        let stdout = std::io::stdout();
        let mut out = BufWriter::new(stdout.lock());
        let mut pending = std::collections::BTreeMap::new();
        let (mut done, mut count) = (0u64, 0u64);
        let mut results = [0u64; 3];
        for (i, game) in rx {
            pending.insert(i, game);
            while let Some((positions, result)) = pending.remove(&done) {
                let result = match result {
                    Some(r) => {
                        results[(r * 2.0) as usize] += 1;
                        r.to_string()
                    }
                    None => "?".to_string(),
                };
                for p in &positions {
                    writeln!(
                        out,
                        "{}\t{}\t{}\t{}",
                        p.pos.to_fen(),
                        result,
                        score_text(p.score, p.pos.turn()),
                        from + done
                    )
                    .expect("writing");
                }
                count += positions.len() as u64;
                done += 1;
                if done.is_multiple_of(500) {
                    eprintln!(
                        "{done} games, {count} positions, {:.0} s (White wins {} draws {} Black wins {})",
                        started.elapsed().as_secs_f64(),
                        results[2],
                        results[1],
                        results[0]
                    );
                }
            }
        }
        out.flush().expect("writing");
        eprintln!(
            "{done} games, {count} positions in {:.0} s (White wins {} draws {} Black wins {})",
            started.elapsed().as_secs_f64(),
            results[2],
            results[1],
            results[0]
        );
    });
}

/// A training position: its features, White's mean game result, the mean win probability
/// its search scores give White (the result again where the data has no score), and
/// whether it is held out.
struct Sample {
    f: tuning::Features,
    result: f32,
    search: f32,
    held_out: bool,
}

/// A search score from White's side as `gen` writes it: centi-men, or a proven White win
/// or loss (`wN`, `lN`).
enum Label {
    CentiMen(f64),
    Win,
    Loss,
}

fn parse_label(text: &str) -> Option<Label> {
    if text.starts_with('w') {
        Some(Label::Win)
    } else if text.starts_with('l') {
        Some(Label::Loss)
    } else {
        text.parse().ok().map(Label::CentiMen)
    }
}

/// One position of the data files, before merging its repetitions.
struct Raw {
    pos: Position,
    result: f64,
    label: Option<Label>,
    game: Option<u64>,
}

fn read_raw(paths: &str) -> Vec<Raw> {
    let mut raws = Vec::new();
    for path in paths.split(',') {
        let file = std::fs::File::open(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (n, line) in std::io::BufReader::new(file).lines().enumerate() {
            let line = line.expect("reading");
            let mut fields = line.split('\t');
            let (Some(fen), Some(result)) = (fields.next(), fields.next()) else {
                continue;
            };
            let pos =
                Position::from_fen(fen).unwrap_or_else(|e| panic!("{path}:{}: {fen}: {e}", n + 1));
            let result: f64 = result
                .trim()
                .parse()
                .unwrap_or_else(|_| panic!("{path}:{}: a result", n + 1));
            let label = fields.next().and_then(parse_label);
            let game = fields.next().and_then(|g| g.trim().parse().ok());
            raws.push(Raw {
                pos,
                result,
                label,
                game,
            });
        }
    }
    raws
}

/// `k_s` such that `sigmoid(k_s · score)` best predicts the result (Newton's method on the
/// log-likelihood over the positions with an estimate).
fn fit_score_scale(raws: &[Raw]) -> f64 {
    let pairs: Vec<(f64, f64)> = raws
        .iter()
        .filter_map(|r| match r.label {
            Some(Label::CentiMen(cp)) => Some((cp, r.result)),
            _ => None,
        })
        .collect();
    newton_k(&pairs, 0.004)
}

/// The `k` of `P(White scores) = sigmoid(k · score)` that maximises the likelihood of
/// `(score, result)` pairs.
fn newton_k(pairs: &[(f64, f64)], start: f64) -> f64 {
    let mut k = start;
    for _ in 0..50 {
        let (mut d1, mut d2) = (0.0, 0.0);
        for &(s, y) in pairs {
            let p = sigmoid(k * s);
            d1 += (y - p) * s;
            d2 -= p * (1.0 - p) * s * s;
        }
        if d2 >= 0.0 {
            break;
        }
        let step = d1 / d2;
        k -= step;
        if step.abs() < 1e-10 {
            break;
        }
    }
    k
}

/// The samples of the data files: each distinct position once, its results and search
/// probabilities averaged over its occurrences (openings repeat across games, drawn
/// endings within one), held out when its first game is one of every `holdout` (whole
/// games, so that no held-out game's positions are fitted), and `k_s` of the search scores.
fn read_samples(paths: &str, laws: &DrawLaws, holdout: u64) -> (Vec<Sample>, f64) {
    let raws = read_raw(paths);
    let k_search = fit_score_scale(&raws);
    let mut index = std::collections::HashMap::new();
    // Sums of result and search probability, occurrences, held out, the first position.
    let mut merged: Vec<(f64, f64, u32, bool, Position)> = Vec::new();
    for (n, raw) in raws.iter().enumerate() {
        let search = match raw.label {
            Some(Label::CentiMen(cp)) => sigmoid(k_search * cp),
            Some(Label::Win) => 1.0,
            Some(Label::Loss) => 0.0,
            None => raw.result,
        };
        let held_out = match raw.game {
            Some(g) => g.is_multiple_of(holdout),
            None => (n as u64).is_multiple_of(holdout),
        };
        let at = *index.entry(raw.pos.hash_key()).or_insert_with(|| {
            merged.push((0.0, 0.0, 0, held_out, raw.pos));
            merged.len() - 1
        });
        let m = &mut merged[at];
        m.0 += raw.result;
        m.1 += search;
        m.2 += 1;
    }
    drop(raws);
    let samples = merged
        .into_iter()
        .filter_map(|(r, s, count, held_out, pos)| {
            let f = tuning::features(&pos, laws)?;
            Some(Sample {
                f,
                result: (r / f64::from(count)) as f32,
                search: (s / f64::from(count)) as f32,
                held_out,
            })
        })
        .collect();
    (samples, k_search)
}

/// Chunks the data is cut into for the gradient (fixed, so the sum is the same for any
/// number of threads).
const CHUNKS: usize = 16;

/// Model score in centi-men of a sample with features `f` under weights `(mg, eg)`.
fn model(f: &tuning::Features, mg: &[f64], eg: &[f64]) -> f64 {
    let p = f.pieces as f64 / 24.0;
    let mut s = 0.0;
    for &(i, c) in &f.counts {
        let i = i as usize;
        s += c as f64 * (mg[i] * p + eg[i] * (1.0 - p));
    }
    s / f.divisor as f64
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Cross-entropy of the prediction `q` against the target `t` (0 to 1).
fn cross_entropy(t: f64, q: f64) -> f64 {
    let q = q.clamp(1e-9, 1.0 - 1e-9);
    -(t * q.ln() + (1.0 - t) * (1.0 - q).ln())
}

/// What one pass over the samples measured: the fitted samples' loss against their
/// targets, and on the held-out samples the log-loss against the game results and the
/// cross-entropy against the targets.
#[derive(Default)]
struct Losses {
    fitted: f64,
    n_fitted: usize,
    held_result: f64,
    held_target: f64,
    n_held: usize,
}

impl Losses {
    fn add(&mut self, other: &Losses) {
        self.fitted += other.fitted;
        self.n_fitted += other.n_fitted;
        self.held_result += other.held_result;
        self.held_target += other.held_target;
        self.n_held += other.n_held;
    }

    /// Mean fitted loss, held-out log-loss against the results, against the targets.
    fn means(&self) -> (f64, f64, f64) {
        let n = self.n_held.max(1) as f64;
        (
            self.fitted / self.n_fitted.max(1) as f64,
            self.held_result / n,
            self.held_target / n,
        )
    }
}

/// The `k` of a fit (`--k`): a number, or the search scores' own scale (`scores`: the fitted
/// evaluation then speaks the units of the labels' searches, as flat or as steep as they are).
#[derive(Clone, Copy)]
enum Scale {
    Given(f64),
    OfScores,
}

/// The target of a sample: `lambda` of the game result, the rest of the search's score.
fn target(s: &Sample, lambda: f64) -> f64 {
    lambda * f64::from(s.result) + (1.0 - lambda) * f64::from(s.search)
}

/// Losses and, when asked, the gradient of the fitted samples' loss.
fn pass(
    samples: &[Sample],
    mg: &[f64],
    eg: &[f64],
    k: f64,
    lambda: f64,
    jobs: usize,
    gradient: bool,
) -> (Losses, Vec<f64>, Vec<f64>) {
    let chunk = samples.len().div_ceil(CHUNKS);
    let work = |c: usize| {
        let mut losses = Losses::default();
        let (mut gmg, mut geg) = if gradient {
            (vec![0.0; PARAMS], vec![0.0; PARAMS])
        } else {
            (Vec::new(), Vec::new())
        };
        let lo = (c * chunk).min(samples.len());
        let hi = ((c + 1) * chunk).min(samples.len());
        for sample in &samples[lo..hi] {
            let f = &sample.f;
            let q = sigmoid(k * model(f, mg, eg));
            let t = target(sample, lambda);
            if sample.held_out {
                losses.held_result += cross_entropy(f64::from(sample.result), q);
                losses.held_target += cross_entropy(t, q);
                losses.n_held += 1;
                continue;
            }
            losses.fitted += cross_entropy(t, q);
            losses.n_fitted += 1;
            if gradient {
                let d = (q - t) * k / f.divisor as f64;
                let p = f.pieces as f64 / 24.0;
                for &(i, cnt) in &f.counts {
                    let g = d * cnt as f64;
                    gmg[i as usize] += g * p;
                    geg[i as usize] += g * (1.0 - p);
                }
            }
        }
        (losses, gmg, geg)
    };
    let results: Vec<_> = std::thread::scope(|scope| {
        let per = CHUNKS.div_ceil(jobs.max(1));
        let handles: Vec<_> = (0..jobs.max(1))
            .map(|t| {
                let work = &work;
                scope.spawn(move || {
                    (t * per..((t + 1) * per).min(CHUNKS))
                        .map(work)
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a worker"))
            .collect()
    });
    let mut losses = Losses::default();
    let (mut gmg, mut geg) = (vec![0.0; PARAMS], vec![0.0; PARAMS]);
    for (l, a, b) in results {
        losses.add(&l);
        if gradient {
            for i in 0..PARAMS {
                gmg[i] += a[i];
                geg[i] += b[i];
            }
        }
    }
    (losses, gmg, geg)
}

/// What `fit` does.
struct Fit {
    data: String,
    variant: Variant,
    epochs: usize,
    rate: f64,
    l2: f64,
    lambda: f64,
    holdout: u64,
    jobs: usize,
    k: Option<Scale>,
    /// Pattern regions fitted (the first ones).
    regions: usize,
}

fn fit(settings: &Fit, start: Weights) {
    let started = Instant::now();
    let laws = DrawLaws::for_variant(settings.variant);
    let (samples, k_search) = read_samples(&settings.data, &laws, settings.holdout);
    let n_held = samples.iter().filter(|s| s.held_out).count();
    eprintln!(
        "{} distinct positions ({} to fit, {n_held} of held-out games), features in {:.0} s; \
         search scores: k_s = {k_search:.6}",
        samples.len(),
        samples.len() - n_held,
        started.elapsed().as_secs_f64()
    );
    let unit = UNIT as f64;
    let mut mg: Vec<f64> = start.mg.iter().map(|&v| v as f64 / unit).collect();
    let mut eg: Vec<f64> = start.eg.iter().map(|&v| v as f64 / unit).collect();

    // k on the starting weights against the results of the fitted positions, unless given.
    let k = match settings.k {
        Some(Scale::Given(k)) => k,
        Some(Scale::OfScores) => k_search,
        None => {
            let pairs: Vec<(f64, f64)> = samples
                .iter()
                .filter(|s| !s.held_out)
                .map(|s| (model(&s.f, &mg, &eg), f64::from(s.result)))
                .collect();
            newton_k(&pairs, 0.004)
        }
    };
    eprintln!("k = {k:.6}, lambda = {}", settings.lambda);

    // L2 towards the starting values (zero for the patterns): rarely seen features (kings
    // with a full board, say) stay near where they started instead of following noise.
    let mut frozen = vec![false; PARAMS];
    for name in ["man", "king"] {
        if let Some(g) = GROUPS.iter().find(|g| g.name == name) {
            frozen[g.offset] = true;
        }
    }
    // `--regions N`: only the first N pattern regions are fitted (the others stay as the
    // start has them), to measure what the extra regions buy.
    let pattern = tuning::PATTERN;
    frozen[pattern + settings.regions * REGION_STATES..pattern + REGIONS * REGION_STATES]
        .fill(true);
    let prior_mg = mg.clone();
    let prior_eg = eg.clone();
    let (b1, b2, eps): (f64, f64, f64) = (0.9, 0.999, 1e-8);
    let (mut m1, mut v1) = (vec![0.0; 2 * PARAMS], vec![0.0; 2 * PARAMS]);
    let mut last = (0.0, 0.0, 0.0);
    let n_fit = (samples.len() - n_held).max(1) as f64;
    for epoch in 0..=settings.epochs {
        let (losses, gmg, geg) = pass(
            &samples,
            &mg,
            &eg,
            k,
            settings.lambda,
            settings.jobs,
            epoch < settings.epochs,
        );
        last = losses.means();
        if epoch % 25 == 0 || epoch == settings.epochs {
            eprintln!(
                "epoch {epoch}: fitted loss {:.5}, held out: log-loss {:.5} (results), {:.5} (targets) ({:.0} s)",
                last.0,
                last.1,
                last.2,
                started.elapsed().as_secs_f64()
            );
        }
        if epoch == settings.epochs {
            break;
        }
        let t = (epoch + 1) as i32;
        for i in 0..2 * PARAMS {
            // A man's and a king's base values stay the nominal ones the engine exports
            // (`drafti_engine::MAN`, `KING`): the man-square and king terms carry the rest,
            // so "one man" keeps its meaning in every score shown.
            if frozen[i % PARAMS] {
                continue;
            }
            let (w, g, prior) = if i < PARAMS {
                (&mut mg[i], gmg[i], prior_mg[i])
            } else {
                (&mut eg[i - PARAMS], geg[i - PARAMS], prior_eg[i - PARAMS])
            };
            let g = g / n_fit + 2.0 * settings.l2 * (*w - prior);
            m1[i] = b1 * m1[i] + (1.0 - b1) * g;
            v1[i] = b2 * v1[i] + (1.0 - b2) * g * g;
            let mh = m1[i] / (1.0 - b1.powi(t));
            let vh = v1[i] / (1.0 - b2.powi(t));
            *w -= settings.rate * mh / (vh.sqrt() + eps);
        }
    }
    let out = Weights {
        mg: mg.iter().map(|&v| (v * unit).round() as i32).collect(),
        eg: eg.iter().map(|&v| (v * unit).round() as i32).collect(),
    };
    let header = format!(
        "drafti evaluation weights (tenths of a centi-man; opening and endgame values)\n\
         fitted by: texel fit --variant {} --data {} --epochs {} --rate {} --l2 {} --lambda {} --holdout {} --regions {}\n\
         {} positions, k = {k:.6}, k_s = {k_search:.6}; held out ({n_held} positions of every {}th game): \
         log-loss {:.5} against the results, {:.5} against the targets",
        settings.variant,
        settings.data,
        settings.epochs,
        settings.rate,
        settings.l2,
        settings.lambda,
        settings.holdout,
        settings.regions,
        samples.len(),
        settings.holdout,
        last.1,
        last.2
    );
    print!("{}", out.to_text(&header));
    eprintln!("done in {:.0} s", started.elapsed().as_secs_f64());
}
