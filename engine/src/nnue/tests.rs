use super::*;
use crate::{Config, Engine, Limits};
use drafti_rules::{DrawLaws, SplitMix64, Variant};

/// A network with seeded random weights (large enough that every input matters).
fn random_network(hidden: usize, buckets: usize, activation: Activation, seed: u64) -> Network {
    let mut rng = SplitMix64::stream(seed, 0);
    let mut uniform = |n: usize, a: f32| -> Vec<f32> {
        (0..n)
            .map(|_| (rng.unit() as f32 * 2.0 - 1.0) * a)
            .collect()
    };
    let float = FloatNetwork {
        hidden,
        buckets,
        activation,
        scale: 190,
        w1: uniform(INPUTS * hidden, 0.4),
        b1: uniform(hidden, 0.5),
        wo: uniform(buckets * 2 * hidden, 1.5),
        bo: uniform(buckets, 0.2),
    };
    Network::quantise(&float).expect("a random network quantises")
}

/// Positions along seeded random games of `variant` (each game to its end or 120 plies),
/// and how many of the moves captured and crowned.
fn random_games(variant: Variant, games: u64) -> (Vec<Vec<Position>>, usize, usize) {
    let (mut captures, mut crownings) = (0, 0);
    let mut lines = Vec::new();
    for game in 0..games {
        let mut rng = SplitMix64::stream(39, game);
        let mut pos = Position::start(Color::White);
        let mut line = vec![pos];
        for _ in 0..120 {
            let moves = pos.legal_moves(variant);
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            captures += usize::from(mv.is_capture());
            crownings += usize::from(mv.promotes());
            pos = pos.play(&mv);
            line.push(pos);
        }
        lines.push(line);
    }
    (lines, captures, crownings)
}

fn scratch(net: &Network, pos: &Position) -> Vec<i16> {
    let h = net.hidden();
    let mut acc = vec![0i16; 2 * h];
    let (white, black) = acc.split_at_mut(h);
    net.refresh(pos, Color::White, white);
    net.refresh(pos, Color::Black, black);
    acc
}

#[test]
fn incremental_accumulators_equal_fresh_ones_along_random_games() {
    // 64 wide: the updates compiled for the shipped width; 32: those of any other width.
    for hidden in [32, super::accumulator::SHIPPED_HIDDEN] {
        incremental_accumulators_equal_fresh_ones(hidden);
    }
    assert_eq!(
        shipped().expect("the shipped network").hidden(),
        super::accumulator::SHIPPED_HIDDEN,
        "the shipped network's width is the one the search's updates are compiled for"
    );
}

fn incremental_accumulators_equal_fresh_ones(hidden: usize) {
    let net = random_network(hidden, 4, Activation::SquaredClippedRelu, 1);
    for variant in [Variant::Tanzanian, Variant::Czech, Variant::Russian] {
        let (lines, captures, crownings) = random_games(variant, 30);
        assert!(
            captures > 100 && crownings > 10,
            "{variant}: {captures} {crownings}"
        );
        let mut stack = Stack::new(net.hidden(), 130);
        for line in &lines {
            // Down the game ply by ply, evaluating at every position (one update each).
            for (ply, pos) in line.iter().enumerate() {
                stack.enter(ply, pos);
                assert_eq!(
                    stack.values_at(&net, ply),
                    &scratch(&net, pos)[..],
                    "{variant} ply {ply}"
                );
                assert_eq!(stack.evaluate(&net, ply), net.evaluate(pos));
            }
        }
        // As a search uses it: lines entered without evaluation, then one evaluation deep
        // down (several updates at once), siblings replacing each other at a ply, and a
        // slot re-entered by another position (law 3's claim does that).
        let mut stack = Stack::new(net.hidden(), 130);
        let mut rng = SplitMix64::new(7);
        for line in &lines {
            let top = rng.below(line.len().min(40));
            stack.enter(0, &line[0]);
            for (ply, pos) in line.iter().enumerate().take(top + 1) {
                stack.enter(ply, pos);
            }
            assert_eq!(stack.values_at(&net, top), &scratch(&net, &line[top])[..]);
            let other = &lines[rng.below(lines.len())];
            let stranger = other[rng.below(other.len())];
            stack.enter(top, &stranger);
            assert_eq!(stack.values_at(&net, top), &scratch(&net, &stranger)[..]);
            let child = stranger
                .legal_moves(variant)
                .first()
                .map(|m| stranger.play(m));
            if let Some(child) = child {
                stack.enter(top + 1, &child);
                assert_eq!(stack.evaluate(&net, top + 1), net.evaluate(&child));
            }
        }
    }
}

