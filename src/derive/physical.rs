//! A table's physical options, proposed from what the model says about
//! its rows, each with its reason; the designer's choice wins. What a
//! senior operator would set: a TTL from the rows' retention, the
//! `TimeWindowCompactionStrategy` for time-ordered rows that only expire,
//! with windows sized so the retention spans about thirty of them, and a
//! `gc_grace` no longer than hint replay needs where rows are never deleted
//! or updated.

use super::types::{Origin, Physical, Role, RowLife, RowLoad, Setting, Source, Table};
use crate::model::physical::{Compaction, Span, Strategy};
use crate::model::resolve::{Graph, NodeId};
use crate::model::{CqlType, Decision, Native, Query};
use std::collections::BTreeMap;

/// Windows TWCS should keep over the retention: the strategy's guidance
/// is a few dozen (fewer windows are larger `SSTables` that expire later,
/// more are more `SSTables` to read).
pub const TARGET_WINDOWS: f64 = 30.0;

/// `gc_grace` for rows that only expire: the default `max_hint_window` (3
/// hours), so a replica that missed a write still gets it by hint before
/// any tombstone could be purged.
pub const EXPIRING_GC_GRACE_SECONDS: u64 = 10_800;

/// Reads per write from which a table counts as read-heavy: Leveled
/// compaction rewrites each row about ten times (once per level) and pays
/// that back only where most operations are reads (Apache Cassandra docs,
/// Leveled Compaction Strategy; `DataStax`, "When to use leveled
/// compaction", 2012: ~90 % reads).
pub const READ_HEAVY_RATIO: f64 = 10.0;

/// The table's reads and writes a second when its query states a load:
/// writes are its rows' inserts (a stated rate, else their count over the
/// horizon, assumed) plus, when it holds mutable attributes, their updates.
fn row_load(graph: &Graph, q: &Query, root: NodeId, updated: bool) -> Option<RowLoad> {
    let reads = q.load.as_ref()?.avg;
    let est = super::estimate::Estimator::new(graph);
    let (count, span) = est.count_with_span(root, &mut Vec::new());
    let (days, writes_assumed) = match span {
        Some(d) if d > 0.0 => (d, false),
        _ => (graph.project.thresholds.horizon_days, true),
    };
    let inserts = if days > 0.0 {
        count / days / 86_400.0
    } else {
        0.0
    };
    let updates = if updated {
        match root {
            NodeId::Entity(e) => graph.entity(e).updates.as_ref(),
            NodeId::Rel(r) => graph.rel(r).updates.as_ref(),
        }
        .map_or(0.0, |u| u.avg)
    } else {
        0.0
    };
    Some(RowLoad {
        reads,
        writes: inserts + updates,
        writes_assumed,
    })
}

