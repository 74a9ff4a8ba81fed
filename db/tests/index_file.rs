//! The index file: a sharded build merges into the file one build makes, merge refuses parts
//! that are not one archive split once, and a damaged or foreign file is an error, never a
//! panic.

mod common;

use common::{build, RUSSIAN};
use drafti_db::{
    merge_parts, Books, BuildOptions, ExploreQuery, Filters, GameFilter, InGame, Index, IndexError,
    MaterialQuery, ShardSpec,
};
use drafti_rules::{Color, Position, Variant};
use std::path::{Path, PathBuf};

fn part(k: u64, n: u64) -> BuildOptions {
    BuildOptions {
        shard: Some(ShardSpec { index: k, count: n }),
        single_game_positions: true,
        ..BuildOptions::default()
    }
}

fn parts(dir: &Path, n: u64, files: &[&str]) -> Vec<PathBuf> {
    (1..=n)
        .map(|k| {
            let p = dir.join(format!("part{k}.idx"));
            build(files, &[], Variant::Russian, part(k, n), &p);
            p
        })
        .collect()
}

#[test]
fn a_sharded_build_with_totals_merges_into_the_whole_build_byte_for_byte() {
    // Every position of two games or more carries its moves' totals.
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.idx");
    let totals = BuildOptions {
        totals_min_games: 2,
        ..BuildOptions::default()
    };
    let summary = build(&RUSSIAN, &[], Variant::Russian, totals, &whole);
    let bytes = std::fs::read(&whole).unwrap();
    assert!(bytes != std::fs::read(default_build(dir.path())).unwrap());
    for n in [1, 3] {
        let parts: Vec<PathBuf> = (1..=n)
            .map(|k| {
                let p = dir.path().join(format!("part{k}.idx"));
                let options = BuildOptions {
                    totals_min_games: 2,
                    ..part(k, n)
                };
                build(&RUSSIAN, &[], Variant::Russian, options, &p);
                p
            })
            .collect();
        let merged = dir.path().join(format!("merged{n}.idx"));
        let meta = merge_parts(&parts, &merged).unwrap();
        assert_eq!(meta, summary.meta);
        assert!(std::fs::read(&merged).unwrap() == bytes, "{n} parts");
    }
}

fn default_build(dir: &Path) -> PathBuf {
    let path = dir.join("default.idx");
    build(
        &RUSSIAN,
        &[],
        Variant::Russian,
        BuildOptions::default(),
        &path,
    );
    path
}

#[test]
fn records_are_sized_to_what_the_archive_has() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bare.idx");
    let bare = "1. c3-d4 d6-c5 2. b2-c3 f6-g5 1-0\n\n1. c3-d4 f6-g5 *\n";
    let summary = build(
        &[],
        &[("bare", bare)],
        Variant::Tanzanian,
        BuildOptions::default(),
        &path,
    );
    // No names, dates, ratings or book names (Tanzanian games have none): 11 bytes a record.
    assert_eq!(summary.meta.record.size(), 11);
    let index = Index::open(&path).unwrap();
    let table = index
        .section_bytes()
        .into_iter()
        .find(|(n, _)| *n == "game table");
    assert_eq!(table, Some(("game table", 22)));
    let r = index.record(0).unwrap();
    assert_eq!((r.white, r.date, r.white_elo, r.plies), (u32::MAX, 0, 0, 4));
    // One game with a rating and a name: every record holds them, the others as none.
    let tagged = "[White \"A\"]\n[WhiteElo \"2200\"]\n1. c3-d4 f6-g5 0-1\n\n".to_string() + bare;
    let path = dir.path().join("tagged.idx");
    let summary = build(
        &[],
        &[("tagged", &tagged)],
        Variant::Tanzanian,
        BuildOptions::default(),
        &path,
    );
    let layout = summary.meta.record;
    assert!(
        layout.ratings && !layout.dates && layout.name_bytes == 1,
        "{layout:?}"
    );
    let index = Index::open(&path).unwrap();
    let (first, second) = (index.record(0).unwrap(), index.record(1).unwrap());
    assert_eq!(
        (index.string(first.white).unwrap(), first.white_elo),
        ("A", 2200)
    );
    assert_eq!((second.white, second.white_elo), (u32::MAX, 0));
}

