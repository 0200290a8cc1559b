//! One call that runs the whole pipeline the shells show: derive, estimate,
//! diagnose.

pub mod incremental;
mod inputs;
mod writes;

use crate::derive::estimate::{Estimate, Estimator};
use crate::derive::{self, LogicalModel};
use crate::model::resolve::Graph;
use crate::model::Project;
use crate::review::diagnose::{apply_waivers, beyond_tables, in_report_order, Diagnostic, Rules};
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
    // thread. The table rules and the others cost about as much.
    let rules = || Rules::new(&graph, &model, &estimates, &users);
    let (tables, (schema, others)) = beside(
        model.tables.len() >= 2 * TABLES_PER_THREAD,
        || {
            let rules = rules();
            (0..model.tables.len())
                .map(|i| rules.table(i))
                .collect::<Vec<_>>()
        },
        || beyond_tables(&rules()),
    );
    let mut diagnostics = in_report_order(&tables, &schema, &others);
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
/// analysis) split over the machine's cores, and the plans made beside the
/// write paths (about as costly, and independent).
fn derive_on_every_core(graph: &Graph) -> LogicalModel {
    let decisions = derive::decisions_by_query(graph.project);
    let own = derive::own_queries(graph.project, &decisions);
    let built = on_every_core(own.len(), QUERIES_PER_THREAD, |range| {
        derive::build_each(graph, &decisions, &own[range])
    });
    let assembly = derive::assemble_built(graph, &decisions, &own, built);
    // The plans cost a little more: they go to the other core, which has
    // less to do in the rest of the analysis.
    let (writes, plans) = beside(
        graph.project.queries.len() >= 2 * QUERIES_PER_THREAD,
        || derive::write_paths_of(graph, &assembly),
        || assembly.plans(graph),
    );
    assembly.into_model(plans, writes)
}

/// `a()` and `b()`, `b` on another core when `worth` it and there is one.
/// With [`on_every_core`], the only place the core starts threads.
fn beside<A, B: Send>(worth: bool, a: impl FnOnce() -> A, b: impl FnOnce() -> B + Send) -> (A, B) {
    if !worth || cores() < 2 {
        return (a(), b());
    }
    std::thread::scope(|s| {
        let other = s.spawn(b);
        let a = a();
        match other.join() {
            Ok(b) => (a, b),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}

/// `work` over `0..n`, split into one run of consecutive items per core
/// when each run gets at least `min` of them, the parts put back in
/// order: the result is `work(0..n)`. Each step split here (builds,
/// estimates) works on one item at a time, independent of the others.
fn on_every_core<T: Send>(
    n: usize,
    min: usize,
    work: impl Fn(Range<usize>) -> Vec<T> + Sync,
) -> Vec<T> {
    in_parts(n, min, cores(), work)
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, std::num::NonZero::get)
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
    use super::{beside, cores, in_parts};
    use std::sync::Mutex;
    use std::thread;

    /// `beside` gives each result its own place; it runs `b` on another
    /// thread only when asked to and there is a second core.
    #[test]
    fn beside_keeps_results_in_place_and_small_steps_on_this_thread() {
        let here = thread::current().id();
        let (a, (b, b_thread)) = beside(false, || 1, || (2, thread::current().id()));
        assert_eq!((a, b), (1, 2));
        assert_eq!(b_thread, here);
        let (a, (b, b_thread)) = beside(true, || "a", || ("b", thread::current().id()));
        assert_eq!((a, b), ("a", "b"));
        assert_eq!(b_thread != here, cores() > 1);
    }

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
