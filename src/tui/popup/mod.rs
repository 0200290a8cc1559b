//! Popups sit on a stack above the panes and take every key while open.
//! They are not components with their own side effects: each returns an
//! outcome carrying the actions to run, so all changes still go through
//! `update`.

pub mod command;
pub mod confirm;
pub mod editor;
pub mod form;
pub mod picker;
pub mod refine;

use super::app::App;
use super::intent::Action;
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::Frame;

pub use crate::edit::EditTarget;
pub use command::CommandLine;
pub use confirm::{Confirm, Info};
pub use editor::{Editor, Input, InputPurpose};
pub use form::Form;
pub use picker::{Pick, Picker};
pub use refine::{Alternatives, RefinePreview};

/// What a popup did with a key.
pub enum Outcome {
    /// Still open.
    Keep,
    /// Closed without doing anything.
    Cancel,
    /// Closed; run these.
    Done(Vec<Action>),
    /// Stays open and these run.
    Run(Vec<Action>),
}

pub enum Popup {
    Confirm(Confirm),
    Info(Info),
    Help { scroll: usize },
    Input(Input),
    Editor(Editor),
    Form(Form),
    Picker(Picker),
    Command(CommandLine),
    Preview(RefinePreview),
    Alternatives(Alternatives),
}

impl Popup {
    pub fn handle(&mut self, app: &App, key: KeyEvent) -> Outcome {
        match self {
            Popup::Confirm(c) => c.handle(key),
            Popup::Info(i) => i.handle(key),
            Popup::Help { scroll } => confirm::help_key(scroll, key),
            Popup::Input(i) => i.handle(&app.project, key),
            Popup::Editor(e) => e.handle(&app.project, key),
            Popup::Form(f) => f.handle(&app.project, key),
            Popup::Picker(p) => p.handle(key),
            Popup::Command(c) => c.handle(key),
            Popup::Preview(p) => p.handle(key),
            Popup::Alternatives(a) => a.handle(key),
        }
    }

    pub fn draw(&self, app: &App, frame: &mut Frame, area: Rect) {
        match self {
            Popup::Confirm(c) => c.draw(&app.theme, frame, area),
            Popup::Info(i) => i.draw(&app.theme, frame, area),
            Popup::Help { scroll } => confirm::draw_help(app, *scroll, frame, area),
            Popup::Input(i) => i.draw(&app.theme, frame, area),
            Popup::Editor(e) => e.draw(&app.theme, frame, area),
            Popup::Form(f) => f.draw(&app.theme, frame, area),
            Popup::Picker(p) => p.draw(&app.theme, frame, area),
            Popup::Command(c) => c.draw(&app.theme, frame, area),
            Popup::Preview(p) => p.draw(&app.theme, frame, area),
            Popup::Alternatives(a) => a.draw(&app.theme, frame, area),
        }
    }
}

/// A centred rectangle of at most `w`×`h` inside `area`.
/// The frame every popup draws in: accent border, sanitized title, key
/// help along the bottom edge.
pub fn frame_block<'a>(
    theme: &super::theme::Theme,
    title: &str,
    help: &str,
) -> ratatui::widgets::Block<'a> {
    use ratatui::style::Style;
    use ratatui::text::Span;
    use ratatui::widgets::{Block, Borders};
    Block::default()
        .borders(Borders::ALL)
        .border_style(Style::new().fg(theme.accent))
        .title(Span::styled(
            format!(" {} ", crate::naming::for_terminal(title)),
            theme.title(),
        ))
        .title_bottom(Span::styled(format!(" {} ", help.trim()), theme.dim()))
}

pub fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}
