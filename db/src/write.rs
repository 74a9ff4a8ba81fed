//! Writing an index file: the sections in order, from a build or a merge, to a temporary file
//! beside the target that is renamed into place once complete.
//!
//! A block of positions holds up to [`BLOCK_POSITIONS`] positions in key order; each is
//! `shared:u8 key-suffix` (bytes shared with the previous key of the block, then the rest),
//! `moves:varint`, then per move `code:u8 games:varint bytes:varint` and its games as runs
//! and single games ([`put_game_list`]); a move of at most [`SHORT_LIST`] games leaves out
//! `bytes` (its list is read to find its end).
//!
//! A whole index numbers the games of its positions in the order of their moves
//! ([`crate::game::order_key`]), so that the games that reached a position along one line are
//! one run of numbers; the game order section maps these numbers back to the archive's
//! (each in as many bits as the largest needs). A part of a sharded build uses the
//! archive's numbers, and its merge renumbers.
//!
//! The moves count is written doubled, plus one when the position carries its moves' totals
//! (a whole index does for a position of at least [`TOTALS_MIN_GAMES`] games): then each
//! move's `bytes` is followed by its games' counts ([`put_stats`]), so that an unfiltered
//! explorer query reads no game record and no game id beyond those it lists.

use crate::bits::put_varint;
use crate::explore::Stats;
use crate::format::{ContainerWriter, IndexError, Section};
use crate::key::{MoveCode, PositionKey, KEY_BYTES};
use crate::record::{GameInfo, Outcome, RecordLayout, NONE_U32};
use drafti_rules::Color;
use serde::{Deserialize, Serialize};
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

/// Positions per block of the positions section.
pub const BLOCK_POSITIONS: usize = 64;
/// Games per entry of the move index.
pub const MOVE_INDEX_STEP: u64 = 64;
/// By default, a position reached by at least this many games carries its moves' totals
/// (below, reading the games' records is quick).
pub const TOTALS_MIN_GAMES: u64 = 512;
/// A move of at most this many games does not state its ids' length in bytes.
pub const SHORT_LIST: u64 = 8;
/// The count of numbers [`put_stats`] writes.
pub const STATS_NUMBERS: usize = 11;
/// Bytes of a block directory entry.
pub const DIR_ENTRY: usize = KEY_BYTES + 8 + 4 + 4;

/// An input an index was built from: its name, its games, and the size and checksum of its
/// text as read (after decoding), so that parts of a sharded build can be told to be of the
/// same archive, and `find` can tell an archive that changed since.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct InputIdentity {
    /// The name it was given (a path, or `-`).
    pub name: String,
    /// Its games (all shards).
    pub games: u64,
    /// Bytes read.
    pub bytes: u64,
    /// CRC-32 of those bytes.
    pub crc32: u32,
}

/// `--shard K/N` of a part.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ShardSpec {
    /// K, 1-based.
    pub index: u64,
    /// N.
    pub count: u64,
}

/// What an index says about itself (the meta section, JSON).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meta {
    /// The drafti version that wrote it.
    pub drafti: String,
    /// The archive's inputs, in order.
    pub inputs: Vec<InputIdentity>,
    /// For a part of a sharded build: which part.
    pub shard: Option<ShardSpec>,
    /// Games in this file.
    pub games: u64,
    /// Games of the whole archive (every shard).
    pub archive_games: u64,
    /// Plies of each game whose positions are indexed.
    pub window: usize,
    /// Whether positions that only one game reaches are kept (a part keeps them, so that
    /// parts merge exactly; a whole index leaves them out and finds them from the games).
    pub single_game_positions: bool,
    /// Positions indexed.
    pub positions: u64,
    /// The fingerprint of the named-opening books the games were tagged with.
    pub books: String,
    /// Games per variant: Tanzanian, Czech, Russian, TzDraft (`Variant::ALL`'s order).
    pub variants: [u64; 4],
    /// A position of at least this many games carries its moves' totals (in a whole index).
    pub totals_min_games: u64,
    /// The fields the game table's records hold.
    pub record: RecordLayout,
}

/// One position and the games that reached it, by the move they played from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionGroup {
    /// The position.
    pub key: PositionKey,
    /// Each move played from it (in code order) and its games (ascending ids).
    pub moves: Vec<(MoveCode, Vec<u32>)>,
}

impl PositionGroup {
    /// The number of games that reached the position.
    pub fn games(&self) -> usize {
        self.moves.iter().map(|(_, g)| g.len()).sum()
    }
}

