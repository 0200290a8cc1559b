//! The physical layer's rules: a compaction strategy that does not fit how
//! the rows live, expiring time series left on a strategy that cannot drop
//! whole `SSTables`, and a `gc_grace` shorter than hint replay where it
//! matters, and tombstones piling up in partitions reads scan. Each reads the derivation's `RowLife` and the table's settled
//! options, whoever set them (designer, import or proposal).

use super::{Ctx, Diagnostic, Subject};
use crate::derive::physical::EXPIRING_GC_GRACE_SECONDS;
use crate::derive::Origin;
use crate::model::physical::Strategy;
use crate::model::quantity::{count, group_digits};
use crate::model::CqlType;

/// Tombstones a read may scan before Cassandra logs a warning
/// (`tombstone_warn_threshold`); at 100,000 it fails the read.
pub(crate) const TOMBSTONE_WARN: f64 = 1_000.0;

/// `gc_grace_seconds` when nothing sets it: 10 days.
const DEFAULT_GC_GRACE_SECONDS: u64 = 864_000;

pub(super) fn table(ctx: &Ctx, i: usize, out: &mut Vec<Diagnostic>) {
    let Some(t) = ctx.model.tables.get(i) else {
        return;
    };
    let p = &t.physical;
    let life = &p.life;
    let strategy = p.compaction.value.as_ref().map(|c| &c.strategy);
    let subject = || Subject::Table(t.name.clone());
    if strategy == Some(&Strategy::TimeWindow) {
        let misfit = if let Some(q) = &life.deleted_by {
            Some(format!("{q} deletes the rows it reads, and TimeWindow keeps a tombstone and the data it shadows in different windows, so neither is dropped until both windows expire"))
        } else if !life.updated.is_empty() {
            Some(format!(
                "rows are updated ({}), and an update lands in a newer window than the row, so old windows never expire whole",
                life.updated.join(", ")
            ))
        } else if life.time_order.is_none() {
            Some("rows are not written in time order (no time-like leading clustering column or time bucket), so every window mixes rows of every age".into())
        } else if t.ttl_seconds.is_none() {
            Some("rows do not expire (no TTL), so windows are never dropped and TimeWindow only adds SSTables".into())
        } else {
            None
        };
        if let Some(why) = misfit {
            out.push(ctx.diag(
                "twcs-misfit",
                subject(),
                format!("{} uses TimeWindowCompactionStrategy but {why}.", t.name),
                "Use SizeTiered (or Leveled for read-heavy tables), or write the rows once, in time order, with a TTL.".into(),
            ));
        }
    } else if let (Some(ttl), Some(col), None, true) = (
        t.ttl_seconds,
        &life.time_order,
        &life.deleted_by,
        life.updated.is_empty(),
    ) {
        if p.compaction.origin != Origin::Derived && !t.is_counter_table() {
            let (unit, size) = crate::derive::physical::window(
                p.retention_days.map_or(ttl as f64, |d| d * 86_400.0),
            );
            out.push(ctx.diag(
                "expiring-without-twcs",
                subject(),
                format!(
                    "{} holds rows written in {col} order that only expire (TTL {ttl} s) on {}: expired rows are dropped one compaction at a time instead of whole SSTables at once.",
                    t.name,
                    strategy.map_or("SizeTiered (the default)", Strategy::class)
                ),
                format!("Set compaction to TimeWindow with {size} {unit} windows (options.compaction in the table's decision)."),
            ));
        }
    }
    tombstones(ctx, i, out);
    if let (Some(Strategy::Leveled), Some(l)) = (strategy, &life.load) {
        if l.writes > l.reads {
            out.push(ctx.diag(
                "lcs-write-heavy",
                subject(),
                format!(
                    "{} uses LeveledCompactionStrategy but is written more than read ({} against {:.1} reads/s): Leveled rewrites each row about once per level, so its compaction I/O grows with the writes while few reads gain from it.",
                    t.name,
                    l.writes_text(),
                    l.reads
                ),
                "Use SizeTiered (the default) for a write-heavy table, or state the load that makes it read-heavy.".into(),
            ));
        }
    }
    for v in &p.options.views {
        out.push(ctx.diag(
            "materialized-view",
            subject(),
            format!(
                "{} has the materialized view {}: views are experimental and disabled by default since Cassandra 4.0 (materialized_views_enabled: false), and a view can fall out of sync with its table with no repair that finds it.",
                t.name, v.name
            ),
            format!(
                "Enable materialized_views_enabled on every node knowingly, or replace {} by a table the application writes with {} (a query of its own).",
                v.name, t.name
            ),
        ));
    }
    if let Some(g) = p.gc_grace.value.filter(|g| *g < EXPIRING_GC_GRACE_SECONDS) {
        let deletes =
            life.deleted_by.is_some() || !life.updated.is_empty() || t.ttl_seconds.is_none();
        let message = if deletes {
            format!(
                "{} has gc_grace_seconds = {g}, under the 3-hour hint window, yet its rows are deleted, updated or kept: a replica down longer than that misses the tombstone, and the deleted data comes back after compaction purges it elsewhere.",
                t.name
            )
        } else {
            format!(
                "{} has gc_grace_seconds = {g}: hints for the table live no longer than that, so a replica down for more than {g} s misses the writes until a repair.",
                t.name
            )
        };
        out.push(ctx.diag(
            "gc-grace-too-low",
            subject(),
            message,
            format!("Keep gc_grace_seconds at least {EXPIRING_GC_GRACE_SECONDS} (3 hours) and run repairs more often than it."),
        ));
    }
}

