//! The samples' diagnostics, pinned; the seed numbers the review must give.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::support::sample;
use cqlmodel::analysis::analyze;
use cqlmodel::model::{load, Period};
use cqlmodel::review::diagnose::Refinement;
use std::path::{Path, PathBuf};

fn samples() -> Vec<PathBuf> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-projects");
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("sample-projects")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".cqlm.ron"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no sample projects");
    v
}

/// `cqlmodel check`-style text of every sample, one snapshot each.
#[test]
fn sample_diagnostics_are_pinned() {
    for path in samples() {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().replace(".cqlm.ron", ""))
            .unwrap_or_default();
        let p = load::read(Path::new(&path)).expect("the sample loads");
        let text = cqlmodel::output::report::diagnostics(&analyze(&p));
        insta::assert_snapshot!(format!("diagnose_{name}"), text);
    }
}

#[test]
fn hotel_availability_crosses_the_threshold_past_1100_days() {
    let mut p = sample("hotel.cqlm.ron");
    let t = "available_rooms_by_hotel_date";
    let a = analyze(&p);
    let i = a
        .model
        .tables
        .iter()
        .position(|x| x.name == t)
        .expect("table");
    assert!(
        a.estimates[i].values < 100_000.0,
        "{}",
        a.estimates[i].values
    );
    assert!(!a
        .diagnostics
        .iter()
        .any(|d| d.rule.starts_with("partition-")));

    let ar = p
        .entities
        .iter_mut()
        .find(|e| e.name == "AvailableRoom")
        .expect("entity");
    ar.retention_days = Some(1100.0);
    let a = analyze(&p);
    assert!(
        a.estimates[i].values > 100_000.0,
        "{}",
        a.estimates[i].values
    );
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.rule == "partition-too-large")
        .expect("partition-too-large at 1,100 days");
    assert!(d.message().contains(t), "{}", d.message());
    // A year bucket of the date is enough.
    assert!(matches!(
        d.refinement.as_deref(),
        Some(Refinement::AddBucket { period: Period::Year, source, .. }) if source == "date"
    ));
    assert_eq!(
        cqlmodel::edit::refine::choose_bucket(&p, "Q4"),
        Some(Period::Year)
    );
}

#[test]
fn logs_without_a_day_bucket_grow_without_bound() {
    let p = sample("logs.cqlm.ron");
    let a = analyze(&p);
    let t = a.model.table_of("Q1").expect("Q1's table").name.clone();
    let i = a
        .model
        .tables
        .iter()
        .position(|x| x.name == t)
        .expect("table");
    assert!(
        (a.estimates[i].rows_per_partition - 10_000.0).abs() < 1.0,
        "{}",
        a.estimates[i].rows_per_partition
    );
    assert!(!a
        .diagnostics
        .iter()
        .any(|d| d.rule == "unbounded-partition" && d.message().contains(t.as_str())));

    let d = p.decision("Q1").expect("Q1 decision");
    let bucket = d
        .partition_extra
        .iter()
        .find(|x| x.column == "day")
        .expect("day bucket");
    let bare = cqlmodel::edit::refine::apply(
        &p,
        &Refinement::RemoveExtra {
            query: "Q1".into(),
            column: bucket.column.clone(),
        },
    )
    .expect("the bucket comes off");
    let a = analyze(&bare);
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.rule == "unbounded-partition" && d.message().contains(t.as_str()))
        .expect("unbounded-partition without the day bucket");
    assert!(d.message().contains("10,000 a day"), "{}", d.message());
    // Seed 000's choice: a day.
    assert!(
        matches!(
            d.refinement.as_deref(),
            Some(Refinement::AddBucket {
                period: Period::Day,
                ..
            })
        ),
        "{:?}",
        d.refinement
    );
    assert_eq!(
        cqlmodel::edit::refine::choose_bucket(&bare, "Q1"),
        Some(Period::Day)
    );
}
