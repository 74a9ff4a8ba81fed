//! Endgame-table probes per second, from the page cache.
//!
//! `cargo bench -p drafti-engine --bench egtb`. Probes tables in `$DRAFTI_EGTB` (a folder as
//! `drafti egtb build --dir` makes it; its Tanzanian tables), else builds the Tanzanian tables
//! of at most four pieces into a temporary folder first. The positions are 1,000,000 random
//! indices of random tables (every table alike, so big tables are not favoured), decoded before
//! timing; a probe turns the position to White to move if need be, finds its table, ranks it
//! and reads its byte. Throughput ("elem/s") = probes per second.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use drafti_engine::egtb::{self, Tables};
use drafti_rules::{Position, Variant};
use std::hint::black_box;

fn positions(tables: &Tables, n: usize) -> Vec<Position> {
    let sigs: Vec<_> = tables.infos().iter().map(|i| i.header.signature).collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let sig = sigs[(next() % sigs.len() as u64) as usize];
        if let Some(p) = sig.position(next() % sig.positions()) {
            // Half of them with Black to move, as the search meets them.
            out.push(if out.len().is_multiple_of(2) {
                p
            } else {
                p.mirrored()
            });
        }
    }
    out
}

fn probes(c: &mut Criterion) {
    let keep;
    let root = match std::env::var_os("DRAFTI_EGTB") {
        Some(d) => std::path::PathBuf::from(d),
        None => {
            keep = tempfile::tempdir().expect("temporary folder");
            egtb::build(keep.path(), Variant::Tanzanian, 4, &|_| {}).expect("build");
            keep.path().to_path_buf()
        }
    };
    let tables = Tables::open(&root, Variant::Tanzanian).expect("tables");
    let sample = positions(&tables, 1_000_000);
    // Touch every page once, so the timing is from the page cache.
    let warm: usize = sample
        .iter()
        .filter(|p| tables.lookup(p, 0).is_some())
        .count();
    eprintln!(
        "{} tables, up to {} pieces, {warm} of {} sampled positions found",
        tables.len(),
        tables.max_pieces(),
        sample.len()
    );
    let mut group = c.benchmark_group("egtb");
    group.sample_size(10);
    group.throughput(Throughput::Elements(sample.len() as u64));
    group.bench_function("lookup", |b| {
        b.iter(|| {
            sample
                .iter()
                .filter(|p| black_box(tables.lookup(black_box(p), 0)).is_some())
                .count()
        })
    });
    group.bench_function("probe (laws and legal moves too)", |b| {
        b.iter(|| {
            sample
                .iter()
                .filter(|p| black_box(tables.probe(black_box(p), None)).is_some())
                .count()
        })
    });
    group.finish();
}

criterion_group!(benches, probes);
criterion_main!(benches);
