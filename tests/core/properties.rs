//! Properties of derivation over generated projects: the synthetic projects
//! of `model::synthetic` at proptest-chosen sizes and seeds, and small
//! projects generated here (entity trees with weak entities, 1:1, 1:n and
//! m:n relationships, relationship attributes, shared attribute names,
//! equality searches across relationships, ranges, DESC orders, limits).
//!
//! - every query is served by its table with a legal SELECT (Direct, no
//!   ALLOW FILTERING);
//! - every primary key holds the full key of the rows' entity;
//! - table names are unique valid identifiers, column names unique per table;
//! - derivation and the CQL script are deterministic, and a project survives
//!   a RON round trip with an equal derivation;
//! - independent oracles (tests/core/oracle): every SELECT obeys a separately
//!   written model of Cassandra's restriction rules and asks what its query
//!   asks (range, order, limit); every clustering column a query orders by
//!   runs in the query's direction on the table the query built (and in it
//!   or its exact reverse on a table it shares); and rows generated for the
//!   conceptual model never collide on a primary key (every entity a table
//!   reaches, not just the rows') nor disagree on a static column, and
//!   each column MR5 appends is needed (without it, rows of some world
//!   collide).

use crate::oracle;

use cqlmodel::derive::{derive, normalize, Access, LogicalModel, Role, Source};
use cqlmodel::model::naming::{is_plain_identifier, is_valid_schema_name};
use cqlmodel::model::resolve::{Edge, Graph, Reached};
use cqlmodel::model::{
    load, synthetic, Attribute, Cardinality, Count, CqlType, Dir, Entity, Native, Order, Period,
    Project, Query, Range, RangeOp, Relationship,
};
use oracle::{cassandra, instances};
use proptest::prelude::*;
use std::collections::HashSet;

// ---- checks ----------------------------------------------------------------

fn check_served_directly(project: &Project, model: &LogicalModel) -> Result<(), TestCaseError> {
    prop_assert!(model.problems.is_empty(), "problems: {:?}", model.problems);
    prop_assert_eq!(model.plans.len(), project.queries.len());
    for (q, plan) in project.queries.iter().zip(&model.plans) {
        prop_assert_eq!(&plan.query, &q.id);
        prop_assert!(plan.table.is_some(), "{} has no table", q.id);
        prop_assert_eq!(
            &plan.access,
            &Access::Direct,
            "{} ({:?}): {}",
            q.id,
            q,
            plan.select
        );
        prop_assert!(plan.select.starts_with("SELECT "), "{}", plan.select);
        prop_assert!(!plan.select.contains("ALLOW FILTERING"), "{}", plan.select);
    }
    Ok(())
}

fn check_keys_hold_the_rows_key(
    project: &Project,
    model: &LogicalModel,
) -> Result<(), TestCaseError> {
    let graph = Graph::new(project);
    for t in &model.tables {
        let root = graph.node(&t.rows);
        prop_assert!(root.is_some(), "{}: rows {} unknown", t.name, t.rows);
        let key_cols: HashSet<Reached> = t
            .columns
            .iter()
            .filter(|c| c.role.is_key())
            .filter_map(|c| match &c.source {
                Source::Attr { reached, .. } => Some(normalize(reached.clone())),
                _ => None,
            })
            .collect();
        // A key attribute the other key columns determine (the rows' 1:1
        // partner's key is in the key) is left out: keys are minimal.
        let key_vec: Vec<Reached> = key_cols.iter().cloned().collect();
        let root = root.expect("checked");
        for k in graph.node_key(root) {
            let k = normalize(k);
            prop_assert!(
                key_cols.contains(&k) || graph.determined(root, &key_vec, &k),
                "{}: the key of {} lacks {}",
                t.name,
                t.rows,
                graph.attr(k.attr).name
            );
        }
    }
    Ok(())
}

/// A path without detours that come back to the same instance: into a
/// relationship and straight back out at the same end, or out to an entity
/// and straight back in at the same end when that end is to-one (a weak
/// entity's key reached from its owner walks back to the owner).
fn canonical(graph: &Graph, path: &[Edge]) -> Vec<Edge> {
    let mut out: Vec<Edge> = Vec::with_capacity(path.len());
    for &e in path {
        let detour = match (out.last(), e) {
            (Some(Edge::Enter(r0, a0)), Edge::Leave(r1, a1)) => *r0 == r1 && *a0 == a1,
            (Some(Edge::Leave(r0, a0)), Edge::Enter(r1, a1)) => {
                *r0 == r1 && *a0 == a1 && !graph.fanout(e).many
            }
            _ => false,
        };
        if detour {
            out.pop();
        } else {
            out.push(e);
        }
    }
    out
}

