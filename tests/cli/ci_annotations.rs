//! `check --format sarif|github` of the real binary: SARIF validated against
//! the SARIF 2.1.0 JSON schema shipped in tests/ (from the MIT-licensed npm
//! package @microsoft/jest-sarif, `sarif-2.1.0-rtm.5.json`, the OASIS
//! standard's schema, with one fix: its two `language` patterns had a stray
//! `]` that strict regex checks refuse, now `^[a-zA-Z]{2}(-[a-zA-Z]{2})?$`
//! as the text of the standard describes), locations at the item's line; GitHub workflow
//! commands; `--baseline` failing only on new warnings.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use std::path::{Path, PathBuf};
use std::process::Command;

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("sample-projects")
        .join(format!("{name}.cqlm.ron"))
}

const SAMPLES: [&str; 6] = [
    "clickstream",
    "devices-options",
    "devices",
    "hotel",
    "likes",
    "logs",
];

fn schema() -> jsonschema::Validator {
    let text = include_str!("../sarif-schema-2.1.0.json");
    let schema: serde_json::Value = serde_json::from_str(text).expect("schema is JSON");
    jsonschema::validator_for(&schema).expect("schema compiles")
}

fn sarif_of(path: &Path) -> serde_json::Value {
    let out = bin()
        .args(["check", "--format", "sarif"])
        .arg(path)
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}\n{text}", path.display()))
}

#[test]
fn sarif_of_every_sample_is_valid_sarif_2_1_0() {
    let v = schema();
    for s in SAMPLES {
        let log = sarif_of(&sample(s));
        let errors: Vec<String> = v.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{s}: {errors:#?}");
        assert_eq!(log["version"], "2.1.0");
    }
}

#[test]
fn the_schema_rejects_what_is_not_sarif() {
    // The validation above can fail: a log without results' messages is
    // refused.
    let v = schema();
    let bad = serde_json::json!({
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "x"}}, "results": [{"ruleId": "r"}]}],
    });
    assert!(!v.is_valid(&bad));
    let bad_version = serde_json::json!({"version": "2.0.0", "runs": []});
    assert!(!v.is_valid(&bad_version));
}

/// The text of line `n` (1-based) of a file.
fn line_of(path: &Path, n: u64) -> String {
    std::fs::read_to_string(path)
        .expect("readable")
        .lines()
        .nth(n as usize - 1)
        .unwrap_or_default()
        .to_string()
}

#[test]
fn sarif_results_point_at_the_item_line() {
    let path = sample("devices-options");
    let log = sarif_of(&path);
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert!(!results.is_empty());
    for r in results {
        let region = &r["locations"][0]["physicalLocation"]["region"];
        let line = region["startLine"].as_u64().expect("a line");
        let subject = r["locations"][0]["logicalLocations"][0]["fullyQualifiedName"]
            .as_str()
            .expect("subject");
        let text = line_of(&path, line);
        // Entities, relationships and queries point at their own line; a
        // table at the decision or query that built it.
        assert!(
            [
                "Entity(",
                "Relationship(",
                "Query(",
                "Decision(",
                "Attribute("
            ]
            .iter()
            .any(|k| text.contains(k)),
            "{subject}: line {line} is {text:?}"
        );
        if let Some(q) = subject.strip_prefix("query ") {
            let next = line_of(&path, line + 1);
            assert!(
                text.contains(&format!("\"{q}\"")) || next.contains(&format!("\"{q}\"")),
                "{subject}: {text:?}"
            );
        }
    }
}

#[test]
fn github_annotations_name_file_and_line() {
    let path = sample("devices-options");
    let out = bin()
        .args(["check", "--format", "github"])
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(out.status.code(), Some(0), "warnings alone do not fail");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    for l in lines {
        assert!(l.starts_with("::warning file="), "{l}");
        assert!(l.contains("devices-options.cqlm.ron,line="), "{l}");
        let line: u64 = l
            .split(",line=")
            .nth(1)
            .and_then(|r| r.split(',').next())
            .and_then(|n| n.parse().ok())
            .expect("a line number");
        assert!(line > 1);
    }
}