/// Sets the table's TTL and physical options.
pub(crate) fn settle(
    graph: &Graph,
    q: &Query,
    root: NodeId,
    decision: Option<&Decision>,
    t: &mut Table,
) {
    let options = decision.map(|d| d.options.clone()).unwrap_or_default();
    let entity = match root {
        NodeId::Entity(e) => Some(graph.entity(e)),
        NodeId::Rel(_) => None,
    };
    let counter = t.is_counter_table();
    // Retention: the table's own, else its rows'.
    let (retention, retention_label) =
        match (&options.retention, entity.and_then(|e| e.retention_days)) {
            (Some(span), _) => (
                Some(span.seconds() / 86_400.0),
                Some(format!("{span} (the table's retention)")),
            ),
            (None, Some(days)) => (
                Some(days),
                Some(format!("{} (the rows' retention)", Span::days(days))),
            ),
            (None, None) => (None, None),
        };
    let entity_ttl = entity.is_some_and(|e| e.ttl);
    let (ttl_on, ttl_origin) = match options.ttl {
        Some(on) => (on, Origin::Designer),
        None => (entity_ttl, Origin::Derived),
    };
    t.ttl_seconds = None;
    let ttl_why = if counter {
        "no TTL: a counter table cannot have one".to_string()
    } else if ttl_on {
        let days = retention.unwrap_or(graph.project.thresholds.horizon_days);
        t.ttl_seconds = Some((days * 86_400.0).round().max(1.0) as u64);
        match (&retention_label, ttl_origin) {
            (Some(r), _) => format!("rows expire after {r}"),
            (None, _) => format!(
                "rows expire after the horizon of {} days (no retention stated: assumed)",
                graph.project.thresholds.horizon_days
            ),
        }
    } else if options.ttl == Some(false) {
        "no TTL: the designer keeps the rows".to_string()
    } else {
        "no TTL: the rows are kept until deleted".to_string()
    };
    // What the rows go through: deletes (a query consumes them), updates
    // (a regular column holds a mutable attribute), time order.
    let deleted = q.consumes;
    let updated: Vec<&str> = t
        .columns
        .iter()
        .filter(|c| !c.role.is_key())
        .filter_map(|c| match &c.source {
            Source::Attr { reached, .. } if graph.attr(reached.attr).mutable => {
                Some(c.name.as_str())
            }
            _ => None,
        })
        .collect();
    let time_ordered = time_ordered(t);
    let load = row_load(graph, q, root, !updated.is_empty());
    let compaction = match options.compaction.clone() {
        Some(c) => Setting {
            why: format!("{}: set by the designer", c.strategy.short()),
            value: Some(c),
            origin: Origin::Designer,
        },
        None if options.as_imported => Setting {
            value: None,
            origin: Origin::Default,
            why: "SizeTiered (default): as imported".into(),
        },
        None => leveled_if_read_heavy(
            proposed_compaction(
                t,
                retention,
                retention_label.as_deref(),
                deleted,
                &updated,
                time_ordered.as_deref(),
                counter,
            ),
            load.as_ref(),
            &updated,
            counter,
        ),
    };
    let zero_gc = options
        .other
        .get("gc_grace_seconds")
        .is_some_and(|v| v.trim() == "0");
    let gc_grace = match &options.gc_grace {
        _ if zero_gc => Setting {
            value: Some(0),
            origin: Origin::Designer,
            why: "0: set by the designer (no hint replay or repair can bring back deleted rows' tombstones)".into(),
        },
        Some(span) => Setting {
            value: Some(span.whole_seconds()),
            origin: Origin::Designer,
            why: format!("{span}: set by the designer"),
        },
        None if options.as_imported => Setting {
            value: None,
            origin: Origin::Default,
            why: "10 days (default): as imported".into(),
        },
        None if t.ttl_seconds.is_some() && !deleted && updated.is_empty() => Setting {
            value: Some(EXPIRING_GC_GRACE_SECONDS),
            origin: Origin::Derived,
            why: "3 hours (the default max_hint_window): rows are never deleted or updated, only expire, so tombstones need no longer protection than hint replay".into(),
        },
        None => Setting {
            value: None,
            origin: Origin::Default,
            why: if deleted {
                format!("10 days (default): {} deletes the rows it reads, and a replica down longer than gc_grace would bring them back", q.id)
            } else if !updated.is_empty() {
                format!("10 days (default): rows are updated ({}), and updates that null a cell or replace a collection leave tombstones repair must see", updated.join(", "))
            } else {
                "10 days (default): rows do not expire, so deletes may happen".into()
            },
        },
    };
    let life = RowLife {
        time_order: time_ordered,
        deleted_by: deleted.then(|| q.id.clone()),
        updated: updated.iter().map(ToString::to_string).collect(),
        load,
    };
    t.physical = Physical {
        life,
        retention_days: retention,
        ttl_why,
        gc_grace,
        compaction,
        options: {
            let mut rest = crate::model::physical::TableOptions {
                retention: None,
                ttl: None,
                gc_grace: None,
                compaction: None,
                ..options
            };
            rest.other.remove("gc_grace_seconds");
            rest.as_imported = false;
            rest
        },
    };
}

