//! Untrusted text made safe for a terminal. Project files travel between
//! teammates, so every string in them may hold escape sequences (screen
//! clearing, OSC 52 clipboard writes), C1 controls or bidirectional
//! overrides that make text read differently than it is. Every sink that
//! shows file text (workbench views, CLI output, error messages) passes it
//! through here.

use std::borrow::Cow;
use std::fmt::Write as _;

/// A value echoed in a message, cut to its first 60 characters with the
/// length said when longer than 80: a 10^5-deep type or a megabyte name
/// must not flood the terminal or a log with the whole input.
pub fn echo(text: &str) -> Cow<'_, str> {
    const KEEP: usize = 60;
    const MAX: usize = 80;
    let len = text.chars().count();
    if len <= MAX {
        return Cow::Borrowed(text);
    }
    let head: String = text.chars().take(KEEP).collect();
    Cow::Owned(format!("{head}… ({len} characters)"))
}

/// Characters that must never reach a terminal from a file: C0 and C1
/// controls (ESC, BEL, CSI…) and the bidirectional formatting characters
/// (overrides, embeddings, isolates and marks) that reorder what is shown.
pub fn is_unsafe(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
        )
}

/// One line of file text safe to draw: line breaks and tabs become spaces,
/// other unsafe characters a visible placeholder (U+FFFD).
pub fn for_terminal(text: &str) -> Cow<'_, str> {
    clean(text, false)
}

/// Multi-line text safe to print: keeps `\n` and `\t`, replaces every
/// other unsafe character (including `\r`) by U+FFFD.
pub(crate) fn block_for_terminal(text: &str) -> Cow<'_, str> {
    clean(text, true)
}

fn clean(text: &str, keep_lines: bool) -> Cow<'_, str> {
    if !text.chars().any(is_unsafe) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\n' | '\t' if keep_lines => c,
                '\n' | '\t' => ' ',
                c if is_unsafe(c) => '\u{fffd}',
                c => c,
            })
            .collect(),
    )
}

/// JSON text (as `serde_json` writes it) with every unsafe character inside
/// strings written as a `\uXXXX` escape: the same JSON value, nothing a
/// terminal interprets. `serde_json` already escapes C0 controls; C1 controls
/// and bidi characters it leaves raw.
pub(crate) fn json_for_terminal(json: &str) -> Cow<'_, str> {
    if !json.chars().any(|c| is_unsafe(c) && c != '\n') {
        return Cow::Borrowed(json);
    }
    let mut out = String::with_capacity(json.len() + 16);
    for c in json.chars() {
        // Outside strings only '\n' (pretty printing) can occur.
        if is_unsafe(c) && c != '\n' {
            let _ = write!(out, "\\u{:04x}", c as u32);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` followed by spaces up to `width` characters. Unlike a `{:width$}`
/// format argument this has no upper bound on `width`, which comes from the
/// length of file text (the formatter panics beyond 65,535).
pub(crate) fn pad_end(text: &str, width: usize) -> String {
    let n = text.chars().count();
    let mut s = String::with_capacity(text.len() + width.saturating_sub(n));
    s.push_str(text);
    s.extend(std::iter::repeat_n(' ', width.saturating_sub(n)));
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_and_bidi_become_placeholders() {
        let s = for_terminal("a\x1b[2Jb\x07c\u{202e}d\u{2066}e\u{9b}f\u{85}");
        assert!(!s.chars().any(is_unsafe));
        assert_eq!(
            s,
            "a\u{fffd}[2Jb\u{fffd}c\u{fffd}d\u{fffd}e\u{fffd}f\u{fffd}"
        );
        assert!(matches!(for_terminal("plain ü"), Cow::Borrowed(_)));
    }

    #[test]
    fn lines_become_spaces_in_one_line_text_and_stay_in_blocks() {
        assert_eq!(for_terminal("a\nb\tc"), "a b c");
        assert_eq!(
            block_for_terminal("a\nb\tc\r\x1b]52;c;eA==\x07"),
            "a\nb\tc\u{fffd}\u{fffd}]52;c;eA==\u{fffd}"
        );
    }

    #[test]
    fn json_keeps_its_value() {
        let v = serde_json::json!({"n": "x\u{202e}y\u{9b}z\x1b"});
        let text = serde_json::to_string_pretty(&v).unwrap();
        let safe = json_for_terminal(&text);
        assert!(!safe.chars().any(|c| is_unsafe(c) && c != '\n'));
        let back: serde_json::Value = serde_json::from_str(&safe).unwrap();
        assert_eq!(back, v);
    }

    #[test]
    fn padding_has_no_width_limit() {
        let long = "x".repeat(70_000);
        assert_eq!(pad_end(&long, 70_005).len(), 70_005);
        assert_eq!(pad_end("abc", 1), "abc");
        assert_eq!(pad_end("é", 3), "é  ");
    }

    #[test]
    fn long_echoes_are_cut_and_say_their_length() {
        assert_eq!(super::echo("short"), "short");
        let long = "é".repeat(100);
        assert_eq!(
            super::echo(&long),
            format!("{}… (100 characters)", "é".repeat(60))
        );
        assert_eq!(super::echo(&"x".repeat(80)), "x".repeat(80));
    }
}
