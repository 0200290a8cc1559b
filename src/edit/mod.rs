//! Every change to a project is an [`Edit`]: [`apply`] validates what it
//! can on its own, makes the change and returns the inverse edit, so undo
//! keeps edits rather than copies of the project. Renames carry every
//! reference along and deletions take their dependents (`cascade`); what an
//! edit addresses is an [`Item`] or an [`EditTarget`].

mod admit;
pub mod cascade;
pub mod history;
pub mod links;
pub mod numbers;
pub mod refine;
pub mod rows;
mod sections;
pub mod target;

pub(crate) use admit::{keeps_cql_valid, would_admit};
pub use admit::{validated, validated_after, Refusal};
pub(crate) use cascade::next_query_id;
pub use cascade::rename_entity;
pub use sections::Sections;
pub use target::{EditTarget, Item};

use crate::model::resolve::{Graph, NodeId};
use crate::model::{Attribute, Dir, Note, Order, Project, Query, Range, Target, Transition};
use crate::review::diagnose::Refinement;

/// A change to the project. [`apply`] makes it and returns its inverse;
/// the workbench validates the result and keeps it in its [`History`](crate::edit::history::History).
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    AddEntity(String),
    AddAttribute(NodeId, String),
    AddRelationship(String),
    AddQuery(String, String),
    Rename(Item, String),
    Delete(Item),
    Move(Item, bool),
    SetRows(usize, String),
    SetEquality(usize, Vec<String>),
    /// A query's equality attributes and calendar parts together, as the
    /// `=` picker sets them.
    SetSearch(usize, Vec<String>, Vec<crate::model::CalendarPart>),
    SetRange(usize, Option<String>),
    SetOrder(usize, Vec<(String, Dir)>),
    SetReturns(usize, Vec<String>),
    AddTransition(String, String),
    ToggleEntry(usize),
    PinName(String, String),
    /// A refinement of a table's decision (bucket, shard, promotion…).
    Refine(Refinement),
    /// The candidate key the table of a query uses; `None` is the derived key.
    UseCandidate(String, Option<String>),
    Flip(String, String),
    Merge(Vec<String>, String),
    /// Gives queries tables of their own: undoes the `served_by` merges of
    /// the first list and keeps the second's tables apart (`separate`).
    /// Made by [`split`], which says which need keeping apart.
    Split(Vec<String>, Vec<String>),
    Replace(EditTarget, String),
    AddNote(Target, String),
    /// Waives a review finding (rule, subject, reason); a waiver of the
    /// same finding is replaced, so waiving again rewords the reason.
    AddWaiver(crate::model::Waiver),
    /// Deletes an item and the queries that still use it.
    DeleteWithReferences(Item),
    /// The figures estimates rest on (count, sizes, per-side counts).
    SetNumbers(Item, numbers::Numbers),
    /// An attribute's type, as CQL text (`text`, `list<int>`,
    /// `map<text, frozen<address>>`), of an entity's or relationship's
    /// attribute by index.
    SetType(NodeId, usize, String),
    /// An entity's key attributes, in order (several: a composite key).
    SetKey(usize, Vec<String>),
    /// The relationships that identify an entity: the first is its
    /// `owner`, the others its further `owners`; none makes it strong.
    SetOwners(usize, Vec<String>),
    /// A query's LIMIT; `None` has none.
    SetLimit(usize, Option<u32>),
    /// The attributes a transition's source query hands to its target.
    SetFeeds(usize, Vec<String>),
    /// Puts back the parts of the project a change replaced: the inverse
    /// of the edits whose effect reaches too far for a smaller one.
    Restore(Box<Sections>),
}

impl Edit {
    /// Whether the edit can succeed and leave the project as it was (a
    /// pick of what is already there, text saved unchanged). Only such
    /// edits pay for comparing the whole project before and after.
    pub(crate) fn may_be_noop(&self) -> bool {
        !matches!(
            self,
            Edit::AddEntity(_)
                | Edit::AddAttribute(..)
                | Edit::AddRelationship(_)
                | Edit::AddQuery(..)
                | Edit::Delete(_)
                | Edit::DeleteWithReferences(_)
                | Edit::Move(..)
                | Edit::AddTransition(..)
                | Edit::ToggleEntry(_)
                | Edit::Flip(..)
                | Edit::AddNote(..)
        )
    }
}

