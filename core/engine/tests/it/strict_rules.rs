//! Strict rules during `modify`: a variant replaces the names its game
//! defines and declares the names it adds (`provides`); any other name is an
//! error at the assigning line. Nested tables stay writable. And the
//! comparison of games played with and without a variant
//! (`variant_effect::compare`), which `deckhand check` uses to warn about a
//! rule that changes nothing.

use crate::toy;

use deckhand_engine::variant_effect::compare;
use deckhand_engine::{Engine, GameConfig};

fn engine(variants: &[(&str, &str)]) -> Engine {
    let paths: Vec<String> = variants
        .iter()
        .map(|(name, _)| format!("high_card/variants/{name}.lua"))
        .collect();
    let files: Vec<(&str, &str)> = paths
        .iter()
        .zip(variants)
        .map(|(path, (_, text))| (path.as_str(), *text))
        .collect();
    Engine::new(toy::library(&files)).expect("engine")
}

fn compose_error(e: &Engine, variants: &[&str]) -> String {
    let names: Vec<String> = variants.iter().map(|s| s.to_string()).collect();
    match e.rules("high_card", &names) {
        Ok(_) => panic!("{variants:?} composed without an error"),
        Err(err) => err.to_string(),
    }
}

fn play(e: &Engine, variants: &[&str], seed: u64) -> deckhand_engine::GameResult {
    let mut cfg = GameConfig::new("high_card", 2, seed);
    cfg.variants = variants.iter().map(|s| s.to_string()).collect();
    let (_, result) = deckhand_engine::Runner::random(2, seed)
        .run(e, cfg, true)
        .expect("a whole game");
    result
}

const TYPO: &str = "return { id = 'typo', game = 'high_card',
  modify = function(R)
    R.setpu = function(game) end
  end }";

#[test]
fn a_misspelled_name_is_an_error_naming_the_file_and_line() {
    let e = engine(&[("typo", TYPO)]);
    let msg = compose_error(&e, &["typo"]);
    assert!(msg.contains("typo.lua:3:"), "{msg}");
    assert!(msg.contains("high_card has no rule `setpu`"), "{msg}");
    assert!(msg.contains("did you mean `setup`?"), "{msg}");
    assert!(msg.contains("provides"), "{msg}");
}

const NEW_HELPER: &str = "return { id = 'helper', game = 'high_card',
  provides = { 'bonus' },
  modify = function(R)
    R.bonus = function(game) return 10 end
    local setup = R.setup
    R.setup = function(game)
      setup(game)
      for s = 1, game.seats do game.vars.score[s] = R.bonus(game) end
    end
  end }";

const REPLACES_HELPER: &str = "return { id = 'more', game = 'high_card',
  modify = function(R)
    R.bonus = function(game) return 100 end
  end }";

#[test]
fn a_declared_new_name_works_and_a_later_variant_may_replace_it() {
    let e = engine(&[("helper", NEW_HELPER), ("more", REPLACES_HELPER)]);
    let plain = play(&e, &[], 3);
    let helped = play(&e, &["helper"], 3);
    for (a, b) in plain.scores.iter().zip(&helped.scores) {
        assert_eq!(a + 10.0, *b, "{plain:?} {helped:?}");
    }
    // The name `helper` provides is a rule of the game from then on.
    let more = play(&e, &["helper", "more"], 3);
    for (a, b) in plain.scores.iter().zip(&more.scores) {
        assert_eq!(a + 100.0, *b, "{plain:?} {more:?}");
    }
    // Without `helper` before it, `more` assigns a name the game lacks.
    let msg = compose_error(&e, &["more"]);
    assert!(msg.contains("more.lua:3:"), "{msg}");
    assert!(msg.contains("no rule `bonus`"), "{msg}");
}

