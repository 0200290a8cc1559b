fn main() {
    let path = std::env::args().nth(1).unwrap();
    let p = match cqlmodel::model::load::read(std::path::Path::new(&path)) { Ok(p) => p, Err(e) => { eprintln!("{e}"); std::process::exit(2) } };
    let m = cqlmodel::derive::derive(&p);
    let est = cqlmodel::estimate::estimate(&p, &m);
    for (t, e) in m.tables.iter().zip(&est) {
        println!("{} {:?} rows={}", t.name, t.queries, t.rows);
        for c in &t.columns { println!("   {:3} {} {} ({:?})", c.role.marker(), c.name, c.ty, c.rule); }
        println!("   Nr={} Nv={} St={} parts={} {:?}", e.rows_per_partition, e.values, e.partition_bytes, e.partitions, e.assumptions);
    }
    for pl in &m.plans { println!("{} {:?} {}", pl.query, pl.access, pl.select); }
    for pr in &m.problems { println!("PROBLEM {pr}"); }
}
