//! The bottom pane's cost view: what the design costs the cluster under the
//! project's workload, as `cqlmodel cost` prints it (per query, per table,
//! the design's totals and every assumption). The bottom pane caches the
//! text per analysis generation and sanitizes each line for the terminal.

use crate::tui::app::App;

/// The cost text of the current analysis.
pub(super) fn text(app: &App) -> String {
    let a = &app.analysis;
    let c = crate::derive::cost::cost(&app.project, &a.model, &a.estimates);
    let mut s = String::from(
        "What the design costs the cluster (state load, consistency, updates and cluster in the file to firm it up)\n\n",
    );
    s.push_str(&crate::output::cost::text(&c));
    s
}
