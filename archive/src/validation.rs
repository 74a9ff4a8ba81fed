//! Validation of one game as `drafti validate` does it, and its JSON line.
//!
//! A game read up to a syntax error is replayed up to it ([`validated`]): its tags, players
//! and the moves before the error are kept, and the syntax error is one of its problems. Text
//! that is no game at all (between games) is one problem alone.
//!
//! The JSON Lines of `drafti validate --json` are [`GameLine`]s, one per game:
//! `file`, `index` (1-based in its file), `line`, `tags` (an object, in the order written; a
//! repeated name keeps its first value), `variant` (`null` when the tags name an unknown one),
//! `plies`, `result`, `status` (`valid` or `invalid`), and `errors` and `warnings`, each a
//! list of [`ProblemLine`]s: `line`, `column`, `ply`, `move`, `kind`, `message`, `fen`,
//! `legal`, `in_variation`.
//!
//! ```
//! use drafti_archive::replay::{replay, ReplayOptions};
//! use drafti_archive::validation::{validated, GameLine, Validated};
//! use drafti_pdn::{parse_game, RawGame};
//!
//! let raw = RawGame::from_bytes(0, &b"1. c3-d4 f6-e5 2. d4xf6 f6-g5 *"[..]);
//! let options = ReplayOptions::default();
//! let game = parse_game(&raw).map(|record| replay(record, &options));
//! let Validated::Game(game) = validated(game, &options) else { panic!("a game") };
//! assert!(!game.is_valid());
//! let line = GameLine::of_game("a.pdn", &raw, &game);
//! let json = serde_json::to_string(&line).unwrap();
//! assert!(json.contains(r#""status":"invalid""#));
//! assert!(json.contains(r#""kind":"illegal_move""#));
//! ```

use crate::replay::{replay_partial, Problem, ProblemKind, ReplayOptions, ReplayedGame, Severity};
use drafti_pdn::{ParseError, RawGame, Tag};
use serde::ser::{SerializeMap, Serializer};
use serde::Serialize;

/// A chunk of an archive, validated: a game (read whole or up to a syntax error), or text
/// that is no game at all.
#[derive(Debug)]
pub enum Validated {
    /// A game, replayed as far as it could be read.
    Game(ReplayedGame),
    /// Not a game (text between games): why.
    Unreadable(Problem),
}

/// The problem a syntax error is.
pub fn syntax_problem(e: &ParseError) -> Problem {
    let mut p = Problem::new(
        Severity::Error,
        ProblemKind::Syntax,
        e.span,
        format!("{} (expected {}, found {})", e.message, e.expected, e.found),
    );
    p.move_text = None;
    p
}

/// A parsed (or not) game validated: a syntax error's game replayed up to the error.
pub fn validated(game: Result<ReplayedGame, ParseError>, options: &ReplayOptions) -> Validated {
    match game {
        Ok(game) => Validated::Game(game),
        Err(mut e) => match e.record.take() {
            Some(record) => {
                let mut game = replay_partial(*record, options);
                game.problems.push(syntax_problem(&e));
                game.problems.sort_by_key(|p| p.span.offset);
                Validated::Game(game)
            }
            None => Validated::Unreadable(syntax_problem(&e)),
        },
    }
}

/// The tags as a JSON object, in the order written (a repeated name keeps its first value).
pub struct TagMap<'a>(pub &'a [Tag]);

impl Serialize for TagMap<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        // A set, not a scan of the names seen: a record of 200,000 tags took minutes.
        let mut seen: std::collections::HashSet<&str> =
            std::collections::HashSet::with_capacity(self.0.len());
        for tag in self.0 {
            if seen.insert(&tag.name) {
                map.serialize_entry(&tag.name, &tag.value)?;
            }
        }
        map.end()
    }
}

/// A problem as a JSON object.
#[derive(Serialize)]
pub struct ProblemLine<'a> {
    line: u32,
    column: u32,
    ply: Option<usize>,
    #[serde(rename = "move")]
    move_text: Option<&'a str>,
    kind: &'static str,
    message: &'a str,
    fen: Option<&'a str>,
    legal: &'a [String],
    in_variation: bool,
}

impl<'a> ProblemLine<'a> {
    /// The object of `p`.
    pub fn new(p: &'a Problem) -> Self {
        ProblemLine {
            line: p.span.line,
            column: p.span.column,
            ply: p.ply,
            move_text: p.move_text.as_deref(),
            kind: p.kind.as_str(),
            message: &p.message,
            fen: p.fen.as_deref(),
            legal: &p.legal,
            in_variation: p.in_variation,
        }
    }
}

/// One game's line of `drafti validate --json`.
#[derive(Serialize)]
pub struct GameLine<'a> {
    file: &'a str,
    index: usize,
    line: u32,
    tags: TagMap<'a>,
    variant: Option<&'static str>,
    plies: usize,
    result: Option<&'static str>,
    status: &'static str,
    errors: Vec<ProblemLine<'a>>,
    warnings: Vec<ProblemLine<'a>>,
}

impl<'a> GameLine<'a> {
    /// The line of a game of `file` cut as `raw`.
    pub fn of_game(file: &'a str, raw: &RawGame, game: &'a ReplayedGame) -> GameLine<'a> {
        GameLine {
            file,
            index: raw.index + 1,
            line: game.record.span.line,
            tags: TagMap(&game.record.tags),
            variant: game
                .problems
                .iter()
                .all(|p| p.kind != ProblemKind::UnknownVariant)
                .then(|| game.variant.name()),
            plies: game.moves.len(),
            result: game.played_result().map(|r| r.as_str()),
            status: if game.is_valid() { "valid" } else { "invalid" },
            errors: game.errors().map(ProblemLine::new).collect(),
            warnings: game.warnings().map(ProblemLine::new).collect(),
        }
    }

    /// The line of text of `file` cut as `raw` that is no game (`problem` says why).
    pub fn of_unreadable(file: &'a str, raw: &RawGame, problem: &'a Problem) -> GameLine<'a> {
        GameLine {
            file,
            index: raw.index + 1,
            line: raw.line,
            tags: TagMap(&[]),
            variant: None,
            plies: 0,
            result: None,
            status: "invalid",
            errors: vec![ProblemLine::new(problem)],
            warnings: Vec::new(),
        }
    }
}
