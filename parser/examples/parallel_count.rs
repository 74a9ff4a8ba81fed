//! The two stages on separate threads: one thread splits the file into raw games, the
//! others parse them. Prints the same summary as `count_games`.
//!
//! ```text
//! cargo run --release -p drafti-pdn --example parallel_count -- FILE [THREADS]
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use std::fs::File;
use std::io::BufReader;
use std::sync::mpsc::sync_channel;
use std::sync::{Arc, Mutex};

use drafti_pdn::{parse_game, GameSplitter};

#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: parallel_count FILE [THREADS]");
        std::process::exit(2);
    };
    let threads: usize = args.next().and_then(|t| t.parse().ok()).unwrap_or(2);
    let file = match File::open(&path) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(2);
        }
    };
    // A bounded queue keeps memory flat: the splitter waits when the parsers fall behind.
    let (send, recv) = sync_channel(1024);
    let recv = Arc::new(Mutex::new(recv));
    let totals = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                let recv = Arc::clone(&recv);
                s.spawn(move || {
                    let (mut games, mut errors, mut moves) = (0usize, 0usize, 0usize);
                    loop {
                        let raw = match recv.lock() {
                            Ok(r) => r.recv(),
                            Err(_) => break,
                        };
                        let Ok(raw) = raw else { break };
                        match parse_game(&raw) {
                            Ok(g) => {
                                games += 1;
                                moves += g.moves.nodes.len();
                            }
                            Err(_) => errors += 1,
                        }
                    }
                    (games, errors, moves)
                })
            })
            .collect();
        for raw in GameSplitter::new(BufReader::with_capacity(1 << 16, file)) {
            match raw {
                Ok(raw) => {
                    if send.send(raw).is_err() {
                        break;
                    }
                }
                Err(e) => {
                    eprintln!("{path}: {e}");
                    break;
                }
            }
        }
        drop(send);
        workers
            .into_iter()
            .filter_map(|w| w.join().ok())
            .fold((0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2))
    });
    println!(
        "{path}: {} games, {} with errors, {} mainline moves ({threads} parser threads)",
        totals.0, totals.1, totals.2
    );
}
