//! Reading, checking and writing project files. Loading never panics:
//! syntax errors carry a line and column, broken references the path of the
//! item that holds them (`queries[3].equality[0]`).

use super::resolve::Graph;
use super::{CqlType, Project, FORMAT_VERSION};
use crate::naming;
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::fmt;
use std::path::Path;

/// Larger files are refused before parsing: no real model comes close.
pub const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;

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

#[derive(Debug)]
pub enum LoadError {
    Io(String),
    Syntax {
        line: usize,
        col: usize,
        message: String,
    },
    Invalid(Vec<Problem>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(m) => f.write_str(m),
            LoadError::Syntax { line, col, message } => {
                write!(f, "line {line}, column {col}: {message}")
            }
            LoadError::Invalid(problems) => {
                for (i, p) in problems.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Parses project text without checking references.
pub fn parse(text: &str) -> Result<Project, LoadError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(LoadError::Io(format!(
            "the file is {} bytes; project files are limited to {} bytes",
            text.len(),
            MAX_FILE_BYTES
        )));
    }
    let options = ron::Options::default().with_recursion_limit(64);
    let project: Project = options.from_str(text).map_err(|e| LoadError::Syntax {
        line: e.span.start.line,
        col: e.span.start.col,
        message: e.code.to_string(),
    })?;
    if project.format > FORMAT_VERSION {
        return Err(LoadError::Invalid(vec![Problem {
            path: "format".into(),
            message: format!(
                "format {} is newer than this cqlmodel reads ({FORMAT_VERSION}); upgrade cqlmodel",
                project.format
            ),
        }]));
    }
    Ok(project)
}

/// Parses and checks project text.
pub fn from_str(text: &str) -> Result<Project, LoadError> {
    let project = parse(text)?;
    let problems = validate_text(&project, text);
    if problems.is_empty() {
        Ok(project)
    } else {
        Err(LoadError::Invalid(problems))
    }
}

pub fn read(path: &Path) -> Result<Project, LoadError> {
    let text = read_text(path)?;
    from_str(&text)
}

pub fn read_text(path: &Path) -> Result<String, LoadError> {
    let meta =
        std::fs::metadata(path).map_err(|e| LoadError::Io(format!("{}: {e}", path.display())))?;
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(LoadError::Io(format!(
            "{}: {} bytes; project files are limited to {MAX_FILE_BYTES} bytes",
            path.display(),
            meta.len()
        )));
    }
    let bytes =
        std::fs::read(path).map_err(|e| LoadError::Io(format!("{}: {e}", path.display())))?;
    String::from_utf8(bytes)
        .map_err(|e| LoadError::Io(format!("{}: not UTF-8 text ({e})", path.display())))
}

fn pretty() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("    ".to_string())
        .new_line("\n".to_string())
}

/// One item (entity, query, decision…) as pretty RON, in the same layout
/// as the project file, for editing it as text.
pub fn item_to_string<T: serde::Serialize>(item: &T) -> String {
    ron::ser::to_string_pretty(item, pretty())
        .unwrap_or_else(|e| format!("// could not serialize: {e}\n"))
}

/// Parses one item written by [`item_to_string`], with the error position.
pub fn item_from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, LoadError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(LoadError::Io("the text is too large".into()));
    }
    ron::Options::default()
        .with_recursion_limit(64)
        .from_str(text)
        .map_err(|e| LoadError::Syntax {
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })
}

/// The project as pretty RON: stable field order, one item per line.
pub fn to_string(project: &Project) -> String {
    match ron::ser::to_string_pretty(project, pretty()) {
        Ok(mut s) => {
            s.push('\n');
            s
        }
        // Serializing plain data into a string cannot fail; keep a readable
        // fallback rather than a panic all the same.
        Err(e) => format!("// could not serialize: {e}\n"),
    }
}

