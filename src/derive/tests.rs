//! One test per mapping rule and decision, on small projects written as
//! RON so each case reads like the project file a designer would write.

use super::*;
use crate::model::load;
#[allow(unused_imports)]
use crate::model::name::Name;
#[allow(unused_imports)]
use crate::model::resolve::{Edge, Graph, NodeId, Reached};
#[allow(unused_imports)]
use crate::model::{CqlType, Decision, Dir, ExtraKind, Native, Period, Project, Query, Shared};

/// Shop: Customer 1:n Order (weak: identified by customer), Order m:n
/// Product; a status that changes.
const SHOP: &str = r#"Project(
    format: 1,
    name: "shop",
    keyspace: Keyspace(name: "shop", replication: Simple(1)),
    entities: [
        Entity(name: "Customer", key: ["customer_id"], attributes: [
            Attribute(name: "customer_id", type: "uuid"),
            Attribute(name: "email", type: "text"),
            Attribute(name: "country", type: "text"),
        ], count: Some(1000)),
        Entity(name: "Order", owner: Some("places"), key: ["order_id"], attributes: [
            Attribute(name: "order_id", type: "timeuuid"),
            Attribute(name: "placed_at", type: "timestamp"),
            Attribute(name: "total", type: "decimal"),
            Attribute(name: "status", type: "text"),
        ]),
        Entity(name: "Product", key: ["sku"], attributes: [
            Attribute(name: "sku", type: "text"),
            Attribute(name: "title", type: "text"),
        ], count: Some(50)),
    ],
    relationships: [
        Relationship(name: "places", from: "Customer", to: "Order", cardinality: OneToMany,
            to_per_from: Some(Count(avg: 20))),
        Relationship(name: "contains", from: "Order", to: "Product", cardinality: ManyToMany,
            to_per_from: Some(Count(avg: 3)), from_per_to: Some(Count(avg: 1200)),
            attributes: [Attribute(name: "quantity", type: "int")]),
    ],
    queries: [QUERIES],
)"#;

fn shop(queries: &str) -> Project {
    let text = SHOP.replace("QUERIES", queries);
    match load::from_str(&text) {
        Ok(p) => p,
        Err(e) => panic!("test project invalid: {e}"),
    }
}

fn one(queries: &str) -> (Project, LogicalModel) {
    let p = shop(queries);
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    (p, m)
}

/// `K a`, `C↑ b`, `S c`, `d` for each column.
fn layout(t: &Table) -> Vec<String> {
    t.columns
        .iter()
        .map(|c| format!("{} {}", c.role.marker(), c.name).trim().to_string())
        .collect()
}

#[test]
fn mr1_rows_come_from_the_returned_entity() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Customer", equality: ["customer_id"], returns: ["email"])"#,
    );
    assert_eq!(m.tables[0].rows, "Customer");
    assert_eq!(m.tables[0].name, "customers");
    assert_eq!(layout(&m.tables[0]), ["K customer_id", "email"]);
}

#[test]
fn mr2_equality_attributes_form_the_partition_key_in_order() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Customer", equality: ["country", "email"], returns: ["customer_id"])"#,
    );
    let t = &m.tables[0];
    assert_eq!(layout(t), ["K country", "K email", "C↑ customer_id"]);
    assert_eq!(t.columns[0].rule, Rule::Equality);
    assert_eq!(t.name, "customers_by_country_email");
}

#[test]
fn mr3_range_is_the_first_clustering_column() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"],
            range: Some(Range(attr: "placed_at")), returns: ["total"])"#,
    );
    let t = &m.tables[0];
    assert_eq!(
        layout(t),
        ["K customer_id", "C↑ placed_at", "C↑ order_id", "total"]
    );
    assert_eq!(t.columns[1].rule, Rule::Range);
    assert_eq!(t.name, "orders_by_customer_placed_at");
    assert!(m.plans[0]
        .select
        .contains("placed_at >= ? AND placed_at <= ?"));
}

#[test]
fn mr4_ordering_sets_direction() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"],
            order: [Order(attr: "placed_at", dir: Desc)], limit: Some(10), returns: ["total"])"#,
    );
    let t = &m.tables[0];
    assert_eq!(
        layout(t),
        ["K customer_id", "C↓ placed_at", "C↑ order_id", "total"]
    );
    assert_eq!(t.columns[1].rule, Rule::Order);
    assert!(
        m.plans[0]
            .select
            .ends_with("ORDER BY placed_at DESC LIMIT 10;"),
        "{}",
        m.plans[0].select
    );
}

#[test]
fn mr5_appends_the_rows_key_for_uniqueness() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Customer", equality: ["country"], returns: ["email"])"#,
    );
    let key = m.tables[0].column("customer_id").expect("key appended");
    assert_eq!(key.role, Role::Clustering(Dir::Asc));
    assert_eq!(key.rule, Rule::Key);
}

