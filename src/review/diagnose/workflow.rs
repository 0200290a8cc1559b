//! The application workflow: can each query get its inputs, does every
//! query have a table, does every table serve a query?

use super::{finding, Ctx, Diagnostic, Subject, Words};
use crate::derive::Access;
use crate::model::resolve::Graph;
use crate::model::{CqlType, Project};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::fmt::Write as _;

/// The attribute name a reference ends at: `hotel_id` for
/// `Room.hotel_id via has_rooms`. Reads the text as
/// [`AttrRef::parse`](crate::model::resolve::AttrRef::parse)
/// does, without allocating; a malformed reference is its own name.
fn base(reference: &str) -> &str {
    let text = reference.trim();
    if !text.bytes().any(|b| b == b'.' || b == b' ') {
        return text;
    }
    // `split_once(" via ")` without building a substring searcher.
    let via = text
        .bytes()
        .enumerate()
        .find(|&(i, b)| b == b' ' && text.as_bytes()[i + 1..].starts_with(b"via "))
        .map(|(i, _)| (&text[..i], &text[i + 5..]));
    let head = match via {
        Some((h, via)) => {
            if via.split(',').any(|r| r.trim().is_empty()) {
                return text;
            }
            h.trim()
        }
        None => text,
    };
    let (owner_empty, attr) = match head.split_once('.') {
        Some((o, a)) => (o.trim().is_empty(), a.trim()),
        None => (false, head),
    };
    if attr.is_empty() || owner_empty {
        text
    } else {
        attr
    }
}

/// Whether `p` states a workflow: without one the input rule does not run
/// (one `no-workflow` finding instead).
pub(crate) fn states_workflow(p: &Project) -> bool {
    !(p.workflow.entry.is_empty() && p.workflow.transitions.is_empty())
}

/// The workflow's rules but the input gaps: those come after these
/// ([`input_gaps`]).
pub(super) fn check(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    tables(ctx, out);
    let p = ctx.project;
    if !states_workflow(p) && !p.queries.is_empty() {
        out.push(ctx.diag(
            "no-workflow",
            Subject::Project,
            "The project states no workflow, so nothing checks that each query's search values are known when the application runs it.".into(),
            "List the entry queries and the transitions between queries, with the attributes each feeds to the next.".into(),
        ));
    }
}

/// The input-gap rule's findings (none when the project states no
/// workflow: [`check`] reports that instead), of the queries `only` marks
/// (by position; all without it). They read the project alone.
pub(crate) fn input_gaps(graph: &Graph, only: Option<&[bool]>) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    if states_workflow(graph.project) {
        inputs(graph, only, &mut out);
    }
    out
}

fn tables(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    // One pass over the plans: does some plan answer from each table?
    let mut answers = vec![false; ctx.model.tables.len()];
    for plan in &ctx.model.plans {
        match plan.table {
            None => {
                let why = plan.access.reason().unwrap_or("no table serves this query");
                out.push(
                    ctx.diag(
                        "query-without-table",
                        Subject::Query(plan.query.clone()),
                        format!(
                            "{} has no table ({why}): the application has no way to answer it.",
                            plan.query
                        ),
                        "Let the query have its own table, or serve it from a table that holds its rows."
                            .into(),
                    ),
                );
            }
            Some(i) => {
                if let Some(a) = answers.get_mut(i) {
                    *a |= !matches!(plan.access, Access::Impossible(_));
                }
            }
        }
    }
    for (t, _) in ctx.model.tables.iter().zip(&answers).filter(|(_, a)| !**a) {
        out.push(ctx.diag(
            "table-serves-no-query",
            Subject::Table(t.name.clone()),
            format!(
                "{} answers none of its queries ({}), yet every write of its rows still pays for it.",
                t.name,
                t.queries.join(", ")
            ),
            "Drop the table or change its key so that its queries can read it.".into(),
        ));
    }
}

/// The workflow as a graph over the queries, with the attribute names
/// (interned by their base name) each query knows.
struct Flow {
    /// Per query, its node (the first query with its id).
    node: Vec<usize>,
    /// Per query, the interned names of its equality attributes.
    equality: Vec<Vec<u32>>,
    /// Transitions into a query, grouped by node: (index in the project's
    /// transitions, from node, feeds); `in_start[n]..in_start[n + 1]`.
    edges: Vec<(usize, Option<usize>, Vec<u32>)>,
    in_start: Vec<usize>,
    /// Bitsets of `words` words per node: the attribute names known after
    /// the query ran on some path from an entry (its search values and
    /// returned attributes, every preceding query's, and what transitions
    /// feed).
    after: Vec<u64>,
    words: usize,
}

