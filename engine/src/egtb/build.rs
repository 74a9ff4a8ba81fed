//! The retrograde build.
//!
//! Signatures are built smallest first: fewer pieces, then fewer men. A capture leads to
//! fewer pieces and a crowning to fewer men, so every move that leaves a signature (an *exit*)
//! lands in a finished table. The moves that stay are quiet, non-crowning moves, and they
//! lead from a signature to its colour-swapped partner (`KMvK` → `KvKM`), so the two are
//! solved together as one *unit*.
//!
//! For each unit:
//! 1. **Forward pass** (parallel over indices): each position's legal moves from the rules
//!    core. No move: lost now. A law draws it: terminal. Otherwise the best exit value is
//!    looked up in the finished tables and the moves that stay are counted.
//! 2. **Retrograde passes** by increasing distance `d` (parallel over the positions resolved
//!    at `d`): a position lost in `d` makes every predecessor (by un-moves) a win in `d + 1`;
//!    a position won in `d` takes one from each predecessor's count of open moves, and a
//!    predecessor whose count reaches zero is lost, in the larger of `d + 1` and its best
//!    exit's distance — unless an exit draws (a draw) or wins (won at that exit's distance,
//!    scheduled by the forward pass). Wins have odd and losses even distances, so each pass
//!    resolves one kind and the order gives the shortest wins and the longest losses.
//! 3. What is left unresolved is a draw.
//!
//! Un-moves (a king sliding back, a man stepping back) are checked against the forward
//! generator: a predecessor must have no capture (else its quiet move were illegal), and the
//! tests check on every small table that the predecessors of every position are exactly the
//! positions whose legal moves lead to it.
//!
//! Tanzanian law 3 (two kings and a man against a king, a king on the main diagonal): the
//! lone side's claim is one more exit of its positions, worth what the three kings against
//! one after it are worth with the same side to move and the count at 0 (not turned round
//! like a move's value: the claim is no move).
//!
//! Tanzanian three kings against one is layered by the lone king's count: layer 11 first
//! (a lone-king move there reaches the 12th and draws), down to 0; inside a layer only the
//! strong side's moves stay, the lone king's moves are exits into the layer above.

use super::format::{self, encode, Header, TableFile, MAX_DISTANCE};
use super::index::Signature;
use super::probe::Tables;
use super::{EgtbError, Value};
use crate::laws::{law3_claim, LawState};
use crate::StopFlag;
use drafti_rules::{king_reach, Bitboard, Color, DrawLaws, MoveList, Position, Square, Variant};
use rayon::prelude::*;
use std::path::Path;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};

/// A working value not resolved yet (and, in the exit column, no exit).
const OPEN: u8 = 255;

/// What the build reports as it goes (from worker threads too).
#[derive(Clone, Copy, Debug)]
pub enum BuildEvent {
    /// The plan: signatures to build (kept ones included) and their positions (indices).
    Plan {
        /// Signatures in the plan.
        signatures: usize,
        /// Their positions (indices, layers included).
        positions: u64,
    },
    /// A finished table was found, checked and kept.
    Kept {
        /// The table's material.
        signature: Signature,
        /// Its positions (indices, layers included).
        positions: u64,
    },
    /// This many more positions went through the forward pass.
    Progress {
        /// Positions done since the last report.
        positions: u64,
    },
    /// A table was built and written.
    Built {
        /// The table's material.
        signature: Signature,
        /// Its positions (indices, layers included).
        positions: u64,
        /// The longest win or loss in it, in plies.
        max_distance: u32,
    },
}

