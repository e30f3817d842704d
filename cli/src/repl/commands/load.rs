//! `load FILE`: a saved game replayed and continued (loading is `files`'s,
//! shared with `resume`).

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::{Completion, Typed, Vocabulary};
use std::path::Path;

/// `load` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "load",
        aliases: &[],
        args: "FILE",
        summary: "load a saved game",
        help: "Load a game saved with `save` (or by `deckhand play`), with its seats, and
continue it. If the file cannot be read the current game is kept. The game
goes on with the house rules saved in it; if a rule file on disk differs,
a warning names it (`reload` plays the game under the file).
Example:
  load evening.json",
    },
    parse,
    complete,
};

/// `load FILE`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Load(pub String);

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    Ok(Box::new(Load(args::file_name(rest)?)))
}

/// File names.
fn complete(_: &Vocabulary, _: &Typed) -> Completion {
    None
}

impl Run for Load {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        session.load(&self.0);
        Flow::Continue
    }
}

impl Session {
    fn load(&mut self, path: &str) {
        self.load_named(Path::new(path), path);
    }
}
