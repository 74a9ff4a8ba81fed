//! Move generation speed: perft from the start (bulk-counted last ply) and legal move
//! generation in a few middlegame and king positions.
//!
//! `cargo bench -p drafti-rules --bench movegen` (figures in docs/performance.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use drafti_rules::{perft, Color, MoveList, Position, Variant};
use std::hint::black_box;

/// Positions for move generation, with what they exercise.
const POSITIONS: [(&str, &str); 5] = [
    ("start", "W:W21-32:B1-12"),
    // A quiet middlegame: men of both sides in contact, no capture.
    (
        "middlegame",
        "W:W17,18,21,22,23,25,26,27,29,30,31:B1,2,3,5,6,7,9,10,11,12,14",
    ),
    // Men and kings with several captures to choose from.
    ("mixed captures", "W:WK29,22,23,26,K3:B9,10,14,15,18,19,K32"),
    // A king going round four pieces both ways (duplicate routes removed).
    ("king ring", "W:WKc3:Bb4,b6,d4,d6"),
    // Four kings a side flying over an open board (many quiet moves).
    ("open kings", "W:WKa1,Kc1,Kg3,Kh4:BKb8,Kd8,Kf6,Kh8"),
];

fn bench_perft(c: &mut Criterion) {
    let mut group = c.benchmark_group("perft start");
    group.sample_size(10);
    let start = Position::start(Color::White);
    for (variant, depth) in [(Variant::Tanzanian, 8), (Variant::Russian, 8)] {
        let nodes = perft(&start, variant, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("{variant} depth {depth} ({nodes} nodes)"), |b| {
            b.iter(|| perft(black_box(&start), variant, depth))
        });
    }
    group.finish();
}

fn bench_generate(c: &mut Criterion) {
    let mut group = c.benchmark_group("generate_moves");
    for (name, fen) in POSITIONS {
        let pos = Position::from_fen(fen).unwrap();
        let mut list = MoveList::new();
        pos.generate_moves(Variant::Tanzanian, &mut list);
        let n = list.len();
        group.bench_function(format!("{name} ({n} moves)"), |b| {
            b.iter(|| {
                black_box(&pos).generate_moves(Variant::Tanzanian, &mut list);
                list.len()
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_generate);
criterion_main!(benches);
