//! Advisory file locks between the deckhands of one user (`flock` on
//! Unix): a session holds the lock of its autosave while it runs, so that
//! the others know that game is not left over, and every write to the
//! history file holds the history's lock. A lock ends with the process
//! that holds it, however it ends. Where there are no such locks (not
//! Unix), taking one always succeeds and none is ever seen held.

use std::fs::{File, OpenOptions};
use std::io;
use std::path::Path;

/// A lock held on a file until dropped.
pub struct Lock {
    _file: File,
}

/// Take the exclusive lock of the file at `path` (created if missing),
/// waiting while another process holds it. The lock is on the file that
/// is at `path` once taken: if another process removed or replaced the
/// file meanwhile, it is taken again on the new one.
pub fn exclusive(path: &Path) -> io::Result<Lock> {
    for _ in 0..10 {
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(path)?;
        flock(&file, false)?;
        if same_file(&file, path) {
            return Ok(Lock { _file: file });
        }
    }
    Err(io::Error::other(format!(
        "cannot lock {}: it keeps being replaced",
        path.display()
    )))
}

/// Whether another process (or another open file of this one) holds a
/// lock on the file at `path` now; false when there is no such file.
pub fn held(path: &Path) -> bool {
    match File::open(path) {
        Ok(file) => matches!(flock(&file, true), Err(e) if e.kind() == io::ErrorKind::WouldBlock),
        Err(_) => false,
    }
}

#[cfg(unix)]
fn flock(file: &File, nonblocking: bool) -> io::Result<()> {
    use std::os::fd::AsRawFd;
    let op = if nonblocking {
        libc::LOCK_EX | libc::LOCK_NB
    } else {
        libc::LOCK_EX
    };
    loop {
        // SAFETY: flock on a file descriptor this `File` owns and keeps
        // open for the call.
        if unsafe { libc::flock(file.as_raw_fd(), op) } == 0 {
            return Ok(());
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

#[cfg(not(unix))]
fn flock(_: &File, _: bool) -> io::Result<()> {
    Ok(())
}

/// Whether `file` is the file at `path` now.
#[cfg(unix)]
fn same_file(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), std::fs::metadata(path)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev() && a.ino() == b.ino(),
        _ => false,
    }
}

#[cfg(not(unix))]
fn same_file(_: &File, path: &Path) -> bool {
    path.exists()
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn a_lock_is_seen_held_until_it_is_dropped() {
        let dir = tempfile::tempdir().expect("tmp");
        let path = dir.path().join("a.lock");
        assert!(!held(&path), "no file, no lock");
        let lock = exclusive(&path).expect("lock");
        assert!(held(&path));
        drop(lock);
        assert!(!held(&path));
        // Taken again on a file put in place of the one locked.
        let lock = exclusive(&path).expect("lock");
        std::fs::remove_file(&path).expect("remove");
        assert!(!held(&path));
        drop(lock);
        let _again = exclusive(&path).expect("lock");
        assert!(held(&path));
    }
}
