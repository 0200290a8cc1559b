//! The figures estimates rest on, as a small form per item: an entity's
//! count, rate, retention and TTL; an attribute's size, distinct values and
//! elements; a relationship's per-side counts (average, maximum, rate).
//! The form is plain text fields so any front end can show it; [`parse`]
//! checks every field at once and answers with one error per field, so a
//! dialog can keep what was typed and say under each field what is wrong.

use super::{Edit, Item};
use crate::model::physical::{Span, SpanUnit};
use crate::model::{Cardinality, Count, Period, Project};

/// One field of a numbers form.
#[derive(Clone, Debug, PartialEq)]
pub struct Field {
    pub label: String,
    /// What the field takes, shown while it is empty.
    pub hint: &'static str,
    pub value: String,
    /// A field of fixed choices (a toggle: `no`, `yes`) takes no text: a
    /// dialog cycles through them. Empty for a text field.
    pub choices: &'static [&'static str],
}

/// The figures of one item, as [`Edit::SetNumbers`] sets them.
#[derive(Clone, Debug, PartialEq)]
pub enum Numbers {
    Entity {
        count: Option<f64>,
        /// The count is an insert rate per this period.
        per: Option<Period>,
        /// In days, with the unit it was typed in.
        retention_days: Option<f64>,
        retention_unit: Option<SpanUnit>,
        ttl: bool,
    },
    Attribute {
        size: Option<f64>,
        distinct: Option<f64>,
        elements: Option<f64>,
    },
    Relationship {
        to_per_from: Option<Count>,
        from_per_to: Option<Count>,
    },
}

const NUMBER: &str = "a number, e.g. 1000 or 2.5e6; empty = not stated";
const PERIOD: &str = "hour, day, week, month or year; empty = in total";
const SPAN: &str = "20s, 15m, 12h, 730d, 2y (a bare number: days); empty = none";

/// The choices of a yes/no toggle.
pub const TOGGLE: &[&str] = &["no", "yes"];

fn show_period(p: Option<Period>) -> String {
    p.map(|p| p.name().to_string()).unwrap_or_default()
}

fn show(x: Option<f64>) -> String {
    x.map(|v| v.to_string()).unwrap_or_default()
}

fn field(label: impl Into<String>, hint: &'static str, value: String) -> Field {
    Field {
        label: label.into(),
        hint,
        value,
        choices: &[],
    }
}

fn count_fields(out: &mut Vec<Field>, what: &str, c: Option<&Count>) {
    out.push(field(
        format!("{what}: average"),
        NUMBER,
        show(c.map(|c| c.avg)),
    ));
    out.push(field(
        format!("{what}: maximum"),
        NUMBER,
        show(c.and_then(|c| c.max)),
    ));
    out.push(field(
        format!("{what}: per (rate)"),
        PERIOD,
        show_period(c.and_then(|c| c.per)),
    ));
}

/// The form of an item with its current figures; `None` for items that
/// carry no figures (queries, transitions, tables).
pub fn fields(p: &Project, item: Item) -> Option<Vec<Field>> {
    Some(match item {
        Item::Entity(e) => {
            let e = p.entities.get(e)?;
            vec![
                field("instances (count)", NUMBER, show(e.count)),
                field("count per (rate)", PERIOD, show_period(e.per)),
                field(
                    "retention",
                    SPAN,
                    e.retention().map(|s| s.to_string()).unwrap_or_default(),
                ),
                Field {
                    choices: TOGGLE,
                    ..field(
                        "TTL: rows expire after the retention",
                        "Space toggles",
                        if e.ttl { "yes" } else { "no" }.into(),
                    )
                },
            ]
        }
        Item::Attribute(..) | Item::RelAttribute(..) => {
            let a = attribute(p, item)?;
            vec![
                field("average size (bytes)", NUMBER, show(a.size)),
                field("distinct values", NUMBER, show(a.distinct)),
                field("elements (collections)", NUMBER, show(a.elements)),
            ]
        }
        Item::Relationship(r) => {
            let r = p.relationships.get(r)?;
            let mut out = Vec::new();
            count_fields(
                &mut out,
                &format!("{} per {}", r.to, r.from),
                r.to_per_from.as_ref(),
            );
            if r.cardinality == Cardinality::ManyToMany {
                count_fields(
                    &mut out,
                    &format!("{} per {}", r.from, r.to),
                    r.from_per_to.as_ref(),
                );
            }
            out
        }
        Item::Query(_) | Item::Transition(_) | Item::Table(_) | Item::Column(..) => return None,
    })
}

