//! Work is never lost and other files are never overwritten silently:
//! saving keeps the file's mode and symlinks and refuses read-only files
//! unless forced; `:w EXISTING` and `:export cql PATH` ask first, and the
//! export refuses the open project; temporary files are recognisable and
//! cleaned up after a kill; the recovery copy is always offered with both
//! versions' times, never deleted before the user chose, and written on
//! every edit (flushed before file work).

use cqlmodel::model::{load, save};
use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::{handle_event, start, tick, Launch};
use crossterm::event::{Event, KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

fn dirs(root: &Path) -> Dirs {
    Dirs {
        config: Some(root.join("config")),
        data: Some(root.join("data")),
    }
}

fn key(app: &mut App, code: KeyCode, mods: KeyModifiers) {
    handle_event(
        app,
        Event::Key(KeyEvent::new_with_kind(code, mods, KeyEventKind::Press)),
    );
}

fn press(app: &mut App, c: char) {
    key(app, KeyCode::Char(c), KeyModifiers::NONE);
}

fn command(app: &mut App, line: &str) {
    press(app, ':');
    for c in line.chars() {
        press(app, c);
    }
    key(app, KeyCode::Enter, KeyModifiers::NONE);
}

fn hotel(dir: &Path, name: &str) -> PathBuf {
    let f = dir.join(name);
    std::fs::write(&f, cqlmodel::tui::SAMPLE).expect("write");
    f
}

fn mode(p: &Path) -> u32 {
    std::fs::metadata(p).expect("meta").permissions().mode() & 0o777
}

fn confirm_message(app: &App) -> Option<String> {
    match app.popups.last() {
        Some(Popup::Confirm(c)) => Some(c.message.clone()),
        _ => None,
    }
}

/// An edit that makes the project dirty: `*` toggles the entry point of
/// the first query (the Workflow pane has the focus at start).
fn edit(app: &mut App) {
    press(app, '*');
    assert!(app.dirty);
}

#[test]
fn saving_keeps_the_mode() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = hotel(tmp.path(), "p.cqlm.ron");
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o600)).expect("chmod");
    save::write_atomic(&f, "changed").expect("write");
    assert_eq!(std::fs::read_to_string(&f).expect("read"), "changed");
    assert_eq!(mode(&f), 0o600);
}

#[test]
fn saving_writes_through_a_symlink() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let real = hotel(tmp.path(), "real.cqlm.ron");
    let link = tmp.path().join("link.cqlm.ron");
    std::os::unix::fs::symlink("real.cqlm.ron", &link).expect("symlink");
    save::write_atomic(&link, "through").expect("write");
    assert!(std::fs::symlink_metadata(&link)
        .expect("meta")
        .file_type()
        .is_symlink());
    assert_eq!(std::fs::read_to_string(&real).expect("read"), "through");
}

#[test]
fn read_only_files_are_refused_unless_forced() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = hotel(tmp.path(), "ro.cqlm.ron");
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let e = save::write_atomic(&f, "x").expect_err("refused");
    assert_eq!(e.kind(), std::io::ErrorKind::PermissionDenied);
    assert_eq!(
        std::fs::read_to_string(&f).expect("read"),
        cqlmodel::tui::SAMPLE
    );
    save::overwrite_atomic(&f, "forced").expect("forced");
    assert_eq!(std::fs::read_to_string(&f).expect("read"), "forced");
    assert_eq!(mode(&f), 0o444, "still read-only");

    // In the workbench: Ctrl-S asks, y overwrites.
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o644)).expect("chmod");
    std::fs::write(&f, cqlmodel::tui::SAMPLE).expect("write");
    std::fs::set_permissions(&f, std::fs::Permissions::from_mode(0o444)).expect("chmod");
    let mut app = start(Launch::Open(f.clone()), dirs(tmp.path())).expect("start");
    edit(&mut app);
    key(&mut app, KeyCode::Char('s'), KeyModifiers::CONTROL);
    assert!(app.dirty);
    let msg = confirm_message(&app).expect("asks");
    assert!(msg.contains("read-only"), "{msg}");
    press(&mut app, 'y');
    assert!(!app.dirty, "{:?}", app.status);
    assert_eq!(load::read(&f).expect("saved"), app.project);
}

