//! Materialized views stay views: import keeps each on its base table's
//! decision, the export writes it after its base table with the caveat,
//! `check --against` compares views, and `diff`/`migrate` add, drop and
//! rebuild them; every script replays to the new export.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::migrate_rows::{export, state, with_drops_done};
use crate::support;
use cqlmodel::analysis::analyze;
use cqlmodel::lifecycle::diff::semantic;
use cqlmodel::lifecycle::import::{against, import, parse, Level};
use cqlmodel::lifecycle::migrate;
use cqlmodel::model::{load, Dir, Project};

const SCHEMA: &str = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TABLE ks.users (id uuid PRIMARY KEY, email text, name text, age int);
CREATE MATERIALIZED VIEW ks.users_by_email AS SELECT id, email, name FROM ks.users WHERE email IS NOT NULL AND id IS NOT NULL PRIMARY KEY (email, id) WITH CLUSTERING ORDER BY (id DESC) AND comment = 'it''s by email' AND gc_grace_seconds = 3600;
";

fn imported(text: &str) -> Project {
    let i = import(text);
    assert!(
        i.messages.iter().all(|m| m.level != Level::Error),
        "{:?}",
        i.messages
    );
    assert!(load::validate(&i.project).is_empty());
    i.project
}

/// cqlcheck passes the file; its one warning is the views' caveat.
fn passes_cqlcheck(cql: &str) {
    let Some(tool) = support::cqlcheck() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let f = dir.path().join("views.cql");
    std::fs::write(&f, cql).expect("write");
    let out = std::process::Command::new(&tool)
        .arg(&f)
        .output()
        .expect("cqlcheck runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}\n{cql}");
    for line in stdout.lines().filter(|l| l.starts_with("WARN")) {
        assert!(
            line.contains("materialized views are experimental"),
            "{line}"
        );
    }
}

#[test]
fn a_view_imports_as_a_view_and_exports_after_its_base() {
    let i = import(SCHEMA);
    assert!(
        i.messages
            .iter()
            .any(|m| m.text.contains("users_by_email")
                && m.text.contains("materialized_views_enabled")),
        "{:?}",
        i.messages
    );
    let p = imported(SCHEMA);
    assert_eq!(p.queries.len(), 1, "the view is no table of its own");
    let d = p
        .decisions
        .iter()
        .find(|d| d.name.as_deref() == Some("users"))
        .expect("users' decision");
    let v = &d.options.views[0];
    assert_eq!(v.name, "users_by_email");
    assert_eq!(v.columns, ["id", "email", "name"]);
    assert_eq!(v.filter, "email is not null and id is not null");
    assert_eq!(v.partition, ["email"]);
    assert_eq!(v.clustering[0].column, "id");
    assert_eq!(v.clustering[0].dir, Dir::Desc);
    assert_eq!(v.options["gc_grace_seconds"], "3600");
    assert_eq!(v.options["comment"], "'it''s by email'");
    let cql = export(&p);
    let table_at = cql
        .find("CREATE TABLE IF NOT EXISTS ks.users")
        .expect("table");
    let view_at = cql
        .find("CREATE MATERIALIZED VIEW IF NOT EXISTS ks.users_by_email AS")
        .expect("view");
    assert!(table_at < view_at, "{cql}");
    for want in [
        "SELECT id, email, name FROM ks.users",
        "WHERE email is not null and id is not null",
        "PRIMARY KEY (email, id)",
        "WITH CLUSTERING ORDER BY (id DESC)",
        "AND gc_grace_seconds = 3600",
        "disabled by default since Cassandra 4.0",
    ] {
        assert!(cql.contains(want), "{want}\n{cql}");
    }
    passes_cqlcheck(&cql);
    // Import → export → import is the same schema.
    assert_eq!(state(&cql), state(&export(&imported(&cql))));
}

#[test]
fn check_against_compares_views() {
    let p = imported(SCHEMA);
    let a = analyze(&p);
    let same = against::drift(&p, &a, &parse(SCHEMA));
    assert!(same.views.is_empty(), "{:?}", same.views);
    assert!(same.unused_tables.is_empty(), "{:?}", same.unused_tables);
    assert!(same.queries.iter().all(|q| q.differences.is_empty()));
    // The live schema lost the view, then has it with another key.
    let without = SCHEMA.lines().take(2).collect::<Vec<_>>().join("\n");
    let d = against::drift(&p, &a, &parse(&without));
    assert_eq!(d.views, ["view users_by_email (over users) is missing"]);
    let other = SCHEMA.replace("WITH CLUSTERING ORDER BY (id DESC) AND", "WITH");
    let d = against::drift(&p, &a, &parse(&other));
    assert_eq!(d.views.len(), 1, "{:?}", d.views);
    assert!(
        d.views[0].contains("primary key or clustering order"),
        "{:?}",
        d.views
    );
    // A view the model lacks is listed too.
    let bare = imported(&without);
    let d = against::drift(&bare, &analyze(&bare), &parse(SCHEMA));
    assert_eq!(
        d.views,
        ["view users_by_email (over users) is in the schema but not in the model"]
    );
}

