//! One call that runs the whole pipeline the shells show: derive, estimate,
//! diagnose.

pub mod incremental;
mod inputs;
mod writes;

use crate::derive::estimate::{estimate_in, Estimate};
use crate::derive::{self, LogicalModel};
use crate::model::resolve::Graph;
use crate::model::Project;
use crate::review::diagnose::{apply_waivers, diagnose_in, Diagnostic};
use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Analysis {
    pub model: std::sync::Arc<LogicalModel>,
    /// Parallel to `model.tables`.
    pub estimates: Vec<Estimate>,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn analyze(project: &Project) -> Analysis {
    let graph = Graph::new(project);
    let model = derive_on_every_core(&graph);
    let estimates = estimate_in(&graph, &model);
    let mut diagnostics = diagnose_in(&graph, &model, &estimates);
    apply_waivers(project, &mut diagnostics);
    Analysis {
        model: std::sync::Arc::new(model),
        estimates,
        diagnostics,
    }
}

/// Below this many queries per core a thread costs more than it saves.
const QUERIES_PER_THREAD: usize = 200;

/// [`derive::derive_in`] with the per-query builds (half the work of an
/// analysis, each independent of the others) split over the machine's
/// cores: the only parallelism in the core. Parts are put back in query
/// order, so the result is the sequential one.
fn derive_on_every_core(graph: &Graph) -> LogicalModel {
    let decisions = derive::decisions_by_query(graph.project);
    let own = derive::own_queries(graph.project, &decisions);
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    let parts = cores.min(own.len() / QUERIES_PER_THREAD).max(1);
    let built = if parts == 1 {
        derive::build_each(graph, &decisions, &own)
    } else {
        let size = own.len().div_ceil(parts);
        std::thread::scope(|s| {
            let (first, rest) = own.split_at(size);
            let others: Vec<_> = rest
                .chunks(size)
                .map(|part| s.spawn(|| derive::build_each(graph, &decisions, part)))
                .collect();
            let mut built = derive::build_each(graph, &decisions, first);
            for other in others {
                match other.join() {
                    Ok(part) => built.extend(part),
                    Err(panic) => std::panic::resume_unwind(panic),
                }
            }
            built
        })
    };
    derive::derive_from_built(graph, &decisions, &own, built)
}
