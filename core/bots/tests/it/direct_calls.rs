//! The direct calls from compiled Lua into the core (an engine that counts
//! no instructions runs LuaJIT's compiler, and its prelude calls the
//! busiest primitives through the FFI): the same games, the same errors at
//! the same script lines, and no way for a script to reach the FFI.

use crate::toy;

use deckhand_bots::{Bot, BotKind};
use deckhand_engine::{GameConfig, Runner};

/// A variant of the toy game whose setup ends with `line` (`g` is the game,
/// `deck`, `pile` and `hand` its zones).
fn misuse(line: &str) -> (String, String) {
    (
        "high_card/variants/misuse.lua".to_string(),
        format!(
            "return {{ id = 'misuse', game = 'high_card', modify = function(R)\n\
             local setup = R.setup\n\
             R.setup = function(g)\n\
             setup(g)\n\
             local deck, pile, hand = g:zone('deck'), g:zone('pile'), g:zone('hand', 1)\n\
             {line}\n\
             end end }}"
        ),
    )
}

#[test]
fn a_misused_primitive_fails_alike_with_and_without_the_compiler() {
    let cases = [
        // not a card of the zone, not a whole number, not a number
        "g:move(999, hand, pile)",
        "g:move(hand[1] + 0.5, hand, pile)",
        "g:move('x', hand, pile)",
        "g:move(hand[1], hand, { id = 99 })",
        "g:move(hand[1], hand, { id = 1.5 })",
        "g:move_top(hand, { id = -1 })",
        "g:move_all(hand, { id = 99 })",
        "g:move_all(hand, { id = 'pile' })",
        "g:random(1.5, 3)",
        "g:random(6, 1)",
        "g:random('a', 3)",
        "g:set_teams({ { 1.5 }, { 2 } })",
        "g:set_teams({ { 1 }, 2 })",
        "g:deal(deck, { hand, { id = 99 } }, 1)",
        "g:deal(deck, { hand }, 100)",
        "g:deal(deck, { hand }, 0.5)",
        "g:deal(deck, { deck }, 1)",
        "g:shuffle({ id = 99 })",
        "g:sort({ id = 0.5 })",
        "g:place(1, pile)",
        "g:place(g:new_card { name = 'X' }, { id = 99 })",
        // a game object that is not the game in play
        "local fake = setmetatable({ _core = g._core + 1 }, { __index = g }); fake:random(1, 2)",
        "local fake = setmetatable({ _core = g._core + 0.5 }, { __index = g }); fake:move(hand[1], hand, pile)",
    ];
    for line in cases {
        let (name, text) = misuse(line);
        let outcomes: Vec<Result<(), String>> = toy::both_engines(&[(&name, &text)])
            .iter()
            .map(|(_, e)| {
                e.new_game(GameConfig::new("high_card", 2, 1).variant("misuse"), false)
                    .map(|_| ())
                    .map_err(|err| err.to_string())
            })
            .collect();
        assert_eq!(outcomes[0], outcomes[1], "`{line}`: counted vs compiled");
        match &outcomes[0] {
            Err(message) => assert!(
                message.contains("misuse.lua:6"),
                "`{line}`: the message points at the line: {message}"
            ),
            Ok(()) => panic!("`{line}` was accepted"),
        }
        // A number with a fraction is refused, never read as its whole part.
        if line.contains(".5") {
            let message = outcomes[0].as_ref().expect_err("refused");
            assert!(
                message.contains("whole number") && message.contains(".5"),
                "`{line}`: {message}"
            );
        }
    }
}

#[test]
fn a_deal_too_large_to_count_moves_no_card() {
    // 2^63 cards to each of two zones overflows a count of cards; under
    // `pcall` the script goes on, and the core and the mirrors must still
    // agree (no card moved).
    let line = "local ok, err = pcall(function() g:deal(deck, { hand, pile }, 2^63) end)\n\
                assert(not ok, 'the deal was accepted')\n\
                assert(#pile == 0, 'a card reached the pile: ' .. #pile)\n\
                g.vars.deal_error = tostring(err)";
    let (name, text) = misuse(line);
    let mut messages = Vec::new();
    for (mode, e) in toy::both_engines(&[(&name, &text)]) {
        let g = e
            .new_game(GameConfig::new("high_card", 2, 1).variant("misuse"), false)
            .unwrap_or_else(|err| panic!("{mode}: {err}"));
        g.check_invariants()
            .unwrap_or_else(|err| panic!("{mode}: core and mirrors disagree: {err}"));
        let vars = g.vars().expect("vars");
        let message = vars["deal_error"].as_str().expect("error text").to_string();
        assert!(
            message.contains("needed") || message.contains("whole number in range"),
            "{mode}: {message}"
        );
        messages.push(message);
    }
    assert_eq!(messages[0], messages[1], "counted vs compiled");
}

