//! The standings of `drafti standings` as text tables and CSV rows, written to the writer it
//! is handed, one Event at a time (the data is `drafti_archive::standings`'s). Text from the
//! archive (names, Events, rounds) is shown with its control characters made [`visible`].
//! The championship formats are [`formats`]; the HTML page is [`html`].

pub mod formats;
pub mod html;
mod table;

pub use formats::{formats_csv_rows, FORMATS_CSV_HEADER};

use crate::visible;
use drafti_archive::csv::text_cell;
use drafti_archive::standings::{
    EventView, Format, MatchGame, MatchLaw, MatchReport, MatchStatus, PlayerTotals, RankedPlayer,
    Side, StandingsOptions, Tiebreak, Warning,
};
use formats::formats_text;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::io::Write;
use table::table;

/// `1 game`, `2 games`, `3 matches`.
pub fn count(n: usize, what: &str) -> String {
    match (n, what.ends_with("ch")) {
        (1, _) => format!("1 {what}"),
        (_, true) => format!("{n} {what}es"),
        _ => format!("{n} {what}s"),
    }
}

fn event_title(e: &EventView) -> String {
    let name = if e.event.is_empty() {
        "(no Event tag)"
    } else {
        &e.event
    };
    let format = match &e.tzdraft {
        Some(t) => format!("{}: {}", e.format.name(), t.kind.words()),
        None => e.format.name().to_string(),
    };
    // Games scored one by one: players and games, no matches.
    let games = |rows: &mut dyn Iterator<Item = u32>| rows.fold((0, 0), |(n, g), r| (n + 1, g + r));
    let scored = (e
        .swiss
        .as_ref()
        .map(|rows| games(&mut rows.iter().map(|r| r.games))))
    .or_else(|| (e.round_robin.as_ref()).map(|rows| games(&mut rows.iter().map(|r| r.games))));
    if let Some((players, games)) = scored {
        return format!(
            "Event: {name} ({format}, {}, {})",
            count(players, "player"),
            count(games as usize / 2, "game")
        );
    }
    format!(
        "Event: {name} ({format}, {}, {})",
        count(e.players.len(), "player"),
        count(e.match_count(), "match")
    )
}

/// An Event's title line: `Event: NAME (FORMAT, N players, N matches)`.
pub fn event_title_text(e: &EventView) -> String {
    event_title(e)
}

/// A match in one line: players, score, goals, verdict.
pub fn match_line_text(m: &MatchReport) -> String {
    match_line(m)
}

fn match_line(m: &MatchReport) -> String {
    let mut score = format!("{}-{}", m.score[0], m.score[1]);
    if m.draws > 0 {
        let _ = write!(score, ", {} drawn", m.draws);
    }
    if m.unfinished > 0 {
        let _ = write!(score, ", {} unfinished", m.unfinished);
    }
    let verdict = match (&m.status, &m.winner) {
        (MatchStatus::Decided, Some(w)) => {
            let mut v = format!(
                "{w} wins after {}",
                count(m.decided_after.unwrap_or(0), "game")
            );
            match m.law {
                MatchLaw::Tege => {
                    let after = m.decided_after.unwrap_or(0);
                    if let Some(stage) = MatchLaw::Tege.stage(after) {
                        let _ = write!(v, " ({stage})");
                    }
                }
                MatchLaw::Tzdraft if m.settled_at_deadline => {
                    v = format!("{w} wins at the round's deadline, ahead in games");
                }
                MatchLaw::Tzdraft => {}
                _ if m.limboti > 0 => {
                    let _ = write!(v, " ({} limboti)", m.limboti);
                }
                _ => {}
            }
            v
        }
        (MatchStatus::Drawn, _) if m.settled_at_deadline => {
            "drawn match at the round's deadline".to_string()
        }
        (MatchStatus::Drawn, _) => "drawn match".to_string(),
        _ => format!(
            "undecided: {}",
            m.undecided_reason.as_deref().unwrap_or("not decided")
        ),
    };
    format!(
        "{} – {}: {score}; goals {}-{}; {verdict}",
        m.players[0], m.players[1], m.goals[0], m.goals[1]
    )
}

