//! A match between two settings of this engine (A against B) in one process, for measuring
//! each change:
//!
//! ```text
//! cargo run --release -p drafti-lab --example duel -- --a lmr=1 --b lmr=0 \
//!     --budget nodes=20000 --games 400 --jobs 2 [--sprt 0,10] [--pdn games.pdn]
//! ```
//! Openings: distinct positions with equal material after `--plies` plies (a fixed order),
//! each played twice with colours swapped; without `--plies`, the fewest plies from 4 that
//! have enough openings for `--games` (4 plies have 372 Tanzanian ones, 744 games).
//! `--budget` is `nodes=N`, `depth=D` or `ms=T` (time per move; run with `--jobs 1` then).
//! Prints W/D/L from A's side, Elo with its 95% interval, how many games reached ply 200 and
//! with one side a piece up there (`--dump` lists those positions).
//! `--egtb DIR` (tables as `drafti egtb build --dir DIR` makes them): a position the tables
//! hold ends the game with their result, and both players probe them in their search
//! (`--tables-for a|b|none` gives them to one player only, or to neither). `--a-weights FILE`
//! / `--b-weights FILE`: evaluation weights for A / B instead of the shipped ones (a fit of
//! `lab/examples/texel.rs`). `--a-network FILE` / `--b-network FILE`: a network file of
//! `nnue_train` for A / B (with `nnue` on, the default; any variant, where the shipped engine
//! has a network for Tanzanian only). `--variant tz|czech|russian` (default tz): the rules the
//! games are played under, each engine with its variant's shipped weights unless given others.
//!
//! The games are played by drafti-hub's runner with two in-process players, adjudicated by
//! the rules, the ply cap (`--max-plies`, 300) and the tables; unlike `drafti match`, a
//! repeated position does not end a game, so results stay comparable with earlier duels.
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use drafti_cli::match_runner::record;
use drafti_engine::egtb::Tables;
use drafti_engine::nnue::Network;
use drafti_engine::{Config, Engine, Weights};
use drafti_hub::openings::even_material;
use drafti_hub::runner::{run, Adjudication, Control, MatchSettings, PlayedGame, Termination};
use drafti_hub::stats::{Sprt, Tally, Verdict};
use drafti_hub::{EnginePlayer, Player};
use drafti_rules::{Color, DrawLaws, Outcome, Position, Variant};
use std::process::exit;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What a player may spend on a move (printed as before: `Nodes(20000)`).
#[derive(Clone, Copy, Debug)]
enum Budget {
    Nodes(u64),
    Depth(u32),
    Movetime(Duration),
}

impl Budget {
    fn parse(text: &str) -> Option<Budget> {
        let (kind, value) = text.split_once('=')?;
        let n: u64 = value.parse().ok()?;
        match kind {
            "nodes" => Some(Budget::Nodes(n)),
            "depth" => Some(Budget::Depth(u32::try_from(n).ok()?)),
            "ms" => Some(Budget::Movetime(Duration::from_millis(n))),
            _ => None,
        }
    }

    fn control(self) -> Control {
        match self {
            Budget::Nodes(n) => Control::Nodes(n),
            Budget::Depth(d) => Control::Depth(d),
            Budget::Movetime(t) => Control::MoveTime(t),
        }
    }
}

fn fail(message: impl std::fmt::Display) -> ! {
    eprintln!("{message}");
    exit(2);
}

/// Pieces of White minus pieces of Black (men and kings alike).
fn piece_difference(pos: &Position) -> i32 {
    pos.pieces(Color::White).count() as i32 - pos.pieces(Color::Black).count() as i32
}

/// Material as `3K1M-2K` (White first).
fn material(pos: &Position) -> String {
    let side = |c: Color| {
        let (k, m) = (pos.kings(c).count(), pos.men(c).count());
        let mut s = String::new();
        if k > 0 {
            s += &format!("{k}K");
        }
        if m > 0 {
            s += &format!("{m}M");
        }
        s
    };
    format!("{}-{}", side(Color::White), side(Color::Black))
}

