//! The scripts search path: folders on disk, then scripts built into the
//! binary. A path is relative to a source root, `/`-separated
//! (`sea_change/game.lua`, `lib/trick.lua`).

use std::collections::BTreeMap;
use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Somewhere scripts can be read from.
pub trait ScriptSource: Send + Sync + Debug {
    /// The text of a script, if this source has it.
    fn read(&self, path: &str) -> Option<String>;
    /// Names directly under `dir` ("" for the root), sorted.
    fn list(&self, dir: &str) -> Vec<String>;
    /// How error messages name a file of this source.
    fn display_path(&self, path: &str) -> String;
    /// A one-line description for `deckhand games`.
    fn describe(&self) -> String;
}

/// Scripts held in memory (the built-in scripts, or tests).
#[derive(Debug, Clone, Default)]
pub struct MemorySource {
    label: String,
    files: BTreeMap<String, String>,
}

impl MemorySource {
    /// An in-memory source named `label` (its files show as `label/path`).
    pub fn new(label: &str, files: BTreeMap<String, String>) -> Self {
        MemorySource {
            label: label.to_string(),
            files,
        }
    }
}

impl ScriptSource for MemorySource {
    fn read(&self, path: &str) -> Option<String> {
        self.files.get(path).cloned()
    }
    fn list(&self, dir: &str) -> Vec<String> {
        let prefix = if dir.is_empty() {
            String::new()
        } else {
            format!("{}/", dir.trim_end_matches('/'))
        };
        let mut names: Vec<String> = self
            .files
            .keys()
            .filter_map(|k| k.strip_prefix(&prefix))
            .map(|rest| rest.split('/').next().unwrap_or(rest).to_string())
            .collect();
        names.dedup();
        names
    }
    fn display_path(&self, path: &str) -> String {
        format!("{}/{}", self.label, path)
    }
    fn describe(&self) -> String {
        format!("built-in ({} files)", self.files.len())
    }
}

/// Scripts in a folder on disk, read afresh on every load (so `reload` sees edits).
#[derive(Debug, Clone)]
pub struct DirSource {
    root: PathBuf,
}

impl DirSource {
    pub fn new(root: impl Into<PathBuf>) -> Self {
        DirSource { root: root.into() }
    }
}

impl ScriptSource for DirSource {
    fn read(&self, path: &str) -> Option<String> {
        std::fs::read_to_string(self.root.join(path)).ok()
    }
    fn list(&self, dir: &str) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(self.root.join(dir))
            .map(|rd| {
                rd.filter_map(|e| e.ok())
                    .map(|e| e.file_name().to_string_lossy().into_owned())
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
    }
    fn display_path(&self, path: &str) -> String {
        self.root.join(path).display().to_string()
    }
    fn describe(&self) -> String {
        self.root.display().to_string()
    }
}

/// The ordered search path; the first source that has a file wins.
#[derive(Debug, Clone, Default)]
pub struct ScriptLibrary {
    sources: Vec<Arc<dyn ScriptSource>>,
}

/// A script's text and the name error messages give it.
#[derive(Debug, Clone)]
pub struct ScriptText {
    pub chunk_name: String,
    pub text: String,
}

impl ScriptLibrary {
    pub fn new() -> Self {
        Self::default()
    }

    /// Add a source after the ones already there.
    pub fn push(&mut self, source: Arc<dyn ScriptSource>) {
        self.sources.push(source);
    }

    /// The sources, in search order.
    pub fn sources(&self) -> &[Arc<dyn ScriptSource>] {
        &self.sources
    }

    /// Find a file on the search path.
    pub fn read(&self, path: &str) -> Option<ScriptText> {
        self.sources.iter().find_map(|s| {
            s.read(path).map(|text| ScriptText {
                chunk_name: s.display_path(path),
                text,
            })
        })
    }

    /// Names under `dir` across all sources, sorted and without duplicates.
    pub fn list(&self, dir: &str) -> Vec<String> {
        let mut all: Vec<String> = self.sources.iter().flat_map(|s| s.list(dir)).collect();
        all.sort();
        all.dedup();
        all
    }

    /// Read a script given by a path on disk (a house rule kept anywhere):
    /// only a `.lua` regular file is read (see [`crate::house_rule::read`]).
    pub fn read_file(path: &Path) -> crate::error::Result<ScriptText> {
        Ok(ScriptText {
            chunk_name: path.display().to_string(),
            text: crate::house_rule::read(path)?,
        })
    }

    /// The file a `require` name maps to: `lib.trick` → `lib/trick.lua`.
    /// Only plain names are allowed, so `require` cannot leave the search path.
    pub fn module_path(name: &str) -> Option<String> {
        let ok = !name.is_empty()
            && name.split('.').all(|part| {
                !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
            });
        ok.then(|| format!("{}.lua", name.replace('.', "/")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_names_cannot_escape_the_search_path() {
        assert_eq!(
            ScriptLibrary::module_path("lib.trick").as_deref(),
            Some("lib/trick.lua")
        );
        assert_eq!(ScriptLibrary::module_path("../etc/passwd"), None);
        assert_eq!(ScriptLibrary::module_path("a..b"), None);
        assert_eq!(ScriptLibrary::module_path("/abs"), None);
    }

    #[test]
    fn first_source_wins_and_lists_merge() {
        let mut a = BTreeMap::new();
        a.insert("g/game.lua".to_string(), "A".to_string());
        let mut b = BTreeMap::new();
        b.insert("g/game.lua".to_string(), "B".to_string());
        b.insert("h/game.lua".to_string(), "H".to_string());
        let mut lib = ScriptLibrary::new();
        lib.push(Arc::new(MemorySource::new("one", a)));
        lib.push(Arc::new(MemorySource::new("two", b)));
        let g = lib.read("g/game.lua").map(|s| (s.chunk_name, s.text));
        assert_eq!(g, Some(("one/g/game.lua".to_string(), "A".to_string())));
        assert_eq!(lib.list(""), vec!["g".to_string(), "h".to_string()]);
    }
}
