//! The analysis quality benchmark (`drafti-lab quality`): the verdicts of an analysis
//! of sampled master games against a reference's ([`crate::quality`]), the reference's
//! searches kept in a cache file, the judged moves optionally written out, and the result as
//! one report ([`QualityJson`], which is also the JSON the command prints).

use crate::consensus::{ConsensusTally, Judges, Level, LevelScore, PlayerView, Share, Standing};
use crate::quality::{
    recheck_move, reference_evals, reference_evals_in_sequence, reference_moves,
    reference_verdicts, table_verdicts, Agreement, ClassAgreement, ReferenceEval, ReferenceHeader,
    ReferenceLine, REFERENCE_SEQUENCE_TT_MB, REFERENCE_TT_MB,
};
use crate::LabError;
use drafti_analysis::judge::{Judgement, Verdict};
use drafti_analysis::{analyse_games, AnalysisOptions, EndgameTables, DEFAULT_TT_MB};
use drafti_archive::replay::{replay, ReplayOptions, ReplayedGame};
use drafti_engine::Engine;
use drafti_pdn::GameReader;
use drafti_report::thousands;
use drafti_rules::Variant;
use rayon::prelude::*;
use serde::Serialize;
use std::collections::HashMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// A line for a person about the run's progress (for stderr); called from worker threads.
pub type Note<'a> = &'a (dyn Fn(String) + Sync);

/// One sampled game of the master archives.
pub struct Sampled {
    /// The archive's file name.
    pub file: String,
    /// 1-based.
    pub index: usize,
    /// The game, replayed.
    pub game: ReplayedGame,
}

fn variant_of_file(name: &str) -> Option<Variant> {
    if name.starts_with("russian") {
        Some(Variant::Russian)
    } else if name.starts_with("czech") {
        Some(Variant::Czech)
    } else if name.starts_with("tanzanian") {
        Some(Variant::Tanzanian)
    } else if name.starts_with("tzdraft") {
        Some(Variant::TzDraft)
    } else {
        None
    }
}

/// Every `every`-th game of every known archive in `dir` (`russian-*.pdn` replayed under
/// Russian rules, `czech-*.pdn` under Czech, `tanzanian-*.pdn` under Tanzanian, `tzdraft-*.pdn`
/// under TzDraft's server's), in file-name order; `None` when the folder is absent.
pub fn sampled_games(dir: &Path, every: u64, note: Note) -> Result<Option<Vec<Sampled>>, LabError> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Ok(None);
    };
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "pdn"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let Some(variant) = variant_of_file(&name) else {
            note(format!(
                "quality: {name}: not russian-*, czech-*, tanzanian-* or tzdraft-*, skipped"
            ));
            continue;
        };
        let options = ReplayOptions {
            variant_override: Some(variant),
            ..ReplayOptions::default()
        };
        let file = std::fs::File::open(&path).map_err(|source| LabError::Read {
            path: path.clone(),
            source,
        })?;
        for (i, record) in GameReader::new(std::io::BufReader::new(file)).enumerate() {
            if !(i as u64).is_multiple_of(every) {
                continue;
            }
            let Ok(record) = record else { continue };
            let game = replay(record, &options);
            if game.is_valid() && !game.moves.is_empty() {
                out.push(Sampled {
                    file: name.clone(),
                    index: i + 1,
                    game,
                });
            }
        }
    }
    Ok(Some(out))
}

/// How a reference judges a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReferenceMode {
    /// Every position searched alone; the played move from the next position's search.
    Alone,
    /// Each game as one sequence from its last position, the table kept.
    Sequence,
    /// Every move alone: its position, then the played move to the same depth.
    Moves,
}

impl ReferenceMode {
    /// The mode of `--reference-sequence` and `--reference-moves`.
    pub fn of(sequence: bool, moves: bool) -> ReferenceMode {
        match (sequence, moves) {
            (true, _) => ReferenceMode::Sequence,
            (false, true) => ReferenceMode::Moves,
            (false, false) => ReferenceMode::Alone,
        }
    }

    /// The JSON's name and the text's description.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            ReferenceMode::Alone => ("alone", "every position alone"),
            ReferenceMode::Sequence => (
                "sequence",
                "each game as one sequence from its last position",
            ),
            ReferenceMode::Moves => (
                "moves",
                "every move alone (its position, then the played move to the same depth)",
            ),
        }
    }
}

