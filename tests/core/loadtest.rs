//! Load-test exports: the files parse as YAML, use only keys the tools
//! read, every CQL statement without bind markers passes cqlcheck, and the
//! distributions they declare reproduce the estimates within 1 %.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::support;
use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::cost::cost;
use cqlmodel::model::Project;
use cqlmodel::output::loadtest::{cassandra_stress, nosqlbench, Shape};
use yaml_rust::{Yaml, YamlLoader};

/// Keys of `StressYaml` (Apache Cassandra tools/stress) and of its
/// column spec, query and insert maps as `StressProfile` reads them.
const STRESS_TOP: [&str; 8] = [
    "keyspace",
    "keyspace_definition",
    "table",
    "table_definition",
    "extra_definitions",
    "columnspec",
    "queries",
    "insert",
];
const STRESS_COLUMN: [&str; 4] = ["name", "size", "population", "cluster"];
const STRESS_QUERY: [&str; 2] = ["cql", "fields"];
const STRESS_INSERT: [&str; 4] = ["partitions", "select", "row-population", "batchtype"];

/// `NoSQLBench` workload template keys (docs: workloads 101, cqld4 op
/// templates).
const NB_TOP: [&str; 5] = ["description", "scenarios", "bindings", "params", "blocks"];
const NB_BLOCK: [&str; 3] = ["params", "bindings", "ops"];
const NB_OP: [&str; 5] = ["raw", "prepared", "simple", "ratio", "params"];
const NB_PARAMS: [&str; 3] = ["cl", "prepared", "ratio"];

fn parse(text: &str) -> Yaml {
    let mut docs = YamlLoader::load_from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(docs.len(), 1, "one document");
    docs.remove(0)
}

fn keys(y: &Yaml) -> Vec<String> {
    y.as_hash()
        .unwrap_or_else(|| panic!("a map: {y:?}"))
        .keys()
        .map(|k| {
            k.as_str()
                .unwrap_or_else(|| panic!("a string key"))
                .to_string()
        })
        .collect()
}

fn only_known(y: &Yaml, known: &[&str], what: &str) {
    for k in keys(y) {
        assert!(known.contains(&k.as_str()), "{what}: unknown key {k}");
    }
}

fn s<'a>(y: &'a Yaml, key: &str) -> &'a str {
    y[key]
        .as_str()
        .unwrap_or_else(|| panic!("{key} is a string: {y:?}"))
}

/// `uniform(a..b)` or `fixed(n)` as (a, b).
fn range(d: &str) -> (f64, f64) {
    let inner = |p: &str| {
        d.strip_prefix(p)
            .and_then(|r| r.strip_suffix(')'))
            .map(str::to_string)
    };
    if let Some(n) = inner("fixed(") {
        let n: f64 = n.parse().unwrap_or_else(|e| panic!("{d}: {e}"));
        return (n, n);
    }
    let body = inner("uniform(").unwrap_or_else(|| panic!("{d}"));
    let (a, b) = body.split_once("..").unwrap_or_else(|| panic!("{d}"));
    (
        a.parse().unwrap_or_else(|e| panic!("{d}: {e}")),
        b.parse().unwrap_or_else(|e| panic!("{d}: {e}")),
    )
}

fn within_1_percent(declared: f64, estimate: f64) -> bool {
    (declared - estimate).abs() <= 0.01 * estimate.max(1.0)
}

fn analysed(p: &Project) -> Analysis {
    analyze(p)
}

/// Hand-worked shapes: 86.4 rows at worst 86.4 → 86..87 (mean 86.5);
/// 10 rows at worst 15 → 5..15 (mean 10, tail at the worst case); 10 at
/// worst 40 → 1..19 (the mean kept, the tail cut to what a mean of 10
/// allows).
#[test]
fn rows_per_partition_keep_the_mean_and_reach_the_worst_case_when_they_can() {
    let p = support::sample("devices.cqlm.ron");
    let mut a = analysed(&p);
    let e = &mut a.estimates[0];
    let shape = |a: &Analysis| Shape::of(a, 0);
    e.rows_per_partition = 86.4;
    e.rows_per_partition_max = 86.4;
    assert_eq!((shape(&a).cluster_min, shape(&a).cluster_max), (86, 87));
    a.estimates[0].rows_per_partition = 10.0;
    a.estimates[0].rows_per_partition_max = 15.0;
    assert_eq!((shape(&a).cluster_min, shape(&a).cluster_max), (5, 15));
    a.estimates[0].rows_per_partition_max = 40.0;
    assert_eq!((shape(&a).cluster_min, shape(&a).cluster_max), (1, 19));
    assert_eq!(shape(&a).cluster_distribution(), "uniform(1..19)");
    a.estimates[0].rows_per_partition_max = 10.0;
    assert_eq!(shape(&a).cluster_distribution(), "fixed(10)");
}

