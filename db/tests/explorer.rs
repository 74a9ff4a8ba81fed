//! The explorer against `drafti openings`' statistics (a differential test on the master
//! corpora's games), and the positions a single game reaches found from the games.

mod common;

use common::{batch, build, fixture, CZECH, RUSSIAN};
use drafti_archive::batch::{run_games, Input};
use drafti_archive::openings::{Book, OpeningStats, RowKind, Tally, CLASSIFY_PLIES};
use drafti_db::{
    explore, Books, BuildOptions, ExploreQuery, Filters, Found, GameFilter, Index, ShardSpec,
};
use drafti_rules::{Color, Position, Variant};
use std::collections::BTreeMap;
use std::io::BufReader;

/// `drafti openings --plies 40`'s tree, summed by position: what its rows count per FEN.
fn openings_tree(files: &[&str], variant: Variant) -> BTreeMap<String, Tally> {
    let book = Book::new();
    let mut stats = OpeningStats::new(&book, CLASSIFY_PLIES);
    let inputs = files
        .iter()
        .map(|f| {
            Input::new(
                *f,
                Box::new(BufReader::new(std::fs::File::open(fixture(f)).unwrap())),
            )
        })
        .collect();
    let mut options = batch(variant, 2);
    options.replay.max_plies = Some(CLASSIFY_PLIES);
    run_games(
        inputs,
        &options,
        |_| {},
        |job| {
            job.game.ok().map(|g| {
                (
                    g.positions[..g.positions.len().min(CLASSIFY_PLIES + 1)].to_vec(),
                    g.first_mover,
                    g.played_result(),
                    g.record.moves.nodes.len(),
                )
            })
        },
        |g| -> Result<(), ()> {
            if let Some((positions, first, result, plies)) = g {
                stats.add_game(&positions, first, result, plies);
            }
            Ok(())
        },
    )
    .unwrap();
    let mut by_fen: BTreeMap<String, Tally> = BTreeMap::new();
    for row in stats
        .rows(1)
        .into_iter()
        .filter(|r| r.kind == RowKind::Tree)
    {
        by_fen.entry(row.fen.clone()).or_default().merge(&row.tally);
    }
    by_fen
}

fn counts(t: &Tally) -> [u64; 7] {
    [
        t.games,
        t.white_wins,
        t.draws,
        t.black_wins,
        t.unknown,
        t.first_mover_wins,
        t.second_mover_wins,
    ]
}

fn check_against_openings(
    files: &[&str],
    variant: Variant,
    options: BuildOptions,
) -> (usize, usize) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.idx");
    build(files, &[], variant, options, &path);
    let index = Index::open(&path).unwrap();
    let books = Books::shipped().unwrap();
    let filter = GameFilter::new(&index, &books, &Filters::default())
        .unwrap()
        .unwrap();
    let tree = openings_tree(files, variant);
    assert!(tree.len() > 1000, "{} positions", tree.len());
    let mut from_games = 0;
    for (fen, tally) in &tree {
        let position = Position::from_fen(fen).unwrap();
        let query = ExploreQuery {
            line: vec![position],
            variant,
            filter: &filter,
            max_games: 3,
        };
        let seen = explore(&index, &books, &query).unwrap();
        assert_eq!(counts(&seen.stats.tally), counts(tally), "{fen}");
        let by_move: u64 = seen.moves.iter().map(|m| m.stats.tally.games).sum();
        assert_eq!(by_move, tally.games, "{fen}: the moves hold every game");
        from_games += usize::from(seen.found != Found::Index);
    }
    (tree.len(), from_games)
}

#[test]
fn the_explorers_counts_equal_the_openings_tree_on_the_russian_corpora() {
    let (positions, from_games) =
        check_against_openings(&RUSSIAN, Variant::Russian, BuildOptions::default());
    // Most positions of the first 40 plies are reached by a single game: found from the games.
    assert!(from_games > positions / 2, "{from_games} of {positions}");
}

