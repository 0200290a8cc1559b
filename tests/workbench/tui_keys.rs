//! Key-sequence tests: the whole workbench driven on ratatui's `TestBackend`
//! with real crossterm key events through the same `handle_event` the real
//! loop uses.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::derive::Role;
use cqlmodel::derive::Source;
use cqlmodel::model::{load, Dir, ExtraKind, Period};
use cqlmodel::tui::app::{App, BottomView, Focus};
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::testing::{ctrl, dirs, enter, key_with, press, typed};
use cqlmodel::tui::{start, Launch};
use crossterm::event::{KeyCode, KeyModifiers};
use std::path::Path;

use crate::support;
use support::{sample, screen};

fn table_names(app: &App) -> Vec<String> {
    app.analysis
        .model
        .tables
        .iter()
        .map(|t| t.name.to_string())
        .collect()
}

#[test]
fn build_a_model_from_empty_then_undo_to_empty() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("hotels.cqlm.ron");
    let mut app = start(Launch::New(file.clone()), dirs(tmp.path())).expect("start");
    let empty = app.project.clone();
    assert!(app.analysis.model.tables.is_empty());

    // Conceptual pane (where a new project starts): an entity and two
    // attributes.
    assert_eq!(app.focus, Focus::Concept);
    press(&mut app, 'a');
    typed(&mut app, "Hotel");
    enter(&mut app);
    assert_eq!(app.project.entities.len(), 1);
    assert_eq!(app.project.entities[0].key, vec!["hotel_id".to_string()]);
    press(&mut app, '+');
    typed(&mut app, "name text");
    enter(&mut app);
    press(&mut app, '+');
    typed(&mut app, "city text");
    enter(&mut app);
    let names: Vec<&str> = app.project.entities[0]
        .attributes
        .iter()
        .map(|a| a.name.as_str())
        .collect();
    assert_eq!(names, ["hotel_id", "name", "city"]);

    // Workflow pane: two queries, search attributes picked from lists.
    key_with(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Workflow);
    press(&mut app, 'a');
    typed(&mut app, "Find a hotel by id");
    enter(&mut app);
    enter(&mut app); // rows: Hotel, the only choice
    assert_eq!(app.project.queries.len(), 1);
    press(&mut app, '=');
    typed(&mut app, "hotel_id");
    press(&mut app, ' ');
    enter(&mut app);
    assert_eq!(
        app.project.queries[0].equality,
        vec!["hotel_id".to_string()]
    );
    assert_eq!(table_names(&app), ["hotels"]);

    press(&mut app, 'a');
    typed(&mut app, "Find hotels in a city");
    enter(&mut app);
    enter(&mut app);
    press(&mut app, '=');
    typed(&mut app, "city");
    press(&mut app, ' ');
    enter(&mut app);
    assert_eq!(table_names(&app), ["hotels", "hotels_by_city"]);
    let t = &app.analysis.model.tables[1];
    assert_eq!(t.columns[0].name, "city");
    assert_eq!(t.columns[0].role, Role::Partition);
    assert_eq!(t.columns[1].name, "hotel_id");
    assert_eq!(t.columns[1].role, Role::Clustering(Dir::Asc));
    assert!(
        app.status
            .as_ref()
            .is_some_and(|s| s.text.contains("hotels_by_city")),
        "{:?}",
        app.status
    );
    let s = screen(&app, 120, 40);
    assert!(s.contains("hotels_by_city"), "{s}");
    assert!(app.dirty);

    // Undo every edit: back to the empty project, then redo one.
    let edits = app.versions.history.len();
    for _ in 0..edits {
        press(&mut app, 'u');
    }
    assert_eq!(app.project, empty);
    assert!(app.analysis.model.tables.is_empty());
    press(&mut app, 'u');
    assert!(app
        .status
        .as_ref()
        .is_some_and(|s| s.text.contains("nothing to undo")));
    key_with(&mut app, KeyCode::Char('r'), KeyModifiers::CONTROL);
    assert_eq!(app.project.entities.len(), 1);
}

