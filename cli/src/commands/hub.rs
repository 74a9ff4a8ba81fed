//! `drafti hub`: the engine as a Hub protocol (version 2) engine on stdin and stdout, for
//! GUIs, pydraughts and `drafti match`. The options set the parameters' starting values; the
//! GUI may change them with `set-param` before `init`.

use crate::args::{HashArg, RulesArg};
use crate::error::CommandResult;
use crate::tables::TableArgs;
use drafti_hub::engine::{serve, Host, Settings};
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct Args {
    // The `variant` parameter.
    #[command(flatten)]
    rules: RulesArg,
    // The `hash` parameter, allocated at `init`.
    #[command(flatten)]
    hash: HashArg,
    /// Search at most this many nodes a move, whatever the GUI's level (a weaker engine for
    /// matches; the `nodes` parameter).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    nodes: Option<u64>,
    /// Search at most this deep (the `depth` parameter).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
    depth: Option<u32>,
    /// Tanzanian draw law 2: the lone king's agreed count (the `king-count` parameter).
    #[arg(long, value_name = "N", default_value_t = 12,
          value_parser = clap::value_parser!(u32).range(1..=1000))]
    king_count: u32,
    #[command(flatten)]
    tables: TableArgs,
}

pub fn run(args: Args) -> CommandResult {
    let settings = Settings {
        variant: args.rules.variant,
        hash_mb: args.hash.hash as usize,
        nodes: args.nodes,
        depth: args.depth,
        king_count: args.king_count,
    };
    // Tables as --egtb/--no-egtb say (by default the default folder's, when built for these
    // rules; stderr says which; a damaged one is reported there and not used).
    let tables = args.tables;
    let host = Host {
        tables: Box::new(move |variant| tables.for_variant(variant).map_err(|e| e.to_string())),
        diagnostics: Box::new(|line| eprintln!("{line}")),
    };
    let stdin = std::io::BufReader::new(std::io::stdin());
    match serve(stdin, std::io::stdout(), settings, host) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        // The GUI closed its end: quit quietly, as the protocol asks.
        Err(e) if e.gui_gone() => Ok(ExitCode::SUCCESS),
        Err(e) => Err(e.into()),
    }
}