/// A game's row; `tzdraft`: games after the second are not limboti.
fn game_row(g: &MatchGame, options: &StandingsOptions, tzdraft: bool) -> Vec<String> {
    let started = match (&g.started_by, g.first_mover) {
        (Some(p), Some(side)) => format!("{p} ({})", side_name(side)),
        _ => "unknown".to_string(),
    };
    let mut notes = Vec::new();
    if g.goals > 0 {
        notes.push(count(g.goals as usize, "goal"));
    }
    if options.supa && g.supa {
        notes.push("supa".to_string());
    } else if options.supa && g.winner.is_some() && g.king_appeared.is_none() {
        notes.push("kings unknown".to_string());
    }
    if !g.counted {
        notes.push("not counted".to_string());
    }
    let stage = match (g.stage, tzdraft) {
        (Some(stage), _) => Some(stage),
        (None, false) if g.number > 2 => Some("limboti"),
        (None, _) => None,
    };
    let number = if let (Some(stage), true) = (stage, g.counted) {
        format!("{} {stage}", g.number)
    } else {
        g.number.to_string()
    };
    vec![
        number,
        format!("{} #{}", g.at.file, g.at.game),
        g.at.round.clone().unwrap_or_else(|| "-".into()),
        format!("{} – {}", g.white, g.black),
        g.result.clone(),
        started,
        notes.join(", "),
    ]
}

fn side_name(side: Side) -> &'static str {
    match side {
        Side::White => "White",
        Side::Black => "Black",
    }
}

fn warning_line(w: &Warning) -> String {
    format!("{}: {}", w.kind.name(), w.message)
}

/// The laws line of an Event of `format`.
pub fn laws(options: &StandingsOptions, format: Format) -> String {
    match format {
        Format::Swiss => {
            return "every game is a round's pairing: a win 1 point, a draw 1/2".to_string()
        }
        Format::RoundRobin => return "every game counts: a win 1 point, a draw 1/2".to_string(),
        Format::Tzdraft => {
            let mut laws = "TzDraft's matches: two losses in a row end a match, and so does a \
                            leader after the third game or any later one; a draw never ends \
                            one"
            .to_string();
            if options.supa {
                laws.push_str("; supa wins count 12 goals");
            }
            if options.swap_colours {
                laws.push_str("; players swap colours after every game");
            }
            if options.deadline_passed {
                laws.push_str(
                    "; the round's deadline has passed: an undecided match is a drawn match \
                     (round robin) or won by the player ahead in games (single elimination)",
                );
            }
            return laws;
        }
        _ => {}
    }
    let mut laws = vec!["winner starts the next game"];
    if options.loser_starts {
        laws[0] = "loser starts the next game";
    }
    if options.swap_colours {
        laws.push("players swap colours after every game");
    }
    if options.supa {
        laws.push("supa wins count 12 goals");
    }
    if format.grouped() {
        laws.push("group matches are two games, a level score is a drawn match");
    }
    if options.tiebreak == Tiebreak::Tege {
        laws.push(
            "knock-out matches level after two games: two tie-break games, four tege games, \
             then a golden goal",
        );
    }
    laws.join("; ")
}

/// The line that says why an Event has the format it has, when it was recognised.
pub fn recognised_line(e: &EventView) -> Option<String> {
    e.recognised.as_ref().map(|why| {
        format!(
            "format: {}, recognised: {why} (--format gives another)",
            e.format.name()
        )
    })
}

