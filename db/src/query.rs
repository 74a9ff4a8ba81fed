//! What `find` looks for inside games: a material signature, a pattern of pieces on squares,
//! or an exact position, at any ply; each with a test on the game's record that skips games
//! which cannot match without replaying them.
//!
//! # The material query
//! Terms separated by spaces, all of which must hold in one position of the game:
//! `VAR OP VALUE`, where `VAR` is a side and a kind — side `w` (White), `b` (Black), `x`
//! (either side) and `y` (the other one), kind `m` (men), `k` (kings), `p` (pieces: men and
//! kings), `h` (men on the side's own home row) — or `ply` (plies played, from 0); `OP` is
//! one of `= != < <= > >=`; `VALUE` is a number or a `VAR` with an optional `+N` or `-N`.
//!
//! | query | means |
//! |---|---|
//! | `xk=3 xm=0 yk=1 ym=0` | three kings against one king occurred |
//! | `ply>30 xp>=yp+1` | a side was a piece up after ply 30 |
//! | `wp=bp+2 ply<=20` | White two pieces up within the first 20 plies |
//! | `wk>=1 bk=0` | White had a king and Black none |

use crate::record::{home_men, GameInfo, Material};
use drafti_rules::{Bitboard, Color, Position, Square, Variant};
use std::fmt;

/// A side in a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Side {
    White,
    Black,
    X,
    Y,
}

