//! `drafti search`: the engine on one position — iterative deepening with a line per
//! completed depth, then the best move (or the K best with `--multipv`).
//!
//! Text output: one line per completed depth (and per line with `--multipv`): depth, score
//! (hundredths of a man as `+0.35`, or `win in N` / `loss in N` plies), nodes, nodes per
//! second and the principal variation in PDN notation; then the best move.
//!
//! `--json` prints JSON Lines instead (`drafti_engine::json`): one object per completed
//! depth, then one final object. Both carry: `type` (`"depth"` or `"result"`), `depth`,
//! `seldepth`, `nodes`, `nps`, `time_ms`, `score` (a score's one JSON form: `cp`, `win_in`,
//! `loss_in`, `text`), `pv` (moves in PDN notation) and `lines` (the best lines, one per
//! `--multipv`, each with `move`, `score`, `pv`). The final object adds `best` (the best
//! move, `null` when the game is over at the root) and `outcome` (`null`, or why the game is
//! over at the root).
//!
//! `--moves`: the position searched is the one the moves reach from `--fen`, played as a game,
//! and the search goes on from that game's draw counts and (where repetition draws) its
//! earlier positions, as the analysis searches a game's positions.
//!
//! Tanzanian law 3: where the side to move may crown the opponent's man (its lone king
//! against two kings and a man, a king on the main diagonal), the text adds a `claim` line
//! with the claim's value, and the final JSON object a `claim` object (`score`, and `best`:
//! whether it is better than every move); the result's score is then the better of the best
//! move's and the claim's.

use crate::args::{HashArg, JsonArg, KingCountArg, NotationArg, PositionArgs};
use crate::error::{report_written, CliError, CommandResult};
use crate::tables::TableArgs;
use drafti_analysis::repetition_draws;
use drafti_engine::json::{DepthLine, ResultLine};
use drafti_engine::{DepthInfo, Engine, Limits, SearchResult, DEFAULT_DEPTH};
use drafti_rules::{numbered_line, Game, Move, Position, Variant};
use std::io::Write;
use std::process::ExitCode;
use std::time::Duration;

#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Search to this depth in plies (default 12, a fraction of a second; capture sequences go further).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100),
          conflicts_with_all = ["nodes", "movetime"])]
    depth: Option<u32>,
    /// Search about this many nodes: the deepest iteration completed within them. Gives the
    /// same result on every run.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), conflicts_with = "movetime")]
    nodes: Option<u64>,
    /// Search for this many milliseconds (interactive use; the result depends on the machine).
    #[arg(long, value_name = "MS", value_parser = clap::value_parser!(u64).range(1..))]
    movetime: Option<u64>,
    /// Find the K best moves, each with its score and line.
    #[arg(long, value_name = "K", default_value_t = 1,
          value_parser = clap::value_parser!(u64).range(1..=256))]
    multipv: u64,
    /// Moves played from --fen to the position searched, as a game ("c3-d4 d6-c5", move
    /// numbers allowed): the search counts on from the game's draw counts (law 2's, TzDraft's
    /// server's) and, where the rules draw a repetition (Czech, Russian, TzDraft), knows its
    /// earlier positions. --king-count, if given, overrides law 2's count.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    moves: Option<String>,
    #[command(flatten)]
    king_count: KingCountArg,
    #[command(flatten)]
    hash: HashArg,
    #[command(flatten)]
    json: JsonArg,
    #[command(flatten)]
    numeric: NotationArg,
    #[command(flatten)]
    tables: TableArgs,
}

/// The game of `moves` from `start` (none: the game of `start` alone), and the keys of its
/// positions before the last that a search can meet again.
fn game_after(
    start: Position,
    variant: Variant,
    moves: Option<&str>,
) -> Result<(Game, Vec<u64>), CliError> {
    let mut game = Game::new(start, variant);
    let Some(text) = moves else {
        return Ok((game, Vec::new()));
    };
    let line = start
        .parse_line(variant, text)
        .map_err(|e| CliError::new(format!("--moves: {e}")))?;
    let mut history = Vec::with_capacity(line.len());
    for (i, mv) in line.iter().enumerate() {
        if let Some(outcome) = game.outcome() {
            return Err(CliError::new(format!(
                "--moves: the game is over before move {} ({outcome})",
                i + 1
            )));
        }
        if repetition_draws(variant) {
            history.push(game.position().hash_key());
        }
        game.play(mv);
    }
    if let Some(outcome) = game.outcome() {
        return Err(CliError::new(format!(
            "--moves: the game is over after them ({outcome}): nothing to search"
        )));
    }
    Ok((game, history))
}

