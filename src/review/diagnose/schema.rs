//! What Cassandra refuses outright in the exported schema: the type rules of
//! CREATE TABLE and CREATE TYPE (duration in keys and sets, counters nested
//! or mixed with other columns), so `check` reports as an error what cqlsh
//! would reject, and queries that can only be answered by a full scan.

use super::{column_subject, Ctx, Diagnostic, Subject};
use crate::derive::{Role, Rule, Table};
use crate::model::{CqlType, Native, UserType};
use std::collections::HashSet;

/// The rule ids of this family whose errors make the CQL invalid; the
/// workbench refuses an edit that would introduce one.
pub const INVALID_CQL: &[&str] = &[
    "duration-key",
    "duration-in-set",
    "counter-nested",
    "counter-merge",
];

/// What the type rules need to know of the project's types: which UDTs
/// hold a duration, through other UDTs' fields too.
pub(super) struct Types<'a> {
    with_duration: HashSet<&'a str>,
}

impl<'a> Types<'a> {
    pub(super) fn new(types: &'a [UserType]) -> Self {
        // Passes over the types until one adds nothing: a UDT holds a
        // duration when a field does, directly or through a UDT found to
        // (a type nested N deep is found within N passes; cycles, refused
        // at load, add nothing). Each type is read once a pass, so deep or
        // wide nesting costs no more than the types' count squared.
        let mut with_duration = HashSet::new();
        loop {
            let before = with_duration.len();
            for t in types {
                if t.fields
                    .iter()
                    .any(|f| holds_duration(&f.ty, &with_duration))
                {
                    with_duration.insert(t.name.as_str());
                }
            }
            if with_duration.len() == before {
                return Types { with_duration };
            }
        }
    }

    /// Whether a value of `ty` holds a duration anywhere, UDT fields
    /// included.
    fn references_duration(&self, ty: &CqlType) -> bool {
        holds_duration(ty, &self.with_duration)
    }

    /// A set whose elements, or a map whose keys, hold a duration: Cassandra
    /// cannot compare durations, so it cannot order them. Looks inside
    /// nested collections and tuples; a UDT's own fields are checked with
    /// the type itself, but a UDT holding a duration as a set element or
    /// map key counts.
    fn duration_ordered(&self, ty: &CqlType) -> bool {
        let deeper = |t: &CqlType| self.duration_ordered(t);
        match ty {
            CqlType::Native(_) | CqlType::Udt(_) => false,
            CqlType::Set(t) => self.references_duration(t) || deeper(t),
            CqlType::Map(k, v) => self.references_duration(k) || deeper(k) || deeper(v),
            CqlType::List(t) | CqlType::Frozen(t) | CqlType::Vector(t, _) => deeper(t),
            CqlType::Tuple(ts) => ts.iter().any(deeper),
        }
    }
}

/// Whether `ty` holds a duration, given the UDTs known to.
fn holds_duration(ty: &CqlType, udts: &HashSet<&str>) -> bool {
    let deeper = |t: &CqlType| holds_duration(t, udts);
    match ty {
        CqlType::Native(n) => *n == Native::Duration,
        CqlType::List(t) | CqlType::Set(t) | CqlType::Frozen(t) | CqlType::Vector(t, _) => {
            deeper(t)
        }
        CqlType::Map(k, v) => deeper(k) || deeper(v),
        CqlType::Tuple(ts) => ts.iter().any(deeper),
        CqlType::Udt(name) => udts.contains(name.as_str()),
    }
}

/// A counter below the top level of a type: inside a collection, tuple,
/// vector or frozen value.
fn nested_counter(ty: &CqlType) -> bool {
    fn inside(ty: &CqlType) -> bool {
        match ty {
            CqlType::Native(n) => *n == Native::Counter,
            CqlType::List(t) | CqlType::Set(t) | CqlType::Frozen(t) | CqlType::Vector(t, _) => {
                inside(t)
            }
            CqlType::Map(k, v) => inside(k) || inside(v),
            CqlType::Tuple(ts) => ts.iter().any(inside),
            // A UDT cannot hold a counter; load refuses that.
            CqlType::Udt(_) => false,
        }
    }
    match ty {
        CqlType::Native(_) | CqlType::Udt(_) => false,
        other => inside(other),
    }
}

