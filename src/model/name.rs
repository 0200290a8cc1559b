//! Shared names: the text of an id or a name held once and referred to by
//! every derived table, plan and finding that repeats it. A clone is a
//! reference count, not a copy: the analysis of a large project repeats each
//! query id and attribute name in many places, and copying them was a large
//! part of its allocations and memory.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// Immutable shared text. Reads like a `&str` (`Deref`), compares with
/// `str` and `String`, hashes like the `str` (so maps keyed by `Name` are
/// looked up by `&str`), and is written and read as a plain string.
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct Name(Arc<str>);

/// By the text; one shared text is equal to itself without a look at it
/// (sorting findings compares a table's name with itself often).
impl Ord for Name {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        if Name::ptr_eq(self, other) {
            std::cmp::Ordering::Equal
        } else {
            self.0.cmp(&other.0)
        }
    }
}

impl PartialOrd for Name {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Name {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether `a` and `b` are the same text object (not merely equal).
    pub fn ptr_eq(a: &Name, b: &Name) -> bool {
        Arc::ptr_eq(&a.0, &b.0)
    }

    /// The parts' text as one name, made without a temporary string when
    /// short (column names are, and an analysis makes
    /// thousands of them).
    pub fn concat(parts: &[&str]) -> Name {
        let len: usize = parts.iter().map(|p| p.len()).sum();
        let mut buf = [0u8; 96];
        if let Some(room) = buf.get_mut(..len) {
            let mut at = 0;
            for p in parts {
                room[at..at + p.len()].copy_from_slice(p.as_bytes());
                at += p.len();
            }
            // Text followed by text is text: this check always passes.
            if let Ok(text) = std::str::from_utf8(room) {
                return Name::from(text);
            }
        }
        Name::from(parts.concat())
    }
}

impl Deref for Name {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Name {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Name {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl From<&str> for Name {
    fn from(s: &str) -> Name {
        Name(s.into())
    }
}

impl From<String> for Name {
    fn from(s: String) -> Name {
        Name(s.into())
    }
}

impl From<&String> for Name {
    fn from(s: &String) -> Name {
        Name(s.as_str().into())
    }
}

impl From<Name> for String {
    fn from(n: Name) -> String {
        n.0.to_string()
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Name {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Name> for str {
    fn eq(&self, other: &Name) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Name> for &str {
    fn eq(&self, other: &Name) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Name> for String {
    fn eq(&self, other: &Name) -> bool {
        **self == *other.0
    }
}

impl Serialize for Name {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Name, D::Error> {
        String::deserialize(d).map(Name::from)
    }
}

/// Shared names for the items of one list (a project's queries, its
/// entities), each made when first asked: an analysis names a few of them
/// many times, and a change to the project makes a new set.
#[derive(Default)]
pub(crate) struct LazyNames(super::slots::Slots<Name>);

impl LazyNames {
    /// The name of item `index` of `len`, made by `make` on first use.
    pub(crate) fn get(&self, len: usize, index: usize, make: impl Fn() -> Name) -> Name {
        match self.0.get(len, index, &make) {
            Some(name) => name.clone(),
            // Not an item of the list: made, not kept.
            None => make(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// Short or long, ASCII or not, the parts joined are the name.
    #[test]
    fn concat_joins_the_parts() {
        let long = "x".repeat(200);
        for parts in [
            vec!["Hotel", ".", "name"],
            vec![],
            vec!["", ""],
            vec!["Café", ".", "prix_€"],
            vec![long.as_str(), "_", "y"],
            vec![&long[..95], "é"],
        ] {
            assert_eq!(Name::concat(&parts).as_str(), parts.concat(), "{parts:?}");
        }
    }

    #[test]
    fn names_order_as_their_texts() {
        let (a, b) = (
            Name::from("orders_by_customer"),
            Name::from("orders_by_day"),
        );
        let a2 = Name::from("orders_by_customer");
        assert_eq!(a.cmp(&b), "orders_by_customer".cmp("orders_by_day"));
        assert_eq!(b.cmp(&a), std::cmp::Ordering::Greater);
        assert_eq!(a.cmp(&a.clone()), std::cmp::Ordering::Equal);
        assert_eq!(a.cmp(&a2), std::cmp::Ordering::Equal);
        let mut names = vec![b.clone(), a2.clone(), a.clone()];
        names.sort();
        assert_eq!(names, [a, a2, b]);
    }

    #[test]
    fn a_name_reads_compares_and_hashes_as_its_text() {
        let n = Name::from("hotel_id");
        assert_eq!(n, "hotel_id");
        assert_eq!("hotel_id", n);
        assert_eq!(n, String::from("hotel_id"));
        assert_ne!(n, "hotel");
        assert_eq!(n.len(), 8);
        assert_eq!(format!("{n}/{n:?}"), "hotel_id/\"hotel_id\"");
        let mut m = HashMap::new();
        m.insert(n.clone(), 1);
        assert_eq!(m.get("hotel_id"), Some(&1));
        let mut sorted = vec![Name::from("b"), Name::from("a")];
        sorted.sort();
        assert_eq!(sorted, ["a", "b"]);
    }

    #[test]
    fn lazy_names_make_each_name_once() {
        let names = LazyNames::default();
        let a = names.get(3, 1, || "Q2".into());
        let b = names.get(3, 1, || unreachable!("made once"));
        assert!(Name::ptr_eq(&a, &b));
        assert_eq!(names.get(3, 7, || "outside".into()), "outside");
    }

    #[test]
    fn a_clone_shares_the_text_and_serde_sees_a_string() {
        let n = Name::from(String::from("Q1"));
        let c = n.clone();
        assert!(Name::ptr_eq(&n, &c));
        assert!(!Name::ptr_eq(&n, &Name::from("Q1")));
        let json = serde_json::to_string(&n).expect("serializes");
        assert_eq!(json, "\"Q1\"");
        let back: Name = serde_json::from_str(&json).expect("deserializes");
        assert_eq!(back, n);
    }
}
