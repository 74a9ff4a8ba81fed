//! What a report gathers: each game described once on a worker ([`describe`]:
//! figures, flags, the first positions, its HTML section), then added on the calling thread to
//! a [`Collector`] (health, players, openings, biggest blunders, the index of games).
//!
//! Memory stays flat: a game's positions and analysis live only until it is described; the collector
//! keeps tallies, a short list of the biggest blunders and one index row per game section.

use crate::html;
use crate::pages;
use drafti_analysis::judge::{win_percent, Judgement, SideSummary};
use drafti_analysis::{
    recheck, EndgameTables, GameAnalysis, MoveAnalysis, MoveToCheck, Searcher,
    DEFAULT_BLUNDER_DEPTHS,
};
use drafti_archive::batch::GameJob;
use drafti_archive::openings::{Book, Classification, OpeningStats, CLASSIFY_PLIES};
use drafti_archive::replay::ReplayedGame;
use drafti_engine::Limits;
use drafti_pdn::GameResult;
pub use drafti_rules::move_number;
use drafti_rules::{Color, Position};
use rayon::prelude::*;
use std::collections::HashMap;

/// A single HTML file has sections for the first this-many games (the summary counts them
/// all); `--html-dir` writes every game, in pages.
pub const HTML_GAME_LIMIT: u64 = 5000;

/// How many first errors the summary quotes.
pub const ERRORS_SHOWN: usize = 10;

/// How many of the biggest blunders the summary lists.
pub const BIGGEST_SHOWN: usize = 8;

/// How many of the largest blunders of the run are judged again before the list is made:
/// the list is the biggest of those that hold up.
pub const RECHECKED: usize = 3 * BIGGEST_SHOWN;

/// How a blunder of the summary lists is judged again: a search to this depth…
pub const RECHECK_DEPTH: u32 = 16;

/// …within this many nodes (at least as deep as `drafti analyze`'s own checks: depth 10
/// within 1,000,000 nodes, then depth 16 within 500,000).
pub const RECHECK_NODES: u64 = 1_000_000;

/// What the re-check of the biggest blunders found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Rechecked {
    /// Blunders judged again.
    pub checked: usize,
    /// Of them, still blunders.
    pub held: usize,
}

impl Rechecked {
    /// How the list was checked, for a player.
    pub fn sentence(&self) -> String {
        let (checked, held) = (self.checked, self.held);
        let outcome = match (checked, checked - held) {
            (1, 0) => "it held up".to_string(),
            (1, _) => "it did not hold up and is left out".to_string(),
            (n, 0) => format!("all {n} of the largest held up"),
            (n, 1) => format!("1 of the {n} largest did not hold up and is left out"),
            (n, d) => format!("{d} of the {n} largest did not hold up and are left out"),
        };
        format!(
            "Each blunder here was checked again by a deeper search ({RECHECK_DEPTH} half-moves \
             ahead, up to {} positions) before it was listed: {outcome}.",
            crate::thousands(RECHECK_NODES)
        )
    }
}

/// How the workers treat each game.
pub struct WorkSettings<'a> {
    /// The opening book.
    pub book: &'a Book,
    /// Render the HTML section of the game.
    pub html: bool,
}

/// Whether a game could be read and replayed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// No errors (warnings allowed): analysed.
    Valid,
    /// Replayed up to an error: not analysed.
    Invalid,
    /// Not even parsed.
    Unreadable,
}

/// A flagged move, as the summary lists it.
#[derive(Clone, Debug)]
pub struct FlagBrief {
    /// The anchor of its diagram in the HTML (`g1-17-p23`).
    pub anchor: String,
    /// `corpus/selfplay.pdn game 17`.
    pub game: String,
    /// The player who made the move.
    pub player: String,
    /// Who made it.
    pub mover: Color,
    /// `23... e5-f4??`
    pub text: String,
    /// The mover's win percentage before (best play) and after the move.
    pub before: f64,
    /// After the move.
    pub after: f64,
    /// The best move, in the record's notation.
    pub best: String,
    /// Ordinal of the game in the run (for a stable order among equal drops).
    pub ordinal: u64,
    /// The move and its position, to judge it again.
    pub check: MoveToCheck,
    /// The record writes numeric squares (for the best move's notation).
    pub numeric: bool,
}

