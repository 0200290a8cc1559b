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
use rustc_hash::FxHashMap as HashMap;

/// How far the search for a determining node goes: relationship paths in
/// real models are short, and a bound keeps cycles finite.
const MAX_DEPTH: usize = 8;

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
        let mut id = Identity {
            graph: self,
            root,
            known: key.to_vec(),
            present: &[],
            memo: HashMap::default(),
            open: Vec::new(),
        };
        id.known.contains(r) || id.identified(&r.path, 0)
    }

    /// MR5: what to append to `key` so that it identifies the rows of a
    /// table rooted at `root` holding the attributes `present` (key columns
    /// included). Empty when `key` already identifies them. Each node is
    /// identified by the smallest of its identifiers the table already
    /// holds, else by its key (an owner's part by the owner's own best
    /// identifier); nothing determined by the key so far is appended.
    pub fn row_key(&self, root: NodeId, key: &[Reached], present: &[&Reached]) -> Vec<Reached> {
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
            graph: self,
            root,
            known: key.to_vec(),
            present,
            memo: HashMap::default(),
            open: Vec::new(),
        };
        let mut needs: Vec<Vec<Edge>> = vec![vec![]];
        needs.extend(prefixes);
        let mut out = Vec::new();
        for at in &needs {
            id.ensure(at, &mut out, 0);
        }
        out
    }
}

struct Identity<'g, 'p> {
    graph: &'g Graph<'p>,
    root: NodeId,
    /// The key columns so far.
    known: Vec<Reached>,
    /// The attributes the table holds (borrowed: most are never asked).
    present: &'g [&'g Reached],
    /// Whether the node at a path is identified by `known`.
    memo: HashMap<Vec<Edge>, bool>,
    /// Nodes whose question is being decided, innermost last.
    open: Vec<Vec<Edge>>,
}

impl Identity<'_, '_> {
    fn identifiers(&self, at: &[Edge]) -> Vec<Vec<Reached>> {
        self.graph.identifiers_at(self.root, at)
    }

    /// The value of `r` is fixed by the key: it is a key column, or an
    /// attribute of an identified node other than the one at `at`.
    fn knows(&mut self, r: &Reached, at: &[Edge], depth: usize) -> bool {
        self.known.contains(r) || (r.path.as_slice() != at && self.identified(&r.path, depth + 1))
    }

    fn identified(&mut self, at: &[Edge], depth: usize) -> bool {
        if depth > MAX_DEPTH {
            return false;
        }
        if let Some(&v) = self.memo.get(at) {
            return v;
        }
        // A cycle back to a node being decided proves nothing; a "no"
        // reached under such a cut may be a "yes" from elsewhere, so only
        // answers decided outside any open question are kept.
        if self.open.iter().any(|o| o.as_slice() == at) {
            return false;
        }
        self.open.push(at.to_vec());
        let v = self.identified_now(at, depth);
        self.open.pop();
        if v || self.open.is_empty() {
            self.memo.insert(at.to_vec(), v);
        }
        v
    }

    fn identified_now(&mut self, at: &[Edge], depth: usize) -> bool {
        let g = self.graph;
        if g.each_identifier(self.root, at, |_, ident| {
            ident.iter().all(|r| self.knows(r, at, depth))
        }) {
            return true;
        }
        // One to-one walk from an identified node nearer the rows.
        for k in (0..at.len()).rev() {
            if g.fanout(at[k]).many {
                break;
            }
            if self.identified(&at[..k], depth + 1) {
                return true;
            }
        }
        // Or from an identified node further out whose way back is to-one
        // (a relationship instance fixes its ends; a 1:1 partner fixes its
        // partner).
        let further: Vec<Vec<Edge>> = self
            .known
            .iter()
            .filter(|r| r.path.len() > at.len() && r.path.starts_with(at))
            .map(|r| r.path.clone())
            .collect();
        for p in further {
            for k in at.len() + 1..=p.len() {
                let back_to_one = match p[k - 1] {
                    Edge::Enter(..) => true,
                    Edge::Leave(r, end) => !g.fanout(Edge::Enter(r, end)).many,
                };
                if !back_to_one {
                    break;
                }
                if self.identified(&p[..k], depth + 1) {
                    return true;
                }
            }
        }
        false
    }

    fn add(&mut self, r: Reached, out: &mut Vec<Reached>) {
        if !self.known.contains(&r) {
            self.known.push(r.clone());
            self.memo.clear();
            out.push(r);
        }
    }

    /// Appends to `out` what identifies the node at `at`.
    fn ensure(&mut self, at: &[Edge], out: &mut Vec<Reached>, depth: usize) {
        if depth > MAX_DEPTH || self.identified(at, 0) {
            return;
        }
        let idents = self.identifiers(at);
        // The identifier the table holds with the fewest columns to add
        // (the key on a tie).
        let mut best: Option<Vec<Reached>> = None;
        for ident in &idents {
            let mut missing = Vec::new();
            let mut held = true;
            for r in ident {
                if self.knows(r, at, 0) {
                    continue;
                }
                if !self.present.contains(&r) {
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
            if self.knows(&r, at, 0) {
                continue;
            }
            if r.path.as_slice() != at {
                self.ensure(&r.path.clone(), out, depth + 1);
                if self.knows(&r, at, 0) {
                    continue;
                }
            }
            self.add(r, out);
        }
    }
}
