//! All review rules on a large synthetic project (1,000 entities, 1,000
//! queries): derivation and estimates are done once, outside the timing.
//! Also `refine::preview` on the hotel sample, which the TUI runs when a
//! refinement is selected.

use cqlmodel::derive::derive;
use cqlmodel::derive::estimate::estimate;
use cqlmodel::model::{load, synthetic};
use cqlmodel::review::diagnose::{diagnose, Refinement};
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
        });
    });

    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/hotel.cqlm.ron"
    );
    let hotel = load::read(std::path::Path::new(path)).expect("hotel loads");
    let r = Refinement::AddShard {
        query: "Q4".into(),
        column: "shard".into(),
        count: 8,
    };
    c.bench_function("refine preview hotel", |b| {
        b.iter(|| cqlmodel::edit::refine::preview(black_box(&hotel), black_box(&r)));
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
