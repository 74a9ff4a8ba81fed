//! Rewrites PDN files (or stdin) as canonical PDN on stdout; games with syntax errors are
//! reported on stderr and left out.
//!
//! ```text
//! cargo run -p drafti-pdn --example fmt_pdn -- FILE...
//! ```
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use std::fs::File;
use std::io::{self, BufReader, Write};

use drafti_pdn::{write_game, GameReader, ReadError};

fn main() -> io::Result<()> {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let mut first = true;
    for path in &paths {
        for item in GameReader::new(BufReader::new(File::open(path)?)) {
            match item {
                Ok(game) => {
                    if !first {
                        writeln!(out)?;
                    }
                    first = false;
                    out.write_all(write_game(&game).as_bytes())?;
                }
                Err(ReadError::Syntax(e)) => eprintln!("{path}: {e}"),
                Err(ReadError::Io(e)) => return Err(e),
            }
        }
    }
    Ok(())
}
