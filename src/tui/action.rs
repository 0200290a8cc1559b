//! Actions and the one `update` that applies them. Keys become commands
//! through the keymap, popups turn their results into actions, and file
//! work is handed back to the shell as effects, so `update` itself never
//! touches the disk and tests can drive it directly.

use super::app::{App, BottomView, Focus, Row};
pub use super::intent::{Action, Effect, ExportKind};
use super::keymap::{Command, Scope};
use super::popup::{
    self, Alternatives, Confirm, DiagnosticDetail, Editor, Form, Info, Input, InputPurpose,
    Outcome, Pick, Picker, Popup, RefinePreview,
};
use crate::derive::{Role, Source};
use crate::edit::{self, shifted, EditTarget, Item};
/// The edit API lives in the core; these names stay for existing callers.
pub use crate::edit::{apply_edit, Edit};
use crate::model::resolve::{Graph, NodeId};
use crate::model::{Dir, Project, Target};
use crate::refine::menu::Kind as RefineKind;
use crossterm::event::{KeyEventKind, MouseButton, MouseEvent, MouseEventKind};

/// How far pickers look for attributes along relationships.
const OFFER_EDGES: usize = 4;

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
            match app.keymap.lookup(app.focus.scope(), &key) {
                Some(c) => vec![Action::Command(c)],
                None => vec![],
            }
        }
        Action::Mouse(m) => {
            mouse(app, m);
            vec![]
        }
        Action::Command(c) => command(app, c),
        Action::Edit(e) => {
            let label = edit_label(app, &e);
            if app.apply_edit(&label, e.may_be_noop(), |p| apply_edit(p, &e)) {
                select_added(app, &e);
            }
            vec![]
        }
        Action::OpenPicker(p) => {
            app.popups.push(Popup::Picker(p));
            vec![]
        }
        Action::PreviewRefinement(r) => {
            let preview = crate::refine::preview(&app.project, &r);
            app.popups.push(Popup::Preview(RefinePreview::new(preview)));
            vec![]
        }
        Action::PickRowsForNewQuery(text) => {
            let items = rows_choices(&app.project);
            if items.is_empty() {
                app.error("add an entity first: a query returns rows of an entity");
                return vec![];
            }
            app.popups.push(Popup::Picker(Picker::single(
                "Its rows are instances of…",
                items,
                Pick::NewQueryRows(text),
            )));
            vec![]
        }
        Action::SetFilter(f, text) => {
            let keep = app.selected_row(f).and_then(Row::item);
            app.panes[f.index()].filter = text;
            app.rebuild_rows();
            match keep {
                Some(item) if app.list_rows(f).iter().any(|r| r.item() == Some(item)) => {
                    app.reselect(item)
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
        Action::Recent => {
            let items: Vec<String> = app
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
            numbers_form(app);
            vec![]
        }
        Action::Paste(text) => {
            paste(app, &text);
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
            i.area.insert_str(text.replace(['\n', '\r'], " "));
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

fn edit_label(app: &App, e: &Edit) -> String {
    let q = |i: &usize| {
        app.project
            .queries
            .get(*i)
            .map_or("?".to_string(), |q| q.id.clone())
    };
    match e {
        Edit::AddEntity(n) => format!("added entity {n}"),
        Edit::AddAttribute(_, s) => format!(
            "added attribute {}",
            s.split_whitespace().next().unwrap_or("")
        ),
        Edit::AddRelationship(s) => format!(
            "added relationship {}",
            s.split(':').next().unwrap_or("").trim()
        ),
        Edit::AddQuery(..) => format!("added {}", edit::next_query_id(&app.project)),
        Edit::Rename(_, n) => format!("renamed to {n}"),
        Edit::Delete(_) => "deleted".into(),
        Edit::DeleteWithReferences(_) => "deleted with the queries using it".into(),
        Edit::Move(_, up) => format!("moved {}", if *up { "up" } else { "down" }),
        Edit::SetRows(i, r) => format!("{} rows: {r}", q(i)),
        Edit::SetEquality(i, _) => format!("{} equality search", q(i)),
        Edit::SetRange(i, _) => format!("{} range search", q(i)),
        Edit::SetOrder(i, _) => format!("{} ordering", q(i)),
        Edit::SetReturns(i, _) => format!("{} returned attributes", q(i)),
        Edit::AddTransition(a, b) => format!("transition {a} → {b}"),
        Edit::ToggleEntry(i) => {
            let on = app
                .project
                .queries
                .get(*i)
                .is_some_and(|x| app.project.workflow.entry.contains(&x.id));
            // The label says what the toggle does, computed before it runs.
            format!("{} entry point {}", q(i), if on { "off" } else { "on" })
        }
        Edit::PinName(_, n) => format!("pinned name {n}"),
        Edit::Refine(r) => r.label(),
        Edit::UseCandidate(q, None) => format!("{q}'s table uses the derived key"),
        Edit::UseCandidate(q, Some(c)) => format!("{q}'s table uses key {c}"),
        Edit::Flip(_, c) => format!("flipped {c}"),
        Edit::Merge(_, into) => format!("merged into {into}'s table"),
        Edit::Split(q) => format!("split {} into own tables", q.join(", ")),
        Edit::Replace(t, _) => format!("edited {}", t.label(&app.project)),
        Edit::AddNote(..) => "added note".into(),
        Edit::SetNumbers(item, _) => format!("figures of {}", item_label(app, *item)),
        Edit::Restore(_) => "restored".into(),
    }
}

fn rows_choices(p: &Project) -> Vec<String> {
    p.entities
        .iter()
        .map(|e| e.name.clone())
        .chain(p.relationships.iter().map(|r| r.name.clone()))
        .collect()
}

/// The query's offered references, with any it already uses kept first so
/// a pick never silently drops them.
fn offered(app: &App, qi: usize, current: &[String]) -> Vec<String> {
    let p = &app.project;
    let Some(q) = p.queries.get(qi) else {
        return vec![];
    };
    let graph = Graph::new(p);
    let mut items: Vec<String> = graph
        .node(&q.rows)
        .map(|root| graph.offered(root, OFFER_EDGES))
        .unwrap_or_default();
    for c in current.iter().rev() {
        if !items.contains(c) {
            items.insert(0, c.clone());
        }
    }
    items
}

fn positions(items: &[String], current: &[String]) -> Vec<usize> {
    current
        .iter()
        .filter_map(|c| items.iter().position(|i| i == c))
        .collect()
}

fn need_query(app: &mut App) -> Option<usize> {
    let q = app.current_query();
    if q.is_none() {
        app.error("select a query first (Workflow pane)");
    }
    q
}

fn command(app: &mut App, c: Command) -> Vec<Action> {
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
                let s = app.bottom_scroll as isize + delta;
                app.bottom_scroll = s.clamp(0, 1_000_000) as usize;
            } else {
                app.move_selection(focus, delta);
            }
        }
        C::Left | C::Right => match focus {
            Focus::Bottom => {
                let i = BottomView::ALL
                    .iter()
                    .position(|v| *v == app.bottom)
                    .unwrap_or(0);
                let n = if c == C::Right {
                    (i + 1) % 4
                } else {
                    (i + 3) % 4
                };
                app.bottom = BottomView::ALL[n];
                app.bottom_scroll = 0;
            }
            Focus::Concept => {
                if let Some(Item::Entity(e) | Item::Attribute(e, _)) = app.selected_item() {
                    let name = app.project.entities[e].name.clone();
                    if c == C::Left {
                        app.collapsed_entities.insert(name);
                    } else {
                        app.collapsed_entities.remove(&name);
                    }
                    app.rebuild_rows();
                    app.reselect(Item::Entity(e));
                }
            }
            Focus::Tables => {
                if let Some(t) = app.current_table() {
                    let name = app.analysis.model.tables[t].name.clone();
                    if c == C::Left {
                        app.collapsed_tables.insert(name);
                    } else {
                        app.collapsed_tables.remove(&name);
                    }
                    app.rebuild_rows();
                    app.reselect(Item::Table(t));
                }
            }
            Focus::Workflow => {}
        },
        C::Open => return open(app),
        C::Add => return add(app),
        C::Delete => delete(app),
        C::Rename => rename(app),
        C::EditText => edit_text(app),
        C::Numbers => numbers_form(app),
        C::MoveUp | C::MoveDown => {
            if let Some(item) = app.selected_item() {
                let up = c == C::MoveUp;
                if app.apply("moved", |p| apply_edit(p, &Edit::Move(item, up))) {
                    let moved = shifted(item, up);
                    app.reselect(moved);
                    app.refresh_links();
                }
            }
        }
        C::Filter => {
            if focus != Focus::Bottom {
                let current = app.panes[focus.index()].filter.clone();
                let keep = app.keymap.key_name(Scope::Input, Command::Accept);
                let clear = app.keymap.key_name(Scope::Input, Command::Cancel);
                app.popups.push(Popup::Input(Input::new(
                    &format!("Filter {}", focus.title()),
                    &format!("type to narrow the list · {keep} keeps it · {clear} clears"),
                    &current,
                    InputPurpose::Filter(focus),
                )));
            }
        }
        C::CommandLine => app.popups.push(Popup::Command(popup::CommandLine::new())),
        C::Help => app.popups.push(Popup::Help { scroll: 0 }),
        C::ViewDiagnostics | C::ViewCql | C::ViewSelect | C::ViewNotes => {
            app.bottom = match c {
                C::ViewDiagnostics => BottomView::Diagnostics,
                C::ViewCql => BottomView::Cql,
                C::ViewSelect => BottomView::Select,
                _ => BottomView::Notes,
            };
            app.bottom_scroll = 0;
        }
        C::Rows => {
            if let Some(q) = need_query(app) {
                let items = rows_choices(&app.project);
                let mut pk = Picker::single("Rows: instances of", items, Pick::Rows(q));
                pk.cursor = pk
                    .items
                    .iter()
                    .position(|i| *i == app.project.queries[q].rows)
                    .unwrap_or(0);
                app.popups.push(Popup::Picker(pk));
            }
        }
        C::Equality | C::Returns => {
            if let Some(q) = need_query(app) {
                let query = &app.project.queries[q];
                let (title, current, purpose) = if c == C::Equality {
                    (
                        "Equality search (=) — in pick order",
                        query.equality.clone(),
                        Pick::Equality(q),
                    )
                } else {
                    (
                        "Returned attributes — in pick order",
                        query.returns.clone(),
                        Pick::Returns(q),
                    )
                };
                let items = offered(app, q, &current);
                let picked = positions(&items, &current);
                app.popups
                    .push(Popup::Picker(Picker::multi(title, items, picked, purpose)));
            }
        }
        C::Range => {
            if let Some(q) = need_query(app) {
                let current: Vec<String> = app.project.queries[q]
                    .range
                    .iter()
                    .map(|r| r.attr.clone())
                    .collect();
                let mut items = offered(app, q, &current);
                items.insert(0, popup::picker::NONE.to_string());
                let mut pk = Picker::single("Range search (<, >, between)", items, Pick::Range(q));
                pk.cursor = current
                    .first()
                    .and_then(|c| pk.items.iter().position(|i| i == c))
                    .unwrap_or(0);
                app.popups.push(Popup::Picker(pk));
            }
        }
        C::Order => {
            if let Some(q) = need_query(app) {
                let order = app.project.queries[q].order.clone();
                let current: Vec<String> = order.iter().map(|o| o.attr.clone()).collect();
                let items = offered(app, q, &current);
                let picked = positions(&items, &current);
                let mut dirs = vec![Dir::Asc; items.len()];
                for o in &order {
                    if let Some(i) = items.iter().position(|x| *x == o.attr) {
                        dirs[i] = o.dir;
                    }
                }
                let mut pk = Picker::multi(
                    "Ordering — ← ascending, → descending",
                    items,
                    picked,
                    Pick::Order(q),
                );
                pk.dirs = Some(dirs);
                app.popups.push(Popup::Picker(pk));
            }
        }
        C::AddTransition => {
            if let Some(q) = need_query(app) {
                let from = app.project.queries[q].id.clone();
                let items: Vec<String> = app
                    .project
                    .queries
                    .iter()
                    .filter(|x| x.id != from)
                    .map(|x| x.id.clone())
                    .collect();
                if items.is_empty() {
                    app.error("add a second query first");
                } else {
                    app.popups.push(Popup::Picker(Picker::single(
                        &format!("Transition {from} → ?"),
                        items,
                        Pick::Transition(from),
                    )));
                }
            }
        }
        C::ToggleEntry => {
            if let Some(q) = need_query(app) {
                return vec![Action::Edit(Edit::ToggleEntry(q))];
            }
        }
        C::PinName => {
            if let Some(t) = app.current_table() {
                let table = &app.analysis.model.tables[t];
                app.popups.push(Popup::Input(Input::new(
                    "Pin the table name",
                    &format!("name for the table of {}", table.origin),
                    &table.name.clone(),
                    InputPurpose::PinName(table.origin.clone()),
                )));
            }
        }
        C::Bucket => refine_menu(app, Some(RefineKind::Bucket)),
        C::Shard => refine_menu(app, Some(RefineKind::Shard)),
        C::Refine => refine_menu(app, None),
        C::Fix => return fix(app),
        // Only views close; the panes have nothing to close.
        C::Close | C::GoToSubject | C::StartEmpty => {}
        C::Jump => {
            if app.bottom == BottomView::Diagnostics {
                jump_to_diagnostic(app);
            } else {
                app.info("this goes to a diagnostic's subject: 1 shows the diagnostics");
            }
        }
        C::Alternatives => alternatives(app),
        C::Flip => match app.selected_item() {
            Some(Item::Column(t, ci)) => {
                let table = &app.analysis.model.tables[t];
                let col = &table.columns[ci];
                if matches!(col.role, Role::Clustering(_)) {
                    return vec![Action::Edit(Edit::Flip(
                        table.origin.clone(),
                        col.name.clone(),
                    ))];
                }
                app.error("only clustering columns (C↑/C↓) have a direction");
            }
            _ => app.error("select a clustering column of a table"),
        },
        C::Merge => {
            if let Some(t) = app.current_table() {
                let table = &app.analysis.model.tables[t];
                let queries = table.queries.clone();
                let items: Vec<String> = app
                    .analysis
                    .model
                    .tables
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| *i != t)
                    .map(|(_, x)| format!("{}  ({})", x.origin, x.name))
                    .collect();
                if items.is_empty() {
                    app.error("there is no other table to merge into");
                } else {
                    app.popups.push(Popup::Picker(Picker::single(
                        &format!("Serve {} from the table of…", queries.join(", ")),
                        items,
                        Pick::Merge(queries),
                    )));
                }
            }
        }
        C::Split => return split(app),
        C::CqlScope => {
            app.cql_all = !app.cql_all;
            app.bottom = BottomView::Cql;
            app.bottom_scroll = 0;
        }
        C::AddAttribute => add_attribute(app),
        C::ClearFilter => {
            if focus != Focus::Bottom && !app.panes[focus.index()].filter.is_empty() {
                return vec![Action::SetFilter(focus, String::new())];
            }
        }
        // Popup commands mean nothing in the panes.
        C::Cancel
        | C::Accept
        | C::Yes
        | C::No
        | C::Pick
        | C::Ascending
        | C::Descending
        | C::Apply
        | C::Complete
        | C::UseDerived => {}
        C::AddNote => match note_target(app) {
            Some(t) => app.popups.push(Popup::Input(Input::new(
                "Review note",
                &format!("note on {}", target_label(&t)),
                "",
                InputPurpose::AddNote(t),
            ))),
            None => app.error("select an entity, relationship, query or table first"),
        },
    }
    vec![]
}

