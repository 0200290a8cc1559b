//! Attribute references and the relationship paths that reach them.
//!
//! The conceptual model is a graph whose nodes are entities and
//! relationships; a path walks from the rows' node through relationships to
//! the node that owns an attribute. Two references name the same column
//! exactly when they reach the same attribute along the same path, so the
//! path is part of a column's identity.

use super::name::{LazyNames, Name};
use super::name_index::NameIndex;
use super::shared::Shared;
use super::slots::Slots;
use super::{
    Attribute, Cardinality, CqlType, Decision, Entity, Native, Project, Query, Relationship,
};
use rustc_hash::FxHashMap as HashMap;
use std::borrow::Cow;
use std::collections::VecDeque;
use std::fmt;
use std::sync::Arc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum NodeId {
    Entity(usize),
    Rel(usize),
}

impl NodeId {
    /// The node's number among all of them: entities first (`entities` of
    /// them), then relationships.
    pub fn dense(self, entities: usize) -> usize {
        match self {
            NodeId::Entity(e) => e,
            NodeId::Rel(r) => entities + r,
        }
    }
}

/// One end of a relationship.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum End {
    From,
    To,
}

impl End {
    #[must_use]
    pub fn other(self) -> End {
        match self {
            End::From => End::To,
            End::To => End::From,
        }
    }
}

/// A step of a path: from an entity into a relationship at one end, or from
/// a relationship out to the entity at one end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Edge {
    Enter(usize, End),
    Leave(usize, End),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum AttrId {
    Entity(usize, usize),
    Rel(usize, usize),
}

impl AttrId {
    pub fn node(self) -> NodeId {
        match self {
            AttrId::Entity(e, _) => NodeId::Entity(e),
            AttrId::Rel(r, _) => NodeId::Rel(r),
        }
    }
}

/// An attribute reached from the rows' node along `path`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reached {
    pub attr: AttrId,
    pub path: Vec<Edge>,
}

/// A parsed reference: `attr`, `Owner.attr`, or `Owner.attr via r1, r2`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AttrRef {
    pub owner: Option<String>,
    pub attr: String,
    pub via: Vec<String>,
}

impl AttrRef {
    pub fn parse(text: &str) -> Result<AttrRef, String> {
        let p = RefParts::parse(text)?;
        Ok(AttrRef {
            owner: p.owner.map(str::to_string),
            attr: p.attr.to_string(),
            via: p.via.iter().map(|v| (*v).to_string()).collect(),
        })
    }
}

/// The parts of an [`AttrRef`], borrowed from its text: resolving a
/// reference needs no copy of them.
struct RefParts<'t> {
    owner: Option<&'t str>,
    attr: &'t str,
    via: Vec<&'t str>,
}

impl<'t> RefParts<'t> {
    fn parse(text: &'t str) -> Result<RefParts<'t>, String> {
        let text = text.trim();
        // A plain scan: `split_once(" via ")` sets up a substring search
        // for each reference.
        let via_at = text.as_bytes().windows(5).position(|w| w == b" via ");
        let (head, via) = match via_at.map(|i| (&text[..i], &text[i + 5..])) {
            Some((h, v)) => (h.trim(), v.split(',').map(str::trim).collect::<Vec<_>>()),
            None => (text, vec![]),
        };
        if via.iter().any(|v| v.is_empty()) {
            return Err(format!("\"{text}\": empty relationship name after 'via'"));
        }
        let (owner, attr) = match head.split_once('.') {
            Some((o, a)) => (Some(o.trim()), a.trim()),
            None => (None, head),
        };
        if attr.is_empty() || owner == Some("") {
            return Err(format!(
                "\"{text}\": expected `attr`, `Entity.attr` or `Entity.attr via relationship`"
            ));
        }
        Ok(RefParts { owner, attr, via })
    }
}

impl fmt::Display for AttrRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(o) = &self.owner {
            write!(f, "{o}.")?;
        }
        f.write_str(&self.attr)?;
        if !self.via.is_empty() {
            write!(f, " via {}", self.via.join(", "))?;
        }
        Ok(())
    }
}

/// How many instances at the end of a step per instance at its start.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Fanout {
    pub many: bool,
    pub avg: f64,
    pub max: Option<f64>,
    /// A rate: `avg` instances per period, accumulating over the retention.
    pub per: Option<super::Period>,
}

impl Fanout {
    pub(crate) const ONE: Fanout = Fanout {
        many: false,
        avg: 1.0,
        max: None,
        per: None,
    };
}

/// Name lookups over a project, built once per derivation.
pub struct Graph<'p> {
    pub project: &'p Project,
    /// What the graph knows of the entities and relationships alone,
    /// shared by the graphs of projects with the same schema (the
    /// analysis after a query or workflow edit starts from the last one).
    schema: Arc<SchemaIndex>,
    /// The queries and the decisions by query id (the first in file order),
    /// made on first use: the review looks them up per table, and a scan
    /// per lookup makes a large project's review quadratic. An index of
    /// positions rather than a map of borrowed names keeps the graph
    /// covariant in its lifetime.
    queries: Arc<QueryIndex>,
    decisions: std::sync::OnceLock<NameIndex>,
    /// The shared names of each node's attributes (entities, then
    /// relationships), made for a node when one of its attributes is
    /// first asked: a small edit touches a few nodes of a large project.
    attr_names: Slots<AttrNames>,
    // What follows is made per item on first use, and per graph: kept
    // with the schema index, thousands of small values would outlive the
    // analysis that made them among its freed memory, which the allocator
    // could then not hand back.
    /// Each entity's full key relative to itself (weak keys resolved).
    keys: Slots<Vec<Reached>>,
    /// Each entity's other unique identifiers, relative to itself; those
    /// naming a missing attribute are left out (loading reports them).
    uniques: Slots<Vec<Vec<Reached>>>,
    /// Each relationship's key relative to itself ([`Graph::node_key`]).
    rel_keys: Slots<Vec<Reached>>,
    /// Each entity's and relationship's name as a shared name: findings
    /// carry their subjects' names.
    entity_names: LazyNames,
    rel_names: LazyNames,
    /// The keyspace's name, shared by every plan's statement.
    keyspace: std::sync::OnceLock<Name>,
}

/// The schema's half of a [`Graph`]: indexes and values made from the
/// entities and relationships only. It holds positions and owned values,
/// nothing borrowed, so an analysis can hand it to the next one; it keeps
/// the lists it indexes, which identifies them (see [`Graph::reusing`]).
pub struct SchemaIndex {
    of_entities: Shared<Vec<Entity>>,
    of_relationships: Shared<Vec<Relationship>>,
    entities: NameIndex,
    rels: NameIndex,
    /// Relationships touching each entity, in file order:
    /// `incident[incident_start[e]..incident_start[e + 1]]` (one list for
    /// all, so a graph of a large project is a few allocations).
    incident: Vec<usize>,
    incident_start: Vec<usize>,
    /// Each relationship's from and to entity: paths step through them
    /// constantly, and a name lookup per step is slow.
    ends: Vec<(Option<usize>, Option<usize>)>,
    /// Short names of entities, then relationships (made on first use:
    /// they prefix most column names; validation never asks).
    shorts: std::sync::OnceLock<ShortNames>,
    /// The 1:n relationships into each entity from another one, with the
    /// one side, by relationship name (not file order); estimates count
    /// through them. Made on first use.
    parents: std::sync::OnceLock<Parents>,
}

