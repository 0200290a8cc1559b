//! A range on the time a timeuuid `encodes` (issue 39, rule 1): "trades of
//! an account between two dates, newest first" is served by the table of
//! "trades of an account, newest first", `((account_number), id DESC)`,
//! with the times bound through `minTimeuuid`/`maxTimeuuid`; with an
//! equality filter before the id, `((account_number), type, id DESC)`.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::{Role, Table};
use cqlmodel::model::load::from_str;
use cqlmodel::model::Dir;

const TRADES: &str = r#"Project(format: 1, name: "Trades", keyspace: Keyspace(name: "t", replication: Simple(1)),
  entities: [
    Entity(name: "Account", key: ["account_number"], attributes: [
      Attribute(name: "account_number", type: "text", size: Some(12)),
    ], count: Some(1000)),
    Entity(name: "Trade", owner: Some("places"), key: ["id"], attributes: [
      Attribute(name: "id", type: "timeuuid", encodes: Some("placed_at")),
      Attribute(name: "placed_at", type: "timestamp"),
      Attribute(name: "type", type: "text", size: Some(4)),
      Attribute(name: "amount", type: "decimal"),
    ]),
  ],
  relationships: [
    Relationship(name: "places", from: "Account", to: "Trade", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 2000, max: Some(5000)))),
  ],
  queries: [QUERIES],
)"#;

const NEWEST: &str = r#"Query(id: "Q1", text: "Trades of an account, newest first", rows: "Trade",
      equality: ["Account.account_number"], order: [Order(attr: "placed_at", dir: Desc)],
      returns: ["id", "type", "amount"])"#;

fn between(id: &str, op: &str, filter: &str) -> String {
    format!(
        r#"Query(id: "{id}", text: "Trades of an account in a period", rows: "Trade",
      equality: ["Account.account_number"{filter}], range: Some(Range(attr: "placed_at", op: {op})),
      order: [Order(attr: "placed_at", dir: Desc)], returns: ["id", "type", "amount"])"#
    )
}

fn analysed(queries: &[String]) -> Analysis {
    let text = TRADES.replace("QUERIES", &queries.join(",\n    "));
    analyze(&from_str(&text).unwrap_or_else(|e| panic!("{e:?}")))
}

/// (name, direction) of the key columns: partition (None) then clustering.
fn key(t: &Table) -> Vec<(String, Option<Dir>)> {
    t.columns
        .iter()
        .filter_map(|c| match c.role {
            Role::Partition => Some((c.name.to_string(), None)),
            Role::Clustering(d) => Some((c.name.to_string(), Some(d))),
            _ => None,
        })
        .collect()
}

fn table_of<'a>(a: &'a Analysis, query: &str) -> &'a Table {
    a.model
        .table_of(query)
        .unwrap_or_else(|| panic!("no table serves {query}: {:?}", a.model.tables))
}

fn select<'a>(a: &'a Analysis, query: &str) -> &'a str {
    a.model
        .plan(query)
        .unwrap_or_else(|| panic!("no plan for {query}"))
        .select
        .as_str()
}

fn rules(a: &Analysis) -> Vec<String> {
    a.diagnostics.iter().map(|d| d.rule.to_string()).collect()
}

#[test]
fn a_range_on_an_encoded_time_shares_the_newest_first_table() {
    let a = analysed(&[NEWEST.to_string(), between("Q2", "Between", "")]);
    assert_eq!(a.model.tables.len(), 1, "{:?}", a.model.tables);
    let t = table_of(&a, "Q2");
    assert_eq!(
        key(t),
        vec![
            ("account_number".to_string(), None),
            ("id".to_string(), Some(Dir::Desc)),
        ]
    );
    assert_eq!(
        select(&a, "Q2"),
        "SELECT id, type, amount FROM t.trades_by_account WHERE account_number = ? \
         AND id >= minTimeuuid(?) AND id <= maxTimeuuid(?) ORDER BY id DESC;"
    );
    assert!(!select(&a, "Q2").contains("ALLOW FILTERING"));
    let r = rules(&a);
    assert!(
        !r.iter()
            .any(|x| x == "query-unservable" || x == "table-serves-no-query"),
        "{r:?}"
    );
}

