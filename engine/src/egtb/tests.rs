//! Tests of the endgame tables: un-moves against the forward generator, every position of at
//! most three pieces against an exhaustive search over the rules core (`Game` adjudicating),
//! the Tanzanian laws' known results and the same material under Czech and Russian rules,
//! verification, corrupt files, resuming a build.

use super::build::{layers, predecessors};
use super::format;
use super::index::normalized;
use super::*;
use crate::laws::LawState;
use drafti_rules::{Bitboard, Color, DrawLaws, Game, Outcome, Position, Variant};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

const KKKVK: Signature = Signature {
    white_men: 0,
    white_kings: 3,
    black_men: 0,
    black_kings: 1,
};

/// Two kings and a man against a king: law 3's material.
const KKMVK: Signature = Signature {
    white_men: 1,
    white_kings: 2,
    black_men: 0,
    black_kings: 1,
};

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap()
}

/// Tables of at most three pieces, three kings against one and two kings and a man against
/// one (with the lone king to move too: its partner), built once per variant into a
/// temporary folder that lives as long as the test process.
fn tables(variant: Variant) -> &'static Tables {
    static BUILT: OnceLock<(tempfile::TempDir, Vec<Tables>)> = OnceLock::new();
    let (_, all) = BUILT.get_or_init(|| {
        let dir = tempfile::tempdir().unwrap();
        let mut targets = Signature::all_up_to(3);
        targets.push(KKKVK);
        targets.push(KKMVK);
        let all = VARIANTS
            .iter()
            .map(|&v| build_signatures(dir.path(), v, &targets, &|_| {}).unwrap())
            .collect();
        (dir, all)
    });
    &all[VARIANTS.iter().position(|&v| v == variant).unwrap()]
}

/// Every position of `sig` in every layer, with its law state.
fn positions_of(laws: DrawLaws, sig: Signature) -> Vec<(Position, LawState)> {
    let mut out = Vec::new();
    for layer in 0..layers(laws, sig) {
        for i in 0..sig.positions() {
            if let Some(p) = sig.position(i) {
                let law = if layers(laws, sig) > 1 {
                    LawState::Count(layer)
                } else {
                    LawState::at_root(&laws, &p, None)
                };
                out.push((p, law));
            }
        }
    }
    out
}

#[test]
fn unmoves_are_exactly_the_forward_moves_that_stay() {
    for variant in VARIANTS {
        let laws = DrawLaws::for_variant(variant);
        let mut sigs = Signature::all_up_to(3);
        sigs.extend([KKKVK, KKKVK.swapped()]);
        sigs.push(Signature {
            white_men: 1,
            white_kings: 1,
            black_men: 1,
            black_kings: 1,
        });
        for sig in sigs {
            // Forward: every (position, child) edge that stays in the unit and its layer.
            let mut forward = Vec::new();
            for (p, law) in positions_of(laws, sig) {
                if matches!(law, LawState::Drawn(_)) {
                    continue;
                }
                for mv in p.legal_moves(variant) {
                    let child = p.play(&mv);
                    if !mv.is_capture()
                        && !mv.promotes()
                        && law.after(&laws, &child, Color::White) == law
                    {
                        forward.push((p, normalized(&child), law));
                    }
                }
            }
            // Backward: every predecessor of every position of the partner signature.
            let mut backward = Vec::new();
            for (c, law) in positions_of(laws, sig.swapped()) {
                predecessors(variant, &laws, &c, law, |p| backward.push((p, c, law)));
            }
            let bits = |p: &Position| {
                (
                    p.pieces(Color::White).0,
                    p.pieces(Color::Black).0,
                    p.kings(Color::White).0 | p.kings(Color::Black).0,
                )
            };
            let key = |e: &(Position, Position, LawState)| {
                let layer = match e.2 {
                    LawState::Count(n) => n + 1,
                    _ => 0,
                };
                (bits(&e.0), bits(&e.1), layer)
            };
            let mut f: Vec<_> = forward.iter().map(key).collect();
            let mut b: Vec<_> = backward.iter().map(key).collect();
            f.sort();
            b.sort();
            assert_eq!(f.len(), b.len(), "{variant} {sig}");
            assert!(
                f == b,
                "{variant} {sig}: un-moves differ from the forward moves"
            );
            let law_draws =
                laws.enabled && sig.kings_only() && sig.white_kings <= 2 && sig.black_kings <= 2;
            // In Tanzanian three kings against one, every move of the lone king changes the
            // count, so none stays in its layer.
            let lone_counts = layers(laws, sig) > 1 && sig.white_kings == 1;
            assert_eq!(f.is_empty(), law_draws || lone_counts, "{variant} {sig}");
        }
    }
}

