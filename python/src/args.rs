//! Integer arguments checked by name: a negative or huge Python int is a `ValueError` that
//! names the parameter and its range (`depth is 1 to 100, not -3`), never an
//! `OverflowError` from the conversion.

use crate::errors::value_error;
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;

/// A Python int, saturated to `i64` (its sign kept), to be checked with [`Int::range`].
#[derive(Clone, Copy, Debug)]
pub struct Int(pub i64);

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        match obj.extract::<i64>() {
            Ok(n) => Ok(Int(n)),
            Err(e) if e.is_instance_of::<PyOverflowError>(obj.py()) => {
                Ok(Int(if obj.gt(0)? { i64::MAX } else { i64::MIN }))
            }
            Err(e) => Err(e),
        }
    }
}

impl Int {
    /// The value if it is within `low..=high`, else `ValueError`: `NAME is LOW to HIGH, not N`.
    pub fn range(self, name: &str, low: i64, high: i64) -> PyResult<i64> {
        if (low..=high).contains(&self.0) {
            Ok(self.0)
        } else {
            Err(value_error(format!(
                "{name} is {low} to {high}, not {}",
                shown(self.0)
            )))
        }
    }

    /// As `u32` within the range.
    pub fn u32(self, name: &str, low: u32, high: u32) -> PyResult<u32> {
        Ok(self.range(name, i64::from(low), i64::from(high))? as u32)
    }

    /// As `u64` from `low` on.
    pub fn u64_from(self, name: &str, low: u64) -> PyResult<u64> {
        if self.0 >= 0 && self.0 as u64 >= low {
            Ok(self.0 as u64)
        } else {
            Err(value_error(format!(
                "{name} is at least {low}, not {}",
                shown(self.0)
            )))
        }
    }

    /// As `usize` within the range.
    pub fn usize(self, name: &str, low: usize, high: usize) -> PyResult<usize> {
        Ok(self.range(name, low as i64, high as i64)? as usize)
    }
}

/// A saturated value as the caller may have written it.
pub fn shown(n: i64) -> String {
    match n {
        i64::MAX => "a number beyond 2**63".to_string(),
        i64::MIN => "a number below -2**63".to_string(),
        n => n.to_string(),
    }
}

/// An optional int argument checked with `check`.
pub fn opt<T>(value: Option<Int>, check: impl FnOnce(Int) -> PyResult<T>) -> PyResult<Option<T>> {
    value.map(check).transpose()
}
