//! The numbers behind the estimates: tables whose partition sizes rest on
//! defaults instead of stated numbers, and stated counts that contradict
//! each other.

use super::{Ctx, Diagnostic, Subject};
use crate::model::name::Name;
use crate::model::quantity::{count, Count};
use crate::model::resolve::{Edge, End, NodeId};
use crate::model::Cardinality;
use std::fmt::Write as _;

/// Stated figures disagree when they differ by more than this share of the
/// larger one: rounding in a hand-written average stays below it.
pub(crate) const COUNT_TOLERANCE: f64 = 0.1;

/// A finding for table `i` when its estimate leans on defaults, listing
/// the numbers to enter: without it, a project with no numbers passes
/// review.
pub(super) fn defaults(ctx: &Ctx, i: usize, out: &mut Vec<Diagnostic>) {
    {
        let (Some(t), Some(e)) = (ctx.model.tables.get(i), ctx.estimate(i)) else {
            return;
        };
        if e.defaults.is_empty() {
            return;
        }
        out.push(ctx.diag(
            "estimate-on-defaults",
            Subject::Table(t.name.clone()),
            format!(
                "The partition estimate of {} ({} rows, {} values per partition) rests on {} default{} rather than stated numbers, so the review cannot tell whether its partitions stay bounded: {}.",
                t.name,
                count(e.rows_per_partition),
                count(e.values),
                e.defaults.len(),
                if e.defaults.len() == 1 { "" } else { "s" },
                e.defaults.join("; ")
            ),
            "Enter the numbers listed (counts of entities, related instances per instance with their maximum, value sizes) in the project.".into(),
        ));
    }
}

/// Whether two figures disagree beyond rounding.
fn disagree(a: f64, b: f64) -> bool {
    let big = a.abs().max(b.abs());
    big > 0.0 && (a - b).abs() > COUNT_TOLERANCE * big
}

/// A child's stated count against its parent's count times the stated
/// average per parent, and an m:n's two averages against the two counts.
pub(super) fn contradictions(ctx: &Ctx, out: &mut Vec<Diagnostic>) {
    let g = ctx.graph;
    for (r, rel) in ctx.project.relationships.iter().enumerate() {
        let (Some(from), Some(to)) = (g.entity_index(&rel.from), g.entity_index(&rel.to)) else {
            continue;
        };
        if from == to {
            continue;
        }
        let (fe, te) = (g.entity(from), g.entity(to));
        let stated = |end: End| {
            let f = g.fanout(Edge::Enter(r, end));
            (f.many && !f.avg.is_nan() && f.per.is_none()).then_some(f.avg)
        };
        // Worded when shown: hundreds of these on large projects.
        let figures = match rel.cardinality {
            Cardinality::OneToMany => {
                let (Some(fc), Some(tc), Some(avg)) = (fe.count, te.count, stated(End::From))
                else {
                    continue;
                };
                if !disagree(tc, fc * avg) {
                    continue;
                }
                Contradiction::Parent { fc, tc, avg }
            }
            Cardinality::ManyToMany => {
                let mut notes = Vec::new();
                let fc = ctx.est.count(NodeId::Entity(from), &mut notes);
                let tc = ctx.est.count(NodeId::Entity(to), &mut notes);
                let (Some(a), Some(b)) = (stated(End::From), stated(End::To)) else {
                    continue;
                };
                if !disagree(fc * a, tc * b) {
                    continue;
                }
                Contradiction::Links { fc, tc, a, b }
            }
            Cardinality::OneToOne => continue,
        };
        let rel_name = g.rel_name(r);
        out.push(ctx.diag_with(
            "contradicting-counts",
            Subject::Relationship(rel_name.clone()),
            (figures, g.entity_name(from), g.entity_name(to), rel_name),
            word_contradiction,
            |_, fix| fix.push_str("Make the counts agree: fix the count or the average that is wrong, or leave one side's average out of an m:n so it follows from the counts."),
        ));
    }
}

/// The stated figures of a [`contradictions`] finding.
enum Contradiction {
    /// A child's count against its parent's count times the average.
    Parent { fc: f64, tc: f64, avg: f64 },
    /// An m:n's links counted from either side.
    Links { fc: f64, tc: f64, a: f64, b: f64 },
}

fn word_contradiction(
    (figures, from, to, rel): &(Contradiction, Name, Name, Name),
    m: &mut String,
) {
    let _ = match *figures {
        Contradiction::Parent { fc, tc, avg } => write!(
            m,
            "{to} states {} instances, but {} {from} with {} each through {rel} make {}: every estimate through {rel} uses one figure or the other, so partition sizes are off by {}x.",
            Count(tc),
            Count(fc),
            Count(avg),
            Count(fc * avg),
            Count((tc / (fc * avg)).max(fc * avg / tc))
        ),
        Contradiction::Links { fc, tc, a, b } => write!(
            m,
            "{rel} links {} {from} with {} each ({} links) but {} {to} with {} each ({} links): tables walking {rel} from either side disagree on its rows.",
            Count(fc),
            Count(a),
            Count(fc * a),
            Count(tc),
            Count(b),
            Count(tc * b),
        ),
    };
}
