//! The engine with endgame tables, on positions of the biggest tables: it plays each sampled
//! table win against the table's best defence (the slowest loss) and each sampled table draw
//! against the table's best moves for 40 plies, a `Game` adjudicating the laws. Reports how
//! many wins it converted (and whether in the table's distance) and whether it ever let a draw
//! slip into a loss. `cargo run --release -p drafti-engine --example egtb_play -- DIR
//! [VARIANT] [PER_TABLE]` with tables as `drafti egtb build --dir DIR` made them.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_engine::egtb::{Tables, Value};
use drafti_engine::{Engine, Limits};
use drafti_rules::{Game, Outcome, Variant};
use std::sync::Arc;

fn fail(message: String) -> ! {
    eprintln!("{message}");
    std::process::exit(2);
}

fn main() {
    let mut args = std::env::args().skip(1);
    let dir = args
        .next()
        .unwrap_or_else(|| fail("usage: egtb_play DIR [tz|czech|russian] [PER_TABLE]".into()));
    let variant: Variant = args
        .next()
        .map_or(Ok(Variant::Tanzanian), |v| v.parse())
        .unwrap_or_else(|e| fail(e.to_string()));
    let per_table: usize = args.next().map_or(4, |n| n.parse().unwrap_or(4));
    let tables =
        Arc::new(Tables::open(dir.as_ref(), variant).unwrap_or_else(|e| fail(e.to_string())));
    let mut engine = Engine::new(variant, 8);
    engine
        .set_tables(Some(tables.clone()))
        .unwrap_or_else(|e| fail(e.to_string()));
    let limits = |count| Limits {
        king_count: count,
        ..Limits::depth(4)
    };
    let (mut wins, mut converted, mut exact, mut draws, mut held) = (0, 0, 0, 0, 0);
    let biggest = tables.max_pieces();
    for info in tables.infos() {
        let sig = info.header.signature;
        if sig.pieces() < biggest {
            continue;
        }
        let n = sig.positions();
        let step = (n / (8 * per_table as u64)).max(1);
        let (mut w, mut d) = (0, 0);
        let mut i = 7;
        while i < n && (w < per_table || d < per_table) {
            let Some(p) = sig.position(i) else {
                i += step;
                continue;
            };
            i += step;
            let value = tables.probe(&p, None);
            let mut game = Game::new(p, variant);
            match value {
                Some(Value::Win(distance)) if w < per_table => {
                    w += 1;
                    wins += 1;
                    let mut plies = 0;
                    while game.outcome().is_none() && plies < 2 * distance + 20 {
                        let here = *game.position();
                        let count = game.king_count();
                        let mv = if here.turn() == p.turn() {
                            engine.search(&here, &limits(count), &[], |_| {}).best
                        } else {
                            tables
                                .rank_moves(&here, count)
                                .ok()
                                .and_then(|m| m.first().map(|m| m.0))
                        };
                        let Some(mv) = mv else { break };
                        game.play(&mv);
                        plies += 1;
                    }
                    if game.outcome() == Some(Outcome::Win(p.turn())) {
                        converted += 1;
                        exact += usize::from(plies == distance);
                    } else {
                        println!("not converted: {} ({sig}, win in {distance})", p.to_fen());
                    }
                }
                Some(Value::Draw) if d < per_table && game.outcome().is_none() => {
                    d += 1;
                    draws += 1;
                    let mut lost = false;
                    for _ in 0..40 {
                        if game.outcome().is_some() {
                            break;
                        }
                        let here = *game.position();
                        let count = game.king_count();
                        let mv = if here.turn() == p.turn() {
                            engine.search(&here, &limits(count), &[], |_| {}).best
                        } else {
                            tables
                                .rank_moves(&here, count)
                                .ok()
                                .and_then(|m| m.first().map(|m| m.0))
                        };
                        let Some(mv) = mv else { break };
                        game.play(&mv);
                        if tables.probe(game.position(), game.king_count()) != Some(Value::Draw) {
                            lost = true;
                            break;
                        }
                    }
                    if lost {
                        println!("draw lost: {} ({sig})", p.to_fen());
                    } else {
                        held += 1;
                    }
                }
                _ => {}
            }
        }
    }
    println!(
        "{variant}, {biggest}-piece tables: {converted} of {wins} table wins converted ({exact} in exactly the table's distance), {held} of {draws} table draws held for 40 plies"
    );
}
