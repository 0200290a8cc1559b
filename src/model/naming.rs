//! Names: `snake_case` and plurals for derived tables and columns, and the CQL
//! identifier rules (which names need quotes, how quotes are escaped).

/// `PointOfInterest` → `point_of_interest`, `available rooms` →
/// `available_rooms`. Anything that is not ASCII alphanumeric separates words,
/// so the result is always a plain identifier body (possibly empty).
pub(crate) fn snake_case(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    snake_case_into(&mut out, name);
    out
}

/// [`snake_case`] appended to `out` (a list of names in one text is made
/// without a string per name).
pub(crate) fn snake_case_into(out: &mut String, name: &str) {
    let start = out.len();
    let bytes = name.as_bytes();
    // Whether the name written so far (not what `out` held) ends a word.
    let open = |out: &String| out.len() > start && !out.ends_with('_');
    // Bytes, not chars: only ASCII alphanumerics survive, and every byte of
    // a multi-byte character is non-ASCII, so it separates words like any
    // other symbol.
    for (i, &c) in bytes.iter().enumerate() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() {
                let prev = i.checked_sub(1).map(|j| bytes[j]);
                let next = bytes.get(i + 1).copied();
                let boundary = prev.is_some_and(|p| {
                    p.is_ascii_lowercase()
                        || p.is_ascii_digit()
                        || (p.is_ascii_uppercase() && next.is_some_and(|n| n.is_ascii_lowercase()))
                });
                if boundary && open(out) {
                    out.push('_');
                }
                out.push(c.to_ascii_lowercase() as char);
            } else {
                out.push(c as char);
            }
        } else if open(out) {
            out.push('_');
        }
    }
    while out.len() > start && out.ends_with('_') {
        out.pop();
    }
}

/// Words that start a modifier after the head noun of a compound name
/// (`point_of_interest`, `person_in_charge`).
const PREPOSITIONS: &[&str] = &[
    "at", "for", "from", "in", "of", "on", "per", "to", "under", "with", "within",
];

/// English plural of a `snake_case` name: its head noun, the last word before
/// the first preposition (`points_of_interest`, `people_of_contact`), else
/// its last word.
pub fn plural(word: &str) -> String {
    // A preposition with a head noun before it and a modifier after it: a
    // word between two underscores (found without listing the words: every
    // table name passes here).
    let split = word.match_indices('_').map(|(u, _)| u).find(|&u| {
        let rest = &word[u + 1..];
        rest.find('_')
            .is_some_and(|end| PREPOSITIONS.contains(&&rest[..end]))
    });
    match split {
        Some(head_len) => {
            let mut out = plural_of_last(&word[..head_len]);
            out.push_str(&word[head_len..]);
            out
        }
        None => plural_of_last(word),
    }
}

/// English plural of the last word of a `snake_case` name.
fn plural_of_last(word: &str) -> String {
    let (head, last) = match word.rfind('_') {
        Some(i) => (&word[..=i], &word[i + 1..]),
        None => ("", word),
    };
    let irregular = [
        ("person", "people"),
        ("child", "children"),
        ("man", "men"),
        ("woman", "women"),
        ("mouse", "mice"),
        ("datum", "data"),
        ("index", "indexes"),
    ];
    if let Some((_, p)) = irregular.iter().find(|(s, _)| *s == last) {
        return format!("{head}{p}");
    }
    let uncountable = [
        "data",
        "info",
        "information",
        "news",
        "series",
        "metadata",
        "media",
        "equipment",
    ];
    if uncountable.contains(&last) || last.is_empty() {
        return word.to_string();
    }
    let vowel = |c: char| "aeiou".contains(c);
    // Pieces pushed into one buffer: every table and column name passes here.
    let (stem, suffix) = if let Some(stem) = last.strip_suffix('y') {
        if stem.chars().last().is_some_and(|c| !vowel(c)) {
            (stem, "ies")
        } else {
            (last, "s")
        }
    } else if last.ends_with('s')
        || last.ends_with('x')
        || last.ends_with('z')
        || last.ends_with("ch")
        || last.ends_with("sh")
    {
        (last, "es")
    } else {
        (last, "s")
    };
    let mut out = String::with_capacity(head.len() + stem.len() + suffix.len());
    out.push_str(head);
    out.push_str(stem);
    out.push_str(suffix);
    out
}

/// Keywords Cassandra reserves: an unquoted identifier may not be one.
const RESERVED: &[&str] = &[
    "add",
    "allow",
    "alter",
    "and",
    "apply",
    "asc",
    "authorize",
    "batch",
    "begin",
    "by",
    "columnfamily",
    "create",
    "default",
    "delete",
    "desc",
    "describe",
    "drop",
    "entries",
    "execute",
    "from",
    "full",
    "grant",
    "if",
    "in",
    "index",
    "infinity",
    "insert",
    "into",
    "is",
    "keyspace",
    "limit",
    "materialized",
    "mbean",
    "mbeans",
    "modify",
    "nan",
    "norecursive",
    "not",
    "null",
    "of",
    "on",
    "or",
    "order",
    "primary",
    "rename",
    "replace",
    "revoke",
    "schema",
    "select",
    "set",
    "table",
    "to",
    "token",
    "truncate",
    "unlogged",
    "unset",
    "update",
    "use",
    "using",
    "view",
    "where",
    "with",
];