fn attribute(p: &Project, item: Item) -> Option<&crate::model::Attribute> {
    match item {
        Item::Attribute(e, a) => p.entities.get(e)?.attributes.get(a),
        Item::RelAttribute(r, a) => p.relationships.get(r)?.attributes.get(a),
        _ => None,
    }
}

/// A positive figure, or `None` for an empty field.
pub(crate) fn parse_number(text: &str) -> Result<Option<f64>, String> {
    let t: String = text.trim().chars().filter(|c| *c != '_').collect();
    if t.is_empty() {
        return Ok(None);
    }
    match t.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 => Ok(Some(v)),
        Ok(_) => Err("must be a positive number".into()),
        Err(_) => Err(format!("not a number: {}", text.trim())),
    }
}

pub(crate) fn parse_period(text: &str) -> Result<Option<Period>, String> {
    let t = text.trim();
    if t.is_empty() {
        return Ok(None);
    }
    Period::ALL
        .into_iter()
        .find(|p| p.name().eq_ignore_ascii_case(t))
        .map(Some)
        .ok_or_else(|| format!("not a period: {t} (hour, day, week, month or year)"))
}

fn parse_yes_no(text: &str) -> Result<bool, String> {
    match text.trim().to_ascii_lowercase().as_str() {
        "" | "no" | "n" | "false" => Ok(false),
        "yes" | "y" | "true" => Ok(true),
        other => Err(format!("yes or no, not {other}")),
    }
}

/// Reads three count fields (average, maximum, per) into a count, with
/// the errors of each.
fn parse_count(values: &[String], errors: &mut [Option<String>]) -> Option<Count> {
    let avg = parse_number(&values[0])
        .map_err(|e| errors[0] = Some(e))
        .ok()?;
    let max = parse_number(&values[1])
        .map_err(|e| errors[1] = Some(e))
        .ok()?;
    let per = parse_period(&values[2])
        .map_err(|e| errors[2] = Some(e))
        .ok()?;
    match (avg, max) {
        (None, None) => {
            if per.is_some() {
                errors[0] = Some("a rate needs an average".into());
            }
            None
        }
        (None, Some(_)) => {
            errors[0] = Some("a maximum needs an average".into());
            None
        }
        (Some(a), Some(m)) if m < a => {
            errors[1] = Some(format!("below the average {a}"));
            None
        }
        (Some(avg), max) => Some(Count { avg, max, per }),
    }
}

/// Turns the form's values into the edit that sets them, or one error per
/// field (`None` where the field is fine).
pub fn parse(p: &Project, item: Item, values: &[String]) -> Result<Edit, Vec<Option<String>>> {
    let expected = fields(p, item).map_or(0, |f| f.len());
    let mut errors: Vec<Option<String>> = vec![None; expected];
    if expected == 0 || values.len() != expected {
        return Err(vec![Some("this item has no figures".into())]);
    }
    let numbers = match item {
        Item::Entity(_) => {
            let mut num = |i: usize| {
                parse_number(&values[i])
                    .map_err(|e| errors[i] = Some(e))
                    .unwrap_or(None)
            };
            let count = num(0);
            let retention = if values[2].trim().is_empty() {
                None
            } else {
                Span::parse(&values[2])
                    .map_err(|e| errors[2] = Some(e))
                    .ok()
            };
            let per = parse_period(&values[1])
                .map_err(|e| errors[1] = Some(e))
                .unwrap_or(None);
            if per.is_some() && count.is_none() && errors[0].is_none() {
                errors[0] = Some("a rate needs a count".into());
            }
            let ttl = parse_yes_no(&values[3])
                .map_err(|e| errors[3] = Some(e))
                .unwrap_or(false);
            if ttl && retention.is_none() && errors[2].is_none() {
                errors[3] = Some("a TTL needs a retention".into());
            }
            Numbers::Entity {
                count,
                per,
                retention_days: retention.map(|s| s.in_days()),
                // Days stay unmarked, so files keep their old form.
                retention_unit: retention.map(|s| s.unit).filter(|u| *u != SpanUnit::Days),
                ttl,
            }
        }
        Item::Attribute(..) | Item::RelAttribute(..) => {
            let mut num = |i: usize| {
                parse_number(&values[i])
                    .map_err(|e| errors[i] = Some(e))
                    .unwrap_or(None)
            };
            Numbers::Attribute {
                size: num(0),
                distinct: num(1),
                elements: num(2),
            }
        }
        Item::Relationship(_) => {
            let to_per_from = parse_count(&values[0..3], &mut errors[0..3]);
            let from_per_to = if values.len() == 6 {
                parse_count(&values[3..6], &mut errors[3..6])
            } else {
                None
            };
            Numbers::Relationship {
                to_per_from,
                from_per_to,
            }
        }
        _ => return Err(vec![Some("this item has no figures".into())]),
    };
    if errors.iter().any(Option::is_some) {
        return Err(errors);
    }
    Ok(Edit::SetNumbers(item, numbers))
}