fn hotel_copy(dir: &Path) -> std::path::PathBuf {
    let file = dir.join("hotel.cqlm.ron");
    std::fs::write(&file, cqlmodel::tui::SAMPLE).expect("write");
    file
}

fn select_query(app: &mut App, id: &str) {
    press(app, '/');
    for _ in 0..8 {
        key_with(app, KeyCode::Backspace, KeyModifiers::NONE);
    }
    typed(app, id);
    enter(app);
    assert_eq!(app.focus, Focus::Workflow);
    let q = app.current_query().expect("a query is selected");
    assert_eq!(app.project.queries[q].id, id);
}

#[test]
fn ordering_picked_descending_shows_c_down() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    select_query(&mut app, "Q7");
    press(&mut app, 'o');
    typed(&mut app, "room_number");
    key_with(&mut app, KeyCode::Right, KeyModifiers::NONE);
    enter(&mut app);
    let q7 = app.project.query("Q7").expect("Q7");
    assert_eq!(q7.order[0].dir, Dir::Desc);
    let t = app
        .analysis
        .model
        .table("reservations_by_hotel_date")
        .expect("table");
    assert_eq!(
        t.column("room_number").map(|c| c.role),
        Some(Role::Clustering(Dir::Desc))
    );
    let status = app.status.clone().expect("status").text;
    assert!(
        status.contains("reservations_by_hotel_date: C↑ room_number → C↓"),
        "{status}"
    );
    let s = screen(&app, 160, 60);
    assert!(s.contains("C↓ room_number"), "{s}");
}

#[test]
fn save_and_reload_round_trips() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = hotel_copy(tmp.path());
    let mut app = start(Launch::Open(file.clone()), dirs(tmp.path())).expect("start");
    select_query(&mut app, "Q3");
    press(&mut app, '*'); // make Q3 an entry point
    assert!(app.dirty);
    key_with(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(!app.dirty, "{:?}", app.status);
    let back = load::read(&file).expect("reload");
    assert_eq!(back, app.project);
    assert!(back.workflow.entry.contains(&"Q3".to_string()));

    // :w FILE saves as, and the file name follows.
    let other = tmp.path().join("copy.cqlm.ron");
    press(&mut app, ':');
    typed(&mut app, &format!("w {}", other.display()));
    enter(&mut app);
    assert_eq!(load::read(&other).expect("copy"), app.project);
    assert_eq!(app.path.as_deref(), Some(other.as_path()));

    // A file changed on disk is not overwritten without asking.
    std::fs::write(&other, cqlmodel::tui::SAMPLE).expect("external write");
    press(&mut app, '*');
    key_with(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(app.dirty);
    assert_eq!(
        std::fs::read_to_string(&other).expect("read"),
        cqlmodel::tui::SAMPLE
    );
    press(&mut app, 'y');
    assert!(!app.dirty);
    assert_eq!(load::read(&other).expect("reload"), app.project);
}

#[test]
fn quitting_unsaved_asks_first() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    select_query(&mut app, "Q2");
    press(&mut app, '*');
    assert!(app.dirty);
    press(&mut app, 'q');
    assert!(!app.quit);
    // The question is on screen, as a confirmation popup.
    let Some(Popup::Confirm(c)) = app.popups.last() else {
        panic!(
            "q with unsaved changes must ask; popups: {}",
            app.popups.len()
        );
    };
    assert!(c.message.contains("unsaved"), "{}", c.message);
    let s = screen(&app, 120, 40);
    assert!(s.contains("lose the unsaved changes"), "{s}");
    // No keeps the workbench open, the edit still there.
    press(&mut app, 'n');
    assert!(!app.quit);
    assert!(app.popups.is_empty());
    assert!(app.dirty);
    // Yes to the same question quits.
    press(&mut app, 'q');
    assert!(matches!(app.popups.last(), Some(Popup::Confirm(_))));
    press(&mut app, 'y');
    assert!(app.quit);
}

