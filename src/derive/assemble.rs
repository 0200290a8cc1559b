//! Steps 2 to 5 of derivation over every query's build: identical tables
//! shared, tables that answer other queries hosting them, the designer's
//! merges, names, then each query's plan. Plain functions over values:
//! what an edit may keep from the last run is decided in `analysis/`.

use super::columns::{attr_column_name, attr_source};
use super::draft::{signature, Built, Draft, Signature};
use super::types::{Access, Column, LogicalModel, Plan, Role, Rule, Select, Table};
use super::writes::WritePath;
use super::{serve, share};
use crate::model::load::Problem;
use crate::model::name::Name;
use crate::model::resolve::{normalize, Graph, NodeId, Reached};
use crate::model::{Decision, Query, Shared};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

/// Every query's table after sharing, the designer's merges and names,
/// with what planning a query reads ([`Assembly::plan`]).
pub(crate) struct Assembly<'a> {
    pub tables: Vec<Shared<Table>>,
    pub problems: Vec<Problem>,
    /// Parallel to `tables`: each one's column identities (shared with its
    /// build) and rows' node.
    pub ids: Vec<Shared<Vec<Option<Reached>>>>,
    pub roots: Vec<NodeId>,
    drafts: Vec<Arc<Draft>>,
    /// Each query's draft after sharing, and each draft's table position.
    draft_of: HashMap<&'a str, usize>,
    index_of: Vec<Option<usize>>,
    /// Each query's own draft (its resolved references).
    own_draft: HashMap<&'a str, usize>,
}

impl Assembly<'_> {
    /// The position of the table serving `q`.
    pub(crate) fn table_of(&self, q: &Query) -> Option<usize> {
        let draft = *self.draft_of.get(q.id.as_str())?;
        self.index_of.get(draft).copied().flatten()
    }

    /// Step 5 for the query `q` at `qi` in the project: the SELECT that
    /// answers it from its table.
    pub(crate) fn plan(&self, graph: &Graph, qi: usize, q: &Query) -> Plan {
        let Some(ti) = self.table_of(q) else {
            return Plan {
                query: graph.query_name(qi),
                table: None,
                select: Select::default(),
                access: Access::Impossible("no table serves this query".into()),
                computed: vec![],
                request: None,
            };
        };
        let resolved = self
            .own_draft
            .get(q.id.as_str())
            .and_then(|&i| self.drafts[i].resolved.as_deref());
        serve::plan(
            graph,
            q,
            graph.query_name(qi),
            resolved,
            serve::Served {
                table: &self.tables[ti],
                index: ti,
                ids: &self.ids[ti],
                root: self.roots[ti],
            },
        )
    }

    /// Every query's plan, in project order.
    pub(crate) fn plans(&self, graph: &Graph) -> Vec<Plan> {
        let queries = graph.project.queries.iter();
        queries
            .enumerate()
            .map(|(qi, q)| self.plan(graph, qi, q))
            .collect()
    }

    /// The model of these tables with their plans and write paths.
    pub(crate) fn into_model(
        self,
        plans: Vec<Plan>,
        writes: Vec<Shared<WritePath>>,
    ) -> LogicalModel {
        LogicalModel {
            tables: self.tables,
            plans,
            writes,
            problems: self.problems,
        }
    }
}

/// Steps 2 to 4 done, the tables not made yet: which draft each keeps,
/// what it gains and its name. [`Named::made`] makes them; a caller
/// holding a table equal to one ([`Named::makes`]) may hand it in.
pub(crate) struct Named<'a> {
    problems: Vec<Problem>,
    drafts: Vec<Arc<Draft>>,
    settled: Settled,
    draft_of: HashMap<&'a str, usize>,
    own_draft: HashMap<&'a str, usize>,
}

