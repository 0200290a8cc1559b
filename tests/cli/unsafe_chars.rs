//! Every character a terminal would act on or that reorders what it shows,
//! listed here by hand (not through the sanitizer's own predicate, so a
//! character the sanitizer forgets fails here): the C0 controls but line
//! feed and tab, DEL, the C1 controls, the bidirectional embeddings,
//! overrides, isolates and marks. Each one sits in the free text of a
//! project (its name, every query's text, a note per character) and of a
//! CQL schema to import, and goes through every CLI output: check in
//! text, JSON, SARIF and GitHub form, derive (text and JSON), cql, report
//! (Markdown and HTML), diagram (DOT and Mermaid, every view), diff (text,
//! JSON, Markdown), migrate, alternatives, and import's messages. None may
//! reach standard output or standard error raw.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::model::{load, Note, Project, Target};
use std::path::Path;
use std::process::Command;

/// The characters, by range, with the name of each range.
fn unsafe_chars() -> Vec<(char, &'static str)> {
    let mut out = Vec::new();
    let mut range = |from: u32, to: u32, what: &'static str| {
        for c in (from..=to).filter_map(char::from_u32) {
            if c != '\n' && c != '\t' {
                out.push((c, what));
            }
        }
    };
    range(0x00, 0x1F, "C0 control");
    range(0x7F, 0x7F, "DEL");
    range(0x80, 0x9F, "C1 control");
    range(0x061C, 0x061C, "Arabic letter mark");
    range(0x200E, 0x200F, "left-to-right / right-to-left mark");
    range(0x202A, 0x202E, "bidi embedding or override");
    range(0x2066, 0x2069, "bidi isolate");
    out
}

/// Each unsafe character between two letters, in order: `a·b·c…`.
fn all_of_them() -> String {
    let mut out = String::new();
    for (i, (c, _)) in unsafe_chars().into_iter().enumerate() {
        out.push(char::from(b'a' + u8::try_from(i % 26).unwrap_or(0)));
        out.push(c);
    }
    out
}

/// Fails naming the character and the output it reached.
fn assert_none_raw(what: &str, text: &str) {
    for (c, kind) in unsafe_chars() {
        if let Some(i) = text.find(c) {
            let from = text[..i].char_indices().rev().nth(30).map_or(0, |(j, _)| j);
            panic!(
                "{what}: U+{:04X} ({kind}) reaches the output raw after {:?}",
                c as u32,
                &text[from..i]
            );
        }
    }
}

/// The hotel sample with every unsafe character in its name, every query's
/// text, and one note per character on the first query.
fn hostile(sample_text: &str, name: &str) -> Project {
    let mut p = load::from_str(sample_text).expect("sample");
    let evil = all_of_them();
    p.name = format!("{name} {evil}");
    for q in &mut p.queries {
        q.text = format!("{} {evil}", q.text);
    }
    let first = p.queries[0].id.clone();
    for (i, (c, _)) in unsafe_chars().into_iter().enumerate() {
        p.notes.push(Note {
            target: Target::Query(first.clone()),
            text: format!("note {i} <{c}> end"),
        });
    }
    assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
    p
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .args(args)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn path(p: &Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

#[test]
fn no_unsafe_character_reaches_any_cli_output_raw() {
    // The list itself: 30 C0 (32 less line feed and tab), DEL, 32 C1,
    // U+061C, U+200E/F, U+202A–E (5), U+2066–9 (4): 75.
    assert_eq!(unsafe_chars().len(), 30 + 1 + 32 + 1 + 2 + 5 + 4);
    let dir = tempfile::tempdir().expect("temp dir");
    let hotel = dir.path().join("hotel.cqlm.ron");
    let plain = load::from_str(cqlmodel::tui::SAMPLE).expect("sample");
    let evil = hostile(cqlmodel::tui::SAMPLE, "Hotel");
    std::fs::write(&hotel, load::to_string(&evil)).expect("write");
    // The same project before an edit: Q5 gone, for diff and migrate.
    let mut older = evil.clone();
    older.queries.retain(|q| q.id != "Q5");
    older
        .workflow
        .transitions
        .retain(|t| t.to != "Q5" && t.from != "Q5");
    older.workflow.entry.retain(|e| e != "Q5");
    older.decisions.retain(|d| d.query != "Q5");
    older.name = format!("Older {}", all_of_them());
    let old = dir.path().join("old.cqlm.ron");
    std::fs::write(&old, load::to_string(&older)).expect("write");
    assert_ne!(plain.queries.len(), older.queries.len());

    let schema = dir.path().join("evil.cql");
    let evil_text = all_of_them().replace('\'', "");
    std::fs::write(
        &schema,
        format!(
            "CREATE KEYSPACE ks WITH replication = {{'class': 'SimpleStrategy', 'replication_factor': 1}};\n\
             CREATE TABLE ks.t (id int PRIMARY KEY, v text) WITH comment = 'c {evil_text}';\n\
             CREATE FUNCTION ks.f(a int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS 'return a; // {evil_text}';\n\
             CREATE TABLE ks.\"bad{evil_text}\" (id int PRIMARY KEY);\n\
             {evil_text};\n"
        ),
    )
    .expect("write");

    let (f, o, s) = (path(&hotel), path(&old), path(&schema));
    let mut commands: Vec<Vec<&str>> = vec![
        vec!["check", f],
        vec!["check", f, "--format", "json"],
        vec!["check", f, "--format", "sarif"],
        vec!["check", f, "--format", "github"],
        vec!["derive", f],
        vec!["derive", f, "--format", "json"],
        vec!["cql", f],
        vec!["report", f, "--format", "md"],
        vec!["report", f, "--format", "html"],
        vec!["diff", o, f],
        vec!["diff", o, f, "--format", "json"],
        vec!["diff", o, f, "--format", "md"],
        vec!["diff", f, o],
        vec!["migrate", o, f],
        vec!["migrate", f, o],
        vec!["alternatives", f, "Q1"],
        vec!["import", s],
    ];
    for view in ["er", "workflow", "logical"] {
        for format in ["dot", "mermaid"] {
            commands.push(vec!["diagram", f, "--view", view, "--format", format]);
        }
    }
    for args in &commands {
        let (code, out, err) = run(args);
        let what = args
            .iter()
            .map(|a| {
                Path::new(a)
                    .file_name()
                    .map_or(*a, |n| n.to_str().unwrap_or(a))
            })
            .collect::<Vec<_>>()
            .join(" ");
        assert_none_raw(&format!("{what} (stdout)"), &out);
        assert_none_raw(&format!("{what} (stderr)"), &err);
        // Each command did its work (the text was shown, not refused).
        assert!(matches!(code, Some(0 | 1)), "{what}: exit {code:?}\n{err}");
        assert!(!out.is_empty(), "{what}: no output\n{err}");
    }
}
