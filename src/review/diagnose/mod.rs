//! Design review: rules that catch what fails in production months later,
//! each with a stable id, a severity, the item it concerns, what goes wrong,
//! a suggested fix, the source of the guidance, and where possible a
//! one-key refinement.
//!
//! Rules live in one file per family; [`RULES`] lists every id so the
//! shells can document them, and [`diagnose`] runs them all.

mod counts;
mod keys;
mod partition;
mod physical;
mod schema;
mod sharing;
mod workflow;
pub(crate) use workflow::{changed_inputs, input_gaps, Earlier};
mod words;
mod workload;
mod writes;

pub use keys::missing_key;
pub use partition::fits;
pub(crate) use partition::{
    bucket_source, choose_bucket_for, extra_name as partition_extra_name, DEFAULT_SHARDS,
};
pub use schema::INVALID_CQL;

use crate::derive::estimate::{Estimate, Estimator};
use crate::derive::share::{merge_hints_reusing, Hint};
use crate::derive::{LogicalModel, PlansByTable, Source, Table};
use crate::model::name::Name;
use crate::model::parts::Parts;
use crate::model::resolve::Graph;
use crate::model::{Period, Project};
use serde::Serialize;
pub use words::Words;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Severity {
    Error,
    Warning,
    Hint,
}

impl Severity {
    pub fn label(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Hint => "hint",
        }
    }
}

/// The item a diagnostic is about, for jumping to it.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Subject {
    Project,
    Entity(Name),
    Attribute {
        item: Name,
        attribute: Name,
    },
    Relationship(Name),
    Query(Name),
    Table(Name),
    Column {
        table: Name,
        column: String,
    },
    /// A location in the project file (`queries[3].equality[0]`).
    Path(String),
}

/// The item a note is about, as a diagnostic would name it.
impl From<&crate::model::Target> for Subject {
    fn from(t: &crate::model::Target) -> Subject {
        use crate::model::Target;
        match t {
            Target::Entity(e) => Subject::Entity(e.as_str().into()),
            Target::Relationship(r) => Subject::Relationship(r.as_str().into()),
            Target::Query(q) => Subject::Query(q.as_str().into()),
            Target::Table(t) => Subject::Table(t.as_str().into()),
        }
    }
}

/// A change to the project's decisions that fixes a diagnostic. `query` is
/// the query whose decision shapes the table (the table's origin). Every
/// refinement has an inverse, so the TUI can offer both directions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Refinement {
    /// A time bucket computed from `source`, appended to the partition key.
    AddBucket {
        query: Name,
        column: String,
        source: String,
        period: Period,
    },
    /// A shard number in 0..count, appended to the partition key.
    AddShard {
        query: Name,
        column: String,
        count: u32,
    },
    /// Removes a bucket or shard column (inverse of the two above).
    RemoveExtra { query: Name, column: String },
    /// Moves a clustering column into the partition key.
    Promote { query: Name, column: String },
    /// Moves a promoted column back into clustering.
    Demote { query: Name, column: String },
    /// Replaces a timestamp column by a timeuuid.
    Timeuuid { query: Name, column: String },
    /// Back to the attribute's timestamp.
    UndoTimeuuid { query: Name, column: String },
    /// Pushes the children reached through a relationship up into one
    /// collection column instead of clustering rows.
    Collection { query: Name, relationship: String },
    /// Back to clustering rows.
    Uncollection { query: Name, relationship: String },
    /// Drops a secondary index the decision added.
    DropIndex { query: Name, column: String },
    /// Adds a secondary index on a column.
    AddIndex { query: Name, column: String },
    /// Back from a hand-written candidate key to the derived key.
    UseDerivedKey { query: Name, candidate: String },
    /// Puts a candidate key in use.
    UseCandidate { query: Name, candidate: String },
    /// Expires an entity's rows after its retention (`ttl: true`); the
    /// query names a table holding them, for the preview.
    Ttl { query: Name, entity: String },
    /// Keeps the rows until deleted again.
    NoTtl { query: Name, entity: String },
    /// Puts an equality column in the partition key (`partition`) or keeps
    /// it as a leading clustering column, whatever the estimates say.
    PlaceEquality {
        query: Name,
        column: String,
        partition: bool,
    },
    /// Lets the estimates place the equality column again.
    UnplaceEquality {
        query: Name,
        column: String,
        partition: bool,
    },
    /// Serves the query from the table of query `with`, which gains the
    /// columns it lacks.
    ShareTable { query: Name, with: String },
    /// Gives the query its own table again.
    UnshareTable { query: Name, with: String },
}

impl Refinement {
    /// The query whose decision the refinement changes.
    pub fn query(&self) -> &str {
        match self {
            Refinement::AddBucket { query, .. }
            | Refinement::AddShard { query, .. }
            | Refinement::RemoveExtra { query, .. }
            | Refinement::Promote { query, .. }
            | Refinement::Demote { query, .. }
            | Refinement::Timeuuid { query, .. }
            | Refinement::UndoTimeuuid { query, .. }
            | Refinement::Collection { query, .. }
            | Refinement::Uncollection { query, .. }
            | Refinement::DropIndex { query, .. }
            | Refinement::AddIndex { query, .. }
            | Refinement::UseDerivedKey { query, .. }
            | Refinement::UseCandidate { query, .. }
            | Refinement::Ttl { query, .. }
            | Refinement::NoTtl { query, .. }
            | Refinement::PlaceEquality { query, .. }
            | Refinement::UnplaceEquality { query, .. }
            | Refinement::ShareTable { query, .. }
            | Refinement::UnshareTable { query, .. } => query,
        }
    }