/// The position at ply 200 of a game that went on from there.
fn at_200(game: &PlayedGame) -> Option<Position> {
    (game.moves.len() > 200).then(|| {
        game.moves[..200]
            .iter()
            .fold(game.start, |pos, mv| pos.play(mv))
    })
}

/// How a game ended, from A's side (the names of the earlier harness, for `--dump`).
fn end_name(game: &PlayedGame) -> &'static str {
    let a_won = |winner: Color| (winner == Color::White) == (game.white == 0);
    match &game.termination {
        Termination::Rules(Outcome::Win(c)) if a_won(*c) => "Win",
        Termination::Rules(Outcome::Win(_)) => "Loss",
        Termination::Rules(Outcome::Draw(_)) => "LawDraw",
        Termination::TablesWin { winner, .. } if a_won(*winner) => "TableWin",
        Termination::TablesWin { .. } => "TableLoss",
        Termination::TablesDraw => "TableDraw",
        Termination::Repetition => "Repetition",
        Termination::PlyCap(_) => "Capped",
        Termination::Forfeit { .. } => "Forfeit",
    }
}

/// What the duel counts besides W/D/L, from A's (0) and B's (1) side.
#[derive(Default)]
struct Counts {
    reached_200: u64,
    up_at_200: u64,
    a_up_at_200: u64,
    capped: u64,
    by_tables: u64,
    plies: u64,
    depth_sum: [u64; 2],
    searches: [u64; 2],
    nodes: [u64; 2],
}

impl Counts {
    fn add(&mut self, game: &PlayedGame) {
        if let Some(pos) = at_200(game) {
            self.reached_200 += 1;
            let white_ahead = piece_difference(&pos);
            if white_ahead != 0 {
                self.up_at_200 += 1;
                if (white_ahead > 0) == (game.white == 0) {
                    self.a_up_at_200 += 1;
                }
            }
        }
        match game.termination {
            Termination::PlyCap(_) => self.capped += 1,
            Termination::TablesDraw | Termination::TablesWin { .. } => self.by_tables += 1,
            _ => {}
        }
        self.plies += game.moves.len() as u64;
        for (ply, reply) in game.replies.iter().enumerate() {
            if let Some(reply) = reply {
                let who = game.player_of(ply);
                self.depth_sum[who] += u64::from(reply.depth.unwrap_or(0));
                self.searches[who] += 1;
                self.nodes[who] += reply.nodes.unwrap_or(0);
            }
        }
    }

