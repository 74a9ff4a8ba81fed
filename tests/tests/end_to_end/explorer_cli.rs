//! End-to-end tests of `drafti index`, `explore` and `find` on the master corpora's Russian
//! games (tests/fixtures/explorer, copied from the corpora; see its README): the commands'
//! output, exit codes and refusals. The counts themselves are checked against `drafti
//! openings`' library in db/tests.

use drafti_tests::{run_drafti, temp_dir};
use serde_json::Value;

const USSR: &str = "fixtures/explorer/russian-ussr-championship-x-153games.pdn";
const ABATSIEV: &str = "fixtures/explorer/russian-abatsiev-ussr-events-56games.pdn";

fn build(dir: &std::path::Path) -> String {
    let index = dir.join("ru.idx").display().to_string();
    let (code, _, err) = run_drafti(&[
        "index",
        "build",
        "--variant",
        "russian",
        USSR,
        ABATSIEV,
        "-o",
        &index,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("209 games indexed"), "{err}");
    index
}

fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect()
}

#[test]
fn explore_lists_every_move_from_a_named_opening_with_its_games() {
    let scratch = temp_dir("explore");
    let dir = scratch.path();
    let index = build(dir);
    let (code, out, err) = run_drafti(&[
        "explore",
        &index,
        "--moves",
        "1. c3-d4 d6-c5 2. b2-c3 f6-g5",
        "--json",
        "--games",
        "2",
    ]);
    assert_eq!(code, 0, "{err}");
    let rows = json_lines(&out);
    assert_eq!(rows[0]["kind"], "position");
    assert_eq!(rows[0]["names"][0]["code"], "GOR");
    assert_eq!(rows[0]["found"], "index");
    let games = rows[0]["games"].as_u64().unwrap();
    let by_move: u64 = rows[1..].iter().map(|r| r["games"].as_u64().unwrap()).sum();
    assert_eq!(by_move, games);
    assert!(rows[1..]
        .iter()
        .all(|r| r["kind"] == "move" && r["game_list"].as_array().unwrap().len() <= 2));
    assert_eq!(rows[1]["game_list"][0]["file"], USSR);
    // The same position by its FEN, and a transposition (1. cd4 fg5 2. bc3 dc5) by moves.
    let fen = rows[0]["fen"].as_str().unwrap().to_string();
    let (_, by_fen, _) = run_drafti(&["explore", &index, "--fen", &fen, "--json", "--games", "2"]);
    let (_, transposed, _) = run_drafti(&[
        "explore",
        &index,
        "--moves",
        "c3-d4 f6-g5 b2-c3 d6-c5",
        "--json",
        "--games",
        "2",
    ]);
    assert_eq!(by_fen, out);
    assert_eq!(transposed, out);
    // Text: a table with every move.
    let (code, text, _) = run_drafti(&["explore", &index, "--moves", "c3-d4 d6-c5 b2-c3 f6-g5"]);
    assert_eq!(code, 0);
    assert!(text.contains("opening GOR: Gorodskaya partiya"), "{text}");
    assert!(text.contains("c3-b4"), "{text}");
    // Filters: a player as Black only.
    let (_, out, _) = run_drafti(&[
        "explore",
        &index,
        "--player",
        "абациев",
        "--color",
        "black",
        "--json",
    ]);
    let rows = json_lines(&out);
    assert!(rows[0]["games"].as_u64().unwrap() < 56 && rows[0]["games"].as_u64().unwrap() > 0);
    // Refusals: an illegal move, an unknown ballot: exit 2 with the reason.
    let (code, _, err) = run_drafti(&["explore", &index, "--moves", "c3-d4 c3-d4"]);
    assert_eq!(code, 2);
    assert!(err.contains("c3-d4 is not legal after 1 plies"), "{err}");
    let (code, _, err) = run_drafti(&["explore", &index, "--ballot", "fmjd:99-X"]);
    assert_eq!(code, 2);
    assert!(err.contains("no ballot 'fmjd:99-X'"), "{err}");
}

