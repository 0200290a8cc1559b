//! Work on generated projects for instruction counts under
//! `valgrind --tool=callgrind` (repeatable on a busy machine, unlike wall
//! time): `valgrind --tool=callgrind target/release/examples/prof [WHAT [N]]`
//! where WHAT is
//! - `derive` (default): derivation, estimates and validation;
//! - `load`: parse and validate the project's file text (collect only
//!   `--toggle-collect='cqlmodel::model::load::from_str*'`);
//! - `analyze`: the whole analysis, its result not freed (the bench frees
//!   it outside its timing) (`--toggle-collect='cqlmodel::analysis::analyze*'`);
//! - `edit`: one edit → re-derivation → 200×60 frame in the workbench,
//!   after a first edit (`--toggle-collect='prof::edit_and_draw*'`);
//! - `reanalyze`: one query edit → incremental re-analysis, ten times
//!   back and forth (`--toggle-collect='prof::reanalyze*'`);
//! - `draw`: ten 200×60 frames of the workbench, nothing edited (count
//!   the whole run minus `setup`, divided by ten);
//!
//! of a generated project of N entities and N queries (1,000 by default;
//! 0 for the bundled hotel sample).
//! Derivation runs on several threads, which `--toggle-collect` misses:
//! for `analyze` and `edit` count the whole run and subtract a run with
//! a third argument `setup`, which does everything but the measured step.
use cqlmodel::tui::action::{update, Action, Edit};
use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::view;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

#[inline(never)]
fn edit_and_draw(app: &mut App, term: &mut Terminal<TestBackend>) {
    update(app, Action::Edit(Edit::ToggleEntry(0)));
    term.draw(|f| view::draw(app, f)).expect("draw");
}

// The last analysis is handed over, as the workbench hands it on.
#[allow(clippy::needless_pass_by_value)]
#[inline(never)]
fn reanalyze(
    inc: &mut cqlmodel::analysis::incremental::IncrementalAnalysis,
    p: &cqlmodel::model::Project,
    last: cqlmodel::analysis::Analysis,
) -> cqlmodel::analysis::Analysis {
    inc.reanalyze(p, &last)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let what = args.next().unwrap_or_else(|| "derive".into());
    let n: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let measure = args.next().as_deref() != Some("setup");
    let p = if n == 0 {
        cqlmodel::model::load::from_str(cqlmodel::tui::SAMPLE).expect("the sample loads")
    } else {
        cqlmodel::model::synthetic::project(n, n, 7)
    };
    match what.as_str() {
        "load" => {
            let text = cqlmodel::model::load::to_string(&p);
            let loaded = cqlmodel::model::load::from_str(&text);
            std::hint::black_box(loaded.is_ok());
        }
        "analyze" => {
            if measure {
                // Not freed, as the bench frees it outside its timing.
                std::mem::forget(std::hint::black_box(cqlmodel::analysis::analyze(&p)));
            }
        }
        "reanalyze" => {
            let mut next = p.clone();
            let mut returns = p.queries[0].returns.clone();
            returns.pop();
            cqlmodel::edit::apply(&mut next, &cqlmodel::edit::Edit::SetReturns(0, returns))
                .expect("the edit applies");
            let mut inc = cqlmodel::analysis::incremental::IncrementalAnalysis::new();
            let mut last = inc.analyze(&p);
            if measure {
                for i in 0..10 {
                    last = reanalyze(&mut inc, if i % 2 == 0 { &next } else { &p }, last);
                }
            }
            std::hint::black_box(&last);
        }
        "draw" => {
            let app = App::new(p, None, Dirs::default());
            let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
            term.draw(|f| view::draw(&app, f)).expect("draw");
            if measure {
                for _ in 0..10 {
                    term.draw(|f| view::draw(&app, f)).expect("draw");
                }
            }
            std::hint::black_box(&app);
        }
        "edit" => {
            let mut app = App::new(p, None, Dirs::default());
            let mut term = Terminal::new(TestBackend::new(200, 60)).expect("terminal");
            term.draw(|f| view::draw(&app, f)).expect("draw");
            // One edit first, as in the workbench and the bench, where
            // edits follow edits (the first one validates the whole project).
            update(&mut app, Action::Edit(Edit::ToggleEntry(0)));
            if measure {
                edit_and_draw(&mut app, &mut term);
            }
            std::hint::black_box(&app);
        }
        _ => {
            let m = cqlmodel::derive::derive(&p);
            let e = cqlmodel::derive::estimate::estimate(&p, &m);
            let problems = cqlmodel::model::load::validate(&p);
            std::hint::black_box((m, e, problems));
        }
    }
    // Memory a large analysis hands to a helper to free is freed before
    // the count ends (in both runs, so the difference stays the step's).
    std::thread::sleep(std::time::Duration::from_millis(300));
}
