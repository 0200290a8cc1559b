//! Derivation: project → logical model. Pure and deterministic: one table
//! per access pattern by Chebotko's mapping rules, then the designer's
//! decisions, then names, sharing, SELECTs and write paths.

pub mod estimate;
mod naming_rules;
pub mod placement;
pub mod select;
pub mod serve;
pub mod share;
pub mod summary;
pub mod types;
pub mod writes;

use crate::derive::estimate::Estimator;
use crate::model::load::Problem;
use crate::model::name::Name;
use crate::model::resolve::{Edge, Graph, NodeId, Reached};
use crate::model::{CqlType, Decision, Dir, ExtraKind, Native, Period, Project, Query, Shared};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

pub use types::*;
pub use writes::{AttrWrites, WritePath};
pub(crate) use writes::{EarlierWrites, SameTable, TableWrites};

/// A table under construction, with column identities kept for matching.
#[derive(Clone)]
struct Draft {
    table: Table,
    /// The attribute each column holds, parallel to `table.columns`
    /// (shared with the assembled model's, see `Assembled::ids`).
    ids: Shared<Vec<Option<Reached>>>,
    root: NodeId,
    /// Pinned name, if any.
    pinned: Option<String>,
    /// Names for the table, best first (see [`naming_rules::table_names`]),
    /// as shared names: the one chosen becomes the table's name without a
    /// copy.
    names: Names,
    /// The building query's references, when all of them resolved.
    resolved: Option<std::sync::Arc<serve::Resolved>>,
    /// The designer keeps this table apart from identical ones.
    separate: bool,
    /// The hash of [`signature`], set by [`build_query`] (a build kept for
    /// the next edit is not hashed again). Sharing compares signatures
    /// whenever hashes meet, so a stale hash costs time, never a result.
    signature_hash: u64,
    /// The build's number, unique in the process (0 until [`build_query`]
    /// numbers it): copies of one build share it, so what sharing learnt
    /// about two builds holds for their copies in the next derivation.
    serial: u64,
}

pub fn derive(project: &Project) -> LogicalModel {
    derive_in(&Graph::new(project))
}

/// [`derive`] over an already built graph of the project.
pub(crate) fn derive_in(graph: &Graph) -> LogicalModel {
    let decisions = decisions_by_query(graph.project);
    let own = own_queries(graph.project, &decisions);
    let mut est = None;
    let built = own
        .iter()
        .map(|&(qi, q)| {
            build_query(
                graph,
                q,
                qi,
                decisions.get(q.id.as_str()).copied(),
                &mut est,
            )
        })
        .collect();
    assemble(
        graph,
        &decisions,
        &own,
        built,
        &|_: PlanInput| None,
        None,
        None,
    )
    .model
}

/// A draft's names, best first. Most tables take the first: the others
/// (by the query's order, by the one thing it returns) are made only for a
/// table whose first name another table already took.
#[derive(Clone)]
enum Names {
    /// Every name, made at the build (summaries, and tables whose query
    /// did not resolve in full: no [`Draft::resolved`] to make them from).
    All(std::sync::Arc<[Name]>),
    /// The first name; the others are made from the draft when needed.
    First(Name),
}

impl Names {
    fn first(&self) -> Option<&Name> {
        match self {
            Names::All(all) => all.first(),
            Names::First(first) => Some(first),
        }
    }
}

impl Draft {
    /// Every name the table may take, best first: [`Draft::names`], the
    /// ones not yet made made as the build would have made them.
    fn all_names(&self, graph: &Graph) -> std::sync::Arc<[Name]> {
        match (&self.names, &self.resolved) {
            (Names::All(all), _) => all.clone(),
            (Names::First(_), Some(r)) => {
                let searched: Vec<&Reached> = r.eq().iter().chain(r.constants()).collect();
                naming_rules::table_names(
                    graph,
                    self.root,
                    &searched,
                    r.range.as_ref(),
                    &self.table,
                )
                .into_iter()
                .map(Name::from)
                .collect()
            }
            (Names::First(first), None) => std::sync::Arc::from([first.clone()]),
        }
    }
}

#[cfg(test)]
fn eager_names_here() -> bool {
    tests::eager_names_here()
}

#[cfg(not(test))]
fn eager_names_here() -> bool {
    false
}

/// Each query's decision, by query id.
pub(crate) fn decisions_by_query(project: &Project) -> HashMap<&str, &Decision> {
    project
        .decisions
        .iter()
        .map(|d| (d.query.as_str(), d))
        .collect()
}

/// The queries that get a table of their own (no `served_by` decision),
/// with their index in the project.
pub(crate) fn own_queries<'p>(
    project: &'p Project,
    decisions: &HashMap<&str, &Decision>,
) -> Vec<(usize, &'p Query)> {
    project
        .queries
        .iter()
        .enumerate()
        .filter(|(_, q)| {
            decisions
                .get(q.id.as_str())
                .and_then(|d| d.served_by.as_ref())
                .is_none()
        })
        .map(|(i, q)| (i, &**q))
        .collect()
}

/// One query's own table before sharing and naming, with what its
/// derivation could not honour. It depends on the query, its index, its
/// decision and the project's schema and settings only (see
/// `analysis::incremental`, which reuses it across edits).
#[derive(Clone)]
pub(crate) struct Built {
    /// Shared: the incremental analysis keeps each build for the next
    /// edit while the derivation reads it; the derivation copies the
    /// table (and a draft it changes) only.
    draft: Option<Arc<Draft>>,
    problems: Vec<Problem>,
}

/// Step 1 of derivation for one query; `est` is a lazily made estimator
/// the caller may keep across queries of the same graph.
pub(crate) fn build_query<'g, 'p>(
    graph: &'g Graph<'p>,
    q: &Query,
    qi: usize,
    decision: Option<&Decision>,
    est: &mut Option<Estimator<'g, 'p>>,
) -> Built {
    static BUILDS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let mut problems = Vec::new();
    let draft = build(graph, q, qi, decision, est, &mut problems).map(|mut d| {
        d.signature_hash =
            std::hash::BuildHasher::hash_one(&rustc_hash::FxBuildHasher, signature(&d));
        d.serial = BUILDS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Arc::new(d)
    });
    Built { draft, problems }
}

/// What a query's plan depends on besides the query: the table serving it,
/// with its position and column identities.
pub(crate) struct PlanInput<'a> {
    pub query: &'a Query,
    /// The query's position in the project.
    pub index_in_project: usize,
    /// The table's position in the model.
    pub index: usize,
    pub table: &'a Shared<Table>,
    /// Shared with the draft: one kept from the last derivation compares
    /// equal without a look at its items.
    pub ids: &'a Shared<Vec<Option<Reached>>>,
    pub root: NodeId,
}

