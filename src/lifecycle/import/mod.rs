//! Import of an existing CQL schema (`cqlmodel import SCHEMA.cql`) as a
//! starting project: an entity per distinct natural key, attributes with
//! their CQL types, one query per table answered by its key, and decisions
//! pinning the imported table names and primary keys, so the project's CQL
//! export is the same schema again.

pub mod against;
pub mod lex;
pub mod schema;

use crate::model::naming;
use crate::model::{
    Attribute, Candidate, Decision, Entity, Field, Keyspace, Note, Order, Project, Query,
    Replication, Target, UserType,
};
pub use schema::{parse, Level, Message, Schema, TableDef};

/// The imported project and what the reader had to say.
pub struct Import {
    pub project: Project,
    pub schema: Schema,
    pub messages: Vec<Message>,
}

/// The name of the candidate key every imported table uses.
pub(crate) const IMPORTED_KEY: &str = "imported";

/// Reads `text` and builds the project. Never fails: statements that cannot
/// be used are in `messages`.
pub fn import(text: &str) -> Import {
    import_keyspace(text, None)
}

/// [`import`] of one keyspace of the schema: `keyspace`, else the first
/// one it creates. A project holds one keyspace; the tables and types of
/// the others are left out and named, so each can be imported on its own
/// (`cqlmodel import --keyspace NAME`), and two keyspaces may hold tables
/// of the same name.
pub fn import_keyspace(text: &str, keyspace: Option<&str>) -> Import {
    let mut schema = parse(text);
    let mut messages = schema.messages.clone();
    let chosen = keyspace
        .map(str::to_string)
        .or_else(|| schema.keyspaces.first().map(|k| k.name.clone()))
        .or_else(|| schema.tables.iter().find_map(|t| t.keyspace.clone()));
    if let Some(chosen) = &chosen {
        let here = |ks: &Option<String>| ks.as_ref().is_none_or(|k| k == chosen);
        if keyspace.is_some()
            && !schema.keyspaces.iter().any(|k| k.name == *chosen)
            && !schema
                .tables
                .iter()
                .any(|t| t.keyspace.as_deref() == Some(chosen))
        {
            messages.push(Message {
                pos: lex::Pos { line: 1, col: 1 },
                level: Level::Error,
                text: format!("the schema has no keyspace {chosen}"),
            });
        }
        for k in schema.keyspaces.iter().filter(|k| k.name != *chosen) {
            let tables = schema
                .tables
                .iter()
                .filter(|t| t.keyspace.as_deref() == Some(&k.name))
                .count();
            messages.push(Message {
                pos: k.pos,
                level: Level::Warning,
                text: format!(
                    "keyspace {} ({tables} table(s)) is not in this project: import it with --keyspace {}",
                    k.name, k.name
                ),
            });
        }
        schema.tables.retain(|t| here(&t.keyspace));
        schema.types.retain(|t| here(&t.keyspace));
        schema.keyspaces.retain(|k| k.name == *chosen);
    }
    let project = project_of(&schema, &mut messages);
    Import {
        project,
        schema,
        messages,
    }
}

/// Why a table or type cannot come in: a column or field name (quoted
/// CQL identifiers may hold anything) with a control or bidirectional
/// character, which no project name may hold (the project would not load).
fn hostile_name<'a>(
    what: &str,
    name: &str,
    parts: impl IntoIterator<Item = &'a String>,
) -> Option<String> {
    parts.into_iter().find_map(|n| {
        let c = n
            .chars()
            .find(|&c| crate::model::terminal_text::is_unsafe(c))?;
        Some(format!(
            "{what} {}: {} holds the control or bidirectional character U+{:04X}; names cannot hold them",
            crate::model::terminal_text::for_terminal(name),
            crate::model::terminal_text::for_terminal(n),
            c as u32
        ))
    })
}

/// The first of `skipped` (types not imported) that `types` use.
fn uses_skipped<'a>(
    skipped: &[String],
    mut types: impl Iterator<Item = &'a crate::model::CqlType>,
) -> Option<String> {
    types.find_map(|ty| {
        let mut used = Vec::new();
        ty.udts(&mut used);
        used.into_iter().find(|u| skipped.contains(u))
    })
}