/// How a reference searches: nodes a position, its mode, its cache file.
#[derive(Clone, Copy, Debug)]
pub struct ReferenceSpec<'a> {
    /// Nodes of each position's search.
    pub nodes: u64,
    /// How it judges a move.
    pub mode: ReferenceMode,
    /// The cache of its searches (JSON Lines), if any.
    pub file: Option<&'a Path>,
}

/// What the reference of `spec` is searched with: its cache file's first line.
fn reference_header(spec: &ReferenceSpec, tables: &EndgameTables) -> ReferenceHeader {
    ReferenceHeader {
        engine: Engine::fingerprint().to_string(),
        nodes: spec.nodes,
        tt_mb: if spec.mode == ReferenceMode::Sequence {
            REFERENCE_SEQUENCE_TT_MB
        } else {
            REFERENCE_TT_MB
        },
        egtb: tables.label(),
        sequence: spec.mode == ReferenceMode::Sequence,
        moves: spec.mode == ReferenceMode::Moves,
    }
}

/// The lines after the header of `spec`'s cache file, when it has one: `None` when there is
/// no file or an empty one. A file made for another engine, limit or mode (or whose first
/// line, blank or unreadable, is no header) is refused: its searches cost hours, so they are
/// neither read nor overwritten.
fn cached_reference(
    spec: &ReferenceSpec,
    header: &ReferenceHeader,
) -> Result<Option<std::io::Lines<std::io::BufReader<std::fs::File>>>, LabError> {
    let Some((path, file)) = spec
        .file
        .and_then(|path| Some((path, std::fs::File::open(path).ok()?)))
    else {
        return Ok(None);
    };
    let mut lines = std::io::BufReader::new(file).lines();
    let Some(first) = lines.next() else {
        return Ok(None);
    };
    match first
        .ok()
        .and_then(|l| serde_json::from_str::<ReferenceHeader>(&l).ok())
    {
        Some(found) if found == *header => Ok(Some(lines)),
        found => Err(LabError::OtherReference {
            path: path.to_path_buf(),
            found: found.map_or_else(
                || "its first line is no reference header".to_string(),
                |h| h.describe(),
            ),
            wanted: header.describe(),
        }),
    }
}

