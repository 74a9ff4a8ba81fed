//! What a report gathers: each game described once on a worker
//! ([`describe`](crate::describe::describe): figures, flags, the first positions, its HTML
//! section), then added on the calling thread to a [`Collector`] (health, players, openings,
//! biggest blunders, the index of games); where each game's section and board are.
//!
//! Memory stays flat: a game's positions and analysis live only until it is described; the
//! collector keeps tallies, a short list of the biggest blunders (with their games, until they
//! are judged again), one index row and the length of each game section.
//!
//! The largest blunders are judged again by a deeper search before the summary lists them
//! ([`Collector::blunders_to_recheck`], `drafti_analysis::recheck_blunders`,
//! [`Collector::rechecked`]): the new verdict becomes the move's in its game's analysis, so the
//! list, the players' counts, the index and the game's section (made again) all tell it.

use drafti_analysis::json::is_numeric;
use drafti_analysis::judge::{win_percent, Judgement, SideSummary};
use drafti_analysis::preset::{Preset, TABLE_PIECES};
use drafti_analysis::{
    label_doubts_king_endings, GameAnalysis, MoveAnalysis, MoveToCheck, Searcher,
    DOUBTED_ENDING_PIECES, RECHECK_DEPTH, RECHECK_NODES,
};
use drafti_archive::openings::{Book, OpeningStats};
use drafti_archive::replay::ReplayedGame;
use drafti_pdn::GameResult;
use drafti_rules::{move_number, Color, Position};
use std::collections::{BTreeMap, BTreeSet, HashMap};

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

/// Game sections per page of a paged report (about 1.3 MB of HTML each for engine games).
pub const PAGE_GAMES: usize = 500;

/// The name of page `n` (0-based) of a paged report: `games-0001.html` for the first.
pub fn page_name(n: usize) -> String {
    format!("games-{:04}.html", n + 1)
}

/// The page of a paged report that holds the game section number `ordinal` (0-based).
///
/// ```
/// use drafti_report::collect::page_of;
///
/// assert_eq!(page_of(0), "games-0001.html");
/// assert_eq!(page_of(499), "games-0001.html");
/// assert_eq!(page_of(500), "games-0002.html");
/// ```
pub fn page_of(ordinal: usize) -> String {
    page_name(ordinal / PAGE_GAMES)
}

/// What the header says about the run.
pub struct RunInfo {
    /// Where the games came from (`the bundled corpus`, or the file names).
    pub source: String,
    /// The search of every position (`1,000 nodes per position`).
    pub search: String,
    /// How far to trust the verdicts, in a player's words: how the preset these settings are
    /// held against deep searches of Tanzanian games and of master games, or that they were
    /// not measured.
    pub trust: String,
}

