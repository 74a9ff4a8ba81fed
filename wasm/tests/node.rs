//! The WebAssembly module (wasm/dist/drafti.wasm, loaded by wasm/js/drafti.js) run under Node
//! against the native libraries in the same test: perft equals the rules' perft, a search at
//! a fixed depth visits the same nodes as the native engine, and every answer equals the
//! native answer of the same request.

use drafti_engine::{Engine, Limits};
use drafti_rules::{perft, Position, Variant};
use serde_json::{json, Value};
use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The module's answers to `requests`, under Node.
fn node_answers(requests: &[Value]) -> Vec<Value> {
    let dir = crate_dir();
    let mut child = Command::new("node")
        .arg(dir.join("tests/answer.js"))
        .arg(dir.join("js/drafti.js"))
        .arg(dir.join("dist/drafti.wasm"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("node runs (Node.js 18 or later must be installed)");
    let input = serde_json::to_vec(requests).unwrap();
    child.stdin.take().unwrap().write_all(&input).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "node failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// Positions of every kind: starts, middle games, kings with men, king endings.
const POSITIONS: [&str; 6] = [
    "W:W21-32:B1-12",
    "B:W21-32:B1-12",
    "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
    "W:WKa3,c3,e3,g3:BKh6,b6,d6",
    "B:WKb2,c3,g3,e5:BKg7,b6,f6,d8",
    "W:WKb2,Kh2,e3:BKe7",
];

fn variants() -> [(Variant, &'static str); 3] {
    [
        (Variant::Tanzanian, "tz"),
        (Variant::Czech, "czech"),
        (Variant::Russian, "russian"),
    ]
}

#[test]
fn perft_in_webassembly_equals_the_native_perft() {
    let mut requests = Vec::new();
    let mut native = Vec::new();
    for (variant, name) in variants() {
        for fen in POSITIONS {
            let depth = if fen.contains('K') { 4 } else { 6 };
            requests.push(json!({"op": "perft", "variant": name, "fen": fen, "depth": depth}));
            native.push(perft(&Position::from_fen(fen).unwrap(), variant, depth));
        }
    }
    let answers = node_answers(&requests);
    for ((request, answer), nodes) in requests.iter().zip(&answers).zip(&native) {
        assert_eq!(answer["nodes"], json!(nodes), "{request}: {answer}");
    }
}

#[test]
fn searches_in_webassembly_visit_the_native_nodes() {
    let mut requests = Vec::new();
    let mut native = Vec::new();
    for (variant, name) in variants() {
        for fen in POSITIONS {
            let depth = 9;
            requests.push(json!({
                "op": "search", "variant": name, "fen": fen, "depth": depth, "hash_mb": 4
            }));
            let mut engine = Engine::new(variant, 4);
            let pos = Position::from_fen(fen).unwrap();
            let mut depths = 0;
            let result = engine.search(&pos, &Limits::depth(depth), &[], |_| depths += 1);
            native.push((result, depths));
        }
    }
    let total: u64 = native.iter().map(|(r, _)| r.nodes).sum();
    assert!(total > 100_000, "real searches: {total} nodes");
    let answers = node_answers(&requests);
    for ((request, answer), (result, depths)) in requests.iter().zip(&answers).zip(&native) {
        assert_eq!(answer["nodes"], json!(result.nodes), "{request}: {answer}");
        assert_eq!(answer["depth"], json!(result.depth), "{request}");
        assert_eq!(answer["seldepth"], json!(result.seldepth), "{request}");
        assert_eq!(answer["infos"], json!(depths), "{request}");
        let best = result.best.unwrap();
        assert_eq!(
            answer["best"]["from"],
            json!(best.from().number()),
            "{request}"
        );
        assert_eq!(answer["best"]["to"], json!(best.to().number()), "{request}");
        let pv: Vec<u8> = answer["pv"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["to"].as_u64().unwrap() as u8)
            .collect();
        let native_pv: Vec<u8> = result.pv.iter().map(|m| m.to().number()).collect();
        assert_eq!(pv, native_pv, "{request}");
    }
}

#[test]
fn every_answer_equals_the_native_answer() {
    let requests = [
        json!({"op": "position"}),
        json!({"op": "position", "variant": "russian", "notation": "algebraic",
               "moves": ["c3-d4", "f6-g5", "g3-f4", "g5-h4", "b2-c3", "h6-g5", "f4-e5", "d6xf4"]}),
        json!({"op": "play", "fen": "W:Wc3:Bd4,f6,a7", "move": "22x15x8"}),
        json!({"op": "play", "fen": "W:WKb2,Kh2,Kc1:BKf8", "move": "6-15"}),
        json!({"op": "position", "fen": "W:WK29:BK4"}),
        json!({"op": "play", "move": "22-13"}),
        json!({"op": "position", "moves": ["22-18", "9-13x"]}),
        json!({"op": "position", "fen": "W:Wz9"}),
        json!({"op": "spin"}),
        json!({"op": "search", "moves": ["22-18", "11-15"], "depth": 7, "multipv": 3}),
        json!({"op": "search", "variant": "czech", "fen": "W:WKb2,c3,g3:BKg7,b6,f6",
               "nodes": 20000, "notation": "algebraic"}),
        json!({"op": "search", "fen": "W:WK29:BK4", "depth": 5}),
        json!({"op": "version"}),
    ];
    let answers = node_answers(&requests);
    for (request, answer) in requests.iter().zip(answers) {
        let mut wasm = answer;
        let mut native: Value =
            serde_json::from_str(&drafti_wasm::answer(&request.to_string(), &mut |_| {})).unwrap();
        for v in [&mut wasm, &mut native] {
            if let Some(o) = v.as_object_mut() {
                // The clock's readings differ; the node script counts reports.
                for key in ["time_ms", "nps", "infos"] {
                    o.remove(key);
                }
            }
            floats(v);
        }
        assert_eq!(wasm, native, "{request}");
    }
}

/// Every number as a float: JavaScript writes the float 0.0 as `0`.
fn floats(v: &mut Value) {
    match v {
        Value::Number(n) => *v = json!(n.as_f64().unwrap()),
        Value::Array(a) => a.iter_mut().for_each(floats),
        Value::Object(o) => o.values_mut().for_each(floats),
        _ => {}
    }
}
