//! The transposition table: results of searched positions by Zobrist key, in buckets of two
//! (one slot kept for the deepest result, one always replaced).
//!
//! Every search starts a new *generation*. By default entries of earlier searches are never
//! used, so a search gives the same result whether the engine is fresh or has searched before,
//! and the table need not be cleared between searches. A table that *keeps* its entries
//! ([`Table::set_keep`]) uses them in later searches too (one game searched position after
//! position, or a persistent engine between moves); older entries are then the first ones
//! replaced.

use drafti_rules::Move;

/// What a stored score says about the true score.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most this (every move failed low).
    Upper = 1,
    /// The true score is at least this (a move failed high).
    Lower = 2,
    /// The true score.
    Exact = 3,
}

/// A move as the table keeps it: start, end and captured set identify a legal move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct MoveKey {
    pub from: u8,
    pub to: u8,
    pub captured: u32,
}

/// No move (from and to are never equal for a real move).
pub(crate) const NO_MOVE: MoveKey = MoveKey {
    from: 0,
    to: 0,
    captured: 0,
};

impl MoveKey {
    #[inline]
    pub fn of(mv: &Move) -> MoveKey {
        MoveKey {
            from: mv.from().index(),
            to: mv.to().index(),
            captured: mv.captured().0,
        }
    }

    #[inline]
    pub fn is(&self, mv: &Move) -> bool {
        self.from == mv.from().index()
            && self.to == mv.to().index()
            && self.captured == mv.captured().0
    }

    #[inline]
    pub fn is_none(&self) -> bool {
        self.from == self.to
    }
}

/// One stored result.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Entry {
    key: u64,
    captured: u32,
    score: i16,
    from: u8,
    to: u8,
    depth: u8,
    bound: u8,
    generation: u16,
}

impl Entry {
    pub fn mv(&self) -> MoveKey {
        MoveKey {
            from: self.from,
            to: self.to,
            captured: self.captured,
        }
    }

    pub fn score(&self) -> i32 {
        i32::from(self.score)
    }

    pub fn depth(&self) -> i32 {
        i32::from(self.depth)
    }

    pub fn bound(&self) -> Bound {
        match self.bound {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        }
    }
}

/// The table's entries, in zeroed memory: a big allocation is fresh pages from the operating
/// system, already zero and not touched until used, so a small search in a 64 MiB table costs
/// a few pages instead of writing all of them first (the 90 ms `drafti search` used to spend
/// before searching). On Linux a table of 2 MiB or more is an anonymous mapping that asks for
/// transparent huge pages: every probe is a random access, and with 4 KiB pages most of them
/// also missed the TLB.
struct Entries {
    ptr: std::ptr::NonNull<Entry>,
    len: usize,
    /// The mapping that owns the memory, when it is one (else the system allocator does).
    #[cfg(target_os = "linux")]
    map: Option<memmap2::MmapMut>,
}

// SAFETY: `Entries` owns its memory alone, like a `Vec<Entry>`.
unsafe impl Send for Entries {}
// SAFETY: shared access only reads, like a `&[Entry]`.
unsafe impl Sync for Entries {}

impl Entries {
    fn layout(len: usize) -> std::alloc::Layout {
        std::alloc::Layout::array::<Entry>(len).expect("table size fits in memory")
    }

    /// `len` (> 0) empty entries.
    fn zeroed(len: usize) -> Entries {
        #[cfg(target_os = "linux")]
        if let Some(entries) = Entries::mapped(len) {
            return entries;
        }
        use std::alloc::GlobalAlloc;
        let layout = Entries::layout(len);
        // SAFETY: the layout has a non-zero size (`len > 0`, `Entry` is not zero-sized).
        let raw = unsafe { std::alloc::System.alloc_zeroed(layout) };
        let ptr = std::ptr::NonNull::new(raw.cast::<Entry>())
            .unwrap_or_else(|| std::alloc::handle_alloc_error(layout));
        Entries {
            ptr,
            len,
            #[cfg(target_os = "linux")]
            map: None,
        }
    }

    /// `len` empty entries in an anonymous mapping advised to use huge pages, when the table is
    /// big enough for them and the mapping can be made (else the allocator's memory).
    #[cfg(target_os = "linux")]
    fn mapped(len: usize) -> Option<Entries> {
        const HUGE_PAGE: usize = 2 << 20;
        let bytes = Entries::layout(len).size();
        if bytes < HUGE_PAGE {
            return None;
        }
        let mut map = memmap2::MmapMut::map_anon(bytes).ok()?;
        // Advice only: without huge pages the table works the same, slower.
        let _ = map.advise(memmap2::Advice::HugePage);
        // A mapping is page-aligned, more than an `Entry` needs.
        let ptr = std::ptr::NonNull::new(map.as_mut_ptr().cast::<Entry>())?;
        Some(Entries {
            ptr,
            len,
            map: Some(map),
        })
    }
}

