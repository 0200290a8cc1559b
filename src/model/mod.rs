//! The project: a conceptual model, the access patterns and the designer's
//! decisions, exactly as stored in a `.cqlm.ron` file. Inputs (entities,
//! queries) are kept apart from decisions so derivation stays reproducible.

pub mod identity;
pub mod literal;
pub mod load;
pub mod locate;
pub mod name;
mod name_index;
pub mod naming;
pub(crate) mod parts;
pub mod physical;
pub mod preserve;
pub mod quantity;
pub mod resolve;
pub mod save;
pub mod shared;
mod slots;
pub mod synthetic;
pub mod terminal_text;
pub mod types;
pub mod validate;
pub mod waiver;
pub mod workload;

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

pub use shared::Shared;
pub use types::{CqlType, Native};
pub use waiver::Waiver;

/// The file format this build reads and writes.
pub(crate) const FORMAT_VERSION: u32 = 1;

/// Project files end with this.
pub const EXTENSION: &str = ".cqlm.ron";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Project {
    pub format: u32,
    pub name: String,
    pub keyspace: Keyspace,
    /// The Cassandra release the schema targets (4.0, 4.1 or 5.0).
    #[serde(
        default,
        skip_serializing_if = "physical::CassandraVersion::is_default"
    )]
    pub cassandra: physical::CassandraVersion,
    #[serde(default, skip_serializing_if = "Thresholds::is_default")]
    pub thresholds: Thresholds,
    /// How equality search attributes are split between the partition key
    /// and leading clustering columns.
    #[serde(default, skip_serializing_if = "PartitionKeys::is_default")]
    pub partition_keys: PartitionKeys,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub types: Shared<Vec<UserType>>,
    #[serde(default)]
    pub entities: Shared<Vec<Entity>>,
    #[serde(default)]
    pub relationships: Shared<Vec<Relationship>>,
    #[serde(default)]
    /// Each query shared on its own too: an edit of one query copies that
    /// query (and the list of pointers), and the analysis tells an
    /// unchanged query by its pointer.
    pub queries: Shared<Vec<Shared<Query>>>,
    #[serde(default)]
    pub workflow: Shared<Workflow>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decisions: Shared<Vec<Decision>>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Shared<Vec<Note>>,
    /// Findings the designer judged and waived, each with its reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waivers: Shared<Vec<Waiver>>,
    /// The cluster the cost figures size (nodes, per-node budgets).
    #[serde(default, skip_serializing_if = "workload::Cluster::is_default")]
    pub cluster: workload::Cluster,
}

/// A list of queries as the project holds them (each shared on its own).
impl From<Vec<Query>> for Shared<Vec<Shared<Query>>> {
    fn from(queries: Vec<Query>) -> Self {
        queries.into_iter().collect()
    }
}

impl FromIterator<Query> for Shared<Vec<Shared<Query>>> {
    fn from_iter<I: IntoIterator<Item = Query>>(iter: I) -> Self {
        Shared::new(iter.into_iter().map(Shared::new).collect())
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keyspace {
    pub name: String,
    pub replication: Replication,
    /// Writes go through the commit log (`durable_writes`); off only for
    /// data the cluster can lose on a crash.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub durable_writes: bool,
}

fn yes() -> bool {
    true
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_true(b: &bool) -> bool {
    *b
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Replication {
    /// `SimpleStrategy` with one replication factor.
    Simple(u32),
    /// `NetworkTopologyStrategy`: replication factor per data center.
    NetworkTopology(BTreeMap<String, u32>),
}

impl Replication {
    /// Copies of each row across the cluster, for disk estimates.
    pub(crate) fn total_factor(&self) -> u32 {
        match self {
            Replication::Simple(f) => *f,
            // Saturating: a mistyped factor must not overflow the estimates.
            Replication::NetworkTopology(dcs) => {
                dcs.values().fold(0u32, |sum, f| sum.saturating_add(*f))
            }
        }
    }
}

/// Limits the review checks against; the defaults are the community's rules
/// of thumb (100,000 values, 100 MB per partition).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Thresholds {
    pub max_values: f64,
    pub max_bytes: f64,
    /// Days of history assumed for data that grows with time and states no
    /// retention.
    pub horizon_days: f64,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            max_values: 100_000.0,
            max_bytes: 100.0 * 1024.0 * 1024.0,
            horizon_days: 365.0,
        }
    }
}

impl Thresholds {
    fn is_default(&self) -> bool {
        *self == Thresholds::default()
    }
}

/// Where a query's equality search attributes go.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum PartitionKeys {
    /// The partition key holds the key of the entity the query reads from
    /// and any time-like attribute; other equality attributes (a status, a
    /// second entity's key) lead the clustering columns when the partition
    /// stays within the thresholds at worst, and join the partition key
    /// otherwise.
    #[default]
    ByEstimate,
    /// Every equality attribute in the partition key (Chebotko's MR2 read
    /// literally; the behaviour before estimates placed them).
    AllEquality,
}

