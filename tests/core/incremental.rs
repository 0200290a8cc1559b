//! Incremental analysis equals a full analysis: random edit sequences,
//! made through the core's edit layer (`edit::apply`, admitted the way the
//! workbench admits them) and undone through the inverse it returns, on the
//! bundled samples and generated projects; after every edit the result of
//! `IncrementalAnalysis::reanalyze` must equal `analysis::analyze`: tables,
//! plans, write paths, problems, estimates, diagnostics and the CQL script.
//! The edits reach every part of a project: entities, relationships,
//! queries, the workflow, decisions and their table options (retention,
//! TTL, `gc_grace`, compaction), and the settings (thresholds, the
//! partition key rule, the Cassandra version, the keyspace).

use cqlmodel::analysis::incremental::IncrementalAnalysis;
use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::edit::{self, Edit, EditTarget, Item};
use cqlmodel::model::resolve::NodeId;
use cqlmodel::model::synthetic::{self, Rng};
use cqlmodel::model::{load, Dir, Project};
use cqlmodel::review::diagnose::Refinement;
use cqlmodel::samples::SAMPLES;
use proptest::prelude::*;

fn base(rng: &mut Rng) -> Project {
    let pick = rng.below(SAMPLES.len() + 2);
    match SAMPLES.get(pick) {
        Some(s) => load::from_str(s.text).expect("sample loads"),
        None => synthetic::project(3 + rng.below(6), 4 + rng.below(12), rng.next_u64()),
    }
}

fn pick<'a, T>(rng: &mut Rng, items: &'a [T]) -> Option<&'a T> {
    (!items.is_empty()).then(|| &items[rng.below(items.len())])
}

/// Attribute names a query of `q` could name: its rows' own attributes.
fn own_attributes(p: &Project, q: usize) -> Vec<String> {
    let Some(query) = p.queries.get(q) else {
        return vec![];
    };
    let entity = p.entities.iter().find(|e| e.name == query.rows);
    let rel = p.relationships.iter().find(|r| r.name == query.rows);
    entity
        .map(|e| e.attributes.iter().map(|a| a.name.clone()).collect())
        .or_else(|| rel.map(|r| r.attributes.iter().map(|a| a.name.clone()).collect()))
        .unwrap_or_default()
}

fn subset(rng: &mut Rng, items: &[String], max: usize) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for _ in 0..=rng.below(max.max(1)) {
        if let Some(x) = pick(rng, items) {
            if !out.contains(x) {
                out.push(x.clone());
            }
        }
    }
    out
}

