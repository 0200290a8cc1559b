//! The real binary in a real terminal: a tmux session that runs
//! `cqlmodel`, takes keys (counting them, for the usability budget) and
//! shows its screen. The session dies with the value, even when a test
//! fails.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

pub struct Session {
    name: String,
    /// Keys sent so far: one per named key, one per typed character.
    pub keystrokes: usize,
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["kill-session", "-t", &self.name])
            .output();
    }
}

fn tmux(args: &[&str]) -> String {
    let out = Command::new("tmux").args(args).output().expect("tmux runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Single-quotes a path for the shell tmux starts.
pub fn shell(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

impl Session {
    /// Runs `cqlmodel ARGS` in a `w`×`h` terminal, with its config and
    /// data folders under `home` so nothing of the user's is read.
    pub fn start(tag: &str, home: &Path, args: &[&Path], w: u16, h: u16) -> Session {
        let bin = env!("CARGO_BIN_EXE_cqlmodel");
        let name = format!("cqlmodel-{tag}-{}", std::process::id());
        let args: Vec<String> = args.iter().map(|a| shell(a)).collect();
        let cmd = format!(
            "env CQLMODEL_DATA_DIR={} CQLMODEL_CONFIG_DIR={} TERM=xterm-256color {} {}",
            shell(&home.join("data")),
            shell(&home.join("config")),
            shell(Path::new(bin)),
            args.join(" ")
        );
        let (w, h) = (w.to_string(), h.to_string());
        let status = Command::new("tmux")
            .args(["new-session", "-d", "-s", &name, "-x", &w, "-y", &h, &cmd])
            .status()
            .expect("tmux new-session");
        assert!(status.success(), "tmux new-session failed");
        Session {
            name,
            keystrokes: 0,
        }
    }

    pub fn capture(&self) -> String {
        tmux(&["capture-pane", "-p", "-t", &self.name])
    }

    /// Polls the screen until `want` shows up (at most 20 s).
    pub fn wait_for(&self, want: &str) -> String {
        let start = Instant::now();
        loop {
            let screen = self.capture();
            if screen.contains(want) {
                return screen;
            }
            assert!(
                start.elapsed() <= Duration::from_secs(20),
                "\"{want}\" never appeared; the screen:\n{screen}"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Named keys (`Enter`, `Tab`, `BTab`, `C-s`, `#`, `Space`).
    pub fn keys(&mut self, keys: &[&str]) {
        for k in keys {
            tmux(&["send-keys", "-t", &self.name, k]);
            self.keystrokes += 1;
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Text typed as is, one keystroke a character.
    pub fn typed(&mut self, text: &str) {
        tmux(&["send-keys", "-t", &self.name, "-l", text]);
        self.keystrokes += text.chars().count();
        std::thread::sleep(Duration::from_millis(60));
    }

    /// Text then Enter: a one-line dialog answered.
    pub fn answer(&mut self, text: &str) {
        self.typed(text);
        self.keys(&["Enter"]);
    }

    /// Waits until the program has exited (the session ends with it).
    pub fn wait_exit(&self) {
        let start = Instant::now();
        while Command::new("tmux")
            .args(["has-session", "-t", &self.name])
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|st| st.success())
        {
            assert!(
                start.elapsed() <= Duration::from_secs(10),
                "cqlmodel did not quit:\n{}",
                self.capture()
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}
