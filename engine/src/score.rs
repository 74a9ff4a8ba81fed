//! Scores: an estimate in hundredths of a man, or a proven result with its distance in plies.
//!
//! Internally a score is one `i32` seen from the side to move: estimates lie strictly between
//! `-PROVEN_BOUND` and `PROVEN_BOUND`; a win in `n` plies is `WIN - n`, a loss in `n` plies is
//! `-(WIN - n)`. "Win in 1" means the side to move plays one move after which the opponent has
//! no legal move. A draw by a draw law or by repetition is the estimate `0`.

use std::fmt;

/// The score of a win on the spot (the opponent has no move); wins further away score less.
pub(crate) const WIN: i32 = 30_000;
/// The most plies a proven result can be away.
pub(crate) const MAX_DISTANCE: i32 = 1_000;
/// Scores at or beyond this (in absolute value) are proven results.
pub(crate) const PROVEN_BOUND: i32 = WIN - MAX_DISTANCE;
/// Larger than any score: the open search window.
pub(crate) const INFINITY: i32 = WIN + 1;

/// A score from the point of view of the side to move.
///
/// ```
/// use drafti_engine::Score;
/// assert_eq!(Score::centi_men(35).to_string(), "+0.35");
/// assert_eq!(Score::centi_men(-120).to_string(), "-1.20");
/// assert_eq!(Score::win_in(7).to_string(), "win in 7");
/// assert_eq!(Score::loss_in(4).to_string(), "loss in 4");
/// assert!(Score::win_in(3) > Score::win_in(5));
/// assert!(Score::loss_in(6) > Score::loss_in(2));
/// assert_eq!(-Score::win_in(3), Score::loss_in(3));
/// ```
///
/// With the `serde` feature a score is, in JSON (every command and the Python package write
/// and read it so): `{"cp": 35, "win_in": null, "loss_in": null, "text": "+0.35"}`, exactly
/// one of `cp` (an estimate in hundredths of a man), `win_in` and `loss_in` (a proven result
/// in plies; `"loss_in": 0` is a loss on the spot: the side to move has no move) set, and
/// `text` as drafti writes it. A reader needs only the one field set (`text` is ignored).
///
/// ```
/// # #[cfg(feature = "serde")] {
/// use drafti_engine::Score;
/// let json = serde_json::to_string(&Score::loss_in(0)).unwrap();
/// assert_eq!(json, r#"{"cp":null,"win_in":null,"loss_in":0,"text":"loss in 0"}"#);
/// assert_eq!(serde_json::from_str::<Score>(r#"{"cp":-35}"#).unwrap(), Score::centi_men(-35));
/// assert!(serde_json::from_str::<Score>(r#"{"cp":1,"win_in":3}"#).is_err());
/// # }
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(into = "wire::Written", try_from = "wire::Read")
)]
pub struct Score(pub(crate) i32);

impl Score {
    /// The draw (and the even estimate).
    pub const DRAW: Score = Score(0);

    /// An estimate in hundredths of a man (clamped into the estimate range).
    pub const fn centi_men(value: i32) -> Score {
        let bound = PROVEN_BOUND - 1;
        Score(if value > bound {
            bound
        } else if value < -bound {
            -bound
        } else {
            value
        })
    }

    /// A proven win for the side to move in `plies` plies (clamped to the largest distance).
    pub const fn win_in(plies: u32) -> Score {
        let plies = if plies > MAX_DISTANCE as u32 {
            MAX_DISTANCE
        } else {
            plies as i32
        };
        Score(WIN - plies)
    }

    /// A proven loss for the side to move in `plies` plies.
    pub const fn loss_in(plies: u32) -> Score {
        Score(-Score::win_in(plies).0)
    }

    /// Whether this is a proven win or loss.
    pub const fn is_proven(self) -> bool {
        self.0 >= PROVEN_BOUND || self.0 <= -PROVEN_BOUND
    }

    /// The estimate in hundredths of a man, or `None` for a proven result.
    pub const fn as_centi_men(self) -> Option<i32> {
        if self.is_proven() {
            None
        } else {
            Some(self.0)
        }
    }

    /// Plies to the win, if this is a proven win.
    pub const fn win_distance(self) -> Option<u32> {
        if self.0 >= PROVEN_BOUND {
            Some((WIN - self.0) as u32)
        } else {
            None
        }
    }

    /// Plies to the loss, if this is a proven loss.
    pub const fn loss_distance(self) -> Option<u32> {
        if self.0 <= -PROVEN_BOUND {
            Some((WIN + self.0) as u32)
        } else {
            None
        }
    }

    /// The raw value (proven results far beyond any estimate); for ordering and arithmetic.
    pub const fn raw(self) -> i32 {
        self.0
    }

    /// Converts a score relative to the root into one relative to a node `ply` plies down
    /// (for the transposition table: proven distances are stored from the node).
    pub(crate) const fn to_tt(self, ply: usize) -> i32 {
        if self.0 >= PROVEN_BOUND {
            self.0 + ply as i32
        } else if self.0 <= -PROVEN_BOUND {
            self.0 - ply as i32
        } else {
            self.0
        }
    }

