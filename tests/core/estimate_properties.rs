//! Estimates that do not depend on how a project is written down, and one
//! set of figures however a table is viewed.
// Tests: the figures are exact by construction.
#![allow(clippy::float_cmp)]

use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::estimate::Estimate;
use cqlmodel::model::synthetic::{self, Rng};
use cqlmodel::model::{load, Count, Period, Project};
use proptest::prelude::*;
use std::collections::BTreeMap;

fn shuffle<T>(v: &mut [T], rng: &mut Rng) {
    for i in (1..v.len()).rev() {
        v.swap(i, rng.below(i + 1));
    }
}

/// A synthetic project made harder: some entities lose their count, some
/// get a second 1:n parent (with a rate, or with no numbers at all), so
/// counts are derived through one of several parents.
fn harder(entities: usize, queries: usize, seed: u64) -> Project {
    let mut p = synthetic::project(entities, queries, seed);
    let mut rng = Rng::new(seed ^ 0x5eed);
    for e in p.entities.iter_mut().skip(1) {
        if rng.chance(40) {
            e.count = None;
        }
        if rng.chance(15) {
            e.retention_days = Some(30.0);
        }
    }
    let n = p.entities.len();
    for i in 2..n {
        if !rng.chance(35) {
            continue;
        }
        let parent = rng.below(i);
        let per = rng.chance(50).then_some(Period::Day);
        let counted = rng.chance(70);
        let mut r = p.relationships[0].clone();
        r.name = format!("extra{i}");
        r.from = format!("E{parent}");
        r.to = format!("E{i}");
        r.cardinality = cqlmodel::model::Cardinality::OneToMany;
        r.to_per_from = counted.then_some(Count {
            avg: (1 + rng.below(50)) as f64,
            max: Some((100 + rng.below(900)) as f64),
            per,
        });
        r.from_per_to = None;
        r.attributes.clear();
        p.relationships.push(r);
    }
    p
}

/// The same project with every list in another order (the queries too
/// when `queries` is set).
fn permuted(p: &Project, seed: u64, queries: bool) -> Project {
    let mut rng = Rng::new(seed);
    let mut q = p.clone();
    shuffle(&mut q.entities, &mut rng);
    shuffle(&mut q.relationships, &mut rng);
    if queries {
        shuffle(&mut q.queries, &mut rng);
    }
    for e in &mut q.entities {
        shuffle(&mut e.attributes, &mut rng);
    }
    for r in &mut q.relationships {
        shuffle(&mut r.attributes, &mut rng);
    }
    q
}

/// Per query: the table that serves it, its columns and its estimate.
type View = BTreeMap<String, (String, Vec<String>, Estimate)>;

fn by_query(a: &Analysis) -> View {
    a.model
        .plans
        .iter()
        .filter_map(|plan| {
            let i = plan.table?;
            let t = &a.model.tables[i];
            let cols = t
                .columns
                .iter()
                .map(|c| format!("{} {} {:?}", c.name, c.ty, c.role))
                .collect();
            Some((
                plan.query.to_string(),
                (t.name.to_string(), cols, a.estimates[i].clone()),
            ))
        })
        .collect()
}

fn same_number(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-9 * a.abs().max(b.abs())
}

/// Equal up to the last bits of floating point (products taken in
/// another order round differently).
fn same_estimate(a: &Estimate, b: &Estimate) -> Result<(), String> {
    let pairs = [
        ("rows", a.rows, b.rows),
        ("partitions", a.partitions, b.partitions),
        ("Nr", a.rows_per_partition, b.rows_per_partition),
        (
            "Nr worst",
            a.rows_per_partition_max,
            b.rows_per_partition_max,
        ),
        ("Nv", a.values, b.values),
        ("Nv worst", a.values_max, b.values_max),
        ("St", a.partition_bytes, b.partition_bytes),
        ("St worst", a.partition_bytes_max, b.partition_bytes_max),
        ("span", a.span_days, b.span_days),
    ];
    for (what, x, y) in pairs {
        if !same_number(x, y) {
            return Err(format!("{what}: {x} vs {y}"));
        }
    }
    if a.accumulates != b.accumulates || a.retained != b.retained {
        return Err("growth flags differ".into());
    }
    let mut da = a.assumptions.clone();
    let mut db = b.assumptions.clone();
    da.sort();
    db.sort();
    if da != db {
        return Err(format!("assumptions: {da:?} vs {db:?}"));
    }
    Ok(())
}

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 24,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Reordering entities, relationships and attributes changes no table,
    /// no name and no estimate; reordering the queries too changes no
    /// table's columns or estimate.
    #[test]
    fn estimates_do_not_depend_on_the_order_of_the_file(
        seed in 0u64..10_000,
        order in 0u64..10_000,
        entities in 3usize..14,
        queries in 1usize..18,
    ) {
        let p = harder(entities, queries, seed);
        let a = by_query(&analyze(&p));
        for shuffle_queries in [false, true] {
            let q = permuted(&p, order, shuffle_queries);
            let b = by_query(&analyze(&q));
            prop_assert_eq!(a.keys().collect::<Vec<_>>(), b.keys().collect::<Vec<_>>());
            for (query, (name, cols, est)) in &a {
                let (name2, cols2, est2) = &b[query];
                // Table names are disambiguated in query order (naming
                // belongs to the derivation): compared without that shuffle.
                if !shuffle_queries {
                    prop_assert_eq!(name, name2, "table of {}", query);
                }
                let (mut c1, mut c2) = (cols.clone(), cols2.clone());
                c1.sort();
                c2.sort();
                prop_assert_eq!(c1, c2, "columns of {}", name);
                if let Err(why) = same_estimate(est, est2) {
                    prop_assert!(false, "{} ({}): {}", name, query, why);
                }
            }
        }
    }
}

fn sample(name: &str) -> Project {
    let path = std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/sample-projects"))
        .join(name);
    load::read(&path).expect("the sample loads")
}

const SAMPLES: [&str; 6] = [
    "clickstream.cqlm.ron",
    "devices-options.cqlm.ron",
    "devices.cqlm.ron",
    "hotel.cqlm.ron",
    "likes.cqlm.ron",
    "logs.cqlm.ron",
];

/// derive/check (one analysis), the alternatives matrix and a refinement
/// preview report the same figures for the same table.
#[test]
fn every_view_reports_the_same_figures() {
    for s in SAMPLES {
        let p = sample(s);
        let a = analyze(&p);
        for (i, t) in a.model.tables.iter().enumerate() {
            let e = &a.estimates[i];
            let m = cqlmodel::review::alternatives::matrix(&p, &t.origin);
            let in_use = m
                .options
                .iter()
                .find(|o| o.in_use)
                .unwrap_or_else(|| panic!("{s} {}: no option in use", t.name));
            if let Err(why) = same_estimate(e, &in_use.estimate) {
                panic!("{s} {}: alternatives disagree: {why}", t.name);
            }
            if let Some(r) = cqlmodel::edit::refine::options(&p, &t.origin).first() {
                let pv = cqlmodel::edit::refine::preview(&p, r);
                let before = pv.before.expect("the preview has the table");
                if let Err(why) = same_estimate(e, &before) {
                    panic!("{s} {}: preview disagrees: {why}", t.name);
                }
            }
        }
    }
}
