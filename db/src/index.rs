//! Reading an index: the game table, the names, each game's moves, and the positions with
//! their games, from a read-only map of the file, each page checked the first time it is read.

use crate::bits::{Reader, Truncated};
use crate::explore::Stats;
use crate::format::{Container, IndexError, Section};
use crate::game::{decode_moves, BadMoves};
use crate::key::{MoveCode, PositionKey, KEY_BYTES};
use crate::record::{GameInfo, NONE_U32};
use crate::write::{
    order_width, Meta, PositionGroup, DIR_ENTRY, MOVE_INDEX_STEP, SHORT_LIST, STATS_NUMBERS,
};
use drafti_rules::{Move, Position};
use memmap2::Mmap;
use std::fs::File;
use std::path::{Path, PathBuf};

/// The bytes of an index: mapped, or in memory for small files.
enum Bytes {
    Mapped(Mmap),
    Loaded(Vec<u8>),
}

/// An index file, open.
pub struct Index {
    path: PathBuf,
    bytes: Bytes,
    container: Container,
    meta: Meta,
    strings: u32,
    blocks: usize,
}

/// Files below this size are read into memory instead of being mapped.
const LOAD_LIMIT: u64 = 1 << 20;

impl Index {
    /// Opens the index `path`, checking its header, trailer and small sections.
    pub fn open(path: &Path) -> Result<Index, IndexError> {
        let io = |e| IndexError::io(path, e);
        let file = File::open(path).map_err(io)?;
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(IndexError::NotAnIndex {
                path: path.to_path_buf(),
            });
        }
        let bytes = if meta.len() <= LOAD_LIMIT {
            let mut v = Vec::with_capacity(meta.len() as usize);
            std::io::Read::read_to_end(&mut &file, &mut v).map_err(io)?;
            Bytes::Loaded(v)
        } else {
            // SAFETY: the map is read-only; drafti writes an index to a temporary file and
            // renames it into place, never in place. A file cut short under us by another
            // program faults (SIGBUS), as reading any mapped file does.
            let map = unsafe { Mmap::map(&file) }.map_err(io)?;
            Bytes::Mapped(map)
        };
        let data: &[u8] = match &bytes {
            Bytes::Mapped(m) => m,
            Bytes::Loaded(v) => v,
        };
        let container = Container::open(path, data)?;
        let meta: Meta = serde_json::from_slice(container.raw(data, Section::Meta))
            .map_err(|e| IndexError::damaged(path, format!("the meta section: {e}")))?;
        let damaged = |reason: String| IndexError::damaged(path, reason);
        let records = container.raw(data, Section::Records).len();
        if meta.games.checked_mul(meta.record.size() as u64) != Some(records as u64) {
            return Err(damaged(format!(
                "{} games, but the game table holds {records} bytes",
                meta.games
            )));
        }
        let steps = (meta.games).div_ceil(MOVE_INDEX_STEP) as usize;
        if container.raw(data, Section::MoveIndex).len() != steps * 8 {
            return Err(damaged("the move index does not match the games".into()));
        }
        let dir = container.raw(data, Section::BlockDir).len();
        if dir % DIR_ENTRY != 0 {
            return Err(damaged("the block directory is cut short".into()));
        }
        let strings_head = container.read(data, Section::Strings, 0, 4)?;
        let strings = u32::from_le_bytes(strings_head.try_into().expect("4 bytes"));
        let need = 4u64 + 4 * (strings as u64 + 1);
        if need > container.raw(data, Section::Strings).len() as u64 {
            return Err(damaged("the names section is cut short".into()));
        }
        if !meta.record.fits(strings) {
            return Err(damaged(format!(
                "records of {}-byte name ids for {strings} names",
                meta.record.name_bytes
            )));
        }
        if let Some(s) = meta.shard {
            if s.index == 0 || s.index > s.count {
                return Err(damaged(format!("shard {}/{}", s.index, s.count)));
            }
        }
        let order_bytes = match meta.shard {
            Some(_) => 0,
            None => meta
                .games
                .checked_mul(order_width(meta.games) as u64)
                .map_or(u64::MAX, |bits| bits.div_ceil(8)),
        };
        if container.raw(data, Section::GameOrder).len() as u64 != order_bytes {
            return Err(damaged("the game order does not match the games".into()));
        }
        Ok(Index {
            path: path.to_path_buf(),
            bytes,
            container,
            meta,
            strings,
            blocks: dir / DIR_ENTRY,
        })
    }

    /// The file's path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// What the index says about itself.
    pub fn meta(&self) -> &Meta {
        &self.meta
    }

    fn data(&self) -> &[u8] {
        match &self.bytes {
            Bytes::Mapped(m) => m,
            Bytes::Loaded(v) => v,
        }
    }

    fn raw(&self, section: Section) -> &[u8] {
        self.container.raw(self.data(), section)
    }

    fn read(&self, section: Section, start: usize, len: usize) -> Result<&[u8], IndexError> {
        self.container.read(self.data(), section, start, len)
    }

    /// The table from the positions' game numbers to the archive's (checked), or `None`
    /// when they are the archive's (a part of a sharded build).
    fn game_order(&self) -> Result<Option<GameOrder<'_>>, IndexError> {
        if self.meta.shard.is_some() || self.meta.games < 2 {
            return Ok(None);
        }
        let bytes = self.read(Section::GameOrder, 0, self.raw(Section::GameOrder).len())?;
        Ok(Some(GameOrder {
            bytes,
            width: order_width(self.meta.games),
            games: self.meta.games,
        }))
    }

    /// The size of the file in bytes.
    pub fn file_bytes(&self) -> u64 {
        self.data().len() as u64
    }

    /// The bytes of each section: strings, records, move index, moves, positions, block
    /// directory (what `drafti index info` shows).
    pub fn section_bytes(&self) -> Vec<(&'static str, u64)> {
        [
            ("names", Section::Strings),
            ("game table", Section::Records),
            ("move index", Section::MoveIndex),
            ("moves", Section::Moves),
            ("positions", Section::Positions),
            ("block directory", Section::BlockDir),
            ("game order", Section::GameOrder),
            ("page checksums", Section::PageCrcs),
            ("meta", Section::Meta),
        ]
        .into_iter()
        .map(|(name, s)| (name, self.raw(s).len() as u64))
        .collect()
    }

    /// Checks every page of the file.
    pub fn verify(&self) -> Result<(), IndexError> {
        self.container.verify_all(self.data())?;
        for i in 0..self.local_games() {
            self.record(i)?;
        }
        Ok(())
    }

    fn damaged(&self, reason: impl std::fmt::Display) -> IndexError {
        IndexError::damaged(&self.path, reason)
    }

    /// Records in this file.
    pub fn local_games(&self) -> u64 {
        self.meta.games
    }

    /// The game id (its number in the archive, from 0) of the `local`-th record.
    pub fn game_id(&self, local: u64) -> u64 {
        match self.meta.shard {
            Some(s) => local * s.count + s.index - 1,
            None => local,
        }
    }

    /// The input game `id` is in and its number there (from 1); `("", id + 1)` for an index
    /// built without naming its inputs.
    pub fn place(&self, id: u64) -> (String, u64) {
        let mut first = 0u64;
        for input in &self.meta.inputs {
            if id < first + input.games {
                return (input.name.clone(), id - first + 1);
            }
            first += input.games;
        }
        (String::new(), id + 1)
    }

    /// The record number of game `id`, if this file holds it.
    pub fn local_of(&self, id: u64) -> Option<u64> {
        let local = match self.meta.shard {
            Some(s) if id % s.count != s.index - 1 => return None,
            Some(s) => id / s.count,
            None => id,
        };
        (local < self.meta.games).then_some(local)
    }

    /// The `local`-th record.
    pub fn record(&self, local: u64) -> Result<GameInfo, IndexError> {
        if local >= self.meta.games {
            return Err(self.damaged(format!("game {local} is not in the index")));
        }
        let size = self.meta.record.size();
        let bytes = self.read(Section::Records, local as usize * size, size)?;
        let r =
            self.meta.record.get(bytes).ok_or_else(|| {
                self.damaged(format!("the record of game {local} is not a record"))
            })?;
        for id in [r.white, r.black, r.event] {
            if id != NONE_U32 && id >= self.strings {
                return Err(self.damaged(format!(
                    "game {local} names string {id} of {}",
                    self.strings
                )));
            }
        }
        Ok(r)
    }

    /// The number of names.
    pub fn strings(&self) -> u32 {
        self.strings
    }

    /// Name `id` (`""` for none).
    pub fn string(&self, id: u32) -> Result<&str, IndexError> {
        if id == NONE_U32 {
            return Ok("");
        }
        if id >= self.strings {
            return Err(self.damaged(format!("string {id} of {}", self.strings)));
        }
        let offsets = self.read(Section::Strings, 4 + 4 * id as usize, 8)?;
        let start = u32::from_le_bytes(offsets[..4].try_into().expect("4")) as usize;
        let end = u32::from_le_bytes(offsets[4..].try_into().expect("4")) as usize;
        let base = 4 + 4 * (self.strings as usize + 1);
        let len = end
            .checked_sub(start)
            .ok_or_else(|| self.damaged("the names' offsets go backwards"))?;
        let bytes = self.read(Section::Strings, base + start, len)?;
        std::str::from_utf8(bytes).map_err(|_| self.damaged(format!("name {id} is not UTF-8")))
    }

    /// The packed moves of the `local`-th game.
    pub fn moves_bytes(&self, local: u64) -> Result<&[u8], IndexError> {
        let step = local / MOVE_INDEX_STEP;
        let index = self.raw(Section::MoveIndex);
        let at = step as usize * 8;
        let mut offset = u64::from_le_bytes(
            index
                .get(at..at + 8)
                .ok_or_else(|| self.damaged("the move index is cut short"))?
                .try_into()
                .expect("8"),
        );
        for g in step * MOVE_INDEX_STEP..local {
            offset += self.record(g)?.moves_len as u64;
        }
        let len = self.record(local)?.moves_len as usize;
        self.read(Section::Moves, offset as usize, len)
    }

    /// Calls `visit(local, record, moves)` for the games `range` in order (a sequential read:
    /// each game's moves are found from the previous one's); `visit` returns `false` to stop.
    pub fn for_each_game<'s>(
        &'s self,
        range: std::ops::Range<u64>,
        mut visit: impl FnMut(u64, &GameInfo, &'s [u8]) -> Result<bool, IndexError>,
    ) -> Result<(), IndexError> {
        if range.is_empty() {
            return Ok(());
        }
        let end = range.end.min(self.meta.games);
        let step = range.start / MOVE_INDEX_STEP;
        let index = self.raw(Section::MoveIndex);
        let at = step as usize * 8;
        let mut offset = u64::from_le_bytes(
            index
                .get(at..at + 8)
                .ok_or_else(|| self.damaged("the move index is cut short"))?
                .try_into()
                .expect("8"),
        );
        for g in step * MOVE_INDEX_STEP..range.start {
            offset += self.record(g)?.moves_len as u64;
        }
        for local in range.start..end {
            let r = self.record(local)?;
            let moves = self.read(Section::Moves, offset as usize, r.moves_len as usize)?;
            offset += r.moves_len as u64;
            if !visit(local, &r, moves)? {
                break;
            }
        }
        Ok(())
    }

    /// Replays a game from its record and packed moves (as [`for_each_game`](Self::for_each_game)
    /// gives them): `visit(ply, position, move)`, as [`replay`](Self::replay).
    pub fn replay_moves(
        &self,
        local: u64,
        r: &GameInfo,
        moves: &[u8],
        visit: impl FnMut(usize, &Position, Option<&Move>) -> bool,
    ) -> Result<(), IndexError> {
        if r.unreadable {
            return Ok(());
        }
        decode_moves(moves, r.variant, r.plies as usize, visit).map_err(|BadMoves| {
            self.damaged(format!("the moves of game {local} cannot be replayed"))
        })
    }

    /// Replays the `local`-th game from its packed moves: `visit(ply, position, move)` for
    /// every position (the move is `None` after the last); return `false` to stop.
    pub fn replay(
        &self,
        local: u64,
        visit: impl FnMut(usize, &Position, Option<&Move>) -> bool,
    ) -> Result<(), IndexError> {
        let r = self.record(local)?;
        if r.unreadable {
            return Ok(());
        }
        let bytes = self.moves_bytes(local)?;
        decode_moves(bytes, r.variant, r.plies as usize, visit).map_err(|BadMoves| {
            self.damaged(format!("the moves of game {local} cannot be replayed"))
        })
    }

    fn block(&self, i: usize) -> Result<(PositionKey, &[u8], usize), IndexError> {
        let dir = self.raw(Section::BlockDir);
        let e = &dir[i * DIR_ENTRY..(i + 1) * DIR_ENTRY];
        let key = PositionKey::from_bytes(e[..KEY_BYTES].try_into().expect("13"));
        let offset =
            u64::from_le_bytes(e[KEY_BYTES..KEY_BYTES + 8].try_into().expect("8")) as usize;
        let len =
            u32::from_le_bytes(e[KEY_BYTES + 8..KEY_BYTES + 12].try_into().expect("4")) as usize;
        let count = u32::from_le_bytes(e[KEY_BYTES + 12..].try_into().expect("4")) as usize;
        let bytes = self.read(Section::Positions, offset, len)?;
        Ok((key, bytes, count))
    }

    /// The games that reached `key` (in their first plies), by the move they played.
    pub fn lookup(&self, key: PositionKey) -> Result<Option<PositionGroup>, IndexError> {
        Ok(self.lookup_totals(key, None)?.map(|(group, _)| group))
    }

    /// As [`lookup`](Self::lookup), with each move's totals when the index keeps them for
    /// the position; then only the first `listed` games of each move are read (all when
    /// `None`, or when the position has no totals).
    pub fn lookup_totals(
        &self,
        key: PositionKey,
        listed: Option<usize>,
    ) -> Result<Option<GroupTotals>, IndexError> {
        let dir = self.raw(Section::BlockDir);
        let first_key = |i: usize| {
            PositionKey::from_bytes(
                dir[i * DIR_ENTRY..i * DIR_ENTRY + KEY_BYTES]
                    .try_into()
                    .expect("13"),
            )
        };
        // The last block whose first key is at most `key`.
        let (mut lo, mut hi) = (0usize, self.blocks);
        while lo < hi {
            let mid = (lo + hi) / 2;
            if first_key(mid) <= key {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        if lo == 0 {
            return Ok(None);
        }
        let (_, bytes, count) = self.block(lo - 1)?;
        let mut blocks = BlockReader::new(bytes, count);
        while let Some(entry) = blocks
            .next_key()
            .map_err(|_| self.damaged(format!("block {} of positions", lo - 1)))?
        {
            if entry > key {
                return Ok(None);
            }
            if entry == key {
                let order = self.game_order()?;
                return blocks
                    .moves(self.meta.archive_games, listed, order.as_ref())
                    .map(|(moves, totals)| Some((PositionGroup { key, moves }, totals)))
                    .map_err(|_| {
                        self.damaged(format!("the games of a position in block {}", lo - 1))
                    });
            }
            blocks
                .skip_moves()
                .map_err(|_| self.damaged(format!("block {} of positions", lo - 1)))?;
        }
        Ok(None)
    }

    /// Every position in key order (a merge reads parts this way).
    pub fn groups(&self) -> impl Iterator<Item = Result<PositionGroup, IndexError>> + '_ {
        let order = self.game_order();
        let mut block = 0usize;
        let mut reader: Option<BlockReader<'_>> = None;
        std::iter::from_fn(move || loop {
            let order = match &order {
                Ok(o) => o.as_ref(),
                Err(e) => {
                    if block >= self.blocks {
                        return None;
                    }
                    block = self.blocks;
                    return Some(Err(self.damaged(format!("the game order: {e}"))));
                }
            };
            if reader.is_none() {
                if block >= self.blocks {
                    return None;
                }
                match self.block(block) {
                    Ok((_, bytes, count)) => reader = Some(BlockReader::new(bytes, count)),
                    Err(e) => {
                        block = self.blocks;
                        return Some(Err(e));
                    }
                }
                block += 1;
            }
            let r = reader.as_mut().expect("set above");
            let at = block - 1;
            let damaged = || self.damaged(format!("block {at} of positions"));
            match r.next_key() {
                Ok(Some(key)) => {
                    return Some(
                        r.moves(self.meta.archive_games, None, order)
                            .map(|(moves, _)| PositionGroup { key, moves })
                            .map_err(|_| damaged()),
                    )
                }
                Ok(None) => reader = None,
                Err(_) => {
                    block = self.blocks;
                    return Some(Err(damaged()));
                }
            }
        })
    }
}

