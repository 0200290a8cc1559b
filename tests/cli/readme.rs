//! The documentation must stay true: the README opens with the two set-up
//! commands, the workbench page's key table and marks are the binding table
//! and the legend, and the example project and configuration load (newcomers
//! copy them).

const README: &str = include_str!("../../README.md");
const WORKBENCH: &str = include_str!("../../docs/workbench.md");
const PROJECT_FORMAT: &str = include_str!("../../docs/project-format.md");

/// A section of a Markdown page: from its heading line to the next heading
/// of the same or a higher level (outside code blocks), or the page's end.
fn section(doc: &'static str, heading: &str) -> &'static str {
    let level = heading.chars().take_while(|&c| c == '#').count();
    let start = doc
        .match_indices(heading)
        .map(|(i, _)| i)
        .find(|&i| {
            (i == 0 || doc.as_bytes()[i - 1] == b'\n') && doc[i + heading.len()..].starts_with('\n')
        })
        .expect("the heading, on a line of its own");
    let mut offset = start + heading.len() + 1;
    let mut in_code = false;
    for line in doc[offset..].split_inclusive('\n') {
        if line.starts_with("```") {
            in_code = !in_code;
        } else if !in_code {
            let hashes = line.chars().take_while(|&c| c == '#').count();
            if hashes > 0 && hashes <= level && line[hashes..].starts_with(' ') {
                return &doc[start..offset];
            }
        }
        offset += line.len();
    }
    &doc[start..]
}

/// The first RON block of a text.
fn ron_block(text: &'static str) -> &'static str {
    let start = text.find("```ron\n").expect("a ron block") + "```ron\n".len();
    let end = start + text[start..].find("```").expect("closed block");
    &text[start..end]
}

#[test]
fn config_example_loads_without_problems_and_names_every_colour_role() {
    let section = section(WORKBENCH, "## Configuration");
    let config: cqlmodel::tui::config::Config = match ron::from_str(ron_block(section)) {
        Ok(c) => c,
        Err(e) => panic!("docs/workbench.md config example: {e}"),
    };
    let (_, key_errors) = cqlmodel::tui::keymap::Keymap::with_overrides(&config.keys);
    let (_, colour_errors) = cqlmodel::tui::theme::Theme::with_overrides(&config.colors);
    assert!(key_errors.is_empty(), "{key_errors:?}");
    assert!(colour_errors.is_empty(), "{colour_errors:?}");
    for (role, _) in cqlmodel::tui::theme::ROLES {
        assert!(
            section.contains(&format!("`{role}`")),
            "docs/workbench.md (Configuration) misses colour role {role}"
        );
    }
}

#[test]
fn project_format_example_loads_derives_and_checks_clean() {
    let project = match cqlmodel::model::load::from_str(ron_block(section(
        PROJECT_FORMAT,
        "# Project file format",
    ))) {
        Ok(p) => p,
        Err(e) => panic!("docs/project-format.md example: {e}"),
    };
    let a = cqlmodel::analysis::analyze(&project);
    assert_eq!(a.model.tables.len(), 2);
    assert!(a.model.plans.iter().all(|p| p.access.is_direct()));
    let errors: Vec<_> = a
        .diagnostics
        .iter()
        .filter(|d| d.severity == cqlmodel::review::diagnose::Severity::Error)
        .collect();
    assert!(errors.is_empty(), "{errors:?}");
}

#[test]
fn readme_opens_with_the_two_setup_commands() {
    // The first code block of the README is the sh block of the two commands.
    let first_block = README
        .lines()
        .find(|l| l.starts_with("```"))
        .expect("a code block");
    assert_eq!(first_block, "```sh");
    let block: Vec<&str> = README
        .lines()
        .skip_while(|l| !l.starts_with("```sh"))
        .skip(1)
        .take_while(|l| !l.starts_with("```"))
        .collect();
    assert_eq!(block.len(), 2, "{block:?}");
    assert!(
        block[0].starts_with("cargo run --release -- sample-projects/hotel.cqlm.ron"),
        "{block:?}"
    );
    assert!(block[1].starts_with("bash .ci/run"), "{block:?}");
    assert!(std::path::Path::new(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/sample-projects/hotel.cqlm.ron"
    ))
    .exists());
    assert!(std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.ci/run")).exists());
}

#[test]
fn workbench_key_table_is_the_binding_table() {
    let table = cqlmodel::tui::keymap::Keymap::default().markdown_table();
    assert!(
        WORKBENCH.contains(&table),
        "the key table of docs/workbench.md differs from the binding table; it should read:\n{table}"
    );
}

#[test]
fn workbench_explains_every_mark_of_the_legend() {
    for (mark, _) in cqlmodel::tui::popup::confirm::LEGEND {
        assert!(
            WORKBENCH.contains(&format!("`{mark}`")),
            "docs/workbench.md misses {mark}"
        );
    }
}
