//! Refinements: one-step changes to a table's decision that fix what the
//! review finds (seed 000 "Review & Tune"). Pure: `apply` returns a new
//! project and the shells keep the old one for undo; `preview` shows the
//! effect first; every refinement has an `inverse`.

pub mod menu;

use crate::analysis::{analyze, Analysis};
use crate::derive::cost::{cost, DesignCost};
use crate::derive::estimate::{Estimate, Estimator};
use crate::derive::{LogicalModel, Role, Rule, Source, Table};
use crate::model::resolve::{Edge, Graph};
use crate::model::{ExtraColumn, ExtraKind, Native, Period, Project};
use crate::review::diagnose::{choose_bucket_for, Diagnostic, Refinement};
use serde::Serialize;

/// What a refinement would do, computed before it is applied.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Preview {
    pub refinement: Refinement,
    /// The table the refinement shapes, before and after.
    pub table: Option<String>,
    pub before: Option<Estimate>,
    pub after: Option<Estimate>,
    /// Partitions a read touches, before and after (time ranges across
    /// buckets, all shards of a sharded key).
    pub reads: Vec<Reads>,
    /// The design's cost under the stated workload, before and after
    /// (none when the project states no workload).
    pub cost: Option<(DesignCost, DesignCost)>,
    /// Diagnostics (by rule and subject) that go away, and that appear.
    pub resolved: Vec<Diagnostic>,
    pub introduced: Vec<Diagnostic>,
    /// Why the refinement cannot be applied, if it cannot.
    pub error: Option<String>,
    /// The queries the table serves before the refinement: a refinement
    /// of a shared table is a change for all of them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub serves: Vec<String>,
    /// Queries the refined table no longer serves, each with the table it
    /// moves to and why, so the split is plain before Enter.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub leaving: Vec<Leaving>,
}

/// A query a refinement moves off the table it shapes.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Leaving {
    pub query: String,
    /// The table that serves it after the refinement.
    pub to: String,
    pub why: String,
}

/// The queries `before`'s table served that `after`'s no longer does.
fn leaving(before: &Table, after_table: &Table, after: &Analysis) -> Vec<Leaving> {
    let key: Vec<String> = after_table
        .partition_key()
        .map(|c| c.name.to_string())
        .collect();
    before
        .queries
        .iter()
        .filter(|q| !after_table.queries.iter().any(|a| a == *q))
        .map(|q| {
            let to = after
                .model
                .tables
                .iter()
                .find(|t| t.queries.iter().any(|a| a == q))
                .map_or_else(|| "no table".to_string(), |t| t.name.to_string());
            Leaving {
                query: q.to_string(),
                why: format!(
                    "{q} does not search by the new partition key ({}): it moves to table {to}",
                    key.join(", ")
                ),
                to,
            }
        })
        .collect()
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Reads {
    pub query: String,
    /// `a range of one week`, `every read`.
    pub what: String,
    pub before: f64,
    pub after: f64,
}

/// The refinement that undoes `r`.
pub fn inverse(r: &Refinement) -> Refinement {
    use Refinement::{
        AddBucket, AddIndex, AddShard, Collection, Demote, DropIndex, NoTtl, PlaceEquality,
        Promote, RemoveExtra, ShareTable, Timeuuid, Ttl, Uncollection, UndoTimeuuid,
        UnplaceEquality, UnshareTable, UseCandidate, UseDerivedKey,
    };
    match r.clone() {
        AddBucket { query, column, .. } | AddShard { query, column, .. } => {
            RemoveExtra { query, column }
        }
        RemoveExtra { query, column } => RemoveExtra { query, column },
        Promote { query, column } => Demote { query, column },
        Demote { query, column } => Promote { query, column },
        Timeuuid { query, column } => UndoTimeuuid { query, column },
        UndoTimeuuid { query, column } => Timeuuid { query, column },
        Collection {
            query,
            relationship,
        } => Uncollection {
            query,
            relationship,
        },
        Uncollection {
            query,
            relationship,
        } => Collection {
            query,
            relationship,
        },
        DropIndex { query, column } => AddIndex { query, column },
        AddIndex { query, column } => DropIndex { query, column },
        UseDerivedKey { query, candidate } => UseCandidate { query, candidate },
        UseCandidate { query, candidate } => UseDerivedKey { query, candidate },
        Ttl { query, entity } => NoTtl { query, entity },
        NoTtl { query, entity } => Ttl { query, entity },
        PlaceEquality {
            query,
            column,
            partition,
        } => UnplaceEquality {
            query,
            column,
            partition,
        },
        UnplaceEquality {
            query,
            column,
            partition,
        } => PlaceEquality {
            query,
            column,
            partition,
        },
        ShareTable { query, with } => UnshareTable { query, with },
        UnshareTable { query, with } => ShareTable { query, with },
    }
}

/// The table a query's decision shapes, in a derived model.
fn own_table<'a>(model: &'a LogicalModel, query: &str) -> Option<(usize, &'a Table)> {
    model
        .tables
        .iter()
        .enumerate()
        .find(|(_, t)| t.origin == query)
        .map(|(i, t)| (i, &**t))
}

