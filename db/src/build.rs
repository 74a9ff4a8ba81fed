//! Building an index from games, streamed: records and moves go to temporary files as games
//! arrive; the positions are sorted outside memory (sorted runs of a fixed size, merged at
//! the end); names are kept in memory (an archive has far fewer players than games).
//!
//! ```text
//! IndexedGame ──add──▶ records (temp) │ moves (temp) │ positions → run buffer ──sort──▶ run files
//! finish: names sorted ─▶ records renumbered ─▶ moves copied ─▶ games ordered by their moves
//!         ─▶ runs merged into positions (games renumbered in that order)
//! ```
//! Game ids are the games' numbers in the archive (from 0, across the inputs), so the parts
//! of a sharded build hold the ids the whole build would, and merge into the same file. A
//! whole build keeps 24 bytes a game (the start of its moves) to order the games at the end.

use crate::format::IndexError;
use crate::game::{order_key, IndexedGame, ORDER_KEY, WINDOW};
use crate::key::{MoveCode, PositionKey, KEY_BYTES};
use crate::record::{GameInfo, RecordLayout, NONE_U32, RECORD_SIZE};
use crate::write::{
    game_order, write_all, IndexWriter, InputIdentity, Meta, PositionGroup, ShardSpec,
    TOTALS_MIN_GAMES,
};
use std::collections::{BinaryHeap, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// How to build.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// For a part of a sharded build: `K/N`.
    pub shard: Option<ShardSpec>,
    /// Keep positions that only one game reaches (parts do, so that they merge exactly).
    pub single_game_positions: bool,
    /// Position entries sorted in memory at a time (each takes 32 bytes).
    pub run_entries: usize,
    /// Where the temporary files go (default: the system's temporary directory).
    pub temp_dir: Option<PathBuf>,
    /// A position of at least this many games carries its moves' totals (a part only says
    /// so, for the merge that makes the whole index).
    pub totals_min_games: u64,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            shard: None,
            single_game_positions: false,
            run_entries: 1 << 21,
            temp_dir: None,
            totals_min_games: TOTALS_MIN_GAMES,
        }
    }
}

/// One position of one game: sorted by key, then move, then game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct Entry {
    key: u128,
    code: MoveCode,
    game: u32,
}

const ENTRY_BYTES: usize = KEY_BYTES + 1 + 4;

impl Entry {
    fn to_bytes(self) -> [u8; ENTRY_BYTES] {
        let mut out = [0u8; ENTRY_BYTES];
        out[..KEY_BYTES].copy_from_slice(&PositionKey(self.key).to_bytes());
        out[KEY_BYTES] = self.code;
        out[KEY_BYTES + 1..].copy_from_slice(&self.game.to_le_bytes());
        out
    }

    fn from_bytes(b: &[u8; ENTRY_BYTES]) -> Entry {
        Entry {
            key: PositionKey::from_bytes(b[..KEY_BYTES].try_into().expect("13")).0,
            code: b[KEY_BYTES],
            game: u32::from_le_bytes(b[KEY_BYTES + 1..].try_into().expect("4")),
        }
    }
}

/// Builds an index from games given in archive order.
pub struct IndexBuilder {
    options: BuildOptions,
    dir: tempfile::TempDir,
    records: BufWriter<File>,
    records_path: PathBuf,
    moves: BufWriter<File>,
    moves_path: PathBuf,
    names: HashMap<String, u32>,
    name_list: Vec<String>,
    buffer: Vec<Entry>,
    runs: Vec<PathBuf>,
    games: u64,
    variants: [u64; 4],
    books: String,
    /// What the games' records hold (their dates, ratings, book names).
    layout: RecordLayout,
    /// Each game's [`order_key`] (a whole build only): 24 bytes a game, sorted at the end.
    order_keys: Vec<[u8; ORDER_KEY]>,
}

