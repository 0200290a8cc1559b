//! The physical schema a designer sets on a table: the target Cassandra
//! version, spans of time typed in any unit (`20s`, `15m`, `12h`, `730d`,
//! `2y`) and the table options (`default_time_to_live`, `gc_grace_seconds`,
//! compaction, caching, compression and the rest). Values only: what the
//! tool proposes for each table is derived (`derive::physical`), and what
//! each version accepts is checked here so validation and export agree.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::collections::BTreeMap;
use std::fmt;

/// The Cassandra release the schema is written for: it decides which
/// options and index kinds are offered and valid.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub enum CassandraVersion {
    V4_0,
    #[default]
    V4_1,
    V5_0,
}

/// Written as the release's number in a string (`"4.1"`), as people
/// write it.
impl Serialize for CassandraVersion {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.label())
    }
}

impl<'de> Deserialize<'de> for CassandraVersion {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CassandraVersion, D::Error> {
        let text = String::deserialize(d)?;
        CassandraVersion::ALL
            .into_iter()
            .find(|v| v.label() == text)
            .ok_or_else(|| {
                serde::de::Error::custom(format!(
                    "\"{}\" is not a Cassandra version this tool targets: write \"4.0\", \"4.1\" or \"5.0\"",
                    crate::model::terminal_text::for_terminal(&text)
                ))
            })
    }
}

impl CassandraVersion {
    pub const ALL: [CassandraVersion; 3] = [
        CassandraVersion::V4_0,
        CassandraVersion::V4_1,
        CassandraVersion::V5_0,
    ];

    pub fn label(self) -> &'static str {
        match self {
            CassandraVersion::V4_0 => "4.0",
            CassandraVersion::V4_1 => "4.1",
            CassandraVersion::V5_0 => "5.0",
        }
    }

    pub fn is_default(&self) -> bool {
        *self == CassandraVersion::default()
    }
}

/// The unit a span was typed in; it is shown in the same unit.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SpanUnit {
    Seconds,
    Minutes,
    Hours,
    Days,
    Weeks,
    Years,
}

impl SpanUnit {
    fn seconds(self) -> f64 {
        match self {
            SpanUnit::Seconds => 1.0,
            SpanUnit::Minutes => 60.0,
            SpanUnit::Hours => 3_600.0,
            SpanUnit::Days => 86_400.0,
            SpanUnit::Weeks => 604_800.0,
            // 365 days: retention periods are stated in calendar years
            // rounded to days, which is what a TTL can hold.
            SpanUnit::Years => 31_536_000.0,
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            SpanUnit::Seconds => "s",
            SpanUnit::Minutes => "m",
            SpanUnit::Hours => "h",
            SpanUnit::Days => "d",
            SpanUnit::Weeks => "w",
            SpanUnit::Years => "y",
        }
    }
}

/// A span of time as the designer typed it (`20s`, `1.5h`, `730d`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Span {
    pub amount: f64,
    pub unit: SpanUnit,
}

impl Span {
    pub fn new(amount: f64, unit: SpanUnit) -> Span {
        Span { amount, unit }
    }

    pub fn days(amount: f64) -> Span {
        Span::new(amount, SpanUnit::Days)
    }

    /// A number of days shown in `unit` (an entity's retention is kept in
    /// days and shown in the unit it was typed in): the amount rounded to
    /// nine significant digits, so `20s` stored as days reads `20s` again.
    pub fn days_in(days: f64, unit: SpanUnit) -> Span {
        let amount = days * SpanUnit::Days.seconds() / unit.seconds();
        let digits = 9 - (amount.abs().log10().floor() as i32).clamp(-300, 300) - 1;
        let scale = 10f64.powi(digits);
        let rounded = (amount * scale).round() / scale;
        Span::new(if rounded.is_finite() { rounded } else { amount }, unit)
    }

    /// The span in days (estimates count rows over days).
    pub fn in_days(&self) -> f64 {
        self.seconds() / SpanUnit::Days.seconds()
    }

    pub fn seconds(&self) -> f64 {
        self.amount * self.unit.seconds()
    }

    /// Whole seconds, at least one: what `default_time_to_live` and
    /// `gc_grace_seconds` hold.
    pub fn whole_seconds(&self) -> u64 {
        self.seconds().round().max(1.0) as u64
    }

