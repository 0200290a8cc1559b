//! `cqlmodel migrate OLD NEW`: the CQL that moves a running cluster from
//! OLD's schema to NEW's. Only what Cassandra can do in place is active
//! (`CREATE TABLE`, `ALTER TABLE … ADD`, `CREATE TYPE`); drops are written
//! commented out with a warning, and a primary-key change becomes a new
//! table plus a commented backfill plan, since keys cannot be altered.

use crate::analysis::analyze;
use crate::derive::{Role, Table};
use crate::lifecycle::diff::{ColumnChange, TableChange};
use crate::model::naming::quote;
use crate::model::{Project, UserType};
use crate::output::cql;
use std::fmt::Write;

fn qualified(project: &Project, table: &str) -> String {
    format!("{}.{}", quote(&project.keyspace.name), quote(table))
}

/// The new table's columns as the backfill reads them from the old one:
/// by the same name, or `old AS new` for a renamed column.
fn read_columns(old: &Table, new: &Table, renames: &[(String, String)]) -> Vec<String> {
    new.columns
        .iter()
        .filter_map(|c| {
            if old.column(&c.name).is_some() {
                Some(quote(&c.name))
            } else {
                renames
                    .iter()
                    .find(|(_, to)| to == c.name.as_str())
                    .map(|(from, to)| format!("{} AS {}", quote(from), quote(to)))
            }
        })
        .collect()
}

/// `(from, to)` of every renamed column in `changes`.
fn renames_of(changes: &[ColumnChange]) -> Vec<(String, String)> {
    changes
        .iter()
        .filter_map(|c| match c {
            ColumnChange::Renamed { from, to, .. } => Some((from.clone(), to.clone())),
            _ => None,
        })
        .collect()
}

fn backfill_plan(
    s: &mut String,
    project: &Project,
    old: &Table,
    new: &Table,
    target: &str,
    renames: &[(String, String)],
) {
    let cols = read_columns(old, new, renames);
    let carried =
        |name: &str| new.column(name).is_some() || renames.iter().any(|(from, _)| from == name);
    let missing: Vec<String> = new
        .columns
        .iter()
        .filter(|c| {
            old.column(&c.name).is_none() && !renames.iter().any(|(_, to)| to == c.name.as_str())
        })
        .map(|c| cql::one_line(&c.name))
        .collect();
    let _ = writeln!(s, "-- Backfill plan for {}:", cql::one_line(target));
    let _ = writeln!(
        s,
        "--   1. read every row of {} (e.g. DSBulk unload or Spark):",
        cql::one_line(&qualified(project, &old.name))
    );
    let _ = writeln!(
        s,
        "--        SELECT {} FROM {};",
        cql::one_line(&cols.join(", ")),
        cql::one_line(&qualified(project, &old.name))
    );
    let _ = writeln!(
        s,
        "--   2. write them into {} with the same columns;",
        cql::one_line(target)
    );
    if !missing.is_empty() {
        let _ = writeln!(
            s,
            "--      columns the old table lacks must be computed by the loader: {}",
            missing.join(", ")
        );
    }
    // What the new table cannot hold: say it, by name.
    let lost_keys: Vec<String> = old
        .columns
        .iter()
        .filter(|c| c.role.is_key() && !carried(&c.name))
        .map(|c| cql::one_line(&c.name))
        .collect();
    if !lost_keys.is_empty() {
        let _ = writeln!(
            s,
            "--      LOST: rows of {} that differ only in {} become one row of {}: all but one of them are lost (the last written wins)",
            cql::one_line(&old.name),
            lost_keys.join(", "),
            cql::one_line(target)
        );
    }
    let lost_values: Vec<String> = old
        .columns
        .iter()
        .filter(|c| !c.role.is_key() && !carried(&c.name))
        .map(|c| cql::one_line(&c.name))
        .collect();
    if !lost_values.is_empty() {
        let _ = writeln!(
            s,
            "--      LOST: the new table has no column for {}: those values are not copied",
            lost_values.join(", ")
        );
    }
    let _ = writeln!(
        s,
        "--   3. switch the application (write both while backfilling), then drop {}.",
        cql::one_line(&old.name)
    );
}

