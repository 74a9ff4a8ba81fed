//! `drafti analyze`: every valid game searched position by position; inaccuracies, mistakes
//! and blunders per side with accuracy, as text, JSON Lines, or an annotated PDN archive.
//!
//! ```text
//! FILES ──drafti_analysis::batch::analyse_archive (--jobs threads, input order)──▶
//!       each game with its analysis: stdout (text | JSON Lines of drafti_analysis::json),
//!       --pdn OUT; the summary on stderr
//! ```
//! Invalid games are reported (their errors) and skipped. The output depends only on the
//! input and the search limits, never on `--jobs`.

use crate::args::{InputArgs, JsonArg, SearchArgs, ShardArg};
use crate::error::{CliError, CommandResult};
use crate::files::{refuse_input_as_output, OutputFile};
use crate::runner::{open_refusing_wrong_variant, run_analysis, Output};
use drafti_analysis::batch::{ArchiveGame, ArchiveOptions};
use drafti_analysis::{annotate, json};
use drafti_archive::replay::set_game_type;
use drafti_pdn::write_game_to;
use drafti_report::text::analysis::{game_text, skipped_text};
use drafti_report::{counted, thousands};
use drafti_rules::Variant;
use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    search: SearchArgs,
    #[command(flatten)]
    json: JsonArg,
    /// Flat JSON Lines on stdout for data tools: one object per move of every analysed game,
    /// with the game's keys (file, index, white, black, result, variant) and the move's
    /// numbers (scores, win chances, accuracy, judgement, best, pv); no nesting.
    #[arg(long, conflicts_with = "json")]
    json_moves: bool,
    /// Also write the games to OUT with NAGs ($6 ?!, $2 ?, $4 ??) and comments on the
    /// flagged moves.
    #[arg(long, value_name = "OUT")]
    pdn: Option<String>,
    #[command(flatten)]
    shard: ShardArg,
}

/// What the analysis of the games adds to the totals.
#[derive(Default)]
struct Totals {
    games: u64,
    analysed: u64,
    invalid: u64,
    positions: u64,
    flagged: [u64; 3],
}

/// The annotated PDN's `Annotator` tag: the program, its engine and the analysis settings.
fn annotator(search: &str) -> String {
    format!(
        "drafti {} (engine {}): {search}",
        env!("CARGO_PKG_VERSION"),
        drafti_engine::Engine::fingerprint()
    )
}

/// Where the games go, in input order.
struct Writer<'a> {
    search: &'a str,
    /// `--json-moves`: one row per move.
    json_moves: bool,
    /// `--variant`: the GameType tag of the games written with `--pdn`.
    variant: Option<Variant>,
    json: bool,
    /// The JSON's `run`, until the first line takes it.
    run: Option<json::Run>,
    out: &'a mut dyn Write,
    pdn: Option<std::io::BufWriter<OutputFile>>,
    pdn_games: u64,
    totals: Totals,
}

impl Writer<'_> {
    fn write(&mut self, g: ArchiveGame) -> std::io::Result<()> {
        self.totals.games += 1;
        let text = if self.json {
            let line = json::Game::of(&g, self.search, self.run.take());
            let mut text = serde_json::to_string(&line).expect("serializable");
            text.push('\n');
            text
        } else if self.json_moves {
            let line = json::Game::of(&g, self.search, None);
            let mut text = String::new();
            for row in line.move_rows() {
                text.push_str(&serde_json::to_string(&row).expect("serializable"));
                text.push('\n');
            }
            text
        } else {
            match (g.analysable(), &g.analysis) {
                (Some(game), Some(a)) => game_text(&g, game, a),
                _ => skipped_text(&g),
            }
        };
        match (g.analysable(), &g.analysis) {
            (Some(game), Some(a)) => {
                self.totals.analysed += 1;
                self.totals.positions += a.positions as u64;
                for side in [&a.white, &a.black] {
                    self.totals.flagged[0] += side.inaccuracies as u64;
                    self.totals.flagged[1] += side.mistakes as u64;
                    self.totals.flagged[2] += side.blunders as u64;
                }
                if let Some(pdn) = &mut self.pdn {
                    let mut record = game.record.clone();
                    // Under --variant, the file says which rules it was read by.
                    if let Some(variant) = self.variant {
                        set_game_type(&mut record, variant);
                    }
                    // The record says what judged it, as the text and JSON headers do.
                    record.set_tag("Annotator", annotator(self.search));
                    annotate(&mut record, game, a, json::is_numeric(game));
                    let mut s = String::new();
                    if self.pdn_games > 0 {
                        s.push('\n');
                    }
                    write_game_to(&record, &mut s);
                    pdn.write_all(s.as_bytes())?;
                    self.pdn_games += 1;
                }
            }
            _ => {
                self.totals.invalid += 1;
                if let Some(pdn) = &mut self.pdn {
                    // Written back untouched.
                    let raw = String::from_utf8_lossy(&g.raw.bytes);
                    let raw = raw.trim();
                    if self.pdn_games > 0 {
                        pdn.write_all(b"\n")?;
                    }
                    pdn.write_all(raw.as_bytes())?;
                    pdn.write_all(b"\n")?;
                    self.pdn_games += 1;
                }
            }
        }
        self.out.write_all(text.as_bytes())
    }
}

