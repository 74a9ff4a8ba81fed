//! `drafti puzzles`: positions from real games where the side to move has one winning move,
//! with the unique solution, as text, JSON Lines, a PDN file of exercises and an HTML page.
//! With `--verify` the FILES are puzzle records (FEN + solution) to check again.
//!
//! ```text
//! FILES ──batch (parse + replay + mine_game on --jobs workers, in input order)──▶
//!       Collection (duplicates merged) ──▶ stdout (text | JSON Lines), --pdn OUT, --html OUT
//! ```
//! Puzzles are written once the input is read: the collection holds only the distinct
//! puzzles (a few hundred bytes each), the games stream through. The output depends only on
//! the input and `--nodes`, never on `--jobs`.

use crate::args::{jobs, parse_variant};
use crate::commands::egtb::tables_for_search;
use crate::commands::report::{stdin_is_empty, stdin_is_piped};
use crate::error::report_written;
use crate::error::{CliError, CommandResult};
use crate::files::{refuse_stdout, OutputFile};
use crate::input::{open_inputs, EncodingArg};
use crate::report::corpus;
use crate::runner::warn_empty_inputs;
use drafti_analysis::puzzles::{
    mine_game, verify_puzzle, Collection, Entry, Puzzle, PuzzleOptions, Source, Stats,
    DEFAULT_NODES, VERIFY_FACTOR,
};
use drafti_archive::batch::{run_games, BatchError, BatchOptions, GameJob, Input, Shard};
use drafti_archive::replay::ReplayOptions;
use drafti_engine::egtb::Tables;
use drafti_pdn::write_game_to;
use drafti_report::puzzles;
use drafti_report::thousands;
use drafti_rules::Variant;
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
#[command(after_help = "\
With no FILES and nothing piped in, the puzzles come from the corpus bundled in the binary \
(as for drafti report).

A puzzle is a position, usually right after the opponent's mistake, where one move wins (a \
man or more by force, a man through to crown, or the game) and every other move is clearly \
worse. The solution goes on while the solver's move stays the only winning one, against the \
engine's best defence, to where the gain is realised (nothing left to capture). Every \
solver move is searched again at 4 times the mining budget before the puzzle is kept; the \
same position from several games is one puzzle with several sources.

--verify checks puzzle records instead (a FEN tag and the solution as the moves, as --pdn \
writes them) at --nodes per solver move (default 80,000, the verification budget); exit \
code 1 when one fails.")]
pub struct Args {
    /// PDN files; `-` reads stdin. None: stdin when something is piped in (and not
    /// empty), else the bundled corpus.
    files: Vec<String>,
    #[command(flatten)]
    encoding: EncodingArg,
    /// JSON Lines on stdout: one object per puzzle (or per record with --verify).
    #[arg(long)]
    json: bool,
    /// Also write the puzzles to OUT as PDN: one record per puzzle with its FEN and the
    /// solution as the moves.
    #[arg(long, value_name = "OUT")]
    pdn: Option<PathBuf>,
    /// Also write OUT, one self-contained HTML page: a board per puzzle, the solution
    /// hidden until asked for.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
    /// Nodes of each search while mining (default 20,000; verification searches 4 times
    /// as many). With --verify: the nodes of each check (default 80,000).
    #[arg(long, value_parser = clap::value_parser!(u64).range(100..))]
    nodes: Option<u64>,
    /// Only puzzles of this difficulty (1 easiest … 5), or of a range such as 2-4.
    #[arg(long, value_name = "D|D-D", value_parser = parse_difficulty)]
    difficulty: Option<(u8, u8)>,
    /// Check the records of FILES as puzzles instead of mining them.
    #[arg(long, conflicts_with_all = ["pdn", "html", "difficulty"])]
    verify: bool,
    /// Worker threads (default: one per core).
    #[arg(long, short = 'j', default_value_t = 0, value_parser = crate::args::parse_jobs)]
    jobs: usize,
    /// Only every N-th game from the K-th (K = 1..N), counted across the files.
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Rules for every game, whatever its tags say: tz, czech or russian.
    #[arg(long, value_parser = parse_variant)]
    variant: Option<Variant>,
    /// Endgame tables (drafti egtb build): a position they hold is judged by them, exactly
    /// (default: those in $XDG_CACHE_HOME/drafti/egtb or ~/.cache/drafti/egtb, if built).
    #[arg(long, value_name = "DIR")]
    egtb: Option<PathBuf>,
    /// Use no endgame tables, not even the default folder's.
    #[arg(long, conflicts_with = "egtb")]
    no_egtb: bool,
}

