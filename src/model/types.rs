//! CQL column types: parsed from and written back to the compact strings a
//! designer types in the project file (`"map<text, frozen<address>>"`), so the
//! file stays readable and diffs stay one line per attribute.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::str::FromStr;

/// Every native CQL type of Cassandra 4 and 5.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Native {
    Ascii,
    Bigint,
    Blob,
    Boolean,
    Counter,
    Date,
    Decimal,
    Double,
    Duration,
    Float,
    Inet,
    Int,
    Smallint,
    Text,
    Time,
    Timestamp,
    Timeuuid,
    Tinyint,
    Uuid,
    Varchar,
    Varint,
}

impl Native {
    pub const ALL: [Native; 21] = [
        Native::Ascii,
        Native::Bigint,
        Native::Blob,
        Native::Boolean,
        Native::Counter,
        Native::Date,
        Native::Decimal,
        Native::Double,
        Native::Duration,
        Native::Float,
        Native::Inet,
        Native::Int,
        Native::Smallint,
        Native::Text,
        Native::Time,
        Native::Timestamp,
        Native::Timeuuid,
        Native::Tinyint,
        Native::Uuid,
        Native::Varchar,
        Native::Varint,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Native::Ascii => "ascii",
            Native::Bigint => "bigint",
            Native::Blob => "blob",
            Native::Boolean => "boolean",
            Native::Counter => "counter",
            Native::Date => "date",
            Native::Decimal => "decimal",
            Native::Double => "double",
            Native::Duration => "duration",
            Native::Float => "float",
            Native::Inet => "inet",
            Native::Int => "int",
            Native::Smallint => "smallint",
            Native::Text => "text",
            Native::Time => "time",
            Native::Timestamp => "timestamp",
            Native::Timeuuid => "timeuuid",
            Native::Tinyint => "tinyint",
            Native::Uuid => "uuid",
            Native::Varchar => "varchar",
            Native::Varint => "varint",
        }
    }

    pub(crate) fn from_name(name: &str) -> Option<Native> {
        let lower = name.to_ascii_lowercase();
        Native::ALL.into_iter().find(|n| n.name() == lower)
    }

    /// Bytes a value occupies, as the Apache Cassandra docs' sizing formula
    /// counts them; `None` for variable-size types whose size the project gives.
    pub(crate) fn fixed_size(self) -> Option<f64> {
        Some(match self {
            Native::Boolean | Native::Tinyint => 1.0,
            Native::Smallint => 2.0,
            Native::Int | Native::Date | Native::Float | Native::Inet => 4.0,
            Native::Bigint
            | Native::Timestamp
            | Native::Double
            | Native::Counter
            | Native::Time => 8.0,
            Native::Uuid | Native::Timeuuid => 16.0,
            Native::Duration => 12.0,
            Native::Ascii
            | Native::Text
            | Native::Varchar
            | Native::Blob
            | Native::Decimal
            | Native::Varint => return None,
        })
    }

    /// Time-like values: a clustering column of this type grows with time.
    pub(crate) fn is_temporal(self) -> bool {
        matches!(
            self,
            Native::Date | Native::Timestamp | Native::Timeuuid | Native::Time
        )
    }

    pub(crate) fn is_numeric(self) -> bool {
        self.is_integer()
            || matches!(
                self,
                Native::Varint | Native::Decimal | Native::Double | Native::Float
            )
    }

    /// Whole numbers a 64-bit counter can add up.
    pub(crate) fn is_integer(self) -> bool {
        matches!(
            self,
            Native::Tinyint | Native::Smallint | Native::Int | Native::Bigint | Native::Counter
        )
    }

    pub(crate) fn is_text(self) -> bool {
        matches!(self, Native::Ascii | Native::Text | Native::Varchar)
    }
}

