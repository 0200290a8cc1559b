//! Issue 41 item 5: the status bar says what `a` adds on the selected row,
//! and `E` adds an entity from any row of the Conceptual pane.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::edit::Item;
use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::testing::{enter, hotel, key, press, screen, typed};
use crossterm::event::KeyCode;

/// The status bar's hint line (the last line drawn).
fn hint_line(app: &App) -> String {
    let s = screen(app, 200, 40);
    s.lines().last().unwrap_or_default().to_string()
}

#[test]
fn the_a_hint_names_what_a_adds_on_this_row() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    key(&mut app, KeyCode::BackTab);
    assert_eq!(app.focus, Focus::Concept);
    app.reselect(Item::Entity(0));
    assert!(
        hint_line(&app).contains(" a add entity "),
        "{}",
        hint_line(&app)
    );
    app.reselect(Item::Attribute(0, 1));
    let line = hint_line(&app);
    assert!(line.contains(" a add attribute "), "{line}");
    assert!(!line.contains("add +"), "{line}");
    app.reselect(Item::Relationship(0));
    assert!(hint_line(&app).contains(" a add relationship "));
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Workflow);
    assert!(hint_line(&app).contains(" a add query "));

    // And `a` on the attribute row does add an attribute.
    key(&mut app, KeyCode::BackTab);
    app.reselect(Item::Attribute(0, 1));
    let attrs = app.project.entities[0].attributes.len();
    press(&mut app, 'a');
    typed(&mut app, "stars int");
    enter(&mut app);
    assert_eq!(app.project.entities[0].attributes.len(), attrs + 1);
}

#[test]
fn capital_e_adds_an_entity_from_any_row() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    key(&mut app, KeyCode::BackTab);
    let entities = app.project.entities.len();
    let attrs = app.project.entities[0].attributes.len();
    for (i, item) in [Item::Attribute(0, 1), Item::Relationship(0)]
        .into_iter()
        .enumerate()
    {
        app.reselect(item);
        press(&mut app, 'E');
        let name = format!("Station{i}");
        typed(&mut app, &name);
        enter(&mut app);
        assert_eq!(app.project.entities.len(), entities + i + 1);
        assert_eq!(
            app.project.entities.last().map(|e| e.name.as_str()),
            Some(name.as_str())
        );
    }
    assert_eq!(
        app.project.entities[0].attributes.len(),
        attrs,
        "no attribute added"
    );
}
