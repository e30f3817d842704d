//! Turning a typed line into a [`ReplInput`]: a pure function, so every
//! rule of the REPL's syntax is unit-tested here.
//!
//! A line is a command (its first word is a command name or alias, see
//! [`registry`](super::registry)), a move number, or something else. Text
//! that is not a command comes back as [`ParseError::Unknown`], which carries
//! the whole text: the session then tries it as the text of a legal move
//! before reporting it (with the closest command name).

use super::registry::{self, CommandInfo};
use deckhand_bots::Budget;
use std::fmt;

/// What a line asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReplInput {
    /// A blank line.
    Empty,
    /// Play the legal move with this number (1-based).
    Choose(usize),
    /// Play the legal move whose text or card name is this.
    Play(String),
    /// Start a game.
    New(NewArgs),
    /// Show the table.
    Show,
    /// List the legal moves.
    Moves,
    /// Ask the search bot about the legal moves, with this many playouts.
    Hint(Budget),
    /// Change (or, empty, show) the auto-pass settings of reaction windows.
    AutoPass(Vec<String>),
    /// Go back this many of your decisions.
    Undo(usize),
    /// Play again what undo took back, this many times.
    Redo(usize),
    /// Let the bots play on (after Ctrl-C stopped them).
    Continue,
    /// List the moves made so far.
    Log,
    /// Save to a file.
    Save(String),
    /// Load from a file.
    Load(String),
    /// Reread the scripts and replay.
    Reload,
    /// List the games left unfinished by deckhands no longer running
    /// (`None`), or resume the one with this number.
    Resume(Option<usize>),
    /// Evaluate Lua (`None`: open the Lua prompt).
    Lua(Option<String>),
    /// List the games.
    Games,
    /// Show options (of the current game, or of the named one).
    Options(Option<String>),
    /// Show the rules of the current game, its options and variants.
    Rules,
    /// Show or change the seats.
    Seats(SeatsChange),
    /// Help (on one command).
    Help(Option<String>),
    /// Leave.
    Quit,
}

/// Playouts of `hint` when none are given.
pub const HINT_PLAYOUTS: u32 = 400;

/// The arguments of `new`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NewArgs {
    /// The game id; `None` to restart the current game.
    pub game: Option<String>,
    pub players: Option<u32>,
    /// Variants in order (names or house-rule files).
    pub variants: Vec<String>,
    pub seed: Option<u64>,
    /// Seat kinds, seat 1 first (empty: not given).
    pub seats: Vec<String>,
    /// Game options as typed, `(name, value)`.
    pub options: Vec<(String, String)>,
}

/// The arguments of `seats`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatsChange {
    /// Just show them.
    Show,
    /// Every seat in order (missing ones keep what they have).
    All(Vec<String>),
    /// Single seats: `(seat, kind)`.
    Some(Vec<(u32, String)>),
}

/// Why a line could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ParseError {
    /// The first word is no command. `text` is the whole line, which may
    /// still be the text of a legal move.
    Unknown {
        word: String,
        text: String,
        suggestion: Option<&'static str>,
    },
    /// A known command with arguments it cannot take.
    BadArgs {
        command: &'static CommandInfo,
        message: String,
    },
    /// A move number that cannot be one.
    BadNumber(String),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseError::Unknown {
                word, suggestion, ..
            } => {
                write!(f, "unknown command '{word}'")?;
                if let Some(s) = suggestion {
                    write!(f, " — did you mean '{s}'?")?;
                }
                write!(
                    f,
                    " (type `help` for the commands, `moves` for the legal moves)"
                )
            }
            ParseError::BadArgs { command, message } => {
                write!(
                    f,
                    "{}: {message} (usage: {})",
                    command.name,
                    command.usage()
                )
            }
            ParseError::BadNumber(n) => {
                write!(
                    f,
                    "'{n}' is not a move number: moves are numbered from 1 (type `moves`)"
                )
            }
        }
    }
}

