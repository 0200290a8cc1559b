//! The workbench's former single updater module, kept as a path for
//! existing callers (tests, benches): `update` lives in `tui::update`, the
//! intents in `tui::intent`, the commands in `tui::commands` and the mouse
//! in `tui::mouse`.

pub use super::intent::{Action, Effect, ExportKind};
pub use super::update::update;
/// The edit API lives in the core; these names stay for existing callers.
pub use crate::edit::{apply_edit, Edit};
