//! Issue 40.2 as a property: pairs of models, the newer made from the
//! older by random schema changes (each written as the `ALTER`/`DROP`/
//! `CREATE` statement a team would run, replayed by the importer), go
//! through `diff` and `migrate`. Every table, type or keyspace whose
//! schema differs between the two exports is named by `diff`; the
//! `migrate` script, applied to a schema-state replay of the old export
//! (its commented drops done), gives the new export, or says why it
//! cannot (a user type's change, done by hand); every active `DROP` in it
//! comes under a comment saying what it does.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::migrate_rows::{export, state, with_drops_done};
use cqlmodel::lifecycle::diff::semantic;
use cqlmodel::lifecycle::import::{import_keyspace, parse, Level};
use cqlmodel::lifecycle::migrate;
use cqlmodel::model::naming::quote;
use cqlmodel::model::synthetic::Rng;

fn corpus_exports() -> Vec<String> {
    crate::support::corpus_keyspaces()
        .into_iter()
        .map(|(_, text, k)| export(&import_keyspace(&text, k.as_deref()).project))
        .collect()
}

/// One random change of the schema in `cql`, as a statement.
fn change(rng: &mut Rng, cql: &str) -> Option<String> {
    let s = parse(cql);
    let ks = quote(&s.keyspaces.first()?.name);
    let tables: Vec<_> = s.tables.iter().filter(|t| t.view_of.is_none()).collect();
    let t = tables.get(rng.below(tables.len()))?;
    let name = format!("{ks}.{}", quote(&t.name));
    let views: Vec<_> = s
        .tables
        .iter()
        .filter(|v| v.view_of.as_deref() == Some(t.name.as_str()))
        .collect();
    let regular: Vec<_> = t.columns.iter().filter(|c| !t.is_key(&c.name)).collect();
    let indexed = |c: &str| t.indexes.iter().any(|i| i == c);
    if !s.types.is_empty() && rng.below(6) == 0 {
        let ty = &s.types[rng.below(s.types.len())];
        let tname = format!("{ks}.{}", quote(&ty.name));
        return Some(if rng.below(2) == 0 {
            format!("ALTER TYPE {tname} ADD zz_field text;")
        } else {
            let (f, _) = &ty.fields[rng.below(ty.fields.len())];
            format!(
                "ALTER TYPE {tname} RENAME {} TO {};",
                quote(f),
                quote(&format!("{f}_renamed"))
            )
        });
    }
    Some(match rng.below(9) {
        0 => format!("ALTER TABLE {name} ADD zz_added text;"),
        1 => {
            // A key column renamed (none with an index or view on it).
            let keys: Vec<&String> = t
                .partition
                .iter()
                .chain(t.clustering.iter().map(|(c, _)| c))
                .filter(|c| !indexed(c))
                .collect();
            if !views.is_empty() || keys.is_empty() {
                return None;
            }
            let k = keys[rng.below(keys.len())];
            format!("ALTER TABLE {name} RENAME {} TO {};", quote(k), quote(&format!("{k}_renamed")))
        }
        2 => {
            // A regular column renamed: dropped and added with its type.
            let c = regular.get(rng.below(regular.len()))?;
            if indexed(&c.name) || !views.is_empty() || c.ty.to_string() == "counter" {
                return None;
            }
            format!(
                "ALTER TABLE {name} DROP {};\nALTER TABLE {name} ADD {} {};",
                quote(&c.name),
                quote(&format!("{}_renamed", c.name)),
                c.ty
            )
        }
        3 => {
            let c = regular.get(rng.below(regular.len()))?;
            if indexed(&c.name) || !views.is_empty() {
                return None;
            }
            format!("ALTER TABLE {name} DROP {};", quote(&c.name))
        }
        4 => format!(
            "ALTER TABLE {name} WITH gc_grace_seconds = {};",
            [3600, 86_400, 864_000][rng.below(3)]
        ),
        5 => {
            let mut out: Vec<String> = views
                .iter()
                .map(|v| format!("DROP MATERIALIZED VIEW {ks}.{};", quote(&v.name)))
                .collect();
            out.push(format!("DROP TABLE {name};"));
            out.join("\n")
        }
        6 => format!("CREATE TABLE {ks}.zz_new_table (id uuid PRIMARY KEY, v text);"),
        7 => format!(
            "ALTER KEYSPACE {ks} WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': {}}};",
            2 + rng.below(3)
        ),
        _ => {
            let v = views.first()?;
            format!("DROP MATERIALIZED VIEW {ks}.{};", quote(&v.name))
        }
    })
}