/// No two columns of a table hold the same attribute of the same instance.
fn check_no_redundant_columns(
    project: &Project,
    model: &LogicalModel,
) -> Result<(), TestCaseError> {
    let graph = Graph::new(project);
    for t in &model.tables {
        let mut seen: Vec<(Reached, &str)> = Vec::new();
        for c in &t.columns {
            let Source::Attr { reached, .. } = &c.source else {
                continue;
            };
            let canon = Reached {
                attr: reached.attr,
                path: canonical(&graph, &reached.path),
            };
            if let Some((_, other)) = seen.iter().find(|(r, _)| *r == canon) {
                return Err(TestCaseError::fail(format!(
                    "{}: columns {other} and {} hold the same attribute",
                    t.name, c.name
                )));
            }
            seen.push((canon, &c.name));
        }
    }
    Ok(())
}

fn check_names(model: &LogicalModel) -> Result<(), TestCaseError> {
    let mut tables = HashSet::new();
    for t in &model.tables {
        prop_assert!(tables.insert(t.name.as_str()), "table {} twice", t.name);
        prop_assert!(is_valid_schema_name(&t.name), "table name {:?}", t.name);
        prop_assert!(is_plain_identifier(&t.name), "table name {:?}", t.name);
        let mut cols = HashSet::new();
        for c in &t.columns {
            prop_assert!(!c.name.is_empty(), "{}: empty column name", t.name);
            prop_assert!(
                cols.insert(c.name.as_str()),
                "{}: column {} twice",
                t.name,
                c.name
            );
        }
        prop_assert!(
            t.partition_key().count() > 0,
            "{}: no partition key",
            t.name
        );
    }
    Ok(())
}

fn check_deterministic(project: &Project, model: &LogicalModel) -> Result<(), TestCaseError> {
    let again = derive(project);
    prop_assert!(&again == model, "derive is not deterministic");
    let script = cqlmodel::output::cql::script(project, model);
    prop_assert_eq!(&cqlmodel::output::cql::script(project, &again), &script);

    let text = load::to_string(project);
    let back = match load::from_str(&text) {
        Ok(p) => p,
        Err(e) => return Err(TestCaseError::fail(format!("round trip: {e}\n{text}"))),
    };
    prop_assert!(&back == project, "the project changed in a RON round trip");
    prop_assert!(
        &derive(&back) == model,
        "the derivation changed in a RON round trip"
    );
    prop_assert_eq!(load::to_string(&back), text);
    Ok(())
}

/// The SELECT of every query, judged by the restriction oracle, and the
/// order a query asks for, found on the table's clustering columns.
fn check_selects_by_oracle(project: &Project, model: &LogicalModel) -> Result<(), TestCaseError> {
    for (q, plan) in project.queries.iter().zip(&model.plans) {
        let Some(ti) = plan.table else {
            return Err(TestCaseError::fail(format!("{} has no table", q.id)));
        };
        let t = &model.tables[ti];
        let s = cassandra::parse(&plan.select)
            .map_err(|e| TestCaseError::fail(format!("{}: {e}: {}", q.id, plan.select)))?;
        if let Err(why) = cassandra::judge(t, &s) {
            return Err(TestCaseError::fail(format!(
                "{}: Cassandra refuses {} on {}: {why}\n{}",
                q.id,
                plan.select,
                t.name,
                describe(t)
            )));
        }
        prop_assert_eq!(
            s.has_range(),
            q.range.is_some(),
            "{}: {}",
            q.id,
            plan.select
        );
        prop_assert_eq!(s.limit, q.limit.map(u64::from), "{}: {}", q.id, plan.select);
        let asked: Vec<Dir> = q.order.iter().map(|o| o.dir).collect();
        let given: Vec<Dir> = s.order.iter().map(|(_, d)| *d).collect();
        prop_assert_eq!(&given, &asked, "{}: {}", q.id, plan.select);
        check_directions(q, t, &s)?;
    }
    Ok(())
}

