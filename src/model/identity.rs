//! What makes a row unique (MR5), written once for the derivation, the
//! review and the estimates.
//!
//! A table's rows are the instances of its rows' node, multiplied by every
//! to-many step its columns walk through; each of those nodes must be
//! identified by the primary key. A node is identified when the key holds
//! one of its identifiers (its key or a declared `unique` one), or when it
//! is one to-one step away from an identified node (a parent, the other
//! side of a 1:1). MR5 appends only what is still missing, preferring the
//! smallest identifier the table already holds, so no key column is
//! determined by the others.

use super::resolve::{Edge, Graph, NodeId, Reached};

/// The most questions open at once. A question met again while open is
/// cut, but hostile meets or identifiers that lead back to a node along
/// ever longer paths would open new ones without end; a real model opens
/// about two per to-one step of its longest path.
const MAX_OPEN: usize = 256;

impl Graph<'_> {
    /// The prefixes of `paths` that end in a to-many step, first seen
    /// first: each multiplies the rows of a table holding those attributes.
    pub(crate) fn multiplying_prefixes<'a>(
        &self,
        paths: impl IntoIterator<Item = &'a [Edge]>,
    ) -> Vec<Vec<Edge>> {
        let mut out: Vec<Vec<Edge>> = Vec::new();
        for path in paths {
            for (i, e) in path.iter().enumerate() {
                if self.fanout(*e).many && !out.iter().any(|p| p.as_slice() == &path[..=i]) {
                    out.push(path[..=i].to_vec());
                }
            }
        }
        out
    }

    /// The declared keys of the rows and of every node `paths` multiply
    /// through: every attribute that takes part in telling rows apart.
    pub fn grain<'a>(
        &self,
        root: NodeId,
        paths: impl IntoIterator<Item = &'a [Edge]>,
    ) -> Vec<Reached> {
        let mut out: Vec<Reached> = self.key_at(root, &[]);
        for p in self.multiplying_prefixes(paths) {
            for k in self.key_at(root, &p) {
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out
    }

    /// The identifiers of the node at the end of `path` from `root`: its
    /// key first, then the unique ones it declares.
    pub(crate) fn identifiers_at(&self, root: NodeId, at: &[Edge]) -> Vec<Vec<Reached>> {
        let mut out = Vec::new();
        self.each_identifier(root, at, |_, ident| {
            out.push(ident.to_vec());
            false
        });
        out
    }

    /// Calls `f` with each of [`Graph::identifiers_at`] and its position
    /// there, until `f` returns true; whether it did. Nothing is made for
    /// the list: most callers look for one identifier, for every table.
    pub(crate) fn each_identifier(
        &self,
        root: NodeId,
        at: &[Edge],
        mut f: impl FnMut(usize, &[Reached]) -> bool,
    ) -> bool {
        let key = self.key_at_cow(root, at);
        let mut n = 0;
        if !key.is_empty() {
            if f(n, &key) {
                return true;
            }
            n += 1;
        }
        let Some(NodeId::Entity(e)) = self.walk(root, at) else {
            return false;
        };
        let uniques = self.uniques(e);
        // Each unique identifier once, and not again when it is the key.
        let mut met: Vec<Vec<Reached>> = Vec::new();
        for u in uniques {
            let ident: Vec<Reached> = u
                .iter()
                .map(|r| {
                    let mut path = at.to_vec();
                    path.extend_from_slice(&r.path);
                    self.normalize_path(&mut path);
                    Reached { attr: r.attr, path }
                })
                .collect();
            if ident.is_empty() || *ident == *key || met.contains(&ident) {
                continue;
            }
            if f(n, &ident) {
                return true;
            }
            n += 1;
            met.push(ident);
        }
        false
    }

    /// Whether `key` fixes the value of `r`: it is a key column, or an
    /// attribute of a node the key identifies.
    pub fn determined(&self, root: NodeId, key: &[Reached], r: &Reached) -> bool {
        let ask = Ask {
            graph: self,
            root,
            known: key.to_vec(),
            present: &[],
            meets: &[],
        };
        ask.known.contains(r) || Answers::default().identified(&ask, &r.path)
    }

    /// MR5: what to append to `key` so that it identifies the rows of a
    /// table rooted at `root` holding the attributes `present` (key columns
    /// included). Empty when `key` already identifies them. Each node is
    /// identified by the smallest of its identifiers the table already
    /// holds, else by its key (an owner's part by the owner's own best
    /// identifier); nothing determined by the key so far is appended.
    ///
    /// The search adds an identifier per node, nearest the rows first; a
    /// later one can make an earlier one redundant (a room number added
    /// for a room's reservations completes their `unique` (hotel, room,
    /// date), so their own key is no longer needed). Each column added is
    /// then dropped, last first, while the rest still identify the rows:
    /// no column of the result can be left out (issue 39, rule 4).
    pub fn row_key(&self, root: NodeId, key: &[Reached], present: &[&Reached]) -> Vec<Reached> {
        self.row_key_meeting(root, key, present, &[])
    }

    /// The path from `root` one side of a query's `meets` names: `User via
    /// rel1, rel2` (the entity's instance) or `User.username via ...`.
    pub fn resolve_meet(&self, root: NodeId, text: &str) -> Result<Vec<Edge>, String> {
        let mut path = self.resolve(root, &self.meet_reference(text)?)?.path;
        self.normalize_path(&mut path);
        Ok(path)
    }

    /// A side of a `meets` as an attribute reference: one written without
    /// its attribute (`User via owns`) names the entity's first attribute
    /// (`User.username via owns`); one with it stays as written.
    pub fn meet_reference(&self, text: &str) -> Result<String, String> {
        let (head, via) = match text.split_once(" via ") {
            Some((h, v)) => (h.trim(), Some(v)),
            None => (text.trim(), None),
        };
        if head.contains('.') {
            return Ok(text.to_string());
        }
        let node = self.node(head).ok_or_else(|| {
            format!("no entity or relationship `{head}` (write `Entity via rel1, rel2`)")
        })?;
        let Some(first) = self.attributes(node).first() else {
            return Err(format!("`{head}` has no attributes to reach it by"));
        };
        Ok(match via {
            Some(v) => format!("{head}.{} via {v}", first.name),
            None => format!("{head}.{}", first.name),
        })
    }

    /// Both sides of each of `meets` as paths from `root`; the meets that do
    /// not resolve are left out (validation reports them).
    pub fn meet_paths(&self, root: NodeId, meets: &[super::Meet]) -> Vec<(Vec<Edge>, Vec<Edge>)> {
        meets
            .iter()
            .filter_map(|m| {
                let a = self.resolve_meet(root, &m.0).ok()?;
                let b = self.resolve_meet(root, &m.1).ok()?;
                (a != b).then_some((a, b))
            })
            .collect()
    }

    /// [`Graph::row_key`] for a query that states `meets`: pairs of paths
    /// from `root` that reach one instance (the second counts as the
    /// first, so what the key knows of one it knows of the other).
    pub fn row_key_meeting(
        &self,
        root: NodeId,
        key: &[Reached],
        present: &[&Reached],
        meets: &[(Vec<Edge>, Vec<Edge>)],
    ) -> Vec<Reached> {
        let mut out = self.row_key_search(root, key, present, meets);
        if out.len() < 2 {
            // A lone column added is needed: the key so far did not
            // identify the rows.
            return out;
        }
        let mut trial: Vec<Reached> = Vec::with_capacity(key.len() + out.len());
        for i in (0..out.len()).rev() {
            trial.clear();
            trial.extend_from_slice(key);
            trial.extend(
                out.iter()
                    .enumerate()
                    .filter(|&(j, _)| j != i)
                    .map(|(_, r)| r.clone()),
            );
            if self.row_key_search(root, &trial, present, meets).is_empty() {
                out.remove(i);
            }
        }
        out
    }

    /// [`Graph::row_key_meeting`]'s search, before redundant columns are
    /// dropped.
    fn row_key_search(
        &self,
        root: NodeId,
        key: &[Reached],
        present: &[&Reached],
        meets: &[(Vec<Edge>, Vec<Edge>)],
    ) -> Vec<Reached> {
        let prefixes = self.multiplying_prefixes(
            key.iter()
                .chain(present.iter().copied())
                .map(|r| r.path.as_slice()),
        );
        // Most tables hold the declared key of everything they multiply
        // through: nothing to decide then.
        let holds = |at: &[Edge]| self.key_at_all(root, at, |x| key.contains(x));
        if holds(&[]) && prefixes.iter().all(|p| holds(p)) {
            return vec![];
        }
        let mut id = Identity {
            ask: Ask {
                graph: self,
                root,
                known: key.to_vec(),
                present,
                meets,
            },
            answers: Answers::default(),
        };
        let mut needs: Vec<Vec<Edge>> = vec![vec![]];
        needs.extend(prefixes);
        let mut out = Vec::new();
        for at in &needs {
            id.ensure(at, &mut out);
        }
        out
    }
}

/// MR5's search: what the key so far identifies, and what to add.
struct Identity<'g, 'p> {
    ask: Ask<'g, 'p>,
    answers: Answers,
}

/// What the search's questions read.
struct Ask<'g, 'p> {
    graph: &'g Graph<'p>,
    root: NodeId,
    /// The key columns so far.
    known: Vec<Reached>,
    /// The attributes the table holds (borrowed: most are never asked).
    present: &'g [&'g Reached],
    /// Paths stated to meet at one instance (a query's `meets`).
    meets: &'g [(Vec<Edge>, Vec<Edge>)],
}

