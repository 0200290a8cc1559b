//! Equality placement: the issue's examples as acceptance tests, each on a
//! small project written as RON.

use super::*;
#[allow(unused_imports)]
use crate::model::name::Name;
#[allow(unused_imports)]
use crate::model::resolve::{Edge, Graph, NodeId, Reached};
use crate::model::{load, PartitionKeys};
#[allow(unused_imports)]
use crate::model::{CqlType, Decision, Dir, ExtraKind, Native, Period, Project, Query, Shared};

/// A user's orders (a rate with a stated average and maximum), ratings a
/// user gives items (an m:n relationship), and a room identified by its
/// hotel and number.
const STORE: &str = r#"Project(
    format: 1,
    name: "store",
    keyspace: Keyspace(name: "store", replication: Simple(3)),
    entities: [
        Entity(name: "User", key: ["user_id"], attributes: [
            Attribute(name: "user_id", type: "uuid"),
            Attribute(name: "name", type: "text", size: Some(20)),
        ], count: Some(100000)),
        Entity(name: "Order", key: ["order_id"], attributes: [
            Attribute(name: "order_id", type: "timeuuid"),
            Attribute(name: "status", type: "text", size: Some(8), distinct: Some(5)),
            Attribute(name: "created_at", type: "timestamp"),
            Attribute(name: "total", type: "decimal", size: Some(8)),
        ]),
        Entity(name: "Item", key: ["item_id"], attributes: [
            Attribute(name: "item_id", type: "bigint"),
            Attribute(name: "title", type: "text", size: Some(30)),
        ], count: Some(50000)),
    ],
    relationships: [
        Relationship(name: "places", from: "User", to: "Order", cardinality: OneToMany,
            to_per_from: Some(Count(avg: ORDERS_AVG, max: Some(ORDERS_MAX)))),
        Relationship(name: "rates", from: "User", to: "Item", cardinality: ManyToMany,
            to_per_from: Some(Count(avg: 20, max: Some(200))),
            from_per_to: Some(Count(avg: 40, max: Some(5000))),
            attributes: [Attribute(name: "stars", type: "tinyint")]),
    ],
    queries: [
        Query(id: "Q1", text: "a user's orders with a given status, newest first", rows: "Order",
            equality: ["User.user_id", "status"], order: [Order(attr: "created_at", dir: Desc)],
            returns: ["total"]),
        Query(id: "Q2", text: "the rating a user gave an item", rows: "rates",
            equality: ["Item.item_id", "User.user_id"], returns: ["stars"]),
    ],
    SETTINGS
)"#;

fn store(orders_avg: u32, orders_max: u32, settings: &str) -> Project {
    let text = STORE
        .replace("ORDERS_AVG", &orders_avg.to_string())
        .replace("ORDERS_MAX", &orders_max.to_string())
        .replace("SETTINGS", settings);
    match load::from_str(&text) {
        Ok(p) => p,
        Err(e) => panic!("test project invalid: {e}"),
    }
}

/// `((a, b), c↓, d)` for a table.
fn key(t: &Table) -> String {
    let pk: Vec<&str> = t.partition_key().map(|c| c.name.as_str()).collect();
    let mut s = format!("(({})", pk.join(", "));
    for c in t.clustering() {
        s.push_str(", ");
        s.push_str(&c.name);
        if c.role == Role::Clustering(Dir::Desc) {
            s.push('↓');
        }
    }
    s.push(')');
    s
}

fn table<'m>(m: &'m LogicalModel, q: &str) -> &'m Table {
    m.table_of(q).unwrap_or_else(|| panic!("no table for {q}"))
}

#[test]
fn a_status_filter_leads_the_clustering_when_a_users_orders_are_few() {
    let m = derive(&store(20, 500, ""));
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    let t = table(&m, "Q1");
    assert_eq!(key(t), "((user_id), status, created_at↓, order_id)");
    let status = t.column("status").expect("status");
    assert_eq!(status.rule, Rule::Filter);
    assert!(
        status.why_text().contains("stays small"),
        "{}",
        status.why_text()
    );
    // Stated figures: nothing assumed.
    assert!(
        !status.why_text().contains("assumed"),
        "{}",
        status.why_text()
    );
    let user = t.column("user_id").expect("user_id");
    assert!(
        user.why_text().contains("key of User"),
        "{}",
        user.why_text()
    );
    // The query still reads one slice of one partition.
    assert_eq!(m.plan("Q1").map(|p| &p.access), Some(&Access::Direct));
}

