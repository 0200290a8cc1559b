//! The analysis of a large project off the input thread, so the workbench
//! draws its first frame (and keeps answering keys) while derive, estimate
//! and diagnose run.
//!
//! One worker thread at a time, started by a request and ended when no
//! request waits (an idle workbench keeps no thread, nor the thread's
//! cache of freed memory). Each request
//! carries a ticket; only the result of the newest ticket is ever
//! delivered. A request made while another runs replaces any request still
//! waiting and makes the running one stale: the thread drops a stale
//! result itself, and [`AnalysisWorker::deliver`] any that raced past that
//! check. No I/O: a thread, a lock and a channel.
//!
//! The result comes with the incremental analysis that made it (its cache
//! filled), so the first edit after opening a large project re-derives
//! only what it changed instead of everything.
//!
//! A worker runs one kind of work (`T` is what it returns): the project's
//! analysis, or the workbench's what-ifs (a refinement's preview, a split,
//! the alternatives matrix), each a closure over the values it reads.

use crate::analysis::incremental::IncrementalAnalysis;
use crate::analysis::Analysis;
use crate::model::Project;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// From this many queries a project is analysed in the background: below
/// it the analysis takes less than a frame and the workbench waits for it,
/// so small projects never show a frame without their tables.
pub const BACKGROUND_FROM_QUERIES: usize = 1_000;

/// Whether the analysis of `project` should run on the worker.
pub(crate) fn in_background(project: &Project) -> bool {
    project.queries.len() >= BACKGROUND_FROM_QUERIES
}

/// The work a request asks for, run on the thread.
pub type Work<T> = Box<dyn FnOnce() -> T + Send>;

struct Job<T> {
    ticket: u64,
    work: Work<T>,
}

/// A finished piece of work and the ticket of the request it answers.
pub struct Done<T = Analysed> {
    pub ticket: u64,
    pub result: T,
}

/// A delivered analysis: the analysis and the incremental analysis
/// (ready for the next edit) to re-derive it after the next edit.
pub type Analysed = (Analysis, IncrementalAnalysis);

/// What the workbench and the thread share.
struct Queue<T> {
    /// The newest request not yet taken by the thread.
    waiting: Option<Job<T>>,
    /// Whether a thread is running (it ends when `waiting` is empty).
    running: bool,
}

impl<T> Default for Queue<T> {
    fn default() -> Self {
        Queue {
            waiting: None,
            running: false,
        }
    }
}

/// The workbench's handle on the worker.
pub struct AnalysisWorker<T = Analysed> {
    queue: Arc<Mutex<Queue<T>>>,
    /// The newest ticket handed out, shared with the thread so it can drop
    /// stale results.
    latest: Arc<AtomicU64>,
    results: Receiver<Done<T>>,
    send_results: Sender<Done<T>>,
    /// The ticket whose result the workbench waits for.
    pending: Option<u64>,
}

impl<T: Send + 'static> Default for AnalysisWorker<T> {
    fn default() -> Self {
        let (send_results, results) = channel();
        AnalysisWorker {
            queue: Arc::default(),
            latest: Arc::default(),
            results,
            send_results,
            pending: None,
        }
    }
}

impl AnalysisWorker<Analysed> {
    /// Asks for the analysis of `project` (made by an incremental analysis
    /// whose cache it fills); see [`AnalysisWorker::request_work`].
    pub fn request(&mut self, project: Project) -> Option<u64> {
        self.request_work(move || {
            let mut incremental = IncrementalAnalysis::new();
            let analysis = incremental.analyze(&project);
            (analysis, incremental)
        })
        .ok()
    }
}

