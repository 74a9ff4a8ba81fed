//! The tables of `drafti openings` as text, JSON Lines and CSV, written to the writer it is
//! handed (the statistics are `drafti_archive::openings`'s). Text from the archive or a book
//! (names, codes, files) is shown with its control characters made [`visible`].

use crate::{one_decimal, visible};
use drafti_archive::csv::text_cell;
use drafti_archive::openings::{
    Book, Candidate, RowKind, StatsRow, TableEnd, CLASSIFY_PLIES, CSV_HEADER,
};
use serde::Serialize;
use std::io::Write;

/// The output's form: text tables, JSON Lines or CSV.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Aligned tables for a reader.
    Text,
    /// One JSON object a line.
    Json,
    /// Comma-separated values with a header.
    Csv,
}

/// One game, as `--per-game --json` prints it.
#[derive(Serialize)]
pub struct PerGame<'a> {
    /// The input the game is in.
    pub file: &'a str,
    /// Its number in that file, from 1.
    pub index: usize,
    /// `white` or `black`: who moved first.
    pub first_mover: &'static str,
    /// The game's result as written (`1-0`, …), empty when none.
    pub result: &'static str,
    /// The plies the game has.
    pub plies: usize,
    /// The opening's code in the book, empty when no book position was reached.
    pub code: &'a str,
    /// The opening's name, `(no book position)` when none was reached.
    pub name: &'a str,
    /// The ply at which the game reached the opening's position.
    pub ply: Option<usize>,
    /// The opening's moves as the book gives them.
    pub moves: &'a str,
}

/// The header of `--per-game --csv`.
pub const PER_GAME_CSV: &str = "file,index,first_mover,result,plies,code,name,ply,moves";

/// The statistics `rows` (with the `all` row first) in `format`; the text names `book`'s size.
pub fn write_rows(
    out: &mut impl Write,
    book: &Book,
    rows: &[StatsRow],
    format: Format,
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            for r in rows {
                writeln!(out, "{}", serde_json::to_string(r)?)?;
            }
            // The closing line: `merge` tells a part cut short by it.
            writeln!(out, "{}", serde_json::to_string(&TableEnd::of(rows))?)?;
        }
        Format::Csv => {
            writeln!(out, "{CSV_HEADER}")?;
            for r in rows {
                writeln!(out, "{}", r.to_csv())?;
            }
        }
        Format::Text => print_text(out, book, rows)?,
    }
    Ok(())
}

/// One game of `--per-game` in `format`.
pub fn write_per_game(
    out: &mut impl Write,
    g: &PerGame<'_>,
    format: Format,
) -> std::io::Result<()> {
    match format {
        Format::Json => writeln!(out, "{}", serde_json::to_string(g)?),
        Format::Csv => {
            let fields = [
                text_cell(g.file).into_owned(),
                g.index.to_string(),
                g.first_mover.to_string(),
                g.result.to_string(),
                g.plies.to_string(),
                text_cell(g.code).into_owned(),
                text_cell(g.name).into_owned(),
                g.ply.map(|p| p.to_string()).unwrap_or_default(),
                text_cell(g.moves).into_owned(),
            ];
            writeln!(out, "{}", fields.join(","))
        }
        Format::Text => {
            let at = g.ply.map(|p| format!(" (ply {p})")).unwrap_or_default();
            writeln!(
                out,
                "{}#{}\t{} first\t{}\t{}\t{}{at}",
                visible(g.file),
                g.index,
                g.first_mover,
                if g.result.is_empty() { "?" } else { g.result },
                visible(if g.code.is_empty() { "-" } else { g.code }),
                visible(g.name)
            )
        }
    }
}

/// The counting columns of the text tables.
fn columns(r: &StatsRow) -> String {
    let t = &r.tally;
    format!(
        "{:>7} {:>6} {:>6} {:>6} {:>5} {:>6} {:>7} {:>6}",
        t.games,
        t.white_wins,
        t.draws,
        t.black_wins,
        t.unknown,
        t.black_first,
        one_decimal(r.score_pct, "", "-"),
        one_decimal(r.avg_plies, "", "-")
    )
}

const COLUMNS_HEADER: &str = "  games    1-0   draw    0-1     * Bfirst  score%  plies";

