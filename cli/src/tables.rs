//! One policy for endgame tables, for every command that searches: `--egtb DIR` uses the
//! tables under DIR (none there, or a damaged one, is an error); without it the default folder
//! (`$XDG_CACHE_HOME/drafti/egtb`, else `~/.cache/drafti/egtb`) is used when it holds tables
//! for the rules at hand; `--no-egtb` uses none. Which tables are used is said on stderr, one
//! line per variant, so that results that change with the tables say why.
//!
//! The commands whose verdicts a player reads (`analyze`, `report`) build the default folder's
//! tables of up to [`FIRST_USE_PIECES`] pieces for the variants of their games the first time
//! they need them ([`TableArgs::for_analysis`]): without them the engine misjudges king
//! endings, and the verdicts in endings are far worse than with them (docs/engine.md,
//! "Endgame tables in the verdicts"). A few seconds to a minute of work a variant, once.

use crate::error::CliError;
use crate::progress::Progress;
use drafti_analysis::EndgameTables;
use drafti_engine::egtb::{self, BuildEvent, EgtbError, FirstUseEvent, Tables};
use drafti_engine::StopFlag;
use drafti_rules::Variant;
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

pub use drafti_analysis::{FIRST_USE_PIECES, FIRST_USE_VARIABLE};

/// `--egtb DIR` and `--no-egtb`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TableArgs {
    /// Endgame tables (drafti egtb build --dir DIR): positions they hold get exact values
    /// (default: those in $XDG_CACHE_HOME/drafti/egtb or ~/.cache/drafti/egtb; analyze,
    /// report and puzzles build there the 5-piece tables of their games' variants on first
    /// use).
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<PathBuf>,
    /// Use no endgame tables, not even the default folder's.
    #[arg(long, conflicts_with = "egtb")]
    pub no_egtb: bool,
}

/// The default folder of the tables (`drafti_engine::egtb::default_dir` of this process's
/// `XDG_CACHE_HOME` and `HOME`).
pub fn default_dir() -> Option<PathBuf> {
    drafti_engine::egtb::default_dir(
        std::env::var_os("XDG_CACHE_HOME").as_deref(),
        std::env::var_os("HOME").as_deref(),
    )
}

impl TableArgs {
    /// The folder to look in, and whether tables must be there (given with `--egtb`); `None`
    /// with `--no-egtb` or when there is no default folder.
    fn root(&self) -> Option<(PathBuf, bool)> {
        match (&self.egtb, self.no_egtb) {
            (Some(dir), _) => Some((dir.clone(), true)),
            (None, true) => None,
            (None, false) => default_dir().map(|d| (d, false)),
        }
    }

    /// These flags with the default folder left out: tables only where `--egtb DIR` names
    /// them (a benchmark must not change with what happens to be cached).
    pub fn given_only(&self) -> TableArgs {
        TableArgs {
            egtb: self.egtb.clone(),
            no_egtb: self.egtb.is_none(),
        }
    }

    /// The tables of `variant` these flags ask for, if any.
    pub fn for_variant(&self, variant: Variant) -> Result<Option<Arc<Tables>>, CliError> {
        match self.root() {
            Some((root, required)) => tables_in(&root, variant, required),
            None => Ok(None),
        }
    }

    /// The tables of an analysis of games of `variants` (when they are known before the run;
    /// else as [`for_rules`](Self::for_rules) with no variant), first building in the default
    /// folder those of up to [`FIRST_USE_PIECES`] pieces that are missing there (module docs;
    /// never in a folder `--egtb` names, nor with `--no-egtb`). The build runs on `jobs`
    /// threads and says what it does on stderr.
    pub fn for_analysis(
        &self,
        variants: Option<&[Variant]>,
        jobs: usize,
    ) -> Result<EndgameTables, CliError> {
        let Some(variants) = variants else {
            return self.for_rules(None);
        };
        let mut usable = variants.to_vec();
        if let (None, false, Some(root)) = (&self.egtb, self.no_egtb, default_dir()) {
            let pieces =
                drafti_analysis::first_use_pieces(std::env::var_os(FIRST_USE_VARIABLE).as_deref())
                    .map_err(|e| CliError::new(e.to_string()))?;
            for &variant in variants {
                // A cache that cannot be written (a read-only home, a full disk) costs the
                // tables, not the analysis: its header then says it ran without them.
                if let Err(e) = build_on_first_use(&root, variant, pieces, jobs) {
                    eprintln!(
                        "warning: endgame tables: cannot build the {variant} tables in {}: {e}; \
                         its games are analysed without them",
                        Tables::variant_dir(&root, variant).display()
                    );
                    usable.retain(|&v| v != variant);
                }
            }
        }
        self.for_variants(&usable)
    }

