//! Measured against published expert designs (issue 39, "How to know it
//! works"). Each design under `tests/fixtures/experts/` is a project that
//! states the conceptual model and the access patterns as the published work
//! describes them (`NAME.cqlm.ron`, sources cited in its header) and the
//! tables the authors published (`NAME.expected`). This test derives each
//! project and compares, per published table, the table that serves its
//! query:
//!
//! - K: the partition key columns, in order;
//! - C: the clustering columns, in order, with their direction (`ANY` where
//!   the source states none);
//! - S: the static columns (as a set).
//!
//! A table is exact when K, C and S all match. Tables whose published shape
//! rests on something the model cannot state (a bucket the authors invent, a
//! file split into chunks, an order the source never states) are marked
//! `unstatable(…)`, so the figure is given twice: over all tables, and over
//! the statable ones only.
//!
//! It also counts the findings an expert would dismiss: every finding at
//! warning level or above that the `.expected` file does not list as one the
//! published table legitimately gets.
//!
//! And it checks rule 2 of the issue on the corpus: each project derived
//! again with every query's equality attributes written in reverse order
//! must give each published query the same key (partition columns in the
//! same order included); the tables that change are counted.
//!
//! `cargo test --test core expert -- --nocapture` prints the per-design
//! table and every mismatch. The floors below are the figures measured when
//! the corpus landed: raise them as the derivation improves; a change that
//! lowers one is a regression unless its commit says why.
//!
//! The `.expected` format, one published table a line (`#` starts a
//! comment):
//!
//! ```text
//! QUERY TABLE ((k1, k2), c1, c2 DESC, c3 ANY) [static(s1, s2)] [unstatable(why)]
//!       [expect(rule, rule)] [note(why a miss is the tool's deliberate choice)]
//!       [rename(derived=published, …)]
//! * expect(rule, …)    findings on the project, entities or relationships
//! * rename(derived=published, …)   one column the source names differently
//! ```
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::derive::{LogicalModel, Role, Table};
use cqlmodel::model::load;
use cqlmodel::model::Dir;
use cqlmodel::review::diagnose::{Severity, Subject};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// Exact tables per design as last measured (all tables; 51 of 71).
const EXACT_FLOOR: &[(&str, usize)] = &[
    ("cart", 3),
    ("clickstream", 3),
    ("hotel", 8),
    ("investment", 5),
    ("killrvideo", 9),
    ("killrweather", 3),
    ("logs", 0),
    ("messaging", 4),
    ("music", 7),
    ("orders", 3),
    ("sensor", 3),
    ("timeseries", 3),
];

/// Published tables whose key depends on the order a query's equality
/// attributes are written in, over the whole corpus, as last measured.
const ORDER_DEPENDENT_CEILING: usize = 2;

/// Findings an expert would dismiss, over the whole corpus, as last measured.
const DISMISSABLE_CEILING: usize = 19;

fn experts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/experts")
}

/// The designs: every `NAME.cqlm.ron` beside a `NAME.expected`.
fn designs() -> Vec<(String, PathBuf, PathBuf)> {
    let mut out: Vec<_> = std::fs::read_dir(experts_dir())
        .unwrap_or_else(|e| panic!("tests/fixtures/experts: {e}"))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter_map(|p| {
            let name = p
                .file_name()?
                .to_str()?
                .strip_suffix(".cqlm.ron")?
                .to_string();
            let expected = p.with_file_name(format!("{name}.expected"));
            Some((name, p, expected))
        })
        .collect();
    out.sort();
    out
}

/// A primary key: partition columns, then clustering columns with direction.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Key {
    partition: Vec<String>,
    /// `None`: the source states no direction (either matches).
    clustering: Vec<(String, Option<Dir>)>,
}

impl Key {
    /// Whether a derived key has this published one's partition key.
    fn same_partition(&self, published: &Key) -> bool {
        self.partition == published.partition
    }

    /// Whether a derived key has this published one's clustering columns,
    /// in order, with the published direction where the source states one.
    fn same_clustering(&self, published: &Key) -> bool {
        self.clustering.len() == published.clustering.len()
            && self
                .clustering
                .iter()
                .zip(&published.clustering)
                .all(|((c, d), (pc, pd))| c == pc && (pd.is_none() || pd == d))
    }
}

/// One published table.
#[derive(Debug)]
struct Expected {
    query: String,
    table: String,
    key: Key,
    statics: BTreeSet<String>,
    /// Why the model cannot state this table's shape, when it cannot.
    unstatable: Option<String>,
    /// Rules whose findings the published table legitimately gets.
    expect: BTreeSet<String>,
    /// Why a miss is the tool's deliberate choice, when it is.
    note: Option<String>,
    /// Renames for this table only, over the design's.
    rename: BTreeMap<String, String>,
}