/// Per entity, the 1:n relationships into it from another entity, with
/// that entity: `(relationship, parent entity)` pairs, one list for all.
pub(crate) type Parents = crate::model::parts::Groups<(usize, usize)>;

/// Every node's short name in one text: a handful of allocations however
/// many nodes. The index is kept from one analysis to the next, and many
/// small long-lived allocations among an analysis' short-lived ones would
/// keep the allocator from handing that memory back.
struct ShortNames {
    text: String,
    /// `text[starts[i]..starts[i + 1]]` is node `i`'s short name.
    starts: Vec<usize>,
}

impl ShortNames {
    fn get(&self, i: usize) -> &str {
        match (self.starts.get(i), self.starts.get(i + 1)) {
            (Some(&a), Some(&b)) => &self.text[a..b],
            _ => "",
        }
    }
}

/// The shared names of one node's attributes, by attribute position.
struct AttrNames {
    /// The column base name ([`Graph::column_base`]) in a table of the
    /// node's own rows and in a table of other rows.
    own_columns: LazyNames,
    other_columns: LazyNames,
}

/// Paths longer than this are not searched: the workflow names such
/// attributes through explicit `via` lists instead.
const MAX_PATH_EDGES: usize = 8;

/// The most key parts an entity inherits from its owners: a real key has
/// a handful, and a hostile ladder of entities with two owners each would
/// double them at every level.
const MAX_KEY_PARTS: usize = 256;

impl SchemaIndex {
    fn new(project: &Project) -> SchemaIndex {
        let es: &[Entity] = &project.entities;
        let rs: &[Relationship] = &project.relationships;
        let entities = NameIndex::new(es.len(), |i| es[i].name.as_str());
        let rels = NameIndex::new(rs.len(), |i| rs[i].name.as_str());
        let entity = |name: &str| entities.get(name, |i| es[i].name.as_str());
        let ends: Vec<(Option<usize>, Option<usize>)> = rs
            .iter()
            .map(|r| (entity(&r.from), entity(&r.to)))
            .collect();
        // Each relationship at its from entity and, unless it links an
        // entity to itself, at its to entity.
        let touching = |(i, &(f, t)): (usize, &(Option<usize>, Option<usize>))| {
            let r = &rs[i];
            f.into_iter()
                .chain(t.filter(|_| r.to != r.from))
                .map(move |e| (e, i))
        };
        let mut incident_start = vec![0; es.len() + 1];
        for (e, _) in ends.iter().enumerate().flat_map(touching) {
            incident_start[e + 1] += 1;
        }
        for e in 0..es.len() {
            incident_start[e + 1] += incident_start[e];
        }
        let mut incident = vec![0; incident_start[es.len()]];
        let mut next = incident_start.clone();
        for (e, i) in ends.iter().enumerate().flat_map(touching) {
            incident[next[e]] = i;
            next[e] += 1;
        }
        SchemaIndex {
            of_entities: project.entities.clone(),
            of_relationships: project.relationships.clone(),
            entities,
            rels,
            incident,
            incident_start,
            ends,
            shorts: std::sync::OnceLock::new(),
            parents: std::sync::OnceLock::new(),
        }
    }
}

/// The queries' half of a graph: the index of positions by query id and
/// each query's id as a shared name (every column, table and plan a query
/// derives carries its id), both made on first use. The graph of the next
/// version takes it over while every query id stays at its position.
#[derive(Default)]
pub struct QueryIndex {
    by_id: std::sync::OnceLock<NameIndex>,
    names: LazyNames,
}

/// Removes from `path`, in place, each step that `cancels` the step left
/// before it, with that step (so cancelling pairs nest).
pub(crate) fn cancel_steps(path: &mut Vec<Edge>, cancels: impl Fn(Edge, Edge) -> bool) {
    // `kept` edges stay at the front; a cancelling step removes the last.
    let mut kept = 0;
    for i in 0..path.len() {
        let e = path[i];
        if kept > 0 && cancels(path[kept - 1], e) {
            kept -= 1;
        } else {
            path[kept] = e;
            kept += 1;
        }
    }
    path.truncate(kept);
}

