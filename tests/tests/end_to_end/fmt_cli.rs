//! End-to-end tests of `drafti fmt`: canonical records through the replay.

use drafti_tests::drafti;

fn fixture(name: &str) -> String {
    format!("{}/fixtures/validate/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn corpus(name: &str) -> String {
    format!("{}/fixtures/corpora/{name}", env!("CARGO_MANIFEST_DIR"))
}

fn fmt(args: &[&str], stdin: Option<&[u8]>) -> (i32, String, String) {
    let mut cmd = drafti();
    cmd.arg("fmt").args(args);
    if let Some(bytes) = stdin {
        cmd.write_stdin(bytes.to_vec());
    }
    let out = cmd.output().expect("drafti runs");
    (
        out.status.code().unwrap(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn validate_stdin(text: &str, variant: &str) -> (i32, String) {
    let out = drafti()
        .args(["validate", "-", "--variant", variant])
        .write_stdin(text.as_bytes().to_vec())
        .output()
        .unwrap();
    (
        out.status.code().unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn notation_is_converted_and_numbers_regularised() {
    let text = b"[Event \"x\"]\n[Result \"*\"]\n\n1. c3-b4 f6-g5 2. b4-c5 b6-d4 4. e3xc5 d6:b4 *\n";
    let (code, out, _) = fmt(&["--numeric", "-"], Some(text));
    assert_eq!(code, 0);
    assert!(
        out.ends_with("\n1. 22-17 11-16 2. 17-14 9x18 3. 23x14 10x17 *\n"),
        "{out}"
    );
    let (_, algebraic, _) = fmt(&["--algebraic", "-"], Some(out.as_bytes()));
    assert!(
        algebraic.contains("1. c3-b4 f6-g5 2. b4-c5 b6xd4 3. e3xc5 d6xb4 *"),
        "{algebraic}"
    );
}

#[test]
fn ambiguous_captures_get_their_full_path() {
    // The short form of the first game is ambiguous: fmt cannot rewrite it and keeps it.
    let (code, out, stderr) = fmt(&[&fixture("king-ambiguous.pdn")], None);
    assert_eq!(code, 1);
    assert!(stderr.contains("ambiguous move a1xe1"), "{stderr}");
    assert!(out.contains("1... a1xe1 *"), "{out}");
    // The full path stays full (another capture shares a1 and e1).
    assert!(out.contains("1... a1xe5xg3xe1 *"), "{out}");
    // --full-captures writes every landing square of every capture.
    let text = b"1. c3-b4 f6-g5 2. b4-c5 b6xd4 3. e3xc5 d6xb4 *";
    let (_, out, _) = fmt(&["--full-captures", "-"], Some(text));
    assert!(out.contains("b6xd4 3. e3xc5 d6xb4"), "{out}");
}

#[test]
fn formatted_archives_still_validate() {
    for (file, variant) in [
        ("czech-championship-2007-102games.pdn", "czech"),
        ("russian-ussr-championship-x-153games.pdn", "russian"),
    ] {
        let (code, out, stderr) = fmt(&[&corpus(file), "--variant", variant], None);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(
            out.matches("[Event ").count(),
            out.matches("\n\n[").count() + 1
        );
        let (code, stderr) = validate_stdin(&out, variant);
        assert_eq!(code, 0, "{file}: {stderr}");
        // Formatting is idempotent.
        let (_, again, _) = fmt(&["-", "--variant", variant], Some(out.as_bytes()));
        assert_eq!(again, out, "{file}");
    }
}

/// Issue 27, item 14: records rewritten under `--variant` carry its GameType tag (replacing
/// the one they had), so they read back under the same rules without `--variant`.
#[test]
fn records_rewritten_under_a_variant_carry_its_game_type() {
    let games = "1. c3-d4 f6-g5 2. g3-h4 g7-f6 *\n\n[GameType \"29\"]\n\n1. c3-d4 f6-g5 *\n";
    let (code, out, stderr) = fmt(&["-", "--variant", "russian"], Some(games.as_bytes()));
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        out,
        "[GameType \"25\"]\n\n1. c3-d4 f6-g5 2. g3-h4 g7-f6 *\n\n[GameType \"25\"]\n\n1. c3-d4 f6-g5 *\n"
    );
    let json = drafti()
        .args(["validate", "-", "--json"])
        .write_stdin(out.into_bytes())
        .output()
        .unwrap();
    let text = String::from_utf8(json.stdout).unwrap();
    assert_eq!(text.matches("\"variant\":\"russian\"").count(), 2, "{text}");
    // Without --variant, nothing is added.
    let (code, out, _) = fmt(&["-"], Some(b"1. c3-d4 f6-g5 *\n"));
    assert_eq!(code, 0);
    assert_eq!(out, "1. c3-d4 f6-g5 *\n");
}

/// Issue 41: a FEN game numbered from 4,294,967,295 was written with that number twice (the
/// next did not fit), without a word. It is written unchanged with an error (exit 1).
#[test]
fn fmt_refuses_move_numbers_past_the_largest() {
    let scratch = drafti_tests::temp_dir("fmt-numbers");
    let dir = scratch.path();
    let file = dir.join("big.pdn");
    let text = "[FEN \"W:W21-32:B1-12\"]\n\n4294967295. c3-d4 f6-g5 d4-c5 1-0\n";
    std::fs::write(&file, text).unwrap();
    let out = drafti_tests::drafti()
        .arg("fmt")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(String::from_utf8_lossy(&out.stdout), text);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains(
            "error: cannot be rewritten: its moves would be numbered up to 4294967296, past \
             the largest move number, 4294967295 (game 1 written unchanged)"
        ),
        "{stderr}"
    );
    // One move fewer fits.
    std::fs::write(
        &file,
        "[FEN \"W:W21-32:B1-12\"]\n\n4294967295. c3-d4 f6-g5 1-0\n",
    )
    .unwrap();
    let out = drafti_tests::drafti()
        .arg("fmt")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&out.stdout).contains("4294967295. c3-d4 f6-g5 1-0"));
}
