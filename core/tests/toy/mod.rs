//! The toy "high card" game the core's tests play (the core knows no real
//! game): a script library with it and a test's own files.

use deckhand_core::{MemorySource, ScriptLibrary};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The toy game's script.
pub const HIGH_CARD: &str = include_str!("../../../tests/fixtures/high_card/game.lua");

/// A library with the toy game and `files` (path in the library, text).
pub fn library(files: &[(&str, &str)]) -> Arc<ScriptLibrary> {
    let mut map = BTreeMap::new();
    map.insert("high_card/game.lua".to_string(), HIGH_CARD.to_string());
    for (path, text) in files {
        map.insert(path.to_string(), text.to_string());
    }
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("test", map)));
    Arc::new(lib)
}