/// Writes an index file section by section.
pub struct IndexWriter {
    container: ContainerWriter<BufWriter<tempfile::NamedTempFile>>,
    path: std::path::PathBuf,
    moves_lens: Vec<u16>,
    /// What the totals need of each game (a whole index only): [`pack_summary`].
    summaries: Option<Vec<u64>>,
    totals_min_games: u64,
    /// Each archive game's number in the positions section (a whole index only).
    rank: Option<Vec<u32>>,
}

/// What the explorer counts of a game, in 64 bits: result, first mover, plies, rating, date.
fn pack_summary(r: &GameInfo) -> u64 {
    r.outcome.code() as u64
        | ((r.first_mover == Color::Black) as u64) << 3
        | (r.plies as u64) << 4
        | (r.rating().unwrap_or(0) as u64) << 20
        | ((r.date as u64) & ((1 << 28) - 1)) << 36
}

/// A record with what [`pack_summary`] kept (the rest as in an unreadable record).
fn unpack_summary(v: u64) -> GameInfo {
    GameInfo {
        outcome: Outcome::from_code((v & 7) as u8).unwrap_or(Outcome::None),
        first_mover: if v >> 3 & 1 == 1 {
            Color::Black
        } else {
            Color::White
        },
        plies: (v >> 4) as u16,
        white_elo: (v >> 20) as u16,
        date: (v >> 36) as u32,
        unreadable: false,
        white: NONE_U32,
        ..GameInfo::unreadable()
    }
}

/// Writes the counts of a move's games: results, first movers and their wins, plies,
/// ratings, the latest date (the games themselves are the move's count).
pub(crate) fn put_stats(out: &mut Vec<u8>, s: &Stats) {
    let t = &s.tally;
    for v in [
        t.white_wins,
        t.draws,
        t.black_wins,
        t.unknown,
        t.white_first,
        t.first_mover_wins,
        t.second_mover_wins,
        t.total_plies,
        s.rating_sum,
        s.rated,
        s.last_date as u64,
    ] {
        put_varint(out, v);
    }
}

fn io_err(path: &Path) -> impl Fn(std::io::Error) -> IndexError + '_ {
    move |e| IndexError::io(path, e)
}

impl IndexWriter {
    /// Starts writing the index `path` (a temporary file beside it until [`finish`](Self::finish)).
    pub fn create(
        path: &Path,
        single_game_positions: bool,
        totals_min_games: u64,
    ) -> Result<IndexWriter, IndexError> {
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        let tmp = tempfile::Builder::new()
            .prefix(".drafti-index-")
            .tempfile_in(dir)
            .map_err(io_err(path))?;
        let container = ContainerWriter::new(
            BufWriter::with_capacity(1 << 20, tmp),
            single_game_positions as u32,
        )
        .map_err(io_err(path))?;
        Ok(IndexWriter {
            container,
            path: path.to_path_buf(),
            moves_lens: Vec::new(),
            summaries: (!single_game_positions).then(Vec::new),
            totals_min_games,
            rank: None,
        })
    }

    /// The strings section: `count`, `count + 1` offsets, the bytes.
    pub fn strings(&mut self, strings: &[String]) -> Result<(), IndexError> {
        let mut head = Vec::with_capacity(4 + 4 * (strings.len() + 1));
        head.extend_from_slice(&(strings.len() as u32).to_le_bytes());
        let mut at = 0u32;
        head.extend_from_slice(&at.to_le_bytes());
        for s in strings {
            at = at
                .checked_add(s.len() as u32)
                .ok_or_else(|| IndexError::damaged(&self.path, "the names take more than 4 GiB"))?;
            head.extend_from_slice(&at.to_le_bytes());
        }
        let path = self.path.clone();
        let mut s = self.container.section(Section::Strings);
        s.write(&head).map_err(io_err(&path))?;
        for text in strings {
            s.write(text.as_bytes()).map_err(io_err(&path))?;
        }
        s.finish().map_err(io_err(&path))
    }

    /// The records section in `layout` (made from every record), then the move index.
    pub fn records(
        &mut self,
        layout: RecordLayout,
        records: impl Iterator<Item = Result<GameInfo, IndexError>>,
    ) -> Result<(), IndexError> {
        let path = self.path.clone();
        let mut s = self.container.section(Section::Records);
        let mut buf = Vec::with_capacity(layout.size() * 4096);
        for r in records {
            let r = r?;
            self.moves_lens.push(r.moves_len);
            if let Some(s) = &mut self.summaries {
                s.push(pack_summary(&r));
            }
            layout.put(&r, &mut buf);
            if buf.len() >= layout.size() * 4096 {
                s.write(&buf).map_err(io_err(&path))?;
                buf.clear();
            }
        }
        s.write(&buf).map_err(io_err(&path))?;
        s.finish().map_err(io_err(&path))?;
        let mut index = Vec::new();
        let mut at = 0u64;
        for (i, &len) in self.moves_lens.iter().enumerate() {
            if (i as u64).is_multiple_of(MOVE_INDEX_STEP) {
                index.extend_from_slice(&at.to_le_bytes());
            }
            at += len as u64;
        }
        let mut s = self.container.section(Section::MoveIndex);
        s.write(&index).map_err(io_err(&path))?;
        s.finish().map_err(io_err(&path))
    }

