//! Places the boxes of a diagram and routes its arrows, in whole pixels so
//! the output is the same on every machine.
//!
//! A layered layout: arrows point down where they can. Layers come from the
//! longest path over the graph without its back edges; a few barycenter
//! sweeps order each layer to reduce crossings; a layer too wide for a page
//! wraps onto several bands. Boxes are placed side by side in bands that
//! never share a pixel, so no two boxes overlap by construction (and a test
//! checks it).
// Diagram sizes are small counts of cells and boxes: i32 holds them.
#![allow(clippy::cast_possible_wrap)]

use super::{Diagram, Node, NodeKind};
use crate::output::markup::{cells, truncate};

/// Pixels per monospace cell at the 12px font the SVG uses (7.25 px).
pub(crate) fn text_width(text: &str) -> i32 {
    (cells(text) as i32 * 29 + 3) / 4
}

pub(crate) const ROW_H: i32 = 18;
pub(crate) const HEADER_H: i32 = 26;
pub(crate) const PAD: i32 = 8;
/// Longest name shown in a box; the full text is in the box's tooltip.
pub(crate) const MAX_CELLS: usize = 40;
const H_GAP: i32 = 48;
const V_GAP: i32 = 72;
const MARGIN: i32 = 24;
/// Room right of the boxes for arrows that loop back up.
const LOOP_ROOM: i32 = 96;
const MAX_BAND: i32 = 1600;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub w: i32,
    pub h: i32,
}

impl Rect {
    /// Whether the two rectangles share interior area (touching edges do not).
    pub fn intersects(&self, o: &Rect) -> bool {
        self.x < o.x + o.w && o.x < self.x + self.w && self.y < o.y + o.h && o.y < self.y + self.h
    }
}

pub type Point = (i32, i32);

/// A cubic Bézier from `start` to `end`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EdgePath {
    pub start: Point,
    pub c1: Point,
    pub c2: Point,
    pub end: Point,
    /// Where the label sits (the curve's midpoint).
    pub label: Point,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub width: i32,
    pub height: i32,
    /// Parallel to the diagram's nodes.
    pub boxes: Vec<Rect>,
    /// Parallel to the diagram's edges.
    pub edges: Vec<EdgePath>,
}

/// The text a box shows on one line of a row: marker, name, type.
pub fn shown(text: &str) -> String {
    truncate(text, MAX_CELLS)
}

/// Width of the marker column (K, C↑, C↓, S) in a box, in pixels.
pub(crate) fn marker_width(node: &Node) -> i32 {
    if node.rows.iter().any(|r| !r.marker.is_empty()) {
        text_width("C↑ ")
    } else {
        0
    }
}

/// Width of the name column, in pixels.
pub(crate) fn name_width(node: &Node) -> i32 {
    node.rows
        .iter()
        .map(|r| text_width(&shown(&r.name)))
        .max()
        .unwrap_or(0)
}

/// The size a box needs for its text.
pub fn size(node: &Node) -> (i32, i32) {
    if node.kind == NodeKind::Entry {
        return (text_width(&shown(&node.title)) + 4 * PAD, 34);
    }
    let title = text_width(&shown(&node.title)) + 8;
    let types = node
        .rows
        .iter()
        .map(|r| text_width(&shown(&r.ty)))
        .max()
        .unwrap_or(0);
    let rows = if node.rows.is_empty() {
        0
    } else {
        marker_width(node) + name_width(node) + text_width("  ") + types
    };
    let footer = node
        .footer
        .iter()
        .map(|l| text_width(&shown(l)))
        .max()
        .unwrap_or(0);
    let w = title.max(rows).max(footer).max(64) + 2 * PAD;
    let lines = (node.rows.len() + node.footer.len()) as i32;
    let h = HEADER_H + lines * ROW_H + if lines > 0 { PAD } else { 0 };
    (w, h)
}

