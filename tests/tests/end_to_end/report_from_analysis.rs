//! `drafti report --from-analysis`: the report built from the parts of a sharded `drafti
//! analyze --json` run is the direct report, byte for byte (text summary, single HTML file
//! and the pages of `--html-dir`), for two inputs with valid and invalid games, the parts given
//! in either order; parts that cannot make that report (a shard twice or missing, parts
//! concatenated, of other settings, a malformed line, a later format) are refused, saying why.

use drafti_tests::drafti;
use std::path::{Path, PathBuf};

/// Two inputs, as the tests name them (relative to the tests crate, so the report reads the
/// same on every machine): the report fixture (six games, two of them invalid) and a game with
/// a planted blunder.
const FILES: [&str; 2] = ["fixtures/report/small.pdn", "fixtures/analyze/planted.pdn"];

/// The analysis of both runs: small, deterministic, and without endgame tables (whatever the
/// machine has built); no confirmation (analyze's and the report's defaults differ there).
const SEARCH: [&str; 6] = [
    "--nodes",
    "400",
    "--verify-depth",
    "4",
    "--no-confirm",
    "--no-egtb",
];

/// `drafti analyze --json` of shard `k` of `n` with `extra` settings, into `dir`.
fn analyse_part(dir: &Path, k: usize, n: usize, extra: &[&str]) -> PathBuf {
    let shard = format!("{k}/{n}");
    let mut args = vec!["analyze", "--json", "--shard", &shard];
    args.extend(FILES);
    args.extend(SEARCH);
    args.extend(extra);
    let (code, json, stderr) = run(&args);
    assert!(code == 0 || code == 1, "{stderr}");
    let part = dir.join(format!("part-{k}-of-{n}{}.jsonl", extra.join("")));
    std::fs::write(&part, &json).unwrap();
    part
}

/// A fresh folder for one test, removed when the returned guard drops.
fn temp_dir() -> tempfile::TempDir {
    drafti_tests::temp_dir("from-analysis")
}

