//! Regenerates `screenshots/`: the main screen, CQL and the help overlay of
//! the hotel sample, a refinement preview (logs) and the alternatives
//! matrix (devices), drawn by the real drawing code on `TestBackend` and
//! written as SVG with the buffer's colours.
//!
//!     cargo run --example screenshots

use cqlmodel::model::{load, ExtraKind, Project};
use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::{handle_event, start, view, Launch};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::backend::TestBackend;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};
use ratatui::Terminal;
use std::fmt::Write;

const W: u16 = 160;
const H: u16 = 48;
const CW: f32 = 8.4;
const CH: f32 = 17.0;

fn key(app: &mut App, code: KeyCode) {
    handle_event(
        app,
        Event::Key(KeyEvent::new_with_kind(
            code,
            KeyModifiers::NONE,
            KeyEventKind::Press,
        )),
    );
}

fn press(app: &mut App, c: char) {
    key(app, KeyCode::Char(c));
}

/// Opens a copy of a project written to the scratch directory.
fn open_copy(tmp: &std::path::Path, name: &str, p: &Project) -> std::io::Result<App> {
    std::fs::create_dir_all(tmp)?;
    let file = tmp.join(name);
    std::fs::write(&file, load::to_string(p))?;
    let dirs = Dirs {
        config: Some(tmp.join("config")),
        data: Some(tmp.join("data")),
    };
    start(Launch::Open(file), dirs).map_err(std::io::Error::other)
}

/// xterm's 16 colours and the 256-colour cube, as hex.
fn hex(c: Color, default: &str) -> String {
    const BASE: [&str; 16] = [
        "#000000", "#cd3131", "#0dbc79", "#e5e510", "#2472c8", "#bc3fbc", "#11a8cd", "#e5e5e5",
        "#666666", "#f14c4c", "#23d18b", "#f5f543", "#3b8eea", "#d670d6", "#29b8db", "#ffffff",
    ];
    let idx = |i: u8| -> String {
        match i {
            0..=15 => BASE[i as usize].to_string(),
            16..=231 => {
                let i = i - 16;
                let v = |x: u8| if x == 0 { 0 } else { 55 + 40 * x };
                format!("#{:02x}{:02x}{:02x}", v(i / 36), v((i / 6) % 6), v(i % 6))
            }
            _ => {
                let g = 8 + 10 * (i - 232);
                format!("#{g:02x}{g:02x}{g:02x}")
            }
        }
    };
    match c {
        Color::Reset => default.to_string(),
        Color::Black => idx(0),
        Color::Red => idx(1),
        Color::Green => idx(2),
        Color::Yellow => idx(3),
        Color::Blue => idx(4),
        Color::Magenta => idx(5),
        Color::Cyan => idx(6),
        Color::Gray => idx(7),
        Color::DarkGray => idx(8),
        Color::LightRed => idx(9),
        Color::LightGreen => idx(10),
        Color::LightYellow => idx(11),
        Color::LightBlue => idx(12),
        Color::LightMagenta => idx(13),
        Color::LightCyan => idx(14),
        Color::White => idx(15),
        Color::Indexed(i) => idx(i),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
    }
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn svg(buf: &Buffer) -> String {
    let (w, h) = (buf.area.width, buf.area.height);
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{}" height="{}" font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14">"#,
        (f32::from(w) * CW).ceil(),
        (f32::from(h) * CH).ceil()
    );
    let _ = writeln!(s, r##"<rect width="100%" height="100%" fill="#1e1e1e"/>"##);
    for y in 0..h {
        for x in 0..w {
            let cell = &buf[(x, y)];
            let reversed = cell.modifier.contains(Modifier::REVERSED);
            let (mut fg, mut bg) = (hex(cell.fg, "#d4d4d4"), hex(cell.bg, "#1e1e1e"));
            if reversed {
                std::mem::swap(&mut fg, &mut bg);
            }
            if bg != "#1e1e1e" {
                let _ = writeln!(
                    s,
                    r#"<rect x="{:.1}" y="{:.1}" width="{:.1}" height="{CH}" fill="{bg}"/>"#,
                    f32::from(x) * CW,
                    f32::from(y) * CH,
                    CW + 0.5
                );
            }
            let sym = cell.symbol();
            if sym.trim().is_empty() {
                continue;
            }
            let weight = if cell.modifier.contains(Modifier::BOLD) {
                r#" font-weight="bold""#
            } else {
                ""
            };
            let _ = writeln!(
                s,
                r#"<text x="{:.1}" y="{:.1}" fill="{fg}"{weight}>{}</text>"#,
                f32::from(x) * CW,
                f32::from(y) * CH + CH * 0.78,
                esc(sym)
            );
        }
    }
    s.push_str("</svg>\n");
    s
}

fn main() -> std::io::Result<()> {
    let tmp = std::env::temp_dir().join(format!("cqlmodel-screenshots-{}", std::process::id()));
    let dirs = Dirs {
        config: Some(tmp.join("config")),
        data: Some(tmp.join("data")),
    };
    let mut app = start(Launch::Sample, dirs).map_err(std::io::Error::other)?;
    for _ in 0..6 {
        press(&mut app, 'j');
    }
    let out = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("screenshots");
    std::fs::create_dir_all(&out)?;
    let shoot = |app: &App, name: &str| -> std::io::Result<()> {
        let mut term = Terminal::new(TestBackend::new(W, H))?;
        term.draw(|f| view::draw(app, f))?;
        let path = out.join(name);
        std::fs::write(&path, svg(term.backend().buffer()))?;
        println!("wrote {}", path.display());
        Ok(())
    };
    shoot(&app, "main.svg")?;
    press(&mut app, '2');
    shoot(&app, "cql.svg")?;
    press(&mut app, '?');
    shoot(&app, "help.svg")?;

    // The logs sample without its day bucket: the unbounded-partition
    // diagnostic's refinement, previewed from the Diagnostics pane.
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects");
    let mut logs = load::read(&root.join("logs.cqlm.ron")).map_err(std::io::Error::other)?;
    logs.decision_mut("Q1")
        .partition_extra
        .retain(|x| !matches!(x.kind, ExtraKind::Bucket { .. }));
    let mut app = open_copy(&tmp, "logs.cqlm.ron", &logs)?;
    if let Some(at) = app
        .analysis
        .diagnostics
        .iter()
        .position(|d| d.rule == "unbounded-partition" && d.refinement.is_some())
    {
        press(&mut app, '1');
        while app.focus != Focus::Bottom {
            key(&mut app, KeyCode::Tab);
        }
        for _ in 0..at {
            press(&mut app, 'j');
        }
        press(&mut app, 'f');
        shoot(&app, "refine.svg")?;
    }

    // The devices sample's candidate keys side by side.
    let devices =
        load::read(&root.join("devices-options.cqlm.ron")).map_err(std::io::Error::other)?;
    let mut app = open_copy(&tmp, "devices.cqlm.ron", &devices)?;
    while app.focus != Focus::Tables {
        key(&mut app, KeyCode::Tab);
    }
    press(&mut app, 'A');
    shoot(&app, "alternatives.svg")?;
    let _ = std::fs::remove_dir_all(&tmp);
    Ok(())
}
