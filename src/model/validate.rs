//! Checking a parsed project: every broken reference, bad name or number,
//! located by its path in the file (`queries[3].equality[0]`) and, for
//! names, by line and column when the file text is known.
//!
//! Validation runs in named steps, in file order: names first (control
//! characters, lengths), then the header, types, each entity, each
//! relationship, each query, the workflow, each decision and the notes.
//! A check of a new field goes into the step of the item that holds it
//! (`check_query`, `check_entity`, `check_decision`…).

use super::resolve::Graph;
use super::{CqlType, Project};
use crate::model::naming;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::fmt;

/// One thing wrong with a project, located by its path in the file.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Problem {
    pub path: String,
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

struct Checker<'t> {
    problems: Vec<Problem>,
    /// The file text, to give name problems a line and column.
    text: Option<&'t str>,
    /// How many problems were located in the text so far.
    located: usize,
}

/// Name problems given a line and column (the rest keep their path).
const MAX_LOCATED: usize = 32;

impl Checker<'_> {
    fn add(&mut self, path: impl Into<String>, message: impl Into<String>) {
        self.problems.push(Problem {
            path: path.into(),
            message: message.into(),
        });
    }

    fn name(&mut self, path: impl FnOnce() -> String, what: &str, name: &str) {
        if name.trim().is_empty() {
            self.add(path(), format!("{what} name is empty"));
        }
    }

    /// A string that can become (part of) a CQL identifier or refers to
    /// one: no character a terminal would interpret, and a bounded length,
    /// located by line and column when the file text is known.
    fn ident(&mut self, path: impl FnOnce() -> String, value: &str, max: usize) {
        let unsafe_char = value
            .chars()
            .find(|&c| crate::model::terminal_text::is_unsafe(c));
        let len = value.chars().count();
        if unsafe_char.is_none() && len <= max {
            return;
        }
        let at = self.locate(value);
        let message = match unsafe_char {
            Some(c) => format!(
                "{at}contains the control or bidirectional character U+{:04X}; names cannot hold them",
                c as u32
            ),
            None => format!("{at}is {len} characters long; this name is limited to {max}"),
        };
        self.add(path(), message);
    }

    /// "line L, column C: " of the first place `value` is written as a
    /// string literal in the file, or nothing when unknown.
    fn locate(&mut self, value: &str) -> String {
        let Some(text) = self.text else {
            return String::new();
        };
        // Each search scans the file: a file full of bad names gets
        // positions for the first ones only, not a quadratic wait.
        if self.located >= MAX_LOCATED {
            return String::new();
        }
        self.located += 1;
        let literal = format!("\"{value}\"");
        let escaped = ron::to_string(value).unwrap_or_default();
        // Escapes can be written many ways; the text before the first
        // unsafe character still finds the literal in practice.
        let prefix: String = value
            .chars()
            .take_while(|&c| !crate::model::terminal_text::is_unsafe(c))
            .collect();
        let found = text
            .find(&literal)
            .or_else(|| text.find(&escaped))
            .or_else(|| (!prefix.is_empty()).then(|| text.find(&format!("\"{prefix}")))?);
        match found {
            Some(offset) => {
                let before = &text[..offset];
                let line = before.matches('\n').count() + 1;
                let col = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
                format!("line {line}, column {col}: ")
            }
            None => String::new(),
        }
    }

    fn number(&mut self, path: impl FnOnce() -> String, value: Option<f64>) {
        if let Some(v) = value {
            if !v.is_finite() || v < 0.0 {
                self.add(path(), format!("{v} is not a non-negative number"));
            }
        }
    }

    fn ty(&mut self, path: impl FnOnce() -> String, ty: &CqlType, udts: &HashSet<&str>) {
        let mut used = Vec::new();
        ty.udts(&mut used);
        let mut path = Some(path);
        let mut at = String::new();
        for u in used {
            if !udts.contains(u.as_str()) {
                if let Some(p) = path.take() {
                    at = p();
                }
                let hint = crate::model::naming::did_you_mean(&u, udts.iter().copied());
                self.add(at.clone(), format!("no type \"{u}\"{hint}"));
            }
        }
    }
}

/// Every problem in a parsed project, in file order.
pub fn validate(project: &Project) -> Vec<Problem> {
    validate_with_text(project, None)
}

/// [`validate`], with the file text the project was parsed from so name
/// problems carry a line and column.
pub(crate) fn validate_text(project: &Project, text: &str) -> Vec<Problem> {
    validate_with_text(project, Some(text))
}

fn validate_with_text(project: &Project, text: Option<&str>) -> Vec<Problem> {
    let mut c = Checker {
        problems: vec![],
        text,
        located: 0,
    };
    let scope = Scope::new(project);
    // Steps in file order, so problems come out in the order of the file.
    check_names(project, &mut c);
    check_header(project, &mut c);
    check_types(&scope, &mut c);
    check_type_cycles(project, &mut c);
    // Entities and relationships share one namespace.
    let mut names = HashSet::default();
    for (i, e) in project.entities.iter().enumerate() {
        check_entity(&scope, i, e, &mut names, &mut c);
    }
    check_owner_cycles(project, &scope.graph, &mut c);
    for (i, r) in project.relationships.iter().enumerate() {
        check_relationship(&scope, i, r, &mut names, &mut c);
    }
    let mut ids = HashSet::default();
    for (i, q) in project.queries.iter().enumerate() {
        check_query(&scope, i, q, &mut ids, &mut c);
    }
    check_workflow(&scope, &mut c);
    let mut decided = HashSet::default();
    for (i, d) in project.decisions.iter().enumerate() {
        check_decision(&scope, i, d, &mut decided, &mut c);
    }
    check_served_by_cycles(project, &mut c);
    check_notes(&scope, &mut c);
    check_waivers(project, &mut c);
    check_query_extensions(project, &scope.graph, &mut c);
    check_calendar_parts(project, &scope.graph, &mut c);
    check_meets(project, &scope.graph, &mut c);
    check_workload(project, &mut c);
    c.problems
}

