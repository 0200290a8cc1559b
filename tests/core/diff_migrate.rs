//! Golden semantic diffs and migrations for hand-made model changes (add a
//! query, change an order, add a bucket, rename an entity, change a key),
//! each checked both ways; migrations pass cqlcheck.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::derive::{derive, Role};
use cqlmodel::edit::Item;
use cqlmodel::lifecycle::diff::semantic::{self, Impact};
use cqlmodel::model::{load, Dir, ExtraKind, Project};
use cqlmodel::tui::action::{apply_edit, Edit};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::process::Command;

fn sample(name: &str) -> Project {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("sample-projects")
        .join(format!("{name}.cqlm.ron"));
    load::read(&path).expect("sample loads")
}

/// (name, old, new) for each hand-made change.
fn changes() -> Vec<(&'static str, Project, Project)> {
    let hotel = sample("hotel");
    let mut out = Vec::new();

    let mut without_q5 = hotel.clone();
    without_q5.queries.retain(|q| q.id != "Q5");
    without_q5
        .workflow
        .transitions
        .retain(|t| t.to != "Q5" && t.from != "Q5");
    without_q5.workflow.entry.retain(|e| e != "Q5");
    without_q5.decisions.retain(|d| d.query != "Q5");
    out.push(("add_query", without_q5, hotel.clone()));

    let mut flipped = hotel.clone();
    let q7 = flipped
        .queries
        .iter_mut()
        .find(|q| q.id == "Q7")
        .expect("Q7");
    q7.order[0].dir = Dir::Desc;
    out.push(("change_order", hotel.clone(), flipped));

    let logs = sample("logs");
    let mut unbucketed = logs.clone();
    for d in &mut unbucketed.decisions {
        d.partition_extra
            .retain(|x| !matches!(x.kind, ExtraKind::Bucket { .. }));
    }
    out.push(("add_bucket", unbucketed, logs));

    let mut renamed = hotel.clone();
    apply_edit(&mut renamed, &Edit::Rename(Item::Entity(0), "Inn".into())).expect("rename");
    out.push(("rename_entity", hotel.clone(), renamed));

    let mut indexed = hotel.clone();
    indexed.decision_mut("Q1").indexes.push("phone".into());
    out.push(("add_index", hotel.clone(), indexed));

    let mut promoted = hotel.clone();
    let m = derive(&hotel);
    let t = m
        .tables
        .iter()
        .find(|t| t.queries.iter().any(|q| q == "Q7"))
        .expect("Q7's table");
    let first = t
        .columns
        .iter()
        .find(|c| matches!(c.role, Role::Clustering(_)))
        .expect("clustering column");
    promoted
        .decision_mut("Q7")
        .promote
        .push(first.name.to_string());
    out.push(("change_key", hotel, promoted));

    // The physical schema: a table's own retention (its TTL and window),
    // a designer's compaction, a TTL switched off (options back to their
    // defaults), the keyspace's replication and its name.
    let weather = sample("weather");
    let mut longer = weather.clone();
    longer.decision_mut("Q3").options.retention =
        Some(cqlmodel::model::physical::Span::parse("1m").expect("span"));
    out.push(("table_retention", weather.clone(), longer));
    let mut leveled = weather.clone();
    leveled.decision_mut("Q2").options.compaction = Some(cqlmodel::model::physical::Compaction {
        strategy: cqlmodel::model::physical::Strategy::Leveled,
        options: std::collections::BTreeMap::new(),
    });
    out.push(("table_compaction", weather.clone(), leveled));
    let mut kept = weather.clone();
    kept.decision_mut("Q2").options.ttl = Some(false);
    out.push(("table_ttl_off", weather.clone(), kept));
    let mut two_dcs = weather.clone();
    two_dcs.keyspace.replication = cqlmodel::model::Replication::NetworkTopology(
        [("dc1".into(), 3), ("dc2".into(), 3)].into(),
    );
    out.push(("keyspace_replication", weather.clone(), two_dcs));
    let mut moved = weather.clone();
    moved.keyspace.name = "weather2".into();
    out.push(("keyspace_rename", weather, moved));
    out
}

#[test]
fn golden_diffs_both_ways() {
    let mut all = String::new();
    for (name, old, new) in changes() {
        let fwd = semantic::semantic(&old, &new);
        let back = semantic::semantic(&new, &old);
        assert!(!fwd.is_empty(), "{name}");
        assert!(!back.is_empty(), "{name}");
        // What one way adds, the other removes.
        assert_eq!(fwd.findings_added, back.findings_resolved, "{name}");
        assert_eq!(fwd.items.len(), back.items.len(), "{name}");
        assert_eq!(
            fwd.tables.len(),
            back.tables.len(),
            "{name}: {fwd:?} / {back:?}"
        );
        let _ = write!(
            all,
            "## {name}\n{}\n## {name} (reversed)\n{}\n",
            semantic::text(&fwd),
            semantic::text(&back)
        );
        let impacts = |d: &semantic::SemanticDiff| -> Vec<Impact> {
            d.tables.iter().map(|t| t.impact).collect()
        };
        match name {
            "add_query" => {
                assert_eq!(impacts(&fwd), vec![Impact::Compatible]);
                assert_eq!(impacts(&back), vec![Impact::Destructive]);
                assert!(!fwd.is_breaking() && back.is_breaking());
            }
            "add_index" => {
                assert_eq!(impacts(&fwd), vec![Impact::Compatible]);
                assert!(!fwd.is_breaking() && !back.is_breaking());
            }
            "change_order" | "add_bucket" | "change_key" => {
                assert!(fwd.is_breaking() && back.is_breaking(), "{name}");
                assert!(impacts(&fwd).contains(&Impact::NeedsBackfill), "{name}");
            }
            _ => {}
        }
    }
    insta::assert_snapshot!("golden_diffs", all);
}

