//! The text summary of `drafti report`: archive health, blunders per player, the biggest
//! blunders, the openings table, and a few lines on how to read them. It holds no timing, so
//! the same input and search limits always give the same text.

use crate::collect::{win_text, Collector, RunInfo};
use crate::{one_decimal, thousands, visible};
use drafti_analysis::judge::{BLUNDER_DROP, INACCURACY_DROP, MISTAKE_DROP};
use drafti_archive::openings::{RowKind, CLASSIFY_PLIES};
use std::fmt::Write as _;

/// Players listed in the text summary.
const PLAYERS_SHOWN: usize = 15;
/// Openings listed in the text summary.
const OPENINGS_SHOWN: usize = 12;
/// Biggest blunders listed in the text summary.
const BLUNDERS_SHOWN: usize = 5;

/// Cuts `text` to `width` characters (with `…`).
fn fit(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

/// Writes the whole text summary of the games `c` gathered to `out`, in one write.
///
/// ```
/// use drafti_analysis::{analyse_game, AnalysisOptions};
/// use drafti_archive::batch::{run_games, BatchOptions, Input};
/// use drafti_archive::openings::Book;
/// use drafti_report::collect::{Collector, RunInfo};
/// use drafti_report::describe::{describe, WorkSettings};
///
/// let pdn = b"[White \"Ann\"]\n[Black \"Bob\"]\n1. c3-d4 f6-e5 2. d4xf6 g7xe5 1-0\n";
/// let book = Book::builtin();
/// let options = AnalysisOptions::from_limits(Some(2), None);
/// let settings = WorkSettings {
///     book: &book,
///     html: false,
/// };
/// let mut collector = Collector::new(vec!["two.pdn".to_string()], &book);
/// let inputs = vec![Input::new("two.pdn", Box::new(&pdn[..]))];
/// let batch = BatchOptions { jobs: 1, ..BatchOptions::default() };
/// let added = |g| -> Result<(), std::convert::Infallible> {
///     collector.add(g);
///     Ok(())
/// };
/// run_games(inputs, &batch, |_| {}, |job| describe(job, &settings, |g| analyse_game(g, &options)), added).unwrap();
///
/// let info = RunInfo::new("two.pdn".into(), "depth 2".into());
/// let mut out = Vec::new();
/// drafti_report::text::summary::write_summary(&mut out, &mut collector, &info).unwrap();
/// let text = String::from_utf8(out).unwrap();
/// assert!(text.starts_with("drafti report: 1 game from two.pdn\n"));
/// assert!(text.contains("1 valid, 0 invalid"));
/// assert!(text.lines().any(|l| l.trim_start().starts_with("Ann ")));
/// ```
pub fn write_summary(
    out: &mut impl std::io::Write,
    c: &mut Collector<'_>,
    info: &RunInfo,
) -> std::io::Result<()> {
    out.write_all(summary(c, info).as_bytes())
}

fn summary(c: &mut Collector<'_>, info: &RunInfo) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "drafti report: {} game{} from {}",
        thousands(c.games),
        if c.games == 1 { "" } else { "s" },
        info.source
    );
    let _ = writeln!(out, "{}", info.trust);
    let _ = writeln!(
        out,
        "Every position searched by the drafti engine ({}).",
        info.search
    );

    let _ = writeln!(out, "\nArchive health");
    let width = c.names.iter().map(|n| n.chars().count()).max().unwrap_or(0);
    for (name, n) in c.names.iter().zip(&c.games_per_input) {
        let _ = writeln!(out, "  {name:width$}  {:>7} games", thousands(*n));
    }
    let bad = c.invalid + c.unreadable;
    let _ = writeln!(
        out,
        "  {} valid, {} invalid{}; {} warnings",
        thousands(c.valid),
        thousands(bad),
        if c.unreadable > 0 {
            format!(" ({} unreadable)", thousands(c.unreadable))
        } else {
            String::new()
        },
        thousands(c.warnings)
    );
    if !c.errors.is_empty() {
        let _ = writeln!(
            out,
            "  Invalid games are not analysed. First errors (drafti validate shows them all):"
        );
        for e in &c.errors {
            let _ = writeln!(out, "    {}: {}", visible(&e.game), visible(&e.error));
        }
    }

    players(&mut out, c);
    biggest_blunders(&mut out, c);
    openings(&mut out, c);

    let _ = writeln!(
        out,
        "\nHow to read it: winning chances are the engine's estimate of a side's chance to win \
         (50% = even).\nA blunder (??) costs the player at least {:.0} points of them, or a \
         proven result; a mistake (?) at least {:.1};\nan inaccuracy (?!) at least {:.2}. \
         Accuracy is 100% when every move keeps what the best move keeps.\nScore: points won \
         in percent (a draw is half a point); for openings, the first mover's (1st mover).",
        50.0 * BLUNDER_DROP,
        50.0 * MISTAKE_DROP,
        50.0 * INACCURACY_DROP
    );
    out
}

