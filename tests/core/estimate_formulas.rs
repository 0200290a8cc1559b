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

/// A table's own retention replaces the rows' for that table, both ways:
/// RATE's readings (24 a day a sensor, kept 30 days) in a table that keeps
/// them 60 days hold 60 days of them; 15 days, 15 days of them.
#[test]
fn a_table_retention_replaces_the_rows_span_both_ways() {
    let with = |span: &str| {
        RATE.replace(
            "\n  ],\n  queries: [",
            "\n  ],\n  decisions: [Decision(query: \"Q1\", options: TableOptions(retention: Some(\"SPAN\")))],\n  queries: [",
        )
        .replace("SPAN", span)
    };
    for (span, days) in [("60d", 60.0), ("15d", 15.0)] {
        let text = with(span);
        assert!(text.contains("decisions:"), "{text}");
        let a = analyze(&project(&text));
        let e = table(&a, "readings_by_sensor");
        // 1,000 sensors · 24 a day · the table's days.
        close(&format!("rows kept {span}"), e.rows, 1_000.0 * 24.0 * days);
        close(
            &format!("Nr kept {span}"),
            e.rows_per_partition,
            24.0 * days,
        );
        close(&format!("span kept {span}"), e.span_days, days);
    }
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

/// TAGS without its decision: the tags are rows of their own, not a
/// collection of the item.
fn tags_as_rows() -> String {
    TAGS.replace(
        r#"  decisions: [Decision(query: "Q1", collections: ["tagged"])],
"#,
        "",
    )
}

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

/// RATE's relationship at another rate: `avg` and `max` readings a `per`,
/// kept `retention` days when given (else the 365-day horizon).
fn rate_project(per: &str, retention: Option<u32>) -> cqlmodel::model::Project {
    let keep = retention.map_or(String::new(), |d| format!(", retention_days: Some({d})"));
    project(&format!(
        r#"Project(format: 1, name: "Rate", keyspace: Keyspace(name: "r", replication: Simple(1)),
  entities: [
    Entity(name: "Sensor", key: ["sensor_id"], attributes: [
      Attribute(name: "sensor_id", type: "uuid"),
    ], count: Some(1000)),
    Entity(name: "Reading", owner: Some("records"), key: ["reading_time"], attributes: [
      Attribute(name: "reading_time", type: "timestamp"),
      Attribute(name: "value", type: "double"),
    ]{keep}),
  ],
  relationships: [
    Relationship(name: "records", from: "Sensor", to: "Reading", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 2, max: Some(6), per: Some({per})))),
  ],
  queries: [
    Query(id: "Q1", text: "Readings of a sensor", rows: "Reading", equality: ["sensor_id"],
      order: [Order(attr: "reading_time", dir: Desc)], returns: ["reading_time", "value"]),
  ],
)"#
    ))
}

/// `readings_by_sensor` (K `sensor_id` 16 B, C↓ `reading_time` 8 B, value
/// 8 B) at 2 readings a period (6 at worst) from 1,000 sensors, for every
/// period, kept 364 days (52 weeks) and kept for ever (figures over the
/// 365-day horizon). Nr = 2 · days / period; worst = Nr · 6/2;
/// Nv = Nr·(3 − 2 − 0); St = 16 + Nr·(8 + 8) + 8·Nv = 16 + 24·Nr.
#[test]
fn a_rate_per_every_period_with_and_without_retention() {
    // (per, kept, Nr worked out by hand)
    let cases: [(&str, Option<u32>, f64); 10] = [
        // 2 an hour · 24 h · 364 d = 17,472 readings a sensor.
        ("Hour", Some(364), 17_472.0),
        // 2 a day · 364 d = 728.
        ("Day", Some(364), 728.0),
        // 2 a week · 52 weeks = 104 (multiplied by the week's 7 days
        // instead of divided: 5,096).
        ("Week", Some(364), 104.0),
        // 2 a month · 364 / 30.4375 months = 23.9178…
        ("Month", Some(364), 2.0 * 364.0 / 30.4375),
        // 2 a year · 364 / 365.25 years = 1.9931…
        ("Year", Some(364), 2.0 * 364.0 / 365.25),
        // Not retained: the same over the 365-day horizon.
        ("Hour", None, 17_520.0),
        ("Day", None, 730.0),
        // 2 · 365 / 7 = 104.2857…
        ("Week", None, 2.0 * 365.0 / 7.0),
        ("Month", None, 2.0 * 365.0 / 30.4375),
        ("Year", None, 2.0 * 365.0 / 365.25),
    ];
    for (per, kept, nr) in cases {
        let what = format!("{per} kept {kept:?}");
        let a = analyze(&rate_project(per, kept));
        let e = table(&a, "readings_by_sensor");
        close(&format!("{what}: partitions"), e.partitions, 1000.0);
        close(&format!("{what}: rows"), e.rows, 1000.0 * nr);
        close(&format!("{what}: Nr"), e.rows_per_partition, nr);
        close(
            &format!("{what}: Nr worst"),
            e.rows_per_partition_max,
            3.0 * nr,
        );
        close(&format!("{what}: Nv"), e.values, nr);
        close(&format!("{what}: Nv worst"), e.values_max, 3.0 * nr);
        close(&format!("{what}: St"), e.partition_bytes, 16.0 + 24.0 * nr);
        close(
            &format!("{what}: St worst"),
            e.partition_bytes_max,
            16.0 + 24.0 * 3.0 * nr,
        );
        let days = f64::from(kept.unwrap_or(365));
        close(&format!("{what}: span"), e.span_days, days);
        assert_eq!(e.retained, kept.is_some(), "{what}");
        assert!(e.accumulates, "{what}");
        // Growth a day: Nr over the span, which is the rate per day (2 an
        // hour is 48 a day, 2 a week 2/7, a month 2/30.4375, a year
        // 2/365.25).
        close(
            &format!("{what}: growth"),
            e.growth_per_day.expect("a rate grows"),
            nr / days,
        );
        close(
            &format!("{what}: rows a day"),
            e.rows_per_day.expect("a rate"),
            1000.0 * nr / days,
        );
        // Only the horizon's figures come with a note saying so.
        let noted = e
            .assumptions
            .iter()
            .any(|n| n.contains("no retention is stated; figures cover 365 days"));
        assert_eq!(noted, kept.is_none(), "{what}: {:?}", e.assumptions);
    }
    // The growth a day, per period, independently of the span: 2 an hour
    // is 48 a day; 2 a week is 0.2857 a day.
    let growth = |per: &str| {
        let a = analyze(&rate_project(per, Some(364)));
        table(&a, "readings_by_sensor")
            .growth_per_day
            .expect("a rate")
    };
    close("growth an hour", growth("Hour"), 48.0);
    close("growth a day", growth("Day"), 2.0);
    close("growth a week", growth("Week"), 2.0 / 7.0);
    close("growth a month", growth("Month"), 2.0 / 30.4375);
    close("growth a year", growth("Year"), 2.0 / 365.25);
}

