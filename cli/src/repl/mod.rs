//! The REPL (being written).
use crate::seats::SeatSpec;
use deckhand_core::{GameConfig, ScriptLibrary};
use std::sync::Arc;

pub fn run(_library: Arc<ScriptLibrary>, _start: Option<(GameConfig, Vec<SeatSpec>)>) -> anyhow::Result<()> {
    anyhow::bail!("the REPL is not built yet")
}
