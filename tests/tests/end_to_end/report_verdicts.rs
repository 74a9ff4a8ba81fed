//! One verdict per move in `drafti report` (issue 39): the re-check of the summary's largest
//! blunders decides the move's verdict wherever the report shows it: the summary's list, the
//! players' tables (text and HTML), the cards, the index of games, the game's moves and the
//! numbers its board shows.
//!
//! Two games of `shared/corpora`, copied byte for byte: game 44 of the 1950 USSR
//! championship, whose 20... c7-d6 the fast preset's pass calls a blunder and the re-check
//! does not; game 4 of the 2007 Czech championship (its blank
//! lines after the result left out), whose 18. g3-h4 the re-check judges with other numbers
//! than the pass.

use drafti_tests::drafti;
use std::collections::HashMap;

/// Game 44 of the X USSR championship (1950), Russian draughts.
const USSR_44: &str = "fixtures/report/ussr-1950-game-44.pdn";

/// Game 4 of the Czech championship (2007), Czech draughts.
const CZECH_4: &str = "fixtures/report/recheck/czech-2007-game-4.pdn";

/// What one run of `drafti report FILE --variant VARIANT --html OUT` wrote.
struct Report {
    stdout: String,
    stderr: String,
    html: String,
}

/// Runs the report with the fast preset (whose pass flags the moves above) on one thread.
fn report(file: &str, variant: &str, name: &str) -> Report {
    let dir = drafti_tests::temp_dir(&format!("verdicts-{name}"));
    let out = dir.path().join("report.html");
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "report",
            file,
            "--variant",
            variant,
            "--preset",
            "fast",
            "--jobs",
            "1",
            "--html",
        ])
        .arg(&out)
        .output()
        .expect("drafti runs");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    Report {
        stdout: String::from_utf8(output.stdout).unwrap(),
        stderr,
        html: std::fs::read_to_string(&out).unwrap(),
    }
}

/// The text between `start` and the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let from = text
        .find(start)
        .unwrap_or_else(|| panic!("{start} in the text"))
        + start.len();
    let to = text[from..].find(end).map_or(text.len(), |n| from + n);
    &text[from..to]
}

/// The cells of every row of the first table after `heading` in the HTML, tags removed.
fn table_rows(html: &str, heading: &str) -> Vec<Vec<String>> {
    let table = between(html, heading, "</table>");
    table
        .split("<tr>")
        .skip(1)
        .map(|row| {
            row.split("<td")
                .skip(1)
                .map(|cell| {
                    let cell = &cell[cell.find('>').unwrap() + 1..];
                    let mut text = String::new();
                    let mut in_tag = false;
                    for c in cell.chars() {
                        match c {
                            '<' => in_tag = true,
                            '>' => in_tag = false,
                            c if !in_tag => text.push(c),
                            _ => {}
                        }
                    }
                    text
                })
                .collect()
        })
        .filter(|cells: &Vec<String>| !cells.is_empty())
        .collect()
}

/// The judgement classes of the flagged moves of the game's article, by ply (the moves
/// counted from the article's numbered moves: each `<i class="j…">` is one flagged move).
fn article<'a>(html: &'a str, anchor: &str) -> &'a str {
    between(
        html,
        &format!(r#"<article class="game" id="{anchor}""#),
        "</article>",
    )
}

