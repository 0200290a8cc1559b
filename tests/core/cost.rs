//! The workload's cost: figures worked out by hand in the comments, for a
//! read at each consistency level, the writes a write path sends each node,
//! disk with compaction headroom, the design's node counts, and every
//! assumed input named.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::derive::cost::{cost, Cost};
use cqlmodel::model::{load, Project};

fn project(text: &str) -> Project {
    load::from_str(text).unwrap_or_else(|e| panic!("{e}"))
}

fn cost_of(p: &Project) -> Cost {
    let a = analyze(p);
    cost(p, &a.model, &a.estimates)
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * b.abs().max(1.0)
}

/// Orders arrive at 86,400,000 a day, 1,000 a second, and three queries
/// read them by customer, by status and by id: three tables on the insert
/// path. The keyspace has RF 3 on 6 nodes.
const ORDERS: &str = r#"Project(
    format: 1,
    name: "Orders",
    keyspace: Keyspace(name: "shop", replication: Simple(3)),
    entities: [
        Entity(
            name: "Order",
            key: ["order_id"],
            attributes: [
                Attribute(name: "order_id", type: "uuid"),
                Attribute(name: "customer_id", type: "uuid", distinct: Some(1000000)),
                Attribute(name: "status", type: "text", size: Some(8), distinct: Some(1000000), mutable: true),
            ],
            count: Some(86400000),
            per: Some(Day),
            retention_days: Some(1),
        ),
    ],
    queries: [
        Query(id: "Q1", text: "Orders by id", rows: "Order", equality: ["order_id"],
              returns: ["order_id", "status"], load: Some(Load(avg: 300, peak: Some(900)))),
        Query(id: "Q2", text: "Orders of a customer", rows: "Order", equality: ["customer_id"],
              returns: ["order_id", "status"], load: Some(Load(avg: 60)), consistency: Some(One)),
        Query(id: "Q3", text: "Orders by status", rows: "Order", equality: ["status"],
              returns: ["order_id"], consistency: Some(All)),
    ],
    cluster: Cluster(nodes_per_dc: Some(6), node_requests: Some(5000), node_disk_gb: Some(500)),
)"#;

#[test]
fn a_single_partition_read_at_local_quorum_on_rf_3_contacts_two_replicas() {
    let c = cost_of(&project(ORDERS));
    let q1 = &c.queries[0];
    assert_eq!(q1.consistency, "LOCAL_QUORUM");
    assert_eq!(q1.replicas, 2);
    assert!(close(q1.partitions, 1.0));
    // 300 requests/s × 2 replicas over 6 nodes = 100 replica reads per
    // node; at the 900/s peak, 300.
    assert!(close(q1.reads_per_node, 100.0), "{}", q1.reads_per_node);
    assert!(close(q1.reads_per_node_peak, 300.0));
    // ONE contacts 1 replica: 60 × 1 / 6 = 10; the peak is assumed 2 × 60.
    let q2 = &c.queries[1];
    assert_eq!(q2.replicas, 1);
    assert!(close(q2.reads_per_node, 10.0));
    assert!(close(q2.peak, 120.0));
    assert!(q2
        .basis
        .assumed
        .iter()
        .any(|a| a.contains("peak 2 × average")));
    // ALL contacts all 3; no load stated: 1 request/s assumed, so 3 / 6.
    let q3 = &c.queries[2];
    assert_eq!(q3.replicas, 3);
    assert!(close(q3.reads_per_node, 0.5));
    assert!(q3
        .basis
        .assumed
        .iter()
        .any(|a| a.contains("no load stated")));
    assert!(q1.basis.inputs.iter().any(|i| i == "Q1.load"));
    assert!(q1
        .basis
        .assumed
        .iter()
        .any(|a| a.contains("LOCAL_QUORUM (no consistency stated)")));
}

#[test]
fn a_three_table_write_path_at_1000_inserts_a_second_on_6_nodes_rf_3() {
    let p = project(ORDERS);
    let c = cost_of(&p);
    assert_eq!(c.tables.len(), 3);
    for t in &c.tables {
        // 1,000 inserts/s; each write reaches 3 replicas over 6 nodes.
        assert!(close(t.writes, 1000.0), "{}: {}", t.table, t.writes);
        assert!(close(t.writes_per_node, 500.0), "{}", t.table);
    }
    let total: f64 = c.tables.iter().map(|t| t.writes_per_node).sum();
    assert!(close(total, 1500.0));
    assert!(close(c.design.writes_per_node, 1500.0));
    // Stated rate, assumed insert peak of 2 ×.
    let t = &c.tables[0];
    assert!(t
        .basis
        .inputs
        .iter()
        .any(|i| i.contains("stated insert rate")));
    assert!(close(t.writes_peak, 2000.0));
}