/// A CQL type as written in a column definition.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum CqlType {
    Native(Native),
    List(Box<CqlType>),
    Set(Box<CqlType>),
    Map(Box<CqlType>, Box<CqlType>),
    Tuple(Vec<CqlType>),
    Frozen(Box<CqlType>),
    Vector(Box<CqlType>, u32),
    /// A user-defined type of the project, by name.
    Udt(String),
}

impl CqlType {
    pub fn text() -> CqlType {
        CqlType::Native(Native::Text)
    }

    pub fn is_collection(&self) -> bool {
        matches!(self, CqlType::List(_) | CqlType::Set(_) | CqlType::Map(..))
    }

    pub(crate) fn is_counter(&self) -> bool {
        matches!(self, CqlType::Native(Native::Counter))
    }

    pub(crate) fn native(&self) -> Option<Native> {
        match self {
            CqlType::Native(n) => Some(*n),
            CqlType::Frozen(inner) => inner.native(),
            _ => None,
        }
    }

    pub(crate) fn is_temporal(&self) -> bool {
        self.native().is_some_and(Native::is_temporal)
    }

    /// The type wrapped so that it may appear in a primary key or be nested
    /// inside a collection: collections, tuples and UDTs must be frozen there.
    #[must_use]
    pub fn frozen(&self) -> CqlType {
        match self {
            CqlType::List(_)
            | CqlType::Set(_)
            | CqlType::Map(..)
            | CqlType::Tuple(_)
            | CqlType::Udt(_) => CqlType::Frozen(Box::new(self.clone())),
            other => other.clone(),
        }
    }

    /// Names of the UDTs this type mentions, in order of appearance.
    pub(crate) fn udts(&self, out: &mut Vec<String>) {
        match self {
            CqlType::Native(_) => {}
            CqlType::List(t) | CqlType::Set(t) | CqlType::Frozen(t) | CqlType::Vector(t, _) => {
                t.udts(out);
            }
            CqlType::Map(k, v) => {
                k.udts(out);
                v.udts(out);
            }
            CqlType::Tuple(ts) => ts.iter().for_each(|t| t.udts(out)),
            CqlType::Udt(name) => out.push(name.clone()),
        }
    }

    /// The type as valid CQL: collections and UDTs nested in collections are
    /// frozen, as Cassandra requires.
    pub(crate) fn to_cql(&self, quote: &dyn Fn(&str) -> String) -> String {
        self.render(quote, false)
    }

    fn render(&self, quote: &dyn Fn(&str) -> String, nested: bool) -> String {
        let inner = |t: &CqlType| t.render(quote, true);
        let body = match self {
            CqlType::Native(n) => return n.name().to_string(),
            CqlType::Frozen(t) => return format!("frozen<{}>", t.render(quote, false)),
            CqlType::List(t) => format!("list<{}>", inner(t)),
            CqlType::Set(t) => format!("set<{}>", inner(t)),
            CqlType::Map(k, v) => format!("map<{}, {}>", inner(k), inner(v)),
            CqlType::Tuple(ts) => format!(
                "tuple<{}>",
                ts.iter().map(inner).collect::<Vec<_>>().join(", ")
            ),
            CqlType::Vector(t, n) => return format!("vector<{}, {n}>", inner(t)),
            CqlType::Udt(name) => quote(name),
        };
        let freeze = nested
            && matches!(
                self,
                CqlType::List(_) | CqlType::Set(_) | CqlType::Map(..) | CqlType::Udt(_)
            );
        if freeze {
            format!("frozen<{body}>")
        } else {
            body
        }
    }
}

impl fmt::Display for CqlType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CqlType::Native(n) => f.write_str(n.name()),
            CqlType::List(t) => write!(f, "list<{t}>"),
            CqlType::Set(t) => write!(f, "set<{t}>"),
            CqlType::Map(k, v) => write!(f, "map<{k}, {v}>"),
            CqlType::Tuple(ts) => {
                f.write_str("tuple<")?;
                for (i, t) in ts.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{t}")?;
                }
                f.write_str(">")
            }
            CqlType::Frozen(t) => write!(f, "frozen<{t}>"),
            CqlType::Vector(t, n) => write!(f, "vector<{t}, {n}>"),
            CqlType::Udt(name) => f.write_str(name),
        }
    }
}