    /// Reads `20s`, `15m`, `12h`, `730d`, `2w`, `2y` (a bare number is
    /// days, as `retention_days` always was).
    pub fn parse(text: &str) -> Result<Span, String> {
        let t = text.trim();
        let (number, unit) = match t.char_indices().last() {
            Some((i, c)) if c.is_ascii_alphabetic() => {
                let unit = match c.to_ascii_lowercase() {
                    's' => SpanUnit::Seconds,
                    'm' => SpanUnit::Minutes,
                    'h' => SpanUnit::Hours,
                    'd' => SpanUnit::Days,
                    'w' => SpanUnit::Weeks,
                    'y' => SpanUnit::Years,
                    _ => return Err(span_error(text)),
                };
                (&t[..i], unit)
            }
            _ => (t, SpanUnit::Days),
        };
        let amount: f64 = number.trim().parse().map_err(|_| span_error(text))?;
        // The largest TTL Cassandra stores is 20 years.
        if !amount.is_finite() || amount <= 0.0 || amount * unit.seconds() > MAX_TTL_SECONDS {
            return Err(span_error(text));
        }
        Ok(Span { amount, unit })
    }
}

/// `default_time_to_live` and a cell's TTL are capped at 20 years.
pub const MAX_TTL_SECONDS: f64 = 630_720_000.0;

fn span_error(text: &str) -> String {
    format!(
        "\"{}\" is not a span of time: write a positive number and a unit, such as 20s, 15m, 12h, 730d or 2y (at most 20 years)",
        crate::model::terminal_text::for_terminal(text)
    )
}

impl fmt::Display for Span {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.amount, self.unit.suffix())
    }
}

impl Serialize for Span {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Span {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Span, D::Error> {
        let text = String::deserialize(d)?;
        Span::parse(&text).map_err(serde::de::Error::custom)
    }
}

/// A compaction strategy with its sub-options (`compaction_window_unit`,
/// `sstable_size_in_mb`, …) as Cassandra names them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Compaction {
    pub strategy: Strategy,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Strategy {
    SizeTiered,
    Leveled,
    TimeWindow,
    /// The Unified Compaction Strategy (Cassandra 5.0).
    Unified,
    /// Any other class, by its full name.
    Custom(String),
}

impl Strategy {
    /// The class name `compaction = {'class': …}` takes.
    pub fn class(&self) -> &str {
        match self {
            Strategy::SizeTiered => "SizeTieredCompactionStrategy",
            Strategy::Leveled => "LeveledCompactionStrategy",
            Strategy::TimeWindow => "TimeWindowCompactionStrategy",
            Strategy::Unified => "UnifiedCompactionStrategy",
            Strategy::Custom(c) => c,
        }
    }

    /// Reads a class as Cassandra does: short or fully qualified.
    pub fn from_class(class: &str) -> Strategy {
        let short = class
            .strip_prefix("org.apache.cassandra.db.compaction.")
            .unwrap_or(class);
        match short {
            "SizeTieredCompactionStrategy" => Strategy::SizeTiered,
            "LeveledCompactionStrategy" => Strategy::Leveled,
            "TimeWindowCompactionStrategy" => Strategy::TimeWindow,
            "UnifiedCompactionStrategy" => Strategy::Unified,
            _ => Strategy::Custom(class.to_string()),
        }
    }

    pub fn short(&self) -> &str {
        match self {
            Strategy::SizeTiered => "STCS",
            Strategy::Leveled => "LCS",
            Strategy::TimeWindow => "TWCS",
            Strategy::Unified => "UCS",
            Strategy::Custom(c) => c,
        }
    }

