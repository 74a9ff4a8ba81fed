#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let data = std::fs::read(path).unwrap();
    if std::env::args().nth(2).as_deref() == Some("split") {
        for _ in 0..20 {
            std::hint::black_box(drafti_pdn::GameSplitter::new(&data[..]).count());
        }
        return;
    }
    if std::env::args().nth(2).as_deref() == Some("parse") {
        for _ in 0..5 {
            let mut m = 0;
            for g in drafti_pdn::GameReader::new(&data[..]) {
                m += g.unwrap().moves.nodes.len();
            }
            std::hint::black_box(m);
        }
        return;
    }
    let mut best = f64::MAX;
    let mut best_split = f64::MAX;
    for _ in 0..7 {
        let t = std::time::Instant::now();
        let mut moves = 0;
        for g in drafti_pdn::GameReader::new(&data[..]) {
            moves += g.unwrap().moves.nodes.len();
        }
        best = best.min(t.elapsed().as_secs_f64());
        std::hint::black_box(moves);
        let t = std::time::Instant::now();
        let n = drafti_pdn::GameSplitter::new(&data[..]).count();
        std::hint::black_box(n);
        best_split = best_split.min(t.elapsed().as_secs_f64());
    }
    println!(
        "parse {:.3} s = {:.1} MB/s; split only {:.3} s = {:.1} MB/s",
        best,
        data.len() as f64 / best / 1e6,
        best_split,
        data.len() as f64 / best_split / 1e6
    );
}