#[test]
fn mr5_adds_both_sides_of_a_many_to_many() {
    // Products of one customer's orders: a row per (order, product).
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Product", equality: ["Customer.customer_id"], returns: ["title", "contains.quantity"])"#,
    );
    let t = &m.tables[0];
    assert_eq!(
        layout(t),
        [
            "K customer_id",
            "C↑ sku",
            "C↑ order_id",
            "title",
            "contains_quantity"
        ]
    );
}

#[test]
fn parent_attributes_of_the_partition_are_static() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"],
            returns: ["total", "Customer.email"])"#,
    );
    let t = &m.tables[0];
    assert_eq!(
        layout(t),
        ["K customer_id", "C↑ order_id", "total", "S customer_email"]
    );
    match &t.column("customer_email").expect("pushed down").source {
        Source::Attr { flow, .. } => assert_eq!(*flow, Flow::PushDown),
        other => panic!("{other:?}"),
    }
}

#[test]
fn no_static_column_without_clustering() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Customer", equality: ["customer_id"], returns: ["email"])"#,
    );
    assert!(m.tables[0].columns.iter().all(|c| c.role != Role::Static));
}

#[test]
fn a_lookup_by_the_own_key_is_the_bare_plural_and_weak_keys_name_the_owner() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["customer_id", "order_id"], returns: ["total"]),
           Query(id: "Q2", text: "t", rows: "Order", equality: ["Customer.customer_id"], returns: ["placed_at"])"#,
    );
    assert_eq!(m.tables[0].name, "orders");
    assert_eq!(
        layout(&m.tables[0]),
        ["K customer_id", "K order_id", "total"]
    );
    assert_eq!(m.tables[1].name, "orders_by_customer");
}

#[test]
fn identical_tables_are_shared_and_separate_keeps_them_apart() {
    let q = r#"Query(id: "Q1", text: "a", rows: "Customer", equality: ["customer_id"], returns: ["email"]),
               Query(id: "Q2", text: "b", rows: "Customer", equality: ["customer_id"], returns: ["email"])"#;
    let (p, m) = one(q);
    assert_eq!(m.tables.len(), 1);
    assert_eq!(*m.tables[0].queries, ["Q1", "Q2"]);
    assert_eq!(m.plans[1].table, Some(0));
    let mut p = p;
    p.decision_mut("Q2").separate = true;
    let m = derive(&p);
    assert_eq!(m.tables.len(), 2);
    assert_eq!(m.tables[1].name, "customer_emails");
}

#[test]
fn served_by_merges_and_adds_returned_columns() {
    let mut p = shop(
        r#"Query(id: "Q1", text: "a", rows: "Customer", equality: ["customer_id"], returns: ["email"]),
           Query(id: "Q2", text: "b", rows: "Customer", equality: ["customer_id"], returns: ["country"])"#,
    );
    p.decision_mut("Q2").served_by = Some("Q1".into());
    let m = derive(&p);
    assert_eq!(m.tables.len(), 1);
    assert_eq!(layout(&m.tables[0]), ["K customer_id", "email", "country"]);
    assert_eq!(
        m.tables[0].column("country").map(|c| c.rule),
        Some(Rule::Merged)
    );
    assert!(m.plans[1].access.is_direct());
}

#[test]
fn decisions_pin_flip_bucket_shard_promote_timeuuid() {
    let mut p = shop(
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"],
            range: Some(Range(attr: "placed_at")), returns: ["total"])"#,
    );
    let d = p.decision_mut("Q1");
    d.name = Some("recent_orders".into());
    d.flip = vec!["placed_at".into()];
    d.timeuuid = vec!["placed_at".into()];
    d.partition_extra = vec![
        crate::model::ExtraColumn {
            column: "month".into(),
            kind: ExtraKind::Bucket {
                source: "placed_at".into(),
                period: Period::Month,
            },
        },
        crate::model::ExtraColumn {
            column: "shard".into(),
            kind: ExtraKind::Shard { count: 4 },
        },
    ];
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    let t = &m.tables[0];
    assert_eq!(t.name, "recent_orders");
    assert_eq!(
        layout(t),
        [
            "K customer_id",
            "K month",
            "K shard",
            "C↓ placed_at",
            "C↑ order_id",
            "total"
        ]
    );
    assert_eq!(
        t.column("placed_at").map(|c| c.ty.to_string()),
        Some("timeuuid".into())
    );
    assert!(m.plans[0].access.is_direct(), "{:?}", m.plans[0].access);
    assert_eq!(m.plans[0].computed, ["month", "shard"]);

    let mut p = shop(
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"],
            range: Some(Range(attr: "placed_at")), returns: ["total"])"#,
    );
    p.decision_mut("Q1").promote = vec!["placed_at".into()];
    let m = derive(&p);
    assert_eq!(
        layout(&m.tables[0])[..2],
        ["K customer_id".to_string(), "K placed_at".to_string()]
    );
    // A range on a partition column needs filtering: the review reports it.
    assert!(matches!(m.plans[0].access, Access::Filtering(_)));
}

