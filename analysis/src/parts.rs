//! The reader of the analysis JSON ([`crate::json`]): the parts of a sharded `drafti analyze
//! --json` run (one part per shard of a job array, in any order) merged back into one
//! archive's games, in input order, each with its analysis, as [`crate::batch`] hands them
//! out after searching.
//!
//! ```text
//! parts (each one run) ──first lines: one analysis? (inputs, shards, rules, engine, settings)
//!   ──merge by record.ordinal──▶ one game at a time: record.text ─parse + replay─▶ game;
//!   moves[] ─json::Game::analysis─▶ GameAnalysis ──▶ ArchiveGame
//! ```
//! Each line carries its game's text, so the validation, the opening and the boards come
//! from the rules core exactly as in a direct run, and the numbers from the analysis. Only
//! the next line of each part is in memory. A gap in the ordinals names the missing shard;
//! every error names the part and the line.

use crate::batch::ArchiveGame;
use crate::json::{self, GameError, FORMAT};
use drafti_archive::batch::{Input, Shard};
use drafti_archive::replay::{replay, ReplayOptions, ReplayedGame};
use drafti_pdn::{parse_game, RawGame};
use drafti_rules::Variant;
use serde::Deserialize;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fmt;
use std::io::BufRead;

/// A line of a part: `PART:LINE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct At {
    /// The part's name.
    pub part: String,
    /// The line, from 1.
    pub line: usize,
}

impl fmt::Display for At {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.part, self.line)
    }
}

/// Why the parts cannot make one analysis.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    /// A part could not be read.
    #[error("cannot read {part}: {error}")]
    Read {
        /// The part.
        part: String,
        /// The failure.
        error: std::io::Error,
    },
    /// A line is not JSON of the format, or a field of `run` is not what it should be.
    #[error("{at}: not a line of `drafti analyze --json`: {what}")]
    Malformed {
        /// Where.
        at: At,
        /// What is wrong, with the column for a JSON error.
        what: String,
    },
    /// A later format than this reader's.
    #[error(
        "{at}: format {format} of `drafti analyze --json`; this drafti reads format {FORMAT} \
         and older (the part was written by a newer drafti?)"
    )]
    Format {
        /// Where.
        at: At,
        /// The part's `run.format`.
        format: u32,
    },
    /// A line without a field that readers need.
    #[error("{at}: the line has no `{field}` (written by an older `drafti analyze --json`?)")]
    Older {
        /// Where.
        at: At,
        /// The field.
        field: &'static str,
    },
    /// A part's first line has no `run`.
    #[error(
        "{at}: the part's first line has no `run`: a part must be the whole output of one \
         `drafti analyze --json` run, from its first line"
    )]
    NoRun {
        /// Where.
        at: At,
    },
    /// A `run` after a part's first line.
    #[error(
        "{at}: the first line of another run: give each run's output as its own part, not \
         concatenated"
    )]
    Concatenated {
        /// Where.
        at: At,
    },
    /// A part of another analysis than the first part's.
    #[error("{at}: {what}: the parts are not of one analysis")]
    Mixed {
        /// Where.
        at: At,
        /// How it differs.
        what: String,
    },
    /// Two parts of one shard.
    #[error("{part} and {other} are both shard {shard}: one shard given twice?")]
    SameShard {
        /// The later part.
        part: String,
        /// The earlier one.
        other: String,
        /// Their shard.
        shard: Shard,
    },
    /// A game that is not of its part's shard.
    #[error("{at}: game {ordinal} of the archive is not of shard {shard}, this part's")]
    NotOfShard {
        /// Where.
        at: At,
        /// The game's `record.ordinal`.
        ordinal: u64,
        /// The part's shard.
        shard: Shard,
    },
    /// A game that comes before the part's previous one.
    #[error("{at}: game {ordinal} of the archive comes after game {last} in this part")]
    OutOfOrder {
        /// Where.
        at: At,
        /// The game's `record.ordinal`.
        ordinal: u64,
        /// The previous game's.
        last: u64,
    },
    /// A game of the archive that no part has.
    #[error(
        "game {ordinal} of the archive ({before}) is in no part: the part of shard {shard} is \
         missing (or was cut short)"
    )]
    Missing {
        /// The first game missing.
        ordinal: u64,
        /// Its shard.
        shard: Shard,
        /// Where the game before it was: `after PART:LINE`, or `after the start`.
        before: String,
    },
    /// A game's line does not fit its record.
    #[error("{at}: {file} game {index}: {what}")]
    Game {
        /// Where.
        at: At,
        /// The line's `file`.
        file: String,
        /// The line's `index`.
        index: usize,
        /// What is wrong.
        what: GameError,
    },
    /// No part has a game.
    #[error("no games in the parts (the output of `drafti analyze --json`)")]
    NoGames,
}

