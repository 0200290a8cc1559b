//! `check --against` on a live schema that drifted from the model: a
//! change that breaks a query's SELECT fails the command, and every
//! difference is listed, columns the live table has included.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::support::run_cqlmodel as cqlmodel;
use std::path::Path;
use std::process::Output;

/// The hotel sample's own export, with `edit` applied to its text.
fn against(edit: impl Fn(&str) -> String) -> (Output, String) {
    let dir = tempfile::tempdir().expect("tempdir");
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/hotel.cqlm.ron");
    std::fs::copy(&sample, dir.path().join("hotel.cqlm.ron")).expect("copy");
    let cql = cqlmodel(&["cql", "hotel.cqlm.ron"], dir.path());
    assert!(cql.status.success());
    let live = edit(&String::from_utf8_lossy(&cql.stdout));
    std::fs::write(dir.path().join("live.cql"), &live).expect("write");
    let out = cqlmodel(
        &["check", "hotel.cqlm.ron", "--against", "live.cql"],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    (out, text)
}

#[test]
fn the_models_own_schema_has_no_drift() {
    let (out, text) = against(str::to_string);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(!text.contains("BREAKS"), "{text}");
    assert!(!text.contains("not in the model"), "{text}");
}

#[test]
fn a_lost_clustering_column_breaks_the_query() {
    // Q7's table without room_number: its SELECT orders by it.
    let (out, text) = against(|cql| {
        cql.replace(
            "    PRIMARY KEY ((hotel_id, start_date), room_number, confirm_number)\n) WITH CLUSTERING ORDER BY (room_number ASC, confirm_number ASC)",
            "    PRIMARY KEY ((hotel_id, start_date), confirm_number)\n) WITH CLUSTERING ORDER BY (confirm_number ASC)",
        )
    });
    assert_eq!(out.status.code(), Some(1), "{text}");
    let q7 = text
        .lines()
        .find(|l| l.starts_with("Q7:"))
        .expect("Q7's line");
    assert!(q7.contains("BREAKS"), "{text}");
    assert!(
        !text.contains("schema table reservations_by_hotel_date: no query"),
        "the broken table is Q7's, not unused: {text}"
    );
    assert!(
        text.contains("clustering is (confirm_number ASC) in the schema"),
        "{text}"
    );
}

/// Q7 orders by its first clustering column alone: a flipped second one
/// changes nothing its SELECT asks (listed, not breaking). A query ordered
/// by two columns breaks when one of them flips.
#[test]
fn a_flipped_direction_breaks_only_a_query_ordered_by_it() {
    let (out, text) = against(|cql| {
        cql.replace(
            "CLUSTERING ORDER BY (room_number ASC, confirm_number ASC)",
            "CLUSTERING ORDER BY (room_number ASC, confirm_number DESC)",
        )
    });
    let q7 = text
        .lines()
        .find(|l| l.starts_with("Q7:"))
        .expect("Q7's line");
    assert!(
        q7.contains("answered directly") && !q7.contains("BREAKS"),
        "{text}"
    );
    assert!(
        text.contains("confirm_number DESC) in the schema"),
        "{text}"
    );
    assert_eq!(out.status.code(), Some(0), "{text}");

    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("feed.cqlm.ron"),
        r#"Project(
    format: 1,
    name: "feed",
    keyspace: Keyspace(name: "feed", replication: Simple(1)),
    entities: [
        Entity(name: "User", key: ["user_id"], attributes: [Attribute(name: "user_id", type: "uuid")]),
        Entity(name: "Post", owner: Some("writes"), key: ["day", "post_id"], attributes: [
            Attribute(name: "day", type: "date"),
            Attribute(name: "post_id", type: "timeuuid"),
            Attribute(name: "body", type: "text"),
        ]),
    ],
    relationships: [Relationship(name: "writes", from: "User", to: "Post", cardinality: OneToMany)],
    queries: [Query(id: "Q1", text: "A user's posts, newest day first, oldest post first", rows: "Post",
        equality: ["User.user_id"], order: [Order(attr: "day", dir: Desc), Order(attr: "post_id", dir: Asc)],
        returns: ["day", "post_id", "body"])],
    workflow: Workflow(entry: ["Q1"]),
)"#,
    )
    .expect("write");
    let cql = cqlmodel(&["cql", "feed.cqlm.ron"], dir.path());
    let cql = String::from_utf8_lossy(&cql.stdout).into_owned();
    assert!(
        cql.contains("CLUSTERING ORDER BY (day DESC, post_id ASC)"),
        "{cql}"
    );
    let live = cql.replace("(day DESC, post_id ASC)", "(day DESC, post_id DESC)");
    std::fs::write(dir.path().join("live.cql"), live).expect("write");
    let out = cqlmodel(
        &["check", "feed.cqlm.ron", "--against", "live.cql"],
        dir.path(),
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("BREAKS"), "{text}");
    assert!(text.contains("the model's SELECT:"), "{text}");
    assert_eq!(out.status.code(), Some(1), "{text}");
}

#[test]
fn columns_only_the_live_table_has_are_listed() {
    let (out, text) = against(|cql| {
        cql.replace(
            "    guest_id       uuid,\n    PRIMARY KEY ((hotel_id, start_date)",
            "    guest_id       uuid,\n    loyalty_tier   text,\n    PRIMARY KEY ((hotel_id, start_date)",
        )
    });
    assert!(
        text.contains("column loyalty_tier (text) is in the schema but not in the model"),
        "{text}"
    );
    // An extra column breaks no query.
    assert_eq!(out.status.code(), Some(0), "{text}");
}