#[test]
fn updates_write_every_table_holding_the_attribute_and_twice_where_it_is_a_key() {
    let mut p = project(ORDERS);
    p.entities[0].updates = Some(cqlmodel::model::workload::Load {
        avg: 10.0,
        peak: Some(40.0),
    });
    let a = analyze(&p);
    let c = cost(&p, &a.model, &a.estimates);
    // status is a regular column in Q1's and Q2's tables (one statement per
    // update) and the partition key of Q3's (a delete and an insert).
    let by_query = |q: &str| {
        let name = a.model.table_of(q).map(|t| t.name.to_string());
        c.tables
            .iter()
            .find(|t| Some(&t.table) == name.as_ref())
            .unwrap_or_else(|| panic!("{q}"))
    };
    assert!(close(by_query("Q1").writes, 1010.0));
    assert!(close(by_query("Q2").writes, 1010.0));
    assert!(close(by_query("Q3").writes, 1020.0));
    // Peaks: 2,000 inserts + 40 or 80 updates.
    assert!(close(by_query("Q3").writes_peak, 2080.0));
}

#[test]
fn disk_per_node_keeps_the_compaction_headroom_and_sizes_the_cluster() {
    let p = project(ORDERS);
    let a = analyze(&p);
    let c = cost(&p, &a.model, &a.estimates);
    for (t, e) in c.tables.iter().zip(&a.estimates) {
        // One copy × RF 3 over 6 nodes: half a copy per node; SizeTiered
        // (no TTL) keeps 50 % free, so the disk is twice the data.
        assert!(close(t.data_per_node, e.table_bytes * 3.0 / 6.0));
        assert!(close(t.free_share, 0.5), "{}", t.compaction);
        assert!(close(t.disk_per_node, t.data_per_node * 2.0));
    }
    // Nodes for throughput: at peak, reads 300 + 20 + 1 (peaks 900·2/6,
    // 120·1/6, 2·3/6) and writes 3 × 2,000 · 3/6 = 3,000 per node: 3,321
    // on 6 nodes is 19,926 replica operations/s over 5,000 a node: 4,
    // raised to the RF of 3 at least.
    assert!(
        close(c.design.ops_per_node_peak, 3321.0),
        "{}",
        c.design.ops_per_node_peak
    );
    assert_eq!(c.design.nodes_for_throughput, 4);
    assert_eq!(c.design.nodes_now, 6);
    let total_disk: f64 = c.tables.iter().map(|t| t.disk_per_node).sum::<f64>() * 6.0;
    assert_eq!(
        c.design.nodes_for_disk,
        ((total_disk / 500e9).ceil() as u32).max(3)
    );
}