/// A random edit of any kind `Edit` offers, aimed at what is in `p`.
fn random_edit(rng: &mut Rng, p: &Project, a: &Analysis) -> Option<Edit> {
    let n = rng.next_u64();
    let entities = p.entities.len();
    let queries = p.queries.len();
    let e = rng.below(entities.max(1));
    let q = rng.below(queries.max(1));
    let qid = p.queries.get(q).map(|x| x.id.clone());
    let attrs = own_attributes(p, q);
    Some(match rng.below(26) {
        0 => Edit::AddEntity(format!("New{}", n % 1000)),
        1 => Edit::AddAttribute(
            NodeId::Entity(e),
            format!(
                "extra{} {}",
                n % 100,
                ["text", "int", "timestamp"][rng.below(3)]
            ),
        ),
        2 => {
            let ent = p.entities.get(e)?;
            Edit::Rename(
                Item::Attribute(e, rng.below(ent.attributes.len().max(1))),
                format!("renamed{}", n % 100),
            )
        }
        3 => Edit::Rename(Item::Entity(e), format!("Renamed{}", n % 100)),
        4 => {
            let ent = p.entities.get(e)?;
            Edit::Delete(Item::Attribute(e, rng.below(ent.attributes.len().max(1))))
        }
        5 => {
            // Figures: the entity's count and an attribute's size, through
            // the RON editor of the entity.
            let mut ent = p.entities.get(e)?.clone();
            ent.count = Some([10.0, 5_000.0, 2.0e7][rng.below(3)]);
            if let Some(attr) = ent.attributes.last_mut() {
                attr.distinct = Some([3.0, 400.0][rng.below(2)]);
            }
            Edit::Replace(EditTarget::Entity(e), load::item_to_string(&ent))
        }
        6 => {
            let mut rel = p
                .relationships
                .get(rng.below(p.relationships.len().max(1)))?
                .clone();
            if let Some(c) = rel.to_per_from.as_mut() {
                c.avg = [2.0, 80.0, 50_000.0][rng.below(3)];
            }
            let r = p.relationships.iter().position(|x| x.name == rel.name)?;
            Edit::Replace(EditTarget::Relationship(r), load::item_to_string(&rel))
        }
        7 => Edit::SetEquality(q, subset(rng, &attrs, 2)),
        8 => Edit::SetReturns(q, subset(rng, &attrs, 4)),
        9 => Edit::SetRange(
            q,
            if rng.chance(30) {
                None
            } else {
                pick(rng, &attrs).cloned()
            },
        ),
        10 => Edit::SetOrder(
            q,
            subset(rng, &attrs, 1)
                .into_iter()
                .map(|x| (x, if rng.chance(50) { Dir::Asc } else { Dir::Desc }))
                .collect(),
        ),
        11 => Edit::ToggleEntry(q),
        12 => Edit::PinName(qid?, format!("pinned_{}", n % 10)),
        13 => {
            let other = p.queries.get(rng.below(queries.max(1)))?.id.clone();
            Edit::Merge(vec![qid?], other)
        }
        14 => {
            // As the workbench splits: over the model without the merge.
            let queries = vec![qid?];
            match edit::unmerged(p, &queries) {
                Some(u) => edit::split(queries, &cqlmodel::derive::derive(&u)),
                None => edit::split(queries, &a.model),
            }
        }
        15 => Edit::AddQuery(
            format!("Find things {}", n % 100),
            p.entities.get(e)?.name.clone(),
        ),
        16 => Edit::Delete(Item::Query(q)),
        17 => Edit::Move(Item::Query(q), rng.chance(50)),
        18 => Edit::Rename(Item::Query(q), format!("R{}", n % 100)),
        19 => {
            // A refinement the review offers, as the workbench would apply.
            let offered: Vec<Refinement> = a
                .diagnostics
                .iter()
                .filter_map(|d| d.refinement.as_deref().cloned())
                .collect();
            match pick(rng, &offered) {
                Some(r) => Edit::Refine(r.clone()),
                None => Edit::Refine(Refinement::AddShard {
                    query: qid?.into(),
                    column: "shard".into(),
                    count: 4,
                }),
            }
        }
        20 => {
            let from = p.queries.get(rng.below(queries.max(1)))?.id.clone();
            Edit::AddTransition(from, qid?)
        }
        21 if rng.chance(50) => {
            // A waiver of a finding the review shows, or of one it does
            // not (a stale waiver): applied over reused findings, it must
            // mark and report exactly what a full review does.
            let (rule, subject) = match pick(rng, &a.diagnostics) {
                Some(d) if rng.chance(80) => (d.rule.to_string(), d.subject.label()),
                _ => (
                    "hot-partition".to_string(),
                    format!("table gone_{}", n % 10),
                ),
            };
            Edit::AddWaiver(cqlmodel::model::Waiver {
                rule,
                subject,
                reason: format!("judged {}", n % 100),
                by: None,
                on: None,
            })
        }
        22 | 23 => settings_edit(rng, p),
        24 => options_edit(rng, p, qid?),
        _ => Edit::Move(Item::Entity(e), rng.chance(50)),
    })
}

