//! What a design costs the cluster under the project's workload: per query
//! the partitions, rows and bytes one request reads, the replicas its
//! consistency level contacts and the replica reads per node; per table the
//! writes every write path sends it, the bytes they carry and the disk it
//! takes per node with the compaction strategy's headroom; per design the
//! nodes disk and throughput need and the hottest partition against what
//! one replica set serves. Every figure lists what it rests on and which
//! of those inputs were assumed, like the estimates.
//!
//! The arithmetic, for a capacity review:
//! - a read at consistency level CL contacts `replicas(CL)` replicas of each
//!   partition it touches; coordinators are assumed spread evenly over the
//!   nodes, so each node serves `rate × partitions × replicas / nodes`;
//! - every write reaches every replica whatever its consistency level (the
//!   level only decides how many acknowledge), so a table written `w` times
//!   a second puts `w × RF / nodes` writes on each node; a batch counts as
//!   its statements, an update of a key column as a delete and an insert;
//! - disk per node is `table bytes × RF / nodes / (1 − free)`, where `free`
//!   is the share of the disk compaction needs empty: about 50 % for
//!   `SizeTiered` (it may rewrite the largest tier at once), 10 % for
//!   `Leveled` (one level's fan-out), one window's share for `TimeWindow`
//!   (only the current window is compacted by size tiers) — the Apache
//!   Cassandra and `DataStax` compaction guides' planning figures.

use super::estimate::{Estimate, Estimator};
use super::types::{Access, LogicalModel, Table};
use crate::model::physical::Strategy;
use crate::model::resolve::{Graph, NodeId};
use crate::model::workload::{
    Consistency, Load, ASSUMED_PEAK_FACTOR, DEFAULT_NODES_PER_DC, DEFAULT_NODE_DISK_GB,
    DEFAULT_NODE_REQUESTS, DEFAULT_QUERY_RATE,
};
use crate::model::{Project, Replication};
use serde::Serialize;
use std::collections::BTreeMap;

const SECONDS_PER_DAY: f64 = 86_400.0;
const GB: f64 = 1e9;

/// What a figure rests on, and which of those inputs were assumed.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Basis {
    pub inputs: Vec<String>,
    pub assumed: Vec<String>,
}

impl Basis {
    fn input(&mut self, s: impl Into<String>) {
        let s = s.into();
        if !self.inputs.contains(&s) {
            self.inputs.push(s);
        }
    }
    fn assume(&mut self, s: impl Into<String>) {
        let s = s.into();
        if !self.assumed.contains(&s) {
            self.assumed.push(s);
        }
    }
    fn absorb(&mut self, other: &Basis) {
        for i in &other.inputs {
            self.input(i.clone());
        }
        for a in &other.assumed {
            self.assume(a.clone());
        }
    }
}

/// One data centre: its replication factor and nodes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DataCentre {
    pub name: String,
    pub rf: u32,
    pub nodes: u32,
}

/// The cluster the figures are taken on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ClusterShape {
    pub data_centres: Vec<DataCentre>,
    /// Copies of each row across the cluster.
    pub rf: u32,
    pub nodes: u32,
    /// Replica operations per second one node serves.
    pub node_requests: f64,
    /// Bytes one node may hold.
    pub node_disk_bytes: f64,
    pub basis: Basis,
}

