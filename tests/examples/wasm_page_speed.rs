//! The engine's speed in a web page against native: the WebAssembly module in a Web Worker of
//! headless Chromium and the native engine search the same positions to the same depths (one
//! thread each), node for node, round after round (native, then the page); the ratio of the
//! wall-clock rates per round, on the same loaded machine within seconds of each other.
//!
//! ```text
//! cargo run --release -p drafti-tests --example wasm_page_speed -- [ROUNDS]
//! ```
#![allow(clippy::print_stdout)]

use base64::Engine as _;
use drafti_engine::{Engine, Limits};
use drafti_rules::{Position, Variant};
use drafti_tests::browser::{file_url, Browser};
use std::path::Path;
use std::time::Instant;

const SEARCHES: [(&str, &str, u32); 6] = [
    ("tz", "W:W21-32:B1-12", 16),
    (
        "tz",
        "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
        13,
    ),
    ("tz", "W:WKa3,c3,e3,g3:BKh6,b6,d6", 13),
    ("czech", "W:W21-32:B1-12", 16),
    ("russian", "W:W21-32:B1-12", 15),
    ("russian", "W:WKa3,c3,e3,g3:BKh6,b6,d6", 12),
];
const HASH_MB: usize = 16;

fn main() -> Result<(), String> {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(5);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let module = std::fs::read(root.join("wasm/dist/drafti.wasm")).map_err(|e| e.to_string())?;
    let script =
        std::fs::read_to_string(root.join("wasm/js/drafti.js")).map_err(|e| e.to_string())?;
    let requests: Vec<String> = SEARCHES
        .iter()
        .map(|(v, fen, d)| {
            format!(r#"{{"variant":"{v}","fen":"{fen}","depth":{d},"hash_mb":{HASH_MB}}}"#)
        })
        .collect();
    let page = format!(
        "<!doctype html><meta charset=utf-8><script>{script}</script><script>\n\
         const bytes = Uint8Array.from(atob('{}'), (c) => c.charCodeAt(0));\n\
         const requests = [{}];\n\
         window.ready = Drafti.Engine.start(bytes).then(async (engine) => {{\n\
           await engine.search(requests[0]);\n\
           window.round = async () => {{ let nodes = 0, ms = 0;\n\
             for (const r of requests) {{ const t = performance.now(); const a = await engine.search(r);\n\
               ms += performance.now() - t; nodes += a.nodes; }}\n\
             return JSON.stringify({{nodes, ms}}); }};\n\
           return true; }});\n</script>",
        base64::engine::general_purpose::STANDARD.encode(&module),
        requests.join(",")
    );
    // Removed when it drops, after the browser (declared later, dropped first).
    let dir = tempfile::Builder::new()
        .prefix("drafti-page-speed-")
        .tempdir()
        .map_err(|e| e.to_string())?;
    let file = dir.path().join("speed.html");
    std::fs::write(&file, page).map_err(|e| e.to_string())?;
    let mut browser = Browser::launch(800, 600, false)?;
    browser.navigate(&file_url(&file))?;
    browser.eval("window.ready")?;
    let mut ratios = Vec::new();
    println!("round  nodes       native n/s   page n/s   page/native");
    for round in 1..=rounds {
        let (mut nodes, start) = (0u64, Instant::now());
        for (v, fen, d) in SEARCHES {
            let variant: Variant = v.parse().unwrap();
            let mut engine = Engine::new(variant, HASH_MB);
            let pos = Position::from_fen(fen).unwrap();
            nodes += engine.search(&pos, &Limits::depth(d), &[], |_| {}).nodes;
        }
        let native = nodes as f64 / start.elapsed().as_secs_f64();
        let answer: serde_json::Value =
            serde_json::from_str(browser.eval("window.round()")?.as_str().unwrap_or("{}"))
                .map_err(|e| e.to_string())?;
        assert_eq!(answer["nodes"].as_u64(), Some(nodes), "node for node");
        let page = nodes as f64 * 1000.0 / answer["ms"].as_f64().unwrap();
        let ratio = page / native;
        ratios.push(ratio);
        println!(
            "{round:>5}  {nodes:>10}  {native:>10.0}  {page:>10.0}   {:>6.1}%",
            ratio * 100.0
        );
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "median {:.1}% of native (spread {:.1}%-{:.1}% over {rounds} rounds, wall clock)",
        ratios[ratios.len() / 2] * 100.0,
        ratios[0] * 100.0,
        ratios[ratios.len() - 1] * 100.0
    );
    Ok(())
}
