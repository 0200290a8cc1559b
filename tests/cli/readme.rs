//! The README's example project must stay a valid project: newcomers copy it.

/// The first RON block after a heading.
fn ron_block_after(heading: &str) -> &'static str {
    let readme = include_str!("../../README.md");
    let from = readme.find(heading).expect("the heading");
    let start = from + readme[from..].find("```ron\n").expect("a ron block") + "```ron\n".len();
    let end = start + readme[start..].find("```").expect("closed block");
    &readme[start..end]
}

#[test]
fn readme_config_example_loads_without_problems_and_names_every_colour_role() {
    let text = ron_block_after("### Configuration");
    let config: cqlmodel::tui::config::Config = match ron::from_str(text) {
        Ok(c) => c,
        Err(e) => panic!("README config example: {e}"),
    };
    let (_, key_errors) = cqlmodel::tui::keymap::Keymap::with_overrides(&config.keys);
    let (_, colour_errors) = cqlmodel::tui::theme::Theme::with_overrides(&config.colors);
    assert!(key_errors.is_empty(), "{key_errors:?}");
    assert!(colour_errors.is_empty(), "{colour_errors:?}");
    let readme = include_str!("../../README.md");
    let from = readme.find("### Configuration").expect("the section");
    let section = &readme[from..from + readme[from..].find("\n## ").expect("next section")];
    for (role, _) in cqlmodel::tui::theme::ROLES {
        assert!(
            section.contains(&format!("`{role}`")),
            "README misses colour role {role}"
        );
    }
}

#[test]
fn readme_example_loads_derives_and_checks_clean() {
    let project = match cqlmodel::model::load::from_str(ron_block_after("## Project file format")) {
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
    let readme = include_str!("../../README.md");
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

/// The Workbench section of the README.
fn workbench_section() -> &'static str {
    let readme = include_str!("../../README.md");
    let from = readme.find("## Workbench").expect("the section");
    &readme[from..from + readme[from + 3..].find("\n## ").expect("next section") + 3]
}

#[test]
fn readme_key_table_is_the_binding_table() {
    let table = cqlmodel::tui::keymap::Keymap::default().markdown_table();
    assert!(
        workbench_section().contains(&table),
        "the README's key table (Workbench section) differs from the binding table; it should read:\n{table}"
    );
}

#[test]
fn readme_explains_every_mark_of_the_legend() {
    let section = workbench_section();
    for (mark, _) in cqlmodel::tui::popup::confirm::LEGEND {
        assert!(
            section.contains(&format!("`{mark}`")),
            "README misses {mark}"
        );
    }
}