/// Atomic writes live in [`super::save`]; kept here for existing callers.
pub use super::save::write_atomic;

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
        let unsafe_char = value.chars().find(|&c| crate::terminal_text::is_unsafe(c));
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
            .take_while(|&c| !crate::terminal_text::is_unsafe(c))
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
                let hint = crate::naming::did_you_mean(&u, udts.iter().copied());
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
pub fn validate_text(project: &Project, text: &str) -> Vec<Problem> {
    validate_with_text(project, Some(text))
}

fn validate_with_text(project: &Project, text: Option<&str>) -> Vec<Problem> {
    let mut c = Checker {
        problems: vec![],
        text,
        located: 0,
    };
    let graph = Graph::new(project);
    check_names(project, &mut c);

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
        _ => {}
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

    let udts: HashSet<&str> = project.types.iter().map(|t| t.name.as_str()).collect();
    let mut seen = HashSet::default();
    for (i, t) in project.types.iter().enumerate() {
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
            c.ty(|| format!("{fp}.type"), &f.ty, &udts);
            if f.ty.is_counter() {
                c.add(format!("{fp}.type"), "a user type cannot hold a counter");
            }
        }
    }
    check_type_cycles(project, &mut c);

    let mut names = HashSet::default();
    for (i, e) in project.entities.iter().enumerate() {
        let path = format!("entities[{i}]");
        c.name(|| format!("{path}.name"), "entity", &e.name);
        if !names.insert(e.name.as_str()) {
            c.add(
                format!("{path}.name"),
                format!("duplicate entity \"{}\"", e.name),
            );
        }
        if e.name.contains('.') || e.name.contains(' ') {
            c.add(
                format!("{path}.name"),
                "entity names cannot contain '.' or spaces",
            );
        }
        c.number(|| format!("{path}.count"), e.count);
        c.number(|| format!("{path}.retention_days"), e.retention_days);
        check_attributes(&mut c, &path, &e.attributes, &udts);
        if e.key.is_empty() && e.owner.is_none() {
            c.add(
                format!("{path}.key"),
                "an entity needs at least one key attribute",
            );
        }
        for (j, k) in e.key.iter().enumerate() {
            match e.attributes.iter().find(|a| &a.name == k) {
                None => {
                    let hint = crate::naming::did_you_mean(
                        k,
                        e.attributes.iter().map(|a| a.name.as_str()),
                    );
                    c.add(
                        format!("{path}.key[{j}]"),
                        format!("no attribute \"{k}\" on entity {}{hint}", e.name),
                    );
                }
                Some(a) if a.ty.is_counter() => c.add(
                    format!("{path}.key[{j}]"),
                    "a counter cannot be part of a key",
                ),
                Some(_) => {}
            }
        }
        check_identifiers(&mut c, &graph, &path, i);
        let owners = e.owner.iter().map(|o| (format!("{path}.owner"), o)).chain(
            e.owners
                .iter()
                .enumerate()
                .map(|(j, o)| (format!("{path}.owners[{j}]"), o)),
        );
        for (opath, owner) in owners {
            match graph.rel_index(owner).map(|i| graph.rel(i)) {
                None => c.add(opath, format!("no relationship \"{owner}\"")),
                Some(r) => {
                    if r.to != e.name
                        || r.cardinality != super::Cardinality::OneToMany
                        || r.from == e.name
                    {
                        c.add(
                            opath,
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
    check_owner_cycles(project, &graph, &mut c);

    for (i, r) in project.relationships.iter().enumerate() {
        let path = format!("relationships[{i}]");
        c.name(|| format!("{path}.name"), "relationship", &r.name);
        if !names.insert(r.name.as_str()) {
            c.add(
                format!("{path}.name"),
                format!(
                    "\"{}\" is already the name of an entity or relationship",
                    r.name
                ),
            );
        }
        if r.name.contains('.') || r.name.contains(' ') || r.name.contains(',') {
            c.add(
                format!("{path}.name"),
                "relationship names cannot contain '.', ',' or spaces",
            );
        }
        for (field, name) in [("from", &r.from), ("to", &r.to)] {
            if graph.entity_index(name).is_none() {
                let hint = crate::naming::did_you_mean(
                    name,
                    project.entities.iter().map(|e| e.name.as_str()),
                );
                c.add(
                    format!("{path}.{field}"),
                    format!("no entity \"{name}\"{hint}"),
                );
            }
        }
        for (field, count) in [
            ("to_per_from", &r.to_per_from),
            ("from_per_to", &r.from_per_to),
        ] {
            if let Some(n) = count {
                c.number(|| format!("{path}.{field}.avg"), Some(n.avg));
                c.number(|| format!("{path}.{field}.max"), n.max);
                if n.max.is_some_and(|m| m < n.avg) {
                    c.add(
                        format!("{path}.{field}.max"),
                        "the maximum is below the average",
                    );
                }
            }
        }
        check_attributes(&mut c, &path, &r.attributes, &udts);
    }

    let mut ids = HashSet::default();
    for (i, q) in project.queries.iter().enumerate() {
        let path = format!("queries[{i}]");
        c.name(|| format!("{path}.id"), "query", &q.id);
        if !ids.insert(q.id.as_str()) {
            c.add(
                format!("{path}.id"),
                format!("duplicate query id \"{}\"", q.id),
            );
        }
        let Some(root) = graph.node(&q.rows) else {
            let names = project
                .entities
                .iter()
                .map(|e| e.name.as_str())
                .chain(project.relationships.iter().map(|r| r.name.as_str()));
            let hint = crate::naming::did_you_mean(&q.rows, names);
            c.add(
                format!("{path}.rows"),
                format!("no entity or relationship \"{}\"{hint}", q.rows),
            );
            continue;
        };
        // Paths are only formatted for the references that fail.
        let mut resolve = |p: &dyn Fn() -> String, text: &str| match graph.resolve(root, text) {
            Ok(r) => Some(r),
            Err(m) => {
                c.add(p(), m);
                None
            }
        };
        let mut search: Vec<(String, super::resolve::Reached)> = Vec::new();
        for (j, a) in q.equality.iter().enumerate() {
            let p = || format!("{path}.equality[{j}]");
            if let Some(r) = resolve(&p, a) {
                search.push((p(), r));
            }
        }
        if let Some(range) = &q.range {
            let p = || format!("{path}.range.attr");
            if let Some(r) = resolve(&p, &range.attr) {
                search.push((p(), r));
            }
        }
        let mut orders = Vec::new();
        for (j, o) in q.order.iter().enumerate() {
            let p = || format!("{path}.order[{j}].attr");
            if let Some(r) = resolve(&p, &o.attr) {
                if graph.attr(r.attr).ty.is_counter() {
                    orders.push(p());
                }
            }
        }
        for (j, a) in q.returns.iter().enumerate() {
            resolve(&|| format!("{path}.returns[{j}]"), a);
        }
        let mut seen_search = HashSet::default();
        for (p, r) in &search {
            if !seen_search.insert(r.clone()) {
                c.add(p, "this attribute is already searched on");
            }
            let attr = graph.attr(r.attr);
            if attr.ty.is_counter() {
                c.add(p, "a counter cannot be searched on");
            }
        }
        for p in orders {
            c.add(p, "a counter cannot order rows");
        }
        if q.limit == Some(0) {
            c.add(format!("{path}.limit"), "LIMIT must be at least 1");
        }
        if q.returns.is_empty() && q.aggregates.is_empty() {
            c.add(
                format!("{path}.returns"),
                "a query returns at least one attribute",
            );
        }
    }

    let query_ids: HashSet<&str> = project.queries.iter().map(|q| q.id.as_str()).collect();
    let query_rows: HashMap<&str, &str> = project
        .queries
        .iter()
        .map(|q| (q.id.as_str(), q.rows.as_str()))
        .collect();
    let query_hint = |id: &str| crate::naming::did_you_mean(id, query_ids.iter().copied());
    for (i, id) in project.workflow.entry.iter().enumerate() {
        if !query_ids.contains(id.as_str()) {
            c.add(
                format!("workflow.entry[{i}]"),
                format!("no query \"{id}\"{}", query_hint(id)),
            );
        }
    }
    for (i, t) in project.workflow.transitions.iter().enumerate() {
        let path = format!("workflow.transitions[{i}]");
        for (field, id) in [("from", &t.from), ("to", &t.to)] {
            if !query_ids.contains(id.as_str()) {
                c.add(
                    format!("{path}.{field}"),
                    format!("no query \"{id}\"{}", query_hint(id)),
                );
            }
        }
        if let Some(root) = query_rows
            .get(t.from.as_str())
            .and_then(|rows| graph.node(rows))
        {
            for (j, f) in t.feeds.iter().enumerate() {
                if let Err(m) = graph.resolve(root, f) {
                    c.add(format!("{path}.feeds[{j}]"), m);
                }
            }
        }
    }
    let mut decided = HashSet::default();
    for (i, d) in project.decisions.iter().enumerate() {
        let path = format!("decisions[{i}]");
        if !query_ids.contains(d.query.as_str()) {
            c.add(
                format!("{path}.query"),
                format!("no query \"{}\"{}", d.query, query_hint(&d.query)),
            );
        }
        if !decided.insert(d.query.as_str()) {
            c.add(
                format!("{path}.query"),
                format!("a second decision for {}; merge them", d.query),
            );
        }
        if let Some(name) = &d.name {
            if !naming::is_valid_schema_name(name) {
                c.add(
                    format!("{path}.name"),
                    format!("\"{name}\" is not a valid table name"),
                );
            }
        }
        if let Some(other) = &d.served_by {
            if !query_ids.contains(other.as_str()) {
                c.add(
                    format!("{path}.served_by"),
                    format!("no query \"{other}\"{}", query_hint(other)),
                );
            } else if other == &d.query {
                c.add(
                    format!("{path}.served_by"),
                    "a query cannot be served by itself",
                );
            }
        }
        for (j, x) in d.partition_extra.iter().enumerate() {
            let xp = format!("{path}.partition_extra[{j}]");
            c.name(|| format!("{xp}.column"), "column", &x.column);
            if let super::ExtraKind::Shard { count: 0 } = x.kind {
                c.add(format!("{xp}.kind"), "a shard count must be at least 1");
            }
        }
        let mut cand = HashSet::default();
        for (j, k) in d.candidates.iter().enumerate() {
            if !cand.insert(k.name.as_str()) {
                c.add(
                    format!("{path}.candidates[{j}].name"),
                    format!("duplicate candidate \"{}\"", k.name),
                );
            }
            if k.partition.is_empty() {
                c.add(
                    format!("{path}.candidates[{j}].partition"),
                    "a primary key needs a partition key",
                );
            }
        }
        if let Some(u) = &d.use_candidate {
            if !d.candidates.iter().any(|k| &k.name == u) {
                c.add(
                    format!("{path}.use_candidate"),
                    format!("no candidate \"{u}\""),
                );
            }
        }
    }
    // Chains of served_by must end at a query with its own table.
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
    for (i, n) in project.notes.iter().enumerate() {
        let ok = match &n.target {
            super::Target::Entity(e) => graph.entity_index(e).is_some(),
            super::Target::Relationship(r) => graph.rel_index(r).is_some(),
            super::Target::Query(q) => query_ids.contains(q.as_str()),
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
    check_query_extensions(project, &graph, &mut c);
    c.problems
}

/// Constants, aggregates and windows of every query: references resolve,
/// constants parse as their attribute's type, aggregates fit their
/// attribute, and an aggregate query reads nothing its summary lacks.
fn check_query_extensions(project: &Project, graph: &Graph, c: &mut Checker) {
    use super::AggregateFn;
    for (i, q) in project.queries.iter().enumerate() {
        if q.constants.is_empty() && q.aggregates.is_empty() && q.window.is_none() {
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
            if let Err(m) = crate::literal::constant(ty, &k.value) {
                let at = c.locate(&k.value);
                c.add(format!("{p}.value"), format!("{at}{m}"));
            }
            searched.push(r);
        }
        if q.aggregates.is_empty() {
            if q.window.is_some() {
                c.add(
                    format!("{path}.window"),
                    "a window groups aggregates: add aggregates, or search the time with a range",
                );
            }
            continue;
        }
        if !q.constants.is_empty() {
            c.add(
                format!("{path}.constants"),
                "an aggregate query counts per group: put the attribute in equality instead of a constant",
            );
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
            let numeric = ty.native().is_some_and(|n| n.is_numeric());
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

fn check_attributes(c: &mut Checker, path: &str, attrs: &[super::Attribute], udts: &HashSet<&str>) {
    let mut seen = HashSet::default();
    for (j, a) in attrs.iter().enumerate() {
        let ap = || format!("{path}.attributes[{j}]");
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
pub const MAX_SCHEMA_NAME: usize = 48;
/// Longest other name (entity, attribute, column, query id, reference…):
/// far beyond real models, short enough for any layout.
pub const MAX_NAME: usize = 128;

/// Every string that can become a CQL identifier or names one: entity
/// names and their short and plural forms, attributes and column
/// overrides, type fields, query ids and their references, decisions and
/// candidates. Free text (the project name, query texts, notes) may hold
/// anything: it is sanitized where it is shown.
fn check_names(project: &Project, c: &mut Checker) {
    use MAX_NAME as N;
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
    // References may name an attribute through relationships
    // (`Entity.attr via a, b`): longer, still bounded.
    const REF: usize = 4 * MAX_NAME;
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
    for (i, id) in project.workflow.entry.iter().enumerate() {
        c.ident(|| format!("workflow.entry[{i}]"), id, N);
    }
    for (i, t) in project.workflow.transitions.iter().enumerate() {
        c.ident(|| format!("workflow.transitions[{i}].from"), &t.from, N);
        c.ident(|| format!("workflow.transitions[{i}].to"), &t.to, N);
        for (k, f) in t.feeds.iter().enumerate() {
            c.ident(|| format!("workflow.transitions[{i}].feeds[{k}]"), f, REF);
        }
    }
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
    for (i, n) in project.notes.iter().enumerate() {
        let (super::Target::Entity(t)
        | super::Target::Relationship(t)
        | super::Target::Query(t)
        | super::Target::Table(t)) = &n.target;
        c.ident(|| format!("notes[{i}].target"), t, N);
    }
}

/// `unique` identifiers name attributes reachable from the entity; `encodes`
/// names another attribute of the same entity.
fn check_identifiers(c: &mut Checker, graph: &Graph, path: &str, e: usize) {
    let ent = graph.entity(e);
    for (j, ident) in ent.unique.iter().enumerate() {
        if ident.is_empty() {
            c.add(
                format!("{path}.unique[{j}]"),
                "an identifier needs at least one attribute",
            );
        }
        for (k, a) in ident.iter().enumerate() {
            if let Err(m) = graph.resolve(super::resolve::NodeId::Entity(e), a) {
                c.add(format!("{path}.unique[{j}][{k}]"), m);
            }
        }
    }
    for (j, a) in ent.attributes.iter().enumerate() {
        if let Some(target) = &a.encodes {
            if target == &a.name || !ent.attributes.iter().any(|x| &x.name == target) {
                c.add(
                    format!("{path}.attributes[{j}].encodes"),
                    format!(
                        "\"{target}\" is not another attribute of entity {}",
                        ent.name
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
