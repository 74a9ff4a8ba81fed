//! No input makes the reader panic, and how the input is buffered does not change what is
//! read.

use std::io::BufReader;

use drafti_pdn::{parse_games, write_game, GameReader, GameSplitter};
use proptest::prelude::*;

/// Pieces of PDN (and of broken PDN) to build inputs that reach deep into the grammar.
const PIECES: &[&[u8]] = &[
    b"[Event \"x\"]",
    b"[Result \"1-0\"]",
    b"[FEN \"W:W21-32:B1-12\"]",
    b"[",
    b"]",
    b"\"",
    b"\\",
    b"{",
    b"}",
    b"{comment}",
    b"(",
    b")",
    b"1.",
    b"12...",
    b"3\xe2\x80\xa6",
    b"...",
    b"c3-d4",
    b"d6xb4xd2",
    b"22-18",
    b"15x22",
    b"c3d4",
    b"e5:g3",
    b"i9",
    b"33",
    b"-",
    b"x",
    b"!",
    b"?!",
    b"$14",
    b"$",
    b"1-0",
    b"0-2",
    b"1/2-1/2",
    b"*",
    b" ",
    b"\n",
    b"\r\n",
    b"\t",
    b"%",
    b"\xef\xbb\xbf",
    b"\xff",
    b"\xc0\xe1",
    b"\x00",
];

fn pdnish() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(prop::sample::select(PIECES), 0..120).prop_map(|v| v.concat())
}

fn check(input: &[u8]) -> Result<(), TestCaseError> {
    let games = parse_games(input);
    // The same games, read through a tiny buffer (line and buffer boundaries everywhere).
    let small: Vec<_> = GameReader::new(BufReader::with_capacity(3, input))
        .map(|r| r.map_err(|e| e.to_string()))
        .collect();
    prop_assert_eq!(games.len(), small.len());
    for (a, b) in games.iter().zip(&small) {
        match (a, b) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (Err(a), Err(b)) => prop_assert_eq!(&a.to_string(), b),
            _ => prop_assert!(false, "{:?} vs {:?}", a, b),
        }
    }
    for game in games.iter().flatten() {
        prop_assert!(game.span.offset <= input.len());
        let _ = write_game(game);
    }
    for err in games.iter().filter_map(|g| g.as_ref().err()) {
        prop_assert!(err.span.offset <= input.len());
        prop_assert!(err.span.line >= 1 && err.span.column >= 1);
        prop_assert!(!err.message.is_empty());
    }
    // The splitter's pieces are the input, in order, less a BOM and what it skips
    // (whitespace and comments between games).
    let raws: Vec<_> = GameSplitter::new(input).map(|r| r.unwrap()).collect();
    for w in raws.windows(2) {
        prop_assert!(w[0].offset + w[0].bytes.len() <= w[1].offset);
    }
    for raw in &raws {
        prop_assert_eq!(
            &input[raw.offset..raw.offset + raw.bytes.len()],
            &raw.bytes[..]
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn arbitrary_bytes_never_panic(input in prop::collection::vec(any::<u8>(), 0..600)) {
        check(&input)?;
    }

    #[test]
    fn pdn_like_bytes_never_panic(input in pdnish()) {
        check(&input)?;
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let mut text = b"1. c3-d4 ".to_vec();
    for _ in 0..100_000 {
        text.extend_from_slice(b"(c3-d4 ");
    }
    let games = parse_games(&text);
    assert_eq!(games.len(), 1);
    let err = games[0].as_ref().unwrap_err();
    assert!(err.message.contains("nested too deeply"), "{err}");
}

#[test]
fn a_huge_line_is_cut_not_buffered() {
    let mut text = b"[Event \"a\"]\n1. ".to_vec();
    text.extend(std::iter::repeat_n(b'c', 10 << 20));
    text.extend_from_slice(b"\n[Event \"b\"]\n1. c3-d4 *\n");
    let items: Vec<_> = GameReader::new(&text[..]).collect();
    assert_eq!(items.len(), 2);
    let err = items[0].as_ref().unwrap_err().as_syntax().unwrap();
    assert!(err.message.contains("longer than the limit"), "{err}");
    assert_eq!(items[1].as_ref().unwrap().tag("Event"), Some("b"));
}
