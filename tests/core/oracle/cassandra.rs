//! A separately written model of what Cassandra accepts in a SELECT without
//! ALLOW FILTERING or an index, judged from the SELECT's text and the
//! table's key alone (none of the derivation's own classifier is used):
//!
//! - every partition key column is restricted, by `=` or `IN` (or nothing
//!   at all is restricted: a scan of the whole table, without ORDER BY);
//! - restricted clustering columns form a prefix of the clustering key; all
//!   but the last are restricted by `=` or `IN`, the last may be a range
//!   (at most one lower and one upper bound);
//! - nothing else is restricted;
//! - ORDER BY names clustering columns in their declared order, skipping
//!   only columns restricted by `=`, all in the declared directions or all
//!   reversed; it needs the partition key restricted by `=` (with `IN` the
//!   drivers' paging refuses it).

use cqlmodel::derive::{Role, Table};
use cqlmodel::model::Dir;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Eq,
    In,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Op {
    fn is_slice(self) -> bool {
        matches!(self, Op::Lt | Op::Le | Op::Gt | Op::Ge)
    }
    fn is_lower(self) -> bool {
        matches!(self, Op::Gt | Op::Ge)
    }
}

#[derive(Debug, Default)]
pub struct Select {
    pub columns: Vec<String>,
    pub table: String,
    pub conditions: Vec<(String, Op)>,
    pub order: Vec<(String, Dir)>,
    pub limit: Option<u64>,
    pub filtering: bool,
}

impl Select {
    pub fn has_range(&self) -> bool {
        self.conditions.iter().any(|(_, op)| op.is_slice())
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Word(String),
    /// A double-quoted identifier, unescaped.
    Quoted(String),
    Sym(&'static str),
    Number(u64),
    /// A single-quoted string literal, unescaped.
    Text(String),
}

fn tokens(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c == '"' {
            let mut s = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(format!("unclosed quote in {text}")),
                    Some('"') if chars.get(i + 1) == Some(&'"') => {
                        s.push('"');
                        i += 2;
                    }
                    Some('"') => {
                        i += 1;
                        break;
                    }
                    Some(&ch) => {
                        s.push(ch);
                        i += 1;
                    }
                }
            }
            out.push(Token::Quoted(s));
        } else if c == '\'' {
            // A string literal: `''` is one quote inside it.
            let mut s = String::new();
            i += 1;
            loop {
                match chars.get(i) {
                    None => return Err(format!("unclosed string in {text}")),
                    Some('\'') if chars.get(i + 1) == Some(&'\'') => {
                        s.push('\'');
                        i += 2;
                    }
                    Some('\'') => {
                        i += 1;
                        break;
                    }
                    Some(&ch) => {
                        s.push(ch);
                        i += 1;
                    }
                }
            }
            out.push(Token::Text(s));
        } else if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_digit() {
                i += 1;
            }
            let n: String = chars[start..i].iter().collect();
            out.push(Token::Number(n.parse().map_err(|e| format!("{n}: {e}"))?));
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(Token::Word(chars[start..i].iter().collect()));
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            let sym = match two.as_str() {
                "<=" => "<=",
                ">=" => ">=",
                _ => match c {
                    '=' => "=",
                    '<' => "<",
                    '>' => ">",
                    '?' => "?",
                    ',' => ",",
                    '.' => ".",
                    ';' => ";",
                    '*' => "*",
                    '(' => "(",
                    ')' => ")",
                    _ => return Err(format!("unexpected {c:?} in {text}")),
                },
            };
            i += sym.len();
            out.push(Token::Sym(sym));
        }
    }
    Ok(out)
}

struct Parser {
    toks: Vec<Token>,
    at: usize,
}

impl Parser {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.at)
    }
    fn keyword(&mut self, kw: &str) -> bool {
        match self.peek() {
            Some(Token::Word(w)) if w.eq_ignore_ascii_case(kw) => {
                self.at += 1;
                true
            }
            _ => false,
        }
    }
    fn expect_keyword(&mut self, kw: &str) -> Result<(), String> {
        if self.keyword(kw) {
            Ok(())
        } else {
            Err(format!("expected {kw}, found {:?}", self.peek()))
        }
    }
    fn sym(&mut self, s: &str) -> bool {
        if self.peek() == Some(&Token::Sym(sym_static(s))) {
            self.at += 1;
            true
        } else {
            false
        }
    }
    /// An identifier: unquoted ones are case-insensitive (lower-cased).
    fn ident(&mut self) -> Result<String, String> {
        match self.peek().cloned() {
            Some(Token::Word(w)) => {
                self.at += 1;
                Ok(w.to_lowercase())
            }
            Some(Token::Quoted(q)) => {
                self.at += 1;
                Ok(q)
            }
            other => Err(format!("expected an identifier, found {other:?}")),
        }
    }
}

fn sym_static(s: &str) -> &'static str {
    ["<=", ">=", "=", "<", ">", "?", ",", ".", ";", "*", "(", ")"]
        .into_iter()
        .find(|x| *x == s)
        .expect("a known symbol")
}

