//! The tables a program builds for its user the first time it needs them (`drafti analyze`,
//! `drafti report`, the Python package's `analyze`): the missing tables of a variant built in
//! a folder once, by one process at a time. Processes that start together (the shards of a
//! cluster job on one machine) take turns on a lock file in the variant's folder, and the
//! later ones find the tables built.

use super::build::{build_targets, plan, BuildEvent, BuildPlan};
use super::{EgtbError, Signature, Tables, VARIANTS};
use crate::StopFlag;
use drafti_rules::Variant;
use std::path::{Path, PathBuf};

/// What [`build_on_first_use`] reports as it goes.
#[derive(Clone, Copy, Debug)]
pub enum FirstUseEvent<'a> {
    /// Tables are missing and the build begins (the lock is held): in `dir`, the tables of up
    /// to `pieces` pieces, as `plan` says (its [`BuildPlan::new_bytes`]: their size on disk).
    Building {
        /// The variant's folder.
        dir: &'a Path,
        /// The most pieces of the tables built.
        pieces: u32,
        /// What is built.
        plan: BuildPlan,
    },
    /// The build's own report (from worker threads too).
    Build(BuildEvent),
}

/// Builds the tables of `variant` of up to `pieces` pieces that are missing under `root`
/// (in the variant's folder), and returns them all; `None` when none were missing, or when
/// there is nothing to build (fewer than 2 pieces, or rules without tables: [`VARIANTS`]).
/// The build holds the lock of the variant's folder (`.build.lock`, on unix); a process that
/// waited for it plans again and builds only what is still missing. Runs on the current
/// rayon pool; gives up with [`EgtbError::Stopped`] once `stop` is raised, while it waits for
/// the lock too. The error is why the tables could not be built (the folder cannot be
/// written, the disk is full).
pub fn build_on_first_use(
    root: &Path,
    variant: Variant,
    pieces: u32,
    on_event: &(dyn Fn(FirstUseEvent<'_>) + Sync),
    stop: &StopFlag,
) -> Result<Option<Tables>, EgtbError> {
    if pieces < 2 || !VARIANTS.contains(&variant) {
        return Ok(None);
    }
    let targets = Signature::all_up_to(pieces);
    if plan(root, variant, &targets)?.new_signatures == 0 {
        return Ok(None);
    }
    let dir = Tables::variant_dir(root, variant);
    let io = |path: PathBuf| move |source| EgtbError::Io { path, source };
    std::fs::create_dir_all(&dir).map_err(io(dir.clone()))?;
    let _lock = BuildLock::take(&dir, stop)?;
    // Another process may have built them while this one waited.
    let plan = plan(root, variant, &targets)?;
    if plan.new_signatures == 0 {
        return Ok(None);
    }
    on_event(FirstUseEvent::Building {
        dir: &dir,
        pieces,
        plan,
    });
    let on_build = |event: BuildEvent| on_event(FirstUseEvent::Build(event));
    build_targets(root, variant, &targets, &on_build, stop).map(Some)
}

/// An exclusive lock on a folder's build (a file in it, locked while held; released when
/// dropped, or when the process ends however it ends). Without unix, no lock.
struct BuildLock {
    #[cfg(unix)]
    _file: std::fs::File,
}

impl BuildLock {
    /// The lock file's name, in the variant's folder.
    #[cfg_attr(not(unix), allow(dead_code))]
    const NAME: &'static str = ".build.lock";

    /// Waits for the lock of `dir`, looking at `stop` between tries.
    fn take(dir: &Path, stop: &StopFlag) -> Result<BuildLock, EgtbError> {
        #[cfg(unix)]
        {
            use rustix::fs::{flock, FlockOperation};
            let path = dir.join(Self::NAME);
            let io = |source: std::io::Error| EgtbError::Io {
                path: path.clone(),
                source,
            };
            let file = std::fs::OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .map_err(io)?;
            loop {
                match flock(&file, FlockOperation::NonBlockingLockExclusive) {
                    Ok(()) => return Ok(BuildLock { _file: file }),
                    Err(rustix::io::Errno::WOULDBLOCK | rustix::io::Errno::INTR) => {}
                    Err(e) => return Err(io(e.into())),
                }
                if stop.is_raised() {
                    return Err(EgtbError::Stopped);
                }
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
        }
        #[cfg(not(unix))]
        {
            let _ = (dir, stop);
            Ok(BuildLock {})
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    /// The first call builds the 3-piece tables (saying so once, with its plan) and leaves the
    /// lock file; the second finds them and builds nothing; rules without tables and fewer
    /// than 2 pieces build nothing; a raised stop gives up.
    #[test]
    fn builds_the_missing_tables_once() {
        let root = tempfile::tempdir().unwrap();
        let building = AtomicUsize::new(0);
        let built = AtomicUsize::new(0);
        let on_event = |event: FirstUseEvent<'_>| match event {
            FirstUseEvent::Building { dir, pieces, plan } => {
                assert_eq!(dir, Tables::variant_dir(root.path(), Variant::Tanzanian));
                assert_eq!(pieces, 3);
                assert!(plan.new_signatures > 0 && plan.new_bytes() > plan.new_positions);
                building.fetch_add(1, Ordering::Relaxed);
            }
            FirstUseEvent::Build(BuildEvent::Built { .. }) => {
                built.fetch_add(1, Ordering::Relaxed);
            }
            FirstUseEvent::Build(_) => {}
        };
        let stop = StopFlag::new();
        let tables = build_on_first_use(root.path(), Variant::Tanzanian, 3, &on_event, &stop)
            .unwrap()
            .expect("built");
        assert_eq!(building.load(Ordering::Relaxed), 1);
        assert_eq!(built.load(Ordering::Relaxed), tables.len());
        assert_eq!(tables.len(), 16);
        let dir = Tables::variant_dir(root.path(), Variant::Tanzanian);
        assert!(dir.join(BuildLock::NAME).is_file() || cfg!(not(unix)));
        assert!(dir.join("KKvK.egtb").is_file());

        let again = build_on_first_use(root.path(), Variant::Tanzanian, 3, &on_event, &stop);
        assert!(again.unwrap().is_none());
        assert_eq!(building.load(Ordering::Relaxed), 1);
        for (variant, pieces) in [(Variant::Czech, 1), (Variant::TzDraft, 3)] {
            let none = build_on_first_use(root.path(), variant, pieces, &on_event, &stop);
            assert!(none.unwrap().is_none());
            assert!(!Tables::variant_dir(root.path(), variant).exists());
        }

        stop.raise();
        let stopped = build_on_first_use(root.path(), Variant::Russian, 3, &|_| {}, &stop);
        assert!(
            matches!(stopped, Err(EgtbError::Stopped)),
            "{:?}",
            stopped.err()
        );
    }

    /// A process that finds the lock taken waits for it, and gives up when stopped.
    #[cfg(unix)]
    #[test]
    fn waits_for_the_lock_until_stopped() {
        let root = tempfile::tempdir().unwrap();
        let dir = Tables::variant_dir(root.path(), Variant::Czech);
        std::fs::create_dir_all(&dir).unwrap();
        let stop = StopFlag::new();
        let held = BuildLock::take(&dir, &stop).unwrap();
        let other = StopFlag::new();
        let raiser = other.clone();
        let waiter = std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(150));
            raiser.raise();
        });
        // flock locks belong to the open file: a second open waits as another process would.
        let waited = build_on_first_use(root.path(), Variant::Czech, 2, &|_| {}, &other);
        assert!(
            matches!(waited, Err(EgtbError::Stopped)),
            "{:?}",
            waited.err()
        );
        waiter.join().unwrap();
        drop(held);
        let built = build_on_first_use(root.path(), Variant::Czech, 2, &|_| {}, &stop);
        assert_eq!(built.unwrap().expect("built").len(), 4);
    }
}
