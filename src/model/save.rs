//! Writing files so that nothing is lost: the new text goes to a temporary
//! file beside the target, is synced, then renamed over it, so a crash
//! never leaves a half-written file. The file keeps its identity: its mode
//! stays, a symlink keeps pointing at a target that gets the new text, and
//! a read-only file is refused unless the caller forces it.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// Temporary files are `.NAME.cqlmodel-PID.tmp`: recognisable, and the
/// process id tells a live writer's file from a stale one.
const TMP_TAG: &str = ".cqlmodel-";
const TMP_END: &str = ".tmp";

/// Writes `text` to `path` atomically; refuses a read-only file.
pub fn write_atomic(path: &Path, text: &str) -> io::Result<()> {
    write(path, text, false)
}

/// [`write_atomic`], overwriting a read-only file too (the user said so).
pub fn overwrite_atomic(path: &Path, text: &str) -> io::Result<()> {
    write(path, text, true)
}

/// Whether `path` (through symlinks) is an existing read-only file.
pub(crate) fn is_read_only(path: &Path) -> bool {
    std::fs::metadata(resolve(path)).is_ok_and(|m| m.permissions().readonly())
}

/// Whether two paths name the same file (through symlinks and `..`).
pub(crate) fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => a == b,
    }
}

/// The file a path finally names: symlinks followed (relative ones from
/// their own directory), at most 40 hops as the kernel allows. A dangling
/// link resolves to where it points, which is then created.
pub fn resolve(path: &Path) -> PathBuf {
    let mut at = path.to_path_buf();
    for _ in 0..40 {
        match std::fs::symlink_metadata(&at) {
            Ok(m) if m.file_type().is_symlink() => match std::fs::read_link(&at) {
                Ok(to) if to.is_absolute() => at = to,
                Ok(to) => {
                    at = at.parent().map_or_else(|| to.clone(), |dir| dir.join(&to));
                }
                Err(_) => break,
            },
            _ => break,
        }
    }
    at
}

fn write(path: &Path, text: &str, force: bool) -> io::Result<()> {
    let target = resolve(path);
    let existing = std::fs::metadata(&target).ok();
    // Renaming over a device or FIFO would replace it (as root,
    // `/dev/null` itself); writing into one could block forever.
    if existing.as_ref().is_some_and(|m| !m.is_file()) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "not a regular file (a device, FIFO or directory); not written",
        ));
    }
    if let Some(m) = &existing {
        if m.permissions().readonly() && !force {
            return Err(io::Error::new(
                io::ErrorKind::PermissionDenied,
                "the file is read-only; not overwritten",
            ));
        }
    }
    let dir = match target.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .map_or_else(|| "project".into(), |n| n.to_string_lossy().into_owned());
    let tmp = dir.join(format!(".{name}{TMP_TAG}{}{TMP_END}", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        drop(f);
        if let Some(m) = &existing {
            std::fs::set_permissions(&tmp, m.permissions())?;
        }
        std::fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// Removes the temporary files a killed cqlmodel left in `dir` (those of
/// processes no longer running; where that cannot be known, those older
/// than an hour). Returns how many were removed.
pub(crate) fn remove_stale_temporaries(dir: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let own = std::process::id();
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let Some(pid) = temporary_pid(&name) else {
            continue;
        };
        if pid == own {
            continue;
        }
        let stale = match process_runs(pid) {
            Some(runs) => !runs,
            None => e
                .metadata()
                .and_then(|m| m.modified())
                .ok()
                .and_then(|t| t.elapsed().ok())
                .is_some_and(|age| age.as_secs() > 3600),
        };
        if stale && std::fs::remove_file(e.path()).is_ok() {
            removed += 1;
        }
    }
    removed
}

/// Whether process `pid` runs, where the system can tell (Linux's
/// `/proc`); `None` elsewhere.
pub(crate) fn process_runs(pid: u32) -> Option<bool> {
    Path::new("/proc/self")
        .exists()
        .then(|| Path::new("/proc").join(pid.to_string()).exists())
}

/// The writer's process id of a temporary file name, if it is one.
fn temporary_pid(name: &str) -> Option<u32> {
    let rest = name.strip_prefix('.')?.strip_suffix(TMP_END)?;
    let (_, pid) = rest.rsplit_once(TMP_TAG)?;
    pid.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_names_are_recognised() {
        assert_eq!(temporary_pid(".a.cqlm.ron.cqlmodel-42.tmp"), Some(42));
        assert_eq!(temporary_pid(".a.cqlm.ron.42.tmp"), None);
        assert_eq!(temporary_pid("a.cqlmodel-42.tmp"), None);
        assert_eq!(temporary_pid(".a.cqlmodel-x.tmp"), None);
    }
}
