//! CQL export: a script cqlsh `SOURCE` accepts (Cassandra 4 and 5), laid
//! out like `DESCRIBE`, deterministic so exports diff cleanly. Everything
//! taken from the project is quoted or escaped; SELECTs with `?` markers go
//! in comments because they are not cqlsh input.

use crate::derive::{Column, LogicalModel, Plan, Role, Table};
use crate::model::naming::{is_plain_identifier, quote, string_literal};
use crate::model::physical::MaterializedView;
use crate::model::terminal_text::{is_unsafe, pad_end};
use crate::model::{CqlType, Project, Replication, UserType};
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Text safe inside a `--` comment or a string literal: one line, no
/// control or bidirectional characters.
pub(crate) fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if is_unsafe(c) { ' ' } else { c })
        .collect::<String>()
        .trim()
        .to_string()
}

fn ks(project: &Project) -> String {
    quote(&project.keyspace.name)
}

pub fn keyspace(project: &Project) -> String {
    let repl = match &project.keyspace.replication {
        Replication::Simple(f) => {
            format!("{{'class': 'SimpleStrategy', 'replication_factor': {f}}}")
        }
        Replication::NetworkTopology(dcs) => {
            let mut s = String::from("{'class': 'NetworkTopologyStrategy'");
            for (dc, f) in dcs {
                let _ = write!(s, ", {}: {f}", string_literal(&one_line(dc)));
            }
            s.push('}');
            s
        }
    };
    format!(
        "CREATE KEYSPACE IF NOT EXISTS {}\n    WITH replication = {repl}\n    AND durable_writes = {};\n",
        ks(project),
        project.keyspace.durable_writes
    )
}

/// A column's type as the export writes it: collections frozen in keys,
/// a UDT frozen unless the table keeps that column non-frozen
/// (`options.non_frozen`, as imported) and the type allows it (Cassandra
/// refuses a non-frozen UDT holding a non-frozen collection). `diff`,
/// `migrate` and `check --against` compare columns by it.
pub(crate) fn column_cql_type(project: &Project, t: &Table, c: &Column) -> CqlType {
    let key = c.role.is_key();
    let keep_bare = |name: &str| {
        !key && t
            .physical
            .options
            .non_frozen
            .iter()
            .any(|n| n == c.name.as_str())
            && project
                .types
                .iter()
                .find(|u| u.name == name)
                .is_none_or(|u| !u.fields.iter().any(|f| f.ty.is_collection()))
    };
    match &c.ty {
        CqlType::Udt(name) if keep_bare(name) => c.ty.clone(),
        CqlType::Udt(_) => c.ty.frozen(),
        ty if key => ty.frozen(),
        ty => ty.clone(),
    }
}

/// User types in dependency order (a type after the types it uses), each
/// group alphabetical for stable output. Depth-first with an explicit stack:
/// a chain of nested types may be deeper than recursion should go, and no
/// depth limit may cut it (a cut type would come after its users).
pub fn types_in_order(project: &Project) -> Vec<&UserType> {
    let by_name: HashMap<&str, &UserType> =
        project.types.iter().map(|t| (t.name.as_str(), t)).collect();
    let mut done: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    let mut names: Vec<&str> = project.types.iter().map(|t| t.name.as_str()).collect();
    names.sort_unstable();
    // (type, its dependencies are already on the stack above it)
    let mut stack: Vec<(&UserType, bool)> = Vec::new();
    for n in names {
        let Some(&t) = by_name.get(n) else { continue };
        stack.push((t, false));
        while let Some((t, expanded)) = stack.pop() {
            if expanded {
                out.push(t);
                continue;
            }
            // Marked when expanded, as a recursive visit would: a cycle
            // stops here, and a type reached twice is placed once.
            if !done.insert(t.name.as_str()) {
                continue;
            }
            stack.push((t, true));
            let mut deps = Vec::new();
            for f in &t.fields {
                f.ty.udts(&mut deps);
            }
            deps.sort();
            // Reversed, so the alphabetically first dependency comes out first.
            for d in deps.iter().rev() {
                if let Some(&dt) = by_name.get(d.as_str()) {
                    if !done.contains(dt.name.as_str()) {
                        stack.push((dt, false));
                    }
                }
            }
        }
    }
    out
}