/// A position's games by move, and each move's totals when the index keeps them.
pub type GroupTotals = (PositionGroup, Option<Vec<Stats>>);

/// The moves of a position with their games, and their totals when it has them.
type MovesTotals = (Vec<(MoveCode, Vec<u32>)>, Option<Vec<Stats>>);

/// Reads the positions of one block.
struct BlockReader<'a> {
    r: Reader<'a>,
    left: usize,
    prev: [u8; KEY_BYTES],
}

impl<'a> BlockReader<'a> {
    fn new(bytes: &'a [u8], count: usize) -> BlockReader<'a> {
        BlockReader {
            r: Reader::new(bytes),
            left: count,
            prev: [0; KEY_BYTES],
        }
    }

    fn next_key(&mut self) -> Result<Option<PositionKey>, Truncated> {
        if self.left == 0 {
            return if self.r.is_empty() {
                Ok(None)
            } else {
                Err(Truncated)
            };
        }
        self.left -= 1;
        let shared = self.r.u8()? as usize;
        if shared > KEY_BYTES {
            return Err(Truncated);
        }
        let rest = self.r.bytes(KEY_BYTES - shared)?;
        self.prev[shared..].copy_from_slice(rest);
        Ok(Some(PositionKey::from_bytes(self.prev)))
    }

    fn skip_moves(&mut self) -> Result<(), Truncated> {
        let n = self.r.varint()?;
        for _ in 0..n >> 1 {
            self.r.u8()?;
            let count = self.r.varint()?;
            let len = if count > SHORT_LIST {
                Some(self.r.varint()?)
            } else {
                None
            };
            if n & 1 == 1 {
                for _ in 0..STATS_NUMBERS {
                    self.r.varint()?;
                }
            }
            match len {
                Some(len) => self.r.skip(usize::try_from(len).map_err(|_| Truncated)?)?,
                None => read_game_list(&mut self.r, count, u64::MAX, u64::MAX, |_| Ok(()))?,
            }
        }
        Ok(())
    }

    /// The moves of a position and their games (the archive's numbers, ascending); with their
    /// totals when the position has them, and then only the first `listed` games of each move.
    /// `order` maps the positions' game numbers to the archive's.
    fn moves(
        &mut self,
        games: u64,
        listed: Option<usize>,
        order: Option<&GameOrder<'_>>,
    ) -> Result<MovesTotals, Truncated> {
        let n = self.r.varint()?;
        let (n, has_totals) = (n >> 1, n & 1 == 1);
        if n > 256 {
            return Err(Truncated);
        }
        let mut out = Vec::with_capacity(n as usize);
        let mut totals = Vec::new();
        let numbers = order.map_or(games, |o| o.games);
        // The archive's bitmap, made once for the moves of many games.
        let mut bitmap = Vec::new();
        for _ in 0..n {
            let code = self.r.u8()?;
            let count = self.r.varint()?;
            if count > games {
                return Err(Truncated);
            }
            let len = if count > SHORT_LIST {
                Some(usize::try_from(self.r.varint()?).map_err(|_| Truncated)?)
            } else {
                None
            };
            if has_totals {
                totals.push(read_stats(&mut self.r, count)?);
            }
            let list = match len {
                Some(len) => self.r.bytes(len)?,
                None => {
                    let mut probe = self.r;
                    read_game_list(&mut probe, count, numbers, u64::MAX, |_| Ok(()))?;
                    self.r.bytes(probe.position() - self.r.position())?
                }
            };
            let mut p = Reader::new(list);
            let wanted = match listed {
                Some(k) if has_totals => count.min(k as u64),
                _ => count,
            };
            let mut ids = Vec::with_capacity(wanted as usize);
            match order {
                _ if wanted == 0 => {}
                // Numbered as in the archive: the first `wanted` are the ones listed.
                None => read_game_list(&mut p, count, games, wanted, |g| {
                    ids.push(g as u32);
                    Ok(())
                })?,
                Some(order) => {
                    let mut sorted = ArchiveOrder::new(count, games, &mut bitmap);
                    read_game_list(&mut p, count, numbers, u64::MAX, |g| {
                        sorted.add(order.get(g)?)
                    })?;
                    ids = sorted.first(wanted as usize)?;
                }
            }
            if wanted == count && !p.is_empty() {
                return Err(Truncated);
            }
            out.push((code, ids));
        }
        Ok((out, has_totals.then_some(totals)))
    }
}

/// The table of [`Section::GameOrder`]: the archive number of each of the positions' games.
struct GameOrder<'a> {
    bytes: &'a [u8],
    width: u32,
    games: u64,
}

