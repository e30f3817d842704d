//! The core through its public API, on a toy game defined here (the core
//! knows no real game): steps, undo/redo, replay, fork, views, the sandbox,
//! the budget and error recovery.

use crate::toy;

use deckhand_engine::lua::Limits;
use deckhand_engine::{
    ActionRecord, CoreError, Engine, GameConfig, MemorySource, Runner, ScriptLibrary,
};
use std::collections::BTreeMap;
use std::sync::Arc;

/// The toy "high card" game shared with the other crate's tests.
use toy::HIGH_CARD;

const LOOP_VARIANT: &str = r#"
return { id = "loop", title = "Never ends", game = "high_card",
  modify = function(R) R.apply = function() while true do end end end }
"#;

fn engine_with(extra: &[(&str, &str)]) -> Engine {
    let mut files = vec![("high_card/variants/loop.lua", LOOP_VARIANT)];
    files.extend_from_slice(extra);
    Engine::new(toy::library(&files)).expect("engine")
}

fn engine() -> Engine {
    engine_with(&[])
}

/// Play to the end, every seat taking its last option.
fn play_out(game: &mut deckhand_engine::Game) {
    let last = |g: &deckhand_engine::Game| Ok(g.pending().map_or(1, |p| p.1));
    Runner::shared(game.config().players, last)
        .play(game)
        .expect("play");
}

#[test]
fn a_whole_game_conserves_cards_and_reports_a_result() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 3, 7), true)
        .expect("start");
    g.check_invariants().expect("after setup");
    play_out(&mut g);
    g.check_invariants().expect("at the end");
    assert_eq!(g.history().len(), 9);
    let r = g.result().expect("result");
    assert_eq!(r.scores.iter().sum::<f64>(), 3.0);
    assert!(!r.winners.is_empty());
}

#[test]
fn same_seed_same_game_different_seed_different_deal() {
    let e = engine();
    let a = e
        .new_game(GameConfig::new("high_card", 2, 1), false)
        .expect("a");
    let b = e
        .new_game(GameConfig::new("high_card", 2, 1), false)
        .expect("b");
    let c = e
        .new_game(GameConfig::new("high_card", 2, 2), false)
        .expect("c");
    let hands = |g: &deckhand_engine::Game| g.view(None).expect("view").zones;
    assert_eq!(hands(&a), hands(&b));
    assert_ne!(hands(&a), hands(&c));
}

#[test]
fn determinism_holds_across_two_vms() {
    let run = || {
        let e = engine();
        let mut g = e
            .new_game(GameConfig::new("high_card", 4, 99), true)
            .expect("start");
        play_out(&mut g);
        (g.vars().expect("vars"), g.history().to_vec())
    };
    assert_eq!(run(), run());
}

#[test]
fn views_hide_other_hands_and_hidden_zones() {
    let e = engine();
    let g = e
        .new_game(GameConfig::new("high_card", 2, 3), true)
        .expect("start");
    let v = g.view(Some(1)).expect("view");
    for z in &v.zones {
        match (z.name.as_str(), z.owner) {
            ("hand", Some(1)) | ("pile", None) => assert!(z.cards.is_some()),
            ("hand", Some(2)) | ("deck", None) => {
                assert!(z.cards.is_none());
                assert_eq!(z.count, if z.name == "hand" { 3 } else { 6 });
            }
            other => panic!("unexpected zone {other:?}"),
        }
    }
}

#[test]
fn undo_and_redo_restore_exact_states() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, 5), true)
        .expect("start");
    let before = g.view(None).expect("view");
    g.apply(2).expect("apply");
    let after = g.view(None).expect("view");
    assert!(g.undo().expect("undo"));
    assert_eq!(g.view(None).expect("view"), before);
    assert!(g.redo().expect("redo"));
    assert_eq!(g.view(None).expect("view"), after);
    assert!(!g.redo().expect("nothing to redo"));
    while g.undo().expect("undo") {}
    assert_eq!(g.view(None).expect("view"), before);
}

#[test]
fn replay_by_value_reports_the_first_illegal_step() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, 5), true)
        .expect("start");
    play_out(&mut g);
    let log = g.history().to_vec();
    let same = e.replay(g.config().clone(), &log).ok().expect("replays");
    assert_eq!(same.vars().expect("vars"), g.vars().expect("vars"));
    let mut bad = log.clone();
    bad[3] = ActionRecord {
        seat: bad[3].seat,
        index: 1,
        picks: None,
        action: serde_json::json!({"card": 999}),
    };
    let stop = e.replay(g.config().clone(), &bad).err().expect("stops");
    assert!(
        matches!(stop.error, CoreError::Replay { step: 4, .. }),
        "{}",
        stop.error
    );
    assert_eq!(stop.game.expect("partial game").history().len(), 3);
}

#[test]
fn replay_tells_rules_that_fail_from_a_step_that_is_not_legal() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, 5), true)
        .expect("start");
    play_out(&mut g);
    let log = g.history().to_vec();
    // The same log under rules that raise an error at the third step.
    let failing = g.config().clone().option("boom_at", 3);
    let stop = e.replay(failing, &log).err().expect("stops");
    let CoreError::ReplayFailed { step, error } = &stop.error else {
        panic!("not a failure of the rules: {}", stop.error);
    };
    assert_eq!(*step, 3);
    assert!(
        matches!(**error, CoreError::Script(ref m) if m.contains("game.lua:") && m.contains("boom")),
        "{error}"
    );
    assert_eq!(stop.game.expect("partial game").history().len(), 2);
}