#[test]
fn quitting_saved_does_not_ask() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    press(&mut app, 'q');
    assert!(app.popups.is_empty());
    assert!(app.quit);
}

#[test]
fn quitting_unsaved_with_q_bang_does_not_ask() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    select_query(&mut app, "Q2");
    press(&mut app, '*');
    press(&mut app, ':');
    typed(&mut app, "q!");
    enter(&mut app);
    assert!(app.quit);
}

/// The editor popup on top, if any.
fn editor(app: &App) -> &cqlmodel::tui::popup::editor::Editor {
    match app.popups.last() {
        Some(Popup::Editor(e)) => e,
        _ => panic!("the RON editor is not open"),
    }
}

#[test]
fn invalid_text_edits_are_refused_and_valid_ones_apply() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    select_query(&mut app, "Q2");
    press(&mut app, 'e');
    // Break the text: the editor says why and Ctrl-S does not apply.
    key_with(&mut app, KeyCode::Char('x'), KeyModifiers::NONE);
    assert!(editor(&app).error.is_some());
    key_with(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(!app.popups.is_empty());
    let before = app.project.clone();
    key_with(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(app.popups.is_empty());
    assert_eq!(app.project, before);
    assert!(!app.dirty);

    // A valid edit applies: reopen, extend the query's text in place.
    press(&mut app, 'e');
    let line = editor(&app)
        .area
        .lines()
        .iter()
        .position(|l| l.trim_start().starts_with("text:"))
        .expect("a text: line");
    for _ in 0..line {
        key_with(&mut app, KeyCode::Down, KeyModifiers::NONE);
    }
    key_with(&mut app, KeyCode::End, KeyModifiers::NONE);
    // Before the closing `",`.
    key_with(&mut app, KeyCode::Left, KeyModifiers::NONE);
    key_with(&mut app, KeyCode::Left, KeyModifiers::NONE);
    typed(&mut app, " by id");
    assert_eq!(editor(&app).error, None, "{}", editor(&app).text());
    key_with(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(app.popups.is_empty(), "a valid edit closes the editor");
    assert_eq!(
        app.project.query("Q2").expect("Q2").text,
        "Find information about a given hotel by id"
    );
    assert!(app.dirty);
    let mut expected = before.clone();
    expected.queries[1].text = "Find information about a given hotel by id".into();
    assert_eq!(app.project, expected, "only the text changed");
    press(&mut app, 'u');
    assert_eq!(app.project, before);

    // Deleting a referenced entity says why before asking, and offers
    // the cascade: `n` keeps everything, `y` takes what uses it along.
    key_with(&mut app, KeyCode::BackTab, KeyModifiers::SHIFT);
    press(&mut app, 'g');
    press(&mut app, 'j');
    press(&mut app, 'd');
    let Some(Popup::Confirm(ask)) = app.popups.last() else {
        panic!("no question before a delete with references");
    };
    assert!(ask.message.contains("is still used"), "{}", ask.message);
    assert!(ask.message.contains("query Q"), "{}", ask.message);
    press(&mut app, 'n');
    assert_eq!(app.project, before);
    press(&mut app, 'd');
    press(&mut app, 'y');
    assert!(app.project.entities.len() < before.entities.len());
    assert!(app.project.queries.len() < before.queries.len());
    assert!(cqlmodel::model::load::validate(&app.project).is_empty());
    press(&mut app, 'u');
    assert_eq!(app.project, before, "one undo brings it all back");
}

#[test]
fn table_decisions_from_the_table_pane() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    select_query(&mut app, "Q4");
    key_with(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Tables);
    press(&mut app, 'b'); // bucket periods, through the refinement path
    typed(&mut app, "month");
    enter(&mut app); // preview
    assert!(matches!(app.popups.last(), Some(Popup::Preview(_))));
    enter(&mut app); // apply
    let d = app.project.decision("Q4").expect("decision");
    assert_eq!(d.partition_extra.len(), 1);
    assert!(
        matches!(
            d.partition_extra[0].kind,
            ExtraKind::Bucket {
                period: Period::Month,
                ..
            }
        ),
        "{:?}",
        d.partition_extra
    );
    let t = app
        .analysis
        .model
        .tables
        .iter()
        .find(|t| t.origin == "Q4")
        .expect("table");
    assert_eq!(t.partition_key().count(), 2);
    // Pin a name.
    press(&mut app, 'n');
    for _ in 0..40 {
        key_with(&mut app, KeyCode::Backspace, KeyModifiers::NONE);
    }
    typed(&mut app, "availability");
    enter(&mut app);
    assert!(
        app.analysis.model.table("availability").is_some(),
        "{:?}",
        app.status
    );
    // Provenance of a column.
    press(&mut app, 'j');
    enter(&mut app);
    let s = screen(&app, 120, 40);
    assert!(s.contains("Provenance"), "{s}");
    assert!(s.contains("rule:"), "{s}");
}

#[test]
fn never_panics_at_any_size() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    let sizes: Vec<(u16, u16)> = (1..=24)
        .flat_map(|w| (1..=12).map(move |h| (w * 7 - 6, h * 4 - 3)))
        .collect();
    for (w, h) in &sizes {
        screen(&app, *w, *h);
    }
    for c in ['?', 'e', ':'] {
        press(&mut app, c);
        for (w, h) in &sizes {
            screen(&app, *w, *h);
        }
        key_with(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    }
}

/// The first frame of the bare `cqlmodel` launch shows the hotel sample
/// derived: every pane's title and the tables of the sample. (Timing is
/// measured by `cargo bench --bench tui`, not asserted here.)
#[test]
fn time_to_first_frame() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let t0 = std::time::Instant::now();
    let app = start(Launch::Sample, dirs(tmp.path())).expect("start");
    let s = screen(&app, 200, 60);
    eprintln!(
        "start to first frame (hotel sample, debug build): {:?}",
        t0.elapsed()
    );
    assert_eq!(app.path, None, "the sample opens as an unsaved copy");
    assert!(!app.dirty);
    assert_eq!(
        app.project,
        load::from_str(cqlmodel::tui::SAMPLE).expect("sample")
    );
    for title in ["Conceptual", "Workflow", "Logical tables", "Diagnostics"] {
        assert!(
            s.contains(title),
            "{title} missing from the first frame:\n{s}"
        );
    }
    // The status line counts what was derived: 7 entities, 9 queries,
    // 9 tables, and the first table is drawn with its key.
    let counts = format!(
        "{}e {}q {}t",
        app.project.entities.len(),
        app.project.queries.len(),
        app.analysis.model.tables.len()
    );
    assert_eq!(counts, "7e 9q 9t");
    assert!(s.contains(&counts), "{counts} missing:\n{s}");
    let first = &app.analysis.model.tables[0];
    assert!(s.contains(first.name.as_str()), "{}:\n{s}", first.name);
    let key = first.partition_key().next().expect("a partition key");
    assert!(s.contains(&format!("K  {}", key.name)), "{s}");
    assert!(s.contains("Hotel"), "{s}");
}