/// Why a type string could not be read, with the byte offset of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TypeError {
    pub offset: usize,
    pub message: String,
}

impl fmt::Display for TypeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (at character {})", self.message, self.offset + 1)
    }
}

impl std::error::Error for TypeError {}

/// Deeper nesting than this is refused: no real schema needs it and it keeps
/// hostile input from exhausting the stack.
const MAX_TYPE_DEPTH: usize = 16;

struct TypeParser<'a> {
    src: &'a str,
    pos: usize,
}

impl<'a> TypeParser<'a> {
    fn err<T>(&self, message: impl Into<String>) -> Result<T, TypeError> {
        Err(TypeError {
            offset: self.pos,
            message: message.into(),
        })
    }

    fn skip_ws(&mut self) {
        while let Some(c) = self.src[self.pos..].chars().next() {
            if c.is_whitespace() {
                self.pos += c.len_utf8();
            } else {
                break;
            }
        }
    }

    fn peek(&mut self) -> Option<char> {
        self.skip_ws();
        self.src[self.pos..].chars().next()
    }

    fn expect(&mut self, want: char) -> Result<(), TypeError> {
        match self.peek() {
            Some(c) if c == want => {
                self.pos += c.len_utf8();
                Ok(())
            }
            Some(c) => self.err(format!("expected '{want}', found '{c}'")),
            None => self.err(format!("expected '{want}', found the end")),
        }
    }

    fn word(&mut self) -> Result<&'a str, TypeError> {
        self.skip_ws();
        let start = self.pos;
        while let Some(c) = self.src[self.pos..].chars().next() {
            if c.is_ascii_alphanumeric() || c == '_' {
                self.pos += 1;
            } else {
                break;
            }
        }
        if start == self.pos {
            return match self.src[self.pos..].chars().next() {
                Some(c) => self.err(format!("expected a type name, found '{c}'")),
                None => self.err("expected a type name, found the end"),
            };
        }
        Ok(&self.src[start..self.pos])
    }

    fn ty(&mut self, depth: usize) -> Result<CqlType, TypeError> {
        if depth > MAX_TYPE_DEPTH {
            return self.err("type nested too deeply");
        }
        let start = self.pos;
        let word = self.word()?;
        let lower = word.to_ascii_lowercase();
        let ty = match lower.as_str() {
            "list" | "set" | "frozen" => {
                self.expect('<')?;
                let inner = Box::new(self.ty(depth + 1)?);
                self.expect('>')?;
                match lower.as_str() {
                    "list" => CqlType::List(inner),
                    "set" => CqlType::Set(inner),
                    _ => {
                        if matches!(*inner, CqlType::Native(_) | CqlType::Frozen(_)) {
                            self.pos = start;
                            return self.err(
                                "frozen<> applies only to collections, tuples and user types",
                            );
                        }
                        CqlType::Frozen(inner)
                    }
                }
            }
            "map" => {
                self.expect('<')?;
                let k = self.ty(depth + 1)?;
                self.expect(',')?;
                let v = self.ty(depth + 1)?;
                self.expect('>')?;
                CqlType::Map(Box::new(k), Box::new(v))
            }
            "tuple" => {
                self.expect('<')?;
                let mut items = vec![self.ty(depth + 1)?];
                while self.peek() == Some(',') {
                    self.pos += 1;
                    items.push(self.ty(depth + 1)?);
                }
                self.expect('>')?;
                CqlType::Tuple(items)
            }
            "vector" => {
                self.expect('<')?;
                let t = self.ty(depth + 1)?;
                self.expect(',')?;
                self.skip_ws();
                let digits_start = self.pos;
                let n: u32 = match self.word()?.parse() {
                    Ok(n) if n > 0 => n,
                    _ => {
                        self.pos = digits_start;
                        return self.err("vector dimension must be a positive integer");
                    }
                };
                self.expect('>')?;
                CqlType::Vector(Box::new(t), n)
            }
            _ => {
                if let Some(n) = Native::from_name(word) {
                    CqlType::Native(n)
                } else {
                    if word.chars().next().is_some_and(|c| c.is_ascii_digit()) {
                        self.pos = start;
                        return self.err(format!("'{word}' is not a type"));
                    }
                    CqlType::Udt(word.to_string())
                }
            }
        };
        Ok(ty)
    }
}