impl FlagBrief {
    fn drop(&self) -> f64 {
        self.before - self.after
    }
}

/// What a worker hands to the sink for one game.
pub struct GameOut {
    /// Which input.
    pub file_index: usize,
    /// 0-based number of the game in its input.
    pub index: usize,
    /// The HTML anchor of the game's section.
    pub anchor: String,
    /// Player names (`?` when the tag is missing).
    pub white: String,
    /// Player with the black pieces.
    pub black: String,
    /// The result the record states.
    pub result: Option<GameResult>,
    /// Plies written in the mainline.
    pub plies: usize,
    /// Who moved first.
    pub first_mover: Color,
    /// Valid, invalid or unreadable.
    pub status: Status,
    /// `line:column: message` of the first errors (at most three).
    pub errors: Vec<String>,
    /// Warnings counted.
    pub warnings: usize,
    /// The analysis figures of each side (valid games).
    pub sides: Option<(SideSummary, SideSummary)>,
    /// Positions searched.
    pub positions: usize,
    /// The game's blunders (for the biggest-blunders list).
    pub blunders: Vec<FlagBrief>,
    /// The positions of the first `CLASSIFY_PLIES` plies (for the openings table).
    pub opening_window: Vec<Position>,
    /// The book's name of the game's opening (the index's filter by opening).
    pub opening: Option<String>,
    /// The rendered `<article>` of the game (with `--html`).
    pub html: Option<String>,
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

/// Whether the record is written with square numbers.
pub fn is_numeric(game: &ReplayedGame) -> bool {
    game.record
        .moves
        .nodes
        .first()
        .is_some_and(|n| n.mv.is_numeric())
}

/// The anchor of game `index` (0-based) of input `file_index`.
pub fn game_anchor(file_index: usize, index: usize) -> String {
    format!("g{}-{}", file_index + 1, index + 1)
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
                .then(|| html::unreadable_section(&anchor, job.file, job.raw.index, &error));
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
                opening: None,
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
            blunders.push(html::brief(
                &game, m, check, &anchor, &label, &white, &black,
            ));
        }
    }
    let html = settings.html.then(|| {
        html::game_section(&html::GameView {
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
        opening: classified.map(|c| c.entry.name.to_string()),
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

/// One player's figures over the games analysed.
#[derive(Clone, Debug, Default)]
pub struct PlayerTally {
    /// Games analysed.
    pub games: u64,
    /// Moves judged.
    pub moves: u64,
    /// Inaccuracies.
    pub inaccuracies: u64,
    /// Mistakes.
    pub mistakes: u64,
    /// Blunders.
    pub blunders: u64,
    /// Sum of game accuracies (for the mean).
    accuracy_sum: f64,
    /// Games with an accuracy.
    accuracy_games: u64,
    /// Points scored (win 1, draw ½) in games with a result.
    pub points: f64,
    /// Games with a result.
    pub decided: u64,
}

impl PlayerTally {
    fn add(&mut self, side: &SideSummary, points: Option<f64>) {
        self.games += 1;
        self.moves += side.moves as u64;
        self.inaccuracies += side.inaccuracies as u64;
        self.mistakes += side.mistakes as u64;
        self.blunders += side.blunders as u64;
        if let Some(a) = side.accuracy {
            self.accuracy_sum += a;
            self.accuracy_games += 1;
        }
        if let Some(p) = points {
            self.points += p;
            self.decided += 1;
        }
    }

    /// The mean game accuracy.
    pub fn accuracy(&self) -> Option<f64> {
        (self.accuracy_games > 0).then(|| self.accuracy_sum / self.accuracy_games as f64)
    }

    /// Blunders per 100 moves.
    pub fn blunder_rate(&self) -> Option<f64> {
        (self.moves > 0).then(|| 100.0 * self.blunders as f64 / self.moves as f64)
    }

    /// Score in percent of the games with a result.
    pub fn score_pct(&self) -> Option<f64> {
        (self.decided > 0).then(|| 100.0 * self.points / self.decided as f64)
    }
}

/// A game listed in the summary because of an error.
#[derive(Clone, Debug)]
pub struct ErrorBrief {
    /// `file game N`.
    pub game: String,
    /// The HTML anchor of the game.
    pub anchor: String,
    /// The first error.
    pub error: String,
}

/// One row of the HTML index of games.
#[derive(Clone, Debug)]
pub struct IndexRow {
    /// Anchor of the game's section.
    pub anchor: String,
    /// `file #N`.
    pub label: String,
    /// White player.
    pub white: String,
    /// Black player.
    pub black: String,
    /// Result text.
    pub result: String,
    /// Plies.
    pub plies: usize,
    /// Blunders and mistakes of both sides (None: not analysed).
    pub flags: Option<(usize, usize)>,
    /// Valid, invalid or unreadable.
    pub status: Status,
    /// The page that holds the section in a paged report (`games-0001.html`).
    pub page: Option<String>,
    /// The book's name of its opening.
    pub opening: Option<String>,
}

/// Everything the sink gathers.
pub struct Collector<'b> {
    /// Input names, in order.
    pub names: Vec<String>,
    /// Games seen.
    pub games: u64,
    /// Games seen in each input.
    pub games_per_input: Vec<u64>,
    /// Valid games.
    pub valid: u64,
    /// Invalid games (replayed up to an error).
    pub invalid: u64,
    /// Unreadable games.
    pub unreadable: u64,
    /// Warnings in all games.
    pub warnings: u64,
    /// Plies written in all games.
    pub plies: u64,
    /// Positions searched.
    pub positions: u64,
    /// The first games with errors.
    pub errors: Vec<ErrorBrief>,
    /// Totals of both sides of all analysed games.
    pub totals: PlayerTally,
    /// Per player (by the White/Black tags).
    pub players: HashMap<String, PlayerTally>,
    /// The openings table.
    pub openings: OpeningStats<'b>,
    /// The biggest blunders (largest drop first).
    pub biggest: Vec<FlagBrief>,
    /// What the re-check of the biggest blunders found, once made.
    pub rechecked: Option<Rechecked>,
    /// Index rows of the games with an HTML section.
    pub index: Vec<IndexRow>,
    /// Game sections go to pages (`--html-dir`): every game has one, and links name pages.
    pub paged: bool,
}

impl<'b> Collector<'b> {
    /// An empty collector over `names` and `book`.
    pub fn new(names: Vec<String>, book: &'b Book) -> Collector<'b> {
        Collector {
            games_per_input: vec![0; names.len()],
            names,
            games: 0,
            valid: 0,
            invalid: 0,
            unreadable: 0,
            warnings: 0,
            plies: 0,
            positions: 0,
            errors: Vec::new(),
            totals: PlayerTally::default(),
            players: HashMap::new(),
            openings: OpeningStats::new(book, 0),
            biggest: Vec::new(),
            rechecked: None,
            index: Vec::new(),
            paged: false,
        }
    }

    /// Adds one game; returns its HTML section if it is to be written.
    pub fn add(&mut self, g: GameOut) -> Option<String> {
        self.games += 1;
        self.games_per_input[g.file_index] += 1;
        let label = format!("{} game {}", self.names[g.file_index], g.index + 1);
        match g.status {
            Status::Valid => self.valid += 1,
            Status::Invalid => self.invalid += 1,
            Status::Unreadable => self.unreadable += 1,
        }
        self.warnings += g.warnings as u64;
        self.plies += g.plies as u64;
        self.positions += g.positions as u64;
        if g.status != Status::Valid && self.errors.len() < ERRORS_SHOWN {
            self.errors.push(ErrorBrief {
                game: label.clone(),
                anchor: g.anchor.clone(),
                error: g.errors.first().cloned().unwrap_or_default(),
            });
        }
        if g.status != Status::Unreadable {
            self.openings
                .add_game(&g.opening_window, g.first_mover, g.result, g.plies);
        }
        if let Some((white, black)) = &g.sides {
            let points = |color: Color| match g.result {
                Some(GameResult::WhiteWin) => Some(if color == Color::White { 1.0 } else { 0.0 }),
                Some(GameResult::BlackWin) => Some(if color == Color::Black { 1.0 } else { 0.0 }),
                Some(GameResult::Draw) => Some(0.5),
                _ => None,
            };
            for (name, side, color) in [
                (&g.white, white, Color::White),
                (&g.black, black, Color::Black),
            ] {
                self.players
                    .entry(name.clone())
                    .or_default()
                    .add(side, points(color));
                self.totals.add(side, None);
            }
            self.totals.games -= 1; // two sides, one game
        }
        for b in g.blunders {
            self.biggest.push(FlagBrief {
                ordinal: self.games,
                ..b
            });
        }
        if self.biggest.len() > 2 * RECHECKED {
            self.trim_biggest(RECHECKED);
        }
        if g.html.is_some() && (self.paged || self.games <= HTML_GAME_LIMIT) {
            let flags = g
                .sides
                .map(|(w, b)| (w.blunders + b.blunders, w.mistakes + b.mistakes));
            self.index.push(IndexRow {
                anchor: g.anchor,
                label: format!("{} #{}", short_name(&self.names[g.file_index]), g.index + 1),
                white: g.white,
                black: g.black,
                result: g.result.map_or("*", |r| r.as_str()).to_string(),
                plies: g.plies,
                flags,
                status: g.status,
                page: self.paged.then(|| pages::page_of(self.index.len())),
                opening: g.opening,
            });
            return g.html;
        }
        None
    }

    fn trim_biggest(&mut self, keep: usize) {
        self.biggest.sort_by(|a, b| {
            b.drop()
                .total_cmp(&a.drop())
                .then(a.ordinal.cmp(&b.ordinal))
                .then(a.anchor.cmp(&b.anchor))
        });
        self.biggest.truncate(keep);
    }

    /// Judges the [`RECHECKED`] largest blunders again, each alone to [`RECHECK_DEPTH`]
    /// within [`RECHECK_NODES`] (with `tables`), on rayon's current pool: the ones that are
    /// still blunders keep their place, with the deeper search's figures and best move; the
    /// others leave the list. The result depends only on the moves, never on the threads.
    pub fn recheck_biggest(&mut self, tables: &EndgameTables) {
        if self.rechecked.is_some() {
            return;
        }
        self.trim_biggest(RECHECKED);
        let limits = Limits {
            depth: Some(RECHECK_DEPTH),
            nodes: Some(RECHECK_NODES),
            ..Limits::default()
        };
        let again: Vec<MoveAnalysis> = self
            .biggest
            .par_iter()
            .with_max_len(1)
            .map(|b| recheck(&b.check, &limits, DEFAULT_BLUNDER_DEPTHS, tables))
            .collect();
        let checked = self.biggest.len();
        let mut held = Vec::with_capacity(checked);
        for (mut b, m) in std::mem::take(&mut self.biggest).into_iter().zip(again) {
            if m.judgement() != Some(Judgement::Blunder) {
                continue;
            }
            b.before = win_percent(m.verdict.wc_before);
            b.after = win_percent(m.verdict.wc_after);
            if let Some(best) = m.best {
                let legal = b.check.position().legal_moves(b.check.variant());
                b.best = best.notation(&legal, b.numeric);
            }
            held.push(b);
        }
        self.rechecked = Some(Rechecked {
            checked,
            held: held.len(),
        });
        self.biggest = held;
        self.trim_biggest(BIGGEST_SHOWN);
    }

    /// The biggest blunders, largest drop of win percentage first (those that held up, once
    /// [`Collector::recheck_biggest`] has run).
    pub fn biggest_blunders(&mut self) -> &[FlagBrief] {
        self.trim_biggest(BIGGEST_SHOWN);
        &self.biggest
    }

    /// Players, most games first (then by name).
    pub fn players_sorted(&self) -> Vec<(&String, &PlayerTally)> {
        let mut players: Vec<_> = self.players.iter().collect();
        players.sort_by(|a, b| b.1.games.cmp(&a.1.games).then(a.0.cmp(b.0)));
        players
    }
}

/// The file name without its folders (`corpus/selfplay.pdn` → `selfplay.pdn`).
pub fn short_name(name: &str) -> &str {
    name.rsplit(['/', '\\']).next().unwrap_or(name)
}
