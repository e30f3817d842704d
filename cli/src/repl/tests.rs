//! Session tests on a toy game kept in a temporary scripts folder (so that
//! `reload` can be tested by editing it): moves, bots, undo/redo, save and
//! load, reload, the Lua prompt and every kind of bad input.

use super::session::{Flow, Session};
use deckhand_engine::{DirSource, ScriptLibrary};
use std::path::Path;
use std::sync::Arc;

/// The toy "high card" game shared with the other crate's tests.
const HIGH_CARD: &str = include_str!("../../../tests/fixtures/high_card/game.lua");

const ODD_VARIANT: &str = r#"
return { id = "odd", title = "Odd cards only", game = "high_card", modify = function(R) end }
"#;

struct Fixture {
    dir: tempfile::TempDir,
    session: Session,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().expect("temp dir");
    let game_dir = dir.path().join("high_card");
    std::fs::create_dir_all(game_dir.join("variants")).expect("mkdir");
    std::fs::write(game_dir.join("game.lua"), HIGH_CARD).expect("write");
    std::fs::write(game_dir.join("variants").join("odd.lua"), ODD_VARIANT).expect("write");
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(DirSource::new(dir.path())));
    let session = Session::new(Arc::new(lib), false).expect("session");
    Fixture { dir, session }
}

impl Fixture {
    /// Type a line; return what was printed.
    fn type_line(&mut self, line: &str) -> String {
        let flow = self.session.handle_line(line);
        assert_ne!(flow, Flow::Quit, "{line}");
        self.session.take_output().join("\n")
    }

    fn script(&self) -> std::path::PathBuf {
        self.dir.path().join("high_card").join("game.lua")
    }

    fn history_len(&self) -> usize {
        self.session.game().map_or(0, |g| g.history().len())
    }
}

fn started() -> Fixture {
    let mut f = fixture();
    let out = f.type_line("new high_card players=3 seats=human,lowest,lowest seed=5");
    assert!(out.contains("New game of High Card"), "{out}");
    f
}

#[test]
fn a_new_game_shows_the_table_and_numbered_moves() {
    let mut f = fixture();
    let out = f.type_line("new high_card players=3 seats=human,lowest,lowest seed=5");
    assert!(
        out.contains("seat 1 (you), seat 2 (lowest), seat 3 (lowest)"),
        "{out}"
    );
    assert!(out.contains("your hand"), "{out}");
    assert!(
        out.contains("hand (seat 2)") && out.contains("3 cards"),
        "{out}"
    );
    assert!(out.contains("Points: seat 1: 0"), "{out}");
    assert!(out.contains("  1) C") && out.contains("  3) C"), "{out}");
    assert_eq!(f.session.prompt(), "seat 1> ");
}

#[test]
fn playing_a_number_lets_the_bots_answer() {
    let mut f = started();
    let out = f.type_line("1");
    assert!(out.contains("seat 1 (you): C"), "{out}");
    assert!(
        out.contains("seat 2 (lowest): C") && out.contains("seat 3 (lowest): C"),
        "{out}"
    );
    assert!(out.contains("wins the trick"), "{out}");
    assert_eq!(f.history_len(), 3);
}

#[test]
fn playing_by_card_name_and_prefix() {
    let mut f = started();
    let name = f.session.vocabulary().moves[0].clone();
    let out = f.type_line(&name.to_lowercase());
    assert!(out.contains(&format!("seat 1 (you): {name}")), "{out}");
    let name = f.session.vocabulary().moves[0].clone();
    let out = f.type_line(&format!("play {name}"));
    assert!(out.contains(&format!("seat 1 (you): {name}")), "{out}");
}

#[test]
fn illegal_and_impossible_moves_change_nothing() {
    let mut f = started();
    let out = f.type_line("99");
    assert_eq!(
        out,
        "there is no move 99: choose 1 to 3 (type `moves` to list them)"
    );
    assert!(f.type_line("0").contains("numbered from 1"));
    assert!(f
        .type_line("play Z42")
        .contains("no legal move matches 'Z42'"));
    assert_eq!(f.history_len(), 0);
}

#[test]
fn ambiguous_prefixes_list_the_candidates() {
    let mut f = started();
    let out = f.type_line("c");
    assert!(out.contains("could be several moves: 1) C"), "{out}");
    assert_eq!(f.history_len(), 0);
}

#[test]
fn mistyped_commands_suggest_the_closest() {
    let mut f = started();
    let out = f.type_line("shwo");
    assert!(
        out.contains("unknown command 'shwo' — did you mean 'show'?"),
        "{out}"
    );
    assert!(f.type_line("show me").contains("takes no arguments"));
    assert!(f
        .type_line("new high_card players=many")
        .contains("players=many"));
    assert_eq!(f.history_len(), 0);
}

