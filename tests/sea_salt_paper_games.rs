//! Sea Salt & Paper: whole random games for 2, 3 and 4 players (random and
//! greedy bots, default options and every option changed), checking after
//! every step that the 58 cards are conserved, that no seat's view, visible
//! events or options ever hold a card it may not see, and at the end that the
//! game ended with consistent scores and winners. Also: replay, and
//! `deckhand check` and `sim` on the game.

mod common;

use common::{
    advance_randomly, assert_options_name_only, assert_told_only_what_it_may_see,
    assert_undo_redo_restores, bots_for, deckhand, engine, ids_in, note_landed, play_to_end, views,
};
use deckhand_core::{Event, EventKind, Game, GameConfig, Observer, Runner};
use serde_json::Value;
use std::collections::HashSet;

/// What is checked at every step of a game: the options before it, and
/// after it the invariants, the events and the variables; the points each
/// seat gained, added up from the `round_scored` events.
struct Checks {
    label: String,
    n: u32,
    /// What each seat saw before the step.
    before: Vec<HashSet<u32>>,
    gained: Vec<i64>,
}

impl Observer for Checks {
    fn decision(&mut self, g: &Game, seat: u32, _: usize) -> deckhand_core::Result<()> {
        let vars = g.vars().expect("vars");
        // The options name only cards the chooser may see, except the pile
        // a crab player looks through.
        let mut may = self.before[seat as usize - 1].clone();
        if vars["phase"] == "crab_pick" {
            let pile = format!("discard {}", vars["crab_pile"]);
            let cards = g
                .with_table(|t| t.find_zone(&pile, None).map(|z| z.cards.clone()))
                .expect("table")
                .expect("pile");
            may.extend(cards);
        }
        assert_options_name_only(g, &may, &self.label);
        Ok(())
    }

    fn step(&mut self, g: &Game, _: u32, _: usize, events: &[Event]) -> deckhand_core::Result<()> {
        let (label, n) = (&self.label, self.n);
        g.check_invariants().expect("invariants");
        assert_eq!(g.cards().expect("cards").len(), 58);
        let after = views(g);
        // Events a seat is told about name only cards it saw before, sees
        // after, or saw land in a zone it sees whole during the step: a round
        // that ends reveals the hands (public) and the next round, dealt in
        // the same step, gathers them into the face-down deck.
        let mut landed: Vec<HashSet<u32>> = vec![HashSet::new(); n as usize];
        for ev in events {
            let mut ids = Vec::new();
            match &ev.kind {
                EventKind::Move { card, to, .. } | EventKind::Place { card, to } => {
                    ids.push(*card);
                    note_landed(g, *card, *to, &mut landed);
                }
                EventKind::Script { data, name, .. } => {
                    ids_in(data, &mut ids);
                    if name == "round_scored" {
                        for (s, x) in data["gained"]
                            .as_array()
                            .expect("gained")
                            .iter()
                            .enumerate()
                        {
                            self.gained[s] += x.as_i64().expect("number");
                        }
                    }
                }
                EventKind::Shuffle { .. } | EventKind::Sort { .. } => {}
            }
            assert_told_only_what_it_may_see(g, ev, &ids, [&self.before, &after, &landed], label);
        }
        // Script variables are public: they must hold no card ids.
        let mut ids = Vec::new();
        ids_in(&g.vars().expect("vars"), &mut ids);
        assert!(ids.is_empty(), "{label}: card ids in vars: {ids:?}");
        self.before = after;
        Ok(())
    }
}

/// Play one whole game with these bots, checking every step. Returns the game.
fn play_checked(cfg: GameConfig, seats: &[&str]) -> Game {
    let e = Box::leak(Box::new(engine()));
    let seed = cfg.seed;
    let label = format!("{cfg:?}");
    let n = cfg.players;
    let mut g = e.new_game(cfg, true).expect("start");
    g.check_invariants().expect("after setup");
    let mut checks = Checks {
        label: label.clone(),
        n,
        before: views(&g),
        gained: vec![0i64; n as usize],
    };
    // The game must end within the runner's step limit.
    let mut runner = Runner::with_bots(bots_for(seats, seed, n)).observe(&mut checks);
    runner.started(&mut g).expect("start");
    play_to_end(&mut runner, &mut g);
    drop(runner);
    let gained = checks.gained;
    // The end: scores are the sum of the rounds; a winner reached the target
    // with the most points, or placed the four mermaids.
    let r = g.result().expect("result");
    let v = g.vars().expect("vars");
    let scores: Vec<i64> = r.scores.iter().map(|&s| s as i64).collect();
    assert_eq!(scores, gained, "{label}: scores add up");
    assert_eq!(r.winners.len(), 1, "{label}");
    let w = r.winners[0];
    if v["mermaid_win"].is_null() {
        let best = *scores.iter().max().expect("scores");
        assert!(best >= v["target"].as_i64().expect("target"), "{label}");
        assert_eq!(scores[w as usize - 1], best, "{label}");
    } else {
        assert_eq!(v["mermaid_win"].as_u64(), Some(w as u64));
    }
    assert!(r.rounds >= 1);
    g
}

#[test]
fn random_games_for_2_3_and_4_players() {
    for players in 2..=4 {
        for seed in 0..4 {
            play_checked(
                GameConfig::new("sea_salt_paper", players, seed),
                &["random"; 4],
            );
        }
    }
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
fn a_replayed_log_gives_the_same_game() {
    let e = engine();
    let cfg = GameConfig::new("sea_salt_paper", 3, 5);
    let mut g = e.new_game(cfg.clone(), true).expect("start");
    advance_randomly(&mut g, 5, 150);
    let replayed = e.replay(cfg, g.history()).ok().expect("replay");
    assert_eq!(replayed.view(None).expect("v"), g.view(None).expect("v"));
    assert_eq!(replayed.vars().expect("v"), g.vars().expect("v"));
    assert_undo_redo_restores(&mut g, 3);
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