#[test]
fn provides_is_checked() {
    let existing = "return { id = 'dup', game = 'high_card', provides = { 'setup' },
      modify = function(R) end }";
    let unset = "return { id = 'unset', game = 'high_card', provides = { 'extra' },
      modify = function(R) end }";
    let not_a_list = "return { id = 'odd', game = 'high_card', provides = 'extra',
      modify = function(R) R.extra = 1 end }";
    let e = engine(&[("dup", existing), ("unset", unset), ("odd", not_a_list)]);
    let msg = compose_error(&e, &["dup"]);
    assert!(
        msg.contains("provides `setup`, but high_card already defines it"),
        "{msg}"
    );
    let msg = compose_error(&e, &["unset"]);
    assert!(
        msg.contains("provides `extra`, but its modify does not set it"),
        "{msg}"
    );
    let msg = compose_error(&e, &["odd"]);
    assert!(msg.contains("`provides` must be a list of names"), "{msg}");
}

#[test]
fn protocol_names_may_be_added_and_nested_tables_stay_writable() {
    // high_card defines no `evaluate` or `max_steps`: names of the script
    // protocol are always allowed. Inside nested tables (options, bots,
    // players) existing keys and new keys may both be set.
    let nested = "return { id = 'nested', game = 'high_card',
      modify = function(R)
        R.evaluate = function(game, seat) return 0.5 end
        R.max_steps = 1000
        R.options.hand.default = 4
        R.options.hand.note = 'a new key inside a nested table'
        R.bots.first = function(view, decision) return 1 end
        R.players.max = 3
      end }";
    let e = engine(&[("nested", nested)]);
    let rules = e
        .rules("high_card", &["nested".to_string()])
        .expect("composes");
    assert_eq!(rules.info.players.max, 3);
    assert_eq!(rules.info.max_steps, Some(1000));
    assert!(rules.info.bots.iter().any(|b| b == "first"));
    assert_eq!(
        rules.info.options.get("hand").map(|o| o.default.clone()),
        Some(serde_json::json!(4))
    );
    // The same kind of table as a new top-level name is refused.
    let top = "return { id = 'top', game = 'high_card',
      modify = function(R)
        R.options.hand.note = 'fine'
        R.notes = { hand = 'not fine' }
      end }";
    let e = engine(&[("top", top)]);
    let msg = compose_error(&e, &["top"]);
    assert!(msg.contains("top.lua:4:"), "{msg}");
    assert!(msg.contains("no rule `notes`"), "{msg}");
    // A new name inside a nested table is not checked: a misspelled key
    // there is found by reading it (`R.optons.hand` is an error).
    let missing = "return { id = 'missing', game = 'high_card',
      modify = function(R)
        R.optons.hand.default = 4
      end }";
    let e = engine(&[("missing", missing)]);
    let msg = compose_error(&e, &["missing"]);
    assert!(msg.contains("missing.lua:3:"), "{msg}");
}

#[test]
fn rules_are_not_strict_after_composition() {
    // Play reads and writes the composed table as a plain table.
    let e = engine(&[("helper", NEW_HELPER)]);
    let mut cfg = GameConfig::new("high_card", 2, 1);
    cfg.variants = vec!["helper".into()];
    let mut game = e.new_game(cfg, true).expect("a game");
    game.arrange("game.rules.later = 1").expect("arrange");
    let out = game
        .eval_lua("getmetatable(game.rules) == nil and game.rules.later")
        .expect("eval");
    assert_eq!(out, "1");
}

const NO_OP: &str = "return { id = 'no_op', game = 'high_card',
  modify = function(R)
    local apply = R.apply
    R.apply = function(game, seat, action) return apply(game, seat, action) end
  end }";

const FIVE_CARDS: &str = "return { id = 'five', game = 'high_card',
  modify = function(R) R.options.hand.default = 5 end }";

#[test]
fn a_variant_that_changes_nothing_plays_the_same_games() {
    let e = engine(&[("no_op", NO_OP), ("five", FIVE_CARDS)]);
    let base = GameConfig::new("high_card", 0, 1);
    let effect = compare(&e, &base, "no_op", &[2, 3], 5);
    assert!(effect.changed_nothing(), "{effect:?}");
    assert_eq!(effect.games, 10);
    let effect = compare(&e, &base, "five", &[2, 3], 5);
    let diff = effect
        .first_difference
        .expect("five cards change the games");
    assert_eq!((diff.players, diff.seed, diff.what), (2, 1, "the moves"));
    assert_eq!(effect.games, 1, "it stops at the first difference");
}
