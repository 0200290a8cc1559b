//! The figures dialog (`#`), the estimate line's assumed figures and the
//! jump from an assumption to the item to state it on, driven by keys on
//! ratatui's `TestBackend`.
// Tests: the figures are exact by construction.
#![allow(clippy::float_cmp)]

use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{dirs, key, screen, typed};
use cqlmodel::tui::{start, Launch};
use crossterm::event::KeyCode;
use std::path::Path;

/// A new project with one entity and one query, built with keys.
fn small_model(root: &Path) -> App {
    let file = root.join("m.cqlm.ron");
    let mut app = start(Launch::New(file), dirs(root)).expect("start");
    // A new project starts in the Conceptual pane.
    assert_eq!(app.focus, Focus::Concept);
    key(&mut app, KeyCode::Char('a'));
    typed(&mut app, "Hotel");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('+'));
    typed(&mut app, "city text");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Char('a'));
    typed(&mut app, "Find hotels in a city");
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Char('='));
    typed(&mut app, "city");
    key(&mut app, KeyCode::Char(' '));
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.analysis.model.tables.len(), 1);
    app
}

fn open_entity_figures(app: &mut App) {
    key(app, KeyCode::BackTab);
    assert_eq!(app.focus, Focus::Concept);
    key(app, KeyCode::Char('g'));
    key(app, KeyCode::Char('j'));
    assert_eq!(
        app.selected_item(),
        Some(cqlmodel::edit::Item::Entity(0)),
        "the entity row"
    );
    key(app, KeyCode::Char('#'));
    assert!(matches!(app.popups.last(), Some(Popup::Form(_))));
}

#[test]
fn entering_a_count_changes_the_estimate_and_drops_its_assumed_marker() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = small_model(tmp.path());
    let before = app.analysis.estimates[0].clone();
    assert!(before
        .defaults
        .iter()
        .any(|d| d.starts_with("Hotel: no count")));
    let shown = screen(&app, 120, 40);
    assert!(shown.contains("assumed"), "{shown}");
    let assumed_before = before.defaults.len();

    open_entity_figures(&mut app);
    typed(&mut app, "50000");
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty(), "the dialog closes once valid");
    assert_eq!(app.project.entities[0].count, Some(50000.0));
    let after = &app.analysis.estimates[0];
    assert_eq!(after.defaults.len(), assumed_before - 1);
    assert!(!after.defaults.iter().any(|d| d.starts_with("Hotel:")));
    assert_ne!(after.rows, before.rows);

    // The rest: the city's distinct values and size, through the
    // estimate line's assumption list.
    while !app.analysis.estimates[0].defaults.is_empty() {
        let left = app.analysis.estimates[0].defaults.len();
        key(&mut app, KeyCode::Tab);
        key(&mut app, KeyCode::Tab);
        assert_eq!(app.focus, Focus::Tables);
        key(&mut app, KeyCode::Char('G'));
        key(&mut app, KeyCode::Enter);
        assert!(matches!(app.popups.last(), Some(Popup::Picker(_))));
        key(&mut app, KeyCode::Enter);
        let Some(Popup::Form(f)) = app.popups.last() else {
            panic!("the assumption leads to a figures dialog");
        };
        assert_eq!(app.focus, Focus::Concept);
        let fields = f.fields.len();
        for _ in 0..fields {
            typed(&mut app, "20");
            key(&mut app, KeyCode::Tab);
        }
        key(&mut app, KeyCode::Enter);
        assert!(app.popups.is_empty());
        assert!(app.analysis.estimates[0].defaults.len() < left);
    }
    let shown = screen(&app, 120, 40);
    assert!(!shown.contains("assumed"), "{shown}");
}

#[test]
fn a_refused_figure_keeps_the_dialog_and_the_text() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = small_model(tmp.path());
    open_entity_figures(&mut app);
    typed(&mut app, "lots");
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    typed(&mut app, "30");
    key(&mut app, KeyCode::Enter);
    let Some(Popup::Form(f)) = app.popups.last() else {
        panic!("the dialog stays open");
    };
    assert_eq!(f.fields[0].value, "lots");
    assert_eq!(f.fields[2].value, "30");
    assert_eq!(f.focus, 0, "the cursor goes to the wrong field");
    assert!(f.errors[0]
        .as_deref()
        .unwrap_or("")
        .contains("not a number"));
    let shown = screen(&app, 120, 40);
    assert!(shown.contains("✗ not a number: lots"), "{shown}");
    assert_eq!(app.project.entities[0].count, None);
    // Fixing the field applies.
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Backspace);
    key(&mut app, KeyCode::Backspace);
    typed(&mut app, "10");
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    assert_eq!(app.project.entities[0].count, Some(10.0));
    assert_eq!(app.project.entities[0].retention_days, Some(30.0));
}

#[test]
fn entering_a_rate_changes_the_estimate_line() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = small_model(tmp.path());
    open_entity_figures(&mut app);
    typed(&mut app, "200");
    key(&mut app, KeyCode::Enter);
    let flat = app.analysis.estimates[0].clone();
    let flat_screen = screen(&app, 120, 40);
    assert_eq!(flat.rows, 200.0);
    assert!(flat.rows_per_day.is_none());

    key(&mut app, KeyCode::Tab);
    open_entity_figures(&mut app);
    key(&mut app, KeyCode::Tab);
    typed(&mut app, "dya");
    key(&mut app, KeyCode::Enter);
    let Some(Popup::Form(f)) = app.popups.last() else {
        panic!("a wrong period keeps the dialog open");
    };
    assert!(f.errors[1]
        .as_deref()
        .unwrap_or("")
        .contains("not a period"));
    for _ in 0..3 {
        key(&mut app, KeyCode::Backspace);
    }
    typed(&mut app, "day");
    key(&mut app, KeyCode::Tab);
    typed(&mut app, "30");
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty(), "the dialog closes once valid");
    let e = &app.project.entities[0];
    assert_eq!(
        (e.count, e.per, e.retention_days),
        (Some(200.0), Some(cqlmodel::model::Period::Day), Some(30.0))
    );
    let rated = &app.analysis.estimates[0];
    // 200 hotels a day kept 30 days.
    assert_eq!(rated.rows, 6000.0);
    assert_eq!(rated.rows_per_day, Some(200.0));
    let rated_screen = screen(&app, 120, 40);
    let line = |s: &str| {
        s.lines()
            .find(|l| l.contains("rows/part"))
            .map_or_else(|| panic!("no estimate line:\n{s}"), str::to_string)
    };
    assert_ne!(line(&flat_screen), line(&rated_screen), "{rated_screen}");
    assert!(rated_screen.contains("Hotel ×200/day"), "{rated_screen}");

    // The dialog shows the stated rate when opened again.
    key(&mut app, KeyCode::Tab);
    open_entity_figures(&mut app);
    let Some(Popup::Form(f)) = app.popups.last() else {
        panic!("figures dialog");
    };
    assert_eq!(f.fields[1].value, "day");
}

#[test]
fn figures_dialog_snapshots() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = small_model(tmp.path());
    open_entity_figures(&mut app);
    typed(&mut app, "-5");
    key(&mut app, KeyCode::Enter);
    insta::assert_snapshot!("figures_dialog_120x40", screen(&app, 120, 40));
    insta::assert_snapshot!("figures_dialog_80x24", screen(&app, 80, 24));
}
