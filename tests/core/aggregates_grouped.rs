//! Aggregates per member of a group that is not searched by equality
//! (issue 39, rule 5): "the hourly average temperature of every sensor of
//! a network" is one row per sensor and hour under the network's
//! partition, `((network), sensor, hour)`; "unread emails per folder label
//! of a user" counts only the rows a constant filter keeps, one row per
//! label, `((username), label)`.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use super::support;
use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::{Role, Rule, Table};
use cqlmodel::model::load::from_str;

const SENSORS: &str = r#"Project(format: 1, name: "Sensors", keyspace: Keyspace(name: "s", replication: Simple(1)),
  entities: [
    Entity(name: "Network", key: ["name"], attributes: [
      Attribute(name: "name", type: "text", size: Some(12)),
    ], count: Some(100)),
    Entity(name: "Sensor", key: ["sensor"], attributes: [
      Attribute(name: "sensor", type: "text", size: Some(6)),
    ]),
    Entity(name: "Temperature", owner: Some("records"), key: ["timestamp"], attributes: [
      Attribute(name: "timestamp", type: "timestamp"),
      Attribute(name: "value", type: "float"),
    ], retention_days: Some(30.0)),
  ],
  relationships: [
    Relationship(name: "has_sensors", from: "Network", to: "Sensor", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 100, max: Some(1000)))),
    Relationship(name: "records", from: "Sensor", to: "Temperature", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 1440, per: Some(Day)))),
  ],
  queries: [
    Query(id: "Q1", text: "Hourly average temperature of every sensor of a network", rows: "Temperature",
      equality: ["Network.name"], group: ["Sensor.sensor"],
      window: Some(Window(attr: "timestamp", period: Hour)),
      aggregates: [Aggregate(function: Avg, attr: Some("value"), column: Some("avg_temperature"))],
      returns: []),
  ],
)"#;

const EMAILS: &str = r#"Project(format: 1, name: "Mail", keyspace: Keyspace(name: "m", replication: Simple(1)),
  entities: [
    Entity(name: "User", key: ["username"], attributes: [
      Attribute(name: "username", type: "text", size: Some(12)),
    ], count: Some(1000)),
    Entity(name: "Email", owner: Some("receives"), key: ["id"], attributes: [
      Attribute(name: "id", type: "timeuuid"),
      Attribute(name: "label", type: "text", size: Some(8), distinct: Some(6.0)),
      Attribute(name: "is_read", type: "boolean", mutable: true),
    ]),
  ],
  relationships: [
    Relationship(name: "receives", from: "User", to: "Email", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 500, max: Some(5000)))),
  ],
  queries: [
    Query(id: "Q1", text: "Unread emails per folder label of a user", rows: "Email",
      equality: ["User.username"], group: ["label"],
      constants: [Constant(attr: "is_read", value: "false")],
      aggregates: [Aggregate(function: Count)],
      returns: []),
  ],
)"#;

fn analysed(text: &str) -> Analysis {
    analyze(&from_str(text).unwrap_or_else(|e| panic!("{e:?}")))
}

/// (name, is partition) of the key columns in order.
fn key(t: &Table) -> Vec<(String, bool)> {
    t.columns
        .iter()
        .filter_map(|c| match c.role {
            Role::Partition => Some((c.name.to_string(), true)),
            Role::Clustering(_) => Some((c.name.to_string(), false)),
            _ => None,
        })
        .collect()
}

fn table_of<'a>(a: &'a Analysis, query: &str) -> &'a Table {
    a.model
        .table_of(query)
        .unwrap_or_else(|| panic!("no table serves {query}: {:?}", a.model.tables))
}

fn errors(a: &Analysis) -> Vec<String> {
    a.diagnostics.iter().map(|d| d.rule.to_string()).collect()
}