impl ClusterShape {
    pub fn of(project: &Project) -> ClusterShape {
        let c = &project.cluster;
        let mut basis = Basis::default();
        let dcs: Vec<(String, u32)> = match &project.keyspace.replication {
            Replication::Simple(rf) => vec![("dc1".to_string(), *rf)],
            Replication::NetworkTopology(m) if !m.is_empty() => {
                m.iter().map(|(k, v)| (k.clone(), *v)).collect()
            }
            Replication::NetworkTopology(_) => vec![("dc1".to_string(), 0)],
        };
        basis.input("keyspace replication");
        let data_centres: Vec<DataCentre> = dcs
            .into_iter()
            .map(|(name, rf)| {
                let nodes = if let Some(n) = c.nodes.get(&name) {
                    basis.input(format!("cluster.nodes[{name}]"));
                    *n
                } else if let Some(n) = c.nodes_per_dc {
                    basis.input("cluster.nodes_per_dc");
                    n
                } else {
                    let n = DEFAULT_NODES_PER_DC.max(rf);
                    basis.assume(format!(
                        "{name}: {n} nodes (no cluster.nodes_per_dc stated)"
                    ));
                    n
                };
                DataCentre {
                    name,
                    rf: rf.max(1),
                    nodes: nodes.max(1),
                }
            })
            .collect();
        let node_requests = c.node_requests.unwrap_or_else(|| {
            basis.assume(format!(
                "{DEFAULT_NODE_REQUESTS} replica operations/s per node (no cluster.node_requests stated)"
            ));
            DEFAULT_NODE_REQUESTS
        });
        let node_disk_gb = c.node_disk_gb.unwrap_or_else(|| {
            basis.assume(format!(
                "{DEFAULT_NODE_DISK_GB} GB of data per node (no cluster.node_disk_gb stated)"
            ));
            DEFAULT_NODE_DISK_GB
        });
        ClusterShape {
            rf: data_centres.iter().map(|d| d.rf).sum(),
            nodes: data_centres.iter().map(|d| d.nodes).sum(),
            data_centres,
            node_requests,
            node_disk_bytes: node_disk_gb * GB,
            basis,
        }
    }

    fn rfs(&self) -> Vec<u32> {
        self.data_centres.iter().map(|d| d.rf).collect()
    }

    /// Replicas a read at `cl` contacts, its coordinator in the first
    /// data centre (all have their quorum computed alike when RFs match).
    pub fn replicas(&self, cl: Consistency) -> u32 {
        let local = self.data_centres.first().map_or(1, |d| d.rf);
        cl.replicas(local, &self.rfs())
    }
}

/// One query's cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryCost {
    pub query: String,
    pub table: Option<String>,
    pub consistency: &'static str,
    /// Requests per second, average and peak.
    pub rate: f64,
    pub peak: f64,
    pub partitions: f64,
    pub rows: f64,
    pub bytes: f64,
    pub replicas: u32,
    /// Replica reads per second on each node, average and peak.
    pub reads_per_node: f64,
    pub reads_per_node_peak: f64,
    pub basis: Basis,
}

/// One table's cost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableCost {
    pub table: String,
    /// Write statements per second the table receives (cluster-wide, one
    /// copy), average and peak; and per node with replication.
    pub writes: f64,
    pub writes_peak: f64,
    pub writes_per_node: f64,
    pub writes_per_node_peak: f64,
    /// Bytes written per second (one copy).
    pub write_bytes: f64,
    /// Read requests per second the table serves (cluster-wide, average
    /// and peak).
    pub reads: f64,
    pub reads_peak: f64,
    /// Data per node with replication, the share of the disk compaction
    /// needs free, and the disk per node that leaves.
    pub data_per_node: f64,
    pub free_share: f64,
    pub disk_per_node: f64,
    pub compaction: String,
    /// Replica operations per second on one replica of the hottest
    /// partition, at peak.
    pub hottest_partition: f64,
    pub basis: Basis,
}

/// The design's totals.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DesignCost {
    pub reads_per_node: f64,
    /// Rows the replicas read a second per node (a scan reads every row).
    pub rows_read_per_node: f64,
    pub writes_per_node: f64,
    pub disk_per_node: f64,
    /// Replica operations per second per node at peak, against the budget.
    pub ops_per_node_peak: f64,
    pub nodes_for_disk: u32,
    pub nodes_for_throughput: u32,
    pub nodes_now: u32,
    /// The table with the hottest partition and that partition's replica
    /// operations per second on each replica, against one node's budget.
    pub hottest: Option<(String, f64)>,
    /// Replica operations per second at the average rates: the
    /// workload-weighted total a NoSE-style optimiser would minimise.
    pub weighted_total: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Cost {
    pub cluster: ClusterShape,
    pub queries: Vec<QueryCost>,
    pub tables: Vec<TableCost>,
    pub design: DesignCost,
}

