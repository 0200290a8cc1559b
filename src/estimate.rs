//! Partition estimates, by the Apache Cassandra docs' formulas:
//! Nv = Nr·(Nc − Npk − Ns) + Ns values per partition and
//! St = Σ partition key + Σ static + Nr·(Σ regular + Σ clustering) + 8·Nv bytes.
//! Missing numbers fall back to stated defaults, each listed as an assumption.

use crate::derive::{normalize, LogicalModel, Role, Source, Table};
use crate::model::resolve::{Edge, Graph, NodeId, Reached};
use crate::model::{Attribute, CqlType, Project};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use serde::Serialize;
use std::cell::RefCell;

/// Instances assumed for an entity that states no count.
pub const DEFAULT_COUNT: f64 = 1000.0;
/// Related instances assumed per instance when a relationship gives none.
pub const DEFAULT_FANOUT: f64 = 10.0;
/// Bytes assumed for a text or blob value of unknown size.
pub const DEFAULT_TEXT_BYTES: f64 = 16.0;
/// Elements assumed in a collection of unknown size.
pub const DEFAULT_ELEMENTS: f64 = 4.0;
/// Distinct values assumed for a non-key partition column.
pub const DEFAULT_DISTINCT: f64 = 100.0;
/// Bytes of per-cell overhead in the docs' formula (the timestamp).
pub const CELL_OVERHEAD: f64 = 8.0;

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Estimate {
    /// Rows in the whole table.
    pub rows: f64,
    pub partitions: f64,
    /// Nr: rows per partition, on average and at worst.
    pub rows_per_partition: f64,
    pub rows_per_partition_max: f64,
    /// Nv: values (cells) per partition, on average and at worst.
    pub values: f64,
    pub values_max: f64,
    /// St: bytes per partition, on average and at worst.
    pub partition_bytes: f64,
    pub partition_bytes_max: f64,
    /// Bytes of one copy of the table, and on disk with replication.
    pub table_bytes: f64,
    pub disk_bytes: f64,
    /// Nc, Npk, Ns of the formula.
    pub columns: usize,
    pub key_columns: usize,
    pub static_columns: usize,
    /// Average bytes of the largest cell.
    pub largest_cell: f64,
    /// Elements of the largest collection, on average.
    pub largest_collection: f64,
    /// Rows per partition grow with time: how many a day, and over how many
    /// days the figures above were taken.
    pub growth_per_day: Option<f64>,
    pub span_days: f64,
    /// The span is a stated retention (or TTL), not the assumed horizon.
    pub retained: bool,
    pub assumptions: Vec<String>,
}

/// Estimates for every table of a model, in table order.
pub fn estimate(project: &Project, model: &LogicalModel) -> Vec<Estimate> {
    estimate_in(&Graph::new(project), model)
}

/// [`estimate`] over an already built graph of the project.
pub fn estimate_in(graph: &Graph, model: &LogicalModel) -> Vec<Estimate> {
    let est = Estimator::new(graph);
    model.tables.iter().map(|t| est.table(t)).collect()
}

pub struct Estimator<'g, 'p> {
    graph: &'g Graph<'p>,
    /// Instances per node, and the days they accumulated over when a rate
    /// produced them.
    counts: RefCell<HashMap<NodeId, (f64, Option<f64>)>>,
}

impl<'g, 'p> Estimator<'g, 'p> {
    pub fn new(graph: &'g Graph<'p>) -> Self {
        Estimator {
            graph,
            counts: RefCell::new(HashMap::default()),
        }
    }

    /// Days a rate accumulates over for rows of `node`, and whether that is
    /// a stated retention.
    fn span(&self, node: NodeId) -> (f64, bool) {
        if let NodeId::Entity(e) = node {
            if let Some(d) = self.graph.entity(e).retention_days {
                return (d, true);
            }
        }
        (self.graph.project.thresholds.horizon_days, false)
    }