    /// One line for menus: `Add a day bucket on posted_at to Q3's table`.
    pub fn label(&self) -> String {
        match self {
            Refinement::AddBucket {
                query,
                source,
                period,
                column,
            } => {
                format!("Add {} bucket {column} (from {source}) to the partition key of {query}'s table", partition::a_period(*period))
            }
            Refinement::AddShard {
                query,
                column,
                count,
            } => {
                format!("Add a shard {column} (0..{count}) to the partition key of {query}'s table")
            }
            Refinement::RemoveExtra { query, column } => {
                format!("Remove {column} from the partition key of {query}'s table")
            }
            Refinement::Promote { query, column } => {
                format!("Move {column} from clustering into the partition key of {query}'s table")
            }
            Refinement::Demote { query, column } => {
                format!("Move {column} back into clustering in {query}'s table")
            }
            Refinement::Timeuuid { query, column } => {
                format!("Make {column} a timeuuid in {query}'s table")
            }
            Refinement::UndoTimeuuid { query, column } => {
                format!("Make {column} a timestamp again in {query}'s table")
            }
            Refinement::Collection {
                query,
                relationship,
            } => {
                format!("Push {relationship} up into a collection in {query}'s table")
            }
            Refinement::Uncollection {
                query,
                relationship,
            } => {
                format!("Store {relationship} as clustering rows again in {query}'s table")
            }
            Refinement::DropIndex { query, column } => {
                format!("Drop the index on {column} in {query}'s table")
            }
            Refinement::AddIndex { query, column } => {
                format!("Index {column} in {query}'s table")
            }
            Refinement::UseDerivedKey { query, candidate } => {
                format!("Use the derived key instead of {candidate} in {query}'s table")
            }
            Refinement::UseCandidate { query, candidate } => {
                format!("Use candidate key {candidate} in {query}'s table")
            }
            Refinement::Ttl { entity, .. } => {
                format!("Expire {entity} rows after their retention (default_time_to_live)")
            }
            Refinement::NoTtl { entity, .. } => {
                format!("Keep {entity} rows until deleted (no TTL)")
            }
            Refinement::PlaceEquality {
                query,
                column,
                partition: true,
            } => format!("Move {column} into the partition key of {query}'s table"),
            Refinement::PlaceEquality {
                query,
                column,
                partition: false,
            } => format!("Move {column} to a leading clustering column of {query}'s table"),
            Refinement::UnplaceEquality { query, column, .. } => {
                format!("Let the estimates place {column} in {query}'s table again")
            }
            Refinement::ShareTable { query, with } => {
                format!("Serve {query} from {with}'s table (adding the columns it lacks)")
            }
            Refinement::UnshareTable { query, with } => {
                format!("Give {query} its own table again instead of {with}'s")
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Diagnostic {
    /// Stable id, e.g. `partition-too-large`.
    pub rule: &'static str,
    pub severity: Severity,
    pub subject: Subject,
    /// What goes wrong in production, in one sentence, and the fix:
    /// [`Diagnostic::message`], [`Diagnostic::fix`]. Worded when first
    /// read, and shared by copies (the incremental analysis keeps each
    /// table's findings for the next edit).
    #[serde(flatten)]
    pub words: Words,
    /// Where the guidance comes from (a seed article or a Cassandra limit).
    pub source: &'static str,
    /// The one-key fix, when there is one. Boxed: few findings have one,
    /// and every finding is kept twice while a large project is open
    /// (the review and the incremental analysis' copy).
    pub refinement: Option<Box<Refinement>>,
}

/// A rule's documentation: what `cqlmodel check` can report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RuleInfo {
    pub id: &'static str,
    pub severity: Severity,
    pub title: &'static str,
    pub source: &'static str,
}

const SEED_000: &str = "seed 000 (Instaclustr, Review & Tune)";

/// Every rule the review runs, in report order. Ids are stable: scripts
/// and `--deny` policies may rely on them.
pub const RULES: &[RuleInfo] = &[
    RuleInfo {
        id: "derivation",
        severity: Severity::Error,
        title: "A reference or decision the derivation could not honour",
        source: "cqlmodel derivation",
    },
    RuleInfo {
        id: "partition-cell-limit",
        severity: Severity::Error,
        title: "A partition past Cassandra's 2 billion cells",
        source: "Cassandra limit: 2 billion cells per partition (seed 001)",
    },
    RuleInfo {
        id: "partition-too-large",
        severity: Severity::Warning,
        title: "Values or bytes per partition over the project's thresholds",
        source: "Apache Cassandra docs partition sizing; 100,000 values / 100 MB rule of thumb (seed 001: wide, not too wide)",
    },
    RuleInfo {
        id: "unbounded-partition",
        severity: Severity::Warning,
        title: "Rows per partition grow with time, bounded by neither a time bucket nor a TTL",
        source: SEED_000,
    },
    RuleInfo {
        id: "estimate-on-defaults",
        severity: Severity::Warning,
        title: "A partition estimate that rests on default numbers instead of stated ones",
        source: "Apache Cassandra docs partition sizing (the formulas need the numbers); seed 000 (partition size review)",
    },
    RuleInfo {
        id: "contradicting-counts",
        severity: Severity::Warning,
        title: "Stated counts that disagree (a child count against parent count × average per parent)",
        source: "Apache Cassandra docs partition sizing (one figure per number)",
    },
    RuleInfo {
        id: "retention-without-ttl",
        severity: Severity::Hint,
        title: "A stated retention that no TTL enforces",
        source: "seed 001 (decide on the proper TTL up front)",
    },
    RuleInfo {
        id: "hot-partition",
        severity: Severity::Warning,
        title: "Few partition key values (or a time value alone): writes hit one replica set",
        source: "seed 001 (row key is the shard key; ddmmyyhh hot spots); seed 000 (partition key cardinality)",
    },
    RuleInfo {
        id: "large-value",
        severity: Severity::Warning,
        title: "Average cell over 1 MB",
        source: "seed 001 (limit values to a few MB; a value is read whole into heap)",
    },
    RuleInfo {
        id: "large-collection",
        severity: Severity::Warning,
        title: "A collection expected to hold more than 64K elements",
        source: "Cassandra limit: 64K elements per collection (native protocol v2); collections are read whole (seed 001)",
    },
    RuleInfo {
        id: "rows-overwrite",
        severity: Severity::Error,
        title: "The primary key does not identify the rows: inserts overwrite each other",
        source: "MR5 (seed 003: a key that defines a unique data element); seed 001 (upserts overwrite silently)",
    },
    RuleInfo {
        id: "twcs-misfit",
        severity: Severity::Warning,
        title: "TimeWindow compaction on rows that are deleted, updated, kept or not written in time order",
        source: "Apache Cassandra docs, Time Window Compaction Strategy (for time series written once that expire); The Last Pickle, TWCS: how does it work and when should you use it (2016)",
    },
    RuleInfo {
        id: "expiring-without-twcs",
        severity: Severity::Hint,
        title: "An expiring time series on a strategy that cannot drop whole SSTables",
        source: "Apache Cassandra docs, Time Window Compaction Strategy; seed 000 (changing compaction strategy when reviewing and tuning)",
    },
    RuleInfo {
        id: "gc-grace-too-low",
        severity: Severity::Warning,
        title: "gc_grace_seconds under the hint window where deletes or hints need it",
        source: "Apache Cassandra docs, Compaction: tombstones and gc_grace_seconds; cassandra.yaml max_hint_window (3 hours)",
    },
    RuleInfo {
        id: "materialized-view",
        severity: Severity::Hint,
        title: "A materialized view: experimental, disabled by default since Cassandra 4.0",
        source: "Apache Cassandra docs, Materialized Views (experimental; materialized_views_enabled in cassandra.yaml, off by default since 4.0)",
    },
    RuleInfo {
        id: "timestamp-key",
        severity: Severity::Warning,
        title: "A bare timestamp makes rows unique: colliding writers overwrite",
        source: "seed 001 (don't use a timestamp alone as a column key; prefer timeuuid)",
    },
    RuleInfo {
        id: "mutable-key",
        severity: Severity::Warning,
        title: "A key column whose value changes: every change is a delete plus an insert",
        source: "seed 000 (updates of key values; the client status example)",
    },
    RuleInfo {
        id: "queue",
        severity: Severity::Warning,
        title: "A query that consumes and deletes rows from the front of a partition",
        source: "seed 003 (the queue anti-pattern)",
    },
    RuleInfo {
        id: "counter-mixed",
        severity: Severity::Error,
        title: "Counter and non-counter columns in one table",
        source: "Cassandra rule: a counter table holds only counters besides its key",
    },
    RuleInfo {
        id: "counter-as-id",
        severity: Severity::Error,
        title: "A counter used as a key or id",
        source: "seed 001 (counters are no surrogate key generator)",
    },
    RuleInfo {
        id: "counter-retry",
        severity: Severity::Hint,
        title: "Counter increments are not idempotent: retries over-count",
        source: "seed 001 (idempotent writes; counters)",
    },
    RuleInfo {
        id: "query-unservable",
        severity: Severity::Error,
        title: "A query its table cannot answer at all",
        source: "Cassandra CQL restriction rules",
    },
    RuleInfo {
        id: "query-needs-filtering",
        severity: Severity::Warning,
        title: "A query its table answers only with ALLOW FILTERING",
        source: "Cassandra CQL restriction rules",
    },
    RuleInfo {
        id: "index-high-cardinality",
        severity: Severity::Warning,
        title: "A secondary index on a column with many distinct values",
        source: "seed 000 (indexed columns need much lower cardinality than the table)",
    },
    RuleInfo {
        id: "index-frequent-updates",
        severity: Severity::Warning,
        title: "A secondary index on a column that changes",
        source: "seed 000 (mind the update frequency of indexed values)",
    },
    RuleInfo {
        id: "write-amplification",
        severity: Severity::Hint,
        title: "Rows or a changing attribute copied into many tables",
        source: "seed 000 (push-down cost of multiple copies); Cassandra logged batches",
    },
    RuleInfo {
        id: "query-without-table",
        severity: Severity::Error,
        title: "A query no table serves",
        source: "seed 003 (one table per query)",
    },
    RuleInfo {
        id: "table-serves-no-query",
        severity: Severity::Warning,
        title: "A table that answers none of its queries",
        source: "seed 003 (tables exist for queries)",
    },
    RuleInfo {
        id: "workflow-input-gap",
        severity: Severity::Warning,
        title: "A query whose inputs come neither from an entry point nor from a query before it",
        source: "seed 003 (application workflow); seed 000 (access paths)",
    },
    RuleInfo {
        id: "duration-key",
        severity: Severity::Error,
        title: "A duration (or a value holding one) in a primary key",
        source: "Cassandra rule: duration type is not supported for PRIMARY KEY columns",
    },
    RuleInfo {
        id: "duration-in-set",
        severity: Severity::Error,
        title: "A set of durations or a map keyed by duration",
        source: "Cassandra rule: durations are not comparable, so not allowed in sets or as map keys",
    },
    RuleInfo {
        id: "counter-nested",
        severity: Severity::Error,
        title: "A counter inside a collection, tuple or vector",
        source: "Cassandra rule: counters are only allowed as top-level columns",
    },
    RuleInfo {
        id: "counter-merge",
        severity: Severity::Error,
        title: "A counter table holding non-counter columns (a served_by merge brings them)",
        source: "Cassandra rule: a counter table holds only counters besides its key",
    },
    RuleInfo {
        id: "full-scan",
        severity: Severity::Warning,
        title: "A query with no equality search: its SELECT reads every partition",
        source: "seed 003 (queries answered from one partition); Cassandra CQL restriction rules",
    },
    RuleInfo {
        id: "shareable-table",
        severity: Severity::Hint,
        title: "A query another table would answer directly if it held a few more columns",
        source: "seed 003 (one table may serve several queries); seed 000 (Review & Tune)",
    },
    RuleInfo {
        id: "no-workflow",
        severity: Severity::Hint,
        title: "The project states no workflow",
        source: "seed 003 (application workflow)",
    },
];

/// The documentation entry of a rule id.
pub fn rule(id: &str) -> Option<&'static RuleInfo> {
    // Every finding looks its rule up: by a map, not a scan of them all.
    static BY_ID: std::sync::OnceLock<rustc_hash::FxHashMap<&'static str, &'static RuleInfo>> =
        std::sync::OnceLock::new();
    BY_ID
        .get_or_init(|| {
            let mut m = rustc_hash::FxHashMap::default();
            for r in RULES {
                m.entry(r.id).or_insert(r);
            }
            m
        })
        .get(id)
        .copied()
}

/// Everything the rules read, built once per review.
pub(crate) struct Ctx<'a> {
    pub project: &'a Project,
    pub model: &'a LogicalModel,
    pub estimates: &'a [Estimate],
    pub graph: &'a Graph<'a>,
    pub est: Estimator<'a, 'a>,
    /// The plans reading each table (a scan of every plan per table makes
    /// a large project's review quadratic).
    pub users: Users<'a>,
}

/// The plans reading each table: given (one list shared by every thread's
/// rules) or made on first use.
pub(crate) enum Users<'a> {
    Given(&'a PlansByTable),
    Lazy(std::sync::OnceLock<PlansByTable>),
}

impl<'a> Ctx<'a> {
    /// Positions of the plans that read table `table`, in plan order.
    pub fn plans_reading(&self, table: usize) -> &[usize] {
        match &self.users {
            Users::Given(users) => users.reading(table),
            Users::Lazy(made) => made
                .get_or_init(|| self.model.plans_by_table())
                .reading(table),
        }
    }

