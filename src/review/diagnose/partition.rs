//! Partition shape: size against the project's thresholds and Cassandra's
//! cell limit, growth without a bound, hot partitions, large values and
//! collections.

use super::{column_subject, Ctx, Diagnostic, Refinement, Subject};
use crate::derive::estimate::{group_digits, human_bytes, Estimate, Estimator};
use crate::derive::{serve, Access, Column, KeyShape, Role, Rule, Source, Table};
use crate::model::quantity::count;
use crate::model::resolve::{normalize, Graph, Reached};
use crate::model::{CqlType, Native, Period, Thresholds};

/// Cassandra refuses a partition past this many cells.
pub(crate) const CELL_LIMIT: f64 = 2_000_000_000.0;
/// Fewer partitions than this concentrate a table's traffic on a few
/// replica sets of any realistic cluster.
pub(crate) const MIN_PARTITIONS: f64 = 100.0;
/// Average cell size past which a value hurts (seed 001: "a few MBs").
pub(crate) const MAX_CELL_BYTES: f64 = 1024.0 * 1024.0;
/// Elements a collection may hold (native protocol v2 limit, 64K).
pub(crate) const MAX_COLLECTION_ELEMENTS: f64 = 65_535.0;
/// Shards proposed for a hot partition when nothing says more are needed
/// (seed 001: about the number of nodes).
pub(crate) const DEFAULT_SHARDS: u32 = 8;

/// The partition findings about table `i` alone (see
/// [`super::TableFindings`] for what they read).
pub(super) fn table(ctx: &Ctx, i: usize, out: &mut Vec<Diagnostic>) {
    let th = &ctx.project.thresholds;
    let (Some(t), Some(e)) = (ctx.model.tables.get(i), ctx.estimate(i)) else {
        return;
    };
    size(ctx, t, e, th, out);
    unbounded(ctx, t, e, out);
    hot(ctx, i, t, e, out);
    large_values(ctx, t, e, out);
}

/// The partition findings about entities (retention without a TTL).
pub(super) fn entities(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for ent in &ctx.project.entities {
        if let (Some(days), false) = (ent.retention_days, ent.ttl) {
            // The fix is previewed on the first table holding these rows.
            let refinement = ctx
                .model
                .tables
                .iter()
                .find(|t| t.rows == ent.name)
                .map(|t| Refinement::Ttl {
                    query: t.origin.clone(),
                    entity: ent.name.clone(),
                });
            let mut d = ctx.diag(
                "retention-without-ttl",
                Subject::Entity(ent.name.as_str().into()),
                format!(
                    "{} rows are kept {} days but no TTL expires them, so the application must delete them (leaving tombstones) or they stay forever.",
                    ent.name,
                    count(days)
                ),
                format!("Set `ttl: true` on {} so its tables get default_time_to_live; a TTL is hard to add to data already written.", ent.name),
            );
            d.set_refinement(refinement);
            out.push(d);
        }
    }
}

/// Whether an estimate's worst case is within the thresholds.
pub fn fits(e: &Estimate, th: &Thresholds) -> bool {
    e.values.max(e.values_max) <= th.max_values
        && e.partition_bytes.max(e.partition_bytes_max) <= th.max_bytes
}

fn size(ctx: &Ctx, t: &Table, e: &Estimate, th: &Thresholds, out: &mut Vec<Diagnostic>) {
    let worst_values = e.values.max(e.values_max);
    let worst_bytes = e.partition_bytes.max(e.partition_bytes_max);
    let rule = if worst_values > CELL_LIMIT {
        "partition-cell-limit"
    } else if !fits(e, th) {
        "partition-too-large"
    } else {
        return;
    };
    let figures = format!(
        "{} values and {} per partition on average, {} values and {} at worst",
        count(e.values),
        human_bytes(e.partition_bytes),
        count(worst_values),
        human_bytes(worst_bytes)
    );
    let message = if rule == "partition-cell-limit" {
        format!("Partitions of {} reach {figures}: Cassandra rejects writes past 2 billion cells in one partition.", t.name)
    } else {
        format!(
            "Partitions of {} hold {figures}, over the project's {} values / {}: reads, compaction and repair of such partitions slow down and strain the heap.",
            t.name,
            group_digits(th.max_values),
            human_bytes(th.max_bytes)
        )
    };
    let mut d = ctx.diag(rule, Subject::Table(t.name.clone()), message, String::new());
    let (fix, refinement) = split_fix(ctx, t, e, th);
    d.set_fix(fix);
    d.set_refinement(refinement);
    out.push(d);
}