/// What the whole analysis shares: the first part's run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AnalysisRun {
    /// Every input's name, in order.
    pub inputs: Vec<String>,
    /// `--variant` of the analysis.
    pub variant: Option<Variant>,
    /// Shards of the job array (1 without `--shard`).
    pub shards: u64,
    /// The engine (`run.engine`).
    pub engine: String,
    /// The settings of the first game (`search`).
    pub search: String,
}

/// One part being read.
struct Part {
    name: String,
    reader: Box<dyn BufRead + Send>,
    /// Lines read so far.
    line: usize,
    /// The next game of the part, with the line it was on.
    head: Option<(json::Game, usize)>,
    shard: Shard,
    /// The ordinal of the last game taken from this part.
    last: u64,
    /// The format of its lines (its first line's `run.format`).
    format: u32,
}

/// The `run.format` of a line that has a `run` (a `run` without it is format 1's, written
/// before the field); `None` for a line without `run` or not JSON.
fn run_format(text: &str) -> Option<u32> {
    #[derive(Deserialize)]
    struct Line {
        run: Option<Run>,
    }
    #[derive(Deserialize)]
    struct Run {
        format: Option<u32>,
    }
    let line: Line = serde_json::from_str(text).ok()?;
    Some(line.run?.format.unwrap_or(1))
}

impl Part {
    fn at(&self, line: usize) -> At {
        At {
            part: self.name.clone(),
            line,
        }
    }