/// Each clustering column a query orders by runs in the asked direction on
/// the table that query built; on a table it shares, all of them run in
/// the asked direction or all against it.
fn check_directions(
    q: &Query,
    t: &cqlmodel::derive::Table,
    s: &cassandra::Select,
) -> Result<(), TestCaseError> {
    let mut agree = Vec::new();
    for (col, dir) in &s.order {
        match t.column(col).map(|c| c.role) {
            Some(Role::Clustering(d)) => agree.push(d == *dir),
            other => {
                return Err(TestCaseError::fail(format!(
                    "{}: ORDER BY {col} is {other:?} in {}",
                    q.id, t.name
                )))
            }
        }
    }
    if t.origin == q.id {
        prop_assert!(
            agree.iter().all(|a| *a),
            "{}: {} runs against the order its own query asks ({:?})\n{}",
            q.id,
            t.name,
            s.order,
            describe(t)
        );
    } else {
        prop_assert!(
            agree.iter().all(|a| *a) || agree.iter().all(|a| !*a),
            "{}: {} mixes directions for {:?}",
            q.id,
            t.name,
            s.order
        );
    }
    Ok(())
}

fn describe(t: &cqlmodel::derive::Table) -> String {
    t.columns
        .iter()
        .map(|c| format!("{} {}", c.role.marker(), c.name))
        .collect::<Vec<_>>()
        .join(", ")
}

fn check_unique_rows(
    project: &Project,
    model: &LogicalModel,
    seed: u64,
) -> Result<(), TestCaseError> {
    let world = instances::World::generate(project, seed, 3, 2);
    instances::check_unique(project, model, &world).map_err(TestCaseError::fail)
}

fn check_all(project: &Project) -> Result<(), TestCaseError> {
    let problems = load::validate(project);
    prop_assert!(problems.is_empty(), "invalid project: {:?}", problems);
    let model = derive(project);
    check_served_directly(project, &model)?;
    check_keys_hold_the_rows_key(project, &model)?;
    check_names(&model)?;
    check_deterministic(project, &model)?;
    Ok(())
}

/// 64 cases per property keeps the suite fast; failures are reported, not
/// persisted (the minimal case belongs in a unit test).
fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 64,
        max_shrink_iters: 4096,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

// ---- synthetic projects -----------------------------------------------------

proptest! {
    #![proptest_config(config())]

    #[test]
    fn synthetic_queries_are_served_directly(n in 1usize..60, m in 1usize..60, seed in any::<u64>()) {
        let p = synthetic::project(n, m, seed);
        check_served_directly(&p, &derive(&p))?;
    }

    #[test]
    fn synthetic_keys_hold_the_rows_key(n in 1usize..60, m in 1usize..60, seed in any::<u64>()) {
        let p = synthetic::project(n, m, seed);
        check_keys_hold_the_rows_key(&p, &derive(&p))?;
    }

    #[test]
    fn synthetic_tables_have_no_redundant_columns(n in 1usize..60, m in 1usize..60, seed in any::<u64>()) {
        let p = synthetic::project(n, m, seed);
        check_no_redundant_columns(&p, &derive(&p))?;
    }

    #[test]
    fn synthetic_names_are_unique_and_valid(n in 1usize..60, m in 1usize..60, seed in any::<u64>()) {
        let p = synthetic::project(n, m, seed);
        check_names(&derive(&p))?;
    }

    #[test]
    fn synthetic_selects_obey_the_restriction_oracle(n in 1usize..60, m in 1usize..60, seed in any::<u64>()) {
        let p = synthetic::project(n, m, seed);
        check_selects_by_oracle(&p, &derive(&p))?;
    }

    #[test]
    fn synthetic_rows_never_share_a_primary_key(n in 1usize..16, m in 1usize..30, seed in any::<u64>()) {
        let p = synthetic::project(n, m, seed);
        check_unique_rows(&p, &derive(&p), seed)?;
    }

    #[test]
    fn synthetic_derivation_is_deterministic(n in 1usize..40, m in 1usize..40, seed in any::<u64>()) {
        let p = synthetic::project(n, m, seed);
        check_deterministic(&p, &derive(&p))?;
    }
}

/// A large analysis builds its queries' tables, estimates its tables and
/// runs their rules on several threads: the model, the estimates and the
/// review are the ones the sequential steps give, item for item.
#[test]
fn the_analysis_split_over_threads_equals_the_sequential_derivation() {
    for seed in [3, 11] {
        let p = synthetic::project(900, 900, seed);
        let threaded = cqlmodel::analysis::analyze(&p);
        let sequential = derive(&p);
        // Enough tables for the estimates and table rules to be split too.
        assert!(
            sequential.tables.len() >= 600,
            "{}",
            sequential.tables.len()
        );
        assert_eq!(threaded.model.tables.len(), sequential.tables.len());
        for (a, b) in threaded.model.tables.iter().zip(&sequential.tables) {
            assert_eq!(a, b);
        }
        assert_eq!(*threaded.model, sequential);
        let estimates = cqlmodel::derive::estimate::estimate(&p, &sequential);
        assert_eq!(threaded.estimates, estimates);
        let review = cqlmodel::review::diagnose::diagnose(&p, &sequential, &estimates);
        assert_eq!(threaded.diagnostics.len(), review.len());
        for (a, b) in threaded.diagnostics.iter().zip(&review) {
            assert_eq!(a, b);
        }
    }
}

