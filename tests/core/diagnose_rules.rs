//! Every review rule, triggered and not, on a small log-message project
//! (seed 000's worked example, cut down).
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::derive::estimate::estimate;
use cqlmodel::derive::{derive, Access};
use cqlmodel::model::{load, Candidate, Decision, Order, Period, Project, Query, Transition};
use cqlmodel::review::diagnose::{diagnose, Diagnostic, Refinement, Severity, Subject, RULES};
use std::collections::BTreeSet;

const BASE: &str = r#"
Project(
    format: 1,
    name: "Logs",
    keyspace: Keyspace(name: "logs", replication: Simple(3)),
    entities: [
        Entity(
            name: "Source",
            key: ["source_id"],
            attributes: [
                Attribute(name: "source_id", type: "text", size: Some(12)),
                Attribute(name: "kind", type: "text", size: Some(10), distinct: Some(20)),
            ],
            count: Some(1000),
        ),
        Entity(
            name: "Message",
            owner: Some("emits"),
            key: ["message_time"],
            attributes: [
                Attribute(name: "message_time", type: "timestamp"),
                Attribute(name: "body", type: "text", size: Some(200)),
                Attribute(name: "trace_id", type: "uuid"),
                Attribute(name: "level", type: "text", size: Some(5), distinct: Some(5)),
                Attribute(name: "tags", type: "set<text>", size: Some(8), elements: Some(4)),
            ],
        ),
    ],
    relationships: [
        Relationship(
            name: "emits",
            from: "Source",
            to: "Message",
            cardinality: OneToMany,
            to_per_from: Some(Count(avg: 10000, per: Some(Day))),
        ),
    ],
    queries: [
        Query(
            id: "Q1",
            text: "Most recent messages of a source",
            rows: "Message",
            equality: ["Source.source_id"],
            order: [Order(attr: "message_time", dir: Desc)],
            limit: Some(10),
            returns: ["body"],
        ),
    ],
    workflow: Workflow(entry: ["Q1"]),
)
"#;

fn base() -> Project {
    load::from_str(BASE).expect("the base project is valid")
}

fn check(p: &Project) -> Vec<Diagnostic> {
    let problems = load::validate(p);
    assert!(problems.is_empty(), "{problems:?}");
    analyze(p).diagnostics
}

fn with(p: &Project, rule: &str) -> Vec<Diagnostic> {
    check(p).into_iter().filter(|d| d.rule == rule).collect()
}

thread_local! {
    /// Rules seen firing and seen quiet on this thread: the meta-test runs
    /// every rule test on its own thread and reads them back.
    static SEEN: std::cell::RefCell<(BTreeSet<String>, BTreeSet<String>)> =
        std::cell::RefCell::default();
}

fn fires(p: &Project, rule: &str) -> Diagnostic {
    fires_in(&check(p), rule)
}

fn fires_in(all: &[Diagnostic], rule: &str) -> Diagnostic {
    SEEN.with(|s| s.borrow_mut().0.insert(rule.to_string()));
    match all.iter().find(|d| d.rule == rule) {
        Some(d) => d.clone(),
        None => panic!(
            "{rule} did not fire; got {:#?}",
            all.iter().map(|d| d.rule).collect::<Vec<_>>()
        ),
    }
}

fn quiet(p: &Project, rule: &str) {
    SEEN.with(|s| s.borrow_mut().1.insert(rule.to_string()));
    let hits = with(p, rule);
    assert!(hits.is_empty(), "{rule} fired: {hits:#?}");
}

fn bucket(p: &mut Project, q: &str, period: Period) {
    p.decision_mut(q)
        .partition_extra
        .push(cqlmodel::model::ExtraColumn {
            column: period.name().into(),
            kind: cqlmodel::model::ExtraKind::Bucket {
                source: "message_time".into(),
                period,
            },
        });
}

fn query(id: &str, eq: &[&str], returns: &[&str]) -> Query {
    let mut q = Query::new(id, id, "Message");
    q.equality = eq.iter().map(std::string::ToString::to_string).collect();
    q.returns = returns
        .iter()
        .map(std::string::ToString::to_string)
        .collect();
    q
}

#[test]
fn every_documented_rule_has_a_source_and_severity() {
    assert!(RULES.len() >= 20);
    for r in RULES {
        assert!(!r.source.is_empty(), "{}", r.id);
    }
}

#[test]
fn diagnostics_are_sorted_errors_first_and_deterministic() {
    let mut p = counter_project();
    p.queries[0].consumes = true;
    p.queries[1].returns.push("kind".into());
    let a = check(&p);
    assert!(a.iter().any(|d| d.severity == Severity::Error));
    let b = check(&p);
    assert_eq!(a, b);
    assert!(a.windows(2).all(|w| w[0].severity <= w[1].severity));
    for d in &a {
        let info = cqlmodel::review::diagnose::rule(d.rule).expect("documented");
        assert_eq!(info.severity, d.severity, "{}", d.rule);
        assert_eq!(info.source, d.source);
    }
}

#[test]
fn partition_too_large_and_its_bucket() {
    let p = base();
    let d = fires(&p, "partition-too-large");
    assert!(matches!(
        d.refinement.as_deref(),
        Some(Refinement::AddBucket { period: Period::Week, source, .. }) if source == "message_time"
    ));
    let mut ok = base();
    bucket(&mut ok, "Q1", Period::Week);
    quiet(&ok, "partition-too-large");
    // Thresholds are the project's.
    ok.thresholds.max_values = 5_000.0;
    fires(&ok, "partition-too-large");
}

#[test]
fn worst_case_counts_as_well_as_the_average() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/hotel.cqlm.ron"
    );
    let mut p = load::read(std::path::Path::new(path)).expect("hotel loads");
    quiet(&p, "partition-too-large");
    // Hotels near one point of interest (the partition of hotels_by_poi):
    // 12.5 on average, 100,000 at worst.
    let near = p
        .relationships
        .iter_mut()
        .find(|r| r.name == "near")
        .expect("near");
    near.from_per_to.as_mut().expect("count").max = Some(100_000.0);
    let d = fires(&p, "partition-too-large");
    assert_eq!(d.subject, Subject::Table("hotels_by_poi".into()));
    assert!(d.message().contains("37.5 values"), "{}", d.message());
    assert!(d.message().contains("300,000 values"), "{}", d.message());
}

