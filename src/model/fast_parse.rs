//! A fast reader for the plain RON that project files are made of.
//!
//! The `ron` crate spends most of a large project's load time on its
//! general machinery (whitespace and identifiers tested one character at a
//! time through function pointers, position tracking for errors): about
//! 180 million instructions for a 1,000-entity, 1,000-query file. This
//! reader handles the subset cqlmodel writes and people type (structs with
//! or without their name, lists, maps, options, enums, plain numbers,
//! strings with the common escapes, line comments) byte by byte.
//!
//! It only ever says yes when `ron` would read the same value: anything
//! else (an error, a construct outside the subset, a depth beyond the
//! limit) makes it give up, and loading parses the text with `ron`, whose
//! error carries the line, column and wording users see. So error messages
//! stay exactly what they were.

use serde::de::{self, DeserializeSeed, IntoDeserializer, Visitor};
use std::fmt;

/// Why the fast reader gave up; never shown to users.
#[derive(Debug)]
pub struct GaveUp;

impl fmt::Display for GaveUp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("not in the fast subset")
    }
}

impl std::error::Error for GaveUp {}

impl de::Error for GaveUp {
    fn custom<T: fmt::Display>(_msg: T) -> Self {
        GaveUp
    }
}

type Result<T> = std::result::Result<T, GaveUp>;

/// Nesting deeper than this is left to `ron` (which has its own limit).
const MAX_DEPTH: usize = 48;

/// The value in `text`, or `None` when `ron` has to read it.
pub fn from_str<'de, T: de::Deserialize<'de>>(text: &'de str) -> Option<T> {
    let mut d = Reader {
        text,
        bytes: text.as_bytes(),
        at: 0,
        depth: 0,
    };
    d.skip_ws().ok()?;
    let value = T::deserialize(&mut d).ok()?;
    d.skip_ws().ok()?;
    (d.at == d.bytes.len()).then_some(value)
}

struct Reader<'de> {
    text: &'de str,
    bytes: &'de [u8],
    at: usize,
    depth: usize,
}

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_'
}

fn is_ident_continue(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

impl<'de> Reader<'de> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    /// ASCII whitespace and line comments; anything else `ron` treats as
    /// whitespace (block comments, Unicode spaces) is a reason to give up.
    fn skip_ws(&mut self) -> Result<()> {
        loop {
            // Indentation: eight spaces at a time.
            while let Some(chunk) = self.bytes.get(self.at..self.at + 8) {
                if chunk != b"        " {
                    break;
                }
                self.at += 8;
            }
            match self.peek() {
                Some(b' ' | b'\n' | b'\t' | b'\r') => self.at += 1,
                Some(b'/') => {
                    if self.bytes.get(self.at + 1) != Some(&b'/') {
                        return Err(GaveUp);
                    }
                    // A comment on the last line without a newline is a
                    // corner `ron` treats specially.
                    let rest = &self.bytes[self.at..];
                    let end = rest.iter().position(|&b| b == b'\n').ok_or(GaveUp)?;
                    self.at += end + 1;
                }
                _ => return Ok(()),
            }
        }
    }

    fn eat(&mut self, b: u8) -> bool {
        if self.peek() == Some(b) {
            self.at += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, b: u8) -> Result<()> {
        if self.eat(b) {
            Ok(())
        } else {
            Err(GaveUp)
        }
    }

    /// An ASCII identifier, ending where `ron`'s would.
    fn ident(&mut self) -> Result<&'de str> {
        let start = self.at;
        if !self.peek().is_some_and(is_ident_start) {
            return Err(GaveUp);
        }
        self.at += 1;
        while self.peek().is_some_and(is_ident_continue) {
            self.at += 1;
        }
        // Non-ASCII identifier characters and raw identifiers (`r#x`).
        if self.peek().is_some_and(|b| b >= 0x80 || b == b'#') {
            return Err(GaveUp);
        }
        Ok(&self.text[start..self.at])
    }

    /// Whether the identifier `word` comes next (and not a longer one).
    fn peek_ident(&self, word: &str) -> bool {
        let end = self.at + word.len();
        self.bytes.get(self.at..end) == Some(word.as_bytes())
            && !self
                .bytes
                .get(end)
                .is_some_and(|&b| is_ident_continue(b) || b >= 0x80 || b == b'#')
    }

    /// A quoted string: borrowed when it has no escapes.
    fn string(&mut self) -> Result<StrValue<'de>> {
        self.expect(b'"')?;
        let start = self.at;
        let mut owned: Option<String> = None;
        let mut run = start;
        loop {
            let b = self.peek().ok_or(GaveUp)?;
            match b {
                b'"' => {
                    let tail = &self.text[run..self.at];
                    self.at += 1;
                    return Ok(match owned {
                        None => StrValue::Borrowed(tail),
                        Some(mut s) => {
                            s.push_str(tail);
                            StrValue::Owned(s)
                        }
                    });
                }
                b'\\' => {
                    let s = owned.get_or_insert_with(String::new);
                    s.push_str(&self.text[run..self.at]);
                    let c = match self.bytes.get(self.at + 1) {
                        Some(b'"') => '"',
                        Some(b'\\') => '\\',
                        Some(b'n') => '\n',
                        Some(b't') => '\t',
                        Some(b'r') => '\r',
                        // \u{…}, \x…, \0, line continuations: `ron` reads them.
                        _ => return Err(GaveUp),
                    };
                    s.push(c);
                    self.at += 2;
                    run = self.at;
                }
                // Raw control characters inside a string: let `ron` judge.
                0..=0x1f | 0x7f => return Err(GaveUp),
                _ => self.at += 1,
            }
        }
    }

    /// A plain decimal number: digits with an optional sign, fraction and
    /// exponent. Suffixes, underscores, hex, `inf` and `NaN` go to `ron`.
    fn number_text(&mut self, float: bool) -> Result<&'de str> {
        let start = self.at;
        self.eat(b'-');
        let digits = |r: &mut Reader| {
            let from = r.at;
            while r.peek().is_some_and(|b| b.is_ascii_digit()) {
                r.at += 1;
            }
            r.at > from
        };
        if !digits(self) {
            return Err(GaveUp);
        }
        if float {
            if self.eat(b'.') && !digits(self) {
                return Err(GaveUp);
            }
            if self.eat(b'e') || self.eat(b'E') {
                if !self.eat(b'-') {
                    self.eat(b'+');
                }
                if !digits(self) {
                    return Err(GaveUp);
                }
            }
        }
        if self
            .peek()
            .is_some_and(|b| is_ident_continue(b) || matches!(b, b'.' | b'+' | b'-' | b'#'))
            || self.peek().is_some_and(|b| b >= 0x80)
        {
            return Err(GaveUp);
        }
        Ok(&self.text[start..self.at])
    }

    fn nested<T>(&mut self, f: impl FnOnce(&mut Self) -> Result<T>) -> Result<T> {
        if self.depth >= MAX_DEPTH {
            return Err(GaveUp);
        }
        self.depth += 1;
        let out = f(self);
        self.depth -= 1;
        out
    }

    /// After an element of a list, map, struct or option: a comma (and
    /// whitespace), or nothing before the closing bracket.
    fn comma(&mut self) -> Result<bool> {
        self.skip_ws()?;
        if self.eat(b',') {
            self.skip_ws()?;
            Ok(true)
        } else {
            Ok(false)
        }
    }
}

