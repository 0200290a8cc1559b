//! Whether a changed project may replace the current one: it must validate,
//! and it must not derive invalid CQL where the current one derives valid
//! CQL. The reasons are typed so a shell can word each its own way (the
//! workbench names the edit and the rule; a script could stop on the first).

use crate::analysis::Analysis;
use crate::model::load::{validate, Problem};
use crate::model::Project;
use crate::review::diagnose::{Diagnostic, INVALID_CQL};
use std::fmt;

/// Why a change to the project was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The changed project does not validate: its first problem and how
    /// many more there are.
    Invalid { first: Problem, more: usize },
    /// The changed project derives CQL that Cassandra refuses, and the
    /// current one did not (an already broken model may still be edited).
    BreaksCql { message: String, rule: &'static str },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Invalid { first, more: 0 } => write!(f, "{first}"),
            Refusal::Invalid { first, more } => write!(f, "{first} (and {more} more)"),
            Refusal::BreaksCql { message, rule } => write!(f, "{message} [{rule}]"),
        }
    }
}

impl std::error::Error for Refusal {}

/// The changed project validates, or the first reason it does not.
pub fn validated(next: &Project) -> Result<(), Refusal> {
    first_problem(validate(next))
}

/// [`validated`] for `next`, an edit of `before`, which validates: an edit
/// of the workflow or notes alone checks only what reads them.
pub fn validated_after(before: &Project, next: &Project) -> Result<(), Refusal> {
    first_problem(crate::model::validate::validate_after(before, next))
}

fn first_problem(problems: Vec<crate::model::load::Problem>) -> Result<(), Refusal> {
    let mut problems = problems.into_iter();
    match problems.next() {
        None => Ok(()),
        Some(first) => Err(Refusal::Invalid {
            first,
            more: problems.count(),
        }),
    }
}

/// Whether an edit applies to the project and leaves it valid: what a
/// dialog checks before it closes, so a refused text stays to be
/// corrected. (The CQL check needs the analysis and stays with the caller.)
pub(crate) fn would_admit(p: &Project, e: &super::Edit) -> Result<(), String> {
    let mut next = p.clone();
    super::apply_edit(&mut next, e)?;
    next.prune_decisions();
    validated(&next).map_err(|r| r.to_string())
}

/// The analysis after a change has no invalid-CQL finding that the analysis
/// before it lacked.
pub(crate) fn keeps_cql_valid(before: &Analysis, after: &Analysis) -> Result<(), Refusal> {
    let invalid = |d: &&Diagnostic| INVALID_CQL.contains(&d.rule);
    let new = after
        .diagnostics
        .iter()
        .filter(invalid)
        .find(|d| !before.diagnostics.iter().filter(invalid).any(|b| b == *d));
    match new {
        None => Ok(()),
        Some(bad) => Err(Refusal::BreaksCql {
            message: bad.message().to_string(),
            rule: bad.rule,
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::model::load;
    use crate::review::diagnose::{Severity, Subject};

    const SAMPLE: &str = include_str!("../../sample-projects/hotel.cqlm.ron");

    fn sample() -> Project {
        load::from_str(SAMPLE).expect("the sample loads")
    }

    #[test]
    fn a_valid_project_is_admitted() {
        let p = sample();
        assert_eq!(validated(&p), Ok(()));
        let a = analyze(&p);
        assert_eq!(keeps_cql_valid(&a, &a), Ok(()));
    }

    #[test]
    fn a_broken_reference_is_refused_with_a_count_of_the_rest() {
        let mut p = sample();
        let q = &mut p.queries[0];
        q.equality = vec!["nowhere.nothing".into(), "nowhere.else".into()];
        let Err(Refusal::Invalid { first, more }) = validated(&p) else {
            panic!("a broken reference must be refused");
        };
        assert!(first.path.starts_with("queries[0]"), "{first}");
        assert!(more >= 1, "two broken references, {more} more");
        let text = Refusal::Invalid {
            first: first.clone(),
            more: 2,
        }
        .to_string();
        assert_eq!(text, format!("{first} (and 2 more)"));
    }

    #[test]
    fn new_invalid_cql_is_refused_but_old_is_not() {
        let good = analyze(&sample());
        let mut bad = good.clone();
        let rule = INVALID_CQL[0];
        bad.diagnostics.push(Diagnostic {
            rule,
            severity: Severity::Error,
            subject: Subject::Project,
            words: crate::review::diagnose::Words::ready("nope", ""),
            source: "",
            refinement: None,
            waived: None,
        });
        assert_eq!(
            keeps_cql_valid(&good, &bad),
            Err(Refusal::BreaksCql {
                message: "nope".into(),
                rule
            })
        );
        assert_eq!(keeps_cql_valid(&bad, &bad), Ok(()));
        assert_eq!(
            Refusal::BreaksCql {
                message: "nope".into(),
                rule
            }
            .to_string(),
            format!("nope [{rule}]")
        );
    }
}
