//! The championship formats of `drafti standings` as text and CSV: the group tables (with
//! their scoring and tie-break order stated), the knock-out tree, the round-robin table,
//! the Swiss ranking and TzDraft's tournaments (a tree, or a table ranked by match wins).

use super::table::table;
use crate::visible;
use drafti_archive::csv::text_cell;
use drafti_archive::standings::{
    Bracket, EventView, GroupTable, MatchPoints, ScoreRow, TableRules, TieBreak, Tzdraft,
    TzdraftRow, GROUP_TIEBREAKS, ROUND_ROBIN_TIEBREAKS, SWISS_TIEBREAKS,
};
use std::collections::HashMap;
use std::io::Write;

/// `win 3, draw 1, loss 0`.
pub fn points_words(p: &MatchPoints) -> String {
    format!("win {}, draw {}, loss {}", p.win, p.draw, p.loss)
}

/// `points, goal difference, goals for, head to head, then a shared rank`.
pub fn tiebreak_words(order: &[TieBreak]) -> String {
    let words: Vec<&str> = order.iter().map(|t| t.words()).collect();
    format!("{}, then a shared rank", words.join(", "))
}

/// `+3`, `0`, `-2`.
pub fn signed(n: i64) -> String {
    if n > 0 {
        format!("+{n}")
    } else {
        n.to_string()
    }
}

/// The note of a row: qualified, and how it was told apart from the row above when the
/// points did not.
pub fn row_note(qualified: bool, tiebreak: Option<TieBreak>) -> String {
    let mut notes = Vec::new();
    if qualified {
        notes.push("qualified".to_string());
    }
    match tiebreak {
        None | Some(TieBreak::Points) => {}
        Some(TieBreak::Shared) => notes.push("shared rank".to_string()),
        Some(t) => notes.push(format!("tie-break: {}", t.words())),
    }
    notes.join(", ")
}

/// The heading of a group table.
pub fn group_heading(g: &GroupTable, rules: &TableRules) -> String {
    let mut heading = format!(
        "Group {} ({}; ranked by {}",
        g.group,
        points_words(&rules.points),
        tiebreak_words(&GROUP_TIEBREAKS)
    );
    match rules.qualifiers {
        0 => {}
        1 => heading.push_str("; 1 qualifies"),
        n => heading.push_str(&format!("; {n} qualify")),
    }
    heading.push(')');
    heading
}

/// The cells of a group table's row, after its header.
pub fn group_cells(g: &GroupTable) -> Vec<Vec<String>> {
    let header = [
        "#", "player", "P", "W", "D", "L", "GF", "GA", "GD", "Pts", "",
    ];
    let mut rows = vec![header.map(String::from).to_vec()];
    for r in &g.rows {
        rows.push(vec![
            r.rank.to_string(),
            r.name.clone(),
            r.played.to_string(),
            r.won.to_string(),
            r.drawn.to_string(),
            r.lost.to_string(),
            r.goals_for.to_string(),
            r.goals_against.to_string(),
            signed(r.goal_difference),
            r.points.to_string(),
            row_note(r.qualified, r.tiebreak),
        ]);
    }
    rows
}

/// The lines under a group table: matches still to finish, a shared last qualifying place.
pub fn group_notes(g: &GroupTable) -> Vec<String> {
    let mut notes = Vec::new();
    if g.matches_played < g.matches_scheduled {
        notes.push(format!(
            "{} of {} group matches finished",
            g.matches_played, g.matches_scheduled
        ));
    }
    if g.tie_at_cut {
        notes.push(
            "the last qualifying place is a shared rank: the tables cannot tell who goes through \
             (those players are not marked)"
                .to_string(),
        );
    }
    notes
}

/// A match of the knock-out tree in words.
pub fn bracket_line(m: &drafti_archive::standings::BracketMatch) -> String {
    let verdict = match &m.winner {
        Some(w) => format!("{w} wins"),
        None => "undecided".to_string(),
    };
    format!(
        "Match {}: {} – {}: {}-{}; {verdict}",
        m.number, m.players[0], m.players[1], m.score[0], m.score[1]
    )
}

