//! Undo and redo as edits with their inverses rather than copies of the
//! project. One user action is one step, however many edits it made (a
//! refinement, a cascade): undo takes the whole step back. The history
//! keeps at most [`History::DEFAULT_CAP`] steps and forgets the oldest
//! beyond that, so a long session does not grow without bound.

use crate::edit::{self, Edit};
use crate::model::Project;
use std::collections::VecDeque;

/// One edit as made, and the edit that takes it back.
#[derive(Clone, Debug, PartialEq)]
pub struct Change {
    pub redo: Edit,
    pub undo: Edit,
}

/// One user action: its changes in the order they were made, and the
/// state numbers of the project before and after it.
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    pub changes: Vec<Change>,
    pub before: u64,
    pub after: u64,
}

#[derive(Clone, Debug)]
pub struct History {
    undo: VecDeque<Step>,
    redo: Vec<Step>,
    cap: usize,
}

impl Default for History {
    fn default() -> History {
        History::with_cap(History::DEFAULT_CAP)
    }
}

impl History {
    /// Steps kept by default: far more than a session undoes, and bounded
    /// because each step holds the parts of the project it replaced.
    pub(crate) const DEFAULT_CAP: usize = 1000;

    /// A history that keeps at most `cap` steps (at least one).
    pub(crate) fn with_cap(cap: usize) -> History {
        History {
            undo: VecDeque::new(),
            redo: Vec::new(),
            cap: cap.max(1),
        }
    }

    /// Records a finished user action; a new action ends what could be redone.
    pub(crate) fn record(&mut self, step: Step) {
        self.redo.clear();
        self.undo.push_back(step);
        while self.undo.len() > self.cap {
            self.undo.pop_front();
        }
    }

    /// Applies `edits` in order as one step: all or nothing. Returns the
    /// step to [`record`](History::record) once the caller accepted the result.
    pub fn make(p: &mut Project, edits: &[Edit], before: u64, after: u64) -> Result<Step, String> {
        let mut next = p.clone();
        let mut changes = Vec::with_capacity(edits.len());
        for e in edits {
            let undo = edit::apply(&mut next, e)?;
            changes.push(Change {
                redo: e.clone(),
                undo,
            });
        }
        *p = next;
        Ok(Step {
            changes,
            before,
            after,
        })
    }

    /// Steps that can be undone.
    pub fn len(&self) -> usize {
        self.undo.len()
    }

    pub fn is_empty(&self) -> bool {
        self.undo.is_empty()
    }

    /// Takes the last step back; returns the state number the project is
    /// in again, or `None` when there is nothing to undo.
    pub fn undo(&mut self, p: &mut Project) -> Result<Option<u64>, String> {
        let Some(step) = self.undo.pop_back() else {
            return Ok(None);
        };
        let mut next = p.clone();
        let mut replayed = Vec::with_capacity(step.changes.len());
        for c in step.changes.iter().rev() {
            match edit::apply(&mut next, &c.undo) {
                Ok(redo) => replayed.push(Change {
                    redo,
                    undo: c.undo.clone(),
                }),
                Err(e) => {
                    self.undo.push_back(step);
                    return Err(e);
                }
            }
        }
        replayed.reverse();
        *p = next;
        let state = step.before;
        self.redo.push(Step {
            changes: replayed,
            ..step
        });
        Ok(Some(state))
    }

    /// Makes the last undone step again; returns the state number the
    /// project is in then, or `None` when there is nothing to redo.
    pub fn redo(&mut self, p: &mut Project) -> Result<Option<u64>, String> {
        let Some(step) = self.redo.pop() else {
            return Ok(None);
        };
        let mut next = p.clone();
        let mut replayed = Vec::with_capacity(step.changes.len());
        for c in &step.changes {
            match edit::apply(&mut next, &c.redo) {
                Ok(undo) => replayed.push(Change {
                    redo: c.redo.clone(),
                    undo,
                }),
                Err(e) => {
                    self.redo.push(step);
                    return Err(e);
                }
            }
        }
        *p = next;
        let state = step.after;
        self.undo.push_back(Step {
            changes: replayed,
            ..step
        });
        Ok(Some(state))
    }