impl<'p> Graph<'p> {
    pub fn new(project: &'p Project) -> Graph<'p> {
        Graph::over(project, Arc::new(SchemaIndex::new(project)))
    }

    /// The graph of `project`, starting from `schema` when it indexes this
    /// project's very entities and relationships (the same shared lists,
    /// so the same values), else from a new index.
    pub fn reusing(project: &'p Project, schema: &Arc<SchemaIndex>) -> Graph<'p> {
        let same = Shared::same(&schema.of_entities, &project.entities)
            && Shared::same(&schema.of_relationships, &project.relationships);
        if same {
            Graph::over(project, Arc::clone(schema))
        } else {
            Graph::new(project)
        }
    }

    fn over(project: &'p Project, schema: Arc<SchemaIndex>) -> Graph<'p> {
        Graph {
            project,
            schema,
            queries: Arc::default(),
            decisions: std::sync::OnceLock::new(),
            attr_names: Slots::default(),
            keys: Slots::default(),
            uniques: Slots::default(),
            rel_keys: Slots::default(),
            entity_names: LazyNames::default(),
            rel_names: LazyNames::default(),
            keyspace: std::sync::OnceLock::new(),
        }
    }

    /// Takes over `index`, the query index of `earlier`'s graph, when every
    /// query of this graph's project has the id of `earlier`'s query at its
    /// position (the index holds positions and ids only).
    #[must_use]
    pub fn taking_queries(mut self, earlier: &Project, index: &Arc<QueryIndex>) -> Graph<'p> {
        if earlier.same_query_ids(self.project) {
            self.queries = Arc::clone(index);
        }
        self
    }

    /// The queries' half of this graph, for the graph of the next version.
    pub fn query_index(&self) -> Arc<QueryIndex> {
        Arc::clone(&self.queries)
    }

    /// The schema's half of this graph, for the graph of the next version.
    pub fn schema_index(&self) -> Arc<SchemaIndex> {
        Arc::clone(&self.schema)
    }

    /// Entity `e`'s full key, `None` for no entity. Keys are made one by
    /// one: `entity_key_into` walks owners itself and never asks here.
    fn key_of(&self, e: usize) -> Option<&Vec<Reached>> {
        self.keys.get(self.project.entities.len(), e, || {
            let mut out = Vec::new();
            self.entity_key_into(e, &mut Vec::new(), &mut out, &mut Vec::new());
            out
        })
    }

    /// Entity `e`'s other identifiers, resolved.
    fn resolve_uniques(&self, e: usize) -> Vec<Vec<Reached>> {
        self.entity(e)
            .unique
            .iter()
            .filter_map(|ident| {
                let resolved: Result<Vec<Reached>, String> = ident
                    .iter()
                    .map(|a| self.resolve(NodeId::Entity(e), a))
                    .collect();
                resolved.ok().filter(|r| !r.is_empty())
            })
            .collect()
    }

    /// Per entity, the 1:n relationships into it from another entity with
    /// that entity, sorted by relationship name (made once per schema);
    /// steps on a cycle of 1:n steps are left out.
    pub(crate) fn parents(&self) -> &Parents {
        self.schema.parents.get_or_init(|| {
            let project = self.project;
            let steps: Vec<(usize, (usize, usize))> = project
                .relationships
                .iter()
                .enumerate()
                .filter(|(_, rel)| rel.cardinality == Cardinality::OneToMany)
                .filter_map(|(r, _)| match self.schema.ends.get(r) {
                    Some(&(Some(f), Some(t))) => Some((t, (r, f))),
                    _ => None,
                })
                .collect();
            // A step on a cycle of 1:n steps (a self-reference, or A has
            // many B while B has many A) counts nothing: following it
            // multiplies the same instances by its ratio again and again.
            // An entity with a stated count ends the cycle: its count does
            // not go through its parents. So a step is left out when its
            // child and parent share a strongly connected component of the
            // child → parent graph of entities without a stated count.
            let unstated = |e: usize| project.entities.get(e).is_some_and(|x| x.count.is_none());
            let edges: Vec<(usize, usize)> = steps
                .iter()
                .filter(|&&(t, _)| unstated(t))
                .map(|&(t, (_, f))| (t, f))
                .collect();
            let component = components(project.entities.len(), &edges);
            let mut into: Vec<(usize, (usize, usize))> = steps
                .iter()
                .copied()
                .filter(|&(t, (_, f))| t != f && (!unstated(t) || component[t] != component[f]))
                .collect();
            // By name first (stably), so each entity's group is in name order.
            let rels = &project.relationships;
            into.sort_by(|a, b| rels[a.1 .0].name.cmp(&rels[b.1 .0].name));
            Parents::new(project.entities.len(), into.into_iter())
        })
    }

    /// The unique identifiers an entity declares besides its key, relative
    /// to itself.
    pub(crate) fn uniques(&self, e: usize) -> &[Vec<Reached>] {
        self.uniques
            .get(self.project.entities.len(), e, || self.resolve_uniques(e))
            .map_or(&[], Vec::as_slice)
    }

    /// [`Project::query`] (the first query with the id), by an index.
    pub fn query(&self, id: &str) -> Option<&'p Query> {
        let queries: &'p [Shared<Query>] = &self.project.queries;
        let key = |i: usize| queries[i].id.as_str();
        let index = self
            .queries
            .by_id
            .get_or_init(|| NameIndex::new(queries.len(), key));
        index.get(id, key).map(|i| &*queries[i])
    }

    /// The id of the query at `index` in the project, shared by everything
    /// derived from it.
    pub fn query_name(&self, index: usize) -> Name {
        let qs = &self.project.queries;
        self.queries
            .names
            .get(qs.len(), index, || Name::from(&qs[index].id))
    }

    /// The keyspace's name, shared.
    pub(crate) fn keyspace_name(&self) -> Name {
        self.keyspace
            .get_or_init(|| Name::from(&self.project.keyspace.name))
            .clone()
    }

    /// The name of entity `index`, shared.
    pub fn entity_name(&self, index: usize) -> Name {
        let es = &self.project.entities;
        self.entity_names
            .get(es.len(), index, || Name::from(&es[index].name))
    }

    /// The name of an entity or relationship, shared.
    pub fn node_shared_name(&self, n: NodeId) -> Name {
        match n {
            NodeId::Entity(e) => self.entity_name(e),
            NodeId::Rel(r) => self.rel_name(r),
        }
    }

    /// [`Graph::column_base`] as a shared name: every table holding the
    /// attribute names its column with the same text.
    pub(crate) fn column_base_name(&self, a: AttrId, own: bool) -> Name {
        let make = || match self.column_base_split(a, own) {
            (None, text) => Name::from(text),
            (Some(short), name) => Name::concat(&[short, "_", name]),
        };
        let Some((names, len, index)) = self.attr_names(a) else {
            return make();
        };
        let names = if own {
            &names.own_columns
        } else {
            &names.other_columns
        };
        names.get(len, index, make)
    }

    /// The name sets of `a`'s node, its number of attributes and `a`'s
    /// position among them; `None` for an attribute of no node here.
    fn attr_names(&self, a: AttrId) -> Option<(&AttrNames, usize, usize)> {
        let p = self.project;
        let (node, i) = match a {
            AttrId::Entity(e, i) => (e, i),
            AttrId::Rel(r, i) => (p.entities.len() + r, i),
        };
        let nodes = p.entities.len() + p.relationships.len();
        let make = || AttrNames {
            own_columns: LazyNames::default(),
            other_columns: LazyNames::default(),
        };
        let names = self.attr_names.get(nodes, node, make)?;
        Some((names, self.attributes(a.node()).len(), i))
    }

    /// The name of relationship `index`, shared.
    pub fn rel_name(&self, index: usize) -> Name {
        let rs = &self.project.relationships;
        self.rel_names
            .get(rs.len(), index, || Name::from(&rs[index].name))
    }

    /// [`Project::decision`] (the first decision for the query), by an
    /// index.
    pub fn decision(&self, query: &str) -> Option<&'p Decision> {
        let decisions: &'p [Decision] = &self.project.decisions;
        let key = |i: usize| decisions[i].query.as_str();
        let index = self
            .decisions
            .get_or_init(|| NameIndex::new(decisions.len(), key));
        index.get(query, key).map(|i| &decisions[i])
    }

    pub fn entity_index(&self, name: &str) -> Option<usize> {
        let es = &self.project.entities;
        self.schema.entities.get(name, |i| es[i].name.as_str())
    }

    pub(crate) fn rel_index(&self, name: &str) -> Option<usize> {
        let rs = &self.project.relationships;
        self.schema.rels.get(name, |i| rs[i].name.as_str())
    }

    pub fn node(&self, name: &str) -> Option<NodeId> {
        self.entity_index(name)
            .map(NodeId::Entity)
            .or_else(|| self.rel_index(name).map(NodeId::Rel))
    }

