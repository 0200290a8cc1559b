//! Review findings for CI: SARIF 2.1.0 (GitHub code scanning and other
//! viewers) and GitHub Actions workflow commands (`::warning file=…`), each
//! located at the line of its item in the `.cqlm.ron` file.

use crate::analysis::Analysis;
use crate::model::load::Problem;
use crate::model::locate::{Locations, Pos};
use crate::model::Project;
use crate::output::report::subject_label;
use crate::review::diagnose::{Severity, RULES};
use serde_json::{json, Value};
use std::fmt::Write as _;

/// Id of the rule for broken references found when loading.
pub(crate) const REFERENCE_RULE: &str = "reference";

/// One finding with its place in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub rule: String,
    pub severity: Severity,
    /// The item, for people (`table hotels_by_poi`).
    pub subject: String,
    pub message: String,
    pub fix: String,
    pub pos: Pos,
    /// The waiver's reason (with who and when) when the designer waived it.
    pub waived: Option<String>,
}

/// Every finding of a project: reference problems first (they stop the
/// analysis), then the review diagnostics.
pub fn findings(text: &str, project: &Project, a: &Analysis, problems: &[Problem]) -> Vec<Finding> {
    let loc = Locations::new(text);
    let mut out: Vec<Finding> = problems
        .iter()
        .map(|p| Finding {
            rule: REFERENCE_RULE.into(),
            severity: Severity::Error,
            subject: p.path.clone(),
            message: p.message.clone(),
            fix: "correct the reference".into(),
            pos: loc.path(&p.path).unwrap_or(Pos { line: 1, column: 1 }),
            waived: None,
        })
        .collect();
    out.extend(a.diagnostics.iter().map(|d| Finding {
        rule: d.rule.to_string(),
        severity: d.severity,
        subject: subject_label(&d.subject),
        message: d.message().to_string(),
        fix: d.fix().to_string(),
        pos: loc.path_or_start(&d.subject.path(project, &a.model)),
        waived: d.waived.as_deref().map(crate::output::report::waiver_line),
    }));
    out
}

fn sarif_level(s: Severity) -> &'static str {
    match s {
        Severity::Error => "error",
        Severity::Warning => "warning",
        Severity::Hint => "note",
    }
}

/// FNV-1a: a stable fingerprint, the same on every machine and release,
/// so code scanning tells new findings from old ones.
fn fingerprint(parts: &[&str]) -> String {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for p in parts {
        for b in p.bytes().chain([0u8]) {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{h:016x}")
}

/// A file path as a relative URI reference: forward slashes, anything but
/// unreserved characters percent-encoded.
pub(crate) fn uri(path: &str) -> String {
    let path = path.replace('\\', "/");
    let path = path.strip_prefix("./").unwrap_or(&path);
    let mut s = String::with_capacity(path.len());
    for b in path.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~/".contains(&b) {
            s.push(b as char);
        } else {
            let _ = write!(s, "%{b:02X}");
        }
    }
    s
}