pub(crate) fn user_type(project: &Project, t: &UserType) -> String {
    let width = t
        .fields
        .iter()
        .map(|f| quote(&f.name).len())
        .max()
        .unwrap_or(0);
    let mut s = format!(
        "CREATE TYPE IF NOT EXISTS {}.{} (\n",
        ks(project),
        quote(&t.name)
    );
    for (i, f) in t.fields.iter().enumerate() {
        let sep = if i + 1 < t.fields.len() { "," } else { "" };
        let ty = match &f.ty {
            CqlType::Udt(_) => f.ty.frozen(),
            other => other.clone(),
        };
        let _ = writeln!(
            s,
            "    {} {}{sep}",
            pad_end(&quote(&f.name), width),
            ty.to_cql(&|n| quote(n))
        );
    }
    s.push_str(");\n");
    s
}

fn primary_key(t: &Table) -> String {
    let pk: Vec<String> = t.partition_key().map(|c| quote(&c.name)).collect();
    let ck: Vec<String> = t.clustering().map(|c| quote(&c.name)).collect();
    let part = if pk.len() == 1 {
        pk[0].clone()
    } else {
        format!("({})", pk.join(", "))
    };
    if ck.is_empty() {
        format!("PRIMARY KEY ({part})")
    } else {
        format!("PRIMARY KEY ({part}, {})", ck.join(", "))
    }
}

fn queries_comment(project: &Project, t: &Table) -> String {
    let parts: Vec<String> = t
        .queries
        .iter()
        .map(|id| match project.query(id) {
            Some(q) => format!("{}. {}", one_line(&q.id), one_line(&q.text)),
            None => one_line(id),
        })
        .collect();
    parts.join("; ")
}

/// The table's `comment` option as a CQL string literal: the queries it
/// answers, then the designer's own comment.
pub(crate) fn table_comment(project: &Project, t: &Table) -> String {
    let mut comment = queries_comment(project, t);
    if let Some(own) = &t.physical.options.comment {
        comment = if comment.is_empty() {
            one_line(own)
        } else {
            format!("{comment} | {}", one_line(own))
        };
    }
    string_literal(&comment)
}

