//! Table-level differences between two derived logical models, so a shell
//! can say what an edit did (`+ amenities_by_room`,
//! `hotels_by_poi: C↑ hotel_id → C↓`) instead of leaving the designer to
//! spot it. Pure: tables are matched by name, and a table that disappeared
//! while another appeared for the same originating query is a rename.

pub mod semantic;

use crate::derive::{Column, LogicalModel, Role, Table};
use crate::model::name::Name;
use crate::model::CqlType;
use crate::model::Project;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// One change to a table's columns.
#[derive(Clone, Debug, PartialEq)]
pub enum ColumnChange {
    Added {
        name: String,
        role: Role,
        ty: CqlType,
    },
    Removed {
        name: String,
    },
    /// A column whose name changed while its place (role, position in
    /// the key) and type did not: the only removed and the only added
    /// column of that place and type.
    Renamed {
        from: String,
        to: String,
        role: Role,
    },
    Role {
        name: String,
        from: Role,
        to: Role,
    },
    Type {
        name: String,
        from: CqlType,
        to: CqlType,
    },
    /// The primary key order changed without any column changing role.
    KeyOrder,
    /// A secondary index on the column was added or dropped.
    IndexAdded {
        name: String,
    },
    IndexRemoved {
        name: String,
    },
    /// The index on the column changed its name, kind, target or options:
    /// dropped and built again.
    IndexChanged {
        name: String,
    },
    /// A materialized view over the table added, dropped, or changed
    /// (dropped and created again: Cassandra cannot alter its key or
    /// filter).
    ViewAdded {
        name: String,
    },
    ViewRemoved {
        name: String,
    },
    ViewChanged {
        name: String,
    },
    /// A table option (`default_time_to_live`, `compaction`, …) set,
    /// changed or back to Cassandra's default (`None`), as CQL values.
    TableOption {
        name: String,
        from: Option<String>,
        to: Option<String>,
    },
}

/// One change to the logical model.
#[derive(Clone, Debug, PartialEq)]
pub enum TableChange {
    Added(String),
    Removed(String),
    Renamed {
        from: String,
        to: String,
    },
    Changed {
        table: String,
        columns: Vec<ColumnChange>,
        /// The queries served, when they changed.
        queries: Option<Vec<Name>>,
    },
}

impl TableChange {
    /// The name the table has in the newer model, if it still exists.
    pub(crate) fn new_name(&self) -> Option<&str> {
        match self {
            TableChange::Added(n) => Some(n),
            TableChange::Removed(_) => None,
            TableChange::Renamed { to, .. } => Some(to),
            TableChange::Changed { table, .. } => Some(table),
        }
    }
}

fn marker(r: Role) -> &'static str {
    match r {
        Role::Regular => "·",
        other => other.marker(),
    }
}

impl fmt::Display for ColumnChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ColumnChange::Added { name, role, ty } => {
                write!(f, "+ {} {name} {ty}", marker(*role))
            }
            ColumnChange::Removed { name } => write!(f, "- {name}"),
            ColumnChange::Renamed { from, to, role } if role.is_key() => {
                write!(f, "{from} → {to} (renamed)")
            }
            ColumnChange::Renamed { from, to, .. } => write!(
                f,
                "{from} → {to} (renamed: copy the data; Cassandra renames only primary key columns)"
            ),
            ColumnChange::Role { name, from, to } => {
                write!(f, "{} {name} → {}", marker(*from), marker(*to))
            }
            ColumnChange::Type { name, from, to } => write!(f, "{name} {from} → {to}"),
            ColumnChange::KeyOrder => f.write_str("key order changed"),
            ColumnChange::IndexAdded { name } => write!(f, "+ index on {name}"),
            ColumnChange::IndexRemoved { name } => write!(f, "- index on {name}"),
            ColumnChange::IndexChanged { name } => write!(f, "index on {name} rebuilt"),
            ColumnChange::ViewAdded { name } => write!(f, "+ view {name}"),
            ColumnChange::ViewRemoved { name } => write!(f, "- view {name}"),
            ColumnChange::ViewChanged { name } => write!(f, "view {name} rebuilt"),
            ColumnChange::TableOption { name, from, to } => write!(
                f,
                "{name} {} → {}",
                from.as_deref().unwrap_or("default"),
                to.as_deref().unwrap_or("default")
            ),
        }
    }
}