/// Takes `queries` out of `served_by` merges; says whether any was in one.
fn unmerge(p: &mut Project, queries: &[String]) -> bool {
    let mut changed = false;
    for q in queries {
        if let Some(d) = p.decisions.iter_mut().find(|d| &d.query == q) {
            changed |= d.served_by.take().is_some();
        }
    }
    changed
}

/// The project with `queries` out of their `served_by` merges, when any
/// was in one: the project whose model [`split`] reads. `None` when none
/// was (the current model is that model).
pub fn unmerged(p: &Project, queries: &[String]) -> Option<Project> {
    let merged = |q: &String| p.decision(q).is_some_and(|d| d.served_by.is_some());
    queries.iter().any(merged).then(|| {
        let mut next = p.clone();
        unmerge(&mut next, queries);
        next
    })
}

/// The [`Edit::Split`] of `queries`, given `model`, the model of the
/// project with them out of their merges ([`unmerged`], or the current
/// model when none was merged): a query still sharing a table there is
/// kept apart. The edit itself then derives nothing.
pub fn split(queries: Vec<String>, model: &crate::derive::LogicalModel) -> Edit {
    let apart = queries
        .iter()
        .filter(|q| {
            model
                .plan(q)
                .and_then(|pl| pl.table)
                .and_then(|t| model.tables.get(t))
                .is_some_and(|t| t.queries.len() > 1)
        })
        .cloned()
        .collect();
    Edit::Split(queries, apart)
}

/// Applies an edit to a project without working out its inverse (which
/// for most edits means a copy of the project): for callers that keep
/// their own undo, as the workbench does.
pub fn apply_edit(p: &mut Project, e: &Edit) -> Result<(), String> {
    change(p, e)
}

/// Applies an edit to a project and returns the edit that undoes it:
/// applied to the changed project, the inverse gives the project back.
/// Edits that set one field of a query answer with the old value; edits
/// whose effect cascades (renames, deletions, refinements) answer with the
/// sections of the project they replaced. On error the project may be
/// partly changed: callers apply to a copy.
pub fn apply(p: &mut Project, e: &Edit) -> Result<Edit, String> {
    let inverse = match e {
        Edit::Move(item, up) => Edit::Move(shifted(*item, *up), !*up),
        Edit::SetEquality(q, _) => Edit::SetEquality(
            *q,
            p.queries.get(*q).ok_or("no such query")?.equality.clone(),
        ),
        Edit::SetSearch(q, ..) => {
            let query = p.queries.get(*q).ok_or("no such query")?;
            Edit::SetSearch(*q, query.equality.clone(), query.calendar.clone())
        }
        Edit::SetOrder(q, _) => Edit::SetOrder(
            *q,
            p.queries
                .get(*q)
                .ok_or("no such query")?
                .order
                .iter()
                .map(|o| (o.attr.clone(), o.dir))
                .collect(),
        ),
        Edit::SetReturns(q, _) => Edit::SetReturns(
            *q,
            p.queries.get(*q).ok_or("no such query")?.returns.clone(),
        ),
        Edit::Restore(sections) => return Ok(Edit::Restore(Box::new(sections.apply(p)))),
        _ => {
            let before = p.clone();
            change(p, e)?;
            return Ok(Edit::Restore(Box::new(Sections::between(p, &before))));
        }
    };
    change(p, e)?;
    Ok(inverse)
}

/// Where a moved item ends up.
pub(crate) fn shifted(item: Item, up: bool) -> Item {
    let step = |i: usize| if up { i.saturating_sub(1) } else { i + 1 };
    match item {
        Item::Entity(e) => Item::Entity(step(e)),
        Item::Attribute(e, a) => Item::Attribute(e, step(a)),
        Item::Relationship(r) => Item::Relationship(step(r)),
        Item::RelAttribute(r, a) => Item::RelAttribute(r, step(a)),
        Item::Query(q) => Item::Query(step(q)),
        Item::Transition(t) => Item::Transition(step(t)),
        other => other,
    }
}

/// The attribute list of an entity or a relationship.
fn attributes_of(p: &mut Project, owner: NodeId) -> Result<&mut Vec<Attribute>, String> {
    Ok(match owner {
        NodeId::Entity(e) => &mut p.entities.get_mut(e).ok_or("no such entity")?.attributes,
        NodeId::Rel(r) => {
            &mut p
                .relationships
                .get_mut(r)
                .ok_or("no such relationship")?
                .attributes
        }
    })
}

