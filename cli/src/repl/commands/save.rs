//! `save FILE`: the game (config, house rules' text, seats, moves) as JSON.

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::plural;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::{Completion, Typed, Vocabulary};
use crate::seats::SeatSpec;
use deckhand_engine::SaveFile;
use std::path::Path;

/// `save` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "save",
        aliases: &[],
        args: "FILE",
        summary: "save the game to a JSON file",
        help: "Save the game (definition, seats and every move) to a JSON file. Loading it
replays the moves, so the game continues identically. The save holds the
text of the game's house-rule files, so it plays the same after a rule
file changes and from any folder.
Example:
  save evening.json",
    },
    parse,
    complete,
};

/// `save FILE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Save(pub String);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Save(args::file_name(rest)?)))
}

/// File names.
fn complete(_: &Vocabulary, _: &Typed) -> Completion {
    None
}

impl Run for Save {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.save(&self.0);
        Flow::Continue
    }
}

impl Session {
    fn save(&mut self, path: &str) {
        let Some(c) = &self.current else {
            return self.no_game();
        };
        let names: Vec<String> = c.seats.iter().map(SeatSpec::name).collect();
        let result = SaveFile::of(&c.game, names)
            .map(|s| s.relative_to(Path::new(path)))
            .and_then(|s| s.write(Path::new(path)));
        match result {
            Ok(()) => {
                let n = c.game.history().len();
                self.out
                    .say(format!("Saved to {path} ({n} move{}).", plural(n)));
            }
            Err(e) => self.out.error(format!("cannot save to {path}: {e}")),
        }
    }
}
