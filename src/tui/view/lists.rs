//! The three list panes: conceptual model, workflow and logical tables
//! (Chebotko boxes with estimates). Each row becomes text only when visible.

use super::{fit, pane_border};
use crate::derive::Role;
use crate::model::naming::for_terminal;
use crate::model::quantity::count;
use crate::model::resolve::AttrId;
use crate::tui::app::{App, EmptyHint, Focus, Row};
use crate::tui::keymap::{Command, Scope};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::Frame;
use std::fmt::Write as _;

/// Draws a list pane; returns its inner area for hit-testing.
pub fn draw(app: &App, f: Focus, frame: &mut Frame, area: Rect) -> Option<Rect> {
    let state = &app.view.panes[f.index()];
    let rows = app.list_rows(f);
    let mut title = vec![Span::styled(
        format!(" {} ", f.title()),
        app.settings.theme.title(),
    )];
    if !state.filter.is_empty() {
        title.push(Span::styled(
            format!("/{} ", for_terminal(&state.filter)),
            Style::new().fg(app.settings.theme.linked),
        ));
    }
    let border = pane_border(app, f, Line::from(title));
    let inner = border.inner(area);
    frame.render_widget(border, area);
    if inner.height == 0 || inner.width == 0 {
        return None;
    }
    let h = inner.height as usize;
    let off = scroll_offset(
        rows,
        state.selected,
        (state.drawn_selected.get(), state.offset.get()),
        h,
    );
    state.offset.set(off);
    state.drawn_selected.set(state.selected);
    let width = inner.width as usize;
    let focused = app.focus == f;
    // Rows are one line each, cut at the pane's width: written straight
    // into the buffer, without a paragraph's reflow (most of a frame's
    // cost on small projects).
    let buf = frame.buffer_mut();
    for (y, (i, row)) in (inner.y..).zip(rows.iter().enumerate().skip(off).take(h)) {
        let mut line = row_line(app, row, width);
        if i == state.selected {
            let style = if focused {
                app.settings.theme.selected()
            } else {
                Style::new().add_modifier(Modifier::UNDERLINED)
            };
            line = line.patch_style(style);
        }
        buf.set_line(inner.x, y, &line, inner.width);
    }
    Some(inner)
}

/// The first row shown so the selection stays in view with as little
/// movement as possible. The rows that belong to the selection and cannot
/// be selected themselves (a box's bottom edge, a query's summary) come
/// into view with it, and moving down onto a table shows its whole box
/// when it fits; moving up never scrolls the view down. `previous` is the
/// selection and offset when last drawn.
pub(crate) fn scroll_offset(
    rows: &[Row],
    selected: usize,
    previous: (usize, usize),
    h: usize,
) -> usize {
    if rows.is_empty() || h == 0 {
        return 0;
    }
    let selected = selected.min(rows.len() - 1);
    let mut off = previous.1.min(rows.len() - 1);
    let downwards = selected > previous.0;
    let trailing = rows[selected + 1..]
        .iter()
        .take_while(|r| matches!(r, Row::TableEnd(_) | Row::QuerySummary(_)))
        .count()
        .min(h - 1);
    let last = selected + trailing;
    if selected < off {
        off = selected;
    } else if last >= off + h {
        off = last + 1 - h;
    }
    if let (true, Some(Row::Table(t))) = (downwards, rows.get(selected)) {
        let end = rows[selected..]
            .iter()
            .position(|r| *r == Row::TableEnd(*t))
            .map(|k| selected + k);
        if let Some(end) = end {
            if end >= off + h {
                off = selected.min(end + 1 - h);
            }
        }
    }
    off
}

fn s(text: impl Into<String>) -> Span<'static> {
    Span::raw(text.into())
}

fn safe(text: &str) -> String {
    for_terminal(text).into_owned()
}

/// The hint of an empty list, naming the keys as they are bound now.
pub(crate) fn empty_hint(app: &App, hint: EmptyHint) -> String {
    let add = |scope: Scope| app.settings.keymap.key_name(scope, Command::Add);
    match hint {
        EmptyHint::Entities => format!("no entities yet: press {} here", add(Scope::Concept)),
        EmptyHint::Queries => format!("no queries yet: press {}", add(Scope::Workflow)),
        EmptyHint::Tables => "tables appear as queries are written".to_string(),
        EmptyHint::Deriving => "deriving…".to_string(),
    }
}

/// Marks an entry point of the workflow.
pub(crate) const ENTRY_MARK: &str = "*";

