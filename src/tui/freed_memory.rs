//! Handing the memory a large analysis freed back to the system.
//!
//! The allocator (mimalloc, chosen in `main.rs`) returns freed pages only
//! once they have waited its purge delay (a second) and some thread then
//! frees a page of its own. A workbench waiting for keys frees none, so
//! after a 10,000-query project was opened or edited the old analysis'
//! pages stayed resident in about half the runs measured (150 MiB instead
//! of 115). A while after a large analysis is replaced, the tick frees a
//! block larger than the allocator's largest size class: such a block is
//! a page of its own, and freeing it is when the allocator hands back
//! what has waited long enough. Nothing here is needed for correctness;
//! with another allocator the block is one harmless allocation.

use std::time::{Duration, Instant};

/// How long after the garbage is made the block is freed: past the
/// allocator's purge delay.
pub const AFTER: Duration = Duration::from_millis(1_500);

/// Above mimalloc's largest size class (512 KiB), never written to.
const BLOCK: usize = 4 << 20;

/// When memory is next handed back.
#[derive(Debug, Default)]
pub struct FreedMemory {
    due: Option<Instant>,
}

impl FreedMemory {
    /// A large analysis was just dropped (or is being dropped).
    pub fn freed(&mut self, now: Instant) {
        self.due = Some(now + AFTER);
    }

    /// Hands memory back when it is due; whether it did.
    pub fn tick(&mut self, now: Instant) -> bool {
        if self.due.is_none_or(|due| now < due) {
            return false;
        }
        self.due = None;
        let block: Vec<u8> = Vec::with_capacity(BLOCK);
        // Kept from being optimised away with its allocation.
        std::hint::black_box(&block);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_is_handed_back_once_after_the_delay_of_the_last_change() {
        let start = Instant::now();
        let mut m = FreedMemory::default();
        assert!(!m.tick(start + AFTER * 2), "nothing freed, nothing due");
        m.freed(start);
        let later = start + AFTER / 2;
        m.freed(later);
        assert!(!m.tick(start + AFTER), "a newer change moves it on");
        assert!(m.tick(later + AFTER));
        assert!(!m.tick(later + AFTER * 2), "once");
    }
}
