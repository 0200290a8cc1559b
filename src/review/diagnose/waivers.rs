//! Waivers: the designer's judgement of a finding, applied to a finished
//! review. A waived finding stays in the review, marked with its waiver;
//! a waiver that matches no finding is itself a finding (`stale-waiver`),
//! so a waiver does not outlive the design it judged.
//!
//! Applied last, over the whole review, and idempotent: the incremental
//! analysis reuses findings of an earlier review (marks and stale findings
//! included), and applying again gives what a fresh review would.

use super::{finding, report_order, Diagnostic, Subject, Words};
use crate::model::Project;

/// The rule id of a waiver that waives nothing.
pub const STALE: &str = "stale-waiver";

/// Marks each finding `project` waives and adds a `stale-waiver` finding
/// for each waiver that matches none, in report order. Earlier marks and
/// stale findings are dropped first.
pub fn apply(project: &Project, diagnostics: &mut Vec<Diagnostic>) {
    diagnostics.retain(|d| d.rule != STALE);
    for d in diagnostics.iter_mut() {
        d.waived = None;
    }
    if project.waivers.is_empty() {
        return;
    }
    let mut used = vec![false; project.waivers.len()];
    for d in diagnostics.iter_mut() {
        let label = d.subject.label();
        if let Some(i) = project
            .waivers
            .iter()
            .position(|w| w.waives(d.rule, &label))
        {
            d.waived = Some(Box::new(project.waivers[i].clone()));
            used[i] = true;
        }
    }
    for (i, w) in project.waivers.iter().enumerate() {
        if used[i] {
            continue;
        }
        let stale = finding(
            STALE,
            Subject::Path(format!("waivers[{i}]")),
            Words::ready(
                format!(
                    "The waiver of [{}] on {} matches no finding any more: the design \
                     changed, or the rule or subject is misspelt, and the waiver would \
                     silently cover a later finding of the same kind.",
                    w.rule, w.subject
                ),
                "Remove the waiver, or correct its rule and subject (as `cqlmodel check` \
                 prints them)."
                    .to_string(),
            ),
        );
        let at = diagnostics.partition_point(|d| report_order(d, &stale).is_le());
        diagnostics.insert(at, stale);
    }
}
