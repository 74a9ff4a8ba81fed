//! The analysis JSON: the wire format of `drafti analyze --json`, read back by `drafti report
//! --from-analysis` ([`crate::parts`]). One set of types serves both directions, so the writer
//! and the reader cannot disagree; a score is the engine's [`Score`] in its one JSON form.
//!
//! # Format
//!
//! JSON Lines: one [`Game`] object per game of the input, in input order, and nothing else.
//! The first line of a run also carries the [`Run`] (`run`), with the version of this format
//! ([`FORMAT`]); a sharded run (`--shard K/N`) is one run per shard, each with its own first
//! line.
//!
//! ```text
//! {"file":…,"index":1,…,"status":"analysed",…,"moves":[{"ply":1,…},…],…,"record":{…},"run":{"format":2,…}}
//! {"file":…,"index":2,…,"status":"invalid","errors":[{"line":3,…}],…,"record":{…}}
//! ```
//!
//! A game object, field by field (in this order):
//! - `file`, `index`, `line`: the input's name, the game's number in it (from 1) and the line
//!   it starts on.
//! - `white`, `black`, `result`, `variant`: from the tags (`null` when missing); `variant` is
//!   `tz`, `czech` or `russian`.
//! - `plies`: the mainline plies replayed.
//! - `status`: `analysed`, or `invalid` (then `errors` lists [`Problem`]s and `moves` is
//!   empty).
//! - `search`, `positions`, `nodes`: the settings, positions searched (plies + 1), nodes in
//!   all (re-searches included).
//! - `sides`: `white` and `black` [`Figures`] (`null` for an invalid game).
//! - `moves`: one [`Move`] per mainline move, in order.
//! - `final_score`: the search of the last position, from its side to move, as a score
//!   (below); `null` for an invalid game.
//! - `record`: the game's text and where it stood ([`Record`]), so that a reader can replay it.
//! - `run`: on the first line of a run only ([`Run`]).
//!
//! A score (`score_before`, `score_after`, `final_score`) is an object with exactly one of
//! `cp` (an estimate in hundredths of a man), `win_in` and `loss_in` (a proven result in
//! plies; `"loss_in": 0` is a loss on the spot: the side to move has no move) set, and
//! `text` (`+0.35`, `win in 7`); a draw is the estimate 0. `docs/json.md` states it once for
//! every command.
//!
//! Format 1 (drafti 0.2.0) wrote a score as two fields, centi-men (`score_before`, …) or a
//! proven result (`proven_before`, …) of `+N` or `-N` plies; its parts are still read
//! ([`Game::from_format_1`]).
//!
//! ```
//! use drafti_analysis::json::Game;
//! use drafti_engine::Score;
//! let line = r#"{"file":"a.pdn","index":1,"line":1,"white":null,"black":null,"result":null,
//!   "variant":"tz","status":"invalid","search":"depth 1","final_score":null,"final_proven":-3,
//!   "record":null}"#.replace('\n', "");
//! let game = Game::from_format_1(&line).unwrap();
//! assert_eq!(game.final_score, Some(Score::loss_in(3)));
//! ```

use crate::batch::ArchiveGame;
use crate::judge::{judge, judge_exact, win_percent, Judgement, ProvenReason, SideSummary};
use crate::{GameAnalysis, MoveAnalysis, PositionEval};
use drafti_archive::batch::Shard;
use drafti_archive::replay::ReplayedGame;
use drafti_engine::Score;
use drafti_rules::{move_number, Color, Position, Variant};
use serde::{Deserialize, Serialize};

/// The version of the format written: the `format` of [`Run`]. Readers refuse a later one
/// and read format 1 ([`Game::from_format_1`]).
pub const FORMAT: u32 = 2;