/// `videos_by_user` → `Video`: the rows' noun, CamelCase, singular.
fn entity_name(table: &str) -> String {
    let stem = table.split("_by_").next().unwrap_or(table);
    let mut s = String::new();
    for part in stem.split('_').filter(|p| !p.is_empty()) {
        let mut cs = part.chars();
        if let Some(c) = cs.next() {
            s.extend(c.to_uppercase());
            s.push_str(cs.as_str());
        }
    }
    if s.len() > 3 && s.ends_with("ies") {
        s.truncate(s.len() - 3);
        s.push('y');
    } else if s.len() > 3 && s.ends_with('s') && !s.ends_with("ss") {
        s.pop();
    }
    if s.is_empty() || !s.starts_with(|c: char| c.is_alphabetic()) {
        s.insert_str(0, "Rows");
    }
    s
}

/// The attribute for a column: its name, unless the column's name holds
/// what attribute names cannot (`.`, spaces); then a `snake_case` name with
/// the column name kept as the attribute's `column`.
fn attr_name(column: &str) -> String {
    if column.contains('.') || column.contains(' ') {
        naming::schema_name(column, "column")
    } else {
        column.to_string()
    }
}

fn attribute(column: &str, ty: &crate::model::CqlType) -> Attribute {
    let mut a = Attribute::new(&attr_name(column), ty.clone());
    if a.name != column {
        a.column = Some(column.into());
    }
    a
}

/// Key columns with their types, whether the table holds counters, and
/// the index of the entity that has this key.
type NaturalKey = (Vec<(String, String)>, bool, usize);

/// One query per table, answered by its key, and the decision pinning the
/// table's name and key; the table's comment and origin as notes.
fn add_query(
    p: &mut Project,
    t: &TableDef,
    rows: &str,
    equality: Vec<String>,
    returns: Vec<String>,
) {
    let id = format!("Q{}", p.queries.len() + 1);
    let by = t.partition.join(", ");
    let mut q = Query::new(&id, &format!("Read {} by {by}", t.name), rows);
    q.equality = equality;
    q.order = t
        .clustering
        .iter()
        .map(|(c, d)| Order {
            attr: attr_name(c),
            dir: *d,
        })
        .collect();
    q.returns = returns;
    let mut d = Decision::new(&id);
    d.name = Some(t.name.clone());
    d.candidates = vec![Candidate {
        name: IMPORTED_KEY.into(),
        partition: t.partition.clone(),
        clustering: t
            .clustering
            .iter()
            .map(|(c, d)| Order {
                attr: c.clone(),
                dir: *d,
            })
            .collect(),
        indexes: t.indexes.clone(),
    }];
    d.use_candidate = Some(IMPORTED_KEY.into());
    d.separate = true;
    // The table's own options stay with it: its TTL becomes its own
    // retention (never the entity's, which other tables share).
    d.options = t.options.clone();
    d.options.as_imported = true;
    // A UDT column written bare is not frozen in Cassandra: kept so.
    d.options.non_frozen = t
        .columns
        .iter()
        .filter(|c| matches!(c.ty, crate::model::CqlType::Udt(_)) && !t.is_key(&c.name))
        .map(|c| c.name.clone())
        .collect();
    if let Some(ttl) = t.ttl {
        d.options.retention = Some(span_of_seconds(ttl));
        d.options.ttl = Some(true);
    }
    p.workflow.entry.push(id.clone());
    p.queries.push(q.into());
    p.decisions.push(d);
    if let Some(c) = &t.comment {
        p.notes.push(Note {
            target: Target::Table(t.name.clone()),
            text: c.clone(),
        });
    }
}

fn empty_entity(name: &str) -> Entity {
    Entity {
        name: name.to_string(),
        short: None,
        plural: None,
        owner: None,
        owners: vec![],
        key: vec![],
        unique: vec![],
        attributes: vec![],
        count: None,
        per: None,
        retention_days: None,
        retention_unit: None,
        ttl: false,
        updates: None,
    }
}

/// The table of the first query reading `entity`.
fn first_table_of(p: &Project, entity: &str) -> Option<String> {
    let q = p.queries.iter().find(|q| q.rows == entity)?;
    p.decisions
        .iter()
        .find(|d| d.query == q.id)
        .and_then(|d| d.name.clone())
}

