//! Golden semantic diffs and migrations for hand-made model changes (add a
//! query, change an order, add a bucket, rename an entity, change a key),
//! each checked both ways; migrations pass cqlcheck.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::derive::{derive, Role};
use cqlmodel::edit::Item;
use cqlmodel::lifecycle::diff::semantic::{self, Impact};
use cqlmodel::model::{load, Dir, ExtraKind, Project};
use cqlmodel::tui::action::{apply_edit, Edit};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

fn sample(name: &str) -> Project {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("sample-projects")
        .join(format!("{name}.cqlm.ron"));
    load::read(&path).expect("sample loads")
}

/// (name, old, new) for each hand-made change.
fn changes() -> Vec<(&'static str, Project, Project)> {
    let hotel = sample("hotel");
    let mut out = Vec::new();

    let mut without_q5 = hotel.clone();
    without_q5.queries.retain(|q| q.id != "Q5");
    without_q5
        .workflow
        .transitions
        .retain(|t| t.to != "Q5" && t.from != "Q5");
    without_q5.workflow.entry.retain(|e| e != "Q5");
    without_q5.decisions.retain(|d| d.query != "Q5");
    out.push(("add_query", without_q5, hotel.clone()));

    let mut flipped = hotel.clone();
    let q7 = flipped
        .queries
        .iter_mut()
        .find(|q| q.id == "Q7")
        .expect("Q7");
    q7.order[0].dir = Dir::Desc;
    out.push(("change_order", hotel.clone(), flipped));

    let logs = sample("logs");
    let mut unbucketed = logs.clone();
    for d in &mut unbucketed.decisions {
        d.partition_extra
            .retain(|x| !matches!(x.kind, ExtraKind::Bucket { .. }));
    }
    out.push(("add_bucket", unbucketed, logs));

    let mut renamed = hotel.clone();
    apply_edit(&mut renamed, &Edit::Rename(Item::Entity(0), "Inn".into())).expect("rename");
    out.push(("rename_entity", hotel.clone(), renamed));

    let mut indexed = hotel.clone();
    indexed.decision_mut("Q1").indexes.push("phone".into());
    out.push(("add_index", hotel.clone(), indexed));

    let mut promoted = hotel.clone();
    let m = derive(&hotel);
    let t = m
        .tables
        .iter()
        .find(|t| t.queries.iter().any(|q| q == "Q7"))
        .expect("Q7's table");
    let first = t
        .columns
        .iter()
        .find(|c| matches!(c.role, Role::Clustering(_)))
        .expect("clustering column");
    promoted
        .decision_mut("Q7")
        .promote
        .push(first.name.to_string());
    out.push(("change_key", hotel, promoted));

    // The physical schema: a table's own retention (its TTL and window),
    // a designer's compaction, a TTL switched off (options back to their
    // defaults), the keyspace's replication and its name.
    let weather = sample("weather");
    let mut longer = weather.clone();
    longer.decision_mut("Q3").options.retention =
        Some(cqlmodel::model::physical::Span::parse("1m").expect("span"));
    out.push(("table_retention", weather.clone(), longer));
    let mut leveled = weather.clone();
    leveled.decision_mut("Q2").options.compaction = Some(cqlmodel::model::physical::Compaction {
        strategy: cqlmodel::model::physical::Strategy::Leveled,
        options: std::collections::BTreeMap::new(),
    });
    out.push(("table_compaction", weather.clone(), leveled));
    let mut kept = weather.clone();
    kept.decision_mut("Q2").options.ttl = Some(false);
    out.push(("table_ttl_off", weather.clone(), kept));
    let mut two_dcs = weather.clone();
    two_dcs.keyspace.replication = cqlmodel::model::Replication::NetworkTopology(
        [("dc1".into(), 3), ("dc2".into(), 3)].into(),
    );
    out.push(("keyspace_replication", weather.clone(), two_dcs));
    let mut moved = weather.clone();
    moved.keyspace.name = "weather2".into();
    out.push(("keyspace_rename", weather, moved));
    out
}