#[test]
fn a_status_filter_joins_the_partition_key_when_a_users_orders_are_many() {
    let m = derive(&store(20_000, 400_000, ""));
    let t = table(&m, "Q1");
    assert_eq!(key(t), "((user_id, status), created_at↓, order_id)");
    let status = t.column("status").expect("status");
    assert_eq!(status.rule, Rule::Equality);
    assert!(
        status.why_text().contains("too large"),
        "{}",
        status.why_text()
    );
    assert_eq!(m.plan("Q1").map(|p| &p.access), Some(&Access::Direct));
}

/// Both ends identify a rating alike; the model chooses, not the order the
/// query lists them in (issue 39, rule 2): 100,000 users against 50,000
/// items, so the user's partitions are more and smaller (20 ratings each
/// on average against 40).
#[test]
fn the_rating_a_user_gave_an_item_reads_the_partition_of_the_end_with_more_instances() {
    let m = derive(&store(20, 500, ""));
    let t = table(&m, "Q2");
    assert_eq!(key(t), "((user_id), item_id)");
    let why = t
        .column("user_id")
        .map(Column::why_text)
        .unwrap_or_default();
    assert_eq!(
        why,
        "the key of User, the entity the query reads from \
         (chosen over Item: more instances, so more and smaller partitions)"
    );
    assert_eq!(m.plan("Q2").map(|p| &p.access), Some(&Access::Direct));
}

#[test]
fn all_equality_keeps_every_equality_attribute_in_the_partition_key() {
    let p = store(20, 500, "partition_keys: AllEquality,");
    assert_eq!(p.partition_keys, PartitionKeys::AllEquality);
    let m = derive(&p);
    assert_eq!(
        key(table(&m, "Q1")),
        "((user_id, status), created_at↓, order_id)"
    );
    assert_eq!(key(table(&m, "Q2")), "((user_id, item_id))");
    let why = &table(&m, "Q1").columns[1].why_text();
    assert!(why.contains("AllEquality"), "{why}");
}

#[test]
fn the_setting_is_left_out_of_files_that_keep_the_default() {
    let p = store(20, 500, "");
    let text = load::to_string(&p);
    assert!(!text.contains("partition_keys"), "{text}");
    let mut all = p.clone();
    all.partition_keys = PartitionKeys::AllEquality;
    let text = load::to_string(&all);
    assert!(text.contains("partition_keys: AllEquality"), "{text}");
    assert_eq!(load::from_str(&text).expect("reads back"), all);
}

#[test]
fn a_placement_on_default_figures_says_so() {
    // No count for the orders per user: the estimate assumes one.
    let text = STORE
        .replace(
            "to_per_from: Some(Count(avg: ORDERS_AVG, max: Some(ORDERS_MAX)))",
            "",
        )
        .replace("SETTINGS", "");
    let p = load::from_str(&text).expect("valid");
    let m = derive(&p);
    let status = table(&m, "Q1").column("status").expect("status");
    assert!(
        status.why_text().contains("assumed figures"),
        "{}",
        status.why_text()
    );
}

#[test]
fn a_decision_forces_either_placement() {
    let mut p = store(20, 500, "");
    p.decision_mut("Q1").equality_partition = vec!["status".into()];
    let m = derive(&p);
    let t = table(&m, "Q1");
    assert_eq!(key(t), "((user_id, status), created_at↓, order_id)");
    assert!(t
        .column("status")
        .is_some_and(|c| c.why_text().contains("decision")));

    let mut p = store(20_000, 400_000, "");
    p.decision_mut("Q1").equality_clustering = vec!["status".into()];
    let m = derive(&p);
    assert_eq!(
        key(table(&m, "Q1")),
        "((user_id), status, created_at↓, order_id)"
    );
    assert_eq!(m.plan("Q1").map(|p| &p.access), Some(&Access::Direct));
}

