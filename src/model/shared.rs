//! Copy-on-write parts of a project.
//!
//! The workbench keeps several copies of a project (the one shown, the one
//! an edit builds, the incremental analysis's, undo steps). An edit touches
//! one part (a query, the workflow), so each list of a project is shared
//! between copies until a copy writes to it: cloning a project copies a
//! few pointers, and comparing two copies skips every part they still
//! share. On a 10,000-query project that is the difference between a deep
//! copy and comparison of every string per edit and almost nothing.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::Arc;

/// A value shared between clones; the first write through a clone that
/// still shares it gives that clone its own copy ([`Arc::make_mut`]).
/// Reads and writes go through `Deref`/`DerefMut`, so it stands in for
/// the value in field accesses, method calls and indexing. Stored and
/// compared as the value itself.
#[derive(Default)]
pub struct Shared<T>(Arc<T>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Arc::new(value))
    }

    /// Whether both still share one value (so they are equal without a
    /// look at it).
    pub fn same(a: &Shared<T>, b: &Shared<T>) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        Shared(Arc::clone(&self.0))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    fn deref_mut(&mut self) -> &mut T {
        Arc::make_mut(&mut self.0)
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Self) -> bool {
        Shared::same(self, other) || *self.0 == *other.0
    }
}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Self {
        Shared::new(value)
    }
}

impl<T: Serialize> Serialize for Shared<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(s)
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for Shared<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(Shared::new)
    }
}

impl<A> FromIterator<A> for Shared<Vec<A>> {
    fn from_iter<I: IntoIterator<Item = A>>(iter: I) -> Self {
        Shared::new(iter.into_iter().collect())
    }
}

impl<'a, A> IntoIterator for &'a Shared<Vec<A>> {
    type Item = &'a A;
    type IntoIter = std::slice::Iter<'a, A>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

impl<'a, A: Clone> IntoIterator for &'a mut Shared<Vec<A>> {
    type Item = &'a mut A;
    type IntoIter = std::slice::IterMut<'a, A>;
    fn into_iter(self) -> Self::IntoIter {
        Arc::make_mut(&mut self.0).iter_mut()
    }
}

impl<A: Clone> IntoIterator for Shared<Vec<A>> {
    type Item = A;
    type IntoIter = std::vec::IntoIter<A>;
    /// Takes the list, copying it only when another clone still shares it.
    fn into_iter(self) -> Self::IntoIter {
        Arc::unwrap_or_clone(self.0).into_iter()
    }
}

#[cfg(test)]
mod tests {
    use super::Shared;

    #[test]
    fn clones_share_until_one_writes() {
        let a: Shared<Vec<u32>> = vec![1, 2, 3].into();
        let mut b = a.clone();
        assert!(Shared::same(&a, &b));
        assert_eq!(a, b);
        b.push(4);
        assert!(!Shared::same(&a, &b), "the write gave b its own copy");
        assert_eq!(*a, vec![1, 2, 3], "a is untouched");
        assert_eq!(*b, vec![1, 2, 3, 4]);
        assert_ne!(a, b);
    }

    #[test]
    fn equal_values_compare_equal_when_not_shared() {
        let a: Shared<Vec<u32>> = vec![1].into();
        let b: Shared<Vec<u32>> = vec![1].into();
        assert!(!Shared::same(&a, &b));
        assert_eq!(a, b);
    }

    #[test]
    fn stored_as_the_value() {
        let a: Shared<Vec<String>> = vec!["x".to_string()].into();
        let text = ron::to_string(&a).expect("serializes");
        assert_eq!(text, ron::to_string(&vec!["x".to_string()]).expect("vec"));
        let back: Shared<Vec<String>> = ron::from_str(&text).expect("deserializes");
        assert_eq!(back, a);
    }
}
