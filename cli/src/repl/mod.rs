//! The interactive REPL: a rustyline editor (history, tab completion) over a
//! [`Session`](session::Session) that plays one game at a time against bots
//! or hot-seat.
//!
//! - [`commands`]: one file per command (its help, its arguments, what it
//!   does) and the list of them, from which help and completion come;
//! - [`registry`]: how a command is described ([`CommandInfo`](registry::CommandInfo)),
//!   looked up and suggested, for the REPL's commands and `replay --step`'s;
//! - [`parse`]: a typed line to a [`ReplInput`](parse::ReplInput), a pure function;
//! - [`args`]: the readers of arguments several commands share, and parse errors;
//! - [`dispatch`]: a typed line parsed and run;
//! - [`choose`]: typed text to one of the legal moves;
//! - [`cards`]: typed text to a set of cards, for a move that asks for one;
//! - [`autopass`]: the reaction windows passed without asking;
//! - [`complete`]: tab completion;
//! - [`vocabulary`]: the words tab completion may offer;
//! - [`session`]: the REPL's state, starting games, the table and moves shown;
//! - [`turns`]: moves, the bots' moves, the end of a game;
//! - [`files`]: saving, loading and reloading games, and undoing a reload;
//! - [`lua_prompt`]: Lua evaluated with `game` bound, and the Lua prompt;
//! - [`autosave`]: the game in progress kept on disk, offered back after a crash;
//! - [`history`]: the lines typed, appended to a file shared by every deckhand;
//! - [`lock`]: the file locks that tell one deckhand's files from another's.
//!
//! The REPL knows no particular game: everything it shows comes from the
//! rules through the core's API.

mod args;
mod autopass;
mod autosave;
mod cards;
mod choose;
mod commands;
mod complete;
mod dispatch;
mod files;
mod hint_view;
mod history;
mod lock;
mod lua_prompt;
mod parse;
mod registry;
pub use registry::edit_distance;
mod session;
pub mod stepper;
mod thinking;
mod turns;
mod vocabulary;

use crate::interrupt;
use crate::render::colour_enabled;
use crate::seats::SeatSpec;
use anyhow::Result;
use autosave::{Autosave, Found};
use complete::ReplHelper;
use deckhand_engine::{GameConfig, ScriptLibrary};
use rustyline::config::Config;
use rustyline::error::ReadlineError;
use rustyline::history::DefaultHistory;
use rustyline::{CompletionType, Editor};
use session::{Flow, Session};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::Arc;

/// The game a first session starts, ready to play.
const DEFAULT_GAME: &str = "sea_change";
/// Its player count.
const DEFAULT_PLAYERS: u32 = 4;
/// The bot at the seats other than yours (the game's first bot if it has none by this name).
const DEFAULT_BOT: &str = "greedy";

/// Where the history is kept: `history` in the data folder
/// ([`autosave::data_dir`]).
fn history_path() -> Option<PathBuf> {
    autosave::data_dir().map(|d| d.join("history"))
}

/// The question asked at start when one game was left unfinished.
const RESUME_ONE: &str = "Resume it? [Y/n] ";

/// Clear the screen and the scrollback, cursor home.
const CLEAR_SCREEN: &str = "\x1b[H\x1b[2J\x1b[3J";

/// Print lines, each wrapped to the terminal's width.
fn print(lines: Vec<String>) {
    let width = crate::render::terminal_width();
    let mut out = std::io::stdout().lock();
    for l in lines {
        // A closed stdout is not worth a panic.
        let _ = writeln!(out, "{}", crate::render::wrap(&l, width));
    }
    let _ = out.flush();
}

