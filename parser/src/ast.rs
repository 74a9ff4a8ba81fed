//! The syntax tree of one game record: tags, movetext (mainline and variations with their
//! comments and NAGs) and result. The parser builds it; the writer prints it; replay reads it.
//!
//! Nothing here is checked against the rules: a [`MoveToken`] is what was written.

use std::fmt::{self, Write as _};

use drafti_rules::Square;
use smallvec::SmallVec;
use thin_vec::ThinVec;

pub use crate::move_text::MoveText;
use crate::span::Span;

/// One game of a PDN file.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GameRecord {
    /// 0-based number of this game (or unreadable chunk) in the file.
    pub index: usize,
    /// Where the game starts (its first tag or token); `len` runs to the end of its last token.
    pub span: Span,
    /// Tag pairs in the order written.
    pub tags: Vec<Tag>,
    /// The mainline.
    ///
    /// Comments written before the first mainline move are in
    /// [`leading_comments`](Self::leading_comments); `moves.leading_comments` is left empty by
    /// the parser (the writer prints both).
    pub moves: Line,
    /// The game terminator, if the movetext had one.
    pub result: Option<ResultToken>,
    /// Things that were read but are not quite right (legacy encoding, missing result…).
    pub warnings: Vec<ParseWarning>,
    /// Comments before the first move (including any before or between the tags).
    pub leading_comments: Vec<Comment>,
}

impl GameRecord {
    /// The value of the first tag called `name` (compared case-insensitively).
    ///
    /// ```
    /// let game = drafti_pdn::parse_games(b"[Event \"Dar\"]\n*").remove(0).unwrap();
    /// assert_eq!(game.tag("event"), Some("Dar"));
    /// assert_eq!(game.tag("Site"), None);
    /// ```
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| t.value.as_str())
    }

    /// Sets the value of the first tag called `name` (compared case-insensitively), or adds
    /// the tag after the others.
    ///
    /// ```
    /// let mut game = drafti_pdn::parse_games(b"[Event \"Dar\"]\n*").remove(0).unwrap();
    /// game.set_tag("GameType", "29");
    /// game.set_tag("event", "Tanga");
    /// assert_eq!(game.tag("GameType"), Some("29"));
    /// assert_eq!(game.tag("Event"), Some("Tanga"));
    /// assert_eq!(game.tags.len(), 2);
    /// ```
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|t| t.name.eq_ignore_ascii_case(name))
        {
            Some(tag) => tag.value = value,
            None => self.tags.push(Tag {
                name: name.to_string(),
                value,
                span: Span::default(),
            }),
        }
    }

    /// The result written in the `Result` tag, if the tag is there and readable.
    pub fn tag_result(&self) -> Option<GameResult> {
        self.tag("Result").and_then(GameResult::parse_str)
    }

    /// Puts the tags in the order the writer uses: `Event Site Date Round White Black
    /// Result` (names compared case-insensitively), then the others in their order.
    pub fn sort_tags(&mut self) {
        self.tags.sort_by_key(|t| tag_rank(&t.name));
    }

    /// Sets every span in the record (tags, moves, comments, NAGs, numbers, result,
    /// warnings) to `Span::default()`.
    pub fn clear_spans(&mut self) {
        self.span = Span::default();
        for t in &mut self.tags {
            t.span = Span::default();
        }
        self.moves.clear_spans();
        if let Some(r) = &mut self.result {
            r.span = Span::default();
        }
        for w in &mut self.warnings {
            w.span = Span::default();
        }
        for c in &mut self.leading_comments {
            c.span = Span::default();
        }
    }

    /// Equality of what the record says: compares tags, moves, comments, NAGs, variations
    /// and result, ignoring spans, `index` and `warnings` (which describe the source bytes,
    /// not the game).
    ///
    /// ```
    /// use drafti_pdn::{parse_games, write_game};
    /// let game = parse_games(b"[Event \"x\"]\n\n1. c3-d4 {ok} (1. c3-b4 $2) d6-e5 1-0")
    ///     .remove(0)
    ///     .unwrap();
    /// let again = parse_games(write_game(&game).as_bytes()).remove(0).unwrap();
    /// assert!(game.same_content(&again));
    /// ```
    pub fn same_content(&self, other: &GameRecord) -> bool {
        self.tags.len() == other.tags.len()
            && self
                .tags
                .iter()
                .zip(&other.tags)
                .all(|(a, b)| a.name == b.name && a.value == b.value)
            && self.moves.same_content(&other.moves)
            && match (&self.result, &other.result) {
                (None, None) => true,
                (Some(a), Some(b)) => a.result == b.result && a.text == b.text,
                _ => false,
            }
            && same_comments(&self.leading_comments, &other.leading_comments)
    }
}

