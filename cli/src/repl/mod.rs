//! The interactive REPL: a rustyline editor (history, tab completion) over a
//! [`Session`](session::Session) that plays one game at a time against bots
//! or hot-seat.
//!
//! - [`registry`]: every command in one place (help and completion come from it);
//! - [`parse`]: a typed line to a [`ReplInput`](parse::ReplInput), a pure function;
//! - [`choose`]: typed text to one of the legal moves;
//! - [`cards`]: typed text to a set of cards, for a move that asks for one;
//! - [`autopass`]: the reaction windows passed without asking;
//! - [`complete`]: tab completion;
//! - [`session`]: the REPL's state, starting games, seats, dispatching commands;
//! - [`turns`]: moves, the bots' moves, the end of a game, undo/redo;
//! - [`files`]: save, load and reload;
//! - [`info`]: games, options, log, the Lua prompt and hints;
//! - [`autosave`]: the game in progress kept on disk, offered back after a crash.
//!
//! The REPL knows no particular game: everything it shows comes from the
//! rules through the core's API.

mod autopass;
mod autosave;
mod cards;
mod choose;
mod complete;
mod files;
mod hint_view;
mod info;
mod parse;
mod registry;
pub use registry::edit_distance;
mod session;
pub mod stepper;
mod turns;

use crate::interrupt;
use crate::render::colour_enabled;
use crate::seats::SeatSpec;
use anyhow::Result;
use autosave::Autosave;
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

    let config = Config::builder()
        .completion_type(CompletionType::List)
        .auto_add_history(false)
        .history_ignore_dups(true)?
        .history_ignore_space(true)
        .max_history_size(2000)?
        .build();
    let mut editor: Editor<ReplHelper, DefaultHistory> = Editor::with_config(config)?;
    editor.set_helper(Some(ReplHelper::new()));
    let history = history_path();
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }

    // A person at a terminal gets an autosave (piped input does not).
    let mut autosave = if std::io::stdin().is_terminal() {
        Autosave::new()
    } else {
        None
    };
    let found = autosave.as_ref().and_then(Autosave::found);
    // Bots may move first (a search bot at seat 1): Ctrl-C stops them too.
    let catch = interrupt::CtrlC::catch();
    match (start, found) {
        (None, Some(found)) => {
            print(vec![session.describe_autosave(&found)]);
            // Enter or y: resume; n: discard; Ctrl-C or Ctrl-D: neither
            // (the autosave stays until this session's game has a move).
            let answer = editor
                .readline("Resume it? [Y/n] ")
                .map(|a| a.trim().to_ascii_lowercase());
            match (answer, autosave.as_mut()) {
                (Ok(a), Some(file)) if !a.starts_with('n') => session.resume(file.path()),
                (Ok(_), Some(file)) => {
                    file.remove();
                    print(vec!["It was discarded.".into()]);
                    session.start_default(DEFAULT_GAME, DEFAULT_PLAYERS, DEFAULT_BOT);
                }
                _ => {
                    print(vec![
                        "Not resumed: it stays until this game has a move.".into()
                    ]);
                    session.start_default(DEFAULT_GAME, DEFAULT_PLAYERS, DEFAULT_BOT);
                }
            }
        }
        (None, None) => session.start_default(DEFAULT_GAME, DEFAULT_PLAYERS, DEFAULT_BOT),
        (Some((cfg, seats)), found) => {
            session
                .try_start(cfg, seats, None)
                .map_err(anyhow::Error::msg)?;
            if found.is_some() {
                print(vec![
                    "(An unfinished game is autosaved: `deckhand` with no arguments offers to \
                     resume it; it is replaced once this game has a move.)"
                        .into(),
                ]);
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
        if !line.trim().is_empty() {
            let _ = editor.add_history_entry(line.as_str());
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
            Flow::Continue => {}
            Flow::LuaPrompt => lua_mode = true,
            Flow::Quit => {
                leave(autosave.as_mut());
                break;
            }
        }
    }
    if let Some(h) = &history {
        if let Some(dir) = h.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = editor.save_history(h);
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