/// The endgame tables asked for: every variant's under `--egtb DIR` (an error if it has
/// none), else the default folder's, if built; none with `--no-egtb`. Says on stderr which.
fn endgame_tables(args: &Args, options: &mut PuzzleOptions) -> Result<(), CliError> {
    if args.no_egtb {
        return Ok(());
    }
    for variant in Variant::ALL {
        let tables = match &args.egtb {
            Some(dir) if !Tables::variant_dir(dir, variant).is_dir() => None,
            dir => tables_for_search(dir.as_deref(), variant)?,
        };
        if let Some(t) = tables {
            options
                .add_tables(t)
                .map_err(|e| CliError::new(e.to_string()))?;
        }
    }
    match &args.egtb {
        Some(dir) if options.tables.is_empty() => Err(CliError::new(format!(
            "{}: no endgame tables here (drafti egtb build --dir {} builds them)",
            dir.display(),
            dir.display()
        ))),
        _ => Ok(()),
    }
}

/// `3` or `2-4` (difficulties 1 to 5).
fn parse_difficulty(text: &str) -> Result<(u8, u8), String> {
    let bad =
        || format!("invalid difficulty '{text}': expected D or D-D with 1 <= D <= 5, e.g. 2-4");
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let low: u8 = low.trim().parse().map_err(|_| bad())?;
    let high: u8 = high.trim().parse().map_err(|_| bad())?;
    if !(1..=5).contains(&low) || !(low..=5).contains(&high) {
        return Err(bad());
    }
    Ok((low, high))
}

/// The inputs: FILES, or stdin, or the bundled corpus (the rule of `drafti report`).
fn choose_inputs(
    files: &[String],
    encoding: EncodingArg,
) -> Result<(Vec<Input>, String), CliError> {
    if files.is_empty() && (!stdin_is_piped() || stdin_is_empty()?) {
        return Ok((
            corpus::inputs(),
            "the bundled corpus (corpus/showcase.pdn, corpus/selfplay.pdn)".to_string(),
        ));
    }
    let opened = open_inputs(files, encoding)?;
    let source = match opened.inputs.as_slice() {
        [one] => one.name.clone(),
        many => format!("{} files", many.len()),
    };
    Ok((opened.inputs, source))
}

fn progress_bar() -> Option<indicatif::ProgressBar> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = indicatif::ProgressBar::new_spinner();
    if let Ok(style) = indicatif::ProgressStyle::with_template("{spinner} {msg}") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(std::time::Duration::from_millis(120));
    Some(bar)
}

/// One game's results, from a worker.
struct Mined {
    valid: bool,
    found: Vec<(Puzzle, Source)>,
    stats: Stats,
}

// ---------------------------------------------------------------------------------------
// The runs.

fn summary_line(stats: &Stats, collection: &Collection, games: u64, invalid: u64) -> String {
    let share = if stats.mined > 0 {
        format!(
            " ({:.0}% of {})",
            100.0 * (stats.mined - stats.refuted) as f64 / stats.mined as f64,
            thousands(stats.mined)
        )
    } else {
        String::new()
    };
    format!(
        "{} ({} invalid), {} screened: {}, {} kept after verification{share}; {} distinct ({} merged)",
        count(games, "game", "games"),
        thousands(invalid),
        count(stats.positions, "position", "positions"),
        count(stats.candidates, "candidate", "candidates"),
        count(stats.puzzles, "puzzle", "puzzles"),
        thousands(collection.len() as u64),
        count(collection.duplicates(), "duplicate", "duplicates"),
    )
}

/// `1 game`, `2,004 games`.
fn count(n: u64, one: &str, many: &str) -> String {
    format!("{} {}", thousands(n), if n == 1 { one } else { many })
}

/// Writes an output file with `write` and puts it in place.
fn write_file(
    mut file: OutputFile,
    path: &Path,
    write: impl FnOnce(&mut OutputFile) -> std::io::Result<()>,
) -> Result<(), CliError> {
    write(&mut file)
        .and_then(|()| file.commit().map(|_| ()))
        .map_err(|e| CliError::new(format!("cannot write {}: {e}", path.display())))
}