/// The value of every position of at most three pieces (both sides to move), by an
/// exhaustive search of the game graph written without the tables' code: positions
/// enumerated square by square, moves and adjudication from `Game`, values found round by
/// round (a loss in 0 where there is no move; a win in `n` where a move leads to a loss in
/// `n − 1`; a loss in `n` where every move leads to a win found earlier).
fn exhaustive(variant: Variant) -> HashMap<Position, Value> {
    let mut all = Vec::new();
    let kinds = [
        (Color::White, false),
        (Color::White, true),
        (Color::Black, false),
        (Color::Black, true),
    ];
    for a in 0..32u32 {
        for b in a + 1..32 {
            for c in b..=32 {
                let squares: Vec<u32> = if c == 32 {
                    vec![a, b]
                } else if c > b {
                    vec![a, b, c]
                } else {
                    continue;
                };
                let n = squares.len() as u32;
                for kind_code in 0..4u32.pow(n) {
                    let (mut w, mut bl, mut k) = (0u32, 0u32, 0u32);
                    for (i, &sq) in squares.iter().enumerate() {
                        let (color, king) = kinds[(kind_code / 4u32.pow(i as u32) % 4) as usize];
                        match color {
                            Color::White => w |= 1 << sq,
                            Color::Black => bl |= 1 << sq,
                        }
                        if king {
                            k |= 1 << sq;
                        }
                    }
                    if w == 0 || bl == 0 {
                        continue;
                    }
                    for turn in [Color::White, Color::Black] {
                        if let Ok(p) =
                            Position::from_parts(Bitboard(w), Bitboard(bl), Bitboard(k), turn)
                        {
                            all.push(p);
                        }
                    }
                }
            }
        }
    }
    let index: HashMap<Position, usize> = all.iter().enumerate().map(|(i, p)| (*p, i)).collect();
    // What each position is: over (a loss now, or a law draw), or its children.
    enum Node {
        Over(Value),
        Moves(Vec<Result<usize, Value>>),
    }
    let nodes: Vec<Node> = all
        .iter()
        .map(|p| {
            let game = Game::new(*p, variant);
            match game.outcome() {
                Some(Outcome::Win(_)) => return Node::Over(Value::Loss(0)),
                Some(Outcome::Draw(_)) => return Node::Over(Value::Draw),
                None => {}
            }
            Node::Moves(
                p.legal_moves(variant)
                    .iter()
                    .map(|mv| {
                        let mut g = game.clone();
                        g.play(mv);
                        match g.outcome() {
                            Some(Outcome::Win(_)) => Err(Value::Loss(0)),
                            Some(Outcome::Draw(_)) => Err(Value::Draw),
                            None => Ok(index[g.position()]),
                        }
                    })
                    .collect(),
            )
        })
        .collect();
    let mut value: Vec<Option<Value>> = nodes
        .iter()
        .map(|n| match n {
            Node::Over(v) => Some(*v),
            Node::Moves(_) => None,
        })
        .collect();
    let mut round = 1;
    loop {
        let child = |c: &Result<usize, Value>, value: &[Option<Value>]| match c {
            Ok(i) => value[*i],
            Err(v) => Some(*v),
        };
        let mut found = Vec::new();
        for (i, node) in nodes.iter().enumerate() {
            let Node::Moves(children) = node else {
                continue;
            };
            if value[i].is_some() {
                continue;
            }
            let values: Vec<Option<Value>> = children.iter().map(|c| child(c, &value)).collect();
            if round % 2 == 1 && values.contains(&Some(Value::Loss(round - 1))) {
                found.push((i, Value::Win(round)));
            } else if round % 2 == 0 && values.iter().all(|v| matches!(v, Some(Value::Win(_)))) {
                found.push((i, Value::Loss(round)));
            }
        }
        if found.is_empty() && round > 2 {
            break;
        }
        for (i, v) in found {
            value[i] = Some(v);
        }
        round += 1;
    }
    all.into_iter()
        .zip(value)
        .map(|(p, v)| (p, v.unwrap_or(Value::Draw)))
        .collect()
}