/// The SARIF 2.1.0 log of one project file.
pub fn sarif(file: &str, findings: &[Finding]) -> String {
    let mut rules: Vec<Value> = vec![json!({
        "id": REFERENCE_RULE,
        "shortDescription": {"text": "A name in the project refers to nothing"},
        "defaultConfiguration": {"level": "error"},
        "help": {"text": "Loading the project: every referenced entity, relationship, attribute, query and type must exist."},
    })];
    rules.extend(RULES.iter().map(|r| {
        json!({
            "id": r.id,
            "shortDescription": {"text": r.title},
            "defaultConfiguration": {"level": sarif_level(r.severity)},
            "help": {"text": format!("Source: {}", r.source)},
            "properties": {"source": r.source},
        })
    }));
    let rule_index = |id: &str| -> Option<usize> {
        if id == REFERENCE_RULE {
            Some(0)
        } else {
            RULES.iter().position(|r| r.id == id).map(|i| i + 1)
        }
    };
    let location = uri(file);
    let results: Vec<Value> = findings
        .iter()
        .map(|f| {
            let mut r = json!({
                "ruleId": f.rule,
                "level": sarif_level(f.severity),
                "message": {"text": format!("{}: {} Fix: {}", f.subject, f.message, f.fix)},
                "locations": [{
                    "physicalLocation": {
                        "artifactLocation": {"uri": location},
                        "region": {"startLine": f.pos.line, "startColumn": f.pos.column},
                    },
                    "logicalLocations": [{"fullyQualifiedName": f.subject}],
                }],
                "partialFingerprints": {"cqlmodelFinding/v1": fingerprint(&[&f.rule, &f.subject])},
            });
            if let (Some(i), Some(obj)) = (rule_index(&f.rule), r.as_object_mut()) {
                obj.insert("ruleIndex".into(), i.into());
            }
            // A waiver is a suppression "in source": it lives in the
            // project file the result points at.
            if let (Some(why), Some(obj)) = (&f.waived, r.as_object_mut()) {
                obj.insert(
                    "suppressions".into(),
                    json!([{"kind": "inSource", "status": "accepted", "justification": why}]),
                );
            }
            r
        })
        .collect();
    let log = json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "cqlmodel",
                "version": env!("CARGO_PKG_VERSION"),
                "informationUri": "https://cassandra.apache.org/doc/latest/cassandra/developing/data-modeling/",
                "rules": rules,
            }},
            "columnKind": "unicodeCodePoints",
            "artifacts": [{"location": {"uri": location}}],
            "results": results,
        }],
    });
    let mut s = serde_json::to_string_pretty(&log).unwrap_or_else(|_| "{}".into());
    s.push('\n');
    s
}

/// Escapes for a workflow command's message (`%`, CR, LF) and, in
/// properties, also `:` and `,`.
fn command_escape(text: &str, property: bool) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '%' => s.push_str("%25"),
            '\r' => s.push_str("%0D"),
            '\n' => s.push_str("%0A"),
            ':' if property => s.push_str("%3A"),
            ',' if property => s.push_str("%2C"),
            c if c.is_control() => s.push('\u{fffd}'),
            c => s.push(c),
        }
    }
    s
}

/// GitHub Actions annotations, one workflow command per finding.
pub fn github(file: &str, findings: &[Finding]) -> String {
    let mut s = String::new();
    let file = command_escape(&file.replace('\\', "/"), true);
    // A waived finding is judged already: no annotation on the change.
    for f in findings.iter().filter(|f| f.waived.is_none()) {
        let level = match f.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Hint => "notice",
        };
        let _ = writeln!(
            s,
            "::{level} file={file},line={},col={},title={}::{}",
            f.pos.line,
            f.pos.column,
            command_escape(&format!("{} ({})", f.rule, f.subject), true),
            command_escape(&format!("{} Fix: {}", f.message, f.fix), false)
        );
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn workflow_commands_escape_their_data() {
        assert_eq!(command_escape("a:b,c%\n", true), "a%3Ab%2Cc%25%0A");
        assert_eq!(command_escape("a:b,c%\r\n", false), "a:b,c%25%0D%0A");
        assert_eq!(command_escape("\u{1b}[1m", false), "\u{fffd}[1m");
    }

    #[test]
    fn uris_are_relative_and_encoded() {
        assert_eq!(
            uri("./models/my model.cqlm.ron"),
            "models/my%20model.cqlm.ron"
        );
        assert_eq!(uri("a\\b.ron"), "a/b.ron");
    }

    #[test]
    fn fingerprints_are_stable_and_distinct() {
        assert_eq!(fingerprint(&["a", "b"]), fingerprint(&["a", "b"]));
        assert_ne!(fingerprint(&["ab", ""]), fingerprint(&["a", "b"]));
        assert_eq!(fingerprint(&[]), "cbf29ce484222325");
    }
}
