//! House-rule files: which variants name a file on disk, reading one (only
//! a `.lua` regular file is ever read), and the paths a save records for
//! them (relative to the save's folder, so a save and its rules can move
//! together).
//!
//! A game's config carries the text of every house-rule file it uses
//! ([`GameConfig::sources`](crate::GameConfig::sources)), read once when the
//! game starts; saves, traces and replays use that text, not the file.

use crate::error::{CoreError, Result};
use std::path::{Component, Path, PathBuf};

/// The largest house-rule file read (a house rule is a few lines; whole
/// variants are a few kilobytes).
pub const MAX_BYTES: u64 = 1 << 20;

/// Whether a variant names a house-rule file (a path) rather than a variant
/// of the game (a plain name such as `team`).
pub fn is_file(variant: &str) -> bool {
    variant.ends_with(".lua") || variant.contains('/') || variant.contains('\\')
}

fn has_lua_extension(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "lua")
}

/// Why `path` is not read as a house rule, checked without reading it: its
/// name must end in `.lua` and it must be a regular file (through links:
/// the file linked to must be a `.lua` regular file too).
fn refuse(path: &Path) -> Option<String> {
    if !has_lua_extension(path) {
        return Some("its name does not end in .lua".to_string());
    }
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return Some(e.to_string()),
    };
    if !meta.is_file() {
        return Some("it is not a regular file".to_string());
    }
    if meta.len() > MAX_BYTES {
        return Some(format!(
            "it is larger than {} KB ({} bytes)",
            MAX_BYTES / 1024,
            meta.len()
        ));
    }
    match std::fs::canonicalize(path) {
        Ok(target) if !has_lua_extension(&target) => {
            Some("it links to a file whose name does not end in .lua".to_string())
        }
        Ok(_) => None,
        Err(e) => Some(e.to_string()),
    }
}

/// Whether `path` would be read as a house rule, found without reading it:
/// the error [`read`] would give otherwise.
pub fn check(path: &Path) -> Result<()> {
    let Some(why) = refuse(path) else {
        return Ok(());
    };
    let shown = path.display();
    Err(if path.exists() || !has_lua_extension(path) {
        CoreError::Invalid(format!(
            "'{shown}' is not read as a house rule: {why} (a house rule is a .lua file)"
        ))
    } else {
        CoreError::NotFound(format!("house rule file '{shown}': {why}"))
    })
}

/// Read a house-rule file. Anything but a `.lua` regular file of at most
/// [`MAX_BYTES`] is refused without being read, and no part of a refused
/// file ever appears in the error.
pub fn read(path: &Path) -> Result<String> {
    check(path)?;
    crate::files::read_text(path, MAX_BYTES, "house rule")
}

/// `path` with `.` removed and each `..` cancelling the folder before it,
/// without asking the file system (`saves/../rules/x.lua` → `rules/x.lua`).
pub fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::CurDir => {}
            Component::ParentDir => {
                let last = out.components().next_back();
                match last {
                    Some(Component::Normal(_)) => {
                        out.pop();
                    }
                    // `..` at the root stays at the root.
                    Some(Component::RootDir | Component::Prefix(_)) => {}
                    _ => out.push(".."),
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    if out.as_os_str().is_empty() {
        out.push(".");
    }
    out
}

/// The folder a file's relative paths are resolved from: its parent, or
/// the current folder.
fn folder_of(file: &Path) -> &Path {
    match file.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    }
}

/// A house-rule path recorded in a save at `save`, as seen from the current
/// folder: a relative path is relative to the save's folder.
pub fn from_save(variant: &str, save: &Path) -> String {
    let p = Path::new(variant);
    if p.is_absolute() {
        return variant.to_string();
    }
    normalize(&folder_of(save).join(p)).display().to_string()
}

/// A house-rule path given from the current folder, as recorded in a save
/// written to `save`: relative to the save's folder when the two share a
/// folder below the root (`../rules/x.lua`), else absolute.
pub fn to_save(variant: &str, save: &Path) -> String {
    let (Ok(target), Ok(folder)) = (
        std::path::absolute(variant),
        std::path::absolute(folder_of(save)),
    ) else {
        return variant.to_string();
    };
    let (target, folder) = (normalize(&target), normalize(&folder));
    let t: Vec<Component> = target.components().collect();
    let f: Vec<Component> = folder.components().collect();
    let common = t.iter().zip(&f).take_while(|(a, b)| a == b).count();
    // Only the root (or the drive) in common: the absolute path.
    if !t[..common]
        .iter()
        .any(|c| matches!(c, Component::Normal(_)))
    {
        return target.display().to_string();
    }
    let mut out = PathBuf::new();
    for _ in common..f.len() {
        out.push("..");
    }
    for c in &t[common..] {
        out.push(c.as_os_str());
    }
    out.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_are_normalized_without_the_file_system() {
        assert_eq!(
            normalize(Path::new("saves/../rules/./x.lua")),
            Path::new("rules/x.lua")
        );
        assert_eq!(normalize(Path::new("../x.lua")), Path::new("../x.lua"));
        assert_eq!(normalize(Path::new("/../x.lua")), Path::new("/x.lua"));
    }

    #[test]
    fn save_paths_round_trip_through_the_save_folder() {
        let save = Path::new("saves/week1/game.json");
        let stored = to_save("rules/x.lua", save);
        assert_eq!(stored, "../../rules/x.lua");
        assert_eq!(from_save(&stored, save), "rules/x.lua");
        // A save in the current folder keeps the path as given.
        assert_eq!(to_save("rules/x.lua", Path::new("g.json")), "rules/x.lua");
        assert_eq!(from_save("rules/x.lua", Path::new("g.json")), "rules/x.lua");
        // A save and a rule with only the root in common: the absolute path.
        assert_eq!(to_save("/r/x.lua", Path::new("/s/g.json")), "/r/x.lua");
        assert_eq!(from_save("/r/x.lua", save), "/r/x.lua");
        assert_eq!(
            to_save("/home/a/rules/x.lua", Path::new("/home/a/saves/g.json")),
            "../rules/x.lua"
        );
    }

    #[test]
    fn only_lua_regular_files_are_read() {
        let dir = std::env::temp_dir();
        assert!(matches!(
            read(Path::new("/etc/passwd")),
            Err(CoreError::Invalid(m)) if m.contains("does not end in .lua") && !m.contains("root")
        ));
        assert!(matches!(
            read(Path::new("/dev/zero")),
            Err(CoreError::Invalid(_))
        ));
        assert!(matches!(read(&dir), Err(CoreError::Invalid(_))));
        assert!(matches!(
            read(Path::new("/nonexistent/x.lua")),
            Err(CoreError::NotFound(_))
        ));
    }
}
