//! The flags the commands share, each declared once with its one help text (the help is the
//! manual): the archives a command reads ([`InputArgs`]: FILES, `--encoding`, `--variant`,
//! `--jobs`; [`ShardArg`]), the position it looks at ([`PositionArgs`], [`KingCountArg`]), the
//! rules it plays ([`RulesArg`], [`VariantsArg`]), the engine ([`SearchArgs`], [`HashArg`],
//! with [`TableArgs`]) and the output ([`JsonArg`], [`CsvArg`], [`NotationArg`]). A command
//! flattens the groups it takes; one that reads a shared flag differently says so with
//! `#[command(mut_arg("files", ...))]`. A flag of one command only is that command's own.

use crate::error::CliError;
use crate::input::{input_names, open_inputs, open_inputs_from, EncodingArg, Inputs, Stdin};
use crate::tables::TableArgs;
use drafti_analysis::preset::Preset;
use drafti_analysis::{AnalysisOptions, AnalysisOverrides};
use drafti_archive::batch::{BatchOptions, Shard};
use drafti_archive::replay::ReplayOptions;
use drafti_hub::engine::MAX_HASH_MB;
use drafti_rules::{Color, Position, Variant};

/// Parses `--variant` values: tz, tzdraft, czech, russian (and their aliases).
pub fn parse_variant(text: &str) -> Result<Variant, String> {
    text.parse::<Variant>().map_err(|e| e.to_string())
}

/// Parses a FEN argument.
pub fn parse_fen(text: &str) -> Result<Position, String> {
    Position::from_fen(text).map_err(|e| e.to_string())
}

/// The most worker threads `--jobs` takes. The work is CPU-bound, so threads beyond the
/// cores only cost memory (about 240 KiB each: 1024 threads take 250 MB, the 16,000 once
/// asked for 3.4 GB and two minutes); 1024 is more cores than any machine drafti runs on,
/// and a fixed bound keeps a script's `--jobs` valid on every machine.
pub const MAX_JOBS: usize = 1024;

/// Parses `--jobs N`: 0 (one per core) to [`MAX_JOBS`].
pub fn parse_jobs(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|e| format!("{e}"))?;
    if n > MAX_JOBS {
        return Err(format!(
            "at most {MAX_JOBS} worker threads (0: one per core); more only cost memory"
        ));
    }
    Ok(n)
}

/// The worker threads `--jobs N` asks for: `N`, or one per core for 0 (at most
/// [`MAX_JOBS`] either way).
pub fn jobs(requested: usize) -> usize {
    if requested == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(MAX_JOBS))
    } else {
        requested.min(MAX_JOBS)
    }
}

/// `--jobs N`, for every command that works on several threads.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct JobsArg {
    /// Worker threads (0: one per core); only the speed depends on it.
    #[arg(long, short = 'j', default_value_t = 0, value_parser = parse_jobs)]
    pub jobs: usize,
}

impl JobsArg {
    /// The threads asked for: `--jobs N`, or one per core for 0 (at most [`MAX_JOBS`]).
    pub fn threads(&self) -> usize {
        jobs(self.jobs)
    }
}

/// `--variant` of the commands that read archives: the rules forced on every game.
#[derive(clap::Args, Clone, Copy, Debug, Default)]
pub struct ReadAsArg {
    /// Rules for every game, whatever its GameType/Variant tags say: tz, tzdraft, czech
    /// or russian (without it, a game that names no variant is read as Tanzanian).
    #[arg(long, value_parser = parse_variant)]
    pub variant: Option<Variant>,
}

/// The archives a command reads: FILES (or stdin), their encoding, the rules to read them
/// under, and the worker threads.
#[derive(clap::Args, Clone, Debug)]
pub struct InputArgs {
    /// PDN files; `-` or none reads stdin.
    pub files: Vec<String>,
    /// `--encoding`.
    #[command(flatten)]
    pub encoding: EncodingArg,
    /// `--variant`: the rules forced on every game, if any.
    #[command(flatten)]
    pub read_as: ReadAsArg,
    /// `--jobs`.
    #[command(flatten)]
    pub jobs: JobsArg,
}

