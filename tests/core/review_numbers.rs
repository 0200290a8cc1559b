//! Findings that fit the numbers: counts derived the same way whatever the
//! file's order, worst cases kept, estimates on defaults and unbounded
//! growth reported, contradicting counts caught, job-written rows kept out
//! of insert paths, and hot spots weighed by the stated write rate.
// Tests: a test's helpers fail it by panicking; the figures are exact by construction.
#![allow(clippy::panic, clippy::float_cmp)]

use cqlmodel::analysis::{analyze, Analysis};
use cqlmodel::derive::estimate::Estimate;
use cqlmodel::model::load::from_str;
use cqlmodel::model::Project;

fn project(text: &str) -> Project {
    from_str(text).expect("the test project loads")
}

fn estimate<'a>(a: &'a Analysis, table: &str) -> &'a Estimate {
    let i = a
        .model
        .tables
        .iter()
        .position(|t| t.name == table)
        .unwrap_or_else(|| panic!("no table {table}"));
    &a.estimates[i]
}

fn rules_on(a: &Analysis, subject: &str) -> Vec<&'static str> {
    a.diagnostics
        .iter()
        .filter(|d| format!("{:?}", d.subject).contains(subject))
        .map(|d| d.rule)
        .collect()
}

/// A chat: rooms (optionally counted), users, messages posted into rooms
/// at a stated rate and written by users with no numbers.
fn chat(rate_first: bool, room_count: &str) -> String {
    let posts = r#"Relationship(name: "posts", from: "Room", to: "Message", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 2000, per: Some(Day)))),"#;
    let writes =
        r#"Relationship(name: "writes", from: "User", to: "Message", cardinality: OneToMany),"#;
    let (r1, r2) = if rate_first {
        (posts, writes)
    } else {
        (writes, posts)
    };
    format!(
        r#"Project(format: 1, name: "Chat", keyspace: Keyspace(name: "c", replication: Simple(3)),
  entities: [
    Entity(name: "Room", key: ["room_id"], attributes: [Attribute(name: "room_id", type: "uuid")]{room_count}),
    Entity(name: "User", key: ["user_id"], attributes: [Attribute(name: "user_id", type: "uuid")], count: Some(10000)),
    Entity(name: "Message", key: ["message_id"], attributes: [
      Attribute(name: "message_id", type: "timeuuid"),
      Attribute(name: "body", type: "text", size: Some(100)),
    ]),
  ],
  relationships: [{r1} {r2}],
  queries: [
    Query(id: "Q1", text: "Messages of a room", rows: "Message", equality: ["Room.room_id"],
      order: [Order(attr: "message_id", dir: Desc)], returns: ["message_id", "body"]),
  ],
)"#
    )
}

#[test]
fn a_rate_counts_whichever_parent_is_listed_first() {
    let counted = ", count: Some(100)";
    let a = analyze(&project(&chat(true, counted)));
    let b = analyze(&project(&chat(false, counted)));
    let (ea, eb) = (
        estimate(&a, "messages_by_room"),
        estimate(&b, "messages_by_room"),
    );
    // 2,000 messages a day per room over the 365-day horizon.
    assert_eq!(ea.rows_per_partition, 730_000.0);
    assert_eq!(ea, eb);
    assert_eq!(a.diagnostics, b.diagnostics);
    assert!(rules_on(&a, "messages_by_room").contains(&"unbounded-partition"));
}

#[test]
fn a_rate_counts_when_the_parent_states_no_count() {
    let a = analyze(&project(&chat(false, "")));
    let e = estimate(&a, "messages_by_room");
    assert_eq!(e.rows_per_partition, 730_000.0);
    assert!(e.accumulates);
    let rules = rules_on(&a, "messages_by_room");
    assert!(rules.contains(&"unbounded-partition"), "{rules:?}");
    // The room count is a default: the review says which number to enter.
    assert!(rules.contains(&"estimate-on-defaults"), "{rules:?}");
    assert!(e.defaults.iter().any(|d| d.starts_with("Room: no count")));
}

