//! Step 1 of derivation, per query: the query's own table by Chebotko's
//! mapping rules (equality first, then range and order, the rows' key,
//! then what the query returns), with the designer's decisions applied.

use super::columns::{attr_column_name, attr_source, unique_column_name};
use super::draft::{signature, Built, Draft};
use super::estimate::Estimator;
use super::finish::finish;
use super::types::{Column, Role, Rule, Source, Table, Why};
use super::{naming_rules, placement, serve, summary};
use crate::model::load::Problem;
use crate::model::name::Name;
use crate::model::resolve::{encoded_by, normalize, Graph, NodeId, Reached};
use crate::model::{CqlType, Decision, Dir, Native, Period, Query};
use std::sync::Arc;

/// Step 1 of derivation for one query; `est` is a lazily made estimator
/// the caller may keep across queries of the same graph.
pub(crate) fn build_query<'g, 'p>(
    graph: &'g Graph<'p>,
    q: &Query,
    qi: usize,
    decision: Option<&Decision>,
    est: &mut Option<Estimator<'g, 'p>>,
) -> Built {
    static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let mut problems = Vec::new();
    let draft = build(graph, q, qi, decision, est, &mut problems).map(|mut d| {
        d.signature_hash =
            std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, signature(&d));
        d.serial = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Arc::new(d)
    });
    Built { draft, problems }
}

