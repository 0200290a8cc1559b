//! End to end: the real binary in a real terminal. tmux runs `cqlmodel` on
//! a copy of the hotel sample; send-keys adds a query, picks its search
//! attribute and saves; capture-pane must show the new table and the saved
//! file must hold the query. Without tmux the test fails unless
//! `CQLMODEL_SKIP_TMUX=1` says to skip it (tests/support).

use crate::support;
use support::tmux_session::shell;

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

struct Session(String);

impl Drop for Session {
    /// The session dies with the test, even when it fails.
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.0])
            .output();
    }
}

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn capture(s: &Session) -> String {
    tmux(&["capture-pane", "-p", "-t", &s.0])
}

/// Polls the screen until `want` shows up (at most 20 s).
fn wait_for(s: &Session, want: &str) -> String {
    let start = Instant::now();
    loop {
        let screen = capture(s);
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

fn send(s: &Session, keys: &[&str]) {
    let mut args = vec!["send-keys", "-t", s.0.as_str()];
    args.extend_from_slice(keys);
    tmux(&args);
    std::thread::sleep(Duration::from_millis(150));
}

fn typed(s: &Session, text: &str) {
    tmux(&["send-keys", "-t", &s.0, "-l", text]);
    std::thread::sleep(Duration::from_millis(150));
}

#[test]
fn edit_and_save_in_a_real_terminal() {
    if support::tmux().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("hotel.cqlm.ron");
    std::fs::write(&file, cqlmodel::tui::SAMPLE).expect("copy the sample");
    let bin = env!("CARGO_BIN_EXE_cqlmodel");
    let name = format!("cqlmodel-e2e-{}", std::process::id());
    let cmd = format!(
        "env CQLMODEL_DATA_DIR={} CQLMODEL_CONFIG_DIR={} TERM=xterm-256color {} {}",
        shell(&tmp.path().join("data")),
        shell(&tmp.path().join("config")),
        shell(Path::new(bin)),
        shell(&file)
    );
    let status = Command::new("tmux")
        .args([
            "new-session",
            "-d",
            "-s",
            &name,
            "-x",
            "160",
            "-y",
            "50",
            &cmd,
        ])
        .status()
        .expect("tmux new-session");
    assert!(status.success());
    let s = Session(name);
    wait_for(&s, "Logical tables");

    // A new query in the Workflow pane (focused at start): rows of Room,
    // searched by rate, picked from the offered attributes.
    send(&s, &["a"]);
    wait_for(&s, "New query Q10");
    typed(&s, "Find rooms by rate");
    send(&s, &["Enter"]);
    wait_for(&s, "Its rows are instances of");
    typed(&s, "Room");
    send(&s, &["Enter"]);
    send(&s, &["="]);
    wait_for(&s, "Equality search");
    typed(&s, "rate");
    send(&s, &["Space"]);
    send(&s, &["Enter"]);
    let screen = wait_for(&s, "rooms_by_rate");
    assert!(screen.contains("[+]"), "unsaved marker missing:\n{screen}");

    send(&s, &["C-s"]);
    wait_for(&s, "saved ");
    let saved = std::fs::read_to_string(&file).expect("saved file");
    assert!(saved.contains("Find rooms by rate"), "{saved}");
    let project = cqlmodel::model::load::from_str(&saved).expect("the saved file loads");
    let a = cqlmodel::analysis::analyze(&project);
    assert!(a.model.table("rooms_by_rate").is_some());

    send(&s, &["q"]);
    let start = Instant::now();
    // The session ends when the program exits.
    while Command::new("tmux")
        .args(["has-session", "-t", &s.0])
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|st| st.success())
    {
        assert!(
            start.elapsed() <= Duration::from_secs(10),
            "cqlmodel did not quit:\n{}",
            capture(&s)
        );
        std::thread::sleep(Duration::from_millis(100));
    }
}
