//! `show`: the table from the seat of the person looking.

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `show` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "show",
        aliases: &["table", "look"],
        args: "",
        summary: "show the table from your seat",
        help: "Show the table as your seat sees it: your hand, the public zones, how many
cards the hidden zones hold, and the game's status lines. In a hot-seat game
it shows the table of the seat whose turn it is.
Example:
  show",
    },
    parse,
    complete: no_completion,
};

/// `show`, which takes no arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Show;

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    args::nothing(rest)?;
    Ok(Box::new(Show))
}

impl Run for Show {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.show();
        Flow::Continue
    }
}

impl Session {
    fn show(&mut self) {
        match &self.current {
            Some(c) => self.out.say(c.table()),
            None => self.no_game(),
        }
    }
}
