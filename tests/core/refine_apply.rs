//! Refinements: applied, undone, previewed, chosen.
// Tests: the figures are exact by construction.
#![allow(clippy::float_cmp)]

use cqlmodel::analysis::analyze;
use cqlmodel::edit::refine::{apply, choose_bucket, inverse, options, preview};
use cqlmodel::model::{load, Period, Project};
use cqlmodel::review::diagnose::Refinement;

fn hotel() -> Project {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/hotel.cqlm.ron"
    );
    load::read(std::path::Path::new(path)).expect("hotel")
}

fn q4_bucket(period: Period) -> Refinement {
    Refinement::AddBucket {
        query: "Q4".into(),
        column: period.name().into(),
        source: "date".into(),
        period,
    }
}

#[test]
fn every_refinement_applies_and_its_inverse_restores_the_project() {
    let p = hotel();
    let all = [
        q4_bucket(Period::Month),
        Refinement::AddShard {
            query: "Q4".into(),
            column: "shard".into(),
            count: 4,
        },
        Refinement::Promote {
            query: "Q4".into(),
            column: "date".into(),
        },
        Refinement::Collection {
            query: "Q3".into(),
            relationship: "near".into(),
        },
    ];
    for r in &all {
        let next = apply(&p, r).unwrap_or_else(|e| panic!("{r:?}: {e}"));
        assert_ne!(next, p, "{r:?} changed nothing");
        let back = apply(&next, &inverse(r)).unwrap_or_else(|e| panic!("undo {r:?}: {e}"));
        assert_eq!(back, p, "undo of {r:?}");
    }
}

#[test]
fn promote_moves_a_clustering_column_into_the_partition_key() {
    let p = hotel();
    let next = apply(
        &p,
        &Refinement::Promote {
            query: "Q4".into(),
            column: "date".into(),
        },
    )
    .expect("applies");
    let a = analyze(&next);
    let t = a.model.table_of("Q4").expect("table");
    let pk: Vec<&str> = t.partition_key().map(|c| c.name.as_str()).collect();
    assert_eq!(pk, ["hotel_id", "date"]);
    // The range on date now breaks Q4, and the preview says so.
    let pv = preview(
        &p,
        &Refinement::Promote {
            query: "Q4".into(),
            column: "date".into(),
        },
    );
    assert!(
        pv.introduced
            .iter()
            .any(|d| d.rule == "query-needs-filtering"),
        "{:?}",
        pv.introduced
    );
}

#[test]
fn timeuuid_and_back() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/devices-options.cqlm.ron"
    );
    let mut p = load::read(std::path::Path::new(path)).expect("sample");
    p.decision_mut("Q1").use_candidate = Some("option4".into());
    let r = Refinement::Timeuuid {
        query: "Q1".into(),
        column: "timestamp".into(),
    };
    let next = apply(&p, &r).expect("applies");
    let a = analyze(&next);
    let t = a.model.table_of("Q1").expect("table");
    assert_eq!(
        t.column("timestamp").map(|c| c.ty.to_string()),
        Some("timeuuid".to_string())
    );
    assert_eq!(apply(&next, &inverse(&r)).expect("undo"), p);
}

#[test]
fn refinements_that_do_not_fit_are_refused() {
    let p = hotel();
    let bad = [
        Refinement::Promote {
            query: "Q4".into(),
            column: "hotel_id".into(),
        },
        Refinement::Promote {
            query: "Q4".into(),
            column: "nope".into(),
        },
        Refinement::Timeuuid {
            query: "Q4".into(),
            column: "date".into(),
        },
        Refinement::AddBucket {
            query: "Q4".into(),
            column: "month".into(),
            source: "room_number".into(),
            period: Period::Month,
        },
        Refinement::AddBucket {
            query: "Q4".into(),
            column: "room_number".into(),
            source: "date".into(),
            period: Period::Month,
        },
        Refinement::AddShard {
            query: "Q4".into(),
            column: "shard".into(),
            count: 0,
        },
        Refinement::RemoveExtra {
            query: "Q4".into(),
            column: "day".into(),
        },
        Refinement::Collection {
            query: "Q4".into(),
            relationship: "nope".into(),
        },
        Refinement::Demote {
            query: "Q4".into(),
            column: "date".into(),
        },
        q4_bucket(Period::Day).clone_with_query("Q99"),
    ];
    for r in &bad {
        assert!(apply(&p, r).is_err(), "{r:?} was accepted");
        assert!(preview(&p, r).error.is_some());
    }
}

