//! `deckhand replay`: replay a saved game, step by step or to the end,
//! showing every action and every event as an observer sees them.

use crate::render::{colour_enabled, Painter};
use anyhow::{Context, Result};
use clap::Args;
use deckhand_core::{
    Choice, Engine, Event, Game, HouseRuleNote, Observer, Runner, SaveFile, ScriptLibrary, Seat,
};
use std::io::BufRead;
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A file written by `save` at the REPL.
    pub file: PathBuf,
    /// Pause after every step (Enter: next, q: stop).
    #[arg(long)]
    pub step: bool,
    /// Show the table after every step.
    #[arg(long)]
    pub tables: bool,
}

pub fn run(library: Arc<ScriptLibrary>, args: &ReplayArgs) -> Result<()> {
    let mut save = SaveFile::read(&args.file)?;
    for note in save.resolve_house_rules(&args.file)? {
        match note {
            HouseRuleNote::Read { file } => outln!(
                "Read the house rule {file} from disk: {} holds no copy of it.",
                args.file.display()
            ),
            HouseRuleNote::Differs { file } => eprintln!(
                "warning: {file} differs from the copy of it saved in {}; replaying the saved copy \
                 (to play on under the file on disk: `load` the save at the REPL, then `reload`).",
                args.file.display()
            ),
        }
    }
    let engine = Engine::new(library)?;
    let mut game = engine
        .new_game(save.config.clone(), true)
        .with_context(|| format!("starting {}", save.config.game))?;
    let painter = Painter::new(&game, colour_enabled());
    let title = game.rules_info().title.clone();
    outln!(
        "{title}: {} players, seed {}, variants [{}], {} actions",
        save.config.players,
        save.config.seed,
        save.config.variants.join(", "),
        save.actions.len()
    );
    let stdin = std::io::stdin();
    let mut lines = stdin.lock().lines();
    // The recorded actions are applied through the runner, whose observer
    // shows each one, its events and (with --tables) the table.
    let mut show = Show {
        painter: &painter,
        title: &title,
        tables: args.tables,
    };
    let mut runner = Runner::new(Vec::new()).observe(&mut show);
    runner.started(&mut game)?;
    for (i, rec) in save.actions.iter().enumerate() {
        let index = game.match_action(rec).map_err(|reason| {
            anyhow::anyhow!("the log stops being legal at step {}: {reason}", i + 1)
        })?;
        runner.apply(&mut game, index)?;
        if args.step {
            match lines.next() {
                Some(Ok(l)) if l.trim() == "q" => break,
                Some(Ok(_)) => {}
                _ => break,
            }
        }
    }
    outln!("{}", painter.table(&game.view(None)?, &title, &[]));
    if game.is_over() {
        let r = game.result()?;
        outln!("scores: {:?}, winners: {:?}", r.scores, r.winners);
    } else {
        outln!(
            "(the game goes on: load it in the REPL with `load {}`)",
            args.file.display()
        );
    }
    Ok(())
}

/// Shows a replayed game as an observer sees it: each action, its events
/// and, when asked, the table after it.
struct Show<'a> {
    painter: &'a Painter,
    title: &'a str,
    tables: bool,
}

impl Show<'_> {
    fn events(&self, events: &[Event]) {
        for e in events {
            if let Some(t) = e.text() {
                outln!("    {}", self.painter.paint_names(t));
            }
        }
    }
}

impl Observer for Show<'_> {
    fn game_start(&mut self, _: &Game, events: &[Event]) -> deckhand_core::Result<()> {
        self.events(events);
        Ok(())
    }

    fn decision(&mut self, game: &Game, seat: Seat, choice: &Choice) -> deckhand_core::Result<()> {
        let (_, text) = game.choice_text(choice)?;
        outln!(
            "{:>4}. seat {seat}: {}",
            game.history().len() + 1,
            self.painter.paint_names(&text)
        );
        Ok(())
    }

    fn step(
        &mut self,
        game: &Game,
        _: Seat,
        _: &Choice,
        events: &[Event],
    ) -> deckhand_core::Result<()> {
        self.events(events);
        if self.tables {
            outln!("{}", self.painter.table(&game.view(None)?, self.title, &[]));
        }
        Ok(())
    }
}
