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
/// shared between threads).
/// Maps `items` on every core when there are many (order kept); `init`
/// makes each worker's state.
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
    let cores = cores();
    if cores < 2 {
        return sequential();
    }
    let chunk = items.len().div_ceil(cores);
    std::thread::scope(|s| {
        let (f, init) = (&f, &init);
        let mut parts = items.chunks(chunk);
        // This thread maps the last part instead of waiting idle.
        let last = parts.next_back().unwrap_or(&[]);
        let handles: Vec<_> = parts
            .map(|part| {
                s.spawn(move || {
                    let mut state = init();
                    part.iter().map(|x| f(&mut state, x)).collect::<Vec<R>>()
                })
            })
            .collect();
        let mut state = init();
        let tail: Vec<R> = last.iter().map(|x| f(&mut state, x)).collect();
        let mut out = Vec::with_capacity(items.len());
        for h in handles {
            match h.join() {
                Ok(part) => out.extend(part),
                // A panic in a worker is a bug; re-raise it on this thread.
                Err(e) => std::panic::resume_unwind(e),
            }
        }
        out.extend(tail);
        out
    })
}

/// `items.sort_by(cmp)` (stable), its halves sorted on two cores for a
/// long list and merged: the same order, equal items kept as they came.
pub(crate) fn par_sort_by<T: Send>(
    items: &mut Vec<T>,
    cmp: impl Fn(&T, &T) -> std::cmp::Ordering + Sync,
) {
    if items.len() < 4 * PARALLEL_MIN || sequential_here() || cores() < 2 {
        items.sort_by(cmp);
        return;
    }
    let mut right = items.split_off(items.len() / 2);
    let cmp = &cmp;
    join(true, || items.sort_by(cmp), || right.sort_by(cmp));
    let left = std::mem::take(items);
    items.reserve_exact(left.len() + right.len());
    let mut left = left.into_iter().peekable();
    let mut right = right.into_iter().peekable();
    // The left half's item goes first unless the right one is smaller:
    // that keeps equal items in their order.
    while let (Some(l), Some(r)) = (left.peek(), right.peek()) {
        let next = if cmp(r, l).is_lt() {
            right.next()
        } else {
            left.next()
        };
        items.extend(next);
    }
    items.extend(left);
    items.extend(right);
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

/// Runs `a` and `b`, on two threads when `large` (and the machine has
/// more than one core), else one after the other.
pub(crate) fn join<A: Send, B: Send>(
    large: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if !large || sequential_here() || cores() < 2 {
        let x = a();
        return (x, b());
    }
    std::thread::scope(|s| {
        let h = s.spawn(a);
        let y = b();
        match h.join() {
            Ok(x) => (x, y),
            // A panic in a worker is a bug; re-raise it on this thread.
            Err(e) => std::panic::resume_unwind(e),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The halves sorted apart and merged give `sort_by`'s order, equal
    /// keys in their original order included.
    #[test]
    fn par_sort_by_is_the_stable_sort() {
        for n in [0, 1, 2, 511, 512, 513, 5_000] {
            // Few distinct keys: many ties, whose order stability decides.
            let mut seed = 0x2545_f491_u64 ^ n as u64;
            let items: Vec<(u64, usize)> = (0..n)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    (seed % 17, i)
                })
                .collect();
            let mut expected = items.clone();
            expected.sort_by_key(|x| x.0);
            let mut got = items;
            par_sort_by(&mut got, |a, b| a.0.cmp(&b.0));
            assert_eq!(got, expected, "{n} items");
        }
    }
}
