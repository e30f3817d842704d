//! `deckhand check`: load a game, variant or house rule and play random games
//! at every player count, checking the invariants after every step: cards
//! conserved, zone mirrors in step, the game ends, the result is well formed,
//! undo and replay give back the same game. Reports the first failure with
//! its seed and step.

use anyhow::{bail, Context, Result};
use clap::Args;
use deckhand_core::{Bot, BotKind, DirSource, Engine, Game, GameConfig, ScriptLibrary};
use std::path::{Path, PathBuf};
use std::sync::Arc;

const MAX_STEPS: usize = 200_000;

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
        return Ok((library.clone(), args.script.clone(), args.variants.clone()));
    }
    deckhand_core::files::check_regular(path, deckhand_core::house_rule::MAX_BYTES, "script")?;
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

fn check_game(engine: &Engine, cfg: GameConfig) -> Result<usize> {
    let seed = cfg.seed;
    let players = cfg.players;
    let mut game = engine.new_game(cfg.clone(), true)?;
    game.check_invariants().context("after setup")?;
    let mut bots: Vec<Bot> = (1..=players)
        .map(|s| Bot::new(BotKind::Random, seed, s))
        .collect();
    while let Some((seat, _)) = game.pending() {
        let step = game.history().len() + 1;
        if step > MAX_STEPS {
            bail!("the game did not end within {MAX_STEPS} decisions");
        }
        let choice = bots[seat as usize - 1].choose(&game)?;
        game.apply(choice).with_context(|| format!("step {step}"))?;
        game.take_events();
        game.check_invariants()
            .with_context(|| format!("after step {step}"))?;
        if step % 97 == 0 {
            undo_round_trip(&mut game).with_context(|| format!("undo/redo at step {step}"))?;
        }
    }
    let r = game.result()?;
    if r.scores.len() != players as usize && !r.scores.is_empty() {
        bail!("result has {} scores for {players} players", r.scores.len());
    }
    if let Some(w) = r.winners.iter().find(|&&w| w == 0 || w > players) {
        bail!("result names seat {w} as a winner, but seats are 1..{players}");
    }
    let replayed = engine
        .replay(cfg, game.history())
        .map_err(|stop| anyhow::anyhow!("replay of the log failed: {}", stop.error))?;
    if replayed.view(None)? != game.view(None)? {
        bail!("replaying the log does not give the same game");
    }
    Ok(game.history().len())
}

fn undo_round_trip(game: &mut Game) -> Result<()> {
    let before = game.view(None)?;
    game.undo()?;
    game.redo()?;
    if game.view(None)? != before {
        bail!("undo then redo changed the game");
    }
    Ok(())
}

pub fn run(library: Arc<ScriptLibrary>, args: &CheckArgs) -> Result<()> {
    let (library, game_id, variants) = resolve(&library, args)?;
    let engine = Engine::new(library)?;
    let rules = engine.rules(&game_id, &variants)?;
    if args.games > super::sim::MAX_GAMES {
        bail!(
            "-n {}: at most {} games per player count",
            args.games,
            super::sim::MAX_GAMES
        );
    }
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
    let mut total_steps = 0;
    for &players in &counts {
        for g in 0..args.games {
            let mut cfg = GameConfig::new(&game_id, players, args.seed.wrapping_add(g));
            cfg.variants = variants.clone();
            super::setup::parse_options(&mut cfg, &args.options)?;
            let seed = cfg.seed;
            total_steps += check_game(&engine, cfg).with_context(|| {
                format!(
                    "FAILED: {game_id} [{}] with {players} players, seed {seed}",
                    variants.join(", ")
                )
            })?;
        }
    }
    outln!(
        "ok: {game_id} [{}]: {} games at {} player count(s), {total_steps} decisions; cards conserved, games ended, undo and replay exact",
        variants.join(", "),
        args.games * counts.len() as u64,
        counts.len()
    );
    warn_if_no_effect(&engine, args, &game_id, &variants, &counts)?;
    Ok(())
}

/// When the checked script is a variant or house rule: play the same
/// random games (player counts, seeds) with and without it, and warn when
/// it changed nothing in any of them (a misspelled rule that the strict
/// rules cannot catch, a wrapper that returns what it was given).
fn warn_if_no_effect(
    engine: &Engine,
    args: &CheckArgs,
    game_id: &str,
    variants: &[String],
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
    super::setup::parse_options(&mut base, &args.options)?;
    let effect = deckhand_core::variant_effect::compare(engine, &base, variant, counts, args.games);
    if effect.changed_nothing() {
        eprintln!(
            "warning: {variant} changed nothing in {} games: the same moves, events, results and \
             variables as without it, on the same seeds",
            effect.games
        );
    }
    Ok(())
}
