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

use crate::replay::{
    replay, replay_partial, Problem, ProblemKind, ReplayOptions, ReplayedGame, Severity,
};
use drafti_pdn::{GameRecord, ParseError, RawGame, Tag};
use drafti_rules::Variant;
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

/// Whether `record` names no variant (neither a `GameType` nor a `Variant` tag): without
/// `--variant` it is read as Tanzanian, a guess.
pub fn names_no_variant(record: &GameRecord) -> bool {
    record.tag("GameType").is_none() && record.tag("Variant").is_none()
}

/// The variants other than Tanzanian (Russian, then Czech) under which `game`, an invalid
/// game read as Tanzanian for want of a variant tag, replays valid: the hint for a file of
/// another variant. Empty for a valid game, one whose variant was given (tags or
/// `--variant`), or one cut by a syntax error. The work is two more replays of an invalid
/// game, each stopping at its first error.
pub fn valid_under(game: &ReplayedGame, options: &ReplayOptions) -> Vec<Variant> {
    if game.is_valid()
        || options.variant_override.is_some()
        || !names_no_variant(&game.record)
        || game.problems.iter().any(|p| p.kind == ProblemKind::Syntax)
    {
        return Vec::new();
    }
    [Variant::Russian, Variant::Czech]
        .into_iter()
        .filter(|&variant| {
            let options = ReplayOptions {
                variant_override: Some(variant),
                ..options.clone()
            };
            replay(game.record.clone(), &options).is_valid()
        })
        .collect()
}

/// What one game tells about the rules it was read by: whether it names no variant (and none
/// was forced), whether it is valid, and the other variants it replays valid under
/// ([`valid_under`]). Built on the worker that replayed the game, added to its file's
/// [`VariantGuess`] in input order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantEvidence {
    /// Read as Tanzanian for want of a variant tag or `--variant`.
    pub untagged: bool,
    /// Valid as read (a game cut by a syntax error is not).
    pub valid: bool,
    /// The other variants under which the (untagged, invalid) game replays valid.
    pub valid_under: Vec<Variant>,
}

impl VariantEvidence {
    /// The evidence of `game` (parsed and replayed under `options`, or why it could not be
    /// parsed). A game that could not be parsed at all tells nothing; one cut by a syntax
    /// error counts as untagged by the tags read before the error, and invalid.
    pub fn of(game: &Result<ReplayedGame, ParseError>, options: &ReplayOptions) -> VariantEvidence {
        let guessed =
            |record: &GameRecord| options.variant_override.is_none() && names_no_variant(record);
        match game {
            Ok(game) => VariantEvidence::of_game(game, options),
            Err(ParseError {
                record: Some(record),
                ..
            }) => VariantEvidence {
                untagged: guessed(record),
                valid: false,
                valid_under: Vec::new(),
            },
            Err(_) => VariantEvidence::default(),
        }
    }

    /// The evidence of a game replayed under `options`.
    pub fn of_game(game: &ReplayedGame, options: &ReplayOptions) -> VariantEvidence {
        VariantEvidence {
            untagged: options.variant_override.is_none() && names_no_variant(&game.record),
            valid: game.is_valid(),
            valid_under: valid_under(game, options),
        }
    }
}

/// What one file's games without a variant tag came to, for the note of `drafti validate`:
/// games read as Tanzanian, the invalid ones, and how many of those replay valid under each
/// other variant ([`valid_under`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VariantGuess {
    /// Games without a variant tag (read as Tanzanian).
    pub untagged: u64,
    /// Of those, the invalid ones.
    pub invalid: u64,
    /// Of those, how many replay valid as Russian, and as Czech.
    pub valid_as: [u64; 2],
}

impl VariantGuess {
    /// Counts one game: `untagged` (see [`names_no_variant`]), `valid`, and the variants it
    /// replays valid under.
    pub fn add(&mut self, untagged: bool, valid: bool, valid_under: &[Variant]) {
        if !untagged {
            return;
        }
        self.untagged += 1;
        self.invalid += u64::from(!valid);
        for (n, variant) in [Variant::Russian, Variant::Czech].into_iter().enumerate() {
            self.valid_as[n] += u64::from(valid_under.contains(&variant));
        }
    }

    /// Counts one game's [`VariantEvidence`].
    pub fn add_evidence(&mut self, e: &VariantEvidence) {
        self.add(e.untagged, e.valid, &e.valid_under);
    }

    /// The other variant under which every invalid game replays valid: the games are of that
    /// variant and reading them as Tanzanian was wrong. `None` when there is no invalid game,
    /// or when no one variant accounts for all of them (a typo in a Tanzanian game is not
    /// evidence of other rules).
    pub fn wrong_guess(&self) -> Option<Variant> {
        self.best()
            .filter(|&(_, n)| n == self.invalid)
            .map(|(v, _)| v)
    }

    /// The variant under which most of the invalid games replay valid, with their count;
    /// `None` when none does.
    pub fn best(&self) -> Option<(Variant, u64)> {
        let (russian, czech) = (self.valid_as[0], self.valid_as[1]);
        match (russian, czech) {
            (0, 0) => None,
            (r, c) if r >= c => Some((Variant::Russian, r)),
            (_, c) => Some((Variant::Czech, c)),
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use drafti_pdn::parse_games;

    fn game(text: &str) -> ReplayedGame {
        let record = parse_games(text.as_bytes()).remove(0).unwrap();
        replay(record, &ReplayOptions::default())
    }

    #[test]
    fn an_invalid_untagged_game_is_tried_under_the_other_variants() {
        // A man's backward capture: legal in Russian only.
        let backward = game("[FEN \"W:Wd4:Bc3,h8\"]\n1. d4xb2 *");
        assert!(!backward.is_valid());
        assert_eq!(
            valid_under(&backward, &ReplayOptions::default()),
            [Variant::Russian]
        );
        let valid = game("1. c3-d4 f6-g5 *");
        assert!(valid.is_valid());
        assert!(valid_under(&valid, &ReplayOptions::default()).is_empty());
        // Not tried: the variant is named, or given.
        let named = game("[GameType \"25\"]\n1. c3-d4 d4-c5 *");
        assert!(!named.is_valid());
        assert!(valid_under(&named, &ReplayOptions::default()).is_empty());
        let given = ReplayOptions {
            variant_override: Some(Variant::Tanzanian),
            ..ReplayOptions::default()
        };
        let untagged = game("1. c3-d4 d4-c5 *");
        assert!(valid_under(&untagged, &given).is_empty());
        // Invalid under every rule: tried, none found.
        assert!(valid_under(&untagged, &ReplayOptions::default()).is_empty());
    }

    #[test]
    fn the_guess_counts_per_variant_and_names_the_best() {
        let mut guess = VariantGuess::default();
        guess.add(false, false, &[]);
        assert_eq!(guess, VariantGuess::default());
        guess.add(true, true, &[]);
        guess.add(true, false, &[Variant::Russian, Variant::Czech]);
        guess.add(true, false, &[Variant::Czech]);
        assert_eq!(
            guess,
            VariantGuess {
                untagged: 3,
                invalid: 2,
                valid_as: [1, 2],
            }
        );
        assert_eq!(guess.best(), Some((Variant::Czech, 2)));
        assert_eq!(VariantGuess::default().best(), None);
    }
}
