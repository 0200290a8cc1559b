//! CQL syntax highlighting for the terminal UI.
//!
//! The grammar is a Sublime Text syntax (`assets/cql.sublime-syntax`) run by
//! syntect's parser. syntect's theme machinery is compiled out (default
//! features are off), so scopes are mapped to a small [`Palette`] here by
//! prefix matching, which is all a handful of terminal colours needs.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;

use crate::model::terminal_text::for_terminal;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::parsing::{
    BasicScopeStackOp, ParseState, Scope, ScopeStack, SyntaxDefinition, SyntaxReference, SyntaxSet,
    SyntaxSetBuilder,
};

/// Embedded so the binary needs no asset files at runtime.
const GRAMMAR: &str = include_str!("../../assets/cql.sublime-syntax");

/// Styles for each token class the highlighter distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Palette {
    /// Statement and clause keywords, word operators (`AND`, `IN`, ...).
    pub keyword: Style,
    /// Native types and collection type constructors.
    pub ty: Style,
    /// String literals (`'...'` and `$$...$$`).
    pub string: Style,
    /// Numeric literals plus other literal constants (uuids, booleans, null).
    pub number: Style,
    /// All three comment forms.
    pub comment: Style,
    /// Quoted identifiers, declared/referenced object names, built-in functions.
    pub identifier: Style,
    /// Punctuation and symbolic operators.
    pub punctuation: Style,
    /// Bind markers (`?`, `:name`).
    pub bind: Style,
    /// Everything else (plain column names, whitespace).
    pub plain: Style,
}

impl Default for Palette {
    /// Colours from the 16-colour ANSI set so they follow the user's terminal
    /// theme; tuned for dark backgrounds.
    fn default() -> Self {
        Palette {
            keyword: Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
            ty: Style::new().fg(Color::Cyan),
            string: Style::new().fg(Color::Green),
            number: Style::new().fg(Color::Yellow),
            comment: Style::new()
                .fg(Color::DarkGray)
                .add_modifier(Modifier::ITALIC),
            identifier: Style::new().fg(Color::LightBlue),
            punctuation: Style::new().fg(Color::Gray),
            bind: Style::new()
                .fg(Color::LightRed)
                .add_modifier(Modifier::BOLD),
            plain: Style::new(),
        }
    }
}

/// Token classes, one per [`Palette`] field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Keyword,
    Ty,
    String,
    Number,
    Comment,
    Identifier,
    Punctuation,
    Bind,
    Plain,
}

impl Kind {
    fn style(self, palette: &Palette) -> Style {
        match self {
            Kind::Keyword => palette.keyword,
            Kind::Ty => palette.ty,
            Kind::String => palette.string,
            Kind::Number => palette.number,
            Kind::Comment => palette.comment,
            Kind::Identifier => palette.identifier,
            Kind::Punctuation => palette.punctuation,
            Kind::Bind => palette.bind,
            Kind::Plain => palette.plain,
        }
    }
}

/// How one scope styles text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Class {
    kind: Kind,
    /// Wins over anything nested inside it, so that e.g. the quotes and `''`
    /// escapes of a string are styled as string.
    container: bool,
    /// Covers one word, plus at most the single delimiter the grammar had to
    /// consume to find the word's end (fancy-regex look-aheads are too slow);
    /// that delimiter is styled by itself.
    word: bool,
}

/// Scope prefixes in priority order: the first matching prefix classifies a
/// scope. Anything unmatched (`source.cql`, `meta.*`) doesn't style.
const RULES: &[(&str, Kind, bool, bool)] = &[
    // (prefix, kind, container, word)
    ("comment", Kind::Comment, true, false),
    ("string", Kind::String, true, false),
    ("variable.other.quoted", Kind::Identifier, true, false),
    ("entity.name", Kind::Identifier, false, false),
    ("support.function", Kind::Identifier, false, true),
    ("variable.parameter", Kind::Bind, false, false),
    ("variable.other", Kind::Plain, false, true),
    ("constant.numeric.integer", Kind::Number, false, true),
    ("constant.numeric", Kind::Number, false, false),
    ("constant.other", Kind::Number, false, false),
    ("constant.language", Kind::Number, false, true),
    ("storage.type.user-defined", Kind::Ty, false, false),
    ("storage.type", Kind::Ty, false, true),
    ("support.type", Kind::Ty, false, true),
    ("keyword.operator.logical", Kind::Keyword, false, true),
    ("keyword.operator", Kind::Punctuation, false, false),
    ("keyword", Kind::Keyword, false, true),
    ("punctuation", Kind::Punctuation, false, false),
];

/// The loaded grammar plus precomputed scope classifications.
struct Highlighter {
    set: SyntaxSet,
    rules: Vec<(Scope, Class)>,
    /// Every scope the grammar can push, classified up front so the hot loop
    /// does one hash lookup per pushed scope instead of prefix matching.
    classes: ScopeMap<Option<Class>>,
}

