//! Bounded fuzzing (well under a minute): arbitrary bytes and mutated
//! sample projects go through load → derive → CQL → reports → every
//! workbench view on `TestBackend`. Nothing may panic, and nothing a file
//! holds may reach a screen or a report as a terminal control.

use crate::support;

use cqlmodel::analysis::analyze;
use cqlmodel::model::terminal_text::is_unsafe;
use cqlmodel::model::{load, Project};
use cqlmodel::tui::app::App;
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::view;
use crossterm::event::KeyCode;
use proptest::prelude::*;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use support::key;

const SAMPLES: &[&str] = &[
    include_str!("../../sample-projects/hotel.cqlm.ron"),
    include_str!("../../sample-projects/likes.cqlm.ron"),
    include_str!("../../sample-projects/logs.cqlm.ron"),
    include_str!("../../sample-projects/devices-options.cqlm.ron"),
    include_str!("../../sample-projects/clickstream.cqlm.ron"),
];

/// Fragments a mutation splices in: controls, bidi, quotes, brackets,
/// numbers at the edges, long runs.
const SPLICES: &[&str] = &[
    "\u{1b}[2J",
    "\u{1b}]52;c;aGk=\u{7}",
    "\u{202e}",
    "\u{9b}",
    "\"",
    "\\",
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    "Some(",
    "None",
    "1e308",
    "-1",
    "NaN",
    "inf",
    "0",
    "4294967295",
    "\"counter\"",
    "\"duration\"",
    "\"set<duration>\"",
    "\"list<counter>\"",
    "served_by: Some(\"Q1\"), ",
    "equality: [], ",
    "\n",
];

fn clean(what: &str, text: &str) -> Result<(), TestCaseError> {
    if let Some(c) = text
        .chars()
        .find(|&c| is_unsafe(c) && c != '\n' && c != '\t')
    {
        return Err(TestCaseError::fail(format!(
            "{what}: U+{:04X} in the output",
            c as u32
        )));
    }
    Ok(())
}

fn screen(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(100, 30)).expect("terminal");
    t.draw(|f| view::draw(app, f)).expect("draw");
    t.backend()
        .buffer()
        .content()
        .iter()
        .map(ratatui::buffer::Cell::symbol)
        .collect()
}

/// The whole pipeline and every view; only for projects that load.
fn exercise(project: Project) -> Result<(), TestCaseError> {
    let a = analyze(&project);
    clean("cql", &cqlmodel::output::cql::script(&project, &a.model))?;
    clean("derive", &cqlmodel::output::report::chebotko(&project, &a))?;
    clean("check", &cqlmodel::output::report::diagnostics(&a))?;
    for q in project.queries.iter().take(3) {
        let m = cqlmodel::review::alternatives::matrix(&project, &q.id);
        clean(
            "alternatives",
            &cqlmodel::review::alternatives::render(&project, &m),
        )?;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let dirs = Dirs {
        config: Some(tmp.path().join("config")),
        data: Some(tmp.path().join("data")),
    };
    let mut app = App::new(project, None, dirs);
    clean("start", &screen(&app))?;
    for _pane in 0..3 {
        for _row in 0..6 {
            for v in ['1', '2', '3', '4'] {
                key(&mut app, KeyCode::Char(v));
                clean("view", &screen(&app))?;
            }
            for p in ['e', 'A', 'R'] {
                key(&mut app, KeyCode::Char(p));
                clean("popup", &screen(&app))?;
                key(&mut app, KeyCode::Esc);
            }
            key(&mut app, KeyCode::Char('j'));
        }
        key(&mut app, KeyCode::Tab);
    }
    Ok(())
}

fn mutate(text: &str, edits: &[(u16, u8, u8)]) -> String {
    let mut s: Vec<char> = text.chars().collect();
    for &(at, kind, pick) in edits {
        if s.is_empty() {
            break;
        }
        let i = at as usize % s.len();
        match kind % 4 {
            0 => {
                s.remove(i);
            }
            1 => {
                let splice = SPLICES[pick as usize % SPLICES.len()];
                for (k, c) in splice.chars().enumerate() {
                    s.insert(i + k, c);
                }
            }
            2 => s[i] = char::from(pick % 0x7f),
            _ => {
                // Duplicate a short stretch (repeats items, fields).
                let end = (i + 1 + pick as usize).min(s.len());
                let chunk: Vec<char> = s[i..end].to_vec();
                for (k, c) in chunk.into_iter().enumerate() {
                    s.insert(end + k, c);
                }
            }
        }
    }
    s.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..2048)) {
        let text = String::from_utf8_lossy(&bytes);
        match load::from_str(&text) {
            Ok(p) => exercise(p)?,
            Err(e) => clean("error", &cqlmodel::model::naming::for_terminal(&e.to_string()))?,
        }
    }
}