    /// Average instances per start instance across one step, with the
    /// maximum and whether it grows with time.
    fn step(&self, from: NodeId, edge: Edge, notes: &mut Vec<String>) -> (f64, f64, bool) {
        let f = self.graph.fanout(edge);
        if !f.many {
            return (1.0, 1.0, false);
        }
        let Edge::Enter(r, end) = edge else {
            return (1.0, 1.0, false);
        };
        let rel = self.graph.rel(r);
        if f.avg.is_nan() {
            notes.push(format!(
                "{}: no count for {} per {}; assumed {DEFAULT_FANOUT}",
                rel.name,
                match end {
                    crate::model::resolve::End::From => &rel.to,
                    crate::model::resolve::End::To => &rel.from,
                },
                self.graph.node_name(from)
            ));
            return (DEFAULT_FANOUT, DEFAULT_FANOUT, false);
        }
        let max = f.max.unwrap_or(f.avg).max(f.avg);
        match f.per {
            Some(period) => {
                let target = self
                    .graph
                    .end_entity(r, end.other())
                    .map(NodeId::Entity)
                    .unwrap_or(from);
                let (days, _) = self.span(target);
                let factor = days / period.days();
                (f.avg * factor, max * factor, true)
            }
            None => (f.avg, max, false),
        }
    }

    /// Instances of a node, derived through owners and parents when the
    /// project gives no count.
    pub fn count(&self, node: NodeId, notes: &mut Vec<String>) -> f64 {
        self.count_inner(node, notes, 0)
    }

    fn count_inner(&self, node: NodeId, notes: &mut Vec<String>, depth: usize) -> f64 {
        self.count_span(node, notes, depth).0
    }

    /// A node's instances, and the days they accumulated over. Rows kept
    /// for less time than their parents accumulated over are scaled down
    /// (clicks kept 30 days out of sessions counted over a year).
    fn count_span(
        &self,
        node: NodeId,
        notes: &mut Vec<String>,
        depth: usize,
    ) -> (f64, Option<f64>) {
        if let Some(&found) = self.counts.borrow().get(&node) {
            return found;
        }
        let g = self.graph;
        let (c, span) = match node {
            NodeId::Entity(e) => {
                let ent = g.entity(e);
                if let Some(c) = ent.count {
                    (c, None)
                } else if let Some((parent_rel, parent)) = self.parent(e).filter(|_| depth < 16) {
                    let mut n = Vec::new();
                    let (pc, pspan) = self.count_span(NodeId::Entity(parent), &mut n, depth + 1);
                    let (avg, _, rate) = self.step(
                        NodeId::Entity(parent),
                        Edge::Enter(parent_rel, crate::model::resolve::End::From),
                        &mut n,
                    );
                    notes.extend(n);
                    let mut c = pc * avg;
                    let mut span = if rate { Some(self.span(node).0) } else { pspan };
                    if let (Some(keep), Some(over)) = (ent.retention_days, span) {
                        if keep < over && over > 0.0 {
                            c *= keep / over;
                            span = Some(keep);
                        }
                    }
                    (c, span)
                } else {
                    notes.push(format!("{}: no count; assumed {DEFAULT_COUNT}", ent.name));
                    (DEFAULT_COUNT, None)
                }
            }
            NodeId::Rel(r) => {
                let rel = g.rel(r);
                let from = g.entity_index(&rel.from).map(NodeId::Entity);
                let to = g.entity_index(&rel.to).map(NodeId::Entity);
                match (from, to) {
                    (Some(f), Some(t)) if depth < 16 => match rel.cardinality {
                        crate::model::Cardinality::OneToOne => self.count_span(f, notes, depth + 1),
                        crate::model::Cardinality::OneToMany => {
                            self.count_span(t, notes, depth + 1)
                        }
                        crate::model::Cardinality::ManyToMany => {
                            let (fc, span) = self.count_span(f, notes, depth + 1);
                            let (avg, _, _) = self.step(
                                f,
                                Edge::Enter(r, crate::model::resolve::End::From),
                                notes,
                            );
                            (fc * avg, span)
                        }
                    },
                    _ => (DEFAULT_COUNT, None),
                }
            }
        };
        self.counts.borrow_mut().insert(node, (c, span));
        (c, span)
    }

    /// The 1:n relationship (and its one side) through which an entity
    /// without a count is counted: its owner first, else its only parent.
    fn parent(&self, e: usize) -> Option<(usize, usize)> {
        if let Some(o) = self.graph.owner_of(e) {
            return Some(o);
        }
        let r = self.graph.first_parent(e)?;
        let p = self.graph.entity_index(&self.graph.rel(r).from)?;
        (self.graph.entity(p).count.is_some() || self.graph.owner_of(p).is_some()).then_some((r, p))
    }

