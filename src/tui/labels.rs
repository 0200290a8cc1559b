//! How the workbench names items, note targets and edits in titles and
//! status messages.

use super::app::App;
use crate::edit::{self, Edit, Item};
use crate::model::Target;

/// An item as titles and messages name it ("entity Hotel").
pub(crate) fn item_label(app: &App, item: Item) -> String {
    let p = &app.project;
    match item {
        Item::Entity(e) => format!("entity {}", p.entities[e].name),
        Item::Attribute(e, a) => format!(
            "attribute {}.{}",
            p.entities[e].name, p.entities[e].attributes[a].name
        ),
        Item::Relationship(r) => format!("relationship {}", p.relationships[r].name),
        Item::RelAttribute(r, a) => format!(
            "attribute {}.{}",
            p.relationships[r].name, p.relationships[r].attributes[a].name
        ),
        Item::Query(q) => format!("query {}", p.queries[q].id),
        Item::Transition(t) => {
            let x = &p.workflow.transitions[t];
            format!("transition {} → {}", x.from, x.to)
        }
        Item::Table(t) | Item::Column(t, _) => {
            format!("table {}", app.analysis.model.tables[t].name)
        }
    }
}

/// A review note's target as messages name it.
pub(crate) fn target_label(t: &Target) -> String {
    match t {
        Target::Entity(n) => format!("entity {n}"),
        Target::Relationship(n) => format!("relationship {n}"),
        Target::Query(n) => format!("query {n}"),
        Target::Table(n) => format!("table {n}"),
    }
}

/// What an edit did, as the status line says it on success (refusals turn
/// it around with `app::not_done`).
pub(crate) fn edit_label(app: &App, e: &Edit) -> String {
    let q = |i: &usize| {
        app.project
            .queries
            .get(*i)
            .map_or("?".to_string(), |q| q.id.clone())
    };
    match e {
        Edit::AddEntity(n) => format!("added entity {n}"),
        Edit::AddAttribute(_, s) => format!(
            "added attribute {}",
            s.split_whitespace().next().unwrap_or("")
        ),
        Edit::AddRelationship(s) => format!(
            "added relationship {}",
            s.split(':').next().unwrap_or("").trim()
        ),
        Edit::AddQuery(..) => format!("added {}", edit::next_query_id(&app.project)),
        Edit::Rename(_, n) => format!("renamed to {n}"),
        Edit::Delete(_) => "deleted".into(),
        Edit::DeleteWithReferences(_) => "deleted with the queries using it".into(),
        Edit::Move(_, up) => format!("moved {}", if *up { "up" } else { "down" }),
        Edit::SetRows(i, r) => {
            let gone = crate::edit::rows::dropped(&app.project, *i, r);
            if gone.is_empty() {
                format!("{} rows: {r}; its search, order and returns all kept", q(i))
            } else {
                let list: Vec<String> = gone
                    .iter()
                    .map(|d| format!("{} {} ({})", d.part, d.reference, d.why))
                    .collect();
                format!("{} rows: {r}; dropped {}", q(i), list.join("; "))
            }
        }
        Edit::SetEquality(i, _) | Edit::SetSearch(i, ..) => {
            format!("{} equality search", q(i))
        }
        Edit::SetRange(i, _) => format!("{} range search", q(i)),
        Edit::SetOrder(i, _) => format!("{} ordering", q(i)),
        Edit::SetReturns(i, _) => format!("{} returned attributes", q(i)),
        Edit::AddTransition(a, b) => format!("transition {a} → {b}"),
        Edit::ToggleEntry(i) => {
            let on = app
                .project
                .queries
                .get(*i)
                .is_some_and(|x| app.project.workflow.entry.contains(&x.id));
            // The label says what the toggle does, computed before it runs.
            format!("{} entry point {}", q(i), if on { "off" } else { "on" })
        }
        Edit::PinName(_, n) => format!("pinned name {n}"),
        Edit::Refine(r) => r.label(),
        Edit::UseCandidate(q, None) => format!("{q}'s table uses the derived key"),
        Edit::UseCandidate(q, Some(c)) => format!("{q}'s table uses key {c}"),
        Edit::Flip(_, c) => format!("flipped {c}"),
        Edit::Merge(_, into) => format!("merged into {into}'s table"),
        Edit::Split(q, _) => format!("split {} into own tables", q.join(", ")),
        Edit::Replace(t, _) => format!("edited {}", t.label(&app.project)),
        Edit::AddNote(..) => "added note".into(),
        Edit::AddWaiver(w) => format!("waived [{}] on {}", w.rule, w.subject),
        Edit::SetNumbers(item, _) => format!("figures of {}", item_label(app, *item)),
        Edit::SetType(n, a, ty) => {
            let owner = match n {
                crate::model::resolve::NodeId::Entity(e) => {
                    app.project.entities.get(*e).map(|x| &x.attributes)
                }
                crate::model::resolve::NodeId::Rel(r) => {
                    app.project.relationships.get(*r).map(|x| &x.attributes)
                }
            };
            let name = owner
                .and_then(|l| l.get(*a))
                .map_or("?", |x| x.name.as_str());
            format!("{name} is {ty}")
        }
        Edit::SetKey(e, key) => format!(
            "key of {}: {}",
            app.project
                .entities
                .get(*e)
                .map_or("?", |x| x.name.as_str()),
            key.join(", ")
        ),
        Edit::SetOwners(e, owners) => {
            let name = app
                .project
                .entities
                .get(*e)
                .map_or("?", |x| x.name.as_str());
            if owners.is_empty() {
                format!("{name} has no owner: a strong entity")
            } else {
                format!("{name} identified by {}", owners.join(", "))
            }
        }
        Edit::SetLimit(i, Some(n)) => format!("{} LIMIT {n}", q(i)),
        Edit::SetLimit(i, None) => format!("{} without LIMIT", q(i)),
        Edit::SetFeeds(t, feeds) => {
            let x = app.project.workflow.transitions.get(*t);
            format!(
                "transition {} → {} feeds {}",
                x.map_or("?", |x| x.from.as_str()),
                x.map_or("?", |x| x.to.as_str()),
                if feeds.is_empty() {
                    "nothing".to_string()
                } else {
                    feeds.join(", ")
                }
            )
        }
        Edit::Restore(_) => "restored".into(),
    }
}
