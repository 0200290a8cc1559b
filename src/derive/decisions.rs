//! The designer's decisions on a query's table: pinned keys, names,
//! buckets, shards, merges and the queries served by another table.

use super::columns::{permute, push_up_relationships};
use super::types::{Column, Role, Rule, Source, Table};
use crate::model::load::Problem;
use crate::model::resolve::{Graph, Reached};
use crate::model::{CqlType, Decision, ExtraKind, Native, Period, Project, Query};
use rustc_hash::FxHashMap as HashMap;

/// Each query's decision, by query id.
pub(crate) fn decisions_by_query(project: &Project) -> HashMap<&str, &Decision> {
    project
        .decisions
        .iter()
        .map(|d| (d.query.as_str(), d))
        .collect()
}

/// The queries that get a table of their own (no `served_by` decision),
/// with their index in the project.
pub(crate) fn own_queries<'p>(
    project: &'p Project,
    decisions: &HashMap<&str, &Decision>,
) -> Vec<(usize, &'p Query)> {
    project
        .queries
        .iter()
        .enumerate()
        .filter(|(_, q)| {
            decisions
                .get(q.id.as_str())
                .and_then(|d| d.served_by.as_ref())
                .is_none()
        })
        .map(|(i, q)| (i, &**q))
        .collect()
}

pub(crate) fn apply_decision(
    graph: &Graph,
    q: &Query,
    d: &Decision,
    t: &mut Table,
    ids: &mut Vec<Option<Reached>>,
    problems: &mut Vec<Problem>,
) {
    let path = format!("decisions({})", q.id);

    // Buckets and shards first, so a candidate key can name them.
    for x in &d.partition_extra {
        if t.column(&x.column).is_some() {
            problems.push(Problem {
                path: format!("{path}.partition_extra"),
                message: format!(
                    "column \"{}\" already exists in the table of {}",
                    x.column, q.id
                ),
            });
            continue;
        }
        let (ty, rule, source) = match &x.kind {
            ExtraKind::Bucket { source, period } => {
                let Some(src) = t.column(source) else {
                    problems.push(missing(&path, &q.id, "partition_extra.source", source, t));
                    continue;
                };
                if !src.ty.is_temporal() {
                    problems.push(Problem {
                        path: format!("{path}.partition_extra"),
                        message: format!("bucket source \"{source}\" is not a date or time column"),
                    });
                }
                let ty = if *period == Period::Hour {
                    Native::Timestamp
                } else {
                    Native::Date
                };
                (
                    CqlType::Native(ty),
                    Rule::Bucket,
                    Source::Bucket {
                        source: source.clone(),
                        period: *period,
                    },
                )
            }
            ExtraKind::Shard { count } => (
                CqlType::Native(Native::Int),
                Rule::Shard,
                Source::Shard { count: *count },
            ),
        };
        // A time bucket bounds the partition the constant one stood in for:
        // it replaces it rather than joining it.
        if matches!(x.kind, ExtraKind::Bucket { .. }) {
            if let Some(i) = t
                .columns
                .iter()
                .position(|c| c.rule == Rule::WholeTable && c.source == Source::Constant)
            {
                t.columns.remove(i);
                ids.remove(i);
            }
        }
        // After the last partition column, before clustering.
        let at = t
            .columns
            .iter()
            .rposition(|c| c.role == Role::Partition)
            .map_or(0, |i| i + 1);
        t.columns.insert(
            at,
            Column {
                name: x.column.as_str().into(),
                ty,
                role: Role::Partition,
                rule,
                why: None,
                query: t.origin.clone(),
                source,
            },
        );
        ids.insert(at, None);
    }

    // A hand-written candidate key replaces the derived one.
    if let Some(name) = &d.use_candidate {
        if let Some(c) = d.candidates.iter().find(|c| &c.name == name) {
            let mut ok = true;
            for col in c
                .partition
                .iter()
                .chain(c.clustering.iter().map(|o| &o.attr))
            {
                if t.column(col).is_none() {
                    problems.push(missing(&path, &q.id, "candidates", col, t));
                    ok = false;
                }
            }
            if ok {
                // A bucket or shard the candidate leaves out stays in the
                // partition key after the candidate's columns (a query's
                // calendar part too: the query binds it).
                for col in &mut t.columns {
                    if !matches!(col.rule, Rule::Bucket | Rule::Shard | Rule::Calendar) {
                        col.role = Role::Regular;
                    }
                }
                for p in &c.partition {
                    if let Some(col) = t.columns.iter_mut().find(|x| &x.name == p) {
                        col.role = Role::Partition;
                        col.rule = Rule::Candidate;
                    }
                }
                for o in &c.clustering {
                    if let Some(col) = t.columns.iter_mut().find(|x| x.name == o.attr) {
                        if col.role == Role::Regular {
                            col.role = Role::Clustering(o.dir);
                            col.rule = Rule::Candidate;
                        }
                    }
                }
                // Key columns in the candidate's order.
                let mut order: Vec<usize> = Vec::new();
                for p in c
                    .partition
                    .iter()
                    .chain(c.clustering.iter().map(|o| &o.attr))
                {
                    if let Some(i) = t.columns.iter().position(|x| &x.name == p) {
                        if !order.contains(&i) {
                            order.push(i);
                        }
                    }
                }
                for i in 0..t.columns.len() {
                    if !order.contains(&i) {
                        order.push(i);
                    }
                }
                permute(t, ids, &order);
                t.candidate = Some(c.name.clone());
                for ix in &c.indexes {
                    if !t.indexes.contains(ix) {
                        t.indexes.push(ix.clone());
                    }
                }
            }
        }
    }

    for col in &d.promote {
        match t.columns.iter_mut().find(|c| &c.name == col) {
            Some(c) if matches!(c.role, Role::Clustering(_)) => c.role = Role::Partition,
            Some(_) => {}
            None => problems.push(missing(&path, &q.id, "promote", col, t)),
        }
    }

    for col in &d.flip {
        match t.columns.iter_mut().find(|c| &c.name == col) {
            Some(c) => {
                if let Role::Clustering(dir) = c.role {
                    c.role = Role::Clustering(dir.flip());
                }
            }
            None => problems.push(missing(&path, &q.id, "flip", col, t)),
        }
    }

    for col in &d.timeuuid {
        match t.columns.iter_mut().find(|c| &c.name == col) {
            Some(c) => {
                if c.ty.native() == Some(Native::Timestamp) {
                    c.ty = CqlType::Native(Native::Timeuuid);
                }
            }
            None => problems.push(missing(&path, &q.id, "timeuuid", col, t)),
        }
    }

    for col in &d.indexes {
        if t.column(col).is_none() {
            problems.push(missing(&path, &q.id, "indexes", col, t));
        } else if !t.indexes.contains(col) {
            t.indexes.push(col.clone());
        }
    }

    for rel in &d.collections {
        if graph.rel_index(rel).is_none() {
            problems.push(Problem {
                path: format!("{path}.collections"),
                message: format!("no relationship \"{rel}\""),
            });
        }
    }
    if !d.collections.is_empty() {
        push_up_relationships(graph, &d.collections, t, ids);
    }
}

pub(crate) fn missing(path: &str, query: &str, field: &str, col: &str, t: &Table) -> Problem {
    let hint = crate::model::naming::did_you_mean(col, t.columns.iter().map(|c| c.name.as_str()));
    Problem {
        path: format!("{path}.{field}"),
        message: format!("no column \"{col}\" in the table of {query}{hint}"),
    }
}
