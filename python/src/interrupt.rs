//! Long calls that Ctrl-C stops, with their work: the work runs on a thread of its own with
//! the GIL released while the calling thread checks Python's signals every
//! [`SIGNAL_CHECK`]; on an exception (`KeyboardInterrupt`, or whatever a signal handler
//! raised) the work's stop is raised, the work is waited for (it returns within
//! milliseconds once stopped), and the exception is raised.

use crate::errors::internal;
use pyo3::prelude::*;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// How often a long call looks at Python's signals.
pub const SIGNAL_CHECK: Duration = Duration::from_millis(50);

/// A flag the work sets when it is done, which the caller waits on.
#[derive(Default)]
pub struct Done {
    done: Mutex<bool>,
    changed: Condvar,
}

impl Done {
    /// Tells the waiting thread the work is over.
    pub fn set(&self) {
        if let Ok(mut done) = self.done.lock() {
            *done = true;
        }
        self.changed.notify_all();
    }

    /// Waits at most `timeout` (for ever when `None`); whether the work is done.
    pub fn wait(&self, timeout: Option<Duration>) -> bool {
        let Ok(mut done) = self.done.lock() else {
            return true;
        };
        let deadline = timeout.map(|t| Instant::now() + t);
        while !*done {
            match deadline {
                None => match self.changed.wait(done) {
                    Ok(d) => done = d,
                    Err(_) => return true,
                },
                Some(deadline) => {
                    let left = deadline.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        return false;
                    }
                    match self.changed.wait_timeout(done, left) {
                        Ok((d, _)) => done = d,
                        Err(_) => return true,
                    }
                }
            }
        }
        true
    }
}

/// Python's signal handlers, run at most every [`SIGNAL_CHECK`] (they need the GIL, which
/// the caller holds between its waits).
pub struct SignalTimer {
    last: Instant,
}

impl SignalTimer {
    pub fn new() -> SignalTimer {
        SignalTimer {
            last: Instant::now(),
        }
    }

    /// Runs the handlers if [`SIGNAL_CHECK`] has passed since they last ran.
    pub fn check(&mut self, py: Python<'_>) -> PyResult<()> {
        if self.last.elapsed() >= SIGNAL_CHECK {
            self.last = Instant::now();
            py.check_signals()?;
        }
        Ok(())
    }
}

/// Runs `work` on a thread of its own with the GIL released, checking signals every
/// [`SIGNAL_CHECK`]; on an exception calls `stop` (which must make `work` return soon),
/// waits for `work` and raises the exception. A panic in `work` is `InternalError`.
pub fn run<T: Send>(
    py: Python<'_>,
    stop: &dyn Fn(),
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    let done = Done::default();
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("drafti-call".to_string())
            // The engine's search recurses deeply: the stack the job threads have.
            .stack_size(16 << 20)
            .spawn_scoped(scope, || {
                let out = catch_unwind(AssertUnwindSafe(work));
                done.set();
                out
            })
            .map_err(|e| {
                crate::errors::error(
                    crate::errors::Kind::Internal,
                    format!("cannot start a thread: {e}"),
                )
            })?;
        let mut raised = None;
        while !py.detach(|| done.wait(Some(SIGNAL_CHECK))) {
            if let Err(e) = py.check_signals() {
                stop();
                py.detach(|| done.wait(None));
                raised = Some(e);
                break;
            }
        }
        let out = py.detach(|| worker.join());
        match (raised, out) {
            (Some(e), _) => Err(e),
            (None, Ok(Ok(value))) => Ok(value),
            (None, Ok(Err(panic)) | Err(panic)) => Err(internal(panic.as_ref())),
        }
    })
}
