//! The cascading project edits, as pure functions: renames carry
//! every reference along (queries, transitions, decisions, notes) so a
//! rename never breaks the model; deletions take what only existed for the
//! deleted item with them. The caller validates the result and refuses it,
//! saying why, when the core would reject it.

use crate::model::resolve::{AttrId, AttrRef, Graph, NodeId};
use crate::model::{Attribute, Cardinality, CqlType, Entity, Project, Relationship, Target};

/// Rewrites every attribute reference: the closure gets the query's root
/// node, the reference and returns a replacement.
fn map_refs(p: &mut Project, mut f: impl FnMut(&Graph, NodeId, &str) -> Option<String>) {
    let snapshot = p.clone();
    let graph = Graph::new(&snapshot);
    for q in &mut p.queries {
        let Some(root) = graph.node(&q.rows) else {
            continue;
        };
        let mut fix = |s: &mut String| {
            if let Some(n) = f(&graph, root, s) {
                *s = n;
            }
        };
        q.equality.iter_mut().for_each(&mut fix);
        if let Some(r) = q.range.as_mut() {
            fix(&mut r.attr);
        }
        q.order.iter_mut().for_each(|o| fix(&mut o.attr));
        q.returns.iter_mut().for_each(&mut fix);
        q.constants.iter_mut().for_each(|k| fix(&mut k.attr));
        q.aggregates
            .iter_mut()
            .filter_map(|a| a.attr.as_mut())
            .for_each(&mut fix);
        if let Some(w) = q.window.as_mut() {
            fix(&mut w.attr);
        }
        q.calendar.iter_mut().for_each(|x| fix(&mut x.attr));
        for m in &mut q.meets {
            for side in [&mut m.0, &mut m.1] {
                fix_meet(&graph, side, &mut fix);
            }
        }
    }
    for t in &mut p.workflow.transitions {
        let Some(root) = snapshot.query(&t.from).and_then(|q| graph.node(&q.rows)) else {
            continue;
        };
        for s in &mut t.feeds {
            if let Some(n) = f(&graph, root, s) {
                *s = n;
            }
        }
    }
}

/// A side of a query's `meets` through `fix`: one written without its
/// attribute (`User via owns`) goes through as the reference validation
/// resolves ([`Graph::meet_reference`]) and comes back without it.
fn fix_meet(graph: &Graph, side: &mut String, fix: &mut impl FnMut(&mut String)) {
    let head = side.split_once(" via ").map_or(side.as_str(), |(h, _)| h);
    if head.contains('.') {
        return fix(side);
    }
    let Ok(mut text) = graph.meet_reference(side) else {
        return;
    };
    fix(&mut text);
    let Ok(back) = AttrRef::parse(&text) else {
        return;
    };
    let owner = back.owner.unwrap_or_default();
    *side = if back.via.is_empty() {
        owner
    } else {
        format!("{owner} via {}", back.via.join(", "))
    };
}

pub fn rename_entity(p: &mut Project, ei: usize, new: &str) -> Result<(), String> {
    let old = p.entities.get(ei).ok_or("no such entity")?.name.clone();
    map_refs(p, |_, _, s| {
        let mut r = AttrRef::parse(s).ok()?;
        (r.owner.as_deref() == Some(old.as_str())).then(|| {
            r.owner = Some(new.to_string());
            r.to_string()
        })
    });
    p.entities[ei].name = new.to_string();
    for r in &mut p.relationships {
        if r.from == old {
            r.from = new.to_string();
        }
        if r.to == old {
            r.to = new.to_string();
        }
    }
    for q in p.queries.iter_mut().filter(|q| q.rows == old) {
        q.rows = new.to_string();
    }
    for n in &mut p.notes {
        if n.target == Target::Entity(old.clone()) {
            n.target = Target::Entity(new.to_string());
        }
    }
    Ok(())
}