    pub fn estimate(&self, table: usize) -> Option<&'a Estimate> {
        self.estimates.get(table)
    }

    /// A diagnostic of a rule, with the rule's severity and source. A
    /// method, so every rule reads `ctx.diag(…)`.
    #[allow(clippy::unused_self)]
    pub(crate) fn diag(
        &self,
        rule: &'static str,
        subject: Subject,
        message: String,
        fix: String,
    ) -> Diagnostic {
        finding(rule, subject, Words::ready(message, fix))
    }

    /// [`Ctx::diag`] with the message and fix written by `message` and
    /// `fix` from `args` when first read: most findings of a large review
    /// are never shown.
    #[allow(clippy::unused_self)]
    pub(crate) fn diag_with<A: Send + Sync + 'static>(
        &self,
        rule: &'static str,
        subject: Subject,
        args: A,
        message: words::Write<A>,
        fix: words::Write<A>,
    ) -> Diagnostic {
        finding(rule, subject, Words::lazy(args, message, fix))
    }
}

/// A diagnostic of a rule, with the rule's severity and source.
fn finding(rule: &'static str, subject: Subject, words: Words) -> Diagnostic {
    let info = self::rule(rule);
    debug_assert!(info.is_some(), "undocumented rule {rule}");
    Diagnostic {
        rule,
        severity: info.map_or(Severity::Warning, |i| i.severity),
        subject,
        words,
        source: info.map_or("", |i| i.source),
        refinement: None,
    }
}

