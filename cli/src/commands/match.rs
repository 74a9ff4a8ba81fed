//! `drafti match`: two Hub engines play each other (drafti-hub's runner): one line per game on
//! stderr, the games as PDN with `--pdn`, and the summary on stdout — W/D/L of the first
//! engine, its score, the Elo difference with a 95% interval (pentanomial model once the
//! games come in pairs), and with `--sprt` the log-likelihood ratio and the verdict; the
//! match stops as soon as the SPRT has decided.
//!
//! `--json` prints the summary as one JSON object instead: `games`, `wins`, `draws`,
//! `losses` (first engine), `pairs` (the pentanomial counts, 0 to 2 points a pair),
//! `score`, `elo`, `elo_low`, `elo_high` (`null` when infinite), `model`
//! (`"pentanomial"` or `"trinomial"`), `engines` (names), `sprt` (`null`, or `elo0`, `elo1`,
//! `alpha`, `beta`, `llr`, `lower`, `upper`, `verdict`: `"H1"`, `"H0"` or `"continue"`) and
//! `terminations` (how many games ended each way: `normal`, `draw_rule`, `repetition`,
//! `ply_cap`, `forfeit`, `tables`: adjudicated by the endgame tables of `--egtb`).

use crate::args::{JsonArg, NotationArg, RulesArg};
use crate::error::{report_written, CliError, CommandResult};
use crate::match_runner;
use drafti_hub::openings;
use drafti_hub::runner::{self, Adjudication, Control, MatchSettings};
use drafti_hub::stats::{Sprt, Verdict};
use drafti_hub::summary::{MatchSummary, Scoreboard};
use drafti_hub::{HubPlayer, Player};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    /// An engine's command line (twice: the first engine, then the second), e.g.
    /// "drafti hub --nodes 2000". Run by `sh -c`.
    #[arg(long = "engine", value_name = "CMD", required = true, num_args = 1)]
    engines: Vec<String>,
    /// Names for the PDN and the summary (twice, in engine order) instead of the engines' own.
    #[arg(long = "name", value_name = "NAME")]
    names: Vec<String>,
    /// How many games (each opening is played twice, colours swapped).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    games: u64,
    /// Milliseconds per move (at most a day).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..=DAY_MS),
          conflicts_with_all = ["tc", "nodes", "depth"])]
    movetime: Option<u64>,
    /// A clock: `SECONDS+INC` (sudden death with an increment, e.g. 10+0.1) or
    /// `MOVES/SECONDS[+INC]` (e.g. 40/60).
    #[arg(long, value_name = "SPEC", conflicts_with_all = ["nodes", "depth"])]
    tc: Option<String>,
    /// Nodes per move (deterministic; the default is 10000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "depth")]
    nodes: Option<u64>,
    /// Depth per move.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Openings: FEN lines or PDN games (default: built-in balanced 4-ply openings).
    #[arg(long, value_name = "FILE")]
    openings: Option<String>,
    // Sent to the engines as their `variant` parameter.
    #[command(flatten)]
    rules: RulesArg,
    /// Write every game as PDN to this file.
    #[arg(long, value_name = "OUT")]
    pdn: Option<String>,
    /// Stop early once a sequential probability ratio test decides between `ELO0,ELO1`.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The SPRT's false-positive rate.
    #[arg(long, default_value_t = 0.05)]
    alpha: f64,
    /// The SPRT's false-negative rate.
    #[arg(long, default_value_t = 0.05)]
    beta: f64,
    /// Games played at once (each with its own pair of engine processes).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    concurrency: u64,
    /// A game still going after this many plies is a draw.
    #[arg(long, default_value_t = 300)]
    max_plies: usize,
    /// Milliseconds an engine may exceed its time before it forfeits (at most an hour).
    #[arg(long, value_name = "MS", default_value_t = 500,
          value_parser = clap::value_parser!(u64).range(0..=3_600_000))]
    margin: u64,
    /// Seconds a move may take under --nodes or --depth before the engine forfeits (hung; at
    /// most a day).
    #[arg(long, value_name = "S", default_value_t = 60,
          value_parser = clap::value_parser!(u64).range(1..=DAY_MS / 1000))]
    move_timeout: u64,
    /// Which built-in openings (the same seed gives the same openings).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    // In the PDN.
    #[command(flatten)]
    numeric: NotationArg,
    /// Adjudicate with endgame tables (drafti egtb build): a position they hold ends the game
    /// with its exact result. `--egtb` alone uses the default folder
    /// ($XDG_CACHE_HOME/drafti/egtb or ~/.cache/drafti/egtb).
    #[arg(long, value_name = "DIR", num_args = 0..=1, default_missing_value = "")]
    egtb: Option<std::path::PathBuf>,
    // The summary as one JSON object.
    #[command(flatten)]
    json: JsonArg,
}

