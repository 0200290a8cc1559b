//! Tables that could serve more than one query: a query that another
//! table would answer directly once it held a few more columns costs a
//! table of its own, written on every insert.

use super::{Ctx, Diagnostic, Refinement, Subject};
use crate::derive::share::Hint;

/// One finding per table with a merge hint (`hints`, parallel to the
/// tables).
pub(super) fn check(ctx: &Ctx, hints: &[Hint], out: &mut Vec<Diagnostic>) {
    for h in hints.iter().flatten() {
        let mut d = ctx.diag(
            "shareable-table",
            Subject::Query(h.query.clone()),
            format!(
                "{} has a table of its own, but {} (built for {}) answers it directly once it also holds {}: one table fewer to write",
                h.query,
                h.table,
                h.with,
                h.missing.join(", ")
            ),
            format!(
                "Serve {} from {}'s table (decisions: served_by: Some(\"{}\")); the table gains the columns.",
                h.query, h.with, h.with
            ),
        );
        d.set_refinement(Some(Refinement::ShareTable {
            query: h.query.clone(),
            with: h.with.clone(),
        }));
        out.push(d);
    }
}