impl fmt::Display for TableChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableChange::Added(n) => write!(f, "+ {n}"),
            TableChange::Removed(n) => write!(f, "- {n}"),
            TableChange::Renamed { from, to } => write!(f, "{from} → {to}"),
            TableChange::Changed {
                table,
                columns,
                queries,
            } => {
                write!(f, "{table}:")?;
                for (i, c) in columns.iter().enumerate() {
                    if i > 0 {
                        f.write_str(",")?;
                    }
                    write!(f, " {c}")?;
                }
                if let Some(q) = queries {
                    if !columns.is_empty() {
                        f.write_str(",")?;
                    }
                    write!(f, " serves {}", q.join(", "))?;
                }
                Ok(())
            }
        }
    }
}

/// Every table-level difference from `old` to `new`, in the newer model's
/// table order (removals last).
pub fn diff(old: &LogicalModel, new: &LogicalModel) -> Vec<TableChange> {
    diff_by(old, new, &|_, _, c| c.ty.clone())
}

/// [`diff`] of two projects' models comparing column types as each
/// project exports them: a UDT the export freezes equals an explicit
/// `frozen<…>`, a column kept non-frozen differs from a frozen one.
pub fn diff_in(
    old_project: &Project,
    old: &LogicalModel,
    new_project: &Project,
    new: &LogicalModel,
) -> Vec<TableChange> {
    let ty = |newer: bool, t: &Table, c: &Column| {
        let p = if newer { new_project } else { old_project };
        crate::output::cql::column_cql_type(p, t, c)
    };
    // An attribute still in the project (used by a table or not) is no
    // renamed one.
    let (old_names, new_names) = (
        project_attributes(old_project),
        project_attributes(new_project),
    );
    let comment = |newer: bool, t: &Table| {
        let p = if newer { new_project } else { old_project };
        crate::output::cql::table_comment(p, t)
    };
    let cx = Cx {
        ty: &ty,
        comment: Some(&comment),
        old_attrs: old_names.iter().map(String::as_str).collect(),
        new_attrs: new_names.iter().map(String::as_str).collect(),
    };
    diff_with(old, new, &cx)
}

/// Every `Entity.attr` and `Relationship.attr` of a project.
fn project_attributes(p: &Project) -> Vec<String> {
    let entities = p.entities.iter().flat_map(|e| {
        e.attributes
            .iter()
            .map(move |a| format!("{}.{}", e.name, a.name))
    });
    let relationships = p.relationships.iter().flat_map(|r| {
        r.attributes
            .iter()
            .map(move |a| format!("{}.{}", r.name, a.name))
    });
    entities.chain(relationships).collect()
}

/// A column's type as compared: (in the newer model?, table, column).
type TypeOf<'a> = dyn Fn(bool, &Table, &Column) -> CqlType + 'a;

/// What table comparisons need beyond the two tables: column types as
/// compared, and every attribute (`Entity.attr`) each model's columns hold.
/// A table's exported comment; `true` for the new project's.
type CommentOf<'a> = dyn Fn(bool, &Table) -> String + 'a;

struct Cx<'a> {
    ty: &'a TypeOf<'a>,
    /// Each table's `comment` as exported (`true`: of the new project),
    /// when the projects are known.
    comment: Option<&'a CommentOf<'a>>,
    old_attrs: HashSet<&'a str>,
    new_attrs: HashSet<&'a str>,
}

