//! The keymap: one table of bindings per scope that drives behaviour, the
//! `?` overlay, the status-bar hints and the popups' footers alike, so none
//! of them can drift from the others. The config file may rebind any
//! command by its name (`undo`), or in one scope only (`picker.up`).
//!
//! Adding a popup kind: add a `Scope` variant (with `title`, `name` and an
//! entry in `Scope::ALL`), give it its bindings in `Keymap::default` (only
//! the keys it reads: popup scopes do not fall back to `Global`, so typing
//! stays typing), map the popup to its scope in `Popup::scope`, and read keys
//! in its `handle` with `keymap.lookup(Scope::X, &key)`; draw its footer with
//! `keymap.footer(Scope::X)`. The help overlay, the config default and the
//! key table test (docs/workbench.md) then cover it.

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
    /// The detail view of a diagnostic.
    Detail,
    /// The welcome screen of `cqlmodel` without a file.
    Welcome,
    /// Pick lists (typing narrows them, so no letter keys here).
    Picker,
    /// One-line text input (names, filters).
    Input,
    /// The RON text editor.
    Editor,
    /// Dialogs of several fields (the figures of an item).
    Form,
    /// Yes/no questions.
    Confirm,
    /// Read-only information (provenance).
    Info,
    /// The `?` overlay.
    Help,
    /// The `:` command line.
    CommandLine,
    /// The refinement preview.
    Preview,
    /// The alternatives matrix.
    Alternatives,
}

impl Scope {
    /// Every scope, panes first, in help and docs/workbench.md order.
    pub const ALL: [Scope; 17] = [
        Scope::Global,
        Scope::Concept,
        Scope::Workflow,
        Scope::Tables,
        Scope::Bottom,
        Scope::Picker,
        Scope::Input,
        Scope::Editor,
        Scope::Form,
        Scope::Confirm,
        Scope::Info,
        Scope::Help,
        Scope::CommandLine,
        Scope::Preview,
        Scope::Alternatives,
        Scope::Detail,
        Scope::Welcome,
    ];

    pub fn title(self) -> &'static str {
        match self {
            Scope::Global => "Everywhere",
            Scope::Concept => "Conceptual model",
            Scope::Workflow => "Workflow",
            Scope::Tables => "Logical tables",
            Scope::Bottom => "Bottom pane",
            Scope::Detail => "Diagnostic detail view",
            Scope::Welcome => "Welcome screen",
            Scope::Picker => "Pick lists",
            Scope::Input => "Text input",
            Scope::Editor => "RON editor",
            Scope::Form => "Dialogs of several fields",
            Scope::Confirm => "Questions",
            Scope::Info => "Information",
            Scope::Help => "Help overlay",
            Scope::CommandLine => "Command line",
            Scope::Preview => "Refinement preview",
            Scope::Alternatives => "Alternatives matrix",
        }
    }

    /// The scope as the config file names it (`picker.up`).
    pub fn name(self) -> &'static str {
        match self {
            Scope::Global => "global",
            Scope::Concept => "concept",
            Scope::Workflow => "workflow",
            Scope::Tables => "tables",
            Scope::Bottom => "bottom",
            Scope::Picker => "picker",
            Scope::Input => "input",
            Scope::Editor => "editor",
            Scope::Form => "form",
            Scope::Confirm => "confirm",
            Scope::Info => "info",
            Scope::Help => "help",
            Scope::CommandLine => "command_line",
            Scope::Preview => "preview",
            Scope::Alternatives => "alternatives",
            Scope::Detail => "detail",
            Scope::Welcome => "welcome",
        }
    }

    /// Popups take every key while open: their scope does not fall back to
    /// the global keys. The diagnostic detail view and the welcome screen
    /// have no text to type, so they keep the global keys (moving, quitting).
    pub fn is_popup(self) -> bool {
        !matches!(
            self,
            Scope::Global
                | Scope::Concept
                | Scope::Workflow
                | Scope::Tables
                | Scope::Bottom
                | Scope::Detail
                | Scope::Welcome
        )
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
    AddAttribute,
    /// Add an entity whatever row of the Conceptual pane is selected.
    AddEntity,
    ClearFilter,
    // Popups
    Cancel,
    Accept,
    Yes,
    No,
    Pick,
    Ascending,
    Descending,
    Apply,
    Complete,
    UseDerived,
    Delete,
    Rename,
    EditText,
    Numbers,
    /// Pick an attribute's type.
    Type,
    /// Pick an entity's key attributes.
    Key,
    /// Pick the relationships that identify a weak entity.
    Owners,
    /// Set a query's LIMIT.
    Limit,
    /// Pick what a transition feeds.
    Feeds,
    MoveUp,
    MoveDown,
    Filter,
    CommandLine,
    Help,
    ViewDiagnostics,
    ViewCql,
    ViewSelect,
    ViewNotes,
    ViewCost,
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
    /// Waive the selected diagnostic, with a reason.
    Waive,
    /// Go to the item a diagnostic is about.
    Jump,
    /// Close a view.
    Close,
    /// From a diagnostic's detail view, go to the item it is about.
    GoToSubject,
    /// Leave the welcome screen for a new, empty project.
    StartEmpty,
}

