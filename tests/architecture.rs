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
//!   scopes of their own in the binding table);
//! - the core's layers (model → derive → review → analysis → edit → output
//!   → lifecycle) read only the layers before them, no two core modules
//!   import each other in a loop, and only the workbench's analysis worker
//!   and `analysis` (builds, plans, estimates and table rules on every core)
//!   start threads.
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

/// The core's layers, each reading only those before it (ARCHITECTURE.md).
const LAYERS: [&str; 7] = [
    "model",
    "derive",
    "review",
    "analysis",
    "edit",
    "output",
    "lifecycle",
];

/// A source file's module path (`src/derive/types.rs` → `derive::types`,
/// `src/derive/mod.rs` → `derive`).
fn module_of(path: &str) -> String {
    let p = path.trim_start_matches("src/").trim_end_matches(".rs");
    let p = p.strip_suffix("/mod").unwrap_or(p);
    p.replace('/', "::")
}

/// Whether a file holds only a parent's unit tests (`derive/tests.rs`).
fn is_unit_test_file(path: &str) -> bool {
    path.ends_with("/tests.rs") || path.ends_with("_tests.rs")
}

/// The modules of the crate a file's code names by absolute (`crate::`),
/// parent (`super::`) or child path, as module paths of existing files.
fn referenced_modules(s: &Source, modules: &[String]) -> Vec<String> {
    let me = module_of(&s.path);
    let is_mod_rs = s.path.ends_with("/mod.rs") || s.path == "src/lib.rs";
    // `super::` from a file is its parent's module; from a mod.rs, the
    // parent of the folder's module.
    let mut parent: Vec<&str> = me.split("::").collect();
    if !is_mod_rs || !me.is_empty() {
        parent.pop();
    }
    let longest = |path: &str| -> Option<String> {
        let parts: Vec<&str> = path.split("::").collect();
        (1..=parts.len())
            .rev()
            .map(|n| parts[..n].join("::"))
            .find(|m| modules.contains(m))
    };
    let mut found = Vec::new();
    let mut scan = |prefix: &str, base: &str| {
        for (i, _) in s.code.match_indices(prefix) {
            let before = s.code[..i].chars().next_back();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let rest: String = s.code[i + prefix.len()..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let full = if base.is_empty() {
                rest
            } else {
                format!("{base}::{rest}")
            };
            if let Some(m) = longest(full.trim_end_matches(':')) {
                if m != me {
                    found.push(m);
                }
            }
        }
    };
    scan("crate::", "");
    scan("super::", &parent.join("::"));
    found.sort();
    found.dedup();
    found
}

fn layer_of(module: &str) -> Option<usize> {
    let top = module.split("::").next()?;
    LAYERS.iter().position(|l| *l == top)
}

#[test]
fn each_core_layer_reads_only_the_layers_before_it() {
    let sources = sources();
    let modules: Vec<String> = sources.iter().map(|s| module_of(&s.path)).collect();
    let mut wrong = Vec::new();
    for s in sources.iter().filter(|s| !is_unit_test_file(&s.path)) {
        let Some(mine) = layer_of(&module_of(&s.path)) else {
            continue;
        };
        for m in referenced_modules(s, &modules) {
            match layer_of(&m) {
                Some(theirs) if theirs > mine => wrong.push(format!("{} reads {m}", s.path)),
                None if m != "lib" && !m.is_empty() => {
                    wrong.push(format!("{} reads {m}, outside the core", s.path));
                }
                _ => {}
            }
        }
    }
    assert!(wrong.is_empty(), "{wrong:#?}");
}

#[test]
fn no_two_core_modules_import_each_other_in_a_loop() {
    let sources = sources();
    let modules: Vec<String> = sources.iter().map(|s| module_of(&s.path)).collect();
    // Edges between modules two levels deep (`derive::select`,
    // `review::diagnose`): a folder's files are one module of its layer.
    let key = |m: &str| m.split("::").take(2).collect::<Vec<_>>().join("::");
    let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> =
        std::collections::BTreeMap::new();
    for s in sources.iter().filter(|s| !is_unit_test_file(&s.path)) {
        let me = module_of(&s.path);
        if layer_of(&me).is_none() {
            continue;
        }
        for m in referenced_modules(s, &modules) {
            if layer_of(&m).is_some() && key(&m) != key(&me) {
                edges.entry(key(&me)).or_default().insert(key(&m));
            }
        }
    }
    // A loop is a module that reaches itself.
    let mut loops = Vec::new();
    for start in edges.keys() {
        let mut seen = std::collections::BTreeSet::new();
        let mut todo: Vec<&String> = edges[start].iter().collect();
        while let Some(m) = todo.pop() {
            if m == start {
                loops.push(start.clone());
                break;
            }
            if seen.insert(m.clone()) {
                todo.extend(edges.get(m).into_iter().flatten());
            }
        }
    }
    assert!(loops.is_empty(), "modules in a loop: {loops:?}\n{edges:#?}");
}

#[test]
fn only_the_workbench_worker_starts_threads() {
    let threads = ["thread::spawn", "std::thread", "rayon", "thread::scope"];
    let sources = sources();
    let offending: Vec<&str> = sources
        .iter()
        .filter(|s| s.path != "src/tui/analysis_worker.rs" && !s.path.starts_with("src/analysis"))
        .filter(|s| threads.iter().any(|t| s.code.contains(t)))
        .map(|s| s.path.as_str())
        .collect();
    assert!(offending.is_empty(), "{offending:?}");
}

/// The checks above see what they look for: a planted upward reference and
/// a planted loop are found.
#[test]
fn the_layer_scanner_sees_upward_references() {
    let modules: Vec<String> = ["model", "model::locate", "derive", "review::diagnose"]
        .iter()
        .map(ToString::to_string)
        .collect();
    let s = Source {
        path: "src/model/locate.rs".into(),
        code: "use crate::review::diagnose::Subject;\nuse super::Project;\n".into(),
    };
    assert_eq!(
        referenced_modules(&s, &modules),
        vec!["model".to_string(), "review::diagnose".to_string()]
    );
    assert!(layer_of("review::diagnose") > layer_of("model::locate"));
}
