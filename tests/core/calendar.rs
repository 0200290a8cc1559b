//! A query that searches by a calendar part of a time (`day of ts`): the
//! file syntax and its validation, the bucket the derivation makes of it,
//! the SELECT that binds it and the estimates that count a partition per
//! bucket, all worked out by hand on a small weather project.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use super::support;
use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::{Role, Rule, Table};
use cqlmodel::model::load::from_str;
use cqlmodel::model::{Period, Project};
use cqlmodel::review::diagnose::Refinement;

/// 100 stations, a reading a minute each (1,440 a day, never more), kept
/// 730 days.
const WEATHER: &str = r#"Project(format: 1, name: "Weather", keyspace: Keyspace(name: "w", replication: Simple(1)),
  entities: [
    Entity(name: "Station", key: ["station_id"], attributes: [
      Attribute(name: "station_id", type: "text", size: Some(10)),
      Attribute(name: "name", type: "text", size: Some(30)),
    ], count: Some(100)),
    Entity(name: "Reading", owner: Some("records"), key: ["ts"], attributes: [
      Attribute(name: "ts", type: "timestamp"),
      Attribute(name: "temperature", type: "float"),
    ], retention_days: Some(730), ttl: true),
  ],
  relationships: [
    Relationship(name: "records", from: "Station", to: "Reading", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 1440, max: Some(1440), per: Some(Day)))),
  ],
  queries: [QUERIES],
)"#;

/// A station's readings of one day, in time order.
const PER_DAY: &str = r#"Query(id: "Q2", text: "A station's readings of one day", rows: "Reading",
      equality: ["Station.station_id"], calendar: [(period: Day, attr: "ts")],
      order: [Order(attr: "ts", dir: Asc)], returns: ["ts", "temperature"])"#;

fn project(queries: &str) -> Project {
    from_str(&WEATHER.replace("QUERIES", queries)).unwrap_or_else(|e| panic!("loads: {e}"))
}

fn refused(queries: &str) -> String {
    match from_str(&WEATHER.replace("QUERIES", queries)) {
        Ok(_) => panic!("loaded: {queries}"),
        Err(e) => e.to_string(),
    }
}

fn layout(t: &Table) -> Vec<String> {
    t.columns
        .iter()
        .map(|c| format!("{} {}", c.role.marker(), c.name).trim().to_string())
        .collect()
}

fn table_of<'a>(a: &'a Analysis, query: &str) -> (usize, &'a Table) {
    let i = a
        .model
        .tables
        .iter()
        .position(|t| t.queries.iter().any(|q| q.as_str() == query))
        .unwrap_or_else(|| panic!("no table of {query}"));
    (i, &a.model.tables[i])
}

fn close(what: &str, got: f64, want: f64) {
    assert!(
        (got - want).abs() <= 1e-9 * want.abs().max(1.0),
        "{what}: got {got}, want {want}"
    );
}

/// The part is written `(period: Day, attr: "ts")`, saved back the same
/// way, and left out of a query that has none (older files load and save
/// unchanged).
#[test]
fn the_calendar_part_reads_and_saves_as_written() {
    let p = project(PER_DAY);
    let q = &p.queries[0];
    assert_eq!(q.calendar.len(), 1);
    assert_eq!(q.calendar[0].period, Period::Day);
    assert_eq!(q.calendar[0].attr, "ts");
    assert_eq!(q.calendar[0].text(), "day of ts");
    let saved = cqlmodel::model::load::to_string(&p);
    assert!(saved.contains("calendar: ["), "{saved}");
    assert!(saved.contains("period: Day"), "{saved}");
    let again = from_str(&saved).expect("reloads");
    assert_eq!(again.queries[0].calendar, q.calendar);
    let plain = project(
        r#"Query(id: "Q1", text: "t", rows: "Reading", equality: ["Station.station_id"], returns: ["ts"])"#,
    );
    let saved = cqlmodel::model::load::to_string(&plain);
    assert!(!saved.contains("calendar"), "{saved}");
}