impl std::ops::Deref for Entries {
    type Target = [Entry];
    fn deref(&self) -> &[Entry] {
        // SAFETY: `ptr` holds `len` entries, all initialised: `Entry` is plain integers, for
        // which all-zero bytes are a valid value (`Entry::default()`).
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl std::ops::DerefMut for Entries {
    fn deref_mut(&mut self) -> &mut [Entry] {
        // SAFETY: as in `deref`, and `&mut self` makes the access exclusive.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Drop for Entries {
    fn drop(&mut self) {
        #[cfg(target_os = "linux")]
        if self.map.is_some() {
            // The mapping unmaps itself.
            return;
        }
        use std::alloc::GlobalAlloc;
        // SAFETY: allocated by `System` with this very layout in `zeroed`.
        unsafe { std::alloc::System.dealloc(self.ptr.as_ptr().cast(), Entries::layout(self.len)) }
    }
}

/// The table.
pub(crate) struct Table {
    entries: Entries,
    mask: usize,
    generation: u16,
    /// Whether entries of earlier searches are used.
    keep: bool,
}

impl Table {
    /// A table of about `megabytes` MiB (a power of two of entries, at least 1024).
    pub fn new(megabytes: usize) -> Table {
        let bytes = megabytes.saturating_mul(1 << 20);
        let wanted = (bytes / std::mem::size_of::<Entry>()).max(1024);
        let count = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        };
        Table {
            entries: Entries::zeroed(count),
            mask: count - 1,
            generation: 1,
            keep: false,
        }
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
        self.generation = 1;
    }

    /// Whether entries of earlier searches are used by later ones.
    pub fn set_keep(&mut self, keep: bool) {
        self.keep = keep;
    }

    /// Whether `entry` (with the right key) may be used in this search.
    #[inline]
    fn usable(&self, entry: &Entry) -> bool {
        self.keep || entry.generation == self.generation
    }

    /// Starts a new search: earlier entries stop counting (unless the table keeps them).
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        if self.generation == 0 {
            self.clear();
        }
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        (key as usize) & self.mask & !1
    }

    /// The entry of `key` from this search, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let b = self.bucket(key);
        self.entries[b..b + 2]
            .iter()
            .find(|e| e.key == key && self.usable(e))
            .copied()
    }

    /// Starts loading the bucket of `key` into the cache, for a probe that comes a little later
    /// (a child's, while its position is set up): the probe is otherwise a wait on memory.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let entry: *const Entry = &self.entries[self.bucket(key)];
            // SAFETY: a prefetch is only a hint; the address is an entry of the table.
            unsafe {
                std::arch::x86_64::_mm_prefetch::<{ std::arch::x86_64::_MM_HINT_T0 }>(
                    entry.cast::<i8>(),
                )
            };
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// Stores a result (the score already converted with `Score::to_tt`).
    #[inline]
    pub fn store(&mut self, key: u64, depth: i32, bound: Bound, score: i32, mv: MoveKey) {
        let b = self.bucket(key);
        let generation = self.generation;
        let slot = {
            let pair = &self.entries[b..b + 2];
            if pair[0].key == key && self.usable(&pair[0]) {
                0
            } else if pair[1].key == key && self.usable(&pair[1]) {
                1
            } else if pair[0].generation != generation || i32::from(pair[0].depth) <= depth {
                0
            } else {
                1
            }
        };
        let old = self.entries[b + slot];
        let mv = if mv.is_none() && old.key == key && self.usable(&old) {
            old.mv()
        } else {
            mv
        };
        self.entries[b + slot] = Entry {
            key,
            captured: mv.captured,
            score: score.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16,
            from: mv.from,
            to: mv.to,
            depth: depth.clamp(0, 255) as u8,
            bound: bound as u8,
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_new_table_is_empty() {
        let tt = Table::new(1);
        assert!(tt
            .entries
            .iter()
            .all(|e| e.key == 0 && e.generation == 0 && e.depth == 0));
        assert!(tt.probe(0).is_none(), "generation 0 is never a search's");
    }

    #[test]
    fn a_table_in_huge_pages_is_empty_and_works() {
        // 4 MiB: big enough for the mapping with huge pages on Linux.
        let mut tt = Table::new(4);
        assert!(tt.entries.iter().all(|e| e.key == 0 && e.generation == 0));
        #[cfg(target_os = "linux")]
        assert!(tt.entries.map.is_some());
        let last = tt.mask as u64;
        tt.store(last, 3, Bound::Lower, -7, NO_MOVE);
        tt.prefetch(last);
        assert_eq!(tt.probe(last).map(|e| e.score()), Some(-7));
        tt.clear();
        assert!(tt.probe(last).is_none());
    }

    #[test]
    fn store_probe_and_generations() {
        let mut tt = Table::new(0);
        let mv = MoveKey {
            from: 21,
            to: 17,
            captured: 0,
        };
        tt.store(0xABCD, 5, Bound::Exact, 42, mv);
        let e = tt.probe(0xABCD).unwrap();
        assert_eq!(
            (e.score(), e.depth(), e.bound(), e.mv()),
            (42, 5, Bound::Exact, mv)
        );
        assert!(tt.probe(0xABCE).is_none());
        tt.new_search();
        assert!(
            tt.probe(0xABCD).is_none(),
            "an earlier search's entry is not used"
        );
        // A shallower result for another key in the same bucket keeps the deeper one.
        tt.store(0x10_0000, 9, Bound::Lower, 1, mv);
        tt.store(0x20_0000, 2, Bound::Upper, 2, NO_MOVE);
        assert!(tt.probe(0x10_0000).is_some() && tt.probe(0x20_0000).is_some());
    }

    #[test]
    fn a_keeping_table_uses_earlier_searches_and_replaces_them_first() {
        let mut tt = Table::new(0);
        tt.set_keep(true);
        tt.store(0xABCD, 5, Bound::Exact, 42, NO_MOVE);
        tt.new_search();
        assert_eq!(tt.probe(0xABCD).map(|e| e.score()), Some(42));
        // The older deep entry gives way to a shallow one of this search.
        tt.store(0xABCD + 0x10_0000, 1, Bound::Lower, 7, NO_MOVE);
        assert_eq!(tt.probe(0xABCD + 0x10_0000).map(|e| e.depth()), Some(1));
    }
}