pub fn run(args: Args) -> CommandResult {
    if args.verify {
        return run_verify(&args);
    }
    let (inputs, source) = choose_inputs(&args.files, args.encoding)?;
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let jobs = jobs(args.jobs);
    let mut options = PuzzleOptions {
        nodes: args.nodes.unwrap_or(DEFAULT_NODES),
        ..PuzzleOptions::default()
    };
    endgame_tables(&args, &mut options)?;
    let batch = BatchOptions {
        jobs,
        shard: args.shard,
        // A game is a few hundred searches: small chunks keep both workers busy.
        chunk_size: 2,
        replay: ReplayOptions {
            variant_override: args.variant,
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    };
    // Created first, so a path that cannot be written fails before the work.
    for (flag, path) in [("--pdn", &args.pdn), ("--html", &args.html)] {
        if let Some(path) = path {
            refuse_stdout(flag, path, "the list of puzzles")?;
        }
    }
    let pdn_file = args.pdn.as_deref().map(OutputFile::create).transpose()?;
    let html_file = args.html.as_deref().map(OutputFile::create).transpose()?;
    let bar = progress_bar();
    let started = Instant::now();
    let mut collection = Collection::new();
    let mut stats = Stats::default();
    let (mut games, mut invalid) = (0u64, 0u64);
    let result = run_games(
        inputs,
        &batch,
        |p| {
            if let Some(bar) = &bar {
                bar.set_message(format!("{} games mined", thousands(p.games)));
            }
        },
        |job| match &job.game {
            Ok(game) => {
                let mined = mine_game(game, &options);
                Mined {
                    valid: game.is_valid(),
                    found: mined
                        .found
                        .into_iter()
                        .map(|f| {
                            let source = puzzles::source(job.file, job.raw.index, game, f.ply);
                            (f.puzzle, source)
                        })
                        .collect(),
                    stats: mined.stats,
                }
            }
            Err(_) => Mined {
                valid: false,
                found: Vec::new(),
                stats: Stats::default(),
            },
        },
        |m: Mined| -> Result<(), std::convert::Infallible> {
            games += 1;
            invalid += u64::from(!m.valid);
            stats.add(&m.stats);
            for (puzzle, source) in m.found {
                collection.add(puzzle, source);
            }
            Ok(())
        },
    );
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let summary = match result {
        Ok(s) => s,
        Err(BatchError::Sink(never)) => match never {},
        Err(e) => return Err(CliError::new(e.to_string())),
    };
    let secs = started.elapsed().as_secs_f64();

    let entries: Vec<Entry> = collection
        .entries()
        .iter()
        .filter(|e| {
            args.difficulty
                .is_none_or(|(low, high)| (low..=high).contains(&e.puzzle.difficulty))
        })
        .cloned()
        .collect();
    let entries = entries.as_slice();
    let mut text = String::new();
    for (i, e) in entries.iter().enumerate() {
        text.push_str(&if args.json {
            puzzles::json_entry(i + 1, e)
        } else {
            puzzles::text_entry(i + 1, e)
        });
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    report_written(out.write_all(text.as_bytes()).and_then(|()| out.flush()))?;
    if let (Some(path), Some(file)) = (&args.pdn, pdn_file) {
        let mut pdn = String::new();
        for (i, e) in entries.iter().enumerate() {
            if i > 0 {
                pdn.push('\n');
            }
            write_game_to(&puzzles::pdn_record(i + 1, e), &mut pdn);
        }
        write_file(file, path, |file| file.write_all(pdn.as_bytes()))?;
        eprintln!(
            "wrote {} ({})",
            path.display(),
            count(entries.len() as u64, "puzzle", "puzzles")
        );
    }
    if let (Some(path), Some(file)) = (&args.html, html_file) {
        write_file(file, path, |file| {
            puzzles::write_html(file, entries, &source, &stats, options.nodes)
        })?;
        eprintln!(
            "wrote {} ({})",
            path.display(),
            count(entries.len() as u64, "puzzle", "puzzles")
        );
    }
    warn_empty_inputs(&names, &summary.games_per_input);
    let shard = args
        .shard
        .map(|s| {
            format!(
                " (shard {s}; {} games left to other shards)",
                thousands(summary.skipped)
            )
        })
        .unwrap_or_default();
    eprintln!(
        "{}{shard}",
        summary_line(&stats, &collection, games, invalid)
    );
    eprintln!(
        "{} nodes per search ({} to verify) on {jobs} {}: {secs:.1} s, {} positions/s",
        thousands(options.nodes),
        thousands(options.nodes * VERIFY_FACTOR),
        if jobs == 1 { "thread" } else { "threads" },
        thousands((stats.positions as f64 / secs.max(1e-9)) as u64)
    );
    Ok(ExitCode::from(u8::from(invalid > 0)))
}

/// One checked record, from a worker.
struct Checked {
    file: String,
    game: usize,
    fen: Option<String>,
    outcome: Result<Puzzle, String>,
}

#[derive(Serialize)]
struct CheckJson<'a> {
    file: &'a str,
    game: usize,
    fen: Option<&'a str>,
    status: &'static str,
    reason: Option<&'a str>,
    gain: Option<String>,
    difficulty: Option<u8>,
    depth: Option<u32>,
}

/// `--verify`: each record's FEN and moves checked as a puzzle.
fn check_record(job: &GameJob<'_>, nodes: u64, options: &PuzzleOptions) -> Checked {
    let mut checked = Checked {
        file: job.file.to_string(),
        game: job.raw.index + 1,
        fen: None,
        outcome: Err(String::new()),
    };
    let game = match &job.game {
        Ok(g) => g,
        Err(e) => {
            checked.outcome = Err(format!("unreadable: {}", e.message));
            return checked;
        }
    };
    checked.fen = Some(game.start.to_fen());
    checked.outcome = if !game.is_valid() {
        Err("invalid record (run drafti validate)".to_string())
    } else if game.record.tag("FEN").is_none() {
        Err("no FEN tag: not a puzzle record".to_string())
    } else if game.moves.is_empty() {
        Err("no solution moves".to_string())
    } else {
        verify_puzzle(
            game.variant,
            &game.start,
            &game.moves,
            nodes,
            options.max_plies,
            options.tt_mb,
            options.tables_for(game.variant),
        )
        .map_err(|r| {
            let at = r.at.min(game.moves.len());
            if at < game.moves.len() {
                format!("refuted at ply {} of the solution: {}", at + 1, r.failure)
            } else {
                format!("refuted: {}", r.failure)
            }
        })
    };
    checked
}

fn run_verify(args: &Args) -> CommandResult {
    let opened = open_inputs(&args.files, args.encoding)?;
    let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    let jobs = jobs(args.jobs);
    let nodes = args.nodes.unwrap_or(DEFAULT_NODES * VERIFY_FACTOR);
    let mut options = PuzzleOptions::default();
    endgame_tables(args, &mut options)?;
    let batch = BatchOptions {
        jobs,
        shard: args.shard,
        chunk_size: 1,
        replay: ReplayOptions {
            variant_override: args.variant,
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut total, mut passed) = (0u64, 0u64);
    let started = Instant::now();
    let result = run_games(
        opened.inputs,
        &batch,
        |_| {},
        |job| check_record(&job, nodes, &options),
        |c: Checked| -> std::io::Result<()> {
            total += 1;
            passed += u64::from(c.outcome.is_ok());
            let line = if args.json {
                let value = CheckJson {
                    file: &c.file,
                    game: c.game,
                    fen: c.fen.as_deref(),
                    status: if c.outcome.is_ok() {
                        "verified"
                    } else {
                        "failed"
                    },
                    reason: c.outcome.as_ref().err().map(String::as_str),
                    gain: c.outcome.as_ref().ok().map(puzzles::gain_text),
                    difficulty: c.outcome.as_ref().ok().map(|p| p.difficulty),
                    depth: c.outcome.as_ref().ok().map(|p| p.depth),
                };
                let mut s = serde_json::to_string(&value).expect("serializable");
                s.push('\n');
                s
            } else {
                match &c.outcome {
                    Ok(p) => format!(
                        "{} game {}: verified: {} (difficulty {}/5, depth {})\n",
                        c.file,
                        c.game,
                        puzzles::task(p),
                        p.difficulty,
                        p.depth
                    ),
                    Err(reason) => format!("{} game {}: {reason}\n", c.file, c.game),
                }
            };
            out.write_all(line.as_bytes())
        },
    );
    let summary = match result {
        Ok(s) => s,
        Err(BatchError::Sink(e)) => {
            report_written(Err(e))?;
            return Ok(ExitCode::from(1));
        }
        Err(e) => return Err(CliError::new(e.to_string())),
    };
    report_written(out.flush())?;
    warn_empty_inputs(&names, &summary.games_per_input);
    let share = if total > 0 {
        100.0 * passed as f64 / total as f64
    } else {
        0.0
    };
    eprintln!(
        "{} of {} puzzles verified ({share:.0}%) at {} nodes per solver move on {jobs} {} in {:.1} s",
        thousands(passed),
        thousands(total),
        thousands(nodes),
        if jobs == 1 { "thread" } else { "threads" },
        started.elapsed().as_secs_f64()
    );
    Ok(ExitCode::from(u8::from(passed < total)))
}