impl std::error::Error for ParseError {}

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
    if let Some(number) = parse_number(word) {
        return if rest.is_empty() {
            number.map(ReplInput::Choose)
        } else {
            Err(unknown(word, line))
        };
    }
    let Some(cmd) = registry::lookup(word) else {
        return Err(unknown(word, line));
    };
    let bad = |message: String| ParseError::BadArgs {
        command: cmd,
        message,
    };
    let no_args = |input: ReplInput| {
        if rest.is_empty() {
            Ok(input)
        } else {
            Err(bad(format!("takes no arguments, got '{rest}'")))
        }
    };
    match cmd.name {
        "new" => parse_new(rest).map(ReplInput::New).map_err(bad),
        "show" => no_args(ReplInput::Show),
        "moves" => no_args(ReplInput::Moves),
        "autopass" => Ok(ReplInput::AutoPass(
            rest.split_whitespace().map(str::to_string).collect(),
        )),
        "hint" => {
            if rest.is_empty() {
                return Ok(ReplInput::Hint(Budget::Iterations(HINT_PLAYOUTS)));
            }
            Budget::parse(rest).map(ReplInput::Hint).map_err(bad)
        }
        "play" => {
            if rest.is_empty() {
                return Err(bad("which move? give its number or its text".into()));
            }
            match parse_number(rest) {
                Some(n) => n.map(ReplInput::Choose),
                None => Ok(ReplInput::Play(rest.to_string())),
            }
        }
        "undo" => count(rest).map(ReplInput::Undo).map_err(bad),
        "redo" => count(rest).map(ReplInput::Redo).map_err(bad),
        "continue" => no_args(ReplInput::Continue),
        "log" => no_args(ReplInput::Log),
        "save" | "load" => {
            let path = unquote(rest);
            if path.is_empty() {
                return Err(bad("which file?".into()));
            }
            Ok(if cmd.name == "save" {
                ReplInput::Save(path.to_string())
            } else {
                ReplInput::Load(path.to_string())
            })
        }
        "reload" => no_args(ReplInput::Reload),
        "resume" => match rest {
            "" => Ok(ReplInput::Resume(None)),
            n => match n.parse::<usize>() {
                Ok(n) if n > 0 => Ok(ReplInput::Resume(Some(n))),
                _ => Err(bad(format!(
                    "'{n}' is not the number of a game in the list (type `resume` to list them)"
                ))),
            },
        },
        "lua" => Ok(ReplInput::Lua((!rest.is_empty()).then(|| rest.to_string()))),
        "games" => no_args(ReplInput::Games),
        "options" => match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
            [] => Ok(ReplInput::Options(None)),
            [game] => Ok(ReplInput::Options(Some(game.to_string()))),
            _ => Err(bad("give at most one game id".into())),
        },
        "rules" => no_args(ReplInput::Rules),
        "seats" => parse_seats(rest).map(ReplInput::Seats).map_err(bad),
        "help" => match rest.split_whitespace().collect::<Vec<_>>().as_slice() {
            [] => Ok(ReplInput::Help(None)),
            [topic] => match registry::lookup(topic) {
                Some(c) => Ok(ReplInput::Help(Some(c.name.to_string()))),
                None => Err(bad(match registry::closest(topic) {
                    Some(s) => format!("no command '{topic}' — did you mean '{s}'?"),
                    None => format!("no command '{topic}'"),
                })),
            },
            _ => Err(bad("give one command name".into())),
        },
        "quit" => no_args(ReplInput::Quit),
        other => Err(bad(format!("'{other}' is not handled (this is a bug)"))),
    }
}

fn unknown(word: &str, line: &str) -> ParseError {
    ParseError::Unknown {
        word: word.to_string(),
        text: line.to_string(),
        suggestion: registry::closest(word),
    }
}

/// `Some(Ok(n))` for a move number, `Some(Err)` for a number that cannot be
/// one (0, negative, too large), `None` for anything that is not a number.
fn parse_number(word: &str) -> Option<Result<usize, ParseError>> {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(match word.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(ParseError::BadNumber(word.to_string())),
    })
}

fn count(rest: &str) -> Result<usize, String> {
    if rest.is_empty() {
        return Ok(1);
    }
    match rest.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{rest}' is not a positive count")),
    }
}

fn unquote(s: &str) -> &str {
    let s = s.trim();
    for q in ['"', '\''] {
        if let Some(inner) = s.strip_prefix(q).and_then(|r| r.strip_suffix(q)) {
            return inner;
        }
    }
    s
}

fn parse_new(rest: &str) -> Result<NewArgs, String> {
    let mut args = NewArgs::default();
    for (i, word) in rest.split_whitespace().enumerate() {
        let Some((key, value)) = word.split_once('=') else {
            if i == 0 {
                args.game = Some(word.to_string());
                continue;
            }
            return Err(format!(
                "'{word}' should be KEY=VALUE (the game id comes first)"
            ));
        };
        let (key, value) = (key.trim(), value.trim());
        if key.is_empty() || value.is_empty() {
            return Err(format!("'{word}' should be KEY=VALUE"));
        }
        match key.to_ascii_lowercase().as_str() {
            "players" | "p" => {
                let n = value
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n >= 1)
                    .ok_or_else(|| {
                        format!(
                            "players={value}: the number of players must be a whole number from 1"
                        )
                    })?;
                args.players = Some(n);
            }
            "seed" => {
                let s = value
                    .parse::<u64>()
                    .map_err(|_| format!("seed={value}: the seed must be a whole number from 0"))?;
                args.seed = Some(s);
            }
            "variant" | "variants" | "v" => {
                args.variants.extend(list(value)?);
            }
            "seats" => {
                args.seats = list(value)?;
            }
            _ => {
                if args.options.iter().any(|(k, _)| k == key) {
                    return Err(format!("option '{key}' is given twice"));
                }
                args.options.push((key.to_string(), value.to_string()));
            }
        }
    }
    Ok(args)
}

fn list(value: &str) -> Result<Vec<String>, String> {
    let items: Vec<String> = value.split(',').map(|s| s.trim().to_string()).collect();
    if items.iter().any(String::is_empty) {
        return Err(format!("'{value}' has an empty item"));
    }
    Ok(items)
}