// ---- small generated projects ------------------------------------------------

const TYPES: [Native; 7] = [
    Native::Text,
    Native::Int,
    Native::Timestamp,
    Native::Date,
    Native::Uuid,
    Native::Bigint,
    Native::Boolean,
];
const KEY_TYPES: [Native; 4] = [Native::Uuid, Native::Text, Native::Int, Native::Timestamp];
/// Shared across entities, so column names collide and need prefixes.
const ATTR_NAMES: [&str; 6] = ["name", "value", "created", "status", "score", "id"];
const KEY_NAMES: [&str; 3] = ["id", "code", "seq"];

// One flag per generated feature of the entity.
#[allow(clippy::struct_excessive_bools)]
#[derive(Clone, Debug)]
struct EntitySpec {
    key_name: usize,
    key_ty: usize,
    attrs: Vec<(usize, usize)>,
    tags: bool,
    count: Option<u32>,
    parent: usize,
    weak: bool,
    cardinality: u8,
    per_day: bool,
    rel_attr: bool,
    ttl: Option<u16>,
}

#[derive(Clone, Debug)]
struct QuerySpec {
    rows: usize,
    rows_rel: bool,
    equality: Vec<(usize, usize)>,
    range: Option<(usize, u8)>,
    order: Vec<(usize, usize, bool)>,
    limit: Option<u32>,
    returns: Vec<(usize, usize)>,
}

fn entity_spec() -> impl Strategy<Value = EntitySpec> {
    (
        (0..KEY_NAMES.len(), 0..KEY_TYPES.len()),
        prop::collection::vec((0..ATTR_NAMES.len(), 0..TYPES.len()), 1..4),
        any::<bool>(),
        prop::option::of(10u32..100_000),
        (
            any::<prop::sample::Index>(),
            prop::bool::weighted(0.3),
            0u8..3,
        ),
        (prop::bool::weighted(0.2), any::<bool>()),
        prop::option::weighted(0.2, 1u16..400),
    )
        .prop_map(
            |(
                (key_name, key_ty),
                attrs,
                tags,
                count,
                (parent, weak, cardinality),
                (per_day, rel_attr),
                ttl,
            )| EntitySpec {
                key_name,
                key_ty,
                attrs,
                tags,
                count,
                parent: parent.index(usize::MAX),
                weak,
                cardinality,
                per_day,
                rel_attr,
                ttl,
            },
        )
}

fn query_spec() -> impl Strategy<Value = QuerySpec> {
    let pick = || (any::<prop::sample::Index>(), any::<prop::sample::Index>());
    (
        (any::<prop::sample::Index>(), prop::bool::weighted(0.15)),
        prop::collection::vec(pick(), 0..3),
        prop::option::of((any::<prop::sample::Index>(), 0u8..5)),
        prop::collection::vec(
            (
                any::<prop::sample::Index>(),
                any::<prop::sample::Index>(),
                any::<bool>(),
            ),
            0..3,
        ),
        prop::option::of(1u32..200),
        prop::collection::vec(pick(), 1..4),
    )
        .prop_map(
            |((rows, rows_rel), equality, range, order, limit, returns)| QuerySpec {
                rows: rows.index(usize::MAX),
                rows_rel,
                equality: equality
                    .iter()
                    .map(|(a, b)| (a.index(usize::MAX), b.index(usize::MAX)))
                    .collect(),
                range: range.map(|(i, op)| (i.index(usize::MAX), op)),
                order: order
                    .iter()
                    .map(|(a, b, d)| (a.index(usize::MAX), b.index(usize::MAX), *d))
                    .collect(),
                limit,
                returns: returns
                    .iter()
                    .map(|(a, b)| (a.index(usize::MAX), b.index(usize::MAX)))
                    .collect(),
            },
        )
}

/// A node a query can start from or reach: an entity or a relationship with
/// attributes, and its attributes (name, searchable).
struct Node {
    name: String,
    attrs: Vec<(String, bool)>,
}