/// Run the REPL. With `start = None` it greets the user and starts the
/// default game (you at seat 1, bots elsewhere); with a game, starts that.
pub fn run(library: Arc<ScriptLibrary>, start: Option<(GameConfig, Vec<SeatSpec>)>) -> Result<()> {
    let mut session = Session::new(library, colour_enabled())?;
    session.set_cancel(interrupt::flag());
    if std::io::stdout().is_terminal() {
        session.set_live(print);
    }

    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .history_ignore_dups(true)?
        .history_ignore_space(true)
        .max_history_size(history::KEEP)?
        .build();
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::with_config(config)?;
    editor.set_helper(Some(ReplHelper::new()));
    // The history is read by the editor and appended to line by line
    // (history.rs), never written over.
    let history = history_path().map(history::HistoryFile::new);
    if let Some(h) = &history {
        let _ = h.compact();
        let _ = editor.load_history(h.path());
    }

    // A person at a terminal gets an autosave of their own (piped input
    // does not).
    let mut autosave = if std::io::stdin().is_terminal() {
        Autosave::new()
    } else {
        None
    };
    let left = autosave.as_ref().map(Autosave::left);
    if let Some(removed) = left.as_ref().map(|l| l.removed).filter(|&n| n > 0) {
        print(vec![format!(
            "({removed} older unfinished game{} removed: deckhand keeps the newest {}.)",
            if removed == 1 { " was" } else { "s were" },
            autosave::MAX_LEFT
        )]);
    }
    let left = left.map(|l| l.games).unwrap_or_default();
    // Bots may move first (a search bot at seat 1): Ctrl-C stops them too.
    let catch = interrupt::CtrlC::catch();
    match (start, left.is_empty()) {
        (None, false) => {
            print(vec![session.describe_left(&left)]);
            let question = if left.len() == 1 {
                RESUME_ONE.to_string()
            } else {
                format!(
                    "Resume one? [1-{}, Enter: 1, n: discard them all] ",
                    left.len()
                )
            };
            // Enter or y (or a number): resume; n: discard; Ctrl-C or
            // Ctrl-D: neither (they stay, `resume` lists them).
            let answer = editor
                .readline(&question)
                .map(|a| a.trim().to_ascii_lowercase());
            let resumed = match answer {
                Ok(a) if a.starts_with('n') => {
                    left.iter().for_each(autosave::discard);
                    print(vec![if left.len() == 1 {
                        "It was discarded.".into()
                    } else {
                        "They were discarded.".into()
                    }]);
                    false
                }
                Ok(a) => {
                    let pick = match a.as_str() {
                        "" | "y" | "yes" => Some(0),
                        n => n.parse::<usize>().ok().and_then(|n| n.checked_sub(1)),
                    };
                    match pick.and_then(|i| left.get(i)) {
                        Some(found) => resume(&mut session, autosave.as_mut(), found),
                        None => {
                            print(vec![format!(
                                "'{a}' is not one of the games listed: none was resumed                                  (`resume` lists them)."
                            )]);
                            false
                        }
                    }
                }
                Err(_) => {
                    print(vec![
                        "Not resumed: the unfinished games stay (`resume` lists them).".into(),
                    ]);
                    false
                }
            };
            if !resumed {
                print(session.take_output());
                session.start_default(DEFAULT_GAME, DEFAULT_PLAYERS, DEFAULT_BOT);
            }
        }
        (None, true) => session.start_default(DEFAULT_GAME, DEFAULT_PLAYERS, DEFAULT_BOT),
        (Some((cfg, seats)), empty) => {
            session
                .try_start(cfg, seats, None)
                .map_err(anyhow::Error::msg)?;
            if !empty {
                print(vec![format!(
                    "({} left unfinished by a deckhand that no longer runs: `resume` lists {}.)",
                    if left.len() == 1 {
                        "A game was".to_string()
                    } else {
                        format!("{} games were", left.len())
                    },
                    if left.len() == 1 { "it" } else { "them" }
                )]);
            }
        }
    }
    drop(catch);
    print(session.take_output());

    let mut lua_mode = false;
    loop {
        if let Some(helper) = editor.helper_mut() {
            helper.vocabulary = session.vocabulary();
        }
        let prompt = if lua_mode {
            session.lua_prompt().to_string()
        } else {
            session.prompt()
        };
        let line = match editor.readline(&prompt) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) if lua_mode => {
                session.lua_interrupted();
                print(session.take_output());
                continue;
            }
            Err(ReadlineError::Interrupted) => {
                print(vec!["(Ctrl-C: type `quit` or press Ctrl-D to leave)".into()]);
                continue;
            }
            Err(ReadlineError::Eof) => {
                if lua_mode {
                    lua_mode = false;
                    session.lua_pending.clear();
                    print(vec!["Back to the deckhand prompt.".into()]);
                    continue;
                }
                leave(autosave.as_mut());
                break;
            }
            // A line that is not UTF-8 (bytes piped in from a file, a
            // terminal in another encoding): it has been read, so say so
            // and read the next one; the game goes on.
            Err(ReadlineError::Io(e)) if e.kind() == std::io::ErrorKind::InvalidData => {
                print(vec![
                    "that line was not valid UTF-8 text and was ignored (nothing changed)".into(),
                ]);
                continue;
            }
            Err(e) => {
                print(vec![format!("cannot read the terminal: {e}")]);
                break;
            }
        };
        if !line.trim().is_empty() && editor.add_history_entry(line.as_str()).unwrap_or(false) {
            if let Some(h) = &history {
                let _ = h.append(&line);
            }
        }
        if lua_mode {
            lua_mode = session.handle_lua_line(&line);
            print(session.take_output());
            continue;
        }
        // Ctrl-C while the command runs stops it (a long hint, bots
        // searching) rather than the process.
        let catch = interrupt::CtrlC::catch();
        let flow = session.handle_line(&line);
        if let Flow::Resume(n) = flow {
            // Before the output is shown: a game resumed in a hot-seat
            // game passes the terminal as any other.
            resume_command(&mut session, autosave.as_mut(), n);
        }
        drop(catch);
        if let Some(a) = autosave.as_mut() {
            if let Some(problem) = a.update(session.autosave_state()) {
                session.say(problem);
            }
        }
        let (mut lines, handoff) = session.take_output_handoff();
        if let Some((at, seat)) = handoff.filter(|_| std::io::stdin().is_terminal()) {
            // Hot-seat: the next person's hand only after the last one
            // has passed the terminal on, on a cleared screen.
            let rest = lines.split_off(at.min(lines.len()));
            print(lines);
            let _ = editor.readline(&format!("Pass to seat {seat} and press Enter "));
            if std::io::stdout().is_terminal() {
                let mut out = std::io::stdout().lock();
                let _ = write!(out, "{CLEAR_SCREEN}");
                let _ = out.flush();
            }
            lines = rest;
        }
        print(lines);
        match flow {
            Flow::LuaPrompt => lua_mode = true,
            Flow::Continue | Flow::Resume(_) => {}
            Flow::Quit => {
                leave(autosave.as_mut());
                break;
            }
        }
    }
    print(vec!["Bye.".into()]);
    Ok(())
}