#[test]
fn find_writes_the_original_text_lists_where_and_says_what_is_wrong() {
    let scratch = temp_dir("find");
    let dir = scratch.path();
    let index = build(dir);
    let (code, out, err) = run_drafti(&["find", &index, "--material", "xk=2 yk=1", "--json"]);
    assert_eq!(code, 0, "{err}");
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 19);
    assert!(rows
        .iter()
        .all(|r| r["ply"].as_u64().is_some() && r["fen"].as_str().is_some()));
    // The PDN of the games found is their text in the archive, byte for byte.
    let (code, pdn, _) = run_drafti(&[
        "find",
        &index,
        "--player",
        "Блиндер Б.",
        "--color",
        "white",
        "--limit",
        "1",
    ]);
    assert_eq!(code, 0);
    let source = std::fs::read_to_string(format!("{}/{USSR}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    assert!(source.contains(pdn.trim()), "{pdn}");
    assert!(pdn.starts_with("[White \"Блиндер Б.\"]"), "{pdn}");
    // Nothing found: exit 1 (as grep).
    let (code, out, _) = run_drafti(&["find", &index, "--material", "wk>=5", "--list"]);
    assert_eq!((code, out.as_str()), (1, ""));
    // A query that does not read: exit 2 naming the column.
    let (code, _, err) = run_drafti(&["find", &index, "--material", "ply>30 xq>=1"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--material 'ply>30 xq>=1': column 8: 'xq' is not a count"),
        "{err}"
    );
    let (code, _, err) = run_drafti(&["find", &index, "--pattern", "W:c3 X:d4"]);
    assert_eq!(code, 2);
    assert!(err.contains("column 6"), "{err}");
    // No twins in these archives.
    let (code, out, err) = run_drafti(&["find", &index, "--twins"]);
    assert_eq!((code, out.as_str()), (0, ""), "{err}");
}

#[test]
fn twins_are_reported_and_removed_and_a_changed_archive_is_refused() {
    let scratch = temp_dir("twins");
    let dir = scratch.path();
    let source = std::fs::read_to_string(format!("{}/{USSR}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let games: Vec<&str> = source.split("\r\n\r\n[White").collect();
    // The archive with its third game copied at the end.
    let archive = dir.join("a.pdn");
    std::fs::write(&archive, format!("{source}\r\n\r\n[White{}", games[2])).unwrap();
    let a = archive.display().to_string();
    let index = dir.join("a.idx").display().to_string();
    let (code, _, err) = run_drafti(&["index", "build", "--variant", "russian", &a, "-o", &index]);
    assert_eq!(code, 0, "{err}");
    let (code, out, _) = run_drafti(&["find", &index, "--twins", "--json"]);
    assert_eq!(code, 1);
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (
            rows[0]["twin"].as_str(),
            rows[0]["game"]["number"].as_u64(),
            rows[0]["of"]["number"].as_u64()
        ),
        (Some("identical"), Some(154), Some(3))
    );
    let (code, pdn, err) = run_drafti(&["find", &index, "--twins", "--remove"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(pdn.matches("[White ").count(), 153);
    // The archive changed after the build: its text is not written from a stale index.
    std::fs::write(&archive, &source).unwrap();
    let (code, _, err) = run_drafti(&["find", &index]);
    assert_eq!(code, 2);
    assert!(err.contains("changed since the index was built"), "{err}");
    // A damaged index names itself.
    let mut bytes = std::fs::read(&index).unwrap();
    let at = bytes.len() / 2;
    bytes[at] ^= 1;
    std::fs::write(&index, bytes).unwrap();
    let (code, _, err) = run_drafti(&["index", "info", &index, "--verify"]);
    assert_eq!(code, 2);
    assert!(err.contains("a.idx: damaged index"), "{err}");
}

#[test]
fn sharded_builds_merge_into_the_whole_index() {
    let scratch = temp_dir("shards");
    let dir = scratch.path();
    let whole = build(dir);
    let mut parts = Vec::new();
    for k in 1..=2 {
        let p = dir.join(format!("p{k}.idx")).display().to_string();
        let (code, _, err) = run_drafti(&[
            "index",
            "build",
            "--variant",
            "russian",
            USSR,
            ABATSIEV,
            "--shard",
            &format!("{k}/2"),
            "-o",
            &p,
        ]);
        assert_eq!(code, 0, "{err}");
        parts.push(p);
    }
    let merged = dir.join("m.idx").display().to_string();
    let (code, _, err) = run_drafti(&["index", "merge", &parts[0], &parts[1], "-o", &merged]);
    assert_eq!(code, 0, "{err}");
    assert!(std::fs::read(&merged).unwrap() == std::fs::read(&whole).unwrap());
    let (code, _, err) = run_drafti(&["index", "merge", &parts[0], "-o", &merged]);
    assert_eq!(code, 2);
    assert!(err.contains("shards 2/2 are missing"), "{err}");
    let (code, out, _) = run_drafti(&["index", "info", &merged, "--json"]);
    assert_eq!(code, 0);
    let info: Value = serde_json::from_str(out.trim()).unwrap();
    assert_eq!(info["games"], 209);
    assert_eq!(info["variants"][2], 209);
}

/// The variant policy of every command that reads archives (issue 38): the master games have
/// no variant tag; indexed as Tanzanian, each was cut at its first Russian capture, and
/// `find --twins` then called a dozen different games identical. `index build` now stops,
/// writes no index and names the `--variant` to give; `--variant tz` still reads them so.
#[test]
fn an_untagged_archive_of_other_rules_leaves_no_index_and_names_the_variant() {
    let scratch = temp_dir("index-variant");
    let dir = scratch.path();
    let index = dir.join("guess.idx");
    let (code, _, err) = run_drafti(&[
        "index",
        "build",
        USSR,
        ABATSIEV,
        "-o",
        &index.display().to_string(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("replay valid as russian: give --variant russian"),
        "{err}"
    );
    assert!(!index.exists(), "an index was left behind");
    let (code, _, err) = run_drafti(&[
        "index",
        "build",
        "--variant",
        "tz",
        USSR,
        "-o",
        &index.display().to_string(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(index.exists());
}

#[test]
fn find_lists_thousands_of_games_in_archive_order_each_with_its_own_position() {
    // More matches than one chunk of lines (2,048), made on several cores: written in
    // archive order, each game's line with the position of that game.
    let scratch = temp_dir("find-order");
    let dir = scratch.path();
    let openings = [
        "1. c3-d4 f6-g5 2. b2-c3 g7-f6",
        "1. c3-b4 b6-a5 2. b2-c3 f6-e5",
        "1. e3-f4 d6-c5 2. f2-e3 c7-d6",
    ];
    let mut text = String::new();
    for i in 0..5000 {
        text.push_str(&format!("{} 1-0\n\n", openings[i % 3]));
    }
    let archive = dir.join("many.pdn");
    std::fs::write(&archive, text).unwrap();
    let index = dir.join("many.idx").display().to_string();
    let archive = archive.display().to_string();
    let (code, _, err) = run_drafti(&[
        "index",
        "build",
        "--variant",
        "russian",
        &archive,
        "-o",
        &index,
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, out, err) = run_drafti(&["find", &index, "--material", "ply>=3", "--list"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 5000, "{err}");
    let mut fens = [None, None, None];
    for (i, line) in lines.iter().enumerate() {
        assert!(line.contains(&format!(" #{} ", i + 1)), "line {i}: {line}");
        let fen = line.rsplit("  ").next().unwrap();
        assert!(line.contains("  ply 3  "), "line {i}: {line}");
        match &fens[i % 3] {
            None => fens[i % 3] = Some(fen.to_string()),
            Some(f) => assert_eq!(f, fen, "line {i}"),
        }
    }
    assert!(fens[0] != fens[1] && fens[1] != fens[2] && fens[0] != fens[2]);
    let (code, out, _) = run_drafti(&["find", &index, "--material", "ply>=3", "--json"]);
    assert_eq!(code, 0);
    let rows = json_lines(&out);
    assert_eq!(rows.len(), 5000);
    for (i, row) in rows.iter().enumerate() {
        assert_eq!(
            (row["number"].as_u64(), row["ply"].as_u64()),
            (Some(i as u64 + 1), Some(3))
        );
        assert_eq!(row["fen"].as_str(), fens[i % 3].as_deref());
    }
}
