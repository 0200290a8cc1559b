//! Yes/no questions (deletes, quitting unsaved, overwriting, recovery),
//! read-only information (provenance) and the generated help overlay.

use super::{centered, Outcome};
use crate::naming::for_terminal;
use crate::tui::app::App;
use crate::tui::intent::Action;
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

    pub fn handle(&mut self, key: KeyEvent) -> Outcome {
        match key.code {
            KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                Outcome::Done(std::mem::take(&mut self.yes))
            }
            KeyCode::Esc if self.must_choose => Outcome::Keep,
            KeyCode::Char('n') | KeyCode::Char('N') | KeyCode::Esc => {
                if self.no.is_empty() {
                    Outcome::Cancel
                } else {
                    Outcome::Done(std::mem::take(&mut self.no))
                }
            }
            _ => Outcome::Keep,
        }
    }

    pub fn draw(&self, theme: &Theme, frame: &mut Frame, area: Rect) {
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
                    "y",
                    Style::new().fg(theme.hint_key).add_modifier(Modifier::BOLD),
                ),
                Span::raw(" yes   "),
                Span::styled(
                    "n",
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
}

impl Info {
    pub fn handle(&mut self, key: KeyEvent) -> Outcome {
        match key.code {
            KeyCode::Esc | KeyCode::Enter | KeyCode::Char('q') => Outcome::Cancel,
            _ => Outcome::Keep,
        }
    }

    pub fn draw(&self, theme: &Theme, frame: &mut Frame, area: Rect) {
        let width = self
            .lines
            .iter()
            .map(|l| l.chars().count() as u16)
            .max()
            .unwrap_or(20)
            .saturating_add(4)
            .clamp(30, 90);
        let r = centered(area, width, self.lines.len() as u16 + 3);
        frame.render_widget(Clear, r);
        let block = super::frame_block(theme, &self.title, " Esc closes ");
        let lines: Vec<Line> = self
            .lines
            .iter()
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

pub fn help_key(scroll: &mut usize, key: KeyEvent) -> Outcome {
    match key.code {
        KeyCode::Esc | KeyCode::Char('?') | KeyCode::Char('q') | KeyCode::Enter | KeyCode::F(1) => {
            Outcome::Cancel
        }
        KeyCode::Down | KeyCode::Char('j') => {
            *scroll += 1;
            Outcome::Keep
        }
        KeyCode::Up | KeyCode::Char('k') => {
            *scroll = scroll.saturating_sub(1);
            Outcome::Keep
        }
        KeyCode::PageDown => {
            *scroll += 10;
            Outcome::Keep
        }
        KeyCode::PageUp => {
            *scroll = scroll.saturating_sub(10);
            Outcome::Keep
        }
        _ => Outcome::Keep,
    }
}

/// The help overlay: every binding of the focused pane, then the global
/// ones, straight from the keymap that drives the keys, plus the popup keys.
pub fn draw_help(app: &App, scroll: usize, frame: &mut Frame, area: Rect) {
    let theme = &app.theme;
    let scope = app.focus.scope();
    let rows = app.keymap.help(scope);
    let key_w = rows
        .iter()
        .map(|(_, k, _)| k.chars().count())
        .max()
        .unwrap_or(4)
        .min(22);
    let mut lines: Vec<Line> = Vec::new();
    let mut current = None;
    for (s, keys, help) in &rows {
        if current != Some(*s) {
            if current.is_some() {
                lines.push(Line::from(""));
            }
            lines.push(Line::from(Span::styled(
                s.title().to_string(),
                theme.title(),
            )));
            current = Some(*s);
        }
        lines.push(Line::from(vec![
            Span::styled(
                format!("  {keys:<key_w$}  "),
                Style::new().fg(theme.hint_key),
            ),
            Span::raw(*help),
        ]));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("In popups", theme.title())));
    for (k, h) in [
        (
            "Enter",
            "confirm / apply (the text editor applies only valid text)",
        ),
        ("Esc", "cancel"),
        ("Space", "pick or unpick in a list; type to narrow it"),
        ("← →", "ordering pickers: ascending / descending"),
        ("Tab", "command line: complete"),
    ] {
        lines.push(Line::from(vec![
            Span::styled(format!("  {k:<key_w$}  "), Style::new().fg(theme.hint_key)),
            Span::raw(h),
        ]));
    }
    let r = centered(area, 84, area.height.saturating_sub(2).max(3));
    frame.render_widget(Clear, r);
    let block = super::frame_block(
        theme,
        &format!("Keys — {}", scope.title()),
        "↑↓ scroll · Esc closes",
    );
    let max_scroll = lines
        .len()
        .saturating_sub(r.height.saturating_sub(2) as usize);
    let s = scroll.min(max_scroll);
    let visible: Vec<Line> = lines.into_iter().skip(s).collect();
    frame.render_widget(Paragraph::new(visible).block(block), r);
}