/// The reference searches of every position of `games`: read from FILE where it has them
/// (for the same engine and limit), searched (and appended to FILE) where it has not.
fn reference_runs(
    games: &[Sampled],
    spec: &ReferenceSpec,
    tables: &EndgameTables,
    pool: &rayon::ThreadPool,
    note: Note,
) -> Result<Vec<Vec<ReferenceEval>>, LabError> {
    let header = reference_header(spec, tables);
    let mut known: HashMap<(String, usize, usize), ReferenceLine> = HashMap::new();
    let mut writer = None;
    if let Some(path) = spec.file {
        let cached = cached_reference(spec, &header)?;
        let same = cached.is_some();
        for line in cached.into_iter().flatten().map_while(Result::ok) {
            if let Ok(r) = serde_json::from_str::<ReferenceLine>(&line) {
                known.insert((r.file.clone(), r.game, r.ply), r);
            }
        }
        let file = if same {
            std::fs::OpenOptions::new().append(true).open(path)
        } else {
            std::fs::File::create(path)
        }
        .map_err(|source| written(path, source))?;
        let mut w = std::io::BufWriter::new(file);
        if !same {
            writeln!(w, "{}", json_line(&header)).map_err(|e| written(path, e))?;
        }
        writer = Some((w, path));
    }
    let total: usize = games.iter().map(|g| g.game.positions.len()).sum();
    let started = Instant::now();
    let cached = |s: &Sampled| -> Vec<Option<ReferenceEval>> {
        let game = &s.game;
        (0..game.positions.len())
            .map(|ply| {
                known
                    .get(&(s.file.clone(), s.index, ply))?
                    .eval(&game.positions[ply], game.variant)
            })
            .collect()
    };
    let mut evals: Vec<Vec<Option<ReferenceEval>>> = games.iter().map(cached).collect();
    // The positions each game still lacks: searched now, and added to FILE.
    let mut fresh: Vec<Vec<usize>> = evals
        .iter()
        .map(|e| (0..e.len()).filter(|&i| e[i].is_none()).collect())
        .collect();
    if spec.mode == ReferenceMode::Sequence {
        // A sequence's results depend on the whole game: a game lacking any position is
        // searched again from its last one, one game per worker.
        let whole: Vec<usize> = (0..games.len()).filter(|&g| !fresh[g].is_empty()).collect();
        let searched = std::sync::atomic::AtomicUsize::new(0);
        let found: Vec<Vec<ReferenceEval>> = pool.install(|| {
            whole
                .par_iter()
                .with_max_len(1)
                .map(|&g| {
                    let s = &games[g];
                    let all: Vec<ReferenceEval> =
                        reference_evals_in_sequence(&s.game, spec.nodes, tables)
                            .into_iter()
                            .map(ReferenceEval::from)
                            .collect();
                    let n = searched.fetch_add(all.len(), std::sync::atomic::Ordering::Relaxed)
                        + all.len();
                    note(format!(
                        "quality: reference {} game {}: {} positions searched in sequence ({} of at most {} in {:.0} s)",
                        s.file,
                        s.index,
                        all.len(),
                        thousands(n as u64),
                        thousands(total as u64),
                        started.elapsed().as_secs_f64()
                    ));
                    all
                })
                .collect()
        });
        for (g, all) in whole.into_iter().zip(found) {
            fresh[g] = (0..all.len()).collect();
            evals[g] = all.into_iter().map(Some).collect();
        }
    }
    let mut done = 0usize;
    let mut runs = Vec::with_capacity(games.len());
    for ((s, mut evals), fresh) in games.iter().zip(evals).zip(fresh) {
        if fresh.is_empty() {
            runs.push(evals.into_iter().map(|e| e.expect("cached")).collect());
            continue;
        }
        if spec.mode != ReferenceMode::Sequence {
            let found: Vec<ReferenceEval> = pool.install(|| {
                if spec.mode == ReferenceMode::Moves {
                    reference_moves(&s.game, spec.nodes, &fresh, tables)
                } else {
                    reference_evals(&s.game, spec.nodes, &fresh, tables)
                        .into_iter()
                        .map(ReferenceEval::from)
                        .collect()
                }
            });
            for (&ply, e) in fresh.iter().zip(found) {
                evals[ply] = Some(e);
            }
            done += fresh.len();
            note(format!(
                "quality: reference {} game {}: {} positions searched ({} of at most {} in {:.0} s)",
                s.file,
                s.index,
                fresh.len(),
                thousands(done as u64),
                thousands(total as u64),
                started.elapsed().as_secs_f64()
            ));
        }
        if let Some((w, path)) = writer.as_mut() {
            let mut write = || -> std::io::Result<()> {
                for &ply in &fresh {
                    let r = evals[ply].as_ref().expect("searched");
                    let line = ReferenceLine::new(&s.file, s.index, ply, r);
                    writeln!(w, "{}", json_line(&line))?;
                }
                w.flush()
            };
            write().map_err(|e| written(path, e))?;
        }
        runs.push(evals.into_iter().map(|e| e.expect("searched")).collect());
    }
    Ok(runs)
}

/// One class of verdicts: how many each side gives, how many both, and the ratios.
#[derive(Serialize)]
pub struct ClassJson {
    /// `blunder`, `mistake`, `inaccuracy` or `>= mistake`.
    pub class: &'static str,
    /// Moves the candidate puts in the class.
    pub candidate: usize,
    /// Moves the reference puts in it.
    pub reference: usize,
    /// Moves both put in it.
    pub both: usize,
    /// `both / candidate` (none when the candidate flags nothing).
    pub precision: Option<f64>,
    /// `both / reference` (none when the reference flags nothing).
    pub recall: Option<f64>,
}

impl ClassJson {
    fn new(class: &'static str, c: &ClassAgreement) -> ClassJson {
        ClassJson {
            class,
            candidate: c.candidate,
            reference: c.reference,
            both: c.both,
            precision: c.precision(),
            recall: c.recall(),
        }
    }
}