/// The findings about user-defined types.
pub(super) fn types(ctx: &Ctx, types: &Types, out: &mut Vec<Diagnostic>) {
    for (i, u) in ctx.project.types.iter().enumerate() {
        for (j, f) in u.fields.iter().enumerate() {
            let subject = || Subject::Path(format!("types[{i}].fields[{j}]"));
            type_rules(ctx, types, &f.ty, (&u.name, &f.name), subject, out);
        }
    }
}

/// The type findings about table `i` alone.
pub(super) fn table(ctx: &Ctx, types: &Types, i: usize, out: &mut Vec<Diagnostic>) {
    if let Some(t) = ctx.model.tables.get(i) {
        for c in &t.columns {
            let subject = || column_subject(t, &c.name);
            type_rules(ctx, types, &c.ty, (&t.name, &c.name), subject, out);
            if c.role.is_key() && types.references_duration(&c.ty) {
                out.push(ctx.diag(
                    "duration-key",
                    subject(),
                    format!(
                        "{}.{} is a {} key column holding a duration; Cassandra refuses the table (durations cannot be compared, so they cannot be keys).",
                        t.name,
                        c.name,
                        if c.role == Role::Partition { "partition" } else { "clustering" }
                    ),
                    "Key the table by another attribute and keep the duration a regular column (or store it as a bigint of nanoseconds).".into(),
                ));
            }
        }
        counter_merge(ctx, t, out);
    }
}

fn type_rules(
    ctx: &Ctx,
    types: &Types,
    ty: &CqlType,
    // Owner and name, written only into a finding: most columns have none.
    (owner, name): (&str, &str),
    subject: impl Fn() -> Subject,
    out: &mut Vec<Diagnostic>,
) {
    if nested_counter(ty) {
        out.push(ctx.diag(
            "counter-nested",
            subject(),
            format!("{owner}.{name} has type {ty}: a counter cannot be an element of a collection, tuple or vector; Cassandra refuses it."),
            "Make the counter a column of its own in a counter table.".into(),
        ));
    }
    if types.duration_ordered(ty) {
        out.push(ctx.diag(
            "duration-in-set",
            subject(),
            format!("{owner}.{name} has type {ty}: a set of durations or a map keyed by duration needs durations ordered, which Cassandra cannot do; it refuses the type."),
            "Use a list of durations, or a map keyed by something else.".into(),
        ));
    }
}

/// A counter table holds nothing but counters outside its key. The
/// derivation leaves other columns out of a counter table it derives, but
/// a query merged into it (`served_by`) brings its returned columns along.
fn counter_merge(ctx: &Ctx, t: &Table, out: &mut Vec<Diagnostic>) {
    if !t.is_counter_table() {
        return;
    }
    let mixed: Vec<&crate::derive::Column> = t
        .columns
        .iter()
        .filter(|c| !c.role.is_key() && !c.ty.is_counter())
        .collect();
    if mixed.is_empty() {
        return;
    }
    let names: Vec<&str> = mixed.iter().map(|c| c.name.as_str()).collect();
    let mut merged: Vec<&str> = mixed
        .iter()
        .filter(|c| c.rule == Rule::Merged)
        .map(|c| c.query.as_str())
        .collect();
    merged.sort_unstable();
    merged.dedup();
    let how = if merged.is_empty() {
        String::new()
    } else {
        format!(" ({} served by it brings them)", merged.join(", "))
    };
    out.push(ctx.diag(
        "counter-merge",
        Subject::Table(t.name.clone()),
        format!(
            "{} is a counter table but holds the non-counter columns {}{how}; Cassandra refuses a table that mixes counters with other columns.",
            t.name,
            names.join(", ")
        ),
        "Serve the query from a table of its own (remove served_by), and read the counter table beside it.".into(),
    ));
}

