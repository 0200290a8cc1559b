//! The first screen of `cqlmodel` without a file: open a recent file, a
//! bundled sample, or start an empty project. Its keys come from the
//! keymap's `Welcome` scope (movement falls back to the global keys).

use super::{centered, Outcome};
use crate::model::naming::for_terminal;
use crate::samples::SAMPLES;
use crate::tui::app::App;
use crate::tui::intent::Action;
use crate::tui::keymap::{Command, Scope};
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;
use std::path::PathBuf;

/// Recent files listed on the welcome screen (the rest are a picker away).
const RECENT_SHOWN: usize = 3;

#[derive(Clone, Debug, PartialEq)]
pub enum Choice {
    Recent(PathBuf),
    /// An index into [`SAMPLES`].
    Sample(usize),
    New,
}

pub struct Welcome {
    pub choices: Vec<Choice>,
    pub cursor: usize,
}

impl Welcome {
    /// The choices: recent files first (when there are any), then the
    /// samples, then a new project; the cursor starts on the first.
    pub fn new(recent: &[PathBuf]) -> Welcome {
        let mut choices: Vec<Choice> = recent
            .iter()
            .take(RECENT_SHOWN)
            .cloned()
            .map(Choice::Recent)
            .collect();
        choices.extend((0..SAMPLES.len()).map(Choice::Sample));
        choices.push(Choice::New);
        Welcome { choices, cursor: 0 }
    }

    pub(crate) fn handle(&mut self, app: &App, key: KeyEvent) -> Outcome {
        use Command as C;
        let last = self.choices.len().saturating_sub(1);
        match app.settings.keymap.lookup(Scope::Welcome, &key) {
            Some(C::Open) => match self.choices.get(self.cursor) {
                Some(Choice::Recent(p)) => Outcome::Done(vec![Action::Open(p.clone())]),
                Some(Choice::Sample(i)) => Outcome::Done(vec![Action::OpenSample(*i)]),
                _ => Outcome::Done(vec![Action::Message(new_project_hint(app))]),
            },
            Some(C::StartEmpty) => Outcome::Done(vec![Action::Message(new_project_hint(app))]),
            Some(C::Quit) => Outcome::Done(vec![Action::Quit { force: false }]),
            Some(C::Up) => {
                self.cursor = self.cursor.saturating_sub(1);
                Outcome::Keep
            }
            Some(C::Down) => {
                self.cursor = (self.cursor + 1).min(last);
                Outcome::Keep
            }
            Some(C::Top | C::PageUp) => {
                self.cursor = 0;
                Outcome::Keep
            }
            Some(C::End | C::PageDown) => {
                self.cursor = last;
                Outcome::Keep
            }
            _ => Outcome::Keep,
        }
    }

    pub fn draw(&self, app: &App, frame: &mut Frame, area: Rect) {
        let theme = &app.settings.theme;
        let mut lines: Vec<Line> = vec![
            Line::from("cqlmodel derives Cassandra tables from a conceptual model and"),
            Line::from("the queries the application runs, and reviews them."),
        ];
        let mut section = "";
        for (i, c) in self.choices.iter().enumerate() {
            let (heading, text) = match c {
                Choice::Recent(p) => (
                    "Open a recent file",
                    for_terminal(&p.display().to_string()).into_owned(),
                ),
                Choice::Sample(s) => (
                    "Open a bundled sample (an unsaved copy)",
                    format!("{:<25} {}", SAMPLES[*s].file, SAMPLES[*s].shows),
                ),
                Choice::New => (
                    "Start",
                    "a new, empty project (a adds an entity; :w FILE saves)".to_string(),
                ),
            };
            if heading != section {
                lines.push(Line::from(""));
                lines.push(Line::from(Span::styled(heading, theme.title())));
                section = heading;
            }
            let row = format!("{} {text}", if i == self.cursor { "▸" } else { " " });
            lines.push(if i == self.cursor {
                Line::from(Span::styled(row, theme.selected()))
            } else {
                Line::from(Span::raw(row))
            });
        }
        let keys = |c: Command| {
            app.settings
                .keymap
                .key_for(Scope::Welcome, c)
                .map(|k| k.to_string())
                .unwrap_or_default()
        };
        let help = format!(
            "↑↓ choose · {} opens · {} new project · {} quits",
            keys(Command::Open),
            keys(Command::StartEmpty),
            keys(Command::Quit)
        );
        let height = (lines.len() as u16).saturating_add(2);
        let r = centered(area, 80, height);
        frame.render_widget(Clear, r);
        let block = super::frame_block(theme, "Welcome to cqlmodel", &help);
        let inner = block.inner(r);
        frame.render_widget(block, r);
        // Keep the cursor's row on screen when the terminal is short.
        let cursor_line = lines
            .iter()
            .position(|l| l.spans.first().is_some_and(|s| s.content.starts_with('▸')))
            .unwrap_or(0);
        let skip = (cursor_line + 1).saturating_sub(inner.height as usize);
        let visible: Vec<Line> = lines.into_iter().skip(skip).collect();
        frame.render_widget(Paragraph::new(visible).style(Style::new()), inner);
    }
}

/// What to do first in an empty project, with the keys as bound.
fn new_project_hint(app: &App) -> String {
    let add = app
        .settings
        .keymap
        .key_for(Scope::Concept, Command::Add)
        .map_or_else(|| "a".into(), |k| k.to_string());
    format!("new project: {add} in the Conceptual pane adds an entity; :w FILE saves")
}
