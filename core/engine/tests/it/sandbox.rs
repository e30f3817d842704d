//! The sandbox under attack: escapes, bytecode, runaways the script tries to
//! catch, recursion through C, memory bombs through the VM and through the
//! core, changes to the shared world, errors without a position, and a
//! failed step whose rollback fails too. Every case runs the hostile code
//! where a shared house rule would put it (top-level code, setup, a step,
//! a bot) and asserts that the process survives, the error is clear and the
//! game is exactly as it was.

use crate::toy;

use deckhand_engine::lua::Limits;
use deckhand_engine::{CoreError, Engine, Game, GameConfig, SaveFile, ScriptLibrary, ScriptSource};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use toy::HIGH_CARD;

/// A library with the toy game and `files` added.
fn library(files: &[(&str, &str)]) -> Arc<ScriptLibrary> {
    toy::library(files)
}

/// The limits of these tests: the default mechanisms with a smaller
/// instruction budget and memory, so that each runaway stops sooner, and
/// more processor time, so that the floods of cards and zones (slow in a
/// debug build) reach the core's caps before the time runs out.
fn limits() -> Limits {
    Limits {
        instructions: Some(20_000_000),
        memory: 256 * 1024 * 1024,
        step_memory: 64 * 1024 * 1024,
        cpu_seconds: 10.0,
    }
}

fn engine(files: &[(&str, &str)]) -> Engine {
    Engine::with_limits(library(files), limits()).expect("engine")
}

/// The same limits with the compiler on and no instruction count (how
/// `sim`, `compare` and `tune` run the rules): everything but a runaway,
/// which only the watchdog of those commands stops (tests/cli.rs,
/// tests/hostile_scripts.rs), must hold there too.
fn compiled_engine(files: &[(&str, &str)]) -> Engine {
    let compiled = Limits {
        instructions: None,
        ..limits()
    };
    Engine::with_limits(library(files), compiled).expect("engine")
}

/// Both kinds of engine, named.
const MODES: [&str; 2] = ["counted", "compiled"];

fn engine_in(mode: &str, files: &[(&str, &str)]) -> Engine {
    if mode == "compiled" {
        compiled_engine(files)
    } else {
        engine(files)
    }
}

/// A variant of the toy game that runs `code` at the place named: `top`
/// (when the rules are loaded), `setup`, `apply` (in the first step) or
/// `bot` (the variant's bot `hostile`).
fn hostile(place: &str, code: &str) -> String {
    let (top, setup, apply, bot) = match place {
        "top" => (code, "", "", ""),
        "setup" => ("", code, "", ""),
        "apply" => ("", "", code, ""),
        "bot" => ("", "", "", code),
        other => panic!("no place {other}"),
    };
    format!(
        r#"
{top}
return {{ id = "hostile", title = "Hostile", game = "high_card",
  modify = function(R)
    local setup, apply = R.setup, R.apply
    R.setup = function(game)
      setup(game)
      {setup}
    end
    R.apply = function(game, seat, action)
      {apply}
      return apply(game, seat, action)
    end
    R.bots.hostile = function(view, d)
      {bot}
      return 1
    end
  end }}
"#
    )
}

/// The state a failed call must leave alone.
fn snapshot(g: &Game) -> String {
    format!(
        "{:?} {:?} {:?}",
        g.view(None).expect("view"),
        g.history(),
        g.decision().expect("decision")
    )
}

/// Run `code` at `place` and return the error message; the game (when one
/// got started) must be exactly as before, and still playable.
fn attack(place: &str, code: &str) -> String {
    attack_in("counted", place, code)
}

