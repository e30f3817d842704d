//! Turning command-line game arguments into a game config and seats.

use crate::seats::{self, SeatSpec};
use crate::GameArgs;
use anyhow::{anyhow, Result};
use deckhand_core::config::parse_option_text;
use deckhand_core::{Engine, GameConfig, RulesInfo};

/// A seed from the clock, for games started without one.
pub fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64 % 1_000_000_000)
        .unwrap_or(1)
}

/// The player count to use when none is given.
pub fn default_players(info: &RulesInfo) -> u32 {
    info.players
        .default
        .unwrap_or(info.players.min.max(2).min(info.players.max))
}

/// Parse `K=V` options.
pub fn parse_options(cfg: &mut GameConfig, options: &[String]) -> Result<()> {
    for kv in options {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| anyhow!("option '{kv}' should be KEY=VALUE"))?;
        cfg.options
            .insert(k.trim().to_string(), parse_option_text(v.trim()));
    }
    Ok(())
}

/// The config and seats described by `args`; unspecified seats get
/// `fill(rules)`. Each house-rule file is read once, here, and its text
/// kept in the config: the game, its saves and its traces carry it.
pub fn game_config(
    engine: &Engine,
    args: &GameArgs,
    fill: impl FnOnce(&RulesInfo) -> SeatSpec,
) -> Result<(GameConfig, Vec<SeatSpec>)> {
    let mut cfg = GameConfig::new(&args.game, 0, 0);
    cfg.variants = args.variants.clone();
    cfg.read_house_rules(false)?;
    let rules = engine.rules_of(&cfg)?;
    // Without --players, one --seat per player sets the count.
    let players = args.players.unwrap_or_else(|| {
        if args.seats.len() > 1 {
            args.seats.len() as u32
        } else {
            default_players(&rules.info)
        }
    });
    cfg.players = players;
    cfg.seed = args.seed.unwrap_or_else(clock_seed);
    parse_options(&mut cfg, &args.options)?;
    let specs: Vec<SeatSpec> = args.seats.iter().map(|s| SeatSpec::parse(s)).collect();
    let seats = seats::complete(&specs, players, &fill(&rules.info), &rules.info)?;
    Ok((cfg, seats))
}
