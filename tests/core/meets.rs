//! Issue 39, derivation rule 6: two reference paths that meet at one
//! instance. "Emails in a user's folder, with whether that user read each
//! one": the read flag lives on `user_has_email`, whose user is the
//! folder's owner. Without `meets` each path resolves on its own and MR5
//! appends `user_has_email_username`; with it the key is
//! `((username, label), id DESC)` and `is_read` a regular column.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::derive::{derive, Role};
use cqlmodel::model::{load, Dir, Meet, Project};

const PROJECT: &str = r#"
Project(
    format: 1,
    name: "Mail",
    keyspace: Keyspace(name: "mail", replication: Simple(1)),
    entities: [
        Entity(
            name: "User",
            key: ["username"],
            attributes: [
                Attribute(name: "username", type: "text"),
            ],
        ),
        Entity(
            name: "Folder",
            owner: Some("owns"),
            key: ["label"],
            attributes: [
                Attribute(name: "label", type: "text"),
            ],
        ),
        Entity(
            name: "Email",
            key: ["id"],
            attributes: [
                Attribute(name: "id", type: "timeuuid"),
                Attribute(name: "subject", type: "text"),
            ],
        ),
    ],
    relationships: [
        Relationship(name: "owns", from: "User", to: "Folder", cardinality: OneToMany),
        Relationship(name: "folder_has_email", from: "Folder", to: "Email", cardinality: ManyToMany),
        Relationship(
            name: "user_has_email",
            from: "User",
            to: "Email",
            cardinality: ManyToMany,
            attributes: [
                Attribute(name: "is_read", type: "boolean", mutable: true),
            ],
        ),
    ],
    queries: [
        Query(
            id: "Q1",
            text: "Emails in a user's folder, with whether that user read each one",
            rows: "Email",
            equality: ["User.username via folder_has_email, owns", "Folder.label"],
            order: [Order(attr: "id", dir: Desc)],
            returns: ["id", "subject", "user_has_email.is_read"],
        ),
    ],
)
"#;

fn project(meets: Vec<Meet>) -> Project {
    let mut p = load::from_str(PROJECT).unwrap_or_else(|e| panic!("{e}"));
    p.queries[0].meets = meets;
    p
}

fn meet() -> Meet {
    Meet(
        "User via folder_has_email, owns".into(),
        "User via user_has_email".into(),
    )
}

/// (partition key, clustering columns, regular columns) of the only table.
fn shape(p: &Project) -> (Vec<String>, Vec<String>, Vec<String>) {
    let m = derive(p);
    assert!(m.problems.is_empty(), "{:?}", m.problems);
    assert_eq!(m.tables.len(), 1, "one query, one table");
    let t = &m.tables[0];
    let names = |f: &dyn Fn(Role) -> bool| -> Vec<String> {
        t.columns
            .iter()
            .filter(|c| f(c.role))
            .map(|c| c.name.to_string())
            .collect()
    };
    (
        names(&|r| r == Role::Partition),
        names(&|r| matches!(r, Role::Clustering(_))),
        names(&|r| !r.is_key()),
    )
}

#[test]
fn without_a_meet_mr5_appends_the_read_flags_user() {
    let p = project(vec![]);
    assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
    let (pk, ck, _) = shape(&p);
    assert_eq!(pk, ["user_username", "folder_label"]);
    // Hand-derived: id orders the rows; the user_has_email step is not
    // identified by the folder's owner, so its user is appended.
    assert_eq!(ck, ["id", "user_has_email_username"]);
}

#[test]
fn a_meet_keys_the_table_by_user_folder_and_email() {
    let p = project(vec![meet()]);
    assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
    let (pk, ck, regular) = shape(&p);
    assert_eq!(pk, ["user_username", "folder_label"]);
    assert_eq!(ck, ["id"]);
    let m = derive(&p);
    let id = m.tables[0].columns.iter().find(|c| c.name.as_str() == "id");
    assert_eq!(id.map(|c| c.role), Some(Role::Clustering(Dir::Desc)));
    // The read flag's column says why it adds no key column.
    let flag = m.tables[0]
        .columns
        .iter()
        .find(|c| c.name.as_str() == "user_has_email_is_read")
        .map(cqlmodel::derive::Column::reason);
    assert_eq!(
        flag.as_deref(),
        Some(
            "returned attribute: meets: `User via user_has_email` is \
             `User via folder_has_email, owns`, which the key identifies"
        )
    );
    assert!(
        regular.iter().any(|c| c == "user_has_email_is_read"),
        "{regular:?}"
    );
}