    /// The sub-options each built-in strategy reads (Cassandra 4.0–5.0),
    /// besides those every strategy reads.
    fn known_options(&self) -> &'static [&'static str] {
        match self {
            Strategy::SizeTiered => &[
                "min_threshold",
                "max_threshold",
                "bucket_high",
                "bucket_low",
                "min_sstable_size",
            ],
            Strategy::Leveled => &[
                "sstable_size_in_mb",
                "fanout_size",
                "single_sstable_uplevel",
            ],
            Strategy::TimeWindow => &[
                "compaction_window_unit",
                "compaction_window_size",
                "timestamp_resolution",
                "expired_sstable_check_frequency_seconds",
                "unsafe_aggressive_sstable_expiration",
                "min_threshold",
                "max_threshold",
            ],
            Strategy::Unified => &[
                "scaling_parameters",
                "target_sstable_size",
                "base_shard_count",
                "sstable_growth",
                "min_sstable_size",
                "flush_size_override",
                "max_sstables_to_compact",
                "expired_sstable_check_frequency_seconds",
                "overlap_inclusion_method",
            ],
            Strategy::Custom(_) => &[],
        }
    }
}

/// Sub-options every compaction strategy reads (min and max threshold
/// are read by the compaction parameters of every table).
const COMMON_COMPACTION_OPTIONS: [&str; 9] = [
    "min_threshold",
    "max_threshold",
    "enabled",
    "tombstone_threshold",
    "tombstone_compaction_interval",
    "unchecked_tombstone_compaction",
    "only_purge_repaired_tombstones",
    "log_all",
    "provide_overlapping_tombstones",
];

/// A table's physical options as the designer set them (each `None`: the
/// tool's proposal, or Cassandra's default). Options the tool has no field
/// for, met on import, are kept in `other` with their CQL value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableOptions {
    /// How long the table keeps its rows: estimates count this many of
    /// them, and with `ttl` they expire after it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub retention: Option<Span>,
    /// Rows expire after the retention (`default_time_to_live`); unset:
    /// as the rows' entity says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gc_grace: Option<Span>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compaction: Option<Compaction>,
    /// `keys` and `rows_per_partition`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub caching: Option<BTreeMap<String, String>>,
    /// `class`, `chunk_length_in_kb`, `enabled`, …
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compression: Option<BTreeMap<String, String>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bloom_filter_fp_chance: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub speculative_retry: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cdc: Option<bool>,
    /// Written after the queries the table answers in its `comment`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// Other options by name, each value as CQL writes it (a number,
    /// `true`/`false`, a quoted string or a map of quoted strings).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub other: BTreeMap<String, String>,
    /// The name, kind and settings of the indexes on the table's columns
    /// (the decision's `indexes` lists the columns), by column.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub indexes: BTreeMap<String, IndexSpec>,
    /// The options are the table's as a schema was imported: what they
    /// leave out is Cassandra's default, nothing is proposed (the review
    /// still says what it would propose).
    #[serde(default, skip_serializing_if = "is_false")]
    pub as_imported: bool,
    /// Columns of a user type kept non-frozen, as Cassandra has them when
    /// the type is written bare (`home address`); every other UDT column
    /// is exported `frozen<…>`. Import fills it, so a round trip keeps
    /// each column as it was.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub non_frozen: Vec<String>,
    /// Materialized views over this table, kept as the schema has them
    /// (import) and written after it by the export.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub views: Vec<MaterializedView>,
}

/// A materialized view over a table, verbatim: what it selects, its
/// filter, its key and options. Experimental in Cassandra and disabled by
/// default since 4.0 (`materialized_views_enabled` in cassandra.yaml).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MaterializedView {
    pub name: String,
    /// The base table's columns it selects; empty: all (`*`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub columns: Vec<String>,
    /// The `WHERE` clause as CQL (`a IS NOT NULL AND b IS NOT NULL`).
    #[serde(rename = "where")]
    pub filter: String,
    pub partition: Vec<String>,
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub clustering: Vec<ViewOrder>,
    /// Its table options by name, each value as CQL writes it.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

/// A view's clustering column and its order.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewOrder {
    pub column: String,
    #[serde(default, skip_serializing_if = "is_asc")]
    pub dir: crate::model::Dir,
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_asc(d: &crate::model::Dir) -> bool {
    *d == crate::model::Dir::Asc
}

