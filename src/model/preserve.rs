//! Format-preserving saves: the project file is edited, not rewritten.
//! Comments, blank lines, item order and the designer's layout survive; only
//! the values that changed are re-written, in the file's style (one line when
//! it fits, else one element per line, four spaces per level).
//!
//! How: the original text, the original model serialised and the new model
//! serialised are each read into a small syntax tree with byte spans (a
//! RON-aware scanner that skips strings and comments). The two serialised
//! trees say *what* changed (they come from the same serialiser, so equal
//! tokens mean equal values); the original tree says *where* it is. Edits
//! are spliced into the original text, and the result is re-read and
//! compared with the model: if anything is off, the save falls back to a
//! full re-serialisation, so a save is never wrong, only less pretty.

use super::{load, Project};

/// Lines are kept within this many columns when re-written.
const WIDTH: usize = 100;
const INDENT: &str = "    ";

/// The text to save for `project`, given the file's current `original` text.
/// Byte-identical when nothing changed; otherwise only changed values differ.
pub fn save_text(original: &str, project: &Project) -> String {
    match patched(original, project) {
        Some(text) => text,
        None => load::to_string(project),
    }
}

/// The spliced text, or `None` when the original cannot be edited in place
/// (not a project, unreadable by the scanner, or a splice that does not read
/// back as `project`).
pub fn patched(original: &str, project: &Project) -> Option<String> {
    let old = load::parse(original).ok()?;
    if old == *project {
        return Some(original.to_string());
    }
    let new_text = load::to_string(project);
    let news = Tree::parse(&new_text)?;
    // Items the project lists in another order are moved first, each with
    // the comments above it, so a comment keeps describing its item.
    let moved_text = moved(original, &news);
    let (original, old) = match moved_text.as_deref().map(load::parse) {
        Some(Ok(reordered)) => (moved_text.as_deref().unwrap_or(original), reordered),
        _ => (original, old),
    };
    let old_text = load::to_string(&old);
    let orig = Tree::parse(original)?;
    let olds = Tree::parse(&old_text)?;
    let mut edits = Vec::new();
    let mut cx = Patch {
        orig: &orig,
        old: &olds,
        new: &news,
        edits: &mut edits,
    };
    cx.node(&orig.root, &olds.root, &news.root);
    let mut out = original.to_string();
    edits.sort_by(|a, b| b.start.cmp(&a.start).then(b.end.cmp(&a.end)));
    // A file written with CRLF line ends keeps them.
    let crlf = original.contains("\r\n");
    // Edits never overlap; a stray overlap means the trees disagree.
    let mut floor = usize::MAX;
    for e in &edits {
        if e.end > floor {
            return None;
        }
        if crlf {
            out.replace_range(e.start..e.end, &e.text.replace('\n', "\r\n"));
        } else {
            out.replace_range(e.start..e.end, &e.text);
        }
        floor = e.start;
    }
    match load::parse(&out) {
        Ok(p) if p == *project => Some(out),
        _ => None,
    }
}

// ---- moves ------------------------------------------------------------------

/// `original` with the items of each list that `new` orders differently
/// moved into `new`'s order, each carried with the comment and blank
/// lines above it and the comment after it on its line. `None` when
/// nothing moved. One list is moved per pass; lists whose items do not
/// stand on lines of their own, or lack a name, stay as they are (the
/// splice then edits them in place, as before).
fn moved(original: &str, new: &Tree) -> Option<String> {
    let mut text = original.to_string();
    let mut changed = false;
    // A bound on passes: each pass puts one list in order.
    for _ in 0..256 {
        let orig = Tree::parse(&text)?;
        let Some(edit) = first_move(&orig, &orig.root, new, &new.root) else {
            break;
        };
        text.replace_range(edit.start..edit.end, &edit.text);
        changed = true;
    }
    changed.then_some(text)
}

/// What names an item of a list: its `name`, a query's `id`, a
/// decision's `query`.
fn identity<'t>(tree: &Tree<'t>, n: &Node) -> Option<&'t str> {
    let Kind::Struct(g) = &n.kind else {
        return None;
    };
    ["name", "id", "query"].iter().find_map(|key| {
        g.elems
            .iter()
            .find(|e| e.field.as_deref() == Some(*key))
            .filter(|e| matches!(e.value.kind, Kind::Atom))
            .map(|e| tree.tok(e.value.t0))
    })
}

/// How many fields of two items have the same value, names aside.
fn alike(ot: &Tree, o: &Node, nt: &Tree, n: &Node) -> usize {
    let (Kind::Struct(go), Kind::Struct(gn)) = (&o.kind, &n.kind) else {
        return 0;
    };
    go.elems
        .iter()
        .filter(|e| !matches!(e.field.as_deref(), Some("name" | "id" | "query") | None))
        .filter(|e| {
            gn.elems
                .iter()
                .find(|x| x.field == e.field)
                .is_some_and(|x| plain(ot, &e.value) == plain(nt, &x.value))
        })
        .count()
}

