//! Building indexes of the test archives (tests/fixtures/explorer, copied from the master
//! corpora; see that folder's README).

#![allow(dead_code)]

use drafti_archive::batch::{BatchOptions, Input};
use drafti_archive::replay::ReplayOptions;
use drafti_db::{build_index, Books, BuildOptions, BuildSummary};
use drafti_rules::Variant;
use std::io::BufReader;
use std::path::{Path, PathBuf};

/// A file of tests/fixtures/explorer.
pub fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/explorer")
        .join(name)
}

/// The Russian archives of the fixtures.
pub const RUSSIAN: [&str; 2] = [
    "russian-ussr-championship-x-153games.pdn",
    "russian-abatsiev-ussr-events-56games.pdn",
];
/// The Czech ones.
pub const CZECH: [&str; 2] = [
    "czech-championship-2007-102games.pdn",
    "czech-team-championship-2007-72games.pdn",
];

/// How the games are replayed: under `variant`, mainlines only.
pub fn batch(variant: Variant, jobs: usize) -> BatchOptions {
    BatchOptions {
        jobs,
        replay: ReplayOptions {
            variant_override: Some(variant),
            variations: false,
            ..ReplayOptions::default()
        },
        ..BatchOptions::default()
    }
}

/// Builds the index `out` of the fixture files, or of texts given as (name, text).
pub fn build(
    files: &[&str],
    texts: &[(&str, &str)],
    variant: Variant,
    options: BuildOptions,
    out: &Path,
) -> BuildSummary {
    let mut inputs = Vec::new();
    for f in files {
        let file = std::fs::File::open(fixture(f)).unwrap();
        inputs.push(Input::new(*f, Box::new(BufReader::new(file))));
    }
    for (name, text) in texts {
        inputs.push(Input::new(
            *name,
            Box::new(std::io::Cursor::new(text.as_bytes().to_vec())),
        ));
    }
    let books = Books::shipped().unwrap();
    build_index(inputs, &batch(variant, 2), options, &books, out, |_| {}).unwrap()
}
