//! The search's clock: `std::time::Instant`, except on WebAssembly without an operating system
//! (`wasm32-unknown-unknown`), where std has no clock and the host lends one.
//!
//! There the module imports `now_ms() -> f64` from the import module `drafti` (milliseconds
//! on a monotonic clock: a page gives `performance.now`); `wasm/js/drafti.js` provides it.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub(crate) use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub(crate) use host::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod host {
    use std::time::Duration;

    #[link(wasm_import_module = "drafti")]
    extern "C" {
        /// Milliseconds on the host's monotonic clock.
        fn now_ms() -> f64;
    }

    /// A moment on the host's clock, in milliseconds.
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub(crate) struct Instant(f64);

    impl Instant {
        pub(crate) fn now() -> Instant {
            // SAFETY: the import takes nothing and returns a number; any host value is valid.
            Instant(unsafe { now_ms() })
        }

        pub(crate) fn elapsed(&self) -> Duration {
            Duration::from_secs_f64((Instant::now().0 - self.0).max(0.0) / 1000.0)
        }
    }

    impl std::ops::Add<Duration> for Instant {
        type Output = Instant;

        fn add(self, d: Duration) -> Instant {
            Instant(self.0 + d.as_secs_f64() * 1000.0)
        }
    }
}
