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
pub(crate) use workflow::states_workflow;
mod waivers;
pub use waivers::{apply as apply_waivers, STALE as STALE_WAIVER};
mod words;
mod workload;
mod writes;

pub use keys::missing_key;
pub use partition::fits;
pub(crate) use partition::{
    bucket_source, choose_bucket_for, extra_name as partition_extra_name, named_period,
    proposed_bucket, DEFAULT_SHARDS,
};
pub use schema::INVALID_CQL;

use crate::derive::estimate::{Estimate, Estimator};
use crate::derive::share::{hints_by_table, Hint};
use crate::derive::{LogicalModel, PlansByTable, Source, Table};
use crate::model::name::Name;
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
    /// The designer's waiver of this finding, when there is one: the
    /// finding is still shown, marked waived with the reason, and no
    /// longer fails `check --deny warnings`. Set by [`apply_waivers`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub waived: Option<Box<crate::model::Waiver>>,
}

/// What a rule reads, which decides when an analysis after an edit runs
/// it again (`analysis::incremental`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Scope {
    /// One table: the table, its position and estimate, the queries that
    /// read or name it (with their decisions) and the schema. Run again for
    /// a table only when one of those changed.
    Table,
    /// The entities, relationships, types and their figures alone. Run
    /// again only when they changed.
    Schema,
    /// The workflow and which queries have tables. Run on every analysis,
    /// and the only rules run again after an edit of the workflow alone.
    Workflow,
    /// Across tables, queries and write paths. Run on every analysis.
    Model,
}

