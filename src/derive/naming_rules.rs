//! Table names: `<rows, plural>_by_<search>`, where each search attribute is
//! named by the entity whose key (or unique identifier) it completes, or by itself when it is a
//! plain attribute of the rows. Only a lookup by exactly the rows' own full
//! key, every part an equality, is the bare plural (`hotels`): a range on a
//! partial key or a further equality attribute is named (`line_items_by_order_line_no`).

use super::{Column, Rule, Table};
use crate::model::naming::{plural, schema_name_of, snake_case};
use crate::model::resolve::{Graph, NodeId, Reached};
use std::borrow::Cow;

pub(crate) fn rows_plural(graph: &Graph, root: NodeId) -> String {
    match root {
        NodeId::Entity(e) => {
            let ent = graph.entity(e);
            ent.plural
                .clone()
                .unwrap_or_else(|| plural(graph.short_str(root)))
        }
        // Relationship names are usually verbs or already plural ("likes").
        NodeId::Rel(r) => snake_case(&graph.rel(r).name),
    }
}

/// The names a table may take, best first: `<rows>_by_<search>`, or for a
/// table of counters or aggregates `<what it counts>_by_<group>`
/// (`like_counts_by_item`). When another query's table already took the
/// first, the others name it by how the query orders (`items_by_seller_price`)
/// or by the one thing it returns (`hotel_names_by_poi`); only then does the
/// caller fall back to the query id.
pub fn table_names(
    graph: &Graph,
    root: NodeId,
    equality: &[&Reached],
    range: Option<&Reached>,
    table: &Table,
) -> Vec<String> {
    let mut tokens = search_tokens(graph, root, equality, range);
    // A calendar part searched names its bucket (`readings_by_station_day`).
    let mut parts = table
        .columns
        .iter()
        .filter(|c| c.rule == Rule::Calendar)
        .map(|c| Cow::Owned(snake_case(&c.name)))
        .peekable();
    if parts.peek().is_some() {
        tokens.get_or_insert_with(Vec::new).extend(parts);
    }

    let short = graph.short_str(root);
    let mut out = Vec::with_capacity(3);
    if let Some(noun) = counted_noun(table, short) {
        // Counts are per something: a count per item names the item.
        let by = tokens.unwrap_or_else(|| vec![Cow::Borrowed(short)]);
        out.push(joined(&noun, &by));
    } else {
        let rows = rows_plural(graph, root);
        let by = tokens.unwrap_or_default();
        out.push(joined(&rows, &by));
        for c in table.columns.iter().filter(|c| c.rule == Rule::Order) {
            let token = snake_case(&c.name);
            if !by.iter().any(|b| *b == token) {
                let mut by = by.clone();
                by.push(Cow::Owned(token));
                out.push(joined(&rows, &by));
            }
        }
        let returned: Vec<&Column> = table
            .columns
            .iter()
            .filter(|c| c.rule == Rule::Returned && !c.role.is_key())
            .collect();
        if let [only] = returned.as_slice() {
            out.push(joined(&owned_noun(short, &only.name), &by));
        }
    }
    out.into_iter()
        .map(|raw| schema_name_of(raw, "table"))
        .collect()
}

/// Names of a summary table: what it counts, by its group and window
/// (`view_counts_by_page_day`).
pub(crate) fn summary_names(
    graph: &Graph,
    root: NodeId,
    group: &[Reached],
    window: Option<&str>,
    table: &Table,
) -> Vec<String> {
    let short = graph.short_str(root);
    let noun = counted_noun(table, short).unwrap_or_else(|| format!("{short}_stats"));
    let group: Vec<&Reached> = group.iter().collect();
    let mut by =
        search_tokens(graph, root, &group, None).unwrap_or_else(|| vec![Cow::Borrowed(short)]);
    by.extend(window.map(|w| Cow::Owned(snake_case(w))));
    vec![schema_name_of(joined(&noun, &by), "table")]
}