impl GameOrder<'_> {
    /// The archive number of the positions' game `n`.
    fn get(&self, n: u64) -> Result<u32, Truncated> {
        if n >= self.games {
            return Err(Truncated);
        }
        let bit = n * self.width as u64;
        let at = usize::try_from(bit / 8).map_err(|_| Truncated)?;
        let word = match self.bytes.get(at..at.saturating_add(8)) {
            Some(eight) => u64::from_le_bytes(eight.try_into().expect("8 bytes")),
            // The last entries: fewer than 8 bytes left.
            None => {
                let mut word = [0u8; 8];
                let have = self.bytes.get(at..).ok_or(Truncated)?;
                word[..have.len()].copy_from_slice(have);
                u64::from_le_bytes(word)
            }
        };
        let v = word >> (bit % 8) & ((1u64 << self.width) - 1);
        u32::try_from(v).map_err(|_| Truncated)
    }
}

/// Reads a move's list of `count` games (written by `put_game_list`), calling `visit` with
/// each number in increasing order, and stops after `limit` of them; every number must be
/// below `bound`, and the pieces must make exactly `count` games.
fn read_game_list(
    r: &mut Reader<'_>,
    count: u64,
    bound: u64,
    limit: u64,
    mut visit: impl FnMut(u64) -> Result<(), Truncated>,
) -> Result<(), Truncated> {
    let (mut next, mut read) = (0u64, 0u64);
    while read < count && read < limit {
        let v = r.varint()?;
        let start = next.checked_add(v >> 1).ok_or(Truncated)?;
        let len = if v & 1 == 1 {
            r.varint()?.checked_add(2).ok_or(Truncated)?
        } else {
            1
        };
        if len > count - read {
            return Err(Truncated);
        }
        let end = start.checked_add(len).ok_or(Truncated)?;
        if end > bound {
            return Err(Truncated);
        }
        for g in start..end.min(start.saturating_add(limit - read)) {
            visit(g)?;
        }
        read += len;
        next = end;
    }
    Ok(())
}