#[test]
fn every_position_of_three_pieces_agrees_with_an_exhaustive_search() {
    for variant in VARIANTS {
        let tables = tables(variant);
        let truth = exhaustive(variant);
        // As many positions as the tables' indices hold, twice: the tables hold White to
        // move, and each position with Black to move is one of them turned.
        let indexed: usize = Signature::all_up_to(3)
            .iter()
            .map(|s| {
                (0..s.positions())
                    .filter(|&i| s.position(i).is_some())
                    .count()
            })
            .sum();
        assert_eq!(truth.len(), 2 * indexed);
        let mut wins = 0;
        for (p, v) in &truth {
            assert_eq!(tables.probe(p, None), Some(*v), "{variant} {p}");
            wins += usize::from(matches!(v, Value::Win(_)));
        }
        assert!(wins > 10_000, "{variant}: {wins} wins");
    }
}

#[test]
fn two_kings_against_one_is_a_draw_by_law_1_in_tanzanian_only() {
    let few = Signature {
        white_men: 0,
        white_kings: 2,
        black_men: 0,
        black_kings: 1,
    };
    let header = |v: Variant| {
        tables(v)
            .infos()
            .into_iter()
            .find(|i| i.header.signature == few)
            .unwrap()
            .header
    };
    assert_eq!(header(Variant::Tanzanian).wins, 0);
    assert_eq!(
        tables(Variant::Tanzanian).probe(&pos("W:WK1,K2:BK30"), None),
        Some(Value::Draw)
    );
    // The lone king on a1 must take b2 and land on c3-g7 (h8 blocks), where h8 takes it.
    let forced = pos("B:WKb2,Kh8:BKa1");
    assert_eq!(
        tables(Variant::Tanzanian).probe(&forced, None),
        Some(Value::Draw)
    );
    for v in [Variant::Russian, Variant::Czech] {
        assert_eq!(tables(v).probe(&forced, None), Some(Value::Loss(2)), "{v}");
        assert!(header(v).wins > 0, "{v}");
    }
}

#[test]
fn three_kings_with_the_main_diagonal_win_within_the_count() {
    let tz = tables(Variant::Tanzanian);
    let fen = "W:WKb8,Kd6,Ka1:BKg1";
    let p = pos(fen);
    // The engine's search (engine/src/tests.rs) finds a win in 7 that needs three lone-king
    // moves: with 8 made still a win, with 9 the count reaches 12 first.
    let mut engine = crate::Engine::new(Variant::Tanzanian, 4);
    let searched = engine.search(&p, &crate::Limits::depth(12), &[], |_| {});
    assert_eq!(tz.probe(&p, None).map(Value::score), Some(searched.score));
    assert_eq!(tz.probe(&p, None), Some(Value::Win(7)));
    assert_eq!(tz.probe(&p, Some(8)), Some(Value::Win(7)));
    assert_eq!(tz.probe(&p, Some(9)), Some(Value::Draw));
    assert_eq!(tz.probe(&p, Some(12)), Some(Value::Draw));
    // The line wins in a game that adjudicates the laws.
    let line = tz.line(&p, None, 100).unwrap();
    assert_eq!(line.len(), 7);
    let mut game = Game::new(p, Variant::Tanzanian);
    for mv in &line {
        game.play(mv);
    }
    assert_eq!(game.outcome(), Some(Outcome::Win(Color::White)));
    // Without the main diagonal when the material arises: a draw by law 2.
    let off = pos("W:WKc1,Ke1,Kg1:BKb8");
    assert_eq!(tz.probe(&off, None), Some(Value::Draw));
    // Czech and Russian have no such laws: the same positions are won, whatever the count.
    for v in [Variant::Czech, Variant::Russian] {
        let t = tables(v);
        assert!(
            matches!(t.probe(&p, None), Some(Value::Win(d)) if d <= 7),
            "{v}"
        );
        assert_eq!(t.probe(&p, Some(9)), t.probe(&p, None), "{v}");
        assert!(matches!(t.probe(&off, None), Some(Value::Win(_))), "{v}");
    }
}

#[test]
fn a_later_count_never_wins_more() {
    // Layer by layer: a position won with n lone-king moves made is won, no slower, with
    // fewer made.
    let tz = tables(Variant::Tanzanian);
    let (payload, per_layer, layers) = tz.raw(KKKVK).unwrap();
    assert_eq!(layers, 12);
    let mut wins_by_layer = vec![0; 12];
    for i in 0..per_layer as usize {
        for n in 0..11 {
            let (a, b) = (
                format::decode(payload[n * per_layer as usize + i]),
                format::decode(payload[(n + 1) * per_layer as usize + i]),
            );
            if let Some(Value::Win(later)) = b {
                assert!(
                    matches!(a, Some(Value::Win(d)) if d <= later),
                    "index {i} count {n}"
                );
            }
            wins_by_layer[n] += usize::from(matches!(a, Some(Value::Win(_))));
        }
    }
    assert!(wins_by_layer[0] > wins_by_layer[10], "{wins_by_layer:?}");
}

