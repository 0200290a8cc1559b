//! Primary keys: do they identify the rows (MR5), do timestamps alone make
//! them unique, do key values change over a record's life?

use super::{attribute_label, column_subject, Ctx, Diagnostic, Refinement, Subject};
use crate::derive::estimate::Estimator;
use crate::derive::{Role, Source, Table};
use crate::model::resolve::{Edge, Graph, Reached};
use crate::model::Native;

/// The attributes a table's columns reach, for [`Graph::grain`] and
/// [`Graph::row_key`].
fn reached(t: &Table) -> impl Iterator<Item = (&crate::derive::Column, &Reached)> {
    t.columns.iter().filter_map(|c| match &c.source {
        Source::Attr { reached, .. } => Some((c, reached)),
        _ => None,
    })
}

/// The attributes identifying a table's rows (the rows' key, plus the key
/// of every node the columns multiply through), as MR5 requires.
fn grain(graph: &Graph, t: &Table) -> Vec<Reached> {
    let Some(root) = graph.node(&t.rows) else {
        return vec![];
    };
    graph.grain(root, reached(t).map(|(_, r)| r.path.as_slice()))
}

/// A key column that alone tells rows apart: an own timeuuid attribute of
/// the rows, or one with at least as many distinct values as there are rows.
fn surrogate_in_key(graph: &Graph, est: &Estimator, t: &Table) -> bool {
    let Some(root) = graph.node(&t.rows) else {
        return false;
    };
    t.columns.iter().filter(|c| c.role.is_key()).any(|c| {
        let Source::Attr { reached, .. } = &c.source else {
            return false;
        };
        if !reached.path.is_empty() || reached.attr.node() != root {
            return false;
        }
        if c.ty.native() == Some(Native::Timeuuid) {
            return true;
        }
        let mut notes = Vec::new();
        graph
            .attr(reached.attr)
            .distinct
            .is_some_and(|d| d >= est.count(root, &mut notes))
    })
}

/// The identifying attributes (as `Entity.attr` references from the rows)
/// missing from a table's primary key; empty when the key identifies the
/// rows, so that no insert can overwrite another row.
pub fn missing_key(graph: &Graph, est: &Estimator, t: &Table) -> Vec<String> {
    if surrogate_in_key(graph, est, t) {
        return vec![];
    }
    missing_from(graph, t)
}

/// What MR5 would still append to the key of `t` so no row overwrites
/// another: empty when the key identifies the rows.
fn missing_from(graph: &Graph, t: &Table) -> Vec<String> {
    let Some(root) = graph.node(&t.rows) else {
        return vec![];
    };
    // A summary's row is a group and window, not one of the rows it
    // aggregates: many rows meeting in one is the point.
    if t.columns
        .iter()
        .any(|c| c.rule == crate::derive::Rule::Aggregate)
    {
        return vec![];
    }
    let keyed: Vec<Reached> = reached(t)
        .filter(|(c, _)| c.role.is_key())
        .map(|(_, r)| r.clone())
        .collect();
    let present: Vec<&Reached> = reached(t).map(|(_, r)| r).collect();
    // The meets of the queries it serves hold in what the application
    // writes: the derivation counted on them too.
    let meets: Vec<_> = t
        .queries
        .iter()
        .filter_map(|q| graph.query(q.as_str()))
        .flat_map(|q| graph.meet_paths(root, &q.meets))
        .collect();
    graph
        .row_key_meeting(root, &keyed, &present, &meets)
        .iter()
        .map(|k| graph.ref_text(root, k))
        .collect()
}

/// The relationship whose children a clustering column belongs to, when
/// pushing them up into a collection takes the column out of the key: the
/// first to-many step of its path. `None` where `refine::apply` would
/// refuse the refinement (a query served by another's table, or the
/// relationship already a collection) or there is no such step.
fn collection_for(ctx: &Ctx, t: &Table, reached: &Reached) -> Option<String> {
    let r = reached.path.iter().find_map(|e| match e {
        Edge::Enter(r, _) if ctx.graph.fanout(*e).many => Some(*r),
        _ => None,
    })?;
    let name = &ctx.graph.rel(r).name;
    let d = ctx.graph.decision(&t.origin);
    if d.is_some_and(|d| d.served_by.is_some() || d.collections.contains(name)) {
        return None;
    }
    ctx.graph.query(&t.origin)?;
    Some(name.clone())
}