/// A bucket when the table has a time column and some bucket fits, else a
/// shard count that divides the worst case under the thresholds.
fn split_fix(ctx: &Ctx, t: &Table, e: &Estimate, th: &Thresholds) -> (String, Option<Refinement>) {
    if let Some(source) = followable_bucket_source(ctx, t) {
        if !time_partitioned(t) {
            if let Some((period, named)) = proposed_bucket(ctx.graph, &ctx.est, t, th) {
                let column = extra_name(t, period.name());
                let why = match named {
                    Some(q) => format!(
                        "the period {q} searches by, which keeps the worst case under the thresholds"
                    ),
                    None => "the coarsest that keeps the worst case under the thresholds".into(),
                };
                return (
                    format!(
                        "Add {} bucket of {source} to the partition key ({why}).",
                        a_period(period)
                    ),
                    Some(Refinement::AddBucket {
                        query: t.origin.clone(),
                        column,
                        source,
                        period,
                    }),
                );
            }
        }
    }
    // A shard count that really brings the worst case under the thresholds
    // once applied, checked on the table as the refinement makes it: a
    // sharded table gets a larger count on its shard column (the
    // refinement replaces a shard in place), else a new shard column.
    let existing = t.partition_key().find_map(|c| match c.source {
        Source::Shard { count } => Some((c.name.clone(), count.max(1))),
        _ => None,
    });
    let (column, had) = match &existing {
        Some((name, count)) => (name.to_string(), *count),
        None => (extra_name(t, "shard"), 1),
    };
    let mut n = had.saturating_mul(shards_needed(e, th, existing.is_some()));
    let fits_with = |n: u32| fits(&ctx.est.table(&with_shard(t, &column, n)), th);
    while n < 1024 && !fits_with(n) {
        n = n.saturating_mul(2).min(1024);
    }
    if !fits_with(n) {
        return (
            "Add another search attribute to the partition key: no bucket or shard count brings the worst case under the thresholds.".into(),
            None,
        );
    }
    let fix = if existing.is_some() {
        format!(
            "Raise the shard count of {column} from {had} to {n}, or add another search attribute to the partition key."
        )
    } else {
        format!("Spread each partition over {n} shards (a shard number in the partition key), or add another search attribute to the partition key.")
    };
    (
        fix,
        Some(Refinement::AddShard {
            query: t.origin.clone(),
            column,
            count: n,
        }),
    )
}

/// The table with `column` as a shard of `count`, in place of its shard
/// or after the last partition column, as the derivation would place it.
fn with_shard(t: &Table, column: &str, count: u32) -> Table {
    let mut t2 = t.clone();
    if let Some(c) = t2
        .columns
        .iter_mut()
        .find(|c| matches!(c.source, Source::Shard { .. }))
    {
        c.source = Source::Shard { count };
        return t2;
    }
    let at = t2
        .columns
        .iter()
        .rposition(|c| c.role == Role::Partition)
        .map_or(0, |i| i + 1);
    t2.columns.insert(
        at,
        Column {
            name: column.into(),
            ty: CqlType::Native(Native::Int),
            role: Role::Partition,
            rule: Rule::Shard,
            why: None,
            query: t.origin.clone(),
            source: Source::Shard { count },
        },
    );
    t2
}

