//! The `:` command line, vi style, with Tab completion of commands and
//! file paths. File names come from the run loop, which lists the
//! directory when the line asks (`Action::ListDirectory`), so the popup
//! itself does no I/O.

use super::Outcome;
use crate::model::naming::for_terminal;
use crate::tui::intent::{Action, ExportKind};
use crate::tui::keymap::Command;
use crate::tui::popup::line::LineField;
use crate::tui::theme::Theme;
use crossterm::event::{KeyCode, KeyEvent};
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};
use ratatui::Frame;
use std::path::PathBuf;

/// Every command, with what it does, for completion and messages.
pub(crate) const COMMANDS: [(&str, &str); 12] = [
    ("w", "save (:w FILE saves as)"),
    ("w!", "save even if the file changed on disk"),
    ("wq", "save and quit"),
    ("e", "open FILE"),
    ("export cql", "write the CQL schema to FILE"),
    (
        "export report",
        "write the design report to FILE (.md Markdown, else HTML)",
    ),
    (
        "export diagram",
        "write a diagram to FILE (.svg .dot .mmd; :export diagram er|workflow|logical FILE)",
    ),
    ("q", "quit (asks when unsaved)"),
    ("q!", "quit without saving"),
    ("recent", "pick a recently used file"),
    (
        "settings",
        "edit the keyspace, target Cassandra version and thresholds",
    ),
    ("help", "show the keys"),
];

pub struct CommandLine {
    pub area: LineField,
    /// Candidates of the last Tab, shown under the line.
    pub completions: Vec<String>,
}

impl Default for CommandLine {
    fn default() -> Self {
        Self::new()
    }
}

impl CommandLine {
    pub fn new() -> CommandLine {
        CommandLine {
            area: LineField::default(),
            completions: vec![],
        }
    }

    pub fn text(&self) -> String {
        self.area.text().to_string()
    }

    fn set_text(&mut self, t: &str) {
        self.area.set(t);
    }

    pub(crate) fn handle(&mut self, cmd: Option<Command>, key: KeyEvent) -> Outcome {
        match cmd {
            Some(Command::Cancel) => return Outcome::Cancel,
            Some(Command::Accept) => return Outcome::Done(parse(&self.text())),
            Some(Command::Complete) => {
                let text = self.text();
                // A file name needs the directory's names: the run loop
                // lists it and `listed` completes (update does no I/O).
                if let Some(dir) = directory_to_list(&text) {
                    return Outcome::Run(vec![Action::ListDirectory(dir)]);
                }
                let (line, cands) = complete_command(&text);
                self.set_text(&line);
                self.completions = cands;
                return Outcome::Keep;
            }
            _ => {}
        }
        match key.code {
            KeyCode::Backspace if self.text().is_empty() => Outcome::Cancel,
            _ => {
                if self.area.key(key) {
                    self.completions.clear();
                }
                Outcome::Keep
            }
        }
    }

    /// Completes the file name with the entries of `dir`, if the line
    /// still asks for that directory's names.
    pub fn listed(&mut self, dir: &std::path::Path, entries: &[String]) {
        let text = self.text();
        if directory_to_list(&text).as_deref() != Some(dir) {
            return;
        }
        let (line, cands) = complete_path(&text, entries);
        self.set_text(&line);
        self.completions = cands;
    }

    pub fn draw(&self, theme: &Theme, frame: &mut Frame, area: Rect) {
        if area.height == 0 {
            return;
        }
        let extra = u16::from(!self.completions.is_empty());
        let h = (1 + extra).min(area.height);
        let r = Rect {
            y: area.y + area.height - h,
            height: h,
            ..area
        };
        frame.render_widget(Clear, r);
        let line_r = Rect { height: 1, ..r };
        frame.render_widget(
            Paragraph::new(Span::styled(":", theme.title())),
            Rect {
                width: 1.min(r.width),
                ..line_r
            },
        );
        if r.width > 1 {
            frame.render_widget(
                Paragraph::new(self.area.spans(true)),
                Rect {
                    x: r.x + 1,
                    width: r.width - 1,
                    ..line_r
                },
            );
        }
        if extra == 1 && h > 1 {
            let text = self.completions.join("  ");
            frame.render_widget(
                Paragraph::new(Line::from(Span::styled(
                    for_terminal(&text).into_owned(),
                    theme.dim(),
                ))),
                Rect {
                    y: r.y + 1,
                    height: 1,
                    ..r
                },
            );
        }
    }
}

