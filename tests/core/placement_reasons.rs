//! Where an equality search or a constant lands (partition or leading
//! clustering) and the reason the workbench and `derive` print for it, for
//! the placement paths no sample takes: a designer's clustering choice
//! under `partition_keys: AllEquality`, a constant as the only search, and
//! a constant beside a search with no entity key; and the rule MR5 names
//! for a key it appends (the key of a node the rows multiply through).
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::derive::{derive, LogicalModel, Role, Table, Why};
use cqlmodel::model::load::from_str;

const ORDERS: &str = r#"Project(format: 1, name: "Orders", keyspace: Keyspace(name: "o", replication: Simple(1)),
  SETTINGS
  entities: [
    Entity(name: "Customer", key: ["customer_id"], attributes: [
      Attribute(name: "customer_id", type: "uuid"),
    ], count: Some(1000)),
    Entity(name: "Order", key: ["order_id"], attributes: [
      Attribute(name: "order_id", type: "timeuuid"),
      Attribute(name: "status", type: "text", size: Some(8), distinct: Some(5)),
      Attribute(name: "kind", type: "text", size: Some(8), distinct: Some(3)),
      Attribute(name: "total", type: "decimal", size: Some(8)),
    ]),
  ],
  relationships: [
    Relationship(name: "places", from: "Customer", to: "Order", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 10, max: Some(40)))),
  ],
  queries: [QUERY],
  DECISIONS
)"#;

fn derived(settings: &str, query: &str, decisions: &str) -> LogicalModel {
    let text = ORDERS
        .replace("SETTINGS", settings)
        .replace("QUERY", query)
        .replace("DECISIONS", decisions);
    derive(&from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}")))
}

/// (marker, name, reason) of each column of the only table.
fn layout(m: &LogicalModel) -> Vec<(String, String, Option<Why>)> {
    assert_eq!(m.tables.len(), 1, "{:?}", m.tables);
    let t: &Table = &m.tables[0];
    t.columns
        .iter()
        .map(|c| {
            (
                c.role.marker().to_string(),
                c.name.to_string(),
                c.why.as_deref().cloned(),
            )
        })
        .collect()
}

/// Under `AllEquality` every equality search is in the partition key,
/// except one the designer keeps as a clustering column.
#[test]
fn all_equality_keeps_the_designers_clustering_choice() {
    let query = r#"Query(id: "Q1", text: "orders of a customer by status", rows: "Order",
      equality: ["Customer.customer_id", "status"], returns: ["order_id", "total"])"#;
    let all = "partition_keys: AllEquality,";
    let m = derived(all, query, "");
    let l = layout(&m);
    assert_eq!(
        (l[0].0.as_str(), l[0].1.as_str(), l[0].2.clone()),
        ("K", "customer_id", Some(Why::AllEquality))
    );
    assert_eq!(
        (l[1].0.as_str(), l[1].1.as_str(), l[1].2.clone()),
        ("K", "status", Some(Why::AllEquality))
    );
    let m = derived(
        all,
        query,
        r#"decisions: [Decision(query: "Q1", equality_clustering: ["status"])],"#,
    );
    let l = layout(&m);
    assert_eq!(
        (l[0].0.as_str(), l[0].1.as_str(), l[0].2.clone()),
        ("K", "customer_id", Some(Why::AllEquality))
    );
    assert_eq!(
        (l[1].0.as_str(), l[1].1.as_str(), l[1].2.clone()),
        ("C↑", "status", Some(Why::DecidedClustering))
    );
    assert_eq!(
        Why::DecidedClustering.to_string(),
        "decision: kept as a clustering column (equality_clustering)"
    );
}

/// A constant that is the query's only search is the partition, and says
/// so (not a placement by estimate).
#[test]
fn a_lone_constant_is_the_partition_for_that_reason() {
    let m = derived(
        "",
        r#"Query(id: "Q1", text: "open orders", rows: "Order",
          constants: [Constant(attr: "status", value: "open")], returns: ["order_id", "total"])"#,
        "",
    );
    let l = layout(&m);
    assert_eq!(
        (l[0].0.as_str(), l[0].1.as_str(), l[0].2.clone()),
        ("K", "status", Some(Why::LoneConstant))
    );
    assert_eq!(m.tables[0].columns[0].role, Role::Partition);
}