#[test]
fn the_entity_key_is_the_largest_complete_identifier_but_not_a_relationships_own() {
    let p = store(20, 500, "");
    let g = Graph::new(&p);
    let root = g.node("rates").expect("rates");
    let eq: Vec<Reached> = ["Item.item_id", "User.user_id"]
        .iter()
        .map(|a| normalize(g.resolve(root, a).expect("resolves")))
        .collect();
    // The relationship's own key (both ends) holds no attribute of its
    // own: an end's key wins, the one with more instances (100,000 users
    // against 50,000 items), whatever the query's order.
    let a = placement::anchor(&g, root, &eq).expect("an anchor");
    assert_eq!(a.columns, vec![1]);
    assert_eq!(g.node_name(a.node), "User");
    let swapped = [eq[1].clone(), eq[0].clone()];
    let b = placement::anchor(&g, root, &swapped).expect("an anchor");
    assert_eq!((b.columns, g.node_name(b.node)), (vec![0], "User"));
    // Nothing identifies a partition of orders by status alone.
    let root = g.node("Order").expect("Order");
    let eq = vec![normalize(g.resolve(root, "status").expect("resolves"))];
    assert!(placement::anchor(&g, root, &eq).is_none());
}

#[test]
fn a_forced_placement_of_a_column_that_is_no_equality_column_is_a_problem() {
    let mut p = store(20, 500, "");
    p.decision_mut("Q1").equality_clustering = vec!["total".into(), "statuss".into()];
    let m = derive(&p);
    let paths: Vec<&str> = m.problems.iter().map(|x| x.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "decisions(Q1).equality_clustering",
            "decisions(Q1).equality_clustering"
        ]
    );
    assert!(
        m.problems[1].message.contains("did you mean"),
        "{:?}",
        m.problems
    );
}

/// Q1 with the status stated as a constant (`status = 'open'`).
fn store_with_open_orders(orders_avg: u32, orders_max: u32, settings: &str) -> Project {
    let mut p = store(orders_avg, orders_max, settings);
    let q = &mut p.queries[0];
    q.equality.retain(|a| a != "status");
    q.constants = vec![crate::model::Constant {
        attr: "status".into(),
        value: "open".into(),
    }];
    assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
    p
}

#[test]
fn a_constant_leads_the_clustering_when_the_partition_stays_small() {
    let m = derive(&store_with_open_orders(20, 500, ""));
    let t = table(&m, "Q1");
    assert_eq!(key(t), "((user_id), status, created_at↓, order_id)");
    let status = t.column("status").expect("status");
    assert_eq!(status.rule, Rule::Constant);
    assert!(
        status.why_text().contains("stays small"),
        "{}",
        status.why_text()
    );
    let plan = m.plan("Q1").expect("plan");
    assert_eq!(plan.access, Access::Direct);
    assert!(plan.select.contains("status = 'open'"), "{}", plan.select);
}

#[test]
fn a_constant_joins_the_partition_key_when_the_partition_would_be_too_large() {
    let m = derive(&store_with_open_orders(20_000, 400_000, ""));
    let t = table(&m, "Q1");
    assert_eq!(key(t), "((user_id, status), created_at↓, order_id)");
    let status = t.column("status").expect("status");
    assert_eq!(status.rule, Rule::Constant, "the SELECT still binds it");
    assert!(
        status.why_text().contains("a constant moved in")
            && status.why_text().contains("too large"),
        "{}",
        status.why_text()
    );
    let plan = m.plan("Q1").expect("plan");
    assert_eq!(plan.access, Access::Direct);
    assert!(plan.select.contains("status = 'open'"), "{}", plan.select);
}

#[test]
fn all_equality_puts_constants_in_the_partition_key_too() {
    let m = derive(&store_with_open_orders(
        20,
        500,
        "partition_keys: AllEquality,",
    ));
    assert_eq!(
        key(table(&m, "Q1")),
        "((user_id, status), created_at↓, order_id)"
    );
}

#[test]
fn a_decision_and_its_refinement_move_a_constant_like_any_filter() {
    let p = store_with_open_orders(20, 500, "");
    let offered = crate::edit::refine::options(&p, "Q1");
    let mv = offered
        .iter()
        .find(|r| {
            matches!(r, crate::review::diagnose::Refinement::PlaceEquality { column, partition: true, .. }
                if column == "status")
        })
        .expect("moving the constant into the partition is offered");
    let moved = crate::edit::refine::apply(&p, mv).expect("applies");
    assert_eq!(
        key(table(&derive(&moved), "Q1")),
        "((user_id, status), created_at↓, order_id)"
    );
    let mut back = store_with_open_orders(20_000, 400_000, "");
    back.decision_mut("Q1").equality_clustering = vec!["status".into()];
    assert_eq!(
        key(table(&derive(&back), "Q1")),
        "((user_id), status, created_at↓, order_id)"
    );
}

