//! How people name the attribute a column holds: `Entity.attr`. Kept as
//! the two shared names and written when shown: every column of every
//! table carries one, and making each label's text was a twenty-fifth of a
//! full analysis, for findings, reports and views that show few of them.

use crate::model::name::Name;
use serde::{Serialize, Serializer};
use std::fmt;

/// `Owner.attr`, written when shown (`Display`, `to_string`).
#[derive(Clone, PartialEq, Eq, Default)]
pub struct AttrLabel {
    owner: Name,
    attribute: Name,
}

impl AttrLabel {
    pub fn new(owner: Name, attribute: Name) -> AttrLabel {
        AttrLabel { owner, attribute }
    }

    /// The entity or relationship that holds the attribute.
    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// The attribute's own name.
    pub fn attribute(&self) -> &str {
        &self.attribute
    }

    /// Whether the label's text ends with `suffix`, without writing it.
    pub fn ends_with(&self, suffix: &str) -> bool {
        match suffix.len().checked_sub(self.attribute.len()) {
            None => self.attribute.ends_with(suffix),
            Some(0) => *self.attribute == *suffix,
            Some(n) => {
                let (head, tail) = suffix.split_at(n);
                tail == &*self.attribute
                    && head
                        .strip_suffix('.')
                        .is_some_and(|owner| self.owner.ends_with(owner))
            }
        }
    }
}

/// The label's text equals `text`, compared without writing it.
impl PartialEq<str> for AttrLabel {
    fn eq(&self, text: &str) -> bool {
        text.len() == self.owner.len() + 1 + self.attribute.len()
            && text.starts_with(&*self.owner)
            && text[self.owner.len()..].starts_with('.')
            && text.ends_with(&*self.attribute)
    }
}

impl PartialEq<&str> for AttrLabel {
    fn eq(&self, text: &&str) -> bool {
        *self == **text
    }
}

impl fmt::Display for AttrLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.owner, self.attribute)
    }
}

impl fmt::Debug for AttrLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.to_string(), f)
    }
}

/// Written as its text, as the label was before it was kept in parts.
impl Serialize for AttrLabel {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_label_reads_compares_and_serializes_as_its_text() {
        let l = AttrLabel::new("Hotel".into(), "name".into());
        assert_eq!(l.to_string(), "Hotel.name");
        assert_eq!(format!("{l:?}"), "\"Hotel.name\"");
        assert_eq!(
            serde_json::to_string(&l).expect("serializes"),
            "\"Hotel.name\""
        );
        assert!(l == "Hotel.name");
        for other in [
            "Hotel.nam",
            "Hotel_name",
            "Hote.name",
            "Hotel.name.",
            "",
            "Hotel.",
        ] {
            assert!(l != other, "{other}");
        }
        assert_eq!((l.owner(), l.attribute()), ("Hotel", "name"));
    }

    /// `ends_with` answers what the written text would, for every suffix
    /// of it and for near misses.
    #[test]
    fn ends_with_is_the_texts() {
        let l = AttrLabel::new("PointOfInterest".into(), "poi_name".into());
        let text = l.to_string();
        for i in 0..=text.len() {
            assert!(l.ends_with(&text[i..]), "{}", &text[i..]);
        }
        for miss in [
            "x.poi_name",
            "Interest_poi_name",
            "Interest.poi_nam",
            "APointOfInterest.poi_name",
        ] {
            assert_eq!(l.ends_with(miss), text.ends_with(miss), "{miss}");
        }
    }
}
