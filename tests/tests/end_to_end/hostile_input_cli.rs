//! Issue 16: archives as people really have them. One test per defect of the issue (named
//! `dNN_…`), each on a fixture of `corpus/bad/` or a generated input, asserting the exact
//! outcome: the exit code (never 101, a panic), the count of games and their statuses, and
//! for the long-line inputs the peak memory of the process.

use drafti_tests::{drafti, drafti_command, drafti_into_full_disk};
use serde_json::Value;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let output = drafti().args(args).output().expect("drafti runs");
    Run {
        code: output
            .status
            .code()
            .expect("exit code (not killed by a signal)"),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

fn bad(name: &str) -> String {
    format!("{}/../corpus/bad/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn corpus(name: &str) -> String {
    format!("{}/../corpus/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// `name` holding `bytes` in a fresh folder, removed when the returned file drops; it reads
/// as its path (`&file` where a `&str` is wanted).
fn temp_file(name: &str, bytes: &[u8]) -> TempFile {
    let file = drafti_tests::temp_path("hostile", name);
    std::fs::write(&file, bytes).unwrap();
    TempFile {
        path: file.to_string_lossy().into_owned(),
        _file: file,
    }
}

/// A file of [`temp_file`]: its path as text, and the guard of its folder.
struct TempFile {
    path: String,
    _file: drafti_tests::TempPath,
}

impl std::ops::Deref for TempFile {
    type Target = str;
    fn deref(&self) -> &str {
        &self.path
    }
}

impl std::fmt::Display for TempFile {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.path)
    }
}

/// `drafti validate --json FILE ARGS`: exit code, one object per game, stderr.
fn validate_json(file: &str, args: &[&str]) -> (i32, Vec<Value>, String) {
    let mut all = vec!["validate", "--json", file];
    all.extend(args);
    let r = run(&all);
    let games = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    (r.code, games, r.stderr)
}

fn statuses(games: &[Value]) -> Vec<&str> {
    games
        .iter()
        .map(|g| g["status"].as_str().unwrap())
        .collect()
}

/// The bundled self-play archive (2,000 games) with `\n` replaced by `sep`.
fn archive(sep: &[u8]) -> Vec<u8> {
    let text = std::fs::read(corpus("selfplay.pdn")).unwrap();
    let mut out = Vec::with_capacity(text.len());
    for &b in &text {
        if b == b'\n' {
            out.extend_from_slice(sep);
        } else {
            out.push(b);
        }
    }
    out
}

#[test]
fn d01_a_problem_past_column_65536_is_reported_not_a_panic() {
    let mut text = b"{".to_vec();
    text.extend(std::iter::repeat_n(b'a', 65534));
    text.extend_from_slice(b"} 1. c3-c5 *\n");
    let file = temp_file("d01.pdn", &text);
    let r = run(&["validate", &file]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(
        r.stdout
            .contains(":1:65541: error: illegal move c3-c5 at ply 1"),
        "{}",
        r.stdout
    );
    // The excerpt shows the end of the long line, cut, with the caret under the move.
    let excerpt: Vec<&str> = r.stdout.lines().skip(2).take(3).collect();
    assert!(
        excerpt[1].starts_with("1 | …aaaa") && excerpt[1].ends_with("} 1. c3-c5 *"),
        "{excerpt:?}"
    );
    let caret = excerpt[2].find('^').unwrap();
    assert_eq!(
        excerpt[1].chars().count() - 7,
        excerpt[2][..caret].chars().count()
    );
}

#[test]
fn d02_many_games_on_one_line_are_all_read() {
    // 40,000 games of one result token each, on one line (80 KB): 1.8 GB before the fix
    // (the memory is checked in memory_cli.rs).
    let file = temp_file("d02-stars.pdn", "* ".repeat(40_000).as_bytes());
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!((code, games.len()), (0, 40_000));
    // The bundled corpus with CR-only line ends (one 1.8 MB "line" to a `\n` reader).
    let cr = temp_file("d02-cr.pdn", &archive(b"\r"));
    let (code, games, stderr) = validate_json(&cr, &[]);
    assert_eq!((code, games.len()), (0, 2_000), "{stderr}");
    assert!(statuses(&games).iter().all(|s| *s == "valid"));
    // Lines are counted at each `\r`: game 2 starts where it does in the `\n` file.
    let text = std::fs::read_to_string(corpus("selfplay.pdn")).unwrap();
    let second = text.match_indices("[Event ").nth(1).unwrap().0;
    assert_eq!(games[1]["line"], text[..second].matches('\n').count() + 1);
    // All of it on one line, games joined by spaces.
    let line = temp_file("d02-line.pdn", &archive(b" "));
    let (code, games, _) = validate_json(&line, &[]);
    assert_eq!((code, games.len()), (0, 2_000));
    assert_eq!(games[1999]["line"], 1);
}

#[test]
fn d03_no_game_is_lost_past_the_size_limit_and_the_limit_is_named() {
    // 50 games of 100 KB each with CR-only line ends (5 MB, over the 4 MiB game limit).
    let mut text = Vec::new();
    for i in 0..50 {
        text.extend_from_slice(
            format!("[Event \"e{i}\"]\r[Result \"*\"]\r\r1. c3-d4 {{").as_bytes(),
        );
        text.extend(std::iter::repeat_n(b'x', 100_000));
        text.extend_from_slice(b"} d6-e5 *\r\r");
    }
    let file = temp_file("d03-50.pdn", &text);
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!((code, games.len()), (0, 50));
    assert_eq!(games[49]["tags"]["Event"], "e49");

    // One game over the limit between two good ones: an error naming the limit, and both
    // neighbours read.
    let mut text = b"[Event \"a\"]\r1. c3-d4 *\r[Event \"huge\"]\r1. c3-d4 {".to_vec();
    text.extend(std::iter::repeat_n(b'y', 5 << 20));
    text.extend_from_slice(b"} *\r[Event \"c\"]\r1. c3-d4 *\r");
    let file = temp_file("d03-huge.pdn", &text);
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&games), ["valid", "invalid", "valid"]);
    assert_eq!(games[2]["tags"]["Event"], "c");
    let message = games[1]["errors"][0]["message"].as_str().unwrap();
    assert!(
        message.starts_with("game is longer than the limit of 4194304 bytes"),
        "{message}"
    );
}

#[test]
fn d07_a_byte_order_mark_mid_file_and_mixed_line_ends_split_nothing() {
    let (code, games, stderr) = validate_json(&bad("mixed-line-ends.pdn"), &[]);
    assert_eq!(code, 0, "{stderr}");
    let events: Vec<&str> = games
        .iter()
        .map(|g| g["tags"]["Event"].as_str().unwrap())
        .collect();
    assert_eq!(events, ["lf", "bom", "cr", "crlf"]);
    let lines: Vec<u64> = games.iter().map(|g| g["line"].as_u64().unwrap()).collect();
    assert_eq!(lines, [1, 6, 10, 14]);
    assert!(statuses(&games).iter().all(|s| *s == "valid"));
}

#[test]
fn d11_perft_and_show_report_a_write_error() {
    for args in [
        &["perft", "--depth", "3"][..],
        &["show", "W:W21-32:B1-12"][..],
    ] {
        let (code, stderr) = drafti_into_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert!(
            stderr.contains("cannot write the report: No space left on device"),
            "{stderr}"
        );
    }
}

#[test]
fn d12_fmt_keeps_move_number_0_of_a_fen_game_and_is_idempotent() {
    let r = run(&["fmt", &bad("fen-move-zero.pdn")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout,
        "[FEN \"W:W21-32:B1-12\"]\n\n0. c3-d4 d6-e5 1. b2-c3 *\n"
    );
    let again = temp_file("d12.pdn", r.stdout.as_bytes());
    assert_eq!(run(&["fmt", &again]).stdout, r.stdout);
}

#[test]
fn d14_a_dos_end_of_file_byte_is_white_space() {
    let (code, games, stderr) = validate_json(&bad("dos-eof.pdn"), &[]);
    assert_eq!((code, games.len()), (0, 2), "{stderr}");
    assert!(statuses(&games).iter().all(|s| *s == "valid"));
}

#[test]
fn d04_many_tags_are_read_in_linear_time() {
    let mut text = String::new();
    for i in 0..50_000 {
        text.push_str(&format!("[Tag{i} \"v\"]\n"));
    }
    text.push_str("[Tag7 \"again\"]\n1. c3-d4 *\n");
    let file = temp_file("d04.pdn", text.as_bytes());
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!((code, games.len()), (0, 1));
    let tags = games[0]["tags"].as_object().unwrap();
    // A repeated name keeps its first value.
    assert_eq!((tags.len(), tags["Tag7"].as_str()), (50_000, Some("v")));
}

#[test]
fn d05_a_record_cut_short_is_invalid() {
    // The second game of the bundled corpus cut at a line boundary inside its moves.
    let (code, games, _) = validate_json(&bad("cut-short.pdn"), &[]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&games), ["valid", "invalid"]);
    let e = &games[1]["errors"][0];
    assert_eq!(e["kind"], "ply_count_mismatch");
    assert_eq!(
        e["message"],
        "the PlyCount tag says 160 plies, the movetext has 150: the record looks cut short \
         (and has no result token)"
    );
}

#[test]
fn a_record_cut_right_after_its_tags_is_invalid() {
    // The bundled corpus's first game whole, the second cut after its tag lines: before, the
    // second was valid (no move, no result, PlyCount 73).
    let text = std::fs::read_to_string(corpus("selfplay.pdn")).unwrap();
    let second = text.match_indices("[Event ").nth(1).unwrap().0;
    let tags_end = second + text[second..].find("\n\n").unwrap() + 1;
    let file = temp_file("cut-after-tags.pdn", &text.as_bytes()[..tags_end]);
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&games), ["valid", "invalid"]);
    let e = &games[1]["errors"][0];
    assert_eq!(e["kind"], "ply_count_mismatch");
    let stated = games[1]["tags"]["PlyCount"].as_str().unwrap();
    assert_eq!(
        e["message"],
        format!(
            "the PlyCount tag says {stated} plies, the movetext has 0: the record looks cut \
             short (and has no result token)"
        )
    );
}

