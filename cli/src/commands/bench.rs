//! `drafti bench`: how fast this machine runs drafti's hot paths, each on fixed work (the same
//! counts on every run; only the times change): move generation (perft), writing, parsing,
//! validating and analysing an archive of random games, and the engine's search.
//!
//! The criterion benchmarks (`cargo bench`) measure the same parts in more detail; this one
//! needs no source tree and runs in a few seconds.

use crate::args::{JobsArg, JsonArg};
use crate::error::{report_written, CliError, CommandResult};
use crate::runner::worker_pool;
use drafti_analysis::bench::{hot_paths, BenchError, Measurement};
use drafti_report::thousands;
use std::io::{self, Write};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    /// Smaller work (perft depth 9, 2,000 games, 2 analysed, shallower searches): a fifth
    /// of a second.
    #[arg(long)]
    quick: bool,
    #[command(flatten)]
    json: JsonArg,
    // For the parallel replay.
    #[command(flatten)]
    jobs: JobsArg,
}

/// One measurement as a line of text or of JSON.
fn write_measurement(out: &mut impl Write, m: &Measurement, json: bool) -> io::Result<()> {
    if json {
        return writeln!(
            out,
            "{}",
            serde_json::to_string(m).map_err(io::Error::other)?
        );
    }
    let rate = match (m.unit, m.per_second) {
        ("bytes", r) => format!("{:.1} MB/s", r / 1e6),
        (unit, r) if r >= 1e6 => format!("{:.1} M {unit}/s", r / 1e6),
        (unit, r) => format!("{} {unit}/s", thousands(r.round() as u64)),
    };
    writeln!(
        out,
        "{:<8} {:<36} {:>11} {:<9} {:>6.3} s  {rate}",
        m.bench,
        m.what,
        thousands(m.work),
        m.unit,
        m.seconds,
    )
}

/// A benchmark's error: the report's write error as such (exit 2, or quiet for a closed
/// pipe), the rest with its reason.
fn bench_error(e: BenchError) -> CliError {
    match e {
        BenchError::Sink(e) => CliError::writing("the report", &e),
        e => CliError::new(e.to_string()),
    }
}

pub fn run(args: Args) -> CommandResult {
    let (jobs, json) = (args.jobs.threads(), args.json.json);
    let pool = worker_pool(jobs, "bench")?;
    let mut out = io::stdout().lock();
    if !json {
        report_written(writeln!(
            out,
            "drafti bench{}: one thread unless said ({jobs} for the parallel validation)",
            if args.quick { " --quick" } else { "" }
        ))?;
    }
    hot_paths(args.quick, &pool, jobs, &mut |m| {
        write_measurement(&mut out, &m, json)
    })
    .map_err(bench_error)?;
    Ok(ExitCode::SUCCESS)
}