/// [`attack`] in an engine of `mode` (see [`MODES`]).
fn attack_in(mode: &str, place: &str, code: &str) -> String {
    let variant = hostile(place, code);
    let e = engine_in(mode, &[("high_card/variants/hostile.lua", &variant)]);
    let cfg = GameConfig::new("high_card", 2, 5).variant("hostile");
    let started = Instant::now();
    let outcome = match place {
        "top" | "setup" => e.new_game(cfg, true).err(),
        _ => {
            let mut g = e.new_game(cfg, true).expect("start");
            let before = snapshot(&g);
            let err = if place == "bot" {
                g.script_bot_choice("hostile", deckhand_engine::rng::GameRng::from_seed(1))
                    .err()
            } else {
                g.apply(1).err()
            };
            assert_eq!(snapshot(&g), before, "the game changed: {code}");
            g.check_invariants().expect("still consistent");
            err
        }
    };
    let took = started.elapsed();
    // Generous for a debug build on a loaded machine; docs/security.md
    // has the release figures.
    assert!(took < Duration::from_secs(20), "took {took:?}: {code}");
    let msg = outcome
        .map(|e| e.to_string())
        .unwrap_or_else(|| format!("no error at {place}: {code}"));
    // The same engine still works afterwards.
    assert_eq!(
        e.host().eval("1 + 1", None).expect("the VM still works"),
        "2",
        "{code}"
    );
    msg
}

fn assert_contains(msg: &str, any_of: &[&str], code: &str) {
    assert!(
        any_of.iter().any(|s| msg.contains(s)),
        "expected one of {any_of:?} for `{code}`, got: {msg}"
    );
}

#[test]
fn no_route_reaches_io_os_debug_package_ffi_jit_or_code_loading() {
    let escapes = [
        "io.open('/etc/passwd')",
        "os.execute('true')",
        "os.exit(1)",
        "debug.getinfo(1)",
        "debug.sethook()",
        "package.loadlib('x', 'y')",
        "package.path = '/tmp/?.lua'",
        "load('return 1')",
        "loadstring('return 1')",
        "loadfile('/etc/passwd')",
        "dofile('/etc/passwd')",
        "module('x')",
        "string.dump(print)",
        "('x').dump(print)",
        "setfenv(1, {})",
        "getfenv(print)",
        "newproxy(true)",
        "collectgarbage('stop')",
        "gcinfo()",
        "jit.on()",
        "math.random()",
        "math.randomseed(1)",
        "require('io')",
        "require('os')",
        "require('debug')",
        "require('ffi')",
        "require('jit')",
        "require('jit.util')",
        "require('string')",
        "require('../../../etc/passwd')",
        "require('lib/../../etc/passwd')",
        "require('/etc/passwd')",
        "require('.')",
        "require('')",
        "rawget(_G, 'io').open('/etc/passwd')",
        "rawget(_G, 'os').execute('true')",
        "_G.io.open('/etc/passwd')",
        "getmetatable(_G).__index.io.open('/etc/passwd')",
        "getmetatable('').__index.dump(print)",
        "getmetatable('').__index.upper = nil",
        "setmetatable(_G, nil)",
        "setmetatable('', {})",
        "coroutine.wrap(function() return io end)().open('/etc/passwd')",
        "select(2, pcall(function() return os end)).execute('true')",
    ];
    for mode in MODES {
        for code in escapes {
            for place in ["top", "apply"] {
                let msg = attack_in(mode, place, code);
                assert!(
                    msg.starts_with("script error"),
                    "{mode} {place}: `{code}` gave {msg}"
                );
            }
        }
        // The Lua prompt too.
        let e = engine_in(mode, &[]);
        for code in escapes {
            assert!(
                e.host().eval(code, None).is_err(),
                "{mode} prompt: `{code}`"
            );
        }
    }
    let e = engine(&[]);
    assert_eq!(
        e.host().eval("string.upper('ok')", None).expect("ok"),
        "\"OK\""
    );
}

/// A LuaJIT bytecode header: a chunk starting with it is refused, never run.
const BYTECODE: &str = "\x1bLJ\x02\x0a\x00\x02\x00\x03\x00\x00\x00\x00";

