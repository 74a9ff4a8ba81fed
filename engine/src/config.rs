//! Switches for the engine's parts, so that each can be measured against the others in a
//! match (`cargo run --release -p drafti-hub --example duel -- --a lmr=0`). The default is
//! the engine as shipped; docs/engine.md says what each switch was worth.

use std::fmt;

macro_rules! config {
    ($( $(#[doc = $doc:literal])* $field:ident $name:literal [$lo:literal, $hi:literal] = $default:expr; )*) => {
        /// The engine's switches and search parameters (0 or 1 for on/off switches).
        /// [`Config::default`] is the shipped engine.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Config {
            $( $(#[doc = $doc])* pub $field: i32, )*
        }

        impl Default for Config {
            fn default() -> Config {
                Config { $( $field: $default, )* }
            }
        }

        impl Config {
            /// The names [`Config::set`] knows.
            pub const NAMES: &'static [&'static str] = &[ $( $name ),* ];

            /// Sets one switch by name from text (a number; `on`/`off` for 1/0).
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), ConfigError> {
                let number = match value {
                    "on" | "true" | "yes" => Some(1),
                    "off" | "false" | "no" => Some(0),
                    _ => value.parse::<i32>().ok(),
                };
                match name {
                    $( $name => {
                        self.$field = number
                            .filter(|v| ($lo..=$hi).contains(v))
                            .ok_or_else(|| ConfigError::BadValue {
                                name: name.to_string(),
                                value: value.to_string(),
                            })?;
                    } )*
                    _ => return Err(ConfigError::Unknown(name.to_string())),
                }
                Ok(())
            }

            fn items(&self) -> Vec<(&'static str, i32, i32)> {
                let d = Config::default();
                vec![ $( ($name, self.$field, d.$field) ),* ]
            }
        }
    };
}

config! {
    /// Late-move reductions of quiet moves, re-searched at full depth when they beat alpha:
    /// 0 none; 1 one ply from the 4th move on (not for moves the opponent must answer with
    /// a capture); 2 `ln(depth) · ln(move number) / lmr_divisor`; 3 one ply from the 2nd
    /// move (4th at PV nodes), two from the 5th outside PV nodes (as Scan does).
    lmr "lmr" [0, 3] = 3;
    /// The divisor of the logarithmic reduction, in hundredths.
    lmr_divisor "lmr-divisor" [50, 1000] = 225;
    /// Aspiration window at the root (hundredths of a man either side of the last
    /// iteration's score, doubled on each failure; 0: a full window).
    aspiration "aspiration" [0, 1000] = 0;
    /// ProbCut margin per ply of depth (hundredths of a man; 0: off): outside PV nodes, a
    /// shallower search (`probcut_keep` percent of the depth) that beats beta by
    /// `probcut × depth` predicts a cut-off. No null move: draughts is full of zugzwang.
    probcut "probcut" [0, 1000] = 0;
    /// The smallest depth at which ProbCut is tried.
    probcut_depth "probcut-depth" [2, 20] = 3;
    /// ProbCut's shallower search keeps this percentage of the depth.
    probcut_keep "probcut-keep" [10, 90] = 40;
    /// Singular extension, as Scan does it: at a PV node of depth 8 or more whose hash
    /// entry is a lower bound or exact, at most 4 plies shallower than the node, with an
    /// estimate (not a proven score), every other move is searched at depth − 4 with a null
    /// window at the entry's score − 0.40 man (the law-3 claim, where it exists, counts as
    /// another move); if all fail low, the hash move is searched a ply deeper. Not at the
    /// root, and not where the node's single legal move is extended already (Scan's
    /// `ext == 0`); the test search is stored in the table under the node's key mixed with
    /// the left-out move (Scan's `key ^ skip_move`), and its cut-offs at the node teach the
    /// move ordering nothing. One departure: Scan's ProbCut inside the test search forgets
    /// the left-out move; here it keeps it out.
    singular "singular" [0, 1] = 0;
    /// Counter-moves in the move ordering.
    counter_moves "counter-moves" [0, 1] = 0;
    /// History kept apart for men's and kings' moves.
    piece_history "piece-history" [0, 1] = 0;
    /// Quiescence: a quiet position where the opponent threatens a capture is searched one
    /// ply (every move) instead of evaluated.
    qs_threat "qs-threat" [0, 1] = 0;
    /// Quiescence: a quiet position with no king on the board, not under a capture threat,
    /// is worth the better of its evaluation (the side may play a quiet move: a lower bound)
    /// and each man's move after which the opponent must capture (an exchange or a
    /// sacrifice), searched on by quiescence. Scan adds such moves too, picked by board
    /// patterns; here every move that gives a capture is tried, and once per quiescence line
    /// (Scan: at every such position). The budget is the one `qs-threat` spends: with both
    /// on, a threatened position gets the threat's full ply (its moves include these) and
    /// a quiet one the sacrifices, whichever comes first on the line.
    qs_sacrifice "qs-sacrifice" [0, 1] = 0;
    /// With a time limit or a stop: a better root move found by the interrupted iteration
    /// is played (the iteration is otherwise thrown away).
    partial_iteration "partial-iteration" [0, 1] = 1;
    /// Tanzanian law 3: where the lone king's side may crown the opponent's man (two kings
    /// and a man against a king, a king on the main diagonal) and start law 2's count, the
    /// claim is one more option of that side at the node (0: the search ignores the law).
    /// The endgame tables always hold it: they are the game under the laws.
    law3 "law3" [0, 1] = 1;
    /// The evaluation: 0 the pattern evaluation (`eval`), 1 the network (`nnue`, the
    /// shipped `engine/data/nnue-tz.bin` unless `Engine::set_network` gives another). The
    /// endgame knowledge and the draw laws stay on top of either.
    nnue "nnue" [0, 1] = 0;
}

/// A switch that does not exist or a value it does not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No switch of that name.
    #[error("unknown engine setting '{0}' (known: {known})", known = Config::NAMES.join(", "))]
    Unknown(String),
    /// The value does not fit the switch.
    #[error("engine setting '{name}' does not take the value '{value}'")]
    BadValue {
        /// The switch.
        name: String,
        /// The value given.
        value: String,
    },
    /// Not `name=value`.
    #[error("'{0}' is not of the form name=value")]
    Syntax(String),
}

