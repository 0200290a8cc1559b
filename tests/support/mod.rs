//! What the integration tests share: the policy for external tools, and the
//! offline CQL validator.
//!
//! A test that needs an external tool (tmux, cqlcheck) fails when the tool
//! is missing. A developer without it opts out explicitly with the variable
//! named for the tool (`CQLMODEL_SKIP_TMUX=1`, `CQLMODEL_SKIP_CQLCHECK=1`);
//! the test then says on stderr that it checked nothing. No other variable
//! (CI or anything else) changes this.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]
// Each test crate compiles this module and uses a part of it.
#![allow(dead_code)]

pub mod tmux_session;

use std::path::{Path, PathBuf};
use std::process::Command;

pub const SKIP_TMUX: &str = "CQLMODEL_SKIP_TMUX";
pub const SKIP_CQLCHECK: &str = "CQLMODEL_SKIP_CQLCHECK";
pub const SKIP_DOT: &str = "CQLMODEL_SKIP_DOT";

/// True when the developer set `var` to a non-empty value other than `0`.
pub fn opted_out(var: &str) -> bool {
    std::env::var(var).is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The tool `what` as `found` says, or `None` when the developer opted out
/// with `var`; a missing tool without the opt-out is a test failure.
pub fn require<T>(what: &str, var: &str, found: impl FnOnce() -> Result<T, String>) -> Option<T> {
    if opted_out(var) {
        eprintln!("SKIPPED: {what} checks are off because {var} is set");
        return None;
    }
    match found() {
        Ok(t) => Some(t),
        Err(why) => panic!(
            "{what} is required by this test and is not usable: {why}\n\
             install it (bash .ci/run shows how) or set {var}=1 to skip explicitly"
        ),
    }
}

/// tmux, when installed; `None` only when opted out.
pub fn tmux() -> Option<()> {
    require("tmux", SKIP_TMUX, || {
        let out = Command::new("tmux")
            .arg("-V")
            .output()
            .map_err(|e| format!("cannot run tmux: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("tmux -V exited with {}", out.status))
        }
    })
}

/// Graphviz's `dot`, which renders the DOT diagrams; `None` only when
/// opted out.
pub fn dot() -> Option<()> {
    require("Graphviz (dot)", SKIP_DOT, || {
        let out = Command::new("dot")
            .arg("-V")
            .output()
            .map_err(|e| format!("cannot run dot: {e}"))?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!("dot -V exited with {}", out.status))
        }
    })
}

const CQLCHECK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/tools/cqlcheck/cqlcheck"
);

/// The cqlcheck executable, set up on first use; `None` only when opted out.
pub fn cqlcheck() -> Option<PathBuf> {
    // Set up (or found complete) once per test binary.
    static READY: std::sync::OnceLock<Result<PathBuf, String>> = std::sync::OnceLock::new();
    require("cqlcheck", SKIP_CQLCHECK, || {
        READY.get_or_init(set_up_cqlcheck).clone()
    })
}

fn set_up_cqlcheck() -> Result<PathBuf, String> {
    let tool = PathBuf::from(CQLCHECK);
    if !tool.exists() {
        return Err(format!("{} does not exist", tool.display()));
    }
    let dir = tool.parent().expect("tool directory");
    // Test binaries run in parallel processes: the first to get here sets
    // the tool up while the others wait on the lock, so none runs it half
    // installed (its venv exists before its packages do). `setup.sh` does
    // nothing when the venv is complete.
    let lock_path = Path::new(env!("CARGO_TARGET_TMPDIR")).join("cqlcheck-setup.lock");
    let lock = std::fs::File::create(&lock_path)
        .map_err(|e| format!("cannot create {}: {e}", lock_path.display()))?;
    lock.lock()
        .map_err(|e| format!("cannot lock {}: {e}", lock_path.display()))?;
    let setup = dir.join("setup.sh");
    let out = Command::new("bash")
        .arg(&setup)
        .output()
        .map_err(|e| format!("cannot run {}: {e}", setup.display()))?;
    drop(lock);
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}{}",
            setup.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(tool)
}

/// Runs cqlcheck on `file`; `Ok(stdout)` when it accepts the script without
/// warnings, `Err(everything it said)` otherwise. Exit 2 (a setup or usage
/// problem) is a failure too, not a skip.
pub fn cqlcheck_file(tool: &Path, file: &Path) -> Result<String, String> {
    let out = Command::new(tool)
        .arg(file)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", tool.display()));
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr);
    if out.status.success() && stdout.starts_with("OK ") && !stdout.contains("warning") {
        Ok(stdout)
    } else {
        Err(format!("exit {:?}\n{stdout}{stderr}", out.status.code()))
    }
}

/// The sample projects as (stem, path), sorted.
pub fn samples() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .expect("sample-projects/ is readable")
        .filter_map(std::result::Result::ok)
        .map(|e| e.path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            Some((
                name.strip_suffix(cqlmodel::model::EXTENSION)?.to_string(),
                p,
            ))
        })
        .collect();
    out.sort();
    assert!(!out.is_empty(), "no sample projects");
    out
}

/// The real binary run with `args` in `dir`.
pub fn run_cqlmodel(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("cqlmodel runs")
}

/// The real binary run with `args` in the crate's folder: its exit code,
/// stdout and stderr (lossy UTF-8).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = run_cqlmodel(args, Path::new(env!("CARGO_MANIFEST_DIR")));
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The real-world schemas of `../shared/cql-corpus`, sorted by name.
pub fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/cql-corpus");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cql"))
        .collect();
    files.sort();
    files
}

/// Each keyspace of each corpus schema, a project of its own: the file,
/// its text, and the keyspace to import (`None` when the file holds one).
pub fn corpus_keyspaces() -> Vec<(PathBuf, String, Option<String>)> {
    let mut out = Vec::new();
    for f in corpus_files() {
        let text = std::fs::read_to_string(&f).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let names: Vec<String> = cqlmodel::lifecycle::import::parse(&text)
            .keyspaces
            .iter()
            .map(|k| k.name.clone())
            .collect();
        if names.len() > 1 {
            out.extend(
                names
                    .into_iter()
                    .map(|k| (f.clone(), text.clone(), Some(k))),
            );
        } else {
            out.push((f, text, None));
        }
    }
    out
}

/// One sample project by file name; a missing sample fails the test.
pub fn sample(name: &str) -> cqlmodel::model::Project {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-projects")
        .join(name);
    cqlmodel::model::load::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// Keys and screens through the workbench's real event entry point.
#[allow(unused_imports)]
pub use cqlmodel::tui::testing::{key, screen};