/// The CREATE TABLE (and CREATE INDEX) statements of one table.
pub fn table(project: &Project, t: &Table) -> String {
    let mut s = String::new();
    for id in &t.queries {
        if let Some(q) = project.query(id) {
            let _ = writeln!(s, "-- {}. {}", one_line(&q.id), one_line(&q.text));
        }
    }
    if !t.dropped.is_empty() {
        let _ = writeln!(
            s,
            "-- left out (a counter table holds only counters): {}",
            one_line(&t.dropped.join(", "))
        );
    }
    for c in &t.columns {
        if let Some(how) = c.source.computation() {
            let _ = writeln!(
                s,
                "-- {} is computed: {}",
                one_line(&c.name),
                one_line(&how)
            );
        }
    }
    if crate::derive::summary::updated_by_application(t) {
        let _ = writeln!(
            s,
            "-- aggregates the application or a job updates (no counter can keep them)"
        );
    } else if t
        .columns
        .iter()
        .any(|c| c.rule == crate::derive::Rule::Aggregate)
    {
        let _ = writeln!(
            s,
            "-- counters: the application increments them on every insert"
        );
    }
    // The query's constants say which rows the aggregates take in.
    if let Some(filter) = t.columns.iter().find_map(|c| match c.why.as_deref() {
        Some(crate::derive::Why::CountedOnly { filter }) => Some(filter),
        _ => None,
    }) {
        let _ = writeln!(s, "-- only rows where {}", one_line(filter));
    }
    for (what, origin, why) in [
        (
            "compaction",
            t.physical.compaction.origin,
            &t.physical.compaction.why,
        ),
        (
            "gc_grace",
            t.physical.gc_grace.origin,
            &t.physical.gc_grace.why,
        ),
    ] {
        if origin != crate::derive::Origin::Default {
            let _ = writeln!(s, "-- {what}: {}", one_line(why));
        }
    }
    let width = t
        .columns
        .iter()
        .map(|c| quote(&c.name).len())
        .max()
        .unwrap_or(0);
    let _ = writeln!(
        s,
        "CREATE TABLE IF NOT EXISTS {}.{} (",
        ks(project),
        quote(&t.name)
    );
    for c in &t.columns {
        let ty = column_cql_type(project, t, c).to_cql(&|n| quote(n));
        let stat = if c.role == Role::Static {
            " STATIC"
        } else {
            ""
        };
        let _ = writeln!(s, "    {} {ty}{stat},", pad_end(&quote(&c.name), width));
    }
    let _ = writeln!(s, "    {}", primary_key(t));
    s.push(')');
    let mut options: Vec<String> = Vec::new();
    let clustering: Vec<String> = t
        .columns
        .iter()
        .filter_map(|c| match c.role {
            Role::Clustering(d) => Some(format!("{} {}", quote(&c.name), d.cql())),
            _ => None,
        })
        .collect();
    if !clustering.is_empty() {
        options.push(format!("CLUSTERING ORDER BY ({})", clustering.join(", ")));
    }
    options.push(format!("comment = {}", table_comment(project, t)));
    options.extend(
        table_options(t)
            .into_iter()
            .map(|(k, v)| format!("{k} = {v}")),
    );
    for (i, o) in options.iter().enumerate() {
        if i == 0 {
            let _ = write!(s, " WITH {o}");
        } else {
            let _ = write!(s, "\n    AND {o}");
        }
    }
    s.push_str(";\n");
    for ix in &t.indexes {
        if let Some(statement) = index_statement(project, t, ix) {
            s.push_str(&statement);
        }
    }
    s
}

/// The name an index on `column` of `t` has: the designer's or the
/// imported one, else one made from the table and column.
pub(crate) fn index_name_of(t: &Table, column: &str) -> String {
    match t
        .physical
        .options
        .indexes
        .get(column)
        .and_then(|s| s.name.as_deref())
    {
        Some(n) => quote(n),
        None => index_name(&t.name, column),
    }
}

/// The statement that creates the index on `column` of `t`, with its
/// name, kind, target and options (a comment where none can be made).
pub(crate) fn index_statement(project: &Project, t: &Table, column: &str) -> Option<String> {
    let c = t.column(column)?;
    if t.partition_key().count() == 1 && c.role == Role::Partition {
        return Some(format!(
            "-- no index on {}: it is the whole partition key\n",
            one_line(&c.name)
        ));
    }
    let spec = t.physical.options.indexes.get(column);
    let target = match (spec.and_then(|s| s.target.as_deref()), &c.ty) {
        (Some(f @ ("keys" | "values" | "entries" | "full")), _) => {
            format!("{f}({})", quote(&c.name))
        }
        (_, CqlType::Frozen(_)) => format!("full({})", quote(&c.name)),
        _ => quote(&c.name),
    };
    let name = index_name_of(t, column);
    let on = format!("{}.{}", ks(project), quote(&t.name));
    let class = spec.and_then(|s| s.kind.class());
    let mut out = match class {
        None => format!("CREATE INDEX IF NOT EXISTS {name} ON {on} ({target})"),
        Some(class) if !class.contains('\'') => format!(
            "CREATE CUSTOM INDEX IF NOT EXISTS {name} ON {on} ({target}) USING {}",
            string_literal(class)
        ),
        Some(_) => return None,
    };
    let options: Vec<String> = spec
        .map(|s| {
            s.options
                .iter()
                .filter(|(k, v)| {
                    !k.contains('\'')
                        && !v.contains('\'')
                        && !k.chars().chain(v.chars()).any(is_unsafe)
                })
                .map(|(k, v)| format!("'{k}': '{v}'"))
                .collect()
        })
        .unwrap_or_default();
    if class.is_some() && !options.is_empty() {
        let _ = write!(out, " WITH OPTIONS = {{{}}}", options.join(", "));
    }
    out.push_str(";\n");
    Some(out)
}