/// A calendar part of a number, of an unknown attribute, the hour of a
/// date and a part on an aggregate query are refused, each with its path.
#[test]
fn a_calendar_part_of_no_time_is_refused_with_its_path() {
    let err = refused(
        r#"Query(id: "Q1", text: "t", rows: "Reading", equality: ["Station.station_id"],
          calendar: [(period: Day, attr: "temperature")], returns: ["ts"])"#,
    );
    assert!(err.contains("queries[0].calendar[0].attr"), "{err}");
    assert!(
        err.contains(
            "the day of a float attribute: a calendar part is of a timestamp, timeuuid or date"
        ),
        "{err}"
    );
    let err = refused(
        r#"Query(id: "Q1", text: "t", rows: "Reading", calendar: [(period: Week, attr: "tss")], returns: ["ts"])"#,
    );
    assert!(err.contains("queries[0].calendar[0].attr"), "{err}");
    let err = refused(
        r#"Query(id: "Q1", text: "t", rows: "Reading", calendar: [(period: Month, attr: "ts"), (period: Day, attr: "ts")], returns: ["ts"])"#,
    );
    assert!(err.contains("queries[0].calendar[1].attr"), "{err}");
    assert!(err.contains("already searched by a calendar part"), "{err}");
}

/// `((station_id, day), ts)`: the station by MR2, the day of `ts` a bucket
/// after it in the partition key, `ts` the clustering key the rows' key
/// appends; the SELECT binds the day by equality, like any computed bucket.
#[test]
fn the_day_of_a_time_is_a_bucket_in_the_partition_key() {
    let a = analyze(&project(PER_DAY));
    assert!(a.model.problems.is_empty(), "{:?}", a.model.problems);
    let (_, t) = table_of(&a, "Q2");
    assert_eq!(layout(t), ["K station_id", "K day", "C↑ ts", "temperature"]);
    assert_eq!(t.name, "readings_by_station_day");
    let day = t.column("day").expect("a day column");
    assert_eq!(day.rule, Rule::Calendar);
    assert_eq!(day.role, Role::Partition);
    assert_eq!(day.ty.to_string(), "date");
    let plan = &a.model.plans[0];
    assert!(plan.access.is_direct(), "{:?}", plan.access);
    assert_eq!(
        plan.select.as_str(),
        format!(
            "SELECT ts, temperature FROM w.{} WHERE station_id = ? AND day = ? ORDER BY ts ASC;",
            t.name
        )
    );
    assert_eq!(plan.computed, ["day"]);
}

/// Rows: 100 stations · 1,440 a day · 730 days = 105,120,000. Partitions:
/// 100 stations · 730 days = 73,000, so Nr = 1,440 (and at worst, the
/// stated maximum). Nc = 4, Npk = 3 (`station_id`, day, ts): Nv = 1,440 ·
/// (4 − 3) = 1,440. St = 10 (`station_id`) + 4 (day, a date) + 1,440 · (8 ts
/// + 4 temperature) + 8 · 1,440 = 28,814.
#[test]
fn estimates_count_a_partition_per_day() {
    let a = analyze(&project(PER_DAY));
    let (i, _) = table_of(&a, "Q2");
    let e = &a.estimates[i];
    close("rows", e.rows, 100.0 * 1440.0 * 730.0);
    close("partitions", e.partitions, 100.0 * 730.0);
    close("Nr", e.rows_per_partition, 1440.0);
    close("Nr worst", e.rows_per_partition_max, 1440.0);
    assert_eq!((e.columns, e.key_columns, e.static_columns), (4, 3, 0));
    close("Nv", e.values, 1440.0);
    close(
        "St",
        e.partition_bytes,
        10.0 + 4.0 + 1440.0 * (8.0 + 4.0) + 8.0 * 1440.0,
    );
    close("St", e.partition_bytes, 28_814.0);
}

/// The hour of a timestamp is a timestamp column (truncated to the hour),
/// 24 partitions a day: Nr = 60.
#[test]
fn an_hour_is_a_timestamp_bucket_of_sixty_readings() {
    let a = analyze(&project(
        r#"Query(id: "Q4", text: "A station's readings of one hour", rows: "Reading",
          equality: ["Station.station_id"], calendar: [(period: Hour, attr: "ts")], returns: ["temperature"])"#,
    ));
    let (i, t) = table_of(&a, "Q4");
    assert_eq!(
        layout(t),
        ["K station_id", "K hour", "C↑ ts", "temperature"]
    );
    assert_eq!(
        t.column("hour").map(|c| c.ty.to_string()).as_deref(),
        Some("timestamp")
    );
    close(
        "partitions",
        a.estimates[i].partitions,
        100.0 * 730.0 * 24.0,
    );
    close("Nr", a.estimates[i].rows_per_partition, 60.0);
}