/// The workload figures: rates are non-negative numbers, a cluster has at
/// least one node per data centre and positive budgets.
fn check_workload(project: &Project, c: &mut Checker) {
    let load = |c: &mut Checker, path: String, l: Option<&super::workload::Load>| {
        if let Some(l) = l {
            c.number(|| format!("{path}.avg"), Some(l.avg));
            c.number(|| format!("{path}.peak"), l.peak);
        }
    };
    for (i, e) in project.entities.iter().enumerate() {
        load(c, format!("entities[{i}].updates"), e.updates.as_ref());
    }
    for (i, r) in project.relationships.iter().enumerate() {
        load(c, format!("relationships[{i}].updates"), r.updates.as_ref());
    }
    for (i, q) in project.queries.iter().enumerate() {
        load(c, format!("queries[{i}].load"), q.load.as_ref());
    }
    let cl = &project.cluster;
    let nodes = cl
        .nodes_per_dc
        .iter()
        .map(|n| ("cluster.nodes_per_dc".to_string(), *n));
    for (path, n) in nodes.chain(
        cl.nodes
            .iter()
            .map(|(dc, n)| (format!("cluster.nodes[{dc:?}]"), *n)),
    ) {
        if n == 0 {
            c.add(path, "a data centre needs at least one node");
        }
    }
    for (path, v) in [
        ("cluster.node_requests", cl.node_requests),
        ("cluster.node_disk_gb", cl.node_disk_gb),
    ] {
        if let Some(v) = v.filter(|v| !v.is_finite() || *v <= 0.0) {
            c.add(path, format!("{v} is not a positive number"));
        }
    }
}

/// The problems of `next`, an edit of `before`, which has none: when the
/// two differ in the workflow and the notes alone, only the steps that
/// read those run (every other step would find in `next` what it found in
/// `before`: nothing), in the order a full validation runs them; otherwise
/// the whole project is validated.
pub fn validate_after(before: &Project, next: &Project) -> Vec<Problem> {
    // Field by field without `..`: a new project field is a compile-time
    // question here.
    let Project {
        format,
        name,
        keyspace,
        cassandra,
        thresholds,
        partition_keys,
        types,
        entities,
        relationships,
        queries,
        workflow: _,
        decisions,
        notes: _,
        waivers: _,
        cluster,
    } = next;
    let elsewhere = *format != before.format
        || *name != before.name
        || *keyspace != before.keyspace
        || *cassandra != before.cassandra
        || *thresholds != before.thresholds
        || *partition_keys != before.partition_keys
        || *types != before.types
        || *entities != before.entities
        || *relationships != before.relationships
        || *cluster != before.cluster
        || *queries != before.queries
        || *decisions != before.decisions;
    if elsewhere {
        return validate(next);
    }
    let mut c = Checker {
        problems: vec![],
        text: None,
        located: 0,
    };
    check_workflow_names(next, &mut c);
    check_note_names(next, &mut c);
    let scope = Scope::new(next);
    check_workflow(&scope, &mut c);
    check_notes(&scope, &mut c);
    check_waivers(next, &mut c);
    c.problems
}

/// What the validation steps look names up in, built once.
struct Scope<'p> {
    project: &'p Project,
    graph: Graph<'p>,
    /// User-defined type names.
    udts: HashSet<&'p str>,
    query_ids: HashSet<&'p str>,
    /// Each query's rows (entity or relationship name), by id.
    query_rows: HashMap<&'p str, &'p str>,
}

