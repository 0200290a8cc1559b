//! Design review: rules that catch what fails in production months later,
//! each with a stable id, a severity, the item it concerns, what goes wrong,
//! a suggested fix, the source of the guidance, and where possible a
//! one-key refinement.

use crate::derive::LogicalModel;
use crate::estimate::Estimate;
use crate::model::{Period, Project};
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    Error,
    Warning,
    Hint,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Hint => "hint",
        }
    }
}

/// The item a diagnostic is about, for jumping to it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Subject {
    Project,
    Entity(String),
    Attribute { item: String, attribute: String },
    Relationship(String),
    Query(String),
    Table(String),
    Column { table: String, column: String },
    /// A location in the project file (`queries[3].equality[0]`).
    Path(String),
}

/// A change to the project's decisions that fixes a diagnostic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Refinement {
    AddBucket { query: String, column: String, source: String, period: Period },
    AddShard { query: String, column: String, count: u32 },
    Promote { query: String, column: String },
    Timeuuid { query: String, column: String },
    Collection { query: String, relationship: String },
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// Stable id, e.g. `partition-too-large`.
    pub rule: &'static str,
    pub severity: Severity,
    pub subject: Subject,
    /// What goes wrong in production, in one sentence.
    pub message: String,
    pub fix: String,
    /// Where the guidance comes from (a seed article or a Cassandra limit).
    pub source: &'static str,
    pub refinement: Option<Refinement>,
}

/// Every diagnostic of a derived model, errors first, in a stable order.
pub fn diagnose(project: &Project, model: &LogicalModel, estimates: &[Estimate]) -> Vec<Diagnostic> {
    let _ = (project, estimates);
    let mut out: Vec<Diagnostic> = model
        .problems
        .iter()
        .map(|p| Diagnostic {
            rule: "derivation",
            severity: Severity::Error,
            subject: Subject::Path(p.path.clone()),
            message: p.message.clone(),
            fix: "Correct the reference or the decision in the project.".into(),
            source: "cqlmodel derivation",
            refinement: None,
        })
        .collect();
    out.sort_by(|a, b| a.severity.cmp(&b.severity).then_with(|| a.subject.cmp(&b.subject)).then(a.rule.cmp(b.rule)));
    out
}