impl Config {
    /// Applies a comma-separated list of `name=value` settings (empty text changes nothing).
    pub fn apply(&mut self, settings: &str) -> Result<(), ConfigError> {
        for item in settings.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| ConfigError::Syntax(item.to_string()))?;
            self.set(name.trim(), value.trim())?;
        }
        Ok(())
    }
}

impl fmt::Display for Config {
    /// The settings that differ from the default, as [`Config::apply`] reads them
    /// (`default` when none).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let changed: Vec<String> = self
            .items()
            .into_iter()
            .filter(|(_, v, d)| v != d)
            .map(|(n, v, _)| format!("{n}={v}"))
            .collect();
        if changed.is_empty() {
            f.write_str("default")
        } else {
            f.write_str(&changed.join(","))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_by_name() {
        let mut config = Config::default();
        assert_eq!(config.to_string(), "default");
        config.apply("lmr=0, aspiration=25, qs-threat=on").unwrap();
        assert_eq!(
            (config.lmr, config.aspiration, config.qs_threat),
            (0, 25, 1)
        );
        assert_eq!(config.to_string(), "lmr=0,aspiration=25,qs-threat=1");
        let mut again = Config::default();
        again.apply(&config.to_string()).unwrap();
        assert_eq!(again, config);
        assert!(matches!(
            config.apply("nope=1"),
            Err(ConfigError::Unknown(_))
        ));
        assert!(matches!(
            config.apply("lmr=7"),
            Err(ConfigError::BadValue { .. })
        ));
        assert!(matches!(
            config.apply("counter-moves=2"),
            Err(ConfigError::BadValue { .. })
        ));
        assert!(matches!(config.apply("lmr"), Err(ConfigError::Syntax(_))));
    }

    #[test]
    fn search_ideas_are_off_and_round_trip() {
        let shipped = Config::default();
        assert_eq!((shipped.singular, shipped.qs_sacrifice), (0, 0));
        let mut config = Config::default();
        config.apply("singular=1,qs-sacrifice=1").unwrap();
        assert_eq!((config.singular, config.qs_sacrifice), (1, 1));
        assert_eq!(config.to_string(), "singular=1,qs-sacrifice=1");
        let mut again = Config::default();
        again.apply(&config.to_string()).unwrap();
        assert_eq!(again, config);
        assert!(matches!(
            config.apply("singular=2"),
            Err(ConfigError::BadValue { .. })
        ));
    }
}
