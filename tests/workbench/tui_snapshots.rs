//! Snapshot tests of the workbench screens on the hotel sample, drawn by the
//! real drawing code on ratatui's `TestBackend` at 120×40 and 80×24.

use crate::support;

use cqlmodel::model::{load, ExtraKind, Project};
use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::testing::{dirs, press};
use cqlmodel::tui::{start, view, Launch};
use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use support::{key, sample};

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

fn open(tmp: &std::path::Path, p: &Project) -> App {
    let file = tmp.join("project.cqlm.ron");
    std::fs::write(&file, load::to_string(p)).expect("write");
    start(Launch::Open(file), dirs(tmp)).expect("start")
}

/// The preview of the logs sample's day bucket, taken away and proposed
/// again by the unbounded-partition diagnostic.
#[test]
fn refine_preview_120x40() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut p = sample("logs.cqlm.ron");
    p.decision_mut("Q1")
        .partition_extra
        .retain(|x| !matches!(x.kind, ExtraKind::Bucket { .. }));
    let mut a = open(tmp.path(), &p);
    let at = a
        .analysis
        .diagnostics
        .iter()
        .position(|d| d.rule == "unbounded-partition" && d.refinement.is_some())
        .expect("a refinement to preview");
    press(&mut a, '1');
    while a.focus != Focus::Bottom {
        key(&mut a, KeyCode::Tab);
    }
    for _ in 0..at {
        press(&mut a, 'j');
    }
    press(&mut a, 'f');
    insta::assert_snapshot!("refine_preview_120x40", render(&a, 120, 40));
}

/// The alternatives of the devices sample's events table.
#[test]
fn alternatives_120x40() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut a = open(tmp.path(), &sample("devices-options.cqlm.ron"));
    while a.focus != Focus::Tables {
        key(&mut a, KeyCode::Tab);
    }
    press(&mut a, 'g');
    press(&mut a, 'A');
    insta::assert_snapshot!("alternatives_120x40", render(&a, 120, 40));
}