/// Sets the figures of an item (the change behind [`Edit::SetNumbers`]).
pub fn set(p: &mut Project, item: Item, n: &Numbers) -> Result<(), String> {
    match (item, n) {
        (
            Item::Entity(e),
            Numbers::Entity {
                count,
                per,
                retention_days,
                retention_unit,
                ttl,
            },
        ) => {
            let e = p.entities.get_mut(e).ok_or("no such entity")?;
            e.count = *count;
            e.per = *per;
            e.retention_days = *retention_days;
            e.retention_unit = *retention_unit;
            e.ttl = *ttl;
        }
        (
            Item::Attribute(..) | Item::RelAttribute(..),
            Numbers::Attribute {
                size,
                distinct,
                elements,
            },
        ) => {
            let a = match item {
                Item::Attribute(e, a) => {
                    p.entities.get_mut(e).and_then(|x| x.attributes.get_mut(a))
                }
                Item::RelAttribute(r, a) => p
                    .relationships
                    .get_mut(r)
                    .and_then(|x| x.attributes.get_mut(a)),
                _ => None,
            }
            .ok_or("no such attribute")?;
            a.size = *size;
            a.distinct = *distinct;
            a.elements = *elements;
        }
        (
            Item::Relationship(r),
            Numbers::Relationship {
                to_per_from,
                from_per_to,
            },
        ) => {
            let r = p.relationships.get_mut(r).ok_or("no such relationship")?;
            r.to_per_from.clone_from(to_per_from);
            r.from_per_to.clone_from(from_per_to);
        }
        _ => return Err("these figures do not fit the item".into()),
    }
    Ok(())
}