/// One line: a game, analysed or invalid.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// The input's name.
    pub file: String,
    /// The game's number in its input, from 1.
    pub index: usize,
    /// The line the game starts on.
    pub line: u32,
    /// The White tag (`null` when missing, empty or `?`).
    pub white: Option<String>,
    /// The Black tag.
    pub black: Option<String>,
    /// The result the record states (`1-0`, `0-1`, `1/2-1/2`).
    pub result: Option<String>,
    /// The rules the game was replayed under (`null` when it could not be parsed).
    pub variant: Option<String>,
    /// Mainline plies replayed.
    #[serde(default)]
    pub plies: usize,
    /// Analysed or invalid.
    pub status: Status,
    /// Why an invalid game is invalid.
    #[serde(default)]
    pub errors: Vec<Problem>,
    /// The analysis settings (`AnalysisOptions::label`).
    pub search: String,
    /// Positions searched.
    #[serde(default)]
    pub positions: usize,
    /// Nodes searched in all.
    #[serde(default)]
    pub nodes: u64,
    /// Both sides' figures.
    #[serde(default)]
    pub sides: Option<Sides>,
    /// Every mainline move.
    #[serde(default)]
    pub moves: Vec<Move>,
    /// The last position's score, from its side to move.
    pub final_score: Option<Score>,
    /// The game's text and place; always written (`None` only in lines of an analyze older
    /// than the field, which readers refuse).
    pub record: Option<Record>,
    /// The run, on its first line only.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub run: Option<Run>,
}

serde_with::with_prefix!(score_before_columns "score_before_");
serde_with::with_prefix!(score_after_columns "score_after_");

/// One row of `drafti analyze --json-moves`: a move of an analysed game with its game's keys,
/// every field a number, a string, a boolean or `null` (for data frames and SQL tools):
/// `file`, `index`, `white`, `black`, `result`, `variant` of the game, then the move's fields
/// as in [`Move`] (`ply`, `move_number`, `side`, `move`, the scores, `judgement`, …), with
/// each score's fields as columns named after it (`score_before_cp`, …) and `pv` as one
/// string, the moves separated by spaces.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MoveRow<'a> {
    /// The input's name.
    pub file: &'a str,
    /// The game's number in its input, from 1.
    pub index: usize,
    /// The White tag.
    pub white: Option<&'a str>,
    /// The Black tag.
    pub black: Option<&'a str>,
    /// The result the record states.
    pub result: Option<&'a str>,
    /// The rules the game was replayed under.
    pub variant: Option<&'a str>,
    /// 1-based ply.
    pub ply: usize,
    /// `8.` for White, `8...` for Black.
    pub move_number: &'a str,
    /// `white` or `black`.
    pub side: &'static str,
    /// The move as written.
    #[serde(rename = "move")]
    pub text: &'a str,
    /// As in [`Move`], as columns: `score_before_cp`, `score_before_win_in`,
    /// `score_before_loss_in`, `score_before_text`.
    #[serde(flatten, with = "score_before_columns")]
    pub score_before: Score,
    /// As in [`Move`]: `score_after_cp`, …
    #[serde(flatten, with = "score_after_columns")]
    pub score_after: Score,
    /// As in [`Move`].
    pub win_before: f64,
    /// As in [`Move`].
    pub win_after: f64,
    /// As in [`Move`].
    pub accuracy: f64,
    /// As in [`Move`].
    pub best: Option<&'a str>,
    /// The best line, `best` first, separated by spaces.
    pub pv: String,
    /// As in [`Move`].
    pub judgement: Option<Judgement>,
    /// As in [`Move`].
    pub reason: Option<ProvenReason>,
    /// As in [`Move`].
    pub depth: u32,
    /// As in [`Move`].
    pub confirmed_depth: Option<u32>,
    /// As in [`Move`].
    pub unsettled: bool,
    /// As in [`Move`].
    pub exact: bool,
}

impl Game {
    /// The rows of `drafti analyze --json-moves`: one per move (none for an invalid game).
    pub fn move_rows(&self) -> impl Iterator<Item = MoveRow<'_>> {
        self.moves.iter().map(move |m| MoveRow {
            file: &self.file,
            index: self.index,
            white: self.white.as_deref(),
            black: self.black.as_deref(),
            result: self.result.as_deref(),
            variant: self.variant.as_deref(),
            ply: m.ply,
            move_number: &m.move_number,
            side: match m.side {
                Color::White => "white",
                Color::Black => "black",
            },
            text: &m.text,
            score_before: m.score_before,
            score_after: m.score_after,
            win_before: m.win_before,
            win_after: m.win_after,
            accuracy: m.accuracy,
            best: m.best.as_deref(),
            pv: m.pv.join(" "),
            judgement: m.judgement,
            reason: m.reason,
            depth: m.depth,
            confirmed_depth: m.confirmed_depth,
            unsettled: m.unsettled,
            exact: m.exact,
        })
    }
}