#[test]
fn every_built_table_verifies() {
    for variant in VARIANTS {
        let report = verify(tables(variant), &|_| {});
        assert!(report.ok(), "{variant}: {:?}", report.problems);
        assert!(report.tables >= 12 + 5, "{variant}: {}", report.tables);
        assert!(report.positions > 300_000);
    }
}

fn copy_tables(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        std::fs::copy(&p, to.join(p.file_name().unwrap())).unwrap();
    }
}

#[test]
fn a_corrupt_or_truncated_file_is_an_error_naming_it() {
    let src = tables(Variant::Russian).dir().to_path_buf();
    let root = tempfile::tempdir().unwrap();
    let dir = Tables::variant_dir(root.path(), Variant::Russian);
    copy_tables(&src, &dir);
    assert!(Tables::open(root.path(), Variant::Russian).is_ok());
    let file: PathBuf = dir.join("KMvK.egtb");
    let mut bytes = std::fs::read(&file).unwrap();
    let keep = bytes.clone();
    bytes[1000] ^= 0x10;
    std::fs::write(&file, &bytes).unwrap();
    let err = Tables::open(root.path(), Variant::Russian).err().unwrap();
    assert!(
        matches!(err, EgtbError::Corrupt { ref path, .. } if path == &file),
        "{err}"
    );
    assert!(
        err.to_string().contains("KMvK.egtb") && err.to_string().contains("checksum"),
        "{err}"
    );
    std::fs::write(&file, &keep[..keep.len() - 1]).unwrap();
    let err = Tables::open(root.path(), Variant::Russian).err().unwrap();
    assert!(
        err.to_string().contains("KMvK.egtb") && err.to_string().contains("cut short"),
        "{err}"
    );
    // A Russian table in the Tanzanian folder is refused.
    let tz = Tables::variant_dir(root.path(), Variant::Tanzanian);
    std::fs::create_dir_all(&tz).unwrap();
    std::fs::write(tz.join("KMvK.egtb"), &keep).unwrap();
    assert!(matches!(
        Tables::open(root.path(), Variant::Tanzanian),
        Err(EgtbError::WrongRules { .. })
    ));
}

/// `bytes` with its checksum made right again (a forged or carefully damaged file).
fn with_checksum(mut bytes: Vec<u8>) -> Vec<u8> {
    let mut hasher = crc32fast::Hasher::new();
    hasher.update(&bytes[..60]);
    hasher.update(&bytes[format::HEADER_LEN..]);
    let crc = hasher.finalize();
    bytes[60..64].copy_from_slice(&crc.to_le_bytes());
    bytes
}

#[test]
fn a_damaged_header_is_an_error_naming_the_file_whatever_the_byte() {
    let src = tables(Variant::Tanzanian).dir().to_path_buf();
    let keep = std::fs::read(src.join("KvK.egtb")).unwrap();
    let root = tempfile::tempdir().unwrap();
    let dir = Tables::variant_dir(root.path(), Variant::Tanzanian);
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("KvK.egtb");
    let open = |bytes: &[u8]| {
        std::fs::write(&file, bytes).unwrap();
        Tables::open(root.path(), Variant::Tanzanian)
    };
    // The reported case: the signature's first count set to 0xFE, whose u8 sum wrapped to a
    // 2-piece signature, then indexed a table of binomials out of bounds.
    let mut bytes = keep.clone();
    bytes[16] = 0xFE;
    let err = open(&bytes).err().unwrap();
    assert!(
        matches!(err, EgtbError::Corrupt { ref path, .. } if path == &file)
            && err.to_string().contains("corrupt endgame table")
            && err.to_string().contains("checksum"),
        "{err}"
    );
    let err = open(&with_checksum(bytes)).err().unwrap();
    assert!(
        matches!(err, EgtbError::Corrupt { .. }) && err.to_string().contains("signature"),
        "{err}"
    );
    // Every byte of the header set to a few values, with the checksum left or made right:
    // an error or a table, never a panic; the checksum left wrong is always an error.
    for at in 0..format::HEADER_LEN {
        for value in [0u8, 1, 2, 3, 12, 13, 0x7F, 0xFE, 0xFF] {
            let mut bytes = keep.clone();
            if bytes[at] == value {
                continue;
            }
            bytes[at] = value;
            let damaged = open(&bytes);
            if at < 60 {
                assert!(damaged.is_err(), "byte {at} = {value:#x}");
            }
            if let Err(e) = open(&with_checksum(bytes)) {
                assert!(e.to_string().contains("KvK.egtb"), "byte {at}: {e}");
            }
        }
    }
}