const NO_NUMBERS: &str = r#"Project(format: 1, name: "Bare", keyspace: Keyspace(name: "b", replication: Simple(3)),
  entities: [
    Entity(name: "Room", key: ["room_id"], attributes: [Attribute(name: "room_id", type: "uuid")]),
    Entity(name: "Message", key: ["sent_at"], owner: Some("posts"), attributes: [
      Attribute(name: "sent_at", type: "timeuuid"),
      Attribute(name: "body", type: "text"),
    ]),
  ],
  relationships: [Relationship(name: "posts", from: "Room", to: "Message", cardinality: OneToMany)],
  queries: [
    Query(id: "Q1", text: "A room's timeline", rows: "Message", equality: ["room_id"],
      order: [Order(attr: "sent_at", dir: Desc)], returns: ["sent_at", "body"]),
  ],
)"#;

/// With no numbers entered, a room's timeline is no all-clear: its
/// estimate rests on defaults and its rows pile up with time.
#[test]
fn no_numbers_is_no_all_clear() {
    let a = analyze(&project(NO_NUMBERS));
    let t = &a.model.tables[0].name;
    let rules = rules_on(&a, t);
    assert!(rules.contains(&"estimate-on-defaults"), "{rules:?}");
    assert!(rules.contains(&"unbounded-partition"), "{rules:?}");
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.rule == "estimate-on-defaults")
        .expect("defaults finding");
    assert!(d.message().contains("Room: no count"), "{}", d.message());
    assert!(
        d.message().contains("posts: no count for Message per Room"),
        "{}",
        d.message()
    );
    // Entering the numbers (and a retention) clears both.
    let stated = NO_NUMBERS
        .replace(
            r#"Attribute(name: "room_id", type: "uuid")])"#,
            r#"Attribute(name: "room_id", type: "uuid")], count: Some(100))"#,
        )
        .replace(
            r#"Attribute(name: "body", type: "text"),
    ]),"#,
            r#"Attribute(name: "body", type: "text", size: Some(80)),
    ], retention_days: Some(30), ttl: true),"#,
        )
        .replace(
            r"cardinality: OneToMany)",
            r"cardinality: OneToMany, to_per_from: Some(Count(avg: 50, per: Some(Day))))",
        );
    let b = analyze(&project(&stated));
    let rules = rules_on(&b, t);
    assert!(!rules.contains(&"estimate-on-defaults"), "{rules:?}");
    assert!(!rules.contains(&"unbounded-partition"), "{rules:?}");
}

const VIRAL: &str = r#"Project(format: 1, name: "Viral", keyspace: Keyspace(name: "v", replication: Simple(3)),
  entities: [
    Entity(name: "Item", key: ["item_id"], attributes: [Attribute(name: "item_id", type: "bigint")], count: Some(1000)),
    Entity(name: "Comment", key: ["comment_id"], attributes: [
      Attribute(name: "comment_id", type: "timeuuid"),
      Attribute(name: "body", type: "text", size: Some(200)),
    ], count: Some(10000)),
  ],
  relationships: [Relationship(name: "on", from: "Item", to: "Comment", cardinality: OneToMany,
    to_per_from: Some(Count(avg: 10, max: Some(400000))))],
  queries: [
    Query(id: "Q1", text: "Comments of an item", rows: "Comment", equality: ["Item.item_id"],
      returns: ["comment_id", "body"]),
  ],
)"#;

/// The comments count is stated, and one viral item's 400,000 comments
/// still make the worst partition.
#[test]
fn a_stated_child_count_keeps_the_relationships_maximum() {
    let a = analyze(&project(VIRAL));
    let e = estimate(&a, "comments_by_item");
    assert_eq!(e.rows_per_partition, 10.0);
    assert_eq!(e.rows_per_partition_max, 400_000.0);
    assert!(rules_on(&a, "comments_by_item").contains(&"partition-too-large"));
}

