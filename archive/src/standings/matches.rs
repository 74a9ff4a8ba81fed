//! One match by the laws: the two-game rule with sudden-death limboti, the start-order law
//! and goals (see the module docs of [`standings`](super) for the decisions).
//!
//! A match is played game by game by [`MatchPlay`], from the compact records: once to sum
//! it up (its score, its warnings), and again when its games are written, one at a time, so
//! no per-game report is ever kept.

use super::archive::{Archive, Record, NONE};
use super::{GameOutcome, MatchLaw, MatchStatus, StandingsOptions, SUPA_GOALS};

/// Why a player had to start a game (the words are in [`super::view`]).
#[derive(Clone, Copy, Debug)]
pub(crate) enum Why {
    /// This side won the previous game and the winner starts.
    WinnerStarts(u8),
    /// This side lost the previous game and the loser starts.
    LoserStarts(u8),
    /// The previous game was drawn and this side started it.
    DrawStartedBy(u8),
}

/// A warning, compactly: games by record number, players by side or name id; its words are
/// written when it is reported.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Note {
    ResultMismatch {
        game: u32,
    },
    PlaysBothSides {
        game: u32,
    },
    NoPlayerName {
        game: u32,
    },
    StartOrder {
        in_match: u32,
        previous: u32,
        game: u32,
        started: u8,
        expected: u8,
        why: Why,
    },
    StartUnknown {
        in_match: u32,
        previous: u32,
        game: u32,
        expected: u8,
        why: Why,
    },
    ColourOrder {
        previous: u32,
        game: u32,
    },
    GameAfterDecision {
        in_match: u32,
        game: u32,
        /// The side that won the match (2: the match was drawn), and after how many games.
        winner: u8,
        decided_after: u32,
    },
    /// A group match has two games: a third one is not counted.
    ExtraGroupGame {
        in_match: u32,
        game: u32,
    },
    /// A `Group` tag puts a player in a second group; the first one stays.
    GroupConflict {
        game: u32,
        player: u32,
        group: u32,
        first: u32,
    },
    /// The groups file puts a player no game of the Event has in group `group`, at `place`.
    UnknownGroupPlayer {
        group: u32,
        place: u32,
    },
    /// A player of the Event (first playing in `game`) is in no group of the groups file.
    UngroupedPlayer {
        player: u32,
        game: u32,
    },
    /// `--format matches` for an Event of `players` players, `pairs` of whom met.
    NotAKnockout {
        players: u32,
        pairs: u32,
    },
    /// `tzdraft`: the games of match `in_match` (the last one `last`) ran out before it was
    /// decided.
    UnfinishedMatch {
        in_match: u32,
        last: u32,
    },
    /// `tzdraft` with a passed deadline: match `in_match` (its last game `last`) was settled
    /// by the deadline.
    SettledAtDeadline {
        in_match: u32,
        last: u32,
    },
    PlayedAfterElimination {
        in_match: u32,
        /// The first game of the match, which orders the warning.
        first: u32,
        /// The player's side in the match.
        side: u8,
        player: u32,
        by: u32,
        decided_at: u32,
    },
}

impl Note {
    /// Where the note goes among the warnings: after the game it is about in match order
    /// (as [`Archive::sort_key`] orders games), then, for notes of the same game, in the
    /// order they are found (a game has at most one note of each kind but the last); notes
    /// about no game (the Event's format, the groups file) first (`None`).
    pub(crate) fn order(&self) -> Option<(u32, u8)> {
        Some(match *self {
            Note::NotAKnockout { .. } | Note::UnknownGroupPlayer { .. } => return None,
            Note::ResultMismatch { game } => (game, 0),
            Note::PlaysBothSides { game } | Note::NoPlayerName { game } => (game, 1),
            Note::StartOrder { game, .. } | Note::StartUnknown { game, .. } => (game, 2),
            Note::ColourOrder { game, .. } => (game, 3),
            Note::GameAfterDecision { game, .. } | Note::ExtraGroupGame { game, .. } => (game, 4),
            Note::UnfinishedMatch { last, .. } | Note::SettledAtDeadline { last, .. } => (last, 5),
            Note::GroupConflict { game, .. } | Note::UngroupedPlayer { game, .. } => (game, 1),
            Note::PlayedAfterElimination { first, side, .. } => (first, 6 + side),
        })
    }
}

