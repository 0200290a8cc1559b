//! Commands of the bottom pane: its views (diagnostics, CQL, SELECT,
//! notes), scrolling, a diagnostic's detail, fix and subject, and review
//! notes.

use crate::edit::Item;
use crate::tui::app::{App, BottomView};
use crate::tui::diagnostics_filter as filter;
use crate::tui::focus::Focus;
use crate::tui::intent::Action;
use crate::tui::keymap::Command;
use crate::tui::labels::target_label;
use crate::tui::popup::{DiagnosticDetail, Input, InputPurpose, Popup};

/// Scrolls the bottom pane (it has no rows of its own).
pub fn scroll(app: &mut App, delta: isize) {
    if app.view.bottom == BottomView::Diagnostics && !filter::text(app).trim().is_empty() {
        return filter::step(app, delta);
    }
    app.view.bottom_scroll = app
        .view
        .bottom_scroll
        .saturating_add_signed(delta)
        .min(1_000_000);
}

/// The next (or previous) view of the bottom pane.
pub(crate) fn next_view(app: &mut App, forward: bool) {
    let shown = BottomView::shown(app);
    let len = shown.len();
    let i = shown
        .iter()
        .position(|v| *v == app.view.bottom)
        .unwrap_or(0);
    let n = if forward {
        (i + 1) % len
    } else {
        (i + len - 1) % len
    };
    app.view.bottom = shown[n];
    app.view.bottom_scroll = 0;
}

/// One of the view commands (`1`–`5`).
pub fn show(app: &mut App, c: Command) {
    app.view.bottom = match c {
        Command::ViewDiagnostics => BottomView::Diagnostics,
        Command::ViewCql => BottomView::Cql,
        Command::ViewSelect => BottomView::Select,
        Command::ViewCost => BottomView::Cost,
        _ => BottomView::Notes,
    };
    app.view.bottom_scroll = 0;
}

/// The CQL view between the selected table and the whole keyspace.
pub(crate) fn toggle_cql_scope(app: &mut App) {
    app.view.cql_all = !app.view.cql_all;
    app.view.bottom = BottomView::Cql;
    app.view.bottom_scroll = 0;
}

/// Enter on a diagnostic: its detail view.
pub fn open(app: &mut App) {
    if app.view.bottom == BottomView::Diagnostics {
        if let Some(index) = filter::current(app) {
            app.popups
                .push(Popup::Diagnostic(DiagnosticDetail { index, scroll: 0 }));
        }
    }
}

/// Goes to the selected diagnostic's subject.
pub fn jump(app: &mut App) {
    if app.view.bottom == BottomView::Diagnostics {
        jump_to_diagnostic(app);
    } else {
        app.info("this goes to a diagnostic's subject: 1 shows the diagnostics");
    }
}

fn jump_to_diagnostic(app: &mut App) {
    use crate::review::diagnose::Subject;
    let Some(d) = filter::current(app).and_then(|i| app.analysis.diagnostics.get(i)) else {
        return;
    };
    let p = &app.project;
    let m = &app.analysis.model;
    let item = match &d.subject {
        Subject::Entity(n) | Subject::Attribute { item: n, .. } => p
            .entities
            .iter()
            .position(|e| &e.name == n)
            .map(Item::Entity),
        Subject::Relationship(n) => p
            .relationships
            .iter()
            .position(|r| &r.name == n)
            .map(Item::Relationship),
        Subject::Query(q) => p.queries.iter().position(|x| &x.id == q).map(Item::Query),
        Subject::Table(t) | Subject::Column { table: t, .. } => {
            m.tables.iter().position(|x| &x.name == t).map(Item::Table)
        }
        _ => None,
    };
    if let Some(item) = item {
        app.reselect(item);
        let f = match item {
            Item::Query(_) => Focus::Workflow,
            Item::Table(_) => Focus::Tables,
            _ => Focus::Concept,
        };
        app.set_focus(f);
    }
}

/// The one-key fix of the selected diagnostic: its refinement's preview.
pub fn fix(app: &mut App) -> Vec<Action> {
    if app.view.bottom != BottomView::Diagnostics {
        app.info("f fixes the selected diagnostic: 1 shows the diagnostics");
        return vec![];
    }
    let Some(x) = filter::current(app).and_then(|i| app.analysis.diagnostics.get(i)) else {
        app.info("no diagnostics: nothing to fix");
        return vec![];
    };
    if let Some(r) = x.refinement.as_deref() {
        vec![Action::PreviewRefinement(r.clone())]
    } else {
        let msg = format!("no one-key fix for [{}]; by hand: {}", x.rule, x.fix());
        app.error(msg);
        vec![]
    }
}

/// A review note on the selected item (its entity, query or table).
pub(crate) fn add_note(app: &mut App) {
    match app.note_target() {
        Some(t) => app.popups.push(Popup::Input(Input::new(
            "Review note",
            &format!("note on {}", target_label(&t)),
            "",
            InputPurpose::AddNote(t),
        ))),
        None => app.error("select an entity, relationship, query or table first"),
    }
}

/// Waives the selected diagnostic: a one-line prompt for the reason, then
/// a waiver in the project (rule, subject, reason). An already waived
/// finding shows its reason to reword.
pub(crate) fn waive(app: &mut App) {
    if app.view.bottom != BottomView::Diagnostics {
        app.info("w waives the selected diagnostic: 1 shows the diagnostics");
        return;
    }
    let d = &app.analysis.diagnostics;
    let Some(x) = d.get(app.view.bottom_scroll.min(d.len().saturating_sub(1))) else {
        app.info("no diagnostics: nothing to waive");
        return;
    };
    if x.rule == crate::review::diagnose::STALE_WAIVER {
        app.error("a stale waiver is removed, not waived: edit the project's waivers");
        return;
    }
    let subject = x.subject.label();
    let prompt = format!("why [{}] does not apply to {subject}", x.rule);
    let reason = x
        .waived
        .as_ref()
        .map_or("", |w| w.reason.as_str())
        .to_string();
    let purpose = InputPurpose::Waive {
        rule: x.rule.to_string(),
        subject,
    };
    app.popups.push(Popup::Input(Input::new(
        "Waive finding",
        &prompt,
        &reason,
        purpose,
    )));
}
