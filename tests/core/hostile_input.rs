//! A teammate's project file is untrusted. Files whose strings hold escape
//! sequences (screen clearing, OSC 52 clipboard writes, BEL), C1 controls
//! and bidirectional overrides go through every CLI command and every
//! workbench view; nothing of them may reach the terminal. Names that
//! would become CQL identifiers are refused at load with their line and
//! column; free text is shown with placeholders.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::support;

use cqlmodel::model::terminal_text::is_unsafe;
use cqlmodel::model::{load, Note, Project, Target};
use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::{start, view, Launch};
use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::Path;
use support::key;

/// Clear screen, OSC 52 clipboard write, BEL, CSI as a C1 control, a
/// right-to-left override, an isolate, a carriage return and NEL.
const EVIL: &str = "x\u{1b}[2J\u{1b}]52;c;aGFja2Vk\u{7}\u{9b}31m\u{202e}txt.exe\u{2066}\r\u{85}y";

/// Fails on any character a terminal would interpret, other than the
/// line breaks and tabs that plain output uses.
fn assert_clean(what: &str, text: &str) {
    if let Some((i, c)) = text
        .char_indices()
        .find(|&(_, c)| is_unsafe(c) && c != '\n' && c != '\t')
    {
        let from = text[..i].char_indices().rev().nth(40).map_or(0, |(j, _)| j);
        panic!(
            "{what}: U+{:04X} reaches the terminal after {:?}",
            c as u32,
            &text[from..i]
        );
    }
}

/// The hotel sample with every free-text field hostile: the project name,
/// every query text, and a note on every entity, relationship and query.
fn hostile_free_text() -> Project {
    let mut p = load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    p.name = format!("Hotel {EVIL}");
    for q in &mut p.queries {
        q.text = format!("{} {EVIL}", q.text);
    }
    let mut targets: Vec<Target> = p
        .entities
        .iter()
        .map(|e| Target::Entity(e.name.clone()))
        .collect();
    targets.extend(
        p.relationships
            .iter()
            .map(|r| Target::Relationship(r.name.clone())),
    );
    targets.extend(p.queries.iter().map(|q| Target::Query(q.id.clone())));
    for target in targets {
        p.notes.push(Note {
            target,
            text: format!("note {EVIL}\nsecond line {EVIL}"),
        });
    }
    assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
    p
}

/// The sample with hostile text in the fields that become CQL
/// identifiers: entity short names and plurals, a column override, a UDT
/// field, a candidate key name, a data center.
fn hostile_names() -> String {
    let mut p = load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    for (i, e) in p.entities.iter_mut().enumerate() {
        e.short = Some(format!("s{i}{EVIL}"));
        e.plural = Some(format!("p{i}{EVIL}"));
        e.attributes[0].column = Some(format!("c{i}{EVIL}").into());
    }
    p.types.push(cqlmodel::model::UserType {
        name: "evil".into(),
        fields: vec![cqlmodel::model::Field {
            name: format!("f{EVIL}"),
            ty: "int".parse().expect("type"),
        }],
    });
    p.decision_mut("Q1")
        .candidates
        .push(cqlmodel::model::Candidate {
            name: format!("k{EVIL}"),
            partition: vec!["hotel_id".into()],
            clustering: vec![],
            indexes: vec![],
        });
    p.keyspace.replication = cqlmodel::model::Replication::NetworkTopology(
        [(format!("dc{EVIL}"), 3)].into_iter().collect(),
    );
    load::to_string(&p)
}

use crate::support::run;

fn every_command(file: &Path) -> Vec<(String, i32, String, String)> {
    let f = file.to_str().expect("utf-8 path");
    let commands: Vec<Vec<&str>> = vec![
        vec!["derive", f],
        vec!["derive", f, "--format", "json"],
        vec!["cql", f],
        vec!["check", f],
        vec!["check", f, "--format", "json"],
        vec!["alternatives", f, "Q1"],
        vec!["alternatives", f, "Q\u{1b}]52;c;eA==\u{7}"],
    ];
    commands
        .into_iter()
        .map(|args| {
            let (code, out, err) = run(&args);
            let what = args[..args.len().min(4)].join(" ");
            assert_clean(&format!("{what} (stdout)"), &out);
            assert_clean(&format!("{what} (stderr)"), &err);
            assert!(code == 0 || code == 1 || code == 2, "{what}: exit {code}");
            (what, code, out, err)
        })
        .collect()
}

#[test]
fn free_text_escapes_never_reach_cli_output() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("evil.cqlm.ron");
    std::fs::write(&file, load::to_string(&hostile_free_text())).expect("write");
    let runs = every_command(&file);
    // The commands did their work (the file is valid): the text is shown,
    // neutralized.
    let (_, code, out, _) = &runs[0];
    assert_eq!(*code, 0);
    assert!(
        out.contains("rooms_by_hotel") || out.contains("hotels"),
        "{out}"
    );
    let (_, code, cql, _) = &runs[2];
    assert_eq!(*code, 0);
    assert!(cql.contains("CREATE TABLE"), "{cql}");
    // JSON keeps the exact text, escaped.
    let (_, _, json, _) = &runs[1];
    let v: serde_json::Value = serde_json::from_str(json).expect("json");
    assert_eq!(
        v["project"],
        serde_json::Value::String(format!("Hotel {EVIL}"))
    );
}

