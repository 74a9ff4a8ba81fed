//! SVG board diagrams: a standalone board with square names ([`board`], `drafti show
//! --svg`) and optional arrows for moves (each with its head drawn, no markers); compact
//! diagrams sharing one board for pages with many of them ([`diagram`], the puzzles page);
//! and the text escaping of every XML and HTML document drafti writes ([`escape`]). The HTML
//! report draws its boards in the page (`assets/viewer.js`).

use drafti_rules::{Color, Position, Square};
use std::fmt::Write;

const CELL: u32 = 48;
const MARGIN: u32 = 18;

/// An arrow along a move's squares, drawn over the board.
pub struct Arrow {
    /// The squares it passes, from the first to the one its head points at.
    pub path: Vec<Square>,
    /// Its colour, as SVG writes one (`#3a6ea5`).
    pub color: &'static str,
}

fn centre(sq: Square) -> (u32, u32) {
    let x = MARGIN + sq.file() as u32 * CELL + CELL / 2;
    let y = MARGIN + (7 - sq.rank() as u32) * CELL + CELL / 2;
    (x, y)
}

/// The board as an SVG element (White at the bottom), with arrows along each move's path.
///
/// ```
/// use drafti_report::svg::{board, Arrow};
/// use drafti_rules::Position;
///
/// let pos = Position::from_fen("W:W21,K32:B1").unwrap();
/// let arrow = Arrow { path: vec!["c3".parse().unwrap(), "d4".parse().unwrap()], color: "#3a6ea5" };
/// let svg = board(&pos, &[arrow]);
/// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
/// assert_eq!(svg.matches("<circle").count(), 3);
/// assert_eq!(svg.matches(">K</text>").count(), 1);
/// ```
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
        arrow_markup(&mut s, arrow, false);
    }
    s.push_str("</svg>");
    s
}

/// Writes [`board`] to `out` as a standalone SVG file (an XML declaration first).
pub fn write_document(
    out: &mut impl std::io::Write,
    pos: &Position,
    arrows: &[Arrow],
) -> std::io::Result<()> {
    let mut doc = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    doc.push_str(&board(pos, arrows));
    doc.push('\n');
    out.write_all(doc.as_bytes())
}

// ---------------------------------------------------------------------------------------
// Compact static diagrams for pages with many boards (the puzzles page; the report draws
// its boards in the page instead).
//
// Such a page holds hundreds of diagrams, so the board (squares, coordinates, square numbers)
// and the four pieces are drawn once, in `diagram_defs`, and every diagram places them with
// `<use href="#…">`: about a kilobyte per diagram instead of ten. Inline SVG in HTML needs
// no namespace, so these carry none (and the page references nothing outside itself).

/// The ids that [`diagram`] uses; [`diagram_defs`] defines them: the board from White's side,
/// and from Black's.
const BOARD_ID: &str = "dr-board";
const BOARD_FLIPPED_ID: &str = "dr-board-b";

/// Where the centre of `sq` is in a compact diagram, seen from White's side or, `flipped`,
/// from Black's.
fn centre_on(sq: Square, flipped: bool) -> (u32, u32) {
    let (x, y) = centre(sq);
    if flipped {
        (SIZE - x, SIZE - y)
    } else {
        (x, y)
    }
}

/// The width and height of a diagram's view box.
const SIZE: u32 = 8 * CELL + 2 * MARGIN;