pub(crate) fn rename_attribute(
    p: &mut Project,
    owner: NodeId,
    ai: usize,
    new: &str,
) -> Result<(), String> {
    let target = match owner {
        NodeId::Entity(e) => AttrId::Entity(e, ai),
        NodeId::Rel(r) => AttrId::Rel(r, ai),
    };
    let old = match owner {
        NodeId::Entity(e) => p.entities.get(e).and_then(|x| x.attributes.get(ai)),
        NodeId::Rel(r) => p.relationships.get(r).and_then(|x| x.attributes.get(ai)),
    }
    .ok_or("no such attribute")?
    .name
    .clone();
    map_refs(p, |g, root, s| {
        let reached = g.resolve(root, s).ok()?;
        if reached.attr != target {
            return None;
        }
        let mut r = AttrRef::parse(s).ok()?;
        r.attr = new.to_string();
        Some(r.to_string())
    });
    match owner {
        NodeId::Entity(e) => {
            let ent = &mut p.entities[e];
            ent.attributes[ai].name = new.to_string();
            for k in ent.key.iter_mut().filter(|k| **k == old) {
                *k = new.to_string();
            }
        }
        NodeId::Rel(r) => p.relationships[r].attributes[ai].name = new.to_string(),
    }
    Ok(())
}

pub(crate) fn rename_relationship(p: &mut Project, ri: usize, new: &str) -> Result<(), String> {
    let old = p
        .relationships
        .get(ri)
        .ok_or("no such relationship")?
        .name
        .clone();
    map_refs(p, |_, _, s| {
        let mut r = AttrRef::parse(s).ok()?;
        let mut changed = r.owner.as_deref() == Some(old.as_str());
        if changed {
            r.owner = Some(new.to_string());
        }
        for v in r.via.iter_mut().filter(|v| **v == old) {
            *v = new.to_string();
            changed = true;
        }
        changed.then(|| r.to_string())
    });
    p.relationships[ri].name = new.to_string();
    for e in &mut p.entities {
        if e.owner.as_deref() == Some(old.as_str()) {
            e.owner = Some(new.to_string());
        }
        for o in e.owners.iter_mut().filter(|o| **o == old) {
            *o = new.to_string();
        }
    }
    for q in p.queries.iter_mut().filter(|q| q.rows == old) {
        q.rows = new.to_string();
    }
    for d in &mut p.decisions {
        for c in d.collections.iter_mut().filter(|c| **c == old) {
            *c = new.to_string();
        }
    }
    for n in &mut p.notes {
        if n.target == Target::Relationship(old.clone()) {
            n.target = Target::Relationship(new.to_string());
        }
    }
    Ok(())
}

pub(crate) fn rename_query(p: &mut Project, qi: usize, new: &str) -> Result<(), String> {
    let old = p.queries.get(qi).ok_or("no such query")?.id.clone();
    let swap = |s: &mut String| {
        if *s == old {
            *s = new.to_string();
        }
    };
    p.queries[qi].id = new.to_string();
    p.workflow.entry.iter_mut().for_each(swap);
    for t in &mut p.workflow.transitions {
        swap(&mut t.from);
        swap(&mut t.to);
    }
    for d in &mut p.decisions {
        swap(&mut d.query);
        if let Some(s) = d.served_by.as_mut() {
            swap(s);
        }
    }
    for n in &mut p.notes {
        if n.target == Target::Query(old.clone()) {
            n.target = Target::Query(new.to_string());
        }
    }
    Ok(())
}

/// Removes a query with its place in the workflow, its decision and notes;
/// queries it served keep their own tables again.
pub(crate) fn delete_query(p: &mut Project, qi: usize) -> Result<(), String> {
    if qi >= p.queries.len() {
        return Err("no such query".into());
    }
    let id = p.queries.remove(qi).id.clone();
    p.workflow.entry.retain(|e| *e != id);
    p.workflow
        .transitions
        .retain(|t| t.from != id && t.to != id);
    p.decisions.retain(|d| d.query != id);
    for d in &mut p.decisions {
        if d.served_by.as_deref() == Some(id.as_str()) {
            d.served_by = None;
        }
    }
    p.prune_decisions();
    p.notes.retain(|n| n.target != Target::Query(id.clone()));
    Ok(())
}