impl PartitionKeys {
    #[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if lends a reference
    fn is_default(&self) -> bool {
        *self == PartitionKeys::default()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UserType {
    pub name: String,
    pub fields: Vec<Field>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Field {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: CqlType,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entity {
    pub name: String,
    /// Used in `_by_` names and column prefixes (`poi` for `PointOfInterest`);
    /// defaults to the `snake_case` name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub short: Option<String>,
    /// Plural used in table names; defaults to an English plural of `short`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub plural: Option<String>,
    /// For a weak entity: the 1:n relationship from its owner that identifies
    /// it. Its full key is the owner's full key followed by `key`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub owner: Option<String>,
    /// Further identifying relationships of an association entity (a grade
    /// identified by student, course and assignment): its full key holds
    /// every owner's key, `owner`'s first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owners: Vec<String>,
    /// Attribute names forming the key (the partial key of a weak entity).
    pub key: Vec<String>,
    /// Other identifiers besides the key (natural or alternate keys), each a
    /// list of attribute references from this entity (`"confirm_number"`,
    /// `"Hotel.hotel_id"`, an owner's key by its column name). MR5 prefers
    /// the smallest one a table already holds over a surrogate key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub unique: Vec<Vec<String>>,
    pub attributes: Vec<Attribute>,
    /// How many instances exist (for estimates); with `per`, how many
    /// arrive per period.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<f64>,
    /// Makes `count` an insert rate (`count: Some(10000), per: Some(Day)`):
    /// instances accumulate over the retention, else the project's horizon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per: Option<Period>,
    /// How long rows are kept, in days; with `ttl` the tables that hold this
    /// entity's rows get a default TTL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retention_days: Option<f64>,
    /// The unit the retention was typed in (`20s`, `12h`, `2y`), so it is
    /// shown as typed; unset: days. The figure itself stays in
    /// `retention_days`, which every estimate reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retention_unit: Option<physical::SpanUnit>,
    #[serde(default, skip_serializing_if = "is_false")]
    pub ttl: bool,
    /// Updates per second across all instances (of mutable attributes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updates: Option<workload::Load>,
}

impl Entity {
    /// The retention as the designer typed it (`20s`, `730d`, `2y`).
    pub fn retention(&self) -> Option<physical::Span> {
        let days = self.retention_days?;
        Some(match self.retention_unit {
            Some(unit) => physical::Span::days_in(days, unit),
            None => physical::Span::days(days),
        })
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Attribute {
    pub name: String,
    #[serde(rename = "type")]
    pub ty: CqlType,
    /// Average size in bytes of a variable-size value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<f64>,
    /// Number of distinct values across all instances.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distinct: Option<f64>,
    /// Average number of elements, for collections.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elements: Option<f64>,
    /// The value changes over a record's life.
    #[serde(default, skip_serializing_if = "is_false")]
    pub mutable: bool,
    /// Column name override for this attribute in every table. (Rarely
    /// set, and a large project has tens of thousands of attributes: a
    /// boxed text takes 16 bytes where a `String` takes 24.)
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<Box<str>>,
    /// Another attribute of the same item whose value this one carries (a
    /// timeuuid encodes its creation time): ordering by that attribute
    /// clusters by this one instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub encodes: Option<Box<str>>,
    /// A time another attribute `encodes` is stored in the tables that
    /// return it; by default a SELECT computes it from the timeuuid
    /// (`toTimestamp(id)`), as published designs do.
    #[serde(default, skip_serializing_if = "is_false")]
    pub stored: bool,
}

impl Attribute {
    pub fn new(name: &str, ty: CqlType) -> Attribute {
        Attribute {
            name: name.to_string(),
            ty,
            size: None,
            distinct: None,
            elements: None,
            mutable: false,
            column: None,
            encodes: None,
            stored: false,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Cardinality {
    OneToOne,
    /// `from` is the one side.
    OneToMany,
    ManyToMany,
}

impl Cardinality {
    pub fn notation(self) -> &'static str {
        match self {
            Cardinality::OneToOne => "1:1",
            Cardinality::OneToMany => "1:n",
            Cardinality::ManyToMany => "m:n",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Period {
    Hour,
    Day,
    Week,
    Month,
    Year,
}

impl Period {
    pub const ALL: [Period; 5] = [
        Period::Hour,
        Period::Day,
        Period::Week,
        Period::Month,
        Period::Year,
    ];

    pub fn days(self) -> f64 {
        match self {
            Period::Hour => 1.0 / 24.0,
            Period::Day => 1.0,
            Period::Week => 7.0,
            Period::Month => 30.4375,
            Period::Year => 365.25,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Period::Hour => "hour",
            Period::Day => "day",
            Period::Week => "week",
            Period::Month => "month",
            Period::Year => "year",
        }
    }
}

/// How many instances on one side relate to one instance on the other; with
/// `per`, a rate that accumulates over the retention period.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Count {
    pub avg: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub per: Option<Period>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Relationship {
    pub name: String,
    pub from: String,
    pub to: String,
    pub cardinality: Cardinality,
    /// Average (and maximum) `to` instances per `from` instance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to_per_from: Option<Count>,
    /// Average (and maximum) `from` instances per `to` instance (m:n only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub from_per_to: Option<Count>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attributes: Vec<Attribute>,
    /// A batch job, not the application's inserts, creates these instances
    /// (recommendations): they stay out of the entities' insert paths.
    #[serde(default, skip_serializing_if = "is_false")]
    pub written_by_job: bool,
    /// Updates per second across all instances (of mutable attributes).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub updates: Option<workload::Load>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Dir {
    #[default]
    Asc,
    Desc,
}

impl Dir {
    #[must_use]
    pub fn flip(self) -> Dir {
        match self {
            Dir::Asc => Dir::Desc,
            Dir::Desc => Dir::Asc,
        }
    }
    pub fn cql(self) -> &'static str {
        match self {
            Dir::Asc => "ASC",
            Dir::Desc => "DESC",
        }
    }
    pub(crate) fn arrow(self) -> &'static str {
        match self {
            Dir::Asc => "↑",
            Dir::Desc => "↓",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub enum RangeOp {
    /// `>= ? AND <= ?`
    #[default]
    Between,
    Lt,
    Le,
    Gt,
    Ge,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub attr: String,
    #[serde(default)]
    pub op: RangeOp,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Order {
    pub attr: String,
    #[serde(default)]
    pub dir: Dir,
}

/// An access pattern. Attribute references are `attr` (of the rows' entity
/// or relationship), `Entity.attr` (reached through the only relationship
/// path) or `Entity.attr via rel1, rel2`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Query {
    pub id: String,
    pub text: String,
    /// The entity or relationship whose instances are the result rows.
    pub rows: String,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equality: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// Equalities on a calendar part of a time (`day of ts`: the readings
    /// of one day): the table's partition key gets that part as a bucket
    /// column, which the SELECT binds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub calendar: Vec<CalendarPart>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub order: Vec<Order>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub limit: Option<u32>,
    pub returns: Vec<String>,
    /// The application deletes the rows it reads (a queue).
    #[serde(default, skip_serializing_if = "is_false")]
    pub consumes: bool,
    /// A batch job fills this query's table: it is no part of the insert
    /// paths of the entities its rows hold.
    #[serde(default, skip_serializing_if = "is_false")]
    pub written_by_job: bool,
    /// Equalities on constants the query states itself (`status =
    /// "active"`): the SELECT binds the value, the application passes none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub constants: Vec<Constant>,
    /// Aggregates returned per group (the equality attributes) and per
    /// `window`: the query reads a summary table, not the rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aggregates: Vec<Aggregate>,
    /// Members an aggregate query groups by beyond its equality attributes
    /// (`Sensor.sensor`: one summary row per sensor of the network): they
    /// cluster the summary's rows, the application reads them back.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub group: Vec<String>,
    /// The time window each aggregate covers (a day of `viewed_at`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub window: Option<Window>,
    /// Two reference paths that reach the same instance (the folder's
    /// owner is the user the read flag belongs to): identity counts the
    /// second as the first, so MR5 adds no key column for it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub meets: Vec<Meet>,
    /// Requests per second (average, peak) the application sends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub load: Option<workload::Load>,
    /// The consistency level it reads at (`LOCAL_QUORUM` when left out).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consistency: Option<workload::Consistency>,
}

/// A calendar part (`period`) of a time attribute (`attr`: a timestamp,
/// timeuuid or date) the query searches by equality: `day of ts`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CalendarPart {
    pub period: Period,
    pub attr: String,
}

impl CalendarPart {
    /// `day of ts`, as written in the file: callers sanitize.
    pub fn text(&self) -> String {
        format!("{} of {}", self.period.name(), self.attr)
    }

    /// The part [`CalendarPart::text`] wrote, or `None` for anything else
    /// (an attribute reference never starts with a period and ` of `).
    pub fn parse(text: &str) -> Option<CalendarPart> {
        Period::ALL.into_iter().find_map(|period| {
            let attr = text.strip_prefix(period.name())?.strip_prefix(" of ")?;
            (!attr.is_empty()).then(|| CalendarPart {
                period,
                attr: attr.to_string(),
            })
        })
    }
}
/// Two paths from the rows that meet at one instance, each written like
/// an equality reference without the attribute (`User via
/// folder_has_email, owns`) or with it (`User.username via ...`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Meet(pub String, pub String);

/// An equality on a constant value, written as text (`"active"`, `"3"`,
/// `"true"`) and bound as a literal of the attribute's type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Constant {
    pub attr: String,
    pub value: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum AggregateFn {
    Count,
    Sum,
    Min,
    Max,
    Avg,
}

impl AggregateFn {
    pub fn name(self) -> &'static str {
        match self {
            AggregateFn::Count => "count",
            AggregateFn::Sum => "sum",
            AggregateFn::Min => "min",
            AggregateFn::Max => "max",
            AggregateFn::Avg => "avg",
        }
    }
}

/// `count` of the rows, or `sum`/`min`/`max`/`avg` of one attribute of them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Aggregate {
    pub function: AggregateFn,
    /// The aggregated attribute; none for a count of the rows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub attr: Option<String>,
    /// The column name, instead of the derived one (`view_count`, `max_price`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub column: Option<String>,
}

/// One aggregate row per `period` of `attr` (a timestamp or date).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Window {
    pub attr: String,
    pub period: Period,
}

impl Query {
    /// What the query searches by equality, in words: its attributes, then
    /// its calendar parts (`Station.station_id, day of ts`); none when it
    /// has neither. As written in the file: callers sanitize.
    pub fn equality_text(&self) -> Option<String> {
        let parts: Vec<String> = self
            .equality
            .iter()
            .cloned()
            .chain(self.calendar.iter().map(CalendarPart::text))
            .collect();
        (!parts.is_empty()).then(|| parts.join(", "))
    }

    /// The query's constants and aggregates in words (`element =
    /// 'checkout_button'; count, max of price per day of placed_at`), or
    /// none. Values as written in the file: callers sanitize.
    pub(crate) fn stated_text(&self) -> Option<String> {
        let mut parts: Vec<String> = self
            .constants
            .iter()
            .map(|k| {
                format!(
                    "{} = {}",
                    k.attr,
                    crate::model::naming::string_literal(&k.value)
                )
            })
            .collect();
        if !self.aggregates.is_empty() {
            let fns: Vec<String> = self
                .aggregates
                .iter()
                .map(|a| match &a.attr {
                    Some(attr) => format!("{} of {attr}", a.function.name()),
                    None => a.function.name().to_string(),
                })
                .collect();
            let per = match &self.window {
                Some(w) => format!(" per {} of {}", w.period.name(), w.attr),
                None => String::new(),
            };
            parts.push(format!("{}{per}", fns.join(", ")));
        }
        (!parts.is_empty()).then(|| parts.join("; "))
    }

    /// The rows the query's constants keep, in words (`is_read = false`);
    /// none without constants. An aggregate query's summary counts only
    /// these rows. As written in the file: callers sanitize.
    pub fn constant_filter(&self) -> Option<String> {
        (!self.constants.is_empty()).then(|| {
            self.constants
                .iter()
                .map(|k| format!("{} = {}", k.attr, k.value))
                .collect::<Vec<_>>()
                .join(" AND ")
        })
    }

    pub fn new(id: &str, text: &str, rows: &str) -> Query {
        Query {
            id: id.to_string(),
            text: text.to_string(),
            rows: rows.to_string(),
            equality: vec![],
            range: None,
            calendar: vec![],
            order: vec![],
            limit: None,
            returns: vec![],
            consumes: false,
            written_by_job: false,
            constants: vec![],
            aggregates: vec![],
            group: vec![],
            window: None,
            meets: vec![],
            load: None,
            consistency: None,
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Workflow {
    /// Queries the application can run first: their inputs come from the user.
    #[serde(default)]
    pub entry: Vec<String>,
    #[serde(default)]
    pub transitions: Vec<Transition>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Transition {
    pub from: String,
    pub to: String,
    /// Attributes returned by `from` that feed `to`'s search.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub feeds: Vec<String>,
}

/// A designer decision shaping the table of one query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Decision {
    pub query: String,
    /// Pinned table name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Serve this query from another query's table instead of its own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub served_by: Option<String>,
    /// Extra partition key columns (time bucket, shard), appended in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub partition_extra: Vec<ExtraColumn>,
    /// Columns moved from clustering into the partition key.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub promote: Vec<String>,
    /// Equality columns put in the partition key whatever the estimates
    /// say (the designer's override of the placement rule).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equality_partition: Vec<String>,
    /// Equality columns kept as leading clustering columns whatever the
    /// estimates say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub equality_clustering: Vec<String>,
    /// Clustering columns whose direction is flipped.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub flip: Vec<String>,
    /// Relationships whose many side is pushed up as a collection column
    /// instead of clustering rows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub collections: Vec<String>,
    /// Timestamp columns replaced by timeuuid.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub timeuuid: Vec<String>,
    /// Columns given a secondary index.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<String>,
    /// Alternative primary keys for the same rows, compared side by side.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<Candidate>,
    /// The candidate the table uses instead of the derived key.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub use_candidate: Option<String>,
    /// Keep this query's table apart even when another query needs exactly
    /// the same one, or another query's table answers it (undoes automatic
    /// sharing).
    #[serde(default, skip_serializing_if = "is_false")]
    pub separate: bool,
    /// The table's physical options: retention and TTL, compaction,
    /// `gc_grace` and the rest (unset: the tool's proposal).
    #[serde(default, skip_serializing_if = "physical::TableOptions::is_empty")]
    pub options: physical::TableOptions,
}

impl Decision {
    pub fn new(query: &str) -> Decision {
        Decision {
            query: query.to_string(),
            name: None,
            served_by: None,
            partition_extra: vec![],
            promote: vec![],
            equality_partition: vec![],
            equality_clustering: vec![],
            flip: vec![],
            collections: vec![],
            timeuuid: vec![],
            indexes: vec![],
            candidates: vec![],
            use_candidate: None,
            separate: false,
            options: physical::TableOptions::default(),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Decision::new(&self.query)
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ExtraColumn {
    pub column: String,
    pub kind: ExtraKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum ExtraKind {
    /// A time bucket computed from a temporal column of the rows.
    Bucket { source: String, period: Period },
    /// A shard number in 0..count, chosen by the writer.
    Shard { count: u32 },
}

/// A hand-written primary key for the rows of a query's table, by column
/// name, with optional secondary indexes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Candidate {
    pub name: String,
    pub partition: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clustering: Vec<Order>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub indexes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Target {
    Entity(String),
    Relationship(String),
    Query(String),
    Table(String),
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Note {
    pub target: Target,
    pub text: String,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if lends a reference
fn is_false(b: &bool) -> bool {
    !*b
}

impl Project {
    pub fn empty(name: &str) -> Project {
        let ks = crate::model::naming::snake_case(name);
        Project {
            format: FORMAT_VERSION,
            name: name.to_string(),
            keyspace: Keyspace {
                name: if ks.is_empty() { "app".into() } else { ks },
                replication: Replication::Simple(3),
                durable_writes: true,
            },
            cassandra: physical::CassandraVersion::default(),
            thresholds: Thresholds::default(),
            partition_keys: PartitionKeys::default(),
            types: Shared::default(),
            entities: Shared::default(),
            relationships: Shared::default(),
            queries: Shared::default(),
            workflow: Shared::default(),
            decisions: Shared::default(),
            notes: Shared::default(),
            waivers: Shared::default(),
            cluster: workload::Cluster::default(),
        }
    }

    pub fn entity(&self, name: &str) -> Option<&Entity> {
        self.entities.iter().find(|e| e.name == name)
    }

    pub fn relationship(&self, name: &str) -> Option<&Relationship> {
        self.relationships.iter().find(|r| r.name == name)
    }

    pub fn query(&self, id: &str) -> Option<&Query> {
        self.queries.iter().find(|q| q.id == id).map(|q| &**q)
    }

    /// Whether `other` has as many queries and, position by position, the
    /// very same query or one with the same id (what an analysis indexes
    /// by id holds for both).
    pub fn same_query_ids(&self, other: &Project) -> bool {
        self.queries.len() == other.queries.len()
            && self
                .queries
                .iter()
                .zip(other.queries.iter())
                .all(|(a, b)| Shared::same(a, b) || a.id == b.id)
    }

    pub fn decision(&self, query: &str) -> Option<&Decision> {
        self.decisions.iter().find(|d| d.query == query)
    }

    /// The decision for a query, created empty if there is none yet.
    pub fn decision_mut(&mut self, query: &str) -> &mut Decision {
        if let Some(i) = self.decisions.iter().position(|d| d.query == query) {
            &mut self.decisions[i]
        } else {
            self.decisions.push(Decision::new(query));
            let last = self.decisions.len() - 1;
            &mut self.decisions[last]
        }
    }

    /// Drops decisions that say nothing, so files stay minimal.
    pub fn prune_decisions(&mut self) {
        self.decisions.retain(|d| !d.is_empty());
    }

    pub(crate) fn notes_for(&self, target: &Target) -> impl Iterator<Item = &Note> {
        let t = target.clone();
        self.notes.iter().filter(move |n| n.target == t)
    }
}

#[cfg(test)]
mod replication_tests {
    use super::Replication;

    #[test]
    fn a_huge_replication_factor_saturates() {
        let r = Replication::NetworkTopology(
            [("a".to_string(), u32::MAX), ("b".to_string(), 3)]
                .into_iter()
                .collect(),
        );
        assert_eq!(r.total_factor(), u32::MAX);
    }
}
