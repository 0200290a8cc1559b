//! How cost grows with project size: the whole analysis (derive, estimate,
//! diagnose) and one edit → re-derivation → 200×60 frame, for generated
//! projects of 100, 1,000, 5,000 and 10,000 queries (as many entities as
//! queries). Run alone with `cargo bench --bench scaling`; the large sizes
//! use few, flat samples so the whole run stays within a few minutes.
//! `cargo bench --bench scaling -- reanalyze` compares one edit's full
//! re-analysis with the incremental one (`analysis::incremental`).

use cqlmodel::analysis::analyze;
use cqlmodel::analysis::incremental::IncrementalAnalysis;
use cqlmodel::edit::{self, Edit as CoreEdit};
use cqlmodel::model::{load, synthetic, Project};
use cqlmodel::tui::action::{update, Action, Edit};
use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::view;
use criterion::measurement::WallTime;
use criterion::{
    black_box, criterion_group, criterion_main, BenchmarkGroup, BenchmarkId, Criterion,
    SamplingMode, Throughput,
};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::time::{Duration, Instant};

const SIZES: [usize; 4] = [100, 1_000, 5_000, 10_000];

/// Few samples of single iterations for the sizes that take tens or
/// hundreds of milliseconds: enough to see the growth, quick to run.
fn configure(group: &mut BenchmarkGroup<'_, WallTime>, queries: usize) {
    if queries >= 5_000 {
        group
            .sampling_mode(SamplingMode::Flat)
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(4));
    } else {
        group
            .sampling_mode(SamplingMode::Auto)
            .sample_size(20)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2));
    }
    group.throughput(Throughput::Elements(queries as u64));
}

fn scaling(c: &mut Criterion) {
    let mut group = c.benchmark_group("scaling");
    for queries in SIZES {
        let project = synthetic::project(queries, queries, 7);
        configure(&mut group, queries);
        // Results are dropped outside the timing, as in the core bench.
        group.bench_with_input(BenchmarkId::new("analyze", queries), &project, |b, p| {
            b.iter_with_large_drop(|| analyze(black_box(p)));
        });
        let mut app = App::new(project, None, Dirs::default());
        let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
        term.draw(|f| view::draw(&app, f)).expect("draw");
        group.bench_function(BenchmarkId::new("edit_derive_draw", queries), |b| {
            b.iter(|| {
                // The tui bench's edit: toggling the first query's entry
                // point changes the project, so it is re-derived.
                update(&mut app, Action::Edit(Edit::ToggleEntry(0)));
                term.draw(|f| view::draw(&app, f)).expect("draw");
            });
        });
    }
    group.finish();
}

/// The project and a copy with one edit through the core's edit layer:
/// the first query returns one attribute fewer (or more), so its table,
/// plan and estimate change and every other query's stay.
fn edited_pair(project: Project) -> (Project, Project) {
    let mut next = project.clone();
    let q = &project.queries[0];
    let returns = if q.returns.len() > 1 {
        q.returns[..q.returns.len() - 1].to_vec()
    } else {
        let mut r = q.returns.clone();
        r.extend(q.equality.first().cloned());
        r
    };
    edit::apply(&mut next, &CoreEdit::SetReturns(0, returns)).expect("the edit applies");
    assert_ne!(project, next, "the edit changes the project");
    (project, next)
}

/// One edit → re-analysis, full (`analysis::analyze`) against incremental
/// (`IncrementalAnalysis::reanalyze`): each iteration switches between the
/// project and its edited copy, as edit and undo do.
fn reanalyze(c: &mut Criterion) {
    let mut group = c.benchmark_group("reanalyze");
    let hotel = load::from_str(cqlmodel::tui::SAMPLE).expect("the sample loads");
    let cases = [
        ("hotel", hotel),
        ("1000", synthetic::project(1_000, 1_000, 7)),
        ("10000", synthetic::project(10_000, 10_000, 7)),
    ];
    for (name, project) in cases {
        configure(&mut group, project.queries.len());
        let (a, b) = edited_pair(project);
        let mut flip = false;
        group.bench_function(BenchmarkId::new("full", name), |bench| {
            bench.iter_with_large_drop(|| {
                flip = !flip;
                analyze(black_box(if flip { &b } else { &a }))
            });
        });
        let mut inc = IncrementalAnalysis::new();
        let mut last = inc.analyze(&a);
        let mut flip = false;
        group.bench_function(BenchmarkId::new("incremental", name), |bench| {
            // The old analysis is freed outside the timing, as the full
            // case's `iter_with_large_drop` and the workbench do.
            bench.iter_custom(|iters| {
                let mut spent = Duration::ZERO;
                for _ in 0..iters {
                    flip = !flip;
                    let start = Instant::now();
                    let next = inc.reanalyze(black_box(if flip { &b } else { &a }), &last);
                    spent += start.elapsed();
                    drop(std::mem::replace(&mut last, next));
                }
                spent
            });
        });
    }
    group.finish();
}

criterion_group!(benches, scaling, reanalyze);
criterion_main!(benches);
