//! Where an item of a project sits in its `.cqlm.ron` text: a light scan of
//! the RON syntax that records the line and column of every value by its
//! path (`entities[2].attributes[0].name`), so CI annotations and SARIF
//! results point at the line a reviewer must change.

use std::collections::HashMap;

/// A 1-based line and column (in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Str(String),
    Other,
    Punct(char),
}

struct Token {
    tok: Tok,
    pos: Pos,
}

fn tokenize(text: &str) -> Vec<Token> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = vec![];
    let (mut i, mut line, mut col) = (0usize, 1usize, 1usize);
    // Advances over one character, keeping line and column.
    macro_rules! bump {
        () => {{
            if chars[i] == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
            i += 1;
        }};
    }
    while i < chars.len() {
        let c = chars[i];
        let pos = Pos { line, column: col };
        if c.is_whitespace() {
            bump!();
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                bump!();
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            let mut depth = 0usize;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    bump!();
                    bump!();
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    bump!();
                    bump!();
                    if depth == 0 {
                        break;
                    }
                } else {
                    bump!();
                }
            }
        } else if c == '"' {
            bump!();
            let mut s = String::new();
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    bump!();
                }
                s.push(chars[i]);
                bump!();
            }
            if i < chars.len() {
                bump!();
            }
            out.push(Token {
                tok: Tok::Str(s),
                pos,
            });
        } else if c == 'r' && matches!(chars.get(i + 1), Some('"' | '#')) {
            // Raw string r#"..."#: its content matters only as a value.
            bump!();
            let mut hashes = 0;
            while i < chars.len() && chars[i] == '#' {
                hashes += 1;
                bump!();
            }
            if i < chars.len() {
                bump!();
            }
            let mut s = String::new();
            while i < chars.len() {
                if chars[i] == '"' && (1..=hashes).all(|k| chars.get(i + k) == Some(&'#')) {
                    bump!();
                    for _ in 0..hashes {
                        bump!();
                    }
                    break;
                }
                s.push(chars[i]);
                bump!();
            }
            out.push(Token {
                tok: Tok::Str(s),
                pos,
            });
        } else if c == '\'' {
            bump!();
            while i < chars.len() && chars[i] != '\'' {
                if chars[i] == '\\' {
                    bump!();
                }
                if i < chars.len() {
                    bump!();
                }
            }
            if i < chars.len() {
                bump!();
            }
            out.push(Token {
                tok: Tok::Other,
                pos,
            });
        } else if c.is_alphabetic() || c == '_' {
            let mut s = String::new();
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                s.push(chars[i]);
                bump!();
            }
            out.push(Token {
                tok: Tok::Ident(s),
                pos,
            });
        } else if "()[]{},:".contains(c) {
            bump!();
            out.push(Token {
                tok: Tok::Punct(c),
                pos,
            });
        } else {
            // Numbers and signs: one token up to the next delimiter.
            while i < chars.len() && !chars[i].is_whitespace() && !"()[]{},:\"".contains(chars[i]) {
                bump!();
            }
            out.push(Token {
                tok: Tok::Other,
                pos,
            });
        }
    }
    out
}

/// Positions of the values of a project file, by path.
#[derive(Clone, Debug, Default)]
pub struct Locations {
    at: HashMap<String, Pos>,
}

/// Nesting deeper than any project needs is not followed (hostile input).
const MAX_DEPTH: usize = 64;

struct Scanner<'a> {
    toks: &'a [Token],
    i: usize,
    at: HashMap<String, Pos>,
}

fn join(path: &str, field: &str) -> String {
    if path.is_empty() {
        field.to_string()
    } else {
        format!("{path}.{field}")
    }
}

