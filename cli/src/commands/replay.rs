//! `deckhand replay`: replay a saved game to the end, showing every action
//! and every event as an observer sees them, or (`--step`) walk through it
//! at a prompt with the REPL's navigation (cli/src/repl/stepper.rs).

use crate::render::{colour_enabled, Painter};
use crate::repl::stepper::{Narrator, Stepper};
use anyhow::{Context, Result};
use clap::Args;
use deckhand_engine::{Engine, HouseRuleNote, Runner, SaveFile, ScriptLibrary};
use std::path::PathBuf;
use std::sync::Arc;

#[derive(Args, Debug)]
pub struct ReplayArgs {
    /// A file written by `save` at the REPL.
    pub file: PathBuf,
    /// Step through the game at a prompt: Enter for the next step, `back`, `go N`, `show SEAT`, `help`.
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
    if args.step {
        let config = save.config.clone();
        let stepper = Stepper::new(engine, config, save.actions, colour_enabled(), args.tables)
            .with_context(|| format!("starting {}", save.config.game))?;
        outln!(
            "{}: {} players, seed {}, variants [{}], {} actions",
            stepper.title(),
            save.config.players,
            save.config.seed,
            save.config.variants.join(", "),
            stepper.steps()
        );
        return crate::repl::step_through(stepper);
    }
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
    // The recorded actions are applied through the runner, whose observer
    // tells each one, its events and (with --tables) the table.
    let mut narrator = Narrator {
        painter: &painter,
        viewer: None,
        lines: Vec::new(),
        echo: true,
        tables: args.tables,
        title: &title,
    };
    let mut runner = Runner::new(Vec::new()).observe(&mut narrator);
    runner.started(&mut game)?;
    for (i, rec) in save.actions.iter().enumerate() {
        let index = game.match_action(rec).map_err(|reason| {
            anyhow::anyhow!("the log stops being legal at step {}: {reason}", i + 1)
        })?;
        runner.apply(&mut game, index)?;
    }
    drop(runner);
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
