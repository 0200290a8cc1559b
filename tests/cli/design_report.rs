//! The review artifacts: golden files of the report (Markdown, HTML) and of
//! every diagram view and format for every sample; HTML and SVG parse as
//! XML; no two diagram boxes overlap, at the samples' sizes and at 100+
//! tables; output is deterministic; hostile project strings stay inert.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::model::{load, synthetic, Note, Project, Target};
use cqlmodel::output::design_report::{self, Format};
use cqlmodel::output::diagram::{self, layout, svg, View};
use std::path::{Path, PathBuf};

fn samples() -> Vec<(String, PathBuf)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects");
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .expect("sample-projects/ is readable")
        .filter_map(std::result::Result::ok)
        .map(|e| e.path())
        .filter_map(|p| {
            let name = p.file_name()?.to_str()?.to_string();
            let stem = name.strip_suffix(cqlmodel::model::EXTENSION)?.to_string();
            Some((stem, p))
        })
        .collect();
    out.sort();
    assert!(out.len() >= 6, "samples missing: {out:?}");
    out
}

fn load(path: &Path) -> (Project, Analysis) {
    let p = load::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let a = analyze(&p);
    (p, a)
}

fn parse_xml(what: &str, text: &str) {
    let opt = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..Default::default()
    };
    if let Err(e) = roxmltree::Document::parse_with_options(text, opt) {
        panic!("{what} is not well-formed XML: {e}");
    }
}

#[test]
fn reports_of_every_sample() {
    for (stem, path) in samples() {
        let (p, a) = load(&path);
        let md = design_report::render(&p, &a, Format::Markdown);
        let html = design_report::render(&p, &a, Format::Html);
        parse_xml(&format!("{stem} HTML report"), &html);
        insta::assert_snapshot!(format!("report_md_{stem}"), md);
        insta::assert_snapshot!(format!("report_html_{stem}"), html);
    }
}

#[test]
fn diagrams_of_every_sample() {
    for (stem, path) in samples() {
        let (p, a) = load(&path);
        for view in View::ALL {
            let svg = diagram::render(view, diagram::Format::Svg, &p, &a);
            parse_xml(&format!("{stem} {} SVG", view.name()), &svg);
            let dot = diagram::render(view, diagram::Format::Dot, &p, &a);
            let mermaid = diagram::render(view, diagram::Format::Mermaid, &p, &a);
            let v = view.name();
            insta::assert_snapshot!(format!("diagram_{v}_svg_{stem}"), svg);
            insta::assert_snapshot!(format!("diagram_{v}_dot_{stem}"), dot);
            insta::assert_snapshot!(format!("diagram_{v}_mermaid_{stem}"), mermaid);
        }
    }
}

/// Every DOT diagram of every sample renders with the Graphviz the
/// distribution ships (Debian 12: 2.43, which refuses an empty `<B></B>`).
#[test]
fn dot_diagrams_render_with_graphviz() {
    if crate::support::dot().is_none() {
        return;
    }
    let dir = tempfile::tempdir().expect("tempdir");
    for (stem, path) in samples() {
        let (p, a) = load(&path);
        for view in View::ALL {
            let dot = diagram::render(view, diagram::Format::Dot, &p, &a);
            assert!(
                !dot.contains("<B></B>") && !dot.contains("<I></I>"),
                "{stem}"
            );
            let file = dir.path().join(format!("{stem}-{}.dot", view.name()));
            std::fs::write(&file, &dot).expect("write");
            let out = std::process::Command::new("dot")
                .arg("-Tsvg")
                .arg(&file)
                .output()
                .expect("dot runs");
            assert!(
                out.status.success() && out.stderr.is_empty(),
                "{stem} {}: {}",
                view.name(),
                String::from_utf8_lossy(&out.stderr)
            );
        }
    }
}