impl<'a> Named<'a> {
    /// Whether table `ti` as it will be made is `t`: every field compared
    /// (the destructuring names them all, so a new field is a
    /// compile-time question here).
    pub(crate) fn makes(&self, ti: usize, t: &Table) -> bool {
        let Some(&i) = self.settled.kept.get(ti) else {
            return false;
        };
        let (built, joined) = (&self.drafts[i].table, &self.settled.joined[i]);
        let Table {
            name,
            rows,
            queries,
            columns,
            indexes,
            ttl_seconds,
            physical,
            dropped,
            candidate,
            origin,
            collected,
        } = t;
        self.settled.names[i].as_ref() == Some(name)
            && queries.len() == built.queries.len() + joined.len()
            && queries.iter().eq(built.queries.iter().chain(joined))
            && *columns == built.columns
            && *rows == built.rows
            && *origin == built.origin
            && *ttl_seconds == built.ttl_seconds
            && *physical == built.physical
            && *candidate == built.candidate
            && *indexes == built.indexes
            && *dropped == built.dropped
            && *collected == built.collected
    }

    /// The tables made, each `given[ti]` where one is given (a table
    /// [`Named::makes`] says it makes).
    pub(crate) fn made(self, given: Vec<Option<Shared<Table>>>) -> Assembly<'a> {
        let Named {
            problems,
            mut drafts,
            settled,
            draft_of,
            own_draft,
        } = self;
        let (tables, index_of) = settle_tables(&mut drafts, settled, given);
        let ids = index_of
            .iter()
            .enumerate()
            .filter(|(_, t)| t.is_some())
            .map(|(i, _)| drafts[i].ids.clone())
            .collect();
        let roots = index_of
            .iter()
            .enumerate()
            .filter(|(_, t)| t.is_some())
            .map(|(i, _)| drafts[i].root)
            .collect();
        Assembly {
            tables,
            problems,
            ids,
            roots,
            drafts,
            draft_of,
            index_of,
            own_draft,
        }
    }
}

/// Steps 2 to 4 of derivation over the built drafts (`built` parallel to
/// `own`): sharing, `served_by`, names.
pub(crate) fn assemble<'a>(
    graph: &Graph<'a>,
    decisions: &HashMap<&str, &Decision>,
    own: &[(usize, &'a Query)],
    built: Vec<Built>,
    answers: &mut impl share::Answers,
) -> Named<'a> {
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

    let settled = share_and_name(
        graph,
        decisions,
        &mut drafts,
        &query_at,
        &mut draft_of,
        &mut problems,
        answers,
    );
    Named {
        problems,
        drafts,
        settled,
        draft_of,
        own_draft,
    }
}

/// What steps 2 to 4 leave: the drafts whose tables stay (by draft
/// position), what their tables gain and are named.
struct Settled {
    kept: Vec<usize>,
    /// By draft position: the final name of each kept draft's table.
    names: Vec<Option<Name>>,
    /// By draft position: the queries each kept draft's table gains.
    joined: Vec<Vec<Name>>,
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
    answers: &mut impl share::Answers,
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
    let hosts = share::hosts(
        project,
        drafts,
        query_at,
        &candidates,
        decisions,
        &companions,
        answers,
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
        let mut name = match d.names.iter().find(|n| !used.contains(*n)) {
            Some(free) => free.clone(),
            None => d
                .names
                .first()
                .cloned()
                .unwrap_or_else(|| Name::from("table")),
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
    }
}

/// The tables of the drafts kept (`settled.kept`, by draft position),
/// each with the queries it gained and its name, or `given` at its
/// position; and each draft's table position.
fn settle_tables(
    drafts: &mut [Arc<Draft>],
    settled: Settled,
    given: Vec<Option<Shared<Table>>>,
) -> (Vec<Shared<Table>>, Vec<Option<usize>>) {
    let Settled {
        kept,
        mut names,
        mut joined,
    } = settled;
    let mut given = given.into_iter();
    let mut index_of: Vec<Option<usize>> = vec![None; drafts.len()];
    let mut tables: Vec<Shared<Table>> = Vec::with_capacity(kept.len());
    for i in kept {
        index_of[i] = Some(tables.len());
        if let Some(same) = given.next().flatten() {
            tables.push(same);
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
        t.name = names[i].take().unwrap_or_default();
        tables.push(Shared::new(t));
    }
    (tables, index_of)
}

pub(crate) fn disambiguate(name: &str, origin: &str, used: &HashSet<Name>) -> Name {
    let suffix = crate::model::naming::snake_case(origin);
    let mut candidate = format!("{name}_{suffix}");
    let mut n = 2;
    while used.contains(candidate.as_str()) {
        candidate = format!("{name}_{suffix}_{n}");
        n += 1;
    }
    candidate.into()
}