#[test]
fn unknown_games_options_and_bots_are_clear_errors() {
    let mut f = started();
    let out = f.type_line("new high_crad");
    assert!(
        out.contains("unknown game 'high_crad' — did you mean 'high_card'?"),
        "{out}"
    );
    let out = f.type_line("new high_card colour=red");
    assert!(out.contains("no option 'colour'"), "{out}");
    let out = f.type_line("new high_card seats=human,smartest");
    assert!(out.contains("no bot named 'smartest'"), "{out}");
    let out = f.type_line("new high_card players=9");
    assert!(out.contains("2-4 players, not 9"), "{out}");
    let out = f.type_line("new high_card variant=nope");
    assert!(out.contains("variant 'nope'"), "{out}");
    // The game in progress is still there.
    assert!(f
        .type_line("show")
        .contains("High Card · seat 1 (you) to play"));
}

#[test]
fn a_whole_game_ends_with_the_result() {
    let mut f = started();
    let mut out = String::new();
    for _ in 0..3 {
        out = f.type_line("1");
    }
    assert!(
        out.contains("Game over after 9 moves and 1 round."),
        "{out}"
    );
    assert!(
        out.contains("Winner") && out.contains("Type `new` to play again"),
        "{out}"
    );
    assert_eq!(f.session.prompt(), "deckhand> ");
    assert!(f.type_line("1").contains("the game is over"));
    assert!(f.type_line("moves").contains("the game is over"));
    // `new` alone plays the same game again.
    let out = f.type_line("new seed=8");
    assert!(
        out.contains("New game of High Card (3 players, seed 8)"),
        "{out}"
    );
}

#[test]
fn undo_takes_back_bot_moves_too_and_redo_plays_them_again() {
    let mut f = started();
    let before = f.type_line("show");
    f.type_line("2");
    assert_eq!(f.history_len(), 3);
    let after = f.type_line("show");
    let out = f.type_line("undo");
    assert!(
        out.contains("Took back your last move (3 moves in all"),
        "{out}"
    );
    assert_eq!(f.history_len(), 0);
    assert_eq!(f.type_line("show"), before);
    let out = f.type_line("redo");
    assert!(out.contains("Redid your move (3 moves in all"), "{out}");
    assert_eq!(f.history_len(), 3);
    assert_eq!(f.type_line("show"), after);
    assert!(f.type_line("redo").contains("nothing to redo"));
    f.type_line("undo");
    assert!(f.type_line("undo").contains("nothing to undo"));
}

#[test]
fn log_lists_moves_with_seats() {
    let mut f = started();
    assert!(f.type_line("log").contains("No moves yet"));
    f.type_line("1");
    let out = f.type_line("log");
    assert!(out.contains("   1. seat 1 (you): C"), "{out}");
    assert!(out.contains("   3. seat 3 (lowest): C"), "{out}");
}

#[test]
fn save_and_load_restore_the_same_table() {
    let mut f = started();
    f.type_line("1");
    let path = f.dir.path().join("game.json");
    let path = path.to_string_lossy().to_string();
    let table = f.type_line("show");
    let out = f.type_line(&format!("save {path}"));
    assert!(
        out.contains("Saved to") && out.contains("(3 moves)"),
        "{out}"
    );
    f.type_line("1");
    let out = f.type_line(&format!("load {path}"));
    assert!(out.contains("3 moves replayed"), "{out}");
    assert_eq!(f.history_len(), 3);
    assert_eq!(f.type_line("show"), table);
    let out = f.type_line("seats");
    assert!(out.contains("seat 2 (lowest)"), "{out}");
}

#[test]
fn corrupt_or_missing_saves_change_nothing() {
    let mut f = started();
    f.type_line("1");
    let bad = f.dir.path().join("bad.json");
    std::fs::write(&bad, "{ not json").expect("write");
    let out = f.type_line(&format!("load {}", bad.display()));
    assert!(
        out.contains("cannot load") && out.contains("not a deckhand save"),
        "{out}"
    );
    let out = f.type_line("load /nonexistent/x.json");
    assert!(out.contains("cannot load /nonexistent/x.json"), "{out}");
    assert!(f
        .type_line("save /nonexistent/dir/x.json")
        .contains("cannot save"));
    assert_eq!(f.history_len(), 3);
}

#[test]
fn reload_replays_and_reports_where_the_log_stops() {
    let mut f = started();
    f.type_line("1");
    f.type_line("1");
    let out = f.type_line("reload");
    assert!(
        out.contains("all 6 moves replayed under the new rules"),
        "{out}"
    );
    // Deal one card fewer: the third move of seat 1 no longer exists.
    let text = one_card_fewer();
    std::fs::write(f.script(), &text).expect("write");
    let out = f.type_line("reload");
    assert!(out.contains("the log stops being legal at step"), "{out}");
    assert!(out.contains("(seat "), "{out}");
    assert!(f.history_len() < 6);
}