/// Builds the table of one query from the mapping rules and its decision;
/// `est` is made on first use (only equality placement needs it).
pub(crate) fn build<'g, 'p>(
    graph: &'g Graph<'p>,
    q: &Query,
    qi: usize,
    decision: Option<&Decision>,
    est: &mut Option<Estimator<'g, 'p>>,
    problems: &mut Vec<Problem>,
) -> Option<Draft> {
    let root = graph.node(&q.rows)?;
    // The problem path is built only when resolution fails: most succeed.
    let mut resolve = |path: &dyn Fn() -> String, text: &str| match graph.resolve(root, text) {
        Ok(r) => Some(normalize(r)),
        Err(m) => {
            problems.push(Problem {
                path: path(),
                message: m,
            });
            None
        }
    };
    let equality = resolve_each(
        q.equality.iter().map(String::as_str),
        &|j| format!("queries[{qi}].equality[{j}]"),
        &mut resolve,
    );
    let range = q
        .range
        .as_ref()
        .and_then(|r| resolve(&|| format!("queries[{qi}].range.attr"), &r.attr));
    // Named by the time the query ranges over, clustered by what encodes it.
    let range_named = range.clone();
    let (range, range_encoded) = serve::encoded_range(graph, range);
    // Sized by the query's list, as in `resolve_each`.
    let mut order: Vec<(Reached, Dir)> = Vec::with_capacity(q.order.len());
    order.extend(q.order.iter().enumerate().filter_map(|(j, o)| {
        resolve(&|| format!("queries[{qi}].order[{j}].attr"), &o.attr)
            .map(|r| (encoded_by(graph, r), o.dir))
    }));
    let returns = resolve_each(
        q.returns.iter().map(String::as_str),
        &|j| format!("queries[{qi}].returns[{j}]"),
        &mut resolve,
    );
    let constants = resolve_each(
        q.constants.iter().map(|k| k.attr.as_str()),
        &|j| format!("queries[{qi}].constants[{j}].attr"),
        &mut resolve,
    );
    let calendar = resolve_each(
        q.calendar.iter().map(|x| x.attr.as_str()),
        &|j| format!("queries[{qi}].calendar[{j}].attr"),
        &mut resolve,
    );
    if !q.aggregates.is_empty() {
        let window = q.window.as_ref().and_then(|w| {
            resolve(&|| format!("queries[{qi}].window.attr"), &w.attr).map(|r| (r, w.period))
        });
        let group = resolve_each(
            q.group.iter().map(String::as_str),
            &|j| format!("queries[{qi}].group[{j}]"),
            &mut resolve,
        );
        let s = summary::Summary {
            equality: &equality,
            group: &group,
            window,
            range: range.as_ref(),
            order: &order,
        };
        return Some(summary::build(
            graph,
            q,
            graph.query_name(qi),
            root,
            s,
            decision,
            problems,
        ));
    }

    // The table is built from the equality attributes in the model's order
    // (see `placement::model_order`); the query's own order stays for its
    // SELECT, which binds them as the query lists them.
    let ordered = placement::model_order(graph, root, &equality);
    let searched_eq = &ordered.equality;

    // MR5 (what still tells the rows apart, and nothing the key so far
    // already determines) is decided before any column is made, so that
    // the column list is made at its final size: tables are kept, and a
    // list grown by doubling, then reordered key-first, was copied twice.
    let mut key_so_far: Vec<Reached> =
        Vec::with_capacity(equality.len() + constants.len() + 1 + order.len());
    for r in searched_eq
        .iter()
        .chain(&constants)
        .chain(&range)
        .chain(order.iter().map(|(r, _)| r))
    {
        if !key_so_far.contains(r) {
            key_so_far.push(r.clone());
        }
    }
    let present: Vec<&Reached> = key_so_far.iter().chain(&returns).collect();
    let meets = graph.meet_paths(root, &q.meets);
    let appended: Vec<Reached> = graph
        .row_key_meeting(root, &key_so_far, &present, &meets)
        .into_iter()
        .map(normalize)
        .collect();
    // Counted without a list: what is neither in the key so far nor met
    // earlier in the same chain.
    let later = appended
        .iter()
        .chain(&returns)
        .enumerate()
        .filter(|&(i, r)| {
            !key_so_far.contains(r) && !appended.iter().chain(&returns).take(i).any(|x| x == r)
        })
        .count();
    let size = key_so_far.len() + later;

    let mut t = Table::for_query(q, graph.query_name(qi), Vec::with_capacity(size));
    let mut ids: Vec<Option<Reached>> = Vec::with_capacity(size);
    let add =
        |t: &mut Table, ids: &mut Vec<Option<Reached>>, r: &Reached, role: Role, rule: Rule| {
            if ids.iter().any(|x| x.as_ref() == Some(r)) {
                return false;
            }
            let name = attr_column_name(graph, root, r, t);
            let query = t.origin.clone();
            let source = attr_source(graph, root, r);
            t.columns.push(Column {
                name,
                ty: graph.attr(r.attr).ty.clone(),
                role,
                rule,
                why: None,
                query,
                source,
            });
            ids.push(Some(r.clone()));
            true
        };

    // MR2, MR3, MR4.
    for r in searched_eq {
        add(&mut t, &mut ids, r, Role::Partition, Rule::Equality);
    }
    // Constants follow the equality attributes; `placement` decides their
    // side like any filter's.
    for r in &constants {
        add(&mut t, &mut ids, r, Role::Partition, Rule::Constant);
    }
    if let Some(r) = &range {
        let dir = order
            .iter()
            .find(|(o, _)| o == r)
            .map(|(_, d)| *d)
            .unwrap_or_default();
        add(&mut t, &mut ids, r, Role::Clustering(dir), Rule::Range);
    }
    for (r, dir) in &order {
        add(&mut t, &mut ids, r, Role::Clustering(*dir), Rule::Order);
    }

    // MR5, decided above.
    debug_assert!(ids.iter().flatten().eq(key_so_far.iter()));
    let declared = if appended.is_empty() {
        vec![]
    } else {
        graph.grain(root, present.iter().map(|r| r.path.as_slice()))
    };
    for k in appended {
        let rule = if declared.contains(&k) {
            Rule::Key
        } else {
            Rule::Identifier
        };
        if let Some(i) = ids.iter().position(|x| x.as_ref() == Some(&k)) {
            t.columns[i].role = Role::Clustering(Dir::Asc);
            t.columns[i].rule = rule;
        } else {
            add(&mut t, &mut ids, &k, Role::Clustering(Dir::Asc), rule);
        }
    }
    // A returned time its timeuuid carries is read back from it (the
    // SELECT's `toTimestamp(id)`), not stored twice, unless it is `stored`.
    let computed = serve::Computed::of(graph, &returns, |c| {
        ids.iter().flatten().any(|x| x == c) || returns.contains(c)
    });
    for r in &returns {
        if !computed.iter().any(|k| k.attr == *r)
            && add(&mut t, &mut ids, r, Role::Regular, Rule::Returned)
        {
            if let Some(why) = met_why(graph, root, q, r) {
                if let Some(c) = t.columns.last_mut() {
                    c.why = Some(Box::new(why));
                }
            }
        }
    }
    // MR2 on a calendar part: the time it is of is kept (the application
    // computes the bucket from it), and the part is a bucket column of the
    // partition key, after the equality attributes.
    for (r, part) in calendar.iter().zip(&q.calendar) {
        add(&mut t, &mut ids, r, Role::Regular, Rule::Returned);
        let Some(i) = ids.iter().position(|x| x.as_ref() == Some(r)) else {
            continue;
        };
        let bucket = calendar_column(&t, &t.columns[i].name, part.period);
        t.columns.push(bucket);
        ids.push(None);
    }

    // Equality attributes: the partition key or leading clustering
    // columns, by the estimates of the finished table.
    let searches = range.is_some() || !order.is_empty();
    let cx = placement::Context {
        graph,
        query: q,
        root,
        decision,
        searches,
    };
    let mut trial = |tab: &Table| {
        let e = est.get_or_insert_with(|| Estimator::new(graph));
        placement::finished_estimate(&cx, e, tab, &ids)
    };
    placement::place(&cx, &ordered, &constants, &mut t, &ids, &mut trial);
    if let Some(d) = decision {
        // A forced placement must name one of the query's equality columns.
        for (field, list) in [
            ("equality_partition", &d.equality_partition),
            ("equality_clustering", &d.equality_clustering),
        ] {
            let searched = || {
                t.columns
                    .iter()
                    .filter(|c| matches!(c.rule, Rule::Equality | Rule::Filter | Rule::Constant))
                    .map(|c| c.name.as_str())
            };
            for name in list {
                if !searched().any(|c| c == name) {
                    let hint = crate::model::naming::did_you_mean(name, searched());
                    problems.push(Problem {
                        path: format!("decisions({}).{field}", q.id),
                        message: format!(
                            "\"{name}\" is no equality column of the table of {}{hint}",
                            q.id
                        ),
                    });
                }
            }
        }
    }
    let pinned = finish(
        graph, q, root, decision, searches, &mut t, &mut ids, problems,
    );
    let searched: Vec<&Reached> = searched_eq.iter().chain(&constants).collect();
    let complete = equality.len() == q.equality.len()
        && constants.len() == q.constants.len()
        && calendar.len() == q.calendar.len()
        && range.is_some() == q.range.is_some()
        && order.len() == q.order.len()
        && returns.len() == q.returns.len();
    let names = naming_rules::table_names(graph, root, &searched, range_named.as_ref(), &t)
        .into_iter()
        .map(Name::from)
        .collect();
    let resolved = complete.then(|| {
        let order = order.into_iter().map(|(r, _)| r).collect();
        std::sync::Arc::new(
            serve::Resolved::new(equality, constants, range, order, returns, calendar)
                .with_encoded_range(range_encoded)
                .with_computed(computed),
        )
    });
    Some(Draft {
        table: t,
        ids: ids.into(),
        root,
        pinned,
        names,
        resolved,
        // Rows where the query's paths meet are not every row: no other
        // query reads them from this table.
        separate: decision.is_some_and(|d| d.separate) || !q.meets.is_empty(),
        signature_hash: 0,
        serial: 0,
    })
}

