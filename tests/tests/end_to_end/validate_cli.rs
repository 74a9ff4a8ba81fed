//! End-to-end tests of `drafti validate`: the fixtures in `tests/fixtures/validate/`, the bad
//! records of `corpus/bad/`, and the real archives in `tests/fixtures/corpora/`.

use drafti_tests::drafti;
use serde_json::Value;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/validate/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn bad(name: &str) -> String {
    format!("{}/../corpus/bad/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn corpus(name: &str) -> String {
    format!("{}/fixtures/corpora/{name}", env!("CARGO_MANIFEST_DIR"))
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let output = drafti().args(args).output().expect("drafti runs");
    Run {
        code: output.status.code().expect("exit code"),
        stdout: String::from_utf8(output.stdout).expect("UTF-8 stdout"),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
    }
}

/// `drafti validate FILES ARGS --json`: exit code and one JSON object per game.
fn validate_json(files: &[String], args: &[&str]) -> (i32, Vec<Value>, String) {
    let mut all: Vec<&str> = vec!["validate", "--json"];
    all.extend(files.iter().map(String::as_str));
    all.extend(args);
    let r = run(&all);
    let games = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("one JSON object per line"))
        .collect();
    (r.code, games, r.stderr)
}

/// The only error of a game, checked for kind, line, column and ply.
fn only_error(game: &Value, kind: &str, line: u64, column: u64, ply: Option<u64>) -> Value {
    assert_eq!(game["status"], "invalid", "{game}");
    let errors = game["errors"].as_array().expect("errors");
    assert_eq!(errors.len(), 1, "{game}");
    let e = &errors[0];
    assert_eq!(e["kind"], kind, "{e}");
    assert_eq!(
        (e["line"].as_u64(), e["column"].as_u64()),
        (Some(line), Some(column)),
        "{e}"
    );
    assert_eq!(e["ply"].as_u64(), ply, "{e}");
    e.clone()
}

