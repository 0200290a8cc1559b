//! The detail view of one diagnostic: the whole message, the fix, the rule
//! and where its guidance comes from, folded to the popup's width and
//! scrollable. Its keys come from the keymap's `Detail` scope; from here
//! the designer jumps to the subject or previews the one-key fix.

use super::{centered, Outcome};
use crate::model::naming::for_terminal;
use crate::output::report::subject_label;
use crate::review::diagnose::{rule, Diagnostic, Severity};
use crate::tui::app::App;
use crate::tui::intent::Action;
use crate::tui::keymap::{Command, Scope};
use crate::tui::view::wrap::wrap_styled;
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

/// Which diagnostic is shown (its index in the analysis) and how far the
/// text is scrolled.
pub struct DiagnosticDetail {
    pub index: usize,
    pub scroll: usize,
}

impl DiagnosticDetail {
    pub(crate) fn handle(&mut self, app: &App, key: KeyEvent) -> Outcome {
        use Command as C;
        match app.settings.keymap.lookup(Scope::Detail, &key) {
            Some(C::Close) => Outcome::Cancel,
            Some(C::GoToSubject) => Outcome::Done(vec![Action::Command(C::Jump)]),
            Some(C::Fix) => Outcome::Done(vec![Action::Command(C::Fix)]),
            Some(C::Up) => {
                self.scroll = self.scroll.saturating_sub(1);
                Outcome::Keep
            }
            Some(C::Down) => {
                self.scroll += 1;
                Outcome::Keep
            }
            Some(C::PageUp) => {
                self.scroll = self.scroll.saturating_sub(10);
                Outcome::Keep
            }
            Some(C::PageDown) => {
                self.scroll += 10;
                Outcome::Keep
            }
            Some(C::Top) => {
                self.scroll = 0;
                Outcome::Keep
            }
            Some(C::End) => {
                self.scroll = usize::MAX / 2;
                Outcome::Keep
            }
            _ => Outcome::Keep,
        }
    }

    pub fn draw(&self, app: &App, frame: &mut Frame, area: Rect) {
        let theme = &app.settings.theme;
        let Some(d) = app.analysis.diagnostics.get(self.index) else {
            return;
        };
        let r = centered(area, 96, area.height.saturating_sub(2).max(3));
        frame.render_widget(Clear, r);
        let hints: Vec<String> = app
            .settings
            .keymap
            .hints(Scope::Detail)
            .into_iter()
            .filter(|(_, label)| *label != "help" && *label != "quit" && *label != "undo")
            .map(|(k, label)| format!("{k} {label}"))
            .collect();
        let block = super::frame_block(
            theme,
            &format!(
                "{} {} of {}",
                d.severity.label(),
                self.index + 1,
                app.analysis.diagnostics.len()
            ),
            &format!("{} · ↑↓ scroll", hints.join(" · ")),
        );
        let inner = block.inner(r);
        frame.render_widget(block, r);
        let width = inner.width.max(1) as usize;
        let lines = detail_lines(app, d, width);
        let max_scroll = lines.len().saturating_sub(inner.height as usize);
        let visible: Vec<Line> = lines
            .into_iter()
            .skip(self.scroll.min(max_scroll))
            .collect();
        frame.render_widget(Paragraph::new(visible), inner);
    }
}

/// The text of the view, folded to `width`.
fn detail_lines(app: &App, d: &Diagnostic, width: usize) -> Vec<Line<'static>> {
    let theme = &app.settings.theme;
    let color = match d.severity {
        Severity::Error => theme.bad,
        Severity::Warning => theme.warn,
        Severity::Hint => theme.accent,
    };
    let bold = Style::new().add_modifier(Modifier::BOLD);
    let heading = |text: &str| Line::styled(text.to_string(), theme.title());
    let mut out = Vec::new();
    let title = rule(d.rule).map_or("", |r| r.title);
    out.extend(wrap_styled(
        &[
            (
                format!("{} ", d.severity.label()),
                Style::new().fg(color).add_modifier(Modifier::BOLD),
            ),
            (format!("[{}] ", d.rule), theme.dim()),
            (title.to_string(), bold),
        ],
        width,
        2,
    ));
    out.extend(wrap_styled(
        &[
            ("on ".to_string(), theme.dim()),
            (for_terminal(&subject_label(&d.subject)).into_owned(), bold),
        ],
        width,
        2,
    ));
    if let Some(w) = &d.waived {
        out.extend(wrap_styled(
            &[
                ("waived: ".to_string(), theme.dim()),
                (
                    for_terminal(&crate::output::report::waiver_line(w)).into_owned(),
                    Style::new(),
                ),
            ],
            width,
            2,
        ));
    }
    out.push(Line::from(""));
    out.push(heading("What goes wrong"));
    out.extend(wrap_styled(
        &[(format!("  {}", for_terminal(d.message())), Style::new())],
        width,
        2,
    ));
    out.push(Line::from(""));
    out.push(heading("Fix"));
    out.extend(wrap_styled(
        &[(format!("  {}", for_terminal(d.fix())), Style::new())],
        width,
        2,
    ));
    let fix_key = app.settings.keymap.key_for(Scope::Detail, Command::Fix);
    let one_key = match (&d.refinement, fix_key) {
        (Some(_), Some(k)) => {
            format!("  {k} previews the one-key fix; nothing changes before you apply it.")
        }
        (Some(_), None) => "  A one-key fix exists (bind the fix command to use it).".to_string(),
        (None, _) => "  No one-key fix: change the model by hand.".to_string(),
    };
    out.extend(wrap_styled(&[(one_key, theme.dim())], width, 2));
    out.push(Line::from(""));
    out.push(heading("Source"));
    out.extend(wrap_styled(
        &[(format!("  {}", for_terminal(d.source)), Style::new())],
        width,
        2,
    ));
    out
}
