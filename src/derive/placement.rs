//! Equality attributes: partition key or leading clustering columns.
//!
//! Chebotko's MR1 only asks that equality attributes come first. Expert
//! designs put into the partition key what identifies the partition the
//! query reads (the key of the entity it reads from, and any time-like
//! attribute, which bounds growth), and keep other equality attributes (a
//! status, a second entity's key used as a filter) as leading clustering
//! columns while the partition stays small. Whether it stays small is the
//! estimator's worst case against the project's thresholds.

use super::finish::finish;
use super::types::Why;
use super::types::{Column, Role, Rule, Table};
use crate::derive::estimate::{Estimate, Estimator};
use crate::model::resolve::{Graph, NodeId, Reached};
use crate::model::{Decision, Dir, Native, PartitionKeys, Query};

/// What the placement needs besides the table.
pub(super) struct Context<'a, 'p> {
    pub graph: &'a Graph<'p>,
    pub query: &'a Query,
    pub root: NodeId,
    pub decision: Option<&'a Decision>,
    /// The query ranges or orders (for the constant partition).
    pub searches: bool,
}

/// The identifier of the entity a query reads from, among its equality
/// attributes.
pub struct Anchor {
    /// Indices into the query's equality attributes.
    pub columns: Vec<usize>,
    pub node: NodeId,
    /// The entity's declared key, not one of its `unique` identifiers.
    pub declared_key: bool,
}

/// The equality attributes that form the key of the entity the query reads
/// from, as indices into `equality`: the largest complete identifier (key or
/// `unique`) of a node on their paths, the first in query order among
/// equals. The rows' own identifier counts only when it holds an attribute
/// of the rows themselves: a relationship's or an association entity's
/// key is made of other entities' keys, and "the rating a user gave an
/// item" reads the item's partition.
pub(crate) fn anchor(graph: &Graph, root: NodeId, equality: &[Reached]) -> Option<Anchor> {
    let mut best: Option<Anchor> = None;
    for r in equality {
        for k in 0..=r.path.len() {
            let at = &r.path[..k];
            let Some(node) = graph.walk(root, at) else {
                continue;
            };
            // Identifiers come normalized (see `Graph::key_at`).
            graph.each_identifier(root, at, |n, ident| {
                let own = k > 0 || ident.iter().any(|x| x.attr.node() == node);
                if !ident.contains(r) || !own {
                    return false;
                }
                let Some(mut at_eq) = ident
                    .iter()
                    .map(|x| equality.iter().position(|e| e == x))
                    .collect::<Option<Vec<usize>>>()
                else {
                    return false;
                };
                at_eq.sort_unstable();
                at_eq.dedup();
                if best.as_ref().is_none_or(|b| at_eq.len() > b.columns.len()) {
                    best = Some(Anchor {
                        columns: at_eq,
                        node,
                        declared_key: n == 0,
                    });
                }
                false
            });
        }
    }
    best
}

/// A date or a timestamp (an hour): equality on it bounds the partition in
/// time, so it stays in the partition key.
fn time_like(graph: &Graph, r: &Reached) -> bool {
    matches!(
        graph.attr(r.attr).ty.native(),
        Some(Native::Date | Native::Timestamp)
    )
}

