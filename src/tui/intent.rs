//! What the user asked for, and what only the shell can do: the intent
//! type sits below the app, the popups and the updater (it names only the
//! keymap's commands, the pane focus and core types), so popups return
//! intents without knowing the updater.

use super::focus::Focus;
use super::keymap::Command;
use crate::edit::Edit;
use crate::review::diagnose::Refinement;
use crossterm::event::{KeyEvent, MouseEvent};
use std::path::PathBuf;

/// An intent: a key, a command, an edit, a request for the shell.
pub enum Action {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Command(Command),
    Edit(Edit),
    /// Shows what a refinement would do; its popup applies it.
    PreviewRefinement(Refinement),
    /// Makes the project a previewed refinement gave (worked out from the
    /// project the preview was made on, which a preview's popup keeps
    /// current: it is modal).
    CommitRefinement(Box<(Refinement, crate::model::Project)>),
    PickRowsForNewQuery(String),
    SetFilter(Focus, String),
    Save {
        path: Option<PathBuf>,
        force: bool,
    },
    Open(PathBuf),
    /// Open a bundled sample (an index into `samples::SAMPLES`) as an
    /// unsaved copy.
    OpenSample(usize),
    /// Open even though there are unsaved changes (after asking).
    OpenAnyway(PathBuf),
    Export(ExportKind, PathBuf),
    /// Export even over an existing file (the user said yes).
    ExportOver(ExportKind, PathBuf),
    /// `:wq`: save, then quit once the save went through.
    SaveAndQuit(Option<PathBuf>),
    Quit {
        force: bool,
    },
    Recent,
    /// `:settings`: the RON editor on the keyspace, target version and
    /// thresholds.
    EditSettings,
    Message(String),
    RestoreRecovery(PathBuf),
    DiscardRecovery(PathBuf),
    /// Goes to an item and opens its figures dialog (from an assumption).
    FillIn(crate::edit::Item),
    /// Pick (the rest of) an attribute's type: the template's `…` are
    /// still to choose (`map<text, …>`).
    PickType(crate::model::resolve::NodeId, usize, String),
    /// The next step of a new relationship, with the parts chosen so far:
    /// from, to, cardinality, then its name.
    PickRelationship(Vec<String>),
    /// Text pasted into the terminal (bracketed paste).
    Paste(String),
    /// Tab in the command line wants the names in a directory: the run loop
    /// lists it (`Effect::ListDirectory`) and answers with `Listed`.
    ListDirectory(PathBuf),
    /// A directory's entries (directories end in `/`), for completion.
    Listed(PathBuf, Vec<String>),
}

impl std::fmt::Debug for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Key(k) => write!(f, "Key({k:?})"),
            Action::Command(c) => write!(f, "Command({c:?})"),
            Action::Edit(e) => write!(f, "Edit({e:?})"),
            Action::Save { path, force } => write!(f, "Save({path:?}, {force})"),
            Action::Quit { force } => write!(f, "Quit({force})"),
            Action::Open(p) => write!(f, "Open({p:?})"),
            Action::Export(k, p) => write!(f, "Export({k:?}, {p:?})"),
            Action::Message(m) => write!(f, "Message({m})"),
            _ => f.write_str("Action"),
        }
    }
}

/// What an `:export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportKind {
    Cql,
    /// The design report (Markdown for `.md`, else HTML).
    Report,
    /// One diagram view, in the format of the file's extension (SVG by default).
    Diagram(crate::output::diagram::View),
}

/// Work only the shell can do.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    Save {
        path: Option<PathBuf>,
        force: bool,
    },
    Open(PathBuf),
    Export {
        kind: ExportKind,
        path: PathBuf,
        force: bool,
    },
    Quit,
    /// Quit only if nothing is left unsaved (after a `:wq` save).
    QuitIfSaved,
    RestoreRecovery(PathBuf),
    DiscardRecovery(PathBuf),
    /// List a directory for the command line's file-name completion; the
    /// run loop answers with `Action::Listed`.
    ListDirectory(PathBuf),
}
