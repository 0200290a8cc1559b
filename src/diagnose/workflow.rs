//! The application workflow: can each query get its inputs, does every
//! query have a table, does every table serve a query?

use super::{Ctx, Diagnostic, Subject};
use crate::derive::Access;
use crate::model::resolve::AttrRef;
use crate::model::{CqlType, Project, Query};
use std::collections::{BTreeSet, HashMap};

/// The attribute name a reference ends at: `hotel_id` for
/// `Room.hotel_id via has_rooms`.
fn base(reference: &str) -> String {
    AttrRef::parse(reference).map_or_else(|_| reference.trim().to_string(), |r| r.attr)
}

pub(super) fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    tables(ctx, out);
    let p = ctx.project;
    if p.workflow.entry.is_empty() && p.workflow.transitions.is_empty() {
        if !p.queries.is_empty() {
            out.push(ctx.diag(
                "no-workflow",
                Subject::Project,
                "The project states no workflow, so nothing checks that each query's search values are known when the application runs it.".into(),
                "List the entry queries and the transitions between queries, with the attributes each feeds to the next.".into(),
            ));
        }
        return;
    }
    inputs(ctx, out);
}

fn tables(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for plan in ctx.model.plans.iter().filter(|p| p.table.is_none()) {
        let why = plan.access.reason().unwrap_or("no table serves this query");
        out.push(
            ctx.diag(
                "query-without-table",
                Subject::Query(plan.query.clone()),
                format!(
                    "{} has no table ({why}): the application has no way to answer it.",
                    plan.query
                ),
                "Let the query have its own table, or serve it from a table that holds its rows."
                    .into(),
            ),
        );
    }
    for (i, t) in ctx.model.tables.iter().enumerate() {
        let mut plans = ctx
            .model
            .plans
            .iter()
            .filter(|p| p.table == Some(i))
            .peekable();
        if plans.peek().is_none() || plans.all(|p| matches!(p.access, Access::Impossible(_))) {
            out.push(ctx.diag(
                "table-serves-no-query",
                Subject::Table(t.name.clone()),
                format!(
                    "{} answers none of its queries ({}), yet every write of its rows still pays for it.",
                    t.name,
                    t.queries.join(", ")
                ),
                "Drop the table or change its key so that its queries can read it.".into(),
            ));
        }
    }
}

/// Attribute names known after each query ran on some path from an entry:
/// the entry's search values, every preceding query's search values and
/// returned attributes, and what transitions feed.
fn known_after(p: &Project) -> HashMap<&str, BTreeSet<String>> {
    let mut after: HashMap<&str, BTreeSet<String>> = HashMap::new();
    for _ in 0..=p.queries.len() {
        let mut changed = false;
        for q in &p.queries {
            let mut k = before(p, q, &after);
            k.extend(q.equality.iter().map(|a| base(a)));
            k.extend(q.range.iter().map(|r| base(&r.attr)));
            k.extend(q.returns.iter().map(|a| base(a)));
            if after.get(q.id.as_str()) != Some(&k) {
                after.insert(q.id.as_str(), k);
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }
    after
}

fn before(p: &Project, q: &Query, after: &HashMap<&str, BTreeSet<String>>) -> BTreeSet<String> {
    let mut k = BTreeSet::new();
    for t in p.workflow.transitions.iter().filter(|t| t.to == q.id) {
        if let Some(a) = after.get(t.from.as_str()) {
            k.extend(a.iter().cloned());
        }
        k.extend(t.feeds.iter().map(|f| base(f)));
    }
    k
}

/// The type of a reference from a query's rows, if it resolves.
fn type_of(ctx: &Ctx, rows: &str, reference: &str) -> Option<CqlType> {
    let root = ctx.graph.node(rows)?;
    let r = ctx.graph.resolve(root, reference).ok()?;
    Some(ctx.graph.attr(r.attr).ty.clone())
}

/// Equality inputs are what the workflow must supply; range bounds are
/// free parameters the user picks (a date range) and are not checked.
fn inputs(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let p = ctx.project;
    let after = known_after(p);
    for q in &p.queries {
        if p.workflow.entry.contains(&q.id) || q.equality.is_empty() {
            continue;
        }
        let incoming: Vec<_> = p
            .workflow
            .transitions
            .iter()
            .filter(|t| t.to == q.id)
            .collect();
        if incoming.is_empty() {
            out.push(ctx.diag(
                "workflow-input-gap",
                Subject::Query(q.id.clone()),
                format!(
                    "{} is neither an entry point nor reached from another query, so nothing in the application supplies {}.",
                    q.id,
                    q.equality.join(", ")
                ),
                format!("Add {} to the entry points, or a transition into it that feeds its search attributes.", q.id),
            ));
            continue;
        }
        let known = before(p, q, &after);
        let mut missing: Vec<&String> = q
            .equality
            .iter()
            .filter(|a| !known.contains(&base(a)))
            .collect();
        // A declared feed whose name matches no search attribute may carry
        // its value into a differently named one of the same type (a
        // chosen `date` feeding `start_date`).
        let names: Vec<String> = q.equality.iter().map(|a| base(a)).collect();
        for t in &incoming {
            let Some(from) = p.query(&t.from) else {
                continue;
            };
            for f in t.feeds.iter().filter(|f| !names.contains(&base(f))) {
                let ft = type_of(ctx, &from.rows, f);
                if let Some(i) = missing
                    .iter()
                    .position(|m| ft.is_some() && type_of(ctx, &q.rows, m) == ft)
                {
                    missing.remove(i);
                }
            }
        }
        if !missing.is_empty() {
            let list: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
            out.push(ctx.diag(
                "workflow-input-gap",
                Subject::Query(q.id.clone()),
                format!(
                    "{} searches by {} but no entry point or preceding query provides {}, so the application cannot run it as designed.",
                    q.id,
                    list.join(", "),
                    if list.len() == 1 { "it" } else { "them" }
                ),
                format!(
                    "Feed {} from a preceding query (a transition's feeds), return it from one, or make {} an entry point.",
                    list.join(", "),
                    q.id
                ),
            ));
        }
    }
}
