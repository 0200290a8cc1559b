//! Where the workbench keeps its files: an optional RON config (keys and
//! colours) in the config folder, the recent-files list and recovery copies
//! in the data folder. `CQLMODEL_CONFIG_DIR` / `CQLMODEL_DATA_DIR` override
//! the platform folders so tests never touch the real home.

use ratatui::style::Color;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// At most this many recent files are remembered.
const RECENT_MAX: usize = 12;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Command name (as in the `?` overlay's config names) → keys.
    pub keys: BTreeMap<String, Vec<String>>,
    /// Colour role → colour name (`red`, `lightblue`, `#aabbcc`, `214`).
    pub colors: BTreeMap<String, String>,
    /// Mouse capture disables the terminal's own text selection; off frees it.
    pub mouse: Option<bool>,
}

/// The folders in use. `None` when no home can be found: the workbench
/// then runs without config, recents or recovery rather than failing.
#[derive(Clone, Debug, Default)]
pub struct Dirs {
    pub config: Option<PathBuf>,
    pub data: Option<PathBuf>,
}

/// The part of a recovery copy's name that says which file it is for.
fn recovery_key(project: Option<&Path>) -> String {
    match project {
        Some(p) => {
            let abs = std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
            format!("{:016x}", fnv(abs.to_string_lossy().as_bytes()))
        }
        None => "unsaved".to_string(),
    }
}

impl Dirs {
    pub(crate) fn from_env() -> Dirs {
        let proj = directories::ProjectDirs::from("org", "cqlmodel", "cqlmodel");
        let env = |name: &str| {
            std::env::var_os(name)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Dirs {
            config: env("CQLMODEL_CONFIG_DIR")
                .or_else(|| proj.as_ref().map(|p| p.config_dir().to_path_buf())),
            data: env("CQLMODEL_DATA_DIR")
                .or_else(|| proj.as_ref().map(|p| p.data_dir().to_path_buf())),
        }
    }

    pub(crate) fn config_file(&self) -> Option<PathBuf> {
        self.config.as_ref().map(|d| d.join("config.ron"))
    }

    fn recent_file(&self) -> Option<PathBuf> {
        self.data.as_ref().map(|d| d.join("recent.ron"))
    }

    /// This workbench's recovery copy of a project: one per file path (a
    /// hash of it; one shared key for unsaved samples and new projects)
    /// and per process, so two workbenches on one file never write or
    /// delete each other's copy.
    pub fn recovery_file(&self, project: Option<&Path>) -> Option<PathBuf> {
        let key = recovery_key(project);
        Some(
            self.recovery_dir()?
                .join(format!("{key}.{}.cqlm.ron", std::process::id())),
        )
    }

    /// Every recovery copy of a project, with the process that wrote it
    /// (`None` for a copy from before copies were kept per process).
    pub fn recovery_copies(&self, project: Option<&Path>) -> Vec<(PathBuf, Option<u32>)> {
        let key = recovery_key(project);
        let Some(dir) = self.recovery_dir() else {
            return vec![];
        };
        let Ok(entries) = std::fs::read_dir(&dir) else {
            return vec![];
        };
        let mut out: Vec<(PathBuf, Option<u32>)> = entries
            .filter_map(Result::ok)
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                let rest = name.strip_prefix(&key)?.strip_suffix(".cqlm.ron")?;
                if rest.is_empty() {
                    Some((e.path(), None))
                } else {
                    let pid = rest.strip_prefix('.')?.parse().ok()?;
                    Some((e.path(), Some(pid)))
                }
            })
            .collect();
        out.sort();
        out
    }

    fn recovery_dir(&self) -> Option<PathBuf> {
        Some(self.data.as_ref()?.join("recovery"))
    }

    /// Reads the config; a missing file is the default, a broken one is the
    /// default plus a message to show.
    pub(crate) fn load_config(&self) -> (Config, Option<String>) {
        let Some(path) = self.config_file() else {
            return (Config::default(), None);
        };
        match std::fs::read_to_string(&path) {
            Err(_) => (Config::default(), None),
            Ok(text) => match ron::from_str::<Config>(&text) {
                Ok(c) => (c, None),
                Err(e) => (
                    Config::default(),
                    Some(format!("{}: {e}; using defaults", path.display())),
                ),
            },
        }
    }

    pub fn recent(&self) -> Vec<PathBuf> {
        self.recent_file()
            .and_then(|p| std::fs::read_to_string(p).ok())
            .and_then(|t| ron::from_str::<Vec<PathBuf>>(&t).ok())
            .unwrap_or_default()
    }

    /// Puts `path` first in the recent list. Failures are ignored: a recent
    /// list is a convenience, never worth interrupting the designer.
    pub fn remember(&self, path: &Path) {
        let Some(file) = self.recent_file() else {
            return;
        };
        let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
        let mut list = self.recent();
        list.retain(|p| p != &abs);
        list.insert(0, abs);
        list.truncate(RECENT_MAX);
        if let Some(dir) = file.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        if let Ok(text) = ron::to_string(&list) {
            let _ = crate::model::load::write_atomic(&file, &text);
        }
    }
}

