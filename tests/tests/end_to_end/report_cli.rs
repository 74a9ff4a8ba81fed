//! End-to-end tests of `drafti report` on `tests/fixtures/report/small.pdn`: three engine
//! games, the Black-first showcase game, a game with an illegal move and an unreadable one.
//! The searches are limited by nodes (deterministic) and small, so the tests are quick.

use drafti_tests::drafti;
use std::collections::HashSet;

/// The fixture as the tests name it: relative to the tests crate, so the report (which
/// prints file names) reads the same on every machine.
const SMALL: &str = "fixtures/report/small.pdn";

/// The search of every test: small and deterministic.
const NODES: &str = "400";

/// A fresh folder for one test, removed when the returned guard drops.
fn temp_dir(name: &str) -> tempfile::TempDir {
    drafti_tests::temp_dir(&format!("report-{name}"))
}

/// Runs `drafti report ARGS` in the tests crate's folder; returns (exit code, stdout, stderr).
fn report(args: &[&str]) -> (i32, String, String) {
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .arg("report")
        .args(args)
        .output()
        .expect("drafti runs");
    (
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        String::from_utf8(output.stderr).expect("UTF-8 stderr"),
    )
}

#[test]
fn text_summary_snapshot() {
    let (code, stdout, stderr) = report(&[SMALL, "--nodes", NODES, "--jobs", "2"]);
    // Two of the six games are invalid: exit code 1, like `drafti validate`.
    assert_eq!(code, 1, "{stderr}");
    insta::assert_snapshot!("report_small_summary", stdout);
}

#[test]
fn the_same_report_whatever_the_jobs() {
    let scratch = temp_dir("jobs");
    let dir = scratch.path();
    let one = dir.join("one.html");
    let three = dir.join("three.html");
    let a = report(&[
        SMALL,
        "--nodes",
        NODES,
        "-j",
        "1",
        "--html",
        one.to_str().unwrap(),
    ]);
    let b = report(&[
        SMALL,
        "--nodes",
        NODES,
        "-j",
        "3",
        "--html",
        three.to_str().unwrap(),
    ]);
    assert_eq!(a.1, b.1, "text summaries differ between --jobs 1 and 3");
    assert_eq!(
        std::fs::read(&one).unwrap(),
        std::fs::read(&three).unwrap(),
        "HTML reports differ between --jobs 1 and 3"
    );
}

/// The number in the `all` row of the players table under `column` (`??`, `?`).
fn all_row(summary: &str, column: &str) -> u64 {
    let header = summary
        .lines()
        .find(|l| l.trim_start().starts_with("player "))
        .expect("players header");
    let columns: Vec<&str> = header.split_whitespace().collect();
    let at = columns.iter().position(|c| *c == column).expect("column");
    let row = summary
        .lines()
        .find(|l| l.trim_start().starts_with("all "))
        .expect("all row");
    // The `all` row leaves the score column empty.
    let mut cells: Vec<&str> = row.split_whitespace().collect();
    cells.insert(2, "");
    cells[at].replace(',', "").parse().expect("a count")
}

