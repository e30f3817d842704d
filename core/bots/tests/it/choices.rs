//! Choices of several cards and reaction windows, on a toy game of their
//! own (tests/fixtures/melds): one decision for a set of cards, checked by
//! the rules, recorded as one choice with its picks; windows asked only of
//! the seats that may respond, marked with their kind; the bots.

use deckhand_bots::{Bot, BotKind};
use deckhand_engine::conformance::Suite;
use deckhand_engine::{
    ActionRecord, Choice, CoreError, Engine, Game, GameConfig, MemorySource, Runner, SaveFile,
    ScriptLibrary, TraceLevel, TraceWriter,
};
use std::collections::BTreeMap;
use std::sync::Arc;

const MELDS: &str = include_str!("../../../../tests/fixtures/melds/game.lua");
const WINDOW: &str = include_str!("../../../../scripts/lib/window.lua");

fn engine_with(extra: &[(&str, &str)]) -> Engine {
    let mut files = BTreeMap::new();
    files.insert("melds/game.lua".to_string(), MELDS.to_string());
    files.insert("lib/window.lua".to_string(), WINDOW.to_string());
    for (path, text) in extra {
        files.insert(path.to_string(), text.to_string());
    }
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("test", files)));
    Engine::new(Arc::new(lib)).expect("engine")
}

fn engine() -> Engine {
    engine_with(&[])
}

fn start(e: &Engine, players: u32, seed: u64) -> Game {
    e.new_game(GameConfig::new("melds", players, seed), true)
        .expect("start")
}

/// Discard the first two cards of every hand (the opening secret choices).
fn discard_all(g: &mut Game) {
    for _ in 0..g.config().players {
        g.apply_choice(&Choice::subset(1, vec![1, 2]))
            .expect("discard two");
    }
}

#[test]
fn a_set_of_cards_is_one_choice_checked_by_the_rules() {
    let e = engine();
    let mut g = start(&e, 3, 4);
    let spec = g.subset(1).expect("subset").expect("asks for cards");
    assert_eq!((spec.from.len(), spec.min, spec.max), (5, 2, 2));
    // Without its cards, or with the wrong number, nothing happens.
    let err = g.apply(1).expect_err("cards missing");
    assert!(err.to_string().contains("asks for a set of cards"), "{err}");
    let err = g
        .apply_choice(&Choice::subset(1, vec![3]))
        .expect_err("one card");
    assert_eq!(err.to_string(), "choose exactly 2 cards");
    let err = g
        .apply_choice(&Choice::subset(1, vec![3, 9]))
        .expect_err("no card 9");
    assert!(err.to_string().contains("there is no card 9"), "{err}");
    assert!(g.history().is_empty());
    g.apply_choice(&Choice::subset(1, vec![5, 2]))
        .expect("two cards");
    let rec = &g.history()[0];
    assert_eq!(rec.picks, Some(vec![2, 5]));
    let chosen: Vec<u64> = rec.action["cards"]
        .as_array()
        .expect("cards")
        .iter()
        .filter_map(|c| c.as_u64())
        .collect();
    assert_eq!(chosen, vec![spec.from[1] as u64, spec.from[4] as u64]);
    assert!(rec.action.get("choose").is_none(), "{}", rec.action);
    // The rules' own check: a meld is of one suit.
    let mut g = start(&e, 2, 4);
    discard_all(&mut g);
    let spec = g.subset(1).expect("subset").expect("meld asks for cards");
    let suit = |id: u32| g.card(id).expect("card").props["suit"].clone();
    let mixed: Vec<usize> = (2..=spec.from.len())
        .find(|&p| suit(spec.from[p - 1]) != suit(spec.from[0]))
        .map(|p| vec![1, p])
        .expect("a hand of 3 with two suits at seed 4");
    let err = g
        .apply_choice(&Choice::subset(1, mixed))
        .expect_err("mixed suits");
    assert!(matches!(err, CoreError::Rule(ref m) if m == "a meld is of one suit"));
    assert_eq!(g.history().len(), 2);
    // An ordinary option given cards is refused too.
    let err = g
        .apply_choice(&Choice::subset(2, vec![1]))
        .expect_err("draw takes no cards");
    assert!(err.to_string().contains("does not ask for cards"), "{err}");
}

