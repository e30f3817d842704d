//! Reading files a user or a shared file names (saves, traces) with a size
//! cap, refusing what is not a regular file (`/dev/zero`, a FIFO, a folder)
//! before reading a byte of it.

use crate::error::{CoreError, Result};
use std::io::Read;
use std::path::Path;

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
}
