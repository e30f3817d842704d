//! Reading files a user names (saves, house rules) with a size cap, and
//! refusing what is not a regular file (`/dev/zero`, a FIFO, a folder)
//! before reading a byte of it.

use anyhow::{anyhow, bail, Result};
use std::io::Read;
use std::path::Path;

/// The largest save file `load` and `replay` read: about 64 MiB, far more
/// than a game of a million decisions needs.
pub const MAX_SAVE_BYTES: u64 = 64 << 20;

/// The largest house-rule or variant file given as a path: 4 MiB (the
/// largest game script shipped is about 60 KB).
pub const MAX_SCRIPT_BYTES: u64 = 4 << 20;

/// Check that `path` is a regular file (symbolic links followed) of at
/// most `max` bytes; `what` names it in the message.
pub fn check_regular(path: &Path, max: u64, what: &str) -> Result<()> {
    let meta = std::fs::metadata(path).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if !meta.is_file() {
        bail!(
            "{}: not a regular file (a {what} must be a plain file)",
            path.display()
        );
    }
    if meta.len() > max {
        bail!(
            "{}: {} bytes; a {what} may be at most {max} bytes",
            path.display(),
            meta.len()
        );
    }
    Ok(())
}

/// Read a regular file of at most `max` bytes as UTF-8 text.
pub fn read_text(path: &Path, max: u64, what: &str) -> Result<String> {
    check_regular(path, max, what)?;
    let file = std::fs::File::open(path).map_err(|e| anyhow!("{}: {e}", path.display()))?;
    // The file may grow between the check and the read: never read more
    // than the cap.
    let mut bytes = Vec::new();
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| anyhow!("{}: {e}", path.display()))?;
    if bytes.len() as u64 > max {
        bail!(
            "{}: more than {max} bytes; a {what} may be at most {max} bytes",
            path.display()
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow!(
            "{}: not UTF-8 text (invalid byte at offset {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// Whether a variant as given names a house-rule file rather than a
/// variant of the game (the rule the core applies: it ends in `.lua` or
/// holds a path separator).
pub fn is_rule_path(variant: &str) -> bool {
    variant.ends_with(".lua") || variant.contains('/') || variant.contains('\\')
}

/// Check every house-rule file among `variants` (a regular file of at most
/// [`MAX_SCRIPT_BYTES`]) before the rules read them.
pub fn check_rule_files(variants: &[String]) -> Result<()> {
    for v in variants.iter().filter(|v| is_rule_path(v)) {
        check_regular(Path::new(v), MAX_SCRIPT_BYTES, "house-rule file")
            .map_err(|e| anyhow!("house rule file '{v}': {e}"))?;
    }
    Ok(())
}

/// Read and check a save file, within [`MAX_SAVE_BYTES`].
pub fn read_save(path: &Path) -> Result<deckhand_core::SaveFile> {
    let text = read_text(path, MAX_SAVE_BYTES, "save file")?;
    Ok(deckhand_core::SaveFile::parse(&text)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_folders_and_big_files_are_refused_before_reading() {
        let dir = tempfile::tempdir().expect("tmp");
        let e = read_text(Path::new("/dev/zero"), 10, "save file").unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let e = read_text(dir.path(), 10, "save file").unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
        let big = dir.path().join("big.json");
        std::fs::write(&big, "x".repeat(11)).expect("write");
        let e = read_text(&big, 10, "save file").unwrap_err();
        assert!(e.to_string().contains("at most 10 bytes"), "{e}");
        std::fs::write(&big, b"ab\xffcd").expect("write");
        let e = read_text(&big, 10, "save file").unwrap_err();
        assert!(e.to_string().contains("offset 2"), "{e}");
        std::fs::write(&big, "0123456789").expect("write");
        assert_eq!(
            read_text(&big, 10, "save file").expect("read"),
            "0123456789"
        );
    }

    #[test]
    fn rule_paths_are_told_from_variant_names() {
        assert!(is_rule_path("x.lua") && is_rule_path("a/b") && is_rule_path("a\\b"));
        assert!(!is_rule_path("team"));
        assert!(check_rule_files(&["team".into()]).is_ok());
        let e = check_rule_files(&["/dev/zero".into()]).unwrap_err();
        assert!(e.to_string().contains("not a regular file"), "{e}");
    }
}