/// The project with the refinement's decision change made. Fails, leaving
/// nothing changed, when the refinement names a missing query, column or
/// relationship, does not apply to the column's current role, or makes the
/// derivation report a new problem.
///
/// Derives the project before and after; the workbench, which has the
/// analysis before and works out the one after off its input thread,
/// calls [`change`] and [`refusal`] itself.
pub fn apply(project: &Project, r: &Refinement) -> Result<Project, String> {
    let before = crate::derive::derive(project);
    let next = change(project, &before, r)?;
    match refusal(&before, &crate::derive::derive(&next), r) {
        Some(why) => Err(why),
        None => Ok(next),
    }
}

/// The project with the refinement's decision change made, read off
/// `before` (the derived model of `project`): nothing is derived, so what
/// the change does to the derivation is [`refusal`]'s to judge.
pub fn change(project: &Project, before: &LogicalModel, r: &Refinement) -> Result<Project, String> {
    let q = r.query();
    if project.query(q).is_none() {
        return Err(format!("no query \"{q}\""));
    }
    if let Refinement::ShareTable { with, .. } | Refinement::UnshareTable { with, .. } = r {
        return share(project, r, q, with);
    }
    if let Some(by) = project.decision(q).and_then(|d| d.served_by.as_deref()) {
        return Err(format!(
            "{q} is served by {by}'s table; refine {by} instead"
        ));
    }
    // The TTL belongs to the rows' entity, not to a table's decision.
    if let Refinement::Ttl { entity, .. } | Refinement::NoTtl { entity, .. } = r {
        let on = matches!(r, Refinement::Ttl { .. });
        let mut next = project.clone();
        let Some(e) = next.entities.iter_mut().find(|e| &e.name == entity) else {
            return Err(format!("no entity \"{entity}\""));
        };
        if e.ttl == on {
            return Err(format!(
                "{entity} {} a TTL already",
                if on { "has" } else { "has no" }
            ));
        }
        if on && e.retention_days.is_none() {
            return Err(format!("{entity} states no retention_days to expire after"));
        }
        e.ttl = on;
        return Ok(next);
    }
    let table = own_table(before, q).map(|(_, t)| t);
    let col = |name: &str| table.and_then(|t| t.column(name));
    let mut next = project.clone();
    let d = next.decision_mut(q);
    let fresh = |name: &str| -> Result<(), String> {
        if col(name).is_some() {
            Err(format!("the table of {q} already has a column \"{name}\""))
        } else {
            Ok(())
        }
    };
    match r {
        Refinement::AddBucket {
            column,
            source,
            period,
            ..
        } => {
            match col(source) {
                Some(c) if c.ty.is_temporal() => {}
                Some(_) => return Err(format!("\"{source}\" is not a date or time column")),
                None => return Err(format!("no column \"{source}\" in the table of {q}")),
            }
            // A new period for an existing bucket replaces it in place.
            if let Some(x) = d
                .partition_extra
                .iter_mut()
                .find(|x| matches!(x.kind, ExtraKind::Bucket { .. }))
            {
                if &x.column != column {
                    fresh(column)?;
                }
                x.column.clone_from(column);
                x.kind = ExtraKind::Bucket {
                    source: source.clone(),
                    period: *period,
                };
            } else {
                fresh(column)?;
                d.partition_extra.push(ExtraColumn {
                    column: column.clone(),
                    kind: ExtraKind::Bucket {
                        source: source.clone(),
                        period: *period,
                    },
                });
            }
        }
        Refinement::AddShard { column, count, .. } => {
            if *count == 0 {
                return Err("a shard count must be at least 1".into());
            }
            if let Some(x) = d
                .partition_extra
                .iter_mut()
                .find(|x| matches!(x.kind, ExtraKind::Shard { .. }))
            {
                if &x.column != column {
                    fresh(column)?;
                }
                x.column.clone_from(column);
                x.kind = ExtraKind::Shard { count: *count };
            } else {
                fresh(column)?;
                d.partition_extra.push(ExtraColumn {
                    column: column.clone(),
                    kind: ExtraKind::Shard { count: *count },
                });
            }
        }
        Refinement::RemoveExtra { column, .. } => {
            let n = d.partition_extra.len();
            d.partition_extra.retain(|x| &x.column != column);
            if d.partition_extra.len() == n {
                return Err(format!("{q} has no bucket or shard \"{column}\""));
            }
        }
        Refinement::Promote { column, .. } => match col(column).map(|c| c.role) {
            Some(Role::Clustering(_)) => d.promote.push(column.clone()),
            Some(_) => return Err(format!("\"{column}\" is not a clustering column")),
            None => return Err(format!("no column \"{column}\" in the table of {q}")),
        },
        Refinement::Demote { column, .. } => remove(&mut d.promote, column, q, "promoted column")?,
        Refinement::Timeuuid { column, .. } => match col(column).map(|c| c.ty.native()) {
            Some(Some(Native::Timestamp)) if !d.timeuuid.contains(column) => {
                d.timeuuid.push(column.clone());
            }
            Some(_) => return Err(format!("\"{column}\" is not a timestamp column")),
            None => return Err(format!("no column \"{column}\" in the table of {q}")),
        },
        Refinement::UndoTimeuuid { column, .. } => {
            remove(&mut d.timeuuid, column, q, "timeuuid column")?;
        }
        Refinement::Collection { relationship, .. } => {
            if project.relationship(relationship).is_none() {
                return Err(format!("no relationship \"{relationship}\""));
            }
            if d.collections.contains(relationship) {
                return Err(format!(
                    "{relationship} is already a collection in the table of {q}"
                ));
            }
            d.collections.push(relationship.clone());
        }
        Refinement::Uncollection { relationship, .. } => {
            remove(&mut d.collections, relationship, q, "collection of")?;
        }
        Refinement::DropIndex { column, .. } => remove(&mut d.indexes, column, q, "index on")?,
        Refinement::AddIndex { column, .. } => {
            if col(column).is_none() {
                return Err(format!("no column \"{column}\" in the table of {q}"));
            }
            if d.indexes.contains(column) {
                return Err(format!("{column} is already indexed in the table of {q}"));
            }
            d.indexes.push(column.clone());
        }
        Refinement::UseDerivedKey { candidate, .. } => {
            if d.use_candidate.as_deref() != Some(candidate.as_str()) {
                return Err(format!("{q}'s table does not use candidate {candidate}"));
            }
            d.use_candidate = None;
        }
        Refinement::UseCandidate { candidate, .. } => {
            if !d.candidates.iter().any(|c| &c.name == candidate) {
                return Err(format!("{q} has no candidate key \"{candidate}\""));
            }
            d.use_candidate = Some(candidate.clone());
        }
        Refinement::PlaceEquality {
            column, partition, ..
        } => {
            let Some(c) = col(column)
                .filter(|c| matches!(c.rule, Rule::Equality | Rule::Filter | Rule::Constant))
            else {
                return Err(format!("\"{column}\" is no equality column of {q}'s table"));
            };
            if d.equality_partition.contains(column) || d.equality_clustering.contains(column) {
                return Err(format!("{column} is placed by a decision already"));
            }
            match (*partition, c.role) {
                (true, Role::Partition) => {
                    return Err(format!("{column} is in the partition key already"))
                }
                (false, Role::Clustering(_)) => {
                    return Err(format!("{column} is a clustering column already"))
                }
                (true, _) => d.equality_partition.push(column.clone()),
                (false, _) => d.equality_clustering.push(column.clone()),
            }
        }
        Refinement::UnplaceEquality {
            column, partition, ..
        } => {
            let list = if *partition {
                &mut d.equality_partition
            } else {
                &mut d.equality_clustering
            };
            remove(list, column, q, "placed equality column")?;
        }
        // Handled above: they change the entity or the sharing, not the
        // decision's table shape.
        Refinement::Ttl { .. }
        | Refinement::NoTtl { .. }
        | Refinement::ShareTable { .. }
        | Refinement::UnshareTable { .. } => {}
    }
    next.prune_decisions();
    Ok(next)
}