fn attributes(m: &LogicalModel) -> HashSet<&str> {
    m.tables
        .iter()
        .flat_map(|t| t.columns.iter())
        .filter_map(|c| match &c.source {
            crate::derive::Source::Attr { attribute, .. } => Some(attribute.as_str()),
            _ => None,
        })
        .collect()
}

fn diff_by<'a>(
    old: &'a LogicalModel,
    new: &'a LogicalModel,
    ty: &'a TypeOf<'a>,
) -> Vec<TableChange> {
    let cx = Cx {
        ty,
        comment: None,
        old_attrs: attributes(old),
        new_attrs: attributes(new),
    };
    diff_with(old, new, &cx)
}

fn diff_with(old: &LogicalModel, new: &LogicalModel, cx: &Cx<'_>) -> Vec<TableChange> {
    let ty = cx;
    let old_by_name: HashMap<&str, &Table> =
        old.tables.iter().map(|t| (t.name.as_str(), &**t)).collect();
    let new_names: std::collections::HashSet<&str> =
        new.tables.iter().map(|t| t.name.as_str()).collect();
    // Tables that vanished, by the query that built them: a new table built
    // by the same query is the same table under a new name.
    let mut vanished: HashMap<&str, &Table> = old
        .tables
        .iter()
        .filter(|t| !new_names.contains(t.name.as_str()))
        .map(|t| (t.origin.as_str(), &**t))
        .collect();
    let mut out = Vec::new();
    for t in &new.tables {
        if let Some(o) = old_by_name.get(t.name.as_str()) {
            if let Some(c) = table_change(o, t, ty) {
                out.push(c);
            }
        } else if let Some(o) = vanished.remove(t.origin.as_str()) {
            out.push(TableChange::Renamed {
                from: o.name.to_string(),
                to: t.name.to_string(),
            });
            if let Some(TableChange::Changed {
                columns, queries, ..
            }) = table_change(o, t, ty)
            {
                out.push(TableChange::Changed {
                    table: t.name.to_string(),
                    columns,
                    queries,
                });
            }
        } else {
            out.push(TableChange::Added(t.name.to_string()));
        }
    }
    for t in &old.tables {
        if !new_names.contains(t.name.as_str()) && vanished.contains_key(t.origin.as_str()) {
            out.push(TableChange::Removed(t.name.to_string()));
        }
    }
    out
}

/// A removed and an added column at the same place (role, and position
/// in the primary key) with the same type, each the other's only match,
/// are one column renamed.
///
/// Two attributes are one renamed only when neither model still holds
/// the other (`Hotel.hotel_id` gone, `Inn.hotel_id` new): a key moved from
/// one existing attribute to another is a new key, never a rename.
fn pair_renames(old: &Table, new: &Table, cx: &Cx<'_>, columns: &mut Vec<ColumnChange>) {
    let ty = cx.ty;
    let attr = |c: &Column| match &c.source {
        crate::derive::Source::Attr { attribute, .. } => Some(attribute.to_string()),
        _ => None,
    };
    let place = |t: &Table, name: &str| {
        let c = t.column(name)?;
        let at = key_names(t).position(|k| k == name);
        Some((c.role, at))
    };
    let removed: Vec<String> = columns
        .iter()
        .filter_map(|c| match c {
            ColumnChange::Removed { name } => Some(name.clone()),
            _ => None,
        })
        .collect();
    let added: Vec<String> = columns
        .iter()
        .filter_map(|c| match c {
            ColumnChange::Added { name, .. } => Some(name.clone()),
            _ => None,
        })
        .collect();
    let fits = |r: &str, a: &str| {
        let (Some(oc), Some(nc)) = (old.column(r), new.column(a)) else {
            return false;
        };
        let distinct = match (attr(oc), attr(nc)) {
            (Some(x), Some(y)) => {
                x == y || (!cx.new_attrs.contains(x.as_str()) && !cx.old_attrs.contains(y.as_str()))
            }
            _ => true,
        };
        distinct && place(old, r) == place(new, a) && ty(false, old, oc) == ty(true, new, nc)
    };
    for r in &removed {
        let mut matches = added.iter().filter(|a| fits(r, a));
        let (Some(a), None) = (matches.next(), matches.next()) else {
            continue;
        };
        if removed.iter().filter(|r2| fits(r2, a)).count() != 1 {
            continue;
        }
        let role = new.column(a).map_or(Role::Regular, |c| c.role);
        columns.retain(|c| {
            !matches!(c, ColumnChange::Removed { name } if name == r)
                && !matches!(c, ColumnChange::Added { name, .. } if name == a)
        });
        columns.push(ColumnChange::Renamed {
            from: r.clone(),
            to: a.clone(),
            role,
        });
    }
}