/// A search on a status (no entity's key: the search itself is the
/// partition) and a constant kind: the constant is placed by the estimate
/// (1,000 customers · 10 orders = 10,000 orders in 5 statuses: 2,000 a
/// partition, at worst 8,000, within the limits), so it leads the
/// clustering columns instead of joining the partition key.
#[test]
fn a_constant_beside_a_search_without_a_key_is_placed_by_the_estimate() {
    let m = derived(
        "",
        r#"Query(id: "Q1", text: "orders of a kind by status", rows: "Order", equality: ["status"],
          constants: [Constant(attr: "kind", value: "gift")], returns: ["order_id", "total"])"#,
        "",
    );
    let l = layout(&m);
    assert_eq!(
        (l[0].0.as_str(), l[0].1.as_str(), l[0].2.clone()),
        ("K", "status", Some(Why::NoAnchor))
    );
    assert_eq!((l[1].0.as_str(), l[1].1.as_str()), ("C↑", "kind"));
    match &l[1].2 {
        Some(Why::Estimated {
            fits: true,
            constant: true,
            ..
        }) => {}
        other => panic!("kind: {other:?}"),
    }
}

/// MR5 names the key it appends: a tag reached through an item's many
/// tags is the key of a node the rows multiply through (the table's
/// grain), so `Rule::Key`, not a unique identifier.
#[test]
fn a_key_appended_for_a_many_step_is_named_the_key_of_the_rows() {
    let text = r#"Project(format: 1, name: "Tags", keyspace: Keyspace(name: "t", replication: Simple(1)),
  entities: [
    Entity(name: "Item", key: ["item_id"], attributes: [
      Attribute(name: "item_id", type: "bigint"),
      Attribute(name: "title", type: "text", size: Some(40)),
    ], count: Some(1000)),
    Entity(name: "Tag", key: ["tag"], attributes: [
      Attribute(name: "tag", type: "text", size: Some(10)),
    ], count: Some(200)),
  ],
  relationships: [
    Relationship(name: "tagged", from: "Item", to: "Tag", cardinality: ManyToMany,
      to_per_from: Some(Count(avg: 5, max: Some(30)))),
  ],
  queries: [
    Query(id: "Q1", text: "An item with its tags", rows: "Item", equality: ["item_id"],
      returns: ["item_id", "title", "Tag.tag"]),
  ],
)"#;
    let m = derive(&from_str(text).expect("loads"));
    let t = &m.tables[0];
    let tag = t.column("tag").expect("tag");
    assert_eq!(tag.role, Role::Clustering(cqlmodel::model::Dir::Asc));
    assert_eq!(tag.rule, cqlmodel::derive::Rule::Key);
    assert_eq!(
        tag.rule.label(),
        "MR5 key of the rows → clustering (uniqueness)"
    );
}

/// Issue 39, rule 3: a user's orders of an item, newest first, on default
/// figures. The orders pile up with time and nothing stated bounds a
/// user's partition (no count, retention or TTL): the review warns
/// `unbounded-partition` on it, so the item is no filter of a "small"
/// partition; both equality attributes are the partition key.
#[test]
fn rows_that_accumulate_on_assumed_figures_keep_both_searches_in_the_partition() {
    let text = r#"Project(format: 1, name: "Shop", keyspace: Keyspace(name: "s", replication: Simple(1)),
  entities: [
    Entity(name: "User", key: ["user_id"], attributes: [Attribute(name: "user_id", type: "uuid")]),
    Entity(name: "Item", key: ["item_id"], attributes: [Attribute(name: "item_id", type: "uuid")]),
    Entity(name: "Order", owner: Some("places"), key: ["order_id"], attributes: [
      Attribute(name: "order_id", type: "uuid"),
      Attribute(name: "ordered_at", type: "timestamp"),
      Attribute(name: "total", type: "decimal"),
    ]),
  ],
  relationships: [
    Relationship(name: "places", from: "User", to: "Order", cardinality: OneToMany),
    Relationship(name: "of_item", from: "Item", to: "Order", cardinality: OneToMany),
  ],
  queries: [Query(id: "Q1", text: "A user's orders of an item, newest first", rows: "Order",
    equality: ["User.user_id", "Item.item_id"], order: [Order(attr: "ordered_at", dir: Desc)],
    returns: ["total"])],
)"#;
    let m = derive(&from_str(text).unwrap_or_else(|e| panic!("{e}")));
    let l = layout(&m);
    let markers: Vec<(&str, &str)> = l.iter().map(|c| (c.0.as_str(), c.1.as_str())).collect();
    assert_eq!(
        markers,
        [
            ("K", "user_id"),
            ("K", "item_id"),
            ("C↓", "ordered_at"),
            ("C↑", "order_id"),
            ("", "total"),
        ]
    );
    let why = l[1].2.as_ref().map(ToString::to_string).unwrap_or_default();
    assert!(
        why.starts_with("a filter moved in because rows accumulate with time"),
        "{why}"
    );
    // The review agrees: no filter left in an unbounded partition.
    let p = from_str(text).unwrap_or_else(|e| panic!("{e}"));
    let a = cqlmodel::analysis::analyze(&p);
    let t = &a.model.tables[0];
    assert!(t
        .columns
        .iter()
        .all(|c| c.rule != cqlmodel::derive::Rule::Filter));
}