/// Runs drafti in the tests crate's folder; returns (exit code, stdout, stderr).
fn run(args: &[&str]) -> (i32, Vec<u8>, String) {
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .output()
        .expect("drafti runs");
    (
        output.status.code().unwrap_or(-1),
        output.stdout,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

fn read(p: &Path) -> Vec<u8> {
    std::fs::read(p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

#[test]
fn the_report_from_sharded_analysis_is_the_direct_report() {
    let scratch = temp_dir();
    let dir = scratch.path();
    let (direct_html, direct_pages) = (dir.join("direct.html"), dir.join("direct-pages"));
    let mut args = vec!["report"];
    args.extend(FILES);
    args.extend(SEARCH);
    let with_html = [&args[..], &["--html", path(&direct_html)]].concat();
    let (code, direct, stderr) = run(&with_html);
    assert_eq!(code, 1, "two games are invalid: {stderr}");
    let with_pages = [&args[..], &["--html-dir", path(&direct_pages)]].concat();
    let (code, paged_summary, stderr) = run(&with_pages);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(paged_summary, direct);

    // The job array: shard 1/2 and 2/2, each its own JSON Lines.
    let parts = [analyse_part(dir, 1, 2, &[]), analyse_part(dir, 2, 2, &[])];
    let (p1, p2) = (path(&parts[0]), path(&parts[1]));

    let (html, pages) = (dir.join("from.html"), dir.join("from-pages"));
    let (code, summary, stderr) =
        run(&["report", "--from-analysis", p2, p1, "--html", path(&html)]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(
        String::from_utf8_lossy(&summary),
        String::from_utf8_lossy(&direct),
        "the summary differs from the direct run's"
    );
    assert!(
        read(&html) == read(&direct_html),
        "the HTML differs from the direct run's"
    );
    let (code, summary, stderr) = run(&[
        "report",
        "--from-analysis",
        p1,
        p2,
        "--html-dir",
        path(&pages),
    ]);
    assert_eq!(code, 1, "{stderr}");
    assert_eq!(summary, direct);
    for page in ["index.html", "games-0001.html"] {
        assert!(
            read(&pages.join(page)) == read(&direct_pages.join(page)),
            "{page} differs from the direct run's"
        );
    }

    // Parts that cannot make the report are refused, saying why.
    let refused = |args: &[&str], why: &str| {
        let (code, stdout, stderr) = run(args);
        assert_eq!(code, 2, "{args:?}: {stderr}");
        assert!(stdout.is_empty(), "{args:?}");
        assert!(stderr.contains(why), "{args:?}: {stderr}");
    };
    refused(
        &["report", "--from-analysis", p1, p2, p1],
        &format!("{p1} and {p1} are both shard 1/2: one shard given twice?"),
    );
    refused(
        &["report", "--from-analysis", p1],
        "game 2 of the archive (after ",
    );
    refused(
        &["report", "--from-analysis", p1],
        "the part of shard 2/2 is missing",
    );
    // A rerun appended to the file of the first (`>>`).
    let whole = read(&analyse_part(dir, 1, 1, &[]));
    let both = dir.join("both.jsonl");
    std::fs::write(&both, [&whole[..], &whole[..]].concat()).unwrap();
    refused(
        &["report", "--from-analysis", path(&both)],
        "the first line of another run: give each run's output as its own part",
    );
    // Issue 27, item 16: the parts of a sharded run concatenated into one file (`cat p1 p2`)
    // are refused for that, at the second part's first line, not as "shard 2/2 is missing".
    let first = read(&parts[0]);
    let concatenated = dir.join("concatenated.jsonl");
    std::fs::write(&concatenated, [&first[..], &read(&parts[1])[..]].concat()).unwrap();
    let second_run = first.iter().filter(|&&b| b == b'\n').count() + 1;
    refused(
        &["report", "--from-analysis", path(&concatenated)],
        &format!(
            "{}:{second_run}: the first line of another run: give each run's output as its own part",
            path(&concatenated)
        ),
    );
    let other = analyse_part(dir, 2, 2, &["--nominate", "0.1"]);
    refused(
        &["report", "--from-analysis", p1, path(&other)],
        "other settings (400 nodes; moves with a pass drop of 0.1",
    );
    let thirds = analyse_part(dir, 2, 3, &[]);
    refused(
        &["report", "--from-analysis", p1, path(&thirds)],
        "another number of shards (3)",
    );
    // A line cut short (a job killed while writing): the part, its line, what is wrong.
    let cut = dir.join("cut.jsonl");
    let text = read(&parts[1]);
    let second_line = text.iter().position(|&b| b == b'\n').unwrap() + 1;
    std::fs::write(&cut, &text[..second_line + 100]).unwrap();
    refused(
        &["report", "--from-analysis", p1, path(&cut)],
        &format!(
            "{}:2: not a line of `drafti analyze --json`: the line ends inside its JSON (cut \
             short?)",
            path(&cut)
        ),
    );
    let old = dir.join("old.jsonl");
    std::fs::write(&old, "{\"file\":\"a.pdn\",\"index\":1,\"line\":1,\"search\":\"depth 6\",\"status\":\"analysed\"}\n").unwrap();
    refused(
        &["report", "--from-analysis", path(&old)],
        "old.jsonl:1: the line has no `record`",
    );
    // A part of a later format is refused, naming the part and the line. (Parts of format 1,
    // and those written before the format had a version number, are read by
    // drafti-analysis's own tests: their scores have another shape.)
    let text = String::from_utf8(read(&parts[0])).unwrap();
    assert!(text.contains("\"run\":{\"format\":2,"));
    let later = dir.join("later.jsonl");
    std::fs::write(&later, text.replacen("\"format\":2,", "\"format\":3,", 1)).unwrap();
    refused(
        &["report", "--from-analysis", path(&later), p2],
        &format!("{}:1: format 3 of `drafti analyze --json`", path(&later)),
    );
}

/// Issue 41: refusals in the user's terms. A part saved with a byte-order mark was refused as
/// `expected value (column 1)` (it is read now), a compressed part as `expected PDN text`, a
/// damaged input number as `input 99 of 1?`, text that is no JSON in serde's words.
#[test]
fn refusals_of_parts_say_what_is_wrong_in_the_users_terms() {
    let scratch = drafti_tests::temp_dir("from-analysis-words");
    let dir = scratch.path();
    let part = analyse_part(dir, 1, 1, &[]);
    let text = String::from_utf8(read(&part)).unwrap();
    let (code, direct, stderr) = run(&["report", "--from-analysis", path(&part)]);
    assert_eq!(code, 1, "{stderr}");
    // Saved by an editor that puts a byte-order mark first: the same report.
    let bom = dir.join("bom.jsonl");
    std::fs::write(&bom, format!("\u{feff}{text}")).unwrap();
    let (code, report, stderr) = run(&["report", "--from-analysis", path(&bom)]);
    assert_eq!((code, report), (1, direct.clone()), "{stderr}");
    let refused = |file: &Path, why: &str| {
        let (code, stdout, stderr) = run(&["report", "--from-analysis", path(file)]);
        assert_eq!(code, 2, "{stderr}");
        assert!(stdout.is_empty());
        assert_eq!(stderr, format!("drafti: {}{why}\n", path(file)), "{why}");
    };
    let gzip = dir.join("part.jsonl.gz");
    let mut compressed = b"\x1f\x8b\x08\x00".to_vec();
    compressed.extend(std::iter::repeat_n(0u8, 64));
    std::fs::write(&gzip, compressed).unwrap();
    refused(
        &gzip,
        " is not a text file (gzip data); expected the JSON lines of drafti analyze --json",
    );
    let input = dir.join("input-99.jsonl");
    std::fs::write(&input, text.replacen("\"input\":1,", "\"input\":99,", 1)).unwrap();
    refused(
        &input,
        &format!(
            ":1: {} game 1: its input 99 (record.input) is not one of the run's: it read 2 \
             (numbered from 1)",
            FILES[0]
        ),
    );
    let prose = dir.join("prose.jsonl");
    std::fs::write(&prose, "these are my notes\n").unwrap();
    refused(
        &prose,
        ":1: not a line of `drafti analyze --json`: not JSON from column 1",
    );
    let other = dir.join("other.jsonl");
    std::fs::write(&other, "{\"a\":1}\n").unwrap();
    refused(
        &other,
        ":1: not a line of `drafti analyze --json`: missing field `file` (column 7)",
    );
}
