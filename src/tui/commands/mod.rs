//! What a command from the binding table does in the panes. Commands that
//! mean the same everywhere (quit, save, undo, moving, filtering, help) are
//! here; the rest go to the module of the pane they belong to, or to
//! `items` for what acts on the selected item in any list pane.

pub mod bottom;
pub mod concept;
pub mod items;
pub mod tables;
pub mod workflow;

use super::app::{App, BottomView};
use super::focus::Focus;
use super::intent::Action;
use super::keymap::{Command, Scope};
use super::popup::{self, Input, InputPurpose, Popup};

/// What `a` adds in the focused pane on the selected row, for the
/// status-bar hint (`a add attribute` on an attribute row).
pub fn add_hint(app: &App) -> &'static str {
    match app.focus {
        Focus::Concept => concept::add_kind(app),
        Focus::Workflow => "add query",
        Focus::Tables => "add",
        Focus::Bottom => "add note",
    }
}

/// Runs a command in the focused pane; returns the actions it leads to.
pub fn run(app: &mut App, c: Command) -> Vec<Action> {
    use Command as C;
    let focus = app.focus;
    match c {
        C::Quit => return vec![Action::Quit { force: false }],
        C::Save => {
            return vec![Action::Save {
                path: None,
                force: false,
            }]
        }
        C::Undo => app.undo(),
        C::Redo => app.redo(),
        C::NextPane | C::PrevPane => {
            let i = focus.index();
            let n = if c == C::NextPane {
                (i + 1) % 4
            } else {
                (i + 3) % 4
            };
            app.set_focus(Focus::ALL[n]);
        }
        C::Up | C::Down | C::PageUp | C::PageDown | C::Top | C::End => {
            let delta: isize = match c {
                C::Up => -1,
                C::Down => 1,
                C::PageUp => -10,
                C::PageDown => 10,
                C::Top => -1_000_000,
                _ => 1_000_000,
            };
            if focus == Focus::Bottom {
                bottom::scroll(app, delta);
            } else {
                app.move_selection(focus, delta);
            }
        }
        C::Left | C::Right => {
            let left = c == C::Left;
            match focus {
                Focus::Bottom => bottom::next_view(app, !left),
                Focus::Concept => concept::fold(app, left),
                Focus::Tables => tables::fold(app, left),
                Focus::Workflow => {}
            }
        }
        C::Open => {
            return match focus {
                Focus::Concept => {
                    concept::open(app);
                    vec![]
                }
                Focus::Workflow => {
                    workflow::open(app);
                    vec![]
                }
                Focus::Tables => {
                    tables::open(app);
                    vec![]
                }
                Focus::Bottom => {
                    bottom::open(app);
                    vec![]
                }
            }
        }
        C::Add => {
            return match focus {
                Focus::Concept => {
                    concept::add(app);
                    vec![]
                }
                Focus::Workflow => {
                    workflow::add(app);
                    vec![]
                }
                Focus::Tables => {
                    app.info("tables follow from queries: add a query in the Workflow pane");
                    vec![]
                }
                Focus::Bottom => vec![Action::Command(Command::AddNote)],
            }
        }
        C::Delete => items::delete(app),
        C::Rename => items::rename(app),
        C::EditText => items::edit_text(app),
        C::Numbers => concept::numbers_form(app),
        C::Type => concept::pick_type(app),
        C::Key => concept::pick_key(app),
        C::Owners => concept::pick_owners(app),
        C::Limit => workflow::limit(app),
        C::Feeds => workflow::pick_feeds(app),
        C::MoveUp | C::MoveDown => items::move_item(app, c == C::MoveUp),
        C::Filter => {
            if focus == Focus::Bottom && app.view.bottom != BottomView::Diagnostics {
                app.info("/ narrows the diagnostics: 1 shows them");
            } else {
                let current = app.view.panes[focus.index()].filter.clone();
                let keep = app.settings.keymap.key_name(Scope::Input, Command::Accept);
                let clear = app.settings.keymap.key_name(Scope::Input, Command::Cancel);
                let prompt = if focus == Focus::Bottom {
                    format!("rule, severity or subject words (!word hides) · {keep} keeps · {clear} clears")
                } else {
                    format!("type to narrow the list · {keep} keeps it · {clear} clears")
                };
                let title = if focus == Focus::Bottom {
                    "Filter the diagnostics".to_string()
                } else {
                    format!("Filter {}", focus.title())
                };
                app.popups.push(Popup::Input(Input::new(
                    &title,
                    &prompt,
                    &current,
                    InputPurpose::Filter(focus),
                )));
            }
        }
        C::ClearFilter => {
            if !app.view.panes[focus.index()].filter.is_empty() {
                return vec![Action::SetFilter(focus, String::new())];
            }
        }
        C::CommandLine => app.popups.push(Popup::Command(popup::CommandLine::new())),
        C::Help => app.popups.push(Popup::Help { scroll: 0 }),
        C::ViewDiagnostics | C::ViewCql | C::ViewSelect | C::ViewNotes | C::ViewCost => {
            bottom::show(app, c);
        }
        C::CqlScope => bottom::toggle_cql_scope(app),
        C::Jump => bottom::jump(app),
        C::Fix => return bottom::fix(app),
        C::AddNote => bottom::add_note(app),
        C::Waive => bottom::waive(app),
        C::Rows => workflow::rows(app),
        C::Equality => workflow::pick_attributes(app, true),
        C::Returns => workflow::pick_attributes(app, false),
        C::Range => workflow::range(app),
        C::Order => workflow::order(app),
        C::AddTransition => workflow::add_transition(app),
        C::ToggleEntry => return workflow::toggle_entry(app),
        C::AddAttribute => concept::add_attribute(app),
        C::AddEntity => concept::add_entity(app),
        C::PinName => tables::pin_name(app),
        C::Bucket => tables::refine_menu(app, Some(crate::edit::refine::menu::Kind::Bucket)),
        C::Shard => tables::refine_menu(app, Some(crate::edit::refine::menu::Kind::Shard)),
        C::Refine => tables::refine_menu(app, None),
        C::Alternatives => tables::alternatives(app),
        C::Flip => return tables::flip(app),
        C::Merge => tables::merge(app),
        C::Split => return tables::split(app),
        // Only views close and popups answer: these mean nothing in the
        // panes.
        C::Close
        | C::GoToSubject
        | C::StartEmpty
        | C::Cancel
        | C::Accept
        | C::Yes
        | C::No
        | C::Pick
        | C::Ascending
        | C::Descending
        | C::Apply
        | C::Complete
        | C::UseDerived => {}
    }
    vec![]
}