#[test]
fn decisions_naming_missing_columns_are_reported() {
    let mut p = shop(
        r#"Query(id: "Q1", text: "t", rows: "Customer", equality: ["customer_id"], returns: ["email"])"#,
    );
    p.decision_mut("Q1").flip = vec!["emial".into()];
    let m = derive(&p);
    assert_eq!(m.problems.len(), 1);
    assert!(
        m.problems[0].message.contains("did you mean \"email\""),
        "{}",
        m.problems[0]
    );
}

#[test]
fn children_pushed_up_into_a_collection() {
    let mut p = shop(
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["customer_id", "order_id"],
            returns: ["total", "Product.sku", "Product.title"])"#,
    );
    let m = derive(&p);
    assert_eq!(
        layout(&m.tables[0]),
        [
            "K customer_id",
            "K order_id",
            "C↑ product_sku",
            "S total",
            "product_title"
        ]
    );
    p.decision_mut("Q1").collections = vec!["contains".into()];
    let m = derive(&p);
    let t = &m.tables[0];
    assert_eq!(
        layout(t),
        ["K customer_id", "K order_id", "total", "products"]
    );
    assert_eq!(
        t.column("products").map(|c| c.ty.to_string()),
        Some("map<text, text>".into())
    );
    assert!(m.plans[0].access.is_direct(), "{:?}", m.plans[0].access);
    assert!(
        m.plans[0].select.starts_with("SELECT total, products FROM"),
        "{}",
        m.plans[0].select
    );
}

#[test]
fn counter_tables_keep_only_counters() {
    let text = SHOP
        .replace(
            r#"Attribute(name: "country", type: "text"),"#,
            r#"Attribute(name: "country", type: "text"), Attribute(name: "visits", type: "counter"),"#,
        )
        .replace(
            "QUERIES",
            r#"Query(id: "Q1", text: "t", rows: "Customer", equality: ["customer_id"], returns: ["visits", "email"])"#,
        );
    let p = load::from_str(&text).expect("valid");
    let m = derive(&p);
    let t = &m.tables[0];
    assert_eq!(layout(t), ["K customer_id", "visits"]);
    assert_eq!(t.dropped, ["email"]);
}

#[test]
fn a_query_without_search_gets_a_constant_partition_to_order_in() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "t", rows: "Customer", order: [Order(attr: "email")], returns: ["email"])"#,
    );
    let t = &m.tables[0];
    assert_eq!(layout(t), ["K bucket", "C↑ email", "C↑ customer_id"]);
    assert!(m.plans[0].access.is_direct());
}

#[test]
fn write_paths_list_tables_per_item_and_attribute() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "a", rows: "Customer", equality: ["customer_id"], returns: ["email"]),
           Query(id: "Q2", text: "b", rows: "Customer", equality: ["email"], returns: ["country"])"#,
    );
    let w = m
        .writes
        .iter()
        .find(|w| w.item == "Customer")
        .expect("customer");
    assert_eq!(names(&w.insert), ["customers", "customers_by_email"]);
    let email = w
        .update
        .iter()
        .find(|a| a.attribute == "email")
        .expect("email");
    let listed: Vec<(&str, bool)> = email.tables.iter().map(|(t, k)| (&**t, *k)).collect();
    assert_eq!(listed, [("customers", false), ("customers_by_email", true)]);
}

#[test]
fn derivation_is_deterministic() {
    let p = crate::model::synthetic::project(40, 80, 3);
    assert_eq!(derive(&p), derive(&p));
}

/// Sharing: a lookup of one order by its full key is answered by the table
/// of a customer's orders (partition key plus a clustering prefix, the same
/// returned columns): one table serves both.
const BY_CUSTOMER_AND_LOOKUP: &str = r#"
    Query(id: "Q2", text: "a customer's orders", rows: "Order", equality: ["customer_id"],
        order: [Order(attr: "placed_at", dir: Desc)], returns: ["total"]),
    Query(id: "Q1", text: "one order", rows: "Order", equality: ["customer_id", "placed_at"],
        returns: ["total"])"#;

#[test]
fn a_table_that_answers_another_query_directly_serves_it() {
    let (_, m) = one(BY_CUSTOMER_AND_LOOKUP);
    assert_eq!(m.tables.len(), 1, "{:?}", m.tables);
    let t = &m.tables[0];
    assert_eq!(t.origin, "Q2");
    assert_eq!(*t.queries, ["Q2", "Q1"]);
    assert_eq!(m.table_of("Q1").map(|t| &t.name), Some(&t.name));
    let plan = m.plan("Q1").expect("plan");
    assert_eq!(plan.access, Access::Direct, "{}", plan.select);
    assert!(
        plan.select.contains("customer_id = ? AND placed_at = ?"),
        "{}",
        plan.select
    );
}