/// Shards that bring the worst case under the thresholds, at least the
/// default and at most 1024.
fn shards_needed(e: &Estimate, th: &Thresholds, sharded: bool) -> u32 {
    let by_values = e.values.max(e.values_max) / th.max_values.max(1.0);
    let by_bytes = e.partition_bytes.max(e.partition_bytes_max) / th.max_bytes.max(1.0);
    let need = by_values.max(by_bytes).ceil();
    if !need.is_finite() {
        return 1024;
    }
    // A table sharded already needs only the missing factor.
    let least = if sharded { 2 } else { DEFAULT_SHARDS };
    (need as u32).clamp(least, 1024)
}

fn unbounded(ctx: &Ctx, t: &Table, e: &Estimate, out: &mut Vec<Diagnostic>) {
    if !e.accumulates || t.ttl_seconds.is_some() || e.retained || time_partitioned(t) {
        return;
    }
    // With no rate, a stated most-per-owner bounds the partition (one
    // order's status changes); a rate keeps adding rows whatever the max.
    if e.growth_per_day.is_none() && stated_max(ctx, t) {
        return;
    }
    let message = match e.growth_per_day {
        Some(per_day) => format!(
            "Rows per partition of {} grow by {} a day and nothing bounds them: after {} days (the assumed horizon; no retention is stated) a partition holds {} rows ({}), and it keeps growing.",
            t.name,
            count(per_day),
            count(e.span_days),
            count(e.rows_per_partition),
            human_bytes(e.partition_bytes)
        ),
        // What is known is that no figure is stated: say so, and name
        // the figure that would bound the partition.
        None => match owning_relationship(ctx, t) {
            Some((rel, from)) => format!(
                "Rows of {} are ordered by time and no stated figure bounds a partition: no retention, TTL or time bucket, and {rel} states no count of {} per {from}. If one {from} only ever has so many (an order's few status changes), state it as `max` in {rel}'s to_per_from; if rows keep arriving, state a retention.",
                t.name, t.rows
            ),
            None => format!(
                "Rows of {} are ordered by time and no stated figure bounds a partition: no retention, TTL, time bucket or count of rows per partition. State the most rows a partition holds (a `max` count), or a retention.",
                t.name
            ),
        },
    };
    let mut d = ctx.diag(
        "unbounded-partition",
        Subject::Table(t.name.clone()),
        message,
        "State a retention with a TTL on the rows' entity, or add a time bucket to the partition key if the queries can name it.".into(),
    );
    if let Some(source) = followable_bucket_source(ctx, t) {
        let period = proposed_bucket(ctx.graph, &ctx.est, t, &ctx.project.thresholds)
            .map_or(Period::Hour, |(p, _)| p);
        let about = match e.growth_per_day {
            Some(per_day) => format!(
                " (about {} rows per partition)",
                count(per_day * period.days())
            ),
            None => String::new(),
        };
        d.set_fix(format!(
            "Add {} bucket of {source} to the partition key{about}, or state a retention with a TTL.",
            a_period(period),
        ));
        d.set_refinement(Some(Refinement::AddBucket {
            query: t.origin.clone(),
            column: extra_name(t, period.name()),
            source,
            period,
        }));
    }
    out.push(d);
}

/// The one-to-many relationship that brings a table's rows under their
/// owner (a weak entity's `owner`, else one ending at the rows), with the
/// entity on its one side: whose stated `max` would bound a partition.
fn owning_relationship(ctx: &Ctx, t: &Table) -> Option<(String, String)> {
    let p = ctx.project;
    let rel = p
        .entity(&t.rows)
        .and_then(|e| e.owner.as_deref())
        .and_then(|o| p.relationship(o))
        .or_else(|| {
            p.relationships.iter().find(|r| {
                r.to == t.rows.as_str() && r.cardinality == crate::model::Cardinality::OneToMany
            })
        })?;
    Some((rel.name.clone(), rel.from.clone()))
}

/// Whether the relationship owning the table's rows states the most rows
/// one owner has (`max` in its `to_per_from`).
fn stated_max(ctx: &Ctx, t: &Table) -> bool {
    owning_relationship(ctx, t)
        .and_then(|(rel, _)| ctx.project.relationship(&rel))
        .and_then(|r| r.to_per_from.as_ref())
        .is_some_and(|c| c.max.is_some())
}