/// [`Edit::Rename`]: the item and every reference to it.
fn rename(p: &mut Project, item: Item, new: &str) -> Result<(), String> {
    let new = new.trim();
    match item {
        Item::Entity(e) => cascade::rename_entity(p, e, new)?,
        Item::Attribute(e, a) => cascade::rename_attribute(p, NodeId::Entity(e), a, new)?,
        Item::Relationship(r) => cascade::rename_relationship(p, r, new)?,
        Item::RelAttribute(r, a) => cascade::rename_attribute(p, NodeId::Rel(r), a, new)?,
        Item::Query(q) => {
            // `Q3 New sentence` changes both; a lone word is the id
            // when it looks like one, otherwise the sentence.
            let (id, text) = match new.split_once(char::is_whitespace) {
                Some((id, t)) if !id.is_empty() && id.len() <= 8 => {
                    (id.to_string(), Some(t.trim().to_string()))
                }
                _ if !new.contains(' ') && new.len() <= 8 => (new.to_string(), None),
                _ => (
                    p.queries.get(q).ok_or("no such query")?.id.clone(),
                    Some(new.to_string()),
                ),
            };
            cascade::rename_query(p, q, &id)?;
            if let Some(t) = text {
                p.queries[q].text = t;
            }
        }
        Item::Table(_) | Item::Column(..) | Item::Transition(_) => {
            return Err("rename tables with n (pin a name)".into())
        }
    }
    Ok(())
}

/// [`Edit::Delete`]: the item, refused while something still needs it.
fn delete(p: &mut Project, item: Item) -> Result<(), String> {
    match item {
        Item::Entity(e) => cascade::delete_entity(p, e)?,
        Item::Attribute(e, a) => cascade::delete_attribute(p, NodeId::Entity(e), a)?,
        Item::Relationship(r) => cascade::delete_relationship(p, r)?,
        Item::RelAttribute(r, a) => cascade::delete_attribute(p, NodeId::Rel(r), a)?,
        Item::Query(q) => cascade::delete_query(p, q)?,
        Item::Transition(t) => {
            if t >= p.workflow.transitions.len() {
                return Err("no such transition".into());
            }
            p.workflow.transitions.remove(t);
        }
        Item::Table(_) | Item::Column(..) => {
            return Err(
                "tables follow from queries: delete the query, or merge the table (m)".into(),
            )
        }
    }
    Ok(())
}

/// [`Edit::Move`]: one place up or down in its list.
fn move_item(p: &mut Project, item: Item, up: bool) -> Result<(), String> {
    let moved = match item {
        Item::Entity(e) => cascade::move_in(&mut p.entities, e, up),
        Item::Attribute(e, a) => cascade::move_in(
            &mut p.entities.get_mut(e).ok_or("no entity")?.attributes,
            a,
            up,
        ),
        Item::Relationship(r) => cascade::move_in(&mut p.relationships, r, up),
        Item::RelAttribute(r, a) => cascade::move_in(
            &mut p
                .relationships
                .get_mut(r)
                .ok_or("no relationship")?
                .attributes,
            a,
            up,
        ),
        Item::Query(q) => cascade::move_in(&mut p.queries, q, up),
        Item::Transition(t) => cascade::move_in(&mut p.workflow.transitions, t, up),
        Item::Table(_) | Item::Column(..) => false,
    };
    if !moved {
        return Err("cannot move further".into());
    }
    Ok(())
}