/// Removes an entity, the relationships that touch it and its notes. Queries
/// that still use it make the result invalid, which the caller reports.
pub(crate) fn delete_entity(p: &mut Project, ei: usize) -> Result<(), String> {
    if ei >= p.entities.len() {
        return Err("no such entity".into());
    }
    let name = p.entities.remove(ei).name;
    let gone: Vec<String> = p
        .relationships
        .iter()
        .filter(|r| r.from == name || r.to == name)
        .map(|r| r.name.clone())
        .collect();
    p.relationships.retain(|r| r.from != name && r.to != name);
    p.notes.retain(|n| {
        n.target != Target::Entity(name.clone())
            && !matches!(&n.target, Target::Relationship(r) if gone.contains(r))
    });
    Ok(())
}

pub(crate) fn delete_attribute(p: &mut Project, owner: NodeId, ai: usize) -> Result<(), String> {
    match owner {
        NodeId::Entity(e) => {
            let ent = p.entities.get_mut(e).ok_or("no such entity")?;
            if ai >= ent.attributes.len() {
                return Err("no such attribute".into());
            }
            let a = ent.attributes.remove(ai);
            ent.key.retain(|k| *k != a.name);
        }
        NodeId::Rel(r) => {
            let rel = p.relationships.get_mut(r).ok_or("no such relationship")?;
            if ai >= rel.attributes.len() {
                return Err("no such attribute".into());
            }
            rel.attributes.remove(ai);
        }
    }
    Ok(())
}

pub(crate) fn delete_relationship(p: &mut Project, ri: usize) -> Result<(), String> {
    if ri >= p.relationships.len() {
        return Err("no such relationship".into());
    }
    let name = p.relationships.remove(ri).name;
    p.notes
        .retain(|n| n.target != Target::Relationship(name.clone()));
    Ok(())
}

/// Swaps an element with its neighbour; `false` at either end.
pub(crate) fn move_in<T>(v: &mut [T], i: usize, up: bool) -> bool {
    let j = if up { i.checked_sub(1) } else { Some(i + 1) };
    match j {
        Some(j) if j < v.len() && i < v.len() => {
            v.swap(i, j);
            true
        }
        _ => false,
    }
}

/// A new entity with a generated uuid key (`hotel_id` for `Hotel`), so it
/// is valid from the first keystroke and the designer only renames.
pub(crate) fn new_entity(name: &str) -> Entity {
    let base = crate::model::naming::snake_case(name);
    let key = if base.is_empty() {
        "id".to_string()
    } else {
        format!("{base}_id")
    };
    Entity {
        name: name.to_string(),
        short: None,
        plural: None,
        owner: None,
        owners: vec![],
        key: vec![key.clone()],
        unique: vec![],
        attributes: vec![Attribute::new(
            &key,
            CqlType::Native(crate::model::Native::Uuid),
        )],
        count: None,
        per: None,
        retention_days: None,
        retention_unit: None,
        ttl: false,
        updates: None,
    }
}

/// `name type` or `name: type` (type defaults to text).
pub(crate) fn parse_attribute(text: &str) -> Result<Attribute, String> {
    let text = text.trim();
    let (name, ty) = match text.split_once(|c: char| c == ':' || c.is_whitespace()) {
        Some((n, t)) => (n.trim(), t.trim()),
        None => (text, ""),
    };
    if name.is_empty() {
        return Err("type a name, then optionally a type: `name text`".into());
    }
    let ty = if ty.is_empty() {
        CqlType::text()
    } else {
        ty.parse::<CqlType>().map_err(|e| format!("type: {e}"))?
    };
    Ok(Attribute::new(name, ty))
}

