//! The report's analysis board and the puzzles page in a real browser (headless Chromium, at
//! a desktop and a phone width), driven by clicks and taps at the squares' places on the
//! screen: a what-if move on a game's board and the engine's answer (the WebAssembly module
//! in the page), going on, stepping back and returning to the game; the game's move and the
//! engine's side by side at a flagged move; puzzles solved by clicks, a multi-capture by its
//! squares in order, shown from the solver's side, with progress kept; the archive's explorer
//! and the index's filters. Every board is checked against the rules core's position, as the
//! page draws it (the piece in each square and where the square is on the screen).
#![cfg(unix)]

use drafti_archive::replay::{replay, ReplayOptions, ReplayedGame};
use drafti_rules::{Color, Move, Position, Square, Variant};
use drafti_tests::browser::{file_url, Browser};
use drafti_tests::drafti;
use serde_json::Value;
use std::path::{Path, PathBuf};

const SMALL: &str = "fixtures/report/small.pdn";
const PUZZLES: [&str; 2] = [
    "fixtures/puzzles/constructed.pdn",
    "fixtures/puzzles/black-to-play.pdn",
];
const SIZES: [(u32, u32, bool); 2] = [(1100, 900, false), (390, 844, true)];

fn fixture(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(path)
}

fn games() -> Vec<ReplayedGame> {
    let text = std::fs::read(fixture(SMALL)).unwrap();
    drafti_pdn::parse_games(&text)
        .into_iter()
        .map(|g| g.map(|r| replay(r, &ReplayOptions::default())))
        .filter_map(Result::ok)
        .collect()
}

/// A fresh folder for one test, removed when the returned guard drops.
fn temp_dir(name: &str) -> tempfile::TempDir {
    drafti_tests::temp_dir(&format!("board-{name}"))
}

/// The report of the small archive, as the viewer's test makes it.
fn report(dir: &Path) -> PathBuf {
    let page = dir.join("report.html");
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["report", SMALL, "--nodes", "400", "--html"])
        .arg(&page)
        .output()
        .expect("drafti runs");
    assert_eq!(output.status.code(), Some(1), "{output:?}");
    page
}

fn launch(width: u32, height: u32, mobile: bool) -> Browser {
    Browser::launch(width, height, mobile).unwrap_or_else(|e| {
        panic!("headless Chromium is needed for this test and could not start: {e}")
    })
}

/// Waits (in the page, up to 30 s) until `condition` is true; fails with `what` if it never is.
fn wait_for(browser: &mut Browser, condition: &str, what: &str) {
    let done = browser
        .eval(&format!(
            "new Promise(function (done) {{ var end = Date.now() + 30000; (function f() {{ \
               var ok = false; try {{ ok = !!({condition}); }} catch (e) {{}} \
               if (ok) requestAnimationFrame(function () {{ done(true); }}); \
               else if (Date.now() > end) done(false); else setTimeout(f, 25); }})(); }})"
        ))
        .unwrap();
    assert_eq!(done, Value::Bool(true), "never happened: {what}");
}

fn text(browser: &mut Browser, expression: &str) -> String {
    browser
        .eval(expression)
        .unwrap_or_else(|e| panic!("{e}"))
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// What the board in `scope` (a selector) draws: for each square element its name, the piece
/// drawn in it (`wm`, `wk`, `bm`, `bk` or empty), its column and row on the screen (0-7 from
/// the top left) and its centre in CSS pixels.
const READ_BOARD: &str = r#"(function (scope) {
  var svg = document.querySelector(scope + ' svg.vb'), box = svg.getBoundingClientRect();
  return JSON.stringify(Array.prototype.map.call(svg.querySelectorAll('[data-sq]'), function (g) {
    var r = g.getBoundingClientRect(), pc = g.querySelector('.pc');
    return [g.getAttribute('data-sq'), pc ? pc.getAttribute('class').split(' ')[1] : '',
      Math.floor((r.left + r.width / 2 - box.left) / box.width * 8),
      Math.floor((r.top + r.height / 2 - box.top) / box.height * 8),
      r.left + r.width / 2, r.top + r.height / 2];
  }));
})"#;

fn read_board(browser: &mut Browser, scope: &str) -> Vec<Value> {
    let seen = text(browser, &format!("{READ_BOARD}('{scope}')"));
    serde_json::from_str(&seen).unwrap()
}

fn piece_name(pos: &Position, sq: Square) -> &'static str {
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

