//! One game as the index keeps it: its record, its names, its moves packed as codes, and the
//! positions of its first plies (as if White had started) with the move played from each.

use crate::bits::{bits_for, BitReader, BitWriter};
use crate::books::Books;
use crate::key::{normalised, MoveCode, PositionKey, KEY_BYTES, NO_MOVE};
use crate::record::{home_men, parse_date, GameInfo, Material, Outcome, NONE_U16, NONE_U32};
use drafti_archive::replay::ReplayedGame;
use drafti_pdn::ParseError;
use drafti_rules::{Color, MoveList, Position, Variant};

/// The plies of a game whose positions the explorer indexes.
pub const WINDOW: usize = 40;

/// The most plies of a game the index keeps.
pub const MAX_PLIES: usize = u16::MAX as usize;

/// A game ready to be added to an index (made on a worker thread).
#[derive(Clone, Debug)]
pub struct IndexedGame {
    /// The record (string ids not yet given).
    pub info: GameInfo,
    /// The White tag.
    pub white: Option<String>,
    /// The Black tag.
    pub black: Option<String>,
    /// The Event tag.
    pub event: Option<String>,
    /// The start and the packed move codes ([`decode_moves`] reads them).
    pub moves: Vec<u8>,
    /// The first [`WINDOW`] + 1 positions (as if White had started), each once, with the
    /// move played from it ([`NO_MOVE`] at the end of the game or of the window).
    pub entries: Vec<(PositionKey, MoveCode)>,
}

impl IndexedGame {
    /// A game that could not be parsed: it keeps its place (its number) and nothing else.
    pub fn unreadable() -> IndexedGame {
        IndexedGame {
            info: GameInfo::unreadable(),
            white: None,
            black: None,
            event: None,
            moves: Vec::new(),
            entries: Vec::new(),
        }
    }

    /// Indexes a replayed game (or a game that could not be parsed).
    pub fn new(game: Result<&ReplayedGame, &ParseError>, books: &Books) -> IndexedGame {
        let Ok(game) = game else {
            return IndexedGame::unreadable();
        };
        let record = &game.record;
        let tag = |name: &str| {
            record
                .tag(name)
                .map(str::trim)
                .filter(|v| !v.is_empty() && *v != "?")
                .map(str::to_string)
        };
        let elo = |names: [&str; 2]| {
            names
                .iter()
                .find_map(|n| record.tag(n))
                .and_then(|v| v.trim().parse::<u16>().ok())
                .unwrap_or(0)
        };
        let variant = game.variant;
        let plies = game.moves.len().min(MAX_PLIES);
        let positions = &game.positions[..=plies];
        let first = game.first_mover;

        let mut writer = BitWriter::default();
        let mut header = Vec::with_capacity(1 + KEY_BYTES);
        if game.start == Position::start(first) {
            header.push(if first == Color::White { 0 } else { 1 });
        } else {
            header.push(2);
            header.extend_from_slice(&PositionKey::new(&game.start, variant).to_bytes());
        }
        let mut codes = Vec::with_capacity(plies);
        let mut list = MoveList::new();
        for (pos, mv) in positions.iter().zip(&game.moves[..plies]) {
            pos.generate_moves(variant, &mut list);
            let code = list
                .as_slice()
                .iter()
                .position(|m| m.same_move(mv))
                .unwrap_or(0);
            writer.put(code as u32, bits_for(list.len()));
            codes.push(code as MoveCode);
        }
        let (packed, pad) = writer.finish();
        header[0] |= (pad as u8) << 2;
        let mut moves = header;
        moves.extend_from_slice(&packed);

        let mut entries: Vec<(PositionKey, MoveCode)> = Vec::with_capacity(WINDOW + 1);
        for ply in 0..=plies.min(WINDOW) {
            let here = normalised(&positions[ply], first);
            let key = PositionKey::new(&here, variant);
            if entries.iter().any(|(k, _)| *k == key) {
                continue;
            }
            let code = if ply < plies && ply < WINDOW {
                if first == Color::White {
                    codes[ply]
                } else {
                    let next = normalised(&positions[ply + 1], first);
                    here.legal_moves(variant)
                        .iter()
                        .position(|m| here.play(m) == next)
                        .map_or(NO_MOVE, |c| c as MoveCode)
                }
            } else {
                NO_MOVE
            };
            entries.push((key, code));
        }

        let (mut max_wk, mut max_bk, mut min_bal, mut max_bal) = (0u8, 0u8, i8::MAX, i8::MIN);
        for pos in positions {
            let m = Material::of(pos);
            max_wk = max_wk.max(m.white_kings);
            max_bk = max_bk.max(m.black_kings);
            min_bal = min_bal.min(m.balance());
            max_bal = max_bal.max(m.balance());
        }
        let last_position = positions[plies];
        let (white_home_men, black_home_men) = home_men(&last_position);
        let classify = |book: &drafti_archive::openings::Book| {
            if variant != Variant::Russian {
                return NONE_U16;
            }
            book.classify(positions, first)
                .map_or(NONE_U16, |c| c.index.min(NONE_U16 as usize - 1) as u16)
        };
        let info = GameInfo {
            date: tag("Date").map_or(0, |d| parse_date(&d)),
            white: NONE_U32,
            black: NONE_U32,
            event: NONE_U32,
            white_elo: elo(["WhiteElo", "WhiteRating"]),
            black_elo: elo(["BlackElo", "BlackRating"]),
            plies: plies as u16,
            outcome: Outcome::of(game.played_result()),
            first_mover: first,
            variant,
            unreadable: false,
            stopped: game.moves.len() < record.moves.nodes.len(),
            last: Material::of(&last_position),
            max_white_kings: max_wk,
            max_black_kings: max_bk,
            white_home_men,
            black_home_men,
            min_balance: min_bal,
            max_balance: max_bal,
            opening: classify(&books.openings),
            fmjd: match books.fmjd_start(&game.start) {
                // A game from one of the table's start positions carries its FEN tag.
                Some(i)
                    if variant == Variant::Russian
                        && game.start != Position::start(Color::White) =>
                {
                    (books.fmjd.len() + i).min(NONE_U16 as usize - 1) as u16
                }
                _ => classify(&books.fmjd),
            },
            idf: classify(&books.idf),
            moves_len: moves.len().min(u16::MAX as usize) as u16,
        };
        IndexedGame {
            info,
            white: tag("White"),
            black: tag("Black"),
            event: tag("Event"),
            moves,
            entries,
        }
    }
}

