//! `help [COMMAND]`: the list of commands, or one command's usage, aliases
//! and long help with examples (all from [`COMMANDS`](super::COMMANDS)).

use super::{Command, Run};
use crate::repl::args::Refused;
use crate::repl::registry::{self, CommandInfo};
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::{matching, Completion, Typed, Vocabulary};

/// `help` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "help",
        aliases: &["?", "h"],
        args: "[COMMAND]",
        summary: "list the commands, or explain one",
        help: "List the commands, or show the long help of one.
Examples:
  help
  help new",
    },
    parse,
    complete,
};

/// `help` (`None`: the list) or `help COMMAND` (its name, aliases read).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Help(pub Option<String>);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Help(
        match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
            [] => None,
            [topic] => match super::lookup(topic) {
                Some(c) => Some(c.info.name.to_string()),
                None => {
                    return Err(Refused::Args(match super::closest(topic) {
                        Some(s) => format!("no command '{topic}' — did you mean '{s}'?"),
                        None => format!("no command '{topic}'"),
                    }))
                }
            },
            _ => return Err(Refused::Args("give one command name".into())),
        },
    )))
}

/// The command names.
fn complete(_: &Vocabulary, typed: &Typed) -> Completion {
    Some((
        typed.word_start,
        matching(
            super::COMMANDS.iter().map(|c| c.info.name.to_string()),
            typed.word(),
        ),
    ))
}

impl Run for Help {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        match self.0 {
            None => session.out.say(overview()),
            Some(name) => match super::lookup(&name) {
                Some(c) => session.out.say(registry::detail(&c.info)),
                None => session.out.error(format!("no command '{name}'")),
            },
        }
        Flow::Continue
    }
}

/// The text of `help`: every command with its synopsis and summary.
pub fn overview() -> String {
    let mut lines = vec![registry::list_of(super::COMMANDS.iter().map(|c| &c.info))];
    lines.push(String::new());
    lines.push("To play, type a move's number or its text (a card name, a unique prefix);".into());
    lines.push(
        "bots move for the other seats. Tab completes commands, games, options and moves.".into(),
    );
    lines.join("\n")
}