/// The clustering or partition column that orders rows by time, when the
/// rows are written in time order.
fn time_ordered(t: &Table) -> Option<String> {
    let time_like = |ty: &CqlType| {
        matches!(
            ty,
            CqlType::Native(Native::Timestamp | Native::Timeuuid | Native::Date)
        )
    };
    if let Some(c) = t.clustering().next() {
        if time_like(&c.ty) {
            return Some(c.name.to_string());
        }
    }
    // A partition per time bucket or per day: each partition is written
    // in its own period.
    t.columns
        .iter()
        .find(|c| {
            c.role == Role::Partition
                && (matches!(c.source, Source::Bucket { .. }) || time_like(&c.ty))
        })
        .map(|c| c.name.to_string())
}

fn proposed_compaction(
    t: &Table,
    retention: Option<f64>,
    retention_label: Option<&str>,
    deleted: bool,
    updated: &[&str],
    time_ordered: Option<&str>,
    counter: bool,
) -> Setting<Option<Compaction>> {
    let default = |why: String| Setting {
        value: None,
        origin: Origin::Default,
        why,
    };
    if counter {
        return default("SizeTiered (default): counters are updated in place".into());
    }
    let Some(ttl) = t.ttl_seconds else {
        return default(match (time_ordered, retention) {
            (Some(col), None) => format!(
                "SizeTiered (default): rows are written in {col} order but state no retention; with a retention and a TTL, TimeWindow would drop whole SSTables as they expire"
            ),
            (Some(col), Some(_)) => format!(
                "SizeTiered (default): rows are written in {col} order and kept, not expired; a TTL would allow TimeWindow"
            ),
            _ => "SizeTiered (default): no workload figures show the table read far more than written (Leveled) or expiring in time order (TimeWindow)".into(),
        });
    };
    let Some(col) = time_ordered else {
        return default(
            "SizeTiered (default): rows expire but are not written in time order (no time-like leading clustering column or time bucket), so TimeWindow would mix ages in one window".into(),
        );
    };
    if deleted {
        return default(
            "SizeTiered (default): rows are deleted as well as expired; TimeWindow keeps tombstones and their data in different windows".into(),
        );
    }
    if !updated.is_empty() {
        return default(format!(
            "SizeTiered (default): rows are updated ({}); TimeWindow needs rows written once",
            updated.join(", ")
        ));
    }
    let seconds = retention.map_or(ttl as f64, |d| d * 86_400.0);
    let (unit, size) = window(seconds);
    let windows = seconds / (size as f64 * unit_seconds(unit));
    let mut options = BTreeMap::new();
    options.insert("compaction_window_unit".to_string(), unit.to_string());
    options.insert("compaction_window_size".to_string(), size.to_string());
    Setting {
        value: Some(Compaction {
            strategy: Strategy::TimeWindow,
            options,
        }),
        origin: Origin::Derived,
        why: format!(
            "TimeWindow, {size} {unit} windows: rows are written in {col} order and only expire ({}), so whole SSTables drop when their window expires; {}",
            retention_label.unwrap_or("after the TTL"),
            if windows < 1.0 {
                "the retention fits in one window (the smallest TimeWindow takes)".to_string()
            } else {
                format!("the retention spans {windows:.1} windows (aim: about {TARGET_WINDOWS})")
            }
        ),
    }
}

