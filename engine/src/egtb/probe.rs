//! A set of tables for one variant, in memory (or mapped), and what can be asked of it: the
//! value of a position, the value of each move, the best move and the line to the end of the
//! game.

use super::format::{self, decode, TableFile};
use super::index::{signature_and_index, Signature};
use super::{EgtbError, Value};
use crate::laws::{law3_claim, LawState};
use drafti_rules::{DrawLaws, Move, MoveList, Position, Variant};
use std::path::{Path, PathBuf};

/// One table of a set, as `drafti egtb info` lists it.
#[derive(Clone, Debug)]
pub struct TableInfo {
    /// What the file's header says (rules, material, counts).
    pub header: format::Header,
    /// Where the file is.
    pub path: PathBuf,
    /// The file's size in bytes.
    pub bytes: u64,
}

/// The endgame tables of one variant (with its draw laws), read into memory or mapped
/// ([`LOAD_LIMIT`](super::LOAD_LIMIT)).
/// `Send + Sync`: share one set between engines and threads (e.g. in an `Arc`).
pub struct Tables {
    variant: Variant,
    laws: DrawLaws,
    dir: PathBuf,
    slots: Vec<Option<Slot>>,
    max_pieces: u32,
    count: usize,
}

struct Slot {
    table: TableFile,
    per_layer: u64,
    layers: u32,
}

impl Tables {
    /// No table yet, for `variant` and its laws, kept in `dir` (as [`Tables::open`] and the
    /// builder name it: the variant's own folder).
    pub(crate) fn empty(variant: Variant, dir: PathBuf) -> Tables {
        Tables {
            variant,
            laws: DrawLaws::for_variant(variant),
            dir,
            slots: (0..Signature::SLOTS).map(|_| None).collect(),
            max_pieces: 0,
            count: 0,
        }
    }

    /// The folder of `variant`'s tables under `root`: `root/tz`, `root/czech`, `root/russian`.
    pub fn variant_dir(root: &Path, variant: Variant) -> PathBuf {
        root.join(variant.name())
    }

