//! One match by the laws: the two-game rule with sudden-death limboti, the start-order law
//! and goals (see the module docs of [`standings`](super) for the decisions).

use super::{
    GameOutcome, GameSummary, MatchGame, MatchReport, MatchStatus, StandingsOptions, Warning,
    WarningKind, SUPA_GOALS,
};

/// What the match knows about a game once it is read.
struct Played {
    winner: Option<usize>,
    starter: Option<usize>,
}

/// Plays out the match of `games` (all between the same two players, in match order).
/// Returns the report and the warnings, each with the position in `games` of the game it
/// belongs to.
pub(crate) fn play_match(
    games: &[&GameSummary],
    options: &StandingsOptions,
) -> (MatchReport, Vec<(usize, Warning)>) {
    let players = match games.first() {
        Some(g) => [
            g.white_name().unwrap_or_default(),
            g.black_name().unwrap_or_default(),
        ],
        None => [String::new(), String::new()],
    };
    let side_of = |name: Option<String>| name.and_then(|n| players.iter().position(|p| *p == n));

    let mut report = MatchReport {
        players: players.clone(),
        score: [0, 0],
        draws: 0,
        unfinished: 0,
        goals: [0, 0],
        status: MatchStatus::Undecided,
        winner: None,
        loser: None,
        decided_after: None,
        limboti: 0,
        undecided_reason: None,
        games: Vec::with_capacity(games.len()),
    };
    let mut warnings = Vec::new();
    let mut blocked_by: Option<usize> = None; // first counted unfinished game
    let mut first_two_winners: Vec<Option<usize>> = Vec::new();
    let mut previous: Option<(usize, Played)> = None;

    for (pos, g) in games.iter().enumerate() {
        let counted = report.status == MatchStatus::Undecided;
        let number = pos + 1;
        let winner = g.result.winner().and_then(|c| side_of(g.player(c)));
        let starter = g.first_mover.and_then(|c| side_of(g.player(c)));
        let supa = winner.is_some() && g.king_appeared == Some(false);

        // The start-order law, from the previous game.
        if let Some((prev_pos, prev)) = &previous {
            let prev_game = games[*prev_pos];
            if let Some((expected, why)) = expected_starter(prev, prev_game, &players, options) {
                let name = &players[expected];
                let concerned = vec![prev_game.at(), g.at()];
                match starter {
                    Some(s) if s != expected => warnings.push((
                        pos,
                        Warning {
                            kind: WarningKind::StartOrder,
                            message: format!(
                                "{}: {} started, but {name} should have: {why} ({})",
                                g.at(),
                                players[s],
                                prev_game.at()
                            ),
                            games: concerned,
                        },
                    )),
                    Some(_) => {}
                    None => warnings.push((
                        pos,
                        Warning {
                            kind: WarningKind::StartUnknown,
                            message: format!(
                                "{}: no moves, so who started is unknown; {name} should have: {why} ({})",
                                g.at(),
                                prev_game.at()
                            ),
                            games: concerned,
                        },
                    )),
                }
            }
        }

        // The optional colour law: who had White in the previous game has Black now.
        if let Some((prev_pos, _)) = &previous {
            let prev_game = games[*prev_pos];
            if options.swap_colours {
                if let Some(warning) = colour_order(prev_game, g) {
                    warnings.push((pos, warning));
                }
            }
        }

        let mut goals = 0;
        if counted {
            match (g.result, winner) {
                (GameOutcome::WhiteWin | GameOutcome::BlackWin, Some(w)) => {
                    goals = if supa && options.supa { SUPA_GOALS } else { 1 };
                    report.score[w] += 1;
                    report.goals[w] += goals;
                }
                (GameOutcome::Draw | GameOutcome::NoWinner, _) => report.draws += 1,
                _ => {
                    report.unfinished += 1;
                    blocked_by.get_or_insert(number);
                }
            }
            if number > 2 {
                report.limboti += 1;
            }
            if number <= 2 {
                first_two_winners.push(winner);
            }
            if blocked_by.is_none() {
                let decided_by = match number {
                    2 if first_two_winners[0].is_some()
                        && first_two_winners[0] == first_two_winners[1] =>
                    {
                        winner
                    }
                    n if n > 2 => winner,
                    _ => None,
                };
                if let Some(w) = decided_by {
                    report.status = MatchStatus::Decided;
                    report.winner = Some(players[w].clone());
                    report.loser = Some(players[1 - w].clone());
                    report.decided_after = Some(number);
                }
            }
        } else {
            warnings.push((
                pos,
                Warning {
                    kind: WarningKind::GameAfterDecision,
                    message: format!(
                        "{}: played after the match {} – {} was decided (won by {} after {} \
                         games); not counted",
                        g.at(),
                        players[0],
                        players[1],
                        report.winner.as_deref().unwrap_or("?"),
                        report.decided_after.unwrap_or(0)
                    ),
                    games: vec![g.at()],
                },
            ));
        }

        report.games.push(MatchGame {
            at: g.at(),
            number,
            white: g.white_name().unwrap_or_default(),
            black: g.black_name().unwrap_or_default(),
            result: g.result.as_str().to_string(),
            winner: winner.map(|w| players[w].clone()),
            first_mover: g.first_mover.map(Into::into),
            started_by: starter.map(|s| players[s].clone()),
            king_appeared: g.king_appeared,
            supa,
            goals,
            counted,
        });
        previous = Some((pos, Played { winner, starter }));
    }

    if report.status == MatchStatus::Undecided {
        let n = report.games.len();
        report.undecided_reason = Some(match blocked_by {
            Some(k) => format!("game {k} of the match has no result"),
            None if n < 2 => format!("{n} game played; a match is two games"),
            None if n == 2 => format!(
                "{}-{} after two games: limboti must follow",
                report.score[0], report.score[1]
            ),
            None => format!(
                "{}-{} after two games and {} limboti, none won yet",
                score_of_first_two(&first_two_winners, 0),
                score_of_first_two(&first_two_winners, 1),
                report.limboti
            ),
        });
    }
    (report, warnings)
}

