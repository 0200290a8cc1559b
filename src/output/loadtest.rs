//! Load tests the team runs on their own cluster: cassandra-stress user
//! profiles (one per table) with a script, or one `NoSQLBench` workload.
//! Both carry the schema as exported, the data's shape from the estimates
//! (partition count, rows per partition with the worst case as the tail,
//! value sizes) and the workload's mix from the cost figures.
//!
//! Keys are the ones the tools read: cassandra-stress's `StressYaml`
//! (`keyspace`, `keyspace_definition`, `table`, `table_definition`,
//! `extra_definitions`, `columnspec` with `name`/`size`/`population`/
//! `cluster`, `queries` with `cql`/`fields`, `insert` with `partitions`/
//! `select`/`batchtype`); `NoSQLBench`'s workload template (`description`,
//! `scenarios`, `bindings`, `params`, `blocks` of `ops` with `raw` or
//! `prepared`, `ratio` and `params.cl`). Every scalar is written as a
//! double-quoted YAML string (JSON escapes), so no name from the file can
//! break the document's structure.

use crate::analysis::Analysis;
use crate::derive::cost::Cost;
use crate::derive::{Role, Table};
use crate::model::{CqlType, Native, Project};
use std::fmt::Write as _;

/// A YAML double-quoted scalar.
fn q(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// A table's shape for a load test: partitions, and rows per partition as
/// a whole-number distribution whose mean is the estimate's and whose top
/// is the worst case where it can be.
#[derive(Clone, Debug, PartialEq)]
pub struct Shape {
    pub partitions: u64,
    pub rows: u64,
    pub cluster_min: u64,
    pub cluster_max: u64,
    /// The normal curve (mean, standard deviation) cassandra-stress draws
    /// from and clamps to `cluster_min..=cluster_max`, where a uniform range
    /// cannot carry the estimate's mean (its means are whole or half rows).
    pub gaussian: Option<(f64, f64)>,
}

impl Shape {
    pub fn of(a: &Analysis, i: usize) -> Shape {
        let e = a.estimates.get(i);
        let partitions = e.map_or(1.0, |e| e.partitions).round().max(1.0) as u64;
        let nr = e.map_or(1.0, |e| e.rows_per_partition).max(1.0);
        let worst = e.map_or(nr, |e| e.rows_per_partition_max).max(nr);
        // Mean (min + max) / 2 = Nr: the top at the worst case while the
        // bottom stays at least 1, else the widest range around Nr.
        let twice = (2.0 * nr).round().max(2.0) as u64;
        let top = (worst.round() as u64).max(twice - twice / 2);
        let (cluster_min, cluster_max) = if top < twice {
            (twice - top, top)
        } else {
            (1, twice - 1)
        };
        let rows = e.map_or(1.0, |e| e.rows).round().max(1.0) as u64;
        let uniform = Shape {
            partitions,
            rows,
            cluster_min,
            cluster_max,
            gaussian: None,
        };
        // Within 0.5 % (always so from 100 rows on) the plain range stays.
        if (uniform.mean_rows() - nr).abs() <= 0.005 * nr {
            return uniform;
        }
        let lo = cluster_min.min(nr.floor() as u64).max(1);
        let hi = (worst.round() as u64).max(nr.ceil() as u64);
        // Spread over the range, but no wider than Nr itself so the sums
        // below stay short whatever the worst case.
        let sd = ((hi - lo) as f64 / 6.0).min(nr).max(0.25);
        let mean = solve_gaussian_mean(lo, hi, sd, nr);
        Shape {
            cluster_min: lo,
            cluster_max: hi,
            gaussian: Some((round6(mean), round6(sd))),
            ..uniform
        }
    }

    /// cassandra-stress's distribution of rows per partition.
    pub fn cluster_distribution(&self) -> String {
        if let Some((mean, sd)) = self.gaussian {
            format!(
                "gaussian({}..{},{mean},{sd})",
                self.cluster_min, self.cluster_max
            )
        } else if self.cluster_min == self.cluster_max {
            format!("fixed({})", self.cluster_min)
        } else {
            format!("uniform({}..{})", self.cluster_min, self.cluster_max)
        }
    }

    /// The mean rows per partition the cluster distribution declares.
    pub fn mean_rows(&self) -> f64 {
        match self.gaussian {
            Some((mean, sd)) => clamped_floor_mean(self.cluster_min, self.cluster_max, mean, sd),
            None => (self.cluster_min + self.cluster_max) as f64 / 2.0,
        }
    }
}

fn round6(v: f64) -> f64 {
    (v * 1e6).round() / 1e6
}

/// The mean of what cassandra-stress's `gaussian(lo..hi,mean,sd)` yields:
/// it draws X from the normal curve, truncates it to a whole number and
/// clamps it to `lo..=hi` (`DistributionBoundApache`), so the value is at
/// least k exactly when X ≥ k for lo < k ≤ hi, and its mean is
/// lo + Σ P(X ≥ k).
fn clamped_floor_mean(lo: u64, hi: u64, mean: f64, sd: f64) -> f64 {
    // Terms further than 40 standard deviations are 1 below and 0 above.
    let first = lo + 1;
    let below = ((mean - 40.0 * sd).floor().max(first as f64) as u64).min(hi + 1);
    let above = ((mean + 40.0 * sd).ceil().max(0.0) as u64).min(hi);
    let mut sum = (below - first) as f64;
    for k in below..=above {
        sum += upper_tail((k as f64 - mean) / sd);
    }
    lo as f64 + sum
}

/// The mean of the normal curve for which `clamped_floor_mean` is `target`
/// (lo < target < hi): the mean rises with it, so bisect.
fn solve_gaussian_mean(lo: u64, hi: u64, sd: f64, target: f64) -> f64 {
    let (mut a, mut b) = (lo as f64 - 40.0 * sd, hi as f64 + 40.0 * sd);
    for _ in 0..100 {
        let m = f64::midpoint(a, b);
        if clamped_floor_mean(lo, hi, m, sd) < target {
            a = m;
        } else {
            b = m;
        }
    }
    f64::midpoint(a, b)
}

/// P(Z ≥ z) for a standard normal Z: erfc(z/√2)/2, with erfc from the
/// Chebyshev fit of Numerical Recipes (`erfcc`, fractional error below
/// 1.2e-7, far inside the 1 % a load test's shape needs).
fn upper_tail(z: f64) -> f64 {
    let x = z / std::f64::consts::SQRT_2;
    let t = 1.0 / (1.0 + 0.5 * x.abs());
    let poly = -x * x - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98
                                + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let erfc = t * poly.exp();
    let erfc = if x >= 0.0 { erfc } else { 2.0 - erfc };
    erfc / 2.0
}

/// The project's user types as CQL, in dependency order: a cassandra-stress
/// profile cannot create them (its keyspace definition is one statement and
/// its extra definitions run after the table), so they are created first.
pub fn types_cql(project: &Project) -> String {
    super::cql::types_in_order(project)
        .into_iter()
        .map(|t| super::cql::user_type(project, t))
        .collect()
}

/// The CREATE TABLE statement alone, as `cqlmodel cql` exports it.
fn create_table(project: &Project, t: &Table) -> String {
    let full = super::cql::table(project, t);
    let start = full.find("CREATE TABLE").unwrap_or(0);
    let end = full[start..]
        .find(";\n")
        .map_or(full.len(), |e| start + e + 1);
    full[start..end].to_string()
}

/// A query's SELECT as a prepared statement (no trailing semicolon).
fn select_text(s: &str) -> String {
    s.trim().trim_end_matches(';').to_string()
}

/// Ratios as small whole numbers proportional to the rates (the smallest
/// non-zero one is 1).
fn ratios(rates: &[f64]) -> Vec<u64> {
    let min = rates
        .iter()
        .copied()
        .filter(|r| *r > 0.0)
        .fold(f64::INFINITY, f64::min);
    rates
        .iter()
        .map(|r| {
            if *r > 0.0 && min.is_finite() {
                (r / min).round().max(1.0) as u64
            } else {
                0
            }
        })
        .collect()
}

/// Files of the cassandra-stress export: a profile per table and a
/// script, as (file name, text).
pub fn cassandra_stress(project: &Project, a: &Analysis, cost: &Cost) -> Vec<(String, String)> {
    let mut files = Vec::new();
    let mut script = String::from(
        "#!/bin/sh\n# cassandra-stress runs of the design, one table at a time: a rampup that\n# fills each partition, then the workload's mix at its average rate.\n# Set NODES to your contact points.\nset -e\nNODES=${NODES:-127.0.0.1}\n",
    );
    let keyspace_cql = super::cql::keyspace(project);
    let types = types_cql(project);
    if !types.is_empty() {
        script.push_str("# The tables use user types: create them first (cqlsh -f types.cql).\n");
        files.push(("types.cql".to_string(), format!("{keyspace_cql}\n{types}")));
    }
    for (i, t) in a.model.tables.iter().enumerate() {
        let shape = Shape::of(a, i);
        let file = format!("{}.yaml", safe_file_name(&t.name));
        let mut y = String::new();
        let _ = writeln!(
            y,
            "# cassandra-stress profile of {}: {} partitions, {} rows per partition on average (the estimate).",
            safe_comment(&t.name),
            shape.partitions,
            shape.mean_rows()
        );
        let _ = writeln!(y, "keyspace: {}", q(&project.keyspace.name));
        let _ = writeln!(y, "keyspace_definition: {}", q(keyspace_cql.trim()));
        let _ = writeln!(y, "table: {}", q(&t.name));
        let _ = writeln!(y, "table_definition: {}", q(&create_table(project, t)));
        let extra: Vec<String> = t
            .indexes
            .iter()
            .filter_map(|ix| super::cql::index_statement(project, t, ix))
            .map(|s| s.trim().to_string())
            .collect();
        if !extra.is_empty() {
            y.push_str("extra_definitions:\n");
            for s in &extra {
                let _ = writeln!(y, "  - {}", q(s));
            }
        }
        y.push_str("columnspec:\n");
        let first_clustering = t.clustering().next().map(|c| c.name.clone());
        for c in &t.columns {
            let mut spec = vec![format!("name: {}", q(&c.name))];
            match c.role {
                Role::Partition => {
                    spec.push(format!(
                        "population: {}",
                        q(&format!("uniform(1..{})", shape.partitions))
                    ));
                }
                Role::Clustering(_) if Some(&c.name) == first_clustering.as_ref() => {
                    spec.push(format!("cluster: {}", q(&shape.cluster_distribution())));
                }
                Role::Clustering(_) => spec.push(format!("cluster: {}", q("fixed(1)"))),
                _ => {}
            }
            if let Some(size) = value_size(project, a, t, &c.name) {
                spec.push(format!("size: {}", q(&format!("fixed({size})"))));
            }
            let _ = writeln!(y, "  - {{ {} }}", spec.join(", "));
        }
        // Queries this table serves, with their rates.
        let served: Vec<&crate::derive::cost::QueryCost> = cost
            .queries
            .iter()
            .filter(|qc| qc.table.as_deref() == Some(t.name.as_str()))
            .collect();
        y.push_str("queries:\n");
        let mut names = Vec::new();
        for qc in &served {
            let Some(plan) = a.model.plan(&qc.query) else {
                continue;
            };
            let name = format!("q{}", names.len() + 1);
            let cql = match plan.request.as_ref().filter(|r| r.range_timeuuid) {
                Some(r) => {
                    let col = r.range.as_ref().map_or("", |(c, _)| c.as_str());
                    let _ = writeln!(
                        y,
                        "  # {name} bounds {} by the row's own id: cassandra-stress binds a ? by the column it is named after, and minTimeuuid(?) names none",
                        safe_comment(col)
                    );
                    stress_select(project, t, r)
                }
                None => select_text(plan.select.as_str()),
            };
            let _ = writeln!(
                y,
                "  {name}: {{ cql: {}, fields: {} }}",
                q(&cql),
                q("samerow")
            );
            names.push((name, qc.rate, qc.consistency));
        }
        // Inserts: each application write is one row of one partition,
        // unlogged (a table's share of a write path).
        let select = format!("fixed(1)/{}", shape.cluster_max.max(1));
        let _ = writeln!(
            y,
            "insert:\n  partitions: {}\n  select: {}\n  batchtype: {}",
            q("fixed(1)"),
            q(&select),
            q(if t.is_counter_table() {
                "COUNTER"
            } else {
                "UNLOGGED"
            })
        );
        let writes = cost.tables.get(i).map_or(0.0, |tc| tc.writes);
        let reads: f64 = names.iter().map(|(_, r, _)| *r).sum();
        let _ = writeln!(
            script,
            "\n# {}: {} writes/s and {} reads/s on average",
            safe_comment(&t.name),
            fmt_rate(writes),
            fmt_rate(reads),
        );
        let _ = writeln!(
            script,
            "cassandra-stress user profile={file} 'ops(insert=1)' n={} -pop seq=1..{} -insert select-ratio='fixed(1)/1' -node \"$NODES\"",
            shape.partitions, shape.partitions
        );
        let runs = runs_by_consistency(writes, &names);
        if runs.len() > 1 {
            script.push_str(
                "# One run per consistency level (cassandra-stress takes one cl= per run),\n# side by side, each throttled to its share of the mix.\n",
            );
        }
        for (n, run) in runs.iter().enumerate() {
            let rates: Vec<f64> = run.ops.iter().map(|(_, r)| *r).collect();
            let ops: Vec<String> = run
                .ops
                .iter()
                .zip(ratios(&rates))
                .map(|((op, _), r)| format!("{op}={}", r.max(1)))
                .collect();
            let total: f64 = rates.iter().sum();
            let _ = write!(
                script,
                "cassandra-stress user profile={file} 'ops({})' duration=10m cl={} -pop 'dist=uniform(1..{})' -rate threads=32 'throttle={}/s' -node \"$NODES\"",
                ops.join(","),
                run.consistency,
                shape.partitions,
                total.ceil().max(1.0)
            );
            if runs.len() > 1 {
                let _ = writeln!(script, " &\nRUN{n}=$!");
            } else {
                script.push('\n');
            }
        }
        if runs.len() > 1 {
            let waits: Vec<String> = (0..runs.len()).map(|n| format!("wait $RUN{n}")).collect();
            let _ = writeln!(script, "{}", waits.join("; "));
        }
        files.push((file, y));
    }
    files.push(("stress.sh".into(), script));
    files
}

/// One cassandra-stress run of a table's mix: the ops (name, requests per
/// second) that share a consistency level.
struct Run {
    consistency: &'static str,
    ops: Vec<(String, f64)>,
}

/// The table's mix split by consistency level, as cassandra-stress sets one
/// `cl=` per run. Inserts go with `LOCAL_QUORUM`: the model states read
/// levels only, and a write reaches every replica whatever its level.
fn runs_by_consistency(writes: f64, queries: &[(String, f64, &'static str)]) -> Vec<Run> {
    let mut runs = vec![Run {
        consistency: "LOCAL_QUORUM",
        ops: vec![("insert".to_string(), writes)],
    }];
    for (name, rate, cl) in queries {
        match runs.iter_mut().find(|r| r.consistency == *cl) {
            Some(run) => run.ops.push((name.clone(), *rate)),
            None => runs.push(Run {
                consistency: cl,
                ops: vec![(name.clone(), *rate)],
            }),
        }
    }
    runs
}

fn fmt_rate(v: f64) -> String {
    if v < 100.0 {
        format!("{v:.1}")
    } else {
        format!("{v:.0}")
    }
}

/// A table name as a file name: letters, digits and `_` kept.
fn safe_file_name(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() {
        "table".into()
    } else {
        s
    }
}

/// Text for a `#` comment: one line, printable.
fn safe_comment(s: &str) -> String {
    s.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// The stated average size of a variable-size column's attribute.
fn value_size(project: &Project, a: &Analysis, t: &Table, column: &str) -> Option<u64> {
    let c = t.column(column)?;
    if !matches!(
        c.ty,
        CqlType::Native(Native::Text | Native::Varchar | Native::Ascii | Native::Blob)
    ) {
        return None;
    }
    let crate::derive::Source::Attr { attribute, .. } = &c.source else {
        return None;
    };
    let _ = a;
    let (item, attr) = attribute.split_once('.')?;
    let attrs = project
        .entity(item)
        .map(|e| &e.attributes)
        .or_else(|| project.relationship(item).map(|r| &r.attributes))?;
    let size = attrs.iter().find(|x| x.name == attr)?.size?;
    (size.is_finite() && size >= 1.0).then(|| size.round() as u64)
}

/// A virtdata binding recipe turning a long into a value of `ty`.
fn conversion(ty: &CqlType) -> &'static str {
    match ty {
        CqlType::Native(n) => match n {
            Native::Uuid => "ToHashedUUID() -> java.util.UUID",
            Native::Timeuuid => "ToEpochTimeUUID() -> java.util.UUID",
            Native::Int => "ToInt() -> int",
            Native::Bigint | Native::Counter => "Identity() -> long",
            Native::Timestamp => "ToJavaInstant() -> java.time.Instant",
            Native::Date => "LongToLocalDateDays() -> java.time.LocalDate",
            Native::Double => "ToDouble() -> double",
            Native::Float => "ToFloat() -> float",
            Native::Boolean => "ToBoolean() -> Boolean",
            Native::Blob => "ToByteBuffer() -> java.nio.ByteBuffer",
            _ => "ToString() -> String",
        },
        _ => "ToString() -> String",
    }
}

/// The `NoSQLBench` workload: one YAML with the schema, a rampup block per
/// table and the main mix.
pub fn nosqlbench(project: &Project, a: &Analysis, cost: &Cost) -> String {
    let mut y = String::new();
    let _ = writeln!(
        y,
        "# NoSQLBench workload of {}, written by cqlmodel: the schema, a rampup per\n# table that writes the estimated partitions and rows, and the workload's mix.",
        safe_comment(&project.name)
    );
    let _ = writeln!(
        y,
        "description: {}",
        q(&format!(
            "{}: schema, rampup and main phases from the cqlmodel design",
            project.name
        ))
    );
    y.push_str("scenarios:\n  default:\n");
    let _ = writeln!(
        y,
        "    schema: {}",
        q("run driver=cql tags==block:schema threads==1 cycles==UNDEF")
    );
    for (i, t) in a.model.tables.iter().enumerate() {
        let shape = Shape::of(a, i);
        let block = format!("rampup_{}", safe_file_name(&t.name));
        let _ = writeln!(
            y,
            "    {block}: {}",
            q(&format!(
                "run driver=cql tags==block:{block} cycles==TEMPLATE({block}_cycles,{}) threads=auto",
                shape.rows
            ))
        );
    }
    let _ = writeln!(
        y,
        "    main: {}",
        q("run driver=cql tags==block:main cycles==TEMPLATE(main_cycles,10000000) threads=auto")
    );
    y.push_str("blocks:\n  schema:\n    params:\n      prepared: false\n    ops:\n");
    let _ = writeln!(
        y,
        "      create_keyspace:\n        raw: {}",
        q(super::cql::keyspace(project).trim())
    );
    for (i, t) in super::cql::types_in_order(project).into_iter().enumerate() {
        let _ = writeln!(
            y,
            "      {}:\n        raw: {}",
            q(&format!("create_type_{i}")),
            q(super::cql::user_type(project, t).trim())
        );
    }
    for t in &a.model.tables {
        let _ = writeln!(
            y,
            "      {}:\n        raw: {}",
            q(&format!("create_{}", safe_file_name(&t.name))),
            q(&create_table(project, t))
        );
        for ix in &t.indexes {
            if let Some(s) = super::cql::index_statement(project, t, ix) {
                let _ = writeln!(
                    y,
                    "      {}:\n        raw: {}",
                    q(&format!(
                        "index_{}_{}",
                        safe_file_name(&t.name),
                        safe_file_name(ix)
                    )),
                    q(s.trim())
                );
            }
        }
    }
    // Rampup: cycle c writes partition c mod P, row c / P of it, so
    // round(P × Nr) cycles leave every partition floor or ceil of Nr rows
    // (the estimate's average).
    for (i, t) in a.model.tables.iter().enumerate() {
        let shape = Shape::of(a, i);
        let block = format!("rampup_{}", safe_file_name(&t.name));
        let _ = writeln!(
            y,
            "  {block}:\n    params:\n      cl: {}\n    bindings:",
            q("LOCAL_QUORUM")
        );
        let first_clustering = t.clustering().next().map(|c| c.name.clone());
        for c in &t.columns {
            let recipe = match c.role {
                Role::Partition => format!("Mod({}L); {}", shape.partitions, conversion(&c.ty)),
                Role::Clustering(_) if Some(&c.name) == first_clustering.as_ref() => {
                    format!("Div({}L); {}", shape.partitions, conversion(&c.ty))
                }
                _ => value_recipe(project, a, t, &c.name, &c.ty),
            };
            let _ = writeln!(y, "      {}: {}", q(&safe_file_name(&c.name)), q(&recipe));
        }
        let _ = writeln!(
            y,
            "    ops:\n      {}:\n        prepared: {}",
            q(&format!("insert_{}", safe_file_name(&t.name))),
            q(&insert_statement(project, t))
        );
    }
    // Main: reads of existing partitions and new writes, by the rates.
    y.push_str("  main:\n    bindings:\n");
    let mut seen = std::collections::BTreeSet::new();
    for (i, t) in a.model.tables.iter().enumerate() {
        let shape = Shape::of(a, i);
        for c in &t.columns {
            let name = format!("{}__{}", safe_file_name(&t.name), safe_file_name(&c.name));
            if !seen.insert(name.clone()) {
                continue;
            }
            let recipe = match c.role {
                Role::Partition => {
                    format!("Hash(); Mod({}L); {}", shape.partitions, conversion(&c.ty))
                }
                Role::Clustering(_) => format!(
                    "Hash(); Mod({}L); {}",
                    shape.cluster_max.max(1),
                    conversion(&c.ty)
                ),
                _ => value_recipe(project, a, t, &c.name, &c.ty),
            };
            let _ = writeln!(y, "      {}: {}", q(&name), q(&recipe));
        }
    }
    // A range on the time a timeuuid encodes binds times to
    // `minTimeuuid`/`maxTimeuuid` (a UUID is no timestamp): drawn as the
    // column's ids are, so each bound is the millisecond an id encodes.
    for plan in &a.model.plans {
        let (Some(r), Some(i)) = (plan.request.as_ref(), plan.table) else {
            continue;
        };
        let (Some((col, _)), Some(t)) = (
            r.range.as_ref().filter(|_| r.range_timeuuid),
            a.model.tables.get(i),
        ) else {
            continue;
        };
        let name = time_binding(&t.name, col);
        if !seen.insert(name.clone()) {
            continue;
        }
        let shape = Shape::of(a, i);
        let draw = match t.column(col).map(|c| c.role) {
            Some(Role::Partition) => format!("Mod({}L); ", shape.partitions),
            Some(Role::Clustering(_)) => format!("Mod({}L); ", shape.cluster_max.max(1)),
            _ => String::new(),
        };
        let recipe = format!("Hash(); {draw}ToJavaInstant() -> java.time.Instant");
        let _ = writeln!(y, "      {}: {}", q(&name), q(&recipe));
    }
    y.push_str("    ops:\n");
    let mut rates = Vec::new();
    let mut ops: Vec<(String, String, &'static str)> = Vec::new();
    for (i, t) in a.model.tables.iter().enumerate() {
        let writes = cost.tables.get(i).map_or(0.0, |tc| tc.writes);
        rates.push(writes);
        ops.push((
            format!("write_{}", safe_file_name(&t.name)),
            insert_statement_named(project, t),
            "LOCAL_QUORUM",
        ));
    }
    for qc in &cost.queries {
        let (Some(plan), Some(table)) = (a.model.plan(&qc.query), a.model.table_of(&qc.query))
        else {
            continue;
        };
        let Some(stmt) = named_select(plan, table) else {
            continue;
        };
        rates.push(qc.rate);
        ops.push((
            format!("read_{}", safe_file_name(&qc.query)),
            stmt,
            qc.consistency,
        ));
    }
    for ((name, stmt, cl), r) in ops.iter().zip(ratios(&rates)) {
        if r == 0 {
            continue;
        }
        let _ = writeln!(
            y,
            "      {}:\n        prepared: {}\n        ratio: {r}\n        params:\n          cl: {}",
            q(name),
            q(stmt),
            q(cl)
        );
    }
    y
}

fn value_recipe(project: &Project, a: &Analysis, t: &Table, column: &str, ty: &CqlType) -> String {
    match (value_size(project, a, t, column), ty) {
        (Some(n), CqlType::Native(Native::Text | Native::Varchar | Native::Ascii)) => {
            format!("Hash(); AlphaNumericString({n}) -> String")
        }
        _ => format!("Hash(); {}", conversion(ty)),
    }
}

/// `INSERT INTO ks.t (cols) VALUES ({col}, …)` with rampup binding names.
fn insert_statement(project: &Project, t: &Table) -> String {
    insert_with(project, t, safe_file_name)
}

/// The same with the main block's per-table binding names.
fn insert_statement_named(project: &Project, t: &Table) -> String {
    let table = safe_file_name(&t.name);
    insert_with(project, t, |c| format!("{table}__{}", safe_file_name(c)))
}

fn insert_with(project: &Project, t: &Table, bind: impl Fn(&str) -> String) -> String {
    use crate::model::naming::quote;
    let cols: Vec<&crate::derive::Column> = t
        .columns
        .iter()
        .filter(|c| !matches!(c.ty, CqlType::Native(Native::Counter)))
        .collect();
    format!(
        "INSERT INTO {}.{} ({}) VALUES ({})",
        quote(&project.keyspace.name),
        quote(&t.name),
        cols.iter()
            .map(|c| quote(&c.name))
            .collect::<Vec<_>>()
            .join(", "),
        cols.iter()
            .map(|c| format!("{{{}}}", bind(&c.name)))
            .collect::<Vec<_>>()
            .join(", ")
    )
}

/// The SELECT of `r` with a timeuuid range bounded by timeuuids
/// (`id >= ? AND id <= ?`) rather than `minTimeuuid`/`maxTimeuuid` of
/// times: cassandra-stress binds each `?` to the value of the column the
/// marker is named after, and a function's argument is named after none.
/// With `samerow` the bounds are the row's own id, the same one-partition
/// slice the query reads.
fn stress_select(project: &Project, t: &Table, r: &crate::derive::Request) -> String {
    use crate::derive::{serve::access, KeyShape, Select};
    let mut plain = r.clone();
    plain.range_timeuuid = false;
    let shape = KeyShape::of(t);
    let (how, order_by) = access(&shape, &plain);
    let s = Select::new(
        &project.keyspace.name,
        &t.name,
        &shape,
        &plain,
        &order_by,
        &how,
    );
    select_text(s.as_str())
}

/// The main block's binding of the times bounding timeuuid column `col`
/// of table `t` (`minTimeuuid`/`maxTimeuuid` take a timestamp).
fn time_binding(t: &str, col: &str) -> String {
    format!("{}__{}__time", safe_file_name(t), safe_file_name(col))
}

/// The SELECT with each `?` replaced by the main block's binding of the
/// column it binds, in the order the request binds them; none when the
/// markers and the request's columns do not line up.
fn named_select(plan: &crate::derive::Plan, t: &Table) -> Option<String> {
    let r = plan.request.as_ref()?;
    let table = safe_file_name(&t.name);
    let mut names: Vec<String> =
        r.eq.iter()
            .filter(|n| !r.literals.iter().any(|(l, _)| l == *n))
            .map(|n| format!("{{{table}__{}}}", safe_file_name(n)))
            .collect();
    if let Some((col, op)) = &r.range {
        let bound = if r.range_timeuuid {
            format!("{{{}}}", time_binding(&t.name, col))
        } else {
            format!("{{{table}__{}}}", safe_file_name(col))
        };
        if *op == crate::model::RangeOp::Between {
            names.push(bound.clone());
        }
        names.push(bound);
    }
    let text = select_text(plan.select.as_str());
    let markers = text.matches('?').count();
    if markers != names.len() {
        return None;
    }
    let mut out = String::new();
    let mut it = names.into_iter();
    for ch in text.chars() {
        if ch == '?' {
            out.push_str(&it.next()?);
        } else {
            out.push(ch);
        }
    }
    Some(out)
}
