//! Resident memory of the workbench with a generated project:
//! `cargo run --release --example memory [QUERIES]` (10,000 by default).
//!
//! The project file is written first; a fresh process then opens it the
//! way `cqlmodel FILE` does, draws a 200×60 frame, makes one edit and
//! draws again, and reports its resident set (`VmRSS`) and peak (`VmHWM`)
//! from /proc, then the resident set two seconds of frames later. Linux
//! only. `--write PATH [QUERIES]` writes the project file only, to open it
//! in the real workbench.
//!
//! `--report` renders the HTML design report of 100, 200, 400 and 800
//! tables that all hold one entity, each in a fresh process, and prints
//! the report's size and the process's peak memory: both grow linearly
//! with the tables (they once grew with their square).
use cqlmodel::model::{load, synthetic};
use cqlmodel::tui::action::{update, Action, Edit};
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::{start, view, Launch};
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use std::path::PathBuf;
use std::process::Command;

fn status_kib(field: &str) -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with(field))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn measure(path: PathBuf) -> Result<(), String> {
    let rss = || status_kib("VmRSS:").unwrap_or(0);
    let mib = |kib: u64| kib as f64 / 1024.0;
    let before = rss();
    let mut app = start(Launch::Open(path), Dirs::default())?;
    // A large project is analysed on the worker: what is measured is the
    // workbench with its analysis.
    if app.is_deriving() && !app.wait_for_analysis(std::time::Duration::from_mins(10)) {
        return Err("the analysis did not arrive".into());
    }
    let mut term = Terminal::new(TestBackend::new(200, 60)).map_err(|e| e.to_string())?;
    term.draw(|f| view::draw(&app, f))
        .map_err(|e| e.to_string())?;
    let opened = rss();
    update(&mut app, Action::Edit(Edit::ToggleEntry(0)));
    term.draw(|f| view::draw(&app, f))
        .map_err(|e| e.to_string())?;
    let edited = rss();
    let peak = status_kib("VmHWM:").unwrap_or(0);
    println!("process before opening:   {:.1} MiB", mib(before));
    println!("after open + first frame: {:.1} MiB", mib(opened));
    println!("after one edit + frame:   {:.1} MiB", mib(edited));
    println!("peak (VmHWM):             {:.1} MiB", mib(peak));
    // Two seconds of frames and the run loop's ticks show what an idle
    // workbench settles at.
    for _ in 0..20 {
        std::thread::sleep(std::time::Duration::from_millis(100));
        cqlmodel::tui::tick(&mut app);
        term.draw(|f| view::draw(&app, f))
            .map_err(|e| e.to_string())?;
    }
    println!("settled, 2 s later:       {:.1} MiB", mib(rss()));
    std::hint::black_box(&app);
    Ok(())
}

/// Renders the report of `n` tables of one entity in this process.
fn report_once(n: usize) {
    let p = synthetic::tables_of_one_entity(n);
    let a = cqlmodel::analysis::analyze(&p);
    let analysed = status_kib("VmHWM:").unwrap_or(0);
    let html = cqlmodel::output::design_report::render(
        &p,
        &a,
        cqlmodel::output::design_report::Format::Html,
    );
    let peak = status_kib("VmHWM:").unwrap_or(0);
    println!(
        "{n:>4} tables: {:>7} KiB of HTML, peak {:>6.1} MiB (after analysis {:.1} MiB)",
        html.len() / 1024,
        peak as f64 / 1024.0,
        analysed as f64 / 1024.0
    );
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    match args.next().as_deref() {
        Some("--report-once") => {
            let n = args
                .next()
                .ok_or("--report-once needs a table count")?
                .parse()
                .map_err(|e| format!("{e}"))?;
            report_once(n);
            Ok(())
        }
        Some("--report") => {
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            for n in [100, 200, 400, 800] {
                let ok = Command::new(&exe)
                    .arg("--report-once")
                    .arg(n.to_string())
                    .status()
                    .map_err(|e| e.to_string())?
                    .success();
                if !ok {
                    return Err(format!("the run with {n} tables failed"));
                }
            }
            Ok(())
        }
        Some("--open") => {
            let path = args.next().ok_or("--open needs a path")?;
            measure(PathBuf::from(path))
        }
        // The project file alone, e.g. to open it in the real workbench.
        Some("--write") => {
            let path = args.next().ok_or("--write needs a path")?;
            let queries: usize = args
                .next()
                .map_or(Ok(10_000), |a| a.parse())
                .map_err(|e| format!("{e}"))?;
            std::fs::write(
                &path,
                load::to_string(&synthetic::project(queries, queries, 7)),
            )
            .map_err(|e| e.to_string())
        }
        queries => {
            let queries: usize = queries
                .map_or(Ok(10_000), str::parse)
                .map_err(|e| format!("{e}"))?;
            let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
            let path = dir.path().join("big.cqlm.ron");
            let text = load::to_string(&synthetic::project(queries, queries, 7));
            std::fs::write(&path, &text).map_err(|e| e.to_string())?;
            println!(
                "{queries} entities, {queries} queries: {:.1} MiB of project text",
                text.len() as f64 / (1024.0 * 1024.0)
            );
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            let status = Command::new(exe)
                .arg("--open")
                .arg(&path)
                .status()
                .map_err(|e| e.to_string())?;
            status
                .success()
                .then_some(())
                .ok_or("the measuring run failed".into())
        }
    }
}