/// A match summed up: everything but its games' rows. Only ever kept for one match at a
/// time: it is played again from its records whenever it is needed.
#[derive(Clone, Debug)]
pub(crate) struct MatchSummary<'a> {
    /// Name ids: White of the first game, then Black of the first game.
    pub(crate) players: [u32; 2],
    pub(crate) score: [u32; 2],
    pub(crate) draws: u32,
    pub(crate) unfinished: u32,
    pub(crate) goals: [u32; 2],
    /// The side that won the match, once decided.
    pub(crate) winner: Option<usize>,
    /// A group match whose two games left the players level.
    pub(crate) drawn: bool,
    /// How the match is decided.
    pub(crate) law: MatchLaw,
    pub(crate) decided_after: Option<usize>,
    pub(crate) limboti: usize,
    /// The match number of the first counted game without a result.
    pub(crate) blocked_by: Option<usize>,
    /// The winners (sides) of the first two games.
    pub(crate) first_two: [Option<usize>; 2],
    /// Counted supa wins of each side.
    pub(crate) supa_wins: [u32; 2],
    /// `tzdraft`: each side's counted games lost in a row (a draw ends a run).
    pub(crate) losses_in_a_row: [u32; 2],
    /// `tzdraft`: the match was settled by the round's deadline, not by its games.
    pub(crate) at_deadline: bool,
    /// The games (record numbers) in match order.
    pub(crate) games: &'a [u32],
}

impl MatchSummary<'_> {
    pub(crate) fn status(&self) -> MatchStatus {
        match self.winner {
            Some(_) => MatchStatus::Decided,
            None if self.drawn => MatchStatus::Drawn,
            None => MatchStatus::Undecided,
        }
    }

    /// Whether the match is over: decided, or a drawn group match.
    pub(crate) fn finished(&self) -> bool {
        self.winner.is_some() || self.drawn
    }

    /// Why an undecided match is undecided.
    pub(crate) fn undecided_reason(&self) -> Option<String> {
        if self.finished() {
            return None;
        }
        let n = self.games.len();
        let first_two = |side| self.first_two.iter().filter(|w| **w == Some(side)).count();
        Some(match self.blocked_by {
            Some(k) => format!("game {k} of the match has no result"),
            None if self.law == MatchLaw::Tzdraft => format!(
                "{}-{} after {}: another game must follow (two losses in a row, or a leader \
                 from the third game, end a match)",
                self.score[0],
                self.score[1],
                count_games(n)
            ),
            None if n < 2 => format!("{n} game played; a match is two games"),
            None if self.law == MatchLaw::Tege => {
                let next = match n {
                    2 => "two tie-break games must follow",
                    3 => "the second tie-break game must follow",
                    4..=7 => "the four tege games must be played out",
                    _ => "a golden goal must follow: the next won game decides",
                };
                format!(
                    "{}-{} after {n} games: {next}",
                    self.score[0], self.score[1]
                )
            }
            None if n == 2 => format!(
                "{}-{} after two games: limboti must follow",
                self.score[0], self.score[1]
            ),
            None => format!(
                "{}-{} after two games and {} limboti, none won yet",
                first_two(0),
                first_two(1),
                self.limboti
            ),
        })
    }
}

/// `1 game`, `3 games`.
fn count_games(n: usize) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{n} games")
    }
}

impl MatchSummary<'_> {
    /// A TzDraft match its games left undecided, settled as TzDraft's server settles it when
    /// the round's deadline passes: a drawn match in a round robin, else a win for the player
    /// ahead in games (a level single-elimination match goes to the higher seed, which games
    /// do not record: it stays undecided). Whether it was settled.
    pub(crate) fn settle_at_deadline(&mut self, round_robin: bool) -> bool {
        if self.law != MatchLaw::Tzdraft || self.finished() {
            return false;
        }
        let leader = match self.score[0].cmp(&self.score[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        };
        if round_robin {
            self.drawn = true;
        } else if leader.is_some() {
            self.winner = leader;
        } else {
            return false;
        }
        self.at_deadline = true;
        self.decided_after = Some(self.games.len());
        true
    }
}

