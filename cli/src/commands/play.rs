//! `deckhand play`: start a game at the REPL with the given seats; when every
//! seat is a bot, watch the whole game and print its events and result.

use super::setup;
use crate::render::{colour_enabled, Painter};
use crate::seats::{self, SeatSpec};
use crate::GameArgs;
use anyhow::Result;
use deckhand_core::{BotKind, Engine, ScriptLibrary};
use std::sync::Arc;

/// The seat kind that fills seats not given: the game's first script bot, else random.
pub fn default_fill(info: &deckhand_core::RulesInfo) -> SeatSpec {
    match info.bots.first() {
        Some(b) => SeatSpec::Bot(BotKind::Script(b.clone())),
        None => SeatSpec::Bot(BotKind::Random),
    }
}

pub fn run(library: Arc<ScriptLibrary>, args: &GameArgs) -> Result<()> {
    crate::files::check_rule_files(&args.variants)?;
    let engine = Engine::new(library.clone())?;
    let info = engine.rules(&args.game, &args.variants)?.info.clone();
    let mut args = args.clone();
    if args.seats.is_empty() {
        args.seats.push("human".into());
    }
    let (cfg, specs) = setup::game_config(&engine, &args, &default_fill(&info))?;
    if specs.contains(&SeatSpec::Human) {
        return crate::repl::run(library, Some((cfg, specs)));
    }
    // Bots only: watch.
    let seed = cfg.seed;
    let mut game = engine.new_game(cfg, true)?;
    let painter = Painter::new(&game, colour_enabled());
    let mut bots = seats::bots(&specs, seed);
    outln!("{} with {} bots, seed {seed}", info.title, specs.len());
    let print_events = |game: &mut deckhand_core::Game| {
        for e in game.take_events() {
            if let Some(t) = e.text() {
                outln!("  {}", painter.paint_names(t));
            }
        }
    };
    print_events(&mut game);
    seats::run_bots(&mut game, &mut bots, |_, _, _| Ok(()))?;
    print_events(&mut game);
    let r = game.result()?;
    let scores: Vec<String> = r
        .scores
        .iter()
        .enumerate()
        .map(|(i, s)| format!("seat {}: {s}", i + 1))
        .collect();
    outln!(
        "game over after {} decisions: {}",
        game.history().len(),
        scores.join(", ")
    );
    let winners: Vec<String> = r.winners.iter().map(|w| w.to_string()).collect();
    outln!(
        "winner{}: {}",
        if r.winners.len() == 1 { "" } else { "s" },
        if winners.is_empty() {
            "none".into()
        } else {
            winners.join(", ")
        }
    );
    Ok(())
}