/// A move's games (archive numbers, given in the positions' order) put in archive order; a
/// number twice or not below the archive's games is a damaged file.
enum ArchiveOrder<'b> {
    /// Many games: a bitmap of the archive, read in order, is linear.
    Bitmap {
        seen: &'b mut Vec<u64>,
        games: u64,
        count: u64,
    },
    /// A few: sorted.
    List { ids: Vec<u32>, games: u64 },
}

impl ArchiveOrder<'_> {
    /// For a move of `count` games of an archive of `games`; `bitmap` is reused.
    fn new(count: u64, games: u64, bitmap: &mut Vec<u64>) -> ArchiveOrder<'_> {
        if count.saturating_mul(32) >= games {
            bitmap.clear();
            bitmap.resize(games.div_ceil(64) as usize, 0);
            ArchiveOrder::Bitmap {
                seen: bitmap,
                games,
                count,
            }
        } else {
            ArchiveOrder::List {
                ids: Vec::with_capacity(count as usize),
                games,
            }
        }
    }

    fn add(&mut self, game: u32) -> Result<(), Truncated> {
        let games = match self {
            ArchiveOrder::Bitmap { games, .. } | ArchiveOrder::List { games, .. } => *games,
        };
        if game as u64 >= games {
            return Err(Truncated);
        }
        match self {
            ArchiveOrder::Bitmap { seen, .. } => {
                let word = seen.get_mut(game as usize / 64).ok_or(Truncated)?;
                let bit = 1u64 << (game % 64);
                if *word & bit != 0 {
                    return Err(Truncated);
                }
                *word |= bit;
            }
            ArchiveOrder::List { ids, .. } => ids.push(game),
        }
        Ok(())
    }

    /// The first `keep` games in archive order.
    fn first(self, keep: usize) -> Result<Vec<u32>, Truncated> {
        match self {
            ArchiveOrder::Bitmap { seen, count, .. } => {
                let mut ids = Vec::with_capacity(keep.min(count as usize));
                'words: for (w, &bits) in seen.iter().enumerate() {
                    let mut bits = bits;
                    while bits != 0 {
                        if ids.len() == keep {
                            break 'words;
                        }
                        ids.push((w * 64) as u32 + bits.trailing_zeros());
                        bits &= bits - 1;
                    }
                }
                Ok(ids)
            }
            ArchiveOrder::List { mut ids, .. } => {
                ids.sort_unstable();
                if ids.windows(2).any(|w| w[0] == w[1]) {
                    return Err(Truncated);
                }
                ids.truncate(keep);
                Ok(ids)
            }
        }
    }
}

