//! Alternatives side by side (seed 002): the derived primary key and every
//! candidate key kept for the same rows, judged against every query over
//! those rows by Cassandra's restriction rules, with partition estimates.

use crate::derive::estimate::{group_digits, human_bytes, Estimate, Estimator};
use crate::derive::{derive, Access, Role, Table};
use crate::model::naming::for_terminal;
use crate::model::quantity::count;
use crate::model::resolve::Graph;
use crate::model::Project;
use crate::review::diagnose::missing_key;
use serde::Serialize;
use std::fmt::Write;

/// One figure of a design's cost, for a row of the matrix.
type CostOf = fn(&crate::derive::cost::DesignCost) -> f64;

/// The name of the option that keeps the derived key.
pub(crate) const DERIVED: &str = "derived";

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Matrix {
    /// The query whose table the options are for (the table's origin).
    pub query: String,
    pub table: String,
    pub rows: String,
    pub options: Vec<Choice>,
    /// Every query whose rows are the table's rows.
    pub queries: Vec<String>,
    /// `cells[q][o]`: how option `o` serves query `q`.
    pub cells: Vec<Vec<Access>>,
}

/// One primary key under comparison.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Choice {
    /// `derived` or the candidate's name.
    pub name: String,
    /// `PRIMARY KEY ((a, b), c DESC)`.
    pub key: String,
    pub indexes: Vec<String>,
    /// The project uses this key now.
    pub in_use: bool,
    pub estimate: Estimate,
    /// Identifying attributes the key lacks (rows overwrite each other).
    pub missing_key: Vec<String>,
    /// Why the candidate could not be built, if it could not.
    pub problem: Option<String>,
    /// What the whole design costs with this key in use (reads, writes
    /// and disk per node, the hottest partition, the weighted total): the
    /// trade shown, not solved.
    pub cost: crate::derive::cost::DesignCost,
}

/// `PRIMARY KEY ((a, b), c DESC)` of a table.
pub(crate) fn key_text(t: &Table) -> String {
    let pk: Vec<&str> = t.partition_key().map(|c| c.name.as_str()).collect();
    let part = if pk.len() == 1 {
        pk[0].to_string()
    } else {
        format!("({})", pk.join(", "))
    };
    let mut parts = vec![part];
    for c in t.clustering() {
        match c.role {
            Role::Clustering(crate::model::Dir::Desc) => parts.push(format!("{} DESC", c.name)),
            _ => parts.push(c.name.to_string()),
        }
    }
    format!("PRIMARY KEY ({})", parts.join(", "))
}

/// Evaluates the derived key and every candidate of the table that serves
/// `query` against every query over the same rows. Each option is judged
/// by deriving the project with that key in use and every same-rows query
/// served by this table, so the verdicts are the ones `check` would give.
/// A query without a table gives an empty matrix.
pub fn matrix(project: &Project, query: &str) -> Matrix {
    let base = derive(project);
    let Some(t) = base.table_of(query) else {
        return Matrix {
            query: query.to_string(),
            table: String::new(),
            rows: String::new(),
            options: vec![],
            queries: vec![],
            cells: vec![],
        };
    };
    let origin = t.origin.to_string();
    let rows = t.rows.to_string();
    let queries: Vec<String> = project
        .queries
        .iter()
        .filter(|q| q.rows == rows)
        .map(|q| q.id.clone())
        .collect();
    let decision = project.decision(&origin);
    let in_use = decision.and_then(|d| d.use_candidate.clone());
    let mut names: Vec<Option<String>> = vec![None];
    names.extend(
        decision
            .into_iter()
            .flat_map(|d| d.candidates.iter().map(|c| Some(c.name.clone()))),
    );

    let graph = Graph::new(project);
    let est = Estimator::new(&graph);
    let mut options = Vec::new();
    let mut cells: Vec<Vec<Access>> = vec![Vec::new(); queries.len()];
    for name in &names {
        let mut p = project.clone();
        p.decision_mut(&origin).use_candidate.clone_from(name);
        for q in queries.iter().filter(|q| **q != origin) {
            let d = p.decision_mut(q);
            d.served_by = Some(origin.clone());
        }
        let m = derive(&p);
        let table = m.tables.iter().find(|x| x.origin == origin);
        let problem = m
            .problems
            .iter()
            .filter(|x| x.path.starts_with(&format!("decisions({origin})")))
            .map(|x| x.message.clone())
            .collect::<Vec<_>>();
        let built = table.is_some_and(|t| t.candidate == *name);
        let problem = if !built || !problem.is_empty() {
            Some(if problem.is_empty() {
                "the candidate key could not be built".to_string()
            } else {
                problem.join("; ")
            })
        } else {
            None
        };
        for (qi, q) in queries.iter().enumerate() {
            let access = match (m.plan(q), &problem) {
                (_, Some(why)) => Access::Impossible(why.clone()),
                (Some(plan), None) => plan.access.clone(),
                (None, None) => Access::Impossible("no plan".into()),
            };
            cells[qi].push(access);
        }
        // The figures are those of the table as the project would have it
        // with this key alone (what derive and check show once it is in
        // use), not of the table widened to serve every same-rows query.
        let mut alone = project.clone();
        alone.decision_mut(&origin).use_candidate.clone_from(name);
        alone.prune_decisions();
        let own = derive(&alone);
        let alone_graph = Graph::new(&alone);
        let own_estimates = crate::derive::estimate::estimate_in(&alone_graph, &own);
        let cost = crate::derive::cost::cost_in(&alone_graph, &own, &own_estimates).design;
        let estimate = own
            .tables
            .iter()
            .find(|x| x.origin == origin)
            .map_or_else(Estimate::default, |t| est.table(t));
        let (key, indexes, missing) = match table {
            Some(t) => (key_text(t), t.indexes.clone(), missing_key(&graph, &est, t)),
            None => (String::new(), vec![], vec![]),
        };
        options.push(Choice {
            name: name.clone().unwrap_or_else(|| DERIVED.to_string()),
            key,
            indexes,
            in_use: *name == in_use,
            estimate,
            missing_key: missing,
            problem,
            cost,
        });
    }
    Matrix {
        query: origin,
        table: t.name.to_string(),
        rows,
        options,
        queries,
        cells,
    }
}

