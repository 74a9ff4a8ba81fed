//! Flags declared once (`cli/src/args.rs`): every command's `--help` works, a flag shared by
//! several commands has one help text wherever it appears, and every command that reads
//! archives takes the same input flags.

use drafti_tests::drafti;
use std::collections::{BTreeMap, BTreeSet};

const COMMANDS: &[&[&str]] = &[
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
    &["bench"],
    &["egtb", "build"],
    &["egtb", "probe"],
    &["egtb", "verify"],
    &["egtb", "info"],
    &["import", "tzdraft"],
];

/// The commands that read PDN archives.
const ARCHIVE_COMMANDS: &[&str] = &[
    "validate",
    "analyze",
    "standings",
    "fmt",
    "openings",
    "report",
    "puzzles",
];

/// Each option of `drafti COMMAND --help` with its help text (the first paragraph, without
/// `[default: …]`), in both of clap's layouts (text on the flag's line, or below it).
fn options(command: &[&str]) -> BTreeMap<String, String> {
    let output = drafti().args(command).arg("--help").output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{command:?} --help");
    let text = String::from_utf8(output.stdout).unwrap();
    let mut found = BTreeMap::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let trimmed = line.trim_start();
        let flag_part = trimmed.strip_prefix("-").map(|_| trimmed);
        let Some(flag_line) = flag_part else { continue };
        let Some(at) = flag_line.find("--") else {
            continue;
        };
        let rest = &flag_line[at..];
        let name: String = rest.chars().take_while(|c| !c.is_whitespace()).collect();
        if !line.starts_with("  ") || line.starts_with("          ") {
            continue;
        }
        // The text after the flag and its value (two spaces or more), else the next lines.
        let after = rest[name.len()..].trim_start();
        let after = after
            .strip_prefix('<')
            .and_then(|v| v.split_once('>'))
            .map_or(after, |(_, t)| t);
        let help = if after.trim().is_empty() {
            lines[i + 1..]
                .iter()
                .take_while(|l| !l.trim().is_empty())
                .map(|l| l.trim())
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            after.trim().to_string()
        };
        let help = match help.find(" [default:") {
            Some(cut) => help[..cut].to_string(),
            None => help,
        };
        found.insert(name, help);
    }
    found
}

#[test]
fn a_shared_flag_has_one_help_text() {
    // Before: --jobs had five texts, --json ten, --numeric five.
    let mut texts: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut archive_variant = BTreeSet::new();
    for command in COMMANDS {
        for (flag, help) in options(command) {
            if flag == "--variant" {
                if ARCHIVE_COMMANDS.contains(&command[0]) {
                    archive_variant.insert(help);
                }
                continue;
            }
            // Two flags that share a name with another meaning: `match --egtb [DIR]`
            // adjudicates with the tables, `hub --king-count` sets draw law 2's agreed count.
            if matches!(
                (command[0], flag.as_str()),
                ("match", "--egtb") | ("hub", "--king-count")
            ) {
                continue;
            }
            texts.entry(flag).or_default().insert(help);
        }
    }
    for flag in [
        "--jobs",
        "--json",
        "--numeric",
        "--encoding",
        "--shard",
        "--hash",
        "--king-count",
        "--csv",
        "--egtb",
        "--no-egtb",
    ] {
        let helps = &texts[flag];
        assert_eq!(helps.len(), 1, "{flag}: {helps:#?}");
    }
    assert_eq!(archive_variant.len(), 1, "{archive_variant:#?}");
}

#[test]
fn every_archive_command_takes_the_input_flags() {
    // Before: two of the seven used the input group; the others declared their own.
    for command in ARCHIVE_COMMANDS {
        let flags = options(&[command]);
        for flag in ["--encoding", "--variant", "--jobs"] {
            assert!(flags.contains_key(flag), "{command} has no {flag}");
        }
    }
}
