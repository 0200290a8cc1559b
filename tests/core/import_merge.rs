//! Import folds tables into one entity only when they hold the same thing:
//! the same key columns, the same columns, every type agreeing. Tables that
//! merely share key column names stay apart, so no option, hint or rename
//! crosses from one to the other; a merge is said in the import's report.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::lifecycle::import::{import, Level};
use cqlmodel::model::load;

const KS: &str =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n";

/// The entity each table's query reads, by table name.
fn entity_of(p: &cqlmodel::model::Project, table: &str) -> String {
    let d = p
        .decisions
        .iter()
        .find(|d| d.name.as_deref() == Some(table))
        .unwrap_or_else(|| panic!("no decision for {table}"));
    let q = p
        .queries
        .iter()
        .find(|q| q.id == d.query)
        .unwrap_or_else(|| panic!("no query for {table}"));
    q.rows.clone()
}

fn notes(i: &cqlmodel::lifecycle::import::Import) -> Vec<String> {
    i.messages
        .iter()
        .filter(|m| m.level == Level::Note)
        .map(ToString::to_string)
        .collect()
}

/// Three tables keyed by `id uuid` holding different things: a user, a
/// session and a cart. Each is its own entity; the user table's TTL stays
/// on it; no `write-amplification` hint claims an insert writes three
/// tables; renaming the user's `name` cannot touch the cart.
#[test]
fn tables_sharing_only_key_names_stay_apart() {
    let schema = format!(
        "{KS}CREATE TABLE ks.users (id uuid PRIMARY KEY, name text, email text);\n\
         CREATE TABLE ks.sessions (id uuid PRIMARY KEY, started timestamp) WITH default_time_to_live = 14515200;\n\
         CREATE TABLE ks.carts (id uuid PRIMARY KEY, name text, items list<text>);\n"
    );
    let imported = import(&schema);
    assert!(load::validate(&imported.project).is_empty());
    let p = &imported.project;
    let (u, s, c) = (
        entity_of(p, "users"),
        entity_of(p, "sessions"),
        entity_of(p, "carts"),
    );
    assert_ne!(u, s);
    assert_ne!(u, c);
    assert_ne!(s, c);
    assert_eq!(p.entities.len(), 3);
    assert!(notes(&imported).is_empty(), "{:?}", notes(&imported));
    let a = analyze(p);
    // 14515200 s = 168 days, on sessions only.
    assert_eq!(
        a.model.table("sessions").expect("sessions").ttl_seconds,
        Some(14_515_200)
    );
    assert_eq!(a.model.table("users").expect("users").ttl_seconds, None);
    assert_eq!(a.model.table("carts").expect("carts").ttl_seconds, None);
    let amplified: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.rule == "write-amplification")
        .map(|d| d.message().to_string())
        .collect();
    assert!(amplified.is_empty(), "{amplified:?}");
    // Each entity has exactly its table's columns.
    let users = p.entity(&u).expect("users' entity");
    let names: Vec<&str> = users.attributes.iter().map(|a| a.name.as_str()).collect();
    assert_eq!(names, ["id", "name", "email"]);
}

/// The same columns with one type disagreeing (`score int` against
/// `score bigint`) are two things; a column more on one side too.
#[test]
fn a_type_or_column_difference_keeps_tables_apart() {
    for second in [
        "CREATE TABLE ks.b (id uuid, day date, score bigint, PRIMARY KEY (id, day));",
        "CREATE TABLE ks.b (id uuid, day date, score int, extra text, PRIMARY KEY (id, day));",
        "CREATE TABLE ks.b (id uuid, day date, PRIMARY KEY (id, day));",
        "CREATE TABLE ks.b (id uuid, day timestamp, score int, PRIMARY KEY (id, day));",
    ] {
        let schema = format!(
            "{KS}CREATE TABLE ks.a (id uuid, day date, score int, PRIMARY KEY (id, day));\n{second}\n"
        );
        let imported = import(&schema);
        let p = &imported.project;
        assert!(load::validate(p).is_empty(), "{second}");
        assert_ne!(entity_of(p, "a"), entity_of(p, "b"), "{second}");
        assert!(notes(&imported).is_empty(), "{second}");
    }
}

/// The same rows under two keys (by user, by video) are one entity, as a
/// designer would model them, and the report says which tables were
/// folded together and why. Each table keeps its own options.
#[test]
fn tables_holding_the_same_rows_merge_and_say_so() {
    let schema = format!(
        "{KS}CREATE TABLE ks.ratings_by_user (user_id uuid, video_id uuid, rating int, PRIMARY KEY (user_id, video_id));\n\
         CREATE TABLE ks.ratings_by_video (video_id uuid, user_id uuid, rating int, PRIMARY KEY (video_id, user_id)) WITH gc_grace_seconds = 3600;\n"
    );
    let imported = import(&schema);
    let p = &imported.project;
    assert!(load::validate(p).is_empty());
    assert_eq!(
        entity_of(p, "ratings_by_user"),
        entity_of(p, "ratings_by_video")
    );
    assert_eq!(p.entities.len(), 1);
    let said = notes(&imported);
    assert_eq!(said.len(), 1, "{said:?}");
    assert!(
        said[0].contains("ratings_by_video") && said[0].contains("ratings_by_user"),
        "{said:?}"
    );
    assert!(said[0].contains("same key columns"), "{said:?}");
    let a = analyze(p);
    assert_eq!(
        a.model
            .table("ratings_by_video")
            .expect("by video")
            .physical
            .gc_grace
            .value,
        Some(3_600)
    );
    assert_eq!(
        a.model
            .table("ratings_by_user")
            .expect("by user")
            .physical
            .gc_grace
            .value,
        None
    );
}