#[test]
fn sharing_does_not_depend_on_the_order_of_queries() {
    let (p, m) = one(BY_CUSTOMER_AND_LOOKUP);
    let mut r = p.clone();
    r.queries.reverse();
    let n = derive(&r);
    assert_eq!(n.tables.len(), 1);
    assert_eq!(n.tables[0].origin, m.tables[0].origin);
    assert_eq!(n.tables[0].name, m.tables[0].name);
    assert_eq!(layout(&n.tables[0]), layout(&m.tables[0]));
}

#[test]
fn separate_keeps_a_query_that_could_share_apart() {
    let (mut p, _) = one(BY_CUSTOMER_AND_LOOKUP);
    p.decision_mut("Q1").separate = true;
    let m = derive(&p);
    assert_eq!(m.tables.len(), 2);
    assert_eq!(m.table_of("Q1").map(|t| t.origin.as_str()), Some("Q1"));
}

#[test]
fn no_sharing_when_the_order_disagrees_or_a_column_is_missing() {
    // Ascending by total: the customer's table clusters by placed_at.
    let (_, m) = one(
        r#"Query(id: "Q2", text: "t", rows: "Order", equality: ["customer_id"],
               order: [Order(attr: "placed_at", dir: Desc)], returns: ["total"]),
           Query(id: "Q1", text: "t", rows: "Order", equality: ["customer_id"],
               order: [Order(attr: "total")], returns: ["placed_at"])"#,
    );
    assert_eq!(m.tables.len(), 2);
    // Same key, but Q1 returns what Q2's table lacks.
    let (_, m) = one(
        r#"Query(id: "Q2", text: "t", rows: "Order", equality: ["customer_id"],
               order: [Order(attr: "placed_at", dir: Desc)], returns: ["total"]),
           Query(id: "Q1", text: "t", rows: "Order", equality: ["customer_id", "placed_at"],
               returns: ["Customer.email"])"#,
    );
    assert_eq!(m.tables.len(), 2);
}

#[test]
fn a_candidate_key_can_name_a_time_bucket_or_the_constant_bucket() {
    let q = r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["customer_id"],
        range: Some(Range(attr: "placed_at")), returns: ["total"])"#;
    let mut p = shop(q);
    let d = p.decision_mut("Q1");
    d.partition_extra.push(crate::model::ExtraColumn {
        column: "day".into(),
        kind: crate::model::ExtraKind::Bucket {
            source: "placed_at".into(),
            period: crate::model::Period::Day,
        },
    });
    d.candidates.push(crate::model::Candidate {
        name: "by_day".into(),
        partition: vec!["day".into(), "customer_id".into()],
        clustering: vec![
            crate::model::Order {
                attr: "placed_at".into(),
                dir: Dir::Desc,
            },
            crate::model::Order {
                attr: "order_id".into(),
                dir: Dir::Asc,
            },
        ],
        indexes: vec![],
    });
    d.use_candidate = Some("by_day".into());
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    assert_eq!(
        layout(&m.tables[0]),
        [
            "K day",
            "K customer_id",
            "C↓ placed_at",
            "C↑ order_id",
            "total"
        ]
    );
    // Without the candidate naming it, the bucket still joins the key.
    p.decision_mut("Q1").candidates[0].partition = vec!["customer_id".into()];
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    assert_eq!(
        layout(&m.tables[0])[..2],
        ["K customer_id".to_string(), "K day".to_string()]
    );

    // The constant partition of a query that searches nothing.
    let mut p = shop(
        r#"Query(id: "Q1", text: "t", rows: "Order", order: [Order(attr: "placed_at", dir: Desc)], returns: ["total"])"#,
    );
    let d = p.decision_mut("Q1");
    d.candidates.push(crate::model::Candidate {
        name: "c".into(),
        partition: vec!["bucket".into()],
        clustering: vec![
            crate::model::Order {
                attr: "placed_at".into(),
                dir: Dir::Desc,
            },
            crate::model::Order {
                attr: "customer_id".into(),
                dir: Dir::Asc,
            },
            crate::model::Order {
                attr: "order_id".into(),
                dir: Dir::Asc,
            },
        ],
        indexes: vec![],
    });
    d.use_candidate = Some("c".into());
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    assert_eq!(layout(&m.tables[0])[0], "K bucket");
}

fn name_of(query: &str) -> String {
    let (_, m) = one(query);
    m.tables[0].name.to_string()
}

#[test]
fn only_a_lookup_by_the_rows_full_key_is_the_bare_plural() {
    assert_eq!(
        name_of(
            r#"Query(id: "Q1", text: "t", rows: "Customer", equality: ["customer_id"], returns: ["email"])"#
        ),
        "customers"
    );
    assert_eq!(
        name_of(
            r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id", "order_id"], returns: ["total"])"#
        ),
        "orders"
    );
}

