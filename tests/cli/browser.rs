//! A real browser opens the HTML report of the hotel sample from disk:
//! headless Chromium (the system package, which `.ci/run` installs) must
//! show it without a console error, and takes a screenshot. Without
//! Chromium the test fails unless `CQLMODEL_SKIP_BROWSER=1`.
//! `CQLMODEL_UPDATE_SCREENSHOTS=1` copies the screenshot to `screenshots/`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    for name in ["chromium", "chromium-browser", "google-chrome"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Loads a page, screenshots it, and returns the browser's log lines that
/// report console messages or page errors.
fn load(browser: &Path, page: &Path, shot: &Path) -> (bool, Vec<String>) {
    let profile = tempfile::tempdir().expect("profile dir");
    let out = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-dev-shm-usage",
            "--no-first-run",
            "--enable-logging=stderr",
            "--v=0",
            "--hide-scrollbars",
            "--window-size=1280,2200",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", page.display()))
        .output()
        .expect("chromium runs");
    let log = String::from_utf8_lossy(&out.stderr);
    let console: Vec<String> = log
        .lines()
        .filter(|l| l.contains(":CONSOLE") || l.contains("Uncaught"))
        .map(str::to_string)
        .collect();
    (out.status.success(), console)
}

#[test]
fn the_hotel_report_loads_in_chromium_without_console_errors() {
    if std::env::var("CQLMODEL_SKIP_BROWSER").as_deref() == Ok("1") {
        eprintln!("skipped: CQLMODEL_SKIP_BROWSER=1");
        return;
    }
    let Some(browser) = chromium() else {
        panic!("chromium not found: install it (apt-get install chromium) or set CQLMODEL_SKIP_BROWSER=1");
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = cqlmodel::model::load::read(&root.join("sample-projects/hotel.cqlm.ron"))
        .expect("hotel loads");
    let a = cqlmodel::analysis::analyze(&project);
    let html = cqlmodel::output::design_report::render(
        &project,
        &a,
        cqlmodel::output::design_report::Format::Html,
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let page = dir.path().join("hotel-report.html");
    std::fs::write(&page, &html).expect("written");
    let shot = dir.path().join("report-hotel.png");
    let (ok, console) = load(&browser, &page, &shot);
    assert!(ok, "chromium failed");
    assert!(console.is_empty(), "console messages: {console:#?}");
    let png = std::fs::read(&shot).expect("a screenshot");
    assert!(
        png.starts_with(b"\x89PNG") && png.len() > 10_000,
        "{} bytes",
        png.len()
    );
    if std::env::var("CQLMODEL_UPDATE_SCREENSHOTS").as_deref() == Ok("1") {
        std::fs::copy(&shot, root.join("screenshots/report-hotel.png")).expect("copied");
    }

    // The check above can fail: a page that logs an error is caught.
    let bad = dir.path().join("bad.html");
    std::fs::write(
        &bad,
        "<!DOCTYPE html><html><body><script>console.error('broken'); undefinedFn();</script></body></html>",
    )
    .expect("written");
    let (_, console) = load(&browser, &bad, &dir.path().join("bad.png"));
    assert!(!console.is_empty(), "console errors go unnoticed");
}