/// (path, message) of each problem `load::validate` finds.
fn problems(p: &Project) -> Vec<(String, String)> {
    load::validate(p)
        .into_iter()
        .map(|x| (x.path, x.message))
        .collect()
}

#[test]
fn a_meet_whose_sides_do_not_resolve_names_the_side() {
    let p = project(vec![Meet(
        "User via folder_has_email, owns".into(),
        "User via user_has_mail".into(),
    )]);
    let found = problems(&p);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "queries[0].meets[0].1");
    // The resolver's own message, with its suggestion of a near name.
    assert!(found[0].1.contains("user_has_email"), "{found:?}");

    let p = project(vec![Meet(
        "Usr via folder_has_email, owns".into(),
        "User via user_has_email".into(),
    )]);
    let found = problems(&p);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "queries[0].meets[0].0");
}

#[test]
fn a_meet_needs_two_paths_to_one_entity() {
    let same = project(vec![Meet(
        "User via user_has_email".into(),
        "User.username via user_has_email".into(),
    )]);
    let found = problems(&same);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].1.contains("same path"), "{found:?}");

    let apart = project(vec![Meet(
        "Folder via folder_has_email".into(),
        "User via user_has_email".into(),
    )]);
    let found = problems(&apart);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "queries[0].meets[0].1");
    assert!(
        found[0].1.contains("Folder") && found[0].1.contains("User"),
        "{found:?}"
    );
}

#[test]
fn meets_survive_a_save_and_load_and_old_files_write_none() {
    let p = project(vec![meet()]);
    let text = load::to_string(&p);
    assert!(
        text.contains(r#"Meet("User via folder_has_email, owns", "User via user_has_email")"#),
        "{text}"
    );
    let back = load::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(back.queries[0].meets, [meet()]);
    let plain = load::to_string(&project(vec![]));
    assert!(!plain.contains("meets"), "{plain}");
}

#[test]
fn the_met_table_and_its_select_pass_cqlcheck() {
    let p = project(vec![meet()]);
    let m = derive(&p);
    let selects = cqlmodel::output::cql::selects(&m);
    // The SELECT binds the user and the folder, and reads newest first.
    assert!(
        selects.contains("WHERE user_username = ? AND folder_label = ?"),
        "{selects}"
    );
    let Some(tool) = crate::support::cqlcheck() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("mail.cql");
    let text = format!(
        "{}\n{}",
        cqlmodel::output::cql::script(&p, &m),
        selects.replace('?', "'x'")
    );
    std::fs::write(&file, &text).expect("write");
    if let Err(said) = crate::support::cqlcheck_file(&tool, &file) {
        panic!("cqlcheck refused the met table\n{said}\n{text}");
    }
}

#[test]
fn the_oracle_finds_no_collision_where_the_meet_holds() {
    use crate::oracle::instances::{check_unique, World};
    let p = project(vec![meet()]);
    let m = derive(&p);
    let plain = project(vec![]);
    let mut collided = false;
    let mut caught = false;
    for seed in 0..40 {
        let world = World::generate(&p, seed, 4, 3);
        if let Err(e) = check_unique(&p, &m, &world) {
            panic!("seed {seed}: {e}");
        }
        // Every user_has_email link written, met or not: the same key
        // then holds the flags of several users, which the meet rules out.
        let rows = world.rows(&p, &m.tables[0]);
        let met = world.rows_meeting(
            &p,
            &m.tables[0],
            &cqlmodel::model::resolve::Graph::new(&p).meet_paths(
                cqlmodel::model::resolve::Graph::new(&p)
                    .node("Email")
                    .unwrap_or_else(|| panic!("Email")),
                &p.queries[0].meets,
            ),
        );
        assert!(met.len() <= rows.len());
        collided |= met.len() < rows.len();
        // The same key where no meet is stated: the oracle sees two users'
        // flags under one key.
        caught |= check_unique(&plain, &m, &world).is_err();
    }
    assert!(collided, "no world had a link the meet rules out");
    assert!(
        caught,
        "without the meet the key must collide in some world"
    );
}

#[test]
fn renaming_an_entity_carries_its_meets_along() {
    let mut p = project(vec![
        meet(),
        Meet(
            "User.username via folder_has_email, owns".into(),
            "User.username via user_has_email".into(),
        ),
    ]);
    let user = p
        .entities
        .iter()
        .position(|e| e.name == "User")
        .unwrap_or_else(|| panic!("User"));
    cqlmodel::edit::cascade::rename_entity(&mut p, user, "Member")
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(
        p.queries[0].meets,
        [
            Meet(
                "Member via folder_has_email, owns".into(),
                "Member via user_has_email".into()
            ),
            Meet(
                "Member.username via folder_has_email, owns".into(),
                "Member.username via user_has_email".into()
            ),
        ]
    );
    assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
}

#[test]
fn the_review_counts_on_the_meet_too() {
    // A natural text id: the review's overwrite check is not silenced by a
    // surrogate key, so it asks MR5's question itself.
    let text = PROJECT.replace(
        r#"Attribute(name: "id", type: "timeuuid")"#,
        r#"Attribute(name: "id", type: "text")"#,
    );
    let rules = |meets: Vec<Meet>| -> Vec<&'static str> {
        let mut p = load::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
        p.queries[0].meets = meets;
        let m = derive(&p);
        let est = cqlmodel::derive::estimate::estimate(&p, &m);
        cqlmodel::review::diagnose::diagnose(&p, &m, &est)
            .iter()
            .map(|d| d.rule)
            .collect()
    };
    assert!(!rules(vec![meet()]).contains(&"rows-overwrite"));
    // The met table judged by a project that states no meet overwrites.
    let mut met = load::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    met.queries[0].meets = vec![meet()];
    let m = derive(&met);
    let plain = load::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    let est = cqlmodel::derive::estimate::estimate(&plain, &m);
    let found: Vec<&str> = cqlmodel::review::diagnose::diagnose(&plain, &m, &est)
        .iter()
        .map(|d| d.rule)
        .collect();
    assert!(found.contains(&"rows-overwrite"), "{found:?}");
}