    pub fn entity(&self, i: usize) -> &'p Entity {
        &self.project.entities[i]
    }

    pub fn rel(&self, i: usize) -> &'p Relationship {
        &self.project.relationships[i]
    }

    pub(crate) fn node_name(&self, n: NodeId) -> &'p str {
        match n {
            NodeId::Entity(e) => &self.project.entities[e].name,
            NodeId::Rel(r) => &self.project.relationships[r].name,
        }
    }

    pub fn attributes(&self, n: NodeId) -> &'p [Attribute] {
        match n {
            NodeId::Entity(e) => &self.project.entities[e].attributes,
            NodeId::Rel(r) => &self.project.relationships[r].attributes,
        }
    }

    pub fn attr(&self, a: AttrId) -> &'p Attribute {
        match a {
            AttrId::Entity(e, i) => &self.project.entities[e].attributes[i],
            AttrId::Rel(r, i) => &self.project.relationships[r].attributes[i],
        }
    }

    pub(crate) fn attr_id(&self, n: NodeId, name: &str) -> Option<AttrId> {
        let i = self.attributes(n).iter().position(|a| a.name == name)?;
        Some(match n {
            NodeId::Entity(e) => AttrId::Entity(e, i),
            NodeId::Rel(r) => AttrId::Rel(r, i),
        })
    }

    /// The entity at one end of a relationship.
    pub(crate) fn end_entity(&self, r: usize, end: End) -> Option<usize> {
        let &(from, to) = self.schema.ends.get(r)?;
        match end {
            End::From => from,
            End::To => to,
        }
    }

    /// The relationships touching entity `e`, in file order.
    pub(crate) fn incident(&self, e: usize) -> &[usize] {
        let s = &self.schema;
        match (s.incident_start.get(e), s.incident_start.get(e + 1)) {
            (Some(&a), Some(&b)) => &s.incident[a..b],
            _ => &[],
        }
    }

    /// The node a path ends at, starting from `start`.
    pub(crate) fn walk(&self, start: NodeId, path: &[Edge]) -> Option<NodeId> {
        let mut at = start;
        for e in path {
            at = match *e {
                Edge::Enter(r, _) => NodeId::Rel(r),
                Edge::Leave(r, end) => NodeId::Entity(self.end_entity(r, end)?),
            };
        }
        Some(at)
    }

    /// Instances at the end of one step per instance at its start.
    pub fn fanout(&self, edge: Edge) -> Fanout {
        match edge {
            Edge::Leave(..) => Fanout::ONE,
            Edge::Enter(r, end) => {
                let rel = self.rel(r);
                let (many, count) = match (rel.cardinality, end) {
                    (Cardinality::OneToOne, _) | (Cardinality::OneToMany, End::To) => (false, None),
                    (Cardinality::OneToMany | Cardinality::ManyToMany, End::From) => {
                        (true, rel.to_per_from.as_ref())
                    }
                    (Cardinality::ManyToMany, End::To) => (true, rel.from_per_to.as_ref()),
                };
                match count {
                    Some(c) if many => Fanout {
                        many,
                        avg: c.avg,
                        max: c.max,
                        per: c.per,
                    },
                    _ if many => Fanout {
                        many,
                        avg: f64::NAN,
                        max: None,
                        per: None,
                    },
                    _ => Fanout::ONE,
                }
            }
        }
    }

    /// Removes detours from a path so equal attributes get equal paths: into
    /// a relationship and back out at the same end, and out of a relationship
    /// and straight back in at the same end when that end has one instance of
    /// it (a weak entity's key walking back to its owner).
    pub(crate) fn normalize_path(&self, path: &mut Vec<Edge>) {
        cancel_steps(path, |before, e| self.cancels(before, e));
    }

    /// Whether step `e` right after `before` is a detour that
    /// [`Graph::normalize_path`] removes.
    fn cancels(&self, before: Edge, e: Edge) -> bool {
        match (before, e) {
            (Edge::Enter(r0, end0), Edge::Leave(r1, end1)) => r0 == r1 && end0 == end1,
            (Edge::Leave(r0, end0), Edge::Enter(r1, end1)) => {
                r0 == r1 && end0 == end1 && !self.fanout(e).many
            }
            _ => false,
        }
    }

    /// Whether [`Graph::normalize_path`] leaves `path` as it is: no two
    /// steps in a row cancel (the removal works as a stack, so a path with
    /// no such pair has nothing to remove).
    fn is_normal(&self, path: &[Edge]) -> bool {
        path.windows(2).all(|w| !self.cancels(w[0], w[1]))
    }

    /// Whether walking `path` can reach several instances per start instance.
    pub(crate) fn path_is_many(&self, path: &[Edge]) -> bool {
        path.iter().any(|e| self.fanout(*e).many)
    }

    /// The key of an entity, relative to itself: a weak entity's key starts
    /// with its owner's key, reached through the identifying relationship.
    pub(crate) fn entity_key(&self, e: usize) -> Vec<Reached> {
        self.key_of(e).cloned().unwrap_or_default()
    }

    /// Appends `e`'s key, its owners' first, at `prefix`. `chain` holds
    /// the entities whose keys are being made: an owner already on it is
    /// an ownership cycle (validation reports it), not a part of the key.
    fn entity_key_into(
        &self,
        e: usize,
        prefix: &mut Vec<Edge>,
        out: &mut Vec<Reached>,
        chain: &mut Vec<usize>,
    ) {
        let ent = self.entity(e);
        chain.push(e);
        for (r, owner) in self.owners_of(e) {
            if chain.contains(&owner) || out.len() >= MAX_KEY_PARTS {
                continue;
            }
            prefix.push(Edge::Enter(r, End::To));
            prefix.push(Edge::Leave(r, End::From));
            self.entity_key_into(owner, prefix, out, chain);
            prefix.pop();
            prefix.pop();
        }
        chain.pop();
        for k in &ent.key {
            if let Some(AttrId::Entity(_, i)) = self.attr_id(NodeId::Entity(e), k) {
                out.push(Reached {
                    attr: AttrId::Entity(e, i),
                    path: prefix.clone(),
                });
            }
        }
    }

    /// Every identifying relationship and owner of a weak entity, `owner`
    /// first, then `owners` in order.
    pub(crate) fn owners_of(&self, e: usize) -> Vec<(usize, usize)> {
        let ent = self.entity(e);
        ent.owner
            .iter()
            .chain(&ent.owners)
            .filter_map(|name| {
                let r = self.rel_index(name)?;
                let owner = self.end_entity(r, End::From)?;
                (self.end_entity(r, End::To) == Some(e) && owner != e).then_some((r, owner))
            })
            .collect()
    }

    /// The key of any node, relative to itself. A relationship instance is
    /// identified by its many side(s).
    pub fn node_key(&self, n: NodeId) -> Vec<Reached> {
        self.node_key_ref(n).to_vec()
    }

    /// [`Graph::node_key`], borrowed from the keys computed once.
    pub(crate) fn node_key_ref(&self, n: NodeId) -> &[Reached] {
        match n {
            NodeId::Entity(e) => self.key_of(e),
            NodeId::Rel(r) => self
                .rel_keys
                .get(self.project.relationships.len(), r, || self.rel_key(r)),
        }
        .map_or(&[], Vec::as_slice)
    }

    /// A relationship's key: the key of each end it depends on, reached
    /// by leaving through that end.
    fn rel_key(&self, r: usize) -> Vec<Reached> {
        let rel = self.rel(r);
        let ends: &[End] = match rel.cardinality {
            Cardinality::OneToOne => &[End::From],
            Cardinality::OneToMany => &[End::To],
            Cardinality::ManyToMany => &[End::From, End::To],
        };
        let mut out = Vec::new();
        for &end in ends {
            if let Some(e) = self.end_entity(r, end) {
                for mut k in self.entity_key(e) {
                    k.path.insert(0, Edge::Leave(r, end));
                    out.push(k);
                }
            }
        }
        out
    }

    /// The key of the node at the end of `path`, expressed from the start.
    pub(crate) fn key_at(&self, start: NodeId, path: &[Edge]) -> Vec<Reached> {
        let Some(n) = self.walk(start, path) else {
            return vec![];
        };
        let extend = |k: &Reached| {
            let mut p: Vec<Edge> = Vec::with_capacity(path.len() + k.path.len());
            p.extend_from_slice(path);
            p.extend_from_slice(&k.path);
            self.normalize_path(&mut p);
            Reached {
                attr: k.attr,
                path: p,
            }
        };
        self.node_key_ref(n).iter().map(extend).collect()
    }

    /// [`Graph::key_at`], borrowed from the node's key when `path` is empty
    /// and that key needs no normalizing (the common case: every table
    /// asks for its rows' own key).
    pub(crate) fn key_at_cow(&self, start: NodeId, path: &[Edge]) -> Cow<'_, [Reached]> {
        if path.is_empty() {
            let key = self.node_key_ref(start);
            if key.iter().all(|k| self.is_normal(&k.path)) {
                return Cow::Borrowed(key);
            }
        }
        Cow::Owned(self.key_at(start, path))
    }

    /// Whether the node at the end of `path` from `start` has a key and
    /// `f` holds for each of its attributes as [`Graph::key_at`] reaches
    /// them, without making the key: most callers only test it, for every
    /// table and column.
    pub(crate) fn key_at_all(
        &self,
        start: NodeId,
        path: &[Edge],
        mut f: impl FnMut(&Reached) -> bool,
    ) -> bool {
        let Some(n) = self.walk(start, path) else {
            return false;
        };
        let key = self.node_key_ref(n);
        let Some(first) = key.first() else {
            return false;
        };
        // One path reused for every attribute (no allocation at all for
        // the rows' own key).
        let mut at = Reached {
            attr: first.attr,
            path: Vec::with_capacity(if path.is_empty() { 0 } else { path.len() + 2 }),
        };
        key.iter().all(|k| {
            at.attr = k.attr;
            at.path.clear();
            at.path.extend_from_slice(path);
            at.path.extend_from_slice(&k.path);
            self.normalize_path(&mut at.path);
            f(&at)
        })
    }

    /// Resolves a reference from the rows' node.
    pub fn resolve(&self, root: NodeId, text: &str) -> Result<Reached, String> {
        // Most references name an attribute of the rows: no parsing needed.
        if !text.contains('.') && !text.contains(' ') {
            if let Some(a) = self.attr_id(root, text) {
                return Ok(Reached {
                    attr: a,
                    path: vec![],
                });
            }
        }
        let r = RefParts::parse(text)?;
        let (target, path) = match r.owner {
            None => (root, vec![]),
            Some(owner) => {
                let Some(target) = self.node(owner) else {
                    let names = self
                        .project
                        .entities
                        .iter()
                        .map(|e| e.name.as_str())
                        .chain(self.project.relationships.iter().map(|r| r.name.as_str()));
                    return Err(with_hint(
                        format!("no entity or relationship \"{owner}\""),
                        owner,
                        names,
                    ));
                };
                let path = if r.via.is_empty() {
                    self.shortest_path(root, target)?
                } else {
                    self.path_via(root, target, &r.via)?
                };
                (target, path)
            }
        };
        if let Some(a) = self.attr_id(target, r.attr) {
            let mut path = path;
            self.normalize_path(&mut path);
            return Ok(Reached { attr: a, path });
        }
        // An inherited key attribute of a weak entity, named as its column.
        if let NodeId::Entity(e) = target {
            for k in self.entity_key(e) {
                if k.path.is_empty() {
                    continue;
                }
                let attr = self.attr(k.attr);
                let col = self.column_base(k.attr, false);
                if attr.name == r.attr || col == r.attr {
                    let mut path: Vec<Edge> = path.iter().copied().chain(k.path).collect();
                    self.normalize_path(&mut path);
                    return Ok(Reached { attr: k.attr, path });
                }
            }
        }
        let names = self.attributes(target).iter().map(|a| a.name.as_str());
        Err(with_hint(
            format!(
                "no attribute \"{}\" on {} {}",
                r.attr,
                match target {
                    NodeId::Entity(_) => "entity",
                    NodeId::Rel(_) => "relationship",
                },
                self.node_name(target)
            ),
            r.attr,
            names,
        ))
    }

    /// Neighbouring steps of a node.
    fn steps(&self, n: NodeId) -> Vec<(Edge, NodeId)> {
        match n {
            NodeId::Entity(e) => {
                let mut out = Vec::new();
                for &r in self.incident(e) {
                    for end in [End::From, End::To] {
                        if self.end_entity(r, end) == Some(e) {
                            out.push((Edge::Enter(r, end), NodeId::Rel(r)));
                        }
                    }
                }
                out
            }
            NodeId::Rel(r) => [End::From, End::To]
                .into_iter()
                .filter_map(|end| {
                    self.end_entity(r, end)
                        .map(|e| (Edge::Leave(r, end), NodeId::Entity(e)))
                })
                .collect(),
        }
    }

    fn shortest_path(&self, root: NodeId, target: NodeId) -> Result<Vec<Edge>, String> {
        if root == target {
            return Ok(vec![]);
        }
        // Breadth-first, counting shortest paths so ambiguity is reported
        // instead of silently picking one.
        let mut prev: HashMap<NodeId, (NodeId, Edge)> = HashMap::default();
        let mut ways: HashMap<NodeId, u32> = HashMap::default();
        let mut dist: HashMap<NodeId, usize> = HashMap::default();
        let mut queue = VecDeque::new();
        dist.insert(root, 0);
        ways.insert(root, 1);
        queue.push_back(root);
        while let Some(n) = queue.pop_front() {
            let d = dist[&n];
            if d >= MAX_PATH_EDGES || dist.get(&target).is_some_and(|&t| d >= t) {
                continue;
            }
            for (edge, next) in self.steps(n) {
                // Never walk back out through the relationship just entered.
                if let (Some((_, Edge::Enter(r0, end0))), Edge::Leave(r1, end1)) =
                    (prev.get(&n), edge)
                {
                    if *r0 == r1 && *end0 == end1 {
                        continue;
                    }
                }
                match dist.get(&next) {
                    None => {
                        dist.insert(next, d + 1);
                        ways.insert(next, ways[&n]);
                        prev.insert(next, (n, edge));
                        queue.push_back(next);
                    }
                    Some(&nd) if nd == d + 1 => {
                        let w = ways[&n];
                        *ways.get_mut(&next).expect("counted") += w;
                    }
                    _ => {}
                }
            }
        }
        if !dist.contains_key(&target) {
            return Err(format!(
                "{} is not reachable from {} through relationships",
                self.node_name(target),
                self.node_name(root)
            ));
        }
        let mut path = Vec::new();
        let mut at = target;
        while at != root {
            let (p, e) = prev[&at];
            path.push(e);
            at = p;
        }
        path.reverse();
        if ways[&target] > 1 {
            let via: Vec<&str> = path
                .iter()
                .filter_map(|e| match e {
                    Edge::Enter(r, _) => Some(self.rel(*r).name.as_str()),
                    Edge::Leave(..) => None,
                })
                .collect();
            return Err(format!(
                "{} is reached from {} by several paths; name one with `via` (e.g. `via {}`)",
                self.node_name(target),
                self.node_name(root),
                via.join(", ")
            ));
        }
        Ok(path)
    }

    fn path_via(&self, root: NodeId, target: NodeId, via: &[&str]) -> Result<Vec<Edge>, String> {
        let mut at = root;
        let mut path = Vec::new();
        for name in via {
            let Some(r) = self.rel_index(name) else {
                let names = self.project.relationships.iter().map(|r| r.name.as_str());
                return Err(with_hint(
                    format!("no relationship \"{name}\""),
                    name,
                    names,
                ));
            };
            match at {
                NodeId::Rel(cur) if cur == r => {}
                NodeId::Rel(cur) => {
                    // Leave the current relationship toward the one named.
                    let end = [End::From, End::To].into_iter().find(|&end| {
                        self.end_entity(cur, end).is_some_and(|e| {
                            self.end_entity(r, End::From) == Some(e)
                                || self.end_entity(r, End::To) == Some(e)
                        })
                    });
                    let Some(end) = end else {
                        return Err(format!(
                            "relationship {name} does not touch {}",
                            self.rel(cur).name
                        ));
                    };
                    path.push(Edge::Leave(cur, end));
                    at = NodeId::Entity(self.end_entity(cur, end).expect("checked"));
                }
                NodeId::Entity(_) => {}
            }
            if let NodeId::Entity(e) = at {
                let end = if self.end_entity(r, End::From) == Some(e) {
                    End::From
                } else if self.end_entity(r, End::To) == Some(e) {
                    End::To
                } else {
                    return Err(format!(
                        "relationship {name} does not touch {}",
                        self.entity(e).name
                    ));
                };
                path.push(Edge::Enter(r, end));
                at = NodeId::Rel(r);
            }
        }
        if at == target {
            return Ok(path);
        }
        if let NodeId::Rel(cur) = at {
            for end in [End::To, End::From] {
                if let Some(e) = self.end_entity(cur, end) {
                    if NodeId::Entity(e) == target && path.last() != Some(&Edge::Enter(cur, end)) {
                        path.push(Edge::Leave(cur, end));
                        return Ok(path);
                    }
                }
            }
        }
        Err(format!(
            "the path via {} does not lead from {} to {}",
            via.join(", "),
            self.node_name(root),
            self.node_name(target)
        ))
    }

    /// The short name of an entity used in `_by_` names and column prefixes.
    pub fn short(&self, n: NodeId) -> String {
        self.short_str(n).to_string()
    }

    pub(crate) fn short_str(&self, n: NodeId) -> &str {
        let shorts = self.schema.shorts.get_or_init(|| {
            let p = self.project;
            let mut text = String::new();
            let mut starts = Vec::with_capacity(p.entities.len() + p.relationships.len() + 1);
            for e in &*p.entities {
                starts.push(text.len());
                match &e.short {
                    Some(short) => text.push_str(short),
                    None => crate::model::naming::snake_case_into(&mut text, &e.name),
                }
            }
            for r in &*p.relationships {
                starts.push(text.len());
                crate::model::naming::snake_case_into(&mut text, &r.name);
            }
            starts.push(text.len());
            ShortNames { text, starts }
        });
        shorts.get(n.dense(self.project.entities.len()))
    }

    /// The column name of an attribute before de-duplication: the attribute
    /// name for the rows' own attributes, otherwise prefixed with its owner's
    /// short name (unless it already is).
    pub(crate) fn column_base(&self, a: AttrId, own: bool) -> String {
        match self.column_base_split(a, own) {
            (None, text) => text.to_string(),
            (Some(short), name) => format!("{short}_{name}"),
        }
    }

    /// [`Graph::column_base`] in parts: `(None, text)` or `(Some(short),
    /// name)` for `short_name`.
    fn column_base_split(&self, a: AttrId, own: bool) -> (Option<&str>, &str) {
        let attr = self.attr(a);
        if let Some(c) = &attr.column {
            return (None, c);
        }
        if own {
            return (None, &attr.name);
        }
        let short = self.short_str(a.node());
        // No doubled words: `tag` of Tag, `job_id` of ProcessingJob.
        let head = short.rsplit('_').next().unwrap_or(short);
        let starts_with = |word: &str| {
            attr.name
                .strip_prefix(word)
                .is_some_and(|rest| rest.starts_with('_'))
        };
        let prefixed = attr.name == short || starts_with(short) || starts_with(head);
        if prefixed || short.is_empty() {
            (None, &attr.name)
        } else {
            (Some(short), &attr.name)
        }
    }

    /// A reference string that resolves back to `reached` from `root`.
    pub(crate) fn ref_text(&self, root: NodeId, reached: &Reached) -> String {
        let attr = &self.attr(reached.attr).name;
        let owner = reached.attr.node();
        if reached.path.is_empty() {
            return attr.clone();
        }
        let qualified = format!("{}.{attr}", self.node_name(owner));
        if self.resolve(root, &qualified).ok().as_ref() == Some(reached) {
            return qualified;
        }
        let via: Vec<&str> = reached
            .path
            .iter()
            .filter_map(|e| match e {
                Edge::Enter(r, _) => Some(self.rel(*r).name.as_str()),
                Edge::Leave(..) => None,
            })
            .collect();
        format!("{qualified} via {}", via.join(", "))
    }

    /// Every attribute a query rooted at `root` can name, as reference
    /// strings, nearest first: for pickers.
    pub fn offered(&self, root: NodeId, max_edges: usize) -> Vec<String> {
        let mut out = Vec::new();
        let mut seen = rustc_hash::FxHashSet::default();
        let mut queue = VecDeque::from([(root, Vec::<Edge>::new())]);
        let mut visited = rustc_hash::FxHashSet::from_iter([root]);
        while let Some((n, path)) = queue.pop_front() {
            let mut names: Vec<Reached> = Vec::new();
            if let NodeId::Entity(e) = n {
                for k in self.entity_key(e) {
                    let joined: Vec<Edge> = path.iter().copied().chain(k.path).collect();
                    // A key reached back through the relationship just
                    // walked (`Hotel.hotel_id via has_rooms, has_rooms`) is
                    // a round trip: the nearer name is offered already.
                    if joined.len() > path.len() && !backtracks(&joined) {
                        names.push(Reached {
                            attr: k.attr,
                            path: joined,
                        });
                    }
                }
            }
            for i in 0..self.attributes(n).len() {
                let attr = match n {
                    NodeId::Entity(e) => AttrId::Entity(e, i),
                    NodeId::Rel(r) => AttrId::Rel(r, i),
                };
                names.push(Reached {
                    attr,
                    path: path.clone(),
                });
            }
            for r in names {
                if seen.insert(r.clone()) {
                    out.push(self.ref_text(root, &r));
                }
            }
            if path.len() < max_edges {
                for (edge, next) in self.steps(n) {
                    if visited.insert(next) {
                        let mut p = path.clone();
                        p.push(edge);
                        queue.push_back((next, p));
                    }
                }
            }
        }
        out
    }
}