#[test]
fn a_position_turned_around_scores_the_same() {
    let nets = [
        random_network(32, 4, Activation::SquaredClippedRelu, 2),
        random_network(48, 1, Activation::ClippedRelu, 3),
        (*shipped().expect("the shipped network")).clone(),
    ];
    let (lines, _, _) = random_games(Variant::Tanzanian, 10);
    let config = Config {
        nnue: 1,
        ..Config::default()
    };
    let laws = DrawLaws::for_variant(Variant::Tanzanian);
    let engine = Engine::with_config(Variant::Tanzanian, 0, laws, config);
    for pos in lines.iter().flatten() {
        for net in &nets {
            assert_eq!(
                net.evaluate(pos),
                net.evaluate(&pos.mirrored()),
                "{}",
                pos.to_fen()
            );
        }
        assert_eq!(engine.evaluate(pos), engine.evaluate(&pos.mirrored()));
    }
    // And the network is not trivially symmetric: the side to move matters.
    let differs = lines
        .iter()
        .flatten()
        .any(|p| nets[0].evaluate(p) != nets[0].evaluate(&p.with_turn(p.turn().other())));
    assert!(differs);
}

#[test]
fn the_file_round_trips_and_the_shipped_one_reads() {
    let net = random_network(32, 2, Activation::ClippedRelu, 4);
    assert_eq!(Network::from_bytes(&net.to_bytes()), Ok(net));
    let shipped = Network::from_bytes(SHIPPED_BYTES).expect("the shipped network reads");
    assert_eq!(shipped.to_bytes(), SHIPPED_BYTES);
}

/// The bytes of `net` with `edit` applied and the checksum made right again.
fn resealed(net: &Network, edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = net.to_bytes();
    bytes.truncate(bytes.len() - 4);
    edit(&mut bytes);
    let crc = crc32fast::hash(&bytes);
    bytes.extend_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn a_damaged_file_is_refused() {
    let net = random_network(32, 2, Activation::SquaredClippedRelu, 5);
    let good = net.to_bytes();
    // A flipped bit anywhere in the weights: the checksum.
    let mut flipped = good.clone();
    flipped[HEADER + 100] ^= 0x10;
    assert!(matches!(
        Network::from_bytes(&flipped),
        Err(NetworkError::Checksum { .. })
    ));
    // Cut short, or with bytes after the end.
    assert!(matches!(
        Network::from_bytes(&good[..good.len() - 7]),
        Err(NetworkError::Length { .. })
    ));
    assert!(matches!(
        Network::from_bytes(&good[..20]),
        Err(NetworkError::Length { .. })
    ));
    let mut longer = good.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetworkError::Length { .. })
    ));
    // Not a network at all.
    assert_eq!(
        Network::from_bytes(b"# weights\n"),
        Err(NetworkError::Magic)
    );
    assert_eq!(Network::from_bytes(&[]), Err(NetworkError::Magic));
    // Another version, or shapes out of range (with a right checksum).
    let version = resealed(&net, |b| b[8] = 2);
    assert_eq!(Network::from_bytes(&version), Err(NetworkError::Version(2)));
    for (field, value) in [(0, 127u32), (1, 40), (1, 0), (2, 9), (3, 2), (4, 0)] {
        let bytes = resealed(&net, |b| {
            b[12 + 4 * field..16 + 4 * field].copy_from_slice(&value.to_le_bytes())
        });
        assert!(
            matches!(Network::from_bytes(&bytes), Err(NetworkError::Shape { .. })),
            "field {field} = {value}"
        );
    }
    // A first-layer weight so large that 24 pieces would overflow an accumulator.
    let overflow = resealed(&net, |b| {
        b[HEADER..HEADER + 2].copy_from_slice(&3000i16.to_le_bytes())
    });
    assert_eq!(
        Network::from_bytes(&overflow),
        Err(NetworkError::Range("first-layer weights"))
    );
    // An output weight too large for the squared activation's 16-bit product.
    let h = net.hidden();
    let at = HEADER + 2 * (INPUTS * h + h);
    let output = resealed(&net, |b| {
        b[at..at + 2].copy_from_slice(&200i16.to_le_bytes())
    });
    assert_eq!(
        Network::from_bytes(&output),
        Err(NetworkError::Range("output weights"))
    );
}