/// What a finished build wrote.
#[derive(Clone, Debug)]
pub struct BuildSummary {
    /// The index's meta section.
    pub meta: Meta,
    /// The size of the file.
    pub bytes: u64,
    /// Per input, what its games say of their rules (the variant policy's evidence: an
    /// untagged archive of other rules, read as Tanzanian, shows in its invalid games).
    pub variants: Vec<drafti_archive::validation::VariantGuess>,
}

impl IndexBuilder {
    /// An empty build; `books` is the fingerprint of the books the games are named with.
    pub fn new(options: BuildOptions, books: String) -> Result<IndexBuilder, IndexError> {
        let temp = options.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
        let dir = tempfile::Builder::new()
            .prefix("drafti-index-build-")
            .tempdir_in(&temp)
            .map_err(|e| IndexError::io(&temp, e))?;
        let open = |name: &str| -> Result<(BufWriter<File>, PathBuf), IndexError> {
            let path = dir.path().join(name);
            let f = File::create(&path).map_err(|e| IndexError::io(&path, e))?;
            Ok((BufWriter::with_capacity(1 << 20, f), path))
        };
        let (records, records_path) = open("records")?;
        let (moves, moves_path) = open("moves")?;
        Ok(IndexBuilder {
            buffer: Vec::with_capacity(options.run_entries.min(1 << 24)),
            options,
            dir,
            records,
            records_path,
            moves,
            moves_path,
            names: HashMap::new(),
            name_list: Vec::new(),
            runs: Vec::new(),
            games: 0,
            variants: [0; 4],
            books,
            layout: RecordLayout::for_names(0),
            order_keys: Vec::new(),
        })
    }

    /// Games added so far.
    pub fn games(&self) -> u64 {
        self.games
    }

    fn name(&mut self, name: Option<String>) -> u32 {
        let Some(name) = name else {
            return NONE_U32;
        };
        if let Some(&id) = self.names.get(&name) {
            return id;
        }
        let id = self.name_list.len() as u32;
        self.name_list.push(name.clone());
        self.names.insert(name, id);
        id
    }

    /// Adds the next game of the archive (of this shard).
    pub fn add(&mut self, game: IndexedGame) -> Result<(), IndexError> {
        let id = match self.options.shard {
            Some(s) => self.games * s.count + s.index - 1,
            None => self.games,
        };
        let id = u32::try_from(id).map_err(|_| {
            IndexError::damaged(&self.records_path, "more than 4,294,967,295 games")
        })?;
        let mut info = game.info;
        info.white = self.name(game.white);
        info.black = self.name(game.black);
        info.event = self.name(game.event);
        if !info.unreadable {
            self.variants[crate::key::variant_code(info.variant) as usize] += 1;
        }
        let moves = &game.moves[..game.moves.len().min(info.moves_len as usize)];
        self.layout.take(&info);
        write_all(&mut self.records, &info.to_bytes(), &self.records_path)?;
        write_all(&mut self.moves, moves, &self.moves_path)?;
        if self.options.shard.is_none() {
            self.order_keys.push(order_key(moves));
        }
        for (key, code) in game.entries {
            self.buffer.push(Entry {
                key: key.0,
                code,
                game: id,
            });
        }
        if self.buffer.len() >= self.options.run_entries {
            self.spill()?;
        }
        self.games += 1;
        Ok(())
    }

    fn spill(&mut self) -> Result<(), IndexError> {
        if self.buffer.is_empty() {
            return Ok(());
        }
        self.buffer.sort_unstable();
        let path = self.dir.path().join(format!("run-{}", self.runs.len()));
        let f = File::create(&path).map_err(|e| IndexError::io(&path, e))?;
        let mut w = BufWriter::with_capacity(1 << 20, f);
        for e in &self.buffer {
            write_all(&mut w, &e.to_bytes(), &path)?;
        }
        std::io::Write::flush(&mut w).map_err(|e| IndexError::io(&path, e))?;
        self.buffer.clear();
        self.runs.push(path);
        Ok(())
    }

