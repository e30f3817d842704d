//! Whole random games for every player count and variant of every game,
//! checking the invariants after every step: cards conserved, zone mirrors in
//! step with the core, the game ends, scores and winners well formed, and
//! what each game's rules promise; undo to the start and redo to the end.
//! (Save/load, replay and secrecy are checked for every game by
//! tests/conformance.rs.)

mod common;

use common::engine;
use deckhand_core::{Bot, BotKind, Event, EventKind, GameConfig, SaveFile};

fn play_random(cfg: GameConfig, bot: &str) -> deckhand_core::Game {
    let e = Box::leak(Box::new(engine()));
    let seed = cfg.seed;
    let players = cfg.players;
    let mut g = e.new_game(cfg, true).expect("start");
    g.check_invariants().expect("after setup");
    let mut bots: Vec<Bot> = (1..=players)
        .map(|s| Bot::new(BotKind::parse(bot), seed, s))
        .collect();
    let mut steps = 0;
    while let Some((seat, _)) = g.pending() {
        let i = bots[seat as usize - 1].choose(&g).expect("bot");
        g.apply(i).expect("apply");
        g.check_invariants().expect("invariants");
        steps += 1;
        assert!(steps < 20_000, "game did not end");
    }
    let r = g.result().expect("result");
    assert!(!r.scores.is_empty());
    assert!(r.winners.iter().all(|&w| w >= 1 && w <= players));
    assert!(r.rounds >= 1);
    g
}

#[test]
fn sea_change_every_player_count() {
    for players in 1..=8 {
        for seed in 0..3 {
            let g = play_random(GameConfig::new("sea_change", players, seed), "random");
            let r = g.result().expect("result");
            let vp: Vec<f64> = r.scores.clone();
            let target = 3.0;
            if players > 1 {
                assert!(
                    vp.iter().any(|&v| v >= target),
                    "someone reached 3 VP: {vp:?}"
                );
                for w in &r.winners {
                    assert!(vp[*w as usize - 1] >= target, "winner {w} has {vp:?}");
                }
            }
        }
    }
}

#[test]
fn sea_change_team_every_player_count() {
    for players in 4..=8 {
        for seed in 0..2 {
            let g = play_random(
                GameConfig::new("sea_change", players, seed).variant("team"),
                "greedy",
            );
            let r = g.result().expect("result");
            let teams = g
                .with_table(|t| t.teams.clone())
                .expect("teams")
                .expect("teams set");
            // Teammates share their team's VP.
            for team in &teams {
                let first = r.scores[team[0] as usize - 1];
                assert!(team.iter().all(|&s| r.scores[s as usize - 1] == first));
            }
            // A winning team wins with all its seats.
            if let Some(w) = r.winners.first() {
                let team = teams.iter().find(|t| t.contains(w)).expect("team");
                assert!(team.iter().all(|s| r.winners.contains(s)));
            }
        }
    }
}

#[test]
fn sea_change_greedy_bots_and_house_rules() {
    let dir = common::scripts_dir().join("house_rules");
    for file in [
        "eights_minus_five.lua",
        "five_vp.lua",
        "no_sea_change_when_following.lua",
    ] {
        let path = dir.join(file).display().to_string();
        for players in [2, 4] {
            play_random(
                GameConfig::new("sea_change", players, 11).variant(&path),
                "greedy",
            );
        }
    }
}

#[test]
fn corrupt_saves_are_refused_with_a_message() {
    assert!(SaveFile::parse("not json").is_err());
    let err = SaveFile::parse(
        r#"{"format": 99, "config": {"game":"sea_change","players":4,"seed":1}, "actions": []}"#,
    )
    .expect_err("format");
    assert!(err.to_string().contains("format 99"), "{err}");
}

#[test]
fn undo_to_the_start_and_redo_to_the_end() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("sea_change", 3, 9), true)
        .expect("start");
    let start = g.view(None).expect("v");
    for _ in 0..40 {
        g.apply(1).expect("apply");
    }
    let end = g.view(None).expect("v");
    while g.undo().expect("undo") {}
    assert_eq!(g.view(None).expect("v"), start);
    while g.redo().expect("redo") {}
    assert_eq!(g.view(None).expect("v"), end);
}