/// `rows_by_a_b`, or `rows` when nothing is searched.
fn joined(noun: &str, by: &[Cow<str>]) -> String {
    if by.is_empty() {
        noun.to_string()
    } else {
        let mut out =
            String::with_capacity(noun.len() + 4 + by.iter().map(|b| b.len() + 1).sum::<usize>());
        out.push_str(noun);
        out.push_str("_by");
        for b in by {
            out.push('_');
            out.push_str(b);
        }
        out
    }
}

/// `hotel_names` for a hotel's `name`, `hotel_names` for `hotel_name` too.
fn owned_noun(short: &str, column: &str) -> String {
    let column = snake_case(column);
    let rest = column
        .strip_prefix(short)
        .and_then(|r| r.strip_prefix('_'))
        .unwrap_or(&column);
    // A time named by a participle (`placed_at`) has no plural.
    let noun = if rest.ends_with("_at") || rest.ends_with("_on") {
        rest.to_string()
    } else {
        plural(rest)
    };
    if short.is_empty() {
        noun
    } else {
        format!("{short}_{noun}")
    }
}

/// What a table of counters or aggregates counts: its one counted column in
/// the plural (`like_counts`), or `<rows>_stats` for several.
fn counted_noun(table: &Table, short: &str) -> Option<String> {
    let counted: Vec<&Column> = table
        .columns
        .iter()
        .filter(|c| !c.role.is_key() && (c.ty.is_counter() || c.rule == Rule::Aggregate))
        .collect();
    match counted.as_slice() {
        [] => None,
        [one] => Some(plural(&snake_case(&one.name))),
        _ => Some(format!("{short}_stats")),
    }
}

/// The search part of a name, one token per searched node or attribute;
/// `None` for a lookup by the rows' own full key.
fn search_tokens<'g>(
    graph: &'g Graph,
    root: NodeId,
    equality: &[&Reached],
    range: Option<&Reached>,
) -> Option<Vec<Cow<'g, str>>> {
    if is_own_key_lookup(graph, root, equality, range) {
        return None;
    }
    // A query searches by a handful of attributes: a scan beats hashing.
    let search: Vec<&Reached> = equality.iter().copied().chain(range).collect();
    let set = &search;
    let mut tokens: Vec<Cow<str>> = Vec::with_capacity(search.len());
    for r in &search {
        // The node with the largest key that this attribute helps complete.
        // The rows themselves (k = 0) never name a search: that is the bare
        // plural above, and a lookup by the rows' own unique identifier still
        // names it (`users_by_email`).
        let mut best: Option<(usize, usize)> = None;
        for k in 1..=r.path.len() {
            // Identifiers come normalized (see `Graph::key_at`).
            graph.each_identifier(root, &r.path[..k], |_, key| {
                if !key.contains(r) || !key.iter().all(|x| set.contains(&x)) {
                    return false;
                }
                // A link identified by the rows themselves (the `places` of
                // an order) is the rows again, not a searched node.
                if key
                    .iter()
                    .any(|x| x.path.is_empty() && x.attr.node() == root)
                {
                    return false;
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
                false
            });
        }
        let token = match best {
            Some((_, k)) => graph
                .walk(root, &r.path[..k])
                .map(|n| Cow::Borrowed(graph.short_str(n))),
            None if r.path.is_empty() && r.attr.node() == root => {
                Some(Cow::Owned(snake_case(&graph.column_base(r.attr, true))))
            }
            None => Some(Cow::Borrowed(graph.short_str(r.attr.node()))),
        };
        if let Some(t) = token {
            if !t.is_empty() && !tokens.contains(&t) {
                tokens.push(t);
            }
        }
    }
    Some(tokens)
}

/// The search is exactly the rows' own full key, all by equality: one row
/// per lookup, and nothing else to name.
fn is_own_key_lookup(
    graph: &Graph,
    root: NodeId,
    equality: &[&Reached],
    range: Option<&Reached>,
) -> bool {
    if range.is_some() || equality.is_empty() {
        return false;
    }
    // Equal as sets; keys and searches are a few attributes, so scans.
    let key: Vec<Reached> = graph.key_at(root, &[]);
    !key.is_empty()
        && key.iter().all(|k| equality.contains(&k))
        && equality.iter().all(|e| key.contains(e))
}
