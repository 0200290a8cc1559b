//! MR5 with minimal keys and natural identifiers: the issue's examples, as
//! the project files a designer would write.

use super::*;
use crate::model::load;
#[allow(unused_imports)]
use crate::model::name::Name;
#[allow(unused_imports)]
use crate::model::resolve::{Edge, Graph, NodeId, Reached};
#[allow(unused_imports)]
use crate::model::{CqlType, Decision, Dir, ExtraKind, Native, Period, Project, Query, Shared};

/// Customer 1:n Order (not weak), Order 1:n `LineItem` (weak), Item 1:1
/// `ProcessingJob` 1:n `JobEvent` (weak), a User with a unique email, and a
/// Reservation keyed by a surrogate id with a unique confirmation number.
const MODEL: &str = r#"Project(format: 1, name: "m", keyspace: Keyspace(name: "m", replication: Simple(1)),
  entities: [
    Entity(name: "Customer", key: ["customer_id"], attributes: [
        Attribute(name: "customer_id", type: "uuid"), Attribute(name: "name", type: "text")]),
    Entity(name: "Order", key: ["order_id"], attributes: [
        Attribute(name: "order_id", type: "uuid"), Attribute(name: "placed_at", type: "timestamp")]),
    Entity(name: "LineItem", owner: Some("has_lines"), key: ["line_no"], attributes: [
        Attribute(name: "line_no", type: "int"), Attribute(name: "product_name", type: "text"),
        Attribute(name: "qty", type: "int")]),
    Entity(name: "Item", key: ["item_id"], attributes: [
        Attribute(name: "item_id", type: "uuid"), Attribute(name: "title", type: "text")]),
    Entity(name: "ProcessingJob", short: Some("job"), key: ["job_id"], attributes: [
        Attribute(name: "job_id", type: "uuid"), Attribute(name: "state", type: "text")]),
    Entity(name: "JobEvent", owner: Some("logs"), key: ["etag"], attributes: [
        Attribute(name: "etag", type: "timeuuid"), Attribute(name: "status_date", type: "timestamp"),
        Attribute(name: "status", type: "text")]),
    Entity(name: "User", key: ["user_id"], unique: [["email"]], attributes: [
        Attribute(name: "user_id", type: "uuid"), Attribute(name: "email", type: "text"),
        Attribute(name: "password_hash", type: "blob")]),
    Entity(name: "Hotel", key: ["hotel_id"], attributes: [Attribute(name: "hotel_id", type: "text")]),
    Entity(name: "Room", key: ["room_id"], unique: [["Hotel.hotel_id", "room_number"]], attributes: [
        Attribute(name: "room_id", type: "uuid"), Attribute(name: "room_number", type: "smallint")]),
    Entity(name: "Reservation", key: ["reservation_id"],
        unique: [["confirm_number"], ["Room.room_id", "start_date"]], attributes: [
        Attribute(name: "reservation_id", type: "uuid"), Attribute(name: "confirm_number", type: "text"),
        Attribute(name: "start_date", type: "date"), Attribute(name: "guest_name", type: "text")]),
  ],
  relationships: [
    Relationship(name: "places", from: "Customer", to: "Order", cardinality: OneToMany),
    Relationship(name: "has_lines", from: "Order", to: "LineItem", cardinality: OneToMany),
    Relationship(name: "processed_by", from: "Item", to: "ProcessingJob", cardinality: OneToOne),
    Relationship(name: "logs", from: "ProcessingJob", to: "JobEvent", cardinality: OneToMany),
    Relationship(name: "has_rooms", from: "Hotel", to: "Room", cardinality: OneToMany),
    Relationship(name: "reserves", from: "Room", to: "Reservation", cardinality: OneToMany),
  ],
  queries: [QUERIES],
)"#;

fn one(query: &str) -> Table {
    let text = MODEL.replace("QUERIES", query);
    let p = match load::from_str(&text) {
        Ok(p) => p,
        Err(e) => panic!("test project invalid: {e}"),
    };
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    assert_eq!(m.tables.len(), 1);
    m.tables
        .into_iter()
        .next()
        .map(|t| Table::clone(&t))
        .expect("one table")
}

