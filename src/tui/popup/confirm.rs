//! Yes/no questions (deletes, quitting unsaved, overwriting, recovery),
//! read-only information (provenance) and the generated help overlay.

use super::{centered, Outcome};
use crate::model::naming::for_terminal;
use crate::tui::app::App;
use crate::tui::intent::Action;
use crate::tui::keymap::{Command, Keymap, Scope};
use crate::tui::theme::Theme;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use ratatui::Frame;

pub struct Confirm {
    pub title: String,
    pub message: String,
    pub yes: Vec<Action>,
    /// Run on "no" (e.g. discarding a recovery copy); nothing when empty.
    pub no: Vec<Action>,
    /// Esc does not dismiss: the question needs a yes or a no (the
    /// recovery copy is neither kept forever nor deleted by accident).
    pub must_choose: bool,
}

impl Confirm {
    pub fn new(title: &str, message: impl Into<String>, yes: Vec<Action>) -> Confirm {
        Confirm {
            title: title.to_string(),
            message: message.into(),
            yes,
            no: vec![],
            must_choose: false,
        }
    }

    pub(crate) fn handle(&mut self, cmd: Option<Command>, key: KeyEvent) -> Outcome {
        match cmd {
            Some(Command::Yes) => Outcome::Done(std::mem::take(&mut self.yes)),
            // A question that needs an answer takes no Esc for a "no".
            Some(Command::No) if self.must_choose && key.code == KeyCode::Esc => Outcome::Keep,
            Some(Command::No) => {
                if self.no.is_empty() {
                    Outcome::Cancel
                } else {
                    Outcome::Done(std::mem::take(&mut self.no))
                }
            }
            _ => Outcome::Keep,
        }
    }

    pub fn draw(&self, theme: &Theme, keymap: &Keymap, frame: &mut Frame, area: Rect) {
        let width = (self.message.chars().count() as u16 + 4).clamp(30, 70);
        let r = centered(area, width, 7);
        frame.render_widget(Clear, r);
        let block = Block::default()
            .borders(Borders::ALL)
            .border_style(Style::new().fg(theme.warn))
            .title(Span::styled(format!(" {} ", self.title), theme.title()));
        let lines = vec![
            Line::from(for_terminal(&self.message).into_owned()),
            Line::from(""),
            Line::from(vec![
                Span::styled(
                    keymap.key_name(Scope::Confirm, Command::Yes),
                    Style::new().fg(theme.hint_key).add_modifier(Modifier::BOLD),
                ),
                Span::raw(" yes   "),
                Span::styled(
                    keymap.key_name(Scope::Confirm, Command::No),
                    Style::new().fg(theme.hint_key).add_modifier(Modifier::BOLD),
                ),
                Span::raw(" no"),
            ]),
        ];
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false }),
            r,
        );
    }
}

pub struct Info {
    pub title: String,
    pub lines: Vec<String>,
    pub scroll: usize,
}

impl Info {
    pub(crate) fn handle(&mut self, cmd: Option<Command>) -> Outcome {
        if super::scroll_by(&mut self.scroll, cmd) {
            return Outcome::Keep;
        }
        match cmd {
            Some(Command::Cancel) => Outcome::Cancel,
            _ => Outcome::Keep,
        }
    }

    pub fn draw(&self, theme: &Theme, keymap: &Keymap, frame: &mut Frame, area: Rect) {
        let width = self
            .lines
            .iter()
            .map(|l| l.chars().count() as u16)
            .max()
            .unwrap_or(20)
            .saturating_add(4)
            .clamp(30, 90);
        let r = centered(area, width, (self.lines.len() as u16).saturating_add(3));
        frame.render_widget(Clear, r);
        let block = super::frame_block(theme, &self.title, &keymap.footer(Scope::Info, |_| true));
        let max = self
            .lines
            .len()
            .saturating_sub(r.height.saturating_sub(2) as usize);
        let lines: Vec<Line> = self
            .lines
            .iter()
            .skip(self.scroll.min(max))
            .map(|l| Line::from(for_terminal(l).into_owned()))
            .collect();
        frame.render_widget(
            Paragraph::new(lines)
                .block(block)
                .wrap(Wrap { trim: false }),
            r,
        );
    }
}

