//! The physical schema: per-table retention and TTL in any unit, the
//! options the derivation proposes with their reasons, the designer's
//! overrides, what each Cassandra version accepts, and import keeping a
//! table's options to that table. Figures are worked out by hand in the
//! comments.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::support;
use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::{Origin, Table};
use cqlmodel::model::physical::{CassandraVersion, Compaction, Span, Strategy};
use cqlmodel::model::{load, Project};

fn weather() -> Project {
    support::sample("weather.cqlm.ron")
}

fn table<'a>(a: &'a Analysis, query: &str) -> (usize, &'a Table) {
    let t = a
        .model
        .table_of(query)
        .unwrap_or_else(|| panic!("no table for {query}"));
    let i = a
        .model
        .tables
        .iter()
        .position(|x| x.name == t.name)
        .unwrap_or_else(|| panic!("{} is not listed", t.name));
    (i, t)
}

fn window(t: &Table) -> (String, String) {
    let c = t.physical.compaction.value.as_ref().unwrap_or_else(|| {
        panic!(
            "{} has no compaction: {}",
            t.name, t.physical.compaction.why
        )
    });
    assert_eq!(c.strategy, Strategy::TimeWindow, "{}", t.name);
    (
        c.options["compaction_window_unit"].clone(),
        c.options["compaction_window_size"].clone(),
    )
}

/// Two years of readings: TTL 730 × 86,400 = 63,072,000 s; 730 / 30 =
/// 24.3 → 24-day windows (30.4 of them). The latest readings: TTL 20 s, one
/// 1-minute window (the smallest). Both only expire: `gc_grace` 3 h = 10,800 s.
#[test]
fn the_weather_tables_get_ttls_windows_and_gc_grace_fitted_to_their_retention() {
    let a = analyze(&weather());
    let (_, history) = table(&a, "Q1");
    let (_, day) = table(&a, "Q2");
    let (_, latest) = table(&a, "Q3");
    assert_eq!(history.ttl_seconds, Some(63_072_000));
    assert_eq!(day.ttl_seconds, Some(63_072_000));
    assert_eq!(latest.ttl_seconds, Some(20));
    assert_eq!(window(history), ("DAYS".into(), "24".into()));
    assert_eq!(window(day), ("DAYS".into(), "24".into()));
    assert_eq!(window(latest), ("MINUTES".into(), "1".into()));
    for t in [history, day, latest] {
        assert_eq!(t.physical.gc_grace.value, Some(10_800), "{}", t.name);
        assert_eq!(t.physical.gc_grace.origin, Origin::Derived);
        assert_eq!(t.physical.compaction.origin, Origin::Derived);
        assert!(
            t.physical.compaction.why.contains("ts order"),
            "{}",
            t.physical.compaction.why
        );
    }
    assert!(history.physical.compaction.why.contains("30.4 windows"));
    assert!(
        latest
            .physical
            .ttl_why
            .contains("20s (the table's retention)"),
        "{}",
        latest.physical.ttl_why
    );
    let cql = cqlmodel::output::cql::script(&weather(), &a.model);
    assert!(cql.contains("default_time_to_live = 20\n"), "{cql}");
    assert!(cql.contains(
        "compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_size': '1', 'compaction_window_unit': 'MINUTES'}"
    ));
    assert!(cql.contains("gc_grace_seconds = 10800"));
}

/// 5,000 stations × 1,440 readings a day × 730 days = 5,256,000,000
/// readings. A day's partition (station, day): 5,000 × 730 = 3,650,000
/// partitions of 1,440 rows. The 20-second table keeps 20 / 63,072,000 of
/// them: 5,256,000,000 × 20 / 63,072,000 = 1,666.7 rows, at most one per
/// station.
#[test]
fn estimates_count_the_rows_each_table_keeps() {
    let a = analyze(&weather());
    let (qd, _) = table(&a, "Q2");
    let (ql, _) = table(&a, "Q3");
    let day = &a.estimates[qd];
    assert!(
        (day.partitions - 3_650_000.0).abs() < 1.0,
        "{}",
        day.partitions
    );
    assert!(
        (day.rows_per_partition - 1_440.0).abs() < 1e-6,
        "{}",
        day.rows_per_partition
    );
    let latest = &a.estimates[ql];
    assert!(
        (latest.rows - 5_256_000_000.0 * 20.0 / 63_072_000.0).abs() < 0.01,
        "{}",
        latest.rows
    );
    assert!(
        latest.rows_per_partition <= 1.0 + 1e-9,
        "{}",
        latest.rows_per_partition
    );
}