/// A kind of piece count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Men,
    Kings,
    Pieces,
    Home,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Var {
    Count(Side, Kind),
    Ply,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn holds(self, a: i32, b: i32) -> bool {
        match self {
            Op::Eq => a == b,
            Op::Ne => a != b,
            Op::Lt => a < b,
            Op::Le => a <= b,
            Op::Gt => a > b,
            Op::Ge => a >= b,
        }
    }

    /// Whether some `v` in `lo..=hi` has `v op c`.
    fn possible(self, lo: i32, hi: i32, c: i32) -> bool {
        if lo > hi {
            return false;
        }
        match self {
            Op::Eq => lo <= c && c <= hi,
            Op::Ne => lo != hi || lo != c,
            Op::Lt => lo < c,
            Op::Le => lo <= c,
            Op::Gt => hi > c,
            Op::Ge => hi >= c,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Term {
    left: Var,
    op: Op,
    right: Option<Var>,
    constant: i32,
}

/// A parsed material query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MaterialQuery {
    terms: Vec<Term>,
    either: bool,
}

/// A query that does not read: where (1-based column) and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct QueryError {
    /// The 1-based column (in characters).
    pub column: usize,
    /// What is wrong.
    pub message: String,
}

fn parse_var(word: &str) -> Option<Var> {
    if word == "ply" {
        return Some(Var::Ply);
    }
    let mut c = word.chars();
    let side = match c.next()? {
        'w' => Side::White,
        'b' => Side::Black,
        'x' => Side::X,
        'y' => Side::Y,
        _ => return None,
    };
    let kind = match c.next()? {
        'm' => Kind::Men,
        'k' => Kind::Kings,
        'p' => Kind::Pieces,
        'h' => Kind::Home,
        _ => return None,
    };
    c.next().is_none().then_some(Var::Count(side, kind))
}

const VARS: &str =
    "a side (w, b, x or y) and a kind (m men, k kings, p pieces, h home-row men), e.g. wk, or ply";

impl MaterialQuery {
    /// Parses a query (the syntax is in this module's documentation).
    ///
    /// ```
    /// use drafti_db::MaterialQuery;
    /// assert!(MaterialQuery::parse("xk=3 xm=0 yk=1 ym=0").is_ok());
    /// let e = MaterialQuery::parse("ply>30 xq>=1").unwrap_err();
    /// assert_eq!(e.column, 8);
    /// assert!(e.message.starts_with("'xq' is not a count"));
    /// ```
    pub fn parse(text: &str) -> Result<MaterialQuery, QueryError> {
        let mut terms = Vec::new();
        let mut either = false;
        let chars: Vec<(usize, char)> = text.char_indices().collect();
        let column = |byte: usize| text[..byte].chars().count() + 1;
        let mut i = 0;
        while i < chars.len() {
            if chars[i].1.is_whitespace() {
                i += 1;
                continue;
            }
            let start = chars[i].0;
            let end = chars[i..]
                .iter()
                .find(|(_, c)| c.is_whitespace())
                .map_or(text.len(), |(b, _)| *b);
            let word = &text[start..end];
            terms.push(parse_term(word).map_err(|(offset, message)| QueryError {
                column: column(start + offset),
                message,
            })?);
            while i < chars.len() && chars[i].0 < end {
                i += 1;
            }
        }
        if terms.is_empty() {
            return Err(QueryError {
                column: 1,
                message: format!("empty query: expected terms such as xk=3 or ply>30 (VAR OP VALUE, VAR being {VARS})"),
            });
        }
        for t in &terms {
            for v in std::iter::once(t.left).chain(t.right) {
                if matches!(v, Var::Count(Side::X | Side::Y, _)) {
                    either = true;
                }
            }
        }
        Ok(MaterialQuery { terms, either })
    }

    /// Whether the query holds in `position`, reached after `ply` plies.
    pub fn holds(&self, position: &Position, ply: usize) -> bool {
        let m = Material::of(position);
        let home = home_men(position);
        let value = |v: Var, x: Color| -> i32 {
            match v {
                Var::Ply => ply as i32,
                Var::Count(side, kind) => {
                    let color = match side {
                        Side::White => Color::White,
                        Side::Black => Color::Black,
                        Side::X => x,
                        Side::Y => x.other(),
                    };
                    let (men, kings, h) = match color {
                        Color::White => (m.white_men, m.white_kings, home.0),
                        Color::Black => (m.black_men, m.black_kings, home.1),
                    };
                    (match kind {
                        Kind::Men => men,
                        Kind::Kings => kings,
                        Kind::Pieces => men + kings,
                        Kind::Home => h,
                    }) as i32
                }
            }
        };
        self.sides().iter().any(|&x| {
            self.terms.iter().all(|t| {
                let right = t.right.map_or(0, |r| value(r, x)) + t.constant;
                t.op.holds(value(t.left, x), right)
            })
        })
    }

    fn sides(&self) -> &'static [Color] {
        if self.either {
            &[Color::White, Color::Black]
        } else {
            &[Color::White]
        }
    }

    /// Whether some position of the game described by `r` could satisfy the query (false:
    /// skip the game without replaying it).
    pub fn possible(&self, r: &GameInfo) -> bool {
        let range = |v: Var, x: Color| -> (i32, i32) {
            match v {
                Var::Ply => (0, r.plies as i32),
                Var::Count(side, kind) => {
                    let color = match side {
                        Side::White => Color::White,
                        Side::Black => Color::Black,
                        Side::X => x,
                        Side::Y => x.other(),
                    };
                    let (men, kings, max_kings, home) = match color {
                        Color::White => (
                            r.last.white_men,
                            r.last.white_kings,
                            r.max_white_kings,
                            r.white_home_men,
                        ),
                        Color::Black => (
                            r.last.black_men,
                            r.last.black_kings,
                            r.max_black_kings,
                            r.black_home_men,
                        ),
                    };
                    match kind {
                        // Men and pieces only ever go down.
                        Kind::Men => (men as i32, 12),
                        Kind::Pieces => ((men + kings) as i32, 12),
                        Kind::Kings => (0, max_kings as i32),
                        // Men never come back to their home row, except by a Russian man's
                        // capture backward.
                        Kind::Home if r.variant == Variant::Russian => (0, 4),
                        Kind::Home => (home as i32, 4),
                    }
                }
            }
        };
        let color_of = |side: Side, x: Color| match side {
            Side::White => Color::White,
            Side::Black => Color::Black,
            Side::X => x,
            Side::Y => x.other(),
        };
        self.sides().iter().any(|&x| {
            self.terms.iter().all(|t| {
                let (lo, hi) = match (t.left, t.right) {
                    (left, None) => range(left, x),
                    (Var::Count(a, Kind::Pieces), Some(Var::Count(b, Kind::Pieces)))
                        if color_of(a, x) != color_of(b, x) =>
                    {
                        // The balance of the game is known exactly.
                        if color_of(a, x) == Color::White {
                            (r.min_balance as i32, r.max_balance as i32)
                        } else {
                            (-(r.max_balance as i32), -(r.min_balance as i32))
                        }
                    }
                    (left, Some(right)) => {
                        let (a, b) = (range(left, x), range(right, x));
                        (a.0 - b.1, a.1 - b.0)
                    }
                };
                t.op.possible(lo, hi, t.constant)
            })
        })
    }
}

