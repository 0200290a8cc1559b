//! The values the derivation makes and every later step reads: tables,
//! columns and why each column is where it is, plans and the access each
//! gives. Types only, so the steps (build, estimate, serve, the review)
//! share them without importing each other.

use crate::model::name::Name;
use crate::model::quantity::{group_digits, human_bytes};
use crate::model::resolve::Reached;
use crate::model::validate::Problem;
use crate::model::AggregateFn;
use crate::model::CqlType;
use crate::model::Period;
use crate::model::Query;
use crate::model::Shared;
use crate::model::{Dir, RangeOp};
use serde::{Serialize, Serializer};
use std::fmt;
use std::ops::Deref;

/// Why a column is where it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Rule {
    /// MR2: an equality search attribute, in the partition key.
    Equality,
    /// MR2: an equality search attribute kept as a leading clustering
    /// column (a filter within a small partition).
    Filter,
    /// MR3: the range search attribute, first clustering column after them.
    Range,
    /// MR4: an ordering attribute, clustering with its direction.
    Order,
    /// MR5: a key attribute of the rows appended so every row is unique.
    Key,
    /// MR5: a declared unique identifier the table holds, appended instead
    /// of the (surrogate) key.
    Identifier,
    /// A returned attribute, stored as a regular (or static) column.
    Returned,
    /// A designer's time bucket in the partition key.
    Bucket,
    /// MR2: an equality on a calendar part of a time (the day of `ts`),
    /// a bucket column in the partition key.
    Calendar,
    /// A designer's shard number in the partition key.
    Shard,
    /// A partition key column added because the query searches nothing.
    WholeTable,
    /// Rows pushed up into one collection per partition.
    Collection,
    /// Added so that a merged query's returned attributes are present.
    Merged,
    /// Set by a hand-written candidate primary key.
    Candidate,
    /// An equality on a constant the query states, bound in the SELECT:
    /// placed like a filter (a leading clustering column while the
    /// partition stays small, else the partition key; alone, the partition).
    Constant,
    /// An aggregate's time window (a day or hour of a timestamp): one row
    /// per group and window.
    Window,
    /// An aggregate of the group's rows (count, sum, min, max, avg).
    Aggregate,
}

impl Rule {
    pub fn label(self) -> &'static str {
        match self {
            Rule::Equality => "MR2 equality search → partition key",
            Rule::Filter => "MR2 equality search → leading clustering column (filter)",
            Rule::Range => "MR3 range search → clustering",
            Rule::Order => "MR4 ordering → clustering",
            Rule::Key => "MR5 key of the rows → clustering (uniqueness)",
            Rule::Identifier => "MR5 unique identifier of the rows → clustering (uniqueness)",
            Rule::Returned => "returned attribute",
            Rule::Bucket => "decision: time bucket",
            Rule::Calendar => "MR2 equality on a calendar part of a time → partition key (bucket)",
            Rule::Shard => "decision: shard",
            Rule::WholeTable => "no equality search: one constant partition",
            Rule::Collection => "decision: rows pushed up into a collection",
            Rule::Merged => "returned by a merged query",
            Rule::Candidate => "decision: candidate primary key",
            Rule::Constant => "constant equality → clustering or partition, by the estimates",
            Rule::Window => "aggregate window → clustering (one row per window)",
            Rule::Aggregate => "aggregate of the group's rows",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub enum Role {
    Partition,
    Clustering(Dir),
    Static,
    Regular,
}

impl Role {
    pub fn is_key(self) -> bool {
        matches!(self, Role::Partition | Role::Clustering(_))
    }

    /// The Chebotko marker: K, C↑, C↓, S or blank.
    pub fn marker(self) -> &'static str {
        match self {
            Role::Partition => "K",
            Role::Clustering(Dir::Asc) => "C↑",
            Role::Clustering(Dir::Desc) => "C↓",
            Role::Static => "S",
            Role::Regular => "",
        }
    }
}

/// What a column holds.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Source {
    /// An attribute, reached from the rows along a relationship path.
    Attr {
        #[serde(skip)]
        reached: Reached,
        /// `Entity.attr`, for people.
        attribute: Name,
        /// How the data got here: own, push-down (parent), push-up (child).
        flow: Flow,
    },
    Bucket {
        source: String,
        period: Period,
    },
    Shard {
        count: u32,
    },
    Constant,
    /// An aggregate of the rows of each group and window, kept by counter
    /// increments or by the application or a job.
    Aggregate {
        function: AggregateFn,
        /// `Entity.attr` aggregated; none for a count of rows.
        of: Option<String>,
    },
    /// Former rows of the partition, as one collection.
    Collection {
        columns: Vec<String>,
    },
}

