//! A designer's judgement of one review finding: the finding stays in the
//! review, shown as waived with the reason, and no longer fails
//! `check --deny warnings`. A waiver names a rule and the finding's subject
//! as the review writes it (`table orders_by_user`, `orders.id`, `query Q1`),
//! so it keeps matching for as long as the finding does and is reported
//! once it no longer does.

use serde::{Deserialize, Serialize};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Waiver {
    /// The rule id (`hot-partition`).
    pub rule: String,
    /// The finding's subject as the review labels it (`table readings`).
    pub subject: String,
    /// Why the finding does not apply, in the designer's words.
    pub reason: String,
    /// Who judged it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub by: Option<String>,
    /// When (free text, e.g. an ISO date).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on: Option<String>,
}

impl Waiver {
    /// Whether this waiver is about the finding of `rule` on `subject`.
    pub fn waives(&self, rule: &str, subject: &str) -> bool {
        self.rule == rule && self.subject == subject
    }
}
