//! The exported CQL of every sample project passes cqlcheck, the offline
//! validator built on cqlsh's own grammar plus the server's schema rules
//! (../shared/tools/cqlcheck). Without CI set, a machine that cannot set
//! the validator up skips the check and says why; with CI=true it must run.

use cqlmodel::model::{load, EXTENSION};
use std::path::{Path, PathBuf};
use std::process::Command;

const CQLCHECK: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../shared/tools/cqlcheck/cqlcheck"
);

/// Queries that use ALLOW FILTERING on purpose, as (sample, query). None of
/// the bundled samples does: each query has a table that serves it.
const DOCUMENTED_FILTERING: &[(&str, &str)] = &[];

fn samples() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .expect("sample-projects/ is readable")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            Some((name.strip_suffix(EXTENSION)?.to_string(), p))
        })
        .collect();
    out.sort();
    assert!(!out.is_empty());
    out
}

fn in_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// The cqlcheck executable, set up on first use; `Err` says why it is not
/// available.
fn cqlcheck() -> Result<PathBuf, String> {
    let tool = PathBuf::from(CQLCHECK);
    if !tool.exists() {
        return Err(format!("{} does not exist", tool.display()));
    }
    let dir = tool.parent().expect("tool directory");
    if !dir.join(".venv/bin/python").exists() {
        let setup = dir.join("setup.sh");
        let out = Command::new("bash")
            .arg(&setup)
            .output()
            .map_err(|e| format!("cannot run {}: {e}", setup.display()))?;
        if !out.status.success() {
            return Err(format!(
                "{} failed: {}{}",
                setup.display(),
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            ));
        }
    }
    Ok(tool)
}

#[test]
fn exported_cql_of_every_sample_passes_cqlcheck() {
    let tool = match cqlcheck() {
        Ok(t) => t,
        Err(why) if !in_ci() => {
            eprintln!("skipping the cqlcheck test: {why}");
            return;
        }
        Err(why) => panic!("CI is set but cqlcheck is unavailable: {why}"),
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let mut files = Vec::new();
    for (stem, path) in samples() {
        let project = load::read(&path).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let model = cqlmodel::derive::derive(&project);
        let file = dir.path().join(format!("{stem}.cql"));
        std::fs::write(&file, cqlmodel::cql::script(&project, &model)).expect("write");
        files.push((stem, file));
    }
    for (stem, file) in &files {
        let out = Command::new(&tool)
            .arg(file)
            .output()
            .unwrap_or_else(|e| panic!("running {}: {e}", tool.display()));
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if out.status.code() == Some(2) && !in_ci() {
            // Exit 2 is a setup or usage problem, not a verdict on the CQL.
            eprintln!("skipping the cqlcheck test: {stderr}");
            return;
        }
        assert!(
            out.status.success(),
            "{stem}: cqlcheck failed\n{stdout}{stderr}"
        );
        assert!(stdout.starts_with("OK "), "{stem}: {stdout}");
        assert!(!stdout.contains("warning"), "{stem}: {stdout}");
    }
}

#[test]
fn selects_are_direct_and_only_in_comments() {
    for (stem, path) in samples() {
        let project = load::read(&path).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let model = cqlmodel::derive::derive(&project);
        let documented = |q: &str| {
            DOCUMENTED_FILTERING.contains(&(stem.as_str(), q))
                // devices-options compares the article's candidate keys,
                // some of which need ALLOW FILTERING by design.
                || stem.ends_with("-options")
        };
        for plan in &model.plans {
            if plan.select.contains("ALLOW FILTERING") {
                assert!(
                    documented(&plan.query),
                    "{stem} {}: {}",
                    plan.query,
                    plan.select
                );
            }
        }

        let script = cqlmodel::cql::script(&project, &model);
        for (n, line) in script.lines().enumerate() {
            let code = line.trim_start();
            if code.starts_with("--") {
                continue;
            }
            assert!(
                !code.contains("SELECT "),
                "{stem}: line {} of the schema script is a query: {line}",
                n + 1
            );
        }
        // Each served query's SELECT is in the script, as a comment.
        for plan in model.plans.iter().filter(|p| !p.select.is_empty()) {
            assert!(
                script
                    .lines()
                    .any(|l| l.starts_with("--") && l.contains(&plan.select)),
                "{stem} {}: SELECT missing from the script",
                plan.query
            );
        }
        // And the SELECTs alone are one per query.
        let selects = cqlmodel::cql::selects(&model);
        assert_eq!(
            selects.lines().filter(|l| l.starts_with("SELECT ")).count(),
            model.plans.iter().filter(|p| !p.select.is_empty()).count(),
            "{stem}"
        );
    }
}
