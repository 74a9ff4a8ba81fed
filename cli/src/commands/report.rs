//! `drafti report`: validation, analysis and opening classification of every game in one
//! pass; a text summary on stdout and, with `--html OUT`, one self-contained HTML file.
//! With no FILES and nothing piped in, it reports on the corpus bundled in the binary.
//!
//! The rendering is `drafti_report`'s; this module holds the flags, the choice of input, the
//! progress bar and the files written (`crate::report::output`).
//! The games and their analysis come from `drafti_analysis::batch::analyse_archive` (as for
//! `drafti analyze`) or, with `--from-analysis`, from the JSON of `drafti analyze --json`
//! (`drafti_analysis::parts`).

use crate::args::{InputArgs, SearchArgs, CORPUS_FILES_HELP};
use crate::error::report_written;
use crate::error::{CliError, CommandResult};
use crate::input::{open_inputs_of, stdin_is_empty, stdin_is_piped, EncodingArg};
use crate::report::corpus;
use crate::report::output::HtmlOutput;
use crate::runner::{
    open_refusing_wrong_variant, run_analysis, warn_empty_inputs, worker_pool, Output, VariantCheck,
};
use drafti_analysis::batch::{ArchiveGame, ArchiveOptions};
use drafti_analysis::parts::Parts;
use drafti_analysis::{recheck_blunders, EndgameTables};
use drafti_archive::batch::GameJob;
use drafti_archive::openings::Book;
use drafti_archive::replay::ReplayOptions;
use drafti_archive::validation::VariantEvidence;
use drafti_report::collect::{Collector, GameOut, RunInfo};
use drafti_report::describe::{describe, held_section, WorkSettings};
use drafti_report::html::games_text;
use drafti_report::text::summary::write_summary;
use drafti_report::{counted, thousands};
use drafti_rules::Variant;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "\
With no FILES and nothing piped in, the report covers the corpus bundled in the binary (the \
annotated showcase records and the first 500 engine self-play games; see corpus/README.md).

Every position is analysed at analyze's default settings (--preset default), whose verdicts \
on master games the header states; --preset fast is about ten times quicker and misses more.

Winning chances are the engine's estimate of a side's chance to win (50% = even). A blunder \
(??) costs at least 15 points of them or a proven result, a mistake (?) 7.5, an inaccuracy \
(?!) 3.75. Invalid games are listed under archive health and not analysed.

The HTML file has the summary tables, then every game (the first 5,000 of a larger archive; \
--html-dir writes them all, in pages): its moves with the flagged ones marked, and a board to \
step through with the engine's evaluation, best move and line at every ply.")]
#[command(mut_arg("files", |a| a.help(CORPUS_FILES_HELP)))]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Build the report from the JSON Lines of `drafti analyze --json` (the parts of a
    /// sharded run, in any order; `-` for stdin) instead of analysing: the same summary and
    /// HTML as a direct run with the same settings (see README, "Archives too big for one
    /// machine").
    #[arg(long, value_name = "PART.jsonl", num_args = 1.., conflicts_with_all = [
        "files", "encoding", "preset", "depth", "nodes", "verify_depth", "verify_nodes", "no_verify",
        "confirm_depth", "confirm_nodes", "confirm_band", "no_confirm", "nominate", "egtb", "no_egtb",
        "variant", "jobs",
    ])]
    from_analysis: Vec<String>,
    /// Also write the report as one self-contained HTML file (no external assets).
    #[arg(long, value_name = "OUT", conflicts_with = "html_dir")]
    html: Option<PathBuf>,
    /// Write the HTML report as pages in DIR instead: index.html (summary and index of
    /// games) and games-0001.html… with 500 games each; every game, whatever the archive.
    #[arg(long, value_name = "DIR")]
    html_dir: Option<PathBuf>,
    /// The analysis, as `drafti analyze` does it (default: pass depth 5, re-search depth 8).
    #[command(flatten)]
    search: SearchArgs,
}

