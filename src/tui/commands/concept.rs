//! Commands of the Conceptual pane: adding entities, attributes and
//! relationships, folding entities, and the figures dialog.

use super::items::edit_text;
use crate::edit::Item;
use crate::model::resolve::NodeId;
use crate::model::types::Native;
use crate::tui::app::{App, Row};
use crate::tui::focus::Focus;
use crate::tui::labels::item_label;
use crate::tui::popup::picker::HOLE;
use crate::tui::popup::{Form, Input, InputPurpose, Pick, Picker, Popup};

/// Folds (`left`) or unfolds the selected entity's attributes.
pub(crate) fn fold(app: &mut App, left: bool) {
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
pub(crate) fn add_attribute(app: &mut App) {
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

/// What `a` adds on the selected row (the status-bar hint).
pub(crate) fn add_kind(app: &App) -> &'static str {
    match app.selected_row(Focus::Concept) {
        None | Some(Row::EntitiesHeading | Row::Empty(_) | Row::Entity(_)) => "add entity",
        Some(Row::RelationshipsHeading | Row::Relationship(_)) => "add relationship",
        Some(Row::Attribute(..) | Row::RelAttribute(..)) => "add attribute",
        Some(_) => "add",
    }
}

/// `E`: a new entity, whatever row is selected.
pub(crate) fn add_entity(app: &mut App) {
    if app.focus != Focus::Concept {
        return;
    }
    app.popups.push(Popup::Input(entity_input()));
}

fn entity_input() -> Input {
    Input::new(
        "New entity",
        "name (it gets a uuid key you can rename)",
        "",
        InputPurpose::AddEntity,
    )
}

/// `a` adds another item of the kind under the cursor: an entity on an
/// entity, an attribute on an attribute, a relationship on a relationship
/// (`+` adds attributes to entities and relationships).
pub fn add(app: &mut App) {
    let row = app.selected_row(Focus::Concept).cloned();
    let input = match row {
        None | Some(Row::EntitiesHeading | Row::Empty(_) | Row::Entity(_)) => entity_input(),
        Some(Row::RelationshipsHeading | Row::Relationship(_)) => {
            return relationship_step(app, vec![]);
        }
        Some(Row::Attribute(e, _)) => attribute_input(app, NodeId::Entity(e)),
        Some(Row::RelAttribute(r, _)) => attribute_input(app, NodeId::Rel(r)),
        Some(_) => return,
    };
    app.popups.push(Popup::Input(input));
}

/// The figures dialog of the selected entity, attribute or relationship.
pub(crate) fn numbers_form(app: &mut App) {
    let Some(item) = app.selected_item() else {
        return app.info("select an entity, attribute or relationship");
    };
    let label = item_label(app, item);
    match Form::numbers(&app.project, item, &label) {
        Some(f) => app.popups.push(Popup::Form(f)),
        None => app.info("only entities, attributes and relationships have figures"),
    }
}

/// `y`: the selected attribute's type, picked.
pub(crate) fn pick_type(app: &mut App) {
    let (owner, a) = match app.selected_item() {
        Some(Item::Attribute(e, a)) => (NodeId::Entity(e), a),
        Some(Item::RelAttribute(r, a)) => (NodeId::Rel(r), a),
        _ => return app.error("select an attribute to pick its type"),
    };
    type_picker(app, owner, a, HOLE.to_string());
}

/// The types an attribute's type (or a collection's part) can be: CQL's
/// native types and the project's UDTs (frozen); at the top also the
/// collections, whose parts are picked next.
fn type_choices(app: &App, top: bool) -> Vec<String> {
    let mut items: Vec<String> = Native::ALL.iter().map(|n| n.name().to_string()).collect();
    items.extend(
        app.project
            .types
            .iter()
            .map(|t| format!("frozen<{}>", t.name)),
    );
    if top {
        items.extend([
            format!("list<{HOLE}>"),
            format!("set<{HOLE}>"),
            format!("map<{HOLE}, {HOLE}>"),
        ]);
    }
    items
}

/// The type picker for the first hole of `template` (`…` at first).
pub(crate) fn type_picker(app: &mut App, owner: NodeId, a: usize, template: String) {
    let attrs = match owner {
        NodeId::Entity(e) => app.project.entities.get(e).map(|x| &x.attributes),
        NodeId::Rel(r) => app.project.relationships.get(r).map(|x| &x.attributes),
    };
    let Some(attr) = attrs.and_then(|l| l.get(a)) else {
        return app.error("that attribute no longer exists");
    };
    let top = template == HOLE;
    let current = attr.ty.to_string();
    let title = if top {
        format!("Type of {} (now {current})", attr.name)
    } else {
        format!("Type of {}: {template}", attr.name)
    };
    let items = type_choices(app, top);
    let mut pk = Picker::single(&title, items, Pick::Type(owner, a, template));
    if top {
        pk.cursor = pk.items.iter().position(|i| *i == current).unwrap_or(0);
    }
    app.popups.push(Popup::Picker(pk));
}

/// `i`: the selected entity's key attributes, picked in order.
pub(crate) fn pick_key(app: &mut App) {
    let Some(Item::Entity(e) | Item::Attribute(e, _)) = app.selected_item() else {
        return app.error("select an entity to pick its key");
    };
    let entity = &app.project.entities[e];
    let items: Vec<String> = entity.attributes.iter().map(|a| a.name.clone()).collect();
    let picked = entity
        .key
        .iter()
        .filter_map(|k| items.iter().position(|i| i == k))
        .collect();
    let title = format!(
        "Key of {} — in pick order (several: composite)",
        entity.name
    );
    app.popups.push(Popup::Picker(Picker::multi(
        &title,
        items,
        picked,
        Pick::Key(e),
    )));
}

/// `o`: the relationships that identify the selected entity, ticked in
/// order (the first is its owner). Offered: those that can, the 1:n
/// relationships whose many side it is and the 1:1 ones it takes part in.
pub(crate) fn pick_owners(app: &mut App) {
    use crate::model::Cardinality;
    let Some(Item::Entity(e) | Item::Attribute(e, _)) = app.selected_item() else {
        return app.error("select an entity to pick what identifies it");
    };
    let entity = &app.project.entities[e];
    let items: Vec<String> = app
        .project
        .relationships
        .iter()
        .filter(|r| match r.cardinality {
            Cardinality::OneToMany => r.to == entity.name && r.from != entity.name,
            Cardinality::OneToOne => r.to == entity.name || r.from == entity.name,
            Cardinality::ManyToMany => false,
        })
        .map(|r| format!("{}: {} → {}", r.name, r.from, r.to))
        .collect();
    if items.is_empty() {
        return app.error(format!(
            "no relationship can identify {}: add a 1:n relationship to it first",
            entity.name
        ));
    }
    let name_of = |i: &String| i.split(':').next().unwrap_or_default().to_string();
    let current: Vec<&String> = entity.owner.iter().chain(entity.owners.iter()).collect();
    let picked = current
        .iter()
        .filter_map(|c| items.iter().position(|i| name_of(i) == **c))
        .collect();
    let title = format!(
        "Identified by — {} (first picked: its owner; none: strong)",
        entity.name
    );
    app.popups.push(Popup::Picker(Picker::multi(
        &title,
        items,
        picked,
        Pick::Owners(e),
    )));
}

/// The cardinalities a new relationship can have, as the picker lists
/// them (the first word is the cardinality).
fn cardinalities(from: &str, to: &str) -> Vec<String> {
    vec![
        format!("1:n  one {from} has many {to}"),
        format!("1:1  one {from} has one {to}"),
        format!("m:n  many {from} have many {to}"),
    ]
}

/// The next step of a new relationship: pick its from entity, its to
/// entity, its cardinality, then type its name.
pub(crate) fn relationship_step(app: &mut App, parts: Vec<String>) {
    let names: Vec<String> = app
        .project
        .entities
        .iter()
        .map(|e| e.name.clone())
        .collect();
    if names.is_empty() {
        return app.error("add an entity first: a relationship joins two entities");
    }
    match &parts[..] {
        [] => {
            let mut pk = Picker::single(
                "New relationship — from which entity?",
                names,
                Pick::Relationship(parts),
            );
            if let Some(Item::Entity(e) | Item::Attribute(e, _)) = app.selected_item() {
                pk.cursor = e;
            }
            app.popups.push(Popup::Picker(pk));
        }
        [from] => {
            let title = format!("New relationship {from} → which entity?");
            app.popups.push(Popup::Picker(Picker::single(
                &title,
                names,
                Pick::Relationship(parts),
            )));
        }
        [from, to] => {
            let title = format!("New relationship {from} → {to}: how many?");
            let items = cardinalities(from, to);
            app.popups.push(Popup::Picker(Picker::single(
                &title,
                items,
                Pick::Relationship(parts),
            )));
        }
        [from, to, card, ..] => {
            let title = format!("New relationship {from} {card} {to}");
            app.popups.push(Popup::Input(Input::new(
                &title,
                "its name, e.g. has_rooms",
                "",
                InputPurpose::NameRelationship(from.clone(), card.clone(), to.clone()),
            )));
        }
    }
}
