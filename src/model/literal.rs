//! CQL literals for the constants a query states (`status = "active"`):
//! the value, written as text in the project, bound in the SELECT as a
//! literal of the attribute's type. The value is hostile: strings are quoted
//! with embedded quotes doubled, everything else must parse as its type.

use crate::model::naming::string_literal;
use crate::model::{CqlType, Native};

/// The CQL literal of `value` for a column of type `ty`, or why there is none.
pub fn constant(ty: &CqlType, value: &str) -> Result<String, String> {
    if value.chars().any(crate::model::terminal_text::is_unsafe) {
        return Err("a constant may not hold control or bidirectional characters".into());
    }
    let Some(native) = ty.native() else {
        return Err(format!("a constant cannot be compared with a {ty} value"));
    };
    let bad = |what: &str| format!("\"{value}\" is not {what}");
    match native {
        Native::Ascii if !value.is_ascii() => Err(bad("ASCII text")),
        Native::Ascii
        | Native::Text
        | Native::Varchar
        | Native::Date
        | Native::Time
        | Native::Timestamp
        | Native::Inet => Ok(string_literal(value)),
        Native::Tinyint => integer::<i8>(value).ok_or_else(|| bad("a tinyint")),
        Native::Smallint => integer::<i16>(value).ok_or_else(|| bad("a smallint")),
        Native::Int => integer::<i32>(value).ok_or_else(|| bad("an int")),
        Native::Bigint => integer::<i64>(value).ok_or_else(|| bad("a bigint")),
        Native::Varint => integer::<i128>(value).ok_or_else(|| bad("a varint")),
        Native::Float | Native::Double | Native::Decimal => {
            decimal(value).ok_or_else(|| bad("a number"))
        }
        Native::Boolean => match value.to_ascii_lowercase().as_str() {
            b @ ("true" | "false") => Ok(b.to_string()),
            _ => Err(bad("true or false")),
        },
        Native::Uuid | Native::Timeuuid => uuid(value).ok_or_else(|| bad("a uuid")),
        Native::Blob | Native::Counter | Native::Duration => {
            Err(format!("a constant cannot be compared with a {ty} value"))
        }
    }
}

fn integer<T: std::str::FromStr + ToString>(value: &str) -> Option<String> {
    value.trim().parse::<T>().ok().map(|n| n.to_string())
}

/// A plain decimal number (`-12.5`, `3`), written back as given.
fn decimal(value: &str) -> Option<String> {
    let v = value.trim();
    let digits = v.strip_prefix('-').unwrap_or(v);
    let mut parts = digits.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let frac = parts.next();
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    (all_digits(whole) && frac.is_none_or(all_digits)).then(|| v.to_string())
}

/// `8-4-4-4-12` hexadecimal digits, lowercased.
fn uuid(value: &str) -> Option<String> {
    let v = value.trim().to_ascii_lowercase();
    let groups: Vec<&str> = v.split('-').collect();
    let lens = [8, 4, 4, 4, 12];
    let ok = groups.len() == 5
        && groups
            .iter()
            .zip(lens)
            .all(|(g, n)| g.len() == n && g.bytes().all(|b| b.is_ascii_hexdigit()));
    ok.then_some(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(ty: Native, v: &str) -> Result<String, String> {
        constant(&CqlType::Native(ty), v)
    }

    #[test]
    fn text_is_quoted_with_quotes_doubled() {
        assert_eq!(lit(Native::Text, "active").as_deref(), Ok("'active'"));
        assert_eq!(lit(Native::Text, "it's").as_deref(), Ok("'it''s'"));
        assert_eq!(
            lit(Native::Text, "x'; DROP TABLE t; --").as_deref(),
            Ok("'x''; DROP TABLE t; --'")
        );
        assert_eq!(
            lit(Native::Date, "2024-01-01").as_deref(),
            Ok("'2024-01-01'")
        );
    }

    #[test]
    fn hostile_characters_are_refused() {
        assert!(lit(Native::Text, "a\nb").is_err());
        assert!(lit(Native::Text, "a\u{202e}b").is_err());
        assert!(lit(Native::Text, "\x1b[2J").is_err());
        assert!(lit(Native::Ascii, "é").is_err());
    }

    #[test]
    fn numbers_booleans_and_uuids_must_parse() {
        assert_eq!(lit(Native::Int, "42").as_deref(), Ok("42"));
        assert_eq!(lit(Native::Int, "-7").as_deref(), Ok("-7"));
        assert!(lit(Native::Int, "42 OR 1=1").is_err());
        assert!(lit(Native::Tinyint, "300").is_err());
        assert_eq!(lit(Native::Decimal, "-12.50").as_deref(), Ok("-12.50"));
        assert!(lit(Native::Double, "1.2.3").is_err());
        assert!(lit(Native::Double, ".").is_err());
        assert_eq!(lit(Native::Boolean, "TRUE").as_deref(), Ok("true"));
        assert!(lit(Native::Boolean, "yes").is_err());
        assert_eq!(
            lit(Native::Uuid, "123E4567-E89B-12D3-A456-426614174000").as_deref(),
            Ok("123e4567-e89b-12d3-a456-426614174000")
        );
        assert!(lit(Native::Uuid, "123e4567").is_err());
    }

    #[test]
    fn types_without_literals_are_refused() {
        assert!(lit(Native::Blob, "00").is_err());
        assert!(lit(Native::Counter, "1").is_err());
        assert!(constant(&CqlType::List(Box::new(CqlType::text())), "a").is_err());
    }
}