#[test]
fn identical_projects_have_no_diff() {
    let p = sample("hotel");
    let d = semantic::semantic(&p, &p);
    assert!(d.is_empty());
    assert_eq!(semantic::text(&d), "no semantic changes\n");
}

fn cqlcheck(file: &std::path::Path) -> Option<(bool, String)> {
    let tool = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../shared/tools/cqlcheck/cqlcheck");
    if std::env::var("CQLMODEL_SKIP_CQLCHECK").is_ok_and(|v| v == "1") {
        return None;
    }
    let out = Command::new(&tool).arg(file).output().unwrap_or_else(|e| {
        panic!(
            "{} is needed (CQLMODEL_SKIP_CQLCHECK=1 skips): {e}",
            tool.display()
        )
    });
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    Some((out.status.success(), text))
}

#[test]
fn migrations_pass_cqlcheck_both_ways() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut all = String::new();
    for (name, old, new) in changes() {
        for (way, a, b) in [("fwd", &old, &new), ("back", &new, &old)] {
            let script = cqlmodel::lifecycle::migrate::script(a, b);
            if way == "fwd" {
                let _ = write!(all, "## {name}\n{script}\n");
            }
            let file = dir.path().join(format!("{name}-{way}.cql"));
            std::fs::write(&file, &script).expect("write");
            if let Some((ok, text)) = cqlcheck(&file) {
                assert!(ok, "{name} {way}: {text}\n{script}");
            }
        }
    }
    insta::assert_snapshot!("golden_migrations", all);
}

#[test]
fn cli_diff_exits_1_on_breaking_changes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, old, new) = changes().remove(0);
    let a = dir.path().join("old.cqlm.ron");
    let b = dir.path().join("new.cqlm.ron");
    std::fs::write(&a, load::to_string(&old)).expect("write");
    std::fs::write(&b, load::to_string(&new)).expect("write");
    let run = |x: &PathBuf, y: &PathBuf, fmt: &str| {
        Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
            .args(["diff", "--format", fmt])
            .arg(x)
            .arg(y)
            .output()
            .expect("runs")
    };
    let fwd = run(&a, &b, "text");
    assert_eq!(fwd.status.code(), Some(0), "{fwd:?}");
    assert!(String::from_utf8_lossy(&fwd.stdout).contains("query Q5: added"));
    let back = run(&b, &a, "json");
    assert_eq!(back.status.code(), Some(1), "{back:?}");
    let v: serde_json::Value = serde_json::from_slice(&back.stdout).expect("json");
    assert_eq!(v["breaking"], true);
    let md = run(&b, &a, "md");
    assert!(String::from_utf8_lossy(&md.stdout).contains("| `amenities_by_room` |"));
}

