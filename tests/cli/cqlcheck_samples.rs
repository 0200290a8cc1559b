//! The exported CQL of every sample project passes cqlcheck, the offline
//! validator built on cqlsh's own grammar plus the server's schema rules
//! (../shared/tools/cqlcheck). A machine without the validator fails the
//! test unless `CQLMODEL_SKIP_CQLCHECK=1` says to skip it (tests/support).

use crate::support;

use cqlmodel::model::load;
use support::samples;

/// Queries that use ALLOW FILTERING on purpose, as (sample, query). None of
/// the bundled samples does: each query has a table that serves it.
const DOCUMENTED_FILTERING: &[(&str, &str)] = &[];

#[test]
fn exported_cql_of_every_sample_passes_cqlcheck() {
    let Some(tool) = support::cqlcheck() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    for (stem, path) in samples() {
        let project = load::read(&path).unwrap_or_else(|e| panic!("{stem}: {e}"));
        let model = cqlmodel::derive::derive(&project);
        let file = dir.path().join(format!("{stem}.cql"));
        std::fs::write(&file, cqlmodel::output::cql::script(&project, &model)).expect("write");
        if let Err(said) = support::cqlcheck_file(&tool, &file) {
            panic!("{stem}: cqlcheck refused the script\n{said}");
        }
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

        let script = cqlmodel::output::cql::script(&project, &model);
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
                    .any(|l| l.starts_with("--") && l.contains(plan.select.as_str())),
                "{stem} {}: SELECT missing from the script",
                plan.query
            );
        }
        // And the SELECTs alone are one per query.
        let selects = cqlmodel::output::cql::selects(&model);
        assert_eq!(
            selects.lines().filter(|l| l.starts_with("SELECT ")).count(),
            model.plans.iter().filter(|p| !p.select.is_empty()).count(),
            "{stem}"
        );
    }
}

/// The policy itself: a missing tool fails, the named variable skips.
#[test]
fn a_missing_tool_fails_unless_opted_out() {
    const VAR: &str = "CQLMODEL_SKIP_POLICY_SELFTEST";
    let missing = || -> Result<(), String> { Err("not installed".into()) };
    std::env::remove_var(VAR);
    let failed = std::panic::catch_unwind(|| support::require("tool", VAR, missing));
    let message = failed.expect_err("a missing tool must fail the test");
    let text = message
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_default();
    assert!(
        text.contains(VAR) && text.contains("not installed"),
        "{text}"
    );
    std::env::set_var(VAR, "0");
    assert!(std::panic::catch_unwind(|| support::require("tool", VAR, missing)).is_err());
    std::env::set_var(VAR, "1");
    assert_eq!(support::require("tool", VAR, missing), None);
    std::env::remove_var(VAR);
    assert_eq!(support::require("tool", VAR, || Ok(7)), Some(7));
}
