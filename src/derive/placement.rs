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
use crate::model::resolve::{Edge, End, Graph, NodeId, Reached};
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
    /// The identifier's attributes in its declared order, as indices into
    /// the query's equality attributes.
    pub order: Vec<usize>,
    /// Another node whose identifier the query holds as whole and as large,
    /// set aside by the model: why this one won, worded for the reason.
    pub over: Option<String>,
}

/// The equality attributes that form the key of the entity the query reads
/// from, as indices into `equality`: the largest complete identifier (key or
/// `unique`) of a node on their paths. Among equals the model chooses,
/// never the order the query lists them in (issue 39, rule 2): the rows'
/// owner first, then a node one to-one step from the rows (their parent),
/// then the node with more stated instances, then the declared key before
/// a `unique` one, then by name (see `AnchorRank`). The rows' own
/// identifier counts only when it holds an attribute of the rows
/// themselves: a relationship's or an association entity's key is made of
/// other entities' keys, and "the rating a user gave an item" reads the
/// partition of one of its ends.
pub(crate) fn anchor(graph: &Graph, root: NodeId, equality: &[Reached]) -> Option<Anchor> {
    let mut best: Option<(Anchor, AnchorRank)> = None;
    // The best set-aside node of the winner's size, for the reason.
    let mut rival: Option<(NodeId, AnchorRank)> = None;
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
                let Some(order) = ident
                    .iter()
                    .map(|x| equality.iter().position(|e| e == x))
                    .collect::<Option<Vec<usize>>>()
                else {
                    return false;
                };
                let mut at_eq = order.clone();
                at_eq.sort_unstable();
                at_eq.dedup();
                let rank = AnchorRank::new(graph, root, at, n);
                // Names settle what the model leaves equal; made only then.
                let names = |o: &[usize]| {
                    let mut v: Vec<String> = o
                        .iter()
                        .map(|&i| graph.ref_text(root, &equality[i]))
                        .collect();
                    v.sort_unstable();
                    v
                };
                let before = |b: &Anchor, b_rank: &AnchorRank| {
                    rank.cmp(b_rank)
                        .then_with(|| names(&order).cmp(&names(&b.order)))
                        .is_lt()
                };
                let better = match &best {
                    None => true,
                    Some((b, _)) if at_eq.len() != b.columns.len() => at_eq.len() > b.columns.len(),
                    // The same attributes reached at another node (a
                    // relationship identified by its many side): no rival.
                    Some((b, b_rank)) if at_eq == b.columns => before(b, b_rank),
                    Some((b, b_rank)) => {
                        let wins = before(b, b_rank);
                        let lost = if wins {
                            (b.node, b_rank.clone())
                        } else {
                            (node, rank.clone())
                        };
                        // The best loser, by rank then name: never the
                        // order the query lists them in.
                        let key = |(n, r): &(NodeId, AnchorRank)| (r.clone(), graph.node_name(*n));
                        if rival.as_ref().is_none_or(|r| key(&lost) < key(r)) {
                            rival = Some(lost);
                        }
                        wins
                    }
                };
                if better {
                    if best
                        .as_ref()
                        .is_some_and(|(b, _)| at_eq.len() > b.columns.len())
                    {
                        rival = None;
                    }
                    let mut order_dedup = Vec::with_capacity(order.len());
                    for i in order {
                        if !order_dedup.contains(&i) {
                            order_dedup.push(i);
                        }
                    }
                    best = Some((
                        Anchor {
                            columns: at_eq,
                            node,
                            declared_key: n == 0,
                            order: order_dedup,
                            over: None,
                        },
                        rank,
                    ));
                }
                false
            });
        }
    }
    let (mut a, rank) = best?;
    if let Some((node, other)) = rival.filter(|(n, _)| *n != a.node) {
        a.over = Some(rank.over(graph.node_name(node), &other));
    }
    Some(a)
}

