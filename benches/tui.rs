//! Workbench benchmarks: one edit → re-derivation → a full 200×60 frame on
//! `TestBackend`, for the hotel sample and a 1000-entity, 1000-query
//! synthetic project; a frame alone; and start-up to the first frame.

use cqlmodel::model::{load, synthetic, Project};
use cqlmodel::tui::action::{update, Action, Edit};
use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::{start, view, Launch};
use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::time::Duration;

fn projects() -> Vec<(&'static str, Project)> {
    vec![
        (
            "hotel",
            load::from_str(cqlmodel::tui::SAMPLE).expect("the sample loads"),
        ),
        ("synthetic_1000x1000", synthetic::project(1000, 1000, 7)),
    ]
}

fn tui(c: &mut Criterion) {
    let mut group = c.benchmark_group("tui");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(3));
    for (name, project) in projects() {
        let mut app = App::new(project, None, Dirs::default());
        let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
        term.draw(|f| view::draw(&app, f)).expect("draw");
        group.bench_function(BenchmarkId::new("edit_derive_draw", name), |b| {
            b.iter(|| {
                // A real edit each time: toggling the first query's entry
                // point changes the project, so it is validated, pushed on
                // the undo stack and re-derived.
                update(&mut app, Action::Edit(Edit::ToggleEntry(0)));
                term.draw(|f| view::draw(&app, f)).expect("draw");
            });
        });
        group.bench_function(BenchmarkId::new("draw", name), |b| {
            b.iter(|| {
                term.draw(|f| view::draw(&app, f)).expect("draw");
            });
        });
    }
    group.bench_function("start_to_first_frame/hotel", |b| {
        b.iter(|| {
            let app = start(Launch::Sample, Dirs::default()).expect("start");
            let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
            term.draw(|f| view::draw(&app, f)).expect("draw");
        });
    });
    group.finish();
}

criterion_group!(benches, tui);
criterion_main!(benches);
