//! No lost games, through a pseudo-terminal as a person types: Ctrl-C
//! during a long `hint` or a bot's search gives the prompt back with the
//! game intact, and a REPL that is killed offers its game back at the next
//! start (the autosave).

use crate::pty;

use pty::{scripts_dir, Repl};
use std::time::Duration;

const NEW_GAME: &str =
    "new sea_change players=4 seats=human,greedy,greedy,greedy target_vp=1 seed=7";

/// The question asked at start-up when an autosave is found.
const RESUME: &str = "Resume it? [Y/n] ";

impl Repl {
    fn start_game(&mut self, line: &str) {
        self.type_expect(line, "New game of Sea Change (4 players, seed 7)", "> ");
    }

    /// `show`: the table, from its title to the prompt.
    fn table_until(&mut self, prompt: &str) -> String {
        self.send("show");
        self.expect("── Sea Change");
        self.expect(prompt)
    }

    /// `log`: the moves made so far.
    fn log(&mut self, prompt: &str) -> String {
        self.send("log");
        self.expect(prompt)
    }

    /// Let a command start running, then press Ctrl-C.
    fn interrupt_after(&mut self, line: &str) {
        self.send(line);
        // The command must be running (not still being read) when Ctrl-C
        // arrives; how long it then runs does not matter.
        std::thread::sleep(Duration::from_millis(1500));
        self.p.send_control('c').expect("Ctrl-C");
    }
}

/// The autosave of a REPL whose HOME is `home` (no DECKHAND_DATA_DIR).
fn autosave_in(home: &std::path::Path) -> std::path::PathBuf {
    home.join(".local/share/deckhand/autosave.json")
}

#[test]
fn ctrl_c_during_a_long_hint_gives_the_prompt_back_with_the_game_intact() {
    let mut r = Repl::start();
    r.start_game(NEW_GAME);
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    let table = r.table_until("seat 1> ");
    let log = r.log("seat 1> ");

    // 100000 playouts take minutes: only Ctrl-C ends this one in time.
    r.interrupt_after("hint 100000");
    r.expect("hint interrupted (Ctrl-C): nothing was played");
    r.expect("seat 1> ");
    assert_eq!(r.table_until("seat 1> "), table);
    assert_eq!(r.log("seat 1> "), log);
    // The game goes on.
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    r.quit();
}

#[test]
fn ctrl_c_while_a_search_bot_thinks_stops_it_and_continue_or_undo_go_on() {
    let mut r = Repl::start();
    r.start_game("new sea_change players=4 seats=human,mc:100000,greedy,greedy target_vp=1 seed=7");
    let table = r.table_until("seat 1> ");
    let log = r.log("seat 1> ");

    // Seat 2's search after this move takes minutes.
    r.interrupt_after("1");
    r.expect("interrupted (Ctrl-C) while seat 2 (mc:100000) was choosing");
    r.expect("deckhand> ");
    // Seat 1's move stands; seat 2 has not moved.
    let after = r.log("deckhand> ");
    assert!(after.contains("1. seat 1 (you):"), "{after}");
    assert!(!after.contains("2. seat 2"), "{after}");

    // `continue` lets it think again; Ctrl-C again, then undo.
    r.interrupt_after("continue");
    r.expect("interrupted (Ctrl-C) while seat 2 (mc:100000) was choosing");
    r.expect("deckhand> ");
    r.type_expect("undo", "Took back your last move", "seat 1> ");
    assert_eq!(r.table_until("seat 1> "), table);
    assert_eq!(r.log("seat 1> "), log);
    r.quit();
}

#[test]
fn a_killed_repl_offers_its_game_back_at_the_same_position() {
    let mut r = Repl::start();
    r.start_game(NEW_GAME);
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    let table = r.table_until("seat 1> ");
    let log = r.log("seat 1> ");
    let home = r.kill();
    assert!(autosave_in(home.path()).is_file());

    let mut r = Repl::spawn_until(&scripts_dir(), home, &[], RESUME);
    assert!(
        r.seen
            .contains("An unfinished game was autosaved: Sea Change (4 players, seed 7)"),
        "{}",
        r.seen
    );
    assert!(
        r.seen.contains("at step 11, autosaved just now."),
        "{}",
        r.seen
    );
    r.type_expect("y", "Loaded the autosaved game: Sea Change", "seat 1> ");
    assert_eq!(r.table_until("seat 1> "), table);
    assert_eq!(r.log("seat 1> "), log);

    // Leaving with `quit` is on purpose: nothing is offered next time.
    let home = r.quit();
    assert!(!autosave_in(home.path()).exists());
    let r = Repl::spawn(&scripts_dir(), home);
    assert!(!r.seen.contains("autosaved"), "{}", r.seen);
    r.quit();
}

#[test]
fn the_autosave_goes_where_deckhand_data_dir_says_and_can_be_declined() {
    let home = tempfile::tempdir().expect("temp home");
    let data = home.path().join("elsewhere");
    let data_var = data.to_str().expect("utf-8 path").to_string();
    let env = [("DECKHAND_DATA_DIR", data_var.as_str())];
    let mut r = Repl::spawn_env(&scripts_dir(), home, &env);
    r.start_game(NEW_GAME);
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    let home = r.kill();
    assert!(data.join("autosave.json").is_file());
    assert!(!autosave_in(home.path()).exists());

    // Declined: a new game starts and the autosave is gone.
    let mut r = Repl::spawn_until(&scripts_dir(), home, &env, RESUME);
    r.type_expect("n", "It was discarded.", "seat 1> ");
    assert!(!data.join("autosave.json").exists());
    r.quit();
}