/// A rule's documentation: what `cqlmodel check` can report.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct RuleInfo {
    pub id: &'static str,
    pub severity: Severity,
    /// Where the rule looks: most rules one scope; a type rule judges both
    /// a table's columns and the fields of the schema's types.
    pub scopes: &'static [Scope],
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
        scopes: &[Scope::Model],
        title: "A reference or decision the derivation could not honour",
        source: "cqlmodel derivation",
    },
    RuleInfo {
        id: "partition-cell-limit",
        severity: Severity::Error,
        scopes: &[Scope::Table],
        title: "A partition past Cassandra's 2 billion cells",
        source: "Cassandra limit: 2 billion cells per partition (seed 001)",
    },
    RuleInfo {
        id: "partition-too-large",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "Values or bytes per partition over the project's thresholds",
        source: "Apache Cassandra docs partition sizing; 100,000 values / 100 MB rule of thumb (seed 001: wide, not too wide)",
    },
    RuleInfo {
        id: "unbounded-partition",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "Rows per partition grow with time, bounded by neither a time bucket nor a TTL",
        source: SEED_000,
    },
    RuleInfo {
        id: "estimate-on-defaults",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "A partition estimate that rests on default numbers instead of stated ones",
        source: "Apache Cassandra docs partition sizing (the formulas need the numbers); seed 000 (partition size review)",
    },
    RuleInfo {
        id: "contradicting-counts",
        severity: Severity::Warning,
        scopes: &[Scope::Schema],
        title: "Stated counts that disagree (a child count against parent count × average per parent)",
        source: "Apache Cassandra docs partition sizing (one figure per number)",
    },
    RuleInfo {
        id: "retention-without-ttl",
        severity: Severity::Hint,
        scopes: &[Scope::Model],
        title: "A stated retention that no TTL enforces",
        source: "seed 001 (decide on the proper TTL up front)",
    },
    RuleInfo {
        id: "hot-partition",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "Few partition key values (or a time value alone): writes hit one replica set",
        source: "seed 001 (row key is the shard key; ddmmyyhh hot spots); seed 000 (partition key cardinality)",
    },
    RuleInfo {
        id: "large-value",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "Average cell over 1 MB",
        source: "seed 001 (limit values to a few MB; a value is read whole into heap)",
    },
    RuleInfo {
        id: "large-collection",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "A collection expected to hold more than 64K elements",
        source: "Cassandra limit: 64K elements per collection (native protocol v2); collections are read whole (seed 001)",
    },
    RuleInfo {
        id: "rows-overwrite",
        severity: Severity::Error,
        scopes: &[Scope::Table],
        title: "The primary key does not identify the rows: inserts overwrite each other",
        source: "MR5 (seed 003: a key that defines a unique data element); seed 001 (upserts overwrite silently)",
    },
    RuleInfo {
        id: "twcs-misfit",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "TimeWindow compaction on rows that are deleted, updated, kept or not written in time order",
        source: "Apache Cassandra docs, Time Window Compaction Strategy (for time series written once that expire); The Last Pickle, TWCS: how does it work and when should you use it (2016)",
    },
    RuleInfo {
        id: "expiring-without-twcs",
        severity: Severity::Hint,
        scopes: &[Scope::Table],
        title: "An expiring time series on a strategy that cannot drop whole SSTables",
        source: "Apache Cassandra docs, Time Window Compaction Strategy; seed 000 (changing compaction strategy when reviewing and tuning)",
    },
    RuleInfo {
        id: "lcs-write-heavy",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "Leveled compaction on a table written more than read",
        source: "Apache Cassandra docs, Leveled Compaction Strategy (each row rewritten about once per level); DataStax, When to use leveled compaction (2012: for read-heavy tables, about 90 % reads)",
    },
    RuleInfo {
        id: "gc-grace-too-low",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "gc_grace_seconds under the hint window where deletes or hints need it",
        source: "Apache Cassandra docs, Compaction: tombstones and gc_grace_seconds; cassandra.yaml max_hint_window (3 hours)",
    },
    RuleInfo {
        id: "tombstones",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "Deletes or overwritten collections leave more tombstones per partition than a read should scan",
        source: "Apache Cassandra docs, Compaction: tombstones and gc_grace_seconds; cassandra.yaml tombstone_warn_threshold (1,000) and tombstone_failure_threshold (100,000); The Last Pickle, About deletes and tombstones in Cassandra (2016)",
    },
    RuleInfo {
        id: "materialized-view",
        severity: Severity::Hint,
        scopes: &[Scope::Table],
        title: "A materialized view: experimental, disabled by default since Cassandra 4.0",
        source: "Apache Cassandra docs, Materialized Views (experimental; materialized_views_enabled in cassandra.yaml, off by default since 4.0)",
    },
    RuleInfo {
        id: "timestamp-key",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "A bare timestamp makes rows unique: colliding writers overwrite",
        source: "seed 001 (don't use a timestamp alone as a column key; prefer timeuuid)",
    },
    RuleInfo {
        id: "mutable-key",
        severity: Severity::Warning,
        scopes: &[Scope::Table],
        title: "A key column whose value changes: every change is a delete plus an insert",
        source: "seed 000 (updates of key values; the client status example)",
    },
    RuleInfo {
        id: "queue",
        severity: Severity::Warning,
        scopes: &[Scope::Model],
        title: "A query that consumes and deletes rows from the front of a partition",
        source: "seed 003 (the queue anti-pattern)",
    },
    RuleInfo {
        id: "counter-mixed",
        severity: Severity::Error,
        scopes: &[Scope::Model],
        title: "Counter and non-counter columns in one table",
        source: "Cassandra rule: a counter table holds only counters besides its key",
    },
    RuleInfo {
        id: "counter-as-id",
        severity: Severity::Error,
        scopes: &[Scope::Model],
        title: "A counter used as a key or id",
        source: "seed 001 (counters are no surrogate key generator)",
    },
    RuleInfo {
        id: "counter-retry",
        severity: Severity::Hint,
        scopes: &[Scope::Model],
        title: "Counter increments are not idempotent: retries over-count",
        source: "seed 001 (idempotent writes; counters)",
    },
    RuleInfo {
        id: "query-unservable",
        severity: Severity::Error,
        scopes: &[Scope::Model],
        title: "A query its table cannot answer at all",
        source: "Cassandra CQL restriction rules",
    },
    RuleInfo {
        id: "query-needs-filtering",
        severity: Severity::Warning,
        scopes: &[Scope::Model],
        title: "A query its table answers only with ALLOW FILTERING",
        source: "Cassandra CQL restriction rules",
    },
    RuleInfo {
        id: "index-high-cardinality",
        severity: Severity::Warning,
        scopes: &[Scope::Model],
        title: "A secondary index on a column with many distinct values",
        source: "seed 000 (indexed columns need much lower cardinality than the table)",
    },
    RuleInfo {
        id: "index-frequent-updates",
        severity: Severity::Warning,
        scopes: &[Scope::Model],
        title: "A secondary index on a column that changes",
        source: "seed 000 (mind the update frequency of indexed values)",
    },
    RuleInfo {
        id: "write-amplification",
        severity: Severity::Hint,
        scopes: &[Scope::Model],
        title: "Rows or a changing attribute copied into many tables",
        source: "seed 000 (push-down cost of multiple copies); Cassandra logged batches",
    },
    RuleInfo {
        id: "query-without-table",
        severity: Severity::Error,
        scopes: &[Scope::Workflow],
        title: "A query no table serves",
        source: "seed 003 (one table per query)",
    },
    RuleInfo {
        id: "table-serves-no-query",
        severity: Severity::Warning,
        scopes: &[Scope::Workflow],
        title: "A table that answers none of its queries",
        source: "seed 003 (tables exist for queries)",
    },
    RuleInfo {
        id: "workflow-input-gap",
        severity: Severity::Warning,
        scopes: &[Scope::Workflow],
        title: "A query whose inputs come neither from an entry point nor from a query before it",
        source: "seed 003 (application workflow); seed 000 (access paths)",
    },
    RuleInfo {
        id: "duration-key",
        severity: Severity::Error,
        scopes: &[Scope::Table],
        title: "A duration (or a value holding one) in a primary key",
        source: "Cassandra rule: duration type is not supported for PRIMARY KEY columns",
    },
    RuleInfo {
        id: "duration-in-set",
        severity: Severity::Error,
        scopes: &[Scope::Table, Scope::Schema],
        title: "A set of durations or a map keyed by duration",
        source: "Cassandra rule: durations are not comparable, so not allowed in sets or as map keys",
    },
    RuleInfo {
        id: "counter-nested",
        severity: Severity::Error,
        scopes: &[Scope::Table, Scope::Schema],
        title: "A counter inside a collection, tuple or vector",
        source: "Cassandra rule: counters are only allowed as top-level columns",
    },
    RuleInfo {
        id: "counter-merge",
        severity: Severity::Error,
        scopes: &[Scope::Table],
        title: "A counter table holding non-counter columns (a served_by merge brings them)",
        source: "Cassandra rule: a counter table holds only counters besides its key",
    },
    RuleInfo {
        id: "full-scan",
        severity: Severity::Warning,
        scopes: &[Scope::Model],
        title: "A query with no equality search: its SELECT reads every partition",
        source: "seed 003 (queries answered from one partition); Cassandra CQL restriction rules",
    },
    RuleInfo {
        id: "shareable-table",
        severity: Severity::Hint,
        scopes: &[Scope::Model],
        title: "A query another table would answer directly if it held a few more columns",
        source: "seed 003 (one table may serve several queries); seed 000 (Review & Tune)",
    },
    RuleInfo {
        id: "no-workflow",
        severity: Severity::Hint,
        scopes: &[Scope::Workflow],
        title: "The project states no workflow",
        source: "seed 003 (application workflow)",
    },
    RuleInfo {
        id: waivers::STALE,
        severity: Severity::Warning,
        scopes: &[Scope::Model],
        title: "A waiver whose finding no longer fires",
        source: "cqlmodel review (waivers)",
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
    pub users: &'a PlansByTable,
}

