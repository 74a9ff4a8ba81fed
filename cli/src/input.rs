//! Opening the FILES of a command (or `-` for stdin): every problem that keeps a file from
//! being read — missing, a directory, unreadable, binary — is a clear one-line error (exit 2)
//! before any game is read (`drafti_archive::input` says which). Each file is then read
//! through a [`DecodingReader`]: its encoding is decided once (or given with `--encoding`),
//! and the games see UTF-8.
//!
//! Stdin is read as it comes, once; a command that reads its inputs twice (the variant
//! policy's replay before a search, `crate::runner`) copies it first to a temporary file
//! ([`Stdin::spool`]) and reads that copy, still named `<stdin>`.

use crate::error::CliError;
use drafti_archive::batch::Input;
use drafti_archive::input;
use drafti_pdn::{encoding_for_label, DecodingReader, Encoding};
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Write};
use std::sync::Arc;

/// The read buffer of stdin and of its copy (as of a file).
const BUFFER_BYTES: usize = 1 << 18;

/// The inputs, opened and checked, and their total size when it is known.
pub struct Inputs {
    /// The inputs, in the order given.
    pub inputs: Vec<Input>,
    /// Sum of the file sizes (None when stdin is among them, read as it comes).
    pub total_bytes: Option<u64>,
    /// The variants of the games, when known before the run (`--variant`, or a replay of the
    /// inputs first: `open_refusing_wrong_variant` of the binary's runner).
    pub variants: Option<Vec<drafti_rules::Variant>>,
}

/// Where `-` (stdin) is read from.
#[derive(Clone, Debug, Default)]
pub enum Stdin {
    /// Stdin itself, as it comes: it can be read once.
    #[default]
    Stream,
    /// Its copy in a temporary file ([`Stdin::spool`]), read from the start as often as
    /// asked. The file has no name (or loses it at once): the system removes it when the
    /// last reader of it is dropped, or the process ends however it ends.
    Spooled {
        /// The copy.
        file: Arc<File>,
        /// Its size.
        bytes: u64,
    },
}

impl Stdin {
    /// Copies stdin (checked to be `expected` text first, as when it is read as it comes) to
    /// a temporary file in the system's temporary folder, through one bounded buffer: memory
    /// stays flat whatever comes in. A failure to read stdin or to write the copy (a full
    /// disk) is an error naming `<stdin>`.
    pub fn spool(expected: &str) -> Result<Stdin, CliError> {
        let mut reader = stdin_stream(expected)?;
        let cannot_copy = |e: &io::Error| {
            let reason = match e.kind() {
                // Only the folder can be missing.
                io::ErrorKind::NotFound => "no such folder".to_string(),
                _ => input::describe(e),
            };
            CliError::new(format!(
                "cannot copy <stdin> to a temporary file in {}: {reason} (--variant reads stdin once, as it comes)",
                std::env::temp_dir().display()
            ))
        };
        let mut file = tempfile::tempfile().map_err(|e| cannot_copy(&e))?;
        let mut bytes = 0u64;
        loop {
            let buf = match reader.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    return Err(CliError::new(format!(
                        "cannot read <stdin>: {}",
                        input::describe(&e)
                    )))
                }
            };
            if buf.is_empty() {
                break;
            }
            file.write_all(buf).map_err(|e| cannot_copy(&e))?;
            let n = buf.len();
            reader.consume(n);
            bytes += n as u64;
        }
        Ok(Stdin::Spooled {
            file: Arc::new(file),
            bytes,
        })
    }
}

/// A reader of the spooled stdin from its start, at a position of its own (the readers of
/// one copy do not move each other's).
struct SpoolReader {
    file: Arc<File>,
    at: u64,
}

impl io::Read for SpoolReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        #[cfg(unix)]
        let n = std::os::unix::fs::FileExt::read_at(&*self.file, buf, self.at)?;
        #[cfg(windows)]
        let n = std::os::windows::fs::FileExt::seek_read(&*self.file, buf, self.at)?;
        self.at += n as u64;
        Ok(n)
    }
}

/// `--encoding NAME`, shared by the commands that read archives.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct EncodingArg {
    /// Read every file in this encoding (utf-8, latin1, windows-1251, cp866, …) instead of
    /// deciding each file's encoding from its first non-ASCII bytes.
    #[arg(long, value_name = "NAME", value_parser = parse_encoding)]
    pub encoding: Option<&'static Encoding>,
}

fn parse_encoding(name: &str) -> Result<&'static Encoding, String> {
    match encoding_for_label(name) {
        // UTF-16 files are refused as binary before decoding, so the name cannot work.
        Some(e) if e.output_encoding() == e => Ok(e),
        _ => Err(format!(
            "unknown encoding '{name}': expected a name such as utf-8, latin1, windows-1252, windows-1251, cp866, koi8-r"
        )),
    }
}

/// `reader` as UTF-8: in `encoding`, or in the one detected (told on stderr, once per file,
/// when `tell`).
fn decoded(
    name: &str,
    reader: Box<dyn BufRead + Send>,
    encoding: EncodingArg,
    tell: bool,
) -> Box<dyn BufRead + Send> {
    let name = name.to_string();
    let tell = tell.then(|| -> drafti_pdn::OnDetected {
        Box::new(move |e: &'static Encoding| {
            eprintln!(
                "warning: {name}: not UTF-8; read as {} (detected from its first non-ASCII bytes; --encoding NAME chooses another)",
                e.name()
            );
        })
    });
    Box::new(DecodingReader::new(reader, encoding.encoding, tell))
}

