//! `lua [CODE]`: evaluate Lua with `game` bound, or open the Lua prompt
//! (which `lua_prompt` runs).

use super::{Command, Run};
use crate::repl::args::Refused;
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::no_completion;

/// `lua` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "lua",
        aliases: &[],
        args: "[CODE]",
        summary: "evaluate Lua with `game` bound (bare `lua`: a Lua prompt)",
        help: "Evaluate a Lua expression or statement with `game` bound to the current game
and print the result. What it changes is not part of the game's log: use it
to look, not to play. A bare `lua` opens a Lua prompt; leave it with an empty
line or `.exit`.
Examples:
  lua game.seats
  lua game.vars
  lua #game:zone(\"hand\", 1)
  lua",
    },
    parse,
    complete: no_completion,
};

/// `lua CODE`, or a bare `lua` (`None`: open the Lua prompt).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Lua(pub Option<String>);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Lua((!rest.is_empty()).then(|| rest.to_string()))))
}

impl Run for Lua {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        match self.0 {
            Some(code) => session.lua(&code),
            None => {
                session.out.say(
                    "Lua prompt: `game` is the current game. An empty line or `.exit` goes back.",
                );
                return Flow::LuaPrompt;
            }
        }
        Flow::Continue
    }
}
