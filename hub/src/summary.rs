//! A match's result as data: the games counted as they come ([`Scoreboard`]: W/D/L, the
//! pairs, how the games ended) and the summary a match reports ([`MatchSummary`], which is
//! also `drafti match --json`'s object: `engines`, `games`, `wins`, `draws`, `losses`,
//! `pairs`, `score`, `elo`, `elo_low`, `elo_high`, `model`, `sprt`, `terminations`).
//!
//! ```
//! use drafti_hub::stats::{GameScore, Tally};
//! use drafti_hub::summary::{MatchSummary, Terminations};
//! let mut tally = Tally::default();
//! tally.add(GameScore::Win);
//! tally.add(GameScore::Draw);
//! tally.add_pair(GameScore::Win, GameScore::Draw);
//! let names = ["a".to_string(), "b".to_string()];
//! let s = MatchSummary::new(names, &tally, Terminations::default(), None);
//! assert_eq!((s.games, s.wins, s.draws, s.score), (2, 1, 1, 0.75));
//! assert_eq!(s.model, "pentanomial");
//! ```

use crate::runner::{PlayedGame, Termination};
use crate::stats::{GameScore, Sprt, Tally, Verdict};
use drafti_rules::Outcome;
use serde::Serialize;

/// How many games ended each way.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Terminations {
    /// A win by the rules (the loser has no move).
    pub normal: u32,
    /// A draw by a draw law.
    pub draw_rule: u32,
    /// A draw by repetition.
    pub repetition: u32,
    /// A draw at the ply cap.
    pub ply_cap: u32,
    /// Lost by a player's failure.
    pub forfeit: u32,
    /// Adjudicated by the endgame tables.
    pub tables: u32,
}

impl Terminations {
    /// Counts one game's end.
    pub fn add(&mut self, termination: &Termination) {
        let counter = match termination {
            Termination::TablesDraw | Termination::TablesWin { .. } => &mut self.tables,
            Termination::Repetition => &mut self.repetition,
            Termination::PlyCap(_) => &mut self.ply_cap,
            Termination::Rules(Outcome::Draw(_)) => &mut self.draw_rule,
            Termination::Rules(Outcome::Win(_)) => &mut self.normal,
            Termination::Forfeit { .. } => &mut self.forfeit,
        };
        *counter += 1;
    }
}

/// The games of a match counted as they are played, in order.
#[derive(Clone, Debug, Default)]
pub struct Scoreboard {
    /// W/D/L and pairs, the first engine's.
    pub tally: Tally,
    /// How the games ended.
    pub terminations: Terminations,
    /// The first game of a pair whose second has not come yet.
    pending: Option<GameScore>,
}

impl Scoreboard {
    /// Counts `played` (games come in index order: 2k and 2k+1 are a pair).
    pub fn add(&mut self, played: &PlayedGame) {
        let score = played.first_player_score();
        self.tally.add(score);
        self.terminations.add(&played.termination);
        if played.index.is_multiple_of(2) {
            self.pending = Some(score);
        } else if let Some(first) = self.pending.take() {
            self.tally.add_pair(first, score);
        }
    }
}

/// Where an SPRT ended, for the summary.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct SprtSummary {
    /// The Elo difference of the null hypothesis (H0).
    pub elo0: f64,
    /// The Elo difference of the alternative hypothesis (H1).
    pub elo1: f64,
    /// The false-positive rate asked for.
    pub alpha: f64,
    /// The false-negative rate asked for.
    pub beta: f64,
    /// The log-likelihood ratio, and the bounds it is tested against (3 decimals).
    pub llr: f64,
    /// The bound below which H0 is accepted.
    pub lower: f64,
    /// The bound above which H1 is accepted.
    pub upper: f64,
    /// `H1`, `H0` or `continue`.
    pub verdict: &'static str,
}

