//! One table for several queries. A query that a table built for another
//! query already answers directly (its equality attributes are the table's
//! partition key plus a clustering prefix, its range on the next clustering
//! column, its order agrees, every returned column is there) is served by
//! that table instead of getting its own.
//!
//! Which table hosts is independent of the order of queries in the file:
//! a table serving another one that cannot serve it back hosts it; when two
//! serve each other, the one built for the smaller query id hosts (a table
//! several queries build identically counts with its smallest id).

use super::draft::Draft;
use super::serve::{access, request, request_returning, resolve_query, ColumnIds, SourceIds};
use super::types::KeyShape;
use super::types::{LogicalModel, Rule, Source};
use crate::model::name::Name;
use crate::model::resolve::{Graph, Reached};
use crate::model::{Decision, Project, Query};
use rustc_hash::FxHashMap as HashMap;

/// Whether `host`'s table answers `guest`'s query directly, as built.
/// `host_shape` holds the host's [`KeyShape`] once made (a host is asked
/// about by every other table of its rows).
pub(super) fn answers(
    guest: &Query,
    g: &Draft,
    host: &Draft,
    host_shape: &std::cell::OnceCell<KeyShape>,
) -> bool {
    let Some(res) = &g.resolved else {
        return false;
    };
    if g.root != host.root {
        return false;
    }
    // A query by a calendar part keeps the bucket derived from it: another
    // table would read the slice as a range of a larger partition, and a
    // bucketed table hosts nothing (see `can_host`).
    // A query whose paths meet holds only the rows where they do: its
    // table is not another's (see `can_host` for the other way).
    if !res.calendar().is_empty() || !guest.meets.is_empty() {
        return false;
    }
    // Most pairs fail here, before any column name is looked up.
    let held = |r: &Reached| host.ids.iter().any(|x| x.as_ref() == Some(r));
    let key_held = res
        .eq()
        .iter()
        .chain(&res.range)
        .chain(res.order())
        .chain(res.calendar())
        .all(held);
    let returned = |r: &Reached| held(r) || res.carrier_of(r).is_some_and(held);
    if !key_held || !res.returns().iter().all(returned) {
        return false;
    }
    match request(guest, res, &host.table, &host.ids) {
        Ok(req) => access(host_shape.get_or_init(|| KeyShape::of(&host.table)), &req)
            .0
            .is_direct(),
        Err(_) => false,
    }
}

/// A table may host other queries when the application can read any of its
/// partitions from a search alone: no bucket or shard to compute.
fn can_host(d: &Draft) -> bool {
    !d.separate
        && d.table
            .partition_key()
            .all(|c| !matches!(c.source, Source::Bucket { .. } | Source::Shard { .. }))
}

/// Where [`hosts`] learns whether a build's table answers another build's
/// query ([`answers`]), asked by the two builds' serial numbers: the
/// answer reads the two builds only, so it holds for copies of them, and
/// a caller may keep it for the next derivation. `()` works each one out.
pub(crate) trait Answers {
    fn answer(&mut self, builds: (u64, u64), work_out: impl FnOnce() -> bool) -> bool;
}

impl Answers for () {
    fn answer(&mut self, _: (u64, u64), work_out: impl FnOnce() -> bool) -> bool {
        work_out()
    }
}

