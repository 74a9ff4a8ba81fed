//! What the module answers: one JSON request in, one JSON answer out, the same natively (tests)
//! and in WebAssembly (`abi`). The requests and answers are documented in the crate docs.

use drafti_analysis::judge::winning_chances;
use drafti_engine::{DepthInfo, Engine, Limits, RootLine, Score};
use drafti_rules::{perft, Color, Game, Move, Outcome, Position, Variant};
use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::time::Duration;

/// The transposition table of a search when the request names none, in MiB.
pub const DEFAULT_HASH_MB: usize = 16;
/// The largest table a request may ask for, in MiB (a page's memory is the user's).
pub const MAX_HASH_MB: usize = 256;

/// A request: `op` says what to do; the other fields are those the op reads.
#[derive(Deserialize, Default, Debug)]
#[serde(default, deny_unknown_fields)]
pub struct Request {
    /// `position`, `play`, `search`, `perft` or `version`.
    pub op: String,
    /// `tz` (default), `czech` or `russian` (any name `drafti --variant` takes).
    pub variant: Option<String>,
    /// The start position as FEN (default: the usual start, White to move).
    pub fen: Option<String>,
    /// Moves played from `fen`, each by its squares in order (`22-18`, `c3-d4`, `22x15x6`):
    /// enough squares to tell it from every other legal move.
    pub moves: Vec<String>,
    /// `play`: the move to play after `moves`.
    #[serde(rename = "move")]
    pub mv: Option<String>,
    /// How answers write moves: `numeric` (default) or `algebraic`.
    pub notation: Option<String>,
    /// `search`: deepest iteration; `perft`: depth.
    pub depth: Option<u32>,
    /// `search`: stop after about this many nodes.
    pub nodes: Option<u64>,
    /// `search`: stop after this many milliseconds.
    pub movetime: Option<u64>,
    /// `search`: how many best moves to find (default 1).
    pub multipv: Option<usize>,
    /// `search`: transposition table size in MiB (default [`DEFAULT_HASH_MB`]).
    pub hash_mb: Option<usize>,
}

/// A move as answers write it. Squares are numbers 1…32 (1 = b8, 32 = g1).
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct MoveOut {
    /// The shortest notation that tells it from the other legal moves.
    pub notation: String,
    /// Where the piece starts.
    pub from: u8,
    /// Where it ends.
    pub to: u8,
    /// Every square it stands on: the start, each landing square, the end.
    pub path: Vec<u8>,
    /// The captured squares, in the order they are jumped.
    pub captures: Vec<u8>,
    /// Whether a man is crowned.
    pub crowns: bool,
}

/// The end of a game as answers write it.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct OutcomeOut {
    /// `white`, `black`, or `null` for a draw.
    pub winner: Option<&'static str>,
    /// `no_move` (the loser has no legal move), `few_kings`, `three_kings_off_diagonal` or
    /// `king_count` (the draw laws); under TzDraft's rules `tzdraft_thirty_moves`,
    /// `tzdraft_three_kings`, `tzdraft_endgame` or `tzdraft_king_against_king`.
    pub reason: &'static str,
    /// The rules' sentence.
    pub text: String,
}

/// The answer to `position` and `play`.
#[derive(Serialize, Debug)]
pub struct State {
    /// The position reached, as FEN.
    pub fen: String,
    /// `white` or `black`.
    pub turn: &'static str,
    /// 32 characters, square 1 first: `.` empty, `w`/`W` white man/king, `b`/`B` black.
    pub board: String,
    /// Moves played from the start position.
    pub ply: usize,
    /// The moves played, as answers write them.
    pub line: Vec<String>,
    /// The legal moves (none when the side to move has none).
    pub moves: Vec<MoveOut>,
    /// Set when the game is over (no legal move, or a draw law applies).
    pub outcome: Option<OutcomeOut>,
    /// Law 2's running count (moves of the lone king against three kings), when it runs.
    pub king_count: Option<u32>,
    /// `play`: the move played.
    pub played: Option<MoveOut>,
}

/// One line of a search.
#[derive(Serialize, Debug, Clone)]
pub struct LineOut {
    /// The score from the side to move, in the project's one JSON form: exactly one of `cp`
    /// (centi-men), `win_in` and `loss_in` (plies), and `text`.
    pub score: Score,
    /// Winning chances of the side to move, −1 (lost) … 1 (won).
    pub wc: f64,
    /// The line, its first move first.
    pub pv: Vec<MoveOut>,
}

