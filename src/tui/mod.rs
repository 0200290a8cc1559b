//! The interactive workbench: a thin shell over the core. `App` holds the
//! state, `update::update` changes it, `view::draw` draws it, and this
//! module does the rest: launching, the event loop (generic over the
//! ratatui backend so tests drive it on `TestBackend` with real key events),
//! and the effects only a shell may perform (files, quitting).

pub mod action;
pub mod analysis_worker;
pub mod app;
pub mod commands;
pub mod config;
pub mod diagnostics_filter;
/// Project editing lives in the core; the old path stays for the
/// workbench's own modules (outside callers use `cqlmodel::edit`).
pub(crate) use crate::edit;
pub mod focus;
pub mod highlight;
pub mod intent;
pub mod keymap;
pub mod labels;
pub mod mouse;
pub mod popup;
pub mod terminal;
pub mod testing;
pub mod theme;
pub mod update;
pub mod view;

use app::App;
use config::{fnv, Dirs};
use crossterm::event::{Event, KeyEventKind};
use intent::{Action, Effect, ExportKind};
use popup::{Confirm, Popup};
use ratatui::backend::Backend;
use ratatui::Terminal;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::model::{load, Project};

/// The bundled sample, opened as an unsaved copy when no file is given.
pub const SAMPLE: &str = include_str!("../../sample-projects/hotel.cqlm.ron");

/// Recovery copies are written at most this often while editing; with the
/// event loop's 250 ms tick a crash (`kill -9`) loses at most about half a
/// second of edits.
const RECOVERY_EVERY: Duration = Duration::from_millis(250);

/// How often the event loop looks for a pending analysis.
const DERIVING_POLL: Duration = Duration::from_millis(15);

/// How the workbench was started.
pub enum Launch {
    /// No file: the welcome screen over an empty project.
    Welcome,
    Sample,
    Open(PathBuf),
    New(PathBuf),
}

/// Builds the workbench for a launch, without touching the terminal.
/// Errors are messages for standard error.
pub fn start(launch: Launch, dirs: Dirs) -> Result<App, String> {
    let (config, config_error) = dirs.load_config();
    let welcome = matches!(launch, Launch::Welcome);
    let (project, path) = match launch {
        Launch::Welcome => (Project::empty("model"), None),
        Launch::Sample => (
            load::from_str(SAMPLE).map_err(|e| format!("the bundled sample does not load: {e}"))?,
            None,
        ),
        Launch::Open(path) => {
            let p = load::read(&path).map_err(|e| match e {
                load::LoadError::Io(m) if !path.exists() => {
                    format!(
                        "{m}\n(to start a new project there: cqlmodel new {})",
                        path.display()
                    )
                }
                other => format!("{}: {other}", path.display()),
            })?;
            (p, Some(path))
        }
        Launch::New(path) => {
            if path.exists() {
                return Err(format!(
                    "{} exists already; open it with: cqlmodel {}",
                    path.display(),
                    path.display()
                ));
            }
            let stem = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            let name = stem
                .strip_suffix(crate::model::EXTENSION)
                .unwrap_or(&stem)
                .to_string();
            (
                Project::empty(if name.is_empty() { "model" } else { &name }),
                Some(path),
            )
        }
    };
    let mut app = App::open(project, path, dirs);
    let (keymap, mut problems) = keymap::Keymap::with_overrides(&config.keys);
    let (theme, color_problems) = theme::Theme::with_overrides(&config.colors);
    problems.extend(color_problems);
    problems.extend(config_error);
    app.settings.keymap = keymap;
    app.settings.theme = theme;
    app.settings.mouse = config.mouse.unwrap_or(true);
    if let Some(p) = app.path.clone() {
        app.versions.disk = stamp(&p);
        if p.exists() {
            app.settings.dirs.remember(&p);
        }
    }
    if !problems.is_empty() {
        app.error(format!("config: {}", problems.join("; ")));
    }
    if welcome {
        let recent = app.settings.dirs.recent();
        app.popups
            .push(Popup::Welcome(popup::Welcome::new(&recent)));
    }
    remove_stale_temporaries(&app);
    offer_recovery(&mut app);
    Ok(app)
}