/// The game's moves in order (ply 1 first), each with the class of its chip when it is
/// flagged (`jb`, `jm`, `ji`), as the moves markup writes them: a move pair a line, after its
/// number. (The games of these tests have no comments or variations.)
fn moves(article: &str) -> Vec<(String, Option<String>)> {
    let markup = between(article, r#"<p class="moves">"#, "<b>");
    assert!(!markup.contains("<span"), "{markup}");
    let mut moves = Vec::new();
    for line in markup.lines().filter(|l| !l.trim().is_empty()) {
        let (_number, mut rest) = line.split_once(' ').unwrap();
        while !rest.is_empty() {
            rest = rest.trim_start();
            if let Some(chip) = rest.strip_prefix(r#"<i class=""#) {
                let class = chip[..2].to_string();
                let text = between(chip, ">", "</i>");
                moves.push((text.to_string(), Some(class)));
                rest = &chip[chip.find("</i>").unwrap() + 4..];
            } else {
                let end = rest.find(' ').unwrap_or(rest.len());
                moves.push((rest[..end].to_string(), None));
                rest = &rest[end..];
            }
        }
    }
    moves
}

/// The flagged moves of one side (White: the odd plies), counted by class: (??, ?, ?!).
fn chips(moves: &[(String, Option<String>)], white: bool) -> (u32, u32, u32) {
    let count = |class: &str| {
        moves
            .iter()
            .enumerate()
            .filter(|(i, (_, c))| (i % 2 == 0) == white && c.as_deref() == Some(class))
            .count() as u32
    };
    (count("jb"), count("jm"), count("ji"))
}

/// The figures of a side on the game's card: (??, ?, ?!).
fn card(article: &str, side: &str) -> (u32, u32, u32) {
    let line = between(article, &format!("{side}: "), " · accuracy");
    let n: Vec<u32> = line
        .split("<i>")
        .skip(1)
        .map(|i| i.split(' ').next().unwrap().parse().unwrap())
        .collect();
    (n[0], n[1], n[2])
}

/// A score of the board's data, White's view: an estimate in centi-men, or a proven win of
/// White (`true`) or Black.
#[derive(Clone, Copy, Debug)]
enum Score {
    Estimate(f64),
    Proven(bool),
}

/// A digit of the viewer's score encoding (`report/src/html/viewer.rs`).
fn digit(c: u8) -> i64 {
    const S: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdef";
    const C: &[u8] = b"ghijklmnopqrstuvwxyz0123456789+/";
    match (
        S.iter().position(|&s| s == c),
        C.iter().position(|&s| s == c),
    ) {
        (Some(n), _) => n as i64,
        (_, Some(n)) => 32 + n as i64,
        _ => panic!("not a score digit: {}", c as char),
    }
}

/// One `~` escape at the start of `text`: its score and its length.
fn escaped(text: &[u8]) -> (Score, usize) {
    let end = text.iter().position(|&b| b == b'.').unwrap();
    let body = std::str::from_utf8(&text[1..end]).unwrap();
    let score = match body.as_bytes()[0] {
        b'W' => Score::Proven(true),
        b'B' => Score::Proven(false),
        _ => Score::Estimate(body.parse().unwrap()),
    };
    (score, end + 1)
}

/// The board's data of a game: every position's score (field 4) and the played moves' own
/// scores (field 5), decoded as the page's script decodes them.
fn board_scores(article: &str) -> (Vec<Score>, HashMap<usize, Score>) {
    let data = between(article, r#"data-v=""#, "\"");
    let fields: Vec<&str> = data.split('|').collect();
    let (stream, own) = (fields[4].as_bytes(), fields[5].as_bytes());
    let mut scores = Vec::new();
    let (mut i, mut last) = (0, 0i64);
    while i < stream.len() {
        match stream[i] {
            b'~' => {
                let (score, n) = escaped(&stream[i..]);
                if let Score::Estimate(v) = score {
                    last = v as i64;
                }
                scores.push(score);
                i += n;
            }
            b'_' => {
                last = digit(stream[i + 1]) * 64 + digit(stream[i + 2]) - 2048;
                scores.push(Score::Estimate(last as f64));
                i += 3;
            }
            c => {
                last += digit(c) - 31;
                scores.push(Score::Estimate(last as f64));
                i += 1;
            }
        }
    }
    let mut after = HashMap::new();
    let mut i = 0;
    while i < own.len() {
        let colon = i + own[i..].iter().position(|&b| b == b':').unwrap();
        let ply: usize = std::str::from_utf8(&own[i..colon])
            .unwrap()
            .parse()
            .unwrap();
        i = colon + 1;
        let score = if own[i] == b'~' {
            let (score, n) = escaped(&own[i..]);
            i += n;
            score
        } else {
            let v = digit(own[i]) * 64 + digit(own[i + 1]) - 2048;
            i += 2;
            Score::Estimate(v as f64)
        };
        after.insert(ply, score);
    }
    (scores, after)
}

/// White's win percentage of a score, as the page's script works it out with the page's `k`.
fn white_percent(score: Score, k: f64) -> f64 {
    match score {
        Score::Proven(white) => {
            if white {
                100.0
            } else {
                0.0
            }
        }
        Score::Estimate(cm) => 50.0 + 50.0 * (2.0 / (1.0 + (-k * cm).exp()) - 1.0),
    }
}

/// The mover's winning chances before and after flagged move `ply` (not the engine's best
/// move) as the board shows them: `89% → 0%`.
fn board_numbers(html: &str, anchor: &str, ply: usize, white_moved: bool) -> String {
    let k: f64 = between(html, ",k:", "}").parse().unwrap();
    let (scores, own) = board_scores(article(html, anchor));
    let before = white_percent(scores[ply - 1], k);
    let after = white_percent(own.get(&ply).copied().unwrap_or(scores[ply]), k);
    let mine = |p: f64| (if white_moved { p } else { 100.0 - p } + 0.5).floor();
    format!("{}% → {}%", mine(before), mine(after))
}

/// The text summary's row of `player`: its numbers from `games` on.
fn text_player_row(stdout: &str, player: &str) -> Vec<String> {
    let line = stdout
        .lines()
        .find(|l| l.trim_start().starts_with(player))
        .unwrap_or_else(|| panic!("{player} in\n{stdout}"));
    line.trim_start()[player.len()..]
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

#[test]
fn a_blunder_the_recheck_drops_is_no_blunder_anywhere() {
    let r = report(USSR_44, "russian", "ussr44");
    // The re-check judges the pass's only blunder again, and it does not hold up…
    assert!(
        r.stderr
            .contains("1 blunder of the summary judged again deeper in"),
        "{}",
        r.stderr
    );
    assert!(r.stderr.contains(": 0 held up"), "{}", r.stderr);
    // … so the game has none: the run's count, the move's chip, the card, the index, the
    // players' tables and the totals all say so.
    assert!(r.stderr.contains("; 0 blunders"), "{}", r.stderr);
    let game = article(&r.html, "g1-1");
    let played = moves(game);
    // 20... c7-d6 is ply 40: no chip of a blunder, on it or on any move.
    assert_eq!(played[39].0, "c7-d6", "{played:?}");
    assert_ne!(played[39].1.as_deref(), Some("jb"), "{played:?}");
    assert_eq!((chips(&played, true).0, chips(&played, false).0), (0, 0));
    assert_eq!(card(game, "Black").0, 0);
    let index = table_rows(&r.html, "<summary>Index of");
    assert_eq!(index[0][4], "0", "{index:?}");
    let players = table_rows(&r.html, r#"<h2 id="players">"#);
    let black = players.iter().find(|p| p[0] == "Блиндер Б.").unwrap();
    assert_eq!(black[4], "0", "{players:?}");
    assert_eq!(text_player_row(&r.stdout, "Блиндер Б.")[3], "0");
    assert_eq!(text_player_row(&r.stdout, "all")[2], "0");
    assert!(
        r.html
            .contains(r#"<span class="n">0</span><span class="l">blunders ??</span>"#),
        "the card of the summary"
    );
    // A folder of pages, whose game pages are cut once the re-check is made, says the same.
    let scratch = drafti_tests::temp_dir("verdicts-pages");
    let dir = scratch.path().join("pages");
    let output = drafti()
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .args([
            "report",
            USSR_44,
            "--variant",
            "russian",
            "--preset",
            "fast",
            "--jobs",
            "1",
            "--html-dir",
        ])
        .arg(&dir)
        .output()
        .expect("drafti runs");
    assert_eq!(output.status.code(), Some(0));
    let page = std::fs::read_to_string(dir.join("games-0001.html")).unwrap();
    assert_eq!(article(&page, "g1-1"), game);
}

#[test]
fn the_summary_the_players_and_the_board_tell_one_verdict() {
    let r = report(CZECH_4, "czech", "czech4");
    let game = article(&r.html, "g1-1");
    let played = moves(game);
    // Every blunder the summary lists has a blunder's chip on the game's moves and the numbers
    // the board shows, in the one format of both (the text summary's too).
    let listed = table_rows(&r.html, r#"<h2 id="blunders">"#);
    assert!(!listed.is_empty());
    let text_list = between(&r.stdout, "Biggest blunders", "\n\n");
    for row in &listed {
        let (mv, player, numbers) = (&row[0], &row[1], &row[2]);
        let ply = move_ply(mv);
        assert_eq!(played[ply - 1].1.as_deref(), Some("jb"), "{mv}: {played:?}");
        assert!(mv.ends_with(&played[ply - 1].0), "{mv}: {played:?}");
        let white_moved = player.ends_with("(White)");
        assert_eq!(
            numbers,
            &board_numbers(&r.html, "g1-1", ply, white_moved),
            "{mv}"
        );
        let line = text_list
            .lines()
            .find(|l| l.split_whitespace().take(2).collect::<Vec<_>>().join(" ") == *mv)
            .unwrap_or_else(|| panic!("{mv} in {text_list}"));
        let squeezed = line.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(
            squeezed.contains(&numbers.replace(" → ", " -> ")),
            "{line} against {numbers}"
        );
    }
    // The chips, the card, the players' tables (HTML and text) and the index count alike.
    let players = table_rows(&r.html, r#"<h2 id="players">"#);
    for (side, player) in [("White", "Vejvodova,K."), ("Black", "Topfer,R.")] {
        let counts = chips(&played, side == "White");
        assert_eq!(card(game, side), counts, "{side}");
        let row = players.iter().find(|p| p[0] == player).unwrap();
        let html_counts: Vec<u32> = row[4..7].iter().map(|n| n.parse().unwrap()).collect();
        assert_eq!(html_counts, [counts.0, counts.1, counts.2], "{player}");
        let text = text_player_row(&r.stdout, player);
        let text_counts: Vec<u32> = text[3..6].iter().map(|n| n.parse().unwrap()).collect();
        assert_eq!(text_counts, html_counts, "{player}");
    }
    let (white, black) = (chips(&played, true), chips(&played, false));
    let index = table_rows(&r.html, "<summary>Index of");
    assert_eq!(index[0][4], (white.0 + black.0).to_string(), "{index:?}");
    assert_eq!(index[0][5], (white.1 + black.1).to_string(), "{index:?}");
}

/// The ply of the move written `18. g3-h4??` or `12... b4-a3??` in a game White starts.
fn move_ply(text: &str) -> usize {
    let (number, _) = text.split_once(' ').unwrap();
    let n: usize = number.trim_end_matches('.').parse().unwrap();
    if number.ends_with("...") {
        2 * n
    } else {
        2 * n - 1
    }
}
