//! `drafti openings`: classify games by the opening book and count results per opening and
//! as a move tree; `merge` adds the JSON outputs of sharded runs; `--discover` lists frequent
//! lines the book does not name yet.

use crate::args::{CsvArg, InputArgs, JsonArg, ShardArg};
use crate::error::{report_written, CliError, CommandResult};
use crate::progress::Progress;
use crate::runner::{run_inputs, Output};
use drafti_archive::batch::GameJob;
use drafti_archive::input::{self, Fingerprint};
use drafti_archive::openings::{
    discover, merge_rows, parse_part, ArchiveIdentity, Book, Classification, OpeningStats,
    StatsRow, CLASSIFY_PLIES,
};
use drafti_archive::replay::ProblemKind;
use drafti_pdn::GameResult;
use drafti_report::text::openings::{
    write_candidates, write_per_game, write_rows, Format, PerGame, PER_GAME_CSV,
};
use drafti_rules::{Color, Position};
use std::io::{BufWriter, Read, Write};
use std::process::ExitCode;

/// The tree's default depth, and with `--discover`.
const DEFAULT_PLIES: usize = 4;
const DEFAULT_DISCOVER_PLIES: usize = 8;

#[derive(clap::Args)]
#[command(after_help = "\
Openings are keyed by position: transposed move orders get the same code. A Black-first game \
is classified through its mirrored board (turned 180 degrees, colours swapped); lines are \
written as if White had started. Results are counted as written (1-0, 0-1) with who started; \
score% is the first mover's score: 100 x (first-mover wins + draws/2) / games with a result.

Merge sharded runs: drafti openings a.pdn --shard 1/2 --json > p1.json; ... --shard 2/2 --json \
> p2.json; drafti openings merge p1.json p2.json [--json|--csv]")]
#[command(mut_arg("files", |a| a.help("PDN files; `-` or none reads stdin. `merge PART.json...` adds the --json outputs of sharded runs instead")))]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// A book (TSV: code, name, moves) merged over the default book.
    #[arg(long, value_name = "FILE")]
    book: Vec<String>,
    /// Use only the --book files, not the default book.
    #[arg(long)]
    no_default_book: bool,
    /// Depth of the move tree in plies (default 4; 8 with --discover; at most 40).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(0..=CLASSIFY_PLIES as u64))]
    plies: Option<u64>,
    /// Leave out openings and tree lines with fewer games.
    #[arg(long, value_name = "M", default_value_t = 1)]
    min_games: u64,
    /// One line per game: its opening code and name (instead of the statistics).
    #[arg(long, conflicts_with = "discover")]
    per_game: bool,
    /// The most frequent lines of the tree that the book does not name, as candidates.
    #[arg(long)]
    discover: bool,
    /// How many candidates --discover lists.
    #[arg(long, value_name = "K", default_value_t = 20)]
    top: usize,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    csv: CsvArg,
    #[command(flatten)]
    shard: ShardArg,
}

/// What a worker hands back for one game.
enum Out<'b> {
    Unreadable,
    Game(GameOut<'b>),
}

struct GameOut<'b> {
    file_index: usize,
    index: usize,
    /// The positions of the tree: the start and after each of the first `--plies` moves.
    positions: Vec<Position>,
    /// The opening (classified on the worker).
    found: Option<Classification<'b>>,
    first_mover: Color,
    result: Option<GameResult>,
    plies: usize,
    /// An illegal or ambiguous move (or a bad setup) within the window.
    error: bool,
}

pub fn run(args: Args) -> CommandResult {
    let format = if args.json.json {
        Format::Json
    } else if args.csv.csv {
        Format::Csv
    } else {
        Format::Text
    };
    let book = load_book(&args)?;
    if args.input.files.first().map(String::as_str) == Some("merge") {
        return merge(&args, &book, format);
    }
    let tree_plies = args.plies.map(|p| p as usize).unwrap_or(if args.discover {
        DEFAULT_DISCOVER_PLIES
    } else {
        DEFAULT_PLIES
    });
    let mut opened = args.input.open()?;
    let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    // What was read, for the parts of a sharded run to tell `merge` they read one archive.
    let fingerprint = Fingerprint::default();
    for input in &mut opened.inputs {
        let reader = std::mem::replace(&mut input.reader, Box::new(std::io::empty()));
        input.reader = fingerprint.wrap(reader);
    }
    let shard = args.shard.shard;
    let mut options = args.input.batch(shard);
    options.replay.variations = false;
    // Classification and the tree look at the first plies only.
    options.replay.max_plies = Some(CLASSIFY_PLIES);
    let bar = Progress::bytes(opened.total_bytes);
    let stdout = std::io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let mut stats = OpeningStats::new(&book, tree_plies);
    let (mut unreadable, mut with_errors) = (0u64, 0u64);
    if args.per_game && format == Format::Csv {
        writeln!(out, "{PER_GAME_CSV}")?;
    }
    let per_game = args.per_game;
    // Per game, each line is written as it comes; otherwise the tables at the end.
    let output = if per_game {
        Output::PerGame
    } else {
        Output::Summary
    };
    let run = run_inputs(
        opened,
        &options,
        bar,
        output,
        |job| work(job, &book, tree_plies),
        |o: Out| -> std::io::Result<()> {
            let g = match o {
                Out::Unreadable => {
                    unreadable += 1;
                    return Ok(());
                }
                Out::Game(g) => g,
            };
            with_errors += u64::from(g.error);
            let found = g.found;
            stats.add_classified(&g.positions, g.first_mover, g.result, g.plies, found);
            if per_game {
                let (code, name, ply, moves) = match found {
                    Some(c) => (
                        c.entry.code.as_str(),
                        c.entry.name.as_str(),
                        Some(c.ply),
                        c.entry.moves.as_str(),
                    ),
                    None => ("", "(no book position)", None, ""),
                };
                let line = PerGame {
                    file: &names[g.file_index],
                    index: g.index + 1,
                    first_mover: g.first_mover.name(),
                    result: g.result.map_or("", GameResult::as_str),
                    plies: g.plies,
                    code,
                    name,
                    ply,
                    moves,
                };
                write_per_game(&mut out, &line, format)?;
            }
            Ok(())
        },
    )?;
    if !per_game {
        let mut rows = stats.rows(args.min_games);
        // The part's place in a sharded run and what it read, for `merge` to check (JSON
        // only).
        rows[0].shard = shard.map(|s| s.to_string());
        rows[0].archive = Some(ArchiveIdentity {
            inputs: names.clone(),
            games: run.batch.games + run.batch.skipped,
            bytes: fingerprint.bytes(),
            crc32: format!("{:08x}", fingerprint.crc32()),
        });
        print_result(&mut out, &args, &book, &rows, format)?;
    }
    report_written(out.flush())?;
    let secs = run.batch.elapsed.as_secs_f64();
    eprintln!(
        "{} games classified{}; {:.2} s, {:.0} games/s",
        stats.games(),
        run.shard_text(shard),
        secs,
        run.batch.games as f64 / secs.max(1e-9)
    );
    if unreadable > 0 {
        eprintln!("warning: {unreadable} games could not be parsed and are not counted (run drafti validate)");
    }
    if with_errors > 0 {
        eprintln!(
            "warning: {with_errors} games have an error in their first {CLASSIFY_PLIES} plies; they are counted up to it (run drafti validate)"
        );
    }
    run.tell_variants();
    Ok(ExitCode::from(u8::from(unreadable + with_errors > 0)))
}