impl Ask<'_, '_> {
    /// `path` with a stated meet's second path, where it starts so,
    /// replaced by its first: the name identity knows that node by.
    fn met(&self, path: &[Edge]) -> Option<Vec<Edge>> {
        self.meets.iter().find_map(|(first, second)| {
            path.starts_with(second).then(|| {
                let mut out = first.clone();
                out.extend_from_slice(&path[second.len()..]);
                self.graph.normalize_path(&mut out);
                out
            })
        })
    }

    /// Whether the key holds `r`, or `r` by its met name.
    fn holds(&self, r: &Reached) -> bool {
        self.known.contains(r)
            || self
                .met(&r.path)
                .is_some_and(|path| self.known.contains(&Reached { attr: r.attr, path }))
    }
}

/// What the search has decided and is deciding. Its questions are a
/// handful per table, asked for every table: the paths are held end to
/// end in one list each (no list per path) and found by a scan.
///
/// A question met again while it is being decided is a cycle: it answers
/// "no" there, and every "no" decided under that cut leans on the open
/// question it cut. Such a "no" is kept aside (`provisional`) until the
/// question it leans on is decided: a "no" there makes it final, a "yes"
/// anywhere drops it (it may have been a "yes" from elsewhere). Without
/// keeping them, a chain of owned entities is searched again from every
/// prefix, in time exponential in its depth.
#[derive(Default)]
struct Answers {
    /// Whether the node at a path is identified by the key so far.
    memo: Paths,
    memo_values: Vec<bool>,
    /// Nodes whose question is being decided, innermost last.
    open: Paths,
    /// For each open question, the outermost open question its answer so
    /// far leans on (`usize::MAX`: none).
    open_leans: Vec<usize>,
    /// "No"s that lean on an open question, with the outermost one.
    provisional: Paths,
    provisional_leans: Vec<usize>,
}