/// (line, column, title) of each `::warning` command of `check --format
/// github`, in order.
fn github_positions(path: &Path) -> Vec<(u64, u64, String)> {
    let out = bin()
        .args(["check", "--format", "github"])
        .arg(path)
        .output()
        .expect("runs");
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    text.lines()
        .map(|l| {
            let field = |name: &str| -> String {
                l.split(&format!(",{name}="))
                    .nth(1)
                    .and_then(|r| r.split([',', ':']).next())
                    .unwrap_or_else(|| panic!("no {name} in {l}"))
                    .to_string()
            };
            let title = l
                .split(",title=")
                .nth(1)
                .and_then(|r| r.split("::").next())
                .unwrap_or_else(|| panic!("no title in {l}"))
                .to_string();
            let number = |name: &str| field(name).parse::<u64>().expect("a number");
            (number("line"), number("col"), title)
        })
        .collect()
}

/// (line, column) of each SARIF result, in order.
fn sarif_positions(path: &Path) -> Vec<(u64, u64)> {
    let log = sarif_of(path);
    log["runs"][0]["results"]
        .as_array()
        .expect("results")
        .iter()
        .map(|r| {
            let region = &r["locations"][0]["physicalLocation"]["region"];
            (
                region["startLine"].as_u64().expect("line"),
                region["startColumn"].as_u64().expect("column"),
            )
        })
        .collect()
}

/// The devices-options sample's four warnings, at the lines and columns
/// read off the file by hand: `Query(` of Q2, Q3 and Q4 at lines 69, 76
/// and 83 and `Decision(` of Q1 (the table with the index) at line 96, each
/// indented 8 spaces (column 9). One line too high or low fails.
#[test]
fn github_annotations_and_sarif_pin_exact_lines_and_columns() {
    let path = sample("devices-options");
    let want = [
        (69, 9, "query-needs-filtering (query Q2)"),
        (76, 9, "query-needs-filtering (query Q3)"),
        (83, 9, "query-needs-filtering (query Q4)"),
        (96, 9, "index-high-cardinality (events.timestamp)"),
    ];
    let got = github_positions(&path);
    let got: Vec<(u64, u64, &str)> = got.iter().map(|(l, c, t)| (*l, *c, t.as_str())).collect();
    assert_eq!(got, want);
    let sarif = sarif_positions(&path);
    let lines: Vec<(u64, u64)> = want.iter().map(|(l, c, _)| (*l, *c)).collect();
    assert_eq!(sarif, lines);
    // Independently of the numbers above: each line holds the item's
    // opening, and the query's id is on the next.
    for (line, col, title) in want {
        let text = line_of(&path, line);
        let at = usize::try_from(col - 1).expect("small");
        let opening = if title.starts_with("index") {
            "Decision("
        } else {
            "Query("
        };
        assert_eq!(text.get(at..), Some(opening), "{title}: {text:?}");
        if let Some(q) = title
            .strip_suffix(')')
            .and_then(|t| t.split("query ").nth(1))
        {
            assert!(line_of(&path, line + 1).contains(&format!("id: \"{q}\"")));
        } else {
            assert!(line_of(&path, line + 1).contains("query: \"Q1\""));
        }
    }
}

/// A line added on top moves every annotation one line down; an item that
/// starts after a comment with non-ASCII letters starts at a column counted
/// in characters (Unicode code points, as the SARIF log declares), not
/// bytes: `/* ñññ é */ ` is 12 characters (16 bytes), so `Query(` is at
/// column 13.
#[test]
fn annotation_positions_follow_lines_and_count_characters() {
    let text = std::fs::read_to_string(sample("devices-options")).expect("sample");
    let shifted = format!(
        "// one line more\n{}",
        text.replacen(
            "        Query(\n            id: \"Q3\"",
            "/* ñññ é */ Query(\n            id: \"Q3\"",
            1
        )
    );
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("shifted.cqlm.ron");
    std::fs::write(&path, shifted).expect("write");
    let got: Vec<(u64, u64)> = github_positions(&path)
        .into_iter()
        .map(|(l, c, _)| (l, c))
        .collect();
    assert_eq!(got, vec![(70, 9), (77, 13), (84, 9), (97, 9)]);
    assert_eq!(sarif_positions(&path), got);
}

