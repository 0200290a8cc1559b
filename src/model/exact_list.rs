//! Lists read at their length.
//!
//! A list being read grows by doubling, so a five-attribute entity would
//! keep room for eight: about 8 MiB of a 10,000-entity project's 26, held
//! for as long as the file is open. The short lists of the model's items
//! are moved into an allocation of their length as soon as each is read;
//! the grown one is freed at once and serves the next list, so no holes
//! are left behind (shrinking in place does not help: the allocator keeps
//! a block that shrinks by less than half). Long lists are not worth it:
//! the spare room of a large block is never touched.

use serde::{Deserialize, Deserializer};

/// Reads a list and returns it in an allocation of exactly its length.
pub(crate) fn deserialize<'de, D, T>(d: D) -> Result<Vec<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Ok(fitted(Vec::deserialize(d)?))
}

fn fitted<T>(grown: Vec<T>) -> Vec<T> {
    if grown.capacity() == grown.len() {
        return grown;
    }
    // Not `collect`, which would keep the grown allocation.
    let mut exact = Vec::with_capacity(grown.len());
    exact.extend(grown);
    exact
}

#[cfg(test)]
mod tests {
    use crate::model::{load, synthetic, Project};

    fn spare(p: &Project) -> usize {
        let spare = |cap: usize, len: usize| cap - len;
        p.entities
            .iter()
            .map(|e| {
                spare(e.attributes.capacity(), e.attributes.len())
                    + spare(e.key.capacity(), e.key.len())
            })
            .chain(p.queries.iter().map(|q| {
                spare(q.returns.capacity(), q.returns.len())
                    + spare(q.equality.capacity(), q.equality.len())
            }))
            .chain(
                p.relationships
                    .iter()
                    .map(|r| spare(r.attributes.capacity(), r.attributes.len())),
            )
            .sum()
    }

    #[test]
    fn the_items_lists_are_read_at_their_length_by_both_readers() {
        let text = load::to_string(&synthetic::project(40, 40, 3));
        let fast = load::parse(&text).expect("loads");
        assert!(fast.entities.iter().any(|e| e.attributes.len() > 4));
        assert_eq!(spare(&fast), 0);
        let slow: Project = ron::from_str(&text).expect("ron reads it");
        assert_eq!(spare(&slow), 0);
        assert_eq!(fast, slow);
    }
}
