//! `drafti puzzles --format tzdraft`: each puzzle as TzDraft's puzzle model holds it (github
//! kayzo1903/TzDraft, `backend/prisma/schema/puzzle.prisma`, filled as its
//! `puzzle-miner.service.ts` fills it), one JSON object per line.
//!
//! | field | value |
//! |---|---|
//! | `id` | a UUID-shaped string of the puzzle's [`fingerprint`] (the same puzzle, the same id) |
//! | `title` | the task, `White to play and win 2 men` |
//! | `pieces` | `[{type: "MAN"\|"KING", color: "WHITE"\|"BLACK", position: 1–32}]`, TzDraft's squares |
//! | `sideToMove` | `"WHITE"` or `"BLACK"` |
//! | `solution` | `[{from, to, captures}]`, the opponent's replies with `isOpp: true`; it ends on the solver's last move |
//! | `evalGap` | the first move's score, hundredths of a man (a proven win 10,000) |
//! | `difficulty` | 1–5, drafti's |
//! | `theme` | one of TzDraft's themes ([`theme`]) |
//! | `status` | `"PENDING"`: for TzDraft's review, as its own miner saves them |
//! | `sourceGameId` | TzDraft's id of the source game (its `TzDraftId` tag, as `drafti import tzdraft` writes it), else `null` |
//! | `sourceMoveNum` | the source game's ply of the first move (TzDraft's `moveNumber`) |
//! | `setupMove`, `setupPieces` | the opponent's move that led to the puzzle (`{from, to, captures}`, as TzDraft's miner writes it) and the pieces before it; `null` for a record that starts at the puzzle |
//!
//! Squares are TzDraft's: its square `n` is drafti's `33 − n`
//! ([`drafti_archive::import::tzdraft::tzdraft_number`]).
//!
//! **What TzDraft can take.** TzDraft plays Tanzanian draughts as its server reads them
//! ([`Variant::TzDraft`]): [`line()`] leaves out a puzzle of another variant, and a Tanzanian
//! puzzle whose solution does not hold under TzDraft's reading ([`sound_under_tzdraft`]).
//! TzDraft's web and mobile puzzle players (`PuzzleClient.tsx`, `puzzle-player.tsx`) offer
//! one jump at a time and compare it with the solution's `from` and `to`: a solver move that
//! takes two or more pieces cannot be entered ([`unenterable_move`]); such puzzles are
//! written, and counted, and `drafti puzzles --tzdraft-enterable` leaves them out.

use super::platform::{fingerprint, is_endgame, solver_line};
use super::task;
use drafti_analysis::puzzles::{Entry, Puzzle, Themes};
use drafti_archive::import::tzdraft::tzdraft_number;
use drafti_rules::{Color, Move, Position, Square, Variant};
use serde::Serialize;

/// One of TzDraft's pieces.
#[derive(Serialize)]
struct PieceJson {
    #[serde(rename = "type")]
    kind: &'static str,
    color: &'static str,
    position: u8,
}

/// One move of a TzDraft solution (or its setup move).
#[derive(Serialize)]
struct MoveJson {
    from: u8,
    to: u8,
    captures: Vec<u8>,
    #[serde(rename = "isOpp", skip_serializing_if = "std::ops::Not::not")]
    is_opp: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct PuzzleJson {
    id: String,
    title: String,
    pieces: Vec<PieceJson>,
    side_to_move: &'static str,
    solution: Vec<MoveJson>,
    eval_gap: i32,
    difficulty: u8,
    theme: &'static str,
    status: &'static str,
    source_game_id: Option<String>,
    source_move_num: usize,
    setup_move: Option<MoveJson>,
    setup_pieces: Option<Vec<PieceJson>>,
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "WHITE",
        Color::Black => "BLACK",
    }
}

/// The pieces of `pos` in TzDraft's numbering, by TzDraft square.
fn pieces(pos: &Position) -> Vec<PieceJson> {
    let mut out: Vec<PieceJson> = Square::ALL
        .iter()
        .filter_map(|&sq| {
            pos.piece_at(sq).map(|p| PieceJson {
                kind: if p.king { "KING" } else { "MAN" },
                color: color_name(p.color),
                position: tzdraft_number(sq),
            })
        })
        .collect();
    out.sort_by_key(|p| p.position);
    out
}

fn move_json(mv: &Move, is_opp: bool) -> MoveJson {
    MoveJson {
        from: tzdraft_number(mv.from()),
        to: tzdraft_number(mv.to()),
        captures: mv.captures().map(tzdraft_number).collect(),
        is_opp,
    }
}

