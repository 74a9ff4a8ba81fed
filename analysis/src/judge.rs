//! Judging a move: how much of the mover's winning chances it gave away.
//!
//! ```text
//! score before (best move) ─┐
//!                           ├─ winning chances wc = 2/(1+exp(-K·score)) − 1 ─▶ drop ─▶ Judgement
//! score after (played move)─┘        (proven results first: "win thrown away", "losing move")
//! ```
//! Scores are in hundredths of a man, from the mover's side. A drop of winning chances of at
//! least [`BLUNDER_DROP`] is a blunder, [`MISTAKE_DROP`] a mistake, [`INACCURACY_DROP`] an
//! inaccuracy (lidraughts' thresholds for draughts). Proven results come before the curve: a
//! move that turns a proven win into no proven win, or a position not proven lost into a
//! proven loss, is a blunder whatever the curve says — unless the position was decided
//! anyway: as lichess grades a mate created or lost, a loss let in from winning chances
//! below −[`PROVEN_MISTAKE_WC`] (1.5 men down) is a mistake, below −[`PROVEN_INACCURACY_WC`]
//! (7.6 men) an inaccuracy, and a win thrown away with as much left likewise.
//!
//! [`K`] was fitted on drafti's own self-play games by logistic regression of the game result
//! on the search score (`cargo run --release -p drafti-analysis --example fit_k`; see
//! `docs/engine.md`, "Judgement and the fitted k").
//!
//! Accuracy is lichess's: a move's accuracy falls exponentially with the drop of the mover's
//! win percentage, and a player's game accuracy is the mean of the volatility-weighted mean
//! and the harmonic mean of their moves' accuracies ([`game_accuracy`]).
//!
//! ```
//! use drafti_engine::Score;
//! use drafti_analysis::judge::{judge, Judgement};
//! // Two men given away from an even position: a blunder.
//! let j = judge(Score::centi_men(10), Score::centi_men(-190), false);
//! assert_eq!(j.judgement, Some(Judgement::Blunder));
//! // The best move itself is never judged.
//! assert_eq!(judge(Score::centi_men(10), Score::centi_men(-190), true).judgement, None);
//! ```

use drafti_engine::Score;
use serde::{Deserialize, Serialize};
use std::fmt;

/// The steepness of the winning-chances curve, per hundredth of a man: fitted on drafti's
/// self-play (see the module docs). lidraughts uses 0.004 for its own engine's scale.
pub const K: f64 = 0.00483;

/// The drop of winning chances (on the −1…1 scale) that makes a blunder.
pub const BLUNDER_DROP: f64 = 0.3;
/// The drop that makes a mistake.
pub const MISTAKE_DROP: f64 = 0.15;
/// The drop that makes an inaccuracy.
pub const INACCURACY_DROP: f64 = 0.075;

/// How bad a move is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Judgement {
    /// A drop of at least [`INACCURACY_DROP`].
    Inaccuracy,
    /// A drop of at least [`MISTAKE_DROP`].
    Mistake,
    /// A drop of at least [`BLUNDER_DROP`], or a proven result thrown away.
    Blunder,
}

impl Judgement {
    /// `inaccuracy`, `mistake`, `blunder`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "inaccuracy",
            Judgement::Mistake => "mistake",
            Judgement::Blunder => "blunder",
        }
    }

    /// The PDN numeric annotation glyph: `$6` (?!), `$2` (?), `$4` (??).
    pub const fn nag(self) -> u8 {
        match self {
            Judgement::Inaccuracy => 6,
            Judgement::Mistake => 2,
            Judgement::Blunder => 4,
        }
    }

    /// The move-strength symbol: `?!`, `?`, `??`.
    pub const fn symbol(self) -> &'static str {
        match self {
            Judgement::Inaccuracy => "?!",
            Judgement::Mistake => "?",
            Judgement::Blunder => "??",
        }
    }
}

impl fmt::Display for Judgement {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a proven result made a move a blunder.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProvenReason {
    /// The mover had a proven win before the move and none after it.
    WinThrownAway,
    /// The mover was not proven lost before the move and is after it.
    LosingMove,
    /// The position before the move is an exact draw (from the endgame tables) and the move
    /// loses.
    DrawThrownAway,
}

impl ProvenReason {
    /// `win_thrown_away`, `losing_move`, `draw_thrown_away`.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProvenReason::WinThrownAway => "win_thrown_away",
            ProvenReason::LosingMove => "losing_move",
            ProvenReason::DrawThrownAway => "draw_thrown_away",
        }
    }
}

