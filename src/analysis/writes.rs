//! Write paths after an edit: each table's part of the last analysis'
//! paths is kept while the table is, and only the paths a changed table
//! is listed in (before or after the edit) are listed again; the others
//! are the last analysis' own, shared.

use crate::derive::writes::{emptied, fill, job_queries, write_paths, TableWrites, WritePath};
use crate::derive::Table;
use crate::model::resolve::{Graph, NodeId, Reached};
use crate::model::Shared;

/// The last analysis' write paths and each of its tables' part, for a
/// project with the very same entity and relationship lists (the paths'
/// positions and names are then the same).
pub(super) struct EarlierWrites<'a> {
    pub paths: &'a [Shared<WritePath>],
    /// Parallel to the last analysis' tables.
    pub parts: Vec<TableWrites>,
}

/// [`write_paths`] of `tables`, patching `earlier` when given: the part of
/// a table for which `same` holds (the table at that position is the last
/// one there, with the same column identities and rows' node) is kept.
pub(super) fn write_paths_reusing(
    graph: &Graph,
    earlier: Option<EarlierWrites>,
    same: impl Fn(usize) -> bool,
    tables: &[Shared<Table>],
    ids: &[Shared<Vec<Option<Reached>>>],
    roots: &[NodeId],
) -> (Vec<Shared<WritePath>>, Vec<TableWrites>) {
    let Some(EarlierWrites {
        paths: earlier_paths,
        parts,
    }) = earlier
    else {
        return write_paths(graph, tables, ids, roots);
    };
    let job = job_queries(graph, tables);
    let in_place = parts.len() == tables.len();
    // Paths a changed table is listed in, before or after the edit.
    let mut touched: Vec<u32> = Vec::new();
    let mut last = parts.into_iter();
    let by_table: Vec<TableWrites> = (0..tables.len())
        .map(|ti| match last.next() {
            Some(kept) if kept.job_query() == job[ti] && same(ti) => kept,
            before => {
                let now = TableWrites::new(graph, &tables[ti], &ids[ti], roots[ti], job[ti]);
                if in_place {
                    touched.extend(before.iter().flat_map(TableWrites::slots));
                    touched.extend(now.slots());
                }
                now
            }
        })
        .collect();
    let paths = if in_place {
        patched(earlier_paths, touched, tables, &by_table)
    } else {
        // Tables came, went or moved: every path is listed again (each
        // table's part reused where it stayed in place), named as before.
        let frame = earlier_paths.iter().map(|w| emptied(w)).collect();
        let paths = fill(frame, tables, &by_table);
        paths.into_iter().map(Shared::new).collect()
    };
    #[cfg(test)]
    crate::derive::writes::tests::assert_matches_reference(graph, tables, ids, roots, &paths);
    (paths, by_table)
}

/// `earlier` with each `touched` path listed again from every table's
/// part, in table order as a full listing has it.
fn patched(
    earlier: &[Shared<WritePath>],
    mut touched: Vec<u32>,
    tables: &[Shared<Table>],
    by_table: &[TableWrites],
) -> Vec<Shared<WritePath>> {
    touched.sort_unstable();
    touched.dedup();
    let mut fresh_at: Vec<u32> = vec![u32::MAX; earlier.len()];
    let mut fresh: Vec<WritePath> = Vec::with_capacity(touched.len());
    for &s in &touched {
        if let Some(w) = earlier.get(s as usize) {
            fresh_at[s as usize] = u32::try_from(fresh.len()).unwrap_or(u32::MAX);
            fresh.push(emptied(w));
        }
    }
    if !fresh.is_empty() {
        let at = |s: u32| {
            fresh_at
                .get(s as usize)
                .filter(|&&f| f != u32::MAX)
                .map(|&f| f as usize)
        };
        for (t, part) in tables.iter().zip(by_table) {
            part.list(&t.name, &mut fresh, at);
        }
    }
    let mut fresh = fresh.into_iter();
    earlier
        .iter()
        .zip(&fresh_at)
        .map(|(w, &f)| {
            if f == u32::MAX {
                w.clone()
            } else {
                Shared::new(fresh.next().unwrap_or_else(|| emptied(w)))
            }
        })
        .collect()
}