/// `(guest, host)` pairs of drafts among `kept`: each guest is served by its
/// host's table. A query with any decision keeps its own table (the
/// designer shaped it; `separate` says so explicitly), and so does a queue
/// or a job-written one.
/// `query_at[i]`: the position in the project of the query draft `i` was
/// built for.
/// `companions[i]`: the drafts merged into draft `i` because their queries
/// need an identical table; `i` moves only when the host answers them too.
pub(super) fn hosts(
    project: &Project,
    drafts: &[std::sync::Arc<Draft>],
    query_at: &[usize],
    kept: &[usize],
    decisions: &HashMap<&str, &Decision>,
    companions: &HashMap<usize, Vec<usize>>,
    given: &mut impl Answers,
) -> Vec<(usize, usize)> {
    let shapes: Vec<std::cell::OnceCell<KeyShape>> =
        drafts.iter().map(|_| std::cell::OnceCell::new()).collect();
    let mut answer = |q: &Query, g: usize, h: usize| {
        let work_out = || answers(q, &drafts[g], &drafts[h], &shapes[h]);
        match (drafts[g].serial, drafts[h].serial) {
            (0, _) | (_, 0) => work_out(),
            pair => given.answer(pair, work_out),
        }
    };
    // What the pairs below ask of each draft, looked up once: the pairs
    // visit every draft many times, and a draft is large.
    let query: Vec<&Query> = query_at.iter().map(|&qi| &*project.queries[qi]).collect();
    let host_ok: Vec<bool> = drafts.iter().map(|d| can_host(d)).collect();
    // A draft that already serves a query with an identical table moves
    // only if the host answers that one too: keep it where it is.
    let movable: Vec<bool> = drafts
        .iter()
        .zip(&query)
        .map(|(d, q)| {
            d.resolved.is_some() && decisions.get(d.table.origin.as_str()).is_none() && !q.consumes
        })
        .collect();
    // The kept drafts grouped by their rows' node, in `kept` order within
    // a group (no map of small lists).
    let by_root = crate::model::parts::Groups::new(
        project.entities.len() + project.relationships.len(),
        kept.iter()
            .map(|&i| (drafts[i].root.dense(project.entities.len()), i)),
    );
    // serves[i]: the drafts whose table answers i's query.
    let mut serves: HashMap<usize, Vec<usize>> = HashMap::default();
    for group in by_root.iter() {
        if group.len() < 2 {
            continue;
        }
        for &i in group {
            let q = query[i];
            for &j in group {
                if i == j || !host_ok[j] {
                    continue;
                }
                let h = query[j];
                let same_writer = h.written_by_job == q.written_by_job && !h.consumes;
                if !same_writer {
                    continue;
                }
                let companions_answered = companions
                    .get(&i)
                    .is_none_or(|ks| ks.iter().all(|&k| answer(query[k], k, j)));
                if answer(q, i, j) && companions_answered {
                    serves.entry(i).or_default().push(j);
                }
            }
        }
    }
    let origin = |i: usize| drafts[i].table.origin.as_str();
    // A draft stands for its companions too (the queries with an
    // identical table, folded into the first one in file order): it ranks
    // by the smallest query id among them, so which one the file lists
    // first does not decide the host.
    let rank = |i: usize| {
        companions
            .get(&i)
            .into_iter()
            .flatten()
            .map(|&k| origin(k))
            .chain([origin(i)])
            .min()
            .unwrap_or_default()
    };
    let serves_ = |j: usize, i: usize| serves.get(&i).is_some_and(|s| s.contains(&j));
    // Dominated: some table serves it and it cannot serve that one back,
    // or both serve each other and the other's query id is smaller.
    let dominated = |i: usize| {
        movable[i]
            && serves.get(&i).is_some_and(|s| {
                s.iter()
                    .any(|&j| !serves_(i, j) || !movable[j] || rank(j) < rank(i))
            })
    };
    let mut out = Vec::new();
    for (&i, s) in &serves {
        if !dominated(i) {
            continue;
        }
        let host = s
            .iter()
            .copied()
            .filter(|&j| !dominated(j))
            .min_by(|&a, &b| rank(a).cmp(rank(b)));
        if let Some(h) = host {
            out.push((i, h));
        }
    }
    out.sort_unstable_by(|a, b| origin(a.0).cmp(origin(b.0)));
    out
}

/// A query that could share another query's table if that table held the
/// columns it lacks.
#[derive(Clone, Debug, PartialEq)]
pub struct MergeHint {
    pub query: Name,
    /// The query whose table would serve it.
    pub with: String,
    /// That table's name.
    pub table: String,
    /// The query's returned attributes the table lacks, as written.
    pub missing: Vec<String>,
}

/// For each query with a table of its own and no decision, the other table
/// of the same rows that answers it directly once it gains the query's
/// missing returned attributes (each reached without a to-many step, so
/// the table's rows stay the same): the one lacking the fewest, then by
/// query id.
pub(crate) fn merge_hints(graph: &Graph, model: &LogicalModel) -> Vec<MergeHint> {
    hints_by_table(graph, model)
        .into_iter()
        .flatten()
        .map(std::sync::Arc::unwrap_or_clone)
        .collect()
}

/// A table's merge hint, if it has one: shared, as an edit's re-analysis
/// hands most of them on from the last one.
pub(crate) type Hint = Option<std::sync::Arc<MergeHint>>;

