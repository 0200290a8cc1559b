//! The provenance a designer reads: each column's mapping rule and how its
//! data got there, in words that name the rule, shown in the workbench.

use crate::support;

use cqlmodel::derive::{Flow, Rule};
use cqlmodel::tui::app::{App, Focus};
use cqlmodel::tui::config::Dirs;
use cqlmodel::tui::popup::Popup;
use cqlmodel::tui::{start, view, Launch};
use crossterm::event::KeyCode;
use ratatui::backend::TestBackend;
use ratatui::Terminal;
use support::key;

const RULES: [(Rule, &[&str]); 13] = [
    (Rule::Equality, &["MR2", "equality", "partition key"]),
    (Rule::Filter, &["MR2", "equality", "clustering"]),
    (Rule::Identifier, &["MR5", "identifier", "unique"]),
    (Rule::Range, &["MR3", "range", "clustering"]),
    (Rule::Order, &["MR4", "order", "clustering"]),
    (Rule::Key, &["MR5", "key", "unique"]),
    (Rule::Returned, &["returned"]),
    (Rule::Bucket, &["decision", "bucket"]),
    (Rule::Shard, &["decision", "shard"]),
    (Rule::WholeTable, &["no equality", "partition"]),
    (Rule::Collection, &["decision", "collection"]),
    (Rule::Merged, &["merged"]),
    (Rule::Candidate, &["decision", "candidate"]),
];

#[test]
fn every_rule_label_names_its_rule() {
    let mut seen = std::collections::HashSet::new();
    for (rule, words) in RULES {
        let label = rule.label();
        assert!(seen.insert(label), "{rule:?} shares its label {label:?}");
        for w in words {
            assert!(label.contains(w), "{rule:?}: {label:?} lacks {w:?}");
        }
    }
}

#[test]
fn every_flow_label_says_where_the_data_comes_from() {
    for (flow, word) in [
        (Flow::Own, "of the rows"),
        (Flow::PushDown, "parent"),
        (Flow::PushUp, "child"),
    ] {
        assert!(flow.label().contains(word), "{flow:?}: {}", flow.label());
    }
}

fn screen(app: &App) -> String {
    let mut t = Terminal::new(TestBackend::new(160, 50)).expect("terminal");
    t.draw(|f| view::draw(app, f)).expect("draw");
    let buf = t.backend().buffer().clone();
    let mut s = String::new();
    for y in 0..50 {
        for x in 0..160 {
            s.push_str(buf[(x, y)].symbol());
        }
        s.push('\n');
    }
    s
}

/// The provenance popup of `hotels_by_poi`'s columns shows, per column, the
/// rule that placed it and where its data comes from.
#[test]
fn the_provenance_popup_shows_rule_and_flow() {
    let tmp = tempfile::tempdir().expect("tempdir");
    let file = tmp.path().join("hotel.cqlm.ron");
    std::fs::write(&file, cqlmodel::tui::SAMPLE).expect("write");
    let dirs = Dirs {
        config: Some(tmp.path().join("config")),
        data: Some(tmp.path().join("data")),
    };
    let mut app = start(Launch::Open(file), dirs).expect("start");
    // Q1 ("hotels near a point of interest") selected, then its table.
    key(&mut app, KeyCode::Char('/'));
    key(&mut app, KeyCode::Char('Q'));
    key(&mut app, KeyCode::Char('1'));
    key(&mut app, KeyCode::Enter);
    key(&mut app, KeyCode::Tab);
    assert_eq!(app.focus, Focus::Tables);
    let t = app
        .analysis
        .model
        .table_of("Q1")
        .expect("Q1's table")
        .clone();
    // Expected per column, from what the query asks: its search is the
    // partition key (MR2), the rows' key follows for uniqueness (MR5), the
    // rest is returned; the hotel's own attributes are the rows' own.
    let expect = |name: &str| -> (&str, Option<&str>) {
        match name {
            "poi_name" => ("MR2 equality search", None),
            "hotel_id" => ("MR5 key of the rows", Some("attribute of the rows")),
            _ => ("returned attribute", Some("attribute of the rows")),
        }
    };
    for c in &t.columns {
        key(&mut app, KeyCode::Char('j'));
        key(&mut app, KeyCode::Enter);
        assert!(
            matches!(app.popups.last(), Some(Popup::Info(_))),
            "no provenance for {}",
            c.name
        );
        let s = screen(&app);
        let (rule, flow) = expect(&c.name);
        assert!(s.contains(&format!("rule:  {rule}")), "{}:\n{s}", c.name);
        assert!(s.contains(c.rule.label()), "{}:\n{s}", c.name);
        if c.why.is_some() {
            let why = c.why_text();
            let start: String = why.chars().take(30).collect();
            assert!(s.contains(&format!("why:   {start}")), "{}:\n{s}", c.name);
        }
        if let Some(flow) = flow {
            assert!(s.contains(&format!("flow:  {flow}")), "{}:\n{s}", c.name);
        }
        key(&mut app, KeyCode::Esc);
    }
}
