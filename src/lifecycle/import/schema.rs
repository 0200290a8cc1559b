//! A CQL schema as cqlsh `DESCRIBE` prints it, read statement by statement.
//! A statement this reader cannot parse, or one Cassandra would refuse, is
//! reported with its line and column and skipped; the rest still imports.

use super::lex::{self, Pos, Tok, Token};
use crate::model::{CqlType, Dir, Replication};
use std::collections::BTreeMap;
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Level {
    /// The statement was skipped.
    Error,
    /// Imported, but something was left out or changed.
    Warning,
    /// Not schema (INSERT, functions…): ignored on purpose.
    Info,
    /// Imported as written; what the import made of it (tables folded
    /// into one entity).
    Note,
}

#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Message {
    pub pos: Pos,
    pub level: Level,
    pub text: String,
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let level = match self.level {
            Level::Error => "skipped",
            Level::Warning => "warning",
            Level::Info => "ignored",
            Level::Note => "note",
        };
        write!(f, "{}: {level}: {}", self.pos, self.text)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct KeyspaceDef {
    pub name: String,
    pub replication: Replication,
    pub durable_writes: bool,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TypeDef {
    pub keyspace: Option<String>,
    pub name: String,
    pub fields: Vec<(String, CqlType)>,
    pub pos: Pos,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ColumnDef {
    pub name: String,
    pub ty: CqlType,
    pub is_static: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct TableDef {
    pub keyspace: Option<String>,
    pub name: String,
    pub columns: Vec<ColumnDef>,
    pub partition: Vec<String>,
    pub clustering: Vec<(String, Dir)>,
    /// `default_time_to_live`, when not 0.
    pub ttl: Option<u64>,
    /// Every other option, kept: compaction, `gc_grace`, caching, … (the
    /// TTL above and the comment below are not repeated here).
    pub options: crate::model::physical::TableOptions,
    pub comment: Option<String>,
    /// For a materialized view: its base table.
    pub view_of: Option<String>,
    /// For a materialized view: the columns it selects (empty: `*`), its
    /// `WHERE` clause and its options, as CQL text.
    pub view: Option<ViewText>,
    /// Secondary indexes on this table's columns, by column.
    pub indexes: Vec<String>,
    pub pos: Pos,
}

impl TableDef {
    pub fn column(&self, name: &str) -> Option<&ColumnDef> {
        self.columns.iter().find(|c| c.name == name)
    }

    pub fn is_key(&self, name: &str) -> bool {
        self.partition.iter().any(|p| p == name) || self.clustering.iter().any(|(c, _)| c == name)
    }

    pub(crate) fn is_counter(&self) -> bool {
        self.columns
            .iter()
            .any(|c| c.ty.is_counter() && !self.is_key(&c.name))
    }
}

/// What a materialized view says beyond its key, as CQL text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ViewText {
    pub select: Vec<String>,
    pub filter: String,
    pub options: std::collections::BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, PartialEq)]
pub struct Schema {
    pub keyspaces: Vec<KeyspaceDef>,
    pub types: Vec<TypeDef>,
    pub tables: Vec<TableDef>,
    pub messages: Vec<Message>,
}

impl Schema {
    pub fn table(&self, name: &str) -> Option<&TableDef> {
        self.tables.iter().find(|t| t.name == name)
    }

    /// The table `name` of keyspace `ks` (any keyspace when `None`; a
    /// table whose keyspace is unknown matches any).
    pub fn position(&self, ks: Option<&str>, name: &str) -> Option<usize> {
        self.tables.iter().position(|t| {
            t.name == name && (ks.is_none() || t.keyspace.is_none() || t.keyspace.as_deref() == ks)
        })
    }
}

type Res<T> = Result<T, (Pos, String)>;

/// Reads every statement of `text`. Never fails: problems become messages.
pub fn parse(text: &str) -> Schema {
    let mut schema = Schema::default();
    let toks = match lex::tokens(text) {
        Ok(t) => t,
        Err((pos, text)) => {
            schema.messages.push(Message {
                pos,
                level: Level::Error,
                text,
            });
            return schema;
        }
    };
    let mut current_ks: Option<String> = None;
    for stmt in toks.split(|t| t.tok == Tok::Punct(';')) {
        if stmt.is_empty() {
            continue;
        }
        let mut p = Stmt {
            toks: stmt,
            i: 0,
            end: stmt.last().map(|t| t.pos).unwrap_or_default(),
        };
        if let Err((pos, text)) = p.statement(&mut schema, &mut current_ks) {
            schema.messages.push(Message {
                pos,
                level: Level::Error,
                text,
            });
        }
    }
    schema
}

struct Stmt<'a> {
    toks: &'a [Token],
    i: usize,
    end: Pos,
}