/// The result of a quality run, as `drafti-lab quality --json` prints it.
#[derive(Serialize)]
pub struct QualityJson {
    /// `quality`.
    pub bench: &'static str,
    /// The candidate's settings, as the analysis labels them.
    pub candidate: String,
    /// Games sampled.
    pub games: usize,
    /// Every how many games of each file were sampled (`--sample`).
    pub sample_every: u64,
    /// Positions of the sampled games.
    pub positions: usize,
    /// Moves of the sampled games.
    pub moves: usize,
    /// The candidate's nodes a position, re-searches included.
    pub candidate_nodes_per_position: f64,
    /// The reference's nodes a position (its limit).
    pub reference_nodes: u64,
    /// The nodes the reference's searches spent, a position.
    pub reference_nodes_per_position: f64,
    /// `alone` (every position with a fresh table), `sequence` (each game backwards) or
    /// `moves` (every move judged alone).
    pub reference_mode: &'static str,
    /// The reference's nodes a position over the candidate's.
    pub ratio: f64,
    /// Moves the candidate re-searched.
    pub verified: usize,
    /// The engine's fingerprint (the reference caches' key).
    pub engine: String,
    /// The candidate against the reference, class by class.
    pub classes: Vec<ClassJson>,
    /// The candidate's blunders the reference calls at least mistakes.
    pub blunders_at_least_mistake: usize,
    /// Mean |candidate − reference| of the mover's win% (0-100) before the move.
    pub win_before_mean_abs_diff: f64,
    /// The same after the move.
    pub win_after_mean_abs_diff: f64,
    /// The candidate's analysis, wall seconds.
    pub seconds: f64,
    /// The candidate's positions a second.
    pub positions_per_second: f64,
    /// Worker threads.
    pub jobs: usize,
    /// The reference against a second reference (`--second-reference-nodes`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_reference: Option<SecondReferenceJson>,
    /// The candidate against the consensus of both references (with a second reference).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub consensus: Option<ConsensusJson>,
    /// The candidate's blunders and mistakes judged again deeper (unless turned off).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hold_up: Vec<HoldUpJson>,
    /// The candidate's blunders (for the text: "… of N").
    #[serde(skip)]
    pub candidate_blunders: usize,
}

/// How a second reference's verdicts agree with the reference's (the second as candidate).
#[derive(Serialize)]
pub struct SecondReferenceJson {
    /// Its nodes a position.
    pub nodes: u64,
    /// `alone`, `sequence` or `moves`, as `reference_mode`.
    pub mode: &'static str,
    /// The second reference (as candidate) against the reference, class by class.
    pub classes: Vec<ClassJson>,
    /// Its blunders the reference calls at least mistakes.
    pub blunders_at_least_mistake: usize,
    /// The second reference's blunders (for the text: "… of N").
    #[serde(skip)]
    pub candidate_blunders: usize,
}

/// The candidate against the consensus of the two references and the tables.
#[derive(Serialize)]
pub struct ConsensusJson {
    /// Per level: settled and disputed moves, precision and recall with their intervals.
    pub levels: Vec<LevelScore>,
    /// Candidate blunders both judges call less than a mistake, of the candidate's blunders.
    pub false_alarms: Share,
    /// Moves both judges drop by at least 0.45 that the candidate calls less than a mistake,
    /// of the moves both drop so.
    pub clear_misses: Share,
    /// The candidate's mistakes and blunders in a game's first
    /// [`crate::consensus::OPENING_PLIES`] plies that both judges call less than a mistake, of
    /// its mistakes and blunders there.
    pub opening_alarms: Share,
    /// The moves the references dispute at some level.
    pub disputed: Vec<DisputedJson>,
    /// Each false alarm and clear miss, with its position: what a player would find wrong.
    pub player_view: Vec<PlayerViewJson>,
    /// The endgame tables that settled the moves they hold, if any.
    pub tables: Option<String>,
}

