//! Mermaid, which GitHub and GitLab render in Markdown: the ER view as an
//! `erDiagram`, the workflow and the Chebotko diagram as flowcharts.

use super::{Diagram, EdgeKind, NodeKind, View};
use std::collections::HashSet;
use std::fmt::Write;

/// A Mermaid identifier: word characters only, unique in the diagram.
fn ident(name: &str, taken: &mut HashSet<String>) -> String {
    let mut s: String = name
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) {
        s.insert_str(0, "e_");
    }
    let mut candidate = s.clone();
    let mut n = 2;
    while !taken.insert(candidate.clone()) {
        candidate = format!("{s}_{n}");
        n += 1;
    }
    candidate
}

/// A word for an ER attribute type: `map<text, frozen<address>>` becomes
/// `map_text_frozen_address`.
fn type_word(ty: &str) -> String {
    let mut s = String::new();
    for c in ty.chars() {
        if c.is_ascii_alphanumeric() {
            s.push(c);
        } else if !s.ends_with('_') && !s.is_empty() {
            s.push('_');
        }
    }
    let s = s.trim_end_matches('_').to_string();
    if s.is_empty() {
        "value".into()
    } else {
        s
    }
}

/// Text inside a quoted Mermaid label: markup characters as Mermaid's
/// entity codes, controls as spaces.
pub(crate) fn label_text(text: &str) -> String {
    let mut s = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '"' => s.push_str("#quot;"),
            '#' => s.push_str("#35;"),
            '<' => s.push_str("#lt;"),
            '>' => s.push_str("#gt;"),
            '&' => s.push_str("#amp;"),
            '`' => s.push_str("#96;"),
            // `%%` starts a comment or an `%%{init}%%` directive.
            '%' => s.push_str("#37;"),
            '{' => s.push_str("#123;"),
            '}' => s.push_str("#125;"),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// An ER comment or relationship label. Mermaid's ER labels take no
/// quotes and no entity codes: quotes, markup and directive characters
/// become look-alikes that mean nothing to it, controls spaces.
fn er_text(text: &str) -> String {
    text.chars()
        .map(|c| match c {
            '"' | '`' => '\'',
            '<' => '‹',
            '>' => '›',
            '%' => '％',
            '{' => '(',
            '}' => ')',
            '#' => '＃',
            ';' => ',',
            c if c.is_control() || crate::model::terminal_text::is_unsafe(c) => ' ',
            c => c,
        })
        .collect()
}

pub fn render(d: &Diagram) -> String {
    match d.view {
        View::Er => er(d),
        View::Workflow | View::Logical => flowchart(d),
    }
}

fn er(d: &Diagram) -> String {
    let mut taken = HashSet::new();
    let ids: Vec<String> = d
        .nodes
        .iter()
        .map(|n| ident(&n.title, &mut taken))
        .collect();
    let mut s = String::from("erDiagram\n");
    for (n, id) in d.nodes.iter().zip(&ids) {
        let _ = writeln!(s, "  {id} {{");
        let mut attr_names = HashSet::new();
        for r in &n.rows {
            let word = type_word(&r.ty);
            let name = ident(&r.name, &mut attr_names);
            let key = if r.marker.is_empty() { "" } else { " PK" };
            // A type is a validated CQL type (names, `<`, `>`, commas):
            // its angle brackets are kept readable.
            let comment = if word == r.ty {
                String::new()
            } else {
                format!(
                    " \"{}\"",
                    er_text(&r.ty).replace('‹', "<").replace('›', ">")
                )
            };
            let _ = writeln!(s, "    {word} {name}{key}{comment}");
        }
        let _ = writeln!(s, "  }}");
    }
    for e in &d.edges {
        let (left, right) = match (e.from_end.as_str(), e.to_end.as_str()) {
            ("1", "1") => ("||", "||"),
            ("1", _) => ("||", "o{"),
            _ => ("}o", "o{"),
        };
        let line = if e.kind == EdgeKind::Identifying {
            "--"
        } else {
            ".."
        };
        let _ = writeln!(
            s,
            "  {} {left}{line}{right} {} : \"{}\"",
            ids[e.from],
            ids[e.to],
            er_text(&e.label)
        );
    }
    s
}

fn flowchart(d: &Diagram) -> String {
    let mut s = String::from("flowchart TD\n");
    for (i, n) in d.nodes.iter().enumerate() {
        let mut lines = vec![format!("<b>{}</b>", label_text(&n.title))];
        for r in &n.rows {
            let marker = if r.marker.is_empty() {
                String::new()
            } else {
                format!("<b>{}</b> ", label_text(&r.marker))
            };
            lines.push(format!(
                "{marker}{} {}",
                label_text(&r.name),
                label_text(&r.ty)
            ));
        }
        for f in &n.footer {
            lines.push(format!("<i>{}</i>", label_text(f)));
        }
        let body = lines.join("<br/>");
        match n.kind {
            NodeKind::Entry => {
                let _ = writeln!(s, "  n{i}([\"{body}\"])");
            }
            _ => {
                let _ = writeln!(s, "  n{i}[\"{body}\"]");
            }
        }
    }
    for e in &d.edges {
        if e.label.is_empty() {
            let _ = writeln!(s, "  n{} --> n{}", e.from, e.to);
        } else {
            let _ = writeln!(
                s,
                "  n{} -->|\"{}\"| n{}",
                e.from,
                label_text(&e.label),
                e.to
            );
        }
    }
    for (i, n) in d.nodes.iter().enumerate() {
        let class = match n.kind {
            NodeKind::Table => "table",
            NodeKind::Query => "query",
            NodeKind::Entry => "entry",
            _ => continue,
        };
        let _ = writeln!(s, "  class n{i} {class}");
    }
    s.push_str("  classDef table fill:#f0fdf4,stroke:#166534,text-align:left\n");
    s.push_str("  classDef query fill:#fffbeb,stroke:#92400e\n");
    s.push_str("  classDef entry fill:#e5e7eb,stroke:#374151\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Markup and directives in labels never reach Mermaid as such: an
    /// `%%{init}%%` directive or an HTML tag in a relationship's name or a
    /// flowchart label is text.
    #[test]
    fn labels_carry_no_markup_or_directives() {
        let hostile = "%%{init: {'theme':'dark'}}%% <b>x</b> \"q\" #1;";
        let er = er_text(hostile);
        for bad in ["%%", "{", "<b>", "\"", "#", ";"] {
            assert!(!er.contains(bad), "{bad} in {er}");
        }
        let flow = label_text(hostile);
        for bad in ["%%", "{init", "<b>", "\""] {
            assert!(!flow.contains(bad), "{bad} in {flow}");
        }
        assert!(flow.contains("#37;#37;#123;init"), "{flow}");
    }

    #[test]
    fn identifiers_are_words_and_unique() {
        let mut t = HashSet::new();
        assert_eq!(ident("Point Of-Interest", &mut t), "Point_Of_Interest");
        assert_eq!(ident("Point Of_Interest", &mut t), "Point_Of_Interest_2");
        assert_eq!(ident("9lives", &mut t), "e_9lives");
    }

    #[test]
    fn types_become_words() {
        assert_eq!(
            type_word("map<text, frozen<address>>"),
            "map_text_frozen_address"
        );
        assert_eq!(type_word("text"), "text");
    }

    #[test]
    fn labels_escape_markup() {
        assert_eq!(label_text("a\"<b>#&`"), "a#quot;#lt;b#gt;#35;#amp;#96;");
    }
}
