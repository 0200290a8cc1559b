//! The README's example project must stay a valid project: newcomers copy it.

#[test]
fn readme_example_loads_derives_and_checks_clean() {
    let readme = include_str!("../README.md");
    let start = readme.find("```ron\n").expect("a ron block") + "```ron\n".len();
    let end = start + readme[start..].find("```").expect("closed block");
    let project = match cqlmodel::model::load::from_str(&readme[start..end]) {
        Ok(p) => p,
        Err(e) => panic!("README example: {e}"),
    };
    let a = cqlmodel::analysis::analyze(&project);
    assert_eq!(a.model.tables.len(), 2);
    assert!(a.model.plans.iter().all(|p| p.access.is_direct()));
    let errors: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == cqlmodel::diagnose::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn readme_opens_with_the_two_setup_commands() {
    let readme = include_str!("../README.md");
    let block: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("```sh"))
        .skip(1)
        .take(2)
        .collect();
    assert!(
        block[0].starts_with("cargo run --release -- sample-projects/hotel.cqlm.ron"),
        "{block:?}"
    );
    assert!(block[1].starts_with("cargo test"), "{block:?}");
    assert!(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/hotel.cqlm.ron"
    ))
    .exists());
}