#[test]
fn partition_cell_limit() {
    let mut p = base();
    quiet(&p, "partition-cell-limit");
    p.relationships[0].to_per_from.as_mut().expect("count").avg = 10_000_000.0;
    let d = fires(&p, "partition-cell-limit");
    assert_eq!(d.severity, Severity::Error);
    quiet(&p, "partition-too-large");
}

#[test]
fn unbounded_partition_without_bucket_or_ttl() {
    let p = base();
    let d = fires(&p, "unbounded-partition");
    assert!(d.message().contains("10,000 a day"), "{}", d.message());
    assert!(d.message().contains("3,650,000 rows"), "{}", d.message());
    let mut b = base();
    bucket(&mut b, "Q1", Period::Day);
    quiet(&b, "unbounded-partition");
    let mut t = base();
    t.entities[1].retention_days = Some(30.0);
    t.entities[1].ttl = true;
    quiet(&t, "unbounded-partition");
    quiet(&t, "retention-without-ttl");
}

/// Orders and carts, each with time-ordered children (status changes,
/// items added) and no figures: the same shape twice.
const HISTORIES: &str = r#"
Project(
    format: 1,
    name: "Shop",
    keyspace: Keyspace(name: "shop", replication: Simple(3)),
    entities: [
        Entity(name: "Order", key: ["order_id"], attributes: [Attribute(name: "order_id", type: "uuid")]),
        Entity(
            name: "StatusChange",
            owner: Some("has_changes"),
            key: ["changed_at"],
            attributes: [
                Attribute(name: "changed_at", type: "timestamp"),
                Attribute(name: "status", type: "text"),
            ],
        ),
        Entity(name: "Cart", key: ["cart_id"], attributes: [Attribute(name: "cart_id", type: "uuid")]),
        Entity(
            name: "CartItem",
            owner: Some("holds"),
            key: ["added_at"],
            attributes: [
                Attribute(name: "added_at", type: "timestamp"),
                Attribute(name: "sku", type: "text"),
            ],
        ),
    ],
    relationships: [
        Relationship(name: "has_changes", from: "Order", to: "StatusChange", cardinality: OneToMany),
        Relationship(name: "holds", from: "Cart", to: "CartItem", cardinality: OneToMany),
    ],
    queries: [
        Query(
            id: "Q1",
            text: "Status history of an order, newest first",
            rows: "StatusChange",
            equality: ["Order.order_id"],
            order: [Order(attr: "changed_at", dir: Desc)],
            returns: ["status"],
        ),
        Query(
            id: "Q2",
            text: "Items of a cart, newest first",
            rows: "CartItem",
            equality: ["Cart.cart_id"],
            order: [Order(attr: "added_at", dir: Desc)],
            returns: ["sku"],
        ),
    ],
    workflow: Workflow(entry: ["Q1", "Q2"]),
)
"#;

/// One order's status history with no figures is not "growing for as
/// long as the application runs": the finding says what is known (no
/// figure bounds it) and names the figure that would (a `max` on the
/// relationship, a retention). Stating the `max` silences it.
#[test]
fn unbounded_partition_names_the_figure_that_would_bound_it() {
    let mut p = load::from_str(HISTORIES).expect("valid");
    let all = check(&p);
    fires_in(&all, "unbounded-partition");
    let d = all
        .iter()
        .find(|d| {
            d.rule == "unbounded-partition"
                && d.subject == Subject::Table("status_changes_by_order".into())
        })
        .expect("on the orders' table");
    let m = d.message();
    assert!(!m.contains("as long as the application runs"), "{m}");
    assert!(m.contains("no stated figure bounds"), "{m}");
    assert!(m.contains("`max` in has_changes's to_per_from"), "{m}");
    assert!(m.contains("a retention"), "{m}");
    p.relationships[0].to_per_from = Some(cqlmodel::model::Count {
        avg: 5.0,
        max: Some(20.0),
        per: None,
    });
    let after = check(&p);
    assert!(
        !after.iter().any(|d| d.rule == "unbounded-partition"
            && d.subject == Subject::Table("status_changes_by_order".into())),
        "{after:#?}"
    );
}

/// Two tables of the same shape (an order's status changes, a cart's
/// items: the same keys, types, figures and query) get the same findings,
/// worded the same up to their names.
#[test]
fn tables_of_the_same_shape_get_the_same_findings() {
    let p = load::from_str(HISTORIES).expect("valid");
    let all = check(&p);
    let on = |table: &str| -> Vec<(String, String)> {
        all.iter()
            .filter(|d| match &d.subject {
                Subject::Table(t) | Subject::Column { table: t, .. } => t == table,
                _ => false,
            })
            .map(|d| (d.rule.to_string(), d.message().to_string()))
            .collect()
    };
    let orders = on("status_changes_by_order");
    assert!(!orders.is_empty(), "{all:#?}");
    let renamed: Vec<(String, String)> = on("cart_items_by_cart")
        .into_iter()
        .map(|(r, m)| {
            let m = m
                .replace("cart_items_by_cart", "status_changes_by_order")
                .replace("CartItem", "StatusChange")
                .replace("holds", "has_changes")
                .replace("added_at", "changed_at")
                .replace("sku", "status")
                .replace("Cart", "Order")
                .replace("cart", "order");
            (r, m)
        })
        .collect();
    assert_eq!(orders, renamed);
}

#[test]
fn retention_without_ttl_is_a_hint() {
    let mut p = base();
    quiet(&p, "retention-without-ttl");
    p.entities[1].retention_days = Some(30.0);
    let d = fires(&p, "retention-without-ttl");
    assert_eq!(d.severity, Severity::Hint);
    assert_eq!(d.subject, Subject::Entity("Message".into()));
    // The retention bounds the partition.
    quiet(&p, "unbounded-partition");
}

#[test]
fn hot_partition_few_values() {
    let mut p = base();
    quiet(&p, "hot-partition");
    p.queries
        .push(query("Q2", &["Source.kind"], &["body"]).into());
    p.workflow.entry.push("Q2".into());
    let d = fires(&p, "hot-partition");
    assert!(
        d.message().contains("about 20 distinct values"),
        "{}",
        d.message()
    );
    assert!(matches!(
        d.refinement.as_deref(),
        Some(Refinement::AddShard { .. })
    ));
}