/// Writes a second into one partition that one replica set takes in its
/// stride: below this, a time-only partition key is no hot spot.
pub(crate) const HOT_WRITES_PER_SECOND: f64 = 100.0;

/// The bucket source when a bucket is a fix the reads can follow: the
/// time column orders the rows (a clustering column) and every query of
/// the table reads a slice of time on it (a range or an order).
pub(super) fn followable_bucket_source(ctx: &Ctx, t: &Table) -> Option<String> {
    let source = bucket_source(t)?;
    let c = t.column(&source)?;
    if !matches!(c.role, Role::Clustering(_)) {
        return None;
    }
    let attr = super::attribute_label(c);
    let slices = t.queries.iter().all(|q| {
        ctx.graph.query(q).is_some_and(|q| {
            let names = |a: &str| a == attr || a == source || attr.ends_with(&format!(".{a}"));
            q.range.as_ref().is_some_and(|r| names(&r.attr))
                || q.order.iter().any(|o| names(&o.attr))
        })
    });
    slices.then_some(source)
}

fn hot(ctx: &Ctx, ti: usize, t: &Table, e: &Estimate, out: &mut Vec<Diagnostic>) {
    if t.partition_key().next().is_none() {
        return;
    }
    // A constant column splits nothing: judge the others.
    let real = || {
        t.partition_key()
            .filter(|c| !matches!(c.source, Source::Constant))
    };
    // Few partitions take all the traffic, unless the stated rate is low
    // and the partitions stay within the thresholds.
    let quiet = e.rows_per_day.is_some_and(|d| {
        d / 86_400.0 / e.partitions.max(1.0) < HOT_WRITES_PER_SECOND
            && fits(e, &ctx.project.thresholds)
    });
    let few = e.partitions < MIN_PARTITIONS && e.rows_per_partition > 1.0 && !quiet;
    // A time-only key sends the current period's writes to one partition;
    // at the rate the model states, that may be nothing to worry about.
    let calm = e
        .rows_per_day
        .is_some_and(|d| d / 86_400.0 < HOT_WRITES_PER_SECOND);
    // Only a stated rate makes the current period's partition hot.
    let all_time =
        real().next().is_some() && real().all(is_time_value) && e.rows_per_day.is_some() && !calm;
    if real().next().is_some() && !all_time && !few {
        return;
    }
    let names = real()
        .map(|c| c.name.as_str())
        .collect::<Vec<_>>()
        .join(", ");
    let message = if real().next().is_none() {
        format!(
            "Every row of {} is in one partition (a constant key, since the query searches nothing by equality): all reads and writes hit one replica set and the partition grows with the table.",
            t.name
        )
    } else if all_time {
        format!(
            "The partition key of {} is a time value alone ({names}): every write of the current period goes to one partition, so one replica set takes all writes while the others idle.",
            t.name
        )
    } else if few {
        format!(
            "The partition key of {} ({names}) has about {} distinct values for {} rows: traffic concentrates on a few replica sets{}.",
            t.name,
            count(e.partitions),
            group_digits(e.rows),
            if fits(e, &ctx.project.thresholds) {
                ""
            } else {
                " and partitions grow large"
            }
        )
    } else {
        return;
    };
    // Heat is writes a second: without a stated rate, say it is a guess.
    let message = if e.rows_per_day.is_none() {
        format!("{message} (no write rate is stated, so the heat is a guess: state the rate, a `per` on the count of rows, to judge it)")
    } else {
        message
    };
    let n = shards_needed(e, &ctx.project.thresholds, false);
    let mut d = ctx.diag(
        "hot-partition",
        Subject::Table(t.name.clone()),
        message,
        format!(
            "Add a higher-cardinality attribute to the partition key (a source or type id), or a shard number 0..{n} that writers round-robin and readers query in parallel."
        ),
    );
    // A promotion needs no fan-out on reads: prefer it when it spreads
    // the rows over enough partitions without hurting any query.
    match best_promotion(ctx, ti, t) {
        Some((column, parts)) => {
            d.set_fix(format!(
                "Move {column} from clustering into the partition key (about {} partitions instead of {}), or add a shard number 0..{n} that writers round-robin and readers query in parallel.",
                group_digits(parts),
                group_digits(e.partitions)
            ));
            // An equality filter moves by its own placement refinement.
            let filter = t.column(&column).is_some_and(|c| {
                matches!(
                    c.rule,
                    crate::derive::Rule::Filter | crate::derive::Rule::Constant
                )
            });
            d.set_refinement(Some(if filter {
                Refinement::PlaceEquality {
                    query: t.origin.clone(),
                    column,
                    partition: true,
                }
            } else {
                Refinement::Promote {
                    query: t.origin.clone(),
                    column,
                }
            }));
        }
        None => {
            d.set_refinement(Some(Refinement::AddShard {
                query: t.origin.clone(),
                column: extra_name(t, "shard"),
                count: n,
            }));
        }
    }
    out.push(d);
}