/// The primary key as `K a`, `C↑ b`, ...
fn key(t: &Table) -> Vec<String> {
    t.columns
        .iter()
        .filter(|c| c.role.is_key())
        .map(|c| format!("{} {}", c.role.marker(), c.name))
        .collect()
}

#[test]
fn a_to_one_step_to_a_parent_adds_nothing() {
    let t = one(
        r#"Query(id: "Q1", text: "line items of an order by product", rows: "LineItem",
            equality: ["order_id"], order: [Order(attr: "product_name")],
            returns: ["qty", "Customer.name"])"#,
    );
    assert_eq!(key(&t), ["K order_id", "C↑ product_name", "C↑ line_no"]);
}

#[test]
fn a_one_to_one_partner_identifies_the_rows() {
    let t = one(
        r#"Query(id: "Q1", text: "the job of an item", rows: "ProcessingJob",
            equality: ["Item.item_id"], returns: ["state"])"#,
    );
    assert_eq!(key(&t), ["K item_id"]);
}

#[test]
fn an_owner_fixed_by_a_one_to_one_partner_is_not_repeated() {
    let t = one(
        r#"Query(id: "Q1", text: "the job's events of an item, latest first", rows: "JobEvent",
            equality: ["Item.item_id"], order: [Order(attr: "status_date", dir: Desc)],
            returns: ["status"])"#,
    );
    assert_eq!(key(&t), ["K item_id", "C↓ status_date", "C↑ etag"]);
}

#[test]
fn a_lookup_by_a_unique_identifier_is_a_one_row_partition() {
    let t = one(
        r#"Query(id: "Q1", text: "log in", rows: "User", equality: ["email"],
            returns: ["user_id", "password_hash"])"#,
    );
    assert_eq!(key(&t), ["K email"]);
    let t = one(
        r#"Query(id: "Q1", text: "reservation by confirmation", rows: "Reservation",
            equality: ["confirm_number"], returns: ["reservation_id", "start_date"])"#,
    );
    assert_eq!(key(&t), ["K confirm_number"]);
}

#[test]
fn the_smallest_identifier_the_table_holds_makes_rows_unique() {
    // The confirmation number is returned: it tells reservations apart
    // without the surrogate id.
    let t = one(
        r#"Query(id: "Q1", text: "reservations of a guest name", rows: "Reservation",
            equality: ["guest_name"], returns: ["confirm_number", "start_date"])"#,
    );
    assert_eq!(key(&t), ["K guest_name", "C↑ confirm_number"]);
    assert_eq!(t.columns[1].rule, Rule::Identifier);
    // Not returned: the declared key it is.
    let t = one(
        r#"Query(id: "Q1", text: "reservations of a guest name", rows: "Reservation",
            equality: ["guest_name"], returns: ["start_date"])"#,
    );
    assert_eq!(key(&t), ["K guest_name", "C↑ reservation_id"]);
    assert_eq!(t.columns[1].rule, Rule::Key);
}

#[test]
fn a_composite_identifier_through_a_parent_needs_no_surrogate() {
    // A room is (hotel, room number); a reservation is (room, start date):
    // the docs' reservations_by_hotel_date.
    let t = one(
        r#"Query(id: "Q1", text: "reservations by hotel and date", rows: "Reservation",
            equality: ["Hotel.hotel_id", "start_date"], order: [Order(attr: "Room.room_number")],
            returns: ["confirm_number", "guest_name"])"#,
    );
    assert_eq!(key(&t), ["K hotel_id", "K start_date", "C↑ room_number"]);
}

#[test]
fn the_review_agrees_that_derived_keys_identify_their_rows() {
    let text = MODEL.replace(
        "QUERIES",
        r#"Query(id: "Q1", text: "t", rows: "JobEvent", equality: ["Item.item_id"],
            order: [Order(attr: "status_date", dir: Desc)], returns: ["status"]),
           Query(id: "Q2", text: "t", rows: "Reservation", equality: ["guest_name"],
            returns: ["confirm_number"])"#,
    );
    let p = load::from_str(&text).expect("valid");
    let a = crate::analysis::analyze(&p);
    assert!(
        !a.diagnostics.iter().any(|d| d.rule == "rows-overwrite"),
        "{:?}",
        a.diagnostics
    );
}

