//! `drafti index build|merge|info`: the game index that `explore` and `find` read — built
//! once from PDN archives (in shards that merge, if the archive is large), and described.

use crate::args::{InputArgs, ShardArg};
use crate::db_filters::open_index;
use crate::error::{report_written, CliError, CommandResult};
use crate::files::refuse_input_as_output;
use crate::progress::Progress;
use crate::runner::{warn_empty_inputs, Output, VariantCheck};
use drafti_db::{build_index, merge_parts, text, BuildOptions, IndexInfo, ShardSpec};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Index PDN archives: every game's record and moves, and the positions of the first 40
    /// plies with the games that reached them.
    Build(BuildArgs),
    /// Merge the parts of a sharded build (--shard K/N) into the index one build makes.
    Merge(MergeArgs),
    /// What an index holds: games, variants, inputs, positions, the size of each section.
    Info(InfoArgs),
}

#[derive(clap::Args)]
#[command(after_help = "\
Shards: drafti index build a.pdn --shard 1/2 -o p1.idx; drafti index build a.pdn --shard 2/2 \
-o p2.idx; drafti index merge p1.idx p2.idx -o a.idx. A part keeps the positions a single game \
reaches so that the parts add up exactly; the merged index is the one a single build makes.")]
struct BuildArgs {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    shard: ShardArg,
    /// The index file to write.
    #[arg(long, short = 'o', value_name = "INDEX")]
    output: PathBuf,
    /// Where the build's temporary files go (default: the system's temporary directory).
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,
}

#[derive(clap::Args)]
struct MergeArgs {
    /// The parts (index files built with --shard K/N, every K of one N).
    #[arg(required = true)]
    parts: Vec<PathBuf>,
    /// The index file to write.
    #[arg(long, short = 'o', value_name = "INDEX")]
    output: PathBuf,
}

#[derive(clap::Args)]
struct InfoArgs {
    /// The index file.
    index: PathBuf,
    /// Check every page of the file against its checksum.
    #[arg(long)]
    verify: bool,
    #[command(flatten)]
    json: crate::args::JsonArg,
}

pub fn run(args: Args) -> CommandResult {
    match args.command {
        Command::Build(a) => build(a),
        Command::Merge(a) => merge(a),
        Command::Info(a) => info(a),
    }
}

fn build(args: BuildArgs) -> CommandResult {
    refuse_input_as_output("--output", &args.output, &args.input.files)?;
    let opened = args.input.open()?;
    let names: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    if names.iter().any(|n| n == "-") {
        eprintln!("warning: an index of stdin cannot give find the games' text back (find --list and --json still work)");
    }
    let shard = args.shard.shard.map(|s| ShardSpec {
        index: s.index,
        count: s.count,
    });
    let options = BuildOptions {
        shard,
        single_game_positions: shard.is_some(),
        temp_dir: args.temp_dir.clone(),
        ..BuildOptions::default()
    };
    let books = drafti_db::Books::shipped()?;
    let mut batch = args.input.batch(args.shard.shard);
    // Only mainlines are indexed.
    batch.replay.variations = false;
    let bar = Progress::bytes(opened.total_bytes);
    let started = Instant::now();
    let summary = build_index(opened.inputs, &batch, options, &books, &args.output, |p| {
        bar.read(p.bytes, p.games)
    })
    .map_err(|e| CliError::new(e.to_string()))?;
    drop(bar);
    let games_per_input: Vec<u64> = summary.meta.inputs.iter().map(|i| i.games).collect();
    warn_empty_inputs(&names, &games_per_input);
    // The variant policy (runner.rs): an index is a result built from every game, so a file
    // whose games are all of other rules than the guess leaves no index behind.
    let notes =
        match VariantCheck::from_guesses(summary.variants.clone()).judge(&names, Output::Summary) {
            Ok(notes) => notes,
            Err(refusal) => {
                let _ = std::fs::remove_file(&args.output);
                return Err(refusal);
            }
        };
    let m = &summary.meta;
    let secs = started.elapsed().as_secs_f64();
    eprintln!(
        "{} games indexed{}; {} positions; {} bytes ({:.1} a game) in {}; {secs:.2} s",
        m.games,
        m.shard.map_or(String::new(), |s| format!(
            " (shard {}/{} of {})",
            s.index, s.count, m.archive_games
        )),
        m.positions,
        summary.bytes,
        summary.bytes as f64 / m.games.max(1) as f64,
        args.output.display()
    );
    for note in notes {
        eprintln!("{note}");
    }
    Ok(ExitCode::SUCCESS)
}

fn merge(args: MergeArgs) -> CommandResult {
    refuse_input_as_output("--output", &args.output, &args.parts)?;
    let meta = merge_parts(&args.parts, &args.output).map_err(|e| CliError::new(e.to_string()))?;
    let bytes = std::fs::metadata(&args.output)
        .map(|m| m.len())
        .unwrap_or(0);
    eprintln!(
        "{} parts merged: {} games, {} positions, {} bytes in {}",
        args.parts.len(),
        meta.games,
        meta.positions,
        bytes,
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}

fn info(args: InfoArgs) -> CommandResult {
    let (index, _) = open_index(&args.index)?;
    if args.verify {
        index.verify()?;
    }
    let info = IndexInfo::of(&index);
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.json.json {
        serde_json::to_writer(&mut out, &info).map_err(|e| CliError::new(e.to_string()))?;
        writeln!(out)?;
    } else {
        text::write_info(&mut out, &info)?;
        if args.verify {
            writeln!(out, "every page checked")?;
        }
    }
    report_written(out.flush())?;
    Ok(ExitCode::SUCCESS)
}
