//! Work on generated projects for instruction counts under
//! `valgrind --tool=callgrind` (repeatable on a busy machine, unlike wall
//! time): `valgrind --tool=callgrind target/release/examples/prof [WHAT]`,
//! where WHAT is `derive` (derivation, estimates and validation of a
//! 1,000-query project, the default), `load` (parse and validate its file
//! text) or `analyze` (the whole analysis).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() {
    let what = std::env::args().nth(1).unwrap_or_else(|| "derive".into());
    let p = cqlmodel::model::synthetic::project(1000, 1000, 7);
    match what.as_str() {
        "load" => {
            let text = cqlmodel::model::load::to_string(&p);
            let loaded = cqlmodel::model::load::from_str(&text);
            std::hint::black_box(loaded.is_ok());
        }
        "analyze" => {
            std::hint::black_box(cqlmodel::analysis::analyze(&p));
        }
        _ => {
            let m = cqlmodel::derive::derive(&p);
            let e = cqlmodel::estimate::estimate(&p, &m);
            let problems = cqlmodel::model::load::validate(&p);
            std::hint::black_box((m, e, problems));
        }
    }
}
