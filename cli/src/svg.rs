//! SVG board diagrams: the position with square names, and optional arrows for moves.
//! Self-contained markup (no external assets), shared by `drafti show` and the HTML report.

use drafti_rules::{Color, Position, Square};
use std::fmt::Write;

const CELL: u32 = 48;
const MARGIN: u32 = 18;

/// An arrow from one square to another, drawn over the board.
pub struct Arrow {
    pub path: Vec<Square>,
    pub color: &'static str,
}

fn centre(sq: Square) -> (u32, u32) {
    let x = MARGIN + sq.file() as u32 * CELL + CELL / 2;
    let y = MARGIN + (7 - sq.rank() as u32) * CELL + CELL / 2;
    (x, y)
}

/// The board as an SVG element (White at the bottom), with arrows along each move's path.
pub fn board(pos: &Position, arrows: &[Arrow]) -> String {
    let size = 8 * CELL + 2 * MARGIN;
    let mut s = String::new();
    let _ = write!(
        s,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}" role="img" aria-label="board {fen}">"##,
        fen = pos.to_fen()
    );
    let _ = write!(
        s,
        r##"<rect width="{size}" height="{size}" fill="#5b3a1e"/>"##
    );
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let dark = (file + rank) % 2 == 0;
            let x = MARGIN + file * CELL;
            let y = MARGIN + (7 - rank) * CELL;
            let fill = if dark { "#b07942" } else { "#f0d9b5" };
            let _ = write!(
                s,
                r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>"##
            );
        }
    }
    for sq in Square::ALL {
        let x = MARGIN + sq.file() as u32 * CELL + 3;
        let y = MARGIN + (7 - sq.rank() as u32) * CELL + 11;
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y}" font-size="9" font-family="sans-serif" fill="#f6e7cf">{sq}</text>"##
        );
    }
    for i in 0..8u32 {
        let file = (b'a' + i as u8) as char;
        let x = MARGIN + i * CELL + CELL / 2;
        let y = MARGIN + 8 * CELL + 13;
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y}" font-size="11" text-anchor="middle" font-family="sans-serif" fill="#f0d9b5">{file}</text>"##
        );
        let ry = MARGIN + (7 - i) * CELL + CELL / 2 + 4;
        let _ = write!(
            s,
            r##"<text x="{}" y="{ry}" font-size="11" text-anchor="middle" font-family="sans-serif" fill="#f0d9b5">{}</text>"##,
            MARGIN / 2,
            i + 1
        );
    }
    for sq in Square::ALL {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let (x, y) = centre(sq);
        let (fill, stroke) = match piece.color {
            Color::White => ("#fbf7ee", "#3b2a1a"),
            Color::Black => ("#262626", "#d9d0c0"),
        };
        let r = CELL / 2 - 6;
        let _ = write!(
            s,
            r##"<circle cx="{x}" cy="{y}" r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="2"/>"##
        );
        if piece.king {
            let _ = write!(
                s,
                r##"<text x="{x}" y="{}" font-size="20" text-anchor="middle" font-family="serif" fill="{stroke}">K</text>"##,
                y + 7
            );
        }
    }
    for arrow in arrows {
        let points: Vec<String> = arrow
            .path
            .iter()
            .map(|sq| {
                let (x, y) = centre(*sq);
                format!("{x},{y}")
            })
            .collect();
        let _ = write!(
            s,
            r##"<polyline points="{}" fill="none" stroke="{c}" stroke-width="6" stroke-opacity="0.8" stroke-linecap="round" stroke-linejoin="round"/>"##,
            points.join(" "),
            c = arrow.color
        );
        if let Some(last) = arrow.path.last() {
            let (x, y) = centre(*last);
            let _ = write!(
                s,
                r##"<circle cx="{x}" cy="{y}" r="8" fill="{}" fill-opacity="0.9"/>"##,
                arrow.color
            );
        }
    }
    s.push_str("</svg>");
    s
}