impl<'p> Scope<'p> {
    fn new(project: &'p Project) -> Scope<'p> {
        Scope {
            project,
            graph: Graph::new(project),
            udts: project.types.iter().map(|t| t.name.as_str()).collect(),
            query_ids: project.queries.iter().map(|q| q.id.as_str()).collect(),
            query_rows: project
                .queries
                .iter()
                .map(|q| (q.id.as_str(), q.rows.as_str()))
                .collect(),
        }
    }

    /// "no query …" with a did-you-mean hint, when `id` names none.
    fn missing_query(&self, id: &str) -> Option<String> {
        if self.query_ids.contains(id) {
            return None;
        }
        let hint = naming::did_you_mean(id, self.query_ids.iter().copied());
        Some(format!("no query \"{id}\"{hint}"))
    }
}

/// The format version, the keyspace and the thresholds.
fn check_header(project: &Project, c: &mut Checker) {
    if project.format == 0 {
        c.add("format", "format must be 1 or more");
    }
    if !naming::is_valid_schema_name(&project.keyspace.name) {
        c.add(
            "keyspace.name",
            format!(
                "\"{}\" is not a valid keyspace name (letters, digits and _, at most 48)",
                project.keyspace.name
            ),
        );
    }
    match &project.keyspace.replication {
        super::Replication::Simple(0) => c.add(
            "keyspace.replication",
            "replication factor must be at least 1",
        ),
        super::Replication::NetworkTopology(dcs) => {
            if dcs.is_empty() {
                c.add("keyspace.replication", "name at least one data center");
            }
            for name in dcs.keys() {
                if name.is_empty() || name.contains('\'') {
                    c.add(
                        "keyspace.replication",
                        format!("\"{name}\" is not a valid data center name"),
                    );
                }
            }
        }
        super::Replication::Simple(_) => {}
    }
    let t = &project.thresholds;
    for (path, v) in [
        ("thresholds.max_values", t.max_values),
        ("thresholds.max_bytes", t.max_bytes),
        ("thresholds.horizon_days", t.horizon_days),
    ] {
        if !v.is_finite() || v <= 0.0 {
            c.add(path, "must be a positive number");
        }
    }
}

/// User-defined types: names, fields and the types they use.
fn check_types(scope: &Scope, c: &mut Checker) {
    let mut seen = HashSet::default();
    for (i, t) in scope.project.types.iter().enumerate() {
        let path = format!("types[{i}]");
        if !naming::is_valid_schema_name(&t.name) {
            c.add(
                format!("{path}.name"),
                format!("\"{}\" is not a valid type name", t.name),
            );
        } else if CqlType::Native(super::Native::Text).to_string() == t.name
            || super::Native::from_name(&t.name).is_some()
        {
            c.add(
                format!("{path}.name"),
                format!("\"{}\" is a native type name", t.name),
            );
        }
        if !seen.insert(t.name.as_str()) {
            c.add(
                format!("{path}.name"),
                format!("duplicate type \"{}\"", t.name),
            );
        }
        if t.fields.is_empty() {
            c.add(format!("{path}.fields"), "a type needs at least one field");
        }
        let mut fields = HashSet::default();
        for (j, f) in t.fields.iter().enumerate() {
            let fp = format!("{path}.fields[{j}]");
            c.name(|| fp.clone(), "field", &f.name);
            if !fields.insert(f.name.as_str()) {
                c.add(&fp, format!("duplicate field \"{}\"", f.name));
            }
            c.ty(|| format!("{fp}.type"), &f.ty, &scope.udts);
            if f.ty.is_counter() {
                c.add(format!("{fp}.type"), "a user type cannot hold a counter");
            }
        }
    }
}

/// One entity: its name, numbers, attributes, key, identifiers and owners.
fn check_entity<'p>(
    scope: &Scope<'p>,
    i: usize,
    e: &'p super::Entity,
    names: &mut HashSet<&'p str>,
    c: &mut Checker,
) {
    let graph = &scope.graph;
    // Paths are formatted only for the problems found.
    let path = || format!("entities[{i}]");
    c.name(|| format!("{}.name", path()), "entity", &e.name);
    if !names.insert(e.name.as_str()) {
        c.add(
            format!("{}.name", path()),
            format!("duplicate entity \"{}\"", e.name),
        );
    }
    if e.name.contains('.') || e.name.contains(' ') {
        c.add(
            format!("{}.name", path()),
            "entity names cannot contain '.' or spaces",
        );
    }
    c.number(|| format!("{}.count", path()), e.count);
    c.number(|| format!("{}.retention_days", path()), e.retention_days);
    if e.per.is_some() && e.count.is_none() {
        c.add(
            format!("{}.per", path()),
            "a rate (`per`) needs a `count` of instances per period",
        );
    }
    check_attributes(c, &path, &e.attributes, &scope.udts);
    if e.key.is_empty() && e.owner.is_none() {
        c.add(
            format!("{}.key", path()),
            "an entity needs at least one key attribute",
        );
    }
    for (j, k) in e.key.iter().enumerate() {
        match e.attributes.iter().find(|a| &a.name == k) {
            None => {
                let hint = naming::did_you_mean(k, e.attributes.iter().map(|a| a.name.as_str()));
                c.add(
                    format!("{}.key[{j}]", path()),
                    format!("no attribute \"{k}\" on entity {}{hint}", e.name),
                );
            }
            Some(a) if a.ty.is_counter() => c.add(
                format!("{}.key[{j}]", path()),
                "a counter cannot be part of a key",
            ),
            Some(_) => {}
        }
    }
    check_identifiers(c, graph, &path, i);
    let owners = e
        .owner
        .iter()
        .map(|o| (None, o))
        .chain(e.owners.iter().enumerate().map(|(j, o)| (Some(j), o)));
    for (j, owner) in owners {
        let opath = || match j {
            None => format!("{}.owner", path()),
            Some(j) => format!("{}.owners[{j}]", path()),
        };
        match graph.rel_index(owner).map(|i| graph.rel(i)) {
            None => c.add(opath(), format!("no relationship \"{owner}\"")),
            Some(r) => {
                if r.to != e.name
                    || r.cardinality != super::Cardinality::OneToMany
                    || r.from == e.name
                {
                    c.add(
                        opath(),
                        format!(
                            "the owner relationship must be 1:n from the owner to {} (it is {} {} {})",
                            e.name,
                            r.from,
                            r.cardinality.notation(),
                            r.to
                        ),
                    );
                }
            }
        }
    }
}

/// One relationship: its name, ends, counts and attributes.
fn check_relationship<'p>(
    scope: &Scope<'p>,
    i: usize,
    r: &'p super::Relationship,
    names: &mut HashSet<&'p str>,
    c: &mut Checker,
) {
    let path = || format!("relationships[{i}]");
    c.name(|| format!("{}.name", path()), "relationship", &r.name);
    if !names.insert(r.name.as_str()) {
        c.add(
            format!("{}.name", path()),
            format!(
                "\"{}\" is already the name of an entity or relationship",
                r.name
            ),
        );
    }
    if r.name.contains('.') || r.name.contains(' ') || r.name.contains(',') {
        c.add(
            format!("{}.name", path()),
            "relationship names cannot contain '.', ',' or spaces",
        );
    }
    for (field, name) in [("from", &r.from), ("to", &r.to)] {
        if scope.graph.entity_index(name).is_none() {
            let hint =
                naming::did_you_mean(name, scope.project.entities.iter().map(|e| e.name.as_str()));
            c.add(
                format!("{}.{field}", path()),
                format!("no entity \"{name}\"{hint}"),
            );
        }
    }
    for (field, count) in [
        ("to_per_from", &r.to_per_from),
        ("from_per_to", &r.from_per_to),
    ] {
        if let Some(n) = count {
            c.number(|| format!("{}.{field}.avg", path()), Some(n.avg));
            c.number(|| format!("{}.{field}.max", path()), n.max);
            if n.max.is_some_and(|m| m < n.avg) {
                c.add(
                    format!("{}.{field}.max", path()),
                    "the maximum is below the average",
                );
            }
        }
    }
    check_attributes(c, &path, &r.attributes, &scope.udts);
}