pub(crate) fn is_reserved(name: &str) -> bool {
    // A hash set: this runs for every identifier of every SELECT and
    // CREATE, and a binary search costs several comparisons each time.
    static SET: std::sync::OnceLock<rustc_hash::FxHashSet<&'static [u8]>> =
        std::sync::OnceLock::new();
    if name.len() > 16 {
        return false;
    }
    let mut buf = [0u8; 16];
    for (b, c) in buf.iter_mut().zip(name.bytes()) {
        *b = c.to_ascii_lowercase();
    }
    SET.get_or_init(|| RESERVED.iter().map(|w| w.as_bytes()).collect())
        .contains(&buf[..name.len()])
}

/// A name that CQL accepts unquoted and that keeps its case: lowercase
/// letters, digits and underscores, starting with a letter, not reserved.
pub fn is_plain_identifier(name: &str) -> bool {
    let Some((first, rest)) = name.as_bytes().split_first() else {
        return false;
    };
    if !first.is_ascii_lowercase() {
        return false;
    }
    let mut letters_only = true;
    for &b in rest {
        if b.is_ascii_digit() || b == b'_' {
            letters_only = false;
        } else if !b.is_ascii_lowercase() {
            return false;
        }
    }
    // Reserved words are letters only: most names (`hotel_id`) need no
    // lookup.
    !(letters_only && is_reserved(name))
}

/// Appends the identifier as [`quote`] writes it, without an allocation
/// for plain names.
pub(crate) fn push_quoted(out: &mut String, name: &str) {
    if is_plain_identifier(name) {
        out.push_str(name);
    } else {
        out.push('"');
        out.push_str(&name.replace('"', "\"\""));
        out.push('"');
    }
}

/// Keyspace, table and type names may only hold `[A-Za-z0-9_]`, even quoted.
pub fn is_valid_schema_name(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 48
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// The identifier as it must appear in CQL: bare when plain, otherwise in
/// double quotes with embedded quotes doubled.
pub fn quote(name: &str) -> String {
    if is_plain_identifier(name) {
        name.to_string()
    } else {
        format!("\"{}\"", name.replace('"', "\"\""))
    }
}

/// A name made safe for a schema object (`[a-z0-9_]`, starting with a
/// letter, at most 48 characters), for names that come from free text.
pub(crate) fn schema_name(raw: &str, fallback: &str) -> String {
    let mut s = snake_case(raw);
    if s.is_empty() {
        s = fallback.to_string();
    }
    if s.chars().next().is_some_and(|c| c.is_ascii_digit()) {
        s.insert(0, 't');
        s.insert(1, '_');
    }
    if s.len() > 48 {
        s.truncate(48);
        while s.ends_with('_') {
            s.pop();
        }
    }
    s
}

/// [`schema_name`] of an owned name: a name that is one already (most
/// derived names are) is kept as it is, not made again.
pub(crate) fn schema_name_of(raw: String, fallback: &str) -> String {
    let bytes = raw.as_bytes();
    let body = |b: &u8| b.is_ascii_lowercase() || b.is_ascii_digit() || *b == b'_';
    let settled = bytes.first().is_some_and(u8::is_ascii_lowercase)
        && bytes.len() <= 48
        && bytes.iter().all(body)
        && !raw.ends_with('_')
        && !raw.contains("__");
    if settled {
        raw
    } else {
        schema_name(&raw, fallback)
    }
}

/// CQL string literal with quotes doubled.
pub(crate) fn string_literal(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

/// The most similar of `candidates` to `wanted`, for "did you mean" hints.
pub fn closest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let w = wanted.to_ascii_lowercase();
    candidates
        .into_iter()
        .map(|c| (edit_distance(&w, &c.to_ascii_lowercase()), c))
        .filter(|(d, c)| *d <= (c.len().max(w.len()) / 3).max(2))
        .min_by_key(|(d, _)| *d)
        .map(|(_, c)| c)
}

/// `; did you mean "x"?` for the closest candidate, or nothing.
pub(crate) fn did_you_mean<'a>(
    wanted: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> String {
    closest(wanted, candidates)
        .map(|s| format!("; did you mean \"{s}\"?"))
        .unwrap_or_default()
}

fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().take(64).collect();
    let b: Vec<char> = b.chars().take(64).collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 1..=a.len() {
        let mut cur = vec![i; b.len() + 1];
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
        }
        prev = cur;
    }
    prev[b.len()]
}

