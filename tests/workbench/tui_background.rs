//! The analysis of a large project runs off the input thread: the first
//! frame comes before it ("deriving…"), keys keep working, an edit while
//! deriving queues a new analysis and the stale result is never shown.

use crate::support;

use cqlmodel::analysis::analyze;
use cqlmodel::model::{load, synthetic};
use cqlmodel::tui::action::{update, Action, Edit};
use cqlmodel::tui::analysis_worker::BACKGROUND_FROM_QUERIES;
use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::{handle_event, perform, start, Launch};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Long enough for an unoptimised build on a busy machine.
const PATIENCE: Duration = Duration::from_mins(5);

fn dirs(root: &Path) -> Dirs {
    Dirs {
        config: Some(root.join("config")),
        data: Some(root.join("data")),
    }
}

/// A generated project just large enough to be analysed in the background.
fn large_file(dir: &Path) -> PathBuf {
    let path = dir.join("large.cqlm.ron");
    let p = synthetic::project(60, BACKGROUND_FROM_QUERIES, 7);
    std::fs::write(&path, load::to_string(&p)).expect("write the project");
    path
}

fn key(app: &mut App, code: KeyCode) {
    handle_event(
        app,
        Event::Key(KeyEvent::new_with_kind(
            code,
            KeyModifiers::NONE,
            KeyEventKind::Press,
        )),
    );
}

#[test]
fn the_first_frame_of_a_large_project_comes_before_its_analysis() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = large_file(dir.path());
    let mut app = start(Launch::Open(path.clone()), dirs(dir.path())).expect("opens");
    assert!(app.is_deriving());
    let first = support::screen(&app, 200, 60);
    assert!(first.contains("deriving…"), "{first}");
    assert!(app.analysis.model.tables.is_empty());

    assert!(app.wait_for_analysis(PATIENCE), "the analysis arrives");
    assert!(!app.is_deriving());
    let done = support::screen(&app, 200, 60);
    assert!(!done.contains("deriving…"), "{done}");
    let tables = &app.analysis.model.tables;
    assert!(!tables.is_empty());
    assert!(
        tables
            .iter()
            .any(|t| done.contains(&format!(" {} ", t.name))),
        "{done}"
    );
    // The same frame as a workbench that analysed the project at once.
    let project = load::read(&path).expect("loads");
    let at_once = App::new(project, Some(path), dirs(dir.path()));
    assert_eq!(done, support::screen(&at_once, 200, 60));
}

#[test]
fn keys_work_while_deriving_and_an_edit_makes_the_running_analysis_stale() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = large_file(dir.path());
    let mut app = start(Launch::Open(path), dirs(dir.path())).expect("opens");
    assert!(app.is_deriving());
    // Navigation answers at once.
    let before = app.view.panes[1].selected;
    key(&mut app, KeyCode::Char('j'));
    assert_ne!(app.view.panes[1].selected, before, "j moved the selection");
    key(&mut app, KeyCode::Tab);
    key(&mut app, KeyCode::BackTab);

    // An edit lands on the project and queues its analysis.
    let query = app.project.queries[0].id.clone();
    for e in update(
        &mut app,
        Action::Edit(Edit::PinName(query.clone(), "pinned_while_deriving".into())),
    ) {
        perform(&mut app, e);
    }
    assert!(app.dirty);
    assert!(app.is_deriving());
    let frame = support::screen(&app, 200, 60);
    assert!(frame.contains("deriving…"), "{frame}");

    assert!(app.wait_for_analysis(PATIENCE));
    // What is shown is the edited project's analysis, not the opened one's.
    assert_eq!(
        app.analysis.model.table_of(&query).map(|t| t.name.as_str()),
        Some("pinned_while_deriving")
    );
    assert_eq!(app.analysis, analyze(&app.project));
    // Nothing stale arrives later.
    std::thread::sleep(Duration::from_millis(50));
    assert!(!app.receive_analysis());
}

#[test]
fn undo_while_deriving_queues_the_analysis_of_the_restored_project() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = large_file(dir.path());
    let mut app = start(Launch::Open(path), dirs(dir.path())).expect("opens");
    let opened = app.project.clone();
    update(&mut app, Action::Edit(Edit::ToggleEntry(0)));
    assert_ne!(app.project, opened);
    key(&mut app, KeyCode::Char('u'));
    assert_eq!(app.project, opened, "undone");
    assert!(app.is_deriving());
    assert!(app.wait_for_analysis(PATIENCE));
    assert_eq!(app.analysis, analyze(&opened));
}

#[test]
fn nothing_is_exported_while_deriving() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = large_file(dir.path());
    let mut app = start(Launch::Open(path), dirs(dir.path())).expect("opens");
    let out = dir.path().join("out.cql");
    for e in update(
        &mut app,
        Action::Export(cqlmodel::tui::action::ExportKind::Cql, out.clone()),
    ) {
        perform(&mut app, e);
    }
    assert!(!out.exists());
    let status = app.status.as_ref().map(|s| s.text.clone());
    assert!(
        status.as_deref().is_some_and(|s| s.contains("deriving…")),
        "{status:?}"
    );
}

