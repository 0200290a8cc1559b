//! The layering ARCHITECTURE.md promises, checked on the source text:
//!
//! - no terminal code in the core: outside `src/tui/`, `src/cli.rs` and
//!   `src/main.rs` nothing names ratatui, crossterm, tui-textarea or syntect,
//!   and no core module reaches into `crate::tui` or `crate::cli`;
//! - the core does I/O only where it loads and saves project files
//!   (`model/load.rs`, `model/save.rs`);
//! - the workbench's updater, views and popups do no I/O: only the run loop
//!   (`tui/mod.rs`, which also lists directories for the command line's
//!   file-name completion), the terminal guard and the config files touch
//!   the file system;
//! - keys are matched only by the keymap (and by the popups, until they get
//!   scopes of their own in the binding table).
//!
//! Comments are skipped (they may name what they avoid) and so are the unit
//! tests at the end of a file (after `#[cfg(test)]`), which may use temporary
//! files.

use std::path::{Path, PathBuf};

/// Crates that draw on or read from a terminal.
const TERMINAL_CRATES: [&str; 4] = ["ratatui", "crossterm", "tui_textarea", "syntect"];

/// What counts as I/O in library code: files, processes, the environment,
/// the network and the standard streams.
const IO: [&str; 12] = [
    "std::fs",
    "fs::",
    "File::",
    "std::process",
    "std::env",
    "std::net",
    "stdout()",
    "stderr()",
    "stdin()",
    "print!",
    "println!",
    "eprintln!",
];

/// Project-file I/O of the core, called from a shell.
const FILE_CALLS: [&str; 4] = [
    "load::read",
    "load::write_atomic",
    "save::",
    "write_atomic(",
];

/// A source file relative to the crate root with `/` separators, and its
/// code: comments blanked, unit tests cut off.
struct Source {
    path: String,
    code: String,
}