/// One query: its id, rows, the references it searches, orders and
/// returns, and its limit. Checks of new query fields belong here.
fn check_query<'p>(
    scope: &Scope<'p>,
    i: usize,
    q: &'p super::Query,
    ids: &mut HashSet<&'p str>,
    c: &mut Checker,
) {
    let graph = &scope.graph;
    let path = || format!("queries[{i}]");
    c.name(|| format!("{}.id", path()), "query", &q.id);
    if !ids.insert(q.id.as_str()) {
        c.add(
            format!("{}.id", path()),
            format!("duplicate query id \"{}\"", q.id),
        );
    }
    let Some(root) = graph.node(&q.rows) else {
        let project = scope.project;
        let names = project
            .entities
            .iter()
            .map(|e| e.name.as_str())
            .chain(project.relationships.iter().map(|r| r.name.as_str()));
        let hint = naming::did_you_mean(&q.rows, names);
        c.add(
            format!("{}.rows", path()),
            format!("no entity or relationship \"{}\"{hint}", q.rows),
        );
        return;
    };
    // Paths are only formatted for the references that fail.
    let mut resolve = |p: &dyn Fn() -> String, text: &str| match graph.resolve(root, text) {
        Ok(r) => Some(r),
        Err(m) => {
            c.add(p(), m);
            None
        }
    };
    // Searched references, by (equality index or none for the range).
    let mut search: Vec<(Option<usize>, super::resolve::Reached)> = Vec::new();
    for (j, a) in q.equality.iter().enumerate() {
        if let Some(r) = resolve(&|| format!("{}.equality[{j}]", path()), a) {
            search.push((Some(j), r));
        }
    }
    if let Some(range) = &q.range {
        if let Some(r) = resolve(&|| format!("{}.range.attr", path()), &range.attr) {
            search.push((None, r));
        }
    }
    let mut counter_orders = Vec::new();
    for (j, o) in q.order.iter().enumerate() {
        if let Some(r) = resolve(&|| format!("{}.order[{j}].attr", path()), &o.attr) {
            if graph.attr(r.attr).ty.is_counter() {
                counter_orders.push(j);
            }
        }
    }
    for (j, a) in q.returns.iter().enumerate() {
        resolve(&|| format!("{}.returns[{j}]", path()), a);
    }
    let search_path = |j: Option<usize>| match j {
        Some(j) => format!("{}.equality[{j}]", path()),
        None => format!("{}.range.attr", path()),
    };
    let mut seen_search = HashSet::default();
    for (j, r) in &search {
        if !seen_search.insert(r) {
            c.add(search_path(*j), "this attribute is already searched on");
        }
        if graph.attr(r.attr).ty.is_counter() {
            c.add(search_path(*j), "a counter cannot be searched on");
        }
    }
    for j in counter_orders {
        c.add(
            format!("{}.order[{j}].attr", path()),
            "a counter cannot order rows",
        );
    }
    if q.limit == Some(0) {
        c.add(format!("{}.limit", path()), "LIMIT must be at least 1");
    }
    if q.returns.is_empty() && q.aggregates.is_empty() {
        c.add(
            format!("{}.returns", path()),
            "a query returns at least one attribute",
        );
    }
}

/// Entry points and transitions name queries; what a transition feeds is
/// resolved from the rows of the query it starts at.
fn check_workflow(scope: &Scope, c: &mut Checker) {
    let workflow = &scope.project.workflow;
    for (i, id) in workflow.entry.iter().enumerate() {
        if let Some(m) = scope.missing_query(id) {
            c.add(format!("workflow.entry[{i}]"), m);
        }
    }
    for (i, t) in workflow.transitions.iter().enumerate() {
        let path = || format!("workflow.transitions[{i}]");
        for (field, id) in [("from", &t.from), ("to", &t.to)] {
            if let Some(m) = scope.missing_query(id) {
                c.add(format!("{}.{field}", path()), m);
            }
        }
        if let Some(root) = scope
            .query_rows
            .get(t.from.as_str())
            .and_then(|rows| scope.graph.node(rows))
        {
            for (j, f) in t.feeds.iter().enumerate() {
                if let Err(m) = scope.graph.resolve(root, f) {
                    c.add(format!("{}.feeds[{j}]", path()), m);
                }
            }
        }
    }
}

/// One decision: the query it is for, its table name, what serves it,
/// extra partition columns and candidate keys.
fn check_decision<'p>(
    scope: &Scope<'p>,
    i: usize,
    d: &'p super::Decision,
    decided: &mut HashSet<&'p str>,
    c: &mut Checker,
) {
    let path = || format!("decisions[{i}]");
    if let Some(m) = scope.missing_query(&d.query) {
        c.add(format!("{}.query", path()), m);
    }
    if !decided.insert(d.query.as_str()) {
        c.add(
            format!("{}.query", path()),
            format!("a second decision for {}; merge them", d.query),
        );
    }
    if let Some(name) = &d.name {
        if !naming::is_valid_schema_name(name) {
            c.add(
                format!("{}.name", path()),
                format!("\"{name}\" is not a valid table name"),
            );
        }
    }
    if let Some(other) = &d.served_by {
        if let Some(m) = scope.missing_query(other) {
            c.add(format!("{}.served_by", path()), m);
        } else if other == &d.query {
            c.add(
                format!("{}.served_by", path()),
                "a query cannot be served by itself",
            );
        }
    }
    for (j, x) in d.partition_extra.iter().enumerate() {
        let xp = || format!("{}.partition_extra[{j}]", path());
        c.name(|| format!("{}.column", xp()), "column", &x.column);
        if let super::ExtraKind::Shard { count: 0 } = x.kind {
            c.add(format!("{}.kind", xp()), "a shard count must be at least 1");
        }
    }
    let mut cand = HashSet::default();
    for (j, k) in d.candidates.iter().enumerate() {
        if !cand.insert(k.name.as_str()) {
            c.add(
                format!("{}.candidates[{j}].name", path()),
                format!("duplicate candidate \"{}\"", k.name),
            );
        }
        if k.partition.is_empty() {
            c.add(
                format!("{}.candidates[{j}].partition", path()),
                "a primary key needs a partition key",
            );
        }
    }
    if let Some(u) = &d.use_candidate {
        if !d.candidates.iter().any(|k| &k.name == u) {
            c.add(
                format!("{}.use_candidate", path()),
                format!("no candidate \"{u}\""),
            );
        }
    }
    for column in d.options.indexes.keys() {
        if !d.indexes.contains(column) && !d.candidates.iter().any(|k| k.indexes.contains(column)) {
            c.add(
                format!("{}.options.indexes", path()),
                format!(
                    "index settings for {} but the decision does not index it (add it to indexes)",
                    naming::for_terminal(column)
                ),
            );
        }
    }
    for (field, message) in super::physical::problems(&d.options, scope.project.cassandra) {
        c.add(format!("{}.options.{field}", path()), message);
    }
    if d.options.ttl == Some(true)
        && d.options.retention.is_none()
        && scope
            .project
            .query(&d.query)
            .and_then(|q| scope.project.entity(&q.rows))
            .is_none_or(|e| e.retention_days.is_none())
    {
        c.add(
            format!("{}.options.ttl", path()),
            "a TTL needs a retention to expire after: set options.retention (20s, 12h, 730d…)",
        );
    }
}