#[test]
fn ordering_by_a_time_a_timeuuid_encodes_clusters_by_the_timeuuid_alone() {
    let text = MODEL.replace(
        r#"Attribute(name: "etag", type: "timeuuid"),"#,
        r#"Attribute(name: "etag", type: "timeuuid", encodes: Some("status_date")),"#,
    );
    let text = text.replace(
        "QUERIES",
        r#"Query(id: "Q1", text: "events of a job, latest first", rows: "JobEvent",
            equality: ["job_id"], order: [Order(attr: "status_date", dir: Desc)],
            limit: Some(10), returns: ["status"])"#,
    );
    let p = load::from_str(&text).expect("valid");
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    let t = &m.tables[0];
    assert_eq!(key(t), ["K job_id", "C↓ etag"]);
    assert!(
        t.column("status_date").is_none(),
        "not returned, not stored"
    );
    assert!(
        m.plans[0].select.ends_with("ORDER BY etag DESC LIMIT 10;"),
        "{}",
        m.plans[0].select
    );
}

#[test]
fn encodes_must_name_another_attribute() {
    let text = MODEL.replace(
        r#"Attribute(name: "etag", type: "timeuuid"),"#,
        r#"Attribute(name: "etag", type: "timeuuid", encodes: Some("created")),"#,
    );
    let text = text.replace("QUERIES", "");
    let err = load::from_str(&text).expect_err("invalid");
    assert!(err.to_string().contains("encodes"), "{err}");
}

#[test]
fn unique_identifiers_must_resolve() {
    let text = MODEL.replace(r#"unique: [["email"]]"#, r#"unique: [["mail"]]"#);
    let text = text.replace("QUERIES", "");
    let err = load::from_str(&text).expect_err("invalid");
    assert!(err.to_string().contains("unique[0][0]"), "{err}");
}

#[test]
fn a_lookup_by_a_unique_identifier_names_it() {
    let text = MODEL.replace(
        "QUERIES",
        r#"Query(id: "Q1", text: "log in", rows: "User", equality: ["email"], returns: ["user_id"]),
           Query(id: "Q2", text: "a user", rows: "User", equality: ["user_id"], returns: ["email"])"#,
    );
    let p = load::from_str(&text).expect("valid");
    let m = derive(&p);
    assert_eq!(names(&m), ["users_by_email", "users"]);
}

fn names(m: &LogicalModel) -> Vec<&str> {
    m.tables.iter().map(|t| t.name.as_str()).collect()
}

/// Enrollment identified by student and course; Grade by enrollment and
/// assignment.
const SCHOOL: &str = r#"Project(format: 1, name: "s", keyspace: Keyspace(name: "s", replication: Simple(1)),
  entities: [
    Entity(name: "Student", key: ["student_id"], attributes: [
        Attribute(name: "student_id", type: "uuid"), Attribute(name: "name", type: "text")]),
    Entity(name: "Course", key: ["course_id"], attributes: [Attribute(name: "course_id", type: "text")]),
    Entity(name: "Assignment", key: ["assignment_id"], attributes: [
        Attribute(name: "assignment_id", type: "int")]),
    Entity(name: "Enrollment", owner: Some("enrolls"), owners: ["takes"], key: [], attributes: [
        Attribute(name: "enrolled_on", type: "date")]),
    Entity(name: "Grade", owner: Some("graded"), owners: ["for_assignment"], key: [], attributes: [
        Attribute(name: "score", type: "int")]),
  ],
  relationships: [
    Relationship(name: "enrolls", from: "Student", to: "Enrollment", cardinality: OneToMany),
    Relationship(name: "takes", from: "Course", to: "Enrollment", cardinality: OneToMany),
    Relationship(name: "graded", from: "Enrollment", to: "Grade", cardinality: OneToMany),
    Relationship(name: "for_assignment", from: "Assignment", to: "Grade", cardinality: OneToMany),
  ],
  queries: [QUERIES],
)"#;

fn school(query: &str) -> Table {
    let p = match load::from_str(&SCHOOL.replace("QUERIES", query)) {
        Ok(p) => p,
        Err(e) => panic!("test project invalid: {e}"),
    };
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    m.tables
        .into_iter()
        .next()
        .map(|t| Table::clone(&t))
        .expect("one table")
}

