//! One call that runs the whole pipeline the shells show: derive, estimate,
//! diagnose.

pub mod incremental;
mod inputs;
mod writes;

use crate::derive::estimate::{estimate_in, Estimate};
use crate::derive::{derive_in, LogicalModel};
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
    let model = derive_in(&graph);
    let estimates = estimate_in(&graph, &model);
    let mut diagnostics = diagnose_in(&graph, &model, &estimates);
    apply_waivers(project, &mut diagnostics);
    Analysis {
        model: std::sync::Arc::new(model),
        estimates,
        diagnostics,
    }
}
