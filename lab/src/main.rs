//! `drafti-lab`: drafti's laboratory, run from the source tree (`cargo run --release -p
//! drafti-lab -- quality ...`). `quality` is the analysis quality benchmark (docs/guide.md,
//! "The quality benchmark"): the verdicts of an analysis of master games against deep
//! references, with the flags `drafti bench --quality` had; the measuring is
//! `drafti_lab::benchmark`, this is its flags and its text.
// A program for the terminal: its reports go to stdout and stderr.
#![allow(clippy::print_stderr)]
#![forbid(unsafe_code)]

use clap::{Parser, Subcommand};
use drafti_analysis::EndgameTables;
use drafti_cli::args::{JobsArg, JsonArg, SearchArgs};
use drafti_cli::error::{report_written, CliError, CommandResult};
use drafti_cli::tables::TableArgs;
use drafti_lab::benchmark::{
    quality as run_quality, sampled_games, ClassJson, ConsensusJson, QualitySettings,
    ReferenceMode, ReferenceSpec,
};
use drafti_lab::consensus::{Share, OPENING_PLIES};
use drafti_lab::LabError;
use drafti_report::thousands;
use drafti_rules::Variant;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// drafti-lab — measurements of drafti that are not part of it.
#[derive(Parser)]
#[command(name = "drafti-lab", version, about, long_about = None)]
struct Lab {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The analysis quality benchmark on the real master games of --corpora: the verdicts of
    /// `drafti analyze` (at --depth/--nodes, default its default) against a reference that
    /// searches every position alone (or each game as one sequence) at --reference-nodes.
    Quality(QualityArgs),
}

fn main() -> ExitCode {
    let Lab { command } = Lab::parse();
    let result = match command {
        Command::Quality(args) => quality(&args),
    };
    match result {
        Ok(code) => code,
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("drafti-lab: {e}");
            ExitCode::from(2)
        }
    }
}

/// The master-game archives the benchmark reads when --corpora is not given: the copies
/// inside the repository (tests/fixtures/corpora/README.md says where they come from).
fn default_corpora() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/corpora")
}

/// The threads of the candidate's analysis, the references' searches and the hold-up (deep
/// searches want the larger stack, as drafti's own workers have).
fn worker_pool(jobs: usize) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(16 << 20)
        .thread_name(|i| format!("drafti-lab-{i}"))
        .build()
        .map_err(|e| CliError::new(format!("cannot start the worker threads: {e}")))
}

fn lab_error(e: LabError) -> CliError {
    CliError::new(e.to_string())
}

