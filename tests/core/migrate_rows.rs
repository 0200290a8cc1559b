//! `migrate` keeps every row or says what is lost: a renamed key column
//! is renamed in place, a renamed regular column is added with the plan
//! to copy its data, and a table rebuilt under a new key is backfilled
//! with every key column (renamed ones read `old AS new`). Each script,
//! applied to a schema-state replay of the old export (the importer's
//! `ALTER`/`DROP` replay), gives the new export.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::lifecycle::diff::semantic::{self, Impact};
use cqlmodel::lifecycle::import::{import, parse, Level, Schema};
use cqlmodel::lifecycle::migrate;
use cqlmodel::model::Project;

const KS: &str =
    "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n";

fn project(tables: &str) -> Project {
    let i = import(&format!("{KS}{tables}"));
    assert!(
        i.messages.iter().all(|m| m.level != Level::Error),
        "{:?}",
        i.messages
    );
    i.project
}

pub(crate) fn export(p: &Project) -> String {
    let a = cqlmodel::analysis::analyze(p);
    cqlmodel::output::cql::script(p, &a.model)
}

/// The script with the drops it leaves to the reader done: each
/// commented `DROP` (a table, column or index the script says is lost).
pub(crate) fn with_drops_done(script: &str) -> String {
    script
        .lines()
        .map(|l| match l.strip_prefix("-- ") {
            Some(rest)
                if rest.starts_with("DROP ")
                    || (rest.starts_with("ALTER TABLE ") && rest.contains(" DROP ")) =>
            {
                rest
            }
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The schema a replay of `text` leaves, as comparable text: each table's
/// keyspace, name, key with order, columns with types and statics,
/// indexes; each type's fields.
pub(crate) fn state(text: &str) -> String {
    let s: Schema = parse(text);
    let errors: Vec<_> = s
        .messages
        .iter()
        .filter(|m| m.level == Level::Error)
        .map(ToString::to_string)
        .collect();
    assert!(errors.is_empty(), "{errors:?}\n{text}");
    let mut out: Vec<String> = s
        .tables
        .iter()
        .map(|t| {
            let mut cols: Vec<String> = t
                .columns
                .iter()
                .map(|c| {
                    format!(
                        "{} {}{}",
                        c.name,
                        c.ty,
                        if c.is_static { " static" } else { "" }
                    )
                })
                .collect();
            cols.sort();
            let mut idx: Vec<String> = t
                .options
                .indexes
                .iter()
                .map(|(c, i)| format!("{c}:{i:?}"))
                .collect();
            idx.sort();
            format!(
                "{:?}.{} view of {:?} {:?} (({}), {:?}) [{}] idx {:?} ttl {:?}",
                t.keyspace,
                t.name,
                t.view_of,
                t.view,
                t.partition.join(", "),
                t.clustering,
                cols.join(", "),
                idx,
                t.ttl
            )
        })
        .collect();
    out.extend(
        s.types
            .iter()
            .map(|t| format!("type {} {:?}", t.name, t.fields)),
    );
    out.extend(s.keyspaces.iter().map(|k| {
        format!(
            "keyspace {} {:?} durable {}",
            k.name, k.replication, k.durable_writes
        )
    }));
    out.sort();
    out.join("\n")
}

/// Old export + the script (drops done) replays to the new export.
fn replays_to_new(old: &Project, new: &Project, script: &str) {
    let replayed = state(&format!("{}\n{}", export(old), with_drops_done(script)));
    assert_eq!(replayed, state(&export(new)), "{script}");
}

#[test]
fn a_renamed_clustering_column_is_renamed_in_place() {
    let old =
        project("CREATE TABLE ks.ev (day date, ts timestamp, v text, PRIMARY KEY (day, ts));");
    let new =
        project("CREATE TABLE ks.ev (day date, at timestamp, v text, PRIMARY KEY (day, at));");
    let script = migrate::script(&old, &new);
    assert!(
        script.contains("ALTER TABLE ks.ev RENAME ts TO at;"),
        "{script}"
    );
    assert!(!script.contains("ev_new"), "{script}");
    assert!(!script.contains("DROP"), "{script}");
    replays_to_new(&old, &new, &script);
    let d = semantic::semantic(&old, &new);
    assert!(!d.is_breaking(), "{}", semantic::text(&d));
    assert!(
        semantic::text(&d).contains("ts → at (renamed"),
        "{}",
        semantic::text(&d)
    );
}

/// Cassandra renames any primary key column without a dependent index,
/// the partition key's too.
#[test]
fn a_renamed_partition_key_column_is_renamed_in_place() {
    let old = project("CREATE TABLE ks.u (id uuid PRIMARY KEY, v text);");
    let new = project("CREATE TABLE ks.u (uid uuid PRIMARY KEY, v text);");
    let script = migrate::script(&old, &new);
    assert!(
        script.contains("ALTER TABLE ks.u RENAME id TO uid;"),
        "{script}"
    );
    replays_to_new(&old, &new, &script);
}

/// A renamed key column with an index on it cannot be renamed: the
/// table is rebuilt, and the backfill reads every key column, the renamed
/// one as `old AS new`.
#[test]
fn a_rebuild_backfills_every_key_column() {
    let old = project(
        "CREATE TABLE ks.t (id uuid, c int, v text, PRIMARY KEY (id, c));\nCREATE INDEX t_c ON ks.t (c);",
    );
    let new = project(
        "CREATE TABLE ks.t (id uuid, cc int, v text, PRIMARY KEY (id, cc));\nCREATE INDEX t_c ON ks.t (cc);",
    );
    let script = migrate::script(&old, &new);
    assert!(
        script.contains("CREATE TABLE IF NOT EXISTS ks.t_new"),
        "{script}"
    );
    assert!(
        script.contains("SELECT id, c AS cc, v FROM ks.t;"),
        "{script}"
    );
    assert!(script.contains("index"), "{script}");
    // A key type change: rebuilt too, every key column read.
    let wider = project("CREATE TABLE ks.t (id uuid, c bigint, v text, PRIMARY KEY (id, c));");
    let plain = project("CREATE TABLE ks.t (id uuid, c int, v text, PRIMARY KEY (id, c));");
    let script = migrate::script(&plain, &wider);
    assert!(script.contains("SELECT id, c, v FROM ks.t;"), "{script}");
}

/// A key column left out of the new key: rows differing only in it become
/// one; the script says so, by name.
#[test]
fn a_dropped_key_column_says_which_rows_are_lost() {
    let old = project("CREATE TABLE ks.t (id uuid, c int, v text, PRIMARY KEY (id, c));");
    let new = project("CREATE TABLE ks.t (id uuid PRIMARY KEY, v text);");
    let script = migrate::script(&old, &new);
    assert!(script.contains("SELECT id, v FROM ks.t;"), "{script}");
    assert!(
        script.contains(
            "rows of t that differ only in c become one row of t_new: all but one of them are lost"
        ),
        "{script}"
    );
    let d = semantic::semantic(&old, &new);
    assert!(
        d.tables.iter().any(|t| t.impact == Impact::Destructive),
        "{}",
        semantic::text(&d)
    );
}

/// A renamed regular column: added, with the plan to copy its values
/// (the statements to read and write them), the old column's drop left
/// commented; `diff` says the data must be copied.
#[test]
fn a_renamed_regular_column_says_the_data_must_be_copied() {
    let old = project("CREATE TABLE ks.t (id uuid, day date, nick text, PRIMARY KEY (id, day));");
    let new =
        project("CREATE TABLE ks.t (id uuid, day date, nickname text, PRIMARY KEY (id, day));");
    let script = migrate::script(&old, &new);
    for want in [
        "ALTER TABLE ks.t ADD nickname text;",
        "Cassandra cannot rename a regular column",
        "SELECT id, day, nick FROM ks.t;",
        "UPDATE ks.t SET nickname = ? WHERE id = ? AND day = ?;",
        "-- ALTER TABLE ks.t DROP nick;",
    ] {
        assert!(script.contains(want), "{want}\n{script}");
    }
    replays_to_new(&old, &new, &script);
    let d = semantic::semantic(&old, &new);
    let text = semantic::text(&d);
    assert!(
        text.contains("nick → nickname (renamed: copy the data"),
        "{text}"
    );
    assert!(d.is_breaking(), "{text}");
}

/// A renamed static column is copied partition by partition: the plan
/// reads each partition once (`SELECT DISTINCT` of the partition key) and
/// writes the value back by the partition key alone.
#[test]
fn a_renamed_static_column_is_copied_partition_by_partition() {
    let old = project(
        "CREATE TABLE ks.t (id uuid, day date, owner text static, v int, PRIMARY KEY (id, day));",
    );
    let new = project(
        "CREATE TABLE ks.t (id uuid, day date, owner_name text static, v int, PRIMARY KEY (id, day));",
    );
    let script = migrate::script(&old, &new);
    for want in [
        "Cassandra cannot rename a static column",
        "SELECT DISTINCT id, owner FROM ks.t;",
        "UPDATE ks.t SET owner_name = ? WHERE id = ?;",
        "ALTER TABLE ks.t ADD owner_name text STATIC;",
        "-- ALTER TABLE ks.t DROP owner;",
    ] {
        assert!(script.contains(want), "{want}\n{script}");
    }
    replays_to_new(&old, &new, &script);
}

/// A user type's field added at its end or renamed in place is altered
/// in place; a removed one is refused with the way to do it.
#[test]
fn type_fields_are_added_and_renamed_in_place() {
    let t = "CREATE TABLE ks.u (id uuid PRIMARY KEY, home frozen<addr>);";
    let old = project(&format!(
        "CREATE TYPE ks.addr (street text, city text);\n{t}"
    ));
    let new = project(&format!(
        "CREATE TYPE ks.addr (line1 text, city text, zip text);\n{t}"
    ));
    let script = migrate::script(&old, &new);
    for want in [
        "ALTER TYPE ks.addr RENAME street TO line1;",
        "ALTER TYPE ks.addr ADD zip text;",
    ] {
        assert!(script.contains(want), "{want}\n{script}");
    }
    replays_to_new(&old, &new, &script);
    let script = migrate::script(&new, &old);
    assert!(
        script.contains("Cassandra cannot remove or retype a field"),
        "{script}"
    );
    assert!(!script.contains("ALTER TYPE"), "{script}");
    assert!(semantic::semantic(&new, &old).is_breaking());
}

/// A key moved from one attribute to another the model still has (users
/// by email, then by phone) is a new key, never `RENAME email TO phone`,
/// which would keep emails under the name phone.
#[test]
fn a_key_moved_to_another_attribute_is_no_rename() {
    let old = project(
        "CREATE TABLE ks.users_by_contact (email text, id uuid, name text, phone text, PRIMARY KEY (email, id));",
    );
    // A user is identified by id alone; email and phone are searched.
    let mut by_email = old.clone();
    by_email.entities[0].key = vec!["id".into()];
    by_email.queries[0].returns.retain(|r| r != "phone");
    let mut by_phone = by_email.clone();
    by_phone.queries[0].returns.retain(|r| r != "email");
    by_phone.queries[0].returns.insert(0, "phone".into());
    by_phone.queries[0].equality = vec!["phone".into()];
    by_phone.decisions[0].candidates[0].partition = vec!["phone".into()];
    assert!(cqlmodel::model::load::validate(&by_phone).is_empty());
    let new_cql = export(&by_phone);
    assert!(new_cql.contains("PRIMARY KEY (phone, id)"), "{new_cql}");
    assert!(!new_cql.contains("    email "), "{new_cql}");
    assert!(export(&by_email).contains("PRIMARY KEY (email, id)"));
    let script = migrate::script(&by_email, &by_phone);
    assert!(!script.contains("RENAME"), "{script}");
    assert!(script.contains("users_by_contact_new"), "{script}");
    let text = semantic::text(&semantic::semantic(&by_email, &by_phone));
    assert!(!text.contains("renamed"), "{text}");
}