#[test]
fn cli_diff_against_a_git_revision_and_dev_null() {
    let dir = tempfile::tempdir().expect("temp dir");
    let git = |args: &[&str]| {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=t",
                "-c",
                "user.email=t@t",
                "-c",
                "commit.gpgsign=false",
            ])
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("git runs");
        assert!(out.status.success(), "git {args:?}: {out:?}");
    };
    git(&["init", "-q"]);
    let (_, old, new) = changes().remove(0);
    let file = dir.path().join("model.cqlm.ron");
    std::fs::write(&file, load::to_string(&old)).expect("write");
    git(&["add", "model.cqlm.ron"]);
    git(&["commit", "-qm", "old"]);
    std::fs::write(&file, load::to_string(&new)).expect("write");
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("runs")
    };
    let out = run(&["diff", "--git", "HEAD", "model.cqlm.ron"]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("query Q5: added"));
    let out = run(&["diff", "--git", "HEAD:model.cqlm.ron"]);
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("query Q5: added"),
        "{out:?}"
    );
    let out = run(&["diff", "model.cqlm.ron", "/dev/null"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "deleting every table breaks: {out:?}"
    );
    let out = run(&["diff", "--git", "NOPE", "model.cqlm.ron"]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
}

/// Cassandra cannot alter a column's role: a column moving into or out of
/// the primary key, between partition and clustering key, or between static
/// and regular needs a new table filled from the old one. Every pair, as
/// `impact` judges a single role change.
#[test]
fn every_role_change_needs_a_backfill() {
    use cqlmodel::lifecycle::diff::{ColumnChange, TableChange};
    let roles = [
        Role::Partition,
        Role::Clustering(Dir::Asc),
        Role::Clustering(Dir::Desc),
        Role::Static,
        Role::Regular,
    ];
    let mut judged = 0;
    for from in roles {
        for to in roles {
            if from == to {
                continue;
            }
            let change = TableChange::Changed {
                table: "t".into(),
                columns: vec![ColumnChange::Role {
                    name: "c".into(),
                    from,
                    to,
                }],
                queries: None,
            };
            // A flipped clustering order is a role change too (C↑ → C↓): the
            // on-disk order changes, so it is no exception.
            assert_eq!(
                semantic::impact(&change),
                Impact::NeedsBackfill,
                "{from:?} → {to:?}"
            );
            judged += 1;
        }
    }
    // 5 roles, 5 · 4 ordered pairs.
    assert_eq!(judged, 20);
}

/// Hotel with one change to a query or its decision that moves a column
/// between roles (old, new, the table, the one change it must show).
fn role_changes() -> Vec<(&'static str, Project, Project, &'static str, &'static str)> {
    let hotel = sample("hotel");
    let query = |p: &Project, id: &str| -> usize {
        p.queries
            .iter()
            .position(|q| q.id == id)
            .unwrap_or_else(|| panic!("{id}"))
    };
    let mut out = Vec::new();
    // end_date: a regular column of reservations_by_hotel_date, then the
    // last clustering column once Q7 orders by it.
    let mut ordered = hotel.clone();
    let i = query(&ordered, "Q7");
    ordered.queries[i].order.push(cqlmodel::model::Order {
        attr: "end_date".into(),
        dir: Dir::Asc,
    });
    out.push((
        "regular_to_clustering",
        hotel.clone(),
        ordered.clone(),
        "reservations_by_hotel_date",
        "reservations_by_hotel_date: · end_date → C↑",
    ));
    out.push((
        "clustering_to_regular",
        ordered,
        hotel.clone(),
        "reservations_by_hotel_date",
        "reservations_by_hotel_date: C↑ end_date → ·",
    ));
    // room_number: a clustering column, then part of the partition key.
    let mut promoted = hotel.clone();
    promoted
        .decision_mut("Q7")
        .promote
        .push("room_number".into());
    out.push((
        "clustering_to_partition",
        hotel.clone(),
        promoted.clone(),
        "reservations_by_hotel_date",
        "reservations_by_hotel_date: C↑ room_number → K",
    ));
    out.push((
        "partition_to_clustering",
        promoted,
        hotel.clone(),
        "reservations_by_hotel_date",
        "reservations_by_hotel_date: K room_number → C↑",
    ));
    // The hotel's name beside its points of interest: static while the
    // hotel is the partition, regular when a candidate key puts each point
    // of interest in a partition of its own (poi_name moves into the
    // partition key with it).
    let mut with_name = hotel.clone();
    let i = query(&with_name, "Q3");
    with_name.queries[i].returns.push("Hotel.name".into());
    let mut own = with_name.clone();
    let d = own.decision_mut("Q3");
    d.candidates.push(cqlmodel::model::Candidate {
        name: "one_per_partition".into(),
        partition: vec!["hotel_id".into(), "poi_name".into()],
        clustering: vec![],
        indexes: vec![],
    });
    d.use_candidate = Some("one_per_partition".into());
    out.push((
        "static_to_regular",
        with_name,
        own,
        "pois_by_hotel",
        "pois_by_hotel: C↑ poi_name → K, S hotel_name → ·",
    ));
    out
}

/// Each role change on the hotel sample: the table's one change says which
/// column moved where, needs a backfill, and breaks a running cluster; the
/// same diff reversed says the opposite move.
#[test]
fn a_column_changing_role_breaks_the_cluster() {
    for (name, old, new, table, change) in role_changes() {
        let d = semantic::semantic(&old, &new);
        let report: Vec<_> = d.tables.iter().filter(|t| t.table == table).collect();
        assert_eq!(report.len(), 1, "{name}: {:?}", d.tables);
        assert_eq!(report[0].change, change, "{name}");
        assert_eq!(report[0].impact, Impact::NeedsBackfill, "{name}");
        assert!(d.is_breaking(), "{name}");
        let text = semantic::text(&d);
        assert!(
            text.contains(&format!("table {change} [needs new table + backfill]")),
            "{name}: {text}"
        );
        assert!(
            text.ends_with("breaking: a running cluster needs new tables, backfills or drops\n")
        );
    }
}

/// A static column turned regular with no other change to the table (no
/// project edit does only that: the hand-edited derived model stands in),
/// and back.
#[test]
fn a_static_column_turned_regular_alone_needs_a_backfill() {
    use cqlmodel::lifecycle::diff::{diff, ColumnChange, TableChange};
    let mut p = sample("hotel");
    let i = p.queries.iter().position(|q| q.id == "Q3").expect("Q3");
    p.queries[i].returns.push("Hotel.name".into());
    let old = derive(&p);
    let mut new = old.clone();
    let t = new
        .tables
        .iter_mut()
        .find(|t| t.name == "pois_by_hotel")
        .expect("pois_by_hotel");
    let c = t
        .columns
        .iter_mut()
        .find(|c| c.name == "hotel_name")
        .expect("hotel_name");
    assert_eq!(c.role, Role::Static, "the hotel fixes its name");
    c.role = Role::Regular;
    for (a, b, from, to) in [
        (&old, &new, Role::Static, Role::Regular),
        (&new, &old, Role::Regular, Role::Static),
    ] {
        let changes = diff(a, b);
        assert_eq!(
            changes,
            vec![TableChange::Changed {
                table: "pois_by_hotel".into(),
                columns: vec![ColumnChange::Role {
                    name: "hotel_name".into(),
                    from,
                    to
                }],
                queries: None,
            }]
        );
        assert_eq!(semantic::impact(&changes[0]), Impact::NeedsBackfill);
    }
}

/// Through the binary: every role change above exits 1 and says breaking,
/// in text and in JSON.
#[test]
fn cli_diff_exits_1_when_a_column_changes_role() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, old, new, table, change) in role_changes() {
        let a = dir.path().join(format!("{name}-old.cqlm.ron"));
        let b = dir.path().join(format!("{name}-new.cqlm.ron"));
        std::fs::write(&a, load::to_string(&old)).expect("write");
        std::fs::write(&b, load::to_string(&new)).expect("write");
        let run = |fmt: &str| {
            Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
                .args(["diff", "--format", fmt])
                .arg(&a)
                .arg(&b)
                .output()
                .expect("runs")
        };
        let out = run("text");
        let text = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(1), "{name}: {text}");
        assert!(
            text.contains(&format!("table {change} [needs new table + backfill]")),
            "{name}: {text}"
        );
        let out = run("json");
        assert_eq!(out.status.code(), Some(1), "{name}");
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
        assert_eq!(v["breaking"], true, "{name}");
        let row = v["tables"]
            .as_array()
            .expect("tables")
            .iter()
            .find(|t| t["table"] == table)
            .unwrap_or_else(|| panic!("{name}: {v}"));
        assert_eq!(row["impact"], "needs_backfill", "{name}");
    }
}