/// A move the two references put on different sides of a level.
#[derive(Serialize)]
pub struct DisputedJson {
    /// The archive's file name.
    pub file: String,
    /// The game's number in its file, from 1.
    pub game: usize,
    /// The move's ply, from 1.
    pub ply: usize,
    /// The move as played.
    #[serde(rename = "move")]
    pub move_text: String,
    /// `blunder` or `>= mistake`: the level disputed (the blunder level when both are).
    pub level: &'static str,
    /// Each side's judgement and drop of winning chances.
    pub reference: (Option<&'static str>, f64),
    /// The second reference's.
    pub second: (Option<&'static str>, f64),
    /// The candidate's judgement.
    pub candidate: Option<&'static str>,
}

/// A false alarm or a clear miss of the candidate.
#[derive(Serialize)]
pub struct PlayerViewJson {
    /// Which.
    pub kind: PlayerView,
    /// The archive's file name.
    pub file: String,
    /// The game's number in its file, from 1.
    pub game: usize,
    /// The move's ply, from 1.
    pub ply: usize,
    /// The move as played.
    #[serde(rename = "move")]
    pub move_text: String,
    /// The position before the move.
    pub fen: String,
    /// The candidate's judgement and drop of winning chances.
    pub candidate: (Option<&'static str>, f64),
    /// The reference's, or the endgame tables' when they settle the move.
    pub reference: (Option<&'static str>, f64),
    /// The second reference's (`None` when the tables settle the move).
    pub second: Option<(Option<&'static str>, f64)>,
}

/// The candidate's blunders and mistakes judged again at `factor` times its nodes a position.
#[derive(Serialize)]
pub struct HoldUpJson {
    /// Times the candidate's nodes a position.
    pub factor: u64,
    /// Nodes of each judgement.
    pub nodes: u64,
    /// Blunders still blunders.
    pub blunders: Share,
    /// Mistakes still at least mistakes.
    pub mistakes: Share,
    /// Wall seconds of the re-check.
    pub seconds: f64,
}

fn class_rows(a: &Agreement) -> Vec<ClassJson> {
    vec![
        ClassJson::new("blunder", &a.blunder),
        ClassJson::new("mistake", &a.mistake),
        ClassJson::new("inaccuracy", &a.inaccuracy),
        ClassJson::new(">= mistake", &a.at_least_mistake),
    ]
}

/// One judged move of `drafti-lab quality --moves`: the candidate's numbers and the
/// reference's (scores from the mover's side, as `analyze --json` has them), and the other
/// judges of the consensus: the second reference's class and, where the settling tables
/// hold the move, theirs (which then decides the consensus).
#[derive(Serialize)]
struct JudgedMoveJson<'a> {
    file: &'a str,
    game: usize,
    ply: usize,
    /// The position before the move.
    fen: String,
    #[serde(rename = "move")]
    move_text: String,
    candidate: Option<&'static str>,
    reference: Option<&'static str>,
    best: Option<String>,
    score_before: (Option<i32>, Option<i32>),
    score_after: (Option<i32>, Option<i32>),
    drop: f64,
    played_is_best: bool,
    depth: u32,
    confirmed_depth: Option<u32>,
    unsettled: bool,
    reference_best: Option<String>,
    reference_before: (Option<i32>, Option<i32>),
    reference_after: (Option<i32>, Option<i32>),
    reference_drop: f64,
    reference_depths: (u32, u32),
    /// The second reference's class; absent without a second reference.
    #[serde(skip_serializing_if = "Option::is_none")]
    second_reference: Option<Option<&'static str>>,
    /// Whether the settling tables hold the move (`--settle-egtb`), and their class.
    settled_by_tables: bool,
    tables: Option<&'static str>,
}

/// The judges of one move besides the candidate: the reference's verdict, the second
/// reference's (if any) and the settling tables' (where they hold the move).
#[derive(Clone, Copy)]
struct MoveJudges<'v> {
    reference: &'v Verdict,
    second: Option<&'v Verdict>,
    tables: Option<&'v Verdict>,
}

impl MoveJudges<'_> {
    /// Whether any of them flags the move.
    fn flag(&self) -> bool {
        [Some(self.reference), self.second, self.tables]
            .into_iter()
            .flatten()
            .any(|v| v.judgement.is_some())
    }
}

fn judged_move_json<'a>(
    s: &'a Sampled,
    m: &drafti_analysis::MoveAnalysis,
    judges: MoveJudges<'_>,
    before: &ReferenceEval,
    after: &ReferenceEval,
) -> JudgedMoveJson<'a> {
    let r = judges.reference;
    let class = |v: &Verdict| v.judgement.map(|j| j.as_str());
    let notation = |mv: Option<drafti_rules::Move>| mv.map(|b| b.full_notation(false));
    JudgedMoveJson {
        file: &s.file,
        game: s.index,
        ply: m.ply,
        fen: s.game.positions[m.ply - 1].to_fen(),
        move_text: m.played.full_notation(false),
        candidate: m.judgement().map(|j| j.as_str()),
        reference: r.judgement.map(|j| j.as_str()),
        best: notation(m.best),
        score_before: crate::quality::score_fields(m.best_score),
        score_after: crate::quality::score_fields(m.played_score),
        drop: m.verdict.drop,
        played_is_best: m.played_is_best,
        depth: m.depth,
        confirmed_depth: m.confirmed_depth,
        unsettled: m.unsettled,
        reference_best: notation(before.eval.best),
        reference_before: crate::quality::score_fields(before.eval.score),
        reference_after: crate::quality::score_fields(
            before
                .played
                .unwrap_or_else(|| drafti_analysis::move_score(after.eval.score)),
        ),
        reference_drop: r.drop,
        reference_depths: (
            before.eval.depth,
            if before.played.is_some() {
                before.eval.depth
            } else {
                after.eval.depth
            },
        ),
        second_reference: judges.second.map(class),
        settled_by_tables: judges.tables.is_some(),
        tables: judges.tables.and_then(class),
    }
}

