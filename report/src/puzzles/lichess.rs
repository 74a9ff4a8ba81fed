//! `drafti puzzles --format lichess`: the puzzles as rows of lichess's puzzle database (CSV,
//! the header [`HEADER`]), in lichess's convention: the FEN is the position **before** the
//! opponent's last move, and `Moves` starts with that move (the one the player sees made),
//! then the solution, the solver's moves and the opponent's replies in turn.
//!
//! - `PuzzleId`: 8 letters and digits from the puzzle's [`fingerprint`]:
//!   the same puzzle has the same id in every run.
//! - `FEN`: drafti's FEN (square numbers) of the position before the opponent's move, taken
//!   from the first source game that has one; a puzzle found only at the start of a record
//!   (no move before it) has no row ([`row`] gives `None`).
//! - `Moves`: drafti's numeric notation, space separated; the solution ends on the solver's
//!   last move.
//! - `Rating`: from the difficulty, [`rating`] (1 → 1000, 2 → 1300, … 5 → 2200);
//!   `RatingDeviation`: [`RATING_DEVIATION`] (350, lichess's deviation for a new rating).
//! - `Popularity` 0 and `NbPlays` 0: nobody has voted on or played the puzzle yet.
//! - `Themes`: [`themes`], space separated.
//! - `GameUrl`: the source game's `Site` tag when it is an `http(s)://` address, else empty.
//! - `OpeningTags`: the source game's `Opening` tag in lichess's shape ([`opening_tags`]),
//!   else empty.
//!
//! No chess tool loads these rows: the FEN is a draughts FEN and the moves draughts moves;
//! the rows follow lichess's conventions for a draughts site or tool that reads them.

use super::platform::{fingerprint, is_endgame, solver_line};
use drafti_analysis::puzzles::{Entry, GainKind, Puzzle, Source, Themes};
use drafti_archive::csv::text_cell;
use drafti_rules::{Move, Position, Variant};

/// The header row.
pub const HEADER: &str =
    "PuzzleId,FEN,Moves,Rating,RatingDeviation,Popularity,NbPlays,Themes,GameUrl,OpeningTags\n";

/// The rating deviation of every row: wide, the puzzle's rating not yet played in.
pub const RATING_DEVIATION: u32 = 350;

/// The initial rating of a puzzle of `difficulty` 1–5: 1000 + 300 per step.
pub fn rating(difficulty: u8) -> u32 {
    1000 + 300 * u32::from(difficulty.clamp(1, 5) - 1)
}

/// The puzzle's id: 8 characters of `0-9A-Za-z` from its fingerprint.
pub fn puzzle_id(p: &Puzzle) -> String {
    const DIGITS: &[u8; 62] = b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    let mut h = fingerprint(p);
    (0..8)
        .map(|_| {
            let c = DIGITS[(h % 62) as usize] as char;
            h /= 62;
            c
        })
        .collect()
}

/// The themes of the line a row gives ([`solver_line`]), lichess's names where lichess has
/// the idea: `advantage` or `crushing` (a
/// gain of 3 men or more, or the game), `sacrifice`, `promotion` (a man crowned), `endgame`
/// (judged by the endgame tables, or 8 pieces or fewer), `oneMove` / `short` / `long` /
/// `veryLong` (1, 2, 3, 4 or more solver moves); drafti's own otherwise: `shotN` (one move
/// takes N pieces), `kingCapture`, `runaway` (a man through that nothing can stop).
pub fn themes(p: &Puzzle) -> Vec<String> {
    let t = Themes::of(&p.position, solver_line(p));
    let crushing = p.kind == GainKind::Win || p.gain_men() >= 3;
    let mut out = vec![if crushing { "crushing" } else { "advantage" }.to_string()];
    if t.sacrifice {
        out.push("sacrifice".into());
    }
    if t.shot >= 2 {
        out.push(format!("shot{}", t.shot));
    }
    if t.king_capture {
        out.push("kingCapture".into());
    }
    if t.crowning {
        out.push("promotion".into());
    }
    if t.runaway {
        out.push("runaway".into());
    }
    if is_endgame(p) {
        out.push("endgame".into());
    }
    let length = match solver_line(p).len().div_ceil(2) {
        0 | 1 => "oneMove",
        2 => "short",
        3 => "long",
        _ => "veryLong",
    };
    out.push(length.into());
    out
}

fn numeric(pos: &Position, variant: Variant, mv: &Move) -> String {
    mv.notation(&pos.legal_moves(variant), true)
}

fn game_url(s: &Source) -> String {
    match &s.site {
        Some(site) if site.starts_with("https://") || site.starts_with("http://") => site.clone(),
        _ => String::new(),
    }
}

