//! A schema kept as a migration log imports as its last state: `ALTER`
//! and `DROP` statements are replayed in order, as Cassandra applies them,
//! and statements Cassandra refuses are reported with their line and
//! column.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::support;
use cqlmodel::lifecycle::import::{import, parse, Level};
use cqlmodel::model::Dir;

const LOG: &str = "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TYPE app.address (street text, city text);
CREATE TABLE app.events (day date, ts timestamp, kind text, old_note text, PRIMARY KEY ((day), ts)) WITH CLUSTERING ORDER BY (ts DESC);
CREATE INDEX events_kind_idx ON app.events (kind);
ALTER TABLE app.events ADD payload text;
ALTER TABLE app.events ADD (source text, home frozen<address>);
ALTER TABLE app.events DROP old_note;
ALTER TABLE app.events RENAME ts TO event_time;
DROP INDEX app.events_kind_idx;
ALTER TABLE app.events WITH default_time_to_live = 86400 AND gc_grace_seconds = 3600;
ALTER TYPE app.address ADD zip text;
ALTER TYPE app.address RENAME street TO line1;
CREATE TABLE app.scratch (id uuid PRIMARY KEY);
DROP TABLE app.scratch;
ALTER KEYSPACE app WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3};
";

#[test]
fn a_migration_log_imports_as_its_last_state() {
    let s = parse(LOG);
    let errors: Vec<_> = s
        .messages
        .iter()
        .filter(|m| m.level == Level::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(s.tables.len(), 1, "the dropped table is gone");
    let t = &s.tables[0];
    let names: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(
        names,
        ["day", "event_time", "kind", "payload", "source", "home"]
    );
    assert_eq!(t.clustering, vec![("event_time".to_string(), Dir::Desc)]);
    assert!(t.indexes.is_empty(), "the index was dropped");
    assert_eq!(t.ttl, Some(86_400));
    assert_eq!(t.options.gc_grace.map(|g| g.whole_seconds()), Some(3_600));
    let ty = &s.types[0];
    let fields: Vec<&str> = ty.fields.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(fields, ["line1", "city", "zip"]);
    assert!(matches!(
        s.keyspaces[0].replication,
        cqlmodel::model::Replication::NetworkTopology(_)
    ));
    // And the project made of it says the same.
    let p = import(LOG).project;
    assert!(cqlmodel::model::load::validate(&p).is_empty());
    let a = cqlmodel::analysis::analyze(&p);
    let events = a.model.table("events").expect("events");
    assert!(events.column("event_time").is_some());
    assert!(events.column("old_note").is_none());
    assert!(events.indexes.is_empty());
}

/// What Cassandra refuses is an error at its position, and the statement
/// leaves the schema as it was.
#[test]
fn refused_alters_are_errors_with_their_position() {
    for (statement, says) in [
        ("ALTER TABLE app.t DROP id;", "primary key column"),
        ("ALTER TABLE app.t RENAME v TO w;", "renames only"),
        ("ALTER TABLE app.t ALTER v TYPE int;", "not supported"),
        ("ALTER TABLE app.nope ADD x int;", "unknown table"),
        ("DROP INDEX app.missing_idx;", "unknown index"),
    ] {
        let text = format!(
            "CREATE KEYSPACE app WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}};\n\
             CREATE TABLE app.t (id uuid PRIMARY KEY, v text);\n{statement}\n"
        );
        let s = parse(&text);
        let e = s
            .messages
            .iter()
            .find(|m| m.level == Level::Error)
            .unwrap_or_else(|| panic!("{statement}: no error"));
        assert!(e.text.contains(says), "{statement}: {e}");
        assert_eq!(e.pos.line, 3, "{statement}: {e}");
        let t = s.table("t").expect("t");
        assert_eq!(t.columns.len(), 2, "{statement} left t as it was");
    }
    // IF EXISTS makes a missing target fine.
    let s = parse("CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nDROP TABLE IF EXISTS app.gone;\nDROP INDEX IF EXISTS app.gone_idx;\n");
    assert!(
        s.messages.iter().all(|m| m.level != Level::Error),
        "{:?}",
        s.messages
    );
}

/// Two keyspaces, each with a table `events`: each imports on its own
/// (the first by default, the other by name), neither is dropped as
/// defined twice, and statements address the keyspace they name.
#[test]
fn each_keyspace_imports_on_its_own() {
    use cqlmodel::lifecycle::import::import_keyspace;
    let text =
        "CREATE KEYSPACE a WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE KEYSPACE b WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3};
CREATE TABLE a.events (id uuid PRIMARY KEY, v text);
CREATE TABLE b.events (id uuid PRIMARY KEY, w int);
ALTER TABLE b.events ADD x int;
USE a;
ALTER TABLE events ADD y text;
";
    let s = parse(text);
    assert!(
        s.messages.iter().all(|m| m.level != Level::Error),
        "{:?}",
        s.messages
    );
    assert_eq!(s.tables.len(), 2);
    let first = import_keyspace(text, None);
    assert_eq!(first.project.keyspace.name, "a");
    let t = &first.schema.tables;
    assert_eq!(t.len(), 1);
    let cols: Vec<&str> = t[0].columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(cols, ["id", "v", "y"]);
    assert!(
        first
            .messages
            .iter()
            .any(|m| m.text.contains("--keyspace b")),
        "{:?}",
        first.messages
    );
    let second = import_keyspace(text, Some("b"));
    assert_eq!(second.project.keyspace.name, "b");
    let cols: Vec<&str> = second.schema.tables[0]
        .columns
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(cols, ["id", "w", "x"]);
    let none = import_keyspace(text, Some("c"));
    assert!(none
        .messages
        .iter()
        .any(|m| m.level == Level::Error && m.text.contains("no keyspace c")));
}

/// An unquoted reserved word is refused as a name, as Cassandra refuses
/// it; quoted, it is a name like any other.
#[test]
fn unquoted_reserved_words_are_refused() {
    let s = parse("CREATE TABLE ks.t (id int PRIMARY KEY, select text);");
    let e = s
        .messages
        .iter()
        .find(|m| m.level == Level::Error)
        .expect("an error");
    assert!(e.text.contains("select is a reserved word"), "{e}");
    assert_eq!((e.pos.line, e.pos.col), (1, 40), "{e}");
    assert!(s.tables.is_empty());
    let s = parse("CREATE TABLE ks.t (id int PRIMARY KEY, \"select\" text);");
    assert!(
        s.messages.iter().all(|m| m.level != Level::Error),
        "{:?}",
        s.messages
    );
    assert!(s.tables[0].column("select").is_some());
}

/// What Cassandra refuses is an error at its `line:col`, never "not
/// schema": a misspelt statement, a type with a field twice, a column of
/// an unknown type, a static column added to a table without clustering
/// columns. What is not schema (data, roles, functions) stays a note.
#[test]
fn refused_statements_are_errors_with_line_and_column() {
    let head = "CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n\
                CREATE TABLE app.t (id uuid PRIMARY KEY, v text);\n";
    for (statement, says, col) in [
        (
            "CREATE TABLEX app.u (id int PRIMARY KEY);",
            "CREATE TABLEX",
            1,
        ),
        ("CRATE TABLE app.u (id int PRIMARY KEY);", "CRATE", 1),
        (
            "CREATE TYPE app.pair (a text, a int);",
            "field a is defined twice",
            31,
        ),
        (
            "CREATE TABLE app.u (id int PRIMARY KEY, x nosuchtype);",
            "unknown type nosuchtype",
            43,
        ),
        (
            "CREATE TYPE app.box (inner nosuchtype);",
            "unknown type nosuchtype",
            28,
        ),
        (
            "ALTER TABLE app.t ADD w text static;",
            "static column w",
            23,
        ),
        (
            "ALTER TABLE app.t ADD x nosuchtype;",
            "unknown type nosuchtype",
            25,
        ),
    ] {
        let s = parse(&format!("{head}{statement}\n"));
        let e = s
            .messages
            .iter()
            .find(|m| m.level == Level::Error)
            .unwrap_or_else(|| panic!("{statement}: no error in {:?}", s.messages));
        assert!(e.text.contains(says), "{statement}: {e}");
        assert_eq!((e.pos.line, e.pos.col), (3, col), "{statement}: {e}");
        let t = s.table("t").expect("t");
        assert_eq!(t.columns.len(), 2, "{statement} left t as it was");
        assert!(s.table("u").is_none(), "{statement}");
        assert!(s.types.is_empty(), "{statement}");
    }
    for statement in [
        "INSERT INTO app.t (id, v) VALUES (uuid(), 'x');",
        "CREATE ROLE admin;",
        "CREATE FUNCTION app.f (a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return a;';",
        "GRANT SELECT ON app.t TO admin;",
        "BEGIN BATCH INSERT INTO app.t (id) VALUES (uuid()); APPLY BATCH;",
    ] {
        let s = parse(&format!("{head}{statement}\n"));
        assert!(
            s.messages.iter().all(|m| m.level != Level::Error),
            "{statement}: {:?}",
            s.messages
        );
    }
}

/// A UDT column written bare is not frozen in Cassandra: it comes back
/// bare from import and export, one written `frozen<…>` comes back frozen,
/// `check --against` the original finds nothing, and `diff` sees no change
/// between a bare UDT the export freezes and an explicit `frozen<…>`.
#[test]
fn non_frozen_udt_columns_stay_non_frozen() {
    use cqlmodel::lifecycle::diff::semantic;
    use cqlmodel::lifecycle::import::against;
    let text = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
CREATE TYPE ks.addr (street text, city text);
CREATE TABLE ks.users (id uuid PRIMARY KEY, home addr, work frozen<addr>, past set<frozen<addr>>);
";
    let imported = import(text);
    let p = &imported.project;
    assert!(cqlmodel::model::load::validate(p).is_empty());
    let a = cqlmodel::analysis::analyze(p);
    let users = a.model.table("users").expect("users");
    let cql = cqlmodel::output::cql::table(p, users);
    for want in [
        "home addr,",
        "work frozen<addr>,",
        "past set<frozen<addr>>,",
    ] {
        assert!(cql.contains(want), "{want}\n{cql}");
    }
    let drift = against::drift(p, &a, &parse(text));
    for q in &drift.queries {
        assert!(q.differences.is_empty(), "{q:?}");
    }
    // The same project with `home` frozen explicitly is a real change (a
    // column's type cannot be altered), and breaking.
    let mut frozen = p.clone();
    for d in &mut *frozen.decisions {
        d.options.non_frozen.clear();
    }
    let d = semantic::semantic(p, &frozen);
    assert!(d.is_breaking(), "{}", semantic::text(&d));
    assert!(
        semantic::text(&d).contains("home"),
        "{}",
        semantic::text(&d)
    );
    // A bare UDT the export freezes against an explicit frozen<…>: the
    // same schema, so no change at all.
    let mut explicit = frozen.clone();
    for e in &mut *explicit.entities {
        for at in e.attributes.iter_mut().filter(|at| at.name == "home") {
            at.ty = "frozen<addr>".parse().expect("type");
        }
    }
    let d = semantic::semantic(&frozen, &explicit);
    assert!(!d.is_breaking(), "{}", semantic::text(&d));
    assert!(d.tables.is_empty(), "{}", semantic::text(&d));
    if let Some(tool) = support::cqlcheck() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("udt.cql");
        let all = cqlmodel::output::cql::script(p, &a.model);
        std::fs::write(&f, &all).expect("write");
        support::cqlcheck_file(&tool, &f).unwrap_or_else(|e| panic!("{e}\n{all}"));
    }
}

