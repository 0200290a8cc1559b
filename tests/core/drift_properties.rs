//! Drift as a property over the real schemas of `../shared/cql-corpus`:
//! every table of every imported project, drifted in the live schema one
//! way at a time (drop a column, flip a clustering direction, add a
//! column, change a type, drop the table), is reported; and the command
//! fails exactly where the drift breaks the table's query: a column it
//! reads is gone, the table is gone, or its ORDER BY no longer runs on the
//! live clustering (Cassandra's rule: the clustering order or its exact
//! reverse).
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::lifecycle::import::against::{drift, Answer, QueryFit};
use cqlmodel::lifecycle::import::{import_keyspace, Schema, TableDef};
use cqlmodel::model::{CqlType, Dir};

fn runs() -> Vec<(String, Option<String>)> {
    crate::support::corpus_keyspaces()
        .into_iter()
        .map(|(_, text, keyspace)| (text, keyspace))
        .collect()
}

/// The ORDER BY of a SELECT as (column, direction).
fn order_by(select: &str) -> Vec<(String, Dir)> {
    let Some((_, rest)) = select.split_once(" ORDER BY ") else {
        return vec![];
    };
    let rest = rest
        .split([';'])
        .next()
        .unwrap_or("")
        .split(" LIMIT ")
        .next()
        .unwrap_or("")
        .split(" ALLOW FILTERING")
        .next()
        .unwrap_or("");
    rest.split(", ")
        .filter_map(|part| {
            let (c, d) = part.trim().rsplit_once(' ')?;
            let c = c.trim_matches('"').replace("\"\"", "\"");
            Some((c, if d == "DESC" { Dir::Desc } else { Dir::Asc }))
        })
        .collect()
}

/// Cassandra runs an ORDER BY when its columns follow the clustering
/// order and every direction is the declared one, or every one reversed.
fn order_runs(order: &[(String, Dir)], live: &[(String, Dir)]) -> bool {
    let mut last = None;
    let (mut same, mut reversed) = (true, true);
    for (c, d) in order {
        let Some(at) = live.iter().position(|(l, _)| l == c) else {
            return false;
        };
        if last.is_some_and(|l| at <= l) {
            return false;
        }
        last = Some(at);
        same &= live[at].1 == *d;
        reversed &= live[at].1 != *d;
    }
    same || reversed
}

fn fails(q: &QueryFit) -> bool {
    q.breaks || q.answer == Answer::NotAtAll
}

#[test]
fn every_drift_of_every_table_is_reported_and_fails_where_it_breaks() {
    let mut checked = [0usize; 5];
    for (text, keyspace) in runs() {
        let imported = import_keyspace(&text, keyspace.as_deref());
        let p = &imported.project;
        let a = analyze(p);
        let live = &imported.schema;
        for t in &a.model.tables {
            let Some(ti) = live
                .tables
                .iter()
                .position(|s| s.name == t.name.as_str() && s.view_of.is_none())
            else {
                continue;
            };
            let own = |d: &cqlmodel::lifecycle::import::against::Drift| -> Vec<QueryFit> {
                d.queries
                    .iter()
                    .filter(|q| q.model_table.as_deref() == Some(t.name.as_str()))
                    .cloned()
                    .collect()
            };
            let drifted = |change: &dyn Fn(&mut TableDef)| -> Schema {
                let mut s = live.clone();
                change(&mut s.tables[ti]);
                s
            };
            let base = &live.tables[ti];
            let regular = base
                .columns
                .iter()
                .find(|c| !base.is_key(&c.name))
                .map(|c| c.name.clone());
            // 1. A column the query reads is dropped: reported, and fails.
            if let Some(col) = &regular {
                let d = drift(p, &a, &drifted(&|s| s.columns.retain(|c| c.name != *col)));
                for q in own(&d) {
                    assert!(fails(&q), "{}: drop {col}: {q:?}", t.name);
                    assert!(
                        q.differences.iter().any(|x| x.contains(col.as_str())),
                        "{}: {q:?}",
                        t.name
                    );
                }
                checked[0] += 1;
            }
            // 2. A clustering direction flipped: reported; fails iff the
            //    model's ORDER BY no longer runs.
            if !base.clustering.is_empty() {
                let flip = |s: &mut TableDef| {
                    let d = &mut s.clustering[0].1;
                    *d = if *d == Dir::Asc { Dir::Desc } else { Dir::Asc };
                };
                let changed = drifted(&flip);
                let d = drift(p, &a, &changed);
                for q in own(&d) {
                    assert!(
                        q.differences.iter().any(|x| x.contains("clustering")),
                        "{}: {q:?}",
                        t.name
                    );
                    let plan = a
                        .model
                        .plans
                        .iter()
                        .find(|pl| pl.query == q.query)
                        .expect("plan");
                    let runs = order_runs(
                        &order_by(plan.select.as_str()),
                        &changed.tables[ti].clustering,
                    );
                    assert_eq!(
                        fails(&q),
                        !runs,
                        "{}: flip: {} {q:?}",
                        t.name,
                        plan.select.as_str()
                    );
                }
                checked[1] += 1;
            }
            // 3. A column added: listed, fails nothing.
            let d = drift(
                p,
                &a,
                &drifted(&|s| {
                    s.columns
                        .push(cqlmodel::lifecycle::import::schema::ColumnDef {
                            name: "zz_added".into(),
                            ty: CqlType::text(),
                            is_static: false,
                        });
                }),
            );
            for q in own(&d) {
                assert!(!fails(&q), "{}: add: {q:?}", t.name);
                assert!(
                    q.differences.iter().any(|x| x.contains("zz_added")),
                    "{}: {q:?}",
                    t.name
                );
            }
            checked[2] += 1;
            // 4. A type changed: reported.
            if let Some(col) = &regular {
                let d = drift(
                    p,
                    &a,
                    &drifted(&|s| {
                        for c in s.columns.iter_mut().filter(|c| c.name == *col) {
                            c.ty = if c.ty == CqlType::text() {
                                "int".parse().expect("int")
                            } else {
                                CqlType::text()
                            };
                        }
                    }),
                );
                for q in own(&d) {
                    assert!(
                        q.differences
                            .iter()
                            .any(|x| x.contains(col.as_str()) && x.contains("in the schema")),
                        "{}: {q:?}",
                        t.name
                    );
                }
                checked[3] += 1;
            }
            // 5. The table dropped: its queries fail.
            let mut gone = live.clone();
            gone.tables.remove(ti);
            let d = drift(p, &a, &gone);
            for q in own(&d) {
                // Reported: another table answers (named), or the query
                // fails; another table answers only holding every column.
                assert_ne!(q.schema_table.as_deref(), Some(t.name.as_str()));
                if !fails(&q) {
                    let other = q
                        .schema_table
                        .as_deref()
                        .and_then(|n| gone.tables.iter().find(|s| s.name == n))
                        .unwrap_or_else(|| panic!("{}: drop table: {q:?}", t.name));
                    assert!(
                        t.columns.iter().all(|c| other.column(&c.name).is_some()),
                        "{}: drop table: {q:?}",
                        t.name
                    );
                }
            }
            checked[4] += 1;
        }
    }
    // Every kind ran on many tables (the corpus has 200+).
    for (kind, n) in checked.iter().enumerate() {
        assert!(*n > 100, "kind {kind} ran on {n} tables");
    }
}