/// Every combination of the Seas of Strife variants, in the usual order.
fn strife_variant_sets() -> Vec<Vec<&'static str>> {
    let all = ["strife", "passing", "happy_faces"];
    (0..8u32)
        .map(|mask| {
            all.iter()
                .enumerate()
                .filter(|(i, _)| mask & (1 << i) != 0)
                .map(|(_, v)| *v)
                .collect()
        })
        .collect()
}

/// Check a finished Seas of Strife game from its events: every round has
/// one trick per card of a hand, each round's tricks per seat match the
/// trick_won events, penalties follow from tricks (and, with Happy Faces,
/// from the Face cards in the tricks taken), the scores add up to the
/// result, the game ended at the end score and the fewest points won.
fn check_strife_game(g: &deckhand_core::Game, events: &[Event], happy: bool) {
    let seats = g.config().players as usize;
    let face: std::collections::HashMap<u32, bool> = g
        .cards()
        .expect("cards")
        .iter()
        .map(|c| (c.id, c.props["face"] == serde_json::json!(true)))
        .collect();
    let mut tricks = vec![0i64; seats];
    let mut faces = vec![0i64; seats];
    let mut totals = vec![0i64; seats];
    let mut rounds = 0;
    let mut hand = 0;
    let mut in_round = 0;
    let mut pending_choice: Option<u64> = None;
    for e in events {
        let EventKind::Script { name, data, .. } = &e.kind else {
            continue;
        };
        match name.as_str() {
            "round_started" => {
                hand = data["hand_size"].as_i64().expect("hand_size");
                in_round = 0;
            }
            "trick_won" => {
                assert!(pending_choice.is_none(), "a choice was skipped");
                let w = data["winner"].as_u64().expect("winner") as usize;
                let cards = data["cards"].as_array().expect("cards");
                assert_eq!(cards.len(), seats, "one card per seat");
                tricks[w - 1] += 1;
                faces[w - 1] += cards
                    .iter()
                    .filter(|c| face[&(c.as_u64().expect("id") as u32)])
                    .count() as i64;
                in_round += 1;
                if data["chooses"] == serde_json::json!(true) {
                    pending_choice = Some(w as u64);
                }
            }
            "leader_chosen" => {
                let chooser = pending_choice
                    .take()
                    .expect("a choice follows a trick that gives it");
                assert_eq!(data["chooser"].as_u64(), Some(chooser));
                let s = data["seat"].as_u64().expect("seat");
                assert!(s >= 1 && s as usize <= seats);
            }
            "round_scored" => {
                rounds += 1;
                assert_eq!(in_round, hand, "every card of the hands was played");
                let t: Vec<i64> = serde_json::from_value(data["tricks"].clone()).expect("tricks");
                assert_eq!(t, tricks, "round {rounds}: tricks per seat");
                assert_eq!(t.iter().sum::<i64>(), hand);
                let f: Vec<i64> = serde_json::from_value(data["faces"].clone()).expect("faces");
                assert_eq!(f, faces, "round {rounds}: Face cards taken");
                let p: Vec<i64> =
                    serde_json::from_value(data["penalties"].clone()).expect("penalties");
                for s in 0..seats {
                    let expect = if happy { (t[s] - f[s]).max(0) } else { t[s] };
                    assert_eq!(p[s], expect, "round {rounds}, seat {}", s + 1);
                    totals[s] += p[s];
                }
                let sc: Vec<i64> = serde_json::from_value(data["scores"].clone()).expect("scores");
                assert_eq!(sc, totals);
                tricks = vec![0; seats];
                faces = vec![0; seats];
            }
            _ => {}
        }
    }
    let r = g.result().expect("result");
    assert_eq!(r.rounds as usize, rounds);
    let scores: Vec<i64> = r.scores.iter().map(|&x| x as i64).collect();
    assert_eq!(scores, totals, "the result is the sum of the penalties");
    let end_at = g.vars().expect("vars")["end_at"].as_i64().expect("end_at");
    assert!(
        scores.iter().any(|&s| s >= end_at),
        "{scores:?} vs {end_at}"
    );
    let best = *scores.iter().min().expect("seats");
    let fewest: Vec<u32> = (1..=seats as u32)
        .filter(|&s| scores[s as usize - 1] == best)
        .collect();
    assert_eq!(r.winners, fewest, "fewest points win, ties share");
}