/// A child count that disagrees with parent count × average is a finding.
#[test]
fn contradicting_counts_are_reported() {
    let text = VIRAL.replace("count: Some(10000)", "count: Some(2000000)");
    let a = analyze(&project(&text));
    let d = a
        .diagnostics
        .iter()
        .find(|d| d.rule == "contradicting-counts")
        .expect("a contradiction");
    assert!(d.message().contains("2,000,000"), "{}", d.message());
    assert!(d.message().contains("10,000"), "{}", d.message());
    // Agreeing counts (1,000 · 10 = 10,000) are not.
    assert!(!analyze(&project(VIRAL))
        .diagnostics
        .iter()
        .any(|d| d.rule == "contradicting-counts"));
}

// Every equality attribute in the partition key: the estimate pairs the
// two entities the key names.
const MEMBERS: &str = r#"Project(format: 1, name: "Members", keyspace: Keyspace(name: "m", replication: Simple(3)),
  partition_keys: AllEquality,
  entities: [
    Entity(name: "Room", key: ["room_id"], attributes: [Attribute(name: "room_id", type: "uuid")], count: Some(100)),
    Entity(name: "User", key: ["user_id"], attributes: [Attribute(name: "user_id", type: "uuid")], count: Some(10000)),
    Entity(name: "Message", key: ["message_id"], attributes: [Attribute(name: "message_id", type: "timeuuid")], count: Some(5000000)),
  ],
  relationships: [
    Relationship(name: "member_of", from: "User", to: "Room", cardinality: ManyToMany,
      to_per_from: Some(Count(avg: 5))),
    Relationship(name: "posts", from: "Room", to: "Message", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 50000))),
    Relationship(name: "writes", from: "User", to: "Message", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 500))),
  ],
  queries: [
    Query(id: "Q1", text: "A user's messages in a room", rows: "Message",
      equality: ["Room.room_id", "User.user_id"], returns: ["message_id"]),
  ],
)"#;

/// Messages by room and user: the partitions are the memberships (10,000
/// users in 5 rooms each), not every user times every room.
#[test]
fn partitions_of_two_entities_follow_the_relationship_between_them() {
    let a = analyze(&project(MEMBERS));
    let t = &a.model.tables[0];
    let e = &a.estimates[0];
    assert_eq!(e.partitions, 50_000.0, "{}", t.name);
    assert_eq!(e.rows_per_partition, 100.0);
}

const RECOMMEND: &str = r#"Project(format: 1, name: "Recs", keyspace: Keyspace(name: "r", replication: Simple(3)),
  entities: [
    Entity(name: "User", key: ["user_id"], attributes: [Attribute(name: "user_id", type: "uuid")], count: Some(1000)),
    Entity(name: "Item", key: ["item_id"], attributes: [
      Attribute(name: "item_id", type: "bigint"),
      Attribute(name: "title", type: "text", size: Some(40)),
    ], count: Some(1000)),
  ],
  relationships: [
    Relationship(name: "recommended", from: "User", to: "Item", cardinality: ManyToMany,
      to_per_from: Some(Count(avg: 20)), written_by_job: true),
  ],
  queries: [
    Query(id: "Q1", text: "Items recommended to a user", rows: "Item", equality: ["User.user_id"], returns: ["item_id", "title"]),
    Query(id: "Q2", text: "An item", rows: "Item", equality: ["item_id"], returns: ["item_id", "title"]),
    Query(id: "Q3", text: "An item by title", rows: "Item", equality: ["title"], returns: ["item_id", "title"]),
    Query(id: "Q4", text: "Users a job scored an item for", rows: "User", equality: ["Item.item_id"], returns: ["user_id"]),
  ],
)"#;