/// Checks the board drawn in `scope` against `pos`, seen from White's side or, `flipped`,
/// from Black's.
fn assert_board(browser: &mut Browser, scope: &str, pos: &Position, flipped: bool, what: &str) {
    let cells = read_board(browser, scope);
    assert_eq!(cells.len(), 32, "{what}");
    for cell in cells {
        let name = cell[0].as_str().unwrap();
        let sq: Square = name.parse().unwrap();
        assert_eq!(
            cell[1].as_str().unwrap(),
            piece_name(pos, sq),
            "{what}: square {name} shows {}, the rules core has {:?}\n{pos}",
            cell[1],
            piece_name(pos, sq)
        );
        let (column, row) = if flipped {
            (7 - sq.file() as u64, sq.rank() as u64)
        } else {
            (sq.file() as u64, 7 - sq.rank() as u64)
        };
        assert_eq!(
            (cell[2].as_u64(), cell[3].as_u64()),
            (Some(column), Some(row)),
            "{what}: square {name} is drawn in the wrong place"
        );
    }
}

/// Clicks (or, on a phone, taps) the centre of square `name` of the board in `scope`, as a
/// user does: the browser's own input events at that point of the screen.
fn touch_square(browser: &mut Browser, scope: &str, name: &str, mobile: bool) {
    browser
        .eval(&format!(
            "new Promise(function (done) {{ \
               document.querySelector('{scope} svg.vb [data-sq={name}]').scrollIntoView({{block: 'center'}}); \
               requestAnimationFrame(function () {{ requestAnimationFrame(done); }}); }})"
        ))
        .unwrap();
    let cells = read_board(browser, scope);
    let cell = cells.iter().find(|c| c[0] == name).expect("the square");
    let (x, y) = (cell[4].as_f64().unwrap(), cell[5].as_f64().unwrap());
    if mobile {
        for kind in ["touchStart", "touchEnd"] {
            let points = if kind == "touchStart" {
                serde_json::json!([{"x": x, "y": y}])
            } else {
                serde_json::json!([])
            };
            browser
                .call(
                    "Input.dispatchTouchEvent",
                    serde_json::json!({"type": kind, "touchPoints": points}),
                )
                .unwrap();
        }
    } else {
        for kind in ["mousePressed", "mouseReleased"] {
            browser
                .call(
                    "Input.dispatchMouseEvent",
                    serde_json::json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
                )
                .unwrap();
        }
    }
}

/// Plays `mv` on the board in `scope` by its squares in order (the start, each landing).
fn touch_move(browser: &mut Browser, scope: &str, mv: &Move, mobile: bool) {
    for sq in mv.path() {
        touch_square(browser, scope, &sq.to_string(), mobile);
        // Each click is answered by a promise of the page (the module's legal moves).
        browser
            .eval("new Promise(function (r) { setTimeout(r, 30); })")
            .unwrap();
    }
}

fn legal(pos: &Position, text: &str) -> Move {
    let found = pos.parse_move(Variant::Tanzanian, text).unwrap();
    assert_eq!(found.len(), 1, "{text} in {pos}");
    found[0]
}

/// The engine's finished answer in the panel of `scope`: (its line's moves, White's chances
/// in %, the depth), once the search is over.
fn engine_answer(browser: &mut Browser, scope: &str) -> (Vec<String>, u64, u64) {
    wait_for(
        browser,
        &format!(
            "(document.querySelector('{scope} .weng .wdepth') || {{}}).textContent && \
             !/\\u2026/.test(document.querySelector('{scope} .weng .wdepth').textContent)"
        ),
        "the engine's answer",
    );
    let line = text(
        browser,
        &format!("document.querySelector('{scope} .weng .wpv').textContent"),
    );
    let chances = text(
        browser,
        &format!("document.querySelector('{scope} .weng .wwc').textContent"),
    );
    let depth = text(
        browser,
        &format!("document.querySelector('{scope} .weng .wdepth').textContent"),
    );
    let number = |t: &str| -> u64 {
        t.chars()
            .filter(char::is_ascii_digit)
            .collect::<String>()
            .parse()
            .unwrap_or_else(|_| panic!("no number in {t:?}"))
    };
    (
        line.split_whitespace().map(String::from).collect(),
        number(&chances),
        number(&depth),
    )
}