/// The board and the pieces, once per HTML document, in a hidden SVG: what every
/// [`diagram`] of the document refers to.
pub fn diagram_defs() -> String {
    let mut s = String::from(
        r##"<svg class="defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>"##,
    );
    board_def(&mut s, BOARD_ID, false);
    board_def(&mut s, BOARD_FLIPPED_ID, true);
    let r = CELL / 2 - 6;
    for (id, fill, stroke, king) in [
        ("dr-wm", "#fbf7ee", "#3b2a1a", false),
        ("dr-wk", "#fbf7ee", "#3b2a1a", true),
        ("dr-bm", "#262626", "#d9d0c0", false),
        ("dr-bk", "#262626", "#d9d0c0", true),
    ] {
        let _ = write!(
            s,
            r##"<g id="{id}"><circle r="{r}" fill="{fill}" stroke="{stroke}" stroke-width="2"/><circle r="{}" fill="none" stroke="{stroke}" stroke-opacity="0.45" stroke-width="1.5"/>"##,
            r - 6
        );
        if king {
            let _ = write!(
                s,
                r##"<path d="M-9 5l-2-11 6 5 5-8 5 8 6-5-2 11z" fill="{stroke}"/>"##
            );
        }
        s.push_str("</g>");
    }
    s.push_str("</defs></svg>");
    s
}

