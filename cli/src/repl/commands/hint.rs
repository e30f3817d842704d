//! `hint`: the search bot's view of each legal move, with its interval
//! and the line it expects (the table is drawn by `hint_view`).

use super::{Command, Run};
use crate::repl::args::Refused;
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;
use deckhand_bots::Budget;
use deckhand_engine::CoreError;

/// `hint` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "hint",
        aliases: &[],
        args: "[PLAYOUTS | TIME]",
        summary: "ask the search bot how each legal move does",
        help: "Run the `ismcts` search for the seat to play, from what that seat has seen
(the cards it cannot see are dealt at random in each playout), as two
independent searches side by side on two cores, and list the legal moves
with how each did: the share of playouts won, or the rules' estimate at the
end of the round, with a 95% interval (normal approximation), and the moves
the search expects next (with the share of playouts that went that way).
The best is marked. Nothing is played. PLAYOUTS (default 400, up to 100000)
trades time for accuracy, and gives the same hint every time; a TIME (1s,
200ms) searches for that long instead, so its hint varies. Ctrl-C stops a
long one and gives the prompt back.
Examples:
  hint
  hint 2000
  hint 1s",
    },
    parse,
    complete: no_completion,
};

/// Playouts of `hint` when none are given.
pub const HINT_PLAYOUTS: u32 = 400;

/// `hint` with its budget of playouts or time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hint(pub Budget);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    if rest.is_empty() {
        return Ok(Box::new(Hint(Budget::Iterations(HINT_PLAYOUTS))));
    }
    Ok(Box::new(Hint(Budget::parse(rest)?)))
}

impl Run for Hint {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.hint(self.0);
        Flow::Continue
    }
}

impl Session {
    /// `hint`: the search's view of each legal move, best first.
    fn hint(&mut self, budget: Budget) {
        let Some(c) = self.current.as_ref() else {
            return self.no_game();
        };
        if let Some((seat, _)) = c.game.pending() {
            if !c.is_human(seat) && !c.humans().is_empty() {
                let msg = c.not_yours(seat);
                return self.out.error(msg);
            }
        }
        let decision = match c.game.decision() {
            Ok(Some(d)) => d,
            Ok(None) => return self.out.error("the game is over: type `new` to play again"),
            Err(e) => return self.out.error(format!("cannot list the moves: {e}")),
        };
        if decision.options.len() == 1 {
            return self.out.say("Only one legal move: nothing to weigh.");
        }
        // Run compiled in a child process when it can (crate::offload).
        let found = crate::offload::hint(&c.game, budget, Some(&self.cancel))
            .unwrap_or_else(|| deckhand_bots::hint::hint(&c.game, budget, Some(&self.cancel)));
        let hint = match found {
            Ok(h) => h,
            Err(CoreError::Cancelled) => {
                return self
                    .out
                    .error("hint interrupted (Ctrl-C): nothing was played, the game is as it was")
            }
            Err(e) => return self.out.error(format!("the search failed: {e}")),
        };
        let lines = crate::repl::hint_view::hint_lines(&hint, budget, &c.painter);
        self.out.say(lines.join("\n"));
    }
}
