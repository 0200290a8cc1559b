//! The keymap: one table of bindings per scope that drives behaviour, the
//! `?` overlay and the status-bar hints alike, so none of them can drift
//! from the others. The config file may rebind any command by its name.

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use std::collections::BTreeMap;
use std::fmt;

/// Where a binding applies. Pane scopes are looked up before `Global`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    Global,
    Concept,
    Workflow,
    Tables,
    Bottom,
}

impl Scope {
    pub fn title(self) -> &'static str {
        match self {
            Scope::Global => "Everywhere",
            Scope::Concept => "Conceptual model",
            Scope::Workflow => "Workflow",
            Scope::Tables => "Logical tables",
            Scope::Bottom => "Bottom pane",
        }
    }
}

/// Everything a key can ask for. Names (`Command::name`) are what the config
/// file uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    Quit,
    Save,
    Undo,
    Redo,
    NextPane,
    PrevPane,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Top,
    End,
    Open,
    Add,
    Delete,
    Rename,
    EditText,
    Numbers,
    MoveUp,
    MoveDown,
    Filter,
    CommandLine,
    Help,
    ViewDiagnostics,
    ViewCql,
    ViewSelect,
    ViewNotes,
    // Workflow
    Rows,
    Equality,
    Range,
    Order,
    Returns,
    AddTransition,
    ToggleEntry,
    // Tables
    PinName,
    Bucket,
    Shard,
    Flip,
    Merge,
    Split,
    Refine,
    Alternatives,
    // Bottom
    CqlScope,
    AddNote,
    Fix,
}

impl Command {
    pub fn name(self) -> &'static str {
        use Command::*;
        match self {
            Quit => "quit",
            Save => "save",
            Undo => "undo",
            Redo => "redo",
            NextPane => "next_pane",
            PrevPane => "prev_pane",
            Up => "up",
            Down => "down",
            Left => "left",
            Right => "right",
            PageUp => "page_up",
            PageDown => "page_down",
            Top => "top",
            End => "end",
            Open => "open",
            Add => "add",
            Delete => "delete",
            Rename => "rename",
            EditText => "edit_text",
            Numbers => "numbers",
            MoveUp => "move_up",
            MoveDown => "move_down",
            Filter => "filter",
            CommandLine => "command_line",
            Help => "help",
            ViewDiagnostics => "view_diagnostics",
            ViewCql => "view_cql",
            ViewSelect => "view_select",
            ViewNotes => "view_notes",
            Rows => "query_rows",
            Equality => "query_equality",
            Range => "query_range",
            Order => "query_order",
            Returns => "query_returns",
            AddTransition => "add_transition",
            ToggleEntry => "toggle_entry",
            PinName => "pin_name",
            Bucket => "bucket",
            Shard => "shard",
            Flip => "flip",
            Merge => "merge",
            Split => "split",
            Refine => "refine",
            Alternatives => "alternatives",
            Fix => "fix",
            CqlScope => "cql_scope",
            AddNote => "add_note",
        }
    }
}

/// A key with modifiers, as written in the config (`ctrl-s`, `shift-tab`,
/// `K`, `enter`, `?`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeySpec {
    pub code: KeyCode,
    pub ctrl: bool,
    pub alt: bool,
}

impl KeySpec {
    const fn plain(code: KeyCode) -> KeySpec {
        KeySpec {
            code,
            ctrl: false,
            alt: false,
        }
    }

    const fn ch(c: char) -> KeySpec {
        KeySpec::plain(KeyCode::Char(c))
    }

    const fn ctrl(c: char) -> KeySpec {
        KeySpec {
            code: KeyCode::Char(c),
            ctrl: true,
            alt: false,
        }
    }

    /// Whether a key event is this key. Shift is carried by the character
    /// itself (`K`), so it is ignored for characters.
    pub fn matches(&self, ev: &KeyEvent) -> bool {
        let ctrl = ev.modifiers.contains(KeyModifiers::CONTROL);
        let alt = ev.modifiers.contains(KeyModifiers::ALT);
        let code = match ev.code {
            KeyCode::Char(c) if ctrl => KeyCode::Char(c.to_ascii_lowercase()),
            other => other,
        };
        code == self.code && ctrl == self.ctrl && alt == self.alt
    }