/// The heading of a Swiss ranking.
pub fn swiss_heading() -> String {
    format!(
        "Ranking (win 1, draw 1/2 a game; ranked by {})",
        tiebreak_words(&SWISS_TIEBREAKS)
    )
}

/// The heading of a round-robin table.
pub fn round_robin_heading() -> String {
    format!(
        "Table (win 1, draw 1/2 a game; ranked by {})",
        tiebreak_words(&ROUND_ROBIN_TIEBREAKS)
    )
}

/// A Swiss ranking's or a round-robin table's cells, header first: the tie-break columns
/// the rows have (Buchholz and cut-1, or Sonneborn-Berger).
pub fn score_cells(rows: &[ScoreRow]) -> Vec<Vec<String>> {
    let swiss = rows.iter().any(|r| r.buchholz.is_some());
    let berger = rows.iter().any(|r| r.sonneborn_berger.is_some());
    let mut header = vec!["#", "player", "games", "W", "D", "L", "points"];
    if swiss {
        header.extend(["Buchholz", "cut-1"]);
    }
    if berger {
        header.push("S-B");
    }
    header.push("");
    let mut cells = vec![header.into_iter().map(String::from).collect::<Vec<_>>()];
    let shown = |v: Option<String>| v.unwrap_or_default();
    for r in rows {
        let mut row = vec![
            r.rank.to_string(),
            r.name.clone(),
            r.games.to_string(),
            r.won.to_string(),
            r.drawn.to_string(),
            r.lost.to_string(),
            r.points.to_string(),
        ];
        if swiss {
            row.push(shown(r.buchholz.map(|b| b.to_string())));
            row.push(shown(r.buchholz_cut1.map(|b| b.to_string())));
        }
        if berger {
            row.push(shown(r.sonneborn_berger.map(|b| b.to_string())));
        }
        row.push(row_note(false, r.tiebreak));
        cells.push(row);
    }
    cells
}

/// The heading of a TzDraft tournament's table or tree.
pub fn tzdraft_heading(t: &Tzdraft) -> String {
    match &t.table {
        Some(_) => format!(
            "Round robin (TzDraft: match {}; ranked by {})",
            points_words(&t.points),
            tiebreak_words(&t.tiebreaks)
        ),
        None => "Single elimination (TzDraft: the loser of a match is out)".to_string(),
    }
}

/// A TzDraft round-robin table's cells, header first.
pub fn tzdraft_cells(rows: &[TzdraftRow]) -> Vec<Vec<String>> {
    let header = [
        "#",
        "player",
        "matches",
        "W",
        "D",
        "L",
        "unfinished",
        "games W-D-L",
        "+/-",
        "points",
        "",
    ];
    let mut cells = vec![header.map(String::from).to_vec()];
    for r in rows {
        cells.push(vec![
            r.rank.to_string(),
            r.name.clone(),
            r.played.to_string(),
            r.won.to_string(),
            r.drawn.to_string(),
            r.lost.to_string(),
            r.unfinished.to_string(),
            format!("{}-{}-{}", r.games_won, r.games_drawn, r.games_lost),
            signed(r.game_difference),
            r.points.to_string(),
            row_note(false, r.tiebreak),
        ]);
    }
    cells
}

/// The players still in a single elimination, in words.
pub fn still_in_line(names: &[String]) -> String {
    match names {
        [] => "Still in: nobody".to_string(),
        names => format!("Still in: {}", names.join(", ")),
    }
}

fn bracket_text<W: Write>(out: &mut W, b: &Bracket) -> std::io::Result<()> {
    writeln!(out)?;
    writeln!(out, "  Knock-out")?;
    if b.rounds.is_empty() {
        writeln!(out, "    no knock-out matches yet")?;
    }
    for round in &b.rounds {
        writeln!(out, "    {}", round.name)?;
        for m in &round.matches {
            writeln!(out, "      {}", visible(&bracket_line(m)))?;
        }
    }
    writeln!(
        out,
        "  Champion: {}",
        visible(
            b.champion
                .as_deref()
                .unwrap_or("none yet (no decided final)")
        )
    )
}