/// A house rule of High Card that wraps `apply`; with `fail`, it raises an
/// error on line 5 when the third step is applied.
fn third_step_rule(fail: bool) -> String {
    let check = if fail {
        "if game.vars.steps == 2 then error('the third step fails') end"
    } else {
        "-- every step applies"
    };
    format!(
        "return {{ id = 'third', title = 'Third step', game = 'high_card', modify = function(R)\n\
         \x20 local apply = R.apply\n\
         \x20 R.apply = function(game, seat, action)\n\
         \x20   -- the rule\n\
         \x20   {check}\n\
         \x20   return apply(game, seat, action)\n\
         \x20 end\n\
         end }}\n"
    )
}

#[test]
fn reload_onto_rules_that_fail_mid_game_names_the_line_and_keeps_the_game() {
    let mut f = fixture();
    let rule = f.dir.path().join("third.lua");
    std::fs::write(&rule, third_step_rule(false)).expect("write");
    let out = f.type_line(&format!(
        "new high_card players=3 seats=human,lowest,lowest seed=5 variant={}",
        rule.display()
    ));
    assert!(out.contains("New game of High Card"), "{out}");
    f.type_line("1");
    f.type_line("1");
    assert_eq!(f.history_len(), 6);
    let before = (
        f.type_line("show"),
        f.type_line("moves"),
        f.type_line("log"),
    );

    // The rule now raises an error at the third step: the game as it was.
    std::fs::write(&rule, third_step_rule(true)).expect("write");
    let out = f.type_line("reload");
    assert!(out.contains("reload failed"), "{out}");
    assert!(out.contains("at step 3 (seat 3)"), "{out}");
    assert!(
        out.contains(&format!("{}:5: the third step fails", rule.display())),
        "{out}"
    );
    assert!(out.contains("as it was (6 moves)"), "{out}");
    assert!(!out.contains("stops being legal"), "{out}");
    assert!(!out.contains("(lowest): "), "a bot moved: {out}");
    assert_eq!(f.history_len(), 6);
    assert_eq!(
        (
            f.type_line("show"),
            f.type_line("moves"),
            f.type_line("log")
        ),
        before
    );
    // Nothing to take back but the moves: the reload did not happen.
    let out = f.type_line("undo");
    assert!(out.contains("Took back your last move"), "{out}");
    f.type_line("redo");
    assert_eq!(f.history_len(), 6);

    // Fixed, the rule replays the whole game.
    std::fs::write(&rule, third_step_rule(false)).expect("write");
    let out = f.type_line("reload");
    assert!(out.contains("all 6 moves replayed"), "{out}");
    assert_eq!(
        (
            f.type_line("show"),
            f.type_line("moves"),
            f.type_line("log")
        ),
        before
    );
}

#[test]
fn a_broken_script_on_reload_keeps_the_game() {
    let mut f = started();
    f.type_line("1");
    let table = f.type_line("show");
    std::fs::write(f.script(), "local R = {\n  id = \n").expect("write");
    let out = f.type_line("reload");
    assert!(
        out.contains("reload failed") && out.contains("game.lua"),
        "{out}"
    );
    assert_eq!(f.history_len(), 3);
    assert_eq!(f.type_line("show"), table);
    f.type_line("1");
    assert_eq!(f.history_len(), 6);
}

#[test]
fn lua_evaluates_with_the_game_bound() {
    let mut f = started();
    assert_eq!(f.type_line("lua game.seats"), "3");
    assert_eq!(f.type_line("lua 1 + 1"), "2");
    assert!(f.type_line("lua nosuch.field").starts_with("lua: "));
    assert!(f.type_line("lua (").starts_with("lua: "));
    assert_eq!(f.session.handle_line("lua"), Flow::LuaPrompt);
    f.session.take_output();
    assert!(f.session.handle_lua_line("game.vars.turn"));
    assert_eq!(f.session.take_output(), vec!["1".to_string()]);
    assert!(!f.session.handle_lua_line(".exit"));
    assert!(!f.session.handle_lua_line(""));
}

#[test]
fn hot_seat_says_whose_turn_it_is() {
    let mut f = fixture();
    let out = f.type_line("new high_card players=2 seats=human,human seed=1");
    assert!(out.contains("seat 1 (human) to play (hot-seat"), "{out}");
    let out = f.type_line("1");
    assert!(out.contains("seat 2 (human) to play"), "{out}");
    assert_eq!(f.session.prompt(), "seat 2> ");
    assert!(out.contains("your hand"), "{out}");
}

#[test]
fn hot_seat_passes_the_terminal_before_the_next_persons_hand() {
    let mut f = fixture();
    f.type_line("new high_card players=3 seats=human,human,lowest seed=1");
    assert_eq!(f.session.take_output_handoff().1, None);
    // Seat 1 moves: the terminal passes to seat 2 before its turn and hand.
    f.session.handle_line("1");
    let (lines, handoff) = f.session.take_output_handoff();
    let (at, seat) = handoff.expect("a hand-off between two people");
    assert_eq!(seat, 2);
    let (before, after) = lines.split_at(at);
    let before = before.join("\n");
    let after = after.join("\n");
    assert!(before.contains("seat 1 (human): C"), "{before}");
    assert!(!before.contains("your hand"), "{before}");
    assert!(
        after.starts_with("── seat 2 (human) to play") && after.contains("your hand"),
        "{after}"
    );
    // Seat 2 moves, the bot answers, and it is seat 1's turn: pass again.
    f.session.handle_line("1");
    assert_eq!(f.session.take_output_handoff().1.map(|h| h.1), Some(1));
    // `show` and `moves` stay with the same person: no hand-off.
    f.session.handle_line("show");
    assert_eq!(f.session.take_output_handoff().1, None);
}