impl InputArgs {
    /// The FILES opened and checked (stdin for none or `-`, read as it comes).
    pub fn open(&self) -> Result<Inputs, CliError> {
        open_inputs(&self.files, self.encoding)
    }

    /// Whether stdin is among the inputs (`-`, or no FILES).
    pub fn reads_stdin(&self) -> bool {
        self.files.is_empty() || self.files.iter().any(|f| f == "-")
    }

    /// For a command that reads its inputs twice: stdin, when it is among them, copied to a
    /// temporary file ([`Stdin::spool`]) for [`InputArgs::open_from`]; else stdin as it comes
    /// (not read). Inputs that cannot be opened together (`-` twice) are refused first.
    pub fn spool_stdin(&self) -> Result<Stdin, CliError> {
        if input_names(&self.files)?.iter().any(|n| n == "-") {
            Stdin::spool(drafti_archive::input::PDN_TEXT)
        } else {
            Ok(Stdin::Stream)
        }
    }

    /// [`InputArgs::open`] with `-` read from `stdin`; the encodings detected are told on
    /// stderr only when `tell_encodings` (once per run: a reading before the run's keeps
    /// quiet).
    pub fn open_from(&self, stdin: &Stdin, tell_encodings: bool) -> Result<Inputs, CliError> {
        open_inputs_from(
            &self.files,
            self.encoding,
            drafti_archive::input::PDN_TEXT,
            stdin,
            tell_encodings,
        )
    }

    /// `--variant`, when given.
    pub fn variant(&self) -> Option<Variant> {
        self.read_as.variant
    }

    /// How the games are replayed: under `--variant`, else by their tags.
    pub fn replay(&self) -> ReplayOptions {
        ReplayOptions {
            variant_override: self.variant(),
            ..ReplayOptions::default()
        }
    }

    /// The batch these flags ask for (with `shard`, only that shard's games).
    pub fn batch(&self, shard: Option<Shard>) -> BatchOptions {
        BatchOptions {
            jobs: self.jobs.jobs,
            shard,
            replay: self.replay(),
            ..BatchOptions::default()
        }
    }
}

/// The FILES of the commands that fall back on the bundled corpus (`report`, `puzzles`).
pub const CORPUS_FILES_HELP: &str = "PDN files; `-` reads stdin. None: stdin when something is \
    piped in (and not empty), else the bundled corpus";

/// `--shard K/N`, for the commands whose work splits across machines.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct ShardArg {
    /// Only every N-th game from the K-th (K = 1..N), counted across the files: run N
    /// copies with K = 1..N to split an archive across machines.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
}

/// The rules of a position given on the command line, or of the games a command plays.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct RulesArg {
    /// Rules: tz (default), tzdraft, czech or russian.
    #[arg(long, default_value = "tz", value_parser = parse_variant)]
    pub variant: Variant,
}

/// `--variant` of `drafti egtb`: one set of rules or several.
#[derive(clap::Args, Clone, Debug)]
pub struct VariantsArg {
    /// Rules: tz (default), czech, russian, several separated by commas, or all.
    #[arg(long = "variant", value_name = "VARIANT", default_value = "tz", value_parser = parse_variants)]
    pub variants: Variants,
}

/// The rules `--variant` names for `drafti egtb`.
#[derive(Clone, Debug)]
pub struct Variants(pub Vec<Variant>);

/// `tz`, `czech,russian`, `all`, …
fn parse_variants(text: &str) -> Result<Variants, String> {
    if text.eq_ignore_ascii_case("all") {
        return Ok(Variants(Variant::ALL.to_vec()));
    }
    text.split(',')
        .map(|v| v.parse::<Variant>().map_err(|e| e.to_string()))
        .collect::<Result<_, _>>()
        .map(Variants)
}