#[test]
fn a_script_error_names_the_line_and_leaves_the_game_unchanged() {
    let e = engine();
    let cfg = GameConfig::new("high_card", 2, 5).option("boom_at", 2);
    let mut g = e.new_game(cfg, true).expect("start");
    g.apply(1).expect("first step is fine");
    let before = (g.view(None).expect("view"), g.history().to_vec());
    let err = g.apply(1).expect_err("second step raises");
    let msg = err.to_string();
    assert!(
        msg.contains("test/high_card/game.lua:") && msg.contains("boom"),
        "{msg}"
    );
    assert_eq!((g.view(None).expect("view"), g.history().to_vec()), before);
    g.check_invariants().expect("still consistent");
}

#[test]
fn a_runaway_script_hits_the_instruction_budget() {
    let e = engine();
    let cfg = GameConfig::new("high_card", 2, 5).variant("loop");
    let mut g = e.new_game(cfg, true).expect("start");
    let err = g.apply(1).expect_err("budget");
    assert!(err.to_string().contains("budget exceeded"), "{err}");
    assert_eq!(g.history().len(), 0);
}

#[test]
fn a_runaway_coroutine_is_stopped_too() {
    let e = engine();
    let err = e
        .host()
        .eval("coroutine.wrap(function() while true do end end)()", None)
        .expect_err("budget");
    assert!(err.to_string().contains("budget exceeded"), "{err}");
}

#[test]
fn a_loop_of_slow_instructions_is_stopped_by_processor_time() {
    // Each turn of this loop is a few instructions, but one of them builds
    // a long string: the instruction count alone would let it run for
    // minutes. The processor-time backstop stops it.
    let limits = Limits {
        cpu_seconds: 0.3,
        ..Limits::default()
    };
    let e = Engine::with_limits(toy::library(&[]), limits).expect("engine");
    let started = std::time::Instant::now();
    let err = e
        .host()
        .eval(
            "local n = 0 while true do n = n + #string.rep('x', 200000) end",
            None,
        )
        .expect_err("stopped");
    let took = started.elapsed();
    assert!(
        err.to_string()
            .contains("time budget exceeded (0.3 s of processor time)"),
        "{err}"
    );
    // Generous for a loaded machine: the limit is processor time.
    assert!(took < std::time::Duration::from_secs(10), "took {took:?}");
    assert_eq!(e.host().eval("1 + 1", None).expect("the VM goes on"), "2");
}

#[test]
fn a_runaway_description_is_paid_once_per_decision() {
    let spin = "return { id = 'spin', game = 'high_card', modify = function(R)\n\
                R.describe = function(game, option) while true do end end\n\
                end }";
    let limits = Limits {
        cpu_seconds: 0.3,
        ..Limits::default()
    };
    let e = Engine::with_limits(
        toy::library(&[("high_card/variants/spin.lua", spin)]),
        limits,
    )
    .expect("engine");
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, 5).variant("spin"), false)
        .expect("start");
    let started = std::time::Instant::now();
    let first = g.decision().expect_err("runaway").to_string();
    let once = started.elapsed();
    assert!(first.contains("budget exceeded"), "{first}");
    // Every other option's text at this decision: the same error, at once.
    let started = std::time::Instant::now();
    for v in g.option_values().expect("values") {
        assert_eq!(g.describe(&v).expect_err("runaway").to_string(), first);
    }
    assert_eq!(g.decision().expect_err("runaway").to_string(), first);
    let again = started.elapsed();
    assert!(again * 4 < once, "{again:?} against {once:?}");
    // Once the game moves, descriptions are asked again.
    g.apply(1).expect("the step itself is fine");
    let started = std::time::Instant::now();
    assert!(g.decision().is_err());
    assert!(started.elapsed() * 2 > once, "asked again after the move");
}

#[test]
fn a_loop_the_jit_would_compile_hits_the_budget_too() {
    // LuaJIT's compiled code never runs the count hook: an engine that
    // counts must keep every loop in the interpreter. With the compiler on,
    // this loop would run to its end and return a number.
    let e = engine();
    let err = e
        .host()
        .eval(
            "local x = 0 for i = 1, 1e10 do x = x + i % 7 end return x",
            None,
        )
        .expect_err("budget");
    assert!(err.to_string().contains("budget exceeded"), "{err}");
}

#[test]
fn the_sandbox_has_no_escape_hatches() {
    // Both kinds of VM: one that counts instructions, and one that runs the
    // compiler (whose prelude alone holds the `ffi` library).
    let compiled = Limits {
        instructions: None,
        ..Limits::default()
    };
    let compiled = Engine::with_limits(toy::library(&[]), compiled).expect("engine");
    for e in [engine(), compiled] {
        escape_hatches_are_closed(&e);
    }
}

