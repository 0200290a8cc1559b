//! Keys that mean one thing everywhere: popups read their own scope of the
//! binding table, scroll like panes, and name their keys from it. Driven on
//! `TestBackend` with real key events through `handle_event`.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::edit::Item;
use cqlmodel::model::Dir;
use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::keymap::{Command, Keymap, Scope};
use cqlmodel::tui::popup::{InputPurpose, Picker, Popup};
use cqlmodel::tui::testing::{dirs, hotel, key, press, typed};
use cqlmodel::tui::{handle_event, start, Launch};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::collections::BTreeMap;
use std::path::Path;

use crate::support;
use support::screen;

fn select_query(app: &mut App, id: &str) {
    press(app, '/');
    typed(app, id);
    key(app, KeyCode::Enter);
    let q = app.current_query().expect("a query is selected");
    assert_eq!(app.project.queries[q].id, id);
}

fn picker(app: &App) -> &Picker {
    match app.popups.last() {
        Some(Popup::Picker(p)) => p,
        _ => panic!("no picker open"),
    }
}

#[test]
fn right_sets_the_direction_only_and_space_then_picks() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    select_query(&mut app, "Q7");
    press(&mut app, 'o');
    let p = picker(&app);
    let vis = p.visible();
    let pos = vis
        .iter()
        .position(|i| !p.picked.contains(i))
        .expect("an unpicked attribute");
    let item = vis[pos];
    let name = p.items[item].clone();
    let before = p.picked.clone();
    for _ in 0..pos {
        key(&mut app, KeyCode::Down);
    }
    key(&mut app, KeyCode::Right);
    let p = picker(&app);
    assert_eq!(p.picked, before, "→ must not pick");
    assert_eq!(p.dirs.as_ref().map(|d| d[item]), Some(Dir::Desc));
    press(&mut app, ' ');
    assert!(picker(&app).picked.contains(&item), "Space picks");
    key(&mut app, KeyCode::Enter);
    let q7 = app.project.query("Q7").expect("Q7");
    let last = q7.order.last().expect("an ordering");
    assert_eq!((last.attr.as_str(), last.dir), (name.as_str(), Dir::Desc));
}

#[test]
fn end_and_home_move_in_pickers() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    select_query(&mut app, "Q7");
    press(&mut app, 'o');
    let n = picker(&app).visible().len();
    assert!(n > 2);
    key(&mut app, KeyCode::End);
    assert_eq!(picker(&app).cursor, n - 1);
    key(&mut app, KeyCode::Home);
    assert_eq!(picker(&app).cursor, 0);
    // Letters type to narrow: G is not "last" in a pick list.
    press(&mut app, 'G');
    assert_eq!(picker(&app).filter, "G");
}

fn help_scroll(app: &App) -> usize {
    match app.popups.last() {
        Some(Popup::Help { scroll }) => *scroll,
        _ => panic!("no help open"),
    }
}

#[test]
fn end_g_home_g_scroll_the_help_overlay() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    press(&mut app, '?');
    let top = screen(&app, 120, 40);
    assert!(!top.contains("green / amber / red"), "{top}");
    for end in [KeyCode::End, KeyCode::Char('G')] {
        key(&mut app, end);
        let s = screen(&app, 120, 40);
        assert!(
            s.contains("green / amber / red"),
            "the legend ends the help\n{s}"
        );
        for home in [KeyCode::Home, KeyCode::Char('g')] {
            key(&mut app, end);
            key(&mut app, home);
            assert_eq!(help_scroll(&app), 0);
        }
    }
}

#[test]
fn the_help_names_commands_the_editor_key_and_the_marks() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    press(&mut app, '?');
    let text: String = cqlmodel::tui::popup::confirm::help_lines(&app)
        .iter()
        .map(|l| l.to_string() + "\n")
        .collect();
    assert!(text.contains("Ctrl-S Alt-Enter"), "{text}");
    assert!(text.contains("apply the text"), "{text}");
    assert!(!text.contains("confirm / apply"), "{text}");
    for name in ["query_equality", "next_pane", "pick", "descending", "apply"] {
        assert!(text.contains(name), "{name} missing\n{text}");
    }
    for mark in ["✗0 ⚠0 ·3", "7e 9q 9t", "an entry point", "a key attribute"] {
        assert!(text.contains(mark), "{mark} missing\n{text}");
    }
}

#[test]
fn esc_in_a_pane_clears_the_filter() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    select_query(&mut app, "Q7");
    assert_eq!(app.view.panes[Focus::Workflow.index()].filter, "Q7");
    key(&mut app, KeyCode::Esc);
    assert_eq!(app.view.panes[Focus::Workflow.index()].filter, "");
    assert!(app.popups.is_empty());
    let q = app.current_query().expect("the query stays selected");
    assert_eq!(app.project.queries[q].id, "Q7");
}