/// The table's options after its clustering order and comment, as
/// `(name, CQL value)`: the TTL, compaction, `gc_grace` and the designer's
/// others. Values were validated with the project
/// (`model::physical::problems`); anything that is not a safe CQL constant
/// is left out here too, so a file edited past validation cannot inject
/// text. `diff` and `migrate` compare tables by these.
pub(crate) fn table_options(t: &Table) -> Vec<(String, String)> {
    use crate::model::physical::is_cql_term;
    let map = |pairs: &mut dyn Iterator<Item = (&str, &str)>| -> Option<String> {
        let mut parts = Vec::new();
        for (k, v) in pairs {
            if k.contains('\'') || v.contains('\'') || k.chars().chain(v.chars()).any(is_unsafe) {
                return None;
            }
            parts.push(format!("'{k}': '{v}'"));
        }
        Some(format!("{{{}}}", parts.join(", ")))
    };
    let p = &t.physical;
    let mut out: Vec<(String, String)> = Vec::new();
    let mut push = |k: &str, v: String| out.push((k.to_string(), v));
    if let Some(ttl) = t.ttl_seconds {
        if !t.is_counter_table() {
            push("default_time_to_live", ttl.to_string());
        }
    }
    if let Some(c) = &p.compaction.value {
        let class = c.strategy.class();
        let mut pairs = std::iter::once(("class", class))
            .chain(c.options.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        if let Some(m) = map(&mut pairs) {
            push("compaction", m);
        }
    }
    if let Some(g) = p.gc_grace.value {
        push("gc_grace_seconds", g.to_string());
    }
    let o = &p.options;
    for (name, value) in [("caching", &o.caching), ("compression", &o.compression)] {
        if let Some(m) = value
            .as_ref()
            .and_then(|m| map(&mut m.iter().map(|(k, v)| (k.as_str(), v.as_str()))))
        {
            push(name, m);
        }
    }
    if let Some(b) = o.bloom_filter_fp_chance.filter(|b| *b > 0.0 && *b <= 1.0) {
        push("bloom_filter_fp_chance", b.to_string());
    }
    if let Some(r) = &o.speculative_retry {
        if is_cql_term(&string_literal(r)) {
            push("speculative_retry", string_literal(r));
        }
    }
    if let Some(c) = o.cdc {
        push("cdc", c.to_string());
    }
    for (k, v) in &o.other {
        let set_elsewhere = matches!(k.as_str(), "default_time_to_live" | "gc_grace_seconds");
        if !set_elsewhere && is_plain_identifier(k) && is_cql_term(v) {
            push(k, v.trim().to_string());
        }
    }
    out
}

/// A valid, stable index name: `[a-z0-9_]`, table and column.
pub(crate) fn index_name(table: &str, column: &str) -> String {
    let col = crate::model::naming::snake_case(column);
    let raw = format!("{table}_{col}_idx");
    let name = crate::model::naming::schema_name(&raw, "idx");
    if is_plain_identifier(&name) {
        name
    } else {
        format!("idx_{}", crate::model::naming::schema_name(&col, "c"))
    }
}

fn plan_comment(plan: &Plan) -> String {
    let mut s = format!("-- {}: {}", one_line(&plan.query), one_line(&plan.select));
    if let Some(why) = plan.access.reason() {
        let _ = write!(s, "\n--   ({}: {})", plan.access.label(), one_line(why));
    }
    s.push('\n');
    s
}

/// The whole schema: keyspace, types, tables, indexes, and each query's
/// SELECT as a comment after the table that serves it.
pub fn script(project: &Project, model: &LogicalModel) -> String {
    let mut s = format!(
        "-- {}: schema exported by cqlmodel (project format {})\n-- Load with cqlsh: SOURCE 'this-file.cql'\n\n",
        one_line(&project.name),
        project.format
    );
    s.push_str(&keyspace(project));
    for t in types_in_order(project) {
        s.push('\n');
        s.push_str(&user_type(project, t));
    }
    for (i, t) in model.tables.iter().enumerate() {
        s.push('\n');
        s.push_str(&table(project, t));
        for p in model.plans.iter().filter(|p| p.table == Some(i)) {
            s.push_str(&plan_comment(p));
        }
        for v in &t.physical.options.views {
            s.push('\n');
            s.push_str(&view_statement(project, &t.name, v));
        }
    }
    s
}

/// `CREATE MATERIALIZED VIEW` for a view over `base`, with the caveat; a
/// comment instead when the project's text for it is not plain CQL
/// (validation says why).
pub fn view_statement(project: &Project, base: &str, v: &MaterializedView) -> String {
    use crate::model::physical::{is_cql_term, view_problems};
    if let Some((field, why)) = view_problems(v).first() {
        return format!(
            "-- materialized view {} left out: {}: {}\n",
            one_line(&v.name),
            one_line(field),
            one_line(why)
        );
    }
    let mut s = format!(
        "-- materialized view of {}: experimental, disabled by default since Cassandra 4.0 (materialized_views_enabled in cassandra.yaml)\n",
        one_line(base)
    );
    let select = if v.columns.is_empty() {
        "*".to_string()
    } else {
        v.columns
            .iter()
            .map(|c| quote(c))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let partition = v
        .partition
        .iter()
        .map(|c| quote(c))
        .collect::<Vec<_>>()
        .join(", ");
    let mut key = if v.partition.len() > 1 {
        format!("({partition})")
    } else {
        partition
    };
    for c in &v.clustering {
        let _ = write!(key, ", {}", quote(&c.column));
    }
    let _ = write!(
        s,
        "CREATE MATERIALIZED VIEW IF NOT EXISTS {}.{} AS\n    SELECT {select} FROM {}.{}\n    WHERE {}\n    PRIMARY KEY ({key})",
        ks(project),
        quote(&v.name),
        ks(project),
        quote(base),
        v.filter.trim()
    );
    let mut with: Vec<String> = Vec::new();
    if !v.clustering.is_empty() {
        with.push(format!(
            "CLUSTERING ORDER BY ({})",
            v.clustering
                .iter()
                .map(|c| format!("{} {}", quote(&c.column), c.dir.cql()))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    with.extend(
        v.options
            .iter()
            .filter(|(k, value)| is_plain_identifier(k) && is_cql_term(value))
            .map(|(k, value)| format!("{k} = {}", value.trim())),
    );
    for (i, w) in with.iter().enumerate() {
        let _ = write!(s, "\n    {} {w}", if i == 0 { "WITH" } else { "AND" });
    }
    s.push_str(";\n");
    s
}

/// The SELECTs alone, one per query, for application code.
pub fn selects(model: &LogicalModel) -> String {
    let mut s = String::new();
    for p in &model.plans {
        let _ = writeln!(s, "-- {}", one_line(&p.query));
        if p.select.is_empty() {
            let _ = writeln!(s, "-- (no table serves this query)");
        } else {
            let _ = writeln!(s, "{}", p.select);
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_strips_newlines_and_escapes() {
        assert_eq!(one_line("a\nb\x1b[0m"), "a b [0m");
    }

    #[test]
    fn index_names_are_valid() {
        assert_eq!(index_name("t", "Weird Name"), "t_weird_name_idx");
        assert!(crate::model::naming::is_valid_schema_name(&index_name(
            &"x".repeat(60),
            "y"
        )));
    }
}