#[test]
fn hot_seat_undo_and_redo_say_whose_move_and_pass_the_terminal_first() {
    let mut f = fixture();
    f.type_line("new high_card players=2 seats=human,human seed=1");
    f.session.handle_line("1");
    assert_eq!(f.session.take_output_handoff().1.map(|h| h.1), Some(2));
    // Seat 2 takes back seat 1's move: seat 1's hand only after passing.
    for (line, said) in [
        ("undo", "Took back seat 1's last move"),
        ("redo", "Redid seat 1's move"),
        ("undo 99", "Took back seat 1's last move"),
    ] {
        f.session.handle_line(line);
        let (lines, handoff) = f.session.take_output_handoff();
        let (at, seat) = handoff.unwrap_or_else(|| panic!("{line}: no hand-off: {lines:?}"));
        let (before, after) = lines.split_at(at);
        let before = before.join("\n");
        assert!(before.contains(said), "{line}: {before}");
        assert!(!before.contains("your hand"), "{line}: {before}");
        assert!(after.join("\n").contains("your hand"), "{line}");
        // The next command is typed by the person the terminal went to.
        if line == "redo" {
            assert_eq!(seat, 2, "{line}");
        } else {
            assert_eq!(seat, 1, "{line}");
        }
    }
}

#[test]
fn whose_moves_an_undo_took_back() {
    use super::turns::moves_of;
    assert_eq!(moves_of(false, &[1], "last "), "your last move");
    assert_eq!(moves_of(false, &[1, 1, 1], "last "), "your last 3 moves");
    assert_eq!(moves_of(true, &[2], "last "), "seat 2's last move");
    assert_eq!(moves_of(true, &[2, 2], ""), "seat 2's 2 moves");
    assert_eq!(
        moves_of(true, &[3, 1, 2, 1], "last "),
        "the last 4 moves of seats 1, 2 and 3"
    );
}

#[test]
fn a_game_without_a_winning_seat_does_not_say_there_is_no_winner() {
    // A solo game lost to the rules' own opponent: no seat wins, which is
    // not "no winner" (the rules have just said who won).
    let f = fixture();
    let variant = f.dir.path().join("high_card/variants/nobody.lua");
    std::fs::write(
        &variant,
        r#"return { id = "nobody", title = "Nobody wins", game = "high_card",
  modify = function(R)
    R.result = function(game) return { scores = game.vars.score, winners = {}, rounds = 1 } end
  end }"#,
    )
    .expect("write");
    let mut f = f;
    f.type_line("new high_card players=2 variant=nobody seats=human,lowest hand=1 seed=1");
    let out = f.type_line("1");
    assert!(out.contains("Game over"), "{out}");
    assert!(out.contains("No seat wins."), "{out}");
    assert!(!out.contains("No winner"), "{out}");
}

#[test]
fn seats_can_change_mid_game() {
    let mut f = fixture();
    f.type_line("new high_card players=2 seats=human,human seed=1");
    let out = f.type_line("seats 2=lowest");
    assert!(out.contains("seat 2 (lowest)"), "{out}");
    let out = f.type_line("1");
    assert!(out.contains("seat 2 (lowest): C"), "{out}");
    assert!(f.type_line("seats 3=human").contains("no seat 3"));
    assert!(f
        .type_line("seats 2=nobody")
        .contains("no bot named 'nobody'"));
}

#[test]
fn games_options_and_help() {
    let mut f = started();
    let out = f.type_line("games");
    assert!(
        out.contains("* high_card") && out.contains("odd (Odd cards only)"),
        "{out}"
    );
    let out = f.type_line("options");
    assert!(
        out.contains("hand = 3") && out.contains("cards per hand"),
        "{out}"
    );
    assert!(f.type_line("options nope").contains("unknown game 'nope'"));
    assert!(f.type_line("help").contains("undo"));
    assert!(f.type_line("help new").contains("usage: new"));
    let v = f.session.vocabulary();
    assert_eq!(v.games[0].variants, vec!["odd"]);
    assert_eq!(v.games[0].bots, vec!["lowest"]);
    assert_eq!(v.moves.len(), 3);
}

#[test]
fn without_a_game_commands_say_how_to_start() {
    let mut f = fixture();
    for cmd in [
        "show",
        "moves",
        "1",
        "undo",
        "log",
        "save x.json",
        "seats",
        "new",
    ] {
        let out = f.type_line(cmd);
        assert!(out.contains("new"), "{cmd}: {out}");
    }
    assert_eq!(f.type_line("lua 2 * 3"), "6");
    assert_eq!(f.session.handle_line("quit"), Flow::Quit);
}