    /// The summary line.
    fn summary(&self, tally: &Tally) -> String {
        let (elo, low, high) = tally.elo();
        let per = |k: usize| {
            if self.searches[k] == 0 {
                (0.0, 0.0)
            } else {
                (
                    self.depth_sum[k] as f64 / self.searches[k] as f64,
                    self.nodes[k] as f64 / self.searches[k] as f64,
                )
            }
        };
        let ((da, na), (db, nb)) = (per(0), per(1));
        format!(
            "games {} W/D/L {}/{}/{} score {:.1}% Elo {:+.1} [{:+.1}, {:+.1}] pairs {:?} | ply200 {} (piece up {}: A {} B {}) capped {} tables {} avg plies {:.0} | depth A {:.1} B {:.1} nodes/move A {:.0} B {:.0}",
            tally.games(),
            tally.wins,
            tally.draws,
            tally.losses,
            100.0 * tally.score(),
            elo,
            low,
            high,
            tally.pairs,
            self.reached_200,
            self.up_at_200,
            self.a_up_at_200,
            self.up_at_200 - self.a_up_at_200,
            self.capped,
            self.by_tables,
            self.plies as f64 / u64::from(tally.games()).max(1) as f64,
            da,
            db,
            na,
            nb
        )
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let number = |name: &str, default: usize| {
        value(name).map_or(default, |v| {
            v.parse()
                .unwrap_or_else(|_| fail(format!("{name}: '{v}' is not a number")))
        })
    };
    let config = |name: &str| {
        let mut config = Config::default();
        if let Some(settings) = value(name) {
            if let Err(e) = config.apply(&settings) {
                fail(format!("{name}: {e}"));
            }
        }
        config
    };
    let (config_a, config_b) = (config("--a"), config("--b"));
    let budget = Budget::parse(&value("--budget").unwrap_or_else(|| "nodes=20000".into()))
        .unwrap_or_else(|| fail("--budget nodes=N | depth=D | ms=T"));
    let games = number("--games", 200);
    let offset = number("--offset", 0);
    let tt = number("--tt", 16);
    let jobs = number("--jobs", 2);
    let progress_every = number("--progress", 25);
    let variant: Variant = value("--variant")
        .map_or(Ok(Variant::Tanzanian), |v| v.parse())
        .unwrap_or_else(|e| fail(format!("--variant: {e}")));
    // Each opening is played twice (colours swapped). Without `--plies`, the shallowest depth
    // from 4 plies that has enough of them; an explicit depth that has too few is refused
    // rather than playing fewer games than asked.
    let needed = offset + games.div_ceil(2);
    let openings_at = |plies| {
        let all = even_material(variant, plies);
        (all.len() >= needed).then_some((plies, all))
    };
    let (plies, all) = match value("--plies") {
        Some(_) => {
            let plies = number("--plies", 4);
            let all = even_material(variant, plies);
            if all.len() < needed {
                fail(format!(
                    "--plies {plies} has {} openings; --offset {offset} and --games {games} \
                     need {needed} (more plies have more)",
                    all.len()
                ));
            }
            (plies, all)
        }
        None => (4..=8).find_map(openings_at).unwrap_or_else(|| {
            fail(format!(
                "--games {games} needs more openings than 8 plies have"
            ))
        }),
    };
    let openings: Vec<_> = all
        .into_iter()
        .skip(offset)
        .take(games.div_ceil(2))
        .collect();
    let sprt = value("--sprt").map(|s| {
        let parsed = s.split_once(',').and_then(|(a, b)| {
            Some((a.trim().parse::<f64>().ok()?, b.trim().parse::<f64>().ok()?))
        });
        let (elo0, elo1) = parsed.unwrap_or_else(|| fail("--sprt elo0,elo1"));
        Sprt {
            elo0,
            elo1,
            alpha: 0.05,
            beta: 0.05,
        }
    });
    let tables = value("--egtb").map(|dir| {
        Arc::new(
            Tables::open(dir.as_ref(), variant).unwrap_or_else(|e| fail(format!("--egtb: {e}"))),
        )
    });
    let tables_for = value("--tables-for").unwrap_or_else(|| "ab".into());
    let tables_of = |player: char| tables.clone().filter(|_| tables_for.contains(player));
    let (tables_a, tables_b) = (tables_of('a'), tables_of('b'));
    let weights = |name: &str| {
        value(name).map(|path| {
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| fail(format!("{name} {path}: {e}")));
            Weights::from_text(&text).unwrap_or_else(|e| fail(format!("{name} {path}: {e}")))
        })
    };
    let (weights_a, weights_b) = (weights("--a-weights"), weights("--b-weights"));
    let network = |name: &str| {
        value(name).map(|path| {
            let bytes =
                std::fs::read(&path).unwrap_or_else(|e| fail(format!("{name} {path}: {e}")));
            Arc::new(
                Network::from_bytes(&bytes).unwrap_or_else(|e| fail(format!("{name} {path}: {e}"))),
            )
        })
    };
    let (network_a, network_b) = (network("--a-network"), network("--b-network"));
    if matches!(budget, Budget::Movetime(_)) && jobs > 1 {
        eprintln!("warning: a time budget with several games at once: the games share the cores");
    }
    let label_a = format!("A[{config_a}]");
    let label_b = format!("B[{config_b}]");
    eprintln!(
        "{label_a} vs {label_b}, {budget:?}, {} openings of {plies} plies",
        openings.len()
    );
    let player = |config: &Config,
                  weights: Option<&Weights>,
                  network: Option<&Arc<Network>>,
                  tables: Option<Arc<Tables>>| {
        let laws = DrawLaws::for_variant(variant);
        let mut engine = Engine::with_config(variant, tt, laws, config.clone());
        if let Some(w) = weights {
            engine.set_weights(w);
        }
        if let Some(n) = network {
            engine.set_network(n.clone());
        }
        EnginePlayer::from_engine(engine).with_tables(tables)
    };
    // Tables for other draw laws are refused once here, not in every worker.
    for (name, tables) in [("a", &tables_a), ("b", &tables_b)] {
        if let Err(e) = player(&Config::default(), None, None, tables.clone()) {
            fail(format!("--egtb for {name}: {e}"));
        }
    }
    let players = || -> [Box<dyn Player>; 2] {
        let a = player(
            &config_a,
            weights_a.as_ref(),
            network_a.as_ref(),
            tables_a.clone(),
        );
        let b = player(
            &config_b,
            weights_b.as_ref(),
            network_b.as_ref(),
            tables_b.clone(),
        );
        [
            Box::new(a.expect("tables checked above")),
            Box::new(b.expect("tables checked above")),
        ]
    };
    let settings = MatchSettings {
        variant,
        games: 2 * openings.len(),
        openings,
        control: budget.control(),
        adjudication: Adjudication {
            max_plies: number("--max-plies", 300),
            repetition: false,
            tables,
        },
        concurrency: jobs,
        names: [label_a.clone(), label_b.clone()],
    };

