//! `deckhand lua FILE`: the worked example of each game in docs/examples/
//! runs and prints what docs/scripting.md says it does; a failing script
//! ends with one line naming the file and the line; data files are read
//! when named; a scenario may move cards but never make one.

use crate::common;

use common::{deckhand, run_in};
use std::path::PathBuf;
use std::process::Output;

/// The repository's docs/examples folder.
fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs/examples")
}

/// Run an example against its game; its standard output, after checking
/// that it succeeded.
fn example(file: &str, game: &str, players: &str) -> String {
    let path = examples().join(file);
    let out = deckhand(&[
        "lua",
        path.to_str().expect("utf-8"),
        "--game",
        game,
        "-p",
        players,
    ]);
    assert!(
        out.status.success(),
        "{file} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 output")
}

fn has_line(out: &str, line: &str) {
    assert!(
        out.lines().any(|l| l == line),
        "no line {line:?} in:\n{out}"
    );
}

#[test]
fn sea_change_a_sea_change_breaks_follow_suit_and_takes_the_trick() {
    let out = example("sea_change.lua", "sea_change", "4");
    has_line(&out, "trump: Blue");
    has_line(&out, "seat 3 leads Green 7");
    has_line(
        &out,
        "seat 4 may play: Blue 7 (Sea Change, Blue stays trump), Green 5, Green 8, Green 11, Red 7 (Sea Change → Red)",
    );
    has_line(&out, "trump: Red");
    has_line(&out, "trick won by seat 4");
    has_line(&out, "seat 4 leads next: true");
    has_line(
        &out,
        "game over after 5 rounds; VP: 0, 3, 1, 1; winner(s): seat 2",
    );
}

#[test]
fn seas_of_strife_any_suit_in_the_trick_may_be_followed_and_the_majority_takes_it() {
    let out = example("seas_of_strife.lua", "seas_of_strife", "4");
    has_line(&out, "seat 2 opens with Orange 0");
    // Seat 3 holds no orange: any card.
    assert!(out.contains("seat 3 may play: Red 13"), "{out}");
    assert!(!out.contains("seat 3 holds: Orange"), "{out}");
    has_line(
        &out,
        "seat 4 may play: Orange 2 (takes the trick so far), Orange 7 (takes the trick so far), \
         Orange 8 (takes the trick so far), Orange 10 ★ (takes the trick so far), Blue 35 (takes the trick so far)",
    );
    has_line(&out, "tricks taken: 1, 0, 0, 0");
    has_line(
        &out,
        "seat 1 chooses who leads: P1 leads, P2 leads, P3 leads, P4 leads",
    );
}

#[test]
fn sea_salt_paper_a_shark_and_a_swimmer_steal_a_card() {
    let out = example("sea_salt_paper.lua", "sea_salt_paper", "2");
    has_line(
        &out,
        "seat 2 may: Draw two from the deck, keep one | Take Swimmer (yellow) from discard 1 | Take Sailor (orange) from discard 2",
    );
    has_line(
        &out,
        "seat 2: Play Shark + Swimmer (steal a random card from an opponent)",
    );
    has_line(&out, "seat 1 holds: Mermaid (white)");
    has_line(&out, "seat 2 holds: Crab (yellow), Fish (dark blue)");
    has_line(&out, "seat 2's duos: Shark (black), Swimmer (yellow)");
    has_line(&out, "seat 1 to move");
}

#[test]
fn seadogs_selling_more_icons_at_once_brings_more_gold() {
    let out = example("seadogs.lua", "seadogs", "2");
    // A sale is one move that names its cards.
    has_line(&out, "seat 1 may: Sell Tea | Take no action here");
    has_line(
        &out,
        "seat 1: Sell Tea x3, Tea x2, Tea x2 (7 icons: 5 gold)",
    );
    has_line(&out, "seat 1 holds: Rum x1, Silk x1");
    has_line(
        &out,
        "P1: 8 gold, 3 gunpowder, 0 cubes, 0 treasure cards, at Sell (you)",
    );
}