#[test]
fn the_default_start_falls_back_when_the_game_is_missing() {
    let mut f = fixture();
    f.session.start_default("no_such_game", 4, "greedy");
    let out = f.session.take_output().join("\n");
    assert!(
        out.contains("cannot start no_such_game") && out.contains("`games`"),
        "{out}"
    );
    f.session.start_default("high_card", 4, "greedy");
    let out = f.session.take_output().join("\n");
    assert!(
        out.contains("4 players, you at seat 1, lowest bots"),
        "{out}"
    );
    assert!(Path::new(&f.script()).exists());
}

#[test]
fn hint_weighs_every_move_and_plays_nothing() {
    let mut f = started();
    let before = f.history_len();
    let out = f.type_line("hint 60");
    // Each of the two searches has 30 and plays whole deals at its root,
    // one playout for each move still in: 5 deals of the 3 moves, then 7
    // of the better 2, 29 playouts (the 30th would be half a deal).
    assert!(out.contains("Search for seat 1 (58 playouts"), "{out}");
    assert!(out.contains("95% interval (normal approximation)"), "{out}");
    assert_eq!(out.matches("<- best").count(), 1, "{out}");
    // One line per legal move (3 cards in hand), each with its share, its
    // interval and the reply the search expects from seat 2.
    assert_eq!(out.matches(" over ").count(), 3, "{out}");
    assert_eq!(out.matches("% ± ").count(), 3, "{out}");
    assert_eq!(out.matches("likely next: seat 2 ").count(), 3, "{out}");
    assert_eq!(f.history_len(), before, "a hint plays nothing");
    // The same position gets the same hint.
    assert_eq!(f.type_line("hint 60"), out);
    let bad = f.type_line("hint lots");
    assert!(bad.contains("'lots' is not a budget"), "{bad}");
    let bad = f.type_line("hint 0");
    assert!(bad.contains("1 to 100000 playouts"), "{bad}");
}

/// A house rule that counts, in its own module-level variable, how many
/// games its rules have set up.
const COUNTS_STARTS: &str = r#"
local starts = 0
return { id = "counts", title = "Counts its games", game = "high_card",
  modify = function(R)
    local setup = R.setup
    R.setup = function(game)
      starts = starts + 1
      string.upper = nil -- a change to its own world
      setup(game)
      game.vars.starts = starts
    end
  end }
"#;

#[test]
fn every_new_game_loads_its_rules_afresh() {
    let mut f = fixture();
    let rule = f.dir.path().join("counts.lua");
    std::fs::write(&rule, COUNTS_STARTS).expect("write");
    let out = f.type_line(&format!(
        "new high_card players=2 seats=human,lowest variant={}",
        rule.display()
    ));
    assert!(out.contains("New game"), "{out}");
    assert_eq!(f.type_line("lua game.vars.starts"), "1");
    let out = f.type_line("new");
    assert!(out.contains("New game"), "{out}");
    // The second game's rules are not the first game's, changed.
    assert_eq!(f.type_line("lua game.vars.starts"), "1");
}

// ------------------------------------------------- cards named, rules, secrets

/// A session over the built-in scripts (Sea Change and the other games).
fn built_in_session() -> Session {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(crate::scripts::built_in()));
    Session::new(Arc::new(lib), false).expect("session")
}

fn say(s: &mut Session, line: &str) -> String {
    let flow = s.handle_line(line);
    assert_ne!(flow, Flow::Quit, "{line}");
    s.take_output().join("\n")
}

/// The legal move texts and the hand of seat 1, with the names of its cards.
fn hand_and_moves(s: &Session) -> (Vec<String>, Vec<String>) {
    let g = s.game().expect("game");
    let d = g.decision().expect("decision").expect("pending");
    let moves: Vec<String> = d
        .options
        .iter()
        .filter_map(|o| o.action.get("card").and_then(|c| c.as_u64()))
        .filter_map(|id| g.card(id as u32).ok().map(|c| c.name))
        .collect();
    let view = g.view(Some(1)).expect("view");
    let hand: Vec<String> = view
        .zones
        .iter()
        .find(|z| z.owner == Some(1) && z.name == "hand")
        .and_then(|z| z.cards.clone())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|id| g.card(id).ok().map(|c| c.name))
        .collect();
    (hand, moves)
}

#[test]
fn a_card_that_does_not_exist_is_not_taken_for_a_longer_number() {
    // 2-player Sea Change has no 1s: `green 1` must not play Green 11.
    let mut s = built_in_session();
    let mut tried = 0;
    for seed in 1..200 {
        let out = say(
            &mut s,
            &format!("new sea_change players=2 seats=human,greedy seed={seed}"),
        );
        assert!(out.contains("New game of Sea Change"), "{out}");
        let (_, moves) = hand_and_moves(&s);
        if !moves.iter().any(|m| m == "Green 11") {
            continue;
        }
        tried += 1;
        let before = s.game().map_or(0, |g| g.history().len());
        let out = say(&mut s, "green 1");
        assert!(!out.contains("Green 11"), "{out}");
        assert!(out.contains("green 1"), "{out}");
        assert_eq!(s.game().map_or(0, |g| g.history().len()), before);
        let out = say(&mut s, "green 11");
        assert!(out.contains("seat 1 (you): Green 11"), "{out}");
        break;
    }
    assert_eq!(tried, 1, "no seed deals Green 11 as a legal move");
}