#[test]
fn hot_partition_time_alone() {
    let mut p = base();
    let mut q = Query::new("Q2", "Messages of an hour", "Message");
    q.order = vec![Order {
        attr: "message_time".into(),
        dir: cqlmodel::model::Dir::Desc,
    }];
    q.returns = vec!["body".into()];
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    // No equality: one constant partition.
    let d = fires(&p, "hot-partition");
    assert!(d.message().contains("one partition"), "{}", d.message());
    // A bucket alone is a time value alone.
    bucket(&mut p, "Q2", Period::Hour);
    let hits = with(&p, "hot-partition");
    assert!(
        hits.iter()
            .any(|d| d.message().contains("time value alone")),
        "{hits:#?}"
    );
    // A shard spreads it.
    p.decision_mut("Q2")
        .partition_extra
        .push(cqlmodel::model::ExtraColumn {
            column: "shard".into(),
            kind: cqlmodel::model::ExtraKind::Shard { count: 8 },
        });
    assert!(with(&p, "hot-partition")
        .iter()
        .all(|d| !d.message().contains("time value alone")));
}

/// With no stated write rate, a time-only partition key is no finding
/// (it is hot only above 100 writes a second, and nothing says so); few
/// partitions are still reported, worded as an assumption. A stated rate
/// decides: 11.6 writes a second (1,000,000 a day) into the hour's
/// partition is calm, 115.7 (10,000,000 a day) is not.
#[test]
fn hot_partition_is_judged_by_a_stated_rate_only() {
    let mut p = base();
    let mut q = Query::new("Q2", "Messages of an hour", "Message");
    q.order = vec![Order {
        attr: "message_time".into(),
        dir: cqlmodel::model::Dir::Desc,
    }];
    q.returns = vec!["body".into()];
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    bucket(&mut p, "Q2", Period::Hour);
    let time_alone = |p: &Project| {
        with(p, "hot-partition")
            .into_iter()
            .any(|d| d.message().contains("time value alone"))
    };
    // No rate: sources counted, messages per source without `per`.
    let mut no_rate = p.clone();
    no_rate.relationships[0].to_per_from = Some(cqlmodel::model::Count {
        avg: 10_000.0,
        max: None,
        per: None,
    });
    assert!(
        !time_alone(&no_rate),
        "{:#?}",
        with(&no_rate, "hot-partition")
    );
    // 1,000 sources × 1,000 a day = 1,000,000 a day: 11.6 a second.
    let mut calm = p.clone();
    calm.relationships[0].to_per_from = Some(cqlmodel::model::Count {
        avg: 1_000.0,
        max: None,
        per: Some(Period::Day),
    });
    assert!(!time_alone(&calm));
    // The base's 1,000 × 10,000 a day: 115.7 a second.
    assert!(time_alone(&p));

    // Few partitions with no rate: reported, saying the heat is assumed.
    let mut few = base();
    few.relationships[0].to_per_from = Some(cqlmodel::model::Count {
        avg: 10_000.0,
        max: None,
        per: None,
    });
    few.queries
        .push(query("Q2", &["Source.kind"], &["body"]).into());
    few.workflow.entry.push("Q2".into());
    let d = fires(&few, "hot-partition");
    assert!(
        d.message().contains("no write rate is stated"),
        "{}",
        d.message()
    );
}

#[test]
fn rows_overwrite_with_a_candidate_missing_the_key() {
    let mut p = base();
    quiet(&p, "rows-overwrite");
    let d = p.decision_mut("Q1");
    d.candidates.push(Candidate {
        name: "by_source".into(),
        partition: vec!["source_id".into()],
        clustering: vec![],
        indexes: vec![],
    });
    d.use_candidate = Some("by_source".into());
    let d = fires(&p, "rows-overwrite");
    assert_eq!(d.severity, Severity::Error);
    assert!(d.message().contains("message_time"), "{}", d.message());
}

#[test]
fn timestamp_key_and_timeuuid() {
    // Alerts identified by the time they were raised alone: any two
    // monitors raising one in the same millisecond write the same key.
    let mut p = base();
    let mut alert = p.entities[0].clone();
    alert.name = "Alert".into();
    alert.key = vec!["raised_at".into()];
    alert.attributes = vec![
        cqlmodel::model::Attribute::new("raised_at", "timestamp".parse().expect("type")),
        cqlmodel::model::Attribute::new("kind", "text".parse().expect("type")),
    ];
    alert.attributes[1].distinct = Some(20.0);
    p.entities.push(alert);
    let mut q = Query::new("Q2", "Alerts of a kind, newest first", "Alert");
    q.equality = vec!["kind".into()];
    q.order = vec![Order {
        attr: "raised_at".into(),
        dir: cqlmodel::model::Dir::Desc,
    }];
    q.returns = vec!["raised_at".into()];
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    let d = fires(&p, "timestamp-key");
    assert!(d.message().contains("raised_at"), "{}", d.message());
    assert!(d.message().contains("two writers"), "{}", d.message());
    let r = *d.refinement.clone().expect("a refinement");
    assert_eq!(
        r,
        Refinement::Timeuuid {
            query: "Q2".into(),
            column: "raised_at".into()
        }
    );
    let fixed = cqlmodel::edit::refine::apply(&p, &r).expect("applies");
    quiet(&fixed, "timestamp-key");

    // A uuid or bigint id after the timestamp tells the rows apart.
    for ty in ["uuid", "bigint"] {
        let mut with_id = p.clone();
        let a = &mut with_id.entities[2];
        a.key.push("alert_id".into());
        a.attributes.push(cqlmodel::model::Attribute::new(
            "alert_id",
            ty.parse().expect("type"),
        ));
        quiet(&with_id, "timestamp-key");
    }

    // A source's messages keyed by their time: the timestamp identifies a
    // message within its one writer (the weak entity's owner), so no
    // other writer can produce the same key.
    quiet(&base(), "timestamp-key");
}

