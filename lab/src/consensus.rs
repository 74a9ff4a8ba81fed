//! Verdicts scored against a **consensus** of two deep references (and the endgame tables
//! where they hold a move), the measure of `drafti-lab quality`.
//!
//! One deep reference is not the truth: two uniform searches of this engine at 2,000,000 and
//! 4,000,000 nodes a position agree on blunders only at precision 0.87 and recall 0.81. So a
//! move counts only where both references put it on the same side of a level's threshold:
//!
//! ```text
//! level (blunder; mistake or worse), move m:
//!   tables hold m                         ──▶ settled by the tables (exact)
//!   both references ≥ level               ──▶ settled flag
//!   both references < level               ──▶ settled clear
//!   otherwise                             ──▶ disputed: counted, never scored
//! precision = candidate flags that are settled flags ÷ candidate flags on settled moves
//! recall    = settled flags the candidate flags     ÷ settled flags
//! ```
//!
//! The player's view besides: a **false alarm** is a candidate blunder that both references
//! call less than a mistake; a **clear miss** a move both references drop by at least
//! [`CLEAR_DROP`] that the candidate calls less than a mistake; an **opening alarm** a
//! mistake or blunder of the candidate in a game's first [`OPENING_PLIES`] plies that both
//! references call less than a mistake (the masters' openings are theory: an evaluation that
//! misjudges them marks standard moves).

use drafti_analysis::judge::{Judgement, Verdict};
use serde::Serialize;

/// The drop of winning chances (0–2) both references must see for a move the candidate
/// calls less than a mistake to be a clear miss: half as much again as a blunder's.
pub const CLEAR_DROP: f64 = 0.45;

/// The plies of a game's opening, for the opening alarms: six moves a side.
pub const OPENING_PLIES: usize = 12;

/// The two judgement levels scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Level {
    /// A blunder.
    Blunder,
    /// A mistake or a blunder.
    Mistake,
}

impl Level {
    /// Both levels, the blunder first.
    pub const ALL: [Level; 2] = [Level::Blunder, Level::Mistake];

    /// `blunder`, `>= mistake`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Level::Blunder => "blunder",
            Level::Mistake => ">= mistake",
        }
    }

    /// Whether a judgement reaches this level.
    pub fn reached(self, judgement: Option<Judgement>) -> bool {
        let least = match self {
            Level::Blunder => Judgement::Blunder,
            Level::Mistake => Judgement::Mistake,
        };
        judgement >= Some(least)
    }
}

/// Where a move stands at one level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Standing {
    /// Both references (or the tables) reach the level.
    Flag,
    /// Both references (or the tables) stay below it.
    Clear,
    /// The references put it on different sides.
    Disputed,
}

/// The deep judges of one move: the two references' verdicts, or the tables' alone.
#[derive(Clone, Copy, Debug)]
pub enum Judges<'a> {
    /// The two references.
    References(&'a Verdict, &'a Verdict),
    /// The endgame tables hold the move: their verdict is exact.
    Tables(&'a Verdict),
}

impl Judges<'_> {
    /// Where the move stands at `level`.
    pub fn standing(&self, level: Level) -> Standing {
        match *self {
            Judges::Tables(t) => {
                if level.reached(t.judgement) {
                    Standing::Flag
                } else {
                    Standing::Clear
                }
            }
            Judges::References(a, b) => {
                match (level.reached(a.judgement), level.reached(b.judgement)) {
                    (true, true) => Standing::Flag,
                    (false, false) => Standing::Clear,
                    _ => Standing::Disputed,
                }
            }
        }
    }

    /// Both judges call the move less than a mistake.
    fn both_below_mistake(&self) -> bool {
        self.standing(Level::Mistake) == Standing::Clear
    }

    /// Both judges drop the move by at least [`CLEAR_DROP`].
    fn both_drop_clearly(&self) -> bool {
        match *self {
            Judges::Tables(t) => t.drop >= CLEAR_DROP,
            Judges::References(a, b) => a.drop >= CLEAR_DROP && b.drop >= CLEAR_DROP,
        }
    }
}

/// How a player checking the candidate against both judges sees a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PlayerView {
    /// A candidate blunder both judges call less than a mistake.
    FalseAlarm,
    /// A move both judges drop by at least [`CLEAR_DROP`] that the candidate calls less than
    /// a mistake.
    ClearMiss,
}