#[test]
fn naming_a_card_you_may_not_play_says_why() {
    let mut s = built_in_session();
    for seed in 1..300 {
        say(
            &mut s,
            &format!("new sea_change players=2 seats=human,greedy seed={seed}"),
        );
        let (hand, moves) = hand_and_moves(&s);
        let Some(card) = hand.iter().find(|c| !moves.contains(c)) else {
            continue;
        };
        let before = s.game().map_or(0, |g| g.history().len());
        // Typed as a person would, lower case: not taken for a command.
        let out = say(&mut s, &card.to_lowercase());
        assert!(!out.contains("unknown command"), "{out}");
        assert!(
            out.contains(&format!(
                "{card} is not one of your moves now: you must follow"
            )),
            "{out}"
        );
        // The reason names the cards of the lead suit the seat holds.
        assert!(moves.iter().any(|m| out.contains(m.as_str())), "{out}");
        let out = say(&mut s, &format!("play {card}"));
        assert!(out.contains("you must follow"), "{out}");
        assert_eq!(s.game().map_or(0, |g| g.history().len()), before);
        // A card of the game that the seat does not hold.
        let g = s.game().expect("game");
        let other = g
            .cards()
            .expect("cards")
            .into_iter()
            .map(|c| c.name)
            .find(|n| !hand.contains(n))
            .expect("a card elsewhere");
        let out = say(&mut s, &other);
        assert!(out.contains(&format!("you do not hold {other}")), "{out}");
        return;
    }
    panic!("no seed gives seat 1 a card it may not play");
}

#[test]
fn without_why_not_the_moves_are_the_answer() {
    let mut f = started();
    let names = f.session.vocabulary().moves;
    let other = (1..=12)
        .map(|v| format!("C{v}"))
        .find(|n| !names.contains(n))
        .expect("a card not in hand");
    let out = f.type_line(&other.to_lowercase());
    assert!(
        out.starts_with(&format!(
            "{other} is not one of your moves now: you may play C"
        )),
        "{out}"
    );
    assert_eq!(f.history_len(), 0);
}

#[test]
fn rules_shows_the_summary_variants_and_options() {
    let mut s = built_in_session();
    say(
        &mut s,
        "new sea_change players=4 variant=team seats=human,greedy,greedy,greedy seed=3",
    );
    let out = say(&mut s, "rules");
    assert!(
        out.contains("Sea Change (4-8 players; this game: 4 players"),
        "{out}"
    );
    assert!(out.contains("Sea Change"), "{out}");
    assert!(out.contains("Follow the lead"), "{out}");
    assert!(out.contains("  team (variant"), "{out}");
    assert!(out.contains("target_vp = "), "{out}");
    let mut f = started();
    let out = f.type_line("rules");
    assert!(
        out.contains("High Card") && out.contains("gives no summary"),
        "{out}"
    );
    assert!(out.contains("Variants and house rules: none."), "{out}");
    assert!(out.contains("hand = 3"), "{out}");
}

#[test]
fn a_failed_bot_move_does_not_show_the_bots_hand() {
    let mut f = fixture();
    // Step 2, the first move of the bot at seat 2, raises an error.
    f.type_line("new high_card players=3 seats=human,lowest,lowest seed=5 boom_at=2");
    let hand2: Vec<String> = {
        let g = f.session.game().expect("game");
        let view = g.view(None).expect("view");
        view.zones
            .iter()
            .find(|z| z.owner == Some(2))
            .and_then(|z| z.cards.clone())
            .unwrap_or_default()
            .into_iter()
            .filter_map(|id| g.card(id).ok().map(|c| c.name))
            .collect()
    };
    let out = f.type_line("1");
    assert!(out.contains("failed"), "{out}");
    for line in ["moves", "hint 10"] {
        let out = f.type_line(line);
        assert!(out.contains("its moves are its own"), "{line}: {out}");
        for card in &hand2 {
            assert!(!out.contains(&format!(") {card}")), "{line}: {out}");
        }
    }
    // A card name typed now says whose turn it is, not "unknown command".
    let out = f.type_line(&hand2[0].to_lowercase());
    assert!(out.contains("seat 2 (lowest)'s turn"), "{out}");
}

#[test]
fn reload_names_the_move_that_stops_by_its_text_only() {
    let mut f = started();
    f.type_line("1");
    f.type_line("1");
    let text = one_card_fewer();
    std::fs::write(f.script(), &text).expect("write");
    let out = f.type_line("reload");
    assert!(out.contains("the log stops being legal at step"), "{out}");
    assert!(out.contains(" chose C"), "{out}");
    assert!(!out.contains("{\"card\""), "{out}");
    assert!(!out.contains("legal:"), "{out}");
}