/// A view's `WHERE` clause safe to write back: names, numbers, operators,
/// parentheses and quoted strings or identifiers without control
/// characters; no `;`, comment markers or unclosed quotes, so a file
/// edited by hand cannot inject a statement.
pub fn is_view_filter(filter: &str) -> bool {
    let mut chars = filter.chars().peekable();
    let mut prev = ' ';
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => loop {
                match chars.next() {
                    Some(q) if q == c => {
                        if chars.peek() == Some(&c) {
                            chars.next();
                        } else {
                            break;
                        }
                    }
                    Some(x) if !x.is_control() => {}
                    _ => return false,
                }
            },
            '-' if prev == '-' => return false,
            c if c.is_ascii_alphanumeric() || " _.,()=<>!-+*[]:".contains(c) => {}
            _ => return false,
        }
        prev = c;
    }
    !filter.trim().is_empty()
}

/// What is wrong with a view as a project holds it: names, filter,
/// options.
pub fn view_problems(v: &MaterializedView) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let name_ok = |n: &str| crate::model::naming::is_valid_schema_name(n);
    if !name_ok(&v.name) {
        out.push(("name".into(), "not a valid view name".into()));
    }
    let columns = v
        .columns
        .iter()
        .chain(&v.partition)
        .chain(v.clustering.iter().map(|c| &c.column));
    if columns.clone().any(|c| !name_ok(c)) {
        out.push(("columns".into(), "a column name is not valid".into()));
    }
    if v.partition.is_empty() {
        out.push(("partition".into(), "a view needs a partition key".into()));
    }
    if !is_view_filter(&v.filter) {
        out.push((
            "where".into(),
            "the WHERE clause is not plain CQL (quotes, names, operators only)".into(),
        ));
    }
    for (k, value) in &v.options {
        if !name_ok(k) || !is_cql_term(value) {
            out.push((
                format!("options.{}", crate::model::terminal_text::for_terminal(k)),
                "not an option name with a CQL constant".into(),
            ));
        }
    }
    out
}

#[allow(clippy::trivially_copy_pass_by_ref)]
fn is_false(b: &bool) -> bool {
    !*b
}

impl TableOptions {
    pub fn is_empty(&self) -> bool {
        *self == TableOptions::default()
    }
}

/// How an index on a column is made: its name (else one is derived from
/// the table and column), its kind, what of a collection it indexes and
/// the options its class reads.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndexSpec {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    #[serde(default, skip_serializing_if = "IndexKind::is_default")]
    pub kind: IndexKind,
    /// `keys`, `values`, `entries` or `full`: what of a collection.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub options: BTreeMap<String, String>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum IndexKind {
    /// Cassandra's built-in secondary index (`CREATE INDEX`).
    #[default]
    Secondary,
    /// Storage-attached index (Cassandra 5.0).
    Sai,
    /// SASI: experimental, disabled by default since 4.0.
    Sasi,
    /// Any other index class, by its full name.
    Custom(String),
}

impl IndexKind {
    pub fn is_default(&self) -> bool {
        *self == IndexKind::Secondary
    }

    /// The class `CREATE CUSTOM INDEX … USING` names; `None` for the
    /// built-in index.
    pub fn class(&self) -> Option<&str> {
        match self {
            IndexKind::Secondary => None,
            IndexKind::Sai => Some("StorageAttachedIndex"),
            IndexKind::Sasi => Some("org.apache.cassandra.index.sasi.SASIIndex"),
            IndexKind::Custom(c) => Some(c),
        }
    }

    /// The kind a `USING` class names.
    pub fn from_class(class: &str) -> IndexKind {
        match class {
            "StorageAttachedIndex"
            | "sai"
            | "SAI"
            | "org.apache.cassandra.index.sai.StorageAttachedIndex" => IndexKind::Sai,
            "org.apache.cassandra.index.sasi.SASIIndex" | "SASIIndex" => IndexKind::Sasi,
            "legacy_local_table" => IndexKind::Secondary,
            other => IndexKind::Custom(other.to_string()),
        }
    }
}

/// Options a table accepts (Cassandra 4.0–5.0) that have no field above:
/// kept in `other` when met.
pub const OTHER_TABLE_OPTIONS: [&str; 10] = [
    "additional_write_policy",
    "crc_check_chance",
    "default_time_to_live",
    "gc_grace_seconds",
    "max_index_interval",
    "memtable",
    "memtable_flush_period_in_ms",
    "min_index_interval",
    "read_repair",
    "extensions",
];