enum StrValue<'de> {
    Borrowed(&'de str),
    Owned(String),
}

impl<'de> StrValue<'de> {
    fn visit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self {
            StrValue::Borrowed(s) => visitor.visit_borrowed_str(s),
            StrValue::Owned(s) => visitor.visit_string(s),
        }
    }
}

macro_rules! give_up {
    ($($name:ident),*) => {
        $(fn $name<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
            Err(GaveUp)
        })*
    };
}

macro_rules! integers {
    ($($name:ident => $visit:ident : $ty:ty),*) => {
        $(fn $name<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
            let text = self.number_text(false)?;
            visitor.$visit(text.parse::<$ty>().map_err(|_| GaveUp)?)
        })*
    };
}

impl<'de> de::Deserializer<'de> for &mut Reader<'de> {
    type Error = GaveUp;

    give_up!(
        deserialize_any,
        deserialize_char,
        deserialize_bytes,
        deserialize_byte_buf,
        deserialize_unit,
        deserialize_ignored_any
    );

    integers!(
        deserialize_i8 => visit_i64: i64,
        deserialize_i16 => visit_i64: i64,
        deserialize_i32 => visit_i64: i64,
        deserialize_i64 => visit_i64: i64,
        deserialize_u8 => visit_u64: u64,
        deserialize_u16 => visit_u64: u64,
        deserialize_u32 => visit_u64: u64,
        deserialize_u64 => visit_u64: u64
    );

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        match self.ident()? {
            "true" => visitor.visit_bool(true),
            "false" => visitor.visit_bool(false),
            _ => Err(GaveUp),
        }
    }

    fn deserialize_f32<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        let text = self.number_text(true)?;
        visitor.visit_f64(text.parse::<f64>().map_err(|_| GaveUp)?)
    }

    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.string()?.visit(visitor)
    }

    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.string()?.visit(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        if self.peek_ident("None") {
            self.at += 4;
            return visitor.visit_none();
        }
        if !self.peek_ident("Some") {
            return Err(GaveUp);
        }
        self.at += 4;
        self.skip_ws()?;
        self.expect(b'(')?;
        self.skip_ws()?;
        let value = self.nested(|r| visitor.visit_some(&mut *r))?;
        self.comma()?;
        self.expect(b')')?;
        Ok(value)
    }

    fn deserialize_unit_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'[')?;
        self.skip_ws()?;
        let value = self.nested(|r| visitor.visit_seq(Elements { r, first: true }))?;
        self.skip_ws()?;
        self.expect(b']')?;
        Ok(value)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _len: usize,
        _visitor: V,
    ) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        self.expect(b'{')?;
        self.skip_ws()?;
        let value = self.nested(|r| {
            visitor.visit_map(Entries {
                r,
                first: true,
                close: b'}',
            })
        })?;
        self.skip_ws()?;
        self.expect(b'}')?;
        Ok(value)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        // `ron` reads structs shaped like std's ranges its own way.
        if fields.first().is_some_and(|f| *f == "start" || *f == "end") {
            return Err(GaveUp);
        }
        if self.peek().is_some_and(is_ident_start) {
            // An optional struct name, which must be this struct's.
            if self.ident()? != name {
                return Err(GaveUp);
            }
            self.skip_ws()?;
        }
        self.fields(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.nested(|r| visitor.visit_enum(Variant { r }))
    }

    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value> {
        visitor.visit_borrowed_str(self.ident()?)
    }
}