#[test]
fn a_weak_entity_with_several_owners_inherits_every_owners_key() {
    let t = school(
        r#"Query(id: "Q1", text: "students of a course", rows: "Enrollment",
            equality: ["course_id"], returns: ["enrolled_on", "Student.name"])"#,
    );
    assert_eq!(key(&t), ["K course_id", "C↑ student_id"]);
    let t = school(
        r#"Query(id: "Q1", text: "a student's grades in a course", rows: "Grade",
            equality: ["student_id", "course_id"], returns: ["score"])"#,
    );
    assert_eq!(key(&t), ["K student_id", "K course_id", "C↑ assignment_id"]);
}

#[test]
fn ownership_cycles_through_any_owner_are_refused() {
    let text = SCHOOL
        .replace(
            r#"Entity(name: "Student", key: ["student_id"],"#,
            r#"Entity(name: "Student", owner: Some("back"), key: ["student_id"],"#,
        )
        .replace("  queries: [QUERIES],", "  queries: [],")
        .replace(
            r#"    Relationship(name: "enrolls","#,
            r#"    Relationship(name: "back", from: "Grade", to: "Student", cardinality: OneToMany),
    Relationship(name: "enrolls","#,
        );
    let err = load::from_str(&text).expect_err("a cycle");
    assert!(err.to_string().contains("cycle"), "{err}");
}

const NAMES: &str = r#"Project(format: 1, name: "n", keyspace: Keyspace(name: "n", replication: Simple(1)),
  entities: [
    Entity(name: "Post", key: ["post_id"], attributes: [Attribute(name: "post_id", type: "uuid")]),
    Entity(name: "Tag", key: ["tag"], attributes: [Attribute(name: "tag", type: "text")]),
    Entity(name: "ProcessingJob", key: ["job_id"], attributes: [Attribute(name: "job_id", type: "uuid")]),
    Entity(name: "Address", key: ["address_id"], attributes: [
        Attribute(name: "address_id", type: "uuid"), Attribute(name: "city", type: "text")]),
  ],
  relationships: [
    Relationship(name: "tagged", from: "Post", to: "Tag", cardinality: ManyToMany),
    Relationship(name: "processed_by", from: "Post", to: "ProcessingJob", cardinality: OneToOne),
    Relationship(name: "home_address", from: "Address", to: "Post", cardinality: OneToMany),
    Relationship(name: "work_address", from: "Address", to: "Post", cardinality: OneToMany),
  ],
  queries: [QUERIES],
)"#;

fn named(query: &str) -> Table {
    let p = match load::from_str(&NAMES.replace("QUERIES", query)) {
        Ok(p) => p,
        Err(e) => panic!("test project invalid: {e}"),
    };
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    m.tables
        .into_iter()
        .next()
        .map(|t| Table::clone(&t))
        .expect("one table")
}

fn columns(t: &Table) -> Vec<&str> {
    t.columns.iter().map(|c| c.name.as_str()).collect()
}

#[test]
fn foreign_columns_do_not_double_words() {
    let t = named(
        r#"Query(id: "Q1", text: "posts with a tag", rows: "Post", equality: ["Tag.tag"],
            returns: ["ProcessingJob.job_id"])"#,
    );
    assert_eq!(columns(&t), ["tag", "post_id", "job_id"]);
    assert_eq!(t.name, "posts_by_tag");
}

#[test]
fn a_search_through_a_one_to_one_link_is_named_after_the_entity() {
    let t = named(
        r#"Query(id: "Q1", text: "the job of a post", rows: "ProcessingJob",
            equality: ["Post.post_id"], returns: ["job_id"])"#,
    );
    assert_eq!(t.name, "processing_jobs_by_post");
}

#[test]
fn an_entity_reached_twice_names_the_second_by_its_role() {
    let t = named(
        r#"Query(id: "Q1", text: "a post's addresses", rows: "Post", equality: ["post_id"],
            returns: ["Address.city via home_address", "Address.city via work_address"])"#,
    );
    assert_eq!(
        columns(&t),
        ["post_id", "address_city", "work_address_city"]
    );
}

