//! Everyday edits by picking instead of the RON popup: an attribute's type
//! (collections in a second pick), an entity's key, a query's LIMIT, a
//! transition's feeds and a new relationship. Key sequences on `TestBackend`
//! through the real event entry point, and snapshots at 120×40 and 80×24.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::edit::Item;
use cqlmodel::model::Cardinality;
use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::popup::{Picker, Popup};
use cqlmodel::tui::testing::{ctrl, hotel, key, press, render, screen, typed};
use crossterm::event::KeyCode;

fn picker(app: &App) -> &Picker {
    match app.popups.last() {
        Some(Popup::Picker(p)) => p,
        _ => panic!("a picker is open"),
    }
}

fn at(app: &mut App, focus: Focus, item: Item) {
    app.set_focus(focus);
    app.reselect(item);
    app.refresh_links();
}

/// Guest's attributes: 0 `guest_id`, 1 `first_name`, 2 `last_name`.
const GUEST: usize = 6;

#[test]
fn a_type_is_picked_and_a_map_gets_its_key_then_its_value() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    at(&mut app, Focus::Concept, Item::Attribute(0, 2));
    assert_eq!(app.project.entities[0].attributes[2].name, "phone");
    press(&mut app, 'y');
    let p = picker(&app);
    assert_eq!(
        p.items[p.cursor], "text",
        "the cursor starts on the current type"
    );
    assert!(
        p.items.contains(&"frozen<address>".to_string()),
        "the project's UDT"
    );
    typed(&mut app, "map");
    key(&mut app, KeyCode::Enter);
    assert!(
        picker(&app).title.contains("map<…, …>"),
        "{}",
        picker(&app).title
    );
    typed(&mut app, "bigint");
    key(&mut app, KeyCode::Enter);
    typed(&mut app, "frozen");
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    assert_eq!(
        app.project.entities[0].attributes[2].ty.to_string(),
        "map<bigint, frozen<address>>"
    );
    // One pick sequence is one undo step.
    press(&mut app, 'u');
    assert_eq!(app.project.entities[0].attributes[2].ty.to_string(), "text");
    // A plain type in one pick.
    press(&mut app, 'y');
    typed(&mut app, "varint");
    key(&mut app, KeyCode::Enter);
    assert_eq!(
        app.project.entities[0].attributes[2].ty.to_string(),
        "varint"
    );
}

#[test]
fn y_on_something_else_than_an_attribute_says_so() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    at(&mut app, Focus::Concept, Item::Entity(0));
    press(&mut app, 'y');
    assert!(app.popups.is_empty());
    let status = app.status.as_ref().expect("a message").text.clone();
    assert!(status.contains("select an attribute"), "{status}");
}

#[test]
fn a_composite_key_is_picked_in_order() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    at(&mut app, Focus::Concept, Item::Entity(GUEST));
    press(&mut app, 'i');
    assert_eq!(picker(&app).picked, vec![0], "the current key is picked");
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    press(&mut app, ' ');
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.project.entities[GUEST].key, ["guest_id", "last_name"]);
    // Unpicking everything is refused: an entity needs a key.
    press(&mut app, 'i');
    press(&mut app, ' ');
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Down);
    press(&mut app, ' ');
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.project.entities[GUEST].key, ["guest_id", "last_name"]);
    // The list stays open with why, to pick again.
    let why = picker(&app).error.clone().expect("why it was refused");
    assert!(why.contains("at least one key attribute"), "{why}");
    assert!(screen(&app, 120, 40).contains("✗ "));
    press(&mut app, ' ');
    assert!(picker(&app).error.is_none(), "a key clears the reason");
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    assert_eq!(app.project.entities[GUEST].key, ["last_name"]);
}

fn q1(app: &mut App) -> usize {
    let q = app
        .project
        .queries
        .iter()
        .position(|q| q.id == "Q1")
        .expect("Q1");
    at(app, Focus::Workflow, Item::Query(q));
    q
}

#[test]
fn the_limit_is_a_number_kept_open_until_valid_and_empty_removes_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    let q = q1(&mut app);
    assert_eq!(app.project.queries[q].limit, None);
    press(&mut app, 'L');
    typed(&mut app, "ten");
    key(&mut app, KeyCode::Enter);
    match app.popups.last() {
        Some(Popup::Input(i)) => {
            assert_eq!(i.text(), "ten", "the text is kept");
            assert!(i
                .error
                .as_deref()
                .is_some_and(|e| e.contains("whole number")));
        }
        _ => panic!("the LIMIT field stays open"),
    }
    for _ in 0..3 {
        key(&mut app, KeyCode::Backspace);
    }
    typed(&mut app, "25");
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    assert_eq!(app.project.queries[q].limit, Some(25));
    press(&mut app, 'L');
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.project.queries[q].limit, None);
    ctrl(&mut app, 'z');
    assert_eq!(app.project.queries[q].limit, Some(25));
    // The query menu (Enter) offers it too, with the current value.
    key(&mut app, KeyCode::Enter);
    typed(&mut app, "LIMIT");
    key(&mut app, KeyCode::Enter);
    match app.popups.last() {
        Some(Popup::Input(i)) => assert_eq!(i.text(), "25"),
        _ => panic!("the query menu opens the LIMIT field"),
    }
}