/// A meeting query's rows are those where its paths meet, a subset of the
/// rows a query without the meeting reads: the two never share a table,
/// either way round.
#[test]
fn a_meeting_query_keeps_its_own_table() {
    let mut p = project(vec![meet()]);
    let mut other = (*p.queries[0]).clone();
    other.id = "Q2".into();
    other.meets.clear();
    other.returns.retain(|r| !r.contains("is_read"));
    p.queries.push(cqlmodel::model::Shared::new(other));
    assert!(load::validate(&p).is_empty(), "{:?}", load::validate(&p));
    let m = derive(&p);
    assert_eq!(m.tables.len(), 2, "{:?}", m.tables);
    let of = |q: &str| m.table_of(q).map(|t| t.name.to_string());
    assert_ne!(of("Q1"), of("Q2"));
    // The same two queries without the meeting share one table.
    let mut plain = p.clone();
    let mut q1 = (*plain.queries[0]).clone();
    q1.meets.clear();
    plain.queries[0] = cqlmodel::model::Shared::new(q1);
    let m = derive(&plain);
    assert_eq!(
        m.table_of("Q1").map(|t| &t.name),
        m.table_of("Q2").map(|t| &t.name)
    );
}

/// A meet whose first side extends its second (the user of an email is
/// the user of another email of that user) says nothing new, but naming
/// one side by the other then never ends: each substitution starts with
/// the second side again. The search stops, and the key is the one
/// without the meet.
#[test]
fn a_meet_whose_side_extends_the_other_ends() {
    let looping = project(vec![Meet(
        "User via user_has_email, user_has_email, user_has_email".into(),
        "User via user_has_email".into(),
    )]);
    assert_eq!(shape(&looping), shape(&project(vec![])));
}

/// The meet settles the read flag's user, nothing else: the email's
/// attachments still multiply the rows, so each needs its own key column.
/// (Naming every path by the meet's first side would have answered every
/// node as the email, identified by `id`.)
#[test]
fn a_meet_leaves_other_many_steps_to_be_keyed() {
    let text = PROJECT
        .replace(
            r#"        Entity(
            name: "Email","#,
            r#"        Entity(
            name: "Attachment",
            key: ["att_id"],
            attributes: [
                Attribute(name: "att_id", type: "uuid"),
                Attribute(name: "filename", type: "text"),
            ],
        ),
        Entity(
            name: "Email","#,
        )
        .replace(
            r#"        Relationship(
            name: "user_has_email","#,
            r#"        Relationship(name: "attaches", from: "Email", to: "Attachment", cardinality: OneToMany),
        Relationship(
            name: "user_has_email","#,
        )
        .replace(
            r#"returns: ["id", "subject", "user_has_email.is_read"]"#,
            r#"returns: ["id", "subject", "user_has_email.is_read", "Attachment.filename"]"#,
        );
    let mut p = load::from_str(&text).unwrap_or_else(|e| panic!("{e}"));
    p.queries[0].meets = vec![meet()];
    let (pk, ck, regular) = shape(&p);
    assert_eq!(pk, ["user_username", "folder_label"]);
    assert_eq!(ck, ["id", "attachment_att_id"]);
    assert!(
        regular.iter().any(|c| c == "user_has_email_is_read"),
        "{regular:?}"
    );
}
