//! `drafti standings`: matches and knockout tournaments by the Tanzanian laws, from game
//! archives — match scores and winners, start-order checks, goals ("supa"), the knockout
//! ranking; group tables, groups then a knock-out, round robins, Swiss results (each Event's
//! format recognised from its pairings, or `--format`), TzDraft's tournaments (`--format
//! tzdraft`) — as text tables, JSON Lines (one object per Event) or CSV (one row per
//! player), and `--html OUT`.
//!
//! The laws and the decisions are documented in `drafti_archive::standings`.

use crate::args::{CsvArg, InputArgs, JsonArg};
use crate::error::{CliError, CommandResult};
use crate::files::{refuse_input_as_output, refuse_stdout, OutputFile};
use crate::progress::Progress;
use crate::runner::{run_inputs, Output};
use drafti_archive::batch::GameJob;
use drafti_archive::replay::{replay_partial, ReplayOptions};
use drafti_archive::standings::{
    Archive, Format, GameSummary, Groups, MatchPoints, StandingsOptions, Tiebreak,
};
use drafti_pdn::ParseError;
use drafti_report::standings::html as standings_html;
use drafti_report::standings::{
    count, csv_rows, event_text, formats_csv_rows, laws, CSV_HEADER, FORMATS_CSV_HEADER,
};
use drafti_report::visible;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(mut_arg("files", |a| a.help("PDN files; `-` or none reads stdin. Games are taken in the order given")))]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    /// Optional "supa" scoring: a win in which no king ever appeared counts 12 goals.
    #[arg(long)]
    supa: bool,
    /// House rule: the loser of a game starts the next (instead of the winner).
    #[arg(long)]
    loser_starts: bool,
    /// Optional law: players swap colours after every game of a match.
    #[arg(long)]
    swap_colours: bool,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    csv: CsvArg,
    #[arg(long, value_parser = parse_format, help = format_help())]
    format: Option<Format>,
    /// The groups: lines `Group NAME: player, player, ...` (else the Group or Section tags).
    #[arg(long, value_name = "FILE")]
    groups: Option<PathBuf>,
    /// Players of each group who go through to the knock-out.
    #[arg(long, value_name = "N", default_value_t = 2)]
    qualifiers: u32,
    /// Match points of the group tables for a win, a draw, a loss.
    #[arg(long, value_name = "W,D,L", default_value = "3,1,0", value_parser = str::parse::<MatchPoints>)]
    points: MatchPoints,
    /// Knock-out matches level after two games: limboti (sudden death, the article) or tege
    /// (two more games, four tege games, then a golden goal).
    #[arg(long, default_value = "limboti", value_parser = parse_tiebreak)]
    tiebreak: Tiebreak,
    /// `--format tzdraft`: the round's deadline has passed; a match its games left undecided
    /// is settled as TzDraft's server does (round robin: a drawn match; single elimination:
    /// the player ahead in games wins).
    #[arg(long)]
    deadline_passed: bool,
    /// Also write the standings as one self-contained HTML page.
    #[arg(long, value_name = "OUT")]
    html: Option<PathBuf>,
}

/// The names `--format` takes.
fn format_names() -> String {
    let names: Vec<&str> = Format::ALL.iter().map(|f| f.name()).collect();
    names.join(", ")
}

fn parse_format(text: &str) -> Result<Format, String> {
    Format::from_name(text).ok_or_else(|| format!("expected one of {}", format_names()))
}

/// `--format`'s help: each format in its words (from the one list of them).
fn format_help() -> String {
    let formats: Vec<String> = Format::ALL
        .iter()
        .map(|f| format!("{} ({})", f.name(), f.about()))
        .collect();
    format!(
        "How every Event is run: {}. Without it, each Event's format is recognised from its \
         pairings (groups; a knockout; every pair met equally often: a round robin; else \
         Swiss) and said",
        formats.join("; ")
    )
}

fn parse_tiebreak(text: &str) -> Result<Tiebreak, String> {
    Tiebreak::from_name(text).ok_or_else(|| "expected limboti or tege".to_string())
}

/// Reads and checks a groups file.
fn read_groups(path: &Path) -> Result<Groups, CliError> {
    let file = std::fs::File::open(path)
        .map_err(|e| CliError::new(format!("cannot read {}: {e}", path.display())))?;
    Groups::read(file, &path.display().to_string()).map_err(|e| CliError::new(e.to_string()))
}

/// What a worker hands back for one game.
enum Item {
    Game(Box<GameSummary>, bool),
    Unreadable(String),
}

fn summarise(job: GameJob<'_>, options: &ReplayOptions) -> Item {
    match job.game {
        Ok(game) => Item::Game(
            Box::new(GameSummary::from_replayed(&game, job.file)),
            game.is_valid(),
        ),
        // A syntax error: the game still counts with the tags and moves read before it.
        Err(ParseError {
            record: Some(record),
            ..
        }) => {
            let game = replay_partial(*record, options);
            let mut summary = GameSummary::from_replayed(&game, job.file);
            // The moves after the error are unknown: so is whether a king appeared.
            summary.king_appeared = None;
            Item::Game(Box::new(summary), false)
        }
        Err(e) => Item::Unreadable(format!(
            "{}:{}:{}: game {} cannot be read ({}); skipped",
            job.file,
            e.span.line,
            e.span.column,
            job.raw.index + 1,
            e.message
        )),
    }
}