#[test]
fn hourly_average_per_sensor_clusters_sensor_before_the_hour() {
    let a = analysed(SENSORS);
    let t = table_of(&a, "Q1");
    assert_eq!(
        key(t),
        vec![
            ("network_name".to_string(), true),
            ("sensor".to_string(), false),
            ("hour".to_string(), false),
        ],
        "{t:?}"
    );
    let aggs: Vec<&str> = t
        .columns
        .iter()
        .filter(|c| c.rule == Rule::Aggregate)
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(aggs, vec!["avg_temperature"]);
    let r = errors(&a);
    assert!(!r.iter().any(|x| x == "query-unservable"), "{r:?}");
}

#[test]
fn unread_count_per_label_groups_by_label_and_states_the_filter() {
    let a = analysed(EMAILS);
    let t = table_of(&a, "Q1");
    assert_eq!(
        key(t),
        vec![
            ("user_username".to_string(), true),
            ("label".to_string(), false)
        ],
        "{t:?}"
    );
    // The constant filters which rows count: it is no column of the table.
    assert!(
        !t.columns.iter().any(|c| c.name.as_str() == "is_read"),
        "{t:?}"
    );
    let count = t
        .columns
        .iter()
        .find(|c| c.rule == Rule::Aggregate)
        .unwrap_or_else(|| panic!("no count: {t:?}"));
    assert_eq!(count.ty.to_string(), "counter", "{count:?}");
    assert_eq!(
        count.why_text(),
        "counts only the rows where is_read = false"
    );
    let r = errors(&a);
    assert!(
        !r.iter()
            .any(|x| x == "query-unservable" || x == "table-serves-no-query"),
        "{r:?}"
    );
}

