//! The bottom pane's cost view: `5` opens it on the figures `cqlmodel
//! cost` prints; its tab shows once the project states a workload.

use cqlmodel::model::load;
use cqlmodel::tui::testing::{dirs, hotel, press, screen};
use cqlmodel::tui::{start, Launch};

#[test]
fn five_opens_the_cost_of_the_design() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut app = hotel(tmp.path());
    let s = screen(&app, 120, 40);
    assert!(s.contains("4 Notes"), "{s}");
    assert!(
        !s.contains("5 Cost"),
        "no workload stated: no cost tab\n{s}"
    );
    press(&mut app, '5');
    let s = screen(&app, 120, 40);
    assert!(s.contains("5 Cost"), "the open view shows its tab\n{s}");
    // The hotel sample's keyspace: one data centre of RF 3, 3 nodes assumed.
    assert!(s.contains("cluster: dc1 (RF 3, 3 nodes)"), "{s}");
    assert!(s.contains("queries (per request"), "{s}");
    press(&mut app, '1');
    assert!(!screen(&app, 120, 40).contains("5 Cost"));
}

#[test]
fn a_stated_workload_shows_the_cost_tab() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut p = crate::support::sample("hotel.cqlm.ron");
    p.cluster.nodes_per_dc = Some(6);
    let file = tmp.path().join("hotel.cqlm.ron");
    std::fs::write(&file, load::to_string(&p)).expect("write");
    let mut app = start(Launch::Open(file), dirs(tmp.path())).expect("start");
    assert!(screen(&app, 120, 40).contains("5 Cost"));
    press(&mut app, '5');
    let s = screen(&app, 120, 40);
    assert!(s.contains("cluster: dc1 (RF 3, 6 nodes)"), "{s}");
}
