//! What `drafti report` reads besides PDN files: the corpus bundled in the binary, and the
//! JSON Lines of `drafti analyze --json` (`--from-analysis`). The rendering is
//! `drafti_report`'s; where the HTML goes is `output`.

pub mod corpus;
pub mod output;
