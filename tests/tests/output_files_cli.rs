//! Output files (`analyze --pdn OUT`, `report --html OUT`) appear only when complete: an
//! interrupted run (Ctrl-C) leaves an older OUT as it was and no temporary file behind.

use drafti_tests::{drafti, drafti_path};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("drafti-out-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn corpus(name: &str) -> String {
    format!("{}/../corpus/{name}", env!("CARGO_MANIFEST_DIR"))
}

/// Names in `dir` other than `keep`.
fn others(dir: &Path, keep: &str) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n != keep)
        .collect()
}

/// Starts `drafti ARGS`, waits until a temporary `.part` file appears in `dir` (the command
/// is writing), interrupts it with SIGINT and returns its exit code.
fn interrupt_while_writing(args: &[&str], dir: &Path) -> Option<i32> {
    let mut child = Command::new(drafti_path())
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    while !others(dir, "").iter().any(|n| n.ends_with(".part")) {
        assert!(
            child.try_wait().unwrap().is_none(),
            "drafti ended before writing"
        );
        assert!(Instant::now() < deadline, "no temporary file appeared");
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    child.wait().unwrap().code()
}

#[test]
fn interrupted_analyze_keeps_the_older_pdn_and_leaves_nothing() {
    let dir = temp_dir("analyze");
    let out = dir.join("out.pdn");
    std::fs::write(&out, "older\n").unwrap();
    let code = interrupt_while_writing(
        &[
            "analyze",
            &corpus("selfplay.pdn"),
            "--depth",
            "9",
            "--jobs",
            "1",
            "--pdn",
            out.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, Some(130));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older\n");
    assert_eq!(others(&dir, "out.pdn"), Vec::<String>::new());
}

#[test]
fn interrupted_report_keeps_the_older_html_and_leaves_nothing() {
    let dir = temp_dir("report");
    let out = dir.join("r.html");
    std::fs::write(&out, "older\n").unwrap();
    let code = interrupt_while_writing(
        &[
            "report",
            &corpus("selfplay.pdn"),
            "--depth",
            "9",
            "--jobs",
            "1",
            "--html",
            out.to_str().unwrap(),
        ],
        &dir,
    );
    assert_eq!(code, Some(130));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), "older\n");
    assert_eq!(others(&dir, "r.html"), Vec::<String>::new());
}

#[test]
fn finished_analyze_replaces_the_pdn_with_the_usual_permissions() {
    let dir = temp_dir("done");
    let out = dir.join("out.pdn");
    std::fs::write(&out, "older\n").unwrap();
    let output = drafti()
        .args(["analyze", &corpus("showcase.pdn"), "--depth", "2", "--pdn"])
        .arg(&out)
        .output()
        .unwrap();
    assert!(output.status.code().is_some_and(|c| c <= 1), "{output:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(text.starts_with("[Event"), "{text}");
    assert_eq!(others(&dir, "out.pdn"), Vec::<String>::new());
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode() & 0o777;
        let umask = Command::new("sh").args(["-c", "umask"]).output().unwrap();
        let umask = u32::from_str_radix(String::from_utf8_lossy(&umask.stdout).trim(), 8).unwrap();
        // As `File::create` would make it, not the 0600 of a private temporary file.
        assert_eq!(mode, 0o666 & !umask);
    }
}

#[test]
fn analyze_refuses_a_pdn_on_stdout_and_makes_no_file_named_dash() {
    let dir = temp_dir("dash");
    let output = drafti()
        .current_dir(&dir)
        .args([
            "analyze",
            &corpus("showcase.pdn"),
            "--depth",
            "2",
            "--pdn",
            "-",
        ])
        .output()
        .unwrap();
    assert!(!output.status.success(), "{output:?}");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--pdn -: stdout carries the analysis"),
        "{stderr}"
    );
    assert_eq!(others(&dir, ""), Vec::<String>::new());
}
