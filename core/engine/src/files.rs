//! Reading files a user or a shared file names (saves, traces) with a size
//! cap, refusing what is not a regular file (`/dev/zero`, a FIFO, a folder)
//! before reading a byte of it; writing a save atomically, never through a
//! symbolic link, with the temporary files of writers that died removed.

use crate::error::{CoreError, Result};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How a temporary file of [`write_atomic`] is named: the prefix, the id
/// of the process writing it, a number, and the suffix
/// (`.deckhand-save-4242-7.tmp`).
pub const TEMP_PREFIX: &str = ".deckhand-save-";
pub const TEMP_SUFFIX: &str = ".tmp";

/// A temporary file older than this is stale whoever wrote it: writing a
/// save takes a fraction of a second.
pub const TEMP_STALE_AFTER: Duration = Duration::from_secs(3600);

/// Check that `path` is a regular file (symbolic links followed) of at
/// most `max` bytes; `what` names it in the message.
pub fn check_regular(path: &Path, max: u64, what: &str) -> Result<()> {
    let meta = std::fs::metadata(path)
        .map_err(|e| CoreError::NotFound(format!("{}: {e}", path.display())))?;
    if !meta.is_file() {
        return Err(CoreError::Invalid(format!(
            "{}: not a regular file (a {what} must be a plain file)",
            path.display()
        )));
    }
    if meta.len() > max {
        return Err(CoreError::Invalid(format!(
            "{}: {} bytes; a {what} may be at most {max} bytes",
            path.display(),
            meta.len()
        )));
    }
    Ok(())
}