    /// Bytes of one value of `ty`.
    pub fn value_size(
        &self,
        ty: &CqlType,
        attr: Option<&Attribute>,
        label: &str,
        notes: &mut Vec<String>,
    ) -> f64 {
        self.size_inner(ty, attr, label, notes, 0)
    }

    fn size_inner(
        &self,
        ty: &CqlType,
        attr: Option<&Attribute>,
        label: &str,
        notes: &mut Vec<String>,
        depth: usize,
    ) -> f64 {
        if depth > 16 {
            return DEFAULT_TEXT_BYTES;
        }
        match ty {
            CqlType::Native(n) => match n.fixed_size() {
                Some(s) => s,
                None => match attr.and_then(|a| a.size) {
                    Some(s) => s,
                    None => {
                        if attr.is_some() {
                            notes.push(format!(
                                "{label}: no average size; assumed {DEFAULT_TEXT_BYTES} bytes"
                            ));
                        }
                        DEFAULT_TEXT_BYTES
                    }
                },
            },
            CqlType::Frozen(t) => self.size_inner(t, attr, label, notes, depth + 1),
            CqlType::List(t) | CqlType::Set(t) => {
                let n = self.elements(attr, label, notes);
                n * self.size_inner(t, None, label, notes, depth + 1)
            }
            CqlType::Map(k, v) => {
                let n = self.elements(attr, label, notes);
                n * (self.size_inner(k, None, label, notes, depth + 1)
                    + self.size_inner(v, None, label, notes, depth + 1))
            }
            CqlType::Tuple(ts) => ts
                .iter()
                .map(|t| self.size_inner(t, None, label, notes, depth + 1))
                .sum(),
            CqlType::Vector(t, n) => {
                f64::from(*n) * self.size_inner(t, None, label, notes, depth + 1)
            }
            CqlType::Udt(name) => match self.graph.project.types.iter().find(|t| &t.name == name) {
                Some(u) => u
                    .fields
                    .iter()
                    .map(|f| self.size_inner(&f.ty, None, label, notes, depth + 1))
                    .sum(),
                None => DEFAULT_TEXT_BYTES,
            },
        }
    }

    fn elements(&self, attr: Option<&Attribute>, label: &str, notes: &mut Vec<String>) -> f64 {
        match attr.and_then(|a| a.elements) {
            Some(n) => n,
            None => {
                if attr.is_some() {
                    notes.push(format!(
                        "{label}: no element count; assumed {DEFAULT_ELEMENTS}"
                    ));
                }
                DEFAULT_ELEMENTS
            }
        }
    }

