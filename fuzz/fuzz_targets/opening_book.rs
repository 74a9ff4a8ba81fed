//! Any bytes as an opening book (`--book FILE`, TSV: code, name, moves): parsed, it is a book
//! or an error naming the row, column and problem; never a panic.
#![no_main]
#![forbid(unsafe_code)]

use drafti_archive::openings::Book;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    match Book::parse(&text) {
        Ok(book) => {
            let _ = book.len();
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
});