fn parse_seats(rest: &str) -> Result<SeatsChange, String> {
    if rest.is_empty() {
        return Ok(SeatsChange::Show);
    }
    if rest.contains('=') {
        let mut changes = Vec::new();
        for word in rest.split_whitespace() {
            let (seat, kind) = word
                .split_once('=')
                .ok_or_else(|| format!("'{word}' should be SEAT=WHO"))?;
            let seat = seat
                .parse::<u32>()
                .ok()
                .filter(|s| *s >= 1)
                .ok_or_else(|| format!("'{seat}' is not a seat number"))?;
            if kind.is_empty() {
                return Err(format!("who sits at seat {seat}?"));
            }
            changes.push((seat, kind.to_string()));
        }
        return Ok(SeatsChange::Some(changes));
    }
    let joined: String = rest.split_whitespace().collect::<Vec<_>>().join(",");
    list(&joined.replace(",,", ",")).map(SeatsChange::All)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> ReplInput {
        parse(line).unwrap_or_else(|e| panic!("'{line}' did not parse: {e}"))
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
        assert_eq!(parse("autopass"), Ok(ReplInput::AutoPass(vec![])));
        assert_eq!(
            parse("ap attack turn"),
            Ok(ReplInput::AutoPass(vec!["attack".into(), "turn".into()]))
        );
    }

    #[test]
    fn numbers_choose_moves() {
        assert_eq!(ok("3"), ReplInput::Choose(3));
        assert_eq!(ok("  12 "), ReplInput::Choose(12));
        assert_eq!(ok("play 4"), ReplInput::Choose(4));
        assert_eq!(ok("P 4"), ReplInput::Choose(4));
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
        assert_eq!(ok("play Blue 7"), ReplInput::Play("Blue 7".into()));
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
        assert_eq!(ok("SHOW"), ReplInput::Show);
        assert_eq!(ok("exit"), ReplInput::Quit);
        assert_eq!(ok("q"), ReplInput::Quit);
        assert_eq!(ok("?"), ReplInput::Help(None));
        assert_eq!(ok("history"), ReplInput::Log);
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
        let a = match ok(
            "new sea_change players=4 seats=human,greedy,greedy,greedy target_vp=1 seed=7",
        ) {
            ReplInput::New(a) => a,
            other => panic!("{other:?}"),
        };
        assert_eq!(a.game.as_deref(), Some("sea_change"));
        assert_eq!(a.players, Some(4));
        assert_eq!(a.seed, Some(7));
        assert_eq!(a.seats, vec!["human", "greedy", "greedy", "greedy"]);
        assert_eq!(a.options, vec![("target_vp".to_string(), "1".to_string())]);
        let b = match ok("new g variant=team variant=x,y") {
            ReplInput::New(b) => b,
            other => panic!("{other:?}"),
        };
        assert_eq!(b.variants, vec!["team", "x", "y"]);
        assert_eq!(ok("new"), ReplInput::New(NewArgs::default()));
        match ok("new seed=3") {
            ReplInput::New(a) => assert_eq!((a.game, a.seed), (None, Some(3))),
            other => panic!("{other:?}"),
        }
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
        assert_eq!(ok("undo"), ReplInput::Undo(1));
        assert_eq!(ok("undo 3"), ReplInput::Undo(3));
        assert_eq!(ok("redo 2"), ReplInput::Redo(2));
        assert!(err("undo x").contains("positive count"));
        assert!(err("redo 0").contains("positive count"));
    }

    #[test]
    fn files_lua_options_help() {
        assert_eq!(
            ok("save /tmp/a b.json"),
            ReplInput::Save("/tmp/a b.json".into())
        );
        assert_eq!(ok("load \"x.json\""), ReplInput::Load("x.json".into()));
        assert!(err("save").contains("which file"));
        assert_eq!(
            ok("lua game.seats"),
            ReplInput::Lua(Some("game.seats".into()))
        );
        assert_eq!(ok("lua"), ReplInput::Lua(None));
        assert_eq!(ok("options"), ReplInput::Options(None));
        assert_eq!(ok("rules"), ReplInput::Rules);
        assert_eq!(ok("options g"), ReplInput::Options(Some("g".into())));
        assert_eq!(ok("help undo"), ReplInput::Help(Some("undo".into())));
        assert_eq!(ok("help exit"), ReplInput::Help(Some("quit".into())));
        assert!(err("help shwo").contains("did you mean 'show'"));
    }

    #[test]
    fn seats_lists_and_single_changes() {
        assert_eq!(ok("seats"), ReplInput::Seats(SeatsChange::Show));
        assert_eq!(
            ok("seats human,greedy, random"),
            ReplInput::Seats(SeatsChange::All(vec![
                "human".into(),
                "greedy".into(),
                "random".into()
            ]))
        );
        assert_eq!(
            ok("seats 2=human 3=random"),
            ReplInput::Seats(SeatsChange::Some(vec![
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
