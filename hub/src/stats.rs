//! Match statistics: score, Elo difference with a 95% interval, and the sequential
//! probability ratio test (SPRT) that stops a match once it has decided between two Elo
//! hypotheses.
//!
//! The models are those of cutechess-cli and fastchess's logistic model: Elo from the score
//! by the logistic curve, `elo = -400 log10(1/s - 1)`; the interval from the normal
//! approximation of the score's standard error. Games played in pairs (one opening, colours
//! swapped) are counted in the **pentanomial** model — the five pair results 0, ½, 1, 1½, 2
//! — whose variance takes the pairing into account (the opening's bias cancels within a
//! pair); otherwise each game counts alone (**trinomial**: win, draw, loss). The SPRT is the
//! generalised SPRT (GSPRT) with the log-likelihood ratio in its normal approximation
//! `LLR = n (s1 - s0) (2 s - s0 - s1) / (2 var)`, stopped at `ln(β/(1-α))` (H0, elo0 holds)
//! or `ln((1-β)/α)` (H1, elo1 holds); its counts get half a game (or pair) of each outcome
//! as a prior, so that a match one engine wins every game of is decided too.
//!
//! ```
//! use drafti_hub::stats::{GameScore, Sprt, Tally, Verdict};
//! let mut tally = Tally::default();
//! for pair in 0..30 {
//!     // Two pairs of three of won and drawn, one of two draws: a score of 2/3.
//!     let second = if pair % 3 == 2 { GameScore::Draw } else { GameScore::Win };
//!     tally.add(GameScore::Draw);
//!     tally.add(second);
//!     tally.add_pair(GameScore::Draw, second);
//! }
//! assert!(tally.pentanomial());
//! let (elo, low, high) = tally.elo();
//! assert!(low < elo && elo < high && (elo - 120.4).abs() < 0.1);
//! let sprt = Sprt { elo0: 0.0, elo1: 50.0, alpha: 0.05, beta: 0.05 };
//! assert_eq!(sprt.verdict(&tally), Verdict::H1);
//! ```

/// W/D/L and pair results, from the first engine's point of view.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Games the first engine won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games the first engine lost.
    pub losses: u32,
    /// `pairs[k]`: pairs in which the first engine scored `k` half-points (0…4).
    pub pairs: [u32; 5],
}

/// The score of a game for the first engine: 0, 1 or 2 half-points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameScore {
    /// 0 half-points.
    Loss = 0,
    /// 1 half-point.
    Draw = 1,
    /// 2 half-points.
    Win = 2,
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, score: GameScore) {
        match score {
            GameScore::Win => self.wins += 1,
            GameScore::Draw => self.draws += 1,
            GameScore::Loss => self.losses += 1,
        }
    }

    /// Counts a finished pair (after both its games were added).
    pub fn add_pair(&mut self, a: GameScore, b: GameScore) {
        self.pairs[a as usize + b as usize] += 1;
    }

    /// Games counted.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The first engine's score, 0…1 (0.5 for no games).
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n)
    }

    /// Samples of the score per unit (a game, or a pair in the pentanomial model) as
    /// `(value, count)`, and whether they are pairs.
    fn samples(&self) -> (Vec<(f64, f64)>, bool) {
        let paired: u32 = self.pairs.iter().sum();
        if paired > 0 && paired * 2 == self.games() {
            let samples = (0..5)
                .map(|k| (k as f64 / 4.0, f64::from(self.pairs[k])))
                .collect();
            (samples, true)
        } else {
            let samples = vec![
                (1.0, f64::from(self.wins)),
                (0.5, f64::from(self.draws)),
                (0.0, f64::from(self.losses)),
            ];
            (samples, false)
        }
    }

    /// Mean, variance of one unit, and the number of units.
    fn moments(&self) -> (f64, f64, f64) {
        moments(&self.samples().0)
    }

    /// [`Tally::moments`] with every outcome counted half a time more (a prior), so that a
    /// one-sided tally (every game lost) has a variance and the SPRT can decide on it; the
    /// prior pulls the score a little toward ½, which only makes the test more cautious.
    fn regularised_moments(&self) -> (f64, f64, f64) {
        let (mut samples, _) = self.samples();
        for (_, count) in &mut samples {
            *count += 0.5;
        }
        moments(&samples)
    }

    /// Whether the pentanomial model is used (every game belongs to a finished pair).
    pub fn pentanomial(&self) -> bool {
        self.samples().1
    }

    /// Elo difference (first engine minus second) and its 95% interval `(low, high)`;
    /// infinite when the score is 0 or 1.
    pub fn elo(&self) -> (f64, f64, f64) {
        let (mean, var, n) = self.moments();
        let se = if n > 0.0 { (var / n).sqrt() } else { 0.0 };
        (
            elo_of_score(mean),
            elo_of_score(mean - 1.959_964 * se),
            elo_of_score(mean + 1.959_964 * se),
        )
    }

    /// The log-likelihood ratio of H1 (elo1) against H0 (elo0).
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        let (mean, var, n) = self.regularised_moments();
        if n == 0.0 || var <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_of_elo(elo0), score_of_elo(elo1));
        n * (s1 - s0) * (2.0 * mean - s0 - s1) / (2.0 * var)
    }
}

/// Mean and variance of `(value, count)` samples, and the total count.
fn moments(samples: &[(f64, f64)]) -> (f64, f64, f64) {
    let n: f64 = samples.iter().map(|(_, c)| c).sum();
    if n < 1.0 {
        return (0.5, 0.0, 0.0);
    }
    let mean = samples.iter().map(|(x, c)| x * c).sum::<f64>() / n;
    let var = samples
        .iter()
        .map(|(x, c)| c * (x - mean) * (x - mean))
        .sum::<f64>()
        / n;
    (mean, var, n)
}