fn parse_term(word: &str) -> Result<Term, (usize, String)> {
    let op_at = word.find(['=', '!', '<', '>']).ok_or((
        0,
        format!(
            "'{word}' has no comparison: expected VAR OP VALUE such as xk=3 (OP: = != < <= > >=)"
        ),
    ))?;
    let left_text = &word[..op_at];
    let left = parse_var(left_text).ok_or_else(|| {
        (
            0,
            if left_text.is_empty() {
                format!("a comparison needs a count before it: {VARS}")
            } else {
                format!("'{left_text}' is not a count: expected {VARS}")
            },
        )
    })?;
    let rest = &word[op_at..];
    let (op, len) = if let Some(r) = rest.strip_prefix("==") {
        let _ = r;
        (Op::Eq, 2)
    } else if rest.starts_with("!=") {
        (Op::Ne, 2)
    } else if rest.starts_with("<=") {
        (Op::Le, 2)
    } else if rest.starts_with(">=") {
        (Op::Ge, 2)
    } else if rest.starts_with('=') {
        (Op::Eq, 1)
    } else if rest.starts_with('<') {
        (Op::Lt, 1)
    } else if rest.starts_with('>') {
        (Op::Gt, 1)
    } else {
        return Err((
            op_at,
            format!(
                "'{}' is not a comparison: expected = != < <= > >=",
                &rest[..1]
            ),
        ));
    };
    let value_at = op_at + len;
    let value = &word[value_at..];
    if value.is_empty() {
        return Err((
            value_at,
            "a value is missing after the comparison: a number or a count such as yp+1".into(),
        ));
    }
    let number = |t: &str, at: usize| -> Result<i32, (usize, String)> {
        t.parse::<i32>()
            .ok()
            .filter(|n| n.abs() <= 1000)
            .ok_or((at, format!("'{t}' is not a number")))
    };
    if value.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
        return Ok(Term {
            left,
            op,
            right: None,
            constant: number(value, value_at)?,
        });
    }
    let (var_text, constant) = match value.find(['+', '-']) {
        Some(p) => {
            let n = number(&value[p + 1..], value_at + p + 1)?;
            (&value[..p], if &value[p..p + 1] == "-" { -n } else { n })
        }
        None => (value, 0),
    };
    let right = parse_var(var_text).ok_or_else(|| {
        (
            value_at,
            format!("'{var_text}' is neither a number nor a count: expected {VARS}"),
        )
    })?;
    Ok(Term {
        left,
        op,
        right: Some(right),
        constant,
    })
}

/// Pieces that must stand on squares (and squares that must be empty): `W:c3,Kd4 B:e5 E:f4`
/// (`K` before a square: a king; squares algebraic or numbered 1-32).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    white_men: u32,
    white_kings: u32,
    black_men: u32,
    black_kings: u32,
    empty: u32,
}

