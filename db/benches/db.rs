//! The queries of an index, timed: the explorer at the start and after six plies, a find by
//! material and by position. `DRAFTI_DB_BENCH_INDEX=PATH` times an index of your own (the
//! million-game one of docs/performance.md); without it, an index of the Russian master
//! games of tests/fixtures/explorer is built first.
#![allow(clippy::print_stdout, clippy::print_stderr)]

use criterion::{criterion_group, criterion_main, Criterion};
use drafti_archive::batch::{BatchOptions, Input};
use drafti_archive::replay::ReplayOptions;
use drafti_db::{
    build_index, explore, find, Books, BuildOptions, ExploreQuery, Filters, GameFilter, InGame,
    Index, MaterialQuery, PositionQuery,
};
use drafti_rules::{Color, Position, Variant};
use std::path::{Path, PathBuf};

fn index_path(dir: &Path) -> PathBuf {
    if let Ok(p) = std::env::var("DRAFTI_DB_BENCH_INDEX") {
        return PathBuf::from(p);
    }
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/explorer");
    let inputs = [
        "russian-ussr-championship-x-153games.pdn",
        "russian-abatsiev-ussr-events-56games.pdn",
    ]
    .iter()
    .map(|f| {
        Input::new(
            *f,
            Box::new(std::io::BufReader::new(
                std::fs::File::open(fixtures.join(f)).unwrap(),
            )),
        )
    })
    .collect();
    let batch = BatchOptions {
        replay: ReplayOptions {
            variant_override: Some(Variant::Russian),
            variations: false,
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    };
    let out = dir.join("bench.idx");
    build_index(
        inputs,
        &batch,
        BuildOptions::default(),
        &Books::shipped().unwrap(),
        &out,
        |_| {},
    )
    .unwrap();
    out
}

fn bench(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let path = index_path(dir.path());
    let index = Index::open(&path).unwrap();
    let books = Books::shipped().unwrap();
    let variant = drafti_db::query_variant(&index, None).unwrap();
    let filter = GameFilter::new(&index, &books, &Filters::default())
        .unwrap()
        .unwrap();
    println!(
        "index {}: {} games, {} bytes",
        path.display(),
        index.local_games(),
        index.file_bytes()
    );
    // The most played line of six plies, and the position after it.
    let mut line = vec![Position::start(Color::White)];
    for _ in 0..6 {
        let q = ExploreQuery {
            line: line.clone(),
            variant,
            filter: &filter,
            max_games: 0,
        };
        let seen = explore(&index, &books, &q).unwrap();
        let Some(mv) = seen.moves.iter().find_map(|m| m.mv) else {
            break;
        };
        let next = line.last().unwrap().play(&mv);
        line.push(next);
    }
    let mut group = c.benchmark_group("db");
    group.sample_size(10);
    for (name, at) in [
        ("explore the start", 1),
        ("explore after 6 plies", line.len()),
    ] {
        let q = ExploreQuery {
            line: line[..at].to_vec(),
            variant,
            filter: &filter,
            max_games: 5,
        };
        group.bench_function(name, |b| b.iter(|| explore(&index, &books, &q).unwrap()));
    }
    let material = InGame {
        material: Some(MaterialQuery::parse("xk=3 xm=0 yk=1 ym=0").unwrap()),
        ..InGame::default()
    };
    group.bench_function("find by material (3 kings v 1)", |b| {
        b.iter(|| find(&index, &filter, &material, |_| true).unwrap())
    });
    let position = InGame {
        position: Some(PositionQuery {
            position: *line.last().unwrap(),
        }),
        ..InGame::default()
    };
    group.bench_function("find by position (after 6 plies)", |b| {
        b.iter(|| find(&index, &filter, &position, |_| true).unwrap())
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