/// Chains of `served_by` must end at a query with its own table.
fn check_served_by_cycles(project: &Project, c: &mut Checker) {
    let served: HashMap<&str, &str> = project
        .decisions
        .iter()
        .filter_map(|d| Some((d.query.as_str(), d.served_by.as_deref()?)))
        .collect();
    for (i, d) in project.decisions.iter().enumerate() {
        let mut at = d.query.as_str();
        for _ in 0..=served.len() {
            match served.get(at) {
                Some(next) => at = next,
                None => break,
            }
        }
        if served.contains_key(at) {
            c.add(
                format!("decisions[{i}].served_by"),
                "served_by forms a cycle",
            );
        }
    }
}

/// Notes point at something that exists.
fn check_notes(scope: &Scope, c: &mut Checker) {
    for (i, n) in scope.project.notes.iter().enumerate() {
        let ok = match &n.target {
            super::Target::Entity(e) => scope.graph.entity_index(e).is_some(),
            super::Target::Relationship(r) => scope.graph.rel_index(r).is_some(),
            super::Target::Query(q) => scope.query_ids.contains(q.as_str()),
            // Tables are derived; a note on a table that disappears is kept
            // and reported by the diagnostics rather than refused here.
            super::Target::Table(_) => true,
        };
        if !ok {
            c.add(
                format!("notes[{i}].target"),
                format!("{:?} does not exist", n.target),
            );
        }
    }
}

/// A waiver says which finding it waives and why: an empty rule, subject
/// or reason waives nothing a reader could check. Whether the finding
/// still fires is the review's question (`stale-waiver`), not a load error.
fn check_waivers(project: &Project, c: &mut Checker) {
    for (i, w) in project.waivers.iter().enumerate() {
        for (field, value) in [
            ("rule", &w.rule),
            ("subject", &w.subject),
            ("reason", &w.reason),
        ] {
            if value.trim().is_empty() {
                c.add(
                    format!("waivers[{i}].{field}"),
                    format!("a waiver needs a {field}"),
                );
            }
        }
    }
}

/// The attributes of an entity or relationship at `path`.
fn check_attributes(
    c: &mut Checker,
    path: &dyn Fn() -> String,
    attrs: &[super::Attribute],
    udts: &HashSet<&str>,
) {
    let mut seen = HashSet::default();
    for (j, a) in attrs.iter().enumerate() {
        let ap = || format!("{}.attributes[{j}]", path());
        c.name(|| format!("{}.name", ap()), "attribute", &a.name);
        if a.name.contains('.') || a.name.contains(' ') {
            c.add(
                format!("{}.name", ap()),
                "attribute names cannot contain '.' or spaces",
            );
        }
        if !seen.insert(a.name.as_str()) {
            c.add(
                format!("{}.name", ap()),
                format!("duplicate attribute \"{}\"", a.name),
            );
        }
        c.ty(|| format!("{}.type", ap()), &a.ty, udts);
        c.number(|| format!("{}.size", ap()), a.size);
        c.number(|| format!("{}.distinct", ap()), a.distinct);
        c.number(|| format!("{}.elements", ap()), a.elements);
        if let Some(col) = &a.column {
            if col.is_empty() {
                c.add(
                    format!("{}.column", ap()),
                    "a column name must be non-empty text",
                );
            }
        }
    }
}

/// Longest table, keyspace and type name Cassandra accepts.
pub(crate) const MAX_SCHEMA_NAME: usize = 48;
/// Longest other name (entity, attribute, column, query id, reference…):
/// far beyond real models, short enough for any layout.
pub(crate) const MAX_NAME: usize = 128;

