//! Move generation speed: perft from the start (bulk-counted last ply) and legal move
//! generation in a few middlegame and king positions.
//!
//! `cargo bench -p drafti-rules --bench movegen` (figures in docs/performance.md).

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use drafti_rules::{perft, Color, MoveList, Position, Variant};
use std::hint::black_box;

/// Positions for move generation, with what they exercise.
const POSITIONS: [(&str, &str); 7] = [
    ("start", "W:W21-32:B1-12"),
    // Quiet middlegames from seeded random play (ply 14), 19 and 16 men.
    ("middlegame quiet", "W:W16,20,24-26,28-32:B1-5,7,9,15,18"),
    ("middlegame quiet 2", "W:W21,22,25,27,29-32:B1-5,8,9,19"),
    // Captures by men and a king, one of them taking four pieces (random play, ply 31).
    (
        "middlegame captures",
        "B:W17,19,22,25,26:B1-4,7,9,12,13,15,K16",
    ),
    // Five kings flying over an open board: 20 quiet king moves.
    ("open kings", "W:WKa1,Kc1,Ke1:BKf8,Kh8"),
    // The Turkish-strike ring of rules_cases.rs: a king capture of three pieces, three ends.
    ("king ring 3", "W:WKc1:Bd6,e3,e5,f2,f6"),
    // A king going round four pieces both ways (duplicate routes removed): 5 moves.
    ("king ring 4", "W:WKc3:Bb4,b6,d4,d6"),
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