#[test]
fn diff_and_migrate_add_drop_and_rebuild_views() {
    let with = imported(SCHEMA);
    let without = imported(&SCHEMA.lines().take(2).collect::<Vec<_>>().join("\n"));
    let changed = imported(&SCHEMA.replace("WITH CLUSTERING ORDER BY (id DESC) AND", "WITH"));
    for (old, new, says, script_has) in [
        (
            &without,
            &with,
            "+ view users_by_email",
            "CREATE MATERIALIZED VIEW IF NOT EXISTS ks.users_by_email",
        ),
        (
            &with,
            &without,
            "- view users_by_email",
            "-- DROP MATERIALIZED VIEW IF EXISTS ks.users_by_email;",
        ),
        (
            &with,
            &changed,
            "view users_by_email rebuilt",
            "\nDROP MATERIALIZED VIEW IF EXISTS ks.users_by_email;",
        ),
    ] {
        let d = semantic::semantic(old, new);
        let text = semantic::text(&d);
        assert!(text.contains(says), "{says}\n{text}");
        let script = migrate::script(old, new);
        assert!(script.contains(script_has), "{script_has}\n{script}");
        let replayed = state(&format!("{}\n{}", export(old), with_drops_done(&script)));
        assert_eq!(replayed, state(&export(new)), "{script}");
        passes_cqlcheck(&format!("{}\n{script}", export(old)));
    }
}

/// A view the same on both sides is no change, whatever else of its table
/// changes: adding a column to the base table says so and nothing of the
/// view.
#[test]
fn an_unchanged_view_is_no_change() {
    let old = imported(SCHEMA);
    let new = imported(&SCHEMA.replace("age int);", "age int, city text);"));
    let text = semantic::text(&semantic::semantic(&old, &new));
    assert!(text.contains("city"), "{text}");
    assert!(!text.contains("users_by_email"), "{text}");
    let script = migrate::script(&old, &new);
    assert!(!script.contains("MATERIALIZED VIEW"), "{script}");
}

/// A WHERE clause edited into a statement of its own is refused by
/// validation and left out of the export.
#[test]
fn a_hostile_view_filter_is_refused() {
    let mut p = imported(SCHEMA);
    for d in &mut *p.decisions {
        for v in &mut d.options.views {
            v.filter = "id IS NOT NULL PRIMARY KEY (id); DROP TABLE ks.users; --".into();
        }
    }
    let problems = load::validate(&p);
    assert!(
        problems
            .iter()
            .any(|pr| pr.to_string().contains("views[0].where")),
        "{problems:?}"
    );
    let cql = export(&p);
    assert!(!cql.contains("DROP TABLE"), "{cql}");
    assert!(
        cql.contains("-- materialized view users_by_email left out"),
        "{cql}"
    );
}

/// The review notes each view's caveat, on its base table, and stays quiet
/// on a table without one.
#[test]
fn the_review_notes_the_views_caveat() {
    let with = imported(SCHEMA);
    let a = analyze(&with);
    let notes: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.rule == "materialized-view")
        .collect();
    assert_eq!(notes.len(), 1);
    assert!(
        notes[0].message().contains("users_by_email"),
        "{}",
        notes[0].message()
    );
    assert!(
        notes[0]
            .message()
            .contains("disabled by default since Cassandra 4.0"),
        "{}",
        notes[0].message()
    );
    let without = imported(&SCHEMA.lines().take(2).collect::<Vec<_>>().join("\n"));
    assert!(analyze(&without)
        .diagnostics
        .iter()
        .all(|d| d.rule != "materialized-view"));
}

/// A new table comes with its views: the script creates the table, then
/// each view after it, and replaying it gives the new schema.
#[test]
fn a_new_table_is_created_with_its_views() {
    let old = imported(SCHEMA);
    let more = format!(
        "{SCHEMA}CREATE TABLE ks.posts (id uuid PRIMARY KEY, author text, title text);
CREATE MATERIALIZED VIEW ks.posts_by_author AS SELECT id, author, title FROM ks.posts WHERE author IS NOT NULL AND id IS NOT NULL PRIMARY KEY (author, id);
"
    );
    let new = imported(&more);
    let script = migrate::script(&old, &new);
    let table = script
        .find("CREATE TABLE IF NOT EXISTS ks.posts")
        .unwrap_or_else(|| panic!("{script}"));
    let view = script
        .find("CREATE MATERIALIZED VIEW IF NOT EXISTS ks.posts_by_author")
        .unwrap_or_else(|| panic!("{script}"));
    assert!(table < view, "{script}");
    let replayed = state(&format!("{}\n{}", export(&old), with_drops_done(&script)));
    assert_eq!(replayed, state(&export(&new)), "{script}");
    passes_cqlcheck(&format!("{}\n{script}", export(&old)));
}
