//! End to end through the dialogs only: the real binary in tmux starts an
//! empty project, and keys alone add two entities, an attribute, a 1:n
//! relationship, a query whose search and order are picked from lists,
//! and every figure the estimate needs (`#`); then Ctrl-S. The saved file
//! must hold that model and `cqlmodel check` must find nothing resting on
//! default figures. Without tmux the test fails unless `CQLMODEL_SKIP_TMUX=1`
//! says to skip it (tests/support).

use crate::support;

use support::tmux_session::Session;

#[test]
fn a_model_with_numbers_built_from_empty_with_dialogs_only() {
    if support::tmux().is_none() {
        return;
    }
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("rooms.cqlm.ron");
    let new = std::path::Path::new("new");
    let mut s = Session::start("dialogs", tmp.path(), &[new, &file], 160, 50);
    s.wait_for("Logical tables");

    // Conceptual pane: Hotel (it gets hotel_id uuid) with 5,000 instances.
    s.keys(&["a"]);
    s.wait_for("New entity");
    s.answer("Hotel");
    s.keys(&["#"]);
    s.wait_for("Figures of entity Hotel");
    s.answer("5000");
    // Room, with a room number.
    s.keys(&["a"]);
    s.answer("Room");
    s.keys(&["+"]);
    s.answer("number int");
    s.wait_for("number  int");
    // has_rooms: 20 rooms a hotel on average, 100 at most.
    s.keys(&["G", "a"]);
    s.wait_for("New relationship");
    // Picked end by end (typing narrows each list), then named.
    s.answer("Hotel");
    s.wait_for("which entity?");
    s.answer("Room");
    s.wait_for("how many?");
    s.answer("1:n");
    s.answer("has_rooms");
    s.keys(&["#"]);
    s.wait_for("Figures of relationship has_rooms");
    s.typed("20");
    s.keys(&["Tab"]);
    s.answer("100");
    s.wait_for("has_rooms");

    // Workflow pane: the rooms of a hotel, by number.
    s.keys(&["Tab", "a"]);
    s.wait_for("New query Q1");
    s.answer("Rooms of a hotel by number");
    s.wait_for("Its rows are instances of");
    s.answer("Room");
    s.keys(&["="]);
    s.wait_for("Equality search");
    s.typed("hotel_id");
    s.keys(&["Space", "Enter"]);
    s.keys(&["o"]);
    s.typed("number");
    s.keys(&["Space", "Enter"]);
    let screen = s.wait_for("rooms_by_hotel");
    assert!(screen.contains("[+]"), "unsaved marker missing:\n{screen}");
    assert!(!screen.contains("assumed (Enter)"), "{screen}");

    s.keys(&["C-s"]);
    s.wait_for("saved ");
    s.keys(&["q"]);
    s.wait_exit();

    let saved = std::fs::read_to_string(&file).expect("saved file");
    let p = cqlmodel::model::load::from_str(&saved).expect("the saved file loads");
    assert_eq!(p.entities.len(), 2, "{saved}");
    assert_eq!(p.entities[0].count, Some(5000.0), "{saved}");
    let r = &p.relationships[0];
    assert_eq!((r.from.as_str(), r.to.as_str()), ("Hotel", "Room"));
    let c = r.to_per_from.as_ref().expect("rooms per hotel");
    assert_eq!((c.avg, c.max), (20.0, Some(100.0)));
    let q = &p.queries[0];
    assert_eq!(q.rows, "Room");
    assert_eq!(q.equality, vec!["Hotel.hotel_id".to_string()]);
    assert_eq!(q.order.len(), 1, "{saved}");
    assert_eq!(q.order[0].attr, "number");

    let a = cqlmodel::analysis::analyze(&p);
    let t = a.model.table("rooms_by_hotel").expect("rooms_by_hotel");
    let names: Vec<&str> = t.columns.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(&names[..3], ["hotel_id", "number", "room_id"], "{names:?}");

    let out = std::process::Command::new(env!("CARGO_BIN_EXE_cqlmodel"))
        .arg("check")
        .arg(&file)
        .output()
        .expect("cqlmodel check runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("0 error(s), 0 warning(s)"), "{text}");
    assert!(!text.contains("estimate-on-defaults"), "{text}");
}
