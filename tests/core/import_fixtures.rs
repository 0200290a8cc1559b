//! Hand-written DESCRIBE output with every construct the importer reads
//! (replication per data center, UDTs, composite partition keys,
//! clustering order, static columns, collections, frozen types, counters,
//! secondary indexes on values and map keys, a materialized view, quoted
//! names, TTL and comment), the CLI, and a fuzz test: import never panics.

use cqlmodel::analysis::analyze;
use cqlmodel::derive::Role;
use cqlmodel::lifecycle::import::{import, Level};
use cqlmodel::model::{load, Dir, Replication, Target};
use proptest::prelude::*;
use std::process::Command;

const ALL: &str = include_str!("../fixtures/describe-all.cql");

#[test]
fn every_construct_is_imported() {
    let i = import(ALL);
    let p = &i.project;
    assert!(load::validate(p).is_empty(), "{:?}", load::validate(p));
    match &p.keyspace.replication {
        Replication::NetworkTopology(dcs) => {
            assert_eq!(dcs.get("dc1"), Some(&3));
            assert_eq!(dcs.get("dc2"), Some(&2));
        }
        Replication::Simple(n) => panic!("SimpleStrategy {n}"),
    }
    assert_eq!(p.types.len(), 1);
    let names: Vec<&str> = i.schema.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "orders_by_customer",
            "page_views",
            "carts",
            "Product",
            "orders_by_total"
        ]
    );
    let messages: Vec<String> = i
        .messages
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert_eq!(
        messages,
        vec![
            "62:1: ignored: INSERT statement (not schema)".to_string(),
            "63:1: ignored: CREATE FUNCTION (not schema)".to_string(),
            "54:1: warning: materialized view orders_by_total of orders_by_customer: kept as a view; views are experimental and disabled by default since Cassandra 4.0 (materialized_views_enabled)".to_string(),
        ]
    );
    let a = analyze(p);
    let t = |n: &str| {
        a.model
            .tables
            .iter()
            .find(|t| t.name == n)
            .unwrap_or_else(|| panic!("{n} re-derived"))
    };
    let orders = t("orders_by_customer");
    let key: Vec<(&str, Role)> = orders
        .columns
        .iter()
        .filter(|c| c.role.is_key())
        .map(|c| (c.name.as_str(), c.role))
        .collect();
    assert_eq!(
        key,
        [
            ("customer_id", Role::Partition),
            ("order_day", Role::Partition),
            ("order_id", Role::Clustering(Dir::Desc))
        ]
    );
    assert_eq!(orders.ttl_seconds, Some(2_592_000));
    let mut idx = orders.indexes.clone();
    idx.sort();
    assert_eq!(idx, ["attrs", "total"]);
    assert!(t("page_views").is_counter_table());
    assert_eq!(
        t("carts").column("owner").map(|c| c.role),
        Some(Role::Static)
    );
    // Quoted names keep their case and spaces as column names.
    assert!(t("Product").column("Display Name").is_some());
    // The view is a view of its base table, not a table of its own.
    assert!(a.model.tables.iter().all(|t| t.name != "orders_by_total"));
    let view = &t("orders_by_customer").physical.options.views[0];
    assert_eq!(view.name, "orders_by_total");
    assert_eq!(view.partition, ["total"]);
    assert!(p
        .notes
        .iter()
        .any(|n| n.target == Target::Table("orders_by_customer".into())
            && n.text == "Orders of a customer on a day, newest first"));
    let cql = cqlmodel::output::cql::script(p, &a.model);
    assert!(
        cql.contains("history       frozen<list<frozen<address>>>")
            || cql.contains("frozen<list<frozen<address>>>"),
        "{cql}"
    );
}

