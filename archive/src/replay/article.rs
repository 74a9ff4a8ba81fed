//! Where a game under TzDraft's server reading (`tzdraft`) departs from the article's rules:
//! the moves only TzDraft's server allows, each with the rule of the article it breaks.

use drafti_rules::{Move, Position, Square, Variant};

/// The squares a piece goes over from `a` to `b` on a diagonal, `b` included.
fn segment(a: Square, b: Square) -> impl Iterator<Item = Square> {
    let df = (b.file() as i8 - a.file() as i8).signum();
    let dr = (b.rank() as i8 - a.rank() as i8).signum();
    let steps = (b.file() as i8 - a.file() as i8).abs();
    (1..=steps).filter_map(move |k| {
        let (f, r) = (a.file() as i8 + df * k, a.rank() as i8 + dr * k);
        Square::from_coords(f as u8, r as u8)
    })
}

/// Why the article's rules (drafti's `tz`) do not allow `mv`, a legal move of `pos` under
/// TzDraft's server reading, in one sentence naming the article's rule; `None` when they allow
/// it. Only king captures can differ: men capture alike under both readings.
///
/// ```
/// use drafti_archive::replay::article_breach;
/// use drafti_rules::{Position, Variant};
/// let pos = Position::from_fen("W:WKc3:Bb2,d4").unwrap();
/// let moves = pos.legal_moves(Variant::TzDraft);
/// let back = moves.iter().find(|m| m.full_notation(false) == "c3xe5xa1").unwrap();
/// assert_eq!(
///     article_breach(&pos, back).unwrap(),
///     "the king passes over d4, a piece it took earlier in this move (the article leaves \
///      captured pieces on the board until the move ends, where they block)"
/// );
/// ```
pub fn article_breach(pos: &Position, mv: &Move) -> Option<String> {
    if !mv.is_capture() || !pos.kings(pos.turn()).contains(mv.from()) {
        return None;
    }
    let article = pos.legal_moves(Variant::Tanzanian);
    if article.iter().any(|m| m.same_move(mv)) {
        return None;
    }
    let order: Vec<Square> = mv.captures().collect();
    let path: Vec<Square> = mv.path().collect();
    for (i, pair) in path.windows(2).enumerate() {
        if let Some(sq) = segment(pair[0], pair[1]).find(|sq| order[..i].contains(sq)) {
            let how = if sq == pair[1] {
                "lands on"
            } else {
                "passes over"
            };
            return Some(format!(
                "the king {how} {sq}, a piece it took earlier in this move (the article leaves \
                 captured pieces on the board until the move ends, where they block)"
            ));
        }
    }
    // Same route, going on: the king had to land where it could go on.
    let n = order.len();
    let longer = article.iter().find(|m| {
        m.from() == mv.from()
            && m.capture_count() > n
            && m.captures().take(n).eq(order.iter().copied())
            && m.path().take(n).eq(path[..n].iter().copied())
    });
    let last = order[n - 1];
    Some(match longer {
        Some(m) => {
            let on = m.path().nth(n).unwrap_or(mv.to());
            format!(
                "the king stops on {} after taking {last}, though from {on} it could go on \
                 capturing (the article makes a king land where it can go on, and go on: {})",
                mv.to(),
                m.full_notation(false)
            )
        }
        None => format!(
            "the article does not allow this capture (its captures here: {})",
            article
                .iter()
                .filter(|m| m.is_capture())
                .map(|m| m.full_notation(false))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn breach(fen: &str, full: &str) -> Option<String> {
        let pos = Position::from_fen(fen).unwrap();
        let moves = pos.legal_moves(Variant::TzDraft);
        let mv = moves
            .iter()
            .find(|m| m.full_notation(false) == full)
            .unwrap_or_else(|| panic!("{full} is not a tzdraft move of {fen}: {moves:?}"));
        article_breach(&pos, mv)
    }

    #[test]
    fn each_kind_of_server_only_move_is_named() {
        // Removed at once: back over d4, taken first.
        assert!(breach("W:WKc3:Bb2,d4", "c3xe5xa1")
            .unwrap()
            .starts_with("the king passes over d4, a piece it took earlier"));
        // And on over e3 to take f2.
        assert!(breach("W:WKc1:Bd6,e3,e5,f2,f6", "c1xg5xe7xc5xg1")
            .unwrap()
            .starts_with("the king passes over e3, a piece it took earlier"));
        // Stopping before the first square it goes on from.
        assert_eq!(
            breach("W:WKa1:Bd4,e7", "a1xe5").unwrap(),
            "the king stops on e5 after taking d4, though from f6 it could go on capturing \
             (the article makes a king land where it can go on, and go on: a1xf6xd8)"
        );
        // Moves both readings allow.
        assert_eq!(breach("W:WKa1:Bd4,e7", "a1xf6xd8"), None);
        assert_eq!(breach("W:Wc3:Bd4", "c3xe5"), None);
    }
}