#[test]
fn a_range_on_a_weak_entitys_partial_key_is_named() {
    // Equality on the owner plus a range on the order's own key covers the
    // key, but searches a slice of a customer's orders, not one order.
    assert_eq!(
        name_of(
            r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"],
                range: Some(Range(attr: "order_id", op: Gt)), returns: ["total"])"#
        ),
        "orders_by_customer_order_id"
    );
}

#[test]
fn a_second_equality_attribute_beside_the_key_is_named() {
    assert_eq!(
        name_of(
            r#"Query(id: "Q1", text: "t", rows: "Customer", equality: ["customer_id", "country"], returns: ["email"])"#
        ),
        "customers_by_customer_id_country"
    );
    assert_eq!(
        name_of(
            r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id", "order_id", "placed_at"], returns: ["total"])"#
        ),
        "orders_by_customer_order_id_placed_at"
    );
}

#[test]
fn a_clash_is_named_by_what_the_query_returns_then_by_its_order() {
    // Q3 could be served by Q1's table; kept apart to test its name.
    let (mut p, _) = one(
        r#"Query(id: "Q1", text: "a", rows: "Order", equality: ["Customer.customer_id"],
               order: [Order(attr: "placed_at", dir: Desc)], returns: ["total", "status"]),
           Query(id: "Q2", text: "b", rows: "Order", equality: ["Customer.customer_id"],
               order: [Order(attr: "total", dir: Desc)], returns: ["total", "status"]),
           Query(id: "Q3", text: "c", rows: "Order", equality: ["Customer.customer_id"],
               returns: ["placed_at"])"#,
    );
    p.decision_mut("Q3").separate = true;
    let m = derive(&p);
    let names: Vec<&str> = m.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "orders_by_customer",
            "orders_by_customer_total",
            "order_placed_at_by_customer"
        ]
    );
}

#[test]
fn the_query_id_is_the_last_resort_for_a_clash() {
    let q = r#"Query(id: "Q1", text: "a", rows: "Order", equality: ["Customer.customer_id"], returns: ["total", "status"]),
               Query(id: "Q2", text: "b", rows: "Order", equality: ["Customer.customer_id"], returns: ["total", "status"])"#;
    let (mut p, _) = one(q);
    p.decision_mut("Q2").separate = true;
    let m = derive(&p);
    assert_eq!(m.tables[1].name, "orders_by_customer_q2");
}

#[test]
fn a_counter_table_is_named_by_what_it_counts() {
    let text = include_str!("../../sample-projects/likes.cqlm.ron");
    let mut p = load::from_str(text).expect("likes loads");
    p.decisions.retain(|d| d.query != "Q3");
    let m = derive(&p);
    assert_eq!(
        m.table_of("Q3").map(|t| t.name.as_str()),
        Some("like_counts_by_item")
    );
    // The item details keep the plain lookup name.
    assert_eq!(m.table_of("Q4").map(|t| t.name.as_str()), Some("items"));
}

const OPEN_ORDERS: &str = r#"Query(id: "Q1", text: "a customer's open orders, newest first",
    rows: "Order", equality: ["Customer.customer_id"],
    constants: [Constant(attr: "status", value: "it's open")],
    order: [Order(attr: "placed_at", dir: Desc)], returns: ["order_id", "total"])"#;

#[test]
fn a_constant_is_a_leading_clustering_column_bound_in_the_select() {
    // A customer has 200 orders at most: the partition is bounded (with no
    // stated most, orders ordered by time pile up on assumed figures and
    // the constant joins the partition key instead, issue 39 rule 3).
    let text = SHOP.replace("QUERIES", OPEN_ORDERS).replace(
        "to_per_from: Some(Count(avg: 20))",
        "to_per_from: Some(Count(avg: 20, max: Some(200)))",
    );
    let m = derive(&load::from_str(&text).expect("valid"));
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    let t = &m.tables[0];
    assert_eq!(
        layout(t),
        [
            "K customer_id",
            "C↑ status",
            "C↓ placed_at",
            "C↑ order_id",
            "total"
        ]
    );
    assert_eq!(t.columns[1].rule, Rule::Constant);
    assert_eq!(t.name, "orders_by_customer_status");
    // Unbounded, the same query keeps the constant in the partition key.
    let (_, m) = one(OPEN_ORDERS);
    assert_eq!(
        layout(&m.tables[0])[..3],
        ["K customer_id", "K status", "C↓ placed_at"]
    );
    let plan = &m.plans[0];
    assert!(plan.access.is_direct(), "{:?}", plan.access);
    assert_eq!(
        plan.select,
        "SELECT order_id, total FROM shop.orders_by_customer_status \
         WHERE customer_id = ? AND status = 'it''s open' ORDER BY placed_at DESC;"
    );
}