/// Whether two writers can produce the same value of the timestamp
/// `reached`: it identifies rows of a strong entity (an event keyed by
/// its time). A weak entity's timestamp (a sensor's reading, an order's
/// status change) identifies a row within its owner, whose key the
/// primary key holds too, and one owner is one writer; a relationship's
/// is scoped by its two ends the same way.
fn shared_by_writers(ctx: &Ctx, reached: &Reached) -> bool {
    match reached.attr.node() {
        crate::model::resolve::NodeId::Entity(e) => {
            let e = ctx.graph.entity(e);
            e.owner.is_none() && e.owners.is_empty()
        }
        crate::model::resolve::NodeId::Rel(_) => false,
    }
}

/// Whether a clustering column after `column` is an id of the rows (a
/// uuid, timeuuid or bigint in their identity): rows written in the same
/// millisecond still differ by it.
fn id_follows(t: &Table, column: &str, grain: &[Reached]) -> bool {
    t.clustering()
        .skip_while(|c| c.name != column)
        .skip(1)
        .any(|c| {
            let Source::Attr { reached, .. } = &c.source else {
                return false;
            };
            grain.contains(reached)
                && matches!(
                    c.ty.native(),
                    Some(Native::Uuid | Native::Timeuuid | Native::Bigint)
                )
        })
}

/// The key findings about table `i` alone.
pub(super) fn table(ctx: &Ctx, i: usize, out: &mut Vec<Diagnostic>) {
    if let Some(t) = ctx.model.tables.get(i) {
        let grain = grain(ctx.graph, t);
        let surrogate = surrogate_in_key(ctx.graph, &ctx.est, t);
        let missing = if surrogate {
            vec![]
        } else {
            missing_from(ctx.graph, t)
        };
        if !missing.is_empty() {
            let by = t
                .candidate
                .as_ref()
                .map(|c| format!(" (candidate key {c})"))
                .unwrap_or_default();
            let mut diag = ctx.diag(
                "rows-overwrite",
                Subject::Table(t.name.clone()),
                format!(
                    "The primary key of {}{by} does not identify its {} rows ({} missing): a second row with the same key silently overwrites the first.",
                    t.name,
                    t.rows,
                    missing.join(", ")
                ),
                format!(
                    "Add {} to the clustering columns (MR5), or go back to the derived key.",
                    missing.join(", ")
                ),
            );
            // A hand-written key goes back to the derived one, which MR5
            // makes unique.
            diag.set_refinement(t.candidate.as_ref().map(|c| Refinement::UseDerivedKey {
                query: t.origin.clone(),
                candidate: c.clone(),
            }));
            out.push(diag);
        }
        for c in &t.columns {
            let Source::Attr { reached, .. } = &c.source else {
                continue;
            };
            if !c.role.is_key() {
                continue;
            }
            let attr = ctx.graph.attr(reached.attr);
            // Counter rows add up rather than overwrite.
            if matches!(c.role, Role::Clustering(_))
                && !t.is_counter_table()
                && c.ty.native() == Some(Native::Timestamp)
                && grain.contains(reached)
                && !surrogate
                && shared_by_writers(ctx, reached)
                && !id_follows(t, &c.name, &grain)
            {
                let mut d = ctx.diag(
                    "timestamp-key",
                    column_subject(t, &c.name),
                    format!(
                        "{}.{} is a bare timestamp that makes rows unique and nothing in the key tells their writers apart: two writers producing the same millisecond write the same key and one row silently overwrites the other.",
                        t.name, c.name
                    ),
                    format!("Make {} a timeuuid (time plus a unique node and sequence part).", c.name),
                );
                d.set_refinement(Some(Refinement::Timeuuid {
                    query: t.origin.clone(),
                    column: c.name.to_string(),
                }));
                out.push(d);
            }
            if attr.mutable {
                let place = if c.role == Role::Partition {
                    "partition key"
                } else {
                    "clustering key"
                };
                let collection = match c.role {
                    Role::Clustering(_) => collection_for(ctx, t, reached),
                    _ => None,
                };
                let mut d = ctx.diag(
                    "mutable-key",
                    column_subject(t, &c.name),
                    format!(
                        "{} changes over a record's life but is in the {place} of {}: every change is a delete plus an insert, leaving a tombstone each time and a moment where readers see the row twice or not at all.",
                        attribute_label(c),
                        t.name
                    ),
                    "Key the table by attributes that never change; to group records by a changing value keep their ids in a set or list column instead of clustering rows (seed 000).".into(),
                );
                if let Some(relationship) = collection {
                    d.set_fix(format!(
                        "Push {relationship} up into a collection so {} is a collection element rather than a clustering key; or key the table by attributes that never change (seed 000).",
                        c.name
                    ));
                    d.set_refinement(Some(Refinement::Collection {
                        query: t.origin.clone(),
                        relationship,
                    }));
                }
                out.push(d);
            }
        }
    }
}
