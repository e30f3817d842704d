//! Whole random games for every player count and variant of every game,
//! checking the invariants after every step: cards conserved, zone mirrors in
//! step with the core, the game ends, scores and winners well formed, and
//! what each game's rules promise; undo to the start and redo to the end.
//! (Save/load, replay and secrecy are checked for every game by
//! tests/conformance.rs.)

use crate::common;

use common::{by, engine, play_steps, play_to_end, Collect, Invariants};
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::{Event, EventKind, Game, GameConfig, Observer, Runner, SaveFile};

/// Play a whole game with these bots, checking the invariants after every
/// step; the game and its events.
fn play_random(cfg: GameConfig, bot: &str) -> (Game, Vec<Event>) {
    let e = Box::leak(Box::new(engine()));
    let seed = cfg.seed;
    let players = cfg.players;
    let bots = (1..=players)
        .map(|s| Bot::new(BotKind::parse(bot), seed, s))
        .collect();
    // Invariants checked after setup and every step; the game must end
    // within the runner's step limit.
    let mut events = Collect::default();
    let mut runner = Runner::with_bots(bots)
        .observe(Invariants)
        .observe(&mut events);
    let mut g = runner.start(e, cfg, true).expect("start");
    let r = play_to_end(&mut runner, &mut g);
    drop(runner);
    assert!(!r.scores.is_empty());
    assert!(r.winners.iter().all(|&w| w >= 1 && w <= players));
    assert!(r.rounds >= 1);
    (g, events.0)
}

#[test]
fn sea_change_every_player_count() {
    for players in 1..=8 {
        for seed in 0..3 {
            let (g, _) = play_random(GameConfig::new("sea_change", players, seed), "random");
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
            let (g, _) = play_random(
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
    play_steps(Runner::shared(3, by(|_, _| 1)), &mut g, 40);
    assert_eq!(g.history().len(), 40);
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
fn check_strife_game(g: &deckhand_engine::Game, events: &[Event], happy: bool) {
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
                let (g, events) = play_random(cfg, bot);
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

/// Every rule of Sea Change exists once, and a step reaches it through the
/// rules table whatever the rules are (scripts/sea_change/game.lua has no
/// second copy for simulations). A variant that wraps the rule functions a
/// step goes through without changing them must therefore play every game
/// exactly as the game's own rules do (same options, same state after every
/// step, same result), and the wrappers must all have been called.
#[test]
fn sea_change_wrapped_rules_play_exactly_like_the_game_s_own() {
    let dir = tempfile::tempdir().expect("temp dir");
    let wrap = dir.path().join("same_rules.lua");
    std::fs::write(
        &wrap,
        r#"local CALLED = {}
           return { id = "same_rules", game = "sea_change", modify = function(rules)
             for _, name in ipairs({ "may_play", "is_sea_change", "is_match", "holds_suit",
                 "play_card", "change_trump", "draw", "advance", "trick_size", "next_player",
                 "finish_trick", "trick_winner", "card_rank", "card_points", "cards_points",
                 "round_over", "round_score", "end_points", "legal_options" }) do
               local f = rules[name]
               CALLED[name] = false
               rules[name] = function(...) CALLED[name] = true; return f(...) end
             end
             -- The status lines end with the wrapped rules never called.
             local status = rules.status
             rules.status = function(view)
               local lines, missed = status(view), {}
               for name, called in pairs(CALLED) do
                 if not called then missed[#missed + 1] = name end
               end
               table.sort(missed)
               lines[#lines + 1] = "not called: " .. table.concat(missed, " ")
               return lines
             end
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
        let mut b = e
            .new_game(base.clone().variant(&wrap), false)
            .expect("start wrapped");
        // The wrapped game follows every choice of the plain one, and the
        // two are compared before every step and at the end.
        let mut same = Same {
            other: &mut b,
            label: &label,
        };
        let pick = by(|g, n| (g.history().len() * 7 + 3) % n + 1);
        let mut runner = Runner::shared(base.players, pick)
            .observe(&mut same)
            .observe(Invariants);
        let mut a = runner.start(&e, base.clone(), false).expect("start");
        play_to_end(&mut runner, &mut a);
        drop(runner);
        same.compare(&a);
        let step = a.history().len();
        assert_eq!(
            a.result().expect("result"),
            b.result().expect("result"),
            "{label}"
        );
        assert!(step > 20, "{label}: a whole game was compared");
    }
    // Every wrapper was called in the games above (the wrappers belong to
    // this engine's composition of the rules, shared by all its games).
    let lines = e
        .new_game(GameConfig::new("sea_change", 4, 1).variant(&wrap), false)
        .expect("start")
        .status_lines(1)
        .expect("status");
    assert_eq!(lines.last().map(String::as_str), Some("not called: "));
}

/// A second game that makes every choice of the observed one and is
/// compared with it before every step.
struct Same<'a> {
    other: &'a mut Game,
    label: &'a str,
}

impl Same<'_> {
    fn compare(&self, a: &Game) {
        let (b, label) = (&*self.other, self.label);
        let step = a.history().len();
        assert_eq!(a.pending(), b.pending(), "{label}, step {step}");
        assert_eq!(
            a.vars().expect("vars"),
            b.vars().expect("vars"),
            "{label}, step {step}"
        );
        let zones = |g: &Game| g.view(None).expect("view").zones;
        assert_eq!(zones(a), zones(b), "{label}, step {step}");
    }
}

impl Observer for Same<'_> {
    fn decision(
        &mut self,
        a: &Game,
        _: u32,
        _: &deckhand_engine::Choice,
    ) -> deckhand_engine::Result<()> {
        self.compare(a);
        let step = a.history().len();
        let da = a.decision().expect("decision").map(|d| d.options);
        let db = self.other.decision().expect("decision").map(|d| d.options);
        assert_eq!(da, db, "{}, step {step}", self.label);
        Ok(())
    }

    fn step(
        &mut self,
        _: &Game,
        _: u32,
        choice: &deckhand_engine::Choice,
        _: &[Event],
    ) -> deckhand_engine::Result<()> {
        self.other.apply_choice(choice)
    }
}
