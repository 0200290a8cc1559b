//! The semantic diff of two projects (`cqlmodel diff OLD NEW`): what changed
//! in the conceptual model (entities, relationships, queries), what that
//! does to the tables, and what each table change means for a running
//! cluster: compatible, a new table with a backfill, or destructive.

use super::{ColumnChange, TableChange};
use crate::analysis::{analyze, Analysis};
use crate::derive::Role;
use crate::model::Project;
use serde::Serialize;
use std::collections::BTreeSet;
use std::fmt::Write;

/// What a table change asks of a running cluster.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Impact {
    /// `CREATE TABLE`, `ALTER TABLE … ADD`, or no schema change at all.
    Compatible,
    /// A regular column renamed: Cassandra cannot rename it, so its
    /// values are copied into the new column.
    NeedsCopy,
    /// A primary key cannot be altered: a new table, filled from the old.
    NeedsBackfill,
    /// Data is dropped.
    Destructive,
}

impl Impact {
    pub fn label(self) -> &'static str {
        match self {
            Impact::Compatible => "compatible",
            Impact::NeedsCopy => "needs a column copy",
            Impact::NeedsBackfill => "needs new table + backfill",
            Impact::Destructive => "destructive",
        }
    }
}

/// One change of an entity, relationship or query.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ItemChange {
    /// `entity`, `relationship` or `query`.
    pub kind: &'static str,
    pub name: String,
    /// `added`, `removed`, `renamed from X` or `changed`.
    pub change: String,
    /// The fields that differ, for `changed`.
    pub fields: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TableReport {
    pub table: String,
    pub change: String,
    pub impact: Impact,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct SemanticDiff {
    pub items: Vec<ItemChange>,
    pub tables: Vec<TableReport>,
    /// Review findings (`rule: subject`) only the new project has.
    pub findings_added: Vec<String>,
    /// Review findings only the old project has.
    pub findings_resolved: Vec<String>,
}

impl SemanticDiff {
    /// Breaking: anything a running cluster cannot take in place.
    pub fn is_breaking(&self) -> bool {
        self.tables.iter().any(|t| t.impact != Impact::Compatible)
            || self.items.iter().any(|i| {
                (i.kind == "keyspace" && i.change.starts_with("renamed"))
                    || (i.kind == "type"
                        && (i.change == "removed" || i.change.starts_with("renamed")))
                    || (i.kind == "type" && i.fields.iter().any(|f| f.starts_with("fields: ")))
            })
    }

    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
            && self.tables.is_empty()
            && self.findings_added.is_empty()
            && self.findings_resolved.is_empty()
    }
}

/// Fields of two serialisable values that differ, by name.
fn differing_fields<T: Serialize>(a: &T, b: &T) -> Vec<String> {
    let (Ok(serde_json::Value::Object(x)), Ok(serde_json::Value::Object(y))) =
        (serde_json::to_value(a), serde_json::to_value(b))
    else {
        return vec![];
    };
    let keys: BTreeSet<&String> = x.keys().chain(y.keys()).collect();
    keys.into_iter()
        .filter(|k| x.get(*k) != y.get(*k))
        .cloned()
        .collect()
}

/// Items matched by name; an item that vanished while one with equal
/// content (but the name) appeared is a rename.
fn items<T: Serialize + Clone>(
    kind: &'static str,
    old: &[T],
    new: &[T],
    name: impl Fn(&T) -> &str,
    rename: impl Fn(&T, &str) -> T,
    out: &mut Vec<ItemChange>,
) {
    let mut gone: Vec<&T> = old
        .iter()
        .filter(|o| !new.iter().any(|n| name(n) == name(o)))
        .collect();
    for n in new {
        if let Some(o) = old.iter().find(|o| name(o) == name(n)) {
            let fields = differing_fields(o, n);
            if !fields.is_empty() {
                out.push(ItemChange {
                    kind,
                    name: name(n).to_string(),
                    change: "changed".into(),
                    fields,
                });
            }
        } else {
            let same = gone.iter().position(|o| {
                serde_json::to_value(rename(o, name(n))).ok() == serde_json::to_value(n).ok()
            });
            let change = match same {
                Some(i) => format!("renamed from {}", name(gone.remove(i))),
                None => "added".into(),
            };
            out.push(ItemChange {
                kind,
                name: name(n).to_string(),
                change,
                fields: vec![],
            });
        }
    }
    for o in gone {
        out.push(ItemChange {
            kind,
            name: name(o).to_string(),
            change: "removed".into(),
            fields: vec![],
        });
    }
}

