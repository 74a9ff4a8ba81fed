//! The puzzles in one of `drafti puzzles`' stdout formats ([`Format`]).

use super::{count, lichess, tzdraft, write_entries};
use drafti_analysis::puzzles::Entry;

/// What `drafti puzzles` writes on stdout.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Format {
    /// [`text_entry`](super::text_entry) per puzzle.
    #[default]
    Text,
    /// JSON Lines, [`json_entry`](super::json_entry) per puzzle.
    Json,
    /// TzDraft's puzzle JSON, one per line ([`tzdraft`]).
    Tzdraft,
    /// lichess's puzzle CSV, its header first ([`lichess`]).
    Lichess,
}

/// The puzzles `entries`, numbered from 1, in `format`. Returns how many puzzles the
/// format cannot hold and were left out (TzDraft: not Tanzanian; lichess: no move before
/// the puzzle in any source game).
pub fn write_format(
    out: &mut impl std::io::Write,
    entries: &[Entry],
    format: Format,
) -> std::io::Result<usize> {
    let one: fn(&Entry) -> Option<String> = match format {
        Format::Text | Format::Json => {
            write_entries(out, entries, format == Format::Json)?;
            return Ok(0);
        }
        Format::Tzdraft => tzdraft::line,
        Format::Lichess => {
            out.write_all(lichess::HEADER.as_bytes())?;
            lichess::row
        }
    };
    let mut left_out = 0;
    for e in entries {
        match one(e) {
            Some(text) => out.write_all(text.as_bytes())?,
            None => left_out += 1,
        }
    }
    Ok(left_out)
}

/// The line on stderr that says how many puzzles `format` left out and why, if any.
pub fn left_out_note(format: Format, left_out: usize) -> Option<String> {
    let why = match format {
        _ if left_out == 0 => return None,
        Format::Tzdraft => "tzdraft output: TzDraft plays Tanzanian draughts only",
        Format::Lichess => {
            "lichess output: no source game has a move before the puzzle (a row starts with it)"
        }
        Format::Text | Format::Json => return None,
    };
    Some(format!(
        "{} left out of the {why}",
        count(left_out as u64, "puzzle", "puzzles")
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzles::platform::tests::{mined, SHOT, SHOT_SET_UP};

    #[test]
    fn write_format_counts_what_it_leaves_out() {
        let entries = [mined(SHOT).remove(0), mined(SHOT_SET_UP).remove(0)];
        let mut out = Vec::new();
        assert_eq!(
            write_format(&mut out, &entries, Format::Lichess).unwrap(),
            1
        );
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.starts_with(lichess::HEADER));
        let mut out = Vec::new();
        assert_eq!(
            write_format(&mut out, &entries, Format::Tzdraft).unwrap(),
            0
        );
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2);
        assert_eq!(left_out_note(Format::Tzdraft, 0), None);
        assert_eq!(
            left_out_note(Format::Tzdraft, 2).unwrap(),
            "2 puzzles left out of the tzdraft output: TzDraft plays Tanzanian draughts only"
        );
    }
}