/// The settings of `drafti-lab quality`.
#[derive(clap::Args)]
struct QualityArgs {
    /// The folder of master-game archives: files named `russian-*.pdn` are replayed under
    /// Russian rules, `czech-*.pdn` under Czech, `tanzanian-*.pdn` under Tanzanian,
    /// `tzdraft-*.pdn` under TzDraft's server's (the
    /// master files have no GameType tag). Default:
    /// the repository's copies, tests/fixtures/corpora.
    #[arg(long, value_name = "DIR")]
    corpora: Option<PathBuf>,
    /// Every K-th game of each file, from its first (1: all games).
    #[arg(long, value_name = "K", default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..))]
    sample: u64,
    /// The candidate: the settings of `drafti analyze`.
    #[command(flatten)]
    search: SearchArgs,
    /// The reference: nodes of each position's search.
    #[arg(long, value_name = "N", default_value_t = 2_000_000)]
    reference_nodes: u64,
    /// The reference searches each game as one sequence, from its last position back to its
    /// first, in one engine whose table is kept (as the analysis does), instead of every
    /// position alone: what its deep search of a later position found is known when the
    /// earlier ones are searched.
    #[arg(long)]
    reference_sequence: bool,
    /// The reference judges every move alone, as the analysis's re-search does: the position
    /// searched (fresh table), then the played move alone to the same depth in that table,
    /// instead of the position's search against the next position's.
    #[arg(long, conflicts_with = "reference_sequence")]
    reference_moves: bool,
    /// Keep the reference's searches in FILE (JSON Lines, keyed by file, game and ply, with
    /// the engine's fingerprint and the node limit): read what is there, add what is missing.
    /// A file made by another engine, limit or mode is refused, never overwritten.
    #[arg(long, value_name = "FILE")]
    reference: Option<PathBuf>,
    /// Also measure the reference against a second reference of N nodes a position (as
    /// uniform, in the mode --second-reference-sequence says): how far two deep searches
    /// agree with each other, the yardstick of the candidate's agreement.
    #[arg(long, value_name = "N")]
    second_reference_nodes: Option<u64>,
    /// The second reference searches each game as one sequence (as --reference-sequence).
    #[arg(long, requires = "second_reference_nodes")]
    second_reference_sequence: bool,
    /// The second reference judges every move alone (as --reference-moves).
    #[arg(
        long,
        requires = "second_reference_nodes",
        conflicts_with = "second_reference_sequence"
    )]
    second_reference_moves: bool,
    /// Keep the second reference's searches in FILE (as --reference).
    #[arg(long, value_name = "FILE", requires = "second_reference_nodes")]
    second_reference: Option<PathBuf>,
    /// Endgame tables that settle the consensus where they hold a move (exact: a win or a
    /// draw thrown away is a blunder), whatever the references say; no search uses them.
    #[arg(long, value_name = "DIR", requires = "second_reference_nodes")]
    settle_egtb: Option<PathBuf>,
    /// Endgame tables for the candidate alone (drafti egtb build --dir DIR): what a user who
    /// built them gets, against references that search without them (or with --egtb's).
    #[arg(long, value_name = "DIR")]
    candidate_egtb: Option<PathBuf>,
    /// No endgame tables for the candidate, whatever --egtb gives the references: what a run
    /// with --no-egtb gets, against references that search with tables.
    #[arg(long, conflicts_with = "candidate_egtb")]
    candidate_no_egtb: bool,
    /// The candidate's engine switches, as `name=value,...` (e.g. `lmr=0`; the names
    /// of drafti_engine::Config): a search idea measured by its verdicts. The references and
    /// the hold-up keep the shipped engine.
    #[arg(long, value_name = "SETTINGS")]
    engine: Option<String>,
    /// The candidate's transposition table, MiB (default: its preset's; analyze's 16). The
    /// pass keeps its table from one position to the one before, so the table's size decides
    /// which earlier searches it remembers and moves a few verdicts: runs at several sizes
    /// measure the noise floor of a comparison.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=4096))]
    candidate_tt_mb: Option<u64>,
    /// Skip the hold-up re-check (every blunder and mistake of the candidate judged again at
    /// 16 and 64 times its nodes a position).
    #[arg(long)]
    no_hold_up: bool,
    /// Also write to FILE (JSON Lines) every move that the candidate or a judge of the
    /// consensus flags, with the candidate's and the reference's scores, best moves and
    /// depths, the second reference's class and the settling tables' where they hold the
    /// move: where they disagree and why.
    #[arg(long, value_name = "FILE")]
    moves: Option<PathBuf>,
    #[command(flatten)]
    json: JsonArg,
    // The candidate's analysis, the references' searches and the hold-up.
    #[command(flatten)]
    jobs: JobsArg,
}

fn write_class_rows(out: &mut impl Write, rows: &[ClassJson], candidate: &str) -> io::Result<()> {
    writeln!(
        out,
        "{:<11} {:>9} {:>9} {:>6} {:>9} {:>6}",
        "class", candidate, "reference", "both", "precision", "recall"
    )?;
    let ratio = |x: Option<f64>| x.map_or("-".to_string(), |v| format!("{v:.2}"));
    for c in rows {
        writeln!(
            out,
            "{:<11} {:>9} {:>9} {:>6} {:>9} {:>6}",
            c.class,
            c.candidate,
            c.reference,
            c.both,
            ratio(c.precision),
            ratio(c.recall)
        )?;
    }
    Ok(())
}

