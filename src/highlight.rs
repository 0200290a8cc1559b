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

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use syntect::parsing::{
    BasicScopeStackOp, ParseState, Scope, ScopeStack, SyntaxReference, SyntaxSet, SyntaxSetBuilder,
};

/// Embedded so the binary needs no asset files at runtime.
const GRAMMAR: &str = include_str!("../assets/cql.sublime-syntax");

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
        let def = grammar::load(GRAMMAR).ok()?;
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
        for scope in grammar::scopes_of(&def) {
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
            match self.highlight_line(line, &buf, &mut state, &mut stack, &mut classes, palette) {
                Some(l) => out.push(l),
                None => {
                    // State is unreliable after an error: give up on colour
                    // for the rest rather than show misleading colours.
                    out.push(plain_line(line, palette));
                    break;
                }
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
                .map(|(start, end, style)| Span::styled(line[start..end].to_owned(), style))
                .collect::<Vec<_>>(),
        )
    }
}

fn plain_line(line: &str, palette: &Palette) -> Line<'static> {
    let mut spans = SpanBuilder::new(line);
    spans.push(0, line.len(), palette.plain);
    spans.finish()
}

/// Scopes are two `u64`s; SipHash is needlessly slow for a lookup done for
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

/// Loader for the `.sublime-syntax` subset used by `assets/cql.sublime-syntax`.
///
/// Why this exists: `SyntaxDefinition::load_from_str` is only compiled with
/// syntect's `yaml-load` feature, which this crate does not enable (it pulls
/// in a YAML parser). If that feature is ever turned on, `load` can be
/// replaced by `SyntaxDefinition::load_from_str(src, true, None)`; this module
/// mirrors its semantics for the subset below, with lines fed *with* '\n'.
///
/// Supported YAML: block maps and sequences indented with spaces, plain and
/// single-quoted scalars, `[a, b]` flow lists of plain scalars, `#` comments.
/// Supported syntax keys: `name`, `file_extensions`, `scope`, `variables`,
/// `contexts`; per context `meta_scope`, `meta_content_scope`,
/// `meta_include_prototype`, `include`, and `match` with `scope`, `captures`,
/// `push`/`set` (named contexts) or `pop`. Anything else is rejected loudly
/// rather than silently mis-highlighting.
mod grammar {
    use std::collections::HashMap;

    use syntect::parsing::syntax_definition::{
        Context, ContextReference, MatchOperation, MatchPattern, Pattern,
    };
    use syntect::parsing::{Scope, SyntaxDefinition};

    /// Parsed YAML node; maps keep document order (capture order, errors).
    #[derive(Debug, PartialEq)]
    pub(super) enum Yaml {
        Str(String),
        Seq(Vec<Yaml>),
        Map(Vec<(String, Yaml)>),
    }

    /// Error message with the offending line where known.
    type Res<T> = Result<T, String>;

    pub(super) fn load(src: &str) -> Res<SyntaxDefinition> {
        let Yaml::Map(top) = parse_yaml(src)? else {
            return Err("top level must be a map".into());
        };
        let (mut name, mut scope, mut exts) = (None, None, Vec::new());
        let (mut vars, mut raw_contexts) = (HashMap::new(), Vec::new());
        for (key, value) in top {
            match (key.as_str(), value) {
                ("name", Yaml::Str(s)) => name = Some(s),
                ("scope", Yaml::Str(s)) => {
                    scope = Some(Scope::new(&s).map_err(|e| format!("{e:?}"))?)
                }
                ("file_extensions", Yaml::Seq(v)) => {
                    exts = v
                        .into_iter()
                        .map(|y| str_of(y, "file extension"))
                        .collect::<Res<_>>()?
                }
                ("variables", Yaml::Map(m)) => {
                    for (k, v) in m {
                        vars.insert(k, str_of(v, "variable")?);
                    }
                }
                ("contexts", Yaml::Map(m)) => raw_contexts = m,
                (other, _) => {
                    return Err(format!("unsupported or malformed top-level key `{other}`"))
                }
            }
        }
        let scope = scope.ok_or("missing `scope`")?;
        let mut contexts = HashMap::new();
        for (cname, items) in raw_contexts {
            let Yaml::Seq(items) = items else {
                return Err(format!("context `{cname}` must be a list"));
            };
            let ctx = build_context(&cname, items, &vars)
                .map_err(|e| format!("context `{cname}`: {e}"))?;
            contexts.insert(cname, ctx);
        }
        check_references(&contexts)?;
        add_initial_contexts(&mut contexts, scope)?;
        Ok(SyntaxDefinition {
            name: name.unwrap_or_else(|| "CQL".into()),
            file_extensions: exts,
            scope,
            first_line_match: None,
            hidden: false,
            variables: vars,
            contexts,
        })
    }