/// TzDraft's theme for a puzzle, read off the line it is given ([`solver_line`]: the
/// solution up to the solver's last move), in the priority of TzDraft's own classifier:
/// `king-trap` (a king is captured), `sacrifice`, `endgame` (judged by the endgame tables, or
/// 8 pieces or fewer), `promotion` (a man crowned or through), `capture-trap` (a quiet first
/// move, then a capture), `combination` (a shot of 2 or more), else `tactical` (TzDraft's
/// default).
pub fn theme(p: &Puzzle) -> &'static str {
    let shown = solver_line(p);
    let t = Themes::of(&p.position, shown);
    let later_capture = shown.iter().step_by(2).skip(1).any(Move::is_capture);
    if t.king_capture {
        "king-trap"
    } else if t.sacrifice {
        "sacrifice"
    } else if is_endgame(p) {
        "endgame"
    } else if t.crowning || t.runaway {
        "promotion"
    } else if shown.first().is_some_and(|m| !m.is_capture()) && later_capture {
        "capture-trap"
    } else if t.shot >= 2 {
        "combination"
    } else {
        "tactical"
    }
}

/// Whether the puzzle's solution holds under TzDraft's server reading: a puzzle mined under
/// it, or a Tanzanian one verified again under it ([`Puzzle::other_reading`]).
pub fn sound_under_tzdraft(p: &Puzzle) -> bool {
    match p.variant {
        Variant::TzDraft => true,
        Variant::Tanzanian => p
            .other_reading
            .as_ref()
            .is_some_and(|c| c.reading == Variant::TzDraft && c.sound()),
        Variant::Czech | Variant::Russian => false,
    }
}

/// The index in the solution of the first solver move TzDraft's puzzle players cannot
/// enter: a capture of two or more pieces (they take one jump per tap and compare it with
/// the move's `from` and `to`); `None` when every solver move can be entered.
pub fn unenterable_move(p: &Puzzle) -> Option<usize> {
    solver_line(p)
        .iter()
        .enumerate()
        .step_by(2)
        .find(|(_, mv)| mv.capture_count() >= 2)
        .map(|(i, _)| i)
}

/// Whether TzDraft's puzzle players can take the puzzle: Tanzanian (or TzDraft's), and no
/// solver move they cannot enter ([`unenterable_move`]).
pub fn enterable(p: &Puzzle) -> bool {
    matches!(p.variant, Variant::Tanzanian | Variant::TzDraft) && unenterable_move(p).is_none()
}

/// Why a puzzle has no line in TzDraft's format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refused {
    /// Not Tanzanian (TzDraft plays nothing else).
    OtherRules,
    /// Tanzanian, but its solution does not hold under TzDraft's reading.
    UnsoundUnderTzDraft,
}

/// The puzzle `e` as one line of TzDraft's puzzle JSON (newline-terminated), or why TzDraft
/// cannot take it.
pub fn line(e: &Entry) -> Result<String, Refused> {
    let p = &e.puzzle;
    if !matches!(p.variant, Variant::Tanzanian | Variant::TzDraft) {
        return Err(Refused::OtherRules);
    }
    if !sound_under_tzdraft(p) {
        return Err(Refused::UnsoundUnderTzDraft);
    }
    let s = &e.sources[0];
    let eval_gap = p
        .score
        .as_centi_men()
        .unwrap_or(if p.score.win_distance().is_some() {
            10_000
        } else {
            -10_000
        });
    let value = PuzzleJson {
        id: uuid(fingerprint(p)),
        title: task(p),
        pieces: pieces(&p.position),
        side_to_move: color_name(p.position.turn()),
        solution: solver_line(p)
            .iter()
            .enumerate()
            .map(|(i, mv)| move_json(mv, i % 2 == 1))
            .collect(),
        eval_gap,
        difficulty: p.difficulty.clamp(1, 5),
        theme: theme(p),
        status: "PENDING",
        source_game_id: s.tzdraft_id.clone(),
        source_move_num: s.ply,
        setup_move: s.previous.as_ref().map(|(_, mv)| move_json(mv, false)),
        setup_pieces: s.previous.as_ref().map(|(pos, _)| pieces(pos)),
    };
    let mut text = serde_json::to_string(&value).expect("serializable");
    text.push('\n');
    Ok(text)
}