/// The short verdict of a cell: `yes`, `index(col)`, `filtering`, `no`.
pub fn verdict(a: &Access) -> String {
    match a {
        Access::Direct => "yes".into(),
        Access::Index(c) => format!("index({c})"),
        Access::Filtering(_) => "filtering".into(),
        Access::Impossible(_) => "no".into(),
    }
}

/// The matrix as a plain-text table, with the reasons below it.
pub fn render(project: &Project, m: &Matrix) -> String {
    let mut s = String::new();
    if m.options.is_empty() {
        let _ = writeln!(s, "{}: no table", for_terminal(&m.query));
        return s;
    }
    let _ = writeln!(
        s,
        "Alternatives for {} (rows: {}; table of {})",
        for_terminal(&m.table),
        for_terminal(&m.rows),
        for_terminal(&m.query)
    );
    for o in &m.options {
        let mark = if o.in_use { " (in use)" } else { "" };
        let ix = if o.indexes.is_empty() {
            String::new()
        } else {
            format!(" + index on {}", o.indexes.join(", "))
        };
        let _ = writeln!(
            s,
            "  {}{mark}: {}{ix}",
            for_terminal(&o.name),
            for_terminal(&o.key)
        );
    }
    let mut grid: Vec<Vec<String>> = Vec::new();
    let mut head = vec![String::new()];
    head.extend(
        m.options
            .iter()
            .map(|o| format!("{}{}", o.name, if o.in_use { "*" } else { "" })),
    );
    grid.push(head);
    for (qi, q) in m.queries.iter().enumerate() {
        let mut row = vec![q.clone()];
        row.extend(m.cells[qi].iter().map(verdict));
        grid.push(row);
    }
    let stat = |label: &str, f: &dyn Fn(&Choice) -> String| {
        let mut row = vec![label.to_string()];
        row.extend(m.options.iter().map(f));
        row
    };
    grid.push(stat("partitions", &|o| group_digits(o.estimate.partitions)));
    grid.push(stat("rows/partition", &|o| {
        count(o.estimate.rows_per_partition)
    }));
    grid.push(stat("worst rows", &|o| {
        count(o.estimate.rows_per_partition_max)
    }));
    grid.push(stat("worst size", &|o| {
        human_bytes(o.estimate.partition_bytes_max)
    }));
    // The design's cost with each key, and its change from the first
    // option (the derived key).
    let first = m.options.first().map(|o| o.cost.clone());
    let delta = |v: f64, base: Option<f64>, show: &dyn Fn(f64) -> String| match base {
        Some(b) if (v - b).abs() > 1e-9 => {
            format!(
                "{} ({}{})",
                show(v),
                if v > b { "+" } else { "-" },
                show((v - b).abs())
            )
        }
        _ => show(v),
    };
    let rate = |v: f64| {
        if v < 100.0 {
            format!("{v:.1}")
        } else {
            group_digits(v.round())
        }
    };
    for (label, of, bytes) in [
        ("reads/s per node", (|c| c.reads_per_node) as CostOf, false),
        ("rows read/s per node", |c| c.rows_read_per_node, false),
        ("writes/s per node", |c| c.writes_per_node, false),
        ("disk per node", |c| c.disk_per_node, true),
        (
            "hottest partition/s",
            |c| c.hottest.as_ref().map_or(0.0, |h| h.1),
            false,
        ),
        ("weighted ops/s", |c| c.weighted_total, false),
    ] {
        let show: &dyn Fn(f64) -> String = if bytes { &|v| human_bytes(v) } else { &rate };
        grid.push(stat(label, &|o| {
            let base = if o.name == m.options[0].name {
                None
            } else {
                first.as_ref().map(of)
            };
            delta(of(&o.cost), base, show)
        }));
    }
    grid.push(stat("unique rows", &|o| {
        if o.missing_key.is_empty() {
            "yes".into()
        } else {
            "no".into()
        }
    }));
    let widths: Vec<usize> = (0..grid[0].len())
        .map(|c| grid.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    let _ = writeln!(s);
    for r in &grid {
        let line: Vec<String> = r
            .iter()
            .zip(&widths)
            .map(|(cell, w)| crate::model::terminal_text::pad_end(&for_terminal(cell), *w))
            .collect();
        let _ = writeln!(s, "  {}", line.join("  ").trim_end());
    }
    let _ = writeln!(s);
    for (qi, q) in m.queries.iter().enumerate() {
        let text = project.query(q).map_or("", |x| x.text.as_str());
        let _ = writeln!(s, "{}: {}", for_terminal(q), for_terminal(text));
        for (o, a) in m.options.iter().zip(&m.cells[qi]) {
            if let Some(why) = a.reason() {
                let _ = writeln!(
                    s,
                    "  {}: {} — {}",
                    for_terminal(&o.name),
                    a.label(),
                    for_terminal(why)
                );
            }
        }
    }
    for o in m.options.iter().filter(|o| !o.missing_key.is_empty()) {
        let _ = writeln!(
            s,
            "{}: rows overwrite each other (key lacks {})",
            for_terminal(&o.name),
            for_terminal(&o.missing_key.join(", "))
        );
    }
    s
}