/// Why the derivation of the changed project (`after`, against `before`)
/// refuses the refinement: problems it did not have, or a shared table
/// that cannot answer the query directly. `None` when it stands.
pub fn refusal(before: &LogicalModel, after: &LogicalModel, r: &Refinement) -> Option<String> {
    let new: Vec<String> = after
        .problems
        .iter()
        .filter(|p| !before.problems.contains(p))
        .map(|p| p.message.clone())
        .collect();
    if !new.is_empty() {
        return Some(new.join("; "));
    }
    if let Refinement::ShareTable { query, with } = r {
        if !after.plan(query).is_some_and(|p| p.access.is_direct()) {
            return Some(format!("{with}'s table cannot answer {query} directly"));
        }
    }
    None
}

/// Serves a query from another query's table (`served_by`), or back.
fn share(project: &Project, r: &Refinement, q: &str, with: &str) -> Result<Project, String> {
    if project.query(with).is_none() {
        return Err(format!("no query \"{with}\""));
    }
    if q == with {
        return Err(format!("{q} cannot be served by its own table"));
    }
    let mut next = project.clone();
    let d = next.decision_mut(q);
    if let Refinement::ShareTable { .. } = r {
        if let Some(by) = &d.served_by {
            return Err(format!("{q} is served by {by}'s table already"));
        }
        d.served_by = Some(with.to_string());
    } else {
        if d.served_by.as_deref() != Some(with) {
            return Err(format!("{q} is not served by {with}'s table"));
        }
        d.served_by = None;
    }
    next.prune_decisions();
    Ok(next)
}