/// Rows a batch job produces are job-written, not part of a new item's
/// or user's insert path, and no write-amplification counts them.
#[test]
fn job_written_rows_stay_out_of_insert_paths() {
    let a = analyze(&project(RECOMMEND));
    let w = |item: &str| {
        a.model
            .writes
            .iter()
            .find(|w| w.item == item)
            .expect("write path")
    };
    let listed: Vec<&str> = w("Item").insert.iter().map(|t| &**t).collect();
    assert_eq!(listed, ["items", "items_by_title"]);
    assert!(w("User").insert.is_empty());
    assert!(w("recommended").insert.is_empty());
    assert_eq!(w("recommended").job.len(), 2);
    assert!(!a
        .diagnostics
        .iter()
        .any(|d| d.rule == "write-amplification"));
    let report = cqlmodel::output::report::chebotko(&project(RECOMMEND), &a);
    assert!(report.contains("job-written"), "{report}");
}

/// The likes sample: a new item writes its own tables; a like writes the
/// two tables of likes; the batch never holds another entity's row.
#[test]
fn likes_write_paths_follow_what_creates_a_row() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/likes.cqlm.ron"
    );
    let p = cqlmodel::model::load::read(std::path::Path::new(path)).expect("likes");
    let a = analyze(&p);
    let w = |item: &str| {
        a.model
            .writes
            .iter()
            .find(|w| w.item == item)
            .expect("write path")
            .insert
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<String>>()
    };
    assert_eq!(w("Item"), ["like_counts", "items"]);
    assert!(w("User").is_empty());
    assert_eq!(w("likes"), ["items_by_user", "users_by_item"]);
}

fn daily(per_day: &str) -> String {
    format!(
        r#"Project(format: 1, name: "Days", keyspace: Keyspace(name: "d", replication: Simple(3)),
  entities: [
    Entity(name: "Device", key: ["device_id"], attributes: [Attribute(name: "device_id", type: "uuid")], count: Some(10)),
    Entity(name: "Event", key: ["event_id"], attributes: [
      Attribute(name: "event_id", type: "timeuuid"),
      Attribute(name: "day", type: "date"),
    ], retention_days: Some(30), ttl: true),
  ],
  relationships: [Relationship(name: "emits", from: "Device", to: "Event", cardinality: OneToMany,
    to_per_from: Some(Count(avg: {per_day}, per: Some(Day))))],
  queries: [
    Query(id: "Q1", text: "Events of a day", rows: "Event", equality: ["day"], returns: ["event_id"]),
  ],
)"#
    )
}

/// A day alone as partition key sends today's writes to one partition:
/// at 0.16 writes a second that is no hot spot; at 1,600 it is.
#[test]
fn hot_partitions_weigh_the_stated_write_rate() {
    let calm = analyze(&project(&daily("1400")));
    assert!(!calm.diagnostics.iter().any(|d| d.rule == "hot-partition"));
    let busy = analyze(&project(&daily("14000000")));
    assert!(busy.diagnostics.iter().any(|d| d.rule == "hot-partition"));
}

const ROOMS: &str = r#"Project(format: 1, name: "Rooms", keyspace: Keyspace(name: "r", replication: Simple(3)),
  entities: [
    Entity(name: "User", key: ["user_id"], attributes: [Attribute(name: "user_id", type: "uuid")], count: Some(1000)),
    Entity(name: "Room", key: ["room_id"], attributes: [
      Attribute(name: "room_id", type: "uuid"),
      Attribute(name: "title", type: "text", size: Some(20)),
    ], count: Some(100000)),
  ],
  relationships: [Relationship(name: "member_of", from: "User", to: "Room", cardinality: ManyToMany)],
  queries: [
    Query(id: "Q1", text: "Rooms of a user", rows: "Room", equality: ["User.user_id"], returns: ["room_id", "title"]),
    Query(id: "Q2", text: "Users of a room", rows: "User", equality: ["Room.room_id"], returns: ["user_id"]),
  ],
)"#;

/// With no numbers on an m:n, the one assumption printed ("10 rooms per
/// user") is the figure both directions use: 1,000 users · 10 = 10,000
/// links either way, 10 rooms in a user's partition.
#[test]
fn the_printed_assumption_is_the_figure_used() {
    let a = analyze(&project(ROOMS));
    let (by_user, by_room) = (estimate(&a, "rooms_by_user"), estimate(&a, "users_by_room"));
    let note = "member_of: no count for Room per User; assumed 10";
    assert_eq!(*by_user.assumptions, [note]);
    assert_eq!(*by_room.assumptions, [note]);
    assert_eq!(by_user.rows_per_partition, 10.0);
    assert_eq!(by_user.rows, 10_000.0);
    assert_eq!(by_room.rows, 10_000.0);
}

