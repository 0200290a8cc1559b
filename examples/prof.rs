fn main() {
    let p = cqlmodel::model::synthetic::project(1000, 1000, 7);
    for _ in 0..30 { let m = cqlmodel::derive::derive(&p); std::hint::black_box(m); }
}
