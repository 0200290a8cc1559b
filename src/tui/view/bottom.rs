//! The bottom pane: diagnostics, CQL, the SELECT of the selected query, and
//! review notes. Text is cached per analysis generation and target, and
//! CQL is highlighted again only when its text changed.

use super::pane_border;
use super::wrap::wrap_styled;
use crate::model::naming::for_terminal;
use crate::output::report::subject_label;
use crate::review::diagnose::Severity;
use crate::tui::app::{App, BottomView, Focus, Hits};
use crate::tui::config::fnv;
use crate::tui::highlight::{highlight_cql, Palette};
use crate::tui::labels::target_label;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::Frame;
use std::fmt::Write as _;

pub fn draw(app: &App, frame: &mut Frame, area: Rect, hits: &mut Hits) -> Option<Rect> {
    let mut spans = vec![Span::raw(" ")];
    let mut x = area.x + 2;
    for (i, v) in BottomView::shown(app).iter().enumerate() {
        let label = format!("{} {}", i + 1, v.title());
        let w = label.chars().count() as u16;
        let style = if *v == app.view.bottom {
            app.settings.theme.selected().fg(app.settings.theme.accent)
        } else {
            app.settings.theme.dim()
        };
        if x + w <= area.x + area.width {
            hits.tabs.push((
                Rect {
                    x,
                    y: area.y,
                    width: w,
                    height: 1,
                },
                *v,
            ));
        }
        x += w + 3;
        spans.push(Span::styled(label, style));
        spans.push(Span::styled(" │ ", app.settings.theme.dim()));
    }
    spans.pop();
    if app.view.bottom == BottomView::Cql {
        spans.push(Span::styled(
            if app.view.cql_all {
                "  (keyspace) "
            } else {
                "  (selected table) "
            },
            app.settings.theme.dim(),
        ));
    }
    let border = pane_border(app, Focus::Bottom, Line::from(spans));
    let inner = border.inner(area);
    frame.render_widget(border, area);
    if inner.height == 0 || inner.width == 0 {
        return None;
    }
    let h = inner.height as usize;
    let lines = match app.view.bottom {
        BottomView::Diagnostics => diagnostics(app, h, inner.width as usize),
        _ => cached(app, h),
    };
    // Lines come wrapped to the width: written straight into the buffer.
    let buf = frame.buffer_mut();
    for (y, line) in (inner.y..).zip(lines.iter().take(h)) {
        buf.set_line(inner.x, y, line, inner.width);
    }
    Some(inner)
}

fn diagnostics(app: &App, h: usize, width: usize) -> Vec<Line<'static>> {
    let d = &app.analysis.diagnostics;
    if d.is_empty() {
        return vec![Line::from(Span::styled(
            "No diagnostics: the design passes review.",
            Style::new().fg(app.settings.theme.ok),
        ))];
    }
    let filter = crate::tui::diagnostics_filter::text(app);
    let mut out = Vec::with_capacity(h);
    let Some(start) = crate::tui::diagnostics_filter::current(app) else {
        return vec![Line::from(Span::styled(
            format!(
                "No diagnostic matches the filter \"{}\" (Esc clears it).",
                for_terminal(filter)
            ),
            app.settings.theme.dim(),
        ))];
    };
    if !filter.trim().is_empty() {
        let shown = crate::tui::diagnostics_filter::visible(app).len();
        out.push(Line::from(Span::styled(
            format!(
                "filter \"{}\": {shown} of {} (Esc clears)",
                for_terminal(filter),
                d.len()
            ),
            app.settings.theme.dim(),
        )));
    }
    for (i, x) in d.iter().enumerate().skip(start) {
        if out.len() >= h {
            break;
        }
        if !filter.trim().is_empty() && !crate::tui::diagnostics_filter::matches(x, filter) {
            continue;
        }
        let color = match x.severity {
            _ if x.waived.is_some() => app.settings.theme.dim,
            Severity::Error => app.settings.theme.bad,
            Severity::Warning => app.settings.theme.warn,
            Severity::Hint => app.settings.theme.accent,
        };
        // A waived finding reads "waived" where its severity was.
        let label = if x.waived.is_some() {
            "waived"
        } else {
            x.severity.label()
        };
        // The whole message, folded under the severity column: nothing is
        // cut at the pane edge (Enter shows it all with fix and source).
        let mut first = wrap_styled(
            &[
                (
                    format!("{label:<7} "),
                    Style::new().fg(color).add_modifier(Modifier::BOLD),
                ),
                (
                    for_terminal(&subject_label(&x.subject)).into_owned(),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                (format!(" {}", for_terminal(x.message())), Style::new()),
                (format!("  [{}]", x.rule), app.settings.theme.dim()),
            ],
            width,
            8,
        );
        if i == start && app.focus == Focus::Bottom {
            first = first
                .into_iter()
                .map(|l| l.patch_style(app.settings.theme.selected()))
                .collect();
        }
        out.extend(first);
        out.extend(wrap_styled(
            &[(
                format!("        fix: {}", for_terminal(x.fix())),
                app.settings.theme.dim(),
            )],
            width,
            13,
        ));
        if let Some(w) = &x.waived {
            out.extend(wrap_styled(
                &[(
                    format!(
                        "        waived: {}",
                        for_terminal(&crate::output::report::waiver_line(w))
                    ),
                    app.settings.theme.dim(),
                )],
                width,
                16,
            ));
        }
    }
    out.truncate(h);
    out
}

