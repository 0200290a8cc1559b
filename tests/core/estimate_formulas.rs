//! Partition estimates computed by hand, each with its formula written out
//! (the Apache Cassandra docs' sizing: Nv = Nr·(Nc − Npk − Ns) + Ns values,
//! St = Σpk + Σstatic + Nr·(Σregular + Σclustering) + 8·Nv bytes), so a
//! slip in any term of the estimator fails here, not only in a snapshot.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::estimate::{Estimate, Estimator};
use cqlmodel::model::load::from_str;
use cqlmodel::model::resolve::Graph;

fn project(text: &str) -> cqlmodel::model::Project {
    from_str(text).expect("the test project loads")
}

fn table<'a>(a: &'a Analysis, name: &str) -> &'a Estimate {
    let i = a
        .model
        .tables
        .iter()
        .position(|t| t.name == name)
        .unwrap_or_else(|| panic!("no table {name}: {:?}", a.model.tables));
    &a.estimates[i]
}

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

const STATIC: &str = r#"Project(format: 1, name: "Static", keyspace: Keyspace(name: "s", replication: Simple(1)),
  entities: [
    Entity(name: "Source", key: ["source_id"], attributes: [
      Attribute(name: "source_id", type: "text", size: Some(10)),
      Attribute(name: "hostname", type: "text", size: Some(20)),
    ], count: Some(100)),
    Entity(name: "Message", key: ["message_id"], attributes: [
      Attribute(name: "message_id", type: "timeuuid"),
      Attribute(name: "body", type: "text", size: Some(100)),
    ], count: Some(5000)),
  ],
  relationships: [
    Relationship(name: "emits", from: "Source", to: "Message", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 50, max: Some(200)))),
  ],
  queries: [
    Query(id: "Q1", text: "Messages of a source", rows: "Message", equality: ["Source.source_id"],
      returns: ["Source.source_id", "Source.hostname", "message_id", "body"]),
  ],
)"#;

/// `messages_by_source`: K `source_id` (10 B), C `message_id` (16 B),
/// S `source_hostname` (20 B), body (100 B). The message count is stated, and
/// the worst partition still follows emits' stated maximum.
#[test]
fn static_columns_make_nv_differ_from_nr() {
    let a = analyze(&project(STATIC));
    let e = table(&a, "messages_by_source");
    assert_eq!((e.columns, e.key_columns, e.static_columns), (4, 2, 1));
    // Nr = 5,000 messages / 100 sources = 50; worst = 50 · 200/50 = 200.
    close("Nr", e.rows_per_partition, 50.0);
    close("Nr worst", e.rows_per_partition_max, 200.0);
    // Nv = Nr·(Nc − Npk − Ns) + Ns = 50·(4 − 2 − 1) + 1 = 51; worst 200·1 + 1.
    close("Nv", e.values, 51.0);
    close("Nv worst", e.values_max, 201.0);
    // St = 10 + 20 + 50·(100 + 16) + 8·51 = 6,238.
    close(
        "St",
        e.partition_bytes,
        10.0 + 20.0 + 50.0 * 116.0 + 8.0 * 51.0,
    );
    // St worst = 10 + 20 + 200·116 + 8·201 = 24,838.
    close(
        "St worst",
        e.partition_bytes_max,
        10.0 + 20.0 + 200.0 * 116.0 + 8.0 * 201.0,
    );
    assert!(e.defaults.is_empty(), "{:?}", e.defaults);
}

const RATE: &str = r#"Project(format: 1, name: "Rate", keyspace: Keyspace(name: "r", replication: Simple(1)),
  entities: [
    Entity(name: "Sensor", key: ["sensor_id"], attributes: [
      Attribute(name: "sensor_id", type: "uuid"),
    ], count: Some(1000)),
    Entity(name: "Reading", owner: Some("records"), key: ["reading_time"], attributes: [
      Attribute(name: "reading_time", type: "timestamp"),
      Attribute(name: "value", type: "double"),
    ], retention_days: Some(30)),
  ],
  relationships: [
    Relationship(name: "records", from: "Sensor", to: "Reading", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 24, max: Some(48), per: Some(Day)))),
  ],
  queries: [
    Query(id: "Q1", text: "Readings of a sensor", rows: "Reading", equality: ["sensor_id"],
      order: [Order(attr: "reading_time", dir: Desc)], returns: ["reading_time", "value"]),
  ],
)"#;