impl Diagnostic {
    /// Sets the one-key fix.
    pub(crate) fn set_refinement(&mut self, refinement: Option<Refinement>) {
        self.refinement = refinement.map(Box::new);
    }

    /// What goes wrong in production, in one sentence.
    pub fn message(&self) -> &str {
        self.words.message()
    }

    /// How to fix it.
    pub fn fix(&self) -> &str {
        self.words.fix()
    }

    /// Replaces the fix, for rules that settle it after the message.
    pub(crate) fn set_fix(&mut self, fix: String) {
        self.words = Words::ready(self.message(), fix);
    }
}

/// `Subject::Column` for a column of a table.
pub(crate) fn column_subject(t: &Table, column: &str) -> Subject {
    Subject::Column {
        table: t.name.clone(),
        column: column.to_string(),
    }
}

/// The `Entity.attr` text of an attribute column, else its name.
pub(crate) fn attribute_label(c: &crate::derive::Column) -> String {
    match &c.source {
        Source::Attr { attribute, .. } => attribute.to_string(),
        _ => c.name.to_string(),
    }
}

/// Every diagnostic of a derived model, errors first, in a stable order.
pub fn diagnose(
    project: &Project,
    model: &LogicalModel,
    estimates: &[Estimate],
) -> Vec<Diagnostic> {
    diagnose_in(&Graph::new(project), model, estimates)
}

/// [`diagnose`] over an already built graph of the project.
pub(crate) fn diagnose_in(
    graph: &Graph,
    model: &LogicalModel,
    estimates: &[Estimate],
) -> Vec<Diagnostic> {
    let reuse = Reuse {
        table: &|_| None,
        schema: None,
        input_gaps: None,
        hints: &|_| None,
        users: None,
    };
    diagnose_reusing(graph, model, estimates, reuse).diagnostics
}

/// The schema's findings (stated counts that contradict each other). They
/// read the entities, relationships and their numbers alone, never the
/// derived model, so they can be made before it exists.
pub(crate) fn schema_findings(graph: &Graph) -> SchemaFindings {
    let no_model = LogicalModel::default();
    let no_users = PlansByTable::default();
    let ctx = Ctx {
        project: graph.project,
        model: &no_model,
        estimates: &[],
        graph,
        est: Estimator::new(graph),
        users: Users::Given(&no_users),
    };
    let mut contradictions = Vec::new();
    counts::contradictions(&ctx, &mut contradictions);
    SchemaFindings::new(contradictions)
}

