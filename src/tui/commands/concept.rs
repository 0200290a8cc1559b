//! Commands of the Conceptual pane: adding entities, attributes and
//! relationships, folding entities, and the figures dialog.

use super::items::edit_text;
use crate::edit::Item;
use crate::model::resolve::NodeId;
use crate::tui::app::{App, Row};
use crate::tui::focus::Focus;
use crate::tui::labels::item_label;
use crate::tui::popup::{Form, Input, InputPurpose, Popup};

/// Folds (`left`) or unfolds the selected entity's attributes.
pub fn fold(app: &mut App, left: bool) {
    if let Some(Item::Entity(e) | Item::Attribute(e, _)) = app.selected_item() {
        let name = app.project.entities[e].name.clone();
        if left {
            app.view.collapsed_entities.insert(name);
        } else {
            app.view.collapsed_entities.remove(&name);
        }
        app.rebuild_rows();
        app.reselect(Item::Entity(e));
    }
}

/// Enter: folds an entity, edits anything else as text, adds on an empty
/// row.
pub fn open(app: &mut App) {
    match app.selected_item() {
        Some(Item::Entity(e)) => {
            let name = app.project.entities[e].name.clone();
            if !app.view.collapsed_entities.remove(&name) {
                app.view.collapsed_entities.insert(name);
            }
            app.rebuild_rows();
            app.reselect(Item::Entity(e));
        }
        Some(_) => edit_text(app),
        None => add(app),
    }
}

/// The one-line input that adds an attribute to an entity or relationship.
fn attribute_input(app: &App, owner: NodeId) -> Input {
    let name = match owner {
        NodeId::Entity(e) => app.project.entities.get(e).map(|x| x.name.as_str()),
        NodeId::Rel(r) => app.project.relationships.get(r).map(|x| x.name.as_str()),
    };
    Input::new(
        &format!("New attribute of {}", name.unwrap_or("?")),
        "name type   (e.g. phone text, rate decimal, emails set<text>)",
        "",
        InputPurpose::AddAttribute(owner),
    )
}

/// `+`: an attribute of the entity or relationship under the cursor (or
/// of the attribute's owner).
pub fn add_attribute(app: &mut App) {
    if app.focus != Focus::Concept {
        return;
    }
    let owner = match app.selected_row(Focus::Concept) {
        Some(Row::Entity(e) | Row::Attribute(e, _)) => NodeId::Entity(*e),
        Some(Row::Relationship(r) | Row::RelAttribute(r, _)) => NodeId::Rel(*r),
        _ => {
            return app.error("select an entity or relationship to add an attribute to");
        }
    };
    let input = attribute_input(app, owner);
    app.popups.push(Popup::Input(input));
}

/// `a` adds another item of the kind under the cursor: an entity on an
/// entity, an attribute on an attribute, a relationship on a relationship
/// (`+` adds attributes to entities and relationships).
pub fn add(app: &mut App) {
    let row = app.selected_row(Focus::Concept).cloned();
    let input = match row {
        None | Some(Row::EntitiesHeading | Row::Empty(_) | Row::Entity(_)) => Input::new(
            "New entity",
            "name (it gets a uuid key you can rename)",
            "",
            InputPurpose::AddEntity,
        ),
        Some(Row::RelationshipsHeading | Row::Relationship(_)) => Input::new(
            "New relationship",
            "name: From 1:n To   (1:1, 1:n or m:n)",
            "",
            InputPurpose::AddRelationship,
        ),
        Some(Row::Attribute(e, _)) => attribute_input(app, NodeId::Entity(e)),
        Some(Row::RelAttribute(r, _)) => attribute_input(app, NodeId::Rel(r)),
        Some(_) => return,
    };
    app.popups.push(Popup::Input(input));
}

/// The figures dialog of the selected entity, attribute or relationship.
pub fn numbers_form(app: &mut App) {
    let Some(item) = app.selected_item() else {
        return app.info("select an entity, attribute or relationship");
    };
    let label = item_label(app, item);
    match Form::numbers(&app.project, item, &label) {
        Some(f) => app.popups.push(Popup::Form(f)),
        None => app.info("only entities, attributes and relationships have figures"),
    }
}
