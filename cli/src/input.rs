//! Opening the FILES of a command (or `-` for stdin): every problem that keeps a file from
//! being read — missing, a directory, unreadable, binary — is a clear one-line error (exit 2)
//! before any game is read (`drafti_archive::input` says which). Each file is then read
//! through a [`DecodingReader`]: its encoding is decided once (or given with `--encoding`),
//! and the games see UTF-8.

use crate::error::CliError;
use drafti_archive::batch::Input;
use drafti_archive::input;
use drafti_pdn::{encoding_for_label, DecodingReader, Encoding};
use std::io::{self, BufRead, BufReader, IsTerminal};

/// The inputs, opened and checked, and their total size when every one is a regular file.
pub struct Inputs {
    /// The inputs, in the order given.
    pub inputs: Vec<Input>,
    /// Sum of the file sizes (None when stdin is among them).
    pub total_bytes: Option<u64>,
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

/// `reader` as UTF-8: in `encoding`, or in the one detected (told on stderr, once per file).
fn decoded(
    name: &str,
    reader: Box<dyn BufRead + Send>,
    encoding: EncodingArg,
) -> Box<dyn BufRead + Send> {
    let name = name.to_string();
    let tell = Box::new(move |e: &'static Encoding| {
        eprintln!(
            "warning: {name}: not UTF-8; read as {} (detected from its first non-ASCII bytes; --encoding NAME chooses another)",
            e.name()
        );
    });
    Box::new(DecodingReader::new(reader, encoding.encoding, Some(tell)))
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
    let stdin_name = || "-".to_string();
    let names: Vec<String> = if files.is_empty() {
        vec![stdin_name()]
    } else {
        files.to_vec()
    };
    if names.iter().filter(|n| n.as_str() == "-").count() > 1 {
        return Err(CliError::new(
            "'-' (stdin) can be given only once".to_string(),
        ));
    }
    crate::files::refuse_stdout_as_input(&names)?;
    let mut inputs = Vec::with_capacity(names.len());
    let mut total = Some(0u64);
    for name in names {
        if name == "-" {
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
                1 << 18,
                EndOnce {
                    inner: io::stdin(),
                    ended: false,
                },
            ));
            input::check_text_of("<stdin>", &mut reader, expected)
                .map_err(|e| CliError::new(e.0))?;
            inputs.push(Input::new("<stdin>", decoded("<stdin>", reader, encoding)));
            total = None;
            continue;
        }
        let (reader, size) =
            input::open_file_of(&name, expected).map_err(|e| CliError::new(e.0))?;
        total = total.map(|t| t + size);
        let reader = decoded(&name, reader, encoding);
        inputs.push(Input::new(name, reader));
    }
    Ok(Inputs {
        inputs,
        total_bytes: total,
    })
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