/// How the model ranks an identifier among the query's equally large ones
/// (smaller first): the rows' owners in their listed order, then a node
/// one to-one step from the rows, then any other; the node with more
/// stated instances (more, smaller partitions); the declared key before a
/// `unique` one. The identifiers' references by name settle the rest.
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord)]
struct AnchorRank {
    owner: usize,
    /// Neither the rows nor one to-one step from them.
    far: bool,
    /// The node's stated number of instances, most first: more partitions,
    /// each smaller (unknown or a rate: last).
    instances: std::cmp::Reverse<u64>,
    unique: usize,
}

impl AnchorRank {
    fn new(graph: &Graph, root: NodeId, at: &[Edge], n: usize) -> Self {
        let owner = match (root, at) {
            (NodeId::Entity(e), [Edge::Enter(r, End::To), Edge::Leave(r2, End::From)])
                if r == r2 =>
            {
                graph
                    .owners_of(e)
                    .iter()
                    .position(|(x, _)| x == r)
                    .unwrap_or(usize::MAX)
            }
            _ => usize::MAX,
        };
        // The rows themselves, or one to-one step away.
        let near = at.len() <= 2 && !graph.path_is_many(at);
        let instances = match graph.walk(root, at) {
            Some(NodeId::Entity(e)) => {
                let ent = graph.entity(e);
                match (ent.count, ent.per) {
                    // Whole instances: the cast saturates, and fractions
                    // say nothing about partitions.
                    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
                    (Some(n), None) if n.is_finite() && n > 0.0 => n as u64,
                    _ => 0,
                }
            }
            _ => 0,
        };
        AnchorRank {
            owner,
            far: !near,
            instances: std::cmp::Reverse(instances),
            unique: n,
        }
    }

    /// The clause that says why the winner (`self`) beat `rival`'s identifier.
    fn over(&self, rival: &str, other: &AnchorRank) -> String {
        let why = if self.owner < other.owner {
            "it owns the rows"
        } else if !self.far && other.far {
            "the rows are its children"
        } else if self.instances < other.instances {
            "more instances, so more and smaller partitions"
        } else if self.unique < other.unique {
            "its declared key"
        } else {
            "by name, neither owning the rows"
        };
        format!("chosen over {rival}: {why}")
    }
}

/// The equality attributes in the model's order, whatever order the query
/// lists them in (issue 39, rule 2): the anchor's identifier in its
/// declared order, then dates and times, then the others; among these,
/// the rows' declared key order first, then their reference text. Every
/// later step (placement, MR5, the name) reads them in this order, so the
/// whole table is the same for any permutation.
pub(crate) fn model_order(graph: &Graph, root: NodeId, equality: &[Reached]) -> Ordered {
    let mut anchor = anchor(graph, root, equality);
    if equality.len() < 2 {
        return Ordered {
            equality: equality.to_vec(),
            anchor,
        };
    }
    let rows_key = graph.key_at_cow(root, &[]);
    let mut keyed: Vec<(usize, usize, String, usize)> = equality
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let in_anchor = anchor
                .as_ref()
                .and_then(|a| a.order.iter().position(|&j| j == i));
            let (group, at) = match in_anchor {
                Some(at) => (0, at),
                None if time_like(graph, r) => (1, 0),
                None => (2, 0),
            };
            // The anchor's own order settles its members; the others follow
            // the rows' declared key where it holds them (the designer's
            // order), then their reference text.
            let (at, text) = if group == 0 {
                (at, String::new())
            } else {
                let in_key = rows_key.iter().position(|k| k == r);
                (in_key.unwrap_or(usize::MAX), graph.ref_text(root, r))
            };
            (group, at, text, i)
        })
        .collect();
    keyed.sort_by(|a, b| (a.0, a.1, &a.2).cmp(&(b.0, b.1, &b.2)));
    // Where each listed attribute now stands.
    let mut moved_to = vec![0; equality.len()];
    for (new, &(.., old)) in keyed.iter().enumerate() {
        moved_to[old] = new;
    }
    if let Some(a) = &mut anchor {
        for i in a.columns.iter_mut().chain(a.order.iter_mut()) {
            *i = moved_to[*i];
        }
        a.columns.sort_unstable();
    }
    Ordered {
        equality: keyed.iter().map(|&(.., i)| equality[i].clone()).collect(),
        anchor,
    }
}

