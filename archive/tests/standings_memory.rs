//! Issue 16, defect 10: the standings of an archive hold a few tens of bytes a game, not the
//! games' summaries or the Event's report. A counting allocator (this test binary's own)
//! measures the peak of live heap bytes while an archive of one Event is read in and its
//! standings written out the way `drafti standings` writes them.

use drafti_archive::standings::{Archive, Format, GameOutcome, GameSummary, StandingsOptions};
use drafti_rules::Color;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on to the system allocator unchanged; only counted.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// Game `i` of a generated Event of 500 players: 4 games a pairing, the same pairs meeting
/// again every 1,000 games (so matches run long and games come after the decision), with
/// Rounds, a Date, wins, draws and supa wins.
fn generated(i: usize) -> GameSummary {
    let pairing = i / 4;
    let (a, b) = (pairing % 250 * 2, pairing % 250 * 2 + 1);
    let (white, black) = if i.is_multiple_of(2) { (a, b) } else { (b, a) };
    GameSummary {
        file: "generated.pdn".into(),
        game: i + 1,
        event: Some("Generated Open".into()),
        round: Some(format!("{}.{}", pairing / 250 + 1, i % 4 + 1)),
        date: Some("2026.12.01".into()),
        white: Some(format!("Player number {white:04} of the generated club")),
        black: Some(format!("Player number {black:04} of the generated club")),
        result: [
            GameOutcome::WhiteWin,
            GameOutcome::BlackWin,
            GameOutcome::Draw,
            GameOutcome::WhiteWin,
        ][i % 4],
        result_warning: None,
        first_mover: Some(if i.is_multiple_of(3) {
            Color::White
        } else {
            Color::Black
        }),
        king_appeared: Some(i.is_multiple_of(5)),
        group: None,
        stage: None,
    }
}

/// The peak of live heap bytes, over what was live before, while `games` generated games
/// are read in and their standings written (JSON, every game row and warning).
/// One measure at a time: the counters are the whole process's.
static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());

fn peak_bytes(games: usize, format: Format) -> (usize, usize) {
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let mut archive = Archive::new();
    for i in 0..games {
        archive.push(&generated(i));
    }
    let options = StandingsOptions {
        supa: true,
        format: Some(format),
        ..StandingsOptions::default()
    };
    let mut warnings = 0;
    for e in archive.events(&options) {
        serde_json::to_writer(std::io::sink(), &e).unwrap();
        for n in 0..e.match_count() {
            std::hint::black_box(e.match_header(n));
            e.match_games(n).for_each(|g| drop(std::hint::black_box(g)));
        }
        warnings += e.warnings().count();
    }
    drop(archive);
    (PEAK.load(Ordering::Relaxed) - before, warnings)
}

#[test]
fn standings_memory_grows_by_tens_of_bytes_a_game() {
    let (small, small_warnings) = peak_bytes(10_000, Format::Matches);
    let (large, large_warnings) = peak_bytes(40_000, Format::Matches);
    // Games after the decision are reported, so the warnings grow with the games too.
    assert!(large_warnings > 3 * small_warnings && small_warnings > 1_000);
    // 30,000 more games of ~200 bytes of tags each: before, ~0.9 KB of summary and ~0.4 KB
    // of report a game; now a 32-byte record, 4 bytes in the Event's list and ~24 bytes a
    // warning (with the slack of growing vectors).
    let per_game = (large - small) / 30_000;
    assert!(
        per_game < 128,
        "{per_game} bytes a game: peak {small} bytes for 10,000 games, {large} for 40,000"
    );
}

#[test]
fn group_tables_and_swiss_keep_memory_flat() {
    // One group of all 500 players (no groups given): group matches of two games, the games
    // after them reported; then the same archive as a Swiss event.
    for format in [Format::Groups, Format::GroupsKnockout, Format::Swiss] {
        let (small, _) = peak_bytes(10_000, format);
        let (large, _) = peak_bytes(40_000, format);
        let per_game = (large - small) / 30_000;
        assert!(
            per_game < 128,
            "{format:?}: {per_game} bytes a game: peak {small} bytes for 10,000 games, {large} \
             for 40,000"
        );
    }
}