#[test]
fn deny_warnings_with_a_baseline_fails_only_on_new_warnings() {
    let path = sample("devices-options");
    let same = bin()
        .args(["check", "--deny", "warnings", "--baseline"])
        .arg(&path)
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(same.status.code(), Some(0), "{same:?}");
    assert!(String::from_utf8_lossy(&same.stdout).contains("0 warning(s) not in the baseline"));
    // Against a baseline without those warnings, they are new.
    let clean = sample("devices");
    let new = bin()
        .args(["check", "--deny", "warnings", "--baseline"])
        .arg(&clean)
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(new.status.code(), Some(1), "{new:?}");
    let plain = bin()
        .args(["check", "--deny", "warnings"])
        .arg(&path)
        .output()
        .expect("runs");
    assert_eq!(plain.status.code(), Some(1));
}

#[test]
fn report_and_diagram_commands_write_files() {
    let dir = tempfile::tempdir().expect("temp dir");
    let hotel = sample("hotel");
    for (args, file, needle) in [
        (vec!["report"], "r.html", "<!DOCTYPE html>"),
        (
            vec!["report"],
            "r.md",
            "# Design review: Hotel reservations",
        ),
        (vec!["report", "--format", "md"], "r.txt", "```mermaid"),
        (vec!["diagram", "--view", "er"], "er.svg", "<svg"),
        (vec!["diagram", "--view", "workflow"], "w.dot", "digraph"),
        (vec!["diagram"], "l.mmd", "flowchart TD"),
    ] {
        let out_path = dir.path().join(file);
        let out = bin()
            .args(&args)
            .arg(&hotel)
            .arg("-o")
            .arg(&out_path)
            .output()
            .expect("runs");
        assert_eq!(out.status.code(), Some(0), "{args:?}: {out:?}");
        let text = std::fs::read_to_string(&out_path).expect("written");
        assert!(text.contains(needle), "{args:?} {file}");
    }
    let out = bin()
        .args(["diagram", "--view", "logical", "--format", "svg"])
        .arg(&hotel)
        .output()
        .expect("runs");
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("<svg"));
    let missing = bin()
        .args(["report", "no-such-file.cqlm.ron"])
        .output()
        .expect("runs");
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn the_readme_ci_job_runs_as_documented() {
    let readme = include_str!("../../docs/reports-and-ci.md");
    let start = readme.find("```yaml\n").expect("a yaml block") + "```yaml\n".len();
    let end = start + readme[start..].find("```").expect("closed block");
    let hotel = sample("hotel");
    let dir = tempfile::tempdir().expect("temp dir");
    let mut ran = 0;
    for line in readme[start..end].lines() {
        let Some(cmd) = line.trim().strip_prefix("run: cqlmodel ") else {
            continue;
        };
        // The job's files: the model and its base-branch copy are the hotel
        // sample; redirections and -o go to a temporary directory.
        let cmd = cmd.split(" > ").next().unwrap_or(cmd);
        let args: Vec<String> = cmd
            .split_whitespace()
            .map(|a| match a {
                "model.cqlm.ron" | "base.cqlm.ron" => hotel.display().to_string(),
                a if std::path::Path::new(a)
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("html")) =>
                {
                    dir.path().join(a).display().to_string()
                }
                a => a.to_string(),
            })
            .collect();
        let out = bin().args(&args).output().expect("runs");
        assert_eq!(out.status.code(), Some(0), "cqlmodel {cmd}: {out:?}");
        ran += 1;
    }
    assert_eq!(ran, 4, "the job's cqlmodel steps");
}

