//! Which pane has the keys. It sits below the app, the intents and the
//! popups, so each can name a pane without importing the others.

use super::keymap::Scope;

/// A pane of the workbench: the three lists and the bottom pane.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Focus {
    Concept,
    Workflow,
    Tables,
    Bottom,
}

impl Focus {
    pub const ALL: [Focus; 4] = [
        Focus::Concept,
        Focus::Workflow,
        Focus::Tables,
        Focus::Bottom,
    ];

    pub fn index(self) -> usize {
        match self {
            Focus::Concept => 0,
            Focus::Workflow => 1,
            Focus::Tables => 2,
            Focus::Bottom => 3,
        }
    }

    pub fn scope(self) -> Scope {
        match self {
            Focus::Concept => Scope::Concept,
            Focus::Workflow => Scope::Workflow,
            Focus::Tables => Scope::Tables,
            Focus::Bottom => Scope::Bottom,
        }
    }

    pub fn title(self) -> &'static str {
        self.scope().title()
    }
}
