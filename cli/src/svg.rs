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

// ---------------------------------------------------------------------------------------
// Compact diagrams and charts for the HTML report.
//
// A report holds thousands of diagrams, so the board (squares, coordinates, square numbers)
// and the four pieces are drawn once, in `report_defs`, and every diagram places them with
// `<use href="#…">`: about a kilobyte per diagram instead of ten. Inline SVG in HTML needs
// no namespace, so these carry none (and the report references nothing outside itself).

/// The ids that [`diagram`] uses; [`report_defs`] defines them.
const BOARD_ID: &str = "dr-board";

/// The width and height of a diagram's view box.
const SIZE: u32 = 8 * CELL + 2 * MARGIN;

/// The board and the pieces, once per HTML document, in a hidden SVG: what every
/// [`diagram`] of the document refers to.
pub fn report_defs() -> String {
    let mut s = String::from(
        r##"<svg class="defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>"##,
    );
    let _ = write!(s, r##"<g id="{BOARD_ID}">"##);
    let _ = write!(
        s,
        r##"<rect width="{SIZE}" height="{SIZE}" fill="#5b3a1e"/><rect x="{MARGIN}" y="{MARGIN}" width="{b}" height="{b}" fill="#f0d9b5"/>"##,
        b = 8 * CELL
    );
    // The 32 dark squares as one path.
    s.push_str(r##"<path fill="#b07942" d=""##);
    for sq in Square::ALL {
        let x = MARGIN + sq.file() as u32 * CELL;
        let y = MARGIN + (7 - sq.rank() as u32) * CELL;
        let _ = write!(s, "M{x} {y}h{CELL}v{CELL}h-{CELL}z");
    }
    s.push_str(r##""/>"##);
    // Square numbers (1-32) small in the corner of each dark square, for numeric records.
    s.push_str(r##"<g font-size="8" font-family="sans-serif" fill="#f6e7cf">"##);
    for sq in Square::ALL {
        let x = MARGIN + sq.file() as u32 * CELL + 2;
        let y = MARGIN + (7 - sq.rank() as u32) * CELL + 9;
        let _ = write!(s, r##"<text x="{x}" y="{y}">{}</text>"##, sq.number());
    }
    s.push_str("</g>");
    s.push_str(
        r##"<g font-size="12" font-family="sans-serif" fill="#f0d9b5" text-anchor="middle">"##,
    );
    for i in 0..8u32 {
        let file = (b'a' + i as u8) as char;
        let x = MARGIN + i * CELL + CELL / 2;
        let y = MARGIN + 8 * CELL + 14;
        let _ = write!(s, r##"<text x="{x}" y="{y}">{file}</text>"##);
        let ry = MARGIN + (7 - i) * CELL + CELL / 2 + 4;
        let _ = write!(s, r##"<text x="{}" y="{ry}">{}</text>"##, MARGIN / 2, i + 1);
    }
    s.push_str("</g></g>");
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

/// One report diagram: the board of [`report_defs`], the pieces of `pos` and `arrows`
/// (each with an arrowhead at its last square). `label` is the accessible name.
pub fn diagram(pos: &Position, arrows: &[Arrow], label: &str) -> String {
    let mut s = String::with_capacity(1200);
    let _ = write!(
        s,
        r##"<svg class="board" viewBox="0 0 {SIZE} {SIZE}" role="img" aria-label="{}"><use href="#{BOARD_ID}"/>"##,
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
        let (x, y) = centre(sq);
        let _ = write!(s, r##"<use href="#{id}" x="{x}" y="{y}"/>"##);
    }
    for arrow in arrows {
        arrow_markup(&mut s, arrow);
    }
    s.push_str("</svg>");
    s
}

/// A polyline along the arrow's squares ending in a drawn arrowhead (no markers, so each
/// diagram stands alone).
fn arrow_markup(s: &mut String, arrow: &Arrow) {
    let points: Vec<(f64, f64)> = arrow
        .path
        .iter()
        .map(|sq| {
            let (x, y) = centre(*sq);
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

/// A point marked on an [`eval_graph`]: a dot at a ply, with a colour, a tooltip and an
/// optional in-page link (`#id`).
pub struct GraphMark {
    /// The ply after which the dot sits (1 = after the first move).
    pub ply: usize,
    /// Fill colour.
    pub color: &'static str,
    /// Tooltip text.
    pub title: String,
    /// In-page anchor to link to, without `#`.
    pub link: Option<String>,
}

/// The evaluation graph of a game: White's win percentage (0–100) in each position, as a
/// light area under the curve on a dark ground (more light: better for White), a dashed
/// line at 50, the move numbers below and `marks` as dots.
pub fn eval_graph(white_win: &[f64], marks: &[GraphMark], label: &str) -> String {
    const W: f64 = 600.0;
    const H: f64 = 150.0;
    const LEFT: f64 = 28.0;
    const RIGHT: f64 = 8.0;
    const TOP: f64 = 6.0;
    const BOTTOM: f64 = 22.0;
    let plot_w = W - LEFT - RIGHT;
    let plot_h = H - TOP - BOTTOM;
    let n = white_win.len().saturating_sub(1).max(1) as f64;
    let x = |i: usize| LEFT + i as f64 * plot_w / n;
    let y = |v: f64| TOP + (1.0 - v.clamp(0.0, 100.0) / 100.0) * plot_h;
    let mut s = String::with_capacity(2048);
    let _ = write!(
        s,
        r##"<svg class="graph" viewBox="0 0 {W} {H}" role="img" aria-label="{}">"##,
        escape(label)
    );
    let _ = write!(
        s,
        r##"<rect x="{LEFT}" y="{TOP}" width="{plot_w}" height="{plot_h}" fill="#3d3833"/>"##
    );
    if !white_win.is_empty() {
        // One polygon: the curve (stroked) closed along the bottom of the plot.
        let mut area = format!("{LEFT:.0},{:.0}", TOP + plot_h);
        for (i, v) in white_win.iter().enumerate() {
            let _ = write!(area, " {:.0},{:.0}", x(i), y(*v));
        }
        let _ = write!(area, " {:.0},{:.0}", x(white_win.len() - 1), TOP + plot_h);
        let _ = write!(
            s,
            r##"<polygon points="{area}" fill="#efe6d6" stroke="#b07942" stroke-width="1.5" stroke-linejoin="round"/>"##
        );
    }
    let mid = y(50.0);
    let _ = write!(
        s,
        r##"<line x1="{LEFT}" y1="{mid}" x2="{}" y2="{mid}" stroke="#8a7f73" stroke-dasharray="4 3"/>"##,
        LEFT + plot_w
    );
    s.push_str(r##"<g font-size="10" font-family="sans-serif" fill="#6b6158">"##);
    for (v, text) in [(100.0, "100"), (50.0, "50"), (0.0, "0")] {
        let _ = write!(
            s,
            r##"<text x="{}" y="{:.1}" text-anchor="end">{text}</text>"##,
            LEFT - 4.0,
            y(v) + 3.5
        );
    }
    // Move numbers: a tick every 10 moves (20 plies), or every 5 in short games.
    let plies = white_win.len().saturating_sub(1);
    let step = if plies > 60 { 20 } else { 10 };
    let mut ply = step;
    while ply <= plies {
        let _ = write!(
            s,
            r##"<text x="{:.1}" y="{}" text-anchor="middle">{}</text>"##,
            x(ply),
            H - 6.0,
            ply / 2
        );
        ply += step;
    }
    s.push_str("</g>");
    for m in marks {
        let Some(v) = white_win.get(m.ply) else {
            continue;
        };
        let dot = format!(
            r##"<circle cx="{:.1}" cy="{:.1}" r="4.5" fill="{}" stroke="#fff" stroke-width="1"><title>{}</title></circle>"##,
            x(m.ply),
            y(*v),
            m.color,
            escape(&m.title)
        );
        match &m.link {
            Some(id) => {
                let _ = write!(s, r##"<a href="#{id}">{dot}</a>"##);
            }
            None => s.push_str(&dot),
        }
    }
    s.push_str("</svg>");
    s
}

/// Text made safe for XML and HTML content and attribute values.
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
    fn a_diagram_places_every_piece_on_the_shared_board() {
        let pos = Position::start(Color::White);
        let arrow = Arrow {
            path: vec!["c3".parse().unwrap(), "d4".parse().unwrap()],
            color: "#f00",
        };
        let svg = diagram(&pos, &[arrow], "start <&>");
        assert_eq!(svg.matches(r##"<use href="#dr-board"/>"##).count(), 1);
        assert_eq!(svg.matches(r##"href="#dr-wm""##).count(), 12);
        assert_eq!(svg.matches(r##"href="#dr-bm""##).count(), 12);
        assert_eq!(svg.matches("<polygon").count(), 1);
        assert!(svg.contains("start &lt;&amp;&gt;"));
        let defs = report_defs();
        for id in ["dr-board", "dr-wm", "dr-wk", "dr-bm", "dr-bk"] {
            assert!(defs.contains(&format!(r#"id="{id}""#)), "{id}");
        }
    }

    #[test]
    fn eval_graph_handles_any_length() {
        assert!(eval_graph(&[], &[], "none").ends_with("</svg>"));
        let one = eval_graph(&[50.0], &[], "one");
        assert!(one.contains("<polygon"));
        let marks = [GraphMark {
            ply: 2,
            color: "#d62828",
            title: "2... x??".to_string(),
            link: Some("g1-1-p2".to_string()),
        }];
        let svg = eval_graph(&[50.0, 60.0, 10.0], &marks, "three");
        assert!(svg.contains(r##"<a href="#g1-1-p2">"##));
        // A mark beyond the game is left out.
        let beyond = [GraphMark {
            ply: 9,
            color: "#000",
            title: String::new(),
            link: None,
        }];
        assert!(!eval_graph(&[50.0], &beyond, "x").contains("<circle"));
    }
}
