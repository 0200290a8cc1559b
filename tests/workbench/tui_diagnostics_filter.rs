//! Issue 41 item 10: `/` in the Diagnostics pane narrows the findings by
//! rule, severity and subject; what is typed goes to the filter, not to
//! the pane's commands.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::edit::Item;
use cqlmodel::tui::app::{App, BottomView, Focus};
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{ctrl, enter, hotel, key, press, screen, typed};
use crossterm::event::KeyCode;

/// The rules of the findings the Diagnostics pane shows, top to bottom.
fn shown_rules(app: &App) -> Vec<String> {
    let s = screen(app, 160, 50);
    s.lines()
        .filter_map(|l| {
            let open = l.find("  [")?;
            let close = l[open..].find(']')?;
            let rule = &l[open + 3..open + close];
            // A rule id, not the status bar's `[+]`.
            (rule.len() > 1 && rule.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
                .then(|| rule.to_string())
        })
        .collect()
}

#[test]
fn slash_filters_the_diagnostics_by_rule_severity_and_subject() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    // One edit, so `u` would have something to undo.
    key(&mut app, KeyCode::BackTab);
    app.reselect(Item::Entity(0));
    press(&mut app, 'r');
    typed(&mut app, "Inn");
    enter(&mut app);
    let edited = app.project.clone();
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Bottom);
    assert_eq!(app.view.bottom, BottomView::Diagnostics);
    assert_eq!(
        shown_rules(&app),
        [
            "retention-without-ttl",
            "retention-without-ttl",
            "write-amplification"
        ]
    );

    // By subject: the two findings about Reservation.
    press(&mut app, '/');
    assert!(matches!(app.popups.last(), Some(Popup::Input(_))));
    typed(&mut app, "reservation");
    assert_eq!(
        shown_rules(&app),
        ["retention-without-ttl", "write-amplification"]
    );
    assert!(screen(&app, 160, 50).contains("filter \"reservation\": 2 of 3"));
    // Letters are the filter's: `u` does not undo, `q` does not quit.
    ctrl(&mut app, 'u');
    typed(&mut app, "hint uq");
    assert_eq!(app.project, edited, "u ran undo");
    assert!(!app.quit);
    assert!(shown_rules(&app).is_empty());
    assert!(screen(&app, 160, 50).contains("No diagnostic matches"));
    // By rule, and `!` hides a rule.
    ctrl(&mut app, 'u');
    typed(&mut app, "!retention");
    assert_eq!(shown_rules(&app), ["write-amplification"]);
    enter(&mut app);
    assert!(app.popups.is_empty(), "Enter keeps the filter");
    // The selection is on what is shown: Enter opens that finding.
    enter(&mut app);
    match app.popups.last() {
        Some(Popup::Diagnostic(d)) => {
            assert_eq!(
                app.analysis.diagnostics[d.index].rule,
                "write-amplification"
            );
        }
        _ => panic!("no detail view"),
    }
    key(&mut app, KeyCode::Esc);
    // By severity, moving through what is shown.
    press(&mut app, '/');
    ctrl(&mut app, 'u');
    typed(&mut app, "HINT ttl");
    enter(&mut app);
    press(&mut app, 'j');
    enter(&mut app);
    match app.popups.last() {
        Some(Popup::Diagnostic(d)) => {
            assert_eq!(d.index, 1, "the second retention-without-ttl finding");
        }
        _ => panic!("no detail view"),
    }
    key(&mut app, KeyCode::Esc);
    // Esc in the pane clears the filter.
    key(&mut app, KeyCode::Esc);
    assert!(!screen(&app, 160, 50).contains("filter \""));
    press(&mut app, 'g');
    assert_eq!(shown_rules(&app).len(), 3);
}