/// A day in milliseconds: the most a move may be given (an `Instant` plus more can
/// overflow, and the Hub protocol's engines refuse absurd times).
const DAY_MS: u64 = 86_400_000;

pub fn run(args: Args) -> CommandResult {
    if let Some(path) = &args.pdn {
        let path = std::path::Path::new(path);
        crate::files::refuse_input_as_output("--pdn", path, &args.openings)?;
    }
    if args.engines.len() != 2 {
        return Err(CliError::new(format!(
            "--engine is needed twice (got {})",
            args.engines.len()
        )));
    }
    if !args.names.is_empty() && args.names.len() != 2 {
        return Err(CliError::new(
            "--name is given twice or not at all".to_string(),
        ));
    }
    let control = match (args.movetime, &args.tc, args.nodes, args.depth) {
        (Some(ms), _, _, _) => Control::MoveTime(Duration::from_millis(ms)),
        (_, Some(tc), _, _) => Control::parse_clock(tc).map_err(CliError::new)?,
        (_, _, _, Some(d)) => Control::Depth(d),
        (_, _, n, None) => Control::Nodes(n.unwrap_or(10_000)),
    };
    let sprt = args
        .sprt
        .as_deref()
        .map(|s| Sprt::parse(s, args.alpha, args.beta))
        .transpose()
        .map_err(CliError::new)?;
    let games = args.games as usize;
    let pairs_needed = games.div_ceil(2);
    let opening_list = match &args.openings {
        Some(path) => {
            let text =
                std::fs::read_to_string(path).map_err(|e| CliError::new(format!("{path}: {e}")))?;
            let (list, notes) = match_runner::openings_from_file(&text, args.rules.variant)
                .map_err(|e| CliError::new(format!("{path}: {e}")))?;
            for note in notes {
                eprintln!("drafti: {path}: {note}");
            }
            list
        }
        None => openings::balanced(args.rules.variant, pairs_needed, args.seed),
    };
    if opening_list.is_empty() {
        return Err(CliError::new("no opening to play".to_string()));
    }
    let tables = match &args.egtb {
        None => None,
        Some(dir) => {
            let root = if dir.as_os_str().is_empty() {
                crate::tables::default_dir().ok_or_else(|| {
                    CliError::new("no default folder for endgame tables (HOME is not set)")
                })?
            } else {
                dir.clone()
            };
            crate::tables::tables_in(&root, args.rules.variant, true)?
        }
    };
    let engines = [args.engines[0].clone(), args.engines[1].clone()];
    let names = if args.names.len() == 2 {
        [args.names[0].clone(), args.names[1].clone()]
    } else {
        HubPlayer::names(&engines, args.rules.variant).map_err(CliError::new)?
    };
    let settings = MatchSettings {
        variant: args.rules.variant,
        games,
        openings: opening_list,
        control,
        adjudication: Adjudication {
            max_plies: args.max_plies,
            repetition: true,
            tables,
        },
        concurrency: args.concurrency as usize,
        names: names.clone(),
    };
    let margin = Duration::from_millis(args.margin);
    let move_timeout = Duration::from_secs(args.move_timeout);
    let variant = args.rules.variant;
    let players = || -> [Box<dyn Player>; 2] {
        engines.clone().map(|command| -> Box<dyn Player> {
            Box::new(HubPlayer::new(&command, variant, margin, move_timeout))
        })
    };

    let mut pdn = match &args.pdn {
        Some(path) if path == "-" => {
            return Err(CliError::new(
                "--pdn -: stdout carries the match's summary; give --pdn a file name",
            ))
        }
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| CliError::new(format!("{path}: {e}")))?,
        )),
        None => None,
    };
    let mut board = Scoreboard::default();
    let mut write_error: Option<std::io::Error> = None;
    let mut decided = Verdict::Continue;
    runner::run(&settings, &players, |played| {
        board.add(played);
        if let Some(out) = &mut pdn {
            let mut text = String::new();
            if played.index > 0 {
                text.push('\n');
            }
            let record =
                match_runner::record(played, variant, args.numeric.numeric, "drafti match");
            drafti_pdn::write_game_to(&record, &mut text);
            if let Err(e) = out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
                write_error.get_or_insert(e);
            }
        }
        let tally = &board.tally;
        eprintln!(
            "game {}/{}: {} - {} {} ({}, {} plies)  [{} +{} ={} -{}]",
            played.index + 1,
            games,
            names[played.white],
            names[1 - played.white],
            match_runner::result(played),
            played.termination,
            played.moves.len(),
            names[0],
            tally.wins,
            tally.draws,
            tally.losses
        );
        // Tested on whole pairs only, so the verdict does not flip with the model.
        if let Some(sprt) = sprt.filter(|_| played.index % 2 == 1) {
            decided = sprt.verdict(tally);
        }
        decided == Verdict::Continue && write_error.is_none()
    });
    if let Some(e) = write_error {
        return Err(CliError::new(format!("writing the PDN: {e}")));
    }
    let summary = MatchSummary::new(names, &board.tally, board.terminations, sprt);
    let mut out = std::io::stdout().lock();
    if args.json.json {
        report_written(writeln!(out, "{}", serde_json::to_string(&summary)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    report_written(write_summary(&mut out, &summary, args.egtb.is_some()))?;
    Ok(ExitCode::SUCCESS)
}

/// `+12.3`, `+inf`, `-inf`.
fn signed(x: f64) -> String {
    if x.is_finite() {
        format!("{x:+.1}")
    } else if x > 0.0 {
        "+inf".to_string()
    } else {
        "-inf".to_string()
    }
}

/// The summary as text (`tables`: the ends by the endgame tables are counted too).
fn write_summary(out: &mut impl Write, s: &MatchSummary, tables: bool) -> std::io::Result<()> {
    writeln!(out, "{} vs {}", s.engines[0], s.engines[1])?;
    writeln!(
        out,
        "games {}: +{} ={} -{}  score {:.1}%",
        s.games,
        s.wins,
        s.draws,
        s.losses,
        s.score * 100.0
    )?;
    let (elo, low, high) = s.elo_interval;
    let pairs = if s.model == "pentanomial" {
        let p = s.pairs;
        format!(
            ": pairs 0-2 points {} {} {} {} {}",
            p[0], p[1], p[2], p[3], p[4]
        )
    } else {
        String::new()
    };
    writeln!(
        out,
        "elo {} [{}, {}] (95%, {}{pairs})",
        signed(elo),
        signed(low),
        signed(high),
        s.model
    )?;
    let t = &s.terminations;
    writeln!(
        out,
        "ends: {} by the rules, {} by a draw law, {} repetitions, {} at the ply cap, {} forfeits{}",
        t.normal,
        t.draw_rule,
        t.repetition,
        t.ply_cap,
        t.forfeit,
        if tables {
            format!(", {} by the endgame tables", t.tables)
        } else {
            String::new()
        }
    )?;
    if let Some(s) = &s.sprt {
        writeln!(
            out,
            "sprt elo0={} elo1={} alpha={} beta={}: llr {:.2} [{:.2}, {:.2}] {}",
            s.elo0,
            s.elo1,
            s.alpha,
            s.beta,
            s.llr,
            s.lower,
            s.upper,
            match s.verdict {
                "H1" => "H1 accepted (the first engine is stronger)",
                "H0" => "H0 accepted",
                _ => "undecided",
            }
        )?;
    }
    Ok(())
}
