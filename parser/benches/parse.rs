//! Parse throughput on a large generated archive: split + parse every game to the AST,
//! single-threaded. `cargo bench -p drafti-pdn --bench parse`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use drafti_pdn::{parse_game, write_games, GameReader, GameSplitter};

// The allocator of the drafti binary (cli/), so the figures are the binary's.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Games in the generated archive.
pub const GAMES: usize = 100_000;

/// A real-looking Tanzanian game: seven-tag roster, 36 moves with captures, a comment, a
/// NAG and a variation, CRLF line ends.
const TEMPLATE: &str = "[Event \"Dar es Salaam Open\"]\r\n[Site \"Dar es Salaam\"]\r\n\
[Date \"2024.03.02\"]\r\n[Round \"ROUND\"]\r\n[White \"Juma Mwinyi\"]\r\n[Black \"Neema Said\"]\r\n\
[Result \"1-0\"]\r\n[GameType \"TZ\"]\r\n\r\n\
1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. a3-b4 b6-a5 4. d4-c5 d6xb4 5. a5xc3 {the usual} e7-d6 \r\n\
6. c3-b4 h8-g7 7. g3-h4 g5xe3 8. f2xd4 f6-g5 9. h4xf6 g7xe5 10. d4xf6 $1 e7xg5 \r\n\
11. e1-f2 d8-e7 12. b4-a5 (12. d2-c3 c7-b6) c7-b6 13. a5xc7 b8xd6 14. d2-c3 g5-f4 \r\n\
15. c3-d4 a7-b6 16. c1-d2 b6-a5 17. d2-e3 f4xd2 18. c1xe3 h6-g5 19. e3-f4 g5xe3 \r\n\
20. f2xd4 a5-b4 21. g1-f2 b4-a3 22. f2-e3 e7-f6 23. d4-e5 f6xd4 24. e3xc5 d6xb4 \r\n\
25. h2-g3 b4-c3 26. g3-f4 c3-d2 27. f4-e5 d2-c1 28. e5-d6 c1-a3 29. d6-c7 a3-b4 \r\n\
30. c7-b8 b4-a5 31. b8-e5 a5-b6 32. e5-d4 b6-a7 33. d4-b6 a7xc5 34. h4-g5 c5-d4 \r\n\
35. g5-h6 d4-e3 36. h6-g7 1-0\r\n\r\n";

/// The archive: `games` copies of the template with their own round numbers.
pub fn archive(games: usize) -> Vec<u8> {
    let mut out = String::with_capacity(games * TEMPLATE.len());
    for i in 0..games {
        out.push_str(&TEMPLATE.replace("ROUND", &(i + 1).to_string()));
    }
    out.into_bytes()
}

fn bench(c: &mut Criterion) {
    let data = archive(GAMES);
    let mut group = c.benchmark_group("pdn");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.sample_size(10);
    group.bench_function("split_and_parse_100k_games", |b| {
        b.iter(|| {
            let mut moves = 0;
            for game in GameReader::new(black_box(&data[..])) {
                moves += game.unwrap().moves.nodes.len();
            }
            assert_eq!(moves, GAMES * 71);
        })
    });
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
