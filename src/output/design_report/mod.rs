//! The design report a team reviews: summary with assumptions, the three
//! diagrams, every table with its provenance, estimate, CQL, SELECTs and
//! write paths, the findings and the review notes. One content, two
//! formats: self-contained HTML (printable, no network) and Markdown with
//! Mermaid blocks for pull requests and wikis. Output is deterministic: the
//! same project gives the same bytes.

pub mod html;
pub mod markdown;

use crate::analysis::Analysis;
use crate::derive::estimate::{human_bytes, Estimate};
use crate::derive::{Column, LogicalModel, Plan, Source};
use crate::model::{Note, Project, Target, Thresholds};
use crate::output::diagram::{entity_anchor, query_anchor, relationship_anchor, table_anchor};
use crate::review::diagnose::{Diagnostic, Severity, Subject};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Markdown,
    Html,
}

impl Format {
    /// The format a file name asks for: `.md` and `.markdown` are Markdown,
    /// anything else HTML.
    pub(crate) fn from_extension(path: &std::path::Path) -> Format {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref()
        {
            Some("md" | "markdown") => Format::Markdown,
            _ => Format::Html,
        }
    }
}

/// The report of a project in a format.
pub fn render(project: &Project, a: &Analysis, format: Format) -> String {
    match format {
        Format::Markdown => markdown::render(project, a),
        Format::Html => html::render(project, a),
    }
}

/// A partition estimate against the project's thresholds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Average and worst case well within the limits.
    Within,
    /// The worst case exceeds a limit, or the average is past half of one.
    Near,
    /// The average partition exceeds a limit.
    Over,
}

impl Level {
    pub fn label(self) -> &'static str {
        match self {
            Level::Within => "within limits",
            Level::Near => "near limits",
            Level::Over => "over limits",
        }
    }

    pub fn class(self) -> &'static str {
        match self {
            Level::Within => "ok",
            Level::Near => "near",
            Level::Over => "over",
        }
    }
}

pub fn level(e: &Estimate, th: &Thresholds) -> Level {
    if e.values > th.max_values || e.partition_bytes > th.max_bytes {
        Level::Over
    } else if e.values_max > th.max_values
        || e.partition_bytes_max > th.max_bytes
        || e.values > th.max_values / 2.0
        || e.partition_bytes > th.max_bytes / 2.0
    {
        Level::Near
    } else {
        Level::Within
    }
}

/// The numbers of the summary.
pub struct Summary {
    pub tables: usize,
    pub queries: usize,
    pub errors: usize,
    pub warnings: usize,
    pub hints: usize,
    /// Findings the designer waived (counted in none of the above).
    pub waived: usize,
    /// Table with the largest worst-case partition, by index.
    pub largest: Option<usize>,
    pub disk_bytes: f64,
    pub rf: u32,
    /// Every assumption the estimates rest on, once, in table order.
    pub assumptions: Vec<String>,
}

pub fn summary(project: &Project, a: &Analysis) -> Summary {
    // Waived findings are listed, but counted apart.
    let count = |s: Severity| {
        a.diagnostics
            .iter()
            .filter(|d| d.severity == s && d.waived.is_none())
            .count()
    };
    let mut largest: Option<usize> = None;
    for (i, e) in a.estimates.iter().enumerate() {
        if largest.is_none_or(|l| e.partition_bytes_max > a.estimates[l].partition_bytes_max) {
            largest = Some(i);
        }
    }
    let mut assumptions: Vec<String> = vec![];
    let mut seen = std::collections::HashSet::new();
    for e in &a.estimates {
        for n in &e.assumptions {
            if seen.insert(n.as_str()) {
                assumptions.push(n.clone());
            }
        }
    }
    Summary {
        tables: a.model.tables.len(),
        queries: project.queries.len(),
        errors: count(Severity::Error),
        warnings: count(Severity::Warning),
        hints: count(Severity::Hint),
        waived: a.diagnostics.iter().filter(|d| d.waived.is_some()).count(),
        largest,
        disk_bytes: a.estimates.iter().map(|e| e.disk_bytes).sum(),
        rf: project.keyspace.replication.total_factor(),
        assumptions,
    }
}

/// The thresholds the estimates are judged against, for the summary.
/// The cost figures as the command line prints them, for a report.
pub(crate) fn cost_text(project: &Project, a: &Analysis) -> String {
    let c = crate::derive::cost::cost(project, &a.model, &a.estimates);
    crate::output::cost::text(&c)
}

pub(crate) fn thresholds_line(th: &Thresholds) -> String {
    format!(
        "limits per partition: {} values, {}; history without retention assumed {} days",
        crate::derive::estimate::group_digits(th.max_values),
        human_bytes(th.max_bytes),
        crate::derive::estimate::group_digits(th.horizon_days)
    )
}