    /// Forgets everything (another file was opened).
    pub fn clear(&mut self) {
        self.undo.clear();
        self.redo.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::load;

    fn hotel() -> Project {
        load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("sample")
    }

    fn step(h: &mut History, p: &mut Project, edits: &[Edit], n: u64) {
        let s = History::make(p, edits, n - 1, n).expect("edits apply");
        h.record(s);
    }

    #[test]
    fn undo_and_redo_round_trip() {
        let original = hotel();
        let mut p = original.clone();
        let mut h = History::default();
        step(&mut h, &mut p, &[Edit::AddEntity("Spa".into())], 1);
        let after_one = p.clone();
        step(
            &mut h,
            &mut p,
            &[Edit::SetReturns(0, vec!["hotel_id".into()])],
            2,
        );
        let after_two = p.clone();
        assert_eq!(h.undo(&mut p), Ok(Some(1)));
        assert_eq!(p, after_one);
        assert_eq!(h.undo(&mut p), Ok(Some(0)));
        assert_eq!(p, original);
        assert_eq!(h.undo(&mut p), Ok(None));
        assert_eq!(h.redo(&mut p), Ok(Some(1)));
        assert_eq!(p, after_one);
        assert_eq!(h.redo(&mut p), Ok(Some(2)));
        assert_eq!(p, after_two);
        assert_eq!(h.redo(&mut p), Ok(None));
    }

    #[test]
    fn a_new_step_ends_redo() {
        let mut p = hotel();
        let mut h = History::default();
        step(&mut h, &mut p, &[Edit::AddEntity("Spa".into())], 1);
        h.undo(&mut p).expect("undo");
        let mut again = p.clone();
        assert!(
            h.clone().redo(&mut again).expect("redo").is_some(),
            "the undone step can be redone"
        );
        step(&mut h, &mut p, &[Edit::AddEntity("Gym".into())], 2);
        assert!(
            h.redo(&mut p).expect("redo").is_none(),
            "a new step ends redo"
        );
    }

    #[test]
    fn the_cap_drops_the_oldest_step() {
        let original = hotel();
        let mut p = original.clone();
        let mut h = History::with_cap(2);
        for (n, name) in ["A", "B", "C"].into_iter().enumerate() {
            step(
                &mut h,
                &mut p,
                &[Edit::AddEntity(name.into())],
                n as u64 + 1,
            );
        }
        assert_eq!(h.len(), 2);
        assert_eq!(h.undo(&mut p), Ok(Some(2)));
        assert_eq!(h.undo(&mut p), Ok(Some(1)));
        assert_eq!(h.undo(&mut p), Ok(None));
        // The first addition was forgotten, so it stays.
        assert!(p.entity("A").is_some() && p.entity("B").is_none());
    }

    #[test]
    fn a_group_undoes_as_one() {
        let original = hotel();
        let mut p = original.clone();
        let mut h = History::default();
        let edits = [
            Edit::AddEntity("Spa".into()),
            Edit::SetReturns(0, vec!["hotel_id".into()]),
            Edit::Move(crate::edit::Item::Query(0), false),
        ];
        step(&mut h, &mut p, &edits, 1);
        let grouped = p.clone();
        assert_eq!(h.len(), 1);
        assert_eq!(h.undo(&mut p), Ok(Some(0)));
        assert_eq!(p, original);
        assert_eq!(h.redo(&mut p), Ok(Some(1)));
        assert_eq!(p, grouped);
    }

    #[test]
    fn a_failing_group_changes_nothing() {
        let original = hotel();
        let mut p = original.clone();
        let edits = [Edit::AddEntity("Spa".into()), Edit::AddEntity("Spa".into())];
        assert!(History::make(&mut p, &edits, 0, 1).is_err());
        assert_eq!(p, original);
    }
}