/// The board (squares, coordinates, square numbers) as the group `id`, from White's side or,
/// `flipped`, from Black's.
fn board_def(s: &mut String, id: &str, flipped: bool) {
    let _ = write!(s, r##"<g id="{id}">"##);
    let _ = write!(
        s,
        r##"<rect width="{SIZE}" height="{SIZE}" fill="#5b3a1e"/><rect x="{MARGIN}" y="{MARGIN}" width="{b}" height="{b}" fill="#f0d9b5"/>"##,
        b = 8 * CELL
    );
    // The 32 dark squares as one path.
    s.push_str(r##"<path fill="#b07942" d=""##);
    for sq in Square::ALL {
        let (cx, cy) = centre_on(sq, flipped);
        let (x, y) = (cx - CELL / 2, cy - CELL / 2);
        let _ = write!(s, "M{x} {y}h{CELL}v{CELL}h-{CELL}z");
    }
    s.push_str(r##""/>"##);
    // Square numbers (1-32) small in the corner of each dark square, for numeric records.
    s.push_str(r##"<g font-size="8" font-family="sans-serif" fill="#f6e7cf">"##);
    for sq in Square::ALL {
        let (cx, cy) = centre_on(sq, flipped);
        let (x, y) = (cx - CELL / 2 + 2, cy - CELL / 2 + 9);
        let _ = write!(s, r##"<text x="{x}" y="{y}">{}</text>"##, sq.number());
    }
    s.push_str("</g>");
    s.push_str(
        r##"<g font-size="12" font-family="sans-serif" fill="#f0d9b5" text-anchor="middle">"##,
    );
    for i in 0..8u32 {
        // The i-th column from the left and the i-th row from the bottom.
        let (file, rank) = if flipped { (7 - i, 7 - i) } else { (i, i) };
        let x = MARGIN + i * CELL + CELL / 2;
        let y = MARGIN + 8 * CELL + 14;
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y}">{}</text>"##,
            (b'a' + file as u8) as char
        );
        let ry = MARGIN + (7 - i) * CELL + CELL / 2 + 4;
        let _ = write!(
            s,
            r##"<text x="{}" y="{ry}">{}</text>"##,
            MARGIN / 2,
            rank + 1
        );
    }
    s.push_str("</g></g>");
}

/// One compact diagram: the board of [`diagram_defs`], the pieces of `pos` and `arrows`
/// (each with an arrowhead at its last square). `label` is the accessible name.
///
/// ```
/// use drafti_report::svg::{diagram, diagram_defs};
/// use drafti_rules::{Color, Position};
///
/// let page = format!("{}{}", diagram_defs(), diagram(&Position::start(Color::White), &[], "start"));
/// // Every diagram uses the board and the pieces that the page defines once.
/// assert_eq!(page.matches(r##"<use href="#dr-wm""##).count(), 12);
/// assert!(page.contains(r#"<g id="dr-wm">"#));
/// ```
pub fn diagram(pos: &Position, arrows: &[Arrow], label: &str) -> String {
    diagram_from(pos, arrows, label, false)
}

/// [`diagram`] seen from Black's side when `flipped` (a puzzle Black solves).
///
/// ```
/// use drafti_report::svg::diagram_from;
/// use drafti_rules::Position;
///
/// let pos = Position::from_fen("B:W32:B1").unwrap();
/// // From Black's side, Black's man on b8 (square 1) is near the bottom right.
/// let svg = diagram_from(&pos, &[], "Black to play", true);
/// assert!(svg.contains(r##"<use href="#dr-board-b"/>"##));
/// assert!(svg.contains(r##"<use href="#dr-bm" x="330" y="378"/>"##));
/// ```
pub fn diagram_from(pos: &Position, arrows: &[Arrow], label: &str, flipped: bool) -> String {
    let mut s = String::with_capacity(1200);
    let board = if flipped { BOARD_FLIPPED_ID } else { BOARD_ID };
    let _ = write!(
        s,
        r##"<svg class="board" viewBox="0 0 {SIZE} {SIZE}" role="img" aria-label="{}"><use href="#{board}"/>"##,
        escape(label)
    );
    for sq in Square::ALL {
        let Some(piece) = pos.piece_at(sq) else {
            continue;
        };
        let id = match (piece.color, piece.king) {
            (Color::White, false) => "dr-wm",
            (Color::White, true) => "dr-wk",
            (Color::Black, false) => "dr-bm",
            (Color::Black, true) => "dr-bk",
        };
        let (x, y) = centre_on(sq, flipped);
        let _ = write!(s, r##"<use href="#{id}" x="{x}" y="{y}"/>"##);
    }
    for arrow in arrows {
        arrow_markup(&mut s, arrow, flipped);
    }
    s.push_str("</svg>");
    s
}

/// A polyline along the arrow's squares ending in a drawn arrowhead (no markers, so each
/// diagram stands alone).
fn arrow_markup(s: &mut String, arrow: &Arrow, flipped: bool) {
    let points: Vec<(f64, f64)> = arrow
        .path
        .iter()
        .map(|sq| {
            let (x, y) = centre_on(*sq, flipped);
            (x as f64, y as f64)
        })
        .collect();
    if points.len() < 2 {
        return;
    }
    let (tx, ty) = points[points.len() - 1];
    let (px, py) = points[points.len() - 2];
    let (dx, dy) = (tx - px, ty - py);
    let len = (dx * dx + dy * dy).sqrt().max(1.0);
    let (ux, uy) = (dx / len, dy / len);
    const HEAD: f64 = 18.0;
    const HALF: f64 = 11.0;
    let (bx, by) = (tx - ux * HEAD, ty - uy * HEAD);
    let mut line = String::new();
    for (x, y) in &points[..points.len() - 1] {
        let _ = write!(line, "{x:.0},{y:.0} ");
    }
    let _ = write!(line, "{bx:.1},{by:.1}");
    let _ = write!(
        s,
        r##"<g fill="{c}" stroke="{c}" opacity="0.85"><polyline points="{line}" fill="none" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/><polygon points="{tx:.1},{ty:.1} {:.1},{:.1} {:.1},{:.1}" stroke="none"/></g>"##,
        bx - uy * HALF,
        by + ux * HALF,
        bx + uy * HALF,
        by - ux * HALF,
        c = arrow.color,
    );
}

/// Text made safe for XML and HTML content and attribute values.
///
/// ```
/// assert_eq!(drafti_report::svg::escape(r#"<b class="x">Tom & Jerry's</b>"#),
///            "&lt;b class=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/b&gt;");
/// ```
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            // Control characters are not allowed in XML 1.0.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_board_has_every_piece_and_arrow_heads() {
        let pos = Position::start(Color::White);
        let arrow = Arrow {
            path: vec!["c3".parse().unwrap(), "d4".parse().unwrap()],
            color: "#f00",
        };
        let svg = board(&pos, &[arrow]);
        assert_eq!(svg.matches("<circle").count(), 24);
        assert_eq!(svg.matches("<polygon").count(), 1);
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
    }

    #[test]
    fn escape_makes_text_safe() {
        assert_eq!(escape("a<&>\"'"), "a&lt;&amp;&gt;&quot;&#39;");
        assert_eq!(escape("\u{1}"), "\u{fffd}");
    }
}