/// Every string that can become a CQL identifier or names one: entity
/// names and their short and plural forms, attributes and column
/// overrides, type fields, query ids and their references, decisions and
/// candidates. Free text (the project name, query texts, notes) may hold
/// anything: it is sanitized where it is shown.
fn check_names(project: &Project, c: &mut Checker) {
    use MAX_NAME as N;
    // References may name an attribute through relationships
    // (`Entity.attr via a, b`): longer, still bounded.
    const REF: usize = 4 * MAX_NAME;
    c.ident(
        || "keyspace.name".into(),
        &project.keyspace.name,
        MAX_SCHEMA_NAME,
    );
    if let super::Replication::NetworkTopology(dcs) = &project.keyspace.replication {
        for dc in dcs.keys() {
            c.ident(|| "keyspace.replication".into(), dc, N);
        }
    }
    for (i, t) in project.types.iter().enumerate() {
        c.ident(|| format!("types[{i}].name"), &t.name, MAX_SCHEMA_NAME);
        for (j, f) in t.fields.iter().enumerate() {
            c.ident(|| format!("types[{i}].fields[{j}].name"), &f.name, N);
        }
    }
    let attrs = |c: &mut Checker, path: &dyn Fn() -> String, attrs: &[super::Attribute]| {
        for (j, a) in attrs.iter().enumerate() {
            c.ident(|| format!("{}.attributes[{j}].name", path()), &a.name, N);
            if let Some(col) = &a.column {
                c.ident(|| format!("{}.attributes[{j}].column", path()), col, N);
            }
            if let Some(enc) = &a.encodes {
                c.ident(|| format!("{}.attributes[{j}].encodes", path()), enc, N);
            }
        }
    };
    for (i, e) in project.entities.iter().enumerate() {
        let p = || format!("entities[{i}]");
        c.ident(|| format!("{}.name", p()), &e.name, N);
        for (field, v) in [("short", &e.short), ("plural", &e.plural)] {
            if let Some(v) = v {
                c.ident(|| format!("{}.{field}", p()), v, MAX_SCHEMA_NAME);
            }
        }
        if let Some(o) = &e.owner {
            c.ident(|| format!("{}.owner", p()), o, N);
        }
        for (k, key) in e.key.iter().enumerate() {
            c.ident(|| format!("{}.key[{k}]", p()), key, N);
        }
        for (k, o) in e.owners.iter().enumerate() {
            c.ident(|| format!("{}.owners[{k}]", p()), o, N);
        }
        for (j, ident) in e.unique.iter().enumerate() {
            for (k, a) in ident.iter().enumerate() {
                c.ident(|| format!("{}.unique[{j}][{k}]", p()), a, 4 * N);
            }
        }
        attrs(c, &p, &e.attributes);
    }
    for (i, r) in project.relationships.iter().enumerate() {
        let p = || format!("relationships[{i}]");
        c.ident(|| format!("{}.name", p()), &r.name, N);
        c.ident(|| format!("{}.from", p()), &r.from, N);
        c.ident(|| format!("{}.to", p()), &r.to, N);
        attrs(c, &p, &r.attributes);
    }
    for (i, q) in project.queries.iter().enumerate() {
        let p = || format!("queries[{i}]");
        c.ident(|| format!("{}.id", p()), &q.id, N);
        c.ident(|| format!("{}.rows", p()), &q.rows, N);
        for (k, a) in q.equality.iter().enumerate() {
            c.ident(|| format!("{}.equality[{k}]", p()), a, REF);
        }
        if let Some(r) = &q.range {
            c.ident(|| format!("{}.range.attr", p()), &r.attr, REF);
        }
        for (k, o) in q.order.iter().enumerate() {
            c.ident(|| format!("{}.order[{k}].attr", p()), &o.attr, REF);
        }
        for (k, a) in q.returns.iter().enumerate() {
            c.ident(|| format!("{}.returns[{k}]", p()), a, REF);
        }
        check_extension_names(c, &p(), q);
    }
    check_workflow_names(project, c);
    for (i, d) in project.decisions.iter().enumerate() {
        let p = || format!("decisions[{i}]");
        c.ident(|| format!("{}.query", p()), &d.query, N);
        if let Some(n) = &d.name {
            c.ident(|| format!("{}.name", p()), n, MAX_SCHEMA_NAME);
        }
        if let Some(s) = &d.served_by {
            c.ident(|| format!("{}.served_by", p()), s, N);
        }
        if let Some(u) = &d.use_candidate {
            c.ident(|| format!("{}.use_candidate", p()), u, N);
        }
        for (k, x) in d.partition_extra.iter().enumerate() {
            c.ident(
                || format!("{}.partition_extra[{k}].column", p()),
                &x.column,
                N,
            );
            if let super::ExtraKind::Bucket { source, .. } = &x.kind {
                c.ident(|| format!("{}.partition_extra[{k}].kind", p()), source, N);
            }
        }
        for (field, list) in [
            ("promote", &d.promote),
            ("equality_partition", &d.equality_partition),
            ("equality_clustering", &d.equality_clustering),
            ("flip", &d.flip),
            ("collections", &d.collections),
            ("timeuuid", &d.timeuuid),
            ("indexes", &d.indexes),
        ] {
            for (k, v) in list.iter().enumerate() {
                c.ident(|| format!("{}.{field}[{k}]", p()), v, N);
            }
        }
        for (k, cand) in d.candidates.iter().enumerate() {
            let cp = || format!("{}.candidates[{k}]", p());
            c.ident(|| format!("{}.name", cp()), &cand.name, N);
            for (field, list) in [("partition", &cand.partition), ("indexes", &cand.indexes)] {
                for (m, v) in list.iter().enumerate() {
                    c.ident(|| format!("{}.{field}[{m}]", cp()), v, N);
                }
            }
            for (m, o) in cand.clustering.iter().enumerate() {
                c.ident(|| format!("{}.clustering[{m}].attr", cp()), &o.attr, N);
            }
        }
    }
    check_note_names(project, c);
}

fn check_workflow_names(project: &Project, c: &mut Checker) {
    for (i, id) in project.workflow.entry.iter().enumerate() {
        c.ident(|| format!("workflow.entry[{i}]"), id, MAX_NAME);
    }
    for (i, t) in project.workflow.transitions.iter().enumerate() {
        c.ident(
            || format!("workflow.transitions[{i}].from"),
            &t.from,
            MAX_NAME,
        );
        c.ident(|| format!("workflow.transitions[{i}].to"), &t.to, MAX_NAME);
        for (k, f) in t.feeds.iter().enumerate() {
            c.ident(
                || format!("workflow.transitions[{i}].feeds[{k}]"),
                f,
                4 * MAX_NAME,
            );
        }
    }
}

fn check_note_names(project: &Project, c: &mut Checker) {
    for (i, n) in project.notes.iter().enumerate() {
        let (super::Target::Entity(t)
        | super::Target::Relationship(t)
        | super::Target::Query(t)
        | super::Target::Table(t)) = &n.target;
        c.ident(|| format!("notes[{i}].target"), t, MAX_NAME);
    }
}

