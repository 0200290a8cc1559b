//! One call that runs the whole pipeline the shells show: derive, estimate,
//! diagnose.

use crate::derive::{derive, LogicalModel};
use crate::diagnose::{diagnose, Diagnostic};
use crate::estimate::{estimate, Estimate};
use crate::model::Project;
use serde::Serialize;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Analysis {
    pub model: LogicalModel,
    /// Parallel to `model.tables`.
    pub estimates: Vec<Estimate>,
    pub diagnostics: Vec<Diagnostic>,
}

pub fn analyze(project: &Project) -> Analysis {
    let model = derive(project);
    let estimates = estimate(project, &model);
    let diagnostics = diagnose(project, &model, &estimates);
    Analysis {
        model,
        estimates,
        diagnostics,
    }
}
