//! The command line's own subcommands, run as a real process.

use std::process::Command;

use crate::support::run;

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
    for r in cqlmodel::review::diagnose::RULES {
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

fn run_with_config_dir(dir: &std::path::Path, args: &[&str]) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .args(args)
        .env("CQLMODEL_CONFIG_DIR", dir)
        .output()
        .expect("the binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn config_prints_a_default_that_loads_cleanly_and_reports_a_broken_one() {
    let dir = tempfile::tempdir().expect("tempdir");
    let (code, out) = run_with_config_dir(dir.path(), &["config"]);
    assert_eq!(code, 0);
    assert!(out.contains("not present"), "{out}");

    let (code, default) = run_with_config_dir(dir.path(), &["config", "--print-default"]);
    assert_eq!(code, 0);
    assert!(default.contains("\"save\": [\"ctrl-s\""), "{default}");
    assert!(default.contains("\"focus_border\":"), "{default}");
    let file = dir.path().join("config.ron");
    std::fs::write(&file, &default).expect("write config");
    let (code, out) = run_with_config_dir(dir.path(), &["config"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("loads without problems"), "{out}");

    let edited = default
        .replace("\"save\":", "\"sav\":")
        .replace("\"bad\": \"red\"", "\"bad\": \"reddish\"");
    std::fs::write(&file, edited).expect("write config");
    let (code, out) = run_with_config_dir(dir.path(), &["config"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("2 problem(s)"), "{out}");
    assert!(out.contains("no command \"sav\""), "{out}");
    assert!(out.contains("unknown colour \"reddish\" for bad"), "{out}");

    std::fs::write(&file, "Config(keys: 3)").expect("write config");
    let (code, out) = run_with_config_dir(dir.path(), &["config"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("using defaults"), "{out}");
}

/// Each key column's reason, in the text report and in JSON: the entity
/// key, the date that bounds growth, the uniqueness key.
#[test]
fn derive_explains_each_key_column() {
    let (code, out, _) = run(&["derive", "sample-projects/hotel.cqlm.ron"]);
    assert_eq!(code, 0);
    let line = |name: &str| -> String {
        let after = out
            .split_once("reservations_by_hotel_date  (")
            .map(|(_, rest)| rest)
            .unwrap_or_default();
        after
            .lines()
            .find(|l| l.split_whitespace().nth(1) == Some(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(line("hotel_id").contains("← MR2 equality search → partition key: the key of Hotel"));
    assert!(line("start_date").contains("a date or time"));
    assert!(
        line("room_number").contains("← MR4 ordering"),
        "{}",
        line("room_number")
    );
    assert!(
        line("confirm_number").contains("← MR5"),
        "{}",
        line("confirm_number")
    );

    let (code, out, _) = run(&[
        "derive",
        "--format",
        "json",
        "sample-projects/hotel.cqlm.ron",
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).expect("json");
    let tables = v["tables"].as_array().expect("tables");
    let t = tables
        .iter()
        .find(|t| t["name"] == "reservations_by_hotel_date")
        .expect("table");
    let col = |name: &str| {
        t["columns"]
            .as_array()
            .and_then(|cs| cs.iter().find(|c| c["name"] == name))
            .cloned()
            .unwrap_or_default()
    };
    assert_eq!(col("start_date")["rule"], "Equality");
    assert!(col("start_date")["why"]
        .as_str()
        .is_some_and(|w| w.contains("bounds the partition")));
    assert!(col("confirm_number")["reason"]
        .as_str()
        .is_some_and(|r| r.starts_with("MR5")));
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

/// Every subcommand in `--help` says what it does, in its own words: a
/// doc comment that drifts onto the wrong variant shows as one command
/// with two descriptions and one with none.
#[test]
fn every_command_in_help_has_its_own_description() {
    let (code, out, err) = run(&["--help"]);
    assert_eq!(code, 0, "{err}");
    let commands: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .collect();
    assert!(commands.len() >= 10, "{out}");
    for line in &commands {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or_default();
        assert!(
            words.next().is_some(),
            "`{name}` has no description:\n{out}"
        );
    }
    let line = |name: &str| {
        commands
            .iter()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no {name} in\n{out}"))
            .to_string()
    };
    assert!(
        line("alternatives").contains("candidate primary keys"),
        "{out}"
    );
    assert!(!line("cost").contains("candidate"), "{out}");
    assert!(line("cost").contains("costs the cluster"), "{out}");
}
