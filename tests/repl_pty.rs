//! The REPL through a pseudo-terminal, typed as a person types: mistakes get
//! helpful one-line messages, a whole game of Sea Change is played to its
//! result, and undo, save/load, the Lua prompt, help, tab completion and the
//! history file work.

use crate::pty;

use pty::{scripts_dir, Repl};
use rexpect::ReadUntil;
use std::path::{Path, PathBuf};

const NEW_GAME: &str =
    "new sea_change players=4 seats=human,greedy,greedy,greedy target_vp=1 seed=7";

/// `deckhand` with no arguments: the default game starts, ready to play.
fn start() -> Repl {
    let r = Repl::start();
    assert!(
        r.seen.contains("Type `new GAME` to start something else"),
        "{}",
        r.seen
    );
    r
}

impl Repl {
    /// Start the test game and wait for the first prompt.
    fn new_game(&mut self) {
        self.type_expect(
            NEW_GAME,
            "New game of Sea Change (4 players, seed 7)",
            "seat 1> ",
        );
    }

    /// `show`: the table, from its title to the prompt.
    fn table(&mut self) -> String {
        self.send("show");
        self.expect("── Sea Change");
        self.expect("seat 1> ")
    }
}

#[test]
fn mistakes_get_clear_messages_and_a_whole_game_reaches_its_result() {
    let mut r = start();
    r.new_game();

    r.type_expect(
        "shwo",
        "unknown command 'shwo' — did you mean 'show'?",
        "seat 1> ",
    );
    r.type_expect("99", "there is no move 99: choose 1 to", "seat 1> ");
    r.type_expect(
        "new sea_chnage",
        "unknown game 'sea_chnage' — did you mean 'sea_change'?",
        "seat 1> ",
    );
    r.type_expect("new sea_change players=lots", "players=lots", "seat 1> ");
    r.type_expect("load nowhere.json", "cannot load nowhere.json", "seat 1> ");
    // None of that changed the game.
    r.type_expect("log", "No moves yet.", "seat 1> ");

    // Play the first legal move until the game ends.
    let mut moves = 0;
    loop {
        r.send("1");
        r.expect("seat 1 (you): ");
        moves += 1;
        assert!(moves < 300, "the game did not end after {moves} moves");
        let (_, found) =
            r.p.exp_any(vec![
                ReadUntil::String("seat 1> ".into()),
                ReadUntil::String("Game over".into()),
            ])
            .expect("a prompt or the end of the game");
        if found.contains("Game over") {
            break;
        }
    }
    let result = r.expect("deckhand> ");
    assert!(
        result.contains("seat 1 (you)") && result.contains("seat 4 (greedy)"),
        "{result}"
    );
    assert!(
        result.contains("Winner") || result.contains("No seat wins"),
        "{result}"
    );
    assert!(result.contains("Type `new` to play again"), "{result}");
    r.type_expect("1", "the game is over", "deckhand> ");
    r.quit();
}

