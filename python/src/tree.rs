//! A game's moves as data: the tree of its record (comments, NAGs, variations, clocks) with
//! each move resolved through the rules where it can be (`Game.root()`, the nodes of
//! `drafti/_tree.py`), and the rows of its mainline, one per move (`Game.move_rows()`,
//! `drafti.game_moves`), made without the engine.

use crate::position::{color_name, PyMove};
use drafti_archive::replay::ReplayedGame;
use drafti_pdn::{Comment, GameResult, Line, MoveNode};
use drafti_rules::{move_number, DrawLaws, Game as RulesGame, Move, Variant};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};
use serde::Serialize;

/// The comments' texts, trimmed.
fn texts(comments: &[Comment]) -> Vec<String> {
    comments.iter().map(|c| c.text.trim().to_string()).collect()
}

/// The legal move `node` names in `game`, if exactly one and the game is not over.
fn resolve(game: &RulesGame, variant: Variant, node: &MoveNode) -> Option<Move> {
    if game.outcome().is_some() {
        return None;
    }
    let text: drafti_rules::MoveText = node.mv.text.to_string().parse().ok()?;
    match game.position().find_moves(variant, &text).as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// A line of the tree as Python data: `(leading comments, [node, …])`, each node
/// `(move or None, text, number or None, nags, comments, [line, …])`. `start` is the game
/// before the line's first move (`None` where an earlier move could not be resolved);
/// `known` are the mainline's moves as the replay resolved them.
fn line<'py>(
    py: Python<'py>,
    variant: Variant,
    nodes: &[MoveNode],
    leading: &[Comment],
    start: Option<RulesGame>,
    known: Option<&[Move]>,
) -> PyResult<Bound<'py, PyTuple>> {
    let mut game = start;
    let out = PyList::empty(py);
    for (i, node) in nodes.iter().enumerate() {
        let mv = match (&game, known) {
            (Some(_), Some(known)) => known.get(i).copied(),
            (Some(g), None) => resolve(g, variant, node),
            (None, _) => None,
        };
        let variations = PyList::empty(py);
        for v in &node.variations {
            variations.append(line(
                py,
                variant,
                &v.nodes,
                &v.leading_comments,
                game.clone(),
                None,
            )?)?;
        }
        game = match (game, mv) {
            (Some(mut g), Some(mv)) => {
                g.play(&mv);
                Some(g)
            }
            _ => None,
        };
        let nags: Vec<u32> = node.nags.iter().map(|n| u32::from(n.value)).collect();
        out.append((
            mv.map(PyMove::new),
            node.mv.text.to_string(),
            node.number.as_ref().map(|n| n.number),
            nags,
            texts(&node.comments),
            variations,
        ))?;
    }
    (texts(leading), out).into_pyobject(py)
}

/// The tree of `g`: its mainline as [`line`] makes it.
pub fn tree<'py>(py: Python<'py>, g: &ReplayedGame) -> PyResult<Bound<'py, PyTuple>> {
    let mainline: &Line = &g.record.moves;
    let start = RulesGame::with_laws(g.start, g.variant, DrawLaws::for_variant(g.variant));
    line(
        py,
        g.variant,
        &mainline.nodes,
        &g.record.leading_comments,
        Some(start),
        Some(&g.moves),
    )
}

/// The seconds of a clock written in a comment as `[%clk 1:02:03.5]` (or `[%clk 4:05]`), as
/// game servers write the time left after a move.
pub fn clock(comments: &[Comment]) -> Option<f64> {
    comments.iter().find_map(|c| {
        let at = c.text.find("[%clk")?;
        let rest = c.text[at + 5..].trim_start();
        let value = &rest[..rest.find(']')?];
        let mut seconds = 0.0;
        for part in value.trim().split(':') {
            let n: f64 = part
                .parse()
                .ok()
                .filter(|n: &f64| n.is_finite() && *n >= 0.0)?;
            seconds = seconds * 60.0 + n;
        }
        Some(seconds)
    })
}

/// One move of a game's mainline as a row: the game's keys, then what the move is.
#[derive(Serialize)]
pub struct MoveRow<'a> {
    /// The input's name.
    pub file: &'a str,
    /// The game's number in its input, from 1.
    pub index: usize,
    pub white: Option<&'a str>,
    pub black: Option<&'a str>,
    pub result: Option<&'static str>,
    pub variant: &'static str,
    /// 1-based.
    pub ply: usize,
    /// The move's number: `8` for `8.` and `8...`.
    pub move_number: usize,
    /// `white` or `black`.
    pub mover: &'static str,
    /// The mover's name (the White or Black tag).
    pub player: Option<&'a str>,
    /// The move as written.
    #[serde(rename = "move")]
    pub text: String,
    /// As short as the position allows (`c3xg7`), algebraic.
    pub notation: String,
    /// Every square the piece stands on (`c3xe5xg7`).
    pub path: String,
    /// Pieces taken.
    pub captures: usize,
    /// Their squares, in the order taken.
    pub captured: Vec<String>,
    /// A man crowned.
    pub promotion: bool,
    /// The position before the move, and after it (FEN).
    pub fen_before: String,
    pub fen_after: String,
    /// The move's NAGs (`!` is 1, `?` 2, …).
    pub nags: Vec<u8>,
    /// Its comments, joined by a space; `None` without one.
    pub comment: Option<String>,
    /// The clock of `[%clk …]` in its comments, seconds.
    pub clock: Option<f64>,
}

/// The rows of `g`'s mainline, up to its first error.
pub fn move_rows<'a>(file: &'a str, index: usize, g: &'a ReplayedGame) -> Vec<MoveRow<'a>> {
    let tag = |name: &str| g.record.tag(name).map(str::trim).filter(|v| !v.is_empty());
    let (white, black) = (tag("White"), tag("Black"));
    let result = g.played_result().map(GameResult::as_str);
    g.moves
        .iter()
        .enumerate()
        .map(|(i, mv)| {
            let before = &g.positions[i];
            let after = g
                .positions
                .get(i + 1)
                .copied()
                .unwrap_or_else(|| before.play(mv));
            let node = &g.record.moves.nodes[i];
            let mover = before.turn();
            let number = move_number(g.first_mover, i + 1);
            let comments = texts(&node.comments);
            MoveRow {
                file,
                index,
                white,
                black,
                result,
                variant: g.variant.name(),
                ply: i + 1,
                move_number: number.trim_end_matches('.').parse().unwrap_or(0),
                mover: color_name(mover),
                player: match mover {
                    drafti_rules::Color::White => white,
                    drafti_rules::Color::Black => black,
                },
                text: node.mv.text.to_string(),
                notation: mv.notation(&before.legal_moves(g.variant), false),
                path: mv.full_notation(false),
                captures: mv.capture_count(),
                captured: mv.captures().map(|s| s.to_string()).collect(),
                promotion: mv.promotes(),
                fen_before: before.to_fen(),
                fen_after: after.to_fen(),
                nags: node.nags.iter().map(|n| n.value).collect(),
                comment: (!comments.is_empty()).then(|| comments.join(" ")),
                clock: clock(&node.comments),
            }
        })
        .collect()
}
