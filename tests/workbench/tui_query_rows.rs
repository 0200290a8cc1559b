//! Issue 41 item 3: changing a query's rows entity keeps every part that
//! still resolves from the new rows and says what it dropped and why.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::edit::Item;
use cqlmodel::tui::app::Focus;
use cqlmodel::tui::testing::{enter, hotel, press, screen, typed};

#[test]
fn new_rows_keep_what_resolves_and_name_what_went() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    assert_eq!(app.focus, Focus::Workflow);
    // Q4: available rooms of a hotel (=) in a date range, rows AvailableRoom
    // (a weak entity of Room, itself of Hotel).
    app.reselect(Item::Query(3));
    let q = &app.project.queries[3];
    assert_eq!((q.id.as_str(), q.rows.as_str()), ("Q4", "AvailableRoom"));
    press(&mut app, 'w');
    typed(&mut app, "Room");
    enter(&mut app);
    let q = &app.project.queries[3];
    assert_eq!(q.rows, "Room", "{}", screen(&app, 200, 40));
    // Room has the hotel's key and its room number; not a date.
    assert_eq!(q.equality, ["hotel_id"], "the equality search was kept");
    assert_eq!(q.range, None);
    assert_eq!(q.returns, ["room_number"]);
    let status = screen(&app, 200, 40);
    let line = status
        .lines()
        .find(|l| l.contains("Q4 rows: Room"))
        .unwrap_or_else(|| panic!("no status line: {status}"));
    assert!(line.contains("dropped range date"), "{line}");
    assert!(line.contains("returns is_available"), "{line}");

    // A change that loses nothing says so; undo brings all back.
    press(&mut app, 'u');
    assert_eq!(app.project.queries[3].rows, "AvailableRoom");
    assert_eq!(app.project.queries[3].returns.len(), 3);
    app.reselect(Item::Query(1));
    press(&mut app, 'w');
    typed(&mut app, "Hotel");
    enter(&mut app);
    // Same rows: nothing changes (Q2 is already Hotel's).
    assert_eq!(app.project.queries[1].equality, ["hotel_id"]);
}
