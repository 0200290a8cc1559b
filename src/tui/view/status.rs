//! The status bar: what the last edit did (or went wrong), then the file,
//! unsaved marker, counts and the keys that matter in the focused pane,
//! taken from the keymap.

use crate::model::naming::for_terminal;
use crate::tui::app::{App, StatusKind};
use crate::tui::keymap::{Command, Scope};
use crate::tui::popup::Popup;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;
use ratatui::Frame;

/// The title of the question on top of the popups, if one is open.
fn question(app: &App) -> Option<String> {
    match app.popups.last() {
        Some(Popup::Confirm(c)) => Some(c.title.clone()),
        _ => None,
    }
}

pub fn draw(app: &App, frame: &mut Frame, area: Rect) {
    let t = &app.settings.theme;
    let mut lines = Vec::new();
    if area.height >= 2 {
        let msg = match &app.status {
            // A question waits for an answer: the bar points at it rather
            // than showing an older message.
            _ if question(app).is_some() => {
                let title = question(app).unwrap_or_default();
                let k = &app.settings.keymap;
                Line::from(Span::styled(
                    format!(
                        "▲ {} — {} yes · {} no",
                        for_terminal(&title),
                        k.key_name(Scope::Confirm, Command::Yes),
                        k.key_name(Scope::Confirm, Command::No)
                    ),
                    Style::new().fg(t.warn).add_modifier(Modifier::BOLD),
                ))
            }
            _ if app.is_deriving() => {
                let last = app
                    .status
                    .as_ref()
                    .map(|s| format!(" · {}", for_terminal(&s.text)))
                    .unwrap_or_default();
                Line::from(Span::styled(
                    format!("deriving…{last}"),
                    Style::new().fg(t.accent),
                ))
            }
            Some(s) => {
                let color = match s.kind {
                    StatusKind::Info => t.accent,
                    StatusKind::Change => t.ok,
                    StatusKind::Error => t.bad,
                };
                Line::from(Span::styled(
                    for_terminal(&s.text).into_owned(),
                    Style::new().fg(color),
                ))
            }
            // The open popup shows its own keys; the panes' hint would
            // be about keys that do not reach them now.
            None if !app.popups.is_empty() => Line::default(),
            None => {
                let scope = app.focus.scope();
                Line::from(Span::styled(
                    format!(
                        "{} switches panes · {} shows every key and what the marks mean",
                        app.settings.keymap.key_name(scope, Command::NextPane),
                        app.settings.keymap.key_name(scope, Command::Help)
                    ),
                    t.dim(),
                ))
            }
        };
        lines.push(msg);
    }
    let (errors, warnings, hints) = app.counts();
    let mut spans = vec![
        Span::styled(
            format!(" {} ", for_terminal(&app.file_label())),
            Style::new().add_modifier(Modifier::BOLD | Modifier::REVERSED),
        ),
        Span::styled(
            if app.dirty { " [+]" } else { "    " },
            Style::new().fg(t.warn).add_modifier(Modifier::BOLD),
        ),
        Span::raw(format!(
            " {}e {}q {}t ",
            app.project.entities.len(),
            app.project.queries.len(),
            if app.is_deriving() {
                "…".to_string()
            } else {
                app.analysis.model.tables.len().to_string()
            }
        )),
        Span::styled(
            format!("✗{errors}"),
            Style::new().fg(if errors > 0 { t.bad } else { t.dim }),
        ),
        Span::styled(
            format!(" ⚠{warnings}"),
            Style::new().fg(if warnings > 0 { t.warn } else { t.dim }),
        ),
        Span::styled(format!(" ·{hints} "), t.dim()),
        Span::styled("│", t.dim()),
    ];
    for (key, command, label) in app.settings.keymap.hint_commands(app.focus.scope()) {
        // `a` adds what the selected row calls for: the bar says which.
        let label = match command {
            Command::Add => crate::tui::commands::add_hint(app),
            _ => label,
        };
        spans.push(Span::styled(
            format!(" {key}"),
            Style::new().fg(t.hint_key).add_modifier(Modifier::BOLD),
        ));
        spans.push(Span::raw(format!(" {label}")));
    }
    lines.push(Line::from(spans));
    frame.render_widget(Paragraph::new(lines), area);
}