    /// Opens every table of `variant` under `root` (in [`Tables::variant_dir`]), checking each
    /// file's type, header, length and checksum: a damaged file, or a `.egtb` that is not a
    /// regular file (a folder, a FIFO, a link to a device), is an error naming it, never a
    /// wrong answer (or a blocked open) later.
    pub fn open(root: &Path, variant: Variant) -> Result<Tables, EgtbError> {
        super::check_rules(variant)?;
        let dir = Tables::variant_dir(root, variant);
        let io = |source| EgtbError::Io {
            path: dir.clone(),
            source,
        };
        let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map_err(io)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == format::EXTENSION))
            .collect();
        paths.sort();
        let mut tables = Tables::empty(variant, dir.clone());
        for path in paths {
            tables.insert(TableFile::open(&path)?)?;
        }
        if tables.count == 0 {
            return Err(EgtbError::NoTables { path: dir });
        }
        Ok(tables)
    }

    /// Adds an opened table; it must be for this variant and laws, and named for its signature.
    pub(crate) fn insert(&mut self, table: TableFile) -> Result<(), EgtbError> {
        let h = table.header;
        let wrong = |reason: String| EgtbError::WrongRules {
            path: table.path.clone(),
            reason,
        };
        if h.variant != self.variant || h.laws != self.laws {
            return Err(wrong(format!(
                "a table for {} (laws {:?}), not {} (laws {:?})",
                h.variant, h.laws, self.variant, self.laws
            )));
        }
        let expected_name = format::file_name(h.signature);
        if table.path.file_name().and_then(|n| n.to_str()) != Some(expected_name.as_str()) {
            return Err(wrong(format!(
                "holds the signature {}, so it should be named {expected_name}",
                h.signature
            )));
        }
        let slot = h.signature.slot();
        if self.slots[slot].is_none() {
            self.count += 1;
        }
        self.max_pieces = self.max_pieces.max(h.signature.pieces());
        self.slots[slot] = Some(Slot {
            per_layer: h.signature.positions(),
            layers: h.layers,
            table,
        });
        Ok(())
    }

    /// The variant the tables are for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The draw laws the tables were built with.
    pub fn laws(&self) -> DrawLaws {
        self.laws
    }

    /// The folder the tables were read from.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The most pieces of any table.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The number of tables (signatures).
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether there is no table.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Whether the table of `signature` is there.
    pub fn has(&self, signature: Signature) -> bool {
        signature.pieces() <= self.max_pieces && self.slots[signature.slot()].is_some()
    }

    /// Every table, in build order.
    pub fn infos(&self) -> Vec<TableInfo> {
        let mut out: Vec<TableInfo> = self
            .slots
            .iter()
            .flatten()
            .map(|s| TableInfo {
                header: s.table.header,
                path: s.table.path.clone(),
                bytes: (super::format::HEADER_LEN as u64) + s.table.header.entries,
            })
            .collect();
        out.sort_by_key(|t| {
            let s = t.header.signature;
            (s.pieces(), s.men(), s.name())
        });
        out
    }

    /// The payload and layer size of a signature's table, for the verifier.
    pub(crate) fn raw(&self, signature: Signature) -> Option<(&[u8], u64, u32)> {
        let slot = self.slots.get(signature.slot())?.as_ref()?;
        Some((slot.table.payload(), slot.per_layer, slot.layers))
    }

    /// The stored value of `pos` in `layer` (the lone-king count of Tanzanian three kings
    /// against one, else 0), if its table is there: the search's hot path, with no law or
    /// legal-move check (a side without pieces has no table: `None`).
    #[inline]
    pub fn lookup(&self, pos: &Position, layer: u32) -> Option<Value> {
        if pos.occupied().count() > self.max_pieces {
            return None;
        }
        let (sig, index) = signature_and_index(pos);
        let slot = self.slots[sig.slot()].as_ref()?;
        if layer >= slot.layers {
            return None;
        }
        let index = u64::from(layer) * slot.per_layer + index;
        decode(*slot.table.payload().get(index as usize)?)
    }

    /// The value of `pos` under the law state `law` (as the search carries it), if its table
    /// is there. A position a law draws is a draw, or lost if the side to move has no move.
    #[inline]
    pub(crate) fn probe_law(&self, pos: &Position, law: LawState) -> Option<Value> {
        match law {
            LawState::Free => self.lookup(pos, 0),
            LawState::Count(n) => self.lookup(pos, n),
            LawState::Drawn(_) => Some(if pos.has_legal_move(self.variant) {
                Value::Draw
            } else {
                Value::Loss(0)
            }),
            // No table knows TzDraft's server counts.
            LawState::Server(_) => None,
        }
    }

    /// Like [`Tables::probe_law`], and a side without a legal move (no piece left, or every
    /// piece blocked) has lost whatever its material.
    pub(crate) fn value(&self, pos: &Position, law: LawState) -> Option<Value> {
        if !pos.has_legal_move(self.variant) {
            return Some(Value::Loss(0));
        }
        self.probe_law(pos, law)
    }

    /// The law state of `pos` as a root with the given running count of law 2 (moves the
    /// lone king has made; `None`: the material has just arisen).
    pub(crate) fn law_at(&self, pos: &Position, king_count: Option<u32>) -> LawState {
        LawState::at_root(&self.laws, pos, king_count)
    }

    /// The exact value of `pos` for the side to move, if its table is there. `king_count`:
    /// in Tanzanian three kings against one, the moves the lone king has made (`None`: the
    /// material has just arisen, so it is a draw unless one of the three holds the main
    /// diagonal), as `drafti_rules::Game::king_count` gives it.
    ///
    /// ```no_run
    /// use drafti_engine::egtb::{Tables, Value};
    /// use drafti_rules::{Position, Variant};
    /// let tables = Tables::open("tables".as_ref(), Variant::Tanzanian).unwrap();
    /// let pos = Position::from_fen("W:WK1,K2:BK30").unwrap();
    /// assert_eq!(tables.probe(&pos, None), Some(Value::Draw));
    /// ```
    pub fn probe(&self, pos: &Position, king_count: Option<u32>) -> Option<Value> {
        self.value(pos, self.law_at(pos, king_count))
    }

    /// The value of `pos` under `law`, or why the tables cannot give it: its table is
    /// missing ([`EgtbError::MissingTable`]), never taken for a result.
    fn known_value(&self, pos: &Position, law: LawState) -> Result<Value, EgtbError> {
        if let Some(v) = self.value(pos, law) {
            return Ok(v);
        }
        let sig = Signature::of(pos);
        match self.slots.get(sig.slot()).and_then(Option::as_ref) {
            None => Err(EgtbError::MissingTable(sig)),
            Some(slot) => Err(EgtbError::Corrupt {
                path: slot.table.path.clone(),
                reason: format!("no value for {}", pos.to_fen()),
            }),
        }
    }

    /// Every legal move of `pos` with the value it leads to for the side to move; `law` is
    /// the law state of `pos`. An error names the first table missing for a position after
    /// a move.
    pub(crate) fn move_values(
        &self,
        pos: &Position,
        law: LawState,
    ) -> Result<Vec<(Move, Value)>, EgtbError> {
        let mut list = MoveList::new();
        pos.generate_moves(self.variant, &mut list);
        list.iter()
            .map(|mv| {
                let child = pos.play(mv);
                let child_law = law.after(&self.laws, &child, pos.turn());
                Ok((*mv, self.known_value(&child, child_law)?.back()))
            })
            .collect()
    }

    /// Tanzanian law 3: the value of the side to move's claim (its lone king against two
    /// kings and a man, a king on the main diagonal: the man crowned, the count of law 2
    /// from 0, the same side to move), if it may claim and the table after it is there. The
    /// value of such a position is the better of this and its moves'.
    pub fn claim_value(&self, pos: &Position) -> Option<Value> {
        self.value(&law3_claim(&self.laws, pos)?, LawState::Count(0))
    }

    /// Every legal move with its value for the side to move, best first (quickest win,
    /// then draws, then the slowest loss; equal values in generation order); empty when the
    /// game is over. A table missing for a position after a move is an error naming it
    /// ([`EgtbError::MissingTable`]), not a move without a value.
    pub fn rank_moves(
        &self,
        pos: &Position,
        king_count: Option<u32>,
    ) -> Result<Vec<(Move, Value)>, EgtbError> {
        let mut moves = self.move_values(pos, self.law_at(pos, king_count))?;
        moves.sort_by_key(|(_, v)| std::cmp::Reverse(v.rank()));
        Ok(moves)
    }

    /// The line of best moves from `pos` to the end of the game (a won or lost position), at
    /// most `max_plies` long; for a draw, the first `max_plies` drawing moves. Each move is
    /// the first best one, so the line is the same on every run. A table the line needs and
    /// does not find is an error naming it, not a line that stops short.
    pub fn line(
        &self,
        pos: &Position,
        king_count: Option<u32>,
        max_plies: usize,
    ) -> Result<Vec<Move>, EgtbError> {
        let mut line = Vec::new();
        let mut pos = *pos;
        let mut law = self.law_at(&pos, king_count);
        while line.len() < max_plies {
            if matches!(law, LawState::Drawn(_)) {
                break;
            }
            let moves = self.move_values(&pos, law)?;
            let Some(best) = moves.iter().map(|(_, v)| v.rank()).max() else {
                break;
            };
            let Some(&(mv, _)) = moves.iter().find(|(_, v)| v.rank() == best) else {
                break;
            };
            // Law 3's claim is better than any move: the line ends with it (it is no move).
            if law == LawState::Free && self.claim_value(&pos).is_some_and(|c| c.rank() > best) {
                break;
            }
            line.push(mv);
            let child = pos.play(&mv);
            law = law.after(&self.laws, &child, pos.turn());
            pos = child;
        }
        Ok(line)
    }
}

