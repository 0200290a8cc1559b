//! The cost table as text (`cqlmodel cost`, the reports): per query, per
//! table, the design's totals, then every assumption the figures rest on.
//! Names come from the file: the shells sanitize the whole text.

use crate::derive::cost::{Basis, Cost};
use crate::model::quantity::{count, human_bytes};
use std::fmt::Write as _;

/// A rate with one decimal below 100, grouped digits above, and in
/// scientific notation when a tenth would round it away.
fn rate(v: f64) -> String {
    if v > 0.0 && v < 0.1 {
        format!("{v:.2e}")
    } else if v < 100.0 {
        format!("{v:.1}")
    } else {
        count(v.round())
    }
}

/// The cost as the command line prints it.
pub fn text(c: &Cost) -> String {
    let mut out = String::new();
    let cl = &c.cluster;
    let dcs: Vec<String> = cl
        .data_centres
        .iter()
        .map(|d| format!("{} (RF {}, {} nodes)", d.name, d.rf, d.nodes))
        .collect();
    let _ = writeln!(
        out,
        "cluster: {}; {} nodes, RF {} in all; budget per node {} replica operations/s, {} of data",
        dcs.join(", "),
        cl.nodes,
        cl.rf,
        count(cl.node_requests),
        human_bytes(cl.node_disk_bytes)
    );
    out.push_str(
        "\nqueries (per request; requests/s average/peak; replica reads per node average/peak):\n",
    );
    for q in &c.queries {
        let _ = writeln!(
            out,
            "  {:<6} {:<28} {:>7}/{:<7} req/s at {:<12} {} partition(s), {} rows, {}; {} replica(s); {}/{} reads/s per node",
            q.query,
            q.table.as_deref().unwrap_or("(no table)"),
            rate(q.rate),
            rate(q.peak),
            q.consistency,
            count(q.partitions),
            count(q.rows),
            human_bytes(q.bytes),
            q.replicas,
            rate(q.reads_per_node),
            rate(q.reads_per_node_peak),
        );
    }
    out.push_str("\ntables (writes/s average/peak, per node; bytes written/s; disk per node with headroom):\n");
    for t in &c.tables {
        let _ = writeln!(
            out,
            "  {:<28} {}/{} writes/s, {}/{} per node; {}/s; {} data + headroom = {} per node ({}); hottest partition {} ops/s per replica",
            t.table,
            rate(t.writes),
            rate(t.writes_peak),
            rate(t.writes_per_node),
            rate(t.writes_per_node_peak),
            human_bytes(t.write_bytes),
            human_bytes(t.data_per_node),
            human_bytes(t.disk_per_node),
            t.compaction,
            rate(t.hottest_partition),
        );
    }
    let d = &c.design;
    out.push_str("\ndesign:\n");
    let _ = writeln!(
        out,
        "  per node: {} reads/s reading {} rows/s, {} writes/s (average); {} replica operations/s at peak of a budget of {}",
        rate(d.reads_per_node),
        rate(d.rows_read_per_node),
        rate(d.writes_per_node),
        rate(d.ops_per_node_peak),
        count(cl.node_requests)
    );
    let _ = writeln!(
        out,
        "  disk per node: {} of {}",
        human_bytes(d.disk_per_node),
        human_bytes(cl.node_disk_bytes)
    );
    let _ = writeln!(
        out,
        "  nodes needed: {} for disk, {} for throughput at peak; {} now{}",
        d.nodes_for_disk,
        d.nodes_for_throughput,
        d.nodes_now,
        if d.nodes_for_disk.max(d.nodes_for_throughput) > d.nodes_now {
            " — too few"
        } else {
            ""
        }
    );
    if let Some((t, h)) = &d.hottest {
        let _ = writeln!(
            out,
            "  hottest partition: {t}, {} replica operations/s on each replica at peak ({:.1} % of one node's budget)",
            rate(*h),
            h / cl.node_requests * 100.0
        );
    }
    let _ = writeln!(
        out,
        "  workload-weighted total: {} replica operations/s (average)",
        rate(d.weighted_total)
    );
    let mut all = Basis::default();
    for b in std::iter::once(&cl.basis)
        .chain(c.queries.iter().map(|q| &q.basis))
        .chain(c.tables.iter().map(|t| &t.basis))
    {
        for a in &b.assumed {
            if !all.assumed.contains(a) {
                all.assumed.push(a.clone());
            }
        }
    }
    if !all.assumed.is_empty() {
        out.push_str("\nassumed (state these in the project to firm the figures up):\n");
        for a in &all.assumed {
            let _ = writeln!(out, "  - {a}");
        }
    }
    out
}
