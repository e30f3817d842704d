//! SeaDogs: whole games the conformance suite does not play (greedy bots,
//! every option changed) at 2 to 6 players, checking after every step the
//! cards and the rules' invariants (scripts/seadogs/game.lua: gold, the 10
//! blessing cubes and the 18 gunpowder tokens conserved, no card ids in the
//! variables, at the end the scores the sum of their parts and the winners
//! with the best score), and that a hand is shown only to the seat it is
//! shown to. Also `deckhand check` and `sim`, the greedy bot beating random
//! bots, and guesses by kind of card. (Random games, secrecy, save/load,
//! replay and undo/redo are checked for every game by tests/conformance.rs.)

use crate::common;

use common::{advance_randomly, bots_for, deckhand, engine, play_to_end, Invariants};
use deckhand_engine::policy::random_choice;
use deckhand_engine::rng::GameRng;
use deckhand_engine::{Event, EventKind, Game, GameConfig, Observer, Runner};
use deckhand_lab::{Key, Outcome};
use serde_json::Value;

/// What is checked after every step besides the invariants: a hand is
/// shown only to the seat it is shown to.
struct HandsShown {
    label: String,
    n: u32,
}

impl Observer for HandsShown {
    fn step(
        &mut self,
        g: &Game,
        _: u32,
        _: &deckhand_engine::Choice,
        events: &[Event],
    ) -> deckhand_engine::Result<()> {
        let (label, n) = (&self.label, self.n);
        // The two ways a hand is shown on purpose (a true claim called,
        // Spyglass) are private to the seat shown it.
        for ev in events {
            if let EventKind::Script { name, data, .. } = &ev.kind {
                if name == "hand_shown" {
                    let to = data["to"].as_u64().expect("private") as u32;
                    for s in 1..=n {
                        assert_eq!(g.event_visible_to(ev, s), s == to, "{label}: hand shown");
                    }
                }
            }
        }
        Ok(())
    }
}

/// Play one whole game with these bots, checking every step.
fn play_checked(cfg: GameConfig, seats: &[&str]) {
    let e = engine();
    let seed = cfg.seed;
    let n = cfg.players;
    let shown = HandsShown {
        label: format!("{cfg:?}"),
        n,
    };
    // The game must end within the runner's step limit.
    let mut runner = Runner::with_bots(bots_for(seats, seed, n))
        .observe(Invariants)
        .observe(shown);
    let mut g = runner.start(&e, cfg, true).expect("start");
    play_to_end(&mut runner, &mut g);
}

#[test]
fn greedy_and_random_games_at_every_player_count() {
    for players in 2..=6 {
        for seed in 10..12 {
            play_checked(
                GameConfig::new("seadogs", players, seed),
                &["greedy", "random", "greedy"],
            );
        }
    }
}

#[test]
fn games_with_every_option_changed() {
    for players in 2..=6 {
        for seed in 20..22 {
            play_checked(
                GameConfig::new("seadogs", players, seed)
                    .option("bank_two_players", 24)
                    .option("claim_needs_wager", false)
                    .option("gold_face_tie", "shared")
                    .option("temple_eight", 36)
                    .option("sell_beyond_table", "extend")
                    .option("wild_in_sale", true)
                    .option("bluff_not_called", "attack")
                    .option("island_order", "random")
                    .option("temple_token", "fixed")
                    .option("treasure_gain", "port")
                    .option("call_needs_match", false)
                    .option("game_end", "immediately")
                    .option("bank_short", "no_sale")
                    .option("hand_limit", 5)
                    .option("doubles_gunpowder", true)
                    .option("captains", false),
                &["random", "greedy"],
            );
        }
    }
}

#[test]
fn check_lists_and_sim_work_for_the_game() {
    let o = deckhand(&["games"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("seadogs"));
    let o = deckhand(&["check", "seadogs", "-n", "3"]);
    let text = String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("ok: seadogs"), "{text}");
}

