//! The guide's Slurm recipes, run as written on a real Slurm cluster: the blocks marked
//! `<!-- slurm: analyze -->`, `<!-- slurm: validate -->` and `<!-- slurm: openings -->` are read
//! from docs/guide.md when the test runs and submitted with `bash`, with this build's drafti on
//! the `PATH`, on `fixtures/slurm/ussr-x-1-30.pdn` in 3 shards of one CPU each:
//!
//! - the merged outputs are a direct run's, byte for byte: the report's text and every page of
//!   its `--html-dir` (`drafti report`), the joined JSON Lines (`drafti validate --json`), the
//!   merged table (`drafti openings`);
//! - the task whose shard holds the invalid game exits 1 to drafti and 0 to Slurm, and the
//!   merge jobs run all the same (the recipes chain them with `afterany`);
//! - a task cancelled before it ran makes the report job refuse (exit code 2, the shard named,
//!   no report written), and so does a task whose drafti failed (a missing archive);
//! - `CPUS` above every node's CPUs is refused before anything is submitted.
//!
//! The cluster is the one that answers: `bash scripts/local-slurm.sh start` (in the README's
//! test command) starts a single-node one as root and, when it leaves one that answers, says
//! so in `$DRAFTI_SLURM_DIR/cluster` with the config the tools read (`SLURM_CONF`: its own
//! when the machine's /etc/slurm/slurm.conf names a controller that is down). The test then
//! uses that config and fails if the cluster does not answer; without that file, where none
//! answers, it skips, saying so. The jobs are followed with `squeue` (not `sbatch --wait`, which polls at 2, 8 and 32 s):
//! about 12 s on two busy cores.
//!
//! The archive is games 1-30 of `tests/fixtures/corpora/russian-ussr-championship-x-153games.pdn` (no
//! GameType tag: Russian only with `--variant russian`; read as Tanzanian, 29 of them are
//! invalid), line ends LF, with one move of game 8 changed to an illegal one (`12. h2-h3`):
//! game 8 is in shard 2 of 3.

use drafti_tests::{drafti_command, drafti_path, isolate};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

const ARCHIVE: &str = "ussr-x-1-30.pdn";
const SHARDS: usize = 3;
/// The shard with the invalid game (game 8).
const INVALID_SHARD: usize = 2;
/// How long the jobs of the test may take, all together.
const JOBS_TIMEOUT: Duration = Duration::from_secs(100);

/// The bash block after the guide's `<!-- slurm: NAME ... -->` marker.
fn recipe(readme: &str, name: &str) -> String {
    let marker = format!("<!-- slurm: {name} ");
    let at = readme
        .find(&marker)
        .unwrap_or_else(|| panic!("docs/guide.md has no `{marker}-->` marker"));
    let rest = &readme[at..];
    let open = "\n```bash\n";
    let start = rest
        .find(open)
        .unwrap_or_else(|| panic!("no ```bash block after `{marker}`"))
        + open.len();
    assert!(
        !rest[..start].contains("\n\n"),
        "the ```bash block must follow the `{marker}` marker"
    );
    let len = rest[start..]
        .find("\n```\n")
        .unwrap_or_else(|| panic!("the block after `{marker}` is not closed"));
    format!("{}\n", &rest[start..start + len])
}

/// The file in which `scripts/local-slurm.sh start` says that it left a cluster answering.
fn cluster_file() -> PathBuf {
    std::env::var_os("DRAFTI_SLURM_DIR")
        .map_or_else(|| PathBuf::from("/var/tmp/drafti-slurm"), PathBuf::from)
        .join("cluster")
}

/// What `scripts/local-slurm.sh start` left: `None` when it did not say that a cluster
/// answers, else the config the Slurm tools are to read (`Some(None)`: their default).
fn started_cluster() -> Option<Option<PathBuf>> {
    let text = std::fs::read_to_string(cluster_file()).ok()?;
    let conf = text
        .lines()
        .find_map(|l| l.strip_prefix("SLURM_CONF="))?
        .trim();
    Some((!conf.is_empty()).then(|| PathBuf::from(conf)))
}

/// A Slurm tool (or a script that runs them) reading the cluster's config: `SLURM_CONF` as
/// set, else the one `scripts/local-slurm.sh start` named.
fn slurm(program: &str) -> Command {
    static CONF: OnceLock<Option<PathBuf>> = OnceLock::new();
    let conf = CONF.get_or_init(|| {
        if std::env::var_os("SLURM_CONF").is_some() {
            return None;
        }
        started_cluster().flatten()
    });
    let mut command = Command::new(program);
    if let Some(conf) = conf {
        command.env("SLURM_CONF", conf);
    }
    command
}