/// What one game of a match is, once played.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    /// 1 and 2 are the match's two games; 3 and on are limboti.
    pub(crate) number: usize,
    pub(crate) winner: Option<usize>,
    pub(crate) starter: Option<usize>,
    pub(crate) supa: bool,
    pub(crate) goals: u32,
    pub(crate) counted: bool,
}

/// A match being played, game by game, in match order.
pub(crate) struct MatchPlay<'a> {
    archive: &'a Archive,
    options: &'a StandingsOptions,
    in_match: u32,
    pub(crate) summary: MatchSummary<'a>,
    /// The previous game: its record number, winner and starter.
    previous: Option<(u32, Option<usize>, Option<usize>)>,
    played: usize,
}

impl<'a> MatchPlay<'a> {
    /// The match number `in_match` of its Event, of the games `games` (in match order, all
    /// between the same two players, each with both names).
    pub(crate) fn new(
        archive: &'a Archive,
        options: &'a StandingsOptions,
        in_match: u32,
        games: &'a [u32],
        law: MatchLaw,
    ) -> MatchPlay<'a> {
        // The players: White, then Black of the first game.
        let players = games.first().map_or([NONE, NONE], |&g| {
            let r = &archive.records[g as usize];
            [r.white, r.black]
        });
        MatchPlay {
            archive,
            options,
            in_match,
            summary: MatchSummary {
                players,
                score: [0, 0],
                draws: 0,
                unfinished: 0,
                goals: [0, 0],
                winner: None,
                drawn: false,
                law,
                decided_after: None,
                limboti: 0,
                blocked_by: None,
                first_two: [None, None],
                supa_wins: [0, 0],
                losses_in_a_row: [0, 0],
                at_deadline: false,
                games,
            },
            previous: None,
            played: 0,
        }
    }

    fn side_of(&self, name: u32) -> Option<usize> {
        (name != NONE)
            .then(|| self.summary.players.iter().position(|p| *p == name))
            .flatten()
    }

    /// Plays the next game, record `index`; its warnings go to `notes` when given.
    pub(crate) fn step(&mut self, index: u32, notes: Option<&mut Vec<Note>>) -> Step {
        let g: &Record = &self.archive.records[index as usize];
        // A group match counts its first two games only.
        let beyond_two = self.summary.law == MatchLaw::TwoGames && self.played >= 2;
        let counted = !(self.summary.finished() || beyond_two);
        let number = self.played + 1;
        self.played = number;
        let winner = g.result.winner().and_then(|c| self.side_of(g.player(c)));
        let starter = g.first_mover.and_then(|c| self.side_of(g.player(c)));
        let supa = winner.is_some() && g.king_appeared == Some(false);

        if let (Some(notes), Some((previous, prev_winner, prev_starter))) = (notes, self.previous) {
            // The start-order law, from the previous game.
            let prev_game = &self.archive.records[previous as usize];
            // TzDraft's server gives the colours itself: the article's start order is not
            // its law.
            let start_law = self.summary.law != MatchLaw::Tzdraft;
            if let Some((expected, why)) = self
                .expected_starter(prev_game, prev_winner, prev_starter)
                .filter(|_| start_law)
            {
                match starter {
                    Some(s) if s != expected => notes.push(Note::StartOrder {
                        in_match: self.in_match,
                        previous,
                        game: index,
                        started: s as u8,
                        expected: expected as u8,
                        why,
                    }),
                    Some(_) => {}
                    None => notes.push(Note::StartUnknown {
                        in_match: self.in_match,
                        previous,
                        game: index,
                        expected: expected as u8,
                        why,
                    }),
                }
            }
            // The optional colour law: who had White in the previous game has Black now.
            if self.options.swap_colours && g.white == prev_game.white {
                notes.push(Note::ColourOrder {
                    previous,
                    game: index,
                });
            }
            if !counted && !self.summary.finished() {
                notes.push(Note::ExtraGroupGame {
                    in_match: self.in_match,
                    game: index,
                });
            } else if !counted {
                notes.push(Note::GameAfterDecision {
                    in_match: self.in_match,
                    game: index,
                    winner: self.summary.winner.map_or(2, |w| w as u8),
                    decided_after: self.summary.decided_after.unwrap_or(2) as u32,
                });
            }
        }

        let mut goals = 0;
        if counted {
            let m = &mut self.summary;
            match (g.result, winner) {
                (GameOutcome::WhiteWin | GameOutcome::BlackWin, Some(w)) => {
                    goals = if supa && self.options.supa {
                        SUPA_GOALS
                    } else {
                        1
                    };
                    m.score[w] += 1;
                    m.goals[w] += goals;
                    m.supa_wins[w] += u32::from(supa);
                    m.losses_in_a_row[1 - w] += 1;
                    m.losses_in_a_row[w] = 0;
                }
                (GameOutcome::Draw | GameOutcome::NoWinner, _) => {
                    m.draws += 1;
                    m.losses_in_a_row = [0, 0];
                }
                _ => {
                    m.unfinished += 1;
                    m.blocked_by.get_or_insert(number);
                }
            }
            if number > 2 {
                m.limboti += 1;
            } else {
                m.first_two[number - 1] = winner;
            }
            if m.blocked_by.is_none() {
                let leader = match m.score[0].cmp(&m.score[1]) {
                    std::cmp::Ordering::Greater => Some(0),
                    std::cmp::Ordering::Less => Some(1),
                    std::cmp::Ordering::Equal => None,
                };
                let decided_by = match (m.law, number) {
                    (MatchLaw::Limboti, 2)
                        if m.first_two[0].is_some() && m.first_two[0] == m.first_two[1] =>
                    {
                        winner
                    }
                    (MatchLaw::Limboti, n) if n > 2 => winner,
                    (MatchLaw::TwoGames, 2) => {
                        m.drawn = leader.is_none();
                        leader
                    }
                    // The end of the two games, of the tie-break games, of the tege games:
                    // the leader wins; then each game is a golden goal.
                    (MatchLaw::Tege, 2 | 4 | 8) => leader,
                    (MatchLaw::Tege, n) if n > 8 => winner,
                    // Two losses in a row, or from the third game a leader.
                    (MatchLaw::Tzdraft, n) => match m.losses_in_a_row {
                        [lost, _] if lost >= 2 => Some(1),
                        [_, lost] if lost >= 2 => Some(0),
                        _ if n >= 3 => leader,
                        _ => None,
                    },
                    _ => None,
                };
                if let Some(w) = decided_by {
                    m.winner = Some(w);
                }
                if m.winner.is_some() || m.drawn {
                    m.decided_after = Some(number);
                }
            }
        }
        self.previous = Some((index, winner, starter));
        Step {
            number,
            winner,
            starter,
            supa,
            goals,
            counted,
        }
    }

    /// Who must start the game after `previous` (a side), and why, if the laws say.
    fn expected_starter(
        &self,
        previous: &Record,
        prev_winner: Option<usize>,
        prev_starter: Option<usize>,
    ) -> Option<(usize, Why)> {
        match (previous.result, prev_winner) {
            (GameOutcome::WhiteWin | GameOutcome::BlackWin, Some(w)) => {
                Some(if self.options.loser_starts {
                    (1 - w, Why::LoserStarts((1 - w) as u8))
                } else {
                    (w, Why::WinnerStarts(w as u8))
                })
            }
            (GameOutcome::Draw, _) => prev_starter.map(|s| (1 - s, Why::DrawStartedBy(s as u8))),
            _ => None,
        }
    }
}

/// Plays out the match number `in_match` of `games` (in match order); its warnings go to
/// `notes` when given.
pub(crate) fn play_match<'a>(
    archive: &'a Archive,
    options: &'a StandingsOptions,
    in_match: u32,
    games: &'a [u32],
    law: MatchLaw,
    mut notes: Option<&mut Vec<Note>>,
) -> MatchSummary<'a> {
    let mut play = MatchPlay::new(archive, options, in_match, games, law);
    for &index in games {
        play.step(index, notes.as_deref_mut());
    }
    play.summary
}
