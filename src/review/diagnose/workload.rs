//! How tables are used: queues, counters, queries a table answers only by
//! filtering or not at all, and secondary indexes.

use super::{column_subject, Ctx, Diagnostic, Refinement, Subject};
use crate::derive::estimate::group_digits;
use crate::derive::{Access, Source};
use crate::model::name::Name;
use crate::model::{Native, Project};

/// Rows per indexed value under which an index is "high cardinality": a
/// lookup then visits every node to find a handful of rows.
pub(crate) const MIN_ROWS_PER_INDEXED_VALUE: f64 = 100.0;
/// Indexes on columns with at most this many values are never flagged.
pub(crate) const LOW_CARDINALITY: f64 = 1000.0;

pub(super) fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    queues(ctx, out);
    counters(ctx, out);
    plans(ctx, out);
    indexes(ctx, out);
}

fn queues(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for q in ctx.project.queries.iter().filter(|q| q.consumes) {
        let table = ctx.model.table_of(&q.id);
        let mut d = ctx.diag(
            "queue",
            Subject::Query(q.id.as_str().into()),
            format!(
                "{} reads rows from the front of a partition and deletes them: the tombstones stay until compaction after gc_grace_seconds, every read scans past them, and reads slow down until they time out.",
                q.id
            ),
            "Don't delete what was read: write items into time buckets, keep each consumer's position, and let a TTL expire old buckets (with a short gc_grace_seconds).".into(),
        );
        if let Some(t) = table {
            if let (Some(source), false) = (
                super::partition::followable_bucket_source(ctx, t),
                t.columns
                    .iter()
                    .any(|c| matches!(c.source, Source::Bucket { .. })),
            ) {
                let period = super::choose_bucket_for(&ctx.est, t, &ctx.project.thresholds)
                    .unwrap_or(crate::model::Period::Hour);
                d.set_refinement(Some(Refinement::AddBucket {
                    query: t.origin.clone(),
                    column: super::partition::extra_name(t, period.name()),
                    source,
                    period,
                }));
            }
        }
        out.push(d);
    }
}

/// A name that says "identifier or sequence number".
fn id_like(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "id"
        || n.ends_with("_id")
        || n.ends_with("id") && n.len() <= 4
        || n.contains("seq")
        || n.ends_with("_number")
        || n.ends_with("_no")
}

fn counters(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for t in &ctx.model.tables {
        if !t.dropped.is_empty() {
            let lost: Vec<&str> = t
                .queries
                .iter()
                .filter(|q| ctx.graph.query(q).is_some_and(|q| !q.returns.is_empty()))
                .map(Name::as_str)
                .collect();
            out.push(ctx.diag(
                "counter-mixed",
                Subject::Table(t.name.clone()),
                format!(
                    "{} mixes counters with other regular columns, which Cassandra rejects, so {} {} left out and {} cannot return {}.",
                    t.name,
                    t.dropped.join(", "),
                    if t.dropped.len() == 1 { "is" } else { "are" },
                    if lost.is_empty() { "its queries".to_string() } else { lost.join(", ") },
                    if t.dropped.len() == 1 { "it" } else { "them" }
                ),
                "Keep the counters in a table of their own with the same primary key, and the other columns in another table; read both.".into(),
            ));
        }
        if t.is_counter_table() {
            let counters: Vec<&str> = t
                .columns
                .iter()
                .filter(|c| c.ty.is_counter())
                .map(|c| c.name.as_str())
                .collect();
            out.push(ctx.diag(
                "counter-retry",
                Subject::Table(t.name.clone()),
                format!(
                    "Increments of {} in {} are not idempotent: a write that times out may have been applied, so a retry over-counts and nothing corrects it.",
                    counters.join(", "),
                    t.name
                ),
                "Accept approximate counts, or record each event in an idempotent table (ids in a set or clustering rows) and correct the counter from it periodically.".into(),
            ));
        }
    }
    for (item, attrs, keys) in items(ctx.project) {
        for a in attrs.iter().filter(|a| a.ty.is_counter()) {
            let in_key = keys.contains(&a.name);
            if !in_key && !id_like(&a.name) {
                continue;
            }
            let why = if in_key {
                "is part of a key, which Cassandra forbids for counters, and"
            } else {
                "looks like an id:"
            };
            out.push(ctx.diag(
                "counter-as-id",
                Subject::Attribute {
                    item: item.into(),
                    attribute: a.name.as_str().into(),
                },
                format!(
                    "{item}.{} is a counter that {why} concurrent increments hand out duplicate numbers, so ids made from it collide.",
                    a.name
                ),
                "Use a timeuuid (or uuid) as the identifier; keep counters for counting.".into(),
            ));
        }
    }
}