#[test]
fn cli_import_writes_a_project_and_reports_with_positions() {
    let dir = tempfile::tempdir().expect("tempdir");
    let schema = dir.path().join("schema.cql");
    std::fs::write(&schema, ALL).expect("write");
    let out = dir.path().join("shop.cqlm.ron");
    let run = |extra: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
            .arg("import")
            .arg(&schema)
            .arg("-o")
            .arg(&out)
            .args(extra)
            .output()
            .expect("runs")
    };
    let first = run(&[]);
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let stderr = String::from_utf8_lossy(&first.stderr);
    assert!(
        stderr.contains("schema.cql:62:1: ignored: INSERT"),
        "{stderr}"
    );
    // Views are counted apart from tables.
    assert!(
        stderr.contains("imported 4 table(s), 1 materialized view(s), 1 type(s)"),
        "{stderr}"
    );
    let p = load::read(&out).expect("the written project loads");
    assert_eq!(p.keyspace.name, "shop");
    let again = run(&[]);
    assert_eq!(again.status.code(), Some(2), "refuses to overwrite");
    assert_eq!(run(&["--force"]).status.code(), Some(0));
    let cql = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .arg("cql")
        .arg(&out)
        .output()
        .expect("runs");
    assert!(
        String::from_utf8_lossy(&cql.stdout).contains("CREATE TABLE IF NOT EXISTS shop.carts (")
    );
}

#[test]
fn errors_carry_line_and_column() {
    let i = import(
        "CREATE TABLE t (\n  a int,\n  b int DEFAULT 1,\n  PRIMARY KEY (a)\n);\nCREATE TABLE 'x",
    );
    let m: Vec<String> = i
        .messages
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    assert_eq!(m, ["6:14: skipped: quoted string not closed"]);
    let i = import("CREATE TABLE t (\n  a int,\n  b int DEFAULT 1,\n  PRIMARY KEY (a)\n);");
    assert_eq!(i.messages[0].level, Level::Error);
    assert_eq!(i.messages[0].pos.line, 3);
    assert_eq!(i.messages[0].pos.col, 9);
}

/// Pieces of real schemas, to mutate into almost-valid input.
const PIECES: &[&str] = &[
    "CREATE",
    "TABLE",
    "KEYSPACE",
    "TYPE",
    "INDEX",
    "MATERIALIZED",
    "VIEW",
    "AS",
    "SELECT",
    "FROM",
    "WHERE",
    "IS",
    "NOT",
    "NULL",
    "PRIMARY",
    "KEY",
    "WITH",
    "AND",
    "CLUSTERING",
    "ORDER",
    "BY",
    "DESC",
    "STATIC",
    "frozen",
    "<",
    ">",
    "map",
    "list",
    "set",
    "text",
    "int",
    "counter",
    "(",
    ")",
    ",",
    ";",
    ".",
    "=",
    "{",
    "}",
    ":",
    "'x'",
    "\"Q\"",
    "ks",
    "t",
    "a",
    "b",
    "c",
    "1",
    "-1.5e3",
    "ON",
    "keys",
    "replication",
    "'class'",
    "'SimpleStrategy'",
    "'replication_factor'",
    "--",
    "/*",
    "*/",
    "\n",
    "$$",
    "USE",
    "IF",
    "EXISTS",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]
    #[test]
    fn import_never_panics_on_mutated_cql(
        words in proptest::collection::vec(0usize..PIECES.len(), 0..80),
        cut in 0usize..2000,
        junk in "\\PC{0,40}",
    ) {
        let text: String = words.iter().map(|&i| PIECES[i]).collect::<Vec<_>>().join(" ");
        let _ = import(&text);
        // Real schema text cut anywhere, with junk spliced in.
        let mut real = ALL.to_string();
        let at = (cut % real.len()).min(real.len());
        let at = (0..=at).rev().find(|i| real.is_char_boundary(*i)).unwrap_or(0);
        real.insert_str(at, &junk);
        let i = import(&real);
        prop_assert!(load::validate(&i.project).is_empty() || !i.messages.is_empty());
        let _ = import(&real[..at]);
    }
}

