//! `drafti report --from-analysis PART.jsonl...`: the report built from the JSON Lines of
//! `drafti analyze --json` (one part per shard of a job array) instead of a search.
//!
//! ```text
//! parts (each one run, in input order) ──merge by record.ordinal──▶ one game at a time:
//!   record.text ─parse + replay (rules core)─▶ game; moves[] ─▶ GameAnalysis (scores, moves,
//!   lines and depths as analysed; verdicts and accuracies worked out as the analysis does)
//!   ─▶ report::describe, as in a direct run ─▶ Collector │ HTML sections
//! ```
//! Each line carries its game's text, so the validation, the opening and the boards come from
//! the rules core exactly as in a direct run, and the numbers from the analysis: the summary
//! and the HTML are the same, byte for byte. Only the next line of each part is in memory.
//! The first line of each part carries its run (inputs, shard, variant, engine): parts of
//! different runs' kinds are refused, and a gap in the ordinals names the missing shard.

use drafti_analysis::judge::{judge, judge_exact};
use drafti_analysis::{GameAnalysis, MoveAnalysis, PositionEval};
use drafti_archive::batch::{GameJob, Input, Shard};
use drafti_archive::replay::{replay, ReplayOptions, ReplayedGame};
use drafti_engine::Score;
use drafti_pdn::{parse_game, RawGame};
use drafti_report::{describe, GameOut, WorkSettings};
use drafti_rules::{Move, Position, Variant};
use serde::Deserialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::io::BufRead;

/// Why the parts cannot make the report. `at` is `PART:LINE`.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    #[error("cannot read {part}: {error}")]
    Read { part: String, error: String },
    #[error("{at}: not a line of `drafti analyze --json`: {what}")]
    Malformed { at: String, what: String },
    #[error("{at}: the line has no `{field}` (written by an older `drafti analyze --json`?)")]
    Older { at: String, field: &'static str },
    #[error(
        "{at}: the part's first line has no `run`: a part must be the whole output of one \
         `drafti analyze --json` run, from its first line"
    )]
    NoRun { at: String },
    #[error(
        "{at}: the first line of another run: give each run's output as its own part, not \
         concatenated"
    )]
    Concatenated { at: String },
    #[error("{at}: {what}: the parts are not of one analysis")]
    Mixed { at: String, what: String },
    #[error("{part} and {other} are both shard {shard}: one shard given twice?")]
    SameShard {
        part: String,
        other: String,
        shard: Shard,
    },
    #[error("{at}: game {ordinal} of the archive is not of shard {shard}, this part's")]
    NotOfShard {
        at: String,
        ordinal: u64,
        shard: Shard,
    },
    #[error("{at}: game {ordinal} of the archive comes after game {last} in this part")]
    OutOfOrder { at: String, ordinal: u64, last: u64 },
    #[error(
        "game {ordinal} of the archive ({before}) is in no part: the part of shard {shard} is \
         missing (or was cut short)"
    )]
    Missing {
        ordinal: u64,
        shard: Shard,
        before: String,
    },
    #[error("{at}: {file} game {index}: {what}")]
    Game {
        at: String,
        file: String,
        index: usize,
        what: String,
    },
    #[error("no games in the parts (the output of `drafti analyze --json`)")]
    NoGames,
}

/// One line of `drafti analyze --json` (the fields the report reads).
#[derive(Deserialize)]
struct GameLine {
    file: String,
    /// 1-based.
    index: usize,
    line: u32,
    search: String,
    status: String,
    #[serde(default)]
    nodes: u64,
    #[serde(default)]
    moves: Vec<MoveLine>,
    final_score: Option<i32>,
    final_proven: Option<i32>,
    record: Option<RecordLine>,
    run: Option<RunLine>,
}

#[derive(Deserialize)]
struct RecordLine {
    ordinal: u64,
    /// 1-based.
    input: usize,
    column: u32,
    text: String,
    #[serde(default)]
    bytes: bool,
    #[serde(default)]
    truncated: bool,
}

#[derive(Deserialize)]
struct RunLine {
    inputs: Vec<String>,
    shard: Option<String>,
    variant: Option<String>,
    engine: String,
}

#[derive(Deserialize)]
struct MoveLine {
    ply: usize,
    score_before: Option<i32>,
    score_after: Option<i32>,
    proven_before: Option<i32>,
    proven_after: Option<i32>,
    best: Option<String>,
    pv: Vec<String>,
    depth: u32,
    confirmed_depth: Option<u32>,
    #[serde(default)]
    unsettled: bool,
    #[serde(default)]
    exact: bool,
}