/// Orders of a user, sold by a store, shipped to a region; a user works
/// for a company; a shelf is a store's (a weak entity). Counts are
/// placeholders so each test states what ranks the identifiers.
const RIVALS: &str = r#"Project(
    format: 1,
    name: "rivals",
    keyspace: Keyspace(name: "rivals", replication: Simple(3)),
    entities: [
        Entity(name: "Company", key: ["company_id"], attributes: [
            Attribute(name: "company_id", type: "uuid"),
        ], count: Some(COMPANIES)),
        Entity(name: "User", key: ["user_id"], attributes: [
            Attribute(name: "user_id", type: "uuid"),
        ], count: Some(USERS)),
        Entity(name: "Store", key: ["store_id"], unique: [["store_code"]], attributes: [
            Attribute(name: "store_id", type: "uuid"),
            Attribute(name: "store_code", type: "text", size: Some(6)),
        ], count: Some(STORES)),
        Entity(name: "Region", key: ["region_id"], attributes: [
            Attribute(name: "region_id", type: "int"),
        ], count: Some(REGIONS)),
        Entity(name: "Shelf", owner: Some("holds"), key: ["shelf_no"], attributes: [
            Attribute(name: "shelf_no", type: "int"),
        ]),
        Entity(name: "Order", key: ["order_id"], attributes: [
            Attribute(name: "order_id", type: "timeuuid"),
            Attribute(name: "total", type: "decimal", size: Some(8)),
            Attribute(name: "channel", type: "text", size: Some(6), distinct: Some(4)),
            Attribute(name: "placed_on", type: "date"),
            Attribute(name: "placed_at", type: "timestamp"),
        ]),
    ],
    relationships: [
        Relationship(name: "employs", from: "Company", to: "User", cardinality: OneToMany),
        Relationship(name: "places", from: "User", to: "Order", cardinality: OneToMany),
        Relationship(name: "sells", from: "Store", to: "Order", cardinality: OneToMany),
        Relationship(name: "ships_to", from: "Region", to: "Order", cardinality: OneToMany),
        Relationship(name: "holds", from: "Store", to: "Shelf", cardinality: OneToMany),
        Relationship(name: "picked_from", from: "Shelf", to: "Order", cardinality: OneToMany),
    ],
    queries: [
        Query(id: "Q1", text: "orders", rows: "Order", equality: [EQUALITY], returns: ["total"]
            CALENDAR),
    ],
    SETTINGS
)"#;

/// Q1's table, the same for every order of `equality`: the model's
/// choices and their wording must not depend on it. `extra` is spliced
/// after the query's returns (`, calendar: …`), `settings` after the
/// queries.
fn q1_table(counts: [u32; 4], equality: &[&str], extra: &str, settings: &str) -> Table {
    let mut seen: Option<Table> = None;
    for order in permutations(equality) {
        let listed: Vec<String> = order.iter().map(|e| format!("{e:?}")).collect();
        let text = RIVALS
            .replace("COMPANIES", &counts[0].to_string())
            .replace("USERS", &counts[1].to_string())
            .replace("STORES", &counts[2].to_string())
            .replace("REGIONS", &counts[3].to_string())
            .replace("EQUALITY", &listed.join(", "))
            .replace("CALENDAR", extra)
            .replace("SETTINGS", settings);
        let p = load::from_str(&text).unwrap_or_else(|e| panic!("test project invalid: {e}"));
        let m = derive(&p);
        assert!(m.problems.is_empty(), "{:?}", m.problems);
        let t = table(&m, "Q1").clone();
        if let Some(s) = &seen {
            assert_eq!(key(s), key(&t), "equality listed as {order:?}");
            let why = |t: &Table| t.columns.iter().map(Column::why_text).collect::<Vec<_>>();
            assert_eq!(why(s), why(&t), "equality listed as {order:?}");
        }
        seen = Some(t);
    }
    seen.expect("at least one order")
}

/// The name and reason of the column that leads Q1's partition key.
fn anchor_reason(counts: [u32; 4], equality: &[&str]) -> (String, String) {
    let t = q1_table(counts, equality, "", "");
    let first = t.partition_key().next().expect("a partition key");
    (first.name.to_string(), first.why_text())
}

fn permutations<'a>(items: &[&'a str]) -> Vec<Vec<&'a str>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut tail in permutations(&rest) {
            tail.insert(0, first);
            out.push(tail);
        }
    }
    out
}

