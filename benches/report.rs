//! The review artifacts of a large synthetic project (1,000 entities,
//! 1,000 queries): the HTML and Markdown reports and the three SVG
//! diagrams. Analysis is done once, outside the timing.
//!
//! `report scaling` renders the HTML report of 100 to 800 tables that all
//! hold one entity (every insert writes them all: the case that once made
//! reports grow with the square of the tables) and prints each report's
//! size; `cargo run --release --example memory -- --report` gives the peak
//! memory of each size. Time, bytes and memory must all grow linearly.

use cqlmodel::analysis::analyze;
use cqlmodel::model::synthetic;
use cqlmodel::output::design_report::{self, Format};
use cqlmodel::output::diagram::{self, View};
use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion};

fn scaling(c: &mut Criterion) {
    let mut g = c.benchmark_group("report scaling");
    g.sample_size(10);
    for n in [100, 200, 400, 800] {
        let project = synthetic::tables_of_one_entity(n);
        let a = analyze(&project);
        let html = design_report::render(&project, &a, Format::Html);
        eprintln!(
            "report scaling {n} tables: {} KiB of HTML",
            html.len() / 1024
        );
        drop(html);
        g.bench_with_input(BenchmarkId::from_parameter(n), &n, |b, _| {
            b.iter(|| design_report::render(black_box(&project), black_box(&a), Format::Html));
        });
    }
    g.finish();
}

fn bench(c: &mut Criterion) {
    let project = synthetic::project(1000, 1000, 7);
    let a = analyze(&project);
    eprintln!(
        "{} tables, {} queries, {} diagnostics",
        a.model.tables.len(),
        project.queries.len(),
        a.diagnostics.len()
    );
    let mut g = c.benchmark_group("report synthetic 1000x1000");
    g.sample_size(10);
    g.bench_function("html", |b| {
        b.iter(|| design_report::render(black_box(&project), black_box(&a), Format::Html));
    });
    g.bench_function("markdown", |b| {
        b.iter(|| design_report::render(black_box(&project), black_box(&a), Format::Markdown));
    });
    for view in View::ALL {
        g.bench_function(format!("svg {}", view.name()), |b| {
            b.iter(|| {
                diagram::render(
                    view,
                    diagram::Format::Svg,
                    black_box(&project),
                    black_box(&a),
                )
            });
        });
    }
    g.finish();
}

criterion_group!(benches, bench, scaling);
criterion_main!(benches);