/// `unique` identifiers name attributes reachable from the entity; `encodes`
/// names another attribute of the same entity.
fn check_identifiers(c: &mut Checker, graph: &Graph, path: &dyn Fn() -> String, e: usize) {
    let ent = graph.entity(e);
    for (j, ident) in ent.unique.iter().enumerate() {
        if ident.is_empty() {
            c.add(
                format!("{}.unique[{j}]", path()),
                "an identifier needs at least one attribute",
            );
        }
        for (k, a) in ident.iter().enumerate() {
            if let Err(m) = graph.resolve(super::resolve::NodeId::Entity(e), a) {
                c.add(format!("{}.unique[{j}][{k}]", path()), m);
            }
        }
    }
    for (j, a) in ent.attributes.iter().enumerate() {
        if let Some(target) = &a.encodes {
            if **target == *a.name || !ent.attributes.iter().any(|x| *x.name == **target) {
                c.add(
                    format!("{}.attributes[{j}].encodes", path()),
                    format!(
                        "\"{target}\" is not another attribute of entity {}",
                        ent.name
                    ),
                );
            }
        }
    }
}

fn check_type_cycles(project: &Project, c: &mut Checker) {
    let deps: HashMap<&str, Vec<String>> = project
        .types
        .iter()
        .map(|t| {
            let mut used = Vec::new();
            for f in &t.fields {
                f.ty.udts(&mut used);
            }
            (t.name.as_str(), used)
        })
        .collect();
    for (i, t) in project.types.iter().enumerate() {
        let mut stack: Vec<&str> = vec![t.name.as_str()];
        let mut seen = HashSet::default();
        while let Some(n) = stack.pop() {
            for d in deps.get(n).into_iter().flatten() {
                if d == &t.name {
                    c.add(
                        format!("types[{i}]"),
                        format!("type \"{}\" contains itself", t.name),
                    );
                    stack.clear();
                    break;
                }
                if seen.insert(d.as_str()) {
                    stack.push(d.as_str());
                }
            }
        }
    }
}

fn check_owner_cycles(project: &Project, graph: &Graph, c: &mut Checker) {
    // Depth-first along every identifying relationship: an entity that
    // reaches itself is its own owner.
    for i in 0..project.entities.len() {
        let mut stack: Vec<(usize, usize)> = vec![(i, 0)];
        let mut seen = HashSet::default();
        while let Some((at, steps)) = stack.pop() {
            let owners = graph.owners_of(at);
            if owners.iter().any(|&(_, o)| o == i) || steps > project.entities.len() {
                c.add(
                    format!("entities[{i}].owner"),
                    "weak entity ownership forms a cycle",
                );
                break;
            }
            for (_, o) in owners {
                if seen.insert(o) {
                    stack.push((o, steps + 1));
                }
            }
        }
    }
}

/// Constants, aggregates and windows of every query: references resolve,
/// constants parse as their attribute's type, aggregates fit their
/// attribute, and an aggregate query reads nothing its summary lacks.
fn check_query_extensions(project: &Project, graph: &Graph, c: &mut Checker) {
    use super::AggregateFn;
    for (i, q) in project.queries.iter().enumerate() {
        if q.constants.is_empty()
            && q.aggregates.is_empty()
            && q.window.is_none()
            && q.group.is_empty()
        {
            continue;
        }
        let path = format!("queries[{i}]");
        let Some(root) = graph.node(&q.rows) else {
            continue;
        };
        let resolve = |text: &str| graph.resolve(root, text).ok();
        let mut searched: Vec<super::resolve::Reached> = q
            .equality
            .iter()
            .chain(q.range.as_ref().map(|r| &r.attr))
            .filter_map(|a| resolve(a))
            .collect();
        for (j, k) in q.constants.iter().enumerate() {
            let p = format!("{path}.constants[{j}]");
            let r = match graph.resolve(root, &k.attr) {
                Ok(r) => r,
                Err(m) => {
                    c.add(format!("{p}.attr"), m);
                    continue;
                }
            };
            if searched.contains(&r) {
                c.add(format!("{p}.attr"), "this attribute is already searched on");
            }
            let ty = &graph.attr(r.attr).ty;
            if let Err(m) = crate::model::literal::constant(ty, &k.value) {
                let at = c.locate(&k.value);
                c.add(format!("{p}.value"), format!("{at}{m}"));
            }
            searched.push(r);
        }
        if q.aggregates.is_empty() {
            if !q.group.is_empty() {
                c.add(
                    format!("{path}.group"),
                    "a group says what aggregates are per: add aggregates, or search by equality",
                );
            }
            if q.window.is_some() {
                c.add(
                    format!("{path}.window"),
                    "a window groups aggregates: add aggregates, or search the time with a range",
                );
            }
            continue;
        }
        let mut columns = HashSet::default();
        for (j, a) in q.aggregates.iter().enumerate() {
            let p = format!("{path}.aggregates[{j}]");
            if let Some(col) = &a.column {
                if !columns.insert(col.as_str()) {
                    c.add(
                        format!("{p}.column"),
                        format!("column \"{col}\" is named twice"),
                    );
                }
            }
            let Some(attr) = &a.attr else {
                if a.function != AggregateFn::Count {
                    c.add(
                        format!("{p}.attr"),
                        format!("{} needs an attribute", a.function.name()),
                    );
                }
                continue;
            };
            let r = match graph.resolve(root, attr) {
                Ok(r) => r,
                Err(m) => {
                    c.add(format!("{p}.attr"), m);
                    continue;
                }
            };
            let ty = &graph.attr(r.attr).ty;
            let numeric = ty.native().is_some_and(super::types::Native::is_numeric);
            let fits = match a.function {
                AggregateFn::Count => true,
                AggregateFn::Sum | AggregateFn::Avg => numeric && !ty.is_counter(),
                AggregateFn::Min | AggregateFn::Max => {
                    ty.native()
                        .is_some_and(|n| n.is_numeric() || n.is_temporal() || n.is_text())
                        && !ty.is_counter()
                }
            };
            if !fits {
                c.add(
                    format!("{p}.attr"),
                    format!("{} of a {ty} attribute is not supported", a.function.name()),
                );
            }
        }
        let mut group: Vec<super::resolve::Reached> =
            q.equality.iter().filter_map(|a| resolve(a)).collect();
        // Members grouped beyond the equality: each resolves, once, and is
        // not already searched (a constant filters rows, a member splits them).
        for (j, m) in q.group.iter().enumerate() {
            let p = format!("{path}.group[{j}]");
            match graph.resolve(root, m) {
                Ok(r) => {
                    if group.contains(&r) || searched.contains(&r) {
                        c.add(p, "this attribute is already searched on");
                    } else {
                        group.push(r);
                    }
                }
                Err(m) => c.add(p, m),
            }
        }
        if let Some(w) = &q.window {
            match graph.resolve(root, &w.attr) {
                Ok(r) => {
                    if !graph.attr(r.attr).ty.is_temporal() {
                        c.add(
                            format!("{path}.window.attr"),
                            "a window is a period of a date or time attribute",
                        );
                    }
                    group.push(r);
                }
                Err(m) => c.add(format!("{path}.window.attr"), m),
            }
        }
        // The summary holds the group, the window and the aggregates only.
        let outside = |text: &str| resolve(text).is_some_and(|r| !group.contains(&r));
        if let Some(r) = &q.range {
            if outside(&r.attr) {
                c.add(
                    format!("{path}.range.attr"),
                    "an aggregate query can only search a range of its window",
                );
            }
        }
        for (j, o) in q.order.iter().enumerate() {
            if outside(&o.attr) {
                c.add(
                    format!("{path}.order[{j}].attr"),
                    "an aggregate query can only order by its window",
                );
            }
        }
        for (j, a) in q.returns.iter().enumerate() {
            if outside(a) {
                c.add(
                    format!("{path}.returns[{j}]"),
                    "an aggregate query returns its group, its window and its aggregates only",
                );
            }
        }
    }
}

