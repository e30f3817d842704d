//! Searches for a game played in the counting interpreter run on a compiled
//! copy of it (`deckhand_bots::compiled`): the same choices and hints as a
//! search on the game itself, and a runaway on the copy still ends in the
//! interpreter's error.

use crate::toy;

use deckhand_bots::{hint, Bot, BotKind, Budget};
use deckhand_engine::{GameConfig, Runner};
use std::sync::atomic::Ordering;

/// A variant of the toy game with a script bot `slow` that spins for a
/// few seconds when compiled (far over the stall limit) and runs out of
/// the instruction budget when counted.
fn slow_bot() -> (String, String) {
    (
        "high_card/variants/slow.lua".to_string(),
        "return { id = 'slow', game = 'high_card', modify = function(R)\n\
         R.bots.slow = function(view, d)\n\
         local x = 0\n\
         for i = 1, 3e9 do x = x + i end\n\
         return 1 + x % #d.options\n\
         end end }"
            .to_string(),
    )
}

#[test]
fn a_search_in_the_interpreter_runs_on_a_compiled_copy_and_chooses_alike() {
    for seed in 0..4 {
        let cfg = GameConfig::new("high_card", 3, seed).option("hand", 4);
        let mut chosen = Vec::new();
        for (mode, e) in toy::both_engines(&[]) {
            let mut g = e.new_game(cfg.clone(), true).expect("start");
            let activity = e.activity();
            let bots = (1..=3)
                .map(|s| Bot::new(BotKind::parse("mc:40"), seed, s))
                .collect();
            let before = activity.load(Ordering::Relaxed);
            Runner::with_bots(bots).play(&mut g).expect("play");
            let calls = activity.load(Ordering::Relaxed) - before;
            let steps = g.history().len() as u64;
            if mode == "counted" {
                // The playouts ran elsewhere: the game's own engine made
                // only the calls of the game's steps and their views.
                assert!(
                    calls < 20 * steps,
                    "{mode}: {calls} calls for {steps} steps"
                );
            } else {
                assert!(
                    calls > 40 * steps,
                    "{mode}: {calls} calls for {steps} steps"
                );
            }
            chosen.push(g.history().to_vec());
        }
        assert_eq!(chosen[0], chosen[1], "seed {seed}: counted vs compiled");
    }
}

#[test]
fn a_hint_in_the_interpreter_is_the_hint_of_the_compiled_game() {
    let cfg = GameConfig::new("high_card", 3, 5).option("hand", 4);
    let hints: Vec<_> = toy::both_engines(&[])
        .iter()
        .map(|(mode, e)| {
            let g = e.new_game(cfg.clone(), true).expect("start");
            hint::hint(&g, Budget::Iterations(300), None)
                .unwrap_or_else(|err| panic!("{mode}: {err}"))
        })
        .collect();
    assert_eq!(hints[0], hints[1]);
    assert_eq!(hints[0].playouts, 300);
}

#[test]
fn a_runaway_on_the_compiled_copy_ends_in_the_interpreters_error() {
    let (name, text) = slow_bot();
    let [(_, counted), _] = toy::both_engines(&[(&name, &text)]);
    let mut g = counted
        .new_game(
            GameConfig::new("high_card", 2, 1)
                .variant("slow")
                .option("hand", 3),
            true,
        )
        .expect("start");
    let mut bot = Bot::new(BotKind::parse("mc:20:slow"), 1, 1);
    let started = std::time::Instant::now();
    let err = bot
        .choose(&g)
        .expect_err("the playout bot never finishes in time");
    let message = err.to_string();
    assert!(
        message.contains("budget exceeded") && message.contains("slow.lua:4"),
        "{message}"
    );
    // The stall was seen well before the copy's loop would have ended.
    assert!(started.elapsed().as_secs_f64() < 10.0);
    // The game is as it was, and plays on.
    assert_eq!(g.history().len(), 0);
    g.apply(1).expect("the game plays on");
}