/// The actions a command line means; unknown commands say so.
pub fn parse(line: &str) -> Vec<Action> {
    let line = line.trim();
    let (cmd, arg) = match line.split_once(char::is_whitespace) {
        Some((c, a)) => (c, a.trim()),
        None => (line, ""),
    };
    let file = (!arg.is_empty()).then(|| PathBuf::from(arg));
    match cmd {
        "" => vec![],
        "w" | "write" => vec![Action::Save {
            path: file,
            force: false,
        }],
        "w!" => vec![Action::Save {
            path: file,
            force: true,
        }],
        "wq" | "x" => vec![Action::SaveAndQuit(file)],
        "e" | "edit" => match file {
            Some(f) => vec![Action::Open(f)],
            None => vec![Action::Message("usage: :e FILE".into())],
        },
        "export" => match arg.split_once(char::is_whitespace) {
            Some(("cql", f)) if !f.trim().is_empty() => {
                vec![Action::Export(ExportKind::Cql, PathBuf::from(f.trim()))]
            }
            Some(("report", f)) if !f.trim().is_empty() => {
                vec![Action::Export(ExportKind::Report, PathBuf::from(f.trim()))]
            }
            Some(("diagram", rest)) if !rest.trim().is_empty() => {
                let rest = rest.trim();
                let named = crate::output::diagram::View::ALL.into_iter().find_map(|v| {
                    let f = rest.strip_prefix(v.name())?;
                    f.starts_with(char::is_whitespace)
                        .then(|| (v, f.trim()))
                        .filter(|(_, f)| !f.is_empty())
                });
                let (view, f) = named.unwrap_or((crate::output::diagram::View::Logical, rest));
                vec![Action::Export(ExportKind::Diagram(view), PathBuf::from(f))]
            }
            _ => vec![Action::Message(
                "usage: :export cql|report|diagram [er|workflow|logical] FILE".into(),
            )],
        },
        "q" | "quit" => vec![Action::Quit { force: false }],
        "q!" => vec![Action::Quit { force: true }],
        "recent" => vec![Action::Recent],
        "settings" => vec![Action::EditSettings],
        "help" | "h" => vec![Action::Command(crate::tui::keymap::Command::Help)],
        other => vec![Action::Message(format!(
            "unknown command :{other} (Tab completes)"
        ))],
    }
}

/// Commands whose argument is a file name, completed from a directory.
const TAKES_FILE: [&str; 7] = [
    "w ",
    "w! ",
    "wq ",
    "e ",
    "export cql ",
    "export report ",
    "export diagram ",
];

/// The file-name part of a line that completes a path: the command prefix,
/// the directory as typed (empty or ending in `/`) and the partial name.
fn path_parts(line: &str) -> Option<(&str, &str, &str)> {
    let prefix = TAKES_FILE.iter().find(|p| line.starts_with(**p))?;
    let partial = &line[prefix.len()..];
    let (dir, stem) = match partial.rfind('/') {
        Some(i) => (&partial[..=i], &partial[i + 1..]),
        None => ("", partial),
    };
    Some((prefix, dir, stem))
}

/// The directory whose names complete this line, when it completes a file
/// name (the current directory for a bare name).
pub(crate) fn directory_to_list(line: &str) -> Option<PathBuf> {
    let (_, dir, _) = path_parts(line)?;
    Some(PathBuf::from(if dir.is_empty() { "." } else { dir }))
}