/// Tombstones a partition of table `i` holds within `gc_grace_seconds`,
/// when its rows are deleted (a query consumes them) or a non-frozen
/// collection of theirs is overwritten (a whole new value first writes a
/// range tombstone over the old), reported above the read warning
/// threshold. A queue's partition collects the rows that arrive in
/// `gc_grace` (all of them, when no rate is stated); an overwritten
/// collection leaves one per row.
fn tombstones(ctx: &Ctx, i: usize, out: &mut Vec<Diagnostic>) {
    let (Some(t), Some(e)) = (ctx.model.tables.get(i), ctx.estimate(i)) else {
        return;
    };
    let life = &t.physical.life;
    let gc = t
        .physical
        .gc_grace
        .value
        .unwrap_or(DEFAULT_GC_GRACE_SECONDS);
    let gc_days = gc as f64 / 86_400.0;
    let collections: Vec<&str> = life
        .updated
        .iter()
        .filter(|name| {
            t.column(name)
                .is_some_and(|c| c.ty.is_collection() && !matches!(c.ty, CqlType::Frozen(_)))
        })
        .map(String::as_str)
        .collect();
    let mut causes = Vec::new();
    let mut per_partition: f64 = 0.0;
    if let Some(q) = &life.deleted_by {
        let n = e
            .growth_per_day
            .map_or(e.rows_per_partition, |g| g * gc_days);
        per_partition += n;
        causes.push(format!("{q} deletes every row it reads"));
    }
    if !collections.is_empty() {
        per_partition += e.rows_per_partition;
        causes.push(format!(
            "overwriting {} (a non-frozen collection) writes a range tombstone in each row",
            collections.join(", ")
        ));
    }
    if causes.is_empty() || per_partition <= TOMBSTONE_WARN {
        return;
    }
    out.push(ctx.diag(
        "tombstones",
        Subject::Table(t.name.clone()),
        format!(
            "{} leaves tombstones: {}. A partition holds about {} tombstones within gc_grace_seconds ({} days), over the {} a read scans before Cassandra warns (it fails the read at 100,000): reads of the partition slow down and time out.",
            t.name,
            causes.join("; "),
            group_digits(per_partition.round()),
            count(gc_days),
            group_digits(TOMBSTONE_WARN)
        ),
        "Keep fewer rows per partition (a time bucket the reads can name), don't delete what was read (keep each reader's position and let a TTL expire the rows), and write collections element by element or frozen.".into(),
    ));
}