/// What the whole analysis shares: the first part's run.
pub struct Run {
    /// Every input's name, in order.
    pub inputs: Vec<String>,
    /// `--variant` of the analysis.
    pub variant: Option<Variant>,
    /// Shards of the job array (1 without `--shard`).
    shards: u64,
    engine: String,
    /// The settings line of the first game.
    pub search: String,
}

/// One part being read.
struct Part {
    name: String,
    reader: Box<dyn BufRead + Send>,
    /// Lines read so far.
    line: usize,
    /// The next game of the part, with the line it was on.
    head: Option<(GameLine, usize)>,
    shard: Shard,
    /// The ordinal of the last game taken from this part.
    last: u64,
}

impl Part {
    fn at(&self, line: usize) -> String {
        format!("{}:{line}", self.name)
    }

    /// Reads the next game line (blank lines skipped) into `head`.
    fn advance(&mut self) -> Result<(), PartError> {
        let mut text = String::new();
        loop {
            text.clear();
            let n = self
                .reader
                .read_line(&mut text)
                .map_err(|e| PartError::Read {
                    part: self.name.clone(),
                    error: e.to_string(),
                })?;
            if n == 0 {
                self.head = None;
                return Ok(());
            }
            self.line += 1;
            if !text.trim().is_empty() {
                break;
            }
        }
        let at = self.at(self.line);
        let game: GameLine = serde_json::from_str(&text).map_err(|e| PartError::Malformed {
            at: at.clone(),
            what: json_error(&e),
        })?;
        if game.record.is_none() {
            return Err(PartError::Older {
                at,
                field: "record",
            });
        }
        self.head = Some((game, self.line));
        Ok(())
    }
}

/// serde_json's message with its position as a column (the line is the part's).
fn json_error(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let what = text.split(" at line ").next().unwrap_or(&text);
    format!("{what} (column {})", e.column())
}

/// The games of all parts, merged into input order.
pub struct Parts {
    parts: Vec<Part>,
    /// (ordinal, part) of every part's head, smallest first.
    heap: BinaryHeap<Reverse<(u64, usize)>>,
    /// The ordinal and place of the last game handed out.
    last: (u64, String),
    /// The first part's run.
    pub run: Run,
}

impl Parts {
    /// Starts reading `inputs` (the parts): reads each one's first line and checks that all
    /// are parts of one analysis.
    pub fn open(inputs: Vec<Input>) -> Result<Parts, PartError> {
        let mut parts: Vec<Part> = Vec::with_capacity(inputs.len());
        let mut first: Option<(Run, String)> = None;
        for input in inputs {
            let mut part = Part {
                name: input.name,
                reader: input.reader,
                line: 0,
                head: None,
                shard: Shard { index: 1, count: 1 },
                last: 0,
            };
            part.advance()?;
            let Some(line) = part.head.as_ref().map(|h| h.1) else {
                continue; // A shard with no game.
            };
            let at = part.at(line);
            let head = &mut part.head.as_mut().expect("read above").0;
            let Some(run) = head.run.take() else {
                return Err(PartError::NoRun { at });
            };
            if let Some(shard) = &run.shard {
                part.shard = shard.parse().map_err(|e| PartError::Malformed {
                    at: at.clone(),
                    what: format!("`run.shard`: {e}"),
                })?;
            }
            let variant =
                match &run.variant {
                    Some(name) => Some(crate::common::parse_variant(name).map_err(|e| {
                        PartError::Malformed {
                            at: at.clone(),
                            what: format!("`run.variant`: {e}"),
                        }
                    })?),
                    None => None,
                };
            let this = Run {
                inputs: run.inputs,
                variant,
                shards: part.shard.count,
                engine: run.engine,
                search: head.search.clone(),
            };
            match &first {
                None => first = Some((this, at)),
                Some((run, first_at)) => {
                    let mixed = |what: &str, first: String, this: String| PartError::Mixed {
                        at: at.clone(),
                        what: format!("{what} ({this}) than {first_at} ({first})"),
                    };
                    if this.inputs != run.inputs {
                        return Err(mixed(
                            "an analysis of other inputs",
                            run.inputs.join(", "),
                            this.inputs.join(", "),
                        ));
                    }
                    if this.shards != run.shards {
                        return Err(mixed(
                            "another number of shards",
                            run.shards.to_string(),
                            this.shards.to_string(),
                        ));
                    }
                    if this.variant != run.variant {
                        let name = |v: Option<Variant>| {
                            v.map_or("the tags' variant".to_string(), |v| {
                                format!("--variant {}", v.name())
                            })
                        };
                        return Err(mixed("other rules", name(run.variant), name(this.variant)));
                    }
                    if this.engine != run.engine {
                        return Err(mixed(
                            "another engine",
                            run.engine.clone(),
                            this.engine.clone(),
                        ));
                    }
                    if this.search != run.search {
                        return Err(mixed(
                            "other settings",
                            run.search.clone(),
                            this.search.clone(),
                        ));
                    }
                }
            }
            if let Some(other) = parts.iter().find(|p| p.shard == part.shard) {
                return Err(PartError::SameShard {
                    part: part.name.clone(),
                    other: other.name.clone(),
                    shard: part.shard,
                });
            }
            parts.push(part);
        }
        let Some((run, _)) = first else {
            return Err(PartError::NoGames);
        };
        let mut merged = Parts {
            parts: Vec::with_capacity(parts.len()),
            heap: BinaryHeap::new(),
            last: (0, "the start".to_string()),
            run,
        };
        for part in parts {
            merged.parts.push(part);
            merged.enqueue(merged.parts.len() - 1)?;
        }
        Ok(merged)
    }