/// [`model_order`]'s answer: the equality attributes in the model's order
/// and their anchor, its indices into that order (for [`place`]).
pub(crate) struct Ordered {
    pub equality: Vec<Reached>,
    pub anchor: Option<Anchor>,
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
/// each with its reason. `ordered` is [`model_order`]'s; `ids` are the
/// table's column identities; the estimator is asked only when a filter
/// could lead the clustering.
///
/// Constants the query states (`status = 'open'`) follow the equality
/// attributes and are placed by the same rule as a filter: a leading
/// clustering column while the partition stays small, the partition key
/// otherwise; alone they are the partition. They keep `Rule::Constant`
/// (they are bound in the SELECT), whichever side they land on.
pub(super) fn place(
    cx: &Context,
    ordered: &Ordered,
    constants: &[Reached],
    t: &mut Table,
    ids: &[Option<Reached>],
    est: &mut dyn FnMut(&Table) -> Trial,
) {
    let (equality, anchor) = (&ordered.equality, ordered.anchor.as_ref());
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
            None => match anchor {
                Some(a) if a.columns.contains(&i) => Why::Anchor {
                    declared_key: a.declared_key,
                    entity: g.node_name(a.node).to_string(),
                    over: a.over.clone(),
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
    // Each filter, in the model's order, leads the clustering when the
    // partition then stays within the thresholds at worst and something
    // stated bounds it; the filters not yet placed stay in the partition
    // key meanwhile (the smallest partition they allow).
    let max_stated = most_per_owner_stated(g, cx.root);
    for &i in &open {
        set(t, i, Role::Clustering(Dir::default()), Rule::Filter, None);
        let trial = est(t);
        let e = &trial.estimate;
        let th = &g.project.thresholds;
        // Nv = Nr·(Nc − Npk − Ns) + Ns is 0 for a table of key columns
        // only, where the value limit would never act: count rows there
        // (elsewhere Nv ≥ Nr, so this changes nothing).
        let values = e.values_max.max(e.rows_per_partition_max);
        // Rows that pile up with time in a partition nothing stated bounds
        // are not small on figures taken over an assumed horizon: the
        // review's `unbounded-partition` (its conditions, kept in step).
        let accumulates = e.accumulates
            && !e.retained
            && !trial.time_partitioned
            && (e.growth_per_day.is_some() || !max_stated);
        let fits = !accumulates && values <= th.max_values && e.partition_bytes_max <= th.max_bytes;
        let why = Why::Estimated {
            fits,
            constant: i >= n_eq,
            accumulates,
            values_max: values,
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

/// What [`place`] learns of a trial placement.
pub(super) struct Trial {
    /// The finished table's estimate.
    pub estimate: Estimate,
    /// The finished partition key holds a date, a timestamp or a time
    /// bucket: rows piling up with time spread over partitions.
    pub time_partitioned: bool,
}

/// Whether a one-to-many relationship ending at the rows states the most
/// rows one owner has (`max` in `to_per_from`): with no rate, that bounds
/// an owner's partition (one order's few status changes).
fn most_per_owner_stated(graph: &Graph, root: NodeId) -> bool {
    let NodeId::Entity(e) = root else {
        return false;
    };
    graph.incident(e).iter().any(|&r| {
        let rel = graph.rel(r);
        graph.end_entity(r, End::To) == Some(e)
            && rel.cardinality == crate::model::Cardinality::OneToMany
            && rel.to_per_from.as_ref().is_some_and(|c| c.max.is_some())
            && graph.end_entity(r, End::From).is_some_and(|f| f != e)
    })
}

/// The estimate of `t` as derivation would finish it (decision applied,
/// statics marked), for [`place`].
pub(super) fn finished_estimate(
    cx: &Context,
    est: &Estimator,
    t: &Table,
    ids: &[Option<Reached>],
) -> Trial {
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
    let time_partitioned = t.partition_key().any(|c| match &c.source {
        super::types::Source::Bucket { .. } => true,
        super::types::Source::Attr { .. } => {
            matches!(c.ty.native(), Some(Native::Date | Native::Timestamp))
        }
        _ => false,
    });
    Trial {
        estimate: est.table(&t),
        time_partitioned,
    }
}