fn remove(list: &mut Vec<String>, item: &str, q: &str, what: &str) -> Result<(), String> {
    let n = list.len();
    list.retain(|x| x != item);
    if list.len() == n {
        Err(format!("{q} has no {what} \"{item}\""))
    } else {
        Ok(())
    }
}

/// Estimates, reads and diagnostics before and after a refinement
/// (analyses the project before and after: see [`compare`]).
pub fn preview(project: &Project, r: &Refinement) -> Preview {
    let before = analyze(project);
    match change(project, &before.model, r) {
        Ok(next) => compare(project, &before, r, &analyze(&next)),
        Err(e) => refused(&before, r, e),
    }
}

/// The table a refinement shapes: sharing shapes the serving table, not
/// the query's own.
fn shaped(r: &Refinement) -> &str {
    match r {
        Refinement::ShareTable { with, .. } | Refinement::UnshareTable { with, .. } => with,
        _ => r.query(),
    }
}

/// A preview with the table and its estimate before the change, and
/// nothing after it yet.
pub fn unfinished(before: &Analysis, r: &Refinement) -> Preview {
    let (table, est_before) = match own_table(&before.model, shaped(r)) {
        Some((i, t)) => (Some(t.name.to_string()), before.estimates.get(i).cloned()),
        None => (None, None),
    };
    let serves: Vec<String> = own_table(&before.model, shaped(r))
        .map(|(_, t)| t.queries.iter().map(ToString::to_string).collect())
        .unwrap_or_default();
    Preview {
        refinement: r.clone(),
        table,
        before: est_before,
        after: None,
        reads: vec![],
        cost: None,
        resolved: vec![],
        introduced: vec![],
        error: None,
        serves,
        leaving: vec![],
    }
}

