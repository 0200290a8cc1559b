//! The one `update` that applies an intent to the `App`. Keys go to the
//! top popup or, through the keymap, become commands (`commands`); the
//! mouse goes to `mouse`; edits go through `App::apply_edit`. File work is
//! handed back to the run loop as `Effect`s, so `update` never touches the
//! disk and tests drive it directly.

use super::app::{App, Row};
use super::commands;
use super::focus::Focus;
use super::intent::{Action, Effect};
use super::labels;
use super::mouse::mouse;
use super::popup::{Confirm, Outcome, Pick, Picker, Popup};
use crate::edit::{apply_edit, Edit, Item};
use crate::model::resolve::NodeId;
use crossterm::event::KeyEventKind;

/// Applies one action; returns what the shell must do.
pub fn update(app: &mut App, action: Action) -> Vec<Effect> {
    let mut effects = Vec::new();
    let mut queue = std::collections::VecDeque::from([action]);
    let mut guard = 0;
    while let Some(a) = queue.pop_front() {
        guard += 1;
        if guard > 64 {
            break;
        }
        queue.extend(step(app, a, &mut effects));
    }
    effects
}

fn step(app: &mut App, action: Action, effects: &mut Vec<Effect>) -> Vec<Action> {
    match action {
        Action::Key(key) => {
            if key.kind != KeyEventKind::Press {
                return vec![];
            }
            if let Some(mut top) = app.popups.pop() {
                let outcome = top.handle(app, key);
                return match outcome {
                    Outcome::Keep => {
                        app.popups.push(top);
                        vec![]
                    }
                    Outcome::Run(actions) => {
                        app.popups.push(top);
                        actions
                    }
                    Outcome::Cancel => vec![],
                    Outcome::Done(actions) => actions,
                };
            }
            match app.settings.keymap.lookup(app.focus.scope(), &key) {
                Some(c) => vec![Action::Command(c)],
                None => vec![],
            }
        }
        Action::Mouse(m) => {
            mouse(app, m);
            vec![]
        }
        Action::Command(c) => commands::run(app, c),
        Action::Edit(e) => {
            let label = labels::edit_label(app, &e);
            if app.apply_edit(&label, e.may_be_noop(), |p| apply_edit(p, &e)) {
                select_added(app, &e);
            }
            vec![]
        }
        Action::PreviewRefinement(r) => {
            app.preview_refinement(&r);
            vec![]
        }
        Action::CommitRefinement(change) => {
            let (r, next) = *change;
            app.apply_edit(&r.label(), false, |p| {
                *p = next;
                Ok(())
            });
            vec![]
        }
        Action::PickRowsForNewQuery(text) => {
            commands::workflow::pick_rows_for_new_query(app, text);
            vec![]
        }
        Action::SetFilter(Focus::Bottom, text) => {
            super::diagnostics_filter::set(app, text);
            vec![]
        }
        Action::SetFilter(f, text) => {
            let keep = app.selected_row(f).and_then(Row::item);
            app.view.panes[f.index()].filter = text;
            app.rebuild_rows();
            match keep {
                Some(item) if app.list_rows(f).iter().any(|r| r.item() == Some(item)) => {
                    app.reselect(item);
                }
                _ => app.select_first_selectable(f),
            }
            app.refresh_links();
            vec![]
        }
        Action::Save { path, force } => {
            effects.push(Effect::Save { path, force });
            vec![]
        }
        Action::Open(p) => {
            if app.dirty {
                app.popups.push(Popup::Confirm(Confirm::new(
                    "Unsaved changes",
                    "Open another file and lose the unsaved changes?",
                    vec![Action::OpenAnyway(p)],
                )));
            } else {
                effects.push(Effect::Open(p));
            }
            vec![]
        }
        Action::OpenAnyway(p) => {
            effects.push(Effect::Open(p));
            vec![]
        }
        Action::Export(kind, path) => {
            effects.push(Effect::Export {
                kind,
                path,
                force: false,
            });
            vec![]
        }
        Action::ExportOver(kind, path) => {
            effects.push(Effect::Export {
                kind,
                path,
                force: true,
            });
            vec![]
        }
        Action::SaveAndQuit(path) => {
            effects.push(Effect::Save { path, force: false });
            effects.push(Effect::QuitIfSaved);
            vec![]
        }
        Action::Quit { force } => {
            if force || !app.dirty {
                effects.push(Effect::Quit);
            } else {
                app.popups.push(Popup::Confirm(Confirm::new(
                    "Unsaved changes",
                    "Quit and lose the unsaved changes? (:w saves)",
                    vec![Action::Quit { force: true }],
                )));
            }
            vec![]
        }
        Action::OpenSample(i) => {
            open_sample(app, i);
            vec![]
        }
        Action::EditSettings => {
            if let Some(e) =
                crate::tui::popup::Editor::new(&app.project, crate::edit::EditTarget::Settings)
            {
                app.popups.push(Popup::Editor(Box::new(e)));
            }
            vec![]
        }
        Action::Recent => {
            let items: Vec<String> = app
                .settings
                .dirs
                .recent()
                .iter()
                .map(|p| p.display().to_string())
                .collect();
            if items.is_empty() {
                app.info("no recent files yet");
            } else {
                app.popups.push(Popup::Picker(Picker::single(
                    "Recent files",
                    items,
                    Pick::Recent,
                )));
            }
            vec![]
        }
        Action::Message(m) => {
            if !m.is_empty() {
                app.info(m);
            }
            vec![]
        }
        Action::RestoreRecovery(p) => {
            effects.push(Effect::RestoreRecovery(p));
            vec![]
        }
        Action::DiscardRecovery(p) => {
            effects.push(Effect::DiscardRecovery(p));
            vec![]
        }
        Action::FillIn(item) => {
            app.set_focus(Focus::Concept);
            app.reselect(item);
            app.refresh_links();
            commands::concept::numbers_form(app);
            vec![]
        }
        Action::PickType(owner, a, template) => {
            commands::concept::type_picker(app, owner, a, template);
            vec![]
        }
        Action::PickRelationship(parts) => {
            commands::concept::relationship_step(app, parts);
            vec![]
        }
        Action::Paste(text) => {
            paste(app, &text);
            vec![]
        }
        Action::ListDirectory(dir) => {
            effects.push(Effect::ListDirectory(dir));
            vec![]
        }
        Action::Listed(dir, entries) => {
            if let Some(Popup::Command(c)) = app.popups.last_mut() {
                c.listed(&dir, &entries);
            }
            vec![]
        }
    }
}

