//! Pick lists: what the model offers (entities, `Graph::offered`
//! references, queries, periods), so names are chosen, never typed. Typing
//! narrows the list; Space picks in multi-pick lists, in pick order.

use super::{centered, Outcome};
use crate::edit::Edit;
use crate::model::naming::for_terminal;
use crate::model::Dir;
use crate::tui::intent::Action;
use crate::tui::keymap::{Command, Keymap, Scope};
use crate::tui::popup::line::LineField;
use crate::tui::theme::Theme;
use crossterm::event::KeyEvent;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;
use std::cell::Cell;

/// What the pick is for, with the query (by index) or names it concerns.
#[derive(Clone, Debug, PartialEq)]
pub enum Pick {
    QueryMenu,
    Rows(usize),
    Equality(usize),
    Range(usize),
    Order(usize),
    Returns(usize),
    NewQueryRows(String),
    Transition(String),
    Merge(Vec<String>),
    /// Refinements of a table, by item; the choice opens its preview.
    Refine(Vec<crate::review::diagnose::Refinement>),
    Recent,
    /// Assumed figures of a table's estimate, with the items to state them on.
    Assumed(Vec<Option<crate::edit::Item>>),
    /// A type for an attribute (owner, index): the choice fills the first
    /// `…` of the template; a collection's `…` are picked next.
    Type(crate::model::resolve::NodeId, usize, String),
    /// An entity's key attributes.
    Key(usize),
    /// The relationships that identify an entity (first: its owner).
    Owners(usize),
    /// What a transition feeds.
    Feeds(usize),
    /// A new relationship: the parts picked so far (from, to), the choice
    /// is the next one.
    Relationship(Vec<String>),
}

/// The hole in a type template that the next pick fills.
pub(crate) const HOLE: &str = "…";

pub struct Picker {
    pub title: String,
    pub items: Vec<String>,
    pub multi: bool,
    /// Picked item indexes, in the order they were picked.
    pub picked: Vec<usize>,
    /// Ordering pickers carry a direction per item.
    pub dirs: Option<Vec<Dir>>,
    pub cursor: usize,
    pub filter: String,
    pub purpose: Pick,
    pub offset: Cell<usize>,
    /// Why the last choice was refused; the list stays open to choose again.
    pub error: Option<String>,
}

/// The query menu's entries and the commands they run.
pub(crate) const QUERY_MENU: [(&str, Command); 7] = [
    ("Rows: the entity whose instances it returns", Command::Rows),
    ("Equality search attributes", Command::Equality),
    ("Range search attribute", Command::Range),
    ("Ordering attributes and directions", Command::Order),
    ("Returned attributes", Command::Returns),
    ("LIMIT: rows at most (empty: none)", Command::Limit),
    ("Edit as RON text", Command::EditText),
];

impl Picker {
    pub fn single(title: &str, items: Vec<String>, purpose: Pick) -> Picker {
        Picker {
            title: title.to_string(),
            items,
            multi: false,
            picked: vec![],
            dirs: None,
            cursor: 0,
            filter: String::new(),
            purpose,
            offset: Cell::new(0),
            error: None,
        }
    }

    pub(crate) fn multi(
        title: &str,
        items: Vec<String>,
        picked: Vec<usize>,
        purpose: Pick,
    ) -> Picker {
        Picker {
            multi: true,
            picked,
            ..Picker::single(title, items, purpose)
        }
    }

    /// Indexes of the items the filter lets through.
    pub fn visible(&self) -> Vec<usize> {
        let f = self.filter.to_lowercase();
        (0..self.items.len())
            .filter(|&i| f.is_empty() || self.items[i].to_lowercase().contains(&f))
            .collect()
    }

    /// Where the cursor goes as the filter changes: on the item the filter
    /// names exactly (typing `Source` picks `Source`, not `SourceType`),
    /// else on the first item left.
    fn exact_match(&self) -> usize {
        let f = self.filter.trim();
        self.visible()
            .iter()
            .position(|&i| self.items[i].trim().eq_ignore_ascii_case(f))
            .unwrap_or(0)
    }

    fn toggle(&mut self, i: usize) {
        match self.picked.iter().position(|&p| p == i) {
            Some(k) => {
                self.picked.remove(k);
            }
            None => self.picked.push(i),
        }
    }

