//! Search benchmark (run with `cargo bench -p deckhand --bench search`):
//! playouts per second (of the thread's CPU time, so that other work on the
//! machine moves the figure less) of one search decision, single-threaded, round
//! horizon, from a position in the middle of a round: a 4-player Sea Change
//! round and a 4-player Sea Salt & Paper round. Each position is reached by
//! random moves from a fixed seed (half as many as the first round of that
//! deal lasts). Figures are recorded in docs/performance.md.
//!
//! `cargo bench -p deckhand --bench search -- ismcts` runs only the
//! lines whose label contains `ismcts`. `mc` and `ismcts` play their
//! playouts as the bots do (Sea Salt & Paper names its greedy bot as its
//! playout bot); "random playouts" forces random moves (`mc:N:random`);
//! "guesses only" times the copy and guess each playout starts with.

use deckhand_engine::lua::Limits;
use deckhand_engine::rng::GameRng;
use deckhand_engine::{Engine, Game, GameConfig};
use std::time::Instant;

#[path = "shared/mod.rs"]
mod shared;
use shared::{engine, scripts, thread_cpu as cpu_time};

/// One search of a position with a stream and a playout count.
type Search = dyn Fn(&Game, &mut GameRng, u32);

/// Random moves with a generator of the bench's own.
fn random_steps(g: &mut Game, rng: &mut GameRng, n: usize) {
    for _ in 0..n {
        let Some((_, m)) = g.pending() else { return };
        g.apply(rng.below(m as u64) as usize + 1).expect("step");
    }
}

/// The position halfway through the first round of `game` (4 players,
/// `seed`), reached by random moves, and the seat to move there.
fn middle_of_round(e: &Engine, game: &str, seed: u64) -> Game {
    let config = GameConfig::new(game, 4, seed);
    let mut probe = e.new_game(config.clone(), false).expect("start");
    let mut rng = GameRng::from_seed(seed);
    let mut length = 0;
    while probe.pending().is_some() && probe.rounds().expect("rounds") <= 1 {
        random_steps(&mut probe, &mut rng, 1);
        length += 1;
    }
    let mut g = e.new_game(config, false).expect("start");
    let mut rng = GameRng::from_seed(seed);
    random_steps(&mut g, &mut rng, length / 2);
    // A decision with one option needs no search: move on to one with several.
    while g.pending().is_some_and(|(_, n)| n < 2) {
        random_steps(&mut g, &mut rng, 1);
    }
    g
}

/// Playouts per second of `search` over positions of `game` (several
/// seeds, `iterations` each): per second of this thread's CPU time (wall
/// time where that cannot be read), and the options per decision.
fn playouts_per_second(e: &Engine, game: &str, iterations: u32, search: &Search) -> (f64, f64) {
    let seeds = 1..=5u64;
    let positions: Vec<Game> = seeds.clone().map(|s| middle_of_round(e, game, s)).collect();
    let mut options = 0.0;
    for g in &positions {
        options += g.pending().map_or(0, |p| p.1) as f64;
    }
    // Warm up the compiler on the first position.
    search(&positions[0], &mut GameRng::from_seed(0), iterations / 10);
    let (start, cpu) = (Instant::now(), cpu_time());
    for (g, seed) in positions.iter().zip(seeds) {
        search(g, &mut GameRng::from_seed(seed), iterations);
    }
    let seconds = match (cpu, cpu_time()) {
        (Some(a), Some(b)) => b - a,
        _ => start.elapsed().as_secs_f64(),
    };
    let playouts = f64::from(iterations) * positions.len() as f64;
    (playouts / seconds, options / positions.len() as f64)
}

/// Processor seconds the finished children of this process have used.
fn children_cpu() -> f64 {
    // SAFETY: a valid `who` and a rusage to fill.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let t = |v: libc::timeval| v.tv_sec as f64 + v.tv_usec as f64 * 1e-6;
    t(u.ru_utime) + t(u.ru_stime)
}

/// Playouts per processor second of a hint as the REPL gives one for a
/// game it plays in the interpreter: the `deckhand` binary's search worker,
/// a process that rebuilds the position compiled and runs the hint's two
/// searches (start-up, rules and replay included).
fn hint_at_the_table(e: &Engine, game: &str, iterations: u32) -> f64 {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let before = children_cpu();
    for seed in 1..=5u64 {
        let g = middle_of_round(e, game, seed);
        let job = serde_json::json!({
            "config": g.config(),
            "history": g.history(),
            "view": serde_json::to_string(&g.view(None).expect("view")).expect("json"),
            "task": { "Hint": { "budget": iterations.to_string() } },
        });
        let mut child = Command::new(env!("CARGO_BIN_EXE_deckhand"))
            .arg("--scripts")
            .arg(scripts())
            .arg("search-worker")
            .stdin(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("the search worker");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(job.to_string().as_bytes())
            .expect("the job");
        assert!(child.wait().expect("wait").success(), "the worker failed");
    }
    f64::from(iterations) * 5.0 / (children_cpu() - before)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    // `cargo bench` passes --bench; a quick run under `cargo test` passes nothing.
    let quick = !args.iter().any(|a| a == "--bench");
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let wanted =
        |label: &str| filters.is_empty() || filters.iter().any(|f| label.contains(f.as_str()));
    let iterations = if quick { 50 } else { 4000 };
    // As `sim` runs (compiler on), then as the REPL and `play` run (every
    // instruction counted, interpreter only).
    let engines = [
        (
            "as sim",
            engine(Limits {
                instructions: None,
                ..Limits::default()
            }),
        ),
        ("instructions counted", engine(Limits::default())),
    ];
    // As the bot plays: playouts by the rules' playout bot when they name
    // one (Sea Salt & Paper: greedy), else random moves.
    let mc = |g: &Game, rng: &mut GameRng, n: u32| {
        deckhand_bots::search::choose(g, rng, n, None, None).expect("search");
    };
    // One guess at the hidden cards (a fork and a deal), as each playout makes.
    let guess = |g: &Game, rng: &mut GameRng, n: u32| {
        let seat = g.pending().map_or(1, |p| p.0);
        let guessing = g.guessing(seat).expect("guessing");
        let mut scratch = None;
        for _ in 0..n {
            g.determinized_into(seat, rng, &guessing, &mut scratch)
                .expect("guess");
        }
    };
    let ismcts = |g: &Game, rng: &mut GameRng, n: u32| {
        deckhand_bots::ismcts::search(g, rng, deckhand_bots::Budget::Iterations(n), None, None)
            .expect("search");
    };
    // Random playouts whatever the rules name (`mc:N:random`).
    let mc_random = |g: &Game, rng: &mut GameRng, n: u32| {
        deckhand_bots::search::analyse(g, rng, n, None, None).expect("search");
    };
    let searches: [(&str, &Search); 4] = [
        ("mc", &mc),
        ("mc, random playouts", &mc_random),
        ("ismcts", &ismcts),
        ("guesses only", &guess),
    ];
    for game in ["sea_change", "sea_salt_paper"] {
        for (how, e) in &engines {
            for (bot, search) in &searches {
                let label = format!("{game} 4p, {bot}, {how}");
                if !wanted(&label) {
                    continue;
                }
                let (pps, options) = playouts_per_second(e, game, iterations, *search);
                println!("{label:<50} {pps:>8.0} playouts/s ({options:.1} options a decision)");
            }
        }
        let label = format!("{game} 4p, hint at the table (worker process)");
        if wanted(&label) {
            let pps = hint_at_the_table(&engines[1].1, game, iterations);
            println!("{label:<50} {pps:>8.0} playouts/s");
        }
    }
}