/// The totals of a move of `games` games (written by `put_stats`); numbers that no set of
/// games gives are a damaged file.
fn read_stats(r: &mut Reader<'_>, games: u64) -> Result<Stats, Truncated> {
    let mut v = [0u64; STATS_NUMBERS];
    for x in &mut v {
        *x = r.varint()?;
    }
    let [white_wins, draws, black_wins, unknown, white_first, first_mover_wins, second_mover_wins, total_plies, rating_sum, rated, last_date] =
        v;
    let decided = white_wins.checked_add(black_wins).ok_or(Truncated)?;
    let sound = decided
        .checked_add(draws)
        .and_then(|x| x.checked_add(unknown))
        == Some(games)
        && white_first <= games
        && first_mover_wins.checked_add(second_mover_wins) == Some(decided)
        && total_plies <= games * u16::MAX as u64
        && rated <= games
        && rating_sum <= rated * u16::MAX as u64
        && last_date <= 99_991_231;
    if !sound {
        return Err(Truncated);
    }
    let mut s = Stats::default();
    let t = &mut s.tally;
    t.games = games;
    t.white_wins = white_wins;
    t.draws = draws;
    t.black_wins = black_wins;
    t.unknown = unknown;
    t.white_first = white_first;
    t.black_first = games - white_first;
    t.first_mover_wins = first_mover_wins;
    t.second_mover_wins = second_mover_wins;
    t.total_plies = total_plies;
    s.rating_sum = rating_sum;
    s.rated = rated;
    s.last_date = last_date as u32;
    Ok(s)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bits::put_varint;
    use crate::record::{GameInfo, Outcome};
    use crate::write::{put_game_list, put_stats};
    use drafti_rules::Color;

    fn decoded(bytes: &[u8], count: u64, bound: u64) -> Result<Vec<u64>, Truncated> {
        let mut r = Reader::new(bytes);
        let mut out = Vec::new();
        read_game_list(&mut r, count, bound, u64::MAX, |g| {
            out.push(g);
            Ok(())
        })?;
        if !r.is_empty() {
            return Err(Truncated);
        }
        Ok(out)
    }

    #[test]
    fn game_lists_read_back_as_runs_and_single_games() {
        let lists: [&[u32]; 6] = [
            &[0],
            &[5, 6, 7, 8, 100, 102, 103, 999],
            &[1, 3, 5, 7],
            &[0, 1],
            &[17, 200_000, 200_001, 200_002, 200_003, 999_999],
            &[4_000_000_000, 4_000_000_001, u32::MAX],
        ];
        for ids in lists {
            let mut bytes = Vec::new();
            put_game_list(&mut bytes, ids);
            let want: Vec<u64> = ids.iter().map(|&g| g as u64).collect();
            assert_eq!(decoded(&bytes, ids.len() as u64, 1 << 32), Ok(want));
            // The first few only, and a list that does not make its count, or goes past the
            // games, is refused.
            let mut r = Reader::new(&bytes);
            let mut first = Vec::new();
            read_game_list(&mut r, ids.len() as u64, 1 << 32, 2, |g| {
                first.push(g as u32);
                Ok(())
            })
            .unwrap();
            assert_eq!(first, ids[..ids.len().min(2)]);
            assert_eq!(
                decoded(&bytes, ids.len() as u64 - 1, 1 << 32),
                Err(Truncated)
            );
            assert_eq!(
                decoded(&bytes, ids.len() as u64, *ids.last().unwrap() as u64),
                Err(Truncated)
            );
        }
        // A run of 100,000 games takes 6 bytes where their gaps took 100,000.
        let run: Vec<u32> = (70_000..170_000).collect();
        let mut bytes = Vec::new();
        put_game_list(&mut bytes, &run);
        assert_eq!(bytes.len(), 6);
    }

    #[test]
    fn a_damaged_game_list_is_an_error_or_other_games_never_a_panic() {
        let ids = [3u32, 4, 5, 6, 40, 41, 90];
        let mut bytes = Vec::new();
        put_game_list(&mut bytes, &ids);
        for at in 0..bytes.len() {
            for flip in [0x01, 0x41, 0x80, 0xff] {
                let mut bad = bytes.clone();
                bad[at] ^= flip;
                if let Ok(games) = decoded(&bad, 7, 100) {
                    assert_eq!(games.len(), 7);
                    assert!(games.windows(2).all(|w| w[0] < w[1]) && games[6] < 100);
                }
            }
            assert_eq!(decoded(&bytes[..at], 7, 100), Err(Truncated));
        }
        // A run longer than the move's games.
        let mut run = Vec::new();
        put_varint(&mut run, 1);
        put_varint(&mut run, 7);
        assert_eq!(decoded(&run, 8, 100), Err(Truncated));
        assert_eq!(decoded(&run, 9, 100), Ok((0..9).collect()));
    }

    #[test]
    fn a_game_order_that_names_a_game_twice_is_refused() {
        let sorted = |ids: &[u32], games: u64, keep: usize| {
            let mut bitmap = Vec::new();
            let mut order = ArchiveOrder::new(ids.len() as u64, games, &mut bitmap);
            for &g in ids {
                order.add(g)?;
            }
            order.first(keep)
        };
        // 10 games: a bitmap; a million: a sorted list.
        for games in [10u64, 1 << 20] {
            assert_eq!(sorted(&[4, 2, 4], games, 3), Err(Truncated));
            assert_eq!(sorted(&[9, 2, 7, 3], games, 2), Ok(vec![2, 3]));
            assert_eq!(sorted(&[9, 2, 7, 3], games, 9), Ok(vec![2, 3, 7, 9]));
        }
        assert_eq!(sorted(&[3, 12], 12, 2), Err(Truncated));
        assert_eq!(sorted(&[3, 12], 1 << 20, 2), Ok(vec![3, 12]));
        assert_eq!(sorted(&[3, 1 << 20], 1 << 20, 2), Err(Truncated));
    }

    #[test]
    fn totals_read_back_and_impossible_ones_are_refused() {
        let mut stats = Stats::default();
        for (outcome, first_mover, elo, date) in [
            (Outcome::WhiteWin, Color::White, 2100, 19650101),
            (Outcome::BlackWin, Color::Black, 0, 0),
            (Outcome::Draw, Color::White, 1900, 20071124),
            (Outcome::None, Color::White, 0, 0),
        ] {
            stats.add(&GameInfo {
                outcome,
                first_mover,
                white_elo: elo,
                date,
                plies: 40,
                unreadable: false,
                ..GameInfo::unreadable()
            });
        }
        let mut bytes = Vec::new();
        put_stats(&mut bytes, &stats);
        assert_eq!(read_stats(&mut Reader::new(&bytes), 4), Ok(stats));
        // Four games cannot have these results as three, nor as five.
        for games in [3, 5] {
            assert_eq!(read_stats(&mut Reader::new(&bytes), games), Err(Truncated));
        }
        // Every byte changed, every cut: an error or other numbers, never a panic.
        for at in 0..bytes.len() {
            let mut bad = bytes.clone();
            bad[at] ^= 0x41;
            let _ = read_stats(&mut Reader::new(&bad), 4);
            assert_eq!(
                read_stats(&mut Reader::new(&bytes[..at]), 4),
                Err(Truncated)
            );
        }
    }
}