/// Paths end to end in one list.
#[derive(Default)]
struct Paths {
    edges: Vec<Edge>,
    /// Where each path starts in `edges` (each ends where the next starts).
    starts: Vec<usize>,
}

impl Paths {
    fn get(&self, i: usize) -> &[Edge] {
        let end = self.starts.get(i + 1).copied().unwrap_or(self.edges.len());
        &self.edges[self.starts[i]..end]
    }

    fn position(&self, path: &[Edge]) -> Option<usize> {
        (0..self.starts.len()).find(|&i| self.get(i) == path)
    }

    fn push(&mut self, path: &[Edge]) {
        self.starts.push(self.edges.len());
        self.edges.extend_from_slice(path);
    }

    /// Keeps the first `n` paths.
    fn truncate(&mut self, n: usize) {
        if let Some(&start) = self.starts.get(n) {
            self.edges.truncate(start);
            self.starts.truncate(n);
        }
    }

    /// Removes the last path.
    fn pop(&mut self) {
        if let Some(start) = self.starts.pop() {
            self.edges.truncate(start);
        }
    }

    fn clear(&mut self) {
        self.edges.clear();
        self.starts.clear();
    }
}

impl Answers {
    /// The value of `r` is fixed by the key: it is a key column, or an
    /// attribute of an identified node other than the one at `at`.
    fn knows(&mut self, ask: &Ask, r: &Reached, at: &[Edge]) -> bool {
        ask.holds(r) || (r.path.as_slice() != at && self.identified(ask, &r.path))
    }