/// Text from a file made safe to draw in a terminal (kept here for the
/// callers that know it by this name).
pub use crate::model::terminal_text::for_terminal;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snake_case_splits_words() {
        assert_eq!(snake_case("PointOfInterest"), "point_of_interest");
        assert_eq!(snake_case("HTTPRequest"), "http_request");
        assert_eq!(snake_case("available rooms"), "available_rooms");
        assert_eq!(snake_case("room2Go"), "room2_go");
        assert_eq!(snake_case("--"), "");
        assert_eq!(snake_case("Ünïcode x"), "n_code_x");
    }

    /// Appended after other text, a name is written as alone: what came
    /// before (an underscore, a word, nothing) changes nothing.
    #[test]
    fn snake_case_into_appends_the_name_as_alone() {
        for name in [
            "PointOfInterest",
            "_x_",
            "--",
            " a  b ",
            "HTTPRequest",
            "Ünïcode x",
            "",
        ] {
            for before in ["", "_", "hotel", "a_"] {
                let mut out = before.to_string();
                snake_case_into(&mut out, name);
                assert_eq!(
                    out,
                    format!("{before}{}", snake_case(name)),
                    "{before:?} {name:?}"
                );
            }
        }
    }

    #[test]
    fn plurals() {
        assert_eq!(plural("hotel"), "hotels");
        assert_eq!(plural("amenity"), "amenities");
        assert_eq!(plural("day"), "days");
        assert_eq!(plural("address"), "addresses");
        assert_eq!(plural("available_room"), "available_rooms");
        assert_eq!(plural("message_category"), "message_categories");
        assert_eq!(plural("person"), "people");
        assert_eq!(plural("poi"), "pois");
    }

    #[test]
    fn compound_plurals_pluralise_the_head_noun() {
        assert_eq!(plural("point_of_interest"), "points_of_interest");
        assert_eq!(plural("person_of_contact"), "people_of_contact");
        assert_eq!(plural("bill_of_material"), "bills_of_material");
        assert_eq!(plural("room_type_per_hotel"), "room_types_per_hotel");
        assert_eq!(plural("mother_in_law"), "mothers_in_law");
        // A leading or trailing preposition is no compound.
        assert_eq!(plural("of"), "ofs");
        assert_eq!(plural("on_call_shift"), "on_call_shifts");
        assert_eq!(plural("sign_in"), "sign_ins");
        assert_eq!(plural(&snake_case("PointOfInterest")), "points_of_interest");
    }

    #[test]
    fn reserved_words_are_sorted_and_each_is_found() {
        assert!(RESERVED.windows(2).all(|w| w[0] < w[1]));
        // `is_plain_identifier` looks up only names of letters alone.
        assert!(RESERVED
            .iter()
            .all(|w| w.bytes().all(|b| b.is_ascii_lowercase())));
        for w in RESERVED {
            assert!(
                is_reserved(w) && is_reserved(&w.to_ascii_uppercase()),
                "{w}"
            );
            assert!(!is_reserved(&format!("{w}_")), "{w}");
        }
        assert!(is_reserved("ORDER") && is_reserved("token") && !is_reserved("date"));
    }

    #[test]
    fn quoting() {
        assert_eq!(quote("hotel_id"), "hotel_id");
        assert_eq!(quote("Name"), "\"Name\"");
        assert_eq!(quote("order"), "\"order\"");
        assert_eq!(quote("a\"b"), "\"a\"\"b\"");
        assert_eq!(quote("1abc"), "\"1abc\"");
        assert!(!is_plain_identifier(""));
    }

    #[test]
    fn schema_names_are_valid() {
        assert_eq!(
            schema_name("Hotel Reservations!", "x"),
            "hotel_reservations"
        );
        assert_eq!(schema_name("123", "x"), "t_123");
        assert_eq!(schema_name("", "fallback"), "fallback");
        assert!(is_valid_schema_name(&schema_name(&"a".repeat(100), "x")));
    }

    /// The owned variant gives what `schema_name` gives, kept or made.
    #[test]
    fn schema_name_of_equals_schema_name() {
        for raw in [
            "hotels_by_poi",
            "Hotels_by_POI",
            "rooms__by_x",
            "rooms_by_",
            "_rooms",
            "9lives",
            "",
            "émigrés_by_city",
            "a_b_c_d_e_f_g_h_i_j_k_l_m_n_o_p_q_r_s_t_u_v_w_x_y_z",
            &"x".repeat(48),
            &"x".repeat(49),
            "by_1st",
        ] {
            assert_eq!(
                schema_name_of(raw.to_string(), "table"),
                schema_name(raw, "table"),
                "{raw:?}"
            );
        }
    }

    #[test]
    fn closest_suggests() {
        assert_eq!(closest("nme", ["name", "phone"]), Some("name"));
        assert_eq!(closest("zzzzzz", ["name", "phone"]), None);
    }

    #[test]
    fn terminal_text_has_no_escapes() {
        let s = for_terminal("evil\x1b[2Jname\x07");
        assert!(!s.chars().any(char::is_control));
        assert_eq!(for_terminal("plain"), "plain");
    }

    #[test]
    fn string_literals_escape_quotes() {
        assert_eq!(string_literal("it's"), "'it''s'");
    }
}
