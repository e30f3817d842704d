//! `quit`: leave deckhand (the loop removes the autosave).

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `quit` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "quit",
        aliases: &["exit", "q"],
        args: "",
        summary: "leave deckhand (Ctrl-D does the same)",
        help: "Leave deckhand. The game is not saved: use `save FILE` first to keep it.
Example:
  quit",
    },
    parse,
    complete: no_completion,
};

/// `quit`, which takes no arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Quit;

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    args::nothing(rest)?;
    Ok(Box::new(Quit))
}

impl Run for Quit {
    fn run(self: Box<Self>, _: &mut Session) -> Flow {
        Flow::Quit
    }
}
