fn main() {
    let p = cqlmodel::model::synthetic::project(1000, 1000, 7);
    let t = std::time::Instant::now();
    let mut n = 0;
    for _ in 0..20 { let a = cqlmodel::analysis::analyze(&p); n += a.model.tables.len(); }
    println!("{:?} per analyze, {} tables", t.elapsed() / 20, n / 20);
}
