//! `drafti egtb build`: the plan checked (a huge build needs `--yes`), then the build with
//! a line per table and a bar.

use super::{root, BuildArgs};
use crate::error::{report_written, CliError, CommandResult};
use crate::progress::Progress;
use crate::runner::worker_pool;
use drafti_engine::egtb::{self, BuildEvent, Signature, Tables};
use drafti_report::{counted, thousands};
use std::io::{self, Write};
use std::process::ExitCode;
use std::sync::Mutex;
use std::time::Instant;

pub(super) fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}

fn gb(bytes: u64) -> String {
    format!("{:.1} GB", bytes as f64 / 1e9)
}

/// Builds of more new positions than this need `--yes` (7 pieces: about 60 billion).
const CONFIRM_POSITIONS: u64 = 10_000_000_000;

/// The build's lines to stdout, from its worker threads too: written above the bar, the
/// first write error kept (and nothing more written after it).
struct Lines {
    bar: Progress,
    failed: Option<io::Error>,
}

impl Lines {
    fn say(&mut self, line: std::fmt::Arguments) {
        if self.failed.is_none() {
            let written = self.bar.suspend(|| writeln!(io::stdout().lock(), "{line}"));
            self.failed = written.err();
        }
    }
}

pub(super) fn build(args: BuildArgs) -> CommandResult {
    let root = root(&args.dir)?;
    let threads = args.jobs.threads();
    let (targets, what) = match args.pieces {
        Some(n) => (Signature::all_up_to(n), format!("of at most {n} pieces")),
        None => {
            let names: Vec<String> = args.signature.iter().map(|s| s.name()).collect();
            (args.signature.clone(), format!("for {}", names.join(", ")))
        }
    };
    let mut plans = Vec::new();
    for &variant in &args.variant.variants.0 {
        let plan =
            egtb::plan(&root, variant, &targets).map_err(|e| CliError::new(e.to_string()))?;
        if plan.new_positions > CONFIRM_POSITIONS && !args.yes {
            return Err(CliError::new(format!(
                "{variant}: {} new tables {what} hold {} positions: {} on disk and hours of \
                 work; give --yes to build them",
                plan.new_signatures,
                thousands(plan.new_positions),
                gb(plan.new_bytes())
            )));
        }
        plans.push((variant, plan));
    }
    let pool = worker_pool(threads, "egtb")?;
    for (variant, plan) in plans {
        let start = Instant::now();
        report_written(writeln!(
            io::stdout().lock(),
            "{variant}: {} tables {what}, {} positions, in {} ({})",
            plan.signatures,
            thousands(plan.positions),
            Tables::variant_dir(&root, variant).display(),
            counted(threads as u64, "thread", "threads")
        ))?;
        let lines = Mutex::new(Lines {
            bar: Progress::hidden(),
            failed: None,
        });
        let lines = || lines.lock().unwrap_or_else(|e| e.into_inner());
        let counts = Mutex::new([0usize; 2]);
        let count = |i: usize| counts.lock().unwrap_or_else(|e| e.into_inner())[i] += 1;
        let on_event = |event: BuildEvent| match event {
            BuildEvent::Plan { positions, .. } => {
                lines().bar = Progress::count(positions, "positions");
            }
            BuildEvent::Kept {
                signature,
                positions,
            } => {
                count(1);
                let mut lines = lines();
                lines.bar.inc(positions);
                lines.say(format_args!(
                    "  kept  {:<10} {:>13} positions",
                    signature.name(),
                    thousands(positions)
                ));
            }
            BuildEvent::Progress { positions } => lines().bar.inc(positions),
            BuildEvent::Built {
                signature,
                positions,
                max_distance,
            } => {
                count(0);
                lines().say(format_args!(
                    "  built {:<10} {:>13} positions, longest {max_distance} plies, {:.1} s",
                    signature.name(),
                    thousands(positions),
                    start.elapsed().as_secs_f64()
                ));
            }
        };
        let tables = pool
            .install(|| egtb::build_signatures(&root, variant, &targets, &on_event))
            .map_err(|e| CliError::new(e.to_string()))?;
        let mut lines = lines();
        lines.bar = Progress::hidden();
        if let Some(e) = lines.failed.take() {
            return Err(CliError::writing("the report", &e));
        }
        let [built, kept] = *counts.lock().unwrap_or_else(|e| e.into_inner());
        let bytes: u64 = tables.infos().iter().map(|i| i.bytes).sum();
        report_written(writeln!(
            io::stdout().lock(),
            "{variant}: {} tables ({built} built, {kept} kept), {} on disk, {:.1} s",
            tables.len(),
            mb(bytes),
            start.elapsed().as_secs_f64()
        ))?;
    }
    Ok(ExitCode::SUCCESS)
}