/// The key the cached text depends on.
fn cache_key(
    app: &App,
) -> (
    u64,
    BottomView,
    Option<usize>,
    bool,
    Option<crate::tui::edit::Item>,
) {
    (
        app.derived.generation,
        app.view.bottom,
        app.current_table(),
        app.view.cql_all,
        app.selected_item(),
    )
}

fn cached(app: &App, h: usize) -> Vec<Line<'static>> {
    let key = cache_key(app);
    let mut cache = app.frame.text.borrow_mut();
    if cache.key != Some(key) {
        let (text, cql) = text_for(app);
        let hash = fnv(text.as_bytes()) ^ u64::from(cql);
        if hash != cache.text_hash || cache.key.is_none() {
            cache.lines = if cql {
                highlight_cql(&text, &Palette::default())
            } else {
                text.lines()
                    .map(|l| Line::from(for_terminal(l).into_owned()))
                    .collect()
            };
            cache.text_hash = hash;
        }
        cache.key = Some(key);
    }
    let start = app
        .view
        .bottom_scroll
        .min(cache.lines.len().saturating_sub(1));
    cache.lines.iter().skip(start).take(h).cloned().collect()
}

/// The text of the CQL, SELECT or Notes view, and whether it is CQL.
fn text_for(app: &App) -> (String, bool) {
    let p = &app.project;
    let m = &app.analysis.model;
    match app.view.bottom {
        BottomView::Cql => {
            if app.view.cql_all {
                return (crate::output::cql::script(p, m), true);
            }
            match app.current_table().and_then(|t| m.tables.get(t)) {
                Some(t) => (crate::output::cql::table(p, t), true),
                None => (
                    "-- select a table or a query (c shows the whole keyspace)".into(),
                    true,
                ),
            }
        }
        BottomView::Select => {
            let Some(q) = app.current_query().and_then(|q| p.queries.get(q)) else {
                return ("-- select a query".into(), true);
            };
            let Some(plan) = m.plan(&q.id) else {
                return (format!("-- {}: no plan", q.id), true);
            };
            let mut s = format!(
                "-- {}. {}\n",
                crate::output::cql::one_line(&q.id),
                crate::output::cql::one_line(&q.text)
            );
            if plan.select.is_empty() {
                s.push_str("-- no table serves this query\n");
            } else {
                s.push_str(&plan.select);
                s.push('\n');
            }
            let _ = writeln!(s, "-- answered directly: {}", plan.access.label());
            if let Some(why) = plan.access.reason() {
                let _ = writeln!(s, "-- {}", crate::output::cql::one_line(why));
            }
            if !plan.computed.is_empty() {
                let _ = writeln!(
                    s,
                    "-- the application computes: {}",
                    crate::output::cql::one_line(&plan.computed.join(", "))
                );
            }
            (s, true)
        }
        BottomView::Notes => {
            let Some(t) = app.note_target() else {
                return ("Select an item to see its review notes.".into(), false);
            };
            let notes: Vec<String> = p.notes_for(&t).map(|n| format!("• {}", n.text)).collect();
            let mut s = format!("Notes on {} (a adds one here)\n", target_label(&t));
            if notes.is_empty() {
                s.push_str("  none yet\n");
            } else {
                for n in notes {
                    s.push_str(&n);
                    s.push('\n');
                }
            }
            (s, false)
        }
        BottomView::Cost => (super::cost::text(app), false),
        BottomView::Diagnostics => (String::new(), false),
    }
}