#[test]
fn undo_save_load_lua_help_completion_and_history() {
    let mut r = start();
    r.new_game();
    let first = r.table();
    assert!(first.contains("your hand"), "{first}");
    assert!(
        first.contains("hand (seat 2)") && first.contains("cards"),
        "{first}"
    );

    // A move, then undo: back to the same table.
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    r.type_expect("undo", "Took back your last move", "seat 1> ");
    assert_eq!(r.table(), first);
    r.type_expect("redo", "Redid your move", "seat 1> ");

    // Save, play on, load: the table at the save comes back.
    let saved = r.table();
    let file = r.home.path().join("game.json");
    let file = file.display().to_string();
    r.type_expect(&format!("save {file}"), "Saved to", "seat 1> ");
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    assert_ne!(r.table(), saved);
    r.type_expect(&format!("load {file}"), "moves replayed", "seat 1> ");
    assert_eq!(r.table(), saved);

    // A corrupt save is refused and loses nothing.
    let bad = r.home.path().join("bad.json");
    std::fs::write(&bad, "{ this is not a save").expect("write");
    r.type_expect(
        &format!("load {}", bad.display()),
        "not a deckhand save",
        "seat 1> ",
    );
    assert_eq!(r.table(), saved);

    // Lua, one line and at its own prompt.
    r.send("lua game.seats");
    r.p.exp_regex(r"\r\n4\r\n").expect("game.seats is 4");
    r.expect("seat 1> ");
    r.type_expect("lua", "Lua prompt", "lua> ");
    r.type_expect("game.seats * 10", "40", "lua> ");
    r.type_expect("", "Back to the deckhand prompt.", "seat 1> ");

    // Help, generated from the command table.
    let help = r.type_expect("help", "Commands (", "seat 1> ");
    for name in [
        "new", "show", "moves", "undo", "redo", "save", "load", "reload", "lua", "seats", "quit",
    ] {
        assert!(
            help.contains(&format!("  {name} ")),
            "help lacks {name}:\n{help}"
        );
    }
    r.type_expect("help new", "usage: new [GAME]", "seat 1> ");

    // Tab completes a command name.
    r.p.send("hel\t").expect("type");
    r.p.flush().expect("flush");
    r.expect("help");
    r.send(" undo");
    r.expect("usage: undo");
    r.expect("seat 1> ");

    let home = r.quit();
    let history = std::fs::read_to_string(history_file(home.path())).expect("history file written");
    assert!(history.contains("lua game.seats"), "{history}");
}

fn history_file(home: &Path) -> PathBuf {
    home.join(".local/share/deckhand/history")
}

#[test]
fn hot_seat_shows_whose_turn_it_is() {
    let mut r = start();
    r.type_expect(
        "new sea_change players=2 seats=human,human target_vp=1 seed=3",
        "to play (hot-seat",
        "> ",
    );
    r.send("1");
    r.expect("(human): ");
    // Seat 2's hand waits until seat 1 has passed the terminal on.
    let before = r.expect("Pass to seat 2 and press Enter");
    assert!(!before.contains("to play (hot-seat"), "{before}");
    assert!(!before.contains("your hand"), "{before}");
    r.send("");
    r.expect("seat 2 (human) to play (hot-seat");
    r.expect("your hand");
    let seats = r.type_expect("seats", "<- to play", "> ");
    assert!(
        seats.contains("seat 1 (human)") && seats.contains("seat 2 (human)"),
        "{seats}"
    );
    r.quit();
}

