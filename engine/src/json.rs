//! The JSON of a search, as `drafti search --json` writes it and the Python package's
//! `SearchResult.to_dict` gives it: a [`DepthLine`] per completed depth, then the
//! [`ResultLine`]. Scores are [`Score`]'s one JSON form; moves are written by the caller's
//! `notation` (the position's, in the record's squares).

use crate::{DepthInfo, RootLine, Score, SearchResult};
use drafti_rules::Move;
use serde::Serialize;
use std::time::Duration;

/// One of the best lines: its first move, its score and the whole line.
#[derive(Clone, Debug, Serialize)]
pub struct Line {
    /// The move.
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score, from the side to move.
    pub score: Score,
    /// The line, the move first.
    pub pv: Vec<String>,
}

/// A completed depth: `{"type": "depth", …}`.
#[derive(Clone, Debug, Serialize)]
pub struct DepthLine {
    /// `depth`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The iteration's depth.
    pub depth: u32,
    /// The longest line searched.
    pub seldepth: u32,
    /// Nodes so far.
    pub nodes: u64,
    /// Nodes per second so far.
    pub nps: u64,
    /// Milliseconds so far.
    pub time_ms: u64,
    /// The best score, from the side to move.
    pub score: Score,
    /// The best line.
    pub pv: Vec<String>,
    /// The best lines, one per `multipv`.
    pub lines: Vec<Line>,
}

/// The result: `{"type": "result", …}`.
#[derive(Clone, Debug, Serialize)]
pub struct ResultLine {
    /// `result`.
    #[serde(rename = "type")]
    pub kind: &'static str,
    /// The best move; `null` when the game is over at the root.
    pub best: Option<String>,
    /// The score (the claim's when that is better than every move).
    pub score: Score,
    /// The best line.
    pub pv: Vec<String>,
    /// The deepest completed iteration.
    pub depth: u32,
    /// The longest line searched.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Milliseconds.
    pub time_ms: u64,
    /// The best lines of the last iteration.
    pub lines: Vec<Line>,
    /// Why the game is over at the root, if it is.
    pub outcome: Option<String>,
    /// Tanzanian law 3's claim at the root, where the side to move may make it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub claim: Option<Claim>,
}

/// Law 3's claim at the root.
#[derive(Clone, Debug, Serialize)]
pub struct Claim {
    /// Its value, from the side to move.
    pub score: Score,
    /// Whether it is better than every move.
    pub best: bool,
}

fn millis(d: Duration) -> u64 {
    d.as_millis().min(u128::from(u64::MAX)) as u64
}

fn lines(lines: &[RootLine], notation: &impl Fn(&[Move]) -> Vec<String>) -> Vec<Line> {
    lines
        .iter()
        .map(|l| Line {
            mv: notation(&l.pv[..1]).remove(0),
            score: l.score,
            pv: notation(&l.pv),
        })
        .collect()
}

impl DepthLine {
    /// The line of a completed depth, moves written by `notation`.
    pub fn of(info: &DepthInfo, notation: impl Fn(&[Move]) -> Vec<String>) -> DepthLine {
        DepthLine {
            kind: "depth",
            depth: info.depth,
            seldepth: info.seldepth,
            nodes: info.nodes,
            nps: info.nps(),
            time_ms: millis(info.elapsed),
            score: info.score,
            pv: notation(info.pv()),
            lines: lines(&info.lines, &notation),
        }
    }
}

impl ResultLine {
    /// The line of a search's result, moves written by `notation`.
    pub fn of(result: &SearchResult, notation: impl Fn(&[Move]) -> Vec<String>) -> ResultLine {
        ResultLine {
            kind: "result",
            best: result.best.map(|mv| notation(&[mv]).remove(0)),
            score: result.score,
            pv: notation(&result.pv),
            depth: result.depth,
            seldepth: result.seldepth,
            nodes: result.nodes,
            nps: result.nps(),
            time_ms: millis(result.elapsed),
            lines: lines(&result.lines, &notation),
            outcome: result.outcome.map(|o| o.to_string()),
            claim: result.claim.map(|score| Claim {
                score,
                best: result.claim_is_best(),
            }),
        }
    }
}
