//! Incremental analysis: after an edit, re-derive only what the edit can
//! affect and reuse the rest of the previous [`Analysis`].
//!
//! The result is always equal to [`analyze`](super::analyze) on the same
//! project (`tests/core/incremental.rs` checks it after random edit sequences);
//! a full analysis stays the reference, and whatever cannot be shown
//! unchanged is recomputed.
//!
//! What is reused, and the fingerprint that must be unchanged for it:
//! - a query's own table before sharing and naming (`derive::Built`): the
//!   query itself, its position (problem paths name it), its decision and
//!   the project's [`Schema`] (entities, relationships, types, keyspace,
//!   thresholds, placement setting);
//! - a query's plan (SELECT and access): the same, plus its final table,
//!   the table's position, column identities and rows' node;
//! - a table's estimate: the table itself and the schema;
//! - a table's own findings (partition size and heat, estimate defaults,
//!   keys, types; `diagnose::TableFindings`): the table, its position, its
//!   estimate, the schema, and the queries that use or name it with their
//!   decisions;
//! - the findings about the schema alone (contradicting counts): the
//!   schema;
//! - a table's merge hint (the shareable-table rule): every table of its
//!   rows and of its query's rows stable as for its findings, none added
//!   or removed;
//! - which plans read each table: kept for the next edit's comparison.
//!
//! - a table itself: one equal to the last one at its position is that
//!   very table (shared), so later comparisons look at two pointers;
//! - a table's part of the write paths while the table is the last one;
//!   only the paths a changed table is listed in are listed again.
//!
//! Sharing, `served_by` merges, names and the diagnostics that read across
//! tables, queries or the workflow are cross-table steps: they re-run on
//! every update over the reused pieces. `derive` and `review` know nothing
//! of this: they are plain functions over values (a query's build, the
//! assembly of the tables, a query's plan, the write paths, a table's
//! estimate, findings and merge hint), and this module alone decides what
//! to keep and keeps it.
//! An edit of the schema changes what resolution, row identity and the
//! estimates read from anywhere in the graph (paths are searched, counts
//! flow through parents), so it rebuilds every query's table; the plans
//! and estimates of tables that come out identical are still reused.

use super::inputs::workflow_findings;
use super::writes::{write_paths_reusing, EarlierWrites};
use super::Analysis;
use crate::derive::estimate::{Estimate, Estimator};
use crate::derive::share::{hint_for, tables_by_rows, Answers, Hint};
use crate::derive::{
    assemble, build_query, decisions_by_query, own_queries, Built, Plan, PlansByTable, Table,
    TableWrites,
};
use crate::model::resolve::{Graph, NodeId, QueryIndex, Reached, SchemaIndex};
use crate::model::{Decision, Project, Query, Shared};
use crate::review::diagnose::{
    in_report_order, report_order, rule, schema_findings, Diagnostic, Rules, SchemaFindings, Scope,
    TableFindings,
};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

/// Each query's decision, by query id.
type Decisions<'p> = HashMap<&'p str, &'p Decision>;

/// The parts of a project every query's derivation, plan and estimate may
/// read, besides the query and its decision.
#[derive(Clone, Copy)]
pub struct Schema<'p>(&'p Project);

impl PartialEq for Schema<'_> {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (self.0, other.0);
        // Listed field by field so a new project field is a compile-time
        // question here (the destructuring below names them all).
        let Project {
            format: _,
            name: _,
            keyspace,
            cassandra,
            thresholds,
            partition_keys,
            types,
            entities,
            relationships,
            queries: _,
            workflow: _,
            decisions: _,
            notes: _,
            waivers: _,
            // The cluster sizes the cost figures only, never a table.
            cluster: _,
        } = a;
        *keyspace == b.keyspace
            && *cassandra == b.cassandra
            && *thresholds == b.thresholds
            && *partition_keys == b.partition_keys
            && *types == b.types
            && *relationships == b.relationships
            && *entities == b.entities
    }
}

/// Whether the query at `qi` of `new` derives as it did in `old`: the same
/// query at the same position with the same decision (the schema is
/// compared once, by the caller).
pub(crate) fn same_query_input(
    old: &Project,
    old_decisions: &Decisions,
    new: &Project,
    new_decisions: &Decisions,
    qi: usize,
) -> bool {
    match (old.queries.get(qi), new.queries.get(qi)) {
        (Some(a), Some(b)) => {
            a == b
                && old_decisions.get(a.id.as_str()).copied()
                    == new_decisions.get(b.id.as_str()).copied()
        }
        _ => false,
    }
}

/// The previous project with what its analysis reused or can give again.
struct Cache {
    project: Project,
    /// Parallel to `project.queries`: the query's own table as built,
    /// none for a query served by another's table (`served_by`).
    builds: Vec<Option<Built>>,
    /// Parallel to the analysis' tables: column identities, rows' node.
    ids: Vec<Shared<Vec<Option<Reached>>>>,
    roots: Vec<NodeId>,
    /// Parallel to the analysis' tables: what each added to the write paths.
    writes_by_table: Vec<TableWrites>,
    /// Parallel to the analysis' tables: each table's own findings.
    findings: Vec<TableFindings>,
    schema_findings: SchemaFindings,
    /// Parallel to the analysis' tables: each table's merge hint.
    hints: Vec<Hint>,
    /// The plans reading each of the analysis' tables.
    users: PlansByTable,
    /// Which built tables answer which built queries (sharing).
    answered: Answered,
    /// The project's query ids and decisions' queries are unique.
    unique: bool,
    /// The graph's schema half: the next analysis starts from it while the
    /// entities and relationships stay the same.
    schema: Arc<SchemaIndex>,
    /// The graph's queries half, taken over by the next graph while the
    /// query ids stay where they are.
    queries: Arc<QueryIndex>,
    /// The analysis handed out last, recognised by its vectors' buffers:
    /// reuse reads it, so it must be the one the caller passes back.
    stamp: Stamp,
}

