//! Writing one line of styled text into the frame's buffer.
//!
//! The list and bottom panes draw one line per row, already cut or
//! wrapped to the pane. `Buffer::set_line` splits every span into
//! grapheme clusters and measures each; most of the text is plain ASCII,
//! where each byte is one cell, so that text is written cell by cell and
//! only the rest goes through `set_line`'s segmentation. The cells come
//! out the same either way (the tests compare both, styles included).

use ratatui::buffer::Buffer;
use ratatui::text::Line;

/// Writes `line` at (`x`, `y`), at most `width` cells and never past the
/// buffer's right edge: what `buf.set_line(x, y, line, width)` writes.
pub(crate) fn put_line(buf: &mut Buffer, x: u16, y: u16, line: &Line<'_>, width: u16) {
    let mut x = x;
    let mut remaining = width;
    for span in line {
        if remaining == 0 {
            break;
        }
        let style = line.style.patch(span.style);
        let text = span.content.as_ref();
        if text.bytes().all(|b| (0x20..0x7f).contains(&b)) {
            let room = buf.area.right().saturating_sub(x).min(remaining);
            let n = room.min(u16::try_from(text.len()).unwrap_or(u16::MAX));
            if n > 0 {
                // The row's cells as one slice: one position lookup for
                // the run rather than one per cell.
                let start = buf.index_of(x, y);
                let cells = &mut buf.content[start..start + usize::from(n)];
                for (cell, &b) in cells.iter_mut().zip(text.as_bytes()) {
                    cell.set_char(char::from(b)).set_style(style);
                }
            }
            x += n;
            remaining -= n;
        } else {
            let end = buf.set_stringn(x, y, text, usize::from(remaining), style).0;
            remaining = remaining.saturating_sub(end.saturating_sub(x));
            x = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::put_line;
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;
    use ratatui::style::{Color, Modifier, Style};
    use ratatui::text::{Line, Span};

    /// Plain, wide, combining and control text, styled spans and line
    /// styles, at every start and width: the cells equal `set_line`'s.
    #[test]
    fn writes_what_set_line_writes() {
        let spans = [
            "plain text",
            "",
            "C↑ ts",
            "宽字符 wide",
            "e\u{301}te",
            "tab\there\r\n",
            "│ ├─ └─",
            " trailing ",
        ];
        let area = Rect::new(2, 0, 14, 1);
        for (i, a) in spans.iter().enumerate() {
            for b in &spans {
                let line = Line::from(vec![
                    Span::styled(*a, Style::new().fg(Color::Red)),
                    Span::raw(*b),
                    Span::styled("end", Style::new().add_modifier(Modifier::BOLD)),
                ])
                .style(Style::new().bg(if i % 2 == 0 {
                    Color::Blue
                } else {
                    Color::Reset
                }));
                for x in 0..18 {
                    for width in 0..18 {
                        let mut want = Buffer::empty(area);
                        let mut got = Buffer::empty(area);
                        want.set_line(x.max(area.x), 0, &line, width);
                        put_line(&mut got, x.max(area.x), 0, &line, width);
                        assert_eq!(got, want, "{a:?} {b:?} at {x} width {width}");
                    }
                }
            }
        }
    }
}
