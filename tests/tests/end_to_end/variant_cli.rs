//! One variant policy for every command that reads archives (`cli/src/runner.rs`), on
//! `fixtures/variant/czech-2007-23-25.pdn` (three Czech games without a variant tag; read as
//! Tanzanian, one goes on after draw law 1 and is invalid, valid as Czech): the commands
//! that write each game as it comes end with the note; those that build one result from
//! every game (`report`, `puzzles`, `openings`, `standings`) write nothing and stop (exit
//! 2), and do their work under `--variant czech`; `analyze`, which writes game by game but
//! searches every one, refuses a file before the search like them. `report` and `puzzles`
//! refuse stdin before the search too (from a copy of it); `analyze` streams stdin.

use drafti_tests::{drafti, run_drafti, temp_dir};

const CZECH: &str = "fixtures/variant/czech-2007-23-25.pdn";
/// The first game of the Russian championship of 1950 (`fixtures/analyze`): invalid as
/// Tanzanian in its first moves (a man captures backwards).
const RUSSIAN: &str = "fixtures/analyze/ussr-x-1.pdn";

const NOTE: &str = "note: fixtures/variant/czech-2007-23-25.pdn: no GameType or Variant tag, \
                    so its 3 games were read as Tanzanian (tz); the invalid one replays valid \
                    as czech: try --variant czech\n";

const REFUSAL: &str = "drafti: fixtures/variant/czech-2007-23-25.pdn: no GameType or Variant \
                       tag, so its 3 games were read as Tanzanian (tz); the invalid one replays \
                       valid as czech: give --variant czech (or --variant tz to read them as \
                       Tanzanian all the same)\n";

/// `drafti ARGS FILE` in the tests crate's folder.
fn run(args: &[&str], file: &str) -> (i32, String, String) {
    run_drafti(&[args, &[file]].concat())
}

#[test]
fn the_commands_that_write_game_by_game_end_with_the_note() {
    for args in [&["validate"][..], &["fmt"], &["puzzles", "--verify"]] {
        let (code, _, stderr) = run(args, CZECH);
        // Exit 1: the game that does not replay as read is invalid input.
        assert_eq!(code, 1, "{args:?}: {stderr}");
        assert!(stderr.ends_with(NOTE), "{args:?}: {stderr}");
    }
    let (code, _, stderr) = run(&["validate", "--variant", "czech"], CZECH);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("note:"), "{stderr}");
}

#[test]
fn the_commands_that_build_one_result_refuse_and_name_the_variant() {
    // Before: report analysed the games as Tanzanian, puzzles mined them, standings ranked
    // them, each without a word.
    let scratch = temp_dir("variant-refusal");
    let dir = scratch.path();
    let html = dir.join("report.html");
    let html = html.to_str().unwrap();
    for args in [
        &["report", "--nodes", "100", "--html", html][..],
        &["puzzles", "--nodes", "100"],
        &["standings"],
    ] {
        let (code, stdout, stderr) = run(args, CZECH);
        assert_eq!((code, stdout.as_str()), (2, ""), "{args:?}: {stderr}");
        assert!(stderr.ends_with(REFUSAL), "{args:?}: {stderr}");
        // The refused report leaves no file behind.
        assert!(!std::path::Path::new(html).exists());
        let given = [args, &["--variant", "czech"]].concat();
        let (code, stdout, stderr) = run(&given, CZECH);
        assert_eq!(code, 0, "{given:?}: {stderr}");
        // Read as Czech, every game counts (puzzles may keep none of so few).
        if args[0] == "puzzles" {
            assert!(
                stderr.contains("3 games (0 invalid)"),
                "{given:?}: {stderr}"
            );
        } else {
            assert!(!stdout.is_empty(), "{given:?}");
        }
        assert!(!stderr.contains("note: "), "{given:?}: {stderr}");
        std::fs::remove_file(html).ok();
    }
}

