//! Popups sit on a stack above the panes and take every key while open.
//! They are not components with their own side effects: each returns an
//! outcome carrying the actions to run, so all changes still go through
//! `update`.

pub mod command;
pub mod confirm;
pub mod diagnostic;
pub mod editor;
pub mod form;
pub mod line;
pub mod picker;
pub mod refine;
pub mod welcome;

use super::app::App;
use super::intent::Action;
use super::keymap::{Command, Scope};
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::Frame;

pub use crate::edit::EditTarget;
pub use command::CommandLine;
pub use confirm::{Confirm, Info};
pub use diagnostic::DiagnosticDetail;
pub use editor::{Editor, Input, InputPurpose};
pub use form::Form;
pub use picker::{Pick, Picker};
pub use refine::{Alternatives, RefinePreview};
pub use welcome::Welcome;

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
    Editor(Box<Editor>),
    Form(Form),
    Picker(Picker),
    Command(CommandLine),
    Preview(Box<RefinePreview>),
    Alternatives(Alternatives),
    Diagnostic(DiagnosticDetail),
    Welcome(Welcome),
}

/// Why the first edit among `actions` would be refused, if it would.
fn refused(p: &crate::model::Project, actions: &[Action]) -> Option<String> {
    actions.iter().find_map(|a| match a {
        Action::Edit(e) => crate::edit::would_admit(p, e).err(),
        _ => None,
    })
}

impl Popup {
    /// The binding-table scope whose keys this popup reads.
    pub fn scope(&self) -> Scope {
        match self {
            Popup::Confirm(_) => Scope::Confirm,
            Popup::Info(_) => Scope::Info,
            Popup::Help { .. } => Scope::Help,
            Popup::Input(_) => Scope::Input,
            Popup::Editor(_) => Scope::Editor,
            Popup::Picker(_) => Scope::Picker,
            Popup::Command(_) => Scope::CommandLine,
            Popup::Preview(_) => Scope::Preview,
            Popup::Alternatives(_) => Scope::Alternatives,
            Popup::Form(_) => Scope::Form,
            Popup::Diagnostic(_) => Scope::Detail,
            Popup::Welcome(_) => Scope::Welcome,
        }
    }

    /// Looks the key up in the popup's scope; the popup gets the command
    /// (if any) and the raw key (for typing).
    pub(crate) fn handle(&mut self, app: &App, key: KeyEvent) -> Outcome {
        let cmd = app.settings.keymap.lookup(self.scope(), &key);
        match self {
            Popup::Confirm(c) => c.handle(cmd, key),
            Popup::Info(i) => i.handle(cmd),
            Popup::Help { scroll } => confirm::help_key(scroll, cmd),
            Popup::Input(i) => i.handle(&app.project, cmd, key),
            Popup::Form(f) => f.handle(&app.project, cmd, key),
            Popup::Editor(e) => e.handle(&app.project, cmd, key),
            Popup::Picker(p) => match p.handle(cmd, key) {
                // A refused choice keeps the list open, with why.
                Outcome::Done(actions) => match refused(&app.project, &actions) {
                    Some(why) => {
                        p.error = Some(why);
                        Outcome::Keep
                    }
                    None => Outcome::Done(actions),
                },
                other => other,
            },
            Popup::Command(c) => c.handle(cmd, key),
            Popup::Preview(p) => p.handle(cmd),
            Popup::Alternatives(a) => a.handle(cmd),
            Popup::Diagnostic(d) => d.handle(app, key),
            Popup::Welcome(w) => w.handle(app, key),
        }
    }

    pub fn draw(&self, app: &App, frame: &mut Frame, area: Rect) {
        let (t, k) = (&app.settings.theme, &app.settings.keymap);
        match self {
            Popup::Confirm(c) => c.draw(t, k, frame, area),
            Popup::Info(i) => i.draw(t, k, frame, area),
            Popup::Help { scroll } => confirm::draw_help(app, *scroll, frame, area),
            Popup::Input(i) => i.draw(t, k, frame, area),
            Popup::Editor(e) => e.draw(t, k, frame, area),
            Popup::Form(f) => f.draw(t, k, frame, area),
            Popup::Picker(p) => p.draw(t, k, frame, area),
            Popup::Command(c) => c.draw(t, frame, area),
            Popup::Preview(p) => p.draw(t, k, frame, area),
            Popup::Alternatives(a) => a.draw(t, k, frame, area),
            Popup::Diagnostic(d) => d.draw(app, frame, area),
            Popup::Welcome(w) => w.draw(app, frame, area),
        }
    }
}

/// Scrolling shared by the popups that show text: the pane keys, by
/// command; `true` when the command scrolled. `End` goes past the end and
/// the drawing clamps it, like the panes.
pub(crate) fn scroll_by(scroll: &mut usize, cmd: Option<Command>) -> bool {
    match cmd {
        Some(Command::Up) => *scroll = scroll.saturating_sub(1),
        Some(Command::Down) => *scroll = scroll.saturating_add(1),
        Some(Command::PageUp) => *scroll = scroll.saturating_sub(10),
        Some(Command::PageDown) => *scroll = scroll.saturating_add(10),
        Some(Command::Top) => *scroll = 0,
        Some(Command::End) => *scroll = SCROLL_END,
        _ => return false,
    }
    true
}

/// The scroll `End` sets; drawing clamps it to the last page.
pub(crate) const SCROLL_END: usize = 1_000_000;

/// A centred rectangle of at most `w`×`h` inside `area`.
/// The frame every popup draws in: accent border, sanitized title, key
/// help along the bottom edge.
pub(crate) fn frame_block<'a>(
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
            format!(" {} ", crate::model::naming::for_terminal(title)),
            theme.title(),
        ))
        .title_bottom(Span::styled(format!(" {} ", help.trim()), theme.dim()))
}

pub(crate) fn centered(area: Rect, w: u16, h: u16) -> Rect {
    let w = w.min(area.width);
    let h = h.min(area.height);
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}
