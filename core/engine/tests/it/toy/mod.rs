//! The toy "high card" game the core's tests play (the core knows no real
//! game): a script library with it and a test's own files.

use deckhand_engine::lua::Limits;
use deckhand_engine::{Engine, MemorySource, ScriptLibrary};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The toy game's script.
pub const HIGH_CARD: &str = include_str!("../../../../../tests/fixtures/high_card/game.lua");

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

/// The toy game and `extra` files, in an engine that counts instructions
/// (compiler off, ordinary primitives) and in one that does not (compiler
/// on, direct calls).
#[allow(dead_code)] // not every test file that shares this module uses it
pub fn both_engines(extra: &[(&str, &str)]) -> [(&'static str, Engine); 2] {
    let lib = library(extra);
    let compiled = Limits {
        instructions: None,
        ..Limits::default()
    };
    [
        ("counted", Engine::new(lib.clone()).expect("engine")),
        (
            "compiled",
            Engine::with_limits(lib, compiled).expect("engine"),
        ),
    ]
}
