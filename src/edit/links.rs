//! What a selected item touches elsewhere in the project and its derived
//! tables: a query's rows, attributes and table; a table's queries and
//! sources; the tables holding an entity, relationship or attribute. The
//! workbench highlights these together.

use crate::derive::{LogicalModel, Source};
use crate::edit::Item;
use crate::model::resolve::{AttrId, Graph, NodeId};
use crate::model::Project;
use std::collections::HashSet;

/// What the current selection touches elsewhere, for linked highlighting.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Links {
    pub entities: HashSet<usize>,
    pub attributes: HashSet<AttrId>,
    pub relationships: HashSet<usize>,
    pub queries: HashSet<String>,
    pub tables: HashSet<usize>,
}

/// The links of `selected` (none when nothing is selected).
pub fn links(p: &Project, model: &LogicalModel, selected: Option<Item>) -> Links {
    let mut l = Links::default();
    let graph = Graph::new(p);
    let query_links = |l: &mut Links, qi: usize| {
        let Some(q) = p.queries.get(qi) else { return };
        l.queries.insert(q.id.clone());
        if let Some(t) = model.plan(&q.id).and_then(|pl| pl.table) {
            l.tables.insert(t);
        }
        let Some(root) = graph.node(&q.rows) else {
            return;
        };
        match root {
            NodeId::Entity(e) => {
                l.entities.insert(e);
            }
            NodeId::Rel(r) => {
                l.relationships.insert(r);
            }
        }
        let refs = q
            .equality
            .iter()
            .chain(q.range.iter().map(|r| &r.attr))
            .chain(q.calendar.iter().map(|x| &x.attr))
            .chain(q.order.iter().map(|o| &o.attr))
            .chain(q.returns.iter());
        for s in refs {
            if let Ok(r) = graph.resolve(root, s) {
                l.attributes.insert(r.attr);
                match r.attr.node() {
                    NodeId::Entity(e) => l.entities.insert(e),
                    NodeId::Rel(x) => l.relationships.insert(x),
                };
            }
        }
    };
    let tables_holding = |l: &mut Links, pred: &dyn Fn(AttrId) -> bool| {
        for (ti, t) in model.tables.iter().enumerate() {
            let holds = t.columns.iter().any(|c| match &c.source {
                Source::Attr { reached, .. } => pred(reached.attr),
                _ => false,
            });
            if holds {
                l.tables.insert(ti);
                l.queries.extend(t.queries.iter().map(ToString::to_string));
            }
        }
    };
    match selected {
        Some(Item::Query(qi)) => query_links(&mut l, qi),
        Some(Item::Transition(ti)) => {
            if let Some(t) = p.workflow.transitions.get(ti) {
                if let Some(qi) = p.queries.iter().position(|q| q.id == t.to) {
                    query_links(&mut l, qi);
                }
                l.queries.insert(t.from.clone());
            }
        }
        Some(Item::Table(ti) | Item::Column(ti, _)) => {
            if let Some(t) = model.tables.get(ti) {
                l.tables.insert(ti);
                l.queries.extend(t.queries.iter().map(ToString::to_string));
                let cols: Vec<&crate::derive::Column> = match selected {
                    Some(Item::Column(_, ci)) => t.columns.get(ci).into_iter().collect(),
                    _ => t.columns.iter().collect(),
                };
                for c in cols {
                    if let Source::Attr { reached, .. } = &c.source {
                        l.attributes.insert(reached.attr);
                        match reached.attr.node() {
                            NodeId::Entity(e) => l.entities.insert(e),
                            NodeId::Rel(r) => l.relationships.insert(r),
                        };
                    }
                }
            }
        }
        Some(Item::Entity(ei)) => {
            l.entities.insert(ei);
            tables_holding(&mut l, &|a| a.node() == NodeId::Entity(ei));
        }
        Some(Item::Attribute(ei, ai)) => {
            l.attributes.insert(AttrId::Entity(ei, ai));
            tables_holding(&mut l, &|a| a == AttrId::Entity(ei, ai));
        }
        Some(Item::Relationship(ri)) => {
            l.relationships.insert(ri);
            tables_holding(&mut l, &|a| a.node() == NodeId::Rel(ri));
        }
        Some(Item::RelAttribute(ri, ai)) => {
            l.attributes.insert(AttrId::Rel(ri, ai));
            tables_holding(&mut l, &|a| a == AttrId::Rel(ri, ai));
        }
        None => {}
    }
    l
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load;

    #[test]
    fn a_query_links_its_rows_attributes_and_table() {
        let p =
            load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("sample");
        let model = crate::derive::derive(&p);
        let q = &p.queries[0];
        let l = links(&p, &model, Some(Item::Query(0)));
        assert!(l.queries.contains(&q.id));
        let table = model.plan(&q.id).and_then(|pl| pl.table).expect("a table");
        assert!(l.tables.contains(&table));
        let rows = p
            .entities
            .iter()
            .position(|e| e.name == q.rows)
            .expect("entity rows");
        assert!(l.entities.contains(&rows));
        assert!(!l.attributes.is_empty());
        assert_eq!(links(&p, &model, None), Links::default());
    }

    #[test]
    fn an_entity_links_the_tables_holding_it() {
        let p =
            load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("sample");
        let model = crate::derive::derive(&p);
        let l = links(&p, &model, Some(Item::Entity(0)));
        assert!(l.entities.contains(&0));
        for &t in &l.tables {
            assert!(model.tables[t].columns.iter().any(|c| matches!(
                &c.source,
                Source::Attr { reached, .. } if reached.attr.node() == NodeId::Entity(0)
            )));
        }
        assert!(!l.tables.is_empty());
    }
}