/// A unique entity name from a base.
fn fresh_entity_name(p: &Project, base: &str) -> String {
    let mut name = base.to_string();
    let mut n = 2;
    while p.entity(&name).is_some() || p.relationship(&name).is_some() {
        name = format!("{base}{n}");
        n += 1;
    }
    name
}

/// A table with static columns: the statics belong to the partition's
/// owner. An owner entity keyed by the partition key holds them; the rows
/// are a weak entity owned by it, keyed by the clustering columns, so the
/// derivation makes the owner's columns static again.
fn add_owned(p: &mut Project, t: &TableDef) {
    let base = entity_name(&t.name);
    let owner = fresh_entity_name(p, &base);
    let mut owner_e = empty_entity(&owner);
    owner_e.key = t.partition.iter().map(|c| attr_name(c)).collect();
    let rows = fresh_entity_name(p, &format!("{owner}Row"));
    let mut row_e = empty_entity(&rows);
    row_e.key = t.clustering.iter().map(|(c, _)| attr_name(c)).collect();
    for c in &t.columns {
        let mut a = attribute(&c.name, &c.ty);
        if c.is_static || t.partition.contains(&c.name) {
            // Columns reached through the owner get its name as a prefix;
            // the schema's name is kept.
            a.column = Some(c.name.as_str().into());
            owner_e.attributes.push(a);
        } else {
            row_e.attributes.push(a);
        }
    }
    let rel = fresh_entity_name(p, &format!("{}_{}", naming::snake_case(&owner), "rows"));
    row_e.owner = Some(rel.clone());
    p.relationships.push(crate::model::Relationship {
        name: rel,
        from: owner.clone(),
        to: rows.clone(),
        cardinality: crate::model::Cardinality::OneToMany,
        to_per_from: None,
        from_per_to: None,
        attributes: vec![],
        written_by_job: false,
        updates: None,
    });
    let equality = t
        .partition
        .iter()
        .map(|c| format!("{owner}.{}", attr_name(c)))
        .collect();
    let returns = t
        .columns
        .iter()
        .map(|c| {
            if c.is_static || t.partition.contains(&c.name) {
                format!("{owner}.{}", attr_name(&c.name))
            } else {
                attr_name(&c.name)
            }
        })
        .collect();
    p.entities.push(owner_e);
    p.entities.push(row_e);
    add_query(p, t, &rows, equality, returns);
}

