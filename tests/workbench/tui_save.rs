//! Saving from the workbench keeps the file as people wrote it, and `:wq`
//! with unsaved changes saves, then quits.

use cqlmodel::model::load;
use cqlmodel::tui::action::{update, Action, Edit};
use cqlmodel::tui::testing::{dirs, key};
use cqlmodel::tui::{perform, start, Launch};
use crossterm::event::KeyCode;

const LOGS: &str = include_str!("../../sample-projects/logs.cqlm.ron");

fn command(app: &mut cqlmodel::tui::app::App, line: &str) {
    key(app, KeyCode::Char(':'));
    for c in line.chars() {
        key(app, KeyCode::Char(c));
    }
    key(app, KeyCode::Enter);
}

fn edit(app: &mut cqlmodel::tui::app::App, e: Edit) {
    for eff in update(app, Action::Edit(e)) {
        perform(app, eff);
    }
}

#[test]
fn open_and_save_is_byte_identical_and_a_toggle_changes_one_line() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("logs.cqlm.ron");
    std::fs::write(&file, LOGS).expect("write");
    let mut app = start(Launch::Open(file.clone()), dirs(tmp.path())).expect("start");
    command(&mut app, "w");
    assert_eq!(std::fs::read_to_string(&file).expect("read"), LOGS);
    // Toggled off and on again, Q1 goes to the end of the entry list: that
    // line changes, nothing else (the issue's "all 37 comment lines gone").
    edit(&mut app, Edit::ToggleEntry(0));
    edit(&mut app, Edit::ToggleEntry(0));
    command(&mut app, "w");
    let saved = std::fs::read_to_string(&file).expect("read");
    let changed: Vec<(&str, &str)> = LOGS
        .lines()
        .zip(saved.lines())
        .filter(|(a, b)| a != b)
        .collect();
    assert_eq!(
        changed,
        vec![(
            "        entry: [\"Q1\", \"Q2\"],",
            "        entry: [\"Q2\", \"Q1\"],"
        )]
    );
    assert_eq!(LOGS.lines().count(), saved.lines().count());
}

#[test]
fn wq_with_unsaved_changes_saves_then_quits_keeping_comments() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("logs.cqlm.ron");
    std::fs::write(&file, LOGS).expect("write");
    let mut app = start(Launch::Open(file.clone()), dirs(tmp.path())).expect("start");
    edit(&mut app, Edit::ToggleEntry(0));
    assert!(app.dirty);
    command(&mut app, "wq");
    assert!(app.quit, "quit after saving");
    assert!(!app.dirty);
    let saved = std::fs::read_to_string(&file).expect("read");
    assert_eq!(load::from_str(&saved).expect("reads back"), app.project);
    let comments = |t: &str| {
        t.lines()
            .filter(|l| l.trim_start().starts_with("//"))
            .count()
    };
    assert_eq!(comments(&saved), comments(LOGS));
    let changed = LOGS
        .lines()
        .zip(saved.lines())
        .filter(|(a, b)| a != b)
        .count();
    assert!(changed <= 1, "{changed} lines changed");
}

#[test]
fn wq_onto_an_existing_other_file_asks_first_and_quits_only_after_saving() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("logs.cqlm.ron");
    let other = tmp.path().join("other.cqlm.ron");
    std::fs::write(&file, LOGS).expect("write");
    std::fs::write(&other, "keep me").expect("write");
    let mut app = start(Launch::Open(file.clone()), dirs(tmp.path())).expect("start");
    assert!(
        !app.dirty,
        "nothing unsaved: only the question may hold the quit"
    );
    command(&mut app, &format!("wq {}", other.display()));
    assert!(!app.quit, "quit before the overwrite was confirmed");
    assert!(matches!(
        app.popups.last(),
        Some(cqlmodel::tui::popup::Popup::Confirm(_))
    ));
    assert_eq!(std::fs::read_to_string(&other).expect("read"), "keep me");
    // No: nothing is written and the workbench stays.
    key(&mut app, KeyCode::Char('n'));
    assert!(!app.quit);
    assert!(app.popups.is_empty());
    assert_eq!(std::fs::read_to_string(&other).expect("read"), "keep me");
    // Yes: the file is written, then the workbench quits.
    command(&mut app, &format!("wq {}", other.display()));
    assert!(!app.quit);
    key(&mut app, KeyCode::Char('y'));
    assert!(app.quit, "quit once the save went through");
    let saved = std::fs::read_to_string(&other).expect("read");
    assert_eq!(load::from_str(&saved).expect("reads back"), app.project);
}

#[test]
fn wq_on_a_file_changed_on_disk_stays_until_the_overwrite_is_confirmed() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("logs.cqlm.ron");
    std::fs::write(&file, LOGS).expect("write");
    let mut app = start(Launch::Open(file.clone()), dirs(tmp.path())).expect("start");
    let theirs = LOGS.replace("Log messages", "Their log messages");
    std::fs::write(&file, &theirs).expect("someone else writes");
    command(&mut app, "wq");
    assert!(!app.quit, "quit although the save was refused");
    key(&mut app, KeyCode::Char('n'));
    assert!(!app.quit);
    assert_eq!(std::fs::read_to_string(&file).expect("read"), theirs);
    command(&mut app, "wq");
    key(&mut app, KeyCode::Char('y'));
    assert!(app.quit);
    let saved = std::fs::read_to_string(&file).expect("read");
    assert_eq!(load::from_str(&saved).expect("reads back"), app.project);
    assert_eq!(app.project.name, "Log messages");
}

#[test]
fn wq_without_a_file_name_stays() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Welcome, dirs(tmp.path())).expect("start");
    key(&mut app, KeyCode::Esc);
    assert!(app.path.is_none(), "an empty project without a file");
    command(&mut app, "wq");
    assert!(!app.quit, "quit without saving");
}
