//! `deckhand play`: start a game at the REPL with the given seats; when every
//! seat is a bot, watch the whole game and print its events and result.

use super::setup;
use crate::render::{colour_enabled, Painter};
use crate::seats::{self, SeatSpec};
use crate::GameArgs;
use anyhow::{bail, Result};
use deckhand_bots::BotKind;
use deckhand_engine::{
    Choice, Chooser, Engine, Event, Game, Observer, Runner, ScriptLibrary, Seat, Stop,
};
use std::sync::Arc;

/// The seat kind that fills seats not given: the game's first script bot, else random.
pub fn default_fill(info: &deckhand_engine::RulesInfo) -> SeatSpec {
    match info.bots.first() {
        Some(b) => SeatSpec::Bot(BotKind::Script(b.clone())),
        None => SeatSpec::Bot(BotKind::Random),
    }
}

pub fn run(library: Arc<ScriptLibrary>, args: &GameArgs) -> Result<()> {
    let engine = Engine::new(library.clone())?;
    let mut args = args.clone();
    if args.seats.is_empty() {
        args.seats.push("human".into());
    }
    let (cfg, specs) = setup::game_config(&engine, &args, default_fill)?;
    let info = engine.rules_of(&cfg)?.info.clone();
    if specs.contains(&SeatSpec::Human) {
        return crate::repl::run(library, Some((cfg, specs)));
    }
    // Bots only: watch. The runner plays the game; an observer prints the
    // events.
    let seed = cfg.seed;
    let mut game = engine.new_game(cfg, true)?;
    let painter = Painter::new(&game, colour_enabled());
    outln!("{} with {} bots, seed {seed}", info.title, specs.len());
    let bots = seats::bots(&specs, seed)
        .into_iter()
        .map(|b| b.map(|b| Box::new(b) as Box<dyn Chooser>))
        .collect();
    let mut runner = Runner::new(bots).observe(ShowEvents(&painter));
    runner.started(&mut game)?;
    let r = match runner.play(&mut game)? {
        Stop::Over(r) => r,
        Stop::Waiting(seat) => bail!("seat {seat} has no bot"),
    };
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

/// Prints the events of a game that bots play, as an observer sees them.
struct ShowEvents<'a>(&'a Painter);

impl ShowEvents<'_> {
    fn show(&self, events: &[Event]) {
        for e in events {
            if let Some(t) = e.text() {
                outln!("  {}", self.0.paint_names(t));
            }
        }
    }
}

impl Observer for ShowEvents<'_> {
    fn game_start(&mut self, _: &Game, events: &[Event]) -> deckhand_engine::Result<()> {
        self.show(events);
        Ok(())
    }

    fn step(
        &mut self,
        _: &Game,
        _: Seat,
        _: &Choice,
        events: &[Event],
    ) -> deckhand_engine::Result<()> {
        self.show(events);
        Ok(())
    }
}
