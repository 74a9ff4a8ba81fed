//! One policy for endgame tables, for every command that searches: `--egtb DIR` uses the
//! tables under DIR (none there, or a damaged one, is an error); without it the default folder
//! (`$XDG_CACHE_HOME/drafti/egtb`, else `~/.cache/drafti/egtb`) is used when it holds tables
//! for the rules at hand; `--no-egtb` uses none. Which tables are used is said on stderr, one
//! line per variant, so that results that change with the tables say why.

use crate::error::CliError;
use drafti_analysis::EndgameTables;
use drafti_engine::egtb::{EgtbError, Tables};
use drafti_rules::Variant;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// `--egtb DIR` and `--no-egtb`.
#[derive(clap::Args, Clone, Debug, Default)]
pub struct TableArgs {
    /// Endgame tables (drafti egtb build --dir DIR): positions they hold get exact values
    /// (default: those in $XDG_CACHE_HOME/drafti/egtb or ~/.cache/drafti/egtb, if built).
    #[arg(long, value_name = "DIR")]
    pub egtb: Option<PathBuf>,
    /// Use no endgame tables, not even the default folder's.
    #[arg(long, conflicts_with = "egtb")]
    pub no_egtb: bool,
}

/// The default folder of the tables: `$XDG_CACHE_HOME/drafti/egtb`, else
/// `~/.cache/drafti/egtb`.
pub fn default_dir() -> Option<PathBuf> {
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(cache.join("drafti").join("egtb"))
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
