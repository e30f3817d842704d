//! Saves and house-rule files, through the core's public API on the toy
//! "high card" game: a save carries the text of its house rules and replays
//! the same whatever becomes of the files, an edited file is noticed, only
//! `.lua` regular files are ever read, and composed rules are never shared
//! between two texts under one path.

use deckhand_engine::{
    CoreError, Engine, GameConfig, HouseRuleNote, MemorySource, SaveFile, ScriptLibrary, SeatView,
};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The toy "high card" game shared with the other crate's tests.
const HIGH_CARD: &str = include_str!("../../../../tests/fixtures/high_card/game.lua");

/// A house rule of High Card that deals `hand` cards by default.
fn hand_rule(hand: u32) -> String {
    format!(
        "return {{ id = \"hand{hand}\", title = \"{hand} cards\", game = \"high_card\",\n\
         modify = function(R) R.options.hand.default = {hand} end }}\n"
    )
}

fn engine() -> Engine {
    let mut files = BTreeMap::new();
    files.insert("high_card/game.lua".to_string(), HIGH_CARD.to_string());
    files.insert(
        "high_card/variants/odd.lua".to_string(),
        "return { id = \"odd\", title = \"Odd\", game = \"high_card\", modify = function(R) end }"
            .to_string(),
    );
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("test", files)));
    Engine::new(Arc::new(lib)).expect("engine")
}

fn path_text(p: &Path) -> String {
    p.display().to_string()
}

/// A game of High Card with the house rule at `rule` (read now, as the
/// front end does when a game starts), played `steps` moves, saved to
/// `save`. Returns the table as an observer sees it.
fn play_and_save(rule: &Path, save: &Path, steps: usize) -> SeatView {
    let mut cfg = GameConfig::new("high_card", 3, 11).variant(&path_text(rule));
    cfg.read_house_rules(false).expect("read the house rule");
    let e = engine();
    let mut g = e.new_game(cfg, true).expect("start");
    for _ in 0..steps {
        g.apply(1).expect("apply");
    }
    SaveFile::of(&g, vec![])
        .expect("save")
        .relative_to(save)
        .write(save)
        .expect("write");
    g.view(None).expect("view")
}

/// Load a save as the front end does: read it, resolve its house rules
/// (notes for the user), replay it on a fresh engine.
fn load(save: &Path) -> Result<(SeatView, Vec<HouseRuleNote>), String> {
    let mut s = SaveFile::read(save).map_err(|e| e.to_string())?;
    let notes = s.resolve_house_rules(save).map_err(|e| e.to_string())?;
    let g = engine()
        .replay(s.config.clone(), &s.actions)
        .map_err(|stop| stop.error.to_string())?;
    Ok((g.view(None).map_err(|e| e.to_string())?, notes))
}

#[test]
fn a_save_replays_the_same_after_its_house_rule_is_edited_or_deleted() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = dir.path().join("rule.lua");
    std::fs::write(&rule, hand_rule(2)).expect("write rule");
    let save = dir.path().join("game.json");
    let played = play_and_save(&rule, &save, 2);
    assert_eq!(played.vars["steps"], 2);

    // As saved: the same table, nothing to say.
    let (view, notes) = load(&save).expect("load");
    assert_eq!(view, played);
    assert!(notes.is_empty(), "{notes:?}");

    // The file now deals 4 cards: the saved game still deals 2, and the
    // edited file is named.
    std::fs::write(&rule, hand_rule(4)).expect("edit rule");
    let (view, notes) = load(&save).expect("load after the edit");
    assert_eq!(view, played);
    assert_eq!(
        notes,
        vec![HouseRuleNote::Differs {
            file: path_text(&rule)
        }]
    );

    // The file is gone: the save still plays.
    std::fs::remove_file(&rule).expect("delete rule");
    let (view, notes) = load(&save).expect("load without the file");
    assert_eq!(view, played);
    assert!(notes.is_empty(), "{notes:?}");
}

#[test]
fn a_save_records_house_rules_relative_to_its_folder() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::create_dir_all(dir.path().join("rules")).expect("mkdir");
    std::fs::create_dir_all(dir.path().join("saves")).expect("mkdir");
    let rule = dir.path().join("rules").join("rule.lua");
    std::fs::write(&rule, hand_rule(2)).expect("write rule");
    let save = dir.path().join("saves").join("game.json");
    play_and_save(&rule, &save, 1);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("read")).expect("json");
    assert_eq!(json["config"]["variants"][0], "../rules/rule.lua");
    assert_eq!(json["config"]["sources"]["../rules/rule.lua"], hand_rule(2));

    // Moved together, the save finds its rule where it is now.
    let moved = tempfile::tempdir().expect("tmp");
    let to = moved.path().join("box");
    std::fs::rename(dir.path(), &to).expect("move the folder");
    std::fs::write(to.join("rules").join("rule.lua"), hand_rule(3)).expect("edit");
    let (_, notes) = load(&to.join("saves").join("game.json")).expect("load");
    assert_eq!(
        notes,
        vec![HouseRuleNote::Differs {
            file: path_text(&to.join("rules").join("rule.lua"))
        }]
    );
}

/// A save of a game of High Card written by an older build: no texts.
fn old_save(variant: &str) -> String {
    serde_json::json!({
        "format": 1,
        "config": {"game": "high_card", "variants": [variant], "options": {}, "players": 3, "seed": 11},
        "seats": [],
        "actions": [],
    })
    .to_string()
}

