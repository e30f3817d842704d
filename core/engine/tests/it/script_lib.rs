//! Helpers of the shipped scripts' shared library (scripts/lib) that the
//! games rely on.

use deckhand_engine::{DirSource, Engine, ScriptLibrary};
use std::path::PathBuf;
use std::sync::Arc;

fn engine() -> Engine {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts"),
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

#[test]
fn util_sort_first_sorts_only_the_first_n_entries_by_the_order_given() {
    let e = engine();
    // Entries past n stay where they are; the order reads its context; a
    // list of options is sorted by a field; equal keys keep their order
    // (an insertion sort is stable).
    let code = r#"
        local util = require("lib.util")
        local ids = { 9, 4, 7, 1, 8, 2 }
        util.sort_first(ids, 4, function(_, a, b) return a < b end)
        local worth = { [1] = 5, [2] = 5, [3] = 1, [4] = 9 }
        local by_worth = { 1, 2, 3, 4 }
        util.sort_first(by_worth, 4, function(w, a, b) return w[a] > w[b] end, worth)
        local opts = { { card = 30 }, { card = 10 }, { card = 20 } }
        util.sort_first(opts, #opts, function(_, a, b) return a.card < b.card end)
        local cards = {}
        for i, o in ipairs(opts) do cards[i] = o.card end
        local one = util.sort_first({ 5 }, 1, function(_, a, b) return a < b end)
        return table.concat({
          table.concat(ids, ","), table.concat(by_worth, ","),
          table.concat(cards, ","), table.concat(one, ","),
        }, " ")
    "#;
    let out = e.host().eval(code, None).expect("eval");
    assert_eq!(out, "\"1,4,7,9,8,2 4,1,2,3 10,20,30 5\"");
}

#[test]
fn the_rules_name_every_script_they_ran_with_a_hash_of_its_text() {
    use deckhand_engine::GameConfig;
    let scripts = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../scripts");
    let house_rule = scripts
        .join("house_rules/five_vp.lua")
        .display()
        .to_string();
    let config = GameConfig::new("sea_change", 4, 1)
        .variant("team")
        .variant(&house_rule);
    let listed = engine().scripts_of(&config).expect("rules");
    let names: Vec<&str> = listed.iter().map(|(n, _)| n.as_str()).collect();
    for name in [
        "deckhand/prelude.lua",
        "deckhand/guards.lua",
        "sea_change/game.lua",
        "lib/trick.lua",
        "lib/util.lua",
        "lib/phases.lua",
        "sea_change/variants/team.lua",
        &house_rule,
    ] {
        assert!(names.contains(&name), "{name} in {names:?}");
    }
    let text = std::fs::read_to_string(scripts.join("sea_change/game.lua")).expect("read");
    let game_hash = deckhand_engine::digest::text_hash(&text);
    assert!(listed.contains(&("sea_change/game.lua".to_string(), game_hash.clone())));
    // A folder ahead of the scripts with an edited copy of the game file:
    // that file's hash differs, and nothing else.
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir(dir.path().join("sea_change")).expect("mkdir");
    std::fs::write(
        dir.path().join("sea_change/game.lua"),
        text.replacen("local", "local  ", 1),
    )
    .expect("write");
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(dir.path())));
    lib.push(Arc::new(DirSource::new(scripts)));
    let edited = Engine::new(Arc::new(lib))
        .expect("engine")
        .scripts_of(&config)
        .expect("rules");
    let differing: Vec<&str> = listed
        .iter()
        .zip(&edited)
        .filter(|(a, b)| a != b)
        .map(|(a, _)| a.0.as_str())
        .collect();
    assert_eq!(listed.len(), edited.len());
    assert_eq!(differing, vec!["sea_change/game.lua"]);
}
