//! The outputs the README and the guide quote are the outputs drafti gives today. A block of
//! `$ drafti ...` lines and their output, after a `<!-- checked -->` line, is run as written
//! (`sh -c`, with this build's drafti first on the `PATH`, in a folder that sees the
//! repository's `corpus/` and `tests/`) and compared with what the document shows, stdout and
//! stderr together. Only what depends on the machine is masked: times and rates.
//!
//! After a change of output, `DRAFTI_UPDATE_DOCS=1 cargo test --profile ci -p drafti-tests
//! --test end_to_end docs_cli::` writes the new outputs into the documents (review the diff).

use drafti_tests::{drafti_path, isolate, temp_dir};
use regex::Regex;
use std::path::{Path, PathBuf};
use std::process::Command;

const MARKER: &str = "<!-- checked -->";

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The checked blocks of a document: (line of the marker, the block's lines).
fn checked_blocks(text: &str) -> Vec<(usize, Vec<String>)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    for (at, line) in lines.iter().enumerate() {
        if line.trim() != MARKER {
            continue;
        }
        let open = at + 1;
        assert!(
            lines.get(open).is_some_and(|l| l.starts_with("```")),
            "line {}: {MARKER} is not followed by a code block",
            at + 1
        );
        let body: Vec<String> = lines[open + 1..]
            .iter()
            .take_while(|l| !l.starts_with("```"))
            .map(|l| l.to_string())
            .collect();
        blocks.push((at + 1, body));
    }
    blocks
}

