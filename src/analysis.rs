//! One call that runs the whole pipeline the shells show: derive, estimate,
//! diagnose.

pub mod incremental;
mod inputs;
mod writes;

use crate::derive::estimate::{Estimate, Estimator};
use crate::derive::{self, LogicalModel};
use crate::model::resolve::Graph;
use crate::model::Project;
use crate::review::diagnose::{apply_waivers, review_with, Diagnostic, Rules};
use serde::Serialize;
use std::ops::Range;

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
    let estimates = on_every_core(model.tables.len(), TABLES_PER_THREAD, |range| {
        let est = Estimator::new(&graph);
        model.tables[range].iter().map(|t| est.table(t)).collect()
    });
    let users = model.plans_by_table();
    // The rules' estimator memoizes in a `RefCell`: one set of rules per
    // thread.
    let tables = on_every_core(model.tables.len(), TABLES_PER_THREAD, |range| {
        let rules = Rules::new(&graph, &model, &estimates, &users);
        range.map(|i| rules.table(i)).collect()
    });
    let mut diagnostics = review_with(&Rules::new(&graph, &model, &estimates, &users), &tables);
    apply_waivers(project, &mut diagnostics);
    Analysis {
        model: std::sync::Arc::new(model),
        estimates,
        diagnostics,
    }
}

/// Below this many queries per core a thread costs more than it saves.
const QUERIES_PER_THREAD: usize = 200;
/// The same for tables, whose estimate and rules cost less than a build.
const TABLES_PER_THREAD: usize = 300;

/// [`derive::derive_in`] with the per-query builds (half the work of an
/// analysis) and plans, each independent of the others, split over the
/// machine's cores.
fn derive_on_every_core(graph: &Graph) -> LogicalModel {
    let decisions = derive::decisions_by_query(graph.project);
    let own = derive::own_queries(graph.project, &decisions);
    let built = on_every_core(own.len(), QUERIES_PER_THREAD, |range| {
        derive::build_each(graph, &decisions, &own[range])
    });
    let assembly = derive::assemble_built(graph, &decisions, &own, built);
    let queries = &graph.project.queries;
    let plans = on_every_core(queries.len(), QUERIES_PER_THREAD, |range| {
        let start = range.start;
        queries[range]
            .iter()
            .enumerate()
            .map(|(i, q)| assembly.plan(graph, start + i, q))
            .collect()
    });
    derive::model_of(graph, assembly, plans)
}

/// `work` over `0..n`, split into one run of consecutive items per core
/// when each run gets at least `min` of them, the parts put back in
/// order: the result is `work(0..n)`. The only place the core starts
/// threads; each step split here (builds, plans, estimates, table rules)
/// works on one item at a time, independent of the others.
fn on_every_core<T: Send>(
    n: usize,
    min: usize,
    work: impl Fn(Range<usize>) -> Vec<T> + Sync,
) -> Vec<T> {
    let cores = std::thread::available_parallelism().map_or(1, std::num::NonZero::get);
    in_parts(n, min, cores, work)
}

/// [`on_every_core`] on at most `cores` threads.
fn in_parts<T: Send>(
    n: usize,
    min: usize,
    cores: usize,
    work: impl Fn(Range<usize>) -> Vec<T> + Sync,
) -> Vec<T> {
    let parts = cores.min(n / min).max(1);
    if parts == 1 {
        return work(0..n);
    }
    let size = n.div_ceil(parts);
    let work = &work;
    std::thread::scope(|s| {
        let others: Vec<_> = (size..n)
            .step_by(size)
            .map(|start| s.spawn(move || work(start..(start + size).min(n))))
            .collect();
        let mut all = work(0..size);
        for other in others {
            match other.join() {
                Ok(part) => all.extend(part),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
        all
    })
}

#[cfg(test)]
mod tests {
    use super::in_parts;
    use std::sync::Mutex;

    /// Every split gives `work(0..n)` in order, each item worked once, in
    /// one part per core at most and never more parts than `n / min`.
    #[test]
    fn parts_are_joined_in_order_and_small_steps_stay_whole() {
        for cores in 1..=5 {
            for n in [0, 1, 5, 9, 10, 11, 37, 100] {
                let calls = Mutex::new(Vec::new());
                let got = in_parts(n, 3, cores, |range| {
                    if let Ok(mut c) = calls.lock() {
                        c.push(range.clone());
                    }
                    range.collect::<Vec<usize>>()
                });
                assert_eq!(got, (0..n).collect::<Vec<_>>(), "{cores} cores, {n} items");
                let calls = calls.into_inner().unwrap_or_default();
                let want = cores.min(n / 3).max(1);
                assert_eq!(calls.len(), want, "{cores} cores, {n} items: {calls:?}");
            }
        }
    }
}
