//! The HTML report's game viewer in a real browser: headless Chromium (Debian's `chromium`;
//! the README's test command installs it when it is missing) loads a report of
//! `tests/fixtures/report/small.pdn`, is driven to games and plies through the URL fragment
//! and by key presses, and the board in the rendered DOM is checked square by square (the
//! piece drawn on each square, and where the square is drawn) against the rules core's
//! position at that ply. The page must load with no request leaving it and no script error.
//! What is drawn is checked too, in the pixels of a screenshot at a desktop's and a phone's
//! width: each square of the board shows the piece the rules core has there (a white or
//! black man or king, or none), and the light squares show nothing. And the page's fixed
//! "↑ games" button covers no table cell wherever the page is scrolled.
#![cfg(unix)]

use drafti_archive::replay::{replay, ReplayOptions, ReplayedGame};
use drafti_rules::{Color, Position, Square};
use drafti_tests::browser::{file_url, Browser, Screenshot};
use drafti_tests::drafti;
use serde_json::Value;

const SMALL: &str = "fixtures/report/small.pdn";

fn games() -> Vec<ReplayedGame> {
    let text = std::fs::read(format!("{}/{SMALL}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    drafti_pdn::parse_games(&text)
        .into_iter()
        .map(|g| g.map(|r| replay(r, &ReplayOptions::default())))
        .filter_map(Result::ok)
        .collect()
}

/// What the page draws for game `id`: its ply, the address's fragment, whether the board
/// is flipped, and for each square element its name, the class of the piece drawn in it
/// (`wm`, `wk`, `bm`, `bk` or empty), and the column and row (0-7 from the top left) where
/// its centre is on the screen.
const READ_BOARD: &str = r#"(function (id) {
  var a = document.getElementById(id), svg = a.querySelector('svg.vb');
  var box = svg.getBoundingClientRect();
  return JSON.stringify({
    ply: +a.getAttribute('data-ply'), hash: location.hash,
    squares: Array.prototype.map.call(svg.querySelectorAll('[data-sq]'), function (g) {
      var r = g.getBoundingClientRect(), pc = g.querySelector('.pc');
      return [g.getAttribute('data-sq'), pc ? pc.getAttribute('class').split(' ')[1] : '',
        Math.floor((r.left + r.width / 2 - box.left) / box.width * 8),
        Math.floor((r.top + r.height / 2 - box.top) / box.height * 8)];
    })
  });
})"#;

fn read_board(browser: &mut Browser, id: &str) -> Value {
    let text = browser
        .eval(&format!("{READ_BOARD}('{id}')"))
        .unwrap_or_else(|e| panic!("cannot read the board of {id}: {e}"));
    serde_json::from_str(text.as_str().expect("a JSON text")).unwrap()
}

/// Checks the drawn board of `id` against `game`'s position after `ply` plies.
fn assert_board(browser: &mut Browser, id: &str, game: &ReplayedGame, ply: usize, flipped: bool) {
    let seen = read_board(browser, id);
    assert_eq!(
        seen["ply"], ply,
        "{id}: the viewer is not at ply {ply}: {seen}"
    );
    let position = &game.positions[ply];
    let squares = seen["squares"].as_array().expect("squares");
    assert_eq!(squares.len(), 32, "{id}: {seen}");
    for cell in squares {
        let name = cell[0].as_str().unwrap();
        let sq: Square = name.parse().unwrap();
        let expected = match position.piece_at(sq) {
            None => "",
            Some(p) => match (p.color, p.king) {
                (Color::White, false) => "wm",
                (Color::White, true) => "wk",
                (Color::Black, false) => "bm",
                (Color::Black, true) => "bk",
            },
        };
        assert_eq!(
            cell[1], expected,
            "{id} ply {ply}: square {name} shows {:?}, the rules core has {expected:?}",
            cell[1]
        );
        let (column, row) = if flipped {
            (7 - sq.file() as u64, sq.rank() as u64)
        } else {
            (sq.file() as u64, 7 - sq.rank() as u64)
        };
        assert_eq!(
            (cell[2].as_u64(), cell[3].as_u64()),
            (Some(column), Some(row)),
            "{id}: square {name} is drawn in the wrong place"
        );
    }
}