    pub(crate) fn handle(&mut self, cmd: Option<Command>, key: KeyEvent) -> Outcome {
        use Command as C;
        self.error = None;
        let vis = self.visible();
        let current = vis.get(self.cursor).copied();
        let last = vis.len().saturating_sub(1);
        match cmd {
            Some(C::Cancel) => return Outcome::Cancel,
            Some(C::Up) => self.cursor = self.cursor.saturating_sub(1),
            Some(C::Down) => self.cursor = (self.cursor + 1).min(last),
            Some(C::PageUp) => self.cursor = self.cursor.saturating_sub(10),
            Some(C::PageDown) => self.cursor = (self.cursor + 10).min(last),
            Some(C::Top) => self.cursor = 0,
            Some(C::End) => self.cursor = last,
            Some(C::Pick) if self.multi => {
                if let Some(i) = current {
                    self.toggle(i);
                }
            }
            // The direction only: picking stays with its own key, so
            // "→ then Space" picks descending.
            Some(d @ (C::Ascending | C::Descending)) if self.dirs.is_some() => {
                if let (Some(i), Some(dirs)) = (current, self.dirs.as_mut()) {
                    dirs[i] = if d == C::Ascending {
                        Dir::Asc
                    } else {
                        Dir::Desc
                    };
                }
            }
            Some(C::Accept) => {
                if self.multi {
                    return Outcome::Done(self.finish(None));
                }
                return match current {
                    Some(i) => Outcome::Done(self.finish(Some(i))),
                    None => Outcome::Keep,
                };
            }
            // Letters narrow the list; the line-editing keys that delete
            // (Ctrl-U, Ctrl-W, Backspace) edit the filter like any field.
            _ => {
                if LineField::edit_at_end(&mut self.filter, key) {
                    self.cursor = self.exact_match();
                }
            }
        }
        Outcome::Keep
    }

    fn finish(&self, chosen: Option<usize>) -> Vec<Action> {
        let picked: Vec<String> = self.picked.iter().map(|&i| self.items[i].clone()).collect();
        let one = chosen.map(|i| self.items[i].clone());
        let edit = match (&self.purpose, one) {
            (Pick::QueryMenu, Some(_)) => {
                let i = chosen.unwrap_or(0);
                return QUERY_MENU
                    .get(i)
                    .map(|(_, c)| vec![Action::Command(*c)])
                    .unwrap_or_default();
            }
            (Pick::Rows(q), Some(rows)) => Edit::SetRows(*q, rows),
            (Pick::Range(q), Some(r)) => Edit::SetRange(*q, (r != NONE).then_some(r)),
            (Pick::NewQueryRows(text), Some(rows)) => Edit::AddQuery(text.clone(), rows),
            (Pick::Transition(from), Some(to)) => Edit::AddTransition(from.clone(), to),
            (Pick::Merge(queries), Some(into)) => {
                let into = into
                    .split_whitespace()
                    .next()
                    .unwrap_or_default()
                    .to_string();
                Edit::Merge(queries.clone(), into)
            }
            (Pick::Refine(list), Some(_)) => {
                return chosen
                    .and_then(|i| list.get(i))
                    .map(|r| vec![Action::PreviewRefinement(r.clone())])
                    .unwrap_or_default();
            }
            (Pick::Recent, Some(path)) => return vec![Action::Open(path.into())],
            (Pick::Assumed(items), Some(note)) => {
                return match chosen.and_then(|i| items.get(i).copied().flatten()) {
                    Some(item) => vec![Action::FillIn(item)],
                    None => vec![Action::Message(format!(
                        "state this where it is derived: {note}"
                    ))],
                };
            }
            (Pick::Type(owner, a, template), Some(choice)) => {
                let ty = template.replacen(HOLE, &choice, 1);
                if ty.contains(HOLE) {
                    return vec![Action::PickType(*owner, *a, ty)];
                }
                Edit::SetType(*owner, *a, ty)
            }
            (Pick::Relationship(parts), Some(choice)) => {
                // Cardinality entries read "1:n  one … has many …".
                let word = choice.split_whitespace().next().unwrap_or_default();
                let mut parts = parts.clone();
                parts.push(word.to_string());
                return vec![Action::PickRelationship(parts)];
            }
            (Pick::Key(e), _) => Edit::SetKey(*e, picked),
            // Items read `name: from → to`; the edit takes the names.
            (Pick::Owners(e), _) => Edit::SetOwners(
                *e,
                picked
                    .iter()
                    .map(|i| i.split(':').next().unwrap_or_default().to_string())
                    .collect(),
            ),
            (Pick::Feeds(t), _) => Edit::SetFeeds(*t, picked),
            // Calendar parts (`day of ts`) are picked among the attributes.
            (Pick::Equality(q), _) => {
                let (calendar, equality): (Vec<String>, Vec<String>) = picked
                    .into_iter()
                    .partition(|x| crate::model::CalendarPart::parse(x).is_some());
                Edit::SetSearch(
                    *q,
                    equality,
                    calendar
                        .iter()
                        .filter_map(|x| crate::model::CalendarPart::parse(x))
                        .collect(),
                )
            }
            (Pick::Returns(q), _) => Edit::SetReturns(*q, picked),
            (Pick::Order(q), _) => {
                let dirs = self.dirs.clone().unwrap_or_default();
                Edit::SetOrder(
                    *q,
                    self.picked
                        .iter()
                        .map(|&i| {
                            (
                                self.items[i].clone(),
                                dirs.get(i).copied().unwrap_or_default(),
                            )
                        })
                        .collect(),
                )
            }
            _ => return vec![],
        };
        vec![Action::Edit(edit)]
    }