/// Loaded once: building the syntax set costs far more than highlighting.
static HIGHLIGHTER: OnceLock<Option<Highlighter>> = OnceLock::new();

fn highlighter() -> Option<&'static Highlighter> {
    HIGHLIGHTER
        .get_or_init(|| catch_unwind(Highlighter::load).ok().flatten())
        .as_ref()
}

/// Whether the embedded grammar loaded; meant for a startup self-check, since
/// otherwise a broken grammar only shows up as uncoloured text. The first
/// call also pays the one-off grammar load and regex compilation (~20 ms), so
/// calling it at startup keeps that off the first frame.
pub fn cql_syntax_ok() -> bool {
    highlighter().is_some()
}

/// Highlights CQL `text`, returning one [`Line`] per line as split by
/// [`str::lines`] (so `\n` / `\r\n` terminators are dropped and empty input
/// yields no lines). Concatenating the spans of line `i` gives exactly
/// `text.lines().nth(i)`.
///
/// Parser state carries across lines, so multi-line comments and strings are
/// coloured correctly. Never panics: if the grammar is unavailable or parsing
/// fails, the affected lines come back unstyled (`palette.plain`).
pub fn highlight_cql(text: &str, palette: &Palette) -> Vec<Line<'static>> {
    let Some(h) = highlighter() else {
        return text.lines().map(|l| plain_line(l, palette)).collect();
    };
    // syntect is third-party code with internal `unwrap`s; a panic in the
    // render path would take the whole TUI down, so contain it.
    catch_unwind(AssertUnwindSafe(|| h.highlight(text, palette)))
        .unwrap_or_else(|_| text.lines().map(|l| plain_line(l, palette)).collect())
}

/// Enters every context of the grammar, so that loading also compiles
/// (and thereby checks) practically all of its regexes, which syntect
/// otherwise compiles lazily during the first highlight.
const WARM_UP: &str = r#"/* c */ -- c
// c
CREATE TABLE IF NOT EXISTS ks.t (a frozen<map<text, int>>, "q""" int, PRIMARY KEY ((a), b)) WITH comment = 'x''y';
CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy'}; USE k; TRUNCATE TABLE t;
CREATE TYPE t (a int); CREATE OR REPLACE FUNCTION f (a int) RETURNS int LANGUAGE java AS $$ return a; $$;
CREATE INDEX i ON t (a); CREATE ROLE r; CONSISTENCY QUORUM;
BEGIN UNLOGGED BATCH INSERT INTO t (a) VALUES (?, :b, 0x1, 1.5e3, 12h, 123e4567-e89b-12d3-a456-426614174000, true, null) USING TTL 1; APPLY BATCH;
SELECT now(), a FROM t WHERE a IN (1) AND b >= 2 LIMIT 1;
"#;

impl Highlighter {
    fn load() -> Option<Highlighter> {
        let def = SyntaxDefinition::load_from_str(GRAMMAR, true, None).ok()?;
        let rules = RULES
            .iter()
            .map(|&(prefix, kind, container, word)| {
                let class = Class {
                    kind,
                    container,
                    word,
                };
                Some((Scope::new(prefix).ok()?, class))
            })
            .collect::<Option<Vec<_>>>()?;
        let mut classes = ScopeMap::default();
        for scope in scopes_of(&def) {
            classes.insert(scope, classify(&rules, scope));
        }
        let mut builder = SyntaxSetBuilder::new();
        builder.add(def);
        let h = Highlighter {
            set: builder.build(),
            rules,
            classes,
        };
        let mut state = ParseState::new(h.syntax()?);
        for line in WARM_UP.lines() {
            state.parse_line(&format!("{line}\n"), &h.set).ok()?;
        }
        Some(h)
    }

    fn syntax(&self) -> Option<&SyntaxReference> {
        self.set.syntaxes().first()
    }

    fn class(&self, scope: Scope) -> Option<Class> {
        match self.classes.get(&scope) {
            Some(&class) => class,
            None => classify(&self.rules, scope),
        }
    }

