//! parse(write(r)) has the same content as r for generated records, and writing again gives
//! the same text.

use drafti_pdn::{
    parse_games, write_game, write_games, Comment, GameRecord, GameResult, Line, MoveNode,
    MoveNumber, MoveToken, Nag, ResultToken, Separator, Tag,
};
use drafti_rules::Square;
use proptest::prelude::*;

fn square() -> impl Strategy<Value = Square> {
    (0u8..32).prop_map(|i| Square::from_index(i).unwrap())
}

fn move_token() -> impl Strategy<Value = MoveToken> {
    (
        prop::collection::vec(square(), 2..5),
        prop_oneof![
            Just(Separator::Dash),
            Just(Separator::Capture('x')),
            Just(Separator::Capture(':')),
            Just(Separator::None),
        ],
        any::<bool>(),
    )
        // No move starts and ends on one square in two squares (a king's capture back home is
        // written with its landing squares); "1-1" would also be the 1-1 result token.
        .prop_filter(
            "a two-square move starts and ends apart",
            |(squares, _, _)| squares.len() > 2 || squares[0] != squares[1],
        )
        .prop_map(|(squares, sep, numeric)| {
            // Numeric squares need a separator.
            MoveToken::new(squares, sep, numeric && sep != Separator::None)
        })
}

fn comment() -> impl Strategy<Value = Comment> {
    "[a-zA-Z0-9 ,.!?%\n\\[\\]{()$*-]{0,30}|\\[%clk 0:01:02\\] ok|Любая фраза"
        .prop_filter("a text the splitter reads otherwise, by design", |text| {
            !cut_by_design(text)
        })
        .prop_map(|text| Comment {
            text,
            span: Default::default(),
        })
}

/// Whether the splitter cuts a comment holding `text` by design (split.rs, `GameSplitter`):
/// after a place where an unclosed comment would give way to the next game (a `1.` that
/// starts a line after a blank line, or follows a result token), two things that end a
/// game (a result, a tag line, a blank line), or one and then a `{` (taken for a later
/// game's own comment). Generous: it may say yes to a text the splitter keeps whole.
fn cut_by_design(text: &str) -> bool {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let results = ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"];
    let mut tokens = Vec::new();
    let mut at = 0;
    for token in text.split(|c: char| c.is_ascii_whitespace()) {
        if !token.is_empty() {
            tokens.push((at, token));
        }
        at += token.len() + 1;
    }
    // Where a game may end in `s`, each at least once.
    let ends = |s: &str| {
        let lines: Vec<&str> = s.split('\n').collect();
        let blank = lines.iter().skip(1).filter(|l| l.trim().is_empty()).count();
        results.iter().map(|r| s.matches(r).count()).sum::<usize>() + s.matches('[').count() + blank
    };
    tokens.iter().enumerate().any(|(k, &(at, token))| {
        if !(token.starts_with("1.") || token.starts_with("1\u{2026}")) {
            return false;
        }
        let line = text[..at].rfind('\n').map_or(0, |n| n + 1);
        let after_blank = text[line..at].trim().is_empty()
            && (line == 0
                || text[..line - 1]
                    .rsplit('\n')
                    .next()
                    .unwrap()
                    .trim()
                    .is_empty());
        let after_result = k > 0 && results.contains(&tokens[k - 1].1);
        let rest = &text[at..];
        (after_blank || after_result)
            && (ends(rest) >= 2
                || rest
                    .rfind('{')
                    .is_some_and(|brace| ends(&rest[..brace]) > 0))
    })
}

fn node(variations: impl Strategy<Value = Vec<Line>>) -> impl Strategy<Value = MoveNode> {
    (
        prop::option::of((1u32..200, any::<bool>())),
        move_token(),
        prop::collection::vec(0u8..=255, 0..3),
        prop::collection::vec(comment(), 0..2),
        variations,
    )
        .prop_map(|(number, mv, nags, comments, variations)| MoveNode {
            number: number.map(|(number, ellipsis)| MoveNumber {
                number,
                ellipsis,
                span: Default::default(),
            }),
            mv,
            nags: nags
                .into_iter()
                .map(|value| Nag {
                    value,
                    span: Default::default(),
                })
                .collect(),
            comments: comments.into(),
            variations: variations.into(),
        })
}

fn line() -> impl Strategy<Value = Line> {
    let leaf = (
        prop::collection::vec(node(Just(Vec::new())), 0..4),
        prop::collection::vec(comment(), 0..2),
    )
        .prop_map(|(nodes, leading_comments)| Line {
            nodes,
            leading_comments,
        });
    leaf.prop_recursive(3, 24, 3, |inner| {
        (
            prop::collection::vec(node(prop::collection::vec(inner, 0..2)), 0..5),
            prop::collection::vec(comment(), 0..2),
        )
            .prop_map(|(nodes, leading_comments)| Line {
                nodes,
                leading_comments,
            })
    })
}

fn tag() -> impl Strategy<Value = Tag> {
    (
        prop_oneof![
            Just("Event".to_string()),
            Just("White".to_string()),
            Just("Result".to_string()),
            Just("FEN".to_string()),
            "[A-Za-z][A-Za-z0-9_]{0,10}",
        ],
        "[^\\x00-\\x1f\\x7f]{0,20}",
    )
        .prop_map(|(name, value)| Tag {
            name,
            value,
            span: Default::default(),
        })
}