fn build(entities: &[EntitySpec], queries: &[QuerySpec]) -> Project {
    let mut p = Project::empty("generated");
    for (i, s) in entities.iter().enumerate() {
        let weak = s.weak && i > 0;
        let key = KEY_NAMES[s.key_name].to_string();
        let mut attributes = vec![Attribute::new(&key, CqlType::Native(KEY_TYPES[s.key_ty]))];
        for &(n, t) in &s.attrs {
            let name = ATTR_NAMES[n];
            if attributes.iter().any(|a| a.name == name) {
                continue;
            }
            let mut a = Attribute::new(name, CqlType::Native(TYPES[t]));
            a.distinct = Some(50.0);
            attributes.push(a);
        }
        if s.tags {
            let mut a = Attribute::new("tags", CqlType::Set(Box::new(CqlType::text())));
            a.elements = Some(3.0);
            attributes.push(a);
        }
        p.entities.push(Entity {
            name: format!("E{i}"),
            short: None,
            plural: None,
            owner: weak.then(|| format!("r{i}")),
            owners: vec![],
            key: vec![key],
            unique: vec![],
            attributes,
            count: if weak { None } else { s.count.map(f64::from) },
            // Some stated counts are insert rates (so many a week).
            per: (!weak && s.count.is_some() && s.per_day && i % 2 == 0).then_some(Period::Week),
            retention_days: s.ttl.map(f64::from),
            retention_unit: None,
            ttl: s.ttl.is_some(),
            updates: None,
        });
        if i > 0 {
            let parent = s.parent % i;
            let cardinality = if weak {
                Cardinality::OneToMany
            } else {
                [
                    Cardinality::OneToMany,
                    Cardinality::ManyToMany,
                    Cardinality::OneToOne,
                ][s.cardinality as usize]
            };
            let many = cardinality != Cardinality::OneToOne;
            p.relationships.push(Relationship {
                name: format!("r{i}"),
                from: format!("E{parent}"),
                to: format!("E{i}"),
                cardinality,
                to_per_from: many.then_some(Count {
                    avg: f64::from(1 + (s.key_ty as u32 + 1) * 7),
                    max: Some(500.0),
                    per: s.per_day.then_some(Period::Day),
                }),
                from_per_to: (cardinality == Cardinality::ManyToMany).then_some(Count {
                    avg: 3.0,
                    max: None,
                    per: None,
                }),
                attributes: if cardinality == Cardinality::ManyToMany && s.rel_attr {
                    vec![Attribute::new("since", CqlType::Native(Native::Timestamp))]
                } else {
                    vec![]
                },
                written_by_job: false,
                updates: None,
            });
        }
    }

    let nodes: Vec<Node> = p
        .entities
        .iter()
        .map(|e| Node {
            name: e.name.clone(),
            attrs: e
                .attributes
                .iter()
                .map(|a| (a.name.clone(), !a.ty.is_collection()))
                .collect(),
        })
        .chain(
            p.relationships
                .iter()
                .filter(|r| !r.attributes.is_empty())
                .map(|r| Node {
                    name: r.name.clone(),
                    attrs: r
                        .attributes
                        .iter()
                        .map(|a| (a.name.clone(), true))
                        .collect(),
                }),
        )
        .collect();
    let mn: Vec<&Relationship> = p
        .relationships
        .iter()
        .filter(|r| r.cardinality == Cardinality::ManyToMany)
        .collect();

    let mut out = Vec::new();
    for (qi, s) in queries.iter().enumerate() {
        let (rows, root_node) = if s.rows_rel && !mn.is_empty() {
            let r = mn[s.rows % mn.len()];
            (r.name.clone(), nodes.iter().position(|n| n.name == r.name))
        } else {
            let e = s.rows % p.entities.len();
            (format!("E{e}"), Some(e))
        };
        let reference = |node: usize, attr: usize, searchable: bool| -> Option<String> {
            let n = &nodes[node % nodes.len()];
            let candidates: Vec<&String> = n
                .attrs
                .iter()
                .filter(|(_, s)| *s || !searchable)
                .map(|(a, _)| a)
                .collect();
            if candidates.is_empty() {
                return None;
            }
            let a = candidates[attr % candidates.len()];
            Some(if Some(node % nodes.len()) == root_node {
                a.clone()
            } else {
                format!("{}.{a}", n.name)
            })
        };
        let mut q = Query::new(
            &format!("Q{}", qi + 1),
            &format!("generated query {}", qi + 1),
            &rows,
        );
        for &(n, a) in &s.equality {
            if let Some(r) = reference(n, a, true) {
                if !q.equality.contains(&r) {
                    q.equality.push(r);
                }
            }
        }
        // A range on an attribute of the rows; an ordering then can only be
        // on that attribute (Cassandra orders within the ranged column).
        if let (Some((a, op)), Some(root)) = (s.range, root_node) {
            if let Some(r) = reference(root, a, true) {
                if !q.equality.contains(&r) {
                    q.range = Some(Range {
                        attr: r.clone(),
                        op: [
                            RangeOp::Between,
                            RangeOp::Lt,
                            RangeOp::Le,
                            RangeOp::Gt,
                            RangeOp::Ge,
                        ][op as usize],
                    });
                    if let Some(&(_, _, desc)) = s.order.first() {
                        q.order.push(Order {
                            attr: r,
                            dir: if desc { Dir::Desc } else { Dir::Asc },
                        });
                    }
                }
            }
        }
        if q.range.is_none() {
            for &(n, a, desc) in &s.order {
                if let Some(r) = reference(n, a, true) {
                    if !q.equality.contains(&r) && !q.order.iter().any(|o| o.attr == r) {
                        q.order.push(Order {
                            attr: r,
                            dir: if desc { Dir::Desc } else { Dir::Asc },
                        });
                    }
                }
            }
        }
        q.limit = s.limit;
        for &(n, a) in &s.returns {
            if let Some(r) = reference(n, a, false) {
                if !q.returns.contains(&r) {
                    q.returns.push(r);
                }
            }
        }
        if q.returns.is_empty() {
            q.returns
                .push(reference(root_node.unwrap_or(0), 0, false).expect("a key attribute"));
        }
        out.push(q);
    }
    p.queries = out.into();
    p
}