#[test]
fn a_time_bucket_replaces_the_constant_bucket() {
    let text = MODEL.replace(
        "QUERIES",
        r#"Query(id: "Q1", text: "latest orders", rows: "Order",
            order: [Order(attr: "placed_at", dir: Desc)], returns: ["order_id"])"#,
    );
    let mut p = load::from_str(&text).expect("valid");
    let m = derive(&p);
    assert_eq!(
        key(&m.tables[0]),
        ["K bucket", "C↓ placed_at", "C↑ order_id"]
    );
    p.decision_mut("Q1")
        .partition_extra
        .push(crate::model::ExtraColumn {
            column: "day".into(),
            kind: ExtraKind::Bucket {
                source: "placed_at".into(),
                period: Period::Day,
            },
        });
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    assert_eq!(key(&m.tables[0]), ["K day", "C↓ placed_at", "C↑ order_id"]);
    assert!(
        !m.plans[0].select.contains("bucket"),
        "{}",
        m.plans[0].select
    );
    assert!(
        m.plans[0].select.contains("day = ?"),
        "{}",
        m.plans[0].select
    );
}

/// A chain of `n` owned entities below `E0`, which a `Partner` fixes
/// one to one, read by the partner through an explicit `via`.
fn owned_chain(n: usize) -> Project {
    let mut entities = vec![
        r#"Entity(name: "Partner", key: ["pid"], attributes: [Attribute(name: "pid", type: "uuid")])"#
            .to_string(),
        r#"Entity(name: "E0", key: ["k0"], attributes: [Attribute(name: "k0", type: "uuid")])"#
            .to_string(),
    ];
    let mut relationships = vec![
        r#"Relationship(name: "partner", from: "Partner", to: "E0", cardinality: OneToOne)"#
            .to_string(),
    ];
    for i in 1..=n {
        entities.push(format!(
            r#"Entity(name: "E{i}", owner: Some("own{i}"), key: ["k{i}"], attributes: [
                Attribute(name: "k{i}", type: "int"), Attribute(name: "v{i}", type: "text")])"#
        ));
        relationships.push(format!(
            r#"Relationship(name: "own{i}", from: "E{}", to: "E{i}", cardinality: OneToMany)"#,
            i - 1
        ));
    }
    let via: Vec<String> = (1..=n).rev().map(|i| format!("own{i}")).collect();
    generated(
        &entities,
        &relationships,
        &format!(
            r#"Query(id: "Q1", text: "the deepest rows of a partner", rows: "E{n}",
            equality: ["Partner.pid via {}, partner"], returns: ["v{n}"])"#,
            via.join(", ")
        ),
    )
}

/// A project of the given items' RON texts and one query.
fn generated(entities: &[String], relationships: &[String], query: &str) -> Project {
    let text = format!(
        r#"Project(format: 1, name: "generated", keyspace: Keyspace(name: "g", replication: Simple(1)),
  entities: [{}],
  relationships: [{}],
  queries: [{query}],
)"#,
        entities.join(",\n"),
        relationships.join(",\n"),
    );
    match load::from_str(&text) {
        Ok(p) => p,
        Err(e) => panic!("test project invalid: {e}"),
    }
}

/// The partner fixes `E0`; every owned level below adds its own key part,
/// however deep the chain. An owner's key used to stop at 16 levels (the
/// rows of 18 levels lost `e1_k1`), and the search for what identifies
/// the rows took three times longer per level (nine levels: 2.5 s).
#[test]
fn a_deep_chain_of_owned_entities_keeps_every_owners_key() {
    for n in [1, 9, 18, 40] {
        let m = derive(&owned_chain(n));
        assert!(m.problems.is_empty(), "{n}: {:?}", m.problems);
        let mut want = vec!["K partner_pid".to_string()];
        want.extend((1..n).map(|i| format!("C↑ e{i}_k{i}")));
        want.push(format!("C↑ k{n}"));
        assert_eq!(key(&m.tables[0]), want, "{n} levels");
    }
}

