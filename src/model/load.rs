//! Reading, checking and writing project files. Loading never panics:
//! syntax errors carry a line and column, broken references the path of the
//! item that holds them (`queries[3].equality[0]`).

use super::{Project, FORMAT_VERSION};
use std::fmt;

pub(crate) use super::validate::validate_text;
/// Checking lives in [`super::validate`]; re-exported for existing callers.
pub use super::validate::{validate, Problem};
use std::path::Path;

/// Larger files are refused before parsing: no real model comes close.
pub(crate) const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;

#[derive(Debug)]
pub enum LoadError {
    Io(String),
    Syntax {
        line: usize,
        col: usize,
        message: String,
    },
    Invalid(Vec<Problem>),
}

impl fmt::Display for LoadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LoadError::Io(m) => f.write_str(m),
            LoadError::Syntax { line, col, message } => {
                write!(f, "line {line}, column {col}: {message}")
            }
            LoadError::Invalid(problems) => {
                for (i, p) in problems.iter().enumerate() {
                    if i > 0 {
                        writeln!(f)?;
                    }
                    write!(f, "{p}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for LoadError {}

/// Parses project text without checking references.
pub fn parse(text: &str) -> Result<Project, LoadError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(LoadError::Io(format!(
            "the file is {} bytes; project files are limited to {} bytes",
            text.len(),
            MAX_FILE_BYTES
        )));
    }
    let project: Project = ron::Options::default()
        .with_recursion_limit(64)
        .from_str(text)
        .map_err(|e| LoadError::Syntax {
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })?;
    if project.format > FORMAT_VERSION {
        return Err(LoadError::Invalid(vec![Problem {
            path: "format".into(),
            message: format!(
                "format {} is newer than this cqlmodel reads ({FORMAT_VERSION}); upgrade cqlmodel",
                project.format
            ),
        }]));
    }
    Ok(project)
}

/// Parses and checks project text.
pub fn from_str(text: &str) -> Result<Project, LoadError> {
    let project = parse(text)?;
    let problems = validate_text(&project, text);
    if problems.is_empty() {
        Ok(project)
    } else {
        Err(LoadError::Invalid(problems))
    }
}

pub fn read(path: &Path) -> Result<Project, LoadError> {
    let text = read_text(path)?;
    from_str(&text)
}

pub(crate) fn read_text(path: &Path) -> Result<String, LoadError> {
    read_user_file(path).map_err(|e| LoadError::Io(format!("{}: {e}", path.display())))
}

/// A file the user named, as text: only a regular file (a device or FIFO
/// could never end, or block forever), at most [`MAX_FILE_BYTES`] however
/// it grows while read, UTF-8 with a leading byte-order mark dropped. The
/// error says why (without the path: the caller names it once) and, for
/// text that is not UTF-8, where.
pub fn read_user_file(path: &Path) -> Result<String, String> {
    use std::io::Read as _;
    let meta = std::fs::metadata(path).map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(if meta.is_dir() {
            "is a directory, not a file".into()
        } else {
            "is not a regular file (a device, FIFO or socket); cqlmodel reads only files".into()
        });
    }
    if meta.len() > MAX_FILE_BYTES as u64 {
        return Err(format!(
            "{} bytes; files are limited to {MAX_FILE_BYTES} bytes",
            meta.len()
        ));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .and_then(|f| f.take(MAX_FILE_BYTES as u64 + 1).read_to_end(&mut bytes))
        .map_err(|e| e.to_string())?;
    if bytes.len() > MAX_FILE_BYTES {
        return Err(format!("grew past {MAX_FILE_BYTES} bytes while read"));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let ok = &e.as_bytes()[..e.utf8_error().valid_up_to()];
        let line = ok.split(|&b| b == b'\n').count();
        let col = ok.iter().rev().take_while(|&&b| b != b'\n').count() + 1;
        format!("not UTF-8 text: an invalid byte at line {line}, column {col}")
    })?;
    Ok(match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

fn pretty() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .struct_names(true)
        .indentor("    ".to_string())
        .new_line("\n".to_string())
}

/// One item (entity, query, decision…) as pretty RON, in the same layout
/// as the project file, for editing it as text.
pub fn item_to_string<T: serde::Serialize>(item: &T) -> String {
    ron::ser::to_string_pretty(item, pretty())
        .unwrap_or_else(|e| format!("// could not serialize: {e}\n"))
}

/// Parses one item written by [`item_to_string`], with the error position.
pub(crate) fn item_from_str<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, LoadError> {
    if text.len() > MAX_FILE_BYTES {
        return Err(LoadError::Io("the text is too large".into()));
    }
    ron::Options::default()
        .with_recursion_limit(64)
        .from_str(text)
        .map_err(|e| LoadError::Syntax {
            line: e.span.start.line,
            col: e.span.start.col,
            message: e.code.to_string(),
        })
}

/// The project as pretty RON: stable field order, one item per line.
pub fn to_string(project: &Project) -> String {
    match ron::ser::to_string_pretty(project, pretty()) {
        Ok(mut s) => {
            s.push('\n');
            s
        }
        // Serializing plain data into a string cannot fail; keep a readable
        // fallback rather than a panic all the same.
        Err(e) => format!("// could not serialize: {e}\n"),
    }
}

/// Atomic writes live in [`super::save`]; kept here for existing callers.
pub use super::save::write_atomic;
