//! The determinised Monte Carlo bot (`mc`): its root plays every option
//! still in on the same deals and halves the options round by round, as
//! `ismcts`'s root does; it repeats itself for a seed and a playout count;
//! a time budget halves too; a choice of cards is searched as a few sets,
//! each halved like an option.

use crate::ismcts::{games_engine, sea_change_position, toy_engine, toy_game, LUCK, SALE};
use deckhand_bots::budget::Budget;
use deckhand_bots::search::{self, OptionStats};
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::rng::GameRng;
use deckhand_engine::Game;
use std::time::Duration;

/// `mc`'s statistics for `g`'s pending decision within `budget`, seeded by
/// `seed`, with random playouts.
fn analyse(g: &Game, seed: u64, budget: impl Into<Budget>) -> Vec<OptionStats> {
    search::analyse(g, &mut GameRng::from_seed(seed), budget, None, None).expect("analyse")
}

/// The bonus of a move of the toy game "luck" (options listed as bonuses
/// 3, 6, 1, 5, 2, 4).
fn bonus(s: &OptionStats) -> u32 {
    [3, 6, 1, 5, 2, 4][s.index - 1]
}

#[test]
fn the_mc_root_tries_its_options_on_shared_deals_and_halves_them() {
    // 60 playouts over six bonuses: three rounds (six options, then three,
    // then two). On a shared deal a bigger bonus never scores less, so
    // options that played the same deals are ordered by their bonus, and
    // the best bonus survives every round: it is never behind on the deals
    // it shares. With UCB over a fresh deal per playout (the old root), the
    // playouts per option varied with luck, and each option's mean was over
    // deals of its own.
    let e = toy_engine("luck", LUCK);
    for seed in 0..20 {
        let g = toy_game(&e, "luck", seed);
        let stats = analyse(&g, seed, 60u32);
        assert_eq!(stats.len(), 6, "seed {seed}: every option");
        assert!(
            stats.iter().all(|s| s.playouts > 0),
            "seed {seed}: {stats:?}"
        );
        let total: u32 = stats.iter().map(|s| s.playouts).sum();
        assert!((55..=60).contains(&total), "seed {seed}: {total} playouts");
        let mut counts: Vec<u32> = stats.iter().map(|s| s.playouts).collect();
        counts.sort_unstable();
        counts.dedup();
        // 3 deals for six options, 7 more for three, 10 more for two.
        assert_eq!(counts, vec![3, 10, 20], "seed {seed}: {stats:?}");
        let best = stats.iter().find(|s| bonus(s) == 6).expect("bonus 6");
        assert_eq!(best.playouts, 20, "seed {seed}: bonus 6 in every round");
        assert_eq!(
            stats.iter().filter(|s| s.playouts == 20).count(),
            2,
            "seed {seed}: two finalists"
        );
        // Shared deals: options with as many playouts played the same deals.
        for a in &stats {
            for b in &stats {
                if a.playouts == b.playouts && bonus(a) > bonus(b) {
                    assert!(a.mean >= b.mean, "seed {seed}: {a:?} below {b:?}");
                }
            }
        }
        let choice =
            search::choose(&g, &mut GameRng::from_seed(seed), 60u32, None, None).expect("choose");
        assert_eq!(choice.index, 2, "seed {seed}: bonus 6 is the second option");
    }
}

#[test]
fn the_mc_root_gives_every_option_a_playout_on_a_small_budget() {
    // Fewer playouts than options: one deal for all six, and nothing more.
    let e = toy_engine("luck", LUCK);
    let g = toy_game(&e, "luck", 3);
    let stats = analyse(&g, 3, 2u32);
    assert!(stats.iter().all(|s| s.playouts == 1), "{stats:?}");
}

#[test]
fn a_time_budget_halves_the_mc_root_too() {
    // With a time the rounds' lengths come from the rate of the playouts so
    // far: options are dropped, and the best bonus, still in at the end,
    // has as many playouts as any option.
    let e = toy_engine("luck", LUCK);
    for seed in 0..3 {
        let g = toy_game(&e, "luck", seed);
        let stats = analyse(&g, seed, Budget::Time(Duration::from_millis(150)));
        assert_eq!(stats.len(), 6, "seed {seed}");
        let most = stats.iter().map(|s| s.playouts).max().unwrap_or(0);
        let best = stats
            .iter()
            .find(|s| bonus(s) == 6)
            .map_or(0, |s| s.playouts);
        assert_eq!(best, most, "seed {seed}: {stats:?}");
        assert!(
            stats.iter().any(|s| s.playouts < most),
            "seed {seed}: some options dropped, {stats:?}"
        );
        assert!(most > 20, "seed {seed}: the time was spent, {stats:?}");
    }
}

