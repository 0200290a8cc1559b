//! Drawing: pure functions of the `App`. Only visible rows are turned into
//! text, and the bottom pane's CQL is highlighted once per content, so a
//! frame costs the same for nine tables or a thousand. The rectangles drawn
//! are recorded for mouse hit-testing.

mod bottom;
mod cost;
mod lists;
mod status;
pub(crate) mod wrap;

use super::app::{App, Focus, Hits};
use ratatui::layout::{Constraint, Direction, Layout, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

/// At this width and above the three list panes stand side by side.
pub(crate) const WIDE: u16 = 120;

pub fn draw(app: &App, frame: &mut Frame) {
    let area = frame.area();
    let mut hits = Hits::default();
    if area.width == 0 || area.height == 0 {
        *app.frame.hits.borrow_mut() = hits;
        return;
    }
    let status_h = if area.height >= 8 { 2 } else { 1 }.min(area.height);
    let main = Rect {
        height: area.height - status_h,
        ..area
    };
    let status_r = Rect {
        y: area.y + main.height,
        height: status_h,
        ..area
    };
    if main.height >= 3 {
        if area.width >= WIDE {
            wide(app, frame, main, &mut hits);
        } else {
            narrow(app, frame, main, &mut hits);
        }
    }
    status::draw(app, frame, status_r);
    if let Some(top) = app.popups.last() {
        top.draw(app, frame, area);
    }
    *app.frame.hits.borrow_mut() = hits;
}

fn wide(app: &App, frame: &mut Frame, area: Rect, hits: &mut Hits) {
    let rows = Layout::default()
        .direction(Direction::Vertical)
        .constraints([Constraint::Percentage(62), Constraint::Min(3)])
        .split(area);
    let cols = Layout::default()
        .direction(Direction::Horizontal)
        .constraints([
            Constraint::Percentage(28),
            Constraint::Percentage(34),
            Constraint::Percentage(38),
        ])
        .split(rows[0]);
    for (i, f) in [Focus::Concept, Focus::Workflow, Focus::Tables]
        .into_iter()
        .enumerate()
    {
        hits.panes[f.index()] = lists::draw(app, f, frame, cols[i]);
    }
    hits.panes[Focus::Bottom.index()] = bottom::draw(app, frame, rows[1], hits);
}

fn narrow(app: &App, frame: &mut Frame, area: Rect, hits: &mut Hits) {
    let shown = match app.focus {
        Focus::Bottom => app.last_list_focus(),
        f => f,
    };
    // A line of pane tabs, the focused list pane, then the bottom pane.
    let tabs_r = Rect { height: 1, ..area };
    let mut spans = Vec::new();
    let mut x = area.x;
    for f in [
        Focus::Concept,
        Focus::Workflow,
        Focus::Tables,
        Focus::Bottom,
    ] {
        let label = format!(" {} ", short_title(f));
        let w = label.chars().count() as u16;
        let style = if f == app.focus {
            app.settings.theme.selected().fg(app.settings.theme.accent)
        } else if f == shown {
            Style::new().fg(app.settings.theme.accent)
        } else {
            app.settings.theme.dim()
        };
        if x < area.x + area.width {
            hits.pane_tabs.push((
                Rect {
                    x,
                    y: area.y,
                    width: w.min(area.x + area.width - x),
                    height: 1,
                },
                f,
            ));
        }
        x = x.saturating_add(w + 1);
        spans.push(Span::styled(label, style));
        spans.push(Span::raw(" "));
    }
    frame.render_widget(Paragraph::new(Line::from(spans)), tabs_r);
    let rest = Rect {
        y: area.y + 1,
        height: area.height - 1,
        ..area
    };
    let bottom_pct = if app.focus == Focus::Bottom { 60 } else { 35 };
    let parts = Layout::default()
        .direction(Direction::Vertical)
        .constraints([
            Constraint::Percentage(100 - bottom_pct),
            Constraint::Percentage(bottom_pct),
        ])
        .split(rest);
    hits.panes[shown.index()] = lists::draw(app, shown, frame, parts[0]);
    hits.panes[Focus::Bottom.index()] = bottom::draw(app, frame, parts[1], hits);
}

fn short_title(f: Focus) -> &'static str {
    match f {
        Focus::Concept => "Conceptual",
        Focus::Workflow => "Workflow",
        Focus::Tables => "Tables",
        Focus::Bottom => "Details",
    }
}

/// A pane's frame: the focused pane's border stands out, unless a popup
/// is open: then the popup has the keys, and only its border is lit.
pub(crate) fn pane_border<'a>(app: &App, f: Focus, title: Line<'a>) -> Block<'a> {
    let focused = app.focus == f && app.popups.is_empty();
    let border = if focused {
        Style::new().fg(app.settings.theme.focus_border)
    } else {
        Style::new().fg(app.settings.theme.border)
    };
    let title = if focused {
        title.patch_style(Modifier::BOLD)
    } else {
        title
    };
    Block::default()
        .borders(Borders::ALL)
        .border_style(border)
        .title(title)
}

/// Truncates to `width` display columns (by chars; wide glyphs are rare
/// in names and merely clipped by the buffer).
pub(crate) fn fit(s: &str, width: usize) -> String {
    if s.chars().count() <= width {
        s.to_string()
    } else if width == 0 {
        String::new()
    } else {
        let mut t: String = s.chars().take(width - 1).collect();
        t.push('…');
        t
    }
}