impl<T: Send + 'static> AnalysisWorker<T> {
    /// Asks for `work` to be done on the thread; any earlier request still
    /// pending becomes stale. Returns the request's ticket, or the work
    /// back when no thread can be started (the caller then does it).
    pub fn request_work(
        &mut self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<u64, Work<T>> {
        let ticket = self.latest.fetch_add(1, Ordering::SeqCst) + 1;
        let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
        // A thread not running has nothing waiting: it is started first,
        // and takes the job once the lock is let go.
        if !queue.running {
            let thread = Worker {
                queue: Arc::clone(&self.queue),
                latest: Arc::clone(&self.latest),
                results: self.send_results.clone(),
            };
            let started = std::thread::Builder::new()
                .name("analysis".into())
                .spawn(move || thread.run());
            if started.is_err() {
                self.pending = None;
                return Err(Box::new(work));
            }
            queue.running = true;
        }
        let replaced = queue.waiting.replace(Job {
            ticket,
            work: Box::new(work),
        });
        drop(queue);
        drop(replaced);
        self.pending = Some(ticket);
        Ok(ticket)
    }

    /// Stops waiting: whatever is pending becomes stale.
    pub fn cancel(&mut self) {
        if self.pending.take().is_some() {
            self.latest.fetch_add(1, Ordering::SeqCst);
            let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
            let dropped = queue.waiting.take();
            drop(queue);
            drop(dropped);
        }
    }

    /// Whether an analysis is awaited.
    pub(crate) fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// The awaited result if it has arrived, without waiting. Stale
    /// results met on the way are dropped.
    pub(crate) fn take_ready(&mut self) -> Option<T> {
        while self.pending.is_some() {
            let done = self.results.try_recv().ok()?;
            if let Some(a) = self.deliver(done) {
                return Some(a);
            }
        }
        None
    }

    /// [`AnalysisWorker::take_ready`], waiting up to `timeout` for it.
    pub fn wait(&mut self, timeout: Duration) -> Option<T> {
        let until = Instant::now() + timeout;
        while self.pending.is_some() {
            let left = until.saturating_duration_since(Instant::now());
            let done = match self.results.recv_timeout(left) {
                Ok(done) => done,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            };
            if let Some(a) = self.deliver(done) {
                return Some(a);
            }
        }
        None
    }

    /// What a result carries when it answers the pending request; `None`
    /// (the result dropped) when a newer request superseded it.
    pub(crate) fn deliver(&mut self, done: Done<T>) -> Option<T> {
        if self.pending != Some(done.ticket) {
            return None;
        }
        self.pending = None;
        Some(done.result)
    }
}

/// Marks the thread ended if it unwinds.
struct Ended<T>(Arc<Mutex<Queue<T>>>);

impl<T> Drop for Ended<T> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.0
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .running = false;
        }
    }
}

/// The thread's side.
struct Worker<T> {
    queue: Arc<Mutex<Queue<T>>>,
    latest: Arc<AtomicU64>,
    results: Sender<Done<T>>,
}