/// What the derivation of the project before an edit left: its tables
/// (a table that comes out the same is shared) and, while the entity and
/// relationship lists are the very same, its write paths to patch.
pub(crate) struct LastModel<'a> {
    pub tables: &'a [Shared<Table>],
    pub writes: Option<EarlierWrites<'a>>,
}

/// A derived model with the column identities and rows' node of each of
/// its tables (parallel to `model.tables`), which incremental analysis
/// compares to decide what to reuse.
pub(crate) struct Assembled {
    pub model: LogicalModel,
    /// Which tables answer which queries, by build, for the next
    /// derivation (see [`share::Answered`]).
    pub answered: share::Answered,
    pub ids: Vec<Shared<Vec<Option<Reached>>>>,
    pub roots: Vec<NodeId>,
    /// What each table added to the write paths, parallel to the tables.
    pub writes_by_table: Vec<TableWrites>,
}

/// Steps 2 on of derivation: sharing, `served_by`, names, plans and write
/// paths over the built drafts (`built` parallel to `own`). `reuse_plan`
/// may answer a query's plan from an earlier derivation; `None` plans it.
pub(crate) fn assemble(
    graph: &Graph,
    decisions: &HashMap<&str, &Decision>,
    own: &[(usize, &Query)],
    built: Vec<Built>,
    reuse_plan: &(dyn Fn(PlanInput) -> Option<Plan> + Sync),
    answered: Option<share::Answered>,
    last: Option<LastModel>,
) -> Assembled {
    let (last_tables, earlier_writes) = match last {
        Some(l) => (Some(l.tables), l.writes),
        None => (None, None),
    };
    let project = graph.project;
    let mut problems = Vec::new();
    let mut drafts: Vec<Arc<Draft>> = Vec::with_capacity(own.len());
    // Sized up front: growing maps of a thousand entries rehash often.
    let mut draft_of: HashMap<&str, usize> =
        HashMap::with_capacity_and_hasher(own.len(), rustc_hash::FxBuildHasher);
    // The position in the project of each draft's query.
    let mut query_at: Vec<usize> = Vec::with_capacity(own.len());
    for (
        (qi, q),
        Built {
            draft,
            problems: found,
        },
    ) in own.iter().zip(built)
    {
        problems.extend(found);
        if let Some(d) = draft {
            draft_of.insert(q.id.as_str(), drafts.len());
            drafts.push(d);
            query_at.push(*qi);
        }
    }

    // Each query's own draft (sharing then points some at other drafts):
    // a copy of the table, not a second one made key by key.
    let own_draft = draft_of.clone();

    let Settled {
        kept,
        names,
        joined,
        answered,
    } = share_and_name(
        graph,
        decisions,
        &mut drafts,
        &query_at,
        &mut draft_of,
        &mut problems,
        answered,
    );
    // The write paths' frame (one per entity and relationship, with their
    // attributes); not needed when the last derivation's paths are patched.
    let frame = earlier_writes.is_none().then(|| writes::frame(graph, None));

    let (tables, index_of) = settle_tables(&mut drafts, &kept, joined, names, last_tables);

    // 5. Plans: the SELECT that answers each query from its table.
    let queries: Vec<(usize, &Query)> = project.queries.iter().map(|q| &**q).enumerate().collect();
    let ids_by_table: Vec<&Shared<Vec<Option<Reached>>>> =
        kept.iter().map(|&i| &drafts[i].ids).collect();
    let roots: Vec<NodeId> = kept.iter().map(|&i| drafts[i].root).collect();
    let (writes, writes_by_table) =
        writes::write_paths(graph, frame, earlier_writes, &tables, &ids_by_table, &roots);
    let plans = plans_of(
        graph, &queries, &drafts, &kept, &tables, &draft_of, &index_of, &own_draft, reuse_plan,
    );
    #[cfg(test)]
    {
        let ids: Vec<&[Option<Reached>]> = ids_by_table.iter().map(|i| i.as_slice()).collect();
        writes::tests::assert_matches_reference(graph, &tables, &ids, &roots, &writes);
    }
    drop(ids_by_table);
    let ids = kept
        .iter()
        .map(|&i| match Arc::get_mut(&mut drafts[i]) {
            Some(d) => std::mem::take(&mut d.ids),
            None => drafts[i].ids.clone(),
        })
        .collect();
    Assembled {
        model: LogicalModel {
            tables,
            plans,
            writes,
            problems,
        },
        answered,
        ids,
        roots,
        writes_by_table,
    }
}

/// What steps 2 to 4 leave: the drafts whose tables stay (by draft
/// position), what their tables gain and are named, and the sharing
/// answers for the next derivation.
struct Settled {
    kept: Vec<usize>,
    /// By draft position: the final name of each kept draft's table.
    names: Vec<Option<Name>>,
    /// By draft position: the queries each kept draft's table gains.
    joined: Vec<Vec<Name>>,
    answered: share::Answered,
}

