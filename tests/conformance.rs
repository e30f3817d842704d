//! The conformance suite (`deckhand_engine::conformance`) over every built-in
//! game: every game in the catalog x every set of its variants that its
//! rules accept x no house rule and each shipped house rule for the game
//! (scripts/house_rules/) x every player count the set allows, two seeds
//! each (the full product: 113 cells, 226 games, about 88,500 decisions;
//! see docs/architecture.md for its time). Each game is played again
//! compiled, so the interpreter and the compiled path with its direct calls
//! are checked to agree on every cell. Nothing here names a game: a
//! game added to scripts/ is checked the moment the catalog lists it.
//!
//! The cells are shared between two threads (one engine each). Set
//! `DECKHAND_CONFORMANCE_SEEDS=N` to play N seeds per cell instead of two,
//! `DECKHAND_CONFORMANCE_GAME=ID` to check one game only. Run with
//! `-- --nocapture` to see the time each game took.

use crate::common;

use deckhand_engine::conformance::{variant_sets, Suite};
use deckhand_engine::{Engine, GameConfig};
use std::sync::Mutex;
use std::time::Instant;

/// Seeds per cell of the matrix.
const SEEDS: u64 = 2;

/// Threads sharing the cells.
const THREADS: usize = 2;

/// Every cell of the matrix: a config without its seed.
fn matrix(e: &Engine) -> Vec<GameConfig> {
    let rules_dir = common::scripts_dir().join("house_rules");
    let mut house_rules: Vec<(String, String)> = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&rules_dir)
        .expect("scripts/house_rules")
        .filter_map(|f| f.ok().map(|f| f.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "lua"))
        .collect();
    files.sort();
    for path in files {
        let info = e.variant_file_info(&path).expect("a house rule");
        let game = info.game.expect("a shipped house rule names its game");
        house_rules.push((game, path.display().to_string()));
    }
    let mut cells = Vec::new();
    for entry in e.catalog().expect("catalog") {
        let game = entry.info.id.clone();
        let rules: Vec<Option<&String>> = std::iter::once(None)
            .chain(
                house_rules
                    .iter()
                    .filter(|(g, _)| *g == game)
                    .map(|(_, p)| Some(p)),
            )
            .collect();
        for (set, range) in variant_sets(e, &game).expect("variant sets") {
            for rule in &rules {
                for players in range.min..=range.max {
                    let mut cfg = GameConfig::new(&game, players, 0);
                    cfg.variants = set.clone();
                    if let Some(rule) = rule {
                        cfg.variants.push(rule.to_string());
                    }
                    cells.push(cfg);
                }
            }
        }
    }
    cells
}

#[test]
fn every_game_variant_set_house_rule_and_player_count_conforms() {
    let seeds = std::env::var("DECKHAND_CONFORMANCE_SEEDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(SEEDS);
    let start = Instant::now();
    let only = std::env::var("DECKHAND_CONFORMANCE_GAME").ok();
    let cells: Vec<GameConfig> = matrix(&common::engine())
        .into_iter()
        .filter(|c| only.as_ref().is_none_or(|g| *g == c.game))
        .collect();
    let games: std::collections::BTreeSet<String> = cells.iter().map(|c| c.game.clone()).collect();
    assert!(
        only.is_some() || games.len() >= 4,
        "the catalog lists {games:?}"
    );
    let queue = Mutex::new(cells.clone());
    let failures = Mutex::new(Vec::new());
    let steps = Mutex::new(std::collections::BTreeMap::<String, (usize, f64)>::new());
    std::thread::scope(|scope| {
        for _ in 0..THREADS {
            scope.spawn(|| {
                let e = common::engine();
                // The determinism check plays each game again compiled:
                // the two paths of the Lua host agree on every cell.
                let suite = Suite::new(&e)
                    .and_then(Suite::on_both_paths)
                    .expect("suite");
                loop {
                    let Some(cell) = queue.lock().expect("queue").pop() else {
                        break;
                    };
                    let t = Instant::now();
                    for seed in 1..=seeds {
                        let mut cfg = cell.clone();
                        cfg.seed = seed;
                        match suite.check(&cfg) {
                            Ok(report) => {
                                let mut s = steps.lock().expect("steps");
                                let entry = s.entry(cfg.game.clone()).or_default();
                                entry.0 += report.steps;
                            }
                            Err(failure) => {
                                failures.lock().expect("failures").push(failure.to_string())
                            }
                        }
                    }
                    let mut s = steps.lock().expect("steps");
                    s.entry(cell.game.clone()).or_default().1 += t.elapsed().as_secs_f64();
                }
            });
        }
    });
    for (game, (n, secs)) in steps.lock().expect("steps").iter() {
        eprintln!("{game}: {n} decisions checked in {secs:.1} s");
    }
    eprintln!(
        "{} cells x {seeds} seed(s) in {:.1} s",
        cells.len(),
        start.elapsed().as_secs_f64()
    );
    let failures = failures.into_inner().expect("failures");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// A house rule (written to `dir`) that runs `body` after every step of
/// `game`'s rules.
fn after_apply(dir: &std::path::Path, game: &str, id: &str, body: &str) -> String {
    let path = dir.join(format!("{id}.lua"));
    let text = format!(
        "return {{ id = \"{id}\", game = \"{game}\", modify = function(rules)\n\
         local apply = rules.apply\n\
         rules.apply = function(game, seat, action)\n\
         local r = apply(game, seat, action)\n\
         {body}\n\
         return r\n\
         end\n\
         end }}\n"
    );
    std::fs::write(&path, text).expect("write house rule");
    path.display().to_string()
}

#[test]
fn the_games_own_invariants_catch_rules_that_break_them() {
    let dir = tempfile::tempdir().expect("tmp");
    let e = common::engine();
    let suite = Suite::new(&e).expect("suite");
    // SeaDogs: gold paid into the bank from nowhere.
    let rule = after_apply(
        dir.path(),
        "seadogs",
        "free_gold",
        "game.vars.bank = game.vars.bank + 1",
    );
    let t = suite
        .check(&GameConfig::new("seadogs", 3, 1).variant(&rule))
        .expect_err("caught")
        .to_string();
    assert!(
        t.contains(", step 1: rules.invariants: gold on the table is"),
        "{t}"
    );
    // Sea Change: a card slipped from one hand into another.
    let rule = after_apply(
        dir.path(),
        "sea_change",
        "slipped_card",
        "local from, to = game:zone('hand', 2), game:zone('hand', 1)\n\
         if #from > 0 then game:move(from[1], from, to) end",
    );
    let t = suite
        .check(&GameConfig::new("sea_change", 4, 1).variant(&rule))
        .expect_err("caught")
        .to_string();
    assert!(t.contains(", step 1: rules.invariants: "), "{t}");
}