#[test]
fn every_check_of_the_suite_passes_with_sets_and_windows() {
    let e = engine();
    let suite = Suite::new(&e).expect("suite");
    for players in 2..=4 {
        for seed in 1..=4 {
            let config = GameConfig::new("melds", players, seed);
            let report = suite
                .check(&config)
                .unwrap_or_else(|f| panic!("{players} players, seed {seed}: {f}"));
            assert!(report.steps > players as usize);
        }
    }
}

#[test]
fn a_set_named_in_the_open_must_be_secret_when_others_cannot_see_it() {
    // The discard without its `secret`: its cards are named to everyone.
    let open = "return { id = \"open_discard\", game = \"melds\", modify = function(R)\n\
                local decision = R.decision\n\
                R.decision = function(game, prev)\n\
                  local d = decision(game, prev)\n\
                  if d and d.options[1].act == \"discard\" then d.options[1].secret = nil end\n\
                  return d\n\
                end\n\
                end }";
    let e = engine_with(&[("melds/variants/open_discard.lua", open)]);
    let suite = Suite::new(&e).expect("suite");
    let mut config = GameConfig::new("melds", 3, 2);
    config.variants = vec!["open_discard".into()];
    let f = suite.check(&config).expect_err("a leak");
    assert!(
        f.message.contains("make the option secret"),
        "{}",
        f.message
    );
    assert_eq!(f.step, Some(1));
}