#[test]
fn no_script_reaches_the_debug_library() {
    // The VM opens `debug` for the prelude's `Game:count`, which keeps
    // `debug.getinfo` alone; scripts find neither the library nor the
    // function, on both kinds of VM.
    let compiled = Limits {
        instructions: None,
        ..Limits::default()
    };
    let compiled = Engine::with_limits(toy::library(&[]), compiled).expect("engine");
    for e in [engine(), compiled] {
        for code in [
            "return debug",
            "return getinfo",
            "return core",
            "return _G.debug",
            "return package",
        ] {
            let out = e.host().eval(code, None);
            assert!(
                out.as_ref().map_or(true, |s| s == "nil"),
                "`{code}` gave {out:?}"
            );
        }
    }
}

fn escape_hatches_are_closed(e: &Engine) {
    for code in [
        "io.open('/etc/passwd')",
        "os.execute('true')",
        "load('return 1')",
        "loadfile('/etc/passwd')",
        "dofile('/etc/passwd')",
        "string.dump(print)",
        "debug.getinfo(1)",
        "math.random()",
        "require('../../etc/passwd')",
        "require('os')",
        "package.loadlib('x', 'y')",
        "collectgarbage('stop')",
        // LuaJIT's own: code from text, environments of other functions,
        // the compiler's switches and the FFI.
        "loadstring('return 1')",
        "setfenv(print, {})",
        "getfenv(print)",
        "jit.on()",
        "require('jit')",
        "require('ffi')",
        "newproxy(true)",
    ] {
        assert!(e.host().eval(code, None).is_err(), "escape allowed: {code}");
    }
    assert_eq!(e.host().eval("1 + 1", None).expect("math works"), "2");
}

#[test]
fn memory_is_limited() {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("t", BTreeMap::new())));
    let limits = deckhand_engine::lua::Limits {
        instructions: None,
        memory: 16 * 1024 * 1024,
        ..Default::default()
    };
    let e = Engine::with_limits(Arc::new(lib), limits).expect("engine");
    let err = e
        .host()
        .eval("local t = {} for i = 1, 1e8 do t[i] = i end", None)
        .expect_err("memory");
    assert!(err.to_string().contains("memory"), "{err}");
    // The garbage of the failed call does not keep the VM full.
    assert_eq!(
        e.host().eval("#string.rep('x', 1e6)", None).expect("after"),
        "1000000"
    );
}

#[test]
fn options_are_checked_and_player_counts_enforced() {
    let e = engine();
    let err = e
        .new_game(GameConfig::new("high_card", 2, 1).option("hnd", 2), false)
        .err()
        .expect("typo");
    assert!(err.to_string().contains("no option 'hnd'"), "{err}");
    let err = e
        .new_game(GameConfig::new("high_card", 5, 1), false)
        .err()
        .expect("too many");
    assert!(err.to_string().contains("2-4 players"), "{err}");
    let err = e
        .new_game(
            GameConfig::new("high_card", 2, 1).option("hand", "x"),
            false,
        )
        .err()
        .expect("type");
    assert!(err.to_string().contains("expected a value like 3"), "{err}");
}

#[test]
fn reading_an_unknown_option_in_a_script_is_an_error() {
    let e = engine_with(&[(
        "high_card/variants/typo.lua",
        "return { id = 'typo', game = 'high_card', modify = function(R)\n local setup = R.setup\n R.setup = function(g) local x = g.options.hnd; setup(g) end end }",
    )]);
    let err = e
        .new_game(GameConfig::new("high_card", 2, 1).variant("typo"), false)
        .err()
        .expect("typo");
    assert!(
        err.to_string().contains("no such key 'hnd'") && err.to_string().contains("typo.lua:3"),
        "{err}"
    );
}

#[test]
fn a_game_object_kept_from_another_game_is_refused() {
    // The variant keeps the first game it sets up (a module-level local
    // outlives the game) and uses it while setting up the next one: the
    // core must not shuffle or move in the wrong game's table.
    let e = engine_with(&[(
        "high_card/variants/keep.lua",
        "local kept\nreturn { id = 'keep', game = 'high_card', modify = function(R)\n local setup = R.setup\n R.setup = function(g)\n  if kept then kept:random(1, 6) end\n  kept = kept or g; setup(g) end end }",
    )]);
    let cfg = GameConfig::new("high_card", 2, 1).variant("keep");
    e.new_game(cfg.clone(), false).expect("the first game");
    let err = e
        .new_game(cfg, false)
        .err()
        .expect("the kept game is refused");
    assert!(
        err.to_string().contains("not the game being played")
            && err.to_string().contains("keep.lua:5"),
        "{err}"
    );
}

#[test]
fn a_card_defined_but_never_placed_breaks_conservation() {
    // The prelude numbers cards without telling the core; the core must
    // still count a card that was never placed.
    let e = engine_with(&[(
        "high_card/variants/stray.lua",
        "return { id = 'stray', game = 'high_card', modify = function(R)\n local setup = R.setup\n R.setup = function(g) setup(g); g:new_card { name = 'Stray' } end end }",
    )]);
    let g = e
        .new_game(GameConfig::new("high_card", 2, 1).variant("stray"), false)
        .expect("start");
    let err = g
        .check_invariants()
        .expect_err("the stray card is in no zone");
    assert!(err.to_string().contains("(Stray) is in 0 zones"), "{err}");
    let n = g.cards().expect("cards").len();
    assert_eq!(g.card(n as u32).expect("the stray card").name, "Stray");
}

