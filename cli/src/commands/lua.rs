//! `deckhand lua FILE`: run a Lua file against a new game, without the
//! REPL: the same sandbox as every script, with full access to the game
//! (a scenario is a game of its own, not one being played), the scenario
//! helpers of the core (`scenario.give`, `scenario.on_top`,
//! `scenario.play`, ...) and the text of the data files named with
//! `--data NAME=PATH`. Prints what the script prints; on failure, one line
//! naming the file and the line, and a non-zero exit.

use super::setup;
use crate::seats::SeatSpec;
use crate::GameArgs;
use anyhow::{anyhow, bail, Result};
use clap::Args;
use deckhand_bots::BotKind;
use deckhand_engine::{Engine, ScriptLibrary};
use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

/// The largest data file a script may be given: 16 MiB.
pub const MAX_DATA_BYTES: u64 = 16 << 20;

/// The game a scenario runs against when none is given.
const DEFAULT_GAME: &str = "sea_change";

#[derive(Args, Debug)]
pub struct LuaArgs {
    /// The Lua file to run.
    pub file: String,
    /// Game id (default: sea_change).
    #[arg(long, short = 'g')]
    pub game: Option<String>,
    /// Number of players (default: the game's default).
    #[arg(long, short = 'p')]
    pub players: Option<u32>,
    /// Variant name or house-rule file, applied in the order given (repeatable).
    #[arg(long = "variant", short = 'v', value_name = "V")]
    pub variants: Vec<String>,
    /// Option as KEY=VALUE (repeatable).
    #[arg(long = "option", short = 'o', value_name = "K=V")]
    pub options: Vec<String>,
    /// Seed of the game's shuffles (default 1: a scenario runs the same every time).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// A data file the script may read, as `data.NAME` (its text; repeatable).
    #[arg(long = "data", value_name = "NAME=PATH")]
    pub data: Vec<String>,
}

/// Read the data files named on the command line.
fn read_data(specs: &[String]) -> Result<BTreeMap<String, String>> {
    let mut data = BTreeMap::new();
    for spec in specs {
        let (name, path) = spec
            .split_once('=')
            .ok_or_else(|| anyhow!("--data '{spec}' should be NAME=PATH"))?;
        let name = name.trim();
        let valid = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if !valid {
            bail!("--data '{spec}': NAME must be a Lua name (letters, digits, _)");
        }
        let text = deckhand_engine::files::read_text(Path::new(path), MAX_DATA_BYTES, "data file")?;
        if data.insert(name.to_string(), text).is_some() {
            bail!("--data: '{name}' is given twice");
        }
    }
    Ok(data)
}

pub fn run(library: Arc<ScriptLibrary>, args: &LuaArgs) -> Result<()> {
    let path = Path::new(&args.file);
    let text = deckhand_engine::files::read_text(
        path,
        deckhand_engine::house_rule::MAX_BYTES,
        "Lua file",
    )?;
    let data = read_data(&args.data)?;
    let engine = Engine::new(library)?;
    let game_args = GameArgs {
        game: args.game.clone().unwrap_or_else(|| DEFAULT_GAME.into()),
        players: args.players,
        variants: args.variants.clone(),
        options: args.options.clone(),
        seed: Some(args.seed),
        seats: Vec::new(),
    };
    let (cfg, _) = setup::game_config(&engine, &game_args, |_| SeatSpec::Bot(BotKind::Random))?;
    let mut game = engine.new_game(cfg, false)?;
    let ran = game.run_scenario(&text, &args.file, &data);
    for line in game.take_output() {
        outln!("{line}");
    }
    ran.map_err(|e| anyhow!("{e}"))
}