/// A 128-bit fingerprint as a UUID string (version 8, "custom", RFC 9562: its version and
/// variant bits set, the rest the fingerprint's).
pub fn uuid(hash: u128) -> String {
    let h = (hash & !(0xF << 76) & !(0x3 << 62)) | (0x8 << 76) | (0x2 << 62);
    let hex = format!("{h:032x}");
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

#[cfg(test)]
mod tests {
    use super::super::platform::tests::{mined, SHOT, SHOT_SET_UP};
    use super::*;

    #[test]
    fn the_shot_in_tzdraft_s_shape() {
        let e = &mined(SHOT)[0];
        let v: serde_json::Value = serde_json::from_str(&line(e).unwrap()).unwrap();
        assert_eq!(v["sideToMove"], "WHITE");
        // drafti's 22-18 15x22 26x17x10x3 is TzDraft's 11-15 18x11 7x16x23x30.
        assert_eq!(
            v["solution"].to_string(),
            r#"[{"captures":[],"from":11,"to":15},{"captures":[15],"from":18,"isOpp":true,"to":11},{"captures":[11,19,26],"from":7,"to":30}]"#
        );
        assert_eq!(
            v["setupMove"].to_string(),
            r#"{"captures":[],"from":22,"to":18}"#
        );
        assert_eq!(v["theme"], "sacrifice");
        assert_eq!(v["title"], "White to play and win material worth 4 men");
        assert_eq!(v["sourceMoveNum"], 2);
        assert!(v["sourceGameId"].is_null());
        assert_eq!(v["id"], uuid(fingerprint(&e.puzzle)));
    }

    #[test]
    fn the_tzdraft_id_tag_is_the_source_game() {
        let tagged = SHOT.replace("[SetUp", r#"[TzDraftId "g-42"] [SetUp"#);
        let v: serde_json::Value =
            serde_json::from_str(&line(&mined(&tagged)[0]).unwrap()).unwrap();
        assert_eq!(v["sourceGameId"], "g-42");
    }

    #[test]
    fn only_tanzanian_puzzles_go_to_tzdraft() {
        let mut e = mined(SHOT_SET_UP).remove(0);
        assert!(line(&e).is_ok());
        e.puzzle.variant = Variant::Russian;
        assert_eq!(line(&e), Err(Refused::OtherRules));
    }

    #[test]
    fn a_capture_of_two_or_more_pieces_cannot_be_entered_in_tzdraft_s_players() {
        // c3-d4 e5xc3 d2xb4xd6xf8: the third ply takes three pieces in one move.
        let e = mined(SHOT).remove(0);
        assert_eq!(unenterable_move(&e.puzzle), Some(2));
        assert!(!enterable(&e.puzzle));
        // The sacrifice alone (one quiet move) can be entered; a Russian puzzle cannot.
        let mut p = e.puzzle.clone();
        p.solution.truncate(1);
        assert_eq!(unenterable_move(&p), None);
        assert!(enterable(&p));
        p.variant = Variant::Russian;
        assert!(!enterable(&p));
    }

    #[test]
    fn a_puzzle_that_does_not_hold_under_tzdraft_s_reading_is_left_out() {
        use drafti_analysis::puzzles::verify::Refuted;
        use drafti_analysis::puzzles::{Failure, ReadingCheck};
        let mut e = mined(SHOT).remove(0);
        // Mined under the article's rules and verified again under TzDraft's: it holds.
        let check = e.puzzle.other_reading.clone().unwrap();
        assert_eq!(check.reading, Variant::TzDraft);
        assert!(check.sound());
        assert!(line(&e).is_ok());
        e.puzzle.other_reading = Some(ReadingCheck {
            reading: Variant::TzDraft,
            refuted: Some(Refuted {
                at: 2,
                failure: Failure::IllegalMove,
            }),
        });
        assert_eq!(line(&e), Err(Refused::UnsoundUnderTzDraft));
        // Not checked: not known to hold, left out too.
        e.puzzle.other_reading = None;
        assert_eq!(line(&e), Err(Refused::UnsoundUnderTzDraft));
        // A puzzle mined under TzDraft's reading is TzDraft's own.
        e.puzzle.variant = Variant::TzDraft;
        assert!(line(&e).is_ok());
    }

    #[test]
    fn the_theme_is_read_off_the_line_given() {
        // The shot's line is themed by its sacrifice; cut to its quiet first move, nothing
        // is captured: no combination, no sacrifice, whatever the puzzle's own themes say.
        let e = mined(SHOT).remove(0);
        assert_eq!(theme(&e.puzzle), "sacrifice");
        let mut p = e.puzzle.clone();
        p.solution.truncate(1);
        assert!(p.themes.sacrifice && p.themes.shot == 3);
        assert_eq!(theme(&p), "tactical");
    }

    #[test]
    fn uuid_has_version_8_and_the_rfc_variant() {
        let id = uuid(u128::MAX);
        assert_eq!(id, "ffffffff-ffff-8fff-bfff-ffffffffffff");
        assert_eq!(uuid(0), "00000000-0000-8000-8000-000000000000");
    }

    #[test]
    fn pieces_are_in_tzdraft_numbering() {
        let pos = Position::from_fen("W:W32,K21:B1").unwrap();
        let json = serde_json::to_string(&pieces(&pos)).unwrap();
        assert_eq!(
            json,
            r#"[{"type":"MAN","color":"WHITE","position":1},{"type":"KING","color":"WHITE","position":12},{"type":"MAN","color":"BLACK","position":32}]"#
        );
    }
}