/// The refinements of the selected table (see [`crate::refine::menu`]);
/// choosing one shows its preview.
fn refine_menu(app: &mut App, only: Option<RefineKind>) {
    let Some(t) = app.current_table() else {
        return app.error("select a table first");
    };
    let table = &app.analysis.model.tables[t];
    match crate::refine::menu::menu(&app.project, table, only) {
        Err(why) => app.error(why),
        Ok(menu) => {
            let mut pk = Picker::single(
                &format!(
                    "Refine {} — {} previews",
                    table.name,
                    app.keymap.key_name(Scope::Picker, Command::Accept)
                ),
                menu.labels,
                Pick::Refine(menu.entries),
            );
            pk.cursor = menu.cursor;
            app.popups.push(Popup::Picker(pk));
        }
    }
}

/// The one-key fix of the selected diagnostic: its refinement's preview.
fn fix(app: &mut App) -> Vec<Action> {
    if app.bottom != BottomView::Diagnostics {
        app.info("f fixes the selected diagnostic: 1 shows the diagnostics");
        return vec![];
    }
    let d = &app.analysis.diagnostics;
    let Some(x) = d.get(app.bottom_scroll.min(d.len().saturating_sub(1))) else {
        app.info("no diagnostics: nothing to fix");
        return vec![];
    };
    match x.refinement.clone() {
        Some(r) => vec![Action::PreviewRefinement(r)],
        None => {
            let msg = format!("no one-key fix for [{}]; by hand: {}", x.rule, x.fix);
            app.error(msg);
            vec![]
        }
    }
}

