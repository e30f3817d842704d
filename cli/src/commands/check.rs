//! `deckhand check`: load a game, variant or house rule and play random games
//! at every player count through the core's conformance suite
//! (`deckhand_core::conformance`): cards conserved and zone mirrors in step
//! after every step, the rules' own invariants, the secrecy of every seat,
//! guesses, the game ends with a well-formed result, determinism in a
//! second engine, replay, save/load and undo/redo mid-game. Reports the
//! first failure with its seed and step.

use anyhow::{anyhow, bail, Context, Result};
use clap::Args;
use deckhand_core::conformance::Suite;
use deckhand_core::{DirSource, Engine, GameConfig, ScriptLibrary};
use std::path::{Path, PathBuf};
use std::sync::Arc;

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
    super::setup::parse_options(&mut given, &args.options)?;
    rules.info.resolve_options(&given.options)?;
    let suite = Suite::new(&engine)?;
    let mut total_steps = 0;
    for &players in &counts {
        for g in 0..args.games {
            let mut cfg = GameConfig::new(&game_id, players, args.seed.wrapping_add(g));
            cfg.variants = variants.clone();
            super::setup::parse_options(&mut cfg, &args.options)?;
            match suite.check(&cfg) {
                Ok(report) => total_steps += report.steps,
                Err(failure) => bail!("FAILED: {failure}"),
            }
        }
    }
    outln!(
        "ok: {game_id} [{}]: {} games at {} player count(s), {total_steps} decisions; cards conserved, \
         rules' invariants held, secrets kept, guesses sound, games ended, deterministic, replay, \
         save/load and undo exact",
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