/// Layer of every node: longest path from the sources over the graph
/// without its back edges (found by a depth-first search in node order).
fn layers(n: usize, edges: &[(usize, usize)]) -> (Vec<usize>, Vec<bool>) {
    let mut out: Vec<Vec<(usize, usize)>> = vec![vec![]; n];
    for (k, &(a, b)) in edges.iter().enumerate() {
        if a != b && a < n && b < n {
            out[a].push((b, k));
        }
    }
    // Iterative DFS: a back edge points at a node still on the stack.
    let mut state = vec![0u8; n]; // 0 new, 1 on stack, 2 done
    let mut back = vec![false; edges.len()];
    for root in 0..n {
        if state[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        state[root] = 1;
        while let Some(&mut (v, ref mut next)) = stack.last_mut() {
            if let Some(&(w, k)) = out[v].get(*next) {
                *next += 1;
                match state[w] {
                    0 => {
                        state[w] = 1;
                        stack.push((w, 0));
                    }
                    1 => back[k] = true,
                    _ => {}
                }
            } else {
                state[v] = 2;
                stack.pop();
            }
        }
    }
    // Longest path in topological order (Kahn, smallest index first).
    let mut indeg = vec![0usize; n];
    for (k, &(a, b)) in edges.iter().enumerate() {
        if a != b && !back[k] && a < n && b < n {
            indeg[b] += 1;
        }
    }
    let mut ready: std::collections::BTreeSet<usize> = (0..n).filter(|&v| indeg[v] == 0).collect();
    let mut layer = vec![0usize; n];
    while let Some(v) = ready.pop_first() {
        for &(w, k) in &out[v] {
            if back[k] {
                continue;
            }
            layer[w] = layer[w].max(layer[v] + 1);
            indeg[w] -= 1;
            if indeg[w] == 0 {
                ready.insert(w);
            }
        }
    }
    (layer, back)
}

/// Orders each layer by the mean position of its neighbours, a few sweeps
/// down and up.
fn order(layer: &[usize], edges: &[(usize, usize)], n_layers: usize) -> Vec<Vec<usize>> {
    let mut rows: Vec<Vec<usize>> = vec![vec![]; n_layers];
    for (v, &l) in layer.iter().enumerate() {
        rows[l].push(v);
    }
    let mut pos = vec![0f64; layer.len()];
    let reindex = |rows: &Vec<Vec<usize>>, pos: &mut Vec<f64>| {
        for r in rows {
            for (i, &v) in r.iter().enumerate() {
                pos[v] = i as f64;
            }
        }
    };
    reindex(&rows, &mut pos);
    let mut preds: Vec<Vec<usize>> = vec![vec![]; layer.len()];
    let mut succs: Vec<Vec<usize>> = vec![vec![]; layer.len()];
    for &(a, b) in edges {
        if a != b && layer[a] < layer[b] {
            preds[b].push(a);
            succs[a].push(b);
        }
    }
    for sweep in 0..4 {
        let down = sweep % 2 == 0;
        for l in 0..n_layers {
            let l = if down { l } else { n_layers - 1 - l };
            let nbrs = if down { &preds } else { &succs };
            let mut keyed: Vec<(f64, usize, usize)> = rows[l]
                .iter()
                .enumerate()
                .map(|(i, &v)| {
                    let ns = &nbrs[v];
                    let key = if ns.is_empty() {
                        i as f64
                    } else {
                        ns.iter().map(|&u| pos[u]).sum::<f64>() / ns.len() as f64
                    };
                    (key, i, v)
                })
                .collect();
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            rows[l] = keyed.into_iter().map(|(_, _, v)| v).collect();
            for (i, &v) in rows[l].iter().enumerate() {
                pos[v] = i as f64;
            }
        }
    }
    rows
}

/// Places every box and routes every arrow.
pub fn layout(d: &Diagram) -> Layout {
    let n = d.nodes.len();
    let sizes: Vec<(i32, i32)> = d.nodes.iter().map(size).collect();
    let pairs: Vec<(usize, usize)> = d.edges.iter().map(|e| (e.from, e.to)).collect();
    let (layer, _back) = layers(n, &pairs);
    let n_layers = layer.iter().max().map_or(0, |m| m + 1);
    let rows = order(&layer, &pairs, n_layers);

    // Wrap each layer into bands no wider than a page (or the widest box).
    let widest = sizes.iter().map(|s| s.0).max().unwrap_or(0);
    let limit = MAX_BAND.max(widest);
    let mut bands: Vec<Vec<usize>> = vec![];
    for r in &rows {
        let mut band: Vec<usize> = vec![];
        let mut w = 0;
        for &v in r {
            let add = sizes[v].0 + if band.is_empty() { 0 } else { H_GAP };
            if !band.is_empty() && w + add > limit {
                bands.push(std::mem::take(&mut band));
                w = 0;
            }
            w += sizes[v].0 + if band.is_empty() { 0 } else { H_GAP };
            band.push(v);
        }
        if !band.is_empty() {
            bands.push(band);
        }
    }
    let band_width = |b: &[usize]| -> i32 {
        b.iter().map(|&v| sizes[v].0).sum::<i32>() + H_GAP * (b.len() as i32 - 1).max(0)
    };
    let content_w = bands.iter().map(|b| band_width(b)).max().unwrap_or(0);
    let mut boxes = vec![
        Rect {
            x: 0,
            y: 0,
            w: 0,
            h: 0
        };
        n
    ];
    let mut y = MARGIN;
    for b in &bands {
        let mut x = MARGIN + (content_w - band_width(b)) / 2;
        let h = b.iter().map(|&v| sizes[v].1).max().unwrap_or(0);
        for &v in b {
            let (w, bh) = sizes[v];
            boxes[v] = Rect { x, y, w, h: bh };
            x += w + H_GAP;
        }
        y += h + V_GAP;
    }
    let height = if bands.is_empty() {
        2 * MARGIN
    } else {
        y - V_GAP + MARGIN
    };
    let width = content_w + 2 * MARGIN + LOOP_ROOM;
    let edges = route(d, &boxes);
    Layout {
        width,
        height,
        boxes,
        edges,
    }
}

fn center_x(r: &Rect) -> i32 {
    r.x + r.w / 2
}

/// Evenly spread attach points along a side, ordered by the other ends' x.
fn slots(r: &Rect, others: &mut [(i32, usize)]) -> Vec<(usize, i32)> {
    others.sort_unstable();
    let m = others.len() as i32;
    others
        .iter()
        .enumerate()
        .map(|(k, &(_, e))| (e, r.x + r.w * (k as i32 + 1) / (m + 1)))
        .collect()
}

impl EdgePath {
    /// The point of the curve at `t = num / 8`.
    pub fn at(&self, num: i64) -> Point {
        let (t, u) = (num, 8 - num);
        let f = |a: i32, b: i32, c: i32, d: i32| -> i32 {
            ((u * u * u * i64::from(a)
                + 3 * u * u * t * i64::from(b)
                + 3 * u * t * t * i64::from(c)
                + t * t * t * i64::from(d))
                / 512) as i32
        };
        (
            f(self.start.0, self.c1.0, self.c2.0, self.end.0),
            f(self.start.1, self.c1.1, self.c2.1, self.end.1),
        )
    }
}

fn route(d: &Diagram, boxes: &[Rect]) -> Vec<EdgePath> {
    let n = boxes.len();
    let below =
        |e: &super::Edge| e.from != e.to && boxes[e.to].y >= boxes[e.from].y + boxes[e.from].h;
    // Attach points for downward arrows: bottom of the source, top of the target.
    let mut out_x = vec![0; d.edges.len()];
    let mut in_x = vec![0; d.edges.len()];
    let mut outgoing: Vec<Vec<(i32, usize)>> = vec![vec![]; n];
    let mut incoming: Vec<Vec<(i32, usize)>> = vec![vec![]; n];
    for (k, e) in d.edges.iter().enumerate() {
        if e.from < n && e.to < n && below(e) {
            outgoing[e.from].push((center_x(&boxes[e.to]), k));
            incoming[e.to].push((center_x(&boxes[e.from]), k));
        }
    }
    for v in 0..n {
        for (k, x) in slots(&boxes[v], &mut outgoing[v]) {
            out_x[k] = x;
        }
        for (k, x) in slots(&boxes[v], &mut incoming[v]) {
            in_x[k] = x;
        }
    }
    d.edges
        .iter()
        .enumerate()
        .map(|(k, e)| {
            if e.from >= n || e.to >= n {
                let p = (0, 0);
                return EdgePath {
                    start: p,
                    c1: p,
                    c2: p,
                    end: p,
                    label: p,
                };
            }
            let s = boxes[e.from];
            let t = boxes[e.to];
            let (start, c1, c2, end) = if e.from == e.to {
                let x = s.x + s.w;
                let (y1, y2) = (s.y + s.h / 3, s.y + 2 * s.h / 3);
                ((x, y1), (x + 56, y1 - 12), (x + 56, y2 + 12), (x, y2))
            } else if below(e) {
                let start = (out_x[k], s.y + s.h);
                let end = (in_x[k], t.y);
                let dy = ((end.1 - start.1) / 2).max(24);
                (start, (start.0, start.1 + dy), (end.0, end.1 - dy), end)
            } else if t.y == s.y && t.x >= s.x + s.w {
                let start = (s.x + s.w, s.y + s.h / 2);
                let end = (t.x, t.y + t.h / 2);
                let dx = (end.0 - start.0) / 2;
                (start, (start.0 + dx, start.1), (end.0 - dx, end.1), end)
            } else if t.y == s.y && t.x + t.w <= s.x {
                let start = (s.x, s.y + s.h / 2);
                let end = (t.x + t.w, t.y + t.h / 2);
                let dx = (start.0 - end.0) / 2;
                (start, (start.0 - dx, start.1), (end.0 + dx, end.1), end)
            } else {
                // Back up the page: out of the right side, loop round, in
                // at the right side of the target.
                let start = (s.x + s.w, s.y + s.h / 2);
                let end = (t.x + t.w, t.y + t.h / 2);
                let bulge = start.0.max(end.0) + 64;
                (start, (bulge, start.1), (bulge, end.1), end)
            };
            let mut p = EdgePath {
                start,
                c1,
                c2,
                end,
                label: start,
            };
            // An arrow spanning several bands carries its label near its
            // head, so labels of arrows from one box do not pile up.
            p.label = p.at(if end.1 - start.1 > 2 * V_GAP { 6 } else { 4 });
            p
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::output::diagram::{Edge, EdgeKind, View};

    fn node(title: &str) -> Node {
        Node {
            kind: NodeKind::Query,
            title: title.into(),
            rows: vec![],
            footer: vec![],
            anchor: None,
        }
    }

    fn diagram(n: usize, edges: &[(usize, usize)]) -> Diagram {
        Diagram {
            view: View::Workflow,
            title: String::new(),
            nodes: (0..n).map(|i| node(&format!("N{i}"))).collect(),
            edges: edges
                .iter()
                .map(|&(from, to)| Edge {
                    from,
                    to,
                    label: String::new(),
                    kind: EdgeKind::Flow,
                    from_end: String::new(),
                    to_end: String::new(),
                })
                .collect(),
        }
    }

    #[test]
    fn chains_go_down_and_cycles_break() {
        let (l, back) = layers(3, &[(0, 1), (1, 2), (2, 0)]);
        assert_eq!(l, vec![0, 1, 2]);
        assert_eq!(back, vec![false, false, true]);
    }

    #[test]
    fn arrows_point_down_between_layers() {
        let d = diagram(3, &[(0, 1), (0, 2)]);
        let lay = layout(&d);
        for e in &lay.edges {
            assert!(e.end.1 > e.start.1);
        }
        assert!(!lay.boxes[1].intersects(&lay.boxes[2]));
    }

    #[test]
    fn wide_layers_wrap_into_bands_without_overlap() {
        let edges: Vec<(usize, usize)> = (1..200).map(|i| (0, i)).collect();
        let d = diagram(200, &edges);
        let lay = layout(&d);
        assert!(lay.width <= MAX_BAND + 2 * MARGIN + LOOP_ROOM);
        for i in 0..200 {
            for j in i + 1..200 {
                assert!(!lay.boxes[i].intersects(&lay.boxes[j]), "{i} {j}");
            }
            let b = lay.boxes[i];
            assert!(b.x >= 0 && b.y >= 0 && b.x + b.w <= lay.width && b.y + b.h <= lay.height);
        }
    }

    #[test]
    fn sizes_grow_with_text() {
        let (w1, _) = size(&node("Q1"));
        let (w2, _) = size(&node("a much longer title than that"));
        assert!(w2 > w1);
        assert_eq!(text_width("abcd"), 29);
    }
}