impl<T> Worker<T> {
    fn run(self) {
        // A panicking analysis ends the thread: the next request starts
        // another.
        let _ended = Ended(Arc::clone(&self.queue));
        loop {
            let job = {
                let mut queue = self.queue.lock().unwrap_or_else(PoisonError::into_inner);
                if let Some(job) = queue.waiting.take() {
                    job
                } else {
                    // Decided under the lock: a request either finds
                    // this thread running and queues for it, or finds
                    // it ended and starts another.
                    queue.running = false;
                    return;
                }
            };
            let result = (job.work)();
            // Dropping a stale result here keeps its cost off the input
            // thread.
            if job.ticket != self.latest.load(Ordering::SeqCst) {
                continue;
            }
            let done = Done {
                ticket: job.ticket,
                result,
            };
            if self.results.send(done).is_err() {
                return;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::analyze;
    use crate::model::synthetic;

    const LONG: Duration = Duration::from_mins(2);

    #[test]
    fn the_result_of_a_request_arrives() {
        let p = synthetic::project(20, 30, 1);
        let mut w = AnalysisWorker::default();
        w.request(p.clone()).expect("a thread");
        assert!(w.is_pending());
        let (a, _) = w.wait(LONG).expect("an analysis");
        assert_eq!(a, analyze(&p));
        assert!(!w.is_pending());
        assert!(w.take_ready().is_none(), "delivered once");
    }

    /// The result comes with its incremental analysis: an edit after it
    /// re-derives only the edited query's table, and equals a full
    /// analysis.
    #[test]
    fn the_result_comes_ready_for_an_incremental_edit() {
        let p = synthetic::project(40, 60, 5);
        let mut w = AnalysisWorker::default();
        w.request(p.clone()).expect("a thread");
        let (a, mut inc) = w.wait(LONG).expect("an analysis");
        let mut next = p.clone();
        let mut returns = next.queries[0].returns.clone();
        returns.pop();
        crate::edit::apply(&mut next, &crate::edit::Edit::SetReturns(0, returns))
            .expect("the edit applies");
        let after = inc.reanalyze(&next, &a);
        assert_eq!(after, analyze(&next));
        let reused = inc.reused();
        assert_eq!(reused.built, 1, "{reused:?}");
        assert!(reused.builds >= 50, "{reused:?}");
    }

    #[test]
    fn only_the_newest_request_is_answered() {
        let old = synthetic::project(200, 400, 2);
        let new = synthetic::project(10, 12, 3);
        let mut w = AnalysisWorker::default();
        let first = w.request(old).expect("a thread");
        let second = w.request(new.clone()).expect("a thread");
        assert!(second > first);
        let (a, _) = w.wait(LONG).expect("an analysis");
        assert_eq!(a, analyze(&new));
        // Nothing else arrives: the stale job was skipped or dropped.
        std::thread::sleep(Duration::from_millis(50));
        assert!(w.take_ready().is_none());
    }

    #[test]
    fn the_thread_ends_when_idle_and_a_new_request_starts_another() {
        let p = synthetic::project(5, 6, 4);
        let mut w = AnalysisWorker::default();
        w.request(p.clone()).expect("a thread");
        assert!(w.wait(LONG).is_some());
        let running = || w.queue.lock().map_or(true, |q| q.running);
        let until = Instant::now() + LONG;
        while running() && Instant::now() < until {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(!running(), "the idle thread ended");
        w.request(p.clone()).expect("a thread");
        assert_eq!(w.wait(LONG).map(|(a, _)| a), Some(analyze(&p)));
    }

    #[test]
    fn cancelling_drops_the_pending_request() {
        let mut w = AnalysisWorker::default();
        w.request(synthetic::project(5, 6, 4)).expect("a thread");
        w.cancel();
        assert!(!w.is_pending());
        assert!(w.wait(Duration::from_millis(200)).is_none());
        // The cancelled result is never delivered to a later request.
        let next = Project::empty("next");
        w.request(next.clone()).expect("a thread");
        assert_eq!(w.wait(LONG).map(|(a, _)| a), Some(analyze(&next)));
    }

    #[test]
    fn a_stale_result_is_dropped_on_delivery() {
        let mut w = AnalysisWorker::default();
        let stale = w.request(Project::empty("a")).expect("a thread");
        let fresh = w.request(Project::empty("b")).expect("a thread");
        let stale_result = Done {
            ticket: stale,
            result: (Analysis::default(), IncrementalAnalysis::new()),
        };
        assert!(w.deliver(stale_result).is_none());
        assert!(w.is_pending(), "still waiting for the fresh one");
        let fresh_result = Done {
            ticket: fresh,
            result: (Analysis::default(), IncrementalAnalysis::new()),
        };
        assert!(w.deliver(fresh_result).is_some());
        assert!(!w.is_pending());
    }

    #[test]
    fn small_projects_are_analysed_at_once_large_ones_in_the_background() {
        assert!(!in_background(&synthetic::project(10, 10, 1)));
        assert!(in_background(&synthetic::project(
            10,
            BACKGROUND_FROM_QUERIES,
            1
        )));
    }
}
