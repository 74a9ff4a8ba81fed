//! Named sets of analysis settings a user can choose (`--preset` of `drafti analyze`,
//! `drafti report` and `drafti-lab quality`): how much search every verdict gets, from the
//! report's minute on the bundled corpus to the budgets of the big analysis sites.
//! docs/engine.md, "Quality on master games", has each one's measured verdicts and speed.

use crate::options::{AnalysisOptions, DEFAULT_VERIFY_NODES};
use drafti_engine::Limits;
use std::fmt;
use std::str::FromStr;

/// The report's pass: every position searched this many plies (shallower than analyze's 6, so
/// the bundled corpus, 144,000 positions of noisy engine games, stays about a minute's work on
/// two cores; docs/engine.md, "Judgement", has the measurements).
pub const FAST_DEPTH: u32 = 5;

/// The fast re-search of nominated moves, plies.
pub const FAST_VERIFY_DEPTH: u32 = 8;

/// The fast confirmation of verdicts near the threshold: this many plies, within
/// [`FAST_CONFIRM_NODES`]. Shallower than analyze's 16: on the bundled corpus's noisy engine
/// games, with thousands of verdicts near the threshold, depth 12 within 200,000 nodes took
/// three times as long as none; this one 1.6 times.
pub const FAST_CONFIRM_DEPTH: u32 = 10;

/// The node bound of the fast confirmation.
pub const FAST_CONFIRM_NODES: u64 = 100_000;

/// The deep pass: every position searched about this many nodes, what lichess gives each
/// position of a user's game.
pub const DEEP_NODES: u64 = 1_000_000;

/// The deep re-search of nominated moves: this many nodes (the position, then the played move
/// alone to the same depth).
pub const DEEP_VERIFY_NODES: u64 = 2_000_000;

/// The deep confirmation: this many nodes, what lidraughts gives a position.
pub const DEEP_CONFIRM_NODES: u64 = 5_000_000;

/// The transposition table of the deep searches, MiB: a search of millions of nodes fills the
/// default 16.
pub const DEEP_TT_MB: usize = 64;

/// A named set of analysis settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// `drafti report`'s default: depth 5, re-searched to depth 8, confirmed at depth 10
    /// within 100,000 nodes.
    Fast,
    /// `drafti analyze`'s default: 20,000 nodes a position, re-searched to depth 10 within
    /// 1,000,000 nodes, confirmed at depth 16 within 500,000.
    Default,
    /// 1,000,000 nodes a position, re-searched within 2,000,000, confirmed within 5,000,000:
    /// the budgets of the big analysis sites, meant for sharded runs.
    Deep,
}

/// A preset name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown preset '{0}' (known: fast, default, deep)")]
pub struct PresetError(pub String);

impl Preset {
    /// Every preset, cheapest first.
    pub const ALL: [Preset; 3] = [Preset::Fast, Preset::Default, Preset::Deep];

    /// Its name, as `--preset` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Fast => "fast",
            Preset::Default => "default",
            Preset::Deep => "deep",
        }
    }

    /// Its settings (no endgame tables, the shipped engine).
    ///
    /// ```
    /// use drafti_analysis::{preset::Preset, AnalysisOptions};
    /// assert_eq!(Preset::Default.options().label(), AnalysisOptions::default().label());
    /// assert_eq!(Preset::Fast.options().limits.depth, Some(5));
    /// assert_eq!(Preset::Deep.options().limits.nodes, Some(1_000_000));
    /// ```
    pub fn options(self) -> AnalysisOptions {
        match self {
            Preset::Default => AnalysisOptions::default(),
            Preset::Fast => {
                let mut options = AnalysisOptions::from_limits(Some(FAST_DEPTH), None);
                options.verify = Some(Limits {
                    depth: Some(FAST_VERIFY_DEPTH),
                    nodes: Some(DEFAULT_VERIFY_NODES),
                    ..Limits::default()
                });
                options.confirm = Some(Limits {
                    depth: Some(FAST_CONFIRM_DEPTH),
                    nodes: Some(FAST_CONFIRM_NODES),
                    ..Limits::default()
                });
                options
            }
            Preset::Deep => {
                let mut options = AnalysisOptions::from_limits(None, Some(DEEP_NODES));
                options.verify = Some(Limits {
                    nodes: Some(DEEP_VERIFY_NODES),
                    ..Limits::default()
                });
                options.confirm = Some(Limits {
                    nodes: Some(DEEP_CONFIRM_NODES),
                    ..Limits::default()
                });
                options.tt_mb = DEEP_TT_MB;
                options
            }
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Preset {
    type Err = PresetError;

    fn from_str(text: &str) -> Result<Preset, PresetError> {
        Preset::ALL
            .into_iter()
            .find(|p| p.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| PresetError(text.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back() {
        for preset in Preset::ALL {
            assert_eq!(preset.name().parse::<Preset>(), Ok(preset));
            assert_eq!(preset.to_string(), preset.name());
        }
        assert_eq!(" Deep ".parse::<Preset>(), Ok(Preset::Deep));
        let err = "fastest".parse::<Preset>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown preset 'fastest' (known: fast, default, deep)"
        );
    }

    #[test]
    fn each_preset_searches_more_than_the_one_before() {
        let fast = Preset::Fast.options();
        let default = Preset::Default.options();
        let deep = Preset::Deep.options();
        // The pass: searched in the same middle-game position, each spends more nodes.
        let pos = drafti_rules::Position::from_fen("B:W17,19,21,22,24-28,30-32:B1-7,10-12,14,15")
            .unwrap();
        let pass_nodes = |o: &AnalysisOptions| {
            let mut engine = drafti_engine::Engine::new(drafti_rules::Variant::Czech, o.tt_mb);
            engine.search(&pos, &o.limits, &[], |_| {}).nodes
        };
        let (fast_nodes, default_nodes) = (pass_nodes(&fast), pass_nodes(&default));
        assert!(fast_nodes < default_nodes, "{fast_nodes} < {default_nodes}");
        assert!(default.limits.nodes < deep.limits.nodes);
        let verify_depth = |o: &AnalysisOptions| o.verify.as_ref().and_then(|l| l.depth);
        assert!(verify_depth(&fast) < verify_depth(&default));
        let confirm = |o: &AnalysisOptions| o.confirm.clone().unwrap();
        assert!(confirm(&fast).nodes < confirm(&default).nodes);
        assert!(confirm(&default).nodes < confirm(&deep).nodes);
        assert_eq!(deep.limits.depth, None);
        assert!(deep.tt_mb > default.tt_mb);
        // The labels, which every output's header carries, tell them apart.
        let labels: std::collections::HashSet<String> =
            [&fast, &default, &deep].iter().map(|o| o.label()).collect();
        assert_eq!(labels.len(), 3);
    }
}