/// The preview of a refinement [`change`] refused with `error`.
pub fn refused(before: &Analysis, r: &Refinement, error: String) -> Preview {
    Preview {
        error: Some(error),
        ..unfinished(before, r)
    }
}

/// The preview of a refinement from the analyses of `project` (`before`)
/// and of the project [`change`] made of it (`after`).
pub fn compare(project: &Project, before: &Analysis, r: &Refinement, after: &Analysis) -> Preview {
    let mut p = unfinished(before, r);
    if let Some(why) = refusal(&before.model, &after.model, r) {
        p.error = Some(why);
        return p;
    }
    if let Some((i, t)) = own_table(&after.model, shaped(r)) {
        p.after = after.estimates.get(i).cloned();
        p.reads = reads(project, before, after, t);
        if let Some((_, old)) = own_table(&before.model, shaped(r)) {
            p.leaving = leaving(old, t, after);
        }
    }
    // Shown, not solved: the designer weighs the trade.
    if crate::model::workload::states_workload(project) {
        let of = |a: &Analysis| cost(project, &a.model, &a.estimates).design;
        p.cost = Some((of(before), of(after)));
    }
    // By rule and subject, looked up in a set: reviews of large projects
    // have thousands of findings.
    let key = |d: &Diagnostic| (d.rule, d.subject.clone());
    let keys =
        |a: &Analysis| -> std::collections::HashSet<_> { a.diagnostics.iter().map(key).collect() };
    let (had, has) = (keys(before), keys(after));
    p.resolved = before
        .diagnostics
        .iter()
        .filter(|d| !has.contains(&key(d)))
        .cloned()
        .collect();
    p.introduced = after
        .diagnostics
        .iter()
        .filter(|a| !had.contains(&key(a)))
        .cloned()
        .collect();
    p
}

/// Partitions one read touches: every shard, and for a query that reads a
/// slice of time, every bucket the slice overlaps (unaligned, at worst).
fn reads(project: &Project, before: &Analysis, after: &Analysis, t: &Table) -> Vec<Reads> {
    let factor = |tab: Option<&Table>, window: Option<Period>, span: f64| -> f64 {
        let Some(tab) = tab else { return 1.0 };
        let mut n = 1.0;
        for c in tab.partition_key() {
            match &c.source {
                Source::Shard { count } => n *= f64::from(*count),
                Source::Bucket { period, .. } => {
                    if let Some(w) = window {
                        let buckets = (span / period.days()).max(1.0);
                        n *= ((w.days() / period.days()).ceil() + 1.0).min(buckets.ceil());
                    }
                }
                _ => {}
            }
        }
        n
    };
    let old = before
        .model
        .tables
        .iter()
        .find(|x| x.origin == t.origin)
        .map(|x| &**x);
    let span = after
        .model
        .tables
        .iter()
        .position(|x| x.origin == t.origin)
        .and_then(|i| after.estimates.get(i))
        .map_or(project.thresholds.horizon_days, |e| e.span_days);
    let bucket = t.partition_key().find_map(|c| match &c.source {
        Source::Bucket { period, .. } => Some(*period),
        _ => None,
    });
    let mut out = Vec::new();
    for qid in &t.queries {
        let Some(q) = project.query(qid) else {
            continue;
        };
        // A read by a calendar part asks the buckets its period overlaps.
        if !q.calendar.is_empty() {
            for part in &q.calendar {
                let by = |tab: Option<&Table>| {
                    tab.map_or(1.0, |tab| {
                        tab.partition_key()
                            .map(|c| match &c.source {
                                Source::Shard { count } => f64::from(*count),
                                Source::Bucket { period, .. } => {
                                    calendar_reads(part.period, *period)
                                }
                                _ => 1.0,
                            })
                            .product()
                    })
                };
                out.push(Reads {
                    query: qid.to_string(),
                    what: format!("a read of one {}", part.period.name()),
                    before: by(old),
                    after: by(Some(t)),
                });
            }
            continue;
        }
        let slices = q.range.is_some() || !q.order.is_empty();
        match bucket {
            Some(_) if slices => {
                for w in Period::ALL {
                    out.push(Reads {
                        query: qid.to_string(),
                        what: format!("a range of one {}", w.name()),
                        before: factor(old, Some(w), span),
                        after: factor(Some(t), Some(w), span),
                    });
                }
            }
            _ => {
                let (b, a) = (factor(old, None, span), factor(Some(t), None, span));
                if (a - b).abs() > f64::EPSILON * a.abs().max(b.abs()) {
                    out.push(Reads {
                        query: qid.to_string(),
                        what: "every read".into(),
                        before: b,
                        after: a,
                    });
                }
            }
        }
    }
    out
}

