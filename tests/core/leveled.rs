//! The Leveled compaction proposal (issue 37.2) from the workload figures,
//! and the review rule against Leveled on a write-heavy table. Rates are
//! worked out by hand in the comments.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::{Origin, Table};
use cqlmodel::model::physical::{Compaction, Strategy};
use cqlmodel::model::workload::Load;
use cqlmodel::model::{load, Project};

/// Orders arrive at 8,640,000 a day (100 a second); `status` changes.
/// Q1 reads an order by id (its table holds `status` as a regular
/// column), Q3 the orders of a status (`status` is its partition key).
const ORDERS: &str = r#"Project(
    format: 1,
    name: "Orders",
    keyspace: Keyspace(name: "shop", replication: Simple(3)),
    entities: [
        Entity(
            name: "Order",
            key: ["order_id"],
            attributes: [
                Attribute(name: "order_id", type: "uuid"),
                Attribute(name: "status", type: "text", distinct: Some(10), mutable: true),
            ],
            count: Some(8640000),
            per: Some(Day),
        ),
    ],
    queries: [
        Query(id: "Q1", text: "An order", rows: "Order", equality: ["order_id"], returns: ["order_id", "status"]),
        Query(id: "Q3", text: "Orders by status", rows: "Order", equality: ["status"], returns: ["order_id"]),
    ],
)"#;

fn project() -> Project {
    load::from_str(ORDERS).unwrap_or_else(|e| panic!("{e}"))
}

fn set_load(p: &mut Project, q: usize, avg: f64) {
    let mut query = (*p.queries[q]).clone();
    query.load = Some(Load { avg, peak: None });
    p.queries[q] = query.into();
}

fn table<'a>(a: &'a Analysis, q: &str) -> &'a Table {
    a.model
        .table_of(q)
        .unwrap_or_else(|| panic!("no table for {q}"))
}

fn strategy(t: &Table) -> Option<Strategy> {
    t.physical
        .compaction
        .value
        .as_ref()
        .map(|c| c.strategy.clone())
}

fn findings(a: &Analysis, rule: &str) -> Vec<String> {
    a.diagnostics
        .iter()
        .filter(|d| d.rule == rule)
        .map(|d| d.message().to_string())
        .collect()
}

#[test]
fn without_a_stated_load_nothing_is_leveled() {
    let a = analyze(&project());
    for q in ["Q1", "Q3"] {
        assert_eq!(strategy(table(&a, q)), None, "{q}");
    }
}

/// Q1 at 300 reads/s on rows written 100 times a second whose status is
/// updated: read at least as often as written, so Leveled.
#[test]
fn updated_rows_read_at_least_as_often_as_written_are_leveled() {
    let mut p = project();
    set_load(&mut p, 0, 300.0);
    let a = analyze(&p);
    let t = table(&a, "Q1");
    assert_eq!(strategy(t), Some(Strategy::Leveled));
    assert_eq!(t.physical.compaction.origin, Origin::Derived);
    let why = &t.physical.compaction.why;
    assert!(why.contains("rows are updated (status)"), "{why}");
    assert!(
        why.contains("300.0 reads/s against 100.0 writes/s"),
        "{why}"
    );
    assert!(!why.contains("assumed"), "{why}");
    assert!(findings(&a, "lcs-write-heavy").is_empty());
    let cql = cqlmodel::output::cql::table(&p, t);
    assert!(
        cql.contains("'class': 'LeveledCompactionStrategy'"),
        "{cql}"
    );
}

/// Q3's rows are never updated there (status is its key): 999 reads/s
/// against 100 writes/s is under ten to one, so `SizeTiered`, saying why;
/// 1,000 reads/s is ten to one: Leveled.
#[test]
fn rows_only_written_once_are_leveled_from_ten_reads_a_write() {
    let mut p = project();
    set_load(&mut p, 1, 999.0);
    let a = analyze(&p);
    let t = table(&a, "Q3");
    assert_eq!(strategy(t), None);
    assert!(
        t.physical
            .compaction
            .why
            .contains("not read-heavy enough for Leveled"),
        "{}",
        t.physical.compaction.why
    );
    set_load(&mut p, 1, 1000.0);
    let a = analyze(&p);
    let t = table(&a, "Q3");
    assert_eq!(strategy(t), Some(Strategy::Leveled));
    assert!(t
        .physical
        .compaction
        .why
        .contains("read far more than written"));
}

/// Without a `per` rate the million orders are assumed to arrive over the
/// 365-day horizon (0.03 a second): 1 read/s is read-heavy, and the
/// reason says the writes were assumed.
#[test]
fn assumed_insert_rates_are_said_so() {
    let text = ORDERS.replace(
        "count: Some(8640000),\n            per: Some(Day),",
        "count: Some(1000000),",
    );
    let mut p = load::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    set_load(&mut p, 1, 1.0);
    let a = analyze(&p);
    let t = table(&a, "Q3");
    assert_eq!(strategy(t), Some(Strategy::Leveled));
    assert!(
        t.physical.compaction.why.contains("0.0 writes/s (assumed"),
        "{}",
        t.physical.compaction.why
    );
}

/// The designer's Leveled on Q1's table read once a second while written
/// 100 times: the rule fires; at 300 reads/s it stays quiet, and so it
/// does with no load stated.
#[test]
fn leveled_on_a_write_heavy_table_is_a_finding() {
    let mut p = project();
    p.decision_mut("Q1").options.compaction = Some(Compaction {
        strategy: Strategy::Leveled,
        options: std::collections::BTreeMap::new(),
    });
    let a = analyze(&p);
    assert!(findings(&a, "lcs-write-heavy").is_empty(), "no load: quiet");
    set_load(&mut p, 0, 1.0);
    let a = analyze(&p);
    let f = findings(&a, "lcs-write-heavy");
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].contains("100.0 writes/s against 1.0 reads/s"),
        "{}",
        f[0]
    );
    set_load(&mut p, 0, 300.0);
    let a = analyze(&p);
    assert!(findings(&a, "lcs-write-heavy").is_empty());
}