/// Places the equality columns of `t` (all in the partition key on entry),
/// each with its reason. `ids` are the table's column identities; the
/// estimator is asked only when a filter could lead the clustering.
///
/// Constants the query states (`status = 'open'`) follow the equality
/// attributes and are placed by the same rule as a filter: a leading
/// clustering column while the partition stays small, the partition key
/// otherwise; alone they are the partition. They keep `Rule::Constant`
/// (they are bound in the SELECT), whichever side they land on.
pub(super) fn place(
    cx: &Context,
    equality: &[Reached],
    constants: &[Reached],
    t: &mut Table,
    ids: &[Option<Reached>],
    est: &mut dyn FnMut(&Table) -> Estimate,
) {
    let g = cx.graph;
    let col_of = |r: &Reached| ids.iter().position(|x| x.as_ref() == Some(r));
    let searched: Vec<&Reached> = equality.iter().chain(constants).collect();
    let cols: Vec<Option<usize>> = searched.iter().map(|r| col_of(r)).collect();
    let n_eq = equality.len();
    let set = |t: &mut Table, i: usize, role: Role, rule: Rule, why: Option<Why>| {
        if let Some(c) = cols[i] {
            let col: &mut Column = &mut t.columns[c];
            col.role = role;
            col.rule = if i >= n_eq { Rule::Constant } else { rule };
            col.why = why.map(Box::new);
        }
    };
    let name = |t: &Table, i: usize| cols[i].map(|c| t.columns[c].name.clone());
    let forced = |t: &Table, i: usize| -> Option<bool> {
        let d = cx.decision?;
        let n = name(t, i)?;
        if d.equality_partition.iter().any(|x| *x == n) {
            Some(true)
        } else if d.equality_clustering.iter().any(|x| *x == n) {
            Some(false)
        } else {
            None
        }
    };

    if g.project.partition_keys == PartitionKeys::AllEquality {
        for i in 0..searched.len() {
            let (role, rule, why) = match forced(t, i) {
                Some(false) => (
                    Role::Clustering(Dir::default()),
                    Rule::Filter,
                    Why::DecidedClustering,
                ),
                _ => (Role::Partition, Rule::Equality, Why::AllEquality),
            };
            set(t, i, role, rule, Some(why));
        }
        return;
    }

    let anchor = anchor(g, cx.root, equality);
    let mut open: Vec<usize> = Vec::new();
    for (i, r) in searched.iter().enumerate() {
        let constant = i >= n_eq;
        let why = match forced(t, i) {
            Some(true) => Why::DecidedPartition,
            Some(false) => {
                set(
                    t,
                    i,
                    Role::Clustering(Dir::default()),
                    Rule::Filter,
                    Some(Why::DecidedClustering),
                );
                continue;
            }
            None if constant && n_eq == 0 => Why::LoneConstant,
            None if constant => {
                open.push(i);
                continue;
            }
            None => match &anchor {
                Some(a) if a.columns.contains(&i) => Why::Anchor {
                    declared_key: a.declared_key,
                    entity: g.node_name(a.node).to_string(),
                },
                None => Why::NoAnchor,
                Some(_) if time_like(g, r) => Why::TimeLike,
                Some(_) => {
                    open.push(i);
                    continue;
                }
            },
        };
        set(t, i, Role::Partition, Rule::Equality, Some(why));
    }
    // Each filter, in the query's order, leads the clustering when the
    // partition then stays within the thresholds at worst; the filters not
    // yet placed stay in the partition key meanwhile (the smallest
    // partition they allow).
    for &i in &open {
        set(t, i, Role::Clustering(Dir::default()), Rule::Filter, None);
        let e = est(t);
        let th = &g.project.thresholds;
        let fits = e.values_max <= th.max_values && e.partition_bytes_max <= th.max_bytes;
        let why = Why::Estimated {
            fits,
            constant: i >= n_eq,
            values_max: e.values_max,
            bytes_max: e.partition_bytes_max,
            max_values: th.max_values,
            max_bytes: th.max_bytes,
            assumed: !e.defaults.is_empty(),
        };
        if fits {
            set(
                t,
                i,
                Role::Clustering(Dir::default()),
                Rule::Filter,
                Some(why),
            );
        } else {
            set(t, i, Role::Partition, Rule::Equality, Some(why));
        }
    }
}

/// The estimate of `t` as derivation would finish it (decision applied,
/// statics marked), for [`place`].
pub(super) fn finished_estimate(
    cx: &Context,
    est: &Estimator,
    t: &Table,
    ids: &[Option<Reached>],
) -> Estimate {
    let mut t = t.clone();
    let mut ids = ids.to_vec();
    finish(
        cx.graph,
        cx.query,
        cx.root,
        cx.decision,
        cx.searches,
        &mut t,
        &mut ids,
        &mut Vec::new(),
    );
    est.table(&t)
}
