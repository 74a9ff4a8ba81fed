//! The data of the in-page game viewer: each game's article carries, in one attribute
//! (`data-v`), what the page's script needs to draw the board at every ply and to show the
//! analysis of every move. Everything in it is computed here by the rules core and the
//! analysis; the script only decodes it and moves pieces as told (it knows no rule).
//!
//! The text is ASCII without `"`, `&`, `<`, `>` or `'`, so it needs no escaping in XML or
//! HTML. Fields are separated by `|`:
//!
//! ```text
//! 0  format version: 1
//! 1  the start position: 32 characters, one per square (index order: 1 = b8 … 32 = g1),
//!    `.` empty, `w`/`W` white man/king, `b`/`B` black man/king; then `w` or `b` to move.
//!    The usual start position is only its side to move (the script has its board)
//! 2  the record's notation: `n` numeric, `a` algebraic
//! 3  the mainline's replayed moves, one after another, each as a board change:
//!      quiet:   from to              two squares of alphabet S
//!      capture: from landing… to      in alphabet C, then the captured squares in S, as
//!                                     many as the landings
//!      either followed by `!` when a man is crowned
//! 4  the engine's score of every position 0..=plies, White's view, in centi-men: one
//!    character (base 64: S then C) for a change of −31…31 from the last estimate (0 at
//!    first; proven results do not count), else `_` and two characters of the value + 2048, or `~Wn.`/`~Bn.` (White/Black
//!    wins in n plies) or `~v.` (an estimate beyond ±2047); empty when not analysed
//! 5  played moves whose score is not the next position's (re-searched flagged moves):
//!    `ply:score` one after another (score: two characters or a `~` escape as in field 4)
//! 6  the engine's line in every position 0..plies-1, separated by spaces: moves as in
//!    field 3 without captured squares (a capture ends with `.`, or `:` when its notation
//!    must name every landing square to be told apart from another capture), or `=k`: the
//!    move played, then the first k moves of the next position's line, or `*` and moves:
//!    the move played, then those moves; `+` at the end when the line is cut short
//!    ([`LINE_PLIES`]; the positions before and after a flagged move keep up to
//!    [`FLAGGED_LINE_PLIES`])
//! 7  the variant when it is not Tanzanian (`czech`, `russian`); the field is left out for
//!    Tanzanian games (the analysis board plays moves under the game's rules)
//! ```
//!
//! Position `i`'s score is also the score "before" move `i + 1`; the score "after" move `k`
//! is the position before it's score when the played move was the engine's best move (the
//! judge keeps the winning chances then), its re-search score when field 5 has one, else
//! position `k`'s score: the page's graph and the judge's verdicts rest on the same scores.

use drafti_analysis::GameAnalysis;
use drafti_analysis::Score;
use drafti_archive::replay::ReplayedGame;
use drafti_rules::{Color, Move, Position, Square, Variant};
use std::fmt::Write as _;

/// Squares in quiet moves and captured squares: index 0 (square 1) … 31 (square 32).
const S: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
/// Squares of a capture's path.
const C: &[u8; 32] = b"ghijklmnopqrstuvwxyz0123456789+/";
/// Largest estimate written in two characters.
const SHORT_SCORE: i32 = 2047;

/// The engine's line is kept to this many plies in most positions: the best move and the
/// reply to it. On the bundled corpus's report (target: 5 MB for the whole file) a third ply
/// cost 171 KB and made it 5.04 MB, once the engine of December 2026 flagged 14,588 moves;
/// whole lines everywhere would add about 0.8 MB. The lines around flagged moves are longer.
pub const LINE_PLIES: usize = 2;

/// The lines of the positions before and after a flagged move are kept to this many plies:
/// there the player wants the refutation. (Whole, they added 44 KB to the corpus's report.)
pub const FLAGGED_LINE_PLIES: usize = 8;

fn s(sq: Square) -> char {
    S[sq.index() as usize] as char
}

fn c(sq: Square) -> char {
    C[sq.index() as usize] as char
}

/// A digit 0-63 of the score encoding: S then C.
fn base64(digit: usize) -> char {
    if digit < 32 {
        S[digit] as char
    } else {
        C[digit - 32] as char
    }
}

/// One character per square and the side to move.
fn board_field(out: &mut String, pos: &Position) {
    for sq in Square::ALL {
        out.push(match pos.piece_at(sq) {
            None => '.',
            Some(p) => match (p.color, p.king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            },
        });
    }
    out.push(match pos.turn() {
        Color::White => 'w',
        Color::Black => 'b',
    });
}