/// The standard tags the writer puts first, in this order.
pub(crate) const TAG_ROSTER: [&str; 7] =
    ["Event", "Site", "Date", "Round", "White", "Black", "Result"];

/// Where a tag goes in the writer's order.
pub(crate) fn tag_rank(name: &str) -> usize {
    TAG_ROSTER
        .iter()
        .position(|r| r.eq_ignore_ascii_case(name))
        .unwrap_or(TAG_ROSTER.len())
}

fn same_comments(a: &[Comment], b: &[Comment]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.text == y.text)
}

/// A tag pair `[Name "value"]`; the value is unescaped (`\"` → `"`, `\\` → `\`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Tag {
    /// The tag name as written (e.g. `Event`).
    pub name: String,
    /// The value, unescaped and decoded to UTF-8.
    pub value: String,
    /// From `[` to `]`.
    pub span: Span,
}

impl Tag {
    /// A tag made by a program (no source span).
    ///
    /// ```
    /// let tag = drafti_pdn::Tag::new("Event", "Dar");
    /// assert_eq!((tag.name.as_str(), tag.value.as_str()), ("Event", "Dar"));
    /// ```
    pub fn new(name: &str, value: impl Into<String>) -> Tag {
        Tag {
            name: name.to_string(),
            value: value.into(),
            span: Span::default(),
        }
    }
}

impl GameRecord {
    /// A record made by a program (no source spans): its tags, its mainline and its result.
    ///
    /// ```
    /// use drafti_pdn::{GameRecord, GameResult, Tag};
    /// let record = GameRecord::new(vec![Tag::new("Result", "1-0")], Vec::new(), GameResult::WhiteWin);
    /// let mut text = String::new();
    /// drafti_pdn::write_game_to(&record, &mut text);
    /// assert_eq!(text, "[Result \"1-0\"]\n\n1-0\n");
    /// ```
    pub fn new(tags: Vec<Tag>, nodes: Vec<MoveNode>, result: GameResult) -> GameRecord {
        GameRecord {
            tags,
            moves: Line {
                nodes,
                leading_comments: Vec::new(),
            },
            result: Some(ResultToken::new(result)),
            ..GameRecord::default()
        }
    }
}

/// A sequence of moves: the mainline or one variation.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Line {
    /// The moves in order.
    pub nodes: Vec<MoveNode>,
    /// Comments written before the first move of a variation, as in `( {idea} 3. c3-d4 )`.
    /// For the mainline the parser uses [`GameRecord::leading_comments`] instead.
    pub leading_comments: Vec<Comment>,
}

impl Line {
    fn clear_spans(&mut self) {
        for c in &mut self.leading_comments {
            c.span = Span::default();
        }
        for n in &mut self.nodes {
            if let Some(num) = &mut n.number {
                num.span = Span::default();
            }
            n.mv.span = Span::default();
            for nag in &mut n.nags {
                nag.span = Span::default();
            }
            for c in &mut n.comments {
                c.span = Span::default();
            }
            for v in &mut n.variations {
                v.clear_spans();
            }
        }
    }

    /// Equality ignoring spans (see [`GameRecord::same_content`]).
    pub fn same_content(&self, other: &Line) -> bool {
        same_comments(&self.leading_comments, &other.leading_comments)
            && self.nodes.len() == other.nodes.len()
            && self.nodes.iter().zip(&other.nodes).all(|(a, b)| {
                a.number.map(|n| (n.number, n.ellipsis)) == b.number.map(|n| (n.number, n.ellipsis))
                    && a.mv.squares == b.mv.squares
                    && a.mv.separator == b.mv.separator
                    && a.mv.text == b.mv.text
                    && a.nags.len() == b.nags.len()
                    && a.nags.iter().zip(&b.nags).all(|(x, y)| x.value == y.value)
                    && same_comments(&a.comments, &b.comments)
                    && a.variations.len() == b.variations.len()
                    && a.variations
                        .iter()
                        .zip(&b.variations)
                        .all(|(x, y)| x.same_content(y))
            })
    }
}

