//! The refinement preview (what one decision change does before it is
//! made: estimates, partitions a read touches, diagnostics that go away or
//! appear) and the alternatives matrix (the derived key and every candidate
//! key against every query over the same rows). Both only propose: Enter
//! turns the choice into an ordinary edit, so it is validated and undoable.

use super::{centered, Outcome};
use crate::derive::cost::DesignCost;
use crate::derive::estimate::{group_digits, human_bytes, Estimate};
use crate::derive::Access;
use crate::edit::refine::Preview;
use crate::edit::Edit;
use crate::model::naming::for_terminal;
use crate::model::quantity::count;
use crate::model::terminal_text::pad_end;
use crate::model::Project;
use crate::output::report::subject_label;
use crate::review::alternatives::{verdict, Matrix, DERIVED};
use crate::review::diagnose::{Diagnostic, Severity};
use crate::tui::intent::Action;
use crate::tui::keymap::{Command, Keymap, Scope};
use crate::tui::theme::Theme;
use crate::tui::view::fit;
use ratatui::layout::Rect;
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;

/// Draws `lines` in a framed, scrolled box; clamps the scroll to the text.
fn framed(
    theme: &Theme,
    frame: &mut Frame,
    area: Rect,
    (title, help): (&str, &str),
    width: u16,
    lines: Vec<Line<'static>>,
    scroll: usize,
) {
    let h = (lines.len() as u16).saturating_add(2);
    let r = centered(area, width, h.min(area.height.saturating_sub(2).max(3)));
    frame.render_widget(Clear, r);
    let block = super::frame_block(theme, title, help);
    let inner_h = r.height.saturating_sub(2) as usize;
    let s = scroll.min(lines.len().saturating_sub(inner_h));
    let visible: Vec<Line> = lines.into_iter().skip(s).collect();
    frame.render_widget(Paragraph::new(visible).block(block), r);
}

fn severity_color(theme: &Theme, s: Severity) -> Color {
    match s {
        Severity::Error => theme.bad,
        Severity::Warning => theme.warn,
        Severity::Hint => theme.accent,
    }
}

/// The preview of one refinement; Enter applies it.
pub struct RefinePreview {
    pub preview: Preview,
    /// The project the refinement makes (none when it was refused).
    pub next: Option<Project>,
    /// Whether the analysis after the change is still being worked out
    /// (large projects: on the worker); Enter waits for it.
    pub pending: bool,
    pub scroll: usize,
}

impl RefinePreview {
    /// A finished preview.
    pub fn new(preview: Preview, next: Option<Project>) -> RefinePreview {
        RefinePreview {
            preview,
            next,
            pending: false,
            scroll: 0,
        }
    }

    /// A preview whose analysis after the change is on its way.
    pub fn pending(preview: Preview, next: Project) -> RefinePreview {
        RefinePreview {
            pending: true,
            ..RefinePreview::new(preview, Some(next))
        }
    }

    /// Whether Enter would apply it.
    fn ready(&self) -> bool {
        !self.pending && self.preview.error.is_none() && self.next.is_some()
    }

    pub(crate) fn handle(&mut self, cmd: Option<Command>) -> Outcome {
        if super::scroll_by(&mut self.scroll, cmd) {
            return Outcome::Keep;
        }
        match cmd {
            Some(Command::Cancel) => Outcome::Cancel,
            Some(Command::Accept) if self.ready() => match self.next.take() {
                Some(next) => Outcome::Done(vec![Action::CommitRefinement(Box::new((
                    self.preview.refinement.clone(),
                    next,
                )))]),
                None => Outcome::Keep,
            },
            _ => Outcome::Keep,
        }
    }