/// The devices-options sample with a waiver of each warning it has (and
/// the count of them), written to `dir`.
fn waived_sample(dir: &Path, extra: Option<cqlmodel::model::Waiver>) -> (PathBuf, usize) {
    let mut p = cqlmodel::model::load::from_str(
        &std::fs::read_to_string(sample("devices-options")).expect("sample"),
    )
    .expect("loads");
    let a = cqlmodel::analysis::analyze(&p);
    let warnings: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == cqlmodel::review::diagnose::Severity::Warning)
        .collect();
    for d in &warnings {
        p.waivers.push(cqlmodel::model::Waiver {
            rule: d.rule.to_string(),
            subject: d.subject.label(),
            reason: "one device per partition by design: judged in review".into(),
            by: Some("ana".into()),
            on: None,
        });
    }
    p.waivers.extend(extra);
    let path = dir.join("waived.cqlm.ron");
    std::fs::write(&path, cqlmodel::model::load::to_string(&p)).expect("written");
    (path, warnings.len())
}

/// Waived warnings are shown as waived in text, JSON, SARIF (a
/// `suppressions` entry, still valid SARIF) and left out of GitHub
/// annotations; `--deny warnings` passes once every warning is waived and
/// fails again on a stale waiver.
#[test]
fn waived_warnings_are_shown_suppressed_and_do_not_fail_deny() {
    let dir = tempfile::tempdir().expect("temp dir");
    // Without waivers the sample's 4 warnings fail `--deny warnings`.
    let plain = bin()
        .args(["check", "--deny", "warnings"])
        .arg(sample("devices-options"))
        .output()
        .expect("runs");
    assert_eq!(plain.status.code(), Some(1));
    let (path, n) = waived_sample(dir.path(), None);
    assert_eq!(n, 4);
    let out = bin()
        .args(["check", "--deny", "warnings"])
        .arg(&path)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("0 warning(s), 0 hint(s), 4 waived"), "{text}");
    assert_eq!(text.matches("(waived)").count(), 4, "{text}");
    assert!(text.contains("  waived: one device per partition by design: judged in review (ana)"));

    let json = bin()
        .args(["check", "--format", "json"])
        .arg(&path)
        .output()
        .expect("runs");
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("JSON");
    assert_eq!(v["warnings"], 0);
    assert_eq!(v["waived"], 4);
    let marked = v["diagnostics"]
        .as_array()
        .expect("list")
        .iter()
        .filter(|d| d["waived"]["by"] == "ana")
        .count();
    assert_eq!(marked, 4);

    let log = sarif_of(&path);
    let errors: Vec<String> = schema().iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let results = log["runs"][0]["results"].as_array().expect("results");
    let suppressed: Vec<&serde_json::Value> = results
        .iter()
        .filter(|r| r.get("suppressions").is_some())
        .collect();
    assert_eq!(suppressed.len(), 4);
    assert_eq!(suppressed[0]["suppressions"][0]["kind"], "inSource");
    assert_eq!(
        suppressed[0]["suppressions"][0]["justification"],
        "one device per partition by design: judged in review (ana)"
    );
    let github = bin()
        .args(["check", "--format", "github"])
        .arg(&path)
        .output()
        .expect("runs");
    let annotations = String::from_utf8_lossy(&github.stdout);
    assert!(!annotations.contains("::warning"), "{annotations}");

    // The design report lists them, waived with the reason, counted apart.
    let p = cqlmodel::model::load::from_str(&std::fs::read_to_string(&path).expect("file"))
        .expect("loads");
    let a = cqlmodel::analysis::analyze(&p);
    for format in [
        cqlmodel::output::design_report::Format::Markdown,
        cqlmodel::output::design_report::Format::Html,
    ] {
        let report = cqlmodel::output::design_report::render(&p, &a, format);
        assert!(
            report.contains("0 warning(s), 0 hint(s), 4 waived."),
            "{format:?}"
        );
        assert_eq!(
            report
                .matches("Waived: one device per partition by design: judged in review (ana)")
                .count(),
            4,
            "{format:?}"
        );
    }

    // A waiver of a finding that does not fire fails `--deny warnings`.
    let (stale, _) = waived_sample(
        dir.path(),
        Some(cqlmodel::model::Waiver {
            rule: "hot-partition".into(),
            subject: "table no_such_table".into(),
            reason: "gone".into(),
            by: None,
            on: None,
        }),
    );
    let out = bin()
        .args(["check", "--deny", "warnings"])
        .arg(&stale)
        .output()
        .expect("runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("warning[stale-waiver] waivers[4]"), "{text}");
}