/// Builds every table of `variant` with at most `max_pieces` pieces under `root` (in the
/// variant's folder), keeping the tables already there (checked), and returns them all. Runs
/// on the current rayon pool.
pub fn build(
    root: &Path,
    variant: Variant,
    max_pieces: u32,
    on_event: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Tables, EgtbError> {
    if max_pieces > super::MAX_PIECES {
        return Err(EgtbError::TooManyPieces(max_pieces));
    }
    build_signatures(root, variant, &Signature::all_up_to(max_pieces), on_event)
}

/// [`build`] that gives up with [`EgtbError::Stopped`] once `stop` is raised (looked at
/// every few thousand positions, so within milliseconds): for a caller that must answer an
/// interrupt. The tables finished before it stay on disk and are kept by the next build.
pub fn build_until(
    root: &Path,
    variant: Variant,
    max_pieces: u32,
    on_event: &(dyn Fn(BuildEvent) + Sync),
    stop: &StopFlag,
) -> Result<Tables, EgtbError> {
    if max_pieces > super::MAX_PIECES {
        return Err(EgtbError::TooManyPieces(max_pieces));
    }
    build_targets(
        root,
        variant,
        &Signature::all_up_to(max_pieces),
        on_event,
        stop,
    )
}

/// Builds the tables of `targets` and of every signature they lead to (by captures and
/// crowning), and returns them.
pub fn build_signatures(
    root: &Path,
    variant: Variant,
    targets: &[Signature],
    on_event: &(dyn Fn(BuildEvent) + Sync),
) -> Result<Tables, EgtbError> {
    build_targets(root, variant, targets, on_event, &StopFlag::new())
}

pub(super) fn build_targets(
    root: &Path,
    variant: Variant,
    targets: &[Signature],
    on_event: &(dyn Fn(BuildEvent) + Sync),
    stop: &StopFlag,
) -> Result<Tables, EgtbError> {
    super::check_rules(variant)?;
    let needed = needed(targets)?;
    let dir = Tables::variant_dir(root, variant);
    std::fs::create_dir_all(&dir).map_err(|source| EgtbError::Io {
        path: dir.clone(),
        source,
    })?;
    let laws = DrawLaws::for_variant(variant);
    let units = units(&needed);
    let layers = |s: Signature| layers(laws, s);
    on_event(BuildEvent::Plan {
        signatures: needed.len(),
        positions: needed
            .iter()
            .map(|&s| s.positions() * u64::from(layers(s)))
            .sum(),
    });
    let mut tables = Tables::empty(variant, dir.clone());
    for unit in units {
        let paths: Vec<_> = unit
            .iter()
            .map(|&s| dir.join(format::file_name(s)))
            .collect();
        // A unit is kept only whole; a leftover temporary file is an interrupted write.
        for path in &paths {
            let _ = std::fs::remove_file(format::temporary_path(path));
        }
        if paths.iter().all(|p| p.exists()) {
            for (path, &sig) in paths.iter().zip(&unit) {
                tables.insert(TableFile::open(path)?)?;
                on_event(BuildEvent::Kept {
                    signature: sig,
                    positions: sig.positions() * u64::from(layers(sig)),
                });
            }
            continue;
        }
        let built = solve_unit(&tables, variant, laws, &unit, on_event, stop)?;
        for (work, path) in built.into_iter().zip(&paths) {
            let header = work.finish_header(variant, laws);
            let payload = work.payload();
            format::write(path, header, &payload)?;
            drop(payload);
            tables.insert(TableFile::open(path)?)?;
            on_event(BuildEvent::Built {
                signature: work.sig,
                positions: header.entries,
                max_distance: header.max_distance,
            });
        }
    }
    Ok(tables)
}

/// What a build would make, before it starts: for a size check (an eight-piece build is
/// half a trillion positions) and the estimate a person confirms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuildPlan {
    /// Signatures the build needs (those already on disk included).
    pub signatures: usize,
    /// Their positions (indices, layers included).
    pub positions: u64,
    /// Signatures with no file yet: to be solved.
    pub new_signatures: usize,
    /// Their positions: one byte each on disk (plus a 64-byte header a table), and the
    /// measure of the build's time and memory.
    pub new_positions: u64,
}

impl BuildPlan {
    /// The bytes the new tables take on disk.
    pub fn new_bytes(&self) -> u64 {
        self.new_positions + (format::HEADER_LEN as u64) * self.new_signatures as u64
    }
}

/// The plan of [`build`] (`targets`: every signature of at most `max_pieces` pieces) or of
/// [`build_signatures`]: what it would solve under `root` for `variant`, without building.
///
/// ```
/// use drafti_engine::egtb::{plan, Signature};
/// use drafti_rules::Variant;
/// let dir = std::env::temp_dir().join("drafti-egtb-plan-doc");
/// let small = plan(&dir, Variant::Tanzanian, &Signature::all_up_to(3)).unwrap();
/// let big = plan(&dir, Variant::Tanzanian, &Signature::all_up_to(8)).unwrap();
/// assert!(small.positions < 1_000_000 && small.new_positions <= small.positions);
/// assert!(big.new_positions > 100_000_000_000);
/// ```
pub fn plan(root: &Path, variant: Variant, targets: &[Signature]) -> Result<BuildPlan, EgtbError> {
    super::check_rules(variant)?;
    let needed = needed(targets)?;
    let dir = Tables::variant_dir(root, variant);
    let laws = DrawLaws::for_variant(variant);
    let mut plan = BuildPlan {
        signatures: needed.len(),
        positions: 0,
        new_signatures: 0,
        new_positions: 0,
    };
    for s in needed {
        let positions = s.positions() * u64::from(layers(laws, s));
        plan.positions += positions;
        if !dir.join(format::file_name(s)).is_file() {
            plan.new_signatures += 1;
            plan.new_positions += positions;
        }
    }
    Ok(plan)
}