/// Completes a file name from the entries of its directory (directories
/// end in `/`); hidden files are not offered. Returns the new line and the
/// candidates when several remain.
pub(crate) fn complete_path(line: &str, entries: &[String]) -> (String, Vec<String>) {
    let Some((prefix, dir, stem)) = path_parts(line) else {
        return (line.to_string(), vec![]);
    };
    let mut names: Vec<String> = entries
        .iter()
        .filter(|n| n.starts_with(stem) && !n.starts_with('.'))
        .cloned()
        .collect();
    names.sort();
    match names.len() {
        0 => (line.to_string(), vec![]),
        1 => (format!("{prefix}{dir}{}", names[0]), vec![]),
        _ => {
            let common = common_prefix(&names);
            (format!("{prefix}{dir}{common}"), names)
        }
    }
}

/// Completes the command name. Returns the new line and the candidates
/// when several remain.
pub(crate) fn complete_command(line: &str) -> (String, Vec<String>) {
    let cands: Vec<String> = COMMANDS
        .iter()
        .map(|(c, _)| c.to_string())
        .filter(|c| c.starts_with(line))
        .collect();
    match cands.len() {
        0 => (line.to_string(), vec![]),
        1 => {
            let c = &cands[0];
            let takes =
                ["w", "e", "export cql", "export report", "export diagram"].contains(&c.as_str());
            (if takes { format!("{c} ") } else { c.clone() }, vec![])
        }
        _ => (common_prefix(&cands), cands),
    }
}

fn common_prefix(v: &[String]) -> String {
    let Some(first) = v.first() else {
        return String::new();
    };
    let mut end = first.len();
    for s in &v[1..] {
        end = end.min(
            first
                .char_indices()
                .zip(s.chars())
                .take_while(|((_, a), b)| a == b)
                .map(|((i, a), _)| i + a.len_utf8())
                .last()
                .unwrap_or(0),
        );
    }
    first[..end].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Completion as Tab gives it, with the directory listed as the run
    /// loop lists it.
    fn complete(line: &str) -> (String, Vec<String>) {
        match directory_to_list(line) {
            Some(dir) => complete_path(line, &crate::tui::list_directory(&dir)),
            None => complete_command(line),
        }
    }

    #[test]
    fn commands_complete() {
        let (line, cands) = complete("ex");
        assert_eq!(line, "export ");
        assert_eq!(cands.len(), 3);
        assert_eq!(complete("export c").0, "export cql ");
        assert_eq!(complete("export r").0, "export report ");
        assert_eq!(complete("rec").0, "recent");
        let (line, cands) = complete("w");
        assert_eq!(line, "w");
        assert!(cands.contains(&"wq".to_string()));
    }

    #[test]
    fn paths_complete() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("model.cqlm.ron"), "").expect("write");
        let base = format!("e {}/mo", dir.path().display());
        assert_eq!(
            complete(&base).0,
            format!("e {}/model.cqlm.ron", dir.path().display())
        );
    }

    #[test]
    fn lines_parse() {
        assert!(matches!(parse("q!")[..], [Action::Quit { force: true }]));
        assert!(matches!(
            &parse("w out.ron")[..],
            [Action::Save {
                path: Some(_),
                force: false
            }]
        ));
        assert!(matches!(
            &parse("export cql x.cql")[..],
            [Action::Export(ExportKind::Cql, _)]
        ));
        assert!(matches!(
            &parse("export report r.html")[..],
            [Action::Export(ExportKind::Report, _)]
        ));
        assert!(matches!(
            &parse("export diagram er my er.svg")[..],
            [Action::Export(ExportKind::Diagram(crate::output::diagram::View::Er), p)] if p.to_str() == Some("my er.svg")
        ));
        assert!(matches!(
            &parse("export diagram er.svg")[..],
            [Action::Export(ExportKind::Diagram(crate::output::diagram::View::Logical), p)] if p.to_str() == Some("er.svg")
        ));
        assert!(matches!(&parse("export diagram")[..], [Action::Message(_)]));
        assert!(matches!(&parse("bogus")[..], [Action::Message(_)]));
    }
}
