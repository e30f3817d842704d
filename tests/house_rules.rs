//! Each example house rule in scripts/house_rules/ changes what it says, and
//! nothing is needed beyond the file.

use crate::common;

use common::*;
use deckhand_engine::{GameConfig, Runner};
use serde_json::json;

fn rule(file: &str) -> String {
    scripts_dir()
        .join("house_rules")
        .join(file)
        .display()
        .to_string()
}

const SLUFF: &str = "clear(); give(1, {'Blue 5', 'Yellow 9'}); give(2, {'Purple 8', 'Yellow 10'}); give(3, {'Blue 4', 'Purple 9'})
  game.vars.trump = 'yellow'; game.vars.lead = nil; game.vars.leader = 1; game.vars.turn = 1
  game.vars.trick_players = {}; game.vars.last_trick_players = {}; game.vars.trick_no = 2; game.vars.points = {0,0,0}";

fn sluff_points(variants: &[String]) -> serde_json::Value {
    let mut cfg = GameConfig::new("sea_change", 3, 1).option("suits", "blue,purple,yellow");
    cfg.variants = variants.to_vec();
    let mut g = scenario(cfg, SLUFF);
    play(&mut g, 1, "Blue 5");
    play(&mut g, 2, "Purple 8");
    play(&mut g, 3, "Blue 4");
    script_events(&g.take_events(), "trick_won")[0]["points"].clone()
}

#[test]
fn eights_minus_five_changes_the_sluffing_example() {
    assert_eq!(sluff_points(&[]), json!(-4));
    assert_eq!(sluff_points(&[rule("eights_minus_five.lua")]), json!(-5));
}

#[test]
fn five_vp_plays_to_five() {
    let e = engine();
    let cfg = GameConfig::new("sea_change", 3, 4).variant(&rule("five_vp.lua"));
    let mut g = e.new_game(cfg, false).expect("start");
    assert_eq!(g.options()["target_vp"], json!(5));
    let r = play_to_end(&mut Runner::shared(3, by(|_, n| n)), &mut g);
    let best = r.scores.iter().cloned().fold(0.0, f64::max);
    assert_eq!(
        best, 5.0,
        "the game ends when someone reaches 5 VP: {:?}",
        r.scores
    );
}

#[test]
fn no_sea_change_when_following_keeps_trump() {
    // Yellow trump. Daniel leads Blue 9, Maureen sluffs Purple 4, Ann plays
    // Blue 4: it follows suit AND matches the last card's value.
    let lua = "clear(); give(1, {'Blue 9', 'Yellow 9'}); give(2, {'Purple 4', 'Yellow 10'}); give(3, {'Blue 4', 'Purple 9'})
      game.vars.trump = 'yellow'; game.vars.lead = nil; game.vars.leader = 1; game.vars.turn = 1
      game.vars.trick_players = {}; game.vars.last_trick_players = {}; game.vars.trick_no = 2; game.vars.points = {0,0,0}";
    let run = |variants: Vec<String>| {
        let mut cfg = GameConfig::new("sea_change", 3, 1).option("suits", "blue,purple,yellow");
        cfg.variants = variants;
        let mut g = scenario(cfg, lua);
        play(&mut g, 1, "Blue 9");
        play(&mut g, 2, "Purple 4");
        play(&mut g, 3, "Blue 4");
        (
            var(&g, "trump"),
            script_events(&g.take_events(), "trick_won")[0]["winner"].clone(),
        )
    };
    // By the rulebook the Blue 4 is a Sea Change: Blue becomes trump, Daniel's Blue 9 wins.
    assert_eq!(run(vec![]), (json!("blue"), json!(1)));
    // With the house rule trump stays Yellow; nobody played Yellow, so the
    // highest Blue (the lead suit) still wins.
    assert_eq!(
        run(vec![rule("no_sea_change_when_following.lua")]),
        (json!("yellow"), json!(1))
    );
}

#[test]
fn seadogs_big_bank_adds_fifteen_gold_at_every_count() {
    let e = engine();
    for (players, bank) in [(2, 30), (4, 40), (6, 50)] {
        let plain = e
            .new_game(GameConfig::new("seadogs", players, 1), false)
            .expect("start");
        assert_eq!(plain.vars().expect("vars")["bank"], json!(bank));
        let cfg = GameConfig::new("seadogs", players, 1).variant(&rule("seadogs_big_bank.lua"));
        let g = e.new_game(cfg, false).expect("start");
        assert_eq!(g.vars().expect("vars")["bank"], json!(bank + 15));
        assert_eq!(
            g.vars().expect("vars")["gold_total"],
            json!(bank + 15 + 3 * players)
        );
    }
}