    /// The preview as text lines, for drawing and for tests.
    pub fn lines(&self, theme: &Theme, width: usize) -> Vec<Line<'static>> {
        let p = &self.preview;
        let mut out = vec![Line::from(Span::styled(
            for_terminal(&p.refinement.label()).into_owned(),
            Style::new().add_modifier(Modifier::BOLD),
        ))];
        if let Some(t) = &p.table {
            // A shared table: the change is for every query it serves.
            let serves = if p.serves.len() > 1 {
                format!(" — serves {}", p.serves.join(", "))
            } else {
                String::new()
            };
            out.push(Line::from(vec![
                Span::styled("table ", theme.dim()),
                Span::raw(for_terminal(&format!("{t}{serves}")).into_owned()),
            ]));
        }
        if !p.leaving.is_empty() {
            out.push(Line::from(""));
            out.push(Line::from(Span::styled(
                "Leaves this table",
                Style::new().fg(theme.warn).add_modifier(Modifier::BOLD),
            )));
            for l in &p.leaving {
                out.push(Line::from(Span::styled(
                    fit(&format!("  ⚠ {}", for_terminal(&l.why)), width),
                    Style::new().fg(theme.warn),
                )));
            }
        }
        if self.pending {
            out.push(Line::from(""));
            out.push(Line::from(Span::styled(
                "working out the analysis after the change…",
                theme.dim(),
            )));
            return out;
        }
        if let Some(e) = &p.error {
            out.push(Line::from(""));
            out.push(Line::from(Span::styled(
                fit(&format!("✗ cannot apply: {}", for_terminal(e)), width),
                Style::new().fg(theme.bad).add_modifier(Modifier::BOLD),
            )));
        }
        if let (Some(b), Some(a)) = (&p.before, &p.after) {
            out.push(Line::from(""));
            out.extend(estimate_rows(theme, b, a));
        }
        if let Some((b, a)) = &p.cost {
            out.push(Line::from(""));
            out.extend(cost_rows(theme, b, a));
        }
        if !p.reads.is_empty() {
            out.push(Line::from(""));
            out.push(Line::from(Span::styled(
                "Partitions one read touches",
                theme.title(),
            )));
            for r in &p.reads {
                let worse = r.after > r.before;
                let style = if worse {
                    Style::new().fg(theme.warn)
                } else if r.after < r.before {
                    Style::new().fg(theme.ok)
                } else {
                    Style::new()
                };
                out.push(Line::from(vec![
                    Span::raw(format!(
                        "  {:<28}",
                        fit(&format!("{} {}", for_terminal(&r.query), r.what), 28)
                    )),
                    Span::raw(format!("{:>14}", count(r.before))),
                    Span::styled(format!("  →  {:>14}", count(r.after)), style),
                ]));
            }
        }
        let diag = |d: &Diagnostic, mark: &str, color: Color| {
            Line::from(vec![
                Span::styled(format!("  {mark} "), Style::new().fg(color)),
                Span::styled(
                    format!("{:<8}", d.severity.label()),
                    Style::new().fg(severity_color(theme, d.severity)),
                ),
                Span::styled(format!("{} ", d.rule), theme.dim()),
                Span::raw(fit(
                    &format!(
                        "{}: {}",
                        for_terminal(&subject_label(&d.subject)),
                        for_terminal(d.message())
                    ),
                    width.saturating_sub(14 + d.rule.len()),
                )),
            ])
        };
        if p.error.is_none() {
            out.push(Line::from(""));
            if p.resolved.is_empty() && p.introduced.is_empty() {
                out.push(Line::from(Span::styled(
                    "No diagnostic goes away or appears.",
                    theme.dim(),
                )));
            }
            if !p.resolved.is_empty() {
                out.push(Line::from(Span::styled("Goes away", theme.title())));
                out.extend(p.resolved.iter().map(|d| diag(d, "✓", theme.ok)));
            }
            if !p.introduced.is_empty() {
                out.push(Line::from(Span::styled("Appears", theme.title())));
                out.extend(p.introduced.iter().map(|d| diag(d, "✗", theme.bad)));
            }
        }
        out
    }

    pub fn draw(&self, theme: &Theme, keymap: &Keymap, frame: &mut Frame, area: Rect) {
        let width = area.width.min(110);
        let ok = self.ready();
        let help = keymap.footer(Scope::Preview, |c| ok || c != Command::Accept);
        let help = format!(
            "{help} · {}{} scroll",
            keymap.key_name(Scope::Preview, Command::Up),
            keymap.key_name(Scope::Preview, Command::Down)
        );
        let lines = self.lines(theme, width.saturating_sub(2) as usize);
        framed(
            theme,
            frame,
            area,
            ("Refine — preview", help.as_str()),
            width,
            lines,
            self.scroll,
        );
    }
}