/// The migration of a role change builds the table again under `_new` with
/// a backfill plan (no `ALTER` can move a column between roles), and the
/// script passes cqlcheck.
#[test]
fn a_role_change_migrates_by_a_new_table_and_a_backfill() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, old, new, table, _) in role_changes() {
        let script = cqlmodel::lifecycle::migrate::script(&old, &new);
        assert!(
            script.contains(&format!("CREATE TABLE IF NOT EXISTS hotel.{table}_new (")),
            "{name}: {script}"
        );
        assert!(
            script.contains(&format!("-- Backfill plan for {table}_new:")),
            "{name}: {script}"
        );
        assert!(!script.contains("ALTER TABLE"), "{name}: {script}");
        let file = dir.path().join(format!("{name}.cql"));
        std::fs::write(&file, &script).expect("write");
        if let Some((ok, text)) = cqlcheck(&file) {
            assert!(ok, "{name}: {text}\n{script}");
        }
    }
}

/// A limit of the review moved under a table: the table is reported with
/// its figure, the limit and the side it is now on, in both directions,
/// and nothing breaks. `available_rooms_by_hotel_date` holds 100 rooms ·
/// 730 days = 73,000 values a partition (1,095,005 B, 1.04 MiB); every
/// other hotel table stays under 1,000 values and 50 KiB.
#[test]
fn a_table_crossing_a_moved_limit_is_reported_both_ways() {
    let p = sample("hotel");
    let mut tighter = p.clone();
    tighter.thresholds.max_values = 50_000.0;
    tighter.thresholds.max_bytes = 1_048_576.0;
    let d = semantic::semantic(&p, &tighter);
    let table = "available_rooms_by_hotel_date";
    let changes: Vec<(&str, &str, Impact)> = d
        .tables
        .iter()
        .map(|t| (t.table.as_str(), t.change.as_str(), t.impact))
        .collect();
    assert_eq!(
        changes,
        vec![
            (
                table,
                "available_rooms_by_hotel_date: values per partition 73000 → 73000 (over the limit of 50000)",
                Impact::Compatible
            ),
            (
                table,
                "available_rooms_by_hotel_date: MB per partition 1.0 → 1.0 (over the limit of 1)",
                Impact::Compatible
            ),
        ]
    );
    assert!(!d.is_breaking());
    let back = semantic::semantic(&tighter, &p);
    let changes: Vec<&str> = back.tables.iter().map(|t| t.change.as_str()).collect();
    assert_eq!(
        changes,
        vec![
            "available_rooms_by_hotel_date: values per partition 73000 → 73000 (back under the limit of 100000)",
            "available_rooms_by_hotel_date: MB per partition 1.0 → 1.0 (back under the limit of 100)",
        ]
    );
    assert!(!back.is_breaking());
    // A limit moved without a table crossing it says nothing of tables;
    // a partition exactly at the limit is not over it (73,000 values).
    let mut looser = p.clone();
    looser.thresholds.max_values = 200_000.0;
    assert!(semantic::semantic(&p, &looser).tables.is_empty());
    let mut at_limit = p.clone();
    at_limit.thresholds.max_values = 73_000.0;
    assert!(semantic::semantic(&p, &at_limit).tables.is_empty());
    assert!(semantic::semantic(&at_limit, &p).tables.is_empty());
}

/// The clustering columns reordered with no column changing role: a key
/// order change, which needs a new table.
#[test]
fn a_reordered_key_alone_needs_a_backfill() {
    use cqlmodel::lifecycle::diff::{diff, ColumnChange, TableChange};
    let p = sample("hotel");
    let mut q = p.clone();
    let d = q.decision_mut("Q7");
    d.candidates.push(cqlmodel::model::Candidate {
        name: "by_confirmation_first".into(),
        partition: vec!["hotel_id".into(), "start_date".into()],
        clustering: vec![
            cqlmodel::model::Order {
                attr: "confirm_number".into(),
                dir: Dir::Asc,
            },
            cqlmodel::model::Order {
                attr: "room_number".into(),
                dir: Dir::Asc,
            },
        ],
        indexes: vec![],
    });
    d.use_candidate = Some("by_confirmation_first".into());
    let changes = diff(&derive(&p), &derive(&q));
    assert_eq!(
        changes,
        vec![TableChange::Changed {
            table: "reservations_by_hotel_date".into(),
            columns: vec![ColumnChange::KeyOrder],
            queries: None,
        }]
    );
    assert_eq!(
        changes[0].to_string(),
        "reservations_by_hotel_date: key order changed"
    );
    assert_eq!(semantic::impact(&changes[0]), Impact::NeedsBackfill);
    assert!(semantic::semantic(&p, &q).is_breaking());
    let script = cqlmodel::lifecycle::migrate::script(&p, &q);
    assert!(
        script.contains("-- reservations_by_hotel_date: the primary key, a static column or a type changed (key order changed)."),
        "{script}"
    );
    assert!(script.contains("CREATE TABLE IF NOT EXISTS hotel.reservations_by_hotel_date_new ("));
}

/// A user type: a field added is altered in place (`ALTER TYPE … ADD`), a
/// field removed or retyped is breaking (ALTER TYPE only adds and
/// renames), and says which.
#[test]
fn a_type_losing_a_field_breaks_and_one_gaining_a_field_does_not() {
    let p = sample("hotel");
    let mut fewer = p.clone();
    fewer.types[0].fields.retain(|f| f.name != "country");
    let d = semantic::semantic(&p, &fewer);
    let item = d
        .items
        .iter()
        .find(|i| i.kind == "type")
        .unwrap_or_else(|| panic!("{:?}", d.items));
    assert_eq!(item.name, "address");
    assert_eq!(item.change, "changed");
    assert_eq!(
        item.fields,
        vec![
            "fields".to_string(),
            "fields: country removed or retyped".to_string()
        ]
    );
    assert!(d.is_breaking());
    assert!(semantic::text(&d)
        .contains("type address: changed (fields, fields: country removed or retyped)\n"));
    // The other way, the field is added: compatible.
    let d = semantic::semantic(&fewer, &p);
    let item = d.items.iter().find(|i| i.kind == "type").expect("type");
    assert_eq!(item.fields, vec!["fields".to_string()]);
    assert!(!d.is_breaking(), "{d:?}");
    let script = cqlmodel::lifecycle::migrate::script(&fewer, &p);
    // The added field is altered in place, nothing left to do by hand.
    assert!(
        script.contains("ALTER TYPE hotel.address ADD country text;"),
        "{script}"
    );
    assert!(!script.contains("-- WARNING: type address"), "{script}");
}

