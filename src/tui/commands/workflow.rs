//! Commands of the Workflow pane: queries (adding, the query menu, what a
//! query returns and searches by, its ordering), transitions and entry
//! points. Attributes are picked from what the model offers, never typed.

use crate::edit::{self, Edit};
use crate::model::resolve::Graph;
use crate::model::{Dir, Project};
use crate::tui::app::App;
use crate::tui::intent::Action;
use crate::tui::popup::{self, Input, InputPurpose, Pick, Picker, Popup};

/// How far pickers look for attributes along relationships.
const OFFER_EDGES: usize = 4;

/// The names a query's rows can be instances of.
fn rows_choices(p: &Project) -> Vec<String> {
    p.entities
        .iter()
        .map(|e| e.name.clone())
        .chain(p.relationships.iter().map(|r| r.name.clone()))
        .collect()
}

/// The query's offered references, with any it already uses kept first so
/// a pick never silently drops them.
fn offered(app: &App, qi: usize, current: &[String]) -> Vec<String> {
    let p = &app.project;
    let Some(q) = p.queries.get(qi) else {
        return vec![];
    };
    let graph = Graph::new(p);
    let mut items: Vec<String> = graph
        .node(&q.rows)
        .map(|root| graph.offered(root, OFFER_EDGES))
        .unwrap_or_default();
    for c in current.iter().rev() {
        if !items.contains(c) {
            items.insert(0, c.clone());
        }
    }
    items
}

fn positions(items: &[String], current: &[String]) -> Vec<usize> {
    current
        .iter()
        .filter_map(|c| items.iter().position(|i| i == c))
        .collect()
}

fn need_query(app: &mut App) -> Option<usize> {
    let q = app.current_query();
    if q.is_none() {
        app.error("select a query first (Workflow pane)");
    }
    q
}

/// `a`: a new query, by its sentence (its rows are picked next).
pub fn add(app: &mut App) {
    if app.project.entities.is_empty() && app.project.relationships.is_empty() {
        app.error("add an entity first (Conceptual pane): a query returns rows of an entity");
        return;
    }
    app.popups.push(Popup::Input(Input::new(
        &format!("New query {}", edit::next_query_id(&app.project)),
        "what it answers, e.g. Find hotels near a given point of interest",
        "",
        InputPurpose::AddQuery,
    )));
}

/// After the sentence of a new query: pick what its rows are.
pub(crate) fn pick_rows_for_new_query(app: &mut App, text: String) {
    let items = rows_choices(&app.project);
    if items.is_empty() {
        app.error("add an entity first: a query returns rows of an entity");
        return;
    }
    app.popups.push(Popup::Picker(Picker::single(
        "Its rows are instances of…",
        items,
        Pick::NewQueryRows(text),
    )));
}

/// Enter on a query: the query menu.
pub fn open(app: &mut App) {
    if app.current_query().is_some() {
        let items = popup::picker::QUERY_MENU
            .iter()
            .map(|(l, _)| l.to_string())
            .collect();
        app.popups.push(Popup::Picker(Picker::single(
            "Query",
            items,
            Pick::QueryMenu,
        )));
    }
}

/// What the selected query's rows are instances of.
pub fn rows(app: &mut App) {
    if let Some(q) = need_query(app) {
        let items = rows_choices(&app.project);
        let mut pk = Picker::single("Rows: instances of", items, Pick::Rows(q));
        pk.cursor = pk
            .items
            .iter()
            .position(|i| *i == app.project.queries[q].rows)
            .unwrap_or(0);
        app.popups.push(Popup::Picker(pk));
    }
}

/// The equality search (`equality`) or the returned attributes, in pick
/// order.
pub(crate) fn pick_attributes(app: &mut App, equality: bool) {
    if let Some(q) = need_query(app) {
        let query = &app.project.queries[q];
        let (title, current, purpose) = if equality {
            (
                "Equality search (=) — in pick order",
                query.equality.clone(),
                Pick::Equality(q),
            )
        } else {
            (
                "Returned attributes — in pick order",
                query.returns.clone(),
                Pick::Returns(q),
            )
        };
        let (items, current) = if equality {
            let parts: Vec<String> = query
                .calendar
                .iter()
                .map(crate::model::CalendarPart::text)
                .collect();
            let mut items = with_calendar_parts(app, q, offered(app, q, &current));
            // As `offered` does: a part in use is kept, first if need be.
            for part in parts.iter().rev() {
                if !items.contains(part) {
                    items.insert(0, part.clone());
                }
            }
            let mut current = current;
            current.extend(parts);
            (items, current)
        } else {
            (offered(app, q, &current), current)
        };
        let picked = positions(&items, &current);
        app.popups
            .push(Popup::Picker(Picker::multi(title, items, picked, purpose)));
    }
}

