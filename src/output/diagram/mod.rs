//! Diagrams of a project for people who review it: the conceptual model
//! (ER), the application workflow and the logical model in Chebotko
//! notation. Each view is first built as a plain graph of boxes and arrows
//! ([`Diagram`]); [`layout`] places it and the renderers write SVG (drawn
//! here, no Graphviz needed), DOT or Mermaid.

pub mod dot;
pub mod layout;
pub mod mermaid;
pub mod svg;

use crate::analysis::Analysis;
use crate::model::{Cardinality, Project};
use std::collections::BTreeMap;
use std::fmt::Write as _;

/// Which diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum View {
    /// Entities with keys, relationships with cardinalities.
    Er,
    /// Entry points, queries and the transitions between them.
    Workflow,
    /// One box per table (Chebotko), arrows labelled by the queries.
    Logical,
}

impl View {
    pub const ALL: [View; 3] = [View::Er, View::Workflow, View::Logical];

    pub fn name(self) -> &'static str {
        match self {
            View::Er => "er",
            View::Workflow => "workflow",
            View::Logical => "logical",
        }
    }

    pub fn title(self) -> &'static str {
        match self {
            View::Er => "Conceptual model",
            View::Workflow => "Application workflow",
            View::Logical => "Logical model (Chebotko)",
        }
    }
}

/// Output format of a diagram.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Svg,
    Dot,
    Mermaid,
}

impl Format {
    /// The format a file name asks for by its extension.
    pub(crate) fn from_extension(path: &std::path::Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "svg" => Some(Format::Svg),
            "dot" | "gv" => Some(Format::Dot),
            "mmd" | "mermaid" => Some(Format::Mermaid),
            _ => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Entity,
    /// Identified through its owner: drawn with a double border.
    WeakEntity,
    /// Where the application starts.
    Entry,
    Query,
    Table,
}

/// One line inside a box: a marker column (K, C↑, C↓, S), a name, a type.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    pub marker: String,
    pub name: String,
    pub ty: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    pub kind: NodeKind,
    pub title: String,
    pub rows: Vec<Row>,
    /// Lines under the rows (served queries, query text).
    pub footer: Vec<String>,
    /// Where the box links to in a report (`table-3`), if anywhere.
    pub anchor: Option<String>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EdgeKind {
    /// An ER relationship.
    Relationship,
    /// The relationship that identifies a weak entity.
    Identifying,
    /// The application moves on (workflow, Chebotko query arrows).
    Flow,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Edge {
    pub from: usize,
    pub to: usize,
    pub label: String,
    pub kind: EdgeKind,
    /// Cardinality at each end (`1`, `n`, `m`), for ER relationships.
    pub from_end: String,
    pub to_end: String,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Diagram {
    pub view: View,
    pub title: String,
    pub nodes: Vec<Node>,
    pub edges: Vec<Edge>,
}

/// The graph of one view of a project.
pub fn build(view: View, project: &Project, analysis: &Analysis) -> Diagram {
    match view {
        View::Er => er(project),
        View::Workflow => workflow(project, analysis),
        View::Logical => logical(project, analysis),
    }
}

/// Anchors of report sections, shared by the diagrams that link to them.
pub(crate) fn entity_anchor(i: usize) -> String {
    format!("entity-{}", i + 1)
}
pub(crate) fn query_anchor(i: usize) -> String {
    format!("query-{}", i + 1)
}
pub(crate) fn table_anchor(i: usize) -> String {
    format!("table-{}", i + 1)
}
pub(crate) fn relationship_anchor(i: usize) -> String {
    format!("relationship-{}", i + 1)
}

fn ends(c: Cardinality) -> (&'static str, &'static str) {
    match c {
        Cardinality::OneToOne => ("1", "1"),
        Cardinality::OneToMany => ("1", "n"),
        Cardinality::ManyToMany => ("m", "n"),
    }
}

fn er(project: &Project) -> Diagram {
    let index: BTreeMap<&str, usize> = project
        .entities
        .iter()
        .enumerate()
        .map(|(i, e)| (e.name.as_str(), i))
        .collect();
    let nodes = project
        .entities
        .iter()
        .enumerate()
        .map(|(i, e)| Node {
            kind: if e.owner.is_some() {
                NodeKind::WeakEntity
            } else {
                NodeKind::Entity
            },
            title: e.name.clone(),
            rows: e
                .attributes
                .iter()
                .map(|a| Row {
                    marker: if e.key.contains(&a.name) {
                        "K".into()
                    } else {
                        String::new()
                    },
                    name: a.name.clone(),
                    ty: a.ty.to_string(),
                })
                .collect(),
            footer: e
                .count
                .map(|c| {
                    vec![format!(
                        "≈ {} instances",
                        crate::derive::estimate::group_digits(c)
                    )]
                })
                .unwrap_or_default(),
            anchor: Some(entity_anchor(i)),
        })
        .collect();
    let mut edges = vec![];
    for r in &project.relationships {
        let (Some(&from), Some(&to)) = (index.get(r.from.as_str()), index.get(r.to.as_str()))
        else {
            continue;
        };
        let identifying = project.entities[to].owner.as_deref() == Some(r.name.as_str());
        let (f, t) = ends(r.cardinality);
        let mut label = r.name.clone();
        if !r.attributes.is_empty() {
            let names: Vec<&str> = r.attributes.iter().map(|a| a.name.as_str()).collect();
            let _ = write!(label, " ({})", names.join(", "));
        }
        edges.push(Edge {
            from,
            to,
            label,
            kind: if identifying {
                EdgeKind::Identifying
            } else {
                EdgeKind::Relationship
            },
            from_end: f.into(),
            to_end: t.into(),
        });
    }
    Diagram {
        view: View::Er,
        title: format!("{} — {}", project.name, View::Er.title()),
        nodes,
        edges,
    }
}

/// Splits text into lines of at most `width` characters at spaces.
pub(crate) fn wrap(text: &str, width: usize, max_lines: usize) -> Vec<String> {
    let mut lines: Vec<String> = vec![];
    let mut cur = String::new();
    for word in text.split_whitespace() {
        if !cur.is_empty() && cur.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut cur));
        }
        if !cur.is_empty() {
            cur.push(' ');
        }
        cur.push_str(word);
    }
    if !cur.is_empty() {
        lines.push(cur);
    }
    if lines.len() > max_lines {
        lines.truncate(max_lines);
        if let Some(last) = lines.last_mut() {
            last.push('…');
        }
    }
    lines
        .into_iter()
        .map(|l| crate::output::markup::truncate(&l, width + 1))
        .collect()
}

