//! `deckhand replay`: replay a saved game, step by step or to the end,
//! showing every action and every event as an observer sees them.

use crate::render::{colour_enabled, Painter};
use anyhow::{Context, Result};
use clap::Args;
use deckhand_core::{Engine, ScriptLibrary};
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
    let save = crate::files::read_save(&args.file)?;
    crate::files::check_rule_files(&save.config.variants)?;
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
    let show_events = |game: &mut deckhand_core::Game| {
        for e in game.take_events() {
            if let Some(t) = e.text() {
                outln!("    {}", painter.paint_names(t));
            }
        }
    };
    show_events(&mut game);
    for (i, rec) in save.actions.iter().enumerate() {
        let index = game.match_action(rec).map_err(|reason| {
            anyhow::anyhow!("the log stops being legal at step {}: {reason}", i + 1)
        })?;
        let text = game
            .decision()?
            .and_then(|d| d.options.get(index - 1).map(|o| o.text.clone()))
            .unwrap_or_default();
        outln!(
            "{:>4}. seat {}: {}",
            i + 1,
            rec.seat,
            painter.paint_names(&text)
        );
        game.apply(index)?;
        show_events(&mut game);
        if args.tables {
            outln!("{}", painter.table(&game.view(None)?, &title, &[]));
        }
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
