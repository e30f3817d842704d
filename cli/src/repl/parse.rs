//! Turning a typed line into a [`ReplInput`]: a pure function, so every
//! rule of the REPL's syntax is unit-tested here.
//!
//! A line is a command (its first word is a command name or alias, see
//! [`commands`](super::commands), which reads the rest), a move number
//! (`play N`), or something else. Text that is not a command comes back as
//! [`ParseError::Unknown`], which carries the whole text: the session then
//! tries it as the text of a legal move before reporting it (with the
//! closest command name).

use super::args::{self, ParseError, Refused};
use super::commands::play::Play;
use super::commands::{self, Run};

/// What a line asks for.
#[derive(Debug, PartialEq)]
pub enum ReplInput {
    /// A blank line.
    Empty,
    /// A command with its arguments read, ready to run.
    Command(Box<dyn Run>),
}

impl ReplInput {
    /// What was read, when it is command `T`'s arguments (tests look
    /// inside).
    #[cfg(test)]
    pub fn args<T: Run>(&self) -> Option<&T> {
        match self {
            ReplInput::Command(c) => (&**c as &dyn std::any::Any).downcast_ref(),
            ReplInput::Empty => None,
        }
    }
}

/// Read one line typed at the REPL.
pub fn parse(line: &str) -> Result<ReplInput, ParseError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(ReplInput::Empty);
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    if let Some(number) = args::move_number(word) {
        return if rest.is_empty() {
            number.map(|n| ReplInput::Command(Box::new(Play::Number(n))))
        } else {
            Err(unknown(word, line))
        };
    }
    let Some(cmd) = commands::lookup(word) else {
        return Err(unknown(word, line));
    };
    match (cmd.parse)(rest) {
        Ok(run) => Ok(ReplInput::Command(run)),
        Err(Refused::Args(message)) => Err(ParseError::BadArgs {
            command: &cmd.info,
            message,
        }),
        Err(Refused::Line(e)) => Err(e),
    }
}