#[test]
fn a_hand_wraps_between_cards_at_the_terminal_width() {
    let home = tempfile::tempdir().expect("temp home");
    let mut r = Repl::spawn_env(&scripts_dir(), home, &[("COLUMNS", "60")]);
    r.new_game();
    let table = r.table();
    let hand: Vec<&str> = table
        .lines()
        .skip_while(|l| !l.contains("your hand"))
        .take_while(|l| l.starts_with("  your hand") || l.starts_with("     "))
        .collect();
    assert!(
        hand.len() > 1,
        "a 60-column hand of 15 cards takes lines:\n{table}"
    );
    for l in &hand {
        assert!(l.chars().count() <= 60, "{l:?} is wider than 60:\n{table}");
        // Each line is whole cards: a colour, then its number.
        let words: Vec<&str> = l
            .trim_start_matches("  your hand")
            .split_whitespace()
            .collect();
        for card in words.chunks(2) {
            assert!(
                card.len() == 2
                    && card[0].chars().all(char::is_alphabetic)
                    && card[1].chars().all(|c| c.is_ascii_digit()),
                "{l:?}"
            );
        }
    }
    let help = r.type_expect("games", "bots:", "seat 1> ");
    for l in help.lines() {
        assert!(
            l.chars().count() <= 60 || !l.trim().contains(' '),
            "{l:?} is wider than 60"
        );
    }
    r.quit();
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read scripts") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

#[test]
fn reload_keeps_the_game_when_a_script_breaks_and_replays_when_fixed() {
    let home = tempfile::tempdir().expect("temp home");
    let scripts = home.path().join("scripts");
    copy_dir(&scripts_dir(), &scripts);
    let mut r = Repl::spawn(&scripts, home);
    r.new_game();
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    let table = r.table();

    let game_lua = scripts.join("sea_change/game.lua");
    let good = std::fs::read_to_string(&game_lua).expect("read game.lua");
    std::fs::write(&game_lua, format!("{good}\nthis is not lua\n")).expect("break game.lua");
    r.type_expect("reload", "reload failed", "seat 1> ");
    assert_eq!(r.table(), table);

    std::fs::write(&game_lua, &good).expect("fix game.lua");
    r.type_expect("reload", "replayed under the new rules", "seat 1> ");
    assert_eq!(r.table(), table);
    r.quit();
}

#[test]
fn undo_takes_a_reload_back_and_redo_applies_it_again() {
    let home = tempfile::tempdir().expect("temp home");
    let scripts = home.path().join("scripts");
    copy_dir(&scripts_dir(), &scripts);
    let mut r = Repl::spawn(&scripts, home);
    r.new_game();
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    let table = r.table();
    r.send("log");
    let log = r.expect("seat 1> ");

    // Five suits with four players: another deal, and the log is cut short.
    let game_lua = scripts.join("sea_change/game.lua");
    let good = std::fs::read_to_string(&game_lua).expect("read game.lua");
    let five = good.replace(
        "[4] = { suits = 4, values = BASE }",
        "[4] = { suits = 5, values = BASE }",
    );
    assert_ne!(five, good);
    std::fs::write(&game_lua, five).expect("edit game.lua");
    r.type_expect("reload", "the log stops being legal at step", "seat 1> ");
    let reloaded = r.table();
    assert_ne!(reloaded, table);

    r.type_expect("undo", "Took back the reload", "seat 1> ");
    assert_eq!(r.table(), table);
    r.send("log");
    assert_eq!(r.expect("seat 1> "), log);

    r.type_expect("redo", "Redid the reload", "seat 1> ");
    assert_eq!(r.table(), reloaded);
    r.quit();
}

/// A Sea Change house rule that counts the steps it applies; with `fail`,
/// it raises an error on line 6 at the third.
fn counting_rule(fail: bool) -> String {
    let check = if fail {
        "if game.vars.applied == 3 then error('the third step fails') end"
    } else {
        "-- every step applies"
    };
    format!(
        "return {{ id = 'counting', title = 'Counting', game = 'sea_change', modify = function(rules)\n\
         \x20 local apply = rules.apply\n\
         \x20 rules.apply = function(game, seat, action)\n\
         \x20   game.vars.applied = (game.vars.applied or 0) + 1\n\
         \x20   -- the rule\n\
         \x20   {check}\n\
         \x20   return apply(game, seat, action)\n\
         \x20 end\n\
         end }}\n"
    )
}

#[test]
fn reload_onto_a_house_rule_that_fails_keeps_the_game_and_no_bot_moves() {
    let home = tempfile::tempdir().expect("temp home");
    let rule = home.path().join("counting.lua");
    std::fs::write(&rule, counting_rule(false)).expect("write the rule");
    let mut r = Repl::spawn(&scripts_dir(), home);
    r.type_expect(
        &format!("{NEW_GAME} variant=counting.lua"),
        "New game of Sea Change (4 players, variants counting.lua, seed 7)",
        "seat 1> ",
    );
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    let table = r.table();
    r.send("moves");
    let moves = r.expect("seat 1> ");
    r.send("log");
    let log = r.expect("seat 1> ");

    std::fs::write(&rule, counting_rule(true)).expect("edit the rule");
    let out = r.type_expect("reload", "reload failed", "seat 1> ");
    assert!(out.contains("at step 3 (seat 3)"), "{out}");
    assert!(
        out.contains("counting.lua:6: the third step fails"),
        "{out}"
    );
    assert!(
        out.contains("The game goes on under the rules loaded before"),
        "{out}"
    );
    assert!(!out.contains("(greedy): "), "a bot moved: {out}");
    assert_eq!(r.table(), table);
    r.send("moves");
    assert_eq!(r.expect("seat 1> "), moves);
    r.send("log");
    assert_eq!(r.expect("seat 1> "), log);
    r.quit();
}

/// `replay --step` at its prompt: Enter for the next step, back, go to a
/// step (the table there is the one the game had), the table from a seat.
#[test]
fn replay_step_walks_a_save_forward_back_and_to_any_step() {
    let mut r = start();
    r.new_game();
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    let table_at_5 = r.table();
    r.type_expect("1", "seat 1 (you): ", "seat 1> ");
    r.type_expect("save g.json", "Saved to g.json", "seat 1> ");
    let home = r.quit();

    let mut s = Repl::spawn_args(
        &scripts_dir(),
        home,
        &[],
        &["replay", "g.json", "--step"],
        "step 0/11> ",
    );
    assert!(s.seen.contains("At the start (step 0 of 11)"), "{}", s.seen);
    // Enter: the next step, with what it did.
    s.send("");
    s.expect("   1. seat 1: ");
    s.expect("step 1/11> ");
    s.send("");
    s.expect("   2. seat 2: ");
    s.expect("step 2/11> ");
    s.type_expect("back", "At step 1 of 11.", "step 1/11> ");
    // After step 5 seat 1 chose its second card: seat 1's view there is
    // the table the REPL showed.
    s.type_expect("go 5", "At step 5 of 11.", "step 5/11> ");
    s.send("show 1");
    s.expect("── Sea Change · step 5 of 11 · seat 1 to play");
    let seen = s.expect("step 5/11> ");
    let line = |t: &str, start: &str| {
        t.lines()
            .find(|l| l.trim_start().starts_with(start))
            .map(str::to_string)
    };
    assert!(line(&seen, "your hand").is_some(), "{seen}");
    assert_eq!(line(&seen, "your hand"), line(&table_at_5, "your hand"));
    assert_eq!(line(&seen, "trick "), line(&table_at_5, "trick "));
    assert!(
        !seen.contains("hand (seat 2)      Blue"),
        "seat 2's hand is hidden: {seen}"
    );
    // A number alone goes there too; past the end is refused.
    s.type_expect("11", "At step 11 of 11, as seat 1 sees it.", "step 11/11> ");
    s.type_expect("", "End of the log (step 11 of 11)", "step 11/11> ");
    s.type_expect("go 40", "there is no step 40", "step 11/11> ");
    s.type_expect("bakc", "did you mean 'back'?", "step 11/11> ");
    s.send("quit");
    s.p.exp_eof().expect("replay ends");
}

#[test]
fn lines_pasted_at_once_all_run() {
    let mut r = start();
    r.new_game();
    // Three commands in one write, as a paste arrives.
    r.p.send("log\nhelp undo\nlog\n").expect("paste");
    r.p.flush().expect("flush");
    r.expect("No moves yet.");
    r.expect("undo [N]");
    r.expect("No moves yet.");
    r.expect("seat 1> ");
    r.quit();
}

/// Cards typed by name in 2-player Sea Change (seed 14: seat 2 leads Green 9;
/// seat 1 holds Blue 10, Blue 12, Green 4, Green 7, Green 11, Red 6 ...):
/// a card that does not exist is not taken for a longer number, a card that
/// may not be played says why, and `rules` shows what is in force.
#[test]
fn cards_named_are_matched_exactly_and_illegal_ones_explained() {
    let mut r = start();
    r.type_expect(
        "new sea_change players=2 seats=human,greedy seed=14",
        "New game of Sea Change (2 players, seed 14)",
        "seat 1> ",
    );
    // No Green 1 in this deck: not Green 11, and nothing played.
    let out = r.type_expect(
        "green 1",
        "no card of this game is called 'green 1'",
        "seat 1> ",
    );
    assert!(!out.contains("seat 1 (you):"), "{out}");
    // A card in hand that may not be played: not a command, and why.
    let out = r.type_expect(
        "red 6",
        "Red 6 is not one of your moves now: you must follow Green: you hold Green 4, Green 7 and Green 11",
        "seat 1> ",
    );
    assert!(!out.contains("unknown command"), "{out}");
    r.type_expect(
        "play blue 12",
        "Blue 12 is not one of your moves now: you must follow Green",
        "seat 1> ",
    );
    r.type_expect("rules", "Variants and house rules: none.", "seat 1> ");
    r.type_expect("green 11", "seat 1 (you): Green 11", "seat 1> ");
    r.quit();
}

/// When a bot's move fails (the toy game's `boom_at` raises an error at step
/// 2, the first move of the bot at seat 2), `moves` and `hint` do not list
/// the bot's options: they would show its hand.
#[test]
fn a_failed_bot_move_shows_nothing_of_its_hand() {
    let home = tempfile::tempdir().expect("temp home");
    let scripts = home.path().join("scripts");
    copy_dir(&scripts_dir(), &scripts);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/high_card");
    copy_dir(&fixture, &scripts.join("high_card"));
    let mut r = Repl::spawn(&scripts, home);
    r.type_expect(
        "new high_card players=3 seats=human,lowest,lowest seed=5 boom_at=2",
        "New game of High Card",
        "seat 1> ",
    );
    r.type_expect("1", "failed, nothing changed", "deckhand> ");
    let out = r.type_expect("moves", "its moves are its own", "deckhand> ");
    assert!(!out.contains("1) C"), "{out}");
    let out = r.type_expect("hint 10", "its moves are its own", "deckhand> ");
    assert!(!out.contains("1) C"), "{out}");
    r.quit();
}

#[test]
fn the_lua_prompt_is_read_only_keeps_globals_and_continues_lines() {
    let mut r = start();
    r.new_game();
    r.send("moves");
    let moves = r.expect("seat 1> ");
    r.type_expect("lua", "Lua prompt", "lua> ");
    r.type_expect(
        "game:shuffle(game:zone('hand', 1))",
        "the Lua prompt sees the game read-only",
        "lua> ",
    );
    r.type_expect("x = 5", "", "lua> ");
    r.type_expect("x", "5", "lua> ");
    r.p.send_control('c').expect("Ctrl-C");
    r.expect("to go back to the deckhand prompt");
    r.expect("lua> ");
    r.type_expect("function f(n)", "", "...> ");
    r.type_expect("return {n, name = 'a b', [\"a b\"] = n}", "", "...> ");
    r.type_expect("end", "", "lua> ");
    r.type_expect("f(x)", r#"{5, ["a b"] = 5, name = "a b"}"#, "lua> ");
    // A function prints as one, not as nil.
    let shown = r.type_expect("{f = f, n = 1}", "n = 1}", "lua> ");
    assert!(
        shown.contains("{f = function() --[[a function]] end, n = 1}"),
        "{shown}"
    );
    assert!(!shown.contains("nil"), "{shown}");
    r.type_expect("", "Back to the deckhand prompt.", "seat 1> ");
    r.send("moves");
    assert_eq!(r.expect("seat 1> "), moves);
}

/// `hint` as a person asks for it: each move with its value and 95%
/// interval, the moves the search expects next, the best marked; the same
/// hint again for the same position and playouts; a time budget accepted;
/// nothing played.
#[test]
fn hint_shows_intervals_and_the_expected_line_and_plays_nothing() {
    let mut r = start();
    r.new_game();
    let before = r.table();
    let out = r.type_expect("hint 200", "Search for seat 1", "seat 1> ");
    assert!(out.contains("Search for seat 1 (200 playouts"), "{out}");
    assert!(out.contains("95% interval (normal approximation)"), "{out}");
    assert!(out.contains("% ± "), "{out}");
    assert!(out.contains("likely next: seat 2 "), "{out}");
    // What the mark means is said, and "best" only of the highest value.
    assert!(
        out.contains("listed by playouts: the search's choice (the move it played most) first"),
        "{out}"
    );
    assert!(
        out.contains("<- best (most playouts and highest value)")
            || (out.contains("<- the search's choice (most playouts)")
                && out.contains("<- highest value")),
        "{out}"
    );
    let again = r.type_expect("hint 200", "Search for seat 1", "seat 1> ");
    assert_eq!(out, again, "the same position gets the same hint");
    r.type_expect("hint 50ms", "most playouts", "seat 1> ");
    r.type_expect("hint soon", "'soon' is not a budget", "seat 1> ");
    assert_eq!(r.table(), before, "a hint plays nothing");
    r.quit();
}

/// A hot-seat game (`deckhand play sea_change -p 2 --seat human --seat
/// human --seed 3`): every command that brings another person's turn
/// (`undo`, `undo 99`, `redo`, `load`, `new`) says whose move it took back
/// or played, then passes the terminal on before that person's hand is
/// shown; one that leaves the turn where it was (`reload`) does not ask.
#[test]
fn hot_seat_commands_that_change_the_turn_pass_the_terminal_first() {
    let home = tempfile::tempdir().expect("temp home");
    let mut r = Repl::spawn_args(
        &scripts_dir(),
        home,
        &[],
        &[
            "play",
            "sea_change",
            "-p",
            "2",
            "--seat",
            "human",
            "--seat",
            "human",
            "--seed",
            "3",
        ],
        "seat 1> ",
    );
    // What is printed before the terminal passes to `seat`, after `line`
    // is typed; then Enter, and the prompt of that seat.
    let pass = |r: &mut Repl, line: &str, seat: u32| -> String {
        r.send(line);
        let before = r.expect(&format!("Pass to seat {seat} and press Enter"));
        assert!(
            !before.contains("your hand"),
            "a hand before passing: {before}"
        );
        assert!(!before.contains("to play (hot-seat"), "{before}");
        r.send("");
        r.expect(&format!("seat {seat} (human) to play (hot-seat"));
        r.expect("your hand");
        r.expect(&format!("seat {seat}> "));
        before
    };
    pass(&mut r, "green 11", 2);
    let said = pass(&mut r, "undo", 1);
    assert!(said.contains("Took back seat 1's last move"), "{said}");
    assert!(!said.contains("your last move"), "{said}");
    let said = pass(&mut r, "redo", 2);
    assert!(said.contains("Redid seat 1's move"), "{said}");
    let said = pass(&mut r, "undo 99", 1);
    assert!(said.contains("Took back seat 1's last move"), "{said}");
    pass(&mut r, "green 11", 2);
    r.type_expect("save g.json", "Saved to g.json", "seat 2> ");
    // Seat 2 plays Green 8: seat 1's Green 11 takes the trick, and seat 1
    // leads next.
    let said = pass(&mut r, "1", 1);
    assert!(said.contains("seat 2 (human): Green 8"), "{said}");
    // Seat 1 loads the save, where seat 2 is to play.
    let said = pass(&mut r, "load g.json", 2);
    assert!(said.contains("Loaded g.json"), "{said}");
    // Seat 2 reloads: still seat 2's turn, nothing to pass.
    let out = r.type_expect("reload", "replayed under the new rules", "seat 2> ");
    assert!(!out.contains("Pass to seat"), "{out}");
    let said = pass(&mut r, "new seed=3", 1);
    assert!(said.contains("New game of Sea Change"), "{said}");
    r.quit();
}

/// The table leaves out a face-down pile with no card in it (the deck of a
/// game that deals every card) and keeps it while it holds cards (the
/// draw pile of a 2-player Sea Change).
#[test]
fn an_empty_face_down_pile_is_left_out_of_the_table() {
    let mut r = start();
    for (line, deck) in [
        (
            "new sea_change players=4 seats=human,greedy,greedy,greedy seed=7",
            false,
        ),
        (
            "new seas_of_strife players=4 seats=human,greedy,greedy,greedy seed=7",
            false,
        ),
        ("new sea_change players=2 seats=human,greedy seed=7", true),
    ] {
        r.send(line);
        r.expect("New game of");
        r.expect("seat 1> ");
        r.send("show");
        r.expect("── ");
        let table = r.expect("seat 1> ");
        let deck_row = table.lines().any(|l| l.trim_start().starts_with("deck "));
        assert_eq!(deck_row, deck, "{line}:\n{table}");
        if deck {
            assert!(table.contains(" cards"), "{table}");
        } else {
            assert!(!table.contains(" 0 cards"), "{line}:\n{table}");
        }
    }
    r.quit();
}