#[test]
fn two_data_centres_spread_writes_over_all_nodes_and_quorum_counts_both() {
    let text = ORDERS
        .replace("Simple(3)", r#"NetworkTopology({"east": 3, "west": 3})"#)
        .replace("consistency: Some(One)", "consistency: Some(Quorum)");
    let c = cost_of(&project(&text));
    assert_eq!(c.cluster.nodes, 12);
    assert_eq!(c.cluster.rf, 6);
    // QUORUM of 6 replicas is 4: 60 × 4 / 12 = 20 per node.
    assert_eq!(c.queries[1].replicas, 4);
    assert!(close(c.queries[1].reads_per_node, 20.0));
    // LOCAL_QUORUM stays 2: 300 × 2 / 12 = 50.
    assert!(close(c.queries[0].reads_per_node, 50.0));
    // Writes: 1,000 × 6 copies / 12 nodes = 500 per table and node.
    assert!(close(c.tables[0].writes_per_node, 500.0));
}

#[test]
fn a_cluster_left_out_is_assumed_and_says_so() {
    let text = ORDERS.replace(
        "cluster: Cluster(nodes_per_dc: Some(6), node_requests: Some(5000), node_disk_gb: Some(500)),",
        "",
    );
    let c = cost_of(&project(&text));
    assert_eq!(c.cluster.nodes, 3);
    let assumed = c.cluster.basis.assumed.join("\n");
    assert!(
        assumed.contains("3 nodes (no cluster.nodes_per_dc stated)"),
        "{assumed}"
    );
    assert!(assumed.contains("replica operations/s per node"));
    assert!(assumed.contains("GB of data per node"));
    // 1,000 inserts/s × 3 copies / 3 nodes = 1,000 per table and node.
    assert!(close(c.tables[0].writes_per_node, 1000.0));
}

#[test]
fn the_hottest_partition_takes_the_largest_partitions_share() {
    let p = project(ORDERS);
    let a = analyze(&p);
    let c = cost(&p, &a.model, &a.estimates);
    for (t, e) in c.tables.iter().zip(&a.estimates) {
        let share = e.rows_per_partition_max / e.rows;
        let reads: f64 = c
            .queries
            .iter()
            .filter(|q| q.table.as_deref() == Some(t.table.as_str()))
            .map(|q| q.peak * f64::from(q.replicas))
            .sum();
        // Per replica: (reads at the level + every write on each of 3
        // replicas) × share / 3.
        let expected = share * (reads + t.writes_peak * 3.0) / 3.0;
        assert!(close(t.hottest_partition, expected), "{}", t.table);
    }
    let max = c
        .tables
        .iter()
        .map(|t| t.hottest_partition)
        .fold(0.0, f64::max);
    assert!(c
        .design
        .hottest
        .as_ref()
        .is_some_and(|(_, h)| close(*h, max)));
}

#[test]
fn old_files_without_workload_figures_load_and_save_unchanged() {
    for (name, path) in crate::support::samples() {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{name}: {e}"));
        let p = project(&text);
        assert!(
            p.cluster == cqlmodel::model::workload::Cluster::default(),
            "{name}"
        );
        let saved = load::to_string(&p);
        assert!(!saved.contains("cluster:"), "{name}");
        assert!(!saved.contains("load:"), "{name}");
        assert!(!saved.contains("updates:"), "{name}");
    }
}

#[test]
fn bad_workload_figures_are_refused_with_their_path() {
    let text = ORDERS
        .replace("Load(avg: 60)", "Load(avg: -1)")
        .replace("nodes_per_dc: Some(6)", "nodes_per_dc: Some(0)");
    let Err(e) = load::from_str(&text) else {
        panic!("accepted");
    };
    let e = e.to_string();
    assert!(e.contains("queries[1].load.avg"), "{e}");
    assert!(e.contains("cluster.nodes_per_dc"), "{e}");
}

/// The alternatives matrix carries each key's design cost. Changing one
/// table's key changes neither the rows written nor the tables an insert
/// writes: writes per node are the same for every option; the derived
/// option's figures are those of the project with no candidate in use.
#[test]
fn the_alternatives_matrix_shows_each_keys_cost() {
    let mut p = crate::support::sample("devices-options.cqlm.ron");
    let m = cqlmodel::review::alternatives::matrix(&p, "Q1");
    assert!(m.options.len() > 2);
    let w = m.options[0].cost.writes_per_node;
    assert!(w > 0.0);
    for o in &m.options {
        assert!(
            close(o.cost.writes_per_node, w),
            "{}: {}",
            o.name,
            o.cost.writes_per_node
        );
    }
    let origin = m.query.clone();
    p.decision_mut(&origin).use_candidate = None;
    p.prune_decisions();
    let derived = cost_of(&p);
    assert!(close(
        m.options[0].cost.disk_per_node,
        derived.design.disk_per_node
    ));
    assert!(close(
        m.options[0].cost.rows_read_per_node,
        derived.design.rows_read_per_node
    ));
    let text = cqlmodel::review::alternatives::render(&p, &m);
    for row in [
        "writes/s per node",
        "rows read/s per node",
        "disk per node",
        "weighted ops/s",
    ] {
        assert!(text.contains(row), "{row}\n{text}");
    }
}

/// A refinement's preview shows the design's cost before and after: four
/// shards on Q2's table (60 requests/s at ONE, one replica each) make each
/// request read 4 partitions instead of 1, so on 6 nodes the reads per
/// node grow by 60 × (4 − 1) × 1 / 6 = 30 a second; the writes stay (a
/// shard changes where a row goes, not how many tables it goes to).
#[test]
fn a_refinement_preview_shows_the_change_in_cost() {
    use cqlmodel::edit::refine::preview;
    use cqlmodel::review::diagnose::Refinement;
    let p = project(ORDERS);
    let r = Refinement::AddShard {
        query: "Q2".into(),
        column: "shard".into(),
        count: 4,
    };
    let pv = preview(&p, &r);
    assert_eq!(pv.error, None);
    let (before, after) = pv.cost.expect("a workload is stated");
    assert!(
        close(after.reads_per_node - before.reads_per_node, 30.0),
        "{} → {}",
        before.reads_per_node,
        after.reads_per_node
    );
    assert!(close(after.writes_per_node, before.writes_per_node));
    // Without a stated workload there is no cost to show.
    let bare = project(&ORDERS.replace(
        "load: Some(Load(avg: 300, peak: Some(900)))",
        "",
    ).replace(", load: Some(Load(avg: 60)), consistency: Some(One)", "")
    .replace(", consistency: Some(All)", "")
    .replace(
        "cluster: Cluster(nodes_per_dc: Some(6), node_requests: Some(5000), node_disk_gb: Some(500)),",
        "",
    ));
    assert_eq!(preview(&bare, &r).cost, None);
}