#[test]
fn a_missing_table_after_a_move_is_an_error_naming_it_not_the_end_of_the_game() {
    let src = tables(Variant::Tanzanian).dir().to_path_buf();
    let root = tempfile::tempdir().unwrap();
    let dir = Tables::variant_dir(root.path(), Variant::Tanzanian);
    copy_tables(&src, &dir);
    std::fs::remove_file(dir.join("MvKM.egtb")).unwrap();
    let partial = Tables::open(root.path(), Variant::Tanzanian).unwrap();
    // Its own table is there; every move leads into MvKM.
    let p = pos("W:W22,K10:B5");
    let full = tables(Variant::Tanzanian);
    assert_eq!(partial.probe(&p, None), full.probe(&p, None));
    let missing = Signature::from_name("MvKM").unwrap();
    assert!(matches!(
        partial.rank_moves(&p, None),
        Err(EgtbError::MissingTable(s)) if s == missing
    ));
    assert!(matches!(
        partial.line(&p, None, 10),
        Err(EgtbError::MissingTable(s)) if s == missing
    ));
    // With every table, the moves and the line are there.
    assert!(!full.rank_moves(&p, None).unwrap().is_empty());
    assert!(!full.line(&p, None, 10).unwrap().is_empty());
}

#[cfg(unix)]
#[test]
fn a_table_name_that_is_no_regular_file_is_an_error_naming_it() {
    let src = tables(Variant::Russian).dir().to_path_buf();
    // (file name, how to make it, what the error says it is)
    type Kind<'a> = (&'a str, &'a dyn Fn(&Path), &'a str);
    let kinds: [Kind; 3] = [
        (
            "KKvKK.egtb",
            &|p| std::fs::create_dir(p).unwrap(),
            "it is a folder",
        ),
        (
            "KvK.egtb",
            &|p| {
                std::fs::remove_file(p).unwrap();
                std::os::unix::fs::symlink("/dev/null", p).unwrap();
            },
            "it is a device",
        ),
        (
            "stray.egtb",
            // Opened, a FIFO would block until something writes to it.
            &|p| {
                let made = std::process::Command::new("mkfifo").arg(p).status();
                assert!(made.unwrap().success());
            },
            "it is a FIFO",
        ),
    ];
    for (name, make, what) in kinds {
        let root = tempfile::tempdir().unwrap();
        let dir = Tables::variant_dir(root.path(), Variant::Russian);
        copy_tables(&src, &dir);
        let path = dir.join(name);
        make(&path);
        let err = Tables::open(root.path(), Variant::Russian).err().unwrap();
        assert!(
            matches!(err, EgtbError::NotAFile { ref path, .. } if path == &dir.join(name)),
            "{err}"
        );
        assert_eq!(
            err.to_string(),
            format!(
                "{}: not an endgame table: {what} (tables are regular files)",
                path.display()
            )
        );
    }
}

#[test]
fn small_tables_are_read_into_memory_so_a_file_written_over_cannot_fault() {
    let src = tables(Variant::Czech).dir().to_path_buf();
    let root = tempfile::tempdir().unwrap();
    let dir = Tables::variant_dir(root.path(), Variant::Czech);
    copy_tables(&src, &dir);
    let opened = Tables::open(root.path(), Variant::Czech).unwrap();
    let full = tables(Variant::Czech);
    let probes: Vec<Position> = [
        "W:WK1,22:BK30",
        "W:W22,K10:B5",
        "B:WK1:BK30,5",
        "W:W22:B5,6",
    ]
    .iter()
    .map(|f| pos(f))
    .collect();
    // Every file written over in place (cut to nothing, then refilled with other bytes):
    // with the tables mapped, the next probe would die of SIGBUS.
    for e in std::fs::read_dir(&dir).unwrap() {
        let path = e.unwrap().path();
        assert!(!format::TableFile::open(&path).unwrap().is_mapped());
        std::fs::write(&path, b"written over").unwrap();
    }
    for p in &probes {
        assert_eq!(opened.probe(p, None), full.probe(p, None), "{p}");
        assert!(opened.probe(p, None).is_some(), "{p}");
    }
    // A file above the limit is mapped; its checks are the same.
    let big = dir.join("KKvKKK.egtb");
    let file = std::fs::File::create(&big).unwrap();
    file.set_len(format::LOAD_LIMIT + 1).unwrap();
    drop(file);
    assert!(matches!(
        format::TableFile::open(&big),
        Err(EgtbError::Corrupt { .. })
    ));
}

