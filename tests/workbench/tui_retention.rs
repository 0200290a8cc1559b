//! Issue 41 item 9: an entity's retention is typed in any unit and shown
//! as typed; its TTL is a toggle, not a text field; the report shows a
//! 20-second retention as `20s`, never "0 days".
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::model::physical::SpanUnit;
use cqlmodel::tui::app::App;
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{ctrl, dirs, enter, key, press, screen, typed};
use cqlmodel::tui::{start, Launch};
use crossterm::event::KeyCode;

fn form_values(app: &App) -> Vec<String> {
    match app.popups.last() {
        Some(Popup::Form(f)) => f.values(),
        _ => panic!("no figures dialog"),
    }
}

/// Count, rate, retention and TTL of the selected entity, typed.
fn figures(app: &mut App, retention: &str, toggle_ttl: bool) {
    press(app, '#');
    key(app, KeyCode::Tab);
    key(app, KeyCode::Tab);
    ctrl(app, 'u');
    typed(app, retention);
    key(app, KeyCode::Tab);
    if toggle_ttl {
        press(app, ' ');
    }
    enter(app);
    assert!(app.popups.is_empty(), "{:?}", screen(app, 120, 40));
}

#[test]
fn retention_in_any_unit_shown_as_typed_and_ttl_a_toggle() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("w.cqlm.ron");
    let mut app = start(Launch::New(file), dirs(tmp.path())).expect("start");
    press(&mut app, 'a');
    typed(&mut app, "Reading");
    enter(&mut app);
    app.reselect(cqlmodel::edit::Item::Entity(0));

    figures(&mut app, "20s", true);
    let e = &app.project.entities[0];
    // 20 s is 20 / 86,400 days, kept with the unit it was typed in.
    assert!((e.retention_days.expect("retention") - 20.0 / 86_400.0).abs() < 1e-15);
    assert_eq!(e.retention_unit, Some(SpanUnit::Seconds));
    assert!(e.ttl, "Space turned the TTL on");
    press(&mut app, '#');
    let shown = screen(&app, 120, 40);
    assert_eq!(form_values(&app)[2], "20s");
    assert_eq!(form_values(&app)[3], "yes");
    assert!(shown.contains("[x] yes"), "{shown}");
    // The toggle takes no text: letters other than y / n do nothing.
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    typed(&mut app, "maybe");
    assert_eq!(form_values(&app)[3], "yes");
    press(&mut app, 'n');
    assert_eq!(form_values(&app)[3], "no");
    key(&mut app, KeyCode::Esc);

    // The report: `20s, TTL`, not "0 days".
    press(&mut app, ':');
    let md = tmp.path().join("r.md");
    typed(&mut app, &format!("export report {}", md.display()));
    enter(&mut app);
    let report = std::fs::read_to_string(&md).expect("report written");
    assert!(report.contains("20s, TTL"), "{report}");
    assert!(!report.contains("0 days"), "{report}");

    // Other units read back as typed; days keep the old form on disk.
    for (typed_as, days, unit) in [
        ("15m", 15.0 / 1_440.0, Some(SpanUnit::Minutes)),
        ("12h", 0.5, Some(SpanUnit::Hours)),
        ("2y", 730.0, Some(SpanUnit::Years)),
        ("730d", 730.0, None),
        ("730", 730.0, None),
    ] {
        figures(&mut app, typed_as, false);
        let e = &app.project.entities[0];
        assert!(
            (e.retention_days.expect("retention") - days).abs() < 1e-12,
            "{typed_as}"
        );
        assert_eq!(e.retention_unit, unit, "{typed_as}");
        press(&mut app, '#');
        let want = if typed_as == "730" { "730d" } else { typed_as };
        assert_eq!(form_values(&app)[2], want);
        key(&mut app, KeyCode::Esc);
    }
    // A wrong span keeps the dialog open with why.
    press(&mut app, '#');
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::Tab);
    ctrl(&mut app, 'u');
    typed(&mut app, "20 parsecs");
    enter(&mut app);
    assert!(screen(&app, 120, 40).contains("is not a span of time"));
}