impl Cache {
    /// The graph of `project`, starting from this one's halves where they
    /// still hold.
    fn graph<'p>(&self, project: &'p Project) -> Graph<'p> {
        Graph::reusing(project, &self.schema).taking_queries(&self.project, &self.queries)
    }
}

/// Sharing's answers (does this build's table answer that build's
/// query?) by pair of builds, carried from edit to edit: an edit asks
/// only about the pairs of its new builds. Pruned of builds gone once
/// those outnumber the live pairs.
#[derive(Default)]
struct Answered {
    pairs: HashMap<(u64, u64), bool>,
    /// Pairs asked about in the last derivation.
    asked: usize,
}

/// Pairs an [`Answered`] may hold beyond twice the live ones before it is
/// pruned (a small project is never pruned for nothing).
const ANSWERED_SLACK: usize = 1024;

impl Answers for Answered {
    fn answer(&mut self, builds: (u64, u64), work_out: impl FnOnce() -> bool) -> bool {
        self.asked += 1;
        *self.pairs.entry(builds).or_insert_with(work_out)
    }
}

impl Answered {
    /// Drops the answers about builds not in `live` once they outnumber
    /// the pairs the last derivation asked about.
    fn prune(&mut self, live: &[Option<Built>]) {
        if self.pairs.len() > 2 * self.asked + ANSWERED_SLACK {
            let live: HashSet<u64> = live
                .iter()
                .flatten()
                .filter_map(|b| b.draft.as_ref().map(|d| d.serial))
                .collect();
            self.pairs
                .retain(|(g, h), _| live.contains(g) && live.contains(h));
        }
        self.asked = 0;
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct Stamp {
    tables: (usize, usize),
    plans: (usize, usize),
    estimates: (usize, usize),
    diagnostics: (usize, usize),
}

impl Stamp {
    fn of(a: &Analysis) -> Stamp {
        let at = |p: *const u8, n: usize| (p as usize, n);
        Stamp {
            tables: at(a.model.tables.as_ptr().cast(), a.model.tables.len()),
            plans: at(a.model.plans.as_ptr().cast(), a.model.plans.len()),
            estimates: at(a.estimates.as_ptr().cast(), a.estimates.len()),
            diagnostics: at(a.diagnostics.as_ptr().cast(), a.diagnostics.len()),
        }
    }
}

/// How much of the last update was reused, for tests and benches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Reused {
    /// Queries whose own table was reused / built.
    pub builds: usize,
    pub built: usize,
    /// Plans reused / made.
    pub plans: usize,
    pub planned: usize,
    /// Estimates reused / computed.
    pub estimates: usize,
    pub estimated: usize,
    /// Tables whose own findings were reused / judged again.
    pub findings: usize,
    pub judged: usize,
    /// The findings about the schema alone were reused.
    pub schema_findings: bool,
    /// Tables whose merge hint was reused.
    pub hints: usize,
}

/// [`unique_ids`] of `p`, known without a look at every id when `earlier`
/// had unique ids and `p` has the very same decisions and, position by
/// position, the very same queries or queries with the same ids.
fn unique_ids_after(earlier: Option<(&Project, bool)>, p: &Project) -> bool {
    let same_ids = |e: &Project| Shared::same(&e.decisions, &p.decisions) && e.same_query_ids(p);
    match earlier {
        Some((e, true)) if same_ids(e) => true,
        _ => unique_ids(p),
    }
}

/// Whether no two queries share an id and no two decisions a query.
fn unique_ids(p: &Project) -> bool {
    let mut seen: HashSet<&str> = HashSet::default();
    p.queries.iter().all(|q| seen.insert(q.id.as_str())) && {
        seen.clear();
        p.decisions.iter().all(|d| seen.insert(d.query.as_str()))
    }
}

/// Each table's estimate, taken from `earlier` (the last analysis, when
/// the schema is unchanged) for a table found there unchanged: at its
/// position (`same_table_at`) or by its name.
fn estimates_reusing(
    graph: &Graph,
    model: &crate::derive::LogicalModel,
    earlier: Option<&Analysis>,
    same_table_at: &[bool],
    reused: &mut Reused,
) -> Vec<Estimate> {
    let est = Estimator::new(graph);
    let mut by_name: Option<HashMap<&str, usize>> = None;
    model
        .tables
        .iter()
        .enumerate()
        .map(|(ti, t)| {
            let found = earlier.and_then(|prev| {
                let at = if same_table_at.get(ti).copied().unwrap_or(false) {
                    Some(ti)
                } else {
                    let names = by_name.get_or_insert_with(|| {
                        prev.model
                            .tables
                            .iter()
                            .enumerate()
                            .map(|(i, t)| (t.name.as_str(), i))
                            .collect()
                    });
                    names
                        .get(t.name.as_str())
                        .copied()
                        .filter(|&i| prev.model.tables.get(i) == Some(t))
                };
                at.and_then(|i| prev.estimates.get(i)).cloned()
            });
            if let Some(e) = found {
                reused.estimates += 1;
                e
            } else {
                reused.estimated += 1;
                est.table(t)
            }
        })
        .collect()
}

/// Whether each table of `model` is the one at its position last time
/// (`same_table_at`), used by the same queries (`users` as `old_users`),
/// all unchanged (`unchanged`, with their decisions), and naming no other
/// query: what its findings and merge hint read of the project besides
/// the schema and its estimate.
fn stable_tables(
    project: &Project,
    model: &crate::derive::LogicalModel,
    same_table_at: &[bool],
    users: &PlansByTable,
    old_users: &PlansByTable,
    unchanged: &dyn Fn(usize) -> bool,
) -> Vec<bool> {
    model
        .tables
        .iter()
        .enumerate()
        .map(|(i, t)| {
            if i >= users.tables() || i >= old_users.tables() {
                return false;
            }
            let using = users.reading(i);
            let named = t.queries.iter().chain([&t.origin]).all(|id| {
                using
                    .iter()
                    .any(|&qi| project.queries.get(qi).is_some_and(|q| &q.id == id))
            });
            same_table_at.get(i).copied().unwrap_or(false)
                && old_users.reading(i) == using
                && named
                && using.iter().all(|&qi| unchanged(qi))
        })
        .collect()
}

/// The rows (entity or relationship) whose tables are all stable, none
/// having come or gone ([`stable_rows`]).
enum StableRows<'m> {
    /// Every rows but these, a few (the tables' rows are as before,
    /// position by position: the common case after an edit). Compared
    /// one by one: cheaper than hashing a name per table.
    AllBut(Vec<&'m str>),
    /// Every rows but these, many.
    AllButMany(HashSet<&'m str>),
    Only(HashSet<&'m str>),
}

impl StableRows<'_> {
    fn contains(&self, rows: &str) -> bool {
        match self {
            StableRows::AllBut(unstable) => !unstable.contains(&rows),
            StableRows::AllButMany(unstable) => !unstable.contains(rows),
            StableRows::Only(stable) => stable.contains(rows),
        }
    }
}

/// The rows (entity or relationship) whose tables in `model` are all
/// stable, as many as in `previous`: none came or went.
fn stable_rows<'m>(
    previous: &crate::derive::LogicalModel,
    model: &'m crate::derive::LogicalModel,
    stable: &[bool],
) -> StableRows<'m> {
    // The same rows at every position: no group gained or lost a table,
    // and a group is unstable when one of its tables is.
    if previous.tables.len() == model.tables.len()
        && previous
            .tables
            .iter()
            .zip(&model.tables)
            .all(|(a, b)| a.rows == b.rows)
    {
        let mut unstable: Vec<&str> = model
            .tables
            .iter()
            .zip(stable)
            .filter(|(_, &s)| !s)
            .map(|(t, _)| t.rows.as_str())
            .collect();
        unstable.sort_unstable();
        unstable.dedup();
        return if unstable.len() <= 8 {
            StableRows::AllBut(unstable)
        } else {
            StableRows::AllButMany(unstable.into_iter().collect())
        };
    }
    let mut count: HashMap<&str, isize> = HashMap::default();
    for t in &previous.tables {
        *count.entry(t.rows.as_str()).or_default() -= 1;
    }
    let mut all: HashMap<&str, bool> = HashMap::default();
    for (t, &s) in model.tables.iter().zip(stable) {
        *count.entry(t.rows.as_str()).or_default() += 1;
        *all.entry(t.rows.as_str()).or_insert(true) &= s;
    }
    StableRows::Only(
        all.into_iter()
            .filter(|&(rows, s)| s && count.get(rows) == Some(&0))
            .map(|(rows, _)| rows)
            .collect(),
    )
}