/// A renamed regular or static column: Cassandra renames only primary key
/// columns, so the new column is added and the values copied row by row
/// (a static one partition by partition); the old column's drop is left
/// to do after the copy.
fn copy_plan(s: &mut String, project: &Project, t: &Table, from: &str, to: &str, role: Role) {
    let table = qualified(project, &t.name);
    let keys: Vec<&str> = t
        .columns
        .iter()
        .filter(|c| {
            if role == Role::Static {
                c.role == Role::Partition
            } else {
                c.role.is_key()
            }
        })
        .map(|c| c.name.as_str())
        .collect();
    let _ = writeln!(
        s,
        "-- {}: column {} renamed to {}. Cassandra cannot rename a {} column: the script adds {}; copy the values, then drop {}:",
        cql::one_line(&t.name),
        cql::one_line(from),
        cql::one_line(to),
        if role == Role::Static { "static" } else { "regular" },
        cql::one_line(to),
        cql::one_line(from)
    );
    let _ = writeln!(
        s,
        "--   1. read every {} (DSBulk unload or Spark): SELECT {}{}, {} FROM {};",
        if role == Role::Static {
            "partition"
        } else {
            "row"
        },
        if role == Role::Static {
            "DISTINCT "
        } else {
            ""
        },
        cql::one_line(&keys.iter().map(|k| quote(k)).collect::<Vec<_>>().join(", ")),
        cql::one_line(&quote(from)),
        cql::one_line(&table)
    );
    let _ = writeln!(
        s,
        "--   2. write each back: UPDATE {} SET {} = ? WHERE {};",
        cql::one_line(&table),
        cql::one_line(&quote(to)),
        cql::one_line(
            &keys
                .iter()
                .map(|k| format!("{} = ?", quote(k)))
                .collect::<Vec<_>>()
                .join(" AND ")
        )
    );
    let _ = writeln!(
        s,
        "--   3. until the copy ends the application writes both columns; values written to {} after step 1 are lost unless it does.",
        cql::one_line(from)
    );
    if let Some(col) = t.column(to) {
        let stat = if role == Role::Static { " STATIC" } else { "" };
        let _ = writeln!(
            s,
            "ALTER TABLE {table} ADD {} {}{stat};",
            quote(to),
            cql::column_cql_type(project, t, col).to_cql(&|n| quote(n))
        );
    }
    let _ = writeln!(
        s,
        "-- after the copy (deletes {}'s values):\n-- ALTER TABLE {} DROP {};",
        cql::one_line(from),
        cql::one_line(&table),
        cql::one_line(&quote(from))
    );
}

fn view_of<'t>(t: &'t Table, name: &str) -> Option<&'t crate::model::physical::MaterializedView> {
    t.physical.options.views.iter().find(|v| v.name == name)
}

/// `DROP MATERIALIZED VIEW`, commented under a warning when the model no
/// longer has the view (readers of it break; its rows go).
fn drop_view(s: &mut String, project: &Project, name: &str, commented: bool) {
    if commented {
        let _ = writeln!(
            s,
            "-- WARNING: the view {} is no longer in the model. Dropping it deletes its rows (its base table keeps them):",
            cql::one_line(name)
        );
    }
    let _ = writeln!(
        s,
        "{}DROP MATERIALIZED VIEW IF EXISTS {};",
        if commented { "-- " } else { "" },
        cql::one_line(&qualified(project, name))
    );
}

/// The views of a new table, after it.
fn create_views(s: &mut String, project: &Project, t: &Table) {
    for v in &t.physical.options.views {
        s.push_str(&cql::view_statement(project, &t.name, v));
    }
}