#[test]
fn a_card_definition_table_passed_twice_is_refused() {
    // new_card keeps the table it is given as the definition, so a template
    // changed and passed again would change the first card as well.
    let e = engine_with(&[(
        "high_card/variants/template.lua",
        "return { id = 'template', game = 'high_card', modify = function(R)\n local setup = R.setup\n R.setup = function(g)\n setup(g)\n local p = { name = 'T1' }\n g:new_card(p)\n p.name = 'T2'\n g:new_card(p)\n end end }",
    )]);
    let err = e
        .new_game(
            GameConfig::new("high_card", 2, 1).variant("template"),
            false,
        )
        .err()
        .expect("the second use is refused");
    let msg = err.to_string();
    assert!(
        msg.contains("template.lua:8") && msg.contains("fresh table for each card"),
        "{msg}"
    );
}

#[test]
fn sorting_a_zone_orders_core_and_mirror_until_a_card_arrives() {
    // After the deal each hand is sorted; the flag survives a card leaving
    // and is cleared by one arriving.
    let e = engine_with(&[(
        "high_card/variants/sorted.lua",
        "return { id = 'sorted', game = 'high_card', modify = function(R)\n\
           local setup, apply = R.setup, R.apply\n\
           R.setup = function(g) setup(g)\n\
             for s = 1, g.seats do g:sort(g:zone('hand', s)) end\n\
             g.vars.flags = { g:zone('hand', 1).sorted == true } end\n\
           R.apply = function(g, seat, a) apply(g, seat, a)\n\
             local f = g.vars.flags\n\
             f[#f + 1] = g:zone('hand', seat).sorted == true\n\
             g:move(g:zone('pile')[1], g:zone('pile'), g:zone('hand', seat))\n\
             f[#f + 1] = g:zone('hand', seat).sorted == true end end }",
    )]);
    let mut g = e
        .new_game(
            GameConfig::new("high_card", 2, 9)
                .variant("sorted")
                .option("hand", 5),
            true,
        )
        .expect("start");
    let hand = |g: &deckhand_engine::Game| {
        g.view(None)
            .expect("view")
            .zones
            .into_iter()
            .find(|z| z.name == "hand" && z.owner == Some(1))
            .and_then(|z| z.cards)
            .expect("hand 1")
    };
    let dealt = hand(&g);
    let mut sorted = dealt.clone();
    sorted.sort_unstable();
    assert_eq!(dealt, sorted, "the core's zone is in card-id order");
    g.check_invariants()
        .expect("the mirror agrees with the core");
    assert!(g
        .take_events()
        .iter()
        .any(|ev| matches!(ev.kind, deckhand_engine::EventKind::Sort { .. })));
    g.apply(2).expect("play");
    g.check_invariants().expect("after the step");
    assert_eq!(
        g.vars().expect("vars")["flags"],
        serde_json::json!([true, true, false]),
        "sorted after the deal, still after a card left, not after one arrived"
    );
}

#[test]
fn fork_is_independent_of_the_original() {
    let e = engine();
    let g = e
        .new_game(GameConfig::new("high_card", 2, 5), true)
        .expect("start");
    let mut f = g.fork().expect("fork");
    play_out(&mut f);
    f.check_invariants().expect("fork consistent");
    assert_eq!(g.history().len(), 0);
    g.check_invariants().expect("original untouched");
    assert!(!g.is_over());
}

#[test]
fn script_bots_see_only_their_view_and_pick_legal_options() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, 5), true)
        .expect("start");
    let mut bot = deckhand_bots::Bot::new(deckhand_bots::BotKind::parse("lowest"), 5, 1);
    let i = bot.choose(&g).expect("choice").index;
    let d = g.decision().expect("d").expect("pending");
    let chosen = &d.options[i - 1];
    let min = d
        .options
        .iter()
        .map(|o| o.text[1..].parse::<u32>().unwrap_or(0))
        .min();
    assert_eq!(chosen.text[1..].parse::<u32>().ok(), min);
    g.apply(i).expect("legal");
}

#[test]
fn events_are_logged_with_their_step_and_visibility() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, 5), true)
        .expect("start");
    let setup = g.take_events();
    assert!(setup
        .iter()
        .any(|ev| matches!(ev.kind, deckhand_engine::EventKind::Shuffle { .. })));
    g.apply(1).expect("1");
    g.apply(1).expect("2");
    let evs = g.take_events();
    let won = evs
        .iter()
        .find(|ev| ev.text().is_some())
        .expect("trick event");
    assert_eq!(won.step, 2);
    // A deal into seat 2's hand is not visible to seat 1.
    let deal = setup
        .iter()
        .find(|ev| matches!(ev.kind, deckhand_engine::EventKind::Move { to, .. } if to == 4))
        .expect("deal to seat 2");
    assert!(!g.event_visible_to(deal, 1));
    assert!(g.event_visible_to(deal, 2));
}

