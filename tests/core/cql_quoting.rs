//! Names that need quoting — reserved words, mixed case, embedded quotes,
//! unicode — through every export path: keyspace objects, user
//! types (one nested in another), tables, indexes and SELECTs. The script
//! (with the SELECTs uncommented) must pass cqlcheck; without cqlcheck the
//! test fails unless `CQLMODEL_SKIP_CQLCHECK=1` (tests/support).
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::oracle;
use crate::support;

use cqlmodel::derive::derive;
use cqlmodel::model::load;

const PROJECT: &str = r#"
Project(
    format: 1,
    name: "Quoting",
    keyspace: Keyspace(name: "quoting", replication: Simple(1)),
    types: [
        UserType(
            name: "Address",
            fields: [
                Field(name: "Street", type: "text"),
                Field(name: "zone", type: "Zone"),
                Field(name: "from", type: "text"),
            ],
        ),
        UserType(
            name: "Zone",
            fields: [
                Field(name: "name", type: "text"),
                Field(name: "Level", type: "int"),
            ],
        ),
    ],
    entities: [
        Entity(
            name: "Order",
            key: ["order"],
            attributes: [
                Attribute(name: "order", type: "text", size: Some(8)),
                Attribute(name: "Total", type: "int"),
                Attribute(name: "it\"s", type: "text", size: Some(10)),
                Attribute(name: "café", type: "text", size: Some(10), distinct: Some(50)),
                Attribute(name: "ShipTo", type: "Address"),
                Attribute(name: "Tags", type: "frozen<list<text>>", elements: Some(3)),
                Attribute(name: "select", type: "int"),
            ],
            count: Some(1000),
        ),
        Entity(
            name: "LineItem",
            owner: Some("contains"),
            key: ["line"],
            attributes: [
                Attribute(name: "line", type: "int"),
                Attribute(name: "Key", type: "text", size: Some(4)),
                Attribute(name: "Qty", type: "int"),
            ],
        ),
    ],
    relationships: [
        Relationship(
            name: "contains",
            from: "Order",
            to: "LineItem",
            cardinality: OneToMany,
            to_per_from: Some(Count(avg: 5, max: Some(50))),
        ),
    ],
    queries: [
        Query(
            id: "Q1",
            text: "Orders of a café",
            rows: "Order",
            equality: ["café"],
            returns: ["order", "Total", "it\"s", "ShipTo"],
        ),
        Query(
            id: "Q2",
            text: "Lines of an order, last first",
            rows: "LineItem",
            equality: ["Order.order"],
            order: [Order(attr: "line", dir: Desc)],
            limit: Some(20),
            returns: ["Key", "Qty", "Order.Total"],
        ),
        Query(
            id: "Q3",
            text: "An order by its id",
            rows: "Order",
            equality: ["order"],
            returns: ["Tags", "select", "ShipTo"],
        ),
        Query(
            id: "Q4",
            text: "A café's orders that say it's theirs",
            rows: "Order",
            equality: ["café"],
            constants: [Constant(attr: "it\"s", value: "x' OR 'a'='a; DROP TABLE t; --")],
            returns: ["order", "Total"],
        ),
    ],
    workflow: Workflow(entry: ["Q1", "Q3"], transitions: [
        Transition(from: "Q1", to: "Q2", feeds: ["order"]),
    ]),
    decisions: [
        Decision(query: "Q1", name: Some("OrdersByCafe"), indexes: ["Total"]),
        Decision(query: "Q3", name: Some("order"), indexes: ["Tags"]),
    ],
)
"#;

/// CQL's reserved words among the names above (a short list written here
/// on purpose, not the workbench's).
const RESERVED_HERE: &[&str] = &["order", "select", "from", "key"];

