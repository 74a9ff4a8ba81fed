//! `drafti puzzles`: positions from real games where the side to move has one winning move,
//! with the unique solution, as text, JSON Lines, TzDraft's puzzle JSON or lichess's puzzle
//! CSV (`--format`), a PDN file of exercises and an HTML page.
//! With `--verify` the FILES are puzzle records (FEN + solution) to check again.
//!
//! ```text
//! FILES ──batch (parse + replay + mine_game on --jobs workers, in input order)──▶
//!       Collection (duplicates merged) ──▶ stdout (--format: text | json | tzdraft | lichess),
//!       --pdn OUT, --html OUT
//! ```
//! Puzzles are written once the input is read: the collection holds only the distinct
//! puzzles (a few hundred bytes each), the games stream through. The output depends only on
//! the input and `--nodes`, never on `--jobs`.

use crate::args::{parse_difficulty, InputArgs, JsonArg, ShardArg, CORPUS_FILES_HELP};
use crate::error::report_written;
use crate::error::{CliError, CommandResult};
use crate::files::{refuse_input_as_output, refuse_stdout, write_file, OutputFile};
use crate::input::{stdin_is_empty, stdin_is_piped, Inputs};
use crate::progress::Progress;
use crate::report::corpus;
use crate::runner::{open_refusing_wrong_variant, run_inputs, Output};
use crate::tables::TableArgs;
use drafti_analysis::puzzles::{
    check_record, mine, Checked, Collection, Entry, Mined, PuzzleOptions, Stats, DEFAULT_NODES,
    VERIFY_FACTOR,
};
use drafti_archive::batch::Shard;
use drafti_report::puzzles::{self, count, summary_line, Format};
use drafti_report::thousands;
use drafti_rules::Variant;
use std::io::Write;
use std::path::PathBuf;
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
#[command(mut_arg("files", |a| a.help(CORPUS_FILES_HELP)))]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    // The same as --format json.
    #[command(flatten)]
    json: JsonArg,
    /// What stdout gets: text (the default), json (as --json), tzdraft (TzDraft's puzzle
    /// JSON, one object per line) or lichess (CSV rows of lichess's puzzle database).
    #[arg(long, value_enum, conflicts_with = "json")]
    format: Option<FormatArg>,
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
    /// Only puzzles TzDraft's web and mobile puzzle players can enter: none of the
    /// solver's moves takes two or more pieces (they take one jump at a time).
    #[arg(long)]
    tzdraft_enterable: bool,
    /// Check the records of FILES as puzzles instead of mining them.
    #[arg(long, conflicts_with_all = ["pdn", "html", "difficulty", "tzdraft_enterable"])]
    verify: bool,
    #[command(flatten)]
    shard: ShardArg,
    #[command(flatten)]
    tables: TableArgs,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Text,
    Json,
    Tzdraft,
    Lichess,
}

impl Args {
    /// The format on stdout (`--json` is `--format json`).
    fn format(&self) -> Format {
        match (self.format, self.json.json) {
            (_, true) | (Some(FormatArg::Json), _) => Format::Json,
            (None | Some(FormatArg::Text), _) => Format::Text,
            (Some(FormatArg::Tzdraft), _) => Format::Tzdraft,
            (Some(FormatArg::Lichess), _) => Format::Lichess,
        }
    }
}

/// The endgame tables of games of `variants` (when known before the run; else every
/// variant's: the archive may mix them), built in the default folder on first use as for
/// `drafti analyze` and said on stderr, given to the miner; their label for the summary
/// (`endgame tables: tz up to 4 pieces`).
fn endgame_tables(
    args: &Args,
    variants: Option<&[Variant]>,
    options: &mut PuzzleOptions,
) -> Result<Option<String>, CliError> {
    let found = args
        .tables
        .for_analysis(variants, args.input.jobs.threads())?;
    for variant in Variant::ALL {
        if let Some(t) = found.get(variant) {
            options
                .add_tables(t.clone())
                .map_err(|e| CliError::new(e.to_string()))?;
        }
    }
    Ok(found.label())
}

/// The inputs: FILES, or stdin, or the bundled corpus (the rule of `drafti report`); FILES
/// and stdin refused first when they are games of another variant (`crate::runner`).
fn choose_inputs(input: &InputArgs, shard: Option<Shard>) -> Result<(Inputs, String), CliError> {
    if input.files.is_empty() && (!stdin_is_piped() || stdin_is_empty()?) {
        let corpus = Inputs {
            inputs: corpus::inputs(),
            total_bytes: Some(corpus::total_bytes()),
            // The bundled games are Tanzanian, unless --variant reads them otherwise.
            variants: Some(vec![input.variant().unwrap_or(Variant::Tanzanian)]),
        };
        let source = "the bundled corpus (corpus/showcase.pdn, corpus/selfplay.pdn)";
        return Ok((corpus, source.to_string()));
    }
    let opened = open_refusing_wrong_variant(input, shard, Output::Summary)?;
    let source = match opened.inputs.as_slice() {
        [one] => one.name.clone(),
        many => format!("{} files", many.len()),
    };
    Ok((opened, source))
}