#[test]
fn the_viewer_shows_the_rules_cores_position_at_every_step() {
    let dir = drafti_tests::temp_dir("report-browser");
    let page = dir.path().join("report.html");
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "report", SMALL, "--preset", "fast", "--nodes", "400", "--html",
        ])
        .arg(&page)
        .output()
        .expect("drafti runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let games = games();
    // Game 2 reaches kings; game 4 is the Black-first showcase game with comments.
    let (two, four) = (&games[1], &games[3]);
    assert!(Square::ALL
        .iter()
        .any(|s| two.positions[32].piece_at(*s).is_some_and(|p| p.king)));
    assert_eq!(four.first_mover, Color::Black);

    let mut browser = Browser::launch(1100, 900, false).unwrap_or_else(|e| {
        panic!("headless Chromium is needed for this test and could not start: {e}")
    });
    let url = file_url(&page);
    // Through the URL fragment.
    browser.navigate(&format!("{url}#g1-2-p32")).unwrap();
    assert_board(&mut browser, "g1-2", two, 32, false);
    // By key presses, as a user steps through the game; the address follows.
    browser.press("ArrowRight").unwrap();
    assert_board(&mut browser, "g1-2", two, 33, false);
    assert_eq!(read_board(&mut browser, "g1-2")["hash"], "#g1-2-p33");
    browser.press("ArrowLeft").unwrap();
    browser.press("ArrowLeft").unwrap();
    assert_board(&mut browser, "g1-2", two, 31, false);
    browser.press("End").unwrap();
    assert_board(&mut browser, "g1-2", two, two.moves.len(), false);
    browser.press("Home").unwrap();
    assert_board(&mut browser, "g1-2", two, 0, false);
    // A new fragment in the same page (a link followed), then the board flipped.
    browser.navigate(&format!("{url}#g1-4-p5")).unwrap();
    // hashchange is dispatched as a task of its own: let it run.
    browser
        .eval("new Promise(function (r) { setTimeout(r, 0); })")
        .unwrap();
    assert_board(&mut browser, "g1-4", four, 5, false);
    browser
        .eval("document.querySelector('#g1-4 button[data-a=flip]').click()")
        .unwrap();
    assert_board(&mut browser, "g1-4", four, 5, true);
    browser.press("ArrowRight").unwrap();
    assert_board(&mut browser, "g1-4", four, 6, true);
    // A click on a move of the list.
    browser
        .eval("document.querySelector('#g1-4 .mv[data-k=\"3\"]').click()")
        .unwrap();
    assert_board(&mut browser, "g1-4", four, 3, true);

    // The engine's line shown in every position of game 2 is the analysis's (`drafti analyze
    // --json` with the report's settings), as long as the report keeps it: the page decodes
    // the compact lines (`=k`, `*`, cut `+`) to the moves the analysis found.
    let analysis = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "analyze", "--json", "--preset", "fast", "--nodes", "400", SMALL,
        ])
        .output()
        .expect("drafti runs");
    let analysis = String::from_utf8(analysis.stdout).unwrap();
    let analysed: Value = serde_json::from_str(analysis.lines().nth(1).unwrap()).unwrap();
    let moves = analysed["moves"].as_array().unwrap();
    assert_eq!(moves.len(), two.moves.len());
    let flagged = |k: usize| moves.get(k).is_some_and(|m| !m["judgement"].is_null());
    browser.navigate(&format!("{url}#g1-2-p1")).unwrap();
    // The same page: let its hashchange run before the key goes to game 2's viewer.
    browser
        .eval("new Promise(function (r) { setTimeout(r, 0); })")
        .unwrap();
    browser.press("Home").unwrap();
    assert_board(&mut browser, "g1-2", two, 0, false);
    for (k, m) in moves.iter().enumerate() {
        let shown = browser
            .eval("document.querySelector('#g1-2 .veng .pv').textContent")
            .unwrap();
        let shown = shown.as_str().unwrap();
        let cut = shown.ends_with('\u{2026}');
        let shown: Vec<&str> = shown
            .split_whitespace()
            .filter(|t| !t.ends_with('.') && *t != "\u{b7}" && *t != "\u{2026}")
            .collect();
        let mut line: Vec<&str> = m["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap())
            .collect();
        if line.is_empty() {
            line.extend(m["best"].as_str());
        }
        let keep = if flagged(k) || (k > 0 && flagged(k - 1)) {
            8
        } else {
            2
        };
        // A blunder of the analysis may be one of the biggest, which the report judges again
        // deeper: then the re-check's verdict and line are the move's everywhere (issue 39),
        // and the page shows that line, not the pass's.
        let rechecked = m["judgement"] == "blunder" && shown != line[..line.len().min(keep)];
        if !rechecked {
            assert_eq!(shown, line[..line.len().min(keep)], "game 2, position {k}");
            assert_eq!(cut, line.len() > keep, "game 2, position {k}");
        } else {
            assert!(!shown.is_empty(), "game 2, position {k}: no line shown");
        }
        browser.press("ArrowRight").unwrap();
    }

    // Nothing but the page itself was requested, and no script failed.
    let page_url = url.clone();
    for request in browser.requests() {
        let without_fragment = request.split('#').next().unwrap_or_default();
        assert_eq!(
            without_fragment, page_url,
            "the page requested something else: {request}"
        );
    }
    let errors: Vec<&Value> = browser
        .events
        .iter()
        .filter(|e| e["method"] == "Runtime.exceptionThrown")
        .collect();
    assert!(errors.is_empty(), "script errors: {errors:?}");
}

