//! Write paths: which tables an insert of one instance of an entity or
//! relationship writes, which an update of each attribute touches, and which
//! a batch job fills. The review's write-amplification findings and the
//! reports read this one computation.

use super::Table;
use crate::model::name::Name;
use crate::model::resolve::{AttrId, Edge, Graph, NodeId, Reached};
use crate::model::Cardinality;
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;

/// A table's name as write paths list it: the table's own shared name, so
/// every path and attribute that lists the table refers to one text (a
/// large model lists each table many times).
pub type TableName = crate::model::name::Name;

/// Which tables a write must touch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WritePath {
    /// The entity's or relationship's name (shared with the graph's).
    pub item: Name,
    /// Tables an insert of one instance writes.
    pub insert: Vec<TableName>,
    /// Per attribute: tables an update touches, and whether the attribute
    /// is a key column there (an update is then a delete plus an insert).
    pub update: Vec<AttrWrites>,
    /// Tables whose rows of this item a batch job writes (a relationship or
    /// query marked `written_by_job`), kept out of `insert`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub job: Vec<TableName>,
    /// Summary tables of aggregates no counter can keep (min, max, avg):
    /// the application or a job updates them as this item's rows change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summaries: Vec<TableName>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttrWrites {
    pub attribute: Name,
    pub tables: Vec<(TableName, bool)>,
}

