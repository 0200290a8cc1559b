//! Data parallelism for the analysis: maps over tables or queries split
//! across the machine's cores when there are enough of them to pay for the
//! threads, with results in input order so output never depends on
//! scheduling.

/// Below this many items a thread costs more than it saves.
pub(crate) const PARALLEL_MIN: usize = 128;

#[cfg(test)]
thread_local! {
    /// Set by tests that compare the parallel result with the sequential one.
    pub(crate) static SEQUENTIAL: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

#[cfg(test)]
fn sequential_here() -> bool {
    SEQUENTIAL.with(std::cell::Cell::get)
}

#[cfg(not(test))]
fn sequential_here() -> bool {
    false
}

/// `items.iter().map(f)`, in order, split across the machine's cores for
/// large inputs. Deterministic: results keep the input order.
pub(crate) fn par_map<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    par_map_with(items, || (), |(), x| f(x))
}

/// [`par_map`] with per-thread state made by `init` (caches that are not
/// shared between threads): made once by each thread that takes a part.
pub(crate) fn par_map_with<T: Sync, R: Send, S>(
    items: &[T],
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, &T) -> R + Sync,
) -> Vec<R> {
    let sequential = || {
        let mut state = init();
        items.iter().map(|x| f(&mut state, x)).collect()
    };
    if items.len() < PARALLEL_MIN || sequential_here() {
        return sequential();
    }
    let Some(pool) = pool() else {
        return sequential();
    };
    // Parts small enough that a thread done early takes the next one: the
    // cost of items varies (and a helper runs slower while its caches are
    // cold), so equal halves left one thread waiting for the other.
    // (A 1,000-query build in parts of 62 left one thread 0.3 ms idle at
    // its end.)
    let part_len = items.len().div_ceil(cores() * 32).max(4);
    let parts: Vec<&[T]> = items.chunks(part_len).collect();
    let done: Vec<std::sync::Mutex<Vec<R>>> =
        parts.iter().map(|_| std::sync::Mutex::default()).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let work = || {
        let mut state = None;
        loop {
            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let Some(part) = parts.get(i) else { break };
            let state = state.get_or_insert_with(&init);
            let mapped: Vec<R> = part.iter().map(|x| f(state, x)).collect();
            // Each part is taken once, so its slot is never contended; a
            // poisoned slot means a panic elsewhere, which the scope re-raises.
            if let Ok(mut slot) = done[i].lock() {
                *slot = mapped;
            }
        }
    };
    // This thread takes parts too instead of waiting idle.
    pool.in_place_scope(|s| {
        for _ in 1..cores() {
            s.spawn(|_| work());
        }
        work();
    });
    let mut out = Vec::with_capacity(items.len());
    for slot in done {
        out.extend(
            slot.into_inner()
                .unwrap_or_else(std::sync::PoisonError::into_inner),
        );
    }
    out
}

/// The machine's cores (at most 8). Asking the OS is slow (it reads
/// cgroup limits): once per process.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| {
        std::thread::available_parallelism()
            .map_or(1, std::num::NonZero::get)
            .min(8)
    })
}

/// Helper threads, one per core besides the calling one, started once and
/// kept: a thread started per step paid for its start, for warming a fresh
/// allocator heap and for handing that heap back at its end (measured:
/// the helper of a 1,000-query build ran 15 % slower than the calling
/// thread and took a further 0.07–0.36 ms to end), and steps nested in a
/// step started more threads than there are cores. `None` on one core.
fn pool() -> Option<&'static rayon_core::ThreadPool> {
    static POOL: std::sync::OnceLock<Option<rayon_core::ThreadPool>> = std::sync::OnceLock::new();
    POOL.get_or_init(|| {
        let helpers = cores().saturating_sub(1);
        if helpers == 0 {
            return None;
        }
        rayon_core::ThreadPoolBuilder::new()
            .num_threads(helpers)
            .thread_name(|i| format!("cqlmodel-analysis-{i}"))
            .build()
            .ok()
    })
    .as_ref()
}

/// Frees `value` on a helper thread when `large` (and the machine has more
/// than one core), else here and now. What a large analysis leaves behind
/// (its drafts, its graph's memos) takes a fifth of a millisecond or more
/// to free per thousand queries: the caller goes on while a helper frees
/// it, in time it would otherwise spend idle (steps that run on one
/// thread).
pub(crate) fn drop_later<T: Send + 'static>(large: bool, value: T) {
    match pool() {
        Some(pool) if large && !sequential_here() => pool.spawn(move || drop(value)),
        _ => drop(value),
    }
}