/// Whether a game was analysed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Valid, and every move analysed.
    Analysed,
    /// Not analysed: unreadable, or replayed up to an error.
    Invalid,
}

impl Status {
    /// `analysed` or `invalid`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Status::Analysed => "analysed",
            Status::Invalid => "invalid",
        }
    }
}

/// One error of an invalid game.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Problem {
    /// Line of the error in the input.
    pub line: u32,
    /// Column.
    pub column: u32,
    /// The ply concerned, if a move is.
    pub ply: Option<usize>,
    /// `syntax`, or the replay's kind of problem (`illegal_move`, …).
    pub kind: String,
    /// One line for people.
    pub message: String,
}

impl Problem {
    /// The errors of a game as read: its syntax error, or the replay's errors.
    pub fn of_game(game: &Result<ReplayedGame, drafti_pdn::ParseError>) -> Vec<Problem> {
        match game {
            Err(e) => vec![Problem {
                line: e.span.line,
                column: e.span.column,
                ply: None,
                kind: "syntax".to_string(),
                message: e.message.clone(),
            }],
            Ok(g) => g
                .errors()
                .map(|p| Problem {
                    line: p.span.line,
                    column: p.span.column,
                    ply: p.ply,
                    kind: p.kind.as_str().to_string(),
                    message: p.message.clone(),
                })
                .collect(),
        }
    }
}

/// Both sides' figures.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Sides {
    /// White's.
    pub white: Figures,
    /// Black's.
    pub black: Figures,
}

/// One side's figures in a game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Figures {
    /// Moves judged.
    pub moves: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// The game accuracy in percent, one decimal (`null` without moves).
    pub accuracy: Option<f64>,
}

impl From<&SideSummary> for Figures {
    fn from(s: &SideSummary) -> Figures {
        Figures {
            moves: s.moves,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
            accuracy: s.accuracy.map(round1),
        }
    }
}

/// One mainline move's evaluation (every move, flagged or not).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Move {
    /// 1-based ply.
    pub ply: usize,
    /// `8.` for White, `8...` for Black.
    pub move_number: String,
    /// `white` or `black`.
    #[serde(with = "color_name")]
    pub side: Color,
    /// The move as written.
    #[serde(rename = "move")]
    pub text: String,
    /// The best move's score, from the mover's side.
    pub score_before: Score,
    /// The played move's score, from the mover's side.
    pub score_after: Score,
    /// The mover's win percentage (0–100) with best play.
    pub win_before: f64,
    /// The mover's win percentage after the move.
    pub win_after: f64,
    /// lichess's accuracy of the move, 0–100.
    pub accuracy: f64,
    /// The best move, in the shortest notation no other legal move shares.
    pub best: Option<String>,
    /// The best line, `best` first.
    pub pv: Vec<String>,
    /// The judgement of a flagged move.
    pub judgement: Option<Judgement>,
    /// Why a proven result made it a blunder.
    pub reason: Option<ProvenReason>,
    /// The depth the numbers come from.
    pub depth: u32,
    /// For a re-searched move, the depth from which its verdict held.
    pub confirmed_depth: Option<u32>,
    /// The drop is a blunder's but not settled (too few of the last search's deepest depths,
    /// or an ending the evaluation cannot judge): judged a mistake.
    #[serde(default)]
    pub unsettled: bool,
    /// The position before the move is in the endgame tables: scores and verdict exact.
    #[serde(default)]
    pub exact: bool,
}