fn entry_node() -> Node {
    Node {
        kind: NodeKind::Entry,
        title: "application".into(),
        rows: vec![],
        footer: vec![],
        anchor: None,
    }
}

fn workflow(project: &Project, analysis: &Analysis) -> Diagram {
    let mut nodes = vec![entry_node()];
    let index: BTreeMap<&str, usize> = project
        .queries
        .iter()
        .enumerate()
        .map(|(i, q)| (q.id.as_str(), i + 1))
        .collect();
    for (i, q) in project.queries.iter().enumerate() {
        let mut footer = wrap(&q.text, 34, 3);
        let table = analysis
            .model
            .plan(&q.id)
            .and_then(|p| p.table)
            .and_then(|t| analysis.model.tables.get(t));
        if let Some(t) = table {
            footer.push(format!("→ {}", t.name));
        }
        nodes.push(Node {
            kind: NodeKind::Query,
            title: q.id.clone(),
            rows: vec![],
            footer,
            anchor: Some(query_anchor(i)),
        });
    }
    let mut edges = vec![];
    for e in &project.workflow.entry {
        if let Some(&to) = index.get(e.as_str()) {
            edges.push(flow(0, to, String::new()));
        }
    }
    for t in &project.workflow.transitions {
        if let (Some(&from), Some(&to)) = (index.get(t.from.as_str()), index.get(t.to.as_str())) {
            edges.push(flow(from, to, t.feeds.join(", ")));
        }
    }
    Diagram {
        view: View::Workflow,
        title: format!("{} — {}", project.name, View::Workflow.title()),
        nodes,
        edges,
    }
}

fn flow(from: usize, to: usize, label: String) -> Edge {
    Edge {
        from,
        to,
        label,
        kind: EdgeKind::Flow,
        from_end: String::new(),
        to_end: String::new(),
    }
}

fn logical(project: &Project, analysis: &Analysis) -> Diagram {
    let model = &analysis.model;
    let mut nodes = vec![entry_node()];
    for (i, t) in model.tables.iter().enumerate() {
        let mut footer = vec![format!("serves {}", t.queries.join(", "))];
        if let Some(c) = &t.candidate {
            footer.push(format!("candidate key {c}"));
        }
        nodes.push(Node {
            kind: NodeKind::Table,
            title: t.name.to_string(),
            rows: t
                .columns
                .iter()
                .map(|c| Row {
                    marker: c.role.marker().to_string(),
                    name: c.name.to_string(),
                    ty: c.ty.to_string(),
                })
                .collect(),
            footer,
            anchor: Some(table_anchor(i)),
        });
    }
    let table_node = |query: &str| model.plan(query).and_then(|p| p.table).map(|t| t + 1);
    // One arrow per pair of boxes, labelled with every query it carries.
    let mut arrows: BTreeMap<(usize, usize), Vec<String>> = BTreeMap::new();
    let mut order: Vec<(usize, usize)> = vec![];
    let mut add = |from: usize, to: usize, q: &str| {
        let labels = arrows.entry((from, to)).or_insert_with(|| {
            order.push((from, to));
            vec![]
        });
        if !labels.iter().any(|l| l == q) {
            labels.push(q.to_string());
        }
    };
    let mut reached = std::collections::HashSet::<&str>::new();
    for e in &project.workflow.entry {
        if let Some(to) = table_node(e) {
            add(0, to, e);
            reached.insert(e);
        }
    }
    for t in &project.workflow.transitions {
        if let (Some(from), Some(to)) = (table_node(&t.from), table_node(&t.to)) {
            add(from, to, &t.to);
            reached.insert(&t.to);
        }
    }
    // Queries the workflow never reaches still get their arrow, from the
    // application, so every served query appears on the diagram.
    for q in &project.queries {
        if !reached.contains(q.id.as_str()) {
            if let Some(to) = table_node(&q.id) {
                add(0, to, &q.id);
            }
        }
    }
    let edges = order
        .into_iter()
        .map(|(from, to)| flow(from, to, arrows[&(from, to)].join(", ")))
        .collect();
    Diagram {
        view: View::Logical,
        title: format!("{} — {}", project.name, View::Logical.title()),
        nodes,
        edges,
    }
}

/// A view rendered in a format, ready to write.
pub fn render(view: View, format: Format, project: &Project, analysis: &Analysis) -> String {
    let d = build(view, project, analysis);
    match format {
        Format::Svg => svg::render(&d, &layout::layout(&d), &svg::Options::default()),
        Format::Dot => dot::render(&d),
        Format::Mermaid => mermaid::render(&d),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_breaks_at_spaces_and_caps_lines() {
        assert_eq!(
            wrap("find hotels near a point", 10, 3),
            vec!["find", "hotels", "near a…"]
        );
        assert_eq!(wrap("short", 10, 3), vec!["short".to_string()]);
    }
}