    pub fn parse(text: &str) -> Result<KeySpec, String> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = text.trim();
        loop {
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("ctrl-") && rest.len() > 5 {
                ctrl = true;
                rest = &rest[5..];
            } else if lower.starts_with("alt-") && rest.len() > 4 {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let lower = rest.to_ascii_lowercase();
        let code = match lower.as_str() {
            "enter" => KeyCode::Enter,
            "esc" => KeyCode::Esc,
            "tab" => KeyCode::Tab,
            "shift-tab" | "backtab" => KeyCode::BackTab,
            "up" => KeyCode::Up,
            "down" => KeyCode::Down,
            "left" => KeyCode::Left,
            "right" => KeyCode::Right,
            "pageup" => KeyCode::PageUp,
            "pagedown" => KeyCode::PageDown,
            "home" => KeyCode::Home,
            "end" => KeyCode::End,
            "space" => KeyCode::Char(' '),
            "backspace" => KeyCode::Backspace,
            "delete" => KeyCode::Delete,
            _ => {
                let mut chars = rest.chars();
                match (chars.next(), chars.next()) {
                    (Some(c), None) => KeyCode::Char(if ctrl { c.to_ascii_lowercase() } else { c }),
                    _ => {
                        if let Some(n) = lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok())
                        {
                            KeyCode::F(n)
                        } else {
                            return Err(format!("unknown key \"{text}\""));
                        }
                    }
                }
            }
        };
        Ok(KeySpec { code, ctrl, alt })
    }
}

impl KeySpec {
    /// The key as the config file writes it (`ctrl-s`, `shift-tab`, `K`,
    /// `space`): [`KeySpec::parse`] reads it back.
    pub fn config_name(&self) -> String {
        let mut s = String::new();
        if self.ctrl {
            s.push_str("ctrl-");
        }
        if self.alt {
            s.push_str("alt-");
        }
        let key = match self.code {
            KeyCode::Enter => "enter".to_string(),
            KeyCode::Esc => "esc".into(),
            KeyCode::Tab => "tab".into(),
            KeyCode::BackTab => "shift-tab".into(),
            KeyCode::Up => "up".into(),
            KeyCode::Down => "down".into(),
            KeyCode::Left => "left".into(),
            KeyCode::Right => "right".into(),
            KeyCode::PageUp => "pageup".into(),
            KeyCode::PageDown => "pagedown".into(),
            KeyCode::Home => "home".into(),
            KeyCode::End => "end".into(),
            KeyCode::Char(' ') => "space".into(),
            KeyCode::Backspace => "backspace".into(),
            KeyCode::Delete => "delete".into(),
            KeyCode::F(n) => format!("f{n}"),
            KeyCode::Char(c) => c.to_string(),
            other => format!("{other:?}").to_ascii_lowercase(),
        };
        s.push_str(&key);
        s
    }
}

impl fmt::Display for KeySpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl-")?;
        }
        if self.alt {
            f.write_str("Alt-")?;
        }
        match self.code {
            KeyCode::Enter => f.write_str("Enter"),
            KeyCode::Esc => f.write_str("Esc"),
            KeyCode::Tab => f.write_str("Tab"),
            KeyCode::BackTab => f.write_str("Shift-Tab"),
            KeyCode::Up => f.write_str("↑"),
            KeyCode::Down => f.write_str("↓"),
            KeyCode::Left => f.write_str("←"),
            KeyCode::Right => f.write_str("→"),
            KeyCode::PageUp => f.write_str("PgUp"),
            KeyCode::PageDown => f.write_str("PgDn"),
            KeyCode::Home => f.write_str("Home"),
            KeyCode::End => f.write_str("End"),
            KeyCode::Char(' ') => f.write_str("Space"),
            KeyCode::Char(c) if self.ctrl => write!(f, "{}", c.to_ascii_uppercase()),
            KeyCode::Char(c) => write!(f, "{c}"),
            KeyCode::F(n) => write!(f, "F{n}"),
            KeyCode::Backspace => f.write_str("Backspace"),
            KeyCode::Delete => f.write_str("Del"),
            other => write!(f, "{other:?}"),
        }
    }
}

#[derive(Clone, Debug)]
pub struct Binding {
    pub scope: Scope,
    pub keys: Vec<KeySpec>,
    pub command: Command,
    /// What the key does, for the help overlay.
    pub help: &'static str,
    /// Short label for the status bar; `None` keeps it out of the hints.
    pub hint: Option<&'static str>,
}

#[derive(Clone, Debug)]
pub struct Keymap {
    pub bindings: Vec<Binding>,
}

fn b(
    scope: Scope,
    keys: &[KeySpec],
    command: Command,
    help: &'static str,
    hint: Option<&'static str>,
) -> Binding {
    Binding {
        scope,
        keys: keys.to_vec(),
        command,
        help,
        hint,
    }
}

