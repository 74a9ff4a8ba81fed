//! End-to-end tests of `drafti-lab quality`, the analysis quality benchmark: its references
//! cached and read back, the consensus of two references, the hold-up, and its refusals.

use serde_json::Value;
use std::path::Path;

/// An empty folder for the home and cache of one test's `drafti-lab` runs (nothing of the
/// user's, such as endgame tables, changes what a test sees), removed when it drops.
fn empty_home() -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix("drafti-lab-home-")
        .tempdir()
        .unwrap()
}

/// The `drafti-lab` binary, with `home` (an [`empty_home`]) as its home and cache.
/// A scratch folder and an empty `corpora` folder in it, for the archives a test copies in.
fn corpora_folder() -> (tempfile::TempDir, std::path::PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let corpora = dir.path().join("corpora");
    std::fs::create_dir(&corpora).unwrap();
    (dir, corpora)
}

/// tests/fixtures/analyze/`fixture` copied into `corpora` as `name` (the name says the
/// variant: `russian-*`, `czech-*`, `tanzanian-*`).
fn copy_fixture(corpora: &Path, fixture: &str, name: &str) {
    let from = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/analyze");
    std::fs::copy(from.join(fixture), corpora.join(name)).unwrap();
}

/// tests/fixtures/analyze/planted.pdn (a Tanzanian game of 20 plies with a planted blunder)
/// copied into `corpora` as `name`.
fn copy_planted(corpora: &Path, name: &str) {
    copy_fixture(corpora, "planted.pdn", name);
}

fn lab(home: &Path) -> std::process::Command {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_drafti-lab"));
    command.env("HOME", home).env("XDG_CACHE_HOME", home);
    command
}

/// `quality` on the master game in `corpora` (abatsiev-17.pdn, or czech-2007-17.pdn where
/// the references flag and dispute moves, of tests/fixtures/analyze) at small limits:
/// `--args` added to the common ones; `home` as in [`lab`].
fn quality_run(home: &Path, corpora: &Path, args: &[&str]) -> Value {
    quality_run_with(home, corpora, &["--no-egtb"], args)
}

