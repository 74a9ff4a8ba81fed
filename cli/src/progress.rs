//! One progress policy for every command: a bar on stderr only when stderr is a terminal
//! (never in a pipe, a log file or a test), only for work long enough to need one, cleared
//! when the work ends (also on an early return: it is cleared when dropped). Three shapes:
//! bytes of input read ([`Progress::bytes`]), units of work done ([`Progress::count`]), or a
//! spinner when the amount is unknown ([`Progress::spinner`]).

use indicatif::{ProgressBar, ProgressStyle};
use std::io::IsTerminal;
use std::time::Duration;

/// Inputs smaller than this are read too fast for a bar to help (it would only flash).
const LARGE_INPUT: u64 = 16 << 20;

/// A progress bar on stderr, or nothing.
pub struct Progress(Option<ProgressBar>);

fn shown() -> bool {
    std::io::stderr().is_terminal()
}

fn styled(bar: ProgressBar, template: &str) -> ProgressBar {
    bar.set_style(
        ProgressStyle::with_template(template)
            .expect("a valid template")
            .progress_chars("=> "),
    );
    bar
}

impl Progress {
    /// No bar.
    pub fn hidden() -> Progress {
        Progress(None)
    }

    /// Reading archives of `total` bytes (unknown for stdin: a spinner); the message says how
    /// many games so far. Only for large inputs.
    pub fn bytes(total: Option<u64>) -> Progress {
        if !shown() {
            return Progress(None);
        }
        match total {
            Some(total) if total >= LARGE_INPUT => Progress(Some(styled(
                ProgressBar::new(total),
                "{bar:40} {bytes}/{total_bytes} {msg} ({eta} left)",
            ))),
            Some(_) => Progress(None),
            None => Progress::spinner("reading"),
        }
    }

    /// `total` units of work (`what`: "positions", "tables", …), with the rate and the time
    /// left. The total may be an estimate, corrected with [`set_length`](Self::set_length).
    pub fn count(total: u64, what: &str) -> Progress {
        if !shown() {
            return Progress(None);
        }
        let template =
            format!("{{bar:40}} {{human_pos}}/{{human_len}} {what}, {{per_sec}}, {{eta}} left");
        Progress(Some(styled(ProgressBar::new(total), &template)))
    }

    /// Work of unknown amount: a spinner with `message` (and the games read, as [`read`]
    /// tells them).
    ///
    /// [`read`]: Progress::read
    pub fn spinner(message: &str) -> Progress {
        if !shown() {
            return Progress(None);
        }
        let bar = styled(ProgressBar::new_spinner(), "{spinner} {prefix} {msg}");
        bar.set_prefix(message.to_string());
        bar.enable_steady_tick(Duration::from_millis(120));
        Progress(Some(bar))
    }

    /// Bytes read so far and games found in them.
    pub fn read(&self, bytes: u64, games: u64) {
        if let Some(bar) = &self.0 {
            bar.set_position(bytes);
            bar.set_message(format!("{} games", drafti_report::thousands(games)));
        }
    }

    /// `n` more units done.
    pub fn inc(&self, n: u64) {
        if let Some(bar) = &self.0 {
            bar.inc(n);
        }
    }

    /// The total, as now estimated.
    pub fn set_length(&self, total: u64) {
        if let Some(bar) = &self.0 {
            bar.set_length(total);
        }
    }
}

impl Progress {
    /// Runs `f` (that writes to stdout, say) with the bar hidden meanwhile.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.0 {
            Some(bar) => bar.suspend(f),
            None => f(),
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(bar) = &self.0 {
            bar.finish_and_clear();
        }
    }
}