    /// Puts part `n`'s head in the heap, after checking it is the part's next game.
    fn enqueue(&mut self, n: usize) -> Result<(), PartError> {
        let part = &self.parts[n];
        let Some((g, line)) = &part.head else {
            return Ok(());
        };
        let at = part.at(*line);
        if g.run.is_some() && part.last > 0 {
            return Err(PartError::Concatenated { at });
        }
        let ordinal = g.record.as_ref().map_or(0, |r| r.ordinal);
        if ordinal <= part.last {
            return Err(PartError::OutOfOrder {
                at,
                ordinal,
                last: part.last,
            });
        }
        if ordinal == 0 || !part.shard.takes(ordinal - 1) {
            return Err(PartError::NotOfShard {
                at,
                ordinal,
                shard: part.shard,
            });
        }
        self.heap.push(Reverse((ordinal, n)));
        Ok(())
    }

    /// The next game in input order, and where it was read (`PART:LINE`).
    fn next(&mut self) -> Result<Option<(GameLine, String)>, PartError> {
        let Some(Reverse((ordinal, n))) = self.heap.pop() else {
            return Ok(None);
        };
        let expected = self.last.0 + 1;
        if ordinal != expected {
            // Shards are distinct and each part's ordinals are its shard's, so a gap is all
            // that can go wrong here.
            let count = self.run.shards;
            return Err(PartError::Missing {
                ordinal: expected,
                shard: Shard {
                    index: (expected - 1) % count + 1,
                    count,
                },
                before: format!("after {}", self.last.1),
            });
        }
        let part = &mut self.parts[n];
        let (game, line) = part.head.take().expect("a queued part has a head");
        let at = part.at(line);
        part.last = ordinal;
        part.advance()?;
        self.enqueue(n)?;
        let bad = |what: String| PartError::Game {
            at: at.clone(),
            file: game.file.clone(),
            index: game.index,
            what,
        };
        if game.search != self.run.search {
            return Err(PartError::Mixed {
                at: at.clone(),
                what: format!(
                    "analysed with other settings ({}) than the first game ({})",
                    game.search, self.run.search
                ),
            });
        }
        let input = game.record.as_ref().map_or(0, |r| r.input);
        match input.checked_sub(1).and_then(|i| self.run.inputs.get(i)) {
            Some(name) if *name == game.file => {}
            Some(name) => return Err(bad(format!("input {input} is {name}, not {}", game.file))),
            None => return Err(bad(format!("input {input} of {}?", self.run.inputs.len()))),
        }
        self.last = (ordinal, at.clone());
        Ok(Some((game, at)))
    }
}

/// A score of the JSON: centi-men, or a proven distance (+N the side wins in N plies, -N
/// loses; 0 is a loss on the spot: the side to move has no move).
fn score_of(cm: Option<i32>, proven: Option<i32>) -> Option<Score> {
    match (cm, proven) {
        (Some(cm), None) => Some(Score::centi_men(cm)),
        (None, Some(n)) if n > 0 => Some(Score::win_in(n.unsigned_abs())),
        (None, Some(n)) => Some(Score::loss_in(n.unsigned_abs())),
        _ => None,
    }
}