/// Every signature `targets` lead to, smallest first.
fn needed(targets: &[Signature]) -> Result<Vec<Signature>, EgtbError> {
    let max = targets.iter().map(|s| s.pieces()).max().unwrap_or(0);
    if max > super::MAX_PIECES {
        return Err(EgtbError::TooManyPieces(max));
    }
    Ok(Signature::all_up_to(max)
        .into_iter()
        .filter(|s| targets.iter().any(|t| leads_to(*t, *s)))
        .collect())
}

/// Whether a game with material `from` can come to material `to` (captures remove pieces,
/// crowning turns men into kings), either side to move.
fn leads_to(from: Signature, to: Signature) -> bool {
    let side = |m: u8, k: u8, m2: u8, k2: u8| m2 <= m && m2 + k2 <= m + k;
    let (a, b) = (from, to);
    (side(a.white_men, a.white_kings, b.white_men, b.white_kings)
        && side(a.black_men, a.black_kings, b.black_men, b.black_kings))
        || (side(a.white_men, a.white_kings, b.black_men, b.black_kings)
            && side(a.black_men, a.black_kings, b.white_men, b.white_kings))
}

/// Signatures grouped with their colour-swapped partners, in build order.
fn units(signatures: &[Signature]) -> Vec<Vec<Signature>> {
    let mut units: Vec<Vec<Signature>> = Vec::new();
    for &sig in signatures {
        if units.iter().any(|u| u.contains(&sig)) {
            continue;
        }
        let partner = sig.swapped();
        if partner == sig || !signatures.contains(&partner) {
            units.push(vec![sig]);
        } else {
            units.push(vec![sig, partner]);
        }
    }
    units
}

/// Layers of a signature's table: one per lone-king count in Tanzanian three kings
/// against one, else one.
pub(crate) fn layers(laws: DrawLaws, sig: Signature) -> u32 {
    let three_one = matches!((sig.white_kings, sig.black_kings), (3, 1) | (1, 3));
    if laws.enabled && sig.kings_only() && three_one {
        laws.king_count.max(1)
    } else {
        1
    }
}

/// The law state of every position of `sig`'s layer `layer`.
fn layer_law(laws: &DrawLaws, sig: Signature, layer: u32, pos: &Position) -> LawState {
    if layers(*laws, sig) > 1 {
        LawState::Count(layer)
    } else {
        LawState::at_root(laws, pos, None)
    }
}

/// One table of a unit being solved.
struct Work {
    sig: Signature,
    per_layer: u64,
    layers: u32,
    /// Resolved value (format byte) or [`OPEN`].
    value: Vec<AtomicU8>,
    /// Moves staying in the unit whose value is still open.
    open_moves: Vec<AtomicU8>,
    /// The best value over the moves leaving the unit (format byte) or [`OPEN`] for none.
    exit: Vec<AtomicU8>,
    /// Indices of one layer that are no position.
    holes: u64,
}

fn atomic_bytes(n: u64, byte: u8) -> Vec<AtomicU8> {
    (0..n).map(|_| AtomicU8::new(byte)).collect()
}

impl Work {
    fn new(laws: DrawLaws, sig: Signature) -> Work {
        let per_layer = sig.positions();
        let layers = layers(laws, sig);
        let n = per_layer * u64::from(layers);
        Work {
            sig,
            per_layer,
            layers,
            value: atomic_bytes(n, OPEN),
            open_moves: atomic_bytes(n, 0),
            exit: atomic_bytes(n, OPEN),
            holes: 0,
        }
    }

    /// The final bytes: what is still open is a draw.
    fn payload(&self) -> Vec<u8> {
        self.value
            .iter()
            .map(|v| match v.load(Relaxed) {
                OPEN => 0,
                b => b,
            })
            .collect()
    }