#[test]
fn a_sharded_build_merges_into_the_whole_build_byte_for_byte() {
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.idx");
    // Runs of 500 entries: the external sort merges many runs.
    let small_runs = BuildOptions {
        run_entries: 500,
        ..BuildOptions::default()
    };
    let summary = build(&RUSSIAN, &[], Variant::Russian, small_runs, &whole);
    assert_eq!(summary.meta.games, 209);
    let bytes = std::fs::read(&whole).unwrap();
    for n in [1, 3] {
        let merged = dir.path().join(format!("merged{n}.idx"));
        let meta = merge_parts(&parts(dir.path(), n, &RUSSIAN), &merged).unwrap();
        assert_eq!(meta, summary.meta);
        assert!(std::fs::read(&merged).unwrap() == bytes, "{n} parts");
    }
    // The same with the default runs (one run).
    let one_run = dir.path().join("one.idx");
    build(
        &RUSSIAN,
        &[],
        Variant::Russian,
        BuildOptions::default(),
        &one_run,
    );
    assert!(std::fs::read(&one_run).unwrap() == bytes);
}

#[test]
fn merge_refuses_parts_that_are_not_one_archive_split_once() {
    let dir = tempfile::tempdir().unwrap();
    let p = parts(dir.path(), 2, &RUSSIAN);
    let out = dir.path().join("out.idx");
    let err = |paths: &[PathBuf]| merge_parts(paths, &out).unwrap_err().to_string();
    assert!(
        err(&p[..1]).contains("shards 2/2 are missing"),
        "{}",
        err(&p[..1])
    );
    assert!(err(&[p[0].clone(), p[0].clone()]).contains("are both shard 1/2"));
    // A part of another archive (one file fewer).
    let other = dir.path().join("other.idx");
    build(&RUSSIAN[..1], &[], Variant::Russian, part(2, 2), &other);
    assert!(err(&[p[0].clone(), other.clone()]).contains("built from different archives"));
    // A part of another split.
    let three = dir.path().join("three.idx");
    build(&RUSSIAN, &[], Variant::Russian, part(2, 3), &three);
    assert!(err(&[p[0].clone(), three]).contains("parts of different splits"));
    // A whole index is not a part.
    let whole = dir.path().join("whole.idx");
    build(
        &RUSSIAN,
        &[],
        Variant::Russian,
        BuildOptions::default(),
        &whole,
    );
    assert!(err(&[whole]).contains("not a part of a sharded build"));
    assert!(!out.exists(), "nothing written");
}

/// Everything a query reads of an index; an error is fine, a panic is not.
fn use_index(path: &Path) -> Result<(), IndexError> {
    let index = Index::open(path)?;
    index.verify()?;
    let books = Books::shipped().unwrap();
    let filter = GameFilter::new(&index, &books, &Filters::default())?.unwrap();
    let query = ExploreQuery {
        line: vec![Position::start(Color::White)],
        variant: Variant::Russian,
        filter: &filter,
        max_games: 2,
    };
    drafti_db::explore(&index, &books, &query)?;
    let inside = InGame {
        material: Some(MaterialQuery::parse("xk>=1").unwrap()),
        ..InGame::default()
    };
    drafti_db::find(&index, &filter, &inside, |_| true)?;
    drafti_db::twins(&index, &filter, 1)?;
    Ok(())
}

#[test]
fn every_damaged_byte_and_every_cut_is_an_error_that_names_the_file() {
    damaged_bytes_and_cuts(BuildOptions::default());
}

#[test]
fn every_damaged_byte_of_an_index_with_totals_is_an_error_that_names_the_file() {
    // Its positions of two games or more carry their moves' totals.
    damaged_bytes_and_cuts(BuildOptions {
        totals_min_games: 2,
        ..BuildOptions::default()
    });
}

