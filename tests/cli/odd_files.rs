//! Files that are not what they seem: devices and FIFOs are neither read
//! (they may never end) nor replaced by a save; a byte-order mark is text;
//! bytes that are not UTF-8 are reported by line and column; a revision is
//! never an option to git; an import that reads nothing fails.
// Tests: a test's helpers fail it by panicking.
#![allow(clippy::panic)]

use crate::support::run_cqlmodel as run;
use std::path::Path;
use std::process::Command;

fn hotel() -> String {
    std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/hotel.cqlm.ron"),
    )
    .expect("sample")
}

fn fifo(dir: &Path, name: &str) -> std::path::PathBuf {
    let path = dir.join(name);
    let ok = Command::new("mkfifo")
        .arg(&path)
        .status()
        .is_ok_and(|s| s.success());
    assert!(ok, "mkfifo is part of coreutils");
    path
}

#[test]
fn devices_and_fifos_are_refused_as_input() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pipe = fifo(dir.path(), "pipe.cqlm.ron");
    let pipe = pipe.to_str().expect("utf-8 path");
    for args in [
        vec!["check", "/dev/zero"],
        vec!["check", pipe],
        vec!["import", "/dev/zero"],
        vec!["cql", pipe],
        vec!["diff", pipe, "/dev/zero"],
    ] {
        let started = std::time::Instant::now();
        let out = run(&args, dir.path());
        assert!(!out.status.success(), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("not a regular file"), "{args:?}: {err}");
        assert!(
            started.elapsed().as_secs() < 10,
            "{args:?} returned at once"
        );
    }
}

#[test]
fn a_save_never_replaces_a_device_or_fifo() {
    let dir = tempfile::tempdir().expect("tempdir");
    let pipe = fifo(dir.path(), "out.cqlm.ron");
    let schema = dir.path().join("s.cql");
    std::fs::write(
        &schema,
        "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\nCREATE TABLE k.t (id int PRIMARY KEY);\n",
    )
    .expect("write");
    let out = run(
        &[
            "import",
            "s.cql",
            "-o",
            pipe.to_str().expect("utf-8"),
            "--force",
        ],
        dir.path(),
    );
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("not a regular file"),
        "{out:?}"
    );
    let kind = std::fs::symlink_metadata(&pipe)
        .expect("still there")
        .file_type();
    assert!(
        std::os::unix::fs::FileTypeExt::is_fifo(&kind),
        "the FIFO is still a FIFO"
    );
}

#[test]
fn a_byte_order_mark_is_text_and_bad_bytes_have_a_place() {
    let dir = tempfile::tempdir().expect("tempdir");
    let bom = dir.path().join("bom.cqlm.ron");
    std::fs::write(&bom, format!("\u{feff}{}", hotel())).expect("write");
    let out = run(&["check", "bom.cqlm.ron"], dir.path());
    assert_eq!(out.status.code(), Some(0), "{out:?}");

    let mut bytes = b"Project(\n    format: 1,\n    name: \"x".to_vec();
    bytes.extend([0xff, 0xfe]);
    bytes.extend(b"\",\n)\n");
    std::fs::write(dir.path().join("bad.cqlm.ron"), bytes).expect("write");
    let out = run(&["check", "bad.cqlm.ron"], dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("line 3, column 13"), "{err}");
    assert_eq!(
        err.matches("bad.cqlm.ron").count(),
        1,
        "the path once: {err}"
    );
}

#[test]
fn a_git_revision_is_never_an_option() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("m.cqlm.ron"), hotel()).expect("write");
    let out = run(
        &["diff", "--git=--output=written.txt", "m.cqlm.ron"],
        dir.path(),
    );
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("cannot start with '-'"),
        "{out:?}"
    );
    assert!(!dir.path().join("written.txt").exists());
}

#[test]
fn an_import_that_reads_nothing_fails_and_one_that_skips_says_so() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("open.cql"),
        "CREATE KEYSPACE k WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\n/* never closed",
    )
    .expect("write");
    let out = run(&["import", "open.cql", "-o", "p.cqlm.ron"], dir.path());
    assert!(!out.status.success(), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("2:1") && err.contains("nothing imported"),
        "{err}"
    );
    assert!(!dir.path().join("p.cqlm.ron").exists());

    std::fs::write(
        dir.path().join("some.cql"),
        "CREATE TABLE t (id int PRIMARY KEY, v text);\nALTER TABLE t DROP id;\n",
    )
    .expect("write");
    let out = run(&["import", "some.cql", "-o", "q.cqlm.ron"], dir.path());
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("1 statement(s) skipped"), "{err}");
    assert!(err.contains("creates no keyspace"), "{err}");
    assert!(
        dir.path().join("q.cqlm.ron").exists(),
        "what was read is kept"
    );
}

/// `cql` of a schema Cassandra would refuse writes it (to read and fix)
/// but says why on stderr and exits 1.
#[test]
fn cql_of_a_refused_schema_fails() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("bad.cqlm.ron"),
        r#"Project(
    format: 1,
    name: "bad",
    keyspace: Keyspace(name: "bad", replication: Simple(1)),
    entities: [Entity(name: "Job", key: ["took"], attributes: [Attribute(name: "took", type: "duration")])],
    queries: [Query(id: "Q1", text: "a job", rows: "Job", equality: ["took"], returns: ["took"])],
    workflow: Workflow(entry: ["Q1"]),
)"#,
    )
    .expect("write");
    let out = run(&["cql", "bad.cqlm.ron"], dir.path());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("error[duration-key]"), "{err}");
    assert!(String::from_utf8_lossy(&out.stdout).contains("CREATE TABLE"));
    let hotel = Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/hotel.cqlm.ron");
    let out = run(&["cql", hotel.to_str().expect("utf-8")], dir.path());
    assert_eq!(out.status.code(), Some(0));
}