/// The designer's choice wins and is said to be the designer's.
#[test]
fn the_designers_options_override_the_proposals() {
    let mut p = weather();
    let d = p.decision_mut("Q2");
    d.options.compaction = Some(Compaction {
        strategy: Strategy::Leveled,
        options: [("sstable_size_in_mb".to_string(), "160".to_string())].into(),
    });
    d.options.gc_grace = Some(Span::parse("1d").expect("span"));
    d.options.speculative_retry = Some("99p".into());
    d.options.caching = Some([("keys".to_string(), "ALL".to_string())].into());
    assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
    let a = analyze(&p);
    let (_, t) = table(&a, "Q2");
    assert_eq!(t.physical.compaction.origin, Origin::Designer);
    assert_eq!(t.physical.gc_grace.value, Some(86_400));
    assert_eq!(t.physical.gc_grace.origin, Origin::Designer);
    let cql = cqlmodel::output::cql::table(&p, t);
    for want in [
        "compaction = {'class': 'LeveledCompactionStrategy', 'sstable_size_in_mb': '160'}",
        "gc_grace_seconds = 86400",
        "speculative_retry = '99p'",
        "caching = {'keys': 'ALL'}",
    ] {
        assert!(cql.contains(want), "{want}\n{cql}");
    }
}

/// Without a TTL there is nothing to expire by window: the default, with
/// why; a table whose rows are deleted keeps the 10-day `gc_grace`.
#[test]
fn no_ttl_or_deletes_keep_the_defaults_and_say_why() {
    let mut p = weather();
    p.decision_mut("Q2").options.ttl = Some(false);
    let a = analyze(&p);
    let (_, t) = table(&a, "Q2");
    assert_eq!(t.ttl_seconds, None);
    assert_eq!(t.physical.compaction.origin, Origin::Default);
    assert!(
        t.physical.compaction.why.contains("kept, not expired"),
        "{}",
        t.physical.compaction.why
    );
    assert_eq!(t.physical.gc_grace.value, None);

    let logs = analyze(&support::sample("logs.cqlm.ron"));
    for t in &logs.model.tables {
        assert_eq!(t.physical.compaction.value, None, "{}", t.name);
        assert!(
            t.physical.compaction.why.contains("state no retention"),
            "{}",
            t.physical.compaction.why
        );
    }

    let mut q = weather();
    let qi = q.queries.iter().position(|x| x.id == "Q2").expect("Q2");
    q.queries[qi].consumes = true;
    let a = analyze(&q);
    let (_, t) = table(&a, "Q2");
    assert_eq!(t.physical.gc_grace.value, None);
    assert!(
        t.physical.gc_grace.why.contains("deletes"),
        "{}",
        t.physical.gc_grace.why
    );
    assert_eq!(t.physical.compaction.value, None);
}

/// `UnifiedCompactionStrategy` is a 5.0 strategy; retention spans read in
/// any unit and a TTL needs one.
#[test]
fn validation_follows_the_target_version_and_spans() {
    let mut p = weather();
    p.decision_mut("Q2").options.compaction = Some(Compaction {
        strategy: Strategy::Unified,
        options: std::collections::BTreeMap::default(),
    });
    let problems = load::validate(&p);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(
        problems[0].path.ends_with(".options.compaction.strategy"),
        "{:?}",
        problems[0]
    );
    p.cassandra = CassandraVersion::V5_0;
    assert!(load::validate(&p).is_empty());

    let text = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/weather.cqlm.ron"),
    )
    .expect("sample");
    let bad = text.replace(
        "retention: Some(\"20s\")",
        "retention: Some(\"20 parsecs\")",
    );
    match load::from_str(&bad) {
        Err(e) => assert!(e.to_string().contains("not a span of time"), "{e}"),
        Ok(_) => panic!("a bad span loads"),
    }
}