fn change(p: &mut Project, e: &Edit) -> Result<(), String> {
    match e {
        Edit::AddEntity(name) => {
            let name = name.trim();
            if p.entity(name).is_some() {
                return Err(format!("there is already an entity {name}"));
            }
            p.entities.push(cascade::new_entity(name));
        }
        Edit::AddAttribute(owner, spec) => {
            let a = cascade::parse_attribute(spec)?;
            let list = attributes_of(p, *owner)?;
            if list.iter().any(|x| x.name == a.name) {
                return Err(format!("there is already an attribute {}", a.name));
            }
            list.push(a);
        }
        Edit::AddRelationship(spec) => {
            let r = cascade::parse_relationship(spec)?;
            if p.relationship(&r.name).is_some() {
                return Err(format!("there is already a relationship {}", r.name));
            }
            p.relationships.push(r);
        }
        Edit::AddQuery(text, rows) => {
            let id = cascade::next_query_id(p);
            let mut q = Query::new(&id, text, rows);
            // Start from the rows' own attributes so the query is valid and
            // its table appears at once; the designer narrows it down.
            let graph = Graph::new(p);
            let root = graph
                .node(rows)
                .ok_or_else(|| format!("no entity or relationship {rows}"))?;
            q.returns = graph
                .attributes(root)
                .iter()
                .map(|a| a.name.clone())
                .collect();
            if q.returns.is_empty() {
                q.returns = graph.offered(root, 1).into_iter().take(1).collect();
            }
            p.queries.push(q.into());
            if p.workflow.entry.is_empty() {
                p.workflow.entry.push(id);
            }
        }
        Edit::Rename(item, new) => rename(p, *item, new)?,
        Edit::Delete(item) => delete(p, *item)?,
        Edit::Move(item, up) => move_item(p, *item, *up)?,
        // References were relative to the old rows: those that still
        // resolve stay (`rows::dropped` names the others).
        Edit::SetRows(q, rows) => rows::set(p, *q, rows)?,
        Edit::SetEquality(q, v) => {
            p.queries
                .get_mut(*q)
                .ok_or("no such query")?
                .equality
                .clone_from(v);
        }
        Edit::SetSearch(q, eq, calendar) => {
            let query = p.queries.get_mut(*q).ok_or("no such query")?;
            query.equality.clone_from(eq);
            query.calendar.clone_from(calendar);
        }
        Edit::SetRange(q, r) => {
            p.queries.get_mut(*q).ok_or("no such query")?.range = r.as_ref().map(|a| Range {
                attr: a.clone(),
                op: crate::model::RangeOp::default(),
            });
        }
        Edit::SetOrder(q, v) => {
            p.queries.get_mut(*q).ok_or("no such query")?.order = v
                .iter()
                .map(|(a, d)| Order {
                    attr: a.clone(),
                    dir: *d,
                })
                .collect();
        }
        Edit::SetReturns(q, v) => p
            .queries
            .get_mut(*q)
            .ok_or("no such query")?
            .returns
            .clone_from(v),
        Edit::SetType(owner, a, ty) => {
            let ty = ty
                .trim()
                .parse::<crate::model::types::CqlType>()
                .map_err(|e| format!("type: {e}"))?;
            let list = attributes_of(p, *owner)?;
            list.get_mut(*a).ok_or("no such attribute")?.ty = ty;
        }
        Edit::SetKey(e, key) => {
            let entity = p.entities.get_mut(*e).ok_or("no such entity")?;
            if key.is_empty() {
                return Err(format!("{} needs at least one key attribute", entity.name));
            }
            if let Some(k) = key
                .iter()
                .find(|k| !entity.attributes.iter().any(|a| &a.name == *k))
            {
                return Err(format!("{} has no attribute {k}", entity.name));
            }
            entity.key.clone_from(key);
        }
        Edit::SetOwners(e, picked) => {
            let entity = p.entities.get_mut(*e).ok_or("no such entity")?;
            entity.owner = picked.first().cloned();
            entity.owners = picked.iter().skip(1).cloned().collect();
        }
        Edit::SetLimit(q, limit) => {
            if *limit == Some(0) {
                return Err("a LIMIT is a whole number above 0 (empty: none)".into());
            }
            p.queries.get_mut(*q).ok_or("no such query")?.limit = *limit;
        }
        Edit::SetFeeds(t, feeds) => {
            p.workflow
                .transitions
                .get_mut(*t)
                .ok_or("no such transition")?
                .feeds
                .clone_from(feeds);
        }
        Edit::AddTransition(from, to) => {
            if from == to {
                return Err("a transition leads to another query".into());
            }
            if p.workflow
                .transitions
                .iter()
                .any(|t| &t.from == from && &t.to == to)
            {
                return Err(format!("{from} → {to} exists already"));
            }
            p.workflow.transitions.push(Transition {
                from: from.clone(),
                to: to.clone(),
                feeds: vec![],
            });
        }
        Edit::ToggleEntry(q) => {
            let id = p.queries.get(*q).ok_or("no such query")?.id.clone();
            match p.workflow.entry.iter().position(|e| *e == id) {
                Some(i) => {
                    p.workflow.entry.remove(i);
                }
                None => p.workflow.entry.push(id),
            }
        }
        Edit::PinName(q, name) => p.decision_mut(q).name = Some(name.trim().to_string()),
        Edit::Refine(r) => *p = crate::edit::refine::apply(p, r)?,
        Edit::UseCandidate(q, name) => p.decision_mut(q).use_candidate.clone_from(name),
        Edit::Flip(q, column) => {
            let d = p.decision_mut(q);
            match d.flip.iter().position(|c| c == column) {
                Some(i) => {
                    d.flip.remove(i);
                }
                None => d.flip.push(column.clone()),
            }
        }
        Edit::Merge(queries, into) => {
            for q in queries {
                if q == into {
                    continue;
                }
                p.decision_mut(q).served_by = Some(into.clone());
            }
        }
        Edit::Split(queries, apart) => {
            let mut changed = unmerge(p, queries);
            for q in apart {
                if !p.decision(q).is_some_and(|d| d.separate) {
                    p.decision_mut(q).separate = true;
                    changed = true;
                }
            }
            if !changed {
                return Err("the queries have tables of their own already".into());
            }
        }
        Edit::Replace(target, text) => target.replace(p, text)?,
        Edit::AddNote(target, text) => p.notes.push(Note {
            target: target.clone(),
            text: text.clone(),
        }),
        Edit::AddWaiver(w) => {
            if w.reason.trim().is_empty() {
                return Err("a waiver needs a reason".into());
            }
            let waivers = &mut *p.waivers;
            match waivers.iter_mut().find(|x| x.waives(&w.rule, &w.subject)) {
                Some(x) => x.clone_from(w),
                None => waivers.push(w.clone()),
            }
        }
        Edit::SetNumbers(item, n) => numbers::set(p, *item, n)?,
        Edit::DeleteWithReferences(item) => {
            cascade::delete_with_references(p, *item)?;
        }
        Edit::Restore(sections) => {
            sections.apply(p);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load;

    fn hotel() -> Project {
        load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("sample")
    }

    /// Applies `e`, checks it changed the project, then that its inverse
    /// gives the original back and the inverse's inverse the change again.
    fn round_trip(original: &Project, e: &Edit) {
        let mut p = original.clone();
        let inverse = apply(&mut p, e).unwrap_or_else(|err| panic!("{e:?}: {err}"));
        assert_ne!(&p, original, "{e:?} changed nothing");
        let changed = p.clone();
        let mut without_inverse = original.clone();
        apply_edit(&mut without_inverse, e).expect("applies without its inverse too");
        assert_eq!(
            without_inverse, changed,
            "{e:?} without its inverse differs"
        );
        let again = apply(&mut p, &inverse).expect("the inverse applies");
        assert_eq!(&p, original, "the inverse of {e:?} does not undo it");
        apply(&mut p, &again).expect("the inverse's inverse applies");
        assert_eq!(p, changed, "redoing {e:?} differs");
    }

    #[test]
    fn every_edit_kind_is_undone_by_its_inverse() {
        let p = hotel();
        let q1 = p.queries[0].id.clone();
        let q2 = p.queries[1].id.clone();
        let refinement = Refinement::AddShard {
            query: q1.as_str().into(),
            column: "shard".into(),
            count: 4,
        };
        let query_text = EditTarget::Query(0).render(&p).expect("query 0");
        let edits = vec![
            Edit::AddEntity("Spa".into()),
            Edit::AddAttribute(NodeId::Entity(0), "stars int".into()),
            Edit::AddAttribute(NodeId::Rel(0), "distance int".into()),
            Edit::AddRelationship("likes: Guest m:n Hotel".into()),
            Edit::AddQuery("Find rooms".into(), "Room".into()),
            Edit::Rename(Item::Entity(0), "Inn".into()),
            Edit::Rename(Item::Attribute(0, 1), "title".into()),
            Edit::Rename(Item::Relationship(0), "close_to".into()),
            Edit::Rename(Item::Query(0), "Q01 Find hotels".into()),
            Edit::Delete(Item::Query(0)),
            Edit::Delete(Item::Entity(0)),
            Edit::Delete(Item::Attribute(0, 1)),
            Edit::Delete(Item::Relationship(0)),
            Edit::Delete(Item::Transition(0)),
            Edit::Move(Item::Entity(0), false),
            Edit::Move(Item::Attribute(0, 1), true),
            Edit::Move(Item::Query(1), true),
            Edit::Move(Item::Transition(0), false),
            Edit::SetRows(0, "Room".into()),
            Edit::SetEquality(0, vec![]),
            Edit::SetSearch(
                0,
                vec!["name".into()],
                vec![crate::model::CalendarPart {
                    period: crate::model::Period::Day,
                    attr: "name".into(),
                }],
            ),
            Edit::SetRange(0, Some("name".into())),
            Edit::SetOrder(0, vec![("name".into(), Dir::Desc)]),
            Edit::SetReturns(0, vec!["name".into()]),
            Edit::AddTransition(q2.clone(), q1.clone()),
            Edit::ToggleEntry(0),
            Edit::ToggleEntry(1),
            Edit::PinName(q1.clone(), "hotels".into()),
            Edit::Refine(refinement),
            Edit::UseCandidate(q1.clone(), Some("by_name".into())),
            Edit::Flip(q1.clone(), "name".into()),
            Edit::Merge(vec![q2.clone()], q1.clone()),
            Edit::Replace(EditTarget::Query(0), query_text.replace(&q1, "QX")),
            Edit::AddNote(Target::Entity("Hotel".into()), "a note".into()),
            Edit::SetType(NodeId::Entity(0), 1, "list<text>".into()),
            Edit::SetKey(0, vec!["name".into(), "hotel_id".into()]),
            Edit::SetOwners(2, vec![]),
            Edit::SetLimit(0, Some(10)),
            Edit::SetFeeds(0, vec!["name".into()]),
        ];
        for e in edits {
            round_trip(&p, &e);
        }
    }

    #[test]
    fn the_picker_edits_refuse_what_cannot_be() {
        let p = hotel();
        let refused = |e: Edit| {
            let mut q = p.clone();
            apply(&mut q, &e).expect_err("refused")
        };
        assert!(refused(Edit::SetType(NodeId::Entity(0), 0, "list<".into())).contains("type"));
        assert!(refused(Edit::SetKey(0, vec![])).contains("at least one"));
        assert!(refused(Edit::SetKey(0, vec!["nope".into()])).contains("no attribute nope"));
        assert!(refused(Edit::SetLimit(0, Some(0))).contains("above 0"));
        assert!(refused(Edit::SetFeeds(99, vec![])).contains("no such transition"));
    }

    #[test]
    fn splitting_is_undone_by_its_inverse() {
        let mut merged = hotel();
        let q1 = merged.queries[0].id.clone();
        let q2 = merged.queries[1].id.clone();
        apply(&mut merged, &Edit::Merge(vec![q2.clone()], q1)).expect("merge");
        let model =
            crate::derive::derive(&unmerged(&merged, std::slice::from_ref(&q2)).expect("merged"));
        round_trip(&merged, &split(vec![q2], &model));
    }

    #[test]
    fn restoring_sections_is_its_own_round_trip() {
        let p = hotel();
        let mut changed = p.clone();
        changed.name = "Other".into();
        changed.entities.pop();
        let back = Sections::between(&changed, &p);
        assert!(!back.is_empty());
        assert!(Sections::between(&p, &p).is_empty());
        round_trip(&changed, &Edit::Restore(Box::new(back)));
    }

    #[test]
    fn both_ways_is_between_in_each_direction() {
        let p = hotel();
        let mut changed = p.clone();
        changed.name = "Other".into();
        changed.entities.pop();
        changed.workflow.entry.clear();
        let (forth, back) = Sections::both_ways(&p, &changed);
        assert_eq!(forth, Sections::between(&p, &changed));
        assert_eq!(back, Sections::between(&changed, &p));
        assert!(!forth.is_empty());
        let (same, same_back) = Sections::both_ways(&p, &p);
        assert!(same.is_empty() && same_back.is_empty());
    }

    #[test]
    fn a_failed_edit_reports_why() {
        let mut p = hotel();
        assert!(apply(&mut p, &Edit::AddEntity("Hotel".into())).is_err());
        assert!(apply(&mut p, &Edit::SetReturns(99, vec![])).is_err());
        assert!(apply(&mut p, &Edit::Delete(Item::Table(0))).is_err());
    }
}