#[test]
fn html_is_well_formed_self_contained_and_complete() {
    let scratch = temp_dir("html");
    let dir = scratch.path();
    let out = dir.join("report.html");
    let (code, stdout, stderr) =
        report(&[SMALL, "--nodes", NODES, "--html", out.to_str().unwrap()]);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("wrote "), "{stderr}");
    // OutputFile writes `.report.html.XXXXXX.part` beside OUT and renames it when complete;
    // the scratch file of the game sections is another such file, never committed: neither
    // may be left behind.
    let left: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != "report.html")
        .collect();
    assert!(left.is_empty(), "temporary files left: {left:?}");
    let html = std::fs::read_to_string(&out).unwrap();

    // The whole document is well-formed (XHTML-compatible markup).
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(&html, options)
        .unwrap_or_else(|e| panic!("the report is not well-formed: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "html");

    // Every SVG parses on its own.
    let mut svgs = 0;
    let mut rest = html.as_str();
    while let Some(start) = rest.find("<svg") {
        let end = rest[start..].find("</svg>").expect("closed svg") + start + "</svg>".len();
        let svg = &rest[start..end];
        roxmltree::Document::parse(svg)
            .unwrap_or_else(|e| panic!("SVG does not parse: {e}\n{svg}"));
        svgs += 1;
        rest = &rest[end..];
    }

    // Inline scripts in CDATA sections (the viewer's globals, the WebAssembly module's API
    // with the analysis board, the viewer) and the module itself as base64 data; nothing
    // external: no URLs (the scripts name only the SVG namespace), no src, no @import, only
    // in-page links.
    let mut scripts: Vec<&str> = Vec::new();
    let mut outside = String::new();
    let mut rest = html.as_str();
    while let Some(start) = rest.find("<script") {
        let end = rest[start..].find("</script>").expect("closed script") + start;
        outside.push_str(&rest[..start]);
        let element = &rest[start..end];
        if let Some(data) =
            element.strip_prefix(r#"<script type="application/octet-stream" id="drafti-wasm">"#)
        {
            assert!(
                data.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b"+/=".contains(&b)),
                "the module's data is base64 alone"
            );
        } else {
            let script = element
                .strip_prefix("<script>//<![CDATA[")
                .unwrap_or_else(|| {
                    panic!(
                        "a script of another kind: {}",
                        element.get(..60).unwrap_or(element)
                    )
                });
            assert!(script.ends_with("//]]>"), "a script's CDATA is not closed");
            scripts.push(script);
        }
        rest = &rest[end + "</script>".len()..];
    }
    outside.push_str(rest);
    assert_eq!(
        scripts.len(),
        3,
        "the viewer's globals, the board's and the viewer's"
    );
    assert!(html.contains(r#"id="drafti-wasm""#), "the engine's module");
    for needle in [
        "http://", "https://", "src=", "@import", "<link", "<img", "url(",
    ] {
        assert!(!outside.contains(needle), "the report contains {needle}");
    }
    let script = scripts.concat();
    let script_urls: Vec<&str> = script
        .match_indices("http")
        .map(|(i, _)| &script[i..(i + 30).min(script.len())])
        .collect();
    assert!(
        script_urls
            .iter()
            .all(|u| u.starts_with("http://www.w3.org/2000/svg")),
        "{script_urls:?}"
    );
    for needle in [".src", "src=", "XMLHttpRequest", "import(", "WebSocket"] {
        assert!(!script.contains(needle), "the scripts contain {needle}");
    }
    // The module's API can load a module by URL; the page never asks it to (the browser
    // test of the analysis board checks that no request leaves the page): no other fetch.
    let api = include_str!("../../../wasm/js/drafti.js");
    assert_eq!(
        script.matches("fetch(").count(),
        api.matches("fetch(").count(),
        "a fetch outside the module's API"
    );
    let ids: HashSet<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("id"))
        .collect();
    for node in doc.descendants() {
        if let Some(href) = node.attribute("href") {
            let target = href
                .strip_prefix('#')
                .unwrap_or_else(|| panic!("link out of the page: {href}"));
            assert!(ids.contains(target), "link to a missing id: {href}");
        }
    }

    let class_is = |n: &roxmltree::Node<'_, '_>, tag: &str, class: &str| {
        n.tag_name().name() == tag
            && n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
    };
    // One section per game, valid or not, each linked from the index; the viewer's data on
    // every game that could be replayed (all but the unreadable one), with the engine's
    // scores on the four analysed ones.
    let games: Vec<_> = doc
        .descendants()
        .filter(|n| class_is(n, "article", "game"))
        .collect();
    assert_eq!(games.len(), 6);
    let data: Vec<&str> = games.iter().filter_map(|g| g.attribute("data-v")).collect();
    assert_eq!(data.len(), 5);
    let analysed = data
        .iter()
        .filter(|d| !d.split('|').nth(4).unwrap_or("").is_empty())
        .count();
    assert_eq!(analysed, 4);
    // Every blunder, mistake and inaccuracy of the summary is marked in the moves, and every
    // blunder has an id (the summary links to it).
    let marks = |class: &str| {
        doc.descendants()
            .filter(|n| class_is(n, "i", class))
            .count() as u64
    };
    let expected = all_row(&stdout, "??");
    assert!(expected > 0, "the fixture should have blunders:\n{stdout}");
    assert_eq!(marks("jb"), expected, "{stdout}");
    assert_eq!(marks("jm"), all_row(&stdout, "?"), "{stdout}");
    assert_eq!(marks("ji"), all_row(&stdout, "?!"), "{stdout}");
    let blunders_with_id = doc
        .descendants()
        .filter(|n| class_is(n, "i", "jb") && n.attribute("id").is_some())
        .count() as u64;
    assert_eq!(blunders_with_id, expected);
    // No SVG in the page itself: the viewer draws the boards and graphs.
    assert_eq!(svgs, 0);
    // The invalid and the unreadable game say why.
    let errors = doc
        .descendants()
        .filter(|n| class_is(n, "div", "err"))
        .count();
    assert_eq!(errors, 2);
    // Readable on a phone.
    assert!(html.contains(r#"name="viewport""#));
}

#[test]
fn piped_input_is_read() {
    let text = std::fs::read(format!("{}/{SMALL}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let output = drafti()
        .args(["report", "--nodes", "50"])
        .write_stdin(text)
        .output()
        .expect("drafti runs");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stdout.starts_with("drafti report: 6 games from <stdin>"),
        "{stdout}"
    );
}

#[test]
fn stdin_is_reported_as_the_same_file_is() {
    // Without --variant, stdin is copied to a temporary file and judged before the search
    // (the variant policy, tests/tests/end_to_end/variant_cli.rs); the report is the file's,
    // the input named <stdin>, and the copy is gone when the run ends.
    let (code, file_report, file_stderr) = report(&[SMALL, "--nodes", "50"]);
    assert_eq!(code, 1, "{file_stderr}");
    let scratch = temp_dir("spool");
    let text = std::fs::read(format!("{}/{SMALL}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    for dash in [&["-"][..], &[]] {
        let output = drafti()
            .args(["report", "--nodes", "50"])
            .args(dash)
            .env("TMPDIR", scratch.path())
            .write_stdin(text.clone())
            .output()
            .expect("drafti runs");
        let stdout = String::from_utf8(output.stdout).unwrap();
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(1), "{dash:?}: {stderr}");
        assert_eq!(stdout, file_report.replace(SMALL, "<stdin>"), "{dash:?}");
        assert_eq!(
            std::fs::read_dir(scratch.path()).unwrap().count(),
            0,
            "{dash:?}: the copy of stdin is left behind"
        );
    }
}

#[test]
fn a_detected_encoding_is_told_once() {
    // The searching commands read their input twice (a replay judges the variant guess
    // before the search): the encoding detected was told at each reading.
    let latin1 = b"[White \"J\xe9r\xf4me\"]\n[Black \"Bo\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 1-0\n";
    let path = drafti_tests::temp_path("report-latin1", "latin1.pdn");
    std::fs::write(&path, latin1).unwrap();
    let file = path.to_str().unwrap();
    let once = |stderr: &str, name: &str| {
        let warning = format!("warning: {name}: not UTF-8; read as windows-1252");
        assert_eq!(stderr.matches(&warning).count(), 1, "{stderr}");
    };
    for command in ["report", "analyze"] {
        let (code, _, stderr) = drafti_tests::run_drafti(&[command, "--nodes", "50", file]);
        assert_eq!(code, 0, "{stderr}");
        once(&stderr, file);
        let output = drafti()
            .args([command, "--nodes", "50", "-"])
            .write_stdin(&latin1[..])
            .output()
            .expect("drafti runs");
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert_eq!(output.status.code(), Some(0), "{stderr}");
        once(&stderr, "<stdin>");
    }
}

#[test]
fn no_input_reports_on_the_bundled_corpus() {
    // stdin is /dev/null here (not piped): the demonstration embedded in the binary is read.
    // Depth 1 and no re-search keep it quick; the real default is in the README. Its 504
    // games (the showcase and the first 500 self-play games) make a paged HTML report of 2
    // pages.
    let scratch = temp_dir("pages");
    let dir = scratch.path();
    let (code, stdout, stderr) = report(&[
        "--depth",
        "1",
        "--no-verify",
        "--html-dir",
        dir.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("(504 games in 2 pages and the index"),
        "{stderr}"
    );
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    assert_eq!(names, ["games-0001.html", "games-0002.html", "index.html"]);
    // Every page is well-formed and self-contained, and every link (in the page, or to a
    // game of another page) has its target; every game is on a page, once.
    let pages: Vec<(String, String)> = names
        .iter()
        .map(|n| (n.clone(), std::fs::read_to_string(dir.join(n)).unwrap()))
        .collect();
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let docs: Vec<(&str, roxmltree::Document<'_>)> = pages
        .iter()
        .map(|(n, text)| {
            let doc = roxmltree::Document::parse_with_options(text, options)
                .unwrap_or_else(|e| panic!("{n} is not well-formed: {e}"));
            (n.as_str(), doc)
        })
        .collect();
    let ids = |page: &str| -> HashSet<String> {
        let doc = &docs.iter().find(|(n, _)| *n == page).expect("a page").1;
        doc.descendants()
            .filter_map(|n| n.attribute("id").map(String::from))
            .collect()
    };
    let mut games = 0;
    for (name, doc) in &docs {
        games += doc
            .descendants()
            .filter(|n| n.tag_name().name() == "article")
            .count();
        let here = ids(name);
        for href in doc.descendants().filter_map(|n| n.attribute("href")) {
            let (page, id) = href.split_once('#').unwrap_or((href, ""));
            assert!(!href.contains("://"), "{name}: link out: {href}");
            let target = if page.is_empty() {
                here.clone()
            } else {
                ids(page)
            };
            assert!(
                id.is_empty() || target.contains(id),
                "{name}: link to a missing id: {href}"
            );
        }
    }
    assert_eq!(games, 504);
    assert!(
        stdout.starts_with(
            "drafti report: 504 games from the bundled corpus (corpus/showcase.pdn, the first 500 games of corpus/selfplay.pdn)"
        ),
        "{stdout}"
    );
    assert!(stdout.contains("504 valid, 0 invalid"), "{stdout}");
    for part in [
        "Blunders per player",
        "Biggest blunders",
        "Openings",
        "How to read",
    ] {
        assert!(stdout.contains(part), "{part} missing:\n{stdout}");
    }
}

/// Game 44 of the 1950 USSR championship (`tests/fixtures/corpora`, copied byte for byte): the
/// report's pass calls 20... c7-d6 a blunder ("57% -> 23%"), which the re-check of the
/// summary does not confirm.
const USSR_44: &str = "fixtures/report/ussr-1950-game-44.pdn";

#[test]
fn a_blunder_that_does_not_hold_up_is_not_listed() {
    // The fast preset's pass flags the move, the game's only blunder, and the re-check
    // judges it again (the default's deeper searches do not flag it at all).
    let (code, stdout, stderr) = report(&[
        USSR_44,
        "--variant",
        "russian",
        "--preset",
        "fast",
        "--jobs",
        "1",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stderr.contains("1 blunder of the summary judged again deeper in"),
        "{stderr}"
    );
    assert!(stderr.contains(": 0 held up"), "{stderr}");
    // The re-check's verdict is the move's: the run counts no blunder
    // (report_verdicts.rs checks every other place).
    assert!(stderr.contains("; 0 blunders"), "{stderr}");
    let section = stdout
        .split("Biggest blunders")
        .nth(1)
        .and_then(|s| s.split("\n\n").next())
        .expect("the section says what became of the blunder");
    assert!(
        section.contains("checked again by a deeper search (16 half-moves ahead, up to 1,000,000 positions) before it was listed: it did not hold up and is left out."),
        "{section}"
    );
    assert!(!section.contains("c7-d6"), "{section}");
}

#[test]
fn players_named_with_terminal_escapes_are_shown_not_obeyed() {
    // A name that clears the screen and rings the bell, and an invalid game whose label
    // carries one too: the text summary shows the codes as every other command does.
    let pdn =
        "[White \"Ann\u{1b}[2J\"]\n[Black \"Bob\u{7}\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 1-0\n\n\
               [White \"Eve\u{1b}]0;owned\u{7}\"]\n[Black \"Kim\"]\n1. c3-d4 c3-d4 1-0\n";
    let output = drafti()
        .args(["report", "--nodes", "50", "-"])
        .write_stdin(pdn)
        .output()
        .expect("drafti runs");
    let stdout = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(1), "one game is invalid");
    assert!(
        !stdout.contains(['\u{1b}', '\u{7}']),
        "raw control characters in the summary:\n{stdout:?}"
    );
    assert!(stdout.contains("Ann\\x1b[2J"), "{stdout}");
    assert!(stdout.contains("Bob\\x07"), "{stdout}");
}
