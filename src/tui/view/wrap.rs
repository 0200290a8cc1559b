//! Word wrapping of styled text for panes and popups: long diagnostics and
//! explanations are folded at word boundaries instead of being cut at the
//! pane edge. Widths count chars (names with wide glyphs are rare and are
//! merely clipped by the buffer).

use ratatui::style::Style;
use ratatui::text::{Line, Span};

/// Folds styled segments into lines of at most `width` chars. Lines after
/// the first start with `indent` spaces; a word longer than a line is split.
pub(crate) fn wrap_styled(
    segments: &[(String, Style)],
    width: usize,
    indent: usize,
) -> Vec<Line<'static>> {
    let width = width.max(1);
    let indent = if indent + 8 > width { 0 } else { indent };
    let mut lines: Vec<Line<'static>> = Vec::new();
    let mut spans: Vec<Span<'static>> = Vec::new();
    let mut used = 0usize;
    // Spaces waiting for the next word: kept inside a line (and at the very
    // start, so column padding survives), dropped at a fold.
    let mut pending = 0usize;
    let mut pending_style = Style::new();
    for (text, style) in segments {
        let style = *style;
        for (i, part) in text.split(' ').enumerate() {
            if i > 0 {
                if pending == 0 {
                    pending_style = style;
                }
                pending += 1;
            }
            if part.is_empty() {
                continue;
            }
            let mut word: Vec<char> = part.chars().collect();
            while !word.is_empty() {
                let start = indent_of(&lines, indent);
                let has_content = used > start;
                let space = if has_content || lines.is_empty() {
                    pending
                } else {
                    0
                };
                let room = width.saturating_sub(used + space);
                if word.len() <= room {
                    if space > 0 {
                        spans.push(Span::styled(" ".repeat(space), pending_style));
                    }
                    used += space + word.len();
                    spans.push(Span::styled(word.iter().collect::<String>(), style));
                    word.clear();
                    pending = 0;
                } else if has_content {
                    lines.push(Line::from(std::mem::take(&mut spans)));
                    spans.push(Span::raw(" ".repeat(indent)));
                    used = indent;
                    pending = 0;
                } else {
                    // A word longer than a whole line: split it.
                    let take = width.saturating_sub(used).max(1);
                    let head: String = word.iter().take(take).collect();
                    word.drain(..take.min(word.len()));
                    spans.push(Span::styled(head, style));
                    lines.push(Line::from(std::mem::take(&mut spans)));
                    spans.push(Span::raw(" ".repeat(indent)));
                    used = indent;
                    pending = 0;
                }
            }
        }
    }
    if used > indent_of(&lines, indent) || lines.is_empty() {
        lines.push(Line::from(spans));
    }
    lines
}

/// Where text starts on the current line: at 0 on the first, after the
/// indent on the others.
fn indent_of(lines: &[Line<'static>], indent: usize) -> usize {
    if lines.is_empty() {
        0
    } else {
        indent
    }
}

/// Plain text folded to `width`, continuation lines indented.
#[cfg(test)]
pub(crate) fn wrap_plain(text: &str, width: usize, indent: usize) -> Vec<String> {
    wrap_styled(&[(text.to_string(), Style::new())], width, indent)
        .into_iter()
        .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_text_stays_on_one_line() {
        assert_eq!(wrap_plain("a b c", 10, 2), vec!["a b c"]);
    }

    #[test]
    fn folds_at_word_boundaries_with_indent() {
        let out = wrap_plain("the quick brown fox jumps over the lazy dog", 16, 4);
        assert_eq!(
            out,
            vec![
                "the quick brown",
                "    fox jumps",
                "    over the",
                "    lazy dog"
            ]
        );
        assert!(out.iter().all(|l| l.chars().count() <= 16));
    }

    #[test]
    fn keeps_padding_at_the_start_and_inside_lines() {
        assert_eq!(
            wrap_plain("Error   Hotel  x", 40, 8),
            vec!["Error   Hotel  x"]
        );
        assert_eq!(wrap_plain("    fix: a", 40, 8), vec!["    fix: a"]);
    }

    #[test]
    fn splits_words_longer_than_a_line() {
        let out = wrap_plain("abcdefghijklmnop", 10, 0);
        assert_eq!(out, vec!["abcdefghij", "klmnop"]);
    }

    #[test]
    fn no_text_is_lost() {
        let text = "partition Hotel.hotel_id may hold 1200000 rows (over 100000) with a very_long_identifier_here";
        for width in 12..60 {
            let out = wrap_plain(text, width, 3);
            assert!(out.iter().all(|l| l.chars().count() <= width), "{width}");
            let joined: Vec<String> = out
                .iter()
                .flat_map(|l| l.split_whitespace().map(String::from).collect::<Vec<_>>())
                .collect();
            assert_eq!(
                joined.concat(),
                text.split_whitespace().collect::<String>(),
                "{width}"
            );
        }
    }

    #[test]
    fn styles_follow_their_words() {
        let bold = Style::new().add_modifier(ratatui::style::Modifier::BOLD);
        let out = wrap_styled(
            &[
                ("Hotel".into(), bold),
                (" has no rooms".into(), Style::new()),
            ],
            40,
            2,
        );
        assert_eq!(out.len(), 1);
        assert_eq!(out[0].spans[0].content, "Hotel");
        assert_eq!(out[0].spans[0].style, bold);
    }
}
