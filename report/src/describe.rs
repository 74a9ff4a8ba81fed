//! One game described on a worker ([`describe`]): what the summary gathers of it (figures,
//! flags, the first positions) and, with HTML, its section, rendered while the game and its
//! analysis are at hand; the sink adds the result to a [`Collector`](crate::collect::Collector).

use crate::collect::{game_anchor, FlagBrief, GameOut, HeldGame, Status};
use crate::html::game::{game_section, unreadable_section, GameView};
use drafti_analysis::judge::Judgement;
use drafti_analysis::GameAnalysis;
use drafti_archive::batch::GameJob;
use drafti_archive::openings::{Book, Classification, CLASSIFY_PLIES};
use drafti_archive::replay::ReplayedGame;
use drafti_rules::Color;

/// How the workers treat each game.
pub struct WorkSettings<'a> {
    /// The opening book.
    pub book: &'a Book,
    /// Render the HTML section of the game.
    pub html: bool,
}

/// Everything about one game that the summary and the HTML need, with `analyse` giving the
/// analysis of a valid game (a search, or the numbers of `drafti analyze --json`).
pub fn describe(
    job: GameJob<'_>,
    settings: &WorkSettings<'_>,
    analyse: impl FnOnce(&ReplayedGame) -> GameAnalysis,
) -> GameOut {
    let anchor = game_anchor(job.file_index, job.raw.index);
    let game = match job.game {
        Ok(game) => game,
        Err(e) => {
            let error = format!("{}:{}: {}", e.span.line, e.span.column, e.message);
            let html = settings
                .html
                .then(|| unreadable_section(&anchor, job.file, job.raw.index, &error));
            return GameOut {
                file_index: job.file_index,
                index: job.raw.index,
                anchor,
                white: "?".to_string(),
                black: "?".to_string(),
                result: None,
                plies: 0,
                first_mover: Color::White,
                status: Status::Unreadable,
                errors: vec![error],
                warnings: 0,
                sides: None,
                positions: 0,
                blunders: Vec::new(),
                held: None,
                opening_window: Vec::new(),
                opening_name: None,
                html,
            };
        }
    };
    let valid = game.is_valid();
    let analysis: Option<GameAnalysis> = valid.then(|| analyse(&game));
    let window = game.positions.len().min(CLASSIFY_PLIES + 1);
    let classified = settings
        .book
        .classify(&game.positions[..window], game.first_mover);
    let opening = classified.as_ref().map(|c| opening_as_played(&game, c));
    let opening_name = classified.map(|c| c.entry.name.to_string());
    let white = tag_or_unknown(&game, "White");
    let black = tag_or_unknown(&game, "Black");
    let label = format!("{} game {}", job.file, job.raw.index + 1);
    let blunders: Vec<FlagBrief> = analysis
        .iter()
        .flat_map(|a| a.flagged())
        .filter(|m| m.judgement() == Some(Judgement::Blunder))
        .map(|m| FlagBrief::of(&game, m, &anchor, &label, &white, &black))
        .collect();
    let html = settings.html.then(|| {
        game_section(&GameView {
            anchor: &anchor,
            file: job.file,
            index: job.raw.index,
            game: &game,
            analysis: analysis.as_ref(),
            opening: opening.as_deref(),
            white: &white,
            black: &black,
        })
    });
    let errors: Vec<String> = game
        .errors()
        .take(3)
        .map(|p| format!("{}:{}: {}", p.span.line, p.span.column, p.message))
        .collect();
    let sides = analysis.as_ref().map(|a| (a.white, a.black));
    let positions = analysis.as_ref().map_or(0, |a| a.positions);
    let opening_window = game.positions[..window].to_vec();
    let (result, plies, first_mover) = (
        game.played_result(),
        game.record.moves.nodes.len(),
        game.first_mover,
    );
    let warnings = game.warnings().count();
    // A game with a blunder the summary may list is kept, to be judged again and shown anew.
    let held = match analysis {
        Some(analysis) if !blunders.is_empty() => Some(Box::new(HeldGame {
            game,
            analysis,
            file: job.file.to_string(),
            index: job.raw.index,
            anchor: anchor.clone(),
            opening,
            white: white.clone(),
            black: black.clone(),
            section: None,
        })),
        _ => None,
    };
    GameOut {
        file_index: job.file_index,
        index: job.raw.index,
        anchor,
        result,
        plies,
        first_mover,
        status: if valid {
            Status::Valid
        } else {
            Status::Invalid
        },
        errors,
        warnings,
        sides,
        positions,
        blunders,
        held,
        opening_window,
        opening_name,
        html,
        white,
        black,
    }
}

/// A game's opening in its own moves and notation: the book's name when it has one, and the
/// plies that reached the book's position as the record writes them (a Black-first game's
/// moves, not the mirrored line the book is keyed by).
pub fn opening_as_played(game: &ReplayedGame, c: &Classification<'_>) -> String {
    let line: Vec<&str> = game.record.moves.nodes[..c.ply]
        .iter()
        .map(|n| n.mv.text.as_ref())
        .collect();
    let line = line.join(" ");
    let plies = if c.ply == 1 { "ply" } else { "plies" };
    // The systematic book names each position by its line: `c3-d4 d6-e5 (2 plies)`.
    if c.entry
        .name
        .ends_with(&format!(" ({} plies)", c.entry.plies))
    {
        format!("{line} ({} {plies})", c.ply)
    } else {
        format!("{} ({line})", c.entry.name)
    }
}

/// A tag's value, or `?` when it is missing or empty.
pub fn tag_or_unknown(game: &ReplayedGame, name: &str) -> String {
    game.record
        .tag(name)
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .unwrap_or("?")
        .to_string()
}

/// The section of a game kept for the re-check, made from its analysis as the re-check left
/// it (what `describe` made of the game before, with the new verdicts).
pub fn held_section(h: &HeldGame) -> String {
    game_section(&GameView {
        anchor: &h.anchor,
        file: &h.file,
        index: h.index,
        game: &h.game,
        analysis: Some(&h.analysis),
        opening: h.opening.as_deref(),
        white: &h.white,
        black: &h.black,
    })
}