/// Write `text` to `name` in a new folder; the folder.
fn script(name: &str, text: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join(name), text).expect("write script");
    dir
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_failing_script_prints_what_it_printed_then_one_line_naming_file_and_line() {
    let dir = script(
        "broken.lua",
        "print('before')\nscenario.give(1, { 'Green 99' })\nprint('after')\n",
    );
    let out = run_in(dir.path(), &["lua", "broken.lua"], "");
    assert!(!out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "before\n");
    let err = stderr(&out);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.contains("broken.lua:2:") && err.contains("no card of this game is called 'Green 99'"),
        "{err}"
    );

    let dir = script("bad_move.lua", "\n\nscenario.play('Blue 99')\n");
    let out = run_in(dir.path(), &["lua", "bad_move.lua"], "");
    assert!(!out.status.success());
    let err = stderr(&out);
    assert!(
        err.contains("bad_move.lua:3:") && err.contains("has no move 'Blue 99'"),
        "{err}"
    );
}

#[test]
fn data_files_named_on_the_command_line_are_read_and_others_are_not() {
    let dir = script(
        "deal.lua",
        "local names = {}\n\
         for line in data.hand:gmatch('[^\\n]+') do names[#names + 1] = line end\n\
         scenario.give(2, names)\n\
         print(table.concat(scenario.cards('hand', 2), ', '))\n",
    );
    std::fs::write(dir.path().join("hand.txt"), "Green 10\nRed 0\n").expect("write data");
    let out = run_in(
        dir.path(),
        &["lua", "deal.lua", "--data", "hand=hand.txt"],
        "",
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let hand = String::from_utf8_lossy(&out.stdout);
    assert!(
        hand.contains("Green 10") && hand.contains("Red 0"),
        "{hand}"
    );
    assert_eq!(
        hand.trim().split(", ").count(),
        10,
        "the hand keeps its size: {hand}"
    );

    // No --data: nothing to read, and the sandbox has no file access.
    let out = run_in(dir.path(), &["lua", "deal.lua"], "");
    assert!(!out.status.success());
    let dir2 = script("io.lua", "print(io.open('hand.txt'))\n");
    let out = run_in(dir2.path(), &["lua", "io.lua"], "");
    assert!(
        !out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // A data file is a regular file within the size cap.
    let out = run_in(
        dir.path(),
        &["lua", "deal.lua", "--data", "hand=/dev/zero"],
        "",
    );
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("not a regular file"),
        "{}",
        stderr(&out)
    );
}

#[test]
fn a_scenario_moves_cards_but_never_makes_or_edits_them_behind_the_core() {
    let dir = script(
        "forge.lua",
        "local id = game:new_card({ name = 'Gold 99' })\n\
         game:place(id, game:zone('deck'))\n",
    );
    let out = run_in(dir.path(), &["lua", "forge.lua"], "");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("never makes or removes one"),
        "{}",
        stderr(&out)
    );

    let dir = script("edit.lua", "table.remove(game:zone('hand', 1))\n");
    let out = run_in(dir.path(), &["lua", "edit.lua"], "");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("without the core"),
        "{}",
        stderr(&out)
    );

    // Writes are allowed in a scenario (its own game): moving and setting vars.
    let dir = script(
        "ok.lua",
        "scenario.on_top('Green 10', 'deck')\n\
         game.vars.note = 1\n\
         print(scenario.where('Green 10'), #scenario.cards('deck'))\n",
    );
    let out = run_in(dir.path(), &["lua", "ok.lua", "-p", "2"], "");
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).starts_with("deck\t"),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    // With 4 players every card is dealt: the card leaves a hand for the
    // empty deck, and the rules' own invariants refuse the position.
    let out = run_in(dir.path(), &["lua", "ok.lua", "-p", "4"], "");
    assert!(!out.status.success());
    assert!(
        stderr(&out).contains("the rules' invariants fail: hand sizes differ"),
        "{}",
        stderr(&out)
    );
}