/// The findings of the rules that judge one table by itself, in the order
/// the review makes them. They read the table, its position and
/// estimate, the schema (graph, estimator, thresholds, types), the queries
/// whose plans use the table and those it names (origin, served), and the
/// origin's decision: nothing else (`analysis::incremental` reuses them
/// when all of that is unchanged).
///
/// Kept for every table of a large project while it is open, and most
/// tables have none: one exact list, rule group after rule group.
#[derive(Clone, Debug, Default)]
pub(crate) struct TableFindings(std::sync::Arc<Parts<Diagnostic, 4>>);

impl TableFindings {
    /// The findings of the four rule groups about table `i`.
    fn judge(ctx: &Ctx, types: &schema::Types, i: usize) -> TableFindings {
        let mut groups = Parts::builder(0);
        partition::table(ctx, i, groups.items());
        groups.end_part();
        counts::defaults(ctx, i, groups.items());
        groups.end_part();
        keys::table(ctx, i, groups.items());
        groups.end_part();
        schema::table(ctx, types, i, groups.items());
        physical::table(ctx, i, groups.items());
        groups.end_part();
        TableFindings(std::sync::Arc::new(groups.finish()))
    }

    /// Group `g` (0 partition, 1 defaults, 2 keys, 3 schema).
    fn group(&self, g: usize) -> &[Diagnostic] {
        self.0.part(g)
    }

    /// Group `g` of every table's findings, table after table.
    fn gather<'a>(tables: &'a [TableFindings], g: usize, all: &mut Vec<&'a Diagnostic>) {
        for f in tables {
            all.extend(f.group(g));
        }
    }

    /// Findings in all groups.
    fn len(&self) -> usize {
        self.0.len()
    }
}

/// Findings that read the schema alone (entities, relationships and
/// their figures): contradicting counts.
///
/// Shared (the next edit's review takes them as they are) and kept with
/// their report order worked out: a review merges them in rather than
/// sorting them again.
#[derive(Clone, Debug, Default)]
pub(crate) struct SchemaFindings(std::sync::Arc<Presorted>);

impl SchemaFindings {
    fn new(contradictions: Vec<Diagnostic>) -> SchemaFindings {
        SchemaFindings(std::sync::Arc::new(Presorted::new(contradictions)))
    }
}

/// Findings with their positions in report order and order keys.
#[derive(Debug, Default)]
struct Presorted {
    findings: Vec<Diagnostic>,
    /// Report order (stable): (order key, position in `findings`).
    order: Vec<(u128, usize)>,
}

impl Presorted {
    fn new(findings: Vec<Diagnostic>) -> Presorted {
        let order = report_positions(&findings.iter().collect::<Vec<_>>());
        Presorted { findings, order }
    }
}

/// The findings of the review's rules over every table or the whole
/// schema (workload, write paths, entities, types, full scans).
#[derive(Default)]
struct OverAll {
    workload: Vec<Diagnostic>,
    writes: Vec<Diagnostic>,
    entities: Vec<Diagnostic>,
    types: Vec<Diagnostic>,
    scans: Vec<Diagnostic>,
}

/// What an earlier review may give back instead of judging again.
pub(crate) struct Reuse<'a> {
    /// Table `i`'s own findings, when nothing they read changed.
    pub table: &'a (dyn Fn(usize) -> Option<TableFindings> + Sync),
    /// The schema's findings, when the schema is unchanged.
    pub schema: Option<SchemaFindings>,
    /// The input-gap findings, when worked out already (`input_gaps`,
    /// which reuses the earlier ones of queries whose inputs are unchanged).
    pub input_gaps: Option<Vec<Diagnostic>>,
    /// Table `i`'s merge hint (`Some(None)`: it has none), when nothing it
    /// reads changed (see `derive::share::merge_hints_reusing`).
    pub hints: &'a (dyn Fn(usize) -> Option<Hint> + Sync),
    /// The plans reading each table, when the caller has them.
    pub users: Option<&'a PlansByTable>,
}

/// A review with the parts it may reuse kept apart.
pub(crate) struct Reviewed {
    pub diagnostics: Vec<Diagnostic>,
    /// Parallel to `model.tables`.
    pub tables: Vec<TableFindings>,
    pub schema: SchemaFindings,
    /// Parallel to `model.tables`: each table's merge hint.
    pub hints: Vec<Hint>,
}

/// [`diagnose_in`], taking each table's [`TableFindings`] and the
/// [`SchemaFindings`] from `reuse` when it has them.
/// The order of a review: severity, subject, rule, message (a stable sort
/// keeps the rules' order among findings equal in all four).
fn report_order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
    a.severity
        .cmp(&b.severity)
        .then_with(|| a.subject.cmp(&b.subject))
        .then(a.rule.cmp(b.rule))
        .then_with(|| a.message().cmp(b.message()))
}

/// The start of [`report_order`] as one number: severity, the subject's
/// kind, then the first 14 bytes of its text (zero-padded, so a prefix
/// sorts first, as in `str`'s order). Two findings in report order never
/// have their keys the other way round, so sorting by the key and then by
/// [`report_order`] is sorting by [`report_order`]; most comparisons stop
/// at the key, without reading the two findings.
fn order_key(d: &Diagnostic) -> u128 {
    // Declaration order is the derived `Ord`'s order of the variants.
    let (kind, text): (u8, &str) = match &d.subject {
        Subject::Project => (0, ""),
        Subject::Entity(n) => (1, n),
        Subject::Attribute { item, .. } => (2, item),
        Subject::Relationship(n) => (3, n),
        Subject::Query(n) => (4, n),
        Subject::Table(n) => (5, n),
        Subject::Column { table, .. } => (6, table),
        Subject::Path(p) => (7, p),
    };
    let mut bytes = [0u8; 16];
    bytes[0] = d.severity as u8;
    bytes[1] = kind;
    let text = text.as_bytes();
    let n = text.len().min(14);
    bytes[2..2 + n].copy_from_slice(&text[..n]);
    u128::from_be_bytes(bytes)
}

