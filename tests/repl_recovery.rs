//! No lost games, through a pseudo-terminal as a person types: Ctrl-C
//! during a long `hint` or a bot's search gives the prompt back with the
//! game intact, and a REPL that is killed offers its game back at the next
//! start (the autosave).

use crate::pty;

use pty::{scripts_dir, Repl};
use std::path::{Path, PathBuf};
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

/// The data folder of a REPL whose HOME is `home` (no DECKHAND_DATA_DIR).
fn data_in(home: &Path) -> PathBuf {
    home.join(".local/share/deckhand")
}

/// The autosaved games in the data folder `data` (each REPL writes its own).
fn autosaves(data: &Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(data.join("autosaves"))
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .collect();
    files.sort();
    files
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
fn a_move_shows_at_once_and_a_thinking_bot_says_so_with_its_time() {
    let mut r = Repl::start();
    r.start_game("new sea_change players=4 seats=human,mc:100000,greedy,greedy target_vp=1 seed=7");
    // Seat 2's search takes minutes: the move and the line saying so must
    // come while it runs, not after.
    r.send("1");
    let started = std::time::Instant::now();
    r.expect("seat 1 (you): ");
    r.expect("seat 2 (mc:100000) is thinking … ");
    r.expect(" s (Ctrl-C stops it)");
    // The time it has taken goes up.
    r.expect("seat 2 (mc:100000) is thinking … 2 s (Ctrl-C stops it)");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
    r.p.send_control('c').expect("Ctrl-C");
    r.expect("interrupted (Ctrl-C) while seat 2 (mc:100000) was choosing");
    r.expect("deckhand> ");
    // A quick bot says nothing of thinking.
    r.send("seats 2=greedy");
    let shown = r.expect("seat 1> ");
    assert!(shown.contains("seat 2 (greedy): "), "{shown}");
    assert!(!shown.contains("thinking"), "{shown}");
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
    assert_eq!(autosaves(&data_in(home.path())).len(), 1);

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
    assert!(autosaves(&data_in(home.path())).is_empty());
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
    assert_eq!(autosaves(&data).len(), 1);
    assert!(autosaves(&data_in(home.path())).is_empty());

    // Declined: a new game starts and the autosave is gone.
    let mut r = Repl::spawn_until(&scripts_dir(), home, &env, RESUME);
    r.type_expect("n", "It was discarded.", "seat 1> ");
    assert!(autosaves(&data).is_empty());
    r.quit();
}

/// A REPL in its own HOME, whose data folder is `data` (shared by the
/// REPLs of one test, as by the deckhands of one user).
fn repl_on(data: &Path, first: &str) -> Repl {
    let env = [("DECKHAND_DATA_DIR", data.to_str().expect("utf-8 path"))];
    let home = tempfile::tempdir().expect("temp home");
    Repl::spawn_until(&scripts_dir(), home, &env, first)
}

/// Two REPLs at once: each autosaves its own game, neither is offered the
/// other's while both run, and after both are killed the next deckhand
/// lists both games, newest first; the one resumed is not offered again,
/// the other stays for `resume` and, alone, is offered as before.
#[test]
fn repls_at_once_each_keep_their_own_game() {
    let data = tempfile::tempdir().expect("data folder");
    let data = data.path();
    let mut a = repl_on(data, "seat 1> ");
    a.start_game(NEW_GAME);
    a.type_expect("1", "seat 1 (you): ", "seat 1> ");
    let table_a = a.table_until("seat 1> ");
    let log_a = a.log("seat 1> ");
    // A second REPL while the first runs: nothing to resume.
    let mut b = repl_on(data, "seat 1> ");
    assert!(!b.seen.contains("autosaved"), "{}", b.seen);
    b.type_expect(
        &NEW_GAME.replace("seed=7", "seed=8"),
        "New game of Sea Change (4 players, seed 8)",
        "seat 1> ",
    );
    b.type_expect("1", "seat 1 (you): ", "seat 1> ");
    b.type_expect("1", "seat 1 (you): ", "seat 1> ");
    assert_eq!(autosaves(data).len(), 2);
    a.kill();
    b.kill();

    let mut c = repl_on(data, "Resume one? [1-2, Enter: 1, n: discard them all] ");
    assert!(
        c.seen
            .contains("2 unfinished games were autosaved (newest first):"),
        "{}",
        c.seen
    );
    let first = c.seen.find("1) Sea Change (4 players, seed 8), at step 8");
    let second = c.seen.find("2) Sea Change (4 players, seed 7), at step 5");
    assert!(
        first.is_some() && second.is_some() && first < second,
        "{}",
        c.seen
    );
    c.type_expect("2", "Loaded the autosaved game: Sea Change", "seat 1> ");
    assert_eq!(c.table_until("seat 1> "), table_a);
    assert_eq!(c.log("seat 1> "), log_a);
    // The other game stays, for `resume`.
    let listed = c.type_expect("resume", "Type `resume 1`", "seat 1> ");
    assert!(
        listed.contains("An unfinished game was autosaved: Sea Change (4 players, seed 8)"),
        "{listed}"
    );
    assert!(!listed.contains("seed 7"), "{listed}");
    c.quit();

    // `deckhand play` starts the game asked for and says one is waiting.
    let env = [("DECKHAND_DATA_DIR", data.to_str().expect("utf-8 path"))];
    let home = tempfile::tempdir().expect("temp home");
    let p = Repl::spawn_args(
        &scripts_dir(),
        home,
        &env,
        &["play", "sea_change"],
        "seat 1> ",
    );
    assert!(
        p.seen.contains(
            "(A game was left unfinished by a deckhand that no longer runs: `resume` lists it.)"
        ),
        "{}",
        p.seen
    );
    p.quit();

    // Alone, it is offered as one game always was; declined, it goes.
    let mut d = repl_on(data, RESUME);
    assert!(
        d.seen
            .contains("An unfinished game was autosaved: Sea Change (4 players, seed 8)"),
        "{}",
        d.seen
    );
    d.type_expect("n", "It was discarded.", "seat 1> ");
    d.quit();
    assert!(autosaves(data).is_empty());
    let e = repl_on(data, "seat 1> ");
    assert!(!e.seen.contains("autosaved"), "{}", e.seen);
    e.quit();
}

/// The history file of several REPLs: every line each of them typed is
/// kept, also those of a REPL that is killed, and the lines kept before
/// are never cut.
#[test]
fn repls_at_once_and_killed_keep_every_line_of_the_history() {
    let data = tempfile::tempdir().expect("data folder");
    let data = data.path();
    let history = data.join("history");
    // A long history already (more lines than the editor keeps in memory).
    let old: Vec<String> = (0..3000).map(|i| format!("log {i}")).collect();
    std::fs::write(&history, format!("#V2\n{}\n", old.join("\n"))).expect("write");
    let mut a = repl_on(data, "seat 1> ");
    let mut b = repl_on(data, "seat 1> ");
    a.type_expect("help undo", "usage: undo", "seat 1> ");
    b.type_expect("help redo", "usage: redo", "seat 1> ");
    a.type_expect("help load", "usage: load", "seat 1> ");
    // One killed, the other leaving as usual.
    a.kill();
    b.type_expect("help save", "usage: save", "seat 1> ");
    b.quit();
    let text = std::fs::read_to_string(&history).expect("the history");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.first(), Some(&"#V2"));
    assert!(
        lines.len() > 3000,
        "the history was cut to {} lines",
        lines.len()
    );
    assert_eq!(
        lines[1..3001],
        old.iter().map(String::as_str).collect::<Vec<_>>()[..]
    );
    for typed in ["help undo", "help redo", "help load", "help save"] {
        assert!(
            lines.contains(&typed),
            "{typed} is not kept: {:?}",
            &lines[3001..]
        );
    }
}