impl Command {
    pub fn name(self) -> &'static str {
        use Command::{
            Accept, Add, AddAttribute, AddEntity, AddNote, AddTransition, Alternatives, Apply,
            Ascending, Bucket, Cancel, ClearFilter, Close, CommandLine, Complete, CqlScope, Delete,
            Descending, Down, EditText, End, Equality, Feeds, Filter, Fix, Flip, GoToSubject, Help,
            Jump, Key, Left, Limit, Merge, MoveDown, MoveUp, NextPane, No, Numbers, Open, Order,
            Owners, PageDown, PageUp, Pick, PinName, PrevPane, Quit, Range, Redo, Refine, Rename,
            Returns, Right, Rows, Save, Shard, Split, StartEmpty, ToggleEntry, Top, Type, Undo, Up,
            UseDerived, ViewCost, ViewCql, ViewDiagnostics, ViewNotes, ViewSelect, Waive, Yes,
        };
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
            AddAttribute => "add_attribute",
            AddEntity => "add_entity",
            ClearFilter => "clear_filter",
            Cancel => "cancel",
            Accept => "accept",
            Yes => "yes",
            No => "no",
            Pick => "pick",
            Ascending => "ascending",
            Descending => "descending",
            Apply => "apply",
            Complete => "complete",
            UseDerived => "use_derived",
            Delete => "delete",
            Rename => "rename",
            EditText => "edit_text",
            Numbers => "numbers",
            Type => "attribute_type",
            Key => "entity_key",
            Owners => "owners",
            Limit => "query_limit",
            Feeds => "transition_feeds",
            MoveUp => "move_up",
            MoveDown => "move_down",
            Filter => "filter",
            CommandLine => "command_line",
            Help => "help",
            ViewDiagnostics => "view_diagnostics",
            ViewCql => "view_cql",
            ViewSelect => "view_select",
            ViewNotes => "view_notes",
            ViewCost => "view_cost",
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
            Waive => "waive",
            Jump => "jump",
            Close => "close",
            GoToSubject => "go_to_subject",
            StartEmpty => "start_empty",
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