pub fn run(args: Args) -> CommandResult {
    if args.groups.is_some() && args.format.is_some_and(|f| !f.grouped()) {
        return Err(CliError::new(
            "--groups needs --format groups or --format groups+knockout (or no --format)",
        ));
    }
    if args.deadline_passed && args.format != Some(Format::Tzdraft) {
        return Err(CliError::new("--deadline-passed needs --format tzdraft"));
    }
    if let Some(path) = &args.html {
        refuse_stdout("--html", path, "the standings")?;
        let files = args.input.files.iter().map(std::path::Path::new);
        refuse_input_as_output("--html", path, files.chain(args.groups.as_deref()))?;
    }
    let groups = args.groups.as_deref().map(read_groups).transpose()?;
    let mut html = args.html.as_deref().map(OutputFile::create).transpose()?;
    let opened = args.input.open()?;
    let batch = args.input.batch(None);
    // One compact record a game (names interned); the summaries are let go as they come.
    let mut games = Archive::new();
    let mut unreadable = Vec::new();
    let mut invalid = 0usize;
    let run = run_inputs(
        opened,
        &batch,
        Progress::hidden(),
        Output::Summary,
        |job| summarise(job, &batch.replay),
        |item| -> Result<(), std::convert::Infallible> {
            match item {
                Item::Game(g, valid) => {
                    invalid += usize::from(!valid);
                    games.push(&g);
                }
                Item::Unreadable(message) => unreadable.push(message),
            }
            Ok(())
        },
    )?;

    let options = StandingsOptions {
        supa: args.supa,
        loser_starts: args.loser_starts,
        swap_colours: args.swap_colours,
        format: args.format,
        tiebreak: args.tiebreak,
        points: args.points,
        qualifiers: args.qualifiers,
        deadline_passed: args.deadline_passed,
    };
    if let Some(groups) = groups {
        games.set_groups(groups);
    }
    for message in &unreadable {
        eprintln!("error: {}", visible(message));
    }
    // Each Event is computed, then written a match, a game and a warning at a time, then let
    // go: nothing of the output is built whole.
    let stdout = std::io::stdout();
    let mut out = Stdout {
        writer: std::io::BufWriter::with_capacity(1 << 16, stdout.lock()),
        closed: false,
    };
    let written = |e: std::io::Error| CliError::writing("the report", &e);
    let (json, csv) = (args.json.json, args.csv.csv);
    // One CSV header for every Event: the matches' columns when all are of matches (or
    // knockouts), else the formats' (which have a row kind for matches too).
    let formats = csv
        && games
            .formats(&options)
            .iter()
            .any(|f| !matches!(f, Format::Matches | Format::Knockout));
    if csv {
        let header = if formats {
            FORMATS_CSV_HEADER.join(",")
        } else {
            CSV_HEADER.join(",")
        };
        writeln!(out, "{header}").map_err(written)?;
    }
    let html_path = args.html.as_deref().unwrap_or(Path::new("-"));
    let html_written =
        |e: std::io::Error| CliError::new(format!("cannot write {}: {e}", html_path.display()));
    if let Some(file) = html.as_mut() {
        let title = match run.names.as_slice() {
            [one] => one.clone(),
            many => format!("{} files", many.len()),
        };
        let laws = laws(&options, args.format.unwrap_or(Format::Knockout));
        standings_html::page_head(file, &title, &laws).map_err(html_written)?;
    }
    let (mut event_count, mut matches, mut warnings, mut violations) = (0, 0, 0, 0);
    for e in games.events(&options) {
        if json {
            serde_json::to_writer(&mut out, &e)
                .map_err(std::io::Error::from)
                .and_then(|()| out.write_all(b"\n"))
                .map_err(written)?;
        } else if csv && formats {
            formats_csv_rows(&mut out, &e).map_err(written)?;
            for w in e.warnings() {
                eprintln!("warning: {}: {}", w.kind.name(), visible(&w.message));
            }
        } else if csv {
            csv_rows(&mut out, &e).map_err(written)?;
            for w in e.warnings() {
                eprintln!("warning: {}: {}", w.kind.name(), visible(&w.message));
            }
        } else {
            event_text(&mut out, &e, &options, event_count == 0).map_err(written)?;
        }
        if let Some(file) = html.as_mut() {
            standings_html::event_html(file, &e, event_count).map_err(html_written)?;
        }
        event_count += 1;
        matches += e.match_count();
        warnings += e.warning_count();
        violations += e.violation_count();
    }
    out.flush().map_err(written)?;
    if let Some(mut file) = html {
        standings_html::page_tail(&mut file)
            .and_then(|()| file.commit().map(|_| ()))
            .map_err(html_written)?;
    }
    eprintln!(
        "{} and {} in {}; {} ({})",
        count(games.len(), "game"),
        count(matches, "match"),
        count(event_count, "event"),
        count(warnings, "warning"),
        count(violations, "violation"),
    );
    if invalid > 0 {
        eprintln!(
            "note: {} errors (run drafti validate); results are used as written",
            match invalid {
                1 => "1 game has".to_string(),
                n => format!("{n} games have"),
            }
        );
    }
    run.tell_variants();
    Ok(ExitCode::from(u8::from(
        violations > 0 || !unreadable.is_empty(),
    )))
}

/// Standard output that stops writing, quietly, once the reader has gone (a closed pipe):
/// the standings are still computed, for the summary and the exit code.
struct Stdout<W: Write> {
    writer: W,
    closed: bool,
}

impl<W: Write> Write for Stdout<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.writer.write(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match self.writer.flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
            _ if self.closed => Ok(()),
            other => other,
        }
    }
}
