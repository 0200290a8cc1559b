//! Issue 41 items 7 and 8: a new project starts in the Conceptual pane; a
//! popup that opens clears the message from before it; a question sits in
//! the middle of the screen with the status line pointing at it and no
//! pane lit as focused behind it.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{dirs, enter, hotel, press, render, screen, typed};
use cqlmodel::tui::{start, Launch};

fn status_line(app: &App, w: u16, h: u16) -> String {
    screen(app, w, h)
        .lines()
        .nth(usize::from(h) - 2)
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_new_project_starts_in_the_conceptual_pane() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let app = start(Launch::New(tmp.path().join("w.cqlm.ron")), dirs(tmp.path())).expect("start");
    assert_eq!(app.focus, Focus::Concept);
    // The welcome screen's empty project too.
    let app = start(Launch::Welcome, dirs(tmp.path())).expect("start");
    assert_eq!(app.focus, Focus::Concept);
    // A project with entities keeps the workflow first.
    let app = hotel(tmp.path());
    assert_eq!(app.focus, Focus::Workflow);
}

#[test]
fn a_popup_that_opens_clears_the_refusal_before_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app =
        start(Launch::New(tmp.path().join("w.cqlm.ron")), dirs(tmp.path())).expect("start");
    // `+` on the empty pane is refused, with why.
    press(&mut app, '+');
    let refusal = status_line(&app, 120, 40);
    assert!(refusal.contains("select an entity"), "{refusal}");
    // `a` opens the name field: the refusal is gone from the bar.
    press(&mut app, 'a');
    assert!(matches!(app.popups.last(), Some(Popup::Input(_))));
    let now = status_line(&app, 120, 40);
    assert!(!now.contains("select an entity"), "{now}");
    typed(&mut app, "Station");
    enter(&mut app);
    // A message set as the popup opens stays (the edit's own).
    assert!(status_line(&app, 120, 40).contains("Station"));
}

#[test]
fn a_question_is_centred_and_the_status_line_points_at_it() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    let out = tmp.path().join("schema.cql");
    std::fs::write(&out, "old").expect("write");
    app.info("an older message");
    press(&mut app, ':');
    typed(&mut app, &format!("export cql {}", out.display()));
    enter(&mut app);
    let Some(Popup::Confirm(q)) = app.popups.last() else {
        panic!("no overwrite question");
    };
    assert_eq!(q.title, "File exists");
    let (w, h) = (120u16, 40u16);
    let shown = screen(&app, w, h);
    let bar = status_line(&app, w, h);
    assert!(bar.contains("▲ File exists — y yes · n no"), "{bar}");
    assert!(!shown.contains("an older message"), "{shown}");
    // The question's box is centred: its title row is in the middle third
    // and its left edge as far from the left as its right edge from the right.
    let (row, line) = shown
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(" File exists "))
        .expect("the question's title");
    assert!(
        (h as usize / 3..2 * h as usize / 3).contains(&row),
        "row {row}"
    );
    let chars: Vec<char> = line.chars().collect();
    let left = chars.iter().position(|&c| c == '┌').expect("left edge");
    let right = chars.iter().rposition(|&c| c == '┐').expect("right edge");
    assert!(left.abs_diff(usize::from(w) - 1 - right) <= 1, "{line}");
    // No pane border is drawn in the focus colour behind it.
    let buf = render(&app, w, h);
    let focus = app.settings.theme.focus_border;
    let lit = (0..w).any(|x| {
        let cell = &buf.buffer()[(x, 0)];
        cell.symbol() == "─" && cell.fg == focus
    });
    assert!(!lit, "a pane still looks focused behind the question");
    // `n` keeps the file; the question is gone.
    press(&mut app, 'n');
    assert!(app.popups.is_empty());
    assert_eq!(std::fs::read_to_string(&out).expect("read"), "old");
}