fn small_project() -> impl Strategy<Value = Project> {
    (
        prop::collection::vec(entity_spec(), 1..6),
        prop::collection::vec(query_spec(), 1..6),
    )
        .prop_map(|(e, q)| build(&e, &q))
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn generated_queries_are_served_directly(p in small_project()) {
        let problems = load::validate(&p);
        prop_assert!(problems.is_empty(), "invalid project: {:?}", problems);
        check_served_directly(&p, &derive(&p))?;
    }

    #[test]
    fn generated_keys_hold_the_rows_key(p in small_project()) {
        check_keys_hold_the_rows_key(&p, &derive(&p))?;
    }

    #[test]
    // A query on an owner that returns attributes of its weak entity must
    // not hold the owner's key twice (the weak key's path walks back to the
    // owner and is normalized away).
    fn generated_tables_have_no_redundant_columns(p in small_project()) {
        check_no_redundant_columns(&p, &derive(&p))?;
    }

    #[test]
    fn generated_selects_obey_the_restriction_oracle(p in small_project()) {
        check_selects_by_oracle(&p, &derive(&p))?;
    }

    #[test]
    fn generated_rows_never_share_a_primary_key(p in small_project(), seed in any::<u64>()) {
        check_unique_rows(&p, &derive(&p), seed)?;
    }

    /// Issue 39, rule 4, the other direction on generated projects: each
    /// column MR5 appends is needed; without it, two rows of one of 64
    /// small worlds share a primary key.
    #[test]
    fn generated_identifying_columns_are_each_needed(p in small_project()) {
        let m = derive(&p);
        for t in 0..m.tables.len() {
            let appended = |c: &cqlmodel::derive::Column| {
                matches!(c.rule, cqlmodel::derive::Rule::Key | cqlmodel::derive::Rule::Identifier)
            };
            instances::check_necessary(&p, &m, t, 0..64, (4, 2), appended)
                .map_err(|e| TestCaseError::fail(format!("{e}\nPROJECT\n{}\nEND", load::to_string(&p))))?;
        }
    }

    #[test]
    fn generated_names_are_unique_and_valid(p in small_project()) {
        check_names(&derive(&p))?;
    }

    #[test]
    fn generated_derivation_is_deterministic(p in small_project()) {
        check_all(&p)?;
    }
}

// ---- the oracles themselves ---------------------------------------------------

fn hotel() -> (Project, LogicalModel) {
    let p = load::from_str(cqlmodel::tui::SAMPLE).expect("the hotel sample");
    let m = derive(&p);
    (p, m)
}

