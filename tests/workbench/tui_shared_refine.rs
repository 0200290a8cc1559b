//! Issue 41 item 2: refining a table that serves several queries says so
//! in the preview, and names before Enter each query the refinement moves
//! off the table, with why.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::tui::app::Focus;
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{dirs, enter, key, press, screen, typed};
use cqlmodel::tui::{start, Launch};
use crossterm::event::KeyCode;

#[test]
fn a_shared_tables_preview_names_its_queries_and_who_leaves() {
    let tmp = tempfile::tempdir().expect("tempdir");
    // The weather sample without its decisions: Q1 (a time range) and Q3
    // (the latest readings) share one table keyed by station.
    let mut p = crate::support::sample("weather.cqlm.ron");
    p.decisions.clear();
    let file = tmp.path().join("w.cqlm.ron");
    std::fs::write(&file, cqlmodel::model::load::to_string(&p)).expect("write");
    let mut app = start(Launch::Open(file), dirs(tmp.path())).expect("start");
    let shared = app
        .analysis
        .model
        .tables
        .iter()
        .position(|t| t.queries.len() == 2)
        .expect("a shared table");
    let t = &app.analysis.model.tables[shared];
    let served: Vec<String> = t.queries.iter().map(ToString::to_string).collect();
    assert_eq!(served, ["Q1", "Q3"]);
    let name = t.name.to_string();
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Tables);
    app.reselect(cqlmodel::edit::Item::Table(shared));
    press(&mut app, 'b');
    typed(&mut app, "week");
    enter(&mut app);
    let Some(Popup::Preview(pv)) = app.popups.last() else {
        panic!("no preview: {}", screen(&app, 160, 50));
    };
    assert_eq!(pv.preview.serves, ["Q1", "Q3"]);
    assert_eq!(pv.preview.leaving.len(), 1);
    assert_eq!(pv.preview.leaving[0].query, "Q3");
    let moves_to = pv.preview.leaving[0].to.clone();
    let shown = screen(&app, 160, 50);
    assert!(
        shown.contains(&format!("table {name} — serves Q1, Q3")),
        "{shown}"
    );
    assert!(shown.contains("Leaves this table"), "{shown}");
    assert!(
        shown.contains("Q3 does not search by the new partition key (station_id, week)"),
        "{shown}"
    );
    // Enter applies what the preview said: Q3 is on a table of its own.
    enter(&mut app);
    let tables = &app.analysis.model.tables;
    let of = |q: &str| {
        tables
            .iter()
            .find(|t| t.queries.iter().any(|x| x == q))
            .map(|t| t.name.to_string())
    };
    assert_ne!(of("Q1"), of("Q3"));
    assert_eq!(of("Q3"), Some(moves_to), "the preview named Q3's new table");
}
