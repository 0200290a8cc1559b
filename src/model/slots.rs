//! Values for the items of one list (a project's entities, its queries)
//! made one by one on first use: an edit re-derives a few queries, and
//! computing a value for every item of a large project to answer for a few
//! of them was most of the cost of a small edit.

use std::sync::OnceLock;

/// One lazily made value per item of a list of `len` items.
pub(crate) struct Slots<T>(OnceLock<Box<[OnceLock<T>]>>);

impl<T> Default for Slots<T> {
    fn default() -> Self {
        Slots(OnceLock::new())
    }
}

impl<T> Slots<T> {
    /// The value of item `index` of `len`, made by `make` on first use;
    /// `None` when `index` is not an item. `make` must not ask for the
    /// same item (it would wait for itself).
    pub(crate) fn get(&self, len: usize, index: usize, make: impl FnOnce() -> T) -> Option<&T> {
        let slots = self
            .0
            .get_or_init(|| (0..len).map(|_| OnceLock::new()).collect());
        slots.get(index).map(|slot| slot.get_or_init(make))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    #[test]
    fn each_value_is_made_once_on_first_use() {
        let made = Cell::new(0);
        let slots: Slots<String> = Slots::default();
        let make = |i: usize| {
            made.set(made.get() + 1);
            format!("item {i}")
        };
        assert_eq!(made.get(), 0);
        assert_eq!(
            slots.get(3, 2, || make(2)).map(String::as_str),
            Some("item 2")
        );
        assert_eq!(
            slots.get(3, 2, || make(2)).map(String::as_str),
            Some("item 2")
        );
        assert_eq!(made.get(), 1, "made once");
        assert_eq!(
            slots.get(3, 0, || make(0)).map(String::as_str),
            Some("item 0")
        );
        assert_eq!(made.get(), 2, "the others on their own first use");
        assert_eq!(slots.get(3, 3, || make(3)), None, "not an item");
    }
}