#[test]
fn golden_diffs_both_ways() {
    let mut all = String::new();
    for (name, old, new) in changes() {
        let fwd = semantic::semantic(&old, &new);
        let back = semantic::semantic(&new, &old);
        assert!(!fwd.is_empty(), "{name}");
        assert!(!back.is_empty(), "{name}");
        // What one way adds, the other removes.
        assert_eq!(fwd.findings_added, back.findings_resolved, "{name}");
        assert_eq!(fwd.items.len(), back.items.len(), "{name}");
        assert_eq!(
            fwd.tables.len(),
            back.tables.len(),
            "{name}: {fwd:?} / {back:?}"
        );
        let _ = write!(
            all,
            "## {name}\n{}\n## {name} (reversed)\n{}\n",
            semantic::text(&fwd),
            semantic::text(&back)
        );
        let impacts = |d: &semantic::SemanticDiff| -> Vec<Impact> {
            d.tables.iter().map(|t| t.impact).collect()
        };
        match name {
            "add_query" => {
                assert_eq!(impacts(&fwd), vec![Impact::Compatible]);
                assert_eq!(impacts(&back), vec![Impact::Destructive]);
                assert!(!fwd.is_breaking() && back.is_breaking());
            }
            "add_index" => {
                assert_eq!(impacts(&fwd), vec![Impact::Compatible]);
                assert!(!fwd.is_breaking() && !back.is_breaking());
            }
            "change_order" | "add_bucket" | "change_key" => {
                assert!(fwd.is_breaking() && back.is_breaking(), "{name}");
                assert!(impacts(&fwd).contains(&Impact::NeedsBackfill), "{name}");
            }
            _ => {}
        }
    }
    insta::assert_snapshot!("golden_diffs", all);
}

#[test]
fn identical_projects_have_no_diff() {
    let p = sample("hotel");
    let d = semantic::semantic(&p, &p);
    assert!(d.is_empty());
    assert_eq!(semantic::text(&d), "no semantic changes\n");
}

fn cqlcheck(file: &std::path::Path) -> Option<(bool, String)> {
    let tool = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/cqlcheck/cqlcheck");
    if std::env::var("CQLMODEL_SKIP_CQLCHECK").is_ok_and(|v| v == "1") {
        return None;
    }
    let out = Command::new(&tool).arg(file).output().unwrap_or_else(|e| {
        panic!(
            "{} is needed (CQLMODEL_SKIP_CQLCHECK=1 skips): {e}",
            tool.display()
        )
    });
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some((out.status.success(), text))
}

#[test]
fn migrations_pass_cqlcheck_both_ways() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut all = String::new();
    for (name, old, new) in changes() {
        for (way, a, b) in [("fwd", &old, &new), ("back", &new, &old)] {
            let script = cqlmodel::lifecycle::migrate::script(a, b);
            if way == "fwd" {
                let _ = write!(all, "## {name}\n{script}\n");
            }
            let file = dir.path().join(format!("{name}-{way}.cql"));
            std::fs::write(&file, &script).expect("write");
            if let Some((ok, text)) = cqlcheck(&file) {
                assert!(ok, "{name} {way}: {text}\n{script}");
            }
        }
    }
    insta::assert_snapshot!("golden_migrations", all);
}

#[test]
fn cli_diff_exits_1_on_breaking_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, old, new) = changes().remove(0);
    let a = dir.path().join("old.cqlm.ron");
    let b = dir.path().join("new.cqlm.ron");
    std::fs::write(&a, load::to_string(&old)).expect("write");
    std::fs::write(&b, load::to_string(&new)).expect("write");
    let run = |x: &PathBuf, y: &PathBuf, fmt: &str| {
        Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
            .args(["diff", "--format", fmt])
            .arg(x)
            .arg(y)
            .output()
            .expect("runs")
    };
    let fwd = run(&a, &b, "text");
    assert_eq!(fwd.status.code(), Some(0), "{fwd:?}");
    assert!(String::from_utf8_lossy(&fwd.stdout).contains("query Q5: added"));
    let back = run(&b, &a, "json");
    assert_eq!(back.status.code(), Some(1), "{back:?}");
    let v: serde_json::Value = serde_json::from_slice(&back.stdout).expect("json");
    assert_eq!(v["breaking"], true);
    let md = run(&b, &a, "md");
    assert!(String::from_utf8_lossy(&md.stdout).contains("| `amenities_by_room` |"));
}

#[test]
fn cli_diff_against_a_git_revision_and_dev_null() {
    let dir = tempfile::tempdir().expect("temp dir");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q"]);
    let (_, old, new) = changes().remove(0);
    let file = dir.path().join("model.cqlm.ron");
    std::fs::write(&file, load::to_string(&old)).expect("write");
    git(&["add", "model.cqlm.ron"]);
    git(&["commit", "-qm", "old"]);
    std::fs::write(&file, load::to_string(&new)).expect("write");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("runs")
    };
    let out = run(&["diff", "--git", "HEAD", "model.cqlm.ron"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("query Q5: added"));
    let out = run(&["diff", "--git", "HEAD:model.cqlm.ron"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("query Q5: added"),
        "{out:?}"
    );
    let out = run(&["diff", "model.cqlm.ron", "/dev/null"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "deleting every table breaks: {out:?}"
    );
    let out = run(&["diff", "--git", "NOPE", "model.cqlm.ron"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}
