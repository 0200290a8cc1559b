//! Broken input never panics and is reported where it is: syntax errors
//! with line and column, reference errors with their path in the file and a
//! did-you-mean, oversized and deeply nested input with a clear error. Also
//! the command line's output formats and exit codes.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::model::load::{self, LoadError, Problem};
use cqlmodel::model::Project;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn hotel_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/hotel.cqlm.ron")
}

fn hotel_text() -> String {
    std::fs::read_to_string(hotel_path()).expect("hotel sample is readable")
}

fn hotel() -> Project {
    load::from_str(&hotel_text()).expect("hotel sample is valid")
}

/// The problems of a project written out and read back, as `path: message`.
fn problems_of(project: &Project) -> Vec<String> {
    let text = load::to_string(project);
    match load::from_str(&text) {
        Err(LoadError::Invalid(problems)) => problems.iter().map(Problem::to_string).collect(),
        Err(other) => panic!("expected reference problems, got: {other}"),
        Ok(_) => panic!("expected reference problems, the project loaded"),
    }
}

fn floor_char_boundary(s: &str, mut n: usize) -> usize {
    while !s.is_char_boundary(n) {
        n -= 1;
    }
    n
}

#[test]
fn every_truncation_of_the_hotel_sample_is_an_error() {
    let text = hotel_text();
    // The last byte kept must cut into the document, not its trailing
    // whitespace, or the prefix is the whole project.
    let end = text.trim_end().len();
    let mut tried = 0;
    for n in (0..end).step_by(37) {
        let prefix = &text[..floor_char_boundary(&text, n)];
        let result = std::panic::catch_unwind(|| load::from_str(prefix));
        match result {
            Ok(Err(_)) => tried += 1,
            Ok(Ok(_)) => panic!("a {n}-byte prefix loaded as a project"),
            Err(payload) => panic!(
                "loading a {n}-byte prefix panicked: {:?}",
                payload.downcast_ref::<String>()
            ),
        }
    }
    assert!(tried > 100, "only {tried} prefixes");
}