#[test]
fn a_build_resumes_by_signature() {
    let root = tempfile::tempdir().unwrap();
    let count = |events: &std::sync::Mutex<Vec<BuildEvent>>| {
        let e = events.lock().unwrap();
        let built = e
            .iter()
            .filter(|e| matches!(e, BuildEvent::Built { .. }))
            .count();
        let kept = e
            .iter()
            .filter(|e| matches!(e, BuildEvent::Kept { .. }))
            .count();
        (built, kept)
    };
    let run = || {
        let events = std::sync::Mutex::new(Vec::new());
        build(root.path(), Variant::Czech, 3, &|e| {
            events.lock().unwrap().push(e)
        })
        .unwrap();
        count(&events)
    };
    assert_eq!(run(), (16, 0));
    assert_eq!(run(), (0, 16));
    // One table of a pair gone and an interrupted write left behind: that pair is rebuilt,
    // the rest kept, and the result is the same.
    let dir = Tables::variant_dir(root.path(), Variant::Czech);
    let before = std::fs::read(dir.join("KvM.egtb")).unwrap();
    std::fs::remove_file(dir.join("KvM.egtb")).unwrap();
    std::fs::write(dir.join("MvK.egtb.tmp"), b"half").unwrap();
    assert_eq!(run(), (2, 14));
    assert_eq!(std::fs::read(dir.join("KvM.egtb")).unwrap(), before);
    assert!(!dir.join("MvK.egtb.tmp").exists());
}

#[test]
fn the_build_does_not_depend_on_the_thread_count() {
    let one = tempfile::tempdir().unwrap();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .unwrap();
    pool.install(|| build_signatures(one.path(), Variant::Tanzanian, &[KKKVK], &|_| {}).unwrap());
    let many = tables(Variant::Tanzanian);
    for name in ["KKKvK.egtb", "KvKKK.egtb", "KvKK.egtb"] {
        let a =
            std::fs::read(Tables::variant_dir(one.path(), Variant::Tanzanian).join(name)).unwrap();
        let b = std::fs::read(many.dir().join(name)).unwrap();
        assert!(a == b, "{name}");
    }
}

/// Won positions of the small tables, a sample of each signature: the engine, with the
/// tables, plays the winner at a shallow depth; the loser plays the table's best defence
/// (the slowest loss); a `Game` adjudicates. Every game is won, in exactly the table's
/// distance.
#[test]
fn the_engine_with_tables_wins_every_table_win_against_the_best_defence() {
    for variant in VARIANTS {
        let tables = tables(variant);
        let shared =
            std::sync::Arc::new(Tables::open(tables.dir().parent().unwrap(), variant).unwrap());
        let mut engine = crate::Engine::new(variant, 1);
        engine.set_tables(Some(shared)).unwrap();
        let mut played = 0;
        for info in tables.infos() {
            let sig = info.header.signature;
            let mut wins = (0..sig.positions())
                .filter_map(|i| sig.position(i))
                .filter(|p| matches!(tables.probe(p, None), Some(Value::Win(_))));
            for p in wins.by_ref().step_by(97).take(25) {
                let Some(Value::Win(d)) = tables.probe(&p, None) else {
                    unreachable!()
                };
                let mut game = Game::new(p, variant);
                let mut plies = 0;
                while game.outcome().is_none() && plies < 2 * d {
                    let here = *game.position();
                    let count = game.king_count();
                    let mv = if here.turn() == p.turn() {
                        let limits = crate::Limits {
                            king_count: count,
                            ..crate::Limits::depth(2)
                        };
                        engine.search(&here, &limits, &[], |_| {}).best.unwrap()
                    } else {
                        tables.rank_moves(&here, count).unwrap()[0].0
                    };
                    game.play(&mv);
                    plies += 1;
                }
                assert_eq!(
                    game.outcome(),
                    Some(Outcome::Win(p.turn())),
                    "{variant} {p}"
                );
                assert_eq!(plies, d, "{variant} {p}");
                played += 1;
            }
        }
        assert!(played > 100, "{variant}: {played}");
    }
}