/// `drafti-lab quality`.
fn quality(args: &QualityArgs) -> CommandResult {
    let (jobs, json) = (args.jobs.threads(), args.json.json);
    if args.moves.as_deref() == Some(Path::new("-")) {
        return Err(CliError::new(
            "--moves -: stdout carries the tables; give --moves a file name",
        ));
    }
    if args.reference.is_some() && args.reference == args.second_reference {
        // A reference file holds one reference: the second would overwrite the first.
        return Err(CliError::new(
            "--reference and --second-reference name the same file: give each its own",
        ));
    }
    let note = |line: String| eprintln!("{line}");
    let corpora = args.corpora.clone().unwrap_or_else(default_corpora);
    let Some(games) = sampled_games(&corpora, args.sample, &note).map_err(lab_error)? else {
        eprintln!(
            "quality: no folder {} (the master-game archives): skipped",
            corpora.display()
        );
        return Ok(ExitCode::SUCCESS);
    };
    if games.is_empty() {
        eprintln!(
            "quality: no russian-*.pdn, czech-*.pdn, tanzanian-*.pdn or tzdraft-*.pdn games in {}: skipped",
            corpora.display()
        );
        return Ok(ExitCode::SUCCESS);
    }
    let pool = worker_pool(jobs)?;
    let mut options = args.search.options();
    // Only tables given with --egtb (the reference uses them too, and its cache says so).
    let reference_tables = args
        .search
        .tables
        .given_only()
        .for_variants(&Variant::ALL)?;
    // The tables in `dir`, every variant's that is there.
    let tables_in = |dir: &PathBuf| {
        TableArgs {
            egtb: Some(dir.clone()),
            no_egtb: false,
        }
        .for_variants(&Variant::ALL)
    };
    options.tables = match &args.candidate_egtb {
        Some(dir) => tables_in(dir)?,
        None if args.candidate_no_egtb => EndgameTables::default(),
        None => reference_tables.clone(),
    };
    if let Some(mib) = args.candidate_tt_mb {
        // In range by the parser (at most 4096).
        options.tt_mb = mib as usize;
    }
    if let Some(settings) = &args.engine {
        options
            .engine
            .apply(settings)
            .map_err(|e| CliError::new(format!("--engine: {e}")))?;
    }
    let settle_tables = match &args.settle_egtb {
        Some(dir) => tables_in(dir)?,
        None => EndgameTables::default(),
    };
    let settings = QualitySettings {
        sample_every: args.sample,
        reference: ReferenceSpec {
            nodes: args.reference_nodes,
            mode: ReferenceMode::of(args.reference_sequence, args.reference_moves),
            file: args.reference.as_deref(),
        },
        second: args.second_reference_nodes.map(|nodes| ReferenceSpec {
            nodes,
            mode: ReferenceMode::of(args.second_reference_sequence, args.second_reference_moves),
            file: args.second_reference.as_deref(),
        }),
        moves: args.moves.as_deref(),
        jobs,
        settle_tables: &settle_tables,
        reference_tables: &reference_tables,
        hold_up: !args.no_hold_up,
    };
    let report = run_quality(&games, &options, &settings, &pool, &note).map_err(lab_error)?;
    let mut out = io::stdout().lock();
    if json {
        report_written(writeln!(out, "{}", serde_json::to_string(&report)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    let mut write = || -> io::Result<()> {
        writeln!(
            out,
            "drafti-lab quality: {} games (every {} of each file in {}), {} positions, {} moves",
            report.games,
            ordinal(args.sample),
            corpora.display(),
            thousands(report.positions as u64),
            thousands(report.moves as u64)
        )?;
        writeln!(
            out,
            "candidate: {}; {} nodes a position (re-searches included), {} moves re-searched",
            report.candidate,
            thousands(report.candidate_nodes_per_position.round() as u64),
            thousands(report.verified as u64)
        )?;
        writeln!(
            out,
            "reference: {} nodes a position, {} (engine {}): {:.0}x the candidate's nodes",
            thousands(args.reference_nodes),
            settings.reference.mode.names().1,
            report.engine,
            report.ratio
        )?;
        if report.ratio < 64.0 {
            writeln!(
                out,
                "warning: the reference searches less than 64x the candidate's nodes"
            )?;
        }
        write_class_rows(&mut out, &report.classes, "candidate")?;
        writeln!(
            out,
            "blunders the reference calls at least mistakes: {} of {}",
            report.blunders_at_least_mistake, report.candidate_blunders
        )?;
        writeln!(
            out,
            "win% (0-100) mean |candidate - reference|: before the move {:.1}, after {:.1}",
            report.win_before_mean_abs_diff, report.win_after_mean_abs_diff
        )?;
        writeln!(
            out,
            "candidate speed: {} positions in {:.2} s = {} positions/s on {jobs} {}",
            thousands(report.positions as u64),
            report.seconds,
            thousands(report.positions_per_second.round() as u64),
            if jobs == 1 { "thread" } else { "threads" }
        )?;
        if let (Some(spec), Some(second)) = (&settings.second, &report.second_reference) {
            writeln!(
                out,
                "second reference: {} nodes a position, {}, judged against the reference (how far two deep searches agree):",
                thousands(spec.nodes),
                spec.mode.names().1
            )?;
            write_class_rows(&mut out, &second.classes, "second")?;
            writeln!(
                out,
                "second reference's blunders the reference calls at least mistakes: {} of {}",
                second.blunders_at_least_mistake, second.candidate_blunders
            )?;
        }
        if let Some(c) = &report.consensus {
            write_consensus(&mut out, c)?;
        }
        for h in &report.hold_up {
            writeln!(
                out,
                "hold-up at {}x the candidate's nodes ({} a move, {:.0} s): blunders kept {}, mistakes kept {}",
                h.factor,
                thousands(h.nodes),
                h.seconds,
                share(&h.blunders),
                share(&h.mistakes)
            )?;
        }
        Ok(())
    };
    report_written(write())?;
    Ok(ExitCode::SUCCESS)
}

/// `0.91 (95% 0.85-0.95; 120 of 132)`.
fn share(s: &Share) -> String {
    match (s.value, s.interval) {
        (Some(v), Some((lo, hi))) => {
            format!("{v:.2} (95% {lo:.2}-{hi:.2}; {} of {})", s.hits, s.of)
        }
        _ => "- (0 of 0)".to_string(),
    }
}

/// The candidate against the consensus of both references: per level, then the player's view,
/// then the disputed moves.
fn write_consensus(out: &mut impl Write, c: &ConsensusJson) -> io::Result<()> {
    writeln!(
        out,
        "consensus (a move counts where both references{} put it on the same side of a level):",
        if c.tables.is_some() {
            ", or the endgame tables,"
        } else {
            ""
        }
    )?;
    for l in &c.levels {
        writeln!(
            out,
            "  {:<10} settled {} ({} by the tables), disputed {}; settled flags {}, candidate flags {} (+{} on disputed moves)",
            l.level,
            thousands(l.settled as u64),
            thousands(l.by_tables as u64),
            thousands(l.disputed as u64),
            l.flags,
            l.candidate_flags,
            l.candidate_disputed
        )?;
        writeln!(out, "             precision {}", share(&l.precision))?;
        writeln!(out, "             recall    {}", share(&l.recall))?;
    }
    writeln!(
        out,
        "  false alarms (candidate blunders both call less than a mistake): {}",
        share(&c.false_alarms)
    )?;
    writeln!(
        out,
        "  clear misses (both drop the move by 0.45 or more, the candidate calls it less than a mistake): {}",
        share(&c.clear_misses)
    )?;
    writeln!(
        out,
        "  opening alarms (the candidate's mistakes and blunders of the first {} plies both call less than a mistake): {}",
        OPENING_PLIES,
        share(&c.opening_alarms)
    )?;
    let side = |(j, drop): (Option<&str>, f64)| format!("{} ({drop:.2})", j.unwrap_or("none"));
    for v in &c.player_view {
        let judges = match v.second {
            Some(second) => format!("reference {}, second {}", side(v.reference), side(second)),
            None => format!("tables {}", side(v.reference)),
        };
        writeln!(
            out,
            "  {}: {} game {} ply {} {}: candidate {}, {judges}; {}",
            v.kind.as_str(),
            v.file,
            v.game,
            v.ply,
            v.move_text,
            side(v.candidate),
            v.fen
        )?;
    }
    for d in &c.disputed {
        writeln!(
            out,
            "  disputed {}: {} game {} ply {} {}: reference {}, second {}, candidate {}",
            d.level,
            d.file,
            d.game,
            d.ply,
            d.move_text,
            side(d.reference),
            side(d.second),
            d.candidate.unwrap_or("none")
        )?;
    }
    Ok(())
}

/// `4th`, `1st`, `2nd`.
fn ordinal(n: u64) -> String {
    match n {
        1 => "game".to_string(),
        2 => "2nd game".to_string(),
        3 => "3rd game".to_string(),
        n => format!("{n}th game"),
    }
}