/// Times and rates, which depend on the machine, masked; runs of spaces made one (the
/// columns of a table move with the width of a rate).
fn masked(text: &str) -> String {
    let rules = [
        (r#""(nps|time_ms)":\d+"#, r#""$1":_"#),
        (
            r"\b\d[\d,]*(\.\d+)? (M |k )?(leaves|games|positions|nodes)/s\b",
            "_ $3/s",
        ),
        (r"\b\d[\d,]*(\.\d+)? ?s\b", "_ s"),
        // The nodes/s column of `search`'s table.
        (
            r"(?m)^(\s*\d+\s+(?:[+-]\d+\.\d+|win in \d+|loss in \d+|draw)\s+\d+\s+)\d+(\s)",
            "${1}_$2",
        ),
        (r" +", " "),
    ];
    let mut text = text.to_string();
    for (pattern, replacement) in rules {
        text = Regex::new(pattern)
            .unwrap()
            .replace_all(&text, replacement)
            .into_owned();
    }
    text.lines()
        .map(str::trim_end)
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs every command of `block` and compares with the output the block shows; returns the
/// block as it is now (the commands and what they print).
fn check(
    document: &str,
    line: usize,
    block: &[String],
    work: &Path,
    path_var: &str,
    update: bool,
) -> Vec<String> {
    let mut now = Vec::new();
    let mut last_code = 0;
    let mut at = 0;
    while at < block.len() {
        let command = block[at].strip_prefix("$ ").unwrap_or_else(|| {
            panic!("{document}:{line}: a checked block starts each command with `$ `")
        });
        let shown: Vec<&str> = block[at + 1..]
            .iter()
            .take_while(|l| !l.starts_with("$ "))
            .map(String::as_str)
            .collect();
        at += 1 + shown.len();
        // `echo $?` after a command: that command's exit code (each runs in a shell of its own).
        if command == "echo $?" {
            let code = last_code.to_string();
            assert!(
                update || shown == [code.as_str()],
                "{document}:{line}: exit code {code}, the document shows {shown:?}"
            );
            now.push(block[at - 1 - shown.len()].clone());
            now.push(code);
            continue;
        }
        let mut sh = Command::new("sh");
        sh.arg("-c")
            .arg(format!("{command} 2>&1"))
            .current_dir(work)
            .env("PATH", path_var)
            .env("COLUMNS", "100");
        isolate(&mut sh);
        let output = sh.output().expect("sh runs");
        last_code = output.status.code().unwrap_or(-1);
        let got = String::from_utf8_lossy(&output.stdout);
        now.push(format!("$ {command}"));
        // Only a real change is written back, not new times and rates.
        if masked(&got) == masked(&shown.join("\n")) {
            now.extend(shown.iter().map(|l| l.to_string()));
        } else {
            now.extend(got.lines().map(String::from));
        }
        if !update {
            assert_eq!(
                masked(&got),
                masked(&shown.join("\n")),
                "{document}:{line}: `{command}` no longer prints what the document shows; it \
                 prints:\n{got}"
            );
        }
    }
    now
}

#[test]
fn the_quoted_outputs_are_current() {
    let work_scratch = temp_dir("docs");
    let work = work_scratch.path();
    let repo = repository().canonicalize().unwrap();
    for dir in ["corpus", "tests"] {
        let link = work.join(dir);
        if std::fs::symlink_metadata(&link).is_err() {
            std::os::unix::fs::symlink(repo.join(dir), &link).unwrap();
        }
    }
    let bin_dir = drafti_path().parent().unwrap();
    let path_var = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let update = std::env::var_os("DRAFTI_UPDATE_DOCS").is_some();
    let mut checked = 0;
    for document in ["README.md", "docs/guide.md"] {
        let text = std::fs::read_to_string(repo.join(document)).unwrap();
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        // From the end, so that a rewritten block leaves the lines before it in place.
        for (line, block) in checked_blocks(&text).into_iter().rev() {
            let now = check(document, line, &block, work, &path_var, update);
            lines.splice(line + 1..line + 1 + block.len(), now);
            checked += 1;
        }
        if update {
            std::fs::write(repo.join(document), lines.join("\n") + "\n").unwrap();
        }
    }
    assert!(
        checked >= 8,
        "only {checked} checked blocks in the documents"
    );
}

#[test]
fn masking_keeps_what_does_not_depend_on_the_machine() {
    assert_eq!(
        masked("56 games in 1 file: 56 valid, 1 warnings, 2,648 plies; 0.01 s, 5,203 games/s"),
        "56 games in 1 file: 56 valid, 1 warnings, 2,648 plies; _ s, _ games/s"
    );
    assert_eq!(
        masked("time 0.862 s, 98.6 M leaves/s (tz, W:W21-32:B1-12)"),
        "time _ s, _ leaves/s (tz, W:W21-32:B1-12)"
    );
    assert_eq!(
        masked("    3      +0.53          249     963275  1. d4-c5 d6xb4"),
        " 3 +0.53 249 _ 1. d4-c5 d6xb4"
    );
    assert_ne!(
        masked("perft(11) = 84998732"),
        masked("perft(11) = 84998733")
    );
}

/// corpus/README.md's recipe for `corpus/selfplay.pdn`, run with 6 games a match instead of
/// 1,000, gives the file's first games of each match: games do not depend on how many follow.
#[test]
fn the_corpus_recipe_gives_the_bundled_games() {
    let repo = repository();
    let readme = std::fs::read_to_string(repo.join("corpus/README.md")).unwrap();
    let corpus = std::fs::read_to_string(repo.join("corpus/selfplay.pdn")).unwrap();
    let commands: Vec<&str> = readme
        .lines()
        .map(str::trim)
        .map(|l| l.trim_start_matches("{ "))
        .filter(|l| l.starts_with("drafti selfplay "))
        .collect();
    assert_eq!(commands.len(), 2, "the recipe's two matches: {commands:?}");
    for (k, command) in commands.iter().enumerate() {
        assert!(command.contains("--games 1000"), "{command}");
        let command_line = command.replace("--games 1000", "--games 6");
        let args: Vec<&str> = command_line.split_whitespace().skip(1).collect();
        let output = drafti_tests::drafti().args(&args).output().unwrap();
        assert!(output.status.success(), "{command}: {output:?}");
        let games = String::from_utf8(output.stdout).unwrap();
        assert_eq!(games.matches("[Event ").count(), 6, "{games}");
        let found = if k == 0 {
            corpus.starts_with(&games)
        } else {
            corpus.contains(&format!("\n\n{games}"))
        };
        assert!(
            found,
            "match {} of corpus/README.md's recipe no longer gives the games of \
             corpus/selfplay.pdn (the engine changed? make the file again with the recipe): \
             {command}",
            k + 1
        );
    }
}