#[test]
fn a_transitions_feeds_are_picked_from_what_its_source_returns() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    at(&mut app, Focus::Workflow, Item::Transition(0));
    let t = app.project.workflow.transitions[0].clone();
    let returns = app.project.query(&t.from).expect("source").returns.clone();
    press(&mut app, 'F');
    let p = picker(&app);
    for r in &returns {
        assert!(p.items.contains(r), "{r} offered");
    }
    let mut want: Vec<String> = p.picked.iter().map(|&i| p.items[i].clone()).collect();
    assert_eq!(want, t.feeds, "the current feeds are picked");
    let first = p.items[0].clone();
    match want.iter().position(|f| *f == first) {
        Some(i) => {
            want.remove(i);
        }
        None => want.push(first),
    }
    press(&mut app, ' ');
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.project.workflow.transitions[0].feeds, want);
    // On a query row there is no transition to feed.
    q1(&mut app);
    press(&mut app, 'F');
    assert!(app.popups.is_empty());
}

#[test]
fn a_new_relationship_is_picked_end_by_end_then_named() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    let before = app.project.relationships.len();
    at(&mut app, Focus::Concept, Item::Relationship(0));
    press(&mut app, 'a');
    typed(&mut app, "Guest");
    key(&mut app, KeyCode::Enter);
    typed(&mut app, "Amenity");
    key(&mut app, KeyCode::Enter);
    assert!(picker(&app).items[0].starts_with("1:n"));
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    typed(&mut app, "likes");
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    assert_eq!(app.project.relationships.len(), before + 1);
    let r = app.project.relationships.last().expect("added");
    assert_eq!(
        (r.name.as_str(), r.from.as_str(), r.to.as_str()),
        ("likes", "Guest", "Amenity")
    );
    assert_eq!(r.cardinality, Cardinality::OneToOne);
    // A taken name keeps the name field open with why.
    at(&mut app, Focus::Concept, Item::Relationship(0));
    press(&mut app, 'a');
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    typed(&mut app, "likes");
    key(&mut app, KeyCode::Enter);
    match app.popups.last() {
        Some(Popup::Input(i)) => assert!(i.error.is_some(), "why it was refused"),
        _ => panic!("the name field stays open"),
    }
}

fn snapshots(w: u16, h: u16) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    at(&mut app, Focus::Concept, Item::Attribute(GUEST, 3));
    press(&mut app, 'y');
    insta::assert_snapshot!(format!("type_picker_{w}x{h}"), render(&app, w, h));
    typed(&mut app, "set");
    key(&mut app, KeyCode::Enter);
    insta::assert_snapshot!(format!("type_element_picker_{w}x{h}"), render(&app, w, h));
    key(&mut app, KeyCode::Esc);
    at(&mut app, Focus::Concept, Item::Entity(GUEST));
    press(&mut app, 'i');
    insta::assert_snapshot!(format!("key_picker_{w}x{h}"), render(&app, w, h));
    key(&mut app, KeyCode::Esc);
    q1(&mut app);
    press(&mut app, 'L');
    typed(&mut app, "0");
    key(&mut app, KeyCode::Enter);
    insta::assert_snapshot!(format!("limit_refused_{w}x{h}"), render(&app, w, h));
    key(&mut app, KeyCode::Esc);
    at(&mut app, Focus::Workflow, Item::Transition(0));
    press(&mut app, 'F');
    insta::assert_snapshot!(format!("feeds_picker_{w}x{h}"), render(&app, w, h));
    key(&mut app, KeyCode::Esc);
    at(&mut app, Focus::Concept, Item::Relationship(0));
    press(&mut app, 'a');
    typed(&mut app, "Guest");
    key(&mut app, KeyCode::Enter);
    typed(&mut app, "Hotel");
    key(&mut app, KeyCode::Enter);
    insta::assert_snapshot!(
        format!("relationship_cardinality_{w}x{h}"),
        render(&app, w, h)
    );
}

#[test]
fn pickers_120x40() {
    snapshots(120, 40);
}

#[test]
fn pickers_80x24() {
    snapshots(80, 24);
}

#[test]
fn typing_a_whole_name_puts_the_cursor_on_it_not_on_a_longer_one() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    app.project.entities[1].name = "HotelChain".into();
    app.project.entities.swap(0, 1);
    at(&mut app, Focus::Concept, Item::Relationship(0));
    press(&mut app, 'a');
    typed(&mut app, "Hotel");
    let p = picker(&app);
    let vis = p.visible();
    assert!(vis.len() >= 2, "both names still show");
    assert_eq!(p.items[vis[p.cursor]], "Hotel");
    // Narrowing further, the first item left is chosen again.
    typed(&mut app, "C");
    let p = picker(&app);
    assert_eq!(p.items[p.visible()[p.cursor]], "HotelChain");
}
