//! User types in the CQL export come after the types they use, however deep
//! the nesting (a type must exist before a type or table refers to it).
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::model::{load, Project};
use std::fmt::Write as _;

/// A chain of `n` types, each holding the next: t000 holds t001, …; the
/// names sort against the dependency order on purpose.
fn chain(n: usize) -> Project {
    let mut types = String::new();
    for i in 0..n {
        let next = if i + 1 < n {
            format!(", Field(name: \"inner\", type: \"t{:03}\")", i + 1)
        } else {
            String::new()
        };
        let _ = writeln!(
            types,
            "UserType(name: \"t{i:03}\", fields: [Field(name: \"v\", type: \"int\"){next}]),"
        );
    }
    let text = format!(
        r#"Project(
    format: 1,
    name: "Chain",
    keyspace: Keyspace(name: "chain", replication: Simple(1)),
    types: [{types}],
    entities: [
        Entity(
            name: "Thing",
            key: ["id"],
            attributes: [
                Attribute(name: "id", type: "int"),
                Attribute(name: "payload", type: "t000"),
            ],
        ),
    ],
    queries: [
        Query(id: "Q1", text: "A thing", rows: "Thing", equality: ["id"], returns: ["payload"]),
    ],
)"#
    );
    load::from_str(&text).unwrap_or_else(|e| panic!("{e}"))
}

fn assert_dependencies_first(p: &Project) {
    let order: Vec<&str> = cqlmodel::output::cql::types_in_order(p)
        .iter()
        .map(|t| t.name.as_str())
        .collect();
    assert_eq!(order.len(), p.types.len(), "every type once: {order:?}");
    // t(i+1) before t(i): the reverse of the names' order.
    let mut want: Vec<String> = p.types.iter().map(|t| t.name.clone()).collect();
    want.reverse();
    assert_eq!(order, want);
    let script = cqlmodel::output::cql::script(p, &cqlmodel::derive::derive(p));
    let mut last = 0;
    for name in &want {
        let at = script
            .find(&format!("CREATE TYPE IF NOT EXISTS chain.{name} ("))
            .unwrap_or_else(|| panic!("{name} missing"));
        assert!(at >= last, "{name} comes before a type it uses");
        last = at;
    }
}

#[test]
fn nested_types_come_after_what_they_use() {
    assert_dependencies_first(&chain(3));
}

/// Deeper than the cycle guard's old limit of 64 levels.
#[test]
fn a_deep_chain_of_types_keeps_its_order() {
    assert_dependencies_first(&chain(70));
}
