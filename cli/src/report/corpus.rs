//! The bundled corpus, embedded in the binary: what `drafti report` reads when it is given
//! no FILES and nothing is piped in (see `corpus/README.md` for how the files were made).

use drafti_archive::batch::Input;

/// Hand-annotated records that use every notation feature.
pub const SHOWCASE: &[u8] = include_bytes!("../../../corpus/showcase.pdn");

/// Engine self-play games (`drafti selfplay`, the command is in `corpus/README.md`).
pub const SELFPLAY: &[u8] = include_bytes!("../../../corpus/selfplay.pdn");

/// The corpus as batch inputs, the showcase first.
pub fn inputs() -> Vec<Input> {
    vec![
        Input::new("corpus/showcase.pdn", Box::new(SHOWCASE)),
        Input::new("corpus/selfplay.pdn", Box::new(SELFPLAY)),
    ]
}

/// The size of the corpus in bytes (for the progress bar).
pub fn total_bytes() -> u64 {
    (SHOWCASE.len() + SELFPLAY.len()) as u64
}