/// A design's expectations: its tables and the rules it legitimately gets
/// on subjects that are not tables.
#[derive(Debug, Default)]
struct Design {
    tables: Vec<Expected>,
    expect_elsewhere: BTreeSet<String>,
    /// Derived column name → the published name of the same column, where
    /// the source names one column differently (`account_number` is the
    /// investment design's `account` in its trade tables).
    rename: BTreeMap<String, String>,
}

fn list(s: &str) -> Vec<String> {
    s.split(',')
        .map(str::trim)
        .filter(|x| !x.is_empty())
        .map(str::to_string)
        .collect()
}

/// `((a, b), c, d DESC)`.
fn parse_key(s: &str) -> Key {
    let inner = s
        .trim()
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or_else(|| panic!("key {s:?}: write ((partition), clustering…)"));
    let inner = inner.trim();
    let close = inner
        .find(')')
        .unwrap_or_else(|| panic!("key {s:?}: no partition key"));
    let partition = list(
        inner[..close]
            .strip_prefix('(')
            .unwrap_or_else(|| panic!("key {s:?}: partition key in parentheses")),
    );
    let clustering = list(inner[close + 1..].trim_start_matches(','))
        .into_iter()
        .map(|c| match c.split_whitespace().collect::<Vec<_>>()[..] {
            [name] | [name, "ASC"] => (name.to_string(), Some(Dir::Asc)),
            [name, "DESC"] => (name.to_string(), Some(Dir::Desc)),
            [name, "ANY"] => (name.to_string(), None),
            _ => panic!("key {s:?}: clustering column {c:?}"),
        })
        .collect();
    Key {
        partition,
        clustering,
    }
}

/// Splits `a(b(c)) d(e)` after its first balanced group: `("a(b(c))", " d(e)")`.
fn balanced(s: &str) -> (&str, &str) {
    let mut depth = 0;
    for (i, ch) in s.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return (&s[..=i], &s[i + 1..]);
                }
            }
            _ => {}
        }
    }
    panic!("unbalanced parentheses in {s:?}")
}

/// `a=b, c=d`: derived name = published name.
fn renames(body: &str, at: &str) -> Vec<(String, String)> {
    list(body)
        .into_iter()
        .map(|pair| {
            let (from, to) = pair
                .split_once('=')
                .unwrap_or_else(|| panic!("{at}write rename(derived=published, …)"));
            (from.trim().to_string(), to.trim().to_string())
        })
        .collect()
}

fn parse_expected(path: &Path) -> Design {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut design = Design::default();
    for (n, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |what: &str| format!("{}:{}: {what}", path.display(), n + 1);
        if let Some(rest) = line.strip_prefix('*') {
            let rest = rest.trim();
            if let Some(body) = rest
                .strip_prefix("rename(")
                .and_then(|x| x.strip_suffix(')'))
            {
                design.rename.extend(renames(body, &at("")));
                continue;
            }
            let body = rest
                .strip_prefix("expect(")
                .and_then(|x| x.strip_suffix(')'))
                .unwrap_or_else(|| panic!("{}", at("write * expect(rule, …) or * rename(…)")));
            design.expect_elsewhere.extend(list(body));
            continue;
        }
        let mut words = line.splitn(3, ' ');
        let (Some(query), Some(table), Some(rest)) = (words.next(), words.next(), words.next())
        else {
            panic!("{}", at("write QUERY TABLE ((key))"));
        };
        let (key, mut rest) = balanced(rest.trim());
        let mut e = Expected {
            query: query.to_string(),
            table: table.to_string(),
            key: parse_key(key),
            statics: BTreeSet::new(),
            unstatable: None,
            expect: BTreeSet::new(),
            note: None,
            rename: BTreeMap::new(),
        };
        while !rest.trim().is_empty() {
            let (clause, after) = balanced(rest.trim());
            rest = after;
            let open = clause.find('(').unwrap_or(clause.len());
            let body = &clause[open + 1..clause.len() - 1];
            match &clause[..open] {
                "static" => e.statics.extend(list(body)),
                "unstatable" => e.unstatable = Some(body.to_string()),
                "expect" => e.expect.extend(list(body)),
                "note" => e.note = Some(body.to_string()),
                "rename" => e.rename.extend(renames(body, &at(""))),
                other => panic!("{}", at(&format!("unknown clause {other:?}"))),
            }
        }
        design.tables.push(e);
    }
    design
}