/// `Some(reason)` when no Slurm cluster answers here.
fn no_cluster() -> Option<String> {
    match slurm("sinfo")
        .args(["--noheader", "--responding", "--format=%t"])
        .output()
    {
        Err(e) => Some(format!("no sinfo ({e})")),
        Ok(out) if !out.status.success() => Some(format!(
            "sinfo fails: {}",
            String::from_utf8_lossy(&out.stderr).trim()
        )),
        Ok(out) => {
            let states = String::from_utf8_lossy(&out.stdout).into_owned();
            let up = states.lines().any(|s| {
                ["idle", "mix", "alloc", "comp"]
                    .iter()
                    .any(|u| s.starts_with(u))
            });
            (!up).then(|| format!("no node is up (sinfo: {:?})", states.trim()))
        }
    }
}

/// The most CPUs of a node (what the recipes check `CPUS` against).
fn most_cpus() -> usize {
    let out = run_ok(slurm("sinfo").args(["--Node", "--noheader", "--format=%c"]));
    String::from_utf8_lossy(&out.stdout)
        .split_whitespace()
        .map(|c| c.parse::<usize>().expect("sinfo %c is a number"))
        .max()
        .expect("sinfo lists a node")
}

fn run_ok(command: &mut Command) -> Output {
    let out = command.output().expect("the command runs");
    assert!(
        out.status.success(),
        "{command:?}: {}\n{}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// The test's folder: under Cargo's target folder (on a file system the nodes of a real cluster
/// may share, unlike /tmp), with the archive, `bin/drafti` (this build's) and `shim/sbatch`.
struct Work {
    dir: PathBuf,
    /// Every job submitted, cancelled when the test ends however it ends.
    jobs: std::cell::RefCell<Vec<String>>,
}

impl Work {
    fn new() -> Work {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("drafti-slurm-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("bin")).unwrap();
        std::fs::create_dir_all(dir.join("shim")).unwrap();
        std::fs::copy(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/slurm/ussr-x-1-30.pdn"),
            dir.join(ARCHIVE),
        )
        .unwrap();
        std::os::unix::fs::symlink(drafti_path(), dir.join("bin/drafti")).unwrap();
        // sbatch as the recipes call it, but the job ids go to $DRAFTI_TEST_JOB_IDS (to follow
        // and clean up exactly these jobs) and DRAFTI_TEST_HOLD=1 submits them held.
        let real = run_ok(Command::new("bash").args(["-c", "command -v sbatch"]));
        let real = String::from_utf8(real.stdout).unwrap();
        let shim = dir.join("shim/sbatch");
        std::fs::write(
            &shim,
            format!(
                "#!/bin/bash\n\
                 out=$('{}' ${{DRAFTI_TEST_HOLD:+--hold}} \"$@\") || exit\n\
                 echo \"${{out%%;*}}\" >> \"$DRAFTI_TEST_JOB_IDS\"\n\
                 echo \"$out\"\n",
                real.trim()
            ),
        )
        .unwrap();
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&shim, std::fs::Permissions::from_mode(0o755)).unwrap();
        Work {
            dir,
            jobs: Default::default(),
        }
    }

    /// Runs the recipe `script` (a file in the folder) with `OUT=out` and `vars`: (exit code,
    /// stderr, the ids of the jobs it submitted, in order).
    fn submit(
        &self,
        script: &str,
        out: &str,
        vars: &[(&str, &str)],
        hold: bool,
    ) -> (i32, String, Vec<String>) {
        let ids = self.dir.join(format!("{out}.ids"));
        let path = format!(
            "{}:{}:{}",
            self.dir.join("shim").display(),
            self.dir.join("bin").display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let mut command = slurm("bash");
        command
            .arg(script)
            .current_dir(&self.dir)
            .env("PATH", path)
            .env("DRAFTI_TEST_JOB_IDS", &ids)
            .env("ARCHIVE", ARCHIVE)
            .env("VARIANT", "russian")
            .env("SHARDS", SHARDS.to_string())
            .env("CPUS", "1")
            // The recipe's own default (thorough) is eight times the work of the direct
            // runs' default, which the merged outputs are compared with.
            .env("PRESET", "default")
            .env("OUT", out)
            .env_remove("TASKS");
        if hold {
            command.env("DRAFTI_TEST_HOLD", "1");
        }
        for (k, v) in vars {
            command.env(k, v);
        }
        isolate(&mut command);
        let output = command.output().expect("bash runs");
        let submitted: Vec<String> = std::fs::read_to_string(&ids)
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        self.jobs.borrow_mut().extend(submitted.iter().cloned());
        (
            output.status.code().unwrap_or(-1),
            String::from_utf8_lossy(&output.stderr).into_owned(),
            submitted,
        )
    }

    /// Waits until none of the test's jobs is pending, running or completing (polling `squeue`
    /// four times a second).
    fn wait(&self) {
        let jobs = self.jobs.borrow().join(",");
        let start = Instant::now();
        loop {
            let out = slurm("squeue")
                .args(["--noheader", "--format=%i %T %r", "--jobs", &jobs])
                .output()
                .expect("squeue runs");
            let left = String::from_utf8_lossy(&out.stdout).into_owned();
            let err = String::from_utf8_lossy(&out.stderr);
            if left.trim().is_empty() && (out.status.success() || err.contains("Invalid job id")) {
                return;
            }
            // Jobs that would wait forever: say so now.
            for stuck in ["DependencyNeverSatisfied", "PartitionConfig"] {
                assert!(
                    !left.contains(stuck),
                    "jobs that will never run:\n{left}\nlogs:\n{}",
                    self.logs()
                );
            }
            assert!(
                start.elapsed() < JOBS_TIMEOUT,
                "jobs not done after {JOBS_TIMEOUT:?}:\n{left}{err}\nlogs:\n{}",
                self.logs()
            );
            std::thread::sleep(Duration::from_millis(250));
        }
    }

    /// Every job log, for failure messages.
    fn logs(&self) -> String {
        let mut all = String::new();
        for entry in std::fs::read_dir(&self.dir).unwrap().flatten() {
            if let Ok(logs) = std::fs::read_dir(entry.path().join("logs")) {
                for log in logs.flatten() {
                    all += &format!(
                        "== {}\n{}",
                        log.path().display(),
                        std::fs::read_to_string(log.path()).unwrap_or_default()
                    );
                }
            }
        }
        all
    }

    fn read(&self, file: &str) -> Vec<u8> {
        std::fs::read(self.dir.join(file))
            .unwrap_or_else(|e| panic!("{file}: {e}\nlogs:\n{}", self.logs()))
    }

    /// drafti ARGS in the folder, as the tasks run it: (exit code, stdout).
    fn direct(&self, args: &[&str]) -> (i32, Vec<u8>) {
        let out = drafti_command()
            .current_dir(&self.dir)
            .args(args)
            .output()
            .expect("drafti runs");
        (out.status.code().unwrap_or(-1), out.stdout)
    }

    /// `scontrol show job ID`.
    fn show(&self, id: &str) -> String {
        let out = run_ok(slurm("scontrol").args(["show", "job", id]));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }
}

impl Drop for Work {
    fn drop(&mut self) {
        let jobs = self.jobs.borrow();
        if !jobs.is_empty() {
            let _ = slurm("scancel").args(jobs.iter()).output();
        }
        if !std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.dir);
        }
    }
}

/// The files under `dir`, relative, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut all = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in std::fs::read_dir(&d)
            .unwrap_or_else(|e| panic!("{}: {e}", d.display()))
            .flatten()
        {
            if entry.file_type().unwrap().is_dir() {
                todo.push(entry.path());
            } else {
                all.push(entry.path().strip_prefix(dir).unwrap().to_path_buf());
            }
        }
    }
    all.sort();
    all
}