/// The one-line summary a shell shows after an edit: the first changes,
/// then how many more.
#[test]
fn the_summary_line_counts_what_it_leaves_out() {
    use cqlmodel::lifecycle::diff::{summary, TableChange};
    let changes = vec![
        TableChange::Added("a".into()),
        TableChange::Removed("b".into()),
        TableChange::Renamed {
            from: "c".into(),
            to: "d".into(),
        },
    ];
    assert_eq!(summary(&changes, 3), "+ a; - b; c → d");
    assert_eq!(summary(&changes, 2), "+ a; - b; … 1 more");
    assert_eq!(summary(&changes, 0), "… 3 more");
    assert_eq!(summary(&[], 3), "");
}

/// What `migrate` can do in place, line by line: a static column and a
/// frozen user-type static column added to `pois_by_hotel` (the hotel's
/// name and address beside its points of interest), and an index no
/// longer used, left as a commented drop.
#[test]
fn migrate_adds_statics_in_place_and_comments_out_index_drops() {
    let p = sample("hotel");
    let mut statics = p.clone();
    let i = statics
        .queries
        .iter()
        .position(|q| q.id == "Q3")
        .expect("Q3");
    statics.queries[i].returns.push("Hotel.name".into());
    statics.queries[i].returns.push("Hotel.address".into());
    let script = cqlmodel::lifecycle::migrate::script(&p, &statics);
    let adds: Vec<&str> = script
        .lines()
        .filter(|l| l.starts_with("ALTER TABLE"))
        .collect();
    assert_eq!(
        adds,
        vec![
            "ALTER TABLE hotel.pois_by_hotel ADD hotel_name text STATIC;",
            "ALTER TABLE hotel.pois_by_hotel ADD hotel_address frozen<address> STATIC;",
        ],
        "{script}"
    );
    assert!(!semantic::semantic(&p, &statics).is_breaking());

    let mut indexed = p.clone();
    indexed.decision_mut("Q1").indexes.push("phone".into());
    let script = cqlmodel::lifecycle::migrate::script(&indexed, &p);
    assert!(
        script.contains(
            "-- the index on hotels_by_poi.phone is no longer used:\n\
             -- DROP INDEX IF EXISTS hotel.hotels_by_poi_phone_idx;\n"
        ),
        "{script}"
    );
    assert!(!script.lines().any(|l| l.starts_with("DROP")), "{script}");
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, a, b) in [("statics", &p, &statics), ("unindexed", &indexed, &p)] {
        let file = dir.path().join(format!("{name}.cql"));
        std::fs::write(&file, cqlmodel::lifecycle::migrate::script(a, b)).expect("write");
        if let Some((ok, text)) = cqlcheck(&file) {
            assert!(ok, "{name}: {text}");
        }
    }
}