    fn highlight(&self, text: &str, palette: &Palette) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        let mut lines = text.lines();
        let Some(syntax) = self.syntax() else {
            return lines.map(|l| plain_line(l, palette)).collect();
        };
        let mut state = ParseState::new(syntax);
        let mut stack = ScopeStack::new();
        // Mirrors `stack` with each scope's class.
        let mut classes: Vec<Option<Class>> = Vec::new();
        let mut buf = String::new();
        for line in lines.by_ref() {
            buf.clear();
            buf.push_str(line);
            buf.push('\n');
            if let Some(l) =
                self.highlight_line(line, &buf, &mut state, &mut stack, &mut classes, palette)
            {
                out.push(l);
            } else {
                // State is unreliable after an error: give up on colour
                // for the rest rather than show misleading colours.
                out.push(plain_line(line, palette));
                break;
            }
        }
        out.extend(lines.map(|l| plain_line(l, palette)));
        out
    }

    /// `buf` is `line` plus '\n'; `None` on any parser or scope error.
    fn highlight_line(
        &self,
        line: &str,
        buf: &str,
        state: &mut ParseState,
        stack: &mut ScopeStack,
        classes: &mut Vec<Option<Class>>,
        palette: &Palette,
    ) -> Option<Line<'static>> {
        let ops = state.parse_line(buf, &self.set).ok()?;
        let mut spans = SpanBuilder::new(line);
        let mut pos = 0;
        for (idx, op) in &ops {
            let idx = (*idx).min(line.len());
            if idx > pos {
                spans.push_run(pos, idx, classes, palette)?;
                pos = idx;
            }
            stack
                .apply_with_hook(op, |basic, _| match basic {
                    BasicScopeStackOp::Push(scope) => classes.push(self.class(scope)),
                    BasicScopeStackOp::Pop => {
                        classes.pop();
                    }
                })
                .ok()?;
        }
        spans.push_run(pos, line.len(), classes, palette)?;
        Some(spans.finish())
    }
}

fn classify(rules: &[(Scope, Class)], scope: Scope) -> Option<Class> {
    rules
        .iter()
        .find(|(prefix, _)| prefix.is_prefix_of(scope))
        .map(|&(_, class)| class)
}

/// The class that styles text under this stack: the outermost container if
/// any, otherwise the innermost classified scope.
fn effective(classes: &[Option<Class>]) -> Option<Class> {
    let mut found = None;
    for &class in classes.iter().flatten() {
        if class.container {
            return Some(class);
        }
        found = Some(class);
    }
    found
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Collects the styled byte ranges of one line, merging neighbours of equal
/// style, and allocates each span's text once at the end.
struct SpanBuilder<'a> {
    line: &'a str,
    runs: Vec<(usize, usize, Style)>,
}

impl<'a> SpanBuilder<'a> {
    fn new(line: &'a str) -> Self {
        SpanBuilder {
            line,
            runs: Vec::new(),
        }
    }

    /// Adds `line[start..end]` styled by the scope stack `classes`; see
    /// [`Class::word`]. `None` if the range is not on char boundaries.
    fn push_run(
        &mut self,
        start: usize,
        end: usize,
        classes: &[Option<Class>],
        palette: &Palette,
    ) -> Option<()> {
        let text = self.line.get(start..end)?;
        let Some(class) = effective(classes) else {
            self.push(start, end, palette.plain);
            return Some(());
        };
        let style = class.kind.style(palette);
        if !class.word {
            self.push(start, end, style);
            return Some(());
        }
        let word_end = text
            .char_indices()
            .rev()
            .find(|&(_, c)| is_word_char(c))
            .map_or(0, |(i, c)| i + c.len_utf8());
        self.push(start, start + word_end, style);
        for (i, c) in text[word_end..].char_indices() {
            let style = if c.is_whitespace() {
                palette.plain
            } else {
                palette.punctuation
            };
            let at = start + word_end + i;
            self.push(at, at + c.len_utf8(), style);
        }
        Some(())
    }

    fn push(&mut self, start: usize, end: usize, style: Style) {
        if start >= end {
            return;
        }
        match self.runs.last_mut() {
            Some((_, last_end, s)) if *s == style && *last_end == start => *last_end = end,
            _ => self.runs.push((start, end, style)),
        }
    }

    fn finish(self) -> Line<'static> {
        let line = self.line;
        Line::from(
            self.runs
                .into_iter()
                // The CQL holds file text (comments, quoted names): nothing
                // in it may reach the terminal as an escape sequence.
                .map(|(start, end, style)| {
                    Span::styled(for_terminal(&line[start..end]).into_owned(), style)
                })
                .collect::<Vec<_>>(),
        )
    }
}

fn plain_line(line: &str, palette: &Palette) -> Line<'static> {
    let mut spans = SpanBuilder::new(line);
    spans.push(0, line.len(), palette.plain);
    spans.finish()
}

/// Scopes are two `u64`s; `SipHash` is needlessly slow for a lookup done for
/// every scope the parser pushes.
#[derive(Default)]
struct ScopeHasher(u64);

impl Hasher for ScopeHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type ScopeMap<V> = HashMap<Scope, V, BuildHasherDefault<ScopeHasher>>;

/// The scopes a grammar can push, so they can be classified up front.
fn scopes_of(def: &SyntaxDefinition) -> Vec<Scope> {
    use syntect::parsing::syntax_definition::Pattern;
    let mut out = vec![def.scope];
    for ctx in def.contexts.values() {
        out.extend(ctx.meta_scope.iter().chain(&ctx.meta_content_scope));
        for p in &ctx.patterns {
            if let Pattern::Match(m) = p {
                out.extend(&m.scope);
                for (_, scopes) in m.captures.iter().flatten() {
                    out.extend(scopes);
                }
            }
        }
    }
    out
}