#[test]
fn mutable_key() {
    let mut p = base();
    p.queries
        .push(query("Q2", &["Source.kind"], &["body"]).into());
    p.workflow.entry.push("Q2".into());
    quiet(&p, "mutable-key");
    p.entities[0].attributes[1].mutable = true;
    let d = fires(&p, "mutable-key");
    assert!(d.message().contains("Source.kind"), "{}", d.message());
}

#[test]
fn queue() {
    let mut p = base();
    quiet(&p, "queue");
    p.queries[0].consumes = true;
    let d = fires(&p, "queue");
    assert_eq!(d.subject, Subject::Query("Q1".into()));
}

fn counter_project() -> Project {
    let mut p = base();
    p.entities[0]
        .attributes
        .push(cqlmodel::model::Attribute::new(
            "messages",
            "counter".parse().expect("type"),
        ));
    let mut q = Query::new("Q2", "Message count of a source", "Source");
    q.equality = vec!["source_id".into()];
    q.returns = vec!["messages".into()];
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    p
}

#[test]
fn counters_retry_and_mixing() {
    quiet(&base(), "counter-retry");
    quiet(&base(), "counter-mixed");
    let mut p = counter_project();
    fires(&p, "counter-retry");
    quiet(&p, "counter-mixed");
    p.queries[1].returns.push("kind".into());
    let d = fires(&p, "counter-mixed");
    assert!(d.message().contains("kind"), "{}", d.message());
}

#[test]
fn counters_as_ids() {
    let mut p = counter_project();
    quiet(&p, "counter-as-id");
    p.entities[0]
        .attributes
        .push(cqlmodel::model::Attribute::new(
            "next_id",
            "counter".parse().expect("type"),
        ));
    fires(&p, "counter-as-id");
}

#[test]
fn queries_that_need_filtering_or_cannot_be_served() {
    let mut p = base();
    quiet(&p, "query-needs-filtering");
    p.queries.push(query("Q2", &["body"], &["body"]).into());
    p.workflow.entry.push("Q2".into());
    p.decision_mut("Q2").served_by = Some("Q1".into());
    let d = fires(&p, "query-needs-filtering");
    assert!(
        d.message().contains("partition key not fully restricted"),
        "{}",
        d.message()
    );
    quiet(&p, "query-unservable");
    // ORDER BY a regular column cannot be served at all.
    p.queries[1].equality = vec!["Source.source_id".into()];
    p.queries[1].order = vec![Order {
        attr: "body".into(),
        dir: cqlmodel::model::Dir::Asc,
    }];
    let d = fires(&p, "query-unservable");
    assert!(
        d.message().contains("not a clustering column"),
        "{}",
        d.message()
    );
}

#[test]
fn secondary_indexes() {
    let mut p = base();
    p.queries[0]
        .returns
        .extend(["trace_id".to_string(), "level".to_string()]);
    bucket(&mut p, "Q1", Period::Day);
    p.decision_mut("Q1").indexes = vec!["level".into()];
    quiet(&p, "index-high-cardinality");
    quiet(&p, "index-frequent-updates");
    p.decision_mut("Q1").indexes.push("trace_id".into());
    let d = fires(&p, "index-high-cardinality");
    assert!(matches!(d.subject, Subject::Column { ref column, .. } if column == "trace_id"));
    p.entities[1].attributes[3].mutable = true;
    fires(&p, "index-frequent-updates");
}

#[test]
fn large_values_and_collections() {
    let mut p = base();
    p.queries[0].returns.push("tags".into());
    quiet(&p, "large-value");
    quiet(&p, "large-collection");
    p.entities[1].attributes[1].size = Some(2.0 * 1024.0 * 1024.0);
    let d = fires(&p, "large-value");
    assert!(matches!(d.subject, Subject::Column { ref column, .. } if column == "body"));
    p.entities[1].attributes[4].elements = Some(100_000.0);
    fires(&p, "large-collection");
}

#[test]
fn pushed_up_collection_too_large_suggests_rows_again() {
    let mut p = base();
    // Source rows with their messages pushed up into one collection.
    let mut q = Query::new("Q2", "Source with its messages", "Source");
    q.equality = vec!["source_id".into()];
    q.returns = vec!["kind".into(), "Message.body".into()];
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    p.decision_mut("Q2").collections = vec!["emits".into()];
    let d = fires(&p, "large-collection");
    assert!(matches!(
        d.refinement.as_deref(),
        Some(Refinement::Uncollection { .. })
    ));
    p.relationships[0].to_per_from = Some(cqlmodel::model::Count {
        avg: 10.0,
        max: None,
        per: None,
    });
    quiet(&p, "large-collection");
}

#[test]
fn write_amplification_with_a_logged_batch() {
    let mut p = base();
    p.queries.push(query("Q2", &["level"], &["body"]).into());
    p.workflow.entry.push("Q2".into());
    quiet(&p, "write-amplification");
    let mut q3 = query("Q3", &["trace_id"], &["body"]);
    q3.id = "Q3".into();
    p.queries.push(q3.into());
    p.workflow.entry.push("Q3".into());
    let d = fires(&p, "write-amplification");
    assert_eq!(d.subject, Subject::Entity("Message".into()));
    assert!(
        d.fix().contains("BEGIN BATCH\nINSERT INTO logs."),
        "{}",
        d.fix()
    );
    assert_eq!(d.fix().matches("INSERT INTO").count(), 3, "{}", d.fix());
    assert!(d.fix().ends_with("APPLY BATCH;"), "{}", d.fix());
    assert!(d.fix().contains("VALUES (?, ?"), "{}", d.fix());
}

#[test]
fn workflow_gaps() {
    let mut p = base();
    quiet(&p, "workflow-input-gap");
    p.queries.push(query("Q2", &["trace_id"], &["body"]).into());
    let d = fires(&p, "workflow-input-gap");
    assert_eq!(d.subject, Subject::Query("Q2".into()));
    // Reached from Q1, but nothing provides trace_id.
    p.workflow.transitions.push(Transition {
        from: "Q1".into(),
        to: "Q2".into(),
        feeds: vec![],
    });
    let d = fires(&p, "workflow-input-gap");
    assert!(d.message().contains("trace_id"), "{}", d.message());
    // Q1 returns it now.
    p.queries[0].returns.push("trace_id".into());
    quiet(&p, "workflow-input-gap");
}