#[test]
fn cli_check_against_reports_drift() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model =
        std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-projects/hotel.cqlm.ron");
    let p = load::read(&model).expect("sample");
    let a = analyze(&p);
    let schema = dir.path().join("running.cql");
    let run = |schema_text: &str, fmt: &str| {
        std::fs::write(&schema, schema_text).expect("write");
        Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
            .arg("check")
            .arg(&model)
            .arg("--against")
            .arg(&schema)
            .args(["--format", fmt])
            .output()
            .expect("runs")
    };
    let cql = cqlmodel::output::cql::script(&p, &a.model);
    let same = run(&cql, "text");
    assert_eq!(same.status.code(), Some(0), "{same:?}");
    let text = String::from_utf8_lossy(&same.stdout);
    assert!(
        text.contains("Q1: answered directly by hotels_by_poi"),
        "{text}"
    );
    // The running schema lacks the amenities table and a column of another.
    let drifted = cql
        .replace(
            "CREATE TABLE IF NOT EXISTS hotel.amenities_by_room",
            "CREATE TABLE IF NOT EXISTS hotel.old_amenities",
        )
        .replace("    phone    text,\n", "");
    let out = run(&drifted, "json");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    let q1 = &v["queries"][0];
    assert_eq!(q1["answer"], "not_at_all", "{v}");
    assert!(
        q1["differences"][0]
            .as_str()
            .unwrap_or_default()
            .contains("column phone (text) is missing"),
        "{v}"
    );
    assert_eq!(out.status.code(), Some(1));
}

/// A quoted CQL identifier may hold anything, a project name may not: a
/// table whose column (or a type whose field) holds a control or
/// bidirectional character is skipped with an error naming it, and the
/// imported project loads.
#[test]
fn hostile_identifiers_are_skipped_and_the_project_loads() {
    let cql = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n\
        CREATE TABLE ks.fine (id int PRIMARY KEY, v text);\n\
        CREATE TABLE ks.t (id int PRIMARY KEY, \"col\u{202e}exe\" text);\n\
        CREATE TABLE ks.k (\"id\u{1b}[2J\" int PRIMARY KEY, v text);\n\
        CREATE TYPE ks.addr (\"street\u{2066}\" text);\n";
    let imported = import(cql);
    let problems = load::validate(&imported.project);
    assert!(problems.is_empty(), "{problems:?}");
    let mut errors: Vec<(usize, String)> = imported
        .messages
        .iter()
        .filter(|m| m.level == Level::Error)
        .map(|m| (m.pos.line, m.text.clone()))
        .collect();
    errors.sort();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert_eq!(errors[0].0, 3, "{errors:?}");
    assert!(errors[0].1.contains("U+202E"), "{errors:?}");
    assert_eq!(errors[1].0, 4, "{errors:?}");
    assert!(errors[1].1.contains("U+001B"), "{errors:?}");
    assert_eq!(errors[2].0, 5, "{errors:?}");
    assert!(errors[2].1.contains("U+2066"), "{errors:?}");
    // The table without a hostile name is imported.
    assert_eq!(
        imported.project.entities.len(),
        1,
        "{:?}",
        imported.project.entities
    );
}

/// What uses a skipped type is skipped with it (a type nesting it, a table
/// with a column of it), each with an error at its line: the project would
/// otherwise name a type it lacks and not load.
#[test]
fn what_uses_a_skipped_type_is_skipped_too() {
    let cql = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n\
        CREATE TYPE ks.addr (\"street\u{2066}\" text);\n\
        CREATE TYPE ks.person (name text, home frozen<addr>);\n\
        CREATE TABLE ks.people (id int PRIMARY KEY, who frozen<person>);\n\
        CREATE TABLE ks.fine (id int PRIMARY KEY, v text);\n";
    let imported = import(cql);
    let problems = load::validate(&imported.project);
    assert!(problems.is_empty(), "{problems:?}");
    let errors: Vec<(usize, String)> = imported
        .messages
        .iter()
        .filter(|m| m.level == Level::Error)
        .map(|m| (m.pos.line, m.text.clone()))
        .collect();
    assert_eq!(errors.len(), 3, "{errors:?}");
    assert!(
        errors
            .iter()
            .any(|(l, t)| *l == 3 && t.contains("type person: uses the type addr")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .any(|(l, t)| *l == 4 && t.contains("table people: a column uses the type person")),
        "{errors:?}"
    );
    assert!(
        imported.project.types.is_empty(),
        "{:?}",
        imported.project.types
    );
    assert_eq!(imported.project.entities.len(), 1);
}
