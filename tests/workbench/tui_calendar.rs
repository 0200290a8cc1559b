//! Issue 41 item 1 in the workbench: the `=` picker of a query offers the
//! calendar parts of each time attribute, and picking "day of ts" gives
//! the query's table its day bucket.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::edit::Item;
use cqlmodel::model::{CalendarPart, Period};
use cqlmodel::tui::app::Focus;
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{dirs, enter, key, press, screen, typed};
use cqlmodel::tui::{start, Launch};
use crossterm::event::KeyCode;

/// 100 stations, a reading a minute each; Q2 reads a station's readings
/// in time order and does not yet say which day.
const WEATHER: &str = r#"Project(format: 1, name: "Weather", keyspace: Keyspace(name: "w", replication: Simple(1)),
  entities: [
    Entity(name: "Station", key: ["station_id"], attributes: [
      Attribute(name: "station_id", type: "text", size: Some(10)),
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
  queries: [
    Query(id: "Q2", text: "A station's readings of one day", rows: "Reading",
      equality: ["Station.station_id"], order: [Order(attr: "ts", dir: Asc)],
      returns: ["ts", "temperature"]),
  ],
)"#;

#[test]
fn the_equality_picker_offers_the_day_of_a_time_and_picking_it_buckets_the_table() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("w.cqlm.ron");
    std::fs::write(&file, WEATHER).expect("write");
    let mut app = start(Launch::Open(file.clone()), dirs(tmp.path())).expect("start");
    app.set_focus(Focus::Workflow);
    app.reselect(Item::Query(0));
    app.refresh_links();
    press(&mut app, '=');
    let Some(Popup::Picker(p)) = app.popups.last() else {
        panic!("no picker: {}", screen(&app, 120, 40));
    };
    // After the timestamp, its five parts; none after the float.
    let at = p.items.iter().position(|i| i == "ts").expect("ts offered");
    assert_eq!(
        p.items[at..=at + 5],
        [
            "ts",
            "hour of ts",
            "day of ts",
            "week of ts",
            "month of ts",
            "year of ts"
        ]
    );
    assert!(!p.items.iter().any(|i| i.ends_with("of temperature")));
    let picked: Vec<&str> = p.picked.iter().map(|&i| p.items[i].as_str()).collect();
    assert_eq!(picked, ["Station.station_id"]);
    assert!(screen(&app, 120, 40).contains("day of ts"));
    typed(&mut app, "day");
    press(&mut app, ' ');
    enter(&mut app);
    assert!(app.popups.is_empty(), "{}", screen(&app, 120, 40));
    let q = &app.project.queries[0];
    assert_eq!(q.equality, ["Station.station_id"]);
    assert_eq!(
        q.calendar,
        [CalendarPart {
            period: Period::Day,
            attr: "ts".into()
        }]
    );
    let t = &app.analysis.model.tables[0];
    let primary_key: Vec<String> = t
        .columns
        .iter()
        .filter(|c| c.role.is_key())
        .map(|c| format!("{} {}", c.role.marker(), c.name))
        .collect();
    assert_eq!(primary_key, ["K station_id", "K day", "C↑ ts"]);
    assert_eq!(
        app.analysis.model.plans[0].select.as_str(),
        "SELECT ts, temperature FROM w.readings_by_station_day WHERE station_id = ? AND day = ? ORDER BY ts ASC;"
    );
    // The query's summary line says it.
    assert!(
        screen(&app, 200, 40).contains("= Station.station_id, day of ts"),
        "{}",
        screen(&app, 200, 40)
    );
    // The project file says it as written.
    let saved = cqlmodel::model::load::to_string(&app.project);
    assert!(saved.contains("calendar: ["), "{saved}");
    // The picker shows the part picked when opened again; one undo step
    // takes it back.
    press(&mut app, '=');
    let Some(Popup::Picker(p)) = app.popups.last() else {
        panic!("no picker");
    };
    let picked: Vec<&str> = p.picked.iter().map(|&i| p.items[i].as_str()).collect();
    assert_eq!(picked, ["Station.station_id", "day of ts"]);
    key(&mut app, KeyCode::Esc);
    assert!(app.popups.is_empty());
    press(&mut app, 'u');
    assert!(app.project.queries[0].calendar.is_empty());
    assert_eq!(app.project.queries[0].equality, ["Station.station_id"]);
}
