//! One line of editable text with the keys people know from shells and
//! readline, shared by every one-line field (names, paths, the command
//! line, figures, pick-list and pane filters) so they all edit alike:
//!
//! `Ctrl-A`/`Home` start, `Ctrl-E`/`End` end, `Ctrl-B`/`←` and `Ctrl-F`/`→`
//! a character, `Alt-B`/`Ctrl-←` and `Alt-F`/`Ctrl-→` a word, `Ctrl-U`
//! deletes to the start, `Ctrl-K` to the end, `Ctrl-W`/`Alt-Backspace` the
//! word before the cursor and `Alt-D` the word after it, `Ctrl-H` and
//! `Ctrl-D` a character.
//!
//! A word is a run of letters, digits and `_`, so `Ctrl-W` after
//! `station_readings` deletes the whole name (names here are snake case;
//! stopping at `_` would take a key per part).
//!
//! A prefilled name (rename, pin a table name) starts *selected*: the first
//! character typed replaces it, `Backspace` or `Del` clears it, and any
//! movement keeps it and puts the cursor there, as in a GUI text field.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};

/// The line-editing keys, for the help overlay and docs/workbench.md.
/// They are fixed (not in the binding table): every field reads them the
/// same way, as every shell does.
pub const LINE_KEYS: [(&str, &str); 6] = [
    ("Ctrl-A Ctrl-E", "start / end of the line (also Home / End)"),
    ("Alt-B Alt-F", "a word back / forward (a word takes in _)"),
    ("Ctrl-W", "delete the word before the cursor"),
    ("Ctrl-U Ctrl-K", "delete to the start / to the end"),
    ("Ctrl-B Ctrl-F", "a character back / forward (also ← →)"),
    (
        "typing",
        "replaces a prefilled name; a movement key keeps it",
    ),
];

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineField {
    text: String,
    /// Cursor position in characters (0..=len).
    cursor: usize,
    /// The whole text is selected: the next typed character replaces it.
    selected: bool,
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

impl LineField {
    /// `text` with the cursor at its end.
    pub fn new(text: &str) -> LineField {
        LineField {
            text: text.to_string(),
            cursor: text.chars().count(),
            selected: false,
        }
    }

    /// `text` selected, so typing replaces it (a prefilled name).
    pub fn selected(text: &str) -> LineField {
        LineField {
            selected: !text.is_empty(),
            ..LineField::new(text)
        }
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    pub fn cursor(&self) -> usize {
        self.cursor
    }

    pub fn is_selected(&self) -> bool {
        self.selected
    }

    /// Replaces the text, cursor at the end, nothing selected.
    pub fn set(&mut self, text: &str) {
        *self = LineField::new(text);
    }

    fn byte(&self, chars: usize) -> usize {
        self.text
            .char_indices()
            .nth(chars)
            .map_or(self.text.len(), |(b, _)| b)
    }

    fn len(&self) -> usize {
        self.text.chars().count()
    }

    /// Inserts `s` at the cursor (a paste); a selection is replaced.
    pub fn insert_str(&mut self, s: &str) {
        if self.selected {
            self.set("");
        }
        let at = self.byte(self.cursor);
        self.text.insert_str(at, s);
        self.cursor += s.chars().count();
    }

    /// Deletes the characters `from..to` (character positions).
    fn delete(&mut self, from: usize, to: usize) {
        let (a, b) = (self.byte(from), self.byte(to));
        self.text.replace_range(a..b, "");
        self.cursor = from;
    }

    /// The start of the word before the cursor (skipping what is not a
    /// word first, as readline does).
    fn word_back(&self) -> usize {
        let chars: Vec<char> = self.text.chars().collect();
        let mut i = self.cursor;
        while i > 0 && !is_word(chars[i - 1]) {
            i -= 1;
        }
        while i > 0 && is_word(chars[i - 1]) {
            i -= 1;
        }
        i
    }

    /// The end of the word after the cursor.
    fn word_forward(&self) -> usize {
        let chars: Vec<char> = self.text.chars().collect();
        let mut i = self.cursor;
        while i < chars.len() && !is_word(chars[i]) {
            i += 1;
        }
        while i < chars.len() && is_word(chars[i]) {
            i += 1;
        }
        i
    }

    /// Applies a key; `true` when the field used it (the text or the
    /// cursor may have changed). Keys it does not know are left to the
    /// caller.
    pub fn key(&mut self, key: KeyEvent) -> bool {
        let ctrl = key.modifiers.contains(KeyModifiers::CONTROL);
        let alt = key.modifiers.contains(KeyModifiers::ALT);
        let len = self.len();
        // Deleting a selection deletes all of it.
        let deletes = matches!(
            (key.code, ctrl, alt),
            (KeyCode::Backspace | KeyCode::Delete, _, _)
                | (KeyCode::Char('h' | 'd' | 'w' | 'u' | 'k'), true, false)
                | (KeyCode::Char('d'), false, true)
        );
        if self.selected && deletes {
            self.set("");
            return true;
        }
        match (key.code, ctrl, alt) {
            (KeyCode::Char(c), false, false) if !c.is_control() => {
                let mut buf = [0u8; 4];
                self.insert_str(c.encode_utf8(&mut buf));
            }
            (KeyCode::Backspace, false, false) | (KeyCode::Char('h'), true, false) => {
                if self.cursor > 0 {
                    self.delete(self.cursor - 1, self.cursor);
                }
            }
            (KeyCode::Delete, _, _) | (KeyCode::Char('d'), true, false) => {
                if self.cursor < len {
                    self.delete(self.cursor, self.cursor + 1);
                }
            }
            (KeyCode::Char('w'), true, false) | (KeyCode::Backspace, _, true) => {
                self.delete(self.word_back(), self.cursor);
            }
            (KeyCode::Char('d'), false, true) => {
                let end = self.word_forward();
                let at = self.cursor;
                self.delete(at, end);
            }
            (KeyCode::Char('u'), true, false) => self.delete(0, self.cursor),
            (KeyCode::Char('k'), true, false) => self.delete(self.cursor, len),
            (KeyCode::Home, _, _) | (KeyCode::Char('a'), true, false) => self.cursor = 0,
            (KeyCode::End, _, _) | (KeyCode::Char('e'), true, false) => self.cursor = len,
            (KeyCode::Left, true, _) | (KeyCode::Char('b'), false, true) => {
                self.cursor = self.word_back();
            }
            (KeyCode::Right, true, _) | (KeyCode::Char('f'), false, true) => {
                self.cursor = self.word_forward();
            }
            (KeyCode::Left, false, false) | (KeyCode::Char('b'), true, false) => {
                self.cursor = self.cursor.saturating_sub(1);
            }
            (KeyCode::Right, false, false) | (KeyCode::Char('f'), true, false) => {
                self.cursor = (self.cursor + 1).min(len);
            }
            _ => return false,
        }
        self.selected = false;
        true
    }

    /// The text as spans, sanitized for the terminal: the cursor as a
    /// reversed cell when `focused`, a selection reversed as a whole.
    pub fn spans(&self, focused: bool) -> Line<'static> {
        use crate::model::naming::for_terminal;
        let rev = Style::new().add_modifier(Modifier::REVERSED);
        if self.selected && focused {
            return Line::from(vec![
                Span::styled(for_terminal(&self.text).into_owned(), rev),
                Span::raw(" "),
            ]);
        }
        let (a, b) = (self.byte(self.cursor), self.byte(self.cursor + 1));
        let before = for_terminal(&self.text[..a]).into_owned();
        if !focused {
            return Line::from(for_terminal(&self.text).into_owned());
        }
        let at = if a < self.text.len() {
            for_terminal(&self.text[a..b]).into_owned()
        } else {
            " ".to_string()
        };
        let after = for_terminal(&self.text[b.min(self.text.len())..]).into_owned();
        Line::from(vec![
            Span::raw(before),
            Span::styled(at, rev),
            Span::raw(after),
        ])
    }

    /// Edits `text` as a field whose cursor stays at the end (the pick-list
    /// filter, which shows no cursor); `true` when the key was used.
    pub fn edit_at_end(text: &mut String, key: KeyEvent) -> bool {
        let mut f = LineField::new(text);
        // Only deleting keys: moving the cursor would be invisible there.
        let moves = matches!(
            key.code,
            KeyCode::Left | KeyCode::Right | KeyCode::Home | KeyCode::End
        ) || matches!(
            (key.code, key.modifiers),
            (KeyCode::Char('a' | 'e' | 'b' | 'f'), m) if m.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
        );
        if moves || !f.key(key) {
            return false;
        }
        *text = f.text;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn k(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new(code, m)
    }
    fn c(ch: char) -> KeyEvent {
        k(KeyCode::Char(ch), KeyModifiers::CONTROL)
    }
    fn a(ch: char) -> KeyEvent {
        k(KeyCode::Char(ch), KeyModifiers::ALT)
    }
    fn typed(f: &mut LineField, s: &str) {
        for ch in s.chars() {
            f.key(k(KeyCode::Char(ch), KeyModifiers::NONE));
        }
    }

    #[test]
    fn ctrl_w_deletes_a_snake_case_name_whole() {
        let mut f = LineField::new("readings by station_day");
        f.key(c('w'));
        assert_eq!(f.text(), "readings by ");
        f.key(c('w'));
        assert_eq!(f.text(), "readings ");
    }

    #[test]
    fn words_move_and_delete_around_the_cursor() {
        let mut f = LineField::new("one two_2 three");
        f.key(a('b'));
        assert_eq!(f.cursor(), 10);
        f.key(a('b'));
        assert_eq!(f.cursor(), 4);
        f.key(a('f'));
        assert_eq!(f.cursor(), 9);
        f.key(c('a'));
        f.key(a('d'));
        assert_eq!(f.text(), " two_2 three");
        f.key(c('e'));
        f.key(c('b'));
        f.key(c('k'));
        assert_eq!(f.text(), " two_2 thre");
        f.key(c('a'));
        f.key(c('f'));
        f.key(c('u'));
        assert_eq!(f.text(), "two_2 thre");
        f.key(c('d'));
        assert_eq!(f.text(), "wo_2 thre");
    }

    #[test]
    fn a_selection_is_replaced_by_typing_and_kept_by_moving() {
        let mut f = LineField::selected("readings_by_day");
        typed(&mut f, "rd");
        assert_eq!(f.text(), "rd");
        let mut f = LineField::selected("readings");
        f.key(k(KeyCode::End, KeyModifiers::NONE));
        typed(&mut f, "_x");
        assert_eq!(f.text(), "readings_x");
        let mut f = LineField::selected("readings");
        f.key(k(KeyCode::Backspace, KeyModifiers::NONE));
        assert_eq!(f.text(), "");
    }

    #[test]
    fn multibyte_text_edits_by_character() {
        let mut f = LineField::new("größe");
        f.key(k(KeyCode::Left, KeyModifiers::NONE));
        f.key(k(KeyCode::Backspace, KeyModifiers::NONE));
        assert_eq!(f.text(), "gröe");
        assert_eq!(f.cursor(), 3);
    }
}