/// Pasted text goes into the open text popup; elsewhere it means nothing.
fn paste(app: &mut App, text: &str) {
    match app.popups.last_mut() {
        Some(Popup::Editor(e)) => {
            e.area.insert_str(text);
            e.error = e.check(&app.project).err();
        }
        Some(Popup::Input(i)) => {
            i.area.insert_str(&text.replace(['\n', '\r'], " "));
        }
        _ => {}
    }
}

/// After an addition the new item is selected, so the next key acts on it.
fn select_added(app: &mut App, e: &Edit) {
    let p = &app.project;
    let item = match e {
        Edit::AddEntity(_) => Item::Entity(p.entities.len().saturating_sub(1)),
        Edit::AddAttribute(NodeId::Entity(ei), _) => Item::Attribute(
            *ei,
            p.entities
                .get(*ei)
                .map_or(0, |x| x.attributes.len().saturating_sub(1)),
        ),
        Edit::AddAttribute(NodeId::Rel(ri), _) => Item::RelAttribute(
            *ri,
            p.relationships
                .get(*ri)
                .map_or(0, |x| x.attributes.len().saturating_sub(1)),
        ),
        Edit::AddRelationship(_) => Item::Relationship(p.relationships.len().saturating_sub(1)),
        Edit::AddQuery(..) => Item::Query(p.queries.len().saturating_sub(1)),
        Edit::AddTransition(..) => Item::Transition(p.workflow.transitions.len().saturating_sub(1)),
        _ => return,
    };
    app.reselect(item);
    app.refresh_links();
}

/// A bundled sample as an unsaved copy (`:w FILE` keeps it).
fn open_sample(app: &mut App, i: usize) {
    let Some(sample) = crate::samples::SAMPLES.get(i) else {
        return;
    };
    match crate::model::load::from_str(sample.text) {
        Ok(p) => {
            app.replace_project(p, None, false);
            app.info(format!(
                "opened the sample {} (an unsaved copy: :w FILE keeps it)",
                sample.file
            ));
        }
        Err(e) => app.error(format!("the sample {} does not load: {e}", sample.file)),
    }
}