/// A label, before, after, and how to print the figure.
type Figure = (&'static str, f64, f64, fn(f64) -> String);

/// Before → after of the per-partition figures; smaller is greener.
fn estimate_rows(theme: &Theme, b: &Estimate, a: &Estimate) -> Vec<Line<'static>> {
    let rows: [Figure; 7] = [
        (
            "rows (average)",
            b.rows_per_partition,
            a.rows_per_partition,
            count,
        ),
        (
            "rows (worst)",
            b.rows_per_partition_max,
            a.rows_per_partition_max,
            count,
        ),
        ("values (average)", b.values, a.values, count),
        ("values (worst)", b.values_max, a.values_max, count),
        (
            "size (average)",
            b.partition_bytes,
            a.partition_bytes,
            human_bytes,
        ),
        (
            "size (worst)",
            b.partition_bytes_max,
            a.partition_bytes_max,
            human_bytes,
        ),
        (
            "partitions in the table",
            b.partitions,
            a.partitions,
            group_digits,
        ),
    ];
    // The table's partition count is a fact, not better or worse.
    before_after(theme, "per partition", &rows, |label| {
        label.starts_with("partitions")
    })
}

/// A title with `before` and `after` columns, then a row per figure: the
/// after column greener where the figure fell, amber where it grew
/// (plain for unchanged figures and those `neutral` names).
fn before_after(
    theme: &Theme,
    title: &str,
    rows: &[Figure],
    neutral: impl Fn(&str) -> bool,
) -> Vec<Line<'static>> {
    let mut out = vec![Line::from(vec![
        Span::styled(format!("{title:<30}"), theme.title()),
        Span::styled(format!("{:>14}", "before"), theme.dim()),
        Span::styled(format!("{:>19}", "after"), theme.dim()),
    ])];
    for &(label, before, after, f) in rows {
        let style = if neutral(label) || (after - before).abs() < 1e-9 {
            Style::new()
        } else if after < before {
            Style::new().fg(theme.ok)
        } else {
            Style::new().fg(theme.warn)
        };
        out.push(Line::from(vec![
            Span::raw(format!("  {label:<28}")),
            Span::raw(format!("{:>14}", f(before))),
            Span::styled(format!("  →  {:>14}", f(after)), style),
        ]));
    }
    out
}

/// Before → after of the design's cost under the stated workload; less
/// is greener.
fn cost_rows(theme: &Theme, b: &DesignCost, a: &DesignCost) -> Vec<Line<'static>> {
    let rate = |v: f64| {
        if v < 100.0 {
            format!("{v:.1}")
        } else {
            group_digits(v.round())
        }
    };
    let hottest = |c: &DesignCost| c.hottest.as_ref().map_or(0.0, |h| h.1);
    let rows: [Figure; 5] = [
        ("reads/s per node", b.reads_per_node, a.reads_per_node, rate),
        (
            "writes/s per node",
            b.writes_per_node,
            a.writes_per_node,
            rate,
        ),
        (
            "disk per node",
            b.disk_per_node,
            a.disk_per_node,
            human_bytes,
        ),
        ("hottest partition ops/s", hottest(b), hottest(a), rate),
        ("weighted ops/s", b.weighted_total, a.weighted_total, rate),
    ];
    before_after(theme, "the design's cost", &rows, |_| false)
}

/// The alternatives matrix of a table's rows; ←→ pick a key, Enter uses it.
pub struct Alternatives {
    pub matrix: Matrix,
    /// The option (column) under the cursor.
    pub col: usize,
    pub scroll: usize,
    /// The matrix is being worked out on the what-if worker.
    pub pending: bool,
}

impl Alternatives {
    pub fn new(matrix: Matrix) -> Alternatives {
        let col = matrix.options.iter().position(|o| o.in_use).unwrap_or(0);
        Alternatives {
            matrix,
            col,
            scroll: 0,
            pending: false,
        }
    }

    /// The popup of `table` while its matrix is worked out: no options,
    /// so no key picks one.
    pub fn pending(table: &str) -> Alternatives {
        Alternatives {
            matrix: Matrix {
                table: table.to_string(),
                ..Matrix::default()
            },
            col: 0,
            scroll: 0,
            pending: true,
        }
    }