impl Stmt<'_> {
    fn pos(&self) -> Pos {
        self.toks.get(self.i).map_or(self.end, |t| t.pos)
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.i).map(|t| &t.tok)
    }

    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.toks.get(self.i + n).map(|t| &t.tok)
    }

    fn err<T>(&self, msg: impl Into<String>) -> Res<T> {
        Err((self.pos(), msg.into()))
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Some(Tok::Word(x)) if x == w)
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.is_word(w) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn eat_words(&mut self, ws: &[&str]) -> bool {
        let all = ws
            .iter()
            .enumerate()
            .all(|(k, w)| matches!(self.peek_at(k), Some(Tok::Word(x)) if x == w));
        if all {
            self.i += ws.len();
        }
        all
    }

    fn expect_word(&mut self, w: &str) -> Res<()> {
        if self.eat_word(w) {
            Ok(())
        } else {
            self.err(format!(
                "expected {}, found {}",
                w.to_uppercase(),
                self.found()
            ))
        }
    }

    fn found(&self) -> String {
        self.peek().map_or(
            "the end of the statement".into(),
            std::string::ToString::to_string,
        )
    }

    fn eat(&mut self, c: char) -> bool {
        if self.peek() == Some(&Tok::Punct(c)) {
            self.i += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, c: char) -> Res<()> {
        if self.eat(c) {
            Ok(())
        } else {
            self.err(format!("expected '{c}', found {}", self.found()))
        }
    }

    fn ident(&mut self) -> Res<String> {
        match self.peek() {
            Some(Tok::Word(w)) if crate::model::naming::is_reserved(w) => self.err(format!(
                "{w} is a reserved word: Cassandra refuses it as a name unless quoted (\"{w}\")"
            )),
            Some(Tok::Word(w)) => {
                let w = w.clone();
                self.i += 1;
                Ok(w)
            }
            Some(Tok::Quoted(q)) => {
                let q = q.clone();
                self.i += 1;
                Ok(q)
            }
            _ => self.err(format!("expected a name, found {}", self.found())),
        }
    }

    /// `name` or `keyspace.name`.
    fn qualified(&mut self) -> Res<(Option<String>, String)> {
        let first = self.ident()?;
        if self.eat('.') {
            Ok((Some(first), self.ident()?))
        } else {
            Ok((None, first))
        }
    }

    /// A balanced `( … )`.
    fn skip_parens(&mut self) -> Res<()> {
        self.expect('(')?;
        let mut depth = 1usize;
        while depth > 0 {
            match self.peek() {
                None => return self.err("')' missing"),
                Some(Tok::Punct('(')) => depth += 1,
                Some(Tok::Punct(')')) => depth -= 1,
                _ => {}
            }
            self.i += 1;
        }
        Ok(())
    }

    /// `ALTER TABLE|TYPE|KEYSPACE …`, applied to what the statements
    /// before it made, as Cassandra would.
    fn alter(&mut self, start: Pos, schema: &mut Schema, current: Option<&str>) -> Res<()> {
        if self.eat_word("keyspace") || self.eat_word("schema") {
            let ks = self.keyspace(start)?;
            return match schema.keyspaces.iter_mut().find(|k| k.name == ks.name) {
                Some(k) => {
                    k.replication = ks.replication;
                    k.durable_writes = ks.durable_writes;
                    Ok(())
                }
                None => Err((
                    start,
                    format!("ALTER KEYSPACE of unknown keyspace {}", ks.name),
                )),
            };
        }
        if self.eat_word("type") {
            self.eat_words(&["if", "exists"]);
            let (_, name) = self.qualified()?;
            let Some(ti) = schema.types.iter().position(|t| t.name == name) else {
                return Err((start, format!("ALTER TYPE of unknown type {name}")));
            };
            if self.eat_word("add") {
                self.if_not_exists();
                let f = self.ident()?;
                let ty = self.ty()?;
                let t = &mut schema.types[ti];
                if !t.fields.iter().any(|(n, _)| *n == f) {
                    t.fields.push((f, ty));
                }
            } else if self.eat_word("rename") {
                self.eat_words(&["if", "exists"]);
                loop {
                    let from = self.ident()?;
                    self.expect_word("to")?;
                    let to = self.ident()?;
                    match schema.types[ti].fields.iter_mut().find(|(n, _)| *n == from) {
                        Some(field) => field.0 = to,
                        None => return Err((start, format!("type {name} has no field {from}"))),
                    }
                    if !self.eat_word("and") {
                        break;
                    }
                }
            } else {
                return self.err(format!(
                    "ALTER TYPE … {} is not supported by Cassandra 4.0+",
                    self.found()
                ));
            }
            return Ok(());
        }
        if !(self.eat_word("table") || self.eat_word("columnfamily")) {
            let what = self.found().to_uppercase();
            ignored(schema, start, format!("ALTER {what} (not a table or type)"));
            return Ok(());
        }
        self.eat_words(&["if", "exists"]);
        let (ks, name) = self.qualified()?;
        let Some(ti) = schema.position(ks.as_deref().or(current), &name) else {
            return Err((start, format!("ALTER TABLE of unknown table {name}")));
        };
        if self.eat_word("add") {
            self.if_not_exists();
            let grouped = self.eat('(');
            let before = schema.tables[ti].columns.len();
            loop {
                let cpos = self.pos();
                let cname = self.ident()?;
                let here = schema.tables[ti].keyspace.clone();
                let ty = self.known_ty(&schema.types, here.as_deref())?;
                let is_static = self.eat_word("static");
                let t = &mut schema.tables[ti];
                if t.column(&cname).is_some() {
                    return Err((cpos, format!("{name} already has a column {cname}")));
                }
                if is_static && t.clustering.is_empty() {
                    return Err((
                        cpos,
                        format!(
                            "static column {cname} in {name}, a table without clustering columns"
                        ),
                    ));
                }
                t.columns.push(ColumnDef {
                    name: cname,
                    ty,
                    is_static,
                });
                if !(grouped && self.eat(',')) {
                    break;
                }
            }
            if grouped {
                self.expect(')')?;
            }
            // A `SELECT *` view takes the columns its base table gains, as
            // Cassandra carries them over.
            let added: Vec<ColumnDef> = schema.tables[ti].columns[before..].to_vec();
            let ks = schema.tables[ti].keyspace.clone();
            for v in &mut schema.tables {
                let all = v.view.as_ref().is_some_and(|x| x.select.is_empty());
                if all && v.keyspace == ks && v.view_of.as_deref() == Some(name.as_str()) {
                    for c in &added {
                        if v.column(&c.name).is_none() {
                            v.columns.push(ColumnDef {
                                is_static: false,
                                ..c.clone()
                            });
                        }
                    }
                }
            }
        } else if self.eat_word("drop") {
            self.eat_words(&["if", "exists"]);
            let grouped = self.eat('(');
            loop {
                let cpos = self.pos();
                let cname = self.ident()?;
                let t = &mut schema.tables[ti];
                if t.partition.contains(&cname) || t.clustering.iter().any(|(c, _)| *c == cname) {
                    return Err((
                        cpos,
                        format!("{name}.{cname} is a primary key column; Cassandra cannot drop it"),
                    ));
                }
                let Some(ci) = t.columns.iter().position(|c| c.name == cname) else {
                    return Err((cpos, format!("{name} has no column {cname}")));
                };
                t.columns.remove(ci);
                t.indexes.retain(|c| *c != cname);
                t.options.indexes.remove(&cname);
                if !(grouped && self.eat(',')) {
                    break;
                }
            }
            if grouped {
                self.expect(')')?;
            }
            if self.eat_word("using") {
                self.expect_word("timestamp")?;
                self.literal()?;
            }
        } else if self.eat_word("rename") {
            self.eat_words(&["if", "exists"]);
            loop {
                let cpos = self.pos();
                let from = self.ident()?;
                self.expect_word("to")?;
                let to = self.ident()?;
                let t = &mut schema.tables[ti];
                let key =
                    t.partition.contains(&from) || t.clustering.iter().any(|(c, _)| *c == from);
                if !key {
                    return Err((cpos, format!("{name}.{from} is not a primary key column; Cassandra renames only those")));
                }
                if t.column(&to).is_some() {
                    return Err((cpos, format!("{name} already has a column {to}")));
                }
                for c in &mut t.columns {
                    if c.name == from {
                        c.name.clone_from(&to);
                    }
                }
                for c in &mut t.partition {
                    if *c == from {
                        c.clone_from(&to);
                    }
                }
                for (c, _) in &mut t.clustering {
                    if *c == from {
                        c.clone_from(&to);
                    }
                }
                for c in &mut t.indexes {
                    if *c == from {
                        c.clone_from(&to);
                    }
                }
                if let Some(spec) = t.options.indexes.remove(&from) {
                    t.options.indexes.insert(to.clone(), spec);
                }
                if !self.eat_word("and") {
                    break;
                }
            }
        } else if self.is_word("with") {
            let mut t = schema.tables[ti].clone();
            let mut messages = Vec::new();
            self.table_options(&mut t, &mut messages)?;
            schema.tables[ti] = t;
            schema.messages.extend(messages);
        } else {
            return self.err(format!(
                "ALTER TABLE … {} is not supported by Cassandra 4.0+ (ADD, DROP, RENAME or WITH)",
                self.found()
            ));
        }
        if self.peek().is_some() {
            return self.err(format!("unexpected {}", self.found()));
        }
        Ok(())
    }

    /// `DROP TABLE|INDEX|TYPE|MATERIALIZED VIEW …`, applied in order.
    fn drop(&mut self, start: Pos, schema: &mut Schema, current: Option<&str>) -> Res<()> {
        let view = self.eat_words(&["materialized", "view"]);
        if view || self.eat_word("table") || self.eat_word("columnfamily") {
            let exists = self.eat_words(&["if", "exists"]);
            let (ks, name) = self.qualified()?;
            match schema.position(ks.as_deref().or(current), &name) {
                Some(i) => {
                    schema.tables.remove(i);
                }
                None if exists => {}
                None => return Err((start, format!("DROP of unknown table {name}"))),
            }
        } else if self.eat_word("index") {
            let exists = self.eat_words(&["if", "exists"]);
            let (ks, name) = self.qualified()?;
            let ks = ks.as_deref().or(current);
            let found = schema
                .tables
                .iter_mut()
                .filter(|t| ks.is_none() || t.keyspace.is_none() || t.keyspace.as_deref() == ks)
                .find_map(|t| {
                    let column = t.indexes.iter().find(|c| {
                        t.options
                            .indexes
                            .get(*c)
                            .and_then(|s| s.name.as_deref())
                            .map_or_else(|| format!("{}_{c}_idx", t.name) == name, |n| n == name)
                    })?;
                    let column = column.clone();
                    Some((t, column))
                });
            match found {
                Some((t, column)) => {
                    t.indexes.retain(|c| *c != column);
                    t.options.indexes.remove(&column);
                }
                None if exists => {}
                None => return Err((start, format!("DROP of unknown index {name}"))),
            }
        } else if self.eat_word("type") {
            let exists = self.eat_words(&["if", "exists"]);
            let (_, name) = self.qualified()?;
            match schema.types.iter().position(|t| t.name == name) {
                Some(i) => {
                    schema.types.remove(i);
                }
                None if exists => {}
                None => return Err((start, format!("DROP of unknown type {name}"))),
            }
        } else {
            let what = self.found().to_uppercase();
            ignored(
                schema,
                start,
                format!("DROP {what} (not a table, index or type)"),
            );
        }
        Ok(())
    }

    fn if_not_exists(&mut self) {
        self.eat_words(&["if", "not", "exists"]);
    }

    fn statement(&mut self, schema: &mut Schema, current_ks: &mut Option<String>) -> Res<()> {
        let start = self.pos();
        if self.eat_word("use") {
            *current_ks = Some(self.ident()?);
            return Ok(());
        }
        if self.eat_word("alter") {
            return self.alter(start, schema, current_ks.as_deref());
        }
        if self.eat_word("drop") {
            return self.drop(start, schema, current_ks.as_deref());
        }
        if !self.eat_word("create") {
            let what = self.found().to_uppercase();
            // Data, permissions and cqlsh's own commands are not schema;
            // any other word is a statement Cassandra refuses.
            if !NOT_SCHEMA.contains(&what.to_ascii_lowercase().as_str()) {
                return Err((
                    start,
                    format!("{what} is not a CQL statement; Cassandra refuses it"),
                ));
            }
            ignored(schema, start, format!("{what} statement (not schema)"));
            return Ok(());
        }
        self.eat_words(&["or", "replace"]);
        // `IF NOT EXISTS` on something that exists changes nothing, as in
        // Cassandra (a migration script re-creates its keyspace so).
        let kind_then_ine = |p: &Self| {
            matches!(p.peek_at(1), Some(Tok::Word(w)) if w == "if")
                && matches!(p.peek_at(2), Some(Tok::Word(w)) if w == "not")
        };
        let ine = kind_then_ine(self)
            || (self.is_word("materialized") && {
                matches!(self.peek_at(2), Some(Tok::Word(w)) if w == "if")
            });
        if self.eat_word("keyspace") || self.eat_word("schema") {
            let ks = self.keyspace(start)?;
            if current_ks.is_none() {
                *current_ks = Some(ks.name.clone());
            }
            if ine && schema.keyspaces.iter().any(|k| k.name == ks.name) {
                return Ok(());
            }
            schema.keyspaces.push(ks);
        } else if self.eat_word("type") {
            let t = self.user_type(start, current_ks.as_ref(), &schema.types)?;
            if ine
                && schema
                    .types
                    .iter()
                    .any(|x| x.name == t.name && x.keyspace == t.keyspace)
            {
                return Ok(());
            }
            schema.types.push(t);
        } else if self.eat_word("table") || self.eat_word("columnfamily") {
            let t = self.table(
                start,
                current_ks.as_ref(),
                &mut schema.messages,
                &schema.types,
            )?;
            if schema.position(t.keyspace.as_deref(), &t.name).is_some() {
                if ine {
                    return Ok(());
                }
                return Err((start, format!("table {} is defined twice", t.name)));
            }
            schema.tables.push(t);
        } else if self.eat_words(&["materialized", "view"]) {
            let t = self.view(start, current_ks.as_ref(), schema)?;
            if schema.position(t.keyspace.as_deref(), &t.name).is_some() {
                if ine {
                    return Ok(());
                }
                return Err((start, format!("table or view {} is defined twice", t.name)));
            }
            schema.tables.push(t);
        } else if self.is_word("index") || self.is_word("custom") {
            self.eat_word("custom");
            self.expect_word("index")?;
            self.index(schema, current_ks.as_deref())?;
        } else {
            let what = self.found().to_uppercase();
            if !NOT_SCHEMA_CREATE.contains(&what.to_ascii_lowercase().as_str()) {
                return Err((
                    start,
                    format!("CREATE {what} is not a CQL statement; Cassandra refuses it"),
                ));
            }
            ignored(schema, start, format!("CREATE {what} (not schema)"));
        }
        Ok(())
    }

    /// A `{'k': v, …}` literal as text pairs.
    fn map_literal(&mut self) -> Res<Vec<(String, String)>> {
        self.expect('{')?;
        let mut out = Vec::new();
        if self.eat('}') {
            return Ok(out);
        }
        loop {
            let k = self.literal()?;
            self.expect(':')?;
            let v = self.literal()?;
            out.push((k, v));
            if self.eat('}') {
                return Ok(out);
            }
            self.expect(',')?;
        }
    }

    fn literal(&mut self) -> Res<String> {
        match self.peek() {
            Some(Tok::Str(s) | Tok::Number(s) | Tok::Word(s) | Tok::Quoted(s)) => {
                let s = s.clone();
                self.i += 1;
                Ok(s)
            }
            _ => self.err(format!("expected a value, found {}", self.found())),
        }
    }

    fn keyspace(&mut self, start: Pos) -> Res<KeyspaceDef> {
        self.if_not_exists();
        let name = self.ident()?;
        self.expect_word("with")?;
        let mut replication = None;
        let mut durable_writes = true;
        loop {
            let opt_pos = self.pos();
            let opt = self.ident()?;
            self.expect('=')?;
            if opt == "replication" {
                let pairs = self.map_literal()?;
                replication = Some(replication_of(&pairs).map_err(|m| (opt_pos, m))?);
            } else if opt == "durable_writes" {
                durable_writes = !self.literal()?.eq_ignore_ascii_case("false");
            } else if self.peek() == Some(&Tok::Punct('{')) {
                self.map_literal()?;
            } else {
                self.literal()?;
            }
            if !self.eat_word("and") {
                break;
            }
        }
        if self.peek().is_some() {
            return self.err(format!("unexpected {}", self.found()));
        }
        let Some(replication) = replication else {
            return Err((start, format!("keyspace {name} has no replication")));
        };
        Ok(KeyspaceDef {
            name,
            replication,
            durable_writes,
            pos: start,
        })
    }

    /// A column type up to the next `,` `)` or keyword, keyspace
    /// qualifiers dropped.
    fn ty(&mut self) -> Res<CqlType> {
        let start = self.pos();
        let mut text = String::new();
        let mut depth = 0usize;
        loop {
            match self.peek() {
                Some(Tok::Punct('<')) => {
                    depth += 1;
                    text.push('<');
                }
                Some(Tok::Punct('>')) if depth > 0 => {
                    depth -= 1;
                    text.push('>');
                }
                Some(Tok::Punct(',')) if depth > 0 => text.push(','),
                Some(Tok::Word(w) | Tok::Quoted(w)) => {
                    if self.peek_at(1) == Some(&Tok::Punct('.')) {
                        self.i += 2;
                        continue;
                    }
                    if depth == 0 && !text.is_empty() {
                        break;
                    }
                    text.push_str(w);
                }
                Some(Tok::Number(n)) if depth > 0 => text.push_str(n),
                _ => break,
            }
            self.i += 1;
            if depth == 0 && !text.is_empty() && self.peek() != Some(&Tok::Punct('<')) {
                break;
            }
        }
        text.parse::<CqlType>().map_err(|e| {
            (
                start,
                format!(
                    "type {}: {}",
                    crate::model::terminal_text::echo(&text),
                    e.message
                ),
            )
        })
    }

    /// [`Stmt::ty`], refused when it names a user type the keyspace
    /// `ks` does not have (yet): Cassandra resolves types when the
    /// statement runs.
    fn known_ty(&mut self, types: &[TypeDef], ks: Option<&str>) -> Res<CqlType> {
        let start = self.pos();
        let ty = self.ty()?;
        let mut used = Vec::new();
        ty.udts(&mut used);
        for u in used {
            let known = types.iter().any(|t| {
                t.name == u && (ks.is_none() || t.keyspace.is_none() || t.keyspace.as_deref() == ks)
            });
            if !known {
                return Err((start, format!("unknown type {u}; Cassandra refuses it")));
            }
        }
        Ok(ty)
    }

    fn user_type(
        &mut self,
        start: Pos,
        current_ks: Option<&String>,
        types: &[TypeDef],
    ) -> Res<TypeDef> {
        self.if_not_exists();
        let (ks, name) = self.qualified()?;
        let here = ks.as_deref().or(current_ks.map(String::as_str));
        self.expect('(')?;
        let mut fields: Vec<(String, CqlType)> = Vec::new();
        loop {
            if self.eat(')') {
                break;
            }
            let fpos = self.pos();
            let f = self.ident()?;
            if fields.iter().any(|(n, _)| *n == f) {
                return Err((fpos, format!("field {f} is defined twice in type {name}")));
            }
            let ty = self.known_ty(types, here)?;
            fields.push((f, ty));
            if !self.eat(',') {
                self.expect(')')?;
                break;
            }
        }
        if fields.is_empty() {
            return Err((start, format!("type {name} has no fields")));
        }
        Ok(TypeDef {
            keyspace: ks.or_else(|| current_ks.cloned()),
            name,
            fields,
            pos: start,
        })
    }

    /// `PRIMARY KEY (…)` after the keywords: partition and clustering names.
    fn primary_key(&mut self) -> Res<(Vec<String>, Vec<String>)> {
        self.expect('(')?;
        let partition = if self.eat('(') {
            let mut p = vec![self.ident()?];
            while self.eat(',') {
                p.push(self.ident()?);
            }
            self.expect(')')?;
            p
        } else {
            vec![self.ident()?]
        };
        let mut clustering = Vec::new();
        while self.eat(',') {
            clustering.push(self.ident()?);
        }
        self.expect(')')?;
        Ok((partition, clustering))
    }

    fn table(
        &mut self,
        start: Pos,
        current_ks: Option<&String>,
        messages: &mut Vec<Message>,
        types: &[TypeDef],
    ) -> Res<TableDef> {
        self.if_not_exists();
        let (ks, name) = self.qualified()?;
        let here = ks.as_deref().or(current_ks.map(String::as_str));
        self.expect('(')?;
        let mut columns: Vec<ColumnDef> = Vec::new();
        let mut key: Option<(Vec<String>, Vec<String>)> = None;
        loop {
            if self.eat_words(&["primary", "key"]) {
                if key.is_some() {
                    return self.err("a second PRIMARY KEY");
                }
                key = Some(self.primary_key()?);
            } else {
                let cpos = self.pos();
                let cname = self.ident()?;
                let ty = self.known_ty(types, here)?;
                let is_static = self.eat_word("static");
                if self.eat_word("masked") {
                    // Cassandra 5 dynamic data masking: not part of a model.
                    self.expect_word("with")?;
                    if !self.eat_word("default") {
                        self.qualified()?;
                        self.skip_parens()?;
                    }
                    messages.push(Message {
                        pos: cpos,
                        level: Level::Warning,
                        text: format!("{name}.{cname}: MASKED WITH … is not modelled; dropped"),
                    });
                }
                if self.eat_words(&["primary", "key"]) {
                    if key.is_some() {
                        return self.err("a second PRIMARY KEY");
                    }
                    key = Some((vec![cname.clone()], vec![]));
                }
                if columns.iter().any(|c| c.name == cname) {
                    return Err((cpos, format!("column {cname} is defined twice")));
                }
                columns.push(ColumnDef {
                    name: cname,
                    ty,
                    is_static,
                });
            }
            if self.eat(')') {
                break;
            }
            if !self.eat(',') {
                return self.err(format!("expected ',' or ')', found {}", self.found()));
            }
            if self.eat(')') {
                break;
            }
        }
        let Some((partition, clustering)) = key else {
            return Err((start, format!("table {name} has no PRIMARY KEY")));
        };
        let mut t = TableDef {
            keyspace: ks.or_else(|| current_ks.cloned()),
            name,
            columns,
            partition,
            clustering: clustering.into_iter().map(|c| (c, Dir::Asc)).collect(),
            ttl: None,
            options: crate::model::physical::TableOptions::default(),
            comment: None,
            view_of: None,
            view: None,
            indexes: vec![],
            pos: start,
        };
        self.table_options(&mut t, messages)?;
        check_table(&t).map_err(|m| (start, m))?;
        Ok(t)
    }

    fn table_options(&mut self, t: &mut TableDef, messages: &mut Vec<Message>) -> Res<()> {
        if !self.eat_word("with") {
            return if self.peek().is_some() {
                self.err(format!("unexpected {}", self.found()))
            } else {
                Ok(())
            };
        }
        loop {
            let opt_pos = self.pos();
            if self.eat_words(&["clustering", "order", "by"]) {
                self.expect('(')?;
                let mut k = 0;
                loop {
                    let c = self.ident()?;
                    let dir = if self.eat_word("desc") {
                        Dir::Desc
                    } else {
                        self.eat_word("asc");
                        Dir::Asc
                    };
                    match t.clustering.get_mut(k) {
                        Some((name, d)) if *name == c => *d = dir,
                        _ => {
                            return Err((
                                opt_pos,
                                format!(
                                    "CLUSTERING ORDER BY must list the clustering columns in key order; {c} is not clustering column {}",
                                    k + 1
                                ),
                            ))
                        }
                    }
                    k += 1;
                    if !self.eat(',') {
                        break;
                    }
                }
                self.expect(')')?;
            } else if self.eat_words(&["compact", "storage"]) {
                messages.push(Message {
                    pos: opt_pos,
                    level: Level::Warning,
                    text: format!(
                        "{}: COMPACT STORAGE is refused by Cassandra 4.0 and later; imported without it",
                        t.name
                    ),
                });
            } else {
                let opt = self.ident()?;
                self.expect('=')?;
                let quoted = matches!(self.peek(), Some(Tok::Str(_)));
                let (value, map) = if self.peek() == Some(&Tok::Punct('{')) {
                    (None, Some(self.map_literal()?))
                } else {
                    (Some(self.literal()?), None)
                };
                if let Err(why) = keep_option(
                    &mut t.options,
                    &opt,
                    value.as_deref(),
                    quoted,
                    map.as_deref(),
                ) {
                    messages.push(Message {
                        pos: opt_pos,
                        level: Level::Warning,
                        text: format!("{}: {why}", t.name),
                    });
                }
                match (opt.as_str(), value) {
                    ("default_time_to_live", Some(v)) => match v.parse::<u64>() {
                        Ok(0) => {}
                        Ok(n) => t.ttl = Some(n),
                        Err(_) => return Err((opt_pos, format!("default_time_to_live = {v}"))),
                    },
                    ("comment", Some(v)) if !v.is_empty() => t.comment = Some(v),
                    ("read_repair_chance" | "dclocal_read_repair_chance", _) => {
                        messages.push(Message {
                            pos: opt_pos,
                            level: Level::Warning,
                            text: format!(
                                "{}: {opt} was removed in Cassandra 4.0; ignored",
                                t.name
                            ),
                        });
                    }
                    _ => {}
                }
            }
            if !self.eat_word("and") {
                break;
            }
        }
        if self.peek().is_some() {
            return self.err(format!("unexpected {}", self.found()));
        }
        Ok(())
    }

    fn view(
        &mut self,
        start: Pos,
        current_ks: Option<&String>,
        schema: &mut Schema,
    ) -> Res<TableDef> {
        self.if_not_exists();
        let (ks, name) = self.qualified()?;
        self.expect_word("as")?;
        self.expect_word("select")?;
        let mut selected = Vec::new();
        if !self.eat('*') {
            loop {
                selected.push(self.ident()?);
                if !self.eat(',') {
                    break;
                }
            }
        }
        self.expect_word("from")?;
        let base_pos = self.pos();
        let (_, base) = self.qualified()?;
        let Some(base_t) = schema.table(&base) else {
            return Err((
                base_pos,
                format!("view {name}: base table {base} is not defined before it"),
            ));
        };
        let base_t = base_t.clone();
        self.expect_word("where")?;
        // The filter (`x IS NOT NULL AND …`), kept as written.
        let from = self.i;
        while self.peek().is_some() && !self.is_word("primary") {
            self.i += 1;
        }
        let filter = render(&self.toks[from..self.i]);
        self.expect_word("primary")?;
        self.expect_word("key")?;
        let (partition, clustering) = self.primary_key()?;
        let select = selected.clone();
        let names: Vec<String> = if selected.is_empty() {
            base_t.columns.iter().map(|c| c.name.clone()).collect()
        } else {
            let mut n = selected;
            for k in partition.iter().chain(&clustering) {
                if !n.contains(k) {
                    n.push(k.clone());
                }
            }
            n
        };
        let mut columns = Vec::new();
        for n in names {
            match base_t.column(&n) {
                Some(c) => columns.push(ColumnDef {
                    name: c.name.clone(),
                    ty: c.ty.clone(),
                    is_static: false,
                }),
                None => return Err((start, format!("view {name}: {base} has no column {n}"))),
            }
        }
        let mut t = TableDef {
            keyspace: ks.or_else(|| current_ks.cloned()),
            name,
            columns,
            partition,
            clustering: clustering.into_iter().map(|c| (c, Dir::Asc)).collect(),
            ttl: None,
            options: crate::model::physical::TableOptions::default(),
            comment: None,
            view_of: Some(base),
            view: None,
            indexes: vec![],
            pos: start,
        };
        let options_from = self.i;
        self.table_options(&mut t, &mut schema.messages)?;
        t.view = Some(ViewText {
            select,
            filter,
            options: verbatim_options(&self.toks[options_from..self.i]),
        });
        check_table(&t).map_err(|m| (start, m))?;
        Ok(t)
    }

    fn index(&mut self, schema: &mut Schema, current: Option<&str>) -> Res<()> {
        use crate::model::physical::{IndexKind, IndexSpec};
        self.if_not_exists();
        let name = if self.is_word("on") {
            None
        } else {
            Some(self.ident()?)
        };
        self.expect_word("on")?;
        let tpos = self.pos();
        let (ks, table) = self.qualified()?;
        let ks = ks.or_else(|| current.map(str::to_string));
        self.expect('(')?;
        let cpos = self.pos();
        // keys(m), values(m), entries(m), full(m) or the column itself.
        let mut column = self.ident()?;
        let mut target = None;
        if self.eat('(') {
            let f = column.to_ascii_lowercase();
            if !matches!(f.as_str(), "keys" | "values" | "entries" | "full") {
                return Err((
                    cpos,
                    format!(
                        "{column}(…) is not an index target: write keys, values, entries or full"
                    ),
                ));
            }
            target = Some(f);
            column = self.ident()?;
            self.expect(')')?;
        }
        self.expect(')')?;
        let mut kind = IndexKind::Secondary;
        if self.eat_word("using") {
            kind = IndexKind::from_class(&self.literal()?);
        }
        let mut options = std::collections::BTreeMap::new();
        if self.eat_word("with") {
            self.expect_word("options")?;
            self.expect('=')?;
            options = self.map_literal()?.into_iter().collect();
        }
        let Some(t) = schema
            .position(ks.as_deref(), &table)
            .and_then(|i| schema.tables.get_mut(i))
        else {
            return Err((tpos, format!("index on unknown table {table}")));
        };
        if t.column(&column).is_none() {
            return Err((cpos, format!("index on unknown column {table}.{column}")));
        }
        if t.partition.len() == 1 && t.partition[0] == column {
            return Err((
                cpos,
                format!("{table}.{column} is the whole partition key; it cannot be indexed"),
            ));
        }
        if !t.indexes.contains(&column) {
            t.indexes.push(column.clone());
        }
        // The name Cassandra would give an unnamed index is the one the
        // export makes; anything else is kept.
        let name = name.filter(|n| *n != format!("{table}_{column}_idx"));
        let spec = IndexSpec {
            name,
            kind,
            target,
            options,
        };
        if spec != IndexSpec::default() {
            t.options.indexes.insert(column, spec);
        }
        Ok(())
    }
}