/// How a quality run is made, besides the analysis's own options.
#[derive(Clone, Copy, Debug)]
pub struct QualitySettings<'a> {
    /// Every how many games of each file were sampled (for the report).
    pub sample_every: u64,
    /// The reference.
    pub reference: ReferenceSpec<'a>,
    /// A second reference, judged against the first (how far two deep searches agree).
    pub second: Option<ReferenceSpec<'a>>,
    /// Write every move either side judges here (JSON Lines).
    pub moves: Option<&'a Path>,
    /// The threads of `pool` (for the report).
    pub jobs: usize,
    /// Endgame tables that settle the moves they hold in the consensus (exact), whatever the
    /// references say; they change no search.
    pub settle_tables: &'a EndgameTables,
    /// The endgame tables of the references' searches and of the hold-up (the candidate's
    /// are its options'): the same, or none when only the candidate is given tables.
    pub reference_tables: &'a EndgameTables,
    /// Re-judge every blunder and mistake of the candidate at [`HOLD_UP_FACTORS`] times its
    /// nodes a position.
    pub hold_up: bool,
}

/// How many times the candidate's nodes a position the hold-up re-check spends on a move.
pub const HOLD_UP_FACTORS: [u64; 2] = [16, 64];

/// The candidate's settings as the analysis names them, and its table when it is not
/// analyze's: the table's size moves verdicts, so two runs that differ in it are told apart.
fn candidate_label(options: &AnalysisOptions) -> String {
    let label = options.label();
    if options.tt_mb == DEFAULT_TT_MB {
        label
    } else {
        format!("{label}; a {} MiB table", options.tt_mb)
    }
}