fn result() -> impl Strategy<Value = ResultToken> {
    prop::sample::select(vec![
        "1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*",
    ])
    .prop_map(|text| ResultToken {
        result: GameResult::parse_str(text).unwrap(),
        text: text.to_string(),
        span: Default::default(),
    })
}

fn record() -> impl Strategy<Value = GameRecord> {
    (
        prop::collection::vec(tag(), 0..6),
        line(),
        prop::option::of(result()),
        prop::collection::vec(comment(), 0..2),
    )
        .prop_map(|(tags, mut moves, result, leading_comments)| {
            // The parser files mainline leading comments under the record.
            let mut leading = leading_comments;
            leading.append(&mut moves.leading_comments);
            let mut game = GameRecord {
                tags,
                moves,
                result,
                leading_comments: leading,
                ..GameRecord::default()
            };
            game.sort_tags();
            if game.tags.is_empty() && game.moves.nodes.is_empty() && game.result.is_none() {
                game.result = Some(ResultToken::new(GameResult::Unknown));
            }
            game
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn parse_of_write_gives_the_record_back(game in record()) {
        let text = write_game(&game);
        let parsed = parse_games(text.as_bytes());
        prop_assert_eq!(parsed.len(), 1, "{}", text);
        let back = match &parsed[0] {
            Ok(g) => g.clone(),
            Err(e) => return Err(TestCaseError::fail(format!("{e}\n{text}"))),
        };
        let (mut a, mut b) = (game.clone(), back.clone());
        a.clear_spans();
        b.clear_spans();
        b.warnings.clear();
        prop_assert_eq!(&a, &b, "{}", text);
        prop_assert!(game.same_content(&back));
        prop_assert_eq!(write_game(&back), text.clone());
        for l in text.lines() {
            // Only a token longer than a line (a comment or a tag) may pass 80 columns.
            if l.chars().count() > 80 {
                prop_assert!(l.starts_with('[') || l.contains('{') || l.contains('}'), "{}", l);
            }
        }
    }

    #[test]
    fn many_games_in_one_file(games in prop::collection::vec(record(), 1..5)) {
        let games: Vec<GameRecord> = games
            .into_iter()
            .enumerate()
            .map(|(i, mut g)| {
                g.result.get_or_insert(ResultToken::new(GameResult::Draw));
                // Comments right after a result belong to that game (see write_games).
                if i > 0 && g.tags.is_empty() {
                    g.leading_comments.clear();
                }
                g
            })
            .collect();
        let text = write_games(&games);
        let parsed = parse_games(text.as_bytes());
        prop_assert_eq!(parsed.len(), games.len(), "{}", text);
        for (i, (a, b)) in games.iter().zip(&parsed).enumerate() {
            let b = b.as_ref().map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
            prop_assert_eq!(b.index, i);
            prop_assert!(a.same_content(b), "{}", text);
        }
    }
}

/// A comment holding what ends a game outside comments (a result at a line end, or a blank
/// line, then a line starting with move number 1: the property test's case) reads back as
/// written, wherever it is, with the game's result right after it and another game after.
#[test]
fn comments_holding_results_and_first_moves_read_back() {
    let skeleton = "[Event \"e\"]\n\n1. c3-d4 d6-e5 (1... b6-a5 (1... f6-g5) 2. b2-c3) 2. b2-c3 *";
    let skeleton = parse_games(skeleton.as_bytes()).remove(0).unwrap();
    let other = parse_games(b"1. c3-b4 f6-g5 0-1").remove(0).unwrap();
    for result in ["1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"] {
        for text in [
            format!("{result}\n1."),
            format!("a {result}\n1. c3-d4 d6-e5\nb"),
            format!("a\n{result} 1. c3-d4\nb"),
            format!("a {result}\n\n1. c3-d4"),
            format!("\n\n1. {result}"),
            format!("as in {result}\n1. c3-d4 d6-e5 {result} later"),
            format!("{result}\n1. c3-d4\n% x\n"),
            format!("{result}\n1.\n%"),
            format!("{result}\n1. {{ x"),
            format!("{result}\n1. ; x"),
        ] {
            let comment = Comment {
                text: text.clone(),
                span: Default::default(),
            };
            for place in 0..5 {
                let mut game = skeleton.clone();
                game.result = Some(ResultToken {
                    result: GameResult::parse_str(result).unwrap(),
                    text: result.to_string(),
                    span: Default::default(),
                });
                let main = &mut game.moves.nodes;
                match place {
                    0 => game.leading_comments.push(comment.clone()),
                    1 => main[0].comments.push(comment.clone()),
                    2 => main[1].variations[0].leading_comments.push(comment.clone()),
                    3 => main[1].variations[0].nodes[0].variations[0].nodes[0]
                        .comments
                        .push(comment.clone()),
                    // The last one: the game's result right after it.
                    _ => main[2].comments.push(comment.clone()),
                }
                for tags in [true, false] {
                    if !tags {
                        game.tags.clear();
                    }
                    let mut games = vec![game.clone(), other.clone(), game.clone()];
                    if !tags && place == 0 {
                        // A game's leading comment after another game's result is that game's.
                        games.pop();
                    }
                    let written = write_games(&games);
                    let read = parse_games(written.as_bytes());
                    assert_eq!(read.len(), games.len(), "{written}");
                    for (a, b) in games.iter().zip(&read) {
                        let b = b.as_ref().unwrap_or_else(|e| panic!("{e}\n{written}"));
                        assert!(a.same_content(b), "{written}");
                    }
                }
            }
        }
    }
}