#[test]
fn seas_of_strife_says_why_a_card_may_not_be_played() {
    let mut s = built_in_session();
    for seed in 1..300 {
        say(&mut s, &format!("new seas_of_strife players=4 seed={seed}"));
        if s.game().and_then(|g| g.pending()).map(|p| p.0) != Some(1) {
            continue;
        }
        let (hand, moves) = hand_and_moves(&s);
        let Some(card) = hand.iter().find(|c| !moves.contains(c)) else {
            continue;
        };
        let out = say(&mut s, &card.to_lowercase());
        assert!(
            out.contains(&format!("{card} is not one of your moves now: ")),
            "{out}"
        );
        assert!(
            out.contains("you must play a suit already in the trick")
                || out.contains("the round must be opened with"),
            "{out}"
        );
        assert!(!out.contains("you may play"), "{out}");
        return;
    }
    panic!("no seed gives seat 1 a card it may not play");
}

#[test]
fn the_lua_prompt_sees_the_game_read_only() {
    let mut f = started();
    let moves = f.type_line("moves");
    let table = f.type_line("show");
    // A primitive is refused: no card moves.
    let out = f.type_line("lua game:move_all(game._zones[1], game._zones[2])");
    assert!(
        out.contains("lua: ") && out.contains("the Lua prompt sees the game read-only"),
        "{out}"
    );
    // A write to the game's tables is undone and named.
    let out = f.type_line("lua game.vars.x = 1");
    assert!(
        out.contains("read-only") && out.contains("game.vars.x"),
        "{out}"
    );
    assert_eq!(f.type_line("lua game.vars.x"), "nil");
    let out = f.type_line("lua table.remove(game._zones[1])");
    assert!(out.contains("read-only"), "{out}");
    assert_eq!(f.type_line("moves"), moves);
    assert_eq!(f.type_line("show"), table);
    // Reading still works, and a move still plays.
    assert_eq!(f.type_line("lua game.seats"), "3");
    f.type_line("1");
    assert!(f.history_len() >= 1);
}

#[test]
fn lua_prompt_globals_persist_and_a_chunk_continues_on_the_next_line() {
    let mut f = started();
    assert_eq!(f.session.handle_line("lua"), Flow::LuaPrompt);
    f.session.take_output();
    let mut lua = |line: &str| {
        assert!(f.session.handle_lua_line(line), "{line}");
        (
            f.session.take_output().join("\n"),
            f.session.lua_prompt().to_string(),
        )
    };
    assert_eq!(lua("x = 5"), (String::new(), "lua> ".into()));
    assert_eq!(lua("x"), ("5".into(), "lua> ".into()));
    assert_eq!(lua("function twice(n)"), (String::new(), "...> ".into()));
    assert_eq!(lua("  return 2 * n"), (String::new(), "...> ".into()));
    assert_eq!(lua("end"), (String::new(), "lua> ".into()));
    assert_eq!(lua("twice(x)"), ("10".into(), "lua> ".into()));
    // `lua CODE` at the deckhand prompt shares the globals.
    assert_eq!(f.type_line("lua x + 1"), "6");
    // A new game starts with fresh globals.
    f.type_line("new");
    assert!(f.type_line("lua x").contains("undefined global 'x'"));
}

#[test]
fn lua_tables_print_as_lua() {
    let mut f = started();
    let out =
        f.type_line(r#"lua {1, "two", {a = true, ["a b"] = {3}, [10] = "x\ny"}, ["end"] = 0}"#);
    assert_eq!(
        out,
        r#"{1, "two", {[10] = "x\ny", a = true, ["a b"] = {3}}, ["end"] = 0}"#
    );
    // What it printed reads back as the same table.
    let again = f.type_line(&format!("lua {out}"));
    assert_eq!(again, out);
}

#[test]
fn undo_right_after_a_reload_takes_it_back_and_redo_reloads_again() {
    let mut f = started();
    f.type_line("1");
    f.type_line("1");
    let before = (f.type_line("show"), f.type_line("log"));
    // Deal one card fewer: the log stops being legal, later moves are cut.
    let text = one_card_fewer();
    std::fs::write(f.script(), &text).expect("write");
    let out = f.type_line("reload");
    assert!(out.contains("the log stops being legal at step"), "{out}");
    // The moves dropped are counted, and `undo` said to bring them back
    // (the bots then play on from the last legal step).
    let cut = f.history_len();
    assert!(cut < 6);
    let kept: usize = out
        .split("Continuing from step ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no step to continue from: {out}"));
    let dropped = 6 - kept;
    assert!(
        out.contains(&format!("({dropped} later move")) && out.contains(" dropped)"),
        "{out}"
    );
    assert!(
        out.contains(&format!(
            "`undo` takes the reload back and brings the {dropped} dropped move"
        )),
        "{out}"
    );
    let after = (f.type_line("show"), f.type_line("log"));

    let out = f.type_line("undo");
    assert!(out.contains("Took back the reload"), "{out}");
    assert_eq!(f.history_len(), 6);
    assert_eq!((f.type_line("show"), f.type_line("log")), before);

    let out = f.type_line("redo");
    assert!(out.contains("Redid the reload"), "{out}");
    assert_eq!(f.history_len(), cut);
    assert_eq!((f.type_line("show"), f.type_line("log")), after);

    // Once a move is made after the reload, undo takes moves back again.
    let out = f.type_line("1");
    assert!(f.history_len() > cut, "{out}");
    let out = f.type_line("undo");
    assert!(out.contains("Took back your last move"), "{out}");
    assert_eq!(f.history_len(), cut);
}

