//! Where scripts come from: folders given with --scripts or DECKHAND_SCRIPTS,
//! then ./scripts when it looks like a deckhand scripts folder (so edits in
//! a checkout are seen by `reload`), then the scripts built into the binary.

use deckhand_engine::{DirSource, MemorySource, ScriptLibrary};
use include_dir::{include_dir, Dir};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

static BUILT_IN: Dir<'_> = include_dir!("$CARGO_MANIFEST_DIR/../scripts");

fn collect(dir: &'static Dir<'static>, out: &mut BTreeMap<String, &'static [u8]>) {
    for f in dir.files() {
        out.insert(f.path().to_string_lossy().replace('\\', "/"), f.contents());
    }
    for d in dir.dirs() {
        collect(d, out);
    }
}

/// Every file of the built-in scripts, by its path in the scripts folder
/// (`sea_change/game.lua`), in path order.
pub fn built_in_files() -> BTreeMap<String, &'static [u8]> {
    let mut files = BTreeMap::new();
    collect(&BUILT_IN, &mut files);
    files
}

/// The built-in scripts as an in-memory source named `scripts`.
pub fn built_in() -> MemorySource {
    let files = built_in_files()
        .into_iter()
        .filter_map(|(path, bytes)| Some((path, std::str::from_utf8(bytes).ok()?.to_string())))
        .collect();
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
