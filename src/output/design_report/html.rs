//! The report as one self-contained HTML file: inline stylesheet and SVG,
//! no script, no font, no network. Written as well-formed XHTML-compatible
//! markup (every element closed, numeric character references only) so it
//! parses as XML too.

use super::{
    access_text, by_severity, entity_anchor, finding_anchor, findings_on_query, findings_on_table,
    human_bytes, level, notes_on, provenance, query_anchor, relationship_anchor, search_text,
    subject_anchor, summary, table_anchor, target_anchor, target_label, thresholds_line,
    writes_by_table, Analysis, Project, Summary, Target,
};
use crate::output::diagram::{self, layout, svg, View};
use crate::output::markup::{xml, xml_block};
use std::fmt::Write;

const STYLE: &str = r#"
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: #1f2937; background: #ffffff; margin: 0; line-height: 1.45; }
header, nav, main { max-width: 1100px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 1.7em; margin: 0 0 4px 0; }
h2 { border-bottom: 2px solid #e5e7eb; padding-bottom: 4px; margin-top: 40px; }
h3 { margin: 28px 0 6px 0; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; }
nav ol { display: flex; flex-wrap: wrap; gap: 4px 20px; padding-left: 0; list-style: none; }
a { color: #1d4ed8; }
table { border-collapse: collapse; margin: 8px 0 16px 0; width: 100%; font-size: 0.92em; }
th, td { border: 1px solid #e5e7eb; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f9fafb; }
code, pre, .mono { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: #f6f8fa; border: 1px solid #e5e7eb; border-radius: 4px; padding: 8px 12px; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
.diagram { border: 1px solid #e5e7eb; border-radius: 4px; overflow: auto; max-height: 80vh; margin: 8px 0; }
.diagram svg { display: block; }
figure { margin: 0; }
figcaption { color: #6b7280; font-size: 0.9em; }
.muted { color: #6b7280; }
.marker { font-weight: bold; color: #166534; white-space: nowrap; }
.badge { display: inline-block; border-radius: 10px; padding: 0 8px; font-size: 0.85em; font-weight: 600; border: 1px solid transparent; }
.ok { background: #dcfce7; color: #14532d; border-color: #86efac; }
.near { background: #fef9c3; color: #713f12; border-color: #fde047; }
.over { background: #fee2e2; color: #7f1d1d; border-color: #fca5a5; }
.estimate { border-left: 4px solid #9ca3af; padding: 4px 10px; margin: 8px 0; }
.estimate.ok { border-left-color: #16a34a; }
.estimate.near { border-left-color: #ca8a04; }
.estimate.over { border-left-color: #dc2626; }
.sev-error { color: #991b1b; font-weight: 600; }
.sev-warning { color: #92400e; font-weight: 600; }
.sev-hint { color: #1e40af; font-weight: 600; }
.note { background: #fffbeb; border: 1px solid #fde68a; border-radius: 4px; padding: 4px 10px; margin: 6px 0; }
.note::before { content: "Review note: "; font-weight: 600; }
article.table { border-top: 1px solid #e5e7eb; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(180px, 1fr)); gap: 8px; }
.card { border: 1px solid #e5e7eb; border-radius: 6px; padding: 8px 12px; }
.card b { display: block; font-size: 1.3em; }
@media print {
  nav { display: none; }
  header, main { max-width: none; padding: 0; }
  .diagram { overflow: visible; max-height: none; border: none; }
  .diagram svg { max-width: 100%; height: auto; }
  article.table, figure, tr { break-inside: avoid; }
  h2 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  pre { white-space: pre-wrap; }
}
"#;

fn link(anchor: Option<&str>, text: &str) -> String {
    match anchor {
        Some(a) => format!("<a href=\"#{}\">{}</a>", xml(a), xml(text)),
        None => xml(text),
    }
}

fn notes_html(notes: &[&crate::model::Note]) -> String {
    let mut s = String::new();
    for n in notes {
        let _ = write!(s, "<div class=\"note\">{}</div>", xml(&n.text));
    }
    s
}

fn finding_links(a: &Analysis, idx: &[usize]) -> String {
    idx.iter()
        .map(|&i| {
            let d = &a.diagnostics[i];
            format!(
                "<a class=\"sev-{}\" href=\"#{}\">{} {}</a>",
                d.severity.label(),
                finding_anchor(i),
                d.severity.label(),
                xml(d.rule)
            )
        })
        .collect::<Vec<_>>()
        .join(", ")
}

fn diagram_svg(view: View, project: &Project, a: &Analysis) -> String {
    let d = diagram::build(view, project, a);
    let lay = layout::layout(&d);
    svg::render(
        &d,
        &lay,
        &svg::Options {
            links: true,
            id_prefix: format!("d-{}", view.name()),
        },
    )
}

fn figure(s: &mut String, view: View, project: &Project, a: &Analysis, caption: &str) {
    let _ = writeln!(
        s,
        "<figure><div class=\"diagram\">\n{}</div><figcaption>{}</figcaption></figure>",
        diagram_svg(view, project, a),
        xml(caption)
    );
}

pub fn render(project: &Project, a: &Analysis) -> String {
    let sum = summary(project, a);
    let mut s = String::with_capacity(64 * 1024);
    head(&mut s, project, &sum);
    summary_section(&mut s, project, a, &sum);
    conceptual_section(&mut s, project, a);
    workflow_section(&mut s, project, a);
    logical_section(&mut s, project, a);
    tables_section(&mut s, project, a, &sum);
    findings_section(&mut s, project, a, &sum);
    notes_section(&mut s, project, a);
    if crate::model::workload::states_workload(project) {
        let _ = writeln!(
            s,
            "<section id=\"cost\"><h2>8. Cost</h2>\n<p>What the design costs the cluster under the stated workload (<code>cqlmodel cost</code>).</p><pre><code>{}</code></pre></section>",
            xml_block(super::cost_text(project, a).trim_end())
        );
    }
    s.push_str("</main>\n</body>\n</html>\n");
    s
}

/// The document's head: title, generator, contents.
fn head(s: &mut String, project: &Project, sum: &Summary) {
    let title = format!("Design review: {}", project.name);
    s.push_str("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n");
    let _ = writeln!(
        s,
        "<meta name=\"generator\" content=\"cqlmodel {}\"/>",
        env!("CARGO_PKG_VERSION")
    );
    // No favicon request either: the file must work offline and from disk.
    s.push_str("<link rel=\"icon\" href=\"data:,\"/>\n");
    let _ = writeln!(s, "<title>{}</title>", xml(&title));
    let _ = writeln!(s, "<style>{STYLE}</style>\n</head>\n<body>");
    let _ = writeln!(
        s,
        "<header><h1>{}</h1><p class=\"muted\">Keyspace <code>{}</code>, replication factor {} · generated by cqlmodel {} from the project file; estimates are the project's, not measurements.</p></header>",
        xml(&title),
        xml(&project.keyspace.name),
        sum.rf,
        env!("CARGO_PKG_VERSION")
    );
    s.push_str("<nav><ol><li>1. <a href=\"#summary\">Summary</a></li><li>2. <a href=\"#conceptual\">Conceptual model</a></li><li>3. <a href=\"#workflow\">Application workflow</a></li><li>4. <a href=\"#logical\">Logical model</a></li><li>5. <a href=\"#tables\">Tables</a></li><li>6. <a href=\"#findings\">Findings</a></li><li>7. <a href=\"#notes\">Review notes</a></li></ol></nav>\n<main>\n");
}

/// 1. Summary
fn summary_section(s: &mut String, project: &Project, a: &Analysis, sum: &Summary) {
    let model = &a.model;
    s.push_str("<section id=\"summary\"><h2>1. Summary</h2>\n<div class=\"cards\">");
    let card = |s: &mut String, n: String, what: &str| {
        let _ = write!(
            s,
            "<div class=\"card\"><b>{}</b>{}</div>",
            xml(&n),
            xml(what)
        );
    };
    card(s, sum.tables.to_string(), "tables");
    card(s, sum.queries.to_string(), "queries");
    card(s, sum.errors.to_string(), "errors");
    card(s, sum.warnings.to_string(), "warnings");
    card(s, sum.hints.to_string(), "hints");
    card(
        s,
        human_bytes(sum.disk_bytes),
        &format!("total disk with replication (RF {})", sum.rf),
    );
    s.push_str("</div>\n");
    if let Some(i) = sum.largest {
        let e = &a.estimates[i];
        let t = &model.tables[i];
        let lvl = level(e, &project.thresholds);
        let _ = writeln!(
            s,
            "<p>Largest partition: {} — {} values, {} on average, worst case {} values, {} <span class=\"badge {}\">{}</span></p>",
            link(Some(&table_anchor(i)), &t.name),
            crate::model::quantity::count(e.values),
            human_bytes(e.partition_bytes),
            crate::model::quantity::count(e.values_max),
            human_bytes(e.partition_bytes_max),
            lvl.class(),
            lvl.label()
        );
    }
    let _ = writeln!(s, "<p>{}.</p>", xml(&thresholds_line(&project.thresholds)));
    s.push_str("<h3>Assumptions the numbers rest on</h3>\n");
    if sum.assumptions.is_empty() {
        s.push_str("<p class=\"muted\">None: every count and size comes from the project.</p>\n");
    } else {
        s.push_str("<ul>");
        for n in &sum.assumptions {
            let _ = write!(s, "<li>{}</li>", xml(n));
        }
        s.push_str("</ul>\n");
    }
    if !model.problems.is_empty() {
        s.push_str("<h3>Problems the derivation could not honour</h3><ul>");
        for p in &model.problems {
            let _ = write!(s, "<li>{}</li>", xml(&p.to_string()));
        }
        s.push_str("</ul>\n");
    }
    s.push_str("</section>\n");
}

/// 2. Conceptual model
fn conceptual_section(s: &mut String, project: &Project, a: &Analysis) {
    s.push_str("<section id=\"conceptual\"><h2>2. Conceptual model</h2>\n");
    figure(
        s,
        View::Er,
        project,
        a,
        "Entities with their attributes (K: key), relationships with cardinalities; weak entities have a double border and a bold identifying line.",
    );
    s.push_str("<table><thead><tr><th>Entity</th><th>Key</th><th>Attributes</th><th>Instances</th><th>Retention</th><th>Review</th></tr></thead><tbody>\n");
    for (i, e) in project.entities.iter().enumerate() {
        let key = match &e.owner {
            Some(o) => format!("{} (weak, through {o})", e.key.join(", ")),
            None => e.key.join(", "),
        };
        let attrs: Vec<String> = e
            .attributes
            .iter()
            .map(|at| format!("<code>{}</code> {}", xml(&at.name), xml(&at.ty.to_string())))
            .collect();
        let notes = notes_on(project, &Target::Entity(e.name.clone()));
        let _ = writeln!(
            s,
            "<tr id=\"{}\"><td><b>{}</b></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            entity_anchor(i),
            xml(&e.name),
            xml(&key),
            attrs.join("<br/>"),
            e.count.map_or_else(
                || "—".into(),
                |c| format!(
                    "{}{}",
                    crate::derive::estimate::group_digits(c),
                    e.per.map(|p| format!(" per {}", p.name())).unwrap_or_default()
                )
            ),
            super::retention_cell(e),
            notes_html(&notes)
        );
    }
    s.push_str("</tbody></table>\n");
    if !project.relationships.is_empty() {
        s.push_str("<table><thead><tr><th>Relationship</th><th>From</th><th>To</th><th>Cardinality</th><th>Per instance</th><th>Review</th></tr></thead><tbody>\n");
        for (i, r) in project.relationships.iter().enumerate() {
            let per = |c: &Option<crate::model::Count>| -> String {
                c.as_ref()
                    .map(|c| {
                        let mut t = crate::model::quantity::count(c.avg);
                        if let Some(m) = c.max {
                            let _ = write!(t, " (max {})", crate::model::quantity::count(m));
                        }
                        if let Some(p) = c.per {
                            let _ = write!(t, " per {}", p.name());
                        }
                        t
                    })
                    .unwrap_or_default()
            };
            let mut counts = vec![];
            if r.to_per_from.is_some() {
                counts.push(format!("{} {} per {}", per(&r.to_per_from), r.to, r.from));
            }
            if r.from_per_to.is_some() {
                counts.push(format!("{} {} per {}", per(&r.from_per_to), r.from, r.to));
            }
            let notes = notes_on(project, &Target::Relationship(r.name.clone()));
            let _ = writeln!(
                s,
                "<tr id=\"{}\"><td><b>{}</b></td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
                relationship_anchor(i),
                xml(&r.name),
                xml(&r.from),
                xml(&r.to),
                r.cardinality.notation(),
                xml(&counts.join("; ")),
                notes_html(&notes)
            );
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
}

/// 3. Workflow
fn workflow_section(s: &mut String, project: &Project, a: &Analysis) {
    let model = &a.model;
    s.push_str("<section id=\"workflow\"><h2>3. Application workflow</h2>\n");
    figure(
        s,
        View::Workflow,
        project,
        a,
        "Entry points and queries; each arrow names what one query passes on to the next.",
    );
    s.push_str("<table><thead><tr><th>Query</th><th>Access pattern</th><th>Rows</th><th>Search</th><th>Table</th><th>Served</th><th>Review</th></tr></thead><tbody>\n");
    for (i, q) in project.queries.iter().enumerate() {
        let plan = model.plan(&q.id);
        let table = plan.and_then(|p| p.table);
        let table_cell = match table {
            Some(t) => link(Some(&table_anchor(t)), &model.tables[t].name),
            None => "<span class=\"sev-error\">none</span>".into(),
        };
        let served = plan.map_or_else(|| "no plan".into(), access_text);
        let entry = if project.workflow.entry.contains(&q.id) {
            " <span class=\"badge ok\">entry</span>"
        } else {
            ""
        };
        let notes = notes_on(project, &Target::Query(q.id.clone()));
        let findings = finding_links(a, &findings_on_query(a, &q.id));
        let _ = writeln!(
            s,
            "<tr id=\"{}\"><td><b>{}</b>{entry}</td><td>{}</td><td>{}</td><td>{}</td><td>{table_cell}</td><td>{}</td><td>{}{}</td></tr>",
            query_anchor(i),
            xml(&q.id),
            xml(&q.text),
            xml(&q.rows),
            xml(&search_text(q)),
            xml(&served),
            notes_html(&notes),
            findings
        );
    }
    s.push_str("</tbody></table>\n");
    if !project.workflow.transitions.is_empty() {
        s.push_str(
            "<table><thead><tr><th>From</th><th>To</th><th>Passes on</th></tr></thead><tbody>\n",
        );
        let q_link = |id: &str| {
            let anchor = project
                .queries
                .iter()
                .position(|q| q.id == id)
                .map(query_anchor);
            link(anchor.as_deref(), id)
        };
        for t in &project.workflow.transitions {
            let _ = writeln!(
                s,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                q_link(&t.from),
                q_link(&t.to),
                xml(&t.feeds.join(", "))
            );
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
}

/// 4. Logical model
fn logical_section(s: &mut String, project: &Project, a: &Analysis) {
    s.push_str("<section id=\"logical\"><h2>4. Logical model (Chebotko diagram)</h2>\n");
    figure(
        s,
        View::Logical,
        project,
        a,
        "One box per table: K partition key, C↑/C↓ clustering column with its order, S static column. Arrows carry the queries of the workflow to the tables that serve them; a box links to its table below.",
    );
    s.push_str("</section>\n");
}

/// 5. Tables
fn tables_section(s: &mut String, project: &Project, a: &Analysis, sum: &Summary) {
    let model = &a.model;
    let writes = writes_by_table(model);
    s.push_str("<section id=\"tables\"><h2>5. Tables</h2>\n");
    let rf = sum.rf;
    for (i, t) in model.tables.iter().enumerate() {
        let _ = write!(
            s,
            "<article class=\"table\" id=\"{}\"><h3>{}",
            table_anchor(i),
            xml(&t.name)
        );
        let est = a.estimates.get(i);
        if let Some(e) = est {
            let lvl = level(e, &project.thresholds);
            let _ = write!(
                s,
                " <span class=\"badge {}\">{}</span>",
                lvl.class(),
                lvl.label()
            );
        }
        s.push_str("</h3>\n");
        let serves: Vec<String> = t
            .queries
            .iter()
            .map(|q| {
                let anchor = project
                    .queries
                    .iter()
                    .position(|x| &x.id == q)
                    .map(query_anchor);
                link(anchor.as_deref(), q)
            })
            .collect();
        let mut meta = format!(
            "Rows: {} · serves {} · built for {}",
            xml(&t.rows),
            serves.join(", "),
            xml(&t.origin)
        );
        if let Some(c) = &t.candidate {
            let _ = write!(meta, " · candidate key {}", xml(c));
        }
        if let Some(ttl) = t.ttl_seconds {
            let _ = write!(
                meta,
                " · default TTL {} s",
                crate::derive::estimate::group_digits(ttl as f64)
            );
        }
        let _ = writeln!(s, "<p>{meta}</p>");
        s.push_str("<ul class=\"physical\">");
        for (what, why) in crate::derive::physical::summary(t) {
            let _ = write!(s, "<li>{what}: {}</li>", xml(&why));
        }
        s.push_str("</ul>\n");
        s.push_str(&notes_html(&notes_on(
            project,
            &Target::Table(t.name.to_string()),
        )));
        s.push_str("<table><thead><tr><th></th><th>Column</th><th>Type</th><th>Provenance</th></tr></thead><tbody>\n");
        for c in &t.columns {
            let _ = writeln!(
                s,
                "<tr><td class=\"marker\">{}</td><td><code>{}</code></td><td><code>{}</code></td><td>{}</td></tr>",
                xml(c.role.marker()),
                xml(&c.name),
                xml(&c.ty.to_string()),
                xml(&provenance(c))
            );
        }
        s.push_str("</tbody></table>\n");
        if !t.dropped.is_empty() {
            let _ = writeln!(
                s,
                "<p class=\"muted\">Left out (a counter table holds only counters): {}</p>",
                xml(&t.dropped.join(", "))
            );
        }
        if let Some(e) = est {
            let lvl = level(e, &project.thresholds);
            let _ = writeln!(
                s,
                "<div class=\"estimate {}\"><b>Estimate</b> ({}): {}<br/><span class=\"muted\">Nr rows per partition {}, worst {}; Nv values {}, worst {}; St size {}, worst {}; limits {} values, {}.</span></div>",
                lvl.class(),
                lvl.label(),
                xml(&crate::output::report::estimate_line(e, rf)),
                crate::model::quantity::count(e.rows_per_partition),
                crate::model::quantity::count(e.rows_per_partition_max),
                crate::model::quantity::count(e.values),
                crate::model::quantity::count(e.values_max),
                human_bytes(e.partition_bytes),
                human_bytes(e.partition_bytes_max),
                crate::derive::estimate::group_digits(project.thresholds.max_values),
                human_bytes(project.thresholds.max_bytes)
            );
            if !e.assumptions.is_empty() {
                s.push_str("<ul class=\"muted\">");
                for n in &e.assumptions {
                    let _ = write!(s, "<li>assumed: {}</li>", xml(n));
                }
                s.push_str("</ul>\n");
            }
        }
        let _ = writeln!(
            s,
            "<pre><code>{}</code></pre>",
            xml_block(crate::output::cql::table(project, t).trim_end())
        );
        for p in model.plans.iter().filter(|p| p.table == Some(i)) {
            let text = project.query(&p.query).map_or("", |q| q.text.as_str());
            let _ = writeln!(
                s,
                "<p><b>{}</b> {}{}</p><pre><code>{}</code></pre>",
                xml(&p.query),
                xml(text),
                if p.access.is_direct() {
                    String::new()
                } else {
                    format!(
                        " <span class=\"sev-warning\">({})</span>",
                        xml(&access_text(p))
                    )
                },
                xml_block(&p.select)
            );
        }
        let writes = writes.get(t.name.as_str()).map_or(&[][..], Vec::as_slice);
        if !writes.is_empty() {
            s.push_str("<p><b>Write paths</b></p><ul>");
            for w in writes {
                let _ = write!(s, "<li>{}</li>", xml(w));
            }
            s.push_str("</ul>\n");
        }
        let f = findings_on_table(a, &t.name);
        if !f.is_empty() {
            let _ = writeln!(s, "<p><b>Findings:</b> {}</p>", finding_links(a, &f));
        }
        s.push_str("</article>\n");
    }
    let unserved = model.unserved_queries();
    if !unserved.is_empty() {
        let _ = writeln!(
            s,
            "<p class=\"sev-error\">Queries without a table: {}</p>",
            xml(&unserved.join(", "))
        );
    }
    s.push_str("</section>\n");
}

/// 6. Findings
fn findings_section(s: &mut String, project: &Project, a: &Analysis, sum: &Summary) {
    let model = &a.model;
    s.push_str("<section id=\"findings\"><h2>6. Findings</h2>\n");
    let _ = writeln!(s, "<p>{}.</p>", xml(&super::counts_line(sum)));
    if !a.diagnostics.is_empty() {
        s.push_str("<table><thead><tr><th>Severity</th><th>Rule</th><th>Subject</th><th>What goes wrong</th><th>Fix</th><th>Source</th></tr></thead><tbody>\n");
        for (i, d) in by_severity(a) {
            let anchor = subject_anchor(project, model, &d.subject);
            let _ = writeln!(
                s,
                "<tr id=\"{}\"><td class=\"sev-{}\">{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td class=\"muted\">{}</td></tr>",
                finding_anchor(i),
                d.severity.label(),
                d.severity.label(),
                xml(d.rule),
                link(anchor.as_deref(), &crate::output::report::subject_label(&d.subject)),
                xml(&super::finding_text(d)),
                xml(d.fix()),
                xml(d.source)
            );
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
}

/// 7. Review notes
fn notes_section(s: &mut String, project: &Project, a: &Analysis) {
    let model = &a.model;
    s.push_str("<section id=\"notes\"><h2>7. Review notes</h2>\n");
    if project.notes.is_empty() {
        s.push_str("<p class=\"muted\">No notes in the project (add them with <code>notes: [Note(target: Table(\"…\"), text: \"…\")]</code>).</p>\n");
    } else {
        s.push_str("<p>Notes from the project file; each is also shown beside its item above.</p><table><thead><tr><th>Item</th><th>Note</th></tr></thead><tbody>\n");
        for n in &project.notes {
            let anchor = target_anchor(project, model, &n.target);
            let item = match &anchor {
                Some(_) => link(anchor.as_deref(), &target_label(&n.target)),
                None => format!(
                    "{} <span class=\"muted\">(no such item)</span>",
                    xml(&target_label(&n.target))
                ),
            };
            let _ = writeln!(s, "<tr><td>{item}</td><td>{}</td></tr>", xml(&n.text));
        }
        s.push_str("</tbody></table>\n");
    }
    s.push_str("</section>\n");
}