/// Leveled instead of the default for a table read far more than written
/// (at least [`READ_HEAVY_RATIO`] reads a write) or whose rows are updated
/// and read at least as often as written: a row's versions then stay in
/// few `SSTables` and a read touches one per level. `TimeWindow` stays
/// where it fits; nothing changes without a stated load.
fn leveled_if_read_heavy(
    proposal: Setting<Option<Compaction>>,
    load: Option<&RowLoad>,
    updated: &[&str],
    counter: bool,
) -> Setting<Option<Compaction>> {
    let Some(l) = load else {
        return proposal;
    };
    if proposal.origin == Origin::Derived || counter {
        return proposal;
    }
    let why = if l.reads >= READ_HEAVY_RATIO * l.writes {
        format!(
            "Leveled: read far more than written ({:.1} reads/s against {}), so reads touch one SSTable per level; Leveled rewrites each row about ten times, which this read share pays for",
            l.reads,
            l.writes_text()
        )
    } else if !updated.is_empty() && l.reads >= l.writes {
        format!(
            "Leveled: rows are updated ({}) and read at least as often as written ({:.1} reads/s against {}), so a row's versions stay in few SSTables",
            updated.join(", "),
            l.reads,
            l.writes_text()
        )
    } else {
        return Setting {
            why: format!(
                "{}; at {:.1} reads/s against {} the table is not read-heavy enough for Leveled",
                proposal.why,
                l.reads,
                l.writes_text()
            ),
            ..proposal
        };
    };
    Setting {
        value: Some(Compaction {
            strategy: Strategy::Leveled,
            options: BTreeMap::new(),
        }),
        origin: Origin::Derived,
        why,
    }
}

/// The window unit and size that splits `seconds` into about
/// [`TARGET_WINDOWS`] windows, in the largest unit that fits one window.
pub fn window(seconds: f64) -> (&'static str, u64) {
    let each = seconds / TARGET_WINDOWS;
    for unit in ["DAYS", "HOURS"] {
        let size = (each / unit_seconds(unit)).round();
        if size >= 1.0 {
            return (unit, size as u64);
        }
    }
    ("MINUTES", (each / 60.0).round().max(1.0) as u64)
}

fn unit_seconds(unit: &str) -> f64 {
    match unit {
        "DAYS" => 86_400.0,
        "HOURS" => 3_600.0,
        _ => 60.0,
    }
}

/// The table's physical options as lines for people, each `(what, value
/// and why)`: TTL, compaction, `gc_grace`, then the designer's others.
pub fn summary(t: &Table) -> Vec<(&'static str, String)> {
    let p = &t.physical;
    let mut out = Vec::new();
    out.push(("TTL", p.ttl_why.clone()));
    // A designer's setting says so in its reason already.
    let origin = |o: Origin| match o {
        Origin::Derived => " [derived]",
        Origin::Designer | Origin::Default => "",
    };
    out.push((
        "compaction",
        format!("{}{}", p.compaction.why, origin(p.compaction.origin)),
    ));
    out.push((
        "gc_grace",
        format!("{}{}", p.gc_grace.why, origin(p.gc_grace.origin)),
    ));
    let o = &p.options;
    let map = |m: &BTreeMap<String, String>| {
        m.iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    if let Some(c) = &o.caching {
        out.push(("caching", format!("{} [designer]", map(c))));
    }
    if let Some(c) = &o.compression {
        out.push(("compression", format!("{} [designer]", map(c))));
    }
    if let Some(b) = o.bloom_filter_fp_chance {
        out.push(("bloom_filter_fp_chance", format!("{b} [designer]")));
    }
    if let Some(r) = &o.speculative_retry {
        out.push(("speculative_retry", format!("{r} [designer]")));
    }
    if let Some(c) = o.cdc {
        out.push(("cdc", format!("{c} [designer]")));
    }
    for (k, v) in &o.other {
        out.push(("option", format!("{k} = {v} [designer]")));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Windows worked out by hand: two years in 24-day windows (30.4 of
    /// them), 90 days in 3-day windows, one day in 1-hour windows (24; 48
    /// minutes rounds up to the hour), 20 seconds in one 1-minute window.
    #[test]
    fn windows_split_the_retention_into_about_thirty() {
        assert_eq!(window(730.0 * 86_400.0), ("DAYS", 24));
        assert_eq!(window(90.0 * 86_400.0), ("DAYS", 3));
        assert_eq!(window(365.0 * 86_400.0), ("DAYS", 12));
        assert_eq!(window(30.0 * 86_400.0), ("DAYS", 1));
        assert_eq!(window(86_400.0), ("HOURS", 1));
        assert_eq!(window(7.0 * 86_400.0), ("HOURS", 6));
        assert_eq!(window(20.0), ("MINUTES", 1));
        assert_eq!(window(3_600.0), ("MINUTES", 2));
    }
}
