//! Reading files of JSON lines that drafti wrote (the parts of sharded `analyze --json` and
//! `openings --json` runs): what a line's JSON lacks, said in the user's terms.
//!
//! ```
//! use drafti_archive::json_lines::{line_problem, without_bom};
//! let e = serde_json::from_str::<serde_json::Value>("{\"a\":").unwrap_err();
//! assert_eq!(line_problem("{\"a\":", &e), "the line ends inside its JSON (cut short?)");
//! let e = serde_json::from_str::<serde_json::Value>("my notes").unwrap_err();
//! assert_eq!(line_problem("my notes", &e), "not JSON from column 1");
//! assert_eq!(without_bom("\u{feff}{}"), "{}");
//! ```

/// `text` without the byte-order mark an editor may have saved before it (no part of the
/// JSON).
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// What is wrong with `line`, which serde_json refused with `e`: serde_json's words for a
/// field that is missing or of the wrong type, with its column; plain words for text that
/// is not JSON (from where it starts) or is cut short.
pub fn line_problem(line: &str, e: &serde_json::Error) -> String {
    use serde_json::error::Category;
    let column = e.column();
    // serde_json stops a byte or more into a word that is no JSON (`these` fails at `h`, as
    // it could have been `true`): a line that is not an object is no JSON from its start.
    let start = line.len() - line.trim_start().len() + 1;
    match e.classify() {
        Category::Syntax if !line.trim_start().starts_with('{') => {
            format!("not JSON from column {start}")
        }
        // The line's end inside a string or an object (or a line break inside a string, if
        // the line was read with its line break): the line was cut.
        Category::Eof => "the line ends inside its JSON (cut short?)".to_string(),
        Category::Syntax if e.line() > 1 => {
            "the line ends inside its JSON (cut short?)".to_string()
        }
        Category::Syntax => format!("not JSON from column {column}"),
        Category::Data | Category::Io => {
            let text = e.to_string();
            let what = text.split(" at line ").next().unwrap_or(&text);
            format!("{what} (column {column})")
        }
    }
}