/// What one table change asks of a running cluster.
pub fn impact(change: &TableChange) -> Impact {
    match change {
        TableChange::Added(_) => Impact::Compatible,
        TableChange::Removed(_) => Impact::Destructive,
        // Tables cannot be renamed in Cassandra.
        TableChange::Renamed { .. } => Impact::NeedsBackfill,
        TableChange::Changed { columns, .. } => columns
            .iter()
            .map(|c| match c {
                ColumnChange::Added { role, .. } if role.is_key() => Impact::NeedsBackfill,
                // Options are altered in place; index builds and drops
                // touch no data.
                ColumnChange::Added { .. }
                | ColumnChange::TableOption { .. }
                | ColumnChange::IndexAdded { .. }
                | ColumnChange::IndexRemoved { .. }
                | ColumnChange::IndexChanged { .. }
                | ColumnChange::ViewAdded { .. }
                | ColumnChange::ViewRemoved { .. } => Impact::Compatible,
                ColumnChange::Removed { .. } => Impact::Destructive,
                ColumnChange::Renamed { from, role, .. } => {
                    if !role.is_key() {
                        Impact::NeedsCopy
                    } else if super::renames_in_place(columns, from) {
                        Impact::Compatible
                    } else {
                        Impact::NeedsBackfill
                    }
                }
                ColumnChange::Role { from, to, .. } => {
                    if from.is_key()
                        || to.is_key()
                        || matches!((from, to), (Role::Static, _) | (_, Role::Static))
                    {
                        Impact::NeedsBackfill
                    } else {
                        Impact::Compatible
                    }
                }
                // A changed view is dropped and built again from its table.
                ColumnChange::Type { .. }
                | ColumnChange::KeyOrder
                | ColumnChange::ViewChanged { .. } => Impact::NeedsBackfill,
            })
            .max()
            .unwrap_or(Impact::Compatible),
    }
}

fn findings(a: &Analysis) -> BTreeSet<String> {
    a.diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {}: {}",
                d.severity.label(),
                d.rule,
                crate::output::report::subject_label(&d.subject)
            )
        })
        .collect()
}

/// The semantic diff from `old` to `new`.
pub fn semantic(old: &Project, new: &Project) -> SemanticDiff {
    let (ao, an) = (analyze(old), analyze(new));
    semantic_with(old, &ao, new, &an)
}

