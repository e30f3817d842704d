//! Each example house rule in scripts/house_rules/ changes what it says, and
//! nothing is needed beyond the file.

mod common;

use common::*;
use deckhand_core::{GameConfig, Runner};
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