/// A move's path: `from to` in S for a quiet move, `from landing… to` in C for a capture.
fn path_field(out: &mut String, mv: &Move) {
    if mv.is_capture() {
        for sq in mv.path() {
            out.push(c(sq));
        }
    } else {
        out.push(s(mv.from()));
        out.push(s(mv.to()));
    }
}

/// A played move as a board change.
fn delta_field(out: &mut String, mv: &Move) {
    path_field(out, mv);
    if mv.is_capture() {
        for sq in mv.captures() {
            out.push(s(sq));
        }
    }
    if mv.promotes() {
        out.push('!');
    }
}

/// A move of a line, with the mark of a capture that must be written in full.
fn line_move_field(out: &mut String, mv: &Move, legal: &[Move]) {
    path_field(out, mv);
    if mv.is_capture() {
        out.push(if needs_full_notation(mv, legal) {
            ':'
        } else {
            '.'
        });
    }
}

/// `score` (from the side `to_move`'s view) in White's view.
fn white_view(score: Score, to_move: Color) -> Score {
    if to_move == Color::White {
        score
    } else {
        -score
    }
}

/// A proven result or a large estimate as its `~` escape; `None` for a short estimate.
fn escaped_score(out: &mut String, white: Score) -> Option<()> {
    if let Some(n) = white.win_distance() {
        let _ = write!(out, "~W{n}.");
    } else if let Some(n) = white.loss_distance() {
        let _ = write!(out, "~B{n}.");
    } else if white.raw().abs() > SHORT_SCORE {
        let _ = write!(out, "~{}.", white.raw());
    } else {
        return None;
    }
    Some(())
}

fn two_characters(out: &mut String, v: i32) {
    let n = (v + SHORT_SCORE + 1) as usize;
    out.push(base64(n >> 6));
    out.push(base64(n & 63));
}

/// `score` (from the side `to_move`'s view) in White's view, in two characters or escaped.
fn score_field(out: &mut String, score: Score, to_move: Color) {
    let white = white_view(score, to_move);
    if escaped_score(out, white).is_none() {
        two_characters(out, white.raw());
    }
}

/// Field 4: the scores of the positions, each as a change from the last estimate.
fn score_stream(out: &mut String, scores: impl Iterator<Item = (Score, Color)>) {
    let mut last = 0;
    for (score, to_move) in scores {
        let white = white_view(score, to_move);
        let v = white.raw();
        if escaped_score(out, white).is_none() {
            if (v - last).abs() <= 31 {
                out.push(base64((v - last + 31) as usize));
            } else {
                out.push('_');
                two_characters(out, v);
            }
        }
        // A proven result leaves the last estimate as it was.
        if !white.is_proven() {
            last = v;
        }
    }
}

/// The engine's line of position `i`: the best move then the rest of its principal variation.
fn line_of(a: &GameAnalysis, i: usize) -> Vec<Move> {
    let m = &a.moves[i];
    match (m.pv.first(), m.best) {
        (Some(_), _) => m.pv.clone(),
        (None, Some(best)) => vec![best],
        (None, None) => Vec::new(),
    }
}

/// The line of position `i` (field 6): `=k` when it is the move played and the start of the
/// next position's line, `*` and the rest when it starts with the move played, else its
/// moves.
fn line_field(
    out: &mut String,
    game: &ReplayedGame,
    i: usize,
    line: &[Move],
    next: Option<&[Move]>,
) {
    let same = |x: &Move, y: &Move| x.same_move(y) && x.path().eq(y.path());
    let mut pos = game.positions[i];
    let mut line = line;
    if let Some(first) = line.first() {
        // The played move is in field 3, but not whether its notation names every landing.
        let played = same(first, &game.moves[i])
            && !needs_full_notation(first, &pos.legal_moves(game.variant));
        if played {
            let rest = &line[1..];
            if next.is_some_and(|next| {
                rest.len() <= next.len() && rest.iter().zip(next).all(|(x, y)| same(x, y))
            }) {
                let _ = write!(out, "={}", rest.len());
                return;
            }
            out.push('*');
            pos = pos.play(first);
            line = rest;
        }
    }
    for mv in line {
        let legal = pos.legal_moves(game.variant);
        line_move_field(out, mv, &legal);
        pos = pos.play(mv);
    }
}