impl<'a> Ctx<'a> {
    /// Positions of the plans that read table `table`, in plan order.
    pub fn plans_reading(&self, table: usize) -> &[usize] {
        self.users.reading(table)
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
        waived: None,
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

/// [`diagnose`] over an already built graph of the project: every rule of
/// every scope, gathered in report order. `analysis::incremental` makes
/// the same review, reusing the scopes an edit left alone.
pub(crate) fn diagnose_in(
    graph: &Graph,
    model: &LogicalModel,
    estimates: &[Estimate],
) -> Vec<Diagnostic> {
    let users = model.plans_by_table();
    let rules = Rules::new(graph, model, estimates, &users);
    let tables: Vec<TableFindings> = (0..model.tables.len()).map(|i| rules.table(i)).collect();
    let (schema, others) = beyond_tables(&rules);
    in_report_order(&tables, &schema, &others)
}

/// The findings of every scope but [`Scope::Table`]: the schema's, and
/// the model's and the workflow's together. [`in_report_order`] gathers
/// them with the tables'.
pub(crate) fn beyond_tables(rules: &Rules) -> (SchemaFindings, Vec<Diagnostic>) {
    let graph = rules.ctx.graph;
    let hints = hints_by_table(graph, rules.ctx.model);
    let mut others = rules.model(&hints);
    others.extend(rules.workflow(None));
    (schema_findings(graph), others)
}

/// The findings of the [`Scope::Schema`] rules: stated counts that
/// contradict each other, and type rules over the schema's own types.
/// They read the entities, relationships, types and their numbers alone,
/// never the derived model, so they can be made before it exists.
pub(crate) fn schema_findings(graph: &Graph) -> SchemaFindings {
    let no_model = LogicalModel::default();
    let no_users = PlansByTable::default();
    let rules = Rules::new(graph, &no_model, &[], &no_users);
    let mut out = Vec::new();
    counts::contradictions(&rules.ctx, &mut out);
    schema::types(&rules.ctx, &rules.types, &mut out);
    SchemaFindings(out.into())
}

/// The findings of the [`Scope::Table`] rules about one table. Shared: an
/// analysis after an edit hands on those of the tables it left alone.
#[derive(Clone, Debug, Default)]
pub(crate) struct TableFindings(std::sync::Arc<[Diagnostic]>);

/// The findings of the [`Scope::Schema`] rules, shared like
/// [`TableFindings`].
#[derive(Clone, Debug, Default)]
pub(crate) struct SchemaFindings(std::sync::Arc<[Diagnostic]>);

/// The rules' inputs for one review, with the rules of each scope.
pub(crate) struct Rules<'a> {
    ctx: Ctx<'a>,
    types: schema::Types<'a>,
}

impl<'a> Rules<'a> {
    pub(crate) fn new(
        graph: &'a Graph<'a>,
        model: &'a LogicalModel,
        estimates: &'a [Estimate],
        users: &'a PlansByTable,
    ) -> Rules<'a> {
        Rules {
            ctx: Ctx {
                project: graph.project,
                model,
                estimates,
                graph,
                est: Estimator::new(graph),
                users,
            },
            types: schema::Types::new(&graph.project.types),
        }
    }

