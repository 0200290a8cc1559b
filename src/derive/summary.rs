//! Summary tables: a query that returns aggregates (`count`, `sum`, `min`,
//! `max`, `avg`) per group and per time window reads one row per group and
//! window instead of the rows themselves. Counters keep the row where they
//! fit (a count, a sum of whole numbers: the application increments them on
//! every insert); otherwise the aggregates are plain columns the application
//! or a job updates, since a counter table holds nothing but counters
//! outside its key.

use super::columns::{attr_column_name, attr_source, unique_column_name};
use super::decisions::apply_decision;
use super::draft::Draft;
use super::finish::order_key_first;
use super::naming_rules;
use super::types::{Column, Role, Rule, Source, Table, Why};
use crate::model::load::Problem;
use crate::model::name::Name;
use crate::model::resolve::{Graph, NodeId, Reached};
use crate::model::{Aggregate, AggregateFn, CqlType, Decision, Dir, Native, Period, Query};

/// What the summary's builder needs of the query, resolved.
pub(super) struct Summary<'a> {
    pub equality: &'a [Reached],
    /// Members grouped beyond the equality: clustering columns before the
    /// window.
    pub group: &'a [Reached],
    pub window: Option<(Reached, Period)>,
    pub range: Option<&'a Reached>,
    pub order: &'a [(Reached, Dir)],
}

/// Whether every aggregate can be a Cassandra counter: a count, or a sum of
/// whole numbers (increments by the added value).
pub(crate) fn counters_fit(graph: &Graph, root: NodeId, aggregates: &[Aggregate]) -> bool {
    aggregates.iter().all(|a| match a.function {
        AggregateFn::Count => true,
        AggregateFn::Sum => aggregated_type(graph, root, a)
            .and_then(|t| t.native())
            .is_some_and(Native::is_integer),
        AggregateFn::Min | AggregateFn::Max | AggregateFn::Avg => false,
    })
}

fn aggregated_type(graph: &Graph, root: NodeId, a: &Aggregate) -> Option<CqlType> {
    let attr = a.attr.as_ref()?;
    let r = graph.resolve(root, attr).ok()?;
    Some(graph.attr(r.attr).ty.clone())
}

/// The plain column type of an aggregate kept by the application.
fn plain_type(function: AggregateFn, of: Option<&CqlType>) -> CqlType {
    let native = of.and_then(CqlType::native);
    let n = match function {
        AggregateFn::Count => Native::Bigint,
        AggregateFn::Min | AggregateFn::Max => {
            return of.cloned().unwrap_or(CqlType::Native(Native::Bigint));
        }
        AggregateFn::Sum => match native {
            Some(n) if n.is_integer() => Native::Bigint,
            Some(n @ (Native::Varint | Native::Decimal)) => n,
            _ => Native::Double,
        },
        AggregateFn::Avg => match native {
            Some(Native::Decimal) => Native::Decimal,
            _ => Native::Double,
        },
    };
    CqlType::Native(n)
}

/// `view_count` for a count of views, `max_duration` for a maximum.
fn aggregate_column_name(graph: &Graph, root: NodeId, a: &Aggregate) -> String {
    if let Some(c) = &a.column {
        return c.clone();
    }
    let attr = a
        .attr
        .as_ref()
        .and_then(|t| graph.resolve(root, t).ok())
        .map(|r| graph.column_base(r.attr, r.path.is_empty() && r.attr.node() == root));
    match (a.function, attr) {
        (AggregateFn::Count, None) => format!("{}_count", graph.short(root)),
        (AggregateFn::Count, Some(attr)) => format!("{attr}_count"),
        (f, Some(attr)) => format!("{}_{attr}", f.name()),
        (f, None) => f.name().to_string(),
    }
}

