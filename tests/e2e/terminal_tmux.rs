//! The real binary in a real terminal (tmux, on a private server socket so
//! the user's tmux is untouched): termination signals leave the terminal
//! as it was (no alternate screen, no mouse reporting, cursor shown) and
//! keep unsaved edits in the recovery copy; Ctrl-C asks to quit; `kill -9`
//! loses at most the last moments of editing; a hostile file cannot write
//! the terminal's clipboard (OSC 52). Set `CQLMODEL_SKIP_TMUX=1` to skip
//! where tmux is missing.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// A tmux server of its own and one session on it, killed with the test.
struct Tmux {
    socket: String,
    dir: tempfile::TempDir,
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

fn tmux_available() -> bool {
    let ok = Command::new("tmux")
        .arg("-V")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok || std::env::var_os("CQLMODEL_SKIP_TMUX").is_some(),
        "tmux is required (set CQLMODEL_SKIP_TMUX=1 to skip)"
    );
    ok
}

impl Tmux {
    /// Starts cqlmodel on `file` (a copy of the hotel sample unless the
    /// text is given) in a shell that reports its exit code.
    fn start(tag: &str, text: Option<&str>, setup: &[&[&str]]) -> Tmux {
        let dir = tempfile::tempdir().expect("tempdir");
        let socket = format!("cqlmodel-{tag}-{}", std::process::id());
        let file = dir.path().join("project.cqlm.ron");
        std::fs::write(&file, text.unwrap_or(cqlmodel::tui::SAMPLE)).expect("project");
        let script = dir.path().join("run.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\n\
             sh -c 'echo $$ > \"$1/pid\"; exec env CQLMODEL_DATA_DIR=\"$1/data\" CQLMODEL_CONFIG_DIR=\"$1/config\" TERM=xterm-256color \"$2\" \"$3\"' _ \"$1\" \"$2\" \"$3\"\n\
             echo \"exited-$?\"\n\
             exec sleep 600\n",
        )
        .expect("script");
        let t = Tmux { socket, dir };
        // The server starts with a placeholder session so that options can
        // be set before cqlmodel draws anything.
        t.run(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "idle",
            "sleep 600",
        ]);
        for args in setup {
            t.run(args);
        }
        let bin = env!("CARGO_BIN_EXE_cqlmodel");
        let cmd = format!(
            "sh {} {} {} {}",
            quote(&script),
            quote(t.dir.path()),
            quote(Path::new(bin)),
            quote(&file)
        );
        t.run(&[
            "new-session",
            "-d",
            "-s",
            "app",
            "-x",
            "120",
            "-y",
            "40",
            &cmd,
        ]);
        t.wait_for("Logical tables");
        t
    }

    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .args(["-L", &self.socket])
            .args(args)
            .output()
            .expect("tmux runs");
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "app"])
    }

    fn wait_for(&self, want: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if screen.contains(want) {
                return screen;
            }
            assert!(
                start.elapsed() <= Duration::from_secs(20),
                "\"{want}\" never appeared; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "app"];
        args.extend_from_slice(keys);
        self.run(&args);
        std::thread::sleep(Duration::from_millis(150));
    }

    /// `alternate_on mouse_any_flag cursor_flag` of the pane.
    fn flags(&self) -> String {
        self.run(&[
            "display",
            "-p",
            "-t",
            "app",
            "#{alternate_on} #{mouse_any_flag} #{cursor_flag}",
        ])
        .trim()
        .to_string()
    }

    fn pid(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("pid"))
            .expect("pid file")
            .trim()
            .to_string()
    }

    fn kill(&self, signal: &str) {
        let st = Command::new("kill")
            .args([&format!("-{signal}"), &self.pid()])
            .status()
            .expect("kill");
        assert!(st.success());
    }

    fn recovery_copies(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.dir.path().join("data").join("recovery"))
            .map(|d| {
                d.filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.to_string_lossy().ends_with(".cqlm.ron"))
                    .collect()
            })
            .unwrap_or_default()
    }
}

fn quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// An edit: Q1 stops being an entry point of the workflow (`*` on the
/// first query, the Workflow pane has the focus at start).
fn edit(t: &Tmux) {
    t.keys(&["*"]);
    t.wait_for("[+]");
}

fn signal_case(name: &str, number: i32) {
    if !tmux_available() {
        return;
    }
    let t = Tmux::start(&name.to_lowercase(), None, &[]);
    assert_eq!(t.flags(), "1 1 0", "interactive mode before the signal");
    edit(&t);
    t.kill(name);
    let screen = t.wait_for("exited-");
    assert!(
        screen.contains(&format!("exited-{}", 128 + number)),
        "{screen}"
    );
    assert!(screen.contains(&format!("ended by SIG{name}")), "{screen}");
    assert_eq!(t.flags(), "0 0 1", "terminal restored after SIG{name}");
    let copies = t.recovery_copies();
    assert_eq!(copies.len(), 1, "{copies:?}");
    let rec = std::fs::read_to_string(&copies[0]).expect("recovery copy");
    let saved = std::fs::read_to_string(t.dir.path().join("project.cqlm.ron")).expect("file");
    assert_ne!(rec, saved, "the recovery copy holds the edit");
}

#[test]
fn sigterm_restores_the_terminal_and_keeps_the_edits() {
    signal_case("TERM", 15);
}

#[test]
fn sighup_restores_the_terminal_and_keeps_the_edits() {
    signal_case("HUP", 1);
}

#[test]
fn sigint_restores_the_terminal_and_keeps_the_edits() {
    signal_case("INT", 2);
}

#[test]
fn sigquit_restores_the_terminal_and_keeps_the_edits() {
    signal_case("QUIT", 3);
}

