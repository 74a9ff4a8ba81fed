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
    check_text(name, &mut reader)?;
    Ok((reader, meta.len()))
}

/// Refuses input that is clearly not text ([`binary_reason`] of its first bytes), looking at
/// them without consuming them. (A few stray bytes in a text file are left to the parser,
/// which reports them where they are.)
pub fn check_text(name: &str, reader: &mut Box<dyn BufRead + Send>) -> Result<(), InputError> {
    let buf = reader
        .fill_buf()
        .map_err(|e| InputError(format!("cannot read {name}: {}", describe(&e))))?;
    match binary_reason(&buf[..buf.len().min(SNIFF_BYTES)]) {
        Some(reason) => Err(InputError(format!(
            "{name} is not a text file ({reason}); expected PDN text"
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

/// The bytes read through the readers it wraps, counted and checksummed (CRC-32) in the
/// order they are read: what a run read, to tell later whether two runs read the same
/// archive (the parts of a sharded `openings` run each read every byte of it).
///
/// ```
/// use drafti_archive::input::Fingerprint;
/// use std::io::Read;
/// let fingerprint = Fingerprint::default();
/// let mut text = String::new();
/// fingerprint.wrap(Box::new(&b"[Event \"Dar\"]\n"[..])).read_to_string(&mut text).unwrap();
/// assert_eq!(fingerprint.bytes(), 14);
/// assert_eq!(fingerprint.crc32(), crc32fast::hash(b"[Event \"Dar\"]\n"));
/// ```
#[derive(Clone, Default)]
pub struct Fingerprint(std::sync::Arc<std::sync::Mutex<(u64, crc32fast::Hasher)>>);

impl Fingerprint {
    /// `reader`, with every byte read through it added to this fingerprint.
    pub fn wrap(&self, reader: Box<dyn BufRead + Send>) -> Box<dyn BufRead + Send> {
        Box::new(Fingerprinted {
            inner: reader,
            fingerprint: self.clone(),
        })
    }

    /// Bytes read so far.
    pub fn bytes(&self) -> u64 {
        self.0.lock().map_or(0, |f| f.0)
    }

    /// The CRC-32 of the bytes read so far.
    pub fn crc32(&self) -> u32 {
        self.0.lock().map_or(0, |f| f.1.clone().finalize())
    }

    fn add(&self, bytes: &[u8]) {
        if let Ok(mut f) = self.0.lock() {
            f.0 += bytes.len() as u64;
            f.1.update(bytes);
        }
    }
}

/// A reader that adds what is read to a [`Fingerprint`].
struct Fingerprinted {
    inner: Box<dyn BufRead + Send>,
    fingerprint: Fingerprint,
}

impl io::Read for Fingerprinted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.fingerprint.add(&buf[..n]);
        Ok(n)
    }
}

impl BufRead for Fingerprinted {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        // The bytes consumed are still in the inner buffer: no read happens here.
        if let Ok(buffered) = self.inner.fill_buf() {
            self.fingerprint
                .add(&buffered[..amount.min(buffered.len())]);
        }
        self.inner.consume(amount);
    }
}