#[test]
fn stress_profiles_parse_use_known_keys_and_reproduce_the_estimates() {
    for (name, _) in support::samples() {
        let p = support::sample(&format!("{name}.cqlm.ron"));
        let a = analysed(&p);
        let c = cost(&p, &a.model, &a.estimates);
        let files = cassandra_stress(&p, &a, &c);
        let yamls = files.iter().filter(|(f, _)| is_profile(f)).count();
        assert_eq!(yamls, a.model.tables.len(), "{name}");
        assert!(files.iter().any(|(f, _)| f == "stress.sh"), "{name}");
        for (i, (file, text)) in files.iter().filter(|(f, _)| is_profile(f)).enumerate() {
            let y = parse(text);
            only_known(&y, &STRESS_TOP, file);
            let t = &a.model.tables[i];
            let e = &a.estimates[i];
            assert_eq!(s(&y, "table"), t.name.as_str());
            let spec = y["columnspec"].as_vec().unwrap_or_else(|| panic!("{file}"));
            let mut declared_rows = 1.0;
            for col in spec {
                only_known(col, &STRESS_COLUMN, file);
                if let Some(pop) = col["population"].as_str() {
                    let (lo, hi) = range(pop);
                    assert!(close_to_one(lo), "{file}: {pop}");
                    assert!(
                        within_1_percent(hi, e.partitions),
                        "{name} {file}: population {hi} against {} partitions",
                        e.partitions
                    );
                }
                if let Some(cl) = col["cluster"].as_str() {
                    let (lo, hi) = range(cl);
                    declared_rows *= f64::midpoint(lo, hi);
                }
            }
            if t.clustering().next().is_some() {
                assert!(
                    within_1_percent(declared_rows, e.rows_per_partition)
                        || (declared_rows - e.rows_per_partition).abs() <= 0.25,
                    "{name} {file}: {declared_rows} rows per partition against {}",
                    e.rows_per_partition
                );
            }
            for (_, qd) in y["queries"].as_hash().unwrap_or_else(|| panic!("{file}")) {
                only_known(qd, &STRESS_QUERY, file);
                assert!(s(qd, "cql").starts_with("SELECT "), "{file}");
            }
            only_known(&y["insert"], &STRESS_INSERT, file);
        }
        let script = &files
            .iter()
            .find(|(f, _)| f == "stress.sh")
            .unwrap_or_else(|| panic!("{name}"))
            .1;
        assert!(script.contains("'ops(insert="), "{script}");
    }
}

/// A cassandra-stress profile among the exported files.
fn is_profile(file: &str) -> bool {
    std::path::Path::new(file)
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("yaml"))
}

fn close_to_one(v: f64) -> bool {
    (v - 1.0).abs() < 1e-9
}

/// The rows per partition a stress profile declares where the estimate is
/// fractional: within 1 % once Nr ≥ 25; below, whole numbers keep the
/// mean within a quarter row (measured over the samples here).
#[test]
fn fractional_rows_per_partition_stay_within_a_quarter_row() {
    let p = support::sample("devices.cqlm.ron");
    let mut a = analysed(&p);
    for nr in [1.2_f64, 2.4, 7.7, 24.9, 25.0, 86.4, 1234.5] {
        a.estimates[0].rows_per_partition = nr;
        a.estimates[0].rows_per_partition_max = nr;
        let m = Shape::of(&a, 0).mean_rows();
        assert!((m - nr).abs() <= 0.25 + 1e-9, "{nr}: {m}");
        if nr >= 25.0 {
            assert!(within_1_percent(m, nr), "{nr}: {m}");
        }
    }
}