/// The logs sample without Q1's day bucket: its partitions grow forever.
fn logs_without_bucket(dir: &Path) -> std::path::PathBuf {
    let mut p = sample("logs.cqlm.ron");
    p.decision_mut("Q1")
        .partition_extra
        .retain(|x| !matches!(x.kind, ExtraKind::Bucket { .. }));
    let file = dir.join("logs.cqlm.ron");
    std::fs::write(&file, load::to_string(&p)).expect("write");
    file
}

fn q1_table(app: &App) -> &cqlmodel::derive::Table {
    app.analysis.model.table_of("Q1").expect("Q1 has a table")
}

fn unbounded_q1(app: &App) -> Option<usize> {
    let table = q1_table(app).name.clone();
    app.analysis.diagnostics.iter().position(|d| {
        d.rule == "unbounded-partition"
            && cqlmodel::output::report::subject_label(&d.subject).contains(table.as_str())
    })
}

#[test]
fn bucket_refinement_from_the_diagnostics_pane_and_undo() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(
        Launch::Open(logs_without_bucket(tmp.path())),
        dirs(tmp.path()),
    )
    .expect("start");
    let before = app.project.clone();
    let at = unbounded_q1(&app).expect("an unbounded-partition diagnostic on Q1's table");
    assert!(app.analysis.diagnostics[at].refinement.is_some());
    assert!(!q1_table(&app)
        .columns
        .iter()
        .any(|c| matches!(c.source, Source::Bucket { .. })));

    // Diagnostics view, bottom pane, down to the diagnostic, f.
    press(&mut app, '1');
    while app.focus != Focus::Bottom {
        key_with(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    }
    assert_eq!(app.view.bottom, BottomView::Diagnostics);
    for _ in 0..at {
        press(&mut app, 'j');
    }
    press(&mut app, 'f');
    assert!(
        matches!(app.popups.last(), Some(Popup::Preview(_))),
        "{:?}",
        app.status
    );
    let s = screen(&app, 120, 40);
    assert!(s.contains("Goes away"), "{s}");
    assert!(s.contains("unbounded-partition"), "{s}");
    // Esc cancels: nothing changed.
    key_with(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(app.popups.is_empty());
    assert_eq!(app.project, before);
    // f again, Enter applies.
    press(&mut app, 'f');
    enter(&mut app);
    assert!(app.popups.is_empty());
    assert_eq!(unbounded_q1(&app), None, "{:?}", app.analysis.diagnostics);
    let bucket = q1_table(&app)
        .partition_key()
        .find(|c| matches!(c.source, Source::Bucket { .. }))
        .expect("a bucket column in the partition key")
        .name
        .clone();
    let table = q1_table(&app).name.clone();
    assert!(
        app.derived.changed.contains(table.as_str()),
        "{:?}",
        app.derived.changed
    );
    assert!(app.dirty);
    let s = screen(&app, 160, 60);
    assert!(s.contains(&format!("K {bucket}")), "{s}");
    // u restores the unbucketed table and its diagnostic.
    press(&mut app, 'u');
    assert_eq!(app.project, before);
    assert!(unbounded_q1(&app).is_some());
    assert!(!app.dirty);
}

#[test]
fn refine_menu_offers_periods_and_applies_the_chosen_one() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(
        Launch::Open(logs_without_bucket(tmp.path())),
        dirs(tmp.path()),
    )
    .expect("start");
    select_query(&mut app, "Q1");
    key_with(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Tables);
    press(&mut app, 'R');
    let Some(Popup::Picker(pk)) = app.popups.last() else {
        panic!("the refine menu opens");
    };
    // The proposed period is preselected; every other period is offered.
    assert!(pk.items[pk.cursor].contains("(proposed)"), "{:?}", pk.items);
    for p in Period::ALL {
        assert!(
            pk.items
                .iter()
                .any(|i| i.contains(&format!("by {} of", p.name()))),
            "{p:?}: {:?}",
            pk.items
        );
    }
    assert!(pk.items.iter().any(|i| i.contains("shard")));
    typed(&mut app, "by week");
    enter(&mut app);
    assert!(matches!(app.popups.last(), Some(Popup::Preview(_))));
    enter(&mut app);
    let d = app.project.decision("Q1").expect("decision");
    assert!(d.partition_extra.iter().any(|x| matches!(
        x.kind,
        ExtraKind::Bucket {
            period: Period::Week,
            ..
        }
    )));
    press(&mut app, 'u');
    assert!(!app.dirty);
}