    /// Writes the index to `out`. `inputs` are the archive's inputs as read.
    pub fn finish(
        mut self,
        out: &Path,
        inputs: Vec<InputIdentity>,
    ) -> Result<BuildSummary, IndexError> {
        self.spill()?;
        for (w, p) in [
            (&mut self.records, &self.records_path),
            (&mut self.moves, &self.moves_path),
        ] {
            std::io::Write::flush(w).map_err(|e| IndexError::io(p, e))?;
        }
        // Names in sorted order, so the same archive gives the same file however it was split.
        let mut order: Vec<u32> = (0..self.name_list.len() as u32).collect();
        order.sort_by(|&a, &b| self.name_list[a as usize].cmp(&self.name_list[b as usize]));
        let mut renumber = vec![0u32; order.len()];
        for (new, &old) in order.iter().enumerate() {
            renumber[old as usize] = new as u32;
        }
        let names: Vec<String> = order
            .iter()
            .map(|&i| std::mem::take(&mut self.name_list[i as usize]))
            .collect();

        let mut writer = IndexWriter::create(
            out,
            self.options.single_game_positions,
            self.options.totals_min_games,
        )?;
        writer.strings(&names)?;
        let records_path = self.records_path.clone();
        let mut records = BufReader::with_capacity(
            1 << 20,
            File::open(&records_path).map_err(|e| IndexError::io(&records_path, e))?,
        );
        let map = |id: u32| {
            if id == NONE_U32 {
                id
            } else {
                renumber[id as usize]
            }
        };
        let layout = RecordLayout {
            name_bytes: RecordLayout::for_names(names.len()).name_bytes,
            ..self.layout
        };
        let mut left = self.games;
        writer.records(
            layout,
            std::iter::from_fn(|| {
                if left == 0 {
                    return None;
                }
                left -= 1;
                let mut b = [0u8; RECORD_SIZE];
                Some(
                    records
                        .read_exact(&mut b)
                        .map_err(|e| IndexError::io(&records_path, e))
                        .and_then(|()| {
                            GameInfo::from_bytes(&b).ok_or_else(|| {
                                IndexError::damaged(&records_path, "a record of the build")
                            })
                        })
                        .map(|mut r| {
                            r.white = map(r.white);
                            r.black = map(r.black);
                            r.event = map(r.event);
                            r
                        }),
                )
            }),
        )?;
        let moves_path = self.moves_path.clone();
        writer.moves(|sink| {
            let mut f = BufReader::with_capacity(
                1 << 20,
                File::open(&moves_path).map_err(|e| IndexError::io(&moves_path, e))?,
            );
            loop {
                let buf = f.fill_buf().map_err(|e| IndexError::io(&moves_path, e))?;
                if buf.is_empty() {
                    return Ok(());
                }
                let n = buf.len();
                sink(buf)?;
                f.consume(n);
            }
        })?;
        // A part keeps the archive's numbers; its merge numbers the games.
        let order = self
            .options
            .shard
            .is_none()
            .then(|| game_order(&std::mem::take(&mut self.order_keys)));
        writer.game_order(order)?;
        let keep = self.options.single_game_positions;
        let groups = RunMerge::open(&self.runs)?.groups(keep);
        let positions = writer.positions(groups)?;
        // Every game of the archive was read, whichever shard this is.
        let read: u64 = inputs.iter().map(|i| i.games).sum();
        let archive_games = match self.options.shard {
            None => self.games,
            Some(s) => read.max(self.games.saturating_sub(1) * s.count + s.index),
        };
        let meta = Meta {
            drafti: env!("CARGO_PKG_VERSION").to_string(),
            inputs,
            shard: self.options.shard,
            games: self.games,
            archive_games,
            window: WINDOW,
            single_game_positions: keep,
            positions,
            books: self.books.clone(),
            variants: self.variants,
            totals_min_games: self.options.totals_min_games,
            record: layout,
        };
        writer.finish(&meta)?;
        let bytes = std::fs::metadata(out)
            .map_err(|e| IndexError::io(out, e))?
            .len();
        Ok(BuildSummary {
            meta,
            bytes,
            variants: Vec::new(),
        })
    }
}