/// A schema of two tables of the same rows, one with a TTL and TWCS: the
/// import keeps each table's options to that table (no TTL leaks onto the
/// other), and the export writes them back.
#[test]
fn import_keeps_each_tables_options_to_that_table() {
    let schema = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n\
        CREATE TABLE ks.users (id uuid PRIMARY KEY, name text);\n\
        CREATE TABLE ks.users_recent (id uuid PRIMARY KEY, name text) WITH default_time_to_live = 604800\n\
          AND compaction = {'class': 'TimeWindowCompactionStrategy', 'compaction_window_unit': 'HOURS', 'compaction_window_size': '6'}\n\
          AND gc_grace_seconds = 0 AND bloom_filter_fp_chance = 0.1;\n";
    let imported = cqlmodel::lifecycle::import::import(schema);
    assert!(
        load::validate(&imported.project).is_empty(),
        "{:?}",
        load::validate(&imported.project)
    );
    let a = analyze(&imported.project);
    let users = a.model.table("users").expect("users");
    let recent = a.model.table("users_recent").expect("users_recent");
    assert_eq!(users.ttl_seconds, None);
    assert_eq!(users.physical.compaction.value, None);
    assert_eq!(users.physical.gc_grace.value, None);
    assert_eq!(recent.ttl_seconds, Some(604_800));
    assert_eq!(recent.physical.gc_grace.value, Some(0));
    let cql = cqlmodel::output::cql::script(&imported.project, &a.model);
    let users_cql = cqlmodel::output::cql::table(&imported.project, users);
    assert!(!users_cql.contains("default_time_to_live"), "{users_cql}");
    assert!(!users_cql.contains("compaction"), "{users_cql}");
    for want in [
        "default_time_to_live = 604800",
        "'compaction_window_size': '6', 'compaction_window_unit': 'HOURS'",
        "gc_grace_seconds = 0",
        "bloom_filter_fp_chance = 0.1",
    ] {
        assert!(cql.contains(want), "{want}\n{cql}");
    }
    if let Some(tool) = support::cqlcheck() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("import.cql");
        std::fs::write(&f, &cql).expect("write");
        support::cqlcheck_file(&tool, &f).unwrap_or_else(|e| panic!("{e}\n{cql}"));
    }
}

/// `durable_writes` set off in the model is what the export writes.
#[test]
fn the_keyspace_writes_its_durable_writes() {
    let mut p = weather();
    assert!(cqlmodel::output::cql::keyspace(&p).contains("AND durable_writes = true;"));
    p.keyspace.durable_writes = false;
    assert!(cqlmodel::output::cql::keyspace(&p).contains("AND durable_writes = false;"));
}