#[test]
fn hostile_names_are_refused_with_line_and_column() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("names.cqlm.ron");
    let text = hostile_names();
    std::fs::write(&file, &text).expect("write");
    let runs = every_command(&file);
    for (what, code, _, err) in &runs {
        if what.starts_with("check") {
            continue;
        }
        assert_eq!(*code, 2, "{what}: {err}");
        assert!(err.contains("line "), "{what}: {err}");
    }
    let (_, code, out, err) = &runs[3];
    assert_eq!(*code, 1, "check fails: {out}{err}");
    for path in [
        "entities[0].short",
        "entities[0].plural",
        "entities[0].attributes[0].column",
        "fields[0].name",
        "candidates[0].name",
        "keyspace.replication",
    ] {
        assert!(out.contains(path), "{path}: {out}");
    }
    assert!(out.contains("column"), "{out}");
    assert!(out.contains("U+001B"), "{out}");
    // The workbench refuses to open it, with a safe message.
    let dirs = Dirs {
        config: Some(tmp.path().join("config")),
        data: Some(tmp.path().join("data")),
    };
    let err = start(Launch::Open(file), dirs).err().expect("refused");
    assert!(err.contains("line "), "{err}");
}

#[test]
fn huge_names_are_refused_not_a_panic() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("huge.cqlm.ron");
    let long = "n".repeat(70_000);
    let text = cqlmodel::tui::SAMPLE.replacen("name: \"Hotel\"", &format!("name: \"{long}\""), 1);
    assert_ne!(text, cqlmodel::tui::SAMPLE);
    std::fs::write(&file, &text).expect("write");
    for (what, code, out, err) in every_command(&file) {
        assert!(!err.contains("panicked"), "{what}: {err}");
        if args_unknown(&what) {
            assert_eq!(code, 2, "{what}");
        } else if what.starts_with("check") {
            assert_eq!(code, 1, "{what}");
            if !what.contains("json") {
                assert!(out.contains("limited to 128"), "{out:.300}");
            }
        } else {
            assert_eq!(code, 2, "{what}: {err:.300}");
            assert!(err.contains("70000 characters long"), "{err:.300}");
            assert!(err.contains("line "), "{err:.300}");
        }
    }
    // Long free text is fine everywhere, including layouts with columns.
    let mut p = load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    p.queries[0].text = "t".repeat(70_000);
    std::fs::write(&file, load::to_string(&p)).expect("write");
    for (what, code, _, err) in every_command(&file) {
        let unknown_query = args_unknown(&what);
        assert!(
            code == 0 || code == 1 || unknown_query,
            "{what}: {err:.300}"
        );
    }
}

/// The `alternatives` run on a query id the file does not have.
fn args_unknown(what: &str) -> bool {
    what.starts_with("alternatives") && !what.ends_with("Q1")
}

fn screen_text(app: &App, w: u16, h: u16) -> String {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("terminal");
    t.draw(|f| view::draw(app, f)).expect("draw");
    t.backend()
        .buffer()
        .content()
        .iter()
        .map(ratatui::buffer::Cell::symbol)
        .collect()
}

/// Walks every pane, every row and every bottom view, and opens the
/// popups that show file text; each screen must be clean.
pub fn walk_every_view(app: &mut App, w: u16, h: u16) -> usize {
    let mut screens = 0;
    let mut check = |app: &App, what: &str| {
        assert_clean(what, &screen_text(app, w, h));
        screens += 1;
    };
    check(app, "start");
    for pane in 0..3 {
        key(app, KeyCode::Char('g'));
        for row in 0..40 {
            for view in ['1', '2', '3', '4'] {
                key(app, KeyCode::Char(view));
                check(app, &format!("pane {pane} row {row} view {view}"));
            }
            // Popups that quote the selected item.
            for (open, name) in [('e', "editor"), ('A', "alternatives"), ('R', "refine")] {
                key(app, KeyCode::Char(open));
                check(app, &format!("pane {pane} row {row} {name}"));
                key(app, KeyCode::Esc);
            }
            key(app, KeyCode::Char('j'));
        }
        key(app, KeyCode::Tab);
    }
    // The whole keyspace's CQL and the help.
    key(app, KeyCode::Char('2'));
    key(app, KeyCode::Tab);
    key(app, KeyCode::Char('c'));
    check(app, "whole CQL");
    key(app, KeyCode::Char('?'));
    check(app, "help");
    screens
}

#[test]
fn free_text_escapes_never_reach_a_workbench_view() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("evil.cqlm.ron");
    std::fs::write(&file, load::to_string(&hostile_free_text())).expect("write");
    let dirs = Dirs {
        config: Some(tmp.path().join("config")),
        data: Some(tmp.path().join("data")),
    };
    let mut app = start(Launch::Open(file), dirs).expect("opens");
    let screens = walk_every_view(&mut app, 120, 40);
    assert!(screens > 100, "{screens}");
}

#[test]
fn the_workbench_refuses_hostile_or_huge_names_in_edits() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let dirs = Dirs {
        config: Some(tmp.path().join("config")),
        data: Some(tmp.path().join("data")),
    };
    let mut app = start(Launch::Sample, dirs).expect("start");
    let before = app.project.clone();
    for bad in [format!("short{EVIL}"), "s".repeat(70_000)] {
        let accepted = app.apply("Set the short name", |p| {
            p.entities[0].short = Some(bad.clone());
            Ok(())
        });
        assert!(!accepted, "{bad:.40}");
        let status = app
            .status
            .as_ref()
            .map(|s| s.text.clone())
            .unwrap_or_default();
        assert!(status.contains("refused"), "{status:.200}");
        assert_clean("status", &screen_text(&app, 120, 40));
    }
    assert_eq!(app.project, before);
}