#[test]
fn per_move_totals_give_the_counts_the_records_give() {
    // Every position of two games or more carries its moves' totals in one index, none in
    // the other: every answer is the same, and the same as the openings tree's.
    let options = BuildOptions {
        totals_min_games: 2,
        ..BuildOptions::default()
    };
    check_against_openings(&RUSSIAN, Variant::Russian, options.clone());
    let dir = tempfile::tempdir().unwrap();
    let (with, without) = (dir.path().join("with.idx"), dir.path().join("without.idx"));
    build(&RUSSIAN, &[], Variant::Russian, options, &with);
    let none = BuildOptions {
        totals_min_games: u64::MAX,
        ..BuildOptions::default()
    };
    build(&RUSSIAN, &[], Variant::Russian, none, &without);
    let (with, without) = (Index::open(&with).unwrap(), Index::open(&without).unwrap());
    let books = Books::shipped().unwrap();
    let all = GameFilter::new(&with, &books, &Filters::default())
        .unwrap()
        .unwrap();
    let wins = Filters {
        result: Some(drafti_db::Outcome::WhiteWin),
        ..Filters::default()
    };
    let wins = GameFilter::new(&with, &books, &wins).unwrap().unwrap();
    let mut positions = 0;
    for group in with.groups() {
        let group = group.unwrap();
        let (_, totals) = with.lookup_totals(group.key, Some(1)).unwrap().unwrap();
        assert_eq!(totals.map(|t| t.len()), Some(group.moves.len()));
        let (_, none) = without.lookup_totals(group.key, Some(1)).unwrap().unwrap();
        assert!(none.is_none());
        let (position, variant) = group.key.position().unwrap();
        for (filter, max_games) in [(&all, 0), (&all, 1), (&all, 50), (&wins, 3)] {
            let query = ExploreQuery {
                line: vec![position],
                variant,
                filter,
                max_games,
            };
            let a = explore(&with, &books, &query).unwrap();
            let b = explore(&without, &books, &query).unwrap();
            assert_eq!(a.stats, b.stats);
            assert_eq!(a.moves.len(), b.moves.len());
            for (x, y) in a.moves.iter().zip(&b.moves) {
                assert_eq!((x.mv, x.stats, &x.games), (y.mv, y.stats, &y.games));
            }
        }
        positions += 1;
    }
    assert!(positions > 500, "{positions} positions");
}

#[test]
fn the_explorers_counts_equal_the_openings_tree_on_the_czech_corpora_from_a_part() {
    // A part keeps the single-game positions: every position is in the index.
    let part = BuildOptions {
        shard: Some(ShardSpec { index: 1, count: 1 }),
        single_game_positions: true,
        ..BuildOptions::default()
    };
    let (_, from_games) = check_against_openings(&CZECH, Variant::Czech, part);
    assert_eq!(from_games, 0);
}

#[test]
fn a_line_into_positions_of_one_game_is_followed_through_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.idx");
    build(
        &RUSSIAN[..1],
        &[],
        Variant::Russian,
        BuildOptions::default(),
        &path,
    );
    let index = Index::open(&path).unwrap();
    let books = Books::shipped().unwrap();
    let filter = GameFilter::new(&index, &books, &Filters::default())
        .unwrap()
        .unwrap();
    // The first game of the file: 1. c3-d4 d6-e5 2. b2-c3 e7-d6 3. e3-f4 b6-a5 ...
    let mut line = vec![Position::start(Color::White)];
    let mut followed = 0;
    index
        .replay(0, |ply, pos, mv| {
            if ply > 0 {
                line.push(*pos);
            }
            let _ = mv;
            ply < 40
        })
        .unwrap();
    for end in 1..line.len() {
        let query = ExploreQuery {
            line: line[..=end].to_vec(),
            variant: Variant::Russian,
            filter: &filter,
            max_games: 5,
        };
        let seen = explore(&index, &books, &query).unwrap();
        assert!(seen.stats.tally.games >= 1, "ply {end}");
        if seen.found == Found::Line {
            followed += 1;
            assert_eq!(seen.moves.len(), 1);
            assert_eq!(seen.moves[0].games, [0]);
        }
    }
    assert!(followed > 20, "{followed}");
    // The named opening of the first game's sixth position: Perekryostok after 2...ed6.
    let query = ExploreQuery {
        line: line[..5].to_vec(),
        variant: Variant::Russian,
        filter: &filter,
        max_games: 5,
    };
    let seen = explore(&index, &books, &query).unwrap();
    assert_eq!(seen.names[0].1, "PER");
}

#[test]
fn the_book_names_the_games_the_published_collection_tags_with_those_names() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x.idx");
    build(
        &RUSSIAN[1..],
        &[],
        Variant::Russian,
        BuildOptions::default(),
        &path,
    );
    let index = Index::open(&path).unwrap();
    let books = Books::shipped().unwrap();
    let code = |id: u64| {
        let r = index.record(id).unwrap();
        books
            .openings
            .entries()
            .get(r.opening as usize)
            .map(|e| e.code.as_str())
    };
    // Games 8, 27, 9 and 32 of the file (ids from 0), as russian-openings.tsv cites them.
    assert_eq!(
        [code(7), code(26), code(8), code(31)],
        [Some("GOR"), Some("BOD"), Some("PER"), Some("PER")]
    );
}