fn sources() -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    collect(&root.join("src"), &mut files);
    files.sort();
    assert!(
        files.len() > 20,
        "src/ holds the crate: found only {} files",
        files.len()
    );
    files
        .into_iter()
        .map(|f| {
            let text = std::fs::read_to_string(&f).expect("read a source file");
            let path = f
                .strip_prefix(root)
                .expect("under the crate root")
                .to_string_lossy()
                .replace('\\', "/");
            Source {
                path,
                code: code_of(&text),
            }
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("read src/") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            collect(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The code of a file without line comments and without its unit tests.
fn code_of(text: &str) -> String {
    let mut code = String::new();
    for line in text.lines() {
        if line.trim_start().starts_with("#[cfg(test)]") {
            break;
        }
        let line = match line.find("//") {
            // A `//` inside a string literal (a URL) ends the scan of the
            // line early, which can only hide text, never invent a use.
            Some(i) => &line[..i],
            None => line,
        };
        code.push_str(line);
        code.push('\n');
    }
    code
}

/// Whether `code` uses `name` as a path segment (`ratatui::`, `use ratatui`),
/// not as part of a longer identifier.
fn names_crate(code: &str, name: &str) -> bool {
    code.match_indices(name).any(|(i, _)| {
        let before = code[..i].chars().next_back();
        let after = code[i + name.len()..].chars().next();
        let starts = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        starts && (after == Some(':') || after == Some(';') || after == Some(' '))
    })
}

fn is_shell(path: &str) -> bool {
    path.starts_with("src/tui/") || path == "src/cli.rs" || path == "src/main.rs"
}

/// Lines of `code` holding any of `needles`, for a readable failure.
fn offending(code: &str, needles: &[&str]) -> Vec<String> {
    code.lines()
        .filter(|l| needles.iter().any(|n| l.contains(n)))
        .map(|l| l.trim().to_string())
        .collect()
}

#[test]
fn the_core_has_no_terminal_code() {
    let mut bad = Vec::new();
    for s in sources().iter().filter(|s| !is_shell(&s.path)) {
        for name in TERMINAL_CRATES {
            if names_crate(&s.code, name) {
                bad.push(format!("{} uses {name}", s.path));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "terminal code outside the shells:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_core_does_not_reach_into_the_shells() {
    let mut bad = Vec::new();
    // lib.rs declares the modules and may re-export from them.
    for s in sources()
        .iter()
        .filter(|s| !is_shell(&s.path) && s.path != "src/lib.rs")
    {
        let lines = offending(
            &s.code,
            &["crate::tui", "crate::cli", "super::tui", "super::cli"],
        );
        bad.extend(lines.into_iter().map(|l| format!("{}: {l}", s.path)));
    }
    assert!(
        bad.is_empty(),
        "core modules importing a shell:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_core_does_io_only_to_load_and_save() {
    const ALLOWED: [&str; 2] = ["src/model/load.rs", "src/model/save.rs"];
    let mut bad = Vec::new();
    for s in &sources() {
        if is_shell(&s.path) || ALLOWED.contains(&s.path.as_str()) {
            continue;
        }
        let lines = offending(&s.code, &IO);
        bad.extend(lines.into_iter().map(|l| format!("{}: {l}", s.path)));
    }
    assert!(
        bad.is_empty(),
        "I/O in the core outside loading and saving:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_workbench_updater_views_and_popups_do_no_io() {
    // The run loop performs effects (listing a directory for the command
    // line's completion among them), the terminal guard owns the terminal,
    // and the config module reads config.ron and the recent-files list.
    // `testing` is for tests only (it writes a sample to a temporary
    // directory); nothing in the workbench calls it.
    const ALLOWED: [&str; 4] = [
        "src/tui/mod.rs",
        "src/tui/terminal.rs",
        "src/tui/config.rs",
        "src/tui/testing.rs",
    ];
    let mut checked = 0;
    let mut bad = Vec::new();
    for s in &sources() {
        if !s.path.starts_with("src/tui/") || ALLOWED.contains(&s.path.as_str()) {
            continue;
        }
        checked += 1;
        let needles: Vec<&str> = IO.iter().chain(FILE_CALLS.iter()).copied().collect();
        let lines = offending(&s.code, &needles);
        bad.extend(lines.into_iter().map(|l| format!("{}: {l}", s.path)));
    }
    assert!(
        checked >= 5,
        "the workbench's modules were not found ({checked})"
    );
    assert!(
        bad.is_empty(),
        "I/O in the workbench outside the run loop:\n{}",
        bad.join("\n")
    );
}

#[test]
fn only_the_keymap_and_the_popups_match_keys() {
    let mut bad = Vec::new();
    for s in &sources() {
        let keymap = s.path == "src/tui/keymap.rs" || s.path.starts_with("src/tui/popup/");
        // The test helpers send keys; they match none.
        let sends = s.path == "src/tui/testing.rs";
        if !keymap && !sends && s.code.contains("KeyCode::") {
            bad.push(s.path.clone());
        }
    }
    assert!(
        bad.is_empty(),
        "keys matched outside the binding table:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_test_helpers_stay_out_of_the_workbench() {
    let bad: Vec<String> = sources()
        .iter()
        .filter(|s| s.path != "src/tui/testing.rs" && s.code.contains("testing::"))
        .map(|s| s.path.clone())
        .collect();
    assert!(
        bad.is_empty(),
        "tui::testing is for tests only:\n{}",
        bad.join("\n")
    );
}

#[test]
fn the_scanner_sees_what_it_looks_for() {
    // The checks above pass trivially if the scanner is blind: it must find
    // a terminal crate in the workbench and file I/O in the loader.
    let all = sources();
    let find = |p: &str| all.iter().find(|s| s.path == p).expect("file present");
    assert!(names_crate(&find("src/tui/terminal.rs").code, "crossterm"));
    assert!(!offending(&find("src/model/save.rs").code, &IO).is_empty());
    assert!(find("src/tui/keymap.rs").code.contains("KeyCode::"));
    assert!(names_crate("use ratatui::text::Line;", "ratatui"));
    assert!(!names_crate("fn not_ratatui_here() {}", "ratatui"));
    assert!(code_of("let x = 1; // ratatui::Frame\n").trim() == "let x = 1;");
    assert!(!code_of("#[cfg(test)]\nmod tests { use std::fs; }\n").contains("std::fs"));
}