/// [`quality_run`] with `tables` (`--no-egtb`, or `--egtb DIR`) for the references.
fn quality_run_with(home: &Path, corpora: &Path, tables: &[&str], args: &[&str]) -> Value {
    let out = lab(home)
        .args(["quality", "--json", "--jobs", "2", "--sample", "1"])
        .arg("--corpora")
        .arg(corpora)
        .args([
            "--depth",
            "4",
            "--verify-depth",
            "6",
            "--confirm-depth",
            "8",
            "--confirm-nodes",
            "20000",
            "--reference-nodes",
            "20000",
        ])
        .args(tables)
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn a_second_reference_searched_alike_agrees_with_the_reference_on_every_verdict() {
    let home = empty_home();
    let (dir, corpora) = corpora_folder();
    copy_fixture(&corpora, "abatsiev-17.pdn", "russian-abatsiev-17.pdn");
    let reference = dir.path().join("reference.jsonl");
    let reference_arg = reference.to_str().unwrap();
    let alike = quality_run(
        home.path(),
        &corpora,
        &[
            "--reference",
            reference_arg,
            "--second-reference-nodes",
            "20000",
        ],
    );
    assert_eq!(alike["games"], 1);
    let moves = alike["moves"].as_u64().unwrap();
    assert!(moves > 40, "{alike}");
    // The same uniform searches (one fresh table each) give the same verdicts.
    let second = &alike["second_reference"];
    assert_eq!(second["nodes"], 20_000);
    assert_eq!(second["mode"], "alone");
    let classes = second["classes"].as_array().unwrap();
    let flagged: u64 = classes
        .iter()
        .map(|c| c["reference"].as_u64().unwrap())
        .sum();
    assert!(flagged > 0, "{second}");
    for c in classes {
        assert_eq!(c["candidate"], c["reference"], "{second}");
        assert_eq!(c["both"], c["reference"], "{second}");
    }
    // The cached reference is read back, not searched again: the same verdicts, and the
    // file holds each position once (the header and one line a position).
    let lines = std::fs::read_to_string(&reference).unwrap().lines().count();
    assert_eq!(lines as u64, alike["positions"].as_u64().unwrap() + 1);
    let again = quality_run(home.path(), &corpora, &["--reference", reference_arg]);
    assert_eq!(again["classes"], alike["classes"]);
    assert_eq!(again.get("second_reference"), None);
    assert_eq!(
        std::fs::read_to_string(&reference).unwrap().lines().count(),
        lines
    );
    // A run whose reference differs (here its nodes) neither reads nor overwrites the cache
    // of another: it is refused before anything is searched, the file as it was.
    let cached = std::fs::read(&reference).unwrap();
    let other = lab(home.path())
        .args(["quality", "--sample", "1", "--no-egtb", "--no-hold-up"])
        .arg("--corpora")
        .arg(&corpora)
        .args(["--reference-nodes", "10000", "--reference", reference_arg])
        .output()
        .unwrap();
    assert_eq!(other.status.code(), Some(2));
    let err = String::from_utf8(other.stderr).unwrap();
    assert!(err.contains("is not this run's reference cache"), "{err}");
    assert!(err.contains("20000 nodes a position"), "{err}");
    assert!(err.contains("10000 nodes a position"), "{err}");
    assert_eq!(std::fs::read(&reference).unwrap(), cached);
    // Nor a file whose first line is no header (here not even UTF-8): refused, kept as it was.
    let foreign = dir.path().join("foreign.jsonl");
    let foreign_bytes = b"\xff\xfe not a reference\n{\"file\":\"x\"}\n";
    std::fs::write(&foreign, foreign_bytes).unwrap();
    let refused = lab(home.path())
        .args(["quality", "--sample", "1", "--no-egtb", "--no-hold-up"])
        .arg("--corpora")
        .arg(&corpora)
        .arg("--reference")
        .arg(&foreign)
        .output()
        .unwrap();
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8(refused.stderr).unwrap();
    assert!(
        err.contains("its first line is no reference header"),
        "{err}"
    );
    assert_eq!(std::fs::read(&foreign).unwrap(), foreign_bytes);
    // Judging every move alone (the played move searched to the position's depth) is as
    // reproducible, and its cache keeps the played moves' scores.
    let moves_file = dir.path().join("moves.jsonl");
    let moves_arg = moves_file.to_str().unwrap();
    let judged = [
        dir.path().join("judged-1.jsonl"),
        dir.path().join("judged-2.jsonl"),
    ];
    let by_move = quality_run(
        home.path(),
        &corpora,
        &[
            "--reference-moves",
            "--reference",
            moves_arg,
            "--moves",
            judged[0].to_str().unwrap(),
            "--second-reference-nodes",
            "20000",
            "--second-reference-moves",
        ],
    );
    assert_eq!(by_move["reference_mode"], "moves");
    for c in by_move["second_reference"]["classes"].as_array().unwrap() {
        assert_eq!(c["candidate"], c["reference"], "{by_move}");
        assert_eq!(c["both"], c["reference"], "{by_move}");
    }
    let cached = std::fs::read_to_string(&moves_file).unwrap();
    assert!(cached.lines().next().unwrap().contains(r#""moves":true"#));
    assert!(cached.contains(r#""played_score":"#), "{cached}");
    let again = quality_run(
        home.path(),
        &corpora,
        &[
            "--reference-moves",
            "--reference",
            moves_arg,
            "--moves",
            judged[1].to_str().unwrap(),
        ],
    );
    assert_eq!(again["classes"], by_move["classes"]);
    assert_eq!(std::fs::read_to_string(&moves_file).unwrap(), cached);
    // Every judged move's reference scores (the played move's from the cache) read back; the
    // second reference (searched alike) has the reference's class on every row, and a run
    // without one writes the same rows without it.
    let rows = |path: &Path| -> Vec<Value> {
        std::fs::read_to_string(path)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect()
    };
    let (with_second, without) = (rows(&judged[0]), rows(&judged[1]));
    assert!(with_second.len() > 3, "{with_second:?}");
    assert_eq!(with_second.len(), without.len());
    for (mut row, alone) in with_second.into_iter().zip(without) {
        assert_eq!(row["second_reference"], row["reference"], "{row}");
        assert_eq!(row["settled_by_tables"], false, "{row}");
        assert!(alone.get("second_reference").is_none(), "{alone}");
        row.as_object_mut().unwrap().remove("second_reference");
        assert_eq!(row, alone);
    }
    // A second reference with twice the nodes, as one sequence, finds other verdicts: its
    // agreement is a measure, not an identity.
    let deeper = quality_run(
        home.path(),
        &corpora,
        &[
            "--second-reference-nodes",
            "40000",
            "--second-reference-sequence",
        ],
    );
    assert_eq!(deeper["classes"], alike["classes"]);
    assert_eq!(deeper["second_reference"]["mode"], "sequence");
    let differs = deeper["second_reference"]["classes"]
        .as_array()
        .unwrap()
        .iter()
        .any(|c| c["both"] != c["reference"] || c["candidate"] != c["reference"]);
    assert!(differs, "{}", deeper["second_reference"]);
}

#[test]
fn the_consensus_scores_settled_moves_and_lists_the_disputed() {
    let home = empty_home();
    let (dir, corpora) = corpora_folder();
    copy_fixture(&corpora, "czech-2007-17.pdn", "czech-2007-17.pdn");
    let files = [dir.path().join("ref.jsonl"), dir.path().join("ref2.jsonl")];
    let with_second = |nodes: &str, second_file: &std::path::Path| {
        quality_run(
            home.path(),
            &corpora,
            &[
                "--reference",
                files[0].to_str().unwrap(),
                "--second-reference-nodes",
                nodes,
                "--second-reference",
                second_file.to_str().unwrap(),
            ],
        )
    };
    // Two references searched alike dispute nothing: the consensus is the reference, and
    // its scores are the classes' own.
    let alike = with_second("20000", &dir.path().join("alike.jsonl"));
    let moves = alike["moves"].as_u64().unwrap();
    let levels = alike["consensus"]["levels"].as_array().unwrap();
    for (level, class) in levels.iter().zip([0, 3]) {
        let c = &alike["classes"][class];
        assert_eq!(level["disputed"], 0, "{level}");
        assert_eq!(level["settled"], moves, "{level}");
        assert_eq!(level["flags"], c["reference"], "{level} {c}");
        assert_eq!(level["candidate_flags"], c["candidate"], "{level} {c}");
        assert_eq!(level["precision"]["hits"], c["both"], "{level} {c}");
        assert_eq!(level["recall"]["of"], c["reference"], "{level} {c}");
    }
    assert_eq!(alike["consensus"]["disputed"], serde_json::json!([]));
    // A deeper second reference disputes some moves: each is listed with the two sides of
    // its level, and never scored.
    let deeper = with_second("60000", &files[1]);
    let consensus = &deeper["consensus"];
    let disputed = consensus["disputed"].as_array().unwrap();
    assert!(!disputed.is_empty(), "{consensus}");
    let rank = |j: &Value| match j.as_str() {
        None => 0,
        Some("inaccuracy") => 1,
        Some("mistake") => 2,
        Some("blunder") => 3,
        Some(other) => panic!("{other}"),
    };
    for d in disputed {
        let least = if d["level"] == "blunder" { 3 } else { 2 };
        let (a, b) = (rank(&d["reference"][0]), rank(&d["second"][0]));
        assert!((a >= least) != (b >= least), "{d}");
    }
    for level in consensus["levels"].as_array().unwrap() {
        let settled = level["settled"].as_u64().unwrap();
        assert_eq!(
            settled + level["disputed"].as_u64().unwrap(),
            moves,
            "{level}"
        );
        assert_eq!(level["recall"]["of"], level["flags"], "{level}");
        assert_eq!(
            level["precision"]["of"], level["candidate_flags"],
            "{level}"
        );
        let (lo, hi) = (
            &level["recall"]["interval"][0],
            &level["recall"]["interval"][1],
        );
        if let (Some(lo), Some(hi), Some(v)) =
            (lo.as_f64(), hi.as_f64(), level["recall"]["value"].as_f64())
        {
            assert!(lo <= v && v <= hi, "{level}");
        }
    }
    let blunder_disputes = disputed.iter().filter(|d| d["level"] == "blunder").count();
    assert_eq!(consensus["levels"][0]["disputed"], blunder_disputes as u64);
    // Both references cached: read back move for move, nothing searched again.
    let sizes: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    let again = with_second("60000", &files[1]);
    assert_eq!(again["consensus"], deeper["consensus"]);
    let after: Vec<String> = files
        .iter()
        .map(|f| std::fs::read_to_string(f).unwrap())
        .collect();
    assert_eq!(after, sizes);
    // The hold-up: every blunder and mistake of the candidate judged again at 16 and 64
    // times its nodes a position.
    let per_position = deeper["candidate_nodes_per_position"]
        .as_f64()
        .unwrap()
        .round() as u64;
    let hold_up = deeper["hold_up"].as_array().unwrap();
    assert_eq!(hold_up.len(), 2);
    for (h, factor) in hold_up.iter().zip([16, 64]) {
        assert_eq!(h["factor"], factor);
        assert_eq!(h["nodes"], per_position * factor);
        assert_eq!(
            h["blunders"]["of"], deeper["classes"][0]["candidate"],
            "{h}"
        );
        assert_eq!(
            h["mistakes"]["of"], deeper["classes"][1]["candidate"],
            "{h}"
        );
        assert!(h["blunders"]["hits"].as_u64() <= h["blunders"]["of"].as_u64());
    }
    // A search idea as the candidate: its label says so; the references (cached for the
    // shipped engine) are read back, not searched again.
    let idea = quality_run(
        home.path(),
        &corpora,
        &[
            "--reference",
            files[0].to_str().unwrap(),
            "--engine",
            "lmr=0",
            "--no-hold-up",
        ],
    );
    let label = idea["candidate"].as_str().unwrap();
    assert!(label.ends_with("; engine settings lmr=0"), "{label}");
    assert_eq!(std::fs::read_to_string(&files[0]).unwrap(), sizes[0]);
    let bad = lab(home.path())
        .args(["quality", "--engine", "qs-thret=1", "--corpora"])
        .arg(&corpora)
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert!(
        err.contains("--engine: unknown engine setting 'qs-thret'"),
        "{err}"
    );
    // And it can be left out.
    let quick = quality_run(
        home.path(),
        &corpora,
        &["--reference", files[0].to_str().unwrap(), "--no-hold-up"],
    );
    assert_eq!(quick.get("hold_up"), None);
}

#[test]
fn tanzanian_archives_are_read_by_their_name() {
    let home = empty_home();
    let (_scratch, corpora) = corpora_folder();
    // Under any other name the file is no known archive.
    copy_planted(&corpora, "planted.pdn");
    let out = lab(home.path())
        .args(["quality", "--corpora"])
        .arg(&corpora)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("planted.pdn: not russian-*, czech-*, tanzanian-* or tzdraft-*"),
        "{err}"
    );
    // Named tanzanian-*, its 20 plies replay under Tanzanian rules and are judged; named
    // tzdraft-*, under TzDraft's server's rules (which allow every move of it too).
    let mut name = "planted.pdn";
    for renamed in ["tanzanian-planted.pdn", "tzdraft-planted.pdn"] {
        std::fs::rename(corpora.join(name), corpora.join(renamed)).unwrap();
        name = renamed;
        let run = quality_run(home.path(), &corpora, &[]);
        assert_eq!(run["games"], 1, "{name}: {run}");
        assert_eq!(run["moves"], 20, "{name}: {run}");
        let flagged: u64 = run["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["reference"].as_u64().unwrap())
            .sum();
        assert!(flagged > 0, "{name}: the planted blunder: {run}");
    }
}

#[test]
fn the_quality_bench_skips_cleanly_without_the_master_archives() {
    let home = empty_home();
    let dir = tempfile::tempdir().unwrap();
    let out = lab(home.path())
        .args(["quality", "--corpora"])
        .arg(dir.path().join("absent"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("(the master-game archives): skipped"), "{err}");
}

#[test]
fn one_file_cannot_hold_both_references() {
    let home = empty_home();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("reference.jsonl");
    let out = lab(home.path())
        .args(["quality", "--second-reference-nodes", "1000"])
        .arg("--reference")
        .arg(&file)
        .arg("--second-reference")
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("name the same file"), "{err}");
    assert!(!file.exists());
}

/// The folder of the master games is not given: the repository's copies are read, never a
/// folder outside the repository.
#[test]
fn the_default_corpora_are_the_repository_copies() {
    let home = empty_home();
    let dir = tempfile::tempdir().unwrap();
    let out = lab(home.path())
        .current_dir(dir.path())
        .args(["quality", "--sample", "1000", "--no-egtb", "--depth", "1"])
        .args([
            "--reference-nodes",
            "1000",
            "--no-hold-up",
            "--no-verify",
            "--jobs",
            "1",
        ])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let first = text.lines().next().unwrap();
    // The first game of each of the four archives.
    assert!(first.starts_with("drafti-lab quality: 4 games"), "{text}");
    assert!(first.contains("tests/fixtures/corpora"), "{first}");
}

/// `--moves -` is refused: stdout carries the tables.
#[test]
fn the_judged_moves_are_never_written_to_stdout() {
    let home = empty_home();
    let out = lab(home.path())
        .args(["quality", "--moves", "-"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim_end(),
        "drafti-lab: --moves -: stdout carries the tables; give --moves a file name"
    );
}

#[test]
fn the_candidates_table_size_is_named_and_leaves_the_reference_alone() {
    let home = empty_home();
    let (_scratch, corpora) = corpora_folder();
    copy_planted(&corpora, "tanzanian-planted.pdn");
    let default = quality_run(home.path(), &corpora, &["--no-hold-up"]);
    let small = quality_run(
        home.path(),
        &corpora,
        &["--no-hold-up", "--candidate-tt-mb", "1"],
    );
    let label = |run: &Value| run["candidate"].as_str().unwrap().to_string();
    assert!(!label(&default).contains("MiB table"), "{default}");
    assert_eq!(
        label(&small),
        format!("{}; a 1 MiB table", label(&default)),
        "{small}"
    );
    // The references search as they did: the table is the candidate's alone.
    let references = |run: &Value| -> Vec<u64> {
        run["classes"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["reference"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(references(&default), references(&small));
    assert_eq!(
        default["reference_nodes_per_position"],
        small["reference_nodes_per_position"]
    );
    // Out of range: refused before anything is searched.
    let out = lab(home.path())
        .args(["quality", "--candidate-tt-mb", "0", "--corpora"])
        .arg(&corpora)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}

#[test]
fn the_candidates_tables_are_its_own_and_the_cached_references_still_match() {
    let home = empty_home();
    let (scratch, corpora) = corpora_folder();
    copy_planted(&corpora, "tanzanian-planted.pdn");
    let tables = scratch.path().join("egtb");
    drafti_engine::egtb::build(&tables, drafti_rules::Variant::Tanzanian, 2, &|_| {}).unwrap();
    let reference = scratch.path().join("ref.jsonl");
    let cache = ["--no-hold-up", "--reference", reference.to_str().unwrap()];
    let without = quality_run(home.path(), &corpora, &cache);
    let with = quality_run(
        home.path(),
        &corpora,
        &[&cache[..], &["--candidate-egtb", tables.to_str().unwrap()]].concat(),
    );
    let label = |run: &Value| run["candidate"].as_str().unwrap().to_string();
    assert_eq!(
        label(&with),
        format!("{}; endgame tables: tz up to 2 pieces", label(&without)),
        "{with}"
    );
    // The references are read from the table-free cache, not searched again with tables.
    assert_eq!(
        without["reference_nodes_per_position"],
        with["reference_nodes_per_position"]
    );
    let classes = |run: &Value| run["classes"].clone();
    assert_eq!(
        classes(&without).as_array().unwrap().len(),
        classes(&with).as_array().unwrap().len()
    );
    // A missing folder is an error, before anything is searched.
    let out = lab(home.path())
        .args(["quality", "--no-hold-up", "--candidate-egtb"])
        .arg(scratch.path().join("none"))
        .arg("--corpora")
        .arg(&corpora)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.stdout.is_empty());
}

#[test]
fn the_candidate_goes_without_the_tables_the_references_search_with() {
    let home = empty_home();
    let (scratch, corpora) = corpora_folder();
    copy_planted(&corpora, "tanzanian-planted.pdn");
    let tables = scratch.path().join("egtb");
    drafti_engine::egtb::build(&tables, drafti_rules::Variant::Tanzanian, 2, &|_| {}).unwrap();
    let reference = scratch.path().join("ref-tables.jsonl");
    let references = ["--egtb", tables.to_str().unwrap()];
    let cache = ["--no-hold-up", "--reference", reference.to_str().unwrap()];
    let with = quality_run_with(home.path(), &corpora, &references, &cache);
    let without = quality_run_with(
        home.path(),
        &corpora,
        &references,
        &[&cache[..], &["--candidate-no-egtb"]].concat(),
    );
    let label = |run: &Value| run["candidate"].as_str().unwrap().to_string();
    assert_eq!(
        label(&with),
        format!("{}; endgame tables: tz up to 2 pieces", label(&without)),
        "{without}"
    );
    // The references' cache (searched with the tables) is read again, not refused.
    assert_eq!(
        without["reference_nodes_per_position"],
        with["reference_nodes_per_position"]
    );
    let out = lab(home.path())
        .args(["quality", "--candidate-no-egtb", "--candidate-egtb"])
        .arg(&tables)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

/// `--moves` names the settling tables' verdict where they hold the move: the constructed
/// Tanzanian ending (tests/fixtures/analyze/table-ending.pdn, five pieces then four) judged
/// with 4-piece tables has an exact blunder at plies 2 (a draw thrown away) and 3 (a win
/// missed), which the rows say whatever the references found.
#[test]
fn the_moves_file_names_the_tables_verdicts() {
    let home = empty_home();
    let (dir, corpora) = corpora_folder();
    copy_fixture(&corpora, "table-ending.pdn", "tanzanian-table-ending.pdn");
    let tables = dir.path().join("egtb");
    drafti_engine::egtb::build(
        &tables,
        drafti_rules::Variant::Tanzanian,
        4,
        &|_: drafti_engine::egtb::BuildEvent| {},
    )
    .unwrap();
    let moves = dir.path().join("moves.jsonl");
    quality_run(
        home.path(),
        &corpora,
        &[
            "--no-hold-up",
            "--second-reference-nodes",
            "10000",
            "--settle-egtb",
            tables.to_str().unwrap(),
            "--moves",
            moves.to_str().unwrap(),
        ],
    );
    let rows: Vec<Value> = std::fs::read_to_string(&moves)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let at = |ply: u64| {
        rows.iter()
            .find(|r| r["ply"] == ply)
            .unwrap_or_else(|| panic!("no row for ply {ply}: {rows:?}"))
    };
    for ply in [2, 3] {
        let row = at(ply);
        assert_eq!(row["settled_by_tables"], true, "{row}");
        assert_eq!(row["tables"], "blunder", "{row}");
        assert!(row.get("second_reference").is_some(), "{row}");
    }
}