/// The sorted runs of a build, merged into one stream of entries.
struct RunMerge {
    readers: Vec<(BufReader<File>, PathBuf)>,
    heap: BinaryHeap<std::cmp::Reverse<(Entry, usize)>>,
}

impl RunMerge {
    fn open(runs: &[PathBuf]) -> Result<RunMerge, IndexError> {
        let mut m = RunMerge {
            readers: Vec::with_capacity(runs.len()),
            heap: BinaryHeap::new(),
        };
        for (i, p) in runs.iter().enumerate() {
            let f = File::open(p).map_err(|e| IndexError::io(p, e))?;
            m.readers
                .push((BufReader::with_capacity(1 << 16, f), p.clone()));
            if let Some(e) = m.read(i)? {
                m.heap.push(std::cmp::Reverse((e, i)));
            }
        }
        Ok(m)
    }

    fn read(&mut self, i: usize) -> Result<Option<Entry>, IndexError> {
        let (r, p) = &mut self.readers[i];
        let mut b = [0u8; ENTRY_BYTES];
        match r.read_exact(&mut b) {
            Ok(()) => Ok(Some(Entry::from_bytes(&b))),
            Err(e) if e.kind() == std::io::ErrorKind::UnexpectedEof => Ok(None),
            Err(e) => Err(IndexError::io(p, e)),
        }
    }

    fn next(&mut self) -> Result<Option<Entry>, IndexError> {
        let Some(std::cmp::Reverse((e, i))) = self.heap.pop() else {
            return Ok(None);
        };
        if let Some(next) = self.read(i)? {
            self.heap.push(std::cmp::Reverse((next, i)));
        }
        Ok(Some(e))
    }

    /// The positions, grouped; without `keep`, positions reached by a single game are left out.
    fn groups(mut self, keep: bool) -> impl Iterator<Item = Result<PositionGroup, IndexError>> {
        let mut pending: Option<Entry> = None;
        std::iter::from_fn(move || loop {
            let first = match pending.take() {
                Some(e) => e,
                None => match self.next() {
                    Ok(Some(e)) => e,
                    Ok(None) => return None,
                    Err(e) => return Some(Err(e)),
                },
            };
            let mut group = PositionGroup {
                key: PositionKey(first.key),
                moves: vec![(first.code, vec![first.game])],
            };
            loop {
                match self.next() {
                    Ok(Some(e)) if e.key == first.key => {
                        let last = group.moves.last_mut().expect("one move at least");
                        if last.0 == e.code {
                            if last.1.last() != Some(&e.game) {
                                last.1.push(e.game);
                            }
                        } else {
                            group.moves.push((e.code, vec![e.game]));
                        }
                    }
                    Ok(Some(e)) => {
                        pending = Some(e);
                        break;
                    }
                    Ok(None) => break,
                    Err(e) => return Some(Err(e)),
                }
            }
            if keep || group.games() >= 2 {
                return Some(Ok(group));
            }
        })
    }
}

/// Counts the bytes of an input and their CRC-32 as they are read (the identity of the
/// archive an index is built from).
#[derive(Clone, Default)]
pub struct InputFingerprint(Arc<Mutex<(u64, crc32fast::Hasher)>>);

impl InputFingerprint {
    /// `reader`, with every byte read through it counted here.
    pub fn wrap(&self, reader: Box<dyn BufRead + Send>) -> Box<dyn BufRead + Send> {
        Box::new(Counted {
            inner: reader,
            fingerprint: self.clone(),
        })
    }

