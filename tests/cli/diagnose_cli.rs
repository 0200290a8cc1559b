//! `cqlmodel check`: exit codes, `--deny warnings`, `--format json`.

use std::io::Write;
use std::process::Command;

fn check(file: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .arg("check")
        .arg(file)
        .args(args)
        .output()
        .expect("runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn sample(name: &str) -> std::path::PathBuf {
    std::path::PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/sample-projects")).join(name)
}

fn project_file(text: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(".cqlm.ron")
        .tempfile()
        .expect("temp file");
    f.write_all(text.as_bytes()).expect("write");
    f
}

#[test]
fn hints_only_exit_0_even_when_denying_warnings() {
    let hotel = sample("hotel.cqlm.ron");
    let (code, text) = check(&hotel, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("hint[write-amplification]"), "{text}");
    assert_eq!(check(&hotel, &["--deny", "warnings"]).0, 0);
}

#[test]
fn warnings_exit_0_unless_denied() {
    let f = sample("devices-options.cqlm.ron");
    let (code, text) = check(&f, &[]);
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("warning[query-needs-filtering]"), "{text}");
    assert_eq!(check(&f, &["--deny", "warnings"]).0, 1);
}

#[test]
fn errors_exit_1_and_json_lists_them() {
    let text = std::fs::read_to_string(sample("devices-options.cqlm.ron")).expect("sample");
    // Option 1 keys a device's events of a day by (date, device_id): they overwrite.
    let f = project_file(&text.replace(
        "use_candidate: Some(\"option2\")",
        "use_candidate: Some(\"option1\")",
    ));
    let (code, out) = check(f.path(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error[rows-overwrite]"), "{out}");
    let (code, out) = check(f.path(), &["--format", "json"]);
    assert_eq!(code, 1);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert!(v["errors"].as_u64().unwrap_or(0) >= 1);
    let ds = v["diagnostics"].as_array().expect("diagnostics");
    let d = ds
        .iter()
        .find(|d| d["rule"] == "rows-overwrite")
        .expect("rows-overwrite in json");
    assert_eq!(d["severity"], "Error");
    assert!(d["source"].as_str().unwrap_or("").contains("MR5"));
    assert!(d["fix"].as_str().is_some_and(|s| !s.is_empty()));
}

#[test]
fn unusable_input_exits_2() {
    let f = project_file("Project(");
    assert_eq!(check(f.path(), &[]).0, 2);
}

#[test]
fn a_typo_in_a_decision_exits_1_with_its_rule() {
    let text = std::fs::read_to_string(sample("hotel.cqlm.ron")).expect("sample");
    let from = "Decision(query: \"Q7\", name: Some(\"reservations_by_hotel_date\")),";
    assert!(text.contains(from));
    // Flip a column that does not exist (room_numbr for room_number).
    let f = project_file(&text.replace(
        from,
        "Decision(query: \"Q7\", name: Some(\"reservations_by_hotel_date\"), flip: [\"room_numbr\"]),",
    ));
    let (code, out) = check(f.path(), &[]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("error[derivation]"), "{out}");
    assert!(out.contains("room_numbr"), "{out}");
    // The same decision spelt right is clean.
    let f = project_file(&text.replace(
        from,
        "Decision(query: \"Q7\", name: Some(\"reservations_by_hotel_date\"), flip: [\"room_number\"]),",
    ));
    let (code, out) = check(f.path(), &[]);
    assert_eq!(code, 0, "{out}");
    assert!(!out.contains("error["), "{out}");
}
