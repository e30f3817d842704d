//! `reload`: reread the scripts from disk and replay the game under them
//! (`undo` right after takes it back: see `files`).

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::files::seat_of;
use crate::repl::registry::CommandInfo;
use crate::repl::session::plural;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;
use deckhand_engine::{CoreError, Engine, ReplayStop};

/// `reload` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "reload",
        aliases: &["r"],
        args: "",
        summary: "reread the scripts from disk and replay the game under them",
        help: "Reread every script from disk (edit a rule, then reload) and replay the
game's moves under the new rules. If a move is no longer legal, it says at
which step and why, and the game continues from the last legal step. If a
script is broken, the current game is kept as it was. Games started with
`new` afterwards use the reread scripts too. `undo` right after a reload
takes it back (the game as it was, under the scripts loaded before), and
`redo` then reloads again.
Example:
  reload",
    },
    parse,
    complete: no_completion,
};

/// `reload`, which takes no arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reload;

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    args::nothing(rest)?;
    Ok(Box::new(Reload))
}

impl Run for Reload {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.reload();
        Flow::Continue
    }
}

impl Session {
    fn reload(&mut self) {
        let engine = match Engine::new(self.library.clone()) {
            Ok(e) => e,
            Err(e) => {
                return self
                    .out
                    .error(format!("reload failed: {e}; nothing changed"))
            }
        };
        let Some(c) = &self.current else {
            self.engine = engine;
            self.words = self.game_words();
            return self.out.say("Reloaded the scripts (no game in progress).");
        };
        let mut config = c.game.config().clone();
        // The house-rule files too are read again: their new text replaces the one kept.
        if let Err(e) = config.read_house_rules(true) {
            return self.out.error(format!(
                "reload failed: {e}. The game goes on under the rules loaded before."
            ));
        }
        let actions = c.game.history().to_vec();
        let specs = c.seats.clone();
        match engine.replay(config, &actions) {
            Ok(game) => {
                let n = actions.len();
                self.out.say(format!(
                    "Reloaded the scripts: all {n} move{} replayed under the new rules.",
                    plural(n)
                ));
                self.reinstall(engine, game, specs, 0);
            }
            Err(stop) => match *stop {
                ReplayStop { game: None, error } => self.out.error(format!(
                    "reload failed: {error}. The game goes on under the rules loaded before."
                )),
                // The new rules raise an error while replaying the game:
                // they are broken, not stricter. The game stays as it was,
                // under the rules loaded before, and no bot moves.
                ReplayStop {
                    game: Some(_),
                    error: CoreError::ReplayFailed { step, error },
                } => {
                    let n = actions.len();
                    self.out.error(format!(
                        "reload failed: the new rules fail at step {step}{} of the game: {error}. \
                         The game goes on under the rules loaded before, as it was ({n} move{}); \
                         fix the rules and `reload` again.",
                        seat_of(&actions, step),
                        plural(n)
                    ))
                }
                ReplayStop {
                    game: Some(game),
                    error,
                } => {
                    let kept = game.history().len();
                    let msg = self.stop_message(&error, &actions, kept);
                    self.out.warn(format!("Reloaded the scripts, but {msg}"));
                    self.reinstall(engine, game, specs, actions.len().saturating_sub(kept));
                }
            },
        }
    }
}