/// With a range query on the same readings, the per-day query keeps its
/// own bucketed table (a range of the station's whole partition would
/// answer it, but reads a slice of 1,051,200 rows); the schema and both
/// SELECTs, run after it, pass cqlcheck.
#[test]
fn the_per_day_table_stands_apart_and_its_cql_passes_cqlcheck() {
    let q1 = r#"Query(id: "Q1", text: "A station's readings between two times", rows: "Reading",
      equality: ["Station.station_id"], range: Some(Range(attr: "ts", op: Between)),
      order: [Order(attr: "ts", dir: Desc)], returns: ["ts", "temperature"]),"#;
    let p = project(&format!("{q1}{PER_DAY}"));
    let a = analyze(&p);
    assert!(a.model.problems.is_empty(), "{:?}", a.model.problems);
    let names: Vec<&str> = a.model.tables.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["readings_by_station_ts", "readings_by_station_day"]);
    let (_, t) = table_of(&a, "Q2");
    assert_eq!(t.queries.len(), 1, "{:?}", t.queries);
    let Some(tool) = support::cqlcheck() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("calendar.cql");
    // cqlsh's grammar has no bind markers: each becomes a literal.
    let selects = cqlmodel::output::cql::selects(&a.model).replace('?', "'2026-05-09'");
    assert_eq!(selects.matches("SELECT ").count(), 2);
    let text = format!("{}\n{selects}", cqlmodel::output::cql::script(&p, &a.model));
    std::fs::write(&file, &text).expect("write");
    if let Err(said) = support::cqlcheck_file(&tool, &file) {
        panic!("cqlcheck refused\n{said}\n{text}");
    }
}

const Q1_RANGE: &str = r#"Query(id: "Q1", text: "A station's readings between two times", rows: "Reading",
      equality: ["Station.station_id"], range: Some(Range(attr: "ts", op: Between)),
      order: [Order(attr: "ts", dir: Desc)], returns: ["ts", "temperature"]),"#;

fn preview_reads(p: &Project, r: &Refinement) -> Vec<(String, String, f64, f64)> {
    let pv = cqlmodel::edit::refine::preview(p, r);
    assert!(pv.error.is_none(), "{:?}", pv.error);
    pv.reads
        .into_iter()
        .map(|x| (x.query, x.what, x.before, x.after))
        .collect()
}

fn bucket(query: &str, period: Period) -> Refinement {
    Refinement::AddBucket {
        query: query.into(),
        column: period.name().into(),
        source: "ts".into(),
        period,
    }
}

/// Buckets one calendar part overlaps, by hand: within a bucket as long
/// or longer, one (a week across months or years, two); else as many as
/// the longest part holds (24 hours, 7 days, 31 days, 744 hours, 366
/// days, 12 months; a month over weeks six: 31 days starting on a Sunday
/// touch six Monday weeks).
#[test]
fn a_calendar_part_overlaps_buckets_counted_by_hand() {
    use cqlmodel::edit::refine::calendar_reads as n;
    use Period::{Day, Hour, Month, Week, Year};
    for (part, bucket, want) in [
        (Day, Day, 1.0),
        (Day, Month, 1.0),
        (Hour, Year, 1.0),
        (Day, Week, 1.0),
        (Week, Month, 2.0),
        (Week, Year, 2.0),
        (Day, Hour, 24.0),
        (Week, Day, 7.0),
        (Month, Day, 31.0),
        (Month, Hour, 744.0),
        (Year, Day, 366.0),
        (Year, Month, 12.0),
        (Month, Week, 6.0),
        (Year, Week, 54.0),
    ] {
        close(&format!("{part:?} over {bucket:?}"), n(part, bucket), want);
    }
}

/// The review of the range query's table (1,051,200 readings a station)
/// proposes the day the per-day query names, not the coarsest bucket that
/// fits (a month: 43,800); the per-day table draws no partition finding.
#[test]
fn the_review_proposes_the_bucket_a_query_names() {
    let p = project(&format!("{Q1_RANGE}{PER_DAY}"));
    let a = analyze(&p);
    let large: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.rule.starts_with("partition") || d.rule == "unbounded-partition")
        .collect();
    assert_eq!(large.len(), 1, "{large:?}");
    let d = large[0];
    assert_eq!(
        d.subject,
        cqlmodel::review::diagnose::Subject::Table("readings_by_station_ts".into())
    );
    assert_eq!(
        d.fix(),
        "Add a day bucket of ts to the partition key (the period Q2 searches by, which keeps the worst case under the thresholds)."
    );
    assert_eq!(d.refinement.as_deref(), Some(&bucket("Q1", Period::Day)));
    // Without the per-day query, the coarsest that fits, as before.
    let alone = analyze(&project(Q1_RANGE));
    let d = alone
        .diagnostics
        .iter()
        .find(|d| d.rule == "partition-too-large")
        .expect("the range table is too large");
    assert!(
        d.fix().starts_with("Add a month bucket of ts"),
        "{}",
        d.fix()
    );
}