/// What is wrong with `options` for `version`, each with the field it is
/// about (relative to the options).
pub fn problems(options: &TableOptions, version: CassandraVersion) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (i, v) in options.views.iter().enumerate() {
        for (field, why) in view_problems(v) {
            out.push((format!("views[{i}].{field}"), why));
        }
    }
    if let Some(c) = &options.compaction {
        if c.strategy == Strategy::Unified && version < CassandraVersion::V5_0 {
            out.push((
                "compaction.strategy".into(),
                format!(
                    "UnifiedCompactionStrategy needs Cassandra 5.0; the project targets {}",
                    version.label()
                ),
            ));
        }
        if let Strategy::Custom(class) = &c.strategy {
            if !is_class_name(class) {
                out.push((
                    "compaction.strategy".into(),
                    format!(
                        "\"{}\" is not a Java class name",
                        crate::model::terminal_text::for_terminal(class)
                    ),
                ));
            }
        } else {
            for (k, v) in &c.options {
                if !c.strategy.known_options().contains(&k.as_str())
                    && !COMMON_COMPACTION_OPTIONS.contains(&k.as_str())
                {
                    out.push((
                        format!("compaction.options.{k}"),
                        format!(
                            "{} reads no option \"{}\"",
                            c.strategy.class(),
                            crate::model::terminal_text::for_terminal(k)
                        ),
                    ));
                }
                if let Some(why) = compaction_value_problem(&c.strategy, k, v) {
                    out.push((format!("compaction.options.{k}"), why));
                }
            }
            let threshold = |k: &str| c.options.get(k).and_then(|v| v.parse::<u32>().ok());
            if let (Some(min), Some(max)) = (threshold("min_threshold"), threshold("max_threshold"))
            {
                if min > max {
                    out.push((
                        "compaction.options.max_threshold".into(),
                        format!("max_threshold {max} is under min_threshold {min}"),
                    ));
                }
            }
        }
        for (k, v) in &c.options {
            if !is_safe_text(k) || !is_safe_text(v) {
                out.push((
                    "compaction.options".into(),
                    "an option's name or value holds a quote or a control character".into(),
                ));
            }
        }
    }
    if let Some(caching) = &options.caching {
        for (k, v) in caching {
            let ok = match k.as_str() {
                "keys" => matches!(v.to_ascii_uppercase().as_str(), "ALL" | "NONE"),
                "rows_per_partition" => {
                    matches!(v.to_ascii_uppercase().as_str(), "ALL" | "NONE")
                        || v.parse::<u32>().is_ok_and(|n| n > 0)
                }
                _ => false,
            };
            if !ok {
                out.push((
                    format!("caching.{}", crate::model::terminal_text::for_terminal(k)),
                    "caching takes keys: ALL or NONE and rows_per_partition: ALL, NONE or a positive number".into(),
                ));
            }
        }
    }
    if let Some(compression) = &options.compression {
        for (k, v) in compression {
            let ok = is_safe_text(v)
                && match k.as_str() {
                    "class" => is_class_name(v),
                    "chunk_length_in_kb" => v.parse::<u32>().is_ok_and(u32::is_power_of_two),
                    "enabled" => matches!(v.as_str(), "true" | "false"),
                    "crc_check_chance" => v.parse::<f64>().is_ok_and(|x| (0.0..=1.0).contains(&x)),
                    "min_compress_ratio" => v.parse::<f64>().is_ok_and(|x| x >= 0.0),
                    "compression_level" => v.parse::<i32>().is_ok(),
                    _ => false,
                };
            if !ok {
                out.push((
                    format!("compression.{}", crate::model::terminal_text::for_terminal(k)),
                    "compression takes class, chunk_length_in_kb (a power of two), enabled, crc_check_chance, min_compress_ratio or compression_level".into(),
                ));
            }
        }
    }
    if let Some(p) = options.bloom_filter_fp_chance {
        if !(p > 0.0 && p <= 1.0) {
            out.push((
                "bloom_filter_fp_chance".into(),
                "bloom_filter_fp_chance must be more than 0 and at most 1".into(),
            ));
        }
    }
    if let Some(r) = &options.speculative_retry {
        if !is_speculative_retry(r) {
            out.push((
                "speculative_retry".into(),
                "speculative_retry takes ALWAYS, NEVER, NONE, a percentile (99p, 99PERCENTILE) or a time (50ms)".into(),
            ));
        }
    }
    if let Some(c) = &options.comment {
        if c.chars().any(crate::model::terminal_text::is_unsafe) {
            out.push((
                "comment".into(),
                "the comment holds a control or bidirectional character".into(),
            ));
        }
    }
    for (column, spec) in &options.indexes {
        let at = || {
            format!(
                "indexes.{}",
                crate::model::terminal_text::for_terminal(column)
            )
        };
        if let Some(n) = &spec.name {
            if !crate::model::naming::is_valid_schema_name(n) {
                out.push((
                    format!("{}.name", at()),
                    format!(
                        "\"{}\" is not a valid index name",
                        crate::model::terminal_text::for_terminal(n)
                    ),
                ));
            }
        }
        if spec.kind == IndexKind::Sai && version < CassandraVersion::V5_0 {
            out.push((
                format!("{}.kind", at()),
                format!(
                    "storage-attached indexes need Cassandra 5.0; the project targets {}",
                    version.label()
                ),
            ));
        }
        if let IndexKind::Custom(c) = &spec.kind {
            if !is_class_name(c) {
                out.push((format!("{}.kind", at()), "not a Java class name".into()));
            }
        }
        if let Some(t) = &spec.target {
            if !matches!(t.as_str(), "keys" | "values" | "entries" | "full") {
                out.push((
                    format!("{}.target", at()),
                    "an index target is keys, values, entries or full".into(),
                ));
            }
        }
        if spec
            .options
            .iter()
            .any(|(k, v)| !is_safe_text(k) || !is_safe_text(v))
        {
            out.push((
                format!("{}.options", at()),
                "an option's name or value holds a quote or a control character".into(),
            ));
        }
        if spec.kind == IndexKind::Secondary && !spec.options.is_empty() {
            out.push((
                format!("{}.options", at()),
                "the built-in index takes no options; name a kind (Sai, Sasi, Custom)".into(),
            ));
        }
    }
    for (k, v) in &options.other {
        if !OTHER_TABLE_OPTIONS.contains(&k.as_str()) {
            out.push((
                format!("other.{}", crate::model::terminal_text::for_terminal(k)),
                "not a table option Cassandra 4.0–5.0 accepts".into(),
            ));
        } else if !is_cql_term(v) {
            out.push((
                format!("other.{k}"),
                "the value must be a number, true or false, a quoted string or a map of quoted strings".into(),
            ));
        } else if k == "default_time_to_live" {
            out.push((
                "other.default_time_to_live".into(),
                "set the TTL with `retention` and `ttl`, not in `other`".into(),
            ));
        } else if k == "gc_grace_seconds" && v.trim() != "0" {
            out.push((
                "other.gc_grace_seconds".into(),
                "set gc_grace with `gc_grace` (a span such as 3h); `other` keeps only 0".into(),
            ));
        } else if k == "memtable" && version < CassandraVersion::V5_0 {
            out.push((
                "other.memtable".into(),
                format!(
                    "the memtable option needs Cassandra 5.0; the project targets {}",
                    version.label()
                ),
            ));
        }
    }
    out
}

