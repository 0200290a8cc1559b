//! Estimates worked out by hand for a table with static columns, where the
//! values per partition (Nv) differ from the rows per partition (Nr) — the
//! case the docs' availability example (no statics, Nv = Nr) cannot check.
//!
//! The Apache Cassandra docs' formulas:
//!   Nv = Nr · (Nc − Npk − Ns) + Ns
//!   St = Σ partition key + Σ static + Nr · (Σ clustering + Σ regular) + 8 · Nv
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::derive::{Role, Source};
use cqlmodel::model::load;

/// 100 hotels, 50 rooms each on average and 200 at most; rooms are weak
/// entities of their hotel. "Rooms of a hotel" partitions by hotel, so the
/// hotel's name and phone are static.
const PROJECT: &str = r#"
Project(
    format: 1,
    name: "Statics",
    keyspace: Keyspace(name: "statics", replication: Simple(3)),
    entities: [
        Entity(
            name: "Hotel",
            key: ["hotel_id"],
            attributes: [
                Attribute(name: "hotel_id", type: "uuid"),
                Attribute(name: "name", type: "text", size: Some(20)),
                Attribute(name: "phone", type: "text", size: Some(12)),
            ],
            count: Some(100),
        ),
        Entity(
            name: "Room",
            owner: Some("has"),
            key: ["room_number"],
            attributes: [
                Attribute(name: "room_number", type: "int"),
                Attribute(name: "description", type: "text", size: Some(40)),
            ],
        ),
    ],
    relationships: [
        Relationship(
            name: "has",
            from: "Hotel",
            to: "Room",
            cardinality: OneToMany,
            to_per_from: Some(Count(avg: 50, max: Some(200))),
        ),
    ],
    queries: [
        Query(
            id: "Q1",
            text: "Rooms of a hotel, with the hotel's name and phone",
            rows: "Room",
            equality: ["Hotel.hotel_id"],
            returns: ["room_number", "description", "Hotel.name", "Hotel.phone"],
        ),
    ],
    workflow: Workflow(entry: ["Q1"]),
)
"#;

/// The role of the column holding `Owner.attr`, whatever derivation names it.
fn role_of(t: &cqlmodel::derive::Table, attribute: &str) -> Role {
    t.columns
        .iter()
        .find(|c| matches!(&c.source, Source::Attr { attribute: a, .. } if a == attribute))
        .unwrap_or_else(|| panic!("no column holds {attribute}"))
        .role
}

fn close(got: f64, want: f64, what: &str) {
    assert!(
        (got - want).abs() < 1e-6 * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

#[test]
fn static_columns_count_once_per_partition() {
    let p = load::from_str(PROJECT).expect("the project is valid");
    let a = analyze(&p);
    assert_eq!(a.model.tables.len(), 1);
    let t = &a.model.tables[0];
    let e = &a.estimates[0];

    // The layout the numbers below assume.
    assert_eq!(role_of(t, "Hotel.hotel_id"), Role::Partition);
    assert!(matches!(
        role_of(t, "Room.room_number"),
        Role::Clustering(_)
    ));
    assert_eq!(role_of(t, "Room.description"), Role::Regular);
    assert_eq!(role_of(t, "Hotel.name"), Role::Static);
    assert_eq!(role_of(t, "Hotel.phone"), Role::Static);
    assert_eq!(t.columns.len(), 5);

    // Nc = 5 columns, Npk = 2 key columns, Ns = 2 static columns.
    assert_eq!((e.columns, e.key_columns, e.static_columns), (5, 2, 2));

    // Rows: 100 hotels × 50 rooms = 5,000; one partition per hotel: 100.
    close(e.rows, 5000.0, "rows");
    close(e.partitions, 100.0, "partitions");
    // Nr = 5,000 / 100 = 50 on average; at worst 50 × (200 / 50) = 200.
    close(e.rows_per_partition, 50.0, "Nr");
    close(e.rows_per_partition_max, 200.0, "Nr worst");

    // Nv = Nr · (Nc − Npk − Ns) + Ns = 50 · (5 − 2 − 2) + 2 = 52 (not 50:
    // the two statics are one value each per partition).
    close(e.values, 50.0 * (5.0 - 2.0 - 2.0) + 2.0, "Nv");
    close(e.values, 52.0, "Nv");
    // Worst: 200 · 1 + 2 = 202.
    close(e.values_max, 202.0, "Nv worst");

    // Sizes: hotel_id uuid 16 (partition key); name 20 + phone 12 = 32
    // (static); room_number int 4 (clustering) + description 40 (regular)
    // = 44 per row.
    // St = 16 + 32 + 50 · 44 + 8 · 52 = 16 + 32 + 2,200 + 416 = 2,664.
    close(
        e.partition_bytes,
        16.0 + 32.0 + 50.0 * 44.0 + 8.0 * 52.0,
        "St",
    );
    close(e.partition_bytes, 2664.0, "St");
    // Worst: 16 + 32 + 200 · 44 + 8 · 202 = 48 + 8,800 + 1,616 = 10,464.
    close(e.partition_bytes_max, 10_464.0, "St worst");

    // The table: 100 partitions × 2,664 bytes = 266,400; on disk × RF 3.
    close(e.table_bytes, 266_400.0, "table bytes");
    close(e.disk_bytes, 799_200.0, "disk bytes");
    assert!(e.assumptions.is_empty(), "{:?}", e.assumptions);
}