/// The tables of a group or Swiss Event, after its matches.
pub(crate) fn formats_text<W: Write>(out: &mut W, e: &EventView) -> std::io::Result<()> {
    if let (Some(groups), Some(rules)) = (&e.groups, &e.table_rules) {
        for g in groups {
            writeln!(out)?;
            writeln!(out, "  {}", visible(&group_heading(g, rules)))?;
            let cells = group_cells(g);
            table(out, "    ", || cells.iter().cloned())?;
            for note in group_notes(g) {
                writeln!(out, "    {note}")?;
            }
        }
    }
    // A single elimination is its tree (below).
    if let Some((t, rows)) = e
        .tzdraft
        .as_ref()
        .and_then(|t| Some((t, t.table.as_ref()?)))
    {
        writeln!(out)?;
        writeln!(out, "  {}", tzdraft_heading(t))?;
        let cells = tzdraft_cells(rows);
        table(out, "    ", || cells.iter().cloned())?;
    }
    if let Some(b) = &e.bracket {
        bracket_text(out, b)?;
    }
    if let Some(names) = e.tzdraft.as_ref().and_then(|t| t.still_in.as_ref()) {
        writeln!(out, "  {}", visible(&still_in_line(names)))?;
    }
    // Swiss and round-robin Events have no matches: the blank line after the laws is there
    // already.
    for (heading, rows) in [
        (swiss_heading(), &e.swiss),
        (round_robin_heading(), &e.round_robin),
    ] {
        if let Some(rows) = rows {
            writeln!(out, "  {heading}")?;
            let cells = score_cells(rows);
            table(out, "    ", || cells.iter().cloned())?;
        }
    }
    Ok(())
}

/// The columns of `--csv` when some Event is not of the article's matches or knockout: one
/// row per player per group or stage (`group`, `knockout`, `swiss`, `round-robin`, and for
/// an Event of matches, `matches`).
pub const FORMATS_CSV_HEADER: [&str; 19] = [
    "event",
    "format",
    "stage",
    "group",
    "rank",
    "player",
    "played",
    "won",
    "drawn",
    "lost",
    "goals_for",
    "goals_against",
    "goal_difference",
    "points",
    "buchholz",
    "buchholz_cut1",
    "tiebreak",
    "qualified",
    "sonneborn_berger",
];

/// A player's knock-out: matches played, won, lost, goals, the last round reached.
#[derive(Default)]
struct KnockoutLine {
    played: u32,
    won: u32,
    lost: u32,
    goals_for: u32,
    goals_against: u32,
    round: usize,
    round_name: String,
    /// Still in: won the last match played (or it is undecided).
    alive: bool,
}

fn knockout_lines(b: &Bracket) -> Vec<(String, KnockoutLine)> {
    let mut lines: Vec<(String, KnockoutLine)> = Vec::new();
    let mut line_of: HashMap<&str, usize> = HashMap::new();
    for (r, round) in b.rounds.iter().enumerate() {
        for m in &round.matches {
            for side in 0..2 {
                let name = &m.players[side];
                let at = *line_of.entry(name).or_insert_with(|| {
                    lines.push((name.clone(), KnockoutLine::default()));
                    lines.len() - 1
                });
                let l = &mut lines[at].1;
                l.played += 1;
                l.goals_for += m.goals[side];
                l.goals_against += m.goals[1 - side];
                l.round = r;
                l.round_name = round.name.clone();
                l.alive = match &m.winner {
                    Some(w) if w == name => {
                        l.won += 1;
                        true
                    }
                    Some(_) => {
                        l.lost += 1;
                        false
                    }
                    None => true,
                };
            }
        }
    }
    // Further first; the champion (alive after the last round) before its finalist.
    lines.sort_by(|a, b| {
        (b.1.round, b.1.alive)
            .cmp(&(a.1.round, a.1.alive))
            .then(a.0.cmp(&b.0))
    });
    lines
}

