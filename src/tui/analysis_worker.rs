//! The analysis of a large project off the input thread, so the workbench
//! draws its first frame (and keeps answering keys) while derive, estimate
//! and diagnose run.
//!
//! One worker thread, started on the first request, ends when the worker is
//! dropped. Each request carries a ticket; only the result of the newest
//! ticket is ever delivered. A request made while another is running makes
//! that one stale: its result is dropped by the thread (which also skips
//! jobs already superseded in its queue) or, if it raced past that check,
//! by [`AnalysisWorker::take_ready`]. No I/O: channels and a thread only.

use crate::analysis::{analyze, Analysis};
use crate::model::Project;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError, Sender};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// From this many queries a project is analysed in the background: below
/// it the analysis takes less than a frame and the workbench waits for it,
/// so small projects never show a frame without their tables.
pub const BACKGROUND_FROM_QUERIES: usize = 1_000;

/// Whether the analysis of `project` should run on the worker.
pub fn in_background(project: &Project) -> bool {
    project.queries.len() >= BACKGROUND_FROM_QUERIES
}

struct Job {
    ticket: u64,
    project: Project,
}

/// A finished analysis and the ticket of the request it answers.
pub struct Done {
    pub ticket: u64,
    pub analysis: Analysis,
}

struct Thread {
    jobs: Sender<Job>,
    results: Receiver<Done>,
}

/// The workbench's handle on the worker thread.
#[derive(Default)]
pub struct AnalysisWorker {
    thread: Option<Thread>,
    /// The newest ticket handed out, shared with the thread so it can drop
    /// stale work early.
    latest: Arc<AtomicU64>,
    /// The ticket whose result the workbench waits for.
    pending: Option<u64>,
}

impl AnalysisWorker {
    /// Asks for the analysis of `project`; any earlier request still
    /// pending becomes stale. Returns the request's ticket, or `None` when
    /// no thread can be started (the caller then analyses it itself).
    pub fn request(&mut self, project: Project) -> Option<u64> {
        let ticket = self.latest.load(Ordering::SeqCst) + 1;
        self.latest.store(ticket, Ordering::SeqCst);
        let job = Job { ticket, project };
        let job = match &self.thread {
            Some(t) => match t.jobs.send(job) {
                Ok(()) => {
                    self.pending = Some(ticket);
                    return Some(ticket);
                }
                // The thread is gone (it panicked): start a new one.
                Err(failed) => failed.0,
            },
            None => job,
        };
        let Some(thread) = spawn(Arc::clone(&self.latest)) else {
            self.thread = None;
            self.pending = None;
            return None;
        };
        // A fresh channel has its receiver alive: this send cannot fail.
        let _ = thread.jobs.send(job);
        self.thread = Some(thread);
        self.pending = Some(ticket);
        Some(ticket)
    }

    /// Stops waiting: whatever is pending becomes stale.
    pub fn cancel(&mut self) {
        if self.pending.take().is_some() {
            self.latest.fetch_add(1, Ordering::SeqCst);
        }
    }

    /// Whether an analysis is awaited.
    pub fn is_pending(&self) -> bool {
        self.pending.is_some()
    }

    /// The awaited analysis if it has arrived, without waiting. Stale
    /// results met on the way are dropped.
    pub fn take_ready(&mut self) -> Option<Analysis> {
        loop {
            let done = self.thread.as_ref()?.results.try_recv().ok()?;
            if let Some(a) = self.deliver(done) {
                return Some(a);
            }
        }
    }

    /// [`AnalysisWorker::take_ready`], waiting up to `timeout` for it.
    pub fn wait(&mut self, timeout: Duration) -> Option<Analysis> {
        let until = Instant::now() + timeout;
        while self.pending.is_some() {
            let left = until.saturating_duration_since(Instant::now());
            let done = match self.thread.as_ref()?.results.recv_timeout(left) {
                Ok(done) => done,
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            };
            if let Some(a) = self.deliver(done) {
                return Some(a);
            }
        }
        None
    }

    /// The analysis a result carries when it answers the pending request;
    /// `None` (the result dropped) when a newer request superseded it.
    pub fn deliver(&mut self, done: Done) -> Option<Analysis> {
        if self.pending != Some(done.ticket) {
            return None;
        }
        self.pending = None;
        Some(done.analysis)
    }
}

fn spawn(latest: Arc<AtomicU64>) -> Option<Thread> {
    let (jobs, job_rx) = channel::<Job>();
    let (result_tx, results) = channel::<Done>();
    std::thread::Builder::new()
        .name("analysis".into())
        .spawn(move || {
            while let Ok(mut job) = job_rx.recv() {
                // Only the newest queued job matters.
                while let Ok(newer) = job_rx.try_recv() {
                    job = newer;
                }
                if job.ticket != latest.load(Ordering::SeqCst) {
                    continue;
                }
                let analysis = analyze(&job.project);
                // Dropping a stale analysis here keeps its cost off the
                // input thread.
                if job.ticket != latest.load(Ordering::SeqCst) {
                    continue;
                }
                let done = Done {
                    ticket: job.ticket,
                    analysis,
                };
                if result_tx.send(done).is_err() {
                    return;
                }
            }
        })
        .ok()?;
    Some(Thread { jobs, results })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::synthetic;

    const LONG: Duration = Duration::from_secs(120);

    #[test]
    fn the_result_of_a_request_arrives() {
        let p = synthetic::project(20, 30, 1);
        let mut w = AnalysisWorker::default();
        w.request(p.clone()).expect("a thread");
        assert!(w.is_pending());
        let a = w.wait(LONG).expect("an analysis");
        assert_eq!(a, analyze(&p));
        assert!(!w.is_pending());
        assert!(w.take_ready().is_none(), "delivered once");
    }

    #[test]
    fn only_the_newest_request_is_answered() {
        let old = synthetic::project(200, 400, 2);
        let new = synthetic::project(10, 12, 3);
        let mut w = AnalysisWorker::default();
        let first = w.request(old).expect("a thread");
        let second = w.request(new.clone()).expect("a thread");
        assert!(second > first);
        let a = w.wait(LONG).expect("an analysis");
        assert_eq!(a, analyze(&new));
        // Nothing else arrives: the stale job was skipped or dropped.
        std::thread::sleep(Duration::from_millis(50));
        assert!(w.take_ready().is_none());
    }

    #[test]
    fn a_stale_result_is_dropped_on_delivery() {
        let mut w = AnalysisWorker::default();
        let stale = w.request(Project::empty("a")).expect("a thread");
        let fresh = w.request(Project::empty("b")).expect("a thread");
        let stale_result = Done {
            ticket: stale,
            analysis: Analysis::default(),
        };
        assert!(w.deliver(stale_result).is_none());
        assert!(w.is_pending(), "still waiting for the fresh one");
        let fresh_result = Done {
            ticket: fresh,
            analysis: Analysis::default(),
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
