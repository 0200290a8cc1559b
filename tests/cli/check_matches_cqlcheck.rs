//! For random projects, `check` and the offline validator agree: the
//! exported CQL passes cqlcheck exactly when `check` reports none of the
//! errors that mean "Cassandra refuses this schema" (`INVALID_CQL`), and a
//! project with no errors at all always passes. The projects are the
//! synthetic generator's, with risky types (duration, counters, nested
//! collections, UDTs holding durations) and `served_by` merges mixed in.
//! All schemas go to one cqlcheck run (about 2 s). Set
//! `CQLMODEL_SKIP_CQLCHECK=1` where the validator cannot run.

use cqlmodel::analysis::analyze;
use cqlmodel::model::physical::{Compaction, Span, Strategy, TableOptions};
use cqlmodel::model::synthetic::{project, Rng};
use cqlmodel::model::{load, CqlType, Decision, Field, Project, UserType};
use cqlmodel::review::diagnose::{Severity, INVALID_CQL};
use std::path::PathBuf;
use std::process::Command;

use crate::support;

/// How many valid projects are checked (one batch).
const CASES: usize = 48;

/// Risky column types. A UDT holding a duration in a key or a set is left
/// out: Cassandra refuses it (a user type references a duration when a
/// field does) and `check` says so, but cqlcheck does not look into UDTs.
const RISKY: &[&str] = &[
    "duration",
    "counter",
    "set<duration>",
    "map<duration, int>",
    "list<duration>",
    "map<int, duration>",
    "list<counter>",
    "tuple<int, counter>",
    "list<frozen<tuple<int, duration>>>",
    "map<text, frozen<list<int>>>",
    "set<text>",
];

/// A synthetic project with some attribute types swapped for risky ones,
/// sometimes a UDT holding a duration, sometimes merges.
fn risky_project(seed: u64) -> Project {
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut p = project(2 + rng.below(4), 2 + rng.below(6), seed);
    let mut fields = vec![Field {
        name: "d".into(),
        ty: CqlType::Native(cqlmodel::model::Native::Duration),
    }];
    if rng.chance(20) {
        fields.push(Field {
            name: "ds".into(),
            ty: "set<duration>".parse().expect("type"),
        });
    }
    p.types.push(UserType {
        name: "span".into(),
        fields,
    });
    for e in &mut p.entities {
        let keys = e.key.clone();
        for a in &mut e.attributes {
            let chance = if keys.contains(&a.name) { 8 } else { 25 };
            if rng.chance(chance) {
                a.ty = RISKY[rng.below(RISKY.len())].parse().expect("type");
            }
        }
    }
    let ids: Vec<(String, String)> = p
        .queries
        .iter()
        .map(|q| (q.id.clone(), q.rows.clone()))
        .collect();
    for (id, _) in &ids {
        if rng.chance(40) {
            let options = random_options(&mut rng);
            p.decision_mut(id).options = options;
        }
    }
    for (id, rows) in &ids {
        if rng.chance(30) {
            if let Some((other, _)) = ids.iter().find(|(o, r)| r == rows && o != id) {
                let mut d = Decision::new(id);
                d.served_by = Some(other.clone());
                if !p.decisions.iter().any(|x| x.query == *other) {
                    p.decisions.push(d);
                }
            }
        }
    }
    p
}

/// Table options as a designer might set them, valid and not: what
/// validation lets through must load.
fn random_options(rng: &mut Rng) -> TableOptions {
    let pick = |rng: &mut Rng, list: &[&str]| list[rng.below(list.len())].to_string();
    let mut o = TableOptions::default();
    if rng.chance(50) {
        o.retention = Span::parse(&pick(
            rng,
            &["20s", "15m", "12h", "1d", "90d", "730d", "2y"],
        ))
        .ok();
        o.ttl = Some(rng.chance(70));
    }
    if rng.chance(50) {
        let (strategy, options): (Strategy, &[(&str, &str)]) = match rng.below(5) {
            0 => (
                Strategy::TimeWindow,
                &[
                    ("compaction_window_unit", "HOURS"),
                    ("compaction_window_size", "6"),
                ],
            ),
            1 => (
                Strategy::TimeWindow,
                if rng.chance(50) {
                    &[("compaction_window_unit", "WEEKS")]
                } else {
                    &[
                        ("compaction_window_unit", "hours"),
                        ("min_threshold", "8"),
                        ("max_threshold", "4"),
                    ]
                },
            ),
            2 => (Strategy::Leveled, &[("sstable_size_in_mb", "160")]),
            3 => (
                Strategy::SizeTiered,
                &[
                    ("min_threshold", "4"),
                    ("max_threshold", "32"),
                    ("tombstone_threshold", "0.2"),
                ],
            ),
            _ => (Strategy::Leveled, &[("fanout_size", "0")]),
        };
        o.compaction = Some(Compaction {
            strategy,
            options: options
                .iter()
                .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
                .collect(),
        });
    }
    if rng.chance(30) {
        o.gc_grace = Span::parse(&pick(rng, &["1s", "3h", "1d", "10d"])).ok();
    }
    if rng.chance(30) {
        o.caching = Some(
            [
                ("keys".to_string(), pick(rng, &["ALL", "NONE", "SOME"])),
                (
                    "rows_per_partition".to_string(),
                    pick(rng, &["NONE", "ALL", "100", "0"]),
                ),
            ]
            .into(),
        );
    }
    if rng.chance(30) {
        o.compression = Some(
            [
                (
                    "class".to_string(),
                    pick(
                        rng,
                        &["LZ4Compressor", "ZstdCompressor", "SnappyCompressor"],
                    ),
                ),
                (
                    "chunk_length_in_kb".to_string(),
                    pick(rng, &["16", "64", "48"]),
                ),
            ]
            .into(),
        );
    }
    if rng.chance(30) {
        o.bloom_filter_fp_chance = Some([0.01, 0.1, 1.0, 0.0, 1.5][rng.below(5)]);
    }
    if rng.chance(30) {
        o.speculative_retry = Some(pick(
            rng,
            &["99p", "99PERCENTILE", "50ms", "ALWAYS", "NONE", "fast"],
        ));
    }
    if rng.chance(20) {
        o.cdc = Some(rng.chance(50));
    }
    if rng.chance(30) {
        let (k, v) = [
            ("crc_check_chance", "0.5"),
            ("read_repair", "'NONE'"),
            ("memtable_flush_period_in_ms", "0"),
            ("min_index_interval", "64"),
            ("additional_write_policy", "'99p'"),
            ("gc_grace_seconds", "0"),
        ][rng.below(6)];
        o.other.insert(k.to_string(), v.to_string());
    }
    o
}