impl fmt::Display for ProvenReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProvenReason::WinThrownAway => "win thrown away",
            ProvenReason::LosingMove => "losing move",
            ProvenReason::DrawThrownAway => "draw thrown away",
        })
    }
}

/// The verdict on one move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// The mover's winning chances before the move (best play), −1…1.
    pub wc_before: f64,
    /// The mover's winning chances after the played move, −1…1.
    pub wc_after: f64,
    /// `wc_before − wc_after`, never below 0.
    pub drop: f64,
    /// The judgement, if the move is flagged.
    pub judgement: Option<Judgement>,
    /// Set when a proven result made it a blunder.
    pub proven: Option<ProvenReason>,
    /// The move's accuracy in percent (lichess's formula).
    pub accuracy: f64,
}

impl Verdict {
    /// This verdict, for a move whose search had not settled it when `unsettled` (a blunder
    /// only at the last few depths): then a blunder becomes a mistake; any other verdict stays.
    pub fn unsettled_if(mut self, unsettled: bool) -> Verdict {
        if unsettled && self.judgement == Some(Judgement::Blunder) {
            self.judgement = Some(Judgement::Mistake);
        }
        self
    }
}

/// The winning chances of `score` (from the side it belongs to): −1 (lost) … 1 (won). Proven
/// results are ±1; estimates follow `2/(1+exp(−K·score)) − 1`.
///
/// ```
/// use drafti_engine::Score;
/// use drafti_analysis::judge::winning_chances;
/// assert_eq!(winning_chances(Score::DRAW), 0.0);
/// assert_eq!(winning_chances(Score::win_in(5)), 1.0);
/// assert!((winning_chances(Score::centi_men(100)) + winning_chances(Score::centi_men(-100))).abs() < 1e-12);
/// ```
pub fn winning_chances(score: Score) -> f64 {
    if score.win_distance().is_some() {
        1.0
    } else if score.loss_distance().is_some() {
        -1.0
    } else {
        wc_of_centi_men(score.raw() as f64, K)
    }
}

/// `2/(1+exp(−k·cm)) − 1`: the curve for any `k` (the fit uses it with trial values).
pub fn wc_of_centi_men(cm: f64, k: f64) -> f64 {
    2.0 / (1.0 + (-k * cm).exp()) - 1.0
}

/// The judgement of a drop of winning chances by the curve alone.
pub fn judgement_of_drop(drop: f64) -> Option<Judgement> {
    if drop >= BLUNDER_DROP {
        Some(Judgement::Blunder)
    } else if drop >= MISTAKE_DROP {
        Some(Judgement::Mistake)
    } else if drop >= INACCURACY_DROP {
        Some(Judgement::Inaccuracy)
    } else {
        None
    }
}

/// lichess's accuracy of a move that takes the mover's win percentage (0…100) from `before`
/// to `after`: `103.1668·exp(−0.04354·(before − after)) − 3.1669`, clamped to 0…100; 100
/// when the win percentage did not fall.
pub fn move_accuracy(win_percent_before: f64, win_percent_after: f64) -> f64 {
    if win_percent_after >= win_percent_before {
        return 100.0;
    }
    let drop = win_percent_before - win_percent_after;
    (103.166_810_071_164_9 * (-0.043_544_153_867_539_51 * drop).exp() - 3.166_924_740_191_411)
        .clamp(0.0, 100.0)
}

/// The win percentage (0…100) of winning chances `wc` (−1…1).
pub fn win_percent(wc: f64) -> f64 {
    50.0 + 50.0 * wc
}

