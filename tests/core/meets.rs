//! Two reference paths that meet at one instance (issue 39, rule 6):
//! "emails in a user's folder, with whether that user read each one". The
//! read flag lives on `has_email`, whose user must be the folder's owner;
//! each path resolves on its own, so without `meets` MR5 appends the
//! second path's user to the key.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use cqlmodel::analysis::analyze;
use cqlmodel::derive::{Role, Table};
use cqlmodel::model::load::{from_str, LoadError};
use cqlmodel::model::Dir;

const MAIL: &str = r#"Project(format: 1, name: "Mail", keyspace: Keyspace(name: "m", replication: Simple(1)),
  entities: [
    Entity(name: "User", key: ["username"], attributes: [
      Attribute(name: "username", type: "text", size: Some(20)),
      Attribute(name: "nickname", type: "text", size: Some(20)),
    ], count: Some(1000)),
    Entity(name: "Folder", owner: Some("has_folders"), key: ["label"], attributes: [
      Attribute(name: "label", type: "text", size: Some(10)),
    ]),
    Entity(name: "Email", key: ["id"], attributes: [
      Attribute(name: "id", type: "timeuuid"),
      Attribute(name: "subject", type: "text", size: Some(40)),
    ], count: Some(100000)),
  ],
  relationships: [
    Relationship(name: "has_folders", from: "User", to: "Folder", cardinality: OneToMany,
      to_per_from: Some(Count(avg: 8, max: Some(20)))),
    Relationship(name: "contains", from: "Folder", to: "Email", cardinality: ManyToMany,
      to_per_from: Some(Count(avg: 100, max: Some(1000))), from_per_to: Some(Count(avg: 2, max: Some(10)))),
    Relationship(name: "has_email", from: "User", to: "Email", cardinality: ManyToMany,
      to_per_from: Some(Count(avg: 100, max: Some(1000))), from_per_to: Some(Count(avg: 2, max: Some(10))),
      attributes: [Attribute(name: "is_read", type: "boolean", mutable: true)]),
  ],
  queries: [
    Query(id: "Q1", text: "Emails in a user's folder, with whether that user read each one",
      rows: "contains", equality: ["Folder.username", "Folder.label"],
      order: [Order(attr: "Email.id", dir: Desc)],
      returns: ["Email.id", "Email.subject", "has_email.is_read"]MEETS),
  ],
)"#;

const MEETS: &str = r#",
      meets: [Meet("Folder.username", "User.username via has_email")]"#;

fn project(meets: &str) -> Result<cqlmodel::model::Project, LoadError> {
    from_str(&MAIL.replace("MEETS", meets))
}

/// (name, direction) of the key columns: partition (None) then clustering.
fn key(t: &Table) -> Vec<(String, Option<Dir>)> {
    t.columns
        .iter()
        .filter_map(|c| match c.role {
            Role::Partition => Some((c.name.to_string(), None)),
            Role::Clustering(d) => Some((c.name.to_string(), Some(d))),
            _ => None,
        })
        .collect()
}

#[test]
fn without_meets_the_second_users_key_is_appended() {
    let a = analyze(&project("").unwrap_or_else(|e| panic!("{e:?}")));
    let t = a.model.table_of("Q1").expect("a table");
    assert_eq!(
        key(t),
        vec![
            ("user_username".into(), None),
            ("folder_label".into(), None),
            ("email_id".into(), Some(Dir::Desc)),
            ("has_email_username".into(), Some(Dir::Asc)),
        ]
    );
}

#[test]
fn paths_that_meet_key_the_rows_by_the_folder_alone() {
    let p = project(MEETS).unwrap_or_else(|e| panic!("{e:?}"));
    let a = analyze(&p);
    let t = a.model.table_of("Q1").expect("a table");
    assert_eq!(
        key(t),
        vec![
            ("user_username".into(), None),
            ("folder_label".into(), None),
            ("email_id".into(), Some(Dir::Desc)),
        ]
    );
    // The flag is the folder owner's: one value a row.
    let flag = t.column("has_email_is_read").expect("the read flag");
    assert_eq!(flag.role, Role::Regular);
    // The review agrees the key identifies the rows.
    let rules: Vec<&str> = a.diagnostics.iter().map(|d| d.rule).collect();
    assert!(!rules.contains(&"rows-overwrite"), "{rules:?}");
    // Saved and loaded again, the meeting stays.
    let text = cqlmodel::model::load::to_string(&p);
    assert!(
        text.contains(r#"Meet("Folder.username", "User.username via has_email")"#),
        "{text}"
    );
    assert_eq!(from_str(&text).expect("loads"), p);
}

#[test]
fn a_meeting_query_keeps_its_own_table() {
    // The same search without the read flag would be served by the same
    // table shape; with the meeting its rows are a subset: two tables.
    let other = r#"),
    Query(id: "Q2", text: "Emails in a user's folder", rows: "contains",
      equality: ["Folder.username", "Folder.label"], order: [Order(attr: "Email.id", dir: Desc)],
      returns: ["Email.id", "Email.subject"]"#;
    let a = analyze(&project(&format!("{MEETS}{other}")).unwrap_or_else(|e| panic!("{e:?}")));
    let t1 = a.model.table_of("Q1").expect("Q1's table");
    let t2 = a.model.table_of("Q2").expect("Q2's table");
    assert_ne!(t1.name, t2.name);
}

fn problems(meets: &str) -> Vec<String> {
    match project(meets) {
        Err(LoadError::Invalid(p)) => p
            .iter()
            .map(|x| format!("{}: {}", x.path, x.message))
            .collect(),
        other => panic!("expected problems, got {other:?}"),
    }
}

#[test]
fn a_meeting_names_two_paths_to_one_key_attribute() {
    let p = problems(r#", meets: [Meet("Folder.username", "User.usrname via has_email")]"#);
    assert!(
        p.iter()
            .any(|x| x.starts_with("queries[0].meets[0].1: ") && x.contains("usrname")),
        "{p:?}"
    );
    let p = problems(r#", meets: [Meet("Folder.username", "Folder.label")]"#);
    assert!(p.iter().any(|x| x.starts_with("queries[0].meets[0].1: ") && x.contains("different attributes")), "{p:?}");
    let p = problems(r#", meets: [Meet("Folder.username", "Folder.username")]"#);
    assert!(p.iter().any(|x| x.contains("the same path")), "{p:?}");
    let p = problems(
        r#", meets: [Meet("User.nickname via has_folders", "User.nickname via has_email")]"#,
    );
    assert!(
        p.iter().any(|x| x.starts_with("queries[0].meets[0].0: ")
            && x.contains("not part of its entity's key")),
        "{p:?}"
    );
}

/// The schema passes cqlcheck.
#[test]
fn the_meeting_table_passes_cqlcheck() {
    let p = project(MEETS).unwrap_or_else(|e| panic!("{e:?}"));
    let a = analyze(&p);
    let Some(tool) = super::support::cqlcheck() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("mail.cql");
    let cql = cqlmodel::output::cql::script(&p, &a.model);
    std::fs::write(&file, &cql).expect("write");
    if let Err(said) = super::support::cqlcheck_file(&tool, &file) {
        panic!("cqlcheck refused\n{said}\n{cql}");
    }
}