/// A 10^5-deep type is refused with its first characters and its length,
/// not echoed whole (600,000 characters), by import and by the project
/// reader alike.
#[test]
fn a_deep_type_is_not_echoed_whole() {
    let depth = 100_000;
    let ty = format!("{}int{}", "list<".repeat(depth), ">".repeat(depth));
    let s = parse(&format!("CREATE TABLE ks.t (id int PRIMARY KEY, v {ty});"));
    let e = s
        .messages
        .iter()
        .find(|m| m.level == Level::Error)
        .expect("an error");
    assert!(e.text.len() < 200, "{} characters", e.text.len());
    assert!(e.text.contains("(600003 characters)"), "{}", e.text);
    let project = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/likes.cqlm.ron"),
    )
    .expect("sample")
    .replacen("type: \"uuid\"", &format!("type: \"{ty}\""), 1);
    let err = cqlmodel::model::load::from_str(&project)
        .expect_err("refused")
        .to_string();
    assert!(err.len() < 300, "{} characters", err.len());
    assert!(err.contains("(600003 characters)"), "{err}");
}

/// A column added to a base table reaches its `SELECT *` views, as
/// Cassandra carries it over; a view naming its columns stays as it was.
#[test]
fn an_added_column_reaches_select_star_views() {
    let s = parse(
        "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n\
         CREATE TABLE ks.users (id int PRIMARY KEY, email text);\n\
         CREATE MATERIALIZED VIEW ks.users_by_email AS SELECT * FROM ks.users\n\
           WHERE email IS NOT NULL AND id IS NOT NULL PRIMARY KEY (email, id);\n\
         CREATE MATERIALIZED VIEW ks.ids_by_email AS SELECT id, email FROM ks.users\n\
           WHERE email IS NOT NULL AND id IS NOT NULL PRIMARY KEY (email, id);\n\
         ALTER TABLE ks.users ADD nickname text;\n",
    );
    let cols = |name: &str| -> Vec<String> {
        let t = s.tables.iter().find(|t| t.name == name).expect(name);
        t.columns.iter().map(|c| c.name.clone()).collect()
    };
    assert!(
        cols("users_by_email").contains(&"nickname".to_string()),
        "{:?}",
        cols("users_by_email")
    );
    assert!(
        !cols("ids_by_email").contains(&"nickname".to_string()),
        "{:?}",
        cols("ids_by_email")
    );
}
