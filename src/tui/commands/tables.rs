//! Commands of the Tables pane: folding, provenance and assumed figures,
//! and the designer's decisions on derived tables (pinned names,
//! refinements, flips, merges, splits, alternative keys).

use crate::derive::{Role, Source};
use crate::edit::refine::menu::Kind as RefineKind;
use crate::edit::{Edit, Item};
use crate::tui::app::{App, Row};
use crate::tui::focus::Focus;
use crate::tui::intent::Action;
use crate::tui::keymap::{Command, Scope};
use crate::tui::popup::{Info, Input, InputPurpose, Pick, Picker, Popup};

/// Folds (`left`) or unfolds the selected table's box.
pub(crate) fn fold(app: &mut App, left: bool) {
    if let Some(t) = app.current_table() {
        let name = app.analysis.model.tables[t].name.clone();
        if left {
            app.view.collapsed_tables.insert(name.to_string());
        } else {
            app.view.collapsed_tables.remove(name.as_str());
        }
        app.rebuild_rows();
        app.reselect(Item::Table(t));
    }
}

/// Enter: a column's provenance, the estimate line's assumed figures, or
/// folding a table.
pub fn open(app: &mut App) {
    match app.selected_item() {
        Some(Item::Table(t))
            if matches!(app.selected_row(Focus::Tables), Some(Row::Estimate(_))) =>
        {
            assumed_picker(app, t);
        }
        Some(Item::Column(t, ci)) => {
            let table = &app.analysis.model.tables[t];
            let c = &table.columns[ci];
            let mut lines = vec![
                format!("{} {} {}", c.role.marker(), c.name, c.ty),
                format!("rule:  {}", c.rule.label()),
            ];
            if let Some(why) = &c.why {
                lines.push(format!("why:   {why}"));
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
                    lines.push(format!("holds: {source} bucketed by {}", period.name()));
                }
                Source::Shard { count } => {
                    lines.push(format!("holds: a shard number in 0..{count}"));
                }
                Source::Constant => lines.push("holds: a constant (one partition)".into()),
                Source::Collection { columns } => {
                    lines.push(format!("holds: {}", columns.join(", ")));
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
            if !app.view.collapsed_tables.remove(name.as_str()) {
                app.view.collapsed_tables.insert(name.to_string());
            }
            app.rebuild_rows();
            app.reselect(Item::Table(t));
        }
        _ => {}
    }
}

/// The figures a table's estimate assumed; picking one goes to the item
/// to state it on.
pub(crate) fn assumed_picker(app: &mut App, t: usize) {
    let Some(est) = app.analysis.estimates.get(t) else {
        return;
    };
    if est.defaults.is_empty() {
        return app.info("this estimate rests on stated figures only");
    }
    let notes = est.defaults.to_vec();
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

/// Pins the name of the selected table.
pub(crate) fn pin_name(app: &mut App) {
    if let Some(t) = app.current_table() {
        let table = &app.analysis.model.tables[t];
        app.popups.push(Popup::Input(Input::new(
            "Pin the table name",
            &format!("name for the table of {}", table.origin),
            &table.name.clone(),
            InputPurpose::PinName(table.origin.to_string()),
        )));
    }
}

/// The refinements of the selected table (see [`crate::edit::refine::menu`]);
/// choosing one shows its preview.
pub(crate) fn refine_menu(app: &mut App, only: Option<RefineKind>) {
    let Some(t) = app.current_table() else {
        return app.error("select a table first");
    };
    let table = &app.analysis.model.tables[t];
    match crate::edit::refine::menu::menu(&app.project, &app.analysis.model, table, only) {
        Err(why) => app.error(why),
        Ok(menu) => {
            let mut pk = Picker::single(
                &format!(
                    "Refine {} — {} previews",
                    table.name,
                    app.settings.keymap.key_name(Scope::Picker, Command::Accept)
                ),
                menu.labels,
                Pick::Refine(menu.entries),
            );
            pk.cursor = menu.cursor;
            app.popups.push(Popup::Picker(pk));
        }
    }
}

/// The alternatives matrix of the selected table's rows.
pub fn alternatives(app: &mut App) {
    let Some((q, name)) = app
        .current_table()
        .and_then(|t| app.analysis.model.tables.get(t))
        .map(|t| (t.origin.to_string(), t.name.to_string()))
    else {
        return app.error("select a table first");
    };
    app.alternatives(q, &name);
}

/// Flips the direction of the selected clustering column.
pub fn flip(app: &mut App) -> Vec<Action> {
    match app.selected_item() {
        Some(Item::Column(t, ci)) => {
            let table = &app.analysis.model.tables[t];
            let col = &table.columns[ci];
            if matches!(col.role, Role::Clustering(_)) {
                return vec![Action::Edit(Edit::Flip(
                    table.origin.to_string(),
                    col.name.to_string(),
                ))];
            }
            app.error("only clustering columns (C↑/C↓) have a direction");
        }
        _ => app.error("select a clustering column of a table"),
    }
    vec![]
}

/// Serves the selected table's queries from another table.
pub fn merge(app: &mut App) {
    if let Some(t) = app.current_table() {
        let table = &app.analysis.model.tables[t];
        let queries: Vec<String> = table.queries.iter().map(ToString::to_string).collect();
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

/// Gives queries sharing a table their own: the selected query (in the
/// Workflow pane) or every query but the table's origin.
pub fn split(app: &mut App) -> Vec<Action> {
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
            .map(ToString::to_string)
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
    app.split(queries);
    vec![]
}