/// `ENTITY_RATE`'s 2,000 orders at every period, kept 70 days and over the
/// 365-day horizon: rows = 2,000 · days / period, in 5 status partitions.
#[test]
fn an_entity_rate_per_every_period_with_and_without_retention() {
    let cases: [(&str, bool, f64); 10] = [
        // 2,000 an hour · 24 · 70 = 3,360,000.
        ("Hour", true, 3_360_000.0),
        // 2,000 · 70 = 140,000.
        ("Day", true, 140_000.0),
        // 2,000 · 10 weeks = 20,000.
        ("Week", true, 20_000.0),
        // 2,000 · 70 / 30.4375 = 4,599.59…
        ("Month", true, 2_000.0 * 70.0 / 30.4375),
        // 2,000 · 70 / 365.25 = 383.29…
        ("Year", true, 2_000.0 * 70.0 / 365.25),
        // 2,000 · 24 · 365 = 17,520,000.
        ("Hour", false, 17_520_000.0),
        ("Day", false, 730_000.0),
        // 2,000 · 365 / 7 = 104,285.71…
        ("Week", false, 2_000.0 * 365.0 / 7.0),
        ("Month", false, 2_000.0 * 365.0 / 30.4375),
        // 2,000 · 365 / 365.25 = 1,998.63…
        ("Year", false, 2_000.0 * 365.0 / 365.25),
    ];
    for (per, kept, rows) in cases {
        let what = format!("{per} kept {kept}");
        let mut text = ENTITY_RATE.replace("per: Some(Week)", &format!("per: Some({per})"));
        if !kept {
            text = text.replace(", retention_days: Some(70)", "");
        }
        let a = analyze(&project(&text));
        let e = table(&a, "orders_by_status");
        close(&format!("{what}: rows"), e.rows, rows);
        close(&format!("{what}: partitions"), e.partitions, 5.0);
        close(&format!("{what}: Nr"), e.rows_per_partition, rows / 5.0);
        let days = if kept { 70.0 } else { 365.0 };
        close(&format!("{what}: span"), e.span_days, days);
        assert_eq!(e.retained, kept, "{what}");
        close(
            &format!("{what}: rows a day"),
            e.rows_per_day.expect("a rate"),
            rows / days,
        );
    }
}

/// Readings with two 1:n parents: 100 sensors record 50 each (500 at
/// worst), 10 operators take 200 each (400 at worst). Q3's table keeps both
/// parents in its partition key.
const PARENTS: &str = r#"Project(format: 1, name: "Parents", keyspace: Keyspace(name: "p", replication: Simple(1)),
  entities: [
    Entity(name: "Sensor", key: ["sensor_id"], attributes: [
      Attribute(name: "sensor_id", type: "uuid"),
    ], count: Some(100)),
    Entity(name: "Operator", key: ["operator_id"], attributes: [
      Attribute(name: "operator_id", type: "uuid"),
    ], count: Some(10)),
    Entity(name: "Reading", key: ["reading_id"], attributes: [
      Attribute(name: "reading_id", type: "timeuuid"),
      Attribute(name: "value", type: "double"),
    ]),
  ],
  relationships: [
    Relationship(name: "records", from: "Sensor", to: "Reading", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 50, max: Some(500)))),
    Relationship(name: "takes", from: "Operator", to: "Reading", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 200, max: Some(400)))),
  ],
  queries: [
    Query(id: "Q1", text: "Readings of a sensor", rows: "Reading", equality: ["Sensor.sensor_id"],
      returns: ["reading_id", "value"]),
    Query(id: "Q2", text: "Readings of an operator", rows: "Reading", equality: ["Operator.operator_id"],
      returns: ["reading_id", "value"]),
    Query(id: "Q3", text: "Readings of a sensor by an operator", rows: "Reading",
      equality: ["Sensor.sensor_id", "Operator.operator_id"], returns: ["reading_id", "value"]),
  ],
  decisions: [Decision(query: "Q3", equality_partition: ["operator_id", "sensor_id"], separate: true)],
)"#;

/// (table, rows, partitions, Nr, Nr worst) of every table of `text`.
fn figures(text: &str) -> Vec<(String, f64, f64, f64, f64)> {
    let a = analyze(&project(text));
    a.model
        .tables
        .iter()
        .zip(&a.estimates)
        .map(|(t, e)| {
            (
                t.name.to_string(),
                e.rows,
                e.partitions,
                e.rows_per_partition,
                e.rows_per_partition_max,
            )
        })
        .collect()
}

fn assert_figures(what: &str, text: &str, want: &[(&str, f64, f64, f64, f64)]) {
    let got = figures(text);
    assert_eq!(got.len(), want.len(), "{what}: {got:?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.0, w.0, "{what}");
        close(&format!("{what} {}: rows", w.0), g.1, w.1);
        close(&format!("{what} {}: partitions", w.0), g.2, w.2);
        close(&format!("{what} {}: Nr", w.0), g.3, w.3);
        close(&format!("{what} {}: Nr worst", w.0), g.4, w.4);
    }
}

/// Readings count through both parents and the larger stated figure wins:
/// 100 sensors · 50 = 5,000 against 10 operators · 200 = 2,000. A partition
/// keyed by both parents is as bad as the worse parent's ratio, whichever
/// parent that is.
#[test]
fn the_worst_partition_follows_the_largest_parent_ratio() {
    assert_figures(
        "records 500/50 = 10, takes 400/200 = 2",
        PARENTS,
        &[
            // 5,000 / 100 sensors = 50; worst 50 · 10 = 500.
            ("readings_by_sensor", 5_000.0, 100.0, 50.0, 500.0),
            // 5,000 / 10 operators = 500; worst 500 · 2 = 1,000.
            ("readings_by_operator", 5_000.0, 10.0, 500.0, 1_000.0),
            // 100 · 10 = 1,000 pairs, Nr 5; worst 5 · max(10, 2) = 50
            // (the smaller ratio would say 10).
            ("readings_by_sensor_operator", 5_000.0, 1_000.0, 5.0, 50.0),
        ],
    );
    let swapped = PARENTS
        .replace("max: Some(500)", "max: Some(100)")
        .replace("max: Some(400)", "max: Some(2000)");
    assert_figures(
        "records 100/50 = 2, takes 2,000/200 = 10",
        &swapped,
        &[
            // 50 · 2 = 100.
            ("readings_by_sensor", 5_000.0, 100.0, 50.0, 100.0),
            // 500 · 10 = 5,000.
            ("readings_by_operator", 5_000.0, 10.0, 500.0, 5_000.0),
            // 5 · max(2, 10) = 50.
            ("readings_by_sensor_operator", 5_000.0, 1_000.0, 5.0, 50.0),
        ],
    );
    // The order of the parents in the file changes nothing.
    let reordered = swapped.replace(
        "Relationship(name: \"records\"",
        "Relationship(name: \"zz_records\"",
    );
    let reordered = reordered.replace("owner: Some(\"records\")", "owner: Some(\"zz_records\")");
    assert_figures(
        "records renamed to sort last",
        &reordered,
        &[
            ("readings_by_sensor", 5_000.0, 100.0, 50.0, 100.0),
            ("readings_by_operator", 5_000.0, 10.0, 500.0, 5_000.0),
            ("readings_by_sensor_operator", 5_000.0, 1_000.0, 5.0, 50.0),
        ],
    );
}