impl Scanner<'_> {
    fn peek(&self, k: usize) -> Option<&Tok> {
        self.toks.get(self.i + k).map(|t| &t.tok)
    }

    fn value(&mut self, path: &str, depth: usize) {
        let Some(t) = self.toks.get(self.i) else {
            return;
        };
        self.at.entry(path.to_string()).or_insert(t.pos);
        if depth > MAX_DEPTH {
            self.i = self.toks.len();
            return;
        }
        match &t.tok {
            Tok::Ident(_) => {
                self.i += 1;
                if self.peek(0) == Some(&Tok::Punct('(')) {
                    self.i += 1;
                    self.parens(path, depth);
                }
            }
            Tok::Punct('(') => {
                self.i += 1;
                self.parens(path, depth);
            }
            Tok::Punct('[') => {
                self.i += 1;
                let mut k = 0;
                loop {
                    match self.peek(0) {
                        None => return,
                        Some(Tok::Punct(']')) => {
                            self.i += 1;
                            return;
                        }
                        Some(Tok::Punct(',')) => self.i += 1,
                        _ => {
                            let before = self.i;
                            self.value(&format!("{path}[{k}]"), depth + 1);
                            k += 1;
                            if self.i == before {
                                self.i += 1;
                            }
                        }
                    }
                }
            }
            Tok::Punct('{') => {
                self.i += 1;
                loop {
                    match self.peek(0) {
                        None => return,
                        Some(Tok::Punct('}')) => {
                            self.i += 1;
                            return;
                        }
                        Some(Tok::Punct(',' | ':')) => self.i += 1,
                        Some(Tok::Str(key)) => {
                            let p = join(path, key);
                            self.i += 1;
                            if self.peek(0) == Some(&Tok::Punct(':')) {
                                self.i += 1;
                                self.value(&p, depth + 1);
                            }
                        }
                        _ => {
                            let before = self.i;
                            self.value(&format!("{path}{{}}"), depth + 1);
                            if self.i == before {
                                self.i += 1;
                            }
                        }
                    }
                }
            }
            _ => self.i += 1,
        }
    }

    /// After `(`: named fields (`Entity(name: ...)`) or tuple items; a single
    /// item (`Some(x)`, `Simple(3)`) keeps the path of its wrapper.
    fn parens(&mut self, path: &str, depth: usize) {
        let named = matches!(
            (self.peek(0), self.peek(1)),
            (Some(Tok::Ident(_)), Some(Tok::Punct(':')))
        );
        let mut k = 0;
        loop {
            match self.peek(0) {
                None => return,
                Some(Tok::Punct(')')) => {
                    self.i += 1;
                    return;
                }
                Some(Tok::Punct(',')) => self.i += 1,
                Some(Tok::Ident(f)) if named && self.peek(1) == Some(&Tok::Punct(':')) => {
                    let p = join(path, f);
                    self.i += 2;
                    self.value(&p, depth + 1);
                }
                _ => {
                    let before = self.i;
                    let p = if k == 0 {
                        path.to_string()
                    } else {
                        format!("{path}.{k}")
                    };
                    self.value(&p, depth + 1);
                    k += 1;
                    if self.i == before {
                        self.i += 1;
                    }
                }
            }
        }
    }
}

impl Locations {
    /// Scans a project file's text. Never fails: what it cannot read it
    /// skips, and lookups fall back to the enclosing item.
    pub fn new(text: &str) -> Locations {
        let toks = tokenize(text);
        let mut s = Scanner {
            toks: &toks,
            i: 0,
            at: HashMap::new(),
        };
        while s.i < toks.len() {
            let before = s.i;
            s.value("", 0);
            if s.i == before {
                s.i += 1;
            }
        }
        Locations { at: s.at }
    }

    /// The position of the value at `path`, or of the nearest enclosing
    /// value that has one (`queries[3].equality[0]` → `queries[3]`).
    pub fn path(&self, path: &str) -> Option<Pos> {
        let mut p = path;
        loop {
            if let Some(pos) = self.at.get(p) {
                return Some(*pos);
            }
            if p.is_empty() {
                return None;
            }
            p = &p[..p.rfind(['.', '[']).unwrap_or(0)];
        }
    }

    /// Where the item at `path` is; the project's start when it has no
    /// place of its own.
    pub fn path_or_start(&self, path: &str) -> Pos {
        self.path(path)
            .or_else(|| self.path(""))
            .unwrap_or(Pos { line: 1, column: 1 })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEXT: &str = r#"// a comment with "quotes" and (parens)
Project(
    format: 1,
    name: "x",
    entities: [
        Entity(
            name: "Hotel",
            key: ["id"],
            attributes: [
                Attribute(name: "id", type: "text", size: Some(5)),
                Attribute(name: "name", type: "map<text, int>"),
            ],
        ),
        /* block /* nested */ comment */
        Entity(name: "Room", key: [], attributes: []),
    ],
    keyspace: Keyspace(name: "k", replication: NetworkTopology({"dc1": 3})),
)
"#;

    #[test]
    fn every_value_has_its_line() {
        let l = Locations::new(TEXT);
        assert_eq!(l.path("").map(|p| p.line), Some(2));
        assert_eq!(l.path("entities[0]").map(|p| p.line), Some(6));
        assert_eq!(l.path("entities[0].name").map(|p| p.line), Some(7));
        assert_eq!(
            l.path("entities[0].attributes[1].type"),
            Some(Pos {
                line: 11,
                column: 47
            })
        );
        assert_eq!(
            l.path("entities[0].attributes[0].size").map(|p| p.line),
            Some(10)
        );
        assert_eq!(l.path("entities[1]").map(|p| p.line), Some(15));
        assert_eq!(l.path("keyspace.replication.dc1").map(|p| p.line), Some(17));
    }

    #[test]
    fn missing_paths_fall_back_to_the_enclosing_item() {
        let l = Locations::new(TEXT);
        assert_eq!(
            l.path("entities[0].attributes[7].name").map(|p| p.line),
            Some(9)
        );
        assert_eq!(l.path("nothing"), Some(Pos { line: 2, column: 1 }));
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "",
            "(((",
            "\"unterminated",
            "/* open",
            "[,,:)]}",
            "r#\"x",
            "'a",
        ] {
            let _ = Locations::new(text);
        }
        let deep = "[".repeat(10_000);
        let _ = Locations::new(&deep);
    }
}