/// A house rule (a file of its own) that counts `name` at every step.
fn counting_rule(dir: &std::path::Path, name: &str) -> String {
    let path = dir.join(format!("count_{name}.lua"));
    std::fs::write(
        &path,
        format!(
            "local util = require 'lib.util'\n\
             return {{ id = 'count_{name}', game = 'sea_change', modify = function(R)\n\
             local apply = R.apply\n\
             R.apply = function(game, seat, action)\n\
             util.count(game, '{name}')\n\
             return apply(game, seat, action)\n\
             end\n\
             R.metrics.steps_per_round = {{ doc = 'steps per round',\n\
             value = function(game) return util.per(game, '{name}', 'rounds') end }}\n\
             end }}"
        ),
    )
    .expect("write rule");
    path.display().to_string()
}

#[test]
fn a_house_rule_cannot_count_into_the_games_counters() {
    let dir = tempfile::tempdir().expect("temp dir");
    let e = engine();
    // Its own counter: counted, and read beside the game's `rounds`.
    let mut cfg = GameConfig::new("sea_change", 3, 7);
    cfg.variants = vec![counting_rule(dir.path(), "steps")];
    let mut g = e.new_game(cfg, false).expect("start");
    Runner::shared(3, |g: &deckhand_engine::Game| {
        Ok(g.pending().map_or(1, |p| p.1))
    })
    .play(&mut g)
    .expect("plays to the end");
    let metrics = g.metrics().expect("metrics");
    let per_round = metrics
        .iter()
        .find(|(name, _)| name == "steps_per_round")
        .and_then(|(_, v)| *v)
        .expect("steps per round");
    assert!(per_round > 3.0, "{per_round}");
    // The game's own counter: refused, naming both.
    let mut cfg = GameConfig::new("sea_change", 3, 7);
    let rule = counting_rule(dir.path(), "rounds");
    cfg.variants = vec![rule.clone()];
    let mut g = e.new_game(cfg, false).expect("start");
    let err = Runner::shared(3, |g: &deckhand_engine::Game| {
        Ok(g.pending().map_or(1, |p| p.1))
    })
    .play(&mut g)
    .expect_err("counted twice")
    .to_string();
    assert!(
        err.contains("counter 'rounds' is counted both by") && err.contains("count_rounds.lua"),
        "{err}"
    );
}

/// docs/house-rules.md's example of a new decision: the leader names trump
/// before every round's first lead. Played as the page says: the first
/// decision of a round is the leader's, one option per suit in play; the
/// suit named is trump and the leader then leads; whole games with the
/// greedy bot name trump at every round and end.
#[test]
fn leader_names_trump_adds_a_decision_before_every_round() {
    let e = engine();
    let cfg = GameConfig::new("sea_change", 3, 5).variant(&rule("leader_names_trump.lua"));
    let mut g = e.new_game(cfg, true).expect("start");
    assert_eq!(
        g.decision_kind().expect("kind").as_deref(),
        Some("name_trump")
    );
    let d = g.decision().expect("decision").expect("pending");
    let leader = var(&g, "leader");
    assert_eq!(json!(d.seat), leader);
    assert_eq!(d.prompt, "Name trump for this round (you lead next)");
    let texts: Vec<&str> = d.options.iter().map(|o| o.text.as_str()).collect();
    assert_eq!(
        texts,
        ["Name Blue trump", "Name Green trump", "Name Red trump"]
    );
    assert_eq!(var(&g, "trump"), json!(null));
    g.apply(3).expect("name red");
    assert_eq!(var(&g, "trump"), json!("red"));
    let named = script_events(&g.take_events(), "trump_named");
    assert_eq!(named.len(), 1, "{named:?}");
    // The leader leads; the first card does not change trump.
    assert_eq!(g.decision_kind().expect("kind").as_deref(), Some("play"));
    let d = g.decision().expect("decision").expect("pending");
    assert_eq!(json!(d.seat), leader);
    assert_eq!(d.prompt, "Lead a card (trump Red)");
    let lead = d
        .options
        .iter()
        .position(|o| !o.text.starts_with("Red"))
        .expect("a card that is not red");
    g.apply(lead + 1).expect("lead");
    assert_eq!(var(&g, "trump"), json!("red"));

    // Whole games with the game's own bot: every round starts with the
    // leader naming trump.
    for seed in 1..=3 {
        let cfg = GameConfig::new("sea_change", 4, seed).variant(&rule("leader_names_trump.lua"));
        let mut g = e.new_game(cfg, false).expect("start");
        let mut bots = bots_for(&["greedy"; 4], seed, 4);
        let mut named = 0;
        let mut steps = 0;
        while let Some((seat, _)) = g.pending() {
            if g.decision_kind().expect("kind").as_deref() == Some("name_trump") {
                named += 1;
                assert_eq!(var(&g, "trump"), json!(null));
                assert_eq!(json!(seat), var(&g, "leader"));
            }
            let choice = bots[seat as usize - 1].choose(&g).expect("the bot chooses");
            Runner::new(Vec::new())
                .apply(&mut g, choice)
                .expect("the move applies");
            steps += 1;
            assert!(steps < 5000, "the game did not end");
        }
        let rounds_seen = var(&g, "round").as_u64().unwrap_or(0);
        assert!(rounds_seen >= 1);
        assert_eq!(
            named as u64, rounds_seen,
            "seed {seed}: a trump named per round"
        );
    }
}