fn replication_of(pairs: &[(String, String)]) -> Result<Replication, String> {
    let class = pairs
        .iter()
        .find(|(k, _)| k == "class")
        .map(|(_, v)| v.rsplit('.').next().unwrap_or(v).to_string())
        .ok_or("replication without a class")?;
    let factor = |v: &str| -> Result<u32, String> {
        v.trim()
            .parse()
            .map_err(|_| format!("replication factor {v} is not a whole number"))
    };
    match class.as_str() {
        "SimpleStrategy" => {
            let f = pairs
                .iter()
                .find(|(k, _)| k == "replication_factor")
                .ok_or("SimpleStrategy without replication_factor")?;
            Ok(Replication::Simple(factor(&f.1)?))
        }
        "NetworkTopologyStrategy" => {
            let mut dcs = BTreeMap::new();
            for (k, v) in pairs.iter().filter(|(k, _)| k != "class") {
                dcs.insert(k.clone(), factor(v)?);
            }
            Ok(Replication::NetworkTopology(dcs))
        }
        // LocalStrategy, EverywhereStrategy…: one copy is a safe stand-in.
        _ => Ok(Replication::Simple(1)),
    }
}

/// What Cassandra refuses in a table definition.
fn check_table(t: &TableDef) -> Result<(), String> {
    let keys: Vec<&String> = t
        .partition
        .iter()
        .chain(t.clustering.iter().map(|(c, _)| c))
        .collect();
    for (i, k) in keys.iter().enumerate() {
        let Some(c) = t.column(k) else {
            return Err(format!("{}: key column {k} is not defined", t.name));
        };
        if keys[..i].contains(k) {
            return Err(format!("{}: {k} appears twice in the primary key", t.name));
        }
        if c.ty.is_collection() {
            return Err(format!(
                "{}: key column {k} is a non-frozen collection",
                t.name
            ));
        }
        if c.is_static {
            return Err(format!("{}: key column {k} cannot be static", t.name));
        }
    }
    if t.clustering.is_empty() {
        if let Some(c) = t.columns.iter().find(|c| c.is_static) {
            return Err(format!(
                "{}: static column {} in a table without clustering columns",
                t.name, c.name
            ));
        }
    }
    let regular = t.columns.iter().filter(|c| !t.is_key(&c.name));
    let (counters, others): (Vec<_>, Vec<_>) = regular.partition(|c| c.ty.is_counter());
    if !counters.is_empty() && !others.is_empty() {
        return Err(format!(
            "{}: counter column {} mixed with non-counter column {}",
            t.name, counters[0].name, others[0].name
        ));
    }
    if let Some(k) = keys
        .iter()
        .find(|k| t.column(k).is_some_and(|c| c.ty.is_counter()))
    {
        return Err(format!("{}: counter column {k} in the primary key", t.name));
    }
    Ok(())
}

