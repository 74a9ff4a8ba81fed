//! The puzzles in one of `drafti puzzles`' stdout formats ([`Format`]), and what the
//! platform formats share: the puzzle's [`fingerprint`] (their ids), the solution as a player
//! is given it ([`solver_line`]), whether it is an endgame ([`is_endgame`]).

use super::{count, lichess, tzdraft, write_entries};
use drafti_analysis::puzzles::{Entry, Puzzle};
use drafti_rules::{Color, Move};

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

/// A puzzle's fingerprint: FNV-1a (128 bits) of its variant, its FEN and its solution
/// (each move's full path in square numbers). The same puzzle has the same fingerprint in
/// every run, whatever the input order or the threads.
pub fn fingerprint(p: &Puzzle) -> u128 {
    const OFFSET: u128 = 0x6c62272e07bb014262b821756295c58d;
    const PRIME: u128 = 0x0000000001000000000000000000013B;
    let mut text = format!("{}\n{}", p.variant.name(), p.position.to_fen());
    for mv in &p.solution {
        text.push(' ');
        text.push_str(&mv.full_notation(true));
    }
    text.bytes()
        .fold(OFFSET, |h, b| (h ^ u128::from(b)).wrapping_mul(PRIME))
}

/// The solution as a player is given it: up to the solver's last move (an opponent's reply
/// after it, which only lets the gain be counted, is left out).
pub fn solver_line(p: &Puzzle) -> &[Move] {
    let n = p.solution.len();
    if n.is_multiple_of(2) {
        &p.solution[..n.saturating_sub(1)]
    } else {
        &p.solution
    }
}

/// An endgame puzzle: judged by the endgame tables, or 8 pieces or fewer on the board.
pub fn is_endgame(p: &Puzzle) -> bool {
    let pieces = p.position.pieces(Color::White).count() + p.position.pieces(Color::Black).count();
    p.exact || pieces <= 8
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use drafti_analysis::puzzles::{mine_game, Collection, PuzzleOptions, Source};
    use drafti_archive::replay::{replay, ReplayOptions};
    use drafti_rules::Variant;

    /// The puzzles of one PDN game, each with its source in `club.pdn`.
    pub(crate) fn mined(pdn: &str) -> Vec<Entry> {
        let record = drafti_pdn::parse_games(pdn.as_bytes()).remove(0).unwrap();
        let game = replay(record, &ReplayOptions::default());
        let mut collection = Collection::new();
        for found in mine_game(&game, &PuzzleOptions::default()).found {
            collection.add(found.puzzle, Source::of("club.pdn", 0, &game, found.ply));
        }
        collection.entries().to_vec()
    }

    /// Black's f6-e5 walks into a shot: c3-d4 e5xc3 d2xb4xd6xf8.
    pub(crate) const SHOT: &str = r#"[White "Asha"] [Black "Baraka"] [SetUp "1"] [FEN "B:Wc3,d2,e1,e3:Bc5,f6,e7,g7,h6"]
        1... f6-e5 2. c3-d4 e5xc3 3. d2xf8 1-0"#;

    /// The shot set up at the puzzle itself: no move before it.
    pub(crate) const SHOT_SET_UP: &str =
        r#"[SetUp "1"] [FEN "W:W22,23,26,31:B7,8,12,14,15"] 1. 22-18 *"#;

    #[test]
    fn the_fingerprint_is_the_puzzle_s_and_not_its_source_s() {
        let from_game = mined(SHOT);
        let set_up = mined(SHOT_SET_UP);
        assert_eq!(from_game.len(), 1);
        assert_eq!(set_up.len(), 1);
        let (a, b) = (&from_game[0].puzzle, &set_up[0].puzzle);
        assert_eq!(a.position, b.position);
        assert_eq!(fingerprint(a), fingerprint(b));
        let mut other = a.clone();
        other.solution.pop();
        assert_ne!(fingerprint(&other), fingerprint(a));
        other = a.clone();
        other.variant = Variant::Russian;
        assert_ne!(fingerprint(&other), fingerprint(a));
    }

    #[test]
    fn solver_line_ends_on_the_solver_s_move() {
        let mut p = mined(SHOT)[0].puzzle.clone();
        assert_eq!(p.solution.len(), 3);
        assert_eq!(solver_line(&p).len(), 3);
        let reply = p.solution[1];
        p.solution.push(reply);
        assert_eq!(solver_line(&p), &p.solution[..3]);
    }

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
