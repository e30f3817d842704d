//! `deckhand sim`: many games of one configuration between bots, in
//! parallel, with every statistic and its 95 % interval (the lab's report
//! of one arm: `sim` is `compare` with a single arm), as text, JSON or
//! CSV, and an optional JSON Lines trace.

use super::lab::{self, RunArgs, TraceSpec};
use super::play::default_fill;
use super::setup;
use crate::GameArgs;
use anyhow::Result;
use clap::Args;
use deckhand_engine::{Engine, ScriptLibrary, TraceLevel};
use deckhand_lab::{Arm, Experiment};
use std::path::PathBuf;
use std::sync::Arc;

use super::lab::bot_kinds;
pub use super::lab::check_game_count;

#[derive(Args, Debug)]
pub struct SimArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub run: RunArgs,
    /// Rotate the seats: game i seats the bots given (with --seat and the
    /// default bot) moved on by i seats, so that every bot sits in every
    /// seat equally often; the report adds a row per bot.
    #[arg(long)]
    pub rotate: bool,
    /// Write a JSON Lines trace of every game to FILE, gzipped when FILE
    /// ends in .gz (see docs/trace.md).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// How much the trace holds: events (the rules' events and results),
    /// decisions (and every choice made) or full (everything: enough to
    /// check every rule).
    #[arg(long, value_name = "LEVEL", default_value = "full", value_parser = parse_trace_level)]
    pub trace_level: TraceLevel,
    /// Write the trace one seat may know instead of everything: the cards it
    /// cannot see written as 0, other seats' options and choices left out
    /// (see docs/trace.md).
    #[arg(long, value_name = "SEAT", requires = "trace")]
    pub trace_seat: Option<u32>,
}

fn parse_trace_level(s: &str) -> std::result::Result<TraceLevel, String> {
    TraceLevel::parse(s).ok_or_else(|| {
        let names: Vec<&str> = TraceLevel::ALL.iter().map(|l| l.name()).collect();
        format!("'{s}': the trace levels are {}", names.join(", "))
    })
}

pub fn run(library: Arc<ScriptLibrary>, args: &SimArgs) -> Result<()> {
    let mut game_args = args.game.clone();
    let first_seed = game_args.seed.unwrap_or(1);
    game_args.seed = Some(first_seed);
    let build = |engine: &Engine| {
        let (config, specs) = setup::bot_game_config(engine, &game_args, default_fill)?;
        let seats = bot_kinds(&specs, "sim")?;
        Ok(Experiment {
            arms: vec![Arm {
                name: "sim".into(),
                config,
                seats,
                bot_salt: 0,
            }],
            first_seed,
            rotate: args.rotate,
        })
    };
    let trace = args.trace.clone().map(|path| TraceSpec {
        path,
        level: args.trace_level,
        seat: args.trace_seat,
    });
    let timed = lab::run(library, &args.run, 100, first_seed, trace.as_ref(), build)?;
    super::shards::finish("sim", &timed, &args.run)
}
