//! The answers as text for people: the explorer's table, the list of games found, the twins
//! and the index's description; written to a writer the caller hands in.

use crate::json::{ExploreKind, ExploreRow, FoundGame, GameRef, IndexInfo, StatsJson, TwinJson};
use std::io::{self, Write};

fn pct(v: Option<f64>) -> String {
    v.map_or("-".to_string(), |v| format!("{v:.1}"))
}

fn share(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.1}", 100.0 * part as f64 / whole as f64)
    }
}

fn stats_line(s: &StatsJson) -> String {
    format!(
        "{} games: {} 1-0, {} draws, {} 0-1, {} other; first mover scored {}%{}",
        s.games,
        s.white_wins,
        s.draws,
        s.black_wins,
        s.unknown,
        pct(s.score_pct),
        s.avg_rating
            .map_or(String::new(), |r| format!("; average rating {r}"))
    )
}

/// A game in one line: `file #number White – Black result date`.
pub fn game_line(g: &GameRef) -> String {
    let file = if g.file.is_empty() {
        String::new()
    } else {
        format!("{} ", g.file)
    };
    let players = match (g.white.as_str(), g.black.as_str()) {
        ("", "") => String::new(),
        (w, b) => format!(
            "  {} – {}",
            if w.is_empty() { "?" } else { w },
            if b.is_empty() { "?" } else { b }
        ),
    };
    let result = if g.result.is_empty() { "" } else { &g.result };
    let date = if g.date.is_empty() {
        String::new()
    } else {
        format!("  {}", g.date)
    };
    format!("{file}#{}{players}  {result}{date}", g.number)
}

/// The explorer's table: the position, every move with its counts, then each move's games.
pub fn write_explore(out: &mut impl Write, rows: &[ExploreRow]) -> io::Result<()> {
    let Some(pos) = rows.iter().find(|r| r.kind == ExploreKind::Position) else {
        return Ok(());
    };
    writeln!(out, "{} ({})", pos.fen, pos.variant)?;
    for n in &pos.names {
        writeln!(out, "  {} {}: {}", n.book, n.code, n.name)?;
    }
    writeln!(out, "  {}", stats_line(&pos.stats))?;
    let moves: Vec<&ExploreRow> = rows
        .iter()
        .filter(|r| r.kind == ExploreKind::Move)
        .collect();
    if moves.is_empty() {
        writeln!(out, "  no game reached it")?;
        return Ok(());
    }
    writeln!(out)?;
    writeln!(
        out,
        "{:<14} {:>7} {:>6} {:>6} {:>6} {:>6} {:>7} {:>7}  {:<10}  names",
        "move", "games", "%", "1-0", "draws", "0-1", "score%", "rating", "last"
    )?;
    for m in &moves {
        let s = &m.stats;
        let names: Vec<String> = m
            .names
            .iter()
            .map(|n| format!("{} {}", n.book, n.code))
            .collect();
        writeln!(
            out,
            "{:<14} {:>7} {:>6} {:>6} {:>6} {:>6} {:>7} {:>7}  {:<10}  {}",
            m.mv.as_deref().unwrap_or(""),
            s.games,
            share(s.games, pos.stats.games),
            s.white_wins,
            s.draws,
            s.black_wins,
            pct(s.score_pct),
            s.avg_rating.map_or("-".to_string(), |r| r.to_string()),
            s.last_date.as_deref().unwrap_or("-"),
            names.join(", ")
        )?;
    }
    for m in &moves {
        if m.game_list.is_empty() {
            continue;
        }
        writeln!(out)?;
        let more = m.stats.games as usize - m.game_list.len();
        writeln!(
            out,
            "{} ({} game{}{}):",
            m.mv.as_deref().unwrap_or(""),
            m.stats.games,
            if m.stats.games == 1 { "" } else { "s" },
            if more > 0 {
                format!(", the first {}", m.game_list.len())
            } else {
                String::new()
            }
        )?;
        for g in &m.game_list {
            writeln!(out, "  {}", game_line(g))?;
        }
    }
    Ok(())
}

/// A found game in one line, with where the match is.
pub fn write_found(out: &mut impl Write, f: &FoundGame) -> io::Result<()> {
    match (f.ply, &f.fen) {
        (Some(ply), Some(fen)) => writeln!(out, "{}  ply {ply}  {fen}", game_line(&f.game)),
        _ => writeln!(out, "{}", game_line(&f.game)),
    }
}

/// A twin in one line.
pub fn write_twin(out: &mut impl Write, t: &TwinJson) -> io::Result<()> {
    if t.twin == "identical" {
        writeln!(
            out,
            "identical: {}  repeats  {}",
            game_line(&t.game),
            game_line(&t.of)
        )
    } else {
        writeln!(
            out,
            "contained: {} ({} plies)  is the start of  {} ({} plies)",
            game_line(&t.game),
            t.game.plies,
            game_line(&t.of),
            t.of.plies
        )
    }
}

/// What an index holds and what it takes.
pub fn write_info(out: &mut impl Write, info: &IndexInfo) -> io::Result<()> {
    let m = &info.meta;
    writeln!(
        out,
        "drafti index, format {}, written by drafti {}",
        crate::format::VERSION,
        m.drafti
    )?;
    match m.shard {
        Some(s) => writeln!(
            out,
            "part {}/{} of a sharded build: {} of the archive's {} games",
            s.index, s.count, m.games, m.archive_games
        )?,
        None => writeln!(out, "{} games", m.games)?,
    }
    writeln!(
        out,
        "variants: {} tz, {} czech, {} russian{}",
        m.variants[0],
        m.variants[1],
        m.variants[2],
        // TzDraft's reading, only when the index holds such games.
        match m.variants[3] {
            0 => String::new(),
            n => format!(", {n} tzdraft"),
        }
    )?;
    writeln!(
        out,
        "{} positions of the first {} plies{}",
        m.positions,
        m.window,
        if m.single_game_positions {
            " (with those a single game reaches)"
        } else {
            " that two games or more reach"
        }
    )?;
    for i in &m.inputs {
        writeln!(
            out,
            "input {}: {} games, {} bytes, crc32 {:08x}",
            i.name, i.games, i.bytes, i.crc32
        )?;
    }
    writeln!(
        out,
        "{} bytes{}",
        info.bytes,
        info.bytes_per_game
            .map_or(String::new(), |b| format!(", {b} bytes a game"))
    )?;
    for (name, bytes) in &info.sections {
        writeln!(out, "  {name:<16} {bytes:>12}")?;
    }
    Ok(())
}