// ---------------------------------------------------------------------------------------
// The runs.

pub fn run(args: Args) -> CommandResult {
    if args.verify {
        return run_verify(&args);
    }
    for (flag, path) in [("--pdn", &args.pdn), ("--html", &args.html)] {
        if let Some(path) = path {
            refuse_input_as_output(flag, path, &args.input.files)?;
        }
    }
    let (inputs, source) = choose_inputs(&args.input, args.shard.shard)?;
    let jobs = args.input.jobs.threads();
    let mut options = PuzzleOptions {
        nodes: args.nodes.unwrap_or(DEFAULT_NODES),
        ..PuzzleOptions::default()
    };
    let tables = endgame_tables(&args, inputs.variants.as_deref(), &mut options)?
        .map(|label| format!("; {label}"))
        .unwrap_or_default();
    let mut batch = args.input.batch(args.shard.shard);
    // A game is a few hundred searches: small chunks keep both workers busy.
    batch.chunk_size = 2;
    // Created first, so a path that cannot be written fails before the work.
    for (flag, path) in [("--pdn", &args.pdn), ("--html", &args.html)] {
        if let Some(path) = path {
            refuse_stdout(flag, path, "the list of puzzles")?;
        }
    }
    let pdn_file = args.pdn.as_deref().map(OutputFile::create).transpose()?;
    let html_file = args.html.as_deref().map(OutputFile::create).transpose()?;
    let started = Instant::now();
    let mut collection = Collection::new();
    let mut stats = Stats::default();
    let (mut games, mut invalid) = (0u64, 0u64);
    let run = run_inputs(
        inputs,
        &batch,
        Progress::spinner("mining"),
        Output::Summary,
        |job| mine(&job, &options),
        |m: Mined| -> Result<(), std::convert::Infallible> {
            games += 1;
            invalid += u64::from(!m.valid);
            stats.add(&m.stats);
            for (puzzle, source) in m.found {
                collection.add(puzzle, source);
            }
            Ok(())
        },
    )?;
    let secs = started.elapsed().as_secs_f64();

    let entries: Vec<Entry> = collection
        .entries()
        .iter()
        .filter(|e| {
            args.difficulty
                .is_none_or(|(low, high)| (low..=high).contains(&e.puzzle.difficulty))
        })
        .filter(|e| !args.tzdraft_enterable || puzzles::tzdraft::enterable(&e.puzzle))
        .cloned()
        .collect();
    let entries = entries.as_slice();
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let format = args.format();
    let left_out = puzzles::write_format(&mut out, entries, format)
        .and_then(|n| out.flush().map(|()| n))
        .map_err(|e| CliError::writing("the report", &e))?;
    for note in puzzles::left_out_notes(&left_out) {
        eprintln!("{note}");
    }
    if let (Some(path), Some(file)) = (&args.pdn, pdn_file) {
        let pdn = puzzles::pdn_text(entries);
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
    eprintln!(
        "{}{}",
        summary_line(&stats, &collection, games, invalid),
        run.shard_text(args.shard.shard)
    );
    if let Some(line) = puzzles::tzdraft_summary(entries) {
        eprintln!("{line}");
    }
    eprintln!(
        "{} nodes per search ({} to verify){tables} on {jobs} {}: {secs:.1} s, {} positions/s",
        thousands(options.nodes),
        thousands(options.nodes * VERIFY_FACTOR),
        if jobs == 1 { "thread" } else { "threads" },
        thousands((stats.positions as f64 / secs.max(1e-9)) as u64)
    );
    run.tell_variants();
    Ok(ExitCode::from(u8::from(invalid > 0)))
}

fn run_verify(args: &Args) -> CommandResult {
    if matches!(args.format(), Format::Tzdraft | Format::Lichess) {
        return Err(CliError::new(
            "--verify writes text or JSON: --format tzdraft and lichess are for mined puzzles",
        ));
    }
    let opened = args.input.open()?;
    let jobs = args.input.jobs.threads();
    let nodes = args.nodes.unwrap_or(DEFAULT_NODES * VERIFY_FACTOR);
    let mut options = PuzzleOptions::default();
    let variants = args.input.variant().map(|v| vec![v]);
    endgame_tables(args, variants.as_deref(), &mut options)?;
    let mut batch = args.input.batch(args.shard.shard);
    batch.chunk_size = 1;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let (mut total, mut passed) = (0u64, 0u64);
    let started = Instant::now();
    let run = run_inputs(
        opened,
        &batch,
        Progress::hidden(),
        Output::PerGame,
        |job| check_record(&job, nodes, &options),
        |c: Checked| -> Result<(), CliError> {
            total += 1;
            passed += u64::from(c.outcome.is_ok());
            let line = puzzles::check_line(&c, args.format() == Format::Json);
            report_written(out.write_all(line.as_bytes()))
        },
    )?;
    report_written(out.flush())?;
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
    run.tell_variants();
    Ok(ExitCode::from(u8::from(passed < total)))
}