    fn identified(&mut self, ask: &Ask, at: &[Edge]) -> bool {
        // The node by the name identity knows it by: a met path by its
        // first side, as often as meets apply (a meet whose first side
        // extends its second would apply forever).
        let mut named: Option<Vec<Edge>> = None;
        for _ in 0..ask.meets.len() {
            match ask.met(named.as_deref().unwrap_or(at)) {
                Some(first) => named = Some(first),
                None => break,
            }
        }
        let at = named.as_deref().unwrap_or(at);
        if let Some(i) = self.memo.position(at) {
            return self.memo_values[i];
        }
        if let Some(i) = self.provisional.position(at) {
            self.lean_on(self.provisional_leans[i]);
            return false;
        }
        if let Some(i) = self.open.position(at) {
            self.lean_on(i);
            return false;
        }
        let me = self.open_leans.len();
        if me >= MAX_OPEN {
            // Cut like a cycle to the outermost question: nothing decided
            // under it is kept before that one is.
            self.lean_on(0);
            return false;
        }
        // The "no"s decided under this question are listed from here on.
        let mark = self.provisional_leans.len();
        self.open.push(at);
        self.open_leans.push(usize::MAX);
        let v = self.identified_now(ask, at);
        self.open.pop();
        let leans = self.open_leans.pop().unwrap_or(usize::MAX);
        if v {
            self.remember(at, true);
            self.provisional.clear();
            self.provisional_leans.clear();
        } else if leans >= me {
            // Leans on nothing still open: final, and so is every "no"
            // decided under it (each leaned on a question now decided).
            self.remember(at, false);
            for i in mark..self.provisional_leans.len() {
                let path = self.provisional.get(i).to_vec();
                self.remember(&path, false);
            }
            self.provisional.truncate(mark);
            self.provisional_leans.truncate(mark);
        } else {
            // Leans on an outer question: so does every "no" under it (a
            // "yes" under it may have dropped them all).
            for l in self.provisional_leans.iter_mut().skip(mark) {
                *l = leans;
            }
            self.provisional.push(at);
            self.provisional_leans.push(leans);
            self.lean_on(leans);
        }
        v
    }

    /// The innermost open question's answer leans on open question `i`.
    fn lean_on(&mut self, i: usize) {
        if let Some(l) = self.open_leans.last_mut() {
            *l = (*l).min(i);
        }
    }

    fn remember(&mut self, at: &[Edge], v: bool) {
        self.memo.push(at);
        self.memo_values.push(v);
    }

    fn identified_now(&mut self, ask: &Ask, at: &[Edge]) -> bool {
        let g = ask.graph;
        if g.each_identifier(ask.root, at, |_, ident| {
            ident.iter().all(|r| self.knows(ask, r, at))
        }) {
            return true;
        }
        // One to-one walk from an identified node nearer the rows.
        for k in (0..at.len()).rev() {
            if g.fanout(at[k]).many {
                break;
            }
            if self.identified(ask, &at[..k]) {
                return true;
            }
        }
        // Or from an identified node further out whose way back is to-one
        // (a relationship instance fixes its ends; a 1:1 partner fixes its
        // partner).
        let further = ask
            .known
            .iter()
            .map(|r| r.path.as_slice())
            .filter(|p| p.len() > at.len() && p.starts_with(at));
        for p in further {
            for k in at.len() + 1..=p.len() {
                let back_to_one = match p[k - 1] {
                    Edge::Enter(..) => true,
                    Edge::Leave(r, end) => !g.fanout(Edge::Enter(r, end)).many,
                };
                if !back_to_one {
                    break;
                }
                if self.identified(ask, &p[..k]) {
                    return true;
                }
            }
        }
        false
    }