    /// The [`Scope::Table`] rules over table `i`.
    pub(crate) fn table(&self, i: usize) -> TableFindings {
        let ctx = &self.ctx;
        let mut out = Vec::new();
        partition::table(ctx, i, &mut out);
        counts::defaults(ctx, i, &mut out);
        keys::table(ctx, i, &mut out);
        schema::table(ctx, &self.types, i, &mut out);
        physical::table(ctx, i, &mut out);
        TableFindings(out.into())
    }

    /// The [`Scope::Workflow`] rules, the input gaps of the queries
    /// `only` marks (by position; all without it).
    pub(crate) fn workflow(&self, only: Option<&[bool]>) -> Vec<Diagnostic> {
        let mut out = Vec::new();
        workflow::check(&self.ctx, &mut out);
        out.extend(workflow::input_gaps(self.ctx.graph, only));
        out
    }

    /// The [`Scope::Model`] rules, with each table's merge hint (parallel
    /// to the model's tables).
    pub(crate) fn model(&self, hints: &[Hint]) -> Vec<Diagnostic> {
        let ctx = &self.ctx;
        let mut out: Vec<Diagnostic> = ctx
            .model
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
        partition::entities(ctx, &mut out);
        schema::full_scans(ctx, &mut out);
        workload::check(ctx, &mut out);
        writes::check(ctx, &mut out);
        sharing::check(ctx, hints, &mut out);
        out
    }
}