#[test]
fn d06_one_bad_line_costs_only_itself() {
    for (file, message) in [
        (
            "stray-brace.pdn",
            "unterminated comment (expected '}', found end of game)",
        ),
        (
            "broken-tag-line.pdn",
            "broken tag: the value of tag Annotator has no closing quote (expected '\"', found \
             end of line)",
        ),
    ] {
        let (code, games, _) = validate_json(&bad(file), &[]);
        assert_eq!(code, 1, "{file}");
        assert_eq!(statuses(&games), ["valid", "invalid", "valid"], "{file}");
        assert_eq!(games[1]["errors"][0]["message"], message, "{file}");
        assert_eq!(games[1]["line"], 8, "{file}");
        assert_eq!(games[2]["tags"]["White"], "Bakari", "{file}");
    }
}

#[test]
fn an_unclosed_bracket_costs_only_itself_in_an_archive_without_tags() {
    let game = "1. c3-d4 f6-g5 2. g3-h4 g7-f6 1-0\n\n";
    // Before: "no games found", exit 0.
    let text = format!("{{ a note, never closed\n\n{}", game.repeat(1000));
    let (code, games, _) = validate_json(&temp_file("unclosed-brace.pdn", text.as_bytes()), &[]);
    assert_eq!((code, games.len()), (1, 1001));
    assert_eq!(
        games[0]["errors"][0]["message"],
        "unterminated comment (expected '}', found end of game)"
    );
    assert!(statuses(&games[1..]).iter().all(|s| *s == "valid"));
    // Before: 6 games (the `(` swallowed the other 2,000).
    let text = format!("{}(\n\n{}", game.repeat(5), game.repeat(2000));
    let (code, games, _) = validate_json(&temp_file("stray-paren.pdn", text.as_bytes()), &[]);
    assert_eq!((code, games.len()), (1, 2006));
    assert_eq!(games[5]["status"], "invalid");
    assert_eq!(
        (games[6]["line"].as_u64(), games[6]["status"].as_str()),
        (Some(13), Some("valid"))
    );
    // Before: the last game was invalid, its result swallowed by the stray `{`.
    let text = "[Event \"a\"]\n1. c3-d4 f6-g5 1-0\n\n[Event \"b\"]\n1. c3-d4 f6-g5 1-0\n\n{\n";
    let (code, games, _) = validate_json(&temp_file("tagged-brace.pdn", text.as_bytes()), &[]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&games), ["valid", "valid", "invalid"]);
    assert_eq!(games[1]["tags"]["Event"], "b");
    // Inside a game, the game is the only one spoilt.
    let text = format!("1. c3-d4 {{oops f6-g5 1-0\n\n{game}{game}");
    let (code, games, _) = validate_json(&temp_file("inner-brace.pdn", text.as_bytes()), &[]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&games), ["invalid", "valid", "valid"]);
    // A file that is one unclosed comment holds a game: an error, not "no games found".
    let text = format!("{{\n{}", game.replace("\n\n", "\n").repeat(3));
    let r = run(&["validate", &temp_file("all-comment.pdn", text.as_bytes())]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert!(!r.stderr.contains("no games found"), "{}", r.stderr);
}