/// How an identifier must be written, by CQL's rules: bare only when it is
/// lowercase ASCII letters, digits and `_`, starts with a letter and is not
/// reserved; otherwise in double quotes with embedded quotes doubled.
fn identifier(name: &str) -> String {
    let bare = name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
        && !RESERVED_HERE.contains(&name);
    if bare {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

fn project() -> cqlmodel::model::Project {
    let p = load::from_str(PROJECT).unwrap_or_else(|e| panic!("{e}"));
    let problems = load::validate(&p);
    assert!(problems.is_empty(), "{problems:?}");
    p
}

#[test]
fn every_name_is_quoted_where_cql_needs_it() {
    let p = project();
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    let script = cqlmodel::output::cql::script(&p, &m);

    // Types: a type after the type it uses (Zone before Address, although
    // Address sorts first), both names quoted (mixed case), fields too.
    let zone = script
        .find("CREATE TYPE IF NOT EXISTS quoting.\"Zone\" (")
        .unwrap_or_else(|| panic!("Zone type:\n{script}"));
    let address = script
        .find("CREATE TYPE IF NOT EXISTS quoting.\"Address\" (")
        .unwrap_or_else(|| panic!("Address type:\n{script}"));
    assert!(zone < address, "Address uses Zone, so Zone comes first");
    let order: Vec<&str> = cqlmodel::output::cql::types_in_order(&p)
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(order, ["Zone", "Address"]);
    for field in [
        "\"Street\"",
        "\"Level\"",
        "\"from\"",
        "zone",
        "frozen<\"Zone\">",
    ] {
        assert!(script.contains(field), "{field} missing:\n{script}");
    }

    // Tables: the pinned names, and every column, written as CQL needs.
    let mut names: Vec<&str> = m.tables.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    assert!(
        names.contains(&"OrdersByCafe") && names.contains(&"order"),
        "{names:?}"
    );
    for t in &m.tables {
        let head = format!(
            "CREATE TABLE IF NOT EXISTS quoting.{} (",
            identifier(&t.name)
        );
        let at = script
            .find(&head)
            .unwrap_or_else(|| panic!("{head} missing:\n{script}"));
        let body = &script[at..at + script[at..].find(';').expect("statement end")];
        for c in &t.columns {
            let line = format!("\n    {} ", identifier(&c.name));
            assert!(
                body.contains(&line),
                "{}: column {:?} as {line:?}:\n{body}",
                t.name,
                c.name
            );
        }
    }

    // Indexes: on the quoted column, a frozen collection indexed in full.
    assert!(
        script.contains("ON quoting.\"order\" (full(\"Tags\"));"),
        "{script}"
    );
    assert!(
        script.contains("ON quoting.\"OrdersByCafe\" (\"Total\");"),
        "{script}"
    );

    // A constant: the value is one string literal with its quotes doubled,
    // on the quoted column.
    let q4 = m.plan("Q4").expect("Q4 planned");
    assert!(
        q4.select
            .contains("\"it\"\"s\" = 'x'' OR ''a''=''a; DROP TABLE t; --'"),
        "{}",
        q4.select
    );

    // SELECTs: each parses back (quotes undone) to the table's own names.
    for plan in &m.plans {
        let t = &m.tables[plan.table.expect("a table")];
        let s = oracle::cassandra::parse(&plan.select)
            .unwrap_or_else(|e| panic!("{}: {e}: {}", plan.query, plan.select));
        assert_eq!(s.table, t.name, "{}", plan.select);
        for c in s.columns.iter().chain(s.conditions.iter().map(|(c, _)| c)) {
            assert!(
                t.column(c).is_some(),
                "{}: no column {c:?} in {}",
                plan.select,
                t.name
            );
        }
        assert!(!s.columns.is_empty());
        if let Err(why) = oracle::cassandra::judge(t, &s) {
            panic!("{}: {why}", plan.select);
        }
    }
}

#[test]
fn the_quoted_schema_and_selects_pass_cqlcheck() {
    let Some(tool) = support::cqlcheck() else {
        return;
    };
    let p = project();
    let m = derive(&p);
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("quoting.cql");
    // The SELECTs run after the schema, uncommented, so cqlcheck parses
    // them; cqlsh's grammar has no bind markers, so each `?` becomes a
    // literal (no name here holds a `?`).
    let selects = cqlmodel::output::cql::selects(&m).replace('?', "0");
    assert_eq!(selects.matches("SELECT ").count(), p.queries.len());
    let text = format!("{}\n{selects}", cqlmodel::output::cql::script(&p, &m));
    std::fs::write(&file, &text).expect("write");
    if let Err(said) = support::cqlcheck_file(&tool, &file) {
        panic!("cqlcheck refused the quoted names\n{said}\n{text}");
    }
}