#[test]
fn the_nosqlbench_workload_parses_uses_known_keys_and_reproduces_the_estimates() {
    for (name, _) in support::samples() {
        let p = support::sample(&format!("{name}.cqlm.ron"));
        let a = analysed(&p);
        let c = cost(&p, &a.model, &a.estimates);
        let y = parse(&nosqlbench(&p, &a, &c));
        only_known(&y, &NB_TOP, &name);
        let blocks = y["blocks"].as_hash().unwrap_or_else(|| panic!("{name}"));
        for (bname, b) in blocks {
            let bname = bname.as_str().unwrap_or_default();
            only_known(b, &NB_BLOCK, bname);
            if !b["params"].is_badvalue() {
                only_known(&b["params"], &NB_PARAMS, bname);
            }
            for (_, op) in b["ops"].as_hash().unwrap_or_else(|| panic!("{bname}")) {
                only_known(op, &NB_OP, bname);
                if !op["params"].is_badvalue() {
                    only_known(&op["params"], &NB_PARAMS, bname);
                }
            }
        }
        // Each table's rampup: cycles = rows; bindings Mod(P) for the
        // partition key and Div(P) for the first clustering column, so
        // cycles / P rows per partition.
        let scenarios = &y["scenarios"]["default"];
        for (i, t) in a.model.tables.iter().enumerate() {
            let e = &a.estimates[i];
            let block_name: String = t
                .name
                .chars()
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '_' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            let block_name = format!("rampup_{block_name}");
            let run = s(scenarios, &block_name);
            let cycles: f64 = run
                .split(&format!("{block_name}_cycles,"))
                .nth(1)
                .and_then(|r| r.split(')').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{run}"));
            let bindings = &y["blocks"][block_name.as_str()]["bindings"];
            let pk = t
                .partition_key()
                .next()
                .unwrap_or_else(|| panic!("{}", t.name));
            let recipe = s(bindings, &pk.name);
            let p_declared: f64 = recipe
                .strip_prefix("Mod(")
                .and_then(|r| r.split('L').next())
                .and_then(|n| n.parse().ok())
                .unwrap_or_else(|| panic!("{recipe}"));
            assert!(
                within_1_percent(p_declared, e.partitions),
                "{name} {}",
                t.name
            );
            if t.clustering().next().is_some() {
                assert!(
                    within_1_percent(cycles / p_declared, e.rows_per_partition),
                    "{name} {}: {} against {}",
                    t.name,
                    cycles / p_declared,
                    e.rows_per_partition
                );
            }
        }
    }
}

/// Every statement without bind markers (keyspace, types, tables,
/// indexes) passes cqlcheck, from both exports.
#[test]
fn every_statement_without_bind_markers_passes_cqlcheck() {
    let Some(tool) = support::cqlcheck() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    for (name, _) in support::samples() {
        let p = support::sample(&format!("{name}.cqlm.ron"));
        let a = analysed(&p);
        let c = cost(&p, &a.model, &a.estimates);
        let types = cqlmodel::output::loadtest::types_cql(&p);
        // cassandra-stress: keyspace, then each table and its extras.
        let mut stress = String::new();
        for (i, (_, text)) in cassandra_stress(&p, &a, &c)
            .iter()
            .filter(|(f, _)| is_profile(f))
            .enumerate()
        {
            let y = parse(text);
            if i == 0 {
                stress.push_str(s(&y, "keyspace_definition"));
                stress.push('\n');
                stress.push_str(&types);
            }
            stress.push_str(s(&y, "table_definition"));
            stress.push('\n');
            if let Some(extra) = y["extra_definitions"].as_vec() {
                for x in extra {
                    stress.push_str(x.as_str().unwrap_or_default());
                    stress.push('\n');
                }
            }
        }
        let file = dir.path().join(format!("{name}-stress.cql"));
        std::fs::write(&file, &stress).unwrap_or_else(|e| panic!("{e}"));
        if let Err(e) = support::cqlcheck_file(&tool, &file) {
            panic!("{name} (cassandra-stress): {e}\n{stress}");
        }
        // NoSQLBench: the schema block's raw statements in order.
        let y = parse(&nosqlbench(&p, &a, &c));
        let mut nb = String::new();
        for (_, op) in y["blocks"]["schema"]["ops"]
            .as_hash()
            .unwrap_or_else(|| panic!("{name}"))
        {
            nb.push_str(s(op, "raw"));
            nb.push('\n');
        }
        let file = dir.path().join(format!("{name}-nb.cql"));
        std::fs::write(&file, &nb).unwrap_or_else(|e| panic!("{e}"));
        if let Err(e) = support::cqlcheck_file(&tool, &file) {
            panic!("{name} (NoSQLBench): {e}\n{nb}");
        }
    }
}