/// Offers the recovery copy whenever there is one, with both versions'
/// times: the file may have changed after the session ended (a `git
/// pull`), and only the user can tell which to keep. Nothing is deleted
/// until they chose (`n`); Esc does not dismiss the question.
fn offer_recovery(app: &mut App) {
    // Another running workbench's copy is its own: named, never offered.
    let own = std::process::id();
    let (live, left): (Vec<_>, Vec<_>) = app
        .settings
        .dirs
        .recovery_copies(app.path.as_deref())
        .into_iter()
        // Where it cannot be told whether the writer runs, its copy is
        // offered as one left behind.
        .partition(|(_, pid)| {
            pid.is_some_and(|p| p != own && crate::model::save::process_runs(p) == Some(true))
        });
    if let Some((_, Some(pid))) = live.first() {
        app.info(format!(
            "another workbench (process {pid}) has unsaved edits to this file; yours are kept apart"
        ));
    }
    // The newest copy a workbench left behind.
    let Some(rec) = left
        .into_iter()
        .map(|(p, _)| p)
        .max_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok())
    else {
        return;
    };
    let Ok(meta) = std::fs::metadata(&rec) else {
        return;
    };
    let rec_time = meta.modified().ok();
    let file_time = app
        .path
        .as_ref()
        .and_then(|p| std::fs::metadata(p).ok())
        .and_then(|m| m.modified().ok());
    let when = |t: Option<std::time::SystemTime>| t.map_or("an unknown time".into(), utc);
    let message = match (&app.path, file_time) {
        (Some(_), Some(f)) => {
            let newer = if rec_time.is_some_and(|r| r > f) {
                "the recovery copy is newer"
            } else {
                "the file is newer: it changed after that session"
            };
            format!(
                "A recovery copy of unsaved edits exists (from {}); the file was written {} ({newer}). Restore the recovery copy? (n deletes it)",
                when(rec_time),
                utc(f)
            )
        }
        _ => format!(
            "A recovery copy of unsaved edits exists (from {}). Restore it? (n deletes it)",
            when(rec_time)
        ),
    };
    let mut c = Confirm::new(
        "Recovery",
        message,
        vec![Action::RestoreRecovery(rec.clone())],
    );
    c.no = vec![Action::DiscardRecovery(rec)];
    c.must_choose = true;
    app.popups.push(Popup::Confirm(c));
}

/// A time as `2026-11-23 14:05:09 UTC` (no time zone database needed).
pub(crate) fn utc(t: std::time::SystemTime) -> String {
    let secs = match t.duration_since(std::time::UNIX_EPOCH) {
        Ok(d) => i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
        Err(e) => -i64::try_from(e.duration().as_secs()).unwrap_or(i64::MAX),
    };
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Civil from days (Howard Hinnant's algorithm).
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Removes temporary files that a killed session left beside the project
/// and among the recovery copies.
fn remove_stale_temporaries(app: &App) {
    let project_dir = app.path.as_ref().map(|p| {
        let target = crate::model::save::resolve(p);
        match target.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        }
    });
    let recovery_dir = app
        .settings
        .dirs
        .recovery_file(None)
        .and_then(|r| r.parent().map(Path::to_path_buf));
    for dir in project_dir.into_iter().chain(recovery_dir) {
        crate::model::save::remove_stale_temporaries(&dir);
    }
}

fn stamp(path: &Path) -> Option<app::DiskStamp> {
    let bytes = load::read_user_file(path).ok()?.into_bytes();
    Some(app::DiskStamp {
        modified: std::fs::metadata(path).ok().and_then(|m| m.modified().ok()),
        hash: fnv(&bytes),
    })
}

/// Runs the workbench in the real terminal; returns the exit code.
pub fn run(launch: Launch) -> i32 {
    let first = Instant::now();
    let mut app = match start(launch, Dirs::from_env()) {
        Ok(a) => a,
        Err(m) => {
            eprintln!("cqlmodel: {}", crate::model::naming::for_terminal(&m));
            return 2;
        }
    };
    let (mut term, guard) = match terminal::setup(app.settings.mouse) {
        Ok(t) => t,
        Err(e) => {
            terminal::restore();
            eprintln!("cqlmodel: cannot use the terminal: {e}");
            return 2;
        }
    };
    if let Err(e) = terminal::watch_signals() {
        app.error(format!("signals not watched: {e}"));
    }
    // A termination signal ends the loop as an `Interrupted` error.
    let interrupted = || {
        terminal::signal_received()
            .map(|_| std::io::Error::new(std::io::ErrorKind::Interrupted, "signal"))
    };
    let mouse = app.settings.mouse;
    let result = run_loop(&mut term, &mut app, |timeout| {
        if let Some(e) = interrupted() {
            return Err(e);
        }
        // Back from a job-control stop: a resize to the current size
        // redraws the whole screen.
        if terminal::suspend_if_asked(mouse)? {
            let (w, h) = crossterm::terminal::size()?;
            return Ok(Some(Event::Resize(w, h)));
        }
        let ready = crossterm::event::poll(timeout);
        if let Some(e) = interrupted() {
            return Err(e);
        }
        // A terminal that hung up without a SIGHUP reaching us (its
        // emulator killed) makes poll return at once forever: end instead
        // of spinning.
        if terminal::gone() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::BrokenPipe,
                "the terminal went away",
            ));
        }
        if ready? {
            crossterm::event::read().map(Some)
        } else {
            Ok(None)
        }
    });
    // A loop ended by a signal or a failing terminal keeps unsaved edits
    // first (a chosen quit has already settled them).
    if result.is_err() && app.dirty {
        write_recovery(&mut app);
    }
    if let Some(sig) = terminal::signal_received() {
        // The recovery copy is written above; the terminal is restored
        // after it, as on any exit.
        drop(guard);
        let kept = match app.settings.dirs.recovery_file(app.path.as_deref()) {
            Some(rec) if app.dirty => format!(
                "; unsaved changes are in the recovery copy {}",
                rec.display()
            ),
            _ => String::new(),
        };
        eprintln!(
            "cqlmodel: ended by {}{}",
            terminal::signal_name(sig),
            crate::model::naming::for_terminal(&kept)
        );
        return 128 + sig;
    }
    drop(guard);
    if std::env::var_os("CQLMODEL_TIMING").is_some() {
        eprintln!("session {:?}", first.elapsed());
    }
    match result {
        Ok(()) => 0,
        Err(e) => {
            eprintln!("cqlmodel: {e}");
            1
        }
    }
}