/// Where a number is not stated: a parent count that rests on a default
/// loses to a stated one even when it is larger, and the assumption is
/// listed only where the figure uses it.
#[test]
fn unstated_counts_take_the_stated_parent_and_say_so() {
    // takes states no count: 1,000 operators · an assumed 10 = 10,000
    // readings, against 100 sensors · 50 = 5,000 stated: 5,000.
    let takes_unstated = PARENTS
        .replace(
            "\n      to_per_from: Some(Count(avg: 200, max: Some(400)))",
            "",
        )
        .replace("count: Some(10)", "count: Some(1000)");
    assert_figures(
        "takes unstated",
        &takes_unstated,
        &[
            ("readings_by_sensor", 5_000.0, 100.0, 50.0, 500.0),
            // 5,000 / 1,000 operators = 5; an assumed count has no maximum
            // above its average: worst 5.
            ("readings_by_operator", 5_000.0, 1_000.0, 5.0, 5.0),
            // 100 · 1,000 = 100,000 pairs, but only 5,000 rows: 5,000
            // partitions of 1; worst 1 · 10 = 10. Named operator first: of
            // two parents, neither owning the readings, the one with more
            // instances leads the key (issue 39, rule 2).
            ("readings_by_operator_sensor", 5_000.0, 5_000.0, 1.0, 10.0),
        ],
    );
    // The operator partitions' worst case rests on takes' assumed count:
    // it says so (the worst case once dropped the chain's assumptions).
    let a = analyze(&project(&takes_unstated));
    let defaults = &table(&a, "readings_by_operator").defaults;
    assert!(
        defaults
            .iter()
            .any(|n| n.starts_with("takes: no count for")),
        "{defaults:?}"
    );
    // The sensors state no count: 1,000 assumed · 50 = 50,000 loses to
    // 10 operators · 200 = 2,000 stated.
    let sensors_unstated = PARENTS.replace("], count: Some(100)),", "]),");
    assert_figures(
        "sensor count unstated",
        &sensors_unstated,
        &[
            // 2,000 / 1,000 assumed sensors = 2; worst 2 · 10 = 20.
            ("readings_by_sensor", 2_000.0, 1_000.0, 2.0, 20.0),
            // 2,000 / 10 = 200; worst 200 · 2 = 400.
            ("readings_by_operator", 2_000.0, 10.0, 200.0, 400.0),
            // 1,000 · 10 pairs, 2,000 rows: Nr 1; worst 1 · 10. Operator
            // first: a stated count leads an unstated one (rule 2).
            ("readings_by_operator_sensor", 2_000.0, 2_000.0, 1.0, 10.0),
        ],
    );
    let a = analyze(&project(&sensors_unstated));
    assert_eq!(
        &*table(&a, "readings_by_sensor").defaults,
        &["Sensor: no count; assumed 1000".to_string()]
    );
    assert!(table(&a, "readings_by_operator").defaults.is_empty());
    // No parent and no count: an assumed 1,000 readings, one a partition.
    let orphan = sensors_unstated
        .replace(
            "\n      to_per_from: Some(Count(avg: 50, max: Some(500)))",
            "",
        )
        .replace(
            "\n      to_per_from: Some(Count(avg: 200, max: Some(400)))",
            "",
        )
        .replace("], count: Some(10)),", "]),");
    let a = analyze(&project(&orphan));
    let e = table(&a, "readings_by_sensor");
    // Sensors 1,000 assumed · records 10 assumed = 10,000 readings (and
    // operators the same): 10 a sensor, no stated maximum.
    close("rows", e.rows, 10_000.0);
    close("partitions", e.partitions, 1_000.0);
    close("Nr", e.rows_per_partition, 10.0);
    close("Nr worst", e.rows_per_partition_max, 10.0);
    assert!(
        e.defaults
            .contains(&"Sensor: no count; assumed 1000".to_string()),
        "{:?}",
        e.defaults
    );
}

/// NEAR with fewer numbers: one side of the m:n stated, the other implied
/// from the counts; neither stated, 10 assumed per hotel.
#[test]
fn an_m_to_n_with_unstated_sides_counts_links_from_the_counts() {
    // 5 points a hotel stated, hotels a point implied: 5,000 · 5 / 2,000
    // = 12.5. The worst follows the implied side, which has no maximum.
    let one_side = NEAR.replace(
        "\n      from_per_to: Some(Count(avg: 12.5, max: Some(300)))",
        "",
    );
    let a = analyze(&project(&one_side));
    let e = table(&a, "hotels_by_poi");
    close("rows", e.rows, 25_000.0);
    close("partitions", e.partitions, 2_000.0);
    close("Nr", e.rows_per_partition, 12.5);
    close("Nr worst", e.rows_per_partition_max, 12.5);
    assert!(e.defaults.is_empty(), "{:?}", e.defaults);
    // Neither side: 10 points assumed a hotel: 50,000 links, 25 a point.
    let neither = one_side.replace(
        "\n      to_per_from: Some(Count(avg: 5, max: Some(30))),",
        "",
    );
    let a = analyze(&project(&neither));
    let e = table(&a, "hotels_by_poi");
    close("rows", e.rows, 50_000.0);
    close("Nr", e.rows_per_partition, 25.0);
    close("Nr worst", e.rows_per_partition_max, 25.0);
    assert_eq!(
        &*e.defaults,
        &["near: no count for Poi per Hotel; assumed 10".to_string()]
    );
}

/// The hotel sample's reservations, the one rate of a bundled sample
/// checked by hand (the golden snapshot alone would take any figure):
/// 5,000 hotels · 100 rooms · 0.25 reservations a room a day · 365 days
/// kept = 45,625,000 reservations. Sizes: `confirm_number` 8 B,
/// `hotel_id` 5, `start_date` and `end_date` 4 each, `room_number` 2,
/// `guest_id` 16, `guest_last_name` 12.
#[test]
fn the_hotel_reservations_follow_their_rate_by_hand() {
    let p = from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("hotel");
    let a = analyze(&p);
    let rows = 5_000.0 * 100.0 * 0.25 * 365.0;
    close("reservations", rows, 45_625_000.0);

    // One reservation a partition: Nv = 1·(6 − 1 − 0) = 5;
    // St = 8 + 1·(5 + 4 + 4 + 2 + 16) + 8·5 = 79.
    let e = table(&a, "reservations_by_confirmation");
    close("by confirmation: rows", e.rows, rows);
    close("by confirmation: partitions", e.partitions, rows);
    close("by confirmation: Nr", e.rows_per_partition, 1.0);
    close("by confirmation: Nv", e.values, 5.0);
    close("by confirmation: St", e.partition_bytes, 79.0);

    // A hotel and a start date (365 distinct): 1,825,000 partitions of
    // 100 rooms · 0.25 = 25; Nv = 25·(6 − 4) = 50;
    // St = (5 + 4) + 25·(2 + 8 + 4 + 16) + 8·50 = 1,159.
    let e = table(&a, "reservations_by_hotel_date");
    close("by hotel date: rows", e.rows, rows);
    close("by hotel date: partitions", e.partitions, 1_825_000.0);
    close("by hotel date: Nr", e.rows_per_partition, 25.0);
    close("by hotel date: Nv", e.values, 50.0);
    close("by hotel date: St", e.partition_bytes, 1_159.0);

    // 100,000 distinct last names: Nr = 456.25; Nv = 456.25·(7 − 3) =
    // 1,825; St = 12 + 456.25·(5 + 8 + 4 + 4 + 2 + 16) + 8·1,825
    // = 32,405.75.
    let e = table(&a, "reservations_by_guest");
    close("by guest: partitions", e.partitions, 100_000.0);
    close("by guest: Nr", e.rows_per_partition, 456.25);
    close("by guest: Nv", e.values, 1_825.0);
    close("by guest: St", e.partition_bytes, 32_405.75);
    // Bounded by the reservations' 365-day retention.
    assert!(e.retained);
    close("by guest: span", e.span_days, 365.0);
}