#[test]
fn valid_archives_exit_0() {
    let files = [
        fixture("valid-tz.pdn"),
        fixture("valid-russian.pdn"),
        fixture("black-first.pdn"),
    ];
    let (code, games, stderr) = validate_json(&files, &[]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(games.len(), 6);
    for g in &games {
        assert_eq!(g["status"], "valid", "{g}");
        assert_eq!(g["errors"].as_array().unwrap().len(), 0);
    }
    // GameType 25 selects Russian without --variant.
    assert_eq!(games[3]["variant"], "russian");
    assert_eq!(games[0]["variant"], "tz");
    assert_eq!(games[0]["index"], 1);
    assert_eq!(games[0]["tags"]["Event"], "drafti random self-play");
    assert!(
        stderr.contains("6 games in 3 files: 6 valid, 0 invalid"),
        "{stderr}"
    );
}

#[test]
fn tanzanian_record_may_start_with_black() {
    let (code, games, _) = validate_json(&[fixture("black-first.pdn")], &[]);
    assert_eq!(code, 0);
    assert_eq!(games[0]["status"], "valid");
    assert_eq!(games[0]["plies"], 53);
    assert_eq!(games[0]["result"], "0-1");
    // Under Russian rules White must start: the first move is then illegal.
    let (code, games, _) = validate_json(&[fixture("black-first.pdn")], &["--variant", "russian"]);
    assert_eq!(code, 1);
    let e = only_error(&games[0], "illegal_move", 9, 6, Some(1));
    assert!(
        e["message"]
            .as_str()
            .unwrap()
            .contains("b6 holds a Black piece"),
        "{e}"
    );
}

#[test]
fn fen_start_with_move_numbers_from_21() {
    let (code, games, _) = validate_json(&[fixture("fen-start.pdn")], &[]);
    assert_eq!(code, 0);
    assert_eq!(games[0]["status"], "valid");
    assert_eq!(games[0]["plies"], 4);
    assert_eq!(
        games[0]["warnings"].as_array().unwrap().len(),
        0,
        "{}",
        games[0]
    );
}

#[test]
fn bad_game_in_the_middle_leaves_the_others_valid() {
    let (code, games, stderr) = validate_json(&[fixture("middle-bad.pdn")], &[]);
    assert_eq!(code, 1);
    assert_eq!(games.len(), 3);
    assert_eq!(games[0]["status"], "valid");
    assert_eq!(games[2]["status"], "valid");
    let e = only_error(&games[1], "illegal_move", 24, 64, Some(9));
    assert_eq!(e["move"], "a1-b2");
    assert_eq!(games[1]["plies"], 8);
    assert!(e["fen"].as_str().unwrap().starts_with("W:"));
    let legal: Vec<&str> = e["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    assert!(legal.contains(&"g3-f4") || !legal.is_empty(), "{legal:?}");
    assert!(!legal.contains(&"a1-b2"));
    assert!(
        stderr.contains("3 games in 1 file: 2 valid, 1 invalid"),
        "{stderr}"
    );
}

#[test]
fn human_output_reads_like_a_compiler() {
    let r = run(&["validate", &fixture("middle-bad.pdn")]);
    assert_eq!(r.code, 1);
    let out = &r.stdout;
    assert!(
        out.contains("middle-bad.pdn:24:64: error: illegal move a1-b2 at ply 9 (White to move)"),
        "{out}"
    );
    assert!(
        out.contains("  --> game 2 (random - random), ply 9"),
        "{out}"
    );
    // The source line, then a caret under the move.
    let lines: Vec<&str> = out.lines().collect();
    let source = lines
        .iter()
        .position(|l| l.starts_with("24 | "))
        .expect("source line");
    let caret = lines[source + 1];
    let at = caret.find('^').unwrap();
    assert_eq!(&lines[source][at..at + 5], "a1-b2");
    assert!(caret.ends_with("^^^^^"));
    assert!(out.contains("   = position: W:"), "{out}");
    assert!(out.contains("          a b c d e f g h"), "{out}");
    assert!(out.contains("   = legal moves: "), "{out}");
    assert!(r.stderr.contains("2 valid, 1 invalid"));
}

#[test]
fn illegal_move_inside_a_variation() {
    let (code, games, _) = validate_json(&[fixture("variation-illegal.pdn")], &[]);
    assert_eq!(code, 1);
    let e = only_error(&games[0], "illegal_move", 4, 44, Some(5));
    assert_eq!(e["in_variation"], true);
    assert_eq!(e["move"], "a5-b4");
    assert!(
        e["message"].as_str().unwrap().contains("in a variation")
            && e["message"]
                .as_str()
                .unwrap()
                .contains("a man moves only forward"),
        "{e}"
    );
    // The mainline itself was replayed to its end.
    assert_eq!(games[0]["plies"], 7);
}

#[test]
fn result_tag_and_movetext_disagree() {
    let (code, games, _) = validate_json(&[fixture("result-mismatch.pdn")], &[]);
    assert_eq!(code, 1);
    let e = only_error(&games[0], "result_mismatch", 6, 55, None);
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("Result tag \"1-0\""));
}

#[test]
fn result_that_contradicts_the_final_position() {
    let (code, games, _) = validate_json(&[fixture("result-contradicts.pdn")], &[]);
    assert_eq!(code, 1);
    only_error(&games[0], "result_contradicts_position", 5, 10, Some(1));
}

#[test]
fn move_after_the_game_ended() {
    let (code, games, _) = validate_json(&[fixture("move-after-end.pdn")], &[]);
    assert_eq!(code, 1);
    let e = only_error(&games[0], "move_after_end", 5, 10, Some(2));
    assert_eq!(e["move"], "b8-a7");
}

#[test]
fn draw_law_under_a_decisive_result_is_a_warning() {
    let (code, games, _) = validate_json(&[fixture("draw-law.pdn")], &[]);
    assert_eq!(code, 0);
    assert_eq!(games[0]["status"], "valid");
    let w = &games[0]["warnings"][0];
    assert_eq!(w["kind"], "draw_not_recorded");
    assert!(w["message"].as_str().unwrap().contains("only kings left"));
}

#[test]
fn unknown_gametype_is_named() {
    let (code, games, _) = validate_json(&[fixture("unknown-gametype.pdn")], &[]);
    assert_eq!(code, 1);
    let e = only_error(&games[0], "unknown_variant", 2, 1, None);
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("unknown GameType 20"));
    // --variant overrides the tag (the numeric moves are then checked as Tanzanian).
    let (_, games, _) = validate_json(&[fixture("unknown-gametype.pdn")], &["--variant", "tz"]);
    assert_ne!(games[0]["errors"][0]["kind"], "unknown_variant");
}

