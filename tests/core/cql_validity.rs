//! Schemas Cassandra refuses are errors in `check`, with their rule, and
//! the workbench refuses the edit that would create one: duration in a
//! key, in a set or as a map key, counters nested in a collection or
//! tuple, a `served_by` merge that mixes counters with other columns. A
//! query with no equality search is a full-scan finding.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::model::{load, CqlType, Project, UserType};
use cqlmodel::review::diagnose::{Diagnostic, Severity, INVALID_CQL, RULES};
use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;

const LIKES: &str = include_str!("../../sample-projects/likes.cqlm.ron");

fn project(types: &str, attr_ty: &str, key: &str) -> Project {
    let text = format!(
        r#"Project(
    format: 1,
    name: "T",
    keyspace: Keyspace(name: "t", replication: Simple(1)),
    types: [{types}],
    entities: [
        Entity(
            name: "Job",
            key: ["{key}"],
            attributes: [
                Attribute(name: "job_id", type: "uuid"),
                Attribute(name: "spent", type: "{attr_ty}"),
            ],
        ),
    ],
    queries: [
        Query(id: "Q1", text: "A job", rows: "Job", equality: ["{key}"], returns: ["job_id", "spent"]),
    ],
)"#
    );
    load::from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn errors(p: &Project, rule: &str) -> Vec<Diagnostic> {
    analyze(p)
        .diagnostics
        .into_iter()
        .filter(|d| d.rule == rule)
        .collect()
}

fn fires(p: &Project, rule: &str) -> Diagnostic {
    let found = errors(p, rule);
    assert_eq!(found.len(), 1, "{rule}: {:#?}", analyze(p).diagnostics);
    let d = found.into_iter().next().expect("one");
    assert_eq!(d.severity, Severity::Error, "{d:?}");
    d
}

#[test]
fn every_new_rule_is_documented() {
    for id in INVALID_CQL.iter().chain(&["full-scan"]) {
        assert!(RULES.iter().any(|r| r.id == *id), "{id} not in RULES");
    }
}

#[test]
fn duration_in_a_primary_key_is_an_error() {
    let d = fires(&project("", "duration", "spent"), "duration-key");
    assert!(d.message().contains("duration"), "{}", d.message());
    assert!(errors(&project("", "duration", "job_id"), "duration-key").is_empty());
}

#[test]
fn a_udt_holding_a_duration_cannot_be_a_key() {
    let span = r#"UserType(name: "span", fields: [Field(name: "d", type: "duration")])"#;
    fires(&project(span, "span", "spent"), "duration-key");
    assert!(errors(&project(span, "span", "job_id"), "duration-key").is_empty());
}

#[test]
fn durations_in_sets_and_map_keys_are_errors() {
    for ty in [
        "set<duration>",
        "map<duration, int>",
        "list<frozen<set<duration>>>",
    ] {
        fires(&project("", ty, "job_id"), "duration-in-set");
    }
    for ty in ["list<duration>", "map<int, duration>"] {
        assert!(errors(&project("", ty, "job_id"), "duration-in-set").is_empty());
    }
    // In a UDT field too, even when no table uses the type: CREATE TYPE
    // is exported all the same.
    let bad = r#"UserType(name: "spans", fields: [Field(name: "d", type: "set<duration>")])"#;
    fires(&project(bad, "int", "job_id"), "duration-in-set");
}

#[test]
fn counters_nested_in_collections_and_tuples_are_errors() {
    for ty in ["list<counter>", "map<text, counter>", "tuple<int, counter>"] {
        let d = fires(&project("", ty, "job_id"), "counter-nested");
        assert!(d.message().contains("counter"), "{}", d.message());
    }
}

#[test]
fn counters_in_user_types_are_refused_at_load() {
    let mut p = project("", "int", "job_id");
    p.types.push(UserType {
        name: "c".into(),
        fields: vec![cqlmodel::model::Field {
            name: "n".into(),
            ty: CqlType::Native(cqlmodel::model::Native::Counter),
        }],
    });
    assert!(load::validate(&p)
        .iter()
        .any(|e| e.message.contains("counter")));
}

/// The likes sample with Q4 (item details) merged into Q3's counter table.
fn likes_merged() -> Project {
    let mut p = load::from_str(LIKES).expect("likes loads");
    p.decision_mut("Q4").served_by = Some("Q3".into());
    p
}

#[test]
fn a_merge_into_a_counter_table_is_an_error() {
    let d = fires(&likes_merged(), "counter-merge");
    assert!(d.message().contains("like_counts"), "{}", d.message());
    assert!(d.message().contains("Q4"), "{}", d.message());
    let sample = load::from_str(LIKES).expect("likes loads");
    assert!(
        analyze(&sample)
            .diagnostics
            .iter()
            .all(|d| d.severity != Severity::Error),
        "the likes sample stays valid"
    );
}

#[test]
fn the_workbench_refuses_an_edit_that_makes_the_cql_invalid() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dirs = Dirs {
        config: Some(tmp.path().join("config")),
        data: Some(tmp.path().join("data")),
    };
    let sample = load::from_str(LIKES).expect("likes loads");
    let mut app = App::new(sample.clone(), None, dirs);
    let accepted = app.apply("Serve Q4 from Q3's table", |p| {
        p.decision_mut("Q4").served_by = Some("Q3".into());
        Ok(())
    });
    assert!(!accepted);
    assert_eq!(app.project, sample, "the project is unchanged");
    let status = app
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(status.contains("refused"), "{status}");
    assert!(status.contains("counter-merge"), "{status}");

    // An attribute edit to a set of durations is refused the same way.
    let accepted = app.apply("Change the type", |p| {
        let item = p
            .entities
            .iter_mut()
            .find(|e| e.name == "User")
            .expect("User");
        item.attributes[1].ty = "set<duration>".parse().expect("type");
        Ok(())
    });
    assert!(!accepted);
    // A harmless edit still goes through.
    assert!(app.apply("Rename", |p| {
        p.queries[3].text = "Item details, all of them".into();
        Ok(())
    }));
}

#[test]
fn a_query_without_equality_is_a_full_scan_finding() {
    let mut p = load::from_str(LIKES).expect("likes loads");
    let q = p.queries.iter_mut().find(|q| q.id == "Q4").expect("Q4");
    q.equality.clear();
    let a = analyze(&p);
    let hits: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.rule == "full-scan")
        .collect();
    assert_eq!(hits.len(), 1, "{:#?}", a.diagnostics);
    assert_eq!(hits[0].severity, Severity::Warning);
    assert!(hits[0].message().contains("Q4"));
    let sample = load::from_str(LIKES).expect("likes loads");
    assert!(analyze(&sample)
        .diagnostics
        .iter()
        .all(|d| d.rule != "full-scan"));
}