/// A derived column's name as the published design names it.
fn published(rename: &BTreeMap<String, String>, name: &str) -> String {
    rename
        .get(name)
        .cloned()
        .unwrap_or_else(|| name.to_string())
}

fn key_of(t: &Table, rename: &BTreeMap<String, String>) -> Key {
    Key {
        partition: t
            .partition_key()
            .map(|c| published(rename, &c.name))
            .collect(),
        clustering: t
            .columns
            .iter()
            .filter_map(|c| match c.role {
                Role::Clustering(d) => Some((published(rename, &c.name), Some(d))),
                _ => None,
            })
            .collect(),
    }
}

fn statics_of(t: &Table, rename: &BTreeMap<String, String>) -> BTreeSet<String> {
    t.columns
        .iter()
        .filter(|c| c.role == Role::Static)
        .map(|c| published(rename, &c.name))
        .collect()
}

fn show_key(k: &Key) -> String {
    let clus: Vec<String> = k
        .clustering
        .iter()
        .map(|(c, d)| match d {
            Some(Dir::Asc) => c.clone(),
            Some(Dir::Desc) => format!("{c} DESC"),
            None => format!("{c} ANY"),
        })
        .collect();
    let mut out = format!("(({})", k.partition.join(", "));
    for c in clus {
        out.push_str(", ");
        out.push_str(&c);
    }
    out.push(')');
    out
}

fn show_set(s: &BTreeSet<String>) -> String {
    s.iter().cloned().collect::<Vec<_>>().join(", ")
}

/// One design's figures.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Figures {
    tables: usize,
    statable: usize,
    k: usize,
    c: usize,
    s: usize,
    exact: usize,
    exact_statable: usize,
    dismissable: usize,
    /// Published tables whose derived key changes when each query's
    /// equality list is written in reverse (issue 39, rule 2).
    order_dependent: usize,
}

impl std::ops::AddAssign for Figures {
    fn add_assign(&mut self, o: Figures) {
        self.tables += o.tables;
        self.statable += o.statable;
        self.k += o.k;
        self.c += o.c;
        self.s += o.s;
        self.exact += o.exact;
        self.exact_statable += o.exact_statable;
        self.dismissable += o.dismissable;
        self.order_dependent += o.order_dependent;
    }
}

/// The table of the project's model whose subject a finding is about, if
/// any.
fn finding_table(model: &LogicalModel, subject: &Subject) -> Option<String> {
    match subject {
        Subject::Table(t) => Some(t.to_string()),
        Subject::Column { table, .. } => Some(table.to_string()),
        Subject::Query(q) => model.table_of(q).map(|t| t.name.to_string()),
        _ => None,
    }
}

/// Measures one design; writes its mismatches and dismissable findings to
/// `log`.
fn measure(name: &str, project_path: &Path, expected_path: &Path, log: &mut String) -> Figures {
    let project = load::read(project_path).unwrap_or_else(|e| panic!("{name}: {e}"));
    let design = parse_expected(expected_path);
    let analysis = analyze(&project);
    let model = &analysis.model;
    assert!(model.problems.is_empty(), "{name}: {:?}", model.problems);
    let mut f = Figures::default();
    // The rules each derived table legitimately gets, by derived name (the
    // union over the published queries it serves).
    let mut legit: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for e in &design.tables {
        f.tables += 1;
        if e.unstatable.is_none() {
            f.statable += 1;
        }
        let Some(t) = model.table_of(&e.query) else {
            panic!("{name}: query {} has no table", e.query);
        };
        legit
            .entry(t.name.to_string())
            .or_default()
            .extend(e.expect.iter().cloned());
        let mut rename = design.rename.clone();
        rename.extend(e.rename.clone());
        let got = key_of(t, &rename);
        let statics = statics_of(t, &rename);
        let k = got.same_partition(&e.key);
        let c = got.same_clustering(&e.key);
        let s = statics == e.statics;
        f.k += usize::from(k);
        f.c += usize::from(c);
        f.s += usize::from(s);
        if k && c && s {
            f.exact += 1;
            f.exact_statable += usize::from(e.unstatable.is_none());
            continue;
        }
        let mut parts = Vec::new();
        if !k || !c {
            parts.push(format!(
                "key {} ≠ published {}",
                show_key(&got),
                show_key(&e.key)
            ));
        }
        if !s {
            parts.push(format!(
                "static [{}] ≠ published [{}]",
                show_set(&statics),
                show_set(&e.statics)
            ));
        }
        let _ = writeln!(
            log,
            "  miss {name} {} {} (derived {}): {}{}{}",
            e.query,
            e.table,
            t.name,
            parts.join("; "),
            e.unstatable
                .as_ref()
                .map(|w| format!(" [unstatable: {w}]"))
                .unwrap_or_default(),
            e.note
                .as_ref()
                .map(|w| format!(" [deliberate: {w}]"))
                .unwrap_or_default(),
        );
    }
    // Rule 2: the same queries with their equality attributes written in
    // reverse order must give the same tables.
    let mut reversed = project.clone();
    for q in &mut *reversed.queries {
        q.equality.reverse();
    }
    let reversed_model = cqlmodel::derive::derive(&reversed);
    for e in &design.tables {
        let before = model
            .table_of(&e.query)
            .map(|t| key_of(t, &BTreeMap::new()));
        let after = reversed_model
            .table_of(&e.query)
            .map(|t| key_of(t, &BTreeMap::new()));
        if before != after {
            f.order_dependent += 1;
            let show = |k: Option<Key>| k.map_or_else(|| "no table".to_string(), |k| show_key(&k));
            let _ = writeln!(
                log,
                "  order {name} {}: {} written one way, {} the other",
                e.query,
                show(before),
                show(after)
            );
        }
    }
    for d in &analysis.diagnostics {
        if d.severity == Severity::Hint || d.waived.is_some() {
            continue;
        }
        let table = finding_table(model, &d.subject);
        let allowed = match &table {
            Some(t) => legit.get(t).is_some_and(|rules| rules.contains(d.rule)),
            None => design.expect_elsewhere.contains(d.rule),
        };
        if !allowed {
            f.dismissable += 1;
            let _ = writeln!(
                log,
                "  finding {name} {} on {}: {}",
                d.rule,
                d.subject.label(),
                d.message()
            );
        }
    }
    f
}

