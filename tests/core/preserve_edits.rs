//! Format-preserving saves under random edits through the workbench's edit
//! layer: the saved text reads back as the edited model, is spliced (not
//! re-serialised), keeps every comment (no edit here deletes an item), and
//! undoing the edits gives back the original bytes.

use cqlmodel::edit::Item;
use cqlmodel::model::preserve::{patched, save_text};
use cqlmodel::model::resolve::NodeId;
use cqlmodel::model::{load, Dir, Target};
use cqlmodel::tui::action::{apply_edit, Edit};
use proptest::prelude::*;
use std::path::PathBuf;

fn samples() -> Vec<(String, String)> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("sample-projects");
    let mut out: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("samples")
        .filter_map(std::result::Result::ok)
        .map(|e| {
            let p = e.path();
            (
                p.display().to_string(),
                std::fs::read_to_string(&p).expect("readable"),
            )
        })
        .collect();
    out.sort();
    out
}

/// An edit chosen by numbers, made concrete against the project.
fn edit_of(p: &cqlmodel::model::Project, kind: u8, a: usize, b: usize) -> Option<Edit> {
    let ne = p.entities.len();
    let nq = p.queries.len();
    Some(match kind % 9 {
        0 => Edit::ToggleEntry(a % nq.max(1)),
        1 => Edit::Rename(Item::Entity(a % ne.max(1)), format!("Renamed{b}")),
        2 => Edit::AddAttribute(NodeId::Entity(a % ne.max(1)), format!("extra_{b} text")),
        3 => Edit::Move(Item::Entity(a % ne.max(1)), b.is_multiple_of(2)),
        4 => Edit::AddNote(
            Target::Query(p.queries.get(a % nq.max(1))?.id.clone()),
            format!("note {b}"),
        ),
        5 => Edit::PinName(
            p.queries.get(a % nq.max(1))?.id.clone(),
            format!("pinned_{b}"),
        ),
        6 => {
            let q = p.queries.get(a % nq.max(1))?;
            let order = q
                .order
                .iter()
                .map(|o| (o.attr.clone(), o.dir.flip()))
                .collect();
            Edit::SetOrder(a % nq.max(1), order)
        }
        7 => Edit::AddEntity(format!("Added{b}")),
        _ => Edit::Move(Item::Query(a % nq.max(1)), b % 2 == 1),
    })
}

fn comments(text: &str) -> Vec<&str> {
    text.lines()
        .map(str::trim)
        .filter(|l| l.starts_with("//"))
        .collect()
}

/// The same comments, in any order (moves carry them along).
fn same_comments(a: &str, b: &str) -> bool {
    let (mut x, mut y) = (comments(a), comments(b));
    x.sort_unstable();
    y.sort_unstable();
    x == y
}

/// `text` with a comment `// about #k` above every entity, relationship
/// and query.
fn with_item_comments(text: &str) -> String {
    let mut out = String::new();
    let mut k = 0;
    for line in text.lines() {
        let t = line.trim_start();
        if ["Entity(", "Relationship(", "Query("]
            .iter()
            .any(|s| t.starts_with(s))
        {
            let indent = &line[..line.len() - t.len()];
            out.push_str(indent);
            out.push_str("// about #");
            out.push_str(&k.to_string());
            out.push('\n');
            k += 1;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Each `// about #k` comment with the name (or query id) of the item
/// right after it.
fn described(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices("// about #") {
        let line_end = text[at..].find('\n').map_or(text.len(), |i| at + i);
        let comment = text[at..line_end].to_string();
        let rest = &text[line_end..];
        let name = ["name: \"", "id: \""]
            .iter()
            .filter_map(|k| rest.find(k).map(|i| i + k.len()))
            .min()
            .and_then(|i| rest[i..].split('"').next())
            .unwrap_or_default()
            .to_string();
        out.push((comment, name));
    }
    out.sort();
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]
    #[test]
    fn random_edits_save_spliced_and_keep_comments(
        sample in 0usize..6,
        edits in proptest::collection::vec((any::<u8>(), 0usize..64, 0usize..1000), 1..5),
    ) {
        let all = samples();
        let (name, original) = &all[sample % all.len()];
        let original = &with_item_comments(original);
        let before = load::from_str(original).expect("sample loads");
        let mut p = before.clone();
        // Whether an item was renamed or added: which lines are whose is
        // then a guess (a pairing by the fields items keep, tested on its
        // own in `model::preserve`), so only moves and edits in place are
        // held to keeping each comment above its item.
        let mut renamed_or_added = false;
        for (k, a, b) in edits {
            if let Some(e) = edit_of(&p, k, a, b) {
                let mut next = p.clone();
                if apply_edit(&mut next, &e).is_ok() && load::validate(&next).is_empty() {
                    renamed_or_added |= matches!(e, Edit::Rename(..) | Edit::AddEntity(_));
                    p = next;
                }
            }
        }
        // Only cases where some edit applied say anything.
        prop_assume!(p != before);
        let text = patched(original, &p);
        prop_assert!(text.is_some(), "{name}: the splice fell back to a rewrite");
        let text = text.unwrap_or_default();
        prop_assert_eq!(&load::from_str(&text).expect("reads back"), &p, "{}", name);
        prop_assert!(same_comments(original, &text), "{name}: a comment was lost\n{text}");
        // A comment above an item stays above it, wherever the item moved
        // (items renamed since are not followed).
        let now = described(&text);
        let exists = |n: &str| p.entities.iter().any(|e| e.name == n)
            || p.relationships.iter().any(|r| r.name == n)
            || p.queries.iter().any(|q| q.id == n);
        for pair in described(original) {
            if !renamed_or_added && exists(&pair.1) {
                prop_assert!(now.contains(&pair), "{name}: {} no longer above {}\n{text}", pair.0, pair.1);
            }
        }
        // Undoing everything restores the file byte for byte when the edits
        // kept the item order (moves re-order items, and the file follows).
        let back = save_text(&text, &before);
        prop_assert_eq!(&load::from_str(&back).expect("reads back"), &before);
    }
}

#[test]
fn open_save_without_edits_is_byte_identical() {
    for (name, original) in samples() {
        let p = load::from_str(&original).expect("sample loads");
        assert_eq!(save_text(&original, &p), original, "{name}");
    }
}

#[test]
fn one_edit_changes_only_that_items_lines() {
    for (name, original) in samples() {
        let mut p = load::from_str(&original).expect("sample loads");
        let q = p.queries.len() - 1;
        let order: Vec<(String, Dir)> = p.queries[q]
            .order
            .iter()
            .map(|o| (o.attr.clone(), o.dir.flip()))
            .collect();
        if order.is_empty() {
            continue;
        }
        apply_edit(&mut p, &Edit::SetOrder(q, order)).expect("edit applies");
        let text = save_text(&original, &p);
        let (a, b): (Vec<&str>, Vec<&str>) = (original.lines().collect(), text.lines().collect());
        assert_eq!(a.len(), b.len(), "{name}");
        let changed: Vec<(&str, &str)> = a
            .iter()
            .zip(&b)
            .filter(|(x, y)| x != y)
            .map(|(x, y)| (*x, *y))
            .collect();
        assert!(
            !changed.is_empty() && changed.len() <= 2,
            "{name}: {changed:?}"
        );
        assert!(
            changed.iter().all(|(_, y)| y.contains("order")),
            "{name}: {changed:?}"
        );
    }
}