/// Buckets of `bucket` one calendar `part` overlaps at most: one when the
/// part lies within a bucket (a day in a day, week, month or year bucket),
/// else as many as the longest part holds (31 days in a month, 366 in a
/// year, 744 hours in a month). Weeks cross months and years: a week may
/// span two month buckets, a month six week buckets.
pub fn calendar_reads(part: Period, bucket: Period) -> f64 {
    use Period::{Day, Hour, Month, Week, Year};
    // In hours, so the quotients are exact.
    let longest = |p: Period| -> f64 {
        match p {
            Hour => 1.0,
            Day => 24.0,
            Week => 168.0,
            Month => 744.0,
            Year => 8784.0,
        }
    };
    let crosses = matches!((part, bucket), (Week, Month | Year) | (Month | Year, Week));
    match (part, bucket) {
        _ if bucket.days() >= part.days() => {
            if crosses {
                2.0
            } else {
                1.0
            }
        }
        (Year, Month) => 12.0,
        _ if crosses => (longest(part) / longest(bucket)).ceil() + 1.0,
        _ => (longest(part) / longest(bucket)).ceil(),
    }
}

/// The coarsest bucket (year, month, week, day, hour) that keeps the worst
/// case of the query's table under the project's thresholds; `None` when
/// the table has no time column or even an hour is too much.
pub fn choose_bucket(project: &Project, query: &str) -> Option<Period> {
    choose_bucket_in(project, &crate::derive::derive(project), query)
}

/// [`choose_bucket`] in the derived model of `project`.
pub fn choose_bucket_in(project: &Project, model: &LogicalModel, query: &str) -> Option<Period> {
    let t = model.table_of(query)?;
    let graph = Graph::new(project);
    let est = Estimator::new(&graph);
    choose_bucket_for(&est, t, &project.thresholds)
}

/// Every refinement that applies to the table of a query now, for menus:
/// the chosen bucket, a shard, promotions, timeuuids, collections, and the
/// inverses of what its decision already says.
pub fn options(project: &Project, query: &str) -> Vec<Refinement> {
    options_in(project, &crate::derive::derive(project), query)
}