trait WithQuery {
    fn clone_with_query(&self, q: &str) -> Refinement;
}

impl WithQuery for Refinement {
    fn clone_with_query(&self, q: &str) -> Refinement {
        match self.clone() {
            Refinement::AddBucket {
                column,
                source,
                period,
                ..
            } => Refinement::AddBucket {
                query: q.into(),
                column,
                source,
                period,
            },
            other => other,
        }
    }
}

#[test]
fn bucket_preview_shows_sizes_reads_and_diagnostics() {
    let mut p = hotel();
    p.entities
        .iter_mut()
        .find(|e| e.name == "AvailableRoom")
        .expect("entity")
        .retention_days = Some(1100.0);
    let pv = preview(&p, &q4_bucket(Period::Month));
    assert!(pv.error.is_none(), "{:?}", pv.error);
    assert_eq!(pv.table.as_deref(), Some("available_rooms_by_hotel_date"));
    let (b, a) = (pv.before.expect("before"), pv.after.expect("after"));
    assert!(b.rows_per_partition > 100_000.0);
    assert!(
        a.rows_per_partition < b.rows_per_partition / 30.0,
        "{} -> {}",
        b.rows_per_partition,
        a.rows_per_partition
    );
    assert!(a.partitions > b.partitions);
    // A week's range reads up to 2 month buckets, a year's up to 13.
    let week = pv
        .reads
        .iter()
        .find(|r| r.query == "Q4" && r.what.ends_with("week"))
        .expect("week");
    assert_eq!((week.before, week.after), (1.0, 2.0));
    let year = pv
        .reads
        .iter()
        .find(|r| r.what.ends_with("year"))
        .expect("year");
    assert_eq!(year.after, 13.0);
    assert!(pv.resolved.iter().any(|d| d.rule == "partition-too-large"));
    assert!(pv.introduced.is_empty(), "{:?}", pv.introduced);
}

#[test]
fn shard_preview_reads_every_shard() {
    let p = hotel();
    let pv = preview(
        &p,
        &Refinement::AddShard {
            query: "Q4".into(),
            column: "shard".into(),
            count: 4,
        },
    );
    let r = pv.reads.iter().find(|r| r.query == "Q4").expect("reads");
    assert_eq!((r.before, r.after), (1.0, 4.0));
}

#[test]
fn a_new_period_replaces_the_bucket() {
    let p = hotel();
    let month = apply(&p, &q4_bucket(Period::Month)).expect("month");
    let year = apply(&month, &q4_bucket(Period::Year)).expect("year");
    let d = year.decision("Q4").expect("decision");
    assert_eq!(d.partition_extra.len(), 1);
    assert_eq!(d.partition_extra[0].column, "year");
}

#[test]
fn bucket_chooser_picks_the_coarsest_that_fits() {
    let mut p = hotel();
    // Already fits: the coarsest, a year, keeps it under.
    assert_eq!(choose_bucket(&p, "Q4"), Some(Period::Year));
    p.thresholds.max_values = 10_000.0;
    // 100 rooms a day: a month is ~3,000, a year ~36,500.
    assert_eq!(choose_bucket(&p, "Q4"), Some(Period::Month));
    p.thresholds.max_values = 50.0;
    assert_eq!(choose_bucket(&p, "Q4"), None, "a date has no hours");
    // No time column at all.
    assert_eq!(choose_bucket(&hotel(), "Q2"), None);
}

#[test]
fn options_list_applicable_refinements_and_inverses() {
    let p = apply(&hotel(), &q4_bucket(Period::Year)).expect("applies");
    let opts = options(&p, "Q4");
    assert!(opts
        .iter()
        .any(|r| matches!(r, Refinement::RemoveExtra { column, .. } if column == "year")));
    assert!(opts
        .iter()
        .any(|r| matches!(r, Refinement::Promote { column, .. } if column == "date")));
    assert!(opts
        .iter()
        .any(|r| matches!(r, Refinement::AddShard { .. })));
    for r in opts
        .iter()
        .filter(|r| !matches!(r, Refinement::AddBucket { .. }))
    {
        assert!(apply(&p, r).is_ok(), "{r:?}");
    }
}