/// [`merge_hints`] per table (`None` for a table that is no guest).
pub(crate) fn hints_by_table(graph: &Graph, model: &LogicalModel) -> Vec<Hint> {
    let by_rows = tables_by_rows(model, |_| true);
    (0..model.tables.len())
        .map(|gi| hint_for(graph, model, &by_rows, gi).map(std::sync::Arc::new))
        .collect()
}

/// The positions of the tables of each rows (entity or relationship)
/// that `wanted` names: where [`hint_for`] looks for hosts.
pub(crate) fn tables_by_rows(
    model: &LogicalModel,
    wanted: impl Fn(&str) -> bool,
) -> HashMap<&str, Vec<usize>> {
    let mut by_rows: HashMap<&str, Vec<usize>> = HashMap::default();
    for (i, t) in model.tables.iter().enumerate() {
        if wanted(t.rows.as_str()) {
            by_rows.entry(t.rows.as_str()).or_default().push(i);
        }
    }
    by_rows
}

/// The merge hint for the query that table `gi` was built for, if any,
/// among the tables `by_rows` lists for its rows ([`tables_by_rows`]): it
/// reads the guest's table and query and those tables with their queries
/// and decisions, besides the schema.
pub(crate) fn hint_for(
    graph: &Graph,
    model: &LogicalModel,
    by_rows: &HashMap<&str, Vec<usize>>,
    gi: usize,
) -> Option<MergeHint> {
    // Queries and decisions by id through the graph's index (the first
    // with an id, as everywhere).
    let queries = |id: &str| graph.query(id);
    let guest = model.tables.get(gi)?;
    if guest.queries.len() != 1 || graph.decision(&guest.origin).is_some() {
        return None;
    }
    let q = queries(&guest.origin)?;
    if q.consumes {
        return None;
    }
    // Nothing to share with: the only table of its rows.
    if by_rows.get(q.rows.as_str()).is_none_or(|g| g.len() < 2) {
        return None;
    }
    let root = graph.node(&q.rows)?;
    // The guest's search, as its own table's key columns hold it.
    let key: Vec<&Reached> = guest
        .columns
        .iter()
        .filter(|c| {
            matches!(
                c.rule,
                Rule::Equality | Rule::Filter | Rule::Range | Rule::Order
            ) && c.query == q.id
        })
        .filter_map(|c| match &c.source {
            Source::Attr { reached, .. } => Some(reached),
            _ => None,
        })
        .collect();
    let mut res: Option<super::serve::Resolved> = None;
    let mut best: Option<MergeHint> = None;
    for &hi in by_rows.get(q.rows.as_str()).into_iter().flatten() {
        let host = &model.tables[hi];
        if hi == gi || host.is_counter_table() {
            continue;
        }
        let Some(hq) = queries(&host.origin) else {
            continue;
        };
        if hq.consumes
            || hq.written_by_job != q.written_by_job
            || host
                .partition_key()
                .any(|c| matches!(c.source, Source::Bucket { .. } | Source::Shard { .. }))
        {
            continue;
        }
        let ids = SourceIds(&host.columns);
        let held =
            |r: &Reached| ids.position(r).is_some() || host.collected.iter().any(|(x, _)| x == r);
        // The search must be there already: only returned columns join.
        if !key.iter().all(|r| held(r)) {
            continue;
        }
        if res.is_none() {
            match resolve_query(graph, root, q) {
                Ok(r) => res = Some(r),
                Err(_) => break,
            }
        }
        let Some(res) = res.as_ref() else { break };
        let mut missing = Vec::new();
        let mut mergeable = true;
        for (r, text) in res.returns().iter().zip(&q.returns) {
            if !held(r) {
                mergeable &= !graph.path_is_many(&r.path) && !graph.attr(r.attr).ty.is_counter();
                missing.push(text.clone());
            }
        }
        if !mergeable || missing.is_empty() {
            continue;
        }
        // The query as the host would answer it: the columns it holds.
        let direct = request_returning(q, res, host, &ids, held)
            .is_ok_and(|req| access(&KeyShape::of(host), &req).0.is_direct());
        if !direct {
            continue;
        }
        let better = best
            .as_ref()
            .is_none_or(|b| (missing.len(), hq.id.as_str()) < (b.missing.len(), b.with.as_str()));
        if better {
            best = Some(MergeHint {
                query: guest.origin.clone(),
                with: hq.id.clone(),
                table: host.name.to_string(),
                missing,
            });
        }
    }
    best
}
