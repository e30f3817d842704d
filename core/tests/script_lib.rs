//! Helpers of the shipped scripts' shared library (scripts/lib) that the
//! games rely on.

use deckhand_core::{DirSource, Engine, ScriptLibrary};
use std::path::PathBuf;
use std::sync::Arc;

fn engine() -> Engine {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../scripts"),
    )));
    Engine::new(Arc::new(lib)).expect("engine over scripts/")
}

#[test]
fn util_best_reads_values_from_a_function_or_a_table_alike() {
    let e = engine();
    // Items 1..5 worth 3, 7, 7, 1, 1: the top two tie, as do the bottom two.
    let code = r#"
        local util = require("lib.util")
        local worth = { 3, 7, 7, 1, 1 }
        local items = util.range(5)
        local function show(list, v) return table.concat(list, ",") .. "=" .. tostring(v) end
        return table.concat({
          show(util.best(items, function(i) return worth[i] end)),
          show(util.best(items, worth)),
          show(util.best(items, function(i) return worth[i] end, true)),
          show(util.best(items, worth, true)),
          show(util.best({ 4, 1, 5 }, worth, true)),
        }, " ")
    "#;
    let out = e.host().eval(code, None).expect("eval");
    // (The host shows a string result quoted.)
    assert_eq!(out, "\"2,3=7 2,3=7 4,5=1 4,5=1 4,5=1\"");
}
