//! One game described on a worker ([`describe`]): what the summary gathers of it (figures,
//! flags, the first positions) and, with HTML, its section, rendered while the game and its
//! analysis are at hand; the sink adds the result to a [`Collector`](crate::collect::Collector).

use crate::collect::{game_anchor, is_numeric, move_anchor, FlagBrief, GameOut, Status};
use crate::html::game::{game_section, unreadable_section, GameView};
use drafti_analysis::judge::{win_percent, Judgement};
use drafti_analysis::{GameAnalysis, MoveAnalysis, MoveToCheck, Searcher};
use drafti_archive::batch::GameJob;
use drafti_archive::openings::{Book, Classification, CLASSIFY_PLIES};
use drafti_archive::replay::ReplayedGame;
use drafti_rules::{move_number, Color};

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
                opening_window: Vec::new(),
                html,
            };
        }
    };
    let valid = game.is_valid();
    let analysis: Option<GameAnalysis> = valid.then(|| analyse(&game));
    let window = game.positions.len().min(CLASSIFY_PLIES + 1);
    let opening = settings
        .book
        .classify(&game.positions[..window], game.first_mover)
        .map(|c| opening_as_played(&game, &c));
    let white = tag_or_unknown(&game, "White");
    let black = tag_or_unknown(&game, "Black");
    let label = format!("{} game {}", job.file, job.raw.index + 1);
    let mut blunders = Vec::new();
    if let Some(a) = &analysis {
        let mut searcher = None;
        for m in a.flagged() {
            if m.judgement() != Some(Judgement::Blunder) {
                continue;
            }
            let check = searcher
                .get_or_insert_with(|| Searcher::new(&game))
                .move_to_check(m.ply - 1);
            blunders.push(brief(&game, m, check, &anchor, &label, &white, &black));
        }
    }
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
    GameOut {
        file_index: job.file_index,
        index: job.raw.index,
        anchor,
        result: game.played_result(),
        plies: game.record.moves.nodes.len(),
        first_mover: game.first_mover,
        status: if valid {
            Status::Valid
        } else {
            Status::Invalid
        },
        errors,
        warnings: game.warnings().count(),
        sides: analysis.as_ref().map(|a| (a.white, a.black)),
        positions: analysis.as_ref().map_or(0, |a| a.positions),
        blunders,
        opening_window: game.positions[..window].to_vec(),
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

/// The summary's record of a flagged move.
fn brief(
    game: &ReplayedGame,
    m: &MoveAnalysis,
    check: MoveToCheck,
    anchor: &str,
    label: &str,
    white: &str,
    black: &str,
) -> FlagBrief {
    let before = &game.positions[m.ply - 1];
    let legal = before.legal_moves(game.variant);
    let numeric = is_numeric(game);
    let symbol = m.judgement().map_or("", |j| j.symbol());
    FlagBrief {
        anchor: move_anchor(anchor, m.ply),
        game: label.to_string(),
        player: match m.mover {
            Color::White => white.to_string(),
            Color::Black => black.to_string(),
        },
        mover: m.mover,
        text: format!(
            "{} {}{}",
            move_number(game.first_mover, m.ply),
            game.record.moves.nodes[m.ply - 1].mv.text,
            symbol
        ),
        before: win_percent(m.verdict.wc_before),
        after: win_percent(m.verdict.wc_after),
        best: m
            .best
            .map(|b| b.notation(&legal, numeric))
            .unwrap_or_default(),
        ordinal: 0,
        check,
        numeric,
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