impl RunInfo {
    /// The header of a run over `source` whose analysis `search` labels
    /// ([`drafti_analysis::AnalysisOptions::label`]).
    ///
    /// ```
    /// use drafti_analysis::preset::{Preset, TABLE_PIECES};
    /// use drafti_report::collect::RunInfo;
    /// let label = Preset::Default.options().label();
    /// let tables = format!("{label}; endgame tables: tz up to 5 pieces");
    /// let info = RunInfo::new("a.pdn".into(), tables);
    /// assert!(info.trust.contains("(preset default, with endgame tables of up to 5 pieces)"), "{}", info.trust);
    /// assert!(info.trust.contains("Tanzanian games (engine self-play) judged again"), "{}", info.trust);
    /// assert!(info.trust.contains("master games judged again"), "{}", info.trust);
    /// let none = RunInfo::new("a.pdn".into(), label.clone());
    /// assert!(none.trust.contains("(preset default, without endgame tables)"), "{}", none.trust);
    /// assert!(none.trust.contains("build them on first use"), "{}", none.trust);
    /// let fewer = RunInfo::new("a.pdn".into(), format!("{label}; endgame tables: tz up to 4 pieces"));
    /// assert!(fewer.trust.contains("this run's hold at most 4"), "{}", fewer.trust);
    /// let more = RunInfo::new("a.pdn".into(), format!("{label}; endgame tables: czech up to 6 pieces"));
    /// assert!(more.trust.contains("this run's hold up to 6, so more of its verdicts in endings are exact"), "{}", more.trust);
    /// assert!(!more.trust.contains("cannot tell a draw from a win"), "{}", more.trust);
    /// let czech = RunInfo::new("a.pdn".into(), format!("{label}; endgame tables: czech up to 5 pieces"));
    /// assert!(czech.trust.contains("its blunders there are shown as mistakes"), "{}", czech.trust);
    /// assert!(!info.trust.contains("cannot tell a draw from a win"), "{}", info.trust);
    /// assert!(!info.trust.contains("Those figures are with"), "{}", info.trust);
    /// let deep = format!("{}; endgame tables: tz up to 5 pieces", Preset::Deep.options().label());
    /// let deep = RunInfo::new("a.pdn".into(), deep).trust;
    /// assert!(deep.contains("2 million nodes a position with the same endgame tables"), "{deep}");
    /// let custom = RunInfo::new("a.pdn".into(), "depth 2; not re-searched".into());
    /// assert!(custom.trust.contains("not measured"), "{}", custom.trust);
    /// ```
    pub fn new(source: String, search: String) -> RunInfo {
        let trust = match Preset::of_label(&search) {
            Some(preset) => {
                let pieces = drafti_analysis::label_table_pieces(&search);
                let tables = pieces.is_some();
                let tanzanian = match preset.measured_tanzanian(tables) {
                    Some(m) => m.in_words(),
                    None => "not measured on Tanzanian games".to_string(),
                };
                let master = preset.measured(tables);
                let settings = match pieces {
                    Some(p) => format!("with endgame tables of up to {p} pieces"),
                    None => "without endgame tables".to_string(),
                };
                let note = match pieces {
                    Some(p) if p < TABLE_PIECES => format!(
                        " Those figures are with tables of up to {TABLE_PIECES} pieces; this \
                         run's hold at most {p}, so its verdicts in endings are weaker."
                    ),
                    Some(p) if p > TABLE_PIECES => format!(
                        " Those figures are with tables of up to {TABLE_PIECES} pieces; this \
                         run's hold up to {p}, so more of its verdicts in endings are exact."
                    ),
                    Some(_) => String::new(),
                    None => " Without endgame tables the engine misjudges king endings: drafti \
                         analyze and drafti report build them on first use (about a minute a \
                         variant, once) unless --no-egtb is given."
                        .to_string(),
                };
                let endings = if label_doubts_king_endings(&search) {
                    format!(
                        " In Czech and Russian endings of up to {DOUBTED_ENDING_PIECES} pieces \
                         with kings on both sides, which these tables do not hold, the engine \
                         cannot tell a draw from a win: its blunders there are shown as \
                         mistakes (drafti egtb build --variant czech,russian --pieces \
                         {DOUBTED_ENDING_PIECES} judges them exactly: about 15 minutes and \
                         2.6 GB a variant)."
                    )
                } else {
                    String::new()
                };
                format!(
                    "How far to trust the verdicts: at these settings (preset {preset}, \
                     {settings}), {tanzanian}; {}.{note}{endings}",
                    master.in_words()
                )
            }
            None => "How far to trust the verdicts: these settings are no preset's, so their \
                     verdicts were not measured against deeper searches (the presets' are in \
                     docs/engine.md, \"Quality on Tanzanian games\" and \"Quality on master \
                     games\")."
                .to_string(),
        };
        RunInfo {
            source,
            search,
            trust,
        }
    }
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
    /// The move's ply in its game, from 1.
    pub ply: usize,
}

