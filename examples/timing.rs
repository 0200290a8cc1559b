fn main() {
    let p = cqlmodel::model::synthetic::project(1000, 1000, 7);
    let n = 20;
    let t = std::time::Instant::now();
    for _ in 0..n { let _ = cqlmodel::model::resolve::Graph::new(&p); }
    println!("graph {:?}", t.elapsed() / n);
    let t = std::time::Instant::now();
    let mut m = Default::default();
    for _ in 0..n { m = cqlmodel::derive::derive(&p); }
    println!("derive {:?}", t.elapsed() / n);
    let t = std::time::Instant::now();
    for _ in 0..n { let _ = cqlmodel::estimate::estimate(&p, &m); }
    println!("estimate {:?}", t.elapsed() / n);
    let t = std::time::Instant::now();
    for _ in 0..n { let _ = cqlmodel::model::load::validate(&p); }
    println!("validate {:?}", t.elapsed() / n);
}