/// Where a game came from, as exactly as a reader needs to read the game again and report it
/// as a direct run would (its validation, opening and boards come from this text).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Record {
    /// 1-based number of the game across all inputs, all shards counted (what `--shard`
    /// counts): the parts of a job array merge by it, and a gap names the missing shard.
    pub ordinal: u64,
    /// Which input (1-based, in the order given; `file` is its name).
    pub input: usize,
    /// The column of the game's first byte (`line` is the game's own field).
    pub column: u32,
    /// The game's text as the splitter cut it, from the end of the previous game.
    pub text: String,
    /// `text` is not UTF-8 in the file: each character of `text` is one byte (U+0000-U+00FF).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub bytes: bool,
    /// The game was cut at the splitter's size limit.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub truncated: bool,
}

/// What a whole run shares, on its first line only (one part of a job array is one run).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Run {
    /// The version of this format ([`FORMAT`]). Lines written before the field existed have
    /// the layout of version 1, so a missing one reads as 1.
    #[serde(default = "format_before_versions")]
    pub format: u32,
    /// Every input's name, in the order given (those without a game too).
    pub inputs: Vec<String>,
    /// `--shard K/N`, if given.
    pub shard: Option<String>,
    /// `--variant`, when it overrode the tags.
    pub variant: Option<String>,
    /// The engine: `drafti VERSION (search FINGERPRINT)`, see [`Run::engine_name`].
    pub engine: String,
    /// The endgame tables the analysis used, as `tz up to 4 pieces, czech up to 3 pieces`
    /// (`EndgameTables::sets`); `null` without tables.
    #[serde(default)]
    pub tables: Option<String>,
}

fn format_before_versions() -> u32 {
    1
}

impl Run {
    /// The run of this format over `inputs`.
    pub fn new(inputs: Vec<String>, shard: Option<Shard>, variant: Option<Variant>) -> Run {
        Run {
            format: FORMAT,
            inputs,
            shard: shard.map(|s| s.to_string()),
            variant: variant.map(|v| v.name().to_string()),
            engine: Run::engine_name(),
            tables: None,
        }
    }

    /// This run, saying which endgame tables it used (see [`Run::tables`]).
    pub fn with_tables(self, tables: Option<String>) -> Run {
        Run { tables, ..self }
    }

    /// `drafti 0.2.0 (search 0123456789abcdef)`: the version and
    /// [`drafti_engine::Engine::fingerprint`], so parts analysed by engines that search
    /// differently are told apart under one version number.
    pub fn engine_name() -> String {
        format!(
            "drafti {} (search {})",
            env!("CARGO_PKG_VERSION"),
            drafti_engine::Engine::fingerprint()
        )
    }
}

fn round1(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

/// A tag's value, unless it is missing, empty or `?`.
fn tag<'a>(game: &'a ReplayedGame, name: &str) -> Option<&'a str> {
    game.record
        .tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty() && *v != "?")
}

/// Whether the record writes its moves with square numbers (the JSON's moves follow it).
pub fn is_numeric(game: &ReplayedGame) -> bool {
    game.record
        .moves
        .nodes
        .first()
        .is_some_and(|n| n.mv.is_numeric())
}

impl Move {
    /// The line of move `m` of `game`.
    pub fn of(game: &ReplayedGame, m: &MoveAnalysis) -> Move {
        let numeric = is_numeric(game);
        let before = &game.positions[m.ply - 1];
        Move {
            ply: m.ply,
            move_number: move_number(game.first_mover, m.ply),
            side: m.mover,
            text: game.record.moves.nodes[m.ply - 1].mv.text.to_string(),
            score_before: m.best_score,
            score_after: m.played_score,
            win_before: round1(win_percent(m.verdict.wc_before)),
            win_after: round1(win_percent(m.verdict.wc_after)),
            accuracy: round1(m.verdict.accuracy),
            best: m
                .best
                .map(|b| b.notation(&before.legal_moves(game.variant), numeric)),
            pv: before.line_notation(game.variant, &m.pv, numeric),
            judgement: m.judgement(),
            reason: m.verdict.proven,
            depth: m.depth,
            confirmed_depth: m.confirmed_depth,
            unsettled: m.unsettled,
            exact: m.exact,
        }
    }
}