    fn finish_header(&self, variant: Variant, laws: DrawLaws) -> Header {
        let mut counts = [0u64; 3];
        let mut max_distance = 0;
        for v in &self.value {
            match format::decode(v.load(Relaxed)).unwrap_or(Value::Draw) {
                Value::Win(d) => {
                    counts[0] += 1;
                    max_distance = max_distance.max(d);
                }
                Value::Draw => counts[1] += 1,
                Value::Loss(d) => {
                    counts[2] += 1;
                    max_distance = max_distance.max(d);
                }
            }
        }
        Header {
            variant,
            laws,
            layers: self.layers,
            signature: self.sig,
            max_distance,
            entries: self.per_layer * u64::from(self.layers),
            wins: counts[0],
            draws: counts[1] - self.holes * u64::from(self.layers),
            losses: counts[2],
        }
    }
}

/// A position to resolve at a distance: its table in the unit, its index, and whether its
/// value must still be set (`false`: set when it was scheduled).
#[derive(Clone, Copy)]
struct Entry {
    index: u32,
    table: u8,
    set: bool,
}

/// Entries by distance.
#[derive(Default)]
struct Buckets(Vec<Vec<Entry>>);

impl Buckets {
    fn push(&mut self, distance: u32, entry: Entry) {
        let d = distance as usize;
        if self.0.len() <= d {
            self.0.resize_with(d + 1, Vec::new);
        }
        self.0[d].push(entry);
    }

    fn merge(mut self, other: Buckets) -> Buckets {
        if self.0.len() < other.0.len() {
            return other.merge(self);
        }
        for (d, list) in other.0.into_iter().enumerate() {
            if self.0[d].is_empty() {
                self.0[d] = list;
            } else {
                self.0[d].extend(list);
            }
        }
        self
    }
}

/// The shared context of a unit's solve.
struct Solve<'a> {
    tables: &'a Tables,
    variant: Variant,
    laws: DrawLaws,
    work: Vec<Work>,
    on_event: &'a (dyn Fn(BuildEvent) + Sync),
    stop: &'a StopFlag,
}

fn solve_unit(
    tables: &Tables,
    variant: Variant,
    laws: DrawLaws,
    unit: &[Signature],
    on_event: &(dyn Fn(BuildEvent) + Sync),
    stop: &StopFlag,
) -> Result<Vec<Work>, EgtbError> {
    let work: Vec<Work> = unit.iter().map(|&s| Work::new(laws, s)).collect();
    for w in &work {
        if w.per_layer * u64::from(w.layers) > u64::from(u32::MAX) {
            return Err(EgtbError::TooManyPieces(w.sig.pieces()));
        }
    }
    let mut solve = Solve {
        tables,
        variant,
        laws,
        work,
        on_event,
        stop,
    };
    let layers = solve.work[0].layers;
    for layer in (0..layers).rev() {
        let mut buckets = Buckets::default();
        for t in 0..solve.work.len() {
            let (found, holes) = solve.forward(t, layer)?;
            buckets = buckets.merge(found);
            if layer == 0 {
                solve.work[t].holes = holes;
            }
        }
        solve.retrograde(buckets)?;
    }
    Ok(solve.work)
}