#[test]
fn greedy_beats_random_bots() {
    // 4 players: a fair share is 25 %; greedy won 96 % of 400 games when measured.
    let o = deckhand(&[
        "sim", "seadogs", "-p", "4", "-n", "100", "--seed", "1", "--seat", "greedy", "--seat",
        "random", "--seat", "random", "--seat", "random", "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let stats: Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(stats["games"], Value::from(100));
    let rate = common::mean(&common::report_row(&stats, 0, "win.seat1"));
    assert!(rate > 0.7, "greedy won only {rate}");
}

#[test]
fn the_search_guesses_each_hidden_card_among_cards_of_its_kind() {
    // Mid-game, a seat's guesses at the hidden cards (cargo deck, hands,
    // action and treasure decks, captains) keep every kind of card where
    // that kind lies: the four kinds have different backs.
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("seadogs", 4, 7), false)
        .expect("start");
    advance_randomly(&mut g, 7, 60);
    let cards = g.cards().expect("cards");
    let kind = |id: &u32| cards[*id as usize - 1].props["kind"].clone();
    let kinds = |g: &Game| -> Vec<Vec<Value>> {
        let view = g.view(None).expect("all");
        view.zones
            .iter()
            .map(|z| {
                z.cards
                    .clone()
                    .unwrap_or_default()
                    .iter()
                    .map(kind)
                    .collect()
            })
            .collect()
    };
    let before = kinds(&g);
    let mut rng = deckhand_engine::rng::GameRng::from_seed(11);
    let mut differs = false;
    for _ in 0..20 {
        let f = g.determinized(1, &mut rng).expect("determinized");
        f.check_invariants().expect("mirrors follow the core");
        assert_eq!(kinds(&f), before);
        differs |= f.view(None).expect("all").zones != g.view(None).expect("all").zones;
    }
    assert!(differs, "hidden cards are dealt again");
}

#[test]
fn greedy_games_mix_attacks_with_sales_the_temple_and_action_cards() {
    // Four greedy bots, 8 games. Over 2,000 games (docs/seadogs.md, "The
    // mix of actions") they make 3.5 attacks and 1.5 sales a round; a bot
    // that did not value sales, the Temple and action cards made about 6
    // sales to 35 attacks a game and drew 0.4 action cards.
    let e = engine();
    let mut events = common::Collect::default();
    let games = 8;
    for seed in 0..games {
        let mut g = e
            .new_game(GameConfig::new("seadogs", 4, seed), true)
            .expect("start");
        let mut runner = Runner::with_bots(bots_for(&["greedy"], seed, 4)).observe(&mut events);
        runner.started(&mut g).expect("start");
        play_to_end(&mut runner, &mut g);
    }
    // The rules' events, counted by name.
    let mut count = std::collections::BTreeMap::<String, usize>::new();
    for ev in &events.0 {
        if let EventKind::Script { name, .. } = &ev.kind {
            *count.entry(name.clone()).or_default() += 1;
        }
    }
    let per_game = |name: &str| *count.get(name).unwrap_or(&0) as f64 / games as f64;
    let (attacks, sales) = (per_game("attack"), per_game("sold"));
    assert!(
        sales * 4.0 > attacks,
        "{sales} sales to {attacks} attacks a game"
    );
    assert!(per_game("action_drawn") >= 2.0, "{count:?}");
    assert!(per_game("blessed") >= 1.0, "{count:?}");
}

#[test]
fn the_metrics_of_the_mix_of_actions_count_what_the_events_show() {
    // The metrics are counted by the rules during play (util.count), also
    // when nothing is logged; here each game's values must equal what its
    // events show (greedy and random bots, 2 to 4 players).
    let e = engine();
    for (seed, players, seats) in [
        (1, 4, &["greedy"][..]),
        (2, 3, &["greedy", "random"][..]),
        (3, 2, &["random"][..]),
        (4, 4, &["greedy"][..]),
    ] {
        let mut events = common::Collect::default();
        let cfg = GameConfig::new("seadogs", players, seed);
        let mut runner = Runner::with_bots(bots_for(seats, seed, players)).observe(&mut events);
        let (game, result) = runner.run(&e, cfg, true).expect("a whole game");
        drop(runner);
        let rows = Outcome::of(&game, &result).expect("outcome").rows();
        let metric = |name: &str| {
            rows.iter()
                .find(|(k, _)| *k == Key::Metric(name.into()))
                .map(|(_, x)| *x)
        };
        let count = |name: &str| {
            events
                .0
                .iter()
                .filter(|ev| matches!(&ev.kind, EventKind::Script { name: n, .. } if n == name))
                .count() as f64
        };
        let rounds = rows
            .iter()
            .find(|(k, _)| *k == Key::Rounds)
            .map(|(_, x)| *x)
            .expect("rounds");
        assert!(rounds > 0.0);
        let close = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 1e-9);
        let what = format!("seed {seed}, {players} players, {rows:?}");
        assert!(
            close(metric("attacks per round"), count("attack") / rounds),
            "{what}"
        );
        assert!(
            close(metric("sales per round"), count("sold") / rounds),
            "{what}"
        );
        assert!(
            close(metric("action cards played"), count("action_played")),
            "{what}"
        );
        let claims = count("claimed");
        let calls = count("called_true") + count("called_lie");
        if claims == 0.0 {
            assert_eq!(metric("claims called"), None, "{what}");
        } else {
            assert!(close(metric("claims called"), calls / claims), "{what}");
        }
    }
}