/// The offered references with, after each time attribute, the calendar
/// parts a query can search it by (`hour of ts` … `year of ts`; a date has
/// no hour).
fn with_calendar_parts(app: &App, qi: usize, items: Vec<String>) -> Vec<String> {
    use crate::model::{CalendarPart, Native, Period};
    let p = &app.project;
    let graph = Graph::new(p);
    let Some(root) = p.queries.get(qi).and_then(|q| graph.node(&q.rows)) else {
        return items;
    };
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        let native = graph
            .resolve(root, &item)
            .ok()
            .and_then(|r| graph.attr(r.attr).ty.native());
        let periods: &[Period] = match native {
            Some(Native::Timestamp | Native::Timeuuid) => &Period::ALL,
            Some(Native::Date) => &Period::ALL[1..],
            _ => &[],
        };
        let parts = periods.iter().map(|&period| {
            CalendarPart {
                period,
                attr: item.clone(),
            }
            .text()
        });
        out.push(item.clone());
        out.extend(parts);
    }
    out
}

/// The range search attribute, or none.
pub fn range(app: &mut App) {
    if let Some(q) = need_query(app) {
        let current: Vec<String> = app.project.queries[q]
            .range
            .iter()
            .map(|r| r.attr.clone())
            .collect();
        let mut items = offered(app, q, &current);
        items.insert(0, popup::picker::NONE.to_string());
        let mut pk = Picker::single("Range search (<, >, between)", items, Pick::Range(q));
        pk.cursor = current
            .first()
            .and_then(|c| pk.items.iter().position(|i| i == c))
            .unwrap_or(0);
        app.popups.push(Popup::Picker(pk));
    }
}

/// The ordering attributes, each with its direction.
pub fn order(app: &mut App) {
    if let Some(q) = need_query(app) {
        let order = app.project.queries[q].order.clone();
        let current: Vec<String> = order.iter().map(|o| o.attr.clone()).collect();
        let items = offered(app, q, &current);
        let picked = positions(&items, &current);
        let mut dirs = vec![Dir::Asc; items.len()];
        for o in &order {
            if let Some(i) = items.iter().position(|x| *x == o.attr) {
                dirs[i] = o.dir;
            }
        }
        let mut pk = Picker::multi(
            "Ordering — ← ascending, → descending",
            items,
            picked,
            Pick::Order(q),
        );
        pk.dirs = Some(dirs);
        app.popups.push(Popup::Picker(pk));
    }
}

/// A transition from the selected query to another.
pub(crate) fn add_transition(app: &mut App) {
    if let Some(q) = need_query(app) {
        let from = app.project.queries[q].id.clone();
        let items: Vec<String> = app
            .project
            .queries
            .iter()
            .filter(|x| x.id != from)
            .map(|x| x.id.clone())
            .collect();
        if items.is_empty() {
            app.error("add a second query first");
        } else {
            app.popups.push(Popup::Picker(Picker::single(
                &format!("Transition {from} → ?"),
                items,
                Pick::Transition(from),
            )));
        }
    }
}

/// Makes the selected query an entry point, or no longer one.
pub(crate) fn toggle_entry(app: &mut App) -> Vec<Action> {
    match need_query(app) {
        Some(q) => vec![Action::Edit(Edit::ToggleEntry(q))],
        None => vec![],
    }
}

/// `L`: the selected query's LIMIT, typed (empty: none).
pub fn limit(app: &mut App) {
    if let Some(q) = need_query(app) {
        let query = &app.project.queries[q];
        let current = query.limit.map(|n| n.to_string()).unwrap_or_default();
        let title = format!("LIMIT of {}", query.id);
        app.popups.push(Popup::Input(Input::new(
            &title,
            "rows at most, a whole number (empty: no LIMIT)",
            &current,
            InputPurpose::Limit(q),
        )));
    }
}

/// `F`: what the selected transition hands to its target, picked from the
/// attributes its source query returns.
pub(crate) fn pick_feeds(app: &mut App) {
    let Some(crate::edit::Item::Transition(t)) = app.selected_item() else {
        return app.error("select a transition (in the workflow tree) to pick what it feeds");
    };
    let p = &app.project;
    let Some(tr) = p.workflow.transitions.get(t) else {
        return;
    };
    let Some(source) = p.query(&tr.from) else {
        return app.error(format!("{} is no query", tr.from));
    };
    let mut items = source.returns.clone();
    for f in tr.feeds.iter().rev() {
        if !items.contains(f) {
            items.insert(0, f.clone());
        }
    }
    if items.is_empty() {
        return app.error(format!("{} returns nothing to feed", source.id));
    }
    let picked = positions(&items, &tr.feeds);
    let title = format!("{} → {} feeds — what {} returns", tr.from, tr.to, tr.from);
    app.popups.push(Popup::Picker(Picker::multi(
        &title,
        items,
        picked,
        Pick::Feeds(t),
    )));
}