#[test]
fn alternatives_popup_sets_and_clears_the_candidate() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("devices.cqlm.ron");
    std::fs::write(&file, load::to_string(&sample("devices-options.cqlm.ron"))).expect("write");
    let mut app = start(Launch::Open(file), dirs(tmp.path())).expect("start");
    let in_use = |app: &App| {
        app.project
            .decision("Q1")
            .and_then(|d| d.use_candidate.clone())
    };
    assert_eq!(in_use(&app).as_deref(), Some("option2"));
    select_query(&mut app, "Q1");
    key_with(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    press(&mut app, 'A');
    let Some(Popup::Alternatives(a)) = app.popups.last() else {
        panic!("the alternatives popup opens");
    };
    assert_eq!(a.matrix.options[a.col].name, "option2");
    let s = screen(&app, 160, 50);
    assert!(s.contains("option4"), "{s}");
    // → to option3, Enter uses it.
    key_with(&mut app, KeyCode::Right, KeyModifiers::NONE);
    enter(&mut app);
    assert!(app.popups.is_empty());
    assert_eq!(in_use(&app).as_deref(), Some("option3"));
    // c clears it: the derived key.
    press(&mut app, 'A');
    press(&mut app, 'c');
    assert_eq!(in_use(&app), None);
    press(&mut app, 'u');
    assert_eq!(in_use(&app).as_deref(), Some("option3"));
    press(&mut app, 'u');
    assert_eq!(in_use(&app).as_deref(), Some("option2"));
}