// The query's resolved parts come as one bundle the builder reads.
#[allow(clippy::needless_pass_by_value)]
pub(super) fn build(
    graph: &Graph,
    q: &Query,
    id: Name,
    root: NodeId,
    s: Summary,
    decision: Option<&Decision>,
    problems: &mut Vec<Problem>,
) -> Draft {
    let mut t = Table::for_query(q, id, Vec::new());
    let mut ids: Vec<Option<Reached>> = vec![];
    for r in s.equality {
        if ids.iter().any(|x| x.as_ref() == Some(r)) {
            continue;
        }
        let name = attr_column_name(graph, root, r, &t);
        let source = attr_source(graph, root, r);
        t.columns.push(Column {
            name,
            ty: graph.attr(r.attr).ty.clone(),
            role: Role::Partition,
            rule: Rule::Equality,
            why: None,
            query: t.origin.clone(),
            source,
        });
        ids.push(Some(r.clone()));
    }
    // Without an equality a grouped summary still needs a partition: one
    // constant bucket holds the group's rows.
    let bucketed = s.equality.is_empty() && !s.group.is_empty();
    if bucketed {
        push_bucket(&mut t, &mut ids);
    }
    // A range or an order on the window needs every clustering column
    // before it bound: then the members come after the window.
    let window_read = s
        .window
        .as_ref()
        .is_some_and(|(w, _)| s.range == Some(w) || s.order.iter().any(|(o, _)| o == w));
    if !window_read {
        push_group(graph, root, s.group, &mut t, &mut ids);
    }
    let mut window_token = None;
    if let Some((w, period)) = &s.window {
        let searched = s.range == Some(w) || s.order.iter().any(|(o, _)| o == w);
        let dir = s
            .order
            .iter()
            .find(|(o, _)| o == w)
            .map_or(Dir::Desc, |(_, d)| *d);
        // Without a group the window is the partition, unless the query
        // reads a span of windows: Cassandra ranges only over clustering
        // columns, so one constant partition holds the windows in order.
        let role = if s.equality.is_empty() && s.group.is_empty() && !searched {
            Role::Partition
        } else {
            Role::Clustering(dir)
        };
        if s.equality.is_empty() && !bucketed && role != Role::Partition {
            push_bucket(&mut t, &mut ids);
        }
        let own = w.path.is_empty() && w.attr.node() == root;
        let name = unique_column_name(&t, period.name().into());
        window_token = Some(name.clone());
        t.columns.push(Column {
            name,
            ty: CqlType::Native(if *period == Period::Hour {
                Native::Timestamp
            } else {
                Native::Date
            }),
            role,
            rule: Rule::Window,
            why: None,
            query: t.origin.clone(),
            source: Source::Bucket {
                source: graph.column_base(w.attr, own),
                period: *period,
            },
        });
        // The window stands for the time it buckets: a range or an order on
        // that time reads the window column.
        ids.push(Some(w.clone()));
    }
    if window_read {
        push_group(graph, root, s.group, &mut t, &mut ids);
    }
    let counters = counters_fit(graph, root, &q.aggregates);
    // The constants filter which rows the aggregates take in; they are no
    // column of the summary.
    let filter = q.constant_filter();
    for a in &q.aggregates {
        let of_ty = aggregated_type(graph, root, a);
        let of = a.attr.as_ref().and_then(|text| {
            let r = graph.resolve(root, text).ok()?;
            Some(format!(
                "{}.{}",
                graph.node_name(r.attr.node()),
                graph.attr(r.attr).name
            ))
        });
        let ty = if counters {
            CqlType::Native(Native::Counter)
        } else {
            plain_type(a.function, of_ty.as_ref())
        };
        let name = unique_column_name(&t, aggregate_column_name(graph, root, a).into());
        t.columns.push(Column {
            name,
            ty,
            role: Role::Regular,
            rule: Rule::Aggregate,
            why: filter
                .clone()
                .map(|filter| Box::new(Why::CountedOnly { filter })),
            query: t.origin.clone(),
            source: Source::Aggregate {
                function: a.function,
                of,
            },
        });
        ids.push(None);
    }
    let mut pinned = None;
    if let Some(d) = decision {
        apply_decision(graph, q, d, &mut t, &mut ids, problems);
        pinned.clone_from(&d.name);
    }
    order_key_first(&mut t, &mut ids);
    // Plain summaries of expiring rows expire with them; a counter table
    // cannot have a time to live.
    super::physical::settle(graph, q, root, decision, &mut t);
    let names = naming_rules::summary_names(graph, root, s.equality, window_token.as_deref(), &t);
    Draft {
        table: t,
        ids: ids.into(),
        root,
        pinned,
        names: names.into_iter().map(Name::from).collect(),
        resolved: None,
        separate: decision.is_some_and(|d| d.separate),
        signature_hash: 0,
        serial: 0,
    }
}

/// The query's group members, clustering the summary's rows.
fn push_group(
    graph: &Graph,
    root: NodeId,
    group: &[Reached],
    t: &mut Table,
    ids: &mut Vec<Option<Reached>>,
) {
    for r in group {
        if ids.iter().any(|x| x.as_ref() == Some(r)) {
            continue;
        }
        let name = attr_column_name(graph, root, r, t);
        let source = attr_source(graph, root, r);
        t.columns.push(Column {
            name,
            ty: graph.attr(r.attr).ty.clone(),
            role: Role::Clustering(Dir::Asc),
            rule: Rule::Key,
            why: Some(Box::new(Why::Grouped)),
            query: t.origin.clone(),
            source,
        });
        ids.push(Some(r.clone()));
    }
}

/// The constant partition of a summary with no equality group.
fn push_bucket(t: &mut Table, ids: &mut Vec<Option<Reached>>) {
    t.columns.push(Column {
        name: "bucket".into(),
        ty: CqlType::Native(Native::Int),
        role: Role::Partition,
        rule: Rule::WholeTable,
        why: None,
        query: t.origin.clone(),
        source: Source::Constant,
    });
    ids.push(None);
}

/// Whether a table is a summary kept by the application or a job (plain
/// aggregate columns), not by counter increments on insert.
pub(crate) fn updated_by_application(t: &Table) -> bool {
    t.columns
        .iter()
        .any(|c| c.rule == Rule::Aggregate && !c.ty.is_counter())
}