/// Blunders per player: the players with the most games, then all of them together.
fn players(out: &mut String, c: &mut Collector<'_>) {
    let _ = writeln!(
        out,
        "\nBlunders per player (?? blunders, ? mistakes, ?! inaccuracies; {} analysed positions)",
        thousands(c.positions)
    );
    let players = c.players_sorted();
    // Names come from the archive: control characters are shown, not sent to the terminal.
    let name_width = players
        .iter()
        .take(PLAYERS_SHOWN)
        .map(|(n, _)| visible(n).chars().count().min(24))
        .max()
        .unwrap_or(6)
        .max(6);
    let _ = writeln!(
        out,
        "  {:name_width$}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}  {:>7}  {:>8}",
        "player", "games", "score", "moves", "??", "?", "?!", "??/100", "accuracy"
    );
    for (name, p) in players.iter().take(PLAYERS_SHOWN) {
        let _ = writeln!(
            out,
            "  {:name_width$}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}  {:>7}  {:>8}",
            fit(&visible(name), 24),
            thousands(p.games),
            one_decimal(p.score_pct(), "%", "-"),
            thousands(p.moves),
            thousands(p.blunders),
            thousands(p.mistakes),
            thousands(p.inaccuracies),
            p.blunder_rate()
                .map_or_else(|| "-".to_string(), |r| format!("{r:.2}")),
            one_decimal(p.accuracy(), "%", "-"),
        );
    }
    if players.len() > PLAYERS_SHOWN {
        let _ = writeln!(
            out,
            "  … and {} more players",
            thousands((players.len() - PLAYERS_SHOWN) as u64)
        );
    }
    let t = &c.totals;
    let _ = writeln!(
        out,
        "  {:name_width$}  {:>6}  {:>6}  {:>7}  {:>6}  {:>6}  {:>6}  {:>7}  {:>8}",
        "all",
        thousands(t.games),
        "",
        thousands(t.moves),
        thousands(t.blunders),
        thousands(t.mistakes),
        thousands(t.inaccuracies),
        t.blunder_rate()
            .map_or_else(|| "-".to_string(), |r| format!("{r:.2}")),
        one_decimal(t.accuracy(), "%", "-"),
    );
}

/// The biggest blunders, the mover's winning chances before and after.
fn biggest_blunders(out: &mut String, c: &mut Collector<'_>) {
    let biggest = c.biggest_blunders().to_vec();
    if !biggest.is_empty() || c.rechecked.is_some_and(|r| r.checked > 0) {
        let _ = writeln!(
            out,
            "\nBiggest blunders (the mover's winning chances before and after)"
        );
        if let Some(r) = c.rechecked {
            let _ = writeln!(out, "  {}", r.sentence());
        }
        let move_width = biggest
            .iter()
            .take(BLUNDERS_SHOWN)
            .map(|b| b.text.chars().count())
            .max()
            .unwrap_or(0);
        for b in biggest.iter().take(BLUNDERS_SHOWN) {
            let _ = writeln!(
                out,
                "  {:move_width$}  {:>4} -> {:>4}  best {:8} {} ({}), {}",
                b.text,
                win_text(b.before),
                win_text(b.after),
                b.best,
                visible(&b.player),
                b.mover.name(),
                visible(&b.game)
            );
        }
    }
}

/// The openings most played.
fn openings(out: &mut String, c: &mut Collector<'_>) {
    let mut rows: Vec<_> = c
        .openings
        .rows(1)
        .into_iter()
        .filter(|r| r.kind == RowKind::Opening)
        .collect();
    rows.sort_by(|a, b| b.tally.games.cmp(&a.tally.games).then(a.code.cmp(&b.code)));
    let shown = rows.len().min(OPENINGS_SHOWN);
    let _ = writeln!(
        out,
        "\nOpenings (most played first; {shown} of {}; the deepest book position in the first {CLASSIFY_PLIES} plies)",
        rows.len()
    );
    let _ = writeln!(
        out,
        "  {:>6}  {:>5}  {:>5}  {:>5}  {:>9}  opening",
        "games", "1-0", "draw", "0-1", "1st mover"
    );
    for r in rows.iter().take(shown) {
        let t = &r.tally;
        let _ = writeln!(
            out,
            "  {:>6}  {:>5}  {:>5}  {:>5}  {:>9}  {}",
            thousands(t.games),
            t.white_wins,
            t.draws,
            t.black_wins,
            one_decimal(r.score_pct, "%", "-"),
            r.name
        );
    }
}