pub fn run(args: Args) -> CommandResult {
    let variant = args.position.variant();
    let (game, history) = game_after(args.position.position(), variant, args.moves.as_deref())?;
    let pos = *game.position();
    let mut limits = Limits {
        depth: match (args.depth, args.nodes, args.movetime) {
            (Some(d), _, _) => Some(d),
            (None, None, None) => Some(DEFAULT_DEPTH),
            _ => None,
        },
        nodes: args.nodes,
        movetime: args.movetime.map(Duration::from_millis),
        multipv: args.multipv as usize,
        ..Limits::default()
    }
    .with_game_counts(&game);
    if let Some(n) = args.king_count.king_count {
        limits.king_count = Some(n);
    }
    let (numeric, json) = (args.numeric.numeric, args.json.json);
    let mut engine = Engine::new(variant, args.hash.hash as usize);
    engine.set_tables(args.tables.for_variant(variant)?)?;
    let notation = |line: &[Move]| pos.line_notation(variant, line, numeric);

    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let mut io_error: Option<std::io::Error> = None;
    if !json {
        report_written(writeln!(
            out,
            "{:>5}  {:>9}  {:>11}  {:>9}  pv",
            "depth", "score", "nodes", "nodes/s"
        ))?;
    }
    // A write error stops the search: nobody reads what it would find.
    let stop = engine.stop_flag();
    let on_depth = |info: &DepthInfo| {
        let written = if json {
            serde_json::to_string(&DepthLine::of(info, notation))
                .map_err(std::io::Error::other)
                .and_then(|text| writeln!(out, "{text}"))
        } else {
            let mut result = Ok(());
            for (k, line) in info.lines.iter().enumerate() {
                let depth = if info.lines.len() > 1 {
                    format!("{}/{}", info.depth, k + 1)
                } else {
                    info.depth.to_string()
                };
                let pv = numbered_line(pos.turn(), &pos.line_notation(variant, &line.pv, numeric));
                result = result.and(writeln!(
                    out,
                    "{depth:>5}  {:>9}  {:>11}  {:>9}  {pv}",
                    line.score.to_string(),
                    info.nodes,
                    info.nps()
                ));
            }
            result
        };
        if let Err(e) = written {
            io_error.get_or_insert(e);
            stop.raise();
        }
    };
    let result: SearchResult = engine.search(&pos, &limits, &history, on_depth);
    if let Some(e) = io_error {
        return Err(CliError::writing("the report", &e));
    }

    if json {
        let json = ResultLine::of(&result, notation);
        report_written(writeln!(out, "{}", serde_json::to_string(&json)?))?;
        return Ok(ExitCode::SUCCESS);
    }
    let outcome = result.outcome.map(|o| o.to_string());
    report_written(write_result(&mut out, &result, outcome, |mv| {
        pos.line_notation(variant, &[*mv], numeric).remove(0)
    }))?;
    Ok(ExitCode::SUCCESS)
}

/// The text after the depths: the best move (and the others with `--multipv`), or why
/// there is none.
fn write_result(
    out: &mut impl Write,
    result: &SearchResult,
    outcome: Option<String>,
    name: impl Fn(&drafti_rules::Move) -> String,
) -> std::io::Result<()> {
    match (result.best, outcome) {
        (_, Some(outcome)) => writeln!(out, "game over: {outcome}")?,
        (None, None) => writeln!(out, "no move to search")?,
        (Some(best), None) => {
            let best = name(&best);
            writeln!(
                out,
                "best {best}  score {}  depth {}  nodes {}  time {:.2} s",
                result.score,
                result.depth,
                result.nodes,
                result.elapsed.as_secs_f64()
            )?;
            if result.lines.len() > 1 {
                for (k, line) in result.lines.iter().enumerate() {
                    let mv = name(&line.pv[0]);
                    writeln!(out, "{:>3}. {mv:<10} {}", k + 1, line.score)?;
                }
            }
            if let Some(claim) = result.claim {
                let better = if result.claim_is_best() {
                    ", better than every move"
                } else {
                    ""
                };
                writeln!(
                    out,
                    "claim law 3 (crown the man, law 2's count from 0)  score {claim}{better}"
                )?;
            }
        }
    }
    Ok(())
}