impl Record {
    /// Where `g` came from, and its text.
    pub fn of(g: &ArchiveGame) -> Record {
        let (text, bytes) = match std::str::from_utf8(&g.raw.bytes) {
            Ok(t) => (t.to_string(), false),
            Err(_) => (g.raw.bytes.iter().map(|&b| char::from(b)).collect(), true),
        };
        Record {
            ordinal: g.ordinal + 1,
            input: g.input + 1,
            column: g.raw.column,
            text,
            bytes,
            truncated: g.raw.truncated,
        }
    }

    /// The game's bytes as they were in the input.
    pub fn bytes(&self) -> Result<Vec<u8>, GameError> {
        if !self.bytes {
            return Ok(self.text.clone().into_bytes());
        }
        self.text
            .chars()
            .map(|c| u8::try_from(u32::from(c)))
            .collect::<Result<_, _>>()
            .map_err(|_| GameError::NotBytes)
    }
}

impl Game {
    /// The line of `g`: its analysis when it has one, else its errors. `search` is the
    /// settings' label; `run` goes on the first line of a run only.
    pub fn of(g: &ArchiveGame, search: &str, run: Option<Run>) -> Game {
        let game = g.game.as_ref().ok();
        let mut line = Game {
            file: g.file.clone(),
            index: g.raw.index + 1,
            line: g.raw.line,
            white: game.and_then(|g| tag(g, "White")).map(str::to_string),
            black: game.and_then(|g| tag(g, "Black")).map(str::to_string),
            result: game
                .and_then(|g| g.played_result())
                .map(|r| r.as_str().to_string()),
            variant: game.map(|g| g.variant.name().to_string()),
            plies: game.map_or(0, |g| g.moves.len()),
            status: Status::Invalid,
            errors: Vec::new(),
            search: search.to_string(),
            positions: 0,
            nodes: 0,
            sides: None,
            moves: Vec::new(),
            final_score: None,
            record: Some(Record::of(g)),
            run,
        };
        match (game, &g.analysis) {
            (Some(game), Some(a)) => {
                line.final_score = a.final_eval.as_ref().map(|e| e.score);
                line.status = Status::Analysed;
                line.positions = a.positions;
                line.nodes = a.nodes;
                line.sides = Some(Sides {
                    white: (&a.white).into(),
                    black: (&a.black).into(),
                });
                line.moves = a.moves.iter().map(|m| Move::of(game, m)).collect();
            }
            _ => line.errors = Problem::of_game(&g.game),
        }
        line
    }

    /// The analysis of `game` (this line's record, replayed) from the line's moves: scores,
    /// moves, lines and depths as analysed; verdicts, counts and accuracies worked out as the
    /// analysis does.
    pub fn analysis(&self, game: &ReplayedGame) -> Result<GameAnalysis, GameError> {
        if self.moves.len() != game.moves.len() {
            return Err(GameError::MoveCount {
                analysed: self.moves.len(),
                record: game.moves.len(),
            });
        }
        let mut moves = Vec::with_capacity(self.moves.len());
        for (k, m) in self.moves.iter().enumerate() {
            let ply = k + 1;
            let bad = |what: MoveError| GameError::Move { ply, what };
            if m.ply != ply {
                return Err(bad(MoveError::OutOfOrder));
            }
            let before = &game.positions[k];
            let played = game.moves[k];
            let (best_score, played_score) = (m.score_before, m.score_after);
            let best = match &m.best {
                Some(text) => Some(
                    parse_move(before, game.variant, text)
                        .ok_or_else(|| bad(MoveError::BestNotLegal(text.clone())))?,
                ),
                None => None,
            };
            let pv = parse_line(before, game.variant, &m.pv).ok_or(bad(MoveError::LineNotLegal))?;
            // As the analysis decides it: from the tables an equally good move counts as the
            // best; from a search, only the engine's own best move.
            let (played_is_best, verdict) = if m.exact {
                let is_best = played_score == best_score;
                (is_best, judge_exact(best_score, played_score, is_best))
            } else {
                let is_best = best.is_some_and(|b| b.same_move(&played));
                // As the analysis judged it: a blunder that had not settled is a mistake.
                let verdict = judge(best_score, played_score, is_best).unsettled_if(m.unsettled);
                (is_best, verdict)
            };
            moves.push(MoveAnalysis {
                ply,
                mover: before.turn(),
                played,
                best,
                best_score,
                pv,
                played_score,
                played_is_best,
                verdict,
                depth: m.depth,
                confirmed_depth: m.confirmed_depth,
                exact: m.exact,
                unsettled: m.unsettled,
            });
        }
        let final_eval = self
            .final_score
            .map(|score| PositionEval {
                best: None,
                score,
                pv: Vec::new(),
                depth: 0,
                nodes: 0,
                exact: false,
            })
            .ok_or(GameError::NoFinalScore)?;
        Ok(GameAnalysis::from_moves(
            game,
            moves,
            Some(final_eval),
            self.nodes,
        ))
    }
}

