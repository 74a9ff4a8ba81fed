//! A match between two settings of this engine (A against B), for measuring each change:
//!
//! ```text
//! cargo run --release -p drafti-engine --example duel -- --a lmr=1 --b lmr=0 \
//!     --budget nodes=20000 --games 400 --jobs 2 [--sprt 0,10] [--pdn games.pdn]
//! ```
//! Openings: distinct 4-ply positions with equal material (a fixed order), each played twice
//! with colours swapped. `--budget` is `nodes=N`, `depth=D` or `ms=T` (time per move; run
//! with `--jobs 1` then). Prints W/D/L from A's side, Elo with its 95% interval, how many
//! games reached ply 200 and with one side a piece up there (`--dump` lists those positions).
//! `--egtb DIR` (tables as `drafti egtb build --dir DIR` makes them): a position the tables
//! hold ends the game with their result, and both players probe them in their search
//! (`--tables-for a|b|none` gives them to one player only, or to neither). `--a-weights FILE`
//! / `--b-weights FILE`: evaluation weights for A / B instead of the shipped ones (a fit of
//! `examples/texel.rs`).

#[path = "harness.rs"]
mod harness;

use drafti_engine::egtb::Tables;
use drafti_engine::Config;
use drafti_rules::Variant;
use harness::{material, piece_difference, play_match, Budget, MatchOptions, Player, ThisEngine};
use std::sync::Arc;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number =
        |name: &str, default: usize| value(name).map_or(default, |v| v.parse().expect("a number"));
    let config = |name: &str| {
        let mut config = Config::default();
        if let Some(settings) = value(name) {
            if let Err(e) = config.apply(&settings) {
                eprintln!("{name}: {e}");
                std::process::exit(2);
            }
        }
        config
    };
    let (config_a, config_b) = (config("--a"), config("--b"));
    let budget = Budget::parse(&value("--budget").unwrap_or_else(|| "nodes=20000".into()))
        .expect("--budget nodes=N | depth=D | ms=T");
    let games = number("--games", 200);
    let offset = number("--offset", 0);
    let tt = number("--tt", 16);
    let variant = Variant::Tanzanian;
    let all = harness::openings(variant, number("--plies", 4));
    let openings: Vec<_> = all
        .into_iter()
        .skip(offset)
        .take(games.div_ceil(2))
        .collect();
    let sprt = value("--sprt").map(|s| {
        let (a, b) = s.split_once(',').expect("--sprt elo0,elo1");
        (a.parse().unwrap(), b.parse().unwrap())
    });
    let options = MatchOptions {
        variant,
        openings,
        budget,
        jobs: number("--jobs", 2),
        max_plies: number("--max-plies", 300),
        sprt,
        progress_every: number("--progress", 25),
        tables: value("--egtb").map(|dir| {
            Arc::new(Tables::open(dir.as_ref(), variant).unwrap_or_else(|e| {
                eprintln!("--egtb: {e}");
                std::process::exit(2);
            }))
        }),
    };
    let tables_for = value("--tables-for").unwrap_or_else(|| "ab".into());
    let tables_of = |player: char| {
        options
            .tables
            .clone()
            .filter(|_| tables_for.contains(player))
    };
    let (tables_a, tables_b) = (tables_of('a'), tables_of('b'));
    let weights = |name: &str| {
        value(name).map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
                eprintln!("{name} {path}: {e}");
                std::process::exit(2);
            });
            drafti_engine::Weights::from_text(&text).unwrap_or_else(|e| {
                eprintln!("{name} {path}: {e}");
                std::process::exit(2);
            })
        })
    };
    let (weights_a, weights_b) = (weights("--a-weights"), weights("--b-weights"));
    if !options.budget.deterministic() && options.jobs > 1 {
        eprintln!("warning: a time budget with several games at once: the games share the cores");
    }
    let label_a = format!("A[{config_a}]");
    let label_b = format!("B[{config_b}]");
    eprintln!(
        "{label_a} vs {label_b}, {budget:?}, {} openings",
        options.openings.len()
    );
    let make_a = || -> Box<dyn Player> {
        Box::new(
            ThisEngine::new(variant, tt, config_a.clone())
                .with_weights(weights_a.as_ref())
                .with_tables(tables_a.clone()),
        )
    };
    let make_b = || -> Box<dyn Player> {
        Box::new(
            ThisEngine::new(variant, tt, config_b.clone())
                .with_weights(weights_b.as_ref())
                .with_tables(tables_b.clone()),
        )
    };
    let (tally, games) = play_match(&options, &make_a, &make_b);
    println!("{label_a} vs {label_b} {budget:?}: {}", tally.summary());
    if args.iter().any(|a| a == "--dump") {
        for g in &games {
            if let Some(pos) = g.at_200.filter(|p| piece_difference(p) != 0) {
                println!(
                    "game {} ({:?}, A {}): {} {}",
                    g.number + 1,
                    g.end,
                    if g.a_white { "White" } else { "Black" },
                    material(&pos),
                    pos.to_fen()
                );
            }
        }
    }
    if let Some(path) = value("--pdn") {
        std::fs::write(
            &path,
            harness::write_pdn(&games, variant, &label_a, &label_b),
        )
        .expect("writing the PDN file");
    }
}
