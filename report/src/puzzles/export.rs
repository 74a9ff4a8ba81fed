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

/// Why a format left a puzzle out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LeftOut {
    /// TzDraft: not Tanzanian.
    NotTanzanian,
    /// TzDraft: its solution does not hold under TzDraft's server reading.
    UnsoundUnderTzDraft,
    /// lichess: no source game has a move before the puzzle.
    NoMoveBefore,
}

/// The puzzles `entries`, numbered from 1, in `format`. Returns the puzzles the format
/// cannot hold and left out, each by why (TzDraft: not Tanzanian, or not sound under its
/// reading; lichess: no move before the puzzle in any source game).
pub fn write_format(
    out: &mut impl std::io::Write,
    entries: &[Entry],
    format: Format,
) -> std::io::Result<Vec<LeftOut>> {
    let one: fn(&Entry) -> Result<String, LeftOut> = match format {
        Format::Text | Format::Json => {
            write_entries(out, entries, format == Format::Json)?;
            return Ok(Vec::new());
        }
        Format::Tzdraft => |e| {
            tzdraft::line(e).map_err(|refused| match refused {
                tzdraft::Refused::OtherRules => LeftOut::NotTanzanian,
                tzdraft::Refused::UnsoundUnderTzDraft => LeftOut::UnsoundUnderTzDraft,
            })
        },
        Format::Lichess => {
            out.write_all(lichess::HEADER.as_bytes())?;
            |e| lichess::row(e).ok_or(LeftOut::NoMoveBefore)
        }
    };
    let mut left_out = Vec::new();
    for e in entries {
        match one(e) {
            Ok(text) => out.write_all(text.as_bytes())?,
            Err(why) => left_out.push(why),
        }
    }
    Ok(left_out)
}

/// The lines on stderr that say how many puzzles were left out of the output and why.
pub fn left_out_notes(left_out: &[LeftOut]) -> Vec<String> {
    let mut reasons = left_out.to_vec();
    reasons.sort();
    reasons.dedup();
    reasons
        .into_iter()
        .map(|why| {
            let n = left_out.iter().filter(|&&w| w == why).count();
            let why = match why {
                LeftOut::NotTanzanian => "tzdraft output: TzDraft plays Tanzanian draughts only",
                LeftOut::UnsoundUnderTzDraft => {
                    "tzdraft output: the solution does not hold under TzDraft's server reading"
                }
                LeftOut::NoMoveBefore => {
                    "lichess output: no source game has a move before the puzzle (a row starts with it)"
                }
            };
            format!("{} left out of the {why}", count(n as u64, "puzzle", "puzzles"))
        })
        .collect()
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
            [LeftOut::NoMoveBefore]
        );
        let text = String::from_utf8(out).unwrap();
        assert_eq!(text.lines().count(), 2, "{text}");
        assert!(text.starts_with(lichess::HEADER));
        let mut out = Vec::new();
        assert_eq!(
            write_format(&mut out, &entries, Format::Tzdraft).unwrap(),
            []
        );
        assert_eq!(String::from_utf8(out).unwrap().lines().count(), 2);
        assert!(left_out_notes(&[]).is_empty());
        assert_eq!(
            left_out_notes(&[
                LeftOut::UnsoundUnderTzDraft,
                LeftOut::NotTanzanian,
                LeftOut::NotTanzanian
            ]),
            [
                "2 puzzles left out of the tzdraft output: TzDraft plays Tanzanian draughts only",
                "1 puzzle left out of the tzdraft output: the solution does not hold under \
                 TzDraft's server reading"
            ]
        );
    }
}