#[test]
fn split_keeps_an_identical_query_apart_and_undoes() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut p = load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    let mut twin = p.query("Q1").expect("Q1").clone();
    twin.id = "Q99".into();
    twin.text = "Find hotels near a point of interest, again".into();
    p.queries.push(twin.into());
    let file = tmp.path().join("twins.cqlm.ron");
    std::fs::write(&file, load::to_string(&p)).expect("write");
    let mut app = start(Launch::Open(file), dirs(tmp.path())).expect("start");
    let tables = app.analysis.model.tables.len();
    let shared = app.analysis.model.table_of("Q99").expect("table").clone();
    assert_eq!(*shared.queries, ["Q1", "Q99"]);

    // In the Tables pane, x splits the other queries off the table.
    select_query(&mut app, "Q99");
    key_with(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    assert_eq!(app.focus, Focus::Tables);
    press(&mut app, 'x');
    assert!(app.project.decision("Q99").is_some_and(|d| d.separate));
    assert_eq!(app.analysis.model.tables.len(), tables + 1);
    assert_ne!(
        app.analysis.model.table_of("Q99").expect("own").name,
        shared.name
    );
    press(&mut app, 'u');
    assert_eq!(app.analysis.model.tables.len(), tables);
    assert!(app.project.decision("Q99").is_none());

    // In the Workflow pane, x on the query itself does the same.
    key_with(&mut app, KeyCode::BackTab, KeyModifiers::SHIFT);
    select_query(&mut app, "Q99");
    press(&mut app, 'x');
    assert!(app.project.decision("Q99").is_some_and(|d| d.separate));
    // Again: nothing left to split.
    press(&mut app, 'x');
    assert!(
        app.status
            .as_ref()
            .is_some_and(|s| s.text.contains("nothing to split")),
        "{:?}",
        app.status
    );
}

