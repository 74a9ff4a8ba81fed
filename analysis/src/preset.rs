//! Named sets of analysis settings a user can choose (`--preset` of `drafti analyze`,
//! `drafti report` and `drafti-lab quality`): how much search every verdict gets, from a
//! quick look to the budgets of the big analysis sites.
//! docs/engine.md, "Quality on master games", has each one's measured verdicts and speed.

use crate::options::{AnalysisOptions, DEFAULT_VERIFY_NODES, TABLES_IN_LABEL};
use drafti_engine::Limits;
use std::fmt;
use std::str::FromStr;

/// The fast pass: every position searched this many plies (the bundled corpus's 144,000
/// positions of noisy engine games are about a minute's work on two cores; docs/engine.md,
/// "Judgement", has the measurements).
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

/// The thorough pass: every position searched within this many nodes, sixteen times the
/// default's; its re-search the default's but no shallower than the pass
/// ([`AnalysisOptions::verify_from_pass`]), its confirmation the default's. On the held-out
/// master games the default's game-losing moves left unflagged do not fall with its pass up
/// to six times its nodes (12, 12, 13, 11, 12, 11 of 143 at 25,000 to 150,000); at this
/// budget 7, and 4 with the re-search no shallower than the pass: the Czech and Russian
/// verdicts meet false alarms ≤ 3% and clear misses ≤ 5% on both halves against references
/// still about eight times deeper (docs/lab/the-pass-budget-curve.md).
pub const THOROUGH_NODES: u64 = 400_000;
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

/// The most pieces of the endgame tables the presets' verdicts were measured with, and of
/// those `drafti analyze` and `drafti report` build on first use.
pub const TABLE_PIECES: u32 = 5;

/// Who judged the verdicts again (`Measured::judged_by`): for `fast` and `default`, searches
/// of 2,000,000 and 1,000,000 nodes a position, 30 to 600 times theirs, with the endgame
/// tables of up to [`TABLE_PIECES`] pieces (searches without them misjudge king endings as
/// the analysis does, and would flatter a run without tables: docs/engine.md, "Endgame tables
/// in the verdicts"), and the exact 6-piece tables wherever a move's positions have 6 pieces
/// or fewer (the searches misjudge some 6-piece king endings too, and agree with the
/// analysis there: docs/lab/six-piece-yardstick.md).
const FAR_DEEPER_WITH_TABLES: &str =
    "two far deeper searches with the same endgame tables (exact 6-piece tables in the endings)";

/// The same judges, for a run that used no tables.
const FAR_DEEPER_TABLES_THEIRS: &str =
    "two far deeper searches with endgame tables of up to 5 pieces (exact 6-piece tables in the \
     endings)";

/// What the master games of the measures are (`Measured::games_are`).
const MASTER_GAMES: &str = "Czech and Russian master games";

/// What the Tanzanian games of the measures are: the bundled self-play's (engines searching 2
/// to 4 plies, made with the pattern evaluation of 2d75367), the network judging them.
const TANZANIAN_GAMES: &str = "Tanzanian games (engine self-play)";

/// Figures measured against references with the tables, for a run with them (`with_tables`)
/// or without.
const fn against_tables(
    games_are: &'static str,
    games: u32,
    with_tables: bool,
    false_alarms: (u32, u32),
    clear_misses: (u32, u32),
) -> Measured {
    Measured {
        judged_by: if with_tables {
            FAR_DEEPER_WITH_TABLES
        } else {
            FAR_DEEPER_TABLES_THEIRS
        },
        games_are,
        games,
        false_alarms,
        clear_misses,
    }
}

/// The Tanzanian games: every 40th game of the bundled self-play from its first (A), and
/// every 40th from its 21st (B), 50 each, judged against a consensus of two references of
/// 2,000,000 and 1,000,000 nodes a position with the Tanzanian tables of up to 5 pieces,
/// settled by the Tanzanian 6-piece tables (docs/engine.md, "Endgame tables in the verdicts";
/// measured 2026-12-07).
const fn tanzanian(
    with_tables: bool,
    false_alarms: (u32, u32),
    clear_misses: (u32, u32),
) -> Measured {
    against_tables(
        TANZANIAN_GAMES,
        100,
        with_tables,
        false_alarms,
        clear_misses,
    )
}