fn compaction_value_problem(strategy: &Strategy, key: &str, value: &str) -> Option<String> {
    let positive_int = || value.parse::<u32>().is_ok_and(|n| n > 0);
    let ok = match (strategy, key) {
        // Read case-sensitively by the strategy (TimeUnit.valueOf).
        (Strategy::TimeWindow, "compaction_window_unit") => {
            matches!(value, "MINUTES" | "HOURS" | "DAYS")
        }
        (Strategy::Unified, "min_threshold" | "max_threshold") => false,
        (_, "min_threshold") => value.parse::<u32>().is_ok_and(|n| n >= 2),
        (_, "compaction_window_size" | "sstable_size_in_mb" | "max_threshold" | "fanout_size") => {
            positive_int()
        }
        (_, "enabled" | "unchecked_tombstone_compaction" | "only_purge_repaired_tombstones") => {
            matches!(value, "true" | "false")
        }
        (_, "tombstone_threshold") => value.parse::<f64>().is_ok_and(|x| x >= 0.0),
        _ => return None,
    };
    (!ok).then(|| {
        format!(
            "\"{}\" is not a valid {key}",
            crate::model::terminal_text::for_terminal(value)
        )
    })
}

/// Text that can sit inside a single-quoted CQL string as it is.
fn is_safe_text(s: &str) -> bool {
    !s.contains('\'') && !s.chars().any(crate::model::terminal_text::is_unsafe)
}