#[test]
fn split_undoes_served_by_merges() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("devices.cqlm.ron");
    std::fs::write(&file, load::to_string(&sample("devices-options.cqlm.ron"))).expect("write");
    let mut app = start(Launch::Open(file), dirs(tmp.path())).expect("start");
    let tables = app.analysis.model.tables.len();
    select_query(&mut app, "Q1");
    key_with(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    press(&mut app, 'x');
    for q in ["Q2", "Q3", "Q4"] {
        assert!(
            app.project
                .decision(q)
                .and_then(|d| d.served_by.as_ref())
                .is_none(),
            "{q}"
        );
    }
    assert!(app.analysis.model.tables.len() > tables);
    press(&mut app, 'u');
    assert_eq!(app.analysis.model.tables.len(), tables);
    assert_eq!(
        app.project
            .decision("Q2")
            .and_then(|d| d.served_by.clone())
            .as_deref(),
        Some("Q1")
    );
}

fn entries(app: &App) -> Vec<String> {
    app.project.workflow.entry.clone()
}

/// Whether the status line shows the unsaved marker.
fn marked(app: &App) -> bool {
    screen(app, 120, 40).contains("[+]")
}

#[test]
fn a_new_edit_after_undo_clears_redo() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    let original = app.project.clone();
    select_query(&mut app, "Q2");
    press(&mut app, '*'); // edit A
    let after_a = app.project.clone();
    select_query(&mut app, "Q3");
    press(&mut app, '*'); // edit B
    let after_b = app.project.clone();
    assert_ne!(after_a, after_b);
    press(&mut app, 'u');
    assert_eq!(app.project, after_a);
    // Redo brings B back, undo takes it away again.
    ctrl(&mut app, 'r');
    assert_eq!(app.project, after_b);
    press(&mut app, 'u');
    assert_eq!(app.project, after_a);

    // A new edit C instead of redoing B: B is gone for good.
    select_query(&mut app, "Q5");
    press(&mut app, '*');
    let after_c = app.project.clone();
    assert!(entries(&app).contains(&"Q5".to_string()));
    let q3 = "Q3".to_string();
    assert_eq!(
        entries(&app).contains(&q3),
        original.workflow.entry.contains(&q3),
        "B is not part of the history any more"
    );
    ctrl(&mut app, 'r');
    assert_eq!(
        app.project, after_c,
        "redo after a new edit must do nothing"
    );
    assert!(
        app.status
            .as_ref()
            .is_some_and(|s| s.text.contains("nothing to redo")),
        "{:?}",
        app.status
    );
    ctrl(&mut app, 'y');
    assert_eq!(app.project, after_c);
    // Undo walks back C, then A, to the file as opened.
    press(&mut app, 'u');
    assert_eq!(app.project, after_a);
    press(&mut app, 'u');
    assert_eq!(app.project, original);
    // And redo walks forward A, C — never B.
    ctrl(&mut app, 'r');
    assert_eq!(app.project, after_a);
    ctrl(&mut app, 'r');
    assert_eq!(app.project, after_c);
}

#[test]
fn the_unsaved_marker_follows_save_edit_undo_redo() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    assert!(!app.dirty && !marked(&app), "a file just opened is saved");
    select_query(&mut app, "Q2");
    press(&mut app, '*');
    assert!(app.dirty && marked(&app), "an edit marks the file unsaved");
    ctrl(&mut app, 's');
    assert!(!app.dirty && !marked(&app), "saving clears the marker");
    select_query(&mut app, "Q3");
    press(&mut app, '*');
    assert!(app.dirty && marked(&app), "an edit after saving");
    press(&mut app, 'u');
    assert!(
        !app.dirty && !marked(&app),
        "undo back to the saved state is saved"
    );
    ctrl(&mut app, 'r');
    assert!(app.dirty && marked(&app), "redo past the saved state");
    press(&mut app, 'u');
    assert!(!app.dirty && !marked(&app));
    press(&mut app, 'u');
    assert!(
        app.dirty && marked(&app),
        "undo before the save differs from the file"
    );
    ctrl(&mut app, 'r');
    assert!(!app.dirty && !marked(&app), "redo to the saved state");
    // The file on disk is what was saved: Q2 an entry point, Q3 not.
    let disk = load::read(app.path.as_deref().expect("path")).expect("reload");
    assert_eq!(disk, app.project);
}