impl<'de> Reader<'de> {
    /// `( field: value, … )`.
    fn fields<V: Visitor<'de>>(&mut self, visitor: V) -> Result<V::Value> {
        self.expect(b'(')?;
        self.skip_ws()?;
        let value = self.nested(|r| {
            visitor.visit_map(Entries {
                r,
                first: true,
                close: b')',
            })
        })?;
        self.skip_ws()?;
        self.expect(b')')?;
        Ok(value)
    }
}

/// The elements of a list.
struct Elements<'a, 'de> {
    r: &'a mut Reader<'de>,
    first: bool,
}

impl<'de> de::SeqAccess<'de> for Elements<'_, 'de> {
    type Error = GaveUp;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>> {
        if !self.first && !self.r.comma()? {
            return Ok(None);
        }
        self.first = false;
        if self.r.peek() == Some(b']') {
            return Ok(None);
        }
        seed.deserialize(&mut *self.r).map(Some)
    }
}

/// The entries of a map (`key: value`) or the fields of a struct
/// (`field: value`).
struct Entries<'a, 'de> {
    r: &'a mut Reader<'de>,
    first: bool,
    close: u8,
}

impl<'de> de::MapAccess<'de> for Entries<'_, 'de> {
    type Error = GaveUp;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>> {
        if !self.first && !self.r.comma()? {
            return Ok(None);
        }
        self.first = false;
        if self.r.peek() == Some(self.close) {
            return Ok(None);
        }
        let key = seed.deserialize(&mut *self.r)?;
        self.r.skip_ws()?;
        self.r.expect(b':')?;
        self.r.skip_ws()?;
        Ok(Some(key))
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value> {
        seed.deserialize(&mut *self.r)
    }
}

/// An enum value: its variant's name, then what the variant holds.
struct Variant<'a, 'de> {
    r: &'a mut Reader<'de>,
}

impl<'de> de::EnumAccess<'de> for Variant<'_, 'de> {
    type Error = GaveUp;
    type Variant = Self;

    fn variant_seed<V: DeserializeSeed<'de>>(self, seed: V) -> Result<(V::Value, Self)> {
        let name = self.r.ident()?;
        let value = seed.deserialize(name.into_deserializer())?;
        self.r.skip_ws()?;
        Ok((value, self))
    }
}

impl<'de> de::VariantAccess<'de> for Variant<'_, 'de> {
    type Error = GaveUp;

    fn unit_variant(self) -> Result<()> {
        // `Day()` and the like: leave the judgement to `ron`.
        if self.r.peek() == Some(b'(') {
            return Err(GaveUp);
        }
        Ok(())
    }

    fn newtype_variant_seed<T: DeserializeSeed<'de>>(self, seed: T) -> Result<T::Value> {
        self.r.expect(b'(')?;
        self.r.skip_ws()?;
        let value = self.r.nested(|r| seed.deserialize(&mut *r))?;
        self.r.comma()?;
        self.r.expect(b')')?;
        Ok(value)
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, _visitor: V) -> Result<V::Value> {
        Err(GaveUp)
    }

    fn struct_variant<V: Visitor<'de>>(
        self,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value> {
        self.r.fields(visitor)
    }
}

#[cfg(test)]
mod tests {
    use super::from_str;
    use crate::model::{load, synthetic, Project};

    /// What `ron` reads from the same text.
    fn ron(text: &str) -> Option<Project> {
        ron::Options::default()
            .with_recursion_limit(64)
            .from_str(text)
            .ok()
    }