/// Steps 2 to 4 of derivation: identical tables shared, tables that answer
/// other queries hosting them, the designer's merges, names.
fn share_and_name<'a>(
    graph: &Graph<'a>,
    decisions: &HashMap<&str, &Decision>,
    drafts: &mut [Arc<Draft>],
    query_at: &[usize],
    draft_of: &mut HashMap<&'a str, usize>,
    problems: &mut Vec<Problem>,
    answered: Option<share::Answered>,
) -> Settled {
    let project = graph.project;
    // 2. Queries that need exactly the same table share it.
    let mut merged_into: HashMap<usize, usize> = HashMap::default();
    {
        // Each draft joins the first one with its signature. Drafts are
        // looked up by their signature's hash, kept from the build; a draft
        // whose hash another signature holds first goes by its signature.
        let mut first_by_hash: HashMap<u64, usize> =
            HashMap::with_capacity_and_hasher(drafts.len(), rustc_hash::FxBuildHasher);
        let mut collided: HashMap<Signature, usize> = HashMap::default();
        for (i, d) in drafts.iter().enumerate() {
            if d.separate {
                continue;
            }
            let first = match first_by_hash.entry(d.signature_hash) {
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i);
                    continue;
                }
                std::collections::hash_map::Entry::Occupied(f) => *f.get(),
            };
            if signature(&drafts[first]) == signature(d) {
                merged_into.insert(i, first);
                continue;
            }
            match collided.entry(signature(d)) {
                std::collections::hash_map::Entry::Occupied(f) => {
                    merged_into.insert(i, *f.get());
                }
                std::collections::hash_map::Entry::Vacant(slot) => {
                    slot.insert(i);
                }
            }
        }
    }
    // The queries each draft's table gains beyond its own, in the order
    // they join: kept apart so that a draft kept for the next edit is not
    // copied to gain them.
    let mut joined: Vec<Vec<Name>> = vec![Vec::new(); drafts.len()];
    let mut shared: Vec<(usize, usize)> = merged_into.iter().map(|(&i, &f)| (i, f)).collect();
    shared.sort_unstable();
    for (i, first) in shared {
        let q = drafts[i].table.queries[0].clone();
        joined[first].push(q);
    }
    // 2b. A query another table already answers directly is served by it.
    let candidates: Vec<usize> = (0..drafts.len())
        .filter(|i| !merged_into.contains_key(i))
        .collect();
    let mut companions: HashMap<usize, Vec<usize>> = HashMap::default();
    for (&k, &first) in &merged_into {
        companions.entry(first).or_default().push(k);
    }
    let (hosts, answered) = share::hosts(
        project,
        drafts,
        query_at,
        &candidates,
        decisions,
        &companions,
        answered,
    );
    // A host is never a guest, so the drafts merged into a guest move to
    // its host in one step, once every guest is known.
    let mut host_of: HashMap<usize, usize> = HashMap::default();
    for (guest, host) in hosts {
        // The guest's table is dropped: its draft stays as built.
        let mut moved = drafts[guest].table.queries.clone();
        moved.append(&mut joined[guest]);
        joined[host].extend(moved);
        host_of.insert(guest, host);
    }
    debug_assert!(host_of.values().all(|h| !host_of.contains_key(h)));
    if !host_of.is_empty() {
        for target in merged_into.values_mut() {
            if let Some(&host) = host_of.get(target) {
                *target = host;
            }
        }
        merged_into.extend(host_of);
    }
    // (Hosts are never merged away: one step reaches the table.)
    for i in draft_of.values_mut() {
        if let Some(&first) = merged_into.get(i) {
            *i = first;
        }
    }

    // 3. Designer merges: a query served by another query's table brings its
    // returned attributes along. (Most projects have none: no pass then.)
    let merges = decisions.values().any(|d| d.served_by.is_some());
    for (qi, q) in project.queries.iter().enumerate().filter(|_| merges) {
        let Some(target) = decisions
            .get(q.id.as_str())
            .and_then(|d| d.served_by.as_deref())
        else {
            continue;
        };
        let mut at = target;
        let mut hops = 0;
        while let Some(next) = decisions.get(at).and_then(|d| d.served_by.as_deref()) {
            at = next;
            hops += 1;
            if hops > project.queries.len() {
                break;
            }
        }
        let Some(&di) = draft_of.get(at) else {
            problems.push(Problem {
                path: format!("decisions({}).served_by", q.id),
                message: format!("{target} has no table to serve {}", q.id),
            });
            continue;
        };
        // A summary holds aggregates, not rows: it serves aggregate queries
        // only, and only a summary serves them.
        let summary = drafts[di]
            .table
            .columns
            .iter()
            .any(|c| c.rule == Rule::Aggregate);
        if summary == q.aggregates.is_empty() {
            problems.push(Problem {
                path: format!("decisions({}).served_by", q.id),
                message: if summary {
                    format!("{target}'s table is a summary of aggregates: it cannot serve the rows of {}", q.id)
                } else {
                    format!("{} returns aggregates: only a summary table can serve it", q.id)
                },
            });
            continue;
        }
        let id = graph.query_name(qi);
        joined[di].push(id.clone());
        if graph.node(&q.rows) == Some(drafts[di].root) {
            let d = Arc::make_mut(&mut drafts[di]);
            // The names are made from the table as built, before it gains
            // the merged columns.
            if matches!(d.names, Names::First(_)) {
                d.names = Names::All(d.all_names(graph));
            }
            for r in &q.returns {
                if let Ok(reached) = graph.resolve(d.root, r) {
                    let reached = normalize(reached);
                    if !d.ids.iter().any(|x| x.as_ref() == Some(&reached)) {
                        let name = attr_column_name(graph, d.root, &reached, &d.table);
                        let source = attr_source(graph, d.root, &reached);
                        d.table.columns.push(Column {
                            name,
                            ty: graph.attr(reached.attr).ty.clone(),
                            role: Role::Regular,
                            rule: Rule::Merged,
                            why: None,
                            query: id.clone(),
                            source,
                        });
                        d.ids.push(Some(reached));
                    }
                }
            }
        }
        draft_of.insert(q.id.as_str(), di);
    }

    // 4. Names: pinned names win, derived names are made unique.
    let kept: Vec<usize> = (0..drafts.len())
        .filter(|i| !merged_into.contains_key(i))
        .collect();
    // Shared names: a build's names are made once and kept with it.
    let mut used: HashSet<Name> =
        HashSet::with_capacity_and_hasher(kept.len(), rustc_hash::FxBuildHasher);
    // By draft position.
    let mut final_name: Vec<Option<Name>> = vec![None; drafts.len()];
    for &i in &kept {
        if let Some(p) = &drafts[i].pinned {
            let mut name = Name::from(p.as_str());
            if used.contains(&name) {
                problems.push(Problem {
                    path: format!("decisions({}).name", drafts[i].table.origin),
                    message: format!("table name \"{p}\" is pinned twice"),
                });
                name = disambiguate(&name, &drafts[i].table.origin, &used);
            }
            used.insert(name.clone());
            final_name[i] = Some(name);
        }
    }
    for &i in &kept {
        if final_name[i].is_some() {
            continue;
        }
        let d = &drafts[i];
        let mut name = match d.names.first() {
            Some(first) if !used.contains(first) => first.clone(),
            first => {
                let all = d.all_names(graph);
                match all.iter().find(|n| !used.contains(*n)) {
                    Some(free) => free.clone(),
                    None => first.cloned().unwrap_or_else(|| Name::from("table")),
                }
            }
        };
        if used.contains(&name) {
            name = disambiguate(&name, &drafts[i].table.origin, &used);
        }
        used.insert(name.clone());
        final_name[i] = Some(name);
    }

    Settled {
        kept,
        names: final_name,
        joined,
        answered,
    }
}