impl FlagBrief {
    /// Move `m` of `game` as the summary lists it: `anchor` is its game's, `label` names the
    /// game, `white` and `black` the players. The numbers are the verdict's, as the game's
    /// section shows them.
    pub fn of(
        game: &ReplayedGame,
        m: &MoveAnalysis,
        anchor: &str,
        label: &str,
        white: &str,
        black: &str,
    ) -> FlagBrief {
        let before = &game.positions[m.ply - 1];
        let legal = before.legal_moves(game.variant);
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
                .map(|b| b.notation(&legal, is_numeric(game)))
                .unwrap_or_default(),
            ordinal: 0,
            ply: m.ply,
        }
    }

    fn drop(&self) -> f64 {
        self.before - self.after
    }
}

/// A win percentage as every report shows one: whole, rounded half up as the page's script
/// rounds (`89%`).
///
/// ```
/// assert_eq!(drafti_report::collect::win_text(88.5), "89%");
/// assert_eq!(drafti_report::collect::win_text(0.2), "0%");
/// ```
pub fn win_text(percent: f64) -> String {
    format!("{}%", percent.round() as i64)
}

/// A game with a blunder the summary may list, kept until the re-check: the new verdicts are
/// written into its analysis, and its section is made again from it.
#[derive(Debug)]
pub struct HeldGame {
    /// The game.
    pub game: ReplayedGame,
    /// Its analysis.
    pub analysis: GameAnalysis,
    /// The input's name.
    pub file: String,
    /// 0-based number of the game in its input.
    pub index: usize,
    /// The anchor of its section.
    pub anchor: String,
    /// Its opening, as the game played it.
    pub opening: Option<String>,
    /// White player (`?` when the tag is missing).
    pub white: String,
    /// Black player.
    pub black: String,
    /// The number of its HTML section (0-based, in the order of the index), if it has one.
    pub section: Option<usize>,
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
    /// The game itself when it has blunders, to judge them again.
    pub held: Option<Box<HeldGame>>,
    /// The positions of the first `CLASSIFY_PLIES` plies (for the openings table).
    pub opening_window: Vec<Position>,
    /// The book's name of the game's opening (the index's filter by opening).
    pub opening_name: Option<String>,
    /// The rendered `<article>` of the game (with `--html`).
    pub html: Option<String>,
}

/// The anchor of game `index` (0-based) of input `file_index`.
pub fn game_anchor(file_index: usize, index: usize) -> String {
    format!("g{}-{}", file_index + 1, index + 1)
}