/// `findings` sorted by [`report_order`] (stably), each run of equal
/// findings kept once: [`in_report_order_merging`] with nothing to merge
/// (the order the tests check it against).
#[cfg(test)]
fn in_report_order(findings: &[&Diagnostic]) -> Vec<Diagnostic> {
    in_report_order_merging(findings, findings.len(), &Presorted::default())
}

/// The positions of `findings` in report order (stable), with their order
/// keys. A finding is large and a large project has thousands: their
/// positions are sorted with their [`order_key`], on both cores.
fn report_positions(findings: &[&Diagnostic]) -> Vec<(u128, usize)> {
    let mut order: Vec<(u128, usize)> = findings
        .iter()
        .enumerate()
        .map(|(i, d)| (order_key(d), i))
        .collect();
    // One thread: the sort is short (a fortieth of a millisecond at 1,000
    // queries, half a millisecond at 10,000), and halves sorted on two
    // cores waited longer for a sleeping helper to wake than they saved.
    order.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| report_order(findings[a.1], findings[b.1]))
    });
    order
}

/// [`in_report_order`] of `findings` with `run`'s findings gathered
/// between `findings[..at]` and `findings[at..]`: the run's order is known
/// already, so it is merged in instead of sorted again.
fn in_report_order_merging(
    findings: &[&Diagnostic],
    at: usize,
    run: &Presorted,
) -> Vec<Diagnostic> {
    let order = report_positions(findings);
    // Merged: on findings equal in report order, the one gathered first
    // goes first (the run comes after `findings[..at]`).
    let mut merged: Vec<(u128, &Diagnostic)> = Vec::with_capacity(order.len() + run.order.len());
    let mut mine = order.iter().peekable();
    let mut theirs = run.order.iter().peekable();
    loop {
        let take_mine = match (mine.peek(), theirs.peek()) {
            (Some(&&(ka, a)), Some(&&(kb, b))) => match ka
                .cmp(&kb)
                .then_with(|| report_order(findings[a], &run.findings[b]))
            {
                std::cmp::Ordering::Less => true,
                std::cmp::Ordering::Greater => false,
                std::cmp::Ordering::Equal => a < at,
            },
            (Some(_), None) => true,
            (None, Some(_)) => false,
            (None, None) => break,
        };
        let next = if take_mine {
            mine.next().map(|&(k, i)| (k, findings[i]))
        } else {
            theirs.next().map(|&(k, i)| (k, &run.findings[i]))
        };
        merged.extend(next);
    }
    // Each run of equal findings kept once. Equal findings have equal
    // keys: only neighbours with the same key are compared whole.
    let mut kept = vec![true; merged.len()];
    for (i, pair) in merged.windows(2).enumerate() {
        if pair[0].0 == pair[1].0 && pair[0].1 == pair[1].1 {
            kept[i + 1] = false;
        }
    }
    // Sized exactly: the review is kept as long as the analysis.
    let mut sorted = Vec::with_capacity(kept.iter().filter(|&&k| k).count());
    sorted.extend(
        merged
            .iter()
            .zip(&kept)
            .filter(|(_, &k)| k)
            .map(|((_, d), _)| (*d).clone()),
    );
    sorted
}

/// The review after an edit that changed the workflow and nothing else the
/// review reads: `previous` is the review of the same model, estimates and
/// schema. Only the workflow's rules run again; their findings are merged
/// into the others in report order. Rule ids never overlap between the two
/// groups, so the result is what [`diagnose_in`] gives.
pub(crate) fn rediagnose_workflow(
    graph: &Graph,
    model: &LogicalModel,
    estimates: &[Estimate],
    previous: &[Diagnostic],
    earlier: Option<&workflow::Earlier>,
) -> Vec<Diagnostic> {
    let ctx = Ctx {
        project: graph.project,
        model,
        estimates,
        graph,
        est: Estimator::new(graph),
        users: Users::Lazy(std::sync::OnceLock::new()),
    };
    let mut flow = Vec::new();
    workflow::check(&ctx, &mut flow);
    flow.extend(workflow::input_gaps(graph, earlier));
    flow.sort_by(report_order);
    flow.dedup();
    // Sized exactly: the review is kept as long as the analysis.
    let others = || {
        previous
            .iter()
            .filter(|d| !workflow::RULES.contains(&d.rule))
    };
    let mut out = Vec::with_capacity(others().count() + flow.len());
    let mut flow = flow.into_iter().peekable();
    for d in others() {
        while let Some(f) = flow.next_if(|f| report_order(f, d).is_lt()) {
            out.push(f);
        }
        out.push(d.clone());
    }
    out.extend(flow);
    out
}

