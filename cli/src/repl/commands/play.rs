//! `play`: a legal move by its number, its text or a card's name. A number
//! or a move's text typed alone plays too (see `parse` and `dispatch`);
//! the moves themselves are played by `turns`.

use super::{Command, Run};
use crate::repl::args::{self, Refused};
use crate::repl::registry::CommandInfo;
use crate::repl::session::{Flow, Session};
use crate::repl::vocabulary::{matching, Completion, Typed, Vocabulary};

/// `play` as users see it, how it reads and completes its arguments.
pub const COMMAND: Command = Command {
    info: CommandInfo {
        name: "play",
        aliases: &["p"],
        args: "N | TEXT",
        summary: "play move N, or the move whose text or card name is TEXT",
        help: "Play a legal move: its number in `moves`, its text, or the name of the card it
plays. Case does not matter and a unique prefix is enough, but numbers are
matched whole (`blue 1` is not Blue 12). Typing the number or the text
alone, without `play`, does the same. Naming a card that is not one of your
moves says why it is not (the game's reason, or your moves). Bots then move
for their seats until it is a person's turn again.
Examples:
  play 3
  play blue 7
  3
  blue 7",
    },
    parse,
    complete,
};

/// The move `play` names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Play {
    /// The legal move with this number (1-based).
    Number(usize),
    /// The legal move whose text or card name is this.
    Text(String),
}

fn parse(rest: &str) -> Result<Box<dyn Run>, Refused> {
    if rest.is_empty() {
        return Err(Refused::Args(
            "which move? give its number or its text".into(),
        ));
    }
    Ok(Box::new(match args::move_number(rest) {
        Some(n) => Play::Number(n?),
        None => Play::Text(rest.to_string()),
    }))
}

/// The names of the legal moves, for the whole text after `play` (a name
/// may have spaces).
fn complete(v: &Vocabulary, typed: &Typed) -> Completion {
    Some((
        typed.args_start,
        matching(v.moves.iter().cloned(), typed.args()),
    ))
}

impl Run for Play {
    fn run(self: Box<Self>, session: &mut Session) -> Flow {
        match *self {
            Play::Number(n) => session.play_index(n),
            Play::Text(text) => session.play_text(&text, None),
        }
        Flow::Continue
    }
}