/// The cost of `model` (with its `estimates`, parallel to its tables) under
/// the project's workload.
pub fn cost(project: &Project, model: &LogicalModel, estimates: &[Estimate]) -> Cost {
    let graph = Graph::new(project);
    cost_in(&graph, model, estimates)
}

pub(crate) fn cost_in(graph: &Graph, model: &LogicalModel, estimates: &[Estimate]) -> Cost {
    let project = graph.project;
    let cluster = ClusterShape::of(project);
    let est = Estimator::new(graph);
    let nodes = f64::from(cluster.nodes);
    let rf = f64::from(cluster.rf);

    let mut tables: Vec<TableCost> = model
        .tables
        .iter()
        .enumerate()
        .map(|(i, t)| empty_table(t, estimates.get(i), &cluster))
        .collect();
    let index: BTreeMap<&str, usize> = model
        .tables
        .iter()
        .enumerate()
        .map(|(i, t)| (t.name.as_str(), i))
        .collect();

    // Reads.
    let mut queries = Vec::new();
    for q in &project.queries {
        let mut basis = Basis::default();
        let (rate, peak) = query_rate(q.load.as_ref(), &q.id, &mut basis);
        let cl = q.consistency.unwrap_or_else(|| {
            basis.assume(format!("{}: LOCAL_QUORUM (no consistency stated)", q.id));
            Consistency::LocalQuorum
        });
        if q.consistency.is_some() {
            basis.input(format!("{}.consistency", q.id));
        }
        basis.input("keyspace replication");
        let plan = model.plan(&q.id);
        let ti = plan.and_then(|p| p.table);
        let table = ti.and_then(|i| model.tables.get(i));
        let e = ti.and_then(|i| estimates.get(i));
        let (partitions, rows, bytes, spread) = match (plan, table, e) {
            (Some(p), Some(t), Some(e)) if !matches!(p.access, Access::Impossible(_)) => {
                read_shape(q, p, t, e, &mut basis)
            }
            _ => {
                basis.assume(format!("{}: no table serves it; nothing read", q.id));
                (0.0, 0.0, 0.0, false)
            }
        };
        let mut replicas = cluster.replicas(cl);
        // A scan or index read asks every token range: each partition
        // range's replicas at the level, so all nodes over RF of them.
        let contacted = if spread {
            basis.assume(format!(
                "{}: reads every token range (a scan or an index query)",
                q.id
            ));
            f64::from(replicas) * nodes / rf.max(1.0)
        } else {
            f64::from(replicas) * partitions
        };
        if spread {
            replicas = (contacted.round() as u32).max(replicas);
        }
        let per_node = |r: f64| r * contacted / nodes.max(1.0);
        if let Some(i) = ti {
            if let Some(tc) = tables.get_mut(i) {
                tc.reads += rate;
                tc.reads_peak += peak;
            }
        }
        // A queue's read deletes the rows it read.
        if q.consumes {
            if let Some(tc) = ti.and_then(|i| tables.get_mut(i)) {
                tc.writes += rate * rows;
                tc.writes_peak += peak * rows;
                tc.basis.input(format!(
                    "{}: deletes the {rows:.0} rows each read returns",
                    q.id
                ));
            }
        }
        queries.push(QueryCost {
            query: q.id.clone(),
            table: table.map(|t| t.name.to_string()),
            consistency: cl.cql(),
            rate,
            peak,
            partitions,
            rows,
            bytes,
            replicas,
            reads_per_node: per_node(rate),
            reads_per_node_peak: per_node(peak),
            basis,
        });
    }

    // Writes: every write path's statements.
    for w in &model.writes {
        let Some(node) = graph.node(&w.item) else {
            continue;
        };
        let mut basis = Basis::default();
        let (inserts, inserts_peak) = insert_rate(graph, &est, node, &mut basis);
        let mut add = |name: &str, n: f64, peak: f64, basis: &Basis| {
            if let Some(tc) = index.get(name).and_then(|&i| tables.get_mut(i)) {
                tc.writes += n;
                tc.writes_peak += peak;
                tc.basis.absorb(basis);
            }
        };
        for t in w.insert.iter().chain(&w.summaries) {
            add(t, inserts, inserts_peak, &basis);
        }
        if !w.job.is_empty() {
            let mut jb = basis.clone();
            jb.assume(format!(
                "{}: the batch job writes each row once, at the insert rate",
                w.item
            ));
            for t in &w.job {
                add(t, inserts, inserts_peak, &jb);
            }
        }
        let updates = match node {
            NodeId::Entity(e) => graph.entity(e).updates.as_ref(),
            NodeId::Rel(r) => graph.rel(r).updates.as_ref(),
        };
        if let Some(u) = updates {
            let mut ub = Basis::default();
            ub.input(format!("{}.updates", w.item));
            let (peak, assumed) = u.peak_or_assumed();
            if assumed {
                ub.assume(format!(
                    "{}: update peak {ASSUMED_PEAK_FACTOR} × average (none stated)",
                    w.item
                ));
            }
            ub.assume(format!(
                "{}: an update writes every table holding a mutable attribute",
                w.item
            ));
            // Each table once per update, twice where the attribute is a
            // key column there (a delete and an insert).
            let mut per_table: BTreeMap<&str, f64> = BTreeMap::new();
            let mutable = w.update.iter().filter(|a| {
                graph
                    .attr_id(node, &a.attribute)
                    .is_some_and(|id| graph.attr(id).mutable)
            });
            for a in mutable {
                for (t, key) in &a.tables {
                    let n = if *key { 2.0 } else { 1.0 };
                    let slot = per_table.entry(t.as_str()).or_insert(0.0);
                    *slot = slot.max(n);
                }
            }
            for (t, n) in per_table {
                add(t, u.avg * n, peak * n, &ub);
            }
        }
    }

    for tc in &mut tables {
        tc.writes_per_node = tc.writes * rf / nodes.max(1.0);
        tc.writes_per_node_peak = tc.writes_peak * rf / nodes.max(1.0);
    }
    let mut hottest: Option<(String, f64)> = None;
    for (i, tc) in tables.iter_mut().enumerate() {
        let e = estimates.get(i);
        let bytes_per_row = e.map_or(0.0, row_bytes);
        tc.write_bytes = tc.writes * bytes_per_row;
        // The hottest partition takes the largest partition's share of
        // the table's requests (assumed: requests follow the rows).
        let share = e.map_or(1.0, |e| {
            if e.rows > 0.0 {
                (e.rows_per_partition_max / e.rows).clamp(0.0, 1.0)
            } else {
                1.0
            }
        });
        let reads_ops: f64 = queries
            .iter()
            .filter(|q| q.table.as_deref() == Some(tc.table.as_str()) && q.partitions <= 1.0)
            .map(|q| q.peak * f64::from(q.replicas))
            .sum();
        tc.hottest_partition = share * (reads_ops + tc.writes_peak * rf) / rf.max(1.0);
        tc.basis.assume(format!(
            "{}: requests land on partitions in proportion to their rows (the largest takes {:.3} %)",
            tc.table,
            share * 100.0
        ));
        if hottest
            .as_ref()
            .is_none_or(|(_, h)| tc.hottest_partition > *h)
        {
            hottest = Some((tc.table.clone(), tc.hottest_partition));
        }
    }

    let sum = |f: &dyn Fn(&TableCost) -> f64| tables.iter().map(f).sum::<f64>();
    let qsum = |f: &dyn Fn(&QueryCost) -> f64| queries.iter().map(f).sum::<f64>();
    let reads_per_node = qsum(&|q| q.reads_per_node);
    let writes_per_node = sum(&|t| t.writes_per_node);
    let disk_per_node = sum(&|t| t.disk_per_node);
    let ops_per_node_peak = qsum(&|q| q.reads_per_node_peak) + sum(&|t| t.writes_per_node_peak);
    let total_disk = disk_per_node * nodes;
    let nodes_for_disk = (total_disk / cluster.node_disk_bytes).ceil() as u32;
    let nodes_for_throughput = (ops_per_node_peak * nodes / cluster.node_requests).ceil() as u32;
    let weighted_total = (reads_per_node + writes_per_node) * nodes;
    let rows_read_per_node = qsum(&|q| q.rate * q.rows * f64::from(q.replicas)) / nodes.max(1.0);
    let design = DesignCost {
        reads_per_node,
        rows_read_per_node,
        writes_per_node,
        disk_per_node,
        ops_per_node_peak,
        nodes_for_disk: nodes_for_disk.max(cluster.rf),
        nodes_for_throughput: nodes_for_throughput.max(cluster.rf),
        nodes_now: cluster.nodes,
        hottest,
        weighted_total,
    };
    Cost {
        cluster,
        queries,
        tables,
        design,
    }
}