pub(crate) fn diagnose_reusing(
    graph: &Graph,
    model: &LogicalModel,
    estimates: &[Estimate],
    reuse: Reuse,
) -> Reviewed {
    let project = graph.project;
    let types = schema::Types::new(&project.types);
    let Reuse {
        table: reuse_table,
        schema: reuse_schema,
        input_gaps,
        hints: reuse_hints,
        users: given_users,
    } = reuse;
    // Made once for every thread's rules (most read it).
    let made;
    let users = if let Some(u) = given_users {
        u
    } else {
        made = model.plans_by_table();
        &made
    };
    let thread_ctx = || Ctx {
        project,
        model,
        estimates,
        graph,
        est: Estimator::new(graph),
        users: Users::Given(users),
    };
    let ctx = thread_ctx();
    // Each table's own findings: the kept ones, and the others judged.
    let mut kept: Vec<Option<TableFindings>> = (0..model.tables.len()).map(reuse_table).collect();
    let todo: Vec<usize> = (0..kept.len()).filter(|&i| kept[i].is_none()).collect();
    let schema_findings = reuse_schema.unwrap_or_else(|| schema_findings(graph));
    let mut flow = Vec::new();
    workflow::check(&ctx, &mut flow);
    flow.extend(input_gaps.unwrap_or_else(|| workflow::input_gaps(graph, None)));
    let hints = merge_hints_reusing(graph, model, reuse_hints);
    let mut shareable = Vec::new();
    sharing::check(&ctx, &hints, &mut shareable);
    let judged: Vec<TableFindings> = todo
        .iter()
        .map(|&i| TableFindings::judge(&ctx, &types, i))
        .collect();
    // The rules over every table or the whole schema.
    let mut over_all = OverAll::default();
    workload::check(&ctx, &mut over_all.workload);
    writes::check(&ctx, &mut over_all.writes);
    partition::entities(&ctx, &mut over_all.entities);
    schema::types(&ctx, &types, &mut over_all.types);
    schema::full_scans(&ctx, &mut over_all.scans);
    for (&i, f) in todo.iter().zip(judged) {
        kept[i] = Some(f);
    }
    let tables: Vec<TableFindings> = kept.into_iter().flatten().collect();
    let OverAll {
        workload,
        writes,
        entities,
        types: types_found,
        scans,
    } = over_all;
    let problems: Vec<Diagnostic> = model
        .problems
        .iter()
        .map(|p| {
            ctx.diag(
                "derivation",
                Subject::Path(p.path.clone()),
                p.message.clone(),
                "Correct the reference or the decision in the project.".into(),
            )
        })
        .collect();
    // Gathered by reference in the order of rule by rule over every table
    // (a stable sort keeps it among findings that compare equal), and
    // copied once, in report order.
    let gathered = problems.len()
        + tables.iter().map(TableFindings::len).sum::<usize>()
        + entities.len()
        + types_found.len()
        + scans.len()
        + workload.len()
        + writes.len()
        + flow.len()
        + shareable.len();
    let mut all: Vec<&Diagnostic> = Vec::with_capacity(gathered);
    all.extend(&problems);
    TableFindings::gather(&tables, 0, &mut all);
    all.extend(&entities);
    TableFindings::gather(&tables, 1, &mut all);
    // The contradictions, sorted already, are merged in at this point of
    // the gathering order.
    let before_schema = all.len();
    TableFindings::gather(&tables, 2, &mut all);
    all.extend(&types_found);
    TableFindings::gather(&tables, 3, &mut all);
    all.extend(&scans);
    all.extend(&workload);
    all.extend(&writes);
    all.extend(&flow);
    all.extend(&shareable);
    let out = in_report_order_merging(&all, before_schema, &schema_findings.0);
    drop(all);
    Reviewed {
        diagnostics: out,
        tables,
        schema: schema_findings,
        hints,
    }
}

impl Subject {
    /// The path in the project file of the item a finding is about. Tables do not appear in
    /// the file: they point at the decision of the query that built them,
    /// or at that query.
    pub fn path(&self, project: &Project, model: &LogicalModel) -> String {
        let entity = |name: &str| {
            project
                .entities
                .iter()
                .position(|e| e.name == name)
                .map(|i| format!("entities[{i}]"))
        };
        let relationship = |name: &str| {
            project
                .relationships
                .iter()
                .position(|r| r.name == name)
                .map(|i| format!("relationships[{i}]"))
        };
        let query = |id: &str| {
            project
                .queries
                .iter()
                .position(|q| q.id == id)
                .map(|i| format!("queries[{i}]"))
        };
        let table = |name: &str| {
            let origin = model.table(name).map(|t| t.origin.as_str())?;
            project
                .decisions
                .iter()
                .position(|d| d.query == origin)
                .map(|i| format!("decisions[{i}]"))
                .or_else(|| query(origin))
        };
        let found = match self {
            Subject::Project => None,
            Subject::Entity(e) => entity(e),
            Subject::Relationship(r) => relationship(r),
            Subject::Query(q) => query(q),
            Subject::Table(t) | Subject::Column { table: t, .. } => table(t),
            Subject::Attribute { item, attribute } => {
                if let Some(i) = project.entities.iter().position(|e| &e.name == item) {
                    let j = project.entities[i]
                        .attributes
                        .iter()
                        .position(|a| &a.name == attribute);
                    Some(match j {
                        Some(j) => format!("entities[{i}].attributes[{j}]"),
                        None => format!("entities[{i}]"),
                    })
                } else if let Some(i) = project.relationships.iter().position(|r| &r.name == item) {
                    let j = project.relationships[i]
                        .attributes
                        .iter()
                        .position(|a| &a.name == attribute);
                    Some(match j {
                        Some(j) => format!("relationships[{i}].attributes[{j}]"),
                        None => format!("relationships[{i}]"),
                    })
                } else {
                    None
                }
            }
            Subject::Path(p) => Some(p.clone()),
        };
        found.unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Findings with subjects that share long prefixes, one text a prefix
    /// of another, a NUL byte, text beyond ASCII, every kind of subject and
    /// severity, findings equal in report order and repeated ones.
    fn random_findings() -> Vec<Diagnostic> {
        let texts = [
            "",
            "a",
            "a\0",
            "ab",
            "abcdefghijklmn",
            "abcdefghijklmnop",
            "abcdefghijklmnoq",
            "abcdefghijklmno",
            "z",
            "é",
            "e\u{301}",
        ];
        let mut findings = Vec::new();
        let mut seed = 0x9e37_79b9_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            usize::try_from(seed % n as u64).unwrap_or(0)
        };
        for i in 0..2_000 {
            let t = || Name::from(texts[i % texts.len()]);
            let subject = match next(8) {
                0 => Subject::Project,
                1 => Subject::Entity(t()),
                2 => Subject::Attribute {
                    item: t(),
                    attribute: Name::from(texts[next(texts.len())]),
                },
                3 => Subject::Relationship(t()),
                4 => Subject::Query(t()),
                5 => Subject::Table(t()),
                6 => Subject::Column {
                    table: t(),
                    column: texts[next(texts.len())].to_string(),
                },
                _ => Subject::Path(texts[i % texts.len()].to_string()),
            };
            let mut d = finding(
                ["no-workflow", "workflow-input-gap"][next(2)],
                subject,
                Words::ready(format!("m{}", next(3)), format!("fix {i}")),
            );
            d.severity = [Severity::Error, Severity::Warning, Severity::Hint][next(3)];
            findings.push(d);
        }
        // Repeats: some next to their twin, some far from it, some thrice.
        for i in (0..findings.len()).step_by(7) {
            let twin = findings[i].clone();
            let at = (i * 31) % findings.len();
            findings.insert(at, twin.clone());
            if i % 3 == 0 {
                findings.push(twin);
            }
        }
        findings
    }

