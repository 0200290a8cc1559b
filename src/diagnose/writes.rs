//! Write amplification: rows or changing attributes copied into many
//! tables, with the logged batch that keeps the copies consistent.

use super::{Ctx, Diagnostic, Subject};
use crate::derive::Table;
use crate::model::resolve::NodeId;
use crate::naming::push_quoted;
use rustc_hash::FxHashMap as HashMap;

/// Copies from which a write is worth a review.
pub(crate) const MANY_TABLES: usize = 3;

/// `INSERT INTO ks.t (a, b) VALUES (?, ?);` and a newline.
fn push_insert(s: &mut String, keyspace: &str, t: &Table) {
    s.push_str("INSERT INTO ");
    push_quoted(s, keyspace);
    s.push('.');
    push_quoted(s, &t.name);
    s.push_str(" (");
    for (i, c) in t.columns.iter().enumerate() {
        if i > 0 {
            s.push_str(", ");
        }
        push_quoted(s, &c.name);
    }
    s.push_str(") VALUES (");
    for i in 0..t.columns.len() {
        s.push_str(if i > 0 { ", ?" } else { "?" });
    }
    s.push_str(");\n");
}

/// `BEGIN BATCH … APPLY BATCH;` inserting one row into each of the tables
/// given by index, with `?` markers (counter tables are left out: they
/// cannot join a logged batch with other tables); each table's INSERT is
/// built once per review however many batches it joins.
struct Batches<'a> {
    keyspace: &'a str,
    tables: &'a [Table],
    inserts: Vec<Option<String>>,
}

impl<'a> Batches<'a> {
    fn new(keyspace: &'a str, tables: &'a [Table]) -> Self {
        Batches {
            keyspace,
            tables,
            inserts: vec![None; tables.len()],
        }
    }

    fn batch(&mut self, tables: &[usize]) -> String {
        let mut s = String::from("BEGIN BATCH\n");
        for &i in tables {
            let t = &self.tables[i];
            if t.is_counter_table() {
                continue;
            }
            let line = self.inserts[i].get_or_insert_with(|| {
                let mut l = String::new();
                push_insert(&mut l, self.keyspace, t);
                l
            });
            s.push_str(line);
        }
        s.push_str("APPLY BATCH;");
        s
    }
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
    let tables = &ctx.model.tables;
    let mut batches = Batches::new(&ctx.project.keyspace.name, tables);
    let mut by_name: HashMap<&str, usize> =
        HashMap::with_capacity_and_hasher(tables.len(), rustc_hash::FxBuildHasher);
    for (i, t) in tables.iter().enumerate() {
        by_name.entry(t.name.as_str()).or_insert(i);
    }
    for w in &ctx.model.writes {
        // The tables an insert writes, as the write-path computation (and
        // every report) lists them; rows a job writes are not counted.
        let copies: Vec<usize> = w
            .insert
            .iter()
            .filter_map(|t| by_name.get(&**t).copied())
            .collect();
        let mutable_updates = || w.update.iter().filter(|u| u.tables.len() >= MANY_TABLES);
        if copies.len() < MANY_TABLES && mutable_updates().next().is_none() {
            continue;
        }
        let node = ctx.graph.node(&w.item);
        if copies.len() >= MANY_TABLES {
            let copied: Vec<&Table> = copies.iter().map(|&i| &tables[i]).collect();
            let names: Vec<&str> = copied.iter().map(|t| t.name.as_str()).collect();
            let subject = if matches!(node, Some(NodeId::Entity(_))) {
                Subject::Entity(w.item.as_str().into())
            } else {
                Subject::Relationship(w.item.as_str().into())
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
                    counter_note(&copied),
                    batches.batch(&copies)
                ),
            ));
        }
        // A changing attribute copied into many tables: every change is
        // several writes (and a delete plus insert where it is a key).
        let attributes = node.map_or(&[][..], |n| ctx.graph.attributes(n));
        let mutable = |name: &str| attributes.iter().any(|a| a.mutable && a.name == name);
        for u in mutable_updates().filter(|u| mutable(&u.attribute)) {
            let names: Vec<String> = u
                .tables
                .iter()
                .map(|(t, key)| {
                    if *key {
                        format!("{t} (key)")
                    } else {
                        t.to_string()
                    }
                })
                .collect();
            let found: Vec<usize> = u
                .tables
                .iter()
                .filter_map(|(t, _)| by_name.get(&**t).copied())
                .collect();
            let copied: Vec<&Table> = found.iter().map(|&i| &tables[i]).collect();
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
                    counter_note(&copied),
                    batches.batch(&found)
                ),
            ));
        }
    }
}
