//! Can a table answer a query, and with which SELECT? Cassandra's
//! restriction rules, checked on column names so hand-written candidate keys
//! are judged exactly like derived ones.

use super::types::Select;
use super::types::{Access, KeyShape, Plan, Request, Source, Table};
use crate::model::name::Name;
use crate::model::parts::Parts;
use crate::model::resolve::normalize;
use crate::model::resolve::{Graph, NodeId, Reached};
use crate::model::{Dir, Query};

/// Whether `shape` answers `req`, and how; with the ORDER BY that follows
/// the clustering order when it does.
pub fn access(shape: &KeyShape, req: &Request) -> (Access, Vec<(Name, Dir)>) {
    let has = |c: &Name| shape.columns.contains(c);
    for c in req
        .eq
        .iter()
        .chain(req.range.as_ref().map(|(c, _)| c))
        .chain(req.order.iter().map(|(c, _)| c))
        .chain(&req.returns)
    {
        // A computed return reads a column of its own expression.
        let computed = req.computed.iter().any(|(n, _)| n == c);
        if !has(c) && !computed {
            return (
                Access::Impossible(format!("column {c} is not in the table")),
                vec![],
            );
        }
    }
    let restricted = |c: &Name| req.eq.contains(c) || shape.computed.contains(c);
    let range_col = req.range.as_ref().map(|(c, _)| c);
    let mut filtering: Option<String> = None;
    let mut index: Option<String> = None;
    let note = |slot: &mut Option<String>, why: String| {
        if slot.is_none() {
            *slot = Some(why);
        }
    };

    let unrestricted: Vec<&Name> = shape.partition.iter().filter(|c| !restricted(c)).collect();
    let partition_ok = unrestricted.is_empty();
    if !partition_ok {
        let searched = !req.eq.is_empty() || req.range.is_some();
        if let Some(ix) = req
            .eq
            .iter()
            .find(|c| shape.indexes.iter().any(|i| **c == *i))
        {
            index = Some(ix.to_string());
        } else if searched {
            note(
                &mut filtering,
                format!(
                    "partition key not fully restricted by equality ({} unrestricted)",
                    unrestricted
                        .iter()
                        .map(|s| s.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
            );
        }
    }
    if range_col.is_some_and(|c| shape.partition.contains(c)) {
        note(
            &mut filtering,
            "range on a partition key column (only equality restricts a partition key)".into(),
        );
    }

    // Clustering restrictions must be a prefix: equalities, then at most
    // one range on the last restricted column.
    let mut gap: Option<&Name> = None;
    let mut ranged: Option<&Name> = None;
    for (c, _) in &shape.clustering {
        let is_eq = req.eq.contains(c);
        let is_range = range_col == Some(c);
        if is_eq || is_range {
            if let Some(r) = ranged {
                note(
                    &mut filtering,
                    format!("range not on the last restricted column ({r} is ranged but {c} is restricted after it)"),
                );
            } else if let Some(g) = gap {
                note(
                    &mut filtering,
                    format!("clustering restriction not a prefix ({c} is restricted but {g} before it is not)"),
                );
            }
            if is_range {
                ranged = Some(c);
            }
        } else if gap.is_none() {
            gap = Some(c);
        }
    }
    let is_key =
        |c: &Name| shape.partition.contains(c) || shape.clustering.iter().any(|(k, _)| k == c);
    for c in &req.eq {
        if !is_key(c) {
            if shape.indexes.iter().any(|i| *c == *i) {
                if index.is_none() && partition_ok {
                    index = Some(c.to_string());
                } else if index.as_deref() != Some(c.as_str()) {
                    note(
                        &mut filtering,
                        format!("{c} is neither a key column nor the one index used"),
                    );
                }
            } else {
                note(
                    &mut filtering,
                    format!("{c} is not a key column and has no index"),
                );
            }
        }
    }
    if let Some(c) = range_col {
        if !is_key(c) {
            note(
                &mut filtering,
                format!("range on {c}, which is not a clustering column"),
            );
        }
    }

    // ORDER BY: clustering columns in declared order (all as declared, or
    // all reversed), within one partition.
    let mut order_by = Vec::new();
    if !req.order.is_empty() {
        if !partition_ok || index.is_some() {
            return (
                Access::Impossible(
                    "ORDER BY needs the partition key restricted by equality".into(),
                ),
                vec![],
            );
        }
        let mut reversed: Option<bool> = None;
        let mut last = 0usize;
        for (c, dir) in &req.order {
            let Some(pos) = shape.clustering.iter().position(|(k, _)| k == c) else {
                return (
                    Access::Impossible(format!("ORDER BY {c}: not a clustering column")),
                    vec![],
                );
            };
            let flip = shape.clustering[pos].1 != *dir;
            if reversed.is_some_and(|r| r != flip) {
                return (
                    Access::Impossible(
                        "ORDER BY against the clustering order (mixed directions)".into(),
                    ),
                    vec![],
                );
            }
            reversed = Some(flip);
            last = last.max(pos + 1);
        }
        let reversed = reversed.unwrap_or(false);
        for (i, (c, d)) in shape.clustering[..last].iter().enumerate() {
            let ordered = req.order.iter().any(|(o, _)| o == c);
            if !ordered && !req.eq.contains(c) {
                return (
                    Access::Impossible(format!(
                        "ORDER BY against the clustering order: rows are sorted by {c} first"
                    )),
                    vec![],
                );
            }
            // A column fixed by equality (a filter leading the clustering)
            // orders nothing: ORDER BY may skip it.
            if !ordered {
                continue;
            }
            let pos_in_req = req.order.iter().position(|(o, _)| o == c);
            if let Some(p) = pos_in_req {
                // Requested columns must appear in declared order.
                if req.order[..p].iter().any(|(o, _)| {
                    shape
                        .clustering
                        .iter()
                        .position(|(k, _)| k == o)
                        .is_some_and(|q| q > i)
                }) {
                    return (
                        Access::Impossible(
                            "ORDER BY against the clustering order (columns out of order)".into(),
                        ),
                        vec![],
                    );
                }
            }
            order_by.push((c.clone(), if reversed { d.flip() } else { *d }));
        }
    }

    let access = if let Some(f) = filtering {
        Access::Filtering(f)
    } else if let Some(ix) = index {
        Access::Index(ix)
    } else {
        Access::Direct
    };
    (access, order_by)
}

/// A query's attribute references resolved from its rows' node.
///
/// A build keeps its query's for as long as the query is unchanged (the
/// next derivation's sharing reads them): one list, part after part.
#[derive(Clone, Debug, Default)]
pub struct Resolved {
    /// Equality, constants, order, returns and the times of calendar parts.
    parts: Parts<Reached, 5>,
    pub range: Option<Reached>,
    /// The range is on a time a timeuuid `encodes`, and `range` is that
    /// timeuuid: the SELECT bounds it with `minTimeuuid`/`maxTimeuuid`.
    pub range_encoded: bool,
    /// Returned times the SELECT computes from the timeuuid that encodes
    /// them rather than read from a column of their own.
    pub computed: Vec<Computed>,
}

/// A returned time read back from the timeuuid that carries it.
#[derive(Clone, Debug, PartialEq)]
pub struct Computed {
    pub attr: Reached,
    pub carrier: Reached,
    /// `toTimestamp`, `toDate` or `toUnixTimestamp`.
    pub function: &'static str,
    /// The attributes' names: the time's column is named as the carrier's
    /// is, with the time's name in place of the carrier's.
    pub attr_name: Box<str>,
    pub carrier_name: Box<str>,
}

impl Computed {
    /// The returned attributes of `returns` that a timeuuid also held by
    /// the table (`held`) carries.
    pub(crate) fn of(
        graph: &Graph,
        returns: &[Reached],
        held: impl Fn(&Reached) -> bool,
    ) -> Vec<Computed> {
        returns
            .iter()
            .filter_map(|r| {
                let (carrier, function) = crate::model::resolve::computed_from(graph, r)?;
                held(&carrier).then(|| Computed {
                    attr: r.clone(),
                    attr_name: graph.attr(r.attr).name.as_str().into(),
                    carrier_name: graph.attr(carrier.attr).name.as_str().into(),
                    carrier,
                    function,
                })
            })
            .collect()
    }
}

impl Resolved {
    /// `order` are the order attributes as encoded (see `encoded_by`).
    pub fn new(
        eq: Vec<Reached>,
        constants: Vec<Reached>,
        range: Option<Reached>,
        order: Vec<Reached>,
        returns: Vec<Reached>,
        calendar: Vec<Reached>,
    ) -> Resolved {
        let mut parts = Parts::builder(
            eq.len() + constants.len() + order.len() + returns.len() + calendar.len(),
        );
        for list in [eq, constants, order, returns, calendar] {
            parts.items().extend(list);
            parts.end_part();
        }
        Resolved {
            parts: parts.finish(),
            range,
            range_encoded: false,
            computed: Vec::new(),
        }
    }

    /// The returned times the SELECT computes from their timeuuid.
    #[must_use]
    pub fn with_computed(mut self, computed: Vec<Computed>) -> Resolved {
        self.computed = computed;
        self
    }

    /// The timeuuid a returned attribute is computed from, if it is.
    pub fn carrier_of(&self, r: &Reached) -> Option<&Reached> {
        self.computed
            .iter()
            .find(|c| c.attr == *r)
            .map(|c| &c.carrier)
    }

    /// The range, `encoded` when it is on the time a timeuuid carries and
    /// `range` is that timeuuid.
    #[must_use]
    pub fn with_encoded_range(mut self, encoded: bool) -> Resolved {
        self.range_encoded = encoded;
        self
    }

    fn part(&self, k: usize) -> &[Reached] {
        self.parts.part(k)
    }

    /// The equality attributes, in the query's order.
    pub fn eq(&self) -> &[Reached] {
        self.part(0)
    }

    /// The query's constant equalities, in its order.
    pub fn constants(&self) -> &[Reached] {
        self.part(1)
    }

    pub fn order(&self) -> &[Reached] {
        self.part(2)
    }

    pub fn returns(&self) -> &[Reached] {
        self.part(3)
    }

    /// The times the query's calendar parts are of, in its order.
    pub fn calendar(&self) -> &[Reached] {
        self.part(4)
    }
}

pub(crate) fn resolve_query(graph: &Graph, root: NodeId, q: &Query) -> Result<Resolved, String> {
    let r = |text: &str| graph.resolve(root, text).map(normalize);
    let eq: Vec<Reached> = q.equality.iter().map(|e| r(e)).collect::<Result<_, _>>()?;
    let constants: Vec<Reached> = q
        .constants
        .iter()
        .map(|k| r(&k.attr))
        .collect::<Result<_, _>>()?;
    let range = q.range.as_ref().map(|x| r(&x.attr)).transpose()?;
    let (range, encoded) = encoded_range(graph, range);
    let order: Vec<Reached> = q
        .order
        .iter()
        .map(|o| r(&o.attr).map(|x| crate::model::resolve::encoded_by(graph, x)))
        .collect::<Result<_, _>>()?;
    let returns: Vec<Reached> = q.returns.iter().map(|e| r(e)).collect::<Result<_, _>>()?;
    let calendar: Vec<Reached> = q
        .calendar
        .iter()
        .map(|x| r(&x.attr))
        .collect::<Result<_, _>>()?;
    let named = |c: &Reached| {
        eq.contains(c) || range.as_ref() == Some(c) || order.contains(c) || returns.contains(c)
    };
    let computed = Computed::of(graph, &returns, named);
    Ok(
        Resolved::new(eq, constants, range, order, returns, calendar)
            .with_encoded_range(encoded)
            .with_computed(computed),
    )
}

/// A range on a time a timeuuid `encodes` is a range on the timeuuid: the
/// rows cluster by it alone, and its bounds are `minTimeuuid` and
/// `maxTimeuuid` of the times (issue: one table serves "newest first" and
/// "between two dates").
pub(crate) fn encoded_range(graph: &Graph, range: Option<Reached>) -> (Option<Reached>, bool) {
    match range {
        // Otherwise the range stays on the attribute's own column.
        Some(r) => match crate::model::resolve::timeuuid_carrier(graph, &r) {
            Some(carrier) => (Some(carrier), true),
            None => (Some(r), false),
        },
        None => (None, false),
    }
}

/// Where a table holds each attribute: the position of the column holding
/// a reached attribute. A derivation keeps the identities beside the
/// columns; a finished table carries them in its columns' sources.
pub trait ColumnIds {
    fn position(&self, r: &Reached) -> Option<usize>;
}

impl ColumnIds for [Option<Reached>] {
    fn position(&self, r: &Reached) -> Option<usize> {
        self.iter().position(|x| x.as_ref() == Some(r))
    }
}

/// A finished table's columns, identified by their sources.
pub struct SourceIds<'a>(pub &'a [super::Column]);

impl ColumnIds for SourceIds<'_> {
    fn position(&self, r: &Reached) -> Option<usize> {
        self.0
            .iter()
            .position(|c| matches!(&c.source, Source::Attr { reached, .. } if reached == r))
    }
}