/// Why packed moves cannot be read back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BadMoves;

/// The start of a game's packed moves and the positions they lead to: calls `visit` with
/// each position from the start (ply 0) to the last, the move played from it (`None` after
/// the last); `visit` returns `false` to stop early.
pub fn decode_moves(
    bytes: &[u8],
    variant: Variant,
    plies: usize,
    mut visit: impl FnMut(usize, &Position, Option<&drafti_rules::Move>) -> bool,
) -> Result<(), BadMoves> {
    let (&kind, rest) = bytes.split_first().ok_or(BadMoves)?;
    let (start, packed) = match kind & 3 {
        0 => (Position::start(Color::White), rest),
        1 => (Position::start(Color::Black), rest),
        2 => {
            let key: [u8; KEY_BYTES] = rest
                .get(..KEY_BYTES)
                .ok_or(BadMoves)?
                .try_into()
                .map_err(|_| BadMoves)?;
            let (p, v) = PositionKey::from_bytes(key).position().ok_or(BadMoves)?;
            if v != variant {
                return Err(BadMoves);
            }
            (p, &rest[KEY_BYTES..])
        }
        _ => return Err(BadMoves),
    };
    let mut bits = BitReader::new(packed);
    let mut list = MoveList::new();
    let mut pos = start;
    for ply in 0..plies {
        pos.generate_moves(variant, &mut list);
        let code = bits.get(bits_for(list.len())).ok_or(BadMoves)?;
        let mv = *list.as_slice().get(code as usize).ok_or(BadMoves)?;
        if !visit(ply, &pos, Some(&mv)) {
            return Ok(());
        }
        pos = pos.play(&mv);
    }
    visit(plies, &pos, None);
    Ok(())
}

/// The bytes of a game's key in the order that numbers the games of the positions section.
pub const ORDER_KEY: usize = 24;

/// What a whole index numbers its games by in the positions section: the start of the game's
/// packed moves (its header without the pad count, then the first moves' bits, zero-padded).
/// Games that share their first moves get consecutive numbers, so a position's games are
/// mostly a few runs of numbers.
pub fn order_key(moves: &[u8]) -> [u8; ORDER_KEY] {
    let mut key = [0u8; ORDER_KEY];
    for (k, b) in key.iter_mut().zip(moves) {
        *k = *b;
    }
    key[0] &= 3;
    key
}

/// A game's packed moves as a string of bits: the start (its header without the pad
/// count), the packed bytes and how many of their bits are moves. Two games are the same
/// game, or one the start of the other, exactly when their starts are equal and one's bits
/// are the start of the other's.
pub fn move_bits(bytes: &[u8]) -> Option<(&[u8], &[u8], u64)> {
    let (&kind, _) = bytes.split_first()?;
    let head = if kind & 3 == 2 { 1 + KEY_BYTES } else { 1 };
    let packed = bytes.get(head..)?;
    let pad = (kind >> 2) as u64;
    let bits = (packed.len() as u64 * 8).checked_sub(pad)?;
    Some((&bytes[..head], packed, bits))
}
