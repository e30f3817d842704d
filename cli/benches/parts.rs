//! Where a game's work goes, part by part (run with `cargo bench -p
//! deckhand --bench parts`), for random 4-player Sea Change:
//!
//! - the compiled path, as `sim` runs it: processor time per game of the
//!   start of a game (setup and first deal), the steps, and the result and
//!   metrics read at the end;
//! - the counted interpreter, as `sim --exact-budget` runs it: a count
//!   hook at every VM instruction charges it to the phase of the game and,
//!   in the steps, to the function running it (file and line where it is
//!   defined), which `part` sorts into the parts of a game (decisions and
//!   option tables, zones and card moves, knowledge, events, seat views,
//!   counters, the boundary's wrappers, the rules' own play);
//! - the plain-Lua reference (cli/benches/reference/sea_change.lua) under
//!   the same hook, in a bare VM with the compiler off.
//!
//! The count is of LuaJIT bytecode instructions, not time: a C function
//! (a primitive of the core, `table.sort`, `next`) counts as the one call
//! that reaches it. Where the compiled path's time goes inside the core
//! comes from `perf` (docs/performance.md, "Where a game's work goes, part
//! by part").
//!
//! `-- --games N` counts N games (default 200); `-- --setup-only N` only
//! starts N games, compiled (for a profiler).

#[path = "shared/mod.rs"]
mod shared;

use deckhand_engine::lua::Limits;
use deckhand_engine::{GameConfig, Runner};
use mlua::{HookTriggers, VmState};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

/// The phase a game is in, as the hook charges it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Phase {
    Setup,
    Steps,
    Result,
}

/// What the hook counted: by phase, and the steps' by function.
#[derive(Default)]
struct Counts {
    phase: HashMap<Phase, u64>,
    /// Instructions of the steps by (file, line defined).
    function: HashMap<(String, usize), u64>,
}

/// Count every instruction `lua` runs into `counts`, under `phase`.
fn count_into(lua: &mlua::Lua, counts: Rc<RefCell<Counts>>, phase: Rc<Cell<Phase>>) {
    lua.set_global_hook(
        HookTriggers::new().every_nth_instruction(1),
        move |_lua, debug| {
            let mut c = counts.borrow_mut();
            *c.phase.entry(phase.get()).or_default() += 1;
            if phase.get() == Phase::Steps {
                let src = debug.source();
                let file = src.short_src.as_deref().unwrap_or("?").to_string();
                let line = src.line_defined.unwrap_or(0);
                *c.function.entry((file, line)).or_default() += 1;
            }
            Ok(VmState::Continue)
        },
    )
    .expect("the hook");
}

/// The text of a file the hook names: the prelude is its files put
/// together in order, as the engine loads it.
fn source_lines(file: &str) -> Vec<String> {
    let text = if file == "deckhand/prelude.lua" {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../core/engine/src/lua/prelude");
        let mut parts: Vec<PathBuf> = std::fs::read_dir(&dir)
            .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
            .unwrap_or_default();
        parts.sort();
        parts
            .iter()
            .filter_map(|p| std::fs::read_to_string(p).ok())
            .collect::<String>()
    } else if let Some(name) = file.strip_prefix("deckhand/") {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../core/engine/src/lua")
            .join(name);
        std::fs::read_to_string(p).unwrap_or_default()
    } else if file == "reference.lua" {
        let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/reference/sea_change.lua");
        std::fs::read_to_string(p).unwrap_or_default()
    } else {
        std::fs::read_to_string(file).unwrap_or_default()
    };
    text.lines().map(str::to_string).collect()
}

/// The name a function is declared with on `line` ("Game:zone",
/// "refresh", "M.step"), or "?".
fn declared(line: &str) -> String {
    let l = line.trim_start();
    let l = l.strip_prefix("local ").unwrap_or(l);
    if let Some(rest) = l.strip_prefix("function ") {
        return rest.split('(').next().unwrap_or("?").trim().to_string();
    }
    if let Some((name, _)) = l.split_once("= function") {
        return name.trim().to_string();
    }
    "?".to_string()
}

