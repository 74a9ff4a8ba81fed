//! The engine's fingerprint: a short stable name of what the shipped engine finds, so results
//! searched by engines that behave differently are never mixed (the runs of a sharded
//! analysis, a cached reference of the quality benchmark).
//!
//! It hashes what fixed searches find — nodes, depth, score and line — and the static
//! evaluation, on probes that reach every part of the engine: each variant's start (the
//! rules' move generators and the opening terms), a Tanzanian middle game, and king endings
//! of every variant (the endgame knowledge, the draw laws and TzDraft's server's draw rules,
//! which no search from the start reaches within its nodes). A search limited by nodes is deterministic, and its node count
//! moves with any change of move ordering, pruning or evaluation. Endgame tables are data,
//! not the engine: their users name them apart (the analysis's settings label does).

use crate::{Engine, Limits};
use drafti_rules::{Position, Variant};
use std::sync::OnceLock;

/// The probes: a position and the rules it is searched under. Each keeps its search busy
/// for all of [`PROBE_NODES`] (none is won or drawn at once).
const PROBES: [(&str, Variant); 12] = [
    ("W:W21-32:B1-12", Variant::Tanzanian),
    (
        "W:W18,21,22,24,25,26,27,29,30,31,32:B1,2,3,4,6,7,8,10,11,12,14",
        Variant::Tanzanian,
    ),
    ("W:W21-32:B1-12", Variant::Czech),
    ("W:W21-32:B1-12", Variant::Russian),
    // Against a lone king: two kings and a man (no count yet), then three kings (law 2).
    ("W:WKb2,Kh2,e3:BKe7", Variant::Tanzanian),
    ("B:WKb2,Kh2,Kc1:BKf8", Variant::Tanzanian),
    // Kings and men on both sides, under each variant's rules.
    ("W:WKa3,c3,e3,g3:BKh6,b6,d6", Variant::Tanzanian),
    ("W:WKa3,c3,e3,g3:BKh6,b6,d6", Variant::Russian),
    ("W:WKb2,c3,g3:BKg7,b6,f6", Variant::Czech),
    // Two kings each: no law, a drawish material.
    ("W:WKc1,Ke1:BKh8,Kb8", Variant::Russian),
    // TzDraft: its server's three-kings count, and its captures with kings and men.
    ("W:WK1,K3,K5:BK30", Variant::TzDraft),
    ("W:WKa3,c3,e3,g3:BKh6,b6,d6", Variant::TzDraft),
];

/// Nodes of each probe's search.
const PROBE_NODES: u64 = 50_000;

/// Transposition table of each probe's engine, MiB (fixed: it bounds what the search keeps).
const PROBE_TT_MB: usize = 16;

impl Engine {
    /// The fingerprint of the engine as shipped ([`crate::Config::default`], the shipped
    /// weights): 16 hex digits that change with any change of the search or the evaluation.
    /// Worked out once per process (a fraction of a second), then remembered.
    ///
    /// ```
    /// let fingerprint = drafti_engine::Engine::fingerprint();
    /// assert_eq!(fingerprint.len(), 16);
    /// assert_eq!(fingerprint, drafti_engine::Engine::fingerprint());
    /// ```
    pub fn fingerprint() -> &'static str {
        static FINGERPRINT: OnceLock<String> = OnceLock::new();
        FINGERPRINT.get_or_init(|| compute(|variant| Engine::new(variant, PROBE_TT_MB)))
    }
}

/// The fingerprint of the engines `make` builds for each variant.
fn compute(make: impl Fn(Variant) -> Engine) -> String {
    // FNV-1a: stable across builds and platforms (std's hasher promises neither).
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut mix = |bytes: &[u8]| {
        for &b in bytes {
            hash ^= u64::from(b);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for (fen, variant) in PROBES {
        let Ok(pos) = Position::from_fen(fen) else {
            continue; // Unreachable: the tests parse every probe.
        };
        let mut engine = make(variant);
        mix(&engine.evaluate(&pos).raw().to_le_bytes());
        let r = engine.search(&pos, &Limits::nodes(PROBE_NODES), &[], |_| {});
        mix(&r.nodes.to_le_bytes());
        mix(&r.depth.to_le_bytes());
        mix(&r.score.raw().to_le_bytes());
        for mv in &r.pv {
            mix(mv.full_notation(false).as_bytes());
            mix(b" ");
        }
    }
    format!("{hash:016x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_probe_keeps_its_search_busy() {
        for (fen, variant) in PROBES {
            let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
            let mut engine = Engine::new(variant, PROBE_TT_MB);
            let r = engine.search(&pos, &Limits::nodes(PROBE_NODES), &[], |_| {});
            assert!(
                r.nodes >= PROBE_NODES,
                "{fen} ({variant}): {} nodes",
                r.nodes
            );
        }
    }

    #[test]
    fn the_fingerprint_is_sixteen_hex_digits_and_stable() {
        let f = Engine::fingerprint();
        assert_eq!(f.len(), 16);
        assert!(f.bytes().all(|b| b.is_ascii_hexdigit()));
        assert_eq!(compute(|v| Engine::new(v, PROBE_TT_MB)), f);
    }

    #[test]
    fn another_search_or_evaluation_has_another_fingerprint() {
        let shipped = Engine::fingerprint();
        let no_reductions = compute(|v| {
            let config = crate::Config {
                lmr: 0,
                ..crate::Config::default()
            };
            Engine::with_config(
                v,
                PROBE_TT_MB,
                drafti_rules::DrawLaws::for_variant(v),
                config,
            )
        });
        assert_ne!(no_reductions, shipped);
        let other_weights = compute(|v| {
            let mut weights = (*crate::weights::shipped(v)).clone();
            weights.mg[0] += 25;
            weights.eg[0] += 25;
            let mut engine = Engine::new(v, PROBE_TT_MB);
            engine.set_weights(&weights);
            engine
        });
        assert_ne!(other_weights, shipped);
    }
}