/// Analyses `games` with `options` (the candidate) on `pool`, runs the reference (and the
/// second) with `settings`' reference tables, and measures how far the verdicts agree.
pub fn quality(
    games: &[Sampled],
    options: &AnalysisOptions,
    settings: &QualitySettings,
    pool: &rayon::ThreadPool,
    note: Note,
) -> Result<QualityJson, LabError> {
    // A cache of another reference is refused before the candidate's analysis, not after.
    for spec in std::iter::once(&settings.reference).chain(&settings.second) {
        cached_reference(spec, &reference_header(spec, settings.reference_tables))?;
    }
    let refs: Vec<&ReplayedGame> = games.iter().map(|s| &s.game).collect();
    let positions: usize = refs.iter().map(|g| g.positions.len()).sum();
    let start = Instant::now();
    let analyses = pool.install(|| analyse_games(&refs, options, &|_| {}));
    let seconds = start.elapsed().as_secs_f64();
    let candidate_nodes: u64 = analyses.iter().map(|a| a.nodes).sum();
    let spec = settings.reference;
    let reference = reference_runs(games, &spec, settings.reference_tables, pool, note)?;
    let second_spec = settings.second;
    let second = match &second_spec {
        Some(spec) => Some(reference_runs(
            games,
            spec,
            settings.reference_tables,
            pool,
            note,
        )?),
        None => None,
    };
    let reference_nodes: u64 = reference.iter().flatten().map(|e| e.eval.nodes).sum();
    let mut agreement = Agreement::default();
    let mut moves_out = match settings.moves {
        Some(path) => Some((
            std::io::BufWriter::new(
                std::fs::File::create(path).map_err(|source| written(path, source))?,
            ),
            path,
        )),
        None => None,
    };
    let mut second_agreement = Agreement::default();
    let mut consensus = ConsensusTally::default();
    let mut disputed = Vec::new();
    let mut player_view = Vec::new();
    for (g, ((s, a), evals)) in games.iter().zip(&analyses).zip(&reference).enumerate() {
        let verdicts = reference_verdicts(&s.game, evals);
        let second_verdicts = second
            .as_ref()
            .map(|second| reference_verdicts(&s.game, &second[g]));
        let tables = table_verdicts(&s.game, settings.settle_tables);
        if let Some(second_verdicts) = &second_verdicts {
            second_agreement.add_verdicts(second_verdicts, &verdicts);
            for (k, m) in a.moves.iter().enumerate() {
                let judges = match &tables[k] {
                    Some(t) => Judges::Tables(t),
                    None => Judges::References(&verdicts[k], &second_verdicts[k]),
                };
                consensus.add(m.ply, m.judgement(), judges);
                if let Some(kind) = PlayerView::of(m.judgement(), &judges) {
                    player_view.push(player_view_json(s, m, kind, judges));
                }
                if let Some(level) = Level::ALL
                    .into_iter()
                    .find(|&l| judges.standing(l) == Standing::Disputed)
                {
                    disputed.push(disputed_json(
                        s,
                        m,
                        level,
                        &verdicts[k],
                        &second_verdicts[k],
                    ));
                }
            }
        }
        if let Some((w, path)) = moves_out.as_mut() {
            for (k, m) in a.moves.iter().enumerate() {
                let judges = MoveJudges {
                    reference: &verdicts[k],
                    second: second_verdicts.as_ref().map(|v| &v[k]),
                    tables: tables[k].as_ref(),
                };
                if m.judgement().is_some() || judges.flag() {
                    let line = judged_move_json(s, m, judges, &evals[m.ply - 1], &evals[m.ply]);
                    writeln!(w, "{}", json_line(&line)).map_err(|e| written(path, e))?;
                }
            }
        }
        agreement.add(a, &verdicts);
    }
    if let Some((w, path)) = moves_out.as_mut() {
        w.flush().map_err(|e| written(path, e))?;
    }
    let per_position = |n: u64| n as f64 / positions.max(1) as f64;
    let hold_up = if settings.hold_up {
        let base = per_position(candidate_nodes).round() as u64;
        HOLD_UP_FACTORS
            .iter()
            .map(|&factor| {
                hold_up(
                    games,
                    &analyses,
                    factor,
                    base * factor,
                    settings.reference_tables,
                    pool,
                    note,
                )
            })
            .collect()
    } else {
        Vec::new()
    };
    let (before, after) = agreement.mean_win_diffs();
    let report = QualityJson {
        bench: "quality",
        candidate: candidate_label(options),
        games: games.len(),
        sample_every: settings.sample_every,
        positions,
        moves: agreement.moves,
        candidate_nodes_per_position: per_position(candidate_nodes),
        reference_nodes: spec.nodes,
        reference_nodes_per_position: per_position(reference_nodes),
        reference_mode: spec.mode.names().0,
        ratio: spec.nodes as f64 / per_position(candidate_nodes).max(1.0),
        verified: analyses.iter().map(|a| a.verified).sum(),
        engine: Engine::fingerprint().to_string(),
        classes: class_rows(&agreement),
        blunders_at_least_mistake: agreement.blunders_at_least_mistake,
        win_before_mean_abs_diff: before,
        win_after_mean_abs_diff: after,
        seconds,
        positions_per_second: positions as f64 / seconds.max(1e-9),
        jobs: settings.jobs,
        second_reference: second_spec.as_ref().map(|spec| SecondReferenceJson {
            nodes: spec.nodes,
            mode: spec.mode.names().0,
            classes: class_rows(&second_agreement),
            blunders_at_least_mistake: second_agreement.blunders_at_least_mistake,
            candidate_blunders: second_agreement.blunder.candidate,
        }),
        candidate_blunders: agreement.blunder.candidate,
        consensus: second.is_some().then(|| ConsensusJson {
            levels: consensus.scores(),
            false_alarms: consensus.false_alarm_share(),
            clear_misses: consensus.clear_miss_share(),
            opening_alarms: consensus.opening_alarm_share(),
            disputed,
            player_view,
            tables: settings.settle_tables.label(),
        }),
        hold_up,
    };
    Ok(report)
}