#[test]
fn random_model_pairs_diff_and_migrate_to_the_new_schema() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let exports = corpus_exports();
    let mut pairs = 0;
    for old_cql in &exports {
        for _ in 0..4 {
            let mut statements = Vec::new();
            for _ in 0..=rng.below(3) {
                if let Some(st) = change(&mut rng, old_cql) {
                    if !statements.contains(&st) {
                        statements.push(st);
                    }
                }
            }
            if statements.is_empty() {
                continue;
            }
            let new_text = format!("{old_cql}\n{}\n", statements.join("\n"));
            let imported = import_keyspace(&new_text, None);
            if imported.messages.iter().any(|m| m.level == Level::Error) {
                // Two changes that clash (a column dropped twice): skip.
                continue;
            }
            let old = import_keyspace(old_cql, None).project;
            let new = imported.project;
            let (old_state, new_state) = (state(&export(&old)), state(&export(&new)));
            if old_state == new_state {
                continue;
            }
            pairs += 1;
            let ctx = || statements.join("\n");
            // diff names every table whose schema differs.
            let d = semantic::semantic(&old, &new);
            let text = semantic::text(&d);
            let lines = |s: &str| {
                s.lines()
                    .map(str::to_string)
                    .collect::<std::collections::BTreeSet<_>>()
            };
            let (ol, nl) = (lines(&old_state), lines(&new_state));
            for l in ol.symmetric_difference(&nl) {
                let named = if let Some(rest) = l.strip_prefix("type ") {
                    rest.split(' ').next().unwrap_or("").to_string()
                } else if l.starts_with("keyspace ") {
                    "keyspace ".to_string()
                } else {
                    // `Some("ks").table view of …`
                    l.split_once(").")
                        .map_or("", |(_, r)| r)
                        .split(' ')
                        .next()
                        .unwrap_or("")
                        .to_string()
                };
                // A `SELECT *` view takes the columns its base table gains
                // or loses (Cassandra carries them over): naming the base
                // table names that change of the view.
                let base = l
                    .split_once(" view of Some(\"")
                    .filter(|_| l.contains("select: [],"))
                    .and_then(|(_, r)| r.split('"').next())
                    .map(|b| format!("table {b}:"));
                let via_base = base.is_some_and(|b| text.contains(&b));
                assert!(
                    !named.is_empty() && (text.contains(&named) || via_base),
                    "{}\ndiff does not name {named} ({l}):\n{text}",
                    ctx()
                );
            }
            // migrate replays to the new schema.
            let script = migrate::script(&old, &new);
            let replayed = state(&format!("{}\n{}", export(&old), with_drops_done(&script)));
            assert_eq!(replayed, new_state, "{}\n{script}", ctx());
            // No active DROP without a comment right above saying what it does.
            let script_lines: Vec<&str> = script.lines().collect();
            for (i, l) in script_lines.iter().enumerate() {
                if l.starts_with("DROP ") || (l.starts_with("ALTER TABLE") && l.contains(" DROP "))
                {
                    assert!(
                        i > 0 && script_lines[i - 1].starts_with("--"),
                        "{}\nan unexplained drop: {l}\n{script}",
                        ctx()
                    );
                }
            }
        }
    }
    assert!(pairs >= 50, "only {pairs} pairs differed");
}