/// The part of a game a function of the steps belongs to.
fn part(file: &str, name: &str) -> &'static str {
    const BOUNDARY: &str = "boundary: the primitives' wrappers, the guards, the entry points";
    const ZONES: &str = "zones and card moves (mirrors, the core's primitives)";
    const DECISIONS: &str = "decisions and option tables";
    let base = file.rsplit('/').next().unwrap_or(file);
    let short = name.rsplit([':', '.']).next().unwrap_or(name);
    if base == "primitives.lua" || base == "guards.lua" || base == "sampler.lua" {
        return BOUNDARY;
    }
    if file.starts_with("[builtin") {
        return ZONES;
    }
    if base == "prelude.lua" {
        return match short {
            "step" | "M[name]" | "report_step" => BOUNDARY,
            "refresh" | "kind_id" | "bad_decision" => DECISIONS,
            "count" | "origin" => "statistics and metrics (counters)",
            "event" => "events",
            "view" | "bot_view" => "seat views",
            _ if name.starts_with("View") => "seat views",
            _ => ZONES,
        };
    }
    match short {
        "note_void" | "may_hold" | "clear_voids" => "knowledge (who may hold each card)",
        "count" | "counted" | "per" => "statistics and metrics (counters)",
        "hand_zone" | "trick_zone" | "won_zone" | "last_zone" | "hand_of" | "shared_zone" => ZONES,
        "decision" | "current" | "options" | "may_play" | "is_match" | "holds_suit"
        | "holds_prop" | "prompt" | "legal_options" => DECISIONS,
        _ => "rules' play (applying a move, tricks, scoring)",
    }
}

fn print_counts(title: &str, c: &Counts, games: f64) {
    let total: u64 = c.phase.values().sum();
    let per = |n: u64| n as f64 / games;
    let share = |n: u64| 100.0 * n as f64 / total as f64;
    println!("\n{title}: {:.0} instructions per game", per(total));
    let setup = c.phase.get(&Phase::Setup).copied().unwrap_or(0);
    let result = c.phase.get(&Phase::Result).copied().unwrap_or(0);
    let mut lines: HashMap<String, Vec<String>> = HashMap::new();
    let mut parts: HashMap<&str, u64> = HashMap::new();
    let mut fns: Vec<(String, String, &str, u64)> = Vec::new();
    for ((file, line), &n) in &c.function {
        let src = lines
            .entry(file.clone())
            .or_insert_with(|| source_lines(file));
        let name = if *line == 0 {
            "?".to_string()
        } else {
            src.get(line - 1).map_or("?".to_string(), |l| declared(l))
        };
        let p = part(file, &name);
        *parts.entry(p).or_default() += n;
        let base = file.rsplit("scripts/").next().unwrap_or(file);
        fns.push((format!("{base}:{line}"), name, p, n));
    }
    println!("  by part:");
    println!(
        "    {:<66} {:>9.0} {:>5.1}%",
        "start of a game (setup, first deal)",
        per(setup),
        share(setup)
    );
    let mut parts: Vec<_> = parts.into_iter().collect();
    parts.sort_by_key(|p| std::cmp::Reverse(p.1));
    for (p, n) in parts {
        println!("    {:<66} {:>9.0} {:>5.1}%", p, per(n), share(n));
    }
    println!(
        "    {:<66} {:>9.0} {:>5.1}%",
        "result and metrics at the end",
        per(result),
        share(result)
    );
    fns.sort_by_key(|f| std::cmp::Reverse(f.3));
    println!("  the steps' busiest functions (file:line defined, name declared, part):");
    for (at, name, p, n) in fns.into_iter().take(40) {
        let p = p.split(' ').next().unwrap_or(p);
        println!(
            "    {:<34} {:<26} {:<10} {:>8.0} {:>5.1}%",
            at,
            name,
            p,
            per(n),
            share(n)
        );
    }
}

/// Processor seconds this thread has used.
fn cpu() -> f64 {
    shared::thread_cpu().expect("the thread's processor time")
}