/// Whether the key column renamed from `from` can be renamed in place:
/// Cassandra refuses to rename a column an index depends on.
pub(crate) fn renames_in_place(columns: &[ColumnChange], from: &str) -> bool {
    !columns.iter().any(|c| {
        matches!(c, ColumnChange::IndexRemoved { name } | ColumnChange::IndexChanged { name } if name == from)
            // A view naming the column changes with it: Cassandra refuses
            // to rename a column a view depends on.
            || matches!(c, ColumnChange::ViewRemoved { .. } | ColumnChange::ViewChanged { .. })
    })
}

/// The primary key's column names in order, without collecting them: most
/// tables did not change at all.
fn key_names(t: &Table) -> impl Iterator<Item = &str> + '_ {
    t.columns
        .iter()
        .filter(|c| c.role.is_key())
        .map(|c| c.name.as_str())
}

fn table_change(old: &Table, new: &Table, cx: &Cx<'_>) -> Option<TableChange> {
    let ty = cx.ty;
    let mut columns = Vec::new();
    for c in &new.columns {
        match old.column(&c.name) {
            None => columns.push(ColumnChange::Added {
                name: c.name.to_string(),
                role: c.role,
                ty: c.ty.clone(),
            }),
            Some(o) => {
                if o.role != c.role {
                    columns.push(ColumnChange::Role {
                        name: c.name.to_string(),
                        from: o.role,
                        to: c.role,
                    });
                }
                let (from, to) = (ty(false, old, o), ty(true, new, c));
                if from != to {
                    columns.push(ColumnChange::Type {
                        name: c.name.to_string(),
                        from,
                        to,
                    });
                }
            }
        }
    }
    for o in &old.columns {
        if new.column(&o.name).is_none() {
            columns.push(ColumnChange::Removed {
                name: o.name.to_string(),
            });
        }
    }
    pair_renames(old, new, cx, &mut columns);
    if columns.is_empty() && !key_names(old).eq(key_names(new)) {
        columns.push(ColumnChange::KeyOrder);
    }
    for i in &new.indexes {
        if !old.indexes.contains(i) {
            columns.push(ColumnChange::IndexAdded { name: i.clone() });
        }
    }
    for i in &old.indexes {
        if !new.indexes.contains(i) {
            columns.push(ColumnChange::IndexRemoved { name: i.clone() });
        } else if old.physical.options.indexes.get(i) != new.physical.options.indexes.get(i) {
            columns.push(ColumnChange::IndexChanged { name: i.clone() });
        }
    }
    let (old_views, new_views) = (&old.physical.options.views, &new.physical.options.views);
    for v in new_views {
        match old_views.iter().find(|o| o.name == v.name) {
            None => columns.push(ColumnChange::ViewAdded {
                name: v.name.clone(),
            }),
            Some(o) if o != v => columns.push(ColumnChange::ViewChanged {
                name: v.name.clone(),
            }),
            Some(_) => {}
        }
    }
    for o in old_views {
        if !new_views.iter().any(|v| v.name == o.name) {
            columns.push(ColumnChange::ViewRemoved {
                name: o.name.clone(),
            });
        }
    }
    let (old_options, new_options) = (
        crate::output::cql::table_options(old),
        crate::output::cql::table_options(new),
    );
    let value = |list: &[(String, String)], name: &str| {
        list.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone())
    };
    let mut names: Vec<&String> = old_options
        .iter()
        .chain(&new_options)
        .map(|(k, _)| k)
        .collect();
    names.sort();
    names.dedup();
    for name in names {
        let (from, to) = (value(&old_options, name), value(&new_options, name));
        if from != to {
            columns.push(ColumnChange::TableOption {
                name: name.clone(),
                from,
                to,
            });
        }
    }
    // The comment names the queries and their text: a schema difference
    // like any other option (an `ALTER TABLE … WITH comment`).
    if let Some(comment) = cx.comment {
        let (from, to) = (comment(false, old), comment(true, new));
        if from != to {
            columns.push(ColumnChange::TableOption {
                name: "comment".into(),
                from: Some(from),
                to: Some(to),
            });
        }
    }
    let queries = (old.queries != new.queries).then(|| new.queries.to_vec());
    if columns.is_empty() && queries.is_none() {
        None
    } else {
        Some(TableChange::Changed {
            table: new.name.to_string(),
            columns,
            queries,
        })
    }
}

