//! A table under construction: what a query's build makes and sharing,
//! naming and planning read.

use super::serve;
use super::types::{Role, Table};
use crate::model::load::Problem;
use crate::model::name::Name;
use crate::model::resolve::{NodeId, Reached};
use crate::model::{CqlType, Shared};
use std::sync::Arc;

/// A table under construction, with column identities kept for matching.
#[derive(Clone)]
pub(crate) struct Draft {
    pub(crate) table: Table,
    /// The attribute each column holds, parallel to `table.columns`
    /// (shared with the assembled model's, see `Assembled::ids`).
    pub(crate) ids: Shared<Vec<Option<Reached>>>,
    pub(crate) root: NodeId,
    /// Pinned name, if any.
    pub(crate) pinned: Option<String>,
    /// Names for the table, best first (see [`naming_rules::table_names`]),
    /// made from the table as built.
    pub(crate) names: std::sync::Arc<[Name]>,
    /// The building query's references, when all of them resolved.
    pub(crate) resolved: Option<std::sync::Arc<serve::Resolved>>,
    /// The designer keeps this table apart from identical ones.
    pub(crate) separate: bool,
    /// The hash of [`signature`], set by [`build_query`] (a build kept for
    /// the next edit is not hashed again). Sharing compares signatures
    /// whenever hashes meet, so a stale hash costs time, never a result.
    pub(crate) signature_hash: u64,
    /// The build's number, unique in the process (0 until [`build_query`]
    /// numbers it): copies of one build share it, so what is true of two
    /// builds (see `share::Answers`) holds for their copies.
    pub(crate) serial: u64,
}

/// One query's own table before sharing and naming, with what its
/// derivation could not honour. It depends on the query, its index, its
/// decision and the project's schema and settings only (see
/// `analysis::incremental`, which reuses it across edits).
#[derive(Clone)]
pub(crate) struct Built {
    /// Shared: the incremental analysis keeps each build for the next
    /// edit while the derivation reads it; the derivation copies the
    /// table (and a draft it changes) only.
    pub(crate) draft: Option<Arc<Draft>>,
    pub(crate) problems: Vec<Problem>,
}

/// Tables are identical when they hold the same rows with the same columns
/// in the same roles, kept as long (retention and TTL). A column holds the
/// same values only when it reaches the same attribute the same way: an
/// `e1_id` reached through a relationship and one reached through an
/// association entity name different pairs of rows.
pub(crate) type Signature<'a> = (
    &'a str,
    Option<&'a str>,
    &'a [String],
    (Option<u64>, Option<u64>),
    Vec<(&'a str, &'a CqlType, Role, Option<&'a Reached>)>,
);
pub(crate) fn signature(d: &Draft) -> Signature<'_> {
    let t = &d.table;
    (
        t.rows.as_str(),
        d.pinned.as_deref(),
        t.indexes.as_slice(),
        (t.ttl_seconds, t.physical.retention_days.map(f64::to_bits)),
        t.columns
            .iter()
            .enumerate()
            .map(|(i, c)| {
                let reached = d.ids.get(i).and_then(Option::as_ref);
                (c.name.as_str(), &c.ty, c.role, reached)
            })
            .collect(),
    )
}