    pub fn table(&self, t: &Table) -> Estimate {
        let g = self.graph;
        let mut notes: Vec<String> = Vec::new();
        let Some(root) = g.node(&t.rows) else {
            return Estimate::default();
        };
        let root_count = self.count(root, &mut notes);

        // Rows: the rows' instances times every to-many step the table's
        // columns multiply through.
        let prefixes = g.multiplying_prefixes(t.columns.iter().filter_map(|c| match &c.source {
            Source::Attr { reached, .. } => Some(reached.path.as_slice()),
            _ => None,
        }));
        let partition_ids: HashSet<Reached> = t
            .columns
            .iter()
            .filter(|c| c.role == Role::Partition)
            .filter_map(|c| match &c.source {
                Source::Attr { reached, .. } => Some(reached.clone()),
                _ => None,
            })
            .collect();
        let in_partition = |path: &[Edge]| {
            let key = g.key_at(root, path);
            !key.is_empty() && key.iter().all(|k| partition_ids.contains(k))
        };
        let mut rows = root_count;
        let mut worst = 1.0;
        let mut growing = false;
        for p in &prefixes {
            let from = g.walk(root, &p[..p.len() - 1]).unwrap_or(root);
            let last = p[p.len() - 1];
            let (avg, max, rate) = self.step(from, last, &mut notes);
            rows *= avg;
            // The worst partition is bounded by the fanout *into* the
            // partition's entity: for rows keyed by the far side of an m:n,
            // that is the far side's maximum, not ours.
            let mut ratio = if avg > 0.0 { max / avg } else { 1.0 };
            if let Edge::Enter(r, end) = last {
                let mut across = p.clone();
                across.push(Edge::Leave(r, end.other()));
                if in_partition(&across) {
                    if let Some(far) = g.walk(root, &across) {
                        let (ravg, rmax, _) =
                            self.step(far, Edge::Enter(r, end.other()), &mut notes);
                        ratio = if ravg > 0.0 { rmax / ravg } else { 1.0 };
                    }
                }
            }
            worst *= ratio;
            growing |= rate;
        }
        // Rows counted through their owners or parents: those counts grow
        // with time when a step is a rate, and the worst partition grows
        // with the maximum of each step below the entity the partition is
        // keyed by.
        if let NodeId::Entity(e) = root {
            let mut at = e;
            let mut up: Vec<Edge> = Vec::new();
            let mut chain_worst = 1.0;
            for _ in 0..16 {
                if g.entity(at).count.is_some() {
                    break;
                }
                let Some((r, p)) = self.parent(at) else { break };
                let (avg, max, rate) = self.step(
                    NodeId::Entity(p),
                    Edge::Enter(r, crate::model::resolve::End::From),
                    &mut Vec::new(),
                );
                growing |= rate;
                if avg > 0.0 {
                    chain_worst *= max / avg;
                }
                up.push(Edge::Enter(r, crate::model::resolve::End::To));
                up.push(Edge::Leave(r, crate::model::resolve::End::From));
                if in_partition(&up) {
                    worst *= chain_worst;
                    break;
                }
                at = p;
            }
        }

        // Partitions: distinct partition key values, grouped by the entity
        // whose whole key they form.
        let mut partitions = 1.0;
        let mut groups: HashSet<Vec<Edge>> = HashSet::default();
        let (span, retained) = self.span(root);
        let mut bucketed = false;
        for c in t.columns.iter().filter(|c| c.role == Role::Partition) {
            match &c.source {
                Source::Attr { reached, .. } => {
                    let mut best: Option<(usize, usize)> = None;
                    for k in 0..=reached.path.len() {
                        let key: Vec<Reached> = g
                            .key_at(root, &reached.path[..k])
                            .into_iter()
                            .map(normalize)
                            .collect();
                        if !key.is_empty()
                            && key.contains(reached)
                            && key.iter().all(|x| partition_ids.contains(x))
                            && best.is_none_or(|(n, _)| key.len() > n)
                        {
                            best = Some((key.len(), k));
                        }
                    }
                    match best {
                        Some((_, k)) => {
                            let prefix = reached.path[..k].to_vec();
                            if groups.insert(prefix.clone()) {
                                let node = g.walk(root, &prefix).unwrap_or(root);
                                partitions *= self.count(node, &mut notes);
                            }
                        }
                        None => {
                            let attr = g.attr(reached.attr);
                            let d = match attr.distinct {
                                Some(d) => d,
                                None => {
                                    notes.push(format!(
                                        "{}.{}: no distinct count; assumed {DEFAULT_DISTINCT}",
                                        g.node_name(reached.attr.node()),
                                        attr.name
                                    ));
                                    DEFAULT_DISTINCT
                                }
                            };
                            partitions *= d.max(1.0);
                        }
                    }
                }
                Source::Bucket { period, .. } => {
                    partitions *= (span / period.days()).max(1.0);
                    bucketed = true;
                }
                Source::Shard { count } => partitions *= f64::from((*count).max(1)),
                Source::Constant | Source::Collection { .. } => {}
            }
        }
        let partitions = partitions.min(rows).max(1.0);
        let nr = rows / partitions;
        let nr_max = nr * worst;

        // Sizes per role.
        let (mut s_pk, mut s_static, mut s_rows) = (0.0, 0.0, 0.0);
        let mut largest_cell: f64 = 0.0;
        let mut largest_collection: f64 = 0.0;
        for c in &t.columns {
            let (attr, label) = match &c.source {
                Source::Attr {
                    reached, attribute, ..
                } => (Some(g.attr(reached.attr)), attribute.clone()),
                _ => (None, c.name.clone()),
            };
            let size = match &c.source {
                Source::Bucket { period, .. } => {
                    if *period == crate::model::Period::Hour {
                        8.0
                    } else {
                        4.0
                    }
                }
                Source::Shard { .. } | Source::Constant => 4.0,
                Source::Collection { .. } => {
                    // Pushed-up children: as many elements as the rows they
                    // replace, each the size of the attributes it holds.
                    let members: Vec<&Reached> = t
                        .collected
                        .iter()
                        .filter(|(_, n)| n == &c.name)
                        .map(|(r, _)| r)
                        .collect();
                    let elements = members.first().map_or(DEFAULT_ELEMENTS, |r| {
                        let mut n = 1.0;
                        for (i, e) in r.path.iter().enumerate() {
                            if g.fanout(*e).many {
                                let from = g.walk(root, &r.path[..i]).unwrap_or(root);
                                n *= self.step(from, *e, &mut notes).0;
                            }
                        }
                        n
                    });
                    largest_collection = largest_collection.max(elements);
                    let each: f64 = members
                        .iter()
                        .map(|r| {
                            let a = g.attr(r.attr);
                            self.value_size(
                                &a.ty,
                                Some(a),
                                &format!("{}.{}", g.node_name(r.attr.node()), a.name),
                                &mut notes,
                            )
                        })
                        .sum();
                    elements * each
                }
                _ => self.value_size(&c.ty, attr, &label, &mut notes),
            };
            if c.ty.is_collection() && !matches!(c.source, Source::Collection { .. }) {
                largest_collection = largest_collection
                    .max(attr.and_then(|a| a.elements).unwrap_or(DEFAULT_ELEMENTS));
            }
            if !c.role.is_key() {
                largest_cell = largest_cell.max(size);
            }
            match c.role {
                Role::Partition => s_pk += size,
                Role::Static => s_static += size,
                Role::Clustering(_) | Role::Regular => s_rows += size,
            }
        }
        let nc = t.columns.len();
        let npk = t.columns.iter().filter(|c| c.role.is_key()).count();
        let ns = t.columns.iter().filter(|c| c.role == Role::Static).count();
        let per_row = nc.saturating_sub(npk + ns) as f64;
        let nv = nr * per_row + ns as f64;
        let nv_max = nr_max * per_row + ns as f64;
        let st = s_pk + s_static + nr * s_rows + CELL_OVERHEAD * nv;
        let st_max = s_pk + s_static + nr_max * s_rows + CELL_OVERHEAD * nv_max;
        let rf = f64::from(g.project.keyspace.replication.total_factor().max(1));
        let growth = (growing && !bucketed).then(|| nr / span.max(1e-9));
        if growing && !retained {
            notes.push(format!(
                "{}: rows accumulate with time and no retention is stated; figures cover {} days",
                t.rows, span
            ));
        }
        notes.sort();
        notes.dedup();
        Estimate {
            rows,
            partitions,
            rows_per_partition: nr,
            rows_per_partition_max: nr_max,
            values: nv,
            values_max: nv_max,
            partition_bytes: st,
            partition_bytes_max: st_max,
            table_bytes: partitions * st,
            disk_bytes: partitions * st * rf,
            columns: nc,
            key_columns: npk,
            static_columns: ns,
            largest_cell,
            largest_collection,
            growth_per_day: growth,
            span_days: span,
            retained,
            assumptions: notes,
        }
    }
}

/// `1,095,005` style grouping for reports.
pub fn group_digits(v: f64) -> String {
    if !v.is_finite() {
        return "∞".into();
    }
    let n = v.round() as i128;
    let s = n.unsigned_abs().to_string();
    let mut out = String::new();
    for (i, ch) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(ch);
    }
    if n < 0 {
        out.insert(0, '-');
    }
    out
}

/// Human-readable bytes: `1.04 MiB`.
pub fn human_bytes(b: f64) -> String {
    if !b.is_finite() {
        return "∞".into();
    }
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
    let mut v = b;
    let mut u = 0;
    while v >= 1024.0 && u < units.len() - 1 {
        v /= 1024.0;
        u += 1;
    }
    if u == 0 {
        format!("{} B", v.round())
    } else {
        format!("{v:.2} {}", units[u])
    }
}
