//! Integration tests for CQL syntax highlighting: the embedded grammar loads,
//! text survives highlighting byte for byte, tokens get their palette styles,
//! and hostile input neither panics nor loses text.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::tui::highlight::{cql_syntax_ok, highlight_cql, Palette};
use proptest::prelude::*;
use ratatui::style::{Color, Style};
use ratatui::text::Line;

const SCRIPT: &str = r#"-- Keyspace for the order service (Q1..Q3)
CREATE KEYSPACE IF NOT EXISTS shop
  WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3, 'dc2': 2}
  AND durable_writes = true;

USE shop;

/* Address of a customer.
   Stored frozen inside orders. */
CREATE TYPE IF NOT EXISTS shop.address (
  street text,
  "Zip ""Code""" int,
  tags set<text>
);

// Q1: orders of a user, newest first
CREATE TABLE IF NOT EXISTS shop.orders_by_user (
  user_id uuid,
  bucket int,
  order_id timeuuid,
  total decimal,
  ship_to frozen<address>,
  items map<text, int>,
  embedding vector<float, 3>,
  user_email text STATIC,
  PRIMARY KEY ((user_id, bucket), order_id)
) WITH CLUSTERING ORDER BY (order_id DESC)
  AND comment = 'Q1. it''s the main query'
  AND default_time_to_live = 86400;

SELECT order_id, total FROM shop.orders_by_user
 WHERE user_id = ? AND bucket = ? LIMIT 50;

INSERT INTO shop.orders_by_user (user_id, bucket, order_id, total)
  VALUES (123e4567-e89b-12d3-a456-426614174000, 7, now(), 19.99)
  USING TTL 3600;

CREATE FUNCTION IF NOT EXISTS shop.twice (x int)
  RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java
  AS $$ return x * 2; $$;
"#;

/// The input's lines as the terminal may show them: the same text, with
/// tabs as spaces and control or bidi characters as placeholders.
fn safe_lines(input: &str) -> Vec<String> {
    input
        .lines()
        .map(|l| cqlmodel::model::terminal_text::for_terminal(l).into_owned())
        .collect()
}

fn text_of(line: &Line) -> String {
    line.spans.iter().map(|s| s.content.as_ref()).collect()
}

fn assert_preserved(input: &str) -> Vec<Line<'static>> {
    let lines = highlight_cql(input, &Palette::default());
    let expected = safe_lines(input);
    let got: Vec<String> = lines.iter().map(text_of).collect();
    assert_eq!(got, expected, "text not preserved");
    lines
}

/// Style of the non-whitespace characters of `needle` (which must all be
/// styled alike; whitespace between tokens is plain by design) at its
/// occurrence number `skip` in `lines`.
fn style_of_nth(lines: &[Line], needle: &str, skip: usize) -> Style {
    let mut seen = 0;
    for line in lines {
        let text = text_of(line);
        for (at, _) in text.match_indices(needle) {
            if seen < skip {
                seen += 1;
                continue;
            }
            let mut styles = Vec::new();
            let mut offset = 0;
            for span in &line.spans {
                for (i, c) in span.content.char_indices() {
                    let pos = offset + i;
                    if (at..at + needle.len()).contains(&pos) && !c.is_whitespace() {
                        styles.push(span.style);
                    }
                }
                offset += span.content.len();
            }
            styles.dedup();
            assert_eq!(
                styles.len(),
                1,
                "{needle:?} is not styled uniformly: {styles:?}"
            );
            return styles[0];
        }
    }
    panic!("{needle:?} not found");
}

fn style_of(lines: &[Line], needle: &str) -> Style {
    style_of_nth(lines, needle, 0)
}

#[test]
fn grammar_loads() {
    assert!(cql_syntax_ok());
}

#[test]
fn realistic_script_is_preserved() {
    let lines = assert_preserved(SCRIPT);
    assert_eq!(lines.len(), SCRIPT.lines().count());
}