/// A match's result (Elo rounded to a tenth, the score to four decimals; an infinite Elo
/// bound is `None`).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct MatchSummary {
    /// The two engines' names, in the order given.
    pub engines: [String; 2],
    /// Games played.
    pub games: u32,
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// Pairs that scored 0, ½, 1, 1½ and 2 points for the first engine.
    pub pairs: [u32; 5],
    /// The first engine's share of the points, 0 to 1.
    pub score: f64,
    /// The first engine's Elo advantage (`None` when infinite).
    pub elo: Option<f64>,
    /// The low end of its 95% interval (`None` when infinite).
    pub elo_low: Option<f64>,
    /// The high end of its 95% interval (`None` when infinite).
    pub elo_high: Option<f64>,
    /// `pentanomial` or `trinomial`.
    pub model: &'static str,
    /// Where the SPRT ended, when one was run.
    pub sprt: Option<SprtSummary>,
    /// How the games ended (results, adjudications, failures).
    pub terminations: Terminations,
    /// The Elo difference and its interval as computed (infinite for a clean sweep), for
    /// the text.
    #[serde(skip)]
    pub elo_interval: (f64, f64, f64),
}

fn thousandths(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

impl MatchSummary {
    /// The summary of `tally` between `engines`, with `sprt`'s standing if one ran.
    pub fn new(
        engines: [String; 2],
        tally: &Tally,
        terminations: Terminations,
        sprt: Option<Sprt>,
    ) -> MatchSummary {
        let (elo, low, high) = tally.elo();
        let finite = |x: f64| x.is_finite().then_some((x * 10.0).round() / 10.0);
        let sprt = sprt.map(|s| {
            let (lower, upper) = s.bounds();
            SprtSummary {
                elo0: s.elo0,
                elo1: s.elo1,
                alpha: s.alpha,
                beta: s.beta,
                llr: thousandths(tally.llr(s.elo0, s.elo1)),
                lower: thousandths(lower),
                upper: thousandths(upper),
                verdict: match s.verdict(tally) {
                    Verdict::H1 => "H1",
                    Verdict::H0 => "H0",
                    Verdict::Continue => "continue",
                },
            }
        });
        MatchSummary {
            engines,
            games: tally.games(),
            wins: tally.wins,
            draws: tally.draws,
            losses: tally.losses,
            pairs: tally.pairs,
            score: (tally.score() * 10_000.0).round() / 10_000.0,
            elo: finite(elo),
            elo_low: finite(low),
            elo_high: finite(high),
            model: if tally.pentanomial() {
                "pentanomial"
            } else {
                "trinomial"
            },
            sprt,
            terminations,
            elo_interval: (elo, low, high),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::player::{Forfeit, ForfeitKind};
    use drafti_rules::{Color, Position};

    fn game(index: usize, white: usize, termination: Termination) -> PlayedGame {
        PlayedGame {
            index,
            white,
            names: ["a".into(), "b".into()],
            start: Position::start(Color::White),
            moves: Vec::new(),
            opening_plies: 0,
            replies: Vec::new(),
            termination,
        }
    }

    #[test]
    fn the_scoreboard_counts_games_pairs_and_ends() {
        let mut board = Scoreboard::default();
        // Pair 1: the first engine wins as White, then draws: 1.5 points.
        board.add(&game(0, 0, Termination::Rules(Outcome::Win(Color::White))));
        board.add(&game(1, 1, Termination::Repetition));
        // Pair 2: it loses as White on a forfeit, then as Black at the ply cap: 0.5.
        let forfeit = Termination::Forfeit {
            loser: Color::White,
            engine: "a".into(),
            forfeit: Forfeit::new(ForfeitKind::Time, "slow"),
        };
        board.add(&game(2, 0, forfeit));
        board.add(&game(3, 1, Termination::PlyCap(300)));
        let t = board.terminations;
        assert_eq!((t.normal, t.repetition, t.forfeit, t.ply_cap), (1, 1, 1, 1));
        assert_eq!(
            (board.tally.wins, board.tally.draws, board.tally.losses),
            (1, 2, 1)
        );
        assert_eq!(board.tally.pairs, [0, 1, 0, 1, 0]);
        let s = MatchSummary::new(["a".into(), "b".into()], &board.tally, t, None);
        assert_eq!((s.games, s.score, s.model), (4, 0.5, "pentanomial"));
    }
}
