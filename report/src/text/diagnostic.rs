//! Problems of a record as text, as a compiler reports errors: where (file, line, column),
//! what, the source line with carets under the token, and for an illegal move the position
//! and the legal moves.
//!
//! ```
//! use drafti_archive::replay::{replay, ReplayOptions};
//! use drafti_pdn::{parse_game, RawGame};
//! use drafti_report::text::diagnostic::write_problem;
//!
//! let raw = RawGame::from_bytes(0, &b"1. c3-d4 f6-e5 2. d4xf6 f6-g5 *"[..]);
//! let game = replay(parse_game(&raw).unwrap(), &ReplayOptions::default());
//! let mut text = String::new();
//! for p in game.errors() {
//!     write_problem(&mut text, "a.pdn", &raw, "game 1", p);
//! }
//! assert!(text.starts_with("a.pdn:1:25: error: "));
//! assert!(text.contains("1 | 1. c3-d4 f6-e5 2. d4xf6 f6-g5 *"));
//! assert!(text.contains("= legal moves: "));
//! ```

use crate::visible;
use drafti_archive::replay::{Problem, ProblemKind, Severity};
use drafti_archive::validation::VariantGuess;
use drafti_pdn::{RawGame, Span, Tag};
use drafti_rules::{Position, Variant};
use std::fmt::Write as _;

/// Characters of the source line shown before and after the token in an excerpt; a longer
/// line (games run together on one line) is cut to this with `…`.
const EXCERPT_CONTEXT: usize = 120;

/// The source line holding `span`, with a caret line under the token.
pub fn source_excerpt(raw: &RawGame, span: Span) -> String {
    let bytes = &raw.bytes;
    let Some(at) = span.offset.checked_sub(raw.offset) else {
        return String::new();
    };
    let at = at.min(bytes.len());
    let line_end = |b: &u8| *b == b'\n' || *b == b'\r';
    let start = bytes[..at].iter().rposition(line_end).map_or(0, |i| i + 1);
    let end = bytes[at..]
        .iter()
        .position(line_end)
        .map_or(bytes.len(), |i| at + i);
    let token_end = (at + span.len).min(end);
    // Tabs as spaces (the carets line up); other control characters made visible.
    let text = |range: std::ops::Range<usize>| {
        visible(&String::from_utf8_lossy(&bytes[range]).replace('\t', " ")).into_owned()
    };
    let (before, token, after) = (text(start..at), text(at..token_end), text(token_end..end));
    if before.trim().is_empty() && token.trim().is_empty() && after.trim().is_empty() {
        return String::new();
    }
    let before = keep_chars(&before, EXCERPT_CONTEXT, false);
    let token = keep_chars(&token, 2 * EXCERPT_CONTEXT, true);
    let after = keep_chars(after.trim_end(), EXCERPT_CONTEXT, true);
    let width = span.line.to_string().len();
    let pad = before.chars().count();
    let carets = token.chars().count().max(1);
    let mut out = String::new();
    let _ = writeln!(out, "{:width$} |", "");
    let _ = writeln!(out, "{} | {before}{token}{after}", span.line);
    let _ = writeln!(
        out,
        "{:width$} | {}{}",
        "",
        " ".repeat(pad),
        "^".repeat(carets)
    );
    out
}

/// `text` cut to its first (`head`) or last `n` characters, with `…` where it was cut.
fn keep_chars(text: &str, n: usize, head: bool) -> String {
    let count = text.chars().count();
    if count <= n {
        return text.to_string();
    }
    if head {
        let mut cut: String = text.chars().take(n).collect();
        cut.push('…');
        cut
    } else {
        let mut cut = String::from("…");
        cut.extend(text.chars().skip(count - n));
        cut
    }
}

/// How a game is named in a problem's `-->` line: `game 3 (Ann - Bob)`, or `game 3`.
pub fn game_label(tags: &[Tag], index: usize) -> String {
    let get = |n: &str| {
        tags.iter()
            .find(|t| t.name.eq_ignore_ascii_case(n))
            .map(|t| t.value.trim())
            .filter(|v| !v.is_empty() && *v != "?")
    };
    match (get("White"), get("Black")) {
        (Some(w), Some(b)) => format!("game {} ({w} - {b})", index + 1),
        _ => format!("game {}", index + 1),
    }
}

