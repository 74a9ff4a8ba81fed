//! Parse throughput on a large generated archive: split + parse every game to the AST,
//! single-threaded. `cargo bench -p drafti-pdn --bench parse`
//!
//! `split_and_parse_100k_games` is timed by the wall clock; `…_cpu_time` times the same
//! work by the thread's CPU time, which stays meaningful while other builds share the
//! machine's cores (see docs/performance.md).

use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use drafti_pdn::{parse_game, write_games, GameReader, GameSplitter};

// The allocator of the drafti binary (cli/), so the figures are the binary's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Games in the generated archive.
pub const GAMES: usize = 100_000;

/// A real-looking Tanzanian game: eight tags, 71 moves with captures, a comment, a NAG and
/// a variation, CRLF line ends; `ROUND` is replaced by the game's number.
const TEMPLATE: &str = include_str!("game_template.pdn");

/// The archive: `games` copies of the template with their own round numbers.
pub fn archive(games: usize) -> Vec<u8> {
    let mut out = String::with_capacity(games * TEMPLATE.len());
    for i in 0..games {
        out.push_str(&TEMPLATE.replace("ROUND", &(i + 1).to_string()));
    }
    out.into_bytes()
}

/// Time this thread has spent on a CPU (Linux `/proc/thread-self/schedstat`, in ns): on a
/// machine shared with other work, wall time also counts the waits for a free core.
fn cpu_time() -> Option<Duration> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = stat.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

fn split_and_parse(data: &[u8]) {
    let mut moves = 0;
    for game in GameReader::new(black_box(data)) {
        moves += game.unwrap().moves.nodes.len();
    }
    assert_eq!(moves, GAMES * 71);
}

fn bench(c: &mut Criterion) {
    let data = archive(GAMES);
    let mut group = c.benchmark_group("pdn");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(10);
    group.bench_function("split_and_parse_100k_games", |b| {
        b.iter(|| split_and_parse(&data))
    });
    if cpu_time().is_some() {
        // The same work, timed by the CPU time of this thread instead of the wall clock.
        group.bench_function("split_and_parse_100k_games_cpu_time", |b| {
            b.iter_custom(|iters| {
                let start = cpu_time().unwrap_or_default();
                for _ in 0..iters {
                    split_and_parse(&data);
                }
                cpu_time().unwrap_or_default().saturating_sub(start)
            })
        });
    }
    group.bench_function("split_only_100k_games", |b| {
        b.iter(|| GameSplitter::new(black_box(&data[..])).count())
    });
    let games: Vec<_> = GameSplitter::new(&data[..])
        .take(10_000)
        .map(|g| parse_game(&g.unwrap()).unwrap())
        .collect();
    let written = write_games(&games);
    group.throughput(Throughput::Bytes(written.len() as u64));
    group.bench_function("write_10k_games", |b| {
        b.iter(|| write_games(black_box(&games)))
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