pub(crate) fn row_line(app: &App, row: &Row, width: usize) -> Line<'static> {
    let t = &app.settings.theme;
    let p = &app.project;
    let l = &app.derived.links;
    let linked = t.linked();
    match row {
        Row::EntitiesHeading => Line::from(Span::styled(
            format!("Entities ({})", p.entities.len()),
            t.title(),
        )),
        Row::RelationshipsHeading => Line::from(Span::styled(
            format!("Relationships ({})", p.relationships.len()),
            t.title(),
        )),
        Row::QueriesHeading => Line::from(Span::styled(
            format!("Queries ({})", p.queries.len()),
            t.title(),
        )),
        Row::TreeHeading => Line::from(Span::styled("Workflow from entry points", t.title())),
        Row::Empty(hint) => Line::from(Span::styled(
            format!("  {}", empty_hint(app, *hint)),
            t.dim(),
        )),
        Row::Entity(i) => {
            let Some(e) = p.entities.get(*i) else {
                return Line::default();
            };
            let arrow = if app.view.collapsed_entities.contains(&e.name) {
                "▸ "
            } else {
                "▾ "
            };
            let mut spans = vec![
                s(arrow),
                Span::styled(
                    fit(&safe(&e.name), width.saturating_sub(2)),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
            ];
            if let Some(o) = &e.owner {
                spans.push(Span::styled(format!(" ⟵ {}", safe(o)), t.dim()));
            }
            if let Some(c) = e.count {
                let per = e.per.map(|p| format!("/{}", p.name())).unwrap_or_default();
                spans.push(Span::styled(format!(" ×{}{per}", count(c)), t.dim()));
            }
            let line = Line::from(spans);
            if l.entities.contains(i) {
                line.patch_style(linked)
            } else {
                line
            }
        }
        Row::Attribute(ei, ai) | Row::RelAttribute(ei, ai) => {
            let (attr, is_key, id) = if let Row::Attribute(..) = row {
                let Some(e) = p.entities.get(*ei) else {
                    return Line::default();
                };
                let Some(a) = e.attributes.get(*ai) else {
                    return Line::default();
                };
                (a, e.key.contains(&a.name), AttrId::Entity(*ei, *ai))
            } else {
                let Some(r) = p.relationships.get(*ei) else {
                    return Line::default();
                };
                let Some(a) = r.attributes.get(*ai) else {
                    return Line::default();
                };
                (a, false, AttrId::Rel(*ei, *ai))
            };
            let mark = if is_key {
                Span::styled("◆ ", Style::new().fg(t.key))
            } else {
                Span::styled("· ", t.dim())
            };
            let name = safe(&attr.name);
            let name_style = if l.attributes.contains(&id) {
                linked
            } else {
                Style::new()
            };
            Line::from(vec![
                s("    "),
                mark,
                Span::styled(name, name_style),
                Span::styled(format!("  {}", safe(&attr.ty.to_string())), t.dim()),
            ])
        }
        Row::Relationship(i) => {
            let Some(r) = p.relationships.get(*i) else {
                return Line::default();
            };
            let style = if l.relationships.contains(i) {
                linked
            } else {
                Style::new()
            };
            Line::from(vec![
                Span::styled(
                    format!("  {}", safe(&r.name)),
                    style.add_modifier(Modifier::BOLD),
                ),
                Span::styled(
                    format!(
                        "  {} {} {}",
                        safe(&r.from),
                        r.cardinality.notation(),
                        safe(&r.to)
                    ),
                    t.dim(),
                ),
            ])
        }
        Row::Query(i) => {
            let Some(q) = p.queries.get(*i) else {
                return Line::default();
            };
            let style = if l.queries.contains(&q.id) {
                linked
            } else {
                Style::new()
            };
            // Not a triangle (reads as a cursor) nor ◆ (key attributes): the
            // key that toggles it; the `?` legend says so.
            let entry = if p.workflow.entry.contains(&q.id) {
                ENTRY_MARK
            } else {
                " "
            };
            Line::from(vec![
                Span::styled(
                    format!("{entry}{:<4}", safe(&q.id)),
                    Style::new().fg(t.key).add_modifier(Modifier::BOLD),
                ),
                Span::styled(fit(&safe(&q.text), width.saturating_sub(6)), style),
            ])
        }
        Row::QuerySummary(i) => {
            let Some(q) = p.queries.get(*i) else {
                return Line::default();
            };
            let mut parts = vec![safe(&q.rows)];
            if let Some(eq) = q.equality_text() {
                parts.push(format!("= {}", safe(&eq)));
            }
            if let Some(r) = &q.range {
                parts.push(format!("⋚ {}", safe(&r.attr)));
            }
            for o in &q.order {
                parts.push(format!("{} {}", o.dir.arrow(), safe(&o.attr)));
            }
            if let Some(c) = q.stated_text() {
                parts.push(safe(&c));
            }
            let mut spans = vec![Span::styled(
                fit(&format!("     {}", parts.join(" · ")), width),
                t.dim(),
            )];
            if let Some(plan) = app.analysis.model.plan(&q.id) {
                if !plan.access.is_direct() {
                    spans.push(Span::styled(
                        format!(" ⚠ {}", plan.access.label()),
                        Style::new().fg(t.warn),
                    ));
                }
            }
            Line::from(spans)
        }
        Row::TreeQuery { query } => {
            let Some(q) = p.queries.get(*query) else {
                return Line::default();
            };
            let style = if l.queries.contains(&q.id) {
                linked
            } else {
                Style::new()
            };
            Line::from(vec![
                Span::styled(
                    format!("{ENTRY_MARK} {} ", safe(&q.id)),
                    Style::new().fg(t.key).add_modifier(Modifier::BOLD),
                ),
                Span::styled(fit(&safe(&q.text), width.saturating_sub(6)), style),
            ])
        }
        Row::TreeTransition { transition, place } => {
            let Some(tr) = p.workflow.transitions.get(*transition) else {
                return Line::default();
            };
            let to_text = p.query(&tr.to).map_or("?", |q| q.text.as_str());
            let style = if l.queries.contains(&tr.to) {
                linked
            } else {
                Style::new()
            };
            let feeds = if tr.feeds.is_empty() {
                String::new()
            } else {
                format!(" ({})", safe(&tr.feeds.join(", ")))
            };
            let head = format!("{}{} ", place.prefix(&tr.from), safe(&tr.to));
            let used = head.chars().count() + feeds.chars().count();
            Line::from(vec![
                Span::styled(head, Style::new().fg(t.key)),
                Span::styled(fit(&safe(to_text), width.saturating_sub(used)), style),
                Span::styled(feeds, t.dim()),
            ])
        }
        Row::Table(i) => table_top(app, *i, width),
        Row::Column(ti, ci) => column_line(app, *ti, *ci, width),
        Row::Estimate(i) => estimate_line(app, *i, width),
        Row::TableEnd(i) => {
            let line = Line::from(Span::styled(
                format!("└{}", "─".repeat(width.saturating_sub(1))),
                box_style(app, *i),
            ));
            flash(app, *i, line)
        }
    }
}