#[test]
fn every_jobs_flag_is_capped_at_parse_time() {
    for command in [
        &["validate"][..],
        &["analyze"],
        &["fmt"],
        &["openings"],
        &["standings"],
        &["puzzles"],
        &["report"],
        &["selfplay"],
        &["bench"],
        &["egtb", "build"],
        &["egtb", "verify"],
    ] {
        let mut args = command.to_vec();
        args.extend(["--jobs", "1025"]);
        let r = run(&args);
        assert_eq!(r.code, 2, "{args:?}: {}", r.stderr);
        assert!(r.stdout.is_empty(), "{args:?}");
        assert!(
            r.stderr.starts_with(
                "error: invalid value '1025' for '--jobs <JOBS>': at most 1024 worker threads \
                 (0: one per core); more only cost memory"
            ),
            "{args:?}: {}",
            r.stderr
        );
    }
    let r = run(&["validate", "-j", "1024", &bad("stray-brace.pdn")]);
    assert_eq!(r.code, 1, "{}", r.stderr);
}

#[test]
fn d08_one_unreadable_token_keeps_the_game_its_tags_and_its_moves() {
    let (code, games, _) = validate_json(&bad("unreadable-token.pdn"), &[]);
    assert_eq!(code, 1);
    assert_eq!(statuses(&games), ["invalid", "valid"]);
    let g = &games[0];
    assert_eq!(g["tags"]["White"], "Amina");
    assert_eq!(
        (g["plies"].as_u64(), g["result"].as_str()),
        (Some(2), Some("1-0"))
    );
    assert_eq!(g["errors"][0]["kind"], "syntax");
    let at = &g["errors"][0];
    assert_eq!(
        (at["line"].as_u64(), at["column"].as_u64()),
        (Some(6), Some(22))
    );
    let r = run(&["validate", &bad("unreadable-token.pdn")]);
    assert!(
        r.stdout.contains("--> game 1 (Amina - Bakari)"),
        "{}",
        r.stdout
    );
    // standings counts its result (as written), with the note that it has errors.
    let r = run(&["standings", "--json", &bad("unreadable-token.pdn")]);
    let event: Value = serde_json::from_str(r.stdout.lines().next().unwrap()).unwrap();
    assert_eq!(event["matches"][0]["score"], serde_json::json!([2, 0]));
    assert!(r.stderr.contains("1 game has errors"), "{}", r.stderr);
}