/// RATE's readings in day buckets, hour buckets and day buckets split in 4
/// shards, replicated 3 + 2 times: bucket and shard columns multiply the
/// partitions by the buckets the retention spans (30 days, 720 hours) and
/// the shards; a day or shard number is 4 bytes, an hour bucket (a
/// timestamp) 8; the growth a day stops at the bucket (None), the table's
/// rows a day do not.
#[test]
fn buckets_shards_and_replication_by_hand() {
    let with = |decision: &str, avg: &str| {
        let text = RATE
            .replace("replication: Simple(1)", "replication: NetworkTopology({\"dc1\": 3, \"dc2\": 2})")
            .replace("avg: 24, max: Some(48)", avg)
            .replace(
                "  ],\n)",
                &format!("  ],\n  decisions: [Decision(query: \"Q1\", partition_extra: [{decision}])],\n)"),
            );
        let a = analyze(&project(&text));
        table(&a, a.model.tables[0].name.as_str()).clone()
    };
    let day = "ExtraColumn(column: \"day\", kind: Bucket(source: \"reading_time\", period: Day))";
    // 1,000 sensors · 30 days = 30,000 partitions of 720,000 / 30,000 = 24
    // readings (worst 48). K sensor_id 16 + day 4; rows 8 + 8.
    let e = with(day, "avg: 24, max: Some(48)");
    close("day: partitions", e.partitions, 30_000.0);
    close("day: Nr", e.rows_per_partition, 24.0);
    close("day: Nr worst", e.rows_per_partition_max, 48.0);
    // Nv = 24·(4 − 3 − 0) = 24; St = 20 + 24·16 + 8·24 = 596.
    close("day: Nv", e.values, 24.0);
    close("day: St", e.partition_bytes, 596.0);
    // Worst: 20 + 48·16 + 8·48 = 1,172.
    close("day: St worst", e.partition_bytes_max, 1_172.0);
    // Table: 30,000 · 596 = 17,880,000 B; on disk · (3 + 2).
    close("day: table", e.table_bytes, 17_880_000.0);
    close("day: disk", e.disk_bytes, 89_400_000.0);
    assert!(e.growth_per_day.is_none(), "a bucket stops the growth");
    close("day: rows a day", e.rows_per_day.expect("a rate"), 24_000.0);

    // 240 readings a day in hour buckets: 1,000 · 720 = 720,000 partitions
    // of 7,200,000 / 720,000 = 10; the hour bucket is 8 bytes:
    // St = (16 + 8) + 10·16 + 8·10 = 264.
    let hour =
        "ExtraColumn(column: \"hour\", kind: Bucket(source: \"reading_time\", period: Hour))";
    let e = with(hour, "avg: 240, max: Some(480)");
    close("hour: partitions", e.partitions, 720_000.0);
    close("hour: Nr", e.rows_per_partition, 10.0);
    close("hour: St", e.partition_bytes, 264.0);

    // Day buckets in 4 shards: 120,000 partitions of 6 (worst 12);
    // K 16 + 4 + 4: St = 24 + 6·16 + 8·6 = 168.
    let e = with(
        &format!("{day}, ExtraColumn(column: \"shard\", kind: Shard(count: 4))"),
        "avg: 24, max: Some(48)",
    );
    close("shards: partitions", e.partitions, 120_000.0);
    close("shards: Nr", e.rows_per_partition, 6.0);
    close("shards: Nr worst", e.rows_per_partition_max, 12.0);
    close("shards: St", e.partition_bytes, 168.0);
}

/// Rows ordered by a time column pile up when nothing stated bounds them:
/// RATE without its rate, its counts or its retention rests on defaults
/// (1,000 sensors, 10 readings each) and is flagged as accumulating,
/// though no growth a day can be given; with the counts stated (no rate)
/// it is not.
#[test]
fn time_ordered_rows_on_defaults_accumulate() {
    let unstated = RATE
        .replace("], count: Some(1000)),", "]),")
        .replace(
            "\n      to_per_from: Some(Count(avg: 24, max: Some(48), per: Some(Day)))",
            "",
        )
        .replace(", retention_days: Some(30)", "");
    let a = analyze(&project(&unstated));
    let e = table(&a, "readings_by_sensor");
    // 1,000 assumed sensors · 10 assumed readings: Nr 10.
    close("rows", e.rows, 10_000.0);
    close("Nr", e.rows_per_partition, 10.0);
    assert!(e.accumulates && !e.retained, "{e:?}");
    assert!(e.growth_per_day.is_none() && e.rows_per_day.is_none());
    assert_eq!(e.defaults.len(), 2, "{:?}", e.defaults);

    let stated = RATE
        .replace("max: Some(48), per: Some(Day)", "max: Some(48)")
        .replace(", retention_days: Some(30)", "");
    let a = analyze(&project(&stated));
    let e = table(&a, "readings_by_sensor");
    // 1,000 · 24 = 24,000 readings, 24 a sensor (48 at worst).
    close("rows", e.rows, 24_000.0);
    close("Nr worst", e.rows_per_partition_max, 48.0);
    assert!(!e.accumulates, "{e:?}");
    assert!(e.defaults.is_empty(), "{:?}", e.defaults);
    // The largest cell outside the key: the 8-byte value.
    close("largest cell", e.largest_cell, 8.0);
}

/// A user type that contains itself is refused by validation, but the
/// library's `analyze` takes any parsed project: where the type recurs it
/// counts as one default-sized (16-byte) value, so the size is finite and
/// does not depend on an arbitrary nesting depth.
#[test]
fn a_type_that_contains_itself_counts_once_where_it_recurs() {
    let text = r#"Project(format: 1, name: "Cycle", keyspace: Keyspace(name: "c", replication: Simple(1)),
  types: [
    UserType(name: "client_info", fields: [
      Field(name: "browser", type: "text"),
      Field(name: "ip", type: "inet"),
      Field(name: "via", type: "frozen<hop>"),
    ]),
    UserType(name: "hop", fields: [
      Field(name: "back", type: "frozen<client_info>"),
      Field(name: "n", type: "int"),
    ]),
  ],
  entities: [
    Entity(name: "Visitor", key: ["visitor_id"], attributes: [
      Attribute(name: "visitor_id", type: "uuid"),
      Attribute(name: "client", type: "frozen<client_info>"),
    ], count: Some(10)),
  ],
  queries: [
    Query(id: "Q1", text: "A visitor", rows: "Visitor", equality: ["visitor_id"],
      returns: ["client"]),
  ],
)"#;
    let unvalidated = |t: &str| cqlmodel::model::load::parse(t).expect("the test project parses");
    let a = analyze(&unvalidated(text));
    let e = &a.estimates[0];
    // client_info = browser 16 (default text) + ip 4 + hop, where hop =
    // back (client_info again: 16) + n 4 = 20; so 40 bytes.
    close("largest cell", e.largest_cell, 40.0);
    // Without the cycle (back a text) the same figure: the recurrence is
    // one default-sized value, no more.
    let a = analyze(&project(&text.replace(
        "frozen<client_info>\"),\n      Field(name: \"n\"",
        "text\"),\n      Field(name: \"n\"",
    )));
    close("largest cell, no cycle", a.estimates[0].largest_cell, 40.0);
    // A type used twice side by side is not a cycle: both count whole.
    let twice = text
        .replace(
            "Field(name: \"back\", type: \"frozen<client_info>\")",
            "Field(name: \"back\", type: \"text\")",
        )
        .replace(
            "Field(name: \"via\", type: \"frozen<hop>\"),",
            "Field(name: \"via\", type: \"frozen<hop>\"),\n      Field(name: \"via2\", type: \"frozen<hop>\"),",
        );
    let a = analyze(&project(&twice));
    close(
        "largest cell, a type twice",
        a.estimates[0].largest_cell,
        16.0 + 4.0 + 20.0 + 20.0,
    );
}

