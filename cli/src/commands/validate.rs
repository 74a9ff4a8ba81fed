//! `drafti validate`: every game of every file replayed through the rules; problems reported
//! like a compiler's (or as JSON Lines), a summary on stderr, exit 1 if any game is invalid.
//! What a game's check finds is `drafti_archive::validation`'s, its text
//! `drafti_report::text::diagnostic`'s; this module holds the flags and the run.

use crate::args::{InputArgs, JsonArg, ShardArg};
use crate::error::{exit_code, CliError, CommandResult};
use crate::runner::{run_archive, Output};
use drafti_archive::batch::GameJob;
use drafti_archive::replay::ReplayOptions;
use drafti_archive::validation::{validated, GameLine, Validated};
use drafti_report::text::diagnostic::{game_label, write_problem};
use drafti_report::thousands;
use std::io::Write;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: InputArgs,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    shard: ShardArg,
    /// Do not print warnings (human output only; they are still counted).
    #[arg(long)]
    no_warnings: bool,
}

/// What the workers hand back for one game.
struct Report {
    text: String,
    valid: bool,
    warnings: u64,
    plies: u64,
}

fn report(job: GameJob<'_>, json: bool, show_warnings: bool, options: &ReplayOptions) -> Report {
    let GameJob {
        file, raw, game, ..
    } = job;
    let mut text = String::new();
    let game = match validated(game, options) {
        Validated::Game(game) => game,
        Validated::Unreadable(problem) => {
            if json {
                text = json_line(&GameLine::of_unreadable(file, raw, &problem));
            } else {
                let label = format!("game {} (unreadable)", raw.index + 1);
                write_problem(&mut text, file, raw, &label, &problem);
            }
            return Report {
                text,
                valid: false,
                warnings: 0,
                plies: 0,
            };
        }
    };
    let valid = game.is_valid();
    let warnings = game.warnings().count() as u64;
    if json {
        text = json_line(&GameLine::of_game(file, raw, &game));
    } else if !valid || (show_warnings && warnings > 0) {
        let label = game_label(&game.record.tags, raw.index);
        for p in &game.problems {
            if p.is_error() || show_warnings {
                write_problem(&mut text, file, raw, &label, p);
            }
        }
    }
    Report {
        text,
        valid,
        warnings,
        plies: game.moves.len() as u64,
    }
}

fn json_line(line: &GameLine<'_>) -> String {
    let mut text = serde_json::to_string(line).expect("a game line serializes");
    text.push('\n');
    text
}

pub fn run(args: Args) -> CommandResult {
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, stdout.lock());
    let (mut valid, mut invalid, mut warnings, mut plies) = (0u64, 0u64, 0u64, 0u64);
    let (json, show_warnings) = (args.json.json, !args.no_warnings);
    let replay = args.input.replay();
    let run = run_archive(
        &args.input,
        args.shard.shard,
        Output::PerGame,
        |job| report(job, json, show_warnings, &replay),
        |r: Report| -> std::io::Result<()> {
            if r.valid {
                valid += 1;
            } else {
                invalid += 1;
            }
            warnings += r.warnings;
            plies += r.plies;
            out.write_all(r.text.as_bytes())
        },
    )?;
    out.flush()
        .map_err(|e| CliError::writing("the report", &e))?;
    let games = run.batch.games;
    eprintln!(
        "{} {} in {}{}: {} valid, {} invalid, {} {}, {} plies; {:.2} s, {} games/s",
        thousands(games),
        if games == 1 { "game" } else { "games" },
        run.files_text(),
        run.shard_text(args.shard.shard),
        thousands(valid),
        thousands(invalid),
        thousands(warnings),
        if warnings == 1 { "warning" } else { "warnings" },
        thousands(plies),
        run.batch.elapsed.as_secs_f64(),
        thousands(run.rate(games))
    );
    run.tell_variants();
    Ok(exit_code(invalid > 0))
}