fn set(bits: &mut [u64], i: u32) {
    bits[i as usize / 64] |= 1 << (i % 64);
}

fn has(bits: &[u64], i: u32) -> bool {
    bits[i as usize / 64] & (1 << (i % 64)) != 0
}

impl Flow {
    fn new<'p>(p: &'p Project) -> Flow {
        let refs = p
            .queries
            .iter()
            .map(|q| q.equality.len() + q.returns.len() + 1)
            .sum::<usize>();
        let mut names: HashMap<&'p str, u32> =
            HashMap::with_capacity_and_hasher(refs, rustc_hash::FxBuildHasher);
        let mut intern = |r: &'p str| -> u32 {
            let n = names.len() as u32;
            *names.entry(base(r)).or_insert(n)
        };
        let mut ids: HashMap<&str, usize> =
            HashMap::with_capacity_and_hasher(p.queries.len(), rustc_hash::FxBuildHasher);
        let mut node = Vec::with_capacity(p.queries.len());
        let mut own: Vec<(usize, u32)> = Vec::with_capacity(refs);
        let mut equality = Vec::with_capacity(p.queries.len());
        for q in &p.queries {
            let n = ids.len();
            let n = *ids.entry(q.id.as_str()).or_insert(n);
            node.push(n);
            let eq: Vec<u32> = q.equality.iter().map(|a| intern(a)).collect();
            own.extend(eq.iter().map(|&i| (n, i)));
            equality.push(eq);
            own.extend(q.returns.iter().map(|a| (n, intern(a))));
            if let Some(r) = &q.range {
                own.push((n, intern(&r.attr)));
            }
        }
        let nodes = ids.len();
        // (index, to, feeds), grouped by `to` in the project's order.
        let (raw, in_start) = group(
            nodes,
            p.workflow
                .transitions
                .iter()
                .enumerate()
                .filter_map(|(i, t)| {
                    let to = *ids.get(t.to.as_str())?;
                    let feeds: Vec<u32> = t.feeds.iter().map(|f| intern(f)).collect();
                    Some((to, (i, to, feeds)))
                }),
        );
        let words = names.len().div_ceil(64).max(1);
        let mut after = vec![0u64; nodes * words];
        for (n, i) in own {
            set(&mut after[n * words..(n + 1) * words], i);
        }
        let mut outgoing: Vec<(usize, usize)> = Vec::with_capacity(raw.len());
        let mut edges = Vec::with_capacity(raw.len());
        for (i, to, feeds) in raw {
            for &f in &feeds {
                set(&mut after[to * words..(to + 1) * words], f);
            }
            let from = ids.get(p.workflow.transitions[i].from.as_str()).copied();
            if let Some(f) = from {
                outgoing.push((f, to));
            }
            edges.push((i, from, feeds));
        }
        outgoing.sort_unstable();
        outgoing.dedup();
        let (targets, out_start) = group(nodes, outgoing.into_iter());
        // Least fixed point: after(q) = own(q) ∪ ⋃ over transitions into q
        // of (after(from) ∪ feeds), propagated along the transitions.
        let mut queued = vec![true; nodes];
        let mut work: Vec<usize> = (0..nodes).rev().collect();
        while let Some(a) = work.pop() {
            queued[a] = false;
            for &b in &targets[out_start[a]..out_start[a + 1]] {
                if a == b {
                    continue;
                }
                let mut changed = false;
                for w in 0..words {
                    let src = after[a * words + w];
                    let dst = &mut after[b * words + w];
                    changed |= src & !*dst != 0;
                    *dst |= src;
                }
                if changed && !queued[b] {
                    queued[b] = true;
                    work.push(b);
                }
            }
        }
        Flow {
            node,
            equality,
            edges,
            in_start,
            after,
            words,
        }
    }

    /// Per search attribute of query `qi`, whether it is known before the
    /// query runs.
    fn supplied(&self, p: &Project, qi: usize) -> Vec<bool> {
        let mut known = Vec::new();
        self.before(qi, &mut known);
        debug_assert_eq!(self.equality[qi].len(), p.queries[qi].equality.len());
        self.equality[qi].iter().map(|&i| has(&known, i)).collect()
    }

    /// The transitions into query `qi`: (index, from node, feeds).
    fn incoming(&self, qi: usize) -> &[(usize, Option<usize>, Vec<u32>)] {
        let n = self.node[qi];
        &self.edges[self.in_start[n]..self.in_start[n + 1]]
    }

    /// Attribute names known when query `qi` starts: what the transitions
    /// into it bring.
    fn before(&self, qi: usize, known: &mut Vec<u64>) {
        known.clear();
        known.resize(self.words, 0);
        for (_, from, feeds) in self.incoming(qi) {
            if let Some(f) = from {
                let row = &self.after[f * self.words..(f + 1) * self.words];
                for (k, r) in known.iter_mut().zip(row) {
                    *k |= r;
                }
            }
            for &i in feeds {
                set(known, i);
            }
        }
    }
}

