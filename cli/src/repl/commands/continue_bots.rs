//! `continue`: the bots play on after Ctrl-C stopped them.

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `continue` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "continue",
        aliases: &["go"],
        args: "",
        summary: "let the bots play on after Ctrl-C stopped them",
        help: "Ctrl-C while a bot thinks (a search bot with many playouts) stops it and
gives the prompt back, the game as it stood before that bot's move.
`continue` lets the bots play on from there; `undo` takes your move back
instead.
Example:
  continue",
    },
    parse,
    complete: no_completion,
};

/// `continue`, which takes no arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Continue;

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    args::nothing(rest)?;
    Ok(Box::new(Continue))
}

impl Run for Continue {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.continue_bots();
        Flow::Continue
    }
}

impl Session {
    /// `continue`: let the bots play on after Ctrl-C stopped them.
    fn continue_bots(&mut self) {
        let Some(c) = self.current.as_ref() else {
            return self.no_game();
        };
        match c.game.pending() {
            None => self.out.error("the game is over: type `new` to play again"),
            Some((seat, _)) if c.is_human(seat) => self.out.error(format!(
                "it is {}'s turn: play a move (type `moves` to list them)",
                c.label(seat)
            )),
            Some(_) => self.advance(),
        }
    }
}
