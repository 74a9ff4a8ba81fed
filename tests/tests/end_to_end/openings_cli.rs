//! End-to-end tests of `drafti openings` on the hand-made archive
//! `tests/fixtures/openings/hand.pdn` (counts worked out by hand below) and on
//! `random300.pdn` (300 random legal games, half of them Black-first, written by
//! `cargo run --release -p drafti-archive --example make_book -- --random-games 300 --seed 7`).

use drafti_tests::drafti;
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/openings/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Runs `drafti openings ARGS`, checks the exit code, returns stdout.
fn openings(args: &[&str], code: i32) -> String {
    let output = drafti()
        .arg("openings")
        .args(args)
        .output()
        .expect("drafti runs");
    assert_eq!(
        output.status.code(),
        Some(code),
        "drafti openings {args:?}\nstderr: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

fn json_rows(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

fn find<'a>(rows: &'a [Value], kind: &str, key: &str, value: &str) -> &'a Value {
    rows.iter()
        .find(|r| r["kind"] == kind && r[key] == value)
        .unwrap_or_else(|| panic!("no {kind} row with {key} = {value}"))
}

/// games, 1-0, draws, 0-1, unknown, White first, Black first, first-mover wins, second-mover
/// wins, total plies.
fn counts(row: &Value) -> [u64; 10] {
    [
        "games",
        "white_wins",
        "draws",
        "black_wins",
        "unknown",
        "white_first",
        "black_first",
        "first_mover_wins",
        "second_mover_wins",
        "total_plies",
    ]
    .map(|k| row[k].as_u64().unwrap_or_else(|| panic!("{k} in {row}")))
}

/// hand.pdn, game by game (plies, who started, result, opening):
/// 1. 5 plies, White, 1-0: 1. c3-d4 f6-g5 2. a3-b4 g7-f6 -> a3b4.f6g5.c3d4.g7f6 (at ply 4)
/// 2. 4 plies, White, 0-1: 1. a3-b4 f6-g5 2. c3-d4 g7-f6 -> the same position, same code
/// 3. 5 plies, Black, 0-1: game 1 turned 180 degrees -> the same code; the first mover won
/// 4. 4 plies, White, 1/2: 1. c3-d4 f6-e5 2. d4xf6 g7xe5 -> c3d4.f6e5.d4xf6.g7xe5
/// 5. 2 plies, White, *: 1. c3-d4 d6-e5 -> c3d4.d6e5
/// 6. 1 ply, White, 1-0: 1. e3-f4 -> no book position
#[test]
fn statistics_of_the_hand_checked_archive_equal_the_hand_counts() {
    let rows = json_rows(&openings(
        &[&fixture("hand.pdn"), "--plies", "2", "--json"],
        0,
    ));
    // games, 1-0, =, 0-1, *, Wfirst, Bfirst, first-mover wins, second-mover wins, plies
    let all = &rows[0];
    assert_eq!(all["kind"], "all");
    assert_eq!(counts(all), [6, 2, 1, 2, 1, 5, 1, 3, 1, 21]);
    // (3 first-mover wins + 1 draw / 2) / 5 games with a result
    assert_eq!(all["score_pct"], 70.0);
    assert_eq!(all["avg_plies"], 3.5);
    assert_eq!(all["tree_plies"], 2);

    let a = find(&rows, "opening", "code", "a3b4.f6g5.c3d4.g7f6");
    assert_eq!(counts(a), [3, 1, 0, 2, 0, 2, 1, 2, 1, 14]);
    assert_eq!(a["score_pct"], 66.67);
    assert_eq!(a["avg_plies"], 4.67);
    assert_eq!(a["name"], "a3-b4 f6-g5 c3-d4 g7-f6 (4 plies)");
    assert_eq!(a["moves"], "1. a3-b4 f6-g5 2. c3-d4 g7-f6");
    assert_eq!(a["depth"], 4);
    let b = find(&rows, "opening", "code", "c3d4.f6e5.d4xf6.g7xe5");
    assert_eq!(counts(b), [1, 0, 1, 0, 0, 1, 0, 0, 0, 4]);
    assert_eq!(b["score_pct"], 50.0);
    let c = find(&rows, "opening", "code", "c3d4.d6e5");
    assert_eq!(counts(c), [1, 0, 0, 0, 1, 1, 0, 0, 0, 2]);
    assert_eq!(c["score_pct"], Value::Null);
    let none = find(&rows, "opening", "code", "");
    assert_eq!(counts(none), [1, 1, 0, 0, 0, 1, 0, 1, 0, 1]);
    assert_eq!(rows.iter().filter(|r| r["kind"] == "opening").count(), 4);

    // The tree, as if White had started (game 3 is counted under 1. c3-d4 f6-g5).
    let tree: Vec<(String, u64)> = rows
        .iter()
        .filter(|r| r["kind"] == "tree")
        .map(|r| {
            (
                r["moves"].as_str().unwrap().to_string(),
                r["games"].as_u64().unwrap(),
            )
        })
        .collect();
    let expected = [
        ("", 6),
        ("1. c3-d4", 4),
        ("1. c3-d4 f6-g5", 2),
        ("1. c3-d4 d6-e5", 1),
        ("1. c3-d4 f6-e5", 1),
        ("1. a3-b4", 1),
        ("1. a3-b4 f6-g5", 1),
        ("1. e3-f4", 1),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|(m, g)| (m.to_string(), *g)).collect();
    assert_eq!(tree, expected);
    let node = find(&rows, "tree", "moves", "1. c3-d4 f6-g5");
    assert_eq!(counts(node), [2, 1, 0, 1, 0, 1, 1, 2, 0, 10]);
    assert_eq!(node["code"], "c3d4.f6g5");

    // CSV: the same table.
    let csv = openings(&[&fixture("hand.pdn"), "--plies", "2", "--csv"], 0);
    let mut lines = csv.lines();
    assert!(lines
        .next()
        .unwrap()
        .starts_with("kind,depth,code,name,moves,fen,games,"));
    let first: Vec<&str> = lines.next().unwrap().split(',').collect();
    assert_eq!(first[..7], ["all", "0", "", "(all games)", "", "", "6"]);
    // The JSON's closing line is not in the CSV (the header is).
    assert_eq!(rows.last().unwrap()["kind"], "end");
    assert_eq!(csv.lines().count(), rows.len());
}

#[test]
fn transpositions_and_black_first_games_get_the_same_opening() {
    let out = openings(&[&fixture("hand.pdn"), "--per-game", "--json"], 0);
    let games = json_rows(&out);
    assert_eq!(games.len(), 6);
    for g in &games[..3] {
        assert_eq!(g["code"], "a3b4.f6g5.c3d4.g7f6", "{g}");
        assert_eq!(g["ply"], 4);
    }
    assert_eq!(games[2]["first_mover"], "Black");
    assert_eq!(games[0]["first_mover"], "White");
    assert_eq!(games[5]["code"], "");
    assert_eq!(games[5]["ply"], Value::Null);

    // A user's book names the transposed position and a deeper line; game 1 and 3 reach the
    // deeper one at ply 5, game 2 stops at the transposed position.
    let out = openings(
        &[
            &fixture("hand.pdn"),
            "--per-game",
            "--json",
            "--book",
            &fixture("names.tsv"),
        ],
        0,
    );
    let games = json_rows(&out);
    let codes: Vec<&str> = games.iter().map(|g| g["code"].as_str().unwrap()).collect();
    assert_eq!(codes[..3], ["TEST-DEEP", "TEST-TRANSPOSED", "TEST-DEEP"]);
    assert_eq!(games[0]["ply"], 5);
    assert_eq!(games[2]["ply"], 5);
    assert_eq!(games[1]["name"], "Test: reached by two move orders");
}

#[test]
fn merging_the_shards_of_a_run_equals_the_unsharded_run() {
    let scratch = drafti_tests::temp_dir("openings");
    let dir = scratch.path();
    let archive = fixture("random300.pdn");
    for plies in ["3", "6"] {
        let whole = openings(&[&archive, "--plies", plies, "--json"], 0);
        let mut parts = Vec::new();
        for k in 1..=3 {
            let shard = format!("{k}/3");
            let part = openings(
                &[
                    &archive, "--plies", plies, "--json", "--shard", &shard, "--jobs", "1",
                ],
                0,
            );
            assert_ne!(part, whole);
            let path = dir.join(format!("part{plies}-{k}.json"));
            std::fs::write(&path, part).unwrap();
            parts.push(path.to_string_lossy().into_owned());
        }
        let mut args = vec!["merge"];
        args.extend(parts.iter().map(String::as_str));
        let merged = openings(&[&args[..], &["--json"]].concat(), 0);
        assert_eq!(merged, whole, "--plies {plies}");
        // Text, CSV and the filter applied after merging match too.
        for format in [vec![], vec!["--csv"], vec!["--min-games", "5"]] {
            let direct = openings(
                &[&[archive.as_str(), "--plies", plies][..], &format].concat(),
                0,
            );
            let merged = openings(&[&args[..], &format].concat(), 0);
            assert_eq!(merged, direct, "--plies {plies} {format:?}");
        }
    }
    // Whatever the number of workers.
    let one = openings(&[&archive, "--json", "--jobs", "1"], 0);
    let two = openings(&[&archive, "--json", "--jobs", "2"], 0);
    assert_eq!(one, two);
}

#[test]
fn merge_refuses_parts_that_do_not_add_up() {
    let scratch = drafti_tests::temp_dir("openings-bad");
    let dir = scratch.path();
    let archive = fixture("random300.pdn");
    let write = |name: &str, args: &[&str]| {
        let path = dir.join(name);
        std::fs::write(
            &path,
            openings(&[&[archive.as_str(), "--json"][..], args].concat(), 0),
        )
        .unwrap();
        path.to_string_lossy().into_owned()
    };
    let filtered = write("filtered.json", &["--shard", "1/2", "--min-games", "2"]);
    let deep = write("deep.json", &["--shard", "2/2", "--plies", "5"]);
    let plain = write("plain.json", &["--shard", "1/2"]);
    for (parts, message) in [
        (vec![&filtered, &plain], "made with --min-games 2"),
        (vec![&plain, &deep], "made with --plies 5, part 1 with 4"),
    ] {
        let output = drafti()
            .args(["openings", "merge"])
            .args(parts)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains(message), "{stderr}");
    }
}

