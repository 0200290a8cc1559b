//! Text entry: a one-line input for names and short specs, and the RON
//! editor that edits any item as text, validating the whole project with
//! the item replaced on every keystroke and applying only valid text.

use super::{centered, Outcome};
use crate::edit::{Edit, EditTarget};
use crate::model::load;
use crate::model::naming::for_terminal;
use crate::model::Project;
use crate::tui::intent::Action;
use crate::tui::keymap::{Command, Keymap, Scope};
use crate::tui::popup::line::LineField;
use crate::tui::theme::Theme;
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};
use ratatui::Frame;
use tui_textarea::TextArea;

/// What a one-line input is for.
#[derive(Clone, Debug, PartialEq)]
pub enum InputPurpose {
    AddEntity,
    /// Attribute of an entity (`true`) or relationship (`false`) by index.
    AddAttribute(crate::model::resolve::NodeId),
    AddRelationship,
    AddQuery,
    Rename(crate::tui::edit::Item),
    PinName(String),
    AddNote(crate::model::Target),
    /// The reason of a waiver of the finding of `rule` on `subject`.
    Waive {
        rule: String,
        subject: String,
    },
    Filter(crate::tui::app::Focus),
    /// A query's LIMIT (empty: none).
    Limit(usize),
    /// The name of a new relationship whose ends and cardinality were
    /// picked: from, cardinality, to.
    NameRelationship(String, String, String),
}

/// A LIMIT as typed: empty is none, else a whole number above 0.
pub(crate) fn parse_limit(text: &str) -> Result<Option<u32>, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(None);
    }
    match text.parse::<u32>() {
        Ok(n) if n > 0 => Ok(Some(n)),
        _ => Err(format!(
            "{text} is not a LIMIT: a whole number above 0 (empty: none)"
        )),
    }
}

pub struct Input {
    pub title: String,
    pub prompt: String,
    pub area: LineField,
    pub purpose: InputPurpose,
    /// Why the last Enter was refused; the text stays for correcting.
    pub error: Option<String>,
}

impl Input {
    pub fn new(title: &str, prompt: &str, initial: &str, purpose: InputPurpose) -> Input {
        Input {
            title: title.to_string(),
            prompt: prompt.to_string(),
            // A prefilled name or number is selected: typing replaces it.
            area: if matches!(
                purpose,
                InputPurpose::Rename(_) | InputPurpose::PinName(_) | InputPurpose::Limit(_)
            ) {
                LineField::selected(initial)
            } else {
                LineField::new(initial)
            },
            purpose,
            error: None,
        }
    }

    pub fn text(&self) -> String {
        self.area.text().to_string()
    }

    pub(crate) fn handle(&mut self, p: &Project, cmd: Option<Command>, key: KeyEvent) -> Outcome {
        match cmd {
            Some(Command::Cancel) => {
                if let InputPurpose::Filter(f) = self.purpose {
                    return Outcome::Done(vec![Action::SetFilter(f, String::new())]);
                }
                Outcome::Cancel
            }
            Some(Command::Accept) => {
                let text = self.text().trim().to_string();
                if let InputPurpose::Limit(q) = self.purpose {
                    return match parse_limit(&text) {
                        Ok(limit) => Outcome::Done(vec![Action::Edit(Edit::SetLimit(q, limit))]),
                        Err(why) => {
                            self.error = Some(why);
                            Outcome::Keep
                        }
                    };
                }
                let actions = self.finish(text);
                // A refused edit keeps the dialog and the text, with why.
                for a in &actions {
                    if let Action::Edit(e) = a {
                        if let Err(why) = crate::edit::would_admit(p, e) {
                            self.error = Some(why);
                            return Outcome::Keep;
                        }
                    }
                }
                Outcome::Done(actions)
            }
            _ => self.type_key(key),
        }
    }

    fn type_key(&mut self, key: KeyEvent) -> Outcome {
        if !self.area.key(key) {
            return Outcome::Keep;
        }
        self.error = None;
        if let InputPurpose::Filter(f) = self.purpose {
            return Outcome::Run(vec![Action::SetFilter(f, self.text())]);
        }
        Outcome::Keep
    }

    fn finish(&self, text: String) -> Vec<Action> {
        use InputPurpose as P;
        if text.is_empty() && !matches!(self.purpose, P::Filter(_)) {
            return vec![];
        }
        let edit = match &self.purpose {
            P::AddEntity => Edit::AddEntity(text),
            P::AddAttribute(n) => Edit::AddAttribute(*n, text),
            P::AddRelationship => Edit::AddRelationship(text),
            P::AddQuery => return vec![Action::PickRowsForNewQuery(text)],
            P::Rename(item) => Edit::Rename(*item, text),
            P::PinName(q) => Edit::PinName(q.clone(), text),
            P::AddNote(t) => Edit::AddNote(t.clone(), text),
            P::Waive { rule, subject } => Edit::AddWaiver(crate::model::Waiver {
                rule: rule.clone(),
                subject: subject.clone(),
                reason: text,
                by: None,
                on: None,
            }),
            P::Filter(f) => return vec![Action::SetFilter(*f, text)],
            P::NameRelationship(from, card, to) => {
                Edit::AddRelationship(format!("{text}: {from} {card} {to}"))
            }
            P::Limit(_) => return vec![],
        };
        vec![Action::Edit(edit)]
    }