#[test]
fn save_as_over_an_existing_file_asks() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = hotel(tmp.path(), "a.cqlm.ron");
    let other = tmp.path().join("other.txt");
    std::fs::write(&other, "precious").expect("write");
    let mut app = start(Launch::Open(f), dirs(tmp.path())).expect("start");
    command(&mut app, &format!("w {}", other.display()));
    assert!(confirm_message(&app).expect("asks").contains("exists"));
    press(&mut app, 'n');
    assert_eq!(std::fs::read_to_string(&other).expect("read"), "precious");
    command(&mut app, &format!("w! {}", other.display()));
    assert_eq!(load::read(&other).expect("saved"), app.project);
    assert_eq!(app.path.as_deref(), Some(other.as_path()));
}

#[test]
fn export_asks_before_overwriting_and_never_writes_over_the_project() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = hotel(tmp.path(), "a.cqlm.ron");
    let mut app = start(Launch::Open(f.clone()), dirs(tmp.path())).expect("start");
    command(&mut app, &format!("export cql {}", f.display()));
    assert!(app.popups.is_empty());
    assert_eq!(
        std::fs::read_to_string(&f).expect("read"),
        cqlmodel::tui::SAMPLE
    );
    let status = app
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(status.contains("open project"), "{status}");
    // Through another spelling of the same path too.
    let dotted = tmp.path().join(".").join("a.cqlm.ron");
    command(&mut app, &format!("export cql {}", dotted.display()));
    assert_eq!(
        std::fs::read_to_string(&f).expect("read"),
        cqlmodel::tui::SAMPLE
    );

    let out = tmp.path().join("schema.cql");
    std::fs::write(&out, "keep").expect("write");
    command(&mut app, &format!("export cql {}", out.display()));
    assert!(confirm_message(&app).expect("asks").contains("exists"));
    press(&mut app, 'n');
    assert_eq!(std::fs::read_to_string(&out).expect("read"), "keep");
    command(&mut app, &format!("export cql {}", out.display()));
    press(&mut app, 'y');
    assert!(std::fs::read_to_string(&out)
        .expect("read")
        .contains("CREATE TABLE"));
}

fn recovery_copy(tmp: &Path, project: &Path) -> PathBuf {
    dirs(tmp)
        .recovery_file(Some(project))
        .expect("recovery path")
}

#[test]
fn recovery_copy_is_offered_even_when_the_file_is_newer() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = hotel(tmp.path(), "a.cqlm.ron");
    // A session edits and dies (the copy is written on the edit).
    let mut app = start(Launch::Open(f.clone()), dirs(tmp.path())).expect("start");
    edit(&mut app);
    cqlmodel::tui::write_recovery(&mut app);
    let rec = recovery_copy(tmp.path(), &f);
    assert!(rec.exists());
    drop(app);
    // Then the file changes (a git pull), after the copy.
    std::thread::sleep(std::time::Duration::from_millis(20));
    let mut pulled = load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    pulled.name = "Pulled".into();
    std::fs::write(&f, load::to_string(&pulled)).expect("pull");
    let far = std::time::SystemTime::now() + std::time::Duration::from_mins(1);
    std::fs::File::options()
        .write(true)
        .open(&f)
        .and_then(|h| h.set_modified(far))
        .expect("touch");

    let mut app = start(Launch::Open(f.clone()), dirs(tmp.path())).expect("start");
    let msg = confirm_message(&app).expect("offered");
    assert!(msg.contains("the file is newer"), "{msg}");
    assert_eq!(msg.matches(" UTC").count(), 2, "both times: {msg}");
    // Esc does not decide: the question stays, the copy too.
    key(&mut app, KeyCode::Esc, KeyModifiers::NONE);
    assert!(confirm_message(&app).is_some());
    assert!(rec.exists());
    // y restores it (unsaved), and the copy stays until saved.
    press(&mut app, 'y');
    assert!(app.dirty);
    let sample = load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    assert_eq!(app.project.name, sample.name, "the edited session's copy");
    assert!(rec.exists());

    // n deletes it.
    let mut app = start(Launch::Open(f.clone()), dirs(tmp.path())).expect("start");
    press(&mut app, 'n');
    assert!(!rec.exists());
    assert_eq!(app.project.name, "Pulled");
}

#[test]
fn recovery_copy_follows_every_edit_and_is_flushed_before_file_work() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = hotel(tmp.path(), "a.cqlm.ron");
    let rec = recovery_copy(tmp.path(), &f);
    let mut app = start(Launch::Open(f.clone()), dirs(tmp.path())).expect("start");
    edit(&mut app);
    assert!(rec.exists(), "the first edit is written at once");
    // A second edit right after is due, not yet written...
    press(&mut app, 'j');
    press(&mut app, '*');
    let second = app.project.clone();
    assert_ne!(load::read(&rec).expect("copy"), second);
    // ...until the debounce passes (the loop ticks every 250 ms).
    std::thread::sleep(std::time::Duration::from_millis(300));
    tick(&mut app);
    assert_eq!(load::read(&rec).expect("copy"), second);

    // An edit followed at once by file work: flushed before it.
    press(&mut app, '*');
    let third = app.project.clone();
    command(
        &mut app,
        &format!("export cql {}", tmp.path().join("s.cql").display()),
    );
    assert_eq!(load::read(&rec).expect("copy"), third);
}

