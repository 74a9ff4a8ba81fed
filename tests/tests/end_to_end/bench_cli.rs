//! End-to-end tests of `drafti bench`: every stage runs on its fixed work.

use drafti_tests::drafti;
use serde_json::Value;

#[test]
fn quick_bench_measures_every_stage_on_fixed_work() {
    let out = drafti()
        .args(["bench", "--quick", "--json"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    let stages: Vec<&str> = lines.iter().map(|l| l["bench"].as_str().unwrap()).collect();
    assert_eq!(
        stages,
        [
            "perft", "write", "parse", "validate", "validate", "analyze", "search", "search",
            "search", "search"
        ]
    );
    // perft(9) of the Tanzanian start position, as `drafti perft --depth 9` counts it.
    assert_eq!(lines[0]["work"], 3_963_671);
    // The archive: the same 2,000 random games every run, all read and all valid.
    assert_eq!(lines[1]["work"], lines[2]["work"]);
    assert_eq!(lines[3]["work"], 2_000);
    assert_eq!(lines[4]["work"], 2_000);
    // Two games analysed: every position of each, the same count every run.
    assert!(lines[5]["work"].as_u64().unwrap() > 2);
    for line in &lines {
        assert!(line["work"].as_u64().unwrap() > 0, "{line}");
        assert!(line["seconds"].as_f64().unwrap() > 0.0, "{line}");
        assert!(line["per_second"].as_f64().unwrap() > 0.0, "{line}");
    }
}

#[test]
fn text_output_is_one_line_a_stage_after_a_heading() {
    let out = drafti()
        .args(["bench", "--quick", "--jobs", "1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 11, "{text}");
    assert!(
        lines[0].contains("(1 for the parallel validation)"),
        "{text}"
    );
    assert!(
        lines[1].starts_with("perft ") && lines[1].ends_with("M leaves/s"),
        "{text}"
    );
    assert!(lines[3].contains("MB/s"), "{text}");
}

/// Issue 27, item 11: a write error on stdout is reported, exit 2 (it was a panic, exit 101),
/// as text and as JSON.
#[test]
fn bench_reports_a_write_error() {
    for args in [&["bench", "--quick"][..], &["bench", "--quick", "--json"]] {
        let (code, stderr) = drafti_tests::drafti_into_full_disk(args);
        assert_eq!(code, Some(2), "{args:?}");
        assert_eq!(
            stderr, "drafti: cannot write the report: No space left on device (os error 28)\n",
            "{args:?}"
        );
    }
}