#[test]
fn no_workflow_is_a_hint() {
    let mut p = base();
    quiet(&p, "no-workflow");
    p.workflow.entry.clear();
    assert_eq!(fires(&p, "no-workflow").severity, Severity::Hint);
}

#[test]
fn tables_serving_no_query_and_queries_without_table() {
    let mut p = base();
    quiet(&p, "table-serves-no-query");
    let d: &mut Decision = p.decision_mut("Q1");
    d.candidates.push(Candidate {
        name: "by_time".into(),
        partition: vec!["message_time".into()],
        clustering: vec![Order {
            attr: "source_id".into(),
            dir: cqlmodel::model::Dir::Asc,
        }],
        indexes: vec![],
    });
    d.use_candidate = Some("by_time".into());
    fires(&p, "table-serves-no-query");
    fires(&p, "query-unservable");

    // A plan without a table (only a broken project has one).
    let p = base();
    let mut model = derive(&p);
    let est = estimate(&p, &model);
    quiet(&p, "query-without-table");
    model.plans[0].table = None;
    model.plans[0].access = Access::Impossible("no table serves this query".into());
    let ds = diagnose(&p, &model, &est);
    let d = fires_in(&ds, "query-without-table");
    assert_eq!(d.severity, Severity::Error);
}

#[test]
fn a_decision_naming_a_missing_column_is_a_derivation_error() {
    let mut p = base();
    quiet(&p, "derivation");
    p.decision_mut("Q1").flip.push("mesage_time".into());
    let d = fires(&p, "derivation");
    assert_eq!(d.severity, Severity::Error);
    assert!(d.message().contains("mesage_time"), "{}", d.message());
    // Every decision field that names a column says so when the name is wrong.
    for field in ["promote", "timeuuid", "indexes", "collections"] {
        let mut p = base();
        let d = p.decision_mut("Q1");
        match field {
            "promote" => d.promote.push("levl".into()),
            "timeuuid" => d.timeuuid.push("levl".into()),
            "indexes" => d.indexes.push("levl".into()),
            _ => d.collections.push("levl".into()),
        }
        let hits = with(&p, "derivation");
        assert!(
            hits.iter().any(|d| d.message().contains("levl")),
            "{field}: {hits:#?}"
        );
    }
}

/// Every rule the review knows fires on some fixture of this file and stays
/// quiet on another: the rule tests run here again, on this thread, and
/// report what they saw.
/// Adds an attribute of `ty` to Message and returns it from Q1.
fn with_message_attr(name: &str, ty: &str) -> Project {
    let mut p = base();
    p.entities[1]
        .attributes
        .push(cqlmodel::model::Attribute::new(
            name,
            ty.parse().expect("type"),
        ));
    p.queries[0].returns.push(name.into());
    p
}

#[test]
fn a_duration_in_the_primary_key_is_an_error() {
    let mut p = with_message_attr("spent", "duration");
    let mut q = query("Q2", &["spent"], &["body"]);
    q.text = "Messages by time spent".into();
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    let d = fires(&p, "duration-key");
    assert_eq!(d.severity, Severity::Error);
    quiet(&with_message_attr("spent", "duration"), "duration-key");
}

#[test]
fn a_set_of_durations_is_an_error() {
    let d = fires(
        &with_message_attr("spans", "set<duration>"),
        "duration-in-set",
    );
    assert_eq!(d.severity, Severity::Error);
    quiet(
        &with_message_attr("spans", "list<duration>"),
        "duration-in-set",
    );
}

#[test]
fn a_counter_inside_a_collection_is_an_error() {
    let d = fires(
        &with_message_attr("hits", "list<counter>"),
        "counter-nested",
    );
    assert_eq!(d.severity, Severity::Error);
    quiet(&with_message_attr("hits", "list<int>"), "counter-nested");
}

#[test]
fn merging_regular_columns_into_a_counter_table_is_an_error() {
    let mut p = counter_project();
    quiet(&p, "counter-merge");
    let mut q = Query::new("Q3", "Kind of a source", "Source");
    q.equality = vec!["source_id".into()];
    q.returns = vec!["kind".into()];
    p.queries.push(q.into());
    p.workflow.entry.push("Q3".into());
    p.decision_mut("Q3").served_by = Some("Q2".into());
    let d = fires(&p, "counter-merge");
    assert_eq!(d.severity, Severity::Error);
}

#[test]
fn a_query_with_no_search_is_a_full_scan() {
    let mut p = base();
    quiet(&p, "full-scan");
    let mut q = query("Q2", &[], &["body"]);
    q.text = "Every message".into();
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    fires(&p, "full-scan");
}

/// A query with no equality search whose SELECT still names the whole
/// partition key has one partition by design (a constant, a day bucket):
/// it reads one partition, not every one. Its own `hot-partition` and
/// size findings say what that costs; `full-scan` would be a false alarm.
#[test]
fn a_select_naming_the_whole_partition_key_is_not_a_full_scan() {
    // Errors of every source, a constant the only search.
    let mut p = base();
    let mut q = query("Q2", &[], &["body"]);
    q.text = "Error messages".into();
    q.constants = vec![cqlmodel::model::Constant {
        attr: "level".into(),
        value: "ERROR".into(),
    }];
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    let select = analyze(&p)
        .model
        .plan("Q2")
        .expect("plan")
        .select
        .to_string();
    assert!(select.contains("level = 'ERROR'"), "{select}");
    quiet(&p, "full-scan");

    // Today's messages: a day bucket computed from the time, no search.
    let mut p = base();
    let mut q = query("Q2", &[], &["body"]);
    q.text = "Messages of a day".into();
    q.order = vec![Order {
        attr: "message_time".into(),
        dir: cqlmodel::model::Dir::Desc,
    }];
    p.queries.push(q.into());
    p.workflow.entry.push("Q2".into());
    // Derived: one constant partition (`bucket = 0`), which the partition
    // rules judge (a hot spot), not a scan of every partition.
    let plan = analyze(&p).model.plan("Q2").expect("plan").clone();
    assert!(
        plan.select.to_string().contains("bucket = ?"),
        "{}",
        plan.select
    );
    quiet(&p, "full-scan");
    let hot = with(&p, "hot-partition");
    assert!(
        hot.iter()
            .any(|d| d.subject == Subject::Table("messages".into())),
        "{hot:#?}"
    );
    bucket(&mut p, "Q2", Period::Day);
    let plan = analyze(&p).model.plan("Q2").expect("plan").clone();
    assert!(
        plan.select.to_string().contains("day = ?"),
        "{}",
        plan.select
    );
    quiet(&p, "full-scan");
}

