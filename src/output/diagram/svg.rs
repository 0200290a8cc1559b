//! SVG drawn by the project itself: boxes in Chebotko notation (K, C↑, C↓,
//! S markers beside the column names), arrows with their labels. Presentation
//! attributes only (no stylesheet, no fonts, no scripts), so the file looks
//! the same opened alone, inlined in a report or printed.

use super::layout::{
    marker_width, name_width, shown, text_width, EdgePath, Layout, Point, Rect, HEADER_H, PAD,
    ROW_H,
};
use super::{Diagram, EdgeKind, Node, NodeKind};
use crate::output::markup::xml;
use std::fmt::Write;

const FONT: &str = "DejaVu Sans Mono, Menlo, Consolas, monospace";
const INK: &str = "#1f2937";
const EDGE: &str = "#4b5563";

#[derive(Clone, Debug, Default)]
pub struct Options {
    /// Boxes link to their report section (`#table-3`); only inside a report.
    pub links: bool,
    /// Prefix of the ids inside the SVG, so several diagrams can share one
    /// page; the view name when empty.
    pub id_prefix: String,
}

struct Palette {
    header: &'static str,
    border: &'static str,
}

fn palette(kind: NodeKind) -> Palette {
    match kind {
        NodeKind::Entity | NodeKind::WeakEntity => Palette {
            header: "#dbeafe",
            border: "#1e3a8a",
        },
        NodeKind::Query => Palette {
            header: "#fef3c7",
            border: "#92400e",
        },
        NodeKind::Entry => Palette {
            header: "#e5e7eb",
            border: "#374151",
        },
        NodeKind::Table => Palette {
            header: "#dcfce7",
            border: "#166534",
        },
    }
}

/// The diagram as a standalone SVG document (also valid inline in XHTML).
pub fn render(d: &Diagram, lay: &Layout, opt: &Options) -> String {
    let prefix = if opt.id_prefix.is_empty() {
        d.view.name().to_string()
    } else {
        opt.id_prefix.clone()
    };
    let mut s = String::with_capacity(4096 + d.nodes.len() * 1024);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" role=\"img\" aria-labelledby=\"{prefix}-title\" font-family=\"{FONT}\" font-size=\"12\">",
        w = lay.width,
        h = lay.height,
    );
    let _ = writeln!(s, "<title id=\"{prefix}-title\">{}</title>", xml(&d.title));
    let _ = writeln!(
        s,
        "<defs><marker id=\"{prefix}-arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"8\" markerHeight=\"8\" orient=\"auto\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{EDGE}\"/></marker></defs>"
    );
    let _ = writeln!(
        s,
        "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        lay.width, lay.height
    );
    for (e, p) in d.edges.iter().zip(&lay.edges) {
        edge(&mut s, e, p, &prefix);
    }
    for (n, r) in d.nodes.iter().zip(&lay.boxes) {
        node(&mut s, n, r, opt.links);
    }
    s.push_str("</svg>\n");
    s
}

fn label(s: &mut String, text: &str, (x, y): Point, bold: bool) {
    let shown = shown(text);
    let w = text_width(&shown) + 8;
    let _ = writeln!(
        s,
        "<rect x=\"{}\" y=\"{}\" width=\"{w}\" height=\"16\" rx=\"3\" fill=\"#ffffff\" fill-opacity=\"0.9\"/><text x=\"{x}\" y=\"{}\" text-anchor=\"middle\" fill=\"{INK}\"{}>{}</text>",
        x - w / 2,
        y - 8,
        y + 4,
        if bold { " font-weight=\"bold\"" } else { "" },
        xml(&shown)
    );
}

