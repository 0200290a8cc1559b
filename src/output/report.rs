//! Plain-text reports of a derived model: the logical tables in Chebotko
//! notation with served queries and estimates, for terminals, files and
//! reviews.

use crate::analysis::Analysis;
use crate::derive::estimate::Estimate;
use crate::model::naming::for_terminal;
use crate::model::quantity::count;
use crate::model::quantity::{group_digits, human_bytes};
use crate::model::Project;
use std::fmt::Write;

/// The one-line estimate summary of a table.
pub(crate) fn estimate_line(e: &Estimate, rf: u32) -> String {
    let mut s = format!(
        "{} rows in {} partitions; Nr {}",
        group_digits(e.rows),
        group_digits(e.partitions),
        count(e.rows_per_partition)
    );
    if e.rows_per_partition_max > e.rows_per_partition * 1.0001 {
        let _ = write!(s, " (worst {})", count(e.rows_per_partition_max));
    }
    let _ = write!(
        s,
        ", Nv {}, St {}",
        count(e.values),
        human_bytes(e.partition_bytes)
    );
    if e.partition_bytes_max > e.partition_bytes * 1.0001 {
        let _ = write!(s, " (worst {})", human_bytes(e.partition_bytes_max));
    }
    let _ = write!(
        s,
        "; table {}, disk {} (RF {rf})",
        human_bytes(e.table_bytes),
        human_bytes(e.disk_bytes)
    );
    s
}

/// The logical model in Chebotko notation: K, C↑, C↓ and S markers, the
/// queries each table serves, its estimates and the SELECTs.
pub fn chebotko(project: &Project, a: &Analysis) -> String {
    let rf = project.keyspace.replication.total_factor();
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{} — keyspace {} — {} tables for {} queries",
        for_terminal(&project.name),
        for_terminal(&project.keyspace.name),
        a.model.tables.len(),
        project.queries.len()
    );
    for (i, t) in a.model.tables.iter().enumerate() {
        let _ = writeln!(s);
        let _ = writeln!(
            s,
            "{}  (rows: {}; serves {})",
            for_terminal(&t.name),
            for_terminal(&t.rows),
            for_terminal(&t.queries.join(", "))
        );
        let width = t
            .columns
            .iter()
            .map(|c| c.name.chars().count())
            .max()
            .unwrap_or(0);
        let type_width = t
            .columns
            .iter()
            .filter(|c| c.role.is_key())
            .map(|c| c.ty.to_string().chars().count())
            .max()
            .unwrap_or(0);
        for c in &t.columns {
            let name = crate::model::terminal_text::pad_end(&for_terminal(&c.name), width);
            let ty = for_terminal(&c.ty.to_string()).into_owned();
            if c.role.is_key() {
                // Each key column says why it is there.
                let _ = writeln!(
                    s,
                    "  {:<3} {name}  {}  ← {}",
                    c.role.marker(),
                    crate::model::terminal_text::pad_end(&ty, type_width),
                    for_terminal(&c.reason())
                );
            } else {
                let _ = writeln!(s, "  {:<3} {name}  {ty}", c.role.marker());
            }
            if let Some(how) = c.source.computation() {
                let _ = writeln!(s, "        = {}", for_terminal(&how));
            }
        }
        for (what, why) in crate::derive::physical::summary(t) {
            let _ = writeln!(s, "  {what}: {}", for_terminal(&why));
        }
        if let Some(e) = a.estimates.get(i) {
            let _ = writeln!(s, "  estimate: {}", estimate_line(e, rf));
            for n in &e.assumptions {
                let _ = writeln!(s, "    assumed: {}", for_terminal(n));
            }
        }
        for p in a.model.plans.iter().filter(|p| p.table == Some(i)) {
            let _ = writeln!(
                s,
                "  {}: {}",
                for_terminal(&p.query),
                for_terminal(&p.select)
            );
            if let Some(why) = p.access.reason() {
                let _ = writeln!(s, "    {} — {}", p.access.label(), for_terminal(why));
            }
        }
    }
    let writes: Vec<_> = a
        .model
        .writes
        .iter()
        .filter(|w| {
            w.insert.len() > 1
                || !w.job.is_empty()
                || !w.summaries.is_empty()
                || w.update.iter().any(|u| u.tables.len() > 1)
        })
        .collect();
    if !writes.is_empty() {
        let _ = writeln!(s, "\nwrite paths (items stored in more than one table):");
        for w in writes {
            let _ = writeln!(
                s,
                "  {}: an insert writes {}",
                for_terminal(&w.item),
                if w.insert.is_empty() {
                    "no table".into()
                } else {
                    for_terminal(&w.insert.join(", ")).to_string()
                }
            );
            if !w.job.is_empty() {
                let _ = writeln!(s, "    job-written: {}", for_terminal(&w.job.join(", ")));
            }
            if !w.summaries.is_empty() {
                let _ = writeln!(
                    s,
                    "    updated by the application or a job (aggregates): {}",
                    for_terminal(&w.summaries.join(", "))
                );
            }
            for u in w.update.iter().filter(|u| u.tables.len() > 1) {
                let tables: Vec<String> = u
                    .tables
                    .iter()
                    .map(|(t, key)| {
                        if *key {
                            format!("{t} (key: delete + insert)")
                        } else {
                            t.to_string()
                        }
                    })
                    .collect();
                let _ = writeln!(
                    s,
                    "    update {}: {}",
                    for_terminal(&u.attribute),
                    for_terminal(&tables.join(", "))
                );
            }
        }
    }
    let unserved = a.model.unserved_queries();
    if !unserved.is_empty() {
        let _ = writeln!(
            s,
            "\nqueries without a table: {}",
            for_terminal(&unserved.join(", "))
        );
    }
    s
}

/// Diagnostics as text, one block each.
pub fn diagnostics(a: &Analysis) -> String {
    let mut s = String::new();
    for d in &a.diagnostics {
        let _ = writeln!(
            s,
            "{}[{}]{} {}: {}",
            d.severity.label(),
            d.rule,
            if d.waived.is_some() { " (waived)" } else { "" },
            for_terminal(&subject_label(&d.subject)),
            for_terminal(d.message())
        );
        let _ = writeln!(s, "  fix: {}", for_terminal(d.fix()));
        let _ = writeln!(s, "  source: {}", d.source);
        if let Some(w) = &d.waived {
            let _ = writeln!(s, "  waived: {}", for_terminal(&waiver_line(w)));
        }
    }
    s
}

/// A waiver's reason with who and when, when stated.
pub fn waiver_line(w: &crate::model::Waiver) -> String {
    let mut s = w.reason.clone();
    match (&w.by, &w.on) {
        (Some(by), Some(on)) => {
            let _ = write!(s, " ({by}, {on})");
        }
        (Some(x), None) | (None, Some(x)) => {
            let _ = write!(s, " ({x})");
        }
        (None, None) => {}
    }
    s
}

pub fn subject_label(s: &crate::review::diagnose::Subject) -> String {
    s.label()
}