/// Three parents identify an order alike: the user wins by its 1,000
/// instances, and the reason names the runner-up (the store's 500), not
/// the last parent met (the region's 100).
#[test]
fn the_reason_names_the_runner_up_among_three_parents() {
    let (column, why) = anchor_reason(
        [10, 1000, 500, 100],
        &["User.user_id", "Store.store_id", "Region.region_id"],
    );
    assert_eq!(column, "user_id");
    assert!(
        why.ends_with("(chosen over Store: more instances, so more and smaller partitions)"),
        "{why}"
    );
}

/// Runners-up of equal rank: the reason names the first by name, however
/// the query lists them.
#[test]
fn runners_up_of_equal_rank_are_named_in_name_order() {
    let (column, why) = anchor_reason(
        [10, 1000, 500, 500],
        &["User.user_id", "Store.store_id", "Region.region_id"],
    );
    assert_eq!(column, "user_id");
    assert!(
        why.ends_with("(chosen over Region: more instances, so more and smaller partitions)"),
        "{why}"
    );
}

/// The user is the order's parent; the company is two steps further: the
/// parent wins although the company has more instances.
#[test]
fn a_parent_wins_over_a_farther_node_with_more_instances() {
    let (column, why) = anchor_reason(
        [5000, 1000, 500, 100],
        &["User.user_id", "Company.company_id"],
    );
    assert_eq!(column, "user_id");
    assert!(
        why.ends_with("(chosen over Company: the rows are its children)"),
        "{why}"
    );
}

/// A store named by its `unique` code against a region by its declared
/// key, as many of each: the declared key wins.
#[test]
fn a_declared_key_wins_over_a_unique_identifier_of_as_many_instances() {
    let (column, why) = anchor_reason(
        [10, 1000, 300, 300],
        &["Store.store_code", "Region.region_id"],
    );
    assert_eq!(column, "region_id");
    assert!(
        why.ends_with("(chosen over Store: its declared key)"),
        "{why}"
    );
}

/// Two declared keys of as many instances: names settle it, and say so.
#[test]
fn equal_identifiers_are_settled_by_name_and_the_reason_says_so() {
    let (column, why) = anchor_reason(
        [10, 1000, 300, 300],
        &["Store.store_id", "Region.region_id"],
    );
    assert_eq!(column, "region_id");
    assert!(
        why.ends_with("(chosen over Store: by name, neither owning the rows)"),
        "{why}"
    );
}

/// The shelf's identifier (its store and number) is larger than the
/// region's or the user's: it wins outright, and the rivalry of the two
/// smaller ones met before it (in some orders) is not named.
#[test]
fn a_larger_identifier_wins_outright_with_no_rival_named() {
    let (column, why) = anchor_reason(
        [10, 1000, 500, 100],
        &[
            "Region.region_id",
            "User.user_id",
            "Store.store_id via picked_from, holds",
            "Shelf.shelf_no",
        ],
    );
    assert_eq!(column, "store_id");
    assert_eq!(why, "the key of Shelf, the entity the query reads from");
}

/// Besides the anchor, dates and times come first in the model's order,
/// then the other attributes, whatever their names (`channel` sorts
/// before `placed_on`): with every equality attribute in the partition
/// key, that is the key's order.
#[test]
fn a_date_comes_before_other_equality_attributes_in_the_models_order() {
    let t = q1_table(
        [10, 1000, 500, 100],
        &["channel", "placed_on", "User.user_id"],
        "",
        "partition_keys: AllEquality,",
    );
    assert_eq!(key(&t), "((user_id, placed_on, channel), order_id)");
}

/// A date in the partition key bounds it in time: the channel filter then
/// leads the clustering (a user's orders of one day are few) instead of
/// being moved in for rows that pile up with time.
#[test]
fn a_date_in_the_partition_key_keeps_a_filter_in_the_clustering() {
    let t = q1_table(
        [10, 1000, 500, 100],
        &["channel", "placed_on", "User.user_id"],
        "",
        "",
    );
    assert_eq!(key(&t), "((user_id, placed_on), channel, order_id)");
    let channel = t.column("channel").expect("channel");
    assert_eq!(channel.rule, Rule::Filter);
}