/// The event loop: draw, wait for an event (or a tick), handle it. Generic
/// over the backend and the event source so tests run exactly this.
pub(crate) fn run_loop<B: Backend>(
    terminal: &mut Terminal<B>,
    app: &mut App,
    mut next_event: impl FnMut(Duration) -> std::io::Result<Option<Event>>,
) -> std::io::Result<()> {
    loop {
        app.receive_analysis();
        app.receive_what_if();
        terminal.draw(|f| view::draw(app, f))?;
        if app.quit {
            return Ok(());
        }
        // A pending analysis is looked for every few milliseconds, so its
        // tables appear within a frame of its end.
        let wait = if app.is_deriving() || app.is_previewing() {
            DERIVING_POLL
        } else {
            Duration::from_millis(250)
        };
        match next_event(wait)? {
            // The screen may hold anything (another program's output after
            // a suspend): the next frame is drawn whole.
            Some(Event::Resize(..)) => terminal.clear()?,
            Some(ev) => handle_event(app, ev),
            None => tick(app),
        }
    }
}

/// Handles one terminal event: the single entry point for keys, mouse and
/// paste, shared by the real loop and the tests.
pub fn handle_event(app: &mut App, ev: Event) {
    let action = match ev {
        Event::Key(k) if k.kind == KeyEventKind::Press => Action::Key(k),
        Event::Mouse(m) if app.settings.mouse => Action::Mouse(m),
        Event::Paste(text) => Action::Paste(text),
        _ => return,
    };
    let popups = app.popups.len();
    let status = app.status.clone();
    let effects = update::update(app, action);
    perform_all(app, effects);
    // A popup that just opened has the keys: a message from before it (a
    // refusal the user has since acted on) would read as being about it.
    if app.popups.len() > popups && app.status == status {
        app.status = None;
    }
    tick(app);
}

/// Periodic work: the recovery copy.
pub fn tick(app: &mut App) {
    if !app.recovery.due {
        return;
    }
    if app
        .recovery
        .last
        .is_some_and(|t| t.elapsed() < RECOVERY_EVERY)
    {
        return;
    }
    write_recovery(app);
}