#[test]
fn the_search_runs_on_the_network() {
    let config = Config {
        nnue: 1,
        ..Config::default()
    };
    let laws = DrawLaws::for_variant(Variant::Tanzanian);
    let mut engine = Engine::with_config(Variant::Tanzanian, 1, laws, config.clone());
    engine.set_network(Arc::new(random_network(
        32,
        4,
        Activation::SquaredClippedRelu,
        6,
    )));
    // A shot that wins by force in 5 plies (`tests::multi_piece_shot`): found whatever the
    // evaluation.
    let pos = Position::from_fen("W:Wa1,b2,c3,e3,g3:Bc5,c7,e5,h6").expect("FEN");
    let r = engine.search(&pos, &Limits::depth(10), &[], |_| {});
    assert_eq!(r.score.win_distance(), Some(5), "{:?}", r.score);
    // A node-limited search is deterministic, and differs from the pattern evaluation's.
    let start = Position::start(Color::White);
    let a = engine.search(&start, &Limits::nodes(20_000), &[], |_| {});
    let b = engine.search(&start, &Limits::nodes(20_000), &[], |_| {});
    assert_eq!((a.nodes, a.score, &a.pv), (b.nodes, b.score, &b.pv));
    let pattern_config = Config {
        nnue: 0,
        ..Config::default()
    };
    let mut patterns = Engine::with_config(Variant::Tanzanian, 1, laws, pattern_config);
    let c = patterns.search(&start, &Limits::nodes(20_000), &[], |_| {});
    assert_ne!((a.nodes, a.score), (c.nodes, c.score));
}

#[test]
fn the_default_is_the_network_for_tanzanian_and_the_patterns_elsewhere() {
    let games = random_games(Variant::Tanzanian, 3).0;
    let with = |variant: Variant, nnue: i32| {
        let config = Config {
            nnue,
            ..Config::default()
        };
        Engine::with_config(variant, 1, DrawLaws::for_variant(variant), config)
    };
    // Tanzanian: the default engine's evaluation is the shipped network's, not the patterns'.
    let default = Engine::new(Variant::Tanzanian, 1);
    let network = with(Variant::Tanzanian, 1);
    let patterns = with(Variant::Tanzanian, 0);
    let mut differ = 0;
    for pos in games.iter().flatten() {
        assert_eq!(default.evaluate(pos), network.evaluate(pos), "{pos:?}");
        differ += usize::from(default.evaluate(pos) != patterns.evaluate(pos));
    }
    assert!(differ > 10, "{differ}");
    // TzDraft's reading of Tanzanian draughts has the network too.
    let tzdraft = Engine::new(Variant::TzDraft, 1);
    let tzdraft_patterns = with(Variant::TzDraft, 0);
    let differ = games
        .iter()
        .flatten()
        .filter(|pos| tzdraft.evaluate(pos) != tzdraft_patterns.evaluate(pos))
        .count();
    assert!(differ > 10, "{differ}");
    // Czech and Russian: the switch changes nothing, whatever it says.
    for variant in [Variant::Czech, Variant::Russian] {
        let (on, off) = (with(variant, 1), with(variant, 0));
        for pos in random_games(variant, 2).0.iter().flatten() {
            assert_eq!(on.evaluate(pos), off.evaluate(pos), "{pos:?}");
        }
    }
}