/// Everything the summary and the HTML need about one game and its analysis (on the pool).
fn describe_game(g: ArchiveGame, settings: &WorkSettings<'_>) -> GameOut {
    let ArchiveGame {
        file,
        input,
        raw,
        game,
        analysis,
        ..
    } = g;
    let job = GameJob {
        file: &file,
        file_index: input,
        raw: &raw,
        game,
    };
    describe(job, settings, |_| analysis.unwrap_or_default())
}

pub fn run(args: Args) -> CommandResult {
    if let Some(path) = &args.html {
        let inputs = args.input.files.iter().chain(&args.from_analysis);
        crate::files::refuse_input_as_output("--html", path, inputs)?;
    }
    if let Some(dir) = &args.html_dir {
        let inputs = args.input.files.iter().chain(&args.from_analysis);
        crate::files::refuse_input_as_page("--html-dir", dir, is_report_page, inputs)?;
    }
    if !args.from_analysis.is_empty() {
        return from_analysis(args);
    }
    let (inputs, total_bytes, source, variants) =
        if args.input.files.is_empty() && (!stdin_is_piped() || stdin_is_empty()?) {
            let (inputs, bytes, source) = corpus::report_inputs();
            // The bundled games are Tanzanian, unless --variant reads them otherwise.
            let variant = args.input.variant().unwrap_or(Variant::Tanzanian);
            (inputs, Some(bytes), source, Some(vec![variant]))
        } else {
            let opened = open_refusing_wrong_variant(&args.input, None, Output::Summary)?;
            let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
            let source = match names.as_slice() {
                [one] => one.clone(),
                many => format!("{} files", many.len()),
            };
            (opened.inputs, opened.total_bytes, source, opened.variants)
        };
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let mut analysis = args.search.options();
    analysis.tables = args
        .search
        .tables
        .for_analysis(variants.as_deref(), args.input.jobs.threads())?;
    let search = analysis.label();
    let info = RunInfo::new(source, search);
    let jobs = args.input.jobs.threads();
    let book = Book::builtin();
    let settings = WorkSettings {
        book: &book,
        html: args.html.is_some() || args.html_dir.is_some(),
    };
    let archive = ArchiveOptions {
        replay: args.input.replay(),
        ..ArchiveOptions::new(analysis)
    };

    let mut html_out = html_output(&args)?;

    let mut collector = Collector::new(names.clone(), &book);
    collector.paged = html_out.as_ref().is_some_and(HtmlOutput::paged);
    let started = std::time::Instant::now();
    let run = run_analysis(
        inputs,
        total_bytes,
        &archive,
        args.input.jobs,
        Output::Summary,
        |g| describe_game(g, &settings),
        |g| -> Result<(), CliError> {
            if let Some(section) = collector.add(g) {
                if let Some(out) = html_out.as_mut() {
                    out.section(&section)?;
                }
            }
            Ok(())
        },
    )?;
    let done = finish(collector, html_out, &info, (&archive.analysis.tables, jobs))?;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{}, {} positions analysed on {} in {secs:.1} s ({:.0} positions/s); {} blunders",
        games_text(done.games),
        thousands(done.positions),
        counted(jobs as u64, "thread", "threads"),
        done.positions as f64 / secs.max(1e-9),
        thousands(done.blunders)
    );
    run.tell_variants();
    Ok(done.exit)
}

