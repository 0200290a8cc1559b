//! The refinement menu of a table: what to offer, in which order, under
//! which labels, and which entry is proposed. The workbench only shows it.

use crate::derive::{LogicalModel, Role, Rule, Source, Table};
use crate::model::{Period, Project};
use crate::review::diagnose::Refinement;

/// Which refinements a menu offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Bucket,
    Shard,
}

/// Shard counts offered besides the proposed one.
pub(crate) const SHARD_COUNTS: [u32; 5] = [2, 4, 8, 16, 32];

/// The entries of a refinement menu, parallel to their labels.
#[derive(Clone, Debug, PartialEq)]
pub struct Menu {
    pub entries: Vec<Refinement>,
    pub labels: Vec<String>,
    /// The entry to start on: the proposed one, else the first.
    pub cursor: usize,
}

/// The refinements of `table`, the proposed bucket period first (marked
/// and preselected) with the other periods after it, the proposed shard
/// count with the other counts after it; `only` narrows to one kind. When
/// nothing applies, says so.
pub fn menu(
    p: &Project,
    model: &LogicalModel,
    table: &Table,
    only: Option<Kind>,
) -> Result<Menu, String> {
    let mut list = super::options_in(p, model, &table.origin);
    // A bucket already in the key is offered only as a change of period:
    // adding it again changes nothing but the column's name.
    // A query's calendar part is no designer's bucket: another period
    // joins it (the preview counts what the query then reads), and its own
    // period is not offered again.
    let existing_bucket = table.partition_key().find_map(|c| match &c.source {
        Source::Bucket { period, .. } if c.rule != Rule::Calendar => Some(*period),
        _ => None,
    });
    let calendar: Vec<Period> = table
        .partition_key()
        .filter(|c| c.rule == Rule::Calendar)
        .filter_map(|c| match &c.source {
            Source::Bucket { period, .. } => Some(*period),
            _ => None,
        })
        .collect();
    // A partition of one row has nothing to spread over shards.
    let one_row = !table
        .columns
        .iter()
        .any(|c| matches!(c.role, Role::Clustering(_)));
    let mut proposed = None;
    // The period a query of these rows searches the bucketed time by
    // (`day of ts`), with that query: its bucket comes first.
    let mut named: Option<(Period, String)> = None;
    if let Some(pos) = list
        .iter()
        .position(|r| matches!(r, Refinement::AddBucket { .. }))
    {
        if let Refinement::AddBucket {
            query,
            source,
            period,
            ..
        } = list[pos].clone()
        {
            if existing_bucket != Some(period) && !calendar.contains(&period) {
                proposed = Some(list[pos].clone());
            }
            named = crate::review::diagnose::named_period(
                &crate::model::resolve::Graph::new(p),
                table,
                &source,
            );
            let mut others: Vec<Refinement> = Period::ALL
                .into_iter()
                .filter(|p| *p != period)
                .map(|p| Refinement::AddBucket {
                    query: query.clone(),
                    column: crate::review::diagnose::partition_extra_name(table, p.name()),
                    source: source.clone(),
                    period: p,
                })
                .collect();
            let first = named.as_ref().and_then(|(n, _)| {
                others
                    .iter()
                    .position(|r| matches!(r, Refinement::AddBucket { period, .. } if period == n))
            });
            match first {
                // Named but too coarse to be proposed: first all the same.
                Some(i) => {
                    let entry = others.remove(i);
                    list.insert(pos, entry);
                    list.splice((pos + 2)..=(pos + 1), others);
                }
                None => {
                    list.splice((pos + 1)..=pos, others);
                }
            }
        }
    }
    if let Some(pos) = list
        .iter()
        .position(|r| matches!(r, Refinement::AddShard { .. }))
    {
        if let Refinement::AddShard {
            query,
            column,
            count,
        } = list[pos].clone()
        {
            let others: Vec<Refinement> = SHARD_COUNTS
                .into_iter()
                .filter(|c| *c != count)
                .map(|c| Refinement::AddShard {
                    query: query.clone(),
                    column: column.clone(),
                    count: c,
                })
                .collect();
            list.splice((pos + 1)..=pos, others);
        }
    }
    list.retain(|r| match r {
        Refinement::AddBucket { period, .. } => {
            existing_bucket != Some(*period) && !calendar.contains(period)
        }
        Refinement::AddShard { .. } => !one_row,
        _ => true,
    });
    list.retain(|r| match only {
        Some(Kind::Bucket) => matches!(r, Refinement::AddBucket { .. }),
        Some(Kind::Shard) => matches!(r, Refinement::AddShard { .. }),
        None => true,
    });
    if list.is_empty() {
        let what = match only {
            Some(Kind::Bucket) if existing_bucket.is_some() || !calendar.is_empty() => {
                "its bucket already and no other period to offer"
            }
            Some(Kind::Bucket) => "no date or time column to bucket by",
            Some(Kind::Shard) if one_row => "one row per partition: nothing to shard",
            Some(Kind::Shard) => "a shard already",
            None => "no refinement that applies",
        };
        return Err(format!("{} has {what}", table.name));
    }
    let named_by = |r: &Refinement| match (r, &named) {
        (Refinement::AddBucket { period, .. }, Some((n, q))) if period == n => {
            Some(format!("{q} searches by {}", n.name()))
        }
        _ => None,
    };
    let labels = list
        .iter()
        .map(|r| {
            let mut notes: Vec<String> = Vec::new();
            if Some(r) == proposed.as_ref() {
                notes.push("proposed".into());
            } else if let (Refinement::AddBucket { .. }, Some(old)) = (r, existing_bucket) {
                notes.push(format!("replaces the {} bucket", old.name()));
            }
            notes.extend(named_by(r));
            if notes.is_empty() {
                menu_label(r)
            } else {
                format!("{} ({})", menu_label(r), notes.join("; "))
            }
        })
        .collect();
    let cursor = proposed
        .and_then(|p| list.iter().position(|r| *r == p))
        .unwrap_or(0);
    Ok(Menu {
        entries: list,
        labels,
        cursor,
    })
}

