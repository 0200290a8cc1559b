//! Commands on the selected item in any list pane: delete (saying first
//! why it would be refused and offering the cascade), rename, move, and
//! edit as RON text.

use crate::edit::{self, apply_edit, shifted, Edit, EditTarget, Item};
use crate::model::resolve::NodeId;
use crate::tui::app::App;
use crate::tui::intent::Action;
use crate::tui::labels::item_label;
use crate::tui::popup::{Confirm, Editor, Input, InputPurpose, Popup};

/// Deletes the selected item after asking; an item still in use offers
/// the cascade, with what it takes.
pub fn delete(app: &mut App) {
    let Some(item) = app.selected_item() else {
        return;
    };
    if matches!(item, Item::Table(_) | Item::Column(..)) {
        app.info("tables follow from queries: delete the query, or merge the table (m)");
        return;
    }
    let label = item_label(app, item);
    // Say why a delete would be refused before asking, and offer the
    // cascade (with what it takes) as the explicit alternative.
    let Err(why) = edit::would_admit(&app.project, &Edit::Delete(item)) else {
        app.popups.push(Popup::Confirm(Confirm::new(
            "Delete",
            format!("Delete {label}?"),
            vec![Action::Edit(Edit::Delete(item))],
        )));
        return;
    };
    let mut preview = app.project.clone();
    match edit::cascade::delete_with_references(&mut preview, item) {
        Ok(gone) => app.popups.push(Popup::Confirm(Confirm::new(
            "Delete with references",
            format!(
                "{label} is still used: {why}. Delete it together with {}? (y: delete all · n: keep)",
                gone.join(", ")
            ),
            vec![Action::Edit(Edit::DeleteWithReferences(item))],
        ))),
        Err(_) => app.error(format!("cannot delete {label}: {why}")),
    }
}

/// Renames the selected item (a table's name is pinned instead).
pub fn rename(app: &mut App) {
    let Some(item) = app.selected_item() else {
        return;
    };
    let p = &app.project;
    let (current, prompt) = match item {
        Item::Entity(e) => (p.entities[e].name.clone(), "new name (references follow)"),
        Item::Attribute(e, a) => (
            p.entities[e].attributes[a].name.clone(),
            "new name (references follow)",
        ),
        Item::Relationship(r) => (
            p.relationships[r].name.clone(),
            "new name (references follow)",
        ),
        Item::RelAttribute(r, a) => (p.relationships[r].attributes[a].name.clone(), "new name"),
        Item::Query(q) => (
            format!("{} {}", p.queries[q].id, p.queries[q].text),
            "id and sentence (Q3 Find …)",
        ),
        Item::Transition(_) => return app.info("transitions have no name; d deletes, t adds"),
        Item::Table(_) | Item::Column(..) => return super::tables::pin_name(app),
    };
    let title = format!("Rename {}", item_label(app, item));
    app.popups.push(Popup::Input(Input::new(
        &title,
        prompt,
        &current,
        InputPurpose::Rename(item),
    )));
}

/// Moves the selected item up or down among its siblings; the selection
/// follows it.
pub(crate) fn move_item(app: &mut App, up: bool) {
    if let Some(item) = app.selected_item() {
        if app.apply("moved", |p| apply_edit(p, &Edit::Move(item, up))) {
            let moved = shifted(item, up);
            app.reselect(moved);
            app.refresh_links();
        }
    }
}

/// The RON text editor on the selected item (a table's decision).
pub(crate) fn edit_text(app: &mut App) {
    let target = match app.selected_item() {
        Some(Item::Entity(e)) => EditTarget::Entity(e),
        Some(Item::Attribute(e, a)) => EditTarget::Attribute(NodeId::Entity(e), a),
        Some(Item::Relationship(r)) => EditTarget::Relationship(r),
        Some(Item::RelAttribute(r, a)) => EditTarget::Attribute(NodeId::Rel(r), a),
        Some(Item::Query(q)) => EditTarget::Query(q),
        Some(Item::Transition(t)) => EditTarget::Transition(t),
        Some(Item::Table(t) | Item::Column(t, _)) => {
            EditTarget::Decision(app.analysis.model.tables[t].origin.to_string())
        }
        None => return app.info("select an item to edit"),
    };
    match Editor::new(&app.project, target) {
        Some(e) => app.popups.push(Popup::Editor(Box::new(e))),
        None => app.error("that item no longer exists"),
    }
}