/// The bucket menu of the range query's table starts with the period a
/// query names: the day, proposed and preselected; a year, which does not
/// fit, still comes first but the proposal stays on the month.
#[test]
fn the_bucket_menu_starts_with_the_period_a_query_names() {
    use cqlmodel::edit::refine::menu::{menu, Kind};
    let p = project(&format!("{Q1_RANGE}{PER_DAY}"));
    let a = analyze(&p);
    let (_, t) = table_of(&a, "Q1");
    let m = menu(&p, &a.model, t, Some(Kind::Bucket)).expect("a bucket menu");
    assert_eq!(m.entries[0], bucket("Q1", Period::Day));
    assert_eq!(m.cursor, 0);
    assert_eq!(
        m.labels[0],
        "Bucket the partitions by day of ts (new column day) (proposed; Q2 searches by day)"
    );
    assert_eq!(m.entries.len(), Period::ALL.len());

    let per_year = PER_DAY.replace("Day", "Year").replace("Q2", "Q5");
    let p = project(&format!("{Q1_RANGE}{per_year}"));
    let a = analyze(&p);
    let (_, t) = table_of(&a, "Q1");
    let m = menu(&p, &a.model, t, Some(Kind::Bucket)).expect("a bucket menu");
    let periods: Vec<Period> = m
        .entries
        .iter()
        .map(|r| match r {
            Refinement::AddBucket { period, .. } => *period,
            other => panic!("not a bucket: {other:?}"),
        })
        .collect();
    assert_eq!(
        periods,
        [
            Period::Year,
            Period::Month,
            Period::Hour,
            Period::Day,
            Period::Week
        ]
    );
    assert_eq!(m.cursor, 1);
    assert!(
        m.labels[0].ends_with("(Q5 searches by year)"),
        "{}",
        m.labels[0]
    );
    assert!(m.labels[1].ends_with("(proposed)"), "{}", m.labels[1]);
}

/// The preview's partitions one read touches: the per-day query served by
/// the range query's table reads one partition before a bucket and one
/// after a day or month bucket (a day lies in one month), 24 after an hour
/// bucket; the range query's one-day slice touches two day buckets when
/// unaligned. On its own table, 4 shards make it read 4.
#[test]
fn the_preview_says_a_one_day_read_touches_one_partition() {
    let served = format!(
        "{Q1_RANGE}{PER_DAY}],\n  decisions: [Decision(query: \"Q2\", served_by: Some(\"Q1\"))"
    );
    let p = project(&served);
    let a = analyze(&p);
    let (_, t) = table_of(&a, "Q2");
    assert_eq!(t.name, "readings_by_station_ts");
    assert!(
        a.model.plans[1].select.contains("ts >= ? AND ts <= ?"),
        "{}",
        a.model.plans[1].select
    );

    let day = preview_reads(&p, &bucket("Q1", Period::Day));
    let q2: Vec<_> = day.iter().filter(|r| r.0 == "Q2").collect();
    assert_eq!(q2.len(), 1, "{day:?}");
    assert_eq!(q2[0].1, "a read of one day");
    close("Q2 before", q2[0].2, 1.0);
    close("Q2 after a day bucket", q2[0].3, 1.0);
    let q1_day = day
        .iter()
        .find(|r| r.0 == "Q1" && r.1 == "a range of one day")
        .expect("Q1's one-day range");
    close("Q1 one-day range over days", q1_day.3, 2.0);
    let month = preview_reads(&p, &bucket("Q1", Period::Month));
    let q2 = month.iter().find(|r| r.0 == "Q2").expect("Q2's reads");
    close("Q2 after a month bucket", q2.3, 1.0);
    let hour = preview_reads(&p, &bucket("Q1", Period::Hour));
    let q2 = hour.iter().find(|r| r.0 == "Q2").expect("Q2's reads");
    close("Q2 after an hour bucket", q2.3, 24.0);

    let own = project(PER_DAY);
    let shard = preview_reads(
        &own,
        &Refinement::AddShard {
            query: "Q2".into(),
            column: "shard".into(),
            count: 4,
        },
    );
    assert_eq!(
        shard,
        [("Q2".to_string(), "a read of one day".to_string(), 1.0, 4.0)]
    );
}