fn project_of(schema: &Schema, messages: &mut Vec<Message>) -> Project {
    let ks = schema.keyspaces.first();
    let ks_name = ks
        .map(|k| k.name.clone())
        .or_else(|| schema.tables.iter().find_map(|t| t.keyspace.clone()))
        .unwrap_or_else(|| "app".into());
    if schema.keyspaces.is_empty() && !schema.tables.is_empty() {
        messages.push(Message {
            pos: schema
                .tables
                .first()
                .map_or(lex::Pos { line: 1, col: 1 }, |t| t.pos),
            level: Level::Warning,
            text: format!(
                "the schema creates no keyspace: the project's keyspace is {ks_name} with SimpleStrategy 3 (set it with :settings)"
            ),
        });
    }
    let mut p = Project::empty(&ks_name);
    p.keyspace = Keyspace {
        name: if naming::is_valid_schema_name(&ks_name) {
            ks_name.clone()
        } else {
            naming::schema_name(&ks_name, "app")
        },
        replication: ks.map_or(Replication::Simple(3), |k| k.replication.clone()),
        durable_writes: ks.is_none_or(|k| k.durable_writes),
    };
    // Types skipped here: what uses them is skipped too, or the project
    // would name a type it lacks and not load.
    let mut skipped: Vec<String> = Vec::new();
    for t in &schema.types {
        if p.types.iter().any(|x| x.name == t.name) {
            continue;
        }
        if let Some(text) = hostile_name("type", &t.name, t.fields.iter().map(|(n, _)| n)) {
            messages.push(Message {
                pos: t.pos,
                level: Level::Error,
                text,
            });
            skipped.push(t.name.clone());
            continue;
        }
        if let Some(u) = uses_skipped(&skipped, t.fields.iter().map(|(_, ty)| ty)) {
            messages.push(Message {
                pos: t.pos,
                level: Level::Error,
                text: format!(
                    "type {}: uses the type {}, which was not imported",
                    naming::for_terminal(&t.name),
                    naming::for_terminal(&u)
                ),
            });
            skipped.push(t.name.clone());
            continue;
        }
        p.types.push(UserType {
            name: t.name.clone(),
            fields: t
                .fields
                .iter()
                .map(|(n, ty)| Field {
                    name: n.clone(),
                    ty: ty.clone(),
                })
                .collect(),
        });
    }
    // Entities by natural key: the primary key's columns with their types
    // (counter tables apart: they may hold only counters).
    let mut keys: Vec<NaturalKey> = Vec::new();
    for t in &schema.tables {
        if t.view_of.is_some() {
            continue;
        }
        if !naming::is_valid_schema_name(&t.name) {
            messages.push(Message {
                pos: t.pos,
                level: Level::Error,
                text: format!("table name {} is not a valid name", t.name),
            });
            continue;
        }
        if let Some(text) = hostile_name("table", &t.name, t.columns.iter().map(|c| &c.name)) {
            messages.push(Message {
                pos: t.pos,
                level: Level::Error,
                text,
            });
            continue;
        }
        if let Some(u) = uses_skipped(&skipped, t.columns.iter().map(|c| &c.ty)) {
            messages.push(Message {
                pos: t.pos,
                level: Level::Error,
                text: format!(
                    "table {}: a column uses the type {}, which was not imported",
                    naming::for_terminal(&t.name),
                    naming::for_terminal(&u)
                ),
            });
            continue;
        }
        if !t.clustering.is_empty() && t.columns.iter().any(|c| c.is_static) {
            add_owned(&mut p, t);
            continue;
        }
        let mut natural: Vec<(String, String)> = t
            .partition
            .iter()
            .chain(t.clustering.iter().map(|(c, _)| c))
            .filter_map(|k| t.column(k).map(|c| (k.clone(), c.ty.to_string())))
            .collect();
        natural.sort();
        let counter = t.is_counter();
        // One entity only for tables holding the same thing: the same key
        // columns (in any partition/clustering split), the same columns,
        // every type agreeing. Tables that merely share key names (`id
        // uuid`) hold different rows; folding them would put one entity's
        // writes, hints and renames on tables that have nothing in common.
        let same_columns = |e: &Entity| {
            e.attributes.len() == t.columns.len()
                && t.columns.iter().all(|c| {
                    e.attributes
                        .iter()
                        .any(|a| a.name == attr_name(&c.name) && a.ty == c.ty)
                })
        };
        let found = keys
            .iter()
            .find(|(k, c, ei)| *k == natural && *c == counter && same_columns(&p.entities[*ei]))
            .map(|(_, _, ei)| *ei);
        if let Some(ei) = found {
            let first = first_table_of(&p, &p.entities[ei].name);
            messages.push(Message {
                pos: t.pos,
                level: Level::Note,
                text: format!(
                    "table {} holds the same rows as {}: same key columns, same columns and types; both read entity {}",
                    t.name,
                    first.as_deref().unwrap_or("an earlier table"),
                    p.entities[ei].name
                ),
            });
        }
        let ei = if let Some(ei) = found {
            ei
        } else {
            let base = entity_name(&t.name);
            let mut name = base.clone();
            let mut n = 2;
            while p.entity(&name).is_some() {
                name = format!("{base}{n}");
                n += 1;
            }
            p.entities.push(Entity {
                name,
                short: None,
                plural: None,
                owner: None,
                owners: vec![],
                unique: vec![],
                key: t
                    .partition
                    .iter()
                    .chain(t.clustering.iter().map(|(c, _)| c))
                    .map(|c| attr_name(c))
                    .collect(),
                attributes: vec![],
                count: None,
                per: None,
                retention_days: None,
                retention_unit: None,
                ttl: false,
                updates: None,
            });
            keys.push((natural, counter, p.entities.len() - 1));
            p.entities.len() - 1
        };
        let e = &mut p.entities[ei];
        for c in &t.columns {
            let a = attribute(&c.name, &c.ty);
            if !e.attributes.iter().any(|x| x.name == a.name) {
                e.attributes.push(a);
            }
        }
        let entity = e.name.clone();
        let equality = t.partition.iter().map(|c| attr_name(c)).collect();
        let returns = t.columns.iter().map(|c| attr_name(&c.name)).collect();
        add_query(&mut p, t, &entity, equality, returns);
    }
    add_views(&mut p, schema, messages);
    p.workflow.transitions.clear();
    // A schema using what only 5.0 has targets 5.0: storage-attached
    // indexes, the unified compaction strategy, memtable options.
    let needs_5 = p.decisions.iter().find_map(|d| {
        let o = &d.options;
        if o.indexes
            .values()
            .any(|i| i.kind == crate::model::physical::IndexKind::Sai)
        {
            Some("storage-attached indexes")
        } else if o
            .compaction
            .as_ref()
            .is_some_and(|c| c.strategy == crate::model::physical::Strategy::Unified)
        {
            Some("the unified compaction strategy")
        } else if o.other.contains_key("memtable") {
            Some("memtable options")
        } else {
            None
        }
    });
    if let Some(what) = needs_5 {
        p.cassandra = crate::model::physical::CassandraVersion::V5_0;
        messages.push(Message {
            pos: schema
                .tables
                .first()
                .map_or_else(Default::default, |t| t.pos),
            level: Level::Warning,
            text: format!("the schema uses {what}: the project targets Cassandra 5.0"),
        });
    }
    p
}

