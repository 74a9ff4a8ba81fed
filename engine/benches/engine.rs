//! Engine speed: nodes per second of fixed-depth searches on fixed positions.
//!
//! `cargo bench -p drafti-engine --bench engine`. Criterion reports the time of one search;
//! the nodes each search visits are printed first, so nodes/s = nodes / time (criterion's
//! throughput line gives it directly, as "elem/s" = nodes/s).
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use drafti_engine::{Engine, Limits};
use drafti_rules::{Position, Variant};
use std::hint::black_box;

/// (name, FEN, variant, depth)
const POSITIONS: &[(&str, &str, Variant, u32)] = &[
    ("start", "W:W21-32:B1-12", Variant::Tanzanian, 10),
    (
        "middlegame",
        "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
        Variant::Tanzanian,
        11,
    ),
    (
        "kings",
        "W:WK29,18,22,23:BK4,9,10,12",
        Variant::Tanzanian,
        9,
    ),
    ("russian-start", "W:W21-32:B1-12", Variant::Russian, 10),
];

fn engine_nps(c: &mut Criterion) {
    let mut group = c.benchmark_group("engine");
    group.sample_size(10);
    for &(name, fen, variant, depth) in POSITIONS {
        let pos = Position::from_fen(fen).expect("bench FEN");
        let limits = Limits::depth(depth);
        let mut engine = Engine::new(variant, 16);
        let nodes = engine.search(&pos, &limits, &[], |_| {}).nodes;
        eprintln!("{name}: depth {depth}, {nodes} nodes per search");
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{name}/d{depth}"), |b| {
            b.iter(|| black_box(engine.search(black_box(&pos), &limits, &[], |_| {}).nodes))
        });
    }
    group.finish();
}

criterion_group!(benches, engine_nps);
criterion_main!(benches);