/// The searching commands' flags with a budget that would search the three games for hours:
/// a refusal must come from the replay alone (it used to come after the whole analysis).
const FOR_HOURS: [&[&str]; 3] = [
    &[
        "report",
        "--nodes",
        "2000000000",
        "--depth",
        "60",
        "--no-verify",
    ],
    &["puzzles", "--nodes", "2000000000"],
    &[
        "analyze",
        "--nodes",
        "2000000000",
        "--depth",
        "60",
        "--no-verify",
    ],
];

/// `drafti ARGS` in the tests crate's folder with `stdin` piped in (through a pipe, which
/// cannot be read twice) when given, else nothing: its (exit code, stdout, stderr). A
/// deadline, not a speed measure (milliseconds against hours): a run still going after two
/// minutes is searching, and fails the test instead of hanging it.
fn refused_before_the_work(args: &[&str], stdin: Option<&str>) -> (Option<i32>, String, String) {
    use std::process::Stdio;
    use std::thread::JoinHandle;
    fn read_all(mut from: impl std::io::Read + Send + 'static) -> JoinHandle<String> {
        std::thread::spawn(move || {
            let mut text = String::new();
            from.read_to_string(&mut text).unwrap();
            text
        })
    }
    let mut child = drafti_tests::drafti_command()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args(args)
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    if let Some(file) = stdin {
        let bytes =
            std::fs::read(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        let mut pipe = child.stdin.take().unwrap();
        std::thread::spawn(move || std::io::Write::write_all(&mut pipe, &bytes));
    }
    let stdout = read_all(child.stdout.take().unwrap());
    let stderr = read_all(child.stderr.take().unwrap());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if std::time::Instant::now() > deadline {
            child.kill().ok();
            panic!("{args:?}: still analysing after 120 s instead of refusing");
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    };
    (
        status.code(),
        stdout.join().unwrap(),
        stderr.join().unwrap(),
    )
}

#[test]
fn the_analysing_summaries_refuse_before_the_work() {
    for args in FOR_HOURS {
        let given = [args, &[CZECH]].concat();
        let (code, stdout, stderr) = refused_before_the_work(&given, None);
        assert_eq!(
            (code, stdout.as_str(), stderr.as_str()),
            (Some(2), "", REFUSAL),
            "{args:?}"
        );
    }
}

#[test]
fn the_analysing_summaries_refuse_stdin_before_the_work() {
    // Stdin used to be searched whole under the wrong rules, then refused: now it is copied
    // to a temporary file and judged first, as a file is. Nothing on stdout, and nothing on
    // stderr but the refusal naming <stdin> (no summary line, no encoding said twice).
    let refusal = REFUSAL.replace(CZECH, "<stdin>");
    for args in &FOR_HOURS[..2] {
        // `-`, and stdin piped in with no FILES.
        for given in [[*args, &["-"]].concat(), args.to_vec()] {
            let (code, stdout, stderr) = refused_before_the_work(&given, Some(CZECH));
            assert_eq!(
                (code, stdout.as_str(), stderr.as_str()),
                (Some(2), "", refusal.as_str()),
                "{given:?}"
            );
        }
    }
    // A Russian game: the same, with the variant that fits.
    let (code, stdout, stderr) = refused_before_the_work(FOR_HOURS[0], Some(RUSSIAN));
    assert_eq!((code, stdout.as_str()), (Some(2), ""), "{stderr}");
    assert!(
        stderr.starts_with("drafti: <stdin>: no GameType or Variant tag")
            && stderr.ends_with(
                "give --variant russian (or --variant tz to read them as Tanzanian all the same)\n"
            ),
        "{stderr}"
    );
}

#[test]
fn stdin_that_cannot_be_copied_is_an_error_naming_it() {
    // The copy goes to the system's temporary folder: one that is missing is a one-line
    // error (exit 2) naming <stdin> and the way round it, not a panic.
    let scratch = temp_dir("variant-no-tmp");
    let missing = scratch.path().join("missing");
    let output = drafti()
        .args(["report", "--nodes", "100", "-"])
        .env("TMPDIR", &missing)
        .pipe_stdin(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CZECH))
        .unwrap()
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(
        (output.status.code(), output.stdout.as_slice()),
        (Some(2), &b""[..]),
        "{stderr}"
    );
    assert_eq!(
        stderr,
        format!(
            "drafti: cannot copy <stdin> to a temporary file in {}: no such folder (--variant \
             reads stdin once, as it comes)\n",
            missing.display()
        )
    );
    // --variant reads stdin as it comes: no copy, no temporary folder needed.
    let output = drafti()
        .args([
            "report",
            "--nodes",
            "100",
            "--no-verify",
            "--variant",
            "czech",
        ])
        .env("TMPDIR", &missing)
        .pipe_stdin(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CZECH))
        .unwrap()
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(output.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.starts_with("drafti report: 3 games from <stdin>\n"),
        "{stdout}"
    );
}