/// After steps 2 to 4 of derivation: the tables of the drafts kept (`kept`, by draft
/// position), each with the queries it gained (`joined`) and its name
/// (`names`), and each draft's table position. A table equal to the one
/// at its position in `last` (the last derivation's tables) is that one,
/// shared: an edit's re-derivation copies only the tables it changed.
fn settle_tables(
    drafts: &mut [Arc<Draft>],
    kept: &[usize],
    mut joined: Vec<Vec<Name>>,
    mut names: Vec<Option<Name>>,
    last: Option<&[Shared<Table>]>,
) -> (Vec<Shared<Table>>, Vec<Option<usize>>) {
    let mut index_of: Vec<Option<usize>> = vec![None; drafts.len()];
    let mut tables: Vec<Shared<Table>> = Vec::with_capacity(kept.len());
    for &i in kept {
        let name = names[i].take().unwrap_or_default();
        let at = tables.len();
        index_of[i] = Some(at);
        if let Some(same) = last
            .and_then(|l| l.get(at))
            .filter(|l| is_settled(l, &drafts[i].table, &joined[i], &name))
        {
            tables.push(same.clone());
            continue;
        }
        // A draft kept for the next edit stays as built: its table is
        // copied (its columns and queries shared).
        let mut t = match Arc::get_mut(&mut drafts[i]) {
            Some(d) => std::mem::take(&mut d.table),
            None => drafts[i].table.clone(),
        };
        // (Asked first: a write to the shared list copies it.)
        if !joined[i].is_empty() {
            t.queries.append(&mut joined[i]);
        }
        t.name = name;
        tables.push(Shared::new(t));
    }
    (tables, index_of)
}

/// Whether `settled` is `built` with the queries `joined` added and named
/// `name`: every field compared (the destructuring names them all, so a
/// new field is a compile-time question here).
fn is_settled(settled: &Table, built: &Table, joined: &[Name], name: &Name) -> bool {
    let Table {
        name: settled_name,
        rows,
        queries,
        columns,
        indexes,
        ttl_seconds,
        dropped,
        candidate,
        origin,
        collected,
    } = settled;
    settled_name == name
        && queries.len() == built.queries.len() + joined.len()
        && queries.iter().eq(built.queries.iter().chain(joined))
        && *columns == built.columns
        && *rows == built.rows
        && *origin == built.origin
        && *ttl_seconds == built.ttl_seconds
        && *candidate == built.candidate
        && *indexes == built.indexes
        && *dropped == built.dropped
        && *collected == built.collected
}

/// Step 5: the SELECT that answers each query from its table.
#[allow(clippy::too_many_arguments)]
fn plans_of(
    graph: &Graph,
    queries: &[(usize, &Query)],
    drafts: &[Arc<Draft>],
    kept: &[usize],
    tables: &[Shared<Table>],
    draft_of: &HashMap<&str, usize>,
    index_of: &[Option<usize>],
    own_draft: &HashMap<&str, usize>,
    reuse_plan: &(dyn Fn(PlanInput) -> Option<Plan> + Sync),
) -> Vec<Plan> {
    queries
        .iter()
        .map(|&(qi, q)| {
            let table = draft_of
                .get(q.id.as_str())
                .and_then(|&i| index_of.get(i).copied().flatten());
            match table {
                Some(ti) => {
                    let draft = &drafts[kept[ti]];
                    let input = PlanInput {
                        query: q,
                        index_in_project: qi,
                        index: ti,
                        table: &tables[ti],
                        ids: &draft.ids,
                        root: draft.root,
                    };
                    if let Some(plan) = reuse_plan(input) {
                        return plan;
                    }
                    let resolved = own_draft
                        .get(q.id.as_str())
                        .and_then(|&i| drafts[i].resolved.as_deref());
                    serve::plan(
                        graph,
                        q,
                        graph.query_name(qi),
                        resolved,
                        serve::Served {
                            table: &tables[ti],
                            index: ti,
                            ids: &draft.ids,
                            root: draft.root,
                        },
                    )
                }
                None => Plan {
                    query: graph.query_name(qi),
                    table: None,
                    select: Select::default(),
                    access: Access::Impossible("no table serves this query".into()),
                    computed: vec![],
                },
            }
        })
        .collect()
}

fn disambiguate(name: &str, origin: &str, used: &HashSet<Name>) -> Name {
    let suffix = crate::model::naming::snake_case(origin);
    let mut candidate = format!("{name}_{suffix}");
    let mut n = 2;
    while used.contains(candidate.as_str()) {
        candidate = format!("{name}_{suffix}_{n}");
        n += 1;
    }
    candidate.into()
}

/// Each of a query's references `texts` resolved by `resolve`, the ones
/// that fail left out (`path(j)` names the j-th in its problem). Sized by
/// the query's list: a `filter_map` collect would grow it by doubling, and
/// the lists are kept with each build.
fn resolve_each<'t, R>(
    texts: impl ExactSizeIterator<Item = &'t str>,
    path: &dyn Fn(usize) -> String,
    resolve: &mut R,
) -> Vec<Reached>
where
    R: FnMut(&dyn Fn() -> String, &str) -> Option<Reached>,
{
    let mut out = Vec::with_capacity(texts.len());
    out.extend(
        texts
            .enumerate()
            .filter_map(|(j, text)| resolve(&|| path(j), text)),
    );
    out
}

/// Removes "into a relationship and back out at the same end" detours, so
/// equal attributes get equal paths. [`Graph::resolve`] and
/// [`Graph::key_at`] already return paths normalized this way and more.
pub fn normalize(mut r: Reached) -> Reached {
    // In place: it runs for every attribute a query names.
    crate::model::resolve::cancel_steps(
        &mut r.path,
        |before, e| matches!((before, e), (Edge::Enter(r0, end0), Edge::Leave(r1, end1)) if r0 == r1 && end0 == end1),
    );
    r
}

fn column_name(graph: &Graph, root: NodeId, r: &Reached) -> Name {
    let own = r.path.is_empty() && r.attr.node() == root;
    graph.column_base_name(r.attr, own)
}

/// The column name of an attribute in `table`: its base name, else named
/// by the role of the relationship it is reached through
/// (`work_address_city` beside `address_city`), else numbered.
fn attr_column_name(graph: &Graph, root: NodeId, r: &Reached, table: &Table) -> Name {
    let base = column_name(graph, root, r);
    if table.column(&base).is_none() {
        return base;
    }
    let role = r.path.iter().rev().find_map(|e| match e {
        Edge::Enter(x, _) => Some(crate::model::naming::snake_case(&graph.rel(*x).name)),
        Edge::Leave(..) => None,
    });
    if let Some(role) = role {
        let attr = &graph.attr(r.attr).name;
        let named = if attr.starts_with(&format!("{role}_")) {
            attr.clone()
        } else {
            format!("{role}_{attr}")
        };
        if table.column(&named).is_none() {
            return named.into();
        }
    }
    unique_column_name(table, base)
}

