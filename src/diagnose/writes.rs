//! Write amplification: rows or changing attributes copied into many
//! tables, with the logged batch that keeps the copies consistent.

use super::{Ctx, Diagnostic, Subject};
use crate::derive::Table;
use crate::naming::quote;
use std::collections::HashMap;

/// Copies from which a write is worth a review.
pub const MANY_TABLES: usize = 3;

/// `BEGIN BATCH … APPLY BATCH;` inserting one row into each table, with
/// `?` markers; counter tables are left out (they cannot join a logged
/// batch with other tables).
pub fn logged_batch(keyspace: &str, tables: &[&Table]) -> String {
    let mut s = String::from("BEGIN BATCH\n");
    for t in tables.iter().filter(|t| !t.is_counter_table()) {
        let cols: Vec<String> = t.columns.iter().map(|c| quote(&c.name)).collect();
        let marks = vec!["?"; cols.len()].join(", ");
        s.push_str(&format!(
            "INSERT INTO {}.{} ({}) VALUES ({marks});\n",
            quote(keyspace),
            quote(&t.name),
            cols.join(", ")
        ));
    }
    s.push_str("APPLY BATCH;");
    s
}

/// Counter tables cannot join a logged batch: say which are updated apart.
fn counter_note(tables: &[&Table]) -> String {
    let counters: Vec<&str> = tables
        .iter()
        .filter(|t| t.is_counter_table())
        .map(|t| t.name.as_str())
        .collect();
    if counters.is_empty() {
        String::new()
    } else {
        format!(
            " (counters cannot join it: update {} separately)",
            counters.join(", ")
        )
    }
}

pub(super) fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let ks = &ctx.project.keyspace.name;
    let mut by_rows: HashMap<&str, Vec<&Table>> = HashMap::new();
    for t in &ctx.model.tables {
        by_rows.entry(t.rows.as_str()).or_default().push(t);
    }
    for w in &ctx.model.writes {
        // Copies of the rows themselves: one insert per table.
        let copies: Vec<&Table> = by_rows.get(w.item.as_str()).cloned().unwrap_or_default();
        if copies.len() >= MANY_TABLES {
            let names: Vec<&str> = copies.iter().map(|t| t.name.as_str()).collect();
            let subject = if ctx.project.entity(&w.item).is_some() {
                Subject::Entity(w.item.clone())
            } else {
                Subject::Relationship(w.item.clone())
            };
            out.push(ctx.diag(
                "write-amplification",
                subject,
                format!(
                    "Each new {} is written to {} tables ({}): every insert costs {} writes, and a failure part-way leaves the copies disagreeing.",
                    w.item,
                    copies.len(),
                    names.join(", "),
                    copies.len()
                ),
                format!(
                    "Write the copies in one logged batch so they all apply eventually{}:\n{}",
                    counter_note(&copies),
                    logged_batch(ks, &copies)
                ),
            ));
        }
        // A changing attribute copied into many tables: every change is
        // several writes (and a delete plus insert where it is a key).
        let mutable: Vec<&str> = ctx
            .project
            .entity(&w.item)
            .map(|e| e.attributes.as_slice())
            .or_else(|| {
                ctx.project
                    .relationship(&w.item)
                    .map(|r| r.attributes.as_slice())
            })
            .unwrap_or_default()
            .iter()
            .filter(|a| a.mutable)
            .map(|a| a.name.as_str())
            .collect();
        for u in w
            .update
            .iter()
            .filter(|u| mutable.contains(&u.attribute.as_str()))
        {
            if u.tables.len() < MANY_TABLES {
                continue;
            }
            let names: Vec<String> = u
                .tables
                .iter()
                .map(|(t, key)| {
                    if *key {
                        format!("{t} (key)")
                    } else {
                        t.clone()
                    }
                })
                .collect();
            let tables: Vec<&Table> = u
                .tables
                .iter()
                .filter_map(|(t, _)| ctx.model.table(t))
                .collect();
            out.push(ctx.diag(
                "write-amplification",
                Subject::Attribute {
                    item: w.item.clone(),
                    attribute: u.attribute.clone(),
                },
                format!(
                    "{}.{} changes and is copied into {} tables ({}): every change is {} writes, and a failure part-way leaves them disagreeing.",
                    w.item,
                    u.attribute,
                    u.tables.len(),
                    names.join(", "),
                    u.tables.len()
                ),
                format!(
                    "Update every copy in one logged batch, or keep the attribute in fewer tables{}:\n{}",
                    counter_note(&tables),
                    logged_batch(ks, &tables)
                ),
            ));
        }
    }
}