    /// Every scope a definition can push (for precomputing classes).
    pub(super) fn scopes_of(def: &SyntaxDefinition) -> Vec<Scope> {
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

    fn str_of(y: Yaml, what: &str) -> Res<String> {
        match y {
            Yaml::Str(s) => Ok(s),
            _ => Err(format!("{what} must be a string")),
        }
    }

    fn scopes(s: &str) -> Res<Vec<Scope>> {
        s.split_whitespace()
            .map(|p| Scope::new(p).map_err(|e| format!("bad scope `{p}`: {e:?}")))
            .collect()
    }

    /// `ContextReference` and its variants are `#[non_exhaustive]`, so they
    /// can't be constructed outside syntect; its serde form is public though.
    fn named(name: &str) -> Res<ContextReference> {
        serde_json::from_value(serde_json::json!({ "Named": name })).map_err(|e| e.to_string())
    }

    fn build_context(
        cname: &str,
        items: Vec<Yaml>,
        vars: &HashMap<String, String>,
    ) -> Res<Context> {
        let mut ctx = Context::new(cname != "prototype");
        for item in items {
            let Yaml::Map(entries) = item else {
                return Err("context items must be maps".into());
            };
            let first = entries.first().map(|(k, _)| k.as_str()).unwrap_or("");
            match first {
                "meta_scope" | "meta_content_scope" | "meta_include_prototype" => {
                    for (k, v) in entries {
                        let v = str_of(v, &k)?;
                        match k.as_str() {
                            "meta_scope" => ctx.meta_scope = scopes(&v)?,
                            "meta_content_scope" => ctx.meta_content_scope = scopes(&v)?,
                            "meta_include_prototype" => ctx.meta_include_prototype = v == "true",
                            other => return Err(format!("unsupported key `{other}`")),
                        }
                    }
                }
                "include" if entries.len() == 1 => {
                    let target = str_of(entries.into_iter().next().ok_or("empty")?.1, "include")?;
                    ctx.patterns.push(Pattern::Include(named(&target)?));
                }
                _ => ctx
                    .patterns
                    .push(Pattern::Match(build_match(entries, vars)?)),
            }
        }
        Ok(ctx)
    }

    fn build_match(
        entries: Vec<(String, Yaml)>,
        vars: &HashMap<String, String>,
    ) -> Res<MatchPattern> {
        let (mut regex, mut scope, mut captures) = (None, Vec::new(), None);
        let mut op = MatchOperation::None;
        for (k, v) in entries {
            match (k.as_str(), v) {
                ("match", Yaml::Str(raw)) => {
                    // Not compiled here: syntect compiles lazily anyway and
                    // the embedded grammar's regexes are checked by tests.
                    regex = Some(rewrite_dollar(&resolve_variables(&raw, vars, 0)?));
                }
                ("scope", Yaml::Str(s)) => scope = scopes(&s)?,
                ("captures", Yaml::Map(m)) => {
                    let mut caps = Vec::new();
                    for (idx, s) in m {
                        let idx = idx
                            .parse::<usize>()
                            .map_err(|_| format!("bad capture index `{idx}`"))?;
                        caps.push((idx, scopes(&str_of(s, "capture scope")?)?));
                    }
                    captures = Some(caps);
                }
                ("push" | "set", target) => {
                    let targets = match target {
                        Yaml::Str(s) => vec![named(&s)?],
                        Yaml::Seq(v) => v
                            .into_iter()
                            .map(|t| named(&str_of(t, "push target")?))
                            .collect::<Res<_>>()?,
                        Yaml::Map(_) => return Err("inline contexts are not supported".into()),
                    };
                    op = if k == "push" {
                        MatchOperation::Push(targets)
                    } else {
                        MatchOperation::Set(targets)
                    };
                }
                ("pop", Yaml::Str(s)) if s == "true" => op = MatchOperation::Pop,
                (other, _) => return Err(format!("unsupported or malformed key `{other}`")),
            }
        }
        let regex = regex.ok_or("item without `match`")?;
        // `has_captures` is only for pop-time back-references, not supported.
        Ok(MatchPattern::new(false, regex, scope, captures, op, None))
    }

    fn resolve_variables(raw: &str, vars: &HashMap<String, String>, depth: usize) -> Res<String> {
        if depth > 16 {
            return Err("variables nest too deeply (cycle?)".into());
        }
        let mut out = String::with_capacity(raw.len());
        let mut rest = raw;
        while let Some(start) = rest.find("{{") {
            let end = rest[start..].find("}}").ok_or("unterminated `{{`")? + start;
            let var = &rest[start + 2..end];
            let value = vars
                .get(var)
                .ok_or_else(|| format!("unknown variable `{var}`"))?;
            out.push_str(&rest[..start]);
            out.push_str(&resolve_variables(value, vars, depth + 1)?);
            rest = &rest[end + 2..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// Same as syntect does for lines with newlines: `$` must match before
    /// the '\n', which in fancy-regex needs multi-line mode.
    fn rewrite_dollar(re: &str) -> String {
        let (mut out, mut escaped, mut in_class) = (String::with_capacity(re.len()), false, false);
        for c in re.chars() {
            match c {
                '$' if !escaped && !in_class => out.push_str("(?m:$)"),
                _ => out.push(c),
            }
            if !escaped {
                match c {
                    '[' => in_class = true,
                    ']' => in_class = false,
                    _ => {}
                }
            }
            escaped = c == '\\' && !escaped;
        }
        out
    }

    fn check_references(contexts: &HashMap<String, Context>) -> Res<()> {
        if !contexts.contains_key("main") {
            return Err("missing `main` context".into());
        }
        let exists = |r: &ContextReference| match serde_json::to_value(r) {
            Ok(serde_json::Value::Object(m)) => match m.get("Named") {
                Some(serde_json::Value::String(n)) => contexts.contains_key(n.as_str()),
                _ => false,
            },
            _ => false,
        };
        for (name, ctx) in contexts {
            for p in &ctx.patterns {
                let refs: &[ContextReference] = match p {
                    Pattern::Include(r) => std::slice::from_ref(r),
                    Pattern::Match(m) => match &m.operation {
                        MatchOperation::Push(v) | MatchOperation::Set(v) => v,
                        _ => &[],
                    },
                };
                if let Some(bad) = refs.iter().find(|r| !exists(r)) {
                    return Err(format!(
                        "context `{name}` references unknown context {bad:?}"
                    ));
                }
            }
        }
        Ok(())
    }

    /// Mirrors syntect's `add_initial_contexts`: the parser starts in
    /// `__start`, which pushes `__main` (an include of `main`) so that
    /// popping `main` behaves like Sublime.
    fn add_initial_contexts(contexts: &mut HashMap<String, Context>, top: Scope) -> Res<()> {
        let main = contexts.get_mut("main").ok_or("missing `main` context")?;
        let mut outer = Context::new(main.meta_include_prototype);
        outer.meta_scope = main.meta_scope.clone();
        outer.meta_content_scope = main.meta_content_scope.clone();
        outer.patterns.push(Pattern::Include(named("main")?));
        main.meta_content_scope.insert(0, top);

        let mut start = Context::new(false);
        start.meta_content_scope = vec![top];
        let push_main = MatchOperation::Push(vec![named("__main")?]);
        start.patterns.push(Pattern::Match(MatchPattern::new(
            false,
            String::new(),
            vec![],
            None,
            push_main,
            None,
        )));
        contexts.insert("__main".into(), outer);
        contexts.insert("__start".into(), start);
        Ok(())
    }

    /// One significant source line: indentation and trimmed content.
    struct SrcLine<'a> {
        no: usize,
        indent: usize,
        text: &'a str,
    }

    pub(super) fn parse_yaml(src: &str) -> Res<Yaml> {
        let mut lines = Vec::new();
        for (i, raw) in src.lines().enumerate() {
            let text = raw.trim_start_matches(' ');
            let trimmed = text.trim_end();
            if trimmed.is_empty()
                || trimmed.starts_with('#')
                || trimmed.starts_with('%')
                || trimmed == "---"
            {
                continue;
            }
            if text.starts_with('\t') {
                return Err(format!(
                    "line {}: tabs are not allowed for indentation",
                    i + 1
                ));
            }
            lines.push(SrcLine {
                no: i + 1,
                indent: raw.len() - text.len(),
                text: trimmed,
            });
        }
        let mut p = YamlParser { lines, pos: 0 };
        let value = match p.lines.first() {
            Some(l) => p.block(l.indent)?,
            None => return Err("empty document".into()),
        };
        match p.lines.get(p.pos) {
            Some(l) => Err(format!("line {}: unexpected indentation", l.no)),
            None => Ok(value),
        }
    }

    struct YamlParser<'a> {
        lines: Vec<SrcLine<'a>>,
        pos: usize,
    }

    fn is_seq_item(t: &str) -> bool {
        t == "-" || t.starts_with("- ")
    }

    /// Splits `key: value` / `key:`; keys are plain scalars.
    fn split_key(t: &str) -> Option<(&str, &str)> {
        if t.starts_with(['\'', '"', '[', '{']) {
            return None;
        }
        match t.find(": ") {
            Some(i) => Some((&t[..i], t[i + 2..].trim_start())),
            None => t.strip_suffix(':').map(|k| (k, "")),
        }
    }

    impl YamlParser<'_> {
        fn block(&mut self, indent: usize) -> Res<Yaml> {
            match self.lines.get(self.pos) {
                Some(l) if is_seq_item(l.text) => self.seq(indent),
                _ => self.map(indent),
            }
        }

        fn seq(&mut self, indent: usize) -> Res<Yaml> {
            let mut items = Vec::new();
            while let Some(l) = self.lines.get_mut(self.pos) {
                if l.indent != indent || !is_seq_item(l.text) {
                    break;
                }
                let rest = l.text[1..].trim_start();
                if rest.is_empty() {
                    self.pos += 1;
                    items.push(self.nested(indent, false)?);
                } else if split_key(rest).is_some() {
                    // `- key: v` opens a map whose keys align with `key`.
                    l.indent += l.text.len() - rest.len();
                    l.text = rest;
                    let map_indent = l.indent;
                    items.push(self.map(map_indent)?);
                } else {
                    let no = l.no;
                    self.pos += 1;
                    items.push(scalar(rest, no)?);
                }
            }
            Ok(Yaml::Seq(items))
        }

        fn map(&mut self, indent: usize) -> Res<Yaml> {
            let mut entries = Vec::new();
            while let Some(l) = self.lines.get(self.pos) {
                if l.indent < indent || is_seq_item(l.text) {
                    break;
                }
                if l.indent > indent {
                    return Err(format!("line {}: unexpected indentation", l.no));
                }
                let (key, rest) = split_key(l.text)
                    .ok_or_else(|| format!("line {}: expected `key: value`", l.no))?;
                let no = l.no;
                self.pos += 1;
                let value = if rest.is_empty() {
                    self.nested(indent, true)?
                } else {
                    scalar(rest, no)?
                };
                entries.push((key.to_owned(), value));
            }
            Ok(Yaml::Map(entries))
        }

        /// The block under a `key:` or `-`; a sequence may sit at the key's
        /// own indentation. Nothing nested means an empty string.
        fn nested(&mut self, indent: usize, after_key: bool) -> Res<Yaml> {
            match self.lines.get(self.pos) {
                Some(l)
                    if l.indent > indent
                        || (after_key && l.indent == indent && is_seq_item(l.text)) =>
                {
                    let inner = l.indent;
                    self.block(inner)
                }
                _ => Ok(Yaml::Str(String::new())),
            }
        }
    }

    fn scalar(t: &str, no: usize) -> Res<Yaml> {
        if let Some(body) = t.strip_prefix('\'') {
            let mut out = String::new();
            let mut chars = body.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                if c != '\'' {
                    out.push(c);
                } else if chars.peek().map(|&(_, c)| c) == Some('\'') {
                    out.push('\'');
                    chars.next();
                } else {
                    let tail = body[i + 1..].trim_start();
                    if tail.is_empty() || tail.starts_with('#') {
                        return Ok(Yaml::Str(out));
                    }
                    return Err(format!("line {no}: text after quoted scalar"));
                }
            }
            return Err(format!(
                "line {no}: unterminated quoted scalar (multi-line scalars are not supported)"
            ));
        }
        if let Some(inner) = t.strip_prefix('[').and_then(|x| x.strip_suffix(']')) {
            let items = inner.split(',').map(str::trim).filter(|s| !s.is_empty());
            return items
                .map(|s| scalar(s, no))
                .collect::<Res<_>>()
                .map(Yaml::Seq);
        }
        if t.starts_with(['"', '{', '[', '&', '*', '|', '>', '!', '@', '`']) {
            return Err(format!("line {no}: unsupported YAML construct `{t}`"));
        }
        let plain = t.find(" #").map_or(t, |i| &t[..i]).trim_end();
        Ok(Yaml::Str(plain.to_owned()))
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        #[test]
        fn yaml_subset() {
            let y = parse_yaml(
                "%YAML 1.2\n---\na: 'x''y' # c\nb:\n  - k: v\n    n: [p, q]\n  - plain\nc:\n- 1\n",
            )
            .unwrap();
            let s = |v: &str| Yaml::Str(v.into());
            assert_eq!(
                y,
                Yaml::Map(vec![
                    ("a".into(), s("x'y")),
                    (
                        "b".into(),
                        Yaml::Seq(vec![
                            Yaml::Map(vec![
                                ("k".into(), s("v")),
                                ("n".into(), Yaml::Seq(vec![s("p"), s("q")]))
                            ]),
                            s("plain"),
                        ])
                    ),
                    ("c".into(), Yaml::Seq(vec![s("1")])),
                ])
            );
        }

        #[test]
        fn rejects_what_it_cannot_represent() {
            assert!(parse_yaml("a: \"dq\"\n").is_err());
            assert!(parse_yaml("a: 'open\n").is_err());
            assert!(parse_yaml("a: b\n    c: d\n").is_err());
            assert!(load(
                "scope: source.x\ncontexts:\n  main:\n    - match: 'a'\n      push: nowhere\n"
            )
            .is_err());
            assert!(
                load("scope: source.x\ncontexts:\n  main:\n    - match: '{{nope}}'\n").is_err()
            );
            assert!(load("scope: source.x\nhidden: true\ncontexts:\n  main: []\n").is_err());
        }

        /// The runtime loader leaves regex compilation to syntect (lazy, and
        /// a panic there is contained); this makes sure none can fail.
        #[test]
        fn embedded_grammar_regexes_compile() {
            let def = load(crate::highlight::GRAMMAR).unwrap();
            let mut n = 0;
            for ctx in def.contexts.values() {
                for p in &ctx.patterns {
                    if let Pattern::Match(m) = p {
                        let re = m.regex.regex_str();
                        assert!(
                            syntect::parsing::Regex::try_compile(re).is_none(),
                            "bad regex {re}"
                        );
                        n += 1;
                    }
                }
            }
            assert!(n > 40, "only {n} patterns");
        }

        #[test]
        fn dollar_rewrite() {
            assert_eq!(rewrite_dollar(r"a$"), "a(?m:$)");
            assert_eq!(rewrite_dollar(r"\$\$[$]"), r"\$\$[$]");
        }
    }
}
