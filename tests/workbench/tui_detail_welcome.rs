//! The diagnostics pane wraps, Enter opens a diagnostic's detail view (and
//! `o` / Enter there goes to its subject), and `cqlmodel` without a file
//! opens on a welcome screen: key sequences on `TestBackend` and snapshots at
//! 120×40 and 80×24.

use crate::support;

use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{dirs, render, screen};
use cqlmodel::tui::{start, Launch};
use crossterm::event::KeyCode;
use support::key;

/// The hotel sample with the diagnostics in the focused bottom pane.
fn diagnostics_app(tmp: &std::path::Path) -> App {
    let mut app = start(Launch::Sample, dirs(tmp)).expect("start");
    key(&mut app, KeyCode::Char('1'));
    app.set_focus(Focus::Bottom);
    assert!(
        !app.analysis.diagnostics.is_empty(),
        "the sample has diagnostics"
    );
    app
}

fn words(s: &str) -> Vec<String> {
    s.split_whitespace().map(str::to_string).collect()
}

#[test]
fn diagnostics_wrap_instead_of_being_cut_at_80x24() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let app = diagnostics_app(tmp.path());
    let text = screen(&app, 80, 24);
    let d = &app.analysis.diagnostics[0];
    let message = cqlmodel::model::naming::for_terminal(d.message()).into_owned();
    assert!(
        message.chars().count() > 60,
        "the first diagnostic is short enough to fit anyway: {message}"
    );
    // Every word of the whole message is on screen, in order.
    let shown = words(&text).join(" ");
    let want = words(&message).join(" ");
    let pane: String = text
        .lines()
        .map(|l| l.trim_matches(|c: char| c == '│' || c == ' '))
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        words(&pane).join(" ").contains(&want),
        "the message is not shown whole:\n{text}\nwant: {want}\nshown: {shown}"
    );
}

#[test]
fn enter_opens_the_detail_view_and_esc_closes_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = diagnostics_app(tmp.path());
    key(&mut app, KeyCode::Enter);
    assert!(matches!(app.popups.last(), Some(Popup::Diagnostic(_))));
    let d = app.analysis.diagnostics[0].clone();
    let text = screen(&app, 120, 40);
    for part in ["What goes wrong", "Fix", "Source", d.rule] {
        assert!(text.contains(part), "{part} missing:\n{text}");
    }
    let pane = words(&text).join(" ");
    let source = words(d.source).join(" ");
    assert!(pane.contains(&source), "the source is missing:\n{text}");
    key(&mut app, KeyCode::Esc);
    assert!(app.popups.is_empty());
    assert_eq!(app.focus, Focus::Bottom, "closing does not move");
}

#[test]
fn the_detail_view_goes_to_the_subject() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = diagnostics_app(tmp.path());
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Enter);
    assert!(
        app.popups.is_empty(),
        "Enter in the detail view goes to the subject"
    );
    assert_ne!(app.focus, Focus::Bottom, "the subject's pane has the focus");
    let jumped = (app.focus, app.selected_item());

    // `o` in the pane goes there directly, without the detail view.
    let mut direct = diagnostics_app(tmp.path());
    key(&mut direct, KeyCode::Char('o'));
    assert!(direct.popups.is_empty());
    assert_eq!((direct.focus, direct.selected_item()), jumped);
}

#[test]
fn the_detail_view_scrolls_on_a_small_screen() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = diagnostics_app(tmp.path());
    key(&mut app, KeyCode::Enter);
    let top = screen(&app, 80, 12);
    key(&mut app, KeyCode::End);
    let end = screen(&app, 80, 12);
    assert_ne!(top, end, "End scrolls the detail view");
    assert!(end.contains("Source"), "{end}");
    key(&mut app, KeyCode::Home);
    assert_eq!(screen(&app, 80, 12), top);
}

fn detail_snapshots(w: u16, h: u16) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = diagnostics_app(tmp.path());
    insta::assert_snapshot!(format!("diagnostics_focused_{w}x{h}"), render(&app, w, h));
    key(&mut app, KeyCode::Enter);
    insta::assert_snapshot!(format!("diagnostic_detail_{w}x{h}"), render(&app, w, h));
}

#[test]
fn detail_view_120x40() {
    detail_snapshots(120, 40);
}

#[test]
fn detail_view_80x24() {
    detail_snapshots(80, 24);
}

#[test]
fn welcome_opens_a_bundled_sample() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Welcome, dirs(tmp.path())).expect("start");
    assert!(matches!(app.popups.last(), Some(Popup::Welcome(_))));
    assert!(app.project.entities.is_empty(), "nothing is loaded yet");
    // No recent files: the hotel sample is first, the logs sample second.
    key(&mut app, KeyCode::Down);
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    let logs = cqlmodel::model::load::from_str(cqlmodel::samples::SAMPLES[1].text).expect("loads");
    assert_eq!(app.project, logs);
    assert_eq!(app.path, None, "a sample opens as an unsaved copy");
}

#[test]
fn welcome_starts_a_new_project_on_esc_and_on_its_last_choice() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Welcome, dirs(tmp.path())).expect("start");
    key(&mut app, KeyCode::Esc);
    assert!(app.popups.is_empty());
    assert!(app.project.entities.is_empty());
    assert!(!app.dirty);

    let mut app = start(Launch::Welcome, dirs(tmp.path())).expect("start");
    key(&mut app, KeyCode::End);
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    assert!(app.project.entities.is_empty());
}

#[test]
fn welcome_offers_recent_files_first() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let d = dirs(tmp.path());
    let file = tmp.path().join("mine.cqlm.ron");
    std::fs::write(&file, cqlmodel::tui::SAMPLE).expect("write");
    d.remember(&file);
    let mut app = start(Launch::Welcome, d).expect("start");
    assert!(screen(&app, 120, 40).contains("mine.cqlm.ron"));
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    assert_eq!(app.path.as_deref(), Some(file.as_path()));
    assert!(!app.project.entities.is_empty());
}

#[test]
fn welcome_quits_on_q() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Welcome, dirs(tmp.path())).expect("start");
    key(&mut app, KeyCode::Char('q'));
    assert!(app.quit);
}

fn welcome_snapshot(w: u16, h: u16) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let app = start(Launch::Welcome, dirs(tmp.path())).expect("start");
    insta::assert_snapshot!(format!("welcome_{w}x{h}"), render(&app, w, h));
}

#[test]
fn welcome_120x40() {
    welcome_snapshot(120, 40);
}

#[test]
fn welcome_80x24() {
    welcome_snapshot(80, 24);
}