/// All the tables say about one position (`drafti egtb probe`): its value, every move's,
/// and the line of best moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeReport {
    /// The table's signature.
    pub signature: Signature,
    /// The value for the side to move.
    pub value: Value,
    /// Every legal move with its value, best first ([`Tables::rank_moves`]).
    pub moves: Vec<(Move, Value)>,
    /// The line to the end of the game (at most [`ProbeReport::LINE_PLIES`]), or for a draw
    /// its first [`ProbeReport::DRAW_LINE_PLIES`] drawing moves (a draw has no end); it
    /// stops where law 3's claim is better than every move.
    pub line: Vec<Move>,
    /// Tanzanian law 3: the value of the side to move's claim, when it may claim
    /// ([`Tables::claim_value`]).
    pub claim: Option<Value>,
}

impl ProbeReport {
    /// The longest line of a won or lost position.
    pub const LINE_PLIES: usize = 300;
    /// The drawing moves shown of a draw.
    pub const DRAW_LINE_PLIES: usize = 12;
}

impl Tables {
    /// The [`ProbeReport`] of `pos` (`king_count`: the lone king's moves already made under
    /// Tanzanian law 2); `Ok(None)` when no table holds it; a table missing after a move is
    /// an error naming it ([`EgtbError::MissingTable`]), never an answer that the game is
    /// over.
    pub fn report(
        &self,
        pos: &Position,
        king_count: Option<u32>,
    ) -> Result<Option<ProbeReport>, EgtbError> {
        let Some(value) = self.probe(pos, king_count) else {
            return Ok(None);
        };
        let plies = if value == Value::Draw {
            ProbeReport::DRAW_LINE_PLIES
        } else {
            ProbeReport::LINE_PLIES
        };
        Ok(Some(ProbeReport {
            signature: Signature::of(pos),
            value,
            moves: self.rank_moves(pos, king_count)?,
            line: self.line(pos, king_count, plies)?,
            claim: self.claim_value(pos),
        }))
    }
}

impl crate::Engine {
    /// The exact score of `pos` at `ply` from the endgame tables, if they hold it (the
    /// search's hook: one call at the top of each node).
    #[inline]
    pub(crate) fn table_score(&self, pos: &Position, law: LawState, ply: usize) -> Option<i32> {
        let tables = self.tables.as_deref()?;
        if pos.occupied().count() > tables.max_pieces {
            return None;
        }
        let win = crate::score::WIN - ply as i32;
        Some(match tables.probe_law(pos, law)? {
            Value::Win(d) => win - d as i32,
            Value::Loss(d) => -(win - d as i32),
            Value::Draw => 0,
        })
    }
}