/// `fast` with the tables: 1 of 90 and 6 of 130 false alarms, 10 of 87 and 11 of 124 clear
/// misses on A and B (judged with the proven-result line at 1.5 men, and with no game
/// history in the searches, the references' too: `repetition_draws`; 2026-12-07).
const MEASURED_FAST_TANZANIAN: Measured = tanzanian(true, (7, 220), (21, 211));

/// `fast` without: 5 of 91 and 11 of 118, 11 of 87 and 28 of 124.
const MEASURED_FAST_TANZANIAN_NO_TABLES: Measured = tanzanian(false, (16, 209), (39, 211));

/// `default` with the tables: 0 of 109 and 1 of 151, 4 of 87 and 1 of 124.
const MEASURED_DEFAULT_TANZANIAN: Measured = tanzanian(true, (1, 260), (5, 211));

/// `default` without: 2 of 103 and 6 of 140, 9 of 87 and 8 of 124.
const MEASURED_DEFAULT_TANZANIAN_NO_TABLES: Measured = tanzanian(false, (8, 243), (17, 211));

/// The master games: both halves of those of `shared/corpora` (371 games, 19,763 positions):
/// games 1, 3, 5, … of each file (`--sample 2`, 189 games) and the held-out 2, 4, 6, … (182),
/// each against references with the Czech and Russian tables of up to 5 pieces of the shipped
/// engine (805bca12d65ccc00; lab/references/master-s2-{2m,1m}-egtb5-805bca12.jsonl.xz and
/// master-even-{2m,1m}-egtb5-805bca12.jsonl.xz), settled by the Czech and Russian 6-piece
/// tables (measured 2026-12-07), the two halves' counts added.
const fn master(with_tables: bool, false_alarms: (u32, u32), clear_misses: (u32, u32)) -> Measured {
    against_tables(MASTER_GAMES, 371, with_tables, false_alarms, clear_misses)
}

/// `fast` on the master games with the tables: 6 of 139 and 12 of 137 false alarms, 26 of 136
/// and 33 of 143 clear misses (`--sample 2`, held-out; judged with the proven-result line at
/// 1.5 men, and a blunder the evaluation scores in a king ending beyond the tables judged a
/// mistake, `crate::doubted_king_ending`: 29 of 290 false alarms before; 2026-12-07).
const MEASURED_FAST: Measured = master(true, (18, 276), (59, 279));

/// `fast` without: 15 of 130 and 22 of 117, 34 of 136 and 50 of 143 (49 of 262 false alarms
/// before the king endings were doubted).
const MEASURED_FAST_NO_TABLES: Measured = master(false, (37, 247), (84, 279));

/// `default` with the tables: 2 of 159 and 4 of 161, 4 of 136 and 12 of 143 (12 of 329 false
/// alarms before the king endings were doubted, 10 of them on the held-out half: 6-piece king
/// endings that the evaluation and the references misjudge alike,
/// docs/lab/six-piece-yardstick.md; settled by the 5-piece tables alone, as the references
/// search: 3 of 320 and 12 of 285).
const MEASURED_DEFAULT: Measured = master(true, (6, 320), (16, 279));

/// `default` without: 9 of 145 and 23 of 142, 15 of 136 and 30 of 143 (54 of 312 false alarms
/// before the king endings were doubted).
const MEASURED_DEFAULT_NO_TABLES: Measured = master(false, (32, 287), (45, 279));