/// A value's tokens as the serialiser would write them: no trailing
/// commas, whole numbers without `.0` (a file writes `Some(100)` where the
/// serialiser writes `Some(100.0)`).
fn plain<'t>(t: &Tree<'t>, n: &Node) -> Vec<&'t str> {
    (n.t0..n.t1)
        .filter(|&i| {
            !(t.toks[i].kind == Tok::Comma
                && matches!(t.toks.get(i + 1).map(|x| x.kind), Some(Tok::Close(_))))
        })
        .map(|i| match t.toks[i].kind {
            Tok::Literal => number_style(t.tok(i)),
            _ => t.tok(i),
        })
        .collect()
}

/// The first list under `o` whose named items `n` orders differently, as
/// the edit that reorders them.
fn first_move(ot: &Tree, o: &Node, nt: &Tree, n: &Node) -> Option<Edit> {
    match (&o.kind, &n.kind) {
        (Kind::Struct(go), Kind::Struct(gn)) => go.elems.iter().find_map(|e| {
            let f = e.field.as_deref()?;
            let other = gn.elems.iter().find(|x| x.field.as_deref() == Some(f))?;
            first_move(ot, &e.value, nt, &other.value)
        }),
        (Kind::Seq(go), Kind::Seq(gn)) => {
            let names = |t: &Tree<'_>, g: &Group| -> Option<Vec<String>> {
                let all: Vec<String> = g
                    .elems
                    .iter()
                    .map(|e| identity(t, &e.value).map(str::to_string))
                    .collect::<Option<_>>()?;
                let unique: std::collections::HashSet<&String> = all.iter().collect();
                (unique.len() == all.len()).then_some(all)
            };
            let (Some(ids_o), Some(ids_n)) = (names(ot, go), names(nt, gn)) else {
                // Unnamed items: nested lists are paired by position.
                return go
                    .elems
                    .iter()
                    .zip(&gn.elems)
                    .find_map(|(a, b)| first_move(ot, &a.value, nt, &b.value));
            };
            // Renamed items: the ones only one side names, paired in order
            // when as many went as came, count as the same items.
            let gone: Vec<usize> = (0..ids_o.len())
                .filter(|&i| !ids_n.contains(&ids_o[i]))
                .collect();
            let came: Vec<usize> = (0..ids_n.len())
                .filter(|&j| !ids_o.contains(&ids_n[j]))
                .collect();
            let mut ids_n = ids_n;
            if gone.len() == came.len() {
                for (&i, &j) in gone.iter().zip(&came) {
                    ids_n[j].clone_from(&ids_o[i]);
                }
            } else {
                // Otherwise each item that went is the one that came with
                // the most fields alike, if any are.
                let mut free = came.clone();
                for &i in &gone {
                    let best = free
                        .iter()
                        .enumerate()
                        .map(|(k, &j)| (alike(ot, &go.elems[i].value, nt, &gn.elems[j].value), k))
                        .filter(|&(n, _)| n > 0)
                        .max_by_key(|&(n, k)| (n, std::cmp::Reverse(k)));
                    if let Some((_, k)) = best {
                        let j = free.remove(k);
                        ids_n[j].clone_from(&ids_o[i]);
                    } else if !free.is_empty() {
                        // Nothing alike: the first that came (new items
                        // are added after the others).
                        let j = free.remove(0);
                        ids_n[j].clone_from(&ids_o[i]);
                    }
                }
            }
            let common_o: Vec<&String> = ids_o.iter().filter(|i| ids_n.contains(i)).collect();
            let common_n: Vec<&String> = ids_n.iter().filter(|i| ids_o.contains(i)).collect();
            if common_o != common_n {
                if let Some(edit) = reorder(ot, go, &ids_o, &common_n) {
                    return Some(edit);
                }
            }
            go.elems.iter().zip(&ids_o).find_map(|(e, id)| {
                let j = ids_n.iter().position(|x| x == id)?;
                first_move(ot, &e.value, nt, &gn.elems[j].value)
            })
        }
        _ => None,
    }
}

/// The edit that puts the items of `g` named in `order` into that order,
/// the others staying where they are. `None` when an item shares a line
/// with another or the list is written on one line.
fn reorder(t: &Tree, g: &Group, ids: &[String], order: &[&String]) -> Option<Edit> {
    let text = t.text;
    let line_after = |at: usize| text[at..].find('\n').map(|i| at + i + 1);
    let end_of = |e: &Elem| e.comma.map_or(t.end(&e.value), |c| t.toks[c].end);
    // Each item's lines: from the line after the one before ends to the
    // end of its own line.
    let mut chunks: Vec<(usize, usize)> = Vec::with_capacity(g.elems.len());
    let mut from = line_after(t.toks[g.open].end)?;
    for (k, e) in g.elems.iter().enumerate() {
        let start = t.toks[e.first].start;
        let end = line_after(end_of(e))?;
        let next = g
            .elems
            .get(k + 1)
            .map_or(t.toks[g.close].start, |x| t.toks[x.first].start);
        // On lines of its own: nothing of the next item (or the closing
        // bracket) on its last line.
        if from > start || end > next {
            return None;
        }
        chunks.push((from, end));
        from = end;
    }
    let slots: Vec<usize> = (0..ids.len())
        .filter(|&i| order.contains(&&ids[i]))
        .collect();
    let (first, last) = (*slots.first()?, *slots.last()?);
    let at = |id: &String| ids.iter().position(|x| x == id);
    let mut out = String::new();
    let mut next_in_order = order.iter();
    for (i, &(cs, ce)) in chunks.iter().enumerate().take(last + 1).skip(first) {
        let k = if slots.contains(&i) {
            at(next_in_order.next()?)?
        } else {
            i
        };
        let (cs, ce) = if k == i { (cs, ce) } else { chunks[k] };
        let e = &g.elems[k];
        if k == i {
            out.push_str(&text[cs..ce]);
            continue;
        }
        // A list written without a trailing comma keeps that style: the
        // item moving up from last gains a comma, the one taking its place
        // loses its own.
        let no_trailing = g.elems.last().is_some_and(|l| l.comma.is_none());
        match e.comma {
            None => {
                let v = t.end(&e.value);
                out.push_str(&text[cs..v]);
                out.push(',');
                out.push_str(&text[v..ce]);
            }
            Some(c) if no_trailing && i + 1 == g.elems.len() => {
                out.push_str(&text[cs..t.toks[c].start]);
                out.push_str(&text[t.toks[c].end..ce]);
            }
            Some(_) => out.push_str(&text[cs..ce]),
        }
    }
    Some(Edit {
        start: chunks[first].0,
        end: chunks[last].1,
        text: out,
    })
}