impl Default for Keymap {
    fn default() -> Self {
        use Command as C;
        use KeyCode as K;
        use Scope::*;
        let p = KeySpec::plain;
        let c = KeySpec::ch;
        let bindings = vec![
            // Pane-specific first: they win over global keys.
            b(
                Concept,
                &[c('a')],
                C::Add,
                "add an entity, attribute or relationship (by the row)",
                Some("add"),
            ),
            b(
                Concept,
                &[c('d'), p(K::Delete)],
                C::Delete,
                "delete the selected item (asks first)",
                Some("del"),
            ),
            b(
                Concept,
                &[c('r')],
                C::Rename,
                "rename (references follow)",
                Some("rename"),
            ),
            b(
                Concept,
                &[c('e')],
                C::EditText,
                "edit the item as RON text",
                Some("edit"),
            ),
            b(
                Concept,
                &[c('#')],
                C::Numbers,
                "figures for estimates: count, retention, sizes, per-side counts",
                Some("figures"),
            ),
            b(Concept, &[c('K')], C::MoveUp, "move the item up", None),
            b(Concept, &[c('J')], C::MoveDown, "move the item down", None),
            b(
                Concept,
                &[p(K::Left), c('h')],
                C::Left,
                "collapse the entity",
                None,
            ),
            b(
                Concept,
                &[p(K::Right), c('l')],
                C::Right,
                "expand the entity",
                None,
            ),
            b(
                Concept,
                &[p(K::Enter)],
                C::Open,
                "collapse/expand, or edit an attribute",
                None,
            ),
            b(
                Workflow,
                &[c('a')],
                C::Add,
                "add a query (or a transition on the tree)",
                Some("add"),
            ),
            b(
                Workflow,
                &[c('d'), p(K::Delete)],
                C::Delete,
                "delete the query or transition (asks first)",
                Some("del"),
            ),
            b(
                Workflow,
                &[c('r')],
                C::Rename,
                "change the query's id or sentence",
                None,
            ),
            b(
                Workflow,
                &[c('e')],
                C::EditText,
                "edit the query as RON text",
                Some("edit"),
            ),
            b(
                Workflow,
                &[p(K::Enter)],
                C::Open,
                "menu of the query's parts",
                Some("parts"),
            ),
            b(
                Workflow,
                &[c('w')],
                C::Rows,
                "pick the entity whose rows it returns",
                None,
            ),
            b(
                Workflow,
                &[c('=')],
                C::Equality,
                "pick the equality search attributes",
                Some("=search"),
            ),
            b(
                Workflow,
                &[c('<')],
                C::Range,
                "pick the range search attribute",
                None,
            ),
            b(
                Workflow,
                &[c('o')],
                C::Order,
                "pick ordering attributes (←/→ direction)",
                Some("order"),
            ),
            b(
                Workflow,
                &[c('R')],
                C::Returns,
                "pick the returned attributes",
                None,
            ),
            b(
                Workflow,
                &[c('t')],
                C::AddTransition,
                "add a transition from this query",
                None,
            ),
            b(
                Workflow,
                &[c('*')],
                C::ToggleEntry,
                "make the query an entry point or not",
                None,
            ),
            b(
                Workflow,
                &[c('x')],
                C::Split,
                "give the query a table of its own (undo sharing)",
                None,
            ),
            b(Workflow, &[c('K')], C::MoveUp, "move the item up", None),
            b(Workflow, &[c('J')], C::MoveDown, "move the item down", None),
            b(
                Tables,
                &[p(K::Enter)],
                C::Open,
                "provenance of the column (rule, query)",
                Some("why"),
            ),
            b(
                Tables,
                &[c('n')],
                C::PinName,
                "pin the table's name",
                Some("name"),
            ),
            b(
                Tables,
                &[c('R')],
                C::Refine,
                "refine the table: bucket, shard, promote, timeuuid, collection… (preview first)",
                Some("refine"),
            ),
            b(
                Tables,
                &[c('A')],
                C::Alternatives,
                "alternatives: derived and candidate keys against every query",
                Some("alternatives"),
            ),
            b(
                Tables,
                &[c('b')],
                C::Bucket,
                "time bucket periods for the partition key (preview first)",
                None,
            ),
            b(
                Tables,
                &[c('s')],
                C::Shard,
                "shard counts for the partition key (preview first)",
                None,
            ),
            b(
                Tables,
                &[c('f')],
                C::Flip,
                "flip the clustering column's direction",
                Some("flip"),
            ),
            b(
                Tables,
                &[c('m')],
                C::Merge,
                "serve this table's queries from another table",
                None,
            ),
            b(
                Tables,
                &[c('x')],
                C::Split,
                "split: the table's other queries get tables of their own",
                None,
            ),
            b(
                Tables,
                &[c('e')],
                C::EditText,
                "edit the table's decision as RON text",
                None,
            ),
            b(
                Tables,
                &[p(K::Left), c('h')],
                C::Left,
                "collapse the table",
                None,
            ),
            b(
                Tables,
                &[p(K::Right), c('l')],
                C::Right,
                "expand the table",
                None,
            ),
            b(
                Bottom,
                &[p(K::Left), c('h')],
                C::Left,
                "previous view",
                None,
            ),
            b(Bottom, &[p(K::Right), c('l')], C::Right, "next view", None),
            b(
                Bottom,
                &[c('c')],
                C::CqlScope,
                "CQL of the selected table / whole keyspace",
                Some("table/all"),
            ),
            b(
                Bottom,
                &[c('a')],
                C::AddNote,
                "add a review note to the selected item",
                Some("note"),
            ),
            b(
                Bottom,
                &[c('f')],
                C::Fix,
                "fix the selected diagnostic: preview its refinement, Enter applies",
                Some("fix"),
            ),
            b(
                Bottom,
                &[p(K::Enter)],
                C::Open,
                "jump to the diagnostic's subject",
                None,
            ),
            // Everywhere.
            b(Global, &[p(K::Up), c('k')], C::Up, "move up", None),
            b(Global, &[p(K::Down), c('j')], C::Down, "move down", None),
            b(Global, &[p(K::PageUp)], C::PageUp, "page up", None),
            b(Global, &[p(K::PageDown)], C::PageDown, "page down", None),
            b(Global, &[p(K::Home), c('g')], C::Top, "first row", None),
            b(Global, &[p(K::End), c('G')], C::End, "last row", None),
            b(Global, &[p(K::Tab)], C::NextPane, "next pane", None),
            b(Global, &[p(K::BackTab)], C::PrevPane, "previous pane", None),
            b(
                Global,
                &[c('u'), KeySpec::ctrl('z')],
                C::Undo,
                "undo",
                Some("undo"),
            ),
            b(
                Global,
                &[KeySpec::ctrl('r'), KeySpec::ctrl('y')],
                C::Redo,
                "redo",
                None,
            ),
            b(Global, &[KeySpec::ctrl('s')], C::Save, "save", None),
            b(
                Global,
                &[c('/')],
                C::Filter,
                "filter the focused list",
                None,
            ),
            b(
                Global,
                &[c(':')],
                C::CommandLine,
                "command line (:w :w FILE :e FILE :export cql FILE :q :q!)",
                None,
            ),
            b(
                Global,
                &[c('1')],
                C::ViewDiagnostics,
                "bottom pane: diagnostics",
                None,
            ),
            b(Global, &[c('2')], C::ViewCql, "bottom pane: CQL", None),
            b(
                Global,
                &[c('3')],
                C::ViewSelect,
                "bottom pane: SELECT of the query",
                None,
            ),
            b(
                Global,
                &[c('4')],
                C::ViewNotes,
                "bottom pane: review notes",
                None,
            ),
            b(
                Global,
                &[c('?'), p(K::F(1))],
                C::Help,
                "this help",
                Some("help"),
            ),
            b(
                Global,
                &[c('q'), KeySpec::ctrl('q'), KeySpec::ctrl('c')],
                C::Quit,
                "quit (asks when unsaved)",
                Some("quit"),
            ),
        ];
        Keymap { bindings }
    }
}

