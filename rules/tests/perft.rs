//! Published perft figures from the start position (rhalbersma/dctl "drop duplicates" rows,
//! which cite the shashki.com and damforum validation threads), and the figures of TzDraft's
//! server reading, counted by TzDraft's own code (`tests/oracle/tzdraft/perft.cjs`).

use drafti_rules::{divide, perft, Color, Position, Variant};

const RUSSIAN: [u64; 11] = [
    7, 49, 302, 1469, 7482, 37986, 190146, 929899, 4570586, 22444032, 110917189,
];
const CZECH: [u64; 11] = [
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671, 18368918, 84967210,
];

fn check(variant: Variant, table: &[u64], depths: std::ops::RangeInclusive<u32>) {
    let start = Position::start(Color::White);
    for depth in depths {
        assert_eq!(
            perft(&start, variant, depth),
            table[depth as usize - 1],
            "{variant} perft({depth})"
        );
    }
}

#[test]
fn russian_published_figures() {
    check(Variant::Russian, &RUSSIAN, 1..=10);
}

#[test]
fn czech_published_figures() {
    check(Variant::Czech, &CZECH, 1..=10);
}

/// The deepest published rows (depth 11: 110,917,189 and 84,967,210 leaves); run with
/// `cargo test --release -p drafti-rules --test perft -- --ignored`.
#[test]
#[ignore = "deep: about two seconds in release, much longer in a debug build"]
fn deep_published_figures() {
    check(Variant::Russian, &RUSSIAN, 11..=11);
    check(Variant::Czech, &CZECH, 11..=11);
}

/// `tzdraft` from the start: the same as the article's Tanzanian (`tz`) until kings capture,
/// from depth 10 on. TzDraft's own code (`node perft.cjs 10 start`) counts the same.
const TZDRAFT_START: [u64; 10] = [
    7, 49, 302, 1469, 7361, 36768, 179740, 845931, 3963671, 18372660,
];
const TZ_START_10: u64 = 18372649;

#[test]
fn tzdraft_from_the_start() {
    check(Variant::TzDraft, &TZDRAFT_START, 1..=10);
    let start = Position::start(Color::White);
    assert_eq!(perft(&start, Variant::Tanzanian, 10), TZ_START_10);
}

/// A position with kings on both sides, where the readings part at depth 4; TzDraft's own
/// code (`node perft.cjs 7 …`) counts the `tzdraft` row.
#[test]
fn tzdraft_with_kings() {
    let pos = Position::from_fen("W:WKc1,Ka3,e3,g3,h2:BKh8,Kb8,b6,d6,f6,e7").unwrap();
    let tzdraft = [9, 74, 492, 3483, 22845, 163858, 1063668];
    let article = [9, 74, 492, 3457, 22752, 162355, 1056815];
    for depth in 1..=7 {
        let i = depth as usize - 1;
        assert_eq!(
            perft(&pos, Variant::TzDraft, depth),
            tzdraft[i],
            "tzdraft perft({depth})"
        );
        assert_eq!(
            perft(&pos, Variant::Tanzanian, depth),
            article[i],
            "tz perft({depth})"
        );
    }
}

#[test]
fn divide_sums_to_perft() {
    let start = Position::start(Color::Black);
    for variant in Variant::ALL {
        let parts = divide(&start, variant, 5);
        assert_eq!(parts.len(), 7);
        let total: u64 = parts.iter().map(|(_, n)| n).sum();
        assert_eq!(total, perft(&start, variant, 5));
    }
}
