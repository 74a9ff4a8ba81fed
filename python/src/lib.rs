//! `drafti._drafti`: the extension module under the Python package `drafti`
//! (`python/drafti/__init__.py` re-exports it with the pure-Python parts: the rows of the
//! jobs as tables, DataFrames and Arrow tables).
//!
//! | module | Python names | over |
//! |---|---|---|
//! | `position` | `Position`, `Move`, `LegalMoves`, `Outcome`, `square_name`, `parse_square` | `drafti_rules`, `drafti_hub::protocol` |
//! | `game` | `Game`, `Problem`, `write_games` | `drafti_pdn`, `drafti_archive::replay` |
//! | `tree` | a game's tree (`Game.root()`), its moves as rows (`game_moves`) | `drafti_pdn`'s records |
//! | `jobs` | `GameReader`, `read_games`, `validate`, `game_moves`, `analyze` (and its `build_first_use_tables`), `openings`, `puzzles` | the batch drivers, the JSON contracts |
//! | `engine` | `Engine`, `SearchResult`, `Line`, `Score`, `Tables`, `TableValue`, `build_tables` | `drafti_engine` |
//! | `hub` | `hub_serve` (the engine on stdin/stdout, `python -m drafti.hub`) | `drafti_hub::engine` |
//! | `interrupt` | (long calls that Ctrl-C stops, with their work) | |
//! | `explore` | `explore` | `drafti_db` (an index of `drafti index build`) |
//! | `sources` | (paths and file objects as inputs) | `drafti_archive::input` |
//! | `args` | (integer arguments checked by name) | |
//! | `errors` | `DraftiError` and its subclasses, `VariantWarning`; the panic boundary | |
//!
//! Every entry point runs inside [`errors::guard`]: a Rust panic becomes
//! `drafti.InternalError`, never a `PanicException`.

#![forbid(unsafe_code)]

mod args;
mod engine;
mod errors;
mod explore;
mod game;
mod hub;
mod interrupt;
mod jobs;
mod position;
mod sources;
mod tree;

use pyo3::prelude::*;

#[pymodule]
fn _drafti(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<position::PyPosition>()?;
    m.add_class::<position::PyMove>()?;
    m.add_class::<position::PyLegalMoves>()?;
    m.add_class::<position::PyOutcome>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<game::PyProblem>()?;
    m.add_class::<jobs::PyGameReader>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<engine::PySearchResult>()?;
    m.add_class::<engine::PyLine>()?;
    m.add_class::<engine::PyScore>()?;
    m.add_class::<engine::PyTables>()?;
    m.add_class::<engine::PyTableValue>()?;
    m.add_function(wrap_pyfunction!(position::square_name, m)?)?;
    m.add_function(wrap_pyfunction!(position::parse_square, m)?)?;
    m.add_function(wrap_pyfunction!(game::write_games, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::validate, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::game_moves, m)?)?;
    // What pickling calls to make the objects again.
    m.add_function(wrap_pyfunction!(position::_move, m)?)?;
    m.add_function(wrap_pyfunction!(position::_position, m)?)?;
    m.add_function(wrap_pyfunction!(game::_game, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::build_first_use_tables, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::openings, m)?)?;
    m.add_function(wrap_pyfunction!(jobs::puzzles, m)?)?;
    m.add_function(wrap_pyfunction!(engine::build_tables, m)?)?;
    m.add_function(wrap_pyfunction!(engine::default_tables_dir, m)?)?;
    m.add_function(wrap_pyfunction!(hub::hub_serve, m)?)?;
    m.add_function(wrap_pyfunction!(explore::explore, m)?)?;
    m.add_function(wrap_pyfunction!(errors::_check_panic_boundary, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    // `drafti.ENGINE` is made on first use (a search: not at import).
    m.add_function(wrap_pyfunction!(engine_name, m)?)?;
    Ok(())
}

/// The engine's name with its fingerprint, as the analyses write it (`drafti.ENGINE`): a
/// search, so made when first asked for, not at import.
#[pyfunction]
fn engine_name() -> String {
    drafti_analysis::json::Run::engine_name()
}
