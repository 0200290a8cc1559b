//! Table names: `<rows, plural>_by_<search>`, where each search attribute is
//! named by the entity whose key (or unique identifier) it completes, or by itself when it is a
//! plain attribute of the rows; a lookup by the rows' own key is the bare
//! plural (`hotels`).

use super::normalize;
use crate::model::resolve::{Graph, NodeId, Reached};
use crate::naming::{plural, schema_name, snake_case};
use rustc_hash::FxHashSet as HashSet;

pub fn rows_plural(graph: &Graph, root: NodeId) -> String {
    match root {
        NodeId::Entity(e) => {
            let ent = graph.entity(e);
            ent.plural
                .clone()
                .unwrap_or_else(|| plural(&graph.short(root)))
        }
        // Relationship names are usually verbs or already plural ("likes").
        NodeId::Rel(r) => snake_case(&graph.rel(r).name),
    }
}

pub fn table_name(
    graph: &Graph,
    root: NodeId,
    equality: &[Reached],
    range: Option<&Reached>,
) -> String {
    let rows = rows_plural(graph, root);
    let search: Vec<&Reached> = equality.iter().chain(range).collect();
    let set: HashSet<&Reached> = search.iter().copied().collect();
    let mut tokens: Vec<String> = Vec::new();
    for r in &search {
        // The node with the largest key that this attribute helps complete.
        let mut best: Option<(usize, usize)> = None;
        for k in 0..=r.path.len() {
            // A lookup by the rows' own unique identifier still names it
            // (`users_by_email`): only the rows' key gives the bare plural.
            let idents = graph.identifiers_at(root, &r.path[..k]);
            let take = if k == 0 { 1 } else { idents.len() };
            for key in idents.into_iter().take(take) {
                let key: Vec<Reached> = key.into_iter().map(normalize).collect();
                if !key.contains(r) || !key.iter().all(|x| set.contains(x)) {
                    continue;
                }
                // On a tie an entity beats the relationship before it: the
                // entity behind a 1:1 link (`_by_item`), not the link.
                let entity_after_link = |b: usize| {
                    matches!(graph.walk(root, &r.path[..b]), Some(NodeId::Rel(_)))
                        && matches!(graph.walk(root, &r.path[..k]), Some(NodeId::Entity(_)))
                };
                if best
                    .is_none_or(|(n, b)| key.len() > n || (key.len() == n && entity_after_link(b)))
                {
                    best = Some((key.len(), k));
                }
            }
        }
        let token = match best {
            Some((_, 0)) => None,
            Some((_, k)) => graph.walk(root, &r.path[..k]).map(|n| graph.short(n)),
            None if r.path.is_empty() && r.attr.node() == root => {
                Some(snake_case(&graph.column_base(r.attr, true)))
            }
            None => Some(graph.short(r.attr.node())),
        };
        if let Some(t) = token {
            if !t.is_empty() && !tokens.contains(&t) {
                tokens.push(t);
            }
        }
    }
    let raw = if tokens.is_empty() {
        rows
    } else {
        format!("{rows}_by_{}", tokens.join("_"))
    };
    schema_name(&raw, "table")
}