/// One move of a line, with what is attached to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveNode {
    /// The move number written before this move (`12.` or `12...`), if any.
    pub number: Option<MoveNumber>,
    /// The move as written.
    pub mv: MoveToken,
    /// Move strength (`!` → 1, `?` → 2, `!!` → 3, `??` → 4, `!?` → 5, `?!` → 6) and `$n`
    /// annotations, in the order written.
    pub nags: ThinVec<Nag>,
    /// Comments after the move (until the next move).
    pub comments: ThinVec<Comment>,
    /// Alternatives to this move: each line starts with a move played instead of it.
    pub variations: ThinVec<Line>,
}

impl MoveNode {
    /// A node with just a move.
    pub fn new(mv: MoveToken) -> MoveNode {
        MoveNode {
            number: None,
            mv,
            nags: ThinVec::new(),
            comments: ThinVec::new(),
            variations: ThinVec::new(),
        }
    }
}

/// A move number: `12.` (`ellipsis == false`) or `12...`, `12…`, `12. ...`
/// (`ellipsis == true`, written before a Black move).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MoveNumber {
    /// The number.
    pub number: u32,
    /// Whether dots or an ellipsis followed (`12...`), marking a Black move.
    pub ellipsis: bool,
    /// From the first digit to the last dot.
    pub span: Span,
}

/// How the squares of a move are separated.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Separator {
    /// `c3-d4`, `22-18` (also used in some files for captures).
    Dash,
    /// `x` or `:` (the character as written, `X` read as `x`). A move that mixes separators
    /// counts as a capture if any of them is `x` or `:`.
    Capture(char),
    /// No separator: `c3d4`.
    None,
}

/// The squares of a move: up to 16 (a capture of 12 pieces has 13) are held inline, without
/// a heap allocation. It derefs to `[Square]`.
pub type MoveSquares = SmallVec<[Square; 16]>;

/// A move as written: the squares in order (from, intermediate landing squares, to).
///
/// The parser does not check legality.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveToken {
    /// At least two squares.
    pub squares: MoveSquares,
    /// The separator used.
    pub separator: Separator,
    /// The move exactly as written (the writer prints this).
    pub text: MoveText,
    /// The token's place in the source.
    pub span: Span,
}

impl MoveToken {
    /// Builds a token from squares, rendering its text algebraically (`c3xe5xg7`) or
    /// numerically (`22x15x8`) with the separator's character.
    ///
    /// ```
    /// use drafti_pdn::{MoveToken, Separator};
    /// use drafti_rules::Square;
    /// let sq = |s: &str| s.parse::<Square>().unwrap();
    /// let mv = MoveToken::new([sq("c3"), sq("e5"), sq("g7")], Separator::Capture(':'), false);
    /// assert_eq!(mv.text, "c3:e5:g7");
    /// assert_eq!(MoveToken::new([sq("c3"), sq("d4")], Separator::Dash, true).text, "22-18");
    /// ```
    pub fn new(
        squares: impl IntoIterator<Item = Square>,
        separator: Separator,
        numeric: bool,
    ) -> MoveToken {
        let squares: MoveSquares = squares.into_iter().collect();
        let mut text = String::new();
        for (i, sq) in squares.iter().enumerate() {
            if i > 0 {
                match separator {
                    Separator::Dash => text.push('-'),
                    Separator::Capture(c) => text.push(c),
                    Separator::None => {}
                }
            }
            // Writing to a string cannot fail.
            let _ = if numeric {
                write!(text, "{sq:#}")
            } else {
                write!(text, "{sq}")
            };
        }
        MoveToken {
            squares,
            separator,
            text: MoveText::new(&text),
            span: Span::default(),
        }
    }

    /// Whether the squares were written as numbers (`22-18`).
    pub fn is_numeric(&self) -> bool {
        self.text.as_bytes().first().is_some_and(u8::is_ascii_digit)
    }
}

