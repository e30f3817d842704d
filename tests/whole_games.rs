//! Whole games the conformance suite does not play (greedy bots, house
//! rules with other bots), checking after every step the invariants (cards
//! conserved, zone mirrors in step with the core, and what each game's
//! rules promise in its `rules.invariants`), that the game ends, and that
//! scores and winners are well formed; undo to the start and redo to the
//! end. (Random games of every game, variant set, house rule and player
//! count, save/load, replay and secrecy are checked by
//! tests/conformance.rs.)

use crate::common;

use common::{by, engine, play_steps, play_to_end, Invariants};
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::{Event, Game, GameConfig, Observer, Runner, SaveFile};

/// Play a whole game with these bots, checking the invariants after every
/// step.
fn play_random(cfg: GameConfig, bot: &str) {
    let e = engine();
    let seed = cfg.seed;
    let players = cfg.players;
    let bots = (1..=players)
        .map(|s| Bot::new(BotKind::parse(bot), seed, s))
        .collect();
    // Invariants checked after setup and every step; the game must end
    // within the runner's step limit.
    let mut runner = Runner::with_bots(bots).observe(Invariants);
    let mut g = runner.start(&e, cfg, true).expect("start");
    let r = play_to_end(&mut runner, &mut g);
    assert!(!r.scores.is_empty());
    assert!(r.winners.iter().all(|&w| w >= 1 && w <= players));
    assert!(r.rounds >= 1);
}

#[test]
fn sea_change_team_every_player_count() {
    for players in 4..=8 {
        for seed in 0..2 {
            // Teammates share their team's VP, and a winning team wins
            // with all its seats: Sea Change's rules.invariants.
            play_random(
                GameConfig::new("sea_change", players, seed).variant("team"),
                "greedy",
            );
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

#[test]
fn seas_of_strife_greedy_games_at_every_player_count_and_variant_combination() {
    // The deck of each player count and variant set, the cards of each
    // round, the tricks, the penalties and the winners: Seas of Strife's
    // rules.invariants (and the Happy Faces variant's).
    for variants in strife_variant_sets() {
        for players in 3..=6 {
            let mut cfg = GameConfig::new("seas_of_strife", players, 2);
            for v in &variants {
                cfg = cfg.variant(v);
            }
            play_random(cfg, "greedy");
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

#[test]
fn a_bot_that_reads_the_other_seats_moves_plays_every_game_to_its_end() {
    // `mc:N:infer` replays each game's log and reads its guesses back into
    // earlier positions, where the rules pose decisions with cards they
    // never saw together (a SeaDogs seat whose guessed hand has no legal
    // move): every game still ends, its invariants kept after every step.
    let e = engine();
    for (game, players) in [
        ("sea_change", 4),
        ("seas_of_strife", 4),
        ("sea_salt_paper", 2),
        ("seadogs", 3),
    ] {
        let seed = 11;
        let bots = (1..=players)
            .map(|s| {
                let name = if s == 1 { "mc:8:infer" } else { "greedy" };
                Bot::new(BotKind::parse(name), seed, s)
            })
            .collect();
        let mut runner = Runner::with_bots(bots).observe(Invariants);
        let mut g = runner
            .start(&e, GameConfig::new(game, players, seed), true)
            .expect("start");
        let r = play_to_end(&mut runner, &mut g);
        assert!(r.rounds >= 1, "{game}");
    }
}