fn damaged_bytes_and_cuts(options: BuildOptions) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("small.idx");
    let text = "[Event \"Э\"]\n[White \"A\"]\n[Black \"B\"]\n1. c3-d4 d6-c5 2. b2-c3 f6-g5 3. c3-b4 g5-h4 1-0\n\n\
                [White \"B\"]\n[Black \"A\"]\n1. c3-d4 d6-c5 2. b2-c3 f6-g5 0-1\n\n1. c3-d4 f6-g5 *\n";
    build(&[], &[("mem", text)], Variant::Russian, options, &path);
    use_index(&path).unwrap();
    let good = std::fs::read(&path).unwrap();
    let bad = dir.path().join("bad.idx");
    let mut flips = 0;
    for at in 0..good.len() {
        let mut bytes = good.clone();
        bytes[at] ^= 0x5a;
        std::fs::write(&bad, &bytes).unwrap();
        let e = use_index(&bad).unwrap_err();
        assert!(e.to_string().contains("bad.idx"), "byte {at}: {e}");
        flips += 1;
    }
    for len in (0..good.len()).step_by(7).chain([good.len() - 1]) {
        std::fs::write(&bad, &good[..len]).unwrap();
        let e = use_index(&bad).unwrap_err();
        assert!(e.to_string().contains("bad.idx"), "cut at {len}: {e}");
    }
    assert_eq!(flips, good.len());
    // Foreign files: a PDN, an empty file, a directory, a missing file.
    std::fs::write(&bad, text).unwrap();
    assert!(matches!(
        Index::open(&bad),
        Err(IndexError::NotAnIndex { .. })
    ));
    std::fs::write(&bad, b"").unwrap();
    assert!(matches!(
        Index::open(&bad),
        Err(IndexError::NotAnIndex { .. })
    ));
    assert!(matches!(
        Index::open(dir.path()),
        Err(IndexError::NotAnIndex { .. })
    ));
    assert!(matches!(
        Index::open(&dir.path().join("none")),
        Err(IndexError::Io { .. })
    ));
    // Another version of the format.
    let mut bytes = good.clone();
    bytes[8] = 9;
    std::fs::write(&bad, &bytes).unwrap();
    let e = Index::open(&bad).err().unwrap();
    assert!(matches!(e, IndexError::Version { found: 9, .. }), "{e}");
    assert!(e.to_string().contains("rebuild the index"));
}

#[test]
fn games_under_tzdrafts_reading_are_counted_and_read_back_as_such() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("tzdraft.idx");
    let game = "[Variant \"TzDraft\"]\n[Result \"*\"]\n\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 *\n";
    let summary = build(
        &[],
        &[("a.pdn", game), ("b.pdn", game)],
        Variant::TzDraft,
        BuildOptions::default(),
        &out,
    );
    assert_eq!(summary.meta.variants, [0, 0, 0, 2]);
    let index = drafti_db::Index::open(&out).unwrap();
    assert_eq!(index.meta().variants, [0, 0, 0, 2]);
    let group = index.groups().next().unwrap().unwrap();
    assert_eq!(group.key.position().map(|(_, v)| v), Some(Variant::TzDraft));
}

/// Games of one archive that meet by transposition, repeat, and part (Russian rules).
const TRANSPOSED: [&str; 10] = [
    "1. a3-b4 b6-a5 2. g3-h4 h6-g5 3. b2-a3 g7-h6 *",
    "1. g3-h4 h6-g5 2. a3-b4 b6-a5 3. b2-a3 g7-h6 *",
    "1. g3-h4 b6-a5 2. a3-b4 h6-g5 3. b2-a3 *",
    "1. a3-b4 h6-g5 2. g3-h4 b6-a5 *",
    "1. g3-h4 h6-g5 2. a3-b4 b6-a5 3. b2-a3 g7-h6 *",
    "1. c3-d4 d6-e5 2. b2-c3 *",
    "1. c3-d4 f6-g5 *",
    "1. c3-d4 d6-e5 2. b2-c3 f6-g5 *",
    "1. a3-b4 b6-a5 2. g3-h4 h6-g5 3. b2-a3 g7-h6 *",
    "1. a3-b4 b6-a5 *",
];

