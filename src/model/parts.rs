//! Short lists kept together: one allocation, part after part ([`Parts`],
//! a fixed number of lists; [`Groups`], numbered groups of numbers).
//!
//! A large project keeps tens of thousands of small groups of lists (a
//! query's resolved references, a table's findings rule group by rule
//! group) for as long as it is open. Kept as one exact list with where
//! each part ends, a group costs one allocation instead of one per list,
//! and nothing for a group whose lists are all empty.

/// `N` lists kept as one.
#[derive(Clone, Debug)]
pub(crate) struct Parts<T, const N: usize> {
    all: Box<[T]>,
    /// Where each part ends in `all`.
    ends: [u32; N],
}

impl<T, const N: usize> Default for Parts<T, N> {
    fn default() -> Self {
        Parts {
            all: Box::default(),
            ends: [0; N],
        }
    }
}

impl<T, const N: usize> Parts<T, N> {
    /// Starts the parts: push the first part's items, then
    /// [`PartsBuilder::end_part`], and so on.
    pub(crate) fn builder(capacity: usize) -> PartsBuilder<T, N> {
        PartsBuilder {
            all: Vec::with_capacity(capacity),
            ends: [0; N],
            done: 0,
        }
    }

    /// Part `k` (empty past the last).
    pub(crate) fn part(&self, k: usize) -> &[T] {
        let end = |k: usize| self.ends.get(k).map_or(0, |&e| e as usize);
        let from = k.checked_sub(1).map_or(0, end);
        self.all.get(from..end(k)).unwrap_or_default()
    }
}

/// The parts being filled, in order.
pub(crate) struct PartsBuilder<T, const N: usize> {
    all: Vec<T>,
    ends: [u32; N],
    done: usize,
}

impl<T, const N: usize> PartsBuilder<T, N> {
    /// The list the current part's items are pushed to.
    pub(crate) fn items(&mut self) -> &mut Vec<T> {
        &mut self.all
    }

    /// Ends the current part: what was pushed since the last end is it.
    pub(crate) fn end_part(&mut self) {
        if let Some(end) = self.ends.get_mut(self.done) {
            *end = u32::try_from(self.all.len()).unwrap_or(u32::MAX);
            self.done += 1;
        }
    }

    /// The parts, the ones not ended empty; in an allocation of their
    /// length.
    pub(crate) fn finish(mut self) -> Parts<T, N> {
        let last = self.ends[..self.done].last().copied().unwrap_or(0);
        for end in &mut self.ends[self.done..] {
            *end = last;
        }
        // Items pushed after the last end belong to no part.
        self.all.truncate(last as usize);
        Parts {
            all: self.all.into_boxed_slice(),
            ends: self.ends,
        }
    }
}

/// Numbered groups of items (the plans reading each table, the drafts of
/// each rows' node, the parents of each entity) as one list: counted, then
/// placed, so a group costs no allocation of its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Groups<T = usize> {
    /// Group `g` is `items[starts[g]..starts[g + 1]]`.
    starts: Vec<usize>,
    items: Vec<T>,
}

impl<T> Default for Groups<T> {
    fn default() -> Self {
        Groups {
            starts: Vec::new(),
            items: Vec::new(),
        }
    }
}

impl<T: Copy + Default> Groups<T> {
    /// `groups` groups holding each `(group, item)` of `members` in its
    /// order; a member of a group at or past `groups` is left out.
    /// `members` is walked twice.
    pub(crate) fn new<I>(groups: usize, members: I) -> Groups<T>
    where
        I: Iterator<Item = (usize, T)> + Clone,
    {
        let mut starts = vec![0usize; groups + 1];
        for (g, _) in members.clone() {
            if let Some(s) = starts.get_mut(g + 1) {
                *s += 1;
            }
        }
        for g in 1..starts.len() {
            starts[g] += starts[g - 1];
        }
        let mut next = starts.clone();
        let mut items = vec![T::default(); starts[groups]];
        for (g, item) in members {
            if let Some(at) = next.get_mut(g).filter(|_| g < groups) {
                items[*at] = item;
                *at += 1;
            }
        }
        Groups { starts, items }
    }

    /// Group `g`'s items (none for a group it does not have).
    pub(crate) fn group(&self, g: usize) -> &[T] {
        match (self.starts.get(g), self.starts.get(g + 1)) {
            (Some(&from), Some(&to)) => self.items.get(from..to).unwrap_or(&[]),
            _ => &[],
        }
    }

    /// How many groups it has.
    pub(crate) fn len(&self) -> usize {
        self.starts.len().saturating_sub(1)
    }

    /// The groups in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = &[T]> {
        (0..self.len()).map(|g| self.group(g))
    }
}

#[cfg(test)]
mod tests {
    use super::{Groups, Parts};

    /// Each group holds its members in their order; members of groups it
    /// does not have are left out.
    #[test]
    fn groups_hold_their_members_in_order() {
        let members = [(2, 10), (0, 11), (2, 12), (5, 13), (0, 14)];
        let g = Groups::new(3, members.iter().copied());
        assert_eq!(g.len(), 3);
        assert_eq!(g.group(0), [11, 14]);
        assert!(g.group(1).is_empty());
        assert_eq!(g.group(2), [10, 12]);
        assert!(g.group(3).is_empty());
        assert_eq!(g.iter().map(<[usize]>::len).collect::<Vec<_>>(), [2, 0, 2]);
        assert!(Groups::<usize>::default().group(0).is_empty());
    }

    #[test]
    fn parts_come_back_as_pushed() {
        let mut b = Parts::<u8, 4>::builder(5);
        b.items().extend([1, 2]);
        b.end_part();
        b.end_part();
        b.items().push(3);
        b.end_part();
        b.items().extend([4, 5]);
        b.end_part();
        let p = b.finish();
        assert_eq!(p.part(0), [1, 2]);
        assert!(p.part(1).is_empty());
        assert_eq!(p.part(2), [3]);
        assert_eq!(p.part(3), [4, 5]);
        assert!(p.part(4).is_empty());
    }

    #[test]
    fn parts_not_ended_are_empty() {
        let mut b = Parts::<u8, 3>::builder(0);
        b.items().push(1);
        b.end_part();
        b.items().push(9);
        let p = b.finish();
        assert_eq!(p.part(0), [1]);
        assert!(p.part(1).is_empty() && p.part(2).is_empty());
        assert!(Parts::<u8, 2>::default().part(0).is_empty());
    }
}