    /// The inverse of [`Score::to_tt`].
    pub(crate) const fn from_tt(value: i32, ply: usize) -> Score {
        Score(if value >= PROVEN_BOUND {
            value - ply as i32
        } else if value <= -PROVEN_BOUND {
            value + ply as i32
        } else {
            value
        })
    }
}

impl std::ops::Neg for Score {
    type Output = Score;
    #[inline]
    fn neg(self) -> Score {
        Score(-self.0)
    }
}

/// `+0.35`, `-1.20`, `0.00`, `win in 7`, `loss in 4`.
impl fmt::Display for Score {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(n) = self.win_distance() {
            write!(f, "win in {n}")
        } else if let Some(n) = self.loss_distance() {
            write!(f, "loss in {n}")
        } else if self.0 == 0 {
            f.write_str("0.00")
        } else {
            let sign = if self.0 > 0 { '+' } else { '-' };
            let v = self.0.unsigned_abs();
            write!(f, "{sign}{}.{:02}", v / 100, v % 100)
        }
    }
}

/// The JSON form of a score (see [`Score`]).
#[cfg(feature = "serde")]
mod wire {
    use super::Score;

    /// A score as it is written: its three fields, one set, and its text.
    #[derive(serde::Serialize)]
    pub struct Written {
        cp: Option<i32>,
        win_in: Option<u32>,
        loss_in: Option<u32>,
        text: String,
    }

    impl From<Score> for Written {
        fn from(score: Score) -> Written {
            Written {
                cp: score.as_centi_men(),
                win_in: score.win_distance(),
                loss_in: score.loss_distance(),
                text: score.to_string(),
            }
        }
    }

    /// A score as it is read: the three fields (missing ones are `null`; others, `text`
    /// among them, are ignored).
    #[derive(serde::Deserialize)]
    pub struct Read {
        cp: Option<i32>,
        win_in: Option<u32>,
        loss_in: Option<u32>,
    }

    /// A score that does not have exactly one of its fields.
    #[derive(Debug)]
    pub struct NotOneField;

    impl std::fmt::Display for NotOneField {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a score has exactly one of `cp`, `win_in` and `loss_in`")
        }
    }

    impl TryFrom<Read> for Score {
        type Error = NotOneField;

        fn try_from(read: Read) -> Result<Score, NotOneField> {
            match (read.cp, read.win_in, read.loss_in) {
                (Some(cp), None, None) => Ok(Score::centi_men(cp)),
                (None, Some(n), None) => Ok(Score::win_in(n)),
                (None, None, Some(n)) => Ok(Score::loss_in(n)),
                _ => Err(NotOneField),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn display_and_order() {
        assert_eq!(Score::centi_men(0).to_string(), "0.00");
        assert_eq!(Score::centi_men(5).to_string(), "+0.05");
        assert_eq!(Score::centi_men(-5).to_string(), "-0.05");
        assert_eq!(Score::win_in(1).to_string(), "win in 1");
        assert_eq!(Score::loss_in(0).to_string(), "loss in 0");
        assert!(Score::win_in(99) > Score::centi_men(1_000_000));
        assert!(Score::loss_in(99) < Score::centi_men(-1_000_000));
        assert_eq!(
            Score::centi_men(1_000_000).as_centi_men(),
            Some(PROVEN_BOUND - 1)
        );
        assert_eq!(Score::win_in(9).win_distance(), Some(9));
        assert_eq!(Score::loss_in(9).loss_distance(), Some(9));
        assert_eq!(Score::win_in(9).loss_distance(), None);
    }

    #[test]
    fn tt_round_trip() {
        for s in [Score::win_in(5), Score::loss_in(8), Score::centi_men(-40)] {
            for ply in [0, 1, 17] {
                assert_eq!(Score::from_tt(s.to_tt(ply), ply), s);
            }
        }
        // A win in 5 from the root found 3 plies down is a win in 2 from that node.
        assert_eq!(
            Score::from_tt(Score::win_in(5).to_tt(3), 0),
            Score::win_in(2)
        );
    }

    #[cfg(feature = "serde")]
    #[test]
    fn every_kind_of_score_goes_there_and_back_in_json() {
        for score in [
            Score::centi_men(35),
            Score::centi_men(-120),
            Score::DRAW,
            Score::win_in(1),
            Score::win_in(31),
            Score::loss_in(12),
            Score::loss_in(0),
        ] {
            let json = serde_json::to_string(&score).unwrap();
            assert_eq!(
                serde_json::from_str::<Score>(&json).unwrap(),
                score,
                "{json}"
            );
        }
        assert_eq!(
            serde_json::to_value(Score::win_in(7)).unwrap(),
            serde_json::json!({"cp": null, "win_in": 7, "loss_in": null, "text": "win in 7"})
        );
        for bad in [
            r#"{}"#,
            r#"{"cp":null}"#,
            r#"{"win_in":1,"loss_in":1}"#,
            r#"{"cp":"1"}"#,
        ] {
            assert!(serde_json::from_str::<Score>(bad).is_err(), "{bad}");
        }
    }
}