/// A changed user type: fields added at its end become `ALTER TYPE … ADD`,
/// fields renamed in place (same position and type) `ALTER TYPE …
/// RENAME`; Cassandra cannot remove, retype or reorder a field, so any
/// other change is refused with the way to do it.
fn alter_type(s: &mut String, project: &Project, old: &UserType, new: &UserType) {
    let name = format!("{}.{}", quote(&project.keyspace.name), quote(&new.name));
    let kept = old.fields.len().min(new.fields.len());
    let same_types = old.fields[..kept]
        .iter()
        .zip(&new.fields[..kept])
        .all(|(a, b)| a.ty == b.ty);
    if !same_types || new.fields.len() < old.fields.len() {
        let _ = writeln!(
            s,
            "-- WARNING: type {} lost or retyped a field. Cassandra cannot remove or retype a field of a type:\n-- create the new shape under another name, add columns of it, copy every value over (DSBulk or Spark),\n-- then drop the old columns and type by hand. Nothing is changed here.",
            cql::one_line(&new.name)
        );
        return;
    }
    let _ = writeln!(s, "-- type {} changed in place", cql::one_line(&new.name));
    for (a, b) in old.fields.iter().zip(&new.fields) {
        if a.name != b.name {
            let _ = writeln!(
                s,
                "ALTER TYPE {name} RENAME {} TO {};",
                quote(&a.name),
                quote(&b.name)
            );
        }
    }
    for f in &new.fields[kept..] {
        let ty = match &f.ty {
            crate::model::CqlType::Udt(_) => f.ty.frozen(),
            other => other.clone(),
        };
        let _ = writeln!(
            s,
            "ALTER TYPE {name} ADD {} {};",
            quote(&f.name),
            ty.to_cql(&|n| quote(n))
        );
    }
}

/// `ALTER TABLE … RENAME` for each key column renamed in place.
fn rename_keys(s: &mut String, project: &Project, table: &str, columns: &[ColumnChange]) {
    for c in columns {
        if let ColumnChange::Renamed { from, to, role } = c {
            if role.is_key() {
                let _ = writeln!(
                    s,
                    "-- {}: key column {} renamed to {} in place (no index depends on it);\n-- taken as a rename: same place and type, and the attribute {} held is gone from the model. If {} holds other values, do not run this: the key changed and needs a new table and a backfill.",
                    cql::one_line(table),
                    cql::one_line(from),
                    cql::one_line(to),
                    cql::one_line(from),
                    cql::one_line(to)
                );
                let _ = writeln!(
                    s,
                    "ALTER TABLE {} RENAME {} TO {};",
                    qualified(project, table),
                    quote(from),
                    quote(to)
                );
            }
        }
    }
}

/// What Cassandra 4.0–5.0 uses for an option a table does not set: what
/// `ALTER TABLE … WITH` writes to take a setting back.
fn default_option(name: &str) -> Option<&'static str> {
    Some(match name {
        "default_time_to_live" | "memtable_flush_period_in_ms" => "0",
        "gc_grace_seconds" => "864000",
        "compaction" => "{'class': 'SizeTieredCompactionStrategy'}",
        "caching" => "{'keys': 'ALL', 'rows_per_partition': 'NONE'}",
        "compression" => "{'chunk_length_in_kb': '16', 'class': 'LZ4Compressor'}",
        "bloom_filter_fp_chance" => "0.01",
        "speculative_retry" | "additional_write_policy" => "'99p'",
        "cdc" => "false",
        "crc_check_chance" => "1.0",
        "min_index_interval" => "128",
        "max_index_interval" => "2048",
        "read_repair" => "'BLOCKING'",
        _ => return None,
    })
}