fn is_class_name(s: &str) -> bool {
    !s.is_empty()
        && s.split('.').all(|part| {
            part.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
                && part
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
        })
}

fn is_speculative_retry(s: &str) -> bool {
    let u = s.to_ascii_uppercase();
    if matches!(u.as_str(), "ALWAYS" | "NEVER" | "NONE") {
        return true;
    }
    let number = |t: &str| t.parse::<f64>().is_ok_and(|x| x >= 0.0);
    if let Some(p) = u.strip_suffix("PERCENTILE").or_else(|| u.strip_suffix('P')) {
        return p
            .parse::<f64>()
            .is_ok_and(|x| (0.0..100.0).contains(&x) && x > 0.0);
    }
    if let Some(ms) = u.strip_suffix("MS") {
        return number(ms);
    }
    // min(…) / max(…) of two of the above.
    if let Some(inner) = u
        .strip_prefix("MIN(")
        .or_else(|| u.strip_prefix("MAX("))
        .and_then(|r| r.strip_suffix(')'))
    {
        let parts: Vec<&str> = inner.split(',').map(str::trim).collect();
        return parts.len() == 2
            && parts.iter().all(|p| {
                !p.starts_with("MIN") && !p.starts_with("MAX") && is_speculative_retry(p)
            });
    }
    false
}

/// A CQL constant safe to write as an option value: a number, `true` or
/// `false`, a single-quoted string without control characters, or a map
/// `{'k': 'v', …}` of such strings.
pub fn is_cql_term(v: &str) -> bool {
    let v = v.trim();
    if v == "true" || v == "false" {
        return true;
    }
    if v.parse::<f64>().is_ok_and(f64::is_finite)
        && v.chars().all(|c| c.is_ascii_digit() || "+-.eE".contains(c))
    {
        return true;
    }
    if is_quoted(v) {
        return true;
    }
    if let Some(inner) = v.strip_prefix('{').and_then(|r| r.strip_suffix('}')) {
        let mut rest = inner.trim();
        if rest.is_empty() {
            return true;
        }
        loop {
            let Some((_, after)) = take_quoted(rest) else {
                return false;
            };
            let Some(after) = after.trim_start().strip_prefix(':') else {
                return false;
            };
            let after = after.trim_start();
            let (ok, after) = if let Some((_, a)) = take_quoted(after) {
                (true, a)
            } else {
                let end = after.find([',', '}']).unwrap_or(after.len());
                let token = after[..end].trim();
                (
                    token == "true" || token == "false" || token.parse::<f64>().is_ok(),
                    &after[end..],
                )
            };
            if !ok {
                return false;
            }
            let after = after.trim_start();
            if after.is_empty() {
                return true;
            }
            match after.strip_prefix(',') {
                Some(a) => rest = a.trim_start(),
                None => return false,
            }
        }
    }
    false
}

fn is_quoted(v: &str) -> bool {
    take_quoted(v).is_some_and(|(_, rest)| rest.is_empty())
}

