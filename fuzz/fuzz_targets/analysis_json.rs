//! Any bytes as parts of `drafti analyze --json` read back by `report --from-analysis`: the
//! reader must refuse what is not a run's lines with an error naming the part and line, and
//! never panic, whatever a line holds (scores, moves, records, shards).
#![no_main]
#![forbid(unsafe_code)]

use drafti_analysis::parts::Parts;
use drafti_archive::batch::Input;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(|data: &[u8]| {
    // The first byte splits the bytes into two parts (a sharded run's two files).
    let (split, data) = match data.split_first() {
        Some((b, rest)) => ((*b as usize * rest.len()) / 256, rest),
        None => return,
    };
    let (one, two) = data.split_at(split);
    let inputs = vec![
        Input::new("part-1.jsonl", Box::new(Cursor::new(one.to_vec()))),
        Input::new("part-2.jsonl", Box::new(Cursor::new(two.to_vec()))),
    ];
    if let Ok(mut parts) = Parts::open(inputs) {
        while let Ok(Some(_game)) = parts.next_game() {}
    }
});