fn box_style(app: &App, t: usize) -> Style {
    if app.derived.links.tables.contains(&t) {
        app.settings.theme.linked()
    } else {
        Style::new().fg(app.settings.theme.border)
    }
}

fn flash(app: &App, t: usize, line: Line<'static>) -> Line<'static> {
    match app.analysis.model.tables.get(t) {
        Some(table) if app.flashing(&table.name) => {
            line.patch_style(Style::new().bg(app.settings.theme.changed_bg))
        }
        _ => line,
    }
}

fn table_top(app: &App, ti: usize, width: usize) -> Line<'static> {
    let Some(t) = app.analysis.model.tables.get(ti) else {
        return Line::default();
    };
    let bs = box_style(app, ti);
    let name = safe(&t.name);
    let serves = format!(" {} ", safe(&t.queries.join(", ")));
    let fold = if app.view.collapsed_tables.contains(t.name.as_str()) {
        "▸"
    } else {
        "─"
    };
    let used = 3 + name.chars().count() + serves.chars().count();
    let fill = width.saturating_sub(used + 1);
    let name_style = if app.derived.links.tables.contains(&ti) {
        app.settings.theme.linked().add_modifier(Modifier::BOLD)
    } else {
        Style::new().add_modifier(Modifier::BOLD)
    };
    let line = Line::from(vec![
        Span::styled(format!("┌{fold} "), bs),
        Span::styled(fit(&name, width.saturating_sub(4)), name_style),
        Span::styled(format!(" {}", "─".repeat(fill)), bs),
        Span::styled(serves, Style::new().fg(app.settings.theme.key)),
    ]);
    flash(app, ti, line)
}