#[test]
fn the_autosave_follows_the_game_and_goes_when_it_ends() {
    use super::autosave::Autosave;
    let mut f = started();
    let path = f.dir.path().join("data").join("autosave.json");
    let mut autosave = Autosave::at(path.clone());
    // A game without moves is not worth keeping.
    assert!(autosave.update(f.session.autosave_state()).is_none());
    assert!(!path.exists());
    f.type_line("1");
    assert!(autosave.update(f.session.autosave_state()).is_none());
    let found = autosave.found().expect("an autosave");
    assert_eq!(found.save.actions.len(), f.history_len());
    assert_eq!(found.save.config.seed, 5);
    // Each change is written; a command that changes nothing leaves it.
    f.type_line("1");
    autosave.update(f.session.autosave_state());
    assert_eq!(
        autosave.found().map(|s| s.save.actions.len()),
        Some(f.history_len())
    );
    // (Removed behind its back: an unchanged game is not written again.)
    std::fs::remove_file(&path).expect("remove");
    f.type_line("show");
    autosave.update(f.session.autosave_state());
    assert!(!path.exists());
    f.type_line("undo");
    autosave.update(f.session.autosave_state());
    assert!(path.exists());
    // The game ends: nothing to resume.
    for _ in 0..50 {
        if f.session.game().is_some_and(|g| g.is_over()) {
            break;
        }
        f.type_line("1");
    }
    assert!(f.session.game().is_some_and(|g| g.is_over()));
    autosave.update(f.session.autosave_state());
    assert!(!path.exists());
}

/// The toy game dealing one card fewer to each hand.
fn one_card_fewer() -> String {
    let text = HIGH_CARD.replacen("hand = { default = 3", "hand = { default = 2", 1);
    assert_ne!(
        text, HIGH_CARD,
        "the toy game's hand size is not where it was"
    );
    text
}

/// A session over the built-in scripts at a Sea Change table, seat 1 a
/// person, as the help's examples assume.
fn sea_change_table() -> Session {
    let mut lib = ScriptLibrary::new();
    lib.push(Arc::new(crate::scripts::built_in()));
    let mut s = Session::new(Arc::new(lib), false).expect("session");
    s.handle_line("new sea_change players=4 seed=7 seats=human,greedy,greedy,greedy");
    let out = s.take_output().join("\n");
    assert!(out.contains("New game of Sea Change"), "{out}");
    s
}

#[test]
fn every_help_example_is_understood_and_run() {
    use super::commands::COMMANDS;
    for c in COMMANDS {
        for line in c.info.examples() {
            // The parser reads it as this command (a bare move is `play`).
            let word = line.split_whitespace().next().unwrap_or("");
            assert!(
                c.info.answers_to(word) || c.info.name == "play",
                "`{line}` in the help of {} is another command",
                c.info.name
            );
            // Run where it makes sense without files of the user's or
            // ending the session, on a fresh table each time; the others
            // are read by the parser only.
            let touches_files = ["save", "load"].contains(&c.info.name) || line.contains(".lua");
            if touches_files || c.info.name == "quit" {
                if let Err(e) = super::parse::parse(line) {
                    panic!("`{line}` in the help of {}: {e}", c.info.name);
                }
                continue;
            }
            let mut s = sea_change_table();
            let flow = s.handle_line(line);
            let out = s.take_output().join("\n");
            assert_ne!(flow, Flow::Quit, "`{line}`");
            assert!(
                !out.contains("unknown command") && !out.contains("(usage:"),
                "`{line}` (help of {}) was not understood: {out}",
                c.info.name
            );
        }
    }
}

#[test]
fn a_strength_the_rules_name_is_offered_and_sits_at_the_table_as_its_bot() {
    let mut f = fixture();
    let named = HIGH_CARD.replace(
        "\nreturn R",
        "\nR.strengths = { hard = \"lowest\" }\nreturn R",
    );
    std::fs::write(f.script(), named).expect("write");
    f.type_line("reload");
    let words = f.session.game_words();
    let high = words
        .iter()
        .find(|w| w.id == "high_card")
        .expect("high_card");
    assert!(high.bots.contains(&"hard".to_string()), "{:?}", high.bots);
    let out = f.type_line("new high_card players=2 seats=human,hard seed=5");
    assert!(out.contains("seat 2 (lowest)"), "{out}");
}