/// `replay --step`: the stepper's prompt, read with the REPL's line
/// editor (history, Ctrl-C clears the line) until `quit` or Ctrl-D.
pub fn step_through(mut stepper: stepper::Stepper) -> Result<()> {
    print(stepper.take_output());
    let mut editor: Editor<(), DefaultHistory> = Editor::new()?;
    loop {
        let line = match editor.readline(&stepper.prompt()) {
            Ok(line) => line,
            Err(ReadlineError::Interrupted) => {
                print(vec!["(Ctrl-C: type `quit` or press Ctrl-D to leave)".into()]);
                continue;
            }
            Err(ReadlineError::Eof) => break,
            Err(e) => {
                print(vec![format!("cannot read the terminal: {e}")]);
                break;
            }
        };
        if !line.trim().is_empty() {
            let _ = editor.add_history_entry(line.as_str());
        }
        let go_on = stepper.handle_line(&line);
        print(stepper.take_output());
        if !go_on {
            break;
        }
    }
    Ok(())
}

/// Resume the game left unfinished in `found`: loaded, its file becomes
/// this session's autosave. Whether it was loaded.
fn resume(session: &mut Session, autosave: Option<&mut Autosave>, found: &Found) -> bool {
    let loaded = session.resume(&found.path);
    if loaded {
        if let Some(a) = autosave {
            a.adopt(found);
        }
    }
    loaded
}

/// `resume`: list the games left unfinished by deckhands no longer
/// running; `resume N`: resume game N of that list.
fn resume_command(session: &mut Session, autosave: Option<&mut Autosave>, n: Option<usize>) {
    let Some(autosave) = autosave else {
        return session.say(
            "resume: only a deckhand at a terminal keeps autosaves (input piped from a file \
             has none)",
        );
    };
    let left = autosave.left().games;
    match n {
        None if left.is_empty() => session.say(session.describe_left(&left)),
        None => {
            let list = session.describe_left(&left);
            session.say(list);
            session.say(if left.len() == 1 {
                "Type `resume 1` to continue it (the game in progress is replaced).".to_string()
            } else {
                format!(
                    "Type `resume N` (1 to {}) to continue one (the game in progress is \
                     replaced).",
                    left.len()
                )
            });
        }
        Some(n) => match left.get(n - 1) {
            Some(found) => {
                resume(session, Some(autosave), found);
            }
            None if left.is_empty() => session.say(session.describe_left(&left)),
            None => session.say(format!(
                "there is no game {n} among the {} left unfinished (type `resume` to list them)",
                left.len()
            )),
        },
    }
}

/// Leaving on purpose (`quit`, Ctrl-D): the autosave is not needed.
fn leave(autosave: Option<&mut Autosave>) {
    if let Some(a) = autosave {
        a.remove();
    }
}

#[cfg(test)]
mod fuzz;
#[cfg(test)]
mod tests;