/// The move `text` means in `pos`. The JSON writes each move as the rules core's notation
/// against the legal moves (the full path where two captures share start and end), so it
/// means exactly one.
fn parse_move(pos: &Position, variant: Variant, text: &str) -> Option<Move> {
    match pos.parse_move(variant, text).ok()?.as_slice() {
        [one] => Some(*one),
        _ => None,
    }
}

/// The moves of a line from `pos`.
fn parse_line(pos: &Position, variant: Variant, line: &[String]) -> Option<Vec<Move>> {
    let mut pos = *pos;
    line.iter()
        .map(|text| {
            let mv = parse_move(&pos, variant, text)?;
            pos = pos.play(&mv);
            Some(mv)
        })
        .collect()
}

/// The analysis of `game` from its line's moves.
fn analysis_of(game: &ReplayedGame, line: &GameLine) -> Result<GameAnalysis, String> {
    if line.moves.len() != game.moves.len() {
        return Err(format!(
            "{} moves analysed, the record has {}",
            line.moves.len(),
            game.moves.len()
        ));
    }
    let mut moves = Vec::with_capacity(line.moves.len());
    for (k, m) in line.moves.iter().enumerate() {
        let bad = |what: &str| format!("ply {}: {what}", k + 1);
        if m.ply != k + 1 {
            return Err(bad("out of order"));
        }
        let before = &game.positions[k];
        let played = game.moves[k];
        let best_score =
            score_of(m.score_before, m.proven_before).ok_or_else(|| bad("no score before"))?;
        let played_score =
            score_of(m.score_after, m.proven_after).ok_or_else(|| bad("no score after"))?;
        let best = match &m.best {
            Some(text) => Some(
                parse_move(before, game.variant, text)
                    .ok_or_else(|| bad(&format!("the best move {text} is not one legal move")))?,
            ),
            None => None,
        };
        let pv =
            parse_line(before, game.variant, &m.pv).ok_or_else(|| bad("its line is not legal"))?;
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
            ply: k + 1,
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
    let final_eval = score_of(line.final_score, line.final_proven)
        .map(|score| PositionEval {
            best: None,
            score,
            pv: Vec::new(),
            depth: 0,
            nodes: 0,
            exact: false,
        })
        .ok_or("no final score (`final_score`, `final_proven`)")?;
    Ok(GameAnalysis::from_moves(
        game,
        moves,
        Some(final_eval),
        line.nodes,
    ))
}

/// The report of the next game of `parts`, as a direct run would make it.
pub fn next_game(
    parts: &mut Parts,
    settings: &WorkSettings<'_>,
) -> Result<Option<GameOut>, PartError> {
    let Some((line, at)) = parts.next()? else {
        return Ok(None);
    };
    let record = line.record.as_ref().expect("checked when read");
    let bad = |what: String| PartError::Game {
        at: at.clone(),
        file: line.file.clone(),
        index: line.index,
        what,
    };
    let bytes: Vec<u8> = if record.bytes {
        record
            .text
            .chars()
            .map(|c| u8::try_from(u32::from(c)))
            .collect::<Result<_, _>>()
            .map_err(|_| bad("`record.text` is not bytes (U+0000-U+00FF)".into()))?
    } else {
        record.text.clone().into_bytes()
    };
    let raw = RawGame {
        index: line.index.saturating_sub(1),
        // Spans are only compared with each other, and the report quotes lines and columns.
        offset: 0,
        line: line.line,
        column: record.column,
        bytes,
        truncated: record.truncated,
    };
    let options = ReplayOptions {
        variant_override: parts.run.variant,
        ..ReplayOptions::default()
    };
    let game = parse_game(&raw).map(|r| replay(r, &options));
    let analysable = game.as_ref().is_ok_and(ReplayedGame::is_valid);
    if analysable != (line.status == "analysed") {
        return Err(bad(format!(
            "the record replays as {}, the analysis says `{}`",
            if analysable { "valid" } else { "invalid" },
            line.status
        )));
    }
    let mut analysis = match &game {
        Ok(g) if analysable => Some(analysis_of(g, &line).map_err(bad)?),
        _ => None,
    };
    let job = GameJob {
        file: &line.file,
        file_index: record.input - 1,
        raw: &raw,
        game,
    };
    Ok(Some(describe(job, settings, |_| {
        analysis.take().unwrap_or_default()
    })))
}
