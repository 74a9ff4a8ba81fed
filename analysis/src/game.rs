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
    /// The drop is a blunder's but not settled, so the move is judged a mistake: the
    /// re-search made it a blunder at fewer than [`crate::AnalysisOptions::blunder_depths`]
    /// of its deepest depths with a drop there under
    /// [`crate::AnalysisOptions::clear_blunder_drop`], or the evaluation scored it in an
    /// ending it cannot judge ([`crate::doubted_king_ending`]).
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
            final_eval,
            ..GameAnalysis::default()
        };
        analysis.figure(game);
        analysis
    }

    /// Move `m.ply` judged again (by [`crate::recheck`], deeper than the analysis judged it):
    /// its verdict, scores and line replace the analysis's, and both sides' counts and
    /// accuracies follow, so every output made from this analysis tells the same verdict.
    /// `game` is the game analysed; a ply it does not have changes nothing.
    pub fn rejudge(&mut self, game: &ReplayedGame, m: MoveAnalysis) {
        let Some(slot) = m.ply.checked_sub(1).and_then(|i| self.moves.get_mut(i)) else {
            return;
        };
        *slot = m;
        self.figure(game);
    }

    /// Both sides' counts and accuracies, and the moves re-searched, from the moves and the
    /// last position's score, as the analysis works them out.
    fn figure(&mut self, game: &ReplayedGame) {
        let (mut white, mut black) = (SideSummary::default(), SideSummary::default());
        self.verified = 0;
        for m in &self.moves {
            let side = match m.mover {
                Color::White => &mut white,
                Color::Black => &mut black,
            };
            side.count(m.verdict.judgement);
            self.verified += usize::from(m.confirmed_depth.is_some());
        }
        // White's win percentage in every position, for the volatility weights: the best score
        // of each move's position (the re-searched one where there was one), then the last.
        let white_win = |turn: Color, s: Score| {
            let s = if turn == Color::White { s } else { -s };
            win_percent(judge::winning_chances(s))
        };
        let mut white_wins: Vec<f64> = self
            .moves
            .iter()
            .map(|m| white_win(m.mover, m.best_score))
            .collect();
        if let (Some(last), Some(pos)) = (&self.final_eval, game.positions.last()) {
            white_wins.push(white_win(pos.turn(), last.score));
        }
        for (color, side) in [(Color::White, &mut white), (Color::Black, &mut black)] {
            let moves: Vec<(usize, f64)> = self
                .moves
                .iter()
                .filter(|m| m.mover == color)
                .map(|m| (m.ply - 1, m.verdict.accuracy))
                .collect();
            side.accuracy = game_accuracy(&white_wins, &moves);
        }
        (self.white, self.black) = (white, black);
    }
}

#[cfg(test)]
mod tests {
    use crate::judge::{judge, Judgement};
    use crate::pass::tests::game;
    use crate::{analyse_game, AnalysisOptions};
    use drafti_engine::{Limits, Score};

    #[test]
    fn a_move_judged_again_changes_the_figures_as_if_analysed_so() {
        let g =
            game("1. c3-d4 b6-c5 2. d4xb6 a7xc5 3. e3-f4 c7-b6 4. d2-e3 h6-g5 5. f4xh6 d6-e5 *");
        let options = AnalysisOptions {
            limits: Limits::depth(3),
            verify: None,
            ..AnalysisOptions::default()
        };
        let mut analysis = analyse_game(&g, &options);
        // Move 9 (5. f4xh6) judged again as a blunder that gives away two men.
        let mut again = analysis.moves[8].clone();
        again.played_is_best = false;
        again.played_score = again
            .best_score
            .raw()
            .checked_sub(250)
            .map_or(again.best_score, Score::centi_men);
        again.verdict = judge(again.best_score, again.played_score, false);
        assert_eq!(again.verdict.judgement, Some(Judgement::Blunder));
        let mut moves = analysis.moves.clone();
        moves[8] = again.clone();
        let expected =
            super::GameAnalysis::from_moves(&g, moves, analysis.final_eval.clone(), analysis.nodes);
        let blunders_before = analysis.white.blunders;
        analysis.rejudge(&g, again);
        assert_eq!(analysis.white, expected.white);
        assert_eq!(analysis.black, expected.black);
        assert_eq!(analysis.white.blunders, blunders_before + 1);
        assert_eq!(analysis.verified, expected.verified);
        // A ply the game does not have changes nothing.
        let mut beyond = analysis.moves[0].clone();
        beyond.ply = 99;
        let before = (analysis.white, analysis.black);
        analysis.rejudge(&g, beyond);
        assert_eq!((analysis.white, analysis.black), before);
    }
}
