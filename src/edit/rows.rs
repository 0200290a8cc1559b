//! Changing what a query's rows are instances of. A query's references are
//! read from its rows (`name` is an attribute of the rows, `Hotel.name` of
//! a related entity), so a new rows entity may leave some of them without
//! meaning. The change keeps every reference that still resolves from the
//! new rows and drops the others, and [`dropped`] says beforehand which go
//! and why, so the workbench can tell the designer (nothing is dropped
//! silently).

use crate::model::resolve::{Graph, NodeId};
use crate::model::Project;

/// A reference the new rows cannot read, with the query part it was in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// `equality`, `range`, `calendar`, `order`, `returns` or `feeds` (what a
    /// transition from the query hands on, read from its rows too).
    pub part: &'static str,
    pub reference: String,
    /// Why it does not resolve from the new rows.
    pub why: String,
}

fn resolves(graph: &Graph, root: Option<NodeId>, text: &str) -> Result<(), String> {
    match root {
        Some(r) => graph.resolve(r, text).map(|_| ()),
        None => Err("the new rows are no entity or relationship".into()),
    }
}

/// What setting query `q`'s rows to `rows` would drop.
pub fn dropped(p: &Project, q: usize, rows: &str) -> Vec<Dropped> {
    let Some(query) = p.queries.get(q) else {
        return vec![];
    };
    if query.rows == rows {
        return vec![];
    }
    let graph = Graph::new(p);
    let root = graph.node(rows);
    let mut out = Vec::new();
    let mut check = |part: &'static str, reference: &str| {
        if let Err(why) = resolves(&graph, root, reference) {
            out.push(Dropped {
                part,
                reference: reference.to_string(),
                why,
            });
        }
    };
    for e in &query.equality {
        check("equality", e);
    }
    if let Some(r) = &query.range {
        check("range", &r.attr);
    }
    for x in &query.calendar {
        check("calendar", &x.attr);
    }
    for o in &query.order {
        check("order", &o.attr);
    }
    for r in &query.returns {
        check("returns", r);
    }
    for t in p.workflow.transitions.iter().filter(|t| t.from == query.id) {
        for f in &t.feeds {
            if let Err(why) = resolves(&graph, root, f) {
                out.push(Dropped {
                    part: "feeds",
                    reference: format!("{f} (to {})", t.to),
                    why,
                });
            }
        }
    }
    out
}

/// Sets query `q`'s rows, keeping what still resolves. A query left
/// returning nothing returns every attribute of its new rows.
pub(crate) fn set(p: &mut Project, q: usize, rows: &str) -> Result<(), String> {
    let query = p.queries.get(q).ok_or("no such query")?;
    if query.rows == rows {
        return Ok(());
    }
    let graph = Graph::new(p);
    let root = graph.node(rows);
    let ok = |text: &str| resolves(&graph, root, text).is_ok();
    let equality: Vec<String> = query.equality.iter().filter(|e| ok(e)).cloned().collect();
    let range = query.range.clone().filter(|r| ok(&r.attr));
    let calendar: Vec<_> = query
        .calendar
        .iter()
        .filter(|x| ok(&x.attr))
        .cloned()
        .collect();
    let order: Vec<_> = query
        .order
        .iter()
        .filter(|o| ok(&o.attr))
        .cloned()
        .collect();
    let mut returns: Vec<String> = query.returns.iter().filter(|r| ok(r)).cloned().collect();
    if returns.is_empty() {
        returns = root
            .map(|n| graph.attributes(n).iter().map(|a| a.name.clone()).collect())
            .unwrap_or_default();
    }
    let feeds: Vec<Option<Vec<String>>> = p
        .workflow
        .transitions
        .iter()
        .map(|t| (t.from == query.id).then(|| t.feeds.iter().filter(|f| ok(f)).cloned().collect()))
        .collect();
    for (t, kept) in p.workflow.transitions.iter_mut().zip(feeds) {
        if let Some(kept) = kept {
            t.feeds = kept;
        }
    }
    let query = &mut p.queries[q];
    query.rows = rows.to_string();
    query.equality = equality;
    query.range = range;
    query.calendar = calendar;
    query.order = order;
    query.returns = returns;
    Ok(())
}
