//! Hub protocol version 2 (the protocol of Scan 3 and the Hub GUI), both ways: `drafti hub`
//! speaks it as an engine ([`engine`]), `drafti match` drives engines with it ([`client`]).
//! [`protocol`] reads and writes its lines.
//!
//! This module depends on the engine only through `drafti_engine`'s public `Engine`,
//! `Limits`, `SearchResult`, `DepthInfo`, `Score` and `StopFlag` (and on `drafti_rules`), so
//! that a copy of it can drive an older build of the engine for a match.

pub mod client;
pub mod engine;
pub mod protocol;