#[test]
fn mc_repeats_itself_for_a_seed_and_a_playout_count() {
    // The same position, seed and playouts: the same statistics and the
    // same move, in a toy game and in 4-player Sea Change positions (where
    // its playouts are the rules' playout bot's); another seed deals other
    // guesses.
    let e = toy_engine("luck", LUCK);
    let g = toy_game(&e, "luck", 5);
    assert_eq!(analyse(&g, 9, 60u32), analyse(&g, 9, 60u32));
    let others: Vec<Vec<OptionStats>> = (10..14).map(|s| analyse(&g, s, 60u32)).collect();
    assert!(
        others.iter().any(|o| *o != analyse(&g, 9, 60u32)),
        "the seed deals the guesses"
    );
    let e = games_engine();
    for seed in 1..=3 {
        let g = sea_change_position(&e, seed);
        let (seat, _) = g.pending().expect("a decision");
        let once = analyse(&g, seed, 80u32);
        assert_eq!(once, analyse(&g, seed, 80u32), "seed {seed}");
        let pick = |g: &Game| {
            Bot::new(BotKind::parse("mc:80"), seed, seat)
                .choose(g)
                .expect("mc")
        };
        assert_eq!(pick(&g), pick(&g), "seed {seed}: the same move");
        assert!(
            once.iter().map(|s| s.playouts).sum::<u32>() <= 80,
            "seed {seed}: {once:?}"
        );
    }
}

#[test]
fn mc_halves_the_sets_of_a_choice_of_cards_as_options() {
    // "Sell" stands for a few sets (the best-scored one and random ones),
    // each halved like an option: the set of all six cards is a sure win,
    // outlasts the others and is played.
    let e = toy_engine("sale", SALE);
    for seed in 0..5 {
        let g = toy_game(&e, "sale", seed);
        let stats = analyse(&g, seed, 60u32);
        let sets: Vec<&OptionStats> = stats.iter().filter(|s| s.picks.is_some()).collect();
        assert!(sets.len() >= 2, "seed {seed}: {stats:?}");
        let most = stats.iter().map(|s| s.playouts).max().unwrap_or(0);
        let all = sets
            .iter()
            .find(|s| s.picks.as_ref().map(Vec::len) == Some(6))
            .expect("the best-scored set is searched");
        assert_eq!(all.playouts, most, "seed {seed}: {stats:?}");
        assert!(all.mean > 0.99, "seed {seed}: {all:?}");
        let choice =
            search::choose(&g, &mut GameRng::from_seed(seed), 60u32, None, None).expect("choose");
        assert_eq!(choice.index, 1, "seed {seed}");
        assert_eq!(choice.picks.map(|p| p.len()), Some(6), "seed {seed}");
    }
}

/// Seat 1 picks Early or Late, then ten forced moves follow (one option
/// each) and the game ends: Late wins for seat 1, Early loses. The rules'
/// evaluation says the opposite until the end (Early looks like a sure
/// win), so a playout cut before the end takes Early, one played out takes
/// Late.
const MIRAGE: &str = r#"
local R = { id = "mirage", title = "Mirage", players = { min = 2, max = 2, default = 2 }, options = {} }
function R.setup(game) game.vars.left = 10 end
function R.decision(game)
  if game.vars.winner then return nil end
  if game.vars.pick == nil then
    return { seat = 1, prompt = "Which?", options = {
      { pick = "early", text = "Early" }, { pick = "late", text = "Late" } } }
  end
  return { seat = 2, prompt = "Wait", options = { { text = "Wait" } } }
end
function R.apply(game, seat, o)
  local v = game.vars
  if o.pick then v.pick = o.pick; return end
  v.left = v.left - 1
  if v.left == 0 then v.winner = v.pick == "late" and 1 or 2 end
end
function R.evaluate(game, seat)
  local early = game.vars.pick == "early"
  return (early == (seat == 1)) and 1 or 0
end
"#;

#[test]
fn a_cut_playout_is_worth_the_rules_evaluation() {
    let e = toy_engine("mirage", MIRAGE);
    let g = toy_game(&e, "mirage", 1);
    let pick = |name: &str| {
        Bot::new(BotKind::parse(name), 1, 1)
            .choose(&g)
            .expect("mc")
            .index
    };
    // Played out (no cut, or a cut at or past the end: the tenth move ends
    // the game): Late wins.
    assert_eq!(pick("mc:20"), 2);
    assert_eq!(pick("mc:20:cut=10"), 2);
    assert_eq!(pick("seeall:20:cut=11"), 2);
    // Cut before the end, the evaluation says Early.
    assert_eq!(pick("mc:20:cut=3"), 1);
    assert_eq!(pick("mc:20:cut=9"), 1);
    assert_eq!(pick("seeall:20:cut=3"), 1);
    // The playout itself: cut after 4 of the 10 moves, worth the evaluation.
    let mut f = g.fork().expect("fork");
    f.apply_choice(&deckhand_engine::Choice::option(1))
        .expect("early");
    let values = f.playout(None, None, 1000, Some(4)).expect("playout");
    assert_eq!(values, Some(vec![1.0, 0.0]));
    assert!(f.pending().is_some(), "cut before the game's end");
}

#[test]
fn a_cut_needs_the_rules_evaluation() {
    // The luck game has no `evaluate`: a cut cannot score its playouts.
    let e = toy_engine("luck", LUCK);
    let g = toy_game(&e, "luck", 1);
    let err = Bot::new(BotKind::parse("mc:20:cut=3"), 1, 1)
        .choose(&g)
        .expect_err("no evaluate");
    assert!(err.to_string().contains("evaluate"), "{err}");
    let mut f = g.fork().expect("fork");
    let err = f
        .playout(None, None, 1000, Some(1))
        .expect_err("no evaluate");
    assert!(
        err.to_string()
            .contains("a playout cut short is worth the rules' evaluate"),
        "{err}"
    );
}
