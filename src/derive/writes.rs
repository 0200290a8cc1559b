//! Write paths: which tables an insert of one instance of an entity or
//! relationship writes, which an update of each attribute touches, and which
//! a batch job fills. The review's write-amplification findings and the
//! reports read this one computation.

use super::Table;
use crate::model::resolve::{AttrId, Edge, Graph, NodeId, Reached};
use crate::model::Cardinality;
use serde::Serialize;

/// Which tables a write must touch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WritePath {
    pub item: String,
    /// Tables an insert of one instance writes.
    pub insert: Vec<String>,
    /// Per attribute: tables an update touches, and whether the attribute
    /// is a key column there (an update is then a delete plus an insert).
    pub update: Vec<AttrWrites>,
    /// Tables whose rows of this item a batch job writes (a relationship or
    /// query marked `written_by_job`), kept out of `insert`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub job: Vec<String>,
    /// Summary tables of aggregates no counter can keep (min, max, avg):
    /// the application or a job updates them as this item's rows change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summaries: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttrWrites {
    pub attribute: String,
    pub tables: Vec<(String, bool)>,
}

/// The nodes whose new instance creates a row of the table: the last
/// to-many step of each column's path decides what a row is (the
/// relationship instance of an m:n, the child of a 1:n), else the rows'
/// own node. Sorted, without duplicates.
pub fn row_makers(graph: &Graph, root: NodeId, ids: &[Option<Reached>]) -> Vec<NodeId> {
    let mut out: Vec<NodeId> = Vec::new();
    for r in ids.iter().flatten() {
        let Some(i) = r.path.iter().rposition(|e| graph.fanout(*e).many) else {
            continue;
        };
        let Edge::Enter(rel, end) = r.path[i] else {
            continue;
        };
        out.push(NodeId::Rel(rel));
        // The child of a 1:n is created together with its link.
        if graph.rel(rel).cardinality == Cardinality::OneToMany {
            if let Some(child) = graph.end_entity(rel, end.other()) {
                out.push(NodeId::Entity(child));
            }
        }
    }
    if out.is_empty() {
        out.push(root);
    }
    out.sort();
    out.dedup();
    out
}

/// Write paths of every entity, then every relationship, in project order.
pub fn write_paths(
    graph: &Graph,
    tables: &[Table],
    ids: &[&[Option<Reached>]],
    roots: &[NodeId],
) -> Vec<WritePath> {
    let p = graph.project;
    let mut nodes: Vec<NodeId> = (0..p.entities.len()).map(NodeId::Entity).collect();
    nodes.extend((0..p.relationships.len()).map(NodeId::Rel));
    let slot = |n: NodeId| match n {
        NodeId::Entity(e) => e,
        NodeId::Rel(r) => p.entities.len() + r,
    };
    let mut out: Vec<WritePath> = nodes
        .iter()
        .map(|&n| WritePath {
            item: graph.node_name(n).to_string(),
            insert: vec![],
            update: graph
                .attributes(n)
                .iter()
                .map(|a| AttrWrites {
                    attribute: a.name.clone(),
                    tables: vec![],
                })
                .collect(),
            job: vec![],
            summaries: vec![],
        })
        .collect();
    for (ti, t) in tables.iter().enumerate() {
        let makers = row_makers(graph, roots[ti], ids[ti]);
        let by_job = t
            .queries
            .iter()
            .any(|q| p.query(q).is_some_and(|q| q.written_by_job))
            || makers
                .iter()
                .any(|n| matches!(n, NodeId::Rel(r) if graph.rel(*r).written_by_job));
        let summary = super::summary::updated_by_application(t);
        for n in makers {
            let w = &mut out[slot(n)];
            if summary {
                w.summaries.push(t.name.clone());
            } else if by_job {
                w.job.push(t.name.clone());
            } else {
                w.insert.push(t.name.clone());
            }
        }
        for (c, id) in t.columns.iter().zip(ids[ti]) {
            let Some(r) = id else { continue };
            let (node, idx) = match r.attr {
                AttrId::Entity(e, i) => (NodeId::Entity(e), i),
                AttrId::Rel(x, i) => (NodeId::Rel(x), i),
            };
            let entry = &mut out[slot(node)].update[idx].tables;
            if !entry.iter().any(|(name, _)| name == &t.name) {
                entry.push((t.name.clone(), c.role.is_key()));
            }
        }
    }
    out
}
