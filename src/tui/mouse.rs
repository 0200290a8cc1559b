//! The mouse: a click focuses a pane, selects a row or a bottom-pane tab;
//! the wheel scrolls the pane under the pointer. Hit areas come from the
//! last frame (`App::hits`).

use super::app::App;
use super::focus::Focus;
use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

/// Applies one mouse event; popups ignore the mouse.
pub fn mouse(app: &mut App, m: MouseEvent) {
    let hits = app.frame.hits.borrow().clone();
    let inside = |r: &ratatui::layout::Rect| {
        m.column >= r.x && m.column < r.x + r.width && m.row >= r.y && m.row < r.y + r.height
    };
    match m.kind {
        MouseEventKind::Down(MouseButton::Left) => {
            if !app.popups.is_empty() {
                return;
            }
            if let Some((_, v)) = hits.tabs.iter().find(|(r, _)| inside(r)) {
                app.view.bottom = *v;
                app.view.bottom_scroll = 0;
                app.set_focus(Focus::Bottom);
                return;
            }
            if let Some((_, f)) = hits.pane_tabs.iter().find(|(r, _)| inside(r)) {
                app.set_focus(*f);
                return;
            }
            for f in Focus::ALL {
                if let Some(r) = hits.panes[f.index()].filter(|r| inside(r)) {
                    app.set_focus(f);
                    if f != Focus::Bottom {
                        let off = app.view.panes[f.index()].offset.get();
                        app.select_row(f, off + (m.row - r.y) as usize);
                    }
                    return;
                }
            }
        }
        MouseEventKind::ScrollDown | MouseEventKind::ScrollUp => {
            let delta = if m.kind == MouseEventKind::ScrollDown {
                3
            } else {
                -3
            };
            for f in Focus::ALL {
                if hits.panes[f.index()].is_some_and(|r| inside(&r)) {
                    if f == Focus::Bottom {
                        app.view.bottom_scroll =
                            app.view.bottom_scroll.saturating_add_signed(delta);
                    } else {
                        let max = app.list_rows(f).len().saturating_sub(1);
                        let pane = &app.view.panes[f.index()];
                        pane.offset
                            .set(pane.offset.get().saturating_add_signed(delta).min(max));
                        app.move_selection(f, delta);
                    }
                }
            }
        }
        _ => {}
    }
}