    pub fn draw(&self, theme: &Theme, keymap: &Keymap, frame: &mut Frame, area: Rect) {
        let r = centered(area, 64, if self.error.is_some() { 6 } else { 5 });
        frame.render_widget(Clear, r);
        let block = super::frame_block(theme, &self.title, &keymap.footer(Scope::Input, |_| true));
        let inner = block.inner(r);
        frame.render_widget(block, r);
        if inner.height == 0 {
            return;
        }
        let prompt = Rect { height: 1, ..inner };
        frame.render_widget(
            Paragraph::new(Span::styled(self.prompt.clone(), theme.dim())),
            prompt,
        );
        if inner.height >= 2 {
            let field = Rect {
                y: inner.y + 1,
                height: 1,
                ..inner
            };
            frame.render_widget(Paragraph::new(self.area.spans(true)), field);
        }
        if let (Some(e), true) = (&self.error, inner.height >= 3) {
            let line = Rect {
                y: inner.y + 2,
                height: 1,
                ..inner
            };
            frame.render_widget(
                Paragraph::new(Span::styled(
                    format!("✗ {}", for_terminal(e)),
                    Style::new().fg(theme.bad),
                )),
                line,
            );
        }
    }
}

pub struct Editor {
    pub target: EditTarget,
    pub title: String,
    pub area: TextArea<'static>,
    /// The first problem with the current text; `None` when it applies.
    pub error: Option<String>,
}

impl Editor {
    pub fn new(p: &Project, target: EditTarget) -> Option<Editor> {
        let text = target.render(p)?;
        let mut area = TextArea::new(text.lines().map(str::to_string).collect());
        area.set_cursor_line_style(Style::default());
        Some(Editor {
            title: format!("Edit {} as RON", target.label(p)),
            target,
            area,
            error: None,
        })
    }

    pub fn text(&self) -> String {
        self.area.lines().join("\n")
    }

    /// Parses and validates the project with the item replaced.
    pub fn check(&self, p: &Project) -> Result<(), String> {
        let mut next = p.clone();
        self.target.replace(&mut next, &self.text())?;
        match load::validate(&next).first() {
            Some(problem) => Err(problem.to_string()),
            None => Ok(()),
        }
    }

    pub(crate) fn handle(&mut self, p: &Project, cmd: Option<Command>, key: KeyEvent) -> Outcome {
        match cmd {
            Some(Command::Cancel) => Outcome::Cancel,
            // Enter itself types a new line: applying has its own keys.
            Some(Command::Apply) => self.apply(p),
            _ => {
                self.area.input(key);
                self.error = self.check(p).err();
                Outcome::Keep
            }
        }
    }

    fn apply(&mut self, p: &Project) -> Outcome {
        match self.check(p) {
            Ok(()) => Outcome::Done(vec![Action::Edit(Edit::Replace(
                self.target.clone(),
                self.text(),
            ))]),
            Err(e) => {
                self.error = Some(e);
                Outcome::Keep
            }
        }
    }

    pub fn draw(&self, theme: &Theme, keymap: &Keymap, frame: &mut Frame, area: Rect) {
        let r = centered(area, 90, area.height.saturating_sub(2).max(3));
        frame.render_widget(Clear, r);
        let block = super::frame_block(theme, &self.title, &keymap.footer(Scope::Editor, |_| true));
        let inner = block.inner(r);
        frame.render_widget(block, r);
        let msg_h = if inner.height > 4 { 2 } else { 0 };
        let edit = Rect {
            height: inner.height - msg_h,
            ..inner
        };
        frame.render_widget(&self.area, edit);
        if msg_h > 0 {
            let msg = Rect {
                y: inner.y + inner.height - msg_h,
                height: msg_h,
                ..inner
            };
            let line = match &self.error {
                Some(e) => Line::from(Span::styled(
                    format!("✗ {}", for_terminal(e)),
                    Style::new().fg(theme.bad),
                )),
                None => Line::from(Span::styled(
                    format!(
                        "✓ valid — {} applies",
                        keymap.key_name(Scope::Editor, Command::Apply)
                    ),
                    Style::new().fg(theme.ok),
                )),
            };
            frame.render_widget(Paragraph::new(line).wrap(Wrap { trim: true }), msg);
        }
    }
}
