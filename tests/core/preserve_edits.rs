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

/// `needles` appear in `hay` in order.
fn in_order(needles: &[&str], hay: &[&str]) -> bool {
    let mut it = hay.iter();
    needles.iter().all(|n| it.any(|h| h == n))
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
        let before = load::from_str(original).expect("sample loads");
        let mut p = before.clone();
        for (k, a, b) in edits {
            if let Some(e) = edit_of(&p, k, a, b) {
                let mut next = p.clone();
                if apply_edit(&mut next, &e).is_ok() && load::validate(&next).is_empty() {
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
        prop_assert!(in_order(&comments(original), &comments(&text)), "{name}: a comment was lost\n{text}");
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
