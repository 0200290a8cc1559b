//! Partition estimates, by the Apache Cassandra docs' formulas:
//! Nv = Nr·(Nc − Npk − Ns) + Ns values per partition and
//! St = Σ partition key + Σ static + Nr·(Σ regular + Σ clustering) + 8·Nv bytes.
//! Missing numbers fall back to stated defaults, each listed as an assumption.

use crate::derive::types::{LogicalModel, Role, Rule, Source, Table, Why};
/// Number formatting moved to [`crate::model::quantity`]; these names stay for callers.
pub(crate) use crate::model::quantity::{group_digits, human_bytes};
use crate::model::resolve::{Edge, End, Graph, NodeId, Reached};
use crate::model::{Attribute, CqlType, Project, Shared};
use rustc_hash::FxHashMap as HashMap;
use serde::Serialize;
use std::cell::RefCell;

/// Instances assumed for an entity that states no count.
pub(crate) const DEFAULT_COUNT: f64 = 1000.0;

/// How many 1:n steps up a count is followed. The steps form no cycle
/// (the graph's parents leave them out), so this bounds only the stack on
/// hostile input; a real hierarchy is a handful of levels.
const MAX_PARENT_LEVELS: usize = 128;
/// Related instances assumed per instance when a relationship gives none.
pub(crate) const DEFAULT_FANOUT: f64 = 10.0;
/// Bytes assumed for a text or blob value of unknown size.
pub(crate) const DEFAULT_TEXT_BYTES: f64 = 16.0;
/// Elements assumed in a collection of unknown size.
pub(crate) const DEFAULT_ELEMENTS: f64 = 4.0;
/// Distinct values assumed for a non-key partition column.
pub(crate) const DEFAULT_DISTINCT: f64 = 100.0;
/// Bytes of per-cell overhead in the docs' formula (the timestamp).
pub(crate) const CELL_OVERHEAD: f64 = 8.0;

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
    /// Rows accumulate with time: a rate leads to them, or they are ordered
    /// by a time column while their numbers rest on defaults.
    pub accumulates: bool,
    /// New rows a day across the whole table, when a stated rate says.
    pub rows_per_day: Option<f64>,
    /// Shared: an edit's re-analysis hands an unchanged table's estimate on
    /// from the last analysis.
    pub assumptions: Shared<Vec<String>>,
    /// The assumptions that are default numbers standing in for ones the
    /// project does not state (a subset of `assumptions`).
    pub defaults: Shared<Vec<String>>,
}

/// Whether an assumption note stands for a number the project should state.
pub(crate) fn is_default_note(note: &str) -> bool {
    note.contains("; assumed ")
}

/// Average and maximum instances across one step, whether it is a rate,
/// and whether the project states it (else a default stands in).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Step {
    avg: f64,
    max: f64,
    rate: bool,
    stated: bool,
}

impl Step {
    const ONE: Step = Step {
        avg: 1.0,
        max: 1.0,
        rate: false,
        stated: true,
    };

    /// How much worse than average the worst instance is.
    fn ratio(self) -> f64 {
        if self.avg > 0.0 {
            self.max / self.avg
        } else {
            1.0
        }
    }
}

/// A node's instances, the days they accumulated over when a rate produced
/// them, and the assumptions behind the figure.
#[derive(Clone, Debug)]
struct Counted {
    count: f64,
    span: Option<f64>,
    notes: Vec<String>,
}

/// Estimates for every table of a model, in table order.
pub fn estimate(project: &Project, model: &LogicalModel) -> Vec<Estimate> {
    estimate_in(&Graph::new(project), model)
}

/// [`estimate`] over an already built graph of the project.
pub(crate) fn estimate_in(graph: &Graph, model: &LogicalModel) -> Vec<Estimate> {
    let est = Estimator::new(graph);
    model.tables.iter().map(|t| est.table(t)).collect()
}

/// The attribute whose figures size a collection's elements: a native
/// element's variable size is the attribute's stated `size` (a set of
/// tags: bytes a tag), or the assumed one, said in the notes. Nested
/// collections and types size their parts with defaults.
fn element_attr<'a>(element: &CqlType, attr: Option<&'a Attribute>) -> Option<&'a Attribute> {
    if matches!(element, CqlType::Native(_)) {
        attr
    } else {
        None
    }
}

