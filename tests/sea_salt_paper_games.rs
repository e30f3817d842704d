//! Sea Salt & Paper: whole games the conformance suite does not play
//! (greedy bots, every option changed) for 2, 3 and 4 players, checking
//! after every step the cards and the rules' invariants (scripts/
//! sea_salt_paper/game.lua: the 58 cards, no card ids in the variables,
//! scores the sum of what the rounds awarded, one winner with the most
//! points or the four mermaids). Also `deckhand check` and `sim` on the
//! game. (Random games, secrecy, replay, undo and save are checked for
//! every game by tests/conformance.rs.)

use crate::common;

use common::{bots_for, deckhand, engine, play_to_end, Invariants};
use deckhand_engine::{GameConfig, Runner};
use serde_json::Value;

/// Play one whole game with these bots, checking every step.
fn play_checked(cfg: GameConfig, seats: &[&str]) {
    let e = engine();
    let seed = cfg.seed;
    let n = cfg.players;
    // The game must end within the runner's step limit.
    let mut runner = Runner::with_bots(bots_for(seats, seed, n)).observe(Invariants);
    let mut g = runner.start(&e, cfg, true).expect("start");
    play_to_end(&mut runner, &mut g);
}

#[test]
fn greedy_against_random_games_for_2_3_and_4_players() {
    for players in 2..=4 {
        for seed in 10..13 {
            play_checked(
                GameConfig::new("sea_salt_paper", players, seed),
                &["greedy", "random", "greedy", "random"],
            );
        }
    }
}

#[test]
fn random_games_with_every_option_changed() {
    for players in 2..=4 {
        for seed in 20..23 {
            play_checked(
                GameConfig::new("sea_salt_paper", players, seed)
                    .option("mermaid_white", false)
                    .option("boat_extra_turns", "one")
                    .option("last_chance_empty_deck", "no_score")
                    .option("tie_break", "last_round_points")
                    .option("target", 15),
                &["random", "greedy", "random", "greedy"],
            );
        }
    }
}

#[test]
fn check_and_sim_work_for_the_game() {
    let o = deckhand(&["check", "sea_salt_paper", "-n", "3"]);
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("ok: sea_salt_paper"), "{text}");
    let o = deckhand(&[
        "sim",
        "sea_salt_paper",
        "-n",
        "20",
        "--seed",
        "1",
        "--seat",
        "greedy",
        "--seat",
        "random",
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stats: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(stats["games"], Value::from(20));
}

/// The options of a game nobody logs (a simulation, a search's copy) carry
/// no text: each phase makes it when someone asks (`rules.describe`). Two
/// games of the same seed, one logged and one not, played in step through
/// every phase: at every decision the unlogged game's options have no
/// `text`, the logged game's have one, and both give the same words, to a
/// person (`decision`) and to every seat that tells the options apart by
/// their words (`option_keys`, which keys the ismcts tree), also in a
/// search's copy of the unlogged game.
#[test]
fn unlogged_options_are_worded_when_asked_exactly_as_logged_ones() {
    let e = engine();
    let mut acts = std::collections::BTreeSet::new();
    for players in 2..=4u32 {
        for seed in 0..6u64 {
            let cfg = GameConfig::new("sea_salt_paper", players, seed);
            let label = format!("{players} players, seed {seed}");
            let mut logged = e.new_game(cfg.clone(), true).expect("start");
            let mut unlogged = e.new_game(cfg, false).expect("start");
            let mut step = 0usize;
            while let Some((_, n)) = logged.pending() {
                assert_eq!(unlogged.pending(), logged.pending(), "{label}, step {step}");
                let with = logged.decision().expect("decision").expect("pending");
                let without = unlogged.decision().expect("decision").expect("pending");
                for (a, b) in with.options.iter().zip(&without.options) {
                    assert!(a.action.get("text").is_some(), "{label}: {:?}", a.action);
                    assert!(b.action.get("text").is_none(), "{label}: {:?}", b.action);
                    assert_eq!(a.text, b.text, "{label}, step {step}");
                    assert_eq!(a.action["text"].as_str(), Some(a.text.as_str()));
                    acts.insert(a.action["act"].as_str().unwrap_or("?").to_string());
                }
                let copy = unlogged.fork().expect("fork");
                for viewer in 1..=players {
                    let keys = logged.option_keys(viewer).expect("keys");
                    assert_eq!(unlogged.option_keys(viewer).expect("keys"), keys, "{label}");
                    assert_eq!(copy.option_keys(viewer).expect("keys"), keys, "{label}");
                }
                // Options in turn, so that every phase comes up.
                let i = step % n + 1;
                logged.apply(i).expect("step");
                unlogged.apply(i).expect("step");
                step += 1;
            }
            assert!(unlogged.pending().is_none(), "{label}");
        }
    }
    for act in [
        "draw",
        "pile",
        "keep",
        "discard",
        "duo",
        "end",
        "stop",
        "last_chance",
        "crab_pile",
        "crab_pick",
        "steal",
    ] {
        assert!(acts.contains(act), "no option '{act}' came up: {acts:?}");
    }
}