#[test]
fn merge_refuses_a_part_cut_short_repeated_overflowing_or_not_adding_up() {
    let scratch = drafti_tests::temp_dir("openings-cut");
    let dir = scratch.path();
    let archive = fixture("random300.pdn");
    let p1 = openings(&[&archive, "--json", "--shard", "1/2"], 0);
    let p2 = openings(&[&archive, "--json", "--shard", "2/2"], 0);
    let end: Value = serde_json::from_str(p2.lines().last().unwrap()).unwrap();
    let rows2 = p2.lines().count() as u64 - 1;
    assert_eq!(
        end,
        serde_json::json!({"kind": "end", "games": 150, "rows": rows2})
    );
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        path.to_string_lossy().into_owned()
    };
    let first = write("p1.json", &p1);
    let merge = |second: &str| {
        let output = drafti()
            .args(["openings", "merge", &first, second, "--json"])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
        (output.status.code(), stderr)
    };
    let (code, _) = merge(&write("p2.json", &p2));
    assert_eq!(code, Some(0));
    let lines: Vec<&str> = p2.lines().collect();
    let with_end = |rows: &[&str]| {
        let mut end: Value = serde_json::from_str(lines.last().unwrap()).unwrap();
        end["rows"] = rows.len().into();
        let mut text = rows.join("\n");
        text.push('\n');
        text + &end.to_string() + "\n"
    };
    let rows = &lines[..lines.len() - 1];
    let opening = rows
        .iter()
        .position(|l| l.contains("\"kind\":\"opening\""))
        .unwrap();
    // Every count of every row times 2^56 (each part adds up by itself; 300 games times
    // 2^56 do not fit in 64 bits), total_plies as it is.
    let scaled = |text: &str| {
        let lines: Vec<String> = text
            .lines()
            .map(|l| {
                let mut v: Value = serde_json::from_str(l).unwrap();
                for k in [
                    "games",
                    "white_wins",
                    "draws",
                    "black_wins",
                    "unknown",
                    "white_first",
                    "black_first",
                    "first_mover_wins",
                    "second_mover_wins",
                ] {
                    if let Some(n) = v[k].as_u64() {
                        v[k] = (n << 56).into();
                    }
                }
                v.to_string()
            })
            .collect();
        lines.join("\n") + "\n"
    };
    let output = drafti()
        .args(["openings", "merge", "--json"])
        .arg(write("huge1.json", &scaled(&p1)))
        .arg(write("p2.json", &p2))
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "a scaled part adds up");
    let output = drafti()
        .args(["openings", "merge"])
        .arg(write("huge1.json", &scaled(&p1)))
        .arg(write("huge2.json", &scaled(&p2)))
        .output()
        .unwrap();
    // Before: exit 0, the counts wrapped.
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(
            "drafti: part 2: the counts of the all row overflow when added to the other parts' \
             (part 1 is "
        ),
        "{stderr}"
    );
    assert!(
        stderr.contains("part 2 is ") && stderr.contains("huge2.json"),
        "{stderr}"
    );
    let mut repeated = rows.to_vec();
    repeated.push(rows[rows.len() - 1]);
    let mut fewer = rows.to_vec();
    fewer.remove(opening);
    for (name, text, message) in [
        // Cut at a line end: 563 rows of 677 before, and exit 0.
        (
            "cut-lines.json",
            lines[..lines.len() / 2].join("\n") + "\n",
            "no closing line ({\"kind\":\"end\",…}): the part is cut short",
        ),
        (
            "cut-end.json",
            lines[..lines.len() - 1].join("\n") + "\n",
            "no closing line",
        ),
        (
            "cut-mid.json",
            p2[..p2.len() / 2].to_string(),
            ": not a row of `drafti openings --json`",
        ),
        (
            "repeated.json",
            with_end(&repeated),
            "appears twice: a repeated row would count its games twice",
        ),
        (
            "repeated-end.json",
            repeated.join("\n") + "\n" + lines[lines.len() - 1] + "\n",
            &format!(
                "the closing line says {rows2} rows, the part has {}",
                rows2 + 1
            ),
        ),
        (
            "fewer.json",
            with_end(&fewer),
            "part 2 does not add up: its openings hold",
        ),
    ] {
        let path = write(name, &text);
        let (code, stderr) = merge(&path);
        assert_eq!(code, Some(2), "{name}: {stderr}");
        assert!(stderr.contains(message), "{name}: {stderr}");
    }
}