/// Where the page shows game `id` after the address was followed: its ply, the top and bottom
/// of its board on the screen, the viewport's height, and the colours of its selected move.
const PLACED: &str = r#"(function (id) {
  var a = document.getElementById(id), r = a.querySelector('svg.vb').getBoundingClientRect();
  var cur = a.querySelector('.mv.cur'), style = cur && getComputedStyle(cur);
  return JSON.stringify({
    ply: +a.getAttribute('data-ply'), top: r.top, bottom: r.bottom, height: innerHeight,
    color: style ? style.color : '', background: style ? style.backgroundColor : ''
  });
})"#;

/// The relative luminance of a CSS `rgb(r, g, b)` colour (WCAG 2).
fn luminance(css: &str) -> f64 {
    let inner = css
        .trim_start_matches("rgba(")
        .trim_start_matches("rgb(")
        .trim_end_matches(')');
    let channels: Vec<f64> = inner
        .split(',')
        .take(3)
        .map(|c| c.trim().parse::<f64>().unwrap() / 255.0)
        .map(|c| {
            if c <= 0.03928 {
                c / 12.92
            } else {
                ((c + 0.055) / 1.055).powf(2.4)
            }
        })
        .collect();
    0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
}

#[test]
fn a_biggest_blunder_link_opens_with_its_board_in_view() {
    // drafti makes the `--html-dir` folder itself.
    let scratch = drafti_tests::temp_dir("report-links");
    let dir = scratch.path().join("pages");
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["report", SMALL, "--nodes", "400", "--html-dir"])
        .arg(&dir)
        .output()
        .expect("drafti runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    let index = std::fs::read_to_string(dir.join("index.html")).unwrap();
    let blunders = &index[index.find(r#"<h2 id="blunders">"#).unwrap()..];
    let blunders = &blunders[..blunders.find("</table>").unwrap()];
    let links: Vec<&str> = blunders
        .split(r#"<a class="jb" href=""#)
        .skip(1)
        .map(|s| &s[..s.find('"').unwrap()])
        .collect();
    assert!(!links.is_empty(), "no biggest blunder in {blunders}");

    for (width, height, mobile) in [(1280, 800, false), (390, 844, true)] {
        let mut browser = Browser::launch(width, height, mobile).unwrap_or_else(|e| {
            panic!("headless Chromium is needed for this test and could not start: {e}")
        });
        for link in &links {
            let (page, fragment) = link.split_once('#').unwrap();
            let (id, ply) = fragment.rsplit_once("-p").unwrap();
            let ply: u64 = ply.parse().unwrap();
            // A fresh load each time, as a click from the index is.
            browser.navigate("about:blank").unwrap();
            browser
                .navigate(&format!("{}#{fragment}", file_url(&dir.join(page))))
                .unwrap();
            // Let the viewer settle over a few frames after the load.
            browser
                .eval("new Promise(function (r) { var n = 20; (function f() { if (n--) requestAnimationFrame(f); else r(); })(); })")
                .unwrap();
            let placed: Value = serde_json::from_str(
                browser
                    .eval(&format!("{PLACED}('{id}')"))
                    .unwrap()
                    .as_str()
                    .unwrap(),
            )
            .unwrap();
            let at = format!("{link} at {width}x{height}: {placed}");
            assert_eq!(placed["ply"], ply, "{at}");
            let (top, bottom) = (
                placed["top"].as_f64().unwrap(),
                placed["bottom"].as_f64().unwrap(),
            );
            let screen = placed["height"].as_f64().unwrap();
            assert!(
                top >= -1.0 && bottom <= screen + 1.0,
                "the board is not in view: {at}"
            );
            // The selected move is the blunder: readable on its own colour.
            let (fg, bg) = (
                luminance(placed["color"].as_str().unwrap()),
                luminance(placed["background"].as_str().unwrap()),
            );
            let contrast = (fg.max(bg) + 0.05) / (fg.min(bg) + 0.05);
            assert!(contrast >= 4.5, "contrast {contrast:.2}: {at}");
            // The arrow keys step the game that was asked for.
            browser.press("ArrowRight").unwrap();
            let after: Value = serde_json::from_str(
                browser
                    .eval(&format!("{PLACED}('{id}')"))
                    .unwrap()
                    .as_str()
                    .unwrap(),
            )
            .unwrap();
            assert_eq!(after["ply"], ply + 1, "{at}");
        }
    }
}

/// The HTML report of [`SMALL`] (`--html`, one page) in a fresh folder named after `name`:
/// the folder (removed when it drops) and the page's path.
fn small_report(name: &str) -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = drafti_tests::temp_dir(name);
    let page = dir.path().join("report.html");
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["report", SMALL, "--nodes", "400", "--html"])
        .arg(&page)
        .output()
        .expect("drafti runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    (dir, page)
}

/// Waits `n` frames of the page (its scroll handlers and drawing run meanwhile).
fn frames(browser: &mut Browser, n: u32) {
    browser
        .eval(&format!(
            "new Promise(function (r) {{ var n = {n}; (function f() {{ if (n--) requestAnimationFrame(f); else r(); }})(); }})"
        ))
        .unwrap();
}

/// How a pixel reads, by its relative luminance: a white piece (0.93 for the page's
/// colours), a light square (0.71; and a black king's crown, 0.64), a dark square even when
/// tinted for a move (0.18 to 0.41), or a black piece (0.02; and a white king's crown, 0.03).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tone {
    White,
    Light,
    Brown,
    Dark,
}

fn tone(rgb: [u8; 3]) -> Tone {
    let l = luminance(&format!("rgb({}, {}, {})", rgb[0], rgb[1], rgb[2]));
    match l {
        l if l > 0.8 => Tone::White,
        l if l >= 0.55 => Tone::Light,
        l if l >= 0.08 => Tone::Brown,
        _ => Tone::Dark,
    }
}

/// The tone most of `points` (CSS pixels of the viewport) have, if at least `least` of them
/// have it; else all the tones seen, for the failure message.
fn dominant(shot: &Screenshot, points: &[(f64, f64)], least: usize) -> Result<Tone, String> {
    let tones: Vec<Tone> = points
        .iter()
        .map(|&(x, y)| tone(shot.at(x, y).expect("a point on the screen")))
        .collect();
    for candidate in [Tone::White, Tone::Light, Tone::Brown, Tone::Dark] {
        if tones.iter().filter(|&&t| t == candidate).count() >= least {
            return Ok(candidate);
        }
    }
    Err(format!("{tones:?}"))
}

/// `count` points on the circle of radius `r` around (`x`, `y`).
fn ring(x: f64, y: f64, r: f64, count: usize) -> Vec<(f64, f64)> {
    (0..count)
        .map(|k| {
            let a = std::f64::consts::TAU * k as f64 / count as f64;
            (x + r * a.cos(), y + r * a.sin())
        })
        .collect()
}

/// What the pixels of the square of `size` CSS pixels centred at (`x`, `y`) show: `wm`,
/// `wk`, `bm`, `bk` or `` (nothing), or what is unclear. A piece is a disc of radius 0.4
/// square in its colour, an inner ring at 0.27, and a king's crown in the middle in the
/// other side's colour: the body is read on a ring at 0.33 (between the two outlines), the
/// middle on five points inside the crown.
fn drawn_piece(shot: &Screenshot, x: f64, y: f64, size: f64) -> String {
    let body = dominant(shot, &ring(x, y, 0.33 * size, 12), 10);
    let d = 0.05 * size;
    let middle = dominant(
        shot,
        &[
            (x, y),
            (x, y + d),
            (x, y - d),
            (x + d, y + d),
            (x - d, y + d),
        ],
        4,
    );
    match (body, middle) {
        (Ok(Tone::White), Ok(Tone::White)) => "wm".into(),
        (Ok(Tone::White), Ok(Tone::Dark)) => "wk".into(),
        (Ok(Tone::Dark), Ok(Tone::Dark)) => "bm".into(),
        (Ok(Tone::Dark), Ok(Tone::Light | Tone::White)) => "bk".into(),
        (Ok(Tone::Brown), Ok(Tone::Brown)) => String::new(),
        (body, middle) => format!("unclear: body {body:?}, middle {middle:?}"),
    }
}

fn piece_class(pos: &Position, sq: Square) -> &'static str {
    match pos.piece_at(sq) {
        None => "",
        Some(p) => match (p.color, p.king) {
            (Color::White, false) => "wm",
            (Color::White, true) => "wk",
            (Color::Black, false) => "bm",
            (Color::Black, true) => "bk",
        },
    }
}