/// Whether a capture's notation must name every landing square: another capture of `legal`
/// goes from the same square to the same square.
fn needs_full_notation(mv: &Move, legal: &[Move]) -> bool {
    mv.is_capture()
        && legal
            .iter()
            .any(|m| m.from() == mv.from() && m.to() == mv.to() && !m.same_move(mv))
}

/// The `data-v` text of a game (see the module docs): `numeric` when the record is written
/// with square numbers.
///
/// ```
/// use drafti_archive::replay::{replay, ReplayOptions};
///
/// let record = drafti_pdn::parse_games(&b"1. c3-d4 f6-e5 *"[..]).remove(0).unwrap();
/// let game = replay(record, &ReplayOptions::default());
/// let data = drafti_report::html::viewer::game_data(&game, None, false);
/// // Version 1, the usual start with White to move, algebraic, two quiet moves, no analysis.
/// assert_eq!(data, "1|w|a|VRKO|||");
/// ```
pub fn game_data(game: &ReplayedGame, analysis: Option<&GameAnalysis>, numeric: bool) -> String {
    let mut out = fields(game, analysis, numeric);
    if game.variant != Variant::Tanzanian {
        let _ = write!(out, "|{}", game.variant.name());
    }
    out
}

/// Fields 0-6 of [`game_data`].
fn fields(game: &ReplayedGame, analysis: Option<&GameAnalysis>, numeric: bool) -> String {
    let plies = game.moves.len();
    let mut out = String::with_capacity(64 + plies * 12);
    out.push_str("1|");
    if game.start == Position::start(game.start.turn()) {
        out.push(if game.start.turn() == Color::White {
            'w'
        } else {
            'b'
        });
    } else {
        board_field(&mut out, &game.start);
    }
    out.push('|');
    out.push(if numeric { 'n' } else { 'a' });
    out.push('|');
    for mv in &game.moves {
        delta_field(&mut out, mv);
    }
    out.push('|');
    let Some(a) = analysis.filter(|a| a.moves.len() == plies && plies > 0) else {
        out.push_str("||");
        return out;
    };
    // Scores of positions 0..plies-1 (the best move's), then of the last position: the last
    // move's score, which is the engine's score of that position but when it was re-searched.
    let last = &a.moves[plies - 1];
    score_stream(
        &mut out,
        a.moves
            .iter()
            .zip(&game.positions)
            .map(|(m, pos)| (m.best_score, pos.turn()))
            .chain([(-last.played_score, last.mover.other())]),
    );
    out.push('|');
    for (k, m) in a.moves.iter().enumerate().take(plies - 1) {
        let next = &a.moves[k + 1];
        if !m.played_is_best && m.played_score != -next.best_score {
            let _ = write!(out, "{}:", m.ply);
            score_field(&mut out, m.played_score, m.mover);
        }
    }
    out.push('|');
    let flagged = |i: usize| a.moves.get(i).is_some_and(|m| m.judgement().is_some());
    let lines: Vec<(Vec<Move>, bool)> = (0..plies)
        .map(|i| {
            let mut line = line_of(a, i);
            let keep = if flagged(i) || (i > 0 && flagged(i - 1)) {
                FLAGGED_LINE_PLIES
            } else {
                LINE_PLIES
            };
            let cut = line.len() > keep;
            if cut {
                line.truncate(keep);
            }
            (line, cut)
        })
        .collect();
    for (i, (line, cut)) in lines.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        line_field(
            &mut out,
            game,
            i,
            line,
            lines.get(i + 1).map(|l| l.0.as_slice()),
        );
        if *cut {
            out.push('+');
        }
    }
    out
}

/// The usual start position's board (field 1 leaves it out).
pub(crate) fn start_board_js() -> String {
    let mut board = String::with_capacity(33);
    board_field(&mut board, &Position::start(Color::White));
    board.pop();
    format!("\"{board}\"")
}