/// A position given on the command line, with its rules.
#[derive(clap::Args, Clone, Debug)]
pub struct PositionArgs {
    /// The position (FEN, numeric or algebraic squares).
    #[arg(long, required = true, value_parser = parse_fen)]
    pub fen: Option<Position>,
    /// `--rules`: the position's rules.
    #[command(flatten)]
    pub rules: RulesArg,
}

impl PositionArgs {
    /// `--fen`, or (where it is optional) the start position with White to move.
    pub fn position(&self) -> Position {
        self.fen.unwrap_or(Position::start(Color::White))
    }

    /// `--variant`.
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }
}

/// `--king-count N`: where draw law 2's count stands in a position given on the command line.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct KingCountArg {
    /// Moves the lone king has already made under draw law 2 (three kings against one).
    #[arg(long, value_name = "N")]
    pub king_count: Option<u32>,
}

/// `--hash MB`: the engine's transposition table.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct HashArg {
    /// Transposition table in MiB.
    #[arg(long, value_name = "MB", default_value_t = 64,
          value_parser = clap::value_parser!(u64).range(1..=MAX_HASH_MB as u64))]
    pub hash: u64,
}

/// `--json`: machine output on stdout.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct JsonArg {
    /// JSON Lines on stdout, for programs (docs/json.md lists each command's objects).
    #[arg(long)]
    pub json: bool,
}

/// `--csv`: a table on stdout for spreadsheets.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct CsvArg {
    /// CSV on stdout, with a header line (warnings go to stderr).
    #[arg(long, conflicts_with = "json")]
    pub csv: bool,
}

/// `--numeric`: square numbers instead of algebraic names in what is written.
#[derive(clap::Args, Clone, Copy, Debug)]
pub struct NotationArg {
    /// Square numbers (1-32, moves as 22-18) instead of algebraic names (c3-d4).
    #[arg(long)]
    pub numeric: bool,
}

/// How the engine analyses every position of a game: the settings that `drafti analyze`,
/// `drafti report` and `drafti-lab quality` share.
#[derive(clap::Args, Clone, Debug)]
pub struct SearchArgs {
    /// A named set of the settings below, which the flags given with it change: default
    /// (analyze's and the report's: 25,000 nodes a position, re-searched to depth 10,
    /// confirmed at depth 16 within 500,000 nodes), fast (depth 5, re-searched to depth 8,
    /// confirmed at depth 10 within 100,000 nodes: about ten times quicker, and it misses more
    /// game-losing moves), thorough (400,000 nodes a position, re-searched no shallower than
    /// that, confirmed as the default: five to eight times its nodes, and a third of its missed
    /// game-losing moves; for a cluster or a night) or deep (1,000,000 nodes a position,
    /// re-searched within 2,000,000,
    /// confirmed within 5,000,000: the big analysis sites' budgets, for sharded runs).
    #[arg(long, value_name = "NAME", value_parser = parse_preset)]
    pub preset: Option<Preset>,
    /// The pass: search every position to this depth in plies (fast: 5; with --nodes,
    /// whichever is reached first; alone, it replaces the default's 25,000 nodes).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: Option<u32>,
    /// The pass: search every position within this many nodes (the deepest iteration that
    /// finishes within them; default: 25000; with --depth, whichever is reached first).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Re-search every nominated move (best and played move) to this depth (default: 10,
    /// fast: 8).
    #[arg(long, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub verify_depth: Option<u32>,
    /// The node bound of each re-search (default 1000000).
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pub verify_nodes: Option<u64>,
    /// Report the pass's verdicts without re-searching them.
    #[arg(long, conflicts_with_all = ["verify_depth", "verify_nodes", "confirm_depth", "confirm_nodes"])]
    pub no_verify: bool,
    /// Confirm a re-searched verdict near the blunder threshold (a drop of 0.25-0.7, or a
    /// proven result) with a second re-search to this depth (default: 16; fast: 10).
    #[arg(long, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub confirm_depth: Option<u32>,
    /// The node bound of each confirmation (default: 500000; fast: 100000).
    #[arg(long, value_name = "NODES", value_parser = clap::value_parser!(u64).range(1..))]
    pub confirm_nodes: Option<u64>,
    /// Keep the first re-search's verdicts: no confirmation.
    #[arg(long, conflicts_with_all = ["confirm_depth", "confirm_nodes", "confirm_band"])]
    pub no_confirm: bool,
    /// The re-search drops of winning chances (0-2) that are confirmed, as LOW-HIGH (default
    /// 0.25-0.7; a proven result is confirmed whatever its drop).
    #[arg(long, value_name = "LOW-HIGH", value_parser = parse_band)]
    pub confirm_band: Option<(f64, f64)>,
    /// Nominate for the re-search every move whose drop of winning chances (0-2) in the
    /// pass reaches this (default 0.05).
    #[arg(long, value_name = "DROP")]
    pub nominate: Option<f64>,
    /// A re-searched move is a blunder only when its last search called it one at this many
    /// of its deepest completed depths or its drop at the deepest reached 0.45; otherwise it
    /// is judged a mistake, `unsettled` (default 2; 1: every blunder stands).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..=60))]
    pub blunder_depths: Option<u32>,
    /// `--egtb` and `--no-egtb`.
    #[command(flatten)]
    pub tables: TableArgs,
}