/// Calendar parts of every query: each names a timestamp, timeuuid or
/// date attribute (a date has no hour), once, and an aggregate query says
/// its period with `window` instead.
fn check_calendar_parts(project: &Project, graph: &Graph, c: &mut Checker) {
    use super::types::Native;
    for (i, q) in project.queries.iter().enumerate() {
        if q.calendar.is_empty() {
            continue;
        }
        let path = format!("queries[{i}]");
        let Some(root) = graph.node(&q.rows) else {
            continue;
        };
        if !q.aggregates.is_empty() {
            c.add(
                format!("{path}.calendar"),
                "an aggregate query groups by a period of a time with window, not calendar",
            );
            continue;
        }
        let mut seen: Vec<super::resolve::Reached> = Vec::new();
        for (j, part) in q.calendar.iter().enumerate() {
            let p = format!("{path}.calendar[{j}].attr");
            let r = match graph.resolve(root, &part.attr) {
                Ok(r) => r,
                Err(m) => {
                    c.add(p, m);
                    continue;
                }
            };
            match graph.attr(r.attr).ty.native() {
                Some(Native::Timestamp | Native::Timeuuid) => {}
                Some(Native::Date) if part.period != super::Period::Hour => {}
                Some(Native::Date) => {
                    c.add(p, "a date has no hour: search its day or a longer period");
                    continue;
                }
                _ => {
                    let ty = &graph.attr(r.attr).ty;
                    c.add(
                        p,
                        format!(
                            "the {} of a {ty} attribute: a calendar part is of a timestamp, timeuuid or date",
                            part.period.name()
                        ),
                    );
                    continue;
                }
            }
            if seen.contains(&r) {
                c.add(p, "this time is already searched by a calendar part");
            }
            seen.push(r);
        }
    }
}

/// A query's `meets`: each side resolves to a path from the rows, both
/// reach the same entity or relationship, and they are two paths.
fn check_meets(project: &Project, graph: &Graph, c: &mut Checker) {
    for (i, q) in project.queries.iter().enumerate() {
        let Some(root) = graph.node(&q.rows) else {
            continue;
        };
        for (j, m) in q.meets.iter().enumerate() {
            let p = format!("queries[{i}].meets[{j}]");
            let mut sides = Vec::with_capacity(2);
            for (k, text) in [(0, &m.0), (1, &m.1)] {
                match graph.resolve_meet(root, text) {
                    Ok(path) => sides.push(path),
                    Err(e) => c.add(format!("{p}.{k}"), e),
                }
            }
            let [a, b] = sides.as_slice() else {
                continue;
            };
            if a == b {
                c.add(
                    format!("{p}.1"),
                    "both sides are the same path: name the two ways the instance is reached",
                );
                continue;
            }
            let (na, nb) = (graph.walk(root, a), graph.walk(root, b));
            if na != nb {
                let name = |n: Option<super::resolve::NodeId>| {
                    n.map_or_else(String::new, |n| graph.node_name(n).to_string())
                };
                c.add(
                    format!("{p}.1"),
                    format!(
                        "the sides reach {} and {}: both must reach the same entity",
                        name(na),
                        name(nb)
                    ),
                );
            }
        }
    }
}

/// Names and references in a query's constants, aggregates and window.
fn check_extension_names(c: &mut Checker, p: &str, q: &super::Query) {
    const REF: usize = 4 * MAX_NAME;
    for (k, x) in q.constants.iter().enumerate() {
        c.ident(|| format!("{p}.constants[{k}].attr"), &x.attr, REF);
    }
    for (k, a) in q.aggregates.iter().enumerate() {
        if let Some(attr) = &a.attr {
            c.ident(|| format!("{p}.aggregates[{k}].attr"), attr, REF);
        }
        if let Some(col) = &a.column {
            c.ident(|| format!("{p}.aggregates[{k}].column"), col, MAX_NAME);
            c.name(|| format!("{p}.aggregates[{k}].column"), "column", col);
        }
    }
    if let Some(w) = &q.window {
        c.ident(|| format!("{p}.window.attr"), &w.attr, REF);
    }
    for (k, x) in q.calendar.iter().enumerate() {
        c.ident(|| format!("{p}.calendar[{k}].attr"), &x.attr, REF);
    }
    for (k, m) in q.meets.iter().enumerate() {
        c.ident(|| format!("{p}.meets[{k}].0"), &m.0, REF);
        c.ident(|| format!("{p}.meets[{k}].1"), &m.1, REF);
    }
}