// ---- scanner ----------------------------------------------------------------

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    /// `( [ {`
    Open(u8),
    /// `) ] }`
    Close(u8),
    Comma,
    Colon,
    Ident,
    /// Strings, numbers, characters.
    Literal,
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Token {
    kind: Tok,
    start: usize,
    end: usize,
}

fn scan(text: &str) -> Option<Vec<Token>> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = match c {
            b' ' | b'\t' | b'\r' | b'\n' => {
                i += 1;
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                let mut depth = 0usize;
                loop {
                    if i + 1 >= b.len() {
                        return None;
                    }
                    if b[i] == b'/' && b[i + 1] == b'*' {
                        depth += 1;
                        i += 2;
                    } else if b[i] == b'*' && b[i + 1] == b'/' {
                        depth -= 1;
                        i += 2;
                        if depth == 0 {
                            break;
                        }
                    } else {
                        i += 1;
                    }
                }
                continue;
            }
            b'(' | b'[' | b'{' => {
                i += 1;
                Tok::Open(c)
            }
            b')' | b']' | b'}' => {
                i += 1;
                Tok::Close(c)
            }
            b',' => {
                i += 1;
                Tok::Comma
            }
            b':' => {
                i += 1;
                Tok::Colon
            }
            b'"' => {
                i = quoted(b, i + 1, b'"')?;
                Tok::Literal
            }
            b'\'' => {
                i = quoted(b, i + 1, b'\'')?;
                Tok::Literal
            }
            b'b' if b.get(i + 1) == Some(&b'"') => {
                i = quoted(b, i + 2, b'"')?;
                Tok::Literal
            }
            b'r' if matches!(b.get(i + 1), Some(b'#' | b'"')) => {
                let mut j = i + 1;
                while j < b.len() && b[j] == b'#' {
                    j += 1;
                }
                let hashes = j - i - 1;
                if b.get(j) == Some(&b'"') {
                    // Raw string: ends at a quote followed by as many #.
                    let mut k = j + 1;
                    loop {
                        if k >= b.len() {
                            return None;
                        }
                        if b[k] == b'"' && b[k + 1..].iter().take(hashes).all(|&h| h == b'#') {
                            if k + 1 + hashes > b.len() {
                                return None;
                            }
                            i = k + 1 + hashes;
                            break;
                        }
                        k += 1;
                    }
                    Tok::Literal
                } else {
                    i = ident_end(b, j);
                    Tok::Ident
                }
            }
            c if c.is_ascii_digit()
                || ((c == b'-' || c == b'+' || c == b'.') && i + 1 < b.len()) =>
            {
                i += 1;
                while i < b.len() {
                    let d = b[i];
                    let exp_sign = (d == b'-' || d == b'+') && matches!(b[i - 1], b'e' | b'E');
                    if d.is_ascii_alphanumeric() || d == b'_' || d == b'.' || exp_sign {
                        i += 1;
                    } else {
                        break;
                    }
                }
                Tok::Literal
            }
            c if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 => {
                i = ident_end(b, i);
                Tok::Ident
            }
            _ => {
                i += 1;
                Tok::Other
            }
        };
        out.push(Token {
            kind,
            start,
            end: i,
        });
    }
    Some(out)
}

fn quoted(b: &[u8], mut i: usize, quote: u8) -> Option<usize> {
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            c if c == quote => return Some(i + 1),
            _ => i += 1,
        }
    }
    None
}

fn ident_end(b: &[u8], mut i: usize) -> usize {
    while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
        i += 1;
    }
    i
}

// ---- tree -------------------------------------------------------------------

#[derive(Debug)]
struct Node {
    /// First and one-past-last token.
    t0: usize,
    t1: usize,
    kind: Kind,
}

#[derive(Debug)]
enum Kind {
    Atom,
    /// `Name(a: 1, b: 2)` or `(a: 1)`.
    Struct(Group),
    /// `Name(1, 2)`, `(1, 2)` or `[1, 2]`.
    Seq(Group),
    /// `{k: v}`: replaced as a whole when it changes.
    Map,
}

#[derive(Debug)]
struct Group {
    /// The name token before the bracket (`Some`, `Entity`), if any.
    name: Option<usize>,
    open: usize,
    close: usize,
    elems: Vec<Elem>,
}