#[test]
fn a_small_project_shows_its_tables_in_the_first_frame() {
    let dir = tempfile::tempdir().expect("temp dir");
    let app = start(Launch::Sample, dirs(dir.path())).expect("opens");
    assert!(!app.is_deriving());
    let first = support::screen(&app, 200, 60);
    assert!(!first.contains("deriving…"), "{first}");
    assert!(!app.analysis.model.tables.is_empty());
}

/// On a large project the analysis a refinement's preview needs (of the
/// project after the change) runs on the worker: the popup opens at once,
/// says the figures are coming, fills in, and Enter makes exactly the
/// project `refine::apply` makes, without analysing again.
#[test]
fn a_refinement_preview_of_a_large_project_is_worked_out_off_the_input_thread() {
    use cqlmodel::edit::refine;
    use cqlmodel::tui::popup::Popup;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = large_file(dir.path());
    let mut app = start(Launch::Open(path), dirs(dir.path())).expect("opens");
    assert!(app.wait_for_analysis(PATIENCE));
    let opened = app.project.clone();
    let r = app
        .analysis
        .model
        .tables
        .iter()
        .flat_map(|t| refine::options_in(&opened, &app.analysis.model, &t.origin))
        .find(|r| matches!(r, cqlmodel::review::diagnose::Refinement::AddShard { .. }))
        .expect("a table to shard");

    for e in update(&mut app, Action::PreviewRefinement(r.clone())) {
        perform(&mut app, e);
    }
    assert!(app.is_previewing(), "the after-analysis runs on the worker");
    let waiting = support::screen(&app, 200, 60);
    assert!(
        waiting.contains("working out the analysis after the change"),
        "{waiting}"
    );
    // Enter does nothing until the figures are in.
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.project, opened);

    assert!(app.wait_for_what_if(PATIENCE), "the preview fills in");
    let Some(Popup::Preview(shown)) = app.popups.last() else {
        panic!("the preview stays open");
    };
    assert_eq!(shown.preview, refine::preview(&opened, &r));
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty(), "Enter applied it");
    assert_eq!(app.project, refine::apply(&opened, &r).expect("applies"));
    assert!(app.dirty);
}

/// Closing a preview whose analysis is still running drops the request:
/// nothing arrives later and the project is unchanged.
#[test]
fn closing_a_waiting_preview_drops_its_analysis() {
    use cqlmodel::edit::refine;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = large_file(dir.path());
    let mut app = start(Launch::Open(path), dirs(dir.path())).expect("opens");
    assert!(app.wait_for_analysis(PATIENCE));
    let opened = app.project.clone();
    let t = &app.analysis.model.tables[0];
    let r = refine::options_in(&opened, &app.analysis.model, &t.origin)
        .into_iter()
        .next()
        .expect("a refinement");
    for e in update(&mut app, Action::PreviewRefinement(r)) {
        perform(&mut app, e);
    }
    key(&mut app, KeyCode::Esc);
    assert!(app.popups.is_empty());
    assert!(!app.receive_what_if());
    assert!(!app.is_previewing(), "the request was dropped");
    assert_eq!(app.project, opened);
}

/// With a stated workload the preview shows the design's cost before and
/// after the change (reads, writes, disk, hottest partition, weighted
/// total); without one it shows none.
#[test]
fn a_refinement_preview_shows_the_cost_when_a_workload_is_stated() {
    use cqlmodel::review::diagnose::Refinement;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut p = support::sample("hotel.cqlm.ron");
    let q = p.queries[0].id.clone();
    let r = Refinement::AddShard {
        query: q.into(),
        column: "shard".into(),
        count: 4,
    };
    let shown = |p: cqlmodel::model::Project| {
        let mut app = App::new(p, None, dirs(dir.path()));
        for e in update(&mut app, Action::PreviewRefinement(r.clone())) {
            perform(&mut app, e);
        }
        support::screen(&app, 200, 60)
    };
    assert!(!shown(p.clone()).contains("the design's cost"));
    p.cluster.nodes_per_dc = Some(6);
    let screen = shown(p);
    for row in [
        "the design's cost",
        "reads/s per node",
        "writes/s per node",
        "weighted ops/s",
    ] {
        assert!(screen.contains(row), "{row}\n{screen}");
    }
}

