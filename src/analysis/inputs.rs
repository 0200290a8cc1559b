//! The workflow's input gaps after an edit: a query's finding is kept
//! from the last review while nothing it reads can have changed, and
//! judged again otherwise.

use super::Analysis;
use crate::model::resolve::Graph;
use crate::model::{Project, Shared};
use crate::review::diagnose::{states_workflow, Diagnostic, Rules, Subject};
use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

/// The [`Scope::Workflow`](crate::review::diagnose::Scope) rules' findings
/// of `graph`'s project, the input gaps judged only for the queries whose
/// inputs changed since `last` (the last project and its analysis) and
/// kept from its review for the others.
pub(super) fn workflow_findings(
    rules: &Rules,
    graph: &Graph,
    last: Option<(&Project, &Analysis)>,
) -> Vec<Diagnostic> {
    let Some((dirty, prev)) =
        last.and_then(|(old, prev)| Some((changed_inputs(old, graph.project)?, prev)))
    else {
        return rules.workflow(None);
    };
    let mut out = rules.workflow(Some(&dirty));
    // The query ids are unique here (`changed_inputs` checked).
    let at: HashMap<&str, usize> = graph
        .project
        .queries
        .iter()
        .enumerate()
        .map(|(i, q)| (q.id.as_str(), i))
        .collect();
    let kept = |d: &&Diagnostic| {
        d.rule == "workflow-input-gap"
            && matches!(&d.subject, Subject::Query(id)
                if at.get(id.as_str()).is_some_and(|&qi| !dirty[qi]))
    };
    out.extend(prev.diagnostics.iter().filter(kept).cloned());
    out
}

/// Which queries' input-gap findings may differ between `old` and `new`:
/// those whose entry point status changed, and every query reached through
/// the transitions from one whose search, returned attributes, range or
/// rows changed (what a query knows comes from the queries before it).
/// `None` when any may: the transitions, the query ids or their order, or
/// the schema (feeds are matched by type) changed, ids repeat, or a
/// workflow appeared or went (the earlier review did not check inputs, or
/// this one does not).
fn changed_inputs(old: &Project, new: &Project) -> Option<Vec<bool>> {
    let same_schema = old.entities == new.entities
        && old.relationships == new.relationships
        && old.types == new.types;
    // The very same workflow (an edit elsewhere) compares without a look.
    let same_workflow = Shared::same(&old.workflow, &new.workflow);
    if !same_schema
        || states_workflow(old) != states_workflow(new)
        || (!same_workflow && old.workflow.transitions != new.workflow.transitions)
        || !old.same_query_ids(new)
    {
        return None;
    }
    let mut at: HashMap<&str, usize> = HashMap::default();
    for (i, q) in new.queries.iter().enumerate() {
        if at.insert(q.id.as_str(), i).is_some() {
            return None;
        }
    }
    let mut dirty: Vec<bool> = if same_workflow {
        vec![false; new.queries.len()]
    } else {
        let old_entry: HashSet<&str> = old.workflow.entry.iter().map(String::as_str).collect();
        let new_entry: HashSet<&str> = new.workflow.entry.iter().map(String::as_str).collect();
        new.queries
            .iter()
            .map(|q| old_entry.contains(q.id.as_str()) != new_entry.contains(q.id.as_str()))
            .collect()
    };
    let mut next: HashMap<&str, Vec<usize>> = HashMap::default();
    for t in &new.workflow.transitions {
        if let Some(&to) = at.get(t.to.as_str()) {
            next.entry(t.from.as_str()).or_default().push(to);
        }
    }
    let mut stack: Vec<usize> = old
        .queries
        .iter()
        .zip(new.queries.iter())
        .enumerate()
        .filter(|(_, (a, b))| {
            // An unchanged query is the very same one (see `Project::queries`).
            !Shared::same(a, b)
                && (a.equality != b.equality
                    || a.returns != b.returns
                    || a.range != b.range
                    || a.rows != b.rows)
        })
        .map(|(i, _)| i)
        .collect();
    let mut seen = vec![false; new.queries.len()];
    while let Some(i) = stack.pop() {
        if std::mem::replace(&mut seen[i], true) {
            continue;
        }
        dirty[i] = true;
        if let Some(to) = next.get(new.queries[i].id.as_str()) {
            stack.extend(to.iter().copied().filter(|&j| !seen[j]));
        }
    }
    Some(dirty)
}

#[cfg(test)]
mod tests {
    use crate::model::{Project, Query};

    /// The input rule runs only when a workflow is stated: when one
    /// appears or goes, no earlier finding can be kept (a regression the
    /// incremental property test found: the first entry point stated kept
    /// the findings of a review that had not checked inputs).
    #[test]
    fn a_workflow_appearing_or_going_rechecks_every_query() {
        let mut none = Project::empty("p");
        for id in ["Q1", "Q2"] {
            let mut q = Query::new(id, id, "Thing");
            q.equality = vec![format!("{id}_key")];
            none.queries.push(q.into());
        }
        let mut stated = none.clone();
        stated.workflow.entry.push("Q1".into());
        assert_eq!(super::changed_inputs(&none, &stated), None);
        assert_eq!(super::changed_inputs(&stated, &none), None);
        let mut more = stated.clone();
        more.workflow.entry.push("Q2".into());
        assert_eq!(
            super::changed_inputs(&stated, &more),
            Some(vec![false, true]),
            "with a workflow on both sides, only Q2's status changed"
        );
    }
}