/// The last analysis' write paths to patch, while the entity and
/// relationship lists are the very same (the paths' positions and names
/// are then the same).
fn earlier_writes<'a>(
    c: &Cache,
    prev: &'a Analysis,
    project: &Project,
    parts: &mut Vec<TableWrites>,
) -> Option<EarlierWrites<'a>> {
    let same_lists = Shared::same(&c.project.entities, &project.entities)
        && Shared::same(&c.project.relationships, &project.relationships);
    same_lists.then(|| EarlierWrites {
        paths: prev.model.writes.as_slice(),
        parts: std::mem::take(parts),
    })
}

/// Each table's merge hint, with whether it was kept from `last` (the
/// last analysis' hints): a hint reads its guest's rows' tables and its
/// query's, so it is kept while both groups are stable (`stable`). Only
/// the groups the hints still to work out read are listed (after an
/// edit, one or two among thousands).
fn hints_reusing(
    graph: &Graph,
    model: &crate::derive::LogicalModel,
    last: Option<&Vec<Hint>>,
    stable: &StableRows,
) -> Vec<(Hint, bool)> {
    let kept: Vec<Option<Hint>> = model
        .tables
        .iter()
        .enumerate()
        .map(|(gi, t)| {
            // The guest is in its own rows' group: that group being stable
            // covers the guest too.
            let same = stable.contains(&t.rows) && stable.contains(query_rows(graph, t));
            last.filter(|_| same).and_then(|l| l.get(gi)).cloned()
        })
        .collect();
    let todo: HashSet<&str> = model
        .tables
        .iter()
        .zip(&kept)
        .filter(|(_, k)| k.is_none())
        .map(|(t, _)| query_rows(graph, t))
        .collect();
    let by_rows = if todo.len() * 4 < model.tables.len() {
        tables_by_rows(model, |rows| todo.contains(rows))
    } else {
        tables_by_rows(model, |_| true)
    };
    kept.into_iter()
        .enumerate()
        .map(|(gi, k)| match k {
            Some(h) => (h, true),
            None => (hint_for(graph, model, &by_rows, gi).map(Arc::new), false),
        })
        .collect()
}

/// The rows of the query table `t` was built for (its own rows when the
/// query is gone).
fn query_rows<'a>(graph: &'a Graph, t: &'a Table) -> &'a str {
    graph
        .query(&t.origin)
        .map_or(t.rows.as_str(), |q| q.rows.as_str())
}

/// Whether the rule of `d` is run again on an edit of the workflow alone.
fn workflow_scoped(d: &Diagnostic) -> bool {
    rule(d.rule).is_some_and(|r| r.scopes.contains(&Scope::Workflow))
}

/// The review after an edit that changed the workflow and nothing else
/// the rules read: `previous` is the review of the same model, estimates
/// and schema, `flow` the [`Scope::Workflow`] rules' findings now; they
/// replace that scope's and are merged into the others in report order
/// (no rule reports in both groups, so the result is the full review's).
fn rediagnose_workflow(previous: &[Diagnostic], mut flow: Vec<Diagnostic>) -> Vec<Diagnostic> {
    flow.sort_by(report_order);
    flow.dedup();
    let others = || previous.iter().filter(|d| !workflow_scoped(d));
    // Sized exactly: the review is kept as long as the analysis.
    let mut out = Vec::with_capacity(others().count() + flow.len());
    let mut flow = flow.into_iter().peekable();
    for d in others() {
        while let Some(f) = flow.next_if(|f| report_order(f, d).is_lt()) {
            out.push(f);
        }
        out.push(d.clone());
    }
    out.extend(flow);
    out
}

