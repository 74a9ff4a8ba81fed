//! The standings' aligned text columns, shared by the tables of every format.

use crate::visible;
use std::io::Write;

/// Left-aligned columns, two spaces apart, widths in characters: `rows` gives the rows
/// afresh each time it is called, once to measure the columns and once to write them, so a
/// long table is never held whole.
pub(crate) fn table<W: Write, I: Iterator<Item = Vec<String>>>(
    out: &mut W,
    indent: &str,
    rows: impl Fn() -> I,
) -> std::io::Result<()> {
    let mut widths: Vec<usize> = Vec::new();
    for row in rows() {
        if widths.len() < row.len() {
            widths.resize(row.len(), 0);
        }
        for (c, cell) in row.iter().enumerate() {
            widths[c] = widths[c].max(visible(cell).chars().count());
        }
    }
    let mut line = String::new();
    for row in rows() {
        line.clear();
        line.push_str(indent);
        for (c, cell) in row.iter().enumerate() {
            let cell = visible(cell);
            line.push_str(&cell);
            if c + 1 < row.len() {
                let pad = widths[c] - cell.chars().count();
                line.extend(std::iter::repeat_n(' ', pad + 2));
            }
        }
        writeln!(out, "{}", line.trim_end())?;
    }
    Ok(())
}
