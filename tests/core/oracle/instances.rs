//! Brute-force uniqueness: a small random instance of the conceptual model
//! (entity instances with keys, weak entities numbered per owner so their
//! own key repeats across owners, relationship instances that respect the
//! cardinalities, few distinct non-key values so searches collide), then
//! every row each derived table would hold, found by walking each column's
//! relationship path (columns that share a path prefix share the instance
//! there, a to-many step yields one row per instance). Two rows with the
//! same primary key must be the same row, and rows of one partition must
//! agree on every static column; otherwise a write silently replaces data.
//!
//! The world honours each entity's `unique` identifiers (an instance that
//! would repeat one gets a fresh value of its own attribute there), and
//! [`check_necessary`] proves the other direction: leaving any clustering
//! column out of a table's key lets two rows of some world collide.

use cqlmodel::derive::{normalize, LogicalModel, Role, Source, Table};
use cqlmodel::model::resolve::{AttrId, Edge, End, Graph, NodeId, Reached};
use cqlmodel::model::{Cardinality, Project};
use std::collections::{HashMap, HashSet};

/// Instances of one entity: attribute values in attribute order.
type EntityRows = Vec<Vec<String>>;

/// One relationship instance: the entity instances at its ends, and its
/// attribute values.
struct Link {
    from: usize,
    to: usize,
    values: Vec<String>,
}

pub struct World {
    entities: Vec<EntityRows>,
    links: Vec<Vec<Link>>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Inst {
    Entity(usize, usize),
    Link(usize, usize),
}

/// A tiny deterministic generator (splitmix64), so a failing case can be
/// replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn entity_index(p: &Project, name: &str) -> Option<usize> {
    p.entities.iter().position(|e| e.name == name)
}

impl World {
    /// `strong` instances of every entity without an owner, `weak` per owner
    /// instance of every weak entity.
    pub fn generate(p: &Project, seed: u64, strong: usize, weak: usize) -> World {
        let mut rng = Rng(seed);
        let n = p.entities.len();
        let mut entities: Vec<Option<EntityRows>> = vec![None; n];
        let mut links: Vec<Option<Vec<Link>>> = (0..p.relationships.len()).map(|_| None).collect();
        // Owners first: repeat until every entity has its instances.
        let mut progress = true;
        while progress && entities.iter().any(Option::is_none) {
            progress = false;
            for (e, ent) in p.entities.iter().enumerate() {
                if entities[e].is_some() {
                    continue;
                }
                let value = |rng: &mut Rng, a: &str, i: usize| -> String {
                    if ent.key.iter().any(|k| k == a) {
                        format!("{}.{a}#{i}", ent.name)
                    } else {
                        // Two values: searches and non-key columns collide.
                        format!("v{}", rng.below(2))
                    }
                };
                match ent.owner.as_deref() {
                    None => {
                        let rows = (0..strong)
                            .map(|i| {
                                ent.attributes
                                    .iter()
                                    .map(|a| value(&mut rng, &a.name, i))
                                    .collect()
                            })
                            .collect();
                        entities[e] = Some(rows);
                        progress = true;
                    }
                    Some(r_name) => {
                        let r = p
                            .relationships
                            .iter()
                            .position(|r| r.name == r_name)
                            .expect("the identifying relationship exists");
                        let owner = entity_index(p, &p.relationships[r].from).expect("owner");
                        let Some(owners) = entities[owner].as_ref().map(Vec::len) else {
                            continue;
                        };
                        let mut rows = Vec::new();
                        let mut rel = Vec::new();
                        for o in 0..owners {
                            for i in 0..weak {
                                // The same local key under every owner.
                                rel.push(Link {
                                    from: o,
                                    to: rows.len(),
                                    values: rel_values(&mut rng, p, r),
                                });
                                rows.push(
                                    ent.attributes
                                        .iter()
                                        .map(|a| value(&mut rng, &a.name, i))
                                        .collect(),
                                );
                            }
                        }
                        entities[e] = Some(rows);
                        links[r] = Some(rel);
                        progress = true;
                    }
                }
            }
        }
        let entities: Vec<EntityRows> = entities
            .into_iter()
            .map(|e| e.expect("owners form no cycle"))
            .collect();
        for (r, rel) in p.relationships.iter().enumerate() {
            if links[r].is_some() {
                continue;
            }
            let from = entities[entity_index(p, &rel.from).expect("from")].len();
            let to = entities[entity_index(p, &rel.to).expect("to")].len();
            let mut out = Vec::new();
            match rel.cardinality {
                Cardinality::OneToMany => {
                    // Each `to` instance has at most one `from`.
                    for t in 0..to {
                        if from > 0 && rng.below(4) > 0 {
                            let f = rng.below(from);
                            out.push(Link {
                                from: f,
                                to: t,
                                values: rel_values(&mut rng, p, r),
                            });
                        }
                    }
                }
                Cardinality::OneToOne => {
                    // Random pairs, each instance in one at most: pairing
                    // the first instances only would keep every partner
                    // under the same owners, and some collisions would
                    // never show.
                    let mut froms: Vec<usize> = (0..from).collect();
                    let mut tos: Vec<usize> = (0..to).collect();
                    for v in [&mut froms, &mut tos] {
                        for i in (1..v.len()).rev() {
                            v.swap(i, rng.below(i + 1));
                        }
                    }
                    for (f, t) in froms.into_iter().zip(tos) {
                        if rng.below(4) > 0 {
                            out.push(Link {
                                from: f,
                                to: t,
                                values: rel_values(&mut rng, p, r),
                            });
                        }
                    }
                }
                Cardinality::ManyToMany => {
                    for f in 0..from {
                        for t in 0..to {
                            if rng.below(2) == 0 {
                                out.push(Link {
                                    from: f,
                                    to: t,
                                    values: rel_values(&mut rng, p, r),
                                });
                            }
                        }
                    }
                }
            }
            links[r] = Some(out);
        }
        let mut world = World {
            entities,
            links: links
                .into_iter()
                .map(std::option::Option::unwrap_or_default)
                .collect(),
        };
        world.honour_unique(p);
        world
    }