impl Solve<'_> {
    /// The table of the unit that `t`'s moves lead to.
    fn partner(&self, t: usize) -> usize {
        if self.work.len() == 2 {
            1 - t
        } else {
            t
        }
    }

    /// The table of `sig` in this unit.
    fn table_of(&self, sig: Signature) -> Option<usize> {
        self.work.iter().position(|w| w.sig == sig)
    }

    /// The value of a position reached by a move leaving the unit (or its layer).
    fn exit_value(&self, child: &Position, law: LawState) -> Result<Value, EgtbError> {
        if !child.has_legal_move(self.variant) {
            return Ok(Value::Loss(0));
        }
        let layer = match law {
            LawState::Drawn(_) => return Ok(Value::Draw),
            LawState::Count(n) => n,
            // The tables are built under the laws of RULES.md: no TzDraft state arises.
            LawState::Free | LawState::Server(_) => 0,
        };
        let norm = super::index::normalized(child);
        let sig = Signature::of(&norm);
        if let Some(t) = self.table_of(sig) {
            // A higher layer of this unit, finished: what is open there is a draw.
            let w = &self.work[t];
            let i = u64::from(layer) * w.per_layer + sig.index(&norm);
            let byte = w.value[i as usize].load(Relaxed);
            return Ok(format::decode(byte).unwrap_or(Value::Draw));
        }
        self.tables
            .lookup(child, layer)
            .ok_or(EgtbError::MissingTable(sig))
    }

    /// The forward pass over one layer of table `t`: counts, exits, and the positions whose
    /// value is known from the exits alone. Returns them by distance, and the holes.
    fn forward(&self, t: usize, layer: u32) -> Result<(Buckets, u64), EgtbError> {
        let w = &self.work[t];
        let offset = u64::from(layer) * w.per_layer;
        const CHUNK: u64 = 1 << 14;
        let chunks = w.per_layer.div_ceil(CHUNK);
        let results: Vec<(Buckets, u64)> = (0..chunks)
            .into_par_iter()
            .map(|c| {
                if self.stop.is_raised() {
                    return Err(EgtbError::Stopped);
                }
                let start = c * CHUNK;
                let end = (start + CHUNK).min(w.per_layer);
                let mut found = Buckets::default();
                let mut holes = 0;
                let mut list = MoveList::new();
                for i in start..end {
                    let Some(pos) = w.sig.position(i) else {
                        holes += 1;
                        w.value[(offset + i) as usize].store(0, Relaxed);
                        continue;
                    };
                    let index = offset + i;
                    let entry = Entry {
                        index: index as u32,
                        table: t as u8,
                        set: false,
                    };
                    let law = layer_law(&self.laws, w.sig, layer, &pos);
                    pos.generate_moves(self.variant, &mut list);
                    if list.is_empty() {
                        found.push(0, entry);
                        continue;
                    }
                    if let LawState::Drawn(_) = law {
                        w.value[index as usize].store(0, Relaxed);
                        continue;
                    }
                    let mut staying = 0u8;
                    let mut best: Option<Value> = None;
                    for mv in list.iter() {
                        let child = pos.play(mv);
                        let child_law = law.after(&self.laws, &child, Color::White);
                        if !mv.is_capture() && !mv.promotes() && child_law == law {
                            staying += 1;
                        } else {
                            let v = self.exit_value(&child, child_law)?.back();
                            if best.is_none_or(|b| v.rank() > b.rank()) {
                                best = Some(v);
                            }
                        }
                    }
                    // Law 3: the lone side's claim leaves the unit like a move, but is no
                    // move: the position after it has the same side to move (not backed).
                    if let Some(crowned) = law3_claim(&self.laws, &pos) {
                        let v = self.exit_value(&crowned, LawState::Count(0))?;
                        if best.is_none_or(|b| v.rank() > b.rank()) {
                            best = Some(v);
                        }
                    }
                    w.open_moves[index as usize].store(staying, Relaxed);
                    w.exit[index as usize].store(best.map_or(OPEN, encode), Relaxed);
                    match (staying, best) {
                        (0, Some(Value::Draw)) => w.value[index as usize].store(0, Relaxed),
                        (0, Some(Value::Win(d) | Value::Loss(d))) | (_, Some(Value::Win(d))) => {
                            found.push(d, entry)
                        }
                        _ => {}
                    }
                }
                (self.on_event)(BuildEvent::Progress {
                    positions: end - start,
                });
                Ok((found, holes))
            })
            .collect::<Result<_, EgtbError>>()?;
        let mut found = Buckets::default();
        let mut holes = 0;
        for (b, h) in results {
            found = found.merge(b);
            holes += h;
        }
        Ok((found, holes))
    }

    /// The retrograde passes, by increasing distance, until nothing is left to resolve.
    fn retrograde(&self, mut buckets: Buckets) -> Result<(), EgtbError> {
        let mut d = 0usize;
        while d < buckets.0.len() {
            let list = std::mem::take(&mut buckets.0[d]);
            if list.is_empty() {
                d += 1;
                continue;
            }
            if self.stop.is_raised() {
                return Err(EgtbError::Stopped);
            }
            let distance = d as u32;
            if distance + 1 > MAX_DISTANCE {
                return Err(EgtbError::DistanceTooLong(self.work[0].sig));
            }
            let found = list
                .par_chunks(1 << 12)
                .map(|chunk| {
                    let mut found = Buckets::default();
                    if self.stop.is_raised() {
                        // The pass is thrown away: the caller sees Stopped.
                        return found;
                    }
                    for &entry in chunk {
                        self.resolve(entry, distance, &mut found);
                    }
                    found
                })
                .reduce(Buckets::default, Buckets::merge);
            buckets = buckets.merge(found);
            d += 1;
        }
        Ok(())
    }

    /// Resolves `entry` at `distance` (unless it is resolved already) and updates its
    /// predecessors.
    fn resolve(&self, entry: Entry, distance: u32, found: &mut Buckets) {
        let w = &self.work[entry.table as usize];
        let code = (distance + 1) as u8;
        if !entry.set
            && w.value[entry.index as usize]
                .compare_exchange(OPEN, code, Relaxed, Relaxed)
                .is_err()
        {
            return;
        }
        let layer = (u64::from(entry.index) / w.per_layer) as u32;
        let Some(pos) = w.sig.position(u64::from(entry.index) % w.per_layer) else {
            return;
        };
        let law = layer_law(&self.laws, w.sig, layer, &pos);
        let p = self.partner(entry.table as usize);
        let pw = &self.work[p];
        let offset = u64::from(layer) * pw.per_layer;
        let lost = distance.is_multiple_of(2);
        predecessors(self.variant, &self.laws, &pos, law, |pred| {
            let i = (offset + pw.sig.index(&pred)) as usize;
            let pred_entry = Entry {
                index: i as u32,
                table: p as u8,
                set: false,
            };
            if lost {
                let win = code + 1;
                if pw.value[i]
                    .compare_exchange(OPEN, win, Relaxed, Relaxed)
                    .is_ok()
                {
                    found.push(
                        distance + 1,
                        Entry {
                            set: true,
                            ..pred_entry
                        },
                    );
                }
            } else if pw.open_moves[i].fetch_sub(1, Relaxed) == 1
                && pw.value[i].load(Relaxed) == OPEN
            {
                // Every move staying in the unit loses; the exits decide the rest.
                match format::decode(pw.exit[i].load(Relaxed)) {
                    None => found.push(distance + 1, pred_entry),
                    Some(Value::Loss(e)) => found.push(e.max(distance + 1), pred_entry),
                    Some(Value::Draw) => {
                        let _ = pw.value[i].compare_exchange(OPEN, 0, Relaxed, Relaxed);
                    }
                    Some(Value::Win(_)) => {}
                }
            }
        });
    }
}