/// LuaJIT's sampling profiler (`jit.profile`, from the registry's
/// preloaded modules: scripts cannot reach it) on the compiled path: each
/// sample charged to the VM's state (compiled code, interpreter, C code,
/// garbage collector, the compiler) and, for Lua code, to the function
/// running (file and line where it is defined).
const SAMPLER: &str = r#"
local profile = ...
local by_state, by_function = {}, {}
profile.start("fi1", function(thread, samples, vmstate)
  by_state[vmstate] = (by_state[vmstate] or 0) + samples
  local at = profile.dumpstack(thread, "pF", 1)
  by_function[at] = (by_function[at] or 0) + samples
end)
return function()
  profile.stop()
  return by_state, by_function
end
"#;

/// Start the sampler on `lua`; the function it returns stops it and gives
/// the samples by VM state and by function.
fn sample(lua: &mlua::Lua) -> mlua::Function {
    let preload: mlua::Table = lua
        .named_registry_value("_PRELOAD")
        .expect("preloaded modules");
    let profile: mlua::Table = preload
        .get::<mlua::Function>("jit.profile")
        .and_then(|open| open.call(()))
        .expect("jit.profile");
    deckhand_engine::lua::load_text(lua, SAMPLER, "@sampler.lua", None)
        .and_then(|f| f.call(profile))
        .expect("the sampler")
}

/// Print what the sampler counted.
fn print_samples(stop: mlua::Function) {
    let (states, fns): (mlua::Table, mlua::Table) = stop.call(()).expect("stop");
    let mut total = 0i64;
    let mut rows = Vec::new();
    for (k, v) in states.pairs::<String, i64>().flatten() {
        total += v;
        rows.push((k, v));
    }
    rows.sort_by_key(|r| std::cmp::Reverse(r.1));
    let name = |s: &str| match s {
        "N" => "compiled code",
        "I" => "interpreter",
        "C" => "C code (the core, mlua, library functions)",
        "G" => "garbage collector",
        "J" => "trace compiler",
        _ => "?",
    };
    println!("  LuaJIT's profiler, {total} samples (1 ms): by VM state");
    for (k, v) in rows {
        println!(
            "    {:<44} {:>5.1}%",
            name(&k),
            100.0 * v as f64 / total as f64
        );
    }
    let mut rows: Vec<(String, i64)> = fns.pairs::<String, i64>().flatten().collect();
    rows.sort_by_key(|r| std::cmp::Reverse(r.1));
    let mut parts: HashMap<&str, i64> = HashMap::new();
    let mut lines: HashMap<String, Vec<String>> = HashMap::new();
    for (k, v) in &rows {
        let (file, name) = k.rsplit_once(':').unwrap_or(("?", k));
        // A function without a name is given as the line it is defined on.
        let name = match name.parse::<usize>() {
            Ok(line) => lines
                .entry(file.to_string())
                .or_insert_with(|| source_lines(file))
                .get(line.saturating_sub(1))
                .map_or("?".to_string(), |l| declared(l)),
            Err(_) => name.to_string(),
        };
        *parts.entry(part(file, &name)).or_default() += v;
    }
    let mut parts: Vec<_> = parts.into_iter().collect();
    parts.sort_by_key(|p| std::cmp::Reverse(p.1));
    println!("  by part (the Lua function running, in any state)");
    for (p, v) in parts {
        println!("    {:<66} {:>5.1}%", p, 100.0 * v as f64 / total as f64);
    }
    println!("  by function running");
    for (k, v) in rows.into_iter().take(30) {
        let k = k.rsplit("scripts/").next().unwrap_or(&k).to_string();
        println!("    {:<44} {:>5.1}%", k, 100.0 * v as f64 / total as f64);
    }
}