    /// Each `unique` identifier holds: walking each of its references from
    /// every instance (through the world's links), an instance whose values
    /// repeat an earlier one's gets a fresh value of the identifier's first
    /// attribute of its own. Identifiers with none of the entity's own
    /// attributes are left as generated.
    fn honour_unique(&mut self, p: &Project) {
        let graph = Graph::new(p);
        for (e, ent) in p.entities.iter().enumerate() {
            let root = NodeId::Entity(e);
            for ident in &ent.unique {
                let Some(refs) = ident
                    .iter()
                    .map(|text| graph.resolve(root, text).ok().map(normalize))
                    .collect::<Option<Vec<Reached>>>()
                else {
                    continue;
                };
                let Some(own) = refs.iter().find_map(|r| match (r.path.is_empty(), r.attr) {
                    (true, AttrId::Entity(e2, a)) if e2 == e => Some(a),
                    _ => None,
                }) else {
                    continue;
                };
                let mut seen: HashSet<Vec<Option<String>>> = HashSet::new();
                for i in 0..self.entities[e].len() {
                    let values: Vec<Option<String>> = refs
                        .iter()
                        .map(|r| self.value_along(p, Inst::Entity(e, i), r))
                        .collect();
                    if values.iter().any(Option::is_none) {
                        continue;
                    }
                    if !seen.insert(values) {
                        let fresh = format!("{}#u{i}", ent.attributes[own].name);
                        self.entities[e][i][own] = fresh;
                    }
                }
            }
        }
    }

    /// The value of `r` reached from `at` along a to-one path (the first
    /// instance where a step offers several).
    fn value_along(&self, p: &Project, at: Inst, r: &Reached) -> Option<String> {
        let mut here = at;
        for &edge in &r.path {
            here = *self.step(p, here, edge).first()?;
        }
        self.value(here, r.attr)
    }

    fn step(&self, p: &Project, at: Inst, edge: Edge) -> Vec<Inst> {
        match (at, edge) {
            (Inst::Entity(e, i), Edge::Enter(r, end)) => {
                let rel = &p.relationships[r];
                let end_name = match end {
                    End::From => &rel.from,
                    End::To => &rel.to,
                };
                if entity_index(p, end_name) != Some(e) {
                    return vec![];
                }
                self.links[r]
                    .iter()
                    .enumerate()
                    .filter(|(_, l)| match end {
                        End::From => l.from == i,
                        End::To => l.to == i,
                    })
                    .map(|(j, _)| Inst::Link(r, j))
                    .collect()
            }
            (Inst::Link(r0, j), Edge::Leave(r, end)) if r0 == r => {
                let rel = &p.relationships[r];
                let l = &self.links[r][j];
                let (name, i) = match end {
                    End::From => (&rel.from, l.from),
                    End::To => (&rel.to, l.to),
                };
                vec![Inst::Entity(entity_index(p, name).expect("end"), i)]
            }
            _ => vec![],
        }
    }

    fn value(&self, at: Inst, attr: AttrId) -> Option<String> {
        match (at, attr) {
            (Inst::Entity(e, i), AttrId::Entity(e2, a)) if e == e2 => {
                self.entities[e].get(i)?.get(a).cloned()
            }
            (Inst::Link(r, j), AttrId::Rel(r2, a)) if r == r2 => {
                self.links[r].get(j)?.values.get(a).cloned()
            }
            _ => None,
        }
    }