    let started = Instant::now();
    let mut tally = Tally::default();
    let mut counts = Counts::default();
    let mut played = Vec::new();
    let mut first_of_pair = None;
    run(&settings, &players, |game| {
        played.push(game.clone());
        let score = game.first_player_score();
        tally.add(score);
        counts.add(game);
        let Some(first) = first_of_pair.take() else {
            first_of_pair = Some(score);
            return true;
        };
        tally.add_pair(first, score);
        let pairs = game.index / 2 + 1;
        if progress_every > 0 && pairs % progress_every == 0 {
            eprintln!(
                "[{:.0} s] {}",
                started.elapsed().as_secs_f64(),
                counts.summary(&tally)
            );
        }
        let Some(sprt) = sprt else { return true };
        let verdict = sprt.verdict(&tally);
        if verdict != Verdict::Continue {
            eprintln!(
                "SPRT [{}, {}] stops at LLR {:.2}: {}",
                sprt.elo0,
                sprt.elo1,
                tally.llr(sprt.elo0, sprt.elo1),
                if verdict == Verdict::H1 {
                    "H1 (A better)"
                } else {
                    "H0"
                }
            );
        }
        verdict == Verdict::Continue
    });
    println!(
        "{label_a} vs {label_b} {budget:?}: {}",
        counts.summary(&tally)
    );
    if args.iter().any(|a| a == "--dump") {
        for g in &played {
            if let Some(pos) = at_200(g).filter(|p| piece_difference(p) != 0) {
                println!(
                    "game {} ({}, A {}): {} {}",
                    g.index + 1,
                    end_name(g),
                    if g.white == 0 { "White" } else { "Black" },
                    material(&pos),
                    pos.to_fen()
                );
            }
        }
    }
    if let Some(path) = value("--pdn") {
        let mut text = String::new();
        for (i, game) in played.iter().enumerate() {
            if i > 0 {
                text.push('\n');
            }
            drafti_pdn::write_game_to(&record(game, variant, false, "duel"), &mut text);
        }
        if let Err(e) = std::fs::write(&path, text) {
            fail(format!("--pdn {path}: {e}"));
        }
    }
}