/// The first error message of the one game in `text` (validated as `args`).
fn first_error(name: &str, text: &str, args: &[&str]) -> String {
    let file = temp_file(name, text.as_bytes());
    let (code, games, stderr) = validate_json(&file, args);
    assert_eq!((code, games.len()), (1, 1), "{stderr}");
    games[0]["errors"][0]["message"]
        .as_str()
        .unwrap()
        .to_string()
}

#[test]
fn messages_teach_the_rules() {
    assert_eq!(
        first_error("m1.pdn", "[FEN \"W:Wc3:Bd4,f6,h8\"]\n1. c3xe5 *\n", &[]),
        "illegal move c3xe5 at ply 1 (White to move): c3xe5 stops after one capture; the \
         capture must continue: c3xe5xg7"
    );
    assert_eq!(
        first_error("m2.pdn", "1. a1-a5 *\n", &[]),
        "illegal move a1-a5 at ply 1 (White to move): a1-a5 is not a diagonal move"
    );
    assert_eq!(
        first_error("m3.pdn", "[FEN \"W:Wd4:Bc3,f6\"]\n1. d4xb2 *\n", &[]),
        "illegal move d4xb2 at ply 1 (White to move): men capture forward only in Tanzanian \
         draughts (a man never captures backward)"
    );
    assert_eq!(
        first_error(
            "m4.pdn",
            "[GameType \"29\"]\n[FEN \"W:Wc3,Ke1:Bd4,f2,h8\"]\n1. c3xe5 *\n",
            &[]
        ),
        "illegal move c3xe5 at ply 1 (White to move): the king-priority rule of Czech \
         draughts: when a king can capture, a king must capture (a man may not)"
    );
    assert_eq!(
        first_error("m5.pdn", "[FEN \"W:WKa1:BKh8\"]\n1. a1-b2 *\n", &[]),
        "move a1-b2 at ply 1 after the game ended: the game was drawn by draw law 1 (only \
         kings left, at most two each)"
    );
}