/// `readings_by_sensor`: K `sensor_id` (uuid, 16 B), C↓ `reading_time` (8 B),
/// value (double, 8 B); 24 readings a day (48 at worst) kept 30 days.
#[test]
fn a_rate_accumulates_over_the_retention() {
    let a = analyze(&project(RATE));
    let e = table(&a, "readings_by_sensor");
    // Rows = 1,000 sensors · 24/day · 30 days = 720,000; Nr = 720.
    close("rows", e.rows, 720_000.0);
    close("Nr", e.rows_per_partition, 720.0);
    close("Nr worst", e.rows_per_partition_max, 48.0 * 30.0);
    // Nv = 720·(3 − 2 − 0) + 0.
    close("Nv", e.values, 720.0);
    close("Nv worst", e.values_max, 1440.0);
    // St = 16 + 720·(8 + 8) + 8·720 = 17,296; worst 16 + 1,440·16 + 8·1,440.
    close("St", e.partition_bytes, 16.0 + 720.0 * 16.0 + 8.0 * 720.0);
    close(
        "St worst",
        e.partition_bytes_max,
        16.0 + 1440.0 * 16.0 + 8.0 * 1440.0,
    );
    assert!(e.retained && e.accumulates);
    close("span", e.span_days, 30.0);
    close("growth", e.growth_per_day.expect("a rate grows"), 24.0);
    // Bounded by the stated retention: no unbounded finding.
    assert!(!a
        .diagnostics
        .iter()
        .any(|d| d.rule == "unbounded-partition"));
}

const ENTITY_RATE: &str = r#"Project(format: 1, name: "Orders", keyspace: Keyspace(name: "o", replication: Simple(1)),
  entities: [
    Entity(name: "Order", key: ["order_id"], attributes: [
      Attribute(name: "order_id", type: "uuid"),
      Attribute(name: "status", type: "text", size: Some(8), distinct: Some(5)),
    ], count: Some(2000), per: Some(Week), retention_days: Some(70)),
  ],
  queries: [
    Query(id: "Q1", text: "Orders by status", rows: "Order", equality: ["status"],
      returns: ["status", "order_id"]),
  ],
)"#;

/// `orders_by_status`: 2,000 orders a week kept 70 days are 20,000 orders in
/// 5 partitions, growing by 2,000/7 a day; the same count without the rate
/// is 2,000 orders that do not grow.
#[test]
fn an_entity_rate_accumulates_over_its_retention() {
    let a = analyze(&project(ENTITY_RATE));
    let e = table(&a, "orders_by_status");
    close("rows", e.rows, 20_000.0);
    close("partitions", e.partitions, 5.0);
    close("Nr", e.rows_per_partition, 4_000.0);
    assert!(e.retained && e.accumulates);
    close("span", e.span_days, 70.0);
    close("rows a day", e.rows_per_day.expect("a rate"), 2_000.0 / 7.0);

    let flat = analyze(&project(&ENTITY_RATE.replace("per: Some(Week), ", "")));
    let e = table(&flat, "orders_by_status");
    close("rows without the rate", e.rows, 2_000.0);
    assert!(e.rows_per_day.is_none());
}

#[test]
fn a_rate_without_a_count_is_refused() {
    let text = ENTITY_RATE.replace("count: Some(2000), ", "");
    let err = cqlmodel::model::load::from_str(&text).expect_err("per needs a count");
    assert!(err.to_string().contains("needs a `count`"), "{err}");
}