/// Writes the recovery copy now (or removes it once nothing is unsaved).
pub fn write_recovery(app: &mut App) {
    app.recovery.due = false;
    app.recovery.last = Some(Instant::now());
    let Some(rec) = app.settings.dirs.recovery_file(app.path.as_deref()) else {
        return;
    };
    if !app.dirty {
        let _ = std::fs::remove_file(&rec);
        return;
    }
    if let Some(dir) = rec.parent() {
        let _ = std::fs::create_dir_all(dir);
    }
    if let Err(e) = load::write_atomic(&rec, &load::to_string(&app.project)) {
        app.error(format!("recovery copy not written: {e}"));
    }
}

fn discard_recovery(app: &App) {
    if let Some(rec) = app.settings.dirs.recovery_file(app.path.as_deref()) {
        let _ = std::fs::remove_file(rec);
    }
}

/// Carries out the effects of one action in order. A quit that follows a
/// save (`:wq`) waits for it: when the save was refused or needs an answer
/// first, the program stays, and answering yes saves and then quits.
pub(crate) fn perform_all(app: &mut App, effects: Vec<Effect>) {
    let mut effects = effects.into_iter().peekable();
    while let Some(effect) = effects.next() {
        if let Effect::Save { path, force } = effect {
            let then_quit = matches!(effects.peek(), Some(Effect::Quit | Effect::QuitIfSaved));
            if app.recovery.due {
                write_recovery(app);
            }
            if !save(app, path, force, then_quit) && then_quit {
                effects.next();
            }
            continue;
        }
        perform(app, effect);
    }
}

/// Carries out an effect `update` asked for.
pub fn perform(app: &mut App, effect: Effect) {
    // File work can block or fail; the recovery copy is brought up to date
    // before it.
    if app.recovery.due && !matches!(effect, Effect::Quit | Effect::DiscardRecovery(_)) {
        write_recovery(app);
    }
    match effect {
        Effect::Save { path, force } => {
            save(app, path, force, false);
        }
        Effect::Open(path) => match load::read(&path) {
            Ok(p) => {
                discard_recovery(app);
                app.replace_project(p, Some(path.clone()), false);
                app.versions.disk = stamp(&path);
                app.settings.dirs.remember(&path);
                app.info(format!("opened {}", path.display()));
                offer_recovery(app);
            }
            Err(e) => app.error(format!("{}: {e}", path.display())),
        },
        Effect::Export { kind, path, force } => export(app, kind, path, force),
        Effect::Quit => {
            discard_recovery(app);
            app.quit = true;
        }
        Effect::QuitIfSaved => {
            if !app.dirty {
                discard_recovery(app);
                app.quit = true;
            }
        }
        Effect::RestoreRecovery(rec) => match load::read(&rec) {
            Ok(p) => {
                let path = app.path.clone();
                app.replace_project(p, path, true);
                // Adopted: this workbench's own copy holds the edits now.
                if app
                    .settings
                    .dirs
                    .recovery_file(app.path.as_deref())
                    .as_ref()
                    != Some(&rec)
                {
                    write_recovery(app);
                    let _ = std::fs::remove_file(&rec);
                }
                app.info("restored the recovery copy (unsaved: :w keeps it)");
            }
            Err(e) => app.error(format!("recovery copy unusable: {e}")),
        },
        Effect::DiscardRecovery(rec) => {
            let _ = std::fs::remove_file(rec);
        }
        Effect::ListDirectory(dir) => {
            let entries = list_directory(&dir);
            for e in update::update(app, Action::Listed(dir, entries)) {
                perform(app, e);
            }
        }
    }
}

