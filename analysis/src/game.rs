//! What the analysis of a game finds: each position's search ([`PositionEval`]), each move's
//! verdict ([`MoveAnalysis`]) and the game's figures ([`GameAnalysis`]).

use crate::judge::{
    self, game_accuracy, win_percent, Judgement, ProvenReason, SideSummary, Verdict,
};
use drafti_archive::replay::ReplayedGame;
use drafti_engine::{Score, SearchResult};
use drafti_rules::{Color, Move};

/// The search of one position.
#[derive(Clone, Debug)]
pub struct PositionEval {
    /// The best move (`None` when the game is over there).
    pub best: Option<Move>,
    /// The best score, from the side to move.
    pub score: Score,
    /// The principal variation, starting with `best`.
    pub pv: Vec<Move>,
    /// The depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Looked up in the endgame tables, not searched: the score is exact (a draw is
    /// [`Score::DRAW`]), `depth` and `nodes` are 0.
    pub exact: bool,
}

impl From<SearchResult> for PositionEval {
    fn from(r: SearchResult) -> PositionEval {
        PositionEval {
            best: r.best,
            score: r.score,
            pv: r.pv,
            depth: r.depth,
            nodes: r.nodes,
            exact: false,
        }
    }
}

/// One judged move of the mainline.
#[derive(Clone, Debug)]
pub struct MoveAnalysis {
    /// 1-based ply (the first move of the game is ply 1).
    pub ply: usize,
    /// Who played it.
    pub mover: Color,
    /// The move played.
    pub played: Move,
    /// The best move of the position before it.
    pub best: Option<Move>,
    /// The best move's score, from the mover's side.
    pub best_score: Score,
    /// The best line, starting with the best move.
    pub pv: Vec<Move>,
    /// The played move's score, from the mover's side.
    pub played_score: Score,
    /// Whether the played move is the best move.
    pub played_is_best: bool,
    /// The verdict (judgement, winning chances, accuracy).
    pub verdict: Verdict,
    /// The depth the scores come from (the re-search's when there was one).
    pub depth: u32,
    /// For a re-searched move: the shallowest depth from which every deeper completed depth
    /// of the re-search gave the same judgement. `None`: the pass's verdict.
    pub confirmed_depth: Option<u32>,
    /// The position before the move is in the endgame tables: both scores and the verdict
    /// are exact (`depth` is 0).
    pub exact: bool,
    /// The re-search's drop is a blunder's, but it became one at fewer than
    /// [`crate::AnalysisOptions::blunder_depths`] of its deepest depths: judged a mistake.
    pub unsettled: bool,
}

impl MoveAnalysis {
    /// The judgement, if the move is flagged.
    pub fn judgement(&self) -> Option<Judgement> {
        self.verdict.judgement
    }

    /// Why a proven or exact result makes the move a blunder, with the distance:
    /// `win in 31 missed`, `draw thrown away: loss in 12`, `losing move: loss in 8`.
    pub fn reason_text(&self) -> Option<String> {
        let loss = self.played_score.loss_distance();
        Some(
            match (self.verdict.proven?, self.best_score.win_distance(), loss) {
                (ProvenReason::WinThrownAway, Some(d), _) => format!("win in {d} missed"),
                (ProvenReason::WinThrownAway, None, _) => "win thrown away".to_string(),
                (reason, _, Some(d)) => format!("{reason}: loss in {d}"),
                (reason, _, None) => reason.to_string(),
            },
        )
    }
}

/// A game's analysis.
#[derive(Clone, Debug, Default)]
pub struct GameAnalysis {
    /// Every mainline move, in order.
    pub moves: Vec<MoveAnalysis>,
    /// White's counts and accuracy.
    pub white: SideSummary,
    /// Black's counts and accuracy.
    pub black: SideSummary,
    /// Positions searched (plies + 1).
    pub positions: usize,
    /// Nodes searched in all (re-searches included).
    pub nodes: u64,
    /// Moves re-searched.
    pub verified: usize,
    /// The search of the last position (the game's end or where it stopped).
    pub final_eval: Option<PositionEval>,
}

impl GameAnalysis {
    /// The flagged moves.
    pub fn flagged(&self) -> impl Iterator<Item = &MoveAnalysis> {
        self.moves.iter().filter(|m| m.verdict.judgement.is_some())
    }

    /// The summary of `color`.
    pub fn side(&self, color: Color) -> &SideSummary {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }
}

impl GameAnalysis {
    /// A game's analysis from its judged moves and the search of its last position: the
    /// counts and accuracies of both sides worked out as the analysis does (for a report
    /// rebuilt from `drafti analyze --json`, whose moves carry these numbers).
    pub fn from_moves(
        game: &ReplayedGame,
        moves: Vec<MoveAnalysis>,
        final_eval: Option<PositionEval>,
        nodes: u64,
    ) -> GameAnalysis {
        let mut analysis = GameAnalysis {
            positions: game.positions.len(),
            nodes,
            moves,
            ..GameAnalysis::default()
        };
        for m in &analysis.moves {
            let side = match m.mover {
                Color::White => &mut analysis.white,
                Color::Black => &mut analysis.black,
            };
            side.count(m.verdict.judgement);
            analysis.verified += usize::from(m.confirmed_depth.is_some());
        }
        // White's win percentage in every position, for the volatility weights: the best score
        // of each move's position (the re-searched one where there was one), then the last.
        let white_win = |turn: Color, s: Score| {
            let s = if turn == Color::White { s } else { -s };
            win_percent(judge::winning_chances(s))
        };
        let mut white_wins: Vec<f64> = analysis
            .moves
            .iter()
            .map(|m| white_win(m.mover, m.best_score))
            .collect();
        if let (Some(last), Some(pos)) = (&final_eval, game.positions.last()) {
            white_wins.push(white_win(pos.turn(), last.score));
        }
        for color in [Color::White, Color::Black] {
            let moves: Vec<(usize, f64)> = analysis
                .moves
                .iter()
                .filter(|m| m.mover == color)
                .map(|m| (m.ply - 1, m.verdict.accuracy))
                .collect();
            let accuracy = game_accuracy(&white_wins, &moves);
            match color {
                Color::White => analysis.white.accuracy = accuracy,
                Color::Black => analysis.black.accuracy = accuracy,
            }
        }
        analysis.final_eval = final_eval;
        analysis
    }
}