/// The expected score of an Elo difference (logistic).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of an expected score (±infinity at 1 and 0).
pub fn elo_of_score(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / score - 1.0).log10()
    }
}

/// An SPRT between `elo0` and `elo1` with error rates `alpha` and `beta`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The false-positive rate (H1 accepted though H0 holds).
    pub alpha: f64,
    /// The false-negative rate.
    pub beta: f64,
}

/// Where an SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// elo1 holds: the first engine is stronger by about elo1.
    H1,
    /// elo0 holds.
    H0,
    /// Not decided yet.
    Continue,
}

impl Sprt {
    /// Reads `ELO0,ELO1` (with ELO0 < ELO1) and checks the error rates (each between 0 and
    /// 0.5); the error names the flags as `drafti match` has them.
    ///
    /// ```
    /// use drafti_hub::stats::Sprt;
    /// assert_eq!(Sprt::parse("0,10", 0.05, 0.05).unwrap().elo1, 10.0);
    /// assert!(Sprt::parse("10,0", 0.05, 0.05).is_err());
    /// assert!(Sprt::parse("0,10", 0.7, 0.05).is_err());
    /// ```
    pub fn parse(text: &str, alpha: f64, beta: f64) -> Result<Sprt, String> {
        let bad = || format!("--sprt {text}: expected ELO0,ELO1 with ELO0 < ELO1, e.g. 0,10");
        let (a, b) = text.split_once(',').ok_or_else(bad)?;
        let elo0: f64 = a.trim().parse().map_err(|_| bad())?;
        let elo1: f64 = b.trim().parse().map_err(|_| bad())?;
        if elo0 >= elo1 || !elo0.is_finite() || !elo1.is_finite() {
            return Err(bad());
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(format!("--{name} must be between 0 and 0.5"));
            }
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds `(lower, upper)` of the LLR.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// Where the test stands on `tally`.
    pub fn verdict(&self, tally: &Tally) -> Verdict {
        let llr = tally.llr(self.elo0, self.elo1);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Verdict::H1
        } else if llr <= lower {
            Verdict::H0
        } else {
            Verdict::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_score_are_inverse() {
        for elo in [-300.0, -50.0, 0.0, 10.0, 200.0] {
            assert!((elo_of_score(score_of_elo(elo)) - elo).abs() < 1e-9);
        }
        assert!((score_of_elo(100.0) - 0.640_065).abs() < 1e-6);
        assert_eq!(elo_of_score(1.0), f64::INFINITY);
    }

    #[test]
    fn trinomial_interval() {
        // 60 wins, 20 draws, 20 losses: score 0.7, Elo +147.2.
        let tally = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
            pairs: [0; 5],
        };
        assert!(!tally.pentanomial());
        let (elo, low, high) = tally.elo();
        assert!((elo - 147.19).abs() < 0.01, "{elo}");
        // var = (60*0.09 + 20*0.04 + 20*0.49)/100 = 0.16, se = 0.04: score 0.7 ± 0.0784.
        assert!((low - elo_of_score(0.7 - 1.959_964 * 0.04)).abs() < 1e-9);
        assert!((high - elo_of_score(0.7 + 1.959_964 * 0.04)).abs() < 1e-9);
    }

    #[test]
    fn pentanomial_when_paired() {
        let mut tally = Tally::default();
        for (a, b) in [
            (GameScore::Win, GameScore::Draw),
            (GameScore::Win, GameScore::Win),
            (GameScore::Draw, GameScore::Loss),
        ] {
            tally.add(a);
            tally.add(b);
            tally.add_pair(a, b);
        }
        assert_eq!(tally.pairs, [0, 1, 0, 1, 1]);
        assert!(tally.pentanomial());
        assert!((tally.score() - 4.0 / 6.0).abs() < 1e-12);
        // One more unpaired game falls back to counting games.
        tally.add(GameScore::Win);
        assert!(!tally.pentanomial());
    }

    #[test]
    fn sprt_decides() {
        let sprt = Sprt {
            elo0: 0.0,
            elo1: 50.0,
            alpha: 0.05,
            beta: 0.05,
        };
        let (lower, upper) = sprt.bounds();
        assert!((upper - 2.944_439).abs() < 1e-6 && (lower + 2.944_439).abs() < 1e-6);
        let even = Tally {
            wins: 10,
            draws: 10,
            losses: 10,
            pairs: [0; 5],
        };
        assert_eq!(sprt.verdict(&even), Verdict::Continue);
        let strong = Tally {
            wins: 40,
            draws: 10,
            losses: 5,
            pairs: [0; 5],
        };
        assert_eq!(sprt.verdict(&strong), Verdict::H1);
        let weak = Tally {
            wins: 5,
            draws: 10,
            losses: 40,
            pairs: [0; 5],
        };
        assert_eq!(sprt.verdict(&weak), Verdict::H0);
        // One-sided tallies decide too (regularised): every game lost, or only draws (the
        // difference is 0, not 50).
        let one = Tally {
            losses: 1,
            ..Tally::default()
        };
        assert_eq!(sprt.verdict(&one), Verdict::Continue);
        let lost = Tally {
            losses: 12,
            ..Tally::default()
        };
        assert_eq!(sprt.verdict(&lost), Verdict::H0);
        let won = Tally {
            wins: 12,
            ..Tally::default()
        };
        assert_eq!(sprt.verdict(&won), Verdict::H1);
        let draws = Tally {
            draws: 40,
            ..Tally::default()
        };
        assert_eq!(sprt.verdict(&draws), Verdict::H0);
        assert_eq!(Tally::default().llr(0.0, 50.0), 0.0);
    }
}
