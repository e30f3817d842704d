//! Where scripts come from: folders given with --scripts or DECKHAND_SCRIPTS,
//! then ./scripts when it looks like a deckhand scripts folder (so edits in
//! a checkout are seen by `reload`), then the scripts built into the binary.

use deckhand_core::{DirSource, MemorySource, ScriptLibrary};
use include_dir::{include_dir, Dir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

static BUILT_IN: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../scripts");

fn collect(dir: &Dir<'_>, out: &mut BTreeMap<String, String>) {
    for f in dir.files() {
        if let Some(text) = f.contents_utf8() {
            out.insert(
                f.path().to_string_lossy().replace('\\', "/"),
                text.to_string(),
            );
        }
    }
    for d in dir.dirs() {
        collect(d, out);
    }
}

/// The built-in scripts as an in-memory source named `scripts`.
pub fn built_in() -> MemorySource {
    let mut files = BTreeMap::new();
    collect(&BUILT_IN, &mut files);
    MemorySource::new("scripts", files)
}

/// The search path for this run.
pub fn library(extra: &[PathBuf]) -> Arc<ScriptLibrary> {
    let mut lib = ScriptLibrary::new();
    let mut dirs: Vec<PathBuf> = extra.to_vec();
    if let Ok(env) = std::env::var("DECKHAND_SCRIPTS") {
        dirs.extend(std::env::split_paths(&env));
    }
    let local = Path::new("scripts");
    if local.join("lib").is_dir() && !dirs.iter().any(|d| d == local) {
        dirs.push(local.to_path_buf());
    }
    for d in dirs {
        lib.push(Arc::new(DirSource::new(d)));
    }
    lib.push(Arc::new(built_in()));
    Arc::new(lib)
}
