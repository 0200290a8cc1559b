//! Entering and leaving the terminal's interactive mode. The terminal is
//! restored on every exit path: a guard's `Drop` on normal return and early
//! errors, and a panic hook that restores before the message is printed, so
//! the message is readable and the shell is usable afterwards.

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::ExecutableCommand;
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::{stdout, Stdout};

/// Leaves raw mode, the alternate screen, mouse capture and bracketed
/// paste. Safe to call more than once.
pub fn restore() {
    let mut out = stdout();
    let _ = out.execute(DisableMouseCapture);
    let _ = out.execute(DisableBracketedPaste);
    let _ = out.execute(LeaveAlternateScreen);
    let _ = out.execute(crossterm::cursor::Show);
    let _ = disable_raw_mode();
}

/// Restores the terminal when dropped.
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

pub fn install_panic_hook() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

pub fn setup(mouse: bool) -> std::io::Result<(Terminal<CrosstermBackend<Stdout>>, Guard)> {
    install_panic_hook();
    enable_raw_mode()?;
    let guard = Guard;
    let mut out = stdout();
    out.execute(EnterAlternateScreen)?;
    out.execute(EnableBracketedPaste)?;
    if mouse {
        out.execute(EnableMouseCapture)?;
    }
    let terminal = Terminal::new(CrosstermBackend::new(out))?;
    Ok((terminal, guard))
}