/// The restriction oracle refuses what Cassandra refuses, on
/// `available_rooms_by_hotel_date` (K `hotel_id`, C↑ date, C↑ `room_number`).
#[test]
fn the_restriction_oracle_refuses_what_cassandra_refuses() {
    let (_, m) = hotel();
    let t = m.table_of("Q4").expect("Q4's table");
    let (k, c1, c2) = ("hotel_id", "date", "room_number");
    let keys: Vec<&str> = t
        .columns
        .iter()
        .filter(|c| c.role.is_key())
        .map(|c| c.name.as_str())
        .collect();
    assert_eq!(keys, [k, c1, c2], "the fixture's key");
    let judge = |where_: &str| {
        let text = format!("SELECT is_available FROM hotel.{} {where_};", t.name);
        let s = cassandra::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        cassandra::judge(t, &s)
    };
    for ok in [
        "",
        "WHERE hotel_id = ?",
        "WHERE hotel_id IN ?",
        "WHERE hotel_id = ? AND date >= ? AND date <= ?",
        "WHERE hotel_id = ? AND date = ? AND room_number > ?",
        "WHERE hotel_id = ? ORDER BY date DESC",
        "WHERE hotel_id = ? ORDER BY date DESC, room_number DESC",
        "WHERE hotel_id = ? AND date = ? ORDER BY room_number ASC",
        "WHERE hotel_id = ? AND date > ? ORDER BY date DESC LIMIT 5",
    ] {
        assert_eq!(judge(ok), Ok(()), "{ok}");
    }
    for bad in [
        "WHERE date = ?",
        "WHERE hotel_id > ?",
        "WHERE hotel_id = ? AND room_number = ?",
        "WHERE hotel_id = ? AND date > ? AND room_number = ?",
        "WHERE hotel_id = ? AND date > ? AND date > ?",
        "WHERE hotel_id = ? AND is_available = ?",
        "WHERE hotel_id = ? ORDER BY room_number ASC",
        "WHERE hotel_id = ? ORDER BY date ASC, room_number DESC",
        "WHERE hotel_id = ? ORDER BY room_number ASC, date ASC",
        "WHERE hotel_id = ? ORDER BY is_available ASC",
        "WHERE hotel_id IN ? ORDER BY date ASC",
        "ORDER BY date ASC",
        "WHERE hotel_id = ? ALLOW FILTERING",
        "WHERE hotel_id = ? LIMIT 0",
    ] {
        assert!(judge(bad).is_err(), "{bad} was accepted");
    }
    assert!(cassandra::parse("SELECT * FROM t WHERE a = ? AND").is_err());
    let quoted = cassandra::parse("SELECT \"it\"\"s\", Plain FROM ks.\"T\" WHERE \"A b\" = ?;")
        .expect("quoted names");
    assert_eq!(quoted.columns, ["it\"s", "plain"]);
    assert_eq!(quoted.table, "T");
    assert_eq!(quoted.conditions[0].0, "A b");
}

/// The direction check fails when the table a query built runs against the
/// order it asks for (the planted bug: range + DESC got an ascending table).
#[test]
fn the_direction_check_catches_a_table_against_its_query() {
    let (mut p, _) = hotel();
    let q4 = p.queries.iter_mut().find(|q| q.id == "Q4").expect("Q4");
    q4.order = vec![Order {
        attr: "date".into(),
        dir: Dir::Desc,
    }];
    let mut m = derive(&p);
    check_selects_by_oracle(&p, &m).expect("the derivation honours range + DESC");
    let ti = m.plans[3].table.expect("Q4's table");
    let date = m.tables[ti]
        .columns
        .iter_mut()
        .find(|c| c.name == "date")
        .expect("date");
    assert_eq!(date.role, Role::Clustering(Dir::Desc));
    date.role = Role::Clustering(Dir::Asc);
    assert!(check_selects_by_oracle(&p, &m).is_err());
}

/// The uniqueness oracle generates rows and catches a key that lacks an
/// entity's key, and a static column that is not fixed per partition.
#[test]
fn the_uniqueness_oracle_catches_a_short_key_and_a_wrong_static() {
    let (p, m) = hotel();
    let world = instances::World::generate(&p, 7, 3, 2);
    instances::check_unique(&p, &m, &world).expect("the sample's keys are unique");
    let ti = m.plans[4].table.expect("Q5's table"); // amenities_by_room
    let t = &m.tables[ti];
    assert!(
        world.rows(&p, t).len() > 3,
        "too few rows to judge: {}",
        world.rows(&p, t).len()
    );

    // amenity_name is what tells a room's amenities apart.
    let mut short = m.clone();
    let c = short.tables[ti]
        .columns
        .iter_mut()
        .find(|c| c.name == "amenity_name")
        .expect("amenity_name");
    c.role = Role::Regular;
    let err = instances::check_unique(&p, &short, &world).expect_err("a short key");
    assert!(err.contains("share the primary key"), "{err}");

    // An amenity's description differs from row to row of a room.
    let mut wrong = m.clone();
    let c = wrong.tables[ti]
        .columns
        .iter_mut()
        .find(|c| c.name == "description")
        .expect("description");
    c.role = Role::Static;
    // Random worlds: some room has two amenities with different texts.
    let err = (0..20)
        .find_map(|seed| {
            let w = instances::World::generate(&p, seed, 3, 2);
            instances::check_unique(&p, &wrong, &w).err()
        })
        .expect("a wrong static in some world");
    assert!(err.contains("static"), "{err}");
}