/// Judges a move: `best` is the score of the best move of the position before it, `played`
/// the score of the played move (both from the mover's side, searched alike); when
/// `played_is_best` the move is not judged (no drop). The proven-result rules come first.
pub fn judge(best: Score, played: Score, played_is_best: bool) -> Verdict {
    let wc_before = winning_chances(best);
    let wc_after = if played_is_best {
        wc_before
    } else {
        winning_chances(played)
    };
    let drop = (wc_before - wc_after).max(0.0);
    let accuracy = move_accuracy(win_percent(wc_before), win_percent(wc_after));
    let mut verdict = Verdict {
        wc_before,
        wc_after,
        drop,
        judgement: None,
        proven: None,
        accuracy,
    };
    if played_is_best {
        return verdict;
    }
    verdict.proven = if best.win_distance().is_some() && played.win_distance().is_none() {
        Some(ProvenReason::WinThrownAway)
    } else if best.loss_distance().is_none() && played.loss_distance().is_some() {
        Some(ProvenReason::LosingMove)
    } else {
        None
    };
    // How much of the result the proven rule is about was still in doubt: a win thrown away
    // for a position still this well won, or a loss let in from a position already this
    // lost, counts less (the deeper search proves the rest; lichess grades mate created
    // and mate lost the same way). The curve has no say then: it would weigh a proof (±1)
    // against an estimate that a proof is not yet in.
    verdict.judgement = match verdict.proven {
        Some(ProvenReason::WinThrownAway) => Some(proven_judgement(wc_after)),
        Some(_) => Some(proven_judgement(-wc_before)),
        None => judgement_of_drop(drop),
    };
    verdict
}

/// The winning chances (of the side the proven result favours) beyond which a proven result
/// gained or lost is only a mistake: 1.5 men on the curve. In the 6-piece endings of the
/// master games every such blunder of analyze's default from 1.5 to 3.6 men (6 of 6) was a
/// move from a position the tables call lost already, or into one they call still won
/// (docs/lab/six-piece-yardstick.md). (3.6 men until 2026-12-07; lichess's 700 centipawns,
/// 5.4 men here, until 2026-12-05: docs/lab/tanzanian-network-verdicts.md.)
pub const PROVEN_MISTAKE_WC: f64 = 0.35;
/// Beyond which it is only an inaccuracy: lichess's 999 centipawns (7.6 men here).
pub const PROVEN_INACCURACY_WC: f64 = 0.95;

/// The judgement of a move that gains the opponent a proven result (or loses the mover's)
/// when the side that result favours had winning chances `wc` anyway (without it).
fn proven_judgement(wc: f64) -> Judgement {
    if wc > PROVEN_INACCURACY_WC {
        Judgement::Inaccuracy
    } else if wc > PROVEN_MISTAKE_WC {
        Judgement::Mistake
    } else {
        Judgement::Blunder
    }
}

/// Judges a move whose scores are exact (endgame tables: a win or loss with its distance, or
/// [`Score::DRAW`] for a drawn position): [`judge`], and a drawn position left by a losing move
/// is a "draw thrown away" rather than a "losing move". Exact values have no curve to
/// speak of: the verdict is a blunder with its reason, or nothing (a slower win, a quicker
/// loss from a lost position and another drawing move are no drop).
///
/// ```
/// use drafti_engine::Score;
/// use drafti_analysis::judge::{judge_exact, Judgement, ProvenReason};
/// let v = judge_exact(Score::DRAW, Score::loss_in(12), false);
/// assert_eq!((v.judgement, v.proven), (Some(Judgement::Blunder), Some(ProvenReason::DrawThrownAway)));
/// assert_eq!(judge_exact(Score::win_in(7), Score::win_in(11), false).judgement, None);
/// ```
pub fn judge_exact(best: Score, played: Score, played_is_best: bool) -> Verdict {
    let mut verdict = judge(best, played, played_is_best);
    if verdict.proven == Some(ProvenReason::LosingMove) && best == Score::DRAW {
        verdict.proven = Some(ProvenReason::DrawThrownAway);
    }
    verdict
}

/// One side's figures for a game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct SideSummary {
    /// Moves the side made (that were judged).
    pub moves: usize,
    /// Inaccuracies.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Game accuracy in percent ([`game_accuracy`]); `None` without moves.
    pub accuracy: Option<f64>,
}

impl SideSummary {
    /// Counts one judgement.
    pub fn count(&mut self, judgement: Option<Judgement>) {
        self.moves += 1;
        match judgement {
            Some(Judgement::Inaccuracy) => self.inaccuracies += 1,
            Some(Judgement::Mistake) => self.mistakes += 1,
            Some(Judgement::Blunder) => self.blunders += 1,
            None => {}
        }
    }
}

