//! A finding's message and fix, worded when first read. A review of a
//! large project makes tens of thousands of findings and shows a screenful:
//! a rule keeps its figures and names (shared [`Name`](crate::model::name::Name)s,
//! numbers) with the two functions that word them, and the sentences are
//! written once, on first use, then kept.

use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use std::fmt;
use std::sync::{Arc, OnceLock};

/// Writes a sentence from a rule's figures into `out`.
pub(crate) type Write<A> = fn(&A, &mut String);

/// What words a finding: its message and its fix.
trait Wording: Send + Sync {
    fn message(&self) -> &str;
    fn fix(&self) -> &str;
}

/// Sentences already written (findings built from other text, tests).
struct Ready {
    message: Box<str>,
    fix: Box<str>,
}

impl Wording for Ready {
    fn message(&self) -> &str {
        &self.message
    }
    fn fix(&self) -> &str {
        &self.fix
    }
}

/// A rule's figures and the functions that word them, worded on first read.
struct Lazy<A> {
    args: A,
    message: Write<A>,
    fix: Write<A>,
    words: OnceLock<(Box<str>, Box<str>)>,
}

impl<A> Lazy<A> {
    fn words(&self) -> &(Box<str>, Box<str>) {
        self.words.get_or_init(|| {
            let mut m = String::new();
            (self.message)(&self.args, &mut m);
            let mut f = String::new();
            (self.fix)(&self.args, &mut f);
            (m.into_boxed_str(), f.into_boxed_str())
        })
    }
}

impl<A: Send + Sync> Wording for Lazy<A> {
    fn message(&self) -> &str {
        &self.words().0
    }
    fn fix(&self) -> &str {
        &self.words().1
    }
}

/// A finding's message and fix. Clones share the figures and, once
/// written, the sentences. Compares, prints and serializes as the two
/// sentences (`{"message": …, "fix": …}`).
#[derive(Clone)]
pub struct Words(Arc<dyn Wording>);

impl Words {
    /// Sentences written already.
    pub fn ready(message: impl Into<String>, fix: impl Into<String>) -> Words {
        Words(Arc::new(Ready {
            message: message.into().into_boxed_str(),
            fix: fix.into().into_boxed_str(),
        }))
    }

    /// Sentences `message` and `fix` write from `args` when first read.
    pub(crate) fn lazy<A: Send + Sync + 'static>(
        args: A,
        message: Write<A>,
        fix: Write<A>,
    ) -> Words {
        Words(Arc::new(Lazy {
            args,
            message,
            fix,
            words: OnceLock::new(),
        }))
    }

    pub fn message(&self) -> &str {
        self.0.message()
    }

    pub fn fix(&self) -> &str {
        self.0.fix()
    }
}

impl PartialEq for Words {
    fn eq(&self, other: &Words) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
            || (self.message() == other.message() && self.fix() == other.fix())
    }
}

impl fmt::Debug for Words {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Words")
            .field("message", &self.message())
            .field("fix", &self.fix())
            .finish()
    }
}

impl Serialize for Words {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut m = s.serialize_map(Some(2))?;
        m.serialize_entry("message", self.message())?;
        m.serialize_entry("fix", self.fix())?;
        m.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fmt::Write as _;
    use std::sync::atomic::{AtomicUsize, Ordering};

    static WORDED: AtomicUsize = AtomicUsize::new(0);

    fn message(a: &(u32, &'static str), out: &mut String) {
        WORDED.fetch_add(1, Ordering::SeqCst);
        let _ = write!(out, "{} has {} rows", a.1, a.0);
    }

    fn fix(a: &(u32, &'static str), out: &mut String) {
        let _ = write!(out, "bucket {}", a.1);
    }

    #[test]
    fn lazy_words_are_written_once_on_first_read_and_equal_ready_ones() {
        let before = WORDED.load(Ordering::SeqCst);
        let w = Words::lazy((7, "hotels"), message, fix);
        let copy = w.clone();
        assert_eq!(WORDED.load(Ordering::SeqCst), before, "not worded yet");
        assert_eq!(w.message(), "hotels has 7 rows");
        assert_eq!(copy.fix(), "bucket hotels");
        assert_eq!(copy.message(), "hotels has 7 rows");
        assert_eq!(WORDED.load(Ordering::SeqCst), before + 1, "worded once");
        assert_eq!(w, Words::ready("hotels has 7 rows", "bucket hotels"));
        assert_ne!(w, Words::ready("hotels has 8 rows", "bucket hotels"));
        assert_ne!(w, Words::ready("hotels has 7 rows", "shard hotels"));
    }

    #[test]
    fn words_serialize_as_the_two_sentences() {
        let w = Words::lazy((2, "rooms"), message, fix);
        let json = serde_json::to_string(&w).expect("serializes");
        assert_eq!(
            json,
            r#"{"message":"rooms has 2 rows","fix":"bucket rooms"}"#
        );
    }
}