/// The item an estimate's assumption note is about (`Hotel: no count…`,
/// `Hotel.name: no average size…`, `has_rooms: no count for…`), so the
/// designer can go and state the figure.
pub(crate) fn assumed_item(p: &Project, note: &str) -> Option<Item> {
    let (subject, _) = note.split_once(": ")?;
    if let Some(e) = p.entities.iter().position(|e| e.name == subject) {
        return Some(Item::Entity(e));
    }
    if let Some(r) = p.relationships.iter().position(|r| r.name == subject) {
        return Some(Item::Relationship(r));
    }
    let (owner, attr) = subject.split_once('.')?;
    if let Some(e) = p.entities.iter().position(|e| e.name == owner) {
        let a = p.entities[e]
            .attributes
            .iter()
            .position(|a| a.name == attr)?;
        return Some(Item::Attribute(e, a));
    }
    let r = p.relationships.iter().position(|r| r.name == owner)?;
    let a = p.relationships[r]
        .attributes
        .iter()
        .position(|a| a.name == attr)?;
    Some(Item::RelAttribute(r, a))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::edit::apply;
    use crate::model::load;

    fn hotel() -> Project {
        load::from_str(include_str!("../../sample-projects/hotel.cqlm.ron")).expect("sample")
    }

    fn values(p: &Project, item: Item) -> Vec<String> {
        fields(p, item)
            .expect("fields")
            .into_iter()
            .map(|f| f.value)
            .collect()
    }

    #[test]
    fn an_unchanged_form_sets_the_same_figures() {
        let p = hotel();
        for item in [
            Item::Entity(0),
            Item::Attribute(0, 0),
            Item::Relationship(0),
        ] {
            let e = parse(&p, item, &values(&p, item)).expect("valid");
            let mut q = p.clone();
            apply(&mut q, &e).expect("applies");
            assert_eq!(q, p, "{item:?}");
        }
    }

    #[test]
    fn entity_figures_are_set_and_undone() {
        let p = hotel();
        let v = vec!["5000".to_string(), "Day".into(), "30".into(), "yes".into()];
        let e = parse(&p, Item::Entity(0), &v).expect("valid");
        let mut q = p.clone();
        let inverse = apply(&mut q, &e).expect("applies");
        assert_eq!(q.entities[0].count, Some(5000.0));
        assert_eq!(q.entities[0].per, Some(Period::Day));
        assert_eq!(q.entities[0].retention_days, Some(30.0));
        assert!(q.entities[0].ttl);
        apply(&mut q, &inverse).expect("undo");
        assert_eq!(q, p);
    }

    #[test]
    fn each_bad_field_gets_its_own_error() {
        let p = hotel();
        let v = vec![
            "lots".to_string(),
            "fortnight".into(),
            "-3".into(),
            "maybe".into(),
        ];
        let errors = parse(&p, Item::Entity(0), &v).expect_err("invalid");
        assert_eq!(errors.len(), 4);
        assert!(errors[0].as_deref().unwrap().contains("not a number"));
        assert!(errors[1].as_deref().unwrap().contains("not a period"));
        assert!(errors[2].as_deref().unwrap().contains("positive"));
        assert!(errors[3].as_deref().unwrap().contains("yes or no"));
        let v = vec!["10".to_string(), String::new(), String::new(), "yes".into()];
        let errors = parse(&p, Item::Entity(0), &v).expect_err("ttl without retention");
        assert_eq!(errors[0], None);
        assert!(errors[3].as_deref().unwrap().contains("retention"));
        let v = vec![String::new(), "week".into(), String::new(), "no".into()];
        let errors = parse(&p, Item::Entity(0), &v).expect_err("rate without count");
        assert!(errors[0]
            .as_deref()
            .unwrap()
            .contains("a rate needs a count"));
        assert_eq!(errors[1], None);
    }

    #[test]
    fn relationship_counts_take_a_rate_and_check_the_maximum() {
        let p = hotel();
        let item = Item::Relationship(0);
        let n = fields(&p, item).expect("fields").len();
        let mut v = vec![String::new(); n];
        v[0] = "20".into();
        v[1] = "200".into();
        v[2] = "Day".into();
        let e = parse(&p, item, &v).expect("valid");
        let mut q = p.clone();
        apply(&mut q, &e).expect("applies");
        let c = q.relationships[0].to_per_from.clone().expect("count");
        assert_eq!(
            (c.avg, c.max, c.per),
            (20.0, Some(200.0), Some(Period::Day))
        );
        v[1] = "2".into();
        let errors = parse(&p, item, &v).expect_err("max below avg");
        assert!(errors[1].as_deref().unwrap().contains("below"));
        v[0] = String::new();
        v[1] = String::new();
        let errors = parse(&p, item, &v).expect_err("rate without avg");
        assert!(errors[0].as_deref().unwrap().contains("average"));
    }

    #[test]
    fn assumption_notes_lead_to_their_items() {
        let p = hotel();
        let e = &p.entities[0];
        let a = &e.attributes[1];
        let r = &p.relationships[0];
        let note = |s: &str| format!("{s}: no count; assumed 1000");
        assert_eq!(assumed_item(&p, &note(&e.name)), Some(Item::Entity(0)));
        assert_eq!(
            assumed_item(&p, &note(&format!("{}.{}", e.name, a.name))),
            Some(Item::Attribute(0, 1))
        );
        assert_eq!(
            assumed_item(&p, &note(&r.name)),
            Some(Item::Relationship(0))
        );
        assert_eq!(assumed_item(&p, &note("Nobody")), None);
        assert_eq!(assumed_item(&p, "no colon here"), None);
    }

    #[test]
    fn every_default_of_the_sample_points_at_an_item() {
        let p = hotel();
        let m = crate::derive::derive(&p);
        for est in crate::derive::estimate::estimate(&p, &m) {
            for d in &est.defaults {
                assert!(assumed_item(&p, d).is_some(), "{d}");
            }
        }
    }
}