/// The type of a reference from a query's rows, if it resolves.
fn type_of(graph: &Graph, rows: &str, reference: &str) -> Option<CqlType> {
    let root = graph.node(rows)?;
    let r = graph.resolve(root, reference).ok()?;
    Some(graph.attr(r.attr).ty.clone())
}

/// The workflow's transitions by the query they lead into, for walking
/// them backwards from a query.
struct Transitions<'p> {
    p: &'p Project,
    /// Per query, its node (the first query with its id).
    node: Vec<usize>,
    /// The queries at each node (more than one only under duplicate ids):
    /// `queries[query_start[n]..query_start[n + 1]]`.
    queries: Vec<usize>,
    query_start: Vec<usize>,
    /// Transitions into each node, in the project's order: (index in the
    /// project's transitions, from node); `edges[in_start[n]..in_start[n + 1]]`.
    edges: Vec<(usize, Option<usize>)>,
    in_start: Vec<usize>,
}

impl<'p> Transitions<'p> {
    fn new(p: &'p Project) -> Transitions<'p> {
        let mut ids: HashMap<&str, usize> =
            HashMap::with_capacity_and_hasher(p.queries.len(), rustc_hash::FxBuildHasher);
        let node: Vec<usize> = p
            .queries
            .iter()
            .map(|q| {
                let n = ids.len();
                *ids.entry(q.id.as_str()).or_insert(n)
            })
            .collect();
        let nodes = ids.len();
        let (queries, query_start) = group(nodes, node.iter().enumerate().map(|(qi, &n)| (n, qi)));
        let (edges, in_start) = group(
            nodes,
            p.workflow
                .transitions
                .iter()
                .enumerate()
                .filter_map(|(i, t)| {
                    let to = *ids.get(t.to.as_str())?;
                    Some((to, (i, ids.get(t.from.as_str()).copied())))
                }),
        );
        Transitions {
            p,
            node,
            queries,
            query_start,
            edges,
            in_start,
        }
    }

    fn leading_to(&self, n: usize) -> &[(usize, Option<usize>)] {
        &self.edges[self.in_start[n]..self.in_start[n + 1]]
    }

    /// The transitions into query `qi`.
    fn incoming(&self, qi: usize) -> &[(usize, Option<usize>)] {
        self.leading_to(self.node[qi])
    }

    /// The base names a node's queries know once run: their search values
    /// and returned attributes.
    fn own(&self, n: usize) -> impl Iterator<Item = &'p str> + '_ {
        self.queries[self.query_start[n]..self.query_start[n + 1]]
            .iter()
            .flat_map(|&qi| {
                let q = &self.p.queries[qi];
                q.equality
                    .iter()
                    .chain(&q.returns)
                    .map(|a| base(a))
                    .chain(q.range.as_ref().map(|r| base(&r.attr)))
            })
    }
}

/// Items keyed by a node, grouped by node in their order: the items and
/// where each node's run starts (`start[n]..start[n + 1]`).
fn group<T>(nodes: usize, items: impl Iterator<Item = (usize, T)>) -> (Vec<T>, Vec<usize>) {
    let mut keyed: Vec<(usize, T)> = items.collect();
    keyed.sort_by_key(|e| e.0);
    let mut start = vec![0; nodes + 1];
    for (n, _) in &keyed {
        start[n + 1] += 1;
    }
    for i in 0..nodes {
        start[i + 1] += start[i];
    }
    (keyed.into_iter().map(|(_, t)| t).collect(), start)
}

/// Which of a query's search attributes the workflow supplies before it
/// runs. Walks the transitions backwards from the query, stopping once
/// every name is found: workflows are shallow, so this reads a few
/// queries per query. A deep workflow (long chains searched in vain) runs
/// out of the walk's budget and switches to [`Flow`], which computes what
/// every query knows at once, at a cost of queries × names.
struct Known<'p> {
    transitions: Transitions<'p>,
    /// Per node, the walk that last visited it.
    seen: Vec<u32>,
    walk: u32,
    stack: Vec<usize>,
    /// Node visits left before the switch to `flow`.
    budget: usize,
    flow: Option<Flow>,
}