/// A variant declares the variants it builds on (`requires = {"passing"}`):
/// without them, or with them after it, the rules refuse with a clear
/// message naming what to add; with them before it, it plays.
#[test]
fn a_variant_that_requires_another_says_so_when_it_is_missing() {
    let dir = tempfile::tempdir().expect("tmp");
    let needs = dir.path().join("needs_passing.lua");
    std::fs::write(
        &needs,
        "return {\n  id = 'needs_passing', game = 'seas_of_strife', requires = { 'passing' },\n  \
         modify = function(rules)\n    local pass_count = rules.pass_count\n    \
         rules.pass_count = function(...) return pass_count(...) end\n  end,\n}\n",
    )
    .expect("write");
    let needs = needs.display().to_string();
    let e = engine();
    let start = |variants: &[&str]| {
        let mut cfg = GameConfig::new("seas_of_strife", 4, 1);
        cfg.variants = variants.iter().map(|v| v.to_string()).collect();
        e.new_game(cfg, false)
            .map(|_| ())
            .map_err(|err| err.to_string())
    };
    let missing = start(&[&needs]).expect_err("passing is missing");
    assert!(
        missing.contains(
            "variant 'needs_passing' requires variant 'passing': add `-v passing` before it"
        ),
        "{missing}"
    );
    let after = start(&[&needs, "passing"]).expect_err("passing comes after it");
    assert!(
        after.contains(
            "variant 'needs_passing' requires variant 'passing' applied before it: give `-v passing` first"
        ),
        "{after}"
    );
    start(&["passing", &needs]).expect("passing, then the rule that needs it");

    // At the command line, the same words.
    let o = deckhand(&["sim", "seas_of_strife", "-v", &needs, "-n", "2"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success());
    assert!(
        err.contains("requires variant 'passing': add `-v passing` before it"),
        "{err}"
    );
    let o = deckhand(&[
        "sim",
        "seas_of_strife",
        "-v",
        "passing",
        "-v",
        &needs,
        "-n",
        "2",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // `requires` is a list.
    let bad = dir.path().join("bad_requires.lua");
    std::fs::write(
        &bad,
        "return { id = 'bad_requires', game = 'seas_of_strife', requires = 'passing',\n  \
         modify = function(rules) end }\n",
    )
    .expect("write");
    let err = start(&["passing", &bad.display().to_string()]).expect_err("not a list");
    assert!(
        err.contains("`requires` must be a list of variant names"),
        "{err}"
    );
}

/// `check` warns of a metric that is nil at the end of every game (no
/// report would show it), and not of one that counts.
#[test]
fn check_warns_of_a_metric_that_is_always_nil() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("metrics.lua");
    std::fs::write(
        &file,
        "return { id = 'metrics', game = 'sea_change', modify = function(rules)\n  \
         rules.metrics['misspelled counter'] = { doc = 'never kept',\n    \
         value = function(game) return game.vars.sea_chnages end }\n  \
         rules.metrics['rounds played'] = { doc = 'rounds',\n    \
         value = function(game) return game.vars.round end }\nend }\n",
    )
    .expect("write");
    let o = deckhand(&["check", &file.display().to_string(), "-n", "1", "-p", "3"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("warning: metric 'misspelled counter' was nil at the end of the one game"),
        "{err}"
    );
    assert!(!err.contains("'rounds played'"), "{err}");
}

/// A function stored in `game.vars` is refused naming its key and the line
/// where the function was written.
#[test]
fn a_function_in_game_vars_is_named_by_its_key_and_line() {
    let dir = tempfile::tempdir().expect("tmp");
    let file = dir.path().join("fnvar.lua");
    std::fs::write(
        &file,
        "return { id = 'fnvar', game = 'sea_change', modify = function(rules)\n  \
         local setup = rules.setup\n  \
         rules.setup = function(game)\n    setup(game)\n    \
         game.vars.helpers = { count = 1, list = { 2, function() return 1 end } }\n  \
         end\nend }\n",
    )
    .expect("write");
    let o = deckhand(&["check", &file.display().to_string(), "-n", "1", "-p", "3"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "{err}");
    assert!(
        err.contains("a function value at `helpers.list[2]` (the function of ")
            && err.contains("fnvar.lua:5), which is not data"),
        "{err}"
    );
}
