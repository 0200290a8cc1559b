//! The Diagnostics pane's `/` filter. An imported schema can raise dozens
//! of the same finding (`estimate-on-defaults` on every table); the filter
//! narrows the list by rule, severity and subject, the three columns a
//! finding is shown with.
//!
//! The filter is words: each must occur (ignoring case) in the finding's
//! rule id, severity (`error`, `warning`, `hint`) or subject (`table
//! readings_by_day`); a word starting with `!` hides the findings it
//! matches. So `warning readings` keeps the warnings about `readings…`
//! items and `!estimate-on-defaults` hides the assumed-figures notes.
//!
//! The pane's selection stays an index into the whole list (what the
//! detail view, `f` and `o` read); only the drawing and the moving skip
//! what the filter hides.

use crate::output::report::subject_label;
use crate::review::diagnose::Diagnostic;
use crate::tui::app::App;
use crate::tui::focus::Focus;

/// Whether a finding passes the filter text.
pub fn matches(d: &Diagnostic, filter: &str) -> bool {
    let hay = format!(
        "{} {} {}",
        d.rule,
        d.severity.label(),
        subject_label(&d.subject)
    )
    .to_lowercase();
    filter.split_whitespace().all(|w| {
        let w = w.to_lowercase();
        match w.strip_prefix('!') {
            Some("") => true,
            Some(not) => !hay.contains(not),
            None => hay.contains(&w),
        }
    })
}

/// The Diagnostics pane's filter text.
pub fn text(app: &App) -> &str {
    &app.view.panes[Focus::Bottom.index()].filter
}

/// Indexes of the findings the filter lets through, in order.
pub fn visible(app: &App) -> Vec<usize> {
    let f = text(app);
    let d = &app.analysis.diagnostics;
    (0..d.len())
        .filter(|&i| f.trim().is_empty() || matches(&d[i], f))
        .collect()
}

/// The selected finding, when the filter shows one.
pub fn current(app: &App) -> Option<usize> {
    let vis = visible(app);
    let at = app.view.bottom_scroll;
    vis.iter()
        .copied()
        .find(|&i| i >= at)
        .or_else(|| vis.last().copied())
}

/// Moves the selection `delta` findings through the visible ones.
pub fn step(app: &mut App, delta: isize) {
    let vis = visible(app);
    let Some(cur) = current(app) else {
        return;
    };
    let pos = vis.iter().position(|&i| i == cur).unwrap_or(0);
    let to = pos
        .saturating_add_signed(delta)
        .min(vis.len().saturating_sub(1));
    app.view.bottom_scroll = vis[to];
}

/// Sets the filter; the selection goes to the first finding it shows at
/// or after the selected one.
pub fn set(app: &mut App, text: String) {
    app.view.panes[Focus::Bottom.index()].filter = text;
    if let Some(i) = current(app) {
        app.view.bottom_scroll = i;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::review::diagnose::{Severity, Subject};

    fn finding(rule: &'static str, severity: Severity, table: &str) -> Diagnostic {
        Diagnostic {
            rule,
            severity,
            subject: Subject::Table(table.into()),
            words: crate::review::diagnose::Words::ready("", ""),
            source: "",
            refinement: None,
            waived: None,
        }
    }

    #[test]
    fn words_match_rule_severity_and_subject_and_bang_hides() {
        let a = finding("estimate-on-defaults", Severity::Hint, "readings_by_day");
        let b = finding("partition-too-large", Severity::Warning, "readings_latest");
        assert!(matches(&a, "defaults"));
        assert!(!matches(&b, "defaults"));
        assert!(matches(&b, "WARN latest"));
        assert!(!matches(&a, "warn latest"));
        assert!(matches(&a, "table readings"));
        assert!(!matches(&a, "!estimate-on-defaults"));
        assert!(matches(&b, "!estimate-on-defaults"));
        assert!(matches(&b, "  "));
    }
}
