//! A pane's border and title.
//!
//! What `Block::default().borders(Borders::ALL).border_style(s).title(t)`
//! draws, cell for cell, without the block's first step: styling every
//! cell of its area with the block's own style, which for a pane is the
//! empty style and changes nothing, yet touches the whole screen each
//! frame (the four panes cover it). The border is drawn cell by cell, the
//! title by ratatui's `Line`, as the block draws them.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::line;
use ratatui::text::Line;
use ratatui::widgets::Widget;

pub(crate) struct PaneFrame<'a> {
    pub border: Style,
    pub title: Line<'a>,
}

impl PaneFrame<'_> {
    /// The area inside the border (`Block::inner`).
    pub fn inner(area: Rect) -> Rect {
        let x = area.x.saturating_add(1).min(area.right());
        let y = area.y.saturating_add(1).min(area.bottom());
        Rect {
            x,
            y,
            width: area.width.saturating_sub(2),
            height: area.height.saturating_sub(2),
        }
    }

    /// Draws the border and the title over `area` (clipped to the buffer).
    pub fn render(self, area: Rect, buf: &mut Buffer) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        let set = line::NORMAL;
        let style = self.border;
        // The block's order: sides, then corners over them.
        for y in area.top()..area.bottom() {
            buf[(area.left(), y)]
                .set_symbol(set.vertical)
                .set_style(style);
        }
        for x in area.left()..area.right() {
            buf[(x, area.top())]
                .set_symbol(set.horizontal)
                .set_style(style);
        }
        let (right, bottom) = (area.right() - 1, area.bottom() - 1);
        for y in area.top()..area.bottom() {
            buf[(right, y)].set_symbol(set.vertical).set_style(style);
        }
        for x in area.left()..area.right() {
            buf[(x, bottom)].set_symbol(set.horizontal).set_style(style);
        }
        buf[(right, bottom)]
            .set_symbol(set.bottom_right)
            .set_style(style);
        buf[(right, area.top())]
            .set_symbol(set.top_right)
            .set_style(style);
        buf[(area.left(), bottom)]
            .set_symbol(set.bottom_left)
            .set_style(style);
        buf[(area.left(), area.top())]
            .set_symbol(set.top_left)
            .set_style(style);
        // The title on the top border, after the corner, as wide as it is
        // (the block's titles' own style is the empty one).
        let room = area.width.saturating_sub(2);
        if room == 0 {
            return;
        }
        let width = u16::try_from(self.title.width()).unwrap_or(u16::MAX);
        let title_area = Rect {
            x: area.x + 1,
            y: area.y,
            width: width.min(room),
            height: 1,
        };
        self.title.render(title_area, buf);
    }
}

#[cfg(test)]
mod tests {
    use super::PaneFrame;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Modifier, Style};
    use ratatui::text::{Line, Span};
    use ratatui::widgets::{Block, Borders, Widget};

    /// Over a buffer already drawn in, at every size from empty up, at the
    /// buffer's edges and past them, with plain, wide, combining, styled
    /// and overlong titles: the cells equal the block's.
    #[test]
    fn draws_what_the_block_draws() {
        let titles = [
            Line::from(""),
            Line::from(" Tables (12) "),
            Line::from(vec![
                Span::styled(" ER ", Style::new().fg(Color::Yellow)),
                Span::raw("宽字符 e\u{301} │ "),
            ])
            .style(Style::new().add_modifier(Modifier::BOLD)),
            Line::from("a title far longer than any of the areas it is drawn in"),
        ];
        let screen = Rect::new(0, 0, 12, 6);
        let mut base = Buffer::empty(screen);
        for y in 0..screen.height {
            for x in 0..screen.width {
                let c = char::from(b'a' + u8::try_from((x + y) % 26).unwrap_or(0));
                base[(x, y)]
                    .set_char(c)
                    .set_style(Style::new().bg(Color::Blue).add_modifier(Modifier::ITALIC));
            }
        }
        let border = Style::new().fg(Color::Red);
        for title in &titles {
            for x in 0..14 {
                for y in 0..8 {
                    for w in 0..14 {
                        for h in 0..8 {
                            let area = Rect::new(x, y, w, h);
                            let mut want = base.clone();
                            let block = Block::default()
                                .borders(Borders::ALL)
                                .border_style(border)
                                .title(title.clone());
                            let inner = block.inner(area);
                            block.render(area, &mut want);
                            let mut got = base.clone();
                            PaneFrame {
                                border,
                                title: title.clone(),
                            }
                            .render(area, &mut got);
                            assert_eq!(got, want, "{area:?} {title:?}");
                            assert_eq!(PaneFrame::inner(area), inner, "{area:?}");
                        }
                    }
                }
            }
        }
    }
}