/// Rows of `E4` by `E2.id` (through `E0` 1:1 `E1` m:n `E2`), returning the
/// id of `G{levels}`, `levels` 1:n steps below `E0`, which `E4` is 1:1
/// with: each `G` row fixes its chain of parents up to `E0`, hence `E4`.
fn to_one_chain(levels: usize) -> Project {
    let mut entities: Vec<String> = ["E0", "E1", "E2", "E4"]
        .iter()
        .map(ToString::to_string)
        .chain((1..=levels).map(|i| format!("G{i}")))
        .map(|n| {
            format!(
                r#"Entity(name: "{n}", key: ["id"], attributes: [Attribute(name: "id", type: "uuid")])"#
            )
        })
        .collect();
    entities.sort();
    let mut relationships = vec![
        r#"Relationship(name: "r1", from: "E0", to: "E1", cardinality: OneToOne)"#.to_string(),
        r#"Relationship(name: "r2", from: "E1", to: "E2", cardinality: ManyToMany)"#.to_string(),
        r#"Relationship(name: "r4", from: "E0", to: "E4", cardinality: OneToOne)"#.to_string(),
    ];
    for i in 1..=levels {
        let from = if i == 1 {
            "E0".to_string()
        } else {
            format!("G{}", i - 1)
        };
        relationships.push(format!(
            r#"Relationship(name: "g{i}", from: "{from}", to: "G{i}", cardinality: OneToMany)"#
        ));
    }
    let via: Vec<String> = std::iter::once("r4".to_string())
        .chain((1..=levels).map(|i| format!("g{i}")))
        .collect();
    generated(
        &entities,
        &relationships,
        &format!(
            r#"Query(id: "Q1", text: "E4 rows by E2 with the deepest G", rows: "E4",
            equality: ["E2.id"], returns: ["G{levels}.id via {}"])"#,
            via.join(", ")
        ),
    )
}

/// The deepest `G` identifies the rows however long the chain of to-one
/// steps back to `E4`: no other key column is needed. The search used to
/// stop after eight nested questions, so from five levels on it added a
/// redundant column (`E4`'s id at five, `g1_id` at six).
#[test]
fn a_long_chain_of_to_one_steps_identifies_the_rows() {
    for levels in [1, 5, 6, 12, 30] {
        let m = derive(&to_one_chain(levels));
        assert!(m.problems.is_empty(), "{levels}: {:?}", m.problems);
        assert_eq!(
            key(&m.tables[0]),
            ["K e2_id".to_string(), format!("C↑ g{levels}_id")],
            "{levels} levels"
        );
    }
}

/// Rows of `R` by `r_num`, each with its `P`s' `p_own`. `R` is identified
/// by its key or by (its `Q`'s code, `r_num`); a `P` by its key or by
/// (its `Q`'s code, `p_own`). Before `r_id` is added nothing tells the
/// `Q`; once it is, the `Q` is the row's parent, so `p_own` identifies each
/// `P` and `P`'s key (which the table does not hold) is not needed. An
/// answer kept from before `r_id` was added ("which `Q`: unknown") would
/// append `P`'s key instead.
#[test]
fn what_the_key_identifies_is_asked_again_once_it_grows() {
    let text = r#"Project(format: 1, name: "grow", keyspace: Keyspace(name: "g", replication: Simple(1)),
  entities: [
    Entity(name: "Q", key: ["q_id"], attributes: [
        Attribute(name: "q_id", type: "uuid"), Attribute(name: "q_code", type: "text")]),
    Entity(name: "R", key: ["r_id"], unique: [["Q.q_code", "r_num"]], attributes: [
        Attribute(name: "r_id", type: "uuid"), Attribute(name: "r_num", type: "int")]),
    Entity(name: "P", key: ["p_a", "p_b"], unique: [["Q.q_code", "p_own"]], attributes: [
        Attribute(name: "p_a", type: "int"), Attribute(name: "p_b", type: "int"),
        Attribute(name: "p_own", type: "text")]),
  ],
  relationships: [
    Relationship(name: "q_r", from: "Q", to: "R", cardinality: OneToMany),
    Relationship(name: "r_p", from: "R", to: "P", cardinality: OneToMany),
  ],
  queries: [Query(id: "Q1", text: "rows of a number with their P", rows: "R",
      equality: ["r_num"], returns: ["P.p_own"])],
)"#;
    let p = match load::from_str(text) {
        Ok(p) => p,
        Err(e) => panic!("test project invalid: {e}"),
    };
    let m = derive(&p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    assert_eq!(key(&m.tables[0]), ["K r_num", "C↑ r_id", "C↑ p_own"]);
}