/// Issue 39, rule 4: rooms are unique by (hotel, number), a room's
/// reservations are numbered by confirmation within it, and one
/// reservation holds a room on a date (`unique` (hotel, room, date)).
/// "Reservations of a hotel on a date" needs the room number to tell them
/// apart; once it is there, hotel, date and room identify the
/// reservation, so the confirmation number is redundant, whether MR5 adds
/// the room number or the query orders by it (MR4).
const RESERVATIONS: &str = r#"Project(format: 1, name: "Hotels", keyspace: Keyspace(name: "h", replication: Simple(1)),
  entities: [
    Entity(name: "Hotel", key: ["hotel_id"], attributes: [Attribute(name: "hotel_id", type: "text")]),
    Entity(name: "Room", owner: Some("has_rooms"), key: ["room_number"], attributes: [
      Attribute(name: "room_number", type: "smallint"),
    ]),
    Entity(name: "Reservation", owner: Some("holds"), key: ["confirmation_number"],
      unique: [["Room.hotel_id", "Room.room_number", "start_date"]],
      attributes: [
        Attribute(name: "confirmation_number", type: "text"),
        Attribute(name: "start_date", type: "date"),
        Attribute(name: "end_date", type: "date"),
      ]),
  ],
  relationships: [
    Relationship(name: "has_rooms", from: "Hotel", to: "Room", cardinality: OneToMany),
    Relationship(name: "holds", from: "Room", to: "Reservation", cardinality: OneToMany),
  ],
  queries: [
    Query(id: "Q1", text: "Reservations of a hotel on a date", rows: "Reservation",
      equality: ["Room.hotel_id", "start_date"], returns: ["end_date"]),
    Query(id: "Q2", text: "Reservations of a hotel on a date by room", rows: "Reservation",
      equality: ["Room.hotel_id", "start_date"], order: [Order(attr: "Room.room_number", dir: Asc)],
      returns: ["end_date"]),
  ],
  decisions: [Decision(query: "Q2", separate: true)],
)"#;

#[test]
fn identifiers_stay_minimal_after_the_ordering_columns_are_placed() {
    let p = load::from_str(RESERVATIONS).expect("valid");
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    for q in ["Q1", "Q2"] {
        let t = m.table_of(q).expect("a table");
        assert_eq!(
            describe(t),
            "K hotel_id, K start_date, C↑ room_number,  end_date",
            "{q}"
        );
    }
    // Both directions, by brute force: rows never collide, and leaving
    // the room number out lets two reservations of a hotel on a date
    // collide in some world.
    for seed in 0..20 {
        let w = instances::World::generate(&p, seed, 3, 2);
        instances::check_unique(&p, &m, &w).expect("rows never collide");
    }
    for t in 0..m.tables.len() {
        instances::check_necessary(&p, &m, t, 0..20, (3, 2), |_| true)
            .expect("every clustering column");
    }
    // The oracle sees a redundant column: ordered by room and then by
    // confirmation number (MR4 keeps both), no world needs the latter.
    let text = RESERVATIONS.replace(
        r#"order: [Order(attr: "Room.room_number", dir: Asc)]"#,
        r#"order: [Order(attr: "Room.room_number", dir: Asc), Order(attr: "confirmation_number", dir: Asc)]"#,
    );
    let p = load::from_str(&text).expect("valid");
    let m = derive(&p);
    let t = m.plans[1].table.expect("Q2's table");
    assert_eq!(
        describe(&m.tables[t]),
        "K hotel_id, K start_date, C↑ room_number, C↑ confirmation_number,  end_date"
    );
    let err =
        instances::check_necessary(&p, &m, t, 0..20, (3, 2), |_| true).expect_err("redundant");
    assert!(err.contains("needs confirmation_number"), "{err}");
}