/// One Event as text (`first`: no blank line before it).
pub fn event_text<W: Write>(
    out: &mut W,
    e: &EventView,
    options: &StandingsOptions,
    first: bool,
) -> std::io::Result<()> {
    if !first {
        writeln!(out)?;
    }
    writeln!(out, "{}", visible(&event_title(e)))?;
    writeln!(out, "  laws: {}", laws(options, e.format))?;
    if let Some(line) = recognised_line(e) {
        writeln!(out, "  {line}")?;
    }
    writeln!(out)?;
    let tzdraft = e.format == Format::Tzdraft;
    for n in 0..e.match_count() {
        let line = match_line(&e.match_header(n));
        writeln!(out, "  Match {}: {}", n + 1, visible(&line))?;
        let header = [
            "game",
            "record",
            "round",
            "White – Black",
            "result",
            "started",
            "",
        ]
        .map(String::from)
        .to_vec();
        table(out, "    ", || {
            std::iter::once(header.clone())
                .chain(e.match_games(n).map(|g| game_row(&g, options, tzdraft)))
        })?;
    }
    if e.groups.is_some() || e.swiss.is_some() || e.round_robin.is_some() || tzdraft {
        formats_text(out, e)?;
    } else if let Some(ko) = &e.knockout {
        writeln!(out)?;
        writeln!(out, "  Ranking (points = opponents eliminated)")?;
        let mut rows = vec![vec![
            "rank".to_string(),
            "player".to_string(),
            "points".to_string(),
            "goals".to_string(),
            "eliminated".to_string(),
            "eliminated by".to_string(),
        ]];
        for r in &ko.ranking {
            rows.push(vec![
                r.rank.to_string(),
                r.name.clone(),
                r.points.to_string(),
                r.goals.to_string(),
                if r.eliminated.is_empty() {
                    "-".to_string()
                } else {
                    r.eliminated.join(", ")
                },
                r.eliminated_by.clone().unwrap_or_else(|| "-".into()),
            ]);
        }
        table(out, "    ", || rows.iter().cloned())?;
        writeln!(
            out,
            "  Champion: {}",
            visible(
                ko.champion
                    .as_deref()
                    .unwrap_or("none yet (some matches are undecided, or several players are in)")
            )
        )?;
    } else {
        writeln!(out)?;
        writeln!(out, "  Players")?;
        // Supa wins only under `--supa`: without it they score nothing.
        let mut header = vec![
            "player".to_string(),
            "matches W-L-U".to_string(),
            "games W-D-L".to_string(),
            "goals".to_string(),
        ];
        if options.supa {
            header.push("supa wins".to_string());
        }
        let mut rows = vec![header];
        for p in &e.players {
            let mut row = vec![
                p.name.clone(),
                format!(
                    "{}-{}-{}",
                    p.matches_won, p.matches_lost, p.matches_undecided
                ),
                format!("{}-{}-{}", p.games_won, p.games_drawn, p.games_lost),
                p.goals.to_string(),
            ];
            if options.supa {
                row.push(p.supa_wins.to_string());
            }
            rows.push(row);
        }
        table(out, "    ", || rows.iter().cloned())?;
    }
    if e.warning_count() > 0 {
        writeln!(out)?;
        writeln!(out, "  Warnings")?;
        for w in e.warnings() {
            writeln!(out, "    {}", visible(&warning_line(&w)))?;
        }
    }
    Ok(())
}

/// The columns of `--csv`.
pub const CSV_HEADER: [&str; 16] = [
    "event",
    "format",
    "rank",
    "player",
    "points",
    "eliminated",
    "eliminated_by",
    "matches",
    "matches_won",
    "matches_lost",
    "matches_undecided",
    "games_won",
    "games_drawn",
    "games_lost",
    "goals",
    "supa_wins",
];

/// One Event's rows of `--csv`.
pub fn csv_rows<W: Write>(out: &mut W, e: &EventView) -> std::io::Result<()> {
    {
        let format = e.format.name();
        // Knockout: in ranking order; otherwise by name.
        let order: Vec<(&str, Option<&RankedPlayer>)> = match &e.knockout {
            Some(ko) => ko
                .ranking
                .iter()
                .map(|r| (r.name.as_str(), Some(r)))
                .collect(),
            None => e.players.iter().map(|p| (p.name.as_str(), None)).collect(),
        };
        let players: HashMap<&str, &PlayerTotals> =
            e.players.iter().map(|p| (p.name.as_str(), p)).collect();
        for (name, ranked) in order {
            let Some(p) = players.get(name) else {
                continue;
            };
            // Text cells through `text_cell`; numbers as they are.
            let text = |t: &str| text_cell(t).into_owned();
            let fields = [
                text(&e.event),
                format.to_string(),
                ranked.map(|r| r.rank.to_string()).unwrap_or_default(),
                text(&p.name),
                ranked.map(|r| r.points.to_string()).unwrap_or_default(),
                text(&ranked.map(|r| r.eliminated.join("; ")).unwrap_or_default()),
                text(
                    ranked
                        .and_then(|r| r.eliminated_by.as_deref())
                        .unwrap_or_default(),
                ),
                p.matches.to_string(),
                p.matches_won.to_string(),
                p.matches_lost.to_string(),
                p.matches_undecided.to_string(),
                p.games_won.to_string(),
                p.games_drawn.to_string(),
                p.games_lost.to_string(),
                p.goals.to_string(),
                p.supa_wins.to_string(),
            ];
            writeln!(out, "{}", fields.join(","))?;
        }
    }
    Ok(())
}