fn percent(a: usize, b: usize) -> String {
    if b == 0 {
        return "—".into();
    }
    #[allow(clippy::cast_precision_loss)]
    let p = a as f64 * 100.0 / b as f64;
    format!("{p:.0} %")
}

#[test]
fn expert_designs_measured() {
    let designs = designs();
    let mut log = String::new();
    let mut table = String::from(
        "design               tables statable   K   C   S exact (statable) dismissable eq-order\n",
    );
    let mut total = Figures::default();
    let mut per_design = Vec::new();
    for (name, project, expected) in &designs {
        let f = measure(name, project, expected, &mut log);
        let _ = writeln!(
            table,
            "{name:<20} {:>6} {:>8} {:>3} {:>3} {:>3} {:>5} ({:>2}/{:<2}) {:>11} {:>8}",
            f.tables,
            f.statable,
            f.k,
            f.c,
            f.s,
            f.exact,
            f.exact_statable,
            f.statable,
            f.dismissable,
            f.order_dependent
        );
        per_design.push((name.clone(), f));
        total += f;
    }
    let _ = writeln!(
        table,
        "{:<20} {:>6} {:>8} {:>3} {:>3} {:>3} {:>5} ({:>2}/{:<2}) {:>11} {:>8}",
        "all",
        total.tables,
        total.statable,
        total.k,
        total.c,
        total.s,
        total.exact,
        total.exact_statable,
        total.statable,
        total.dismissable,
        total.order_dependent
    );
    let _ = writeln!(
        table,
        "exact: {} of {} tables ({}); statable only: {} of {} ({})",
        total.exact,
        total.tables,
        percent(total.exact, total.tables),
        total.exact_statable,
        total.statable,
        percent(total.exact_statable, total.statable)
    );
    println!("{table}\n{log}");

    assert!(designs.len() >= 8, "corpus has {} designs", designs.len());
    assert!(total.tables >= 40, "corpus has {} tables", total.tables);
    for (name, floor) in EXACT_FLOOR {
        let got = per_design
            .iter()
            .find(|(n, _)| n == name)
            .map_or(0, |(_, f)| f.exact);
        assert!(
            got >= *floor,
            "{name}: {got} exact tables, fewer than the {floor} measured when the corpus landed\n{table}\n{log}"
        );
    }
    assert!(
        total.order_dependent <= ORDER_DEPENDENT_CEILING,
        "{} published tables change with the order of equality attributes, more than the {ORDER_DEPENDENT_CEILING} measured when the corpus landed\n{table}\n{log}",
        total.order_dependent
    );
    assert!(
        total.dismissable <= DISMISSABLE_CEILING,
        "{} findings an expert would dismiss, more than the {DISMISSABLE_CEILING} measured when the corpus landed\n{table}\n{log}",
        total.dismissable
    );
}