/// A numeric annotation glyph: `$n`, or a move-strength symbol read as `$1`…`$6`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Nag {
    /// 0…255.
    pub value: u8,
    /// The `$n` or the symbol.
    pub span: Span,
}

impl Nag {
    /// The move-strength symbol for values 1…6 (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    pub fn symbol(self) -> Option<&'static str> {
        match self.value {
            1 => Some("!"),
            2 => Some("?"),
            3 => Some("!!"),
            4 => Some("??"),
            5 => Some("!?"),
            6 => Some("?!"),
            _ => None,
        }
    }
}

/// A `{…}` comment; `text` is everything between the braces, unchanged (it may span lines
/// and hold `[%…]` commands).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Comment {
    /// The text between the braces, decoded to UTF-8.
    pub text: String,
    /// From `{` to `}`.
    pub span: Span,
}

/// The outcome a result token or Result tag states.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `1-0` or `2-0`.
    WhiteWin,
    /// `0-1` or `0-2`.
    BlackWin,
    /// `1/2-1/2` or `1-1`.
    Draw,
    /// `*`: unknown or unfinished.
    Unknown,
    /// `0-0`: both sides lost (e.g. both forfeited).
    BothLose,
}

impl GameResult {
    /// Reads a result as written in movetext or in the Result tag (surrounding whitespace
    /// ignored): `1-0 0-1 1/2-1/2 2-0 0-2 1-1 0-0 *`.
    ///
    /// ```
    /// use drafti_pdn::GameResult;
    /// assert_eq!(GameResult::parse_str("2-0"), Some(GameResult::WhiteWin));
    /// assert_eq!(GameResult::parse_str(" 1/2-1/2 "), Some(GameResult::Draw));
    /// assert_eq!(GameResult::parse_str("1-2"), None);
    /// ```
    pub fn parse_str(text: &str) -> Option<GameResult> {
        match text.trim() {
            "1-0" | "2-0" => Some(GameResult::WhiteWin),
            "0-1" | "0-2" => Some(GameResult::BlackWin),
            "1/2-1/2" | "1-1" => Some(GameResult::Draw),
            "*" => Some(GameResult::Unknown),
            "0-0" => Some(GameResult::BothLose),
            _ => None,
        }
    }

    /// The usual 8×8 spelling: `1-0`, `0-1`, `1/2-1/2`, `*`, `0-0`.
    pub fn as_str(self) -> &'static str {
        match self {
            GameResult::WhiteWin => "1-0",
            GameResult::BlackWin => "0-1",
            GameResult::Draw => "1/2-1/2",
            GameResult::Unknown => "*",
            GameResult::BothLose => "0-0",
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A game terminator as written (`2-0` and `1-0` are both [`GameResult::WhiteWin`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultToken {
    /// What it means.
    pub result: GameResult,
    /// How it was written.
    pub text: String,
    /// Where.
    pub span: Span,
}

impl ResultToken {
    /// A token with the usual spelling of `result`.
    pub fn new(result: GameResult) -> ResultToken {
        ResultToken {
            result,
            text: result.as_str().to_string(),
            span: Span::default(),
        }
    }
}

/// What kind of problem a [`ParseWarning`] reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WarningKind {
    /// A tag value or comment was not UTF-8 and was decoded from a legacy code page.
    LegacyEncoding,
    /// The movetext has no result token (`1-0`, `*`, …) at its end.
    MissingResult,
    /// Moves written as `-` or `--` (not recorded, as in `1. - - 2. - -`) were skipped; the
    /// record's moves are incomplete.
    MovesNotRecorded,
    /// Read, but not as PDN writes it: move numbers `1)`, moves with spaces `c3 - d4`,
    /// upper-case squares `A3-B4`, commas between moves. The message says how it was read.
    NonstandardNotation,
    /// No moves and a decisive result (`1. 0-2`): read as a forfeit.
    Forfeit,
}

/// Something read but not quite right; the game is still usable.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParseWarning {
    /// What kind.
    pub kind: WarningKind,
    /// Where (e.g. the tag that was decoded).
    pub span: Span,
    /// One line for people, e.g. `tag White is not UTF-8; decoded as windows-1251`.
    pub message: String,
}