#[test]
fn what_people_write_is_accepted_with_a_warning() {
    let file = temp_file(
        "accept.pdn",
        b"1) c3 - d4 f6-g5, 2) B2-C3 g7-f6 *\n\n[Event \"forfeit\"]\n1. 0-2\n",
    );
    let (code, games, _) = validate_json(&file, &[]);
    assert_eq!(code, 0);
    assert_eq!(statuses(&games), ["valid", "valid"]);
    assert_eq!(games[0]["plies"], 4);
    let kinds: Vec<(&str, &str)> = games[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| (w["kind"].as_str().unwrap(), w["message"].as_str().unwrap()))
        .collect();
    assert_eq!(
        kinds,
        [
            (
                "nonstandard_notation",
                "move number written with ')' (2 times): read as '.'"
            ),
            (
                "nonstandard_notation",
                "move written with spaces around its separator: read as one move"
            ),
            (
                "nonstandard_notation",
                "comma between moves: read as a space"
            ),
            (
                "nonstandard_notation",
                "square names in upper case (2 times): read as lower case (a3, not A3)"
            ),
        ]
    );
    assert_eq!(games[1]["warnings"][0]["kind"], "forfeit");
}

fn real_archive(name: &str) -> String {
    format!("{}/fixtures/corpora/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// The lines of `stderr` that say a file was read in a legacy encoding.
fn encoding_warnings(stderr: &str) -> Vec<&str> {
    stderr
        .lines()
        .filter(|l| l.contains("not UTF-8; read as"))
        .collect()
}

#[test]
fn d09_a_latin1_file_decodes_right_in_every_tag_with_one_warning() {
    let file = bad("latin1.pdn");
    let (code, games, stderr) = validate_json(&file, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(statuses(&games), ["valid"; 3]);
    let players: Vec<(&str, &str, &str, &str)> = games
        .iter()
        .map(|g| {
            let tag = |n: &str| g["tags"][n].as_str().unwrap();
            (tag("Event"), tag("Site"), tag("White"), tag("Black"))
        })
        .collect();
    assert_eq!(
        players,
        [
            (
                "Campeonato de España",
                "Málaga",
                "José Núñez",
                "François Müller"
            ),
            (
                "Torneio de São Paulo",
                "São Paulo",
                "Søren Ødegård",
                "José Núñez"
            ),
            ("Copa Ibérica", "Cádiz", "Ángel Peña", "Zoë Brontë"),
        ]
    );
    assert!(games.iter().all(|g| g["warnings"] == serde_json::json!([])));
    assert_eq!(
        encoding_warnings(&stderr),
        [format!(
            "warning: {file}: not UTF-8; read as windows-1252 (detected from its first non-ASCII bytes; --encoding NAME chooses another)"
        )]
    );
    // Every command reading archives goes the same way: standings names the players right.
    let r = run(&["standings", &file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("José Núñez") && r.stdout.contains("Søren Ødegård"));
    assert_eq!(encoding_warnings(&r.stderr).len(), 1);
}

#[test]
fn d09_a_windows_1251_or_cp866_archive_gives_one_warning_and_the_utf8_tags() {
    for (name, encoding, label) in [
        (
            "russian-abatsiev-ussr-events-56games.pdn",
            "windows-1251",
            "windows-1251",
        ),
        (
            "russian-ussr-championship-x-153games.pdn",
            "cp866",
            "IBM866",
        ),
    ] {
        let original = std::fs::read_to_string(real_archive(name)).unwrap();
        let (legacy, _, unmappable) = drafti_pdn::encoding_for_label(encoding)
            .unwrap()
            .encode(&original);
        assert!(!unmappable);
        let file = temp_file(&format!("{encoding}.pdn"), &legacy);
        let (code, games, stderr) = validate_json(&file, &["--variant", "russian"]);
        let (_, want, _) = validate_json(&real_archive(name), &["--variant", "russian"]);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(games.len(), want.len());
        for (got, want) in games.iter().zip(&want) {
            assert_eq!(got["tags"], want["tags"]);
            assert_eq!(got["warnings"], want["warnings"]);
            assert_eq!(got["status"], "valid");
        }
        assert_eq!(
            encoding_warnings(&stderr),
            [format!(
                "warning: {file}: not UTF-8; read as {label} (detected from its first non-ASCII bytes; --encoding NAME chooses another)"
            )]
        );
    }
}

#[test]
fn d09_encoding_overrides_the_detection() {
    let text = "[White \"Абациев Н.\"]\n[Black \"Juma\"]\n\n1. c3-d4 *\n";
    let (cp1251, _, _) = drafti_pdn::encoding_for_label("windows-1251")
        .unwrap()
        .encode(text);
    let file = temp_file("override-1251.pdn", &cp1251);
    let white = |args: &[&str]| {
        let (_, games, stderr) = validate_json(&file, args);
        (
            games[0]["tags"]["White"].as_str().unwrap().to_string(),
            games[0]["warnings"].as_array().unwrap().len(),
            encoding_warnings(&stderr).len(),
        )
    };
    // Chosen by hand: no detection, no warning.
    assert_eq!(
        white(&["--encoding", "windows-1251"]),
        ("Абациев Н.".into(), 0, 0)
    );
    assert_eq!(
        white(&["--encoding", "latin1"]),
        ("Àáàöèåâ Í.".into(), 0, 0)
    );
    // Read as UTF-8: the stray bytes fall back to the per-tag decoding, with its warning.
    assert_eq!(white(&["--encoding", "utf-8"]), ("Абациев Н.".into(), 1, 0));
    let r = run(&["validate", "--encoding", "klingon", &file]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("unknown encoding 'klingon'"),
        "{}",
        r.stderr
    );
    // The same option on the other readers.
    let r = run(&["fmt", "--encoding", "windows-1251", &file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains("[White \"Абациев Н.\"]"), "{}", r.stdout);
}

/// With no FILES and nothing piped in, stdin is the terminal: validate says what it waits
/// for, then reads what is typed up to Ctrl-D.
#[cfg(unix)]
#[test]
fn d14_validate_on_a_terminal_says_what_it_waits_for() {
    use std::io::Write;
    use std::os::fd::FromRawFd;
    use std::process::Stdio;
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two new descriptors into the two ints; the rest may be null.
    let status = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(status, 0, "openpty");
    // SAFETY: both descriptors were just opened and are owned here, each by one value.
    let (terminal, mut keyboard) = unsafe {
        (
            Stdio::from_raw_fd(slave),
            std::fs::File::from_raw_fd(master),
        )
    };
    let child = drafti_command()
        .arg("validate")
        .stdin(terminal)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A game typed on the terminal, then Ctrl-D at the start of a line: end of input.
    keyboard.write_all(b"1. c3-d4 *\n\x04").unwrap();
    let output = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    assert!(
        stderr.starts_with(
            "reading PDN from the terminal: paste or type the games, then press Ctrl-D"
        ),
        "{stderr}"
    );
    assert!(stderr.contains("1 game in 1 file: 1 valid"), "{stderr}");
}

/// Issue 27, item 12: an archive's control characters (ESC, BEL) never reach the terminal
/// raw; the text outputs show them as `\x1b` and `\x07`.
const CONTROL_GAME: &[u8] = b"[Event \"Cup\x1b]0;title\x07\"]\n[White \"Ann\x1b[2J\"]\n[Black \"Bob\x07\"]\n[Result \"1-0\"]\n\n1. c3-d4 {\x1b[2J} f6-g5 2. g3-h4 g7-f6 1-0\n";

fn assert_no_raw_controls(out: &str) {
    assert!(
        !out.contains('\x1b') && !out.contains('\x07'),
        "raw control characters in: {out:?}"
    );
}

#[test]
fn d27_12_validate_shows_control_characters_visibly() {
    // An illegal move on the line with the comment: the excerpt shows the line.
    let file = temp_file(
        "control-validate.pdn",
        b"[White \"Ann\x1b[2J\"]\n[Black \"Bob\x07\"]\n\n1. c3-d4 {\x1b[2J} f6-g5 2. a1-h8 *\n",
    );
    let r = run(&["validate", &file]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_no_raw_controls(&r.stdout);
    assert_no_raw_controls(&r.stderr);
    assert!(
        r.stdout
            .contains("  --> game 1 (Ann\\x1b[2J - Bob\\x07), ply 3\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout
            .contains("4 | 1. c3-d4 {\\x1b[2J} f6-g5 2. a1-h8 *\n"),
        "{}",
        r.stdout
    );
    // The carets stand under the move, counted in the characters shown.
    assert!(
        r.stdout.contains(&format!("  | {}^^^^^\n", " ".repeat(28))),
        "{}",
        r.stdout
    );
}

#[test]
fn d27_12_standings_shows_control_characters_visibly() {
    let file = temp_file("control-standings.pdn", CONTROL_GAME);
    let r = run(&["standings", &file]);
    assert_no_raw_controls(&r.stdout);
    assert_no_raw_controls(&r.stderr);
    assert!(
        r.stdout
            .starts_with("Event: Cup\\x1b]0;title\\x07 (matches, 2 players, 1 match)\n"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("  Match 1: Ann\\x1b[2J – Bob\\x07: 1-0;")
            || r.stdout.contains("  Match 1: Bob\\x07 – Ann\\x1b[2J: 0-1;"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("Ann\\x1b[2J – Bob\\x07  1-0"),
        "{}",
        r.stdout
    );
}

#[test]
fn d27_12_openings_shows_control_characters_visibly() {
    let file = temp_file("control-openings.pdn", CONTROL_GAME);
    let book = temp_file("control-book.tsv", b"X1\tEvil\x1b[2J\x07 line\tc3-d4\n");
    let r = run(&["openings", &file, "--no-default-book", "--book", &book]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_no_raw_controls(&r.stdout);
    assert!(
        r.stdout.contains("  Evil\\x1b[2J\\x07 line\n"),
        "{}",
        r.stdout
    );
    let r = run(&[
        "openings",
        &file,
        "--no-default-book",
        "--book",
        &book,
        "--per-game",
    ]);
    assert_no_raw_controls(&r.stdout);
    assert!(
        r.stdout.ends_with("\tX1\tEvil\\x1b[2J\\x07 line (ply 1)\n"),
        "{}",
        r.stdout
    );
}

#[test]
fn d27_12_analyze_shows_control_characters_visibly() {
    let file = temp_file("control-analyze.pdn", CONTROL_GAME);
    let r = run(&["analyze", &file, "--depth", "2", "--no-verify", "--no-egtb"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_no_raw_controls(&r.stdout);
    assert!(
        r.stdout
            .contains(" game 1: Ann\\x1b[2J - Bob\\x07, 1-0, 4 plies\n"),
        "{}",
        r.stdout
    );
}

/// Issue 27, item 11 (the archive commands): a write error on stdout is reported with what
/// was being written, exit 2, in every output form.
#[test]
fn d27_11_archive_commands_report_a_write_error() {
    let standings = format!(
        "{}/fixtures/standings/two-nil.pdn",
        env!("CARGO_MANIFEST_DIR")
    );
    for args in [
        &["standings", &standings][..],
        &["standings", &standings, "--csv"],
        &["standings", &standings, "--json"],
        &["openings", &standings],
        &["openings", &standings, "--per-game", "--csv"],
        &["fmt", &standings],
        &[
            "analyze",
            &standings,
            "--depth",
            "1",
            "--no-verify",
            "--no-egtb",
        ],
    ] {
        let (code, stderr) = drafti_into_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}");
        let what = if args[0] == "fmt" {
            "the records"
        } else {
            "the report"
        };
        assert!(
            stderr.ends_with(&format!(
                "drafti: cannot write {what}: No space left on device (os error 28)\n"
            )),
            "{args:?}: {stderr}"
        );
    }
}

/// Issue 41: a tag line longer than 64 KiB (256 KiB without spaces) was cut into pieces
/// whose rest was read as movetext, and the next tag line started a second game: two
/// "valid" games out of one, in validate, fmt, openings, standings and the TzDraft round
/// trip. The 4 MiB game limit promises such tags work.
#[test]
fn d41_a_tag_line_longer_than_64_kib_stays_in_its_game() {
    let values = [
        "ab ".repeat(22_000),
        "a".repeat((256 << 10) + 10),
        "a".repeat(64 << 10),
        "ab ".repeat((128 << 10) / 3 + 1),
    ];
    for (k, value) in values.iter().enumerate() {
        for eol in ["\n", "\r\n"] {
            let text = format!(
                "[White \"{value}\"]{eol}[Black \"Bakari\"]{eol}{eol}1. c3-d4 f6-g5 1-0{eol}{eol}\
                 [White \"Neema\"]{eol}[Black \"Bakari\"]{eol}{eol}1. c3-d4 f6-g5 0-1{eol}"
            );
            let file = temp_file(&format!("long-tag-{k}.pdn"), text.as_bytes());
            let what = format!("value {k}, {eol:?}");
            let (code, games, _) = validate_json(&file, &[]);
            assert_eq!((code, statuses(&games)), (0, vec!["valid"; 2]), "{what}");
            assert_eq!(games[0]["tags"]["White"].as_str(), Some(value.as_str()));
            assert_eq!(games[1]["tags"]["White"], "Neema", "{what}");
            // fmt writes the two games, which read back as two.
            let r = run(&["fmt", &file]);
            assert_eq!(r.code, 0, "{what}: {}", r.stderr);
            let again = temp_file(&format!("long-tag-{k}-fmt.pdn"), r.stdout.as_bytes());
            let (code, games, _) = validate_json(&again, &[]);
            assert_eq!((code, games.len()), (0, 2), "{what}");
            let r = run(&["openings", "--json", &file]);
            assert_eq!(r.code, 0, "{what}: {}", r.stderr);
            assert!(r.stdout.contains("\"games\":2"), "{what}");
            let r = run(&["standings", "--json", &file]);
            assert_eq!(r.code, 0, "{what}: {}", r.stderr);
            let standings: Value = serde_json::from_str(&r.stdout).unwrap();
            let played: Vec<&str> = standings["matches"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|m| m["games"].as_array().unwrap())
                .map(|g| g["black"].as_str().unwrap())
                .collect();
            assert_eq!(played, ["Bakari", "Bakari"], "{what}");
        }
    }
    // TzDraft's JSON with a game id of 100 KiB: imported and read back as one game.
    let id = "ab ".repeat(34_000);
    let json = std::fs::read_to_string(format!(
        "{}/fixtures/tzdraft/promotion.json",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap();
    let mut game: Value = serde_json::from_str(&json).unwrap();
    game["id"] = Value::String(id.clone());
    let file = temp_file("long-id.json", game.to_string().as_bytes());
    let r = run(&["import", "tzdraft", &file]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.contains(&id));
    let pdn = temp_file("long-id.pdn", r.stdout.as_bytes());
    let (code, games, _) = validate_json(&pdn, &[]);
    assert_eq!((code, games.len()), (0, 1));
}

/// Issue 41: an archive without tags, one game a line and no blank lines, with a stray `{`
/// after game 3: the comment ran to the end of the file and 100 of 103 games were lost.
/// Now the comment ends where a result is followed by move number 1, and costs the game
/// it swallowed (reported as an unterminated comment).
#[test]
fn d41_a_stray_brace_in_an_archive_one_game_a_line_costs_one_game() {
    let games: Vec<String> = (0..103)
        .map(|i| format!("1. c3-d4 f6-g5 2. g3-h4 g7-f6 {}", ["1-0", "0-1"][i % 2]))
        .collect();
    for eol in ["\n", "\r\n"] {
        let mut lines = games.clone();
        lines[2].push_str(" {");
        let text = lines.join(eol) + eol;
        let (code, found, _) = validate_json(&temp_file("one-a-line.pdn", text.as_bytes()), &[]);
        assert_eq!((code, found.len()), (1, 103), "{eol:?}");
        let mut expected = vec!["valid"; 103];
        expected[3] = "invalid";
        assert_eq!(statuses(&found), expected, "{eol:?}");
        assert_eq!(
            found[3]["errors"][0]["message"],
            "unterminated comment (expected '}', found end of game)"
        );
        // The games around it are the ones of the file, in order.
        assert_eq!(found[4]["line"].as_u64(), Some(5), "{eol:?}");
        assert_eq!(found[102]["line"].as_u64(), Some(103), "{eol:?}");
    }
}

/// Issue 41: `--help` and `--version` to a full disk exited 0 without a word. Now every
/// command's help and version, and `help`, report the write error (exit 2).
#[cfg(unix)]
#[test]
fn d41_help_and_version_report_a_write_error() {
    let commands: [&[&str]; 22] = [
        &[],
        &["validate"],
        &["analyze"],
        &["standings"],
        &["fmt"],
        &["selfplay"],
        &["openings"],
        &["report"],
        &["puzzles"],
        &["perft"],
        &["moves"],
        &["show"],
        &["search"],
        &["hub"],
        &["match"],
        &["egtb"],
        &["egtb", "build"],
        &["egtb", "probe"],
        &["egtb", "verify"],
        &["egtb", "info"],
        &["import", "tzdraft"],
        &["bench"],
    ];
    for command in commands {
        for (flag, what) in [
            ("--help", "help"),
            ("-h", "help"),
            ("--version", "version"),
            ("-V", "version"),
        ] {
            let mut args = command.to_vec();
            args.push(flag);
            let (code, stderr) = drafti_into_full_disk(&args);
            assert_eq!(code, Some(2), "{args:?}: {stderr}");
            assert_eq!(
                stderr,
                format!("drafti: cannot write the {what}: No space left on device (os error 28)\n"),
                "{args:?}"
            );
        }
    }
    for args in [&["help"][..], &["help", "egtb"], &["egtb", "help", "build"]] {
        let (code, stderr) = drafti_into_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}: {stderr}");
        assert!(
            stderr.contains("cannot write the help"),
            "{args:?}: {stderr}"
        );
    }
    // Where the output is read, nothing changes.
    let r = run(&["--version"]);
    assert_eq!((r.code, r.stderr.as_str()), (0, ""));
    assert!(r.stdout.starts_with("drafti "), "{}", r.stdout);
}
