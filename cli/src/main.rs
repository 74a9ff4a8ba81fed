//! `drafti`: validate, analyse and study archives of Tanzanian draughts games.
//!
//! The binary owns flags, output and exit codes; the library crates never print. Exit codes:
//! 0 success (every game valid), 1 the input has invalid games, 2 usage or I/O error.
// The binary talks to the terminal; stdout goes through writers whose errors are handled.
#![allow(clippy::print_stderr, clippy::exit)]
#![forbid(unsafe_code)]

mod commands;
mod db_filters;
mod report;
mod runner;

// The flag groups, errors and output files, in the crate's library (drafti-lab shares them),
// under the names every command uses.
use drafti_cli::{args, error, files, input, match_runner, progress, tables};

use clap::{Parser, Subcommand};
use std::io::Write;
use std::process::ExitCode;

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// drafti — a toolkit for game records of Tanzanian draughts (and Czech, Russian).
#[derive(Parser)]
#[command(name = "drafti", version, about, long_about = None, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Replay every game of PDN files through the rules and report what is wrong.
    Validate(commands::validate::Args),
    /// Search every position of every valid game: inaccuracies, mistakes, blunders, accuracy.
    Analyze(commands::analyze::Args),
    /// Match results, start-order checks and knockout standings by the Tanzanian laws.
    Standings(commands::standings::Args),
    /// Rewrite PDN records canonically (notation, full capture paths where needed).
    Fmt(commands::fmt::Args),
    /// Play games by machine and print them as PDN (--random: random legal moves).
    Selfplay(commands::selfplay::Args),
    /// Classify games by opening; statistics per opening and as a move tree.
    Openings(commands::openings::Args),
    /// The opening explorer over an index: every move played from a position, its results and games.
    Explore(commands::explore::Args),
    /// Select games of an index by tag, position, material or pattern; --twins: repeated games.
    Find(commands::find::Args),
    /// Build the game index explore and find read (index build, merge, info).
    #[command(subcommand_required = true)]
    Index(commands::index::Args),
    /// Validate, analyse and classify in one pass: summary, blunders per player, openings, --html.
    Report(commands::report::Args),
    /// Puzzles from real games: one winning move, its unique solution (text, JSON, PDN, HTML).
    Puzzles(commands::puzzles::Args),
    /// Count move sequences from a position (move generator check and speed).
    Perft(commands::perft::Args),
    /// List the legal moves of a position.
    Moves(commands::moves::Args),
    /// Draw a position as text, or as an SVG diagram.
    Show(commands::show::Args),
    /// Search a position with the engine: best move, score and principal variation.
    Search(commands::search::Args),
    /// The engine as a Hub protocol (version 2) engine on stdin/stdout, for GUIs and matches.
    Hub(commands::hub::Args),
    /// Play two Hub engines against each other: W/D/L, Elo, SPRT, the games as PDN.
    Match(commands::r#match::Args),
    /// Endgame tables: build, probe, verify, list (every position with few pieces, solved).
    #[command(subcommand_required = true)]
    Egtb(commands::egtb::Args),
    /// Games from other platforms as PDN, replayed: `import tzdraft` reads TzDraft's JSON.
    #[command(subcommand_required = true)]
    Import(commands::import::Args),
    /// Time drafti's hot paths on fixed work: perft, PDN writing and parsing, replay, search.
    Bench(commands::bench::Args),
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if e.use_stderr() => {
            // A usage error, on stderr: nowhere left to report a failure to write it.
            let _ = e.print();
            return ExitCode::from(2);
        }
        // --help, --version, `help`: on stdout, whose write errors count as for any output
        // (a full disk), a reader that went away as for any report.
        Err(e) => {
            let what = match e.kind() {
                clap::error::ErrorKind::DisplayVersion => "the version",
                _ => "the help",
            };
            let written = e.print().and_then(|()| std::io::stdout().flush());
            return match written.map_err(|e| error::CliError::writing(what, &e)) {
                Ok(()) => ExitCode::SUCCESS,
                Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("drafti: {e}");
                    ExitCode::from(2)
                }
            };
        }
    };
    let result = match cli.command {
        Command::Validate(args) => commands::validate::run(args),
        Command::Analyze(args) => commands::analyze::run(args),
        Command::Standings(args) => commands::standings::run(args),
        Command::Fmt(args) => commands::fmt::run(args),
        Command::Selfplay(args) => commands::selfplay::run(args),
        Command::Openings(args) => commands::openings::run(args),
        Command::Explore(args) => commands::explore::run(args),
        Command::Find(args) => commands::find::run(args),
        Command::Index(args) => commands::index::run(args),
        Command::Report(args) => commands::report::run(args),
        Command::Puzzles(args) => commands::puzzles::run(args),
        Command::Perft(args) => commands::perft::run(args),
        Command::Moves(args) => commands::moves::run(args),
        Command::Show(args) => commands::show::run(args),
        Command::Search(args) => commands::search::run(args),
        Command::Bench(args) => commands::bench::run(args),
        Command::Hub(args) => commands::hub::run(args),
        Command::Match(args) => commands::r#match::run(args),
        Command::Egtb(args) => commands::egtb::run(args),
        Command::Import(args) => commands::import::run(args),
    };
    match result {
        Ok(code) => code,
        // The reader of stdout went away (`drafti … | head`): it has what it wanted. This is
        // the one broken-pipe policy: every command writes through writers whose errors it
        // returns (clippy's print_stdout forbids println!, which would panic here instead).
        Err(e) if e.is_broken_pipe() => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("drafti: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    /// clap checks the declarations (conflicts, requirements, the names `mut_arg` changes)
    /// only in debug builds: every command, once, here.
    #[test]
    fn every_command_is_declared_consistently() {
        super::Cli::command().debug_assert();
    }
}