#[test]
fn book_errors_name_the_file_row_column_and_problem() {
    let output = drafti()
        .args([
            "openings",
            &fixture("hand.pdn"),
            "--book",
            &fixture("bad-book.tsv"),
        ])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains(
            "bad-book.tsv: line 4, column moves: ply 2: d6-f4 is not legal in B:W18,21,23-32:B1-12"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("(legal: "), "{stderr}");
}

#[test]
fn discover_lists_unnamed_lines_with_book_rows() {
    let out = openings(&[&fixture("hand.pdn"), "--discover", "--json"], 0);
    let found = json_rows(&out);
    // Game 1 and game 3 (mirrored) go on with 3. b2-c3 after the book's last position.
    assert_eq!(found[0]["moves"], "1. c3-d4 f6-g5 2. a3-b4 g7-f6 3. b2-c3");
    assert_eq!(found[0]["games"], 2);
    assert_eq!(found[0]["depth"], 5);
    assert_eq!(
        found[0]["book_row"],
        "c3d4.f6g5.a3b4.g7f6.b2c3\tc3-d4 f6-g5 a3-b4 g7-f6 b2-c3 (5 plies)\t1. c3-d4 f6-g5 2. a3-b4 g7-f6 3. b2-c3"
    );
    // Named by a user's book, it is no longer a candidate.
    let out = openings(
        &[
            &fixture("hand.pdn"),
            "--discover",
            "--json",
            "--book",
            &fixture("names.tsv"),
        ],
        0,
    );
    assert!(json_rows(&out).iter().all(|c| c["depth"] != 5));
}