pub(crate) fn help_key(scroll: &mut usize, cmd: Option<Command>) -> Outcome {
    if super::scroll_by(scroll, cmd) {
        return Outcome::Keep;
    }
    match cmd {
        Some(Command::Cancel) => Outcome::Cancel,
        _ => Outcome::Keep,
    }
}

/// What the status bar's counters and the panes' marks mean, for the
/// help overlay and docs/workbench.md.
pub const LEGEND: [(&str, &str); 8] = [
    (
        "7e 9q 9t",
        "entities, queries and derived tables in the project",
    ),
    (
        "✗0 ⚠0 ·3",
        "diagnostics: errors, warnings, hints (bottom pane, 1)",
    ),
    ("[+]", "unsaved changes"),
    (
        "*",
        "an entry point of the workflow (a query reached from outside)",
    ),
    ("◆", "a key attribute of an entity"),
    ("▾ ▸", "expanded / collapsed (← → toggle)"),
    (
        "K C ↑ ↓",
        "table columns: partition key, clustering (ascending / descending)",
    ),
    (
        "green / amber / red",
        "estimates against the project's thresholds",
    ),
];

/// The help overlay: every binding of the focused pane, then the global
/// ones, then every popup's, straight from the keymap that drives the keys,
/// each with its command name (what `config.ron` rebinds), then the legend.
pub fn help_lines(app: &App) -> Vec<Line<'static>> {
    let theme = &app.settings.theme;
    let scope = app.focus.scope();
    let mut rows = app.settings.keymap.help(scope);
    for s in Scope::ALL.into_iter().filter(|s| s.is_popup()) {
        rows.extend(app.settings.keymap.help(s));
    }
    let key_w = rows
        .iter()
        .map(|r| r.keys.chars().count())
        .max()
        .unwrap_or(4)
        .min(22);
    let name_w = rows.iter().map(|r| r.command.len()).max().unwrap_or(4);
    let mut lines: Vec<Line> = Vec::new();
    let mut current = None;
    for r in &rows {
        if current != Some(r.scope) {
            if current.is_some() {
                lines.push(Line::from(""));
            }
            let title = if r.scope.is_popup() {
                format!("In popups: {}", r.scope.title())
            } else {
                r.scope.title().to_string()
            };
            lines.push(Line::from(Span::styled(title, theme.title())));
            current = Some(r.scope);
        }
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {:<key_w$}  ", r.keys),
                Style::new().fg(theme.hint_key),
            ),
            Span::styled(format!("{:<name_w$}  ", r.command), theme.dim()),
            Span::raw(r.help),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled(
        "In text fields (names, paths, figures, filters)",
        theme.title(),
    )));
    for (keys, what) in crate::tui::popup::line::LINE_KEYS {
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {keys:<key_w$}  "),
                Style::new().fg(theme.hint_key),
            ),
            Span::raw(what),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("Marks", theme.title())));
    for (mark, what) in LEGEND {
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {mark:<key_w$}  "),
                Style::new().fg(theme.hint_key),
            ),
            Span::raw(what),
        ]));
    }
    lines
}

pub(crate) fn draw_help(app: &App, scroll: usize, frame: &mut Frame, area: Rect) {
    let theme = &app.settings.theme;
    let lines = help_lines(app);
    let r = centered(area, 110, area.height.saturating_sub(2).max(3));
    frame.render_widget(Clear, r);
    let block = super::frame_block(
        theme,
        &format!("Keys — {}", app.focus.scope().title()),
        &app.settings.keymap.footer(Scope::Help, |_| true),
    );
    let max_scroll = lines
        .len()
        .saturating_sub(r.height.saturating_sub(2) as usize);
    let s = scroll.min(max_scroll);
    let visible: Vec<Line> = lines.into_iter().skip(s).collect();
    frame.render_widget(Paragraph::new(visible).block(block), r);
}
