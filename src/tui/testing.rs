//! For tests only (integration tests, benches, examples): drive the
//! workbench through its real event entry point and read what it draws.
//! Nothing in the workbench itself calls this module.

use super::app::App;
use super::config::Dirs;
use super::{handle_event, start, view, Launch, SAMPLE};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::Path;

/// Config and data directories under `root`, so a test never reads or
/// writes the user's.
pub fn dirs(root: &Path) -> Dirs {
    Dirs {
        config: Some(root.join("config")),
        data: Some(root.join("data")),
    }
}

/// The bundled hotel sample written to `dir` and opened from there.
pub fn hotel(dir: &Path) -> App {
    let file = dir.join("hotel.cqlm.ron");
    std::fs::write(&file, SAMPLE).expect("write the hotel sample");
    start(Launch::Open(file), dirs(dir)).expect("the hotel sample opens")
}

/// One key press with these modifiers, through the event entry point the
/// terminal loop uses.
pub fn key_with(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    handle_event(
        app,
        Event::Key(KeyEvent::new_with_kind(code, mods, KeyEventKind::Press)),
    );
}

/// One key press as a terminal reports it: upper-case letters and `BackTab`
/// with Shift, everything else without modifiers.
pub fn key(app: &mut App, code: KeyCode) {
    let mods = match code {
        KeyCode::Char(c) if c.is_ascii_uppercase() => KeyModifiers::SHIFT,
        KeyCode::BackTab => KeyModifiers::SHIFT,
        _ => KeyModifiers::NONE,
    };
    key_with(app, code, mods);
}

/// One character key.
pub fn press(app: &mut App, c: char) {
    key(app, KeyCode::Char(c));
}

/// Each character of `text` as a key press.
pub fn typed(app: &mut App, text: &str) {
    for c in text.chars() {
        press(app, c);
    }
}

pub fn enter(app: &mut App) {
    key(app, KeyCode::Enter);
}

/// Ctrl and a letter.
pub fn ctrl(app: &mut App, c: char) {
    key_with(app, KeyCode::Char(c), KeyModifiers::CONTROL);
}

/// The workbench drawn on a `w`×`h` test terminal.
pub fn render(app: &App, w: u16, h: u16) -> TestBackend {
    let mut t = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
    t.draw(|f| view::draw(app, f)).expect("draw");
    t.backend().clone()
}

/// The workbench drawn on a `w`×`h` test terminal, one line per row.
pub fn screen(app: &App, w: u16, h: u16) -> String {
    let backend = render(app, w, h);
    let buf = backend.buffer();
    let mut s = String::new();
    for y in 0..h {
        for x in 0..w {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}
