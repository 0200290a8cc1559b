//! Derivation: project → logical model. Pure and deterministic: one table
//! per access pattern by Chebotko's mapping rules, then the designer's
//! decisions, then names, sharing, SELECTs and write paths.

mod assemble;
mod build;
mod columns;
pub mod cost;
mod decisions;
mod draft;
pub mod estimate;
mod finish;
mod naming_rules;
pub mod physical;
pub mod placement;
pub mod select;
pub mod serve;
pub mod share;
pub mod summary;
pub mod types;
pub mod writes;

use crate::model::resolve::Graph;
use crate::model::{Decision, Project, Query, Shared};
use rustc_hash::FxHashMap as HashMap;

pub use crate::model::resolve::normalize;
pub(crate) use assemble::{assemble, Assembly};
pub(crate) use build::build_query;
pub(crate) use decisions::{decisions_by_query, own_queries};
pub(crate) use draft::Built;
pub use types::*;
pub(crate) use writes::TableWrites;
pub use writes::{AttrWrites, WritePath};

pub fn derive(project: &Project) -> LogicalModel {
    derive_in(&Graph::new(project))
}

/// [`derive`] over an already built graph of the project: each query's
/// own table built, the tables assembled, each query planned, the write
/// paths listed.
pub(crate) fn derive_in(graph: &Graph) -> LogicalModel {
    let decisions = decisions_by_query(graph.project);
    let own = own_queries(graph.project, &decisions);
    let built = build_each(graph, &decisions, &own);
    let assembly = assemble_built(graph, &decisions, &own, built);
    let plans = assembly.plans(graph);
    let writes = write_paths_of(graph, &assembly);
    assembly.into_model(plans, writes)
}

/// The tables of `own` queries (a part of [`own_queries`]), each built
/// alone: parts can be built side by side and put back in order.
pub(crate) fn build_each(
    graph: &Graph,
    decisions: &HashMap<&str, &Decision>,
    own: &[(usize, &Query)],
) -> Vec<Built> {
    let mut est = None;
    own.iter()
        .map(|&(qi, q)| {
            build_query(
                graph,
                q,
                qi,
                decisions.get(q.id.as_str()).copied(),
                &mut est,
            )
        })
        .collect()
}

/// The tables of the `built` queries (in the order of `own`), shared and
/// named: what each query's plan is made against ([`Assembly::plan`]).
pub(crate) fn assemble_built<'a>(
    graph: &Graph<'a>,
    decisions: &HashMap<&str, &Decision>,
    own: &[(usize, &'a Query)],
    built: Vec<Built>,
) -> Assembly<'a> {
    assemble(graph, decisions, own, built, &mut ()).made(Vec::new())
}

/// The write paths of the assembled tables (independent of the plans).
pub(crate) fn write_paths_of(graph: &Graph, assembly: &Assembly) -> Vec<Shared<WritePath>> {
    writes::write_paths(graph, &assembly.tables, &assembly.ids, &assembly.roots).0
}

#[cfg(test)]
mod identity_tests;
#[cfg(test)]
mod placement_tests;
#[cfg(test)]
mod tests;