/// The partition key column of a query's equality on the `period` of the
/// time held in column `time`: named after the period (`day`), a date (a
/// timestamp truncated to the hour for an hour), computed by the
/// application like a designer's bucket.
fn calendar_column(t: &Table, time: &Name, period: Period) -> Column {
    Column {
        name: unique_column_name(t, period.name().into()),
        ty: CqlType::Native(if period == Period::Hour {
            Native::Timestamp
        } else {
            Native::Date
        }),
        role: Role::Partition,
        rule: Rule::Calendar,
        why: None,
        query: t.origin.clone(),
        source: Source::Bucket {
            source: time.to_string(),
            period,
        },
    }
}

/// Each of a query's references `texts` resolved by `resolve`, the ones
/// that fail left out (`path(j)` names the j-th in its problem). Sized by
/// the query's list: a `filter_map` collect would grow it by doubling, and
/// the lists are kept with each build.
pub(crate) fn resolve_each<'t, R>(
    texts: impl ExactSizeIterator<Item = &'t str>,
    path: &dyn Fn(usize) -> String,
    resolve: &mut R,
) -> Vec<Reached>
where
    R: FnMut(&dyn Fn() -> String, &str) -> Option<Reached>,
{
    let mut out = Vec::with_capacity(texts.len());
    out.extend(
        texts
            .enumerate()
            .filter_map(|(j, text)| resolve(&|| path(j), text)),
    );
    out
}

/// Why a returned attribute adds no key column although its path leaves
/// the key's: it is on (or before) a path the query's `meets` states is
/// another way to an instance the key identifies.
fn met_why(graph: &Graph, root: NodeId, q: &Query, r: &Reached) -> Option<Why> {
    if r.path.is_empty() {
        return None;
    }
    let m = q.meets.iter().find(|m| {
        graph
            .resolve_meet(root, &m.1)
            .is_ok_and(|second| r.path.starts_with(&second) || second.starts_with(&r.path))
    })?;
    Some(Why::Meets {
        first: m.0.clone(),
        second: m.1.clone(),
    })
}