impl FromStr for CqlType {
    type Err = TypeError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let mut p = TypeParser { src: s, pos: 0 };
        let ty = p.ty(0)?;
        match p.peek() {
            None => Ok(ty),
            Some(c) => p.err(format!("unexpected '{c}' after the type")),
        }
    }
}

impl Serialize for CqlType {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for CqlType {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A visitor rather than `String::deserialize`: the text is parsed
        // where it lies, without a copy per attribute.
        struct TypeText;
        impl serde::de::Visitor<'_> for TypeText {
            type Value = CqlType;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a CQL type as a string")
            }
            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<CqlType, E> {
                text.parse().map_err(|e: TypeError| {
                    E::custom(format!(
                        "type \"{}\": {e}",
                        crate::model::terminal_text::echo(text)
                    ))
                })
            }
        }
        d.deserialize_str(TypeText)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> CqlType {
        s.parse().unwrap()
    }

    #[test]
    fn every_native_type_round_trips() {
        for n in Native::ALL {
            assert_eq!(parse(n.name()), CqlType::Native(n));
            assert_eq!(parse(n.name()).to_string(), n.name());
        }
    }

    #[test]
    fn nested_types_round_trip() {
        for s in [
            "list<text>",
            "set<frozen<address>>",
            "map<text, frozen<address>>",
            "tuple<int, text, frozen<list<int>>>",
            "frozen<map<text, int>>",
            "vector<float, 3>",
        ] {
            assert_eq!(parse(s).to_string(), s);
        }
    }

    #[test]
    fn keywords_are_case_insensitive() {
        assert_eq!(parse("MAP<TEXT,Int>").to_string(), "map<text, int>");
    }

    #[test]
    fn nested_collections_are_frozen_in_cql() {
        let q = |s: &str| s.to_string();
        assert_eq!(
            parse("map<text, address>").to_cql(&q),
            "map<text, frozen<address>>"
        );
        assert_eq!(parse("list<set<int>>").to_cql(&q), "list<frozen<set<int>>>");
        assert_eq!(parse("set<int>").frozen().to_cql(&q), "frozen<set<int>>");
    }

    #[test]
    fn errors_say_where() {
        let e = "map<text int>".parse::<CqlType>().unwrap_err();
        assert_eq!(e.offset, 9);
        assert!(e.message.contains("expected ','"), "{e}");
        assert!("list<".parse::<CqlType>().is_err());
        assert!("frozen<int>".parse::<CqlType>().is_err());
        assert!("int>".parse::<CqlType>().is_err());
        assert!("".parse::<CqlType>().is_err());
        assert!("vector<float, 0>".parse::<CqlType>().is_err());
        let deep = "list<".repeat(100) + "int" + &">".repeat(100);
        assert!(deep.parse::<CqlType>().is_err());
    }

    #[test]
    fn sizes_follow_the_docs() {
        assert_eq!(Native::Boolean.fixed_size(), Some(1.0));
        assert_eq!(Native::Smallint.fixed_size(), Some(2.0));
        assert_eq!(Native::Date.fixed_size(), Some(4.0));
        assert_eq!(Native::Timestamp.fixed_size(), Some(8.0));
        assert_eq!(Native::Uuid.fixed_size(), Some(16.0));
        assert_eq!(Native::Text.fixed_size(), None);
    }
}
