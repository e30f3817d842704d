//! Reading what follows a command's name: the readers several commands
//! share (a move number, a count, a file name, a comma-separated list),
//! and why a line could not be read ([`ParseError`]), which the prompt
//! prints in one line.

use super::registry::CommandInfo;
use std::fmt;

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

/// Why a command refused what follows its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refused {
    /// Said after the command's name, with its usage
    /// ([`ParseError::BadArgs`]).
    Args(String),
    /// Said as it is.
    Line(ParseError),
}

impl From<String> for Refused {
    fn from(message: String) -> Refused {
        Refused::Args(message)
    }
}

impl From<ParseError> for Refused {
    fn from(e: ParseError) -> Refused {
        Refused::Line(e)
    }
}

/// Nothing, for a command that takes no arguments.
pub fn nothing(rest: &str) -> Result<(), Refused> {
    if rest.is_empty() {
        Ok(())
    } else {
        Err(Refused::Args(format!("takes no arguments, got '{rest}'")))
    }
}

/// `Some(Ok(n))` for a move number, `Some(Err)` for a number that cannot be
/// one (0, negative, too large), `None` for anything that is not a number.
pub fn move_number(word: &str) -> Option<Result<usize, ParseError>> {
    let digits = word.strip_prefix(['-', '+']).unwrap_or(word);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    Some(match word.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(ParseError::BadNumber(word.to_string())),
    })
}

/// How many times (`undo N`, `redo N`): 1 when not given.
pub fn count(rest: &str) -> Result<usize, String> {
    if rest.is_empty() {
        return Ok(1);
    }
    match rest.parse::<usize>() {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(format!("'{rest}' is not a positive count")),
    }
}

/// The file named after `save` or `load`, without quotes around it.
pub fn file_name(rest: &str) -> Result<String, String> {
    let path = unquote(rest);
    if path.is_empty() {
        return Err("which file?".into());
    }
    Ok(path.to_string())
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

/// The items of `a,b,c`, none of them empty.
pub fn list(value: &str) -> Result<Vec<String>, String> {
    let items: Vec<String> = value.split(',').map(|s| s.trim().to_string()).collect();
    if items.iter().any(String::is_empty) {
        return Err(format!("'{value}' has an empty item"));
    }
    Ok(items)
}