    /// Forgets every answer (the key so far grew).
    fn forget(&mut self) {
        self.memo.clear();
        self.memo_values.clear();
        self.provisional.clear();
        self.provisional_leans.clear();
    }
}

impl Identity<'_, '_> {
    fn knows(&mut self, r: &Reached, at: &[Edge]) -> bool {
        self.answers.knows(&self.ask, r, at)
    }

    fn add(&mut self, r: Reached, out: &mut Vec<Reached>) {
        if !self.ask.known.contains(&r) {
            self.ask.known.push(r.clone());
            self.answers.forget();
            out.push(r);
        }
    }

    /// Appends to `out` what identifies the node at `at`.
    /// The recursion follows the key's parts to their owners: as deep as
    /// the chain of owners, which has no cycle (an owner's key is made
    /// with its cycles cut, and with a bounded number of parts).
    fn ensure(&mut self, at: &[Edge], out: &mut Vec<Reached>) {
        if self.answers.identified(&self.ask, at) {
            return;
        }
        let idents = self.ask.graph.identifiers_at(self.ask.root, at);
        // The identifier the table holds with the fewest columns to add
        // (the key on a tie).
        let mut best: Option<Vec<Reached>> = None;
        for ident in &idents {
            let mut missing = Vec::new();
            let mut held = true;
            for r in ident {
                if self.knows(r, at) {
                    continue;
                }
                if !self.ask.present.contains(&r) {
                    held = false;
                    break;
                }
                missing.push(r.clone());
            }
            if held && best.as_ref().is_none_or(|b| missing.len() < b.len()) {
                best = Some(missing);
            }
        }
        if let Some(missing) = best {
            for r in missing {
                self.add(r, out);
            }
            return;
        }
        // None is held: the key, each inherited part through its own node
        // so an owner can be identified by its own best identifier.
        let Some(key) = idents.into_iter().next() else {
            return;
        };
        for r in key {
            if self.knows(&r, at) {
                continue;
            }
            if r.path.as_slice() != at {
                self.ensure(&r.path, out);
                if self.knows(&r, at) {
                    continue;
                }
            }
            self.add(r, out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::resolve::End;

    /// Paths kept end to end come back whole, in order, after truncating
    /// and popping.
    #[test]
    fn paths_end_to_end_keep_each_path_whole() {
        let a = [Edge::Enter(0, End::From)];
        let b = [Edge::Enter(1, End::To), Edge::Leave(1, End::From)];
        let c: [Edge; 0] = [];
        let d = [Edge::Leave(2, End::To)];
        let mut paths = Paths::default();
        for p in [&a[..], &b, &c, &d] {
            paths.push(p);
        }
        assert_eq!(
            (0..4).map(|i| paths.get(i)).collect::<Vec<_>>(),
            [&a[..], &b, &c, &d]
        );
        assert_eq!(paths.position(&d), Some(3));
        assert_eq!(paths.position(&c), Some(2));
        paths.truncate(5);
        assert_eq!(paths.starts.len(), 4);
        paths.truncate(2);
        assert_eq!((paths.get(0), paths.get(1)), (&a[..], &b[..]));
        assert_eq!((paths.starts.len(), paths.edges.len()), (2, 3));
        assert_eq!(paths.position(&d), None);
        paths.push(&d);
        assert_eq!(paths.get(2), &d);
        paths.pop();
        assert_eq!((paths.starts.len(), paths.edges.len()), (2, 3));
        paths.clear();
        assert_eq!(paths.position(&a), None);
    }

    /// MR5 by its rule, for the case where only the rows' node needs
    /// identifying (no to-many step) and nothing but the rows' own
    /// attributes take part (the key so far and the rows' identifiers hold
    /// no attribute of another node): an identifier the key holds whole
    /// leaves nothing to add; else the identifier the table holds with the
    /// fewest columns to add (the key on a tie); else the key. `None`
    /// outside that case.
    fn rows_alone(
        g: &Graph,
        root: NodeId,
        key: &[Reached],
        present: &[&Reached],
    ) -> Option<Vec<Reached>> {
        if key.iter().any(|r| !r.path.is_empty()) {
            return None;
        }
        let mut own = true;
        let mut identified = false;
        // (missing count, identifier position) of the best held one.
        let mut best: Option<(usize, usize)> = None;
        let mut count = 0;
        g.each_identifier(root, &[], |n, ident| {
            count += 1;
            if ident.iter().any(|r| !r.path.is_empty()) {
                own = false;
                return true;
            }
            if ident.iter().all(|r| key.contains(r)) {
                identified = true;
                return true;
            }
            let held = ident
                .iter()
                .all(|r| key.contains(r) || present.contains(&r));
            let missing = ident.iter().filter(|r| !key.contains(r)).count();
            if held && best.is_none_or(|(m, _)| missing < m) {
                best = Some((missing, n));
            }
            false
        });
        if !own {
            return None;
        }
        if identified || count == 0 {
            return Some(vec![]);
        }
        let pick = best.map_or(0, |(_, n)| n);
        let mut out = Vec::new();
        g.each_identifier(root, &[], |n, ident| {
            if n == pick {
                for r in ident {
                    if !key.contains(r) && !out.contains(r) {
                        out.push(r.clone());
                    }
                }
            }
            n == pick
        });
        Some(out)
    }

    /// For the rows' node alone, the search gives what MR5's rule says
    /// (`rows_alone`), for every subset of each query's references taken
    /// as the key so far (the rest returned), on every sample (`unique`
    /// identifiers among them) and on generated projects; the rule's case
    /// is met often, and missed often.
    #[test]
    fn the_search_for_the_rows_alone_follows_the_rule() {
        let mut projects = crate::samples::loaded();
        projects.extend((1..4).map(|seed| crate::model::synthetic::project(60, 120, seed)));
        // Identifiers as large as the key, and larger: ties go to the key.
        let mut uniques = crate::model::synthetic::project(60, 120, 9);
        for (i, e) in uniques.entities.iter_mut().enumerate() {
            e.unique = if i % 2 == 0 {
                vec![vec!["a0".into()]]
            } else {
                vec![vec!["a0".into(), "a1".into()], vec!["a2".into()]]
            };
        }
        projects.push(uniques);
        let (mut taken, mut declined) = (0, 0);
        for p in &projects {
            let g = Graph::new(p);
            for q in &p.queries {
                let Some(root) = g.node(&q.rows) else {
                    continue;
                };
                let mut refs: Vec<Reached> = Vec::new();
                let texts = q
                    .equality
                    .iter()
                    .chain(&q.returns)
                    .chain(q.order.iter().map(|o| &o.attr));
                for t in texts {
                    if let Ok(r) = g.resolve(root, t) {
                        if !refs.contains(&r) {
                            refs.push(r);
                        }
                    }
                }
                // The rows' own identifiers too, so some keys hold one whole.
                g.each_identifier(root, &[], |_, ident| {
                    for r in ident {
                        if !refs.contains(r) {
                            refs.push(r.clone());
                        }
                    }
                    false
                });
                refs.truncate(7);
                let present: Vec<&Reached> = refs.iter().collect();
                for mask in 0u32..(1 << refs.len()) {
                    let key: Vec<Reached> = refs
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0)
                        .map(|(_, r)| r.clone())
                        .collect();
                    let paths = key
                        .iter()
                        .chain(present.iter().copied())
                        .map(|r| r.path.as_slice());
                    if !g.multiplying_prefixes(paths).is_empty() {
                        continue;
                    }
                    // Everything present, or the key and every other
                    // reference only (some identifiers then not held).
                    let some: Vec<&Reached> = refs
                        .iter()
                        .enumerate()
                        .filter(|(i, _)| mask & (1 << i) != 0 || i % 2 == 0)
                        .map(|(_, r)| r)
                        .collect();
                    for present in [&present, &some] {
                        match rows_alone(&g, root, &key, present) {
                            Some(rule) => {
                                taken += 1;
                                let searched = g.row_key(root, &key, present);
                                assert_eq!(searched, rule, "{} {}: key {key:?}", p.name, q.id);
                            }
                            None => declined += 1,
                        }
                    }
                }
            }
        }
        assert!(
            taken > 1_000 && declined > 100,
            "{taken} taken, {declined} declined"
        );
    }
}