/// A menu line. The menu is of one table, so the table is not named again,
/// and the column is named apart from the kind of change, so a column
/// called `shard` or `day` does not read "a shard shard" or "bucket day".
pub(crate) fn menu_label(r: &Refinement) -> String {
    match r {
        Refinement::AddBucket {
            source,
            period,
            column,
            ..
        } => format!(
            "Bucket the partitions by {} of {source} (new column {column})",
            period.name()
        ),
        Refinement::AddShard { column, count, .. } => {
            format!("Spread each partition over {count} shards (new column {column}, 0..{count})")
        }
        other => other.label(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load;

    fn hotel() -> Project {
        load::from_str(include_str!("../../../sample-projects/hotel.cqlm.ron")).expect("sample")
    }

    #[test]
    fn labels_follow_entries_and_the_cursor_is_in_range() {
        let p = hotel();
        let m = crate::derive::derive(&p);
        let mut offered = 0;
        for t in &m.tables {
            if let Ok(menu) = menu(&p, &m, t, None) {
                offered += 1;
                assert_eq!(menu.entries.len(), menu.labels.len());
                assert!(menu.cursor < menu.entries.len());
                for (r, l) in menu.entries.iter().zip(&menu.labels) {
                    assert!(l.starts_with(&menu_label(r)), "{l} labels {r:?}");
                }
            }
        }
        assert!(offered > 0, "no table of the sample has a refinement");
    }

    fn repeats_a_word(label: &str) -> bool {
        let words: Vec<String> = label
            .split(|c: char| !c.is_alphanumeric() && c != '_')
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        words.windows(2).any(|w| w[0] == w[1])
            || label.contains("bucket day")
            || label.contains("shard shard")
    }

    #[test]
    fn menu_labels_do_not_repeat_words_whatever_the_column_is_called() {
        let shard = Refinement::AddShard {
            query: "Q1".into(),
            column: "shard".into(),
            count: 8,
        };
        let bucket = Refinement::AddBucket {
            query: "Q1".into(),
            source: "posted_at".into(),
            period: Period::Day,
            column: "day".into(),
        };
        for r in [shard, bucket] {
            let l = menu_label(&r);
            assert!(!repeats_a_word(&l), "{l}");
        }
        assert_eq!(
            menu_label(&Refinement::AddShard {
                query: "Q1".into(),
                column: "shard".into(),
                count: 8,
            }),
            "Spread each partition over 8 shards (new column shard, 0..8)"
        );
    }

    #[test]
    fn a_bucket_menu_offers_every_period_with_the_proposed_one_first() {
        let p = hotel();
        let m = crate::derive::derive(&p);
        let Some(menu) = m
            .tables
            .iter()
            .find_map(|t| menu(&p, &m, t, Some(Kind::Bucket)).ok())
        else {
            panic!("no table of the sample can be bucketed");
        };
        assert_eq!(menu.entries.len(), Period::ALL.len());
        assert!(menu
            .entries
            .iter()
            .all(|r| matches!(r, Refinement::AddBucket { .. })));
        assert!(menu.labels[menu.cursor].ends_with("(proposed)"));
        assert_eq!(
            menu.labels
                .iter()
                .filter(|l| l.ends_with("(proposed)"))
                .count(),
            1
        );
    }

    #[test]
    fn a_shard_menu_offers_each_count_once() {
        let p = hotel();
        let m = crate::derive::derive(&p);
        for t in &m.tables {
            if let Ok(menu) = menu(&p, &m, t, Some(Kind::Shard)) {
                let mut counts: Vec<u32> = menu
                    .entries
                    .iter()
                    .filter_map(|r| match r {
                        Refinement::AddShard { count, .. } => Some(*count),
                        _ => None,
                    })
                    .collect();
                counts.sort_unstable();
                counts.dedup();
                assert_eq!(counts.len(), menu.entries.len());
                assert!(SHARD_COUNTS.iter().all(|c| counts.contains(c)));
            }
        }
    }

    #[test]
    fn an_existing_bucket_is_not_offered_again() {
        let p = hotel();
        let m = crate::derive::derive(&p);
        let (origin, first) = m
            .tables
            .iter()
            .find_map(|t| Some((t.origin.clone(), menu(&p, &m, t, Some(Kind::Bucket)).ok()?)))
            .expect("a table of the sample can be bucketed");
        let chosen = first.entries[first.cursor].clone();
        let Refinement::AddBucket { period, .. } = chosen else {
            panic!("not a bucket: {chosen:?}");
        };
        let p2 = crate::edit::refine::apply(&p, &chosen).expect("applies");
        let m2 = crate::derive::derive(&p2);
        let t2 = m2
            .tables
            .iter()
            .find(|t| t.origin == origin)
            .expect("the table stays");
        let again = menu(&p2, &m2, t2, Some(Kind::Bucket)).expect("other periods remain");
        assert_eq!(again.entries.len(), Period::ALL.len() - 1);
        for (r, label) in again.entries.iter().zip(&again.labels) {
            let Refinement::AddBucket { period: other, .. } = r else {
                panic!("not a bucket: {r:?}");
            };
            assert_ne!(*other, period, "{label}");
            assert!(!label.ends_with("(proposed)"), "{label}");
            assert!(label.contains("replaces the"), "{label}");
        }
        // Every remaining entry really changes the model.
        for r in &again.entries {
            let p3 = crate::edit::refine::apply(&p2, r).expect("applies");
            assert_ne!(crate::derive::derive(&p3).tables, m2.tables, "{r:?}");
        }
    }

    #[test]
    fn one_row_partitions_are_not_offered_shards() {
        let p = hotel();
        let m = crate::derive::derive(&p);
        let mut one_row_tables = 0;
        for t in &m.tables {
            let one_row = !t
                .columns
                .iter()
                .any(|c| matches!(c.role, Role::Clustering(_)));
            let offered = menu(&p, &m, t, None).is_ok_and(|m| {
                m.entries
                    .iter()
                    .any(|r| matches!(r, Refinement::AddShard { .. }))
            });
            if one_row {
                one_row_tables += 1;
                assert!(!offered, "{} has one row per partition", t.name);
                let err = menu(&p, &m, t, Some(Kind::Shard)).expect_err("nothing to shard");
                assert!(err.contains("one row per partition"), "{err}");
            }
        }
        assert!(one_row_tables > 0, "the sample has no one-row table");
        assert!(
            m.tables
                .iter()
                .any(|t| menu(&p, &m, t, Some(Kind::Shard)).is_ok()),
            "shards are still offered where partitions hold many rows"
        );
    }
}
