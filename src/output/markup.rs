//! Project strings made safe for the documents the project writes: XML and
//! XHTML (reports, SVG), Markdown. Every string from a project file is
//! hostile: markup characters are escaped and control characters, which
//! XML forbids and terminals interpret, are replaced.

/// A control character (other than a newline or tab) shown as a visible
/// placeholder; newlines and tabs become spaces so a name stays one line.
fn plain_char(c: char) -> Option<char> {
    match c {
        '\n' | '\t' | '\r' => Some(' '),
        // Not characters in XML 1.0.
        '\u{fffe}' | '\u{ffff}' => Some('\u{fffd}'),
        c if c.is_control() => Some('\u{fffd}'),
        _ => None,
    }
}

/// Text escaped for XML character data and attribute values (both quotes
/// escaped, so one function serves both).
pub fn xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    push_xml(&mut out, text);
    out
}

/// Appends `text` escaped for XML.
pub(crate) fn push_xml(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(plain_char(c).unwrap_or(c)),
        }
    }
}

/// Multi-line text (CQL) escaped for XML, keeping its newlines.
pub(crate) fn xml_block(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        push_xml(&mut out, line);
    }
    out
}

/// Text for Markdown inline content (table cells, list items, headings):
/// one line, with the characters Markdown or embedded HTML would interpret
/// escaped by a backslash.
pub fn markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if let Some(p) = plain_char(c) {
            out.push(p);
            continue;
        }
        if matches!(
            c,
            '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '|' | '~' | '&' | '#' | '!' | '$'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Multi-line text with control characters (but newlines and tabs) replaced,
/// for fenced code blocks.
pub(crate) fn plain_block(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '\n' | '\t' => c,
            c => plain_char(c).unwrap_or(c),
        })
        .collect()
}

/// A Markdown code fence longer than any run of backticks in `body`, so the
/// body cannot close it early.
pub(crate) fn fence_for(body: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in body.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat((longest + 1).max(3))
}

/// One line of text, at most `max` characters, with an ellipsis when cut.
pub(crate) fn truncate(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max.saturating_sub(1)).collect();
    s.push('…');
    s
}

/// Display width in monospace cells: East Asian wide characters and most
/// emoji take two.
pub fn cells(text: &str) -> usize {
    text.chars()
        .map(|c| {
            let u = c as u32;
            let wide = matches!(u,
                0x1100..=0x115F
                | 0x2E80..=0xA4CF
                | 0xAC00..=0xD7A3
                | 0xF900..=0xFAFF
                | 0xFE30..=0xFE4F
                | 0xFF00..=0xFF60
                | 0xFFE0..=0xFFE6
                | 0x1F300..=0x1F64F
                | 0x1F900..=0x1F9FF
                | 0x20000..=0x3FFFD);
            if wide {
                2
            } else {
                1
            }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_escapes_markup_and_controls() {
        assert_eq!(
            xml("a<b>&\"c'\u{1b}[31m\n"),
            "a&lt;b&gt;&amp;&quot;c&#39;\u{fffd}[31m "
        );
    }

    #[test]
    fn xml_block_keeps_newlines() {
        assert_eq!(xml_block("a<\nb\n"), "a&lt;\nb\n");
        assert_eq!(xml_block("x"), "x");
    }

    #[test]
    fn markdown_escapes_what_markdown_interprets() {
        assert_eq!(markdown("a|b *c* <x>"), "a\\|b \\*c\\* \\<x\\>");
        assert_eq!(markdown("l1\nl2"), "l1 l2");
        assert_eq!(markdown("[x](javascript:y)"), "\\[x\\](javascript:y)");
    }

    #[test]
    fn fences_outgrow_backtick_runs() {
        assert_eq!(fence_for("plain"), "```");
        assert_eq!(fence_for("a ```` b"), "`````");
    }

    #[test]
    fn truncation_and_cells() {
        assert_eq!(truncate("abcdef", 4), "abc…");
        assert_eq!(truncate("abc", 4), "abc");
        assert_eq!(cells("ab"), 2);
        assert_eq!(cells("日本"), 4);
    }
}