/// A single-quoted string at the start of `s` (`''` an escaped quote),
/// with what follows it.
fn take_quoted(s: &str) -> Option<(String, &str)> {
    let mut chars = s.char_indices();
    if chars.next()?.1 != '\'' {
        return None;
    }
    let mut out = String::new();
    let mut iter = chars.peekable();
    while let Some((i, c)) = iter.next() {
        if crate::model::terminal_text::is_unsafe(c) {
            return None;
        }
        if c == '\'' {
            if iter.peek().is_some_and(|&(_, n)| n == '\'') {
                iter.next();
                out.push('\'');
            } else {
                return Some((out, &s[i + 1..]));
            }
        } else {
            out.push(c);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_read_every_unit_and_show_as_typed() {
        for (text, seconds) in [
            ("20s", 20.0),
            ("15m", 900.0),
            ("12h", 43_200.0),
            ("730d", 63_072_000.0),
            ("2w", 1_209_600.0),
            ("2y", 63_072_000.0),
            ("1.5h", 5_400.0),
            ("30", 2_592_000.0),
        ] {
            let s = Span::parse(text).expect(text);
            assert!((s.seconds() - seconds).abs() < 1e-6, "{text}");
        }
        assert_eq!(Span::parse("20s").map(|s| s.to_string()), Ok("20s".into()));
        assert_eq!(
            Span::parse("730d").map(|s| s.to_string()),
            Ok("730d".into())
        );
        assert_eq!(Span::parse("30").map(|s| s.to_string()), Ok("30d".into()));
        assert_eq!(Span::parse("20s").map(|s| s.whole_seconds()), Ok(20));
        for bad in ["", "s", "0s", "-5m", "12x", "21y", "NaNh", "1e400d"] {
            assert!(Span::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn versions_are_written_as_their_numbers() {
        for v in CassandraVersion::ALL {
            let text = ron::to_string(&v).expect("writes");
            assert_eq!(text, format!("\"{}\"", v.label()));
            assert_eq!(ron::from_str::<CassandraVersion>(&text).expect("reads"), v);
        }
        assert!(ron::from_str::<CassandraVersion>("\"3.11\"").is_err());
    }

    #[test]
    fn spans_round_trip_through_ron() {
        let o = TableOptions {
            retention: Some(Span::parse("20s").expect("span")),
            ttl: Some(true),
            ..TableOptions::default()
        };
        let text = ron::to_string(&o).expect("writes");
        assert!(text.contains("\"20s\""), "{text}");
        assert_eq!(ron::from_str::<TableOptions>(&text).expect("reads"), o);
    }

    #[test]
    fn option_problems_name_what_the_version_refuses() {
        let ucs = TableOptions {
            compaction: Some(Compaction {
                strategy: Strategy::Unified,
                options: BTreeMap::new(),
            }),
            ..TableOptions::default()
        };
        assert_eq!(problems(&ucs, CassandraVersion::V4_1).len(), 1);
        assert!(problems(&ucs, CassandraVersion::V5_0).is_empty());
        let twcs = |k: &str, v: &str| TableOptions {
            compaction: Some(Compaction {
                strategy: Strategy::TimeWindow,
                options: [(k.to_string(), v.to_string())].into(),
            }),
            ..TableOptions::default()
        };
        assert!(problems(
            &twcs("compaction_window_unit", "DAYS"),
            CassandraVersion::V4_0
        )
        .is_empty());
        assert_eq!(
            problems(
                &twcs("compaction_window_unit", "WEEKS"),
                CassandraVersion::V4_0
            )
            .len(),
            1
        );
        assert_eq!(
            problems(&twcs("sstable_size_in_mb", "160"), CassandraVersion::V4_0).len(),
            1
        );
        assert_eq!(
            problems(&twcs("compaction_window_size", "0"), CassandraVersion::V4_0).len(),
            1
        );
        assert_eq!(problems(&twcs("x'y", "1"), CassandraVersion::V4_0).len(), 2);
    }

    #[test]
    fn other_option_values_are_cql_constants_only() {
        for good in [
            "0.01",
            "true",
            "'99p'",
            "{'keys': 'ALL', 'rows_per_partition': 'NONE'}",
            "{}",
            "'it''s'",
        ] {
            assert!(is_cql_term(good), "{good}");
        }
        for bad in [
            "1; DROP TABLE x",
            "'open",
            "{'a': 'b'",
            "{'a' 'b'}",
            "x",
            "'\u{1b}[2J'",
            "{'a': b}",
        ] {
            assert!(!is_cql_term(bad), "{bad}");
        }
    }

    #[test]
    fn speculative_retry_values() {
        for good in [
            "99p",
            "99PERCENTILE",
            "50ms",
            "ALWAYS",
            "NONE",
            "min(99p,50ms)",
        ] {
            assert!(is_speculative_retry(good), "{good}");
        }
        for bad in ["", "100p", "fast", "min(99p)"] {
            assert!(!is_speculative_retry(bad), "{bad}");
        }
    }
}