/// Values a step no longer needs, kept to be freed at a later step that
/// runs on one thread, when the helpers would otherwise be idle (see
/// [`drop_later`]).
#[derive(Default)]
pub(crate) struct Leftovers(Vec<Box<dyn Send>>);

impl Leftovers {
    pub(crate) fn keep<T: Send + 'static>(&mut self, value: T) {
        self.0.push(Box::new(value));
    }

    pub(crate) fn drop_later(self, large: bool) {
        drop_later(large, self.0);
    }
}

/// Runs `a` and `b`, `a` on a helper thread when `large` (and the machine
/// has more than one core), else one after the other. `b` runs on this
/// thread: what it makes is freed where it was allocated.
pub(crate) fn join<A: Send, B>(
    large: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B,
) -> (A, B) {
    let pool = match pool() {
        Some(pool) if large && !sequential_here() => pool,
        _ => {
            let x = a();
            return (x, b());
        }
    };
    let mut x = None;
    let y = pool.in_place_scope(|s| {
        s.spawn(|_| x = Some(a()));
        b()
    });
    (x.expect("a scope returns once what it spawned has run"), y)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Parts taken in turn by whichever thread is free still give the
    /// results in input order, at every size around the part boundaries,
    /// each thread's state made at most once per map.
    #[test]
    fn par_map_with_keeps_the_input_order() {
        for n in [0, 1, PARALLEL_MIN - 1, PARALLEL_MIN, 257, 1_000, 4_099] {
            let items: Vec<usize> = (0..n).collect();
            let states = std::sync::atomic::AtomicUsize::new(0);
            let got = par_map_with(
                &items,
                || {
                    states.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    0usize
                },
                |seen, &x| {
                    *seen += 1;
                    x * 3
                },
            );
            let expected: Vec<usize> = items.iter().map(|x| x * 3).collect();
            assert_eq!(got, expected, "{n} items");
            assert!(states.into_inner() <= cores().max(1), "{n} items");
        }
    }

    /// Maps nested in either side of a join (as the review's rules are)
    /// finish, and each side's result comes back on its own side.
    #[test]
    fn nested_maps_in_a_join_finish_in_order() {
        let items: Vec<u64> = (0..2_000).collect();
        let ((a, inner), b) = join(
            true,
            || {
                let inner = join(true, || par_map(&items, |x| x + 1), || 7u8);
                (par_map(&items, |x| x * 2), inner)
            },
            || par_map(&items, |x| x * x),
        );
        assert_eq!(a, items.iter().map(|x| x * 2).collect::<Vec<_>>());
        assert_eq!(inner.0, items.iter().map(|x| x + 1).collect::<Vec<_>>());
        assert_eq!(inner.1, 7);
        assert_eq!(b, items.iter().map(|x| x * x).collect::<Vec<_>>());
    }

    /// A panic in work on a helper reaches the caller, as it would on one
    /// thread, instead of hanging or being lost.
    #[test]
    fn a_panic_on_a_helper_reaches_the_caller() {
        let items: Vec<usize> = (0..1_000).collect();
        let outcome = std::panic::catch_unwind(|| {
            par_map(&items, |&x| {
                assert!(x != 777, "item 777");
                x
            })
        });
        assert!(outcome.is_err());
        let outcome = std::panic::catch_unwind(|| join(true, || panic!("left side"), || 1));
        assert!(outcome.is_err());
        // The pool still works afterwards.
        assert_eq!(par_map(&items, |x| x + 1)[999], 1_000);
    }

    /// What is handed to a helper to free is freed, soon, and exactly once.
    #[test]
    fn drop_later_frees_on_a_helper() {
        struct Counted(std::sync::Arc<std::sync::atomic::AtomicUsize>);
        impl Drop for Counted {
            fn drop(&mut self) {
                self.0.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
            }
        }
        let dropped = std::sync::Arc::new(std::sync::atomic::AtomicUsize::new(0));
        drop_later(false, Counted(dropped.clone()));
        assert_eq!(
            dropped.load(std::sync::atomic::Ordering::SeqCst),
            1,
            "small: at once"
        );
        for _ in 0..10 {
            drop_later(true, Counted(dropped.clone()));
        }
        let start = std::time::Instant::now();
        while dropped.load(std::sync::atomic::Ordering::SeqCst) < 11 {
            assert!(start.elapsed().as_secs() < 30, "never freed");
            std::thread::yield_now();
        }
        // Each value's own count is held once more by this test only.
        assert_eq!(std::sync::Arc::strong_count(&dropped), 1);
        assert_eq!(dropped.load(std::sync::atomic::Ordering::SeqCst), 11);
    }
}