#[test]
fn constants_and_aggregates_read_as_words() {
    let (p, _) = one(OPEN_ORDERS);
    assert_eq!(
        p.queries[0].stated_text().as_deref(),
        Some("status = 'it''s open'")
    );
    let (p, _) = one(
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"],
            aggregates: [Aggregate(function: Count), Aggregate(function: Max, attr: Some("total"))],
            window: Some(Window(attr: "placed_at", period: Day)), returns: [])"#,
    );
    assert_eq!(
        p.queries[0].stated_text().as_deref(),
        Some("count, max of total per day of placed_at")
    );
    assert_eq!(
        crate::output::design_report::search_text(&p.queries[0]),
        "= Customer.customer_id; count, max of total per day of placed_at"
    );
}

#[test]
fn a_constant_alone_is_the_partition() {
    let (_, m) = one(r#"Query(id: "Q1", text: "open orders", rows: "Order",
            constants: [Constant(attr: "status", value: "open")], returns: ["total"])"#);
    assert_eq!(m.tables[0].columns[0].role, Role::Partition);
    assert!(m.plans[0].select.contains("WHERE status = 'open'"));
}

#[test]
fn constants_that_do_not_fit_their_type_are_refused_with_a_position() {
    let text = SHOP.replace(
        "QUERIES",
        r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"],
            constants: [Constant(attr: "total", value: "lots")], returns: ["status"])"#,
    );
    let err = load::from_str(&text).expect_err("refused").to_string();
    assert!(err.contains("\"lots\" is not a number"), "{err}");
    assert!(err.contains("line "), "{err}");
}

fn summary(query: &str) -> (Project, LogicalModel) {
    one(query)
}

#[test]
fn a_count_per_group_and_day_is_a_counter_summary() {
    let (p, m) = summary(
        r#"Query(id: "Q1", text: "orders of a customer per day", rows: "Order",
            equality: ["Customer.customer_id"], range: Some(Range(attr: "placed_at", op: Between)),
            aggregates: [Aggregate(function: Count)],
            window: Some(Window(attr: "placed_at", period: Day)), returns: [])"#,
    );
    let t = &m.tables[0];
    assert_eq!(layout(t), ["K customer_id", "C↓ day", "order_count"]);
    assert_eq!(t.name, "order_counts_by_customer_day");
    assert!(t.is_counter_table());
    assert_eq!(t.columns[1].rule, Rule::Window);
    assert_eq!(
        m.plans[0].select,
        "SELECT day, order_count FROM shop.order_counts_by_customer_day \
         WHERE customer_id = ? AND day >= ? AND day <= ?;"
    );
    assert!(m.plans[0].access.is_direct());
    // Counters are incremented when an order is inserted.
    let order = m.writes.iter().find(|w| w.item == "Order").expect("order");
    assert!(names(&order.insert).contains(&t.name.as_str()), "{order:?}");
    // One row per customer and day.
    let e = crate::derive::estimate::estimate(&p, &m);
    let horizon = p.thresholds.horizon_days;
    assert!((e[0].rows_per_partition - horizon).abs() < 1e-9);
    assert!((e[0].partitions - 1000.0).abs() < 1e-9);
}

#[test]
fn min_max_and_avg_are_plain_columns_the_application_updates() {
    let (_, m) = summary(
        r#"Query(id: "Q1", text: "order totals of a customer", rows: "Order",
            equality: ["Customer.customer_id"],
            aggregates: [Aggregate(function: Max, attr: Some("total")),
                         Aggregate(function: Avg, attr: Some("total"), column: Some("mean_total")),
                         Aggregate(function: Count)],
            returns: ["Customer.customer_id"])"#,
    );
    let t = &m.tables[0];
    assert_eq!(
        layout(t),
        ["K customer_id", "max_total", "mean_total", "order_count"]
    );
    assert!(!t.is_counter_table());
    assert_eq!(t.columns[1].ty.to_string(), "decimal");
    assert_eq!(t.columns[3].ty.to_string(), "bigint");
    assert_eq!(t.name, "order_stats_by_customer");
    let order = m.writes.iter().find(|w| w.item == "Order").expect("order");
    assert_eq!(names(&order.summaries), [t.name.as_str()]);
    assert!(!names(&order.insert).contains(&t.name.as_str()));
    assert_eq!(
        m.plans[0].select,
        "SELECT customer_id, max_total, mean_total, order_count \
         FROM shop.order_stats_by_customer WHERE customer_id = ?;"
    );
}

#[test]
fn a_sum_of_whole_numbers_is_a_counter() {
    let (_, m) = summary(
        r#"Query(id: "Q1", text: "units sold of a product", rows: "contains",
            equality: ["Product.sku"],
            aggregates: [Aggregate(function: Sum, attr: Some("quantity"))], returns: [])"#,
    );
    let t = &m.tables[0];
    assert_eq!(layout(t), ["K product_sku", "sum_quantity"]);
    assert!(t.is_counter_table());
    assert_eq!(t.name, "sum_quantities_by_product");
}