#[test]
fn a_group_member_must_resolve_and_not_be_searched_by_equality() {
    let bad = EMAILS.replace(r#"group: ["label"]"#, r#"group: ["User.username", "nope"]"#);
    let e = from_str(&bad)
        .err()
        .map(|e| format!("{e:?}"))
        .unwrap_or_default();
    assert!(e.contains("queries[0].group[0]"), "{e}");
    assert!(e.contains("queries[0].group[1]"), "{e}");
}

/// Both summaries' schemas pass cqlcheck: the sensor one a plain table
/// (an average is no counter), the email one a counter table.
#[test]
fn grouped_summaries_export_cql_that_passes_cqlcheck() {
    let Some(tool) = support::cqlcheck() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    for (n, text) in [SENSORS, EMAILS].into_iter().enumerate() {
        let p = from_str(text).unwrap_or_else(|e| panic!("{e:?}"));
        let a = analyze(&p);
        assert!(a.model.problems.is_empty(), "{:?}", a.model.problems);
        let cql = cqlmodel::output::cql::script(&p, &a.model);
        assert!(cql.contains("PRIMARY KEY"), "{cql}");
        // The email counter states which rows it counts.
        assert_eq!(
            cql.contains("-- only rows where is_read = false"),
            n == 1,
            "{cql}"
        );
        let file = dir.path().join(format!("grouped{n}.cql"));
        std::fs::write(&file, &cql).expect("write");
        if let Err(said) = support::cqlcheck_file(&tool, &file) {
            panic!("cqlcheck refused\n{said}\n{cql}");
        }
    }
}

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() < 1e-6 * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

/// A grouped summary's partition holds a row per member and window.
#[test]
fn a_partition_holds_a_row_per_group_member_and_window() {
    let a = analysed(SENSORS);
    let e = &a.estimates[0];
    // 100 networks; 100 sensors each; 30 days of retention = 720 hours:
    // 100 × 720 = 72,000 rows per partition, 7,200,000 in all.
    close(e.partitions, 100.0, "sensor partitions");
    close(e.rows_per_partition, 72_000.0, "sensor Nr");
    close(e.rows, 7_200_000.0, "sensor rows");
    let a = analysed(EMAILS);
    let e = &a.estimates[0];
    // 1,000 users; 6 labels each (the label's distinct count), no window.
    close(e.partitions, 1000.0, "email partitions");
    close(e.rows_per_partition, 6.0, "email Nr");
    close(e.rows, 6000.0, "email rows");
}

/// A range on the window needs the clustering columns before it bound:
/// the members then follow the window, `((network_name), hour DESC,
/// sensor)`, as in the published sensor design.
#[test]
fn a_range_of_windows_puts_the_members_after_the_window() {
    let text = SENSORS.replace(
        r#"group: ["Sensor.sensor"],"#,
        r#"group: ["Sensor.sensor"], range: Some(Range(attr: "timestamp", op: Between)),
      order: [Order(attr: "timestamp", dir: Desc)],"#,
    );
    let a = analysed(&text);
    let t = table_of(&a, "Q1");
    assert_eq!(
        key(t),
        vec![
            ("network_name".to_string(), true),
            ("hour".to_string(), false),
            ("sensor".to_string(), false),
        ],
        "{t:?}"
    );
    let r = errors(&a);
    assert!(!r.iter().any(|x| x == "query-unservable"), "{r:?}");
}

/// A group member an entity key names counts that entity's instances per
/// partition (40 sensors a network, not the assumed 100 distinct values of
/// an attribute), and a windowed summary grows by a row per member each
/// window: 40 × 24 = 960 rows a day per network, 96,000 in all.
#[test]
fn members_an_entity_key_names_are_its_instances_and_windows_grow() {
    let text = SENSORS.replace(
        "Count(avg: 100, max: Some(1000))",
        "Count(avg: 40, max: Some(1000))",
    );
    let a = analysed(&text);
    let e = &a.estimates[0];
    // 40 sensors × 720 hours kept = 28,800 rows a network.
    close(e.partitions, 100.0, "partitions");
    close(e.rows_per_partition, 40.0 * 720.0, "Nr");
    close(e.rows, 100.0 * 40.0 * 720.0, "rows");
    close(e.growth_per_day.unwrap_or(0.0), 960.0, "growth a day");
    close(e.rows_per_day.unwrap_or(0.0), 96_000.0, "rows a day");
    assert!(e.accumulates);
    // No window: a row per label, however many emails arrive.
    let a = analysed(EMAILS);
    let e = &a.estimates[0];
    assert_eq!(e.growth_per_day, None);
    assert_eq!(e.rows_per_day, None);
}

/// Reservations counted per room of a hotel: a room number names a room
/// only with its hotel, and the hotel is the partition, so the members of
/// a partition are the hotel's 100 rooms, not the 300 distinct room
/// numbers of all hotels.
#[test]
fn members_named_with_the_partition_key_are_that_nodes_instances() {
    let text = &super::estimate_formulas::STAYS
        .replace(
            r#"Attribute(name: "room_number", type: "smallint")"#,
            r#"Attribute(name: "room_number", type: "smallint", distinct: Some(300.0))"#,
        )
        .replace(
            r#"Query(id: "Q1", text: "reservations of a room", rows: "Reservation",
      equality: ["Hotel.hotel_id", "Room.room_number"], returns: ["reservation_id", "start_date"]),"#,
            r#"Query(id: "Q1", text: "Reservations per room of a hotel", rows: "Reservation",
      equality: ["Hotel.hotel_id"], group: ["Room.room_number"],
      aggregates: [Aggregate(function: Count)], returns: []),"#,
        );
    assert!(text.contains("group:") && text.contains("300.0"), "{text}");
    let a = analysed(text);
    let t = table_of(&a, "Q1");
    assert_eq!(
        key(t),
        vec![
            ("hotel_id".to_string(), true),
            ("room_number".to_string(), false)
        ],
        "{t:?}"
    );
    let e = &a.estimates[0];
    close(e.partitions, 10.0, "partitions");
    close(e.rows_per_partition, 100.0, "Nr");
    close(e.rows, 1_000.0, "rows");
    // Grouped by the room number alone (no hotel in the partition key):
    // its 300 distinct values.
    let e = &analysed(&text.replace(
        r#"equality: ["Hotel.hotel_id"], group: ["Room.room_number"]"#,
        r#"equality: ["start_date"], group: ["Room.room_number"]"#,
    ))
    .estimates[0];
    close(e.rows_per_partition, 300.0, "Nr, grouped across hotels");
}