impl SearchArgs {
    /// The analysis these settings ask for, from `drafti analyze`'s defaults.
    pub fn options(&self) -> AnalysisOptions {
        self.options_from(AnalysisOptions::default())
    }

    /// The analysis these settings ask for, from the defaults `base`: `--depth` and `--nodes`
    /// replace the pass's limits (either or both: with both, whichever is reached first).
    pub fn options_from(&self, base: AnalysisOptions) -> AnalysisOptions {
        let base = self.preset.map_or(base, Preset::options);
        AnalysisOverrides {
            depth: self.depth,
            nodes: self.nodes,
            no_verify: self.no_verify,
            verify_depth: self.verify_depth,
            verify_nodes: self.verify_nodes,
            no_confirm: self.no_confirm,
            confirm_depth: self.confirm_depth,
            confirm_nodes: self.confirm_nodes,
            confirm_band: self.confirm_band,
            nominate: self.nominate,
            blunder_depths: self.blunder_depths,
        }
        .apply(base)
    }
}

/// `fast`, `default` or `deep`.
fn parse_preset(text: &str) -> Result<Preset, String> {
    text.parse()
        .map_err(|e: drafti_analysis::preset::PresetError| e.to_string())
}

/// `LOW-HIGH`, two drops of winning chances with 0 <= LOW < HIGH <= 2.
fn parse_band(text: &str) -> Result<(f64, f64), String> {
    let (low, high) = text
        .split_once('-')
        .ok_or_else(|| format!("{text:?}: expected LOW-HIGH, e.g. 0.2-0.5"))?;
    let number = |t: &str| {
        t.trim()
            .parse::<f64>()
            .map_err(|_| format!("{t:?} is not a number"))
    };
    let (low, high) = (number(low)?, number(high)?);
    if !(0.0 <= low && low < high && high <= 2.0) {
        return Err(format!("{text}: expected 0 <= LOW < HIGH <= 2"));
    }
    Ok((low, high))
}

/// `--difficulty` values: `3` or `2-4` (difficulties 1 to 5).
pub fn parse_difficulty(text: &str) -> Result<(u8, u8), String> {
    let bad =
        || format!("invalid difficulty '{text}': expected D or D-D with 1 <= D <= 5, e.g. 2-4");
    let (low, high) = text.split_once('-').unwrap_or((text, text));
    let low: u8 = low.trim().parse().map_err(|_| bad())?;
    let high: u8 = high.trim().parse().map_err(|_| bad())?;
    if !(1..=5).contains(&low) || !(low..=5).contains(&high) {
        return Err(bad());
    }
    Ok((low, high))
}
