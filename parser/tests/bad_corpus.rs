//! `corpus/bad/`: each malformed record gives the error its README promises (line, column,
//! message), and the games after it are still read.

use std::path::PathBuf;

use drafti_pdn::{GameReader, GameRecord, ParseError, ReadError, WarningKind};

fn read(name: &str) -> Vec<Result<GameRecord, ParseError>> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus/bad")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    GameReader::new(&bytes[..])
        .map(|item| match item {
            Ok(g) => Ok(g),
            Err(ReadError::Syntax(e)) => Err(e),
            Err(ReadError::Io(e)) => panic!("{e}"),
        })
        .collect()
}

/// Asserts that `items[at]` is an error at (line, column) with `message`, and returns it.
fn error_at<'a>(
    items: &'a [Result<GameRecord, ParseError>],
    at: usize,
    line: u32,
    column: u32,
    message: &str,
) -> &'a ParseError {
    let err = items[at].as_ref().expect_err("an error");
    assert_eq!(
        (
            err.index,
            err.span.line,
            err.span.column,
            err.message.as_str()
        ),
        (at, line, column, message),
        "{err}"
    );
    err
}

fn ok(items: &[Result<GameRecord, ParseError>], at: usize) -> &GameRecord {
    items[at]
        .as_ref()
        .unwrap_or_else(|e| panic!("game {at}: {e}"))
}

#[test]
fn unterminated_comment() {
    let items = read("unterminated-comment.pdn");
    assert_eq!(items.len(), 3);
    ok(&items, 0);
    let e = error_at(&items, 1, 19, 10, "unterminated comment");
    assert_eq!(
        (e.expected.as_str(), e.found.as_str()),
        ("'}'", "end of game")
    );
    assert_eq!(ok(&items, 2).tag("Round"), Some("3"));
}

#[test]
fn unbalanced_parentheses() {
    let items = read("unbalanced-parentheses.pdn");
    assert_eq!(items.len(), 3);
    let e = error_at(
        &items,
        1,
        19,
        16,
        "unbalanced parenthesis: the variation is not closed before the result",
    );
    assert_eq!(
        (e.expected.as_str(), e.found.as_str()),
        ("')'", "result 0-1")
    );
    assert_eq!(ok(&items, 2).tag("Round"), Some("3"));

    let items = read("extra-parenthesis.pdn");
    assert_eq!(items.len(), 2);
    let e = error_at(&items, 0, 9, 24, "unbalanced parenthesis: ')' without '('");
    assert_eq!(e.found, "')'");
    assert_eq!(ok(&items, 1).tag("Round"), Some("2"));
}

#[test]
fn squares_off_the_board() {
    let items = read("square-i9.pdn");
    assert_eq!(items.len(), 2);
    let e = error_at(
        &items,
        0,
        9,
        22,
        "square i9 is off the board (files a-h, ranks 1-8)",
    );
    assert_eq!((e.found.as_str(), e.span.len), ("'i9'", 2));
    assert_eq!(ok(&items, 1).moves.nodes.len(), 7);

    let items = read("square-33.pdn");
    assert_eq!(items.len(), 2);
    let e = error_at(
        &items,
        0,
        9,
        47,
        "square 33 is out of range (numeric squares are 1-32)",
    );
    assert_eq!(e.found, "'33'");
    ok(&items, 1);
}

#[test]
fn broken_tag() {
    let items = read("broken-tag.pdn");
    assert_eq!(items.len(), 3);
    ok(&items, 0);
    let e = error_at(
        &items,
        1,
        12,
        8,
        "broken tag: the value of tag White has no closing quote",
    );
    assert_eq!(
        (e.expected.as_str(), e.found.as_str()),
        ("'\"'", "end of line")
    );
    assert_eq!(ok(&items, 2).tag("Round"), Some("3"));
}

#[test]
fn garbage_and_binary_between_games() {
    let items = read("garbage-between-games.pdn");
    assert_eq!(items.len(), 3);
    ok(&items, 0);
    let e = error_at(&items, 1, 11, 1, "unexpected text between games");
    assert_eq!(e.found, "'This'");
    assert_eq!(ok(&items, 2).tag("Round"), Some("2"));

    let items = read("binary-bytes.pdn");
    assert_eq!(items.len(), 3);
    ok(&items, 0);
    let e = error_at(&items, 1, 11, 1, "unexpected text between games");
    assert_eq!(e.found, "byte 0x00");
    assert_eq!(ok(&items, 2).tag("Round"), Some("2"));
}

#[test]
fn truncated_file() {
    let items = read("truncated.pdn");
    assert_eq!(items.len(), 2);
    assert_eq!(ok(&items, 0).moves.nodes.len(), 9);
    let e = error_at(&items, 1, 19, 28, "expected a square after '-'");
    assert_eq!(e.found, "'d'");
}

#[test]
fn empty_file_has_no_games() {
    assert!(read("empty.pdn").is_empty());
}

#[test]
fn legacy_encodings_are_decoded_with_warnings() {
    let items = read("legacy-encoding.pdn");
    assert_eq!(items.len(), 2);
    let (utf8, legacy) = (ok(&items, 0), ok(&items, 1));
    assert!(utf8.warnings.is_empty());
    assert!(
        utf8.same_content(legacy),
        "decoded text equals the UTF-8 game"
    );
    let kinds: Vec<_> = legacy
        .warnings
        .iter()
        .map(|w| (w.kind, w.span.line))
        .collect();
    assert_eq!(
        kinds,
        [
            (WarningKind::LegacyEncoding, 8),
            (WarningKind::LegacyEncoding, 9),
            (WarningKind::LegacyEncoding, 10),
            (WarningKind::LegacyEncoding, 13),
        ]
    );
    assert_eq!(
        legacy.warnings[0].message,
        "tag Event is not UTF-8; decoded as windows-1251"
    );
    assert_eq!(
        legacy.warnings[2].message,
        "tag Black is not UTF-8; decoded as windows-1252"
    );
    assert_eq!(
        legacy.warnings[3].message,
        "comment is not UTF-8; decoded as windows-1251"
    );
    // The BOM is not counted in columns, but is in offsets.
    assert_eq!(utf8.span.offset, 3);
    assert_eq!((utf8.span.line, utf8.span.column), (1, 1));
}

#[test]
fn missing_result_is_a_warning() {
    let items = read("missing-result.pdn");
    assert_eq!(items.len(), 2);
    let first = ok(&items, 0);
    assert!(first.result.is_none());
    assert_eq!(first.warnings.len(), 1);
    assert_eq!(first.warnings[0].kind, WarningKind::MissingResult);
    assert_eq!(first.warnings[0].span.line, 5);
    assert_eq!(ok(&items, 1).tag("Round"), Some("2"));
}
