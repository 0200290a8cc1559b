//! A small dialog of labelled one-line fields (the figures of an item).
//! Enter checks every field through the core ([`crate::edit::numbers`]):
//! when one is wrong the dialog stays open, keeps the text and shows the
//! error under that field.

use super::{centered, Outcome};
use crate::edit::numbers::{self, Field};
use crate::edit::Item;
use crate::model::naming::for_terminal;
use crate::model::Project;
use crate::tui::intent::Action;
use crate::tui::keymap::{Command, Keymap, Scope};
use crate::tui::popup::line::LineField;
use crate::tui::theme::Theme;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

pub struct Form {
    pub title: String,
    pub item: Item,
    pub fields: Vec<Field>,
    pub errors: Vec<Option<String>>,
    /// The field the cursor is in.
    pub focus: usize,
    /// The focused field's text and cursor; its text is copied into
    /// `fields` on every key, so `fields` always holds what is shown.
    line: LineField,
}

impl Form {
    /// The figures form of an item; `None` when it has no figures.
    pub fn numbers(p: &Project, item: Item, label: &str) -> Option<Form> {
        let fields = numbers::fields(p, item)?;
        Some(Form {
            title: format!("Figures of {label}"),
            item,
            errors: vec![None; fields.len()],
            line: LineField::new(fields.first().map_or("", |f| f.value.as_str())),
            fields,
            focus: 0,
        })
    }

    pub fn values(&self) -> Vec<String> {
        self.fields.iter().map(|f| f.value.clone()).collect()
    }

    pub(crate) fn handle(&mut self, p: &Project, cmd: Option<Command>, key: KeyEvent) -> Outcome {
        let n = self.fields.len().max(1);
        match cmd {
            Some(Command::Cancel) => Outcome::Cancel,
            Some(Command::Accept) => match numbers::parse(p, self.item, &self.values()) {
                Ok(edit) => Outcome::Done(vec![Action::Edit(edit)]),
                Err(errors) => {
                    if let Some(first) = errors.iter().position(Option::is_some) {
                        self.focus_field(first.min(n - 1));
                    }
                    self.errors = errors;
                    self.errors.resize(self.fields.len(), None);
                    Outcome::Keep
                }
            },
            Some(Command::Down) => {
                self.focus_field((self.focus + 1) % n);
                Outcome::Keep
            }
            Some(Command::Up) => {
                self.focus_field((self.focus + n - 1) % n);
                Outcome::Keep
            }
            _ => self.type_key(key),
        }
    }

    fn focus_field(&mut self, i: usize) {
        self.focus = i;
        self.line = LineField::new(self.fields.get(i).map_or("", |f| f.value.as_str()));
    }

    /// Keys the dialog's scope does not bind edit the focused field, with
    /// the line-editing keys of every one-line field.
    fn type_key(&mut self, key: KeyEvent) -> Outcome {
        let choices = self.fields.get(self.focus).map_or(&[][..], |f| f.choices);
        if !choices.is_empty() {
            return self.choose(choices, key);
        }
        if self.line.key(key) {
            if let Some(f) = self.fields.get_mut(self.focus) {
                f.value = self.line.text().to_string();
            }
            if let Some(e) = self.errors.get_mut(self.focus) {
                *e = None;
            }
        }
        Outcome::Keep
    }

    /// A toggle takes no text: Space and ← → cycle it, a letter picks
    /// the choice it starts (`y`, `n`).
    fn choose(&mut self, choices: &'static [&'static str], key: KeyEvent) -> Outcome {
        let Some(f) = self.fields.get_mut(self.focus) else {
            return Outcome::Keep;
        };
        let at = choices.iter().position(|c| *c == f.value).unwrap_or(0);
        let next = match key.code {
            KeyCode::Char(' ') | KeyCode::Right => (at + 1) % choices.len(),
            KeyCode::Left => (at + choices.len() - 1) % choices.len(),
            KeyCode::Char(c) => match choices
                .iter()
                .position(|x| x.starts_with(c.to_ascii_lowercase()))
            {
                Some(i) => i,
                None => return Outcome::Keep,
            },
            _ => return Outcome::Keep,
        };
        f.value = choices[next].to_string();
        self.line = LineField::new(&f.value);
        if let Some(e) = self.errors.get_mut(self.focus) {
            *e = None;
        }
        Outcome::Keep
    }

    pub fn draw(&self, theme: &Theme, keymap: &Keymap, frame: &mut Frame, area: Rect) {
        // Each field takes a label line, a value line and an error line.
        let h = (self.fields.len() as u16) * 3 + 2;
        let r = centered(area, 70, h);
        frame.render_widget(Clear, r);
        let block = super::frame_block(theme, &self.title, &keymap.footer(Scope::Form, |_| true));
        let inner = block.inner(r);
        frame.render_widget(block, r);
        let mut lines = Vec::new();
        for (i, f) in self.fields.iter().enumerate() {
            let focused = i == self.focus;
            let mark = if focused { "▸ " } else { "  " };
            lines.push(Line::from(vec![
                Span::styled(mark, theme.title()),
                Span::styled(for_terminal(&f.label), theme.title()),
            ]));
            let value = if !f.choices.is_empty() {
                // A toggle shows as a box, and how to change it.
                let mark = if f.value == "yes" { "[x]" } else { "[ ]" };
                Line::from(vec![
                    Span::raw(format!("    {mark} {}", for_terminal(&f.value))),
                    Span::styled(
                        if focused {
                            format!("   {}", f.hint)
                        } else {
                            String::new()
                        },
                        theme.dim(),
                    ),
                ])
            } else if f.value.is_empty() && !focused {
                Line::from(Span::styled(format!("    {}", f.hint), theme.dim()))
            } else if focused {
                let mut line = self.line.spans(true);
                line.spans.insert(0, Span::raw("    "));
                line
            } else {
                Line::from(format!("    {}", for_terminal(&f.value)))
            };
            lines.push(value);
            lines.push(match self.errors.get(i).cloned().flatten() {
                Some(e) => Line::from(Span::styled(
                    format!("    ✗ {}", for_terminal(&e)),
                    Style::new().fg(theme.bad),
                )),
                None => Line::default(),
            });
        }
        // Keep the focused field in view on small terminals.
        let visible = inner.height as usize;
        let skip = (self.focus * 3 + 3).saturating_sub(visible);
        frame.render_widget(
            Paragraph::new(lines.into_iter().skip(skip).collect::<Vec<_>>()),
            inner,
        );
    }
}