/// A complete, commented `config.ron` holding the defaults: every command a
/// key can be bound to (with where it applies and what it does) and every
/// colour role. Written from the binding table and the theme's role list,
/// so it cannot fall behind them; loading it changes nothing.
pub(crate) fn default_config_text() -> String {
    use std::fmt::Write;
    let keymap = super::keymap::Keymap::default();
    let theme = super::theme::Theme::default();
    let mut s = String::new();
    s.push_str(
        "// cqlmodel workbench configuration (RON). Every field is optional:
// delete what you do not change. Save as config.ron in the config folder
// (`cqlmodel config` prints where it is read from).
Config(
    // Command name: [keys]. A command's keys are replaced in every pane and
    // popup it applies to; `scope.command` (`picker.up`) replaces them in
    // that one only. Keys: a character (`a`, `K`, `?`), `enter`, `esc`, `tab`,
    // `shift-tab`, `up`, `down`, `left`, `right`, `pageup`, `pagedown`,
    // `home`, `end`, `space`, `backspace`, `delete`, `f1`..`f12`, each
    // optionally prefixed with `ctrl-` and/or `alt-`.
    keys: {
",
    );
    for entry in keymap.commands() {
        let scopes: Vec<&str> = entry.scopes.iter().map(|sc| sc.title()).collect();
        let keys: Vec<String> = entry
            .keys
            .iter()
            .map(|k| format!("{:?}", k.config_name()))
            .collect();
        let _ = writeln!(s, "        // {} ({})", entry.help, scopes.join(", "));
        let _ = writeln!(s, "        {:?}: [{}],", entry.name, keys.join(", "));
    }
    s.push_str(
        "    },
    // Colour role: colour. Colours: a name (`black`, `red`, `green`,
    // `yellow`, `blue`, `magenta`, `cyan`, `gray`, `darkgray`, `lightred`,
    // `lightgreen`, `lightyellow`, `lightblue`, `lightmagenta`, `lightcyan`,
    // `white`, `reset`), a 256-colour palette index (`214`) or `#rrggbb`.
    colors: {
",
    );
    for (role, what) in super::theme::ROLES {
        let colour = theme
            .color(role)
            .map(super::theme::color_name)
            .unwrap_or_default();
        let _ = writeln!(s, "        // {what}");
        let _ = writeln!(s, "        {role:?}: {colour:?},");
    }
    s.push_str(
        "    },
    // Mouse capture (click, scroll); `Some(false)` leaves the mouse to the
    // terminal so its own text selection works.
    mouse: Some(true),
)
",
    );
    s
}

/// FNV-1a: a stable file-name hash with no dependency.
pub(crate) fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// Parses a colour name from the config.
pub(crate) fn parse_color(s: &str) -> Option<Color> {
    s.trim().parse::<Color>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_config_loads_and_changes_nothing() {
        let text = default_config_text();
        let config: Config = match ron::from_str(&text) {
            Ok(c) => c,
            Err(e) => panic!("default config does not parse: {e}\n{text}"),
        };
        let (keymap, errors) = super::super::keymap::Keymap::with_overrides(&config.keys);
        assert!(errors.is_empty(), "{errors:?}");
        let default = super::super::keymap::Keymap::default();
        assert_eq!(keymap.bindings.len(), default.bindings.len());
        for (got, want) in keymap.bindings.iter().zip(&default.bindings) {
            assert_eq!(
                (got.scope, got.command, &got.keys),
                (want.scope, want.command, &want.keys),
                "loading the default config changed a binding"
            );
        }
        let (theme, errors) = super::super::theme::Theme::with_overrides(&config.colors);
        assert!(errors.is_empty(), "{errors:?}");
        assert_eq!(theme, super::super::theme::Theme::default());
        assert_eq!(config.mouse, Some(true));
    }

    #[test]
    fn the_default_config_names_every_command_and_role() {
        let text = default_config_text();
        for b in &super::super::keymap::Keymap::default().bindings {
            let plain = format!("{:?}:", b.command.name());
            let scoped = format!("\"{}.{}\":", b.scope.name(), b.command.name());
            assert!(
                text.contains(&plain) || text.contains(&scoped),
                "{} missing",
                b.command.name()
            );
        }
        for (role, _) in super::super::theme::ROLES {
            assert!(text.contains(&format!("{role:?}:")), "{role} missing");
        }
    }

    #[test]
    fn recent_files_are_remembered_first_and_unique() {
        let dir = tempfile::tempdir().expect("tempdir");
        let dirs = Dirs {
            config: Some(dir.path().join("c")),
            data: Some(dir.path().join("d")),
        };
        let a = dir.path().join("a.cqlm.ron");
        let b = dir.path().join("b.cqlm.ron");
        std::fs::write(&a, "x").expect("write");
        std::fs::write(&b, "x").expect("write");
        dirs.remember(&a);
        dirs.remember(&b);
        dirs.remember(&a);
        let list = dirs.recent();
        assert_eq!(list.len(), 2);
        assert!(list[0].ends_with("a.cqlm.ron"));
    }

    #[test]
    fn broken_config_falls_back_with_a_message() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("config.ron"), "(keys: 3)").expect("write");
        let dirs = Dirs {
            config: Some(dir.path().to_path_buf()),
            data: None,
        };
        let (c, msg) = dirs.load_config();
        assert_eq!(c, Config::default());
        assert!(msg.is_some());
        std::fs::write(
            dir.path().join("config.ron"),
            "(keys: {\"undo\": [\"ctrl-u\"]}, colors: {\"accent\": \"red\"})",
        )
        .expect("write");
        let (c, msg) = dirs.load_config();
        assert_eq!(msg, None);
        assert_eq!(c.keys["undo"], vec!["ctrl-u".to_string()]);
        assert_eq!(parse_color(&c.colors["accent"]), Some(Color::Red));
    }
}