/// A search's progress after each completed iteration, and its result.
#[derive(Serialize, Debug, Clone)]
pub struct Info {
    /// The deepest completed iteration.
    pub depth: u32,
    /// The longest line searched.
    pub seldepth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds since the search started.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// `white` or `black`: the side to move, whose view `score` and `wc` take.
    pub turn: &'static str,
    /// The best score (see [`LineOut::score`]).
    pub score: Score,
    /// Winning chances of the side to move.
    pub wc: f64,
    /// Winning chances of White (the evaluation bar's).
    pub white_wc: f64,
    /// The best line.
    pub pv: Vec<MoveOut>,
    /// Every line asked for (`multipv`), best first.
    pub lines: Vec<LineOut>,
}

/// The answer to `search`: the last progress report and what the search ended on.
#[derive(Serialize, Debug)]
pub struct SearchOut {
    /// The result; depth 0 and no line when the game is over at the root.
    #[serde(flatten)]
    pub info: Info,
    /// The best move; `null` when the game is over.
    pub best: Option<MoveOut>,
    /// Set when the game is over at the root.
    pub outcome: Option<OutcomeOut>,
}

/// An error: `{"error": "…"}`.
#[derive(Serialize)]
struct ErrorOut<'a> {
    error: &'a str,
}

/// Answers `request` (a JSON text); `on_info` receives each completed iteration of a search
/// as JSON. The answer is JSON: the op's answer, or `{"error": "…"}` saying what was wrong.
pub fn answer(request: &str, on_info: &mut dyn FnMut(&str)) -> String {
    match handle(request, on_info) {
        Ok(text) => text,
        Err(message) => to_json(&ErrorOut { error: &message }),
    }
}

fn handle(request: &str, on_info: &mut dyn FnMut(&str)) -> Result<String, String> {
    let req: Request = serde_json::from_str(request).map_err(|e| format!("bad request: {e}"))?;
    match req.op.as_str() {
        "version" => Ok(format!(
            "{{\"version\":\"{}\",\"engine\":\"{}\"}}",
            env!("CARGO_PKG_VERSION"),
            Engine::fingerprint()
        )),
        "position" | "play" => {
            let setup = Setup::of(&req)?;
            let mut played = None;
            let mut game = setup.game;
            let mut line = setup.line;
            if req.op == "play" {
                let text = req.mv.as_deref().ok_or("play needs a \"move\"")?;
                let mv = resolve(game.position(), setup.variant, text, game.outcome())
                    .map_err(|e| format!("move '{text}': {e}"))?;
                let legal = game.position().legal_moves(setup.variant);
                let out = move_out(&mv, &legal, setup.numeric);
                line.push(out.notation.clone());
                played = Some(out);
                game.play(&mv);
            } else if req.mv.is_some() {
                return Err("\"move\" is for op play".into());
            }
            Ok(to_json(&state(&game, setup.numeric, line, played)))
        }
        "search" => {
            let setup = Setup::of(&req)?;
            Ok(to_json(&search(&req, &setup, on_info)?))
        }
        "perft" => {
            let setup = Setup::of(&req)?;
            let depth = req.depth.ok_or("perft needs a \"depth\"")?;
            Ok(format!(
                "{{\"nodes\":{}}}",
                perft(setup.game.position(), setup.variant, depth)
            ))
        }
        "" => Err("the request has no \"op\"".into()),
        other => Err(format!(
            "unknown op '{other}' (expected position, play, search, perft or version)"
        )),
    }
}

/// A request's game: the start position, the moves played from it, and how to write moves.
struct Setup {
    variant: Variant,
    numeric: bool,
    game: Game,
    /// The keys of the positions before the current one, oldest first.
    history: Vec<u64>,
    line: Vec<String>,
}

