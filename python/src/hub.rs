//! drafti's engine as a Hub engine on this process's stdin and stdout (`python -m
//! drafti.hub`, what `drafti hub` runs), so the package's Hub client (`drafti/hub.py`) has an
//! engine to drive without the binary.

use crate::args::{opt, Int};
use crate::errors::{error, guard, Kind};
use crate::position::variant_or_default;
use drafti_hub::engine::{serve, Host, Settings, MAX_HASH_MB};
use pyo3::prelude::*;

/// Serves the Hub protocol on stdin and stdout until `quit` or the end of the input, with
/// these parameters' starting values (no endgame tables). The GIL is released meanwhile.
#[pyfunction]
#[pyo3(signature = (variant = None, hash_mb = Int(64), nodes = None, depth = None, king_count = Int(12)))]
pub fn hub_serve(
    py: Python<'_>,
    variant: Option<&str>,
    hash_mb: Int,
    nodes: Option<Int>,
    depth: Option<Int>,
    king_count: Int,
) -> PyResult<()> {
    guard(|| {
        let settings = Settings {
            variant: variant_or_default(variant)?,
            hash_mb: hash_mb.usize("hash_mb", 1, MAX_HASH_MB)?,
            nodes: opt(nodes, |n| n.u64_from("nodes", 1))?,
            depth: opt(depth, |n| n.u32("depth", 1, 100))?,
            king_count: king_count.u32("king_count", 1, 1000)?,
        };
        let stdin = std::io::BufReader::new(std::io::stdin());
        match py.detach(|| serve(stdin, std::io::stdout(), settings, Host::default())) {
            Ok(()) => Ok(()),
            Err(e) if e.gui_gone() => Ok(()),
            Err(e) => Err(error(Kind::Internal, e.to_string())),
        }
    })
}