/// [`options`] in the derived model of `project`.
pub fn options_in(project: &Project, model: &LogicalModel, query: &str) -> Vec<Refinement> {
    let Some((_, t)) = own_table(model, query) else {
        return vec![];
    };
    let q = t.origin.clone();
    let mut out = Vec::new();
    if let Some(e) = project
        .entity(&t.rows)
        .filter(|e| e.retention_days.is_some())
    {
        let entity = e.name.clone();
        out.push(if e.ttl {
            Refinement::NoTtl {
                query: q.clone(),
                entity,
            }
        } else {
            Refinement::Ttl {
                query: q.clone(),
                entity,
            }
        });
    }
    if let Some(source) = crate::review::diagnose::bucket_source(t) {
        let graph = Graph::new(project);
        let est = Estimator::new(&graph);
        // The period a query names (`day of ts`) when it fits, else the
        // coarsest that does.
        let period = crate::review::diagnose::proposed_bucket(&graph, &est, t, &project.thresholds)
            .map_or(Period::Day, |(p, _)| p);
        out.push(Refinement::AddBucket {
            query: q.clone(),
            column: crate::review::diagnose::partition_extra_name(t, period.name()),
            source,
            period,
        });
    }
    if !t
        .partition_key()
        .any(|c| matches!(c.source, Source::Shard { .. }))
    {
        out.push(Refinement::AddShard {
            query: q.clone(),
            column: crate::review::diagnose::partition_extra_name(t, "shard"),
            count: crate::review::diagnose::DEFAULT_SHARDS,
        });
    }
    let d = project.decision(&q);
    // The other placement of each equality column, one key away.
    let forced = |c: &str| {
        d.is_some_and(|d| {
            d.equality_partition.iter().any(|x| x == c)
                || d.equality_clustering.iter().any(|x| x == c)
        })
    };
    let partition_equalities = t
        .partition_key()
        .filter(|c| matches!(c.rule, Rule::Equality | Rule::Constant))
        .count();
    for c in &t.columns {
        let searched = matches!(c.rule, Rule::Equality | Rule::Filter | Rule::Constant);
        if !searched || c.query != q || forced(&c.name) {
            continue;
        }
        let in_partition = c.role == Role::Partition;
        // The partition key keeps at least one search attribute.
        if in_partition && partition_equalities < 2 {
            continue;
        }
        out.push(Refinement::PlaceEquality {
            query: q.clone(),
            column: c.name.to_string(),
            partition: !in_partition,
        });
    }
    for c in &t.columns {
        // A filter column moves by the placement above.
        if matches!(c.role, Role::Clustering(_)) && !matches!(c.rule, Rule::Filter | Rule::Constant)
        {
            out.push(Refinement::Promote {
                query: q.clone(),
                column: c.name.to_string(),
            });
        }
        if c.ty.native() == Some(Native::Timestamp) {
            out.push(Refinement::Timeuuid {
                query: q.clone(),
                column: c.name.to_string(),
            });
        }
    }
    // Relationships whose many side the table's rows cluster by.
    let graph = Graph::new(project);
    let mut rels: Vec<String> = Vec::new();
    for c in t.columns.iter().filter(|c| c.role != Role::Partition) {
        if let Source::Attr { reached, .. } = &c.source {
            for e in &reached.path {
                if let Edge::Enter(r, _) = e {
                    let name = graph.rel(*r).name.clone();
                    if graph.fanout(*e).many && !rels.contains(&name) {
                        rels.push(name);
                    }
                }
            }
        }
    }
    for rel in rels {
        out.push(Refinement::Collection {
            query: q.clone(),
            relationship: rel,
        });
    }
    // Sharing: another table that would serve this query with a few more
    // columns, and the queries this table serves by decision.
    let graph_hints = crate::derive::share::merge_hints(&Graph::new(project), model);
    for h in graph_hints.into_iter().filter(|h| h.query == q) {
        out.push(Refinement::ShareTable {
            query: h.query,
            with: h.with,
        });
    }
    for other in &t.queries {
        if project
            .decision(other)
            .is_some_and(|x| x.served_by.as_deref() == Some(q.as_str()))
        {
            out.push(Refinement::UnshareTable {
                query: other.clone(),
                with: q.to_string(),
            });
        }
    }
    if let Some(d) = d {
        for c in &d.equality_partition {
            out.push(Refinement::UnplaceEquality {
                query: q.clone(),
                column: c.clone(),
                partition: true,
            });
        }
        for c in &d.equality_clustering {
            out.push(Refinement::UnplaceEquality {
                query: q.clone(),
                column: c.clone(),
                partition: false,
            });
        }
        for x in &d.partition_extra {
            out.push(Refinement::RemoveExtra {
                query: q.clone(),
                column: x.column.clone(),
            });
        }
        for c in &d.promote {
            out.push(Refinement::Demote {
                query: q.clone(),
                column: c.clone(),
            });
        }
        for c in &d.timeuuid {
            out.push(Refinement::UndoTimeuuid {
                query: q.clone(),
                column: c.clone(),
            });
        }
        for r in &d.collections {
            out.push(Refinement::Uncollection {
                query: q.clone(),
                relationship: r.clone(),
            });
        }
        for c in &d.indexes {
            out.push(Refinement::DropIndex {
                query: q.clone(),
                column: c.clone(),
            });
        }
        match &d.use_candidate {
            Some(c) => out.push(Refinement::UseDerivedKey {
                query: q.clone(),
                candidate: c.clone(),
            }),
            None => out.extend(d.candidates.iter().map(|c| Refinement::UseCandidate {
                query: q.clone(),
                candidate: c.name.clone(),
            })),
        }
    }
    out
}