/// Opens `files` (`-` or no file at all means stdin), read in `encoding`.
pub fn open_inputs(files: &[String], encoding: EncodingArg) -> Result<Inputs, CliError> {
    open_inputs_of(files, encoding, input::PDN_TEXT)
}

/// [`open_inputs`] for files of other text, `expected` (`the JSON lines of drafti analyze
/// --json`), named so in what is said about them.
pub fn open_inputs_of(
    files: &[String],
    encoding: EncodingArg,
    expected: &str,
) -> Result<Inputs, CliError> {
    open_inputs_from(files, encoding, expected, &Stdin::Stream, true)
}

/// The inputs `files` names: `-` for stdin, or stdin alone when there is no file; refused
/// when stdin is named twice or a file is stdout.
pub fn input_names(files: &[String]) -> Result<Vec<String>, CliError> {
    let names: Vec<String> = if files.is_empty() {
        vec!["-".to_string()]
    } else {
        files.to_vec()
    };
    if names.iter().filter(|n| n.as_str() == "-").count() > 1 {
        return Err(CliError::new(
            "'-' (stdin) can be given only once".to_string(),
        ));
    }
    crate::files::refuse_stdout_as_input(&names)?;
    Ok(names)
}

/// [`open_inputs_of`] with `-` read from `stdin` (as it comes, or its copy), and the
/// encodings detected told on stderr only when `tell_encodings` (a reading before the run's
/// own keeps quiet: the run tells them).
pub fn open_inputs_from(
    files: &[String],
    encoding: EncodingArg,
    expected: &str,
    stdin: &Stdin,
    tell_encodings: bool,
) -> Result<Inputs, CliError> {
    let names = input_names(files)?;
    let mut inputs = Vec::with_capacity(names.len());
    let mut total = Some(0u64);
    for name in names {
        if name == "-" {
            let reader = match stdin {
                Stdin::Stream => {
                    total = None;
                    stdin_stream(expected)?
                }
                Stdin::Spooled { file, bytes } => {
                    total = total.map(|t| t + bytes);
                    let mut reader: Box<dyn BufRead + Send> = Box::new(BufReader::with_capacity(
                        BUFFER_BYTES,
                        SpoolReader {
                            file: Arc::clone(file),
                            at: 0,
                        },
                    ));
                    input::check_text_of("<stdin>", &mut reader, expected)
                        .map_err(|e| CliError::new(e.0))?;
                    reader
                }
            };
            let reader = decoded("<stdin>", reader, encoding, tell_encodings);
            inputs.push(Input::new("<stdin>", reader));
            continue;
        }
        let (reader, size) =
            input::open_file_of(&name, expected).map_err(|e| CliError::new(e.0))?;
        total = total.map(|t| t + size);
        let reader = decoded(&name, reader, encoding, tell_encodings);
        inputs.push(Input::new(name, reader));
    }
    Ok(Inputs {
        inputs,
        total_bytes: total,
        variants: None,
    })
}

/// Stdin as it comes, checked to be `expected` text; on a terminal, what the wait is for is
/// said first.
fn stdin_stream(expected: &str) -> Result<Box<dyn BufRead + Send>, CliError> {
    if io::stdin().is_terminal() {
        // Nothing piped in and no FILES: say what the wait is for.
        if expected == input::PDN_TEXT {
            eprintln!(
                "reading PDN from the terminal: paste or type the games, then press Ctrl-D (Ctrl-Z Enter on Windows); or give FILES, e.g. drafti validate games.pdn"
            );
        } else {
            eprintln!("reading {expected} from the terminal: end with Ctrl-D");
        }
    }
    let mut reader: Box<dyn BufRead + Send> = Box::new(BufReader::with_capacity(
        BUFFER_BYTES,
        EndOnce {
            inner: io::stdin(),
            ended: false,
        },
    ));
    input::check_text_of("<stdin>", &mut reader, expected).map_err(|e| CliError::new(e.0))?;
    Ok(reader)
}

/// Stdin that stays at its end once it got there: on a terminal, Ctrl-D ends only the read
/// it answers, and a reader that looks again (the splitter does) would wait for a second one.
struct EndOnce<R> {
    inner: R,
    ended: bool,
}

impl<R: io::Read> io::Read for EndOnce<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.ended || buf.is_empty() {
            return Ok(0);
        }
        let n = self.inner.read(buf)?;
        self.ended = n == 0;
        Ok(n)
    }
}

/// Whether stdin brings data (a pipe, a file or a socket) rather than a terminal, nothing
/// (`/dev/null`) or a closed descriptor.
pub fn stdin_is_piped() -> bool {
    if std::io::stdin().is_terminal() {
        return false;
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        match std::fs::metadata("/dev/stdin") {
            Ok(m) => {
                let t = m.file_type();
                t.is_fifo() || t.is_file() || t.is_socket()
            }
            Err(_) => false,
        }
    }
    #[cfg(not(unix))]
    {
        true
    }
}

/// Whether piped stdin ends before its first byte (e.g. a script's empty pipe): then the
/// bundled corpus is reported, not nothing. Waits for the first byte.
pub fn stdin_is_empty() -> Result<bool, CliError> {
    let mut stdin = std::io::stdin().lock();
    let empty = stdin
        .fill_buf()
        .map_err(|e| CliError::new(format!("cannot read <stdin>: {e}")))?
        .is_empty();
    if empty {
        eprintln!("nothing on stdin: reporting on the bundled corpus");
    }
    Ok(empty)
}