    /// The tables these flags ask for, for games of `variant` (`--variant`), or of any
    /// variant when it is not given (an archive may mix them): only the rules analysed have
    /// their tables loaded and named.
    pub fn for_rules(&self, variant: Option<Variant>) -> Result<EndgameTables, CliError> {
        match variant {
            Some(v) => self.for_variants(&[v]),
            None => self.for_variants(&Variant::ALL),
        }
    }

    /// The tables of each of `variants` these flags ask for, in one set (for archives whose
    /// games may be of several variants). With `--egtb DIR`, DIR must hold some.
    pub fn for_variants(&self, variants: &[Variant]) -> Result<EndgameTables, CliError> {
        let mut found = EndgameTables::default();
        let Some((root, required)) = self.root() else {
            return Ok(found);
        };
        for &variant in variants {
            if let Some(t) = tables_in(&root, variant, false)? {
                found.insert(t).map_err(|e| CliError::new(e.to_string()))?;
            }
        }
        if required && found.is_empty() {
            return Err(CliError::new(format!(
                "{}: no endgame tables here (drafti egtb build --dir {} builds them)",
                root.display(),
                root.display()
            )));
        }
        Ok(found)
    }
}

/// Builds the tables of `variant` of up to `pieces` pieces missing under `root`
/// ([`egtb::build_on_first_use`]: once, under a lock), saying so on stderr with a bar on
/// `jobs` threads; nothing when they are all there. The error is why they could not be built
/// (the folder cannot be written, the disk is full).
fn build_on_first_use(
    root: &Path,
    variant: Variant,
    pieces: u32,
    jobs: usize,
) -> Result<(), String> {
    let bar = OnceLock::new();
    let start = OnceLock::new();
    let on_event = |event: FirstUseEvent<'_>| match event {
        FirstUseEvent::Building { dir, pieces, plan } => {
            eprintln!(
                "endgame tables: building the {variant} tables of up to {pieces} pieces in {}, \
                 once ({:.1} MB; --no-egtb analyses without them)",
                dir.display(),
                plan.new_bytes() as f64 / 1e6
            );
            start.get_or_init(Instant::now);
            bar.get_or_init(|| Progress::count(plan.positions, "positions"));
        }
        FirstUseEvent::Build(
            BuildEvent::Kept { positions, .. } | BuildEvent::Progress { positions },
        ) => {
            if let Some(bar) = bar.get() {
                bar.inc(positions);
            }
        }
        FirstUseEvent::Build(BuildEvent::Plan { .. } | BuildEvent::Built { .. }) => {}
    };
    let built = crate::workers::worker_pool(jobs, "egtb")
        .map_err(|e| e.to_string())?
        .install(|| egtb::build_on_first_use(root, variant, pieces, &on_event, &StopFlag::new()))
        .map_err(|e| e.to_string())?;
    drop(bar);
    if let (Some(tables), Some(start)) = (built, start.get()) {
        eprintln!(
            "endgame tables: built {} {variant} tables in {:.1} s",
            tables.len(),
            start.elapsed().as_secs_f64()
        );
    }
    Ok(())
}

/// The tables of `variant` under `root`, said on stderr. Not `required`: none there is no
/// error. A damaged file is an error (exit 2) even in the default folder: a run that left
/// it out would give other results than the same command yesterday, without saying why.
pub fn tables_in(
    root: &Path,
    variant: Variant,
    required: bool,
) -> Result<Option<Arc<Tables>>, CliError> {
    if !required && !Tables::variant_dir(root, variant).is_dir() {
        return Ok(None);
    }
    if !drafti_engine::egtb::VARIANTS.contains(&variant) {
        eprintln!("endgame tables: none for {variant} (its games are searched without them)");
        return Ok(None);
    }
    match Tables::open(root, variant) {
        Ok(t) => {
            eprintln!(
                "endgame tables: {} ({} tables, up to {} pieces)",
                t.dir().display(),
                t.len(),
                t.max_pieces()
            );
            Ok(Some(Arc::new(t)))
        }
        Err(EgtbError::NoTables { .. }) if !required => Ok(None),
        // Results would change with a table left out: say how to get going again.
        Err(e @ EgtbError::Corrupt { .. }) => Err(CliError::new(format!(
            "{e} (remove it and run drafti egtb build --dir {} again, or give --no-egtb)",
            root.display()
        ))),
        Err(e) => Err(CliError::new(e.to_string())),
    }
}
