//! Graphviz DOT, for people who already render with `dot`: boxes as
//! HTML-like tables with the Chebotko markers in their own column.

use super::{Diagram, EdgeKind, NodeKind};
use crate::output::markup::xml;
use std::fmt::Write;

/// A DOT quoted string: backslashes and quotes escaped, one line.
fn quoted(text: &str) -> String {
    let mut s = String::with_capacity(text.len() + 2);
    s.push('"');
    for c in text.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s.push('"');
    s
}

pub fn render(d: &Diagram) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "digraph {} {{", quoted(&d.title));
    let _ = writeln!(
        s,
        "  graph [rankdir=TB, fontname=\"monospace\", label={}, labelloc=t];",
        quoted(&d.title)
    );
    let _ = writeln!(
        s,
        "  node [shape=plain, fontname=\"monospace\", fontsize=11];"
    );
    let _ = writeln!(s, "  edge [fontname=\"monospace\", fontsize=10];");
    for (i, n) in d.nodes.iter().enumerate() {
        if n.kind == NodeKind::Entry {
            let _ = writeln!(
                s,
                "  n{i} [shape=oval, style=filled, fillcolor=\"#e5e7eb\", label={}];",
                quoted(&n.title)
            );
            continue;
        }
        let header = match n.kind {
            NodeKind::Table => "#dcfce7",
            NodeKind::Query => "#fef3c7",
            _ => "#dbeafe",
        };
        let border = if n.kind == NodeKind::WeakEntity { 3 } else { 1 };
        let cols = if n.rows.is_empty() { 1 } else { 3 };
        let mut label = format!(
            "<TABLE BORDER=\"{border}\" CELLBORDER=\"0\" CELLSPACING=\"0\" CELLPADDING=\"3\"><TR><TD COLSPAN=\"{cols}\" BGCOLOR=\"{header}\" ALIGN=\"LEFT\">{}</TD></TR>",
            tagged("B", &n.title)
        );
        for r in &n.rows {
            let _ = write!(
                label,
                "<TR><TD ALIGN=\"LEFT\">{}</TD><TD ALIGN=\"LEFT\">{}</TD><TD ALIGN=\"LEFT\">{}</TD></TR>",
                tagged("B", &r.marker),
                xml(&r.name),
                xml(&r.ty)
            );
        }
        for f in &n.footer {
            let _ = write!(
                label,
                "<TR><TD COLSPAN=\"{cols}\" ALIGN=\"LEFT\">{}</TD></TR>",
                tagged("I", f)
            );
        }
        label.push_str("</TABLE>");
        let _ = writeln!(s, "  n{i} [label=<{label}>];");
    }
    for e in &d.edges {
        let mut attrs = vec![];
        if !e.label.is_empty() {
            attrs.push(format!("label={}", quoted(&e.label)));
        }
        if !e.from_end.is_empty() {
            attrs.push(format!("taillabel={}", quoted(&e.from_end)));
        }
        if !e.to_end.is_empty() {
            attrs.push(format!("headlabel={}", quoted(&e.to_end)));
        }
        match e.kind {
            EdgeKind::Flow => {}
            EdgeKind::Relationship => attrs.push("dir=none".into()),
            EdgeKind::Identifying => attrs.push("dir=none, penwidth=3".into()),
        }
        let _ = writeln!(s, "  n{} -> n{} [{}];", e.from, e.to, attrs.join(", "));
    }
    s.push_str("}\n");
    s
}

/// `text` escaped inside `<tag>…</tag>`, or nothing for empty text:
/// Graphviz 2.43 (Debian 12's) refuses an empty `<B></B>`.
fn tagged(tag: &str, text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("<{tag}>{}</{tag}>", xml(text))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn quoting_escapes_quotes_backslashes_and_controls() {
        assert_eq!(super::quoted("a\"b\\c\nd"), "\"a\\\"b\\\\c d\"");
    }
}
