//! Issue 41 item 6: every one-line field edits with the keys of shells and
//! readline, and a prefilled name is selected so typing replaces it. Real
//! key events through the workbench's event entry point.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::edit::Item;
use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{ctrl, hotel, key, key_with, press, typed};
use crossterm::event::{KeyCode, KeyModifiers};

fn alt(app: &mut App, c: char) {
    key_with(app, KeyCode::Char(c), KeyModifiers::ALT);
}

fn input_text(app: &App) -> String {
    match app.popups.last() {
        Some(Popup::Input(i)) => i.text(),
        Some(Popup::Command(c)) => c.text(),
        Some(Popup::Form(f)) => f.fields[f.focus].value.clone(),
        Some(Popup::Picker(p)) => p.filter.clone(),
        _ => panic!("no one-line field open"),
    }
}

fn on_hotel_entity(app: &mut App) {
    key(app, KeyCode::BackTab);
    assert_eq!(app.focus, Focus::Concept);
    app.reselect(Item::Entity(0));
    assert_eq!(app.project.entities[0].name, "Hotel");
}

#[test]
fn a_prefilled_name_is_replaced_by_typing() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    on_hotel_entity(&mut app);
    press(&mut app, 'r');
    assert_eq!(input_text(&app), "Hotel");
    typed(&mut app, "Inn");
    assert_eq!(input_text(&app), "Inn", "typing replaced the selected name");
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.project.entities[0].name, "Inn");

    // A movement key keeps the name and puts the cursor there.
    press(&mut app, 'r');
    key(&mut app, KeyCode::End);
    typed(&mut app, "_stay");
    assert_eq!(input_text(&app), "Inn_stay");
    key(&mut app, KeyCode::Esc);
}

#[test]
fn readline_keys_edit_every_one_line_field() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    on_hotel_entity(&mut app);

    // The rename field: Ctrl-W takes a snake-case word whole, Ctrl-U the
    // rest, Ctrl-A / Ctrl-E and Alt-B / Alt-F move.
    press(&mut app, 'r');
    key(&mut app, KeyCode::End);
    typed(&mut app, " grand_hotel_by_day");
    ctrl(&mut app, 'w');
    assert_eq!(input_text(&app), "Hotel ", "Ctrl-W did not stop at _");
    typed(&mut app, "big_one two");
    alt(&mut app, 'b');
    alt(&mut app, 'b');
    typed(&mut app, "x");
    assert_eq!(input_text(&app), "Hotel xbig_one two");
    ctrl(&mut app, 'a');
    typed(&mut app, "The ");
    ctrl(&mut app, 'e');
    typed(&mut app, "!");
    assert_eq!(input_text(&app), "The Hotel xbig_one two!");
    ctrl(&mut app, 'a');
    alt(&mut app, 'f');
    alt(&mut app, 'f');
    ctrl(&mut app, 'u');
    assert_eq!(input_text(&app), " xbig_one two!");
    ctrl(&mut app, 'k');
    assert_eq!(input_text(&app), "");
    key(&mut app, KeyCode::Esc);

    // The pin-name field of a table.
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Tables);
    press(&mut app, 'n');
    let name = input_text(&app);
    assert!(!name.is_empty());
    ctrl(&mut app, 'e');
    typed(&mut app, "_v2");
    ctrl(&mut app, 'w');
    assert_eq!(input_text(&app), "", "the whole snake-case name went");
    key(&mut app, KeyCode::Esc);

    // The command line.
    press(&mut app, ':');
    typed(&mut app, "export cql out/schema_v1.cql");
    ctrl(&mut app, 'w');
    assert_eq!(input_text(&app), "export cql out/schema_v1.");
    ctrl(&mut app, 'u');
    assert_eq!(input_text(&app), "");
    key(&mut app, KeyCode::Esc);

    // A figures dialog's field.
    key(&mut app, KeyCode::BackTab);
    key(&mut app, KeyCode::BackTab);
    app.reselect(Item::Entity(0));
    press(&mut app, '#');
    assert!(matches!(app.popups.last(), Some(Popup::Form(_))));
    ctrl(&mut app, 'u');
    typed(&mut app, "1200");
    ctrl(&mut app, 'a');
    key_with(&mut app, KeyCode::Delete, KeyModifiers::NONE);
    assert_eq!(input_text(&app), "200");
    key(&mut app, KeyCode::Esc);

    // A pick list's filter: Ctrl-W and Ctrl-U narrow it back.
    app.reselect(Item::Attribute(0, 1));
    press(&mut app, 'y');
    assert!(matches!(app.popups.last(), Some(Popup::Picker(_))));
    typed(&mut app, "big int");
    ctrl(&mut app, 'w');
    assert_eq!(input_text(&app), "big ");
    ctrl(&mut app, 'u');
    assert_eq!(input_text(&app), "");
}