fn edge(s: &mut String, e: &super::Edge, p: &EdgePath, prefix: &str) {
    if p.start == p.end && p.c1 == p.c2 && p.start == p.c1 {
        return;
    }
    let _ = writeln!(s, "<g>");
    if !e.label.is_empty() {
        let _ = writeln!(s, "<title>{}</title>", xml(&e.label));
    }
    let (width, head) = match e.kind {
        EdgeKind::Flow => ("1.4", format!(" marker-end=\"url(#{prefix}-arrow)\"")),
        EdgeKind::Relationship => ("1.4", String::new()),
        EdgeKind::Identifying => ("3", String::new()),
    };
    let _ = writeln!(
        s,
        "<path d=\"M{},{} C{},{} {},{} {},{}\" fill=\"none\" stroke=\"{EDGE}\" stroke-width=\"{width}\"{head}/>",
        p.start.0, p.start.1, p.c1.0, p.c1.1, p.c2.0, p.c2.1, p.end.0, p.end.1
    );
    if !e.label.is_empty() {
        label(s, &e.label, p.label, e.kind == EdgeKind::Flow);
    }
    for (text, num) in [(&e.from_end, 1), (&e.to_end, 7)] {
        if !text.is_empty() {
            let (x, y) = p.at(num);
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" fill=\"{INK}\" font-weight=\"bold\">{}</text>",
                x + 6,
                y + 4,
                xml(text)
            );
        }
    }
    let _ = writeln!(s, "</g>");
}

fn full_text(n: &Node) -> String {
    let mut t = n.title.clone();
    for r in &n.rows {
        let _ = write!(t, "\n{} {} {}", r.marker, r.name, r.ty);
    }
    for f in &n.footer {
        let _ = write!(t, "\n{f}");
    }
    t
}

fn node(s: &mut String, n: &Node, r: &Rect, links: bool) {
    let pal = palette(n.kind);
    let link = n.anchor.as_ref().filter(|_| links);
    let _ = writeln!(s, "<g>");
    if let Some(a) = link {
        let _ = writeln!(s, "<a href=\"#{}\">", xml(a));
    }
    // The tooltip keeps newlines: one line per row.
    let _ = writeln!(
        s,
        "<title>{}</title>",
        crate::output::markup::xml_block(&full_text(n))
    );
    if n.kind == NodeKind::Entry {
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"{}\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
            r.x, r.y, r.w, r.h, r.h / 2, pal.header, pal.border
        );
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\" fill=\"{INK}\">{}</text>",
            r.x + r.w / 2,
            r.y + r.h / 2 + 4,
            xml(&shown(&n.title))
        );
    } else {
        let _ = writeln!(
            s,
            "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"#ffffff\" stroke=\"{}\" stroke-width=\"1.5\"/>",
            r.x, r.y, r.w, r.h, pal.border
        );
        let _ = writeln!(
            s,
            "<path d=\"M{x},{yb} V{y0} H{x1} V{yb} Z\" fill=\"{}\" stroke=\"{}\" stroke-width=\"1.5\"/>",
            pal.header,
            pal.border,
            x = r.x,
            x1 = r.x + r.w,
            y0 = r.y,
            yb = r.y + HEADER_H,
        );
        if n.kind == NodeKind::WeakEntity {
            let _ = writeln!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"3\" fill=\"none\" stroke=\"{}\" stroke-width=\"1\"/>",
                r.x + 3, r.y + 3, r.w - 6, r.h - 6, pal.border
            );
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-weight=\"bold\" fill=\"{INK}\">{}</text>",
            r.x + PAD,
            r.y + 17,
            xml(&shown(&n.title))
        );
        let mw = marker_width(n);
        let nw = name_width(n);
        let mut y = r.y + HEADER_H;
        for row in &n.rows {
            let base = y + 13;
            if !row.marker.is_empty() {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{base}\" font-weight=\"bold\" fill=\"{}\">{}</text>",
                    r.x + PAD,
                    pal.border,
                    xml(&row.marker)
                );
            }
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{base}\" fill=\"{INK}\">{}</text><text x=\"{}\" y=\"{base}\" fill=\"#6b7280\">{}</text>",
                r.x + PAD + mw,
                xml(&shown(&row.name)),
                r.x + PAD + mw + nw + text_width("  "),
                xml(&shown(&row.ty))
            );
            y += ROW_H;
        }
        if !n.rows.is_empty() && !n.footer.is_empty() {
            let _ = writeln!(
                s,
                "<path d=\"M{},{} H{}\" stroke=\"#d1d5db\" stroke-width=\"1\"/>",
                r.x + 1,
                y + 2,
                r.x + r.w - 1
            );
        }
        for f in &n.footer {
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" font-style=\"italic\" fill=\"#4b5563\">{}</text>",
                r.x + PAD,
                y + 13 + if n.rows.is_empty() { 0 } else { 4 },
                xml(&shown(f))
            );
            y += ROW_H;
        }
    }
    if link.is_some() {
        let _ = writeln!(s, "</a>");
    }
    let _ = writeln!(s, "</g>");
}