#[test]
fn syntax_errors_carry_line_and_column() {
    let text = hotel_text();
    let broken = text.replacen(
        "name: \"Hotel reservations\",",
        "name: \"Hotel reservations\"",
        1,
    );
    assert_ne!(broken, text);
    // The parser notices the missing comma at the next field.
    let expected_line = broken
        .lines()
        .position(|l| l.trim_start().starts_with("keyspace: Keyspace("))
        .expect("keyspace line")
        + 1;
    match load::from_str(&broken) {
        Err(LoadError::Syntax { line, col, message }) => {
            assert_eq!(line, expected_line, "{message}");
            assert_eq!(col, 5, "{message}");
            let shown = load::from_str(&broken).unwrap_err().to_string();
            assert!(
                shown.starts_with(&format!("line {expected_line}, column 5: ")),
                "{shown}"
            );
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }

    // An error on the first line is line 1.
    match load::from_str("Project(format: 1,, name: \"x\")") {
        Err(LoadError::Syntax { line, col, .. }) => {
            assert_eq!(line, 1);
            assert!(col > 1);
        }
        other => panic!("expected a syntax error, got {other:?}"),
    }
}

#[test]
fn values_of_the_wrong_type_are_refused() {
    let text = hotel_text();
    let cases: &[(&str, &str)] = &[
        ("count: Some(5000)", "count: Some(\"many\")"),
        ("size: Some(30)", "size: \"thirty\""),
        ("cardinality: ManyToMany", "cardinality: ManyToFew"),
        ("format: 1", "format: -1"),
        ("replication: Simple(3)", "replication: Simple(-3)"),
        ("key: [\"hotel_id\"]", "key: \"hotel_id\""),
        ("type: \"smallint\"", "type: \"smalint\""),
        ("type: \"date\"", "type: \"map<date>\""),
        // The hotel sample has no limit; Q1 (the first query returning
        // these) gets a wrong one.
        (
            "returns: [\"hotel_id\", \"name\", \"phone\", \"address\"],",
            "returns: [\"hotel_id\", \"name\", \"phone\", \"address\"], limit: Some(-5),",
        ),
        (
            "returns: [\"hotel_id\", \"name\", \"phone\", \"address\"],",
            "returns: [\"hotel_id\", \"name\", \"phone\", \"address\"], limit: Some(\"ten\"),",
        ),
        (
            "retention_days: Some(730)",
            "retention_days: Some(730), colour: Red",
        ),
        ("per: Some(Day)", "per: Some(Fortnight)"),
        ("dir: Asc", "dir: Up"),
        ("op: Between", "op: Within"),
    ];
    for (from, to) in cases {
        assert_ne!(from, to, "a case that changes nothing tests nothing");
        assert!(text.contains(from), "the sample has no {from}");
        let broken = text.replacen(from, to, 1);
        match load::from_str(&broken) {
            Err(e) => assert!(!e.to_string().is_empty()),
            Ok(_) => panic!("{to} was accepted"),
        }
    }
    // The place of those limits is right: a valid one loads.
    let limited = text.replacen(
        "returns: [\"hotel_id\", \"name\", \"phone\", \"address\"],",
        "returns: [\"hotel_id\", \"name\", \"phone\", \"address\"], limit: Some(5),",
        1,
    );
    let p = load::from_str(&limited).expect("a valid limit loads");
    let limits: Vec<Option<u32>> = p.queries.iter().map(|q| q.limit).collect();
    assert!(limits.contains(&Some(5)), "{limits:?}");
    // A misspelt type is a reference to a user type that does not exist,
    // with the closest type as a hint when the project has one.
    let mut p = hotel();
    p.entities[0].attributes[3].ty = "adress".parse().expect("parses as a type name");
    let problems = problems_of(&p);
    assert_eq!(
        problems,
        ["entities[0].attributes[3].type: no type \"adress\"; did you mean \"address\"?"]
    );
}

#[test]
fn unknown_references_suggest_the_closest_name() {
    // Q4 (queries[3]) searches AvailableRoom rows by an attribute of Hotel.
    let mut p = hotel();
    assert_eq!(p.queries[3].id, "Q4");
    p.queries[3].equality[0] = "Hotel.nme".into();
    assert_eq!(
        problems_of(&p),
        ["queries[3].equality[0]: no attribute \"nme\" on entity Hotel; did you mean \"name\"?"]
    );

    let mut p = hotel();
    p.queries[0].rows = "Hotle".into();
    assert_eq!(
        problems_of(&p),
        ["queries[0].rows: no entity or relationship \"Hotle\"; did you mean \"Hotel\"?"]
    );

    let mut p = hotel();
    p.relationships[1].to = "Rom".into();
    let problems = problems_of(&p);
    assert!(
        problems.contains(
            &"relationships[1].to: no entity \"Rom\"; did you mean \"Room\"?".to_string()
        ),
        "{problems:#?}"
    );

    let mut p = hotel();
    p.workflow.transitions[0].to = "Q22".into();
    let problems = problems_of(&p);
    assert!(
        problems
            .iter()
            .any(|m| m.starts_with("workflow.transitions[0].to: no query \"Q22\"")),
        "{problems:#?}"
    );

    let mut p = hotel();
    p.decisions[0].query = "Q66".into();
    let problems = problems_of(&p);
    assert!(
        problems
            .iter()
            .any(|m| m.starts_with("decisions[0].query: no query \"Q66\"")),
        "{problems:#?}"
    );

    // The same file through the command line: exit 1, the problem on stdout.
    let mut p = hotel();
    p.queries[3].equality[0] = "Hotel.nme".into();
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("broken.cqlm.ron");
    std::fs::write(&file, load::to_string(&p)).expect("write");
    let out = cli(&["check", path_str(&file)]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains(
            "queries[3].equality[0]: no attribute \"nme\" on entity Hotel; did you mean \"name\"?"
        ),
        "{stdout}"
    );
}

#[test]
fn duplicate_names_are_reported() {
    let mut p = hotel();
    let dup = p.entities[0].clone();
    p.entities.push(dup);
    let n = p.entities.len() - 1;
    assert!(problems_of(&p).contains(&format!("entities[{n}].name: duplicate entity \"Hotel\"")));

    let mut p = hotel();
    let dup = p.entities[0].attributes[1].clone();
    p.entities[0].attributes.push(dup);
    let n = p.entities[0].attributes.len() - 1;
    assert!(problems_of(&p).contains(&format!(
        "entities[0].attributes[{n}].name: duplicate attribute \"name\""
    )));

    let mut p = hotel();
    let dup = p.queries[0].clone();
    p.queries.push(dup);
    let n = p.queries.len() - 1;
    assert!(problems_of(&p).contains(&format!("queries[{n}].id: duplicate query id \"Q1\"")));

    let mut p = hotel();
    let dup = p.types[0].clone();
    p.types.push(dup);
    assert!(problems_of(&p).contains(&"types[1].name: duplicate type \"address\"".to_string()));

    // A relationship may not take an entity's name either.
    let mut p = hotel();
    p.relationships[0].name = "Guest".into();
    let problems = problems_of(&p);
    assert!(
        problems
            .iter()
            .any(|m| m.starts_with("relationships[0].name:")),
        "{problems:#?}"
    );
}

#[test]
fn huge_input_is_refused_before_parsing() {
    let mut text = String::from("Project(format: 1, name: \"");
    text.push_str(&"x".repeat(40 * 1024 * 1024));
    text.push_str("\")");
    match load::from_str(&text) {
        Err(LoadError::Io(m)) => assert!(m.contains("limited to"), "{m}"),
        other => panic!("expected a size error, got {:?}", other.map(|_| ())),
    }

    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("huge.cqlm.ron");
    std::fs::write(&file, &text).expect("write");
    let out = cli(&["check", path_str(&file)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("limited to"),
        "{out:?}"
    );
}

#[test]
fn deeply_nested_input_is_an_error_not_a_stack_overflow() {
    let deep = "[".repeat(10_000);
    assert!(load::from_str(&deep).is_err());
    let inside = format!(
        "Project(format: 1, name: \"x\", keyspace: Keyspace(name: \"x\", replication: Simple(1)), entities: {deep})"
    );
    assert!(load::from_str(&inside).is_err());
    let parens = format!("Project(format: 1, name: {}", "Some(".repeat(10_000));
    assert!(load::from_str(&parens).is_err());
}

#[test]
fn garbage_is_an_error() {
    for text in [
        "",
        " ",
        "\0\0\0",
        "}{",
        "Project",
        "Project(",
        "()",
        "🦀🦀🦀",
        "Project(format: 1)",
    ] {
        assert!(load::from_str(text).is_err(), "{text:?} loaded");
    }
    // A project of a newer format is refused with advice.
    let newer = hotel_text().replacen("format: 1", "format: 99", 1);
    let e = load::from_str(&newer).unwrap_err().to_string();
    assert!(e.contains("upgrade cqlmodel"), "{e}");
}

// ---- the command line ----------------------------------------------------

fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .args(args)
        .output()
        .expect("cqlmodel runs")
}

fn path_str(p: &Path) -> &str {
    p.to_str().expect("UTF-8 temp path")
}

#[test]
fn cli_rejects_garbage_bytes_and_non_utf8() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("garbage.cqlm.ron");
    std::fs::write(&file, [0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, b'(', 0x9f]).expect("write");
    for cmd in ["check", "derive", "cql"] {
        let out = cli(&[cmd, path_str(&file)]);
        assert_eq!(out.status.code(), Some(2), "{cmd}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("UTF-8"), "{cmd}: {err}");
        assert!(out.stdout.is_empty(), "{cmd} printed output");
    }

    // Valid UTF-8 that is not a project.
    std::fs::write(&file, "\u{7}\u{1b}[31m not a project").expect("write");
    let out = cli(&["check", path_str(&file)]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 1, column"), "{err}");
    // Control characters from the file are not echoed raw to the terminal.
    assert!(!err.contains('\u{1b}'), "{err:?}");

    let missing = dir.path().join("missing.cqlm.ron");
    let out = cli(&["derive", path_str(&missing)]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!out.stderr.is_empty());
}

#[test]
fn cli_derive_as_text_and_json() {
    let hotel = hotel_path();
    let out = cli(&["derive", path_str(&hotel)]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let text = String::from_utf8(out.stdout).expect("UTF-8 output");
    assert!(
        text.starts_with("Hotel reservations — keyspace hotel — 9 tables for 9 queries"),
        "{text}"
    );
    assert!(text.contains("available_rooms_by_hotel_date  (rows: AvailableRoom; serves Q4)"));
    assert!(text.contains("  K   hotel_id"));

    let out = cli(&["derive", "--format", "json", path_str(&hotel)]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v["project"], "Hotel reservations");
    assert_eq!(v["keyspace"], "hotel");
    let tables = v["tables"].as_array().expect("tables");
    assert_eq!(tables.len(), 9);
    assert_eq!(tables[0]["name"], "hotels_by_poi");
    let columns = tables[0]["columns"].as_array().expect("columns");
    assert_eq!(columns[0]["name"], "poi_name");
    assert_eq!(columns[0]["marker"], "K");
    assert_eq!(columns[1]["marker"], "C↑");
    assert_eq!(columns[4]["type"], "address");
    let rooms = tables
        .iter()
        .find(|t| t["name"] == "available_rooms_by_hotel_date")
        .expect("rooms table");
    assert_eq!(
        rooms["estimate"]["rows_per_partition"]
            .as_f64()
            .map(f64::round),
        Some(73_000.0)
    );
    let plans = v["plans"].as_array().expect("plans");
    assert_eq!(plans.len(), 9);
    assert!(plans.iter().all(|p| p["access"] == "Direct"), "{plans:#?}");
    assert!(v["writes"].as_array().is_some_and(|w| !w.is_empty()));
}

#[test]
fn cli_cql_writes_the_output_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_file = dir.path().join("hotel.cql");
    let out = cli(&["cql", path_str(&hotel_path()), "-o", path_str(&out_file)]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(out.stdout.is_empty(), "the script went to stdout");
    let written = std::fs::read_to_string(&out_file).expect("output written");
    assert!(written.contains("CREATE KEYSPACE IF NOT EXISTS hotel"));
    assert!(written.contains("CREATE TABLE IF NOT EXISTS hotel.hotels_by_poi ("));
    assert!(written.contains("CREATE TYPE IF NOT EXISTS hotel.address ("));
    // The same script on stdout without -o.
    let out = cli(&["cql", path_str(&hotel_path())]);
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&out.stdout), written);
    // No temporary file is left beside the output.
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert_eq!(left.len(), 1);
}

#[test]
fn cli_check_exit_codes() {
    // 0: a clean sample.
    let out = cli(&["check", path_str(&hotel_path())]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("0 error(s)"));

    let dir = tempfile::tempdir().expect("temp dir");

    // 1: a project with reference errors (JSON lists them).
    let mut p = hotel();
    p.queries[0].returns.push("Hotel.fax".into());
    let refs = dir.path().join("refs.cqlm.ron");
    std::fs::write(&refs, load::to_string(&p)).expect("write");
    let out = cli(&["check", path_str(&refs)]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let out = cli(&["check", "--format", "json", path_str(&refs)]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("valid JSON");
    assert_eq!(v["errors"], 1);
    assert_eq!(v["problems"][0]["path"], "queries[0].returns[4]");

    // 2: unparseable input, with the reason on stderr.
    let bad = dir.path().join("bad.cqlm.ron");
    std::fs::write(&bad, "Project(format: 1, name: \"x\"\nkeyspace: oops)").expect("write");
    let out = cli(&["check", path_str(&bad)]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 2, column 1"), "{err}");
    assert!(out.stdout.is_empty());

    // 2: usage errors.
    let out = cli(&["check"]);
    assert_eq!(out.status.code(), Some(2));
}