pub(crate) fn semantic_with(
    old: &Project,
    ao: &Analysis,
    new: &Project,
    an: &Analysis,
) -> SemanticDiff {
    let mut out = SemanticDiff::default();
    let mut fields = differing_fields(&old.keyspace, &new.keyspace);
    if old.cassandra != new.cassandra {
        fields.push("cassandra".into());
    }
    if !fields.is_empty() {
        out.items.push(ItemChange {
            kind: "keyspace",
            name: new.keyspace.name.clone(),
            change: if old.keyspace.name == new.keyspace.name {
                "changed".into()
            } else {
                format!("renamed from {}", old.keyspace.name)
            },
            fields,
        });
    }
    items(
        "type",
        &old.types,
        &new.types,
        |t| &t.name,
        |t, n| {
            let mut t = t.clone();
            t.name = n.to_string();
            t
        },
        &mut out.items,
    );
    // A field removed or retyped cannot be altered in place (ALTER TYPE
    // only adds and renames): say which.
    for t in &*new.types {
        let Some(o) = old.types.iter().find(|o| o.name == t.name) else {
            continue;
        };
        let lost: Vec<String> = o
            .fields
            .iter()
            .filter(|f| !t.fields.iter().any(|n| n.name == f.name && n.ty == f.ty))
            .map(|f| f.name.clone())
            .collect();
        if !lost.is_empty() {
            if let Some(item) = out
                .items
                .iter_mut()
                .find(|i| i.kind == "type" && i.name == t.name)
            {
                item.fields
                    .push(format!("fields: {} removed or retyped", lost.join(", ")));
            }
        }
    }
    items(
        "entity",
        &old.entities,
        &new.entities,
        |e| &e.name,
        |e, n| {
            let mut e = e.clone();
            e.name = n.to_string();
            e
        },
        &mut out.items,
    );
    items(
        "relationship",
        &old.relationships,
        &new.relationships,
        |r| &r.name,
        |r, n| {
            let mut r = r.clone();
            r.name = n.to_string();
            r
        },
        &mut out.items,
    );
    items(
        "query",
        &old.queries,
        &new.queries,
        |q| &q.id,
        |q, n| {
            let mut q = q.clone();
            q.id = n.to_string();
            q
        },
        &mut out.items,
    );
    let mut renamed: Vec<String> = Vec::new();
    for c in super::diff_in(old, &ao.model, new, &an.model) {
        let table = match &c {
            TableChange::Removed(n) => n.clone(),
            other => other.new_name().unwrap_or_default().to_string(),
        };
        // Column changes of a renamed table go into its new table: part
        // of the same backfill.
        let impact = match &c {
            TableChange::Renamed { to, .. } => {
                renamed.push(to.clone());
                impact(&c)
            }
            TableChange::Changed { table, .. } if renamed.contains(table) => Impact::NeedsBackfill,
            _ => impact(&c),
        };
        let mut change = c.to_string();
        // A dropped or renamed table takes its views with it: name them.
        if let TableChange::Removed(n) | TableChange::Renamed { from: n, .. } = &c {
            let views: Vec<&str> = ao
                .model
                .tables
                .iter()
                .find(|t| t.name == n.as_str())
                .map(|t| {
                    t.physical
                        .options
                        .views
                        .iter()
                        .map(|v| v.name.as_str())
                        .collect()
                })
                .unwrap_or_default();
            if !views.is_empty() {
                let _ = write!(change, " (with its views {})", views.join(", "));
            }
        }
        out.tables.push(TableReport {
            table,
            change,
            impact,
        });
    }
    thresholds_crossed(old, ao, new, an, &mut out.tables);
    let (fo, fnew) = (findings(ao), findings(an));
    out.findings_added = fnew.difference(&fo).cloned().collect();
    out.findings_resolved = fo.difference(&fnew).cloned().collect();
    out
}

/// Tables whose worst partition moved across a limit of the review
/// (values or bytes per partition), either way.
fn thresholds_crossed(
    old: &Project,
    ao: &Analysis,
    new: &Project,
    an: &Analysis,
    out: &mut Vec<TableReport>,
) {
    for (t, e) in an.model.tables.iter().zip(&an.estimates) {
        let Some((_, o)) = ao
            .model
            .tables
            .iter()
            .zip(&ao.estimates)
            .find(|(x, _)| x.name == t.name)
        else {
            continue;
        };
        let checks = [
            (
                "values per partition",
                o.values_max,
                e.values_max,
                old.thresholds.max_values,
                new.thresholds.max_values,
            ),
            (
                "MB per partition",
                o.partition_bytes_max / 1_048_576.0,
                e.partition_bytes_max / 1_048_576.0,
                old.thresholds.max_bytes / 1_048_576.0,
                new.thresholds.max_bytes / 1_048_576.0,
            ),
        ];
        for (what, before, after, old_limit, limit) in checks {
            let (was_over, is_over) = (before > old_limit, after > limit);
            if was_over != is_over {
                let side = if is_over { "over" } else { "back under" };
                out.push(TableReport {
                    table: t.name.to_string(),
                    change: format!(
                        "{}: {what} {} → {} ({side} the limit of {})",
                        t.name,
                        round(before),
                        round(after),
                        round(limit)
                    ),
                    impact: Impact::Compatible,
                });
            }
        }
    }
}