/// lichess's game accuracy of one player, from the win percentages of the game and that
/// player's moves.
///
/// `white_win_percents[i]` is White's win percentage (0…100) in the position before ply `i`
/// (one more entry than plies: the last is the final position); `moves` holds, for each of
/// the player's plies, its index and its accuracy. Each move is weighted by the volatility
/// of the game around it: the standard deviation of the win percentages in a window of
/// `plies/10` positions (2…8) ending after the move, clamped to 0.5…12. The result is the
/// mean of the weighted mean and the harmonic mean of the move accuracies (the harmonic
/// mean counts each accuracy as at least 1, so one 0 does not make the game 0). `None`
/// without moves.
///
/// ```
/// use drafti_analysis::judge::game_accuracy;
/// let wins = [50.0, 50.0, 50.0, 50.0, 50.0];
/// assert_eq!(game_accuracy(&wins, &[(0, 100.0), (2, 100.0)]), Some(100.0));
/// let a = game_accuracy(&wins, &[(0, 100.0), (2, 20.0)]).unwrap();
/// assert!(a > 20.0 && a < 60.0);
/// ```
pub fn game_accuracy(white_win_percents: &[f64], moves: &[(usize, f64)]) -> Option<f64> {
    if moves.is_empty() {
        return None;
    }
    let plies = white_win_percents.len().saturating_sub(1);
    let window = (plies / 10)
        .clamp(2, 8)
        .min(white_win_percents.len().max(1));
    let weight = |ply: usize| -> f64 {
        // lichess pads the first windows with the opening window; the window "of" move i
        // is the one that ends at position i + 1 (or the first full window).
        let end = (ply + 2).max(window).min(white_win_percents.len());
        let start = end.saturating_sub(window);
        std_dev(&white_win_percents[start..end]).clamp(0.5, 12.0)
    };
    let (mut sum, mut weights, mut inverse) = (0.0, 0.0, 0.0);
    for &(ply, accuracy) in moves {
        let w = weight(ply);
        sum += w * accuracy;
        weights += w;
        inverse += 1.0 / accuracy.max(1.0);
    }
    let weighted = sum / weights;
    let harmonic = moves.len() as f64 / inverse;
    Some((weighted + harmonic) / 2.0)
}