/// On a large project the alternatives matrix (a derivation per candidate
/// key) is worked out on the what-if worker: the popup opens at once,
/// says the matrix is coming, picks nothing meanwhile, and fills in with
/// exactly the matrix `alternatives::matrix` gives.
#[test]
fn the_alternatives_of_a_large_project_are_worked_out_off_the_input_thread() {
    use cqlmodel::tui::popup::Popup;
    let dir = tempfile::tempdir().expect("temp dir");
    let path = large_file(dir.path());
    let mut app = start(Launch::Open(path), dirs(dir.path())).expect("opens");
    assert!(app.wait_for_analysis(PATIENCE));
    let opened = app.project.clone();
    let t = &app.analysis.model.tables[0];
    let (query, table) = (t.origin.to_string(), t.name.to_string());

    app.alternatives(query.clone(), &table);
    assert!(
        app.is_previewing(),
        "the matrix is worked out on the worker"
    );
    let waiting = support::screen(&app, 200, 60);
    assert!(
        waiting.contains("working out every key against every query"),
        "{waiting}"
    );
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.project, opened, "Enter picks nothing yet");
    assert_eq!(app.popups.len(), 1);

    assert!(app.wait_for_what_if(PATIENCE), "the matrix fills in");
    let Some(Popup::Alternatives(shown)) = app.popups.last() else {
        panic!("the alternatives stay open");
    };
    assert!(!shown.pending);
    let expected = cqlmodel::review::alternatives::matrix(&opened, &query);
    assert_eq!(expected.options[0].name, "derived");
    assert_eq!(shown.matrix, expected);
    let done = support::screen(&app, 200, 60);
    assert!(done.contains("derived"), "{done}");

    // Closed while it is worked out: the request is dropped.
    key(&mut app, KeyCode::Esc);
    app.alternatives(query, &table);
    key(&mut app, KeyCode::Esc);
    assert!(app.popups.is_empty());
    assert!(!app.receive_what_if());
    assert!(!app.is_previewing(), "the request was dropped");
}

/// A large project whose second query over some rows is served by the
/// first's table (`served_by`); the two queries' ids.
fn merged_file(dir: &Path) -> (PathBuf, String, String) {
    let p = synthetic::project(60, BACKGROUND_FROM_QUERIES, 7);
    let plain =
        |i: usize| p.queries[i].aggregates.is_empty() && p.decision(&p.queries[i].id).is_none();
    let (a, b) = (0..p.queries.len())
        .flat_map(|a| (a + 1..p.queries.len()).map(move |b| (a, b)))
        .find(|&(a, b)| p.queries[a].rows == p.queries[b].rows && plain(a) && plain(b))
        .expect("two plain queries over the same rows");
    let (a, b) = (p.queries[a].id.clone(), p.queries[b].id.clone());
    let mut merged = p.clone();
    cqlmodel::edit::apply_edit(&mut merged, &Edit::Merge(vec![b.clone()], a.clone()))
        .expect("merges");
    let path = dir.join("merged.cqlm.ron");
    std::fs::write(&path, load::to_string(&merged)).expect("write the project");
    (path, a, b)
}

/// On a large project a split that undoes a `served_by` merge asks the
/// what-if worker which tables stay shared without it: the project is
/// unchanged until the answer arrives, then split as the core splits it,
/// the query alone in its table.
#[test]
fn a_split_of_a_large_project_is_worked_out_off_the_input_thread() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (path, host, guest) = merged_file(dir.path());
    let mut app = start(Launch::Open(path), dirs(dir.path())).expect("opens");
    assert!(app.wait_for_analysis(PATIENCE));
    let merged = app.project.clone();
    let table = app.analysis.model.table_of(&guest).expect("a table");
    assert!(table.queries.iter().any(|q| **q == host));

    app.split(vec![guest.clone()]);
    assert!(app.is_previewing(), "worked out on the worker");
    assert_eq!(app.project, merged, "not split yet");
    assert!(app.wait_for_what_if(PATIENCE), "the split arrives");

    let unmerged = cqlmodel::edit::unmerged(&merged, std::slice::from_ref(&guest)).expect("merged");
    let e = cqlmodel::edit::split(vec![guest.clone()], &cqlmodel::derive::derive(&unmerged));
    let mut expected = merged.clone();
    cqlmodel::edit::apply_edit(&mut expected, &e).expect("splits");
    expected.prune_decisions();
    assert_eq!(app.project, expected);
    assert!(app.dirty);
    let own = app.analysis.model.table_of(&guest).expect("its own table");
    assert_eq!(*own.queries, [guest.as_str()]);
    assert_eq!(app.analysis, analyze(&app.project));
}

/// A split worked out over a project that has changed since is dropped:
/// it would undo or keep apart what the change made.
#[test]
fn a_split_worked_out_over_an_older_project_is_dropped() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (path, _, guest) = merged_file(dir.path());
    let mut app = start(Launch::Open(path), dirs(dir.path())).expect("opens");
    assert!(app.wait_for_analysis(PATIENCE));
    app.split(vec![guest.clone()]);
    update(&mut app, Action::Edit(Edit::ToggleEntry(0)));
    let toggled = app.project.clone();
    assert!(app.wait_for_what_if(PATIENCE));
    assert_eq!(app.project, toggled, "the split was not made");
    let status = app.status.as_ref().map(|s| s.text.clone());
    assert!(
        status
            .as_deref()
            .is_some_and(|s| s.contains("split dropped")),
        "{status:?}"
    );
}