#[test]
fn a_summary_serves_no_query_of_rows() {
    let (mut p, _) = summary(
        r#"Query(id: "Q1", text: "orders of a customer per day", rows: "Order",
            equality: ["Customer.customer_id"], aggregates: [Aggregate(function: Count)],
            window: Some(Window(attr: "placed_at", period: Day)), returns: []),
           Query(id: "Q2", text: "orders of a customer", rows: "Order",
            equality: ["Customer.customer_id"], returns: ["total"])"#,
    );
    p.decision_mut("Q2").served_by = Some("Q1".into());
    let m = derive(&p);
    assert!(
        m.problems
            .iter()
            .any(|x| x.message.contains("cannot serve the rows of Q2")),
        "{:?}",
        m.problems
    );
    assert!(m.tables[0].is_counter_table());
    assert_eq!(
        layout(&m.tables[0]),
        ["K customer_id", "C↓ day", "order_count"]
    );
    assert_eq!(m.table_of("Q2"), None);
}

#[test]
fn a_window_without_a_group_is_the_partition_unless_ranged() {
    let (_, m) = summary(
        r#"Query(id: "Q1", text: "orders per day", rows: "Order",
            aggregates: [Aggregate(function: Count)],
            window: Some(Window(attr: "placed_at", period: Day)), returns: [])"#,
    );
    assert_eq!(layout(&m.tables[0]), ["K day", "order_count"]);
    assert_eq!(m.tables[0].name, "order_counts_by_day");
    assert!(
        m.plans[0].select.contains("WHERE day = ?"),
        "{}",
        m.plans[0].select
    );
    let (_, m) = summary(
        r#"Query(id: "Q1", text: "orders per day over a span", rows: "Order",
            range: Some(Range(attr: "placed_at", op: Between)),
            aggregates: [Aggregate(function: Count)],
            window: Some(Window(attr: "placed_at", period: Day)), returns: [])"#,
    );
    assert_eq!(layout(&m.tables[0]), ["K bucket", "C↓ day", "order_count"]);
    assert!(m.plans[0].access.is_direct(), "{:?}", m.plans[0].access);
}

#[test]
fn aggregate_queries_that_cannot_be_summarised_are_refused() {
    for (query, wanted) in [
        (
            r#"Query(id: "Q1", text: "t", rows: "Order", window: Some(Window(attr: "placed_at", period: Day)), returns: ["total"])"#,
            "a window groups aggregates",
        ),
        (
            r#"Query(id: "Q1", text: "t", rows: "Order", aggregates: [Aggregate(function: Sum, attr: Some("status"))], returns: [])"#,
            "sum of a text attribute is not supported",
        ),
        (
            r#"Query(id: "Q1", text: "t", rows: "Order", aggregates: [Aggregate(function: Max)], returns: [])"#,
            "max needs an attribute",
        ),
        (
            r#"Query(id: "Q1", text: "t", rows: "Order", equality: ["Customer.customer_id"], aggregates: [Aggregate(function: Count)], returns: ["total"])"#,
            "returns its group, its window and its aggregates only",
        ),
        (
            r#"Query(id: "Q1", text: "t", rows: "Order", aggregates: [Aggregate(function: Count)], window: Some(Window(attr: "total", period: Day)), returns: [])"#,
            "a window is a period of a date or time attribute",
        ),
    ] {
        let text = SHOP.replace("QUERIES", query);
        let err = load::from_str(&text).expect_err(wanted).to_string();
        assert!(err.contains(wanted), "{wanted}: {err}");
    }
}

#[test]
fn constants_aggregates_and_windows_survive_a_save() {
    let text = include_str!("../../sample-projects/clickstream.cqlm.ron");
    let p = load::from_str(text).expect("clickstream loads");
    let saved = load::to_string(&p);
    let compact: String = saved.split_whitespace().collect();
    for written in [
        "Aggregate(function:Count,),",
        r#"window:Some(Window(attr:"click_id",period:Hour,)),"#,
        r#"Constant(attr:"element",value:"checkout_button",),"#,
    ] {
        assert!(compact.contains(written), "{written}:\n{saved}");
    }
    assert_eq!(load::from_str(&saved).expect("reloads"), p);
    // A query without them saves as before: no empty fields appear.
    let q1 = load::item_to_string(&p.queries[0]);
    for absent in ["constants", "aggregates", "window"] {
        assert!(!q1.contains(absent), "{q1}");
    }
}

