//! Write paths: which tables an insert of one instance of an entity or
//! relationship writes, which an update of each attribute touches, and which
//! a batch job fills. The review's write-amplification findings and the
//! reports read this one computation.

use super::Table;
use crate::model::name::Name;
use crate::model::resolve::{AttrId, Edge, Graph, NodeId, Reached};
use crate::model::{Cardinality, Shared};
use rustc_hash::FxHashMap as HashMap;

pub use super::types::{AttrWrites, TableName, WritePath};

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

/// How a table's rows of a node are written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writer {
    Insert,
    Job,
    Summary,
}

/// What one table adds to the write paths, by path position (entities
/// first, then relationships). The incremental analysis keeps one per
/// table: an edit re-lists only the paths its changed tables touch.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct TableWrites {
    /// The paths an insert of a row-making node writes this table from.
    makers: Box<[u32]>,
    writer: Writer,
    /// A query of the table is written by a job: queries can change while
    /// the table stays the same, so this is compared on its own.
    job_query: bool,
    /// Each attribute the table holds, once (its first column decides
    /// whether it is a key there): path, attribute index, key.
    attrs: Box<[(u32, u32, bool)]>,
}

impl TableWrites {
    /// What table `t` (column identities `ids`, rows' node `root`) adds;
    /// `job_query`: a query of it is written by a job.
    pub(crate) fn new(
        graph: &Graph,
        t: &Table,
        ids: &[Option<Reached>],
        root: NodeId,
        job_query: bool,
    ) -> Self {
        let makers = row_makers(graph, root, ids);
        let by_job = job_query
            || makers
                .iter()
                .any(|n| matches!(n, NodeId::Rel(r) if graph.rel(*r).written_by_job));
        let writer = if super::summary::updated_by_application(t) {
            Writer::Summary
        } else if by_job {
            Writer::Job
        } else {
            Writer::Insert
        };
        let mut attrs: Vec<(u32, u32, bool)> = Vec::with_capacity(t.columns.len());
        for (c, id) in t.columns.iter().zip(ids) {
            let Some(r) = id else { continue };
            let (node, idx) = attr_slot(r.attr);
            let at = (slot32(graph, node), u32::try_from(idx).unwrap_or(u32::MAX));
            // An attribute two columns hold is listed once, as its first.
            if !attrs.iter().any(|&(s, i, _)| (s, i) == at) {
                attrs.push((at.0, at.1, c.role.is_key()));
            }
        }
        TableWrites {
            makers: makers.into_iter().map(|n| slot32(graph, n)).collect(),
            writer,
            job_query,
            attrs: attrs.into_boxed_slice(),
        }
    }

    /// Whether a query of the table is written by a job.
    pub(crate) fn job_query(&self) -> bool {
        self.job_query
    }

    /// The paths this table is listed in.
    pub(crate) fn slots(&self) -> impl Iterator<Item = u32> + '_ {
        self.makers
            .iter()
            .copied()
            .chain(self.attrs.iter().map(|a| a.0))
    }

    /// Lists the table (`name`) in each of its paths that `at` finds in
    /// `paths` (all of them for a full listing, the touched ones for a
    /// patch).
    pub(crate) fn list(
        &self,
        name: &TableName,
        paths: &mut [WritePath],
        at: impl Fn(u32) -> Option<usize>,
    ) {
        for &m in &self.makers {
            if let Some(w) = at(m).and_then(|i| paths.get_mut(i)) {
                let list = match self.writer {
                    Writer::Summary => &mut w.summaries,
                    Writer::Job => &mut w.job,
                    Writer::Insert => &mut w.insert,
                };
                list.push(name.clone());
            }
        }
        for &(s, idx, key) in &self.attrs {
            let Some(u) = at(s)
                .and_then(|i| paths.get_mut(i))
                .and_then(|w| w.update.get_mut(idx as usize))
            else {
                continue;
            };
            let listed = &mut u.tables;
            // Most attributes are in one or two tables: a first push
            // would make room for four, kept with the analysis.
            if listed.len() == listed.capacity() && listed.len() < 4 {
                listed.reserve_exact(1);
            }
            listed.push((name.clone(), key));
        }
    }
}

