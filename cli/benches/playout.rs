//! Playout benchmark (run with `cargo bench -p deckhand`): whole
//! 4-player Sea Change games per second on one thread with random bots
//! (trace off as `sim` runs them, then with every instruction counted as in
//! the REPL, then trace on) and with the greedy script bot. Figures are
//! recorded in docs/performance.md.

use deckhand_engine::lua::Limits;

#[path = "shared/mod.rs"]
mod shared;
use deckhand_bots::{Bot, BotKind};
use deckhand_engine::{Engine, GameConfig, Runner, TraceWriter};
use std::time::Instant;

use shared::{engine, scripts};

/// One measurement: label, engine, games, bot, trace on, house rule.
type Run<'a> = (&'a str, &'a Engine, u64, &'a str, bool, Option<&'a str>);

/// Play `n` games (with the house rule `rule`, a file under scripts/house_rules,
/// when given); returns (games/s, mean decisions per game).
fn games_per_second(e: &Engine, n: u64, bot: &str, trace: bool, rule: Option<&str>) -> (f64, f64) {
    let start = Instant::now();
    let mut steps = 0usize;
    let setup_only = bot == "none";
    let mut sink = TraceWriter::new(std::io::sink());
    for i in 0..n {
        let mut config = GameConfig::new("sea_change", 4, i);
        if let Some(rule) = rule {
            config = config.variant(
                &scripts()
                    .join("house_rules")
                    .join(rule)
                    .display()
                    .to_string(),
            );
        }
        let bots = (1..=4)
            .map(|s| Bot::new(BotKind::parse(bot), i, s))
            .collect();
        let mut runner = Runner::with_bots(bots);
        if trace {
            runner = runner.observe(sink.game(i));
        }
        let mut g = runner.start(e, config, trace).expect("start");
        if setup_only {
            continue;
        }
        runner.play(&mut g).expect("play");
        steps += g.history().len();
    }
    (
        n as f64 / start.elapsed().as_secs_f64(),
        steps as f64 / n as f64,
    )
}

fn main() {
    // `cargo bench` passes --bench; a quick run under `cargo test` passes nothing.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let quick = !args.iter().any(|a| a == "--bench");
    // Any other argument selects the measurements whose label contains it
    // (`cargo bench -p deckhand --bench playout -- "as sim"`).
    let filters: Vec<&String> = args.iter().filter(|a| !a.starts_with("--")).collect();
    let wanted =
        |label: &str| filters.is_empty() || filters.iter().any(|f| label.contains(f.as_str()));
    let n = if quick { 20 } else { 2000 };
    let budget = engine(Limits::default());
    let unbounded = engine(Limits {
        instructions: None,
        ..Limits::default()
    });
    games_per_second(&budget, 20, "random", false, None); // warm up

    // Sea Change has one copy of its rules: a house rule that replaces a
    // rule function plays as fast as one that changes a constant, and as
    // the plain game.
    let eights = Some("eights_minus_five.lua");
    let following = Some("no_sea_change_when_following.lua");
    let runs: [Run; 7] = [
        (
            "new game only (setup and first deal)",
            &unbounded,
            n,
            "none",
            false,
            None,
        ),
        // `sim` runs without the instruction count (a watchdog stops a
        // step that never ends); the REPL, play and check count every one.
        (
            "random bots, trace off (as sim)",
            &unbounded,
            n,
            "random",
            false,
            None,
        ),
        (
            "random bots, trace off, instructions counted",
            &budget,
            n,
            "random",
            false,
            None,
        ),
        (
            "random bots, trace on (as sim)",
            &unbounded,
            n / 4,
            "random",
            true,
            None,
        ),
        (
            "greedy bots, trace off (as sim)",
            &unbounded,
            n / 4,
            "greedy",
            false,
            None,
        ),
        (
            "random bots, house rule eights_minus_five (as sim)",
            &unbounded,
            n,
            "random",
            false,
            eights,
        ),
        (
            "random bots, house rule no_sea_change_when_following (as sim)",
            &unbounded,
            n,
            "random",
            false,
            following,
        ),
    ];
    for (label, e, games, bot, trace, rule) in runs {
        if !wanted(label) {
            continue;
        }
        let (gps, steps) = games_per_second(e, games, bot, trace, rule);
        println!("sea_change 4p, {label:<62} {gps:>8.0} games/s ({steps:.0} decisions/game)");
    }
}
