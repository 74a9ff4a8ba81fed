//! drafti's rules core and engine for WebAssembly (`wasm32-unknown-unknown`): what a web page
//! needs to let a player move pieces under the rules and ask the engine, behind a JSON ABI.
//!
//! The page talks to the module through `wasm/js/drafti.js` (see the crate's README for the
//! JavaScript API, the build, the module's size and the measured speed). This crate is the
//! module itself: [`answer`] turns one JSON request into one JSON answer, natively (the tests
//! call it) and in WebAssembly through the ABI below.
//!
//! # Requests
//! Every request is an object with an `op`; `variant` (`tz`, `czech`, `russian`; default
//! `tz`), `fen` (default: the usual start, White to move) and `moves` (played from `fen`,
//! each by its squares in order: `22-18`, `c3-d4`, a multi-capture `22x15x6`, enough squares
//! to tell it from every other legal move) set up the game; `notation` (`numeric`, default,
//! or `algebraic`) says how answers write moves.
//!
//! | op | reads | answers |
//! |---|---|---|
//! | `position` | the game | the position reached: `fen`, `turn`, `board` (32 characters, square 1 first, `.wWbB`), `ply`, `line` (the moves played), `moves` (the legal moves), `outcome` (set once the game is over: `winner`, `reason`, `text`), `king_count` (law 2's running count) |
//! | `play` | the game and `move` | as `position` after the move, with `played` |
//! | `search` | the game; `depth`, `nodes`, `movetime` (ms), `multipv`, `hash_mb` | the result: `depth`, `seldepth`, `nodes`, `time_ms`, `nps`, `turn`, `score` (the commands' one score form: `cp` centi-men, or `win_in` / `loss_in` plies, and `text`), `wc` (winning chances −1…1 of the side to move), `white_wc`, `pv`, `lines`, `best`, `outcome` |
//! | `perft` | the game and `depth` | `nodes` |
//! | `version` | nothing | `version`, `engine` (the engine's fingerprint: equal to the native build's) |
//!
//! A move in an answer is `{notation, from, to, path, captures, crowns}` with squares as
//! numbers 1…32 (1 = b8, 32 = g1): `path` is every square the piece stands on, `captures`
//! the jumped squares in order. Anything wrong in a request gives `{"error": "…"}` saying what
//! and where (which move of `moves`); the module never traps on a request.
//!
//! A search reports every completed iteration (the same fields as its result, without `best`
//! and `outcome`) as it goes. It runs to its limits: a page keeps it off its own thread by
//! running the module in a Web Worker (`drafti.js` does) and stops it by ending that worker.
//!
//! # The ABI
//! Exports: `memory`; `drafti_alloc(len) -> ptr`, a buffer for a request of `len` bytes;
//! `drafti_answer(ptr, len) -> len`, which takes that buffer (UTF-8 JSON), answers, and leaves
//! the answer at `drafti_answer_ptr()` until the next call. Imports, module `drafti`:
//! `now_ms() -> f64` (a monotonic clock in milliseconds, `performance.now`) and
//! `on_info(ptr, len)` (a search's progress report, UTF-8 JSON, valid during the call).
//!
//! # Why a hand-written ABI and not wasm-bindgen
//! - **What a machine must install**: `rustup target add wasm32-unknown-unknown` and nothing
//!   else. wasm-bindgen needs its command-line tool at exactly the crate's version, built by
//!   `cargo install wasm-bindgen-cli` (minutes of compiling on two loaded cores in every fresh
//!   CI run) or fetched as a prebuilt binary, which CI cannot reach.
//! - **Reproducibility**: the module is cargo's output as it is, with no post-processing
//!   step whose version could change its bytes (`scripts/build-wasm.sh --check` rebuilds it
//!   and compares byte for byte).
//! - **Size**: the surface is one call taking and giving a string; the generated glue for
//!   typed bindings (and `js-sys`/`web-sys` for the clock) would add code for nothing a page
//!   needs. The cost is a JSON parse per call, nothing beside a search.

mod api;

pub use api::{
    answer, Info, LineOut, MoveOut, OutcomeOut, Request, SearchOut, State, DEFAULT_HASH_MB,
    MAX_HASH_MB,
};

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod abi {
    //! The exports and imports of the module (see the crate docs).
    use std::cell::RefCell;

    #[link(wasm_import_module = "drafti")]
    extern "C" {
        /// A search's progress report: UTF-8 JSON at `ptr`, valid during the call.
        fn on_info(ptr: *const u8, len: usize);
    }

    thread_local! {
        /// The last answer, read by the host at `drafti_answer_ptr` after `drafti_answer`.
        static ANSWER: RefCell<String> = const { RefCell::new(String::new()) };
    }

    /// A buffer of `len` bytes for a request; `drafti_answer` takes it back.
    #[no_mangle]
    pub extern "C" fn drafti_alloc(len: usize) -> *mut u8 {
        Box::into_raw(vec![0u8; len].into_boxed_slice()) as *mut u8
    }

    /// Answers the request in the buffer `ptr` (from `drafti_alloc(len)`), frees the buffer,
    /// and returns the answer's length in bytes.
    ///
    /// # Safety
    /// `ptr` and `len` must come from one call of `drafti_alloc`, and the buffer is not
    /// used again.
    #[no_mangle]
    pub unsafe extern "C" fn drafti_answer(ptr: *mut u8, len: usize) -> usize {
        // SAFETY: the caller passes back a buffer of `drafti_alloc` and its length.
        let request: Box<[u8]> =
            unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len)) };
        let text = match std::str::from_utf8(&request) {
            Ok(text) => crate::answer(text, &mut |info: &str| {
                // SAFETY: the host reads `len` bytes at `ptr` during the call only.
                unsafe { on_info(info.as_ptr(), info.len()) }
            }),
            Err(e) => format!("{{\"error\":\"the request is not UTF-8: {e}\"}}"),
        };
        ANSWER.with(|a| {
            let mut a = a.borrow_mut();
            *a = text;
            a.len()
        })
    }

    /// Where the last answer is.
    #[no_mangle]
    pub extern "C" fn drafti_answer_ptr() -> *const u8 {
        ANSWER.with(|a| a.borrow().as_ptr())
    }
}