/// The request of a query against a derived table, mapping its resolved
/// references to the table's columns.
pub fn request(
    q: &Query,
    res: &Resolved,
    table: &Table,
    ids: &[Option<Reached>],
) -> Result<Request, String> {
    request_returning(q, res, table, ids, |_| true)
}

/// [`request`] for the query returning only the attributes `keep` accepts
/// (what a table would answer of it without the others).
pub(crate) fn request_returning(
    q: &Query,
    res: &Resolved,
    table: &Table,
    ids: &(impl ColumnIds + ?Sized),
    keep: impl Fn(&Reached) -> bool,
) -> Result<Request, String> {
    let col = |r: &Reached, text: &str| -> Result<Name, String> {
        match ids.position(r) {
            Some(i) => Ok(table.columns[i].name.clone()),
            None => Err(format!("{text} is not a column of {}", table.name)),
        }
    };
    // Sized by the query's lists: this runs for every query.
    let mut req = Request {
        eq: Vec::with_capacity(q.equality.len() + q.constants.len()),
        order: Vec::with_capacity(q.order.len()),
        returns: Vec::with_capacity(q.returns.len()),
        limit: q.limit,
        ..Request::default()
    };
    for (r, text) in res.eq().iter().zip(&q.equality) {
        req.eq.push(col(r, text)?);
    }
    // An aggregate query's constants filter the rows its summary counts
    // when written: a summary serves it only if it counts those rows.
    let filtered = !q.aggregates.is_empty() && !q.constants.is_empty();
    if filtered {
        let want = q.constant_filter();
        let counts = table.columns.iter().any(|c| match c.why.as_deref() {
            Some(super::Why::CountedOnly { filter }) => Some(filter) == want.as_ref(),
            _ => false,
        });
        if !counts {
            return Err(format!(
                "{} does not count only the rows the query's constants keep",
                table.name
            ));
        }
    }
    // Those filters are the summary's own then: no column is bound.
    let bound = if filtered { &[][..] } else { res.constants() };
    for (r, k) in bound.iter().zip(&q.constants) {
        let c = col(r, &k.attr)?;
        let ty = table.column(&c).map(|x| &x.ty);
        let literal = ty
            .ok_or_else(|| format!("{} is not a column of {}", k.attr, table.name))
            .and_then(|ty| crate::model::literal::constant(ty, &k.value))?;
        req.eq.push(c.clone());
        req.literals.push((c, literal));
    }
    if let (Some(r), Some(range)) = (&res.range, &q.range) {
        req.range = Some((col(r, &range.attr)?, range.op));
        req.range_timeuuid = res.range_encoded;
    }
    for (r, part) in res.calendar().iter().zip(&q.calendar) {
        calendar_request(&mut req, table, col(r, &part.attr)?, part)?;
    }
    for (r, o) in res.order().iter().zip(&q.order) {
        let c = col(r, &o.attr)?;
        // Ordering by an equality-restricted column orders nothing.
        if !req.eq.contains(&c) {
            req.order.push((c, o.dir));
        }
    }
    for (r, text) in res
        .returns()
        .iter()
        .zip(&q.returns)
        .filter(|(r, _)| keep(r))
    {
        // A child pushed up into a collection is read through that column.
        let c = match table.collected.iter().find(|(x, _)| x == r) {
            Some((_, name)) => name.clone(),
            None => match (ids.position(r), res.computed.iter().find(|c| c.attr == *r)) {
                (None, Some(k)) => {
                    let carrier = col(&k.carrier, text)?;
                    let alias: Name = match carrier.as_str().strip_suffix(&*k.carrier_name) {
                        Some(prefix) => format!("{prefix}{}", k.attr_name).into(),
                        None => k.attr_name.as_ref().into(),
                    };
                    let expr = format!("{}({})", k.function, crate::model::naming::quote(&carrier));
                    req.computed.push((alias.clone(), expr));
                    alias
                }
                _ => col(r, text)?,
            },
        };
        if !req.returns.contains(&c) {
            req.returns.push(c);
        }
    }
    // A summary returns the window each row covers, unless the query fixed
    // it, and its aggregates.
    if !q.aggregates.is_empty() {
        let window = table
            .columns
            .iter()
            .filter(|c| c.rule == super::Rule::Window && !req.eq.contains(&c.name));
        let aggregates = table
            .columns
            .iter()
            .filter(|c| c.rule == super::Rule::Aggregate);
        for c in window.chain(aggregates) {
            if !req.returns.contains(&c.name) {
                req.returns.push(c.name.clone());
            }
        }
    }
    Ok(req)
}

