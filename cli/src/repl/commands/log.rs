//! `log`: every move made so far, numbered, with the seat that made it.

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `log` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "log",
        aliases: &["history"],
        args: "",
        summary: "list the moves made so far",
        help: "List every move made so far, numbered, with the seat that made it.
Example:
  log",
    },
    parse,
    complete: no_completion,
};

/// `log`, which takes no arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Log;

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    args::nothing(rest)?;
    Ok(Box::new(Log))
}

impl Run for Log {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.log();
        Flow::Continue
    }
}

impl Session {
    fn log(&mut self) {
        let Some(c) = &self.current else {
            return self.no_game();
        };
        let history = c.game.history();
        if history.is_empty() {
            return self.out.say("No moves yet.");
        }
        let lines: Vec<String> = history
            .iter()
            .enumerate()
            .map(|(i, rec)| {
                let text = if rec.action.is_null() {
                    format!("option {}", rec.index)
                } else {
                    let text = c
                        .game
                        .describe(&rec.action)
                        .unwrap_or_else(|_| rec.action.to_string());
                    c.shown_text(Some(rec.seat), &text, &rec.action)
                };
                format!(
                    "{:>4}. {}: {}",
                    i + 1,
                    c.label(rec.seat),
                    c.painter.paint_names(&text)
                )
            })
            .collect();
        self.out.say(lines.join("\n"));
    }
}