/// Changing the rows of the per-day query to stations drops its calendar
/// part (`ts` is no attribute a station reaches), says so beforehand, and
/// the project stays valid; renaming `ts` renames the part.
#[test]
fn new_rows_drop_the_part_and_renames_follow_it() {
    use cqlmodel::edit::{apply, rows, Edit, Item};
    let p = project(PER_DAY);
    let gone = rows::dropped(&p, 0, "Station");
    assert!(
        gone.iter()
            .any(|d| d.part == "calendar" && d.reference == "ts"),
        "{gone:?}"
    );
    let mut moved = p.clone();
    apply(&mut moved, &Edit::SetRows(0, "Station".into())).expect("rows change");
    assert!(moved.queries[0].calendar.is_empty());
    assert!(cqlmodel::model::load::validate(&moved).is_empty());

    let mut renamed = p.clone();
    apply(
        &mut renamed,
        &Edit::Rename(Item::Attribute(1, 0), "at".into()),
    )
    .expect("rename");
    assert_eq!(renamed.queries[0].calendar[0].attr, "at");
    let a = analyze(&renamed);
    let (_, t) = table_of(&a, "Q2");
    assert_eq!(layout(t), ["K station_id", "K day", "C↑ at", "temperature"]);
}

/// A hand-written candidate key that leaves the day out keeps it in the
/// partition key after its own columns, as it keeps a designer's bucket:
/// the query still binds it.
#[test]
fn a_candidate_key_keeps_the_calendar_bucket() {
    let p = project(&format!(
        "{PER_DAY}],\n  decisions: [Decision(query: \"Q2\", candidates: [Candidate(name: \"by_station\", \
         partition: [\"station_id\"], clustering: [Order(attr: \"ts\", dir: Desc)])], use_candidate: Some(\"by_station\"))"
    ));
    let a = analyze(&p);
    assert!(a.model.problems.is_empty(), "{:?}", a.model.problems);
    let (_, t) = table_of(&a, "Q2");
    assert_eq!(layout(t), ["K station_id", "K day", "C↓ ts", "temperature"]);
    assert!(
        a.model.plans[0]
            .select
            .contains("WHERE station_id = ? AND day = ?"),
        "{}",
        a.model.plans[0].select
    );
}

/// On the per-day table itself the day is the query's, not a designer's
/// bucket: the menu offers the other periods to add beside it (none
/// "replaces" it, the day is not offered again), and the preview of an
/// hour bucket says a one-day read then touches 24 partitions.
#[test]
fn the_per_day_tables_menu_adds_periods_beside_its_day() {
    use cqlmodel::edit::refine::menu::{menu, Kind};
    let p = project(PER_DAY);
    let a = analyze(&p);
    let (_, t) = table_of(&a, "Q2");
    let m = menu(&p, &a.model, t, Some(Kind::Bucket)).expect("a bucket menu");
    let periods: Vec<Period> = m
        .entries
        .iter()
        .map(|r| match r {
            Refinement::AddBucket { period, .. } => *period,
            other => panic!("not a bucket: {other:?}"),
        })
        .collect();
    assert_eq!(
        periods,
        [Period::Hour, Period::Week, Period::Month, Period::Year]
    );
    for l in &m.labels {
        assert!(!l.contains("replaces") && !l.contains("(proposed"), "{l}");
    }
    let hour = preview_reads(&p, &bucket("Q2", Period::Hour));
    assert_eq!(
        hour,
        [("Q2".to_string(), "a read of one day".to_string(), 1.0, 24.0)]
    );
}

/// A timeuuid's month: a `month` date bucket (the first day of the month
/// of the time it encodes), 24 of them over 730 days (730 / 30.4375 =
/// 23.98, so Nr = 1,440 · 30.4375 = 43,830 readings).
#[test]
fn a_timeuuid_has_calendar_parts_too() {
    let text = WEATHER
        .replace(r#"Attribute(name: "ts", type: "timestamp")"#, r#"Attribute(name: "ts", type: "timeuuid")"#)
        .replace(
            "QUERIES",
            r#"Query(id: "Q6", text: "A station's readings of one month", rows: "Reading",
              equality: ["Station.station_id"], calendar: [(period: Month, attr: "ts")], returns: ["temperature"])"#,
        );
    let p = from_str(&text).unwrap_or_else(|e| panic!("loads: {e}"));
    let a = analyze(&p);
    assert!(a.model.problems.is_empty(), "{:?}", a.model.problems);
    let (i, t) = table_of(&a, "Q6");
    assert_eq!(
        layout(t),
        ["K station_id", "K month", "C↑ ts", "temperature"]
    );
    assert_eq!(
        t.column("month").map(|c| c.ty.to_string()).as_deref(),
        Some("date")
    );
    close(
        "partitions",
        a.estimates[i].partitions,
        100.0 * 730.0 / 30.4375,
    );
    close("Nr", a.estimates[i].rows_per_partition, 1440.0 * 30.4375);
    assert!(a.model.plans[0]
        .select
        .ends_with("WHERE station_id = ? AND month = ?;"));
}