/// Each materialized view onto its base table's decision, as the schema
/// has it (a view is not a table the model derives: Cassandra writes it).
fn add_views(p: &mut Project, schema: &Schema, messages: &mut Vec<Message>) {
    use crate::model::physical::{MaterializedView, ViewOrder};
    for t in &schema.tables {
        let (Some(base), Some(text)) = (&t.view_of, &t.view) else {
            continue;
        };
        let view = MaterializedView {
            name: t.name.clone(),
            columns: text.select.clone(),
            filter: text.filter.clone(),
            partition: t.partition.clone(),
            clustering: t
                .clustering
                .iter()
                .map(|(c, d)| ViewOrder {
                    column: c.clone(),
                    dir: *d,
                })
                .collect(),
            options: text.options.clone(),
        };
        let problems = crate::model::physical::view_problems(&view);
        let decision = p
            .decisions
            .iter_mut()
            .find(|d| d.name.as_deref() == Some(base.as_str()));
        match (decision, problems.first()) {
            (Some(d), None) => {
                d.options.views.push(view);
                messages.push(Message {
                    pos: t.pos,
                    level: Level::Warning,
                    text: format!(
                        "materialized view {} of {base}: kept as a view; views are experimental and disabled by default since Cassandra 4.0 (materialized_views_enabled)",
                        t.name
                    ),
                });
            }
            (None, _) => messages.push(Message {
                pos: t.pos,
                level: Level::Error,
                text: format!(
                    "materialized view {}: its base table {base} was not imported",
                    t.name
                ),
            }),
            (_, Some((field, why))) => messages.push(Message {
                pos: t.pos,
                level: Level::Error,
                text: format!("materialized view {}: {field}: {why}", t.name),
            }),
        }
    }
}

/// A TTL in seconds as a span in the largest unit that holds it exactly
/// (86400 → 1d, 20 → 20s).
fn span_of_seconds(seconds: u64) -> crate::model::physical::Span {
    use crate::model::physical::{Span, SpanUnit};
    for (unit, size) in [
        (SpanUnit::Days, 86_400),
        (SpanUnit::Hours, 3_600),
        (SpanUnit::Minutes, 60),
    ] {
        if seconds.is_multiple_of(size) {
            return Span::new((seconds / size) as f64, unit);
        }
    }
    Span::new(seconds as f64, SpanUnit::Seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entity_names_are_singular_nouns() {
        assert_eq!(entity_name("videos_by_user"), "Video");
        assert_eq!(entity_name("user_activities"), "UserActivity");
        assert_eq!(entity_name("address"), "Address");
        assert_eq!(entity_name("2fa"), "Rows2fa");
    }
}