/// An opening's name as lichess writes its opening tags: words joined by `_`, only ASCII
/// letters and digits kept (`Kikwete's opening` → `Kikwetes_opening`).
pub fn opening_tags(name: &str) -> String {
    name.split(|c: char| c.is_whitespace() || c == '-' || c == ',' || c == ':')
        .map(|word| {
            word.chars()
                .filter(char::is_ascii_alphanumeric)
                .collect::<String>()
        })
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join("_")
}

/// The puzzle `e` as one CSV row (newline-terminated), or `None` when no source game has a
/// move before the puzzle.
pub fn row(e: &Entry) -> Option<String> {
    let p = &e.puzzle;
    let (s, (before, last)) = e
        .sources
        .iter()
        .find_map(|s| s.previous.as_ref().map(|prev| (s, prev)))?;
    let mut moves = vec![numeric(before, p.variant, last)];
    let mut pos = p.position;
    for mv in solver_line(p) {
        moves.push(numeric(&pos, p.variant, mv));
        pos = pos.play(mv);
    }
    let fields = [
        puzzle_id(p),
        before.to_fen(),
        moves.join(" "),
        rating(p.difficulty).to_string(),
        RATING_DEVIATION.to_string(),
        "0".to_string(),
        "0".to_string(),
        themes(p).join(" "),
        game_url(s),
        s.opening.as_deref().map(opening_tags).unwrap_or_default(),
    ];
    // Every cell as text: the URL and the file name come from the archive (formula-safe).
    let cells: Vec<_> = fields.iter().map(|f| text_cell(f)).collect();
    Some(format!("{}\n", cells.join(",")))
}

#[cfg(test)]
mod tests {
    use super::super::platform::tests::{mined, SHOT, SHOT_SET_UP};
    use super::*;

    #[test]
    fn the_shot_as_a_lichess_row() {
        let e = &mined(SHOT)[0];
        let id = puzzle_id(&e.puzzle);
        assert_eq!(
            row(e).unwrap(),
            format!(
                "{id},\"B:W22,23,26,31:B7,8,11,12,14\",11-15 22-18 15x22 26x3,1000,350,0,0,\
                 crushing sacrifice shot3 promotion short,,\n"
            )
        );
        assert_eq!(id.len(), 8);
        assert_eq!(mined(SHOT_SET_UP)[0].puzzle.position, e.puzzle.position);
        assert_eq!(puzzle_id(&mined(SHOT_SET_UP)[0].puzzle), id);
    }

    #[test]
    fn the_header_and_every_row_have_lichess_s_ten_columns() {
        let columns: Vec<&str> = HEADER.trim_end().split(',').collect();
        assert_eq!(
            columns,
            [
                "PuzzleId",
                "FEN",
                "Moves",
                "Rating",
                "RatingDeviation",
                "Popularity",
                "NbPlays",
                "Themes",
                "GameUrl",
                "OpeningTags"
            ]
        );
        let tagged = SHOT.replace(
            "[SetUp",
            r#"[Site "https://example.org/g/7"] [Opening "Kikwete's opening, main line"] [SetUp"#,
        );
        let row = row(&mined(&tagged)[0]).unwrap();
        let mut reader = csv::ReaderBuilder::new()
            .has_headers(false)
            .from_reader(row.as_bytes());
        let fields = reader.records().next().unwrap().unwrap();
        assert_eq!(fields.len(), 10, "{row}");
        assert_eq!(&fields[5], "0");
        assert_eq!(&fields[6], "0");
        assert_eq!(&fields[8], "https://example.org/g/7");
        assert_eq!(&fields[9], "Kikwetes_opening_main_line");
    }

    #[test]
    fn opening_names_become_lichess_s_tags() {
        assert_eq!(opening_tags("Kikwete's opening"), "Kikwetes_opening");
        assert_eq!(opening_tags("  Samba - Dar  "), "Samba_Dar");
        assert_eq!(opening_tags("?!"), "");
    }

    #[test]
    fn a_puzzle_with_no_move_before_it_has_no_row() {
        assert_eq!(row(&mined(SHOT_SET_UP)[0]), None);
    }

    #[test]
    fn a_later_source_gives_the_move_before() {
        let mut e = mined(SHOT_SET_UP).remove(0);
        let from_game = mined(SHOT).remove(0);
        e.sources.push(from_game.sources[0].clone());
        assert_eq!(row(&e), row(&from_game));
    }

    #[test]
    fn ratings_run_from_1000_to_2200() {
        let r: Vec<u32> = (1..=5).map(rating).collect();
        assert_eq!(r, [1000, 1300, 1600, 1900, 2200]);
    }

    #[test]
    fn game_url_is_the_site_when_it_is_a_url() {
        let mut s = Source {
            file: "club.pdn".into(),
            game: 3,
            ..Source::default()
        };
        assert_eq!(game_url(&s), "");
        s.site = Some("Dar es Salaam".into());
        assert_eq!(game_url(&s), "");
        s.site = Some("https://example.org/g/1".into());
        assert_eq!(game_url(&s), "https://example.org/g/1");
    }
}