fn unique_column_name(table: &Table, base: Name) -> Name {
    if table.column(&base).is_none() {
        return base;
    }
    let mut n = 2;
    loop {
        let c = format!("{base}_{n}");
        if table.column(&c).is_none() {
            return c.into();
        }
        n += 1;
    }
}

/// Where the value of `column`, holding `r`, comes from.
fn attr_source(graph: &Graph, root: NodeId, r: &Reached) -> Source {
    let attribute = Name::from(format!(
        "{}.{}",
        graph.node_shared_name(r.attr.node()),
        graph.attr(r.attr).name
    ));
    let flow = if r.path.is_empty() && r.attr.node() == root {
        Flow::Own
    } else if graph.path_is_many(&r.path) {
        Flow::PushUp
    } else if r.attr.node() == root {
        Flow::Own
    } else {
        Flow::PushDown
    };
    Source::Attr {
        reached: r.clone(),
        attribute,
        flow,
    }
}

/// The attribute that carries `r`'s value (a timeuuid that `encodes` a
/// creation time), else `r`: ordering by the time clusters by the timeuuid
/// alone.
fn encoded_by(graph: &Graph, r: Reached) -> Reached {
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

/// Builds the table of one query from the mapping rules and its decision;
/// `est` is made on first use (only equality placement needs it).
fn build<'g, 'p>(
    graph: &'g Graph<'p>,
    q: &Query,
    qi: usize,
    decision: Option<&Decision>,
    est: &mut Option<Estimator<'g, 'p>>,
    problems: &mut Vec<Problem>,
) -> Option<Draft> {
    let root = graph.node(&q.rows)?;
    // The problem path is built only when resolution fails: most succeed.
    let mut resolve = |path: &dyn Fn() -> String, text: &str| match graph.resolve(root, text) {
        Ok(r) => Some(normalize(r)),
        Err(m) => {
            problems.push(Problem {
                path: path(),
                message: m,
            });
            None
        }
    };
    let equality = resolve_each(
        q.equality.iter().map(String::as_str),
        &|j| format!("queries[{qi}].equality[{j}]"),
        &mut resolve,
    );
    let range = q
        .range
        .as_ref()
        .and_then(|r| resolve(&|| format!("queries[{qi}].range.attr"), &r.attr));
    // Sized by the query's list, as in `resolve_each`.
    let mut order: Vec<(Reached, Dir)> = Vec::with_capacity(q.order.len());
    order.extend(q.order.iter().enumerate().filter_map(|(j, o)| {
        resolve(&|| format!("queries[{qi}].order[{j}].attr"), &o.attr)
            .map(|r| (encoded_by(graph, r), o.dir))
    }));
    let returns = resolve_each(
        q.returns.iter().map(String::as_str),
        &|j| format!("queries[{qi}].returns[{j}]"),
        &mut resolve,
    );
    let constants = resolve_each(
        q.constants.iter().map(|k| k.attr.as_str()),
        &|j| format!("queries[{qi}].constants[{j}].attr"),
        &mut resolve,
    );
    if !q.aggregates.is_empty() {
        let window = q.window.as_ref().and_then(|w| {
            resolve(&|| format!("queries[{qi}].window.attr"), &w.attr).map(|r| (r, w.period))
        });
        let s = summary::Summary {
            equality: &equality,
            window,
            range: range.as_ref(),
            order: &order,
        };
        return Some(summary::build(
            graph,
            q,
            graph.query_name(qi),
            root,
            s,
            decision,
            problems,
        ));
    }

    // MR5 (what still tells the rows apart, and nothing the key so far
    // already determines) is decided before any column is made, so that
    // the column list is made at its final size: tables are kept, and a
    // list grown by doubling, then reordered key-first, was copied twice.
    let mut key_so_far: Vec<Reached> =
        Vec::with_capacity(equality.len() + constants.len() + 1 + order.len());
    for r in equality
        .iter()
        .chain(&constants)
        .chain(&range)
        .chain(order.iter().map(|(r, _)| r))
    {
        if !key_so_far.contains(r) {
            key_so_far.push(r.clone());
        }
    }
    let present: Vec<&Reached> = key_so_far.iter().chain(&returns).collect();
    let appended: Vec<Reached> = graph
        .row_key(root, &key_so_far, &present)
        .into_iter()
        .map(normalize)
        .collect();
    // Counted without a list: what is neither in the key so far nor met
    // earlier in the same chain.
    let later = appended
        .iter()
        .chain(&returns)
        .enumerate()
        .filter(|&(i, r)| {
            !key_so_far.contains(r) && !appended.iter().chain(&returns).take(i).any(|x| x == r)
        })
        .count();
    let size = key_so_far.len() + later;

    let mut t = Table::for_query(q, graph.query_name(qi), Vec::with_capacity(size));
    let mut ids: Vec<Option<Reached>> = Vec::with_capacity(size);
    let add =
        |t: &mut Table, ids: &mut Vec<Option<Reached>>, r: &Reached, role: Role, rule: Rule| {
            if ids.iter().any(|x| x.as_ref() == Some(r)) {
                return false;
            }
            let name = attr_column_name(graph, root, r, t);
            let query = t.origin.clone();
            let source = attr_source(graph, root, r);
            t.columns.push(Column {
                name,
                ty: graph.attr(r.attr).ty.clone(),
                role,
                rule,
                why: None,
                query,
                source,
            });
            ids.push(Some(r.clone()));
            true
        };

    // MR2, MR3, MR4.
    for r in &equality {
        add(&mut t, &mut ids, r, Role::Partition, Rule::Equality);
    }
    // Constants follow the equality attributes; `placement` decides their
    // side like any filter's.
    for r in &constants {
        add(&mut t, &mut ids, r, Role::Partition, Rule::Constant);
    }
    if let Some(r) = &range {
        let dir = order
            .iter()
            .find(|(o, _)| o == r)
            .map(|(_, d)| *d)
            .unwrap_or_default();
        add(&mut t, &mut ids, r, Role::Clustering(dir), Rule::Range);
    }
    for (r, dir) in &order {
        add(&mut t, &mut ids, r, Role::Clustering(*dir), Rule::Order);
    }

    // MR5, decided above.
    debug_assert!(ids.iter().flatten().eq(key_so_far.iter()));
    let declared = if appended.is_empty() {
        vec![]
    } else {
        graph.grain(root, present.iter().map(|r| r.path.as_slice()))
    };
    for k in appended {
        let rule = if declared.contains(&k) {
            Rule::Key
        } else {
            Rule::Identifier
        };
        if let Some(i) = ids.iter().position(|x| x.as_ref() == Some(&k)) {
            t.columns[i].role = Role::Clustering(Dir::Asc);
            t.columns[i].rule = rule;
        } else {
            add(&mut t, &mut ids, &k, Role::Clustering(Dir::Asc), rule);
        }
    }
    for r in &returns {
        add(&mut t, &mut ids, r, Role::Regular, Rule::Returned);
    }

    // Equality attributes: the partition key or leading clustering
    // columns, by the estimates of the finished table.
    let searches = range.is_some() || !order.is_empty();
    let cx = placement::Context {
        graph,
        query: q,
        root,
        decision,
        searches,
    };
    let mut trial = |tab: &Table| {
        let e = est.get_or_insert_with(|| Estimator::new(graph));
        placement::finished_estimate(&cx, e, tab, &ids)
    };
    placement::place(&cx, &equality, &constants, &mut t, &ids, &mut trial);
    if let Some(d) = decision {
        // A forced placement must name one of the query's equality columns.
        for (field, list) in [
            ("equality_partition", &d.equality_partition),
            ("equality_clustering", &d.equality_clustering),
        ] {
            let searched = || {
                t.columns
                    .iter()
                    .filter(|c| matches!(c.rule, Rule::Equality | Rule::Filter | Rule::Constant))
                    .map(|c| c.name.as_str())
            };
            for name in list {
                if !searched().any(|c| c == name) {
                    let hint = crate::model::naming::did_you_mean(name, searched());
                    problems.push(Problem {
                        path: format!("decisions({}).{field}", q.id),
                        message: format!(
                            "\"{name}\" is no equality column of the table of {}{hint}",
                            q.id
                        ),
                    });
                }
            }
        }
    }
    let pinned = finish(
        graph, q, root, decision, searches, &mut t, &mut ids, problems,
    );
    let searched: Vec<&Reached> = equality.iter().chain(&constants).collect();
    let complete = equality.len() == q.equality.len()
        && constants.len() == q.constants.len()
        && range.is_some() == q.range.is_some()
        && order.len() == q.order.len()
        && returns.len() == q.returns.len();
    // With the query resolved in full, the names after the first are made
    // from it when needed (see `Names`).
    let names = if complete && !eager_names_here() {
        Names::First(
            naming_rules::first_table_name(graph, root, &searched, range.as_ref(), &t).into(),
        )
    } else {
        Names::All(
            naming_rules::table_names(graph, root, &searched, range.as_ref(), &t)
                .into_iter()
                .map(Name::from)
                .collect(),
        )
    };
    let resolved = complete.then(|| {
        let order = order.into_iter().map(|(r, _)| r).collect();
        std::sync::Arc::new(serve::Resolved::new(
            equality, constants, range, order, returns,
        ))
    });
    Some(Draft {
        table: t,
        ids: ids.into(),
        root,
        pinned,
        names,
        resolved,
        separate: decision.is_some_and(|d| d.separate),
        signature_hash: 0,
        serial: 0,
    })
}

/// Everything after the mapping rules: the constant partition of a query
/// that searches nothing, the designer's decision, key-first order, static
/// and counter columns, the TTL. Returns the pinned name.
#[allow(clippy::too_many_arguments)]
fn finish(
    graph: &Graph,
    q: &Query,
    root: NodeId,
    decision: Option<&Decision>,
    searches: bool,
    t: &mut Table,
    ids: &mut Vec<Option<Reached>>,
    problems: &mut Vec<Problem>,
) -> Option<String> {
    // A query that searches nothing but ranges or orders gets one constant
    // partition, so its SELECT stays legal; the review flags the hot spot.
    if !t.columns.iter().any(|c| c.role == Role::Partition) {
        if searches {
            let name = unique_column_name(t, "bucket".into());
            t.columns.insert(
                0,
                Column {
                    name,
                    ty: CqlType::Native(Native::Int),
                    role: Role::Partition,
                    rule: Rule::WholeTable,
                    why: None,
                    query: t.origin.clone(),
                    source: Source::Constant,
                },
            );
            ids.insert(0, None);
        } else {
            // A lookup of everything: each row its own partition.
            let mut first = true;
            for (c, id) in t.columns.iter_mut().zip(ids.iter()) {
                if matches!(c.rule, Rule::Key | Rule::Identifier) && id.is_some() {
                    c.role = if first {
                        Role::Partition
                    } else {
                        Role::Clustering(Dir::Asc)
                    };
                    first = false;
                }
            }
        }
    }

    let mut pinned = None;
    if let Some(d) = decision {
        apply_decision(graph, q, d, t, ids, problems);
        pinned.clone_from(&d.name);
    }
    order_key_first(t, ids);
    mark_static(graph, root, t, ids);
    counter_rules(t, ids);
    if let (NodeId::Entity(e), None) = (root, t.is_counter_table().then_some(())) {
        let ent = graph.entity(e);
        if ent.ttl {
            let days = ent
                .retention_days
                .unwrap_or(graph.project.thresholds.horizon_days);
            t.ttl_seconds = Some((days * 86_400.0).round().max(1.0) as u64);
        }
    }
    pinned
}

fn apply_decision(
    graph: &Graph,
    q: &Query,
    d: &Decision,
    t: &mut Table,
    ids: &mut Vec<Option<Reached>>,
    problems: &mut Vec<Problem>,
) {
    let path = format!("decisions({})", q.id);

    // Buckets and shards first, so a candidate key can name them.
    for x in &d.partition_extra {
        if t.column(&x.column).is_some() {
            problems.push(Problem {
                path: format!("{path}.partition_extra"),
                message: format!(
                    "column \"{}\" already exists in the table of {}",
                    x.column, q.id
                ),
            });
            continue;
        }
        let (ty, rule, source) = match &x.kind {
            ExtraKind::Bucket { source, period } => {
                let Some(src) = t.column(source) else {
                    problems.push(missing(&path, &q.id, "partition_extra.source", source, t));
                    continue;
                };
                if !src.ty.is_temporal() {
                    problems.push(Problem {
                        path: format!("{path}.partition_extra"),
                        message: format!("bucket source \"{source}\" is not a date or time column"),
                    });
                }
                let ty = if *period == Period::Hour {
                    Native::Timestamp
                } else {
                    Native::Date
                };
                (
                    CqlType::Native(ty),
                    Rule::Bucket,
                    Source::Bucket {
                        source: source.clone(),
                        period: *period,
                    },
                )
            }
            ExtraKind::Shard { count } => (
                CqlType::Native(Native::Int),
                Rule::Shard,
                Source::Shard { count: *count },
            ),
        };
        // A time bucket bounds the partition the constant one stood in for:
        // it replaces it rather than joining it.
        if matches!(x.kind, ExtraKind::Bucket { .. }) {
            if let Some(i) = t
                .columns
                .iter()
                .position(|c| c.rule == Rule::WholeTable && c.source == Source::Constant)
            {
                t.columns.remove(i);
                ids.remove(i);
            }
        }
        // After the last partition column, before clustering.
        let at = t
            .columns
            .iter()
            .rposition(|c| c.role == Role::Partition)
            .map_or(0, |i| i + 1);
        t.columns.insert(
            at,
            Column {
                name: x.column.as_str().into(),
                ty,
                role: Role::Partition,
                rule,
                why: None,
                query: t.origin.clone(),
                source,
            },
        );
        ids.insert(at, None);
    }

    // A hand-written candidate key replaces the derived one.
    if let Some(name) = &d.use_candidate {
        if let Some(c) = d.candidates.iter().find(|c| &c.name == name) {
            let mut ok = true;
            for col in c
                .partition
                .iter()
                .chain(c.clustering.iter().map(|o| &o.attr))
            {
                if t.column(col).is_none() {
                    problems.push(missing(&path, &q.id, "candidates", col, t));
                    ok = false;
                }
            }
            if ok {
                // A bucket or shard the candidate leaves out stays in the
                // partition key after the candidate's columns.
                for col in &mut t.columns {
                    if !matches!(col.rule, Rule::Bucket | Rule::Shard) {
                        col.role = Role::Regular;
                    }
                }
                for p in &c.partition {
                    if let Some(col) = t.columns.iter_mut().find(|x| &x.name == p) {
                        col.role = Role::Partition;
                        col.rule = Rule::Candidate;
                    }
                }
                for o in &c.clustering {
                    if let Some(col) = t.columns.iter_mut().find(|x| x.name == o.attr) {
                        if col.role == Role::Regular {
                            col.role = Role::Clustering(o.dir);
                            col.rule = Rule::Candidate;
                        }
                    }
                }
                // Key columns in the candidate's order.
                let mut order: Vec<usize> = Vec::new();
                for p in c
                    .partition
                    .iter()
                    .chain(c.clustering.iter().map(|o| &o.attr))
                {
                    if let Some(i) = t.columns.iter().position(|x| &x.name == p) {
                        if !order.contains(&i) {
                            order.push(i);
                        }
                    }
                }
                for i in 0..t.columns.len() {
                    if !order.contains(&i) {
                        order.push(i);
                    }
                }
                permute(t, ids, &order);
                t.candidate = Some(c.name.clone());
                for ix in &c.indexes {
                    if !t.indexes.contains(ix) {
                        t.indexes.push(ix.clone());
                    }
                }
            }
        }
    }

    for col in &d.promote {
        match t.columns.iter_mut().find(|c| &c.name == col) {
            Some(c) if matches!(c.role, Role::Clustering(_)) => c.role = Role::Partition,
            Some(_) => {}
            None => problems.push(missing(&path, &q.id, "promote", col, t)),
        }
    }

    for col in &d.flip {
        match t.columns.iter_mut().find(|c| &c.name == col) {
            Some(c) => {
                if let Role::Clustering(dir) = c.role {
                    c.role = Role::Clustering(dir.flip());
                }
            }
            None => problems.push(missing(&path, &q.id, "flip", col, t)),
        }
    }

    for col in &d.timeuuid {
        match t.columns.iter_mut().find(|c| &c.name == col) {
            Some(c) => {
                if c.ty.native() == Some(Native::Timestamp) {
                    c.ty = CqlType::Native(Native::Timeuuid);
                }
            }
            None => problems.push(missing(&path, &q.id, "timeuuid", col, t)),
        }
    }

    for col in &d.indexes {
        if t.column(col).is_none() {
            problems.push(missing(&path, &q.id, "indexes", col, t));
        } else if !t.indexes.contains(col) {
            t.indexes.push(col.clone());
        }
    }

    for rel in &d.collections {
        if graph.rel_index(rel).is_none() {
            problems.push(Problem {
                path: format!("{path}.collections"),
                message: format!("no relationship \"{rel}\""),
            });
        }
    }
    if !d.collections.is_empty() {
        push_up_relationships(graph, &d.collections, t, ids);
    }
}

fn missing(path: &str, query: &str, field: &str, col: &str, t: &Table) -> Problem {
    let hint = crate::model::naming::did_you_mean(col, t.columns.iter().map(|c| c.name.as_str()));
    Problem {
        path: format!("{path}.{field}"),
        message: format!("no column \"{col}\" in the table of {query}{hint}"),
    }
}

/// Children reached through the named relationships become one collection
/// column per row instead of clustering rows.
fn push_up_relationships(
    graph: &Graph,
    rels: &[String],
    t: &mut Table,
    ids: &mut Vec<Option<Reached>>,
) {
    let rel_ids: Vec<usize> = rels.iter().filter_map(|r| graph.rel_index(r)).collect();
    for r in rel_ids {
        let through = |reached: &Reached| {
            reached
                .path
                .iter()
                .any(|e| matches!(e, Edge::Enter(x, _) if *x == r) && graph.fanout(*e).many)
        };
        let members: Vec<usize> = (0..t.columns.len())
            .filter(|&i| {
                ids[i].as_ref().is_some_and(through) && t.columns[i].role != Role::Partition
            })
            .collect();
        if members.is_empty() {
            continue;
        }
        let (keys, values): (Vec<usize>, Vec<usize>) = members
            .iter()
            .partition(|&&i| matches!(t.columns[i].role, Role::Clustering(_)));
        let ty = collection_type(t, &keys, &values);
        // Named after the children it holds (`products`), else the
        // relationship.
        let child = members.iter().find_map(|&i| {
            let path = &ids[i].as_ref()?.path;
            path.iter().find_map(|e| match e {
                Edge::Enter(x, end) if *x == r => graph.end_entity(r, end.other()),
                _ => None,
            })
        });
        let name = match child {
            Some(e) => naming_rules::rows_plural(graph, NodeId::Entity(e)),
            None => crate::model::naming::snake_case(&graph.rel(r).name),
        };
        let source = Source::Collection {
            columns: members
                .iter()
                .map(|&i| t.columns[i].name.to_string())
                .collect(),
        };
        let keep: Vec<usize> = (0..t.columns.len())
            .filter(|i| !members.contains(i))
            .collect();
        let pushed: Vec<Reached> = members.iter().filter_map(|&i| ids[i].clone()).collect();
        permute(t, ids, &keep);
        let name = unique_column_name(t, name.into());
        for r in pushed {
            t.collected.push((r, name.clone()));
        }
        t.columns.push(Column {
            name,
            ty,
            role: Role::Regular,
            rule: Rule::Collection,
            why: None,
            query: t.origin.clone(),
            source,
        });
        ids.push(None);
    }
}

/// A set of one key, a map from key to value, or a map to a tuple.
fn collection_type(t: &Table, keys: &[usize], values: &[usize]) -> CqlType {
    let ty = |i: &usize| t.columns[*i].ty.frozen();
    let key = match keys {
        [] => None,
        [k] => Some(ty(k)),
        ks => Some(CqlType::Tuple(ks.iter().map(ty).collect())),
    };
    let value = match values {
        [] => None,
        [v] => Some(ty(v)),
        vs => Some(CqlType::Tuple(vs.iter().map(ty).collect())),
    };
    match (key, value) {
        (Some(k), None) => CqlType::Set(Box::new(k)),
        (Some(k), Some(v)) => CqlType::Map(Box::new(k), Box::new(v)),
        (None, Some(v)) => CqlType::List(Box::new(v)),
        (None, None) => CqlType::List(Box::new(CqlType::text())),
    }
}

/// Reorders columns (and their ids) to `order`; columns not named in
/// `order` are dropped.
fn permute(t: &mut Table, ids: &mut Vec<Option<Reached>>, order: &[usize]) {
    let mut cols: Vec<Option<Column>> = std::mem::take(&mut t.columns)
        .into_iter()
        .map(Some)
        .collect();
    let mut old_ids: Vec<Option<Option<Reached>>> =
        std::mem::take(ids).into_iter().map(Some).collect();
    // Sized up front: collected through `filter_map` they would grow by
    // doubling, and tables are kept (a five-column table held room for
    // eight).
    let mut columns = Vec::with_capacity(order.len());
    columns.extend(order.iter().filter_map(|&i| cols[i].take()));
    t.columns = columns.into();
    *ids = Vec::with_capacity(order.len());
    ids.extend(order.iter().filter_map(|&i| old_ids[i].take()));
}

/// Partition key columns first, then clustering, then the rest, each group
/// keeping its order.
fn order_key_first(t: &mut Table, ids: &mut Vec<Option<Reached>>) {
    let rank = |r: Role| match r {
        Role::Partition => 0,
        Role::Clustering(_) => 1,
        _ => 2,
    };
    // Most tables are built in order at their final size: nothing to do.
    // Any other is permuted even when in order: `permute` makes exact-size
    // lists, and keeping grown ones left 2 MiB more resident at 10,000
    // queries.
    let ranks = || t.columns.iter().map(|c| rank(c.role));
    if t.columns.len() == t.columns.capacity()
        && ids.len() == ids.capacity()
        && ranks().zip(ranks().skip(1)).all(|(a, b)| a <= b)
    {
        return;
    }
    let mut order: Vec<usize> = (0..t.columns.len()).collect();
    order.sort_by_key(|&i| rank(t.columns[i].role));
    permute(t, ids, &order);
}

/// A regular column is static when the partition key alone fixes its value:
/// some node on its path has its whole key in the partition key, and the
/// rest of the path is to-one.
fn mark_static(graph: &Graph, root: NodeId, t: &mut Table, ids: &[Option<Reached>]) {
    if !t
        .columns
        .iter()
        .any(|c| matches!(c.role, Role::Clustering(_)))
    {
        return;
    }
    let partition: HashSet<&Reached> = t
        .columns
        .iter()
        .zip(ids)
        .filter(|(c, _)| c.role == Role::Partition)
        .filter_map(|(_, id)| id.as_ref())
        .collect();
    let mut statics = Vec::new();
    for (i, (c, id)) in t.columns.iter().zip(ids).enumerate() {
        let Some(r) = id else { continue };
        if c.role != Role::Regular || c.ty.is_counter() {
            continue;
        }
        // Key paths are normalized already.
        let fixed = (0..=r.path.len()).any(|k| {
            graph.key_at_all(root, &r.path[..k], |kk| partition.contains(&kk))
                && !graph.path_is_many(&r.path[k..])
        });
        if fixed {
            statics.push(i);
        }
    }
    for i in statics {
        t.columns[i].role = Role::Static;
    }
}

/// A counter table may hold only counters outside its key: other regular
/// columns are left out and listed, so the schema stays loadable.
fn counter_rules(t: &mut Table, ids: &mut Vec<Option<Reached>>) {
    if !t.is_counter_table() {
        return;
    }
    let mut keep = Vec::new();
    for (i, c) in t.columns.iter().enumerate() {
        if c.role.is_key() || c.ty.is_counter() {
            keep.push(i);
        } else {
            t.dropped.push(c.name.to_string());
        }
    }
    permute(t, ids, &keep);
    for c in &mut t.columns {
        if c.role == Role::Static {
            c.role = Role::Regular;
        }
    }
    t.indexes.retain(|i| keep_name(&t.columns, i));
}

fn keep_name(cols: &[Column], name: &str) -> bool {
    cols.iter().any(|c| c.name == name)
}

/// Tables are identical when they hold the same rows with the same columns
/// in the same roles.
type Signature<'a> = (
    &'a str,
    Option<&'a str>,
    &'a [String],
    Option<u64>,
    Vec<(&'a str, &'a CqlType, Role)>,
);

fn signature(d: &Draft) -> Signature<'_> {
    let t = &d.table;
    (
        t.rows.as_str(),
        d.pinned.as_deref(),
        t.indexes.as_slice(),
        t.ttl_seconds,
        t.columns
            .iter()
            .map(|c| (c.name.as_str(), &c.ty, c.role))
            .collect(),
    )
}

#[cfg(test)]
mod identity_tests;
#[cfg(test)]
mod placement_tests;
#[cfg(test)]
mod tests;