impl Setup {
    fn of(req: &Request) -> Result<Setup, String> {
        let variant: Variant = match &req.variant {
            Some(name) => name.parse().map_err(|e| format!("{e}"))?,
            None => Variant::Tanzanian,
        };
        let numeric = match req.notation.as_deref() {
            None | Some("numeric") => true,
            Some("algebraic") => false,
            Some(other) => {
                return Err(format!(
                    "unknown notation '{other}' (expected numeric or algebraic)"
                ))
            }
        };
        let start = match &req.fen {
            Some(fen) => Position::from_fen(fen).map_err(|e| format!("fen: {e}"))?,
            None => Position::start(Color::White),
        };
        let mut game = Game::new(start, variant);
        let mut history = Vec::with_capacity(req.moves.len());
        let mut line = Vec::with_capacity(req.moves.len());
        for (i, text) in req.moves.iter().enumerate() {
            let pos = *game.position();
            let mv = resolve(&pos, variant, text, game.outcome())
                .map_err(|e| format!("move {} '{text}': {e}", i + 1))?;
            line.push(mv.notation(&pos.legal_moves(variant), numeric));
            history.push(pos.hash_key());
            game.play(&mv);
        }
        Ok(Setup {
            variant,
            numeric,
            game,
            history,
            line,
        })
    }
}

/// The one legal move `text` means in `pos`.
fn resolve(
    pos: &Position,
    variant: Variant,
    text: &str,
    outcome: Option<Outcome>,
) -> Result<Move, String> {
    if let Some(o) = outcome {
        return Err(format!("the game is over ({o})"));
    }
    let found = pos.parse_move(variant, text).map_err(|e| e.to_string())?;
    match found.as_slice() {
        [mv] => Ok(*mv),
        [] => Err("not a legal move here".into()),
        several => {
            let paths: Vec<String> = several.iter().map(|m| m.full_notation(true)).collect();
            Err(format!(
                "ambiguous: it can be {} (give every landing square)",
                paths.join(" or ")
            ))
        }
    }
}

fn state(game: &Game, numeric: bool, line: Vec<String>, played: Option<MoveOut>) -> State {
    let pos = game.position();
    let legal = pos.legal_moves(game.variant());
    State {
        fen: pos.to_fen(),
        turn: color_name(pos.turn()),
        board: board_text(pos),
        ply: line.len(),
        line,
        moves: legal.iter().map(|m| move_out(m, &legal, numeric)).collect(),
        outcome: game.outcome().map(outcome_out),
        king_count: game.king_count(),
        played,
    }
}

fn search(
    req: &Request,
    setup: &Setup,
    on_info: &mut dyn FnMut(&str),
) -> Result<SearchOut, String> {
    let pos = *setup.game.position();
    let turn = pos.turn();
    if let Some(outcome) = setup.game.outcome() {
        // The rules' verdict (a draw law included), which the search would also return.
        let score = match outcome {
            Outcome::Win(c) if c == turn => Score::win_in(0),
            Outcome::Win(_) => Score::loss_in(0),
            Outcome::Draw(_) => Score::DRAW,
        };
        return Ok(SearchOut {
            info: info(&pos, setup, 0, 0, 0, Duration::ZERO, score, &[]),
            best: None,
            outcome: Some(outcome_out(outcome)),
        });
    }
    let hash_mb = req.hash_mb.unwrap_or(DEFAULT_HASH_MB);
    if hash_mb > MAX_HASH_MB {
        return Err(format!("hash_mb {hash_mb} is above {MAX_HASH_MB}"));
    }
    let limits = Limits {
        depth: req.depth,
        nodes: req.nodes,
        movetime: req.movetime.map(Duration::from_millis),
        multipv: req.multipv.unwrap_or(1),
        ..Limits::default()
    }
    .with_game_counts(&setup.game);
    let result = with_engine(setup.variant, hash_mb, |engine| {
        engine.search(&pos, &limits, &setup.history, |d: &DepthInfo| {
            let i = info(
                &pos, setup, d.depth, d.seldepth, d.nodes, d.elapsed, d.score, &d.lines,
            );
            on_info(&to_json(&i));
        })
    });
    let legal = pos.legal_moves(setup.variant);
    Ok(SearchOut {
        info: info(
            &pos,
            setup,
            result.depth,
            result.seldepth,
            result.nodes,
            result.elapsed,
            result.score,
            &result.lines,
        ),
        best: result.best.map(|m| move_out(&m, &legal, setup.numeric)),
        outcome: result.outcome.map(outcome_out),
    })
}