fn same(what: &str, merged: &[u8], direct: &[u8]) {
    assert!(
        merged == direct,
        "{what}: the merged output differs from the direct run's\n--- merged\n{}\n--- direct\n{}",
        String::from_utf8_lossy(merged),
        String::from_utf8_lossy(direct)
    );
}

#[test]
fn the_readme_recipes_run_on_a_real_slurm_cluster() {
    if let Some(reason) = no_cluster() {
        // The README's test command started (or found) a cluster: it must answer.
        assert!(
            started_cluster().is_none(),
            "`bash scripts/local-slurm.sh start` left a Slurm cluster answering ({} says so), \
             but none answers now: {reason}; `bash scripts/local-slurm.sh status` tells what \
             runs, and `start` starts it again",
            cluster_file().display()
        );
        eprintln!(
            "skipped: no Slurm cluster answers here: {reason}; `bash scripts/local-slurm.sh start` \
             (as root) starts a single-node one"
        );
        return;
    }
    let start = Instant::now();
    let readme =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/guide.md"))
            .expect("docs/guide.md");
    let work = Work::new();
    for name in ["analyze", "validate", "openings"] {
        std::fs::write(work.dir.join(format!("{name}.sh")), recipe(&readme, name)).unwrap();
    }

    // CPUS above every node's: refused before anything is submitted.
    let too_many = (most_cpus() + 1).to_string();
    let (code, err, submitted) =
        work.submit("analyze.sh", "too-many", &[("CPUS", &too_many)], false);
    assert_eq!(code, 2, "CPUS={too_many}: {err}");
    assert!(
        err.contains(&format!("CPUS={too_many}")),
        "CPUS={too_many}: {err}"
    );
    assert!(
        submitted.is_empty(),
        "CPUS={too_many} submitted {submitted:?}"
    );

    // Everything submitted at once, followed together.
    let mut arrays = Vec::new();
    for (script, out) in [
        ("analyze.sh", "analysis"),
        ("validate.sh", "validation"),
        ("openings.sh", "openings"),
    ] {
        let (code, err, submitted) = work.submit(script, out, &[], false);
        assert_eq!(code, 0, "{script}: {err}");
        assert_eq!(
            submitted.len(),
            2,
            "{script}: an array and a merge job: {err}"
        );
        arrays.push(submitted);
    }
    // A task that fails (drafti exits 2: the archive is missing).
    let (code, err, failing) = work.submit(
        "validate.sh",
        "failing",
        &[("ARCHIVE", "no-such-archive.pdn")],
        false,
    );
    assert_eq!(code, 0, "{err}");
    // A task cancelled before it ran: submitted held, task 2 cancelled, the rest released.
    let (code, err, held) = work.submit("analyze.sh", "cancelled", &[], true);
    assert_eq!(code, 0, "{err}");
    let [array, report] = [&held[0], &held[1]];
    run_ok(slurm("scancel").arg(format!("{array}_{INVALID_SHARD}")));
    run_ok(slurm("scontrol").args(["release", array]));
    run_ok(slurm("scontrol").args(["release", report]));

    // Meanwhile, the direct runs.
    let (code, report_txt) = work.direct(&[
        "report",
        "--variant",
        "russian",
        ARCHIVE,
        "--html-dir",
        "direct-report",
    ]);
    assert_eq!(code, 1, "the archive has an invalid game");
    let (_, validate_jsonl) = work.direct(&["validate", "--json", "--variant", "russian", ARCHIVE]);
    let (_, openings_txt) = work.direct(&["openings", "--variant", "russian", ARCHIVE]);

    work.wait();
    let jobs_done = start.elapsed();

    // The merged outputs are the direct runs'.
    same("report.txt", &work.read("analysis/report.txt"), &report_txt);
    let pages = files(&work.dir.join("direct-report"));
    assert!(pages.len() >= 2, "index and a page of games: {pages:?}");
    assert_eq!(files(&work.dir.join("analysis/report")), pages);
    for page in &pages {
        let page = page.display().to_string();
        same(
            &page,
            &work.read(&format!("analysis/report/{page}")),
            &work.read(&format!("direct-report/{page}")),
        );
    }
    same(
        "validate.jsonl",
        &work.read("validation/validate.jsonl"),
        &validate_jsonl,
    );
    same(
        "openings.txt",
        &work.read("openings/openings.txt"),
        &openings_txt,
    );

    // drafti's exit code 1 (the invalid game) is written, and is no failure to Slurm.
    for (out, ids) in ["analysis", "validation", "openings"].iter().zip(&arrays) {
        for k in 1..=SHARDS {
            let status = String::from_utf8(work.read(&format!("{out}/part-{k}.status"))).unwrap();
            let expected = if k == INVALID_SHARD { "1\n" } else { "0\n" };
            assert_eq!(status, expected, "{out}/part-{k}.status");
            let task = work.show(&format!("{}_{k}", ids[0]));
            assert!(
                task.contains("JobState=COMPLETED") && task.contains("ExitCode=0:0"),
                "{out} task {k}: {task}"
            );
        }
        let merge = work.show(&ids[1]);
        assert!(
            merge.contains("JobState=COMPLETED"),
            "{out} merge job: {merge}"
        );
    }

    // The cancelled task: the report job refuses, names the shard, writes no report.
    let log = String::from_utf8(work.read("cancelled/logs/report.out")).unwrap();
    assert!(
        log.contains(&format!("shard {INVALID_SHARD}/{SHARDS}: no exit status")),
        "{log}"
    );
    assert!(!work.dir.join("cancelled/report.txt").exists());
    assert!(!work.dir.join("cancelled/report").exists());
    let job = work.show(report);
    assert!(job.contains("ExitCode=2:0"), "the report job: {job}");
    // The failed tasks: the join refuses, names each, says what drafti exited with.
    let log = String::from_utf8(work.read("failing/logs/join.out")).unwrap();
    for k in 1..=SHARDS {
        assert!(
            log.contains(&format!("shard {k}/{SHARDS}: drafti exited with 2")),
            "{log}"
        );
    }
    assert!(!work.dir.join("failing/validate.jsonl").exists());
    assert!(work.show(&failing[1]).contains("ExitCode=2:0"));

    eprintln!(
        "the recipes' jobs ran in {:.1} s; the test took {:.1} s",
        jobs_done.as_secs_f64(),
        start.elapsed().as_secs_f64()
    );
}