impl Pattern {
    /// Parses a pattern.
    ///
    /// ```
    /// use drafti_db::Pattern;
    /// use drafti_rules::{Color, Position};
    /// let p = Pattern::parse("W:c3,d2 B:f6 E:d4").unwrap();
    /// assert!(p.matches(&Position::start(Color::White)));
    /// assert!(Pattern::parse("W:c3 Q:d4").unwrap_err().message.contains("W:, B: or E:"));
    /// ```
    pub fn parse(text: &str) -> Result<Pattern, QueryError> {
        let mut p = Pattern {
            white_men: 0,
            white_kings: 0,
            black_men: 0,
            black_kings: 0,
            empty: 0,
        };
        let column = |byte: usize| text[..byte].chars().count() + 1;
        let mut any = false;
        for (start, group) in text
            .split_whitespace()
            .map(|g| (g.as_ptr() as usize - text.as_ptr() as usize, g))
        {
            let bad = |offset: usize, message: String| QueryError {
                column: column(start + offset),
                message,
            };
            let (side, list) = group.split_once(':').ok_or_else(|| {
                bad(
                    0,
                    format!("'{group}': expected W:, B: or E: and squares, e.g. W:c3,Kd4"),
                )
            })?;
            let side = match side {
                "W" | "w" => Some(Color::White),
                "B" | "b" => Some(Color::Black),
                "E" | "e" => None,
                _ => {
                    return Err(bad(
                        0,
                        format!("'{side}:': expected W:, B: or E: (empty squares)"),
                    ))
                }
            };
            let mut offset = side.map_or(2, |_| 2);
            for item in list.split(',') {
                let (king, sq) = match item.strip_prefix(['K', 'k']) {
                    Some(rest) => (true, rest),
                    None => (false, item),
                };
                let square =
                    Square::parse(sq).map_err(|e| bad(offset, format!("'{item}': {e}")))?;
                let bit = 1u32 << square.index();
                if (p.white_men | p.white_kings | p.black_men | p.black_kings | p.empty) & bit != 0
                {
                    return Err(bad(offset, format!("square {sq} is given twice")));
                }
                match (side, king) {
                    (Some(Color::White), false) => p.white_men |= bit,
                    (Some(Color::White), true) => p.white_kings |= bit,
                    (Some(Color::Black), false) => p.black_men |= bit,
                    (Some(Color::Black), true) => p.black_kings |= bit,
                    (None, false) => p.empty |= bit,
                    (None, true) => {
                        return Err(bad(
                            offset,
                            format!("'{item}': an empty square has no king"),
                        ))
                    }
                }
                any = true;
                offset += item.len() + 1;
            }
        }
        if !any {
            return Err(QueryError {
                column: 1,
                message: "empty pattern: expected e.g. W:c3,Kd4 B:e5 E:f4".into(),
            });
        }
        Ok(p)
    }

    /// Whether `position` has the pattern.
    #[inline]
    pub fn matches(&self, position: &Position) -> bool {
        let wm = position.men(Color::White).0;
        let wk = position.kings(Color::White).0;
        let bm = position.men(Color::Black).0;
        let bk = position.kings(Color::Black).0;
        wm & self.white_men == self.white_men
            && wk & self.white_kings == self.white_kings
            && bm & self.black_men == self.black_men
            && bk & self.black_kings == self.black_kings
            && position.occupied().0 & self.empty == 0
    }

    /// Whether the game described by `r` could have the pattern somewhere.
    pub fn possible(&self, r: &GameInfo) -> bool {
        let count = |b: u32| Bitboard(b).count() as u8;
        count(self.white_kings) <= r.max_white_kings
            && count(self.black_kings) <= r.max_black_kings
            && count(self.white_men) + count(self.white_kings) <= 12
            && count(self.black_men) + count(self.black_kings) <= 12
    }
}

/// An exact position to find at any ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionQuery {
    /// The position.
    pub position: Position,
}

