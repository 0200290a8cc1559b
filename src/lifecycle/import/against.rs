//! `cqlmodel check FILE --against SCHEMA.cql`: drift between the model and
//! the schema that runs. For each query, the table the model derives for it
//! is looked for in the schema: the same table (same name or same partition
//! key) answers it directly; a table holding the columns answers it only
//! through a secondary index or ALLOW FILTERING; otherwise nothing does.

use super::schema::{Schema, TableDef};
use crate::analysis::Analysis;
use crate::derive::serve::access;
use crate::derive::{Access, KeyShape, Plan, Role, Table};
use crate::model::Project;
use serde::Serialize;
use std::fmt::Write;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Answer {
    Directly,
    WithIndex,
    AllowFiltering,
    NotAtAll,
}

impl Answer {
    pub fn label(self) -> &'static str {
        match self {
            Answer::Directly => "answered directly",
            Answer::WithIndex => "answered only through a secondary index",
            Answer::AllowFiltering => "answered only with ALLOW FILTERING",
            Answer::NotAtAll => "not answered",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct QueryFit {
    pub query: String,
    /// The table the model derives for the query.
    pub model_table: Option<String>,
    pub answer: Answer,
    /// The schema table that answers (best), if any.
    pub schema_table: Option<String>,
    /// What is missing or differs.
    pub differences: Vec<String>,
    /// The schema no longer answers the query as the model's table does:
    /// the application's SELECT fails or needs what it did not.
    pub breaks: bool,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Drift {
    pub queries: Vec<QueryFit>,
    /// Schema tables no query of the model uses.
    pub unused_tables: Vec<String>,
    /// How the materialized views differ: missing, extra or changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub views: Vec<String>,
}

/// A view's filter compared without case or spacing differences.
fn normal(filter: &str) -> String {
    filter
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_ascii_lowercase()
}

/// Every difference between the model's materialized views and the
/// schema's, by view name.
fn view_drift(model: &crate::derive::LogicalModel, schema: &Schema) -> Vec<String> {
    let mut out = Vec::new();
    let live: Vec<&TableDef> = schema
        .tables
        .iter()
        .filter(|t| t.view_of.is_some())
        .collect();
    let mut seen = Vec::new();
    for t in &model.tables {
        for v in &t.physical.options.views {
            seen.push(v.name.as_str());
            let Some(l) = live.iter().find(|l| l.name == v.name) else {
                out.push(format!("view {} (over {}) is missing", v.name, t.name));
                continue;
            };
            let text = l.view.clone().unwrap_or_default();
            let clustering: Vec<(String, crate::model::Dir)> = v
                .clustering
                .iter()
                .map(|c| (c.column.clone(), c.dir))
                .collect();
            let mut what = Vec::new();
            if l.view_of.as_deref() != Some(t.name.as_str()) {
                what.push(format!(
                    "its base is {} in the schema",
                    l.view_of.as_deref().unwrap_or("?")
                ));
            }
            if l.partition != v.partition || l.clustering != clustering {
                what.push("its primary key or clustering order differs".to_string());
            }
            if text.select != v.columns {
                what.push("it selects other columns".to_string());
            }
            if normal(&text.filter) != normal(&v.filter) {
                what.push(format!("its WHERE is \"{}\" in the schema", text.filter));
            }
            if text.options != v.options {
                what.push("its options differ".to_string());
            }
            if !what.is_empty() {
                out.push(format!("view {}: {}", v.name, what.join("; ")));
            }
        }
    }
    for l in live {
        if !seen.contains(&l.name.as_str()) {
            out.push(format!(
                "view {} (over {}) is in the schema but not in the model",
                l.name,
                l.view_of.as_deref().unwrap_or("?")
            ));
        }
    }
    out
}

fn partition(t: &Table) -> Vec<&str> {
    t.partition_key().map(|c| c.name.as_str()).collect()
}

fn clustering(t: &Table) -> Vec<(String, crate::model::Dir)> {
    t.columns
        .iter()
        .filter_map(|c| match c.role {
            Role::Clustering(d) => Some((c.name.to_string(), d)),
            _ => None,
        })
        .collect()
}

/// What differs between the model's table and a schema table.
fn differences(project: &Project, t: &Table, s: &TableDef) -> Vec<String> {
    let mut out = Vec::new();
    let mut sp: Vec<&str> = s.partition.iter().map(String::as_str).collect();
    let mut tp = partition(t);
    if sp != tp {
        out.push(format!(
            "partition key is ({}) in the schema, ({}) in the model",
            sp.join(", "),
            tp.join(", ")
        ));
    }
    sp.sort_unstable();
    tp.sort_unstable();
    let tc = clustering(t);
    if s.clustering != tc {
        let show = |c: &[(String, crate::model::Dir)]| {
            c.iter()
                .map(|(n, d)| format!("{n} {}", d.cql()))
                .collect::<Vec<_>>()
                .join(", ")
        };
        out.push(format!(
            "clustering is ({}) in the schema, ({}) in the model",
            show(&s.clustering),
            show(&tc)
        ));
    }
    for c in &t.columns {
        match s.column(&c.name) {
            None => out.push(format!("column {} ({}) is missing", c.name, c.ty)),
            Some(sc) if sc.ty != crate::output::cql::column_cql_type(project, t, c) => {
                out.push(format!(
                    "column {} is {} in the schema, {} in the model",
                    c.name,
                    sc.ty,
                    crate::output::cql::column_cql_type(project, t, c)
                ));
            }
            Some(sc) if sc.is_static != (c.role == Role::Static) => out.push(format!(
                "column {} is {}static in the schema",
                c.name,
                if sc.is_static { "" } else { "not " }
            )),
            _ => {}
        }
    }
    for sc in &s.columns {
        if t.column(&sc.name).is_none() {
            out.push(format!(
                "column {} ({}) is in the schema but not in the model",
                sc.name, sc.ty
            ));
        }
    }
    out
}

/// The schema table's key and columns as the serving rules read them;
/// the columns the application computes are the model's.
fn shape_of(s: &TableDef, model: &Table) -> KeyShape {
    KeyShape {
        partition: s.partition.iter().map(|c| c.as_str().into()).collect(),
        clustering: s
            .clustering
            .iter()
            .map(|(c, d)| (c.as_str().into(), *d))
            .collect(),
        indexes: s.indexes.clone(),
        columns: s.columns.iter().map(|c| c.name.as_str().into()).collect(),
        computed: KeyShape::of(model)
            .computed
            .into_iter()
            .filter(|c| s.column(c).is_some())
            .collect(),
    }
}

/// How the schema table answers the model's query, by Cassandra's own
/// restriction rules on the SELECT the model writes.
fn answer_of(plan: &Plan, s: &TableDef, model: &Table) -> Option<(Answer, Option<String>)> {
    let req = plan.request.as_ref()?;
    let (how, _) = access(&shape_of(s, model), req);
    Some(match how {
        Access::Direct => (Answer::Directly, None),
        Access::Index(_) => (Answer::WithIndex, None),
        Access::Filtering(why) => (Answer::AllowFiltering, Some(why)),
        Access::Impossible(why) => (Answer::NotAtAll, Some(why)),
    })
}

/// How much each answer asks of the cluster, from none to everything.
fn cost(a: Answer) -> u8 {
    match a {
        Answer::Directly => 0,
        Answer::WithIndex => 1,
        Answer::AllowFiltering => 2,
        Answer::NotAtAll => 3,
    }
}

fn model_answer(a: &Access) -> Answer {
    match a {
        Access::Direct => Answer::Directly,
        Access::Index(_) => Answer::WithIndex,
        Access::Filtering(_) => Answer::AllowFiltering,
        Access::Impossible(_) => Answer::NotAtAll,
    }
}

fn fit<'s>(
    project: &Project,
    t: &Table,
    schema: &'s Schema,
) -> (Answer, Option<&'s TableDef>, Vec<String>) {
    let tp = partition(t);
    let has_all = |s: &TableDef| t.columns.iter().all(|c| s.column(&c.name).is_some());
    // The same table: by name, else by partition key and columns.
    let same = schema.table(&t.name).or_else(|| {
        schema.tables.iter().find(|s| {
            s.partition
                .iter()
                .map(String::as_str)
                .eq(tp.iter().copied())
                && has_all(s)
        })
    });
    if let Some(s) = same {
        let diffs = differences(project, t, s);
        let key_ok = s
            .partition
            .iter()
            .map(String::as_str)
            .eq(tp.iter().copied());
        let answer = if key_ok && has_all(s) {
            Answer::Directly
        } else if has_all(s) {
            indirect(&tp, s)
        } else {
            Answer::NotAtAll
        };
        if answer != Answer::NotAtAll || schema.table(&t.name).is_some() {
            return (answer, Some(s), diffs);
        }
    }
    // Another table with every column: searched through an index or
    // filtering.
    if let Some(s) = schema.tables.iter().find(|s| has_all(s)) {
        return (indirect(&tp, s), Some(s), differences(project, t, s));
    }
    // Nothing holds it all: the closest table says what is missing.
    let best = schema.tables.iter().max_by_key(|s| {
        t.columns
            .iter()
            .filter(|c| s.column(&c.name).is_some())
            .count()
    });
    match best {
        Some(s) => (Answer::NotAtAll, Some(s), differences(project, t, s)),
        None => (
            Answer::NotAtAll,
            None,
            vec![format!("no table {} in the schema", t.name)],
        ),
    }
}

fn indirect(searched: &[&str], s: &TableDef) -> Answer {
    if searched.iter().any(|c| s.indexes.iter().any(|i| i == c)) {
        Answer::WithIndex
    } else {
        Answer::AllowFiltering
    }
}

pub fn drift(project: &Project, a: &Analysis, schema: &Schema) -> Drift {
    let mut out = Drift {
        views: view_drift(&a.model, schema),
        ..Drift::default()
    };
    // Queries are answered by tables; views are compared above.
    let tables_only;
    let schema = if schema.tables.iter().any(|t| t.view_of.is_some()) {
        tables_only = Schema {
            tables: schema
                .tables
                .iter()
                .filter(|t| t.view_of.is_none())
                .cloned()
                .collect(),
            ..schema.clone()
        };
        &tables_only
    } else {
        schema
    };
    let mut used: Vec<String> = Vec::new();
    for q in &project.queries {
        let plan = a.model.plans.iter().find(|p| p.query == q.id);
        let table = plan
            .and_then(|p| p.table)
            .and_then(|i| a.model.tables.get(i));
        let Some(t) = table else {
            out.queries.push(QueryFit {
                query: q.id.clone(),
                model_table: None,
                answer: Answer::NotAtAll,
                schema_table: None,
                differences: vec!["the model derives no table for it".into()],
                breaks: false,
            });
            continue;
        };
        let (mut answer, s, mut differences) = fit(project, t, schema);
        // The table found answers as the model's SELECT runs on it, not
        // as its name or partition key suggests.
        if let (Some(s), Some(plan)) = (s, plan) {
            if let Some((real, why)) = answer_of(plan, s, t) {
                if cost(real) > cost(answer) || answer == Answer::Directly {
                    if let Some(why) = why.filter(|_| real != answer) {
                        differences.push(format!("the model's SELECT: {why}"));
                    }
                    answer = real;
                }
            }
        }
        // The query's own table (by name) is used even when it no longer
        // answers: it is this query's, broken, not a table nobody reads.
        if let Some(s) = s {
            if answer != Answer::NotAtAll || s.name == t.name.as_str() {
                used.push(s.name.clone());
            }
        }
        let expected = plan.map_or(Answer::NotAtAll, |p| model_answer(&p.access));
        out.queries.push(QueryFit {
            query: q.id.clone(),
            model_table: Some(t.name.to_string()),
            answer,
            schema_table: s.map(|s| s.name.clone()),
            differences,
            breaks: cost(answer) > cost(expected),
        });
    }
    out.unused_tables = schema
        .tables
        .iter()
        .filter(|s| !used.contains(&s.name))
        .map(|s| s.name.clone())
        .collect();
    out
}

pub fn text(d: &Drift) -> String {
    let mut s = String::new();
    for q in &d.queries {
        let _ = write!(s, "{}: {}", q.query, q.answer.label());
        if let Some(t) = &q.schema_table {
            let _ = write!(s, " by {t}");
        }
        if let Some(m) = &q.model_table {
            if q.schema_table.as_deref() != Some(m) {
                let _ = write!(s, " (the model's table: {m})");
            }
        }
        if q.breaks {
            s.push_str(" — BREAKS the query");
        }
        s.push('\n');
        for diff in &q.differences {
            let _ = writeln!(s, "  {diff}");
        }
    }
    for t in &d.unused_tables {
        let _ = writeln!(s, "schema table {t}: no query of the model uses it");
    }
    for v in &d.views {
        let _ = writeln!(s, "{v}");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::model::load;

    fn hotel() -> Project {
        load::from_str(include_str!("../../../sample-projects/hotel.cqlm.ron")).expect("loads")
    }

    #[test]
    fn the_models_own_export_answers_every_query_directly() {
        let p = hotel();
        let a = analyze(&p);
        let schema = super::super::parse(&crate::output::cql::script(&p, &a.model));
        let d = drift(&p, &a, &schema);
        for q in &d.queries {
            assert_eq!(q.answer, Answer::Directly, "{q:?}");
            assert!(q.differences.is_empty(), "{q:?}");
        }
        assert!(d.unused_tables.is_empty());
    }

    #[test]
    fn a_changed_key_and_a_missing_table_are_reported() {
        let p = hotel();
        let a = analyze(&p);
        let cql = crate::output::cql::script(&p, &a.model)
            .replace(
                "PRIMARY KEY (poi_name, hotel_id)",
                "PRIMARY KEY (hotel_id, poi_name)",
            )
            .replace(
                "WITH CLUSTERING ORDER BY (hotel_id ASC)",
                "WITH CLUSTERING ORDER BY (poi_name ASC)",
            );
        let cql = cql.replace(
            "CREATE TABLE IF NOT EXISTS hotel.amenities_by_room",
            "CREATE TABLE IF NOT EXISTS hotel.amenities_elsewhere",
        );
        let schema = super::super::parse(&cql);
        let d = drift(&p, &a, &schema);
        let q1 = &d.queries[0];
        assert_eq!(q1.answer, Answer::AllowFiltering, "{q1:?}");
        assert!(
            q1.differences[0].starts_with("partition key is (hotel_id)"),
            "{q1:?}"
        );
        let q5 = d.queries.iter().find(|q| q.query == "Q5").expect("Q5");
        assert_eq!(
            q5.answer,
            Answer::Directly,
            "same key and columns under another name: {q5:?}"
        );
        assert_eq!(q5.schema_table.as_deref(), Some("amenities_elsewhere"));
    }
}