const MEMBERS: &str = r#"Project(format: 1, name: "Chat", keyspace: Keyspace(name: "c", replication: Simple(1)),
  partition_keys: AllEquality,
  entities: [
    Entity(name: "User", key: ["user_id"], attributes: [Attribute(name: "user_id", type: "uuid")], count: Some(10)),
    Entity(name: "Room", key: ["room_id"], attributes: [Attribute(name: "room_id", type: "uuid")], count: Some(10)),
    Entity(name: "Message", key: ["message_id"], attributes: [
      Attribute(name: "message_id", type: "timeuuid"),
      Attribute(name: "body", type: "text", size: Some(100)),
    ]),
  ],
  relationships: [
    Relationship(name: "member", from: "User", to: "Room", cardinality: ManyToMany,
      to_per_from: Some(Count(avg: 3, max: Some(3)))),
    Relationship(name: "posted_in", from: "Room", to: "Message", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 100, max: Some(100)))),
    Relationship(name: "writes", from: "User", to: "Message", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 100, max: Some(100)))),
  ],
  queries: [
    Query(id: "Q1", text: "Messages of a user in a room", rows: "Message",
      equality: ["Room.room_id", "User.user_id"], returns: ["message_id", "body"]),
  ],
)"#;

/// Two entities in one partition key (`AllEquality` puts both there) pair
/// up only where a relationship links them: 10 users in 3 rooms each are
/// 30 pairs, not 10 · 10 = 100.
/// Links beyond every pair (stated figures that disagree: 50 rooms each
/// of 10) count as every pair, never more partitions than pairs.
#[test]
fn a_partition_of_two_linked_entities_counts_their_links() {
    let a = analyze(&project(MEMBERS));
    let e = &a.estimates[0];
    // 1,000 messages (10 rooms · 100, or 10 users · 100) in 30 pairs.
    close("rows", e.rows, 1_000.0);
    close("partitions", e.partitions, 30.0);
    close("Nr", e.rows_per_partition, 1_000.0 / 30.0);
    let a = analyze(&project(&MEMBERS.replace(
        "Count(avg: 3, max: Some(3))",
        "Count(avg: 50, max: Some(50))",
    )));
    let e = &a.estimates[0];
    close("partitions, more links than pairs", e.partitions, 100.0);
    close("Nr, more links than pairs", e.rows_per_partition, 10.0);
}

const LOOP: &str = r#"Project(format: 1, name: "Loop", keyspace: Keyspace(name: "l", replication: Simple(1)),
  entities: [
    Entity(name: "A", key: ["a_id"], attributes: [Attribute(name: "a_id", type: "uuid")]),
    Entity(name: "B", key: ["b_id"], attributes: [Attribute(name: "b_id", type: "uuid")]),
  ],
  relationships: [
    Relationship(name: "has_b", from: "A", to: "B", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 5, max: Some(10)))),
    Relationship(name: "has_a", from: "B", to: "A", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 5, max: Some(10)))),
  ],
  queries: [
    Query(id: "Q1", text: "An A", rows: "A", equality: ["a_id"], returns: ["a_id"]),
    Query(id: "Q2", text: "Bs of an A", rows: "B", equality: ["A.a_id via has_b"], returns: ["b_id"]),
  ],
)"#;

/// A has many B while B has many A: a cycle of 1:n steps counts nothing,
/// so neither count multiplies through the other (they once did, around
/// the cycle 16 times: 1.5 · 10¹⁴ rows). Both rest on the assumed 1,000,
/// and say so.
#[test]
fn a_cycle_of_one_to_many_steps_does_not_multiply_counts() {
    let a = analyze(&project(LOOP));
    let e = table(&a, "as");
    close("rows of A", e.rows, 1_000.0);
    assert!(
        e.defaults.iter().any(|n| n == "A: no count; assumed 1000"),
        "{:?}",
        e.defaults
    );
    let e = table(&a, "bs_by_a");
    close("rows of B", e.rows, 1_000.0);
    close("partitions of B", e.partitions, 1_000.0);
    assert!(
        e.defaults.iter().any(|n| n == "B: no count; assumed 1000"),
        "{:?}",
        e.defaults
    );
    // A stated count on one side ends the cycle: 20 A have 5 B each, 100
    // B in 20 partitions of 5 (worst 10).
    let stated = LOOP.replace(
        r#"attributes: [Attribute(name: "a_id", type: "uuid")])"#,
        r#"attributes: [Attribute(name: "a_id", type: "uuid")], count: Some(20))"#,
    );
    let a = analyze(&project(&stated));
    close("rows of A, stated", table(&a, "as").rows, 20.0);
    let e = table(&a, "bs_by_a");
    close("rows of B, through A", e.rows, 100.0);
    close("partitions of B, through A", e.partitions, 20.0);
    close("Nr worst of B", e.rows_per_partition_max, 10.0);
    assert!(e.defaults.is_empty(), "{:?}", e.defaults);
}

/// Entities `L0` … `L{levels}`, each `L{i}` having 2 `L{i+1}` on average
/// and 3 at most; 10 roots. The query reads the leaves by their root.
fn chain(levels: usize) -> String {
    let entities: Vec<String> = (0..=levels)
        .map(|i| {
            let count = if i == 0 { ", count: Some(10)" } else { "" };
            format!(
                r#"Entity(name: "L{i}", key: ["l{i}_id"], attributes: [Attribute(name: "l{i}_id", type: "uuid")]{count})"#
            )
        })
        .collect();
    let steps: Vec<String> = (0..levels)
        .map(|i| {
            format!(
                r#"Relationship(name: "has{i}", from: "L{i}", to: "L{}", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 2, max: Some(3))))"#,
                i + 1
            )
        })
        .collect();
    let via: Vec<String> = (0..levels).rev().map(|i| format!("has{i}")).collect();
    format!(
        r#"Project(format: 1, name: "Chain", keyspace: Keyspace(name: "c", replication: Simple(1)),
  entities: [{}],
  relationships: [{}],
  queries: [
    Query(id: "Q1", text: "the leaves of a root", rows: "L{levels}",
      equality: ["L0.l0_id via {}"], returns: ["l{levels}_id"]),
  ],
)"#,
        entities.join(",\n    "),
        steps.join(",\n    "),
        via.join(", ")
    )
}

/// Seven one-to-many steps from the leaves up to the partition's root,
/// each two on average and three at most: 2^7 = 128 rows per partition on
/// average, 3^7 = 2,187 at worst. A worst case that stopped climbing
/// after a few levels would report a partition smaller than it can be.
#[test]
fn the_worst_case_climbs_every_level_of_a_deep_hierarchy() {
    let a = analyze(&project(&chain(7)));
    let e = &a.estimates[0];
    close("rows per partition", e.rows_per_partition, 128.0);
    close(
        "rows per partition at worst",
        e.rows_per_partition_max,
        2187.0,
    );
}

/// Sensors (1,000) record 24 readings a day, kept for ever (the 365-day
/// horizon); each reading gets 2 annotations, which are kept `RETENTION`
/// days. The annotations' count goes through both steps.
const ANNOTATED: &str = r#"Project(format: 1, name: "Notes", keyspace: Keyspace(name: "n", replication: Simple(1)),
  entities: [
    Entity(name: "Sensor", key: ["sensor_id"], attributes: [
      Attribute(name: "sensor_id", type: "uuid"),
    ], count: Some(1000)),
    Entity(name: "Reading", owner: Some("records"), key: ["reading_time"], attributes: [
      Attribute(name: "reading_time", type: "timestamp"),
    ]),
    Entity(name: "Annotation", owner: Some("annotates"), key: ["seq"], attributes: [
      Attribute(name: "seq", type: "int"),
      Attribute(name: "text", type: "text", size: Some(20)),
    ]RETENTION),
    Entity(name: "Reply", owner: Some("answers"), key: ["reply_no"], attributes: [
      Attribute(name: "reply_no", type: "int"),
    ]),
  ],
  relationships: [
    Relationship(name: "records", from: "Sensor", to: "Reading", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 24, max: Some(48), per: Some(Day)))),
    Relationship(name: "annotates", from: "Reading", to: "Annotation", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 2, max: Some(4)))),
    Relationship(name: "answers", from: "Annotation", to: "Reply", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 3, max: Some(5)))),
  ],
  queries: [
    Query(id: "Q1", text: "Annotations of a sensor", rows: "Annotation",
      equality: ["Sensor.sensor_id via annotates, records"], returns: ["text"]),
    Query(id: "Q2", text: "Replies of a sensor", rows: "Reply",
      equality: ["Sensor.sensor_id via answers, annotates, records"], returns: ["reply_no"]),
  ],
)"#;

