//! The exceptions of the package and the boundary every call crosses: a Rust panic never
//! reaches Python as one ([`guard`] turns it into `drafti.InternalError`), and each library
//! error becomes a typed exception whose message is the one the command line prints.
//!
//! ```text
//! DraftiError(Exception)
//! ├── PdnError                  a file or text that cannot be read as PDN
//! ├── FenError(ValueError)      a FEN that is no position
//! ├── IllegalMoveError(ValueError)
//! │   └── AmbiguousMoveError    a move text that several legal moves match
//! ├── VariantError(ValueError)  a name that is no variant, or rules that do not match
//! ├── SquareError(ValueError)   a square that is not on the board
//! ├── TablesError               endgame tables missing, damaged or for other rules
//! └── InternalError             a bug in drafti (a Rust panic, caught)
//!
//! VariantWarning(UserWarning)   an archive read as Tanzanian replays valid under other rules
//! ```

use pyo3::exceptions::{PyException, PyValueError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyDict, PyTuple, PyType};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The exception classes, made once per interpreter.
struct Classes {
    base: Py<PyType>,
    pdn: Py<PyType>,
    fen: Py<PyType>,
    illegal: Py<PyType>,
    ambiguous: Py<PyType>,
    variant: Py<PyType>,
    square: Py<PyType>,
    tables: Py<PyType>,
    internal: Py<PyType>,
    variant_warning: Py<PyType>,
}

static CLASSES: PyOnceLock<Classes> = PyOnceLock::new();

/// A new exception class `drafti.NAME` with these bases.
fn class<'py>(
    py: Python<'py>,
    name: &str,
    bases: &[&Bound<'py, PyType>],
    doc: &str,
) -> PyResult<Py<PyType>> {
    let dict = PyDict::new(py);
    dict.set_item("__doc__", doc)?;
    dict.set_item("__module__", "drafti")?;
    let bases = PyTuple::new(py, bases)?;
    let made = py.get_type::<PyType>().call1((name, bases, dict))?;
    Ok(made.cast_into::<PyType>()?.unbind())
}

fn classes(py: Python<'_>) -> &Classes {
    CLASSES
        .get_or_try_init(py, || -> PyResult<Classes> {
            let exception = py.get_type::<PyException>();
            let value = py.get_type::<PyValueError>();
            let base = class(
                py,
                "DraftiError",
                &[&exception],
                "Base class of the errors drafti raises.",
            )?;
            let b = base.bind(py).clone();
            let illegal = class(
                py,
                "IllegalMoveError",
                &[&b, &value],
                "A move that is not legal in the position (or not a move at all).",
            )?;
            let i = illegal.bind(py).clone();
            Ok(Classes {
                pdn: class(
                    py,
                    "PdnError",
                    &[&b],
                    "A file or text that cannot be read as PDN: missing, a directory, binary, \
                     unreadable, or no game at all.",
                )?,
                fen: class(py, "FenError", &[&b, &value], "A FEN that is no position.")?,
                ambiguous: class(
                    py,
                    "AmbiguousMoveError",
                    &[&i],
                    "A move text that several legal moves match: write every landing square.",
                )?,
                variant: class(
                    py,
                    "VariantError",
                    &[&b, &value],
                    "A name that is no variant (tz, tzdraft, czech, russian), or a position for other \
                     rules than the engine's or the tables'.",
                )?,
                square: class(
                    py,
                    "SquareError",
                    &[&b, &value],
                    "A square that is not on the board: numbers 1-32, names such as 'c3' (the \
                     dark squares).",
                )?,
                variant_warning: class(
                    py,
                    "VariantWarning",
                    &[&py.get_type::<pyo3::exceptions::PyUserWarning>()],
                    "An archive without a variant tag was read as Tanzanian, and its invalid \
                     games replay valid under other rules: the warning names them.",
                )?,
                tables: class(
                    py,
                    "TablesError",
                    &[&b],
                    "Endgame tables that are missing, damaged or for other rules.",
                )?,
                internal: class(
                    py,
                    "InternalError",
                    &[&b],
                    "A bug in drafti: the Rust code panicked. Please report it with the input.",
                )?,
                base,
                illegal,
            })
        })
        .expect("the exception classes can be made")
}

/// Which of the package's exceptions.
#[derive(Clone, Copy, Debug)]
pub enum Kind {
    Pdn,
    Fen,
    Illegal,
    Ambiguous,
    Variant,
    Square,
    Tables,
    Internal,
}

/// A `drafti` exception of `kind` with `message`.
pub fn error(kind: Kind, message: impl Into<String>) -> PyErr {
    let message = message.into();
    Python::attach(|py| {
        let c = classes(py);
        let ty = match kind {
            Kind::Pdn => &c.pdn,
            Kind::Fen => &c.fen,
            Kind::Illegal => &c.illegal,
            Kind::Ambiguous => &c.ambiguous,
            Kind::Variant => &c.variant,
            Kind::Square => &c.square,
            Kind::Tables => &c.tables,
            Kind::Internal => &c.internal,
        };
        PyErr::from_type(ty.bind(py).clone(), message)
    })
}

/// `drafti.VariantWarning`.
pub fn variant_warning(py: Python<'_>) -> Bound<'_, PyType> {
    classes(py).variant_warning.bind(py).clone()
}

/// Adds the exception classes to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    let c = classes(py);
    for (name, ty) in [
        ("DraftiError", &c.base),
        ("PdnError", &c.pdn),
        ("FenError", &c.fen),
        ("IllegalMoveError", &c.illegal),
        ("AmbiguousMoveError", &c.ambiguous),
        ("VariantError", &c.variant),
        ("SquareError", &c.square),
        ("VariantWarning", &c.variant_warning),
        ("TablesError", &c.tables),
        ("InternalError", &c.internal),
    ] {
        m.add(name, ty.bind(py))?;
    }
    Ok(())
}

/// What a panic said.
fn panic_text(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "(no message)".to_string()
    }
}

/// `drafti.InternalError` for a caught panic.
pub fn internal(payload: &(dyn std::any::Any + Send)) -> PyErr {
    error(
        Kind::Internal,
        format!(
            "internal error in drafti (a bug; please report it with the input): {}",
            panic_text(payload)
        ),
    )
}

/// Runs `f`, the body of a call from Python: a panic in it (or in the library code it runs)
/// becomes `drafti.InternalError` instead of crossing into Python.
pub fn guard<T>(f: impl FnOnce() -> PyResult<T>) -> PyResult<T> {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(result) => result,
        Err(payload) => Err(internal(payload.as_ref())),
    }
}

/// `ValueError(message)`, for arguments out of range.
pub fn value_error(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// Panics inside the guard every call runs in: the test of the boundary
/// (`tests/test_hostile.py`) calls it to see the panic arrive as `drafti.InternalError`.
#[pyfunction]
pub fn _check_panic_boundary(message: &str) -> PyResult<()> {
    guard(|| panic!("{message}"))
}