    fn use_edit(&self, name: Option<String>) -> Outcome {
        Outcome::Done(vec![Action::Edit(Edit::UseCandidate(
            self.matrix.query.clone(),
            name,
        ))])
    }

    pub(crate) fn handle(&mut self, cmd: Option<Command>) -> Outcome {
        if super::scroll_by(&mut self.scroll, cmd) {
            return Outcome::Keep;
        }
        let n = self.matrix.options.len();
        match cmd {
            Some(Command::Cancel) => Outcome::Cancel,
            Some(Command::Left) => {
                self.col = self.col.saturating_sub(1);
                Outcome::Keep
            }
            Some(Command::Right) if self.col + 1 < n => {
                self.col += 1;
                Outcome::Keep
            }
            Some(Command::Accept) => match self.matrix.options.get(self.col) {
                Some(o) if o.name == DERIVED => self.use_edit(None),
                Some(o) => self.use_edit(Some(o.name.clone())),
                None => Outcome::Keep,
            },
            Some(Command::UseDerived) => self.use_edit(None),
            _ => Outcome::Keep,
        }
    }

    /// The matrix as coloured lines: the grid, the keys, the reasons.
    pub fn lines(&self, theme: &Theme) -> Vec<Line<'static>> {
        let m = &self.matrix;
        if self.pending {
            return vec![Line::from(Span::styled(
                "working out every key against every query…",
                theme.dim(),
            ))];
        }
        if m.options.is_empty() {
            return vec![Line::from(format!(
                "{}: no table serves this query",
                for_terminal(&m.query)
            ))];
        }
        let mut out = vec![Line::from(vec![
            Span::styled("rows ", theme.dim()),
            Span::raw(for_terminal(&m.rows).into_owned()),
            Span::styled(" · table of ", theme.dim()),
            Span::raw(for_terminal(&m.query).into_owned()),
            Span::styled(" · ● in use", theme.dim()),
        ])];
        out.push(Line::from(""));
        let stats: Vec<(&str, Vec<String>)> = vec![
            (
                "partitions",
                m.options
                    .iter()
                    .map(|o| group_digits(o.estimate.partitions))
                    .collect(),
            ),
            (
                "rows/partition",
                m.options
                    .iter()
                    .map(|o| count(o.estimate.rows_per_partition))
                    .collect(),
            ),
            (
                "worst rows",
                m.options
                    .iter()
                    .map(|o| count(o.estimate.rows_per_partition_max))
                    .collect(),
            ),
            (
                "worst size",
                m.options
                    .iter()
                    .map(|o| human_bytes(o.estimate.partition_bytes_max))
                    .collect(),
            ),
            (
                "unique rows",
                m.options
                    .iter()
                    .map(|o| {
                        if o.missing_key.is_empty() {
                            "yes"
                        } else {
                            "no"
                        }
                        .into()
                    })
                    .collect(),
            ),
        ];
        let head: Vec<String> = m
            .options
            .iter()
            .map(|o| format!("{}{}", if o.in_use { "● " } else { "" }, o.name))
            .collect();
        let label_w = m
            .queries
            .iter()
            .map(|q| q.chars().count())
            .chain(stats.iter().map(|(l, _)| l.len()))
            .max()
            .unwrap_or(4)
            + 2;
        let widths: Vec<usize> = (0..m.options.len())
            .map(|o| {
                let cells = m.cells.iter().filter_map(|r| r.get(o)).map(verdict);
                std::iter::once(head[o].clone())
                    .chain(cells)
                    .chain(stats.iter().map(|(_, v)| v[o].clone()))
                    .map(|s| s.chars().count())
                    .max()
                    .unwrap_or(4)
                    + 2
            })
            .collect();
        let cell = |text: String, w: usize, style: Style, o: usize| {
            let st = if o == self.col {
                style.patch(Style::new().bg(theme.selected_bg))
            } else {
                style
            };
            Span::styled(format!(" {}", pad_end(&for_terminal(&text), w - 1)), st)
        };
        let mut spans = vec![Span::raw(" ".repeat(label_w))];
        for (o, h) in head.iter().enumerate() {
            let mut st = Style::new().add_modifier(Modifier::BOLD);
            if m.options[o].in_use {
                st = st.fg(theme.accent);
            }
            if m.options[o].problem.is_some() {
                st = st.fg(theme.bad);
            }
            spans.push(cell(h.clone(), widths[o], st, o));
        }
        out.push(Line::from(spans));
        let rule = "─".repeat(label_w + widths.iter().sum::<usize>());
        out.push(Line::from(Span::styled(rule.clone(), theme.dim())));
        for (qi, q) in m.queries.iter().enumerate() {
            let mut spans = vec![Span::raw(pad_end(&for_terminal(q), label_w))];
            for (o, a) in m.cells[qi].iter().enumerate() {
                let color = match a {
                    Access::Direct => theme.ok,
                    Access::Index(_) => theme.linked,
                    Access::Filtering(_) => theme.warn,
                    Access::Impossible(_) => theme.bad,
                };
                spans.push(cell(verdict(a), widths[o], Style::new().fg(color), o));
            }
            out.push(Line::from(spans));
        }
        out.push(Line::from(Span::styled(rule, theme.dim())));
        for (label, values) in &stats {
            let mut spans = vec![Span::styled(pad_end(label, label_w), theme.dim())];
            for (o, v) in values.iter().enumerate() {
                let st = if *label == "unique rows" && v == "no" {
                    Style::new().fg(theme.bad)
                } else {
                    Style::new()
                };
                spans.push(cell(v.clone(), widths[o], st, o));
            }
            out.push(Line::from(spans));
        }
        out.push(Line::from(""));
        for (o, opt) in m.options.iter().enumerate() {
            let marker = if o == self.col { "▸ " } else { "  " };
            let mut spans = vec![
                Span::styled(marker, Style::new().fg(theme.accent)),
                Span::styled(
                    format!("{}: ", for_terminal(&opt.name)),
                    Style::new().add_modifier(Modifier::BOLD),
                ),
                Span::raw(for_terminal(&opt.key).into_owned()),
            ];
            if !opt.indexes.is_empty() {
                spans.push(Span::styled(
                    format!(" + index on {}", for_terminal(&opt.indexes.join(", "))),
                    Style::new().fg(theme.linked),
                ));
            }
            if opt.in_use {
                spans.push(Span::styled("  (in use)", Style::new().fg(theme.accent)));
            }
            out.push(Line::from(spans));
            if let Some(why) = &opt.problem {
                out.push(Line::from(Span::styled(
                    format!("    ✗ {}", for_terminal(why)),
                    Style::new().fg(theme.bad),
                )));
            }
            if !opt.missing_key.is_empty() {
                out.push(Line::from(Span::styled(
                    format!(
                        "    rows overwrite each other (key lacks {})",
                        for_terminal(&opt.missing_key.join(", "))
                    ),
                    Style::new().fg(theme.bad),
                )));
            }
        }
        // Why the selected option serves a query only with help, or not.
        let reasons: Vec<(String, String)> = m
            .queries
            .iter()
            .zip(&m.cells)
            .filter_map(|(q, row)| {
                let a = row.get(self.col)?;
                Some((q.clone(), format!("{}: {}", a.label(), a.reason()?)))
            })
            .collect();
        if !reasons.is_empty() {
            out.push(Line::from(""));
            out.push(Line::from(Span::styled(
                format!("Why, with {}", for_terminal(&m.options[self.col].name)),
                theme.title(),
            )));
            for (q, why) in reasons {
                out.push(Line::from(vec![
                    Span::raw(format!("  {}: ", for_terminal(&q))),
                    Span::styled(for_terminal(&why).into_owned(), theme.dim()),
                ]));
            }
        }
        out
    }

    pub fn draw(&self, theme: &Theme, keymap: &Keymap, frame: &mut Frame, area: Rect) {
        let lines = self.lines(theme);
        let help = format!(
            "{} · {}{} scroll",
            keymap.footer(Scope::Alternatives, |_| true),
            keymap.key_name(Scope::Alternatives, Command::Up),
            keymap.key_name(Scope::Alternatives, Command::Down)
        );
        let want = lines.iter().map(Line::width).max().unwrap_or(40) as u16 + 2;
        framed(
            theme,
            frame,
            area,
            (
                &format!("Alternatives — {}", self.matrix.table),
                help.as_str(),
            ),
            want.max(60).min(area.width.saturating_sub(2)),
            lines,
            self.scroll,
        );
    }
}