/// Every refinement the review offers applies, on the samples and on small
/// synthetic projects.
#[test]
fn every_offered_refinement_applies() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-projects");
    let mut projects: Vec<(String, cqlmodel::model::Project)> = std::fs::read_dir(dir)
        .expect("samples")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".cqlm.ron"))
        .map(|p| {
            let name = p.display().to_string();
            (name, cqlmodel::model::load::read(&p).expect("loads"))
        })
        .collect();
    for seed in 0..6 {
        projects.push((
            format!("synthetic {seed}"),
            cqlmodel::model::synthetic::project(30, 40, seed),
        ));
    }
    for (name, p) in &projects {
        for d in cqlmodel::analysis::analyze(p).diagnostics {
            if let Some(r) = &d.refinement {
                if let Err(e) = cqlmodel::edit::refine::apply(p, r) {
                    panic!("{name}: {} {:?}: {r:?} fails: {e}", d.rule, d.subject);
                }
            }
        }
    }
}

fn devices_options() -> Project {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/devices-options.cqlm.ron"
    );
    load::read(std::path::Path::new(path)).expect("devices-options")
}

#[test]
fn indexes_and_candidate_keys_are_one_key_refinements_too() {
    let p = hotel();
    let add = Refinement::AddIndex {
        query: "Q1".into(),
        column: "name".into(),
    };
    let next = apply(&p, &add).expect("index a regular column");
    assert_eq!(
        next.decision("Q1").map(|d| d.indexes.clone()),
        Some(vec!["name".to_string()])
    );
    assert_eq!(apply(&next, &inverse(&add)).expect("drop it"), p);
    assert!(apply(&next, &add).is_err(), "indexing twice is refused");
    assert!(
        apply(&p, &inverse(&add)).is_err(),
        "dropping a missing index is refused"
    );

    let p = devices_options();
    let q = p
        .decisions
        .iter()
        .find(|d| d.use_candidate.is_some())
        .expect("a candidate in use");
    let (query, cand) = (q.query.clone(), q.use_candidate.clone().unwrap_or_default());
    let back = Refinement::UseDerivedKey {
        query: query.clone().into(),
        candidate: cand.clone(),
    };
    let derived = apply(&p, &back).expect("back to the derived key");
    assert_eq!(
        derived
            .decision(&query)
            .and_then(|d| d.use_candidate.clone()),
        None
    );
    assert_eq!(apply(&derived, &inverse(&back)).expect("and forth"), p);
    assert!(options(&p, &query).contains(&back));
}

#[test]
fn overwriting_candidate_keys_and_wide_indexes_offer_their_fix() {
    let mut p = devices_options();
    let d = p
        .decisions
        .iter_mut()
        .find(|d| d.use_candidate.is_some())
        .expect("a candidate in use");
    // Option 1 keeps one event per device per day: rows overwrite.
    d.use_candidate = Some("option1".into());
    let query = d.query.clone();
    let a = analyze(&p);
    let over = a
        .diagnostics
        .iter()
        .find(|x| x.rule == "rows-overwrite")
        .expect("rows-overwrite fires for option 1");
    let fix = *over.refinement.clone().expect("a one-key fix");
    assert_eq!(
        fix,
        Refinement::UseDerivedKey {
            query: query.into(),
            candidate: "option1".into()
        }
    );
    let fixed = apply(&p, &fix).expect("applies");
    assert!(analyze(&fixed)
        .diagnostics
        .iter()
        .all(|x| x.rule != "rows-overwrite"));
}