/// Where a column's value comes from and why it is where it is.
pub fn provenance(c: &Column) -> String {
    let what = match &c.source {
        Source::Attr {
            attribute, flow, ..
        } => format!("{attribute} ({})", flow.label()),
        Source::Bucket { source, period } => {
            format!("time bucket of {source} per {}", period.name())
        }
        Source::Shard { count } => format!("shard number 0..{count}"),
        Source::Constant => "constant".into(),
        Source::Collection { columns } => format!("collection of {}", columns.join(", ")),
        Source::Aggregate { .. } => c.source.computation().unwrap_or_default(),
    };
    format!("{what}; {} (placed by {})", c.rule.label(), c.query)
}

/// How a query is answered, for people.
pub(crate) fn access_text(p: &Plan) -> String {
    match p.access.reason() {
        Some(why) => format!("{}: {why}", p.access.label()),
        None => "direct".into(),
    }
}

/// Tables an insert line names before it counts the rest: a table shared
/// by many paths would otherwise list every other table, and a report of
/// many tables of one entity would grow with their square.
const OTHERS_NAMED: usize = 6;

/// Each table's write paths for people, by table name, made in one pass:
/// an insert that also writes other tables (the first few named, the
/// rest counted), and each update that touches the table.
pub(crate) fn writes_by_table(
    model: &LogicalModel,
) -> std::collections::HashMap<&str, Vec<String>> {
    let mut out: std::collections::HashMap<&str, Vec<String>> = std::collections::HashMap::new();
    for w in &model.writes {
        for t in &w.insert {
            let others: Vec<&str> = w
                .insert
                .iter()
                .filter(|o| **o != *t)
                .map(|o| &**o)
                .collect();
            let line = if others.is_empty() {
                format!("insert of a {}: this table only", w.item)
            } else if others.len() <= OTHERS_NAMED {
                format!(
                    "insert of a {}: also {} (a logged batch keeps them together)",
                    w.item,
                    others.join(", ")
                )
            } else {
                format!(
                    "insert of a {}: also {} and {} more ({} tables in all; a logged batch keeps them together)",
                    w.item,
                    others[..OTHERS_NAMED].join(", "),
                    others.len() - OTHERS_NAMED,
                    w.insert.len()
                )
            };
            out.entry(&**t).or_default().push(line);
        }
        for u in &w.update {
            let n = u.tables.len();
            for (t, key) in &u.tables {
                let how = if *key {
                    "a key column here: delete + insert"
                } else {
                    "in place"
                };
                out.entry(&**t).or_default().push(format!(
                    "update of {}.{}: {how}; {n} table(s) in all",
                    w.item, u.attribute
                ));
            }
        }
    }
    out
}

/// The report anchor of the item a diagnostic is about, if it has one.
pub(crate) fn subject_anchor(
    project: &Project,
    model: &LogicalModel,
    s: &Subject,
) -> Option<String> {
    let table = |name: &str| {
        model
            .tables
            .iter()
            .position(|t| t.name == name)
            .map(table_anchor)
    };
    let item = |name: &str| {
        project
            .entities
            .iter()
            .position(|e| e.name == name)
            .map(entity_anchor)
            .or_else(|| {
                project
                    .relationships
                    .iter()
                    .position(|r| r.name == name)
                    .map(relationship_anchor)
            })
    };
    match s {
        Subject::Project | Subject::Path(_) => None,
        Subject::Entity(e) => item(e),
        Subject::Relationship(r) => item(r),
        Subject::Attribute { item: i, .. } => item(i),
        Subject::Query(q) => project
            .queries
            .iter()
            .position(|x| &x.id == q)
            .map(query_anchor),
        Subject::Table(t) | Subject::Column { table: t, .. } => table(t),
    }
}

/// The report anchor of a note's target.
pub(crate) fn target_anchor(project: &Project, model: &LogicalModel, t: &Target) -> Option<String> {
    subject_anchor(project, model, &Subject::from(t))
}

pub(crate) fn target_label(t: &Target) -> String {
    match t {
        Target::Entity(e) => format!("entity {e}"),
        Target::Relationship(r) => format!("relationship {r}"),
        Target::Query(q) => format!("query {q}"),
        Target::Table(t) => format!("table {t}"),
    }
}

/// Notes about one item.
pub(crate) fn notes_on<'p>(project: &'p Project, t: &Target) -> Vec<&'p Note> {
    project.notes_for(t).collect()
}