pub fn run(args: Args) -> CommandResult {
    if let Some(path) = &args.pdn {
        refuse_input_as_output("--pdn", std::path::Path::new(path), &args.input.files)?;
    }
    // Hours of searching under the wrong rules, refused before they start (files only:
    // stdin streams, game by game).
    let opened = open_refusing_wrong_variant(&args.input, args.shard.shard, Output::PerGame)?;
    let (variant, shard) = (args.input.variant(), args.shard.shard);
    let mut options = args.search.options();
    options.tables = args
        .search
        .tables
        .for_analysis(opened.variants.as_deref(), args.input.jobs.threads())?;
    let tables = options.tables.sets();
    let pdn = match &args.pdn {
        // stdout carries the report (text or JSON), so the PDN cannot go there too.
        Some(path) if path == "-" => {
            return Err(CliError::new(
                "--pdn -: stdout carries the analysis; give --pdn a file name",
            ))
        }
        // Written beside OUT and renamed when complete: an older OUT stays until then.
        Some(path) => Some(std::io::BufWriter::new(OutputFile::create(
            std::path::Path::new(path),
        )?)),
        None => None,
    };
    let search = options.label();
    let archive = ArchiveOptions {
        shard,
        replay: args.input.replay(),
        ..ArchiveOptions::new(options)
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let started = Instant::now();
    let inputs: Vec<String> = opened.inputs.iter().map(|i| i.name.clone()).collect();
    let json = args.json.json;
    let mut writer = Writer {
        search: &search,
        json_moves: args.json_moves,
        variant,
        json,
        run: json.then(|| json::Run::new(inputs, shard, variant).with_tables(tables)),
        out: &mut out,
        pdn,
        pdn_games: 0,
        totals: Totals::default(),
    };
    let jobs = args.input.jobs;
    let run = run_analysis(
        opened.inputs,
        opened.total_bytes,
        &archive,
        jobs,
        Output::PerGame,
        |g| g,
        |g| {
            writer
                .write(g)
                .map_err(|e| CliError::writing("the report", &e))
        },
    )?;
    let written = writer.out.flush().and_then(|()| match writer.pdn.take() {
        Some(p) => p
            .into_inner()
            .map_err(|e| e.into_error())?
            .commit()
            .map(drop),
        None => Ok(()),
    });
    written.map_err(|e| CliError::writing("the report", &e))?;
    let (t, summary, jobs) = (&writer.totals, &run.batch, jobs.threads());
    let secs = started.elapsed().as_secs_f64();
    let rate = if secs > 0.0 {
        (t.positions as f64 / secs) as u64
    } else {
        0
    };
    let shard = match shard {
        Some(s) => format!(" (shard {s}; {} left to other shards)", summary.skipped),
        None => String::new(),
    };
    eprintln!(
        "{}{shard}: {} analysed, {} invalid (skipped); {} at {} on {}: {}, {}, {}; {:.2} s, {} positions/s",
        counted(t.games, "game", "games"),
        thousands(t.analysed),
        thousands(t.invalid),
        counted(t.positions, "position", "positions"),
        search,
        counted(jobs as u64, "thread", "threads"),
        counted(t.flagged[0], "inaccuracy", "inaccuracies"),
        counted(t.flagged[1], "mistake", "mistakes"),
        counted(t.flagged[2], "blunder", "blunders"),
        secs,
        thousands(rate)
    );
    run.tell_variants();
    Ok(ExitCode::from(u8::from(t.invalid > 0)))
}