fn round(x: f64) -> String {
    if x >= 100.0 || x.fract() == 0.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1}")
    }
}

/// Plain text, one change per line.
pub fn text(d: &SemanticDiff) -> String {
    let mut s = String::new();
    if d.is_empty() {
        return "no semantic changes\n".into();
    }
    for i in &d.items {
        let _ = write!(s, "{} {}: {}", i.kind, i.name, i.change);
        if !i.fields.is_empty() {
            let _ = write!(s, " ({})", i.fields.join(", "));
        }
        s.push('\n');
    }
    for t in &d.tables {
        let _ = writeln!(s, "table {} [{}]", t.change, t.impact.label());
    }
    for f in &d.findings_added {
        let _ = writeln!(s, "finding added: {f}");
    }
    for f in &d.findings_resolved {
        let _ = writeln!(s, "finding resolved: {f}");
    }
    if d.is_breaking() {
        s.push_str("breaking: a running cluster needs new tables, backfills or drops\n");
    }
    s
}

/// Markdown for a pull request comment.
pub fn markdown(d: &SemanticDiff) -> String {
    let mut s = String::from("## Model changes\n\n");
    if d.is_empty() {
        s.push_str("No semantic changes.\n");
        return s;
    }
    if !d.items.is_empty() {
        s.push_str("| kind | name | change |\n|---|---|---|\n");
        for i in &d.items {
            let fields = if i.fields.is_empty() {
                String::new()
            } else {
                format!(" ({})", i.fields.join(", "))
            };
            let _ = writeln!(
                s,
                "| {} | `{}` | {}{} |",
                i.kind,
                cell(&i.name),
                i.change,
                fields
            );
        }
        s.push('\n');
    }
    if !d.tables.is_empty() {
        s.push_str("### Tables\n\n| table | change | impact |\n|---|---|---|\n");
        for t in &d.tables {
            let _ = writeln!(
                s,
                "| `{}` | {} | **{}** |",
                cell(&t.table),
                cell(&t.change),
                t.impact.label()
            );
        }
        s.push('\n');
    }
    if !d.findings_added.is_empty() || !d.findings_resolved.is_empty() {
        s.push_str("### Review findings\n\n");
        for f in &d.findings_added {
            let _ = writeln!(s, "- added: {}", cell(f));
        }
        for f in &d.findings_resolved {
            let _ = writeln!(s, "- resolved: {}", cell(f));
        }
        s.push('\n');
    }
    if d.is_breaking() {
        s.push_str("**Breaking:** a running cluster needs new tables, backfills or drops.\n");
    }
    s
}

fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('`', "'")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load;

    #[test]
    fn impact_follows_what_cassandra_can_alter() {
        assert_eq!(impact(&TableChange::Added("t".into())), Impact::Compatible);
        assert_eq!(
            impact(&TableChange::Removed("t".into())),
            Impact::Destructive
        );
        let add = |role| TableChange::Changed {
            table: "t".into(),
            columns: vec![ColumnChange::Added {
                name: "c".into(),
                role,
                ty: crate::model::CqlType::text(),
            }],
            queries: None,
        };
        assert_eq!(impact(&add(Role::Regular)), Impact::Compatible);
        assert_eq!(impact(&add(Role::Partition)), Impact::NeedsBackfill);
    }

    #[test]
    fn a_renamed_entity_is_one_change() {
        let p =
            load::from_str(include_str!("../../../sample-projects/hotel.cqlm.ron")).expect("loads");
        let mut q = p.clone();
        let mut e = q.entities.remove(0);
        e.name = "Inn".into();
        q.entities.insert(0, e);
        let d = semantic(&p, &q);
        assert_eq!(
            d.items[0].change,
            format!("renamed from {}", p.entities[0].name)
        );
        assert_eq!(d.items.len(), 1, "{:?}", d.items);
    }
}
