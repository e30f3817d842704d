//! `deckhand check`: load a game, variant or house rule and play random games
//! at every player count through the core's conformance suite
//! (`deckhand_engine::conformance`): cards conserved and zone mirrors in step
//! after every step, the rules' own invariants, the secrecy of every seat,
//! guesses, the game ends with a well-formed result, determinism in a
//! second engine, replay, save/load and undo/redo mid-game. Then a few
//! games more for each bot the rules declare (`rules.bots`), seated with
//! the others and random bots, so that a bot that answers out of range or
//! never answers is found here rather than in `sim`. Reports the first
//! failure with its seed and step (and for a bot, its name, file and line).
//!
//! The games run with the compiler on, as in `sim`, watched by a watchdog
//! (compiled code cannot count its instructions). A game that fails, or a
//! call that runs for longer than the watchdog's limit, is checked again
//! in the counting interpreter, whose failure is the one reported: the
//! same message, with the same script line, as a check run wholly in the
//! interpreter.

use crate::watchdog::{Phase, Watchdog, Worker};
use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use deckhand_engine::conformance::{Report, Suite};
use deckhand_engine::lua::Limits;
use deckhand_engine::{DirSource, Engine, GameConfig, PlainBot, Runner, ScriptLibrary, Stop};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

#[derive(Args, Debug)]
pub struct CheckArgs {
    /// A game id, a game.lua file, or a variant / house-rule file.
    pub script: String,
    /// Random games per player count.
    #[arg(long, short = 'n', default_value_t = 20)]
    pub games: u64,
    /// Only this player count (default: every count the rules allow).
    #[arg(long, short = 'p')]
    pub players: Option<u32>,
    /// Extra variants applied before the checked script (repeatable).
    #[arg(long = "variant", short = 'v')]
    pub variants: Vec<String>,
    /// Option as KEY=VALUE (repeatable).
    #[arg(long = "option", short = 'o')]
    pub options: Vec<String>,
    /// First seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// What the script is: a game (by id) and the variants to apply.
fn resolve(
    library: &Arc<ScriptLibrary>,
    args: &CheckArgs,
) -> Result<(Arc<ScriptLibrary>, String, Vec<String>)> {
    let path = Path::new(&args.script);
    if !path.is_file() {
        // A name that looks like a file (a `.lua` name or a path) is one
        // that is not there, not a game id.
        if path.exists() {
            bail!("{}: not a regular file", args.script);
        }
        if args.script.ends_with(".lua") || args.script.contains(['/', '\\']) {
            bail!("{}: no such file", args.script);
        }
        return Ok((library.clone(), args.script.clone(), args.variants.clone()));
    }
    deckhand_engine::files::check_regular(path, deckhand_engine::house_rule::MAX_BYTES, "script")?;
    if path.file_name().is_some_and(|n| n == "game.lua") {
        let dir = path.parent().context("game.lua has no folder")?;
        let id = dir
            .file_name()
            .context("game folder has no name")?
            .to_string_lossy()
            .into_owned();
        let root: PathBuf = dir
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        let mut lib = ScriptLibrary::new();
        lib.push(Arc::new(DirSource::new(root)));
        for s in library.sources() {
            lib.push(s.clone());
        }
        return Ok((Arc::new(lib), id, args.variants.clone()));
    }
    // A variant or house rule: ask it which game it changes.
    let engine = Engine::new(library.clone())?;
    let game = engine.variant_file_info(path)?.game;
    let Some(game) = game else {
        bail!(
            "{}: a variant must return a table with a `game` field naming the game it changes",
            path.display()
        );
    };
    let mut variants = args.variants.clone();
    variants.push(args.script.clone());
    Ok((library.clone(), game, variants))
}

pub fn run(library: Arc<ScriptLibrary>, args: &CheckArgs) -> Result<()> {
    let (library, game_id, variants) = resolve(&library, args)?;
    let engine = Engine::new(library.clone())?;
    let rules = engine.rules(&game_id, &variants).map_err(|e| {
        anyhow!(super::setup::explain_rules_error(
            &library,
            &game_id,
            e,
            "deckhand games",
        ))
    })?;
    super::sim::check_game_count(args.games, "per player count")?;
    let counts: Vec<u32> = match args.players {
        Some(p) => {
            crate::seats::check_players(p, &rules.info)?;
            vec![p]
        }
        None => {
            let range = rules.info.players;
            crate::seats::check_players(range.max, &rules.info)?;
            (range.min..=range.max).collect()
        }
    };
    // The options are checked once, before any game: a bad one is the
    // command line's fault, not a failure of the rules.
    let mut given = GameConfig::new(&game_id, 0, 0);
    super::setup::parse_options_of(&mut given, &args.options, &rules.info)?;
    rules.info.resolve_options(&given.options)?;
    // The rules were loaded above in the counting interpreter (a loop in a
    // file's top-level code is stopped at its line); the games run compiled.
    let compiled = Engine::with_limits(
        library.clone(),
        Limits {
            instructions: None,
            ..Limits::default()
        },
    )?;
    let mut suite = Suite::new(&compiled)?;
    let cell: Arc<Mutex<Option<Cell>>> = Arc::default();
    let dog = Watchdog::start_cpu(
        crate::watchdog::RERUN_LIMIT,
        on_stall(library.clone(), cell.clone()),
    );
    let worker = dog.watch_all(suite.activities());
    let mut total_steps = 0;
    let config = |players: u32, g: u64| -> Result<GameConfig> {
        let mut cfg = GameConfig::new(&game_id, players, args.seed.wrapping_add(g));
        cfg.variants = variants.clone();
        cfg.options = given.options.clone();
        Ok(cfg)
    };
    let random = vec![PlainBot::Random];
    for &players in &counts {
        for g in 0..args.games {
            let cfg = config(players, g)?;
            match check_cell(&suite, &worker, &cell, &library, &cfg, &random) {
                Ok(report) => total_steps += report.steps,
                Err(failure) => bail!("FAILED: {failure}"),
            }
        }
    }
    // The rules' own bots: a few games each at every player count, each
    // time at another seat, the other seats taken by the other bots and
    // random ones.
    let bots = &rules.info.bots;
    let per_bot = args.games.min(BOT_GAMES);
    for i in 0..bots.len() {
        for &players in &counts {
            for g in 0..per_bot {
                let seats = lineup(bots, i, players, g);
                suite.set_bots(seats.clone());
                let cfg = config(players, g)?;
                match check_cell(&suite, &worker, &cell, &library, &cfg, &seats) {
                    Ok(report) => total_steps += report.steps,
                    Err(failure) => bail!("FAILED: {failure}\n{}", replay_hint(&cfg, &seats)),
                }
            }
        }
    }
    let barred = check_strengths_and_restrictions(
        &engine,
        &rules.info,
        &game_id,
        &variants,
        &counts,
        args.seed,
    )?;
    let bot_games = bots.len() as u64 * counts.len() as u64 * per_bot;
    let with_bots = if bot_games == 0 {
        String::new()
    } else {
        format!(
            " and {bot_games} with the rules' bot{} ({})",
            if bots.len() == 1 { "" } else { "s" },
            bots.join(", ")
        )
    };
    let random_games = args.games * counts.len() as u64;
    outln!(
        "ok: {game_id} [{}]: {random_games} random game{} at {} player count(s){with_bots}{barred}, \
         {total_steps} decisions; cards conserved, rules' invariants held, secrets kept, guesses \
         sound, games ended, deterministic, replay, save/load and undo exact",
        variants.join(", "),
        if random_games == 1 { "" } else { "s" },
        counts.len()
    );
    warn_if_no_effect(
        &compiled,
        args,
        &game_id,
        &variants,
        &given.options,
        &counts,
    )?;
    let configs = counts
        .iter()
        .flat_map(|&p| (0..args.games.min(METRIC_GAMES)).map(move |g| (p, g)))
        .map(|(p, g)| config(p, g))
        .collect::<Result<Vec<_>>>()?;
    warn_of_nil_metrics(&compiled, &configs);
    drop(worker);
    Ok(())
}

/// The game being checked: its config and who plays it.
type Cell = (GameConfig, Vec<PlainBot>);

/// Check one game in the compiled suite, watched; a failure is the one
/// the counting interpreter finds in the same game (see the module's
/// text).
fn check_cell(
    suite: &Suite,
    worker: &Worker,
    cell: &Mutex<Option<Cell>>,
    library: &Arc<ScriptLibrary>,
    cfg: &GameConfig,
    seats: &[PlainBot],
) -> std::result::Result<Report, String> {
    if let Ok(mut c) = cell.lock() {
        *c = Some((cfg.clone(), seats.to_vec()));
    }
    worker.at(0, cfg.seed, Phase::Setup);
    let outcome = suite.check(cfg);
    worker.idle();
    outcome.map_err(|compiled| match counted_check(library, cfg, seats) {
        Err(failure) => failure,
        Ok(()) => format!(
            "{compiled} (with the compiler on; the counting interpreter plays the same \
             game without failing: the two disagree, which is a fault of deckhand's)"
        ),
    })
}

/// The same game checked in the counting interpreter: its failure.
fn counted_check(
    library: &Arc<ScriptLibrary>,
    cfg: &GameConfig,
    seats: &[PlainBot],
) -> std::result::Result<(), String> {
    let engine = Engine::new(library.clone()).map_err(|e| e.to_string())?;
    let mut suite = Suite::new(&engine).map_err(|e| e.to_string())?;
    suite.set_bots(seats.to_vec());
    suite.check(cfg).map(|_| ()).map_err(|f| f.to_string())
}

/// What the watchdog does when a compiled call runs away: check the same
/// game in the counting interpreter, on the watchdog's thread, and report
/// its failure as `check` reports one (the stuck call cannot be stopped,
/// so the run ends there). When the interpreter passes the game, the call
/// was only slow (a busy machine): the check goes on.
fn on_stall(
    library: Arc<ScriptLibrary>,
    cell: Arc<Mutex<Option<Cell>>>,
) -> crate::watchdog::OnStall {
    Box::new(move |worker, limit| {
        let current = cell.lock().ok().and_then(|c| c.clone());
        let Some((cfg, seats)) = current else {
            crate::watchdog::print_stall(worker, limit);
            return true;
        };
        match counted_check(&library, &cfg, &seats) {
            Err(failure) => {
                let bots = if seats.iter().any(|b| *b != PlainBot::Random) {
                    format!("\n{}", replay_hint(&cfg, &seats))
                } else {
                    String::new()
                };
                eprintln!("error: FAILED: {failure}{bots}");
                std::process::exit(1);
            }
            Ok(()) => false,
        }
    })
}

/// Games played at each player count to see the rules' metrics.
const METRIC_GAMES: u64 = 3;

/// Warn of every metric of the rules that was nil at the end of every one
/// of `configs`' games (played by random bots): nil means "this game does
/// not count", so a metric that always says it is in no report (a
/// misspelled variable, a counter never kept).
fn warn_of_nil_metrics(engine: &Engine, configs: &[GameConfig]) {
    let mut counted: std::collections::BTreeMap<String, bool> = Default::default();
    let mut games = 0;
    for cfg in configs {
        let Ok(mut game) = engine.new_game(cfg.clone(), false) else {
            continue;
        };
        let mut runner = Runner::random(cfg.players, cfg.seed);
        if !matches!(runner.play(&mut game), Ok(Stop::Over(_))) {
            continue;
        }
        let Ok(metrics) = game.metrics() else {
            continue;
        };
        games += 1;
        for (name, value) in metrics {
            *counted.entry(name).or_default() |= value.is_some();
        }
    }
    let all = if games == 1 {
        "the one game".to_string()
    } else {
        format!("all {games} games")
    };
    for (name, _) in counted.iter().filter(|(_, any)| !**any) {
        eprintln!(
            "warning: metric '{name}' was nil at the end of {all} played to see it: \
             nil means a game does not count for it, so no report will show it (return a number, \
             or true or false)"
        );
    }
}

/// Games played with each bot of the rules at every player count (fewer
/// when `-n` asks for fewer games): enough to find a bot that answers out
/// of range or never answers, few enough for a check of every house rule.
const BOT_GAMES: u64 = 2;

/// The seats of game `g` (0-based) of the games of `bots[i]` at `players`
/// players: that bot at seat `g + 1` (round the table), the seats after it
/// taken in turn by the other bots of the rules and a random bot, round
/// the table.
fn lineup(bots: &[String], i: usize, players: u32, g: u64) -> Vec<PlainBot> {
    let players = players.max(1) as usize;
    let mut others: Vec<PlainBot> = (1..bots.len())
        .map(|k| PlainBot::Script(bots[(i + k) % bots.len()].clone()))
        .collect();
    others.push(PlainBot::Random);
    let first = (g % players as u64) as usize;
    let mut seats = vec![PlainBot::Random; players];
    seats[first] = PlainBot::Script(bots[i].clone());
    for k in 1..players {
        seats[(first + k) % players] = others[(k - 1) % others.len()].clone();
    }
    seats
}

/// The seats of a failed game with the rules' bots, and how to play it
/// again with `sim` (the same seed and seats give the same game; with
/// `--exact-budget` a loop that never ends is stopped at its line).
fn replay_hint(cfg: &GameConfig, seats: &[PlainBot]) -> String {
    let names: Vec<&str> = seats.iter().map(PlainBot::name).collect();
    let mut cmd = format!(
        "deckhand sim {} -p {} -n 1 --seed {}",
        cfg.game, cfg.players, cfg.seed
    );
    for v in &cfg.variants {
        cmd.push_str(&format!(" -v {v}"));
    }
    for (k, v) in &cfg.options {
        match v.as_str() {
            Some(text) => cmd.push_str(&format!(" -o {k}={text}")),
            None => cmd.push_str(&format!(" -o {k}={v}")),
        }
    }
    for n in &names {
        cmd.push_str(&format!(" --seat {n}"));
    }
    format!(
        "seats: {}; to play the same game again: {cmd} --exact-budget",
        names.join(", ")
    )
}

/// When the checked script is a variant or house rule: play the same
/// The strengths the rules name must be bots of the game, and each
/// restriction must answer for every option of a whole game: one game per
/// restriction at each player count, a random bot barred by it at seat 1
/// and random bots elsewhere, in the counting interpreter (so a
/// restriction that never returns fails at its line). Says what was
/// played, for the summary line.
fn check_strengths_and_restrictions(
    engine: &Engine,
    info: &deckhand_engine::RulesInfo,
    game_id: &str,
    variants: &[String],
    counts: &[u32],
    seed: u64,
) -> Result<String> {
    use crate::seats::{self, SeatSpec};
    use deckhand_bots::BotKind;
    let players = counts.first().copied().unwrap_or(info.players.min);
    for (word, bot) in &info.strengths {
        let spec = SeatSpec::parse(bot);
        seats::complete(
            std::slice::from_ref(&spec),
            players,
            &spec,
            info,
            seats::Table::People,
        )
        .with_context(|| format!("FAILED: strength '{word}' names '{bot}'"))?;
    }
    for name in info.restrictions.keys() {
        for &players in counts {
            let mut cfg = GameConfig::new(game_id, players, seed);
            cfg.variants = variants.to_vec();
            let barred = BotKind::Random.barred(name).map_err(|e| anyhow!("{e}"))?;
            let mut bots = vec![barred];
            bots.resize(players as usize, BotKind::Random);
            super::lab::play_one(engine, cfg, &bots, seed, 0, None, None)
                .with_context(|| format!("FAILED: restriction '{name}' at {players} players"))?;
        }
    }
    Ok(match info.restrictions.len() {
        0 => String::new(),
        n => format!(
            ", {} with a bot barred by each restriction ({})",
            n * counts.len(),
            info.restrictions
                .keys()
                .cloned()
                .collect::<Vec<_>>()
                .join(", ")
        ),
    })
}

/// random games (player counts, seeds) with and without it, and warn when
/// it changed nothing in any of them (a misspelled rule that the strict
/// rules cannot catch, a wrapper that returns what it was given).
fn warn_if_no_effect(
    engine: &Engine,
    args: &CheckArgs,
    game_id: &str,
    variants: &[String],
    options: &std::collections::BTreeMap<String, serde_json::Value>,
    counts: &[u32],
) -> Result<()> {
    let path = Path::new(&args.script);
    if !path.is_file() || path.file_name().is_some_and(|n| n == "game.lua") {
        return Ok(());
    }
    let Some((variant, before)) = variants.split_last() else {
        return Ok(());
    };
    let mut base = GameConfig::new(game_id, 0, args.seed);
    base.variants = before.to_vec();
    base.options = options.clone();
    let effect =
        deckhand_engine::variant_effect::compare(engine, &base, variant, counts, args.games);
    if effect.changed_nothing() {
        // A rule that adds a bot changes nothing in games between random
        // bots: say so, rather than call it a rule without effect.
        let bots = |variants: &[String]| {
            engine
                .rules(game_id, variants)
                .map(|r| r.info.bots.clone())
                .unwrap_or_default()
        };
        let had = bots(before);
        let added: Vec<String> = bots(variants)
            .into_iter()
            .filter(|b| !had.contains(b))
            .map(|b| format!("'{b}'"))
            .collect();
        let adds = match added.len() {
            0 => String::new(),
            1 => format!(
                " (it adds the bot {}, which plays only when seated)",
                added[0]
            ),
            _ => format!(
                " (it adds the bots {}, which play only when seated)",
                added.join(", ")
            ),
        };
        eprintln!(
            "warning: {variant} changed nothing in {} games between random bots: the same moves, \
             events, results and variables as without it, on the same seeds{adds}",
            effect.games
        );
    }
    Ok(())
}
