//! `cqlmodel cost` and `cqlmodel loadtest`, run as a real process.

use crate::support::run;

#[test]
fn cost_prints_queries_tables_the_design_and_what_it_assumed() {
    let (code, out, err) = run(&["cost", "sample-projects/devices.cqlm.ron"]);
    assert_eq!(code, 0, "{err}");
    // Two data centres of RF 3, three nodes each assumed.
    assert!(
        out.contains("dc1 (RF 3, 3 nodes), dc2 (RF 3, 3 nodes); 6 nodes, RF 6"),
        "{out}"
    );
    // Q1 asks each of a date's 100 shards: 2,400,000 rows (the sample's
    // own figure for a date).
    assert!(
        out.lines().any(|l| l.contains("Q1")
            && l.contains("100 partition(s), 2,400,000 rows")
            && l.contains("LOCAL_QUORUM")),
        "{out}"
    );
    assert!(out.contains("nodes needed:"), "{out}");
    assert!(out.contains("workload-weighted total:"), "{out}");
    assert!(out.contains("assumed (state these"), "{out}");
    assert!(
        out.contains("dc1: 3 nodes (no cluster.nodes_per_dc stated)"),
        "{out}"
    );
}

#[test]
fn cost_as_json_carries_every_figure_and_its_basis() {
    let (code, out, err) = run(&[
        "cost",
        "--format",
        "json",
        "sample-projects/devices.cqlm.ron",
    ]);
    assert_eq!(code, 0, "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let q1 = &v["queries"][0];
    assert_eq!(q1["query"], "Q1");
    assert_eq!(q1["replicas"], 2);
    assert_eq!(q1["partitions"], 100.0);
    // 1 request/s assumed × 100 partitions × 2 replicas over 6 nodes.
    let per_node = q1["reads_per_node"].as_f64().expect("a number");
    assert!((per_node - 100.0 * 2.0 / 6.0).abs() < 1e-9, "{per_node}");
    assert!(q1["basis"]["assumed"]
        .as_array()
        .is_some_and(|a| !a.is_empty()));
    assert_eq!(v["design"]["nodes_now"], 6);
    assert_eq!(v["tables"].as_array().map(Vec::len), Some(4));
}

#[test]
fn loadtest_writes_a_stress_profile_per_table_and_a_script_into_a_directory() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let out = dir.path().join("stress");
    let out_s = out.to_string_lossy().into_owned();
    let (code, _, err) = run(&[
        "loadtest",
        "--format",
        "cassandra-stress",
        "-o",
        &out_s,
        "sample-projects/devices.cqlm.ron",
    ]);
    assert_eq!(code, 0, "{err}");
    let script = std::fs::read_to_string(out.join("stress.sh")).expect("the script");
    // Q1 reads events_by_date at 1 request/s (assumed) against 27.8 writes/s.
    assert!(
        script.contains("profile=events_by_date.yaml 'ops(insert=28,q1=1)'"),
        "{script}"
    );
    let profile = std::fs::read_to_string(out.join("events_by_date.yaml")).expect("a profile");
    // 9,000 partitions (90 days × 100 shards), 24,000 rows each.
    assert!(
        profile.contains("population: \"uniform(1..9000)\""),
        "{profile}"
    );
    assert!(profile.contains("cluster: \"fixed(24000)\""), "{profile}");
}

#[test]
fn loadtest_as_nosqlbench_prints_one_workload() {
    let (code, out, err) = run(&[
        "loadtest",
        "--format",
        "nosqlbench",
        "sample-projects/devices.cqlm.ron",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("scenarios:\n  default:\n    schema:"), "{out}");
    assert!(out.contains("rampup_events_by_date:"), "{out}");
    assert!(out.contains("cl: \"LOCAL_QUORUM\""), "{out}");
}

/// The reports end with the cost figures when the project states its
/// workload, and stay as they were when it states none.
#[test]
fn reports_show_the_cost_when_the_workload_is_stated() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let sample = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("sample-projects/devices.cqlm.ron"),
    )
    .expect("the sample");
    let (_, md, _) = run(&[
        "report",
        "--format",
        "md",
        "sample-projects/devices.cqlm.ron",
    ]);
    assert!(!md.contains("## Cost"), "no workload stated");
    // The sample's file ends with `)`: a cluster goes before it.
    let end = sample
        .rfind(')')
        .expect("the project's closing parenthesis");
    let with_cluster = format!(
        "{}    cluster: Cluster(nodes_per_dc: Some(4)),\n)\n",
        &sample[..end]
    );
    let file = dir.path().join("devices.cqlm.ron");
    std::fs::write(&file, with_cluster).expect("write");
    let f = file.to_string_lossy().into_owned();
    let (code, md, err) = run(&["report", "--format", "md", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(md.contains("## Cost"), "{md}");
    // Two data centres of 4 nodes each, now stated.
    assert!(
        md.contains("dc1 (RF 3, 4 nodes), dc2 (RF 3, 4 nodes); 8 nodes"),
        "{md}"
    );
    let (code, html, err) = run(&["report", "--format", "html", &f]);
    assert_eq!(code, 0, "{err}");
    assert!(
        html.contains("<section id=\"cost\"><h2>8. Cost</h2>"),
        "{html}"
    );
    assert!(
        html.trim_end().ends_with("</html>"),
        "the cost section is inside the document"
    );
}