/// The anchor of the board after ply `ply` of a game (the viewer's fragment, and the id of a
/// blunder in the moves).
pub fn move_anchor(anchor: &str, ply: usize) -> String {
    format!("{anchor}-p{ply}")
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

    /// One game's figures `old` replaced by `new` (its moves judged again).
    fn replace(&mut self, old: &SideSummary, new: &SideSummary) {
        let change = |total: &mut u64, old: usize, new: usize| {
            *total = *total + new as u64 - old as u64;
        };
        change(&mut self.moves, old.moves, new.moves);
        change(&mut self.inaccuracies, old.inaccuracies, new.inaccuracies);
        change(&mut self.mistakes, old.mistakes, new.mistakes);
        change(&mut self.blunders, old.blunders, new.blunders);
        if let (Some(old), Some(new)) = (old.accuracy, new.accuracy) {
            self.accuracy_sum += new - old;
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
    /// The length in bytes of each section [`Collector::add`] returned, in order.
    pub sections: Vec<usize>,
    /// Sections made again after the re-check, by number: they replace the ones written.
    pub replaced: BTreeMap<usize, String>,
    /// The games of the biggest blunders, by ordinal, until the re-check.
    held: BTreeMap<u64, HeldGame>,
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
            sections: Vec::new(),
            replaced: BTreeMap::new(),
            held: BTreeMap::new(),
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
        let has_section = g.html.is_some() && (self.paged || self.games <= HTML_GAME_LIMIT);
        if let Some(mut held) = g.held {
            held.section = has_section.then_some(self.index.len());
            self.held.insert(self.games, *held);
        }
        if self.biggest.len() > 2 * RECHECKED {
            self.trim_biggest(RECHECKED);
        }
        if has_section {
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
                page: self.paged.then(|| page_of(self.index.len())),
                opening: g.opening_name,
            });
            self.sections.push(g.html.as_ref().map_or(0, String::len));
            return g.html;
        }
        None
    }

    /// Keeps the `keep` largest blunders, and the games of those only.
    fn trim_biggest(&mut self, keep: usize) {
        self.biggest.sort_by(|a, b| {
            b.drop()
                .total_cmp(&a.drop())
                .then(a.ordinal.cmp(&b.ordinal))
                .then(a.anchor.cmp(&b.anchor))
        });
        self.biggest.truncate(keep);
        let listed: BTreeSet<u64> = self.biggest.iter().map(|b| b.ordinal).collect();
        self.held.retain(|ordinal, _| listed.contains(ordinal));
    }

    /// The [`RECHECKED`] largest blunders, to be judged again before the list is made
    /// (`drafti_analysis::recheck_blunders`, whose results [`Collector::rechecked`] takes,
    /// in this order). Empty once they were.
    pub fn blunders_to_recheck(&mut self) -> Vec<MoveToCheck> {
        if self.rechecked.is_some() {
            return Vec::new();
        }
        self.trim_biggest(RECHECKED);
        let held = &self.held;
        self.biggest.retain(|b| held.contains_key(&b.ordinal));
        self.biggest
            .iter()
            .map(|b| Searcher::new(&held[&b.ordinal].game).move_to_check(b.ply - 1))
            .collect()
    }

    /// Takes the new verdicts on [`Collector::blunders_to_recheck`]'s moves, in its order, as
    /// the verdicts of those moves: each replaces the move's in its game's analysis (whose
    /// counts and accuracies follow, in the players' table, the totals and the index too);
    /// the moves that are still blunders keep their place in the list, with the new figures
    /// and best move, the others leave it. Each game judged again that has a section gets it
    /// made again by `section` ([`Collector::replaced`]).
    pub fn rechecked(&mut self, again: Vec<MoveAnalysis>, section: impl Fn(&HeldGame) -> String) {
        if self.rechecked.is_some() {
            return;
        }
        let checked = self.biggest.len();
        let mut kept = Vec::with_capacity(checked);
        let mut changed = BTreeSet::new();
        for (b, m) in std::mem::take(&mut self.biggest).into_iter().zip(again) {
            let Some(held) = self.held.get_mut(&b.ordinal) else {
                continue;
            };
            let old = (held.analysis.white, held.analysis.black);
            held.analysis.rejudge(&held.game, m);
            let new = (held.analysis.white, held.analysis.black);
            for (name, old, new) in [(&held.white, &old.0, &new.0), (&held.black, &old.1, &new.1)] {
                if let Some(player) = self.players.get_mut(name) {
                    player.replace(old, new);
                }
                self.totals.replace(old, new);
            }
            if let Some(row) = held.section.and_then(|i| self.index.get_mut(i)) {
                row.flags = Some((
                    new.0.blunders + new.1.blunders,
                    new.0.mistakes + new.1.mistakes,
                ));
            }
            changed.insert(b.ordinal);
            let m = &held.analysis.moves[b.ply - 1];
            if m.judgement() == Some(Judgement::Blunder) {
                let again = FlagBrief::of(
                    &held.game,
                    m,
                    &held.anchor,
                    &b.game,
                    &held.white,
                    &held.black,
                );
                kept.push(FlagBrief {
                    ordinal: b.ordinal,
                    ..again
                });
            }
        }
        for held in changed.iter().filter_map(|ordinal| self.held.get(ordinal)) {
            if let Some(number) = held.section {
                self.replaced.insert(number, section(held));
            }
        }
        self.rechecked = Some(Rechecked {
            checked,
            held: kept.len(),
        });
        self.biggest = kept;
        self.trim_biggest(BIGGEST_SHOWN);
    }

    /// The biggest blunders, largest drop of win percentage first (those that held up, once
    /// [`Collector::rechecked`] has their new verdicts).
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