impl PositionQuery {
    /// Whether the game described by `r` could reach the position: its pieces only go down,
    /// its kings are never more than the game's most.
    pub fn possible(&self, r: &GameInfo) -> bool {
        let m = Material::of(&self.position);
        m.white_men >= r.last.white_men
            && m.black_men >= r.last.black_men
            && m.white_men + m.white_kings >= r.last.white_men + r.last.white_kings
            && m.black_men + m.black_kings >= r.last.black_men + r.last.black_kings
            && m.white_kings <= r.max_white_kings
            && m.black_kings <= r.max_black_kings
            && (r.min_balance..=r.max_balance).contains(&m.balance())
    }
}

impl fmt::Display for MaterialQuery {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} terms", self.terms.len())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> QueryError {
        MaterialQuery::parse(text).unwrap_err()
    }

    #[test]
    fn the_query_syntax_names_what_is_wrong_and_where() {
        assert_eq!(err("").column, 1);
        assert!(err("").message.starts_with("empty query"));
        let e = err("xk=3 q");
        assert_eq!(e.column, 6);
        assert!(e.message.contains("has no comparison"), "{e}");
        let e = err("xk=3 zz>1");
        assert_eq!(
            (e.column, e.message.starts_with("'zz' is not a count")),
            (6, true)
        );
        let e = err("ply>");
        assert_eq!(e.column, 5);
        assert!(e.message.starts_with("a value is missing"));
        let e = err("wp>=bp+x");
        assert_eq!(e.column, 8);
        assert_eq!(e.message, "'x' is not a number");
        let e = err("wp>=zz");
        assert_eq!(e.column, 5);
        let e = err("wp=>3");
        assert_eq!(e.column, 4, "{e}");
        let e = err(">3");
        assert_eq!(e.column, 1);
        assert!(e.message.starts_with("a comparison needs a count"));
        let e = err("wk=99999");
        assert_eq!(e.message, "'99999' is not a number");
        let e = Pattern::parse("W:c3,z9").unwrap_err();
        assert_eq!(e.column, 6);
        let e = Pattern::parse("W:c3 B:c3").unwrap_err();
        assert_eq!(
            (e.column, e.message.as_str()),
            (8, "square c3 is given twice")
        );
        assert!(Pattern::parse("E:Kc3")
            .unwrap_err()
            .message
            .contains("no king"));
        assert!(Pattern::parse("  ").is_err());
    }

    #[test]
    fn queries_hold_on_positions_and_skip_games_that_cannot_match() {
        let three_v_one = Position::from_fen("W:WKa1,Kc3,Ke5:BKh8").unwrap();
        let q = MaterialQuery::parse("xk=3 xm=0 yk=1 ym=0").unwrap();
        assert!(q.holds(&three_v_one, 80));
        assert!(q.holds(&three_v_one.mirrored(), 80), "either side");
        assert!(!q.holds(&Position::start(Color::White), 0));
        let up = MaterialQuery::parse("ply>30 xp>=yp+1").unwrap();
        let pos = Position::from_fen("W:W21-32:B1-11").unwrap();
        assert!(up.holds(&pos, 31) && !up.holds(&pos, 30));

        let mut r = GameInfo::unreadable();
        r.unreadable = false;
        r.plies = 50;
        r.last = Material {
            white_men: 5,
            white_kings: 0,
            black_men: 5,
            black_kings: 0,
        };
        r.min_balance = -1;
        r.max_balance = 0;
        r.max_white_kings = 2;
        assert!(!q.possible(&r), "never three kings");
        assert!(up.possible(&r), "Black was a piece up");
        assert!(
            !MaterialQuery::parse("wp>=bp+1").unwrap().possible(&r),
            "White never was"
        );
        assert!(!MaterialQuery::parse("ply>50").unwrap().possible(&r));
        assert!(
            !MaterialQuery::parse("wm<5").unwrap().possible(&r),
            "men only go down"
        );
        let p = Pattern::parse("B:Kh8").unwrap();
        assert!(p.matches(&three_v_one) && !p.possible(&r));
    }
}