/// A query with no equality search restricts no partition key: whatever
/// table serves it, the SELECT reads every partition of the cluster.
/// Whether `plan`'s SELECT restricts every partition key column of `t`:
/// by the search or a constant, or computed by the application.
fn names_partition_key(plan: &crate::derive::Plan, t: &crate::derive::Table) -> bool {
    let Some(r) = &plan.request else {
        return false;
    };
    t.partition_key()
        .all(|c| r.eq.contains(&c.name) || plan.computed.contains(&c.name))
}

pub(super) fn full_scans(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    for q in &ctx.project.queries {
        if !q.equality.is_empty() {
            continue;
        }
        let plan = ctx.model.plan(&q.id);
        let found = plan
            .and_then(|p| p.table)
            .and_then(|t| ctx.model.tables.get(t));
        // One partition by design: the SELECT names every partition key
        // column (a constant, or a bucket or shard the application
        // computes). Its size and heat are the partition rules' to judge.
        if let (Some(p), Some(t)) = (plan, found) {
            if names_partition_key(p, t) {
                continue;
            }
        }
        let table = found.map(|t| format!(" of {}", t.name)).unwrap_or_default();
        out.push(ctx.diag(
            "full-scan",
            Subject::Query(q.id.as_str().into()),
            format!(
                "{} searches no attribute by equality, so it reads every partition{table}: a full scan that touches every node and slows down as the data grows.",
                q.id
            ),
            "Add the attribute the application knows when it runs the query as an equality search (a user, a day bucket), so one partition answers.".into(),
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(s: &str) -> CqlType {
        s.parse().expect("type")
    }

    #[test]
    fn counters_nested_anywhere_are_found() {
        assert!(nested_counter(&ty("list<counter>")));
        assert!(nested_counter(&ty("map<text, counter>")));
        assert!(nested_counter(&ty("tuple<int, counter>")));
        assert!(!nested_counter(&ty("counter")));
        assert!(!nested_counter(&ty("list<int>")));
    }

    /// `t0` holds `t1` twice, … `t39` holds the bottom type, listed top
    /// first: a duration is found however deep, and the two fields a level
    /// do not double the work (the search used to stop at 32 levels, after
    /// 2^32 steps).
    #[test]
    fn a_duration_deep_in_nested_types_is_found() {
        let field = |name: &str, t: &str| crate::model::Field {
            name: name.into(),
            ty: ty(t),
        };
        let chain = |bottom: &str| -> Vec<UserType> {
            (0..40)
                .map(|i| UserType {
                    name: format!("t{i}"),
                    fields: if i == 39 {
                        vec![field("d", bottom)]
                    } else {
                        let next = format!("frozen<t{}>", i + 1);
                        vec![field("a", &next), field("b", &next)]
                    },
                })
                .collect()
        };
        let with = chain("duration");
        let types = Types::new(&with);
        assert!(types.references_duration(&ty("frozen<t0>")));
        assert!(types.duration_ordered(&ty("set<frozen<t0>>")));
        let without = chain("int");
        let types = Types::new(&without);
        assert!(!types.references_duration(&ty("frozen<t0>")));
        assert!(!types.duration_ordered(&ty("set<frozen<t0>>")));
    }

    #[test]
    fn durations_in_sets_and_map_keys_are_found() {
        let udt = UserType {
            name: "span".into(),
            fields: vec![crate::model::Field {
                name: "d".into(),
                ty: ty("duration"),
            }],
        };
        let list = [udt];
        let types = Types::new(&list);
        assert!(types.duration_ordered(&ty("set<duration>")));
        assert!(types.duration_ordered(&ty("map<duration, int>")));
        assert!(types.duration_ordered(&ty("list<frozen<set<duration>>>")));
        assert!(types.duration_ordered(&ty("set<frozen<span>>")));
        assert!(!types.duration_ordered(&ty("map<int, duration>")));
        assert!(!types.duration_ordered(&ty("list<duration>")));
        assert!(types.references_duration(&ty("frozen<span>")));
        assert!(types.references_duration(&ty("tuple<int, duration>")));
        assert!(!types.references_duration(&ty("tuple<int, text>")));
    }
}
