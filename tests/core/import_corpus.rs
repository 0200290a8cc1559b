//! `cqlmodel import` against real schemas (`../shared/cql-corpus`), the
//! samples' own exports and hand-written DESCRIBE outputs: every file
//! imports, the result is a valid project, and its CQL export is the same
//! schema again (same tables, same primary keys, same columns).
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::derive::{derive, Role};
use cqlmodel::lifecycle::import::{import, parse, Level};
use cqlmodel::model::{load, CqlType, Dir};
use std::fmt::Write as _;
use std::path::PathBuf;

/// Every table as `name: ((partition), clustering±) [columns] idx`, sorted.
fn shape_of_schema(s: &cqlmodel::lifecycle::import::Schema) -> Vec<String> {
    let mut out: Vec<String> = s
        .tables
        .iter()
        .map(|t| {
            let cl: Vec<String> = t
                .clustering
                .iter()
                .map(|(c, d)| format!("{c}{}", if *d == Dir::Desc { "-" } else { "+" }))
                .collect();
            // Types exactly, frozen or not (inside a frozen value all is
            // frozen: canonical).
            let mut cols: Vec<String> = t
                .columns
                .iter()
                .map(|c| {
                    let stat = if c.is_static { " static" } else { "" };
                    format!("{} {}{stat}", c.name, canonical(&c.ty, false))
                })
                .collect();
            cols.sort();
            let mut idx = t.indexes.clone();
            idx.sort();
            let view = match (&t.view_of, &t.view) {
                (Some(base), Some(v)) => format!(
                    " view of {base} select {:?} where {} options {:?}",
                    v.select, v.filter, v.options
                ),
                _ => String::new(),
            };
            format!(
                "{}{view}: (({}), {}) [{}] idx[{}] ttl {:?}{}",
                t.name,
                t.partition.join(", "),
                cl.join(", "),
                cols.join(", "),
                idx.join(", "),
                t.ttl,
                options_of(&t.options)
            )
        })
        .collect();
    out.sort();
    out
}

