//! The reader's memory stays flat on any input: the peak of live heap bytes (counted by this
//! test binary's global allocator) while every game of a several-MB archive is read and
//! dropped does not grow with the archive, whatever its line ends. (Its own binary, with one
//! test, so no other test allocates meanwhile.)
#![allow(clippy::print_stdout, clippy::print_stderr, clippy::exit)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use drafti_pdn::GameReader;

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { System.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let live = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(live, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Games read from `path` (a generated archive on disk) and the peak of heap bytes
/// allocated meanwhile, above what was live before.
fn read_counting(path: &std::path::Path) -> (usize, usize, usize) {
    let file = std::fs::File::open(path).unwrap();
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let (mut games, mut errors) = (0, 0);
    for item in GameReader::new(std::io::BufReader::with_capacity(1 << 16, file)) {
        match item {
            Ok(_) => games += 1,
            Err(_) => errors += 1,
        }
    }
    (games, errors, PEAK.load(Ordering::Relaxed) - before)
}

#[test]
fn peak_heap_is_bounded_on_cr_only_and_one_line_archives() {
    let corpus = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../corpus/selfplay.pdn"
    ))
    .unwrap();
    let dir = tempfile::Builder::new()
        .prefix("drafti-pdn-memory-")
        .tempdir()
        .unwrap();
    let mut peaks = Vec::new();
    for (name, separator) in [("lf", &b"\n"[..]), ("cr", b"\r"), ("line", b" ")] {
        for copies in [1usize, 4] {
            // 1.8 MB and 7 MB; `line` has not one line end.
            let mut text = Vec::with_capacity(corpus.len() * copies);
            for _ in 0..copies {
                for &b in &corpus {
                    if b == b'\n' {
                        text.extend_from_slice(separator);
                    } else {
                        text.push(b);
                    }
                }
            }
            let path = dir.path().join(format!("{name}-{copies}.pdn"));
            std::fs::write(&path, &text).unwrap();
            drop(text);
            let (games, errors, peak) = read_counting(&path);
            assert_eq!((games, errors), (2_000 * copies, 0), "{name} x{copies}");
            peaks.push((name, copies, peak));
        }
    }
    eprintln!("peaks: {peaks:?}");
    for &(name, copies, peak) in &peaks {
        // The reader's buffer (64 KiB), at most one piece of a long line (128 KiB) and one
        // game: far below the 1.8 MB the smallest archive holds.
        assert!(
            peak < 512 << 10,
            "{name} x{copies}: peak {peak} bytes; all: {peaks:?}"
        );
    }
}