#[test]
fn event_data_reads_empty_tables_as_lists_and_card_props_on_demand() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, 1), true)
        .expect("start");
    g.take_events();
    g.arrange("game:event('probe', { winners = {}, seats = { 2 }, nested = { a = 1 } }); game:event('bare')")
        .expect("events");
    let events = g.take_events();
    let data: Vec<serde_json::Value> = events
        .iter()
        .filter_map(|ev| match &ev.kind {
            deckhand_engine::EventKind::Script { data, .. } => Some(data.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        data,
        vec![
            serde_json::json!({"winners": [], "seats": [2], "nested": {"a": 1}}),
            serde_json::json!({}),
        ]
    );
    // Card properties come from the script when first asked for.
    let cards = g.cards().expect("cards");
    assert!(!cards.is_empty());
    assert!(cards
        .iter()
        .all(|c| c.props.get("name").and_then(|n| n.as_str()) == Some(c.name.as_str())));
    assert!(cards
        .iter()
        .enumerate()
        .all(|(i, c)| c.id as usize == i + 1));
}

#[test]
fn a_bot_view_leads_nowhere_near_the_game() {
    // A bot that searches its view (two levels deep) for the game object or
    // the core's table, and fails if it finds either.
    const PEEK: &str = r#"
return { id = "peek", game = "high_card", modify = function(R)
  R.bots.peek = function(view, d)
    local function bad(t)
      return type(t) == "table" and (rawget(t, "_core") ~= nil or rawget(t, "rules") ~= nil)
    end
    for _, x in pairs(view) do
      if bad(x) then error("reached the game") end
      if type(x) == "table" then
        for _, y in pairs(x) do if bad(y) then error("reached the game") end end
      end
    end
    if bad(getmetatable(view)) then error("reached the game") end
    return 1
  end
end }
"#;
    let e = engine_with(&[("high_card/variants/peek.lua", PEEK)]);
    let g = e
        .new_game(GameConfig::new("high_card", 2, 1).variant("peek"), false)
        .expect("start");
    let seat = g.pending().map(|p| p.0).unwrap_or(1);
    let mut bot = deckhand_bots::Bot::new(deckhand_bots::BotKind::parse("peek"), 1, seat);
    assert_eq!(
        bot.choose(&g)
            .expect("the bot finds no way to the game")
            .index,
        1
    );
}

/// A bot's view is filled anew at each of its decisions: what a bot wrote
/// into its view, or into the table of a zone it cannot see, at one
/// decision is gone at the next, and the view is the seat's at this
/// decision (the bots reuse their view's tables from one decision to the
/// next).
#[test]
fn a_bot_finds_a_fresh_view_at_each_decision() {
    const SCRIBBLE: &str = r#"
return { id = "scribble", game = "high_card", modify = function(R)
  R.bots.scribble = function(view, d)
    if view.note ~= nil then error("a note from an earlier decision") end
    if view.seat ~= d.seat then error("another seat's view") end
    local other = view:zone("hand", view.seat % view.seats + 1)
    local deck = view:zone("deck")
    if other.note ~= nil or deck.note ~= nil then error("a note in a hidden zone") end
    if #other ~= 0 or other.count == nil then error("another hand shows its cards") end
    view.note, other.note, deck.note = true, true, true
    return 1
  end
end }
"#;
    let e = engine_with(&[("high_card/variants/scribble.lua", SCRIBBLE)]);
    let mut g = e
        .new_game(
            GameConfig::new("high_card", 2, 1).variant("scribble"),
            false,
        )
        .expect("start");
    let bots = (1..=2)
        .map(|s| deckhand_bots::Bot::new(deckhand_bots::BotKind::parse("scribble"), 1, s))
        .collect();
    let mut runner = Runner::with_bots(bots);
    let stop = runner
        .play(&mut g)
        .expect("every decision sees a fresh view");
    assert!(matches!(stop, deckhand_engine::Stop::Over(_)));
    assert!(g.history().len() > 2, "each bot decided more than once");
}

#[test]
fn determinised_forks_keep_invariants_and_what_the_seat_sees() {
    let e = engine();
    let g = e
        .new_game(GameConfig::new("high_card", 3, 4), false)
        .expect("start");
    let mut rng = deckhand_engine::rng::GameRng::from_seed(1);
    let mine = g.view(Some(1)).expect("view");
    let mut differs = false;
    for _ in 0..8 {
        let f = g.determinized(1, &mut rng).expect("determinized");
        f.check_invariants().expect("mirrors follow the core");
        let theirs = f.view(Some(1)).expect("view");
        // What seat 1 sees is unchanged; the other hands are guesses.
        assert_eq!(mine.zones, theirs.zones);
        let full_before = g.view(None).expect("all");
        let full_after = f.view(None).expect("all");
        differs |= full_before.zones != full_after.zones;
    }
    assert!(differs, "hidden cards are dealt again");
}

#[test]
fn determinised_forks_keep_every_hidden_card_among_cards_of_its_back() {
    // A variant gives the even cards another back (as a game with cargo
    // and treasure cards has): a guess never puts an odd card where an
    // even one lies, in the deck or in a hand.
    const BACKS: &str = r#"
return { id = "backs", game = "high_card", modify = function(R)
  local setup = R.setup
  R.setup = function(game)
    setup(game)
    for id = 1, #game.cards do
      game.cards[id].back = (game.cards[id].value % 2 == 0) and "even" or "odd"
    end
  end
end }
"#;
    let e = engine_with(&[("high_card/variants/backs.lua", BACKS)]);
    let g = e
        .new_game(GameConfig::new("high_card", 3, 4).variant("backs"), false)
        .expect("start");
    let parity = |g: &deckhand_engine::Game| -> Vec<Vec<u32>> {
        let view = g.view(None).expect("all");
        view.zones
            .iter()
            .map(|z| {
                z.cards
                    .clone()
                    .unwrap_or_default()
                    .iter()
                    .map(|c| c % 2)
                    .collect()
            })
            .collect()
    };
    // Card ids follow the values (C1 is card 1), so the id's parity is the back.
    let before = parity(&g);
    let mut rng = deckhand_engine::rng::GameRng::from_seed(3);
    let mut differs = false;
    for _ in 0..12 {
        let f = g.determinized(1, &mut rng).expect("determinized");
        f.check_invariants().expect("mirrors follow the core");
        assert_eq!(parity(&f), before);
        differs |= f.view(None).expect("all").zones != g.view(None).expect("all").zones;
    }
    assert!(differs, "hidden cards are dealt again");
}

#[test]
fn the_search_bot_takes_the_winning_card() {
    // Seat 1 has only the 5 left; seat 2 holds the 12 and the 1. Whatever is
    // hidden, the 12 wins the game for seat 2 and the 1 loses it.
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, 3).option("hand", 2), false)
        .expect("start");
    g.arrange(
        "local deck = game:zone('deck')
         for s = 1, 2 do game:move_all(game:zone('hand', s), deck) end
         local function find(n) for id, c in ipairs(game.cards) do if c.name == n then return id end end end
         game:move(find('C5'), deck, game:zone('hand', 1))
         game:move(find('C12'), deck, game:zone('hand', 2))
         game:move(find('C1'), deck, game:zone('hand', 2))
         game.vars.turn = 1",
    )
    .expect("arrange");
    g.apply(1).expect("seat 1 plays the 5");
    let d = g.decision().expect("decision").expect("seat 2 to play");
    assert_eq!(d.seat, 2);
    let twelve = d
        .options
        .iter()
        .position(|o| o.text == "C12")
        .expect("the 12 is an option")
        + 1;
    let mut bot = deckhand_bots::Bot::new(deckhand_bots::BotKind::parse("mc:40"), 7, 2);
    assert_eq!(bot.choose(&g).expect("mc").index, twelve);
}

