//! What the reading functions take as input: a path (`str` or `os.PathLike`), an open file
//! (text or binary), or a list of them. Files on disk are opened and checked as the command
//! line does (`drafti_archive::input`: missing, a directory, binary are `PdnError`s with its
//! messages); every input is read through a `DecodingReader`, its encoding decided once (or
//! given as `encoding`).

use crate::errors::{error, Kind};
use drafti_archive::batch::Input;
use drafti_pdn::{encoding_for_label, DecodingReader, Encoding};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use std::io::{self, BufRead, BufReader, Read};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// The encodings detected in inputs that were not UTF-8: `(input, encoding)`, in the order
/// found, to be told to the user as warnings (the command line prints them on stderr).
pub type Detected = Arc<Mutex<Vec<(String, &'static str)>>>;

/// The inputs, opened, with what reading them will tell.
pub struct Opened {
    pub inputs: Vec<Input>,
    pub detected: Detected,
    /// Raised to stop reading the Python file objects among the inputs (the reader was
    /// dropped): a read then fails instead of waiting for the interpreter.
    pub cancel: Arc<AtomicBool>,
}

/// `encoding` as `--encoding` takes it.
pub fn encoding_arg(name: Option<&str>) -> PyResult<Option<&'static Encoding>> {
    match name {
        None => Ok(None),
        Some(name) => match encoding_for_label(name) {
            // UTF-16 files are refused as binary before decoding, so the name cannot work.
            Some(e) if e.output_encoding() == e => Ok(Some(e)),
            _ => Err(crate::errors::value_error(format!(
                "unknown encoding '{name}': expected a name such as utf-8, latin1, windows-1252, windows-1251, cp866, koi8-r"
            ))),
        },
    }
}

/// A Python file object read as bytes (a text file's `str` is encoded as UTF-8).
struct PyReader {
    file: Py<PyAny>,
    pending: Vec<u8>,
    at: usize,
    cancel: Arc<AtomicBool>,
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() {
            if self.cancel.load(Ordering::Relaxed) {
                return Err(io::Error::other("reading was stopped"));
            }
            let want = buf.len().max(1 << 16);
            let chunk = Python::attach(|py| -> PyResult<Vec<u8>> {
                let data = self.file.bind(py).call_method1("read", (want,))?;
                if let Ok(b) = data.cast::<PyBytes>() {
                    Ok(b.as_bytes().to_vec())
                } else if let Ok(s) = data.cast::<PyString>() {
                    Ok(s.to_cow()?.as_bytes().to_vec())
                } else {
                    Err(pyo3::exceptions::PyTypeError::new_err(
                        "read() of the file returned neither bytes nor str",
                    ))
                }
            })
            .map_err(|e| io::Error::other(e.to_string()))?;
            self.pending = chunk;
            self.at = 0;
            if self.pending.is_empty() {
                return Ok(0);
            }
        }
        let n = buf.len().min(self.pending.len() - self.at);
        buf[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// The name a file object reports (its `name`), or `<file>`.
fn file_name(obj: &Bound<'_, PyAny>) -> String {
    obj.getattr("name")
        .ok()
        .and_then(|n| n.extract::<String>().ok())
        .unwrap_or_else(|| "<file>".to_string())
}

/// A path given as `str` or `os.PathLike`.
fn path_of(obj: &Bound<'_, PyAny>) -> Option<String> {
    if let Ok(s) = obj.cast::<PyString>() {
        return s.to_cow().ok().map(|s| s.into_owned());
    }
    let fspath = obj.call_method0("__fspath__").ok()?;
    fspath.extract::<String>().ok()
}

/// The inputs of `source`: its items when it is a list or a tuple, else itself.
fn items<'py>(source: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    if source.cast::<PyList>().is_ok() || source.cast::<PyTuple>().is_ok() {
        source.try_iter()?.collect()
    } else {
        Ok(vec![source.clone()])
    }
}

/// Whether every input of `source` is a path (a file on disk, which can be read twice: once
/// before a job to learn its variants, as the command line reads its files).
pub fn paths_only(source: &Bound<'_, PyAny>) -> PyResult<bool> {
    Ok(items(source)?.iter().all(|item| path_of(item).is_some()))
}

/// Opens `source` (one input or a list of them).
pub fn open_sources(
    source: &Bound<'_, PyAny>,
    encoding: Option<&'static Encoding>,
) -> PyResult<Opened> {
    let detected: Detected = Arc::default();
    let cancel = Arc::new(AtomicBool::new(false));
    let mut inputs = Vec::new();
    let items = items(source)?;
    if items.is_empty() {
        return Err(crate::errors::value_error(
            "no input: give a path, a file object, or a list of them",
        ));
    }
    for item in &items {
        let (name, reader): (String, Box<dyn BufRead + Send>) = if let Some(path) = path_of(item) {
            let (reader, _size) =
                drafti_archive::input::open_file(&path).map_err(|e| error(Kind::Pdn, e.0))?;
            (path, reader)
        } else if item.hasattr("read")? {
            let name = file_name(item);
            let mut reader: Box<dyn BufRead + Send> = Box::new(BufReader::with_capacity(
                1 << 16,
                PyReader {
                    file: item.clone().unbind(),
                    pending: Vec::new(),
                    at: 0,
                    cancel: cancel.clone(),
                },
            ));
            // Python reads here, with the GIL held: the check runs on this thread.
            drafti_archive::input::check_text(&name, &mut reader)
                .map_err(|e| error(Kind::Pdn, e.0))?;
            (name, reader)
        } else {
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "cannot read PDN from {}: give a path, a file object, or a list of them",
                item.get_type().name()?
            )));
        };
        let seen = detected.clone();
        let label = name.clone();
        let tell = Box::new(move |e: &'static Encoding| {
            if let Ok(mut seen) = seen.lock() {
                seen.push((label.clone(), e.name()));
            }
        });
        let decoded: Box<dyn BufRead + Send> =
            Box::new(DecodingReader::new(reader, encoding, Some(tell)));
        inputs.push(Input::new(name, decoded));
    }
    Ok(Opened {
        inputs,
        detected,
        cancel,
    })
}

/// Tells each detected encoding as a Python `UserWarning`, as the command line does on stderr.
pub fn warn_detected(py: Python<'_>, detected: &Detected) -> PyResult<()> {
    let found: Vec<(String, &'static str)> = match detected.lock() {
        Ok(mut seen) => std::mem::take(&mut *seen),
        Err(_) => return Ok(()),
    };
    for (name, encoding) in found {
        let message = format!(
            "{name}: not UTF-8; read as {encoding} (detected from its first non-ASCII bytes; encoding=NAME chooses another)"
        );
        let category = py.get_type::<pyo3::exceptions::PyUserWarning>();
        let message = std::ffi::CString::new(message).unwrap_or_default();
        PyErr::warn(py, &category, &message, 1)?;
    }
    Ok(())
}