/// An edit of the project settings through their RON editor: a threshold
/// (values, bytes, the horizon of unretained growth), the partition key
/// rule, the target Cassandra version, or the keyspace.
fn settings_edit(rng: &mut Rng, p: &Project) -> Edit {
    use cqlmodel::model::physical::CassandraVersion;
    use cqlmodel::model::{PartitionKeys, Replication};
    let mut q = p.clone();
    match rng.below(7) {
        0 => q.thresholds.max_values = [50.0, 2_000.0, 100_000.0][rng.below(3)],
        1 => q.thresholds.max_bytes = [4_096.0, 1.0e6, 1.0e9][rng.below(3)],
        2 => q.thresholds.horizon_days = [7.0, 365.0, 3_650.0][rng.below(3)],
        3 => {
            q.partition_keys = if q.partition_keys == PartitionKeys::AllEquality {
                PartitionKeys::ByEstimate
            } else {
                PartitionKeys::AllEquality
            };
        }
        4 => {
            q.cassandra = [
                CassandraVersion::V4_0,
                CassandraVersion::V4_1,
                CassandraVersion::V5_0,
            ][rng.below(3)];
        }
        5 => {
            q.keyspace.replication = if rng.chance(50) {
                Replication::Simple(1 + u32::try_from(rng.below(5)).unwrap_or(0))
            } else {
                Replication::NetworkTopology([("dc1".into(), 3), ("dc2".into(), 2)].into())
            };
        }
        _ => q.keyspace.name = format!("ks{}", rng.below(3)),
    }
    let text = EditTarget::Settings.render(&q).unwrap_or_default();
    Edit::Replace(EditTarget::Settings, text)
}

/// An edit of a query's table options through the decision's RON editor:
/// retention, TTL, `gc_grace`, compaction.
fn options_edit(rng: &mut Rng, p: &Project, query: String) -> Edit {
    use cqlmodel::model::physical::{Compaction, Span, Strategy};
    let mut q = p.clone();
    let o = &mut q.decision_mut(&query).options;
    match rng.below(4) {
        0 => o.retention = [None, Span::parse("2d").ok(), Span::parse("90d").ok()][rng.below(3)],
        1 => o.ttl = [None, Some(false), Some(true)][rng.below(3)],
        2 => o.gc_grace = [None, Span::parse("3h").ok()][rng.below(2)],
        _ => {
            o.compaction = [None, Some(Strategy::Leveled), Some(Strategy::TimeWindow)]
                [rng.below(3)]
            .clone()
            .map(|strategy| Compaction {
                strategy,
                options: std::collections::BTreeMap::new(),
            });
        }
    }
    let target = EditTarget::Decision(query);
    let text = target.render(&q).unwrap_or_default();
    Edit::Replace(target, text)
}

/// Applies `e` to a copy the way the workbench admits an edit; the new
/// project and the inverse, or none when refused.
fn admitted(p: &Project, e: &Edit) -> Option<(Project, Edit)> {
    let mut next = p.clone();
    let inverse = edit::apply(&mut next, e).ok()?;
    next.prune_decisions();
    edit::validated(&next).ok()?;
    Some((next, inverse))
}

/// The first element that differs, by Debug text (which compares the
/// floating-point estimates bit for bit, NaN included, and the column
/// identities serde skips), to keep a failure readable.
fn first_difference<T: std::fmt::Debug>(what: &str, full: &[T], inc: &[T]) -> Option<String> {
    if full.len() != inc.len() {
        return Some(format!(
            "{what}: {} in full, {} incremental",
            full.len(),
            inc.len()
        ));
    }
    full.iter()
        .zip(inc)
        .map(|(a, b)| (format!("{a:?}"), format!("{b:?}")))
        .enumerate()
        .find(|(_, (a, b))| a != b)
        .map(|(i, (a, b))| format!("{what}[{i}]:\n full: {a}\n incr: {b}"))
}