/// Every entity and relationship with its attributes and key attributes.
fn items(p: &Project) -> impl Iterator<Item = (&str, &[crate::model::Attribute], &[String])> + '_ {
    p.entities
        .iter()
        .map(|e| (e.name.as_str(), e.attributes.as_slice(), e.key.as_slice()))
        .chain(
            p.relationships
                .iter()
                .map(|r| (r.name.as_str(), r.attributes.as_slice(), &[][..])),
        )
}

fn plans(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for p in &ctx.model.plans {
        let Some(ti) = p.table else { continue };
        let t = &ctx.model.tables[ti];
        let (rule, message, fix) = match &p.access {
            Access::Direct | Access::Index(_) => continue,
            Access::Filtering(why) => (
                "query-needs-filtering",
                format!(
                    "{} can read {} only with ALLOW FILTERING ({why}): Cassandra then scans partitions (or the whole table) and discards rows, so latency grows with the data, not the result.",
                    p.query, t.name
                ),
                "Serve the query from a table keyed for it (its own derived table), or restrict the partition key by equality and the clustering columns as a prefix.",
            ),
            Access::Impossible(why) => (
                "query-unservable",
                format!("{} cannot be answered from {} at all: {why}.", p.query, t.name),
                "Give the query its own table (remove served_by or the candidate key that broke it), or change the key so its search restricts the partition key by equality.",
            ),
        };
        out.push(ctx.diag(rule, Subject::Query(p.query.clone()), message, fix.into()));
    }
}

fn indexes(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for (i, t) in ctx.model.tables.iter().enumerate() {
        for ix in &t.indexes {
            let Some(c) = t.column(ix) else { continue };
            let Source::Attr {
                reached, attribute, ..
            } = &c.source
            else {
                continue;
            };
            let attr = ctx.graph.attr(reached.attr);
            let rows = ctx.estimate(i).map_or(0.0, |e| e.rows);
            let owner = reached.attr.node();
            let unique_key = match owner {
                crate::model::resolve::NodeId::Entity(e) => {
                    let ent = ctx.graph.entity(e);
                    ent.key.len() == 1 && ent.key[0] == attr.name && ent.owner.is_none()
                }
                crate::model::resolve::NodeId::Rel(_) => false,
            };
            let distinct = attr.distinct.or_else(|| {
                let mut notes = Vec::new();
                if unique_key {
                    Some(ctx.est.count(owner, &mut notes))
                } else if matches!(
                    c.ty.native(),
                    Some(Native::Timestamp | Native::Timeuuid | Native::Uuid)
                ) {
                    Some(rows)
                } else {
                    None
                }
            });
            // The one-key fix drops an index the table's decision added (an
            // index of a candidate key goes with the candidate).
            let drop = ctx
                .project
                .decision(&t.origin)
                .is_some_and(|d| d.indexes.iter().any(|x| *x == c.name))
                .then(|| Refinement::DropIndex {
                    query: t.origin.clone(),
                    column: c.name.to_string(),
                });
            if let Some(d) = distinct {
                if d > LOW_CARDINALITY && rows / d.max(1.0) < MIN_ROWS_PER_INDEXED_VALUE {
                    let mut diag = ctx.diag(
                        "index-high-cardinality",
                        column_subject(t, &c.name),
                        format!(
                            "The index on {}.{} covers about {} distinct values for {} rows: each lookup asks every node for a handful of rows, so it is slower than a table keyed by {}.",
                            t.name,
                            c.name,
                            group_digits(d),
                            group_digits(rows),
                            c.name
                        ),
                        format!("Drop the index and add a table with {} in its partition key for the queries that search by it.", c.name),
                    );
                    diag.set_refinement(drop.clone());
                    out.push(diag);
                }
            }
            if attr.mutable {
                let mut diag = ctx.diag(
                    "index-frequent-updates",
                    column_subject(t, &c.name),
                    format!(
                        "{attribute} changes over a record's life and is indexed in {}: every change rewrites the local index entry and leaves a tombstone in it, and readers may briefly miss the row.",
                        t.name
                    ),
                    "Index only values that rarely change, or keep a table keyed by the value and update it explicitly.".into(),
                );
                diag.set_refinement(drop);
                out.push(diag);
            }
        }
    }
}