/// A warning if `game` does not swap the colours of `prev` (names as the tags give them; a
/// game without both names is reported elsewhere).
fn colour_order(prev: &GameSummary, game: &GameSummary) -> Option<Warning> {
    let (white, black) = (game.white_name()?, game.black_name()?);
    let prev_white = prev.white_name()?;
    (white == prev_white).then(|| Warning {
        kind: WarningKind::ColourOrder,
        message: format!(
            "{}: {white} has White again, but players swap colours after every game: {black} \
             should have White ({} had {white} with White)",
            game.at(),
            prev.at()
        ),
        games: vec![prev.at(), game.at()],
    })
}

/// Games won by `side` among the first two.
fn score_of_first_two(winners: &[Option<usize>], side: usize) -> usize {
    winners.iter().filter(|w| **w == Some(side)).count()
}

/// Who must start the game after `prev` (a side index), and why in words, if the laws say.
fn expected_starter(
    prev: &Played,
    game: &GameSummary,
    players: &[String; 2],
    options: &StandingsOptions,
) -> Option<(usize, String)> {
    match (game.result, prev.winner) {
        (GameOutcome::WhiteWin | GameOutcome::BlackWin, Some(w)) => Some(if options.loser_starts {
            (
                1 - w,
                format!(
                    "{} lost the previous game and the loser starts",
                    players[1 - w]
                ),
            )
        } else {
            (
                w,
                format!("{} won the previous game and the winner starts", players[w]),
            )
        }),
        (GameOutcome::Draw, _) => prev.starter.map(|s| {
            (
                1 - s,
                format!(
                    "the previous game was drawn and {} started it, so the other player starts",
                    players[s]
                ),
            )
        }),
        _ => None,
    }
}