/// Whether a path leaves a relationship at one end and enters it again at
/// the same end: it walks back the way it came.
fn backtracks(path: &[Edge]) -> bool {
    path.windows(2)
        .any(|w| matches!((w[0], w[1]), (Edge::Leave(r, a), Edge::Enter(s, b)) if r == s && a == b))
}

fn with_hint<'a>(msg: String, wanted: &str, names: impl IntoIterator<Item = &'a str>) -> String {
    msg + &crate::model::naming::did_you_mean(wanted, names)
}

/// A random path of fewer than `max_len` steps into and out of the
/// first `rels` relationships at either end, detours included: for tests
/// of what paths normalize to.
/// Removes "into a relationship and back out at the same end" detours, so
/// equal attributes get equal paths. [`Graph::resolve`] and
/// [`Graph::key_at`] already return paths normalized this way and more.
pub fn normalize(mut r: Reached) -> Reached {
    // In place: it runs for every attribute a query names.
    cancel_steps(
        &mut r.path,
        |before, e| matches!((before, e), (Edge::Enter(r0, end0), Edge::Leave(r1, end1)) if r0 == r1 && end0 == end1),
    );
    r
}

/// The strongly connected component of each of `n` nodes under `edges`
/// (Kosaraju: finish order on the graph, then components on the reverse),
/// iteratively so a long chain cannot overflow the stack.
fn components(n: usize, edges: &[(usize, usize)]) -> Vec<usize> {
    let mut out: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut back: Vec<Vec<usize>> = vec![Vec::new(); n];
    for &(a, b) in edges {
        if a < n && b < n {
            out[a].push(b);
            back[b].push(a);
        }
    }
    let mut seen = vec![false; n];
    let mut order = Vec::with_capacity(n);
    for start in 0..n {
        if seen[start] {
            continue;
        }
        seen[start] = true;
        let mut stack = vec![(start, 0usize)];
        while let Some((v, i)) = stack.pop() {
            if let Some(&w) = out[v].get(i) {
                stack.push((v, i + 1));
                if !seen[w] {
                    seen[w] = true;
                    stack.push((w, 0));
                }
            } else {
                order.push(v);
            }
        }
    }
    let mut component = vec![usize::MAX; n];
    for (c, &root) in order.iter().rev().enumerate() {
        if component[root] != usize::MAX {
            continue;
        }
        component[root] = c;
        let mut stack = vec![root];
        while let Some(v) = stack.pop() {
            for &w in &back[v] {
                if component[w] == usize::MAX {
                    component[w] = c;
                    stack.push(w);
                }
            }
        }
    }
    component
}