#[test]
fn a_partition_resting_on_default_numbers_says_what_to_enter() {
    quiet(&base(), "estimate-on-defaults");
    let mut p = base();
    p.entities[0].count = None;
    p.relationships[0].to_per_from = None;
    let d = fires(&p, "estimate-on-defaults");
    assert!(
        d.message().contains("emits") || d.message().contains("Source"),
        "{}",
        d.message()
    );
}

#[test]
fn a_child_count_that_disagrees_with_its_parents_is_reported() {
    let mut p = base();
    p.relationships[0].to_per_from = Some(cqlmodel::model::Count {
        avg: 10.0,
        max: None,
        per: None,
    });
    p.entities[1].count = Some(10_000.0);
    quiet(&p, "contradicting-counts");
    p.entities[1].count = Some(2_000_000.0);
    fires(&p, "contradicting-counts");
}

/// Tombstones a read scans: a queue's deletes and overwritten collections
/// in partitions that collect more than Cassandra's
/// `tombstone_warn_threshold` (1,000) within `gc_grace_seconds` (10 days
/// by default). Figures by hand: 10,000 messages a day per source, each
/// consumed, × 10 days = 100,000 tombstones per partition; 50 a day × 10
/// = 500 stays under.
#[test]
fn tombstones_in_large_or_hot_partitions() {
    let mut p = base();
    quiet(&p, "tombstones");
    p.queries[0].consumes = true;
    let d = fires(&p, "tombstones");
    assert_eq!(d.subject, Subject::Table("messages_by_source".into()));
    assert!(
        d.message().contains("about 100,000 tombstones"),
        "{}",
        d.message()
    );
    assert!(d.message().contains("Q1 deletes"), "{}", d.message());
    assert!(
        d.source.contains("tombstone_warn_threshold"),
        "{}",
        d.source
    );
    // A slow queue: 50 a day × 10 days = 500 per partition.
    p.relationships[0].to_per_from = Some(cqlmodel::model::Count {
        avg: 50.0,
        max: None,
        per: Some(Period::Day),
    });
    quiet(&p, "tombstones");

    // An overwritten collection: each row's set replaced leaves a range
    // tombstone; a day's partition of 10,000 rows holds 10,000 of them.
    let mut c = base();
    bucket(&mut c, "Q1", Period::Day);
    c.queries[0].returns.push("tags".into());
    quiet(&c, "tombstones");
    c.entities[1].attributes[4].mutable = true;
    let d = fires(&c, "tombstones");
    assert!(
        d.message().contains("about 10,000 tombstones"),
        "{}",
        d.message()
    );
    assert!(d.message().contains("tags"), "{}", d.message());
    // A frozen set is written whole, with no tombstone.
    c.entities[1].attributes[4].ty = "frozen<set<text>>".parse().expect("type");
    quiet(&c, "tombstones");
    // A mutable plain column is overwritten cell by cell: no tombstone.
    let mut b = base();
    b.entities[1].attributes[1].mutable = true;
    quiet(&b, "tombstones");
}

/// A waiver marks exactly the finding it names (rule and subject as the
/// review labels it) with its reason; the other findings stay as they
/// were. A waiver that matches nothing is a `stale-waiver` at its place in
/// the file, and so is one whose finding stops firing.
#[test]
fn waived_findings_stay_marked_and_stale_waivers_are_reported() {
    let mut p = base();
    let before = check(&p);
    quiet(&p, "stale-waiver");
    let unbounded = fires_in(&before, "unbounded-partition");
    assert_eq!(
        unbounded.subject,
        Subject::Table("messages_by_source".into())
    );
    p.waivers.push(cqlmodel::model::Waiver {
        rule: "unbounded-partition".into(),
        subject: "table messages_by_source".into(),
        reason: "sources are retired after a month".into(),
        by: Some("ana".into()),
        on: Some("2026-11-28".into()),
    });
    let after = check(&p);
    // The same findings in the same order: one of them now waived.
    assert_eq!(after.len(), before.len());
    let waived: Vec<&Diagnostic> = after.iter().filter(|d| d.waived.is_some()).collect();
    assert_eq!(waived.len(), 1, "{waived:#?}");
    assert_eq!(waived[0].rule, "unbounded-partition");
    assert_eq!(
        waived[0].waived.as_ref().map(|w| w.reason.as_str()),
        Some("sources are retired after a month")
    );
    for (a, b) in before.iter().zip(&after) {
        assert_eq!((a.rule, &a.subject), (b.rule, &b.subject));
    }
    quiet(&p, "stale-waiver");
    // Kept in the file, read back as written; a project without waivers
    // is written as before (no `waivers` field).
    let text = load::to_string(&p);
    assert!(
        text.contains("reason: \"sources are retired after a month\""),
        "{text}"
    );
    assert_eq!(load::from_str(&text).expect("reloads"), p);
    assert!(!load::to_string(&base()).contains("waivers"));

    // A misspelt subject waives nothing and is reported, pointing at it.
    p.waivers.push(cqlmodel::model::Waiver {
        rule: "hot-partition".into(),
        subject: "table messages_by_sorce".into(),
        reason: "typo".into(),
        by: None,
        on: None,
    });
    let stale = fires(&p, "stale-waiver");
    assert_eq!(stale.subject, Subject::Path("waivers[1]".into()));
    assert_eq!(stale.severity, Severity::Warning);
    assert!(stale
        .message()
        .contains("[hot-partition] on table messages_by_sorce"));
    assert_eq!(with(&p, "stale-waiver").len(), 1);

    // Rows that expire bound the partition: the first waiver goes stale
    // too, and nothing is marked waived any more.
    p.waivers.pop();
    p.entities[1].retention_days = Some(30.0);
    p.entities[1].ttl = true;
    let all = check(&p);
    assert!(all.iter().all(|d| d.waived.is_none()));
    let stale = fires_in(&all, "stale-waiver");
    assert_eq!(stale.subject, Subject::Path("waivers[0]".into()));
}