/// One `ALTER TABLE … WITH` for every option of `table` that changed.
fn alter_options(s: &mut String, project: &Project, table: &str, changes: &[ColumnChange]) {
    let mut set = Vec::new();
    for c in changes {
        let ColumnChange::TableOption { name, from, to } = c else {
            continue;
        };
        let Some(value) = to.as_deref().or_else(|| default_option(name)) else {
            let _ = writeln!(
                s,
                "-- {}: {} is no longer set; put back Cassandra's default by hand (it was {})",
                cql::one_line(table),
                cql::one_line(name),
                cql::one_line(from.as_deref().unwrap_or("unset"))
            );
            continue;
        };
        if name == "compaction" {
            let _ = writeln!(
                s,
                "-- {}: a new compaction strategy rewrites every SSTable of the table as it compacts (heavy I/O for a while); apply it off-peak",
                cql::one_line(table)
            );
        }
        if name == "default_time_to_live" {
            let _ = writeln!(
                s,
                "-- {}: the default TTL applies to rows written from now on; rows already written keep theirs",
                cql::one_line(table)
            );
        }
        set.push(format!("{name} = {value}"));
    }
    if !set.is_empty() {
        let _ = writeln!(
            s,
            "ALTER TABLE {} WITH {};",
            qualified(project, table),
            set.join("\n    AND ")
        );
    }
}

/// The statements for one change of a table altered in place.
fn column_statements(
    s: &mut String,
    (old, o): (&Project, &Table),
    (new, t): (&Project, &Table),
    table: &str,
    c: &ColumnChange,
) {
    match c {
        ColumnChange::Renamed { from, to, role } if !role.is_key() => {
            copy_plan(s, new, t, from, to, *role);
        }
        ColumnChange::Added { name, role, .. } => {
            let Some(col) = t.column(name) else { return };
            let stat = if *role == Role::Static { " STATIC" } else { "" };
            let ty = cql::column_cql_type(new, t, col);
            let _ = writeln!(
                s,
                "ALTER TABLE {} ADD {} {}{stat};",
                qualified(new, table),
                quote(name),
                ty.to_cql(&|n| quote(n))
            );
        }
        ColumnChange::Removed { name } => {
            let _ = writeln!(
                        s,
                        "-- WARNING: {}.{} is no longer used. Dropping it deletes its data:\n-- ALTER TABLE {} DROP {};",
                        cql::one_line(table),
                        cql::one_line(name),
                        cql::one_line(&qualified(new, table)),
                        cql::one_line(&quote(name))
                    );
        }
        ColumnChange::IndexAdded { name } => {
            if let Some(statement) = cql::index_statement(new, t, name) {
                s.push_str(&statement);
            }
        }
        ColumnChange::IndexChanged { name } => {
            let _ = writeln!(
                        s,
                        "-- the index on {}.{} changed: dropped and built again (the build reads the whole table)",
                        cql::one_line(table),
                        cql::one_line(name)
                    );
            let _ = writeln!(
                s,
                "DROP INDEX IF EXISTS {}.{};",
                quote(&old.keyspace.name),
                cql::index_name_of(o, name)
            );
            if let Some(statement) = cql::index_statement(new, t, name) {
                s.push_str(&statement);
            }
        }
        ColumnChange::ViewAdded { name } => {
            if let Some(v) = view_of(t, name) {
                s.push_str(&cql::view_statement(new, table, v));
            }
        }
        ColumnChange::ViewRemoved { name } => {
            drop_view(s, old, name, true);
        }
        ColumnChange::ViewChanged { name } => {
            let _ = writeln!(
                        s,
                        "-- the view {} changed: Cassandra cannot alter its key or filter, so it is dropped and built again from {} (reads of it fail or miss rows until the build ends)",
                        cql::one_line(name),
                        cql::one_line(table)
                    );
            drop_view(s, old, name, false);
            if let Some(v) = view_of(t, name) {
                s.push_str(&cql::view_statement(new, table, v));
            }
        }
        ColumnChange::IndexRemoved { name } => {
            let _ = writeln!(
                s,
                "-- the index on {}.{} is no longer used:\n-- DROP INDEX IF EXISTS {}.{};",
                cql::one_line(table),
                cql::one_line(name),
                quote(&old.keyspace.name),
                cql::index_name_of(o, name)
            );
        }
        _ => {}
    }
}

