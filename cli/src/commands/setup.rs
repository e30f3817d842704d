//! Turning command-line game arguments into a game config and seats.

use crate::seats::{self, SeatSpec};
use crate::GameArgs;
use anyhow::{anyhow, Result};
use deckhand_engine::{CoreError, Engine, GameConfig, RulesInfo, ScriptLibrary};

/// A seed from the clock, for games started without one.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 % 1_000_000_000)
        .unwrap_or(1)
}

/// The ids of the games on the scripts search path.
pub fn game_ids(library: &ScriptLibrary) -> Vec<String> {
    library
        .list("")
        .into_iter()
        .filter(|d| library.read(&format!("{d}/game.lua")).is_some())
        .collect()
}

/// A one-line message for rules that cannot be composed: an unknown game
/// is named with the closest id ("did you mean") and the list of games.
/// The REPL's `new`, `play`, `sim` and `check` all say it this way;
/// `lister` is the command that lists the games where the user is.
pub fn explain_rules_error(
    library: &ScriptLibrary,
    game: &str,
    e: CoreError,
    lister: &str,
) -> String {
    let ids = game_ids(library);
    if matches!(e, CoreError::NotFound(_)) && !ids.iter().any(|g| g == game) {
        let close = ids
            .iter()
            .map(|g| (crate::repl::edit_distance(game, g), g))
            .filter(|(d, g)| *d <= 3.max(g.len() / 3))
            .min_by_key(|(d, _)| *d)
            .map(|(_, g)| format!(" — did you mean '{g}'?"))
            .unwrap_or_default();
        return format!(
            "unknown game '{game}'{close} (games: {}; `{lister}` lists them with their variants)",
            ids.join(", ")
        );
    }
    if let CoreError::NotFound(what) = &e {
        // A variant not found: the closest of the game's (as for games).
        let name = what
            .strip_prefix("variant '")
            .and_then(|rest| rest.split_once('\''))
            .map(|(name, _)| name);
        if let Some(name) = name {
            let known: Vec<String> = library
                .list(&format!("{game}/variants"))
                .into_iter()
                .filter_map(|f| f.strip_suffix(".lua").map(str::to_string))
                .collect();
            let close = known
                .iter()
                .map(|v| (crate::repl::edit_distance(name, v), v))
                .filter(|(d, v)| *d <= 3.max(v.len() / 3))
                .min_by_key(|(d, _)| *d)
                .map(|(_, v)| format!(" — did you mean '{v}'?"))
                .unwrap_or_default();
            let list = if known.is_empty() {
                format!("{game} has no variants")
            } else {
                format!("variants of {game}: {}", known.join(", "))
            };
            return format!("cannot load {game}: {e}{close} ({list})");
        }
    }
    format!("cannot load {game}: {e}")
}

/// The player count to use when none is given.
pub fn default_players(info: &RulesInfo) -> u32 {
    info.players
        .default
        .unwrap_or(info.players.min.max(2).min(info.players.max))
}

/// Parse `K=V` options, each value by the type the rules declare for
/// its option ([`RulesInfo::option_from_text`]).
pub fn parse_options_of(cfg: &mut GameConfig, options: &[String], info: &RulesInfo) -> Result<()> {
    for kv in options {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| anyhow!("option '{kv}' should be KEY=VALUE"))?;
        let k = k.trim();
        cfg.options
            .insert(k.to_string(), info.option_from_text(k, v.trim())?);
    }
    Ok(())
}

/// The config and seats described by `args`; unspecified seats get
/// `fill(rules)`. Each house-rule file is read once, here, and its text
/// kept in the config: the game, its saves and its traces carry it.
/// Without --players, one --seat per player sets the count (at the
/// terminal, `--seat human --seat greedy` is a two-player game). A game
/// people play or watch: a measuring bot (`seeall`) is refused.
pub fn game_config(
    engine: &Engine,
    args: &GameArgs,
    fill: impl FnOnce(&RulesInfo) -> SeatSpec,
) -> Result<(GameConfig, Vec<SeatSpec>)> {
    config_of(engine, args, fill, seats::Table::People)
}

/// [`game_config`] for bots only (`sim`, `compare`): the player count is
/// --players or the game's default, never the number of seats given; the
/// seats given fill seats 1, 2 ... in order and `fill(rules)` the rest. A
/// measuring bot (`seeall`) may sit.
pub fn bot_game_config(
    engine: &Engine,
    args: &GameArgs,
    fill: impl FnOnce(&RulesInfo) -> SeatSpec,
) -> Result<(GameConfig, Vec<SeatSpec>)> {
    config_of(engine, args, fill, seats::Table::Lab)
}

fn config_of(
    engine: &Engine,
    args: &GameArgs,
    fill: impl FnOnce(&RulesInfo) -> SeatSpec,
    table: seats::Table,
) -> Result<(GameConfig, Vec<SeatSpec>)> {
    let mut cfg = GameConfig::new(&args.game, 0, 0);
    cfg.variants = args.variants.clone();
    cfg.read_house_rules(false)?;
    let rules = engine.rules_of(&cfg).map_err(|e| {
        anyhow!(explain_rules_error(
            engine.library(),
            &args.game,
            e,
            "deckhand games"
        ))
    })?;
    // Without --players, one --seat per player sets the count.
    let players = args.players.unwrap_or_else(|| {
        if table == seats::Table::People && args.seats.len() > 1 {
            args.seats.len() as u32
        } else {
            default_players(&rules.info)
        }
    });
    cfg.players = players;
    cfg.seed = args.seed.unwrap_or_else(clock_seed);
    parse_options_of(&mut cfg, &args.options, &rules.info)?;
    // Checked here, before a game or the REPL starts: a bad option ends
    // the command with its one-line error.
    rules.info.resolve_options(&cfg.options)?;
    let specs: Vec<SeatSpec> = args.seats.iter().map(|s| SeatSpec::parse(s)).collect();
    let seats = seats::complete(&specs, players, &fill(&rules.info), &rules.info, table)?;
    Ok((cfg, seats))
}
