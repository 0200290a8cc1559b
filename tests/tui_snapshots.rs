//! Snapshot tests of the workbench screens on the hotel sample, drawn by the
//! real drawing code on ratatui's TestBackend at 120×40 and 80×24.

use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::{handle_event, start, view, Launch};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;

fn press(app: &mut App, c: char) {
    handle_event(
        app,
        Event::Key(KeyEvent::new_with_kind(
            KeyCode::Char(c),
            KeyModifiers::NONE,
            KeyEventKind::Press,
        )),
    );
}

/// The sample with Q7 selected (it has a review note and a table).
fn app(tmp: &std::path::Path) -> App {
    let dirs = Dirs {
        config: Some(tmp.join("config")),
        data: Some(tmp.join("data")),
    };
    let mut app = start(Launch::Sample, dirs).expect("start");
    for _ in 0..6 {
        press(&mut app, 'j');
    }
    app
}

fn render(app: &App, w: u16, h: u16) -> TestBackend {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| view::draw(app, f)).expect("draw");
    t.backend().clone()
}

fn screens(w: u16, h: u16) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut a = app(tmp.path());
    let q = a.current_query().expect("selected");
    assert_eq!(a.project.queries[q].id, "Q7");
    insta::assert_snapshot!(format!("main_{w}x{h}"), render(&a, w, h));
    for (k, name) in [
        ('2', "cql"),
        ('3', "select"),
        ('4', "notes"),
        ('1', "diagnostics"),
    ] {
        press(&mut a, k);
        insta::assert_snapshot!(format!("{name}_{w}x{h}"), render(&a, w, h));
    }
    press(&mut a, '?');
    insta::assert_snapshot!(format!("help_{w}x{h}"), render(&a, w, h));
}

#[test]
fn screens_120x40() {
    screens(120, 40);
}

#[test]
fn screens_80x24() {
    screens(80, 24);
}
