//! Seed 002's four primary key options and four queries, judged by
//! Cassandra's restriction rules (sample-projects/devices-options.cqlm.ron).
//!
//! The seed's summary table, and where it is wrong:
//! - Option 1, Q4 (date = ? AND timestamp range): the seed says "No"; a
//!   range on a regular (or 2i-indexed) column is legal with ALLOW
//!   FILTERING once the partition is restricted, so "with filtering".
//! - Option 2, Q2 and Q3: the seed says "Yes", but only date and timestamp
//!   are indexed; `device_id` is a regular column without an index, so both
//!   need ALLOW FILTERING. Q1 is served through the index on date.
//! - Option 4, Q1, Q3 and Q4: the seed says "No, needs row key" — true of
//!   Cassandra 2.0, which the seed ran; since 3.10 (CASSANDRA-11031) a
//!   partially restricted partition key is accepted with ALLOW FILTERING.
//! - Option 1 is not even a valid design: (date, `device_id`) keeps one event
//!   per device a day, so the others overwrite it (the seed half-notices:
//!   "should not be unique").
//!
//! Everything else agrees with the seed.
// Tests: the figures are exact by construction.
#![allow(clippy::float_cmp)]

use cqlmodel::model::load;
use cqlmodel::review::alternatives::{matrix, render, verdict};

fn sample() -> cqlmodel::model::Project {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/devices-options.cqlm.ron"
    );
    load::read(std::path::Path::new(path)).expect("the sample loads")
}

#[test]
fn matrix_agrees_with_seed_002_where_the_seed_is_right() {
    let p = sample();
    let m = matrix(&p, "Q3");
    assert_eq!(m.query, "Q1");
    assert_eq!(m.table, "events");
    let names: Vec<&str> = m.options.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(
        names,
        ["derived", "option1", "option2", "option3", "option4"]
    );
    assert_eq!(m.queries, ["Q1", "Q2", "Q3", "Q4"]);
    let in_use: Vec<&str> = m
        .options
        .iter()
        .filter(|o| o.in_use)
        .map(|o| o.name.as_str())
        .collect();
    assert_eq!(in_use, ["option2"]);

    let grid: Vec<Vec<String>> = m
        .cells
        .iter()
        .map(|row| row.iter().map(verdict).collect())
        .collect();
    let expect = [
        // derived, option1, option2, option3, option4
        ["yes", "yes", "index(date)", "filtering", "filtering"], // Q1
        ["yes", "yes", "filtering", "yes", "yes"],               // Q2
        ["filtering", "filtering", "filtering", "yes", "filtering"], // Q3
        [
            "filtering",
            "filtering",
            "filtering",
            "filtering",
            "filtering",
        ], // Q4
    ];
    for (q, row) in expect.iter().enumerate() {
        assert_eq!(
            grid[q],
            row.to_vec(),
            "{}\n{}",
            m.queries[q],
            render(&p, &m)
        );
    }
    let text = render(&p, &m);
    assert!(
        text.contains("option2 (in use): PRIMARY KEY (record_id) + index on date, timestamp"),
        "{text}"
    );
    assert!(
        text.contains("option4: PRIMARY KEY ((device_id, date), timestamp)"),
        "{text}"
    );
}

#[test]
fn only_option_1_overwrites_rows() {
    let m = matrix(&sample(), "Q1");
    for o in &m.options {
        assert_eq!(
            o.missing_key.is_empty(),
            o.name != "option1",
            "{}: {:?}",
            o.name,
            o.missing_key
        );
        assert!(o.problem.is_none(), "{}: {:?}", o.name, o.problem);
    }
}

#[test]
fn partition_estimates_per_option() {
    let m = matrix(&sample(), "Q1");
    let by = |n: &str| {
        &m.options
            .iter()
            .find(|o| o.name == n)
            .expect("option")
            .estimate
    };
    // A day of every device in one partition: 100,000 × 288 events.
    assert_eq!(by("option1").rows_per_partition.round(), 28_800_000.0);
    assert_eq!(by("option2").rows_per_partition, 1.0);
    // A device's 30 days.
    assert_eq!(by("option3").rows_per_partition.round(), 8_640.0);
    // A device's day, as the seed intends.
    assert_eq!(by("option4").rows_per_partition.round(), 288.0);
    assert_eq!(by("option4").partitions.round(), 3_000_000.0);
}

#[test]
fn a_query_without_table_gives_an_empty_matrix() {
    let m = matrix(&sample(), "Q9");
    assert!(m.options.is_empty() && m.cells.is_empty());
    assert!(render(&sample(), &m).contains("no table"));
}

#[test]
fn a_broken_candidate_is_reported_not_used() {
    let mut p = sample();
    p.decision_mut("Q1").candidates[0].partition = vec!["nope".into()];
    let m = matrix(&p, "Q1");
    let o = &m.options[1];
    assert!(
        o.problem.as_deref().is_some_and(|s| s.contains("nope")),
        "{:?}",
        o.problem
    );
    assert!(m.cells.iter().all(|row| verdict(&row[1]) == "no"));
}