/// An account's trades of a type, newest first, on stated figures: 10,000
/// accounts, 2,000 trades each on average and 5,000 at most, so a
/// partition holds at worst 5,000 rows of one regular column (amount):
/// Nv = 5,000 · (5 − 4 − 0) + 0 = 5,000 values, well within 100,000. The
/// type stays a filter leading the clustering.
const TRADES: &str = r#"Project(format: 1, name: "Trades", keyspace: Keyspace(name: "t", replication: Simple(1)),
  entities: [
    Entity(name: "Account", key: ["account_number"], attributes: [
      Attribute(name: "account_number", type: "bigint"),
    ], count: Some(10000)),
    Entity(name: "Trade", owner: Some("holds"), key: ["id"], attributes: [
      Attribute(name: "id", type: "timeuuid"),
      Attribute(name: "type", type: "text", size: Some(8), distinct: Some(5)),
      Attribute(name: "placed_at", type: "timestamp"),
      Attribute(name: "amount", type: "decimal", size: Some(8)),
    ]),
  ],
  relationships: [
    Relationship(name: "holds", from: "Account", to: "Trade", cardinality: OneToMany,
      to_per_from: Some(Count(avg: AVG, max: Some(MAX)))),
  ],
  queries: [Query(id: "Q1", text: "An account's trades of a type, newest first", rows: "Trade",
    equality: ["Account.account_number", "type"], order: [Order(attr: "placed_at", dir: Desc)],
    returns: [RETURNS])],
)"#;

fn trades(avg: u32, max: u32, returns: &str) -> LogicalModel {
    let text = TRADES
        .replace("AVG", &avg.to_string())
        .replace("MAX", &max.to_string())
        .replace("RETURNS", returns);
    derive(&from_str(&text).unwrap_or_else(|e| panic!("{e}\n{text}")))
}

#[test]
fn an_accounts_few_thousand_trades_keep_the_type_as_a_filter() {
    let m = trades(2000, 5000, r#""amount""#);
    let l = layout(&m);
    let markers: Vec<(&str, &str)> = l.iter().map(|c| (c.0.as_str(), c.1.as_str())).collect();
    assert_eq!(
        markers,
        [
            ("K", "account_number"),
            ("C↑", "type"),
            ("C↓", "placed_at"),
            ("C↑", "id"),
            ("", "amount"),
        ]
    );
    match &l[1].2 {
        Some(Why::Estimated {
            fits: true,
            values_max,
            assumed: false,
            ..
        }) => assert!((values_max - 5_000.0).abs() < 1e-6, "{values_max}"),
        other => panic!("type: {other:?}"),
    }
}

/// The same trades returning only key columns: Nv = Nr · (4 − 4 − 0) + 0 =
/// 0 values, so the value limit would never act. Rows count there: with
/// 100,000 trades an account on average and 200,000 at most, a partition
/// of one account holds 200,000 rows at worst, over the 100,000 limit, so
/// the type joins the partition key.
#[test]
fn a_table_of_key_columns_only_counts_rows_against_the_value_limit() {
    let m = trades(100_000, 200_000, r#""id""#);
    let l = layout(&m);
    let markers: Vec<(&str, &str)> = l.iter().map(|c| (c.0.as_str(), c.1.as_str())).collect();
    assert_eq!(
        markers,
        [
            ("K", "account_number"),
            ("K", "type"),
            ("C↓", "placed_at"),
            ("C↑", "id"),
        ]
    );
    match &l[1].2 {
        Some(Why::Estimated {
            fits: false,
            values_max,
            ..
        }) => assert!((values_max - 200_000.0).abs() < 1e-6, "{values_max}"),
        other => panic!("type: {other:?}"),
    }
    // With few trades the same key-only table keeps the filter: 5,000 rows.
    let l = layout(&trades(2000, 5000, r#""id""#));
    assert_eq!((l[1].0.as_str(), l[1].1.as_str()), ("C↑", "type"));
}