/// `thorough` on the master games with the tables: 1 of 203 and 4 of 188 false alarms, 1 of
/// 136 and 4 of 143 clear misses (`--sample 2`, held-out; against the references of the
/// other presets, about 8 times its nodes a position; with the default's re-search instead
/// of one no shallower than the pass, 2 of 184 and 4 of 174, 2 of 136 and 7 of 143;
/// docs/lab/the-pass-budget-curve.md, 2026-12-08).
const MEASURED_THOROUGH: Measured = master(true, (5, 391), (5, 279));
/// `thorough` without: 28 of 195 and 33 of 178, 11 of 136 and 18 of 143 (more false alarms
/// than the default's 32 of 287 without them: it is meant with the tables).
const MEASURED_THOROUGH_NO_TABLES: Measured = master(false, (61, 373), (29, 279));
/// `thorough` on the Tanzanian samples with the tables: 1 of 128 and 0 of 165 false alarms,
/// 0 of 87 and 0 of 124 clear misses on A and B (their references relabelled to this engine,
/// on which the default's figures came out as above).
const MEASURED_THOROUGH_TANZANIAN: Measured = tanzanian(true, (1, 293), (0, 211));
/// `thorough` without: 0 of 124 and 4 of 163, 2 of 87 and 2 of 124.
const MEASURED_THOROUGH_TANZANIAN_NO_TABLES: Measured = tanzanian(false, (4, 287), (4, 211));
/// How `deep` held on `--sample 40` of the master games (11 games, 554 positions) with the
/// Czech and Russian tables of up to 5 pieces, against the references of `fast` and `default`
/// (`--sample 2`'s, with the same tables): they search about as much as `deep` itself
/// (2,000,000 and 1,000,000 nodes a position against its 1,172,192 with the re-searches), so
/// this is agreement, not a deeper judgement, and the header says so (precision 1.00, 12 of
/// 12; recall 0.92, 12 of 13; measured 2026-12-07; the same settled by the 6-piece tables,
/// docs/lab/king-endings.md, and with the king endings doubted, `crate::doubted_king_ending`).
/// A reference 64 times deeper would cost days of two cores.
const MEASURED_DEEP: Measured = Measured {
    judged_by: "two searches of 1 and 2 million nodes a position with the same endgame tables \
                (about as deep as its own, so this is agreement, not proof)",
    games_are: MASTER_GAMES,
    games: 11,
    false_alarms: (0, 12),
    clear_misses: (0, 11),
};

/// `deep` without the tables, against references without them (2026-12-06, a blunder settled
/// at 2 depths, and the same on 2026-12-07 with a drop of 0.45 settling one too).
const MEASURED_DEEP_NO_TABLES: Measured = Measured {
    judged_by: "two searches of 1 and 2 million nodes a position (about as deep as its own, so \
                this is agreement, not proof)",
    games_are: MASTER_GAMES,
    games: 11,
    false_alarms: (0, 15),
    clear_misses: (0, 7),
};

/// A named set of analysis settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    /// A quick look: depth 5, re-searched to depth 8, confirmed at depth 10 within 100,000
    /// nodes; about a tenth of the default's work, and it misses more game-losing moves.
    Fast,
    /// `drafti analyze`'s and `drafti report`'s default: 25,000 nodes a position,
    /// re-searched to depth 10 within 1,000,000 nodes, confirmed at depth 16 within 500,000.
    Default,
    /// 400,000 nodes a position, re-searched no shallower than that pass (else as the
    /// default), confirmed as the default: five to eight times its nodes, for a cluster or a
    /// night; the preset whose master-game verdicts met the targets of false alarms ≤ 3% and
    /// clear misses ≤ 5% on both halves.
    Thorough,
    /// 1,000,000 nodes a position, re-searched within 2,000,000, confirmed within 5,000,000:
    /// the budgets of the big analysis sites, meant for sharded runs.
    Deep,
}

/// A preset name that is not one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown preset '{0}' (known: fast, default, thorough, deep)")]
pub struct PresetError(pub String);

impl Preset {
    /// Every preset, cheapest first.
    pub const ALL: [Preset; 4] = [
        Preset::Fast,
        Preset::Default,
        Preset::Thorough,
        Preset::Deep,
    ];

