//! `drafti explore INDEX`: the opening explorer — from a position (a FEN, or moves from the
//! start), every move the indexed games played, with its results, score, average rating and
//! games.

use crate::args::{parse_fen, JsonArg, NotationArg};
use crate::db_filters::{open_index, FilterArgs};
use crate::error::{report_written, CliError, CommandResult};
use drafti_db::{
    explore, explore_rows, line_from_moves, normalised, query_variant, text, ExploreQuery,
};
use drafti_rules::{Color, Position};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
#[command(after_help = "\
Positions are those of the first 40 plies of every game, keyed exactly: transpositions join, \
and a position a game reaches twice counts once. A game in which Black moved first (Tanzanian \
rules) is looked at with the board turned, as drafti openings writes it. Results are counted \
as written; score% is the first mover's score over the games with a result. Every move played \
is listed; --games N lists N games of each (--games 0: none).")]
pub struct Args {
    /// The index (drafti index build).
    index: PathBuf,
    /// The position (numeric or algebraic FEN); default: the start.
    #[arg(long, value_parser = parse_fen, conflicts_with = "moves")]
    fen: Option<Position>,
    /// Moves from the start, White first: "c3-d4 d6-c5 b2-c3" (move numbers allowed).
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    moves: Option<String>,
    #[command(flatten)]
    filters: FilterArgs,
    /// Games listed for each move.
    #[arg(long, value_name = "N", default_value_t = 5)]
    games: usize,
    #[command(flatten)]
    notation: NotationArg,
    #[command(flatten)]
    json: JsonArg,
}

pub fn run(args: Args) -> CommandResult {
    let (index, books) = open_index(&args.index)?;
    let variant = query_variant(&index, args.filters.variant).map_err(|e| CliError::new(e.0))?;
    let filter = args.filters.resolve(&index, &books)?;
    let line = match (&args.fen, &args.moves) {
        (Some(p), _) => vec![normalised(p, Color::White)],
        (None, Some(m)) => {
            line_from_moves(m, variant).map_err(|e| CliError::new(format!("--moves: {e}")))?
        }
        (None, None) => vec![Position::start(Color::White)],
    };
    let query = ExploreQuery {
        line,
        variant,
        filter: &filter,
        max_games: args.games,
    };
    let seen = explore(&index, &books, &query)?;
    let rows = explore_rows(&index, &books, &seen, args.notation.numeric)?;
    let stdout = std::io::stdout();
    let mut out = BufWriter::new(stdout.lock());
    if args.json.json {
        for row in &rows {
            serde_json::to_writer(&mut out, row).map_err(|e| CliError::new(e.to_string()))?;
            writeln!(out)?;
        }
    } else {
        text::write_explore(&mut out, &rows)?;
    }
    report_written(out.flush())?;
    Ok(ExitCode::SUCCESS)
}
