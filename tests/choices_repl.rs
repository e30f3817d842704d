//! Choosing several cards and reaction windows at the REPL, typed as a
//! person types, on the toy game tests/fixtures/melds: one prompt for a
//! set of cards (numbers or names), the rules' reason when they refuse it,
//! and auto-pass of a window kind.

use crate::pty;

use pty::{scripts_dir, Repl};
use std::path::Path;

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

/// The REPL on the shipped scripts plus the toy game.
fn melds() -> Repl {
    let home = tempfile::tempdir().expect("temp home");
    let scripts = home.path().join("scripts");
    copy_dir(&scripts_dir(), &scripts);
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/melds");
    copy_dir(&fixture, &scripts.join("melds"));
    Repl::spawn(&scripts, home)
}

#[test]
fn a_set_of_cards_is_typed_in_one_line_and_windows_auto_pass() {
    let mut r = melds();
    let out = r.type_expect(
        "new melds players=2 seats=human,random seed=3",
        "choose 2 of: 1 Red 5, 2 Red 6, 3 Blue 1, 4 Blue 4, 5 Blue 6",
        "seat 1> ",
    );
    assert!(out.contains("Discard 2 cards face down"), "{out}");
    r.type_expect("1 2 2", "card 2 is named twice", "seat 1> ");
    r.type_expect("1 3", "not these cards: choose exactly 2 cards", "seat 1> ");
    r.type_expect("1", "asks for cards: choose 2 of", "seat 1> ");
    // By names; the other seat's discard is a secret.
    let out = r.type_expect(
        "discard blue 1, blue 4",
        "seat 2 (random): discards 2 cards",
        "seat 1> ",
    );
    assert!(out.contains("seat 1 (you): Discard"), "{out}");
    r.type_expect(
        "meld red 5, blue 6",
        "not these cards: a meld is of one suit",
        "seat 1> ",
    );
    // The search weighs the options (a meld sampled among the valid sets
    // of cards in each playout).
    let out = r.type_expect("hint 20", "Search for seat 1", "seat 1> ");
    assert!(out.contains(") Meld cards of one suit"), "{out}");
    assert!(out.contains(") Draw a card"), "{out}");
    r.type_expect("meld 1 2", "seat 1 (you): Meld Red 5, Red 6", "seat 1> ");
    // Seat 2 melds after our draw: we are asked whether to veto it.
    r.send("2");
    let out = r.expect("Veto P2's meld of 7?");
    assert!(
        out.contains("seat 2 (random): Meld Blue 2, Blue 5"),
        "{out}"
    );
    r.expect("(a `meld` window: `autopass meld` passes these for you");
    r.expect("seat 1> ");
    r.send("autopass meld");
    r.expect("Auto-pass: windows passed: meld.");
    r.expect("seat 1 (you): Pass (auto-pass)");
    r.expect("seat 1> ");
    r.type_expect("autopass off", "Auto-pass is off", "seat 1> ");
    r.quit();
}