/// `:settings` opens the RON editor on the keyspace, target version and
/// thresholds; an edit of the keyspace's name applies, shows in the CQL
/// and undoes.
#[test]
fn settings_edit_the_keyspace_in_the_workbench() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(Launch::Open(hotel_copy(tmp.path())), dirs(tmp.path())).expect("start");
    let before = app.project.clone();
    press(&mut app, ':');
    typed(&mut app, "settings");
    enter(&mut app);
    let text = editor(&app).text();
    assert!(text.starts_with("Settings("), "{text}");
    assert!(text.contains("keyspace: Keyspace("), "{text}");
    assert!(text.contains("cassandra: \"4.1\""), "{text}");
    let line = editor(&app)
        .area
        .lines()
        .iter()
        .position(|l| l.trim_start().starts_with("name:"))
        .expect("a name: line");
    for _ in 0..line {
        key_with(&mut app, KeyCode::Down, KeyModifiers::NONE);
    }
    key_with(&mut app, KeyCode::End, KeyModifiers::NONE);
    // Before the closing `",`.
    key_with(&mut app, KeyCode::Left, KeyModifiers::NONE);
    key_with(&mut app, KeyCode::Left, KeyModifiers::NONE);
    typed(&mut app, "_prod");
    assert_eq!(editor(&app).error, None, "{}", editor(&app).text());
    key_with(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(app.popups.is_empty(), "a valid edit closes the editor");
    let name = format!("{}_prod", before.keyspace.name);
    assert_eq!(app.project.keyspace.name, name);
    let cql = cqlmodel::output::cql::script(&app.project, &app.analysis.model);
    assert!(
        cql.contains(&format!("CREATE KEYSPACE IF NOT EXISTS {name}")),
        "{cql}"
    );
    press(&mut app, 'u');
    assert_eq!(app.project, before);
}

/// `w` on a diagnostic: a one-line prompt for the reason, Enter keeps a
/// waiver in the project; the finding is then listed as waived, with its
/// reason, and undo takes the waiver back.
#[test]
fn waive_a_diagnostic_with_one_key_and_a_reason() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = start(
        Launch::Open(logs_without_bucket(tmp.path())),
        dirs(tmp.path()),
    )
    .expect("start");
    let at = unbounded_q1(&app).expect("an unbounded-partition diagnostic on Q1's table");
    let subject = app.analysis.diagnostics[at].subject.label();
    press(&mut app, '1');
    while app.focus != Focus::Bottom {
        key_with(&mut app, KeyCode::Tab, KeyModifiers::NONE);
    }
    for _ in 0..at {
        press(&mut app, 'j');
    }
    press(&mut app, 'w');
    assert!(matches!(app.popups.last(), Some(Popup::Input(_))));
    let s = screen(&app, 120, 40);
    assert!(s.contains("Waive finding"), "{s}");
    assert!(
        s.contains("why [unbounded-partition] does not apply"),
        "{s}"
    );
    typed(&mut app, "sources are retired monthly");
    enter(&mut app);
    assert!(app.popups.is_empty());
    assert_eq!(app.project.waivers.len(), 1);
    let w = &app.project.waivers[0];
    assert_eq!(
        (w.rule.as_str(), w.subject.as_str(), w.reason.as_str()),
        (
            "unbounded-partition",
            subject.as_str(),
            "sources are retired monthly"
        )
    );
    let at = unbounded_q1(&app).expect("still listed");
    assert!(app.analysis.diagnostics[at].waived.is_some());
    let s = screen(&app, 160, 60);
    assert!(s.contains("waived: sources are retired monthly"), "{s}");
    ctrl(&mut app, 'z');
    assert!(app.project.waivers.is_empty());
    let at = unbounded_q1(&app).expect("still listed");
    assert!(app.analysis.diagnostics[at].waived.is_none());
}