/// A variant of the toy game whose decisions are made by `wrap`, a Lua
/// function of the toy game's decision `d` (a table or nil) that returns
/// the decision to give.
fn decision_variant(wrap: &str) -> (String, String) {
    (
        "high_card/variants/lists.lua".to_string(),
        format!(
            "return {{ id = 'lists', game = 'high_card', modify = function(R)\n\
             local decision = R.decision\n\
             local wrap = {wrap}\n\
             R.decision = function(g, previous)\n\
             local d = decision(g, previous)\n\
             if d == nil then return nil end\n\
             return wrap(d)\n\
             end end }}"
        ),
    )
}

#[test]
fn teams_are_read_by_their_raw_length() {
    // A `__len` claiming 2^40 teams is not asked: the two teams given are
    // read, on both paths (seat 1 in team 0, seat 2 in team 1).
    let (name, text) = misuse(
        "g:set_teams(setmetatable({ { 1 }, { 2 } }, { __len = function() return 2^40 end }))",
    );
    for (mode, e) in toy::both_engines(&[(&name, &text)]) {
        let g = e
            .new_game(GameConfig::new("high_card", 2, 1).variant("misuse"), false)
            .unwrap_or_else(|err| panic!("{mode}: {err}"));
        assert_eq!(g.seat_teams().expect("teams"), Some(vec![0, 1]), "{mode}");
    }
}

#[test]
fn a_decision_is_read_by_its_raw_length_on_both_paths() {
    // A `__len` claiming 2^40 options (or NaN, or -1) is not asked: the
    // game plays exactly as the plain toy game, on both paths.
    let plain: Vec<_> = toy::both_engines(&[])
        .iter()
        .map(|(_, e)| {
            let mut g = e
                .new_game(GameConfig::new("high_card", 2, 4), true)
                .expect("plain");
            Runner::shared(2, |_: &deckhand_engine::Game| Ok(1))
                .play(&mut g)
                .expect("play");
            g.history().to_vec()
        })
        .collect();
    for claim in ["2^40", "0/0", "-1"] {
        let (name, text) = decision_variant(&format!(
            "function(d) setmetatable(d.options, {{ __len = function() return {claim} end }}) return d end"
        ));
        for (i, (mode, e)) in toy::both_engines(&[(&name, &text)]).iter().enumerate() {
            let mut g = e
                .new_game(GameConfig::new("high_card", 2, 4).variant("lists"), true)
                .unwrap_or_else(|err| panic!("{mode} {claim}: {err}"));
            assert_eq!(g.pending().map(|p| p.1), Some(3), "{mode} {claim}");
            assert_eq!(
                g.option_values().expect("values").len(),
                3,
                "{mode} {claim}"
            );
            Runner::shared(2, |_: &deckhand_engine::Game| Ok(1))
                .play(&mut g)
                .unwrap_or_else(|err| panic!("{mode} {claim}: {err}"));
            assert_eq!(g.history().to_vec(), plain[i], "{mode} {claim}");
        }
    }
    // Too many options, a hole, or options that are not a list: the same
    // error on both paths, naming what is wrong.
    for (wrap, expected) in [
        (
            "function(d) local o = {} for i = 1, 100001 do o[i] = d.options[1] end d.options = o return d end",
            "100001 options, more than the 100000",
        ),
        (
            "function(d) local a = d.options[1] d.options = { a, a, a } d.options[2] = nil return d end",
            "option 2 of 3 is nil",
        ),
        ("function(d) return 'x' end", "lists.lua:4: `decision` returned a string"),
    ] {
        let (name, text) = decision_variant(wrap);
        let outcomes: Vec<String> = toy::both_engines(&[(&name, &text)])
            .iter()
            .map(|(_, e)| {
                match e.new_game(GameConfig::new("high_card", 2, 4).variant("lists"), true) {
                    Ok(g) => format!("started, {:?} options", g.pending().map(|p| p.1)),
                    Err(err) => err.to_string(),
                }
            })
            .collect();
        assert_eq!(outcomes[0], outcomes[1], "`{wrap}`: counted vs compiled");
        assert!(outcomes[0].contains(expected), "`{wrap}`: {}", outcomes[0]);
    }
}