/// Keeps what the last analysis computed so the next one, after an edit,
/// recomputes only what the edit can change. Use [`IncrementalAnalysis::analyze`]
/// for the first project (or any unrelated one) and
/// [`IncrementalAnalysis::reanalyze`] after each change.
#[derive(Default)]
pub struct IncrementalAnalysis {
    cache: Option<Cache>,
    reused: Reused,
}

impl IncrementalAnalysis {
    pub fn new() -> IncrementalAnalysis {
        IncrementalAnalysis::default()
    }

    /// A full analysis of `project` that fills the cache.
    pub fn analyze(&mut self, project: &Project) -> Analysis {
        self.cache = None;
        let analysis = self.run(project, None);
        self.waived(project, analysis)
    }

    /// The analysis of `project`, equal to [`analyze`](super::analyze) on
    /// it, reusing what `previous` (the analysis this value returned last)
    /// computed for the parts of the project that did not change. Any
    /// other `previous` gets a full analysis.
    pub fn reanalyze(&mut self, project: &Project, previous: &Analysis) -> Analysis {
        let matches = self
            .cache
            .as_ref()
            .is_some_and(|c| c.stamp == Stamp::of(previous));
        if !matches {
            self.cache = None;
        }
        let analysis = self.run(project, Some(previous));
        self.waived(project, analysis)
    }

    /// The analysis with the project's waivers applied, as
    /// [`analyze`](super::analyze) applies them: last, over the whole
    /// review (cheap, and idempotent over findings an earlier review
    /// marked). The cache's stamp follows the changed list.
    fn waived(&mut self, project: &Project, mut analysis: Analysis) -> Analysis {
        crate::review::diagnose::apply_waivers(project, &mut analysis.diagnostics);
        if let Some(c) = self.cache.as_mut() {
            c.stamp = Stamp::of(&analysis);
        }
        analysis
    }

    /// When nothing the derivation and estimates read changed (the schema,
    /// the queries, the decisions: an edit of the workflow, the notes or
    /// the name), the previous model and estimates stand as they are and
    /// only the workflow's rules run again. `None` when anything else
    /// changed or there is nothing to reuse.
    fn workflow_only(
        &mut self,
        project: &Project,
        previous: Option<&Analysis>,
    ) -> Option<Analysis> {
        let c = self.cache.as_mut()?;
        let prev = previous?;
        let same_inputs = c.unique
            && Schema(&c.project) == Schema(project)
            && c.project.queries == project.queries
            && c.project.decisions == project.decisions
            && unique_ids_after(Some((&c.project, c.unique)), project);
        if !same_inputs {
            return None;
        }
        let diagnostics = if c.project.workflow == project.workflow {
            prev.diagnostics.clone()
        } else {
            let graph = c.graph(project);
            // Each query's input-gap finding is kept unless its inputs changed.
            let rules = Rules::new(&graph, &prev.model, &prev.estimates, &c.users);
            let flow = workflow_findings(&rules, &graph, Some((&c.project, prev)));
            rediagnose_workflow(&prev.diagnostics, flow)
        };
        let analysis = Analysis {
            model: std::sync::Arc::clone(&prev.model),
            estimates: prev.estimates.clone(),
            diagnostics,
        };
        // The cache keeps what later comparisons read; the rest of the
        // project is the same already.
        let Project {
            format,
            name,
            workflow,
            notes,
            ..
        } = project;
        c.project.format = *format;
        c.project.name.clone_from(name);
        c.project.workflow.clone_from(workflow);
        c.project.notes.clone_from(notes);
        c.stamp = Stamp::of(&analysis);
        let tables = analysis.model.tables.len();
        let own = c.builds.iter().filter(|b| b.is_some()).count();
        self.reused = Reused {
            builds: own,
            built: 0,
            plans: analysis.model.plans.len(),
            planned: 0,
            estimates: tables,
            estimated: 0,
            findings: tables,
            judged: 0,
            schema_findings: true,
            hints: tables,
        };
        Some(analysis)
    }

    /// What the last call reused and recomputed.
    pub fn reused(&self) -> Reused {
        self.reused
    }

