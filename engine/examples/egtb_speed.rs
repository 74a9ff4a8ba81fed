//! Endgame-table probes per second on one thread, by wall clock and by the process's own CPU
//! time (which a busy machine inflates less): `cargo run --release -p drafti-engine
//! --example egtb_speed -- DIR [VARIANT]` with tables as `drafti egtb build --dir DIR` made
//! them. The positions are 1,000,000 random indices of random tables (decoded first, half
//! turned to Black to move), probed 10 times over after one warming pass.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_engine::egtb::Tables;
use drafti_rules::{Position, Variant};
use std::hint::black_box;
use std::time::Instant;

/// User plus system CPU time of this process, in seconds (Linux `/proc/self/stat`).
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    let after = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = after.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

fn fail(message: String) -> ! {
    eprintln!("{message}");
    std::process::exit(2);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| fail("usage: egtb_speed DIR [tz|czech|russian]".into()));
    let variant: Variant = args
        .next()
        .map_or(Ok(Variant::Tanzanian), |v| v.parse())
        .unwrap_or_else(|e| fail(e.to_string()));
    let tables = Tables::open(dir.as_ref(), variant).unwrap_or_else(|e| fail(e.to_string()));
    let sigs: Vec<_> = tables.infos().iter().map(|i| i.header.signature).collect();
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    let mut sample: Vec<Position> = Vec::with_capacity(1_000_000);
    while sample.len() < 1_000_000 {
        let sig = sigs[(next() % sigs.len() as u64) as usize];
        if let Some(p) = sig.position(next() % sig.positions()) {
            sample.push(if sample.len().is_multiple_of(2) {
                p
            } else {
                p.mirrored()
            });
        }
    }
    let found = sample
        .iter()
        .filter(|p| tables.lookup(p, 0).is_some())
        .count();
    let rounds = 10;
    let (wall, cpu) = (Instant::now(), cpu_seconds());
    let mut hits = 0usize;
    for _ in 0..rounds {
        hits += sample
            .iter()
            .filter(|p| black_box(tables.lookup(black_box(p), 0)).is_some())
            .count();
    }
    let wall = wall.elapsed().as_secs_f64();
    let cpu = cpu_seconds().zip(cpu).map(|(b, a)| b - a);
    let probes = (rounds * sample.len()) as f64;
    println!(
        "{} tables of {variant} up to {} pieces; {found} of {} positions found; {hits} hits",
        tables.len(),
        tables.max_pieces(),
        sample.len()
    );
    println!(
        "lookup: {:.1} M probes/s by wall clock ({wall:.2} s)",
        probes / wall / 1e6
    );
    if let Some(cpu) = cpu.filter(|&c| c > 0.0) {
        println!(
            "lookup: {:.1} M probes/s by CPU time ({cpu:.2} s)",
            probes / cpu / 1e6
        );
    }
}