fn std_dev(xs: &[f64]) -> f64 {
    if xs.is_empty() {
        return 0.0;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    (xs.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / n).sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cm(v: i32) -> Score {
        Score::centi_men(v)
    }

    #[test]
    fn thresholds() {
        assert_eq!(judgement_of_drop(0.0), None);
        assert_eq!(judgement_of_drop(0.0749), None);
        assert_eq!(judgement_of_drop(0.075), Some(Judgement::Inaccuracy));
        assert_eq!(judgement_of_drop(0.1499), Some(Judgement::Inaccuracy));
        assert_eq!(judgement_of_drop(0.15), Some(Judgement::Mistake));
        assert_eq!(judgement_of_drop(0.2999), Some(Judgement::Mistake));
        assert_eq!(judgement_of_drop(0.3), Some(Judgement::Blunder));
        assert_eq!(judgement_of_drop(2.0), Some(Judgement::Blunder));
    }

    #[test]
    fn curve_is_odd_and_bounded() {
        for v in [0, 1, 50, 100, 300, 2000, 20000] {
            let up = winning_chances(cm(v));
            let down = winning_chances(cm(-v));
            assert!((up + down).abs() < 1e-12);
            assert!((-1.0..=1.0).contains(&up));
        }
        assert!(winning_chances(cm(100)) > winning_chances(cm(50)));
        // One man ahead is a good but not certain advantage.
        let one_man = winning_chances(cm(100));
        assert!(one_man > 0.1 && one_man < 0.5, "{one_man}");
    }

    #[test]
    fn losing_a_man_from_equality_is_flagged() {
        let v = judge(cm(0), cm(-100), false);
        assert!(v.judgement.is_some(), "{v:?}");
        assert!(v.proven.is_none());
        let v = judge(cm(0), cm(-400), false);
        assert_eq!(v.judgement, Some(Judgement::Blunder));
    }

    #[test]
    fn small_drops_are_not_flagged() {
        assert_eq!(judge(cm(0), cm(-10), false).judgement, None);
        // Far ahead, a man less changes little.
        assert_eq!(judge(cm(1200), cm(1000), false).judgement, None);
        // A better score than the "best" (search noise) is no drop.
        let v = judge(cm(0), cm(40), false);
        assert_eq!(v.drop, 0.0);
        assert_eq!(v.accuracy, 100.0);
    }

    #[test]
    fn the_best_move_is_never_judged() {
        let v = judge(Score::win_in(3), Score::DRAW, true);
        assert_eq!(v.judgement, None);
        assert_eq!(v.drop, 0.0);
        assert_eq!(v.accuracy, 100.0);
    }

    #[test]
    fn proven_results_come_first() {
        // A win thrown away is a blunder even when the curve says little ...
        let v = judge(Score::win_in(9), cm(120), false);
        assert_eq!(v.judgement, Some(Judgement::Blunder));
        assert_eq!(v.proven, Some(ProvenReason::WinThrownAway));
        // ... graded by how well won the position still is: from 1.5 men up a mistake, where
        // the curve would say a blunder (the tables call such positions won still); 25, an
        // inaccuracy (the curve alone would say nothing).
        assert_eq!(
            judgement_of_drop(1.0 - winning_chances(cm(300))),
            Some(Judgement::Blunder)
        );
        let v = judge(Score::win_in(9), cm(300), false);
        assert_eq!(v.judgement, Some(Judgement::Mistake));
        let v = judge(Score::win_in(9), cm(160), false);
        assert_eq!(v.judgement, Some(Judgement::Mistake));
        let v = judge(Score::win_in(9), cm(2500), false);
        assert_eq!(v.judgement, Some(Judgement::Inaccuracy));
        assert_eq!(v.proven, Some(ProvenReason::WinThrownAway));
        // A slower win is not thrown away.
        let v = judge(Score::win_in(5), Score::win_in(11), false);
        assert_eq!(v.judgement, None);
        assert_eq!(v.proven, None);
        // From an unproven position into a proven loss: a losing move ...
        let v = judge(cm(-120), Score::loss_in(6), false);
        assert_eq!(v.judgement, Some(Judgement::Blunder));
        assert_eq!(v.proven, Some(ProvenReason::LosingMove));
        // ... graded by how lost the position already was: from 1.5 men down a mistake, from
        // 25 an inaccuracy (the deeper search proves such positions lost already).
        let v = judge(cm(-160), Score::loss_in(6), false);
        assert_eq!(v.judgement, Some(Judgement::Mistake));
        let v = judge(cm(-600), Score::loss_in(6), false);
        assert_eq!(v.judgement, Some(Judgement::Mistake));
        let v = judge(cm(-2500), Score::loss_in(6), false);
        assert_eq!(v.judgement, Some(Judgement::Inaccuracy));
        assert_eq!(v.proven, Some(ProvenReason::LosingMove));
        // Already proven lost: a quicker loss is no blunder by the proven rule.
        let v = judge(Score::loss_in(12), Score::loss_in(4), false);
        assert_eq!(v.proven, None);
        assert_eq!(v.judgement, None);
    }

    #[test]
    fn move_accuracy_matches_lichess() {
        assert_eq!(move_accuracy(60.0, 60.0), 100.0);
        assert_eq!(move_accuracy(60.0, 70.0), 100.0);
        // No drop gives 100 (the formula's constants are tuned for that).
        assert!((move_accuracy(50.0, 50.0 - 1e-9) - 100.0).abs() < 1e-3);
        let ten = move_accuracy(60.0, 50.0);
        assert!((ten - 63.64).abs() < 0.1, "{ten}");
        assert_eq!(move_accuracy(100.0, 0.0), 0.0);
    }

    #[test]
    fn game_accuracy_weights_and_harmonic_mean() {
        let wins = vec![50.0; 21];
        let all_good: Vec<(usize, f64)> = (0..20).step_by(2).map(|i| (i, 100.0)).collect();
        assert_eq!(game_accuracy(&wins, &all_good), Some(100.0));
        assert_eq!(game_accuracy(&wins, &[]), None);
        // One terrible move pulls the harmonic mean down much more than the mean.
        let mut one_bad = all_good.clone();
        one_bad[3].1 = 0.0;
        let a = game_accuracy(&wins, &one_bad).unwrap();
        assert!(a < 90.0 && a > 40.0, "{a}");
    }
}