fn same(p: &Project, inc: &Analysis, why: &str) -> Result<(), TestCaseError> {
    let full = analyze(p);
    let difference = first_difference("tables", &full.model.tables, &inc.model.tables)
        .or_else(|| first_difference("plans", &full.model.plans, &inc.model.plans))
        .or_else(|| first_difference("writes", &full.model.writes, &inc.model.writes))
        .or_else(|| first_difference("problems", &full.model.problems, &inc.model.problems))
        .or_else(|| first_difference("estimates", &full.estimates, &inc.estimates))
        .or_else(|| first_difference("diagnostics", &full.diagnostics, &inc.diagnostics));
    prop_assert!(
        difference.is_none(),
        "after {}: {}",
        why,
        difference.unwrap_or_default()
    );
    prop_assert_eq!(
        cqlmodel::output::cql::script(p, &full.model),
        cqlmodel::output::cql::script(p, &inc.model)
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn incremental_equals_full_after_every_edit(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let mut p = base(&mut rng);
        let mut inc = IncrementalAnalysis::new();
        let mut a = inc.analyze(&p);
        same(&p, &a, "the first analysis")?;
        let mut undo: Vec<Edit> = Vec::new();
        for _ in 0..12 {
            let step = if !undo.is_empty() && rng.chance(25) {
                undo.pop().map(|inverse| (inverse, true))
            } else {
                random_edit(&mut rng, &p, &a).map(|e| (e, false))
            };
            let Some((e, is_undo)) = step else { continue };
            let Some((next, inverse)) = admitted(&p, &e) else { continue };
            if !is_undo {
                undo.push(inverse);
            }
            p = next;
            a = inc.reanalyze(&p, &a);
            same(&p, &a, &format!("{e:?}"))?;
        }
    }
}

/// The property above must see edits that reuse work and edits that
/// rebuild: otherwise it would compare two full analyses.
#[test]
fn edit_sequences_exercise_reuse() {
    let (mut reused, mut built) = (0, 0);
    for seed in 0..24 {
        let mut rng = Rng::new(seed);
        let mut p = base(&mut rng);
        let mut inc = IncrementalAnalysis::new();
        let mut a = inc.analyze(&p);
        for _ in 0..8 {
            let Some(e) = random_edit(&mut rng, &p, &a) else {
                continue;
            };
            let Some((next, _)) = admitted(&p, &e) else {
                continue;
            };
            p = next;
            a = inc.reanalyze(&p, &a);
            let r = inc.reused();
            reused += r.builds + r.plans + r.estimates + r.findings;
            built += inc.reused().built;
        }
    }
    assert!(reused > 0, "no edit reused anything");
    assert!(built > 0, "no edit rebuilt anything");
}

/// Larger generated projects, where queries share tables and edits move
/// queries between shared and own tables.
#[test]
fn incremental_equals_full_on_larger_generated_projects() {
    for seed in 0..3 {
        let mut rng = Rng::new(1_000 + seed);
        let mut p = synthetic::project(40, 120, seed);
        let mut inc = IncrementalAnalysis::new();
        let mut a = inc.analyze(&p);
        same(&p, &a, "the first analysis").expect("equal");
        for _ in 0..16 {
            let Some(e) = random_edit(&mut rng, &p, &a) else {
                continue;
            };
            let Some((next, _)) = admitted(&p, &e) else {
                continue;
            };
            p = next;
            a = inc.reanalyze(&p, &a);
            same(&p, &a, &format!("{e:?}")).expect("equal");
        }
    }
}

/// Workflow and note edits that may break references: an entry or a
/// transition naming no query, a feed naming no attribute, a note on
/// nothing.
fn risky_workflow_edit(rng: &mut Rng, p: &Project) -> Project {
    let mut next = p.clone();
    let id = |rng: &mut Rng| match p.queries.get(rng.below(p.queries.len().max(1))) {
        Some(q) if rng.chance(70) => q.id.clone(),
        _ => "no_such_query".to_string(),
    };
    match rng.below(5) {
        0 => {
            let e = id(rng);
            next.workflow.entry.push(e);
        }
        1 => next.workflow.entry.clear(),
        2 => {
            let (from, to) = (id(rng), id(rng));
            let feeds = if rng.chance(50) {
                vec!["no_such_attribute".to_string()]
            } else {
                vec![]
            };
            next.workflow
                .transitions
                .push(cqlmodel::model::Transition { from, to, feeds });
        }
        3 => {
            next.workflow.transitions.pop();
        }
        _ => {
            let target = cqlmodel::model::Target::Query(id(rng));
            next.notes.push(cqlmodel::model::Note {
                target,
                text: "n".into(),
            });
        }
    }
    next
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// After an edit of a valid project, checking what the edit changed
    /// finds exactly what validating the whole project finds.
    #[test]
    fn validating_an_edit_equals_validating_the_project(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let mut p = base(&mut rng);
        let a = analyze(&p);
        for _ in 0..12 {
            let next = if rng.chance(50) {
                risky_workflow_edit(&mut rng, &p)
            } else {
                let Some(e) = random_edit(&mut rng, &p, &a) else { continue };
                let mut next = p.clone();
                if edit::apply(&mut next, &e).is_err() {
                    continue;
                }
                next.prune_decisions();
                next
            };
            let full = load::validate(&next);
            prop_assert_eq!(&cqlmodel::model::validate::validate_after(&p, &next), &full);
            if full.is_empty() {
                p = next;
            }
        }
    }
}

/// One change to a project's settings, named.
type Change = fn(&mut Project);

/// Each setting edited alone on a sample, through the settings editor: the
/// incremental result equals a full analysis, and the edit changed what the
/// designer reads (so reusing the last figures would have been stale).
#[test]
fn a_settings_edit_is_never_answered_from_the_last_analysis() {
    use cqlmodel::model::PartitionKeys;
    let hotel = load::from_str(
        SAMPLES
            .iter()
            .find(|s| s.text.contains("name: \"hotel\""))
            .expect("the hotel sample")
            .text,
    )
    .expect("loads");
    let changes: [(&str, Change); 5] = [
        ("max_values 50", |p| p.thresholds.max_values = 50.0),
        ("max_bytes 4 KiB", |p| p.thresholds.max_bytes = 4_096.0),
        // Reservations accumulate at a rate with a stated retention, but
        // growth over the horizon changes unretained tables.
        ("horizon 3,650 days", |p| {
            p.thresholds.horizon_days = 3_650.0;
        }),
        ("all equality in the partition", |p| {
            p.partition_keys = PartitionKeys::AllEquality;
        }),
        ("replication 5", |p| {
            p.keyspace.replication = cqlmodel::model::Replication::Simple(5);
        }),
    ];
    for (what, change) in changes {
        let mut inc = IncrementalAnalysis::new();
        let before = inc.analyze(&hotel);
        let mut wanted = hotel.clone();
        change(&mut wanted);
        let text = EditTarget::Settings.render(&wanted).expect("settings");
        let (next, inverse) = admitted(&hotel, &Edit::Replace(EditTarget::Settings, text))
            .unwrap_or_else(|| panic!("{what}: refused"));
        let after = inc.reanalyze(&next, &before);
        same(&next, &after, what).unwrap_or_else(|e| panic!("{e}"));
        let moved = format!("{:?}", before.estimates) != format!("{:?}", after.estimates)
            || format!("{:?}", before.diagnostics) != format!("{:?}", after.diagnostics)
            || before.model.tables != after.model.tables;
        assert!(moved, "{what}: the edit changed nothing the analysis shows");
        // And back.
        let (back, _) = admitted(&next, &inverse).expect("the inverse applies");
        let again = inc.reanalyze(&back, &after);
        same(&back, &again, &format!("{what} undone")).unwrap_or_else(|e| panic!("{e}"));
    }
}
