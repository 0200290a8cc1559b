//! `:export report FILE` and `:export diagram [VIEW] FILE` in the workbench,
//! typed as keys into the real event handler.

use cqlmodel::tui::app::App;
use cqlmodel::tui::testing::{hotel, key};
use crossterm::event::KeyCode;

fn command(app: &mut App, line: &str) {
    key(app, KeyCode::Char(':'));
    for c in line.chars() {
        key(app, KeyCode::Char(c));
    }
    key(app, KeyCode::Enter);
}

#[test]
fn export_report_and_diagrams_from_the_command_line() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    let d = tmp.path().display();
    command(&mut app, &format!("export report {d}/review.html"));
    let html = std::fs::read_to_string(tmp.path().join("review.html")).expect("HTML written");
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("Design review: Hotel reservations"));
    command(&mut app, &format!("export report {d}/review.md"));
    let md = std::fs::read_to_string(tmp.path().join("review.md")).expect("Markdown written");
    assert!(md.contains("```mermaid"));
    command(&mut app, &format!("export diagram er {d}/er.svg"));
    let svg = std::fs::read_to_string(tmp.path().join("er.svg")).expect("SVG written");
    assert!(svg.starts_with("<svg") && svg.contains("PointOfInterest"));
    command(&mut app, &format!("export diagram {d}/logical.mmd"));
    let mmd = std::fs::read_to_string(tmp.path().join("logical.mmd")).expect("Mermaid written");
    assert!(mmd.starts_with("flowchart TD") && mmd.contains("hotels_by_poi"));
    // A file that cannot be written is an error message, not a crash.
    command(&mut app, &format!("export report {d}/no/such/dir/r.html"));
    assert!(!tmp.path().join("no").exists());
}

/// Tab completes a file name: the popup asks, the run loop lists the
/// directory (an effect, not I/O in `update`), and the line is completed;
/// several candidates are shown under it.
#[test]
fn tab_completes_file_names_through_the_run_loop() {
    use cqlmodel::tui::popup::Popup;
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    std::fs::write(tmp.path().join("schema-one.cql"), "").expect("write");
    std::fs::write(tmp.path().join("schema-two.cql"), "").expect("write");
    std::fs::create_dir(tmp.path().join("subdir")).expect("mkdir");
    let line = |app: &App| match app.popups.last() {
        Some(Popup::Command(c)) => (c.text(), c.completions.clone()),
        _ => panic!("the command line is open"),
    };
    key(&mut app, KeyCode::Char(':'));
    for c in format!("export cql {}/su", tmp.path().display()).chars() {
        key(&mut app, KeyCode::Char(c));
    }
    key(&mut app, KeyCode::Tab);
    let dir = tmp.path().display();
    assert_eq!(line(&app).0, format!("export cql {dir}/subdir/"));
    for _ in 0.."subdir/".len() {
        key(&mut app, KeyCode::Backspace);
    }
    key(&mut app, KeyCode::Char('s'));
    key(&mut app, KeyCode::Char('c'));
    key(&mut app, KeyCode::Tab);
    let (text, candidates) = line(&app);
    assert_eq!(text, format!("export cql {dir}/schema-"));
    assert_eq!(candidates, ["schema-one.cql", "schema-two.cql"]);
}