impl Source {
    /// How the application computes a column that holds no attribute as
    /// stored, for the derive report and the CQL comments; names from the
    /// project are returned as written (the caller sanitizes or quotes).
    pub(crate) fn computation(&self) -> Option<String> {
        match self {
            Source::Attr { .. } | Source::Collection { .. } => None,
            Source::Bucket { source, period } => Some(match period {
                Period::Hour => format!("the hour of {source}, truncated to the hour (UTC)"),
                Period::Day => format!("the day of {source} (UTC date)"),
                p => format!("the first day of the {} of {source} (UTC date)", p.name()),
            }),
            Source::Shard { count } => Some(format!(
                "a shard number 0..{} the application picks (e.g. a hash of the row's key modulo {count}); a read asks every shard",
                count.saturating_sub(1)
            )),
            Source::Constant => {
                Some("always 0: one partition for the whole table (a hot spot)".into())
            }
            Source::Aggregate { function, of } => {
                let what = match (function, of) {
                    (AggregateFn::Count, None) => "number of rows".to_string(),
                    (f, Some(a)) => format!("{} of {a}", f.name()),
                    (f, None) => f.name().to_string(),
                };
                Some(format!("{what} per primary key (group and window)"))
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Flow {
    Own,
    PushDown,
    PushUp,
}

impl Flow {
    pub fn label(self) -> &'static str {
        match self {
            Flow::Own => "attribute of the rows",
            Flow::PushDown => "pushed down from a parent (one per row)",
            Flow::PushUp => "pushed up from a child (many per row)",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Column {
    pub name: Name,
    pub ty: CqlType,
    pub role: Role,
    pub rule: Rule,
    /// Why the rule put the column where it is, when the rule alone does
    /// not say (the figures behind an equality attribute's placement).
    /// Kept as data and worded when shown (stored as its words); boxed, as
    /// most columns have none.
    #[serde(
        skip_serializing_if = "Option::is_none",
        serialize_with = "serialize_why"
    )]
    pub why: Option<Box<Why>>,
    /// The query whose derivation placed the column.
    pub query: Name,
    pub source: Source,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Table {
    pub name: Name,
    /// The entity or relationship whose instances are the rows.
    pub rows: Name,
    /// Shared with the draft kept for the next edit (the query ids the
    /// table answers rarely change with an edit).
    pub queries: Shared<Vec<Name>>,
    /// Shared with the table's draft kept for the next edit (see
    /// `analysis::incremental`) until either changes it.
    pub columns: Shared<Vec<Column>>,
    pub indexes: Vec<String>,
    /// `default_time_to_live`, from the rows' retention when `ttl` is set.
    pub ttl_seconds: Option<u64>,
    /// The table's physical options with where each comes from.
    pub physical: Physical,
    /// Columns left out because a counter table may hold only counters.
    pub dropped: Vec<String>,
    /// The candidate key in use, if any.
    pub candidate: Option<String>,
    /// The query that built this table.
    pub origin: Name,
    /// Attributes pushed up into a collection column, with that column's
    /// name: a query returning them reads the collection.
    #[serde(skip)]
    pub collected: Vec<(Reached, Name)>,
}

impl Column {
    /// The rule that placed the column, with its figures when it has any.
    pub fn reason(&self) -> String {
        match &self.why {
            None => self.rule.label().to_string(),
            Some(why) => format!("{}: {why}", self.rule.label()),
        }
    }

    /// [`Column::why`] in words, empty when the rule says it all.
    pub fn why_text(&self) -> String {
        self.why
            .as_ref()
            .map(ToString::to_string)
            .unwrap_or_default()
    }
}

impl Table {
    /// A query's table before any column (`columns` is empty, made at the
    /// size it will have): named later, serving the query.
    pub(crate) fn for_query(q: &Query, id: Name, columns: Vec<Column>) -> Table {
        // Every field spelled out: `..Table::default()` would make (and
        // drop) a list for the queries and two empty names.
        Table {
            name: Name::default(),
            rows: Name::from(&q.rows),
            queries: vec![id.clone()].into(),
            columns: Shared::new(columns),
            indexes: Vec::new(),
            ttl_seconds: None,
            physical: Physical::default(),
            dropped: Vec::new(),
            candidate: None,
            origin: id,
            collected: Vec::new(),
        }
    }

    pub fn column(&self, name: &str) -> Option<&Column> {
        self.columns.iter().find(|c| c.name == name)
    }

    pub fn partition_key(&self) -> impl Iterator<Item = &Column> {
        self.columns.iter().filter(|c| c.role == Role::Partition)
    }

    pub fn clustering(&self) -> impl Iterator<Item = &Column> {
        self.columns
            .iter()
            .filter(|c| matches!(c.role, Role::Clustering(_)))
    }

    pub fn is_counter_table(&self) -> bool {
        self.columns
            .iter()
            .any(|c| !c.role.is_key() && c.ty.is_counter())
    }
}

/// How a query is answered.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    pub query: Name,
    /// Index into `LogicalModel::tables`.
    pub table: Option<usize>,
    /// The statement; clones share its text.
    pub select: Select,
    pub access: Access,
    /// Partition key columns the application computes (buckets, shards)
    /// rather than takes from the search.
    pub computed: Vec<Name>,
    /// The query in the table's column names, when it resolved: what a
    /// drift check asks of the table that runs.
    #[serde(skip)]
    pub request: Option<Request>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LogicalModel {
    /// Shared: an edit's re-derivation hands the tables it did not change on
    /// from the last model.
    pub tables: Vec<Shared<Table>>,
    pub plans: Vec<Plan>,
    /// Shared: an edit's re-derivation hands the paths its tables did not
    /// touch on from the last model.
    pub writes: Vec<Shared<WritePath>>,
    /// What the derivation could not honour (broken references, decisions
    /// naming missing columns); loading reports most of these earlier.
    pub problems: Vec<Problem>,
}

impl LogicalModel {
    pub fn table(&self, name: &str) -> Option<&Table> {
        self.tables.iter().find(|t| t.name == name).map(|t| &**t)
    }

    pub fn plan(&self, query: &str) -> Option<&Plan> {
        self.plans.iter().find(|p| p.query == query)
    }

    pub fn table_of(&self, query: &str) -> Option<&Table> {
        self.plan(query)
            .and_then(|p| p.table)
            .map(|i| &*self.tables[i])
    }

    /// For each table, the positions of the plans that read it, in plan
    /// order.
    pub(crate) fn plans_by_table(&self) -> PlansByTable {
        // One list for all tables (a list per table was ten thousand
        // allocations on every edit of a large project).
        PlansByTable(crate::model::parts::Groups::new(
            self.tables.len(),
            self.plans
                .iter()
                .enumerate()
                .filter_map(|(i, p)| p.table.map(|t| (t, i))),
        ))
    }

    /// Ids of the queries no table serves, in the project's order.
    pub(crate) fn unserved_queries(&self) -> Vec<&str> {
        self.plans
            .iter()
            .filter(|p| p.table.is_none())
            .map(|p| p.query.as_str())
            .collect()
    }
}

/// The plans reading each table: positions in [`LogicalModel::plans`], in
/// plan order, table after table in one list.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct PlansByTable(crate::model::parts::Groups);

impl PlansByTable {
    /// The plans reading table `table` (none for a table it does not know).
    pub(crate) fn reading(&self, table: usize) -> &[usize] {
        self.0.group(table)
    }

    /// How many tables it knows.
    pub(crate) fn tables(&self) -> usize {
        self.0.len()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub enum Access {
    /// A legal SELECT without ALLOW FILTERING.
    Direct,
    /// Only with ALLOW FILTERING; the reason names the rule broken.
    Filtering(String),
    /// Through a secondary index on the named column.
    Index(String),
    /// Not at all; the reason says why.
    Impossible(String),
}

impl Access {
    pub fn is_direct(&self) -> bool {
        matches!(self, Access::Direct)
    }

    pub fn label(&self) -> &'static str {
        match self {
            Access::Direct => "yes",
            Access::Filtering(_) => "with ALLOW FILTERING",
            Access::Index(_) => "through an index",
            Access::Impossible(_) => "no",
        }
    }

    pub fn reason(&self) -> Option<&str> {
        match self {
            Access::Direct => None,
            Access::Filtering(r) | Access::Impossible(r) => Some(r),
            Access::Index(c) => Some(c),
        }
    }
}

/// A primary key and what else a table offers, by column name.
#[derive(Clone, Debug, PartialEq)]
pub struct KeyShape {
    pub partition: Vec<Name>,
    pub clustering: Vec<(Name, Dir)>,
    pub indexes: Vec<String>,
    pub columns: Vec<Name>,
    /// Partition columns the application computes (bucket, shard, constant).
    pub computed: Vec<Name>,
}

impl KeyShape {
    pub fn of(t: &Table) -> KeyShape {
        KeyShape {
            partition: t.partition_key().map(|c| c.name.clone()).collect(),
            clustering: t
                .columns
                .iter()
                .filter_map(|c| match c.role {
                    Role::Clustering(d) => Some((c.name.clone(), d)),
                    _ => None,
                })
                .collect(),
            indexes: t.indexes.clone(),
            columns: t.columns.iter().map(|c| c.name.clone()).collect(),
            computed: t
                .columns
                .iter()
                .filter(|c| {
                    c.role == Role::Partition
                        && matches!(
                            c.source,
                            Source::Bucket { .. } | Source::Shard { .. } | Source::Constant
                        )
                })
                .map(|c| c.name.clone())
                .collect(),
        }
    }
}

/// A query in terms of a table's column names.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Request {
    pub eq: Vec<Name>,
    pub range: Option<(Name, RangeOp)>,
    /// The range's bounds are times and its column a timeuuid encoding
    /// them (`minTimeuuid(?)`, `maxTimeuuid(?)`).
    pub range_timeuuid: bool,
    /// Returned names the SELECT computes (`toTimestamp("id") AS placed_at`):
    /// the name, then the expression.
    pub computed: Vec<(Name, String)>,
    pub order: Vec<(Name, Dir)>,
    pub returns: Vec<Name>,
    pub limit: Option<u32>,
    /// Columns of `eq` bound to a constant: the CQL literal the SELECT
    /// writes instead of a marker.
    pub literals: Vec<(Name, String)>,
}

/// Why an equality attribute (or a constant) sits in the partition key or
/// leads the clustering columns: the provenance a column keeps, worded
/// only when a report or the workbench shows it.
#[derive(Clone, Debug, PartialEq)]
pub enum Why {
    /// The designer's `equality_clustering`.
    DecidedClustering,
    /// The designer's `equality_partition`.
    DecidedPartition,
    /// The project's `partition_keys: AllEquality`.
    AllEquality,
    /// A constant is the query's only equality search.
    LoneConstant,
    /// Part of the key (or of a unique identifier) of the entity the
    /// query reads from; `over` says why it won over another node's
    /// identifier as large (the model's choice, never the query's order).
    Anchor {
        declared_key: bool,
        entity: String,
        over: Option<String>,
    },
    /// No entity's key among the equality attributes.
    NoAnchor,
    /// A member the aggregates are per (the query's `group`).
    Grouped,
    /// The aggregate counts only the rows the query's constants keep
    /// (`is_read = false`).
    CountedOnly { filter: String },
    /// A date or time: it bounds the partition's growth.
    TimeLike,
    /// A filter or constant placed by the worst-case estimate against the
    /// thresholds: leading clustering column when it `fits`, else moved
    /// into the partition key.
    Estimated {
        fits: bool,
        constant: bool,
        /// Moved in because rows pile up with time and nothing stated
        /// bounds the partition, whatever the figures over the horizon.
        accumulates: bool,
        /// Nv at worst, or Nr at worst where that is larger (a table of
        /// key columns only holds no values).
        values_max: f64,
        bytes_max: f64,
        max_values: f64,
        max_bytes: f64,
        /// The estimate rests on assumed figures.
        assumed: bool,
    },
    /// A returned attribute on a path the query's `meets` says reaches the
    /// instance `first` reaches: the key identifies it, MR5 adds nothing.
    Meets { first: String, second: String },
}

impl std::fmt::Display for Why {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Why::Grouped => f.write_str("one summary row per value: the query's group"),
            Why::CountedOnly { filter } => write!(f, "counts only the rows where {filter}"),
            Why::DecidedClustering => {
                f.write_str("decision: kept as a clustering column (equality_clustering)")
            }
            Why::DecidedPartition => {
                f.write_str("decision: in the partition key (equality_partition)")
            }
            Why::AllEquality => f.write_str(
                "every equality attribute in the partition key (partition_keys: AllEquality)",
            ),
            Why::LoneConstant => f.write_str(
                "a constant and no other equality search: the constant is the partition",
            ),
            Why::Anchor {
                declared_key,
                entity,
                over,
            } => {
                write!(
                    f,
                    "{} of {entity}, the entity the query reads from",
                    if *declared_key {
                        "the key"
                    } else {
                        "a unique identifier"
                    }
                )?;
                match over {
                    Some(over) => write!(f, " ({over})"),
                    None => Ok(()),
                }
            }
            Why::NoAnchor => f.write_str(
                "no entity key among the equality attributes: the search itself is the partition",
            ),
            Why::TimeLike => f.write_str("a date or time: it bounds the partition's growth"),
            Why::Meets { first, second } => write!(
                f,
                "meets: `{}` is `{}`, which the key identifies",
                crate::model::terminal_text::for_terminal(second),
                crate::model::terminal_text::for_terminal(first)
            ),
            Why::Estimated {
                fits,
                constant,
                accumulates,
                values_max,
                bytes_max,
                max_values,
                max_bytes,
                assumed,
            } => {
                let what = if *constant { "a constant" } else { "a filter" };
                if *fits {
                    f.write_str("the partition stays small: ")?;
                } else if *accumulates {
                    write!(
                        f,
                        "{what} moved in because rows accumulate with time and no stated figure bounds the partition (no retention, TTL, time in the partition key or most rows per owner): ",
                    )?;
                } else {
                    write!(
                        f,
                        "{what} moved in because, as a clustering column, the partition would be too large: ",
                    )?;
                }
                write!(
                    f,
                    "at worst {} values and {} per partition (limits {} values, {})",
                    group_digits(*values_max),
                    human_bytes(*bytes_max),
                    group_digits(*max_values),
                    human_bytes(*max_bytes)
                )?;
                if *assumed {
                    f.write_str("; on assumed figures: state the counts to firm this up")?;
                }
                Ok(())
            }
        }
    }
}

/// Serde writes a column's `why` as its words.
#[allow(clippy::ref_option)] // serde's serialize_with lends the field as it is
pub(crate) fn serialize_why<S: serde::Serializer>(
    why: &Option<Box<Why>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    match why {
        Some(w) => s.collect_str(w),
        None => s.serialize_none(),
    }
}

/// A table's name as write paths list it: the table's own shared name, so
/// every path and attribute that lists the table refers to one text (a
/// large model lists each table many times).
pub type TableName = crate::model::name::Name;

/// Which tables a write must touch.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WritePath {
    /// The entity's or relationship's name (shared with the graph's).
    pub item: Name,
    /// Tables an insert of one instance writes.
    pub insert: Vec<TableName>,
    /// Per attribute: tables an update touches, and whether the attribute
    /// is a key column there (an update is then a delete plus an insert).
    pub update: Vec<AttrWrites>,
    /// Tables whose rows of this item a batch job writes (a relationship or
    /// query marked `written_by_job`), kept out of `insert`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub job: Vec<TableName>,
    /// Summary tables of aggregates no counter can keep (min, max, avg):
    /// the application or a job updates them as this item's rows change.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub summaries: Vec<TableName>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttrWrites {
    pub attribute: Name,
    pub tables: Vec<(TableName, bool)>,
}

/// The CQL text of a plan's SELECT (empty when no table serves the query).
/// Reads like a `&str`; a clone shares the text.
#[derive(Clone, Default)]
pub struct Select(Option<std::sync::Arc<str>>);

impl Select {
    /// A statement's text (written by `derive::select`).
    pub(crate) fn from_text(text: String) -> Select {
        Select(Some(std::sync::Arc::from(text)))
    }

    pub fn as_str(&self) -> &str {
        self.0.as_deref().unwrap_or("")
    }
}

impl Deref for Select {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Select {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

/// By the text: two plans whose statements read the same are equal.
impl PartialEq for Select {
    fn eq(&self, other: &Select) -> bool {
        self.as_str() == other.as_str()
    }
}

impl PartialEq<str> for Select {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Select {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Display for Select {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl fmt::Debug for Select {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

/// Written as its text.
impl Serialize for Select {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// Where a physical option's value comes from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub enum Origin {
    /// The designer set it (`decisions[…].options`).
    Designer,
    /// Proposed from what the model says about the table's rows.
    Derived,
    /// Cassandra's own default: nothing is written.
    #[default]
    Default,
}

impl Origin {
    pub fn label(self) -> &'static str {
        match self {
            Origin::Designer => "set by the designer",
            Origin::Derived => "derived",
            Origin::Default => "Cassandra's default",
        }
    }
}

/// One physical option: its value, where it comes from and why.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Setting<T> {
    pub value: T,
    pub origin: Origin,
    pub why: String,
}

/// A table's physical schema beyond its columns and key: how long rows are
/// kept, compaction, `gc_grace` and the designer's other options, each with
/// its reason (see `derive::physical`).
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Physical {
    /// Days the table keeps its rows (its own retention, else its rows'),
    /// when stated; estimates count rows over it.
    pub retention_days: Option<f64>,
    /// Why the table has (or has not) a `default_time_to_live`.
    pub ttl_why: String,
    /// `gc_grace_seconds`; `Origin::Default` writes nothing (10 days).
    pub gc_grace: Setting<Option<u64>>,
    /// The compaction strategy; `Origin::Default` writes nothing
    /// (`SizeTiered`).
    pub compaction: Setting<Option<crate::model::physical::Compaction>>,
    /// The designer's other options (caching, compression, …), written as
    /// set.
    pub options: crate::model::physical::TableOptions,
    /// What the table's rows go through, which the proposals and the
    /// review's physical rules read.
    pub life: RowLife,
}

/// How a table's rows are written and leave it.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RowLife {
    /// The column that orders rows by time when they are written in time
    /// order (a time-like leading clustering column, a time bucket or a
    /// date in the partition key).
    pub time_order: Option<String>,
    /// The query that deletes the rows it reads (a queue), if any.
    pub deleted_by: Option<String>,
    /// Regular columns holding attributes that change (updates).
    pub updated: Vec<String>,
    /// Reads and writes a second, when the query states its load.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load: Option<RowLoad>,
}

/// A table's reads (its query's stated load) and writes a second (its
/// rows' inserts and updates), for the compaction proposal and review.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct RowLoad {
    pub reads: f64,
    pub writes: f64,
    /// The insert rate is assumed (no `per` rate: the instances arriving
    /// evenly over the horizon).
    pub writes_assumed: bool,
}

impl RowLoad {
    /// The writes in words, saying when they were assumed.
    pub fn writes_text(&self) -> String {
        format!(
            "{:.1} writes/s{}",
            self.writes,
            if self.writes_assumed {
                " (assumed: no insert rate stated, the rows arriving evenly over the horizon)"
            } else {
                ""
            }
        )
    }
}