struct Case {
    seed: u64,
    file: PathBuf,
    /// `check` errors that mean the schema is refused.
    invalid: Vec<String>,
    /// Any `check` error at all.
    errors: usize,
    /// The physical rules the review gives (`twcs-misfit`,
    /// `gc-grace-too-low`).
    physical: Vec<&'static str>,
}

#[test]
fn check_agrees_with_cqlcheck_on_random_projects() {
    let Some(tool) = support::cqlcheck() else {
        return;
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let mut cases = Vec::new();
    let mut seed = 0;
    while cases.len() < CASES && seed < 20 * CASES as u64 {
        seed += 1;
        let p = risky_project(seed);
        // Counters in keys or searches are refused at load already.
        if !load::validate(&p).is_empty() {
            continue;
        }
        let a = analyze(&p);
        let errors: Vec<_> = a
            .diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .collect();
        let invalid = errors
            .iter()
            .filter(|d| INVALID_CQL.contains(&d.rule))
            .map(|d| format!("[{}] {}", d.rule, d.message()))
            .collect();
        let file = dir.path().join(format!("p{seed}.cql"));
        std::fs::write(&file, cqlmodel::output::cql::script(&p, &a.model)).expect("write");
        let physical = a
            .diagnostics
            .iter()
            .map(|d| d.rule)
            .filter(|r| ["twcs-misfit", "gc-grace-too-low"].contains(r))
            .collect();
        cases.push(Case {
            seed,
            file,
            invalid,
            errors: errors.len(),
            physical,
        });
    }
    assert_eq!(cases.len(), CASES, "too few valid projects generated");
    let flagged = cases.iter().filter(|c| !c.invalid.is_empty()).count();
    assert!(
        (CASES / 8..=CASES - CASES / 8).contains(&flagged),
        "the generator should mix valid and invalid schemas ({flagged} of {CASES} flagged)"
    );

    // The options must be there to be checked.
    let with = |text: &str| {
        cases
            .iter()
            .filter(|c| std::fs::read_to_string(&c.file).is_ok_and(|cql| cql.contains(text)))
            .count()
    };
    for option in [
        "compaction = ",
        "gc_grace_seconds = ",
        "default_time_to_live = ",
        "caching = ",
    ] {
        assert!(
            with(option) >= 3,
            "too few schemas with {option}: {}",
            with(option)
        );
    }
    let out = Command::new(&tool)
        .args(cases.iter().map(|c| &c.file))
        .output()
        .expect("cqlcheck runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_ne!(
        out.status.code(),
        Some(2),
        "cqlcheck usage or setup error: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for c in &cases {
        let header = format!("== {}\n", c.file.display());
        let section = stdout.split_once(&header).map_or_else(
            || panic!("no verdict for seed {}: {stdout}", c.seed),
            |(_, rest)| rest.split("\n== ").next().unwrap_or(rest),
        );
        // A warning passes the load; each one cqlcheck gives must be one
        // the review gives too (O7: TimeWindow on rows without a TTL).
        let passes =
            !section.contains("FAIL") && section.contains("\nOK ") || section.starts_with("OK ");
        for warn in section.lines().filter(|l| l.starts_with("WARN")) {
            let given = if warn.contains("TimeWindowCompactionStrategy") {
                c.physical.contains(&"twcs-misfit")
            } else if warn.contains("gc_grace_seconds") {
                c.physical.contains(&"gc-grace-too-low")
            } else {
                false
            };
            assert!(
                warn.contains("[O7]") && given,
                "seed {}: a cqlcheck warning the review does not give: {warn}",
                c.seed
            );
        }
        let schema = std::fs::read_to_string(&c.file).unwrap_or_default();
        assert_eq!(
            passes,
            c.invalid.is_empty(),
            "seed {}: cqlcheck {} but check reports {:?}\n{section}\n{schema}",
            c.seed,
            if passes { "passes" } else { "fails" },
            c.invalid
        );
        if c.errors == 0 {
            assert!(passes, "seed {}: no errors yet cqlcheck fails", c.seed);
        }
    }
}