/// The alternatives matrix of the selected table's rows.
fn alternatives(app: &mut App) {
    let Some(q) = app
        .current_table()
        .and_then(|t| app.analysis.model.tables.get(t))
        .map(|t| t.origin.clone())
    else {
        return app.error("select a table first");
    };
    let m = crate::alternatives::matrix(&app.project, &q);
    app.popups.push(Popup::Alternatives(Alternatives::new(m)));
}

/// Gives queries sharing a table their own: the selected query (in the
/// Workflow pane) or every query but the table's origin.
fn split(app: &mut App) -> Vec<Action> {
    let Some(t) = app.current_table() else {
        app.error("select a table or a query first");
        return vec![];
    };
    let table = &app.analysis.model.tables[t];
    let picked = match app.selected_item() {
        Some(Item::Query(_) | Item::Transition(_)) => app
            .current_query()
            .map(|q| app.project.queries[q].id.clone()),
        _ => None,
    };
    let queries: Vec<String> = match picked {
        Some(q) if q != table.origin => vec![q],
        _ => table
            .queries
            .iter()
            .filter(|q| **q != table.origin)
            .cloned()
            .collect(),
    };
    if queries.is_empty() {
        let msg = format!(
            "{} serves only {}: nothing to split",
            table.name, table.origin
        );
        app.info(msg);
        return vec![];
    }
    vec![Action::Edit(Edit::Split(queries))]
}