    fn roots(&self, p: &Project, rows: &str) -> Vec<Inst> {
        if let Some(e) = entity_index(p, rows) {
            return (0..self.entities[e].len())
                .map(|i| Inst::Entity(e, i))
                .collect();
        }
        match p.relationships.iter().position(|r| r.name == rows) {
            Some(r) => (0..self.links[r].len()).map(|j| Inst::Link(r, j)).collect(),
            None => vec![],
        }
    }

    /// Every row `t` holds in this world, as column values in column order
    /// (`None`: null).
    pub fn rows(&self, p: &Project, t: &Table) -> Vec<Vec<Option<String>>> {
        self.rows_meeting(p, t, &[])
    }

    /// [`World::rows`] where each pair of `meets` (paths from the rows
    /// a query states reach one instance) does: the rows the application
    /// never writes are left out.
    pub fn rows_meeting(
        &self,
        p: &Project,
        t: &Table,
        meets: &[(Vec<Edge>, Vec<Edge>)],
    ) -> Vec<Vec<Option<String>>> {
        let mut out = Vec::new();
        let of = Of { p, t, meets };
        for root in self.roots(p, &t.rows) {
            let mut bound: Vec<(Vec<Edge>, Option<Inst>)> = vec![(vec![], Some(root))];
            self.bind(&of, 0, 0, &mut bound, &mut out);
        }
        out
    }

    /// The instance at `path`, walked on from the longest bound prefix by
    /// to-one steps; `None` when unbound or not one instance.
    fn reach(
        &self,
        p: &Project,
        bound: &[(Vec<Edge>, Option<Inst>)],
        path: &[Edge],
    ) -> Option<Inst> {
        let (start, mut at) = (0..=path.len()).rev().find_map(|k| {
            bound
                .iter()
                .find(|(b, _)| b.as_slice() == &path[..k])
                .map(|(_, i)| (k, *i))
        })?;
        for e in &path[start..] {
            let next = self.step(p, at?, *e);
            at = match next.as_slice() {
                [one] => Some(*one),
                _ => None,
            };
        }
        at
    }

    fn bind(
        &self,
        of: &Of,
        col: usize,
        step: usize,
        bound: &mut Vec<(Vec<Edge>, Option<Inst>)>,
        out: &mut Vec<Vec<Option<String>>>,
    ) {
        let lookup = |bound: &[(Vec<Edge>, Option<Inst>)], prefix: &[Edge]| {
            bound
                .iter()
                .find(|(p, _)| p.as_slice() == prefix)
                .map(|(_, i)| *i)
        };
        let Of { p, t, meets } = *of;
        let Some(c) = t.columns.get(col) else {
            let apart = meets.iter().any(|(a, b)| {
                matches!(
                    (self.reach(p, bound, a), self.reach(p, bound, b)),
                    (Some(x), Some(y)) if x != y
                )
            });
            if apart {
                return;
            }
            out.push(
                t.columns
                    .iter()
                    .map(|c| match &c.source {
                        Source::Attr { reached, .. } => lookup(bound, &reached.path)
                            .flatten()
                            .and_then(|at| self.value(at, reached.attr)),
                        // Computed from the row (buckets, shards) or the
                        // same for every row: no distinguishing power.
                        Source::Bucket { .. } | Source::Shard { .. } | Source::Constant => {
                            Some("computed".into())
                        }
                        // Aggregates are values, never part of a key.
                        Source::Collection { .. } | Source::Aggregate { .. } => None,
                    })
                    .collect(),
            );
            return;
        };
        let path = match &c.source {
            Source::Attr { reached, .. } => reached.path.as_slice(),
            _ => &[],
        };
        if step >= path.len() {
            return self.bind(of, col + 1, 0, bound, out);
        }
        if lookup(bound, &path[..=step]).is_some() {
            return self.bind(of, col, step + 1, bound, out);
        }
        let parent = lookup(bound, &path[..step]).flatten();
        let mut next: Vec<Option<Inst>> = match parent {
            Some(at) => self.step(p, at, path[step]).into_iter().map(Some).collect(),
            None => vec![],
        };
        if next.is_empty() {
            next.push(None);
        }
        for n in next {
            bound.push((path[..=step].to_vec(), n));
            self.bind(of, col, step + 1, bound, out);
            bound.pop();
        }
    }
}

/// What [`World::rows_meeting`] walks: the table and its query's meets.
#[derive(Clone, Copy)]
struct Of<'a> {
    p: &'a Project,
    t: &'a Table,
    meets: &'a [(Vec<Edge>, Vec<Edge>)],
}

