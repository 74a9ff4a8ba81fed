//! `drafti selfplay`: games played by the machine, as PDN on stdout. `--random` picks each
//! move uniformly at random among the legal moves (for tests and benchmarks); otherwise the
//! engine plays both sides at `--depth D` (default 6) or `--nodes N` (`drafti_analysis::selfplay`: a few random
//! opening plies, some noise, adjudication at the ply cap), optionally against a second
//! limit (`--opponent-depth`/`--opponent-nodes`, colours swapped every other game).

use crate::args::{JobsArg, NotationArg, RulesArg};
use crate::error::{CliError, CommandResult};
use crate::runner::worker_pool;
use drafti_analysis::selfplay::{self, random_game, RandomGames, Rng};
use drafti_pdn::write_game_to;
use drafti_rules::Color;
use rayon::prelude::*;
use std::io::Write;
use std::process::ExitCode;

/// Who makes the first move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum First {
    White,
    Black,
    /// Chosen at random for each game (Tanzanian only: either player may start).
    Random,
}

#[derive(clap::Args)]
pub struct Args {
    /// Choose every move uniformly at random among the legal moves.
    #[arg(long, conflicts_with_all = ["depth", "nodes"])]
    random: bool,
    /// Engine mode (the default): search every move to this depth [default: 6, the
    /// analysis depth, unless --nodes is given].
    #[arg(long, conflicts_with = "nodes", value_parser = clap::value_parser!(u32).range(1..=60))]
    depth: Option<u32>,
    /// Engine mode: search every move about this many nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Engine mode: the second player searches to this depth instead (a match: games 2j
    /// and 2j+1 share their opening with colours swapped; the first player is White in
    /// odd-numbered rounds).
    #[arg(long, conflicts_with = "opponent_nodes", value_parser = clap::value_parser!(u32).range(1..=60))]
    opponent_depth: Option<u32>,
    /// Engine mode: the second player searches about this many nodes instead.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    opponent_nodes: Option<u64>,
    /// Engine mode: plies at the start played at random (varied openings).
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Engine mode: probability that a move is the 2nd or 3rd best instead of the best.
    #[arg(long, default_value_t = 0.1)]
    noise: f64,
    /// Engine mode: at the ply cap, a side this many hundredths of a man ahead wins.
    #[arg(long, default_value_t = 150)]
    adjudicate: i32,
    // Engine mode.
    #[command(flatten)]
    jobs: JobsArg,
    /// How many games.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Seed: the same seed gives the same games.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    #[command(flatten)]
    rules: RulesArg,
    /// Stop a game after this many plies (result `*`).
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Who starts (Czech and Russian: always White).
    #[arg(long, value_enum, default_value = "white")]
    first: First,
    #[command(flatten)]
    numeric: NotationArg,
}

impl From<First> for selfplay::First {
    fn from(first: First) -> selfplay::First {
        match first {
            First::White => selfplay::First::White,
            First::Black => selfplay::First::Black,
            First::Random => selfplay::First::Random,
        }
    }
}

pub fn run(mut args: Args) -> CommandResult {
    if !args.random {
        if args.depth.is_none() && args.nodes.is_none() {
            args.depth = Some(drafti_analysis::DEFAULT_DEPTH);
        }
        return run_engine(args);
    }
    let random = RandomGames {
        variant: args.rules.variant,
        first: args.first.into(),
        seed: args.seed,
        max_plies: args.max_plies,
        numeric: args.numeric.numeric,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    const BATCH: u64 = 4096;
    let mut start = 0;
    while start < args.games {
        let end = (start + BATCH).min(args.games);
        let texts: Vec<String> = (start..end)
            .into_par_iter()
            .map(|i| {
                let mut text = String::with_capacity(1024);
                if i > 0 {
                    text.push('\n');
                }
                write_game_to(&random_game(&random, i), &mut text);
                text
            })
            .collect();
        if !write_texts(&mut out, &texts).map_err(|e| CliError::writing("the report", &e))? {
            return Ok(ExitCode::SUCCESS);
        }
        start = end;
    }
    write_texts(&mut out, &[]).map_err(|e| CliError::writing("the report", &e))?;
    Ok(ExitCode::SUCCESS)
}

/// Engine self-play: `--depth`/`--nodes` (and an opponent's limits for a match).
fn run_engine(args: Args) -> CommandResult {
    use drafti_analysis::selfplay::{play_game, SelfplayOptions};
    use drafti_engine::Limits;
    let limits = match (args.depth, args.nodes) {
        (_, Some(n)) => Limits::nodes(n),
        (Some(d), None) => Limits::depth(d),
        (None, None) => unreachable!("engine mode needs --depth or --nodes"),
    };
    let opponent = match (args.opponent_depth, args.opponent_nodes) {
        (_, Some(n)) => Some(Limits::nodes(n)),
        (Some(d), None) => Some(Limits::depth(d)),
        (None, None) => None,
    };
    if !(0.0..=1.0).contains(&args.noise) {
        return Err(CliError::new("--noise must be between 0 and 1".to_string()));
    }
    let options = SelfplayOptions {
        variant: args.rules.variant,
        black: opponent.clone().unwrap_or_else(|| limits.clone()),
        white: limits.clone(),
        seed: args.seed,
        opening_plies: args.opening_plies,
        noise: args.noise,
        max_plies: args.max_plies,
        adjudicate_cm: args.adjudicate,
        paired: opponent.is_some(),
        ..SelfplayOptions::new(limits)
    };
    let pool = worker_pool(args.jobs.threads(), "selfplay")?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    const BATCH: u64 = 64;
    let mut start = 0;
    while start < args.games {
        let end = (start + BATCH).min(args.games);
        let texts: Vec<String> = pool.install(|| {
            (start..end)
                .into_par_iter()
                .map(|i| {
                    let mut game_options = options.clone();
                    if args.first == First::Black
                        || (args.first == First::Random && Rng::stream(args.seed, i).below(2) == 1)
                    {
                        game_options.first = Color::Black;
                    }
                    let game = play_game(&game_options, i);
                    let mut text = String::with_capacity(1024);
                    if i > 0 {
                        text.push('\n');
                    }
                    write_game_to(&game.record(&game_options, i), &mut text);
                    text
                })
                .collect()
        });
        if !write_texts(&mut out, &texts).map_err(|e| CliError::writing("the report", &e))? {
            return Ok(ExitCode::SUCCESS);
        }
        start = end;
    }
    write_texts(&mut out, &[]).map_err(|e| CliError::writing("the report", &e))?;
    Ok(ExitCode::SUCCESS)
}

/// Writes the games' texts in order and flushes; `false` once the reader has gone away (a
/// closed pipe ends the output quietly), so the caller stops making games.
fn write_texts(out: &mut impl Write, texts: &[String]) -> std::io::Result<bool> {
    let written = texts
        .iter()
        .try_for_each(|text| out.write_all(text.as_bytes()))
        .and_then(|()| out.flush());
    match written {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(false),
        Err(e) => Err(e),
    }
}