#[derive(Debug)]
struct Elem {
    /// Token of the field name (structs) or of the value's start.
    first: usize,
    field: Option<String>,
    value: Node,
    /// The comma after the value, if there is one.
    comma: Option<usize>,
}

struct Tree<'a> {
    text: &'a str,
    toks: Vec<Token>,
    root: Node,
}

/// Deeper nesting is refused (the file parser refuses it too).
const MAX_DEPTH: usize = 128;

impl<'a> Tree<'a> {
    fn parse(text: &'a str) -> Option<Tree<'a>> {
        let toks = scan(text)?;
        let mut pos = 0;
        // Inner attributes (`#![enable(...)]`) come before the value.
        while toks.get(pos).map(|t| &text[t.start..t.end]) == Some("#") {
            pos += 2;
            let Some(Token {
                kind: Tok::Open(b'['),
                ..
            }) = toks.get(pos)
            else {
                return None;
            };
            let mut depth = 0usize;
            loop {
                match toks.get(pos)?.kind {
                    Tok::Open(_) => depth += 1,
                    Tok::Close(_) => {
                        depth -= 1;
                        if depth == 0 {
                            pos += 1;
                            break;
                        }
                    }
                    _ => {}
                }
                pos += 1;
            }
        }
        let mut p = Parser {
            text,
            toks: &toks,
            pos,
        };
        let root = p.value(0)?;
        if p.pos != toks.len() {
            return None;
        }
        Some(Tree { text, toks, root })
    }

    fn tok(&self, i: usize) -> &'a str {
        let t = self.toks[i];
        &self.text[t.start..t.end]
    }

    fn start(&self, n: &Node) -> usize {
        self.toks[n.t0].start
    }

    fn end(&self, n: &Node) -> usize {
        self.toks[n.t1 - 1].end
    }

    /// Same tokens: the same value, for text from one serialiser.
    fn same(&self, a: &Node, other: &Tree, b: &Node) -> bool {
        a.t1 - a.t0 == b.t1 - b.t0
            && (a.t0..a.t1)
                .zip(b.t0..b.t1)
                .all(|(i, j)| self.tok(i) == other.tok(j))
    }

    fn group_name(&self, g: &Group) -> Option<&'a str> {
        g.name.map(|i| self.tok(i))
    }

    /// The node on one line: `, ` and `: ` spacing, no trailing commas,
    /// integral floats without `.0` (the way people write counts).
    fn compact(&self, n: &Node) -> String {
        let mut s = String::new();
        for i in n.t0..n.t1 {
            let t = self.toks[i];
            match t.kind {
                Tok::Comma => {
                    if !matches!(self.toks.get(i + 1).map(|t| t.kind), Some(Tok::Close(_))) {
                        s.push_str(", ");
                    }
                }
                Tok::Colon => s.push_str(": "),
                Tok::Literal => s.push_str(number_style(self.tok(i))),
                _ => s.push_str(self.tok(i)),
            }
        }
        s
    }

    /// The node laid out for a line where it starts at `column`, indented
    /// by `indent`: on one line when it fits, else one element per line.
    fn render(&self, n: &Node, indent: &str, column: usize) -> String {
        let one = self.compact(n);
        let (Kind::Struct(group) | Kind::Seq(group)) = &n.kind else {
            return one;
        };
        if column + one.len() < WIDTH || group.elems.is_empty() {
            return one;
        }
        let inner = format!("{indent}{INDENT}");
        let mut s = String::new();
        if let Some(name) = group.name {
            s.push_str(self.tok(name));
        }
        s.push_str(self.tok(group.open));
        s.push('\n');
        for e in &group.elems {
            s.push_str(&inner);
            s.push_str(&self.render_elem(e, &inner));
            s.push_str(",\n");
        }
        s.push_str(indent);
        s.push_str(self.tok(group.close));
        s
    }

    fn render_elem(&self, e: &Elem, indent: &str) -> String {
        match &e.field {
            Some(f) => {
                let head = format!("{f}: ");
                let body = self.render(&e.value, indent, indent.len() + head.len());
                head + &body
            }
            None => self.render(&e.value, indent, indent.len()),
        }
    }
}

fn number_style(lit: &str) -> &str {
    match lit.strip_suffix(".0") {
        Some(int)
            if int.len() <= 15
                && !int.is_empty()
                && int
                    .bytes()
                    .enumerate()
                    .all(|(i, c)| c.is_ascii_digit() || (i == 0 && c == b'-')) =>
        {
            int
        }
        _ => lit,
    }
}

struct Parser<'t> {
    text: &'t str,
    toks: &'t [Token],
    pos: usize,
}

