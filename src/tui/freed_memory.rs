//! Handing the memory a large analysis freed back to the system.
//!
//! The allocator (mimalloc v2, chosen in `main.rs`) returns freed memory
//! only after a purge delay, and only when it next runs the right code:
//! - an analysis is made partly on helper threads (`parallel`) that idle
//!   after it, and the old one is freed on a thread of its own: blocks freed
//!   there wait in the heap of the helper that made them, and the pages of
//!   that thread of its own end up in segments no thread owns; a heap
//!   collects both in its periodic collection, every 10,000 allocations of
//!   more than 1 KiB, so that runs on every helper too (each takes it when
//!   it is free: a second after the last large analysis, they are);
//! - whole segments given back to the allocator's arenas are purged when
//!   an arena block is next freed, if their delay has passed by then.
//!
//! A workbench waiting for keys does neither, so a 10,000-query project
//! kept 94–97 MiB resident where 86 MiB were in use. A while after a large
//! analysis is replaced, the tick therefore collects twice, a quarter of a
//! second apart: the first time it makes those allocations and takes a
//! 4 MiB block (a block of its own in an arena), the second time it makes
//! them again and frees the block, when everything freed before has waited
//! its delay. Measured with `examples/memory`: 94–95 → 85.5–86 MiB; the
//! block alone gives 86–89. Nothing here is needed for correctness; with
//! another allocator the allocations are merely made and freed.

use std::time::{Duration, Instant};

/// How long after the garbage is made memory is first handed back: the old
/// analysis is freed on a thread of its own by then.
pub const AFTER: Duration = Duration::from_secs(1);

/// Then again this much later: past the allocator's purge delays (10 ms
/// for pages, 100 ms for arena blocks).
pub const AGAIN: Duration = Duration::from_millis(250);

/// Allocations between two collections of a heap, each of a size that
/// takes the allocator's general path (over 1 KiB).
const ALLOCATIONS: usize = 10_000;
const MEDIUM: usize = 2 << 10;

/// Above mimalloc's largest size class for pages shared by blocks: an
/// arena block of its own. Never written to.
const BLOCK: usize = 4 << 20;

/// When memory is next handed back.
#[derive(Debug, Default)]
pub struct FreedMemory {
    due: Option<Instant>,
    /// The block taken at the first collection, freed at the second.
    held: Option<Vec<u8>>,
}

impl FreedMemory {
    /// A large analysis was just dropped (or is being dropped).
    pub fn freed(&mut self, now: Instant) {
        self.due = Some(now + AFTER);
        self.held = None;
    }

    /// Hands memory back when it is due; whether it did.
    pub fn tick(&mut self, now: Instant) -> bool {
        if self.due.is_none_or(|due| now < due) {
            return false;
        }
        collect();
        if let Some(block) = self.held.take() {
            drop(block);
            self.due = None;
        } else {
            let block: Vec<u8> = Vec::with_capacity(BLOCK);
            // Kept from being optimised away with its allocation.
            std::hint::black_box(&block);
            self.held = Some(block);
            self.due = Some(now + AGAIN);
        }
        true
    }
}

/// Makes the allocator collect this thread's heap, each analysis helper's
/// (blocks they made and another thread freed wait in their heaps until
/// they next allocate) and the segments no thread owns.
fn collect() {
    collect_here();
    crate::parallel::on_each_helper(collect_here);
}

fn collect_here() {
    for _ in 0..ALLOCATIONS {
        let block: Vec<u8> = Vec::with_capacity(MEDIUM);
        std::hint::black_box(&block);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_handed_back_twice_after_the_delay_of_the_last_change() {
        let start = Instant::now();
        let mut m = FreedMemory::default();
        assert!(!m.tick(start + AFTER * 2), "nothing freed, nothing due");
        m.freed(start);
        let later = start + AFTER / 2;
        m.freed(later);
        assert!(!m.tick(start + AFTER), "a newer change moves it on");
        let first = later + AFTER;
        assert!(m.tick(first));
        assert!(m.held.is_some());
        assert!(!m.tick(first + AGAIN / 2), "the second waits its delay");
        assert!(m.tick(first + AGAIN));
        assert!(m.held.is_none(), "the block goes at the second");
        assert!(!m.tick(first + AGAIN * 10), "twice only");
    }

    #[test]
    fn a_change_between_the_two_starts_over() {
        let start = Instant::now();
        let mut m = FreedMemory::default();
        m.freed(start);
        assert!(m.tick(start + AFTER));
        let again = start + AFTER + AGAIN / 2;
        m.freed(again);
        assert!(m.held.is_none(), "let go at the change");
        assert!(!m.tick(start + AFTER + AGAIN), "moved on by the change");
        assert!(m.tick(again + AFTER));
        assert!(m.tick(again + AFTER + AGAIN));
        assert!(!m.tick(again + AFTER + AGAIN * 2));
    }
}
