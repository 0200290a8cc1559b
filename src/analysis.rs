//! One call that runs the whole pipeline the shells show: derive, estimate,
//! diagnose.

pub mod incremental;
pub mod links;

use crate::derive::{derive_beside, LogicalModel};
use crate::diagnose::{diagnose_knowing, input_gaps, schema_findings, Diagnostic};
use crate::estimate::{estimate_in, Estimate};
use crate::model::resolve::Graph;
use crate::model::Project;
use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Analysis {
    pub model: std::sync::Arc<LogicalModel>,
    /// Parallel to `model.tables`.
    pub estimates: Vec<Estimate>,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn analyze(project: &Project) -> Analysis {
    // One graph serves all three steps: building it is not free on large
    // projects.
    let graph = Graph::new(project);
    // The review's rules that read the project alone run on a helper
    // while the derivation shares and names its tables on one thread.
    // What the derivation leaves behind is freed while the review orders
    // its findings, on one thread.
    let (model, (schema, input_gaps), leftovers) = derive_beside(&graph, || {
        (schema_findings(&graph), input_gaps(&graph, None))
    });
    let estimates = estimate_in(&graph, &model);
    let diagnostics = diagnose_knowing(&graph, &model, &estimates, schema, input_gaps, leftovers);
    graph.drop_later(project.queries.len() >= crate::parallel::PARALLEL_MIN);
    Analysis {
        model: std::sync::Arc::new(model),
        estimates,
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parallel::SEQUENTIAL;

    /// The full analysis works out the review's project-only findings
    /// beside the derivation and moves its leftovers to a helper: the
    /// result is the three steps run one after the other, on every sample
    /// and on projects large enough for the helpers.
    #[test]
    fn analysis_equals_its_steps_one_after_the_other() {
        let mut projects = crate::samples::loaded();
        projects.push(crate::model::synthetic::project(300, 300, 5));
        for p in &projects {
            let model = crate::derive::derive(p);
            let estimates = crate::estimate::estimate(p, &model);
            let diagnostics = crate::diagnose::diagnose(p, &model, &estimates);
            let a = analyze(p);
            assert_eq!(*a.model, model);
            assert_eq!(a.estimates, estimates);
            assert_eq!(a.diagnostics, diagnostics, "{}", p.name);
        }
    }

    /// Derivation, estimates and each table's findings run on every core
    /// for large projects (per-thread memos): the result is the same as on
    /// one thread.
    #[test]
    fn parallel_analysis_equals_the_sequential_one() {
        for seed in [3, 11] {
            let p = crate::model::synthetic::project(400, 400, seed);
            let parallel = analyze(&p);
            SEQUENTIAL.with(|s| s.set(true));
            let sequential = analyze(&p);
            SEQUENTIAL.with(|s| s.set(false));
            assert!(parallel.model.tables.len() >= 128, "large enough to split");
            assert_eq!(parallel, sequential, "seed {seed}");
        }
    }
}