/// `name: From 1:n To` (also `1:1`, `m:n`).
pub(crate) fn parse_relationship(text: &str) -> Result<Relationship, String> {
    let usage = "write `name: From 1:n To` (1:1, 1:n or m:n)";
    let (name, rest) = text.split_once(':').ok_or(usage)?;
    let parts: Vec<&str> = rest.split_whitespace().collect();
    let [from, card, to] = parts[..] else {
        return Err(usage.into());
    };
    let cardinality = match card {
        "1:1" => Cardinality::OneToOne,
        "1:n" | "1:N" | "1:m" => Cardinality::OneToMany,
        "m:n" | "n:m" | "M:N" | "m:m" => Cardinality::ManyToMany,
        _ => return Err(usage.into()),
    };
    let name = name.trim();
    if name.is_empty() {
        return Err(usage.into());
    }
    Ok(Relationship {
        name: name.to_string(),
        from: from.to_string(),
        to: to.to_string(),
        cardinality,
        to_per_from: None,
        from_per_to: None,
        attributes: vec![],
        written_by_job: false,
        updates: None,
    })
}

/// The next free query id: `Q{n}` after the highest number in use.
pub(crate) fn next_query_id(p: &Project) -> String {
    let n = p
        .queries
        .iter()
        .filter_map(|q| q.id.strip_prefix('Q').and_then(|d| d.parse::<u32>().ok()))
        .max()
        .unwrap_or(0);
    format!("Q{}", n + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load;

    fn hotel() -> Project {
        load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("sample")
    }

    #[test]
    fn renames_reach_constants_aggregates_and_windows() {
        let text = include_str!("../../sample-projects/clickstream.cqlm.ron");
        let mut p = load::from_str(text).expect("sample");
        let (e, session) = (2, 1);
        let element = p.entities[e]
            .attributes
            .iter()
            .position(|a| a.name == "element")
            .expect("element");
        rename_attribute(&mut p, NodeId::Entity(e), element, "widget").expect("rename");
        let duration = p.entities[session]
            .attributes
            .iter()
            .position(|a| a.name == "duration_seconds")
            .expect("duration");
        rename_attribute(&mut p, NodeId::Entity(session), duration, "seconds").expect("rename");
        rename_attribute(&mut p, NodeId::Entity(session), 0, "sid").expect("rename");
        assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
        let q = |id: &str| p.query(id).expect("query");
        assert_eq!(q("Q7").constants[0].attr, "widget");
        assert_eq!(q("Q6").aggregates[0].attr.as_deref(), Some("seconds"));
        assert_eq!(
            q("Q6").window.as_ref().map(|w| w.attr.as_str()),
            Some("sid")
        );
    }

    #[test]
    fn renames_keep_the_project_valid() {
        let mut p = hotel();
        rename_entity(&mut p, 0, "Inn").expect("rename");
        assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
        assert!(p.queries[2].equality.contains(&"Inn.hotel_id".to_string()));
        rename_attribute(&mut p, NodeId::Entity(0), 0, "inn_id").expect("rename");
        assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
        assert_eq!(p.entities[0].key, vec!["inn_id".to_string()]);
        rename_relationship(&mut p, 1, "rooms_of").expect("rename");
        assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
        rename_query(&mut p, 0, "Q01").expect("rename");
        assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
        assert_eq!(p.workflow.entry[0], "Q01");
    }

    #[test]
    fn deleting_a_query_cleans_up_after_it() {
        let mut p = hotel();
        let q6 = p.queries.iter().position(|q| q.id == "Q6").expect("Q6");
        delete_query(&mut p, q6).expect("delete");
        assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
        assert!(p.decision("Q6").is_none());
    }

    #[test]
    fn deleting_a_used_entity_is_invalid() {
        let mut p = hotel();
        delete_entity(&mut p, 0).expect("delete");
        assert!(!load::validate(&p).is_empty());
    }

    #[test]
    fn parsers_accept_the_prompts_forms() {
        assert_eq!(
            parse_attribute("rate decimal").map(|a| a.ty.to_string()),
            Ok("decimal".into())
        );
        assert_eq!(
            parse_attribute("name").map(|a| a.ty.to_string()),
            Ok("text".into())
        );
        assert!(parse_attribute("x map<").is_err());
        let r = parse_relationship("near: Hotel m:n PointOfInterest").expect("rel");
        assert_eq!(r.cardinality, Cardinality::ManyToMany);
        assert!(parse_relationship("near Hotel").is_err());
        assert_eq!(next_query_id(&hotel()), "Q10");
    }
}

/// Deletes an item together with what still uses it: the weak entities
/// identified through a relationship that went (with their own
/// dependants), and the queries that no longer resolve (with their
/// transitions and decisions). Returns what went besides the item, as
/// `entity Room` / `query Q3`, so the designer sees it before choosing.
/// Fails when that does not make the project valid again.
pub(crate) fn delete_with_references(
    p: &mut Project,
    item: super::Item,
) -> Result<Vec<String>, String> {
    use crate::model::load::validate;
    super::apply_edit(p, &super::Edit::Delete(item))?;
    let mut gone = Vec::new();
    loop {
        let problems = validate(p);
        let Some(first) = problems.first() else {
            return Ok(gone);
        };
        let mut progressed = false;
        // Weak entities whose identifying relationship went go too.
        let orphan = p.entities.iter().position(|e| {
            e.owner
                .iter()
                .chain(&e.owners)
                .any(|o| !p.relationships.iter().any(|r| &r.name == o))
        });
        if let Some(e) = orphan {
            gone.push(format!("entity {}", p.entities[e].name));
            delete_entity(p, e)?;
            continue;
        }
        // Queries whose references broke: the problems name them by index.
        let mut broken: Vec<usize> = problems
            .iter()
            .filter_map(|x| query_index(&x.path))
            .filter(|&q| q < p.queries.len())
            .collect();
        broken.sort_unstable();
        broken.dedup();
        for &q in broken.iter().rev() {
            gone.push(format!("query {}", p.queries[q].id));
            delete_query(p, q)?;
            progressed = true;
        }
        if !progressed {
            return Err(format!("removing what uses it is not enough: {first}"));
        }
    }
}

/// `queries[3].equality[0]` → 3.
fn query_index(path: &str) -> Option<usize> {
    let rest = path.strip_prefix("queries[")?;
    rest[..rest.find(']')?].parse().ok()
}

#[cfg(test)]
mod cascade_tests {
    use super::*;
    use crate::edit::{apply, Edit, Item};
    use crate::model::load;

    #[test]
    fn deleting_a_used_entity_takes_the_queries_that_use_it() {
        let p =
            load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("sample");
        let mut plain = p.clone();
        apply(&mut plain, &Edit::Delete(Item::Entity(0))).expect("applies");
        assert!(
            !load::validate(&plain).is_empty(),
            "a plain delete leaves references"
        );
        let mut q = p.clone();
        let gone = delete_with_references(&mut q, Item::Entity(0)).expect("cascade");
        assert!(load::validate(&q).is_empty());
        // The weak entities identified through the hotel go with it.
        assert!(gone.contains(&"entity Room".to_string()), "{gone:?}");
        let queries: Vec<&str> = gone
            .iter()
            .filter_map(|g| g.strip_prefix("query "))
            .collect();
        assert!(!queries.is_empty(), "{gone:?}");
        for id in &queries {
            assert!(p.query(id).is_some() && q.query(id).is_none(), "{id}");
        }
        // The queries that stay were not needed to go.
        assert_eq!(q.queries.len() + queries.len(), p.queries.len());
        assert_eq!(query_index("queries[12].order[0]"), Some(12));
        assert_eq!(query_index("entities[1].owner"), None);
        // As an edit it is undone like any other.
        let mut r = p.clone();
        let inverse = apply(&mut r, &Edit::DeleteWithReferences(Item::Entity(0))).expect("edit");
        assert_eq!(r, q);
        apply(&mut r, &inverse).expect("undo");
        assert_eq!(r, p);
    }
}