#[test]
fn bytecode_is_refused_by_every_loader() {
    let refused = |msg: String, what: &str| {
        assert_contains(&msg, &["attempt to load a binary chunk"], what);
        assert!(msg.contains("script error"), "{what}: {msg}");
    };
    // A game file.
    let e = engine(&[("evil/game.lua", BYTECODE)]);
    refused(
        e.new_game(GameConfig::new("evil", 2, 1), false)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "game file",
    );
    // A variant by name.
    let e = engine(&[("high_card/variants/evil.lua", BYTECODE)]);
    let cfg = GameConfig::new("high_card", 2, 1).variant("evil");
    refused(
        e.new_game(cfg, false)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "variant",
    );
    // A house-rule file on disk.
    let dir = std::env::temp_dir().join(format!("deckhand-bytecode-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("dir");
    let path = dir.join("evil.lua");
    std::fs::write(&path, BYTECODE).expect("write");
    let e = engine(&[]);
    let cfg = GameConfig::new("high_card", 2, 1).variant(&path.display().to_string());
    refused(
        e.new_game(cfg, false)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "house rule file",
    );
    let _ = std::fs::remove_dir_all(&dir);
    // A required module.
    let msg = attack("top", "require('evil.mod')");
    assert!(msg.contains("not found"), "{msg}");
    let variant = hostile("top", "require('evil.mod')");
    let e = engine(&[
        ("high_card/variants/hostile.lua", &variant),
        ("evil/mod.lua", BYTECODE),
    ]);
    let cfg = GameConfig::new("high_card", 2, 1).variant("hostile");
    refused(
        e.new_game(cfg, false)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "module",
    );
    // The Lua prompt.
    let e = engine(&[]);
    refused(
        e.host()
            .eval(BYTECODE, None)
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default(),
        "prompt",
    );
}

#[test]
fn the_instruction_budget_cannot_be_caught() {
    let runaways = [
        "local function loop() while true do end end while true do pcall(loop) end",
        "local function loop() while true do end end \
         while true do xpcall(loop, function() while true do end end) end",
        "while true do coroutine.resume(coroutine.create(function() while true do end end)) end",
        "while true do pcall(coroutine.wrap(function() while true do end end)) end",
        "while true do pcall(string.gsub, 'aaaa', '.', function() while true do end end) end",
        "while true do pcall(table.sort, {3, 2, 1}, function(a, b) while true do end end) end",
        "local t = setmetatable({}, { __index = function() while true do end end }) \
         while true do pcall(function() return t.x end) end",
        "local t = setmetatable({}, { __tostring = function() while true do end end }) \
         while true do pcall(tostring, t) end",
        "while true do pcall(error, setmetatable({}, { __tostring = function() while true do end end })) end",
        "local x = 0 for i = 1, 1e12 do x = x + i % 7 end",
    ];
    for code in runaways {
        for place in ["top", "setup", "apply", "bot"] {
            let msg = attack(place, code);
            assert_contains(&msg, &["budget exceeded", "error in error handling"], code);
        }
    }
}

#[test]
fn recursion_through_c_is_an_ordinary_error() {
    // Run on a thread with a small stack: the default for worker threads.
    let run = || {
        let cases: [(&str, &[&str]); 9] = [
            (
                "local function f(s) return (s:gsub('.', f)) end f('aaaa')",
                &["string.gsub: calls back into Lua nested"],
            ),
            (
                "local t t = setmetatable({}, { __index = function() return (('a'):gsub('a', t)) end }) \
                 local _ = ('a'):gsub('a', t)",
                &["string.gsub: calls back into Lua nested"],
            ),
            (
                "local t t = setmetatable({}, { __tostring = function(x) return string.format('%s', x) end }) \
                 local _ = tostring(t)",
                &["string.format: calls back into Lua nested"],
            ),
            (
                "local function f() return coroutine.wrap(f)() end local _ = f()",
                &["coroutine.resume: calls back into Lua nested"],
            ),
            (
                "local function f() table.foreach({1}, f) end f()",
                &["table.foreach: calls back into Lua nested"],
            ),
            (
                "local function f() table.sort({3, 2, 1}, function(a, b) f() return a < b end) end f()",
                &["stack overflow", "table.sort: calls back into Lua nested"],
            ),
            (
                "local function f() return 1 + f() end local _ = f()",
                &["stack overflow"],
            ),
            ("require('cyc.a')", &["requires itself"]),
            (
                "local t = setmetatable({}, { __tostring = function(x) print(x) return 'x' end }) print(t)",
                &["print: calls back into Lua nested"],
            ),
        ];
        for (mode, (code, expect)) in MODES
            .iter()
            .flat_map(|m| cases.iter().map(move |c| (*m, *c)))
        {
            for place in ["top", "apply"] {
                let variant = hostile(place, code);
                let e = engine_in(
                    mode,
                    &[
                        ("high_card/variants/hostile.lua", &variant),
                        ("cyc/a.lua", "return require('cyc.b')"),
                        ("cyc/b.lua", "return require('cyc.a')"),
                    ],
                );
                let cfg = GameConfig::new("high_card", 2, 5).variant("hostile");
                let msg = match place {
                    "top" => e.new_game(cfg, true).err().map(|e| e.to_string()),
                    _ => {
                        let mut g = e.new_game(cfg, true).expect("start");
                        let before = snapshot(&g);
                        let err = g.apply(1).err().map(|e| e.to_string());
                        assert_eq!(snapshot(&g), before);
                        err
                    }
                }
                .unwrap_or_default();
                assert_contains(&msg, expect, &format!("{mode}: {code}"));
                // With the script's file and line, when the error was not
                // raised by the core itself.
                if !msg.contains("requires itself") {
                    assert!(msg.contains("hostile.lua:"), "{mode}: no position: {msg}");
                }
            }
        }
    };
    std::thread::Builder::new()
        .stack_size(2 * 1024 * 1024)
        .spawn(run)
        .expect("thread")
        .join()
        .expect("no crash");
}

#[test]
fn pathological_patterns_are_refused_before_they_run() {
    let msg = attack(
        "apply",
        "string.find(string.rep('a', 40), string.rep('a*', 20) .. 'b')",
    );
    assert_contains(&msg, &["could backtrack for hours"], "find");
    assert!(msg.contains("hostile.lua:"), "{msg}");
    let msg = attack(
        "apply",
        "for w in string.gmatch(string.rep('a', 60), string.rep('a-', 12) .. 'b') do end",
    );
    assert_contains(&msg, &["could backtrack for hours"], "gmatch");
    // Ordinary patterns are untouched, plain finds are never checked.
    let e = engine(&[]);
    assert_eq!(
        e.host()
            .eval(
                "select(3, ('Blue 12 of 40'):find('^(%a+)%s*(%d+)')) .. '/' .. \
                 tostring(('a*a*a*'):rep(9):find('a*a*a*a*', 1, true))",
                None
            )
            .expect("ok"),
        "\"Blue/1\""
    );
}

#[test]
fn memory_bombs_stop_at_the_step_limit() {
    let bombs: [(&str, &[&str]); 9] = [
        ("local s = string.rep('x', 1e9)", &["out of memory"]),
        (
            "local t = {} for i = 1, 1e9 do t[i] = { i } end",
            &["out of memory"],
        ),
        (
            "local s = 'x' while true do s = s .. s end",
            &["out of memory"],
        ),
        (
            "local s = string.rep('x', 4e7) for i = 1, 100 do game:event('big', { s = s }) end",
            &["out of memory"],
        ),
        (
            "local a, b = game:zone('hand', 1), game:zone('pile') \
             for i = 1, 1e9 do game:move(a[1], a, b) game:move(b[#b], b, a) end",
            &["out of memory", "budget exceeded"],
        ),
        (
            "game._ncards = 4e9 game:place(game:new_card({ name = 'x' }), game:zone('pile'))",
            &["at most 100000 cards"],
        ),
        (
            "for i = 1, 1e6 do game:place(game:new_card({ name = 'x' }), game:zone('pile')) end",
            &["at most 100000 cards", "out of memory"],
        ),
        (
            "for i = 1, 1e7 do game:new_zone('z' .. i) end",
            &["at most 10000 zones"],
        ),
        (
            "while true do pcall(function() local t = {} for i = 1, 1e9 do t[i] = {} end end) end",
            &["out of memory"],
        ),
    ];
    for mode in MODES {
        for (code, expect) in bombs {
            let msg = attack_in(mode, "apply", code);
            assert_contains(&msg, expect, &format!("{mode}: {code}"));
        }
        for code in [
            "local t = {} for i = 1, 1e9 do t[i] = { i } end",
            "game._ncards = 4e9 game:place(game:new_card({ name = 'x' }), game:zone('pile'))",
        ] {
            let msg = attack_in(mode, "setup", code);
            assert!(msg.contains("script error"), "{mode}: {msg}");
        }
    }
}

#[test]
fn a_rule_cannot_change_another_rules_world() {
    let vandal = hostile(
        "top",
        "string.upper = function() return 'owned' end \
         table.insert = nil \
         rawset(_G, 'planted', true) \
         math.floor = nil",
    );
    let e = engine(&[("high_card/variants/vandal.lua", &vandal)]);
    // The vandal's own game runs with its changes...
    let g = e
        .new_game(GameConfig::new("high_card", 2, 1).variant("vandal"), false)
        .expect("vandal game");
    drop(g);
    // ...and no other set of rules, or the prompt, sees them.
    let clean = hostile(
        "apply",
        "assert(string.upper('a') == 'A', 'string.upper was changed') \
         assert(table.insert ~= nil, 'table.insert was removed') \
         assert(math.floor(1.5) == 1, 'math.floor was removed') \
         assert(rawget(_G, 'planted') == nil, 'a global leaked') \
         assert(('a'):upper() == 'A', 'the string methods were changed')",
    );
    let e2 = Engine::with_limits(
        library(&[
            ("high_card/variants/vandal.lua", &vandal),
            ("high_card/variants/hostile.lua", &clean),
        ]),
        limits(),
    )
    .expect("engine");
    e2.new_game(GameConfig::new("high_card", 2, 1).variant("vandal"), false)
        .expect("vandal first");
    let mut g = e2
        .new_game(GameConfig::new("high_card", 2, 1).variant("hostile"), false)
        .expect("clean game");
    g.apply(1).expect("no change leaked into these rules");
    assert_eq!(
        e2.host().eval("string.upper('a')", None).expect("prompt"),
        "\"A\""
    );
    // The game object's methods are shared by every game: out of reach.
    for code in [
        "getmetatable(game).__index.move = nil",
        "setmetatable(game, {})",
        "getmetatable(game).move = nil",
    ] {
        let msg = attack("apply", code);
        assert!(msg.contains("script error"), "{code}: {msg}");
    }
    // The prompt's `deckhand` table is read-only.
    let e = engine(&[]);
    let err = e
        .host()
        .eval("deckhand.step = nil", None)
        .expect_err("read-only");
    assert!(err.to_string().contains("read-only"), "{err}");
}

/// The view of every zone after the first `steps` steps of a plain toy
/// game of `seed` in `e`.
fn plain_game_view(e: &Engine, seed: u64, steps: usize) -> String {
    let mut g = e
        .new_game(GameConfig::new("high_card", 2, seed), false)
        .expect("plain game");
    for _ in 0..steps {
        if g.decision().expect("decision").is_none() {
            break;
        }
        g.apply(1).expect("plain step");
    }
    format!("{:?} {:?}", g.view(None).expect("view"), g.history())
}

#[test]
fn a_rule_cannot_change_the_methods_later_games_get() {
    // Writes through every route a game object or a view offers to its
    // methods: whatever the rule's own game does with them, the plain
    // games the same engine starts afterwards deal and play exactly as
    // in a fresh engine, with both the counted and the compiled VM.
    let attacks = [
        ("setup", "game.__index.shuffle = function() end"),
        ("setup", "game.__index.random = function() return 1 end"),
        ("setup", "rawget(game, '__index').shuffle = function() end"),
        ("setup", "local m = game.__index; m.deal = nil"),
        ("bot", "view.__index.zone = function() return {} end"),
        ("bot", "getmetatable(view).zone = nil"),
    ];
    for (place, code) in attacks {
        let guarded = format!("pcall(function() {code} end)");
        let vandal = hostile(place, &guarded);
        for (mode, e) in toy::both_engines(&[("high_card/variants/vandal.lua", &vandal)]) {
            let fresh = toy::both_engines(&[]);
            let fresh = &fresh[if mode == "counted" { 0 } else { 1 }].1;
            let g = e
                .new_game(GameConfig::new("high_card", 2, 3).variant("vandal"), false)
                .expect("the vandal's own game starts");
            if place == "bot" {
                let _ = g.script_bot_choice("hostile", deckhand_engine::rng::GameRng::from_seed(1));
            }
            drop(g);
            for seed in [11, 12] {
                assert_eq!(
                    plain_game_view(&e, seed, 4),
                    plain_game_view(fresh, seed, 4),
                    "{mode}: after `{code}` at {place}, a plain game of seed {seed} differs"
                );
            }
            assert_ne!(
                plain_game_view(&e, 11, 0),
                plain_game_view(&e, 12, 0),
                "{mode}: after `{code}`, seeds 11 and 12 deal alike"
            );
        }
    }
}

#[test]
fn errors_name_the_rule_that_wrapped_the_game_first() {
    // A house rule's wrapper of `apply` hands the game's own apply a value
    // it cannot use: the message starts with the rule's line, then the
    // game's line where it failed.
    let wrapper = "return { id = 'wrapper', game = 'high_card', modify = function(R)\n\
                   local apply = R.apply\n\
                   R.apply = function(game, seat, action)\n\
                   apply(game, seat, 'not an option')\n\
                   end\n\
                   end }";
    // A wrapper of `decision` whose options hold a function.
    let functions = "return { id = 'functions', game = 'high_card', modify = function(R)\n\
                     local decision = R.decision\n\
                     R.decision = function(game, previous)\n\
                     local d = decision(game, previous)\n\
                     if d then d.options[1].f = print end\n\
                     return d\n\
                     end end }";
    for (mode, e) in toy::both_engines(&[
        ("high_card/variants/wrapper.lua", wrapper),
        ("high_card/variants/functions.lua", functions),
    ]) {
        let mut g = e
            .new_game(GameConfig::new("high_card", 2, 5).variant("wrapper"), false)
            .expect("start");
        let msg = g.apply(1).expect_err("a string is no option").to_string();
        assert!(
            msg.contains("test/high_card/variants/wrapper.lua:4 → test/high_card/game.lua:"),
            "{mode}: {msg}"
        );
        let g = e
            .new_game(
                GameConfig::new("high_card", 2, 5).variant("functions"),
                false,
            )
            .expect("start");
        let msg = g.option_values().expect_err("not data").to_string();
        assert!(
            msg.contains("test/high_card/variants/functions.lua:3: option 1 of the decision")
                && msg.contains("a function value"),
            "{mode}: {msg}"
        );
        let msg = g.decision().expect_err("not data").to_string();
        assert!(msg.contains("functions.lua:3"), "{mode}: {msg}");
    }
}

#[test]
fn errors_name_their_position_and_keep_their_text() {
    let msg = attack(
        "apply",
        "local function f() return 1 + f() end local _ = f()",
    );
    assert!(
        msg.contains("hostile.lua:") && msg.contains("stack overflow"),
        "{msg}"
    );
    let msg = attack("apply", "local t = {} for i = 1, 1e9 do t[i] = { i } end");
    assert!(
        msg.contains("hostile.lua:") && msg.contains("out of memory"),
        "{msg}"
    );
    let msg = attack(
        "apply",
        "error(setmetatable({}, { __tostring = function() error('again') end }))",
    );
    assert!(
        msg.contains("hostile.lua:") && msg.contains("error in error handling"),
        "{msg}"
    );
    let msg = attack("apply", "error('before\\0after')");
    assert!(msg.contains("before\\0after"), "{msg}");
    let msg = attack("apply", "assert(false, 'first\\0second')");
    assert!(msg.contains("first\\0second"), "{msg}");
}

/// A script source whose game file breaks after it was first read: rules
/// loaded again (a fresh VM) fail.
#[derive(Debug)]
struct BreaksAfterFirstRead {
    files: BTreeMap<String, String>,
    reads: AtomicUsize,
}

impl ScriptSource for BreaksAfterFirstRead {
    fn read(&self, path: &str) -> Option<String> {
        if path == "high_card/game.lua" && self.reads.fetch_add(1, Ordering::SeqCst) > 0 {
            return Some("this is not Lua".into());
        }
        self.files.get(path).cloned()
    }
    fn list(&self, _: &str) -> Vec<String> {
        Vec::new()
    }
    fn display_path(&self, path: &str) -> String {
        format!("flaky/{path}")
    }
    fn describe(&self) -> String {
        "flaky".into()
    }
}

/// A variant whose setup works once per loading of the rules: a game
/// rebuilt in the same VM fails, one rebuilt in a fresh VM works.
const SETUP_ONCE: &str = r#"
local starts = 0
return { id = "once", title = "Setup once", game = "high_card",
  modify = function(R)
    local setup, apply = R.setup, R.apply
    R.setup = function(game)
      starts = starts + 1
      if starts > 1 then error("setup ran again in this VM") end
      setup(game)
    end
    R.apply = function(game, seat, action)
      if game.vars.steps == 1 then error("second step fails") end
      return apply(game, seat, action)
    end
  end }
"#;

#[test]
fn a_failed_rollback_rebuilds_the_game_from_its_log_in_a_fresh_vm() {
    let e = engine(&[("high_card/variants/once.lua", SETUP_ONCE)]);
    let cfg = GameConfig::new("high_card", 2, 3).variant("once");
    let mut g = e.new_game(cfg, true).expect("start");
    g.apply(1).expect("first step");
    let before = snapshot(&g);
    let err = g.apply(1).expect_err("second step fails");
    assert!(err.to_string().contains("second step fails"), "{err}");
    assert!(!g.is_broken());
    assert_eq!(snapshot(&g), before, "rebuilt exactly as before");
    g.check_invariants().expect("consistent");
}

#[test]
fn a_game_that_cannot_be_restored_says_so_and_keeps_its_log() {
    let mut files = BTreeMap::new();
    files.insert("high_card/game.lua".to_string(), HIGH_CARD.to_string());
    files.insert(
        "high_card/variants/once.lua".to_string(),
        SETUP_ONCE.to_string(),
    );
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(BreaksAfterFirstRead {
        files,
        reads: AtomicUsize::new(0),
    }));
    let e = Engine::with_limits(Arc::new(lib), limits()).expect("engine");
    let cfg = GameConfig::new("high_card", 2, 3).variant("once");
    let mut g = e.new_game(cfg, true).expect("start");
    g.apply(1).expect("first step");
    let history = g.history().to_vec();
    let err = g.apply(1).expect_err("second step fails");
    assert!(matches!(err, CoreError::Restore { .. }), "{err}");
    let msg = err.to_string();
    assert!(
        msg.contains("second step fails") && msg.contains("log is intact"),
        "{msg}"
    );
    assert!(g.is_broken());
    // Nothing half-applied can be used...
    for e in [
        g.apply(1).expect_err("apply"),
        g.decision().expect_err("decision"),
        g.view(None).expect_err("view"),
    ] {
        assert!(e.to_string().contains("could not be restored"), "{e}");
    }
    // ...but the log is intact and saves.
    assert_eq!(g.history(), &history[..]);
    let save = SaveFile::of(&g, vec!["human".into(), "random".into()]).expect("save");
    assert_eq!(save.actions, history);
}