/// Drawn positions of the small tables: the engine plays the side to move against the
/// table's best moves for 30 plies; the position stays a table draw (or a law draw).
#[test]
fn the_engine_with_tables_never_loses_a_table_draw() {
    for variant in VARIANTS {
        let tables = tables(variant);
        let shared =
            std::sync::Arc::new(Tables::open(tables.dir().parent().unwrap(), variant).unwrap());
        let mut engine = crate::Engine::new(variant, 1);
        engine.set_tables(Some(shared)).unwrap();
        let mut played = 0;
        for info in tables.infos() {
            let sig = info.header.signature;
            if sig.kings_only() && sig.pieces() <= 3 && variant == Variant::Tanzanian {
                continue;
            }
            let draws = (0..sig.positions())
                .filter_map(|i| sig.position(i))
                .filter(|p| tables.probe(p, None) == Some(Value::Draw));
            for p in draws.step_by(53).take(10) {
                let mut game = Game::new(p, variant);
                for _ in 0..30 {
                    if game.outcome().is_some() {
                        break;
                    }
                    let here = *game.position();
                    let count = game.king_count();
                    let mv = if here.turn() == p.turn() {
                        let limits = crate::Limits {
                            king_count: count,
                            ..crate::Limits::depth(2)
                        };
                        engine.search(&here, &limits, &[], |_| {}).best.unwrap()
                    } else {
                        tables.rank_moves(&here, count).unwrap()[0].0
                    };
                    game.play(&mv);
                    let v = tables.probe(game.position(), game.king_count()).unwrap();
                    assert_eq!(v, Value::Draw, "{variant} {p}: after {mv:?}");
                }
                assert!(!matches!(game.outcome(), Some(Outcome::Win(c)) if c != p.turn()));
                played += 1;
            }
        }
        assert!(played > 30, "{variant}: {played}");
    }
}

#[test]
fn tables_of_other_rules_are_refused_by_the_engine() {
    let russian = std::sync::Arc::new(
        Tables::open(
            tables(Variant::Russian).dir().parent().unwrap(),
            Variant::Russian,
        )
        .unwrap(),
    );
    let mut engine = crate::Engine::new(Variant::Tanzanian, 1);
    assert!(matches!(
        engine.set_tables(Some(russian)),
        Err(EgtbError::WrongRules { .. })
    ));
}

#[test]
fn law3_the_lone_side_claims_in_the_tables() {
    let tz = tables(Variant::Tanzanian);
    // Won in 3 without law 3 (the version-1 tables said so; the engine's search without
    // the claim finds it, engine/src/tests.rs): with it a draw, every move drawn.
    let p = pos("W:W5,K15,K19:BK1");
    assert_eq!(tz.probe(&p, None), Some(Value::Draw));
    assert!(tz
        .rank_moves(&p, None)
        .unwrap()
        .iter()
        .all(|(_, v)| *v == Value::Draw));
    // The lone king to move: every move loses in 2, the claim draws (it then takes a king,
    // and law 1 draws); the line stops at the claim.
    let lone = pos("W:WK2:B1,K11,K20");
    assert_eq!(tz.probe(&lone, None), Some(Value::Draw));
    assert_eq!(tz.claim_value(&lone), Some(Value::Draw));
    let moves = tz.rank_moves(&lone, None).unwrap();
    assert!(moves.iter().all(|(_, v)| *v == Value::Loss(2)), "{moves:?}");
    assert_eq!(
        tz.line(&lone, None, 20).unwrap(),
        Vec::<drafti_rules::Move>::new()
    );
    // The search with the tables agrees.
    let mut engine = crate::Engine::new(Variant::Tanzanian, 4);
    engine
        .set_tables(Some(std::sync::Arc::new(
            Tables::open(tz.dir().parent().unwrap(), Variant::Tanzanian).unwrap(),
        )))
        .unwrap();
    let result = engine.search(&p, &crate::Limits::depth(6), &[], |_| {});
    assert_eq!(result.score, crate::Score::DRAW);
    let result = engine.search(&lone, &crate::Limits::depth(6), &[], |_| {});
    assert_eq!(result.claim, Some(crate::Score::DRAW));
    assert_eq!(result.score, crate::Score::DRAW);
    // Czech and Russian have no such law: the claim does not exist.
    for v in [Variant::Czech, Variant::Russian] {
        assert_eq!(tables(v).claim_value(&lone), None, "{v}");
        assert_eq!(tables(v).probe(&lone, None), Some(Value::Loss(2)), "{v}");
    }
}