/// Runs `f` with an engine for `variant` and a table of `hash_mb` MiB, kept between calls so
/// that a page does not allocate a table per search (every search starts with fresh tables
/// all the same: results do not depend on earlier searches).
fn with_engine<T>(variant: Variant, hash_mb: usize, f: impl FnOnce(&mut Engine) -> T) -> T {
    thread_local! {
        static ENGINE: RefCell<Option<(Variant, usize, Engine)>> = const { RefCell::new(None) };
    }
    ENGINE.with(|cell| {
        let mut slot = cell.borrow_mut();
        if !matches!(&*slot, Some((v, mb, _)) if *v == variant && *mb == hash_mb) {
            *slot = None; // free the old table before allocating the new one
            *slot = Some((variant, hash_mb, Engine::new(variant, hash_mb)));
        }
        let (_, _, engine) = slot.as_mut().expect("set above");
        f(engine)
    })
}

#[allow(clippy::too_many_arguments)]
fn info(
    pos: &Position,
    setup: &Setup,
    depth: u32,
    seldepth: u32,
    nodes: u64,
    elapsed: Duration,
    score: Score,
    lines: &[RootLine],
) -> Info {
    let lines: Vec<LineOut> = lines
        .iter()
        .map(|l| line_out(pos, setup, l.score, &l.pv))
        .collect();
    let wc = winning_chances(score);
    let secs = elapsed.as_secs_f64();
    Info {
        depth,
        seldepth,
        nodes,
        time_ms: elapsed.as_millis() as u64,
        nps: if secs > 0.0 {
            (nodes as f64 / secs) as u64
        } else {
            0
        },
        turn: color_name(pos.turn()),
        score,
        wc,
        white_wc: if pos.turn() == Color::White { wc } else { -wc },
        pv: lines.first().map(|l| l.pv.clone()).unwrap_or_default(),
        lines,
    }
}

fn line_out(pos: &Position, setup: &Setup, score: Score, pv: &[Move]) -> LineOut {
    let mut at = *pos;
    let pv = pv
        .iter()
        .map(|mv| {
            let out = move_out(mv, &at.legal_moves(setup.variant), setup.numeric);
            at = at.play(mv);
            out
        })
        .collect();
    LineOut {
        score,
        wc: winning_chances(score),
        pv,
    }
}

fn move_out(mv: &Move, legal: &[Move], numeric: bool) -> MoveOut {
    MoveOut {
        notation: mv.notation(legal, numeric),
        from: mv.from().number(),
        to: mv.to().number(),
        path: mv.path().map(|s| s.number()).collect(),
        captures: mv.captures().map(|s| s.number()).collect(),
        crowns: mv.promotes(),
    }
}

fn outcome_out(outcome: Outcome) -> OutcomeOut {
    use drafti_rules::DrawReason;
    let (winner, reason) = match outcome {
        Outcome::Win(c) => (Some(color_name(c)), "no_move"),
        Outcome::Draw(DrawReason::FewKings) => (None, "few_kings"),
        Outcome::Draw(DrawReason::ThreeKingsOffMainDiagonal) => (None, "three_kings_off_diagonal"),
        Outcome::Draw(DrawReason::KingCountReached(_)) => (None, "king_count"),
        Outcome::Draw(DrawReason::TzDraftThirtyMoves) => (None, "tzdraft_thirty_moves"),
        Outcome::Draw(DrawReason::TzDraftThreeKings) => (None, "tzdraft_three_kings"),
        Outcome::Draw(DrawReason::TzDraftEndgame) => (None, "tzdraft_endgame"),
        Outcome::Draw(DrawReason::TzDraftKingAgainstKing) => (None, "tzdraft_king_against_king"),
    };
    OutcomeOut {
        winner,
        reason,
        text: outcome.to_string(),
    }
}