    /// The moves section: the games' packed moves in game order (their lengths are the
    /// records' `moves_len`).
    pub fn moves(
        &mut self,
        mut copy: impl FnMut(&mut dyn FnMut(&[u8]) -> Result<(), IndexError>) -> Result<(), IndexError>,
    ) -> Result<(), IndexError> {
        let path = self.path.clone();
        let mut s = self.container.section(Section::Moves);
        let mut total = 0u64;
        copy(&mut |bytes| {
            total += bytes.len() as u64;
            s.write(bytes).map_err(io_err(&path))
        })?;
        let expected: u64 = self.moves_lens.iter().map(|&l| l as u64).sum();
        if total != expected {
            return Err(IndexError::damaged(
                &path,
                format!("the games' moves take {total} bytes, their records say {expected}"),
            ));
        }
        s.finish().map_err(io_err(&path))
    }

    /// The game order section: `order[i]` is the archive number of the positions' game `i`
    /// (a permutation of the games), or `None` for a part, whose positions keep the archive's
    /// numbers. Written before [`positions`](Self::positions), which renumbers by it.
    pub fn game_order(&mut self, order: Option<Vec<u32>>) -> Result<(), IndexError> {
        let path = self.path.clone();
        let mut packed = Vec::new();
        if let Some(order) = order {
            let width = order_width(order.len() as u64);
            let mut rank = vec![u32::MAX; order.len()];
            let (mut acc, mut filled) = (0u64, 0u32);
            for (i, &g) in order.iter().enumerate() {
                let slot = rank.get_mut(g as usize).filter(|r| **r == u32::MAX);
                *slot.ok_or_else(|| {
                    IndexError::damaged(&path, format!("game {g} numbered twice or out of range"))
                })? = i as u32;
                acc |= (g as u64) << filled;
                filled += width;
                while filled >= 8 {
                    packed.push(acc as u8);
                    acc >>= 8;
                    filled -= 8;
                }
            }
            if filled > 0 {
                packed.push(acc as u8);
            }
            self.rank = Some(rank);
        }
        let mut s = self.container.section(Section::GameOrder);
        s.write(&packed).map_err(io_err(&path))?;
        s.finish().map_err(io_err(&path))
    }