impl<'p> Known<'p> {
    fn new(p: &'p Project) -> Known<'p> {
        let transitions = Transitions::new(p);
        let nodes = transitions.query_start.len() - 1;
        Known {
            seen: vec![0; nodes],
            walk: 0,
            stack: Vec::new(),
            budget: 64 * nodes + 1024,
            flow: None,
            transitions,
        }
    }

    /// Per search attribute of query `qi`, whether some path from an entry
    /// supplies it (a preceding query's search value or returned
    /// attribute, or a transition's feed).
    fn supplied(&mut self, qi: usize) -> Vec<bool> {
        if let Some(flow) = &self.flow {
            return flow.supplied(self.transitions.p, qi);
        }
        if let Some(found) = self.walk_back(qi) {
            return found;
        }
        let flow = Flow::new(self.transitions.p);
        let found = flow.supplied(self.transitions.p, qi);
        self.flow = Some(flow);
        found
    }

    /// `None` when the budget runs out.
    fn walk_back(&mut self, qi: usize) -> Option<Vec<bool>> {
        let t = &self.transitions;
        let names: Vec<&str> = t.p.queries[qi].equality.iter().map(|a| base(a)).collect();
        let mut found = vec![false; names.len()];
        let mut left = names.len();
        let mark = |name: &str, found: &mut [bool], left: &mut usize| {
            for (f, n) in found.iter_mut().zip(&names) {
                if !*f && *n == name {
                    *f = true;
                    *left -= 1;
                }
            }
        };
        self.walk += 1;
        self.stack.clear();
        self.stack.push(t.node[qi]);
        // The query's own node is not known before it runs unless a cycle
        // leads back to it, so it is marked only when reached.
        while let Some(n) = self.stack.pop() {
            for &(ti, from) in t.leading_to(n) {
                for f in &t.p.workflow.transitions[ti].feeds {
                    mark(base(f), &mut found, &mut left);
                }
                let Some(m) = from else { continue };
                if self.seen[m] == self.walk {
                    continue;
                }
                self.seen[m] = self.walk;
                self.budget = self.budget.checked_sub(1)?;
                for name in t.own(m) {
                    mark(name, &mut found, &mut left);
                }
                self.stack.push(m);
            }
            if left == 0 {
                break;
            }
        }
        Some(found)
    }
}

/// Equality inputs are what the workflow must supply; range bounds are
/// free parameters the user picks (a date range) and are not checked.
fn inputs(graph: &Graph, only: Option<&[bool]>, out: &mut Vec<Diagnostic>) {
    let p = graph.project;
    // At most one finding per query: sized once, as findings are large.
    out.reserve(p.queries.len());
    let mut known = Known::new(p);
    let entry: HashSet<&str> = p
        .workflow
        .entry
        .iter()
        .map(std::string::String::as_str)
        .collect();
    for (qi, q) in p.queries.iter().enumerate() {
        if only.is_some_and(|o| !o.get(qi).copied().unwrap_or(true)) {
            continue;
        }
        if entry.contains(q.id.as_str()) || q.equality.is_empty() {
            continue;
        }
        if known.transitions.incoming(qi).is_empty() {
            // Worded when shown, like the gap below: thousands on large
            // projects.
            let id = graph.query_name(qi);
            let words = Words::lazy(
                (id.clone(), q.equality.join(", ")),
                |(id, searched), m| {
                    let _ = write!(m, "{id} is neither an entry point nor reached from another query, so nothing in the application supplies {searched}.");
                },
                |(id, _), f| {
                    let _ = write!(f, "Add {id} to the entry points, or a transition into it that feeds its search attributes.");
                },
            );
            out.push(finding("workflow-input-gap", Subject::Query(id), words));
            continue;
        }
        let supplied = known.supplied(qi);
        let mut missing: Vec<&String> = q
            .equality
            .iter()
            .zip(&supplied)
            .filter(|(_, &s)| !s)
            .map(|(a, _)| a)
            .collect();
        if missing.is_empty() {
            continue;
        }
        // A declared feed whose name matches no search attribute may carry
        // its value into a differently named one of the same type (a
        // chosen `date` feeding `start_date`).
        for &(ti, _) in known.transitions.incoming(qi) {
            let t = &p.workflow.transitions[ti];
            let Some(from) = graph.query(&t.from) else {
                continue;
            };
            for f in &t.feeds {
                let name = base(f);
                if q.equality.iter().any(|a| base(a) == name) {
                    continue;
                }
                let ft = type_of(graph, &from.rows, f);
                if let Some(i) = missing
                    .iter()
                    .position(|m| ft.is_some() && type_of(graph, &q.rows, m) == ft)
                {
                    missing.remove(i);
                }
            }
        }
        if !missing.is_empty() {
            let list: Vec<&str> = missing.iter().map(|s| s.as_str()).collect();
            let id = graph.query_name(qi);
            let words = Words::lazy(
                (id.clone(), list.join(", "), list.len() == 1),
                |(id, list, one), m| {
                    let them = if *one { "it" } else { "them" };
                    let _ = write!(m, "{id} searches by {list} but no entry point or preceding query provides {them}, so the application cannot run it as designed.");
                },
                |(id, list, _), f| {
                    let _ = write!(f, "Feed {list} from a preceding query (a transition's feeds), return it from one, or make {id} an entry point.");
                },
            );
            out.push(finding("workflow-input-gap", Subject::Query(id), words));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{base, Flow, Known};
    use crate::model::resolve::AttrRef;
    use crate::model::{Project, Query, Range, RangeOp, Transition};

    /// A project of `n` queries over a small pool of names, with random
    /// transitions: cycles, self loops, duplicate query ids, ends naming
    /// no query, feeds.
    fn random_workflow(n: usize, edges: usize, seed: u64) -> Project {
        let mut state = seed.wrapping_mul(6_364_136_223_846_793_005) | 1;
        let mut next = |m: usize| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            ((state >> 33) as usize) % m
        };
        let names = ["a", "b", "c", "d", "E.e", "E.f via r", "g", "h"];
        let mut p = Project::empty("w");
        for i in 0..n {
            let mut pick = |k: usize| -> Vec<String> {
                (0..k)
                    .map(|_| names[next(names.len())].to_string())
                    .collect()
            };
            let equality = pick(1 + i % 3);
            let returns = pick(i % 2);
            let id = if i % 7 == 6 {
                format!("Q{}", i - 1)
            } else {
                format!("Q{i}")
            };
            p.queries.push(crate::model::Shared::new(Query {
                id,
                text: String::new(),
                rows: "E".into(),
                equality,
                range: (i % 5 == 0).then(|| Range {
                    attr: "h".into(),
                    op: RangeOp::Gt,
                }),
                calendar: vec![],
                order: vec![],
                limit: None,
                returns,
                consumes: false,
                written_by_job: false,
                constants: vec![],
                aggregates: vec![],
                group: vec![],
                window: None,
                meets: vec![],
                load: None,
                consistency: None,
            }));
        }
        for _ in 0..edges {
            let end = |k: usize| {
                if k == n {
                    "nowhere".to_string()
                } else {
                    format!("Q{k}")
                }
            };
            let from = end(next(n + 1));
            let to = end(next(n + 1));
            let feeds = (0..next(2))
                .map(|_| names[next(names.len())].to_string())
                .collect();
            p.workflow.transitions.push(Transition { from, to, feeds });
        }
        p
    }

    /// Walking the transitions back from each query finds what the fixed
    /// point over the whole workflow finds, and running out of budget
    /// half-way changes nothing.
    #[test]
    fn the_walk_back_agrees_with_the_fixed_point() {
        for seed in 0..200 {
            let n = 2 + (seed as usize % 12);
            let p = random_workflow(n, (seed as usize * 7) % (3 * n), seed);
            let flow = Flow::new(&p);
            let mut walk = Known::new(&p);
            let mut short = Known::new(&p);
            short.budget = n / 2;
            for qi in 0..p.queries.len() {
                let want = flow.supplied(&p, qi);
                assert_eq!(
                    walk.walk_back(qi),
                    Some(want.clone()),
                    "seed {seed} query {qi}"
                );
                assert_eq!(short.supplied(qi), want, "seed {seed} query {qi}, budget");
            }
        }
    }

    #[test]
    fn base_reads_references_as_attr_ref_does() {
        for text in [
            "hotel_id",
            "  hotel_id ",
            "Room.hotel_id",
            "Room.hotel_id via has_rooms",
            "Room . hotel_id  via  a, b",
            "Room.hotel_id via ",
            "Room.hotel_id via a,,b",
            ".x",
            "Room.",
            "a via b",
            "avia b",
            "",
            "x.y.z",
        ] {
            let want = AttrRef::parse(text).map_or_else(|_| text.trim().to_string(), |r| r.attr);
            assert_eq!(base(text), want, "{text:?}");
        }
    }
}
