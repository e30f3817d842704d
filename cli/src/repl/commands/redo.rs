//! `redo`: play again what `undo` took back, up to the next person's
//! decision (or the reload `undo` took back).

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::plural;
use crate::repl::session::{Flow, Session};
use crate::repl::turns::moves_of;
use crate::repl::vocabulary::no_completion;

/// `redo` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "redo",
        aliases: &[],
        args: "[N]",
        summary: "play again what undo took back",
        help: "Play again the moves that `undo` took back, up to your next decision (N
times with `redo N`). Making a different move forgets what could be redone.
Examples:
  redo
  redo 2",
    },
    parse,
    complete: no_completion,
};

/// `redo N`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redo(pub usize);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Redo(args::count(rest)?)))
}

impl Run for Redo {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.redo(self.0);
        Flow::Continue
    }
}

impl Session {
    fn redo(&mut self, count: usize) {
        if self.redo_reload() {
            return;
        }
        let Some(c) = self.current.as_mut() else {
            return self.no_game();
        };
        if !c.game.can_redo() {
            return self.out.error("nothing to redo");
        }
        let mut done = 0;
        let mut steps = 0;
        // The seats of the people whose decisions were played again.
        let mut whose = Vec::new();
        'outer: while done < count && c.game.can_redo() {
            loop {
                if let Err(e) = c.game.redo() {
                    self.out.error(format!("redo failed: {e}"));
                    break 'outer;
                }
                steps += 1;
                if let Some(seat) = c.game.history().last().map(|r| r.seat) {
                    if c.is_human(seat) {
                        whose.push(seat);
                    }
                }
                let bot_next = c.game.pending().is_some_and(|(s, _)| !c.is_human(s));
                if !(bot_next && c.game.can_redo()) {
                    break;
                }
            }
            done += 1;
        }
        c.last_human = c.human_to_move();
        let what = if c.humans().len() > 1 {
            moves_of(true, &whose, "")
        } else if done == 1 {
            "your move".to_string()
        } else {
            format!("{done} of your moves")
        };
        self.out.say(format!(
            "Redid {what} ({steps} move{} in all, bots included).",
            plural(steps)
        ));
        self.advance();
    }
}
