//! `moves`: the legal moves of the seat to play, numbered.

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::Current;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `moves` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "moves",
        aliases: &["m", "legal"],
        args: "",
        summary: "list the legal moves, numbered",
        help: "List the legal moves of the seat to play, numbered. Play one by typing its
number, its text or a card name (case does not matter, a unique prefix is
enough), or with `play`. A bot's moves are not listed while a person plays
(they would show its hand).
Example:
  moves",
    },
    parse,
    complete: no_completion,
};

/// `moves`, which takes no arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Moves;

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    args::nothing(rest)?;
    Ok(Box::new(Moves))
}

impl Run for Moves {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.list_moves();
        Flow::Continue
    }
}

impl Session {
    fn list_moves(&mut self) {
        match self.current.as_ref().map(Current::moves) {
            Some(Ok(text)) => self.out.say(text),
            Some(Err(e)) => self.out.error(e),
            None => self.no_game(),
        }
    }
}