    /// Its name, as `--preset` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Preset::Fast => "fast",
            Preset::Default => "default",
            Preset::Thorough => "thorough",
            Preset::Deep => "deep",
        }
    }

    /// Its settings (no endgame tables, the shipped engine).
    ///
    /// ```
    /// use drafti_analysis::{preset::Preset, AnalysisOptions};
    /// assert_eq!(Preset::Default.options().label(), AnalysisOptions::default().label());
    /// assert_eq!(Preset::Fast.options().limits.depth, Some(5));
    /// assert_eq!(Preset::Thorough.options().limits.nodes, Some(400_000));
    /// assert_eq!(Preset::Deep.options().limits.nodes, Some(1_000_000));
    /// ```
    pub fn options(self) -> AnalysisOptions {
        match self {
            Preset::Default => AnalysisOptions::default(),
            Preset::Thorough => AnalysisOptions {
                verify_from_pass: true,
                ..AnalysisOptions::from_limits(None, Some(THOROUGH_NODES))
            },
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

/// How a preset's verdicts held against deep searches of real games: what the report's header
/// tells a player about how far to trust it. Measured with `drafti-lab quality --sample 2
/// --egtb T5 --settle-egtb T6 --reference ref2m.jsonl --second-reference-nodes 1000000
/// --second-reference ref1m.jsonl --preset NAME` (and `--candidate-no-egtb` for a run without
/// tables) on both halves of the Czech and Russian master games and on two Tanzanian samples
/// (docs/lab/king-endings.md; T5, T6: folders of the 5- and 6-piece tables); an engine or
/// budget change measures it again.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Measured {
    /// Who judged them again, in a player's words (`two far deeper searches`).
    pub judged_by: &'static str,
    /// The games the verdicts were judged on: how many.
    pub games: u32,
    /// What they are, in a player's words (`Czech and Russian master games`).
    pub games_are: &'static str,
    /// Blunders the preset flagged that both deep references call less than a mistake, and
    /// all the blunders it flagged.
    pub false_alarms: (u32, u32),
    /// Moves both references drop by 0.45 or more (game-losing moves) that the preset calls
    /// less than a mistake, and all such moves.
    pub clear_misses: (u32, u32),
}

impl Measured {
    /// The figures in a player's words, for a report's header.
    ///
    /// ```
    /// use drafti_analysis::preset::Measured;
    /// let m = Measured {
    ///     judged_by: "two far deeper searches",
    ///     games: 189,
    ///     games_are: "master games",
    ///     false_alarms: (2, 150),
    ///     clear_misses: (0, 96),
    /// };
    /// assert_eq!(
    ///     m.in_words(),
    ///     "on 189 master games judged again by two far deeper searches, 2 of its 150 blunders \
    ///      were not even mistakes, and it missed none of 96 game-losing moves"
    /// );
    /// ```
    pub fn in_words(&self) -> String {
        let (wrong, flagged) = self.false_alarms;
        let (missed, losing) = self.clear_misses;
        let wrong = match wrong {
            0 => format!("none of its {flagged} blunders was less than a mistake"),
            1 => format!("1 of its {flagged} blunders was not even a mistake"),
            n => format!("{n} of its {flagged} blunders were not even mistakes"),
        };
        let missed = match missed {
            0 => format!("it missed none of {losing} game-losing moves"),
            n => format!("it missed {n} of {losing} game-losing moves"),
        };
        format!(
            "on {} {} judged again by {}, {wrong}, and {missed}",
            self.games, self.games_are, self.judged_by
        )
    }
}

impl Preset {
    /// The preset whose settings an analysis's label ([`AnalysisOptions::label`], what
    /// `drafti analyze --json` writes in its header) names, endgame tables allowed; `None`
    /// for any other settings, or the shipped engine changed by switches.
    ///
    /// ```
    /// use drafti_analysis::preset::Preset;
    /// let label = Preset::Fast.options().label();
    /// assert_eq!(Preset::of_label(&label), Some(Preset::Fast));
    /// let tables = format!("{label}; endgame tables: tz up to 5 pieces");
    /// assert_eq!(Preset::of_label(&tables), Some(Preset::Fast));
    /// assert_eq!(Preset::of_label(&format!("{label}; engine settings lmr=0")), None);
    /// assert_eq!(Preset::of_label("depth 3; not re-searched"), None);
    /// ```
    pub fn of_label(label: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|preset| {
            let own = preset.options().label();
            match label.strip_prefix(own.as_str()) {
                Some("") => true,
                Some(rest) => {
                    rest.starts_with(TABLES_IN_LABEL) && !rest.contains("; engine settings")
                }
                None => false,
            }
        })
    }

    /// How its verdicts held on the Czech and Russian master games ([`Measured`]), run with
    /// the endgame tables of up to [`TABLE_PIECES`] pieces (`tables`) or without.
    pub fn measured(self, tables: bool) -> Measured {
        match (self, tables) {
            (Preset::Fast, true) => MEASURED_FAST,
            (Preset::Fast, false) => MEASURED_FAST_NO_TABLES,
            (Preset::Default, true) => MEASURED_DEFAULT,
            (Preset::Default, false) => MEASURED_DEFAULT_NO_TABLES,
            (Preset::Thorough, true) => MEASURED_THOROUGH,
            (Preset::Thorough, false) => MEASURED_THOROUGH_NO_TABLES,
            (Preset::Deep, true) => MEASURED_DEEP,
            (Preset::Deep, false) => MEASURED_DEEP_NO_TABLES,
        }
    }

    /// How its verdicts held on Tanzanian games, which the network judges, with the tables
    /// or without; `None` where that was not measured (`deep`: its references would cost days
    /// of these cores).
    pub fn measured_tanzanian(self, tables: bool) -> Option<Measured> {
        match (self, tables) {
            (Preset::Fast, true) => Some(MEASURED_FAST_TANZANIAN),
            (Preset::Fast, false) => Some(MEASURED_FAST_TANZANIAN_NO_TABLES),
            (Preset::Default, true) => Some(MEASURED_DEFAULT_TANZANIAN),
            (Preset::Default, false) => Some(MEASURED_DEFAULT_TANZANIAN_NO_TABLES),
            (Preset::Thorough, true) => Some(MEASURED_THOROUGH_TANZANIAN),
            (Preset::Thorough, false) => Some(MEASURED_THOROUGH_TANZANIAN_NO_TABLES),
            (Preset::Deep, _) => None,
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
    fn deep_does_not_claim_far_deeper_judges() {
        // Its pass alone (DEEP_NODES) is half of the larger reference's 2,000,000 nodes.
        let words = Preset::Deep.measured(true).in_words();
        assert!(
            !words.contains("far deeper") && words.contains("not proof"),
            "{words}"
        );
        for preset in [Preset::Fast, Preset::Default, Preset::Thorough] {
            for tables in [true, false] {
                assert!(preset.measured(tables).in_words().contains("far deeper"));
            }
        }
    }

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
            "unknown preset 'fastest' (known: fast, default, thorough, deep)"
        );
    }

    #[test]
    fn each_preset_searches_more_than_the_one_before() {
        let fast = Preset::Fast.options();
        let default = Preset::Default.options();
        let thorough = Preset::Thorough.options();
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
        assert!(default.limits.nodes < thorough.limits.nodes);
        assert!(thorough.limits.nodes < deep.limits.nodes);
        // Thorough is the default with a deeper pass, its re-search no shallower than it.
        assert_eq!(thorough.verify, default.verify);
        assert!(thorough.verify_from_pass && !default.verify_from_pass);
        assert_eq!(thorough.confirm, default.confirm);
        assert_eq!(thorough.tt_mb, default.tt_mb);
        let verify_depth = |o: &AnalysisOptions| o.verify.as_ref().and_then(|l| l.depth);
        assert!(verify_depth(&fast) < verify_depth(&default));
        let confirm = |o: &AnalysisOptions| o.confirm.clone().unwrap();
        assert!(confirm(&fast).nodes < confirm(&default).nodes);
        assert!(confirm(&default).nodes < confirm(&deep).nodes);
        assert_eq!(deep.limits.depth, None);
        assert!(deep.tt_mb > default.tt_mb);
        // The labels, which every output's header carries, tell them apart.
        let labels: std::collections::HashSet<String> = [&fast, &default, &thorough, &deep]
            .iter()
            .map(|o| o.label())
            .collect();
        assert_eq!(labels.len(), 4);
    }
}