/// The nodes whose new instance creates a row of the table: the last
/// to-many step of each column's path decides what a row is (the
/// relationship instance of an m:n, the child of a 1:n), else the rows'
/// own node. Sorted, without duplicates.
pub(crate) fn row_makers(graph: &Graph, root: NodeId, ids: &[Option<Reached>]) -> Vec<NodeId> {
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
///
/// One pass over the tables, with every lookup indexed (query ids, the
/// tables an attribute already lists): linear in the size of the model, so
/// 10,000 queries cost ten times 1,000, not a hundred.
/// `frame` is [`frame`] of the graph (made beforehand, on another core
/// while the tables are settled).
pub(crate) fn write_paths(
    graph: &Graph,
    frame: Vec<WritePath>,
    tables: &[Table],
    ids: &[&[Option<Reached>]],
    roots: &[NodeId],
) -> Vec<WritePath> {
    let p = graph.project;
    let mut out = frame;
    let slot = |n: NodeId| slot_of(graph, n);
    // `Project::query` answers for the first query with an id: so does
    // this. Most projects have no job-written query: no map then.
    let mut by_job: HashMap<&str, bool> = HashMap::default();
    if p.queries.iter().any(|q| q.written_by_job) {
        for q in &p.queries {
            by_job.entry(q.id.as_str()).or_insert(q.written_by_job);
        }
    }
    for (ti, t) in tables.iter().enumerate() {
        let makers = row_makers(graph, roots[ti], ids[ti]);
        let by_job = t
            .queries
            .iter()
            .any(|q| by_job.get(q.as_str()).copied().unwrap_or(false))
            || makers
                .iter()
                .any(|n| matches!(n, NodeId::Rel(r) if graph.rel(*r).written_by_job));
        let summary = super::summary::updated_by_application(t);
        let name = t.name.clone();
        for n in makers {
            let w = &mut out[slot(n)];
            if summary {
                w.summaries.push(name.clone());
            } else if by_job {
                w.job.push(name.clone());
            } else {
                w.insert.push(name.clone());
            }
        }
        for (c, id) in t.columns.iter().zip(ids[ti]) {
            let Some(r) = id else { continue };
            let (node, idx) = attr_slot(r.attr);
            let s = slot(node);
            // An attribute two columns of this table hold is listed once.
            // Tables are visited one after the other and their names are
            // unique, so a repeat can only be the entry just pushed.
            let listed = &mut out[s].update[idx].tables;
            if listed
                .last()
                .is_none_or(|(last, _)| !Name::ptr_eq(last, &name))
            {
                // Most attributes are in one or two tables: a first push
                // would make room for four, kept with the analysis.
                if listed.len() == listed.capacity() && listed.len() < 4 {
                    listed.reserve_exact(1);
                }
                listed.push((name.clone(), c.role.is_key()));
            }
        }
    }
    out
}

/// [`empty_paths`], its names taken from `earlier` (the write paths of a
/// project with the very same entity and relationship lists) when given:
/// an edit of a query re-derives write paths without making a name.
pub(crate) fn frame(graph: &Graph, earlier: Option<&[WritePath]>) -> Vec<WritePath> {
    let Some(earlier) = earlier else {
        return empty_paths(graph);
    };
    earlier
        .iter()
        .map(|w| WritePath {
            item: w.item.clone(),
            insert: vec![],
            update: w
                .update
                .iter()
                .map(|u| AttrWrites {
                    attribute: u.attribute.clone(),
                    tables: vec![],
                })
                .collect(),
            job: vec![],
            summaries: vec![],
        })
        .collect()
}

/// One empty write path per entity, then per relationship, in project order.
fn empty_paths(graph: &Graph) -> Vec<WritePath> {
    let p = graph.project;
    let mut nodes: Vec<NodeId> = (0..p.entities.len()).map(NodeId::Entity).collect();
    nodes.extend((0..p.relationships.len()).map(NodeId::Rel));
    // Attribute names repeat across entities (`id`, `name`, `created_at`):
    // one shared name per text, not one per attribute.
    let mut names: HashMap<&str, Name> = HashMap::default();
    nodes
        .iter()
        .map(|&n| WritePath {
            // The item's name is the graph's (findings share it); the next
            // analysis takes all of these names from this one (`frame`).
            item: graph.node_shared_name(n),
            insert: vec![],
            update: graph
                .attributes(n)
                .iter()
                .map(|a| AttrWrites {
                    attribute: names
                        .entry(a.name.as_str())
                        .or_insert_with(|| Name::from(&a.name))
                        .clone(),
                    tables: vec![],
                })
                .collect(),
            job: vec![],
            summaries: vec![],
        })
        .collect()
}

/// The position of a node's write path: entities first, then relationships.
fn slot_of(graph: &Graph, n: NodeId) -> usize {
    n.dense(graph.project.entities.len())
}

/// The node that owns an attribute and the attribute's index there.
fn attr_slot(attr: AttrId) -> (NodeId, usize) {
    match attr {
        AttrId::Entity(e, i) => (NodeId::Entity(e), i),
        AttrId::Rel(x, i) => (NodeId::Rel(x), i),
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// The straightforward version (every lookup a scan), kept as the
    /// reference the indexed one must equal.
    fn write_paths_by_scanning(
        graph: &Graph,
        tables: &[Table],
        ids: &[&[Option<Reached>]],
        roots: &[NodeId],
    ) -> Vec<WritePath> {
        let p = graph.project;
        let mut out = empty_paths(graph);
        for (ti, t) in tables.iter().enumerate() {
            let makers = row_makers(graph, roots[ti], ids[ti]);
            let by_job = t
                .queries
                .iter()
                .any(|q| p.query(q).is_some_and(|q| q.written_by_job))
                || makers
                    .iter()
                    .any(|n| matches!(n, NodeId::Rel(r) if graph.rel(*r).written_by_job));
            let summary = super::super::summary::updated_by_application(t);
            for n in makers {
                let w = &mut out[slot_of(graph, n)];
                if summary {
                    w.summaries.push(t.name.as_str().into());
                } else if by_job {
                    w.job.push(t.name.as_str().into());
                } else {
                    w.insert.push(t.name.as_str().into());
                }
            }
            for (c, id) in t.columns.iter().zip(ids[ti]) {
                let Some(r) = id else { continue };
                let (node, idx) = attr_slot(r.attr);
                let entry = &mut out[slot_of(graph, node)].update[idx].tables;
                if !entry.iter().any(|(name, _)| **name == *t.name) {
                    entry.push((t.name.as_str().into(), c.role.is_key()));
                }
            }
        }
        out
    }

    /// Under `cargo test` every derivation also runs the scanning version and
    /// compares: each unit test that derives checks the indexed one.
    pub(in crate::derive) fn assert_matches_reference(
        graph: &Graph,
        tables: &[Table],
        ids: &[&[Option<Reached>]],
        roots: &[NodeId],
        indexed: &[WritePath],
    ) {
        assert_eq!(
            indexed,
            write_paths_by_scanning(graph, tables, ids, roots).as_slice(),
            "indexed write paths differ from the scanning reference"
        );
    }

    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]
        /// Generated projects, some queries and relationships written by a
        /// job, some pinned table names repeated (tables sharing a name):
        /// `derive` compares both versions through the hook above.
        #[test]
        fn indexed_write_paths_equal_the_scanning_ones(
            entities in 1usize..40,
            queries in 1usize..80,
            seed in any::<u64>(),
            job_every in 2usize..7,
        ) {
            let mut p = crate::model::synthetic::project(entities, queries, seed);
            for (i, q) in p.queries.iter_mut().enumerate() {
                q.written_by_job = i % job_every == 0;
            }
            for (i, r) in p.relationships.iter_mut().enumerate() {
                r.written_by_job = i % job_every == 1;
            }
            let qids: Vec<String> = p.queries.iter().map(|q| q.id.clone()).collect();
            for q in qids.iter().step_by(job_every + 1) {
                p.decision_mut(q).name = Some("shared_name".into());
            }
            let m = crate::derive::derive(&p);
            prop_assert_eq!(m.writes.len(), p.entities.len() + p.relationships.len());
        }
    }
}
