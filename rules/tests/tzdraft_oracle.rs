//! drafti's `tzdraft` rules against recorded answers of TzDraft's own server code.
//!
//! `data/tzdraft-oracle.txt` was written by the lab differential
//! (`cargo run -p drafti-tests --example tzdraft_oracle -- --record …`, which runs TzDraft's
//! `capture-finding.service.ts` and move generator under node: `tests/oracle/tzdraft/`): of
//! 6,000 positions (3,000 from seeded random `tzdraft` games, 3,000 random setups rich in
//! kings; seed 40), every one where TzDraft's legal moves differ from the article's (359) and
//! one in ten of the others. Each line is `FEN<TAB>moves`, TzDraft's legal moves as
//! `from-to` or `fromxto[captured,…]` (captured squares sorted): a move is its start, end and
//! captured set, as in RULES.md. The lab itself compares all 6,000 (and 30,000 more with
//! another seed): no position differs.

use drafti_rules::{Move, Position, Variant};
use std::collections::BTreeSet;

const RECORD: &str = include_str!("data/tzdraft-oracle.txt");

fn key(m: &Move) -> String {
    if !m.is_capture() {
        return format!("{}-{}", m.from(), m.to());
    }
    let mut caps: Vec<String> = m.captured().into_iter().map(|s| s.to_string()).collect();
    caps.sort();
    format!("{}x{}[{}]", m.from(), m.to(), caps.join(","))
}

fn keys(pos: &Position, variant: Variant) -> BTreeSet<String> {
    pos.legal_moves(variant).iter().map(key).collect()
}

#[test]
fn tzdraft_moves_match_tzdrafts_server() {
    let (mut positions, mut moves, mut unlike_article) = (0, 0, 0);
    let mut mismatches = Vec::new();
    for line in RECORD.lines() {
        let (fen, list) = line.split_once('\t').expect("FEN<TAB>moves");
        let pos = Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        let theirs: BTreeSet<String> = list.split_whitespace().map(str::to_string).collect();
        let ours = keys(&pos, Variant::TzDraft);
        assert_eq!(
            pos.legal_moves(Variant::TzDraft).len(),
            ours.len(),
            "a move listed twice in {fen}"
        );
        positions += 1;
        moves += theirs.len();
        if keys(&pos, Variant::Tanzanian) != theirs {
            unlike_article += 1;
        }
        if ours != theirs {
            mismatches.push(format!(
                "{fen}\n{}only drafti: {:?}\nonly TzDraft: {:?}",
                pos.board_text(),
                ours.difference(&theirs).collect::<Vec<_>>(),
                theirs.difference(&ours).collect::<Vec<_>>()
            ));
        }
    }
    assert_eq!((positions, moves), (929, 4891), "the record is whole");
    // The record is worth checking: in these positions the article's moves are not TzDraft's.
    assert_eq!(unlike_article, 359);
    assert!(
        mismatches.is_empty(),
        "{} of {positions} positions differ from TzDraft's server; first ones:\n{}",
        mismatches.len(),
        mismatches[..mismatches.len().min(5)].join("\n\n")
    );
}