impl Keymap {
    /// The default keymap with the config's overrides: `command name →
    /// keys` replaces that command's keys in every scope. Unknown names or
    /// keys are reported, not fatal.
    pub fn with_overrides(overrides: &BTreeMap<String, Vec<String>>) -> (Keymap, Vec<String>) {
        let mut km = Keymap::default();
        let mut errors = Vec::new();
        for (name, keys) in overrides {
            let parsed: Vec<KeySpec> = keys
                .iter()
                .filter_map(|k| match KeySpec::parse(k) {
                    Ok(s) => Some(s),
                    Err(e) => {
                        errors.push(e);
                        None
                    }
                })
                .collect();
            let mut found = false;
            for bnd in km.bindings.iter_mut().filter(|b| b.command.name() == name) {
                bnd.keys = parsed.clone();
                found = true;
            }
            if !found {
                errors.push(format!("no command \"{name}\""));
            }
        }
        (km, errors)
    }

    /// The command a key means in `scope`: the pane's own binding first.
    pub fn lookup(&self, scope: Scope, ev: &KeyEvent) -> Option<Command> {
        let find = |s: Scope| {
            self.bindings
                .iter()
                .find(|b| b.scope == s && b.keys.iter().any(|k| k.matches(ev)))
                .map(|b| b.command)
        };
        find(scope).or_else(|| find(Scope::Global))
    }