#[test]
fn each_position_holds_exactly_the_games_that_reached_it_whatever_their_numbering() {
    use drafti_archive::replay::{replay, ReplayOptions};
    use drafti_db::{IndexedGame, PositionKey};
    use std::collections::{BTreeMap, BTreeSet};

    // What each position's moves should hold: every game's own positions, each once.
    let books = Books::shipped().unwrap();
    let options = ReplayOptions {
        variant_override: Some(Variant::Russian),
        ..ReplayOptions::default()
    };
    let mut expected: BTreeMap<PositionKey, BTreeMap<u8, BTreeSet<u32>>> = BTreeMap::new();
    for (id, text) in TRANSPOSED.iter().enumerate() {
        let record = drafti_pdn::parse_games(text.as_bytes()).remove(0).unwrap();
        let game = replay(record, &options);
        let indexed = IndexedGame::new(Ok(&game), &books);
        assert!(
            !indexed.info.unreadable && indexed.entries.len() > 2,
            "{text}"
        );
        for (key, code) in indexed.entries {
            let games = expected.entry(key).or_default().entry(code).or_default();
            assert!(
                games.insert(id as u32),
                "a position counted twice in game {id}"
            );
        }
    }
    expected.retain(|_, moves| moves.values().map(BTreeSet::len).sum::<usize>() >= 2);
    // The game after four plies of games 0 to 4 and 8 (in four move orders).
    assert!(expected.values().any(|m| m.values().flatten().count() == 6));

    let texts: Vec<(String, &str)> = TRANSPOSED
        .iter()
        .enumerate()
        .map(|(i, t)| (format!("g{i}.pdn"), *t))
        .collect();
    let texts: Vec<(&str, &str)> = texts.iter().map(|(n, t)| (n.as_str(), *t)).collect();
    let dir = tempfile::tempdir().unwrap();
    let whole = dir.path().join("whole.idx");
    let totals = BuildOptions {
        totals_min_games: 2,
        ..BuildOptions::default()
    };
    build(&[], &texts, Variant::Russian, totals.clone(), &whole);
    // The whole index numbers its games by their moves, a part by the archive: both read
    // back as the archive's games.
    let one_part = dir.path().join("part.idx");
    let options = BuildOptions {
        totals_min_games: 2,
        ..part(1, 1)
    };
    build(&[], &texts, Variant::Russian, options, &one_part);
    for path in [&whole, &one_part] {
        let index = Index::open(path).unwrap();
        let mut found: BTreeMap<PositionKey, BTreeMap<u8, BTreeSet<u32>>> = BTreeMap::new();
        for group in index.groups() {
            let group = group.unwrap();
            if group.games() < 2 {
                continue;
            }
            for (code, ids) in group.moves {
                assert!(ids.windows(2).all(|w| w[0] < w[1]), "in archive order");
                found
                    .entry(group.key)
                    .or_default()
                    .insert(code, ids.into_iter().collect());
            }
        }
        assert_eq!(found, expected, "{}", path.display());
    }
    // Two parts merge into the whole build, renumbered as it is.
    let merged = dir.path().join("merged.idx");
    let two: Vec<PathBuf> = (1..=2)
        .map(|k| {
            let p = dir.path().join(format!("part{k}of2.idx"));
            let options = BuildOptions {
                totals_min_games: 2,
                ..part(k, 2)
            };
            build(&[], &texts, Variant::Russian, options, &p);
            p
        })
        .collect();
    merge_parts(&two, &merged).unwrap();
    assert!(std::fs::read(&merged).unwrap() == std::fs::read(&whole).unwrap());
}