/// A row's bytes on average: the partition's bytes over its rows.
fn row_bytes(e: &Estimate) -> f64 {
    if e.rows_per_partition > 0.0 {
        e.partition_bytes / e.rows_per_partition
    } else {
        e.partition_bytes
    }
}

fn empty_table(t: &Table, e: Option<&Estimate>, cluster: &ClusterShape) -> TableCost {
    let mut basis = Basis::default();
    let (free, compaction) = free_share(t, &mut basis);
    let nodes = f64::from(cluster.nodes).max(1.0);
    let data = e.map_or(0.0, |e| e.table_bytes) * f64::from(cluster.rf) / nodes;
    if let Some(e) = e {
        for d in &e.defaults {
            basis.assume(d.clone());
        }
    }
    basis.input(format!("{}: estimated size", t.name));
    TableCost {
        table: t.name.to_string(),
        writes: 0.0,
        writes_peak: 0.0,
        writes_per_node: 0.0,
        writes_per_node_peak: 0.0,
        write_bytes: 0.0,
        reads: 0.0,
        reads_peak: 0.0,
        data_per_node: data,
        free_share: free,
        disk_per_node: data / (1.0 - free),
        compaction,
        hottest_partition: 0.0,
        basis,
    }
}

/// Share of the disk a table's compaction strategy needs free, and the
/// strategy's name.
fn free_share(t: &Table, basis: &mut Basis) -> (f64, String) {
    let c = t.physical.compaction.value.as_ref();
    match c.map(|c| &c.strategy) {
        Some(Strategy::Leveled) => (0.1, "Leveled (10 % free)".into()),
        Some(Strategy::TimeWindow) => {
            let window = c.and_then(|c| {
                let unit = match c.options.get("compaction_window_unit")?.as_str() {
                    "MINUTES" => 60.0,
                    "HOURS" => 3_600.0,
                    _ => SECONDS_PER_DAY,
                };
                let size: f64 = c.options.get("compaction_window_size")?.parse().ok()?;
                Some(unit * size)
            });
            let span = t
                .physical
                .retention_days
                .map(|d| d * SECONDS_PER_DAY)
                .or(t.ttl_seconds.map(|s| s as f64));
            match (window, span) {
                (Some(w), Some(s)) if s > 0.0 => {
                    let share = (w / s).clamp(0.01, 0.5);
                    (
                        share,
                        format!("TimeWindow (one window free: {:.1} %)", share * 100.0),
                    )
                }
                _ => {
                    basis.assume(format!(
                        "{}: TimeWindow without a retention: 50 % free as for SizeTiered",
                        t.name
                    ));
                    (0.5, "TimeWindow (50 % free)".into())
                }
            }
        }
        Some(Strategy::Unified) => {
            basis.assume(format!(
                "{}: Unified planned like SizeTiered (50 % free) until measured",
                t.name
            ));
            (0.5, "Unified (50 % free)".into())
        }
        _ => (0.5, "SizeTiered (50 % free)".into()),
    }
}