/// Q1 and Q3 need the same table; Q2's constant-bucket table answers Q1 but
/// not Q3 (its range would come before Q3's key): the pair stays together.
#[test]
fn a_table_shared_by_identical_queries_moves_only_when_the_host_answers_all() {
    let (_, m) = one(
        r#"Query(id: "Q1", text: "a", rows: "Order", equality: ["customer_id", "placed_at"], returns: ["total"]),
           Query(id: "Q2", text: "b", rows: "Order", order: [Order(attr: "placed_at")], returns: ["total"]),
           Query(id: "Q3", text: "c", rows: "Order", equality: ["customer_id"],
               range: Some(Range(attr: "placed_at", op: Between)), returns: ["total"])"#,
    );
    for p in &m.plans {
        assert_eq!(p.access, Access::Direct, "{}: {}", p.query, p.select);
    }
}

/// Table names a write path lists, as text.
fn names(list: &[crate::derive::writes::TableName]) -> Vec<&str> {
    list.iter().map(|t| &**t).collect()
}

/// Each table's readers in plan order, none for a plan without a table or
/// pointing past the tables, the same as collecting them table by table.
#[test]
fn plans_by_table_lists_each_tables_readers_in_plan_order() {
    let plan = |table: Option<usize>| Plan {
        query: Name::from("q"),
        table,
        select: super::Select::default(),
        access: Access::Impossible("test".into()),
        computed: vec![],
        request: None,
    };
    let model = LogicalModel {
        tables: vec![Table::default().into(); 4],
        plans: [Some(2), None, Some(0), Some(2), Some(9), Some(3), Some(2)]
            .into_iter()
            .map(plan)
            .collect(),
        ..LogicalModel::default()
    };
    let users = model.plans_by_table();
    assert_eq!(users.tables(), 4);
    let naive: Vec<Vec<usize>> = (0..4)
        .map(|t| {
            (0..model.plans.len())
                .filter(|&i| model.plans[i].table == Some(t))
                .collect()
        })
        .collect();
    for (t, expected) in naive.iter().enumerate() {
        assert_eq!(users.reading(t), expected.as_slice(), "table {t}");
    }
    assert_eq!(users.reading(2), [0, 3, 6]);
    assert!(users.reading(1).is_empty());
    assert!(users.reading(4).is_empty(), "past the tables");
    assert!(LogicalModel::default()
        .plans_by_table()
        .reading(0)
        .is_empty());
}

/// `normalize` (in place) removes exactly the detours a stack of edges
/// would: every "enter a relationship, leave it at the same end" pair,
/// innermost first, whatever the path.
#[test]
fn normalize_removes_each_detour_as_a_stack_would() {
    use crate::model::resolve::AttrId;
    fn by_stack(path: &[Edge]) -> Vec<Edge> {
        let mut out: Vec<Edge> = Vec::new();
        for &e in path {
            match (out.last(), e) {
                (Some(&Edge::Enter(r0, end0)), Edge::Leave(r1, end1))
                    if r0 == r1 && end0 == end1 =>
                {
                    out.pop();
                }
                _ => out.push(e),
            }
        }
        out
    }
    let mut rng = crate::model::synthetic::Rng::new(0x1234_5678);
    let mut detours = 0;
    for _ in 0..2_000 {
        let path = crate::model::resolve::random_path(&mut rng, 9, 2);
        let expected = by_stack(&path);
        detours += usize::from(expected.len() < path.len());
        let got = normalize(Reached {
            attr: AttrId::Entity(0, 0),
            path,
        });
        assert_eq!(got.path, expected);
    }
    assert!(detours > 100, "the random paths hold detours ({detours})");
}

/// Tables that clash take the next of their names (names after the first
/// are made from the table as built, before a designer's merge adds
/// columns).
#[test]
fn tables_that_clash_take_their_next_names() {
    let mut clash = shop(
        r#"Query(id: "Q1", text: "a", rows: "Order", equality: ["Customer.customer_id"],
               order: [Order(attr: "placed_at", dir: Desc)], returns: ["total", "status"]),
           Query(id: "Q2", text: "b", rows: "Order", equality: ["Customer.customer_id"],
               order: [Order(attr: "total", dir: Desc)], returns: ["total", "status"]),
           Query(id: "Q3", text: "c", rows: "Order", equality: ["Customer.customer_id"],
               returns: ["placed_at"]),
           Query(id: "Q4", text: "d", rows: "Order", equality: ["Customer.customer_id"],
               returns: ["status"]),
           Query(id: "Q5", text: "e", rows: "Order", equality: ["Customer.customer_id"],
               returns: ["total"])"#,
    );
    clash.decision_mut("Q3").separate = true;
    clash.decision_mut("Q4").separate = true;
    clash.decision_mut("Q5").served_by = Some("Q4".into());
    let projects = [clash];
    let names: Vec<Name> = derive(&projects[0])
        .tables
        .iter()
        .map(|t| t.name.clone())
        .collect();
    assert_eq!(
        names,
        [
            "orders_by_customer",
            "orders_by_customer_total",
            "order_placed_at_by_customer",
            "order_statuses_by_customer",
        ],
        "names after the first taken"
    );
}
