//! `drafti import tzdraft`: TzDraft's game records (JSON) as PDN, or as `validate --json`
//! lines with `source_id`, every move replayed through the rules TzDraft's server plays (or
//! the article's, `--strict`). What a record means and how its moves are checked is
//! `drafti_archive::import::tzdraft`'s; this module holds the flags, the output and the exit
//! code (0 every game legal, 1 a game with an illegal move or an unreadable game, 2 input
//! that cannot be read at all).

use crate::args::JsonArg;
use crate::error::{exit_code, CliError, CommandResult};
use crate::files::{refuse_input_as_output, refuse_stdout_as_input, OutputFile};
use drafti_archive::import::tzdraft::{import, ImportError, Imported};
use drafti_archive::input::describe;
use drafti_archive::replay::ReplayOptions;
use drafti_archive::validation::Validated;
use drafti_pdn::RawGame;
use drafti_report::text::diagnostic::{game_label, write_problem};
use drafti_rules::Variant;
use std::io::{BufRead, IsTerminal, Write};

#[derive(clap::Args)]
pub struct Args {
    #[command(subcommand)]
    source: Source,
}

#[derive(clap::Subcommand)]
enum Source {
    /// TzDraft's games (github kayzo1903/TzDraft): its API's JSON or database rows, one game,
    /// an array or JSON Lines; every move replayed under the rules TzDraft's server plays
    /// (`[Variant "TzDraft"]`), each place the article's rules differ a warning.
    Tzdraft(TzdraftArgs),
}

#[derive(clap::Args)]
struct TzdraftArgs {
    /// The JSON file; `-` or nothing reads stdin.
    file: Option<String>,
    #[command(flatten)]
    json: JsonArg,
    /// Write the PDN (or the JSON Lines) to this file instead of stdout.
    #[arg(long, value_name = "OUT")]
    out: Option<std::path::PathBuf>,
    /// Check the games against the article's rules (`[Variant "Tanzanian"]`): a move only
    /// TzDraft's server allows is an error that cuts its game.
    #[arg(long)]
    strict: bool,
    /// Do not print warnings (they are still counted).
    #[arg(long)]
    no_warnings: bool,
}

pub fn run(args: Args) -> CommandResult {
    match args.source {
        Source::Tzdraft(args) => tzdraft(args),
    }
}

/// How many games, and how many with errors.
#[derive(Default)]
struct Counts {
    games: u64,
    invalid: u64,
    warnings: u64,
    plies: u64,
}

fn tzdraft(args: TzdraftArgs) -> CommandResult {
    let name = args.file.clone().unwrap_or_else(|| "-".to_string());
    match &args.out {
        Some(path) => refuse_input_as_output("--out", path, [&name])?,
        None => refuse_stdout_as_input([&name])?,
    }
    let reader: Box<dyn BufRead + Send> = if name == "-" {
        if std::io::stdin().is_terminal() {
            eprintln!(
                "reading TzDraft JSON from the terminal: paste the games, then press Ctrl-D; \
                 or give a FILE, e.g. drafti import tzdraft games.json"
            );
        }
        Box::new(std::io::BufReader::with_capacity(1 << 16, std::io::stdin()))
    } else {
        Box::new(std::io::BufReader::with_capacity(1 << 16, open(&name)?))
    };
    let shown = if name == "-" {
        "<stdin>"
    } else {
        name.as_str()
    };
    let mut file = match &args.out {
        Some(path) => Some(std::io::BufWriter::new(OutputFile::create(path)?)),
        None => None,
    };
    let mut stdout = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let out: &mut dyn Write = match file.as_mut() {
        Some(file) => file,
        None => &mut stdout,
    };
    let mut counts = Counts::default();
    let json = args.json.json;
    let options = ReplayOptions {
        variant_override: args.strict.then_some(Variant::Tanzanian),
        ..ReplayOptions::default()
    };
    let warnings = !args.no_warnings;
    let written = import(shown, reader, &options, |game| {
        write_game(&mut *out, shown, &game, (json, warnings), &mut counts)
    });
    match written {
        Ok(_) => {}
        Err(ImportError::Sink(e)) => return Err(CliError::writing(&output_name(&args), &e)),
        Err(e) => return Err(e.into()),
    }
    let failed = |e: &std::io::Error| CliError::writing(&output_name(&args), e);
    out.flush().map_err(|e| failed(&e))?;
    if let Some(file) = file {
        let file = file.into_inner().map_err(|e| failed(e.error()))?;
        file.commit().map_err(|e| failed(&e))?;
    }
    eprintln!(
        "{} TzDraft {} from {shown}: {} valid, {} invalid, {} {}, {} plies",
        counts.games,
        if counts.games == 1 { "game" } else { "games" },
        counts.games - counts.invalid,
        counts.invalid,
        counts.warnings,
        if counts.warnings == 1 {
            "warning"
        } else {
            "warnings"
        },
        counts.plies
    );
    Ok(exit_code(counts.invalid > 0))
}

/// The file `name`, opened to read (a folder or a missing file named in the error).
fn open(name: &str) -> Result<std::fs::File, CliError> {
    if std::fs::metadata(name).is_ok_and(|m| m.is_dir()) {
        return Err(CliError::new(format!("{name} is a directory")));
    }
    std::fs::File::open(name)
        .map_err(|e| CliError::new(format!("cannot open {name}: {}", describe(&e))))
}

fn output_name(args: &TzdraftArgs) -> String {
    match &args.out {
        Some(path) => path.display().to_string(),
        None => "the report".to_string(),
    }
}

/// One game: its PDN (or JSON line) on `out`, its errors (and warnings, unless `--no-warnings`)
/// on stderr.
fn write_game(
    out: &mut dyn Write,
    file: &str,
    imported: &Imported,
    (json, show_warnings): (bool, bool),
    counts: &mut Counts,
) -> std::io::Result<()> {
    counts.games += 1;
    let mut raw = RawGame::from_bytes(imported.index, Vec::new());
    raw.line = imported.line;
    let mut problems = String::new();
    match &imported.game {
        Validated::Game(game) => {
            counts.plies += game.moves.len() as u64;
            if !game.is_valid() {
                counts.invalid += 1;
            }
            counts.warnings += game.warnings().count() as u64;
            let label = game_label(&game.record.tags, imported.index);
            for p in game
                .problems
                .iter()
                .filter(|p| p.is_error() || show_warnings)
            {
                write_problem(&mut problems, file, &raw, &label, p);
            }
            if !json {
                if counts.games > 1 {
                    out.write_all(b"\n")?;
                }
                out.write_all(drafti_pdn::write_game(&game.record).as_bytes())?;
            }
        }
        Validated::Unreadable(problem) => {
            counts.invalid += 1;
            let label = format!("game {} (unreadable)", imported.index + 1);
            write_problem(&mut problems, file, &raw, &label, problem);
        }
    }
    eprint!("{problems}");
    if json {
        out.write_all(imported.json_line(file).as_bytes())?;
    }
    Ok(())
}