#[test]
fn stale_temporary_files_are_cleaned_up_on_start() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = hotel(tmp.path(), "a.cqlm.ron");
    // The id of a process that has ended.
    let mut child = std::process::Command::new("true").spawn().expect("true");
    let dead = child.id();
    child.wait().expect("wait");
    let stale = tmp.path().join(format!(".a.cqlm.ron.cqlmodel-{dead}.tmp"));
    let live = tmp
        .path()
        .join(format!(".a.cqlm.ron.cqlmodel-{}.tmp", std::process::id()));
    let foreign = tmp.path().join(".a.cqlm.ron.1234.tmp");
    for p in [&stale, &live, &foreign] {
        std::fs::write(p, "partial").expect("write");
    }
    let _app = start(Launch::Open(f), dirs(tmp.path())).expect("start");
    assert!(!stale.exists(), "a dead writer's file is removed");
    assert!(live.exists(), "a live writer's file stays");
    assert!(foreign.exists(), "files not named by cqlmodel stay");
}

#[test]
fn temporary_files_are_named_recognisably() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = tmp.path().join("x.cqlm.ron");
    // A directory where the temporary file would go makes the rename
    // fail; the error leaves nothing behind.
    let blocker = tmp
        .path()
        .join(format!(".x.cqlm.ron.cqlmodel-{}.tmp", std::process::id()));
    std::fs::create_dir(&blocker).expect("dir");
    assert!(save::write_atomic(&f, "x").is_err());
    std::fs::remove_dir(&blocker).expect("rmdir");
    save::write_atomic(&f, "x").expect("write");
    let names: Vec<String> = std::fs::read_dir(tmp.path())
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["x.cqlm.ron"]);
}

/// Two workbenches on one file: each keeps its own recovery copy. The
/// other's copy (a running process) is named, not offered; this one's
/// saves, edits and "no" answers never touch it; once the other process
/// has ended, its copy is offered like any left behind.
#[test]
fn two_workbenches_on_one_file_keep_their_own_recovery_copies() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let f = hotel(tmp.path(), "a.cqlm.ron");
    // The other workbench: a running process with unsaved edits.
    let mut other = std::process::Command::new("sleep")
        .arg("60")
        .spawn()
        .expect("sleep");
    let own = recovery_copy(tmp.path(), &f);
    let theirs = own.with_file_name(own.file_name().expect("name").to_string_lossy().replace(
        &format!(".{}.", std::process::id()),
        &format!(".{}.", other.id()),
    ));
    assert_ne!(own, theirs);
    std::fs::create_dir_all(theirs.parent().expect("dir")).expect("dir");
    let mut edited = load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    edited.name = "Their edits".into();
    std::fs::write(&theirs, load::to_string(&edited)).expect("their copy");

    let mut app = start(Launch::Open(f.clone()), dirs(tmp.path())).expect("start");
    assert!(
        confirm_message(&app).is_none(),
        "another live workbench's copy is not offered"
    );
    let status = app
        .status
        .as_ref()
        .map(|s| s.text.clone())
        .unwrap_or_default();
    assert!(status.contains("another workbench"), "{status}");
    edit(&mut app);
    cqlmodel::tui::write_recovery(&mut app);
    assert!(own.exists());
    command(&mut app, "w");
    assert!(!app.dirty);
    cqlmodel::tui::write_recovery(&mut app);
    assert!(!own.exists(), "a save removes this workbench's copy");
    assert!(theirs.exists(), "and never the other's");
    assert_eq!(load::read(&theirs).expect("theirs").name, "Their edits");
    drop(app);

    // The other workbench died without saving: its copy is offered.
    other.kill().expect("kill");
    other.wait().expect("wait");
    let mut app = start(Launch::Open(f.clone()), dirs(tmp.path())).expect("start");
    assert!(
        confirm_message(&app).is_some(),
        "a copy left behind is offered"
    );
    press(&mut app, 'y');
    assert_eq!(app.project.name, "Their edits");
    assert!(!theirs.exists(), "adopted into this workbench's own copy");
    assert!(own.exists());
}