/// A count derived through a parent that accumulates over the horizon,
/// for rows kept a shorter time: only the retention's share is there, and
/// their children (3 replies each, kept as long as there are annotations)
/// count from that share. Annotations: 1,000 · 24/day · 365 days · 2, kept
/// 30 of the 365 days = 1,000 · 24 · 30 · 2 = 1,440,000; replies 4,320,000.
/// Kept 400 days, longer than the 365 days the readings are counted over:
/// the annotations' table keeps 400 days' worth (19,200,000), but an
/// annotation does not outlive the readings' span for its replies' count
/// (17,520,000 · 3).
#[test]
fn a_derived_count_keeps_only_its_retentions_share() {
    let rows = |retention: &str| {
        let a = analyze(&project(&ANNOTATED.replace("RETENTION", retention)));
        (a.estimates[0].rows, a.estimates[1].rows)
    };
    let (notes, replies) = rows(", retention_days: Some(30)");
    close("annotations kept 30 days", notes, 1_440_000.0);
    close("their replies", replies, 4_320_000.0);
    let (notes, replies) = rows(", retention_days: Some(400)");
    close("annotations kept 400 days", notes, 19_200_000.0);
    close("their replies", replies, 52_560_000.0);
    let (notes, replies) = rows("");
    close("annotations kept for ever", notes, 17_520_000.0);
    close("their replies", replies, 52_560_000.0);
}

/// Annotations with a stated count (no span of their own): a sensor's
/// partition still grows with time, because the chain up to the sensor
/// goes through the readings' daily rate.
#[test]
fn a_rate_above_a_stated_count_still_makes_the_partition_grow() {
    let a = analyze(&project(
        &ANNOTATED.replace("RETENTION", ", count: Some(5000000)"),
    ));
    let e = &a.estimates[0];
    assert!(e.accumulates, "{e:?}");
}

/// A vector of 128 floats is 128 · 4 = 512 bytes. One item a partition:
/// St = 16 (uuid key) + 1 · 512 + 8 · Nv, Nv = 1 · (2 − 1 − 0) = 1: 536.
#[test]
fn a_vector_is_its_dimension_times_its_elements_size() {
    let text = r#"Project(format: 1, name: "Vectors", keyspace: Keyspace(name: "v", replication: Simple(1)),
  entities: [
    Entity(name: "Item", key: ["item_id"], attributes: [
      Attribute(name: "item_id", type: "uuid"),
      Attribute(name: "embedding", type: "vector<float, 128>"),
    ], count: Some(1000)),
  ],
  queries: [
    Query(id: "Q1", text: "an item's embedding", rows: "Item", equality: ["item_id"],
      returns: ["embedding"]),
  ],
)"#;
    let a = analyze(&project(text));
    let e = &a.estimates[0];
    close("Nv", e.values, 1.0);
    close("St", e.partition_bytes, 16.0 + 512.0 + 8.0);
}

/// An m:n with no figures on either side, read from the `to` side (the
/// items of a tag): the assumed 10 tags an item are spread over the tags,
/// 1,000 · 10 / 200 = 50 items a tag. With a stated 0 tags the figures
/// contradict each other; the 1,000 · 10 links land in the one partition
/// an estimate always keeps, and the worst case is that partition, never
/// a division by zero (NaN).
#[test]
fn an_unstated_many_to_many_read_backwards_spreads_the_assumed_links() {
    let text = tags_as_rows()
        .replace(
            "\n      to_per_from: Some(Count(avg: 5, max: Some(30)))",
            "",
        )
        .replace(
            r#"rows: "Item", equality: ["item_id"],
      returns: ["item_id", "title", "Tag.tag"]"#,
            r#"rows: "Item", equality: ["Tag.tag"], returns: ["item_id", "title"]"#,
        );
    let a = analyze(&project(&text));
    let e = table(&a, "items_by_tag");
    close("items a tag", e.rows_per_partition, 1_000.0 * 10.0 / 200.0);
    close("items a tag, worst", e.rows_per_partition_max, 50.0);
    close("partitions", e.partitions, 200.0);
    assert_eq!(
        e.defaults.as_slice(),
        ["tagged: no count for Tag per Item; assumed 10"],
    );
    let none = text.replace("count: Some(200)", "count: Some(0)");
    let a = analyze(&project(&none));
    let e = table(&a, "items_by_tag");
    close("rows, no tags", e.rows, 10_000.0);
    close("partitions, no tags", e.partitions, 1.0);
    close("items a tag, no tags", e.rows_per_partition, 10_000.0);
    close("worst, no tags", e.rows_per_partition_max, 10_000.0);
}

/// TAGS with the items of a category: `items_by_category` (K `cat` 8 B,
/// C `item_id` 8 B, title 40 B, tags set<text> pushed up from `tagged`,
/// 10 B a tag), 100 items a category, 5 tags an item and 30 at worst.
/// Every row holds a collection of its own, so the worst partition is
/// every row at its worst: Nv = 100 · (4 − 2 − 0) = 200;
/// St = 8 + 100 · (8 + 40 + 5·10) + 8·200 = 11,408;
/// St worst = 8 + 100 · (98 + 25·10) + 8·200 = 36,408.
#[test]
fn a_pushed_up_collection_in_every_row_is_at_its_worst_in_every_row() {
    let text = TAGS
        .replace(
            r#"    Entity(name: "Tag","#,
            r#"    Entity(name: "Category", key: ["cat"], attributes: [
      Attribute(name: "cat", type: "bigint"),
    ], count: Some(10)),
    Entity(name: "Tag","#,
        )
        .replace(
            "  relationships: [\n",
            r#"  relationships: [
    Relationship(name: "holds", from: "Category", to: "Item", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 100, max: Some(100)))),
"#,
        )
        .replace(
            r#"rows: "Item", equality: ["item_id"],"#,
            r#"rows: "Item", equality: ["Category.cat"],"#,
        );
    let a = analyze(&project(&text));
    let e = table(&a, "items_by_category");
    close("Nr", e.rows_per_partition, 100.0);
    close("Nr worst", e.rows_per_partition_max, 100.0);
    close("Nv", e.values, 200.0);
    close("St", e.partition_bytes, 11_408.0);
    close("St worst", e.partition_bytes_max, 36_408.0);
    close("largest collection", e.largest_collection, 5.0);
}

/// A collection attribute (not pushed up from rows) counts its stated
/// elements as the table's largest collection (7 labels), each element
/// the attribute's stated size.
#[test]
fn a_collection_attribute_counts_its_stated_elements() {
    let text = tags_as_rows()
        .replace(
            r#"Attribute(name: "title", type: "text", size: Some(40)),"#,
            r#"Attribute(name: "title", type: "text", size: Some(40)),
      Attribute(name: "labels", type: "set<text>", size: Some(8), elements: Some(7)),"#,
        )
        .replace(
            r#"returns: ["item_id", "title", "Tag.tag"]"#,
            r#"returns: ["item_id", "labels"]"#,
        );
    let a = analyze(&project(&text));
    let e = table(&a, "items");
    close("largest collection", e.largest_collection, 7.0);
    // K item_id 8 B, labels 7 · 8 B: St = 8 + 56 + 8·1.
    close("St", e.partition_bytes, 8.0 + 56.0 + 8.0);
    assert!(e.defaults.is_empty(), "{:?}", e.defaults);
    // Without a size each label is the assumed 16 B, and says so.
    let a = analyze(&project(
        &text.replace("size: Some(8), elements", "elements"),
    ));
    let e = table(&a, "items");
    close(
        "St, sizes assumed",
        e.partition_bytes,
        8.0 + 7.0 * 16.0 + 8.0,
    );
    assert_eq!(
        e.defaults.as_slice(),
        ["Item.labels: no average size; assumed 16 bytes"]
    );
}

