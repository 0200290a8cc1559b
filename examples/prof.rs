//! Derivation and estimates of a generated 1,000-query project, for
//! instruction counts under `valgrind --tool=callgrind` (repeatable on a
//! busy machine, unlike wall time):
//! `valgrind --tool=callgrind target/release/examples/prof`.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let p = cqlmodel::model::synthetic::project(1000, 1000, 7);
    let m = cqlmodel::derive::derive(&p);
    let e = cqlmodel::estimate::estimate(&p, &m);
    let problems = cqlmodel::model::load::validate(&p);
    std::hint::black_box((m, e, problems));
}