/// A table's options as one line (empty when it has none), each as
/// Cassandra reads it: class names in full, spans in seconds.
fn options_of(o: &cqlmodel::model::physical::TableOptions) -> String {
    let mut parts = Vec::new();
    if let Some(c) = &o.compaction {
        parts.push(format!("compaction {} {:?}", c.strategy.class(), c.options));
    }
    if let Some(g) = &o.gc_grace {
        parts.push(format!("gc_grace {}", g.whole_seconds()));
    }
    if let Some(c) = &o.caching {
        parts.push(format!("caching {c:?}"));
    }
    if let Some(c) = &o.compression {
        parts.push(format!("compression {c:?}"));
    }
    if let Some(b) = o.bloom_filter_fp_chance {
        parts.push(format!("bloom_filter_fp_chance {b}"));
    }
    if let Some(r) = &o.speculative_retry {
        parts.push(format!("speculative_retry {r}"));
    }
    if let Some(c) = o.cdc {
        parts.push(format!("cdc {c}"));
    }
    for (k, v) in &o.other {
        parts.push(format!("{k} {v}"));
    }
    for (column, spec) in &o.indexes {
        parts.push(format!("index on {column} {spec:?}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" with {}", parts.join("; "))
    }
}

/// Inside a frozen value everything is frozen: `frozen<list<frozen<a>>>`
/// is `frozen<list<a>>`.
fn canonical(ty: &CqlType, frozen: bool) -> CqlType {
    let c = |t: &CqlType, f: bool| Box::new(canonical(t, f));
    match ty {
        CqlType::Frozen(t) if frozen => canonical(t, true),
        CqlType::Frozen(t) => CqlType::Frozen(c(t, true)),
        CqlType::List(t) => CqlType::List(c(t, frozen)),
        CqlType::Set(t) => CqlType::Set(c(t, frozen)),
        CqlType::Map(k, v) => CqlType::Map(c(k, frozen), c(v, frozen)),
        CqlType::Tuple(ts) => CqlType::Tuple(ts.iter().map(|t| canonical(t, frozen)).collect()),
        CqlType::Vector(t, n) => CqlType::Vector(c(t, frozen), *n),
        other => other.clone(),
    }
}

#[test]
fn every_corpus_schema_imports_and_exports_the_same_tables() {
    let files = crate::support::corpus_files();
    assert_eq!(files.len(), 25);
    let mut report = String::new();
    // Each keyspace of a file is a project of its own.
    let runs: Vec<(PathBuf, Option<String>)> = crate::support::corpus_keyspaces()
        .into_iter()
        .map(|(f, _, k)| (f, k))
        .collect();
    assert!(
        runs.len() > files.len(),
        "some files hold several keyspaces"
    );
    for (f, keyspace) in &runs {
        let text = std::fs::read_to_string(f).expect("readable");
        let imported = cqlmodel::lifecycle::import::import_keyspace(&text, keyspace.as_deref());
        let name = match keyspace {
            Some(k) => format!(
                "{} (keyspace {k})",
                f.file_name().unwrap().to_string_lossy()
            ),
            None => f.file_name().unwrap().to_string_lossy().into_owned(),
        };
        let problems = load::validate(&imported.project);
        assert!(problems.is_empty(), "{name}: {problems:?}");
        let a = analyze(&imported.project);
        assert!(
            a.model.problems.is_empty(),
            "{name}: {:?}",
            a.model.problems
        );
        let cql = cqlmodel::output::cql::script(&imported.project, &a.model);
        let again = parse(&cql);
        let errors: Vec<_> = again
            .messages
            .iter()
            .filter(|m| m.level == Level::Error)
            .collect();
        assert!(
            errors.is_empty(),
            "{name}: export does not read back: {errors:?}\n{cql}"
        );
        let mut want = shape_of_schema(&imported.schema);
        // Names the project could not keep are reported, not exported.
        want.retain(|l| {
            again.tables.iter().any(|t| {
                l.starts_with(&format!("{}:", t.name))
                    || l.starts_with(&format!("{} view of", t.name))
            })
        });
        assert_eq!(shape_of_schema(&again), want, "{name}");
        // The keyspace: name, replication, durable writes.
        if let Some(k) = imported.schema.keyspaces.first() {
            let back = &again.keyspaces[0];
            assert_eq!(
                (&back.name, &back.replication, back.durable_writes),
                (&k.name, &k.replication, k.durable_writes),
                "{name}"
            );
        }
        // Types with their fields.
        let fields = |s: &cqlmodel::lifecycle::import::Schema| {
            let mut t: Vec<String> = s
                .types
                .iter()
                .map(|t| format!("{} {:?}", t.name, t.fields))
                .collect();
            t.sort();
            t
        };
        assert_eq!(fields(&again), fields(&imported.schema), "{name}");
        // The export passes the validator (warnings are the schema's own:
        // views and SASI experimental, options as the original set them).
        if let Some(tool) = crate::support::cqlcheck() {
            let dir = tempfile::tempdir().expect("tempdir");
            let file = dir.path().join("export.cql");
            std::fs::write(&file, &cql).expect("write");
            let mut run = std::process::Command::new(&tool);
            if imported.project.cassandra == cqlmodel::model::physical::CassandraVersion::V5_0 {
                run.args(["--target", "5.0"]);
            }
            let out = run.arg(&file).output().expect("cqlcheck runs");
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{name}: {stdout}");
        }
        // And `check --against` the original finds nothing.
        let drift =
            cqlmodel::lifecycle::import::against::drift(&imported.project, &a, &imported.schema);
        for q in &drift.queries {
            assert!(q.differences.is_empty() && !q.breaks, "{name}: {q:?}");
        }
        assert!(drift.views.is_empty(), "{name}: {:?}", drift.views);
        let kept: Vec<&str> = again.tables.iter().map(|t| t.name.as_str()).collect();
        let unused: Vec<&String> = drift
            .unused_tables
            .iter()
            .filter(|t| kept.contains(&t.as_str()))
            .collect();
        assert!(unused.is_empty(), "{name}: {unused:?}");
        let _ = writeln!(report, "== {name}");
        for k in &imported.schema.keyspaces {
            let _ = writeln!(report, "keyspace {} {:?}", k.name, k.replication);
        }
        for t in &imported.schema.types {
            let _ = writeln!(report, "type {} ({} fields)", t.name, t.fields.len());
        }
        for l in shape_of_schema(&imported.schema) {
            let _ = writeln!(report, "table {l}");
        }
        for m in &imported.messages {
            let _ = writeln!(report, "{m}");
        }
        let _ = writeln!(
            report,
            "=> {} entities, {} queries",
            imported.project.entities.len(),
            imported.project.queries.len()
        );
    }
    insta::assert_snapshot!("corpus_imports", report);
}

/// `import(cql(p))` re-derives every table of `p` with the same name, the
/// same primary key (columns, roles, directions) and the same columns.
fn reimport_matches(p: &cqlmodel::model::Project, what: &str) -> Result<(), String> {
    let m = derive(p);
    let cql = cqlmodel::output::cql::script(p, &m);
    let imported = import(&cql);
    if let Some(e) = imported.messages.iter().find(|m| m.level == Level::Error) {
        return Err(format!("{what}: {e}"));
    }
    let back = derive(&imported.project);
    let key = |t: &cqlmodel::derive::Table| -> Vec<(String, Role)> {
        t.columns
            .iter()
            .filter(|c| c.role.is_key())
            .map(|c| (c.name.to_string(), c.role))
            .collect()
    };
    for t in &m.tables {
        let Some(b) = back.tables.iter().find(|x| x.name == t.name) else {
            return Err(format!("{what}: table {} not re-derived", t.name));
        };
        if key(b) != key(t) {
            return Err(format!("{what}: {}: {:?} != {:?}", t.name, key(b), key(t)));
        }
        let mut cols: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
        let mut bcols: Vec<&str> = b.columns.iter().map(|c| c.name.as_str()).collect();
        cols.sort_unstable();
        bcols.sort_unstable();
        if cols != bcols {
            return Err(format!("{what}: {}: {bcols:?} != {cols:?}", t.name));
        }
    }
    if back.tables.len() != m.tables.len() {
        return Err(format!(
            "{what}: {} tables, not {}",
            back.tables.len(),
            m.tables.len()
        ));
    }
    Ok(())
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]
    #[test]
    fn generated_projects_reimport_with_the_same_keys(n in 1usize..12, m in 1usize..16, seed in 0u64..1000) {
        let p = cqlmodel::model::synthetic::project(n, m, seed);
        let r = reimport_matches(&p, "synthetic");
        proptest::prop_assert!(r.is_ok(), "{:?}", r);
    }
}

#[test]
fn every_sample_export_imports_with_the_same_keys() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-projects");
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).expect("samples") {
        let path = entry.expect("entry").path();
        let p = load::read(&path).expect("sample loads");
        if let Err(e) = reimport_matches(&p, &path.display().to_string()) {
            panic!("{e}");
        }
        n += 1;
    }
    assert!(n >= 6);
}
