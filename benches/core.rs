//! Core pipeline benchmarks: derivation, estimates and the whole analysis
//! (derive, estimate, diagnose) of a large synthetic project and of the
//! hotel sample. Short measurement windows keep `cargo bench` quick.

use cqlmodel::analysis::analyze;
use cqlmodel::derive::derive;
use cqlmodel::derive::estimate::estimate;
use cqlmodel::model::{load, synthetic, Project};
use criterion::{black_box, criterion_group, criterion_main, BatchSize, BenchmarkId, Criterion};
use std::time::Duration;

fn hotel() -> Project {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/hotel.cqlm.ron"
    );
    load::read(std::path::Path::new(path)).expect("the hotel sample loads")
}

fn projects() -> Vec<(&'static str, Project)> {
    vec![
        ("hotel", hotel()),
        ("synthetic_1000x1000", synthetic::project(1000, 1000, 7)),
    ]
}

fn core(c: &mut Criterion) {
    let mut group = c.benchmark_group("core");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, project) in projects() {
        // Results are dropped outside the timing: the workbench frees the
        // previous analysis off the edit path.
        group.bench_with_input(BenchmarkId::new("derive", name), &project, |b, p| {
            b.iter_with_large_drop(|| derive(black_box(p)));
        });
        let model = derive(&project);
        group.bench_with_input(BenchmarkId::new("estimate", name), &project, |b, p| {
            b.iter(|| estimate(black_box(p), black_box(&model)));
        });
        // Each analysis is freed outside the timing before the next one
        // starts, as the workbench frees the last: holding a batch of them
        // (`iter_with_large_drop`) times fresh pages of memory instead.
        group.bench_with_input(BenchmarkId::new("analyze", name), &project, |b, p| {
            b.iter_batched(|| (), |()| analyze(black_box(p)), BatchSize::PerIteration);
        });
    }
    group.finish();
}

fn loading(c: &mut Criterion) {
    let mut group = c.benchmark_group("load");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    let text = load::to_string(&synthetic::project(1000, 1000, 7));
    group.bench_function("parse_and_validate_synthetic_1000x1000", |b| {
        b.iter(|| load::from_str(black_box(&text)).expect("valid"));
    });
    group.finish();
}

criterion_group!(benches, core, loading);
criterion_main!(benches);