fn unknown(word: &str, line: &str) -> ParseError {
    ParseError::Unknown {
        word: word.to_string(),
        text: line.to_string(),
        suggestion: commands::closest(word),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::repl::commands::{
        autopass::Autopass, help::Help, load::Load, log::Log, lua::Lua, new::NewArgs,
        options::Options, quit::Quit, redo::Redo, rules::Rules, save::Save, seats::SeatsChange,
        show::Show, undo::Undo,
    };

    /// The input of command `run` as the parser would give it.
    fn input(run: impl Run) -> ReplInput {
        ReplInput::Command(Box::new(run))
    }

    fn ok(line: &str) -> ReplInput {
        parse(line).unwrap_or_else(|e| panic!("'{line}' did not parse: {e}"))
    }

    fn new_args(line: &str) -> NewArgs {
        match ok(line).args::<NewArgs>() {
            Some(a) => a.clone(),
            None => panic!("'{line}' is not `new`"),
        }
    }

    fn err(line: &str) -> String {
        match parse(line) {
            Ok(v) => panic!("'{line}' parsed as {v:?}"),
            Err(e) => e.to_string(),
        }
    }

    #[test]
    fn blank_lines_are_empty() {
        assert_eq!(ok(""), ReplInput::Empty);
        assert_eq!(ok("   \t "), ReplInput::Empty);
    }

    #[test]
    fn autopass_takes_its_words() {
        assert_eq!(parse("autopass"), Ok(input(Autopass(vec![]))));
        assert_eq!(
            parse("ap attack turn"),
            Ok(input(Autopass(vec!["attack".into(), "turn".into()])))
        );
    }

    #[test]
    fn numbers_choose_moves() {
        assert_eq!(ok("3"), input(Play::Number(3)));
        assert_eq!(ok("  12 "), input(Play::Number(12)));
        assert_eq!(ok("play 4"), input(Play::Number(4)));
        assert_eq!(ok("P 4"), input(Play::Number(4)));
    }

    #[test]
    fn impossible_numbers_are_errors() {
        assert!(err("0").contains("numbered from 1"));
        assert!(err("-2").contains("not a move number"));
        assert!(err("99999999999999999999999").contains("not a move number"));
        assert!(err("play 0").contains("numbered from 1"));
    }

    #[test]
    fn play_takes_text() {
        assert_eq!(ok("play Blue 7"), input(Play::Text("Blue 7".into())));
        assert!(err("play").contains("which move"));
    }

    #[test]
    fn unknown_commands_suggest_the_closest_name_and_keep_the_text() {
        match parse("shwo") {
            Err(ParseError::Unknown {
                word,
                text,
                suggestion,
            }) => {
                assert_eq!(word, "shwo");
                assert_eq!(text, "shwo");
                assert_eq!(suggestion, Some("show"));
            }
            other => panic!("{other:?}"),
        }
        assert!(err("shwo").contains("did you mean 'show'?"));
        match parse("blue 7") {
            Err(ParseError::Unknown { text, .. }) => assert_eq!(text, "blue 7"),
            other => panic!("{other:?}"),
        }
        let msg = err("xyzzy");
        assert!(msg.contains("unknown command 'xyzzy'") && !msg.contains("did you mean"));
    }

    #[test]
    fn commands_are_case_insensitive_and_have_aliases() {
        assert_eq!(ok("SHOW"), input(Show));
        assert_eq!(ok("exit"), input(Quit));
        assert_eq!(ok("q"), input(Quit));
        assert_eq!(ok("?"), input(Help(None)));
        assert_eq!(ok("history"), input(Log));
    }

    #[test]
    fn commands_without_arguments_refuse_them() {
        let msg = err("show me");
        assert!(
            msg.contains("takes no arguments") && msg.contains("usage: show"),
            "{msg}"
        );
        assert!(err("reload now").contains("takes no arguments"));
    }

    #[test]
    fn new_reads_key_values() {
        let a = new_args(
            "new sea_change players=4 seats=human,greedy,greedy,greedy target_vp=1 seed=7",
        );
        assert_eq!(a.game.as_deref(), Some("sea_change"));
        assert_eq!(a.players, Some(4));
        assert_eq!(a.seed, Some(7));
        assert_eq!(a.seats, vec!["human", "greedy", "greedy", "greedy"]);
        assert_eq!(a.options, vec![("target_vp".to_string(), "1".to_string())]);
        let b = new_args("new g variant=team variant=x,y");
        assert_eq!(b.variants, vec!["team", "x", "y"]);
        assert_eq!(ok("new"), input(NewArgs::default()));
        let c = new_args("new seed=3");
        assert_eq!((c.game, c.seed), (None, Some(3)));
    }

    #[test]
    fn new_rejects_bad_arguments() {
        assert!(err("new g players=lots").contains("players=lots"));
        assert!(err("new g players=0").contains("number of players"));
        assert!(err("new g seed=-1").contains("seed"));
        assert!(err("new g extra").contains("KEY=VALUE"));
        assert!(err("new g seats=human,,greedy").contains("empty item"));
        assert!(err("new g a=1 a=2").contains("twice"));
        assert!(err("new g =3").contains("KEY=VALUE"));
        assert!(err("new g players=lots").contains("usage: new"));
    }

    #[test]
    fn undo_and_redo_take_counts() {
        assert_eq!(ok("undo"), input(Undo(1)));
        assert_eq!(ok("undo 3"), input(Undo(3)));
        assert_eq!(ok("redo 2"), input(Redo(2)));
        assert!(err("undo x").contains("positive count"));
        assert!(err("redo 0").contains("positive count"));
    }

    #[test]
    fn files_lua_options_help() {
        assert_eq!(
            ok("save /tmp/a b.json"),
            input(Save("/tmp/a b.json".into()))
        );
        assert_eq!(ok("load \"x.json\""), input(Load("x.json".into())));
        assert!(err("save").contains("which file"));
        assert_eq!(ok("lua game.seats"), input(Lua(Some("game.seats".into()))));
        assert_eq!(ok("lua"), input(Lua(None)));
        assert_eq!(ok("options"), input(Options(None)));
        assert_eq!(ok("rules"), input(Rules));
        assert_eq!(ok("options g"), input(Options(Some("g".into()))));
        assert_eq!(ok("help undo"), input(Help(Some("undo".into()))));
        assert_eq!(ok("help exit"), input(Help(Some("quit".into()))));
        assert!(err("help shwo").contains("did you mean 'show'"));
    }

    #[test]
    fn seats_lists_and_single_changes() {
        assert_eq!(ok("seats"), input(SeatsChange::Show));
        assert_eq!(
            ok("seats human,greedy, random"),
            input(SeatsChange::All(vec![
                "human".into(),
                "greedy".into(),
                "random".into()
            ]))
        );
        assert_eq!(
            ok("seats 2=human 3=random"),
            input(SeatsChange::Some(vec![
                (2, "human".into()),
                (3, "random".into())
            ]))
        );
        assert!(err("seats x=human").contains("not a seat number"));
        assert!(err("seats 0=human").contains("not a seat number"));
        assert!(err("seats 2=").contains("who sits"));
    }

    #[test]
    fn numbers_followed_by_text_are_not_moves() {
        assert!(matches!(parse("3 blue"), Err(ParseError::Unknown { .. })));
    }
}