    const fn alt(code: KeyCode) -> KeySpec {
        KeySpec {
            code,
            ctrl: false,
            alt: true,
        }
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
    pub(crate) fn config_name(&self) -> String {
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
    // The binding table: one entry per binding, a list rather than steps.
    #[allow(clippy::too_many_lines)]
    fn default() -> Self {
        use Command as C;
        use KeyCode as K;
        use Scope::{
            Alternatives, Bottom, CommandLine, Concept, Confirm, Detail, Editor, Form, Global,
            Help, Info, Input, Picker, Preview, Tables, Welcome, Workflow,
        };
        let p = KeySpec::plain;
        let c = KeySpec::ch;
        let bindings = vec![
            // Pane-specific first: they win over global keys.
            b(
                Concept,
                &[c('a')],
                C::Add,
                "add another item of the selected row's kind: entity, attribute or relationship",
                Some("add"),
            ),
            b(
                Concept,
                &[c('+')],
                C::AddAttribute,
                "add an attribute to the selected entity or relationship",
                Some("attribute"),
            ),
            b(
                Concept,
                &[c('E')],
                C::AddEntity,
                "add an entity, whatever row is selected",
                Some("entity"),
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
            b(
                Concept,
                &[c('y')],
                C::Type,
                "pick the attribute's type: CQL types, the project's UDTs, collections",
                Some("type"),
            ),
            b(
                Concept,
                &[c('i')],
                C::Key,
                "pick the entity's key attributes (several: a composite key)",
                Some("key"),
            ),
            b(
                Concept,
                &[c('o')],
                C::Owners,
                "pick the relationships that identify a weak entity (first: its owner)",
                None,
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
            b(
                Workflow,
                &[c('L')],
                C::Limit,
                "set the query's LIMIT (empty: none)",
                None,
            ),
            b(
                Workflow,
                &[c('F')],
                C::Feeds,
                "pick the attributes a transition feeds to its target",
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
                &[c('w')],
                C::Waive,
                "waive the selected diagnostic: type the reason once, Enter keeps it",
                None,
            ),
            b(
                Bottom,
                &[p(K::Enter)],
                C::Open,
                "the diagnostic in full: explanation, fix, source",
                Some("detail"),
            ),
            b(
                Bottom,
                &[c('o')],
                C::Jump,
                "go to the diagnostic's subject",
                Some("go to"),
            ),
            b(
                Detail,
                &[p(K::Enter), c('o')],
                C::GoToSubject,
                "go to the diagnostic's subject",
                Some("go to"),
            ),
            b(
                Detail,
                &[c('f')],
                C::Fix,
                "preview the one-key fix",
                Some("fix"),
            ),
            b(
                Detail,
                &[p(K::Esc), c('q')],
                C::Close,
                "close the detail view",
                Some("close"),
            ),
            b(
                Welcome,
                &[p(K::Enter)],
                C::Open,
                "open the chosen file or sample, or start the new project",
                Some("open"),
            ),
            b(
                Welcome,
                &[p(K::Esc)],
                C::StartEmpty,
                "close the welcome screen: a new, empty project",
                Some("new project"),
            ),
            // Popups: each kind reads only its own scope.
            b(Picker, &[p(K::Up)], C::Up, "move up", None),
            b(Picker, &[p(K::Down)], C::Down, "move down", None),
            b(Picker, &[p(K::PageUp)], C::PageUp, "page up", None),
            b(Picker, &[p(K::PageDown)], C::PageDown, "page down", None),
            b(Picker, &[p(K::Home)], C::Top, "first item", None),
            b(Picker, &[p(K::End)], C::End, "last item", None),
            b(
                Picker,
                &[c(' ')],
                C::Pick,
                "pick or unpick (lists of several); other characters narrow the list",
                Some("pick"),
            ),
            b(
                Picker,
                &[p(K::Left)],
                C::Ascending,
                "ordering lists: ascending (does not pick)",
                Some("asc"),
            ),
            b(
                Picker,
                &[p(K::Right)],
                C::Descending,
                "ordering lists: descending (does not pick)",
                Some("desc"),
            ),
            b(
                Picker,
                &[p(K::Enter)],
                C::Accept,
                "choose (or keep the picks)",
                Some("ok"),
            ),
            b(Picker, &[p(K::Esc)], C::Cancel, "cancel", Some("cancel")),
            b(
                Input,
                &[p(K::Enter)],
                C::Accept,
                "accept the text",
                Some("ok"),
            ),
            b(
                Input,
                &[p(K::Esc)],
                C::Cancel,
                "cancel (a filter is cleared)",
                Some("cancel"),
            ),
            b(
                Editor,
                &[KeySpec::ctrl('s'), KeySpec::alt(K::Enter)],
                C::Apply,
                "apply the text (only when valid; Enter types a new line)",
                Some("apply"),
            ),
            b(Editor, &[p(K::Esc)], C::Cancel, "cancel", Some("cancel")),
            b(
                Form,
                &[p(K::Tab), p(K::Down)],
                C::Down,
                "next field",
                Some("next"),
            ),
            b(
                Form,
                &[p(K::BackTab), p(K::Up)],
                C::Up,
                "previous field",
                Some("previous"),
            ),
            b(
                Form,
                &[p(K::Enter)],
                C::Accept,
                "apply every field (a wrong one keeps the dialog open, with why)",
                Some("apply"),
            ),
            b(Form, &[p(K::Esc)], C::Cancel, "cancel", Some("cancel")),
            b(
                Confirm,
                &[c('y'), c('Y'), p(K::Enter)],
                C::Yes,
                "yes",
                Some("yes"),
            ),
            b(
                Confirm,
                &[c('n'), c('N'), p(K::Esc)],
                C::No,
                "no (Esc does not answer questions that need a yes or a no)",
                Some("no"),
            ),
            b(Info, &[p(K::Up), c('k')], C::Up, "scroll up", None),
            b(Info, &[p(K::Down), c('j')], C::Down, "scroll down", None),
            b(Info, &[p(K::PageUp)], C::PageUp, "page up", None),
            b(Info, &[p(K::PageDown)], C::PageDown, "page down", None),
            b(Info, &[p(K::Home), c('g')], C::Top, "top", None),
            b(Info, &[p(K::End), c('G')], C::End, "bottom", None),
            b(
                Info,
                &[p(K::Esc), p(K::Enter), c('q')],
                C::Cancel,
                "close",
                Some("close"),
            ),
            b(Help, &[p(K::Up), c('k')], C::Up, "scroll up", None),
            b(Help, &[p(K::Down), c('j')], C::Down, "scroll down", None),
            b(Help, &[p(K::PageUp)], C::PageUp, "page up", None),
            b(Help, &[p(K::PageDown)], C::PageDown, "page down", None),
            b(Help, &[p(K::Home), c('g')], C::Top, "top", Some("top")),
            b(Help, &[p(K::End), c('G')], C::End, "bottom", Some("end")),
            b(
                Help,
                &[p(K::Esc), c('?'), c('q'), p(K::Enter), p(K::F(1))],
                C::Cancel,
                "close",
                Some("close"),
            ),
            b(
                CommandLine,
                &[p(K::Enter)],
                C::Accept,
                "run the command",
                Some("run"),
            ),
            b(
                CommandLine,
                &[p(K::Tab)],
                C::Complete,
                "complete the command or path",
                Some("complete"),
            ),
            b(
                CommandLine,
                &[p(K::Esc)],
                C::Cancel,
                "cancel (Backspace on an empty line too)",
                Some("cancel"),
            ),
            b(Preview, &[p(K::Up), c('k')], C::Up, "scroll up", None),
            b(Preview, &[p(K::Down), c('j')], C::Down, "scroll down", None),
            b(Preview, &[p(K::PageUp)], C::PageUp, "page up", None),
            b(Preview, &[p(K::PageDown)], C::PageDown, "page down", None),
            b(Preview, &[p(K::Home), c('g')], C::Top, "top", None),
            b(Preview, &[p(K::End), c('G')], C::End, "bottom", None),
            b(
                Preview,
                &[p(K::Enter), c('y')],
                C::Accept,
                "apply the refinement (undo takes it back)",
                Some("apply"),
            ),
            b(
                Preview,
                &[p(K::Esc), c('q'), c('n')],
                C::Cancel,
                "cancel",
                Some("cancel"),
            ),
            b(Alternatives, &[p(K::Up), c('k')], C::Up, "scroll up", None),
            b(
                Alternatives,
                &[p(K::Down), c('j')],
                C::Down,
                "scroll down",
                None,
            ),
            b(Alternatives, &[p(K::PageUp)], C::PageUp, "page up", None),
            b(
                Alternatives,
                &[p(K::PageDown)],
                C::PageDown,
                "page down",
                None,
            ),
            b(Alternatives, &[p(K::Home), c('g')], C::Top, "top", None),
            b(Alternatives, &[p(K::End), c('G')], C::End, "bottom", None),
            b(
                Alternatives,
                &[p(K::Left), c('h')],
                C::Left,
                "previous key",
                Some("choose"),
            ),
            b(
                Alternatives,
                &[p(K::Right), c('l'), p(K::Tab)],
                C::Right,
                "next key",
                None,
            ),
            b(
                Alternatives,
                &[p(K::Enter)],
                C::Accept,
                "use the chosen key",
                Some("use it"),
            ),
            b(
                Alternatives,
                &[c('c'), p(K::Backspace), p(K::Delete)],
                C::UseDerived,
                "back to the derived key",
                Some("derived key"),
            ),
            b(
                Alternatives,
                &[p(K::Esc), c('q')],
                C::Cancel,
                "close",
                Some("close"),
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
                &[p(K::Esc)],
                C::ClearFilter,
                "clear the focused list's filter",
                None,
            ),
            b(
                Global,
                &[c(':')],
                C::CommandLine,
                "command line: :w :wq :e :export cql|report|diagram FILE :q",
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
                &[c('5')],
                C::ViewCost,
                "bottom pane: cost under the workload",
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

/// One entry of the config file: the name it is written under (`undo`, or
/// `picker.up` when the command's keys differ by scope), the command, the
/// scopes it covers, their keys and what it does.
pub struct ConfigEntry {
    pub name: String,
    pub command: Command,
    pub scopes: Vec<Scope>,
    pub keys: Vec<KeySpec>,
    pub help: &'static str,
}

/// One row of the help overlay.
pub struct HelpRow {
    pub scope: Scope,
    pub keys: String,
    pub help: &'static str,
    /// The command's name, as the config file rebinds it.
    pub command: &'static str,
}

impl Keymap {
    /// The default keymap with the config's overrides: `command name →
    /// keys` replaces that command's keys in every scope, `scope.command →
    /// keys` in that scope only (applied after). Unknown names or keys are
    /// reported, not fatal.
    pub fn with_overrides(overrides: &BTreeMap<String, Vec<String>>) -> (Keymap, Vec<String>) {
        let mut km = Keymap::default();
        let mut errors = Vec::new();
        let (plain, scoped): (Vec<_>, Vec<_>) =
            overrides.iter().partition(|(name, _)| !name.contains('.'));
        for (name, keys) in plain.into_iter().chain(scoped) {
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
            let (scope, command) = match name.split_once('.') {
                Some((s, c)) => {
                    if let Some(scope) = Scope::ALL.into_iter().find(|x| x.name() == s) {
                        (Some(scope), c)
                    } else {
                        errors.push(format!("no scope \"{s}\" (in \"{name}\")"));
                        continue;
                    }
                }
                None => (None, name.as_str()),
            };
            let mut found = false;
            for bnd in km
                .bindings
                .iter_mut()
                .filter(|b| b.command.name() == command && scope.is_none_or(|s| s == b.scope))
            {
                bnd.keys.clone_from(&parsed);
                found = true;
            }
            if !found {
                errors.push(format!("no command \"{name}\""));
            }
        }
        (km, errors)
    }

    /// The command a key means in `scope`: the scope's own binding first,
    /// then, for panes, the global one. Popups see only their own keys.
    pub fn lookup(&self, scope: Scope, ev: &KeyEvent) -> Option<Command> {
        let find = |s: Scope| {
            self.bindings
                .iter()
                .find(|b| b.scope == s && b.keys.iter().any(|k| k.matches(ev)))
                .map(|b| b.command)
        };
        if scope.is_popup() {
            return find(scope);
        }
        find(scope).or_else(|| find(Scope::Global))
    }

    /// The first key of a command in a scope (or, for panes, everywhere),
    /// for messages ("press ? …") that must name the live key.
    pub fn key_for(&self, scope: Scope, command: Command) -> Option<KeySpec> {
        let find = |s: Scope| {
            self.bindings
                .iter()
                .filter(|b| b.command == command && b.scope == s)
                .find_map(|b| b.keys.first().copied())
        };
        match find(scope) {
            Some(k) => Some(k),
            None if !scope.is_popup() => find(Scope::Global),
            None => None,
        }
    }

    /// [`Keymap::key_for`] as text, `?` marks an unbound command.
    pub fn key_name(&self, scope: Scope, command: Command) -> String {
        self.key_for(scope, command).map_or_else(
            || format!("({} unbound)", command.name()),
            |k| k.to_string(),
        )
    }

    /// The scopes a help overlay over `scope` lists: the scope, then the
    /// global keys for panes.
    fn with_global(scope: Scope) -> Vec<Scope> {
        if scope.is_popup() {
            vec![scope]
        } else {
            vec![scope, Scope::Global]
        }
    }

    /// Help rows for a scope then (for panes) everywhere.
    pub fn help(&self, scope: Scope) -> Vec<HelpRow> {
        Self::with_global(scope)
            .into_iter()
            .flat_map(|s| self.bindings.iter().filter(move |b| b.scope == s))
            .filter(|b| !b.keys.is_empty())
            .map(|b| {
                let keys: Vec<String> = b
                    .keys
                    .iter()
                    .map(std::string::ToString::to_string)
                    .collect();
                HelpRow {
                    scope: b.scope,
                    keys: keys.join(" "),
                    help: b.help,
                    command: b.command.name(),
                }
            })
            .collect()
    }

    /// Every command once, in binding order, with the scopes it is bound in,
    /// its keys and its help: what a config file can rebind. A command whose
    /// keys differ between scopes gets one `scope.command` entry per scope,
    /// so writing the entries back changes nothing.
    pub fn commands(&self) -> Vec<ConfigEntry> {
        let mut out: Vec<ConfigEntry> = vec![];
        let mut seen: Vec<Command> = vec![];
        for b in &self.bindings {
            if seen.contains(&b.command) {
                continue;
            }
            seen.push(b.command);
            let all: Vec<&Binding> = self
                .bindings
                .iter()
                .filter(|x| x.command == b.command)
                .collect();
            if all.iter().all(|x| x.keys == b.keys) {
                out.push(ConfigEntry {
                    name: b.command.name().to_string(),
                    command: b.command,
                    scopes: all.iter().map(|x| x.scope).collect(),
                    keys: b.keys.clone(),
                    help: b.help,
                });
            } else {
                for x in all {
                    out.push(ConfigEntry {
                        name: format!("{}.{}", x.scope.name(), x.command.name()),
                        command: x.command,
                        scopes: vec![x.scope],
                        keys: x.keys.clone(),
                        help: x.help,
                    });
                }
            }
        }
        out
    }

    /// Status-bar hints for a scope: `key label` pairs.
    pub fn hints(&self, scope: Scope) -> Vec<(String, &'static str)> {
        self.hint_commands(scope)
            .into_iter()
            .map(|(k, _, h)| (k, h))
            .collect()
    }

    /// Status-bar hints with the command each runs, so the bar can say
    /// what a row-dependent command does on the selected row.
    pub fn hint_commands(&self, scope: Scope) -> Vec<(String, Command, &'static str)> {
        Self::with_global(scope)
            .into_iter()
            .flat_map(|s| self.bindings.iter().filter(move |b| b.scope == s))
            .filter_map(|b| Some((b.keys.first()?.to_string(), b.command, b.hint?)))
            .collect()
    }

    /// A popup's footer, `Enter ok · Esc cancel`, from its live bindings;
    /// `only` keeps the commands the popup offers right now (an ordering
    /// list has ← →, a plain list not).
    pub(crate) fn footer(&self, scope: Scope, only: impl Fn(Command) -> bool) -> String {
        self.bindings
            .iter()
            .filter(|b| b.scope == scope && only(b.command))
            .filter_map(|b| Some(format!("{} {}", b.keys.first()?, b.hint?)))
            .collect::<Vec<_>>()
            .join(" · ")
    }

    /// The key table in docs/workbench.md: one row per scope, each binding as its keys
    /// and command name. A test keeps docs/workbench.md equal to it.
    pub fn markdown_table(&self) -> String {
        use std::fmt::Write;
        let mut s = String::from("| Where | Keys (command name) |\n|---|---|\n");
        for scope in Scope::ALL {
            let cells: Vec<String> = self
                .bindings
                .iter()
                .filter(|b| b.scope == scope && !b.keys.is_empty())
                .map(|b| {
                    let keys: Vec<String> = b
                        .keys
                        .iter()
                        .map(|k| format!("`{}`", k.to_string().replace('|', "\\|")))
                        .collect();
                    format!("{} {}", keys.join(" "), b.command.name())
                })
                .collect();
            let _ = writeln!(s, "| {} | {} |", scope.title(), cells.join(" · "));
        }
        s
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