/// Issue 41's refusal wording, in `merge` as in `report --from-analysis`: a part saved with
/// a byte-order mark was refused as `expected value at line 1 column 1` (it is read now), a
/// compressed part as `stream did not contain valid UTF-8`, a cut line or other text in
/// serde's words.
#[test]
fn merge_says_what_is_wrong_with_a_part_in_the_users_terms() {
    let scratch = drafti_tests::temp_dir("openings-words");
    let dir = scratch.path();
    let archive = fixture("random300.pdn");
    let whole = openings(&[&archive, "--json"], 0);
    let p1 = openings(&[&archive, "--json", "--shard", "1/2"], 0);
    let p2 = openings(&[&archive, "--json", "--shard", "2/2"], 0);
    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_string_lossy().into_owned()
    };
    let second = write("p2.json", p2.as_bytes());
    // Saved by an editor that puts a byte-order mark first: the same merge.
    let bom = write("bom.json", format!("\u{feff}{p1}").as_bytes());
    assert_eq!(openings(&["merge", &bom, &second, "--json"], 0), whole);
    let mut gzip = b"\x1f\x8b\x08\x00".to_vec();
    gzip.extend(std::iter::repeat_n(0u8, 64));
    let gzip = write("p1.json.gz", &gzip);
    let cut = write("cut.json", &p1.as_bytes()[..100]);
    let prose = write("prose.json", b"these are my notes\n");
    let other = write("other.json", b"{\"a\":1}\n");
    for (part, why) in [
        (
            &gzip,
            " is not a text file (gzip data); expected the JSON output of drafti openings --json",
        ),
        (
            &cut,
            ": line 1: not a row of `drafti openings --json`: the line ends inside its JSON (cut \
             short?)",
        ),
        (
            &prose,
            ": line 1: not a row of `drafti openings --json`: not JSON from column 1",
        ),
        (
            &other,
            ": line 1: not a row of `drafti openings --json`: missing field `kind` (column 7)",
        ),
    ] {
        let output = drafti()
            .args(["openings", "merge"])
            .arg(part)
            .arg(&second)
            .output()
            .unwrap();
        assert_eq!(output.status.code(), Some(2));
        assert!(output.stdout.is_empty());
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!("drafti: {part}{why}\n")
        );
    }
}