#[test]
fn analyze_refuses_a_file_but_can_only_note_it_from_stdin() {
    // From a file the guess is judged before the search (exit 2, nothing written); stdin is
    // read once, so there the games are written as they come and the note ends the run.
    let (code, stdout, stderr) = run(&["analyze", "--nodes", "100", "--no-verify"], CZECH);
    assert_eq!((code, stdout.as_str(), stderr.as_str()), (2, "", REFUSAL));
    let file = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CZECH);
    let output = drafti()
        .args(["analyze", "--nodes", "100", "--no-verify", "-"])
        .pipe_stdin(file)
        .unwrap()
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(1), "{stderr}");
    assert!(!output.stdout.is_empty());
    assert!(
        stderr.ends_with("no GameType or Variant tag, so its 3 games were read as Tanzanian (tz); the invalid one replays valid as czech: try --variant czech\n"),
        "{stderr}"
    );
}

#[test]
fn report_from_analysis_parts_applies_the_same_policy() {
    let scratch = temp_dir("variant-parts");
    let dir = scratch.path();
    let part = dir.join("part.jsonl");
    // From stdin: analyze of a file refuses before writing a part.
    let output = drafti()
        .args(["analyze", "--json", "--nodes", "100", "--no-verify", "-"])
        .pipe_stdin(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CZECH))
        .unwrap()
        .output()
        .unwrap();
    std::fs::write(&part, output.stdout).unwrap();
    let (code, stdout, stderr) = run_drafti(&["report", "--from-analysis", part.to_str().unwrap()]);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    let refusal = REFUSAL.replace(CZECH, "<stdin>");
    assert!(stderr.ends_with(&refusal), "{stderr}");
}

#[test]
fn openings_judge_the_plies_they_read() {
    // The Czech games' first 40 plies are valid Tanzanian moves: the same table as under
    // --variant czech, and nothing to say.
    let (code, tz, stderr) = run(&["openings", "--json"], CZECH);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("note:"), "{stderr}");
    let (_, czech, _) = run(&["openings", "--json", "--variant", "czech"], CZECH);
    assert_eq!(tz, czech);
    // A Russian game goes wrong in its first moves: the table is refused, the list of
    // games (written game by game) ends with the note.
    let (code, stdout, stderr) = run(&["openings"], RUSSIAN);
    assert_eq!((code, stdout.as_str()), (2, ""), "{stderr}");
    assert!(stderr.contains("give --variant russian"), "{stderr}");
    let (code, _, stderr) = run(&["openings", "--per-game"], RUSSIAN);
    assert_eq!(code, 1, "{stderr}");
    assert!(stderr.contains("try --variant russian"), "{stderr}");
    let (code, _, stderr) = run(&["openings", "--variant", "russian"], RUSSIAN);
    assert_eq!(code, 0, "{stderr}");
}

#[test]
fn show_names_the_variant_of_the_game_it_draws() {
    let (code, _, stderr) = run(&["show", "--game", "2"], CZECH);
    assert_eq!(code, 0);
    assert_eq!(
        stderr,
        "note: fixtures/variant/czech-2007-23-25.pdn game 2: no GameType or Variant tag, so \
         its game was read as Tanzanian (tz); the invalid one replays valid as czech: try \
         --variant czech\n"
    );
}