/// Each operator keeps exactly the timeuuids of its times: an inclusive
/// bound the far end of its millisecond, an exclusive one the near end.
#[test]
fn every_range_operator_bounds_the_timeuuid_exactly() {
    for (op, clause) in [
        ("Lt", "id < minTimeuuid(?)"),
        ("Le", "id <= maxTimeuuid(?)"),
        ("Gt", "id > maxTimeuuid(?)"),
        ("Ge", "id >= minTimeuuid(?)"),
    ] {
        let a = analysed(&[between("Q2", op, "")]);
        let s = select(&a, "Q2");
        assert!(
            s.contains(&format!(
                "WHERE account_number = ? AND {clause} ORDER BY id DESC;"
            )),
            "{op}: {s}"
        );
    }
}

/// An equality filter before the id: `((account_number), type, id DESC)`
/// (an account's few thousand trades filtered by type), named by the time.
#[test]
fn an_equality_filter_leads_the_encoded_range() {
    let a = analysed(&[between("Q3", "Between", r#", "type""#)]);
    let t = table_of(&a, "Q3");
    assert_eq!(
        key(t),
        vec![
            ("account_number".to_string(), None),
            ("type".to_string(), Some(Dir::Asc)),
            ("id".to_string(), Some(Dir::Desc)),
        ]
    );
    assert_eq!(t.name.as_str(), "trades_by_account_type_placed_at");
    assert!(select(&a, "Q3").contains(
        "WHERE account_number = ? AND type = ? AND id >= minTimeuuid(?) AND id <= maxTimeuuid(?) ORDER BY id DESC;"
    ));
}

/// A range on a time no timeuuid encodes stays a range on that time.
#[test]
fn a_range_on_a_plain_time_is_unchanged() {
    let a = analysed(&[between("Q2", "Between", "")]);
    let plain = TRADES.replace(r#", encodes: Some("placed_at")"#, "");
    let text = plain.replace("QUERIES", &between("Q2", "Between", ""));
    let b = analyze(&from_str(&text).unwrap_or_else(|e| panic!("{e:?}")));
    assert!(
        select(&b, "Q2").contains("placed_at >= ? AND placed_at <= ?"),
        "{}",
        select(&b, "Q2")
    );
    assert!(!select(&b, "Q2").contains("Timeuuid"));
    assert!(select(&a, "Q2").contains("minTimeuuid"));
}

/// The schema and every SELECT (a literal for each marker: a time inside
/// `minTimeuuid`/`maxTimeuuid`, text elsewhere) pass cqlcheck.
#[test]
fn the_timeuuid_bounds_pass_cqlcheck() {
    let queries = [
        NEWEST.replace(
            r#"returns: ["id", "type", "amount"]"#,
            r#"returns: ["id", "placed_at", "amount"]"#,
        ),
        between("Q2", "Between", ""),
        between("Q3", "Between", r#", "type""#),
        between("Q4", "Gt", ""),
    ];
    let a = analysed(&queries);
    let Some(tool) = super::support::cqlcheck() else {
        return;
    };
    let text = TRADES.replace("QUERIES", &queries.join(",\n    "));
    let p = from_str(&text).unwrap_or_else(|e| panic!("{e:?}"));
    let selects = cqlmodel::output::cql::selects(&a.model)
        .replace("Timeuuid(?)", "Timeuuid('2026-05-09 10:00:00+0000')")
        .replace('?', "'x'");
    assert!(
        selects.contains("toTimestamp(id) AS placed_at"),
        "{selects}"
    );
    assert_eq!(
        selects.matches("minTimeuuid('2026").count() + selects.matches("maxTimeuuid('2026").count(),
        5,
        "{selects}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("trades.cql");
    let cql = format!("{}\n{selects}", cqlmodel::output::cql::script(&p, &a.model));
    std::fs::write(&file, &cql).expect("write");
    if let Err(said) = super::support::cqlcheck_file(&tool, &file) {
        panic!("cqlcheck refused\n{said}\n{cql}");
    }
}

/// The time a timeuuid carries is read back from it, as published designs
/// do (`toTimestamp(id)`), not stored twice; `stored: true` keeps it.
#[test]
fn a_returned_encoded_time_is_computed_from_its_timeuuid() {
    let q = NEWEST.replace(
        r#"returns: ["id", "type", "amount"]"#,
        r#"returns: ["id", "placed_at", "amount"]"#,
    );
    let a = analysed(&[
        q.clone(),
        between("Q2", "Between", "").replace(r#""type""#, r#""placed_at""#),
    ]);
    assert_eq!(a.model.tables.len(), 1, "{:?}", a.model.tables);
    let t = table_of(&a, "Q1");
    assert!(t.column("placed_at").is_none(), "{:?}", t.columns);
    assert_eq!(
        select(&a, "Q1"),
        "SELECT id, toTimestamp(id) AS placed_at, amount FROM t.trades_by_account \
         WHERE account_number = ? ORDER BY id DESC;"
    );
    assert!(select(&a, "Q2").starts_with("SELECT id, toTimestamp(id) AS placed_at, amount FROM"));
    let r = rules(&a);
    assert!(
        !r.iter()
            .any(|x| x == "query-unservable" || x == "table-serves-no-query"),
        "{r:?}"
    );
    // Kept by the designer: a column of its own, read as it is.
    let text = TRADES
        .replace(
            r#"Attribute(name: "placed_at", type: "timestamp")"#,
            r#"Attribute(name: "placed_at", type: "timestamp", stored: true)"#,
        )
        .replace("QUERIES", &q);
    let b = analyze(&from_str(&text).unwrap_or_else(|e| panic!("{e:?}")));
    assert!(table_of(&b, "Q1").column("placed_at").is_some());
    assert!(
        select(&b, "Q1").starts_with("SELECT id, placed_at, amount FROM"),
        "{}",
        select(&b, "Q1")
    );
    // A returned time whose timeuuid the table does not hold is stored.
    let no_id = NEWEST
        .replace(
            r#"returns: ["id", "type", "amount"]"#,
            r#"returns: ["placed_at"]"#,
        )
        .replace(r#"order: [Order(attr: "placed_at", dir: Desc)],"#, "");
    let c = analysed(&[no_id]);
    let t = table_of(&c, "Q1");
    // The rows' key (the id) is appended, so the time is still computed.
    assert!(t.column("id").is_some());
    assert!(
        select(&c, "Q1").contains("toTimestamp(id) AS placed_at"),
        "{}",
        select(&c, "Q1")
    );
}

/// The `NoSQLBench` workload binds times to `minTimeuuid`/`maxTimeuuid`, not
/// the timeuuids themselves (a UUID is no `timestamp`: the driver refuses
/// it), drawn as the ids are so that each bound is the time an id encodes.
#[test]
fn the_nosqlbench_read_binds_times_to_the_timeuuid_bounds() {
    let p = from_str(&TRADES.replace(
        "QUERIES",
        &[NEWEST.to_string(), between("Q2", "Between", "")].join(",\n    "),
    ))
    .unwrap_or_else(|e| panic!("{e:?}"));
    let a = analyze(&p);
    let c = cqlmodel::derive::cost::cost(&p, &a.model, &a.estimates);
    let text = cqlmodel::output::loadtest::nosqlbench(&p, &a, &c);
    let y = yaml_rust::YamlLoader::load_from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let main = &y[0]["blocks"]["main"];
    let read = main["ops"]["read_Q2"]["prepared"]
        .as_str()
        .unwrap_or_else(|| panic!("{text}"));
    assert_eq!(
        read,
        "SELECT id, type, amount FROM t.trades_by_account WHERE account_number = \
         {trades_by_account__account_number} AND id >= minTimeuuid({trades_by_account__id__time}) \
         AND id <= maxTimeuuid({trades_by_account__id__time}) ORDER BY id DESC"
    );
    // 2,000 trades per account on average, at most 5,000: uniform(1..3999)
    // has that mean, so ids are drawn from 3,999 values per partition, and
    // the times from the same 3,999 milliseconds (`ToEpochTimeUUID` and
    // `ToJavaInstant` both read the number as epoch milliseconds).
    let bindings = &main["bindings"];
    assert_eq!(
        bindings["trades_by_account__id"].as_str(),
        Some("Hash(); Mod(3999L); ToEpochTimeUUID() -> java.util.UUID")
    );
    assert_eq!(
        bindings["trades_by_account__id__time"].as_str(),
        Some("Hash(); Mod(3999L); ToJavaInstant() -> java.time.Instant")
    );
    // A read with no time range binds no time.
    let newest = main["ops"]["read_Q1"]["prepared"]
        .as_str()
        .unwrap_or_default();
    assert!(!newest.contains("__time"), "{newest}");
}

/// cassandra-stress binds each `?` to the generated value of the column the
/// marker is named after; `minTimeuuid(?)`'s marker is the function's
/// argument, no column, so the profile bounds the timeuuid by the row's own
/// id (`fields: samerow`), the same slice of one partition.
#[test]
fn the_stress_profile_bounds_the_timeuuid_by_the_row_id() {
    let p = from_str(&TRADES.replace(
        "QUERIES",
        &[NEWEST.to_string(), between("Q2", "Between", "")].join(",\n    "),
    ))
    .unwrap_or_else(|e| panic!("{e:?}"));
    let a = analyze(&p);
    let c = cqlmodel::derive::cost::cost(&p, &a.model, &a.estimates);
    let files = cqlmodel::output::loadtest::cassandra_stress(&p, &a, &c);
    let (_, text) = files
        .iter()
        .find(|(f, _)| f == "trades_by_account.yaml")
        .unwrap_or_else(|| panic!("{files:?}"));
    assert!(
        text.contains("# q2 bounds id by the row's own id"),
        "{text}"
    );
    let y = yaml_rust::YamlLoader::load_from_str(text).unwrap_or_else(|e| panic!("{e}"));
    let queries = &y[0]["queries"];
    assert_eq!(
        queries["q2"]["cql"].as_str(),
        Some(
            "SELECT id, type, amount FROM t.trades_by_account WHERE account_number = ? \
             AND id >= ? AND id <= ? ORDER BY id DESC"
        )
    );
    assert_eq!(
        queries["q1"]["cql"].as_str(),
        Some("SELECT id, type, amount FROM t.trades_by_account WHERE account_number = ? ORDER BY id DESC")
    );
}

/// `minTimeuuid`, `maxTimeuuid` and `toTimestamp` take a timeuuid: a time
/// carried by another type (a `bigint` sequence that `encodes` it, which
/// still orders the rows) is bounded and returned by its own column, as
/// Cassandra refuses `bigint >= minTimeuuid(…)` and `toTimestamp(bigint)`.
#[test]
fn only_a_timeuuid_is_bounded_and_read_back_as_a_time() {
    let q1 = NEWEST.replace(
        r#"returns: ["id", "type", "amount"]"#,
        r#"returns: ["id", "placed_at", "amount"]"#,
    );
    let queries = [q1, between("Q2", "Between", "")];
    let text = TRADES
        .replace(r#"type: "timeuuid", encodes"#, r#"type: "bigint", encodes"#)
        .replace("QUERIES", &queries.join(",\n    "));
    let a = analyze(&from_str(&text).unwrap_or_else(|e| panic!("{e:?}")));
    for q in ["Q1", "Q2"] {
        let s = select(&a, q);
        assert!(
            !s.contains("Timeuuid(") && !s.contains("toTimestamp("),
            "{q}: {s}"
        );
        assert!(table_of(&a, q).column("placed_at").is_some(), "{q}");
    }
    assert!(
        select(&a, "Q2").contains("placed_at >= ? AND placed_at <= ?"),
        "{}",
        select(&a, "Q2")
    );
}

/// A timeuuid carries a time: a range on anything else it is said to
/// `encode` (a text) cannot be bounded by `minTimeuuid`/`maxTimeuuid` of
/// it, so the range stays on that attribute's own column.
#[test]
fn a_range_on_what_is_no_time_stays_on_its_column() {
    let q = r#"Query(id: "Q2", text: "Trades of an account by type range", rows: "Trade",
      equality: ["Account.account_number"], range: Some(Range(attr: "type", op: Ge)),
      returns: ["id", "amount"])"#;
    let text = TRADES
        .replace(r#"encodes: Some("placed_at")"#, r#"encodes: Some("type")"#)
        .replace("QUERIES", q);
    let a = analyze(&from_str(&text).unwrap_or_else(|e| panic!("{e:?}")));
    let s = select(&a, "Q2");
    assert!(!s.contains("Timeuuid("), "{s}");
    assert!(s.contains("type >= ?"), "{s}");
}
