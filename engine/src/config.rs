//! Switches for the engine's parts, so that each can be measured against the others in a
//! match (`cargo run --release -p drafti-lab --example duel -- --a lmr=0`). The default is
//! the engine as shipped; docs/engine.md says what each switch was worth. Ideas measured as
//! losses are deleted (their figures stay in docs/lab/); live ones are built only with the
//! crate's `search-ideas` feature.

use std::fmt;

macro_rules! config {
    ($( $(#[doc = $doc:literal])* $(#[cfg($cfg:meta)])? $field:ident $name:literal [$lo:literal, $hi:literal] = $default:expr; )*) => {
        /// The engine's switches and search parameters (0 or 1 for on/off switches).
        /// [`Config::default`] is the shipped engine.
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub struct Config {
            $( $(#[doc = $doc])* $(#[cfg($cfg)])? pub $field: i32, )*
        }

        impl Default for Config {
            fn default() -> Config {
                Config { $( $(#[cfg($cfg)])? $field: $default, )* }
            }
        }

        impl Config {
            /// The names [`Config::set`] knows (in this build: the search ideas only with
            /// the `search-ideas` feature).
            #[allow(clippy::vec_init_then_push)] // some pushes are cfg'd out
            pub fn names() -> Vec<&'static str> {
                let mut names = Vec::new();
                $( $(#[cfg($cfg)])? names.push($name); )*
                names
            }

            /// Sets one switch by name from text (a number; `on`/`off` for 1/0).
            pub fn set(&mut self, name: &str, value: &str) -> Result<(), ConfigError> {
                let number = match value {
                    "on" | "true" | "yes" => Some(1),
                    "off" | "false" | "no" => Some(0),
                    _ => value.parse::<i32>().ok(),
                };
                match name {
                    $( $(#[cfg($cfg)])? $name => {
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

            #[allow(clippy::vec_init_then_push)] // some pushes are cfg'd out
            fn items(&self) -> Vec<(&'static str, i32, i32)> {
                let d = Config::default();
                let mut items = Vec::new();
                $( $(#[cfg($cfg)])? items.push(($name, self.$field, d.$field)); )*
                items
            }
        }
    };
}

config! {
    /// Scan-style late-move reductions of quiet moves, re-searched at full depth when they
    /// beat alpha (see `reduction` in the search); 0 turns them off, for measuring.
    lmr "lmr" [0, 1] = 1;
    /// ProbCut margin per ply of depth (hundredths of a man; 0: off): outside PV nodes, a
    /// shallower search (`probcut_keep` percent of the depth) that beats beta by
    /// `probcut × depth` predicts a cut-off. No null move: draughts is full of zugzwang.
    /// A live idea (+76 Elo alone against the earlier one-ply reductions, nothing on top of
    /// the Scan-style ones): built with the `search-ideas` feature only.
    #[cfg(feature = "search-ideas")]
    probcut "probcut" [0, 1000] = 0;
    /// The smallest depth at which ProbCut is tried.
    #[cfg(feature = "search-ideas")]
    probcut_depth "probcut-depth" [2, 20] = 3;
    /// ProbCut's shallower search keeps this percentage of the depth.
    #[cfg(feature = "search-ideas")]
    probcut_keep "probcut-keep" [10, 90] = 40;
    /// Counter-moves in the move ordering (a live idea, `search-ideas` feature).
    #[cfg(feature = "search-ideas")]
    counter_moves "counter-moves" [0, 1] = 0;
    /// History kept apart for men's and kings' moves (a live idea, `search-ideas` feature).
    #[cfg(feature = "search-ideas")]
    piece_history "piece-history" [0, 1] = 0;
    /// With a time limit or a stop: a better root move found by the interrupted iteration
    /// is played (the iteration is otherwise thrown away).
    partial_iteration "partial-iteration" [0, 1] = 1;
    /// Tanzanian law 3: where the lone king's side may crown the opponent's man (two kings
    /// and a man against a king, a king on the main diagonal) and start law 2's count, the
    /// claim is one more option of that side at the node (0: the search ignores the law).
    /// The endgame tables always hold it: they are the game under the laws.
    law3 "law3" [0, 1] = 1;
    /// The evaluation: 0 the pattern evaluation (`eval`), 1 the network (`nnue`, the
    /// shipped `engine/data/nnue-tz.bin` unless `Engine::set_network` gives another) where
    /// the variant has one (Tanzanian and TzDraft's reading of it: `nnue::has_shipped`; Czech
    /// and Russian keep their patterns). The endgame knowledge and the draw laws stay on top
    /// of either.
    nnue "nnue" [0, 1] = 1;
}

/// A switch that does not exist or a value it does not take.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// No switch of that name.
    #[error("unknown engine setting '{0}' (known: {known})", known = Config::names().join(", "))]
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
        config.apply("lmr=0, partial-iteration=off").unwrap();
        assert_eq!((config.lmr, config.partial_iteration), (0, 0));
        assert_eq!(config.to_string(), "lmr=0,partial-iteration=0");
        let mut again = Config::default();
        again.apply(&config.to_string()).unwrap();
        assert_eq!(again, config);
        assert!(matches!(
            config.apply("nope=1"),
            Err(ConfigError::Unknown(_))
        ));
        assert!(matches!(
            config.apply("lmr=3"),
            Err(ConfigError::BadValue { .. })
        ));
        assert!(matches!(
            config.apply("law3=2"),
            Err(ConfigError::BadValue { .. })
        ));
        assert!(matches!(config.apply("lmr"), Err(ConfigError::Syntax(_))));
    }

    #[test]
    fn measured_losses_are_gone() {
        // Their figures are in docs/lab/search-changes-issue-14.md and docs/engine.md.
        for name in [
            "qs-threat",
            "qs-sacrifice",
            "singular",
            "aspiration",
            "lmr-divisor",
        ] {
            assert!(matches!(
                Config::default().set(name, "1"),
                Err(ConfigError::Unknown(_))
            ));
        }
    }

    #[cfg(feature = "search-ideas")]
    #[test]
    fn search_ideas_are_off_and_round_trip() {
        let shipped = Config::default();
        assert_eq!((shipped.probcut, shipped.counter_moves), (0, 0));
        let mut config = Config::default();
        config.apply("probcut=10,counter-moves=1").unwrap();
        assert_eq!(config.to_string(), "probcut=10,counter-moves=1");
        let mut again = Config::default();
        again.apply(&config.to_string()).unwrap();
        assert_eq!(again, config);
    }

    #[cfg(not(feature = "search-ideas"))]
    #[test]
    fn search_ideas_need_their_feature() {
        assert!(!Config::names().contains(&"probcut"));
        assert!(matches!(
            Config::default().set("probcut", "10"),
            Err(ConfigError::Unknown(_))
        ));
    }
}
