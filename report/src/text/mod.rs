//! The text outputs: the summary of `drafti report` ([`summary`]), the text of `drafti
//! analyze` ([`analysis`]), of `drafti openings` ([`openings`]), and the problems of a record
//! as `drafti validate` and the others show them ([`diagnostic`]).

pub mod analysis;
pub mod diagnostic;
pub mod openings;
pub mod summary;