fn column_line(app: &App, ti: usize, ci: usize, width: usize) -> Line<'static> {
    let Some(t) = app.analysis.model.tables.get(ti) else {
        return Line::default();
    };
    let Some(c) = t.columns.get(ci) else {
        return Line::default();
    };
    let name_w = t
        .columns
        .iter()
        .map(|c| c.name.chars().count())
        .max()
        .unwrap_or(0)
        .min(width / 2);
    let marker_style = match c.role {
        Role::Partition => Style::new()
            .fg(app.settings.theme.bad)
            .add_modifier(Modifier::BOLD),
        Role::Clustering(_) => Style::new()
            .fg(app.settings.theme.accent)
            .add_modifier(Modifier::BOLD),
        Role::Static => Style::new().fg(app.settings.theme.warn),
        Role::Regular => Style::new(),
    };
    let linked = match &c.source {
        crate::derive::Source::Attr { reached, .. } => {
            app.derived.links.attributes.contains(&reached.attr)
        }
        _ => false,
    };
    let name_style = if linked {
        app.settings.theme.linked()
    } else {
        Style::new()
    };
    let line = Line::from(vec![
        Span::styled("│ ", box_style(app, ti)),
        Span::styled(format!("{:<3}", c.role.marker()), marker_style),
        Span::styled(
            crate::model::terminal_text::pad_end(&fit(&safe(&c.name), name_w), name_w),
            name_style,
        ),
        Span::styled(
            format!("  {}", safe(&c.ty.to_string())),
            app.settings.theme.dim(),
        ),
    ]);
    flash(app, ti, line)
}

/// How close a table's worst partition is to the project's thresholds:
/// 0 fine, 1 over half, 2 over.
pub fn level(app: &App, ti: usize) -> u8 {
    let Some(e) = app.analysis.estimates.get(ti) else {
        return 0;
    };
    let th = &app.project.thresholds;
    let ratio = (e.values_max / th.max_values).max(e.partition_bytes_max / th.max_bytes);
    if !ratio.is_finite() || ratio >= 1.0 {
        2
    } else {
        u8::from(ratio >= 0.5)
    }
}

fn estimate_line(app: &App, ti: usize, width: usize) -> Line<'static> {
    let Some(e) = app.analysis.estimates.get(ti) else {
        return Line::default();
    };
    let assumed = e.defaults.len();
    // Figures that rest on defaults are not a finished design: never green.
    let color = match level(app, ti) {
        0 if assumed == 0 => app.settings.theme.ok,
        0 | 1 => app.settings.theme.warn,
        _ => app.settings.theme.bad,
    };
    let mut text = String::new();
    if assumed > 0 {
        let _ = write!(text, "≈ {assumed} assumed (Enter) · ");
    }
    let _ = write!(
        text,
        "rows/part {} · values {} · {}",
        count(e.rows_per_partition),
        count(e.values),
        crate::derive::estimate::human_bytes(e.partition_bytes)
    );
    if e.partition_bytes_max > e.partition_bytes * 1.0001 {
        let _ = write!(
            text,
            " (worst {})",
            crate::derive::estimate::human_bytes(e.partition_bytes_max)
        );
    }
    let line = Line::from(vec![
        Span::styled("│ ", box_style(app, ti)),
        Span::styled(fit(&text, width.saturating_sub(2)), Style::new().fg(color)),
    ]);
    flash(app, ti, line)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two tables of three columns each: header, columns, estimate, edge.
    fn boxes() -> Vec<Row> {
        let mut rows = Vec::new();
        for t in 0..2 {
            rows.push(Row::Table(t));
            rows.extend((0..3).map(|c| Row::Column(t, c)));
            rows.push(Row::Estimate(t));
            rows.push(Row::TableEnd(t));
        }
        rows
    }

    #[test]
    fn end_shows_the_last_box_edge_and_up_never_scrolls_down() {
        let rows = boxes();
        let h = 4;
        // End: the last selectable row is the second estimate (10); its
        // box edge (11) is shown too.
        let mut off = scroll_offset(&rows, 10, (0, 0), h);
        assert_eq!(off, 8);
        let mut was = 10;
        for sel in (0..10).rev().filter(|&i| rows[i].selectable()) {
            let next = scroll_offset(&rows, sel, (was, off), h);
            assert!(next <= off, "↑ to row {sel} scrolled down: {off} → {next}");
            assert!(next <= sel && sel < next + h, "row {sel} out of view");
            off = next;
            was = sel;
        }
    }

    #[test]
    fn a_box_scrolled_in_from_below_shows_whole() {
        let rows = boxes();
        // Moving down onto the second header (6) from the first box.
        assert_eq!(scroll_offset(&rows, 6, (4, 0), 6), 6);
        assert_eq!(scroll_offset(&rows, 6, (4, 3), 8), 4);
        // A box taller than the view starts at its header.
        assert_eq!(scroll_offset(&rows, 6, (4, 0), 3), 6);
        // Moving up onto it from inside keeps the view.
        assert_eq!(scroll_offset(&rows, 6, (7, 3), 8), 3);
    }

    #[test]
    fn empty_lists_and_zero_heights_scroll_nowhere() {
        assert_eq!(scroll_offset(&[], 3, (0, 5), 10), 0);
        assert_eq!(scroll_offset(&boxes(), 3, (0, 5), 0), 0);
    }
}
