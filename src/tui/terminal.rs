//! Entering and leaving the terminal's interactive mode. The terminal is
//! restored exactly once on every exit path: a guard's `Drop` on normal
//! return and early errors, a panic hook that restores before the message
//! is printed (so the later `Drop` during unwinding writes nothing over the
//! message), and the termination signals, which end the event loop so the
//! recovery copy is written and the guard restores.

use crossterm::event::{
    DisableBracketedPaste, DisableMouseCapture, EnableBracketedPaste, EnableMouseCapture,
};
use crossterm::terminal::{
    disable_raw_mode, enable_raw_mode, EnterAlternateScreen, LeaveAlternateScreen,
};
use crossterm::ExecutableCommand;
use ratatui::backend::CrosstermBackend;
use ratatui::Terminal;
use std::io::{stdout, Stdout, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

/// Whether the terminal is in interactive mode and still to be restored.
static ACTIVE: AtomicBool = AtomicBool::new(false);

/// The number of the termination signal received, 0 while none.
fn pending() -> &'static Arc<AtomicUsize> {
    static PENDING: OnceLock<Arc<AtomicUsize>> = OnceLock::new();
    PENDING.get_or_init(|| Arc::new(AtomicUsize::new(0)))
}

/// The signals that end the workbench: the terminal is restored and the
/// recovery copy kept. (Ctrl-C in raw mode is a key, not SIGINT; it asks
/// to quit like `q`. SIGINT from `kill` ends the session like the others.)
pub(crate) const TERMINATING: [i32; 4] = [
    signal_hook::consts::SIGTERM,
    signal_hook::consts::SIGHUP,
    signal_hook::consts::SIGINT,
    signal_hook::consts::SIGQUIT,
];

/// Records termination signals instead of dying at once; the event loop
/// looks at [`signal_received`] between events (at least every 250 ms).
pub(crate) fn watch_signals() -> std::io::Result<()> {
    for sig in TERMINATING {
        signal_hook::flag::register_usize(sig, Arc::clone(pending()), sig as usize)?;
    }
    signal_hook::flag::register(signal_hook::consts::SIGTSTP, Arc::clone(suspend_asked()))?;
    Ok(())
}

/// Set by SIGTSTP (`kill -TSTP`, a job-control stop from the shell; in raw
/// mode Ctrl-Z is a key, not the signal).
fn suspend_asked() -> &'static Arc<AtomicBool> {
    static ASKED: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    ASKED.get_or_init(|| Arc::new(AtomicBool::new(false)))
}

/// Suspends like other terminal programs when SIGTSTP came: the terminal
/// is given back (alternate screen, mouse and raw mode left), the process
/// stops as the signal's default would, and on `fg` the interactive mode
/// comes back. Whether it did (the caller then redraws everything).
pub(crate) fn suspend_if_asked(mouse: bool) -> std::io::Result<bool> {
    if !suspend_asked().swap(false, Ordering::SeqCst) {
        return Ok(false);
    }
    restore();
    signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGTSTP)?;
    // Continued (SIGCONT): interactive again.
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let mut out = stdout();
    out.execute(EnterAlternateScreen)?;
    out.execute(EnableBracketedPaste)?;
    if mouse {
        out.execute(EnableMouseCapture)?;
    }
    Ok(true)
}

/// The termination signal received, if any.
pub(crate) fn signal_received() -> Option<i32> {
    match pending().load(Ordering::SeqCst) {
        0 => None,
        n => i32::try_from(n).ok(),
    }
}

/// Whether the terminal hung up: a hung-up tty answers every ioctl with
/// EIO, so standard output stops being a terminal. (crossterm's `size`
/// falls back to `tput` and would still answer.)
pub fn gone() -> bool {
    use std::io::IsTerminal;
    !stdout().is_terminal()
}

/// The conventional name of a signal, for the farewell message.
pub(crate) fn signal_name(sig: i32) -> &'static str {
    match sig {
        signal_hook::consts::SIGTERM => "SIGTERM",
        signal_hook::consts::SIGHUP => "SIGHUP",
        signal_hook::consts::SIGINT => "SIGINT",
        signal_hook::consts::SIGQUIT => "SIGQUIT",
        _ => "a signal",
    }
}

/// Leaves raw mode, the alternate screen, mouse capture and bracketed
/// paste, and shows the cursor. Only the first call after [`setup`] does
/// anything: a second restore (the guard after the panic hook) would move
/// the cursor back over the panic message.
pub(crate) fn restore() {
    if restore_once(&mut stdout()) {
        let _ = disable_raw_mode();
    }
}

/// Writes the restore sequence if the terminal still needs it; whether it
/// did.
fn restore_once(out: &mut impl Write) -> bool {
    let due = ACTIVE.swap(false, Ordering::SeqCst);
    if due {
        write_restore(out);
    }
    due
}

/// The escape sequences that undo [`setup`].
fn write_restore(out: &mut impl Write) {
    let _ = out.execute(DisableMouseCapture);
    let _ = out.execute(DisableBracketedPaste);
    let _ = out.execute(LeaveAlternateScreen);
    let _ = out.execute(crossterm::cursor::Show);
    let _ = out.flush();
}

/// Restores the terminal when dropped.
pub struct Guard;

impl Drop for Guard {
    fn drop(&mut self) {
        restore();
    }
}

pub(crate) fn install_panic_hook() {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        restore();
        previous(info);
    }));
}

pub fn setup(mouse: bool) -> std::io::Result<(Terminal<CrosstermBackend<Stdout>>, Guard)> {
    install_panic_hook();
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_restore_sequence_leaves_every_mode() {
        let mut out = Vec::new();
        write_restore(&mut out);
        let s = String::from_utf8_lossy(&out);
        for seq in ["\x1b[?1000l", "\x1b[?2004l", "\x1b[?1049l", "\x1b[?25h"] {
            assert!(s.contains(seq), "{seq:?} missing in {s:?}");
        }
    }

    /// The panic hook restores, then the guard's drop during unwinding
    /// restores again: only the first may write, or the cursor moves back
    /// over the panic message.
    #[test]
    fn the_terminal_is_restored_once() {
        ACTIVE.store(true, Ordering::SeqCst);
        let (mut first, mut second) = (Vec::new(), Vec::new());
        assert!(restore_once(&mut first));
        assert!(!restore_once(&mut second));
        assert!(!first.is_empty());
        assert!(second.is_empty(), "{second:?}");
    }

    #[test]
    fn signals_have_names() {
        for sig in TERMINATING {
            assert!(signal_name(sig).starts_with("SIG"));
        }
    }
}