/// The migration script from `old` to `new`.
pub fn script(old: &Project, new: &Project) -> String {
    let (ao, an) = (analyze(old), analyze(new));
    let changes = super::diff::diff_in(old, &ao.model, new, &an.model);
    let mut s = format!(
        "-- Migration from \"{}\" to \"{}\", written by cqlmodel migrate.\n-- Review before running; commented statements need a decision.\n\n",
        cql::one_line(&old.name),
        cql::one_line(&new.name)
    );
    if changes.is_empty() && old.types == new.types && old.keyspace == new.keyspace {
        s.push_str("-- Nothing to do: the schemas are the same.\n");
        return s;
    }
    if old.keyspace.name != new.keyspace.name {
        let _ = writeln!(
            s,
            "-- WARNING: the keyspace is renamed from {} to {}. Cassandra cannot rename a keyspace:\n-- the script creates {} and its tables; copy every table's rows from {} (DSBulk or Spark),\n-- switch the application, then drop the old keyspace by hand:\n-- DROP KEYSPACE IF EXISTS {};\n",
            cql::one_line(&old.keyspace.name),
            cql::one_line(&new.keyspace.name),
            cql::one_line(&new.keyspace.name),
            cql::one_line(&old.keyspace.name),
            cql::one_line(&quote(&old.keyspace.name)),
        );
        s.push_str(&cql::script(new, &an.model));
        return s;
    }
    s.push_str(&cql::keyspace(new));
    if old.keyspace.name == new.keyspace.name
        && (old.keyspace.replication != new.keyspace.replication
            || old.keyspace.durable_writes != new.keyspace.durable_writes)
    {
        let _ = writeln!(
            s,
            "-- the keyspace's replication or durable_writes changed: CREATE … IF NOT EXISTS leaves it as it is, so alter it;\n-- after a replication change run a full repair (nodetool repair -full) on every node before relying on the new replicas."
        );
        s.push_str(&cql::keyspace(new).replacen(
            "CREATE KEYSPACE IF NOT EXISTS",
            "ALTER KEYSPACE",
            1,
        ));
    }
    for t in cql::types_in_order(new) {
        if !old.types.contains(t) {
            s.push('\n');
            match old.types.iter().find(|o| o.name == t.name) {
                Some(o) => alter_type(&mut s, new, o, t),
                None => s.push_str(&cql::user_type(new, t)),
            }
        }
    }
    let old_table = |n: &str| ao.model.tables.iter().find(|t| t.name == n);
    let new_table = |n: &str| an.model.tables.iter().find(|t| t.name == n);
    let renamed: Vec<&str> = changes
        .iter()
        .filter_map(|c| match c {
            TableChange::Renamed { to, .. } => Some(to.as_str()),
            _ => None,
        })
        .collect();
    for c in &changes {
        if let TableChange::Changed { table, .. } = c {
            // Already created whole under its new name.
            if renamed.contains(&table.as_str()) {
                continue;
            }
        }
        s.push('\n');
        match c {
            TableChange::Added(n) => {
                if let Some(t) = new_table(n) {
                    let _ = writeln!(s, "-- new table {} (compatible)", cql::one_line(n));
                    s.push_str(&cql::table(new, t));
                    create_views(&mut s, new, t);
                }
            }
            TableChange::Removed(n) => {
                // Cassandra drops no table a view still depends on.
                for v in old_table(n).map_or(&[][..], |t| &t.physical.options.views) {
                    drop_view(&mut s, old, &v.name, true);
                }
                let _ = writeln!(
                    s,
                    "-- WARNING: {} is no longer used. Dropping it deletes its data:\n-- DROP TABLE IF EXISTS {};",
                    cql::one_line(n),
                    cql::one_line(&qualified(old, n))
                );
            }
            TableChange::Renamed { from, to } => {
                let (Some(o), Some(t)) = (old_table(from), new_table(to)) else {
                    continue;
                };
                let _ = writeln!(
                    s,
                    "-- {} is now {}: Cassandra cannot rename a table (new table + backfill)",
                    cql::one_line(from),
                    cql::one_line(to)
                );
                s.push_str(&cql::table(new, t));
                // Its column changes come with it: renamed columns are read
                // under their old names.
                let renames = changes
                    .iter()
                    .find_map(|c| match c {
                        TableChange::Changed { table, columns, .. } if table == to => {
                            Some(renames_of(columns))
                        }
                        _ => None,
                    })
                    .unwrap_or_default();
                backfill_plan(&mut s, new, o, t, to, &renames);
                // Views are keyspace-wide names: the old ones go first.
                for v in &o.physical.options.views {
                    drop_view(&mut s, old, &v.name, true);
                }
                create_views(&mut s, new, t);
                let _ = writeln!(
                    s,
                    "-- DROP TABLE IF EXISTS {};",
                    cql::one_line(&qualified(old, from))
                );
            }
            TableChange::Changed { table, columns, .. } => {
                let (Some(o), Some(t)) = (old_table(table), new_table(table)) else {
                    continue;
                };
                let rebuild = columns.iter().any(|c| match c {
                    ColumnChange::Added { role, .. } => role.is_key(),
                    ColumnChange::Removed { name } => {
                        o.column(name).is_some_and(|c| c.role.is_key())
                    }
                    ColumnChange::Role { from, to, .. } => {
                        from.is_key() || to.is_key() || *from == Role::Static || *to == Role::Static
                    }
                    ColumnChange::Renamed { from, role, .. } => {
                        role.is_key() && !crate::lifecycle::diff::renames_in_place(columns, from)
                    }
                    ColumnChange::Type { .. } | ColumnChange::KeyOrder => true,
                    ColumnChange::IndexAdded { .. }
                    | ColumnChange::IndexRemoved { .. }
                    | ColumnChange::IndexChanged { .. }
                    | ColumnChange::ViewAdded { .. }
                    | ColumnChange::ViewRemoved { .. }
                    | ColumnChange::ViewChanged { .. }
                    | ColumnChange::TableOption { .. } => false,
                });
                if rebuild {
                    let target = format!("{table}_new");
                    let _ = writeln!(
                        s,
                        "-- {}: the primary key, a static column or a type changed ({}).\n-- Cassandra cannot alter that: a new table {} and a backfill.",
                        cql::one_line(table),
                        cql::one_line(
                            &columns
                                .iter()
                                .map(std::string::ToString::to_string)
                                .collect::<Vec<_>>()
                                .join(", ")
                        ),
                        cql::one_line(&target)
                    );
                    let mut renamed = t.clone();
                    renamed.name = target.as_str().into();
                    s.push_str(&cql::table(new, &renamed));
                    backfill_plan(&mut s, new, o, &renamed, &target, &renames_of(columns));
                    if !o.physical.options.views.is_empty() {
                        let _ = writeln!(
                            s,
                            "--      the views over {} ({}) stay on it: drop them before dropping it, and create them over {} (or over {} once rebuilt).",
                            cql::one_line(table),
                            cql::one_line(
                                &o.physical
                                    .options
                                    .views
                                    .iter()
                                    .map(|v| v.name.as_str())
                                    .collect::<Vec<_>>()
                                    .join(", ")
                            ),
                            cql::one_line(&target),
                            cql::one_line(table)
                        );
                    }
                    let _ = writeln!(
                        s,
                        "--   4. pin the name {} in the model (or recreate {} and backfill again).",
                        cql::one_line(&target),
                        cql::one_line(table)
                    );
                    continue;
                }
                alter_options(&mut s, new, table, columns);
                // Key columns renamed first: later statements name them.
                rename_keys(&mut s, new, table, columns);
                for c in columns {
                    column_statements(&mut s, (old, o), (new, t), table, c);
                }
            }
        }
    }
    s
}