/// Tokens as CQL text: strings and quoted names quoted again, no space
/// before `,` `)` `.` or after `(` `.`.
fn render(toks: &[Token]) -> String {
    let mut out = String::new();
    let mut glue = true;
    for t in toks {
        let (text, before, after) = match &t.tok {
            Tok::Word(w) | Tok::Number(w) => (w.clone(), true, true),
            Tok::Quoted(q) => (format!("\"{}\"", q.replace('"', "\"\"")), true, true),
            Tok::Str(v) => (format!("'{}'", v.replace('\'', "''")), true, true),
            Tok::Punct(c) => (c.to_string(), !",).:}]".contains(*c), !"(.{[".contains(*c)),
        };
        if !glue && before && !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&text);
        glue = !after;
    }
    out
}

/// A view's options after its key (`WITH … AND …`) by name, each value as
/// CQL text; the clustering order is kept apart (in its key).
fn verbatim_options(toks: &[Token]) -> std::collections::BTreeMap<String, String> {
    let mut out = std::collections::BTreeMap::new();
    let toks = match toks.first() {
        Some(Token {
            tok: Tok::Word(w), ..
        }) if w == "with" => &toks[1..],
        _ => toks,
    };
    let mut parts: Vec<&[Token]> = Vec::new();
    let (mut depth, mut start) = (0usize, 0usize);
    for (i, t) in toks.iter().enumerate() {
        match &t.tok {
            Tok::Punct('{' | '(' | '[') => depth += 1,
            Tok::Punct('}' | ')' | ']') => depth = depth.saturating_sub(1),
            Tok::Word(w) if w == "and" && depth == 0 => {
                parts.push(&toks[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&toks[start..]);
    for part in parts {
        if let [Token {
            tok: Tok::Word(name) | Tok::Quoted(name),
            ..
        }, Token {
            tok: Tok::Punct('='),
            ..
        }, value @ ..] = part
        {
            if !value.is_empty() {
                out.insert(name.clone(), render(value));
            }
        }
    }
    out
}

/// Statements that are not schema: data, permissions, batches and cqlsh's
/// own commands (a `DESCRIBE` output or a cqlsh script may hold them).
const NOT_SCHEMA: &[&str] = &[
    "insert",
    "update",
    "delete",
    "select",
    "truncate",
    "begin",
    "apply",
    "grant",
    "revoke",
    "list",
    "describe",
    "desc",
    "consistency",
    "serial",
    "source",
    "copy",
    "capture",
    "tracing",
    "expand",
    "paging",
    "login",
    "show",
    "clear",
    "cls",
    "exit",
    "quit",
    "help",
];

/// `CREATE` statements that are not schema a model holds.
const NOT_SCHEMA_CREATE: &[&str] = &["function", "aggregate", "role", "user", "trigger"];

/// A statement left out on purpose (not schema, or not modelled).
fn ignored(schema: &mut Schema, pos: Pos, text: String) {
    schema.messages.push(Message {
        pos,
        level: Level::Info,
        text,
    });
}

/// Keeps a table option met on import in `options`: the ones the model
/// has a field for in that field, any other Cassandra accepts in `other`
/// with its value as CQL writes it. The TTL, comment and options removed
/// in 4.0 are handled by the caller.
fn keep_option(
    options: &mut crate::model::physical::TableOptions,
    name: &str,
    value: Option<&str>,
    quoted: bool,
    map: Option<&[(String, String)]>,
) -> Result<(), String> {
    use crate::model::physical::{Compaction, Span, SpanUnit, Strategy, OTHER_TABLE_OPTIONS};
    let as_map = |m: &[(String, String)]| -> std::collections::BTreeMap<String, String> {
        m.iter().cloned().collect()
    };
    match (name, value, map) {
        (
            "default_time_to_live"
            | "comment"
            | "read_repair_chance"
            | "dclocal_read_repair_chance",
            _,
            _,
        ) => {}
        ("compaction", _, Some(m)) => {
            let mut m = as_map(m);
            let class = m
                .remove("class")
                .ok_or_else(|| "compaction without a class; ignored".to_string())?;
            options.compaction = Some(Compaction {
                strategy: Strategy::from_class(&class),
                options: m,
            });
        }
        ("caching", _, Some(m)) => options.caching = Some(as_map(m)),
        ("compression", _, Some(m)) => {
            let mut m = as_map(m);
            // 4.0+ writes `class`; older dumps say `sstable_compression`.
            if let Some(c) = m.remove("sstable_compression") {
                m.insert("class".into(), c);
            }
            if let Some(c) = m.remove("chunk_length_kb") {
                m.insert("chunk_length_in_kb".into(), c);
            }
            options.compression = Some(m);
        }
        ("gc_grace_seconds", Some(v), _) => {
            let n: u64 = v
                .parse()
                .map_err(|_| format!("gc_grace_seconds = {v} is not a number; ignored"))?;
            // 0 is set on purpose (no deletes, no hints to keep) and a
            // span cannot be zero: it is kept verbatim in `other`.
            if n == 0 {
                options.other.insert("gc_grace_seconds".into(), "0".into());
            } else {
                options.gc_grace = Some(Span::new(n as f64, SpanUnit::Seconds));
            }
        }
        ("bloom_filter_fp_chance", Some(v), _) => {
            options.bloom_filter_fp_chance =
                Some(v.parse().map_err(|_| {
                    format!("bloom_filter_fp_chance = {v} is not a number; ignored")
                })?);
        }
        ("speculative_retry", Some(v), _) => options.speculative_retry = Some(v.to_string()),
        ("cdc", Some(v), _) => options.cdc = Some(v.eq_ignore_ascii_case("true")),
        (other, value, map) if OTHER_TABLE_OPTIONS.contains(&other) => {
            let text = match (value, map) {
                (_, Some(m)) => format!(
                    "{{{}}}",
                    m.iter()
                        .map(|(k, v)| format!(
                            "'{}': '{}'",
                            k.replace('\'', "''"),
                            v.replace('\'', "''")
                        ))
                        .collect::<Vec<_>>()
                        .join(", ")
                ),
                (Some(v), None) if quoted => format!("'{}'", v.replace('\'', "''")),
                (Some(v), None) => v.to_string(),
                (None, None) => return Ok(()),
            };
            options.other.insert(other.to_string(), text);
        }
        (other, _, _) => {
            return Err(format!(
                "{other} is not a table option Cassandra 4.0–5.0 accepts; ignored"
            ))
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_describe_table_reads_whole() {
        let s = parse(
            "CREATE KEYSPACE ks WITH replication = {'class': 'org.apache.cassandra.locator.NetworkTopologyStrategy', 'dc1': '3'} AND durable_writes = true;\n\
             CREATE TYPE ks.addr (street text, tags frozen<set<text>>);\n\
             CREATE TABLE ks.t (\n  a uuid,\n  b timestamp,\n  s text static,\n  m map<text, frozen<ks.addr>>,\n  PRIMARY KEY ((a), b)\n) WITH CLUSTERING ORDER BY (b DESC)\n  AND default_time_to_live = 86400 AND comment = 'it''s';\n\
             CREATE INDEX t_m ON ks.t (keys(m));\n",
        );
        assert!(s.messages.is_empty(), "{:?}", s.messages);
        let t = &s.tables[0];
        assert_eq!(t.partition, vec!["a"]);
        assert_eq!(t.clustering, vec![("b".to_string(), Dir::Desc)]);
        assert!(t.columns[2].is_static);
        assert_eq!(t.columns[3].ty.to_string(), "map<text, frozen<addr>>");
        assert_eq!(t.ttl, Some(86400));
        assert_eq!(t.comment.as_deref(), Some("it's"));
        assert_eq!(t.indexes, vec!["m"]);
        assert_eq!(s.types[0].fields.len(), 2);
    }

    #[test]
    fn refused_statements_are_skipped_with_their_position() {
        let s = parse(
            "CREATE TABLE a (x int PRIMARY KEY, c counter, t text);\n\
             CREATE TABLE b (x int, d timestamp DEFAULT now(), PRIMARY KEY (x));\n\
             CREATE TABLE ok (x int PRIMARY KEY);\n\
             INSERT INTO ok (x) VALUES (1);",
        );
        assert_eq!(s.tables.len(), 1);
        let errs: Vec<String> = s
            .messages
            .iter()
            .filter(|m| m.level == Level::Error)
            .map(std::string::ToString::to_string)
            .collect();
        assert_eq!(errs.len(), 2, "{errs:?}");
        assert!(
            errs[0].starts_with("1:1: skipped: a: counter column c mixed"),
            "{errs:?}"
        );
        assert!(errs[1].starts_with("2:36: skipped: expected"), "{errs:?}");
        assert!(s.messages.iter().any(|m| m.level == Level::Info));
    }
}