/// Runs on the workers: keep only what the statistics need.
fn work<'b>(job: GameJob<'_>, book: &'b Book, tree_plies: usize) -> Out<'b> {
    let Ok(game) = job.game else {
        return Out::Unreadable;
    };
    let window = game.positions.len().min(tree_plies + 1);
    let replayed_window = game.moves.len().min(CLASSIFY_PLIES);
    let written_window = game.record.moves.nodes.len().min(CLASSIFY_PLIES);
    // Errors that cut the window short or make its positions wrong; a result that
    // contradicts the final position does not change the opening.
    let error = replayed_window < written_window
        || game.errors().any(|p| {
            matches!(p.kind, ProblemKind::BadFen | ProblemKind::UnknownVariant)
                || (matches!(
                    p.kind,
                    ProblemKind::IllegalMove
                        | ProblemKind::AmbiguousMove
                        | ProblemKind::MoveAfterEnd
                ) && !p.in_variation
                    && p.ply.is_some_and(|ply| ply <= CLASSIFY_PLIES))
        });
    Out::Game(GameOut {
        file_index: job.file_index,
        index: job.raw.index,
        result: game.played_result(),
        plies: game.record.moves.nodes.len(),
        first_mover: game.first_mover,
        positions: game.positions[..window].to_vec(),
        found: book.classify(&game.positions, game.first_mover),
        error,
    })
}

fn load_book(args: &Args) -> Result<Book, CliError> {
    let mut book = if args.no_default_book {
        Book::new()
    } else {
        Book::builtin()
    };
    for path in &args.book {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::new(format!("cannot read the book {path}: {e}")))?;
        let overlay = Book::parse(&text).map_err(|e| CliError::new(format!("{path}: {e}")))?;
        book.merge(overlay)
            .map_err(|e| CliError::new(format!("{path}: {e}")))?;
    }
    Ok(book)
}

fn merge(args: &Args, book: &Book, format: Format) -> CommandResult {
    let parts_files = &args.input.files[1..];
    if parts_files.is_empty() {
        return Err(CliError::new(
            "merge needs the --json outputs of the runs to add: drafti openings merge PART.json..."
                .to_string(),
        ));
    }
    if args.per_game {
        return Err(CliError::new(
            "--per-game does not apply to merge".to_string(),
        ));
    }
    crate::files::refuse_stdout_as_input(parts_files)?;
    let mut parts = Vec::new();
    for path in parts_files {
        // Opened as every input is (a folder, a binary file named as such), read whole.
        let (mut reader, _) =
            input::open_file_of(path, "the JSON output of drafti openings --json")
                .map_err(|e| CliError::new(e.0))?;
        let mut text = String::new();
        reader.read_to_string(&mut text).map_err(|e| {
            CliError::new(match e.kind() {
                std::io::ErrorKind::InvalidData => format!("cannot read {path}: not UTF-8 text"),
                _ => format!("cannot read {path}: {}", input::describe(&e)),
            })
        })?;
        parts.push(parse_part(&text).map_err(|e| CliError::new(format!("{path}: {e}")))?);
    }
    let rows = merge_rows(parts, args.min_games).map_err(|e| {
        // The library counts the parts from 1, in the order given: name them.
        let named: Vec<String> = parts_files
            .iter()
            .enumerate()
            .map(|(n, path)| format!("part {} is {path}", n + 1))
            .collect();
        CliError::new(format!("{e} ({})", named.join(", ")))
    })?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    print_result(&mut out, args, book, &rows, format)?;
    report_written(out.flush())?;
    Ok(ExitCode::SUCCESS)
}

/// The statistics, or with `--discover` the candidates found in them.
fn print_result(
    out: &mut impl Write,
    args: &Args,
    book: &Book,
    rows: &[StatsRow],
    format: Format,
) -> std::io::Result<()> {
    if args.discover {
        let found = discover(rows, args.top, args.min_games);
        return write_candidates(out, rows, &found, format);
    }
    write_rows(out, book, rows, format)
}
