//! CSV cells for every table drafti writes (`standings --csv`, `openings --csv`, `puzzles
//! --format lichess`): RFC 4180 quoting, and the defence against spreadsheet formula
//! injection that OWASP advises for text taken from an archive.

use std::borrow::Cow;

/// A text cell: a value that begins with `=`, `+`, `-`, `@`, a tab or a carriage return
/// (which a spreadsheet would run as a formula: `=HYPERLINK(…)` in a player's name) gets a
/// `'` in front and is quoted, as OWASP's "CSV Injection" page advises; a value holding a
/// comma, a quote or a line break is quoted (quotes doubled). Numbers drafti computes are
/// written as they are, not through this (a goal difference of `-2` stays a number).
///
/// ```
/// use drafti_archive::csv::text_cell;
/// assert_eq!(text_cell("Amina"), "Amina");
/// assert_eq!(text_cell("Juma, Amina"), "\"Juma, Amina\"");
/// assert_eq!(text_cell("Amina \"Queen\""), "\"Amina \"\"Queen\"\"\"");
/// assert_eq!(text_cell("=1+1"), "\"'=1+1\"");
/// assert_eq!(text_cell("@SUM(A1)"), "\"'@SUM(A1)\"");
/// assert_eq!(text_cell("-2"), "\"'-2\"");
/// ```
pub fn text_cell(text: &str) -> Cow<'_, str> {
    let formula = text.starts_with(['=', '+', '-', '@', '\t', '\r']);
    if !formula && !text.contains([',', '"', '\n', '\r']) {
        return Cow::Borrowed(text);
    }
    let mut cell = String::with_capacity(text.len() + 4);
    cell.push('"');
    if formula {
        cell.push('\'');
    }
    cell.push_str(&text.replace('"', "\"\""));
    cell.push('"');
    Cow::Owned(cell)
}