/// White's men one step behind each square (where a man moving onto it came from).
static MAN_ORIGINS: [u32; 32] = {
    let mut table = [0u32; 32];
    let mut i = 0;
    while i < 32 {
        let sq = Square::ALL[i];
        let (file, rank) = (sq.file() as i32, sq.rank() as i32);
        let mut df = -1;
        while df <= 1 {
            let (f, r) = (file + df, rank - 1);
            if f >= 0 && f < 8 && r >= 0 {
                if let Some(from) = Square::from_coords(f as u8, r as u8) {
                    table[i] |= 1 << from.index();
                }
            }
            df += 2;
        }
        i += 1;
    }
    table
};

/// Calls `f` with every position (White to move) whose legal quiet, non-crowning move leads
/// to `pos` (White to move, as its table holds it) and keeps the law state `law`: the
/// predecessors inside the unit. Checked against the forward generator: a predecessor must
/// have no capture, and must not be drawn by a law (that ends the game there).
pub(crate) fn predecessors(
    variant: Variant,
    laws: &DrawLaws,
    pos: &Position,
    law: LawState,
    mut f: impl FnMut(Position),
) {
    if matches!(law, LawState::Drawn(_)) {
        return;
    }
    // The position as it was just after the move: Black to move, White just moved.
    let after = pos.mirrored();
    if law.after(laws, &after, Color::White) != law {
        return;
    }
    let white = after.pieces(Color::White).0;
    let black = after.pieces(Color::Black).0;
    let kings = after.kings(Color::White).0 | after.kings(Color::Black).0;
    let occupied = white | black;
    let mut emit = |from: u32, to: u32, king: bool| {
        let white = (white & !to) | from;
        let kings = if king { (kings & !to) | from } else { kings };
        if let Ok(pred) = Position::from_parts(
            Bitboard(white),
            Bitboard(black),
            Bitboard(kings),
            Color::White,
        ) {
            if !pred.has_capture(variant) {
                f(pred);
            }
        }
    };
    for to in after.kings(Color::White) {
        for from in king_reach(to, Bitboard(occupied)) {
            emit(1 << from.index(), 1 << to.index(), true);
        }
    }
    for to in after.men(Color::White) {
        let origins = MAN_ORIGINS[to.index() as usize] & !occupied;
        for from in Bitboard(origins) {
            emit(1 << from.index(), 1 << to.index(), false);
        }
    }
}