fn print_text(out: &mut impl Write, book: &Book, rows: &[StatsRow]) -> std::io::Result<()> {
    let Some(all) = rows.iter().find(|r| r.kind == RowKind::All) else {
        return Ok(());
    };
    let t = &all.tally;
    writeln!(
        out,
        "{} games ({} White first, {} Black first): {} 1-0, {} draws, {} 0-1, {} without result; book of {} positions",
        t.games, t.white_first, t.black_first, t.white_wins, t.draws, t.black_wins, t.unknown,
        book.len()
    )?;
    let min = all.min_games.unwrap_or(1);
    let filter = if min > 1 {
        format!(", at least {min} games")
    } else {
        String::new()
    };
    let openings: Vec<&StatsRow> = rows.iter().filter(|r| r.kind == RowKind::Opening).collect();
    writeln!(
        out,
        "\nOpenings (the deepest book position in the first {CLASSIFY_PLIES} plies{filter})"
    )?;
    let code_width = openings
        .iter()
        .map(|r| r.code.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    writeln!(out, "{:code_width$} {COLUMNS_HEADER}  name", "code")?;
    for r in &openings {
        let code = if r.code.is_empty() { "-" } else { &r.code };
        let line = format!("{code:code_width$} {}  {}", columns(r), r.name);
        writeln!(out, "{}", visible(line.trim_end()))?;
    }
    let tree: Vec<&StatsRow> = rows.iter().filter(|r| r.kind == RowKind::Tree).collect();
    let depth = all.tree_plies.unwrap_or(0);
    writeln!(
        out,
        "\nTree (first {depth} plies of the games from the standard start{filter})"
    )?;
    let labels: Vec<String> = tree.iter().map(|r| tree_label(r)).collect();
    let width = labels
        .iter()
        .map(|l| l.chars().count())
        .max()
        .unwrap_or(0)
        .max(4);
    writeln!(out, "{:width$} {COLUMNS_HEADER}  code", "line")?;
    for (r, label) in tree.iter().zip(&labels) {
        let line = format!("{label:width$} {}  {}", columns(r), r.code);
        writeln!(out, "{}", visible(line.trim_end()))?;
    }
    writeln!(
        out,
        "\nLines are written as if White had started (Black-first games are mirrored; Bfirst \
         counts them).\n1-0 and 0-1 are the results as written. score% is the first mover's \
         score: 100 x (first-mover wins + draws/2) / games with a result. plies: average length."
    )?;
    Ok(())
}

/// `  1... d6-e5`: the last move with its number, indented by depth.
fn tree_label(r: &StatsRow) -> String {
    let moves = r.move_list();
    let Some(last) = moves.last() else {
        return "(start)".to_string();
    };
    let ply = moves.len() - 1;
    let number = if ply & 1 == 0 {
        format!("{}.", ply / 2 + 1)
    } else {
        format!("{}...", ply / 2 + 1)
    };
    format!("{}{number} {last}", "  ".repeat(ply))
}

/// The candidates `--discover` found among `rows`, in `format`.
pub fn write_candidates(
    out: &mut impl Write,
    rows: &[StatsRow],
    found: &[Candidate],
    format: Format,
) -> std::io::Result<()> {
    match format {
        Format::Json => {
            for c in found {
                writeln!(out, "{}", serde_json::to_string(c)?)?;
            }
        }
        Format::Csv => {
            writeln!(
                out,
                "depth,moves,code,fen,games,white_wins,draws,black_wins,unknown,black_first,score_pct"
            )?;
            for c in found {
                let t = &c.tally;
                writeln!(
                    out,
                    "{},{},{},{},{},{},{},{},{},{},{}",
                    c.depth,
                    text_cell(&c.moves).into_owned(),
                    text_cell(&c.code).into_owned(),
                    text_cell(&c.fen).into_owned(),
                    t.games,
                    t.white_wins,
                    t.draws,
                    t.black_wins,
                    t.unknown,
                    t.black_first,
                    t.score_pct().map(|x| x.to_string()).unwrap_or_default()
                )?;
            }
        }
        Format::Text => {
            let all = rows.iter().find(|r| r.kind == RowKind::All);
            let depth = all.and_then(|r| r.tree_plies).unwrap_or(0);
            writeln!(
                out,
                "Frequent lines the book does not name (positions in the first {depth} plies, \
                 transpositions added up; most games first):"
            )?;
            writeln!(out, "{:>7} {:>7} {:>5}  moves", "games", "score%", "plies")?;
            for c in found {
                writeln!(
                    out,
                    "{:>7} {:>7} {:>5}  {}",
                    c.tally.games,
                    one_decimal(c.tally.score_pct(), "", "-"),
                    c.depth,
                    c.moves
                )?;
            }
            if !found.is_empty() {
                writeln!(
                    out,
                    "\nBook rows to start from (rename the code and name, save as TSV, pass with --book):"
                )?;
                for c in found {
                    writeln!(out, "{}", c.book_row)?;
                }
            }
        }
    }
    Ok(())
}
