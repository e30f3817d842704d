//! `undo`: take back the last person's decision and the bot moves after it
//! (or, right after a `reload`, the reload).

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::plural;
use crate::repl::session::{Flow, Session};
use crate::repl::turns::moves_of;
use crate::repl::vocabulary::no_completion;

/// `undo` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "undo",
        aliases: &["u"],
        args: "[N]",
        summary: "take back your last move (and the bot moves after it)",
        help: "Go back to your previous decision: your last move is taken back, and so are
the bot moves made after it. `undo N` goes back N of your decisions.
Right after a `reload`, `undo` takes the reload back instead. In a hot-seat
game the last person's move is taken back, whoever made it: deckhand says
whose, and asks to pass the terminal before showing that person's hand.
Random bots may choose differently when they play again.
Examples:
  undo
  undo 3",
    },
    parse,
    complete: no_completion,
};

/// `undo N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undo(pub usize);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Undo(args::count(rest)?)))
}

impl Run for Undo {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.undo(self.0);
        Flow::Continue
    }
}

impl Session {
    fn undo(&mut self, count: usize) {
        if self.undo_reload() {
            return;
        }
        let Some(c) = self.current.as_mut() else {
            return self.no_game();
        };
        if c.humans().is_empty() {
            return self
                .out
                .error("undo goes back to a person's decision, and every seat is a bot");
        }
        let mut taken = 0;
        let mut steps = 0;
        // The seats whose decisions were taken back.
        let mut whose = Vec::new();
        'outer: while taken < count && c.game.history().iter().any(|r| c.is_human(r.seat)) {
            while let Some(last) = c.game.history().last().map(|r| r.seat) {
                if let Err(e) = c.game.undo() {
                    self.out.error(format!("undo failed: {e}"));
                    break 'outer;
                }
                steps += 1;
                if c.is_human(last) {
                    whose.push(last);
                    break;
                }
            }
            taken += 1;
        }
        if taken == 0 {
            return self.out.error("nothing to undo: no person has moved yet");
        }
        c.last_human = c.human_to_move();
        let what = moves_of(c.humans().len() > 1, &whose, "last ");
        self.out.say(format!(
            "Took back {what} ({steps} move{} in all, bots included).",
            plural(steps)
        ));
        // The next hand shown may be another person's: `announce` passes
        // the terminal on first.
        self.announce();
    }
}