impl Game {
    /// A line of format 1 (drafti 0.2.0), whose scores were two fields each (`score_before`
    /// in centi-men or `proven_before` as `+N`/`-N` plies, `0` a loss on the spot; likewise
    /// `score_after`/`proven_after` and `final_score`/`final_proven`), read as this format's
    /// game. A move's score must have exactly one of its fields, the final score at most one.
    pub fn from_format_1(text: &str) -> Result<Game, serde_json::Error> {
        let mut line: serde_json::Value = serde_json::from_str(text)?;
        if let Some(object) = line.as_object_mut() {
            let last = format_1_score(object, "final_score", "final_proven")?;
            object.insert("final_score".to_string(), serde_json::to_value(last)?);
            let moves = object.get_mut("moves").and_then(|m| m.as_array_mut());
            for m in moves
                .into_iter()
                .flatten()
                .filter_map(|m| m.as_object_mut())
            {
                for (score, proven) in [
                    ("score_before", "proven_before"),
                    ("score_after", "proven_after"),
                ] {
                    let value = format_1_score(m, score, proven)?.ok_or_else(|| {
                        serde::de::Error::custom(format!("a move without `{score}`"))
                    })?;
                    m.insert(score.to_string(), serde_json::to_value(value)?);
                }
            }
        }
        serde_json::from_value(line)
    }
}

/// The score of format 1's two fields `score` (centi-men) and `proven` (`+N` wins in N plies,
/// `-N` loses in N, `0` lost on the spot), taken out of `object`: `None` when neither is set.
fn format_1_score(
    object: &mut serde_json::Map<String, serde_json::Value>,
    score: &str,
    proven: &str,
) -> Result<Option<Score>, serde_json::Error> {
    let mut field = |name: &str| -> Result<Option<i32>, serde_json::Error> {
        object
            .remove(name)
            .map_or(Ok(None), serde_json::from_value::<Option<i32>>)
    };
    match (field(score)?, field(proven)?) {
        (None, None) => Ok(None),
        (Some(cm), None) => Ok(Some(Score::centi_men(cm))),
        (None, Some(n)) if n > 0 => Ok(Some(Score::win_in(n.unsigned_abs()))),
        (None, Some(n)) => Ok(Some(Score::loss_in(n.unsigned_abs()))),
        (Some(_), Some(_)) => Err(serde::de::Error::custom(format!(
            "both `{score}` and `{proven}`"
        ))),
    }
}

/// Why a game's line does not fit its record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    /// Not as many moves as the record has.
    #[error("{analysed} moves analysed, the record has {record}")]
    MoveCount {
        /// Moves in the line.
        analysed: usize,
        /// Moves the record replays.
        record: usize,
    },
    /// One move does not fit.
    #[error("ply {ply}: {what}")]
    Move {
        /// The move's ply.
        ply: usize,
        /// What is wrong with it.
        what: MoveError,
    },
    /// No score of the last position.
    #[error("no final score (`final_score`)")]
    NoFinalScore,
    /// `record.bytes` says each character is a byte, and one is not.
    #[error("`record.text` is not bytes (U+0000-U+00FF)")]
    NotBytes,
    /// The record replays as valid and the line says invalid, or the other way round.
    #[error(
        "the record replays as {}, the analysis says `{}`",
        if *valid { "valid" } else { "invalid" },
        status.as_str()
    )]
    Status {
        /// The record replays without errors.
        valid: bool,
        /// What the line says.
        status: Status,
    },
    /// `record.input` is not the input named `file`.
    #[error("its input {input} (record.input) is {name} in the run, but the line says {file}")]
    InputName {
        /// `record.input`.
        input: usize,
        /// That input's name.
        name: String,
        /// The line's `file`.
        file: String,
    },
    /// `record.input` is not one of the run's inputs.
    #[error(
        "its input {input} (record.input) is not one of the run's: it read {inputs} (numbered \
         from 1)"
    )]
    NoInput {
        /// `record.input`.
        input: usize,
        /// The run's inputs.
        inputs: usize,
    },
}