fn board_text(pos: &Position) -> String {
    drafti_rules::Square::ALL
        .iter()
        .map(|&sq| match pos.piece_at(sq) {
            None => '.',
            Some(p) => match (p.color, p.king) {
                (Color::White, false) => 'w',
                (Color::White, true) => 'W',
                (Color::Black, false) => 'b',
                (Color::Black, true) => 'B',
            },
        })
        .collect()
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

fn to_json<T: Serialize>(value: &T) -> String {
    // Serialising these types (strings, numbers, finite floats) cannot fail.
    serde_json::to_string(value).unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn ask(request: &str) -> Value {
        serde_json::from_str(&answer(request, &mut |_| {})).unwrap()
    }

    #[test]
    fn the_start_has_seven_moves_and_no_outcome() {
        let v = ask(r#"{"op":"position"}"#);
        assert_eq!(v["moves"].as_array().unwrap().len(), 7);
        assert_eq!(v["turn"], "white");
        assert!(v["outcome"].is_null());
        assert_eq!(v["board"].as_str().unwrap().len(), 32);
    }

    #[test]
    fn a_multi_capture_is_played_by_its_squares_in_order() {
        // White's c3 man takes d4 and f6: c3xe5xg7, 22x15x8 in numbers.
        let v = ask(r#"{"op":"play","fen":"W:Wc3:Bd4,f6,a7","move":"22x15x8"}"#);
        assert_eq!(v["played"]["path"], serde_json::json!([22, 15, 8]));
        assert_eq!(v["played"]["captures"], serde_json::json!([18, 11]));
        assert_eq!(v["line"], serde_json::json!(["22x8"]));
        assert_eq!(v["turn"], "black");
    }

    #[test]
    fn an_illegal_or_ambiguous_move_is_an_error_naming_it() {
        let v = ask(r#"{"op":"play","move":"22-13"}"#);
        assert!(v["error"].as_str().unwrap().contains("'22-13'"), "{v}");
        let v = ask(r#"{"op":"position","moves":["22-18","9-13x"]}"#);
        assert!(v["error"].as_str().unwrap().contains("move 2"), "{v}");
        let v = ask(r#"{"op":"position","fen":"W:Wz9"}"#);
        assert!(v["error"].as_str().unwrap().starts_with("fen:"), "{v}");
        let v = ask(r#"{"op":"fly"}"#);
        assert!(v["error"].as_str().unwrap().contains("unknown op"), "{v}");
        let v = ask(r#"{"op":"position","colour":"red"}"#);
        assert!(v["error"].as_str().unwrap().contains("colour"), "{v}");
        let v = ask("not json");
        assert!(
            v["error"].as_str().unwrap().starts_with("bad request"),
            "{v}"
        );
    }

    #[test]
    fn the_draw_laws_end_a_game() {
        let v = ask(r#"{"op":"position","fen":"W:WK29:BK4"}"#);
        assert_eq!(v["outcome"]["reason"], "few_kings");
        let v = ask(r#"{"op":"play","fen":"W:WK29:BK4","move":"29-25"}"#);
        assert!(v["error"].as_str().unwrap().contains("over"), "{v}");
        // Three kings against one with one on the main diagonal: law 2's count runs.
        let v = ask(r#"{"op":"position","fen":"W:WK29,K30,K31:BK4"}"#);
        assert!(v["outcome"].is_null());
        assert_eq!(v["king_count"], 0);
        // The same material in Russian draughts: no law applies.
        let v = ask(r#"{"op":"position","variant":"russian","fen":"W:WK29:BK4"}"#);
        assert!(v["outcome"].is_null());
    }

    #[test]
    fn perft_is_the_rules_perft() {
        let v = ask(r#"{"op":"perft","variant":"czech","depth":5}"#);
        assert_eq!(v["nodes"], 7361);
    }

    #[test]
    fn a_search_reports_each_depth_and_its_line() {
        let mut infos = Vec::new();
        let text = answer(
            r#"{"op":"search","fen":"B:W21-32:B1-8","depth":6,"notation":"algebraic"}"#,
            &mut |i| infos.push(i.to_string()),
        );
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(infos.len(), 6, "one report per iteration");
        assert_eq!(v["depth"], 6);
        // Black to move, four men down.
        assert_eq!(v["turn"], "black");
        assert!(v["wc"].as_f64().unwrap() < -0.5, "{v}");
        assert_eq!(v["white_wc"].as_f64().unwrap(), -v["wc"].as_f64().unwrap());
        assert_eq!(v["best"]["notation"], v["pv"][0]["notation"]);
        let last: Value = serde_json::from_str(infos.last().unwrap()).unwrap();
        assert_eq!(last["nodes"], v["nodes"]);
    }

    #[test]
    fn a_search_of_a_finished_game_says_so() {
        let v = ask(r#"{"op":"search","fen":"W:WK29:BK4","depth":4}"#);
        assert!(v["best"].is_null());
        assert_eq!(v["outcome"]["reason"], "few_kings");
        assert_eq!(v["wc"], 0.0);
    }
}