/// The measurement reports a wrong expectation as a miss: the hotel's Q2
/// table expected with a clustering column it does not have, and Q3's with
/// a static column, against the real hotel fixture.
#[test]
fn expert_measurement_counts_a_wrong_expectation_as_a_miss() {
    let dir = std::env::temp_dir().join(format!("cqlmodel-experts-miss-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let expected = dir.join("hotel.expected");
    std::fs::write(
        &expected,
        "Q2 hotels ((hotel_id), name DESC)\n\
         Q3 pois_by_hotel ((hotel_id), poi_name) static(description)\n\
         Q9 guests ((guest_id))\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut log = String::new();
    let f = measure(
        "hotel",
        &experts_dir().join("hotel.cqlm.ron"),
        &expected,
        &mut log,
    );
    let _ = std::fs::remove_dir_all(&dir);
    // K matches on all three; C fails on Q2; S fails on Q3; Q9 is exact.
    assert_eq!(
        (f.tables, f.statable, f.k, f.c, f.s, f.exact),
        (3, 3, 3, 2, 2, 1),
        "{log}"
    );
    assert!(
        log.contains("key ((hotel_id)) ≠ published ((hotel_id), name DESC)"),
        "{log}"
    );
    assert!(log.contains("static [] ≠ published [description]"), "{log}");
}

/// Every design's CQL script is one Cassandra accepts.
#[test]
fn expert_designs_export_valid_cql() {
    let Some(tool) = crate::support::cqlcheck() else {
        return;
    };
    let dir = std::env::temp_dir().join(format!("cqlmodel-experts-cql-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    for (name, project, _) in designs() {
        let project = load::read(&project).unwrap_or_else(|e| panic!("{name}: {e}"));
        let model = cqlmodel::derive::derive(&project);
        let file = dir.join(format!("{name}.cql"));
        std::fs::write(&file, cqlmodel::output::cql::script(&project, &model))
            .unwrap_or_else(|e| panic!("{e}"));
        if let Err(e) = crate::support::cqlcheck_file(&tool, &file) {
            panic!("{name}: {e}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `.expected` reader itself: a key with a descending clustering column
/// and every clause.
#[test]
fn expert_expected_format_reads_keys_and_clauses() {
    let dir = std::env::temp_dir().join(format!("cqlmodel-experts-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{e}"));
    let path = dir.join("x.expected");
    std::fs::write(
        &path,
        "# comment\n\
         Q1 t ((a, b), c DESC, d) static(s1, s2) unstatable(a day bucket) expect(hot-partition) note(x) rename(a=z)\n\
         Q2 u ((a))\n\
         * expect(no-workflow)\n\
         * rename(account_number=account)\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let d = parse_expected(&path);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(d.tables.len(), 2);
    let t = &d.tables[0];
    assert_eq!(t.query, "Q1");
    assert_eq!(t.table, "t");
    assert_eq!(
        t.key,
        Key {
            partition: vec!["a".into(), "b".into()],
            clustering: vec![("c".into(), Some(Dir::Desc)), ("d".into(), Some(Dir::Asc))],
        }
    );
    assert_eq!(show_key(&t.key), "((a, b), c DESC, d)");
    assert_eq!(show_set(&t.statics), "s1, s2");
    assert_eq!(t.unstatable.as_deref(), Some("a day bucket"));
    assert!(t.expect.contains("hot-partition"));
    assert_eq!(t.note.as_deref(), Some("x"));
    assert_eq!(show_key(&d.tables[1].key), "((a))");
    // ANY: the source states no direction, and either matches.
    let any = parse_key("((a), c ANY)");
    assert_eq!(show_key(&any), "((a), c ANY)");
    for dir in [Dir::Asc, Dir::Desc] {
        let got = Key {
            partition: vec!["a".into()],
            clustering: vec![("c".into(), Some(dir))],
        };
        assert!(got.same_clustering(&any));
    }
    let desc = parse_key("((a), c DESC)");
    assert!(!parse_key("((a), c)").same_clustering(&desc));
    assert!(!parse_key("((a), d DESC)").same_clustering(&desc));
    assert!(!parse_key("((a), c DESC, d)").same_clustering(&desc));
    assert!(d.tables[1].statics.is_empty());
    assert!(d.expect_elsewhere.contains("no-workflow"));
    assert_eq!(published(&d.rename, "account_number"), "account");
    assert_eq!(published(&d.rename, "symbol"), "symbol");
    assert_eq!(published(&t.rename, "a"), "z");
}