/// The physical layer: the weather sample's derived options are quiet;
/// A table with a materialized view gets the views' caveat; one without
/// does not.
#[test]
fn materialized_view_caveat() {
    use cqlmodel::model::physical::MaterializedView;
    let weather = crate::support::sample("weather.cqlm.ron");
    quiet(&weather, "materialized-view");
    let mut viewed = weather.clone();
    let base = viewed.decisions[0].query.clone();
    viewed.decision_mut(&base).options.views = vec![MaterializedView {
        name: "readings_view".into(),
        filter: "station_id is not null".into(),
        partition: vec!["station_id".into()],
        ..MaterializedView::default()
    }];
    let d = fires(&viewed, "materialized-view");
    assert!(d.message().contains("readings_view"), "{}", d.message());
}

/// a designer's `TimeWindow` on deleted rows, an expiring series left on
/// `Leveled`, and a `gc_grace` under the hint window fire.
#[test]
fn physical_options_that_do_not_fit_the_rows() {
    use cqlmodel::model::physical::{Compaction, Span, Strategy};
    let weather = crate::support::sample("weather.cqlm.ron");
    for rule in ["twcs-misfit", "expiring-without-twcs", "gc-grace-too-low"] {
        quiet(&weather, rule);
    }
    let compaction = |strategy| Compaction {
        strategy,
        options: std::collections::BTreeMap::new(),
    };

    let mut deleted = weather.clone();
    let qi = deleted
        .queries
        .iter()
        .position(|q| q.id == "Q2")
        .expect("Q2");
    deleted.queries[qi].consumes = true;
    deleted.decision_mut("Q2").options.compaction = Some(compaction(Strategy::TimeWindow));
    let d = fires(&deleted, "twcs-misfit");
    assert!(d.message().contains("Q2 deletes"), "{}", d.message());

    let mut leveled = weather.clone();
    leveled.decision_mut("Q2").options.compaction = Some(compaction(Strategy::Leveled));
    let d = fires(&leveled, "expiring-without-twcs");
    assert!(d.fix().contains("24 DAYS"), "{}", d.fix());
    // Leveled with no load stated: nothing says it is write-heavy; read
    // once in 10,000 s while a reading arrives every minute, it is.
    quiet(&leveled, "lcs-write-heavy");
    let mut q2 = (*leveled.queries[qi]).clone();
    q2.load = Some(cqlmodel::model::workload::Load {
        avg: 0.0001,
        peak: None,
    });
    leveled.queries[qi] = q2.into();
    let d = fires(&leveled, "lcs-write-heavy");
    assert!(
        d.message().contains("written more than read"),
        "{}",
        d.message()
    );

    let mut short = weather.clone();
    short.decision_mut("Q2").options.gc_grace = Some(Span::parse("1h").expect("span"));
    let d = fires(&short, "gc-grace-too-low");
    assert!(d.message().contains("hints"), "{}", d.message());
    short.decision_mut("Q2").options.ttl = Some(false);
    let d = fires(&short, "gc-grace-too-low");
    assert!(d.message().contains("comes back"), "{}", d.message());
}

#[test]
fn every_rule_fires_somewhere_and_stays_quiet_elsewhere() {
    let tests: &[fn()] = &[
        physical_options_that_do_not_fit_the_rows,
        partition_too_large_and_its_bucket,
        worst_case_counts_as_well_as_the_average,
        partition_cell_limit,
        unbounded_partition_without_bucket_or_ttl,
        retention_without_ttl_is_a_hint,
        hot_partition_few_values,
        hot_partition_time_alone,
        hot_partition_is_judged_by_a_stated_rate_only,
        rows_overwrite_with_a_candidate_missing_the_key,
        timestamp_key_and_timeuuid,
        mutable_key,
        queue,
        counters_retry_and_mixing,
        counters_as_ids,
        queries_that_need_filtering_or_cannot_be_served,
        secondary_indexes,
        large_values_and_collections,
        pushed_up_collection_too_large_suggests_rows_again,
        write_amplification_with_a_logged_batch,
        workflow_gaps,
        no_workflow_is_a_hint,
        tables_serving_no_query_and_queries_without_table,
        timestamp_key_is_quiet_on_counter_buckets,
        hot_partition_promotes_a_searched_clustering_column,
        mutable_clustering_key_of_children_offers_a_collection,
        a_decision_naming_a_missing_column_is_a_derivation_error,
        a_duration_in_the_primary_key_is_an_error,
        a_set_of_durations_is_an_error,
        a_counter_inside_a_collection_is_an_error,
        merging_regular_columns_into_a_counter_table_is_an_error,
        a_query_with_no_search_is_a_full_scan,
        a_select_naming_the_whole_partition_key_is_not_a_full_scan,
        a_partition_resting_on_default_numbers_says_what_to_enter,
        a_child_count_that_disagrees_with_its_parents_is_reported,
        shareable_table_when_another_table_lacks_only_returned_columns,
        waived_findings_stay_marked_and_stale_waivers_are_reported,
        tombstones_in_large_or_hot_partitions,
        materialized_view_caveat,
    ];
    SEEN.with(|s| *s.borrow_mut() = Default::default());
    for t in tests {
        t();
    }
    let (fired, silent) = SEEN.with(|s| s.borrow().clone());
    let all: BTreeSet<String> = RULES.iter().map(|r| r.id.to_string()).collect();
    let never_fired: Vec<&String> = all.difference(&fired).collect();
    let never_quiet: Vec<&String> = all.difference(&silent).collect();
    assert!(
        never_fired.is_empty(),
        "rules no fixture fires: {never_fired:?}"
    );
    assert!(
        never_quiet.is_empty(),
        "rules never checked quiet: {never_quiet:?}"
    );
    // And nothing outside the list: a rule id the tests expect must exist.
    let unknown: Vec<&String> = fired.union(&silent).filter(|r| !all.contains(*r)).collect();
    assert!(unknown.is_empty(), "not in RULES: {unknown:?}");
}