#[test]
fn entry_point_toggle_says_on_then_off() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    select_query(&mut app, "Q7");
    let was = app.project.workflow.entry.contains(&"Q7".to_string());
    press(&mut app, '*');
    let first = app.status.clone().expect("status").text;
    press(&mut app, '*');
    let second = app.status.clone().expect("status").text;
    let (on, off) = if was {
        (second, first)
    } else {
        (first, second)
    };
    assert!(on.starts_with("Q7 entry point on"), "{on}");
    assert!(off.starts_with("Q7 entry point off"), "{off}");
}

#[test]
fn a_refused_addition_does_not_read_as_done() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    key(&mut app, KeyCode::BackTab);
    assert_eq!(app.focus, Focus::Concept);
    app.reselect(Item::Entity(0));
    let name = app.project.entities[0].name.clone();
    let before = app.project.clone();
    press(&mut app, 'a');
    typed(&mut app, &name);
    key(&mut app, KeyCode::Enter);
    assert_eq!(app.project, before);
    // The dialog stays, with the text and why it was refused under it.
    let Some(Popup::Input(input)) = app.popups.last() else {
        panic!("the name dialog closed on a refusal");
    };
    assert_eq!(input.text(), name);
    let why = input
        .error
        .clone()
        .expect("the reason shows under the field");
    assert!(why.contains(&name), "{why}");
    let shown = screen(&app, 120, 40);
    assert!(shown.contains("✗ "), "{shown}");
    assert!(!shown.contains("added entity"), "{shown}");
    // Correcting the text and Enter adds it.
    typed(&mut app, "2");
    key(&mut app, KeyCode::Enter);
    assert!(app.popups.is_empty());
    assert_eq!(app.project.entities.len(), before.entities.len() + 1);
}

fn input_purpose(app: &App) -> InputPurpose {
    match app.popups.last() {
        Some(Popup::Input(i)) => i.purpose.clone(),
        _ => panic!("no input open"),
    }
}

#[test]
fn a_adds_the_row_kind_and_plus_adds_attributes() {
    use cqlmodel::model::resolve::NodeId;
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    key(&mut app, KeyCode::BackTab);
    let cases = [
        (Item::Entity(0), InputPurpose::AddEntity),
        (
            Item::Attribute(0, 1),
            InputPurpose::AddAttribute(NodeId::Entity(0)),
        ),
    ];
    for (item, want) in cases {
        app.reselect(item);
        press(&mut app, 'a');
        assert_eq!(input_purpose(&app), want, "a on {item:?}");
        key(&mut app, KeyCode::Esc);
        assert!(app.popups.is_empty());
    }
    // On a relationship, `a` starts picking a new one's ends.
    app.reselect(Item::Relationship(0));
    press(&mut app, 'a');
    assert!(matches!(
        &app.popups[..],
        [Popup::Picker(p)] if p.purpose == cqlmodel::tui::popup::Pick::Relationship(vec![])
    ));
    key(&mut app, KeyCode::Esc);
    for (item, owner) in [
        (Item::Entity(0), NodeId::Entity(0)),
        (Item::Relationship(0), NodeId::Rel(0)),
    ] {
        app.reselect(item);
        press(&mut app, '+');
        assert_eq!(input_purpose(&app), InputPurpose::AddAttribute(owner));
        key(&mut app, KeyCode::Esc);
    }
}

#[test]
fn popup_keys_and_footers_follow_rebinding() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    let mut o = BTreeMap::new();
    o.insert("cancel".to_string(), vec!["ctrl-g".to_string()]);
    o.insert("picker.end".to_string(), vec!["f9".to_string()]);
    let (km, errors) = Keymap::with_overrides(&o);
    assert!(errors.is_empty(), "{errors:?}");
    app.settings.keymap = km;
    select_query(&mut app, "Q7");
    press(&mut app, 'o');
    let s = screen(&app, 140, 40);
    assert!(s.contains("Ctrl-G cancel"), "{s}");
    assert!(!s.contains("Esc cancel"), "{s}");
    key(&mut app, KeyCode::Esc);
    assert!(!app.popups.is_empty(), "Esc no longer cancels");
    key(&mut app, KeyCode::F(9));
    assert_eq!(picker(&app).cursor, picker(&app).visible().len() - 1);
    key(&mut app, KeyCode::Home);
    key(&mut app, KeyCode::End);
    assert_eq!(picker(&app).cursor, 0, "End is unbound in pick lists now");
    handle_event(
        &mut app,
        Event::Key(KeyEvent::new_with_kind(
            KeyCode::Char('g'),
            KeyModifiers::CONTROL,
            KeyEventKind::Press,
        )),
    );
    assert!(app.popups.is_empty());
}