/// One Event's rows of `--csv` for the group and Swiss formats.
pub fn formats_csv_rows<W: Write>(out: &mut W, e: &EventView) -> std::io::Result<()> {
    let format = e.format.name();
    // Text cells go through `text_cell` where they are made; numbers are written as they are.
    let text = |t: &str| text_cell(t).into_owned();
    let event = text(&e.event);
    let mut write =
        |fields: Vec<String>| -> std::io::Result<()> { writeln!(out, "{}", fields.join(",")) };
    for g in e.groups.iter().flatten() {
        for r in &g.rows {
            write(vec![
                event.clone(),
                format.into(),
                "group".into(),
                text(&g.group),
                r.rank.to_string(),
                text(&r.name),
                r.played.to_string(),
                r.won.to_string(),
                r.drawn.to_string(),
                r.lost.to_string(),
                r.goals_for.to_string(),
                r.goals_against.to_string(),
                r.goal_difference.to_string(),
                r.points.to_string(),
                String::new(),
                String::new(),
                r.tiebreak.map(|t| t.name().to_string()).unwrap_or_default(),
                r.qualified.to_string(),
                String::new(),
            ])?;
        }
    }
    if let Some(b) = &e.bracket {
        let lines = knockout_lines(b);
        // Players out in the same round share a rank: the place of the first of them (the
        // lines are in that order).
        let mut rank = 0;
        for (i, (name, l)) in lines.iter().enumerate() {
            if i == 0 || (lines[i - 1].1.round, lines[i - 1].1.alive) != (l.round, l.alive) {
                rank = i + 1;
            }
            write(vec![
                event.clone(),
                format.into(),
                "knockout".into(),
                text(&l.round_name),
                rank.to_string(),
                text(name),
                l.played.to_string(),
                l.won.to_string(),
                "0".into(),
                l.lost.to_string(),
                l.goals_for.to_string(),
                l.goals_against.to_string(),
                (i64::from(l.goals_for) - i64::from(l.goals_against)).to_string(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ])?;
        }
    }
    let swiss = e.swiss.iter().flatten().map(|r| ("swiss", r));
    let round_robin = e.round_robin.iter().flatten().map(|r| ("round-robin", r));
    for (stage, r) in swiss.chain(round_robin) {
        let shown = |v: Option<String>| v.unwrap_or_default();
        write(vec![
            event.clone(),
            format.into(),
            stage.into(),
            String::new(),
            r.rank.to_string(),
            text(&r.name),
            r.games.to_string(),
            r.won.to_string(),
            r.drawn.to_string(),
            r.lost.to_string(),
            String::new(),
            String::new(),
            String::new(),
            r.points.to_string(),
            shown(r.buchholz.map(|b| b.to_string())),
            shown(r.buchholz_cut1.map(|b| b.to_string())),
            r.tiebreak.map(|t| t.name().to_string()).unwrap_or_default(),
            String::new(),
            shown(r.sonneborn_berger.map(|b| b.to_string())),
        ])?;
    }
    for r in e.tzdraft.iter().flat_map(|t| t.table.iter().flatten()) {
        write(vec![
            event.clone(),
            format.into(),
            "round-robin".into(),
            String::new(),
            r.rank.to_string(),
            text(&r.name),
            r.played.to_string(),
            r.won.to_string(),
            r.drawn.to_string(),
            r.lost.to_string(),
            r.games_won.to_string(),
            r.games_lost.to_string(),
            r.game_difference.to_string(),
            r.points.to_string(),
            String::new(),
            String::new(),
            r.tiebreak.map(|t| t.name().to_string()).unwrap_or_default(),
            String::new(),
            String::new(),
        ])?;
    }
    if e.groups.is_none() && e.swiss.is_none() && e.round_robin.is_none() && e.tzdraft.is_none() {
        // An Event of matches (or a knockout) among Events of other formats: its players'
        // matches; under a knockout, its ranking and points (opponents eliminated).
        let ranked: HashMap<&str, (usize, u32)> = e
            .knockout
            .iter()
            .flat_map(|k| &k.ranking)
            .map(|r| (r.name.as_str(), (r.rank, r.points)))
            .collect();
        for p in &e.players {
            let rank = ranked.get(p.name.as_str());
            write(vec![
                event.clone(),
                format.into(),
                "matches".into(),
                String::new(),
                rank.map(|r| r.0.to_string()).unwrap_or_default(),
                text(&p.name),
                p.matches.to_string(),
                p.matches_won.to_string(),
                p.matches_drawn.to_string(),
                p.matches_lost.to_string(),
                p.goals.to_string(),
                String::new(),
                String::new(),
                rank.map(|r| r.1.to_string()).unwrap_or_default(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            ])?;
        }
    }
    Ok(())
}
