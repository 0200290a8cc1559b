//! Write amplification: rows or changing attributes copied into many
//! tables, with the logged batch that keeps the copies consistent.

use super::{Ctx, Diagnostic, Subject};
use crate::derive::{Column, Table};
use crate::model::name::Name;
use crate::model::naming::push_quoted;
use crate::model::resolve::NodeId;
use crate::model::Shared;
use rustc_hash::FxHashMap as HashMap;
use std::fmt::Write as _;

/// Copies from which a write is worth a review.
pub(crate) const MANY_TABLES: usize = 3;

/// A table as a batch writes it: its name, its columns (shared with the
/// model, not copied) and whether it counts (a counter table cannot join
/// a logged batch with other tables).
struct Copied {
    name: Name,
    columns: Shared<Vec<Column>>,
    counter: bool,
}

impl Copied {
    fn of(t: &Table) -> Copied {
        Copied {
            name: t.name.clone(),
            columns: t.columns.clone(),
            counter: t.is_counter_table(),
        }
    }
}

/// `INSERT INTO ks.t (a, b) VALUES (?, ?);` and a newline.
fn push_insert(s: &mut String, keyspace: &str, t: &Copied) {
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

/// `BEGIN BATCH … APPLY BATCH;` inserting one row into each table, with
/// `?` markers (counter tables are left out: they cannot join a logged
/// batch with other tables).
fn push_batch(s: &mut String, keyspace: &str, tables: &[Copied]) {
    s.push_str("BEGIN BATCH\n");
    for t in tables.iter().filter(|t| !t.counter) {
        push_insert(s, keyspace, t);
    }
    s.push_str("APPLY BATCH;");
}

/// Counter tables cannot join a logged batch: say which are updated apart.
fn push_counter_note(s: &mut String, tables: &[Copied]) {
    let mut counters = tables.iter().filter(|t| t.counter).map(|t| t.name.as_str());
    if let Some(first) = counters.next() {
        s.push_str(" (counters cannot join it: update ");
        s.push_str(first);
        for c in counters {
            s.push_str(", ");
            s.push_str(c);
        }
        s.push_str(" separately)");
    }
}

/// A fix that writes the copies in one batch: `lead`, which counters
/// stay out, then the batch.
fn push_batch_fix(f: &mut String, lead: &str, keyspace: &str, copies: &[Copied]) {
    f.push_str(lead);
    push_counter_note(f, copies);
    f.push_str(":\n");
    push_batch(f, keyspace, copies);
}

/// What an insert's finding is worded from (when first read: a large
/// review has hundreds, each with a batch of every copy).
struct Inserts {
    keyspace: String,
    item: Name,
    copies: Vec<Copied>,
}

/// What a changing attribute's finding is worded from.
struct Updates {
    keyspace: String,
    item: Name,
    attribute: Name,
    /// Every table the update touches, and whether the attribute is a key
    /// column there.
    touched: Vec<(Name, bool)>,
    /// Those of them in the model, for the batch.
    copies: Vec<Copied>,
}

pub(super) fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let tables = &ctx.model.tables;
    let keyspace = &ctx.project.keyspace.name;
    // Made when a path first lists many tables (most list one or two).
    let by_name: std::cell::OnceCell<HashMap<&str, usize>> = std::cell::OnceCell::new();
    let by_name = || {
        by_name.get_or_init(|| {
            let mut by_name =
                HashMap::with_capacity_and_hasher(tables.len(), rustc_hash::FxBuildHasher);
            for (i, t) in tables.iter().enumerate() {
                by_name.entry(t.name.as_str()).or_insert(i);
            }
            by_name
        })
    };
    let copy = |name: &str| by_name().get(name).map(|&i| Copied::of(&tables[i]));
    for w in &ctx.model.writes {
        let mutable_updates = || w.update.iter().filter(|u| u.tables.len() >= MANY_TABLES);
        // Most paths are done here, before any lookup by name: the tables
        // listed bound those of them in the model.
        if w.insert.len() < MANY_TABLES && mutable_updates().next().is_none() {
            continue;
        }
        // The tables an insert writes, as the write-path computation (and
        // every report) lists them; rows a job writes are not counted.
        let copies = || {
            w.insert
                .iter()
                .filter(|t| by_name().contains_key(t.as_str()))
        };
        let inserted = copies().count();
        if inserted < MANY_TABLES && mutable_updates().next().is_none() {
            continue;
        }
        let node = ctx.graph.node(&w.item);
        if inserted >= MANY_TABLES {
            let subject = if matches!(node, Some(NodeId::Entity(_))) {
                Subject::Entity(w.item.clone())
            } else {
                Subject::Relationship(w.item.clone())
            };
            let args = Inserts {
                keyspace: keyspace.clone(),
                item: w.item.clone(),
                copies: copies().filter_map(|t| copy(t)).collect(),
            };
            out.push(ctx.diag_with(
                "write-amplification",
                subject,
                args,
                |a, m| {
                    let n = a.copies.len();
                    let _ = write!(m, "Each new {} is written to {n} tables (", a.item);
                    for (i, t) in a.copies.iter().enumerate() {
                        if i > 0 {
                            m.push_str(", ");
                        }
                        m.push_str(&t.name);
                    }
                    let _ = write!(m, "): every insert costs {n} writes, and a failure part-way leaves the copies disagreeing.");
                },
                |a, f| {
                    push_batch_fix(
                        f,
                        "Write the copies in one logged batch so they all apply eventually",
                        &a.keyspace,
                        &a.copies,
                    );
                },
            ));
        }
        // A changing attribute copied into many tables: every change is
        // several writes (and a delete plus insert where it is a key).
        let attributes = node.map_or(&[][..], |n| ctx.graph.attributes(n));
        let mutable = |name: &str| attributes.iter().any(|a| a.mutable && a.name == name);
        for u in mutable_updates().filter(|u| mutable(&u.attribute)) {
            let args = Updates {
                keyspace: keyspace.clone(),
                item: w.item.clone(),
                attribute: u.attribute.clone(),
                touched: u.tables.clone(),
                copies: u.tables.iter().filter_map(|(t, _)| copy(t)).collect(),
            };
            out.push(ctx.diag_with(
                "write-amplification",
                Subject::Attribute {
                    item: w.item.clone(),
                    attribute: u.attribute.clone(),
                },
                args,
                |a, m| {
                    let n = a.touched.len();
                    let _ = write!(m, "{}.{} changes and is copied into {n} tables (", a.item, a.attribute);
                    for (i, (t, key)) in a.touched.iter().enumerate() {
                        if i > 0 {
                            m.push_str(", ");
                        }
                        m.push_str(t);
                        if *key {
                            m.push_str(" (key)");
                        }
                    }
                    let _ = write!(m, "): every change is {n} writes, and a failure part-way leaves them disagreeing.");
                },
                |a, f| {
                    push_batch_fix(
                        f,
                        "Update every copy in one logged batch, or keep the attribute in fewer tables",
                        &a.keyspace,
                        &a.copies,
                    );
                },
            ));
        }
    }
}