/// The names in a directory for file-name completion, directories ending
/// in `/`; an unreadable directory has none.
pub(crate) fn list_directory(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .map(|e| {
                    let n = e.file_name().to_string_lossy().into_owned();
                    let is_dir = e.file_type().is_ok_and(|t| t.is_dir());
                    if is_dir {
                        format!("{n}/")
                    } else {
                        n
                    }
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Writes an export; never over the open project, and over another existing
/// file only after the user said yes.
fn export(app: &mut App, kind: ExportKind, path: PathBuf, force: bool) {
    let what = match kind {
        ExportKind::Cql => "CQL".to_string(),
        ExportKind::Report => "design report".to_string(),
        ExportKind::Diagram(view) => format!("{} diagram", view.name()),
    };
    if app.is_deriving() {
        app.error(format!(
            "deriving…: the {what} is exported once the analysis is done"
        ));
        return;
    }
    if app
        .path
        .as_ref()
        .is_some_and(|p| crate::model::save::same_file(p, &path))
    {
        app.error(format!(
            "{} is the open project: the {what} is not exported over it",
            path.display()
        ));
        return;
    }
    if !force && path.exists() {
        app.popups.push(Popup::Confirm(Confirm::new(
            "File exists",
            format!("{} exists. Overwrite it with the {what}?", path.display()),
            vec![Action::ExportOver(kind, path)],
        )));
        return;
    }
    let text = match kind {
        ExportKind::Cql => crate::output::cql::script(&app.project, &app.analysis.model),
        ExportKind::Report => {
            let format = crate::output::design_report::Format::from_extension(&path);
            crate::output::design_report::render(&app.project, &app.analysis, format)
        }
        ExportKind::Diagram(view) => {
            let format = crate::output::diagram::Format::from_extension(&path)
                .unwrap_or(crate::output::diagram::Format::Svg);
            crate::output::diagram::render(view, format, &app.project, &app.analysis)
        }
    };
    let written = if force {
        crate::model::save::overwrite_atomic(&path, &text)
    } else {
        load::write_atomic(&path, &text)
    };
    match written {
        Ok(()) => match kind {
            ExportKind::Cql => app.info(format!(
                "wrote {} ({} tables)",
                path.display(),
                app.analysis.model.tables.len()
            )),
            _ => app.info(format!("wrote {} ({what})", path.display())),
        },
        Err(e) => app.error(format!("{}: {e}", path.display())),
    }
}

/// Saves the project; true once the file is written. When the save needs
/// a yes first, the question's yes saves by force and, with `then_quit`,
/// quits after that save.
fn save(app: &mut App, path: Option<PathBuf>, force: bool, then_quit: bool) -> bool {
    let Some(target) = path.clone().or_else(|| app.path.clone()) else {
        app.error("no file name yet: save with :w FILE");
        return false;
    };
    let yes = |path: Option<PathBuf>| {
        let mut actions = vec![Action::Save { path, force: true }];
        if then_quit {
            actions.push(Action::Quit { force: true });
        }
        actions
    };
    let same_file = app
        .path
        .as_ref()
        .is_some_and(|p| p == &target || crate::model::save::same_file(p, &target));
    if !same_file && !force && target.exists() {
        app.popups.push(Popup::Confirm(Confirm::new(
            "File exists",
            format!(
                "{} exists{}. Overwrite it? (:w! does)",
                target.display(),
                if crate::model::save::is_read_only(&target) {
                    " and is read-only"
                } else {
                    ""
                }
            ),
            yes(Some(target)),
        )));
        return false;
    }
    if same_file && !force {
        let now = stamp(&target);
        let changed = match (&app.versions.disk, &now) {
            (Some(before), Some(now)) => before.hash != now.hash,
            (None, Some(_)) => true,
            _ => false,
        };
        if changed {
            app.popups.push(Popup::Confirm(Confirm::new(
                "File changed on disk",
                format!(
                    "{} changed since it was loaded. Overwrite it?",
                    target.display()
                ),
                yes(path),
            )));
            app.error("the file changed on disk: not saved (y overwrites, :e reloads)");
            return false;
        }
    }
    if !force && crate::model::save::is_read_only(&target) {
        app.popups.push(Popup::Confirm(Confirm::new(
            "Read-only file",
            format!(
                "{} is read-only. Overwrite it anyway? (:w! does)",
                target.display()
            ),
            yes(Some(target)),
        )));
        app.error("the file is read-only: not saved");
        return false;
    }
    // Edit the file as it is on disk (comments, layout) rather than rewrite it.
    let text = match app.path.as_deref().map(load::read_user_file) {
        Some(Ok(original)) => crate::model::preserve::save_text(&original, &app.project),
        _ => load::to_string(&app.project),
    };
    let written = if force {
        crate::model::save::overwrite_atomic(&target, &text)
    } else {
        load::write_atomic(&target, &text)
    };
    match written {
        Ok(()) => {
            discard_recovery(app);
            app.path = Some(target.clone());
            app.mark_saved();
            app.versions.disk = stamp(&target);
            app.settings.dirs.remember(&target);
            app.info(format!("saved {}", target.display()));
            true
        }
        Err(e) => {
            app.error(format!("not saved: {}: {e}", target.display()));
            false
        }
    }
}