/// Every option a designer set and then unset goes back to Cassandra's
/// default in one `ALTER TABLE … WITH`: the defaults of Cassandra 4.0–5.0
/// (`gc_grace_seconds` 864,000 = 10 days; caching keys ALL, no rows; LZ4
/// in 16 KiB chunks; a 1 % bloom filter; the 99th percentile for
/// speculative retries and extra writes; no CDC; every checksum checked;
/// index intervals 128 and 2,048; blocking read repair; no periodic
/// memtable flush), written out here by hand, not read from the code.
#[test]
fn unset_options_go_back_to_cassandras_defaults() {
    let p = sample("hotel");
    let mut set = p.clone();
    let o = &mut set.decision_mut("Q2").options;
    o.gc_grace = cqlmodel::model::physical::Span::parse("3h").ok();
    o.caching = Some(
        [
            ("keys".to_string(), "NONE".to_string()),
            ("rows_per_partition".to_string(), "10".to_string()),
        ]
        .into(),
    );
    o.compression = Some(
        [
            ("class".to_string(), "ZstdCompressor".to_string()),
            ("chunk_length_in_kb".to_string(), "64".to_string()),
        ]
        .into(),
    );
    o.bloom_filter_fp_chance = Some(0.1);
    o.speculative_retry = Some("ALWAYS".into());
    o.cdc = Some(true);
    for (k, v) in [
        ("crc_check_chance", "0.5"),
        ("min_index_interval", "64"),
        ("max_index_interval", "1024"),
        ("read_repair", "'NONE'"),
        ("additional_write_policy", "'ALWAYS'"),
        ("memtable_flush_period_in_ms", "3600000"),
    ] {
        o.other.insert(k.into(), v.into());
    }
    assert!(
        load::validate(&set).is_empty(),
        "{:?}",
        load::validate(&set)
    );
    let script = cqlmodel::lifecycle::migrate::script(&set, &p);
    let got = altered_options(&script, "hotel.hotels");
    assert_eq!(
        got,
        vec![
            "additional_write_policy = '99p'",
            "bloom_filter_fp_chance = 0.01",
            "caching = {'keys': 'ALL', 'rows_per_partition': 'NONE'}",
            "cdc = false",
            "compression = {'chunk_length_in_kb': '16', 'class': 'LZ4Compressor'}",
            "crc_check_chance = 1.0",
            "gc_grace_seconds = 864000",
            "max_index_interval = 2048",
            "memtable_flush_period_in_ms = 0",
            "min_index_interval = 128",
            "read_repair = 'BLOCKING'",
            "speculative_retry = '99p'",
        ],
        "{script}"
    );
    // An option with no known default (a designer's own) is left to the
    // reader, with the value it had.
    let mut own = p.clone();
    own.decision_mut("Q2")
        .options
        .other
        .insert("memtable".into(), "'trie'".into());
    own.cassandra = cqlmodel::model::physical::CassandraVersion::V5_0;
    let mut back = p.clone();
    back.cassandra = cqlmodel::model::physical::CassandraVersion::V5_0;
    let script = cqlmodel::lifecycle::migrate::script(&own, &back);
    assert!(
        script.contains("-- hotels: memtable is no longer set; put back Cassandra's default by hand (it was 'trie')"),
        "{script}"
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("defaults.cql");
    std::fs::write(&file, cqlmodel::lifecycle::migrate::script(&set, &p)).expect("write");
    if let Some((ok, text)) = cqlcheck(&file) {
        assert!(ok, "{text}");
    }
}

/// A column's type changed (the hotel's phone from text to bigint, in the
/// two tables that hold it): a new table each; an index renamed: dropped
/// and built again in place, compatible.
#[test]
fn a_retyped_column_needs_a_backfill_and_a_renamed_index_is_rebuilt() {
    let p = sample("hotel");
    let mut retyped = p.clone();
    let hotel = retyped
        .entities
        .iter_mut()
        .find(|e| e.name == "Hotel")
        .expect("Hotel");
    let phone = hotel
        .attributes
        .iter_mut()
        .find(|a| a.name == "phone")
        .expect("phone");
    phone.ty = "bigint".parse().expect("type");
    phone.size = None;
    let d = semantic::semantic(&p, &retyped);
    let tables: Vec<(&str, Impact)> = d
        .tables
        .iter()
        .map(|t| (t.change.as_str(), t.impact))
        .collect();
    assert_eq!(
        tables,
        vec![
            ("hotels_by_poi: phone text → bigint", Impact::NeedsBackfill),
            ("hotels: phone text → bigint", Impact::NeedsBackfill),
        ]
    );
    assert!(d.is_breaking());

    let mut indexed = p.clone();
    indexed.decision_mut("Q1").indexes.push("phone".into());
    let mut renamed = indexed.clone();
    renamed.decision_mut("Q1").options.indexes.insert(
        "phone".into(),
        cqlmodel::model::physical::IndexSpec {
            name: Some("by_phone".into()),
            ..Default::default()
        },
    );
    assert!(
        load::validate(&renamed).is_empty(),
        "{:?}",
        load::validate(&renamed)
    );
    let d = semantic::semantic(&indexed, &renamed);
    let tables: Vec<(&str, Impact)> = d
        .tables
        .iter()
        .map(|t| (t.change.as_str(), t.impact))
        .collect();
    assert_eq!(
        tables,
        vec![("hotels_by_poi: index on phone rebuilt", Impact::Compatible)]
    );
    assert!(!d.is_breaking());
    let script = cqlmodel::lifecycle::migrate::script(&indexed, &renamed);
    assert!(
        script.contains("DROP INDEX IF EXISTS hotel.hotels_by_poi_phone_idx;\n"),
        "{script}"
    );
    assert!(
        script.contains("CREATE INDEX IF NOT EXISTS by_phone ON hotel.hotels_by_poi (phone);"),
        "{script}"
    );
}

/// A user type no table uses, removed or renamed: no table changes, yet a
/// running cluster still holds the type (`DROP TYPE` or a new one), so the
/// diff is breaking; adding it is not.
#[test]
fn an_unused_type_removed_or_renamed_is_breaking() {
    let p = sample("hotel");
    let mut extra = p.clone();
    extra.types.push(cqlmodel::model::UserType {
        name: "spare".into(),
        fields: vec![cqlmodel::model::Field {
            name: "a".into(),
            ty: "int".parse().expect("type"),
        }],
    });
    let mut renamed = extra.clone();
    renamed.types[1].name = "spare2".into();
    for (what, old, new, change, breaking) in [
        ("removed", &extra, &p, "removed", true),
        ("added", &p, &extra, "added", false),
        ("renamed", &extra, &renamed, "renamed from spare", true),
    ] {
        let d = semantic::semantic(old, new);
        assert!(d.tables.is_empty(), "{what}: {:?}", d.tables);
        let item = d
            .items
            .iter()
            .find(|i| i.kind == "type")
            .unwrap_or_else(|| panic!("{what}: {:?}", d.items));
        assert_eq!(item.change, change, "{what}");
        assert_eq!(d.is_breaking(), breaking, "{what}");
    }
}

/// A table's comment (the queries it answers and the designer's own) is
/// part of its schema: editing a query's text or the comment option shows
/// in `diff` as an option change and `migrate` sets it with `ALTER TABLE`.
#[test]
fn a_changed_table_comment_is_diffed_and_migrated() {
    let p = sample("hotel");
    let mut edited = p.clone();
    edited.queries[0].text = "Hotels near a point of interest, nearest first".into();
    let d = semantic::semantic(&p, &edited);
    assert!(!d.is_breaking(), "{d:?}");
    let text = semantic::text(&d);
    assert!(text.contains("comment"), "{text}");
    let script = cqlmodel::lifecycle::migrate::script(&p, &edited);
    assert!(
        script.contains("ALTER TABLE hotel.hotels_by_poi WITH comment = 'Q1. Hotels near a point of interest, nearest first'"),
        "{script}"
    );
    // Nothing changed: nothing to say.
    assert!(!semantic::text(&semantic::semantic(&p, &p.clone())).contains("comment"));
}

/// A renamed attribute renames the table searched by it (a new table and
/// a backfill) and a column of another table. The backfill of the renamed
/// table reads the renamed column under its old name, from its own
/// changes: not from the other table's, listed first (the diff lists
/// tables in query order).
#[test]
fn a_renamed_tables_backfill_reads_its_own_renamed_columns() {
    let old = load::from_str(
        r#"Project(
        format: 1,
        name: "blog",
        keyspace: Keyspace(name: "blog", replication: Simple(3)),
        entities: [
            Entity(name: "User", key: ["user_id"], attributes: [
                Attribute(name: "user_id", type: "uuid"),
                Attribute(name: "email", type: "text"),
                Attribute(name: "name", type: "text"),
            ]),
            Entity(name: "Post", key: ["post_id"], attributes: [
                Attribute(name: "post_id", type: "timeuuid"),
                Attribute(name: "title", type: "text"),
            ]),
        ],
        relationships: [
            Relationship(name: "writes", from: "User", to: "Post", cardinality: OneToMany),
        ],
        queries: [
            Query(id: "Q1", text: "a user's posts", rows: "Post", equality: ["User.user_id"],
                returns: ["title", "User.email"]),
            Query(id: "Q2", text: "a user by email", rows: "User", equality: ["email"],
                returns: ["name"]),
        ],
    )"#,
    )
    .expect("valid project");
    let mut new = old.clone();
    apply_edit(
        &mut new,
        &Edit::Rename(Item::Attribute(0, 1), "mail".into()),
    )
    .expect("rename");
    let names = |p: &Project| -> Vec<String> {
        derive(p)
            .tables
            .iter()
            .map(|t| t.name.to_string())
            .collect()
    };
    assert_eq!(names(&old), ["posts_by_user", "users_by_email"]);
    assert_eq!(names(&new), ["posts_by_user", "users_by_mail"]);
    let script = cqlmodel::lifecycle::migrate::script(&old, &new);
    let plan = script
        .split("-- Backfill plan for users_by_mail:")
        .nth(1)
        .unwrap_or_else(|| panic!("no backfill plan for users_by_mail:\n{script}"));
    let read = plan.lines().nth(2).unwrap_or_default();
    assert!(
        read.contains("SELECT")
            && read.contains("email")
            && read.contains("FROM blog.users_by_email"),
        "{read}\n{script}"
    );
    let steps: String = plan.lines().take(6).collect::<Vec<_>>().join("\n");
    assert!(!steps.contains("must be computed"), "{steps}\n{script}");
    // Created once, under its new name: its own changes come with it.
    assert_eq!(
        script
            .matches("CREATE TABLE IF NOT EXISTS blog.users_by_mail")
            .count(),
        1,
        "{script}"
    );
}