impl PlayerView {
    /// `false alarm`, `clear miss`.
    pub const fn as_str(self) -> &'static str {
        match self {
            PlayerView::FalseAlarm => "false alarm",
            PlayerView::ClearMiss => "clear miss",
        }
    }

    /// What a move the candidate judged `candidate` is to a player, judged by `judges`.
    pub fn of(candidate: Option<Judgement>, judges: &Judges<'_>) -> Option<PlayerView> {
        if candidate == Some(Judgement::Blunder) && judges.both_below_mistake() {
            Some(PlayerView::FalseAlarm)
        } else if judges.both_drop_clearly() && !Level::Mistake.reached(candidate) {
            Some(PlayerView::ClearMiss)
        } else {
            None
        }
    }
}

/// A share with its counts and 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Share {
    /// The moves counted.
    pub hits: usize,
    /// Out of.
    pub of: usize,
    /// `hits / of` (`None` when `of` is 0).
    pub value: Option<f64>,
    /// The 95% Wilson score interval, low and high.
    pub interval: Option<(f64, f64)>,
}

impl Share {
    /// `hits` of `of`.
    pub fn new(hits: usize, of: usize) -> Share {
        Share {
            hits,
            of,
            value: (of > 0).then(|| hits as f64 / of as f64),
            interval: wilson(hits, of),
        }
    }
}

/// The 95% Wilson score interval of `hits` successes in `n` trials.
pub fn wilson(hits: usize, n: usize) -> Option<(f64, f64)> {
    if n == 0 {
        return None;
    }
    const Z: f64 = 1.959_963_984_540_054;
    let (k, n) = (hits as f64, n as f64);
    let p = k / n;
    let z2 = Z * Z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    Some(((centre - half).max(0.0), (centre + half).min(1.0)))
}

/// The tallies of one level.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LevelTally {
    /// Moves settled (by both references or by the tables).
    pub settled: usize,
    /// Of them, by the tables.
    pub by_tables: usize,
    /// Moves the references dispute.
    pub disputed: usize,
    /// Settled flags.
    pub flags: usize,
    /// Candidate flags on settled moves.
    pub candidate_flags: usize,
    /// Candidate flags that are settled flags.
    pub both: usize,
    /// Candidate flags on disputed moves.
    pub candidate_disputed: usize,
}

/// A candidate's verdicts against the consensus, over many games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ConsensusTally {
    /// Moves judged.
    pub moves: usize,
    /// Per level, in [`Level::ALL`]'s order.
    pub levels: [LevelTally; 2],
    /// The candidate's blunders.
    pub candidate_blunders: usize,
    /// Candidate blunders both judges call less than a mistake.
    pub false_alarms: usize,
    /// Moves both judges drop by at least [`CLEAR_DROP`].
    pub clear_drops: usize,
    /// Of them, the ones the candidate calls less than a mistake.
    pub clear_misses: usize,
    /// The candidate's mistakes and blunders in the first [`OPENING_PLIES`] plies.
    pub opening_flags: usize,
    /// Of them, the ones both judges call less than a mistake.
    pub opening_alarms: usize,
}

impl ConsensusTally {
    /// Adds one move, the game's `ply`-th (from 1): the candidate's judgement and the deep
    /// judges'.
    pub fn add(&mut self, ply: usize, candidate: Option<Judgement>, judges: Judges<'_>) {
        self.moves += 1;
        if ply <= OPENING_PLIES && Level::Mistake.reached(candidate) {
            self.opening_flags += 1;
            self.opening_alarms += usize::from(judges.both_below_mistake());
        }
        for (tally, level) in self.levels.iter_mut().zip(Level::ALL) {
            let flagged = level.reached(candidate);
            match judges.standing(level) {
                Standing::Disputed => {
                    tally.disputed += 1;
                    tally.candidate_disputed += usize::from(flagged);
                }
                standing => {
                    let flag = standing == Standing::Flag;
                    tally.settled += 1;
                    tally.by_tables += usize::from(matches!(judges, Judges::Tables(_)));
                    tally.flags += usize::from(flag);
                    tally.candidate_flags += usize::from(flagged);
                    tally.both += usize::from(flagged && flag);
                }
            }
        }
        let view = PlayerView::of(candidate, &judges);
        self.candidate_blunders += usize::from(candidate == Some(Judgement::Blunder));
        self.false_alarms += usize::from(view == Some(PlayerView::FalseAlarm));
        self.clear_drops += usize::from(judges.both_drop_clearly());
        self.clear_misses += usize::from(view == Some(PlayerView::ClearMiss));
    }

    /// The scores of each level.
    pub fn scores(&self) -> Vec<LevelScore> {
        Level::ALL
            .iter()
            .zip(&self.levels)
            .map(|(level, t)| LevelScore {
                level: level.as_str(),
                settled: t.settled,
                by_tables: t.by_tables,
                disputed: t.disputed,
                flags: t.flags,
                candidate_flags: t.candidate_flags,
                candidate_disputed: t.candidate_disputed,
                precision: Share::new(t.both, t.candidate_flags),
                recall: Share::new(t.both, t.flags),
            })
            .collect()
    }

