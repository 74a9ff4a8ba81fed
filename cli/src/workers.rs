//! The worker threads of a command's work.

use crate::error::CliError;

/// A pool of `jobs` worker threads named `drafti-NAME-i`, with stacks deep enough for the
/// engine's search.
pub fn worker_pool(jobs: usize, name: &'static str) -> Result<rayon::ThreadPool, CliError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .stack_size(16 << 20)
        .thread_name(move |i| format!("drafti-{name}-{i}"))
        .build()
        .map_err(|e| CliError::new(format!("cannot start the worker threads: {e}")))
}