/// A table with no collection column has no largest collection (the
/// default 4 elements apply to collections without `elements`, not to
/// every column).
#[test]
fn a_table_without_collections_has_no_largest_collection() {
    let text = tags_as_rows().replace(
        r#"returns: ["item_id", "title", "Tag.tag"]"#,
        r#"returns: ["item_id", "title"]"#,
    );
    let a = analyze(&project(&text));
    close(
        "largest collection",
        table(&a, "items").largest_collection,
        0.0,
    );
}

/// Hotels of rooms (a room is its hotel and number) and their
/// reservations: 10 hotels, 100 rooms each, 50 reservations a room.
pub(super) const STAYS: &str = r#"Project(format: 1, name: "Stays", keyspace: Keyspace(name: "s", replication: Simple(1)),
  entities: [
    Entity(name: "Hotel", key: ["hotel_id"], attributes: [Attribute(name: "hotel_id", type: "text", size: Some(8))],
      count: Some(10)),
    Entity(name: "Room", key: ["room_id"], unique: [["Hotel.hotel_id", "room_number"]], attributes: [
      Attribute(name: "room_id", type: "uuid"), Attribute(name: "room_number", type: "smallint")]),
    Entity(name: "Reservation", key: ["reservation_id"], attributes: [
      Attribute(name: "reservation_id", type: "uuid"), Attribute(name: "start_date", type: "date")]),
  ],
  relationships: [
    Relationship(name: "has_rooms", from: "Hotel", to: "Room", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 100, max: Some(100)))),
    Relationship(name: "reserves", from: "Room", to: "Reservation", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 50, max: Some(50)))),
  ],
  queries: [
    Query(id: "Q1", text: "reservations of a room", rows: "Reservation",
      equality: ["Hotel.hotel_id", "Room.room_number"], returns: ["reservation_id", "start_date"]),
  ],
)"#;

/// A partition keyed by a room's unique (hotel, room number) counts rooms,
/// not hotels times rooms: the longest identifier the partition key holds
/// groups both columns. 10 hotels of 100 rooms, 50 reservations a room:
/// 1,000 partitions of 50.
#[test]
fn a_partition_keyed_by_a_composite_unique_counts_its_node_once() {
    let text = STAYS;
    let a = analyze(&project(text));
    let e = &a.estimates[0];
    close("rows", e.rows, 50_000.0);
    close("partitions", e.partitions, 1_000.0);
    close("Nr", e.rows_per_partition, 50.0);
    // 500 rooms stated (against 10 · 100 from the hotels; the review says
    // so): a partition per room, 500, whatever the hotels imply.
    let stated = text.replace(
        r#"Attribute(name: "room_number", type: "smallint")]),"#,
        r#"Attribute(name: "room_number", type: "smallint")], count: Some(500)),"#,
    );
    assert!(stated.contains("Some(500)"));
    let e = &analyze(&project(&stated)).estimates[0];
    close("partitions, rooms stated", e.partitions, 500.0);
}

/// RATE's readings kept 0 days hold none, and a table keeping them longer
/// has no span to scale from: it holds none either, with finite figures
/// (never 0 · ∞ = NaN).
#[test]
fn rows_kept_no_time_scale_to_nothing_in_a_longer_table() {
    let text = RATE
        .replace("retention_days: Some(30)", "retention_days: Some(0)")
        .replace(
            "\n  ],\n  queries: [",
            "\n  ],\n  decisions: [Decision(query: \"Q1\", options: TableOptions(retention: Some(\"60d\")))],\n  queries: [",
        );
    assert!(text.contains("Some(0)") && text.contains("60d"), "{text}");
    let a = analyze(&project(&text));
    let e = table(&a, "readings_by_sensor");
    close("rows", e.rows, 0.0);
    for (what, v) in [
        ("Nr", e.rows_per_partition),
        ("Nr worst", e.rows_per_partition_max),
        ("St", e.partition_bytes),
        ("St worst", e.partition_bytes_max),
    ] {
        assert!(v.is_finite(), "{what}: {v}");
    }
}

/// RATE read from the sensors' side: rows of Sensor with each of its
/// readings (24 a day, kept 30 days) are a row per reading, 720 a sensor,
/// and they accumulate over the readings' 30 days, not the sensors'
/// 365-day horizon: 24 more a day a sensor, 24,000 a day in all, bounded
/// by the readings' retention (no unbounded-partition warning).
#[test]
fn rows_multiplied_by_a_rated_step_grow_over_its_span() {
    let text = RATE.replace(
        r#"rows: "Reading", equality: ["sensor_id"],
      order: [Order(attr: "reading_time", dir: Desc)], returns: ["reading_time", "value"]"#,
        r#"rows: "Sensor", equality: ["sensor_id"],
      returns: ["Reading.reading_time", "Reading.value"]"#,
    );
    assert!(text.contains(r#"rows: "Sensor""#), "{text}");
    let a = analyze(&project(&text));
    let e = &a.estimates[0];
    close("Nr", e.rows_per_partition, 720.0);
    close("span", e.span_days, 30.0);
    assert!(e.retained && e.accumulates, "{e:?}");
    close("growth", e.growth_per_day.unwrap_or(0.0), 24.0);
    close("rows a day", e.rows_per_day.unwrap_or(0.0), 24_000.0);
    assert!(e.assumptions.is_empty(), "{:?}", e.assumptions);
    assert!(
        !a.diagnostics
            .iter()
            .any(|d| d.rule == "unbounded-partition"),
        "{:?}",
        a.diagnostics
    );
}

/// MEMBERS with the user's messages unstated (an assumed 10 a user, 10 at
/// most: ratio 1) beside the room's stated 100 (100 at most: ratio 1): the
/// worst partition is reached as surely through the stated chain, so it
/// does not rest on the assumed one, whatever the relationships' names.
#[test]
fn a_worst_case_tied_with_a_stated_chain_rests_on_no_default() {
    let text = MEMBERS.replace(
        r#"Relationship(name: "writes", from: "User", to: "Message", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 100, max: Some(100)))),"#,
        r#"Relationship(name: "authored", from: "User", to: "Message", cardinality: OneToMany),"#,
    );
    assert!(text.contains("authored"), "{text}");
    // Named before and after the room's `posted_in`: the chains are tried
    // in name order, and neither order may matter.
    let later = text.replace("authored", "wrote");
    let e = &analyze(&project(&later)).estimates[0];
    assert!(e.defaults.is_empty(), "{:?}", e.defaults);
    let a = analyze(&project(&text));
    let e = &a.estimates[0];
    close(
        "Nr worst / Nr",
        e.rows_per_partition_max / e.rows_per_partition,
        1.0,
    );
    assert!(e.defaults.is_empty(), "{:?}", e.defaults);
    assert!(
        !a.diagnostics
            .iter()
            .any(|d| d.rule == "estimate-on-defaults"),
        "{:?}",
        a.diagnostics
    );
    // With the room's maximum above its average the stated chain is the
    // worse one: 100 a room on average, 300 at most, ratio 3.
    let worse = text.replace(
        "Count(avg: 100, max: Some(100))))",
        "Count(avg: 100, max: Some(300))))",
    );
    assert!(worse.contains("Some(300)"), "{worse}");
    let e = &analyze(&project(&worse)).estimates[0];
    close(
        "Nr worst / Nr, stated worse",
        e.rows_per_partition_max / e.rows_per_partition,
        3.0,
    );
    assert!(e.defaults.is_empty(), "{:?}", e.defaults);
}

/// Two rates on the way from the rows: sites install 2 sensors a day
/// (kept 60 days) and each sensor records 24 readings a day (kept 30
/// days). A site's partition fills over the longer span, 60 days, and is
/// bounded because both are kept; with the sensors kept for ever it is
/// not bounded.
#[test]
fn rows_read_through_two_rates_fill_over_the_longer_span() {
    let text = r#"Project(format: 1, name: "Sites", keyspace: Keyspace(name: "s", replication: Simple(1)),
  entities: [
    Entity(name: "Site", key: ["site_id"], attributes: [Attribute(name: "site_id", type: "uuid")],
      count: Some(10)),
    Entity(name: "Sensor", owner: Some("installs"), key: ["sensor_no"], attributes: [
      Attribute(name: "sensor_no", type: "int")], retention_days: Some(60)),
    Entity(name: "Reading", owner: Some("records"), key: ["reading_time"], attributes: [
      Attribute(name: "reading_time", type: "timestamp"),
      Attribute(name: "value", type: "double"),
    ], retention_days: Some(30)),
  ],
  relationships: [
    Relationship(name: "installs", from: "Site", to: "Sensor", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 2, max: Some(2), per: Some(Day)))),
    Relationship(name: "records", from: "Sensor", to: "Reading", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 24, max: Some(24), per: Some(Day)))),
  ],
  queries: [
    Query(id: "Q1", text: "Readings of a site", rows: "Site", equality: ["site_id"],
      returns: ["Sensor.sensor_no", "Reading.reading_time", "Reading.value"]),
  ],
)"#;
    let a = analyze(&project(text));
    let e = &a.estimates[0];
    // 2 · 60 sensors a site, 24 · 30 readings each: 86,400 rows a site.
    close("Nr", e.rows_per_partition, 120.0 * 720.0);
    close("span", e.span_days, 60.0);
    assert!(e.retained, "{e:?}");
    close("growth", e.growth_per_day.unwrap_or(0.0), 86_400.0 / 60.0);
    let forever = text.replace(
        r#"Attribute(name: "sensor_no", type: "int")], retention_days: Some(60)),"#,
        r#"Attribute(name: "sensor_no", type: "int")]),"#,
    );
    assert!(!forever.contains("Some(60)"));
    let e = &analyze(&project(&forever)).estimates[0];
    assert!(!e.retained, "{e:?}");
    close("span, sensors kept for ever", e.span_days, 365.0);
}