/// Findings about a table (its columns included), by index into the
/// diagnostics.
pub(crate) fn findings_on_table(a: &Analysis, table: &str) -> Vec<usize> {
    a.diagnostics
        .iter()
        .enumerate()
        .filter(|(_, d)| match &d.subject {
            Subject::Table(t) | Subject::Column { table: t, .. } => t == table,
            _ => false,
        })
        .map(|(i, _)| i)
        .collect()
}

/// Findings about a query, by index.
pub(crate) fn findings_on_query(a: &Analysis, query: &str) -> Vec<usize> {
    a.diagnostics
        .iter()
        .enumerate()
        .filter(|(_, d)| matches!(&d.subject, Subject::Query(q) if q == query))
        .map(|(i, _)| i)
        .collect()
}

pub(crate) fn finding_anchor(i: usize) -> String {
    format!("finding-{}", i + 1)
}

/// A finding's "what goes wrong" text, led by its waiver when waived.
pub(crate) fn finding_text(d: &Diagnostic) -> String {
    match &d.waived {
        Some(w) => format!(
            "Waived: {} — {}",
            crate::output::report::waiver_line(w),
            d.message()
        ),
        None => d.message().to_string(),
    }
}

/// The findings' count line: `1 error(s), 2 warning(s), 0 hint(s)`, and
/// the waived ones when there are.
pub(crate) fn counts_line(sum: &Summary) -> String {
    let mut s = format!(
        "{} error(s), {} warning(s), {} hint(s)",
        sum.errors, sum.warnings, sum.hints
    );
    if sum.waived > 0 {
        s.push_str(", ");
        s.push_str(&sum.waived.to_string());
        s.push_str(" waived");
    }
    s
}

/// Diagnostics in report order: errors, warnings, hints, each in the order
/// the review found them.
pub(crate) fn by_severity(a: &Analysis) -> Vec<(usize, &Diagnostic)> {
    let mut v: Vec<(usize, &Diagnostic)> = a.diagnostics.iter().enumerate().collect();
    v.sort_by_key(|(i, d)| (d.severity, *i));
    v
}

/// What a query searches by, in words.
pub(crate) fn search_text(q: &crate::model::Query) -> String {
    let mut parts = vec![];
    if let Some(eq) = q.equality_text() {
        parts.push(format!("= {eq}"));
    }
    if let Some(r) = &q.range {
        parts.push(format!("range on {}", r.attr));
    }
    if !q.order.is_empty() {
        let o: Vec<String> = q
            .order
            .iter()
            .map(|o| format!("{} {}", o.attr, o.dir.cql()))
            .collect();
        parts.push(format!("order by {}", o.join(", ")));
    }
    if let Some(l) = q.limit {
        parts.push(format!("limit {l}"));
    }
    if let Some(c) = q.stated_text() {
        parts.push(c);
    }
    if q.consumes {
        parts.push("consumes".into());
    }
    if parts.is_empty() {
        "everything".into()
    } else {
        parts.join("; ")
    }
}

/// An entity's retention for the report's figures table: whole days as
/// `730 days`, any other unit as typed (`20s`, `12h`, `2y`), never a
/// fraction of a day rounded to "0 days".
pub(crate) fn retention_cell(e: &crate::model::Entity) -> String {
    let ttl = if e.ttl { ", TTL" } else { "" };
    match (e.retention_days, e.retention_unit) {
        (None, _) => "—".into(),
        (Some(d), None) => format!("{} days{ttl}", crate::derive::estimate::group_digits(d)),
        (Some(_), Some(_)) => format!(
            "{}{ttl}",
            e.retention().map(|s| s.to_string()).unwrap_or_default()
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn est(values: f64, values_max: f64, bytes: f64, bytes_max: f64) -> Estimate {
        Estimate {
            values,
            values_max,
            partition_bytes: bytes,
            partition_bytes_max: bytes_max,
            ..Default::default()
        }
    }

    #[test]
    fn levels_against_thresholds() {
        let th = Thresholds::default();
        assert_eq!(level(&est(10.0, 10.0, 1e3, 1e3), &th), Level::Within);
        assert_eq!(level(&est(10.0, 2e5, 1e3, 1e3), &th), Level::Near);
        assert_eq!(level(&est(6e4, 6e4, 1e3, 1e3), &th), Level::Near);
        assert_eq!(level(&est(2e5, 2e5, 1e3, 1e3), &th), Level::Over);
        assert_eq!(level(&est(10.0, 10.0, 2e8, 2e8), &th), Level::Over);
    }

    #[test]
    fn report_format_from_extension() {
        use std::path::Path;
        assert_eq!(Format::from_extension(Path::new("r.md")), Format::Markdown);
        assert_eq!(Format::from_extension(Path::new("r.HTML")), Format::Html);
        assert_eq!(Format::from_extension(Path::new("r")), Format::Html);
    }
}