/// Why one move's line does not fit the record.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    /// Its `ply` is not its place.
    #[error("out of order")]
    OutOfOrder,
    /// The best move is not one legal move of the position.
    #[error("the best move {0} is not one legal move")]
    BestNotLegal(String),
    /// The line is not legal from the position.
    #[error("its line is not legal")]
    LineNotLegal,
}

/// The move `text` means in `pos`. The JSON writes each move as the rules core's notation
/// against the legal moves (the full path where two captures share start and end), so it
/// means exactly one.
fn parse_move(pos: &Position, variant: Variant, text: &str) -> Option<drafti_rules::Move> {
    match pos.parse_move(variant, text).ok()?.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// The moves of a line from `pos`.
fn parse_line(
    pos: &Position,
    variant: Variant,
    line: &[String],
) -> Option<Vec<drafti_rules::Move>> {
    let mut pos = *pos;
    line.iter()
        .map(|text| {
            let mv = parse_move(&pos, variant, text)?;
            pos = pos.play(&mv);
            Some(mv)
        })
        .collect()
}

/// `white` / `black` for a [`Color`].
mod color_name {
    use drafti_rules::Color;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(color: &Color, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(match color {
            Color::White => "white",
            Color::Black => "black",
        })
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        match String::deserialize(d)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            other => Err(serde::de::Error::unknown_variant(
                other,
                &["white", "black"],
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_format_1_line_reads_as_the_same_game() {
        let v1 = r#"{"file":"a.pdn","index":1,"line":1,"white":null,"black":null,"result":null,"variant":"tz","plies":2,"status":"analysed","search":"depth 1","positions":3,"nodes":9,"sides":null,"moves":[{"ply":1,"move_number":"1.","side":"white","move":"c3-d4","score_before":12,"score_after":null,"proven_before":null,"proven_after":-4,"win_before":51.0,"win_after":0.0,"accuracy":0.0,"best":"c3-b4","pv":["c3-b4"],"judgement":"blunder","reason":"losing_move","depth":1,"confirmed_depth":null},{"ply":2,"move_number":"1...","side":"black","move":"f6-e5","score_before":null,"score_after":null,"proven_before":0,"proven_after":7,"win_before":0.0,"win_after":100.0,"accuracy":100.0,"best":null,"pv":[],"judgement":null,"reason":null,"depth":1,"confirmed_depth":null}],"final_score":-5,"final_proven":null,"record":null}"#;
        let game = Game::from_format_1(v1).unwrap();
        assert_eq!(game.moves[0].score_before, Score::centi_men(12));
        assert_eq!(game.moves[0].score_after, Score::loss_in(4));
        assert_eq!(game.moves[1].score_before, Score::loss_in(0));
        assert_eq!(game.moves[1].score_after, Score::win_in(7));
        assert_eq!(game.final_score, Some(Score::centi_men(-5)));
        // Written again, it is format 2's line of the same game.
        let again: Game = serde_json::from_str(&serde_json::to_string(&game).unwrap()).unwrap();
        assert_eq!(again, game);
        // A score with both fields, or a move without its scores, is refused.
        let both = v1.replacen(r#""proven_before":null"#, r#""proven_before":3"#, 1);
        assert!(Game::from_format_1(&both).is_err());
        let none = v1.replacen(r#""score_before":12"#, r#""score_before":null"#, 1);
        assert!(Game::from_format_1(&none).is_err());
    }
}