/// A ladder of `levels`: `A{i}` and `B{i}` each have both `A{i-1}` and
/// `B{i-1}` as 1:n parents, so `2^levels` chains of parents climb from
/// `A{levels}` to the bottom. The query reads by `A0` along the `aa`
/// steps (each max/avg 3/1.5 = 2); every other step is 10× at worst.
fn ladder(levels: usize) -> String {
    let mut entities = vec![
        r#"Entity(name: "A0", key: ["a0"], attributes: [Attribute(name: "a0", type: "int")], count: Some(1000))"#.to_string(),
        r#"Entity(name: "B0", key: ["b0"], attributes: [Attribute(name: "b0", type: "int")], count: Some(1000))"#.to_string(),
    ];
    let mut relationships = Vec::new();
    for i in 1..=levels {
        for x in ["a", "b"] {
            let up = x.to_uppercase();
            entities.push(format!(
                r#"Entity(name: "{up}{i}", key: ["{x}{i}"], attributes: [Attribute(name: "{x}{i}", type: "int")], count: Some(1000))"#
            ));
            for (y, from) in [("a", "A"), ("b", "B")] {
                let count = if x == "a" && y == "a" {
                    "Count(avg: 1.5, max: Some(3))"
                } else {
                    "Count(avg: 1, max: Some(10))"
                };
                relationships.push(format!(
                    r#"Relationship(name: "{x}{y}{i}", from: "{from}{}", to: "{up}{i}", cardinality: OneToMany, to_per_from: Some({count}))"#,
                    i - 1
                ));
            }
        }
    }
    let via: Vec<String> = (1..=levels).rev().map(|i| format!("aa{i}")).collect();
    format!(
        r#"Project(format: 1, name: "Ladder", keyspace: Keyspace(name: "l", replication: Simple(1)),
  entities: [{}],
  relationships: [{}],
  queries: [Query(id: "Q1", text: "top rows by a bottom one", rows: "A{levels}",
      equality: ["A0.a0 via {}"], returns: ["a{levels}"])],
)"#,
        entities.join(",\n"),
        relationships.join(",\n"),
        via.join(", ")
    )
}

/// The worst partition climbs only the chain the partition key is read
/// through: 2 per `aa` step, so 2^levels, never a 10× side step. Only the
/// starts of the partition columns' paths are climbed: the 2^22 chains of
/// 22 levels were all searched before (0.7 s at 20 levels in a release
/// build, doubling per level).
#[test]
fn the_worst_case_climbs_only_toward_the_partition_key() {
    for levels in [3, 22] {
        // 1,000 rows over 1,000 values of a0: 1 a partition, 2^levels at
        // worst.
        let worst = 2f64.powi(i32::try_from(levels).unwrap_or(0));
        assert_figures(
            &format!("{levels} levels"),
            &ladder(levels),
            &[(&format!("a{levels}s_by_a0"), 1_000.0, 1_000.0, 1.0, worst)],
        );
    }
}

/// `E{levels}` under a chain of 1:n parents, 2 children each, below `E0`
/// (1,000 stated), read by its own key.
fn chain_of_parents(levels: usize) -> String {
    let mut entities = vec![
        r#"Entity(name: "E0", key: ["k0"], attributes: [Attribute(name: "k0", type: "int")], count: Some(1000))"#.to_string(),
    ];
    let mut relationships = Vec::new();
    for i in 1..=levels {
        entities.push(format!(
            r#"Entity(name: "E{i}", key: ["k{i}"], attributes: [Attribute(name: "k{i}", type: "int")])"#
        ));
        relationships.push(format!(
            r#"Relationship(name: "r{i}", from: "E{}", to: "E{i}", cardinality: OneToMany, to_per_from: Some(Count(avg: 2, max: Some(2))))"#,
            i - 1
        ));
    }
    format!(
        r#"Project(format: 1, name: "Chain", keyspace: Keyspace(name: "c", replication: Simple(1)),
  entities: [{}],
  relationships: [{}],
  queries: [Query(id: "Q1", text: "one by its key", rows: "E{levels}", equality: ["k{levels}"], returns: ["k{levels}"])],
)"#,
        entities.join(",\n"),
        relationships.join(",\n"),
    )
}

/// 1,000 · 2^levels rows, one a partition, and nothing assumed: every
/// figure is stated. A count used to follow 16 parents at most, so 20
/// levels gave 1,000 · 2^16 rows and "E4: no count; assumed 1000", a
/// warning that the estimate rests on defaults.
#[test]
fn a_count_follows_every_level_of_its_parents() {
    for levels in [3, 20, 40] {
        let rows = 1_000.0 * 2f64.powi(i32::try_from(levels).unwrap_or(0));
        let text = chain_of_parents(levels);
        let name = format!("e{levels}s");
        assert_figures(
            &format!("{levels} levels"),
            &text,
            &[(&name, rows, rows, 1.0, 1.0)],
        );
        let a = analyze(&project(&text));
        assert!(
            a.estimates[0].defaults.is_empty(),
            "{:?}",
            a.estimates[0].defaults
        );
    }
}