/// Whether a file of an `--html-dir` folder is a page the report writes: `index.html` or a
/// page of games (`games-0001.html`, as `drafti_report::collect::page_name` names them).
fn is_report_page(name: &str) -> bool {
    name == "index.html"
        || name
            .strip_prefix("games-")
            .and_then(|rest| rest.strip_suffix(".html"))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Where `--html` or `--html-dir` sends the HTML (its game sections are written while the
/// summary is gathered: output.rs).
fn html_output(args: &Args) -> Result<Option<HtmlOutput>, CliError> {
    if let Some(out) = &args.html {
        crate::files::refuse_stdout("--html", out, "the text summary")?;
    }
    match (&args.html, &args.html_dir) {
        (Some(out), _) => Some(HtmlOutput::file(out)),
        (None, Some(dir)) => Some(HtmlOutput::dir(dir)),
        (None, None) => None,
    }
    .transpose()
}

/// What a finished report tells on stderr, and its exit code.
struct Finished {
    games: u64,
    games_per_input: Vec<u64>,
    positions: u64,
    blunders: u64,
    /// 1 when some game is invalid or unreadable.
    exit: ExitCode,
}

/// Writes the text summary on stdout and completes the HTML files.
fn finish(
    mut collector: Collector<'_>,
    html_out: Option<HtmlOutput>,
    info: &RunInfo,
    recheck: (&EndgameTables, usize),
) -> Result<Finished, CliError> {
    let (tables, jobs) = recheck;
    let started = std::time::Instant::now();
    let blunders = collector.blunders_to_recheck();
    let again = worker_pool(jobs, "report")?.install(|| recheck_blunders(&blunders, tables));
    collector.rechecked(again, held_section);
    if let Some(r) = collector.rechecked {
        eprintln!(
            "{} of the summary judged again deeper in {:.1} s: {} held up",
            counted(r.checked as u64, "blunder", "blunders"),
            started.elapsed().as_secs_f64(),
            r.held
        );
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    report_written(write_summary(&mut out, &mut collector, info).and_then(|()| out.flush()))?;
    if let Some(out) = html_out {
        let written = out.finish(&mut collector, info)?;
        eprintln!(
            "wrote {} ({}{}, {:.1} MB)",
            written.path.display(),
            games_text(collector.index.len() as u64),
            if written.files > 1 {
                format!(
                    " in {} and the index",
                    counted(written.files as u64 - 1, "page", "pages")
                )
            } else {
                String::new()
            },
            written.bytes as f64 / 1e6
        );
    }
    Ok(Finished {
        games: collector.games,
        games_per_input: collector.games_per_input.clone(),
        positions: collector.positions,
        blunders: collector.totals.blunders,
        exit: ExitCode::from(u8::from(collector.invalid + collector.unreadable > 0)),
    })
}

/// `--from-analysis`: the games and their numbers from `drafti analyze --json` parts, one
/// game at a time.
fn from_analysis(args: Args) -> CommandResult {
    let opened = open_inputs_of(
        &args.from_analysis,
        EncodingArg::default(),
        "the JSON lines of drafti analyze --json",
    )?;
    let mut parts = Parts::open(opened.inputs)?;
    let book = Book::builtin();
    let settings = WorkSettings {
        book: &book,
        html: args.html.is_some() || args.html_dir.is_some(),
    };
    let mut html_out = html_output(&args)?;
    let names = parts.run().inputs.clone();
    let mut collector = Collector::new(names.clone(), &book);
    collector.paged = html_out.as_ref().is_some_and(HtmlOutput::paged);
    let started = std::time::Instant::now();
    let replay = ReplayOptions {
        variant_override: parts.run().variant,
        ..ReplayOptions::default()
    };
    let mut variants = VariantCheck::default();
    while let Some(g) = parts.next_game()? {
        variants.add(g.input, &VariantEvidence::of(&g.game, &replay));
        if let Some(section) = collector.add(describe_game(g, &settings)) {
            if let Some(out) = html_out.as_mut() {
                out.section(&section)?;
            }
        }
    }
    // Before anything is written, as a direct run decides.
    let variant_notes = variants.judge(&names, Output::Summary)?;
    // As a direct run names its source: the file, or how many.
    let source = match names.as_slice() {
        [one] => one.clone(),
        many => format!("{} files", many.len()),
    };
    let search = parts.run().search.clone();
    let tables = args.search.tables.for_rules(args.input.variant())?;
    let done = finish(
        collector,
        html_out,
        &RunInfo::new(source, search),
        (&tables, args.input.jobs.threads()),
    )?;
    warn_empty_inputs(&names, &done.games_per_input);
    eprintln!(
        "{} from the analysis in {:.1} s ({} positions); {} blunders",
        games_text(done.games),
        started.elapsed().as_secs_f64(),
        thousands(done.positions),
        thousands(done.blunders)
    );
    for note in variant_notes {
        eprintln!("{note}");
    }
    Ok(done.exit)
}
