//! Issue 41 item 4: a weak entity's owner (and further identifying
//! owners) are picked from the relationships that can identify it, not
//! typed in the RON editor.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::edit::Item;
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{dirs, enter, key, press, typed};
use cqlmodel::tui::{start, Launch};
use crossterm::event::KeyCode;

#[test]
fn owners_are_picked_from_the_relationships_that_can_identify() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app =
        start(Launch::New(tmp.path().join("w.cqlm.ron")), dirs(tmp.path())).expect("start");
    for name in ["Station", "Sensor", "Reading"] {
        press(&mut app, 'E');
        typed(&mut app, name);
        enter(&mut app);
    }
    // Station 1:n Reading, Sensor 1:n Reading, Reading m:n Station.
    for (from, to, card, name) in [
        ("Station", "Reading", "1:n", "records"),
        ("Sensor", "Reading", "1:n", "measures"),
        ("Reading", "Station", "m:n", "seen_at"),
    ] {
        press(&mut app, 'G');
        press(&mut app, 'a');
        for part in [from, to, card] {
            typed(&mut app, part);
            enter(&mut app);
        }
        typed(&mut app, name);
        enter(&mut app);
    }
    assert_eq!(app.project.relationships.len(), 3);
    app.reselect(Item::Entity(2));
    press(&mut app, 'o');
    let Some(Popup::Picker(p)) = app.popups.last() else {
        panic!("no owners list");
    };
    // The m:n relationship cannot identify a reading.
    assert_eq!(
        p.items,
        ["records: Station → Reading", "measures: Sensor → Reading"]
    );
    // Sensor first (its owner), then Station.
    key(&mut app, KeyCode::Down);
    press(&mut app, ' ');
    key(&mut app, KeyCode::Up);
    press(&mut app, ' ');
    enter(&mut app);
    let r = &app.project.entities[2];
    assert_eq!(r.owner.as_deref(), Some("measures"));
    assert_eq!(r.owners, ["records"]);
    // The tables of a query on readings carry both owners' keys.
    key(&mut app, KeyCode::Tab);
    press(&mut app, 'a');
    typed(&mut app, "Readings of a sensor");
    enter(&mut app);
    typed(&mut app, "Reading");
    enter(&mut app);
    press(&mut app, '=');
    typed(&mut app, "Sensor.sensor_id");
    press(&mut app, ' ');
    enter(&mut app);
    let t = &app.analysis.model.tables[0];
    let cols: Vec<String> = t.columns.iter().map(|c| c.name.to_string()).collect();
    assert!(cols.contains(&"sensor_id".to_string()), "{cols:?}");
    assert!(cols.contains(&"station_id".to_string()), "{cols:?}");

    // Unticking both makes it a strong entity again.
    key(&mut app, KeyCode::BackTab);
    app.reselect(Item::Entity(2));
    press(&mut app, 'o');
    press(&mut app, ' ');
    key(&mut app, KeyCode::Down);
    press(&mut app, ' ');
    enter(&mut app);
    let r = &app.project.entities[2];
    assert_eq!((r.owner.clone(), r.owners.len()), (None, 0));
}