/// A calendar part of the time in column `time` in a request: the bucket
/// of that period of that time, bound by equality; without one, the slice
/// of the time the part covers (a range, as a one-day read of an
/// unbucketed table is); a query that ranges over something already cannot
/// say the slice.
fn calendar_request(
    req: &mut Request,
    table: &Table,
    time: Name,
    part: &crate::model::CalendarPart,
) -> Result<(), String> {
    let bucket = table.partition_key().find(|c| {
        matches!(&c.source, Source::Bucket { source, period }
            if *period == part.period && source.as_str() == time.as_str())
    });
    match bucket {
        Some(c) => {
            if !req.eq.contains(&c.name) {
                req.eq.push(c.name.clone());
            }
        }
        None if req.range.is_none() => {
            req.range = Some((time, crate::model::RangeOp::Between));
        }
        None => {
            return Err(format!(
                "the {} of {time} needs a {} bucket in the partition key of {}: the query ranges over another column",
                part.period.name(),
                part.period.name(),
                table.name
            ))
        }
    }
    Ok(())
}

/// The table a query is planned against, with its columns' identities.
#[derive(Clone, Copy)]
pub struct Served<'a> {
    pub table: &'a Table,
    pub index: usize,
    pub ids: &'a [Option<Reached>],
    pub root: NodeId,
}

pub fn plan(
    graph: &Graph,
    q: &Query,
    id: Name,
    resolved: Option<&Resolved>,
    served: Served,
) -> Plan {
    let Served {
        table,
        index: ti,
        ids,
        root,
    } = served;
    let shape = KeyShape::of(table);
    let req = if graph.node(&q.rows) == Some(root) {
        match resolved {
            Some(r) => request(q, r, table, ids),
            None => resolve_query(graph, root, q).and_then(|r| request(q, &r, table, ids)),
        }
    } else {
        Err(format!(
            "the table holds {} rows but {} returns {}",
            table.rows, q.id, q.rows
        ))
    };
    let (access, select, computed, request) = match req {
        Ok(req) => {
            let (access, order_by) = access(&shape, &req);
            let select = Select::new(
                &graph.keyspace_name(),
                &table.name,
                &shape,
                &req,
                &order_by,
                &access,
            );
            (access, select, shape.computed, Some(req))
        }
        Err(why) => (
            Access::Impossible(why),
            Select::default(),
            shape.computed,
            None,
        ),
    };
    Plan {
        query: id,
        table: Some(ti),
        select,
        access,
        computed,
        request,
    }
}
