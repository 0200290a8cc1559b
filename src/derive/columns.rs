//! A table's columns: their names (unique in the table, renamed where
//! the designer said so), what each holds, and moves that keep a table's
//! columns and their identities in step.

use super::naming_rules;
use super::types::{Column, Flow, Role, Rule, Source, Table};
use crate::model::name::Name;
use crate::model::resolve::{Edge, Graph, NodeId, Reached};
use crate::model::CqlType;

pub(crate) fn column_name(graph: &Graph, root: NodeId, r: &Reached) -> Name {
    let own = r.path.is_empty() && r.attr.node() == root;
    graph.column_base_name(r.attr, own)
}

/// The column name of an attribute in `table`: its base name, else named
/// by the role of the relationship it is reached through
/// (`work_address_city` beside `address_city`), else numbered.
pub(crate) fn attr_column_name(graph: &Graph, root: NodeId, r: &Reached, table: &Table) -> Name {
    let base = column_name(graph, root, r);
    if table.column(&base).is_none() {
        return base;
    }
    let role = r.path.iter().rev().find_map(|e| match e {
        Edge::Enter(x, _) => Some(crate::model::naming::snake_case(&graph.rel(*x).name)),
        Edge::Leave(..) => None,
    });
    if let Some(role) = role {
        let attr = &graph.attr(r.attr).name;
        let named = if attr.starts_with(&format!("{role}_")) {
            attr.clone()
        } else {
            format!("{role}_{attr}")
        };
        if table.column(&named).is_none() {
            return named.into();
        }
    }
    unique_column_name(table, base)
}

pub(crate) fn unique_column_name(table: &Table, base: Name) -> Name {
    if table.column(&base).is_none() {
        return base;
    }
    let mut n = 2;
    loop {
        let c = format!("{base}_{n}");
        if table.column(&c).is_none() {
            return c.into();
        }
        n += 1;
    }
}

/// Where the value of `column`, holding `r`, comes from.
pub(crate) fn attr_source(graph: &Graph, root: NodeId, r: &Reached) -> Source {
    // `join` allocates once, at the right size: `format!` took 40 % more
    // instructions here, made for every attribute column of every table.
    let attribute = Name::from(
        [
            &*graph.node_shared_name(r.attr.node()),
            &*graph.attr(r.attr).name,
        ]
        .join("."),
    );
    let flow = if r.path.is_empty() && r.attr.node() == root {
        Flow::Own
    } else if graph.path_is_many(&r.path) {
        Flow::PushUp
    } else if r.attr.node() == root {
        Flow::Own
    } else {
        Flow::PushDown
    };
    Source::Attr {
        reached: r.clone(),
        attribute,
        flow,
    }
}

pub(crate) fn keep_name(cols: &[Column], name: &str) -> bool {
    cols.iter().any(|c| c.name == name)
}

/// A set of one key, a map from key to value, or a map to a tuple.
pub(crate) fn collection_type(t: &Table, keys: &[usize], values: &[usize]) -> CqlType {
    let ty = |i: &usize| t.columns[*i].ty.frozen();
    let key = match keys {
        [] => None,
        [k] => Some(ty(k)),
        ks => Some(CqlType::Tuple(ks.iter().map(ty).collect())),
    };
    let value = match values {
        [] => None,
        [v] => Some(ty(v)),
        vs => Some(CqlType::Tuple(vs.iter().map(ty).collect())),
    };
    match (key, value) {
        (Some(k), None) => CqlType::Set(Box::new(k)),
        (Some(k), Some(v)) => CqlType::Map(Box::new(k), Box::new(v)),
        (None, Some(v)) => CqlType::List(Box::new(v)),
        (None, None) => CqlType::List(Box::new(CqlType::text())),
    }
}

/// Children reached through the named relationships become one collection
/// column per row instead of clustering rows.
pub(crate) fn push_up_relationships(
    graph: &Graph,
    rels: &[String],
    t: &mut Table,
    ids: &mut Vec<Option<Reached>>,
) {
    let rel_ids: Vec<usize> = rels.iter().filter_map(|r| graph.rel_index(r)).collect();
    for r in rel_ids {
        let through = |reached: &Reached| {
            reached
                .path
                .iter()
                .any(|e| matches!(e, Edge::Enter(x, _) if *x == r) && graph.fanout(*e).many)
        };
        let members: Vec<usize> = (0..t.columns.len())
            .filter(|&i| {
                ids[i].as_ref().is_some_and(through) && t.columns[i].role != Role::Partition
            })
            .collect();
        if members.is_empty() {
            continue;
        }
        let (keys, values): (Vec<usize>, Vec<usize>) = members
            .iter()
            .partition(|&&i| matches!(t.columns[i].role, Role::Clustering(_)));
        let ty = collection_type(t, &keys, &values);
        // Named after the children it holds (`products`), else the
        // relationship.
        let child = members.iter().find_map(|&i| {
            let path = &ids[i].as_ref()?.path;
            path.iter().find_map(|e| match e {
                Edge::Enter(x, end) if *x == r => graph.end_entity(r, end.other()),
                _ => None,
            })
        });
        let name = match child {
            Some(e) => naming_rules::rows_plural(graph, NodeId::Entity(e)),
            None => crate::model::naming::snake_case(&graph.rel(r).name),
        };
        let source = Source::Collection {
            columns: members
                .iter()
                .map(|&i| t.columns[i].name.to_string())
                .collect(),
        };
        let keep: Vec<usize> = (0..t.columns.len())
            .filter(|i| !members.contains(i))
            .collect();
        let pushed: Vec<Reached> = members.iter().filter_map(|&i| ids[i].clone()).collect();
        permute(t, ids, &keep);
        let name = unique_column_name(t, name.into());
        for r in pushed {
            t.collected.push((r, name.clone()));
        }
        t.columns.push(Column {
            name,
            ty,
            role: Role::Regular,
            rule: Rule::Collection,
            why: None,
            query: t.origin.clone(),
            source,
        });
        ids.push(None);
    }
}

/// Reorders columns (and their ids) to `order`; columns not named in
/// `order` are dropped.
pub(crate) fn permute(t: &mut Table, ids: &mut Vec<Option<Reached>>, order: &[usize]) {
    let mut cols: Vec<Option<Column>> = std::mem::take(&mut t.columns)
        .into_iter()
        .map(Some)
        .collect();
    let mut old_ids: Vec<Option<Option<Reached>>> =
        std::mem::take(ids).into_iter().map(Some).collect();
    // Sized up front: collected through `filter_map` they would grow by
    // doubling, and tables are kept (a five-column table held room for
    // eight).
    let mut columns = Vec::with_capacity(order.len());
    columns.extend(order.iter().filter_map(|&i| cols[i].take()));
    t.columns = columns.into();
    *ids = Vec::with_capacity(order.len());
    ids.extend(order.iter().filter_map(|&i| old_ids[i].take()));
}