#[test]
fn popup_scopes_do_not_fall_back_to_global_keys() {
    let km = Keymap::default();
    let q = KeyEvent::new_with_kind(KeyCode::Char('q'), KeyModifiers::NONE, KeyEventKind::Press);
    assert_eq!(km.lookup(Scope::Concept, &q), Some(Command::Quit));
    assert_eq!(km.lookup(Scope::Picker, &q), None, "q types in pickers");
    assert_eq!(km.lookup(Scope::Help, &q), Some(Command::Cancel));
    assert_eq!(
        km.key_for(Scope::Editor, Command::Apply)
            .map(|k| k.to_string()),
        Some("Ctrl-S".into())
    );
    for s in Scope::ALL.into_iter().filter(|s| s.is_popup()) {
        assert!(
            km.bindings.iter().any(|b| b.scope == s),
            "{} has no bindings",
            s.title()
        );
    }
}

/// Rows of the Tables pane at a width: every box's top line ends where its
/// bottom line does (the right edge of the box is the pane's).
#[test]
fn table_boxes_keep_their_right_edge_from_60_to_200_columns() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    app.set_focus(Focus::Tables);
    for w in 60..=200u16 {
        let s = screen(&app, w, 50);
        let tops: Vec<&str> = s.lines().filter(|l| l.contains('┌')).collect();
        let ends: Vec<&str> = s.lines().filter(|l| l.contains('└')).collect();
        assert!(!tops.is_empty(), "no table box at width {w}\n{s}");
        let right = |l: &str| l.trim_end().chars().count();
        let edge = ends.iter().map(|l| right(l)).max().unwrap_or(0);
        for t in &tops {
            assert_eq!(right(t), edge, "width {w}: box top misses the edge\n{s}");
        }
        for e in &ends {
            assert_eq!(right(e), edge, "width {w}: box bottom misses the edge\n{s}");
        }
    }
}

#[test]
fn empty_list_hints_name_the_keys_as_bound() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let fresh = |tmp: &Path| start(Launch::New(tmp.join("m.cqlm.ron")), dirs(tmp)).expect("start");
    let s = screen(&fresh(tmp.path()), 140, 40);
    assert!(s.contains("no entities yet: press a here"), "{s}");
    assert!(s.contains("no queries yet: press a"), "{s}");

    // A config that adds with `n` in the conceptual pane and `Ctrl-N` in
    // the workflow pane: the hints say so, and the keys do it.
    std::fs::create_dir_all(tmp.path().join("config")).expect("config dir");
    std::fs::write(
        tmp.path().join("config/config.ron"),
        r#"(keys: {"concept.add": ["n"], "workflow.add": ["ctrl-n"]})"#,
    )
    .expect("write config");
    let mut app = fresh(tmp.path());
    let s = screen(&app, 140, 40);
    assert!(s.contains("no entities yet: press n here"), "{s}");
    assert!(s.contains("no queries yet: press Ctrl-N"), "{s}");
    assert!(!s.contains("press a"), "{s}");
    app.set_focus(Focus::Concept);
    press(&mut app, 'n');
    assert!(
        matches!(app.popups.last(), Some(Popup::Input(_))),
        "n adds an entity"
    );
}

/// After `End`, each `↑` moves the selection one row up and the view
/// follows it without ever scrolling the other way (it used to jump down a
/// row on reaching a table's header).
#[test]
fn up_after_end_moves_one_row_and_keeps_the_view_steady() {
    let tmp = tempfile::tempdir().expect("tempdir");
    for (w, h) in [(160u16, 30u16), (80, 24)] {
        let mut app = hotel(tmp.path());
        for f in [Focus::Concept, Focus::Workflow, Focus::Tables] {
            app.set_focus(f);
            screen(&app, w, h);
            key(&mut app, KeyCode::End);
            let shown = screen(&app, w, h);
            let selectable: Vec<bool> = app
                .list_rows(f)
                .iter()
                .map(cqlmodel::tui::app::Row::selectable)
                .collect();
            let st = &app.view.panes[f.index()];
            let last = (0..selectable.len()).rev().find(|&i| selectable[i]);
            assert_eq!(Some(st.selected), last, "{f:?}: End selects the last row");
            if f == Focus::Tables {
                // The last box's bottom edge shows with its estimate.
                let pane_bottom = shown
                    .lines()
                    .rfind(|l| l.contains("rows/part") || l.contains("└─"))
                    .unwrap_or("");
                assert!(pane_bottom.contains("└─"), "{w}x{h}:\n{shown}");
            }
            let (mut sel, mut off) = (st.selected, st.offset.get());
            while sel > 0 {
                key(&mut app, KeyCode::Up);
                screen(&app, w, h);
                let st = &app.view.panes[f.index()];
                let want = (0..sel).rev().find(|&i| selectable[i]);
                let Some(want) = want else { break };
                assert_eq!(st.selected, want, "{f:?} {w}x{h}: ↑ moves one row");
                let now = st.offset.get();
                assert!(
                    now <= off,
                    "{f:?} {w}x{h}: ↑ to row {want} scrolled the view down ({off} → {now})"
                );
                assert!(
                    now <= want && want < now + h as usize,
                    "{f:?}: row {want} hidden"
                );
                (sel, off) = (want, now);
            }
        }
    }
}