/// How well a table answers a query: lower is better.
fn access_rank(a: &Access) -> u8 {
    match a {
        Access::Direct => 0,
        Access::Index(_) => 1,
        Access::Filtering(_) => 2,
        Access::Impossible(_) => 3,
    }
}

/// How each query the table serves would be answered, judged as the
/// derivation judges it; `None` when a query does not resolve.
fn accesses(ctx: &Ctx, queries: &[&crate::model::Query], t: &Table) -> Option<Vec<u8>> {
    let ids: Vec<Option<Reached>> = t
        .columns
        .iter()
        .map(|c| match &c.source {
            Source::Attr { reached, .. } => Some(reached.clone()),
            _ => None,
        })
        .collect();
    let shape = KeyShape::of(t);
    queries
        .iter()
        .map(|q| {
            let root = ctx.graph.node(&q.rows)?;
            let res = serve::resolve_query(ctx.graph, root, q).ok()?;
            Some(match serve::request(q, &res, t, &ids) {
                Ok(req) => access_rank(&serve::access(&shape, &req).0),
                Err(_) => 3,
            })
        })
        .collect()
}

/// The clustering column whose promotion into the partition key gives a
/// hot table the most partitions, with that estimate: only a column that
/// is not a time value, that brings the table to at least
/// [`MIN_PARTITIONS`], and that leaves every query of the table answered
/// at least as well as now.
fn best_promotion(ctx: &Ctx, ti: usize, t: &Table) -> Option<(String, f64)> {
    t.clustering().next()?;
    if ctx
        .graph
        .decision(&t.origin)
        .is_some_and(|d| d.served_by.is_some())
    {
        return None;
    }
    let queries: Vec<&crate::model::Query> = ctx
        .plans_reading(ti)
        .iter()
        .filter_map(|&p| ctx.graph.query(&ctx.model.plans[p].query))
        .collect();
    let now = accesses(ctx, &queries, t)?;
    let mut best: Option<(String, f64)> = None;
    for c in t.clustering() {
        if !matches!(c.source, Source::Attr { .. }) || is_time_value(c) {
            continue;
        }
        let mut t2 = t.clone();
        if let Some(x) = t2.columns.iter_mut().find(|x| x.name == c.name) {
            x.role = Role::Partition;
        }
        let parts = ctx.est.table(&t2).partitions;
        if parts < MIN_PARTITIONS || best.as_ref().is_some_and(|b| parts <= b.1) {
            continue;
        }
        let after = accesses(ctx, &queries, &t2)?;
        if after.iter().zip(&now).all(|(a, b)| a <= b) {
            best = Some((c.name.to_string(), parts));
        }
    }
    best
}