    pub fn draw(&self, theme: &Theme, keymap: &Keymap, frame: &mut Frame, area: Rect) {
        let vis = self.visible();
        let want_h = (vis.len() as u16).saturating_add(4).clamp(6, 24);
        let longest = self
            .items
            .iter()
            .map(|i| i.chars().count())
            .max()
            .unwrap_or(0) as u16;
        let (multi, ordering) = (self.multi, self.dirs.is_some());
        let help = keymap.footer(Scope::Picker, |c| match c {
            Command::Pick => multi,
            Command::Ascending | Command::Descending => ordering,
            _ => true,
        });
        let help = format!("type to narrow · {help}");
        let want_w = longest
            .saturating_add(8)
            .max(help.chars().count() as u16 + 4)
            .clamp(64, 110);
        let r = centered(area, want_w, want_h);
        frame.render_widget(Clear, r);
        let block = super::frame_block(theme, &self.title, &help);
        let inner = block.inner(r);
        frame.render_widget(block, r);
        if inner.height == 0 {
            return;
        }
        let filter_line = match &self.error {
            Some(why) => Line::from(Span::styled(
                format!("✗ {}", for_terminal(why)),
                ratatui::style::Style::new().fg(theme.bad),
            )),
            None => Line::from(vec![
                Span::styled("filter: ", theme.dim()),
                Span::raw(for_terminal(&self.filter).into_owned()),
            ]),
        };
        frame.render_widget(Paragraph::new(filter_line), Rect { height: 1, ..inner });
        let list_h = inner.height.saturating_sub(1) as usize;
        if list_h == 0 {
            return;
        }
        let mut off = self.offset.get();
        if self.cursor < off {
            off = self.cursor;
        } else if self.cursor >= off + list_h {
            off = self.cursor + 1 - list_h;
        }
        self.offset.set(off);
        let lines: Vec<Line> = vis
            .iter()
            .enumerate()
            .skip(off)
            .take(list_h)
            .map(|(row, &i)| {
                let mut spans = Vec::new();
                if self.multi {
                    let mark = match self.picked.iter().position(|&p| p == i) {
                        Some(k) => format!("[{}]", k + 1),
                        None => "[ ]".to_string(),
                    };
                    spans.push(Span::styled(
                        format!("{mark:<4}"),
                        Style::new().fg(theme.key),
                    ));
                }
                if let Some(d) = self.dirs.as_ref().and_then(|d| d.get(i)) {
                    spans.push(Span::styled(
                        format!("{} ", d.arrow()),
                        Style::new().fg(theme.key),
                    ));
                }
                spans.push(Span::raw(for_terminal(&self.items[i]).into_owned()));
                let mut line = Line::from(spans);
                if row == self.cursor {
                    line = line.style(theme.selected());
                }
                line
            })
            .collect();
        let list = Rect {
            y: inner.y + 1,
            height: inner.height - 1,
            ..inner
        };
        frame.render_widget(Paragraph::new(lines), list);
        if vis.is_empty() {
            frame.render_widget(
                Paragraph::new(Span::styled("nothing matches", theme.dim())),
                list,
            );
        }
    }
}

/// The "no range" entry of range pickers.
pub const NONE: &str = "(none)";