/// The script's table of squares: for each index, its file and rank (0-7), algebraic name
/// and number, as a JavaScript array literal.
pub(crate) fn geometry_js() -> String {
    let cells: Vec<String> = Square::ALL
        .iter()
        .map(|sq| format!("[{},{},\"{sq}\",{}]", sq.file(), sq.rank(), sq.number()))
        .collect();
    format!("[{}]", cells.join(","))
}

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_analysis::{analyse_game, AnalysisOptions};
    use drafti_archive::replay::{replay, ReplayOptions};
    use drafti_engine::Limits;

    fn game(text: &str) -> ReplayedGame {
        let record = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
        replay(record, &ReplayOptions::default())
    }

    fn field(data: &str, n: usize) -> &str {
        data.split('|').nth(n).unwrap()
    }

    #[test]
    fn moves_are_board_changes_in_the_documented_alphabets() {
        let g = game("1. c3-d4 f6-e5 2. d4xf6 g7xe5 *");
        let data = game_data(&g, None, false);
        assert_eq!(field(&data, 0), "1");
        // The usual start: its side to move only; the script has the board.
        assert_eq!(field(&data, 1), "w");
        assert_eq!(
            start_board_js(),
            format!("\"{}{}{}\"", "b".repeat(12), ".".repeat(8), "w".repeat(12))
        );
        let from_fen = game("[FEN \"W:W21,K32:B1\"]\n1. 21-17 1-5 *");
        let board = field(&game_data(&from_fen, None, true), 1).to_string();
        assert_eq!(board.len(), 33);
        assert_eq!(&board[..1], "b");
        assert_eq!(&board[20..], format!("w{}Ww", ".".repeat(10)));
        // c3 = 22, d4 = 18: quiet in S (index 21 = 'V', 17 = 'R').
        let plies = field(&data, 3);
        assert!(plies.starts_with("VR"), "{plies}");
        // d4xf6 captures e5 (square 15): path in C, captured in S, then '.'.
        let d4 = c("d4".parse().unwrap());
        let f6 = c("f6".parse().unwrap());
        let e5 = s("e5".parse().unwrap());
        assert!(
            plies.ends_with(&format!(
                "{d4}{f6}{e5}{}{}{}",
                c("g7".parse().unwrap()),
                c("e5".parse().unwrap()),
                s("f6".parse().unwrap())
            )),
            "{plies}"
        );
        assert_eq!(field(&data, 4), "");
        for bad in ['"', '&', '<', '>', '\''] {
            assert!(!data.contains(bad));
        }
    }

    #[test]
    fn scores_and_lines_cover_every_position() {
        let g = game("1. c3-d4 f6-e5 2. d4xf6 g7xe5 3. b2-c3 *");
        let options = AnalysisOptions {
            limits: Limits::depth(3),
            ..AnalysisOptions::default()
        };
        let a = analyse_game(&g, &options);
        let data = game_data(&g, Some(&a), false);
        let scores = field(&data, 4);
        // Six positions, one character at least each.
        assert!(scores.len() >= 6, "{scores}");
        let lines: Vec<&str> = field(&data, 6).split(' ').collect();
        assert_eq!(lines.len(), 5);
        assert!(lines.iter().all(|l| !l.is_empty()));
    }

    #[test]
    fn score_encoding_round_trips_the_documented_way() {
        let decode = |t: &str| -> i32 {
            let alphabet: Vec<u8> = S.iter().chain(C).copied().collect();
            let hi = alphabet.iter().position(|&b| b == t.as_bytes()[0]).unwrap() as i32;
            let lo = alphabet.iter().position(|&b| b == t.as_bytes()[1]).unwrap() as i32;
            hi * 64 + lo - 2048
        };
        for v in [-2047, -120, 0, 35, 2047] {
            let mut out = String::new();
            score_field(&mut out, Score::centi_men(v), Color::White);
            assert_eq!(decode(&out), v);
            let mut out = String::new();
            score_field(&mut out, Score::centi_men(v), Color::Black);
            assert_eq!(decode(&out), -v);
        }
        let mut out = String::new();
        score_field(&mut out, Score::win_in(7), Color::Black);
        assert_eq!(out, "~B7.");
        let mut out = String::new();
        score_field(&mut out, Score::centi_men(2500), Color::White);
        assert_eq!(out, "~2500.");
        // The stream: changes of up to 31 in one character.
        let mut out = String::new();
        let white = |v| (Score::centi_men(v), Color::White);
        score_stream(
            &mut out,
            [white(0), white(31), white(-40), white(-40)].into_iter(),
        );
        assert_eq!(
            out,
            format!(
                "{}{}_{}{}",
                base64(31),
                base64(62),
                {
                    let mut s = String::new();
                    two_characters(&mut s, -40);
                    s
                },
                base64(31)
            )
        );
    }
}