fn large_values(ctx: &Ctx, t: &Table, e: &Estimate, out: &mut Vec<Diagnostic>) {
    if e.largest_cell > MAX_CELL_BYTES {
        let mut notes = Vec::new();
        let biggest = t
            .columns
            .iter()
            .filter(|c| !c.role.is_key())
            .map(|c| {
                let attr = match &c.source {
                    Source::Attr { reached, .. } => Some(ctx.graph.attr(reached.attr)),
                    _ => None,
                };
                (c, ctx.est.value_size(&c.ty, attr, &c.name, &mut notes))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1));
        if let Some((c, bytes)) = biggest {
            out.push(ctx.diag(
                "large-value",
                column_subject(t, &c.name),
                format!(
                    "Values of {}.{} average {}: a cell is read whole into the heap, so reads of these rows are slow and risk garbage-collection pauses.",
                    t.name,
                    c.name,
                    human_bytes(bytes)
                ),
                "Keep values under a few MB: store large objects in chunks (a chunk number as clustering column) or in an object store with a reference here.".into(),
            ));
        }
    }
    for c in t
        .columns
        .iter()
        .filter(|c| c.ty.is_collection() || matches!(c.source, Source::Collection { .. }))
    {
        let (avg, max, refinement) = match &c.source {
            Source::Attr { reached, .. } => {
                let Some(n) = ctx.graph.attr(reached.attr).elements else {
                    continue;
                };
                (n, n, None)
            }
            Source::Collection { .. } => {
                let Some(rel) = pushed_up_relationship(ctx, t) else {
                    continue;
                };
                let (avg, max) = ctx.est.collection_elements(t, &c.name, &mut Vec::new());
                (
                    avg,
                    max,
                    Some(Refinement::Uncollection {
                        query: t.origin.clone(),
                        relationship: rel,
                    }),
                )
            }
            _ => continue,
        };
        if avg.max(max) <= MAX_COLLECTION_ELEMENTS {
            continue;
        }
        let mut d = ctx.diag(
            "large-collection",
            column_subject(t, &c.name),
            format!(
                "{}.{} is expected to hold {} elements ({} at worst): a collection is read and rewritten whole, and past 64K elements drivers fail to read it.",
                t.name,
                c.name,
                count(avg),
                count(avg.max(max))
            ),
            "Store the elements as clustering rows instead of a collection.".into(),
        );
        d.set_refinement(refinement);
        out.push(d);
    }
}

/// The relationship a decision pushed up into the table's collection.
fn pushed_up_relationship(ctx: &Ctx, t: &Table) -> Option<String> {
    let d = ctx.graph.decision(&t.origin)?;
    d.collections
        .iter()
        .find(|name| ctx.graph.rel_index(name).is_some())
        .cloned()
}

/// A partition column that holds a point or period in time (a bucket, a
/// date or a timestamp); a timeuuid is an identifier, not a period.
fn is_time_value(c: &Column) -> bool {
    match &c.source {
        Source::Bucket { .. } => true,
        Source::Attr { .. } => matches!(c.ty.native(), Some(Native::Date | Native::Timestamp)),
        _ => false,
    }
}

/// The partition key already splits by time, so a bucket adds nothing.
fn time_partitioned(t: &Table) -> bool {
    t.partition_key().any(is_time_value)
}

/// The time column a bucket is computed from: the first date or time
/// clustering column, else any date or time attribute column.
pub(crate) fn bucket_source(t: &Table) -> Option<String> {
    let temporal_attr = |c: &&Column| matches!(c.source, Source::Attr { .. }) && c.ty.is_temporal();
    let precise = |c: &&Column| temporal_attr(c) && c.ty.native() != Some(Native::Date);
    let clustering = || {
        t.columns
            .iter()
            .filter(|c| matches!(c.role, Role::Clustering(_)))
    };
    let other = || t.columns.iter().filter(|c| c.role != Role::Partition);
    clustering()
        .find(temporal_attr)
        .or_else(|| other().find(precise))
        .or_else(|| other().find(temporal_attr))
        .map(|c| c.name.to_string())
}

/// "a day", "an hour".
pub(crate) fn a_period(p: Period) -> String {
    match p {
        Period::Hour => "an hour".into(),
        _ => format!("a {}", p.name()),
    }
}

