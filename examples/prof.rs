//! One derivation and estimate of a generated 1,000-query project, for
//! instruction counts under `valgrind --tool=callgrind` (repeatable on a
//! busy machine, unlike wall time).
fn main() {
    let n: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let p = cqlmodel::model::synthetic::project(1000, 1000, 7);
    for _ in 0..n {
        let a = cqlmodel::analysis::analyze(&p);
        std::hint::black_box(a);
    }
}