#[test]
fn a_what_if_move_is_played_and_the_engine_answers() {
    let scratch = temp_dir("what-if");
    let dir = scratch.path();
    let page = report(dir);
    let html = std::fs::read_to_string(&page).unwrap();
    let engine = html
        .split(r#"<script type="application/octet-stream" id="drafti-wasm">"#)
        .nth(1)
        .expect("the engine is in the page");
    let engine = &engine[..engine.find("</script>").unwrap()];
    assert!(
        engine.len() < 1_000_000,
        "the engine adds {} bytes",
        engine.len()
    );
    let games = games();
    let one = &games[0];
    for (width, height, mobile) in SIZES {
        let at = format!("at {width}x{height}");
        let mut browser = launch(width, height, mobile);
        browser
            .navigate(&format!("{}#g1-1-p0", file_url(&page)))
            .unwrap();
        wait_for(
            &mut browser,
            "document.querySelector('#g1-1 .vw')",
            "the viewer",
        );
        let start = one.positions[0];
        assert_board(&mut browser, "#g1-1", &start, false, &at);
        // The game went c3-b4; the player tries c3-d4 instead.
        assert_ne!(one.moves[0].path().nth(1), Some("d4".parse().unwrap()));
        let first = legal(&start, "c3-d4");
        touch_move(&mut browser, "#g1-1", &first, mobile);
        wait_for(
            &mut browser,
            "document.querySelector('#g1-1 .wif')",
            "the what-if line",
        );
        let after_first = start.play(&first);
        assert_board(
            &mut browser,
            "#g1-1",
            &after_first,
            false,
            &format!("c3-d4 {at}"),
        );
        let (line, white, depth) = engine_answer(&mut browser, "#g1-1");
        assert!(depth >= 1 && white <= 100, "{line:?} {white} {depth} {at}");
        let reply = after_first
            .parse_move(Variant::Tanzanian, &line[0])
            .unwrap_or_else(|e| panic!("{}: {e}", line[0]));
        assert_eq!(
            reply.len(),
            1,
            "the engine's move {} is legal {at}",
            line[0]
        );
        let bar = text(
            &mut browser,
            "String(document.querySelector('#g1-1 .webar').getAttribute('data-white'))",
        );
        assert_eq!(
            bar,
            white.to_string(),
            "the bar shows the engine's chances {at}"
        );
        // Go on: the engine's reply, played by the player.
        touch_move(&mut browser, "#g1-1", &reply[0], mobile);
        let after_reply = after_first.play(&reply[0]);
        wait_for(
            &mut browser,
            "document.querySelectorAll('#g1-1 .wline .mv').length === 2",
            "the second what-if move",
        );
        assert_board(
            &mut browser,
            "#g1-1",
            &after_reply,
            false,
            &format!("reply {at}"),
        );
        // Step back, then return to the game's line.
        browser.press("ArrowLeft").unwrap();
        wait_for(
            &mut browser,
            "document.querySelector('#g1-1 .wline .mv.cur') && document.querySelectorAll('#g1-1 .wline .mv')[0].classList.contains('cur')",
            "a step back",
        );
        assert_board(
            &mut browser,
            "#g1-1",
            &after_first,
            false,
            &format!("back {at}"),
        );
        browser
            .eval("document.querySelector('#g1-1 .wret').click()")
            .unwrap();
        wait_for(
            &mut browser,
            "!document.querySelector('#g1-1 .wif')",
            "the return to the game",
        );
        assert_board(
            &mut browser,
            "#g1-1",
            &start,
            false,
            &format!("the game {at}"),
        );
        let errors: Vec<&Value> = browser
            .events
            .iter()
            .filter(|e| e["method"] == "Runtime.exceptionThrown")
            .collect();
        assert!(errors.is_empty(), "script errors {at}: {errors:?}");
        // Nothing left the page: the engine's worker comes from the page itself.
        let url = file_url(&page);
        for request in browser.requests() {
            assert!(
                request.starts_with(&url) || request.starts_with("blob:"),
                "the page requested {request}"
            );
        }
    }
}

#[test]
fn at_a_flagged_move_the_games_move_and_the_engines_are_side_by_side() {
    let scratch = temp_dir("compare");
    let dir = scratch.path();
    let page = report(dir);
    let games = games();
    let mut browser = launch(1100, 900, false);
    browser.navigate(&file_url(&page)).unwrap();
    // The first flagged move of game 2, as the page marks it.
    browser
        .navigate(&format!("{}#g1-2-p0", file_url(&page)))
        .unwrap();
    wait_for(
        &mut browser,
        "document.querySelector('#g1-2 .vw')",
        "the viewer",
    );
    let k: usize = text(
        &mut browser,
        "String(document.querySelector('#g1-2 .mv.jb, #g1-2 .mv.jm, #g1-2 .mv.ji').getAttribute('data-k'))",
    )
    .parse()
    .unwrap();
    let two = &games[1];
    let played = two.moves[k - 1];
    browser
        .navigate(&format!("{}#g1-2-p{}", file_url(&page), k - 1))
        .unwrap();
    browser
        .eval("new Promise(function (r) { setTimeout(r, 0); })")
        .unwrap();
    wait_for(
        &mut browser,
        "document.querySelector('#g1-2 .wcmp')",
        "the comparison",
    );
    let columns = text(
        &mut browser,
        "JSON.stringify(Array.prototype.map.call(document.querySelectorAll('#g1-2 .wcmp .wcol button'), function (b) { return b.textContent; }))",
    );
    let columns: Vec<String> = serde_json::from_str(&columns).unwrap();
    assert_eq!(columns.len(), 2, "{columns:?}");
    let before = two.positions[k - 1];
    let legal_moves = before.legal_moves(Variant::Tanzanian);
    // `12. d6-c5?!`: the move, without its number and its judgement's symbol.
    let word = |c: &str| {
        let w = c.split_whitespace().last().unwrap();
        w.trim_end_matches(['?', '!']).to_string()
    };
    let game_move = before
        .parse_move(Variant::Tanzanian, &word(&columns[0]))
        .unwrap();
    assert_eq!(game_move, vec![played], "the game's move: {columns:?}");
    let best = before
        .parse_move(Variant::Tanzanian, &word(&columns[1]))
        .unwrap();
    assert_eq!(best.len(), 1, "the engine's move: {columns:?}");
    assert!(legal_moves.contains(&best[0]) && best[0] != played);
    // The engine's choice, played on the board.
    browser
        .eval("document.querySelectorAll('#g1-2 .wcmp .wcol button')[1].click()")
        .unwrap();
    wait_for(
        &mut browser,
        "document.querySelector('#g1-2 .wif')",
        "the engine's move played",
    );
    assert_board(
        &mut browser,
        "#g1-2",
        &before.play(&best[0]),
        false,
        "the engine's move",
    );
}

#[test]
fn puzzles_are_solved_by_clicks_from_the_solvers_side() {
    let scratch = temp_dir("puzzles");
    let dir = scratch.path();
    let page = dir.join("puzzles.html");
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(["puzzles", PUZZLES[0], PUZZLES[1], "--html"])
        .arg(&page)
        .output()
        .expect("drafti runs");
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    // The solutions, as the rules core plays them: White's shot ends with a capture of three
    // men (d2xb4xd6xf8); Black's is the same shot on the turned board.
    let white = Position::from_fen("W:Wc3,d2,e1,e3:Bc5,e5,e7,g7,h6").unwrap();
    let black = Position::from_fen("B:Wf4,d4,d2,b2,a3:Bf6,e7,d8,d6").unwrap();
    for (width, height, mobile) in SIZES {
        let at = format!("at {width}x{height}");
        let mut browser = launch(width, height, mobile);
        browser.navigate(&file_url(&page)).unwrap();
        wait_for(
            &mut browser,
            "document.documentElement.classList.contains('zjs')",
            "the puzzles",
        );
        let ids = text(
            &mut browser,
            "JSON.stringify(Array.prototype.map.call(document.querySelectorAll('article[data-z]'), function (a) { return [a.id, a.getAttribute('data-z').split('|')[1]]; }))",
        );
        let ids: Vec<(String, String)> = serde_json::from_str(&ids).unwrap();
        assert_eq!(ids.len(), 2, "{ids:?}");
        for (id, fen) in ids {
            let pos = Position::from_fen(&fen).unwrap();
            let (start, solution) = if pos == white {
                (white, ["c3-d4", "e5xc3", "d2xb4xd6xf8"])
            } else {
                assert_eq!(pos, black, "{fen}");
                (black, ["f6-e5", "d4xf6", "e7xg5xe3xc1"])
            };
            let flipped = start.turn() == Color::Black;
            let scope = format!("#{id}");
            assert_board(&mut browser, &scope, &start, flipped, &format!("{id} {at}"));
            // A legal move that is not the solution is refused, the board unchanged.
            let wrong = start
                .legal_moves(Variant::Tanzanian)
                .into_iter()
                .find(|m| *m != legal(&start, solution[0]))
                .expect("another move");
            touch_move(&mut browser, &scope, &wrong, mobile);
            wait_for(
                &mut browser,
                &format!("document.querySelector('{scope} .zsay.zno')"),
                "the wrong move refused",
            );
            assert_board(
                &mut browser,
                &scope,
                &start,
                flipped,
                &format!("{id} refused {at}"),
            );
            // The solution: the solver's move, the page's reply, the multi-capture.
            let first = legal(&start, solution[0]);
            touch_move(&mut browser, &scope, &first, mobile);
            wait_for(
                &mut browser,
                &format!("document.querySelector('{scope}').getAttribute('data-step') === '2'"),
                "the reply",
            );
            let after_reply = start.play(&first);
            let reply = legal(&after_reply, solution[1]);
            let before_shot = after_reply.play(&reply);
            assert_board(
                &mut browser,
                &scope,
                &before_shot,
                flipped,
                &format!("{id} reply {at}"),
            );
            let shot = legal(&before_shot, solution[2]);
            assert_eq!(shot.capture_count(), 3);
            touch_move(&mut browser, &scope, &shot, mobile);
            wait_for(
                &mut browser,
                &format!("document.querySelector('{scope}').getAttribute('data-step') === '3'"),
                "the shot",
            );
            assert_board(
                &mut browser,
                &scope,
                &before_shot.play(&shot),
                flipped,
                &format!("{id} solved {at}"),
            );
            let said = text(
                &mut browser,
                &format!("document.querySelector('{scope} .zsay').textContent"),
            );
            assert!(said.contains("Solved"), "{said}");
            // A wrong try before the solution: solved with help.
            let badge = text(
                &mut browser,
                &format!("document.querySelector('{scope} .zbadge').textContent"),
            );
            assert_eq!(badge, "solved with help", "{at}");
        }
        // The progress stays in the browser: a new load shows it.
        browser.navigate(&file_url(&page)).unwrap();
        // The new document's progress, read back from the browser's storage.
        wait_for(
            &mut browser,
            "document.documentElement.classList.contains('zjs') && \
             /2 solved with help/.test(document.getElementById('zprogress').textContent)",
            "the puzzles again",
        );
        let progress = text(
            &mut browser,
            "document.getElementById('zprogress').textContent",
        );
        assert!(progress.contains("2 solved with help"), "{progress}");
    }
}

#[test]
fn the_explorer_lists_the_archives_moves_and_opens_their_games() {
    let scratch = temp_dir("explorer");
    let dir = scratch.path();
    let page = report(dir);
    let games = games();
    // The first moves of the archive's games, by their start and end squares.
    let mut expected: Vec<(String, usize)> = Vec::new();
    for g in games
        .iter()
        .filter(|g| g.first_mover == Color::White && g.start == Position::start(Color::White))
    {
        let mv = g.moves[0];
        let name = format!("{}-{}", mv.from(), mv.to());
        match expected.iter_mut().find(|(n, _)| *n == name) {
            Some(e) => e.1 += 1,
            None => expected.push((name, 1)),
        }
    }
    for (width, height, mobile) in SIZES {
        let at = format!("at {width}x{height}");
        let mut browser = launch(width, height, mobile);
        browser
            .navigate(&format!("{}#g1-1-p0", file_url(&page)))
            .unwrap();
        wait_for(
            &mut browser,
            "document.querySelector('#g1-1 .wex')",
            "the explorer",
        );
        browser
            .eval("document.querySelector('#g1-1 .wex summary').click()")
            .unwrap();
        wait_for(
            &mut browser,
            "document.querySelector('#g1-1 .wext')",
            "the explorer's table",
        );
        let rows = text(
            &mut browser,
            "JSON.stringify(Array.prototype.map.call(document.querySelectorAll('#g1-1 .wext tr'), function (r) { return Array.prototype.map.call(r.cells, function (c) { return c.textContent; }); }).slice(1))",
        );
        let rows: Vec<Vec<String>> = serde_json::from_str(&rows).unwrap();
        let mut shown: Vec<(String, usize)> = rows
            .iter()
            .map(|r| (r[0].clone(), r[1].parse().unwrap()))
            .collect();
        shown.sort();
        expected.sort();
        assert_eq!(shown, expected, "{at}");
        // A move's games, and one of them opened at the position after it.
        browser
            .eval("document.querySelector('#g1-1 .wext a.mv').click()")
            .unwrap();
        let link = text(
            &mut browser,
            "document.querySelector('#g1-1 .wext tr.wgames a').getAttribute('href')",
        );
        let (id, ply) = link.trim_start_matches('#').rsplit_once("-p").unwrap();
        assert_eq!(ply, "1", "{link}");
        browser
            .eval("document.querySelector('#g1-1 .wext tr.wgames a').click()")
            .unwrap();
        wait_for(
            &mut browser,
            &format!("document.getElementById('{id}') && document.getElementById('{id}').getAttribute('data-ply') === '1'"),
            "the game opened",
        );
        let n: usize = id.rsplit('-').next().unwrap().parse().unwrap();
        assert_board(
            &mut browser,
            &format!("#{id}"),
            &games[n - 1].positions[1],
            false,
            &at,
        );
    }
}

#[test]
fn the_index_filters_by_player_opening_result_and_blunder() {
    let scratch = temp_dir("filters");
    let dir = scratch.path();
    let page = report(dir);
    let games = games();
    let mut browser = launch(1100, 900, false);
    browser.navigate(&file_url(&page)).unwrap();
    wait_for(
        &mut browser,
        "document.querySelector('.wfilter')",
        "the filters",
    );
    let visible = |browser: &mut Browser| -> Vec<String> {
        let rows = text(
            browser,
            "JSON.stringify(Array.prototype.filter.call(document.querySelectorAll('table.ix tr'), function (r, i) { return i && !r.hidden && r.offsetParent !== null; }).map(function (r) { return r.cells[1].textContent + '|' + r.cells[2].textContent + '|' + r.cells[3].textContent + '|' + r.cells[4].textContent; }))",
        );
        serde_json::from_str(&rows).unwrap()
    };
    browser
        .eval("document.querySelector('details').open = true")
        .unwrap();
    let all = visible(&mut browser);
    let records = drafti_pdn::parse_games(&std::fs::read(fixture(SMALL)).unwrap()).len();
    assert_eq!(all.len(), records);
    let set = |browser: &mut Browser, js: &str| {
        browser
            .eval(&format!(
                "(function () {{ var f = document.querySelector('.wfilter'); {js}; \
                 f.querySelectorAll('input,select').forEach(function (e) {{ e.dispatchEvent(new Event('input')); }}); }})()"
            ))
            .unwrap();
    };
    // A player: the games where that name is White or Black.
    set(
        &mut browser,
        "f.querySelector('input[type=search]').value = 'd2'",
    );
    let rows = visible(&mut browser);
    let with_d2 = games
        .iter()
        .filter(|g| {
            [g.record.tag("White"), g.record.tag("Black")]
                .iter()
                .any(|n| n.is_some_and(|n| n.contains("d2")))
        })
        .count();
    assert!(with_d2 > 0 && with_d2 < games.len());
    assert_eq!(rows.len(), with_d2, "{rows:?}");
    // A result on top.
    set(
        &mut browser,
        "f.querySelector('select[aria-label=result]').value = '1-0'",
    );
    let rows = visible(&mut browser);
    assert!(
        rows.iter()
            .all(|r| r.contains("d2") && r.split('|').nth(2) == Some("1-0")),
        "{rows:?}"
    );
    // "Has a blunder" alone.
    set(&mut browser, "f.querySelector('input[type=search]').value = ''; f.querySelector('select[aria-label=result]').value = ''; f.querySelector('input[type=checkbox]').checked = true");
    let rows = visible(&mut browser);
    assert!(!rows.is_empty() && rows.len() < all.len(), "{rows:?}");
    assert!(rows
        .iter()
        .all(|r| r.split('|').nth(3).unwrap().parse::<u32>().unwrap() > 0));
    // An opening: the rows of the games classified so.
    set(&mut browser, "f.querySelector('input[type=checkbox]').checked = false; var o = f.querySelector('select[aria-label=opening]'); o.value = o.options[1].value");
    let rows = visible(&mut browser);
    let opening = text(
        &mut browser,
        "document.querySelector('select[aria-label=opening]').value",
    );
    let count = text(
        &mut browser,
        &format!("String(document.querySelectorAll('table.ix tr[data-o=\"{opening}\"]').length)"),
    );
    assert_eq!(rows.len().to_string(), count, "{opening}");
}