/// A rebuilt table that drops a clustering column and a regular one: the
/// backfill plan warns that rows differing only in the dropped key
/// column collapse into one, and that the dropped value is not copied,
/// each under its own heading.
#[test]
fn a_rebuild_warns_of_collapsed_rows_and_values_not_copied() {
    let text = |order: &str, returns: &str| {
        format!(
            r#"Project(
        format: 1,
        name: "shop",
        keyspace: Keyspace(name: "shop", replication: Simple(3)),
        entities: [
            Entity(name: "User", key: ["user_id"], attributes: [
                Attribute(name: "user_id", type: "uuid"),
            ]),
            Entity(name: "Order", key: ["order_id"], attributes: [
                Attribute(name: "order_id", type: "uuid"),
                Attribute(name: "created_at", type: "timestamp"),
                Attribute(name: "total", type: "decimal"),
                Attribute(name: "note", type: "text"),
            ]),
        ],
        relationships: [
            Relationship(name: "places", from: "User", to: "Order", cardinality: OneToMany),
        ],
        queries: [
            Query(id: "Q1", text: "a user's orders", rows: "Order", equality: ["User.user_id"],
                {order} returns: [{returns}]),
        ],
    )"#
        )
    };
    let old = load::from_str(&text(
        r#"order: [Order(attr: "created_at", dir: Desc)],"#,
        r#""total", "note""#,
    ))
    .expect("valid old project");
    let new = load::from_str(&text("", r#""total""#)).expect("valid new project");
    let script = cqlmodel::lifecycle::migrate::script(&old, &new);
    let lost: Vec<&str> = script.lines().filter(|l| l.contains("LOST:")).collect();
    assert_eq!(lost.len(), 2, "{script}");
    assert!(
        lost[0].contains("differ only in created_at become one row"),
        "{}\n{script}",
        lost[0]
    );
    assert!(
        lost[1].ends_with("the new table has no column for note: those values are not copied"),
        "{}\n{script}",
        lost[1]
    );
    // The table has no views to speak of.
    assert!(!script.contains("the views over"), "{script}");
}

/// Compaction and a default TTL set on a table, then unset: the script
/// puts back size-tiered compaction and a TTL of 0, and warns of what
/// each costs or leaves (every `SSTable` rewritten; rows already written
/// keep their TTL).
#[test]
fn unset_compaction_and_ttl_go_back_with_their_warnings() {
    let p = sample("hotel");
    let mut set = p.clone();
    let o = &mut set.decision_mut("Q2").options;
    o.compaction = Some(cqlmodel::model::physical::Compaction {
        strategy: cqlmodel::model::physical::Strategy::Leveled,
        options: std::collections::BTreeMap::default(),
    });
    o.retention = cqlmodel::model::physical::Span::parse("30d").ok();
    o.ttl = Some(true);
    assert!(
        load::validate(&set).is_empty(),
        "{:?}",
        load::validate(&set)
    );
    let script = cqlmodel::lifecycle::migrate::script(&set, &p);
    let got = altered_options(&script, "hotel.hotels");
    assert_eq!(
        got,
        vec![
            "compaction = {'class': 'SizeTieredCompactionStrategy'}",
            "default_time_to_live = 0",
            // A TTL'd table's shorter gc_grace goes back with it.
            "gc_grace_seconds = 864000",
        ],
        "{script}"
    );
    // Each warning once: for its own option, not for the others.
    let once = |what: &str| script.matches(what).count() == 1;
    assert!(
        once("-- hotels: a new compaction strategy rewrites every SSTable"),
        "{script}"
    );
    assert!(
        once("-- hotels: the default TTL applies to rows written from now on; rows already written keep theirs"),
        "{script}"
    );
}

/// An index added to a table that stays: the script creates just it.
#[test]
fn an_added_index_is_created_in_place() {
    let p = sample("hotel");
    let mut indexed = p.clone();
    indexed.decision_mut("Q1").indexes.push("phone".into());
    let script = cqlmodel::lifecycle::migrate::script(&p, &indexed);
    assert!(
        script.contains(
            "CREATE INDEX IF NOT EXISTS hotels_by_poi_phone_idx ON hotel.hotels_by_poi (phone);"
        ),
        "{script}"
    );
    assert!(!script.contains("CREATE TABLE"), "{script}");
}

/// A keyspace whose replication changes (durable writes as they were):
/// CREATE … IF NOT EXISTS would leave it, so the script alters it and
/// says to repair.
#[test]
fn a_replication_change_alters_the_keyspace() {
    let p = sample("hotel");
    let mut more = p.clone();
    more.keyspace.replication = cqlmodel::model::Replication::Simple(5);
    let script = cqlmodel::lifecycle::migrate::script(&p, &more);
    assert!(
        script.contains("ALTER KEYSPACE hotel\n    WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 5}"),
        "{script}"
    );
    assert!(script.contains("nodetool repair -full"), "{script}");
}

/// A key moved from one attribute to another that both models still hold
/// elsewhere is a new key, not a rename: comparing the two models alone
/// (`diff::diff`, no projects) says email removed and name added.
#[test]
fn a_key_moved_between_attributes_both_models_hold_is_no_rename() {
    let text = |search: &str| {
        format!(
            r#"Project(
        format: 1,
        name: "users",
        keyspace: Keyspace(name: "users", replication: Simple(3)),
        entities: [
            Entity(name: "User", key: ["user_id"], attributes: [
                Attribute(name: "user_id", type: "uuid"),
                Attribute(name: "email", type: "text"),
                Attribute(name: "name", type: "text"),
            ]),
        ],
        queries: [
            Query(id: "Q1", text: "a user by a search", rows: "User", equality: ["{search}"],
                returns: ["user_id"]),
            Query(id: "Q2", text: "a user", rows: "User", equality: ["user_id"],
                returns: ["email", "name"]),
        ],
    )"#
        )
    };
    let old = derive(&load::from_str(&text("email")).expect("valid"));
    let new = derive(&load::from_str(&text("name")).expect("valid"));
    let changes = cqlmodel::lifecycle::diff::diff(&old, &new);
    let shown = format!("{changes:?}");
    assert!(!shown.contains("Renamed { from: \"email\""), "{shown}");
    assert!(shown.contains("Removed { name: \"email\" }"), "{shown}");
    // Nor when only one of the two is held by both: the old model never
    // returned name, the new one still returns email.
    let old = derive(
        &load::from_str(
            &text("email").replace(r#"returns: ["email", "name"]"#, r#"returns: ["email"]"#),
        )
        .expect("valid"),
    );
    let shown = format!("{:?}", cqlmodel::lifecycle::diff::diff(&old, &new));
    assert!(!shown.contains("Renamed { from: \"email\""), "{shown}");
}

/// A key column renamed is paired as a rename only where it stands at the
/// same place in the key: `x` (third of the key) renamed `y` and moved
/// last is a removed and an added column, while renamed in place it is a
/// rename.
#[test]
fn a_key_column_renamed_and_moved_in_the_key_is_no_rename() {
    let text = |key: &str, attr: &str| {
        format!(
            r#"Project(
        format: 1,
        name: "sensors",
        keyspace: Keyspace(name: "sensors", replication: Simple(3)),
        entities: [
            Entity(name: "Reading", key: [{key}], attributes: [
                Attribute(name: "sensor", type: "text"),
                Attribute(name: "a", type: "int"),
                Attribute(name: "{attr}", type: "int"),
                Attribute(name: "c", type: "int"),
                Attribute(name: "v", type: "text"),
            ]),
        ],
        queries: [
            Query(id: "Q1", text: "readings of a sensor", rows: "Reading",
                equality: ["sensor"], returns: ["v"]),
        ],
    )"#
        )
    };
    let model = |key: &str, attr: &str| derive(&load::from_str(&text(key, attr)).expect("valid"));
    let old = model(r#""sensor", "a", "x", "c""#, "x");
    let key = |m: &cqlmodel::derive::LogicalModel| -> Vec<String> {
        m.tables[0]
            .columns
            .iter()
            .filter(|c| c.role.is_key())
            .map(|c| c.name.to_string())
            .collect()
    };
    assert_eq!(key(&old), ["sensor", "a", "x", "c"]);
    let moved = model(r#""sensor", "a", "c", "y""#, "y");
    assert_eq!(key(&moved), ["sensor", "a", "c", "y"]);
    let shown = format!("{:?}", cqlmodel::lifecycle::diff::diff(&old, &moved));
    assert!(!shown.contains("Renamed { from: \"x\""), "{shown}");
    assert!(shown.contains("Removed { name: \"x\" }"), "{shown}");
    // The same rename with the column left in place is one.
    let in_place = model(r#""sensor", "a", "y", "c""#, "y");
    let shown = format!("{:?}", cqlmodel::lifecycle::diff::diff(&old, &in_place));
    assert!(shown.contains("Renamed { from: \"x\""), "{shown}");
}

/// The options a script's `ALTER TABLE {table} WITH …` sets, sorted.
fn altered_options<'a>(script: &'a str, table: &str) -> Vec<&'a str> {
    let alter = script
        .split(&format!("ALTER TABLE {table} WITH "))
        .nth(1)
        .and_then(|s| s.split(";\n").next())
        .unwrap_or_else(|| panic!("no ALTER TABLE {table}:\n{script}"));
    let mut got: Vec<&str> = alter.split("\n    AND ").collect();
    got.sort_unstable();
    got
}