/// Parses the SELECT forms the workbench writes (and a little more).
pub fn parse(text: &str) -> Result<Select, String> {
    let mut p = Parser {
        toks: tokens(text)?,
        at: 0,
    };
    let mut s = Select::default();
    p.expect_keyword("SELECT")?;
    if !p.sym("*") {
        loop {
            s.columns.push(p.ident()?);
            if !p.sym(",") {
                break;
            }
        }
    }
    p.expect_keyword("FROM")?;
    let mut name = p.ident()?;
    if p.sym(".") {
        name = p.ident()?;
    }
    s.table = name;
    if p.keyword("WHERE") {
        loop {
            let col = p.ident()?;
            let op = if p.keyword("IN") {
                Op::In
            } else if p.sym("=") {
                Op::Eq
            } else if p.sym("<=") {
                Op::Le
            } else if p.sym(">=") {
                Op::Ge
            } else if p.sym("<") {
                Op::Lt
            } else if p.sym(">") {
                Op::Gt
            } else {
                return Err(format!("unknown operator after {col}: {:?}", p.peek()));
            };
            // A bind marker, or a constant bound in the text (only with =).
            let literal = matches!(p.peek(), Some(Token::Text(_) | Token::Number(_)));
            if literal && op == Op::Eq {
                p.at += 1;
            } else if !p.sym("?") {
                return Err(format!("{col}: expected a bind marker"));
            }
            s.conditions.push((col, op));
            if !p.keyword("AND") {
                break;
            }
        }
    }
    if p.keyword("ORDER") {
        p.expect_keyword("BY")?;
        loop {
            let col = p.ident()?;
            let dir = if p.keyword("DESC") {
                Dir::Desc
            } else {
                p.keyword("ASC");
                Dir::Asc
            };
            s.order.push((col, dir));
            if !p.sym(",") {
                break;
            }
        }
    }
    if p.keyword("LIMIT") {
        match p.peek().cloned() {
            Some(Token::Number(n)) => {
                p.at += 1;
                s.limit = Some(n);
            }
            other => return Err(format!("LIMIT needs a number, found {other:?}")),
        }
    }
    if p.keyword("ALLOW") {
        p.expect_keyword("FILTERING")?;
        s.filtering = true;
    }
    if !p.sym(";") {
        return Err(format!("expected ; found {:?}", p.peek()));
    }
    if p.peek().is_some() {
        return Err(format!("text after the statement: {:?}", p.peek()));
    }
    Ok(s)
}

/// `Ok` when Cassandra runs `s` on `t` as it stands; `Err` says which rule
/// it breaks.
pub fn judge(t: &Table, s: &Select) -> Result<(), String> {
    if s.table != t.name {
        return Err(format!("reads {}, not {}", s.table, t.name));
    }
    if s.filtering {
        return Err("ALLOW FILTERING".into());
    }
    if s.limit == Some(0) {
        return Err("LIMIT 0".into());
    }
    for c in &s.columns {
        if t.column(c).is_none() {
            return Err(format!("selects {c}, which the table lacks"));
        }
    }
    let partition: Vec<&str> = t
        .columns
        .iter()
        .filter(|c| c.role == Role::Partition)
        .map(|c| c.name.as_str())
        .collect();
    let clustering: Vec<(&str, Dir)> = t
        .columns
        .iter()
        .filter_map(|c| match c.role {
            Role::Clustering(d) => Some((c.name.as_str(), d)),
            _ => None,
        })
        .collect();
    let ops = |col: &str| -> Vec<Op> {
        s.conditions
            .iter()
            .filter(|(c, _)| c == col)
            .map(|(_, op)| *op)
            .collect()
    };
    for (c, _) in &s.conditions {
        if !partition.contains(&c.as_str()) && !clustering.iter().any(|(k, _)| k == c) {
            return Err(format!("{c} is restricted but is not a key column"));
        }
    }
    if s.conditions.is_empty() {
        return match s.order.first() {
            None => Ok(()),
            Some((c, _)) => Err(format!("ORDER BY {c} on a scan of the whole table")),
        };
    }
    for p in &partition {
        match ops(p).as_slice() {
            [Op::Eq | Op::In] => {}
            [] => return Err(format!("partition key column {p} is not restricted")),
            other => return Err(format!("partition key column {p} restricted by {other:?}")),
        }
    }
    let restricted: Vec<usize> = (0..clustering.len())
        .filter(|&i| !ops(clustering[i].0).is_empty())
        .collect();
    if let Some(&last) = restricted.last() {
        if restricted.len() != last + 1 {
            return Err(format!(
                "clustering restrictions skip a column before {}",
                clustering[last].0
            ));
        }
        for (i, (c, _)) in clustering.iter().enumerate().take(last + 1) {
            let o = ops(c);
            let single_eq = matches!(o.as_slice(), [Op::Eq | Op::In]);
            if i < last && !single_eq {
                return Err(format!("{c} restricted by {o:?} before a later column"));
            }
            if i == last && !single_eq {
                let lower = o.iter().filter(|x| x.is_lower()).count();
                let upper = o.iter().filter(|x| x.is_slice() && !x.is_lower()).count();
                if lower > 1 || upper > 1 || o.iter().any(|x| !x.is_slice()) {
                    return Err(format!("{c} restricted by {o:?}"));
                }
            }
        }
    }
    if !s.order.is_empty() {
        if partition.iter().any(|p| ops(p) != [Op::Eq]) {
            return Err("ORDER BY with a partition key not restricted by = alone".into());
        }
        let mut next = 0;
        let mut reversed: Option<bool> = None;
        for (c, dir) in &s.order {
            let Some(pos) = clustering.iter().position(|(k, _)| k == c) else {
                return Err(format!("ORDER BY {c}: not a clustering column"));
            };
            if pos < next {
                return Err(format!("ORDER BY {c}: out of the declared order"));
            }
            for (k, _) in &clustering[next..pos] {
                if ops(k) != [Op::Eq] {
                    return Err(format!("ORDER BY {c} skips {k}, not restricted by ="));
                }
            }
            let r = *dir != clustering[pos].1;
            if reversed.is_some_and(|x| x != r) {
                return Err("ORDER BY mixes declared and reversed directions".into());
            }
            reversed = Some(r);
            next = pos + 1;
        }
    }
    Ok(())
}