fn assert_no_overlap(what: &str, d: &diagram::Diagram) {
    let lay = layout::layout(d);
    assert_eq!(lay.boxes.len(), d.nodes.len());
    for (i, a) in lay.boxes.iter().enumerate() {
        assert!(a.w > 0 && a.h > 0, "{what}: box {i} is empty");
        assert!(
            a.x >= 0 && a.y >= 0 && a.x + a.w <= lay.width && a.y + a.h <= lay.height,
            "{what}: box {i} outside the canvas"
        );
        for (j, b) in lay.boxes.iter().enumerate().skip(i + 1) {
            assert!(
                !a.intersects(b),
                "{what}: boxes {} and {} overlap: {a:?} {b:?}",
                d.nodes[i].title,
                d.nodes[j].title
            );
        }
    }
}

#[test]
fn no_two_boxes_overlap_in_the_samples() {
    for (stem, path) in samples() {
        let (p, a) = load(&path);
        for view in View::ALL {
            let d = diagram::build(view, &p, &a);
            assert_no_overlap(&format!("{stem} {}", view.name()), &d);
        }
    }
}

#[test]
fn no_two_boxes_overlap_at_a_hundred_tables() {
    let mut p = synthetic::project(60, 120, 11);
    // One table per query, however many could share.
    let ids: Vec<String> = p.queries.iter().map(|q| q.id.clone()).collect();
    for id in ids {
        p.decision_mut(&id).separate = true;
    }
    let a = analyze(&p);
    assert!(
        a.model.tables.len() >= 100,
        "{} tables",
        a.model.tables.len()
    );
    for view in View::ALL {
        let d = diagram::build(view, &p, &a);
        assert_no_overlap(&format!("synthetic {}", view.name()), &d);
        let lay = layout::layout(&d);
        // Legible: wrapped into page-wide bands rather than one long row.
        assert!(lay.width < 2500, "{} is {} px wide", view.name(), lay.width);
        let text = svg::render(&d, &lay, &svg::Options::default());
        parse_xml(&format!("synthetic {}", view.name()), &text);
    }
    let d = diagram::build(View::Logical, &p, &a);
    assert_eq!(d.nodes.len(), a.model.tables.len() + 1);
}

#[test]
fn output_is_deterministic() {
    let p = synthetic::project(40, 80, 3);
    let a = analyze(&p);
    let b = analyze(&p);
    for f in [Format::Html, Format::Markdown] {
        assert_eq!(
            design_report::render(&p, &a, f),
            design_report::render(&p, &b, f)
        );
    }
    for view in View::ALL {
        for f in [
            diagram::Format::Svg,
            diagram::Format::Dot,
            diagram::Format::Mermaid,
        ] {
            assert_eq!(
                diagram::render(view, f, &p, &a),
                diagram::render(view, f, &p, &b)
            );
        }
    }
}

/// The hotel sample with markup, quotes and control characters in every
/// free-text place a project has.
fn hostile() -> (Project, Analysis) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/hotel.cqlm.ron");
    let mut p = load::read(&path).expect("hotel loads");
    let evil = "<script>alert(1)</script> \"q\" 'a' & | `x` *b* [l](javascript:x) \u{1b}[31m\u{7}";
    p.name = format!("Hotel {evil}");
    for q in &mut p.queries {
        q.text = format!("{} {evil}", q.text);
    }
    p.notes.push(Note {
        target: Target::Table("hotels".into()),
        text: format!("</div></td> {evil}"),
    });
    p.notes.push(Note {
        target: Target::Query(format!("Q{evil}")),
        text: evil.into(),
    });
    let a = analyze(&p);
    (p, a)
}