/// The attribute that carries `r`'s value (a timeuuid that `encodes` a
/// creation time), else `r`: ordering by the time clusters by the timeuuid
/// alone.
pub fn encoded_by(graph: &Graph, r: Reached) -> Reached {
    let node = r.attr.node();
    let name = &graph.attr(r.attr).name;
    let carrier = graph
        .attributes(node)
        .iter()
        .position(|a| a.encodes.as_deref() == Some(name.as_str()));
    match carrier.and_then(|i| graph.attr_id(node, &graph.attributes(node)[i].name)) {
        Some(attr) => Reached { attr, path: r.path },
        None => r,
    }
}

/// A returned time that a timeuuid of the same item `encodes`, and is not
/// `stored`: the timeuuid that carries it and the CQL function that reads
/// it back (`toTimestamp`, `toDate`, `toUnixTimestamp` for a bigint).
pub fn computed_from(graph: &Graph, r: &Reached) -> Option<(Reached, &'static str)> {
    let attr = graph.attr(r.attr);
    if attr.stored {
        return None;
    }
    Some((timeuuid_carrier(graph, r)?, time_function(&attr.ty)?))
}

/// The timeuuid that carries the time `r` (its `encodes`), when `r` is a
/// time and its carrier a timeuuid: only then can a range on `r` be bounded
/// with `minTimeuuid`/`maxTimeuuid` and `r` be read back from it; another
/// type that encodes a time (a `bigint` sequence) only orders the rows.
pub fn timeuuid_carrier(graph: &Graph, r: &Reached) -> Option<Reached> {
    time_function(&graph.attr(r.attr).ty)?;
    let carrier = encoded_by(graph, r.clone());
    (carrier != *r && is_timeuuid(graph, &carrier)).then_some(carrier)
}