/// The compiled path (as `sim` runs it): processor time per game of the
/// setup and first deal, the steps, and the result and metrics, over
/// `games` games after a warm-up.
fn compiled(games: u64) {
    let e = shared::engine(Limits {
        instructions: None,
        ..Limits::default()
    });
    let mut t = [0.0f64; 3];
    let mut decisions = 0;
    // A warm-up (the compiler's traces), then the games timed.
    for (first, n) in [(1_000_000, games / 5), (1, games)] {
        t = [0.0; 3];
        decisions = 0;
        for seed in first..first + n {
            let a = cpu();
            let mut g = e
                .new_game(GameConfig::new("sea_change", 4, seed), false)
                .expect("start");
            let b = cpu();
            Runner::random(4, seed).play(&mut g).expect("play");
            let c = cpu();
            g.result().expect("result");
            g.metrics().expect("metrics");
            let d = cpu();
            decisions += g.history().len();
            t[0] += b - a;
            t[1] += c - b;
            t[2] += d - c;
        }
    }
    // Once more under the sampler (its own run: the samples cost time).
    let stop = sample(e.host().lua());
    for seed in 1..=games {
        let mut g = e
            .new_game(GameConfig::new("sea_change", 4, seed), false)
            .expect("start");
        Runner::random(4, seed).play(&mut g).expect("play");
        g.metrics().expect("metrics");
    }
    let all: f64 = t.iter().sum();
    println!(
        "compiled (as sim): {games} games, {:.0} games per processor second, {:.0} decisions per second",
        games as f64 / all,
        decisions as f64 / all
    );
    for (name, x) in ["Setup", "Steps", "Result"].iter().zip(t) {
        println!(
            "  {:<40} {:>8.1} us a game {:>5.1}%",
            name,
            1e6 * x / games as f64,
            100.0 * x / all
        );
    }
    print_samples(stop);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = !args.iter().any(|a| a == "--bench");
    let games: u64 = args
        .iter()
        .position(|a| a == "--games")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(if quick { 5 } else { 200 });

    // `--setup-only N`: start N games and nothing else (for a profiler).
    if let Some(n) = args
        .iter()
        .position(|a| a == "--setup-only")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse::<u64>().ok())
    {
        let e = shared::engine(Limits {
            instructions: None,
            ..Limits::default()
        });
        let start = cpu();
        for seed in 1..=n {
            e.new_game(GameConfig::new("sea_change", 4, seed), false)
                .expect("start");
        }
        println!(
            "{n} games started, {:.1} us each",
            1e6 * (cpu() - start) / n as f64
        );
        return;
    }
    compiled(if quick { 20 } else { 5000 });

    // The engine, counting (the compiler off), as `sim --exact-budget`.
    let e = shared::engine(Limits::default());
    // Compose the rules before counting (once per engine in `sim`).
    e.rules("sea_change", &[]).expect("rules");
    let counts = Rc::new(RefCell::new(Counts::default()));
    let phase = Rc::new(Cell::new(Phase::Setup));
    // Replaces the budget's hook: nothing here runs away.
    count_into(e.host().lua(), counts.clone(), phase.clone());
    let mut decisions = 0;
    for seed in 1..=games {
        phase.set(Phase::Setup);
        let mut g = e
            .new_game(GameConfig::new("sea_change", 4, seed), false)
            .expect("start");
        phase.set(Phase::Steps);
        Runner::random(4, seed).play(&mut g).expect("play");
        decisions += g.history().len();
        phase.set(Phase::Result);
        g.result().expect("result");
        g.metrics().expect("metrics");
    }
    println!(
        "random 4-player Sea Change, {games} games, {:.1} decisions a game, counted interpreter",
        decisions as f64 / games as f64
    );
    print_counts("engine", &counts.borrow(), games as f64);

    // The reference under the same hook, the compiler off.
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("benches/reference/sea_change.lua");
    let text = std::fs::read_to_string(&file).expect("the reference file");
    let lua = mlua::Lua::new();
    lua.globals()
        .get::<mlua::Table>("jit")
        .and_then(|jit| jit.get::<mlua::Function>("off"))
        .and_then(|off| off.call::<()>(()))
        .expect("jit.off");
    deckhand_engine::lua::load_text(&lua, &text, "@reference.lua", None)
        .and_then(|chunk| chunk.call::<()>(()))
        .expect("the reference loads");
    let play: mlua::Function = lua.globals().get("play").expect("play");
    let rc = Rc::new(RefCell::new(Counts::default()));
    let rphase = Rc::new(Cell::new(Phase::Steps));
    count_into(&lua, rc.clone(), rphase);
    let plays: f64 = play.call((games, 1)).expect("the reference plays");
    lua.remove_global_hook();
    println!("\nreference: {:.1} plays a game", plays / games as f64);
    print_counts("reference", &rc.borrow(), games as f64);
}