    /// The first key of a command in a scope, for messages ("press ? …").
    pub fn key_for(&self, scope: Scope, command: Command) -> Option<KeySpec> {
        self.bindings
            .iter()
            .filter(|b| b.command == command && (b.scope == scope || b.scope == Scope::Global))
            .find_map(|b| b.keys.first().copied())
    }

    /// Help rows for a scope then everywhere: (scope, keys, description).
    pub fn help(&self, scope: Scope) -> Vec<(Scope, String, &'static str)> {
        [scope, Scope::Global]
            .into_iter()
            .flat_map(|s| self.bindings.iter().filter(move |b| b.scope == s))
            .filter(|b| !b.keys.is_empty())
            .map(|b| {
                let keys: Vec<String> = b.keys.iter().map(|k| k.to_string()).collect();
                (b.scope, keys.join(" "), b.help)
            })
            .collect()
    }

    /// Every command once, in binding order, with the scopes it is bound in,
    /// its keys and its help: what a config file can rebind.
    pub fn commands(&self) -> Vec<(Command, Vec<Scope>, Vec<KeySpec>, &'static str)> {
        let mut out: Vec<(Command, Vec<Scope>, Vec<KeySpec>, &'static str)> = vec![];
        for b in &self.bindings {
            match out.iter_mut().find(|(c, ..)| *c == b.command) {
                Some((_, scopes, keys, _)) => {
                    scopes.push(b.scope);
                    for k in &b.keys {
                        if !keys.contains(k) {
                            keys.push(*k);
                        }
                    }
                }
                None => out.push((b.command, vec![b.scope], b.keys.clone(), b.help)),
            }
        }
        out
    }

    /// Status-bar hints for a scope: `key label` pairs.
    pub fn hints(&self, scope: Scope) -> Vec<(String, &'static str)> {
        [scope, Scope::Global]
            .into_iter()
            .flat_map(|s| self.bindings.iter().filter(move |b| b.scope == s))
            .filter_map(|b| Some((b.keys.first()?.to_string(), b.hint?)))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crossterm::event::KeyEventKind;

    fn key(code: KeyCode, m: KeyModifiers) -> KeyEvent {
        KeyEvent::new_with_kind(code, m, KeyEventKind::Press)
    }

    #[test]
    fn pane_bindings_win_over_global() {
        let km = Keymap::default();
        let e = key(KeyCode::Char('a'), KeyModifiers::NONE);
        assert_eq!(km.lookup(Scope::Concept, &e), Some(Command::Add));
        assert_eq!(km.lookup(Scope::Bottom, &e), Some(Command::AddNote));
        let up = key(KeyCode::Char('K'), KeyModifiers::SHIFT);
        assert_eq!(km.lookup(Scope::Concept, &up), Some(Command::MoveUp));
        let ctrl_r = key(KeyCode::Char('r'), KeyModifiers::CONTROL);
        assert_eq!(km.lookup(Scope::Concept, &ctrl_r), Some(Command::Redo));
    }

    #[test]
    fn overrides_rebind_and_report_errors() {
        let mut o = BTreeMap::new();
        o.insert("undo".to_string(), vec!["ctrl-u".to_string()]);
        o.insert("nonsense".to_string(), vec!["x".to_string()]);
        let (km, errors) = Keymap::with_overrides(&o);
        assert_eq!(errors, vec!["no command \"nonsense\"".to_string()]);
        let e = key(KeyCode::Char('u'), KeyModifiers::CONTROL);
        assert_eq!(km.lookup(Scope::Concept, &e), Some(Command::Undo));
        let plain_u = key(KeyCode::Char('u'), KeyModifiers::NONE);
        assert_eq!(km.lookup(Scope::Concept, &plain_u), None);
    }

    #[test]
    fn keys_parse_and_print() {
        assert_eq!(
            KeySpec::parse("ctrl-s").map(|k| k.to_string()),
            Ok("Ctrl-S".into())
        );
        assert_eq!(
            KeySpec::parse("shift-tab").map(|k| k.code),
            Ok(KeyCode::BackTab)
        );
        assert_eq!(KeySpec::parse("K").map(|k| k.to_string()), Ok("K".into()));
        assert_eq!(KeySpec::parse("F1").map(|k| k.code), Ok(KeyCode::F(1)));
        assert!(KeySpec::parse("hyper-q").is_err());
    }
}