#[test]
fn tokens_get_their_palette_styles() {
    let p = Palette::default();
    let lines = assert_preserved(SCRIPT);

    for kw in [
        "CREATE",
        "KEYSPACE",
        "IF NOT EXISTS",
        "PRIMARY",
        "KEY",
        "STATIC",
    ] {
        assert_eq!(style_of(&lines, kw), p.keyword, "{kw}");
    }
    for kw in ["CLUSTERING", "ORDER", "BY", "DESC", "LIMIT", "USING", "TTL"] {
        assert_eq!(style_of(&lines, kw), p.keyword, "{kw}");
    }
    // Option names are keywords after WITH/AND.
    assert_eq!(style_of(&lines, "replication"), p.keyword);
    assert_eq!(style_of(&lines, "comment"), p.keyword);

    for ty in ["uuid", "timeuuid", "decimal", "text", "float"] {
        assert_eq!(style_of(&lines, &format!(" {ty}")[1..]), p.ty, "{ty}");
    }
    assert_eq!(style_of_nth(&lines, "frozen", 1), p.ty);
    assert_eq!(style_of(&lines, "map"), p.ty);
    assert_eq!(style_of(&lines, "set"), p.ty);

    assert_eq!(style_of(&lines, "'NetworkTopologyStrategy'"), p.string);
    // The doubled quote stays inside the string.
    assert_eq!(style_of(&lines, "'Q1. it''s the main query'"), p.string);
    assert_eq!(style_of(&lines, "$$ return x * 2; $$"), p.string);

    assert_eq!(style_of(&lines, "86400"), p.number);
    assert_eq!(style_of(&lines, "19.99"), p.number);
    assert_eq!(
        style_of(&lines, "123e4567-e89b-12d3-a456-426614174000"),
        p.number
    );
    assert_eq!(style_of(&lines, "true"), p.number);

    assert_eq!(
        style_of(&lines, "-- Keyspace for the order service (Q1..Q3)"),
        p.comment
    );
    assert_eq!(
        style_of(&lines, "// Q1: orders of a user, newest first"),
        p.comment
    );
    assert_eq!(style_of(&lines, "/* Address of a customer."), p.comment);
    // Block comments carry over to the next line.
    assert_eq!(
        style_of(&lines, "   Stored frozen inside orders. */"),
        p.comment
    );

    assert_eq!(style_of(&lines, "?"), p.bind);
    assert_eq!(style_of_nth(&lines, "?", 1), p.bind);

    assert_eq!(style_of(&lines, r#""Zip ""Code""""#), p.identifier);
    assert_eq!(style_of(&lines, "orders_by_user"), p.identifier);
    assert_eq!(style_of(&lines, "now"), p.identifier);

    assert_eq!(style_of(&lines, ";"), p.punctuation);
    assert_eq!(style_of(&lines, "="), p.punctuation);
    // Exact spans: a delimiter ending a type or keyword is styled by itself.
    let spans_of = |needle: &str| -> Vec<(String, Style)> {
        let line = lines.iter().find(|l| text_of(l) == needle).unwrap();
        let spans = line.spans.iter();
        spans.map(|s| (s.content.to_string(), s.style)).collect()
    };
    let own = |s: &str, style: Style| (s.to_string(), style);
    assert_eq!(
        spans_of("  user_id uuid,"),
        [
            own("  user_id ", p.plain),
            own("uuid", p.ty),
            own(",", p.punctuation)
        ]
    );
    assert_eq!(
        spans_of("  user_email text STATIC,"),
        [
            own("  user_email ", p.plain),
            own("text", p.ty),
            own(" ", p.plain),
            own("STATIC", p.keyword),
            own(",", p.punctuation),
        ]
    );

    // Plain column names stay plain.
    assert_eq!(style_of(&lines, "street"), p.plain);
    assert_eq!(style_of(&lines, "bucket"), p.plain);
}

#[test]
fn keywords_are_case_insensitive() {
    let p = Palette::default();
    let lines = assert_preserved(
        "select a from t where k = ? and c in (1, 2) limit 10 allow filtering;\n\
         Begin Unlogged Batch\ninsert into t (k) values (:k) using ttl 60;\napply batch;",
    );
    for kw in [
        "select",
        "where",
        "and",
        "in",
        "limit",
        "allow",
        "filtering",
    ] {
        assert_eq!(style_of(&lines, kw), p.keyword, "{kw}");
    }
    for kw in [
        "Begin", "Unlogged", "Batch", "insert", "into", "values", "ttl", "apply",
    ] {
        assert_eq!(style_of(&lines, kw), p.keyword, "{kw}");
    }
    assert_eq!(style_of(&lines, ":k"), p.bind);
}

#[test]
fn keywords_inside_identifiers_are_not_keywords() {
    let p = Palette::default();
    let lines = assert_preserved("SELECT selected, user_select, fromage, intx, texts FROM t;");
    for word in ["selected", "user_select", "fromage", "intx", "texts"] {
        assert_eq!(style_of(&lines, word), p.plain, "{word}");
    }
}

#[test]
fn uses_the_given_palette() {
    let p = Palette {
        keyword: Style::new().fg(Color::Red),
        ty: Style::new().fg(Color::Blue),
        string: Style::new().fg(Color::Rgb(1, 2, 3)),
        number: Style::new().fg(Color::Rgb(4, 5, 6)),
        comment: Style::new().fg(Color::Rgb(7, 8, 9)),
        identifier: Style::new().fg(Color::Rgb(10, 11, 12)),
        punctuation: Style::new().fg(Color::Rgb(13, 14, 15)),
        bind: Style::new().fg(Color::Rgb(16, 17, 18)),
        plain: Style::new().fg(Color::White),
    };
    let lines = highlight_cql("SELECT a, 'x' FROM t WHERE b = ? -- c\nLIMIT 1;", &p);
    assert_eq!(style_of(&lines, "SELECT"), p.keyword);
    assert_eq!(style_of(&lines, "a"), p.plain);
    assert_eq!(style_of(&lines, ","), p.punctuation);
    assert_eq!(style_of(&lines, "'x'"), p.string);
    assert_eq!(style_of(&lines, "t"), p.identifier);
    assert_eq!(style_of(&lines, "?"), p.bind);
    assert_eq!(style_of(&lines, "-- c"), p.comment);
    assert_eq!(style_of(&lines, "1"), p.number);
}

#[test]
fn multi_line_strings_continue() {
    let p = Palette::default();
    let lines =
        assert_preserved("INSERT INTO t (a) VALUES ('first\nsecond''s\nthird') ;\nSELECT 1;");
    assert_eq!(style_of(&lines, "second''s"), p.string);
    assert_eq!(style_of(&lines, "third'"), p.string);
    assert_eq!(style_of(&lines, "SELECT"), p.keyword);
}

#[test]
fn pathological_inputs_do_not_panic_and_keep_text() {
    let long_line = "SELECT a, b FROM t WHERE c = 'x' AND d = ? ".repeat(100_000 / 43);
    let inputs: Vec<String> = vec![
        String::new(),
        "\n".into(),
        "\n\n\n".into(),
        "'unterminated string\nstill string\n".into(),
        "/* unterminated block comment\nSELECT * FROM t;".into(),
        "$$ unterminated dollar string".into(),
        "\"unterminated identifier".into(),
        "map<text, frozen<list<".into(),
        "CREATE TABLE".into(),
        "CREATE INDEX ON".into(),
        long_line,
        "x".repeat(100_000),
        "(".repeat(50_000),
        "'".repeat(10_001),
        "\u{0}\u{1}\u{7}\u{8}\t\u{b}\u{c}\r\u{1b}[31mSELECT\u{7f} 1;".into(),
        "SELECT 'ünïcödé ✓', \"名前\" FROM t; -- 😀".into(),
        "a\r\nb\r\n".into(),
        "lone\rcarriage return".into(),
        "\u{feff}SELECT 1;".into(),
    ];
    for input in &inputs {
        let lines = assert_preserved(input);
        assert_eq!(lines.len(), input.lines().count());
    }
    assert!(highlight_cql("", &Palette::default()).is_empty());
}

#[test]
fn large_script_is_fast_enough() {
    let mut script = String::new();
    while script.lines().count() < 2_000 {
        script.push_str(SCRIPT);
    }
    let script: String = script.lines().take(2_000).collect::<Vec<_>>().join("\n");
    assert!(cql_syntax_ok()); // one-off grammar load outside the timing
    let mut best = std::time::Duration::MAX;
    for _ in 0..3 {
        let start = std::time::Instant::now();
        let lines = highlight_cql(&script, &Palette::default());
        best = best.min(start.elapsed());
        assert_eq!(lines.len(), 2_000);
    }
    // The target is well under 50 ms; the bound is loose because test
    // machines are shared, but catches order-of-magnitude regressions (e.g.
    // a `\b` in a hot pattern). Debug builds are not representative.
    if !cfg!(debug_assertions) {
        assert!(best.as_millis() < 100, "2,000 lines took {best:?}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn any_text_is_preserved(input in "[a-zA-Z0-9_ \n\t'\"$;,.:(){}<>=?*/+-]{0,200}") {
        let lines = highlight_cql(&input, &Palette::default());
        let got: Vec<String> = lines.iter().map(text_of).collect();
        prop_assert_eq!(got, safe_lines(&input));
    }

    #[test]
    fn any_unicode_is_preserved(input in "\\PC{0,100}") {
        let lines = highlight_cql(&input, &Palette::default());
        let got: Vec<String> = lines.iter().map(text_of).collect();
        prop_assert_eq!(got, safe_lines(&input));
    }

    #[test]
    fn no_escape_reaches_the_terminal(input in r"(\PC|[\x00-\x1f\x7f-\x{9f}\x{202a}-\x{202e}\x{2066}-\x{2069}]){0,100}") {
        let lines = highlight_cql(&input, &Palette::default());
        for l in &lines {
            for span in &l.spans {
                prop_assert!(!span.content.chars().any(cqlmodel::model::terminal_text::is_unsafe), "{:?}", span.content);
            }
        }
    }
}