/// The order of a review: severity, subject, rule, message (a stable sort
/// keeps the rules' order among findings equal in all four).
pub(crate) fn report_order(a: &Diagnostic, b: &Diagnostic) -> std::cmp::Ordering {
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

/// The review: the findings of every scope in report order (stable: the
/// tables' first, then the schema's, then `others`), each run of equal
/// findings kept once.
pub(crate) fn in_report_order(
    tables: &[TableFindings],
    schema: &SchemaFindings,
    others: &[Diagnostic],
) -> Vec<Diagnostic> {
    let all: Vec<&Diagnostic> = tables
        .iter()
        .flat_map(|t| t.0.iter())
        .chain(schema.0.iter())
        .chain(others)
        .collect();
    sorted(&all)
}

/// `findings` sorted by [`report_order`] (stably), each run of equal
/// findings kept once. Positions are sorted with their [`order_key`]: a
/// finding is large and a large project has thousands.
fn sorted(findings: &[&Diagnostic]) -> Vec<Diagnostic> {
    let mut order: Vec<(u128, usize)> = findings
        .iter()
        .enumerate()
        .map(|(i, d)| (order_key(d), i))
        .collect();
    order.sort_by(|a, b| {
        a.0.cmp(&b.0)
            .then_with(|| report_order(findings[a.1], findings[b.1]))
    });
    order.dedup_by(|b, a| a.0 == b.0 && findings[a.1] == findings[b.1]);
    order.iter().map(|&(_, i)| findings[i].clone()).collect()
}

impl Subject {
    /// The item for people (`table hotels_by_poi`, `Hotel.name`): what
    /// reports show and waivers name.
    pub fn label(&self) -> String {
        match self {
            Subject::Project => "project".into(),
            Subject::Entity(e) => format!("entity {e}"),
            Subject::Attribute { item, attribute } => format!("{item}.{attribute}"),
            Subject::Relationship(r) => format!("relationship {r}"),
            Subject::Query(q) => format!("query {q}"),
            Subject::Table(t) => format!("table {t}"),
            Subject::Column { table, column } => format!("{table}.{column}"),
            Subject::Path(p) => p.clone(),
        }
    }

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
        let got = sorted(&findings.iter().collect::<Vec<_>>());
        let fixes = |v: &[Diagnostic]| v.iter().map(|d| d.fix().to_string()).collect::<Vec<_>>();
        assert_eq!(fixes(&got), fixes(&expected));
    }

    /// Each scope's rules report only under rules that declare that
    /// scope, and every declared scope is one the rule reports in: the
    /// engine reuses findings by scope, so a finding in the wrong group
    /// would go stale after an edit.
    #[test]
    fn every_rule_reports_in_exactly_its_declared_scopes() {
        use std::collections::BTreeSet;
        let mut projects: Vec<Project> = crate::samples::SAMPLES
            .iter()
            .map(|s| crate::model::load::from_str(s.text).expect("sample loads"))
            .collect();
        projects.extend((0..4).map(|seed| crate::model::synthetic::project(12, 40, seed)));
        let mut seen: BTreeSet<(&str, &str)> = BTreeSet::new();
        for p in &projects {
            let graph = Graph::new(p);
            let model = crate::derive::derive_in(&graph);
            let estimates = crate::derive::estimate::estimate_in(&graph, &model);
            let users = model.plans_by_table();
            let rules = Rules::new(&graph, &model, &estimates, &users);
            let hints = hints_by_table(&graph, &model);
            let groups: [(Scope, Vec<Diagnostic>); 4] = [
                (
                    Scope::Table,
                    (0..model.tables.len())
                        .flat_map(|i| rules.table(i).0.to_vec())
                        .collect(),
                ),
                (Scope::Schema, schema_findings(&graph).0.to_vec()),
                (Scope::Workflow, rules.workflow(None)),
                (Scope::Model, rules.model(&hints)),
            ];
            for (scope, found) in &groups {
                for d in found {
                    let info = rule(d.rule).expect("a listed rule");
                    assert!(
                        info.scopes.contains(scope),
                        "{} reported in scope {scope:?}, declares {:?}",
                        d.rule,
                        info.scopes
                    );
                    seen.insert((d.rule, scope_name(*scope)));
                }
            }
        }
        // Rules with two scopes were seen in both somewhere, so the list
        // is not wider than the code (checked where the corpus shows it).
        for r in RULES.iter().filter(|r| r.scopes.len() > 1) {
            for s in r.scopes {
                if seen.iter().any(|(id, _)| *id == r.id) {
                    assert!(
                        seen.contains(&(r.id, scope_name(*s))),
                        "{} declares {s:?} but never reports there",
                        r.id
                    );
                }
            }
        }
        assert!(seen.len() > 10, "the corpus fires many rules: {seen:?}");
    }

    fn scope_name(s: Scope) -> &'static str {
        match s {
            Scope::Table => "table",
            Scope::Schema => "schema",
            Scope::Workflow => "workflow",
            Scope::Model => "model",
        }
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
