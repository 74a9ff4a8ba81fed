//! `drafti egtb verify` and `drafti egtb info`: every entry checked, and the tables listed
//! (text table or JSON Lines).

use super::build::mb;
use super::{open, InfoArgs, VerifyArgs};
use crate::error::{report_written, CommandResult};
use crate::progress::Progress;
use crate::runner::worker_pool;
use drafti_engine::egtb::{self, Tables};
use drafti_report::thousands;
use drafti_rules::Variant;
use serde::Serialize;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Instant;

pub(super) fn verify(args: VerifyArgs) -> CommandResult {
    let pool = worker_pool(args.jobs.threads(), "egtb")?;
    let mut all_ok = true;
    for &variant in &args.variant.variants.0 {
        let tables = open(&args.dir, variant)?;
        let start = Instant::now();
        let total: u64 = tables.infos().iter().map(|i| i.header.entries).sum();
        let bar = Progress::count(total, "positions");
        let report = pool.install(|| egtb::verify(&tables, &|n| bar.inc(n)));
        drop(bar);
        let mut out = io::stdout().lock();
        for problem in &report.problems {
            report_written(writeln!(out, "  {problem}"))?;
        }
        let dir = tables.dir().display();
        report_written(if report.ok() {
            writeln!(
                out,
                "{variant}: {} tables, {} positions verified in {:.1} s: every entry consistent ({dir})",
                report.tables,
                thousands(report.positions),
                start.elapsed().as_secs_f64(),
            )
        } else {
            all_ok = false;
            writeln!(
                out,
                "{variant}: {} of {} positions inconsistent ({dir})",
                thousands(report.errors),
                thousands(report.positions),
            )
        })?;
    }
    Ok(crate::error::exit_code(!all_ok))
}

#[derive(Serialize)]
struct InfoJson {
    variant: String,
    signature: String,
    pieces: u32,
    layers: u32,
    positions: u64,
    wins: u64,
    draws: u64,
    losses: u64,
    max_distance: u32,
    bytes: u64,
    path: String,
}

/// One row of the `info` table.
fn info_row(out: &mut impl Write, cells: [&str; 8]) -> io::Result<()> {
    let [a, b, c, d, e, f, g, h] = cells;
    writeln!(
        out,
        "  {a:<10} {b:>6} {c:>13} {d:>13} {e:>13} {f:>13} {g:>7} {h:>10}"
    )
}

pub(super) fn info(args: InfoArgs) -> CommandResult {
    let mut out = io::stdout().lock();
    for &variant in &args.variant.variants.0 {
        let tables = open(&args.dir, variant)?;
        report_written(write_info(&mut out, variant, &tables, args.json.json))?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_info(
    out: &mut impl Write,
    variant: Variant,
    tables: &Tables,
    json: bool,
) -> io::Result<()> {
    let infos = tables.infos();
    if json {
        for i in &infos {
            let h = i.header;
            let json = InfoJson {
                variant: variant.name().into(),
                signature: h.signature.name(),
                pieces: h.signature.pieces(),
                layers: h.layers,
                positions: h.wins + h.draws + h.losses,
                wins: h.wins,
                draws: h.draws,
                losses: h.losses,
                max_distance: h.max_distance,
                bytes: i.bytes,
                path: i.path.display().to_string(),
            };
            writeln!(
                out,
                "{}",
                serde_json::to_string(&json).map_err(io::Error::other)?
            )?;
        }
        return Ok(());
    }
    writeln!(out, "{variant}: {}", tables.dir().display())?;
    let head = [
        "table",
        "layers",
        "positions",
        "wins",
        "draws",
        "losses",
        "longest",
        "size",
    ];
    info_row(out, head)?;
    let mut total = [0u64; 5];
    for i in &infos {
        let h = i.header;
        let positions = h.wins + h.draws + h.losses;
        let n = [positions, h.wins, h.draws, h.losses].map(thousands);
        let (name, layers, longest) = (
            h.signature.name(),
            h.layers.to_string(),
            h.max_distance.to_string(),
        );
        info_row(
            out,
            [
                &name,
                &layers,
                &n[0],
                &n[1],
                &n[2],
                &n[3],
                &longest,
                &mb(i.bytes),
            ],
        )?;
        for (t, v) in total
            .iter_mut()
            .zip([positions, h.wins, h.draws, h.losses, i.bytes])
        {
            *t += v;
        }
    }
    let n = [total[0], total[1], total[2], total[3]].map(thousands);
    let count = format!("{} tables", infos.len());
    info_row(
        out,
        [&count, "", &n[0], &n[1], &n[2], &n[3], "", &mb(total[4])],
    )
}
