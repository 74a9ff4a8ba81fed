//! find against a replay of every game (what it must find, and where), and twins on an
//! archive made with known repeats.

mod common;

use common::{build, fixture, RUSSIAN};
use drafti_archive::replay::{replay, ReplayOptions};
use drafti_db::{
    find, twins, Books, BuildOptions, Filters, GameFilter, InGame, Index, Match, MaterialQuery,
    Pattern, PositionQuery, Twin, TwinKind,
};
use drafti_pdn::{parse_games, write_game, GameRecord, GameResult, ResultToken};
use drafti_rules::{Position, Variant};

fn russian_games() -> Vec<Vec<Position>> {
    let options = ReplayOptions {
        variant_override: Some(Variant::Russian),
        variations: false,
        ..ReplayOptions::default()
    };
    let mut out = Vec::new();
    for f in RUSSIAN {
        for g in parse_games(&std::fs::read(fixture(f)).unwrap()) {
            out.push(g.map(|r| replay(r, &options).positions).unwrap_or_default());
        }
    }
    out
}

fn found(index: &Index, filter: &GameFilter, inside: InGame) -> Vec<Match> {
    let mut out = Vec::new();
    find(index, filter, &inside, |m| {
        out.push(m);
        true
    })
    .unwrap();
    out
}

#[test]
fn find_agrees_with_a_replay_of_every_game() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.idx");
    build(
        &RUSSIAN,
        &[],
        Variant::Russian,
        BuildOptions::default(),
        &path,
    );
    let index = Index::open(&path).unwrap();
    let books = Books::shipped().unwrap();
    let all = GameFilter::new(&index, &books, &Filters::default())
        .unwrap()
        .unwrap();
    let games = russian_games();
    let expect = |test: &dyn Fn(&Position, usize) -> bool| -> Vec<Match> {
        games
            .iter()
            .enumerate()
            .filter_map(|(id, positions)| {
                positions
                    .iter()
                    .enumerate()
                    .position(|(ply, p)| test(p, ply))
                    .map(|ply| Match {
                        id: id as u64,
                        ply: Some(ply),
                        position: Some(positions[ply]),
                    })
            })
            .collect()
    };
    let mut total = 0;
    for text in [
        "xk=3 xm=0 yk=1 ym=0",
        "xk>=2 yk>=1",
        "ply>30 xp>=yp+1",
        "wk>=1 bk>=1",
        "xp>=yp+3",
        "xh=0 ply<=40",
        "wp=bp ply=60",
        "bk=1 bm=0 wp>=3",
    ] {
        let q = MaterialQuery::parse(text).unwrap();
        let want = expect(&|p, ply| q.holds(p, ply));
        total += want.len();
        let got = found(
            &index,
            &all,
            InGame {
                material: Some(q),
                ..InGame::default()
            },
        );
        assert_eq!(got, want, "{text}");
    }
    assert!(total > 100, "{total}");
    let pattern = Pattern::parse("W:Kc3 B:f6").unwrap();
    let want = expect(&|p, _| pattern.matches(p));
    assert!(!want.is_empty());
    assert_eq!(
        found(
            &index,
            &all,
            InGame {
                pattern: Some(pattern),
                ..InGame::default()
            }
        ),
        want
    );
    // A position of game 7 at ply 20, found wherever it is reached.
    let target = games[7][20];
    let want = expect(&|p, _| *p == target);
    assert!(want.iter().any(|m| m.id == 7));
    let got = found(
        &index,
        &all,
        InGame {
            position: Some(PositionQuery { position: target }),
            ..InGame::default()
        },
    );
    assert_eq!(got, want);
    // Tags only: every game of a player.
    let filters = Filters {
        player: Some("абациев".into()),
        ..Filters::default()
    };
    let player = GameFilter::new(&index, &books, &filters).unwrap().unwrap();
    let got = found(&index, &player, InGame::default());
    assert_eq!(got.len(), 56, "every game of the Abatsiev file has him");
    assert!(got.iter().all(|m| m.id >= 153 && m.ply.is_none()));
}

/// A game's text with only its first `plies` moves (and no result).
fn cut(record: &GameRecord, plies: usize) -> String {
    let mut r = record.clone();
    r.moves.nodes.truncate(plies);
    r.result = Some(ResultToken::new(GameResult::Unknown));
    r.set_tag("Result", "*");
    write_game(&r)
}

#[test]
fn twins_finds_every_copy_and_every_game_cut_short_and_nothing_else() {
    let source = std::fs::read_to_string(fixture(RUSSIAN[0])).unwrap();
    let records: Vec<GameRecord> = parse_games(source.as_bytes())
        .into_iter()
        .map(|g| g.unwrap())
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let books = Books::shipped().unwrap();
    let twins_of = |texts: &[(&str, &str)]| -> Vec<Twin> {
        let path = dir.path().join("t.idx");
        build(&[], texts, Variant::Russian, BuildOptions::default(), &path);
        let index = Index::open(&path).unwrap();
        let all = GameFilter::new(&index, &books, &Filters::default())
            .unwrap()
            .unwrap();
        twins(&index, &all, 10).unwrap()
    };
    assert_eq!(
        twins_of(&[("ussr", &source)]),
        [],
        "the championship has no repeated game"
    );
    // The archive again with: game 5 copied twice (with other tags), game 30 cut at ply 20,
    // game 40 cut at ply 12, and game 41 cut at ply 9 (shorter than --min-plies 10).
    let mut copy = records[5].clone();
    copy.set_tag("Event", "a best-games file");
    let extra = [
        write_game(&records[5]),
        write_game(&copy),
        cut(&records[30], 20),
        cut(&records[40], 12),
        cut(&records[41], 9),
    ]
    .join("\n");
    let found = twins_of(&[("ussr", &source), ("more", &extra)]);
    let n = records.len() as u64;
    // The first 12 plies of game 40 are also those of game 12: contained in either.
    let of_40 = found.get(3).map_or(40, |t| t.of);
    assert!(of_40 == 40 || of_40 == 12, "{of_40}");
    let expected = [
        Twin {
            id: n,
            of: 5,
            kind: TwinKind::Identical,
        },
        Twin {
            id: n + 1,
            of: 5,
            kind: TwinKind::Identical,
        },
        Twin {
            id: n + 2,
            of: 30,
            kind: TwinKind::Contained,
        },
        Twin {
            id: n + 3,
            of: of_40,
            kind: TwinKind::Contained,
        },
    ];
    assert_eq!(found, expected);
    // A cut copy of a game that is itself copied is contained in the first of the copies.
    let extra = [cut(&records[5], 15), write_game(&records[5])].join("\n");
    let found = twins_of(&[("ussr", &source), ("more", &extra)]);
    assert_eq!(
        found,
        [
            Twin {
                id: n,
                of: 5,
                kind: TwinKind::Contained
            },
            Twin {
                id: n + 1,
                of: 5,
                kind: TwinKind::Identical
            }
        ]
    );
}