#[test]
fn merge_refuses_shards_of_an_archive_that_changed_between_the_runs() {
    let scratch = drafti_tests::temp_dir("openings-grown");
    let dir = scratch.path();
    let text = std::fs::read_to_string(fixture("random300.pdn")).unwrap();
    let starts: Vec<usize> = text.match_indices("[Event").map(|(i, _)| i).collect();
    let first = |n: usize| &text[..starts[n]];
    // Shards 1 and 3 of the archive at 60 games, shard 2 of it once grown to 69.
    let archive = dir.join("club.pdn");
    let archive_name = archive.to_string_lossy().into_owned();
    let part = |k: u32| {
        let path = dir.join(format!("part{k}.json"));
        let shard = format!("{k}/3");
        std::fs::write(
            &path,
            openings(&[&archive_name, "--json", "--shard", &shard], 0),
        )
        .unwrap();
        path.to_string_lossy().into_owned()
    };
    std::fs::write(&archive, first(60)).unwrap();
    let (p1, p3) = (part(1), part(3));
    std::fs::write(&archive, first(69)).unwrap();
    let p2 = part(2);
    let output = drafti()
        .args(["openings", "merge", &p1, &p2, &p3])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    // Before: "63 games", exit 0.
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("part 2 read ") && stderr.contains("(69 games, "),
        "{stderr}"
    );
    assert!(
        stderr.contains("part 1 ") && stderr.contains("(60 games, "),
        "{stderr}"
    );
    assert!(stderr.contains(&format!("part 2 is {p2}")), "{stderr}");
    // The same archive, edited without changing its number of games, is another archive too.
    std::fs::write(&archive, first(60).replacen("0-1", "1-0", 1)).unwrap();
    let p2 = part(2);
    let output = drafti()
        .args(["openings", "merge", &p1, &p2, &p3])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("CRC-32"));
    // The shards of the one archive still add up.
    std::fs::write(&archive, first(60)).unwrap();
    let p2 = part(2);
    openings(&["merge", &p1, &p2, &p3], 0);
}