#[test]
fn seas_of_strife_every_player_count_and_variant_combination() {
    for variants in strife_variant_sets() {
        for players in 3..=6 {
            for (seed, bot) in [(1, "random"), (2, "greedy")] {
                let mut cfg = GameConfig::new("seas_of_strife", players, seed);
                for v in &variants {
                    cfg = cfg.variant(v);
                }
                let mut g = play_random(cfg, bot);
                let events = g.take_events();
                // Cards conserved: every card of the deck is somewhere.
                let deck = if variants.contains(&"strife") && players == 3 {
                    30
                } else if players == 3 {
                    45
                } else {
                    60
                };
                let total: usize = g
                    .view(None)
                    .expect("view")
                    .zones
                    .iter()
                    .map(|z| z.count)
                    .sum();
                assert_eq!(total, deck, "{variants:?} {players}p");
                check_strife_game(&g, &events, variants.contains(&"happy_faces"));
            }
        }
    }
}

/// Sea Change lists legal cards in one pass when its own rules are in force,
/// and asks rules.may_play about every card when a variant replaced it. A
/// variant that wraps may_play without changing it must therefore give the
/// same options at every step of the same games.
/// Sea Change lists legal cards in one pass, and plays a step in one
/// function, when its own rules are in force and no events are recorded
/// (scripts/sea_change/game.lua, fast_apply). A variant that wraps two rules
/// without changing them forces the general path (every card through
/// rules.may_play, every rule called); both must play every game
/// identically: same options, same state after every step, same result.
#[test]
fn sea_change_fast_path_plays_exactly_like_the_general_rules() {
    let dir = tempfile::tempdir().expect("temp dir");
    let wrap = dir.path().join("same_rules.lua");
    std::fs::write(
        &wrap,
        r#"return { id = "same_rules", game = "sea_change", modify = function(rules)
             local card_rank, may_play = rules.card_rank, rules.may_play
             rules.card_rank = function(...) return card_rank(...) end
             rules.may_play = function(...) return may_play(...) end
           end }"#,
    )
    .expect("write variant");
    let wrap = wrap.display().to_string();
    let eights = common::scripts_dir()
        .join("house_rules/eights_minus_five.lua")
        .display()
        .to_string();
    let e = engine();
    let mut configs = Vec::new();
    for players in 1..=8 {
        for seed in [1, 2] {
            configs.push(GameConfig::new("sea_change", players, seed));
        }
    }
    for players in [4, 6, 8] {
        configs.push(GameConfig::new("sea_change", players, 3).variant("team"));
    }
    configs.push(GameConfig::new("sea_change", 4, 4).option("match_into_trump", false));
    configs.push(GameConfig::new("sea_change", 3, 5).variant(&eights));
    for base in configs {
        let label = format!(
            "{} players, {:?}, seed {}",
            base.players, base.variants, base.seed
        );
        let mut a = e.new_game(base.clone(), false).expect("start");
        let mut b = e
            .new_game(base.clone().variant(&wrap), false)
            .expect("start wrapped");
        let mut step = 0usize;
        loop {
            assert_eq!(a.pending(), b.pending(), "{label}, step {step}");
            assert_eq!(
                a.vars().expect("vars"),
                b.vars().expect("vars"),
                "{label}, step {step}"
            );
            let zones = |g: &deckhand_core::Game| g.view(None).expect("view").zones;
            assert_eq!(zones(&a), zones(&b), "{label}, step {step}");
            let Some((_, n)) = a.pending() else { break };
            let da = a.decision().expect("decision").map(|d| d.options);
            let db = b.decision().expect("decision").map(|d| d.options);
            assert_eq!(da, db, "{label}, step {step}");
            let pick = (step * 7 + 3) % n + 1;
            a.apply(pick).expect("apply");
            b.apply(pick).expect("apply wrapped");
            a.check_invariants().expect("invariants");
            step += 1;
        }
        assert_eq!(
            a.result().expect("result"),
            b.result().expect("result"),
            "{label}"
        );
        assert!(step > 20, "{label}: a whole game was compared");
    }
}
