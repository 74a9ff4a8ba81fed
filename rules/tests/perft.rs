//! Published perft figures from the start position (rhalbersma/dctl "drop duplicates" rows,
//! which cite the shashki.com and damforum validation threads).

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