/// Index names, kinds, targets and options survive import and export; a
/// SAI index makes the project target 5.0; `migrate` drops an index by the
/// name it has on the cluster and rebuilds one whose kind changed.
#[test]
fn indexes_keep_their_names_and_kinds() {
    use cqlmodel::model::physical::IndexKind;
    let schema = "CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n\
        CREATE TABLE ks.users (id uuid PRIMARY KEY, email text, name text, prefs map<text, text>, bio text);\n\
        CREATE INDEX by_email ON ks.users (email);\n\
        CREATE CUSTOM INDEX users_name_sai ON ks.users (name) USING 'StorageAttachedIndex';\n\
        CREATE INDEX prefs_keys ON ks.users (KEYS(prefs));\n\
        CREATE CUSTOM INDEX bio_prefix ON ks.users (bio) USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'mode': 'PREFIX'};\n";
    let imported = cqlmodel::lifecycle::import::import(schema);
    let p = &imported.project;
    assert!(load::validate(p).is_empty(), "{:?}", load::validate(p));
    assert_eq!(p.cassandra, CassandraVersion::V5_0, "SAI needs 5.0");
    let a = analyze(p);
    let t = a.model.table("users").expect("users");
    let specs = &t.physical.options.indexes;
    assert_eq!(specs["email"].name.as_deref(), Some("by_email"));
    assert_eq!(specs["name"].kind, IndexKind::Sai);
    assert_eq!(specs["prefs"].target.as_deref(), Some("keys"));
    assert_eq!(specs["bio"].kind, IndexKind::Sasi);
    let cql = cqlmodel::output::cql::script(p, &a.model);
    for want in [
        "CREATE INDEX IF NOT EXISTS by_email ON ks.users (email);",
        "CREATE CUSTOM INDEX IF NOT EXISTS users_name_sai ON ks.users (name) USING 'StorageAttachedIndex';",
        "CREATE INDEX IF NOT EXISTS prefs_keys ON ks.users (keys(prefs));",
        "CREATE CUSTOM INDEX IF NOT EXISTS bio_prefix ON ks.users (bio) USING 'org.apache.cassandra.index.sasi.SASIIndex' WITH OPTIONS = {'mode': 'PREFIX'};",
    ] {
        assert!(cql.contains(want), "{want}\n{cql}");
    }
    // The export read back gives the same indexes.
    let again = cqlmodel::lifecycle::import::import(&cql);
    let back = analyze(&again.project);
    assert_eq!(
        back.model
            .table("users")
            .expect("users")
            .physical
            .options
            .indexes,
        *specs
    );

    // A dropped index is dropped by its own name; a kind change rebuilds.
    let mut fewer = p.clone();
    let d = fewer.decision_mut("Q1");
    for k in &mut d.candidates {
        k.indexes.retain(|c| c != "email");
    }
    d.options.indexes.remove("email");
    d.options.indexes.get_mut("bio").expect("bio").kind = IndexKind::Sai;
    d.options
        .indexes
        .get_mut("bio")
        .expect("bio")
        .options
        .clear();
    let script = cqlmodel::lifecycle::migrate::script(p, &fewer);
    assert!(
        script.contains("-- DROP INDEX IF EXISTS ks.by_email;"),
        "{script}"
    );
    assert!(
        script.contains("DROP INDEX IF EXISTS ks.bio_prefix;\n"),
        "{script}"
    );
    assert!(
        script.contains("CREATE CUSTOM INDEX IF NOT EXISTS bio_prefix ON ks.users (bio) USING 'StorageAttachedIndex';"),
        "{script}"
    );
    let diff = cqlmodel::lifecycle::diff::semantic::semantic(p, &fewer);
    assert!(
        !diff.is_breaking(),
        "{}",
        cqlmodel::lifecycle::diff::semantic::text(&diff)
    );

    if let Some(tool) = support::cqlcheck() {
        let dir = tempfile::tempdir().expect("tempdir");
        let f = dir.path().join("indexes.cql");
        std::fs::write(&f, &cql).expect("write");
        let out = std::process::Command::new(&tool)
            .args(["--target", "5.0"])
            .arg(&f)
            .output()
            .expect("cqlcheck runs");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && !text.contains("FAIL"),
            "{text}\n{cql}"
        );
    }
}

/// `/dev/null` on either side of `diff` is no schema: adding a project is
/// not a keyspace rename, and it breaks nothing.
#[test]
fn diff_against_dev_null_is_not_a_keyspace_rename() {
    let dir = tempfile::tempdir().expect("tempdir");
    let sample =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/weather.cqlm.ron");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .args(["diff", "/dev/null"])
        .arg(&sample)
        .current_dir(dir.path())
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains("keyspace"), "{text}");
    assert_eq!(out.status.code(), Some(0), "{text}");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .args(["migrate", "/dev/null"])
        .arg(&sample)
        .output()
        .expect("runs");
    let script = String::from_utf8_lossy(&out.stdout);
    assert!(!script.contains("renamed"), "{script}");
    assert!(
        script.contains("CREATE TABLE IF NOT EXISTS weather."),
        "{script}"
    );
}