#[test]
fn the_greedy_bot_is_the_one_seated_by_default() {
    // `play` and the REPL fill the seats with the first bot in name order:
    // the bots measured against it are named after it.
    let info = engine()
        .rules_of(&GameConfig::new("seadogs", 4, 1))
        .expect("rules")
        .info
        .clone();
    assert_eq!(
        info.bots,
        ["greedy", "greedy_always_claim", "greedy_never_call"]
    );
}

/// A game that records no events (a simulation, a search's copy) leaves out
/// the words of the options offered at most decisions (turns, attacks): they
/// are worded only when asked (`rules.describe`, by which a search tells
/// options apart), and then exactly as a game that records events words
/// them when it offers them.
#[test]
fn options_are_worded_alike_whether_or_not_the_game_records_events() {
    let e = engine();
    let mut left_out = 0;
    for players in 2..=6 {
        for seed in 0..4 {
            let cfg = GameConfig::new("seadogs", players, seed);
            let label = format!("{players} players, seed {seed}");
            let mut loud = e.new_game(cfg.clone(), true).expect("start");
            let mut quiet = e.new_game(cfg, false).expect("start");
            let mut rng = GameRng::from_seed(seed);
            while loud.pending().is_some() {
                assert_eq!(quiet.pending(), loud.pending(), "{label}");
                let options = loud.option_values().expect("options");
                assert!(
                    options.iter().all(|o| o["text"].is_string()),
                    "{label}: an option without words in a game that records events: {options:?}"
                );
                for viewer in 1..=players {
                    assert_eq!(
                        quiet.option_keys(viewer).expect("keys"),
                        loud.option_keys(viewer).expect("keys"),
                        "{label}, step {}, seen by seat {viewer}",
                        loud.history().len() + 1
                    );
                }
                let quiet_options = quiet.option_values().expect("options");
                left_out += quiet_options
                    .iter()
                    .filter(|o| o.get("text").is_none())
                    .count();
                let choice = random_choice(&loud, &mut rng).expect("choice");
                loud.apply_choice(&choice).expect("apply");
                quiet.apply_choice(&choice).expect("apply");
            }
            assert!(quiet.is_over(), "{label}");
        }
    }
    assert!(left_out > 1000, "options without words: {left_out}");
}