/// A column name not yet in the table: `base`, else `base_bucket`,
/// `base_2`...
pub(crate) fn extra_name(t: &Table, base: &str) -> String {
    if t.column(base).is_none() {
        return base.to_string();
    }
    let alt = format!("{base}_bucket");
    if base != "shard" && t.column(&alt).is_none() {
        return alt;
    }
    // A table has finitely many columns, so a free name comes.
    #[allow(clippy::maybe_infinite_iter)]
    (2..)
        .map(|n| format!("{base}_{n}"))
        .find(|c| t.column(c).is_none())
        .unwrap_or_else(|| base.to_string())
}

/// The table with a bucket column added, as the derivation would add it
/// (after the last partition column), without re-deriving the project.
pub(crate) fn with_bucket(t: &Table, source: &str, period: Period) -> Table {
    let mut t2 = t.clone();
    let at = t2
        .columns
        .iter()
        .rposition(|c| c.role == Role::Partition)
        .map_or(0, |i| i + 1);
    let ty = if period == Period::Hour {
        Native::Timestamp
    } else {
        Native::Date
    };
    t2.columns.insert(
        at,
        Column {
            name: extra_name(t, period.name()).into(),
            ty: CqlType::Native(ty),
            role: Role::Partition,
            rule: Rule::Bucket,
            why: None,
            query: t.origin.clone(),
            source: Source::Bucket {
                source: source.to_string(),
                period,
            },
        },
    );
    t2
}

/// The calendar part a query over the table's rows searches the time in
/// column `source` by (`day of ts`), with that query's id: the table's own
/// queries first, then the others in project order. A bucket of that
/// period is the one the queries themselves name.
pub(crate) fn named_period(graph: &Graph, t: &Table, source: &str) -> Option<(Period, String)> {
    let Source::Attr { reached, .. } = &t.column(source)?.source else {
        return None;
    };
    let root = graph.node(&t.rows)?;
    let own = t.queries.iter().filter_map(|q| graph.query(q));
    // Few queries name calendar parts: test that first, the scan runs per
    // finding over every query.
    let others = graph
        .project
        .queries
        .iter()
        .map(|q| &**q)
        .filter(|q| !q.calendar.is_empty() && !t.queries.iter().any(|x| x.as_str() == q.id));
    own.chain(others)
        .filter(|q| !q.calendar.is_empty() && graph.node(&q.rows) == Some(root))
        .find_map(|q| {
            q.calendar.iter().find_map(|part| {
                let r = graph.resolve(root, &part.attr).ok().map(normalize)?;
                (r == *reached).then(|| (part.period, q.id.clone()))
            })
        })
}

/// The bucket to propose for a table: the period its queries name (see
/// [`named_period`]) when it keeps the worst case under the thresholds,
/// with the query naming it; else the coarsest that does.
pub(crate) fn proposed_bucket(
    graph: &Graph,
    est: &Estimator,
    t: &Table,
    th: &Thresholds,
) -> Option<(Period, Option<String>)> {
    let source = bucket_source(t)?;
    if let Some((period, query)) = named_period(graph, t, &source) {
        let mut base = t.clone();
        base.columns
            .retain(|c| !matches!(c.source, Source::Bucket { .. }));
        if fits(&est.table(&with_bucket(&base, &source, period)), th) {
            return Some((period, Some(query)));
        }
    }
    choose_bucket_for(est, t, th).map(|p| (p, None))
}

/// The coarsest bucket (year down to hour) that keeps the worst case of a
/// table under the thresholds; existing buckets are set aside first, so
/// the answer replaces them. `None` when the table has no time column or
/// even an hour is too much.
pub(crate) fn choose_bucket_for(est: &Estimator, t: &Table, th: &Thresholds) -> Option<Period> {
    let source = bucket_source(t)?;
    // A date has no hours.
    let date_only = t
        .column(&source)
        .is_some_and(|c| c.ty.native() == Some(Native::Date));
    let mut base = t.clone();
    base.columns
        .retain(|c| !matches!(c.source, Source::Bucket { .. }));
    Period::ALL
        .iter()
        .rev()
        .copied()
        .filter(|&p| !(date_only && p == Period::Hour))
        .find(|&p| fits(&est.table(&with_bucket(&base, &source, p)), th))
}