#[test]
fn retention_without_ttl_offers_the_ttl_and_it_undoes() {
    let p = hotel();
    let a = analyze(&p);
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.rule == "retention-without-ttl")
        .expect("hotel keeps reservations 365 days without a TTL");
    let fix = *d.refinement.clone().expect("a one-key fix");
    assert!(matches!(fix, Refinement::Ttl { .. }), "{fix:?}");
    let next = apply(&p, &fix).expect("applies");
    let after = analyze(&next);
    let fixed = after
        .diagnostics
        .iter()
        .filter(|x| x.rule == "retention-without-ttl")
        .count();
    let before = a
        .diagnostics
        .iter()
        .filter(|x| x.rule == "retention-without-ttl")
        .count();
    assert_eq!(fixed, before - 1);
    assert!(
        cqlmodel::output::cql::script(&next, &after.model).contains("default_time_to_live"),
        "the tables of the entity expire their rows"
    );
    assert_eq!(apply(&next, &inverse(&fix)).expect("undo"), p);
    assert!(apply(&next, &fix).is_err(), "a second TTL is refused");
    let prev = preview(&p, &fix);
    assert!(prev.error.is_none(), "{:?}", prev.error);
    assert!(
        prev.resolved
            .iter()
            .any(|x| x.rule == "retention-without-ttl"),
        "the preview shows the finding go away"
    );
}

/// The other placement of an equality column is one refinement away, with
/// its preview, and undoes exactly.
#[test]
fn an_equality_column_moves_between_partition_and_clustering() {
    let p = hotel();
    let to_clustering = Refinement::PlaceEquality {
        query: "Q5".into(),
        column: "room_number".into(),
        partition: false,
    };
    assert!(
        options(&p, "Q5").contains(&to_clustering),
        "{:?}",
        options(&p, "Q5")
    );
    let next = apply(&p, &to_clustering).expect("applies");
    let a = analyze(&next);
    let t = a.model.table_of("Q5").expect("Q5's table");
    let key: Vec<(&str, &str)> = t
        .columns
        .iter()
        .filter(|c| c.role.is_key())
        .map(|c| (c.role.marker(), c.name.as_str()))
        .collect();
    assert_eq!(
        key,
        [
            ("K", "hotel_id"),
            ("C↑", "room_number"),
            ("C↑", "amenity_name")
        ]
    );
    assert!(t
        .column("room_number")
        .is_some_and(|c| c.why_text().contains("decision")));
    assert!(a.model.plan("Q5").is_some_and(|p| p.access.is_direct()));
    // Back: the options now offer the estimates' placement again.
    let back = inverse(&to_clustering);
    assert!(options(&next, "Q5").contains(&back));
    assert_eq!(apply(&next, &back).expect("undo"), p);
    // The preview shows the table before and after.
    let pv = preview(&p, &to_clustering);
    assert_eq!(pv.error, None);
    assert!(pv.before.is_some() && pv.after.is_some());
    assert!(pv.after.as_ref().map(|e| e.partitions) < pv.before.as_ref().map(|e| e.partitions));
    // Moving what is already there is refused.
    let again = Refinement::PlaceEquality {
        query: "Q5".into(),
        column: "hotel_id".into(),
        partition: true,
    };
    assert!(apply(&p, &again).is_err());
}

/// A query served from another query's table by one refinement, and back.
#[test]
fn a_query_shares_another_table_and_gets_its_own_again() {
    let mut p = hotel();
    // Q2 no longer returns the phone; Q10 asks for it by the same search.
    let q2 = p.queries.iter_mut().find(|q| q.id == "Q2").expect("Q2");
    q2.returns.retain(|r| r != "phone");
    let mut q10 = q2.clone();
    q10.id = "Q10".into();
    q10.returns = vec!["name".into(), "phone".into()];
    p.queries.push(q10);
    let share = Refinement::ShareTable {
        query: "Q10".into(),
        with: "Q2".into(),
    };
    assert!(
        options(&p, "Q10").contains(&share),
        "{:?}",
        options(&p, "Q10")
    );
    let pv = preview(&p, &share);
    assert_eq!(pv.error, None);
    assert!(pv.resolved.iter().any(|d| d.rule == "shareable-table"));
    let next = apply(&p, &share).expect("applies");
    let a = analyze(&next);
    let t = a.model.table_of("Q10").expect("served");
    assert_eq!(t.origin, "Q2");
    assert!(t.column("phone").is_some());
    assert_eq!(a.model.tables.len(), analyze(&p).model.tables.len() - 1);
    let unshare = inverse(&share);
    assert!(options(&next, "Q2").contains(&unshare));
    assert_eq!(apply(&next, &unshare).expect("undo"), p);
    // Serving a query from a table that cannot answer it is refused.
    let wrong = Refinement::ShareTable {
        query: "Q10".into(),
        with: "Q1".into(),
    };
    assert!(apply(&p, &wrong).is_err());
}