/// Where an item lands after a move, so the selection follows it.
pub fn note_target(app: &App) -> Option<Target> {
    let p = &app.project;
    Some(match app.selected_item()? {
        Item::Entity(e) | Item::Attribute(e, _) => Target::Entity(p.entities.get(e)?.name.clone()),
        Item::Relationship(r) | Item::RelAttribute(r, _) => {
            Target::Relationship(p.relationships.get(r)?.name.clone())
        }
        Item::Query(_) | Item::Transition(_) => {
            Target::Query(p.queries.get(app.current_query()?)?.id.clone())
        }
        Item::Table(t) | Item::Column(t, _) => {
            Target::Table(app.analysis.model.tables.get(t)?.name.clone())
        }
    })
}

pub fn target_label(t: &Target) -> String {
    match t {
        Target::Entity(n) => format!("entity {n}"),
        Target::Relationship(n) => format!("relationship {n}"),
        Target::Query(n) => format!("query {n}"),
        Target::Table(n) => format!("table {n}"),
    }
}

fn open(app: &mut App) -> Vec<Action> {
    match app.focus {
        Focus::Concept => match app.selected_item() {
            Some(Item::Entity(e)) => {
                let name = app.project.entities[e].name.clone();
                if !app.collapsed_entities.remove(&name) {
                    app.collapsed_entities.insert(name);
                }
                app.rebuild_rows();
                app.reselect(Item::Entity(e));
            }
            Some(_) => edit_text(app),
            None => return add(app),
        },
        Focus::Workflow => {
            if app.current_query().is_some() {
                let items = popup::picker::QUERY_MENU
                    .iter()
                    .map(|(l, _)| l.to_string())
                    .collect();
                app.popups.push(Popup::Picker(Picker::single(
                    "Query",
                    items,
                    Pick::QueryMenu,
                )));
            }
        }
        Focus::Tables => match app.selected_item() {
            Some(Item::Table(t))
                if matches!(app.selected_row(Focus::Tables), Some(Row::Estimate(_))) =>
            {
                assumed_picker(app, t)
            }
            Some(Item::Column(t, ci)) => {
                let table = &app.analysis.model.tables[t];
                let c = &table.columns[ci];
                let mut lines = vec![
                    format!("{} {} {}", c.role.marker(), c.name, c.ty),
                    format!("rule:  {}", c.rule.label()),
                ];
                if !c.why.is_empty() {
                    lines.push(format!("why:   {}", c.why));
                }
                lines.push(format!("query: {}", c.query));
                if let Some(q) = app.project.query(&c.query) {
                    lines.push(format!("       {}", q.text));
                }
                match &c.source {
                    Source::Attr {
                        attribute, flow, ..
                    } => {
                        lines.push(format!("holds: {attribute}"));
                        lines.push(format!("flow:  {}", flow.label()));
                    }
                    Source::Bucket { source, period } => {
                        lines.push(format!("holds: {source} bucketed by {}", period.name()))
                    }
                    Source::Shard { count } => {
                        lines.push(format!("holds: a shard number in 0..{count}"))
                    }
                    Source::Constant => lines.push("holds: a constant (one partition)".into()),
                    Source::Collection { columns } => {
                        lines.push(format!("holds: {}", columns.join(", ")))
                    }
                    Source::Aggregate { .. } => {}
                }
                if let Some(how) = c.source.computation() {
                    lines.push(format!("computed: {how}"));
                }
                app.popups.push(Popup::Info(Info {
                    title: format!("Provenance of {}.{}", table.name, c.name),
                    lines,
                    scroll: 0,
                }));
            }
            Some(Item::Table(t)) => {
                let name = app.analysis.model.tables[t].name.clone();
                if !app.collapsed_tables.remove(&name) {
                    app.collapsed_tables.insert(name);
                }
                app.rebuild_rows();
                app.reselect(Item::Table(t));
            }
            _ => {}
        },
        Focus::Bottom => {
            if app.bottom == BottomView::Diagnostics {
                let d = &app.analysis.diagnostics;
                if !d.is_empty() {
                    let index = app.bottom_scroll.min(d.len() - 1);
                    app.popups
                        .push(Popup::Diagnostic(DiagnosticDetail { index, scroll: 0 }));
                }
            }
        }
    }
    vec![]
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

/// The figures a table's estimate assumed; picking one goes to the item
/// to state it on.
fn assumed_picker(app: &mut App, t: usize) {
    let Some(est) = app.analysis.estimates.get(t) else {
        return;
    };
    if est.defaults.is_empty() {
        return app.info("this estimate rests on stated figures only");
    }
    let notes = est.defaults.clone();
    let items = notes
        .iter()
        .map(|n| crate::edit::numbers::assumed_item(&app.project, n))
        .collect();
    let name = app.analysis.model.tables[t].name.clone();
    app.popups.push(Popup::Picker(Picker::single(
        &format!("Assumed in {name} — Enter goes to state it"),
        notes,
        Pick::Assumed(items),
    )));
}

fn jump_to_diagnostic(app: &mut App) {
    use crate::diagnose::Subject;
    let Some(d) = app.analysis.diagnostics.get(app.bottom_scroll) else {
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
fn add_attribute(app: &mut App) {
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

/// `a` adds another item of the kind under the cursor, everywhere: an
/// entity on an entity, an attribute on an attribute, a relationship on a
/// relationship (`+` adds attributes to entities and relationships).
fn add(app: &mut App) -> Vec<Action> {
    match app.focus {
        Focus::Concept => {
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
                Some(_) => return vec![],
            };
            app.popups.push(Popup::Input(input));
        }
        Focus::Workflow => {
            if app.project.entities.is_empty() && app.project.relationships.is_empty() {
                app.error(
                    "add an entity first (Conceptual pane): a query returns rows of an entity",
                );
                return vec![];
            }
            app.popups.push(Popup::Input(Input::new(
                &format!("New query {}", edit::next_query_id(&app.project)),
                "what it answers, e.g. Find hotels near a given point of interest",
                "",
                InputPurpose::AddQuery,
            )));
        }
        Focus::Tables => app.info("tables follow from queries: add a query in the Workflow pane"),
        Focus::Bottom => return vec![Action::Command(Command::AddNote)],
    }
    vec![]
}

fn item_label(app: &App, item: Item) -> String {
    let p = &app.project;
    match item {
        Item::Entity(e) => format!("entity {}", p.entities[e].name),
        Item::Attribute(e, a) => format!(
            "attribute {}.{}",
            p.entities[e].name, p.entities[e].attributes[a].name
        ),
        Item::Relationship(r) => format!("relationship {}", p.relationships[r].name),
        Item::RelAttribute(r, a) => format!(
            "attribute {}.{}",
            p.relationships[r].name, p.relationships[r].attributes[a].name
        ),
        Item::Query(q) => format!("query {}", p.queries[q].id),
        Item::Transition(t) => {
            let x = &p.workflow.transitions[t];
            format!("transition {} → {}", x.from, x.to)
        }
        Item::Table(t) | Item::Column(t, _) => {
            format!("table {}", app.analysis.model.tables[t].name)
        }
    }
}

fn delete(app: &mut App) {
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

fn rename(app: &mut App) {
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
        Item::Table(_) | Item::Column(..) => {
            command(app, Command::PinName);
            return;
        }
    };
    let title = format!("Rename {}", item_label(app, item));
    app.popups.push(Popup::Input(Input::new(
        &title,
        prompt,
        &current,
        InputPurpose::Rename(item),
    )));
}

/// The figures dialog of the selected entity, attribute or relationship.
fn numbers_form(app: &mut App) {
    let Some(item) = app.selected_item() else {
        return app.info("select an entity, attribute or relationship");
    };
    let label = item_label(app, item);
    match Form::numbers(&app.project, item, &label) {
        Some(f) => app.popups.push(Popup::Form(f)),
        None => app.info("only entities, attributes and relationships have figures"),
    }
}

fn edit_text(app: &mut App) {
    let target = match app.selected_item() {
        Some(Item::Entity(e)) => EditTarget::Entity(e),
        Some(Item::Attribute(e, a)) => EditTarget::Attribute(NodeId::Entity(e), a),
        Some(Item::Relationship(r)) => EditTarget::Relationship(r),
        Some(Item::RelAttribute(r, a)) => EditTarget::Attribute(NodeId::Rel(r), a),
        Some(Item::Query(q)) => EditTarget::Query(q),
        Some(Item::Transition(t)) => EditTarget::Transition(t),
        Some(Item::Table(t)) | Some(Item::Column(t, _)) => {
            EditTarget::Decision(app.analysis.model.tables[t].origin.clone())
        }
        None => return app.info("select an item to edit"),
    };
    match Editor::new(&app.project, target) {
        Some(e) => app.popups.push(Popup::Editor(e)),
        None => app.error("that item no longer exists"),
    }
}

fn mouse(app: &mut App, m: MouseEvent) {
    let hits = app.hits.borrow().clone();
    let inside = |r: &ratatui::layout::Rect| {
        m.column >= r.x && m.column < r.x + r.width && m.row >= r.y && m.row < r.y + r.height
    };
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if !app.popups.is_empty() {
                return;
            }
            if let Some((_, v)) = hits.tabs.iter().find(|(r, _)| inside(r)) {
                app.bottom = *v;
                app.bottom_scroll = 0;
                app.set_focus(Focus::Bottom);
                return;
            }
            if let Some((_, f)) = hits.pane_tabs.iter().find(|(r, _)| inside(r)) {
                app.set_focus(*f);
                return;
            }
            for f in Focus::ALL {
                if let Some(r) = hits.panes[f.index()].filter(|r| inside(r)) {
                    app.set_focus(f);
                    if f != Focus::Bottom {
                        let off = app.panes[f.index()].offset.get();
                        app.select_row(f, off + (m.row - r.y) as usize);
                    }
                    return;
                }
            }
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let delta = if m.kind == MouseEventKind::ScrollDown {
                3
            } else {
                -3
            };
            for f in Focus::ALL {
                if hits.panes[f.index()].is_some_and(|r| inside(&r)) {
                    if f == Focus::Bottom {
                        app.bottom_scroll = (app.bottom_scroll as isize + delta).max(0) as usize;
                    } else {
                        let off = app.panes[f.index()].offset.get() as isize + delta;
                        let max = app.list_rows(f).len().saturating_sub(1) as isize;
                        app.panes[f.index()]
                            .offset
                            .set(off.clamp(0, max.max(0)) as usize);
                        app.move_selection(f, delta);
                    }
                }
            }
        }
        _ => {}
    }
}