    /// False alarms among the candidate's blunders.
    pub fn false_alarm_share(&self) -> Share {
        Share::new(self.false_alarms, self.candidate_blunders)
    }

    /// Clear misses among the moves both judges drop clearly.
    pub fn clear_miss_share(&self) -> Share {
        Share::new(self.clear_misses, self.clear_drops)
    }

    /// Opening alarms among the candidate's mistakes and blunders of the opening.
    pub fn opening_alarm_share(&self) -> Share {
        Share::new(self.opening_alarms, self.opening_flags)
    }
}

/// One level's scores, as `drafti-lab quality --json` writes them.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LevelScore {
    /// `blunder` or `>= mistake`.
    pub level: &'static str,
    /// Moves settled.
    pub settled: usize,
    /// Of them, by the tables.
    pub by_tables: usize,
    /// Moves disputed (never scored).
    pub disputed: usize,
    /// Settled flags.
    pub flags: usize,
    /// Candidate flags on settled moves.
    pub candidate_flags: usize,
    /// Candidate flags on disputed moves.
    pub candidate_disputed: usize,
    /// Candidate flags that are settled flags, of the candidate's flags on settled moves.
    pub precision: Share,
    /// Settled flags the candidate makes, of the settled flags.
    pub recall: Share,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verdict(judgement: Option<Judgement>, drop: f64) -> Verdict {
        Verdict {
            wc_before: 0.0,
            wc_after: -drop,
            drop,
            judgement,
            proven: None,
            accuracy: 0.0,
        }
    }

    #[test]
    fn a_level_is_settled_only_where_both_references_agree() {
        let blunder = verdict(Some(Judgement::Blunder), 0.5);
        let mistake = verdict(Some(Judgement::Mistake), 0.2);
        let nothing = verdict(None, 0.0);
        let both_blunder = Judges::References(&blunder, &blunder);
        assert_eq!(both_blunder.standing(Level::Blunder), Standing::Flag);
        assert_eq!(both_blunder.standing(Level::Mistake), Standing::Flag);
        let split = Judges::References(&blunder, &mistake);
        assert_eq!(split.standing(Level::Blunder), Standing::Disputed);
        assert_eq!(split.standing(Level::Mistake), Standing::Flag);
        let low = Judges::References(&mistake, &nothing);
        assert_eq!(low.standing(Level::Blunder), Standing::Clear);
        assert_eq!(low.standing(Level::Mistake), Standing::Disputed);
        // The tables alone settle every level.
        assert_eq!(
            Judges::Tables(&mistake).standing(Level::Blunder),
            Standing::Clear
        );
        assert_eq!(
            Judges::Tables(&mistake).standing(Level::Mistake),
            Standing::Flag
        );
    }

    #[test]
    fn a_player_sees_false_alarms_and_clear_misses() {
        let blunder = verdict(Some(Judgement::Blunder), 0.6);
        let small_drop_blunder = verdict(Some(Judgement::Blunder), 0.35);
        let mistake = verdict(Some(Judgement::Mistake), 0.2);
        let inaccuracy = verdict(Some(Judgement::Inaccuracy), 0.1);
        let nothing = verdict(None, 0.0);
        let both = |a, b| Judges::References(a, b);
        let of = PlayerView::of;
        // A blunder both call less than a mistake; one the tables clear.
        let alarm = Some(PlayerView::FalseAlarm);
        assert_eq!(
            of(Some(Judgement::Blunder), &both(&inaccuracy, &nothing)),
            alarm
        );
        assert_eq!(
            of(Some(Judgement::Blunder), &Judges::Tables(&nothing)),
            alarm
        );
        // Not when either calls it a mistake, nor for the candidate's mistake.
        assert_eq!(
            of(Some(Judgement::Blunder), &both(&mistake, &nothing)),
            None
        );
        assert_eq!(
            of(Some(Judgement::Mistake), &both(&nothing, &nothing)),
            None
        );
        // A move both drop by 0.45 or more, called less than a mistake.
        let miss = Some(PlayerView::ClearMiss);
        assert_eq!(
            of(Some(Judgement::Inaccuracy), &both(&blunder, &blunder)),
            miss
        );
        assert_eq!(of(None, &Judges::Tables(&blunder)), miss);
        // Not when one drops it less, nor when the candidate calls it a mistake.
        assert_eq!(of(None, &both(&blunder, &small_drop_blunder)), None);
        assert_eq!(
            of(Some(Judgement::Mistake), &both(&blunder, &blunder)),
            None
        );
    }

    #[test]
    fn the_tally_scores_settled_moves_and_counts_the_disputed() {
        let blunder = verdict(Some(Judgement::Blunder), 0.6);
        let mistake = verdict(Some(Judgement::Mistake), 0.2);
        let inaccuracy = verdict(Some(Judgement::Inaccuracy), 0.1);
        let nothing = verdict(None, 0.0);
        let mut t = ConsensusTally::default();
        // A settled blunder found, a settled blunder missed, a disputed one flagged, a false
        // alarm, and a quiet move left alone.
        t.add(
            20,
            Some(Judgement::Blunder),
            Judges::References(&blunder, &blunder),
        );
        t.add(
            21,
            Some(Judgement::Inaccuracy),
            Judges::References(&blunder, &blunder),
        );
        t.add(
            22,
            Some(Judgement::Blunder),
            Judges::References(&blunder, &mistake),
        );
        t.add(
            23,
            Some(Judgement::Blunder),
            Judges::References(&inaccuracy, &nothing),
        );
        t.add(24, None, Judges::References(&nothing, &nothing));
        let [b, m] = t.levels;
        assert_eq!(
            b,
            LevelTally {
                settled: 4,
                by_tables: 0,
                disputed: 1,
                flags: 2,
                candidate_flags: 2,
                both: 1,
                candidate_disputed: 1,
            }
        );
        // At mistake or worse the split move is settled (both at least a mistake).
        assert_eq!(
            (m.settled, m.disputed, m.flags, m.candidate_flags, m.both),
            (5, 0, 3, 3, 2)
        );
        assert_eq!(t.false_alarm_share(), Share::new(1, 3));
        // Both references drop two moves by 0.6: the candidate calls one an inaccuracy.
        assert_eq!(t.clear_miss_share(), Share::new(1, 2));
        let scores = t.scores();
        assert_eq!(scores[0].precision.value, Some(0.5));
        assert_eq!(scores[0].recall.value, Some(0.5));
        // No move of the opening yet.
        assert_eq!(t.opening_alarm_share(), Share::new(0, 0));
    }

    #[test]
    fn opening_alarms_are_the_openings_flags_both_references_call_less_than_mistakes() {
        let mistake = verdict(Some(Judgement::Mistake), 0.2);
        let inaccuracy = verdict(Some(Judgement::Inaccuracy), 0.1);
        let nothing = verdict(None, 0.0);
        let mut t = ConsensusTally::default();
        // In the opening: a mistake both call nothing (an alarm), a blunder one reference
        // calls a mistake (no alarm: disputed), a mistake both call mistakes (right), a move
        // the candidate leaves alone.
        t.add(
            1,
            Some(Judgement::Mistake),
            Judges::References(&nothing, &inaccuracy),
        );
        t.add(
            2,
            Some(Judgement::Blunder),
            Judges::References(&mistake, &nothing),
        );
        t.add(
            OPENING_PLIES,
            Some(Judgement::Mistake),
            Judges::References(&mistake, &mistake),
        );
        t.add(5, None, Judges::References(&nothing, &nothing));
        // After the opening, the same alarm is not counted here.
        t.add(
            OPENING_PLIES + 1,
            Some(Judgement::Blunder),
            Judges::References(&nothing, &nothing),
        );
        assert_eq!(t.opening_alarm_share(), Share::new(1, 3));
        // The blunder after the opening is a false alarm still.
        assert_eq!(t.false_alarm_share(), Share::new(1, 2));
    }

    #[test]
    fn wilson_intervals_match_published_values() {
        // Newcombe (1998), table I: 81 of 263 gives 0.2553 to 0.3662.
        let (lo, hi) = wilson(81, 263).unwrap();
        assert!(
            (lo - 0.2553).abs() < 5e-4 && (hi - 0.3662).abs() < 5e-4,
            "{lo} {hi}"
        );
        // 15 of 148: 0.0624 to 0.1605.
        let (lo, hi) = wilson(15, 148).unwrap();
        assert!(
            (lo - 0.0624).abs() < 5e-4 && (hi - 0.1605).abs() < 5e-4,
            "{lo} {hi}"
        );
        assert_eq!(wilson(0, 0), None);
        // All of n: from n / (n + z²) to 1.
        let (lo, hi) = wilson(10, 10).unwrap();
        assert!((lo - 10.0 / (10.0 + 1.96f64.powi(2))).abs() < 1e-4, "{lo}");
        assert!((hi - 1.0).abs() < 1e-12, "{hi}");
    }
}