    #[test]
    fn reads_what_cqlmodel_writes_exactly_as_ron_does() {
        for (entities, queries, seed) in [(5, 10, 1), (40, 80, 2), (1, 1, 3)] {
            let p = synthetic::project(entities, queries, seed);
            let text = load::to_string(&p);
            assert_eq!(from_str::<Project>(&text), Some(p));
        }
        for sample in ["hotel", "logs"] {
            let path = format!(
                "{}/sample-projects/{sample}.cqlm.ron",
                env!("CARGO_MANIFEST_DIR")
            );
            let Ok(text) = std::fs::read_to_string(&path) else {
                continue;
            };
            let fast = from_str::<Project>(&text);
            assert!(fast.is_some(), "{sample} is in the fast subset");
            assert_eq!(fast, ron(&text), "{sample}");
        }
    }

    #[test]
    fn hand_written_variations_read_the_same() {
        let text = r#"
// A comment line.
(
    name: "a \"quoted\" name\twith\\escapes\n",
    format: 1,
    keyspace: Keyspace(name: "ks", replication: NetworkTopology({"dc1": 3, "dc2": 2,})),
    entities: [
        Entity(name: "User", key: ["id"], attributes: [
            (name: "id", type: "uuid", size: Some(16), distinct: Some(1e3),),
            (name: "nick", type: "text", distinct: Some(-0.5)), // negative: validation's job
        ], count: Some(12)),
    ],
    relationships: [], queries: [], decisions: [],
)
"#;
        let fast = from_str::<Project>(text);
        assert!(fast.is_some());
        assert_eq!(fast, ron(text));
    }

    #[test]
    fn gives_up_rather_than_guess() {
        let base = load::to_string(&synthetic::project(3, 3, 4));
        let cases = [
            // Errors ron reports with a position.
            base.replacen("name:", "nmae:", 1),
            base.replacen("Project(", "Projekt(", 1),
            base.replacen('"', "'", 1),
            format!("{base} trailing"),
            base.replacen("count: Some(", "count: Some(0x", 1),
            // Constructs ron reads but this reader leaves to it.
            base.replacen("Some(", "Some(/* c */", 1),
            base.replacen("\"synthetic\"", "\"syn\\u{74}hetic\"", 1),
            base.replacen("\"synthetic\"", "r\"synthetic\"", 1),
            base.replacen("count: Some(", "count: Some(1_0", 1),
            format!("#![enable(implicit_some)]\n{base}"),
            format!("{base}// no newline at the end"),
        ];
        for text in &cases {
            assert_eq!(from_str::<Project>(text), None, "{text}");
        }
    }

    #[test]
    fn deep_nesting_is_left_to_ron() {
        #[derive(serde::Deserialize, Debug)]
        #[allow(dead_code)]
        struct Deep {
            d: Vec<Deep>,
        }
        let nest = |n: usize| format!("{}(d: []){}", "(d: [".repeat(n), "])".repeat(n));
        assert!(from_str::<Deep>(&nest(5)).is_some());
        assert!(from_str::<Deep>(&nest(100)).is_none());
    }

    /// Random damage to a real project file: whatever the fast reader
    /// accepts, `ron` reads to the same project.
    mod damaged_text {
        use super::*;
        use proptest::prelude::*;

        const PIECES: &[&str] = &[
            "\"", "(", ")", ",", ":", " ", "\n", "/", "//", "\\", "a", "1", ".", "-", "e", "#",
            "'", "[", "]", "{", "}", "Some(", "None", "r", "_", "\t", "\u{1b}", "é",
        ];

        fn sample() -> String {
            load::to_string(&synthetic::project(4, 6, 11))
        }

        fn damage(text: &str, edits: &[(usize, usize, usize)]) -> String {
            let mut t = text.to_string();
            for &(at, op, piece) in edits {
                let mut at = at % (t.len() + 1);
                while !t.is_char_boundary(at) {
                    at -= 1;
                }
                let piece = PIECES[piece % PIECES.len()];
                match op % 3 {
                    0 => t.insert_str(at, piece),
                    1 => {
                        let end = t[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                        t.replace_range(at..end, "");
                    }
                    _ => {
                        let end = t[at..].chars().next().map_or(at, |c| at + c.len_utf8());
                        t.replace_range(at..end, piece);
                    }
                }
            }
            t
        }

        proptest! {
            #![proptest_config(ProptestConfig::with_cases(400))]
            #[test]
            fn accepted_text_reads_the_same_with_ron(
                edits in proptest::collection::vec((0usize..100_000, 0usize..3, 0usize..64), 1..4)
            ) {
                let text = damage(&sample(), &edits);
                if let Some(fast) = from_str::<Project>(&text) {
                    prop_assert_eq!(ron(&text), Some(fast));
                }
            }
        }
    }
}
