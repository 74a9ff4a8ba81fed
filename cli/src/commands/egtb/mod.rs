//! `drafti egtb build|probe|verify|info`: endgame tables — build them by retrograde analysis,
//! look a position up, check every entry, list what is there.
//!
//! Tables live in `DIR/<variant>/` (`tz`, `czech`, `russian`), one file per material
//! signature. `DIR` is `--dir DIR` (alias `--egtb`), else `$XDG_CACHE_HOME/drafti/egtb`, else
//! `~/.cache/drafti/egtb`; the commands that search (`drafti search`, `drafti hub`) use the
//! tables there automatically when they exist, and say so.

mod build;
mod probe;
mod tables;

use crate::args::{JobsArg, JsonArg, KingCountArg, NotationArg, PositionArgs, VariantsArg};
use crate::error::{CliError, CommandResult};
use drafti_engine::egtb::{self, EgtbError, Signature, Tables};
use drafti_rules::Variant;
use std::path::{Path, PathBuf};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Build every table with at most --pieces pieces (kept tables are checked and kept).
    Build(BuildArgs),
    /// The exact value of a position, its best move and the line to the end.
    Probe(ProbeArgs),
    /// Check every entry of every table against the values its moves lead to.
    Verify(VerifyArgs),
    /// List the tables: signatures, wins/draws/losses, longest distance, sizes.
    Info(InfoArgs),
}

/// Where the tables are.
#[derive(clap::Args)]
struct DirArg {
    /// Folder of the tables (default: $XDG_CACHE_HOME/drafti/egtb or ~/.cache/drafti/egtb).
    #[arg(long, visible_alias = "egtb", value_name = "DIR")]
    dir: Option<PathBuf>,
}

#[derive(clap::Args)]
struct BuildArgs {
    #[command(flatten)]
    variant: VariantsArg,
    /// The most pieces (both sides together) of a table.
    #[arg(long, value_parser = clap::value_parser!(u32).range(2..=egtb::MAX_PIECES as i64),
          required_unless_present = "signature")]
    pieces: Option<u32>,
    /// Only these signatures (e.g. KKKvKKK) and the tables they lead to.
    #[arg(long, value_name = "NAME", value_parser = parse_signature, conflicts_with = "pieces")]
    signature: Vec<Signature>,
    #[command(flatten)]
    dir: DirArg,
    #[command(flatten)]
    jobs: JobsArg,
    /// Start a build of more than 10 billion new positions (7 pieces and up: hours, and tens
    /// of gigabytes); without it such a build prints its estimate and stops.
    #[arg(long)]
    yes: bool,
}

#[derive(clap::Args)]
struct ProbeArgs {
    #[command(flatten)]
    position: PositionArgs,
    #[command(flatten)]
    king_count: KingCountArg,
    #[command(flatten)]
    dir: DirArg,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    numeric: NotationArg,
}

#[derive(clap::Args)]
struct VerifyArgs {
    #[command(flatten)]
    variant: VariantsArg,
    #[command(flatten)]
    dir: DirArg,
    #[command(flatten)]
    jobs: JobsArg,
}

#[derive(clap::Args)]
struct InfoArgs {
    #[command(flatten)]
    variant: VariantsArg,
    #[command(flatten)]
    dir: DirArg,
    #[command(flatten)]
    json: JsonArg,
}

fn parse_signature(text: &str) -> Result<Signature, String> {
    Signature::from_name(text).ok_or_else(|| {
        format!("'{text}' is no signature (e.g. KKMvK: the side to move's kings and men, v, the other side's)")
    })
}

fn root(dir: &DirArg) -> Result<PathBuf, CliError> {
    dir.dir
        .clone()
        .or_else(crate::tables::default_dir)
        .ok_or_else(|| {
            CliError::new("no folder for the endgame tables: give --dir DIR (HOME is not set)")
        })
}

fn open(dir: &DirArg, variant: Variant) -> Result<Tables, CliError> {
    let root = root(dir)?;
    let none_for = |path: &Path| {
        CliError::new(format!(
            "no endgame tables for {variant} in {} (drafti egtb build --variant {} --pieces 4 \
             --dir {} builds them)",
            path.display(),
            variant.name(),
            root.display()
        ))
    };
    // No folder for the variant, or one without tables: say how to build them.
    Tables::open(&root, variant).map_err(|e| match e {
        EgtbError::NoTables { path } => none_for(&path),
        EgtbError::Io { path, source } if source.kind() == std::io::ErrorKind::NotFound => {
            none_for(&path)
        }
        e => CliError::new(e.to_string()),
    })
}

pub fn run(args: Args) -> CommandResult {
    match args.command {
        Command::Build(a) => build::build(a),
        Command::Probe(a) => probe::probe(a),
        Command::Verify(a) => tables::verify(a),
        Command::Info(a) => tables::info(a),
    }
}