#[test]
fn saves_keep_the_picks_and_old_records_stay_option_indices() {
    let e = engine();
    let mut g = start(&e, 2, 7);
    discard_all(&mut g);
    g.apply(2).expect("draw");
    let save = SaveFile::of(&g, vec!["human".into(), "human".into()]).expect("save");
    let text = serde_json::to_string(&save).expect("json");
    assert!(text.contains("\"picks\":[1,2]"), "{text}");
    let back = SaveFile::parse(&text).expect("parse");
    let loaded = e.replay(back.config, &back.actions).ok().expect("load");
    assert_eq!(loaded.history(), g.history());
    // A record without picks (as every save before them) is an option index.
    let rec: ActionRecord =
        serde_json::from_str(r#"{"seat": 1, "index": 2, "action": null}"#).expect("old record");
    assert_eq!(rec.choice(), Choice::option(2));
    // Replayed by index (no values recorded), the picks are used as they are.
    let bare: Vec<ActionRecord> = g
        .history()
        .iter()
        .map(|r| ActionRecord {
            action: serde_json::Value::Null,
            ..r.clone()
        })
        .collect();
    let again = e.replay(g.config().clone(), &bare).ok().expect("replay");
    assert_eq!(again.vars().expect("vars"), g.vars().expect("vars"));
    // Undo takes the whole set back; redo plays it again.
    let mut u = e
        .replay(g.config().clone(), g.history())
        .ok()
        .expect("replay");
    u.undo().expect("undo");
    u.undo().expect("undo");
    assert_eq!(u.history().len(), 1);
    assert!(u.subset(1).expect("subset").is_some());
    u.redo().expect("redo");
    assert_eq!(u.history()[1].picks, Some(vec![1, 2]));
}

/// Play `g` with random bots seeded `seed`, calling `watch` before each
/// decision is applied.
fn play_watching(g: &mut Game, seed: u64, mut watch: impl FnMut(&Game, &Choice)) {
    let players = g.config().players;
    let mut bots: Vec<Bot> = (1..=players)
        .map(|s| Bot::new(BotKind::Random, seed, s))
        .collect();
    while let Some((seat, _)) = g.pending() {
        let choice = bots[seat as usize - 1].choose(g).expect("choose");
        watch(g, &choice);
        g.apply_choice(&choice).expect("apply");
    }
}

#[test]
fn windows_ask_only_seats_that_may_respond_and_are_marked_with_their_kind() {
    let e = engine();
    let mut asked = 0;
    let mut passes = 0;
    let mut sizes = std::collections::BTreeSet::new();
    let mut counters = 0;
    for seed in 1..=60 {
        let mut g = start(&e, 3, seed);
        play_watching(&mut g, seed, |g, choice| {
            let d = g.decision().expect("decision").expect("pending");
            let vars = g.vars().expect("vars");
            match d.window.as_deref() {
                Some(kind) => {
                    asked += 1;
                    assert_eq!(g.window_pass(), Some(1));
                    assert_eq!(d.options[0].action["pass"], serde_json::json!(true));
                    // Only a seat with a veto token is asked, never the
                    // melder in its own meld's window.
                    let tokens = vars["vetoes"][(d.seat - 1) as usize].as_u64();
                    assert_eq!(tokens, Some(1), "{kind}: seat {} has no token", d.seat);
                    let top = &vars["windows"]
                        .as_array()
                        .expect("open windows")
                        .last()
                        .cloned();
                    let data = &top.as_ref().expect("a window")["data"];
                    if kind == "meld" {
                        assert_ne!(data["seat"].as_u64(), Some(d.seat as u64));
                    } else {
                        assert_eq!(kind, "veto");
                        counters += 1;
                        assert_eq!(data["melder"].as_u64(), Some(d.seat as u64));
                    }
                    if choice.index == 1 {
                        passes += 1;
                    }
                }
                None => {
                    assert_eq!(g.window_pass(), None);
                    if let Some(p) = &choice.picks {
                        if d.options[choice.index - 1].action["act"] == "meld" {
                            sizes.insert(p.len());
                        }
                    }
                }
            }
        });
        assert!(g.is_over());
    }
    // A response opened a window on top (a veto's counter-veto).
    assert!(counters > 0, "no veto window in 60 games");
    // The random bot passes 9 times in 10, and otherwise picks among all
    // the options (the pass one of two): 95% on average.
    let rate = passes as f64 / asked as f64;
    assert!(asked > 100, "{asked} questions");
    assert!((0.9..0.99).contains(&rate), "{passes} of {asked}");
    // Its melds come in several sizes, not only the smallest.
    assert!(sizes.len() >= 3, "{sizes:?}");
}

#[test]
fn the_search_bot_and_script_bots_choose_sets_without_listing_them() {
    let e = engine();
    let mut g = start(&e, 2, 3);
    discard_all(&mut g);
    let mut mc = Bot::new(BotKind::parse("mc:30"), 3, 1);
    let choice = mc.choose(&g).expect("mc");
    if choice.index == 1 {
        g.check_choice(&choice).expect("a valid meld");
    }
    let stats = deckhand_bots::search::hint(&g, 30, None).expect("hint");
    // The meld is searched as a few sets (each valid), not one per subset.
    let melds: Vec<_> = stats.iter().filter(|s| s.index == 1).collect();
    assert!(!melds.is_empty() && melds.len() <= deckhand_bots::search::SAMPLED_SETS + 1);
    for s in &melds {
        g.check_choice(&Choice {
            index: 1,
            picks: s.picks.clone(),
        })
        .expect("each searched set is valid");
    }
    // A script bot names its cards by id; whole games with it end.
    for seed in 1..=5 {
        let (game, _) = Runner::with_bots(vec![
            Bot::new(BotKind::parse("biggest"), seed, 1),
            Bot::new(BotKind::Random, seed, 2),
        ])
        .run(&e, GameConfig::new("melds", 2, seed), false)
        .expect("a game");
        assert!(game
            .history()
            .iter()
            .any(|r| r.seat == 1 && r.picks.is_some()));
    }
}

#[test]
fn traces_record_the_picks_and_the_window_kind() {
    let e = engine();
    let mut trace = TraceWriter::with_level(Vec::new(), TraceLevel::Full);
    for seed in 1..=6 {
        Runner::random(3, seed)
            .observe(trace.game(seed))
            .run(&e, GameConfig::new("melds", 3, seed), true)
            .expect("a game");
    }
    let text = String::from_utf8(trace.into_inner()).expect("utf-8");
    let decisions: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("json"))
        .filter(|r: &serde_json::Value| r.get("c").is_some())
        .collect();
    let mut picks = 0;
    let mut windows = 0;
    for d in &decisions {
        let chosen = d["c"].as_u64().expect("chosen") as usize;
        let option = &d["o"][chosen - 1];
        // `pk` exactly when the option chosen asks for cards.
        assert_eq!(d.get("pk").is_some(), option.get("choose").is_some(), "{d}");
        if let Some(p) = d.get("pk").and_then(|p| p.as_array()) {
            picks += 1;
            let n = option["choose"]["from"].as_array().expect("from").len() as u64;
            assert!(p
                .iter()
                .all(|x| x.as_u64().is_some_and(|x| (1..=n).contains(&x))));
        }
        if let Some(kind) = d.get("w") {
            windows += 1;
            assert!(kind == "meld" || kind == "veto", "{d}");
            assert_eq!(d["o"][0]["pass"], serde_json::json!(true));
        }
    }
    assert!(picks >= 18, "{picks} choices of cards in 6 games");
    assert!(windows > 0);
}
