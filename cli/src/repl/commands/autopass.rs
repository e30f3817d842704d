//! `autopass`: which reaction windows are passed without asking (the
//! settings themselves are `repl::autopass`).

use super::{Command, Run};
use crate::repl::args::Refused;
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `autopass` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "autopass",
        aliases: &["ap"],
        args: "[KIND... | all | turn | off]",
        summary: "pass reaction windows without being asked",
        help: "Some games ask every seat, at set moments (after a move, at each step of an
attack), whether it responds, for cards played at any time: a reaction
window, shown with its kind under the moves. `autopass` passes them for you:
  autopass KIND   always pass windows of this kind (several may be given)
  autopass all    always pass every window
  autopass turn   pass every window until your next turn
  autopass off    be asked again in every window
Without arguments it shows the settings. A move passed for you is shown
with (auto-pass). The settings last until the next `new` or `load`.
Examples:
  autopass attack
  autopass turn",
    },
    parse,
    complete: no_completion,
};

/// `autopass` with its words (none: show the settings).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Autopass(pub Vec<String>);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Autopass(
        rest.split_whitespace().map(str::to_string).collect(),
    )))
}

impl Run for Autopass {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.autopass(&self.0);
        Flow::Continue
    }
}

impl Session {
    /// Show or change the auto-pass settings; a window the person to
    /// move now auto-passes is passed at once.
    fn autopass(&mut self, words: &[String]) {
        let Some(c) = self.current.as_mut() else {
            return self.no_game();
        };
        let seats = match c.human_to_move() {
            Some(s) => vec![s],
            None => c.humans(),
        };
        let said = c.autopass.change(words, &seats);
        self.out.say(said);
        let now = c.human_to_move().is_some_and(|seat| {
            c.game
                .window()
                .ok()
                .flatten()
                .is_some_and(|kind| c.autopass.passes(seat, &kind))
        });
        if now {
            self.advance();
        }
    }
}
