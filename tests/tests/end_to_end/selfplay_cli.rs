//! End-to-end tests of `drafti selfplay --random`.

use drafti_tests::drafti;

fn selfplay(args: &[&str]) -> (i32, Vec<u8>) {
    let out = drafti().arg("selfplay").args(args).output().unwrap();
    (out.status.code().unwrap(), out.stdout)
}

#[test]
fn same_seed_same_games() {
    let a = selfplay(&["--random", "--games", "50", "--seed", "9"]);
    let b = selfplay(&["--random", "--games", "50", "--seed", "9"]);
    let c = selfplay(&["--random", "--games", "50", "--seed", "10"]);
    assert_eq!(a.0, 0);
    assert_eq!(a.1, b.1);
    assert_ne!(a.1, c.1);
    let text = String::from_utf8(a.1).unwrap();
    assert_eq!(
        text.matches("[Event \"drafti random self-play\"]").count(),
        50
    );
    assert!(text.contains("[Variant \"Tanzanian\"]"));
}

#[test]
fn random_games_of_every_variant_validate() {
    for args in [
        &["--variant", "tz", "--first", "random"][..],
        &["--variant", "czech"][..],
        &["--variant", "russian", "--numeric"][..],
    ] {
        let (code, games) =
            selfplay(&[&["--random", "--games", "300", "--seed", "5"], args].concat());
        assert_eq!(code, 0);
        let out = drafti()
            .args(["validate", "-", "--json"])
            .write_stdin(games)
            .output()
            .unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(String::from_utf8(out.stdout).unwrap().lines().count(), 300);
    }
}

#[test]
fn the_engine_plays_at_the_analysis_depth_by_default() {
    let out = drafti()
        .args([
            "selfplay",
            "--games",
            "1",
            "--max-plies",
            "6",
            "--seed",
            "2",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("[White \"drafti d6\"]"), "{text}");
    assert!(text.contains("[PlyCount \"6\"]"), "{text}");
}

/// A write error on stdout is reported as one, exit 2, in both modes.
#[test]
fn selfplay_reports_a_write_error() {
    for args in [
        &["selfplay", "--random", "--games", "3"][..],
        &["selfplay", "--games", "1", "--depth", "1"],
    ] {
        let (code, stderr) = drafti_tests::drafti_into_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(
            stderr, "drafti: cannot write the report: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}
