//! The REPL's commands, one file each: a command's name, aliases, help and
//! examples ([`CommandInfo`]), how it reads its arguments, and what it
//! does when it runs, on the session's machinery (the game and its seats in
//! `session`, moves and bots in `turns`, files in `files`).
//!
//! A new command is a file here with its `COMMAND` and one line in
//! [`COMMANDS`]: `help`, `help CMD`, the "did you mean" suggestions, the
//! parser and tab completion (of the command's name, and of its arguments
//! by its own `complete`) all come from that list.

pub(super) mod autopass;
pub(super) mod continue_bots;
pub(super) mod games;
pub(super) mod help;
pub(super) mod hint;
pub(super) mod load;
pub(super) mod log;
pub(super) mod lua;
pub(super) mod moves;
pub(super) mod new;
pub(super) mod options;
pub(super) mod play;
pub(super) mod quit;
pub(super) mod redo;
pub(super) mod reload;
pub(super) mod resume;
pub(super) mod rules;
pub(super) mod save;
pub(super) mod seats;
pub(super) mod show;
pub(super) mod undo;

use super::args::Refused;
use super::registry::{self, CommandInfo};
use super::session::{Flow, Session};
use super::vocabulary::{Completion, Typed, Vocabulary};
use std::any::Any;
use std::fmt;

/// Every command of the REPL, in the order `help` lists them.
pub const COMMANDS: &[Command] = &[
    new::COMMAND,
    show::COMMAND,
    moves::COMMAND,
    hint::COMMAND,
    autopass::COMMAND,
    play::COMMAND,
    undo::COMMAND,
    redo::COMMAND,
    continue_bots::COMMAND,
    log::COMMAND,
    save::COMMAND,
    load::COMMAND,
    resume::COMMAND,
    reload::COMMAND,
    lua::COMMAND,
    games::COMMAND,
    options::COMMAND,
    rules::COMMAND,
    seats::COMMAND,
    help::COMMAND,
    quit::COMMAND,
];

/// One command of the REPL: how users see it, and how it reads its
/// arguments into something that runs.
#[derive(Debug, Clone, Copy)]
pub struct Command {
    pub info: CommandInfo,
    /// Read the text after the command's name (trimmed; empty when there
    /// is none).
    pub parse: fn(rest: &str) -> Result<Box<dyn Run>, Refused>,
    /// What tab completion offers for its arguments.
    pub complete: fn(&Vocabulary, &Typed) -> Completion,
}

/// A command with its arguments read: what it does to the session.
pub trait Run: fmt::Debug + Same {
    /// Run it; what the prompt does next.
    fn run(self: Box<Self>, session: &mut Session) -> Flow;
}

/// Comparing read commands (the parser's tests): the same command with
/// the same arguments.
pub trait Same: Any {
    fn same(&self, other: &dyn Any) -> bool;
}

impl<T: PartialEq + Any> Same for T {
    fn same(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>() == Some(self)
    }
}

impl PartialEq for dyn Run {
    fn eq(&self, other: &dyn Run) -> bool {
        self.same(other as &dyn Any)
    }
}

/// The command a word names (name or alias, case-insensitive).
pub fn lookup(word: &str) -> Option<&'static Command> {
    COMMANDS.iter().find(|c| c.info.answers_to(word))
}

/// The command name closest to a mistyped word, if any is close enough.
pub fn closest(word: &str) -> Option<&'static str> {
    registry::closest_in(COMMANDS.iter().map(|c| &c.info), word)
}

/// Every name and alias.
#[cfg(test)]
pub fn all_names() -> impl Iterator<Item = &'static str> {
    COMMANDS
        .iter()
        .flat_map(|c| std::iter::once(c.info.name).chain(c.info.aliases.iter().copied()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_aliases_are_unique() {
        let mut all: Vec<&str> = all_names().collect();
        let n = all.len();
        all.sort();
        all.dedup();
        assert_eq!(all.len(), n, "a name or alias is used twice");
    }

    #[test]
    fn every_command_has_help_with_an_example() {
        for c in COMMANDS {
            assert!(!c.info.summary.is_empty(), "{}", c.info.name);
            assert!(
                !c.info.examples().is_empty(),
                "{} has no example",
                c.info.name
            );
        }
    }

    #[test]
    fn lookup_finds_names_and_aliases_in_any_case() {
        assert_eq!(lookup("SHOW").map(|c| c.info.name), Some("show"));
        assert_eq!(lookup("exit").map(|c| c.info.name), Some("quit"));
        assert!(lookup("frobnicate").is_none());
    }

    #[test]
    fn closest_suggests_plausible_names() {
        assert_eq!(closest("shwo"), Some("show"));
        assert_eq!(closest("hlep"), Some("help"));
        assert_eq!(closest("relaod"), Some("reload"));
        assert_eq!(closest("mov"), Some("moves"));
        assert_eq!(closest("xyzzy"), None);
    }

    #[test]
    fn overview_lists_every_command() {
        let text = help::overview();
        for c in COMMANDS {
            assert!(text.contains(c.info.name));
        }
    }
}