    /// The positions section and its block directory, from groups in increasing key order;
    /// returns the number of positions.
    pub fn positions(
        &mut self,
        groups: impl Iterator<Item = Result<PositionGroup, IndexError>>,
    ) -> Result<u64, IndexError> {
        let path = self.path.clone();
        let mut dir = Vec::new();
        let mut s = self.container.section(Section::Positions);
        let mut block = Vec::new();
        let mut in_block = 0usize;
        let mut first = [0u8; KEY_BYTES];
        let mut prev = [0u8; KEY_BYTES];
        let mut last: Option<PositionKey> = None;
        let mut count = 0u64;
        let mut flush = |block: &mut Vec<u8>,
                         in_block: &mut usize,
                         first: &[u8; KEY_BYTES],
                         s: &mut crate::format::SectionWriter<'_, _>|
         -> Result<(), IndexError> {
            if *in_block == 0 {
                return Ok(());
            }
            dir.extend_from_slice(first);
            dir.extend_from_slice(&s.len().to_le_bytes());
            dir.extend_from_slice(&(block.len() as u32).to_le_bytes());
            dir.extend_from_slice(&(*in_block as u32).to_le_bytes());
            s.write(block).map_err(io_err(&path))?;
            block.clear();
            *in_block = 0;
            Ok(())
        };
        for g in groups {
            let g = g?;
            if last.is_some_and(|l| l >= g.key) {
                return Err(IndexError::damaged(&path, "positions out of order"));
            }
            last = Some(g.key);
            let key = g.key.to_bytes();
            let shared = if in_block == 0 {
                first = key;
                0
            } else {
                key.iter().zip(&prev).take_while(|(a, b)| a == b).count()
            };
            block.push(shared as u8);
            block.extend_from_slice(&key[shared..]);
            prev = key;
            let summaries = self
                .summaries
                .as_deref()
                .filter(|_| g.games() as u64 >= self.totals_min_games);
            put_varint(
                &mut block,
                (g.moves.len() as u64) << 1 | summaries.is_some() as u64,
            );
            let mut postings = Vec::new();
            let mut numbers = Vec::new();
            for (code, games) in &g.moves {
                postings.clear();
                match &self.rank {
                    Some(rank) => {
                        numbers.clear();
                        for &id in games {
                            numbers.push(*rank.get(id as usize).ok_or_else(|| {
                                IndexError::damaged(&path, format!("game {id} has no number"))
                            })?);
                        }
                        numbers.sort_unstable();
                        put_game_list(&mut postings, &numbers);
                    }
                    None => put_game_list(&mut postings, games),
                }
                block.push(*code);
                put_varint(&mut block, games.len() as u64);
                if games.len() as u64 > SHORT_LIST {
                    put_varint(&mut block, postings.len() as u64);
                }
                if let Some(summaries) = summaries {
                    let mut stats = Stats::default();
                    for &id in games {
                        let packed = summaries.get(id as usize).ok_or_else(|| {
                            IndexError::damaged(&path, format!("game {id} has no record"))
                        })?;
                        stats.add(&unpack_summary(*packed));
                    }
                    put_stats(&mut block, &stats);
                }
                block.extend_from_slice(&postings);
            }
            in_block += 1;
            count += 1;
            if in_block == BLOCK_POSITIONS || block.len() >= 1 << 16 {
                flush(&mut block, &mut in_block, &first, &mut s)?;
            }
        }
        flush(&mut block, &mut in_block, &first, &mut s)?;
        s.finish().map_err(io_err(&path))?;
        let mut d = self.container.section(Section::BlockDir);
        d.write(&dir).map_err(io_err(&path))?;
        d.finish().map_err(io_err(&path))?;
        Ok(count)
    }

    /// Writes the meta section and the trailer, and renames the file into place.
    pub fn finish(mut self, meta: &Meta) -> Result<(), IndexError> {
        let path = self.path.clone();
        let json = serde_json::to_vec(meta).map_err(|e| IndexError::damaged(&path, e))?;
        let mut s = self.container.section(Section::Meta);
        s.write(&json).map_err(io_err(&path))?;
        s.finish().map_err(io_err(&path))?;
        let out = self.container.finish().map_err(io_err(&path))?;
        let tmp = out
            .into_inner()
            .map_err(|e| IndexError::io(&path, e.into_error()))?;
        tmp.as_file().sync_all().map_err(io_err(&path))?;
        tmp.persist(&path)
            .map_err(|e| IndexError::io(&path, e.error))?;
        Ok(())
    }
}

/// The bits of each entry of the game order section for `games` games.
pub(crate) fn order_width(games: u64) -> u32 {
    64 - games.saturating_sub(1).leading_zeros()
}

/// The game order of games whose [`order_key`](crate::game::order_key)s are `keys` (in
/// archive order): sorted by key, games of equal keys in archive order.
pub(crate) fn game_order(keys: &[[u8; crate::game::ORDER_KEY]]) -> Vec<u32> {
    let mut order: Vec<u32> = (0..keys.len() as u32).collect();
    order.sort_by(|&a, &b| keys[a as usize].cmp(&keys[b as usize]));
    order
}

/// Appends a move's games (ascending, distinct numbers) as pieces: a run of two or more
/// consecutive numbers is `varint(gap << 1 | 1) varint(length - 2)`, a single game
/// `varint(gap << 1)`, where `gap` is how many numbers lie between the previous piece's
/// end and this piece's start (from 0 for the first).
pub(crate) fn put_game_list(out: &mut Vec<u8>, ids: &[u32]) {
    let mut next = 0u64;
    let mut i = 0;
    while i < ids.len() {
        let start = ids[i] as u64;
        let mut end = i + 1;
        while end < ids.len() && ids[end] as u64 == start + (end - i) as u64 {
            end += 1;
        }
        let len = (end - i) as u64;
        let gap = start - next;
        if len >= 2 {
            put_varint(out, gap << 1 | 1);
            put_varint(out, len - 2);
        } else {
            put_varint(out, gap << 1);
        }
        next = start + len;
        i = end;
    }
}

/// Writes `bytes` to `file` (a helper for the temporary files of a build).
pub(crate) fn write_all(
    file: &mut BufWriter<File>,
    bytes: &[u8],
    path: &Path,
) -> Result<(), IndexError> {
    file.write_all(bytes).map_err(io_err(path))
}