/// The board of game `id` on the screen: its ply, its box and each dark square's (name,
/// left, top, width, height), in CSS pixels of the viewport.
const BOXES: &str = r#"(function (id) {
  var a = document.getElementById(id), svg = a.querySelector('svg.vb'), b = svg.getBoundingClientRect();
  return JSON.stringify({
    ply: +a.getAttribute('data-ply'), height: innerHeight, width: innerWidth,
    board: [b.left, b.top, b.width, b.height],
    squares: Array.prototype.map.call(svg.querySelectorAll('[data-sq]'), function (g) {
      var r = g.querySelector('rect.dk').getBoundingClientRect();
      return [g.getAttribute('data-sq'), r.left, r.top, r.width, r.height];
    })
  });
})"#;

/// Reads the board of game `id` from a screenshot and checks it square by square against
/// `pos`: each dark square shows the piece the rules core has there and nothing else, and
/// every light square is plain (nothing drawn over it from a neighbour).
fn assert_drawn(browser: &mut Browser, id: &str, ply: usize, pos: &Position, at: &str) {
    // The arrows (the best move, the move played) cross the pieces on purpose: out of the way.
    browser
        .eval(&format!(
            "(function () {{ var svg = document.querySelector('#{id} svg.vb'); \
             svg.querySelector('.ar').style.display = 'none'; \
             svg.scrollIntoView({{block: 'nearest'}}); }})()"
        ))
        .unwrap();
    frames(browser, 3);
    let seen: Value = serde_json::from_str(
        browser
            .eval(&format!("{BOXES}('{id}')"))
            .unwrap()
            .as_str()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(seen["ply"], ply, "{at}: {seen}");
    let board: Vec<f64> = seen["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .collect();
    let (left, top, width, height) = (board[0], board[1], board[2], board[3]);
    assert!(
        left >= 0.0
            && top >= 0.0
            && left + width <= seen["width"].as_f64().unwrap()
            && top + height <= seen["height"].as_f64().unwrap(),
        "{at}: the board is not all on the screen: {seen}"
    );
    let shot = browser.screenshot().unwrap();
    let squares = seen["squares"].as_array().unwrap();
    assert_eq!(squares.len(), 32, "{at}: {seen}");
    let mut dark_cells = Vec::new();
    let mut wrong = Vec::new();
    for cell in squares {
        let name = cell[0].as_str().unwrap();
        let sq: Square = name.parse().unwrap();
        let [l, t, w, h] = [1, 2, 3, 4].map(|i| cell[i].as_f64().unwrap());
        let (x, y) = (l + w / 2.0, t + h / 2.0);
        dark_cells.push((
            ((x - left) / width * 8.0) as usize,
            ((y - top) / height * 8.0) as usize,
        ));
        let drawn = drawn_piece(&shot, x, y, w);
        let expected = piece_class(pos, sq);
        if drawn != expected {
            wrong.push(format!(
                "{name}: drawn {drawn:?}, the rules core has {expected:?}"
            ));
        }
    }
    let size = width / 8.0;
    for column in 0..8 {
        for row in 0..8 {
            if dark_cells.contains(&(column, row)) {
                continue;
            }
            let x = left + (column as f64 + 0.5) * size;
            let y = top + (row as f64 + 0.5) * size;
            let mut points = ring(x, y, 0.33 * size, 12);
            points.extend(ring(x, y, 0.15 * size, 6));
            points.push((x, y));
            match dominant(&shot, &points, points.len()) {
                Ok(Tone::Light) => {}
                other => wrong.push(format!(
                    "the light square at column {column}, row {row} is not plain: {other:?}"
                )),
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "{at}: the board drawn is not the position:\n{}",
        wrong.join("\n")
    );
}

/// Every kind of piece as the reader sees it: a screenshot of boards that hold white and
/// black men and kings, read square by square (desktop and phone widths, the phone at two
/// device pixels to a CSS pixel).
#[test]
fn the_boards_drawn_show_each_piece_as_its_kind() {
    let (_dir, page) = small_report("report-pixels");
    let games = games();
    // The first board (games 1-4, the valid ones) with each kind of piece on it.
    let mut boards: Vec<(usize, usize)> = Vec::new();
    for kind in ["wm", "wk", "bm", "bk"] {
        let found = games[..4].iter().enumerate().find_map(|(g, game)| {
            game.positions
                .iter()
                .position(|pos| Square::ALL.iter().any(|&s| piece_class(pos, s) == kind))
                .map(|ply| (g, ply))
        });
        let found = found.unwrap_or_else(|| panic!("no board of {SMALL} has a {kind}"));
        if !boards.contains(&found) {
            boards.push(found);
        }
    }
    // And the last board of each game, kings and all.
    for (g, game) in games[..4].iter().enumerate() {
        boards.push((g, game.positions.len() - 1));
    }
    let url = file_url(&page);
    for (width, height, mobile) in [(1100, 900, false), (390, 844, true)] {
        let mut browser = Browser::launch(width, height, mobile).unwrap_or_else(|e| {
            panic!("headless Chromium is needed for this test and could not start: {e}")
        });
        for &(g, ply) in &boards {
            let id = format!("g1-{}", g + 1);
            browser.navigate("about:blank").unwrap();
            browser.navigate(&format!("{url}#{id}-p{ply}")).unwrap();
            frames(&mut browser, 20);
            let at = format!("{id} ply {ply} at {width}x{height}");
            assert_drawn(&mut browser, &id, ply, &games[g].positions[ply], &at);
        }
    }
}

/// Where the "↑ games" button is, whether it shows, and the text of every table cell under
/// it.
const UP_OVER: &str = r#"(function () {
  var up = document.querySelector('a.up'), s = getComputedStyle(up), r = up.getBoundingClientRect();
  var shown = s.display !== 'none' && s.visibility !== 'hidden' && +s.opacity > 0 && r.width > 0;
  var under = [];
  if (shown) Array.prototype.forEach.call(document.querySelectorAll('td, th'), function (c) {
    var b = c.getBoundingClientRect();
    if (b.width && b.height && b.left < r.right && b.right > r.left && b.top < r.bottom && b.bottom > r.top)
      under.push(c.textContent.trim().slice(0, 40));
  });
  return JSON.stringify({ shown: shown, under: under, y: scrollY,
    end: document.documentElement.scrollHeight - innerHeight });
})()"#;

/// The fixed "↑ games" button covers no cell of the summary's tables, wherever the page is
/// scrolled (phone and desktop widths), and it is there among the games, where it is needed.
#[test]
fn the_games_button_covers_no_table_cell() {
    let (_dir, page) = small_report("report-up");
    let url = file_url(&page);
    for (width, height, mobile) in [(390, 844, true), (1100, 700, false)] {
        let mut browser = Browser::launch(width, height, mobile).unwrap_or_else(|e| {
            panic!("headless Chromium is needed for this test and could not start: {e}")
        });
        browser.navigate(&url).unwrap();
        frames(&mut browser, 5);
        let (mut y, mut shown_among_games) = (0, 0);
        loop {
            browser.eval(&format!("window.scrollTo(0, {y})")).unwrap();
            frames(&mut browser, 3);
            let seen: Value =
                serde_json::from_str(browser.eval(UP_OVER).unwrap().as_str().unwrap()).unwrap();
            let under = seen["under"].as_array().unwrap();
            assert!(
                under.is_empty(),
                "at {width}x{height}, scrolled to {}: the button covers the cells {under:?}",
                seen["y"]
            );
            let among_games: bool = browser
                .eval(&format!(
                    "document.querySelector('article.game').getBoundingClientRect().top < {}",
                    height / 2
                ))
                .unwrap()
                .as_bool()
                .unwrap();
            if among_games && seen["shown"] == true {
                shown_among_games += 1;
            }
            if seen["y"].as_f64().unwrap() >= seen["end"].as_f64().unwrap() {
                break;
            }
            y += height / 4;
        }
        assert!(
            shown_among_games > 0,
            "at {width}x{height}: the button never shows among the games"
        );
    }
}