pub struct Estimator<'g, 'p> {
    graph: &'g Graph<'p>,
    /// Instances per node, computed once with their assumptions so every
    /// table counting through a node reports the same notes.
    counts: RefCell<HashMap<NodeId, Counted>>,
    /// The 1:n relationships into each entity from another one, with the
    /// one side, by relationship name (not file order): the graph's, made
    /// once for every estimator of it.
    parents: &'g crate::model::resolve::Parents,
}

impl<'g, 'p> Estimator<'g, 'p> {
    pub fn new(graph: &'g Graph<'p>) -> Self {
        Estimator {
            graph,
            counts: RefCell::new(HashMap::default()),
            parents: graph.parents(),
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

    /// Instances per start instance across one step.
    fn step(&self, from: NodeId, edge: Edge, notes: &mut Vec<String>) -> Step {
        let f = self.graph.fanout(edge);
        if !f.many {
            return Step::ONE;
        }
        let Edge::Enter(r, end) = edge else {
            return Step::ONE;
        };
        let rel = self.graph.rel(r);
        let (avg, max, per, stated) = if f.avg.is_nan() {
            match self.implied_avg(r, end, notes) {
                Some(a) => (a, a, None, true),
                None if end == End::To
                    && rel.cardinality == crate::model::Cardinality::ManyToMany =>
                {
                    // Neither side is stated: one assumed figure (the
                    // `from` side's) counts the links, and this side
                    // follows from it, so both directions print and use
                    // the same assumption.
                    let a = self.assumed_reverse(r, notes);
                    (a, a, None, false)
                }
                None => {
                    notes.push(format!(
                        "{}: no count for {} per {}; assumed {DEFAULT_FANOUT}",
                        rel.name,
                        match end {
                            End::From => &rel.to,
                            End::To => &rel.from,
                        },
                        self.graph.node_name(from)
                    ));
                    (DEFAULT_FANOUT, DEFAULT_FANOUT, None, false)
                }
            }
        } else {
            (f.avg, f.max.unwrap_or(f.avg).max(f.avg), f.per, true)
        };
        match per {
            Some(period) => {
                let target = self
                    .graph
                    .end_entity(r, end.other())
                    .map_or(from, NodeId::Entity);
                let (days, _) = self.span(target);
                let factor = days / period.days();
                Step {
                    avg: avg * factor,
                    max: max * factor,
                    rate: true,
                    stated,
                }
            }
            None => Step {
                avg,
                max,
                rate: false,
                stated,
            },
        }
    }

    /// `from` instances per `to` instance of an m:n with no numbers: the
    /// links assumed from the `from` side, spread over the `to` side.
    fn assumed_reverse(&self, r: usize, notes: &mut Vec<String>) -> f64 {
        let g = self.graph;
        let rel = g.rel(r);
        let (Some(from), Some(to)) = (g.end_entity(r, End::From), g.end_entity(r, End::To)) else {
            return DEFAULT_FANOUT;
        };
        notes.push(format!(
            "{}: no count for {} per {}; assumed {DEFAULT_FANOUT}",
            rel.name, rel.to, rel.from
        ));
        let to_count = self.count(NodeId::Entity(to), notes);
        if to_count > 0.0 {
            self.count(NodeId::Entity(from), notes) * DEFAULT_FANOUT / to_count
        } else {
            DEFAULT_FANOUT
        }
    }

    /// One side's average of an m:n that states only the other side's:
    /// both sides count the same links, so `count(far) · far's average /
    /// count(near)`.
    fn implied_avg(&self, r: usize, end: End, notes: &mut Vec<String>) -> Option<f64> {
        let g = self.graph;
        if g.rel(r).cardinality != crate::model::Cardinality::ManyToMany {
            return None;
        }
        let other = g.fanout(Edge::Enter(r, end.other()));
        if other.avg.is_nan() || other.per.is_some() {
            return None;
        }
        let near = NodeId::Entity(g.end_entity(r, end)?);
        let far = NodeId::Entity(g.end_entity(r, end.other())?);
        let near_count = self.count(near, notes);
        (near_count > 0.0).then(|| self.count(far, notes) * other.avg / near_count)
    }

    /// Instances of a node, derived through owners and parents when the
    /// project gives no count.
    pub fn count(&self, node: NodeId, notes: &mut Vec<String>) -> f64 {
        self.count_inner(node, notes, 0)
    }

    /// A node's instances and, when a rate leads to them, the days they
    /// accumulated over (the cost module turns the pair into a rate).
    pub(crate) fn count_with_span(
        &self,
        node: NodeId,
        notes: &mut Vec<String>,
    ) -> (f64, Option<f64>) {
        self.count_span(node, notes, 0)
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
        if let Some(found) = self.counts.borrow().get(&node) {
            notes.extend(found.notes.iter().cloned());
            return (found.count, found.span);
        }
        let g = self.graph;
        let mut own: Vec<String> = Vec::new();
        let (c, span) = match node {
            NodeId::Entity(e) => self.entity_count(e, &mut own, depth),
            NodeId::Rel(r) => {
                let rel = g.rel(r);
                let from = g.entity_index(&rel.from).map(NodeId::Entity);
                let to = g.entity_index(&rel.to).map(NodeId::Entity);
                match (from, to) {
                    (Some(f), Some(t)) if depth < MAX_PARENT_LEVELS => match rel.cardinality {
                        crate::model::Cardinality::OneToOne => {
                            self.count_span(f, &mut own, depth + 1)
                        }
                        crate::model::Cardinality::OneToMany => {
                            self.count_span(t, &mut own, depth + 1)
                        }
                        crate::model::Cardinality::ManyToMany => {
                            let (fc, span) = self.count_span(f, &mut own, depth + 1);
                            let s = self.step(f, Edge::Enter(r, End::From), &mut own);
                            (fc * s.avg, span)
                        }
                    },
                    _ => (DEFAULT_COUNT, None),
                }
            }
        };
        own.sort();
        own.dedup();
        notes.extend(own.iter().cloned());
        self.counts.borrow_mut().insert(
            node,
            Counted {
                count: c,
                span,
                notes: own,
            },
        );
        (c, span)
    }

    /// An entity's stated count, else the count through its parents: one
    /// whose numbers the project states wins over one resting on defaults,
    /// then the largest (the safe side for sizing), whatever their order in
    /// the file.
    fn entity_count(&self, e: usize, notes: &mut Vec<String>, depth: usize) -> (f64, Option<f64>) {
        let ent = self.graph.entity(e);
        let node = NodeId::Entity(e);
        if let Some(c) = ent.count {
            // A rate: the instances that arrived over the retention (or
            // the horizon), growing with time like a rated relationship.
            return match ent.per {
                Some(period) => {
                    let (days, _) = self.span(node);
                    (c * days / period.days(), Some(days))
                }
                None => (c, None),
            };
        }
        let mut best: Option<(bool, f64, Option<f64>, Vec<String>)> = None;
        if depth < MAX_PARENT_LEVELS {
            for &(r, p) in self.parents.group(e) {
                let mut n = Vec::new();
                let (pc, pspan) = self.count_span(NodeId::Entity(p), &mut n, depth + 1);
                let s = self.step(NodeId::Entity(p), Edge::Enter(r, End::From), &mut n);
                let mut c = pc * s.avg;
                let mut span = if s.rate {
                    Some(self.span(node).0)
                } else {
                    pspan
                };
                if let (Some(keep), Some(over)) = (ent.retention_days, span) {
                    if keep < over && over > 0.0 {
                        c *= keep / over;
                        span = Some(keep);
                    }
                }
                let stated = !n.iter().any(|x| is_default_note(x));
                let better = match &best {
                    None => true,
                    Some((bs, bc, ..)) => (stated && !bs) || (stated == *bs && c > *bc),
                };
                if better {
                    best = Some((stated, c, span, n));
                }
            }
        }
        if let Some((_, c, span, n)) = best {
            notes.extend(n);
            (c, span)
        } else {
            notes.push(format!("{}: no count; assumed {DEFAULT_COUNT}", ent.name));
            (DEFAULT_COUNT, None)
        }
    }

    /// The worst-to-average ratio of the rows under one partition, through
    /// every chain of 1:n parents that leads from the rows to the entity
    /// the partition is keyed by (the largest when several do), whether a
    /// rate is on the way, and the figures that chain assumed.
    fn worst_up(
        &self,
        e: usize,
        up: &mut Vec<Edge>,
        in_partition: &dyn Fn(&[Edge]) -> bool,
        toward: &dyn Fn(&[Edge]) -> bool,
    ) -> Option<(f64, bool, Vec<String>)> {
        let mut best: Option<(f64, bool, Vec<String>)> = None;
        for &(r, p) in self.parents.group(e) {
            up.push(Edge::Enter(r, End::To));
            up.push(Edge::Leave(r, End::From));
            // A climb ends at the partition's entity only where its key
            // columns are reached, so only the starts of their paths are
            // climbed: a bounded search, however many parents share
            // ancestors (a climb through each would double per level).
            let found = if toward(up) {
                let mut assumed = Vec::new();
                let s = self.step(NodeId::Entity(p), Edge::Enter(r, End::From), &mut assumed);
                if in_partition(up) {
                    Some((s.ratio(), s.rate, assumed))
                } else {
                    self.worst_up(p, up, in_partition, toward)
                        .map(|(x, rate, mut further)| {
                            further.extend(assumed);
                            (x * s.ratio(), rate || s.rate, further)
                        })
                }
            } else {
                None
            };
            up.pop();
            up.pop();
            if let Some(f) = found {
                // On a tie, the chain resting on fewer assumed figures: the
                // worst case is reached as surely through it.
                let assumed =
                    |notes: &[String]| notes.iter().filter(|n| is_default_note(n)).count();
                let better = best.as_ref().is_none_or(|b| match f.0.partial_cmp(&b.0) {
                    Some(std::cmp::Ordering::Greater) => true,
                    Some(std::cmp::Ordering::Equal) => assumed(&f.2) < assumed(&b.2),
                    _ => false,
                });
                if better {
                    best = Some(f);
                }
            }
        }
        best
    }

    /// Elements of a pushed-up collection column per row, on average and at
    /// worst: the to-many steps from the rows to the collected children.
    pub fn collection_elements(
        &self,
        t: &Table,
        column: &str,
        notes: &mut Vec<String>,
    ) -> (f64, f64) {
        let g = self.graph;
        let Some(root) = g.node(&t.rows) else {
            return (DEFAULT_ELEMENTS, DEFAULT_ELEMENTS);
        };
        let Some((r, _)) = t.collected.iter().find(|(_, n)| n == column) else {
            return (DEFAULT_ELEMENTS, DEFAULT_ELEMENTS);
        };
        let (mut avg, mut max) = (1.0, 1.0);
        for (i, e) in r.path.iter().enumerate() {
            if g.fanout(*e).many {
                let from = g.walk(root, &r.path[..i]).unwrap_or(root);
                let s = self.step(from, *e, notes);
                avg *= s.avg;
                max *= s.max;
            }
        }
        (avg, max)
    }

    /// Bytes of one value of `ty`.
    pub(crate) fn value_size(
        &self,
        ty: &CqlType,
        attr: Option<&Attribute>,
        label: &dyn std::fmt::Display,
        notes: &mut Vec<String>,
    ) -> f64 {
        self.size_inner(ty, attr, label, notes, &mut Vec::new())
    }

    /// `within` holds the user types being sized, outermost first: a type
    /// that contains itself (refused by validation, but estimated while the
    /// designer is mid-edit) counts as a default-sized value where it
    /// recurs, so the size stays finite.
    fn size_inner<'t>(
        &'t self,
        ty: &'t CqlType,
        attr: Option<&Attribute>,
        label: &dyn std::fmt::Display,
        notes: &mut Vec<String>,
        within: &mut Vec<&'t str>,
    ) -> f64 {
        match ty {
            CqlType::Native(n) => match n.fixed_size() {
                Some(s) => s,
                None => {
                    if let Some(s) = attr.and_then(|a| a.size) {
                        s
                    } else {
                        if attr.is_some() {
                            notes.push(format!(
                                "{label}: no average size; assumed {DEFAULT_TEXT_BYTES} bytes"
                            ));
                        }
                        DEFAULT_TEXT_BYTES
                    }
                }
            },
            CqlType::Frozen(t) => self.size_inner(t, attr, label, notes, within),
            CqlType::List(t) | CqlType::Set(t) => {
                let n = self.elements(attr, label, notes);
                n * self.size_inner(t, element_attr(t, attr), label, notes, within)
            }
            CqlType::Map(k, v) => {
                let n = self.elements(attr, label, notes);
                n * (self.size_inner(k, element_attr(k, attr), label, notes, within)
                    + self.size_inner(v, element_attr(v, attr), label, notes, within))
            }
            CqlType::Tuple(ts) => ts
                .iter()
                .map(|t| self.size_inner(t, None, label, notes, within))
                .sum(),
            CqlType::Vector(t, n) => f64::from(*n) * self.size_inner(t, None, label, notes, within),
            CqlType::Udt(name) => {
                let found = self.graph.project.types.iter().find(|t| &t.name == name);
                match found {
                    Some(u) if !within.contains(&name.as_str()) => {
                        within.push(name.as_str());
                        let size = u
                            .fields
                            .iter()
                            .map(|f| self.size_inner(&f.ty, None, label, notes, within))
                            .sum();
                        within.pop();
                        size
                    }
                    _ => DEFAULT_TEXT_BYTES,
                }
            }
        }
    }

    // A method beside the other figure lookups, which read the graph.
    #[allow(clippy::unused_self)]
    fn elements(
        &self,
        attr: Option<&Attribute>,
        label: &dyn std::fmt::Display,
        notes: &mut Vec<String>,
    ) -> f64 {
        if let Some(n) = attr.and_then(|a| a.elements) {
            n
        } else {
            if attr.is_some() {
                notes.push(format!(
                    "{label}: no element count; assumed {DEFAULT_ELEMENTS}"
                ));
            }
            DEFAULT_ELEMENTS
        }
    }

    /// Linked pairs of two entities: the instances of the relationship
    /// between them (the largest when several link them), if any does.
    fn links(&self, a: NodeId, b: NodeId, notes: &mut Vec<String>) -> Option<f64> {
        let (NodeId::Entity(a), NodeId::Entity(b)) = (a, b) else {
            return None;
        };
        let g = self.graph;
        let mut best: Option<f64> = None;
        for (r, rel) in g.project.relationships.iter().enumerate() {
            let ends = (g.entity_index(&rel.from), g.entity_index(&rel.to));
            if a != b && (ends == (Some(a), Some(b)) || ends == (Some(b), Some(a))) {
                let n = self.count(NodeId::Rel(r), notes);
                best = Some(best.map_or(n, |x: f64| x.max(n)));
            }
        }
        best
    }

    #[allow(clippy::too_many_lines)] // one formula, step by step
    pub fn table(&self, t: &Table) -> Estimate {
        let g = self.graph;
        let mut notes: Vec<String> = Vec::new();
        let Some(root) = g.node(&t.rows) else {
            return Estimate::default();
        };
        let (mut root_count, mut root_span) = self.count_span(root, &mut notes, 0);
        // A table's own retention replaces its rows' for this table: rows
        // that accumulate over a span, it holds for its own, shorter or
        // longer (a 20-second window of readings kept two years; readings
        // kept 30 days copied into a table that keeps them 60).
        if let (Some(keep), Some(over)) = (t.physical.retention_days, root_span) {
            if over > 0.0 {
                root_count *= keep / over;
                root_span = Some(keep);
            }
        }

        // Rows: the rows' instances times every to-many step the table's
        // columns multiply through.
        let prefixes = g.multiplying_prefixes(t.columns.iter().filter_map(|c| match &c.source {
            Source::Attr { reached, .. } => Some(reached.path.as_slice()),
            _ => None,
        }));
        // A partition key is a few columns: a scan beats hashing.
        let partition_ids: Vec<&Reached> = t
            .columns
            .iter()
            .filter(|c| c.role == Role::Partition)
            .filter_map(|c| match &c.source {
                Source::Attr { reached, .. } => Some(reached),
                _ => None,
            })
            .collect();
        let in_partition = |path: &[Edge]| g.key_at_all(root, path, |k| partition_ids.contains(&k));
        let toward = |up: &[Edge]| partition_ids.iter().any(|r| r.path.starts_with(up));
        let mut rows = root_count;
        let mut worst = 1.0;
        let mut growing = false;
        // Rows multiplied through a rated step (a sensor with each of its
        // readings) accumulate over that step's rows' span, not the root's.
        let mut rated_span: Option<(f64, bool)> = None;
        for p in &prefixes {
            let from = g.walk(root, &p[..p.len() - 1]).unwrap_or(root);
            let last = p[p.len() - 1];
            let step = self.step(from, last, &mut notes);
            rows *= step.avg;
            // The worst partition is bounded by the fanout *into* the
            // partition's entity: for rows keyed by the far side of an m:n,
            // that is the far side's maximum, not ours.
            let mut ratio = step.ratio();
            if let Edge::Enter(r, end) = last {
                let mut across = p.clone();
                across.push(Edge::Leave(r, end.other()));
                if in_partition(&across) {
                    if let Some(far) = g.walk(root, &across) {
                        ratio = self
                            .step(far, Edge::Enter(r, end.other()), &mut notes)
                            .ratio();
                    }
                }
            }
            worst *= ratio;
            growing |= step.rate;
            if let (true, Edge::Enter(r, end)) = (step.rate, last) {
                let target = g.end_entity(r, end.other()).map_or(root, NodeId::Entity);
                let (days, kept) = self.span(target);
                // The rows fill over the longest of the rates' spans, and
                // stay bounded only if every rate's rows are kept for a
                // stated time.
                rated_span = Some(match rated_span {
                    None => (days, kept),
                    Some((d, k)) => (d.max(days), k && kept),
                });
            }
        }
        // Rows grouped under a parent's key: the worst partition follows the
        // maximum of every 1:n step from the rows up to that parent, whether
        // the rows' count is stated or derived through another parent.
        growing |= root_span.is_some();
        if let NodeId::Entity(e) = root {
            if let Some((ratio, rate, assumed)) =
                self.worst_up(e, &mut Vec::new(), &in_partition, &toward)
            {
                worst *= ratio;
                growing |= rate;
                // The worst case rests on that chain's figures too.
                for n in assumed {
                    if !notes.contains(&n) {
                        notes.push(n);
                    }
                }
            }
        }

        // Partitions: distinct partition key values, grouped by the entity
        // whose whole key they form.
        let mut partitions = 1.0;
        let mut groups: Vec<&[Edge]> = Vec::new();
        let (span, retained) = match (t.physical.retention_days, root_span, rated_span) {
            (Some(days), ..) => (days, true),
            (None, None, Some(rated)) => rated,
            _ => self.span(root),
        };
        let mut bucketed = false;
        let mut group_nodes: Vec<(NodeId, f64)> = Vec::new();
        for c in t.columns.iter().filter(|c| c.role == Role::Partition) {
            match &c.source {
                Source::Attr { reached, .. } => {
                    let mut best: Option<(usize, usize)> = None;
                    // Any identifier counts: a partition keyed by a unique
                    // `confirm_number` holds one reservation, as one keyed by
                    // the declared key would.
                    for k in 0..=reached.path.len() {
                        // Identifiers come normalized (see `Graph::key_at`).
                        g.each_identifier(root, &reached.path[..k], |_, key| {
                            if key.contains(reached)
                                && key.iter().all(|x| partition_ids.contains(&x))
                                && best.is_none_or(|(n, _)| key.len() > n)
                            {
                                best = Some((key.len(), k));
                            }
                            false
                        });
                    }
                    if let Some((_, k)) = best {
                        let prefix = &reached.path[..k];
                        if !groups.contains(&prefix) {
                            groups.push(prefix);
                            let node = g.walk(root, prefix).unwrap_or(root);
                            let n = self.count(node, &mut notes);
                            partitions *= n;
                            group_nodes.push((node, n));
                        }
                    } else {
                        let attr = g.attr(reached.attr);
                        let d = if let Some(d) = attr.distinct {
                            d
                        } else {
                            notes.push(format!(
                                "{}.{}: no distinct count; assumed {DEFAULT_DISTINCT}",
                                g.node_name(reached.attr.node()),
                                attr.name
                            ));
                            DEFAULT_DISTINCT
                        };
                        partitions *= d.max(1.0);
                    }
                }
                Source::Bucket { period, .. } => {
                    partitions *= (span / period.days()).max(1.0);
                    bucketed = true;
                }
                Source::Shard { count } => partitions *= f64::from((*count).max(1)),
                Source::Constant | Source::Collection { .. } | Source::Aggregate { .. } => {}
            }
        }
        // Two entities in one partition key pair up only where a
        // relationship links them (messages by room and user: the users in
        // a room), not every one with every other.
        for (i, &(a, na)) in group_nodes.iter().enumerate() {
            for &(b, nb) in &group_nodes[i + 1..] {
                if let Some(links) = self.links(a, b, &mut notes) {
                    if links < na * nb && na * nb > 0.0 {
                        partitions *= links / (na * nb);
                    }
                }
            }
        }
        let partitions = partitions.min(rows).max(1.0);
        let mut nr = rows / partitions;
        let mut nr_max = nr * worst;
        // A summary holds one row per group and window, however many rows
        // it aggregates: a partition gains a row per window.
        let summary = t.columns.iter().any(|c| c.rule == Rule::Aggregate);
        if summary {
            let windows: f64 = t
                .clustering()
                .filter_map(|c| match &c.source {
                    Source::Bucket { period, .. } => Some((span / period.days()).max(1.0)),
                    _ => None,
                })
                .product();
            // And a row per member of its group (a query's `group`): the
            // members an identifier names (alone, or with the rest of it in
            // the partition key: room numbers within a hotel) are that
            // entity's instances per partition, others their distinct values.
            let mut members = 1.0;
            for c in t
                .clustering()
                .filter(|c| c.why.as_deref() == Some(&Why::Grouped))
            {
                let Source::Attr { reached, .. } = &c.source else {
                    continue;
                };
                let mut keyed = false;
                g.each_identifier(root, &reached.path, |_, key| {
                    keyed |= key.contains(reached)
                        && key
                            .iter()
                            .all(|x| x == reached || partition_ids.contains(&x));
                    false
                });
                let attr = g.attr(reached.attr);
                let n = if keyed {
                    let node = g.walk(root, &reached.path).unwrap_or(root);
                    self.count(node, &mut notes) / partitions
                } else if let Some(d) = attr.distinct {
                    d
                } else {
                    notes.push(format!(
                        "{}.{}: no distinct count; assumed {DEFAULT_DISTINCT}",
                        g.node_name(reached.attr.node()),
                        attr.name
                    ));
                    DEFAULT_DISTINCT
                };
                members *= n.max(1.0);
            }
            let per = members * windows;
            rows = partitions * per;
            nr = per;
            nr_max = per;
            growing = windows > 1.0;
        }

        // Sizes per role.
        let (mut s_pk, mut s_static, mut s_rows) = (0.0, 0.0, 0.0);
        // Bytes a worst-case collection adds over the average, per row and
        // once per partition (a static collection).
        let mut worst_extra = [0.0, 0.0];
        let mut largest_cell: f64 = 0.0;
        let mut largest_collection: f64 = 0.0;
        for c in &t.columns {
            let (attr, label) = match &c.source {
                Source::Attr {
                    reached, attribute, ..
                } => (
                    Some(g.attr(reached.attr)),
                    attribute as &dyn std::fmt::Display,
                ),
                _ => (None, &c.name as &dyn std::fmt::Display),
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
                    let (elements, most) = self.collection_elements(t, &c.name, &mut notes);
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
                    // The worst row holds the largest collection.
                    worst_extra[usize::from(c.role == Role::Static)] += (most - elements) * each;
                    elements * each
                }
                _ => self.value_size(&c.ty, attr, label, &mut notes),
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
        let st_max = s_pk
            + s_static
            + worst_extra[1]
            + nr_max * (s_rows + worst_extra[0])
            + CELL_OVERHEAD * nv_max;
        let rf = f64::from(g.project.keyspace.replication.total_factor().max(1));
        let growth = (growing && !bucketed).then(|| nr / span.max(1e-9));
        let rows_per_day = growing.then(|| rows / span.max(1e-9));
        // Rows ordered by a time column pile up with time too; when no stated
        // number says how many, nothing shows they stop.
        let on_defaults = notes.iter().any(|n| is_default_note(n));
        let time_ordered = t
            .clustering()
            .any(|c| matches!(c.source, Source::Attr { .. }) && c.ty.is_temporal());
        let accumulates = growing || (time_ordered && on_defaults);
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
            accumulates,
            rows_per_day,
            defaults: notes
                .iter()
                .filter(|n| is_default_note(n))
                .cloned()
                .collect(),
            assumptions: notes.into(),
        }
    }
}