/// A verdict's judgement and drop, as the reports show it.
fn judged(v: &Verdict) -> (Option<&'static str>, f64) {
    (v.judgement.map(Judgement::as_str), v.drop)
}

fn player_view_json(
    s: &Sampled,
    m: &drafti_analysis::MoveAnalysis,
    kind: PlayerView,
    judges: Judges<'_>,
) -> PlayerViewJson {
    let (reference, second) = match judges {
        Judges::Tables(t) => (judged(t), None),
        Judges::References(a, b) => (judged(a), Some(judged(b))),
    };
    PlayerViewJson {
        kind,
        file: s.file.clone(),
        game: s.index,
        ply: m.ply,
        move_text: m.played.full_notation(false),
        fen: s.game.positions[m.ply - 1].to_fen(),
        candidate: (m.judgement().map(Judgement::as_str), m.verdict.drop),
        reference,
        second,
    }
}

fn disputed_json(
    s: &Sampled,
    m: &drafti_analysis::MoveAnalysis,
    level: Level,
    reference: &Verdict,
    second: &Verdict,
) -> DisputedJson {
    DisputedJson {
        file: s.file.clone(),
        game: s.index,
        ply: m.ply,
        move_text: m.played.full_notation(false),
        level: level.as_str(),
        reference: judged(reference),
        second: judged(second),
        candidate: m.judgement().map(Judgement::as_str),
    }
}

/// The candidate's blunders and mistakes (not exact) judged again alone at `nodes` each, in
/// parallel over the moves: the share that keep their class (a mistake that turns out a
/// blunder keeps it).
fn hold_up(
    games: &[Sampled],
    analyses: &[drafti_analysis::GameAnalysis],
    factor: u64,
    nodes: u64,
    tables: &EndgameTables,
    pool: &rayon::ThreadPool,
    note: Note,
) -> HoldUpJson {
    let flagged: Vec<(usize, usize, Judgement)> = analyses
        .iter()
        .enumerate()
        .flat_map(|(g, a)| {
            a.moves
                .iter()
                .filter(|m| !m.exact)
                .filter_map(move |m| match m.judgement() {
                    Some(j @ (Judgement::Blunder | Judgement::Mistake)) => Some((g, m.ply, j)),
                    _ => None,
                })
        })
        .collect();
    let start = Instant::now();
    let again: Vec<Option<Judgement>> = pool.install(|| {
        flagged
            .par_iter()
            .with_max_len(1)
            .map(|&(g, ply, _)| recheck_move(&games[g].game, ply, nodes, tables).judgement)
            .collect()
    });
    let seconds = start.elapsed().as_secs_f64();
    let kept = |class: Judgement| {
        let of = flagged.iter().filter(|f| f.2 == class).count();
        let hits = flagged
            .iter()
            .zip(&again)
            .filter(|(f, a)| f.2 == class && **a >= Some(class))
            .count();
        Share::new(hits, of)
    };
    note(format!(
        "quality: hold-up at {factor}x ({} nodes): {} moves judged again in {seconds:.0} s",
        thousands(nodes),
        thousands(flagged.len() as u64)
    ));
    HoldUpJson {
        factor,
        nodes,
        blunders: kept(Judgement::Blunder),
        mistakes: kept(Judgement::Mistake),
        seconds,
    }
}

/// A value as one JSON line (the types here always serialise).
fn json_line(value: &impl Serialize) -> String {
    serde_json::to_string(value).expect("serialisable")
}

fn written(path: &Path, source: std::io::Error) -> LabError {
    LabError::Write {
        path: path.to_path_buf(),
        source,
    }
}