/// The CQL function that reads a time of type `ty` back from a timeuuid
/// (`toTimestamp`, `toDate`, `toUnixTimestamp` for a bigint); none for a
/// type that is no time.
pub fn time_function(ty: &CqlType) -> Option<&'static str> {
    match ty {
        CqlType::Native(Native::Timestamp) => Some("toTimestamp"),
        CqlType::Native(Native::Date) => Some("toDate"),
        CqlType::Native(Native::Bigint) => Some("toUnixTimestamp"),
        _ => None,
    }
}

/// Whether `r` is a timeuuid: only a timeuuid can be read back as a time
/// (`toTimestamp`) or bounded by one (`minTimeuuid`); Cassandra refuses
/// either on another type that `encodes` a time (a `bigint` sequence).
pub fn is_timeuuid(graph: &Graph, r: &Reached) -> bool {
    matches!(graph.attr(r.attr).ty, CqlType::Native(Native::Timeuuid))
}

#[cfg(test)]
pub(crate) fn random_path(
    rng: &mut crate::model::synthetic::Rng,
    max_len: usize,
    rels: usize,
) -> Vec<Edge> {
    (0..rng.below(max_len))
        .map(|_| {
            let r = rng.below(rels);
            let end = if rng.chance(50) { End::From } else { End::To };
            if rng.chance(50) {
                Edge::Enter(r, end)
            } else {
                Edge::Leave(r, end)
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An ownership cycle (which validation refuses, but a graph is built
    /// before validation) is cut where an owner comes back: `A`'s key is
    /// `B`'s then its own, not a key grown to the cap.
    #[test]
    fn an_ownership_cycle_is_cut_where_the_owner_comes_back() {
        let p = crate::model::load::parse(
            r#"Project(format: 1, name: "c", keyspace: Keyspace(name: "c", replication: Simple(1)),
              entities: [
                Entity(name: "A", owner: Some("ba"), key: ["a"], attributes: [Attribute(name: "a", type: "int")]),
                Entity(name: "B", owner: Some("ab"), key: ["b"], attributes: [Attribute(name: "b", type: "int")]),
              ],
              relationships: [
                Relationship(name: "ba", from: "B", to: "A", cardinality: OneToMany),
                Relationship(name: "ab", from: "A", to: "B", cardinality: OneToMany),
              ])"#,
        )
        .unwrap_or_else(|e| panic!("{e}"));
        let g = Graph::new(&p);
        let ba = Edge::Enter(0, End::To);
        let back = Edge::Leave(0, End::From);
        assert_eq!(
            g.entity_key(0),
            [
                Reached {
                    attr: AttrId::Entity(1, 0),
                    path: vec![ba, back]
                },
                Reached {
                    attr: AttrId::Entity(0, 0),
                    path: vec![]
                },
            ]
        );
    }

    /// 0 ⇄ 1 is a cycle; 2 hangs off it; 3 loops on itself; 4 stands alone.
    #[test]
    fn components_group_exactly_the_cycles() {
        let c = components(5, &[(0, 1), (1, 0), (1, 2), (3, 3)]);
        assert_eq!(c[0], c[1]);
        assert_ne!(c[1], c[2]);
        assert_ne!(c[2], c[3]);
        assert_ne!(c[3], c[4]);
        assert_ne!(c[0], c[4]);
        // A long chain closed into one cycle is one component.
        let n = 10_000;
        let ring: Vec<(usize, usize)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let c = components(n, &ring);
        assert!(c.iter().all(|&x| x == c[0]));
    }

    /// `key_at_all` answers what testing the made key answers: at every
    /// prefix of every path the queries of each sample and a generated
    /// project walk, for a test that holds everywhere, nowhere, and only
    /// for the query's own references.
    #[test]
    fn key_at_all_equals_testing_the_made_key() {
        let mut projects = crate::samples::loaded();
        projects.push(crate::model::synthetic::project(40, 60, 5));
        let mut checked = 0;
        for p in &projects {
            let g = Graph::new(p);
            for q in &p.queries {
                let Some(root) = g.node(&q.rows) else {
                    continue;
                };
                let refs: Vec<Reached> = q
                    .equality
                    .iter()
                    .chain(&q.returns)
                    .filter_map(|t| g.resolve(root, t).ok())
                    .collect();
                for r in &refs {
                    for k in 0..=r.path.len() {
                        let at = &r.path[..k];
                        let key = g.key_at(root, at);
                        let made =
                            |f: &dyn Fn(&Reached) -> bool| !key.is_empty() && key.iter().all(f);
                        let tests: [&dyn Fn(&Reached) -> bool; 3] =
                            [&|_| true, &|_| false, &|x| refs.contains(x)];
                        for f in tests {
                            assert_eq!(g.key_at_all(root, at, f), made(f), "{} {at:?}", q.id);
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 100, "{checked} paths checked");
    }

    /// `key_at_cow` is `key_at`: for every entity and relationship of each
    /// sample and a generated project, from the node itself (borrowed when
    /// the stored key is normal) and one step out of it.
    #[test]
    fn key_at_cow_is_key_at() {
        let mut projects = crate::samples::loaded();
        projects.push(crate::model::synthetic::project(40, 60, 5));
        let (mut borrowed, mut checked) = (0, 0);
        for p in &projects {
            let g = Graph::new(p);
            let nodes = (0..p.entities.len())
                .map(NodeId::Entity)
                .chain((0..p.relationships.len()).map(NodeId::Rel));
            for n in nodes {
                let mut paths: Vec<Vec<Edge>> = vec![vec![]];
                paths.extend(g.steps(n).into_iter().map(|(e, _)| vec![e]));
                for at in &paths {
                    let cow = g.key_at_cow(n, at);
                    borrowed += usize::from(matches!(cow, Cow::Borrowed(_)));
                    assert_eq!(*cow, *g.key_at(n, at), "{n:?} {at:?}");
                    checked += 1;
                }
            }
        }
        assert!(
            borrowed > 50 && checked > borrowed,
            "{borrowed} of {checked} borrowed"
        );
    }

    /// `is_normal` says whether normalizing would change a path, on random
    /// paths over the hotel sample's relationships (with and without
    /// detours).
    #[test]
    fn is_normal_is_normalizing_changes_nothing() {
        let p = crate::model::load::from_str(crate::samples::SAMPLES[0].text)
            .expect("the sample loads");
        let g = Graph::new(&p);
        let mut rng = crate::model::synthetic::Rng::new(0x9e37_79b9);
        let (mut normal, mut not) = (0, 0);
        for _ in 0..3_000 {
            let path = random_path(&mut rng, 6, p.relationships.len().min(3));
            let mut normalized = path.clone();
            g.normalize_path(&mut normalized);
            let unchanged = normalized == path;
            assert_eq!(g.is_normal(&path), unchanged, "{path:?}");
            if unchanged {
                normal += 1;
            } else {
                not += 1;
            }
        }
        assert!(normal > 100 && not > 100, "{normal} normal, {not} not");
    }

    /// The indexed lookups find what the project's scans find: the first
    /// query or decision with the id, none for an unknown one, duplicate
    /// ids included.
    #[test]
    fn indexed_lookups_equal_the_project_scans() {
        let mut p = crate::model::synthetic::project(20, 40, 5);
        let dup = p.queries[3].id.clone();
        let mut second = p.queries[10].clone();
        second.id.clone_from(&dup);
        second.text = "a second Q with the same id".into();
        p.queries.push(second);
        for (i, q) in ["Q2", "Q7", "Q9", &dup, "Q2"].iter().enumerate() {
            let mut d = Decision::new(q);
            d.separate = i % 2 == 0;
            p.decisions.push(d);
        }
        let g = Graph::new(&p);
        let ids: Vec<String> = p
            .queries
            .iter()
            .map(|q| q.id.clone())
            .chain(["nope".to_string(), String::new(), "Q".to_string()])
            .collect();
        for id in &ids {
            assert_eq!(
                g.query(id).map(std::ptr::from_ref),
                p.query(id).map(std::ptr::from_ref),
                "{id}"
            );
            assert_eq!(
                g.decision(id).map(std::ptr::from_ref),
                p.decision(id).map(std::ptr::from_ref),
                "{id}"
            );
        }
        assert!(std::ptr::eq(
            g.query(&dup).expect("dup"),
            std::ptr::from_ref(&p.queries[3])
        ));
    }

    /// A graph of the next version starts from the last one's schema index
    /// only when both hold the very same entity and relationship lists;
    /// after a schema edit it indexes the new lists.
    #[test]
    fn the_schema_index_is_reused_for_the_same_lists_only() {
        let p = crate::model::synthetic::project(6, 8, 3);
        let first = Graph::new(&p);
        let index = first.schema_index();
        // Values made by the first graph come with its index.
        let short = first.short_str(NodeId::Entity(2));
        let mut query_edit = p.clone();
        query_edit.queries[0].returns.clear();
        let g = Graph::reusing(&query_edit, &index);
        assert!(Arc::ptr_eq(&g.schema_index(), &index));
        assert!(std::ptr::eq(g.short_str(NodeId::Entity(2)), short));

        let mut renamed = p.clone();
        let old = renamed.entities[2].name.clone();
        renamed.entities[2].name = "Renamed".into();
        let g = Graph::reusing(&renamed, &index);
        assert!(!Arc::ptr_eq(&g.schema_index(), &index));
        assert_eq!(g.entity_index("Renamed"), Some(2));
        assert_eq!(g.entity_index(&old), None);
        assert_eq!(&*g.entity_name(2), "Renamed");

        // Equal lists that are not the same are indexed anew (equality
        // would cost a comparison of the whole schema).
        let mut copied = p.clone();
        copied.relationships = Shared::new(p.relationships.to_vec());
        let g = Graph::reusing(&copied, &index);
        assert!(!Arc::ptr_eq(&g.schema_index(), &index));
    }

    /// The next graph takes the query index over while every id stays at
    /// its position (an edit of a query's search, say), and indexes the
    /// queries anew when an id changes or two queries swap places.
    #[test]
    fn the_query_index_is_taken_over_while_the_ids_stay_in_place() {
        let p = crate::model::synthetic::project(6, 8, 3);
        let first = Graph::new(&p);
        let index = first.query_index();
        assert_eq!(
            first.query(&p.queries[3].id).map(|q| &q.id),
            Some(&p.queries[3].id)
        );
        let name = first.query_name(3);

        let mut edited = p.clone();
        edited.queries[3].returns.clear();
        let g = Graph::new(&edited).taking_queries(&p, &index);
        assert!(Arc::ptr_eq(&g.query_index(), &index));
        assert!(Name::ptr_eq(&g.query_name(3), &name));
        assert!(g
            .query(&p.queries[3].id)
            .is_some_and(|q| q.returns.is_empty()));

        let mut renamed = p.clone();
        renamed.queries[3].id = "Renamed".into();
        let g = Graph::new(&renamed).taking_queries(&p, &index);
        assert!(!Arc::ptr_eq(&g.query_index(), &index));
        assert_eq!(&*g.query_name(3), "Renamed");
        assert!(g.query(&p.queries[3].id).is_none());

        let mut swapped = p.clone();
        swapped.queries.swap(2, 3);
        let g = Graph::new(&swapped).taking_queries(&p, &index);
        assert!(!Arc::ptr_eq(&g.query_index(), &index));
        assert_eq!(
            g.query(&p.queries[3].id).map(|q| &q.id),
            Some(&p.queries[3].id)
        );
        assert_eq!(&*g.query_name(2), p.queries[3].id.as_str());
    }

    #[test]
    fn a_path_that_walks_back_is_a_round_trip() {
        let there = [Edge::Enter(0, End::From), Edge::Leave(0, End::To)];
        let back = [Edge::Enter(0, End::To), Edge::Leave(0, End::From)];
        let round: Vec<Edge> = there.iter().chain(&back).copied().collect();
        assert!(backtracks(&round));
        assert!(!backtracks(&there));
        let onwards = [
            Edge::Enter(0, End::From),
            Edge::Leave(0, End::To),
            Edge::Enter(1, End::From),
            Edge::Leave(1, End::To),
        ];
        assert!(!backtracks(&onwards));
    }

    #[test]
    fn pickers_offer_no_round_trips() {
        let p = crate::model::load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron"))
            .expect("sample");
        let graph = Graph::new(&p);
        let mut checked = 0;
        for e in &p.entities {
            let Some(root) = graph.node(&e.name) else {
                continue;
            };
            let offered = graph.offered(root, 4);
            for name in &offered {
                if let Some((_, via)) = name.split_once(" via ") {
                    let rels: Vec<&str> = via.split(", ").collect();
                    assert!(
                        rels.windows(2).all(|w| w[0] != w[1]),
                        "{name} is offered from {}",
                        e.name
                    );
                }
            }
            let mut unique = offered.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), offered.len(), "duplicates from {}", e.name);
            checked += offered.len();
        }
        assert!(checked > 0);
    }
}