#[test]
fn law3_where_the_claim_does_not_help_the_win_stays() {
    let tz = tables(Variant::Tanzanian);
    // The king on f6 holds the diagonal and Black may claim at every move: still a win in
    // 9, and the line wins in a game.
    let p = pos("W:WK11,K24,32:BK9");
    assert_eq!(tz.probe(&p, None), Some(Value::Win(9)));
    let line = tz.line(&p, None, 100).unwrap();
    assert_eq!(line.len(), 9);
    let mut game = Game::new(p, Variant::Tanzanian);
    for mv in &line {
        game.play(mv);
    }
    assert_eq!(game.outcome(), Some(Outcome::Win(Color::White)));
    // A lone king to move whose claim loses as fast as its moves.
    let lone = pos("W:WK4:B1,K11,K15");
    assert_eq!(tz.claim_value(&lone), Some(Value::Loss(2)));
    assert_eq!(tz.probe(&lone, None), Some(Value::Loss(2)));
    // No king on the main diagonal (kings on e3 and f2): no claim, a loss in 2.
    let off = pos("W:WK5:B1,K23,K27");
    assert_eq!(tz.claim_value(&off), None);
    assert_eq!(tz.probe(&off, None), Some(Value::Loss(2)));
}

#[test]
fn law3_tanzanian_tables_of_version_1_are_refused_others_read() {
    let root = tempfile::tempdir().unwrap();
    for variant in [Variant::Tanzanian, Variant::Czech] {
        let dir = Tables::variant_dir(root.path(), variant);
        copy_tables(tables(variant).dir(), &dir);
        // Version 1 in the header, as such a table has it (its checksum made right).
        for e in std::fs::read_dir(&dir).unwrap() {
            let path = e.unwrap().path();
            let mut bytes = std::fs::read(&path).unwrap();
            bytes[8..12].copy_from_slice(&1u32.to_le_bytes());
            std::fs::write(&path, with_checksum(bytes)).unwrap();
        }
    }
    let err = Tables::open(root.path(), Variant::Tanzanian).err().unwrap();
    assert!(matches!(err, EgtbError::WrongRules { .. }), "{err}");
    let text = err.to_string();
    assert!(
        text.contains("a Tanzanian table of format version 1, built without law 3")
            && text.contains("remove the Tanzanian tables and build them again"),
        "{text}"
    );
    // Czech tables of version 1 hold the same values: read.
    assert!(Tables::open(root.path(), Variant::Czech).is_ok());
}

#[test]
fn a_raised_stop_flag_ends_a_build_and_a_later_build_finishes_it() {
    let dir = tempfile::tempdir().unwrap();
    let stop = crate::StopFlag::new();
    // Stopped at the second table: the first is on disk, and the error says stopped.
    let events = std::sync::atomic::AtomicUsize::new(0);
    let on_event = |e: BuildEvent| {
        if let BuildEvent::Built { .. } = e {
            if events.fetch_add(1, std::sync::atomic::Ordering::Relaxed) == 0 {
                stop.raise();
            }
        }
    };
    let err = build_until(dir.path(), Variant::Tanzanian, 3, &on_event, &stop).err();
    assert!(matches!(err, Some(EgtbError::Stopped)), "{err:?}");
    let kept = std::fs::read_dir(Tables::variant_dir(dir.path(), Variant::Tanzanian))
        .unwrap()
        .count();
    assert!(kept >= 1, "the table finished before the stop stays");
    stop.lower();
    let whole = build_until(dir.path(), Variant::Tanzanian, 3, &|_| {}, &stop).unwrap();
    let fresh = tempfile::tempdir().unwrap();
    let all = build(fresh.path(), Variant::Tanzanian, 3, &|_| {}).unwrap();
    assert_eq!(whole.len(), all.len());
}

#[test]
fn tzdrafts_reading_has_no_tables_to_build_or_open() {
    let root = tempfile::tempdir().unwrap();
    assert!(matches!(
        build(root.path(), Variant::TzDraft, 2, &|_| {}),
        Err(EgtbError::NoTablesForRules(Variant::TzDraft))
    ));
    // Not even a Tanzanian folder copied under its name is read.
    build(root.path(), Variant::Tanzanian, 2, &|_| {}).unwrap();
    std::fs::rename(
        Tables::variant_dir(root.path(), Variant::Tanzanian),
        Tables::variant_dir(root.path(), Variant::TzDraft),
    )
    .unwrap();
    assert!(matches!(
        Tables::open(root.path(), Variant::TzDraft),
        Err(EgtbError::NoTablesForRules(Variant::TzDraft))
    ));
}