/// The changes as one status line, shortened to `max` changes.
pub fn summary(changes: &[TableChange], max: usize) -> String {
    let mut parts: Vec<String> = changes
        .iter()
        .take(max)
        .map(std::string::ToString::to_string)
        .collect();
    if changes.len() > max {
        parts.push(format!("… {} more", changes.len() - max));
    }
    parts.join("; ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::derive::derive;
    use crate::model::{load, Dir};

    fn hotel() -> crate::model::Project {
        load::from_str(include_str!("../../../sample-projects/hotel.cqlm.ron"))
            .expect("sample loads")
    }

    #[test]
    fn identical_models_have_no_changes() {
        // Two derivations of projects that differ only in wording.
        let p = hotel();
        let mut q = hotel();
        q.queries[1].text = "Reworded: a hotel by its id".into();
        q.notes.clear();
        assert_ne!(p, q);
        assert!(diff(&derive(&p), &derive(&q)).is_empty());
    }

    #[test]
    fn a_removed_query_removes_its_table() {
        let p = hotel();
        let mut q = p.clone();
        q.queries.retain(|x| x.id != "Q5");
        q.workflow.transitions.retain(|t| t.to != "Q5");
        let changes = diff(&derive(&p), &derive(&q));
        assert_eq!(
            changes,
            vec![TableChange::Removed("amenities_by_room".into())]
        );
        let back = diff(&derive(&q), &derive(&p));
        assert_eq!(back, vec![TableChange::Added("amenities_by_room".into())]);
        assert_eq!(summary(&back, 3), "+ amenities_by_room");
    }

    #[test]
    fn a_flipped_order_is_a_role_change() {
        let p = hotel();
        let mut q = p.clone();
        let q7 = q.queries.iter_mut().find(|x| x.id == "Q7").expect("Q7");
        q7.order[0].dir = Dir::Desc;
        let changes = diff(&derive(&p), &derive(&q));
        assert_eq!(changes.len(), 1, "{changes:?}");
        let text = changes[0].to_string();
        assert_eq!(text, "reservations_by_hotel_date: C↑ room_number → C↓");
    }

    #[test]
    fn a_renamed_table_is_reported_once() {
        let p = hotel();
        let mut q = p.clone();
        q.decision_mut("Q1").name = Some("hotels_near".into());
        let changes = diff(&derive(&p), &derive(&q));
        assert_eq!(
            changes,
            vec![TableChange::Renamed {
                from: "hotels_by_poi".into(),
                to: "hotels_near".into()
            }]
        );
    }
}