/// A query's requests per second, average and peak.
fn query_rate(load: Option<&Load>, id: &str, basis: &mut Basis) -> (f64, f64) {
    let Some(l) = load else {
        basis.assume(format!(
            "{id}: {DEFAULT_QUERY_RATE} request/s (no load stated), peak {ASSUMED_PEAK_FACTOR} ×"
        ));
        return (DEFAULT_QUERY_RATE, DEFAULT_QUERY_RATE * ASSUMED_PEAK_FACTOR);
    };
    basis.input(format!("{id}.load"));
    let (peak, assumed) = l.peak_or_assumed();
    if assumed {
        basis.assume(format!(
            "{id}: peak {ASSUMED_PEAK_FACTOR} × average (none stated)"
        ));
    }
    (l.avg, peak)
}

/// Partitions, rows and bytes one request reads, and whether it asks
/// every token range (a scan or an index query).
fn read_shape(
    q: &crate::model::Query,
    p: &super::types::Plan,
    t: &Table,
    e: &Estimate,
    basis: &mut Basis,
) -> (f64, f64, f64, bool) {
    basis.input(format!("{}: estimated rows per partition", t.name));
    // Partition key columns the request does not bind: a shard is asked
    // in each of its values, a time bucket and a constant are computed by
    // the application (one partition), anything else means a scan.
    let bound = |name: &str| {
        p.request
            .as_ref()
            .is_some_and(|r| r.eq.iter().any(|n| n.as_str() == name))
    };
    let mut fan = 1.0;
    let mut restricted = true;
    for c in t.partition_key() {
        match &c.source {
            _ if bound(c.name.as_str()) => {}
            super::types::Source::Shard { count } => {
                basis.input(format!("{}: {count} shards, each asked", t.name));
                fan *= f64::from(*count);
            }
            super::types::Source::Bucket { .. } => {
                basis.assume(format!(
                    "{}: a request stays within one {} bucket",
                    q.id, c.name
                ));
            }
            super::types::Source::Constant => {}
            _ => restricted = false,
        }
    }
    let single = p.access.is_direct() && restricted;
    let mut rows = if single {
        e.rows_per_partition * fan
    } else {
        e.rows
    };
    if q.range.is_some() {
        basis.assume(format!(
            "{}: the range spans the whole partition (an upper bound)",
            q.id
        ));
    }
    if let Some(l) = q.limit {
        basis.input(format!("{}.limit", q.id));
        rows = rows.min(f64::from(l));
    }
    let partitions = if single { fan } else { e.partitions };
    (partitions, rows, rows * row_bytes(e), !single)
}

/// Inserts per second of an item, average and peak: a stated rate (`per`)
/// over a second, else its instances arriving evenly over the horizon.
fn insert_rate(graph: &Graph, est: &Estimator, node: NodeId, basis: &mut Basis) -> (f64, f64) {
    let mut notes = Vec::new();
    let (count, span) = est.count_with_span(node, &mut notes);
    let name = graph.node_shared_name(node);
    let per_day = match span {
        Some(days) if days > 0.0 => {
            basis.input(format!("{name}: stated insert rate"));
            count / days
        }
        _ => {
            let h = graph.project.thresholds.horizon_days;
            basis.assume(format!(
                "{name}: no rate stated; its {count:.0} instances arrive evenly over the {h}-day horizon"
            ));
            if h > 0.0 {
                count / h
            } else {
                0.0
            }
        }
    };
    if notes.iter().any(|n| super::estimate::is_default_note(n)) {
        basis.assume(format!("{name}: its count rests on default figures"));
    }
    basis.assume(format!(
        "{name}: insert peak {ASSUMED_PEAK_FACTOR} × average"
    ));
    let avg = per_day / SECONDS_PER_DAY;
    (avg, avg * ASSUMED_PEAK_FACTOR)
}