#[test]
fn games_play_alike_with_and_without_the_compiler() {
    let engines = toy::both_engines(&[]);
    for seed in 0..20 {
        let cfg = GameConfig::new("high_card", 2 + (seed % 3) as u32, seed).option("hand", 3);
        let played: Vec<_> = engines
            .iter()
            .map(|(_, e)| {
                let mut g = e.new_game(cfg.clone(), true).expect("start");
                // Each seat takes the option the seed points at.
                let pick = move |g: &deckhand_engine::Game| {
                    Ok(g.pending()
                        .map_or(1, |p| 1 + (seed as usize + g.history().len()) % p.1))
                };
                Runner::shared(cfg.players, pick)
                    .play(&mut g)
                    .expect("play");
                g.check_invariants().expect("cards conserved");
                let r = g.result().expect("result");
                let events = serde_json::to_string(&g.take_events()).expect("events");
                (g.history().to_vec(), events, r.scores, r.winners)
            })
            .collect();
        assert_eq!(played[0], played[1], "seed {seed}");
    }
    // The compiled engine made its moves by direct calls; the counting one
    // made none.
    let calls: Vec<u64> = engines
        .iter()
        .map(|(_, e)| e.host().direct_calls())
        .collect();
    assert_eq!(calls[0], 0, "counted");
    assert!(calls[1] > 100, "compiled: {} direct calls", calls[1]);
}

#[test]
fn search_bots_play_alike_with_and_without_the_compiler() {
    // The searches guess the hidden cards in copies of the game, whose
    // mirrors the prelude then reads from the core by direct calls.
    let engines = toy::both_engines(&[]);
    for seed in 0..6 {
        let cfg = GameConfig::new("high_card", 3, seed).option("hand", 4);
        let played: Vec<_> = engines
            .iter()
            .map(|(_, e)| {
                let mut g = e.new_game(cfg.clone(), false).expect("start");
                let bots = vec![
                    Bot::new(BotKind::parse("mc:30"), seed, 1),
                    Bot::new(BotKind::parse("ismcts:30"), seed, 2),
                    Bot::new(BotKind::Random, seed, 3),
                ];
                Runner::with_bots(bots).play(&mut g).expect("play");
                g.check_invariants().expect("cards conserved");
                g.history().to_vec()
            })
            .collect();
        assert_eq!(played[0], played[1], "seed {seed}");
    }
}

#[test]
fn no_script_reaches_the_ffi() {
    for (which, e) in toy::both_engines(&[]) {
        for code in [
            "ffi.new('int[1]')",
            "require('ffi')",
            "jit",
            "return core",
            "return deckhand.direct",
        ] {
            let out = e.host().eval(code, None);
            assert!(
                out.as_ref().map_or(true, |s| s == "nil"),
                "{which}: `{code}` gave {out:?}"
            );
        }
    }
}

#[test]
fn a_zone_too_large_for_the_buffer_is_shuffled_alike_on_both_paths() {
    // 1,500 cards do not fit the order buffer of a direct call: the order
    // comes back another way, and the mirror still matches the core.
    let line = "for i = 1, 1500 do g:place(g:new_card { name = 'X' .. i }, pile) end\n\
                g:shuffle(pile)\n\
                g.vars.after_shuffle = { pile[1], pile[750], pile[#pile], #pile }\n\
                g:sort(pile)\n\
                g.vars.after_sort = { pile[1], pile[#pile], #pile }";
    let (name, text) = misuse(line);
    let mut seen = Vec::new();
    for (mode, e) in toy::both_engines(&[(&name, &text)]) {
        let g = e
            .new_game(GameConfig::new("high_card", 2, 7).variant("misuse"), false)
            .unwrap_or_else(|err| panic!("{mode}: {err}"));
        g.check_invariants()
            .unwrap_or_else(|err| panic!("{mode}: core and mirrors disagree: {err}"));
        let vars = g.vars().expect("vars");
        assert_eq!(vars["after_shuffle"][3], 1500, "{mode}");
        seen.push((vars["after_shuffle"].clone(), vars["after_sort"].clone()));
    }
    assert_eq!(seen[0], seen[1], "counted vs compiled");
    assert_ne!(
        seen[0].0[0], seen[0].1[0],
        "the shuffle moved the first card"
    );
}

#[test]
fn a_hint_is_the_same_with_and_without_the_compiler() {
    // The REPL's hint runs on a compiled copy of a game played in the
    // interpreter: both must find the same.
    let cfg = GameConfig::new("high_card", 3, 5).option("hand", 4);
    let hints: Vec<_> = toy::both_engines(&[])
        .iter()
        .map(|(mode, e)| {
            let g = e.new_game(cfg.clone(), true).expect("start");
            deckhand_bots::hint::hint(&g, deckhand_bots::Budget::Iterations(300), None)
                .unwrap_or_else(|err| panic!("{mode}: {err}"))
        })
        .collect();
    assert_eq!(hints[0], hints[1]);
    assert_eq!(hints[0].playouts, 300);
}