/// A day bucket of the order time bounds the partition in time alike.
#[test]
fn a_calendar_bucket_in_the_partition_key_keeps_a_filter_in_the_clustering() {
    let t = q1_table(
        [10, 1000, 500, 100],
        &["channel", "User.user_id"],
        r#", calendar: [(period: Day, attr: "placed_at")]"#,
        "",
    );
    let k = key(&t);
    assert!(k.starts_with("((user_id, "), "{k}");
    assert!(k.contains("), channel, "), "{k}");
    assert_eq!(t.column("channel").map(|c| c.rule), Some(Rule::Filter));
}

/// Without a time in the partition key the same filter is moved in: a
/// user's orders pile up with time and nothing stated bounds them.
#[test]
fn without_a_time_in_the_partition_key_the_filter_is_moved_in() {
    let t = q1_table([10, 1000, 500, 100], &["channel", "User.user_id"], "", "");
    assert_eq!(key(&t), "((user_id, channel), order_id)");
}

/// [`anchor`] itself, on the equality as listed (placement calls it on the
/// model's order, where the winner's attributes come first): a larger
/// identifier met after two smaller rivals wins with no rival named, in
/// every order.
#[test]
fn anchor_forgets_smaller_rivals_when_a_larger_identifier_wins() {
    let (p, listed) = rivals_direct();
    let graph = Graph::new(&p);
    let root = graph.node("Order").expect("Order");
    for order in permutations(&listed) {
        let a = anchor_as_listed(&graph, root, &order);
        assert_eq!(a.node, graph.node("Shelf").expect("Shelf"), "{order:?}");
        assert_eq!(a.columns.len(), 2, "{order:?}");
        assert_eq!(a.over, None, "{order:?}");
    }
}

/// [`anchor`] on the equality as listed: when the winner changes among
/// identifiers of one size, the one it beat stays the rival, and the
/// runner-up is named whatever the order.
#[test]
fn anchor_names_the_runner_up_in_every_listed_order() {
    let (p, _) = rivals_direct();
    let graph = Graph::new(&p);
    let root = graph.node("Order").expect("Order");
    let listed = ["User.user_id", "Store.store_id", "Region.region_id"];
    for order in permutations(&listed) {
        let a = anchor_as_listed(&graph, root, &order);
        assert_eq!(a.node, graph.node("User").expect("User"), "{order:?}");
        assert_eq!(
            a.over.as_deref(),
            Some("chosen over Store: more instances, so more and smaller partitions"),
            "{order:?}"
        );
    }
    // Runners-up of equal rank (500 stores, 500 regions): by name.
    let p = load::from_str(
        &RIVALS
            .replace("COMPANIES", "10")
            .replace("USERS", "1000")
            .replace("STORES", "500")
            .replace("REGIONS", "500")
            .replace("EQUALITY", "")
            .replace("CALENDAR", "")
            .replace("SETTINGS", ""),
    )
    .unwrap_or_else(|e| panic!("test project invalid: {e}"));
    let graph = Graph::new(&p);
    let root = graph.node("Order").expect("Order");
    for order in permutations(&listed) {
        let a = anchor_as_listed(&graph, root, &order);
        assert_eq!(
            a.over.as_deref(),
            Some("chosen over Region: more instances, so more and smaller partitions"),
            "{order:?}"
        );
    }
}

fn anchor_as_listed(
    graph: &Graph,
    root: NodeId,
    listed: &[&str],
) -> crate::derive::placement::Anchor {
    let equality: Vec<Reached> = listed
        .iter()
        .map(|t| normalize(graph.resolve(root, t).expect("resolves")))
        .collect();
    crate::derive::placement::anchor(graph, root, &equality).expect("an anchor")
}

/// The rivals project (1,000 users, 500 stores, 100 regions) and the
/// equality of [`anchor_forgets_smaller_rivals_when_a_larger_identifier_wins`].
fn rivals_direct() -> (Project, [&'static str; 4]) {
    let text = RIVALS
        .replace("COMPANIES", "10")
        .replace("USERS", "1000")
        .replace("STORES", "500")
        .replace("REGIONS", "100")
        .replace("EQUALITY", "")
        .replace("CALENDAR", "")
        .replace("SETTINGS", "");
    let p = load::from_str(&text).unwrap_or_else(|e| panic!("test project invalid: {e}"));
    let listed = [
        "Region.region_id",
        "User.user_id",
        "Store.store_id via picked_from, holds",
        "Shelf.shelf_no",
    ];
    (p, listed)
}
