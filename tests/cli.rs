//! The command line's own subcommands, run as a real process.

use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn alternatives_prints_the_matrix_of_a_query() {
    let (code, out, _) = run(&[
        "alternatives",
        "sample-projects/devices-options.cqlm.ron",
        "Q1",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.contains("option4: PRIMARY KEY ((device_id, date), timestamp)"),
        "{out}"
    );
    assert!(
        out.lines()
            .any(|l| l.trim_start().starts_with("Q2") && l.contains("yes")),
        "{out}"
    );
}

#[test]
fn alternatives_of_an_unknown_query_is_a_usage_error() {
    let (code, _, err) = run(&[
        "alternatives",
        "sample-projects/devices-options.cqlm.ron",
        "Q11",
    ]);
    assert_eq!(code, 2);
    assert!(err.contains("no query Q11; did you mean Q1?"), "{err}");
}

#[test]
fn rules_lists_every_rule_once() {
    let (code, out, _) = run(&["rules"]);
    assert_eq!(code, 0);
    for r in cqlmodel::diagnose::RULES {
        assert_eq!(
            out.lines()
                .filter(|l| l.starts_with(&format!("{} ", r.id)))
                .count(),
            1,
            "{}",
            r.id
        );
    }
}

#[test]
fn derive_shows_markers_queries_and_estimates() {
    let (code, out, _) = run(&["derive", "sample-projects/hotel.cqlm.ron"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("available_rooms_by_hotel_date  (rows: AvailableRoom; serves Q4)"),
        "{out}"
    );
    assert!(out.contains("  C↑  date"), "{out}");
    assert!(out.contains("Nr 73,000"), "{out}");
}

#[test]
fn derive_explains_computed_columns_and_summaries() {
    let (code, out, _) = run(&["derive", "sample-projects/clickstream.cqlm.ron"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("click_counts_by_url_hour  (rows: Click; serves Q5)"),
        "{out}"
    );
    assert!(
        out.contains("        = the hour of click_id, truncated to the hour (UTC)"),
        "{out}"
    );
    assert!(
        out.contains("updated by the application or a job (aggregates): session_stats_by_user_day"),
        "{out}"
    );
    assert!(out.contains("element = 'checkout_button'"), "{out}");

    let (code, out, _) = run(&[
        "derive",
        "--format",
        "json",
        "sample-projects/clickstream.cqlm.ron",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let table = v["tables"]
        .as_array()
        .and_then(|ts| ts.iter().find(|t| t["name"] == "click_counts_by_url_hour"))
        .expect("the summary table");
    let hour = &table["columns"][1];
    assert_eq!(hour["name"], "hour");
    assert_eq!(hour["rule"], "Window");
    assert_eq!(
        hour["computed"],
        "the hour of click_id, truncated to the hour (UTC)"
    );
    assert_eq!(table["columns"][2]["type"], "counter");
    assert_eq!(table["estimate"]["rows_per_partition"], 720.0);
}

#[test]
fn a_constant_with_a_control_character_is_refused_with_its_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("bad.cqlm.ron");
    let text = std::fs::read_to_string("sample-projects/clickstream.cqlm.ron")
        .expect("sample")
        .replace(
            r#"value: "checkout_button""#,
            r#"value: "checkout\u{1b}[2J""#,
        );
    std::fs::write(&file, text).expect("write");
    let (code, out, err) = run(&["derive", file.to_str().expect("utf-8 path")]);
    assert_ne!(code, 0, "{out}");
    assert!(err.contains("control or bidirectional"), "{err}");
    assert!(err.contains("line "), "{err}");
    assert!(!err.contains('\u{1b}'), "{err:?}");
}
