//! Positions of a list's items by name (queries by id, entities by name),
//! the first in file order for a name several items share. The index holds
//! positions, not the names: it borrows nothing, so it can be made lazily
//! inside a graph and kept across analyses of an unchanged list.

use hashbrown::HashTable;
use std::hash::BuildHasher;

fn hash(name: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(name)
}

pub(crate) struct NameIndex(HashTable<usize>);

impl NameIndex {
    /// The index of `len` items whose names `name` gives.
    pub(crate) fn new<'a>(len: usize, name: impl Fn(usize) -> &'a str) -> NameIndex {
        let mut table = HashTable::with_capacity(len);
        for i in 0..len {
            let key = name(i);
            let h = hash(key);
            if table.find(h, |&j| name(j) == key).is_none() {
                table.insert_unique(h, i, |&j| hash(name(j)));
            }
        }
        NameIndex(table)
    }

    /// The first position whose name is `want`; `name` must be the
    /// function the index was made with, over the same items.
    pub(crate) fn get<'a>(&self, want: &str, name: impl Fn(usize) -> &'a str) -> Option<usize> {
        self.0.find(hash(want), |&j| name(j) == want).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_first_item_of_each_name() {
        let names = ["b", "a", "b", "c", "a"];
        let index = NameIndex::new(names.len(), |i| names[i]);
        let get = |n: &str| index.get(n, |i| names[i]);
        assert_eq!(get("a"), Some(1));
        assert_eq!(get("b"), Some(0));
        assert_eq!(get("c"), Some(3));
        assert_eq!(get("d"), None);
        assert_eq!(get(""), None);
    }

    #[test]
    fn many_items_each_found_at_its_position() {
        let names: Vec<String> = (0..5_000).map(|i| format!("q{i}")).collect();
        let index = NameIndex::new(names.len(), |i| names[i].as_str());
        for (i, n) in names.iter().enumerate() {
            assert_eq!(index.get(n, |j| names[j].as_str()), Some(i));
        }
    }
}