const NEAR: &str = r#"Project(format: 1, name: "Near", keyspace: Keyspace(name: "n", replication: Simple(1)),
  entities: [
    Entity(name: "Hotel", key: ["hotel_id"], attributes: [
      Attribute(name: "hotel_id", type: "text", size: Some(5)),
      Attribute(name: "name", type: "text", size: Some(30)),
    ], count: Some(5000)),
    Entity(name: "Poi", key: ["poi_name"], attributes: [
      Attribute(name: "poi_name", type: "text", size: Some(24)),
    ], count: Some(2000)),
  ],
  relationships: [
    Relationship(name: "near", from: "Hotel", to: "Poi", cardinality: ManyToMany,
      to_per_from: Some(Count(avg: 5, max: Some(30))),
      from_per_to: Some(Count(avg: 12.5, max: Some(300)))),
  ],
  queries: [
    Query(id: "Q1", text: "Hotels near a point of interest", rows: "Hotel", equality: ["Poi.poi_name"],
      returns: ["hotel_id", "name"]),
  ],
)"#;

/// `hotels_by_poi`: K `poi_name` (24 B), C `hotel_id` (5 B), name (30 B); the
/// rows follow near from each hotel, the partitions are the points of
/// interest, and the worst partition is the busiest point's 300 hotels.
#[test]
fn an_m_to_n_path_counts_links_and_the_far_sides_maximum() {
    let a = analyze(&project(NEAR));
    let e = table(&a, "hotels_by_poi");
    // Rows = 5,000 hotels · 5 = 25,000 links; 2,000 partitions; Nr = 12.5.
    close("rows", e.rows, 25_000.0);
    close("partitions", e.partitions, 2000.0);
    close("Nr", e.rows_per_partition, 12.5);
    // Worst = 12.5 · 300/12.5 = 300 hotels near one point.
    close("Nr worst", e.rows_per_partition_max, 300.0);
    // Nv = 12.5·(3 − 2 − 0) = 12.5; St = 24 + 12.5·(5 + 30) + 8·12.5.
    close("Nv", e.values, 12.5);
    close("St", e.partition_bytes, 24.0 + 12.5 * 35.0 + 8.0 * 12.5);
    close(
        "St worst",
        e.partition_bytes_max,
        24.0 + 300.0 * 35.0 + 8.0 * 300.0,
    );
}

const TAGS: &str = r#"Project(format: 1, name: "Tags", keyspace: Keyspace(name: "t", replication: Simple(1)),
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
  decisions: [Decision(query: "Q1", collections: ["tagged"])],
)"#;

/// items: K `item_id` (8 B), title (40 B), tags set<text> (10 B a tag): the
/// set holds the tags of one item (5, 30 at worst), not the items of a tag
/// (1,000 · 5 / 200 = 25).
#[test]
fn a_pushed_up_collection_counts_elements_per_row() {
    let p = project(TAGS);
    let a = analyze(&p);
    let t = a.model.table("items").expect("items");
    let e = table(&a, "items");
    let graph = Graph::new(&p);
    let est = Estimator::new(&graph);
    let (avg, max) = est.collection_elements(t, "tags", &mut Vec::new());
    close("elements", avg, 5.0);
    close("elements worst", max, 30.0);
    close("largest collection", e.largest_collection, 5.0);
    // Nr = 1; Nv = 1·(3 − 1 − 0) = 2; St = 8 + 1·(40 + 5·10) + 8·2 = 114.
    close("Nr", e.rows_per_partition, 1.0);
    close("Nv", e.values, 2.0);
    close("St", e.partition_bytes, 8.0 + 40.0 + 5.0 * 10.0 + 8.0 * 2.0);
    // The worst row holds 30 tags: 8 + 40 + 30·10 + 8·2 = 364.
    close(
        "St worst",
        e.partition_bytes_max,
        8.0 + 40.0 + 30.0 * 10.0 + 8.0 * 2.0,
    );
}
