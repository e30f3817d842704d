//! `resume [N]`: the games left unfinished by deckhands no longer running.
//! The loop holds the autosaves, so the command hands it the number
//! ([`Flow::Resume`]).

use super::{Command, Run};
use crate::repl::args::Refused;
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `resume` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "resume",
        aliases: &[],
        args: "[N]",
        summary: "list the games left unfinished, or resume one",
        help: "Every deckhand at a terminal autosaves its game after each move. A game
left unfinished by a deckhand that no longer runs (its terminal closed, the
process killed) is offered when deckhand starts; `resume` lists those games,
newest first, and `resume N` continues game N, as `load` would (the game in
progress is replaced). Games of deckhands still running are not listed.
Examples:
  resume
  resume 2",
    },
    parse,
    complete: no_completion,
};

/// `resume` (`None`: list the games) or `resume N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resume(pub Option<usize>);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Resume(match rest {
        "" => None,
        n => match n.parse::<usize>() {
            Ok(n) if n > 0 => Some(n),
            _ => {
                return Err(Refused::Args(format!(
                    "'{n}' is not the number of a game in the list (type `resume` to list them)"
                )))
            }
        },
    })))
}

impl Run for Resume {
    fn run(self: Box<Self>, _: &mut Session) -> Flow {
        Flow::Resume(self.0)
    }
}