/// A problem as a compiler reports one: `FILE:LINE:COLUMN: error: MESSAGE`, the game and
/// ply, the source line with carets under the token, and for an error the position and the
/// legal moves (or the candidates of an ambiguous move).
pub fn write_problem(out: &mut String, file: &str, raw: &RawGame, label: &str, p: &Problem) {
    let severity = match p.severity {
        Severity::Error => "error",
        Severity::Warning => "warning",
    };
    let _ = writeln!(
        out,
        "{file}:{}:{}: {severity}: {}",
        p.span.line,
        p.span.column,
        visible(&p.message)
    );
    let ply = p.ply.map(|n| format!(", ply {n}")).unwrap_or_default();
    let variation = if p.in_variation {
        ", in a variation"
    } else {
        ""
    };
    let _ = writeln!(out, "  --> {}{ply}{variation}", visible(label));
    out.push_str(&source_excerpt(raw, p.span));
    // A move only TzDraft's server allows is a warning that needs its position to be seen.
    if p.severity == Severity::Error || p.kind == ProblemKind::TzDraftOnly {
        if let Some(fen) = &p.fen {
            let _ = writeln!(out, "   = position: {fen}");
            if let Ok(pos) = Position::from_fen(fen) {
                for line in pos.board_text().lines() {
                    let _ = writeln!(out, "       {line}");
                }
            }
        }
        if !p.legal.is_empty() {
            let what = if p.kind == ProblemKind::AmbiguousMove {
                "candidates"
            } else {
                "legal moves"
            };
            let _ = writeln!(out, "   = {what}: {}", p.legal.join(", "));
        } else if p.kind == ProblemKind::IllegalMove {
            let _ = writeln!(out, "   = legal moves: none");
        }
    }
    out.push('\n');
}

/// The note of `drafti validate` on a file whose games name no variant, when some of them are
/// invalid and replay valid under other rules: they were read as Tanzanian, and the variant
/// under which most of the invalid ones replay valid. `None` when every such game is valid
/// (Tanzanian files, the usual case, are not remarked on) or when no other rules make any of
/// the invalid ones valid (the guess was not what went wrong).
///
/// ```
/// use drafti_archive::validation::VariantGuess;
/// use drafti_report::text::diagnostic::variant_note;
///
/// let guess = VariantGuess { untagged: 153, invalid: 152, valid_as: [151, 0] };
/// assert_eq!(
///     variant_note("ru.pdn", &guess).unwrap(),
///     "note: ru.pdn: no GameType or Variant tag, so its 153 games were read as Tanzanian \
///      (tz); 151 of the 152 invalid ones replay valid as russian: try --variant russian"
/// );
/// ```
pub fn variant_note(file: &str, guess: &VariantGuess) -> Option<String> {
    let (read, of, variant) = variant_words(file, guess)?;
    Some(format!(
        "note: {read}; {of} valid as {variant}: try --variant {variant}"
    ))
}

/// Why a command that builds its result from every game refuses a file that
/// [`VariantGuess::wrong_guess`] says is of another variant: the note's facts, and the two
/// ways on.
///
/// ```
/// use drafti_archive::validation::VariantGuess;
/// use drafti_report::text::diagnostic::variant_refusal;
///
/// let guess = VariantGuess { untagged: 102, invalid: 2, valid_as: [0, 2] };
/// assert_eq!(
///     variant_refusal("cz.pdn", &guess).unwrap(),
///     "cz.pdn: no GameType or Variant tag, so its 102 games were read as Tanzanian (tz); \
///      all 2 invalid ones replay valid as czech: give --variant czech (or --variant tz to \
///      read them as Tanzanian all the same)"
/// );
/// ```
pub fn variant_refusal(file: &str, guess: &VariantGuess) -> Option<String> {
    let variant = guess.wrong_guess()?;
    let (read, of, _) = variant_words(file, guess)?;
    Some(format!(
        "{read}; {of} valid as {variant}: give --variant {variant} (or --variant tz to read \
         them as Tanzanian all the same)"
    ))
}

/// The facts of [`variant_note`]: how the file was read, how many of its invalid games
/// replay valid under the variant that makes most of them valid, and that variant.
fn variant_words(file: &str, guess: &VariantGuess) -> Option<(String, String, Variant)> {
    if guess.invalid == 0 {
        return None;
    }
    let games = match guess.untagged {
        1 => "its game was".to_string(),
        n => format!("its {n} games were"),
    };
    let read = format!(
        "{}: no GameType or Variant tag, so {games} read as Tanzanian (tz)",
        visible(file)
    );
    guess.best().map(|(variant, n)| {
        let of = match guess.invalid {
            1 => "the invalid one replays".to_string(),
            total if n == total => format!("all {total} invalid ones replay"),
            total => format!(
                "{n} of the {total} invalid ones {}",
                if n == 1 { "replays" } else { "replay" }
            ),
        };
        (read, of, variant)
    })
}