/// Every node of a JSON value, by pointer.
fn pointers(v: &serde_json::Value, at: String, out: &mut Vec<String>) {
    match v {
        serde_json::Value::Array(items) => {
            for (i, x) in items.iter().enumerate() {
                pointers(x, format!("{at}/{i}"), out);
            }
        }
        serde_json::Value::Object(map) => {
            for (k, x) in map {
                pointers(
                    x,
                    format!("{at}/{}", k.replace('~', "~0").replace('/', "~1")),
                    out,
                );
            }
        }
        _ => {}
    }
    out.push(at);
}

/// One structural change at a node: strings become other strings (from
/// the file or hostile), numbers edge values, arrays lose or repeat an
/// element.
fn mutate_node(v: &mut serde_json::Value, pick: u8, strings: &[String]) {
    use serde_json::Value;
    match v {
        Value::String(s) => {
            *s = match pick % 4 {
                0 => strings[pick as usize % strings.len()].clone(),
                1 => format!("{s}{}", SPLICES[pick as usize % SPLICES.len()]),
                2 => s.chars().take(pick as usize % 4).collect(),
                _ => SPLICES[pick as usize % SPLICES.len()]
                    .trim_matches('"')
                    .to_string(),
            }
        }
        Value::Number(_) => {
            *v = match pick % 5 {
                0 => Value::from(0),
                1 => Value::from(1),
                2 => Value::from(1e300),
                3 => Value::from(u32::MAX),
                _ => Value::from(-1),
            }
        }
        Value::Array(items) if !items.is_empty() => {
            let i = pick as usize % items.len();
            if pick.is_multiple_of(2) {
                items.remove(i);
            } else {
                let x = items[i].clone();
                items.push(x);
            }
        }
        Value::Bool(b) => *b = !*b,
        _ => {}
    }
}

fn strings_of(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(xs) => xs.iter().for_each(|x| strings_of(x, out)),
        serde_json::Value::Object(m) => m.values().for_each(|x| strings_of(x, out)),
        _ => {}
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 40,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    #[test]
    fn mutated_sample_text_never_panics(
        sample in 0..SAMPLES.len(),
        edits in proptest::collection::vec((any::<u16>(), any::<u8>(), any::<u8>()), 1..6),
    ) {
        let text = mutate(SAMPLES[sample], &edits);
        match load::from_str(&text) {
            Ok(p) => exercise(p)?,
            Err(e) => {
                // Syntax errors carry a position; problems a path.
                let m = e.to_string();
                prop_assert!(!m.is_empty());
            }
        }
    }

}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Structure-aware: most mutated projects still parse, many still
    /// validate, so the whole pipeline and the views run on odd models.
    #[test]
    fn mutated_sample_structure_never_panics(
        sample in 0..SAMPLES.len(),
        edits in proptest::collection::vec((any::<u16>(), any::<u8>()), 1..3),
    ) {
        let project = load::from_str(SAMPLES[sample]).expect("sample");
        let mut v = serde_json::to_value(&project).expect("json");
        let mut strings = Vec::new();
        strings_of(&v, &mut strings);
        for (at, pick) in edits {
            let mut all = Vec::new();
            pointers(&v, String::new(), &mut all);
            let p = &all[at as usize % all.len()];
            if let Some(node) = v.pointer_mut(p) {
                mutate_node(node, pick, &strings);
            }
        }
        let Ok(mutated) = serde_json::from_value::<Project>(v) else {
            return Ok(());
        };
        // Through the file format, as a teammate's file would come.
        match load::from_str(&load::to_string(&mutated)) {
            Ok(p) => exercise(p)?,
            Err(e) => clean("error", &cqlmodel::model::naming::for_terminal(&e.to_string()))?,
        }
    }
}