    fn run(&mut self, project: &Project, previous: Option<&Analysis>) -> Analysis {
        if let Some(analysis) = self.workflow_only(project, previous) {
            return analysis;
        }
        let mut cache = self.cache.take();
        // Moved out: a reused build goes on to the next cache, shared with
        // this derivation (a build's draft is an `Arc`); each table's part
        // of the write paths is patched; sharing adds to its answers.
        let (mut old_builds, mut old_writes_by_table, old_answered) = match cache.as_mut() {
            Some(c) => (
                std::mem::take(&mut c.builds),
                std::mem::take(&mut c.writes_by_table),
                Some(std::mem::take(&mut c.answered)),
            ),
            None => Default::default(),
        };
        let graph = cache
            .as_ref()
            .map_or_else(|| Graph::new(project), |c| c.graph(project));
        let decisions = decisions_by_query(project);
        let own = own_queries(project, &decisions);
        let mut reused = Reused::default();

        let old = match (&cache, previous) {
            (Some(c), Some(p)) => Some((c, p, decisions_by_query(&c.project))),
            _ => None,
        };
        let same_schema = old
            .as_ref()
            .is_some_and(|(c, _, _)| Schema(&c.project) == Schema(project));
        // Each query compared once: builds, plans and findings all ask.
        let unchanged_at: Vec<bool> = match &old {
            Some((c, _, od)) if same_schema => (0..project.queries.len())
                .map(|qi| same_query_input(&c.project, od, project, &decisions, qi))
                .collect(),
            _ => vec![false; project.queries.len()],
        };
        let unchanged = |qi: usize| unchanged_at.get(qi).copied().unwrap_or(false);

        // 1. Each query's own table: reused when its inputs are unchanged,
        // otherwise built.
        let kept: Vec<Option<Built>> = own
            .iter()
            .map(|&(qi, _)| {
                if unchanged(qi) {
                    old_builds.get_mut(qi).and_then(Option::take)
                } else {
                    None
                }
            })
            .collect();
        drop(old_builds);
        let missing: Vec<(usize, &Query)> = own
            .iter()
            .zip(&kept)
            .filter(|(_, k)| k.is_none())
            .map(|(x, _)| *x)
            .collect();
        reused.built = missing.len();
        reused.builds = own.len() - missing.len();
        let mut est = None;
        let mut fresh = missing
            .iter()
            .map(|&(qi, q)| {
                build_query(
                    &graph,
                    q,
                    qi,
                    decisions.get(q.id.as_str()).copied(),
                    &mut est,
                )
            })
            .collect::<Vec<_>>()
            .into_iter();
        let mut builds: Vec<Option<Built>> = vec![None; project.queries.len()];
        let mut built: Vec<Built> = Vec::with_capacity(own.len());
        for (&(qi, _), k) in own.iter().zip(kept) {
            let b = k
                .or_else(|| fresh.next())
                .expect("one fresh build for each query without a kept one");
            // A reference count: the draft itself is shared.
            builds[qi] = Some(b.clone());
            built.push(b);
        }

        // 2. Sharing, merges and names over the builds. Sharing finds a
        // build's query by its id: answers about builds are reused only
        // between projects whose query ids are unique.
        let unique = unique_ids_after(cache.as_ref().map(|c| (&c.project, c.unique)), project);
        let mut answered = old_answered
            .filter(|_| unique && cache.as_ref().is_some_and(|c| c.unique))
            .unwrap_or_default();
        let named = assemble(&graph, &decisions, &own, built, &mut answered);
        answered.prune(&builds);
        // A table that comes out equal to the one at its position last
        // time is that very table: the analyses share it, and every later
        // comparison of the two is a look at two pointers.
        let last_tables = old
            .as_ref()
            .map_or(&[][..], |(_, prev, _)| &prev.model.tables);
        let given = last_tables
            .iter()
            .enumerate()
            .map(|(ti, t)| named.makes(ti, t).then(|| t.clone()))
            .collect();
        let mut assembly = named.made(given);
        let same_table_as_before = |ti: usize, t: &Shared<Table>| -> bool {
            old.as_ref().is_some_and(|(_, prev, _)| {
                prev.model
                    .tables
                    .get(ti)
                    .is_some_and(|l| Shared::same(l, t))
            })
        };

        // 3. Plans: a query's plan is kept while the query and its table
        // (the very one, at its position, with the same column identities
        // and rows' node) are unchanged.
        let reuse_plan = |qi: usize, q: &Query| -> Option<Plan> {
            let (c, prev, _) = old.as_ref()?;
            let ti = assembly.table_of(q).filter(|_| unchanged(qi))?;
            let plan = prev.model.plans.get(qi)?;
            let same = plan.table == Some(ti)
                && plan.query == q.id
                && c.roots.get(ti) == assembly.roots.get(ti)
                && c.ids.get(ti) == assembly.ids.get(ti)
                && same_table_as_before(ti, &assembly.tables[ti]);
            same.then(|| plan.clone())
        };
        let plans: Vec<Plan> = project
            .queries
            .iter()
            .enumerate()
            .map(|(qi, q)| {
                reuse_plan(qi, q)
                    .inspect(|_| reused.plans += 1)
                    .unwrap_or_else(|| {
                        reused.planned += 1;
                        assembly.plan(&graph, qi, q)
                    })
            })
            .collect();

        // 4. Write paths: each unchanged table's part is kept and only the
        // paths a changed table is listed in are listed again.
        let same_writes = |ti: usize| {
            old.as_ref().is_some_and(|(c, _, _)| {
                c.roots.get(ti) == assembly.roots.get(ti)
                    && c.ids.get(ti) == assembly.ids.get(ti)
                    && same_table_as_before(ti, &assembly.tables[ti])
            })
        };
        let earlier = old
            .as_ref()
            .and_then(|(c, prev, _)| earlier_writes(c, prev, project, &mut old_writes_by_table));
        let (writes, writes_by_table) = write_paths_reusing(
            &graph,
            earlier,
            same_writes,
            &assembly.tables,
            &assembly.ids,
            &assembly.roots,
        );
        let ids = std::mem::take(&mut assembly.ids);
        let roots = std::mem::take(&mut assembly.roots);
        let model = assembly.into_model(plans, writes);

        // 5. Estimates: a table unchanged in an unchanged schema keeps its
        // estimate. Whether each table is the one at its position last
        // time (the findings below ask again):
        let same_table_at: Vec<bool> = model
            .tables
            .iter()
            .enumerate()
            .map(|(ti, t)| same_table_as_before(ti, t))
            .collect();
        let earlier = old
            .as_ref()
            .filter(|_| same_schema)
            .map(|(_, prev, _)| *prev);
        // The last analysis' users were kept (the stamp says it is that one).
        let no_users = PlansByTable::default();
        let old_users = old.as_ref().map_or(&no_users, |(c, _, _)| &c.users);
        let comparable = old
            .as_ref()
            .is_some_and(|(c, _, _)| same_schema && unique && c.unique);
        // 6. Diagnostics: each table's own findings are reused when
        // the table, its position and estimate, the schema, and the
        // queries that use or name it (with their decisions) are
        // unchanged; the rules that read across tables, queries and
        // the workflow re-run. Rules look queries and decisions up
        // by id, so duplicate ids (a project that does not
        // validate) get no reuse.
        let users = model.plans_by_table();
        let stable: Vec<bool> = if comparable {
            stable_tables(
                project,
                &model,
                &same_table_at,
                &users,
                old_users,
                &unchanged,
            )
        } else {
            vec![false; model.tables.len()]
        };
        // A merge hint reads its guest and every table of the same
        // rows.
        let rows_stable = match &old {
            Some((_, prev, _)) if comparable => stable_rows(&prev.model, &model, &stable),
            _ => StableRows::Only(HashSet::default()),
        };
        let estimates = estimates_reusing(&graph, &model, earlier, &same_table_at, &mut reused);
        let reuse_findings = |i: usize| -> Option<TableFindings> {
            let (c, prev, _) = old.as_ref()?;
            let same = stable.get(i).copied().unwrap_or(false)
                && prev.estimates.get(i) == estimates.get(i);
            c.findings.get(i).filter(|_| same).cloned()
        };
        let hints = hints_reusing(
            &graph,
            &model,
            old.as_ref().map(|(c, _, _)| &c.hints),
            &rows_stable,
        );
        reused.hints = hints.iter().filter(|(_, kept)| *kept).count();
        let hints: Vec<Hint> = hints.into_iter().map(|(h, _)| h).collect();
        // Contradicting counts read the schema alone.
        let kept_schema = old
            .as_ref()
            .filter(|_| same_schema)
            .map(|(c, _, _)| c.schema_findings.clone());
        reused.schema_findings = kept_schema.is_some();
        // The review, scope by scope: a table's findings and the schema's
        // as above, the workflow's (reusing the input gaps of queries
        // whose inputs did not change) and the model's run again.
        let rules = Rules::new(&graph, &model, &estimates, &users);
        let findings: Vec<TableFindings> = (0..model.tables.len())
            .map(|i| {
                reuse_findings(i)
                    .inspect(|_| reused.findings += 1)
                    .unwrap_or_else(|| rules.table(i))
            })
            .collect();
        let schema = kept_schema.unwrap_or_else(|| schema_findings(&graph));
        let last = old.as_ref().filter(|(c, _, _)| unique && c.unique);
        let mut others = rules.model(&hints);
        others.extend(workflow_findings(
            &rules,
            &graph,
            last.map(|(c, prev, _)| (&c.project, *prev)),
        ));
        let diagnostics = in_report_order(&findings, &schema, &others);
        drop(rules);
        reused.judged = model.tables.len() - reused.findings;

        let analysis = Analysis {
            model: std::sync::Arc::new(model),
            estimates,
            diagnostics,
        };
        self.reused = reused;
        self.cache = Some(Cache {
            schema: graph.schema_index(),
            queries: graph.query_index(),
            project: project.clone(),
            answered,
            builds,
            ids,
            roots,
            writes_by_table,
            findings,
            schema_findings: schema,
            hints,
            users,
            unique,
            stamp: Stamp::of(&analysis),
        });
        analysis
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::edit::{apply, Edit};
    use crate::model::load;

    fn hotel() -> Project {
        load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("sample")
    }

    fn edited(p: &Project, e: &Edit) -> Project {
        let mut next = p.clone();
        apply(&mut next, e).expect("the edit applies");
        next
    }

    /// Sharing's answers are carried from edit to edit; those about builds
    /// that are gone are dropped once they outnumber the live ones, so a
    /// long session does not grow them without end. (A schema edit
    /// rebuilds every query: each one leaves all the earlier pairs stale.)
    #[test]
    fn sharing_answers_about_builds_gone_are_dropped() {
        let p = hotel();
        let mut inc = IncrementalAnalysis::new();
        let mut last = inc.analyze(&p);
        let mut most = 0;
        let mut next = p.clone();
        for i in 0..300 {
            next = p.clone();
            next.entities[0].count = Some(f64::from(i % 2 + 7));
            last = inc.reanalyze(&next, &last);
            let held = inc.cache.as_ref().map_or(0, |c| c.answered.pairs.len());
            most = most.max(held);
        }
        assert!(most > 0, "the hotel's tables answer each other's queries");
        let queries = p.queries.len();
        assert!(
            most <= 2 * queries * queries + 1024,
            "{most} answers held for {queries} queries"
        );
        assert_eq!(last, analyze(&next));
    }

    /// Unique ids are known from the last project when the ids stay where
    /// they were, and looked at again otherwise: an id or a decision
    /// made a duplicate is seen either way.
    #[test]
    fn unique_ids_follow_edits_of_ids_and_decisions() {
        let p = hotel();
        assert!(unique_ids(&p));
        let mut returns = p.clone();
        returns.queries[0].returns.pop();
        assert!(unique_ids_after(Some((&p, true)), &returns));
        let mut renamed = p.clone();
        renamed.queries[1].id = p.queries[0].id.clone();
        assert!(!unique_ids_after(Some((&p, true)), &renamed));
        assert!(unique_ids_after(Some((&renamed, false)), &p));
        let mut decided = p.clone();
        let id = decided.queries[0].id.clone();
        decided.decision_mut(&id).separate = true;
        let twin = decided.decisions[0].clone();
        decided.decisions.push(twin);
        assert!(!unique_ids_after(Some((&p, true)), &decided));
        assert!(!unique_ids_after(None, &decided));
    }

    #[test]
    fn the_schema_is_entities_relationships_types_and_settings() {
        let p = hotel();
        let mut q = p.clone();
        q.queries[0].returns.pop();
        q.workflow.entry.clear();
        q.decision_mut("Q1").name = Some("x".into());
        q.name = "renamed".into();
        assert!(
            Schema(&p) == Schema(&q),
            "queries, workflow, decisions, name"
        );
        for change in [
            |p: &mut Project| p.entities[0].count = Some(7.0),
            |p: &mut Project| p.entities[1].attributes[0].name.push('x'),
            |p: &mut Project| p.relationships[0].name.push('x'),
            |p: &mut Project| p.thresholds.horizon_days += 1.0,
            |p: &mut Project| p.keyspace.name.push('x'),
        ] {
            let mut r = p.clone();
            change(&mut r);
            assert!(Schema(&p) != Schema(&r));
        }
    }

    #[test]
    fn a_query_input_is_the_query_its_position_and_its_decision() {
        let p = hotel();
        let d = decisions_by_query(&p);
        assert!(same_query_input(&p, &d, &p, &d, 0));
        assert!(!same_query_input(&p, &d, &p, &d, p.queries.len()));

        let mut moved = p.clone();
        moved.queries.swap(0, 1);
        let dm = decisions_by_query(&moved);
        assert!(!same_query_input(&p, &d, &moved, &dm, 0));

        let mut decided = p.clone();
        let id = decided.queries[0].id.clone();
        decided.decision_mut(&id).separate = true;
        let dd = decisions_by_query(&decided);
        assert!(!same_query_input(&p, &d, &decided, &dd, 0));
        assert!(same_query_input(&p, &d, &decided, &dd, 1));
    }

    #[test]
    fn a_query_edit_rebuilds_that_query_only() {
        let p = hotel();
        let mut inc = IncrementalAnalysis::new();
        let first = inc.analyze(&p);
        let own = inc.reused().built;
        assert_eq!(own, p.queries.len(), "the first analysis builds all");

        let mut returns = p.queries[0].returns.clone();
        returns.pop();
        let next = edited(&p, &Edit::SetReturns(0, returns));
        let second = inc.reanalyze(&next, &first);
        assert_eq!(second, analyze(&next));
        let r = inc.reused();
        assert_eq!((r.built, r.builds), (1, own - 1));
        assert!(r.plans >= own - 2 && r.planned >= 1, "{r:?}");
        assert!(r.estimates > 0 && r.estimated >= 1, "{r:?}");
        assert!(r.findings > 0 && r.judged >= 1, "{r:?}");
    }

    /// A query's edit lists again only the write paths its table is listed
    /// in, before or after, and shares the others with the last analysis;
    /// a query turned job-written moves its unchanged table from the
    /// inserts to the job's list; a table gone lists every path again.
    /// Each time the paths are a full analysis' paths.
    #[test]
    fn write_paths_are_patched_where_a_changed_table_is_listed() {
        let p = hotel();
        let mut inc = IncrementalAnalysis::new();
        let first = inc.analyze(&p);
        let lists = |w: &crate::derive::WritePath, table: &str| {
            w.insert
                .iter()
                .chain(&w.job)
                .chain(&w.summaries)
                .chain(
                    w.update
                        .iter()
                        .flat_map(|u| u.tables.iter().map(|(t, _)| t)),
                )
                .any(|t| t.as_str() == table)
        };

        let mut returns = p.queries[0].returns.clone();
        returns.pop();
        let next = edited(&p, &Edit::SetReturns(0, returns));
        let second = inc.reanalyze(&next, &first);
        assert_eq!(second, analyze(&next));
        let table = first.model.table_of(&p.queries[0].id).expect("Q1's table");
        let mut shared = 0;
        for (a, b) in first.model.writes.iter().zip(&second.model.writes) {
            if Shared::same(a, b) {
                shared += 1;
            } else {
                assert!(lists(a, &table.name) || lists(b, &table.name), "{}", a.item);
            }
        }
        assert!(shared > 0 && shared < first.model.writes.len(), "{shared}");

        let mut job = next.clone();
        let (qi, table) = (1..job.queries.len())
            .find_map(|qi| Some((qi, second.model.table_of(&job.queries[qi].id)?.name.clone())))
            .expect("a query with a table");
        job.queries[qi].written_by_job = true;
        let third = inc.reanalyze(&job, &second);
        assert_eq!(third, analyze(&job));
        assert!(third.model.writes.iter().any(|w| w.job.contains(&table)));

        let fewer = edited(&job, &Edit::Delete(crate::edit::Item::Query(0)));
        let fourth = inc.reanalyze(&fewer, &third);
        assert_eq!(fourth.model.tables.len() + 1, third.model.tables.len());
        assert_eq!(fourth, analyze(&fewer));
    }

    /// After a query's edit every table but that query's is the last
    /// analysis' own (shared, not copied), and a pinned name moves the
    /// renamed table out of the shared ones: always a full analysis' model.
    #[test]
    fn tables_an_edit_leaves_alone_are_shared_with_the_last_analysis() {
        let p = hotel();
        let mut inc = IncrementalAnalysis::new();
        let first = inc.analyze(&p);
        let mut returns = p.queries[0].returns.clone();
        returns.pop();
        let next = edited(&p, &Edit::SetReturns(0, returns));
        let second = inc.reanalyze(&next, &first);
        assert_eq!(second, analyze(&next));
        let edited_table = second.model.plans[0].table.expect("Q1 has a table");
        for (i, (a, b)) in first
            .model
            .tables
            .iter()
            .zip(&second.model.tables)
            .enumerate()
        {
            assert_eq!(Shared::same(a, b), i != edited_table, "table {i}");
        }

        let id = next.queries[2].id.clone();
        let pinned = edited(&next, &Edit::PinName(id.clone(), "pinned_here".into()));
        let third = inc.reanalyze(&pinned, &second);
        assert_eq!(third, analyze(&pinned));
        let renamed = third.model.plans[2].table.expect("a table");
        assert_eq!(third.model.tables[renamed].name, "pinned_here");
        assert!(!Shared::same(
            &second.model.tables[renamed],
            &third.model.tables[renamed]
        ));
        let shared = second
            .model
            .tables
            .iter()
            .zip(&third.model.tables)
            .filter(|(a, b)| Shared::same(a, b))
            .count();
        assert_eq!(shared, third.model.tables.len() - 1);
    }

    /// Merge hints are kept for tables whose rows' tables all stayed the
    /// same, and worked out again when the guest, a host or any table of
    /// the same rows changes: always as a full analysis finds them.
    #[test]
    fn merge_hints_follow_edits_of_their_tables() {
        let p = crate::model::synthetic::project(300, 300, 7);
        let first = analyze(&p);
        let hint = crate::derive::share::merge_hints(&Graph::new(&p), &first.model)
            .into_iter()
            .find(|h| h.missing.len() > 1)
            .expect("the synthetic project has a table two columns short of sharing");
        let at = |id: &str| p.queries.iter().position(|q| q.id == id).expect("query");
        let (guest, host) = (at(&hint.query), at(&hint.with));
        let rows = &p.queries[guest].rows;
        let elsewhere = (0..p.queries.len())
            .find(|&i| p.queries[i].rows != *rows && p.queries[i].returns.len() > 1)
            .expect("a query of other rows");
        let shorter = |p: &Project, i: usize| {
            let mut returns = p.queries[i].returns.clone();
            returns.pop();
            edited(p, &Edit::SetReturns(i, returns))
        };
        // The host gaining one of the columns the guest misses: the guest's
        // table is the same, its hint is not.
        let mut returns = p.queries[host].returns.clone();
        returns.push(hint.missing[0].clone());
        let closer = edited(&p, &Edit::SetReturns(host, returns));
        let steps = [
            shorter(&p, elsewhere),
            p.clone(),
            closer,
            p.clone(),
            shorter(&p, guest),
            p.clone(),
        ];
        let changed = |a: &Analysis| {
            a.diagnostics.iter().any(|d| {
                d.rule == "shareable-table"
                    && d.message().contains(&format!("holds {}", hint.missing[1]))
            })
        };
        assert!(
            changed(&analyze(&steps[2])),
            "the host's new column shortens the hint"
        );
        let mut inc = IncrementalAnalysis::new();
        let mut last = inc.analyze(&p);
        for (step, next) in steps.iter().enumerate() {
            last = inc.reanalyze(next, &last);
            assert_eq!(last, analyze(next), "step {step}");
            let kept = inc.reused().hints;
            assert!(
                kept > 0 && kept < last.model.tables.len(),
                "step {step}: {kept} of {} hints kept",
                last.model.tables.len()
            );
        }
    }

    /// Sharing keeps its answers about kept builds from one edit to the
    /// next: an edit of the host's query (a new build) must move the guest
    /// out, and the edit undone bring it back, exactly as a full analysis
    /// decides; an edit elsewhere keeps the sharing.
    #[test]
    fn sharing_follows_edits_of_the_host_and_the_guest() {
        let mut p = hotel();
        // A twin of an undecided query returning one column less: the
        // original's table answers it.
        let host = (0..p.queries.len())
            .find(|&i| {
                let q = &p.queries[i];
                p.decision(&q.id).is_none() && q.returns.len() > 1 && q.aggregates.is_empty()
            })
            .expect("an undecided query");
        let mut twin = p.queries[host].clone();
        twin.id = "Q_twin".into();
        twin.returns.pop();
        p.queries.push(twin);
        let guest = p.queries.len() - 1;
        let shared = |a: &Analysis| {
            a.model.tables.iter().any(|t| {
                *t.origin == p.queries[host].id && t.queries.iter().any(|q| *q == "Q_twin")
            })
        };
        assert!(shared(&analyze(&p)), "the twin is served by its original");

        let unhosted = edited(&p, &Edit::SetReturns(host, vec![]));
        let other = (0..p.queries.len()).find(|&i| i != host && i != guest);
        let elsewhere = other.map(|i| {
            let mut returns = p.queries[i].returns.clone();
            returns.reverse();
            edited(&p, &Edit::SetReturns(i, returns))
        });
        let mut inc = IncrementalAnalysis::new();
        let mut last = inc.analyze(&p);
        let steps = [Some(&unhosted), Some(&p), elsewhere.as_ref(), Some(&p)];
        for (step, next) in steps.into_iter().flatten().enumerate() {
            last = inc.reanalyze(next, &last);
            assert_eq!(last, analyze(next), "step {step}");
        }
        assert!(shared(&last));
        assert!(!shared(&inc.reanalyze(&unhosted, &last)));
    }

    #[test]
    fn a_workflow_edit_rebuilds_nothing_and_a_schema_edit_everything() {
        let p = hotel();
        let mut inc = IncrementalAnalysis::new();
        let first = inc.analyze(&p);
        let own = p.queries.len();

        let toggled = edited(&p, &Edit::ToggleEntry(0));
        let second = inc.reanalyze(&toggled, &first);
        assert_eq!(second, analyze(&toggled));
        let r = inc.reused();
        assert_eq!((r.built, r.builds, r.planned, r.estimated), (0, own, 0, 0));
        assert_eq!((r.judged, r.findings), (0, second.model.tables.len()));
        assert!(r.schema_findings);
        assert!(
            std::sync::Arc::ptr_eq(&first.model, &second.model),
            "a workflow edit shares the derived model"
        );

        let mut renamed = toggled.clone();
        renamed.name = "Renamed".into();
        let second = inc.reanalyze(&renamed, &second);
        assert_eq!(second, analyze(&renamed));
        assert_eq!(inc.reused().built, 0);

        let mut counted = renamed.clone();
        counted.entities[0].count = Some(123.0);
        let third = inc.reanalyze(&counted, &second);
        assert_eq!(third, analyze(&counted));
        assert_eq!((inc.reused().built, inc.reused().builds), (own, 0));
        assert_eq!(inc.reused().findings, 0, "a schema edit judges every table");
        assert!(!inc.reused().schema_findings);
    }

    #[test]
    fn duplicate_query_ids_get_no_reuse_of_findings() {
        let mut p = hotel();
        let twin = p.queries[0].clone();
        p.queries.push(twin);
        let mut inc = IncrementalAnalysis::new();
        let first = inc.analyze(&p);
        let toggled = edited(&p, &Edit::ToggleEntry(1));
        let second = inc.reanalyze(&toggled, &first);
        assert_eq!(second, analyze(&toggled));
        assert_eq!(inc.reused().findings, 0);
        assert!(inc.reused().builds > 0);
    }

    #[test]
    fn an_analysis_it_did_not_make_gets_a_full_one() {
        let p = hotel();
        let mut inc = IncrementalAnalysis::new();
        let _first = inc.analyze(&p);
        let foreign = analyze(&p);
        let again = inc.reanalyze(&p, &foreign);
        assert_eq!(again, foreign);
        assert_eq!(inc.reused().builds, 0);
        assert_eq!(inc.reused().plans, 0);
    }
}