fn samples() -> Vec<Project> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/sample-projects");
    let mut paths: Vec<_> = std::fs::read_dir(dir)
        .expect("sample-projects")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.to_string_lossy().ends_with(".cqlm.ron"))
        .collect();
    paths.sort();
    assert!(paths.len() >= 6, "{paths:?}");
    paths
        .iter()
        .map(|p| cqlmodel::model::load::read(p).expect("sample"))
        .collect()
}

/// Every fix offered with a refinement removes its finding, as the
/// refinement preview computes it: on the samples, on the samples with
/// their buckets and shards taken away, and on the projects above.
#[test]
fn every_offered_fix_removes_its_finding() {
    let mut projects = samples();
    for p in samples() {
        let mut bare = p.clone();
        for d in &mut bare.decisions {
            d.partition_extra.clear();
        }
        bare.prune_decisions();
        projects.push(bare);
    }
    for text in [NO_NUMBERS, VIRAL, MEMBERS, ROOMS] {
        projects.push(project(text));
    }
    projects.push(project(&daily("14000000")));
    projects.push(project(&chat(true, "")));
    let mut checked = 0;
    for p in &projects {
        let a = analyze(p);
        for d in a.diagnostics.iter().filter(|d| d.refinement.is_some()) {
            let r = d.refinement.as_ref().expect("filtered");
            let pv = cqlmodel::edit::refine::preview(p, r);
            assert!(
                pv.error.is_none(),
                "{}: {:?} fails: {:?}",
                p.name,
                r,
                pv.error
            );
            assert!(
                pv.resolved
                    .iter()
                    .any(|x| x.rule == d.rule && x.subject == d.subject),
                "{}: {} on {:?}: {} does not remove it",
                p.name,
                d.rule,
                d.subject,
                r.label()
            );
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} fixes checked");
}

/// Ten devices as partitions: at 0.16 writes a second in all, with small
/// partitions, they are no hot spot; at 1,600 a second they are.
#[test]
fn few_partitions_are_hot_only_at_a_rate_that_matters() {
    let by_device = |per_day: &str| {
        daily(per_day)
            .replace(r#"equality: ["day"]"#, r#"equality: ["Device.device_id"]"#)
            .replace(r#"Events of a day""#, r#"Events of a device""#)
    };
    let calm = analyze(&project(&by_device("1400")));
    assert!(
        !calm.diagnostics.iter().any(|d| d.rule == "hot-partition"),
        "{:?}",
        calm.diagnostics
    );
    let busy = analyze(&project(&by_device("14000000")));
    assert!(busy.diagnostics.iter().any(|d| d.rule == "hot-partition"));
}

/// A partition keyed by a unique identifier (`confirm_number` beside the
/// surrogate `reservation_id`) holds one row: no distinct count is needed,
/// none is assumed, and nothing is reported as too large.
#[test]
fn a_lookup_by_a_unique_identifier_is_one_row_per_partition() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/hotel-surrogate.cqlm.ron"
    ))
    .expect("the surrogate-id hotel sample");
    let a = analyze(&project(&text));
    let e = estimate(&a, "reservations_by_confirmation");
    assert_eq!(e.rows_per_partition, 1.0);
    assert_eq!(e.rows_per_partition_max, 1.0);
    assert!(
        e.assumptions.iter().all(|n| !n.contains("distinct")),
        "{:?}",
        e.assumptions
    );
    let rules = rules_on(&a, "reservations_by_confirmation");
    assert!(!rules.contains(&"partition-too-large"), "{rules:?}");
    assert!(!rules.contains(&"estimate-on-defaults"), "{rules:?}");
}
