//! Opening an archive file to read: every problem that keeps a file from being read —
//! missing, a directory, unreadable, binary — is one [`InputError`] whose message names the
//! file and says what is wrong, before any game is read. `drafti` (its FILES) and the Python
//! package (`drafti.read_games`, the jobs) open files here, so both say the same.
//!
//! ```
//! use drafti_archive::input::{binary_reason, open_file};
//! assert_eq!(binary_reason(b"\x89PNG\r\n"), Some("PNG image"));
//! assert_eq!(binary_reason(b"[Event \"Dar\"]\n1. c3-d4 *\n"), None);
//! let err = open_file("no/such/file.pdn").err().unwrap();
//! assert_eq!(err.to_string(), "cannot open no/such/file.pdn: no such file");
//! ```

use std::fs::File;
use std::io::{self, BufRead, BufReader, ErrorKind};

/// Bytes looked at to tell text from binary.
pub const SNIFF_BYTES: usize = 8192;

/// The read buffer of an opened file.
const BUFFER_BYTES: usize = 1 << 18;

/// Why an input cannot be read: one line naming it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct InputError(pub String);

/// An I/O error in a few words: `no such file`, `permission denied`, or the system's text
/// without its `(os error N)`.
pub fn describe(e: &io::Error) -> String {
    match e.kind() {
        ErrorKind::NotFound => "no such file".to_string(),
        ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => {
            let text = e.to_string();
            match text.find(" (os error") {
                Some(i) => text[..i].to_string(),
                None => text,
            }
        }
    }
}

/// Opens the file `name` for reading, checked to be PDN text ([`check_text`]), with its size
/// in bytes.
pub fn open_file(name: &str) -> Result<(Box<dyn BufRead + Send>, u64), InputError> {
    open_file_of(name, PDN_TEXT)
}

/// What [`open_file`] and [`check_text`] expect: PDN.
pub const PDN_TEXT: &str = "PDN text";

/// [`open_file`] for a file of other text, `expected` (`the JSON lines of drafti analyze
/// --json`), named so in its errors.
pub fn open_file_of(
    name: &str,
    expected: &str,
) -> Result<(Box<dyn BufRead + Send>, u64), InputError> {
    let meta = std::fs::metadata(name)
        .map_err(|e| InputError(format!("cannot open {name}: {}", describe(&e))))?;
    if meta.is_dir() {
        return Err(InputError(format!(
            "{name} is a directory (give the PDN files in it, e.g. {name}/*.pdn)"
        )));
    }
    let file = File::open(name)
        .map_err(|e| InputError(format!("cannot open {name}: {}", describe(&e))))?;
    let mut reader: Box<dyn BufRead + Send> =
        Box::new(BufReader::with_capacity(BUFFER_BYTES, file));
    check_text_of(name, &mut reader, expected)?;
    Ok((reader, meta.len()))
}

/// Refuses input that is clearly not text ([`binary_reason`] of its first bytes), looking at
/// them without consuming them. (A few stray bytes in a text file are left to the parser,
/// which reports them where they are.)
pub fn check_text(name: &str, reader: &mut Box<dyn BufRead + Send>) -> Result<(), InputError> {
    check_text_of(name, reader, PDN_TEXT)
}

/// [`check_text`] for other text, `expected`, named so in the error.
pub fn check_text_of(
    name: &str,
    reader: &mut Box<dyn BufRead + Send>,
    expected: &str,
) -> Result<(), InputError> {
    let buf = reader
        .fill_buf()
        .map_err(|e| InputError(format!("cannot read {name}: {}", describe(&e))))?;
    match binary_reason(&buf[..buf.len().min(SNIFF_BYTES)]) {
        Some(reason) => Err(InputError(format!(
            "{name} is not a text file ({reason}); expected {expected}"
        ))),
        None => Ok(()),
    }
}

/// Why these first bytes are not PDN text, if they are not: known binary signatures, UTF-16,
/// or more than a tenth control bytes.
pub fn binary_reason(sample: &[u8]) -> Option<&'static str> {
    const SIGNATURES: [(&[u8], &str); 8] = [
        (b"\x89PNG", "PNG image"),
        (b"PK\x03\x04", "zip archive"),
        (b"\x1f\x8b", "gzip data"),
        (b"\x7fELF", "executable"),
        (b"%PDF", "PDF document"),
        (b"\xff\xfe", "UTF-16 text; convert it to UTF-8"),
        (b"\xfe\xff", "UTF-16 text; convert it to UTF-8"),
        (b"BZh", "bzip2 data"),
    ];
    for (magic, what) in SIGNATURES {
        if sample.starts_with(magic) {
            return Some(what);
        }
    }
    if sample.is_empty() {
        return None;
    }
    let control = sample
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0c | 0x1a))
        .count();
    (control * 10 > sample.len()).then_some("binary data")
}
