//! The real archives of the corpora (copied into `tests/fixtures/corpora`, whose README names
//! their source) parse with no syntax error, with the game counts of the corpora README;
//! writing them is idempotent and keeps their content.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use std::path::PathBuf;

use drafti_pdn::{parse_games, write_games, GameReader, GameRecord, GameResult, WarningKind};

fn corpora_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/corpora")
}

const FILES: [(&str, usize); 4] = [
    ("russian-ussr-championship-x-153games.pdn", 153),
    ("russian-abatsiev-ussr-events-56games.pdn", 56),
    ("czech-championship-2007-102games.pdn", 102),
    ("czech-team-championship-2007-72games.pdn", 72),
];

fn read(name: &str) -> (Vec<u8>, Vec<GameRecord>) {
    let bytes = std::fs::read(corpora_dir().join(name)).expect("readable corpus file");
    let mut games = Vec::new();
    for item in GameReader::new(&bytes[..]) {
        match item {
            Ok(game) => games.push(game),
            Err(e) => panic!("{name}: {e}"),
        }
    }
    (bytes, games)
}

#[test]
fn every_archive_parses_with_the_readme_game_counts() {
    for (name, count) in FILES {
        let (_, games) = read(name);
        assert_eq!(games.len(), count, "{name}");
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.index, i);
            assert!(g.result.is_some(), "{name} game {i} has a result token");
            assert_eq!(
                g.tag_result(),
                g.result.as_ref().map(|r| r.result),
                "{name} game {i}: Result tag and terminator agree"
            );
        }
    }
}

#[test]
fn corpus_details_from_the_readme() {
    let (_, ussr) = read(FILES[0].0);
    let draws = ussr
        .iter()
        .filter(|g| g.result.as_ref().unwrap().result == GameResult::Draw);
    assert_eq!(draws.count(), 111);
    // Every game carries the numeric start position with a stray trailing '.'.
    assert!(ussr
        .iter()
        .all(|g| g.tag("FEN").is_some_and(|f| f.ends_with("1,2,3,4."))));
    assert_eq!(ussr[0].tag("Event"), Some("X чемпионат СССР"));
    // Captures use ':' and give only start and end squares.
    let captures: Vec<_> = ussr
        .iter()
        .flat_map(|g| &g.moves.nodes)
        .filter(|n| matches!(n.mv.separator, drafti_pdn::Separator::Capture(':')))
        .collect();
    assert!(!captures.is_empty() && captures.iter().all(|n| n.mv.squares.len() == 2));

    let (_, abatsiev) = read(FILES[1].0);
    // Padded tag names are read; one game writes its moves as '-' (not recorded).
    assert!(abatsiev.iter().all(|g| g.tag("Opening").is_some()));
    assert_eq!(
        abatsiev
            .iter()
            .filter(|g| g.tag("Comment").is_some())
            .count(),
        22
    );
    let unrecorded: Vec<_> = abatsiev
        .iter()
        .filter(|g| {
            g.warnings
                .iter()
                .any(|w| w.kind == WarningKind::MovesNotRecorded)
        })
        .collect();
    assert_eq!(unrecorded.len(), 1);
    assert!(unrecorded[0].moves.nodes.is_empty());
    assert_eq!(unrecorded[0].warnings[0].span.line, 595);

    let (_, czech) = read(FILES[2].0);
    let longest = czech
        .iter()
        .flat_map(|g| &g.moves.nodes)
        .map(|n| n.mv.squares.len())
        .max();
    assert_eq!(longest, Some(4), "full capture paths such as d8xb6xd4xb2");

    let (_, team) = read(FILES[3].0);
    let forfeits: Vec<_> = team.iter().filter(|g| g.moves.nodes.is_empty()).collect();
    assert_eq!(forfeits.len(), 3, "the `1. 0-2` forfeits");
    let results: Vec<_> = team
        .iter()
        .map(|g| g.result.as_ref().unwrap().text.as_str())
        .collect();
    assert_eq!(results.iter().filter(|r| **r == "2-0").count(), 23);
    assert_eq!(results.iter().filter(|r| **r == "1-1").count(), 23);
    assert_eq!(results.iter().filter(|r| **r == "0-2").count(), 26);
}

#[test]
fn spans_point_back_at_the_source() {
    for (name, _) in FILES {
        let (bytes, games) = read(name);
        // (offset, line, column) walked forward once, to check every span cheaply.
        let (mut at, mut line, mut line_start) = (0usize, 1usize, 0usize);
        let mut locate = |offset: usize| {
            for (i, &b) in bytes[at..offset].iter().enumerate() {
                if b == b'\n' {
                    line += 1;
                    line_start = at + i + 1;
                }
            }
            at = offset;
            let column = String::from_utf8_lossy(&bytes[line_start..offset])
                .chars()
                .count()
                + 1;
            (line, column)
        };
        for g in &games {
            for t in &g.tags {
                assert_eq!(bytes[t.span.offset], b'[');
                assert_eq!(bytes[t.span.offset + t.span.len - 1], b']');
            }
            for n in &g.moves.nodes {
                let s = n.mv.span;
                assert_eq!(&bytes[s.offset..s.offset + s.len], n.mv.text.as_bytes());
                // line and column agree with the offset
                assert_eq!((s.line as usize, s.column as usize), locate(s.offset));
            }
        }
    }
}

#[test]
fn writing_is_idempotent_and_keeps_the_content() {
    for (name, count) in FILES {
        let (_, games) = read(name);
        let once = write_games(&games);
        let reparsed: Vec<GameRecord> = parse_games(once.as_bytes())
            .into_iter()
            .map(|g| g.unwrap_or_else(|e| panic!("{name} rewritten: {e}")))
            .collect();
        assert_eq!(reparsed.len(), count, "{name}");
        for (a, b) in games.iter().zip(&reparsed) {
            let mut a = a.clone();
            a.sort_tags();
            if a.warnings
                .iter()
                .all(|w| w.kind != WarningKind::MovesNotRecorded)
            {
                assert!(a.same_content(b), "{name} game {}", a.index);
            }
        }
        let twice = write_games(&reparsed);
        assert_eq!(once, twice, "{name}: write is idempotent");
        assert!(
            once.lines().all(|l| l.chars().count() <= 80),
            "{name}: 80 columns"
        );
    }
}