/// Whether some query of each table is written by a job. `Project::query`
/// answers for the first query with an id: so does this.
pub(crate) fn job_queries(graph: &Graph, tables: &[Shared<Table>]) -> Vec<bool> {
    let p = graph.project;
    if !p.queries.iter().any(|q| q.written_by_job) {
        return vec![false; tables.len()];
    }
    let mut by_job: HashMap<&str, bool> = HashMap::default();
    for q in &p.queries {
        by_job.entry(q.id.as_str()).or_insert(q.written_by_job);
    }
    tables
        .iter()
        .map(|t| {
            t.queries
                .iter()
                .any(|q| by_job.get(q.as_str()).copied().unwrap_or(false))
        })
        .collect()
}

/// Write paths of every entity, then every relationship, in project order,
/// with what each table added (see [`TableWrites`]).
///
/// One pass over the tables, with every lookup indexed: linear in the size
/// of the model.
pub(crate) fn write_paths(
    graph: &Graph,
    tables: &[Shared<Table>],
    ids: &[Shared<Vec<Option<Reached>>>],
    roots: &[NodeId],
) -> (Vec<Shared<WritePath>>, Vec<TableWrites>) {
    let job = job_queries(graph, tables);
    let by_table: Vec<TableWrites> = (0..tables.len())
        .map(|ti| TableWrites::new(graph, &tables[ti], &ids[ti], roots[ti], job[ti]))
        .collect();
    let paths = fill(empty_paths(graph), tables, &by_table);
    let paths: Vec<Shared<WritePath>> = paths.into_iter().map(Shared::new).collect();
    #[cfg(test)]
    tests::assert_matches_reference(graph, tables, ids, roots, &paths);
    (paths, by_table)
}

/// `paths` (empty) with every table listed where its part says.
pub(crate) fn fill(
    mut paths: Vec<WritePath>,
    tables: &[Shared<Table>],
    by_table: &[TableWrites],
) -> Vec<WritePath> {
    for (t, part) in tables.iter().zip(by_table) {
        part.list(&t.name, &mut paths, |s| Some(s as usize));
    }
    paths
}

/// `w` with its names and no table listed.
pub(crate) fn emptied(w: &WritePath) -> WritePath {
    WritePath {
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
    }
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

/// [`slot_of`] as stored in a [`TableWrites`] (a model has far fewer than
/// 2^32 entities and relationships).
fn slot32(graph: &Graph, n: NodeId) -> u32 {
    u32::try_from(slot_of(graph, n)).unwrap_or(u32::MAX)
}

/// The node that owns an attribute and the attribute's index there.
fn attr_slot(attr: AttrId) -> (NodeId, usize) {
    match attr {
        AttrId::Entity(e, i) => (NodeId::Entity(e), i),
        AttrId::Rel(x, i) => (NodeId::Rel(x), i),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// The straightforward version (every lookup a scan), kept as the
    /// reference the indexed one must equal.
    fn write_paths_by_scanning(
        graph: &Graph,
        tables: &[Shared<Table>],
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
    pub(crate) fn assert_matches_reference(
        graph: &Graph,
        tables: &[Shared<Table>],
        ids: &[Shared<Vec<Option<Reached>>>],
        roots: &[NodeId],
        indexed: &[Shared<WritePath>],
    ) {
        let ids: Vec<&[Option<Reached>]> = ids.iter().map(|i| i.as_slice()).collect();
        let ids = ids.as_slice();
        let indexed: Vec<&WritePath> = indexed.iter().map(|w| &**w).collect();
        let reference = write_paths_by_scanning(graph, tables, ids, roots);
        assert_eq!(
            indexed,
            reference.iter().collect::<Vec<_>>(),
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