    /// Reads the next game line (blank lines skipped) into `head`.
    fn advance(&mut self) -> Result<(), PartError> {
        let mut text = String::new();
        loop {
            text.clear();
            let n = self
                .reader
                .read_line(&mut text)
                .map_err(|error| PartError::Read {
                    part: self.name.clone(),
                    error,
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
        // The first line's run says the part's format; a later one is named as such, not as
        // whatever field it changed.
        if let Some(format) = run_format(&text) {
            if format > FORMAT {
                return Err(PartError::Format { at, format });
            }
            self.format = format;
        }
        let read = match self.format {
            1 => json::Game::from_format_1(&text),
            _ => serde_json::from_str(&text),
        };
        let game = read.map_err(|e| PartError::Malformed {
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
    run: AnalysisRun,
}

impl Parts {
    /// Starts reading `inputs` (the parts): reads each one's first line and checks that all
    /// are parts of one analysis.
    pub fn open(inputs: Vec<Input>) -> Result<Parts, PartError> {
        let mut parts: Vec<Part> = Vec::with_capacity(inputs.len());
        let mut first: Option<(AnalysisRun, At)> = None;
        for input in inputs {
            let mut part = Part {
                name: input.name,
                reader: input.reader,
                line: 0,
                head: None,
                format: FORMAT,
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
            let malformed = |what: String| PartError::Malformed {
                at: at.clone(),
                what,
            };
            if let Some(shard) = &run.shard {
                part.shard = shard
                    .parse()
                    .map_err(|e| malformed(format!("`run.shard`: {e}")))?;
            }
            let variant = match &run.variant {
                Some(name) => Some(
                    name.parse::<Variant>()
                        .map_err(|e| malformed(format!("`run.variant`: {e}")))?,
                ),
                None => None,
            };
            let this = AnalysisRun {
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

    /// What the whole analysis shares (the first part's run).
    pub fn run(&self) -> &AnalysisRun {
        &self.run
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

    /// Where a part holds the first line of another run after its own games (parts given
    /// concatenated), read on through the parts to find it; `None` when none does. Used
    /// only when the merge has failed: the rest of every part is read (a line at a time).
    fn concatenated_run(&mut self) -> Option<At> {
        for part in &mut self.parts {
            let mut games = part.last;
            while let Some((g, line)) = &part.head {
                if g.run.is_some() && games > 0 {
                    return Some(part.at(*line));
                }
                games += 1;
                if part.advance().is_err() {
                    break;
                }
            }
        }
        None
    }

    /// The next line in input order, and where it was read.
    fn next_line(&mut self) -> Result<Option<(json::Game, At)>, PartError> {
        let Some(Reverse((ordinal, n))) = self.heap.pop() else {
            return Ok(None);
        };
        let expected = self.last.0 + 1;
        if ordinal != expected {
            // Shards are distinct and each part's ordinals are its shard's, so a gap is all
            // that can go wrong here; unless the missing shard was concatenated to a part
            // (then the gap comes before its `run` line is read): that is the reason to give.
            if let Some(at) = self.concatenated_run() {
                return Err(PartError::Concatenated { at });
            }
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
        if game.search != self.run.search {
            return Err(PartError::Mixed {
                at,
                what: format!(
                    "analysed with other settings ({}) than the first game ({})",
                    game.search, self.run.search
                ),
            });
        }
        let input = game.record.as_ref().map_or(0, |r| r.input);
        let bad = |what: GameError| PartError::Game {
            at: at.clone(),
            file: game.file.clone(),
            index: game.index,
            what,
        };
        match input.checked_sub(1).and_then(|i| self.run.inputs.get(i)) {
            Some(name) if *name == game.file => {}
            Some(name) => {
                return Err(bad(GameError::InputName {
                    input,
                    name: name.clone(),
                    file: game.file.clone(),
                }))
            }
            None => {
                return Err(bad(GameError::NoInput {
                    input,
                    inputs: self.run.inputs.len(),
                }))
            }
        }
        self.last = (ordinal, at.to_string());
        Ok(Some((game, at)))
    }

    /// The next game in input order: its record read and replayed again (under the run's
    /// `--variant`), with the analysis of its line when it is valid.
    pub fn next_game(&mut self) -> Result<Option<ArchiveGame>, PartError> {
        let Some((line, at)) = self.next_line()? else {
            return Ok(None);
        };
        let bad = |what: GameError| PartError::Game {
            at: at.clone(),
            file: line.file.clone(),
            index: line.index,
            what,
        };
        let record = line.record.as_ref().expect("checked when read");
        let raw = RawGame {
            index: line.index.saturating_sub(1),
            // Spans are only compared with each other, and reports quote lines and columns.
            offset: 0,
            line: line.line,
            column: record.column,
            bytes: record.bytes().map_err(bad)?,
            truncated: record.truncated,
        };
        let options = ReplayOptions {
            variant_override: self.run.variant,
            ..ReplayOptions::default()
        };
        let game = parse_game(&raw).map(|r| replay(r, &options));
        let valid = game.as_ref().is_ok_and(ReplayedGame::is_valid);
        if valid != (line.status == json::Status::Analysed) {
            return Err(bad(GameError::Status {
                valid,
                status: line.status,
            }));
        }
        let analysis = match &game {
            Ok(g) if valid => Some(line.analysis(g).map_err(bad)?),
            _ => None,
        };
        Ok(Some(ArchiveGame {
            file: line.file.clone(),
            input: record.input - 1,
            ordinal: record.ordinal - 1,
            raw,
            game,
            analysis,
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::batch::{analyse_archive, ArchiveOptions};
    use crate::AnalysisOptions;
    use drafti_engine::Score;
    use std::convert::Infallible;

    /// Three valid games and an invalid one.
    const ARCHIVE: &str = "1. c3-b4 f6-g5 2. b4-c5 b6xd4 3. e3xc5 d6xb4 *\n\n\
        1. c3-d4 d4-e5 *\n\n\
        1. e3-f4 f6-g5 2. f4-e5 d6xf4 3. g3xe5 *\n\n\
        1. c3-d4 f6-g5 2. b2-c3 g7-f6 3. a1-b2 h8-g7 *\n";

    fn options() -> AnalysisOptions {
        AnalysisOptions::from_limits(Some(3), None)
    }

    /// The games of ARCHIVE, analysed (`shard` of them).
    fn analysed(shard: Option<Shard>) -> Vec<ArchiveGame> {
        let options = ArchiveOptions {
            shard,
            ..ArchiveOptions::new(options())
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let mut games = Vec::new();
        let inputs = vec![Input::new("a.pdn", Box::new(ARCHIVE.as_bytes()))];
        analyse_archive(
            inputs,
            &options,
            &pool,
            &|_| {},
            |g| g,
            |g| {
                games.push(g);
                Ok::<(), Infallible>(())
            },
        )
        .unwrap();
        games
    }

    /// `drafti analyze --json` of shard `k` of `n` (of all games without a shard).
    fn part(shard: Option<Shard>) -> String {
        let mut run = Some(json::Run::new(vec!["a.pdn".to_string()], shard, None));
        let mut text = String::new();
        for g in analysed(shard) {
            let line = json::Game::of(&g, &options().label(), run.take());
            text.push_str(&serde_json::to_string(&line).unwrap());
            text.push('\n');
        }
        text
    }

    fn input(name: &str, text: String) -> Input {
        Input::new(name, Box::new(std::io::Cursor::new(text.into_bytes())))
    }

    /// What a report reads of each game: where it was, and each move's numbers and verdict.
    fn summary(games: &[ArchiveGame]) -> Vec<String> {
        games
            .iter()
            .map(|g| {
                let moves: Vec<String> = g
                    .analysis
                    .iter()
                    .flat_map(|a| &a.moves)
                    .map(|m| {
                        format!(
                            "{} {:?} {} {} {:?} {:?} {}",
                            m.ply,
                            m.best,
                            m.best_score,
                            m.played_score,
                            m.verdict.judgement,
                            m.pv,
                            m.depth
                        )
                    })
                    .collect();
                let sides = g.analysis.as_ref().map(|a| (a.white, a.black));
                format!(
                    "{} {} {} {:?} {:?} {}",
                    g.ordinal,
                    g.input,
                    g.raw.index,
                    g.raw.bytes,
                    sides,
                    moves.join("; ")
                )
            })
            .collect()
    }

    fn read(parts: Vec<Input>) -> Result<Vec<ArchiveGame>, PartError> {
        let mut parts = Parts::open(parts)?;
        let mut games = Vec::new();
        while let Some(g) = parts.next_game()? {
            games.push(g);
        }
        Ok(games)
    }

    #[test]
    fn the_parts_of_a_sharded_run_read_back_as_the_analysis() {
        let direct = analysed(None);
        assert_eq!(direct.iter().filter(|g| g.analysis.is_some()).count(), 3);
        let shard = |k| Some(Shard { index: k, count: 2 });
        let merged = read(vec![
            input("p2", part(shard(2))),
            input("p1", part(shard(1))),
        ])
        .unwrap();
        assert_eq!(summary(&merged), summary(&direct));
        let whole = read(vec![input("all", part(None))]).unwrap();
        assert_eq!(summary(&whole), summary(&direct));
    }

    #[test]
    fn a_later_format_is_refused_naming_the_part_and_line() {
        let this = format!("\"format\":{FORMAT}");
        let text = part(None).replacen(&this, &format!("\"format\":{}", FORMAT + 1), 1);
        let Err(e) = read(vec![input("later.jsonl", text)]) else {
            panic!("a later format is read");
        };
        assert!(
            matches!(e, PartError::Format { format, .. } if format == FORMAT + 1),
            "{e}"
        );
        assert!(
            e.to_string().starts_with(&format!(
                "later.jsonl:1: format {} of `drafti analyze --json`",
                FORMAT + 1
            )),
            "{e}"
        );
        // Also when the rest of the line is not this format's.
        let text = part(None)
            .replacen(&this, &format!("\"format\":{}", FORMAT + 2), 1)
            .replacen("\"status\":\"analysed\"", "\"status\":\"reviewed\"", 1);
        let e = read(vec![input("later.jsonl", text)]).err().unwrap();
        assert!(
            matches!(e, PartError::Format { format, .. } if format == FORMAT + 2),
            "{e}"
        );
    }

    #[test]
    fn a_part_written_before_the_format_field_reads_as_format_1() {
        let older = format_1(&part(None)).replacen("\"format\":1,", "", 1);
        assert!(!older.contains("\"format\""));
        let games = read(vec![input("older.jsonl", older)]).unwrap();
        assert_eq!(summary(&games), summary(&analysed(None)));
    }

    #[test]
    fn a_part_of_format_1_reads_as_the_same_analysis() {
        let text = part(None);
        let older = format_1(&text);
        assert!(older.contains("\"proven_after\":null") && older.contains("\"format\":1,"));
        let games = read(vec![input("older.jsonl", older)]).unwrap();
        assert_eq!(summary(&games), summary(&analysed(None)));
        // The parts of one sharded run, one written in each format, read together.
        let shard = |k| Some(Shard { index: k, count: 2 });
        let mixed = read(vec![
            input("p1", format_1(&part(shard(1)))),
            input("p2", part(shard(2))),
        ])
        .unwrap();
        assert_eq!(summary(&mixed), summary(&analysed(None)));
    }

    /// A part as format 1 wrote it: each score two fields, centi-men or ±plies.
    fn format_1(part: &str) -> String {
        let pair =
            |object: &mut serde_json::Map<String, serde_json::Value>, score: &str, proven: &str| {
                let value = object.remove(score).unwrap();
                let (cm, plies) = match serde_json::from_value::<Option<Score>>(value).unwrap() {
                    None => (None, None),
                    Some(s) => match (s.win_distance(), s.loss_distance()) {
                        (Some(n), _) => (None, Some(n as i32)),
                        (_, Some(n)) => (None, Some(-(n as i32))),
                        _ => (s.as_centi_men(), None),
                    },
                };
                object.insert(score.to_string(), serde_json::json!(cm));
                object.insert(proven.to_string(), serde_json::json!(plies));
            };
        let mut out = String::new();
        for line in part.lines() {
            let mut game: serde_json::Value = serde_json::from_str(line).unwrap();
            let object = game.as_object_mut().unwrap();
            pair(object, "final_score", "final_proven");
            for m in object["moves"].as_array_mut().unwrap() {
                let m = m.as_object_mut().unwrap();
                pair(m, "score_before", "proven_before");
                pair(m, "score_after", "proven_after");
            }
            if let Some(run) = object.get_mut("run") {
                run["format"] = serde_json::json!(1);
            }
            out.push_str(&serde_json::to_string(&game).unwrap());
            out.push('\n');
        }
        out
    }

    #[test]
    fn a_line_that_does_not_fit_its_record_is_refused_naming_it() {
        let text = part(None).replacen("\"ply\":2,", "\"ply\":7,", 1);
        let e = read(vec![input("p", text)]).err().unwrap();
        assert_eq!(e.to_string(), "p:1: a.pdn game 1: ply 2: out of order");
        let text = part(None).replacen("\"status\":\"invalid\"", "\"status\":\"analysed\"", 1);
        let e = read(vec![input("p", text)]).err().unwrap();
        assert_eq!(
            e.to_string(),
            "p:2: a.pdn game 2: the record replays as invalid, the analysis says `analysed`"
        );
    }
}
