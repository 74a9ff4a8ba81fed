//! `explore`: the opening explorer over an index built by `drafti index build` — the rows of
//! `drafti explore --json` (the position, then one per move), which `drafti.explore` lays
//! out as a DataFrame.

use crate::errors::{guard, value_error};
use drafti_db::{
    explore as run_explore, explore_rows, line_from_moves, normalised, parse_date, query_variant,
    Books, ExploreQuery, Filters, GameFilter, Index, Outcome,
};
use drafti_rules::{Color, Position, Variant};
use pyo3::exceptions::PyOSError;
use pyo3::prelude::*;
use pyo3::types::PyList;

fn index_error(e: impl std::fmt::Display) -> PyErr {
    PyOSError::new_err(e.to_string())
}

/// `drafti explore INDEX --json`'s rows: the position (a FEN, or moves from the start, or the
/// start), then every move played from it, with its counts and its first `games` games.
#[pyfunction]
#[pyo3(signature = (index, fen = None, moves = None, variant = None, date_from = None, date_to = None, event = None, player = None, color = None, min_rating = None, max_rating = None, result = None, opening = None, ballot = None, games = 5, numeric = false))]
#[allow(clippy::too_many_arguments)]
pub fn explore<'py>(
    py: Python<'py>,
    index: std::path::PathBuf,
    fen: Option<&str>,
    moves: Option<&str>,
    variant: Option<&str>,
    date_from: Option<&str>,
    date_to: Option<&str>,
    event: Option<String>,
    player: Option<String>,
    color: Option<&str>,
    min_rating: Option<u16>,
    max_rating: Option<u16>,
    result: Option<&str>,
    opening: Option<String>,
    ballot: Option<String>,
    games: usize,
    numeric: bool,
) -> PyResult<Bound<'py, PyList>> {
    guard(|| {
        let idx = Index::open(&index).map_err(index_error)?;
        let books = Books::shipped().map_err(index_error)?;
        let variant = variant
            .map(|v| v.parse::<Variant>().map_err(|e| value_error(e.to_string())))
            .transpose()?;
        let date = |d: Option<&str>| -> PyResult<Option<u32>> {
            d.map(|t| match parse_date(t) {
                0 => Err(value_error(format!(
                    "'{t}' is not a date: expected YYYY, YYYY.MM or YYYY.MM.DD"
                ))),
                d => Ok(d),
            })
            .transpose()
        };
        let color = match color {
            None => None,
            Some("white") => Some(Color::White),
            Some("black") => Some(Color::Black),
            Some(c) => {
                return Err(value_error(format!(
                    "color '{c}': expected 'white' or 'black'"
                )))
            }
        };
        let result = match result {
            None => None,
            Some("1-0") => Some(Outcome::WhiteWin),
            Some("0-1") => Some(Outcome::BlackWin),
            Some("1/2-1/2") => Some(Outcome::Draw),
            Some("*") => Some(Outcome::Unknown),
            Some(r) => {
                return Err(value_error(format!(
                    "result '{r}': expected 1-0, 0-1, 1/2-1/2 or *"
                )))
            }
        };
        let filters = Filters {
            variant,
            date_from: date(date_from)?,
            date_to: date(date_to)?,
            event,
            player,
            color,
            min_rating,
            max_rating,
            result,
            opening,
            ballot,
        };
        let filter = GameFilter::new(&idx, &books, &filters)
            .map_err(index_error)?
            .map_err(|e| value_error(e.to_string()))?;
        let variant = query_variant(&idx, variant).map_err(|e| value_error(e.0))?;
        let line = match (fen, moves) {
            (Some(_), Some(_)) => return Err(value_error("give fen or moves, not both")),
            (Some(f), None) => vec![normalised(
                &Position::from_fen(f).map_err(|e| value_error(e.to_string()))?,
                Color::White,
            )],
            (None, Some(m)) => line_from_moves(m, variant).map_err(|e| value_error(e.0))?,
            (None, None) => vec![Position::start(Color::White)],
        };
        let query = ExploreQuery {
            line,
            variant,
            filter: &filter,
            max_games: games,
        };
        let seen = run_explore(&idx, &books, &query).map_err(index_error)?;
        let rows = explore_rows(&idx, &books, &seen, numeric).map_err(index_error)?;
        let list = PyList::empty(py);
        for row in &rows {
            list.append(pythonize::pythonize(py, row).map_err(PyErr::from)?)?;
        }
        Ok(list)
    })
}
