//! The engine against the same rules written by hand (run with `cargo bench
//! -p deckhand --bench reference`): random 4-player Sea Change, one thread,
//! the plain-Lua reference (cli/benches/reference/sea_change.lua, in a bare
//! LuaJIT VM of the same build: compiler on, no sandbox) and the engine as
//! `sim` runs it (compiler on, no events), measured in turn, A B A B, for
//! the processor time of this thread. Prints plays (decisions) per second
//! of each and their ratio, pair by pair: machines are shared and their
//! speed moves, so only a ratio measured in one run means anything.
//!
//! `-- --reference FILE` measures another plain-Lua file instead (one that
//! defines `play(games, seed)` returning the plays it made).

#[path = "shared/mod.rs"]
mod shared;

use deckhand_engine::lua::Limits;
use deckhand_engine::{Engine, GameConfig, Runner};
use std::path::PathBuf;

/// Processor seconds this thread has used.
fn cpu() -> f64 {
    shared::thread_cpu().expect("the thread's processor time")
}

fn here() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The reference's plays per processor second over `games` games.
fn reference(lua: &mlua::Lua, games: u32, seed: u32) -> f64 {
    let play: mlua::Function = lua
        .globals()
        .get("play")
        .expect("the reference defines play");
    let start = cpu();
    let plays: f64 = play.call((games, seed)).expect("the reference plays");
    plays / (cpu() - start)
}

/// The engine's decisions per processor second over `games` random games
/// (as `sim` plays them: no events).
fn engine(e: &Engine, games: u64, first_seed: u64) -> f64 {
    let start = cpu();
    let mut plays = 0;
    for seed in first_seed..first_seed + games {
        let mut g = e
            .new_game(GameConfig::new("sea_change", 4, seed), false)
            .expect("start");
        Runner::random(4, seed).play(&mut g).expect("play");
        plays += g.history().len();
    }
    plays as f64 / (cpu() - start)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes --bench; a quick run under `cargo test` does not.
    let quick = !args.iter().any(|a| a == "--bench");
    let file = args
        .iter()
        .position(|a| a == "--reference")
        .and_then(|i| args.get(i + 1))
        .map(PathBuf::from)
        .unwrap_or_else(|| here().join("benches/reference/sea_change.lua"));
    let text = std::fs::read_to_string(&file).expect("the reference file");
    let lua = mlua::Lua::new();
    deckhand_engine::lua::load_text(&lua, &text, "@reference.lua", None)
        .and_then(|chunk| chunk.call::<()>(()))
        .expect("the reference loads");
    let e = shared::engine(Limits {
        instructions: None,
        ..Limits::default()
    });
    let (pairs, ref_games, engine_games) = if quick {
        (1, 200, 20)
    } else {
        (6, 40_000, 4_000)
    };
    // Warm both up (the compiler's traces, the engine's rules).
    reference(&lua, ref_games / 10, 7);
    engine(&e, engine_games / 10, 1_000_000);
    println!("random 4-player Sea Change, plays per processor second, one thread");
    println!(
        "{:>4} {:>12} {:>12} {:>7}",
        "pair", "reference", "engine", "ratio"
    );
    let mut ratios = Vec::new();
    for pair in 0..pairs {
        let r = reference(&lua, ref_games, pair + 1);
        let g = engine(&e, engine_games, u64::from(pair) * engine_games + 1);
        ratios.push(g / r);
        println!("{:>4} {:>12.0} {:>12.0} {:>7.3}", pair + 1, r, g, g / r);
    }
    ratios.sort_by(f64::total_cmp);
    println!(
        "engine / reference: median {:.3}, range {:.3} .. {:.3} ({})",
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1],
        file.display()
    );
}