impl Parser<'_> {
    fn peek(&self, ahead: usize) -> Option<Tok> {
        self.toks.get(self.pos + ahead).map(|t| t.kind)
    }

    fn value(&mut self, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH {
            return None;
        }
        let t0 = self.pos;
        let name = match self.peek(0)? {
            Tok::Ident if self.peek(1) == Some(Tok::Open(b'(')) => {
                self.pos += 1;
                Some(t0)
            }
            Tok::Ident | Tok::Literal => {
                self.pos += 1;
                return Some(Node {
                    t0,
                    t1: self.pos,
                    kind: Kind::Atom,
                });
            }
            // A sign before a literal is scanned with the literal; a lone
            // one is not RON we write.
            Tok::Open(_) => None,
            _ => return None,
        };
        let open = self.pos;
        let Tok::Open(bracket) = self.peek(0)? else {
            return None;
        };
        self.pos += 1;
        let closer = match bracket {
            b'(' => b')',
            b'[' => b']',
            _ => b'}',
        };
        if bracket == b'{' {
            let mut depth_here = 1usize;
            while depth_here > 0 {
                match self.peek(0)? {
                    Tok::Open(_) => depth_here += 1,
                    Tok::Close(_) => depth_here -= 1,
                    _ => {}
                }
                self.pos += 1;
            }
            if self.toks[self.pos - 1].kind != Tok::Close(b'}') {
                return None;
            }
            return Some(Node {
                t0,
                t1: self.pos,
                kind: Kind::Map,
            });
        }
        let is_struct =
            bracket == b'(' && self.peek(0) == Some(Tok::Ident) && self.peek(1) == Some(Tok::Colon);
        let mut elems = Vec::new();
        loop {
            if self.peek(0)? == Tok::Close(closer) {
                break;
            }
            let first = self.pos;
            let field = if is_struct {
                if self.peek(0)? != Tok::Ident || self.peek(1)? != Tok::Colon {
                    return None;
                }
                let t = self.toks[self.pos];
                self.pos += 2;
                Some(self.text[t.start..t.end].to_string())
            } else {
                None
            };
            let value = self.value(depth + 1)?;
            let comma = if self.peek(0)? == Tok::Comma {
                self.pos += 1;
                Some(self.pos - 1)
            } else {
                None
            };
            elems.push(Elem {
                first,
                field,
                value,
                comma,
            });
            if comma.is_none() {
                break;
            }
        }
        if self.peek(0)? != Tok::Close(closer) {
            return None;
        }
        let close = self.pos;
        self.pos += 1;
        let group = Group {
            name,
            open,
            close,
            elems,
        };
        Some(Node {
            t0,
            t1: self.pos,
            kind: if is_struct {
                Kind::Struct(group)
            } else {
                Kind::Seq(group)
            },
        })
    }
}

// ---- patch ------------------------------------------------------------------

struct Edit {
    start: usize,
    end: usize,
    text: String,
}

struct Patch<'a, 'b> {
    orig: &'a Tree<'a>,
    old: &'a Tree<'a>,
    new: &'a Tree<'a>,
    edits: &'b mut Vec<Edit>,
}

impl Patch<'_, '_> {
    fn node(&mut self, o: &Node, old: &Node, new: &Node) {
        if self.old.same(old, self.new, new) {
            return;
        }
        match (&o.kind, &old.kind, &new.kind) {
            (Kind::Struct(go), Kind::Struct(gold), Kind::Struct(gnew))
                if self.old.group_name(gold) == self.new.group_name(gnew) =>
            {
                self.fields(go, gold, gnew);
            }
            (Kind::Seq(go), Kind::Seq(gold), Kind::Seq(gnew))
                if self.old.group_name(gold) == self.new.group_name(gnew)
                    && go.elems.len() == gold.elems.len()
                    && !go.elems.is_empty()
                    && !gnew.elems.is_empty() =>
            {
                self.items(go, gold, gnew);
            }
            _ => self.replace(o, new),
        }
    }

    fn replace(&mut self, o: &Node, new: &Node) {
        let start = self.orig.start(o);
        let (indent, column) = self.position(start);
        let mut text = self.new.render(new, &indent, column);
        // A whole number stays whole where the file wrote it that way.
        if matches!(new.kind, Kind::Atom) && !self.orig.tok(o.t0).contains('.') {
            text = number_style(&text).to_string();
        }
        self.edits.push(Edit {
            start,
            end: self.orig.end(o),
            text,
        });
    }

    /// The indentation of the line holding `at` and the column of `at`.
    fn position(&self, at: usize) -> (String, usize) {
        let text = self.orig.text;
        let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
        let indent: String = text[line_start..at]
            .chars()
            .take_while(|c| *c == ' ' || *c == '\t')
            .collect();
        (indent, text[line_start..at].chars().count())
    }