#[test]
fn an_old_save_reads_its_lua_house_rule_and_says_so() {
    let dir = tempfile::tempdir().expect("tmp");
    std::fs::write(dir.path().join("rule.lua"), hand_rule(2)).expect("write rule");
    let save = dir.path().join("old.json");
    std::fs::write(&save, old_save("rule.lua")).expect("write save");
    // "rule.lua" is relative to the save's folder, not the current one.
    let (view, notes) = load(&save).expect("load");
    let file = path_text(&dir.path().join("rule.lua"));
    assert_eq!(notes, vec![HouseRuleNote::Read { file }]);
    let hand = view.zones.iter().find(|z| z.name == "hand").expect("hand");
    assert_eq!(hand.count, 2);
}

#[test]
fn a_save_naming_a_file_that_is_not_a_lua_script_is_refused_unread() {
    let dir = tempfile::tempdir().expect("tmp");
    // A secret Lua would quote in a syntax error ("near 'SECRET42'").
    let secret = dir.path().join("notes.txt");
    std::fs::write(&secret, "token SECRET42\n").expect("write");
    let folder = dir.path().join("folder.lua");
    std::fs::create_dir(&folder).expect("mkdir");
    let link = dir.path().join("link.lua");
    let linked = std::os::unix::fs::symlink(&secret, &link).is_ok();
    let mut cases = vec![
        ("/etc/passwd".to_string(), "does not end in .lua"),
        (path_text(&secret), "does not end in .lua"),
        // A plain name is a variant of the game, looked for on the search path.
        (
            "notes.txt".to_string(),
            "variant 'notes.txt' of 'high_card'",
        ),
        (path_text(&folder), "not a regular file"),
        ("/dev/zero".to_string(), "does not end in .lua"),
        ("missing.lua".to_string(), "No such file"),
    ];
    if linked {
        cases.push(("link.lua".to_string(), "links to a file"));
    }
    for (variant, why) in cases {
        let save = dir.path().join("bad.json");
        std::fs::write(&save, old_save(&variant)).expect("write save");
        let err = load(&save).expect_err(&variant);
        assert!(err.contains(why), "{variant}: {err}");
        for leak in ["SECRET42", "root:", "token"] {
            assert!(!err.contains(leak), "{variant}: {err}");
        }
    }
}

#[test]
fn a_save_cannot_replace_a_variant_of_the_game_with_its_own_text() {
    let mut text: serde_json::Value = serde_json::from_str(&old_save("odd")).expect("json");
    text["config"]["sources"] = serde_json::json!({"odd": "return {}"});
    let err = SaveFile::parse(&text.to_string()).expect_err("refused");
    assert!(
        matches!(&err, CoreError::BadSave(m) if m.contains("'odd'")),
        "{err}"
    );
}

#[test]
fn two_texts_under_one_path_are_two_rules() {
    let e = engine();
    let path = "rules/same.lua";
    let with = |hand: u32| {
        let mut cfg = GameConfig::new("high_card", 3, 1).variant(path);
        cfg.sources.insert(path.to_string(), hand_rule(hand));
        let g = e.new_game(cfg, false).expect("start");
        g.options()["hand"].clone()
    };
    assert_eq!(with(2), 2);
    assert_eq!(with(4), 4);
    assert_eq!(with(2), 2);
    // The rules alone, asked for the same way.
    let mut cfg = GameConfig::new("high_card", 3, 1).variant(path);
    cfg.sources.insert(path.to_string(), hand_rule(3));
    let info = e.rules_of(&cfg).expect("rules").info.clone();
    assert_eq!(info.options["hand"].default, 3);
}

#[test]
fn reading_house_rules_again_takes_the_new_text() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule: PathBuf = dir.path().join("rule.lua");
    std::fs::write(&rule, hand_rule(2)).expect("write");
    let mut cfg = GameConfig::new("high_card", 3, 1).variant(&path_text(&rule));
    cfg.read_house_rules(false).expect("read");
    std::fs::write(&rule, hand_rule(4)).expect("edit");
    cfg.read_house_rules(false).expect("read");
    assert_eq!(cfg.sources[&path_text(&rule)], hand_rule(2), "kept");
    cfg.read_house_rules(true).expect("read again");
    assert_eq!(cfg.sources[&path_text(&rule)], hand_rule(4), "read again");
}

#[test]
fn a_game_started_without_the_text_reads_its_house_rule_once_and_keeps_it() {
    let dir = tempfile::tempdir().expect("tmp");
    let rule = dir.path().join("rule.lua");
    std::fs::write(&rule, hand_rule(2)).expect("write");
    let cfg = GameConfig::new("high_card", 3, 1).variant(&path_text(&rule));
    let e = engine();
    let mut g = e.new_game(cfg, true).expect("start");
    assert_eq!(g.config().sources[&path_text(&rule)], hand_rule(2));
    std::fs::write(&rule, hand_rule(4)).expect("edit");
    // Undo rebuilds the game from its config: still the rule it started with.
    g.apply(1).expect("apply");
    g.undo().expect("undo");
    assert_eq!(g.options()["hand"], 2);
    let save = SaveFile::of(&g, vec![]).expect("save");
    assert_eq!(save.config.sources[&path_text(&rule)], hand_rule(2));
}