    /// Bytes read and their CRC-32.
    pub fn finish(&self) -> (u64, u32) {
        let g = self.0.lock().unwrap_or_else(|e| e.into_inner());
        (g.0, g.1.clone().finalize())
    }
}

struct Counted {
    inner: Box<dyn BufRead + Send>,
    fingerprint: InputFingerprint,
}

impl Counted {
    fn add(&self, bytes: &[u8]) {
        let mut g = self.fingerprint.0.lock().unwrap_or_else(|e| e.into_inner());
        g.0 += bytes.len() as u64;
        g.1.update(bytes);
    }
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.add(&buf[..n]);
        Ok(n)
    }
}

impl BufRead for Counted {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        if let Ok(buf) = self.inner.fill_buf() {
            let n = amt.min(buf.len());
            let mut g = self.fingerprint.0.lock().unwrap_or_else(|e| e.into_inner());
            g.0 += n as u64;
            g.1.update(&buf[..n]);
        }
        self.inner.consume(amt);
    }
}

/// Why building an index from archives stopped.
#[derive(Debug, thiserror::Error)]
pub enum BuildError {
    /// An input could not be read.
    #[error("{file}: {source}")]
    Read {
        /// The input.
        file: String,
        /// What failed.
        source: std::io::Error,
    },
    /// The worker threads could not start.
    #[error("cannot start the worker threads: {0}")]
    Pool(String),
    /// The index could not be written.
    #[error(transparent)]
    Index(#[from] IndexError),
}

/// Builds the index `out` of the games of `inputs` (this shard's, with `options.shard`),
/// replayed in parallel by the batch driver; `progress` is told how far it got.
pub fn build_index(
    inputs: Vec<drafti_archive::batch::Input>,
    batch: &drafti_archive::batch::BatchOptions,
    options: BuildOptions,
    books: &crate::Books,
    out: &Path,
    progress: impl FnMut(drafti_archive::batch::Progress),
) -> Result<BuildSummary, BuildError> {
    use drafti_archive::batch::{run_games, BatchError, Input};
    use drafti_archive::validation::{VariantEvidence, VariantGuess};
    let fingerprints: Vec<InputFingerprint> =
        inputs.iter().map(|_| InputFingerprint::default()).collect();
    let names: Vec<String> = inputs.iter().map(|i| i.name.clone()).collect();
    let inputs: Vec<Input> = inputs
        .into_iter()
        .zip(&fingerprints)
        .map(|(i, f)| Input::new(i.name, f.wrap(i.reader)))
        .collect();
    let mut batch = batch.clone();
    batch.shard = options.shard.map(|s| drafti_archive::batch::Shard {
        index: s.index,
        count: s.count,
    });
    let mut builder = IndexBuilder::new(options, books.fingerprint())?;
    let mut variants = vec![VariantGuess::default(); names.len()];
    let replay = batch.replay.clone();
    let summary = run_games(
        inputs,
        &batch,
        progress,
        |job| {
            let evidence = VariantEvidence::of(&job.game, &replay);
            (
                job.file_index,
                evidence,
                IndexedGame::new(job.game.as_ref(), books),
            )
        },
        |(input, evidence, game)| {
            variants[input].add_evidence(&evidence);
            builder.add(game)
        },
    )
    .map_err(|e| match e {
        BatchError::Io { file, source } => BuildError::Read { file, source },
        BatchError::Pool(p) => BuildError::Pool(p),
        BatchError::Sink(e) => BuildError::Index(e),
    })?;
    let identities = names
        .into_iter()
        .zip(&fingerprints)
        .zip(&summary.games_per_input)
        .map(|((name, f), &games)| {
            let (bytes, crc32) = f.finish();
            InputIdentity {
                name,
                games,
                bytes,
                crc32,
            }
        })
        .collect();
    let mut built = builder.finish(out, identities)?;
    built.variants = variants;
    Ok(built)
}