    /// Sorting by the key first gives exactly the stable sort by
    /// [`report_order`] with repeats dropped: subjects that share a long
    /// prefix, one text a prefix of another, a NUL byte, text beyond ASCII,
    /// every kind of subject and severity, findings equal in report order
    /// (kept in their order) and findings repeated (kept once).
    #[test]
    fn the_order_key_sorts_as_the_report_order() {
        let findings = random_findings();
        let mut expected = findings.clone();
        expected.sort_by(report_order);
        expected.dedup();
        let got = in_report_order(&findings.iter().collect::<Vec<_>>());
        let fixes = |v: &[Diagnostic]| v.iter().map(|d| d.fix().to_string()).collect::<Vec<_>>();
        assert_eq!(fixes(&got), fixes(&expected));
    }

    /// A run sorted beforehand (the schema's findings) and merged in at its
    /// place in the gathering gives exactly the sort of everything: equal
    /// findings on either side keep the gathering order, repeats across
    /// the two are kept once. Runs at the start, in the middle, at the end,
    /// empty and whole.
    #[test]
    fn a_presorted_run_merges_in_as_if_sorted_with_the_rest() {
        let findings = random_findings();
        let n = findings.len();
        let fixes = |v: &[Diagnostic]| v.iter().map(|d| d.fix().to_string()).collect::<Vec<_>>();
        let mut expected = findings.clone();
        expected.sort_by(report_order);
        expected.dedup();
        for (from, to) in [
            (0, n / 3),
            (n / 4, n / 2),
            (n / 2, n),
            (n / 3, n / 3),
            (0, n),
        ] {
            let run = Presorted::new(findings[from..to].to_vec());
            let rest: Vec<&Diagnostic> = findings[..from].iter().chain(&findings[to..]).collect();
            let got = in_report_order_merging(&rest, from, &run);
            assert_eq!(fixes(&got), fixes(&expected), "run {from}..{to}");
        }
    }

    /// `rediagnose_workflow` relies on the workflow's rules reporting under
    /// their own ids only; a workflow-only edit then re-reviews exactly
    /// what a full review would.
    #[test]
    fn workflow_rules_report_under_their_own_ids_and_merge_back_in_order() {
        let mut kept_some = false;
        for sample in crate::samples::SAMPLES {
            let mut p = crate::model::load::from_str(sample.text).expect("sample loads");
            let graph = Graph::new(&p);
            let model = crate::derive::derive_in(&graph);
            let estimates = crate::derive::estimate::estimate_in(&graph, &model);
            let ctx = Ctx {
                project: &p,
                model: &model,
                estimates: &estimates,
                graph: &graph,
                est: Estimator::new(&graph),
                users: Users::Lazy(std::sync::OnceLock::new()),
            };
            let mut flow = Vec::new();
            workflow::check(&ctx, &mut flow);
            flow.extend(workflow::input_gaps(&graph, None));
            assert!(
                flow.iter().all(|d| workflow::RULES.contains(&d.rule)),
                "{}",
                sample.file
            );
            let before = diagnose_in(&graph, &model, &estimates);
            drop(ctx);
            drop(graph);
            // Drop the entry points: the workflow findings change.
            let old = p.clone();
            p.workflow.entry.clear();
            let graph = Graph::new(&p);
            let full = diagnose_in(&graph, &model, &estimates);
            assert_eq!(
                rediagnose_workflow(&graph, &model, &estimates, &before, None),
                full,
                "{}",
                sample.file
            );
            // Keeping the findings of the queries whose inputs did not
            // change gives the same review (while a workflow is still
            // stated: without one nothing can be kept).
            let Some(dirty) = workflow::changed_inputs(&old, &p) else {
                assert!(p.workflow.transitions.is_empty(), "{}", sample.file);
                continue;
            };
            kept_some = true;
            let earlier = workflow::Earlier {
                findings: &before,
                dirty,
            };
            assert_eq!(
                rediagnose_workflow(&graph, &model, &estimates, &before, Some(&earlier)),
                full,
                "{}",
                sample.file
            );
        }
        assert!(kept_some, "some sample keeps its transitions");
    }

    #[test]
    fn rule_ids_are_unique_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for r in RULES {
            assert!(seen.insert(r.id), "duplicate {}", r.id);
            assert!(
                r.id.chars().all(|c| c.is_ascii_lowercase() || c == '-'),
                "{}",
                r.id
            );
            assert!(!r.source.is_empty() && !r.title.is_empty());
        }
    }
}