    fn fields(&mut self, go: &Group, gold: &Group, gnew: &Group) {
        let find = |g: &Group, name: &str| -> Option<usize> {
            g.elems
                .iter()
                .position(|e| e.field.as_deref() == Some(name))
        };
        // Where the last handled field of the new order sits in the original.
        let mut anchor: Option<usize> = None;
        let mut pending: Vec<&Elem> = Vec::new();
        for e in &gnew.elems {
            let name = e.field.as_deref().unwrap_or_default();
            if let Some(oi) = find(go, name) {
                self.insert(go, anchor, std::mem::take(&mut pending));
                match find(gold, name) {
                    Some(si) => self.node(&go.elems[oi].value, &gold.elems[si].value, &e.value),
                    None => self.replace(&go.elems[oi].value, &e.value),
                }
                anchor = Some(oi);
            } else {
                let unchanged = find(gold, name)
                    .is_some_and(|si| self.old.same(&gold.elems[si].value, self.new, &e.value));
                if !unchanged {
                    pending.push(e);
                }
            }
        }
        self.insert(go, anchor, pending);
        // Fields that went back to their default are no longer written.
        let gone: Vec<usize> = go
            .elems
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                let name = e.field.as_deref().unwrap_or_default();
                find(gnew, name).is_none() && find(gold, name).is_some()
            })
            .map(|(i, _)| i)
            .collect();
        self.remove(go, &gone);
    }

    fn items(&mut self, go: &Group, gold: &Group, gnew: &Group) {
        let (lo, ln) = (gold.elems.len(), gnew.elems.len());
        let same = |i: usize, j: usize| {
            self.old
                .same(&gold.elems[i].value, self.new, &gnew.elems[j].value)
        };
        // The same item: the same value, or the same name (edited inside,
        // patched in place below), so an item added before another does
        // not take that one's place and comments.
        let named = |i: usize, j: usize| {
            identity(self.old, &gold.elems[i].value)
                .is_some_and(|a| identity(self.new, &gnew.elems[j].value) == Some(a))
        };
        let alike = |i: usize, j: usize| same(i, j) || named(i, j);
        let mut prefix = 0;
        while prefix < lo && prefix < ln && alike(prefix, prefix) {
            prefix += 1;
        }
        let mut suffix = 0;
        while suffix < lo - prefix
            && suffix < ln - prefix
            && alike(lo - 1 - suffix, ln - 1 - suffix)
        {
            suffix += 1;
        }
        for k in (0..prefix).chain((0..suffix).map(|k| lo - 1 - k)) {
            let j = if k < prefix { k } else { ln - (lo - k) };
            self.node(
                &go.elems[k].value,
                &gold.elems[k].value,
                &gnew.elems[j].value,
            );
        }
        let (mo, mn) = (lo - prefix - suffix, ln - prefix - suffix);
        if self.named_middle(go, gold, gnew, prefix..lo - suffix, prefix..ln - suffix) {
            return;
        }
        let paired = mo.min(mn);
        for k in 0..paired {
            let i = prefix + k;
            self.node(
                &go.elems[i].value,
                &gold.elems[i].value,
                &gnew.elems[i].value,
            );
        }
        if mn > paired {
            let anchor = (prefix + paired).checked_sub(1);
            let extra = gnew.elems[prefix + paired..prefix + mn].iter().collect();
            self.insert(go, anchor, extra);
        }
        if mo > paired {
            let gone: Vec<usize> = (prefix + paired..prefix + mo).collect();
            self.remove(go, &gone);
        }
    }

    /// The changed middle of a list of named items where items were only
    /// added, paired by name: an item in both is patched in place, a new
    /// one inserted after the item before it. `false` (nothing done) when
    /// an item has no name, an old one is missing or the names run in
    /// another order.
    fn named_middle(
        &mut self,
        go: &Group,
        gold: &Group,
        gnew: &Group,
        old_mid: std::ops::Range<usize>,
        new_mid: std::ops::Range<usize>,
    ) -> bool {
        let names = |t: &Tree, g: &Group, r: std::ops::Range<usize>| -> Option<Vec<String>> {
            r.map(|i| identity(t, &g.elems[i].value).map(str::to_string))
                .collect()
        };
        let (Some(on), Some(nn)) = (
            names(self.old, gold, old_mid.clone()),
            names(self.new, gnew, new_mid.clone()),
        ) else {
            return false;
        };
        let pairs: Vec<(usize, usize)> = nn
            .iter()
            .enumerate()
            .filter_map(|(j, n)| on.iter().position(|o| o == n).map(|i| (i, j)))
            .collect();
        // Items only added: an old item missing may be a renamed one, whose
        // lines (and comments) the positional pairing keeps.
        if pairs.len() != on.len() || pairs.windows(2).any(|w| w[1].0 <= w[0].0) {
            return false;
        }
        let mut anchor = old_mid.start.checked_sub(1);
        let mut pending: Vec<&Elem> = Vec::new();
        for (j, _) in nn.iter().enumerate() {
            let nj = new_mid.start + j;
            match pairs.iter().find(|p| p.1 == j) {
                Some(&(i, _)) => {
                    let oi = old_mid.start + i;
                    self.insert(go, anchor, std::mem::take(&mut pending));
                    self.node(
                        &go.elems[oi].value,
                        &gold.elems[oi].value,
                        &gnew.elems[nj].value,
                    );
                    anchor = Some(oi);
                }
                None => pending.push(&gnew.elems[nj]),
            }
        }
        self.insert(go, anchor, pending);
        true
    }

    fn multiline(&self, g: &Group) -> bool {
        let text = self.orig.text;
        let open = self.orig.toks[g.open].end;
        let first = g.elems.first().map_or(self.orig.toks[g.close].start, |e| {
            self.orig.toks[e.first].start
        });
        text[open..first].contains('\n')
    }

    /// Inserts new elements after original element `anchor` (at the start
    /// when `None`).
    fn insert(&mut self, go: &Group, anchor: Option<usize>, elems: Vec<&Elem>) {
        if elems.is_empty() {
            return;
        }
        let text = self.orig.text;
        if self.multiline(go) {
            let (at, indent) = if let Some(a) = anchor {
                let e = &go.elems[a];
                let (indent, _) = self.position(self.orig.toks[e.first].start);
                let after = if let Some(c) = e.comma {
                    self.orig.toks[c].end
                } else {
                    let end = self.orig.end(&e.value);
                    self.edits.push(Edit {
                        start: end,
                        end,
                        text: ",".into(),
                    });
                    end
                };
                let at = text[after..]
                    .find('\n')
                    .map_or(text.len(), |i| after + i + 1);
                (at, indent)
            } else {
                let first = go.elems.first().map(|e| self.orig.toks[e.first].start);
                match first {
                    Some(f) => {
                        let (indent, _) = self.position(f);
                        (text[..f].rfind('\n').map_or(0, |i| i + 1), indent)
                    }
                    None => return,
                }
            };
            let mut s = String::new();
            if at == text.len() && !text.ends_with('\n') {
                s.push('\n');
            }
            for e in elems {
                s.push_str(&indent);
                s.push_str(&self.new.render_elem(e, &indent));
                s.push_str(",\n");
            }
            self.edits.push(Edit {
                start: at,
                end: at,
                text: s,
            });
        } else {
            let (indent, _) = self.position(self.orig.toks[go.open].start);
            let parts: Vec<String> = elems
                .iter()
                .map(|e| self.new.render_elem(e, &indent))
                .collect();
            let joined = parts.join(", ");
            if let Some(a) = anchor {
                let end = self.orig.end(&go.elems[a].value);
                self.edits.push(Edit {
                    start: end,
                    end,
                    text: format!(", {joined}"),
                });
            } else {
                let (at, text) = match go.elems.first() {
                    Some(f) => (self.orig.toks[f.first].start, format!("{joined}, ")),
                    None => (self.orig.toks[go.open].end, joined),
                };
                self.edits.push(Edit {
                    start: at,
                    end: at,
                    text,
                });
            }
        }
    }

    /// Removes original elements (indices ascending), with their commas and,
    /// when they stand on lines of their own, those lines.
    fn remove(&mut self, go: &Group, gone: &[usize]) {
        let text = self.orig.text;
        let toks = &self.orig.toks;
        for &i in gone {
            let e = &go.elems[i];
            let start = toks[e.first].start;
            let end = e.comma.map_or(self.orig.end(&e.value), |c| toks[c].end);
            let line_start = text[..start].rfind('\n').map_or(0, |k| k + 1);
            let rest_end = text[end..].find('\n').map_or(text.len(), |k| end + k);
            let own_lines = text[line_start..start].trim().is_empty()
                && text[end..rest_end].trim().is_empty()
                && e.comma.is_some();
            let (s, t) = if own_lines {
                (line_start, (rest_end + 1).min(text.len()))
            } else if e.comma.is_some() {
                // `a, b, c`: take `b, ` up to the next element.
                let next = toks.get(e.comma.unwrap_or(0) + 1).map_or(end, |t| t.start);
                (start, next)
            } else if i > 0 && !gone.contains(&(i - 1)) {
                // The last element without a comma: take the comma before it.
                (self.orig.end(&go.elems[i - 1].value), end)
            } else {
                (start, end)
            };
            self.edits.push(Edit {
                start: s,
                end: t,
                text: String::new(),
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOGS: &str = include_str!("../../sample-projects/logs.cqlm.ron");
    const HOTEL: &str = include_str!("../../sample-projects/hotel.cqlm.ron");

    fn changed_lines(a: &str, b: &str) -> Vec<String> {
        let al: Vec<&str> = a.lines().collect();
        let bl: Vec<&str> = b.lines().collect();
        let mut p = 0;
        while p < al.len() && p < bl.len() && al[p] == bl[p] {
            p += 1;
        }
        let mut s = 0;
        while s < al.len() - p && s < bl.len() - p && al[al.len() - 1 - s] == bl[bl.len() - 1 - s] {
            s += 1;
        }
        bl[p..bl.len() - s]
            .iter()
            .map(std::string::ToString::to_string)
            .collect()
    }

    #[test]
    fn no_edit_is_byte_identical() {
        let p = load::from_str(LOGS).expect("loads");
        assert_eq!(save_text(LOGS, &p), LOGS);
    }

    #[test]
    fn toggling_an_entry_twice_keeps_every_comment() {
        let mut p = load::from_str(LOGS).expect("loads");
        let first = p.workflow.entry.remove(0);
        let once = save_text(LOGS, &p);
        assert!(
            once.lines()
                .filter(|l| l.trim_start().starts_with("//"))
                .count()
                >= 37
        );
        p.workflow.entry.insert(0, first);
        assert_eq!(save_text(&once, &p), LOGS);
    }

    #[test]
    fn one_changed_value_changes_one_line() {
        let mut p = load::from_str(HOTEL).expect("loads");
        p.entities[0].count = Some(1234.0);
        let text = save_text(HOTEL, &p);
        assert_eq!(load::from_str(&text).expect("reads back"), p);
        let changed = changed_lines(HOTEL, &text);
        assert_eq!(changed.len(), 1, "{changed:?}");
        assert!(changed[0].contains("1234"), "{changed:?}");
        assert!(!changed[0].contains("1234.0"), "{changed:?}");
    }

    #[test]
    fn added_attribute_takes_the_siblings_style() {
        let mut p = load::from_str(LOGS).expect("loads");
        let mut a = p.entities[1].attributes[0].clone();
        a.name = "rack".into();
        p.entities[1].attributes.push(a);
        let text = save_text(LOGS, &p);
        assert_eq!(load::from_str(&text).expect("reads back"), p);
        let changed = changed_lines(LOGS, &text);
        assert_eq!(
            changed,
            vec![
                "                Attribute(name: \"rack\", type: \"text\", size: Some(12)),"
                    .to_string()
            ]
        );
    }

    #[test]
    fn removed_items_take_their_lines() {
        let mut p = load::from_str(LOGS).expect("loads");
        p.entities[0].attributes.pop();
        let text = save_text(LOGS, &p);
        assert_eq!(load::parse(&text).expect("reads back"), p);
        assert_eq!(LOGS.lines().count() - 1, text.lines().count());
    }

    #[test]
    fn option_set_and_cleared_inline() {
        let mut p = load::from_str(LOGS).expect("loads");
        p.entities[1].attributes[1].distinct = Some(7.0);
        p.entities[1].attributes[2].mutable = false;
        let text = save_text(LOGS, &p);
        assert_eq!(load::from_str(&text).expect("reads back"), p);
        assert!(text.contains(
            "Attribute(name: \"hostname\", type: \"text\", size: Some(24), distinct: Some(7)),"
        ));
        assert!(text.contains("Attribute(name: \"ip_address\", type: \"inet\"),"));
    }

    #[test]
    fn crlf_files_keep_crlf() {
        let crlf = LOGS.replace('\n', "\r\n");
        let mut p = load::from_str(&crlf).expect("loads");
        let mut a = p.entities[1].attributes[0].clone();
        a.name = "rack".into();
        p.entities[1].attributes.push(a);
        p.entities[0].count = Some(21.0);
        let text = patched(&crlf, &p).expect("spliced");
        assert_eq!(load::from_str(&text).expect("reads back"), p);
        assert_eq!(text.matches('\n').count(), text.matches("\r\n").count());
        assert_eq!(text.lines().count(), LOGS.lines().count() + 1);
    }

    #[test]
    fn scanner_skips_strings_and_comments() {
        let t = Tree::parse("// x ( [\nA(a: \"(\\\"\", /* ) */ b: [1, -2.5e-3], c: r#\"]\"#)")
            .expect("parses");
        match &t.root.kind {
            Kind::Struct(g) => assert_eq!(g.elems.len(), 3),
            other => panic!("{other:?}"),
        }
        assert!(Tree::parse("A(a: \"open").is_none());
        assert!(Tree::parse("A(a: 1").is_none());
        assert!(Tree::parse("/* never closed").is_none());
    }

    #[test]
    fn unreadable_original_falls_back_to_full_text() {
        let p = load::from_str(HOTEL).expect("loads");
        assert_eq!(save_text("not ron", &p), load::to_string(&p));
    }

    /// The comment above an item, and the one after it on its line,
    /// travel with it when the item moves: `entities` and an entity's
    /// `attributes` swapped, the last item moved up (it gains a comma).
    #[test]
    fn comments_move_with_their_items() {
        let text = r#"Project(
    format: 1,
    name: "moves",
    keyspace: Keyspace(name: "moves", replication: Simple(1)),
    entities: [
        // About Alpha.
        Entity(
            name: "Alpha",
            key: ["id"],
            attributes: [
                // Alpha's id.
                Attribute(name: "id", type: "uuid"),
                Attribute(name: "label", type: "text"), // Alpha's label.
            ],
        ),

        // About Beta.
        Entity(name: "Beta", key: ["id"], attributes: [Attribute(name: "id", type: "uuid")]),
        // About Gamma.
        Entity(name: "Gamma", key: ["id"], attributes: [Attribute(name: "id", type: "uuid")])
    ],
)
"#;
        let mut p = load::from_str(text).expect("loads");
        // Gamma (the last, without a comma) to the top; Alpha's attributes swapped.
        let gamma = p.entities.remove(2);
        p.entities.insert(0, gamma);
        p.entities[1].attributes.swap(0, 1);
        let out = patched(text, &p).expect("spliced, not rewritten");
        assert_eq!(load::from_str(&out).expect("reads back"), p);
        let above = |name: &str| {
            let at = out.find(&format!("name: \"{name}\"")).expect("item");
            let line = out[..at].rfind('\n').expect("a line");
            let prev = out[..line].rfind('\n').map_or(0, |i| i + 1);
            out[prev..line].trim().to_string()
        };
        assert_eq!(above("Gamma"), "// About Gamma.", "{out}");
        assert_eq!(above("Beta"), "// About Beta.", "{out}");
        let alpha = out.find("// About Alpha.").expect("kept");
        assert!(
            out[alpha..]
                .trim_start_matches("// About Alpha.")
                .trim_start()
                .starts_with("Entity("),
            "{out}"
        );
        let label = out.find("name: \"label\"").expect("label");
        let id = out.find("// Alpha's id.").expect("kept");
        assert!(label < id, "the label now comes first: {out}");
        assert!(
            out[label..]
                .lines()
                .next()
                .is_some_and(|l| l.ends_with("// Alpha's label.")),
            "{out}"
        );
        // Moving back gives the original text byte for byte.
        let back = load::from_str(text).expect("loads");
        assert_eq!(save_text(&out, &back), text);
    }
}