#[test]
fn ctrl_c_asks_before_quitting_with_unsaved_changes() {
    if !tmux_available() {
        return;
    }
    let t = Tmux::start("ctrlc", None, &[]);
    edit(&t);
    t.keys(&["C-c"]);
    t.wait_for("Quit and lose the unsaved changes?");
    t.keys(&["y"]);
    let screen = t.wait_for("exited-");
    assert!(screen.contains("exited-0"), "{screen}");
    assert_eq!(t.flags(), "0 0 1");
}

/// `kill -9` cannot be handled: what it loses is what the recovery copy
/// did not have yet. Edits half a second old are in it.
#[test]
fn kill_9_loses_at_most_the_last_half_second() {
    if !tmux_available() {
        return;
    }
    let t = Tmux::start("kill9", None, &[]);
    edit(&t);
    let edited = Instant::now();
    std::thread::sleep(Duration::from_millis(600));
    t.kill("KILL");
    t.wait_for("exited-137");
    let copies = t.recovery_copies();
    assert_eq!(
        copies.len(),
        1,
        "no recovery copy {:?} after the edit",
        edited.elapsed()
    );
    let rec = std::fs::read_to_string(&copies[0]).expect("recovery copy");
    let project = cqlmodel::model::load::from_str(&rec).expect("the copy loads");
    assert!(
        !project.workflow.entry.iter().any(|q| q == "Q1"),
        "the edit is in the recovery copy"
    );
    // Leftover temporary files from a kill are not left in the data dir.
    let dir = t.dir.path().join("data").join("recovery");
    let leftovers: Vec<_> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(std::result::Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
}

/// A file whose texts hold OSC 52 (clipboard write) sequences, shown in
/// every bottom view: tmux's paste buffers, which OSC 52 fills when
/// `set-clipboard` is on, stay empty. A direct OSC 52 in another pane does
/// fill them, so the probe works.
#[test]
fn a_hostile_file_cannot_write_the_clipboard() {
    if !tmux_available() {
        return;
    }
    let osc = "\u{1b}]52;c;aGFja2Vk\u{7}";
    let mut p = cqlmodel::model::load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    p.name = format!("Hotel {osc}");
    for q in &mut p.queries {
        q.text = format!("{}{osc}", q.text);
    }
    p.notes.push(cqlmodel::model::Note {
        target: cqlmodel::model::Target::Query("Q1".into()),
        text: format!("note {osc}"),
    });
    let text = cqlmodel::model::load::to_string(&p);
    let t = Tmux::start(
        "clip",
        Some(&text),
        &[&["set", "-s", "set-clipboard", "on"]],
    );
    for k in ["1", "2", "3", "4", "j", "2", "3", "4", "Tab", "2", "c", "?"] {
        t.keys(&[k]);
    }
    t.wait_for("Logical tables");
    let buffers = t.run(&["list-buffers"]);
    assert!(buffers.trim().is_empty(), "clipboard written: {buffers}");

    // The probe: the same sequence printed raw does reach tmux's buffers.
    t.run(&[
        "new-window",
        "-d",
        "-t",
        "idle",
        "printf '\\033]52;c;aGFja2Vk\\007'; sleep 5",
    ]);
    let start = Instant::now();
    while t.run(&["list-buffers"]).trim().is_empty() {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the probe never filled a buffer"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}

/// The terminal emulator dies (the tmux server is killed): the pty hangs
/// up and reads return end-of-file. The workbench must end within moments
/// with its edits in the recovery copy, not spin on the dead terminal.
#[test]
fn a_terminal_that_goes_away_ends_the_workbench() {
    if !tmux_available() {
        return;
    }
    let t = Tmux::start("hangup", None, &[]);
    edit(&t);
    let pid = t.pid();
    t.run(&["kill-server"]);
    let alive = || Path::new("/proc").join(&pid).exists() && !is_zombie(&pid);
    let start = Instant::now();
    while alive() && start.elapsed() < Duration::from_secs(10) {
        std::thread::sleep(Duration::from_millis(100));
    }
    if alive() {
        let _ = Command::new("kill").args(["-9", &pid]).status();
        panic!("cqlmodel still runs 10 s after its terminal went away");
    }
    let copies = t.recovery_copies();
    assert_eq!(copies.len(), 1, "{copies:?}");
    let rec = std::fs::read_to_string(&copies[0]).expect("recovery copy");
    let saved = std::fs::read_to_string(t.dir.path().join("project.cqlm.ron")).expect("file");
    assert_ne!(rec, saved, "the recovery copy holds the edit");
}

fn is_zombie(pid: &str) -> bool {
    std::fs::read_to_string(Path::new("/proc").join(pid).join("stat")).is_ok_and(|s| {
        s.rsplit(')')
            .next()
            .is_some_and(|r| r.trim_start().starts_with('Z'))
    })
}

/// SIGTSTP (a job-control stop from the shell) gives the terminal back
/// and stops; SIGCONT (`fg`) takes it again, draws the whole screen and
/// reads keys.
#[test]
fn sigtstp_suspends_and_sigcont_resumes() {
    if !tmux_available() {
        return;
    }
    let t = Tmux::start("tstp", None, &[]);
    edit(&t);
    t.kill("TSTP");
    let start = Instant::now();
    while t.flags() != "0 0 1" {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "the terminal was not given back: {}",
            t.flags()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    t.kill("CONT");
    let start = Instant::now();
    while t.flags() != "1 1 0" {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "interactive mode did not come back: {}",
            t.flags()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    let screen = t.wait_for("Logical tables");
    assert!(screen.contains("[+]"), "the edit is still there:\n{screen}");
    // Keys work again: undo takes the edit back.
    t.keys(&["u"]);
    let start = Instant::now();
    while t.screen().contains("[+]") {
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "keys are not read after resuming:\n{}",
            t.screen()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