/// Read a regular file of at most `max` bytes as UTF-8 text.
pub fn read_text(path: &Path, max: u64, what: &str) -> Result<String> {
    check_regular(path, max, what)?;
    let file = std::fs::File::open(path)
        .map_err(|e| CoreError::NotFound(format!("{}: {e}", path.display())))?;
    // The file may grow between the check and the read: never read more
    // than the cap.
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CoreError::Invalid(format!("{}: {e}", path.display())))?;
    if bytes.len() as u64 > max {
        return Err(CoreError::Invalid(format!(
            "{}: more than {max} bytes; a {what} may be at most {max} bytes",
            path.display()
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CoreError::Invalid(format!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Write `bytes` to `path` atomically: they go to a new temporary file in
/// the same folder, which then replaces `path` in one rename, so a crash or
/// a failure (a full disk, a folder without write access) leaves the file
/// that was at `path` as it was. The new file keeps the old one's
/// permissions (a new one gets the usual 0666 less the umask).
///
/// Nothing at `path` is followed: a symbolic link there is refused (the
/// file it points to is never written), and so is anything that is not a
/// regular file (a folder, a device). Between that check and the rename,
/// nothing opens `path`: a link put there meanwhile is replaced by the
/// rename, not written through.
///
/// Before writing, the temporary files in the folder that writers left
/// behind (killed mid-write) are removed: those of processes that no
/// longer run (seen in `/proc` where there is one) and any older than
/// [`TEMP_STALE_AFTER`]. Errors do not name the temporary file: the
/// caller names `path`.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let existing = match std::fs::symlink_metadata(path) {
        Ok(meta) if meta.file_type().is_symlink() => {
            let to = std::fs::read_link(path)
                .map(|t| format!(" (to {})", t.display()))
                .unwrap_or_default();
            return Err(CoreError::Invalid(format!(
                "it is a symbolic link{to}, and a save is never written through a link: \
                 remove the link, or save to the file itself"
            )));
        }
        Ok(meta) if !meta.is_file() => {
            return Err(CoreError::Invalid(
                "it is not a regular file (a save is written to a plain file)".into(),
            ))
        }
        Ok(meta) => Some(meta.permissions()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => None,
        Err(e) => return Err(io(e, "cannot look at it")),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    remove_stale_temps(dir);
    let (tmp, mut file) = create_temp(dir).map_err(|e| {
        io(
            e,
            &format!("cannot create a file in the folder {}", dir.display()),
        )
    })?;
    // Removed on any failure from here on.
    let guard = RemoveOnDrop(Some(tmp.clone()));
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| io(e, "writing failed"))?;
    if let Some(perms) = existing {
        file.set_permissions(perms)
            .map_err(|e| io(e, "cannot give the new file the old one's permissions"))?;
    }
    drop(file);
    std::fs::rename(&tmp, path).map_err(|e| io(e, "cannot put the new file in place"))?;
    guard.disarm();
    Ok(())
}

/// An I/O error described without the temporary file's name.
fn io(e: std::io::Error, what: &str) -> CoreError {
    // The OS error alone ("No such file or directory (os error 2)").
    let cause = match e.raw_os_error() {
        Some(code) => std::io::Error::from_raw_os_error(code).to_string(),
        None => e.kind().to_string(),
    };
    CoreError::Io(std::io::Error::new(e.kind(), format!("{what}: {cause}")))
}

/// A new temporary file in `dir`, named with this process's id.
fn create_temp(dir: &Path) -> std::io::Result<(PathBuf, std::fs::File)> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static NEXT: AtomicU64 = AtomicU64::new(0);
    let pid = std::process::id();
    let mut last = None;
    for _ in 0..100 {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let path = dir.join(format!("{TEMP_PREFIX}{pid}-{n}{TEMP_SUFFIX}"));
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
        match options.open(&path) {
            Ok(file) => return Ok((path, file)),
            // Left by an earlier process that had this id: try another.
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| std::io::Error::other("no free name")))
}

/// Removes a temporary file when dropped, unless disarmed.
struct RemoveOnDrop(Option<PathBuf>);

impl RemoveOnDrop {
    fn disarm(mut self) {
        self.0 = None;
    }
}

impl Drop for RemoveOnDrop {
    fn drop(&mut self) {
        if let Some(p) = self.0.take() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Remove the temporary files in `dir` that no writer will finish: those
/// of a process that no longer runs, and any older than
/// [`TEMP_STALE_AFTER`] (files named otherwise, by older builds, too).
/// Only regular files with the temporary name are touched; failures are
/// ignored (another writer may have removed one first).
pub fn remove_stale_temps(dir: &Path) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let me = std::process::id();
    // Whether a process runs can be told only where /proc lists them.
    let procfs = Path::new("/proc/self").exists();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(middle) = name
            .to_str()
            .and_then(|n| n.strip_prefix(TEMP_PREFIX))
            .and_then(|n| n.strip_suffix(TEMP_SUFFIX))
        else {
            continue;
        };
        // Not followed: a link with this name is left alone.
        let Ok(meta) = std::fs::symlink_metadata(entry.path()) else {
            continue;
        };
        if !meta.is_file() {
            continue;
        }
        let old = meta
            .modified()
            .ok()
            .and_then(|m| m.elapsed().ok())
            .is_some_and(|age| age > TEMP_STALE_AFTER);
        let writer = middle
            .split_once('-')
            .and_then(|(pid, _)| pid.parse::<u32>().ok());
        let dead = match writer {
            Some(pid) if pid != me && procfs => !Path::new("/proc").join(pid.to_string()).exists(),
            _ => false,
        };
        if old || dead {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_folders_and_big_files_are_refused_before_reading() {
        let dir = tempfile::tempdir().expect("tmp");
        let e = read_text(Path::new("/dev/zero"), 10, "save file").expect_err("refused");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = read_text(dir.path(), 10, "save file").expect_err("refused");
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let big = dir.path().join("big.json");
        std::fs::write(&big, "x".repeat(11)).expect("write");
        let e = read_text(&big, 10, "save file").expect_err("refused");
        assert!(e.to_string().contains("at most 10 bytes"), "{e}");
        std::fs::write(&big, b"ab\xffcd").expect("write");
        let e = read_text(&big, 10, "save file").expect_err("refused");
        assert!(e.to_string().contains("offset 2"), "{e}");
        std::fs::write(&big, "0123456789").expect("write");
        assert_eq!(
            read_text(&big, 10, "save file").expect("read"),
            "0123456789"
        );
    }

    /// The names in `dir` that look like temporary files of a save.
    fn temps(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .expect("list")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.starts_with(TEMP_PREFIX))
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn a_save_is_never_written_through_a_symbolic_link() {
        let dir = tempfile::tempdir().expect("tmp");
        let other = dir.path().join("precious.txt");
        std::fs::write(&other, "keep me").expect("write");
        let link = dir.path().join("autosave.json");
        std::os::unix::fs::symlink(&other, &link).expect("symlink");
        let e = write_atomic(&link, b"{}").expect_err("refused");
        assert!(e.to_string().contains("symbolic link"), "{e}");
        assert_eq!(std::fs::read_to_string(&other).expect("read"), "keep me");
        assert!(std::fs::symlink_metadata(&link)
            .expect("still there")
            .file_type()
            .is_symlink());
        // A dangling link is refused too (writing through it would create
        // its target).
        let dangling = dir.path().join("dangling.json");
        std::os::unix::fs::symlink(dir.path().join("nowhere.txt"), &dangling).expect("symlink");
        assert!(write_atomic(&dangling, b"{}").is_err());
        assert!(!dir.path().join("nowhere.txt").exists());
        assert!(temps(dir.path()).is_empty(), "{:?}", temps(dir.path()));
        // A plain file is replaced, keeping its permissions.
        let plain = dir.path().join("game.json");
        std::fs::write(&plain, "old").expect("write");
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&plain, std::fs::Permissions::from_mode(0o640)).expect("chmod");
        write_atomic(&plain, b"new").expect("written");
        assert_eq!(std::fs::read_to_string(&plain).expect("read"), "new");
        let mode = std::fs::metadata(&plain)
            .expect("meta")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640);
    }

    #[test]
    fn temporary_files_of_dead_writers_are_removed_by_the_next_save() {
        let dir = tempfile::tempdir().expect("tmp");
        // No process has this id (above any pid_max), none this one: a
        // writer killed mid-save left them.
        let dead = dir
            .path()
            .join(format!("{TEMP_PREFIX}999999999-3{TEMP_SUFFIX}"));
        std::fs::write(&dead, "half a save").expect("write");
        let mine = dir.path().join(format!(
            "{TEMP_PREFIX}{}-999{TEMP_SUFFIX}",
            std::process::id()
        ));
        std::fs::write(&mine, "being written").expect("write");
        // An old one named by an earlier build (no process id).
        let old = dir.path().join(format!("{TEMP_PREFIX}Ab3xYz{TEMP_SUFFIX}"));
        let f = std::fs::File::create(&old).expect("create");
        let long_ago = std::time::SystemTime::now() - TEMP_STALE_AFTER * 2;
        f.set_modified(long_ago).expect("age it");
        drop(f);
        let recent = dir.path().join(format!("{TEMP_PREFIX}Qq1234{TEMP_SUFFIX}"));
        std::fs::write(&recent, "").expect("write");
        write_atomic(&dir.path().join("game.json"), b"{}").expect("written");
        let left = temps(dir.path());
        let name = |p: &Path| p.file_name().expect("name").to_string_lossy().into_owned();
        let mut expected = vec![name(&mine), name(&recent)];
        if !Path::new("/proc/self").exists() {
            // Without /proc only the age tells.
            expected.push(name(&dead));
        }
        expected.sort();
        assert_eq!(left, expected);
    }

    #[test]
    fn a_failed_save_names_no_temporary_file() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("no such folder").join("x.json");
        let e = write_atomic(&path, b"{}").expect_err("no folder");
        let msg = e.to_string();
        assert!(!msg.contains(TEMP_PREFIX), "{msg}");
        assert!(
            msg.contains("cannot create a file in the folder") && msg.contains("no such folder"),
            "{msg}"
        );
    }
}