#[test]
fn timestamp_key_is_quiet_on_counter_buckets() {
    // clickstream's rolling_counts: bucket_start is the start of a bucket
    // whose increments are meant to meet in one counter.
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/clickstream.cqlm.ron"
    );
    let mut p = load::read(std::path::Path::new(path)).expect("clickstream loads");
    let on_buckets = |p: &Project| {
        with(p, "timestamp-key").into_iter().any(|d| {
            d.subject
                == Subject::Column {
                    table: "rolling_counts".into(),
                    column: "bucket_start".into(),
                }
        })
    };
    assert!(!on_buckets(&p));
    // The same key over events (no counter) is a collision risk again.
    let ac = p
        .entities
        .iter_mut()
        .find(|e| e.name == "ActivityCount")
        .expect("entity");
    let total = ac
        .attributes
        .iter_mut()
        .find(|a| a.name == "total")
        .expect("total");
    total.ty = "bigint".parse().expect("type");
    // Still one writer per key: the counts are a user's (a weak entity
    // of User), so no other writer produces the same key.
    assert!(!on_buckets(&p));
    // Counts of every user in one entity keyed by its bucket: any two
    // writers may produce the same key.
    let ac = p
        .entities
        .iter_mut()
        .find(|e| e.name == "ActivityCount")
        .expect("entity");
    ac.owner = None;
    assert!(on_buckets(&p));
}

/// A candidate key that moves a searched attribute into clustering leaves
/// few partitions: promoting it back is the fix, not a shard.
#[test]
fn hot_partition_promotes_a_searched_clustering_column() {
    let mut p = base();
    p.queries
        .push(query("Q2", &["Source.kind", "Source.source_id"], &["body"]).into());
    p.workflow.entry.push("Q2".into());
    quiet(&p, "hot-partition");
    let t = derive(&p).table_of("Q2").expect("Q2's table").clone();
    let name = |attr: &str| {
        t.columns
            .iter()
            .find(|c| matches!(&c.source, cqlmodel::derive::Source::Attr { attribute, .. } if attribute.ends_with(attr)))
            .map(|c| c.name.clone())
            .expect("column")
    };
    let (kind, source, time) = (name(".kind"), name(".source_id"), name(".message_time"));
    let d = p.decision_mut("Q2");
    d.candidates.push(Candidate {
        name: "by_kind".into(),
        partition: vec![kind.to_string()],
        clustering: vec![
            Order {
                attr: source.to_string(),
                dir: cqlmodel::model::Dir::Asc,
            },
            Order {
                attr: time.to_string(),
                dir: cqlmodel::model::Dir::Desc,
            },
        ],
        indexes: vec![],
    });
    d.use_candidate = Some("by_kind".into());
    let d = fires(&p, "hot-partition");
    assert_eq!(
        d.refinement.as_deref(),
        Some(&Refinement::Promote {
            query: "Q2".into(),
            column: source.to_string()
        }),
        "{d:#?}"
    );
    assert!(d.fix().contains("partitions instead of"), "{}", d.fix());
    let fixed = cqlmodel::edit::refine::apply(&p, d.refinement.as_ref().expect("refinement"))
        .expect("applies");
    assert!(with(&fixed, "hot-partition")
        .iter()
        .all(|x| x.subject != d.subject));
    let plan = analyze(&fixed).model.plan("Q2").cloned().expect("plan");
    assert_eq!(plan.access, Access::Direct);
}

#[test]
fn mutable_clustering_key_of_children_offers_a_collection() {
    let mut p = base();
    let mut q = Query::new("Q3", "Messages of a source", "Source");
    q.equality = vec!["source_id".into()];
    q.returns = vec!["Message.body".into()];
    p.queries.push(q.into());
    p.workflow.entry.push("Q3".into());
    p.entities[1].attributes[0].mutable = true;
    let hits = with(&p, "mutable-key");
    let child = hits
        .iter()
        .find(|d| d.refinement.is_some())
        .unwrap_or_else(|| panic!("{hits:#?}"));
    assert_eq!(
        child.refinement.as_deref(),
        Some(&Refinement::Collection {
            query: "Q3".into(),
            relationship: "emits".into()
        })
    );
    let fixed = cqlmodel::edit::refine::apply(&p, child.refinement.as_ref().expect("refinement"))
        .expect("applies");
    assert!(with(&fixed, "mutable-key")
        .iter()
        .all(|x| x.subject != child.subject));
    // An own attribute of the rows has no children to push up: no
    // refinement (Q1's message_time).
    assert!(
        hits.iter()
            .any(|d| d.refinement.is_none() && d.message().contains("Message.message_time")),
        "{hits:#?}"
    );
}

#[test]
fn shareable_table_when_another_table_lacks_only_returned_columns() {
    quiet(&base(), "shareable-table");
    // The same search as Q1, returning the level Q1's table lacks.
    let mut p = base();
    let mut q2 = query("Q2", &["Source.source_id"], &["level"]);
    q2.order = vec![Order {
        attr: "message_time".into(),
        dir: cqlmodel::model::Dir::Desc,
    }];
    p.queries.push(q2.into());
    let d = fires(&p, "shareable-table");
    let Some(r @ Refinement::ShareTable { query, with }) = d.refinement.as_deref() else {
        panic!("no share refinement: {d:?}");
    };
    assert!(d
        .message()
        .contains(&format!("{query} has a table of its own")));
    // The one-key merge: the guest is served by the host's table, which
    // gains the column, and the hint is gone.
    let next = cqlmodel::edit::refine::apply(&p, r).expect("applies");
    let m = derive(&next);
    assert_eq!(m.tables.len(), 1);
    assert_eq!(
        m.table_of(query).map(|t| t.origin.as_str()),
        Some(with.as_str())
    );
    assert_eq!(m.plan(query).map(|p| &p.access), Some(&Access::Direct));
    quiet(&next, "shareable-table");
    // A query the designer keeps apart gets no hint.
    let mut apart = p.clone();
    apart.decision_mut("Q1").separate = true;
    apart.decision_mut("Q2").separate = true;
    quiet(&apart, "shareable-table");
}