#[test]
fn the_search_bot_stops_at_the_round_end_and_asks_the_rules() {
    // A variant where every step is a "round" and the rules' evaluation
    // prefers a low card on the pile: with an evaluation, mc follows it
    // instead of playing for the trick.
    const EVAL: &str = r#"
return { id = "eval", game = "high_card", modify = function(R)
  local result = R.result
  R.result = function(game)
    local r = result(game)
    r.rounds = game.vars.steps
    return r
  end
  R.evaluate = function(game, seat)
    local pile = game:zone("pile")
    return game.cards[pile[#pile]].value <= 2 and 1 or 0
  end
end }
"#;
    let e = engine_with(&[("high_card/variants/eval.lua", EVAL)]);
    let arrange = "local deck = game:zone('deck')
         for s = 1, 2 do game:move_all(game:zone('hand', s), deck) end
         local function find(n) for id, c in ipairs(game.cards) do if c.name == n then return id end end end
         for _, n in ipairs({'C5', 'C3'}) do game:move(find(n), deck, game:zone('hand', 1)) end
         for _, n in ipairs({'C12', 'C1'}) do game:move(find(n), deck, game:zone('hand', 2)) end
         game.vars.turn = 1";
    let pick = |variant: Option<&str>| {
        let mut cfg = GameConfig::new("high_card", 2, 3).option("hand", 2);
        if let Some(v) = variant {
            cfg = cfg.variant(v);
        }
        let mut g = e.new_game(cfg, false).expect("start");
        g.arrange(arrange).expect("arrange");
        let five = g
            .decision()
            .expect("decision")
            .and_then(|d| d.options.iter().position(|o| o.text == "C5"))
            .expect("C5")
            + 1;
        g.apply(five).expect("seat 1 plays the 5");
        assert_eq!(
            g.evaluate(2).expect("evaluate").is_some(),
            variant.is_some()
        );
        let d = g.decision().expect("decision").expect("seat 2 to play");
        let mut bot = deckhand_bots::Bot::new(deckhand_bots::BotKind::parse("mc:40"), 7, 2);
        let i = bot.choose(&g).expect("mc").index;
        d.options[i - 1].text.clone()
    };
    assert_eq!(pick(Some("eval")), "C1", "the evaluation decides");
}

#[test]
fn a_random_bot_makes_the_same_choice_in_the_same_position() {
    let e = engine();
    let mut g = e
        .new_game(GameConfig::new("high_card", 4, 9).option("hand", 3), false)
        .expect("start");
    let mut bot = deckhand_bots::Bot::new(deckhand_bots::BotKind::Random, 9, 1);
    let mut choices = Vec::new();
    let checked = |g: &deckhand_engine::Game| {
        let (_, n) = g.pending().expect("pending");
        let i = bot.choose(g).expect("choose").index;
        assert!((1..=n).contains(&i));
        // Asked twice, or by a fresh bot for the seat, it says the same.
        assert_eq!(bot.choose(g).expect("again").index, i);
        let fresh = deckhand_bots::Bot::new(deckhand_bots::BotKind::Random, 9, 1);
        assert_eq!(fresh.clone().choose(g).expect("fresh").index, i);
        choices.push(i);
        Ok(i)
    };
    Runner::shared(4, checked).play(&mut g).expect("play");
    // The same game again: the same position brings the same choices.
    let mut g2 = e
        .new_game(GameConfig::new("high_card", 4, 9).option("hand", 3), false)
        .expect("start");
    let mut recorded = choices.iter().copied();
    let replayed = |g: &deckhand_engine::Game| {
        let i = recorded.next().expect("a recorded choice");
        assert_eq!(bot.choose(g).expect("replayed position").index, i);
        Ok(i)
    };
    Runner::shared(4, replayed).play(&mut g2).expect("replay");
    assert!(g2.is_over());
    assert!(choices.iter().any(|&i| i != choices[0]), "not a constant");
}

#[test]
fn search_playouts_use_the_rules_playout_bot_unless_told_random() {
    const PLAYOUT: &str = r#"
return { id = "playout", game = "high_card", modify = function(R) R.playout_bot = "nobody" end }
"#;
    let e = engine_with(&[("high_card/variants/playout.lua", PLAYOUT)]);
    let g = e
        .new_game(GameConfig::new("high_card", 2, 1).variant("playout"), false)
        .expect("start");
    assert_eq!(g.rules_info().playout_bot.as_deref(), Some("nobody"));
    let seat = g.pending().map(|p| p.0).unwrap_or(1);
    // The rules' playout bot is used (here it does not exist: an error)...
    let mut mc = deckhand_bots::Bot::new(deckhand_bots::BotKind::parse("mc:5"), 1, seat);
    let err = mc.choose(&g).expect_err("no bot named nobody");
    assert!(err.to_string().contains("nobody"), "{err}");
    // ...unless random playouts are asked for.
    let mut random = deckhand_bots::Bot::new(deckhand_bots::BotKind::parse("mc:5:random"), 1, seat);
    assert!(random.choose(&g).is_ok());
}

#[test]
fn memory_is_limited_per_step() {
    // Each step keeps 1 MB more; one step may add at most 8 MB; the VM 64 MB.
    const HOARD: &str = r#"
return { id = "hoard", game = "high_card", modify = function(R)
  local apply = R.apply
  R.apply = function(game, seat, action)
    local big = game.vars.big or 0
    game.vars.hoard = game.vars.hoard or {}
    game.vars.hoard[#game.vars.hoard + 1] = string.rep("x", 1024 * 1024)
    if big > 0 and #game.vars.hoard == 3 then local t = {} for i = 1, 1.5e6 do t[i] = i end end
    return apply(game, seat, action)
  end
end }
"#;
    let mut files = BTreeMap::new();
    files.insert("high_card/game.lua".to_string(), HIGH_CARD.to_string());
    files.insert(
        "high_card/variants/hoard.lua".to_string(),
        HOARD.to_string(),
    );
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(MemorySource::new("t", files)));
    let limits = deckhand_engine::lua::Limits {
        instructions: None,
        memory: 64 * 1024 * 1024,
        step_memory: 8 * 1024 * 1024,
        ..Limits::default()
    };
    let e = Engine::with_limits(Arc::new(lib), limits).expect("engine");
    let cfg = GameConfig::new("high_card", 2, 1)
        .variant("hoard")
        .option("hand", 6);
    // Twelve steps keep 12 MB in all: more than one step's allowance, within
    // the VM's.
    let mut g = e.new_game(cfg.clone(), false).expect("start");
    play_out(&mut g);
    assert_eq!(g.history().len(), 12);
    // A step that needs more than its allowance (about 32 MB, well within
    // the VM's 64) fails, and the game is as it was before it.
    let mut g = e.new_game(cfg, false).expect("start");
    g.arrange("game.vars.big = 1").expect("arrange");
    g.apply(1).expect("step 1");
    g.apply(1).expect("step 2");
    let err = g.apply(1).expect_err("step 3 allocates too much");
    assert!(err.to_string().contains("memory"), "{err}");
    assert_eq!(g.history().len(), 2);
}

/// A variant whose bot `mixer` picks an option with `view:random`, and whose
/// `status` tries to draw one (a view outside a bot's decision).
const MIXER_VARIANT: &str = r#"
return { id = "mixer", title = "Mixing bot", game = "high_card",
  modify = function(R)
    R.bots.mixer = function(view, d) return view:random(1, #d.options) end
    R.bots.wide = function(view, d) view:random(-2^63, 2^62); return 1 end
    R.status = function(view) return { tostring(view:random(1, 6)) } end
  end }
"#;

#[test]
fn a_script_bot_draws_from_its_own_stream_and_never_the_games() {
    use deckhand_bots::{Bot, BotKind};
    let e = engine_with(&[("high_card/variants/mixer.lua", MIXER_VARIANT)]);
    let cfg = GameConfig::new("high_card", 3, 7).variant("mixer");
    let g = e.new_game(cfg.clone(), false).expect("start");
    let n = g.pending().expect("pending").1;
    // The same seed, seat and step: the same choice; over many game seeds
    // the choices cover the options (a mixed strategy, not a fixed one).
    let pick = |seed: u64| {
        let g = e
            .new_game(
                GameConfig::new("high_card", 3, seed).variant("mixer"),
                false,
            )
            .expect("start");
        let seat = g.pending().expect("pending").0;
        Bot::new(BotKind::parse("mixer"), seed, seat)
            .choose(&g)
            .expect("choice")
            .index
    };
    assert_eq!(pick(7), pick(7));
    let seen: std::collections::BTreeSet<usize> = (0..60).map(pick).collect();
    assert_eq!(seen.len(), n, "every option drawn at some seed: {seen:?}");
    // Drawing changed nothing of the game: the same deal follows.
    let mut a = e.new_game(cfg.clone(), false).expect("start");
    let b = e.new_game(cfg, false).expect("start");
    let seat = a.pending().expect("pending").0;
    let i = Bot::new(BotKind::parse("mixer"), 7, seat)
        .choose(&a)
        .expect("choice")
        .index;
    assert_eq!(a.view(None).expect("view"), b.view(None).expect("view"));
    a.apply(i).expect("apply");
    // The widest bounds a script can write are drawn from, not a crash.
    assert_eq!(
        Bot::new(BotKind::parse("wide"), 7, seat)
            .choose(&a)
            .expect("choice")
            .index,
        1
    );
    // Outside a bot's decision a view has no stream: a clear error.
    let err = a
        .status_lines(1)
        .expect_err("status draws no random number");
    assert!(err.to_string().contains("view:random"), "{err}");
}

/// Cards whose properties depend on an option (`bonus`), on the seed (a
/// random `luck` in the second half of the deck when `lucky`), and, with
/// `extra`, a card made after setup.
const DECKS: &str = r#"
local R = { id = "decks", title = "Decks", players = { min = 1, max = 2 },
  options = { bonus = { default = 0 }, lucky = { default = false }, extra = { default = false } } }
function R.setup(game)
  local deck = game:new_zone("deck", { visibility = "hidden" })
  for v = 1, 6 do
    local props = { name = "C" .. v, value = v + game.options.bonus }
    if game.options.lucky and v > 3 then props.luck = game:random(1, 1000) end
    game:place(game:new_card(props), deck)
  end
  game.vars.steps = 0
end
function R.decision(game)
  if game.vars.steps >= 1 then return nil end
  return { seat = 1, options = { { n = 1 } } }
end
function R.apply(game)
  game.vars.steps = 1
  if game.options.extra then game:place(game:new_card({ name = "Extra", value = 99 }), game:zone("deck")) end
end
function R.result(game) return { scores = { 0 }, winners = {}, rounds = 1 } end
return R
"#;

/// Each card's properties as JSON text, in id order.
fn card_props(game: &deckhand_engine::Game) -> Vec<String> {
    game.cards()
        .expect("cards")
        .iter()
        .map(|c| serde_json::to_string(&c.props).expect("json"))
        .collect()
}

#[test]
fn each_game_gets_the_cards_it_defined_whatever_was_defined_before() {
    // One VM for all: the core keeps the last deck it read to reuse it when
    // the next game defines the same one; it must notice every difference.
    let e = engine_with(&[("decks/game.lua", DECKS)]);
    let cards = |cfg: GameConfig| card_props(&e.new_game(cfg, true).expect("game"));
    let plain = cards(GameConfig::new("decks", 1, 1));
    assert_eq!(plain[0], r#"{"name":"C1","value":1}"#);
    assert_eq!(
        cards(GameConfig::new("decks", 1, 2)),
        plain,
        "the same deck"
    );
    let bonus = cards(GameConfig::new("decks", 1, 1).option("bonus", 5));
    assert_eq!(bonus[0], r#"{"name":"C1","value":6}"#);
    assert_eq!(cards(GameConfig::new("decks", 1, 3)), plain, "back again");
    // A property only some cards have, and values that change per seed.
    let lucky = |seed| cards(GameConfig::new("decks", 1, seed).option("lucky", true));
    let (a, b) = (lucky(1), lucky(2));
    assert_eq!(a[..3], plain[..3]);
    assert!(a[5].contains("\"luck\""), "{}", a[5]);
    assert_ne!(a[3..], b[3..], "each seed its own luck");
    assert_eq!(lucky(1), a);
    assert_eq!(
        cards(GameConfig::new("decks", 1, 4)),
        plain,
        "no luck left over"
    );
    // Cards made after setup come after those of setup, read when needed.
    let mut game = e
        .new_game(GameConfig::new("decks", 1, 1).option("extra", true), true)
        .expect("game");
    assert_eq!(card_props(&game), plain);
    game.apply(1).expect("step");
    let all = card_props(&game);
    assert_eq!(all.len(), 7);
    assert_eq!(all[6], r#"{"name":"Extra","value":99}"#);
    assert_eq!(cards(GameConfig::new("decks", 1, 5)), plain);
}
