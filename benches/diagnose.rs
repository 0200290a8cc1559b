//! All review rules on a large synthetic project (1,000 entities, 1,000
//! queries): derivation and estimates are done once, outside the timing.

use cqlmodel::derive::derive;
use cqlmodel::diagnose::diagnose;
use cqlmodel::estimate::estimate;
use cqlmodel::model::synthetic;
use criterion::{black_box, criterion_group, criterion_main, Criterion};

fn bench(c: &mut Criterion) {
    let project = synthetic::project(1000, 1000, 7);
    let model = derive(&project);
    let estimates = estimate(&project, &model);
    let n = diagnose(&project, &model, &estimates).len();
    eprintln!("{} tables, {n} diagnostics", model.tables.len());
    c.bench_function("diagnose synthetic 1000x1000", |b| {
        b.iter(|| {
            diagnose(
                black_box(&project),
                black_box(&model),
                black_box(&estimates),
            )
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