#[test]
fn hostile_strings_are_escaped_everywhere() {
    let (p, a) = hostile();
    let html = design_report::render(&p, &a, Format::Html);
    parse_xml("hostile HTML", &html);
    assert!(!html.contains("<script"), "raw script in HTML");
    assert!(!html.contains('\u{1b}') && !html.contains('\u{7}'));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    let md = design_report::render(&p, &a, Format::Markdown);
    // Outside code blocks (where text is literal) markup is backslash-escaped.
    let mut in_code = false;
    for line in md.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if !in_code {
            let raw = line
                .match_indices("<script")
                .any(|(i, _)| !line[..i].ends_with('\\'));
            assert!(!raw, "raw script in Markdown: {line}");
            assert!(!line.contains("[l](javascript"), "live link: {line}");
        }
    }
    assert!(md.contains("\\<script\\>"));
    assert!(!md.contains('\u{1b}') && !md.contains('\u{7}'));
    for view in View::ALL {
        let svg = diagram::render(view, diagram::Format::Svg, &p, &a);
        parse_xml("hostile SVG", &svg);
        assert!(!svg.contains("<script") && !svg.contains('\u{1b}'));
        let mermaid = diagram::render(view, diagram::Format::Mermaid, &p, &a);
        assert!(!mermaid.contains("<script") && !mermaid.contains('\u{1b}'));
        let dot = diagram::render(view, diagram::Format::Dot, &p, &a);
        assert!(!dot.contains('\u{1b}'));
    }
}

#[test]
fn report_has_every_section_and_links_findings_to_their_items() {
    let path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/devices-options.cqlm.ron");
    let (p, a) = load(&path);
    assert!(!a.diagnostics.is_empty());
    let html = design_report::render(&p, &a, Format::Html);
    for id in [
        "summary",
        "conceptual",
        "workflow",
        "logical",
        "tables",
        "findings",
        "notes",
    ] {
        assert!(html.contains(&format!("<section id=\"{id}\">")), "{id}");
    }
    // Every internal link points at an id of the page.
    let doc = roxmltree::Document::parse_with_options(
        &html,
        roxmltree::ParsingOptions {
            allow_dtd: true,
            ..Default::default()
        },
    )
    .expect("parses");
    let ids: std::collections::HashSet<&str> = doc
        .descendants()
        .filter_map(|n| n.attribute("id"))
        .collect();
    let mut links = 0;
    for n in doc.descendants().filter(|n| n.has_tag_name("a")) {
        if let Some(h) = n.attribute("href").and_then(|h| h.strip_prefix('#')) {
            links += 1;
            assert!(ids.contains(h), "dangling link #{h}");
        }
    }
    assert!(links > 20, "{links} links");
    // Each finding's subject links somewhere when it is a table or query.
    assert!(html.contains("href=\"#finding-1\""));
}

#[test]
fn review_notes_stand_beside_their_items() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/hotel.cqlm.ron");
    let (p, a) = load(&path);
    let html = design_report::render(&p, &a, Format::Html);
    let table = p
        .notes
        .iter()
        .find(|n| matches!(n.target, Target::Table(_)))
        .expect("hotel has a table note");
    let Target::Table(name) = &table.target else {
        unreachable!()
    };
    let i = a
        .model
        .tables
        .iter()
        .position(|t| &t.name == name)
        .expect("table");
    let start = html
        .find(&format!("<article class=\"table\" id=\"table-{}\">", i + 1))
        .expect("table section");
    let end = start + html[start..].find("</article>").expect("closed");
    let first_words: String = table.text.chars().take(30).collect();
    assert!(html[start..end].contains(&cqlmodel::output::markup::xml(&first_words)));
}

/// Reports grow linearly with the tables that share an entity: twice the
/// tables make about twice the report, not four times.
#[test]
fn reports_grow_linearly_with_tables_of_one_entity() {
    use cqlmodel::output::design_report::{render, Format};
    let size = |n: usize, format: Format| {
        let p = cqlmodel::model::synthetic::tables_of_one_entity(n);
        let a = cqlmodel::analysis::analyze(&p);
        assert_eq!(a.model.tables.len(), n);
        render(&p, &a, format).len() as f64
    };
    for format in [Format::Html, Format::Markdown] {
        let (small, large) = (size(40, format), size(160, format));
        let ratio = large / small;
        assert!(
            ratio < 4.5,
            "{format:?}: 4× the tables made the report {ratio:.2}× larger"
        );
    }
}