#[test]
fn king_capture_ambiguous_short_and_accepted_full() {
    let (code, games, _) = validate_json(&[fixture("king-ambiguous.pdn")], &[]);
    assert_eq!(code, 1);
    let e = only_error(&games[0], "ambiguous_move", 5, 6, Some(1));
    let mut candidates: Vec<&str> = e["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    candidates.sort();
    assert_eq!(candidates, ["a1xe5xg3xe1", "a1xf6xh4xe1"]);
    assert_eq!(games[1]["status"], "valid");
    assert_eq!(games[1]["plies"], 1);
}

#[test]
fn warnings_do_not_invalidate() {
    let (code, games, _) = validate_json(&[fixture("warnings.pdn")], &[]);
    assert_eq!(code, 0);
    let kinds: Vec<&str> = games[0]["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["capture_written_as_quiet", "move_number"]);
    assert_eq!(games[0]["warnings"][0]["column"], 25);
}

/// Each record of corpus/bad/: (file, per game: status, and for an invalid one the error
/// kind, line, column and ply). The syntax errors are those of corpus/bad/README.md; every
/// other game of these files is legal, so each file holds exactly the one bad record.
#[test]
fn corpus_bad_records_give_the_expected_errors() {
    type Expect = Option<(&'static str, u64, u64, Option<u64>)>;
    let cases: [(&str, &[Expect]); 11] = [
        (
            "unterminated-comment.pdn",
            &[None, Some(("syntax", 19, 10, None)), None],
        ),
        (
            "unbalanced-parentheses.pdn",
            &[None, Some(("syntax", 19, 16, None)), None],
        ),
        (
            "extra-parenthesis.pdn",
            &[Some(("syntax", 9, 24, None)), None],
        ),
        ("square-i9.pdn", &[Some(("syntax", 9, 22, None)), None]),
        ("square-33.pdn", &[Some(("syntax", 9, 47, None)), None]),
        (
            "broken-tag.pdn",
            &[None, Some(("syntax", 12, 8, None)), None],
        ),
        (
            "garbage-between-games.pdn",
            &[None, Some(("syntax", 11, 1, None)), None],
        ),
        (
            "binary-bytes.pdn",
            &[None, Some(("syntax", 11, 1, None)), None],
        ),
        ("truncated.pdn", &[None, Some(("syntax", 19, 28, None))]),
        ("legacy-encoding.pdn", &[None, None]),
        ("missing-result.pdn", &[None, None]),
    ];
    for (file, expected) in cases {
        let (code, games, stderr) = validate_json(&[bad(file)], &[]);
        assert_eq!(games.len(), expected.len(), "{file}: {stderr}");
        let any_invalid = expected.iter().any(Option::is_some);
        assert_eq!(code, i32::from(any_invalid), "{file}");
        for (game, want) in games.iter().zip(expected) {
            match want {
                None => assert_eq!(game["status"], "valid", "{file}: {game}"),
                Some((kind, line, column, ply)) => {
                    only_error(game, kind, *line, *column, *ply);
                }
            }
        }
    }
    let (_, games, _) = validate_json(&[bad("legacy-encoding.pdn")], &[]);
    let warnings = games[1]["warnings"].as_array().unwrap();
    assert_eq!(warnings.len(), 4);
    assert!(warnings.iter().all(|w| w["kind"] == "legacy_encoding"));
    let (_, games, _) = validate_json(&[bad("missing-result.pdn")], &[]);
    assert_eq!(games[0]["warnings"][0]["kind"], "missing_result");
    assert_eq!(games[0]["warnings"][0]["line"], 5);
}

#[test]
fn empty_file_has_no_games_and_exits_0() {
    let r = run(&["validate", &bad("empty.pdn")]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.is_empty());
    assert!(r.stderr.contains("no games found"), "{}", r.stderr);
    assert!(r.stderr.contains("0 games in 1 file"), "{}", r.stderr);
}

/// `name` holding `bytes` in a fresh folder, removed when the returned path drops.
fn temp_file(name: &str, bytes: &[u8]) -> drafti_tests::TempPath {
    let path = drafti_tests::temp_path("validate", name);
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn bad_inputs_exit_2_with_a_clear_message() {
    let png = temp_file(
        "image.pdn",
        b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06",
    );
    let r = run(&["validate", png.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("is not a text file (PNG image)"),
        "{}",
        r.stderr
    );

    let noise: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 32) as u8).collect();
    let bin = temp_file("noise.pdn", &noise);
    let r = run(&["validate", bin.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.contains("is not a text file (binary data)"),
        "{}",
        r.stderr
    );

    let r = run(&["validate", "no/such/file.pdn"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .contains("cannot open no/such/file.pdn: no such file"),
        "{}",
        r.stderr
    );

    let dir = format!("{}/fixtures", env!("CARGO_MANIFEST_DIR"));
    let r = run(&["validate", &dir]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("is a directory"), "{}", r.stderr);

    // Nothing is validated when one input is bad: the error comes before any output.
    let r = run(&["validate", &fixture("valid-tz.pdn"), "no/such/file.pdn"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());

    let r = run(&["validate", "--shard", "4/3", &fixture("valid-tz.pdn")]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("invalid shard"), "{}", r.stderr);
    assert!(!r.stderr.contains("panicked"));
}

#[cfg(unix)]
#[test]
fn unreadable_file_exits_2() {
    use std::os::unix::fs::PermissionsExt;
    let path = temp_file("locked.pdn", b"1. c3-d4 *\n");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o000)).unwrap();
    if std::fs::read(&path).is_ok() {
        // Running as root: permissions do not stop reading; nothing to test.
        return;
    }
    let r = run(&["validate", path.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("permission denied"), "{}", r.stderr);
}

#[test]
fn stdin_is_read_with_a_dash() {
    let text = std::fs::read(fixture("valid-tz.pdn")).unwrap();
    let output = drafti()
        .args(["validate", "--json", "-"])
        .write_stdin(text)
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    let first: Value = serde_json::from_str(
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(first["file"], "<stdin>");
}

/// Random games: the output is the same whatever --jobs, and the shards partition the games.
#[test]
fn jobs_and_shards_do_not_change_the_answer() {
    let games = drafti()
        .args(["selfplay", "--random", "--games", "1500", "--seed", "42"])
        .output()
        .unwrap();
    assert_eq!(games.status.code(), Some(0));
    let path = temp_file("random.pdn", &games.stdout);
    let path = path.to_str().unwrap().to_string();
    let one = run(&["validate", "--json", "--jobs", "1", &path]);
    let two = run(&["validate", "--json", "--jobs", "2", &path]);
    let four = run(&["validate", "--json", "--jobs", "4", &path]);
    assert_eq!(one.code, 0, "{}", one.stderr);
    assert_eq!(one.stdout, two.stdout);
    assert_eq!(one.stdout, four.stdout);
    assert_eq!(one.stdout.lines().count(), 1500);
    let mut seen = Vec::new();
    for k in 1..=3 {
        let (code, shard, stderr) =
            validate_json(std::slice::from_ref(&path), &["--shard", &format!("{k}/3")]);
        assert_eq!(code, 0);
        assert_eq!(shard.len(), 500, "{stderr}");
        assert!(
            stderr.contains("1,000 games left to the other shards"),
            "{stderr}"
        );
        seen.extend(shard.iter().map(|g| g["index"].as_u64().unwrap()));
    }
    seen.sort_unstable();
    assert_eq!(seen, (1..=1500).collect::<Vec<u64>>());
}

/// The real archives validate under their variant with no false errors. The only findings are
/// warnings: Abatsiev game 36 (Абациев Н. - Лебедев Ю.) has its 50 moves written as `-`, the
/// Czech team championship has three forfeits written `1. 0-2` / `1. 2-0`, and the Czech
/// championship six games with a result and no moves (PlyCount 0), read as forfeits.
#[test]
fn real_archives_validate_under_their_variant() {
    let cases = [
        (
            "russian-ussr-championship-x-153games.pdn",
            "russian",
            153,
            0,
        ),
        ("russian-abatsiev-ussr-events-56games.pdn", "russian", 56, 1),
        ("czech-championship-2007-102games.pdn", "czech", 102, 6),
        ("czech-team-championship-2007-72games.pdn", "czech", 72, 3),
    ];
    for (file, variant, count, warnings) in cases {
        let (code, games, stderr) = validate_json(&[corpus(file)], &["--variant", variant]);
        assert_eq!(code, 0, "{file}: {stderr}");
        assert_eq!(games.len(), count, "{file}");
        let invalid: Vec<&Value> = games.iter().filter(|g| g["status"] != "valid").collect();
        assert!(invalid.is_empty(), "{file}: {invalid:?}");
        let warned: Vec<&Value> = games
            .iter()
            .filter(|g| !g["warnings"].as_array().unwrap().is_empty())
            .collect();
        assert_eq!(warned.len(), warnings, "{file}: {warned:?}");
        assert!(games.iter().all(|g| g["variant"] == variant));
    }
    let (_, games, _) = validate_json(
        &[corpus("russian-abatsiev-ussr-events-56games.pdn")],
        &["--variant", "russian"],
    );
    assert_eq!(games[35]["warnings"][0]["kind"], "moves_not_recorded");
    assert_eq!(games[35]["tags"]["Black"], "Лебедев Ю.");
    let (_, games, _) = validate_json(
        &[corpus("czech-championship-2007-102games.pdn")],
        &["--variant", "czech"],
    );
    let warned: Vec<(u64, &Value)> = games
        .iter()
        .filter(|g| !g["warnings"].as_array().unwrap().is_empty())
        .map(|g| (g["index"].as_u64().unwrap(), &g["warnings"][0]["kind"]))
        .collect();
    assert_eq!(
        warned.iter().map(|(index, _)| *index).collect::<Vec<_>>(),
        [18, 26, 27, 44, 45, 63]
    );
    assert!(
        warned.iter().all(|(_, kind)| *kind == "forfeit"),
        "{warned:?}"
    );
    // The forfeits of the Czech team championship: no moves, a result, valid, and each one
    // (and nothing else) warned as a forfeit.
    let (_, games, _) = validate_json(
        &[corpus("czech-team-championship-2007-72games.pdn")],
        &["--variant", "czech"],
    );
    let forfeits: Vec<u64> = games
        .iter()
        .filter(|g| g["plies"] == 0)
        .map(|g| g["index"].as_u64().unwrap())
        .collect();
    assert_eq!(forfeits, [12, 20, 36]);
    let warned_forfeits: Vec<u64> = games
        .iter()
        .filter(|g| {
            let w = g["warnings"].as_array().unwrap();
            w.len() == 1 && w[0]["kind"] == "forfeit"
        })
        .map(|g| g["index"].as_u64().unwrap())
        .collect();
    assert_eq!(warned_forfeits, forfeits);
    // Under Tanzanian rules (men never capture backward) the Russian games are illegal: the
    // check is real.
    let (code, games, _) =
        validate_json(&[corpus("russian-ussr-championship-x-153games.pdn")], &[]);
    assert_eq!(code, 1);
    assert!(games.iter().filter(|g| g["status"] == "invalid").count() > 100);
}

/// Issue 27, item 14: a file whose games name no variant is read as Tanzanian; when that
/// guess leaves games invalid, validate says so once for the file and names the variant
/// under which they replay valid.
#[test]
fn a_wrong_variant_guess_is_named_with_the_variant_that_fits() {
    let russian = corpus("russian-ussr-championship-x-153games.pdn");
    let r = run(&["validate", &russian]);
    assert_eq!(r.code, 1);
    let notes: Vec<&str> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("note:"))
        .collect();
    assert_eq!(
        notes,
        [format!(
            "note: {russian}: no GameType or Variant tag, so its 153 games were read as \
             Tanzanian (tz); all 152 invalid ones replay valid as russian: try --variant russian"
        )]
    );
    // Under the variant named, the games are valid and nothing is guessed.
    let r = run(&["validate", &russian, "--variant", "russian"]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("note:"), "{}", r.stderr);

    let czech = corpus("czech-team-championship-2007-72games.pdn");
    let r = run(&["validate", &czech, "--json"]);
    assert_eq!(r.code, 1);
    assert!(
        r.stderr.ends_with(&format!(
            "note: {czech}: no GameType or Variant tag, so its 72 games were read as \
             Tanzanian (tz); the invalid one replays valid as czech: try --variant czech\n"
        )),
        "{}",
        r.stderr
    );
    // A Tanzanian file whose games are valid is not remarked on.
    let r = run(&["validate", &fixture("valid-tz.pdn")]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(!r.stderr.contains("note:"), "{}", r.stderr);
}