fn rel_values(rng: &mut Rng, p: &Project, r: usize) -> Vec<String> {
    p.relationships[r]
        .attributes
        .iter()
        .map(|_| format!("x{}", rng.below(2)))
        .collect()
}

/// `Err` names a table whose primary key maps two different rows of this
/// world to one row, or whose partition holds two values of a static column.
pub fn check_unique(p: &Project, model: &LogicalModel, world: &World) -> Result<(), String> {
    for t in &model.tables {
        // The meets of the queries the table serves hold in the world the
        // application writes.
        let graph = cqlmodel::model::resolve::Graph::new(p);
        let meets: Vec<(Vec<Edge>, Vec<Edge>)> = graph
            .node(&t.rows)
            .map(|root| {
                t.queries
                    .iter()
                    .filter_map(|q| graph.query(q.as_str()))
                    .flat_map(|q| graph.meet_paths(root, &q.meets))
                    .collect()
            })
            .unwrap_or_default();
        let rows = world.rows_meeting(p, t, &meets);
        let key: Vec<usize> = (0..t.columns.len())
            .filter(|&i| t.columns[i].role.is_key())
            .collect();
        let partition: Vec<usize> = (0..t.columns.len())
            .filter(|&i| t.columns[i].role == Role::Partition)
            .collect();
        let statics: Vec<usize> = (0..t.columns.len())
            .filter(|&i| t.columns[i].role == Role::Static)
            .collect();
        let mut by_key: HashMap<Vec<&Option<String>>, &Vec<Option<String>>> = HashMap::new();
        let mut by_partition: HashMap<Vec<&Option<String>>, Vec<&Option<String>>> = HashMap::new();
        for row in &rows {
            // A row with a null key column cannot be written at all.
            if key.iter().any(|&i| row[i].is_none()) {
                continue;
            }
            let k: Vec<&Option<String>> = key.iter().map(|&i| &row[i]).collect();
            if let Some(other) = by_key.insert(k.clone(), row) {
                if other != row {
                    return Err(format!(
                        "{}: two rows share the primary key {:?}\n  {}\n  {}",
                        t.name,
                        k,
                        show(t, other),
                        show(t, row)
                    ));
                }
            }
            let pk: Vec<&Option<String>> = partition.iter().map(|&i| &row[i]).collect();
            let s: Vec<&Option<String>> = statics.iter().map(|&i| &row[i]).collect();
            if let Some(other) = by_partition.insert(pk.clone(), s.clone()) {
                if other != s {
                    return Err(format!(
                        "{}: partition {:?} holds two values of its static columns: {:?} and {:?}",
                        t.name, pk, other, s
                    ));
                }
            }
        }
    }
    Ok(())
}

fn show(t: &Table, row: &[Option<String>]) -> String {
    t.columns
        .iter()
        .zip(row)
        .map(|(c, v)| format!("{}={}", c.name, v.as_deref().unwrap_or("null")))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The other direction of uniqueness: every clustering column of table `t`
/// of `model` that `judged` accepts is needed. For each, the table with
/// that column made a regular one must let two different rows share a
/// primary key in one of the worlds of `seeds` (`strong` and `weak`
/// instances as in [`World::generate`]). `Err` names a column no world
/// needs.
pub fn check_necessary(
    p: &Project,
    model: &LogicalModel,
    t: usize,
    seeds: std::ops::Range<u64>,
    (strong, weak): (usize, usize),
    judged: impl Fn(&cqlmodel::derive::Column) -> bool,
) -> Result<(), String> {
    let worlds: Vec<World> = seeds
        .map(|seed| World::generate(p, seed, strong, weak))
        .collect();
    let table = &model.tables[t];
    for (i, c) in table.columns.iter().enumerate() {
        if !matches!(c.role, Role::Clustering(_)) || !judged(c) {
            continue;
        }
        let mut short = LogicalModel {
            tables: vec![table.clone()],
            ..LogicalModel::default()
        };
        short.tables[0].columns[i].role = Role::Regular;
        let collides = worlds.iter().any(|w| {
            check_unique(p, &short, w).is_err_and(|e| e.contains("share the primary key"))
        });
        if !collides {
            let layout: Vec<String> = table
                .columns
                .iter()
                .map(|c| format!("{} {} {:?}", c.role.marker(), c.name, c.source))
                .collect();
            let rows: Vec<usize> = worlds.iter().map(|w| w.rows(p, table).len()).collect();
            return Err(format!(
                "{}: no world needs {} in the key ({} worlds of {rows:?} rows)\n  {}",
                table.name,
                c.name,
                worlds.len(),
                layout.join("\n  ")
            ));
        }
    }
    Ok(())
}
